/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The records of the wakeup analysis' pipeline (analyze/wakeup*.c only).
 *
 * The core (wakeup_core.c) turns events into waits and running slices.  At
 * each step it fills one record of what is known then and hands it to a fixed
 * list of consumers, called directly (docs/hacking.md, "The wakeup analysis"):
 *
 *   wait start   struct wk_start   stall (owe), sums (snapshot), chain, activity (rq)
 *   wait end     struct wk_end     chain, stats, sums (verdict), gate, rt, sink, cases, timers
 *   slice end    struct wk_slice   history (ring), sums, activity, sink
 *   irq end      struct wk_irq     history (ring), sums, activity
 *   stall        lat_wake_stall    history, sums, sink, the result's list
 *
 * A record lives on the core's stack for the call: a consumer copies what it
 * keeps.  The wait-end record is filled in pipeline order: a consumer may add
 * what it found for the ones after it (chain_ref, verdict); nothing else in a
 * record is written by a consumer.  Consumers never see struct wk_task or
 * struct wk_cpu (wakeup_state.h): each gets its own part of them.
 */
#ifndef LATSCOPE_WAKEUP_REC_H
#define LATSCOPE_WAKEUP_REC_H

#include <stddef.h>

#include "latscope/an_wakeup_sink.h"

/* lat_sched_policy_of(), inline for the per-wait checks */
static inline enum lat_sched_policy wk_policy_of(int32_t prio)
{
	if (prio < 0)
		return prio == -1 ? LAT_POL_DEADLINE : LAT_POL_UNKNOWN;
	if (prio < 100)
		return LAT_POL_RT;
	if (prio < 140)
		return LAT_POL_FAIR;
	return LAT_POL_UNKNOWN;
}

/*
 * A task's run on a CPU: the history's rings keep them (wakeup_history.h).  A
 * slice of WK_PID_UNKNOWN is a stretch where who ran is not known: between the
 * last event of the task the switches said ran and the first of another, with
 * the switches between missing (docs/wakeup.md, "Missing switches").
 */
#define WK_PID_UNKNOWN (-1)
struct wk_slice {
	uint64_t start, end;
	int32_t pid, prio, stack;	/* stack: its kernel stack at the switch-out, -1 none */
	char comm[LAT_COMM_LEN];
	uint8_t preempted;		/* switched out runnable */
};

/* An irq or softirq handler's run, entry to exit. */
struct wk_irq {
	uint64_t start, end;
	int32_t irq;
	uint8_t soft;
	char name[24];
};

/* A wait begins (start_wait()). */
struct wk_start {
	int32_t pid, prio;
	int32_t queued_cpu;		/* the CPU whose run queue it joins, -1 none known */
	enum lat_wait_kind kind;
	uint64_t ts_ns;
};

/* What only a few consumers need of an ended wait: wk_end_detail() fills it on demand. */
struct wk_end_detail {
	int32_t policy;			/* set by a recorded sched_setscheduler(), -1 none */
	int32_t queued_cpu;		/* target CPU at the waking, -1 unknown */
	int32_t rq_wake;		/* run-queue depth at the waking, -1 unknown */
	uint64_t rq_area;		/* its CPU's queue integrated over the wait (ns x tasks),
					   UINT64_MAX when it moved between CPUs */
	const struct lat_wake_migr *migr;	/* its migrations during the wait, lent */
	uint32_t nmigr, migr_dropped;
	/* the queue it left at its last migration: CPU (-1 none) and [from, until) */
	int32_t left_cpu;
	uint64_t left_from, left_until;
};

/* A wait ends (end_wait()): what every consumer of it may use. */
struct wk_end {
	int32_t pid, prio;		/* prio at the switch in */
	int32_t cpu;			/* where it ran */
	enum lat_wait_kind kind;
	uint64_t start_ns, end_ns;
	int64_t lat_ns;
	const char *comm;		/* lent for the call, LAT_COMM_LEN bytes */
	const struct lat_wake_waker *waker;	/* lent */
	uint8_t trusted;		/* no lost-events gap fell inside it */
	uint8_t selected;		/* --task matched and --policy / --min-prio passed */
	uint8_t low_trust;		/* it ended or was queued on a CPU whose events are
					   incomplete (wakeup_health.h): its explanation is */
	uint8_t counted;		/* trusted and selected: in the statistics and verdicts */
	uint8_t ranked;			/* counted, and of full trust unless --include-untrusted:
					   it may head the worst and fail the gate */
	uint8_t inferred;		/* its switch in was not recorded: it ran in
					   (end_low_ns, end_ns] (docs/wakeup.md) */
	uint8_t preempted;		/* a preemption wait that began at an R+ switch-out */
	uint64_t end_low_ns;		/* end_ns unless inferred */
	/*
	 * Ended by a sched_switch in (not inferred): the slice of the task that
	 * left the CPU there (in the history's ring), else NULL.
	 */
	const struct wk_slice *prev;
	/* the rest, on demand (the core's; @src is its state, opaque here) */
	void (*detail)(const struct wk_end *e, struct wk_end_detail *d);
	const void *src, *src_cpu;
	/* filled on the way: */
	uint64_t chain_ref;		/* by the chain: the waker's last wait at the waking */
	int verdict;			/* by the sums: enum lat_verdict_kind when judged, else -1 */
	enum lat_verdict_basis vbasis;	/* ... and what it rests on */
	struct lat_verdict_evidence evidence;	/* by the sums, when judged: for the sink */
};

/* The rest of what is known of wait @e into @d. */
static inline void wk_end_detail(const struct wk_end *e, struct wk_end_detail *d)
{
	e->detail(e, d);
}

/* The rank a wait has among the worst (docs/wakeup.md, "The worst N"): an inferred
 * switch-in ranks by the part it surely waited, up to end_low_ns. */
static inline int64_t wk_end_rank(const struct wk_end *e)
{
	return e->inferred ? (int64_t)(e->end_low_ns - e->start_ns) : e->lat_ns;
}

#endif
