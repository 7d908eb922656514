// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel-side timer latency (analyze/wakeup_timer.c, docs/timers.md) over
 * hand-built event sequences.  A timer's expires and its callback's now are in
 * the timer's clock, the event timestamps in the trace's: the tests put the
 * timer clock 5,000 ns behind the trace clock at first (entry ts - now), so
 * every expected number below is written out beside the events it comes from.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "latscope/report.h"
#include "report_priv.h"
#include "wakeup_test_util.h"
#include "wakeup_timer.h"
#include "wakeup_timer_util.h"

/* A waking of @pid inside a callback (hard irq) while @cur runs on @cpu. */
static void hwake(uint64_t ts, int cpu, int cur, const char *cc, int pid, const char *comm)
{
	wake(ts, cpu, cur, cc, LAT_EV_WAKING, pid, comm, cpu);
	evs[nev - 1].flags = HARD;
}

static const struct lat_timer_result *tmr(const struct lat_block *b)
{
	const struct lat_wakeup_result *r = b->analysis;

	return r->timers;
}

static char *report_text(const struct lat_block *b, const struct lat_analyze_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	rp_report_timers_text(f, b, o);
	fclose(f);
	return buf;
}

/*
 * cyclictest's sleep: C (200) arms 0xa0 (hrtimer_wakeup) for expires 5000 at
 * 1000 and sleeps; hog (70) runs.  The callback enters at 10500 with now 5300:
 * irq latency 5300 - 5000 = 300, so the expiry in the trace clock is 10500 - 300
 * = 10200.  C's waking at 10510 (callback 10), exit 10520, switch in at 10900
 * (wait 390): thread latency 10900 - 10200 = 700 = 300 + 10 + 390.  The tick
 * 0xb0, armed by hog for 5600, runs at 10800 with now 5700 (irq 100) and wakes
 * ksoftirqd (15), which neither armed it nor sleeps in hrtimer_wakeup: no
 * thread sample.
 */
static void cyclictest_sleep(void)
{
	sw(5, 0, 0, "swapper/0", LAT_TS_RUNNING, 200, "C");
	tstart(1000, 0, 200, "C", 0xa0, "hrtimer_wakeup", 5000, 5000);
	sw(1100, 0, 200, "C", LAT_TS_SLEEPING, 70, "hog");
	tstart(1200, 0, 70, "hog", 0xb0, "tick_nohz_handler", 5600, 5600);
	sw(1300, 1, 0, "swapper/1", LAT_TS_RUNNING, 15, "ksoftirqd/1");
	sw(1400, 1, 15, "ksoftirqd/1", LAT_TS_SLEEPING, 0, "swapper/1");
	tentry(10500, 0, 70, "hog", 0xa0, "hrtimer_wakeup", 5300);
	hwake(10510, 0, 70, "hog", 200, "C");
	texit(10520, 0, 70, "hog", 0xa0);
	tentry(10800, 0, 70, "hog", 0xb0, "tick_nohz_handler", 5700);
	hwake(10810, 0, 70, "hog", 15, "ksoftirqd/1");
	texit(10820, 0, 70, "hog", 0xb0);
	sw(10900, 0, 70, "hog", LAT_TS_RUNNING, 200, "C");
}

