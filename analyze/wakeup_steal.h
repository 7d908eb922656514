/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The steal consumer of the wakeup pipeline (analyze/wakeup_steal.c): the steal
 * time latscope record sampled from /proc/stat through the recording
 * (docs/record.md, "latscope: steal" markers, parsed by the readers), as
 * windows of CPU time the host gave to something else: each marker says a CPU's
 * steal grew since the previous reading (since_ns before it).  The markers come
 * after the silences they explain (the sampler was stopped too), so the stalls
 * and worst cases get their steal time at the end.
 *
 * Data layout: per CPU the last steal value seen (from the metadata's start
 * values, then each marker), and the windows (bounded).
 *
 * Writes (it alone): of the result: stalls[].steal_ns and worst[].steal_ns.
 */
#ifndef LATSCOPE_WAKEUP_STEAL_H
#define LATSCOPE_WAKEUP_STEAL_H

#include "latscope/env.h"
#include "latscope/an_wakeup.h"

#define WK_STEAL_WINDOWS 8192	/* windows kept (the sampler writes one per change) */
#define WK_STEAL_CPUS 256	/* CPUs whose last value is kept */

struct wk_steal_win {
	uint64_t from, to;
	int32_t cpu;
	int64_t ns;
};

struct wk_steal {
	uint8_t sampled;		/* the trace has steal sampling (metadata or markers) */
	int64_t last[WK_STEAL_CPUS];	/* per CPU its last cumulative steal, LAT_ENV_UNKNOWN */
	struct wk_steal_win *win;	/* malloc'ed at the first window */
	size_t nwin;
	uint64_t dropped;		/* windows past WK_STEAL_WINDOWS */
	int *oom;
};

/* From @env (NULL none): the start values of each CPU, and whether steal was sampled. */
void wk_steal_init(struct wk_steal *st, const struct lat_trace_env *env, int *oom);
/* A "latscope: steal" marker at @ts, its values parsed (@s). */
void wk_steal_marker(struct wk_steal *st, const struct lat_steal *s, uint64_t ts);
/* The steal time of @cpu (-1: the most of one CPU) in windows overlapping [a, b], -1 unknown. */
int64_t wk_steal_in(const struct wk_steal *st, int32_t cpu, uint64_t a, uint64_t b);
/* Every stall's and every case's steal time in @r. */
void wk_steal_finish(const struct wk_steal *st, struct lat_wakeup_result *r);
void wk_steal_release(struct wk_steal *st);

#endif
