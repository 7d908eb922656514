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
#include <string.h>

#include "latscope/export.h"
#include "latscope/json.h"
#include "latscope/dectext.h"

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

/*
 * The JSON is made in place in p->buf and handed to p->out PF_BUF bytes at a time: printf()
 * per field was four fifths of the export (bench/README-export.md).  An event is begun with
 * pf_open(), which makes room for PF_ROOM bytes and returns where to write; its fixed parts
 * and numbers (export_text.h) are written there without a test of their room, its texts
 * with pf_str(), which leaves PF_ROOM after them; pf_close() keeps it.  Between two texts
 * an event writes less than PF_EVENT_MAX bytes, with the slack of its numbers (the most:
 * a verdict, its basis and its 8 causes, 450), so a text of up to PF_SHORT bytes (6 bytes
 * a byte at most escaped, PF_SHORT_TEXT with its key) needs no test of its room either.
 */
#define PF_BUF (64u << 10)
#define PF_ROOM 2048u
#define PF_EVENT_MAX 600u
#define PF_SHORT 64u
#define PF_SHORT_TEXT (LAT_JSON_ESCAPE_MAX * PF_SHORT + 32)
_Static_assert(PF_EVENT_MAX + PF_SHORT_TEXT <= PF_ROOM, "an event and a short text in the room");

/*
 * An event's beginning, {"ph":"X","pid":..,"tid":.., as written before: the events of a
 * track repeat it (two 7-digit numbers were a third of an event).  PF_HEADS of them, by
 * track and phase.
 */
#define PF_HEADS 256
#define PF_HEAD_LEN 64		/* 8 + 1 + 9 + 11 + 7 + 11 = 47 at most, whole words after */

struct lat_pf_head {
	int32_t pid, tid;	/* pid 0: none */
	char ph;
	uint8_t len;
	char s[PF_HEAD_LEN];
};

/* Hands the JSON made to p->out: where it goes on. */
char *pf_drain(struct lat_perfetto *p);
/* Where p's JSON goes on after @o, with room for PF_ROOM bytes. */
static inline char *pf_room(struct lat_perfetto *p, char *o)
{
	p->nbuf = (size_t)(o - p->buf);
	if (PF_BUF - p->nbuf < PF_ROOM)
		return pf_drain(p);
	return o;
}
/* The event ends at @o. */
static inline void pf_close(struct lat_perfetto *p, char *o)
{
	p->nbuf = (size_t)(o - p->buf);
}
/*
 * @pre (a literal: ,"KEY":" or "KEY":"), @len bytes of @s escaped, and the closing quote, at
 * @o; where it goes on (room for PF_ROOM).
 */
char *pf_strn(struct lat_perfetto *p, char *o, const char *pre, size_t npre, const char *s,
	      size_t len);
#define PF_STR(p, o, pre, s, len) pf_strn((p), (o), (pre), sizeof(pre) - 1, (s), (len))
/*
 * The same of a text of up to PF_SHORT bytes in a buffer that can be read in whole words
 * (@len rounded up to 8): those are checked and copied a word at a time.
 */
char *pf_words(struct lat_perfetto *p, char *o, const char *pre, size_t npre, const char *s,
	       size_t len);
#define PF_WORDS(p, o, pre, s, len) pf_words((p), (o), (pre), sizeof(pre) - 1, (s), (len))
/* A name of ours or of the analysis (no escape needed, short) at @o. */
static inline char *pf_word(char *o, const char *s)
{
	size_t n = strlen(s);

	return (char *)memcpy(o, s, n) + n;
}
/* ,"KEY":US.NNN: microseconds with the nanoseconds kept (KEY a literal) */
#define PF_US(o, key, ns) lat_dec_us(LAT_LIT((o), ",\"" key "\":"), (ns))

/* The task @pid (comm noted); NULL for the idle task or out of memory (p->oom). */
struct lat_pf_task *pf_task(struct lat_perfetto *p, int32_t pid, const char *comm);
/* The task's track (its process): pid to write with its tid. */
static inline int32_t pf_task_pid(const struct lat_pf_task *t)
{
	return t->tgid;
}
/* pf_cpu() of a CPU not in the table yet (or not a CPU: NULL). */
struct lat_pf_cpu *pf_cpu_grow(struct lat_perfetto *p, int32_t cpu);
/* The counter state of @cpu (noted as seen); NULL out of memory. */
static inline struct lat_pf_cpu *pf_cpu(struct lat_perfetto *p, int32_t cpu)
{
	if (cpu < 0 || (size_t)cpu >= p->ccap)
		return pf_cpu_grow(p, cpu);
	if (cpu > p->max_cpu)
		p->max_cpu = cpu;
	return &p->cpus[cpu];
}
/* Whether [@from, @to] overlaps the window. */
static inline int pf_in_window(const struct lat_perfetto *p, uint64_t from, uint64_t to)
{
	return to >= p->o.from_ns && (!p->o.to_ns || from <= p->o.to_ns);
}
/* qsort()'s order of tasks: by process, then tid. */
int pf_cmp_task(const void *a, const void *b);
/*
 * "comm:tid" of a task waker, "irq:NAME" or "softirq:NAME" (the kind alone when unnamed):
 * 16 + 1 + a number's room (LAT_DEC_ROOM) at most, or a kind's name, ':' and 24.
 */
#define PF_WAKER_NAME 64
void pf_waker_name(char w[PF_WAKER_NAME], const struct lat_wake_waker *k);
/* Whether --task keeps task @pid of @comm (no --task: all). */
int pf_task_match(const struct lat_perfetto *p, int32_t pid, const char *comm);

/*
 * Opens an event: {"ph":"X","pid":..,"tid":.. ; returns where the caller adds its fields
 * (room for PF_ROOM), to close it with pf_close().
 */
char *pf_open(struct lat_perfetto *p, char ph, int32_t pid, int32_t tid);
/* Counter @which ("busy", "runnable") of @cpu is @v from @ts (written inside the window). */
void pf_count(struct lat_perfetto *p, int32_t cpu, struct pf_counter *c, const char *which,
	      uint64_t ts, int64_t v);
/* Writes the counter's pending change. */
void pf_count_flush(struct lat_perfetto *p, int32_t cpu, struct pf_counter *c, const char *which);

#endif
