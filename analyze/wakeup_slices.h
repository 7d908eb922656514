/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The marker slices consumer of the wakeup pipeline (analyze/wakeup_slices.c):
 * Android atrace's slices written through trace_marker ("B|pid|name",
 * "E|pid", "S|pid|name|cookie", "F|pid|name|cookie"), measured from begin to
 * end, summed per name.  A trace of an app's markers only (no sched_switch)
 * has no wait, but these durations are numbers to chart.
 *
 * Data layout: the names (a hash of their index), the B slices still open
 * (thread, name, start; ended last-in first-out per thread) and the S slices
 * still open (name, cookie, start).
 *
 * Writes (it alone): of the result: mslices, nmslices, mslice_orphans,
 * mslice_dropped.
 */
#ifndef LATSCOPE_WAKEUP_SLICES_H
#define LATSCOPE_WAKEUP_SLICES_H

#include "latscope/an_wakeup.h"

struct wk_mopen {
	uint64_t ts_ns;
	int64_t key;		/* B: the thread's pid; S: the cookie */
	uint32_t name;		/* index into the result's mslices */
};

struct wk_mslices {
	struct lat_wakeup_result *r;
	uint32_t *slot;		/* hash of names: mslices index + 1, 0 free */
	size_t nslot;
	size_t cap;		/* of r->mslices */
	struct wk_mopen *sync, *async;	/* open B and S slices, oldest first */
	size_t nsync, capsync, nasync, capasync;
	int *oom;
};

void wk_mslices_init(struct wk_mslices *m, struct lat_wakeup_result *r, int *oom);
/* A trace_marker's text from thread @pid at @ts: an atrace slice's begin or end, or nothing. */
void wk_mslices_marker(struct wk_mslices *m, int32_t pid, uint64_t ts, const char *s, size_t len);
/* The slices still open counted per name; the builder's state freed (the result keeps). */
void wk_mslices_finish(struct wk_mslices *m);

#endif
