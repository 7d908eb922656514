// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Log-linear latency histogram (HdrHistogram's idea): a value v >= 256 falls in
 * row msb(v) - 6 and one of 128 equal sub-buckets of [2^msb, 2^(msb+1)), so a
 * bucket is at most v/128 wide and its middle is within v/256 of any member.
 */
#include <stdlib.h>
#include <string.h>

#include "latscope/an_wakeup.h"

static void hll_index(uint64_t v, unsigned *row, unsigned *col)
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

/* Makes row @row part of the block; 0 or -LAT_ENOMEM. */
static int hll_cover(struct lat_hll *h, unsigned row)
{
	unsigned lo = h->nrows ? h->lo : row, hi = h->nrows ? h->lo + h->nrows - 1u : row;
	uint32_t *c;

	if (row < lo)
		lo = row;
	if (row > hi)
		hi = row;
	c = calloc((size_t)(hi - lo + 1) * LAT_HLL_SUB, sizeof(*c));
	if (!c)
		return -LAT_ENOMEM;
	if (h->nrows)
		memcpy(c + (size_t)(h->lo - lo) * LAT_HLL_SUB, h->counts,
		       (size_t)h->nrows * LAT_HLL_SUB * sizeof(*c));
	free(h->counts);
	h->counts = c;
	h->lo = (uint8_t)lo;
	h->nrows = (uint8_t)(hi - lo + 1);
	return 0;
}

int lat_hll_add(struct lat_hll *h, int64_t v)
{
	unsigned row, col;
	uint32_t *b;

	if (v < 0)
		v = 0;
	hll_index((uint64_t)v, &row, &col);
	if ((row < h->lo || row >= (unsigned)h->lo + h->nrows) && hll_cover(h, row))
		return -LAT_ENOMEM;
	b = &h->counts[(size_t)(row - h->lo) * LAT_HLL_SUB + col];
	/* a bucket saturates rather than wraps: 4G equal waits of one task is not a trace */
	if (*b != UINT32_MAX)
		(*b)++;
	if (!h->n || v < h->min)
		h->min = v;
	if (!h->n || v > h->max)
		h->max = v;
	h->n++;
	h->sum += (double)v;
	return 0;
}

int64_t lat_hll_percentile(const struct lat_hll *h, uint32_t pct_milli)
{
	uint64_t rank, seen = 0;

	if (!h->n)
		return 0;
	/* nearest rank: the smallest value with at least pct of the values at or below it */
	rank = (h->n * pct_milli + 99999) / 100000;
	if (rank < 1)
		rank = 1;
	if (rank >= h->n)
		return h->max;
	for (unsigned r = 0; r < h->nrows; r++) {
		const uint32_t *row = &h->counts[(size_t)r * LAT_HLL_SUB];

		for (unsigned c = 0; c < LAT_HLL_SUB; c++) {
			int64_t v;

			seen += row[c];
			if (seen < rank)
				continue;
			v = hll_value(h->lo + r, c);
			if (v < h->min)
				v = h->min;
			if (v > h->max)
				v = h->max;
			return v;
		}
	}
	return h->max;
}

void lat_hll_stat(const struct lat_hll *h, struct lat_wake_stat *st)
{
	memset(st, 0, sizeof(*st));
	if (!h->n)
		return;
	st->n = h->n;
	st->min = h->min;
	st->max = h->max;
	st->avg = h->sum / (double)h->n;
	st->p50 = lat_hll_percentile(h, 50000);
	st->p90 = lat_hll_percentile(h, 90000);
	st->p99 = lat_hll_percentile(h, 99000);
	st->p999 = lat_hll_percentile(h, 99900);
}

void lat_hll_release(struct lat_hll *h)
{
	free(h->counts);
	h->counts = NULL;
	h->nrows = 0;
	h->lo = 0;
	h->n = 0;
}
