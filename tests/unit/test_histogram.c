// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * histogram reader + analysis.  Seed 003's quantiles were found by hand from
 * the printed cumulative column (counts at or above each bucket, largest
 * first): the pXX bucket is the row whose cumulative count is above
 * (1 - XX%) * 5000 while the row above's is not; see samples/README.md.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "latscope/an_histogram.h"
#include "latscope/an_probe.h"
#include "old_logs_util.h"

#define PAIR LAT_SAMPLES_DIR "/histogram/seed003-plain-vs-patch.txt"

static void assert_bucket(const struct lat_hist_q *q, int64_t lo, int64_t hi)
{
	assert_true(q->valid);
	assert_int_equal(q->lo_ns, lo);
	assert_int_equal(q->hi_ns, hi);
}

static void test_seed003_pair(void **state)
{
	struct lat_loaded *l = old_logs_load(PAIR, NULL);
	const struct lat_block *b;
	const struct lat_hist_result *r;
	const struct lat_hist_stats *plain, *patch;

	(void)state;
	assert_int_equal(l->nblocks, 1);
	b = l->blocks[0];
	assert_string_equal(b->fmt->name, "histogram");
	assert_int_equal(b->nhist, 2);
	assert_string_equal(b->hist[0]->title, "Plain 2.2.10");
	assert_string_equal(b->hist[1]->title, "With Patch");
	/* 70 rows 125.893ms..0.045ms, 71 rows 141.254ms..0.045ms */
	assert_int_equal(b->hist[0]->nbuckets, 70);
	assert_int_equal(b->hist[1]->nbuckets, 71);
	/* ascending, lower bounds: [45 us, 50 us) first, the open top bucket last */
	assert_int_equal(b->hist[0]->b[0].lo_ns, 45000);
	assert_int_equal(b->hist[0]->b[0].hi_ns, 50000);
	assert_int_equal(b->hist[0]->b[69].lo_ns, 125893000);
	assert_int_equal(b->hist[0]->b[69].hi_ns, INT64_MAX);
	/* every printed cumulative count and percentage agrees with the counts */
	assert_int_equal(b->hist[0]->printed_total, 5000);
	assert_int_equal(b->hist[0]->cum_mismatches + b->hist[0]->pct_mismatches, 0);
	assert_int_equal(b->hist[1]->cum_mismatches + b->hist[1]->pct_mismatches, 0);
	r = b->analysis;
	plain = &r->stats[0];
	patch = &r->stats[1];
	assert_int_equal(plain->total, 5000);
	/* Plain: 2976 of 5000 in 0.050ms -> p50 [50, 56) us */
	assert_bucket(&plain->q[LAT_HQ_P50], 50000, 56000);
	/* cumulative 710 at 0.071ms (427 above it) -> p90 [71, 79) us */
	assert_bucket(&plain->q[LAT_HQ_P90], 71000, 79000);
	/* 59 at or above 5.012ms, 11 above -> p99 [5.012, 5.623) ms */
	assert_bucket(&plain->q[LAT_HQ_P99], 5012000, 5623000);
	/* 7 at or above 6.310ms, 4 above -> p99.9 [6.310, 7.079) ms */
	assert_bucket(&plain->q[LAT_HQ_P999], 6310000, 7079000);
	/* printed cumulative at 1.000ms, 10.000ms, 100.000ms: 140, 4, 1 */
	assert_int_equal(plain->at_or_above[LAT_HT_1MS], 140);
	assert_int_equal(plain->at_or_above[LAT_HT_10MS], 4);
	assert_int_equal(plain->at_or_above[LAT_HT_100MS], 1);
	assert_bucket(&plain->max, 112202000, 125893000);
	/* Patch: 2536 at or above 0.100ms, 1972 above -> p50 [100, 112) us */
	assert_bucket(&patch->q[LAT_HQ_P50], 100000, 112000);
	assert_bucket(&patch->q[LAT_HQ_P90], 126000, 141000);
	/* 52 at or above 0.398ms, 43 above -> p99 [398, 447) us */
	assert_bucket(&patch->q[LAT_HQ_P99], 398000, 447000);
	assert_bucket(&patch->q[LAT_HQ_P999], 12589000, 14125000);
	assert_int_equal(patch->at_or_above[LAT_HT_1MS], 30);
	assert_int_equal(patch->at_or_above[LAT_HT_10MS], 15);
	assert_int_equal(patch->at_or_above[LAT_HT_100MS], 1);
	assert_bucket(&patch->max, 125893000, 141254000);
	/* Plain wins the median, p90, p99.9 and >= 10 ms; the patch p99 and >= 1 ms */
	assert_int_equal(r->ncmp, 1);
	assert_int_equal(r->cmp[0].q[LAT_HQ_P50], -1);
	assert_int_equal(r->cmp[0].q[LAT_HQ_P90], -1);
	assert_int_equal(r->cmp[0].q[LAT_HQ_P99], 1);
	assert_int_equal(r->cmp[0].q[LAT_HQ_P999], -1);
	assert_int_equal(r->cmp[0].at_or_above[LAT_HT_1MS], 1);
	assert_int_equal(r->cmp[0].at_or_above[LAT_HT_10MS], -1);
	assert_int_equal(r->cmp[0].at_or_above[LAT_HT_100MS], 0);
	assert_non_null(old_logs_finding(b, "comparison"));
	assert_null(old_logs_finding(b, "printed-mismatch"));
	old_logs_free(l);
}

