// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the histogram charts mark: bucket edges on a log axis, and p50 / p99 /
 * max of a histogram.  A bucket only tells a range, so a percentile is given
 * as the upper bound of its bucket ("p99 < 5.62 ms"): the bucket the histogram
 * analysis found, or the value the wakeup analysis computed.  Shared by the
 * histogram chart (render/histogram.c) and the summary rows
 * (render/ranges.c).
 */
#include <math.h>
#include <stdio.h>

#include "render_priv.h"

double rd_hist_bucket_hi(const struct lat_histogram *h, size_t i)
{
	const struct lat_bucket *b = &h->b[i];

	if (b->hi_ns != INT64_MAX)
		return (double)b->hi_ns;
	if (i > 0 && h->b[i - 1].lo_ns > 0 && b->lo_ns > h->b[i - 1].lo_ns)
		return (double)b->lo_ns * ((double)b->lo_ns / (double)h->b[i - 1].lo_ns);
	return b->lo_ns > 0 ? (double)b->lo_ns * 2 : 1000;
}

double rd_hist_bucket_lo(const struct lat_histogram *h, size_t i)
{
	double lo = (double)h->b[i].lo_ns;

	/* a first bucket from 0 cannot sit on a log axis: give it its neighbour's ratio */
	if (lo <= 0)
		lo = rd_hist_bucket_hi(h, i) / 2;
	return lo;
}

size_t rd_hist_pct_bucket(const struct lat_histogram *h, double pct)
{
	uint64_t total = 0, cum = 0, rank;

	for (size_t i = 0; i < h->nbuckets; i++)
		total += h->b[i].count;
	if (!total)
		return h->nbuckets;
	rank = (uint64_t)ceil(pct / 100.0 * (double)total);
	if (rank < 1)
		rank = 1;
	for (size_t i = 0; i < h->nbuckets; i++) {
		cum += h->b[i].count;
		if (cum >= rank)
			return i;
	}
	return h->nbuckets - 1;
}

uint64_t rd_hist_samples(const struct lat_histogram *h)
{
	uint64_t total = 0;

	for (size_t i = 0; i < h->nbuckets; i++)
		total += h->b[i].count;
	return total;
}

/*
 * "p99 < 163 µs", or for the open overflow bucket, which has no upper bound,
 * "p99 ≥ 200 µs" (cyclictest's -h N, rtla's over:): nothing is invented.
 */
static void mark_label(const struct lat_histogram *h, size_t i, const char *what, char *buf,
		       size_t len)
{
	char d[32];

	if (h->b[i].hi_ns == INT64_MAX)
		snprintf(buf, len, "%s \xe2\x89\xa5 %s", what,
			 rd_fmt_dur_chart((double)h->b[i].lo_ns, d, sizeof(d)));
	else
		snprintf(buf, len, "%s < %s", what, rd_fmt_dur_chart(rd_hist_bucket_hi(h, i), d,
								      sizeof(d)));
}

/* Where a mark sits: the bucket's upper bound, the open bucket's lower one. */
static double mark_x(const struct lat_histogram *h, size_t i)
{
	return h->b[i].hi_ns == INT64_MAX ? rd_hist_bucket_lo(h, i) : rd_hist_bucket_hi(h, i);
}

static size_t last_nonzero(const struct lat_histogram *h)
{
	for (size_t i = h->nbuckets; i > 0; i--)
		if (h->b[i - 1].count)
			return i - 1;
	return h->nbuckets;
}

static const char *const mark_what[3] = { "p50", "p99", "max" };

/* The bucket of @h that the analysis' quantile @q names, or nbuckets. */
static size_t q_bucket(const struct lat_histogram *h, const struct lat_hist_q *q)
{
	for (size_t i = 0; q->valid && i < h->nbuckets; i++)
		if (h->b[i].lo_ns == q->lo_ns && h->b[i].hi_ns == q->hi_ns)
			return i;
	return h->nbuckets;
}

/*
 * The buckets of p50, p99 and max of histogram @k: the histogram analysis'
 * when the caller passed it, else found here (nearest rank, the same rule).
 */
static void mark_buckets(const struct rd_hist_input *in, size_t k, size_t idx[3])
{
	const struct lat_histogram *h = in->h[k];

	if (in->stats && in->stats[k].h == h) {
		idx[0] = q_bucket(h, &in->stats[k].q[LAT_HQ_P50]);
		idx[1] = q_bucket(h, &in->stats[k].q[LAT_HQ_P99]);
		idx[2] = q_bucket(h, &in->stats[k].max);
		if (idx[0] < h->nbuckets && idx[1] < h->nbuckets && idx[2] < h->nbuckets)
			return;
	}
	idx[0] = rd_hist_pct_bucket(h, 50);
	idx[1] = rd_hist_pct_bucket(h, 99);
	idx[2] = last_nonzero(h);
}

static int has_values(const struct rd_hist_input *in, size_t k)
{
	return in->marks && in->marks[k].p50 != RD_HIST_MARKS_BUCKETS;
}

int rd_hist_mark_at(const struct rd_hist_input *in, size_t k, int j, double *x, char *buf,
		     size_t len)
{
	const struct lat_histogram *h = in->h[k];
	char d[32];

	if (has_values(in, k)) {
		const struct rd_hist_marks *m = &in->marks[k];
		int64_t v[3] = { m->p50, m->p99, m->max };

		if (v[j] < 0)
			return 0;
		*x = v[j] > 0 ? (double)v[j] : 1;
		snprintf(buf, len, "%s %s%s", mark_what[j], m->bound & (1u << j) ?
			 "\xe2\x89\xa4 " : "", rd_fmt_dur_chart((double)v[j], d, sizeof(d)));
		return 1;
	} else {
		size_t idx[3];

		mark_buckets(in, k, idx);
		if (idx[2] == h->nbuckets)
			return 0;
		*x = mark_x(h, idx[j]);
		mark_label(h, idx[j], mark_what[j], buf, len);
		return 1;
	}
}

int rd_hist_mark(const struct rd_hist_input *in, size_t k, int j, double *x, char *buf,
		  size_t len)
{
	/* a mark at the place of the one before it (p99 in the max's bucket) says nothing new */
	if (j > 0 && has_values(in, k)) {
		const struct rd_hist_marks *m = &in->marks[k];
		int64_t v[3] = { m->p50, m->p99, m->max };

		if (v[j] == v[j - 1])
			return 0;
	} else if (j > 0) {
		size_t idx[3];

		mark_buckets(in, k, idx);
		if (idx[j] == idx[j - 1])
			return 0;
	}
	return rd_hist_mark_at(in, k, j, x, buf, len);
}

int rd_hist_mark_open(const struct rd_hist_input *in, size_t k)
{
	const struct lat_histogram *h = in->h[k];
	size_t idx[3];

	if (has_values(in, k))
		return 0;
	mark_buckets(in, k, idx);
	return idx[2] < h->nbuckets && h->b[idx[2]].hi_ns == INT64_MAX;
}