static void test_irq_and_thread_latency(void **state)
{
	struct lat_block *b;
	const struct lat_timer_result *t;
	const struct lat_timer_sample *s;

	(void)state;
	cyclictest_sleep();
	b = run();
	t = tmr(b);
	assert_non_null(t);
	assert_int_equal(t->starts, 2);
	assert_int_equal(t->entries, 2);
	assert_int_equal(t->measured, 2);
	assert_int_equal(t->unarmed, 0);
	assert_int_equal(t->ncpus, 1);
	assert_int_equal(t->cpus[0].cpu, 0);
	assert_int_equal(t->cpus[0].irq.n, 2);
	assert_int_equal(t->cpus[0].irq.min, 100);	/* the tick */
	assert_int_equal(t->cpus[0].irq.max, 300);	/* C's timer */
	assert_int_equal(t->irq.n, 2);
	assert_int_equal(t->wakes, 1);
	assert_int_equal(t->nthreads, 1);
	assert_int_equal(t->threads[0].pid, 200);
	assert_int_equal(t->threads[0].lat.n, 1);
	assert_int_equal(t->threads[0].lat.max, 700);
	assert_int_equal(t->threads[0].max_irq_ns, 300);
	assert_string_equal(t->threads[0].function, "hrtimer_wakeup");
	assert_int_equal(t->nworst, 1);
	s = &t->worst[0];
	assert_int_equal(s->latency_ns, 700);
	assert_int_equal(s->x.irq_ns, 300);
	assert_int_equal(s->x.expiry_ns, 10200);
	assert_int_equal(s->x.entry_ns, 10500);
	assert_int_equal(s->callback_ns, 10);
	assert_int_equal(s->wait_ns, 390);
	assert_int_equal(s->latency_ns, s->x.irq_ns + s->callback_ns + s->wait_ns);
	assert_int_equal(s->waking_ns, 10510);
	assert_int_equal(s->end_ns, 10900);
	assert_int_equal(s->wait_start_ns, 10510);	/* the wakeup analysis' wait */
	assert_int_equal(s->cpu, 0);
	assert_int_equal(s->x.armed_pid, 200);
	assert_int_equal(s->running, 0);
	/* what delayed the callback: hog ran at the expiry (10200), CPU0 silent 1400 .. 10500 */
	assert_int_equal(s->x.delay.pid, 70);
	assert_string_equal(s->x.delay.comm, "hog");
	assert_int_equal(s->x.delay.silent_from_ns, 1200);	/* CPU0's last event before */
	assert_int_equal(s->x.delay.silent_to_ns, 10500);
	/* the worst irq latencies: one per interrupt, the worst first */
	assert_int_equal(t->nworst_irq, 2);
	assert_int_equal(t->worst_irq[0].irq_ns, 300);
	assert_int_equal(t->worst_irq[1].irq_ns, 100);
	assert_string_equal(t->worst_irq[1].function, "tick_nohz_handler");
	/* CPU0 logged nothing from the exit at 10520 across the expiry (10800 - 100) */
	assert_int_equal(t->worst_irq[1].delay.silent_from_ns, 10520);
	lat_block_free(b);
}

/*
 * With --timer-detail on x86 the interrupt's first event is its vector,
 * irq_vectors:local_timer_entry, a few hundred ns before the callback's entry
 * (the real recording of docs/timers.md: 272 ns).  The sleep above with the
 * vector at 10490: CPU0's silence across the expiry (10200) is 1200 .. 10490,
 * the vector's, not none (the vector is CPU0's last event before the entry, and
 * after the expiry).  The tick's interrupt (10800, no vector) still begins at
 * its entry: silent from the exit at 10520.
 */
static void test_vector_begins_irq(void **state)
{
	struct lat_block *b;
	const struct lat_timer_result *t;
	struct lat_event vec;
	size_t i;

	(void)state;
	cyclictest_sleep();
	vec = *add(10490, 0, 70, "hog", LAT_EV_OTHER);	/* appended, then moved in place */
	vec.flags = HARD;
	vec.name = "irq_vectors:local_timer_entry";
	for (i = 0; evs[i].ts_ns < 10490; i++)
		;
	memmove(&evs[i + 1], &evs[i], (nev - 1 - i) * sizeof(evs[0]));
	evs[i] = vec;
	b = run();
	t = tmr(b);
	assert_int_equal(t->nworst, 1);
	assert_int_equal(t->worst[0].x.irq_ns, 300);
	assert_int_equal(t->worst[0].x.delay.silent_from_ns, 1200);
	assert_int_equal(t->worst[0].x.delay.silent_to_ns, 10490);
	assert_int_equal(t->worst_irq[1].delay.silent_from_ns, 10520);
	assert_int_equal(t->worst_irq[1].delay.silent_to_ns, 10800);
	lat_block_free(b);
}

