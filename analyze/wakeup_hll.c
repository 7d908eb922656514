// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Log-linear latency histogram (HdrHistogram's idea): a value v >= 256 falls in
 * row msb(v) - 6 and one of 128 equal sub-buckets of [2^msb, 2^(msb+1)), so a
 * bucket is at most v/128 wide and its middle is within v/256 of any member.
 */
#include <stdlib.h>
#include <string.h>

#include "latscope/arena.h"
#include "wakeup_hll.h"

/* The middle of bucket (row, col). */
static int64_t hll_value(unsigned row, unsigned col)
{
	uint64_t lo, width;

	if (row < 2)
		return (int64_t)(row * LAT_HLL_SUB + col);
	width = 1ull << (row + 6 - 7);
	lo = (uint64_t)(LAT_HLL_SUB + col) << (row + 6 - 7);
	return (int64_t)(lo + (width - 1) / 2);
}

static void *hll_zalloc(struct lat_hll *h, size_t bytes)
{
	return h->arena ? lat_arena_alloc(h->arena, bytes) : calloc(1, bytes);
}

/* The row @row of @h made @bytes wide (2 or 4) from what its count says it is, counts kept. */
static int hll_widen(struct lat_hll *h, unsigned row, size_t bytes)
{
	void *w = hll_zalloc(h, LAT_HLL_SUB * bytes);

	if (!w)
		return -LAT_ENOMEM;
	for (unsigned c = 0; c < LAT_HLL_SUB; c++) {
		uint32_t v = hll_get(h->rows, row, c);

		if (bytes == 2)
			((uint16_t *)w)[c] = (uint16_t)v;
		else
			((uint32_t *)w)[c] = v;
	}
	if (!h->arena)
		free(h->rows[row]);
	h->rows[row] = w;
	return 0;
}

/*
 * @k more values in bucket (@row, @col) of @h: the row table and the row
 * made where missing, the row widened when its count reaches HLL_W8 or HLL_W16.
 */
static int hll_add_n(struct lat_hll *h, unsigned row, unsigned col, uint64_t k)
{
	uint64_t *n, sum;
	uint32_t *w;

	if (!h->rows && !(h->rows = hll_zalloc(h, HLL_TABLE_BYTES)))
		return -LAT_ENOMEM;
	if (!h->rows[row] && !(h->rows[row] = hll_zalloc(h, LAT_HLL_SUB * sizeof(uint8_t))))
		return -LAT_ENOMEM;
	n = &hll_row_counts(h->rows)[row];
	if (*n < HLL_W8 && k < HLL_W8 - *n) {
		((uint8_t *)h->rows[row])[col] += (uint8_t)k;
		*n += k;
		return 0;
	}
	if (*n < HLL_W16 && k < HLL_W16 - *n) {
		if (*n < HLL_W8 && hll_widen(h, row, sizeof(uint16_t)))
			return -LAT_ENOMEM;
		((uint16_t *)h->rows[row])[col] += (uint16_t)k;
		*n += k;
		return 0;
	}
	if (*n < HLL_W16 && hll_widen(h, row, sizeof(uint32_t)))
		return -LAT_ENOMEM;
	/* a bucket saturates rather than wraps: 4G equal waits of one task is not a trace */
	w = h->rows[row];
	sum = (uint64_t)w[col] + k;
	if (sum > UINT32_MAX)
		sum = UINT32_MAX;
	*n += sum - w[col];
	w[col] = (uint32_t)sum;
	return 0;
}

int wk_hll_bump_slow(struct lat_hll *h, unsigned row, unsigned col)
{
	return hll_add_n(h, row, col, 1);
}

static int hll_bucket(struct lat_hll *h, int64_t v)
{
	unsigned row, col;

	hll_index(v < 0 ? 0 : (uint64_t)v, &row, &col);
	return hll_bump(h, row, col);
}

int lat_hll_merge(struct lat_hll *dst, const struct lat_hll *src)
{
	if (!src->n)
		return 0;
	for (unsigned r = 0; src->rows && r < LAT_HLL_ROWS; r++) {
		if (!src->rows[r] || !hll_row_counts(src->rows)[r])
			continue;
		for (unsigned c = 0; c < LAT_HLL_SUB; c++) {
			uint32_t k = hll_get(src->rows, r, c);

			if (k && hll_add_n(dst, r, c, k))
				return -LAT_ENOMEM;
		}
	}
	if (!dst->n || src->min < dst->min)
		dst->min = src->min;
	if (!dst->n || src->max > dst->max)
		dst->max = src->max;
	dst->n += src->n;
	dst->sum += src->sum;
	return 0;
}

int lat_hll_bucket_n(struct lat_hll *h, int64_t v, uint64_t n)
{
	unsigned row, col;

	if (!n)
		return 0;
	hll_index(v < 0 ? 0 : (uint64_t)v, &row, &col);
	return hll_add_n(h, row, col, n);
}

