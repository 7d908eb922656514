/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The gap probe's model (analyze/probe_gap.c; docs/probe.md, "The gap probe's
 * samples"): a gap sample is a time its busy-looping thread did not run between
 * two clock reads, cut into what its CPU did then, from the wakeup analysis'
 * history (the view's spans).
 *
 * Data layout: struct pr_gap, one per probe analysis (in struct pr_probe),
 * holds the buffers one decomposition uses, reused for the next: the spans of
 * the window, their ends sorted, and the time per task and per handler.
 *
 * Writes: the gap fields of the sample it is given (part_*, silent_ns,
 * ntasks, irqs, holder_*), and nobody else's.
 */
#ifndef LATSCOPE_PROBE_GAP_H
#define LATSCOPE_PROBE_GAP_H

#include "latscope/an_probe.h"
#include "analyze_priv.h"

struct pr_span;
struct pr_point;
struct pr_named;

struct pr_gap {
	struct pr_span *sp;		/* the window's spans, clipped to it */
	size_t nsp, spcap;
	struct pr_point *pt;		/* their ends, sorted */
	size_t ptcap;
	struct pr_named *who;		/* time per task (pid) and per handler (name) */
	size_t nwho, whocap;
	size_t *act;			/* the spans open at a point of the sweep */
	size_t actcap;
	int32_t pid;			/* the probe thread */
	uint64_t from, to;		/* the window */
	int oom;
};

/*
 * Sample @s (kind gap, its marker @ev) cut into its parts from the history
 * @v gives; the stall part holds the silent time until pr_gap_finish().
 * 0 or -LAT_ENOMEM.
 */
int pr_gap_decompose(struct pr_gap *g, const struct pr_view *v,
		     const struct lat_event *ev, struct lat_probe_sample *s);
/*
 * The trace seen whole: the silent time is a stall when it records irq
 * handlers (@irqs), else unknown (an unrecorded handler may be it); the shares
 * and the dominant part.
 */
void pr_gap_finish(struct lat_probe_sample *s, int irqs);
void pr_gap_free(struct pr_gap *g);

#endif
