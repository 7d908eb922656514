// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Long waits drawn whole (docs/wakeup.md, "Timeline"): a wait longer than a
 * CPU's slice ring reaches gets its whole window, the slices the ring let go
 * of merged (the coarse history) and the exact ones after them, with no gap;
 * the coarse history stays bounded and its spans fine for their age; the
 * reports are the same whether a timeline is asked or not.  The traces are
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

#include "latscope/input.h"
#include "wakeup_case.h"
#include "wakeup_coarse.h"
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

/* The next piece [s, e) of a lane: where the one before ended, the first no later than @a. */
static void cover_next(uint64_t s, uint64_t e, uint64_t a, int *started, uint64_t *at)
{
	if (*started)
		assert_true(s == *at);
	else
		assert_true(s <= a);
	*started = 1;
	*at = e;
}

/* The timeline's spans and slices of @cpu cover [a, b) with no gap and no overlap. */
static void assert_covered(const struct lat_timeline *tl, int cpu, uint64_t a, uint64_t b)
{
	uint64_t at = 0;
	int started = 0;

	for (size_t i = 0; i < tl->nsums; i++)
		if (tl->sums[i].cpu == cpu && tl->sums[i].end_ns > a && tl->sums[i].start_ns < b)
			cover_next(tl->sums[i].start_ns, tl->sums[i].end_ns, a, &started, &at);
	for (size_t i = 0; i < tl->nslices; i++)
		if (tl->slices[i].cpu == cpu && tl->slices[i].end_ns > a &&
		    tl->slices[i].start_ns < b)
			cover_next(tl->slices[i].start_ns, tl->slices[i].end_ns, a, &started, &at);
	assert_true(started);
	assert_true(at >= b);
}

/*
 * The ping-pong's merged spans: each counts its slices once (one per STEP),
 * all of them tasks' time, the top task one of the two.
 */
static void assert_pingpong_sums(const struct lat_timeline *tl, int cpu, uint64_t window_ns)
{
	size_t n = 0;

	for (size_t i = 0; i < tl->nsums; i++) {
		const struct lat_tl_summary *s = &tl->sums[i];

		if (s->cpu != cpu || s->start_ns < PP_FROM)
			continue;
		assert_true((uint64_t)s->nslices * STEP == s->end_ns - s->start_ns);
		assert_true(s->busy_ns == s->end_ns - s->start_ns);
		assert_true(s->pid == 500 || s->pid == 700);
		/* fine for their age: 2 x age / (512 - 1) + 16 us < 1/200 of the window */
		assert_true((s->end_ns - s->start_ns) * 200 < window_ns);
		n++;
	}
	assert_true(n > 100);
}

/*
 * The 1 s wait: margins of an eighth of it (125 ms: more than WK_TL_MARGIN_CAP),
 * so the window is [875 ms + 1, 2125 ms + 1], not cut where CPU1's ring ends.
 * Its slices are taken when that window has passed: at the first event after
 * 2125 ms + 1, switch k = 66251; CPU1 had pushed one slice at 15 ns and one
 * per switch k = 0 .. 66250, 66252 in all, so the ring holds those of k =
 * 33483 .. 66250, the oldest [t(33482), t(33483)), starting at 800 ms +
 * 33482 x 20 us = 1469.64 ms.  Before that the merged spans; had they been
 * taken at the case's build (2.5 s), the ring would start 375 ms later.
 */
