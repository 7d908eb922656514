/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The log-linear histogram of the wakeup analysis (analyze/wakeup_hll.c), and
 * the statistics read from it: what the wakeup results, the mergeable
 * summaries (latscope/summary.h) and the charts of waits share.
 */
#ifndef LATSCOPE_HLL_H
#define LATSCOPE_HLL_H

#include "base.h"

struct lat_arena;		/* latscope/arena.h: where a histogram's rows come from */

/*
 * Log-linear histogram: exact below 256 ns, then 128 sub-buckets per power of
 * two, so a value read back (bucket middle, clamped to [min, max]) is within
 * 1/256 of the true one.  Rows are allocated on first use: a task's waits
 * spread over many powers of two, mostly sparsely.  The row table itself is
 * apart too, so a histogram per task keeps the task record small.  A row's
 * counters are 8-bit until the row holds 255 values, 16-bit until 65535,
 * 32-bit from then on (saturating): a quarter of the memory for the hundreds
 * of per-task histograms whose rows never get far.
 */
#define LAT_HLL_SUB 128
#define LAT_HLL_ROWS 58

struct lat_hll {
	uint64_t n;
	int64_t min, max;
	double sum;
	void **rows;			/* LAT_HLL_ROWS row pointers and the rows' counts (a row is
					   8-, 16- or 32-bit by its count), NULL until the first bucket */
	struct lat_arena *arena;	/* where rows come from; NULL: malloc */
};

/* Adds one value (negative values count as 0).  Returns 0 or -LAT_ENOMEM. */
int lat_hll_add(struct lat_hll *h, int64_t v);
/* Adds every value of @src to @dst.  Returns 0 or -LAT_ENOMEM. */
int lat_hll_merge(struct lat_hll *dst, const struct lat_hll *src);
/*
 * Adds @n values to the bucket of @v without noting them (count, sum, min and
 * max are the caller's, set from a merged summary).  Returns 0 or -LAT_ENOMEM.
 */
int lat_hll_bucket_n(struct lat_hll *h, int64_t v, uint64_t n);
/*
 * Calls @fn for every non-empty bucket, from the lowest: [lo, hi) and its
 * count.  A value in it is read back as its middle (within 1/256 of lo).
 */
void lat_hll_each(const struct lat_hll *h,
		  void (*fn)(void *ctx, int64_t lo, int64_t hi, uint64_t n), void *ctx);
/* Nearest-rank percentile, @pct_milli in thousandths of a percent (99900 = p99.9). */
int64_t lat_hll_percentile(const struct lat_hll *h, uint32_t pct_milli);
void lat_hll_release(struct lat_hll *h);

/*
 * A wait histogram for charts: a lat_hll summed to LAT_WAKE_HIST_SUB buckets
 * per power of two of ns.  Their edges are edges of lat_hll buckets, so the
 * counts are exact.  Bucket 0 holds [0, 256 ns); bucket k >= 1 the k-1'th
 * eighth of [2^8, 2^9), [2^9, 2^10), ...; the last one is open (values of
 * 2^62 ns and more, none in practice).
 */
#define LAT_WAKE_HIST_SUB 8
#define LAT_WAKE_HIST_N (1 + LAT_WAKE_HIST_SUB * 54)

/* Bucket @k's range [*lo, *hi) in ns; *hi is INT64_MAX for the open last bucket. */
void lat_wake_hist_edges(size_t k, int64_t *lo, int64_t *hi);

/* What a histogram says: all 0 when n is 0; else min <= p50 <= p90 <= p99 <= p999 <= max. */
struct lat_wake_stat {
	uint64_t n;
	int64_t min, max, p50, p90, p99, p999;	/* ns; percentiles nearest-rank, within 1/256 */
	double avg;				/* exact */
};

/* The statistics of @h into @st. */
void lat_hll_stat(const struct lat_hll *h, struct lat_wake_stat *st);

#endif
