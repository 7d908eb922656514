/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Exact order statistics over small in-memory samples. */
#ifndef LATSCOPE_STATS_H
#define LATSCOPE_STATS_H

#include <stddef.h>
#include <stdint.h>

struct lat_stat {
	uint64_t n;
	int64_t min, p50, p90, p99, max;
	double avg;
};

/*
 * Fills @st from @n values (sorted in place).  Percentiles use the
 * nearest-rank rule: pXX is the smallest value with at least XX% of the
 * values at or below it.  n == 0 leaves everything zero.
 */
void lat_stat_compute(int64_t *v, size_t n, struct lat_stat *st);

/* Nearest-rank percentile of @n sorted values, 0 < @pct <= 100. */
int64_t lat_percentile_sorted(const int64_t *v, size_t n, double pct);

#endif
