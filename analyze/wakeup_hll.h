/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The log-linear histogram's insides (struct lat_hll, latscope/an_wakeup.h),
 * for its implementation (analyze/wakeup_hll.c) and the statistics consumer's
 * inline per-wait add (wakeup_stats.h).
 *
 * Data layout: h->rows is LAT_HLL_ROWS row pointers, then LAT_HLL_ROWS row
 * counts (uint64_t); row r holds LAT_HLL_SUB counters of 8, 16 or 32 bits as
 * its count says (below HLL_W8, below HLL_W16, above).  Rows come from
 * h->arena (or malloc) on first use.
 */
#ifndef LATSCOPE_WAKEUP_HLL_H
#define LATSCOPE_WAKEUP_HLL_H

#include "latscope/hll.h"

/* hll_bump()'s other cases: a new row or histogram, a 32-bit row or one to widen. */
int wk_hll_bump_slow(struct lat_hll *h, unsigned row, unsigned col);
/* Adds the counts of @h into @b (LAT_WAKE_HIST_N buckets, lat_wake_hist_edges()). */
void wk_hll_coarse(const struct lat_hll *h, uint64_t *b);

static inline void hll_index(uint64_t v, unsigned *row, unsigned *col)
{
	unsigned m, shift;

	if (v < 2 * LAT_HLL_SUB) {
		*row = (unsigned)(v / LAT_HLL_SUB);
		*col = (unsigned)(v % LAT_HLL_SUB);
		return;
	}
	m = 63u - (unsigned)__builtin_clzll(v);
	shift = m - 7;
	*row = m - 6;
	*col = (unsigned)((v >> shift) - LAT_HLL_SUB);
}

/*
 * The row table: LAT_HLL_ROWS row pointers, then each row's count, so that a
 * percentile walk reads the few rows its ranks fall in, not every bucket.
 */
#define HLL_TABLE_BYTES (LAT_HLL_ROWS * (sizeof(void *) + sizeof(uint64_t)))
/*
 * A row's counters are uint8_t while its count is below HLL_W8, uint16_t while
 * below HLL_W16, uint32_t from then on: a counter is at most its row's count,
 * so none can overflow its width, and the width needs no flag.  Nearly every
 * per-task row holds fewer than 255 values.
 */
#define HLL_W8 255u
#define HLL_W16 65535u

static inline uint64_t *hll_row_counts(void *const *rows)
{
	return (uint64_t *)(void *)(rows + LAT_HLL_ROWS);
}

/* Bucket @col of row @r (allocated) of the table @rows. */
static inline uint32_t hll_get(void *const *rows, unsigned r, unsigned col)
{
	uint64_t n = hll_row_counts(rows)[r];

	if (n < HLL_W8)
		return ((const uint8_t *)rows[r])[col];
	return n < HLL_W16 ? ((const uint16_t *)rows[r])[col] : ((const uint32_t *)rows[r])[col];
}

static inline void hll_note(struct lat_hll *h, int64_t v)
{
	if (v < 0)
		v = 0;
	if (!h->n || v < h->min)
		h->min = v;
	if (!h->n || v > h->max)
		h->max = v;
	h->n++;
	h->sum += (double)v;
}

/*
 * The bucket (@row, @col) of @h, one more: inline while its row exists and
 * keeps its width (8, 16 or 32 bits, unsaturated).
 */
static inline int hll_bump(struct lat_hll *h, unsigned row, unsigned col)
{
	void *r;
	uint64_t *n;

	if (__builtin_expect(!h->rows || !(r = h->rows[row]), 0))
		return wk_hll_bump_slow(h, row, col);
	n = &hll_row_counts(h->rows)[row];
	if (*n < HLL_W8 - 1)
		((uint8_t *)r)[col]++;
	else if (*n >= HLL_W8 && *n < HLL_W16 - 1)
		((uint16_t *)r)[col]++;
	else if (*n >= HLL_W16 && ((uint32_t *)r)[col] < UINT32_MAX)
		((uint32_t *)r)[col]++;	/* a busy task's row in a long trace: every value */
	else
		return wk_hll_bump_slow(h, row, col);
	(*n)++;
	return 0;
}

#endif
