/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The priority-inversion consumer of the wakeup pipeline
 * (analyze/wakeup_inversion.c; docs/wakeup.md, "Real-time tasks"): a wait of
 * a real-time or deadline task of LAT_WAKE_PI_NS or more that ends with a
 * lower-priority task (not idle) leaving the CPU, less than half of it
 * inside a stall.
 *
 * Writes (it alone): the result's inversions and worst_inversion.
 */
#ifndef LATSCOPE_WAKEUP_INVERSION_H
#define LATSCOPE_WAKEUP_INVERSION_H

#include "wakeup_history.h"

struct wk_inversions {
	struct lat_wakeup_result *r;
	const struct wk_history *h;	/* lent: the stalls */
};

void wk_inversion_check(struct wk_inversions *inv, const struct wk_end *e);

/*
 * Wait end: only a real-time or deadline wait ended by a switch can be one.  The
 * class first: most waits are of fair tasks.
 */
static inline void wk_inversion_end(struct wk_inversions *inv, const struct wk_end *e)
{
	if (e->prio < 100 && e->prio >= -1 && e->prev && e->lat_ns >= LAT_WAKE_PI_NS)
		wk_inversion_check(inv, e);
}

#endif
