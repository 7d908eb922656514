// SPDX-License-Identifier: GPL-2.0-or-later
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "latscope/base.h"
#include "latscope/stats.h"

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

int64_t lat_percentile_sorted(const int64_t *v, size_t n, double pct)
{
	size_t rank;

	if (!n)
		return 0;
	rank = (size_t)ceil(pct / 100.0 * (double)n);
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return v[rank - 1];
}

void lat_stat_compute(int64_t *v, size_t n, struct lat_stat *st)
{
	double sum = 0;

	memset(st, 0, sizeof(*st));
	if (!n)
		return;
	lat_sort(v, n, sizeof(*v), cmp_i64);
	for (size_t i = 0; i < n; i++)
		sum += (double)v[i];
	st->n = n;
	st->min = v[0];
	st->max = v[n - 1];
	st->p50 = lat_percentile_sorted(v, n, 50);
	st->p90 = lat_percentile_sorted(v, n, 90);
	st->p99 = lat_percentile_sorted(v, n, 99);
	st->avg = sum / (double)n;
}
