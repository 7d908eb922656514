// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Bucketed latency histograms: total, quantiles as the bucket that holds them,
 * counts at or above 1/10/100 ms, the largest non-empty bucket, and with two
 * or more tables in a block, which is better at the median and at the tail.
 * Definitions: docs/analyses.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latscope/an_histogram.h"
#include "latscope/analyze.h"
#include "analyze_priv.h"

const double lat_hist_quantiles[LAT_HQ_N] = { 0.5, 0.9, 0.99, 0.999 };
const char *const lat_hist_qnames[LAT_HQ_N] = { "p50", "p90", "p99", "p99.9" };
const int64_t lat_hist_thresholds_ns[LAT_HT_N] = { LAT_NS_PER_MS, 10 * LAT_NS_PER_MS,
						    100 * LAT_NS_PER_MS };
const char *const lat_hist_tnames[LAT_HT_N] = { "1ms", "10ms", "100ms" };

/* quantiles as exact fractions: rank = ceil(total * num / den) */
static const uint64_t q_num[LAT_HQ_N] = { 1, 9, 99, 999 };
static const uint64_t q_den[LAT_HQ_N] = { 2, 10, 100, 1000 };

void an_histogram_free(void *p)
{
	struct lat_hist_result *r = p;

	if (!r)
		return;
	free(r->stats);
	free(r->cmp);
	free(r);
}

static uint64_t rank_of(uint64_t total, int qi)
{
	uint64_t whole = total / q_den[qi] * q_num[qi];
	uint64_t rest = total % q_den[qi] * q_num[qi];
	uint64_t rank = whole + (rest + q_den[qi] - 1) / q_den[qi];

	return rank ? rank : 1;
}

void lat_hist_stats_of(const struct lat_histogram *h, struct lat_hist_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->h = h;
	for (size_t i = 0; i < h->nbuckets; i++) {
		const struct lat_bucket *bk = &h->b[i];

		st->total += bk->count;
		for (int t = 0; t < LAT_HT_N; t++)
			if (bk->lo_ns >= lat_hist_thresholds_ns[t])
				st->at_or_above[t] += bk->count;
			else if (bk->hi_ns > lat_hist_thresholds_ns[t])
				st->straddling[t] += bk->count;
		if (bk->count) {
			st->max = (struct lat_hist_q){ 1, bk->lo_ns, bk->hi_ns };
			st->max_count = bk->count;
		}
	}
	for (int qi = 0; qi < LAT_HQ_N && st->total; qi++) {
		uint64_t rank = rank_of(st->total, qi), cum = 0;

		for (size_t i = 0; i < h->nbuckets; i++) {
			cum += h->b[i].count;
			if (cum >= rank) {
				st->q[qi] = (struct lat_hist_q){ 1, h->b[i].lo_ns, h->b[i].hi_ns };
				break;
			}
		}
	}
}

/*
 * -1 when bucket A lies wholly below bucket B, +1 the reverse, 0 when they
 * overlap (the same bucket, or an open overflow bucket [N, +inf) against a
 * bucket above N: histograms of different tables or files need not share edges).
 */
static int below(const struct lat_hist_q *a, const struct lat_hist_q *b)
{
	if (!a->valid || !b->valid)
		return 0;
	if (a->hi_ns <= b->lo_ns)
		return -1;
	if (b->hi_ns <= a->lo_ns)
		return 1;
	return 0;
}

/* Shares of slow samples compared without division: a/ta against b/tb. */
static int share_cmp(uint64_t a, uint64_t ta, uint64_t b, uint64_t tb)
{
	long double x = (long double)a * (long double)tb, y = (long double)b * (long double)ta;

	return (x > y) - (x < y);
}

/*
 * The share at or above threshold @t: each side's lies between its count and its
 * count + the straddling samples; a verdict only when the two ranges do not meet.
 */
