/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The wakeup analysis' core (analyze/wakeup.c, wakeup_core.c, wakeup_events.c,
 * wakeup_state.c only): the state machine that turns events into waits, and
 * the pipeline it feeds (docs/hacking.md, "The wakeup analysis").
 *
 * Data layout:
 *   struct wk                   one per analysis
 *     cpus[i] -> struct wk_cpu  from the arena at the CPU's first event
 *       h                       its history (wakeup_history.h): current task, rings
 *       stall, stats, sums, cases, pr, health, tmr   the consumers' parts of it
 *     tasks.slots[] -> struct wk_task   open addressing by pid; from the arena
 *       chain, stall, sums, pr, stats, health, tmr   the consumers' parts of it
 *     h, chain, stats, sums, gate, inv, sink, cases, stacks, stalls, health, act, tmr
 *                               the history and the consumers' own state
 *
 * Who writes: the core files write struct wk, wk_cpu and wk_task, except the
 * consumers' parts, which each consumer alone writes (the core hands a part
 * to its consumer and never looks inside).  Everything is bounded: O(CPUs +
 * tasks + worst N), never O(events).
 */
#ifndef LATSCOPE_WAKEUP_STATE_H
#define LATSCOPE_WAKEUP_STATE_H

#include <string.h>

#include "latscope/an_wakeup.h"
#include "latscope/analyze.h"
#include "latscope/arena.h"
#include "analyze_priv.h"
#include "wakeup_activity.h"
#include "wakeup_case.h"
#include "wakeup_chain.h"
#include "wakeup_gate.h"
#include "wakeup_health.h"
#include "wakeup_history.h"
#include "wakeup_inversion.h"
#include "wakeup_probe.h"
#include "wakeup_sink.h"
#include "wakeup_slices.h"
#include "wakeup_stack.h"
#include "wakeup_stall.h"
#include "wakeup_stats.h"
#include "wakeup_steal.h"
#include "wakeup_sums.h"
#include "wakeup_timer.h"

/* An irq, softirq or hrtimer callback running on a CPU (open from entry to exit). */
struct wk_open_irq {
	uint8_t open;
	uint64_t start;
	int32_t irq;
	char name[24];
};

/* What a stack event after the CPU's last event belongs to. */
enum wk_stack_kind { WK_STK_NONE, WK_STK_SWITCH, WK_STK_WAKING };

struct wk_cpu {
	struct wk_hcpu h;		/* the task on it now, the slices and irqs it ran */
	struct wk_task *cur_task;	/* h.cur_pid's task when looked up since it ran, or NULL */
	uint64_t last_ts;
	uint8_t seen;
	uint8_t cur_switched;		/* cur_start is a sched_switch's (2: an inferred one) */
	uint8_t switched;		/* a sched_switch was seen on it */
	uint32_t nq;			/* tasks waiting for it (pending waits queued on it) */
	uint64_t area, area_ts;		/* nq integrated over time (ns), up to area_ts */
	struct wk_open_irq hard, soft, timer;	/* timer: an hrtimer callback running */
	enum wk_stack_kind stack_kind;
	int32_t stack_pid;
	struct wk_stall_cpu stall;
	struct wk_sums_cpu sums;
	struct wk_cases_cpu cases;
	struct wk_probe_cpu pr;
	struct wk_stats_cpu stats;
	struct wk_health_cpu health;
	struct wk_timer_cpu tmr;
};

/*
 * A task.  The first 64 bytes are what every event about it touches (the
 * arena aligns it to 64): lookup, the comm check, the start of a wait.  A
 * wait's start and end touch the next lines too (the rest of the wait, the
 * sums' snapshot, its waker and the probe's notes), and its histogram's count
 * and extremes; the rest is rarer.
 */
