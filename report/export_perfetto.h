/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Trace Event Format writer's tracks (report/export_perfetto_tracks.c),
 * below the records (report/export_perfetto.c): ids, the task and CPU tables,
 * the counters, the event writer.  Both files write struct lat_perfetto
 * (latscope/export.h); the task table and the CPU table only here.
 */
#ifndef LATSCOPE_EXPORT_PERFETTO_H
#define LATSCOPE_EXPORT_PERFETTO_H

#include <stdio.h>

#include "latscope/export.h"

/*
 * Synthetic ids no kernel pid reaches (PID_MAX_LIMIT is 4194304): the process
 * of tasks whose process is not known, the CPUs' process, its CPU tracks
 * (one per CPU), and its irq and softirq tracks (PF_IRQ_TID0 + 2 * cpu + soft).
 */
#define PF_TASKS_PID 4194304
#define PF_CPUS_PID 4194305
#define PF_CPU_TID0 4194306
#define PF_IRQ_TID0 (PF_CPU_TID0 + 65536)

struct lat_pf_task {
	int32_t pid;		/* 0: empty slot (pid 0 is the idle task: no track) */
	int32_t tgid;		/* its process' id in the file (PF_TASKS_PID: unknown) */
	uint8_t match;		/* --task: it is the task (its tracks are drawn) */
	uint8_t drawn;		/* an event is on its track: it is named */
	char comm[LAT_COMM_LEN];
};

/*
 * A counter of a CPU.  Its changes at one instant (a switch ends a wait and
 * starts another) are written once, as the last of them, when a later instant
 * comes: the value pending at pend_ts.
 */
struct pf_counter {
	int64_t last;		/* its value as last written (or passed before the window); -1 none */
	int64_t pend;		/* the value at pend_ts, not written yet; -1 none */
	uint64_t pend_ts;
	uint8_t started;	/* written inside the window already */
};

struct lat_pf_cpu {
	uint8_t busy;			/* a task (not idle) ran from busy_from to busy_to */
	uint64_t busy_to;
	uint8_t irq_used[2];		/* its irq, softirq track has events (is named) */
	struct pf_counter c_busy, c_runq;
};

/* The task @pid (comm noted); NULL for the idle task or out of memory (p->oom). */
struct lat_pf_task *pf_task(struct lat_perfetto *p, int32_t pid, const char *comm);
/* The task's track (its process): pid to write with its tid. */
static inline int32_t pf_task_pid(const struct lat_pf_task *t)
{
	return t->tgid;
}
/* The counter state of @cpu (noted as seen); NULL out of memory. */
struct lat_pf_cpu *pf_cpu(struct lat_perfetto *p, int32_t cpu);
/* Whether [@from, @to] overlaps the window. */
static inline int pf_in_window(const struct lat_perfetto *p, uint64_t from, uint64_t to)
{
	return to >= p->o.from_ns && (!p->o.to_ns || from <= p->o.to_ns);
}
/* qsort()'s order of tasks: by process, then tid. */
int pf_cmp_task(const void *a, const void *b);
/* "comm:tid" of a task waker, "irq:NAME" or "softirq:NAME" (the kind alone when unnamed). */
void pf_waker_name(char *w, size_t n, const struct lat_wake_waker *k);
/* Whether --task keeps task @pid of @comm (no --task: all). */
int pf_task_match(const struct lat_perfetto *p, int32_t pid, const char *comm);

/* Opens an event: {"ph":"X","pid":..,"tid":.. ; the caller adds fields and closes it. */
void pf_open(struct lat_perfetto *p, char ph, int32_t pid, int32_t tid);
/* ,"KEY":US.NNN: microseconds with the nanoseconds kept */
void pf_us(FILE *o, const char *key, uint64_t ns);
/* ,"KEY":"S" escaped */
void pf_str(FILE *o, const char *key, const char *s, size_t len);
/* Counter @which ("busy", "runnable") of @cpu is @v from @ts (written inside the window). */
void pf_count(struct lat_perfetto *p, int32_t cpu, struct pf_counter *c, const char *which,
	      uint64_t ts, int64_t v);
/* Writes the counter's pending change. */
void pf_count_flush(struct lat_perfetto *p, int32_t cpu, struct pf_counter *c, const char *which);

#endif