/*
 * Smallest first, micro sign as mail archives mangle it ("Âµs", "ïs"), quoting
 * and CRLF, a wrong cumulative count, a garbled row, rows without the
 * percent columns.  Counts 5, 3, 2 -> total 10; p50 is the 5th sample.
 */
static void test_ascending_mojibake_mismatch(void **state)
{
	static const char mail[] =
		"> Run 1\r\n"
		"> Delivery Times Cumulative\r\n"
		"> 10\xc3\x82\xc2\xb5s 5 50.00% 5 50.00%\r\n"
		"> 20\xc3\xafs 3 30.00% 9 80.00%\r\n"
		"> 4O.0us 1 10.00% 9 90.00%\r\n"
		"> 1ms 2 20.00% 10 100.00%\r\n"
		"\r\n"
		"Run 2\r\n"
		"Delivery Times Cumulative\r\n"
		"0.010ms 1\r\n"
		"0.020ms 1\r\n";
	struct lat_loaded *l = old_logs_load_text(mail, NULL);
	const struct lat_block *b;
	const struct lat_hist_result *r;

	(void)state;
	assert_int_equal(l->nblocks, 1);
	b = l->blocks[0];
	assert_int_equal(b->nhist, 2);
	assert_string_equal(b->hist[0]->title, "Run 1");
	assert_string_equal(b->hist[1]->title, "Run 2");
	assert_int_equal(b->skipped_lines, 1);	/* "4O.0us": letter O */
	/* 5 + 3 = 8, printed 9: one cumulative mismatch at line 4 */
	assert_int_equal(b->hist[0]->cum_mismatches, 1);
	assert_int_equal(b->hist[0]->first_mismatch_line, 4);
	assert_int_equal(b->hist[0]->printed_total, 10);
	r = b->analysis;
	assert_int_equal(r->stats[0].total, 10);
	/* sorted [10us,20us):5 [20us,1ms):3 [1ms,+inf):2 -> p50 is the 5th: first bucket */
	assert_int_equal(b->hist[0]->b[1].hi_ns, 1000000);
	assert_bucket(&r->stats[0].q[LAT_HQ_P50], 10000, 20000);
	/* p90 = 9th sample, in [1ms, +inf) */
	assert_bucket(&r->stats[0].q[LAT_HQ_P90], 1000000, INT64_MAX);
	assert_int_equal(r->stats[0].at_or_above[LAT_HT_1MS], 2);
	/* Run 2 has no printed columns */
	assert_int_equal(b->hist[1]->printed_total, (uint64_t)-1);
	/* 1 of 2 samples in [10, 20) us: p50 there, as for run 1 */
	assert_int_equal(r->cmp[0].q[LAT_HQ_P50], 0);
	assert_non_null(old_logs_finding(b, "printed-mismatch"));
	old_logs_free(l);
}

static void test_line_kinds(void **state)
{
	const struct lat_format *f = lat_format_find("histogram");
	static const char row[] = "0.050ms 2976 59.52% 5000 100.00%";
	static const char hdr[] = "Delivery Times Cumulative";
	static const char prose[] = "I believe unlinking a large file is deadly to latency.";

	(void)state;
	assert_int_equal(f->line_kind(row, sizeof(row) - 1), LAT_LINE_ROW);
	/* a ROW, so that two tables separated by a title line stay one block */
	assert_int_equal(f->line_kind(hdr, sizeof(hdr) - 1), LAT_LINE_ROW);
	assert_int_equal(f->line_kind(prose, sizeof(prose) - 1), LAT_LINE_NO);
}

/*
 * An open overflow bucket from 400 us holds 119 samples that may or may not be at or above 1
 * ms (straddling): 0-119 of 1500 against 14 of 1624 is undecided, 0-2 of 1500 against 14 of
 * 1624 is A's; "> 400 us" in text.
 */