/*
 * The same through the text report: the irq, callback and wait parts, and the
 * wait's verdict as the wakeup analysis gave it.  With --threshold 100 ns the
 * wait (390) is judged and is the worst wakeup: hog (prio 120, C's class) held
 * the CPU from C's waking to its run: cpu-saturated.
 */
static void test_text_and_verdict(void **state)
{
	struct lat_analyze_opts o;
	struct lat_block *b;
	const struct lat_timer_sample *s;
	const struct lat_wakeup_result *r;
	char *txt;

	(void)state;
	cyclictest_sleep();
	lat_analyze_opts_init(&o);
	o.threshold_ns = 100;
	b = run_opts(&o);
	r = b->analysis;
	s = &tmr(b)->worst[0];
	assert_int_equal(r->worst[0].pid, 200);
	assert_int_equal(r->worst[0].start_ns, 10510);
	assert_int_equal(s->verdict, (int)r->worst[0].verdict.kind);
	txt = report_text(b, &o);
	assert_non_null(strstr(txt, "2 expiries, 2 measured"));
	assert_non_null(strstr(txt, "1. C/200 SCHED_OTHER nice 0 ran 700 ns after its timer's "
				    "expiry at 0.000010200 (hrtimer_wakeup on CPU0)\n     = irq "
				    "300 ns; CPU0 logged nothing from 0.000001200 until the "
				    "interrupt at 0.000010500 (9.3 us); at the expiry CPU0 ran "
				    "hog/70\n     + callback 10 ns + wait 390 ns on CPU0\n       "
				    "the wait is worst wakeup 1: cpu-saturated: "));
	free(txt);
	lat_block_free(b);
	/*
	 * below the threshold (10 ms by default) the wait is judged only as one of
	 * the worst wakeups; with none kept (--worst 0) it is not judged: said so
	 */
	lat_analyze_opts_init(&o);
	o.worst_n = 0;
	b = run_opts(&o);
	assert_int_equal(tmr(b)->worst[0].verdict, -1);
	txt = report_text(b, &o);
	assert_non_null(strstr(txt, "the wait was not judged (below --threshold 10 ms)"));
	free(txt);
	lat_block_free(b);
}

/*
 * A timer inside its slack fires early: armed for expires 6000 (softexpires
 * 5950), it runs at 20000 with now 5960, 40 before expires: irq latency 0,
 * counted early.  An expiry whose start was not recorded (0xc0) measures
 * nothing; one armed before lost events (0xd0) neither.
 */
static void test_early_unarmed_lost(void **state)
{
	struct lat_block *b;
	const struct lat_timer_result *t;
	struct lat_event *e;

	(void)state;
	sw(5, 0, 0, "swapper/0", LAT_TS_RUNNING, 300, "S");
	tstart(1000, 0, 300, "S", 0x10, "hrtimer_wakeup", 6000, 5950);
	tstart(1100, 0, 300, "S", 0xd0, "it_real_fn", 9000, 9000);
	sw(1200, 0, 300, "S", LAT_TS_SLEEPING, 0, "swapper/0");
	tentry(20000, 0, 0, "swapper/0", 0x10, "hrtimer_wakeup", 5960);
	texit(20010, 0, 0, "swapper/0", 0x10);
	tentry(20100, 0, 0, "swapper/0", 0xc0, "tick_nohz_handler", 6100);
	texit(20110, 0, 0, "swapper/0", 0xc0);
	e = add(20200, 0, -1, "", LAT_EV_LOST);
	e->u.lost.count = 10;
	tentry(30000, 0, 0, "swapper/0", 0xd0, "it_real_fn", 9100);
	texit(30010, 0, 0, "swapper/0", 0xd0);
	b = run();
	t = tmr(b);
	assert_int_equal(t->entries, 3);
	assert_int_equal(t->measured, 1);
	assert_int_equal(t->early, 1);
	assert_int_equal(t->cpus[0].early, 1);
	assert_int_equal(t->cpus[0].irq.max, 0);
	assert_int_equal(t->unarmed, 1);
	assert_int_equal(t->untrusted, 1);
	assert_int_equal(t->nworst_irq, 1);
	assert_int_equal(t->worst_irq[0].expiry_ns, 20000);	/* 20000 - 0 */
	lat_block_free(b);
}

