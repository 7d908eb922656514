/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The export sink consumer of the wakeup pipeline (analyze/wakeup_sink.c):
 * what the analysis sees, one record at a time, to lat_analyze_opts.sink
 * (latscope/an_wakeup_sink.h, `latscope export`): every running slice, every
 * ended wait, every marker, lost-events gap and stall.  Each call is a test
 * when no sink is set.
 */
#ifndef LATSCOPE_WAKEUP_SINK_H
#define LATSCOPE_WAKEUP_SINK_H

#include "latscope/an_wakeup_sink.h"
#include "wakeup_chain.h"
#include "wakeup_history.h"

struct wk_sink {
	const struct lat_wake_sink *s;	/* lent, or NULL */
	uint8_t wait, slice, event;	/* s takes waits, slices, events */
};

static inline void wk_sink_init(struct wk_sink *k, const struct lat_wake_sink *s)
{
	k->s = s;
	k->wait = s && s->wait;
	k->slice = s && s->slice;
	k->event = s && s->event;
}

/* The slice of the CPU's current task (@hc), ended at @end for @why. */
void wk_sink_cur(const struct wk_sink *k, const struct wk_hcpu *hc, int32_t cpu, uint64_t end,
		 enum lat_slice_end why);

/* A slice ended by a switch: @s, its start known (@known), the state it left in. */
void wk_sink_switch(const struct wk_sink *k, int32_t cpu, const struct wk_slice *s, int known,
		    enum lat_task_state state);

/* Wait end (@nd its chain node): trusted or not, with its verdict when judged. */
void wk_sink_wait(const struct wk_sink *k, const struct wk_end *e, const struct wk_node *nd);

static inline void wk_sink_marker(const struct wk_sink *k, const struct lat_event *ev,
				  int64_t lat_ns)
{
	if (k->s && k->s->marker)
		k->s->marker(k->s->ctx, ev, lat_ns);
}

static inline void wk_sink_lost(const struct wk_sink *k, const struct lat_wake_gap *g)
{
	if (k->s && k->s->lost)
		k->s->lost(k->s->ctx, g);
}

/* A handler ended: @soft, @irq, @name, from @start to @end on @cpu. */
static inline void wk_sink_irq(const struct wk_sink *k, int32_t cpu, int soft, int32_t irq,
			       const char *name, uint64_t start, uint64_t end)
{
	struct lat_irq_slice q = { .cpu = cpu, .irq = irq, .soft = (uint8_t)soft,
				   .start_ns = start, .end_ns = end, .name = name };

	if (k->s && k->s->irq)
		k->s->irq(k->s->ctx, &q);
}

/* The run queue of @cpu holds @depth from @ts on. */
static inline void wk_sink_runq(const struct wk_sink *k, int32_t cpu, uint64_t ts, uint32_t depth)
{
	if (k->s && k->s->runq)
		k->s->runq(k->s->ctx, cpu, ts, depth);
}

static inline void wk_sink_stall(const struct wk_sink *k, const struct lat_wake_stall *s)
{
	if (k->s && k->s->stall)
		k->s->stall(k->s->ctx, s);
}

#endif