void lat_hll_each(const struct lat_hll *h,
		  void (*fn)(void *ctx, int64_t lo, int64_t hi, uint64_t n), void *ctx)
{
	for (unsigned r = 0; h->rows && r < LAT_HLL_ROWS; r++) {
		unsigned shift = r < 2 ? 0 : r - 1;

		if (!h->rows[r] || !hll_row_counts(h->rows)[r])
			continue;
		for (unsigned c = 0; c < LAT_HLL_SUB; c++) {
			uint32_t k = hll_get(h->rows, r, c);
			int64_t lo;

			if (!k)
				continue;
			lo = r < 2 ? (int64_t)(r * LAT_HLL_SUB + c) :
				     (int64_t)((uint64_t)(LAT_HLL_SUB + c) << shift);
			fn(ctx, lo, lo + ((int64_t)1 << shift), k);
		}
	}
}

int lat_hll_add(struct lat_hll *h, int64_t v)
{
	if (hll_bucket(h, v))
		return -LAT_ENOMEM;
	hll_note(h, v);
	return 0;
}

/*
 * Nearest-rank percentiles of @n sorted requests @pct_milli (thousandths of a
 * percent, ascending) into @out, in one walk of the buckets.
 */
static void hll_percentiles(const struct lat_hll *h, const uint32_t *pct_milli, size_t n,
			    int64_t *out)
{
	uint64_t seen = 0, rank[8];
	size_t k = 0;

	if (n > LAT_ARRAY_SIZE(rank))
		n = LAT_ARRAY_SIZE(rank);
	for (size_t i = 0; i < n; i++) {
		/* the smallest value with at least pct of the values at or below it */
		rank[i] = (h->n * pct_milli[i] + 99999) / 100000;
		if (rank[i] < 1)
			rank[i] = 1;
		out[i] = h->max;
	}
	while (k < n && rank[k] >= h->n)
		k++;	/* only possible at the end: ranks ascend */
	for (unsigned r = 0; h->rows && r < LAT_HLL_ROWS && k < n; r++) {
		uint64_t rc = hll_row_counts(h->rows)[r];

		if (!h->rows[r] || !rc)
			continue;
		if (seen + rc < rank[k]) {
			seen += rc;	/* no rank falls in this row */
			continue;
		}
		for (unsigned c = 0; c < LAT_HLL_SUB && k < n; c++) {
			uint32_t cnt = hll_get(h->rows, r, c);
			int64_t v;

			if (!cnt)
				continue;
			seen += cnt;
			if (seen < rank[k])
				continue;
			v = hll_value(r, c);
			if (v < h->min)
				v = h->min;
			if (v > h->max)
				v = h->max;
			while (k < n && seen >= rank[k] && rank[k] < h->n)
				out[k++] = v;
			while (k < n && rank[k] >= h->n)
				k++;
		}
	}
}

int64_t lat_hll_percentile(const struct lat_hll *h, uint32_t pct_milli)
{
	int64_t v;

	if (!h->n)
		return 0;
	hll_percentiles(h, &pct_milli, 1, &v);
	return v;
}

void lat_hll_stat(const struct lat_hll *h, struct lat_wake_stat *st)
{
	static const uint32_t pct[4] = { 50000, 90000, 99000, 99900 };
	int64_t v[4];

	memset(st, 0, sizeof(*st));
	if (!h->n)
		return;
	st->n = h->n;
	st->min = h->min;
	st->max = h->max;
	st->avg = h->sum / (double)h->n;
	hll_percentiles(h, pct, 4, v);
	st->p50 = v[0];
	st->p90 = v[1];
	st->p99 = v[2];
	st->p999 = v[3];
}

void lat_wake_hist_edges(size_t k, int64_t *lo, int64_t *hi)
{
	unsigned row, j;

	if (!k) {
		*lo = 0;
		*hi = 2 * LAT_HLL_SUB;
		return;
	}
	row = 2 + (unsigned)((k - 1) / LAT_WAKE_HIST_SUB);
	j = (unsigned)((k - 1) % LAT_WAKE_HIST_SUB);
	*lo = (int64_t)((uint64_t)(LAT_HLL_SUB + j * (LAT_HLL_SUB / LAT_WAKE_HIST_SUB)) <<
			(row - 1));
	*hi = k + 1 >= LAT_WAKE_HIST_N ? INT64_MAX :
	      *lo + (int64_t)((uint64_t)(LAT_HLL_SUB / LAT_WAKE_HIST_SUB) << (row - 1));
}

void wk_hll_coarse(const struct lat_hll *h, uint64_t *b)
{
	for (unsigned r = 0; h->rows && r < LAT_HLL_ROWS; r++) {
		if (!h->rows[r])
			continue;
		for (unsigned c = 0; c < LAT_HLL_SUB; c++) {
			size_t k = r < 2 ? 0 : 1 + (size_t)(r - 2) * LAT_WAKE_HIST_SUB +
					   c / (LAT_HLL_SUB / LAT_WAKE_HIST_SUB);

			b[k < LAT_WAKE_HIST_N ? k : LAT_WAKE_HIST_N - 1] += hll_get(h->rows, r, c);
		}
	}
}

void lat_hll_release(struct lat_hll *h)
{
	if (h->rows && !h->arena) {
		for (unsigned r = 0; r < LAT_HLL_ROWS; r++)
			free(h->rows[r]);
		free(h->rows);
	}
	h->rows = NULL;
	h->n = 0;
}
