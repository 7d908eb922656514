/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Results of the histogram analysis: block->analysis.  Definitions: docs/analyses.md. */
#ifndef LATSCOPE_AN_HISTOGRAM_H
#define LATSCOPE_AN_HISTOGRAM_H

#include "model.h"

/* A quantile as the bucket that holds it: [lo_ns, hi_ns), hi_ns INT64_MAX when open. */
struct lat_hist_q {
	int valid;		/* 0 when the histogram is empty */
	int64_t lo_ns, hi_ns;
};

enum lat_hist_qi { LAT_HQ_P50, LAT_HQ_P90, LAT_HQ_P99, LAT_HQ_P999, LAT_HQ_N };

enum lat_hist_ti { LAT_HT_1MS, LAT_HT_10MS, LAT_HT_100MS, LAT_HT_N };

struct lat_hist_stats {
	const struct lat_histogram *h;	/* lent from the block */
	uint64_t total;
	struct lat_hist_q q[LAT_HQ_N];
	/* samples in buckets whose lower bound is at or above 1 / 10 / 100 ms */
	uint64_t at_or_above[LAT_HT_N];
	/*
	 * samples in buckets that hold the threshold inside (lo < t < hi, an open
	 * overflow bucket starting below it too): at or above it, or not; unknown
	 */
	uint64_t straddling[LAT_HT_N];
	/* the largest non-empty bucket; valid 0 when every bucket is empty */
	struct lat_hist_q max;
	uint64_t max_count;
};

/*
 * A against B per measure: -1 A is better (lower quantile bucket, smaller share
 * of slow samples), +1 B is better, 0 the same.
 */
struct lat_hist_cmp {
	size_t a, b;			/* indexes into stats */
	int q[LAT_HQ_N];
	int at_or_above[LAT_HT_N];
	int max;
};

struct lat_hist_result {
	struct lat_hist_stats *stats;	/* owned, one per block->hist */
	size_t n;
	struct lat_hist_cmp *cmp;	/* owned: the first histogram against each other one */
	size_t ncmp;
};

extern const double lat_hist_quantiles[LAT_HQ_N];	/* 0.5, 0.9, 0.99, 0.999 */
extern const char *const lat_hist_qnames[LAT_HQ_N];	/* "p50", "p90", "p99", "p99.9" */
extern const int64_t lat_hist_thresholds_ns[LAT_HT_N];	/* 1, 10, 100 ms */
extern const char *const lat_hist_tnames[LAT_HT_N];	/* "1ms", "10ms", "100ms" */

/*
 * "[50 us, 56.2 us)", "none"; more digits when 3 would print lo = hi; an open bucket
 * [126 ms, +inf) is "> 126 ms" (the overflow as cyclictest's users read it).
 */
char *lat_hist_bucket_fmt(const struct lat_hist_q *q, char *buf, size_t len);
/* Total, quantiles, thresholds and the largest bucket of @h (st->h = h). */
void lat_hist_stats_of(const struct lat_histogram *h, struct lat_hist_stats *st);
/* Compares A with B measure by measure (c->a and c->b are left to the caller). */
void lat_hist_compare(const struct lat_hist_stats *a, const struct lat_hist_stats *b,
		      struct lat_hist_cmp *c);
/* The comparison in words ("median (p50): A is better (...); tail: ..."); as snprintf. */
int lat_hist_cmp_message(char *buf, size_t len, const char *an, const struct lat_hist_stats *a,
			 const char *bn, const struct lat_hist_stats *b,
			 const struct lat_hist_cmp *c);

#endif