static int threshold_cmp(const struct lat_hist_stats *a, const struct lat_hist_stats *b, int t)
{
	if (share_cmp(a->at_or_above[t] + a->straddling[t], a->total, b->at_or_above[t],
		      b->total) < 0)
		return -1;
	if (share_cmp(b->at_or_above[t] + b->straddling[t], b->total, a->at_or_above[t],
		      a->total) < 0)
		return 1;
	return 0;
}

void lat_hist_compare(const struct lat_hist_stats *a, const struct lat_hist_stats *b,
		      struct lat_hist_cmp *c)
{
	for (int qi = 0; qi < LAT_HQ_N; qi++)
		c->q[qi] = below(&a->q[qi], &b->q[qi]);
	for (int t = 0; t < LAT_HT_N; t++)
		c->at_or_above[t] = threshold_cmp(a, b, t);
	c->max = below(&a->max, &b->max);
}

/* "14" or, with samples in a bucket across the threshold, "14-133" */
static char *count_range(uint64_t n, uint64_t straddling, char *buf, size_t len)
{
	if (straddling)
		snprintf(buf, len, "%llu-%llu", (unsigned long long)n,
			 (unsigned long long)(n + straddling));
	else
		snprintf(buf, len, "%llu", (unsigned long long)n);
	return buf;
}

/* @ns in the unit lat_fmt_duration() picks for @ref, with the decimals @ns needs. */
static void fmt_exact(int64_t ns, int64_t ref, char *buf, size_t len)
{
	static const struct {
		int64_t div;
		const char *u;
		int dec_ns, dec_us;	/* decimals for ns and for whole-us values */
	} units[] = { { 1000, "us", 3, 0 }, { 1000000, "ms", 6, 3 }, { 1000000000, "s", 9, 6 } };
	size_t k = ref < 1000000 ? 0 : ref < 1000000000 ? 1 : 2;

	snprintf(buf, len, "%.*f %s", ns % 1000 ? units[k].dec_ns : units[k].dec_us,
		 (double)ns / (double)units[k].div, units[k].u);
}

/*
 * "[50 us, 56.2 us)", "[2.150 ms, 2.151 ms)" where 3 digits would merge them; an open
 * bucket as cyclictest's and OSADL's users read an overflow: "> 126 ms".
 */
char *lat_hist_bucket_fmt(const struct lat_hist_q *q, char *buf, size_t len)
{
	char lo[32], hi[32];

	if (!q->valid) {
		snprintf(buf, len, "none");
		return buf;
	}
	lat_fmt_duration(q->lo_ns, lo, sizeof(lo));
	if (q->hi_ns == INT64_MAX) {
		snprintf(buf, len, "> %s", lo);
		return buf;
	}
	lat_fmt_duration(q->hi_ns, hi, sizeof(hi));
	if (!strcmp(lo, hi) && q->lo_ns >= 1000) {
		fmt_exact(q->lo_ns, q->lo_ns, lo, sizeof(lo));
		fmt_exact(q->hi_ns, q->lo_ns, hi, sizeof(hi));
	}
	snprintf(buf, len, "[%s, %s)", lo, hi);
	return buf;
}

static char *bucket_str(const struct lat_hist_q *q, char *buf, size_t len)
{
	return lat_hist_bucket_fmt(q, buf, len);
}

static const char *name_of(const struct lat_hist_stats *s, size_t idx, char *buf, size_t len)
{
	if (s->h->title)
		return s->h->title;
	snprintf(buf, len, "histogram %zu", idx + 1);
	return buf;
}

static const char *winner(int c, const char *a, const char *b)
{
	return c < 0 ? a : c > 0 ? b : "neither";
}

