// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Long waits drawn whole (docs/wakeup.md, "Timeline"): the margins of a long
 * wait's window, and the reports the same whether a timeline is asked or not
 * (its window is taken earlier than the case is built).  The traces are
 * generated; every expected number is worked out in the comments.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "latscope/json.h"
#include "report_priv.h"
#include "wakeup_case.h"
#include "wakeup_test_util.h"

#define MS 1000000ULL
#define STEP 20000ULL		/* 20 us between two ping-pong switches */
#define PP_FROM (800 * MS)	/* the ping-pong's first switch */
#define PP_TO (2600 * MS)	/* ... and its last */

static int cmp_ts(const void *a, const void *b)
{
	const struct lat_event *x = a, *y = b;

	return x->ts_ns < y->ts_ns ? -1 : x->ts_ns > y->ts_ns;
}

/* The events in time order (the generators write each CPU's in turn; no two at one ns). */
static void sort_events(void)
{
	qsort(evs, nev, sizeof(*evs), cmp_ts);
}

/*
 * Y (500) and Z (700) take turns on @cpu, switching out asleep, every STEP
 * from PP_FROM to PP_TO: switch k (at PP_FROM + k STEP) goes to Z when k is
 * even, to Y when odd; at @w_in it goes to W (300) instead, and the next one
 * takes W out (asleep).  Y runs there before.
 */
static void pingpong(int cpu, uint64_t w_in)
{
	int cur = 500;
	const char *cc = "Y";

	for (uint64_t k = 0, t = PP_FROM; t <= PP_TO; k++, t += STEP) {
		int next = k % 2 ? 500 : 700;
		const char *nc = k % 2 ? "Y" : "Z";

		if (t == w_in) {
			next = 300;
			nc = "W";
		}
		sw(t, cpu, cur, cc, LAT_TS_SLEEPING, next, nc);
		cur = next;
		cc = nc;
	}
}

/*
 * H (900) holds CPU0 from 10 ns on; W sleeps there at 21 and is woken by H at
 * 1 s + 1 ns; it runs at 2 s + 1 ns, for 1 ms: a 1 s wait, all of it H's.
 * CPU1 runs Y from 15 ns, then the ping-pong: 90,000 switches, far more than
 * its ring of 32768 slices (two CPUs) holds.
 */
static void hog_and_pingpong(void)
{
	sw(10, 0, 0, "swapper/0", LAT_TS_RUNNING, 300, "W");
	sw(21, 0, 300, "W", LAT_TS_SLEEPING, 900, "H");
	wake(1000 * MS + 1, 0, 900, "H", LAT_EV_WAKING, 300, "W", 0);
	sw(2000 * MS + 1, 0, 900, "H", LAT_TS_RUNNING, 300, "W");
	sw(2001 * MS + 1, 0, 300, "W", LAT_TS_SLEEPING, 900, "H");
	sw(15, 1, 0, "swapper/1", LAT_TS_RUNNING, 500, "Y");
	pingpong(1, 0);
	sort_events();
}

/* The text and JSON reports of @b. */
static char *reports(const struct lat_block *b, const struct lat_analyze_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct lat_json j;

	assert_non_null(f);
	lat_report_wakeup_text(f, b, o);
	lat_json_init(&j, f, 1);
	lat_json_obj_open(&j, NULL);
	lat_report_wakeup_json(&j, b, o);
	lat_json_obj_close(&j);
	fclose(f);
	return buf;
}

/* Asking for a timeline (the coarse history kept, its window taken earlier) changes no report. */
static void test_reports_same(void **state)
{
	struct lat_analyze_opts o;
	struct lat_block *b0, *b1;
	char *r0, *r1;

	(void)state;
	hog_and_pingpong();
	lat_analyze_opts_init(&o);
	assert_int_equal(o.timelines, 0);	/* analyze's default */
	b0 = run_opts(&o);
	r0 = reports(b0, &o);
	assert_null(((const struct lat_wakeup_result *)b0->analysis)->worst[0].tl);
	o.timelines = 1;
	b1 = run_opts(&o);
	r1 = reports(b1, &o);
	assert_non_null(((const struct lat_wakeup_result *)b1->analysis)->worst[0].tl);
	assert_true(strlen(r0) > 1000);
	assert_string_equal(r0, r1);
	free(r0);
	free(r1);
	lat_block_free(b0);
	lat_block_free(b1);
}

/* Half the wait up to WK_TL_MARGIN_CAP (50 ms), then that or an eighth; 100 us at least. */
static void test_margin(void **state)
{
	(void)state;
	assert_true(wk_tl_margin(1000) == 100000);
	assert_true(wk_tl_margin(1 * MS) == 500000);
	assert_true(wk_tl_margin(100 * MS) == 50 * MS);
	assert_true(wk_tl_margin(100 * MS + 2) == 50 * MS);
	assert_true(wk_tl_margin(300 * MS) == 50 * MS);	/* an eighth: 37.5 ms */
	assert_true(wk_tl_margin(1300 * MS) == 162500000);	/* an eighth: 1.3 s fills 80% */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_reports_same, reset),
		cmocka_unit_test(test_margin),
	};

	return cmocka_run_group_tests(tests, NULL, release_events);
}
