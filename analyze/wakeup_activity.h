/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The activity consumer of the wakeup pipeline (analyze/wakeup_activity.c):
 * CPU activity over the whole trace for the CPU lanes chart, when
 * lat_analyze_opts.activity asks for it: the time tasks ran (slice ends), the
 * time in irq handlers (irq ends), the run-queue depth integrated over time.
 *
 * Writes (it alone): the result's activity.
 */
#ifndef LATSCOPE_WAKEUP_ACTIVITY_H
#define LATSCOPE_WAKEUP_ACTIVITY_H

#include "latscope/an_wakeup.h"

enum wk_act_what { WK_ACT_BUSY, WK_ACT_IRQ, WK_ACT_RQ };

struct wk_activity {
	struct lat_wakeup_result *r;	/* r->activity: NULL when not asked */
	uint8_t on;
	int *oom;
};

void wk_act_add(struct wk_activity *a, int32_t cpu, enum wk_act_what what, uint64_t from,
		uint64_t to, uint64_t weight);

/* A task (pid > 0) ran on @cpu over [@from, @to). */
static inline void wk_act_busy(struct wk_activity *a, int32_t cpu, int32_t pid, uint64_t from,
			       uint64_t to)
{
	if (a->on && pid > 0)
		wk_act_add(a, cpu, WK_ACT_BUSY, from, to, 1);
}

/* @nq tasks waited on @cpu over [@from, @to). */
static inline void wk_act_rq(struct wk_activity *a, int32_t cpu, uint32_t nq, uint64_t from,
			     uint64_t to)
{
	if (a->on && nq && to > from)
		wk_act_add(a, cpu, WK_ACT_RQ, from, to, nq);
}

/* An irq handler ran on @cpu over [@from, @to). */
static inline void wk_act_irq(struct wk_activity *a, int32_t cpu, uint64_t from, uint64_t to)
{
	if (a->on)
		wk_act_add(a, cpu, WK_ACT_IRQ, from, to, 1);
}

void wk_act_free(struct lat_wake_activity *a);

#endif