int lat_hist_cmp_message(char *buf, size_t len, const char *an, const struct lat_hist_stats *x,
			 const char *bn, const struct lat_hist_stats *y,
			 const struct lat_hist_cmp *c)
{
	char b1[80], b2[80], tail[600];
	size_t n = 0;

	/* the tail: every quantile above the median and every threshold, said as it is */
	tail[0] = '\0';
	for (int qi = LAT_HQ_P90; qi < LAT_HQ_N; qi++)
		n += (size_t)snprintf(tail + n, sizeof(tail) - n, "%s %s: %s (%s vs %s)",
				      n ? ";" : "", lat_hist_qnames[qi],
				      winner(c->q[qi], an, bn),
				      bucket_str(&x->q[qi], b1, sizeof(b1)),
				      bucket_str(&y->q[qi], b2, sizeof(b2)));
	for (int t = 0; t < LAT_HT_N && n < sizeof(tail); t++)
		n += (size_t)snprintf(tail + n, sizeof(tail) - n,
				      "; >= %s: %s (%s vs %s of %llu vs %llu)",
				      lat_hist_tnames[t], winner(c->at_or_above[t], an, bn),
				      count_range(x->at_or_above[t], x->straddling[t], b1,
						  sizeof(b1)),
				      count_range(y->at_or_above[t], y->straddling[t], b2,
						  sizeof(b2)),
				      (unsigned long long)x->total,
				      (unsigned long long)y->total);
	return snprintf(buf, len, "median (p50): %s is better (%s vs %s); tail:%s",
			winner(c->q[LAT_HQ_P50], an, bn),
			bucket_str(&x->q[LAT_HQ_P50], b1, sizeof(b1)),
			bucket_str(&y->q[LAT_HQ_P50], b2, sizeof(b2)), tail);
}

static void cmp_finding(struct lat_block *b, const struct lat_hist_result *r,
			const struct lat_hist_cmp *c)
{
	const struct lat_hist_stats *x = &r->stats[c->a], *y = &r->stats[c->b];
	char na[32], nb[32], msg[1200];
	const char *an = name_of(x, c->a, na, sizeof(na)), *bn = name_of(y, c->b, nb, sizeof(nb));

	lat_hist_cmp_message(msg, sizeof(msg), an, x, bn, y, c);
	lat_block_add_finding(b, "comparison", LAT_SEV_INFO, "%s", msg);
}

/* Is @ns inside @bk? */
static int in_bucket(int64_t ns, const struct lat_bucket *bk)
{
	return ns >= bk->lo_ns && (bk->hi_ns == INT64_MAX || ns < bk->hi_ns);
}

/*
 * The tool's own count, minimum and maximum against the buckets: the minimum
 * must fall in the lowest non-empty bucket, the maximum in the highest.
 */
static void printed_check(struct lat_block *b, const struct lat_hist_stats *s, const char *name)
{
	const struct lat_histogram *h = s->h;
	const struct lat_hist_printed *p = &h->printed;
	const struct lat_bucket *lo = NULL, *hi = NULL;
	char d[32];

	if (!h->has_printed || !s->total)
		return;
	for (size_t i = 0; i < h->nbuckets; i++) {
		if (!h->b[i].count)
			continue;
		if (!lo)
			lo = &h->b[i];
		hi = &h->b[i];
	}
	if (p->count != LAT_VALUE_NONE && (uint64_t)p->count != s->total)
		lat_block_add_finding(b, "printed-stats", LAT_SEV_WARN,
				      "%s: the tool counted %lld samples, the histogram holds %llu",
				      name, (long long)p->count, (unsigned long long)s->total);
	if (p->min_ns != LAT_VALUE_NONE && !in_bucket(p->min_ns, lo))
		lat_block_add_finding(b, "printed-stats", LAT_SEV_WARN,
				      "%s: the tool's minimum %s is not in the lowest non-empty "
				      "bucket", name, lat_fmt_duration(p->min_ns, d, sizeof(d)));
	if (p->max_ns != LAT_VALUE_NONE && !in_bucket(p->max_ns, hi))
		lat_block_add_finding(b, "printed-stats", LAT_SEV_WARN,
				      "%s: the tool's maximum %s is not in the highest non-empty "
				      "bucket", name, lat_fmt_duration(p->max_ns, d, sizeof(d)));
}

