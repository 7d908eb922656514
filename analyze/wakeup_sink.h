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
	uint8_t wait, slice;		/* s takes waits, slices */
};

static inline void wk_sink_init(struct wk_sink *k, const struct lat_wake_sink *s)
{
	k->s = s;
	k->wait = s && s->wait;
	k->slice = s && s->slice;
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

static inline void wk_sink_stall(const struct wk_sink *k, const struct lat_wake_stall *s)
{
	if (k->s && k->s->stall)
		k->s->stall(k->s->ctx, s);
}

#endif