/*
 * Older kernels (4.x) log hrtimer_cancel right before each expiry (the timer
 * leaves its queue): the expiry is still measured.  A real cancel on
 * CPU1 (0x30, re-armed later for 7000) measures the new expiry; 0x40 canceled
 * for good is not in the table any more when a stray entry of it comes.
 */
static void test_cancel(void **state)
{
	struct lat_block *b;
	const struct lat_timer_result *t;

	(void)state;
	sw(5, 0, 0, "swapper/0", LAT_TS_RUNNING, 400, "A");
	tstart(100, 0, 400, "A", 0x20, "hrtimer_wakeup", 5000, 5000);
	tstart(110, 0, 400, "A", 0x30, "hrtimer_wakeup", 6000, 6000);
	tstart(120, 0, 400, "A", 0x40, "hrtimer_wakeup", 6500, 6500);
	tcancel(130, 1, 500, "B", 0x30);
	tcancel(140, 1, 500, "B", 0x40);
	tstart(150, 0, 400, "A", 0x30, "hrtimer_wakeup", 7000, 7000);
	tcancel(10000, 0, 400, "A", 0x20);
	tentry(10000, 0, 400, "A", 0x20, "hrtimer_wakeup", 5010);	/* irq 10 */
	texit(10010, 0, 400, "A", 0x20);
	tentry(12000, 0, 400, "A", 0x30, "hrtimer_wakeup", 7030);	/* irq 30, not 1030 */
	texit(12010, 0, 400, "A", 0x30);
	tentry(13000, 0, 400, "A", 0x40, "hrtimer_wakeup", 8000);	/* canceled: unarmed */
	texit(13010, 0, 400, "A", 0x40);
	b = run();
	t = tmr(b);
	assert_int_equal(t->starts, 4);
	assert_int_equal(t->cancels, 3);
	assert_int_equal(t->measured, 2);
	assert_int_equal(t->unarmed, 1);
	assert_int_equal(t->cpus[0].irq.min, 10);
	assert_int_equal(t->cpus[0].irq.max, 30);
	lat_block_free(b);
}

/*
 * The timer fires before its sleeper got off the CPU (clock_nanosleep with an
 * expiry already past): the waking interrupts C itself (pid 200 on CPU0),
 * no wait begins, and the sample ends at the waking: armed for 5000, entry at
 * 9000 with now 5050 (irq 50, expiry 8950), waking at 9004: latency 54.
 */
static void test_running(void **state)
{
	struct lat_block *b;
	const struct lat_timer_result *t;

	(void)state;
	sw(5, 0, 0, "swapper/0", LAT_TS_RUNNING, 200, "C");
	tstart(1000, 0, 200, "C", 0xa0, "hrtimer_wakeup", 5000, 5000);
	tentry(9000, 0, 200, "C", 0xa0, "hrtimer_wakeup", 5050);
	hwake(9004, 0, 200, "C", 200, "C");
	texit(9010, 0, 200, "C", 0xa0);
	b = run();
	t = tmr(b);
	assert_int_equal(t->wakes, 1);
	assert_int_equal(t->worst[0].running, 1);
	assert_int_equal(t->worst[0].latency_ns, 54);
	assert_int_equal(t->worst[0].wait_ns, 0);
	assert_int_equal(t->worst[0].end_ns, 9004);
	assert_int_equal(t->threads[0].running, 1);
	lat_block_free(b);
}

/*
 * --wake-start wakeup: waits begin at sched_wakeup (10512 here), which
 * follows the timer's waking (10510): still the same timer wait.  Thread
 * latency 10900 - 10200 = 700 as before; the wait part starts at the waking.
 */