struct wk_task {
	int32_t pid, prio;
	int32_t on_cpu, queued_cpu;
	uint64_t start;
	struct wk_chain_task chain;
	char comm[LAT_COMM_LEN];
	uint8_t pending, match, has_tent, off, nmigr, kind;	/* kind: enum lat_wait_kind */
	uint8_t at_wakeup;		/* the pending wait started at a sched_wakeup(_new) */
	uint8_t sel;			/* a wait of it passed --policy / --min-prio */
	/* line 1: the rest of a wait's start and end, and of a sleep's start */
	uint64_t gaps_at_start;		/* lost-events gaps before its wait began */
	uint8_t inferred;		/* the wait ending now ends at an inferred switch-in */
	uint8_t plus;			/* its preemption wait began at an R+ switch-out */
	uint8_t wakeup_seen;		/* the pending wait's sched_wakeup came (its first) */
	struct wk_health_task health;	/* 1 byte: every waking and wakeup touches it */
	uint32_t idx;			/* creation order: the consumers' per-task tables */
	int32_t qcpu;			/* the CPU whose run queue it waits in, -1 none */
	int32_t rq_wake, area_cpu;	/* run-queue depth at the waking; area0's CPU */
	struct wk_stall_task stall;
	uint64_t area0;			/* that CPU's area at the start of the wait */
	uint64_t off_start;
	uint64_t end_low;		/* an inferred switch-in: no earlier than this */
	int32_t off_stack;
	uint32_t migr_dropped;
	/* lines 2-3 */
	struct wk_sums_task sums;
	/* lines 4-5: its waker, and its last waking for the probe samples */
	struct lat_wake_waker waker;
	struct wk_probe_task pr;
	/* then the rarer */
	struct wk_stats_task stats;
	struct lat_wake_waker tent;
	struct lat_wake_migr migr[LAT_WAKE_MIGR_MAX];
	/*
	 * Where the pending wait is since (the start, or its last migration's
	 * time: arrived), and the queue it left last: its CPU and the time it was
	 * there, [left_from, left_until); left_until 0 before a migration.  The
	 * verdict sums count the time before the last migration as queued.
	 */
	uint64_t arrived, left_from, left_until;
	int32_t left_cpu;
	/* cold: a recorded sched_setscheduler() */
	uint8_t ss_pending;		/* inside sched_setscheduler(): ss_target, ss_policy */
	int32_t ss_target, ss_policy;
	int32_t policy;			/* set by a recorded sched_setscheduler(), -1 none */
	struct wk_timer_task tmr;
	/*
	 * --task COMM with timelines: the highest rank (wk_end_rank()) of its waits COMM did
	 * not select that would rank were its pid selected, -1 none (the cases' check)
	 */
	int64_t unsel_rank;
};

_Static_assert(offsetof(struct wk_task, gaps_at_start) == 64 &&
	       sizeof(struct wk_health_task) == 1 && offsetof(struct wk_task, idx) == 76 &&
	       offsetof(struct wk_task, sums) == 128 && offsetof(struct wk_task, waker) == 256,
	       "struct wk_task: the lines of a wait");

/* The pid beside the pointer: a probe past other pids does not load their tasks. */
struct wk_slot {
	int32_t pid;
	struct wk_task *t;		/* NULL: empty */
};

/* The task table (wakeup_state.c creates the tasks; the table lives until the end). */
struct wk_tasks {
	struct wk_slot *slots;		/* open addressing by pid; allocated before the first event */
	size_t tcap, ntasks;
};

/* The selection (--task, --policy, --min-prio), set once by wk_setup(). */
struct wk_sel {
	int32_t filter_pid;		/* -1: by comm (filter_comm) or no filter */
	enum lat_sched_policy filter_pol;	/* LAT_POL_UNKNOWN: any */
	int min_prio;			/* real-time priority at least, 0 any */
	uint8_t classing;		/* filter_pol or min_prio set */
	uint8_t any_match;		/* some task matched --task */
	const char *filter_comm;
};

struct wk {
	const struct lat_analyze_opts *o;
	struct lat_wakeup_result *r;
	struct wk_sel sel;
	uint8_t wake_tent;		/* o->wake_start: waits start at sched_wakeup */
	uint8_t include_untrusted;	/* o->include_untrusted: low-trust waits counted */
	struct wk_cpu **cpus;
	size_t ncpus;
	size_t ring_cap;		/* slices per CPU ring */
	struct wk_tasks tasks;
	struct wk_task *woken;		/* the task of the last waking or wakeup, or NULL */
	struct lat_arena arena;		/* CPUs, rings, tasks, histogram rows (not the nodes) */
	struct pr_probe *pr;		/* the probe samples, NULL: not collected */
	struct pr_seen pseen;
	int oom;
	/* the history, then the consumers in the order a wait's end reaches them */
	struct wk_history h;
	struct wk_chain chain;
	struct wk_stats stats;
	struct wk_sums sums;
	struct wk_gate gate;
	struct wk_inversions inv;
	struct wk_sink sink;
	struct wk_cases cases;
	/* the others: stacks, stalls, trace health, CPU activity */
	struct wk_stacks stacks;
	struct wk_stalls stalls;
	struct wk_health health;
	struct wk_steal steal;
	struct wk_activity act;
	struct wk_timers tmr;		/* kernel-side timer latency */
	struct wk_mslices ms;		/* atrace's marker slices */
};