static void hist_findings(struct lat_block *b, const struct lat_hist_stats *s, size_t idx)
{
	char nb[32], d[32];
	const char *name = name_of(s, idx, nb, sizeof(nb));
	const struct lat_histogram *h = s->h;

	if (h->printed_total != (uint64_t)-1 && h->printed_total != s->total)
		lat_block_add_finding(b, "total-mismatch", LAT_SEV_WARN,
				      "%s: the table's cumulative count ends at %llu, its buckets "
				      "add up to %llu", name, (unsigned long long)h->printed_total,
				      (unsigned long long)s->total);
	if (h->cum_mismatches || h->pct_mismatches)
		lat_block_add_finding(b, "printed-mismatch", LAT_SEV_WARN,
				      "%s: %u cumulative and %u percent values disagree with the "
				      "counts (first at line %u)", name, h->cum_mismatches,
				      h->pct_mismatches, h->first_mismatch_line);
	printed_check(b, s, name);
	if (s->at_or_above[LAT_HT_100MS])
		lat_block_add_finding(b, "slow-samples", LAT_SEV_HIGH,
				      "%s: %llu of %llu samples at or above 100 ms; the slowest "
				      "bucket starts at %s", name,
				      (unsigned long long)s->at_or_above[LAT_HT_100MS],
				      (unsigned long long)s->total,
				      lat_fmt_duration(s->max.lo_ns, d, sizeof(d)));
	else if (s->at_or_above[LAT_HT_10MS])
		lat_block_add_finding(b, "slow-samples", LAT_SEV_WARN,
				      "%s: %llu of %llu samples at or above 10 ms", name,
				      (unsigned long long)s->at_or_above[LAT_HT_10MS],
				      (unsigned long long)s->total);
}

static int same_group(const struct lat_histogram *x, const struct lat_histogram *y)
{
	if (!x->group || !y->group)
		return !x->group && !y->group;
	return !strcmp(x->group, y->group);
}

/* The first histogram with samples of @i's group (@i itself when it is the first). */
static size_t first_of_group(const struct lat_block *b, const struct lat_hist_result *r, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (r->stats[k].total && same_group(b->hist[k], b->hist[i]))
			return k;
	return i;
}

int an_histogram(struct lat_block *b, const struct lat_analyze_opts *o)
{
	struct lat_hist_result *r = calloc(1, sizeof(*r));

	(void)o;
	if (!r)
		return -LAT_ENOMEM;
	b->analysis = r;
	r->stats = calloc(b->nhist ? b->nhist : 1, sizeof(*r->stats));
	r->cmp = calloc(b->nhist ? b->nhist : 1, sizeof(*r->cmp));
	if (!r->stats || !r->cmp)
		return -LAT_ENOMEM;
	r->n = b->nhist;
	for (size_t i = 0; i < b->nhist; i++)
		lat_hist_stats_of(b->hist[i], &r->stats[i]);
	/*
	 * The first histogram with samples of a group against each later one of
	 * that group (a tool's summary has no samples; most readers have no groups)
	 */
	for (size_t i = 0; i < b->nhist; i++) {
		struct lat_hist_cmp *c = &r->cmp[r->ncmp];

		size_t ref = first_of_group(b, r, i);

		if (!r->stats[i].total || ref == i)
			continue;
		r->ncmp++;
		c->a = ref;
		c->b = i;
		lat_hist_compare(&r->stats[ref], &r->stats[i], c);
	}
	for (size_t i = 0; i < r->ncmp; i++)
		cmp_finding(b, r, &r->cmp[i]);
	for (size_t i = 0; i < r->n; i++)
		hist_findings(b, &r->stats[i], i);
	return 0;
}