static void test_long_wait_whole(void **state)
{
	struct lat_block *b;
	struct lat_timeline *tl = NULL;
	const struct lat_wake_case *c;
	size_t first1 = SIZE_MAX, n0 = 0;

	(void)state;
	hog_and_pingpong();
	b = run();
	c = &((const struct lat_wakeup_result *)b->analysis)->worst[0];
	assert_int_equal(c->pid, 300);
	assert_int_equal(c->latency_ns, 1000 * MS);
	assert_int_equal(lat_wakeup_timeline(b, 0, &tl), 0);
	assert_true(tl->start_ns == 875 * MS + 1);
	assert_true(tl->end_ns == 2125 * MS + 1);
	/* CPU0: H, W, H, exact (its ring never filled): the wait is H's slice */
	for (size_t i = 0; i < tl->nsums; i++)
		assert_int_equal(tl->sums[i].cpu, 1);
	for (size_t i = 0; i < tl->nslices; i++) {
		if (tl->slices[i].cpu == 1 && first1 == SIZE_MAX)
			first1 = i;
		if (tl->slices[i].cpu != 0)
			continue;
		n0++;
		if (n0 == 1) {
			assert_int_equal(tl->slices[i].pid, 900);
			assert_true(tl->slices[i].end_ns == 2000 * MS + 1);
		}
	}
	assert_int_equal(n0, 3);
	assert_covered(tl, 0, 875 * MS + 1, 2125 * MS + 1);
	/* CPU1: merged spans up to the ring's oldest slice, exact from there */
	assert_true(first1 != SIZE_MAX);
	assert_true(tl->slices[first1].start_ns == PP_FROM + 33482 * STEP);
	assert_true(tl->nsums > 0 && tl->sums[tl->nsums - 1].end_ns == PP_FROM + 33482 * STEP);
	assert_covered(tl, 1, 875 * MS + 1, 2125 * MS + 1);
	assert_pingpong_sums(tl, 1, 1250 * MS);
	lat_timeline_free(tl);
	lat_block_free(b);
}

/*
 * The wait on the busy CPU itself: W sleeps on CPU1 at 17 ns, H wakes it from
 * CPU0 at 1 s + 1 ns, the ping-pong switches to it at 2 s (switch 60000) and
 * out at the next: a wait of 999,999,999 ns, margins 124,999,999 (an
 * eighth), window [875 ms + 2, 2125 ms - 1].  Taken at switch 66250 (the
 * first after), CPU1 having pushed 2 + 66250 slices: the ring holds those of
 * switch 33482 .. 66249, the oldest from t(33481) = 1469.62 ms.
 */
static void test_busy_cpu_whole(void **state)
{
	struct lat_block *b;
	struct lat_timeline *tl = NULL;
	const struct lat_wake_case *c;
	uint64_t win = 2000 * MS;

	(void)state;
	sw(10, 0, 0, "swapper/0", LAT_TS_RUNNING, 900, "H");
	sw(15, 1, 0, "swapper/1", LAT_TS_RUNNING, 300, "W");
	sw(17, 1, 300, "W", LAT_TS_SLEEPING, 500, "Y");
	wake(1000 * MS + 1, 0, 900, "H", LAT_EV_WAKING, 300, "W", 1);
	pingpong(1, win);
	sort_events();
	b = run();
	c = &((const struct lat_wakeup_result *)b->analysis)->worst[0];
	assert_int_equal(c->pid, 300);
	assert_int_equal(c->cpu, 1);
	assert_int_equal(c->latency_ns, 999999999);
	assert_int_equal(lat_wakeup_timeline(b, 0, &tl), 0);
	assert_true(tl->start_ns == 875 * MS + 2);
	assert_true(tl->end_ns == 2125 * MS - 1);
	assert_true(tl->brackets[0].start_ns == 1000 * MS + 1 && tl->brackets[0].end_ns == win);
	assert_true(tl->nsums > 0 && tl->sums[tl->nsums - 1].end_ns == PP_FROM + 33481 * STEP);
	/* the whole wait on its CPU: merged spans, then exact slices, no gap */
	assert_covered(tl, 1, 1000 * MS + 1, win);
	assert_covered(tl, 1, tl->start_ns, tl->end_ns);
	assert_pingpong_sums(tl, 1, 1250 * MS);
	lat_timeline_free(tl);
	lat_block_free(b);
}

