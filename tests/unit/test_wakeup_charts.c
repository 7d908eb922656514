// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the wakeup analysis keeps for the charts of a trace (docs/wakeup.md):
 * the wait histograms (result->hists), the CPU activity (result->activity) and
 * every marker of a timeline's window, over a hand-built event sequence whose
 * numbers are worked out in the comments.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "wakeup_test_util.h"

static void marker(uint64_t ts, int cpu, int cur, const char *text)
{
	struct lat_event *e = add(ts, cpu, cur, "hog", LAT_EV_MARKER);

	e->u.marker.text = text;
	e->u.marker.len = strlen(text);
}

/*
 * CPU 0: hog (60) from 100; probe (50) woken at 1000 for CPU 0, waits while hog
 * runs and writes 1000 markers (one every 1 us from 2000 ns), runs from
 * 2001000 (hog sleeps) to 3001000.  So: one wakeup wait of 2000000 ns on CPU 0;
 * a task ran 2001000 - 100 + 3001000 - 2001000 = 3000900 ns; one task waited
 * for CPU 0 for 2000000 ns (run-queue area); 1000 markers in the window.
 */
static void build(void)
{
	static const char text[] = "latscope: probe=timer cpu=0 lat_ns=5000 seq=1";

	sw(100, 0, 0, "swapper/0", LAT_TS_RUNNING, 60, "hog");
	wake(1000, 0, 60, "hog", LAT_EV_WAKING, 50, "probe", 0);
	for (int i = 0; i < 1000; i++)
		marker(2000 + (uint64_t)i * 1000, 0, 60, text);
	sw(2001000, 0, 60, "hog", LAT_TS_SLEEPING, 50, "probe");
	sw(3001000, 0, 50, "probe", LAT_TS_SLEEPING, 0, "swapper/0");
}

static void test_hists_and_activity(void **state)
{
	struct lat_analyze_opts o;
	struct lat_block *b;
	const struct lat_wakeup_result *r;
	const struct lat_wake_activity *a;
	int64_t busy = 0, lo, hi;
	uint64_t rq = 0, n = 0;

	(void)state;
	build();
	lat_analyze_opts_init(&o);
	o.activity = 1;
	b = run_opts(&o);
	r = b->analysis;
	/* 2000000 = 2^20 + 7 * 2^17 + 82432: bucket 1 + (20 - 8) * 8 + 7 = 104 */
	assert_int_equal(r->nhists, 1);
	assert_int_equal(r->nhist_cpus, 1);
	assert_int_equal(r->hists[0].cpu, 0);
	assert_int_equal(r->hists[0].pid, -1);
	for (size_t k = 0; k < LAT_WAKE_HIST_N; k++)
		n += r->hists[0].b[k];
	assert_int_equal(n, 1);
	assert_int_equal(r->hists[0].b[104], 1);
	lat_wake_hist_edges(104, &lo, &hi);
	assert_int_equal(lo, 1966080);
	assert_int_equal(hi, 2097152);
	assert_int_equal(r->hists[0].st.max, 2000000);
	/* 3001000 - 100 ns > 512 bins of 1024 ns: 8192 ns bins, 367 of them used */
	a = r->activity;
	assert_non_null(a);
	assert_int_equal(a->bin_ns, 8192);
	assert_int_equal(a->t0_ns, 100);
	assert_int_equal(a->nbins, (3001000 - 100 - 1) / 8192 + 1);
	for (size_t k = 0; k < a->nbins; k++) {
		busy += a->cpu[0].busy[k];
		rq += a->cpu[0].rq_area[k];
	}
	assert_int_equal(busy, 3000900);
	assert_int_equal(rq, 2000000);
	lat_block_free(b);
}

/* All 1000 markers of the case's window are in its timeline (the ring held 256). */
static void test_markers_in_window(void **state)
{
	struct lat_block *b;
	struct lat_timeline *t = NULL;
	size_t nm = 0;

	(void)state;
	build();
	b = run();
	assert_int_equal(lat_wakeup_timeline(b, 0, &t), 0);
	for (size_t i = 0; i < t->nmarks; i++)
		nm += t->marks[i].kind == LAT_TL_MARKER;
	assert_int_equal(nm, 1000);
	lat_timeline_free(t);
	lat_block_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_hists_and_activity, reset),
		cmocka_unit_test_setup(test_markers_in_window, reset),
	};

	return cmocka_run_group_tests(tests, NULL, release_events);
}
