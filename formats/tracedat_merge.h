/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The merge of a buffer's CPUs on (timestamp, cpu), the order trace-cmd
 * report uses: a binary heap of nodes that carry their CPU's head (ts, cpu),
 * so that the compares follow no pointer, and the head of the earliest CPU
 * after the top (the limit): while the top CPU's next event stays before the
 * limit it is the next one again and the heap is left alone.  One merge for
 * the one-thread page walk (tracedat_walk.c) and the threaded reader's
 * puller (tracedat_par.c).
 *
 * CPU numbers are distinct within a buffer, so (ts, cpu) orders the heads
 * totally and every heap gives the same sequence.
 */
#ifndef LATSCOPE_FORMATS_TRACEDAT_MERGE_H
#define LATSCOPE_FORMATS_TRACEDAT_MERGE_H

#include <stdint.h>

struct td_mnode {
	uint64_t ts;
	int32_t cpu;
	int32_t slot;			/* the caller's index of the CPU */
};

struct td_merge {
	uint64_t lim_ts;		/* (ts, cpu) of the earliest CPU after the top; */
	int32_t lim_cpu;		/* UINT64_MAX, INT32_MAX when the top is alone */
	int n;
	struct td_mnode *h;		/* the caller's: room for every CPU and one more */
};

/* Whether a head at (@ts, @cpu) is after the limit: the top is no longer the earliest. */
static inline int td_merge_crossed(const struct td_merge *m, uint64_t ts, int32_t cpu)
{
	return m->lim_ts < ts || (m->lim_ts == ts && m->lim_cpu < cpu);
}

/* Adds a CPU whose head is (@ts, @cpu); td_merge_limit() after the last one. */
void td_merge_push(struct td_merge *m, uint64_t ts, int32_t cpu, int32_t slot);

/* Sets the limit from the heap after the pushes (td_merge_sift() sets its own). */
void td_merge_limit(struct td_merge *m);

/* The general case of td_merge_fix(): the top re-placed (@live) or dropped; the limit set. */
void td_merge_sift(struct td_merge *m, int live);

/*
 * The top CPU stepped: @live, its head is now at @ts (its cpu unchanged);
 * else it ended and leaves the merge.  The heap and the limit are fixed.
 */
static inline __attribute__((always_inline)) void td_merge_fix(struct td_merge *m, int live,
								uint64_t ts)
{
	if (live) {
		m->h[0].ts = ts;
		if (m->n == 2) {
			/* two CPUs, the other one now earlier: they trade places */
			struct td_mnode t = m->h[0];

			m->h[0] = m->h[1];
			m->h[1] = t;
			m->lim_ts = t.ts;
			m->lim_cpu = t.cpu;
			return;
		}
	}
	td_merge_sift(m, live);
}

#endif