/* ---- the task table and the CPUs (wakeup_state.c) -------------------------------------- */

int wk_tasks_grow(struct wk *w);
/* CPU @cpu (< WK_MAX_CPUS), made with its parts (or found); NULL out of memory. */
struct wk_cpu *wk_new_cpu(struct wk *w, int32_t cpu);
struct wk_task *wk_new_task(struct wk *w, int32_t pid, const char *comm);
void wk_rename_task(struct wk *w, struct wk_task *t, const char *comm);
/* --task on a task's pid or comm. */
int wk_task_matches(const struct wk *w, const struct wk_task *t);

static inline size_t wk_task_slot(const struct wk *w, int32_t pid)
{
	size_t i = ((uint32_t)pid * 2654435761u) & (w->tasks.tcap - 1);

	while (w->tasks.slots[i].t && w->tasks.slots[i].pid != pid)
		i = (i + 1) & (w->tasks.tcap - 1);
	return i;
}

static inline struct wk_task *wk_find_task(const struct wk *w, int32_t pid)
{
	return w->tasks.slots[wk_task_slot(w, pid)].t;
}

/* Whether the names @a and @b differ in their first LAT_COMM_LEN - 1 bytes: two loads each. */
static inline int wk_comm_differs(const char *a, const char *b)
{
	uint64_t a0, a1, b0, b1;

	_Static_assert(LAT_COMM_LEN == 16, "two overlapping 8-byte words cover 15 bytes");
	memcpy(&a0, a, 8);
	memcpy(&a1, a + 7, 8);
	memcpy(&b0, b, 8);
	memcpy(&b1, b + 7, 8);
	return ((a0 ^ b0) | (a1 ^ b1)) != 0;
}

/* The task @pid (> 0), created on first sight; comm refreshed when known. */
static inline struct wk_task *wk_get_task(struct wk *w, int32_t pid, const char *comm)
{
	struct wk_task *t;
	size_t i;

	i = wk_task_slot(w, pid);
	t = w->tasks.slots[i].t;
	if (!t)
		return wk_new_task(w, pid, comm);
	/* bytes past the NUL may differ: then the same name is copied again, no harm */
	if (comm && comm[0] && wk_comm_differs(t->comm, comm))
		wk_rename_task(w, t, comm);
	return t;
}

/* ---- the core's cold handlers (wakeup_events.c) ---------------------------------------- */

void wk_on_irq(struct wk *w, struct wk_cpu *c, int32_t cpu, const struct lat_event *ev);
void wk_on_timer(struct wk *w, struct wk_cpu *c, const struct lat_event *ev);
void wk_on_other(struct wk *w, struct wk_cpu *c, const struct lat_event *ev);
void wk_on_marker(struct wk *w, int32_t cpu, const struct lat_event *ev);
void wk_on_lost(struct wk *w, struct wk_cpu *c, int32_t cpu, const struct lat_event *ev);
void wk_on_stack(struct wk *w, struct wk_cpu *c, const struct lat_event *ev);
void wk_on_task(struct wk *w, const struct lat_event *ev);
/* Silences before event @ev on @c that were stalls: to the history, sums, sink. */
void wk_check_stall(struct wk *w, struct wk_cpu *c, const struct lat_event *ev);
/* pr_view_fn: the points of the marker @ev's task (analyze_priv.h). */
void wk_probe_view(void *ctx, const struct lat_event *ev, struct pr_view *v);

/* ---- wakeup_core.c -------------------------------------------------------------------- */

/*
 * The slice of @c's current task ends at @end for @why, outside the rings
 * (lost events, the trace's end) or inside (a break, which the caller puts
 * in the ring): the activity and the sink.
 */
static inline void wk_cur_slice_out(struct wk *w, struct wk_cpu *c, int32_t cpu, uint64_t end,
				    enum lat_slice_end why)
{
	if (c->h.cur_known)
		wk_act_busy(&w->act, cpu, c->h.cur_pid, c->h.cur_start, end);
	if (w->sink.slice)
		wk_sink_cur(&w->sink, &c->h, cpu, end, why);
}

/*
 * Every event of @src, in batches, through the core.  Returns what
 * lat_event_next_batch() last returned; stops early when w->oom is set.
 */
int wk_run(struct wk *w, struct lat_event_source *src, uint64_t *taken);

#endif
