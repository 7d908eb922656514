/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The probe samples' notes in the wakeup analysis (docs/probe.md): what the
 * core keeps so that analyze/probe.c can ask, for a probe marker, where its
 * task was woken and switched in (wk_probe_view(), wakeup_events.c).  A few
 * stores per waking and irq entry, nothing when no probe samples are
 * collected.
 *
 * Writes: the core's handlers, through these functions, and nobody else.
 */
#ifndef LATSCOPE_WAKEUP_PROBE_H
#define LATSCOPE_WAKEUP_PROBE_H

#include <string.h>

#include "latscope/event.h"

#define WK_PR_IRQS 4		/* irq entry names kept per CPU for the probe samples */
/*
 * A real-time task's wait judged for a probe sample that may follow: 50 us is
 * a quarter of the smallest marker the recorder writes by default
 * (--marker-above 200us); the many short waits of a cyclictest are not judged
 * (2% of the instructions of a trace of one, measured).
 */
#define WK_PR_JUDGE_RT_NS 50000

/* A CPU's: its last irq entries (with their names), hrtimer_wakeup expiry, lost mark. */
struct wk_probe_cpu {
	uint8_t ihead;
	uint64_t irq_ts, expire_ts;	/* the last irq entry, hrtimer_wakeup expiry */
	uint64_t lost_ts;		/* the last lost-events mark */
	struct {
		uint64_t ts;
		char name[24];
	} irq[WK_PR_IRQS];		/* the last irq entries' names */
};

/*
 * A task's last waking: when, for which CPU, by which CPU, and that CPU's last
 * irq entry and hrtimer expiry then (0 none).  A task that wrote a timer
 * sample's marker (@marked) has every wait judged, whatever its length, a
 * real-time one those of WK_PR_JUDGE_RT_NS or more: the last one's end,
 * verdict (enum lat_verdict_kind) and its part, for the sample that measured
 * it.
 */
struct wk_probe_task {
	int32_t cpu, wcpu;
	uint64_t ts, irq_ts, expire_ts;
	uint8_t marked;
	int8_t verdict;			/* -1 none */
	uint64_t v_end;
	int64_t v_part;
};

/* The waking at @ts of a task (its part @tp) for CPU @target by CPU @cpu (its part @cp). */
static inline void wk_probe_waking(struct wk_probe_task *tp, const struct wk_probe_cpu *cp,
				   int32_t cpu, int32_t target, uint64_t ts)
{
	tp->ts = ts;
	tp->cpu = target >= 0 ? target : cpu;
	tp->wcpu = cpu;
	tp->irq_ts = cp->irq_ts;
	tp->expire_ts = cp->expire_ts;
}

static inline void wk_probe_irq_entry(struct wk_probe_cpu *cp, uint64_t ts, const char *name)
{
	size_t i = cp->ihead++ % WK_PR_IRQS;

	cp->irq_ts = ts;
	cp->irq[i].ts = ts;
	strncpy(cp->irq[i].name, name && name[0] ? name : "irq", sizeof(cp->irq[i].name) - 1);
	cp->irq[i].name[sizeof(cp->irq[i].name) - 1] = 0;
}

/* Lost events on the CPU at @ts: what was noted before is no longer of this period. */
static inline void wk_probe_lost(struct wk_probe_cpu *cp, uint64_t ts)
{
	cp->irq_ts = 0;
	cp->expire_ts = 0;
	cp->lost_ts = ts;
}

#endif