static void test_wake_start_wakeup(void **state)
{
	struct lat_analyze_opts o;
	struct lat_block *b;
	const struct lat_timer_sample *s;
	size_t i;

	(void)state;
	cyclictest_sleep();
	for (i = 0; i < nev && !(evs[i].type == LAT_EV_WAKING && evs[i].u.wake.pid == 200); i++)
		;
	assert_true(i < nev);
	/* a sched_wakeup of C right after its waking, inside the callback */
	memmove(&evs[i + 2], &evs[i + 1], (nev - i - 1) * sizeof(*evs));
	nev++;
	evs[i + 1] = evs[i];
	evs[i + 1].type = LAT_EV_WAKEUP;
	evs[i + 1].ts_ns = 10512;
	lat_analyze_opts_init(&o);
	o.wake_start = LAT_WAKE_START_WAKEUP;
	b = run_opts(&o);
	s = &tmr(b)->worst[0];
	assert_int_equal(tmr(b)->wakes, 1);
	assert_int_equal(s->latency_ns, 700);
	assert_int_equal(s->wait_start_ns, 10512);
	assert_int_equal(s->wait_ns, 390);
	lat_block_free(b);
}

/*
 * Many timers armed at once, in a table that grows and shifts on deletion:
 * 3000 timers 0x1000, 0x1008, ... (addresses 8 apart, as on a stack), timer i
 * armed for expires 100000 + i, the odd ones canceled, the even ones expiring
 * in reverse order with now = expires + i: irq latency i, max 2998.
 */
static void test_many_timers(void **state)
{
	struct lat_block *b;
	const struct lat_timer_result *t;
	uint64_t ts = 1000;

	(void)state;
	sw(5, 0, 0, "swapper/0", LAT_TS_RUNNING, 600, "M");
	for (int i = 0; i < 3000; i++)
		tstart(ts++, 0, 600, "M", 0x1000 + 8 * (uint64_t)i, "hrtimer_wakeup",
		       100000 + i, 100000 + i);
	for (int i = 1; i < 3000; i += 2)
		tcancel(ts++, 1, 700, "N", 0x1000 + 8 * (uint64_t)i);
	for (int i = 2998; i >= 0; i -= 2) {
		tentry(ts++, 0, 600, "M", 0x1000 + 8 * (uint64_t)i, "hrtimer_wakeup",
		       100000 + 2 * i);
		texit(ts++, 0, 600, "M", 0x1000 + 8 * (uint64_t)i);
	}
	b = run();
	t = tmr(b);
	assert_int_equal(t->measured, 1500);
	assert_int_equal(t->unarmed, 0);
	assert_int_equal(t->cpus[0].irq.min, 0);
	assert_int_equal(t->cpus[0].irq.max, 2998);
	assert_int_equal(t->dropped, 0);
	lat_block_free(b);
}

/* More armed at once than the table holds (8192): the rest are counted, not kept. */
static void test_table_full(void **state)
{
	struct lat_block *b;
	const struct lat_timer_result *t;

	(void)state;
	sw(5, 0, 0, "swapper/0", LAT_TS_RUNNING, 600, "M");
	for (int i = 0; i < 9000; i++)
		tstart(1000 + (uint64_t)i, 0, 600, "M", 0x1000 + 8 * (uint64_t)i, "f", 1, 1);
	b = run();
	t = tmr(b);
	assert_int_equal(t->starts, 9000);
	assert_int_equal(t->dropped, 9000 - 8192);
	lat_block_free(b);
}

/*
 * A CPU whose events are incomplete (docs/wakeup.md, "Trace health"): CPU1's
 * exits from idle are never recorded; Y (50) shows up running after each of
 * its sleeps with no switch (5 times, at 1100 + 1000 k).  C (200) sleeps there
 * on its timer (expires 9000); the callback runs at 20000 with now 9030 (irq
 * 30, expiry 19970) and C runs at 20100: 130.  Its wait is of low trust: in
 * the statistics, not its worst sample (none is shown), unless
 * --include-untrusted.
 */
