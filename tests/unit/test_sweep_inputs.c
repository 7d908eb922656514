// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Issue 28's sweep of fresh public inputs (samples/README-imports.md, "Sweep
 * of fresh public inputs"): what each one showed wrong, checked on the
 * sample itself; the values are read off the files with awk, as the README
 * says.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "old_logs_util.h"

#define S(x) LAT_SAMPLES_DIR "/" x

/*
 * Two osnoise runs, each under its label, a '#' rule and "duration:" (Bristot,
 * LKML 2024): the blocks take the labels, so the runs are told apart.  Before,
 * both were "rtla osnoise top".  A sentence's tail is no label.
 */
static void test_rtla_run_labels(void **state)
{
	struct lat_loaded *l = old_logs_load(S("rtla/osnoise-top-lkml-2024-hrtick-two-runs.txt"),
					     NULL);

	(void)state;
	assert_int_equal(l->nblocks, 2);
	assert_string_equal(l->blocks[0]->title, "removing hrtick: rtla osnoise top");
	assert_string_equal(l->blocks[1]->title, "With hrtick: rtla osnoise top");
	/* Max Single 1009 and 33 us (awk '$2 ~ /^#/ {print $7}') */
	assert_int_equal(l->blocks[0]->hist[0]->printed.max_ns, 1009000);
	assert_int_equal(l->blocks[1]->hist[0]->printed.max_ns, 33000);
	old_logs_free(l);
	/* "results. For instance:" two lines above the banner: prose */
	l = old_logs_load(S("rtla/timerlat-top-all-6.10-lkml.txt"), NULL);
	assert_int_equal(l->nblocks, 1);
	assert_string_equal(l->blocks[0]->title, "rtla timerlat top");
	old_logs_free(l);
}

/*
 * osnoise top and hwnoise rows carry their line (as timerlat top's do): the
 * JSON said [0, 0] and a chart could not point at the row.
 */
static void test_osnoise_top_lines(void **state)
{
	struct lat_loaded *l = old_logs_load(S("rtla/timerlat-top-u-osnoise-lkml-2024-dl-server.txt"),
					     NULL);
	const struct lat_block *b;

	(void)state;
	assert_int_equal(l->nblocks, 4);
	b = l->blocks[3];
	assert_int_equal(b->nhist, 4);
	/* grep -n '^  *3 #598' = line 101: cpu3, Max Single 104442 us */
	assert_string_equal(b->hist[1]->title, "cpu3");
	assert_int_equal(b->hist[1]->first_line, 101);
	assert_int_equal(b->hist[1]->last_line, 101);
	assert_int_equal(b->hist[1]->printed.max_ns, 104442000);
	old_logs_free(l);
}

/*
 * perf sched map (which task ran where, no delay) was no format at all: a
 * paste of it ended in "no log block of a known format found".  Now a block
 * says what it is.  The blog's map: 27 rows with "secs" (grep -c), 2 CPU
 * columns, 7188680.765033 to 7188680.833868 s = 68.8 ms, 11 legends "=>".
 */
static void test_perf_sched_map(void **state)
{
	struct lat_loaded *l = old_logs_load(S("perf-sched/blog-2016-b20yang-latency-map-tabs.txt"),
					     NULL);
	const struct lat_block *b;
	const struct lat_finding *f;

	(void)state;
	assert_int_equal(l->nblocks, 2);
	b = l->blocks[1];
	assert_int_equal(b->first_line, 49);
	assert_int_equal(b->last_line, 75);
	assert_int_equal(b->nhist, 0);
	assert_int_equal(b->skipped_lines, 0);
	f = old_logs_finding(b, "perf-sched-map");
	assert_non_null(f);
	assert_string_equal(f->message, "perf sched map: 27 context switches on 2 CPUs over "
			    "68.8 ms, 11 tasks named: which task ran where, no scheduling delay "
			    "(perf sched latency and timehist print those)");
	/* the latency table above is read as before */
	assert_int_equal(l->blocks[0]->nhist, 14);
	old_logs_free(l);
	/* perf before 6.11 with a CPU filter: rows of cells alone between (LKML 2024) */
	l = old_logs_load_text("  *B0       1.461147 secs\n   B0\n   B0\n   B0\n"
			       "  *G0       1.517139 secs\n", NULL);
	assert_int_equal(l->nblocks, 1);
	assert_int_equal(l->blocks[0]->skipped_lines, 0);
	assert_non_null(old_logs_finding(l->blocks[0], "perf-sched-map"));
	old_logs_free(l);
}