/*
 * samples/tracedat/fifo-hog-wait-v7-zstd.dat (its README checks these with
 * trace-cmd): python3/21457 waits 946,803,147 ns on CPU0 behind a FIFO hog
 * while CPU1 switches 63,476 times in the window [7056.264640347,
 * 7057.448144280] (margins of an eighth); CPU1's last 32768 slices are kept
 * exactly (one of them empty, the running one added), the 30,712 before
 * them merged, from 7056.264511081 on, up to the first exact one.  Switches
 * went missing on CPU1 (trace-cmd report -t): at 7056.856053070 memfd:sealed-91
 * /1273 switched out while the switches said tokio-rt-worker/75 ran, whose only
 * event was its switch in at 7056.855730318.  That stretch is a kept slice of
 * no task, drawn as a gap, "switch missing", and 75 has no slice of its own:
 * 32,767 drawn.  Earlier, at 7056.432980794, 21652 switched out while 81 ran,
 * whose last event was at 7056.432944269: 81's slice ends there and a slice of
 * no task follows, one more merged, 30,713.  (The two other breaks before
 * replace a slice of 81 that had no event after its switch in.)
 */
static void test_sample(void **state)
{
	struct lat_loaded ld;
	struct lat_analyze_opts ao;
	struct lat_timeline *tl = NULL;
	size_t n1 = 0;
	uint64_t merged = 0;
	const struct lat_tl_mark *gap = NULL;

	(void)state;
	lat_analyze_opts_init(&ao);
	ao.timelines = 1;
	assert_int_equal(lat_load(&ld, LAT_SAMPLES_DIR "/tracedat/fifo-hog-wait-v7-zstd.dat",
				  NULL), 0);
	assert_int_equal(lat_analyze_block(ld.blocks[0], &ao), 0);
	assert_int_equal(lat_wakeup_timeline(ld.blocks[0], 0, &tl), 0);
	assert_int_equal(tl->brackets[0].pid, 21457);
	assert_true(tl->start_ns == 7056264640347ULL && tl->end_ns == 7057448144280ULL);
	for (size_t i = 0; i < tl->nslices; i++)
		n1 += tl->slices[i].cpu == 1;
	for (size_t i = 0; i < tl->nsums; i++) {
		assert_int_equal(tl->sums[i].cpu, 1);
		merged += tl->sums[i].nslices;
	}
	assert_int_equal(n1, 32767);
	assert_true(merged == 30713);
	assert_true(tl->sums[0].start_ns == 7056264511081ULL);
	for (size_t i = 0; i < tl->nmarks; i++) {
		const struct lat_tl_mark *m = &tl->marks[i];

		if (m->kind != LAT_TL_GAP)
			continue;
		assert_null(gap);
		gap = m;
	}
	assert_non_null(gap);
	assert_int_equal(gap->cpu, 1);
	assert_string_equal(gap->label, "switch missing");
	assert_true(gap->start_ns == 7056855730318ULL && gap->end_ns == 7056856053070ULL);
	assert_covered(tl, 0, tl->start_ns, tl->end_ns);
	assert_covered(tl, 1, tl->start_ns, gap->start_ns);
	assert_covered(tl, 1, gap->end_ns, tl->end_ns);
	lat_timeline_free(tl);
	lat_loaded_release(&ld);
}

/*
 * The bracket says what the verdict says.  In section-tick (samples/tracedat/
 * README.md), the worst wait is khugepaged/40's 6.22 ms: woken for CPU0, where
 * latscope/24697 ran, and pulled to CPU1 at once, where 10 fair tasks shared
 * the CPU (cpu-saturated).  The case keeps its moment queued on CPU0, but the
 * bracket names CPU1's holders, not CPU0's (it said "queued on CPU 0, held by
 * latscope:24697 (100%)").
 */