static void test_low_trust(void **state)
{
	struct lat_analyze_opts o;
	struct lat_block *b;
	const struct lat_timer_result *t;

	(void)state;
	sw(5, 1, 0, "swapper/1", LAT_TS_RUNNING, 50, "Y");
	for (uint64_t k = 0; k < 5; k++) {
		sw(1000 + 1000 * k, 1, 50, "Y", LAT_TS_SLEEPING, 0, "swapper/1");
		wake(1100 + 1000 * k, 1, 50, "Y", LAT_EV_WAKING, 60, "Z", 0);
	}
	sw(7000, 1, 50, "Y", LAT_TS_SLEEPING, 200, "C");
	tstart(7100, 1, 200, "C", 0xa0, "hrtimer_wakeup", 9000, 9000);
	sw(7200, 1, 200, "C", LAT_TS_SLEEPING, 0, "swapper/1");
	tentry(20000, 1, 0, "swapper/1", 0xa0, "hrtimer_wakeup", 9030);
	hwake(20010, 1, 0, "swapper/1", 200, "C");
	texit(20020, 1, 0, "swapper/1", 0xa0);
	sw(20100, 1, 0, "swapper/1", LAT_TS_SLEEPING, 200, "C");
	b = run();
	assert_int_not_equal(((const struct lat_wakeup_result *)b->analysis)->health[0].incomplete,
			     LAT_HEALTH_OK);
	t = tmr(b);
	assert_int_equal(t->wakes, 1);
	assert_int_equal(t->nthreads, 1);
	assert_int_equal(t->threads[0].lat.max, 130);
	assert_int_equal(t->threads[0].low_trust, 1);
	assert_int_equal(t->nworst, 0);
	lat_block_free(b);
	lat_analyze_opts_init(&o);
	o.include_untrusted = 1;
	b = run_opts(&o);
	t = tmr(b);
	assert_int_equal(t->nworst, 1);
	assert_int_equal(t->worst[0].latency_ns, 130);
	assert_int_equal(t->worst[0].low_trust, 1);
	lat_block_free(b);
}

/*
 * More woken threads than rows (256): 300 sleepers, each woken once by its
 * own hrtimer_wakeup timer on CPU0 while arm (1) runs; none runs before the
 * trace ends.  The first 256 get a row (their waits never end: unmatched), the
 * other 44 wakes are counted as dropped.
 */
static void test_threads_full(void **state)
{
	struct lat_block *b;
	const struct lat_timer_result *t;
	uint64_t ts = 1000;

	(void)state;
	sw(5, 0, 0, "swapper/0", LAT_TS_RUNNING, 1, "arm");
	for (int i = 0; i < 300; i++) {
		uint64_t ptr = 0x1000 + 8 * (uint64_t)i;

		tstart(ts, 0, 1, "arm", ptr, "hrtimer_wakeup", (int64_t)ts, (int64_t)ts);
		tentry(ts + 10, 0, 1, "arm", ptr, "hrtimer_wakeup", (int64_t)ts + 5);
		hwake(ts + 11, 0, 1, "arm", 1000 + i, "sleeper");
		texit(ts + 12, 0, 1, "arm", ptr);
		ts += 100;
	}
	b = run();
	t = tmr(b);
	assert_int_equal(t->measured, 300);
	assert_int_equal(t->wakes, 0);
	assert_int_equal(t->wakes_dropped, 300 - LAT_TIMER_THREADS_MAX);
	assert_int_equal(t->unmatched, LAT_TIMER_THREADS_MAX);
	assert_int_equal(t->nthreads, 0);	/* rows without a sample are not shown */
	lat_block_free(b);
}

/*
 * "Timer due" for the stall detector (wk_timer_due()), on the consumer alone.
 * CPU0: C (200) arms 0xa0 (hrtimer_wakeup) for 5000 and the tick 0xb0 for
 * 9000, in the timers' clock; 0xc0, armed for 3000, runs at 8100 with now 3100:
 * the trace clock is 8100 - 3100 = 5000 ahead, so 0xa0 is due at 10000 and 0xb0
 * at 14000 in the trace clock.  Before that entry the difference is unknown:
 * nothing is due.  A CLOCK_REALTIME callback (now ~1.7e18, 2024) leaves the
 * difference as it was.  After lost events no timer armed before is trusted.
 */