static void test_straddling(void **state)
{
	struct lat_bucket ab[] = { { 100000, 101000, 1381 }, { 400000, INT64_MAX, 119 } };
	struct lat_bucket bb[] = { { 65536, 131072, 1610 }, { 1000000, 1001000, 14 } };
	struct lat_histogram a = { .nbuckets = 2, .b = ab }, bh = { .nbuckets = 2, .b = bb };
	struct lat_hist_stats sa, sb;
	struct lat_hist_cmp c;
	char buf[64];

	(void)state;
	lat_hist_stats_of(&a, &sa);
	lat_hist_stats_of(&bh, &sb);
	assert_int_equal(sa.at_or_above[LAT_HT_1MS], 0);
	assert_int_equal(sa.straddling[LAT_HT_1MS], 119);
	assert_int_equal(sb.at_or_above[LAT_HT_1MS], 14);
	assert_int_equal(sb.straddling[LAT_HT_1MS], 0);
	lat_hist_compare(&sa, &sb, &c);
	assert_int_equal(c.at_or_above[LAT_HT_1MS], 0);
	ab[0].count = 1498;
	ab[1].count = 2;
	lat_hist_stats_of(&a, &sa);
	lat_hist_compare(&sa, &sb, &c);
	assert_int_equal(c.at_or_above[LAT_HT_1MS], -1);
	/* 100 ms: B has none, A 0-2 (its overflow straddles 100 ms too): undecided */
	assert_int_equal(c.at_or_above[LAT_HT_100MS], 0);
	assert_string_equal(lat_hist_bucket_fmt(&sa.max, buf, sizeof(buf)), "> 400 us");
}

/*
 * One run, two tools (samples/README-probe.md): cyclictest -S -h 400 and latscope's timer
 * probe.  Every number checked with awk over the histfile and `trace-cmd report`.
 */
static void test_probe_pair(void **state)
{
	struct lat_loaded *ct = old_logs_load(LAT_SAMPLES_DIR "/cyclictest/probe-pair-hist.txt",
					      NULL);
	struct lat_loaded *pr = old_logs_load(LAT_SAMPLES_DIR "/tracedat/probe-pair-v7-zstd.dat",
					      NULL);
	const struct lat_hist_result *r = ct->blocks[0]->analysis;
	const struct lat_probe_result *p = pr->blocks[0]->probe;
	const struct lat_hist_stats *t0 = &r->stats[0], *c0, *c1;
	struct lat_hist_cmp c;

	(void)state;
	assert_int_equal(r->n, 2);
	assert_int_equal(t0->total, 1500);
	assert_bucket(&t0->q[LAT_HQ_P50], 142000, 143000);
	assert_bucket(&t0->q[LAT_HQ_P90], 329000, 330000);
	assert_bucket(&t0->q[LAT_HQ_P99], 400000, INT64_MAX);
	assert_int_equal(t0->straddling[LAT_HT_1MS], 119);
	assert_non_null(p);
	assert_int_equal(p->ncpus, 2);
	assert_int_equal(p->cpus[0].dist_res, LAT_PRES_MIXED);
	assert_int_equal(p->cpus[0].dist_exact_above_ns, 200000);
	c0 = &p->cpus[0].dist_stats;
	c1 = &p->cpus[1].dist_stats;
	assert_int_equal(c0->total, 1624);
	assert_bucket(&c0->q[LAT_HQ_P50], 65536, 131072);
	assert_bucket(&c0->q[LAT_HQ_P90], 259000, 260000);
	assert_bucket(&c0->q[LAT_HQ_P99], 935000, 936000);
	assert_bucket(&c0->q[LAT_HQ_P999], 2532000, 2533000);
	assert_int_equal(c0->at_or_above[LAT_HT_1MS], 14);
	assert_int_equal(c0->straddling[LAT_HT_1MS], 0);
	assert_bucket(&c1->q[LAT_HQ_P90], 273000, 274000);
	assert_int_equal(c1->at_or_above[LAT_HT_1MS], 21);
	lat_hist_compare(t0, c0, &c);
	assert_int_equal(c.q[LAT_HQ_P50], 1);	/* [142, 143) us against [65.5, 131) us */
	assert_int_equal(c.q[LAT_HQ_P90], 1);
	assert_int_equal(c.q[LAT_HQ_P99], 0);	/* > 400 us against 935 us */
	assert_int_equal(c.at_or_above[LAT_HT_1MS], 0);	/* 0-119 of 1500 against 14 of 1624 */
	lat_hist_compare(&r->stats[1], c1, &c);
	assert_int_equal(c.q[LAT_HQ_P50], 0);	/* [107, 108) us inside [65.5, 131) us */
	old_logs_free(ct);
	old_logs_free(pr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed003_pair),
		cmocka_unit_test(test_ascending_mojibake_mismatch),
		cmocka_unit_test(test_line_kinds),
		cmocka_unit_test(test_straddling),
		cmocka_unit_test(test_probe_pair),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
