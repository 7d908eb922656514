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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rtla_run_labels),
		cmocka_unit_test(test_osnoise_top_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