/*
 * "<SNIP>" inside a table (Yang Jihong, LKML 2024): rows left out, not the
 * label of a second run.  Before, it cut the latency table in two, the second
 * half warning that TOTAL's 41368 switches were not its rows' 22, and the map
 * in two.  awk -F'|' '/avg:/{s+=$3}' = 40920 over the six rows shown.
 */
static void test_perf_sched_snip(void **state)
{
	struct lat_loaded *l = old_logs_load(S("perf-sched/lkml-2024-yangjihong-lat-map-replay-snip.txt"),
					     NULL);
	const struct lat_block *b;
	const struct lat_finding *f;

	(void)state;
	assert_int_equal(l->nblocks, 2);
	b = l->blocks[0];
	assert_int_equal(b->first_line, 15);
	assert_int_equal(b->last_line, 25);
	assert_int_equal(b->nhist, 6);
	assert_string_equal(b->hist[5]->title, "migration/13:93");
	assert_int_equal(b->hist[0]->printed.max_ns, 67046000);
	assert_null(old_logs_finding(b, "total-mismatch"));
	f = old_logs_finding(b, "rows-elided");
	assert_non_null(f);
	assert_non_null(strstr(f->message, "line 20:"));
	/* the map: 4 rows, <SNIP>, 5 rows of 16 CPU cells */
	b = l->blocks[1];
	assert_int_equal(b->first_line, 32);
	assert_int_equal(b->last_line, 41);
	f = old_logs_finding(b, "perf-sched-map");
	assert_non_null(f);
	assert_non_null(strstr(f->message, "9 context switches on 16 CPUs"));
	old_logs_free(l);
}

/* "<SNIP>" between cyclictest summaries and rtla top rows: rows left out, no malformed line */
static void test_snip_everywhere(void **state)
{
	struct lat_loaded *l = old_logs_load_text(
		"T: 0 ( 3001) P:80 I:1000 C:  10000 Min:      5 Act:    9 Avg:    8 Max:      40\n"
		"<SNIP>\n"
		"T: 7 ( 3008) P:80 I:1000 C:  10000 Min:      4 Act:    9 Avg:    8 Max:      41\n",
		NULL);

	(void)state;
	assert_int_equal(l->nblocks, 1);
	assert_int_equal(l->blocks[0]->skipped_lines, 0);
	assert_int_equal(l->blocks[0]->nhist, 2);
	old_logs_free(l);
	/* rows of samples/rtla/timerlat-top-u-lkml.txt around a [snip] */
	l = old_logs_load_text(
		"                                     Timer Latency\n"
		"  0 00:01:00   |          IRQ Timer Latency (us)        |         Thread Timer Latency (us)\n"
		"CPU COUNT      |      cur       min       avg       max |      cur       min       avg       max\n"
		"  1 #60003     |        1         1         6        41 |       11         7        18       367\n"
		"[snip]\n"
		"  7 #60002     |        1         1         6        38 |       10         7        17       361\n",
		NULL);
	assert_int_equal(l->nblocks, 1);
	assert_int_equal(l->blocks[0]->skipped_lines, 0);
	assert_non_null(old_logs_finding(l->blocks[0], "rows-elided"));
	old_logs_free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rtla_run_labels),
		cmocka_unit_test(test_osnoise_top_lines),
		cmocka_unit_test(test_perf_sched_map),
		cmocka_unit_test(test_perf_sched_snip),
		cmocka_unit_test(test_snip_everywhere),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