static void test_bracket_follows_verdict(void **state)
{
	struct lat_loaded ld;
	struct lat_analyze_opts ao;
	struct lat_timeline *tl = NULL;
	const struct lat_wake_case *c;

	(void)state;
	lat_analyze_opts_init(&ao);
	ao.timelines = 1;
	assert_int_equal(lat_load(&ld, LAT_SAMPLES_DIR "/tracedat/section-tick-v7-zstd.dat",
				  NULL), 0);
	assert_int_equal(lat_analyze_block(ld.blocks[0], &ao), 0);
	c = &((const struct lat_wakeup_result *)ld.blocks[0]->analysis)->worst[0];
	assert_int_equal(c->pid, 40);
	assert_int_equal(c->verdict.kind, LAT_VERDICT_CPU_SATURATED);
	assert_int_equal(c->queued_left_cpu, 0);
	assert_true(c->queued_until_ns > c->start_ns);
	assert_int_equal(lat_wakeup_timeline(ld.blocks[0], 0, &tl), 0);
	assert_int_equal(tl->brackets[0].pid, 40);
	assert_int_equal(tl->brackets[0].queued_until_ns, 0);
	assert_int_equal(tl->brackets[0].held_by_pid, 24013);
	lat_timeline_free(tl);
	lat_loaded_release(&ld);
}

/* The text and JSON reports of @b, as `latscope analyze` writes them. */
static char *reports(struct lat_block *b, const struct lat_analyze_opts *o)
{
	struct lat_report_input in = { .path = "mem", .format = "events", .blocks = &b,
				       .nblocks = 1 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	lat_report_text(f, &in, 1, o);
	lat_report_json(f, &in, 1, o);
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

/*
 * 10 s of 1 us slices into one coarse history of 512 spans a level: nothing
 * lost, each slice and each task's ns counted once, spans in order with no
 * gap, each within its level's length and at most 2 x age / 511 + 16 us long
 * (levels below a span are full, of spans at least half their length: its
 * age is at least 511 x 16 us x (2^i - 1) / 2 at level i); so at most 12
 * levels (2^i <= 2 x 10 s / (511 x 16 us) + 1 = 2447: i <= 11).
 */
static void test_coarse_bounded(void **state)
{
	const uint64_t n = 10000000;
	struct lat_arena a = { 0 };
	struct wk_coarse_cpu *cc = wk_coarse_new(&a, 512);
	uint64_t at = 0, busy = 0, nsl = 0;
	size_t spans = 0;

	(void)state;
	assert_non_null(cc);
	for (uint64_t i = 0; i < n; i++) {
		/* three tasks and idle in turn */
		struct wk_slice s = { .start = i * 1000, .end = i * 1000 + 1000,
				      .pid = i % 4 == 3 ? 0 : (int32_t)(100 + i % 4), .prio = 120 };

		wk_coarse_add(cc, &s);
	}
	assert_true(cc->lost_to == 0);
	assert_true(cc->nslices == n);
	assert_true(cc->nlevels >= 2 && cc->nlevels <= 12);
	for (uint32_t lv = cc->nlevels; lv-- > 0;) {
		for (uint32_t i = 0; i < cc->lv[lv].len; i++) {
			const struct wk_coarse *e = wk_coarse_at(cc, lv, i);
			uint64_t age = n * 1000 - e->end;

			assert_true(e->start == at);
			assert_true(e->end - e->start <= (uint64_t)WK_COARSE_RES0_NS << lv);
			assert_true(e->end - e->start <= 2 * age / 511 + WK_COARSE_RES0_NS);
			assert_true(e->pid >= 100 && e->pid <= 102);
			at = e->end;
			busy += e->busy_ns;
			nsl += e->n;
			spans++;
		}
	}
	assert_true(at == n * 1000);
	assert_true(nsl == n);
	assert_true(busy == n / 4 * 3 * 1000);
	assert_true(spans <= (size_t)cc->nlevels * 512);
	lat_arena_release(&a);
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
		cmocka_unit_test_setup(test_long_wait_whole, reset),
		cmocka_unit_test_setup(test_busy_cpu_whole, reset),
		cmocka_unit_test_setup(test_reports_same, reset),
		cmocka_unit_test(test_sample),
		cmocka_unit_test(test_bracket_follows_verdict),
		cmocka_unit_test(test_coarse_bounded),
		cmocka_unit_test(test_margin),
	};

	return cmocka_run_group_tests(tests, NULL, release_events);
}