static void test_timer_due(void **state)
{
	struct lat_wakeup_result r = { 0 };
	struct lat_arena arena = { 0 };
	struct wk_hcpu hc;
	struct wk_timer_cpu cpu0 = { 0 };
	struct wk_timers s;
	struct wk_timer_due d;
	int oom = 0;
	const int64_t rt = 1700000000000000000ll;

	(void)state;
	memset(&hc, 0, sizeof(hc));
	wk_timers_init(&s, &r, &arena, &oom, NULL);
	tstart(1000, 0, 200, "C", 0xa0, "hrtimer_wakeup", 5000, 5000);
	tstart(1100, 0, 200, "C", 0xb0, "tick_nohz_handler", 9000, 9000);
	tstart(1200, 0, 200, "C", 0xc0, "it_real_fn", 3000, 3000);
	tstart(1300, 0, 200, "C", 0xd0, "posix_timer_fn", rt + 900000, rt + 900000);
	for (size_t i = 0; i < nev; i++)
		wk_timer_event(&s, &cpu0, &hc, 0, &evs[i]);
	assert_int_equal(wk_timer_due(&s, 0, 0, 1000000, &d), 0);	/* no clock yet */
	tentry(8100, 0, 70, "hog", 0xc0, "it_real_fn", 3100);
	tentry(8200, 0, 70, "hog", 0xd0, "posix_timer_fn", rt + 900100);	/* REALTIME */
	wk_timer_event(&s, &cpu0, &hc, 0, &evs[nev - 2]);
	wk_timer_event(&s, &cpu0, &hc, 0, &evs[nev - 1]);
	assert_int_equal(s.cpus[0]->clk_off, 5000);
	assert_int_equal(wk_timer_due(&s, 0, 8100, 20000, &d), 1);
	assert_int_equal(d.due_ns, 10000);
	assert_int_equal(d.hrtimer, 0xa0);
	assert_int_equal(d.pid, 200);
	assert_string_equal(d.function, "hrtimer_wakeup");
	assert_string_equal(d.comm, "C");
	assert_int_equal(wk_timer_due(&s, 0, 10000, 20000, &d), 1);	/* after 0xa0's */
	assert_int_equal(d.due_ns, 14000);
	assert_string_equal(d.function, "tick_nohz_handler");
	assert_int_equal(wk_timer_due(&s, 0, 8100, 9999, &d), 0);
	assert_int_equal(wk_timer_due(&s, 1, 0, 20000, &d), 0);	/* nothing on CPU1 */
	add(9000, 0, 70, "hog", LAT_EV_LOST);
	wk_timer_event(&s, &cpu0, &hc, 0, &evs[nev - 1]);
	assert_int_equal(wk_timer_due(&s, 0, 8100, 20000, &d), 0);
	assert_int_equal(oom, 0);
	wk_timers_release(&s);
	lat_timer_result_free(r.timers);
	lat_arena_release(&arena);
}

/* No hrtimer event: no timer section at all. */
static void test_no_timers(void **state)
{
	struct lat_block *b;

	(void)state;
	sw(5, 0, 0, "swapper/0", LAT_TS_RUNNING, 200, "C");
	sw(10, 0, 200, "C", LAT_TS_SLEEPING, 0, "swapper/0");
	b = run();
	assert_null(tmr(b));
	lat_block_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_irq_and_thread_latency, reset),
		cmocka_unit_test_setup(test_text_and_verdict, reset),
		cmocka_unit_test_setup(test_early_unarmed_lost, reset),
		cmocka_unit_test_setup(test_cancel, reset),
		cmocka_unit_test_setup(test_running, reset),
		cmocka_unit_test_setup(test_wake_start_wakeup, reset),
		cmocka_unit_test_setup(test_many_timers, reset),
		cmocka_unit_test_setup(test_table_full, reset),
		cmocka_unit_test_setup(test_low_trust, reset),
		cmocka_unit_test_setup(test_threads_full, reset),
		cmocka_unit_test_setup(test_vector_begins_irq, reset),
		cmocka_unit_test_setup(test_timer_due, reset),
		cmocka_unit_test_setup(test_no_timers, reset),
	};

	return cmocka_run_group_tests(tests, NULL, release_events);
}
