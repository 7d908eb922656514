/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The gate consumer of the wakeup pipeline: the counted wakeup waits strictly
 * above --fail-above (docs/cli.md, "The CI gate"; the decision is
 * analyze/gate.c's).  Writes (it alone): the result's over_limit.
 */
#ifndef LATSCOPE_WAKEUP_GATE_H
#define LATSCOPE_WAKEUP_GATE_H

#include "wakeup_rec.h"

struct wk_gate {
	struct lat_wakeup_result *r;
	int64_t fail_ns;		/* INT64_MAX: no gate */
};

static inline void wk_gate_init(struct wk_gate *g, struct lat_wakeup_result *r, int64_t fail_ns)
{
	g->r = r;
	g->fail_ns = fail_ns > 0 ? fail_ns : INT64_MAX;
}

/* Wait end. */
static inline void wk_gate_end(struct wk_gate *g, const struct wk_end *e)
{
	if (e->lat_ns > g->fail_ns && e->ranked && e->kind != LAT_WAIT_PREEMPT)
		g->r->over_limit++;
}

#endif
