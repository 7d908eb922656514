/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The trace-health consumer of the wakeup pipeline (analyze/wakeup_health.c;
 * docs/wakeup.md, "Trace health"): per CPU, what its events say about
 * themselves.  Events, switches into and out of idle, exits from idle that
 * only the next task's own events showed, events of a task the CPU was not
 * known to run, wakings and their sched_wakeup, lost-events marks, silences.
 * A CPU whose events are demonstrably incomplete (its exits from idle are
 * mostly not recorded, or a tenth of its switches are missing) is named:
 * from then on the core infers no switch-in and no stall there, and its
 * waits are of low trust (not counted unless --include-untrusted).
 *
 * Data layout: a struct wk_health_cpu in each CPU, registered in cpus[]
 * (WK_MAX_CPUS pointers from the arena); a struct wk_health_task in each task.
 *
 * Writes (it alone): its parts; of the result: health, nhealth, low_trust_waits.
 */
#ifndef LATSCOPE_WAKEUP_HEALTH_H
#define LATSCOPE_WAKEUP_HEALTH_H

#include <string.h>

#include "latscope/arena.h"
#include "wakeup_history.h"

/* A CPU's exits from idle are unrecorded from this many seen only by the next task's events. */
#define WK_HEALTH_IDLE_BREAKS 4
/* Its switches are missing from this many breaks, when they are a tenth of its switches. */
#define WK_HEALTH_BREAKS 16

struct wk_health_cpu {
	struct lat_wake_health r;	/* what the result gets (r.cpu its number) */
};

struct wk_health_task {
	uint8_t waking_open;		/* a sched_waking of it waits for its sched_wakeup */
};

struct wk_health {
	struct lat_wakeup_result *r;
	struct lat_arena *arena;
	uint64_t paired;		/* sched_waking -> sched_wakeup pairs seen, all CPUs */
	/* the newest sched_waking still waiting for its sched_wakeup (0: none), its task */
	uint64_t open_ts;
	int32_t open_pid;
	char open_comm[LAT_COMM_LEN];
	struct wk_health_cpu **cpus;	/* WK_MAX_CPUS, by number, NULL: not seen (the arena's) */
	size_t ncpus;
};

void wk_health_init(struct wk_health *hl, struct lat_wakeup_result *r, struct lat_arena *arena);
/* A new CPU's part.  0 or -LAT_ENOMEM. */
int wk_health_cpu_init(struct wk_health *hl, struct wk_health_cpu *p, int32_t cpu);

/* Whether the events of the CPU (@p) are complete enough to infer from (so far). */
static inline int wk_health_ok(const struct wk_health_cpu *p)
{
	return p->r.incomplete == LAT_HEALTH_OK;
}

/* Every event on the CPU. */
static inline void wk_health_event(struct wk_health_cpu *p)
{
	p->r.events++;
}

/*
 * An event at @ts on the CPU after a silence of LAT_WAKE_STALL_NS or more
 * since its last event at @last_ts (0: none, no silence): only those, the
 * core tests every event for stalls already (wk_stall_due()).
 */
static inline void wk_health_silence(struct wk_health_cpu *p, uint64_t last_ts, uint64_t ts)
{
	if (!last_ts)
		return;
	p->r.silences++;
	if (ts - last_ts > p->r.longest_silence_ns) {
		p->r.longest_silence_ns = ts - last_ts;
		p->r.longest_silence_end_ns = ts;
	}
}

/*
 * A sched_switch from @prev to @next.  Idle is a few percent of the switches:
 * branches, not adds of a test, which GCC 12 turned into vector code of three
 * times the instructions.
 */
static inline void wk_health_switch(struct wk_health_cpu *p, int32_t prev, int32_t next)
{
	p->r.switches++;
	if (__builtin_expect(next == 0, 0))
		p->r.into_idle++;
	if (__builtin_expect(prev == 0, 0))
		p->r.out_of_idle++;
}

void wk_health_judge(struct wk_health_cpu *p, uint64_t ts);

/*
 * At @ts an event showed another task than the one the switches said the CPU
 * ran (@was: that one, 0 idle): a switch went unrecorded.
 */
static inline void wk_health_break(struct wk_health_cpu *p, int32_t was, uint64_t ts)
{
	p->r.breaks++;
	p->r.idle_exits_unrecorded += was == 0;
	if (wk_health_ok(p))
		wk_health_judge(p, ts);
}

/*
 * A sched_waking, sched_wakeup or sched_wakeup_new (@type) at @ts on the CPU of
 * task @pid (its part @tp); a new task's has no sched_waking before it.
 */
static inline void wk_health_wake(struct wk_health *hl, struct wk_health_cpu *p,
				  struct wk_health_task *tp, enum lat_ev_type type, int32_t pid,
				  const char *comm, uint64_t ts)
{
	if (type == LAT_EV_WAKING) {
		p->r.wakings++;
		tp->waking_open = 1;
		hl->open_ts = ts;
		hl->open_pid = pid;
		memcpy(hl->open_comm, comm, LAT_COMM_LEN);
		return;
	}
	p->r.wakeups++;
	if (__builtin_expect(type == LAT_EV_WAKEUP && !tp->waking_open, 0))
		p->r.unpaired_wakeups++;	/* a branch, for the reason above */
	hl->paired += tp->waking_open;
	if (hl->open_pid == pid)
		hl->open_ts = 0;
	tp->waking_open = 0;
}

/* Lost events on the CPU: @count of them (0 unknown). */
static inline void wk_health_lost(struct wk_health_cpu *p, uint64_t count)
{
	p->r.lost_marks++;
	p->r.lost_events += count;
}

/* A wait of low trust (it ended on or was queued on an incomplete CPU), counted there. */
static inline void wk_health_low_trust(struct wk_health *hl, struct wk_health_cpu *p)
{
	p->r.low_trust_waits++;
	hl->r->low_trust_waits++;
}

/* Every CPU's health into the result.  0 or -LAT_ENOMEM. */
int wk_health_finish(struct wk_health *hl);

#endif
