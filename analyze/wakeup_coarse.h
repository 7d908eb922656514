/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What ran on a CPU before its slice ring (wakeup_history.h) reaches, merged
 * (analyze/wakeup_coarse.c).  Kept only when timelines are asked
 * (lat_analyze_opts.timelines > 0), so that the timeline of a wait longer
 * than the ring reaches is drawn whole (docs/wakeup.md, "Timeline").
 *
 * A slice the ring lets go of is merged into level 0, whose spans are at most
 * WK_COARSE_RES0_NS long.  Each level is a ring of cap spans; the span a full
 * level lets go of is merged into the next level, whose spans are twice as
 * long.  So a span is about 1/cap of its age: a window built when it has
 * passed sees its oldest part at about its length / cap, however long the
 * trace.  Memory per CPU: cap spans per level in use; a level is used once
 * the ones below have filled, so about log2(trace length / (cap x
 * WK_COARSE_RES0_NS)) of them, WK_COARSE_LEVELS at most.
 *
 * Data layout:
 *   struct wk_coarse_cpu   one per CPU (the arena's), wk_hcpu.coarse
 *     lv[i].e[cap]         level i's spans, oldest at lv[i].head (the arena's, at its first)
 *   Every span of level i + 1 is older than every span of level i; the
 *   newest span of level 0 ends where the ring's oldest slice starts.
 *
 * Writer: the ring push (wk_ring_next(), wakeup_history.h) alone, through
 * wk_coarse_add().  Reader: the timelines (wakeup_timeline.c).
 */
#ifndef LATSCOPE_WAKEUP_COARSE_H
#define LATSCOPE_WAKEUP_COARSE_H

#include "latscope/arena.h"
#include "wakeup_rec.h"

#define WK_COARSE_LEVELS 40	/* level 39's spans: 16 us << 39, 100 days */
#define WK_COARSE_RES0_NS 16000	/* level 0's spans: at most 16 us (a few slices) */
#define WK_COARSE_MIN 64	/* spans per level: as many as WK_COARSE_BYTES allows, */
#define WK_COARSE_MAX 512	/* ... within these */
#define WK_COARSE_BYTES ((size_t)8 << 20)	/* all CPUs' at 24 levels (38 hours at 512) */

/* Slices merged: what ran on a CPU over [start, end). */
struct wk_coarse {
	uint64_t start, end;
	uint64_t busy_ns;		/* tasks' time in it (idle's and unknown's not) */
	uint64_t top_ns;		/* the top task's */
	uint32_t n;			/* slices merged */
	int32_t pid, prio;		/* the top task: the longest of the parts merged (a task's
					   parts merged in a row add up), 0 none (idle only) */
	char comm[LAT_COMM_LEN];
};

struct wk_coarse_level {
	struct wk_coarse *e;		/* cap spans, NULL until the first */
	uint32_t head, len;
};

struct wk_coarse_cpu {
	struct lat_arena *arena;	/* lent: the levels' memory */
	uint32_t cap;			/* spans per level, a power of two */
	uint32_t nlevels;		/* levels with spans: 0 .. nlevels - 1 */
	uint64_t lost_to;		/* nothing kept before this: the top level overflowed, or
					   a level's memory was refused (0: all kept) */
	uint64_t nslices;		/* slices merged ever */
	struct wk_coarse_level lv[WK_COARSE_LEVELS];
};

/* Spans per level for a trace of @ncpus CPUs (8 when not known). */
uint32_t wk_coarse_cap(int ncpus);
/* A CPU's merged history, @cap spans per level (a power of two), from @arena; NULL: no memory. */
struct wk_coarse_cpu *wk_coarse_new(struct lat_arena *arena, uint32_t cap);
/* Slice @s, the oldest the ring lets go of, merged in. */
void wk_coarse_add(struct wk_coarse_cpu *cc, const struct wk_slice *s);

/* Span @i (0 the oldest) of level @level. */
static inline const struct wk_coarse *wk_coarse_at(const struct wk_coarse_cpu *cc,
						   uint32_t level, uint32_t i)
{
	const struct wk_coarse_level *l = &cc->lv[level];

	return &l->e[(l->head + i) & (cc->cap - 1)];
}

#endif
