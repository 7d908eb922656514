// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Wakeup analysis over hand-built event sequences.  Every expected number is
 * the difference of two timestamps written in the test itself (noted beside).
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
#include "wakeup_test_util.h"

static void irq(uint64_t ts, int cpu, int cur, const char *cc, enum lat_ev_type type, int nr,
		const char *name)
{
	struct lat_event *e = add(ts, cpu, cur, cc, type);

	e->u.irq.irq = nr;
	e->u.irq.name = name;
}

static const struct lat_wake_task *task(const struct lat_block *b, int pid)
{
	const struct lat_wakeup_result *r = b->analysis;

	for (size_t i = 0; i < r->ntasks; i++)
		if (r->tasks[i].pid == pid)
			return &r->tasks[i];
	return NULL;
}

/* A sleeps on CPU0, B on CPU1 wakes it at 5000, CPU0 runs it at 8000: 3000 ns (2500 from wakeup). */
static void basic_trace(void)
{
	sw(1000, 0, 100, "A", LAT_TS_SLEEPING, 0, "swapper/0");
	sw(1200, 1, 0, "swapper/1", LAT_TS_RUNNING, 200, "B");
	wake(5000, 1, 200, "B", LAT_EV_WAKING, 100, "A", 0);
	wake(5500, 0, 0, "swapper/0", LAT_EV_WAKEUP, 100, "A", 0);
	sw(8000, 0, 0, "swapper/0", LAT_TS_RUNNING, 100, "A");
}

static void test_basic_waking(void **state)
{
	struct lat_block *b;
	const struct lat_wakeup_result *r;
	const struct lat_wake_case *c;

	(void)state;
	basic_trace();
	b = run();
	r = b->analysis;
	assert_int_equal(r->waits, 1);
	assert_non_null(task(b, 100));
	assert_int_equal(task(b, 100)->wake.n, 1);
	assert_int_equal(task(b, 100)->wake.max, 3000);
	assert_int_equal(task(b, 100)->wake.p99, 3000);
	assert_int_equal(r->nworst, 1);
	c = &r->worst[0];
	assert_int_equal(c->latency_ns, 3000);
	assert_int_equal(c->start_ns, 5000);
	assert_int_equal(c->end_ns, 8000);
	assert_int_equal(c->cpu, 0);
	assert_int_equal(c->waker.pid, 200);
	assert_int_equal(c->waker.cpu, 1);
	assert_int_equal(c->waker.ctx, LAT_WAKE_CTX_TASK);
	assert_string_equal(c->waker.comm, "B");
	/* CPU0 was idle from 1000 to 8000: the whole wait */
	assert_int_equal(c->non_cpu, 1);
	assert_int_equal(c->on_cpu[0].pid, 0);
	assert_int_equal(c->on_cpu[0].ns, 3000);
	assert_int_equal(c->unaccounted_ns, 0);
	/* per CPU: the wait is CPU0's */
	for (size_t i = 0; i < r->ncpus; i++)
		if (r->cpus[i].cpu == 0)
			assert_int_equal(r->cpus[i].wake.n, 1);
	lat_block_free(b);
}

/*
 * An event earlier than one already analyzed (a corrupt timestamp) is skipped
 * and counted: the switch-in "at 100" after 8000 would end A's wait at a
 * negative latency, or start a 7.9 us one; A's wait stays 3000 ns.
 */
static void test_time_backwards(void **state)
{
	struct lat_block *b;
	const struct lat_wakeup_result *r;
	int found = 0;

	(void)state;
	sw(1000, 0, 100, "A", LAT_TS_SLEEPING, 0, "swapper/0");
	sw(1200, 1, 0, "swapper/1", LAT_TS_RUNNING, 200, "B");
	wake(5000, 1, 200, "B", LAT_EV_WAKING, 100, "A", 0);
	sw(8000, 0, 0, "swapper/0", LAT_TS_RUNNING, 100, "A");
	sw(100, 1, 200, "B", LAT_TS_SLEEPING, 300, "C");	/* back in time */
	wake(8100, 0, 100, "A", LAT_EV_WAKING, 200, "B", 1);
	sw(9000, 1, 200, "B", LAT_TS_SLEEPING, 0, "swapper/1");
	b = run();
	r = b->analysis;
	assert_int_equal(r->backwards, 1);
	assert_int_equal(r->first_back_ns, 100);
	assert_int_equal(r->first_back_from_ns, 8000);
	assert_int_equal(r->first_back_cpu, 1);
	assert_int_equal(r->nevents, 6);
	assert_int_equal(r->waits, 1);
	assert_int_equal(task(b, 100)->wake.max, 3000);
	for (size_t i = 0; i < b->nfindings; i++)
		if (!strcmp(b->findings[i].kind, "time-backwards")) {
			found = 1;
			assert_non_null(strstr(b->findings[i].message, "1 event earlier than one "
					"already analyzed (corrupt timestamps) skipped; the first on "
					"CPU1 at 0.000000100, after 0.000008000"));
		}
	assert_true(found);
	lat_block_free(b);
}

static char *report(struct lat_block *b, int json);

/*
 * T is woken at 1000 onto CPU1, where hog runs; the idle CPU0 pulls it at 4000
 * and runs it at 4100: a 3100 ns wait on CPU0, all idle there; the 3000 ns it
 * sat queued on CPU1 (1000..4000) were hog's.
 */
static void test_queued_elsewhere(void **state)
{
	struct lat_block *b;
	const struct lat_wakeup_result *r;
	const struct lat_wake_case *c;
	struct lat_event *e;
	char *txt;

	(void)state;
	sw(100, 0, 100, "T", LAT_TS_SLEEPING, 0, "swapper/0");
	sw(100, 1, 0, "swapper/1", LAT_TS_RUNNING, 500, "hog");
	wake(1000, 1, 500, "hog", LAT_EV_WAKING, 100, "T", 1);
	e = add(4000, 0, 0, "swapper/0", LAT_EV_MIGRATE);
	e->u.migrate.pid = 100;
	e->u.migrate.orig_cpu = 1;
	e->u.migrate.dest_cpu = 0;
	snprintf(e->u.migrate.comm, LAT_COMM_LEN, "T");
	sw(4100, 0, 0, "swapper/0", LAT_TS_RUNNING, 100, "T");
	b = run();
	r = b->analysis;
	assert_int_equal(r->nworst, 1);
	c = &r->worst[0];
	assert_int_equal(c->latency_ns, 3100);
	assert_int_equal(c->cpu, 0);
	assert_int_equal(c->non_cpu, 1);
	assert_int_equal(c->on_cpu[0].pid, 0);
	assert_int_equal(c->queued_cpu, 1);
	assert_int_equal(c->queued_until_ns, 4000);
	assert_int_equal(c->nqueued_on, 1);
	assert_int_equal(c->queued_on[0].pid, 500);
	assert_int_equal(c->queued_on[0].ns, 3000);
	assert_int_equal(c->queued_other_tasks, 0);
	txt = report(b, 0);
	assert_non_null(strstr(txt, "queued first on CPU1 for 3 us (migrated at 0.000004000): "
				    "hog/500 ran 3 us (100%) at SCHED_OTHER nice 0;"));
	free(txt);
	txt = report(b, 1);
	assert_non_null(strstr(txt, "\"queued\": {"));
	assert_non_null(strstr(txt, "\"until_ns\": 4000"));
	free(txt);
	lat_block_free(b);
}

static void test_start_at_wakeup(void **state)
{
	struct lat_analyze_opts o;
	struct lat_block *b;
	const struct lat_wakeup_result *r;

	(void)state;
	basic_trace();
	lat_analyze_opts_init(&o);
	o.wake_start = LAT_WAKE_START_WAKEUP;
	b = run_opts(&o);
	r = b->analysis;
	assert_int_equal(r->nworst, 1);
	assert_int_equal(r->worst[0].latency_ns, 2500);	/* 8000 - 5500 */
	/* the waker still comes from the waking */
	assert_int_equal(r->worst[0].waker.pid, 200);
	lat_block_free(b);
}

/* A waking of a task still on a CPU starts nothing; the next real sleep does. */
static void test_self_wake(void **state)
{
	struct lat_block *b;
	const struct lat_wakeup_result *r;

	(void)state;
	sw(100, 0, 0, "swapper/0", LAT_TS_RUNNING, 100, "A");
	wake(200, 0, 100, "A", LAT_EV_WAKING, 100, "A", 0);	/* woke itself */
	wake(210, 0, 100, "A", LAT_EV_WAKEUP, 100, "A", 0);
	sw(250, 1, 0, "swapper/1", LAT_TS_RUNNING, 200, "B");
	wake(260, 1, 200, "B", LAT_EV_WAKING, 100, "A", 0);	/* A is on CPU0 */
	sw(400, 0, 100, "A", LAT_TS_SLEEPING, 0, "swapper/0");
	wake(500, 1, 200, "B", LAT_EV_WAKING, 100, "A", 0);
	sw(700, 0, 0, "swapper/0", LAT_TS_RUNNING, 100, "A");	/* 700 - 500 */
	b = run();
	r = b->analysis;
	assert_int_equal(r->self_wakes, 2);
	assert_int_equal(r->switch_breaks, 0);
	assert_int_equal(task(b, 100)->wake.n, 1);
	assert_int_equal(task(b, 100)->wake.max, 200);
	lat_block_free(b);
}

/*
 * B on CPU1 wakes A at 100 while A is still inside schedule() on CPU0; A blocks
 * anyway (D at 110) and the kernel completes the wakeup at 120: the wait runs
 * from that sched_wakeup to the switch-in at 500.
 */
static void test_wake_races_schedule(void **state)
{
	struct lat_block *b;
	const struct lat_wakeup_result *r;

	(void)state;
	sw(10, 0, 0, "swapper/0", LAT_TS_RUNNING, 100, "A");
	sw(20, 1, 0, "swapper/1", LAT_TS_RUNNING, 200, "B");
	wake(100, 1, 200, "B", LAT_EV_WAKING, 100, "A", 0);
	sw(110, 0, 100, "A", LAT_TS_DISK, 0, "swapper/0");
	wake(120, 1, 200, "B", LAT_EV_WAKEUP, 100, "A", 0);
	sw(500, 0, 0, "swapper/0", LAT_TS_RUNNING, 100, "A");
	b = run();
	r = b->analysis;
	assert_int_equal(r->self_wakes, 1);
	assert_int_equal(task(b, 100)->wake.n, 1);
	assert_int_equal(task(b, 100)->wake.max, 380);
	assert_int_equal(r->worst[0].waker.pid, 200);
	assert_int_equal(r->worst[0].waker.from_wakeup, 1);
	lat_block_free(b);
}

/* A task never seen running gets a waking, then is switched out sleeping: canceled. */
static void test_sleep_cancels(void **state)
{
	struct lat_block *b;
	const struct lat_wakeup_result *r;

	(void)state;
	sw(50, 0, 0, "swapper/0", LAT_TS_RUNNING, 200, "B");
	wake(100, 0, 200, "B", LAT_EV_WAKING, 300, "C", 1);
	sw(200, 1, 300, "C", LAT_TS_SLEEPING, 0, "swapper/1");
	sw(900, 1, 0, "swapper/1", LAT_TS_RUNNING, 300, "C");	/* no waking since: no wait */
	b = run();
	r = b->analysis;
	assert_int_equal(r->canceled, 1);
	assert_int_equal(r->waits, 0);
	assert_int_equal(r->switch_breaks, 0);
	assert_null(task(b, 300));
	lat_block_free(b);
}

/* CPU0 runs B after 10, yet the switch at 20 switches out C: a switch went missing. */
static void test_switch_break(void **state)
{
	struct lat_block *b;
	int found = 0;

	(void)state;
	sw(10, 0, 100, "A", LAT_TS_SLEEPING, 200, "B");
	sw(20, 0, 300, "C", LAT_TS_SLEEPING, 100, "A");
	/* B's switch-out was lost: it is no longer taken as running, so this waking counts */
	wake(30, 0, 100, "A", LAT_EV_WAKING, 200, "B", 1);
	sw(90, 1, 0, "swapper/1", LAT_TS_RUNNING, 200, "B");
	b = run();
	assert_int_equal(((struct lat_wakeup_result *)b->analysis)->switch_breaks, 1);
	assert_int_equal(task(b, 200)->wake.max, 60);
	for (size_t i = 0; i < b->nfindings; i++)
		if (!strcmp(b->findings[i].kind, "missing-events"))
			found = 1;
	assert_true(found);
	lat_block_free(b);
}

/* Switched out in R at 1000, back at 4000: a 3000 ns preemption wait, not a wakeup. */
static void test_preempt_wait(void **state)
{
	struct lat_block *b;
	const struct lat_wake_task *t;

	(void)state;
	sw(100, 0, 0, "swapper/0", LAT_TS_RUNNING, 100, "A");
	sw(1000, 0, 100, "A", LAT_TS_RUNNING, 200, "B");
	/* recorded inside __schedule() after the switch: still A's pid, A is not running */
	add(1001, 0, 100, "A", LAT_EV_OTHER);
	sw(4000, 0, 200, "B", LAT_TS_SLEEPING, 100, "A");
	b = run();
	t = task(b, 100);
	assert_non_null(t);
	assert_int_equal(t->wake.n, 0);
	assert_int_equal(t->preempt.n, 1);
	assert_int_equal(t->preempt.max, 3000);
	assert_int_equal(((struct lat_wakeup_result *)b->analysis)->nworst, 0);
	lat_block_free(b);
}

/* sched_wakeup_new at 100, first run at 600; a plain sched_wakeup (no waking) at 1000, run 1700. */
static void test_new_and_missing_waking(void **state)
{
	struct lat_block *b;
	const struct lat_wakeup_result *r;

	(void)state;
	sw(50, 0, 0, "swapper/0", LAT_TS_RUNNING, 100, "parent");
	wake(100, 0, 100, "parent", LAT_EV_WAKEUP_NEW, 300, "child", 1);
	sw(600, 1, 0, "swapper/1", LAT_TS_RUNNING, 300, "child");
	sw(800, 1, 300, "child", LAT_TS_SLEEPING, 0, "swapper/1");
	wake(1000, 0, 100, "parent", LAT_EV_WAKEUP, 300, "child", 1);
	sw(1700, 1, 0, "swapper/1", LAT_TS_RUNNING, 300, "child");
	b = run();
	r = b->analysis;
	assert_int_equal(task(b, 300)->wake.n, 2);
	assert_int_equal(r->nworst, 2);
	assert_int_equal(r->worst[0].latency_ns, 700);
	assert_int_equal(r->worst[0].kind, LAT_WAIT_WAKEUP);
	assert_int_equal(r->worst[0].waker.from_wakeup, 1);
	assert_int_equal(r->worst[0].waker.pid, 100);
	assert_int_equal(r->worst[1].latency_ns, 500);
	assert_int_equal(r->worst[1].kind, LAT_WAIT_NEW);
	lat_block_free(b);
}

/* Queued on CPU0 at 1000, moved to CPU1 at 1500, runs there at 2000. */
static void test_migration(void **state)
{
	struct lat_block *b;
	const struct lat_wake_case *c;
	struct lat_event *e;

	(void)state;
	sw(10, 0, 0, "swapper/0", LAT_TS_RUNNING, 200, "hog");
	sw(20, 1, 100, "A", LAT_TS_SLEEPING, 0, "swapper/1");
	wake(1000, 0, 200, "hog", LAT_EV_WAKING, 100, "A", 0);
	e = add(1500, 1, 0, "swapper/1", LAT_EV_MIGRATE);
	e->u.migrate.pid = 100;
	e->u.migrate.orig_cpu = 0;
	e->u.migrate.dest_cpu = 1;
	sw(2000, 1, 0, "swapper/1", LAT_TS_RUNNING, 100, "A");
	b = run();
	c = &((struct lat_wakeup_result *)b->analysis)->worst[0];
	assert_int_equal(c->latency_ns, 1000);
	assert_int_equal(c->cpu, 1);
	assert_int_equal(c->queued_cpu, 0);
	assert_int_equal(c->nmigr, 1);
	assert_int_equal(c->migr[0].ts_ns, 1500);
	assert_int_equal(c->migr[0].from_cpu, 0);
	assert_int_equal(c->migr[0].to_cpu, 1);
	lat_block_free(b);
}

/* Woken from irq 24 "eth0" on idle CPU1; a softirq waker on CPU1 for the second. */
static void test_irq_waker(void **state)
{
	struct lat_block *b;
	const struct lat_wakeup_result *r;

	(void)state;
	sw(10, 0, 100, "A", LAT_TS_SLEEPING, 0, "swapper/0");
	sw(11, 1, 300, "C", LAT_TS_SLEEPING, 0, "swapper/1");
	irq(900, 1, 0, "swapper/1", LAT_EV_IRQ_ENTRY, 24, "eth0");
	wake(1000, 1, 0, "swapper/1", LAT_EV_WAKING, 100, "A", 0);
	irq(1100, 1, 0, "swapper/1", LAT_EV_IRQ_EXIT, 24, NULL);
	irq(1200, 1, 0, "swapper/1", LAT_EV_SOFTIRQ_ENTRY, 1, NULL);
	wake(1300, 1, 0, "swapper/1", LAT_EV_WAKING, 300, "C", 1);
	irq(1400, 1, 0, "swapper/1", LAT_EV_SOFTIRQ_EXIT, 1, NULL);
	sw(5000, 0, 0, "swapper/0", LAT_TS_RUNNING, 100, "A");	/* 4000 */
	sw(3300, 1, 0, "swapper/1", LAT_TS_RUNNING, 300, "C");	/* 2000 */
	/* keep timestamps ordered: swap the last two */
	{
		struct lat_event t = evs[nev - 1];

		evs[nev - 1] = evs[nev - 2];
		evs[nev - 2] = t;
	}
	b = run();
	r = b->analysis;
	assert_int_equal(r->nworst, 2);
	assert_int_equal(r->worst[0].pid, 100);
	assert_int_equal(r->worst[0].waker.ctx, LAT_WAKE_CTX_IRQ);
	assert_int_equal(r->worst[0].waker.irq, 24);
	assert_string_equal(r->worst[0].waker.irq_name, "eth0");
	assert_int_equal(r->worst[1].pid, 300);
	assert_int_equal(r->worst[1].waker.ctx, LAT_WAKE_CTX_SOFTIRQ);
	assert_string_equal(r->worst[1].waker.irq_name, "TIMER");
	/* C waited on CPU1 1300..3300 while idle ran; the softirq 1300..1400 is inside */
	assert_int_equal(r->worst[1].nirqs, 1);
	assert_int_equal(r->worst[1].irqs[0].ns, 100);
	lat_block_free(b);
}

/*
 * T3 (30) is woken from the timer irq at 20 and runs at 40 (20 ns); T3 wakes
 * T2 (20) at 100 for CPU1 where hog (50) runs until 400 (300 ns); T2 wakes T1
 * (10) at 500 and runs it at 600 (100 ns).  T1's chain: T2's wait, then T3's.
 */
static void test_chain(void **state)
{
	struct lat_block *b;
	const struct lat_wakeup_result *r;
	const struct lat_wake_case *c = NULL;
	struct lat_analyze_opts o;

	(void)state;
	sw(0, 1, 0, "swapper/1", LAT_TS_RUNNING, 50, "hog");
	sw(5, 0, 30, "T3", LAT_TS_SLEEPING, 0, "swapper/0");
	irq(15, 0, 0, "swapper/0", LAT_EV_IRQ_ENTRY, 0, "timer");
	wake(20, 0, 0, "swapper/0", LAT_EV_WAKING, 30, "T3", 0);
	irq(25, 0, 0, "swapper/0", LAT_EV_IRQ_EXIT, 0, NULL);
	sw(40, 0, 0, "swapper/0", LAT_TS_RUNNING, 30, "T3");
	wake(100, 0, 30, "T3", LAT_EV_WAKING, 20, "T2", 1);
	sw(400, 1, 50, "hog", LAT_TS_RUNNING, 20, "T2");
	wake(500, 1, 20, "T2", LAT_EV_WAKING, 10, "T1", 1);
	sw(600, 1, 20, "T2", LAT_TS_SLEEPING, 10, "T1");
	lat_analyze_opts_init(&o);
	o.task = "T1";
	b = run_opts(&o);
	r = b->analysis;
	assert_int_equal(r->ntasks, 1);
	assert_int_equal(r->nworst, 1);
	c = &r->worst[0];
	assert_int_equal(c->pid, 10);
	assert_int_equal(c->latency_ns, 100);
	assert_int_equal(c->waker.pid, 20);
	assert_int_equal(c->nchain, 2);
	assert_int_equal(c->chain[0].pid, 20);
	assert_int_equal(c->chain[0].latency_ns, 300);
	assert_int_equal(c->chain[0].waker.pid, 30);
	assert_int_equal(c->chain[0].held_by_pid, 50);
	assert_int_equal(c->chain[0].held_ns, 300);
	assert_int_equal(c->chain[1].pid, 30);
	assert_int_equal(c->chain[1].latency_ns, 20);
	assert_int_equal(c->chain[1].waker.ctx, LAT_WAKE_CTX_IRQ);
	/* the held CPU: T2 ran 500..600 of T1's wait on CPU1 */
	assert_int_equal(c->on_cpu[0].pid, 20);
	assert_int_equal(c->on_cpu[0].ns, 100);
	lat_block_free(b);
}

/* A wait across lost events on CPU1 is flagged and not counted. */
static void test_lost_across_wait(void **state)
{
	struct lat_block *b;
	const struct lat_wakeup_result *r;
	struct lat_event *e;
	static const uint64_t ovr[2] = { 0, 70 };

	(void)state;
	sw(10, 1, 100, "A", LAT_TS_SLEEPING, 0, "swapper/1");
	sw(20, 0, 0, "swapper/0", LAT_TS_RUNNING, 200, "B");
	wake(100, 0, 200, "B", LAT_EV_WAKING, 100, "A", 1);
	e = add(200, 1, -1, "", LAT_EV_LOST);
	e->u.lost.count = 50;
	sw(300, 1, 0, "swapper/1", LAT_TS_RUNNING, 100, "A");
	/* a later wait after the gap is trusted: 900 - 600 */
	sw(400, 1, 100, "A", LAT_TS_SLEEPING, 0, "swapper/1");
	wake(600, 0, 200, "B", LAT_EV_WAKING, 100, "A", 1);
	sw(900, 1, 0, "swapper/1", LAT_TS_RUNNING, 100, "A");
	{
		struct lat_block *bb = lat_block_new(NULL, LAT_SCHEMA_EVENTS);
		struct lat_analyze_opts o;
		int found = 0;

		lat_analyze_opts_init(&o);
		bb->events = lat_evarray_new(evs, nev, 2);
		assert_int_equal(lat_evarray_set_overrun(bb->events, ovr, 2), 0);
		assert_int_equal(lat_evarray_set_stop(bb->events, "CPU1 page 3: bad size"), 0);
		assert_int_equal(lat_analyze_block(bb, &o), 0);
		b = bb;
		for (size_t i = 0; i < b->nfindings; i++) {
			if (!strcmp(b->findings[i].kind, "lost-events")) {
				assert_non_null(strstr(b->findings[i].message, "CPU1 lost 50 events "
							"between 0.000000010 and 0.000000200"));
				found |= 1;
			}
			if (!strcmp(b->findings[i].kind, "truncated"))
				found |= 2;
		}
		assert_int_equal(found, 3);
	}
	r = b->analysis;
	assert_int_equal(r->untrusted, 1);
	assert_int_equal(task(b, 100)->untrusted, 1);
	assert_int_equal(task(b, 100)->wake.n, 1);
	assert_int_equal(task(b, 100)->wake.max, 300);
	assert_int_equal(r->ngaps, 1);
	assert_int_equal(r->gaps[0].from_ns, 10);	/* CPU1's last event before the gap */
	assert_int_equal(r->gaps[0].to_ns, 200);
	/* CPU1: 50 in the stream, 70 in the stats: the larger counts */
	assert_int_equal(r->lost_events, 70);
	assert_string_equal(r->stop_reason, "CPU1 page 3: bad size");
	lat_block_free(b);
}

/* Waits of 1..100 us: nearest rank p50 = 50 us, p90 = 90, p99 = 99, p99.9 = 100, avg 50.5. */
static void test_percentiles(void **state)
{
	struct lat_block *b;
	const struct lat_wake_task *t;
	uint64_t ts = 1000;

	(void)state;
	sw(10, 1, 0, "swapper/1", LAT_TS_RUNNING, 200, "B");
	for (int i = 1; i <= 100; i++) {
		sw(ts, 0, 100, "A", LAT_TS_SLEEPING, 0, "swapper/0");
		wake(ts + 10, 1, 200, "B", LAT_EV_WAKING, 100, "A", 0);
		sw(ts + 10 + (uint64_t)i * 1000, 0, 0, "swapper/0", LAT_TS_RUNNING, 100, "A");
		ts += 200000;
	}
	b = run();
	t = task(b, 100);
	assert_int_equal(t->wake.n, 100);
	assert_int_equal(t->wake.max, 100000);
	assert_int_equal(t->wake.min, 1000);
	assert_true(t->wake.avg > 50499.0 && t->wake.avg < 50501.0);
	assert_true(labs((long)(t->wake.p50 - 50000)) <= 500);
	assert_true(labs((long)(t->wake.p90 - 90000)) <= 900);
	assert_true(labs((long)(t->wake.p99 - 99000)) <= 990);
	assert_int_equal(t->wake.p999, 100000);
	assert_int_equal(((struct lat_wakeup_result *)b->analysis)->nworst, 5);
	assert_int_equal(((struct lat_wakeup_result *)b->analysis)->worst[4].latency_ns, 96000);
	lat_block_free(b);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Percentiles against the sorted values themselves: nearest rank (the value
 * at 1-based rank ceil(n * p)), read back within 1/256 (+1 ns of rounding).
 * Sets of 1 to 4000 values, spread over 1 ns .. 1000 s, clustered or not.
 */
static void test_percentiles_exact(void **state)
{
	static const uint32_t pct[] = { 100, 1000, 25000, 50000, 90000, 99000, 99900, 99990,
					100000 };
	static int64_t v[4000];
	uint64_t x = 0x9e3779b97f4a7c15ull;

	(void)state;
	for (int round = 0; round < 60; round++) {
		struct lat_hll h = { 0 };
		size_t n = 1 + (size_t)(round * 67) % LAT_ARRAY_SIZE(v);

		for (size_t i = 0; i < n; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			v[i] = round % 3 == 0 ? (int64_t)(x % 1000) + 50000 :	/* one row or two */
			       (int64_t)((x >> 20) % 1000000000000ull) >> (x % 40);
			assert_int_equal(lat_hll_add(&h, v[i]), 0);
		}
		qsort(v, n, sizeof(v[0]), cmp_i64);
		for (size_t k = 0; k < LAT_ARRAY_SIZE(pct); k++) {
			uint64_t rank = (n * pct[k] + 99999) / 100000;
			int64_t want = v[(rank ? rank : 1) - 1];
			int64_t got = lat_hll_percentile(&h, pct[k]);

			assert_true(llabs(got - want) <= want / 256 + 1);
		}
		lat_hll_release(&h);
	}
}

/* Two histograms merged read back like one that got every value (n, min, max, sum, percentiles). */
static void test_hist_merge(void **state)
{
	static const uint32_t pct[] = { 1000, 50000, 90000, 99000, 99900 };
	uint64_t x = 0x2545f4914f6cdd1dull;

	(void)state;
	for (int round = 0; round < 20; round++) {
		struct lat_hll a = { 0 }, b = { 0 }, all = { 0 };

		for (int i = 0; i < 3000; i++) {
			int64_t v;

			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			v = (int64_t)((x >> 24) % 100000000000ull) >> (x % 30);
			/* round 0: b stays empty; round 1: a does */
			assert_int_equal(lat_hll_add(round == 1 || (round && i % 3 == 0) ? &b : &a, v), 0);
			assert_int_equal(lat_hll_add(&all, v), 0);
		}
		assert_int_equal(lat_hll_merge(&a, &b), 0);
		assert_int_equal(a.n, all.n);
		assert_int_equal(a.min, all.min);
		assert_int_equal(a.max, all.max);
		assert_true(a.sum == all.sum);	/* integers below 2^53: exact */
		for (size_t k = 0; k < LAT_ARRAY_SIZE(pct); k++)
			assert_int_equal(lat_hll_percentile(&a, pct[k]), lat_hll_percentile(&all, pct[k]));
		lat_hll_release(&a);
		lat_hll_release(&b);
		lat_hll_release(&all);
	}
}

/* lat_hll_each() into a small table: each bucket's low edge and count. */
struct bucket_seen {
	int64_t lo[8];
	uint64_t n[8];
	size_t k;
};

static void see_bucket(void *ctx, int64_t lo, int64_t hi, uint64_t n)
{
	struct bucket_seen *b = ctx;

	(void)hi;
	assert_true(b->k < LAT_ARRAY_SIZE(b->lo));
	b->lo[b->k] = lo;
	b->n[b->k++] = n;
}

/*
 * A row's 8-bit counters become 16-bit when the row reaches 255 values, and
 * 32-bit at 65535 (wakeup_hist.c): counts across each change, after it, by
 * bulk adds and by merges, and the saturation at 2^32 - 1 of one bucket.  1000 and 1010 ns
 * share row 3 (512 .. 1023 ns, 4 ns buckets): buckets [1000, 1004) and
 * [1008, 1012), read back as their middles 1001 and 1009; 3000 ns is in row
 * 5's [2992, 3008).
 */
static void test_hist_wide_rows(void **state)
{
	struct lat_hll a = { 0 }, b = { 0 }, c = { 0 };
	struct bucket_seen s = { 0 };

	(void)state;
	for (int i = 0; i < 70000; i++)
		assert_int_equal(lat_hll_add(&a, 1000), 0);
	for (int i = 0; i < 10; i++)
		assert_int_equal(lat_hll_add(&a, 1010), 0);
	assert_int_equal(lat_hll_add(&a, 3000), 0);
	lat_hll_each(&a, see_bucket, &s);
	assert_int_equal(s.k, 3);
	assert_int_equal(s.lo[0], 1000);
	assert_int_equal(s.n[0], 70000);
	assert_int_equal(s.lo[1], 1008);
	assert_int_equal(s.n[1], 10);
	assert_int_equal(s.lo[2], 2992);
	assert_int_equal(s.n[2], 1);
	/* rank 70010 of 70011 is the last 1010; 70011 is 3000 */
	assert_int_equal(lat_hll_percentile(&a, 99998), 1009);
	assert_int_equal(lat_hll_percentile(&a, 100000), 3000);	/* the max */
	assert_int_equal(lat_hll_percentile(&a, 50000), 1001);

	/* narrow b (5 in a row of 3) merged into wide a, then wide a into empty c */
	for (int i = 0; i < 5; i++)
		assert_int_equal(lat_hll_add(&b, 1010), 0);
	assert_int_equal(lat_hll_merge(&a, &b), 0);
	assert_int_equal(lat_hll_merge(&c, &a), 0);
	memset(&s, 0, sizeof(s));
	lat_hll_each(&c, see_bucket, &s);
	assert_int_equal(s.k, 3);
	assert_int_equal(s.n[0], 70000);
	assert_int_equal(s.n[1], 15);
	assert_int_equal(c.n, 70016);

	/* one bulk add past 2^32 - 1 saturates that bucket; its neighbour keeps counting */
	assert_int_equal(lat_hll_bucket_n(&c, 1000, UINT64_C(5000000000)), 0);
	assert_int_equal(lat_hll_bucket_n(&c, 1010, 1), 0);
	memset(&s, 0, sizeof(s));
	lat_hll_each(&c, see_bucket, &s);
	assert_int_equal(s.n[0], UINT32_MAX);
	assert_int_equal(s.n[1], 16);
	lat_hll_release(&a);
	lat_hll_release(&b);
	lat_hll_release(&c);

	/* one value at a time across 255, then bulk adds within 16 bits and across 65535 */
	for (int i = 0; i < 300; i++)
		assert_int_equal(lat_hll_add(&a, 1000), 0);
	assert_int_equal(lat_hll_add(&a, 1010), 0);
	assert_int_equal(lat_hll_bucket_n(&a, 1010, 1000), 0);
	memset(&s, 0, sizeof(s));
	lat_hll_each(&a, see_bucket, &s);
	assert_int_equal(s.k, 2);
	assert_int_equal(s.n[0], 300);
	assert_int_equal(s.n[1], 1001);
	assert_int_equal(lat_hll_bucket_n(&a, 1000, 65000), 0);
	memset(&s, 0, sizeof(s));
	lat_hll_each(&a, see_bucket, &s);
	assert_int_equal(s.n[0], 65300);
	assert_int_equal(s.n[1], 1001);
	lat_hll_release(&a);
}

/* Any single value read back from among others stays within 1%. */
static void test_hist_error(void **state)
{
	uint64_t x = 88172645463325252ull;

	(void)state;
	for (int i = 0; i < 20000; i++) {
		struct lat_hll h = { 0 };
		int64_t v, got;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v = (int64_t)(x % 1000000000000ull) >> (x % 40);
		assert_int_equal(lat_hll_add(&h, 0), 0);
		assert_int_equal(lat_hll_add(&h, v), 0);
		assert_int_equal(lat_hll_add(&h, INT64_C(1) << 50), 0);
		got = lat_hll_percentile(&h, 50000);	/* rank 2 of 3 */
		assert_true(llabs(got - v) * 100 <= v);
		lat_hll_release(&h);
	}
}

static void stack_ev(uint64_t ts, int cpu, int cur, const char *cc, const uint64_t *ips,
		     const char *const *syms, uint32_t depth)
{
	struct lat_event *e = add(ts, cpu, cur, cc, LAT_EV_STACK);

	e->u.stack.ips = ips;
	e->u.stack.syms = syms;
	e->u.stack.depth = depth;
}

/*
 * A sleeps in do_nanosleep from 1000 to 3000 (2000 ns off-CPU).  B is woken at
 * 3500 while A holds CPU0 and is preempted at 4700 inside my_loop: 1200 ns of
 * B's runnable time blamed on that stack.
 */
static void test_stack_blame(void **state)
{
	static const uint64_t ips1[] = { 1, 2, 3, 4, UINT64_MAX };
	static const char *const syms1[] = { "__schedule", "schedule", "do_nanosleep",
					     "hrtimer_nanosleep", NULL };
	static const uint64_t ips2[] = { 1, 7, 8 };
	static const char *const syms2[] = { "__schedule", "preempt_schedule_irq", "my_loop" };
	struct lat_block *b;
	const struct lat_wakeup_result *r;

	(void)state;
	sw(10, 0, 0, "swapper/0", LAT_TS_RUNNING, 100, "A");
	sw(20, 1, 0, "swapper/1", LAT_TS_RUNNING, 200, "B");
	sw(1000, 0, 100, "A", LAT_TS_SLEEPING, 0, "swapper/0");
	stack_ev(1000, 0, 100, "A", ips1, syms1, 5);
	wake(2900, 1, 200, "B", LAT_EV_WAKING, 100, "A", 0);
	sw(3000, 0, 0, "swapper/0", LAT_TS_RUNNING, 100, "A");
	sw(3100, 1, 200, "B", LAT_TS_SLEEPING, 0, "swapper/1");
	wake(3500, 0, 100, "A", LAT_EV_WAKING, 200, "B", 0);
	sw(4700, 0, 100, "A", LAT_TS_RUNNING, 200, "B");
	stack_ev(4700, 0, 100, "A", ips2, syms2, 3);
	sw(5000, 0, 200, "B", LAT_TS_SLEEPING, 100, "A");
	b = run();
	r = b->analysis;
	assert_int_equal(r->has_stacks, 1);
	assert_int_equal(r->nstacks, 2);
	assert_int_equal(r->noff_stacks, 1);
	assert_int_equal(r->off_stacks[0].ns, 2000);
	assert_string_equal(r->off_stacks[0].name,
			    "hrtimer_nanosleep;do_nanosleep;schedule;__schedule");
	assert_int_equal(r->noff_funcs, 1);
	assert_string_equal(r->off_funcs[0].name, "do_nanosleep");
	assert_int_equal(r->nrun_funcs, 1);
	assert_string_equal(r->run_funcs[0].name, "my_loop");
	assert_int_equal(r->run_funcs[0].ns, 1200);
	/* B's case names the stack A held the CPU with */
	assert_int_equal(r->worst[0].pid, 200);
	assert_int_equal(r->worst[0].on_cpu[0].pid, 100);
	assert_int_equal(r->worst[0].on_cpu[0].stack, r->run_stacks[0].stack);
	lat_block_free(b);
}

/* Text traces give names without addresses: stacks differ by name, not by ips. */
static void test_stack_by_name(void **state)
{
	static const uint64_t zero[3] = { 0, 0, 0 };
	static const char *const s1[] = { "__schedule", "schedule", "pipe_read" };
	static const char *const s2[] = { "__schedule", "schedule", "do_nanosleep" };
	struct lat_block *b;
	const struct lat_wakeup_result *r;

	(void)state;
	sw(10, 0, 100, "A", LAT_TS_SLEEPING, 200, "B");
	stack_ev(11, 0, 100, "A", zero, s1, 3);
	sw(20, 0, 200, "B", LAT_TS_SLEEPING, 0, "swapper/0");
	stack_ev(21, 0, 200, "B", zero, s2, 3);
	sw(100, 0, 0, "swapper/0", LAT_TS_RUNNING, 100, "A");	/* A slept 90 in pipe_read */
	sw(150, 0, 100, "A", LAT_TS_SLEEPING, 200, "B");	/* B slept 130 in do_nanosleep */
	b = run();
	r = b->analysis;
	assert_int_equal(r->nstacks, 2);
	assert_int_equal(r->noff_funcs, 2);
	assert_string_equal(r->off_funcs[0].name, "do_nanosleep");
	assert_int_equal(r->off_funcs[0].ns, 130);
	assert_string_equal(r->off_funcs[1].name, "pipe_read");
	assert_int_equal(r->off_funcs[1].ns, 90);
	lat_block_free(b);
}

/*
 * Timelines only for the cases asked (--timelines, 1 for `latscope render`): a
 * case ranked past them when its window closes never gets one.  By hand: A
 * waits 1000..401000 (400 us, window to 601000, closed at 700000 while it is
 * the worst), then 700000..800000 (100 us, window to 900000, closed at 1000000
 * as the second worst).
 */
static void test_timelines_asked(void **state)
{
	struct lat_analyze_opts o;
	struct lat_timeline *tl = NULL;

	(void)state;
	for (int asked = 0; asked <= 2; asked++) {
		struct lat_block *b;
		const struct lat_wakeup_result *r;

		nev = 0;
		sw(10, 0, 100, "A", LAT_TS_SLEEPING, 300, "kworker/0:2");
		sw(20, 1, 0, "swapper/1", LAT_TS_RUNNING, 200, "B");
		wake(1000, 1, 200, "B", LAT_EV_WAKING, 100, "A", 0);
		sw(401000, 0, 300, "kworker/0:2", LAT_TS_RUNNING, 100, "A");
		sw(402000, 0, 100, "A", LAT_TS_SLEEPING, 300, "kworker/0:2");
		wake(700000, 1, 200, "B", LAT_EV_WAKING, 100, "A", 0);
		sw(800000, 0, 300, "kworker/0:2", LAT_TS_RUNNING, 100, "A");
		sw(1000000, 1, 200, "B", LAT_TS_SLEEPING, 0, "swapper/1");
		lat_analyze_opts_init(&o);
		assert_int_equal(o.timelines, 0);
		o.timelines = asked;
		b = run_opts(&o);
		r = b->analysis;
		assert_int_equal(r->nworst, 2);
		assert_int_equal(r->worst[0].latency_ns, 400000);
		assert_int_equal(r->worst[1].latency_ns, 100000);
		/* the explanation is there either way */
		assert_int_equal(r->worst[1].on_cpu[0].pid, 300);
		assert_int_equal(r->worst[1].on_cpu[0].ns, 100000);
		for (size_t k = 0; k < 2; k++) {
			int want = (int)k < asked ? 0 : -LAT_EEMPTY;

			assert_int_equal(lat_wakeup_timeline(b, k, &tl), want);
			if (!want) {
				assert_int_equal(tl->brackets[0].end_ns, k ? 800000 : 401000);
				lat_timeline_free(tl);
				tl = NULL;
			}
		}
		lat_block_free(b);
	}
}

/* Markers inside a wait: a latscope probe and cyclictest's threshold line. */
static void test_markers_and_timeline(void **state)
{
	struct lat_block *b;
	const struct lat_wakeup_result *r;
	struct lat_timeline *tl = NULL;
	struct lat_event *e;
	static const char m1[] = "latscope: probe=timer cpu=0 lat_ns=73210 seq=7";
	static const char m2[] = "hit latency threshold (123 > 100)";

	(void)state;
	sw(10, 0, 100, "A", LAT_TS_SLEEPING, 300, "kworker/0:2");
	sw(20, 1, 0, "swapper/1", LAT_TS_RUNNING, 200, "B");
	wake(1000, 1, 200, "B", LAT_EV_WAKING, 100, "A", 0);
	e = add(1500, 1, 200, "B", LAT_EV_MARKER);
	e->u.marker.text = m1;
	e->u.marker.len = strlen(m1);
	e = add(1600, 0, 300, "kworker/0:2", LAT_EV_MARKER);
	e->u.marker.text = m2;
	e->u.marker.len = strlen(m2);
	sw(5000, 0, 300, "kworker/0:2", LAT_TS_RUNNING, 100, "A");	/* 4000 */
	sw(200000, 1, 200, "B", LAT_TS_SLEEPING, 0, "swapper/1");
	b = run();
	r = b->analysis;
	assert_int_equal(r->worst[0].nmarkers, 2);
	assert_int_equal(r->worst[0].markers[0].lat_ns, 73210);
	assert_int_equal(r->worst[0].markers[1].lat_ns, 123000);
	assert_int_equal(r->worst[0].on_cpu[0].pid, 300);
	assert_int_equal(r->worst[0].on_cpu[0].ns, 4000);

	assert_int_equal(lat_wakeup_timeline(b, 0, &tl), 0);
	assert_non_null(tl);
	/* window: 100 us margins around 1000..5000, clipped at 0 */
	assert_int_equal(tl->start_ns, 0);
	assert_int_equal(tl->end_ns, 105000);
	assert_true(tl->nbrackets >= 1);
	assert_int_equal(tl->brackets[0].start_ns, 1000);
	assert_int_equal(tl->brackets[0].end_ns, 5000);
	assert_int_equal(tl->brackets[0].held_by_pid, 300);
	assert_int_equal(tl->nedges, 1);
	assert_int_equal(tl->edges[0].from_cpu, 1);
	assert_int_equal(tl->edges[0].to_cpu, 0);
	/* CPU0: kworker 10..5000, A 5000..end; CPU1: B 20..105000 (cut at the window) */
	assert_int_equal(tl->nslices, 3);
	assert_int_equal(tl->slices[0].cpu, 0);
	assert_int_equal(tl->slices[0].pid, 300);
	assert_int_equal(tl->slices[0].start_ns, 10);
	assert_int_equal(tl->slices[1].pid, 100);
	assert_int_equal(tl->slices[2].cpu, 1);
	assert_int_equal(tl->slices[2].end_ns, 105000);
	assert_int_equal(tl->nmarks, 2);
	lat_timeline_free(tl);
	assert_int_equal(lat_wakeup_timeline(b, 1, &tl), -LAT_EEMPTY);
	lat_block_free(b);
}

static void test_sort_and_filter(void **state)
{
	struct lat_analyze_opts o;
	struct lat_block *b;
	const struct lat_wakeup_result *r;

	(void)state;
	sw(1, 1, 0, "swapper/1", LAT_TS_RUNNING, 900, "W");
	sw(2, 0, 100, "A", LAT_TS_SLEEPING, 0, "swapper/0");
	wake(10, 1, 900, "W", LAT_EV_WAKING, 100, "A", 0);
	sw(50, 0, 0, "swapper/0", LAT_TS_RUNNING, 100, "A");	/* A: 40 */
	sw(60, 0, 100, "A", LAT_TS_SLEEPING, 0, "swapper/0");
	sw(61, 0, 0, "swapper/0", LAT_TS_RUNNING, 50, "Z");
	sw(62, 0, 50, "Z", LAT_TS_SLEEPING, 0, "swapper/0");
	wake(100, 1, 900, "W", LAT_EV_WAKING, 50, "Z", 0);
	sw(400, 0, 0, "swapper/0", LAT_TS_RUNNING, 50, "Z");	/* Z: 300 */
	lat_analyze_opts_init(&o);
	b = run_opts(&o);
	r = b->analysis;
	assert_int_equal(r->ntasks, 2);
	assert_int_equal(r->tasks[0].pid, 50);	/* by max */
	lat_block_free(b);
	o.sort = "pid";
	b = run_opts(&o);
	r = b->analysis;
	assert_int_equal(r->tasks[0].pid, 50);
	lat_block_free(b);
	o.sort = "comm";
	b = run_opts(&o);
	r = b->analysis;
	assert_string_equal(r->tasks[0].comm, "A");
	lat_block_free(b);
	o.task = "100";
	b = run_opts(&o);
	r = b->analysis;
	assert_int_equal(r->ntasks, 1);
	assert_int_equal(r->tasks[0].pid, 100);
	assert_int_equal(r->nworst, 1);
	assert_int_equal(r->worst[0].latency_ns, 40);
	lat_block_free(b);
}

static char *report(struct lat_block *b, int json)
{
	struct lat_analyze_opts o;
	struct lat_report_input in = { .path = "mem", .format = "events", .blocks = &b,
				       .nblocks = 1 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	lat_analyze_opts_init(&o);
	if (json)
		lat_report_json(f, &in, 1, &o);
	else
		lat_report_text(f, &in, 1, &o);
	fclose(f);
	return buf;
}

/*
 * More tasks held the CPU than a case names, the longest of them first in
 * time (found last when the slices are walked back from the wait's end):
 *   CPU1: W (300) sleeps at 500, T wakes it at 600; 400 runs 500..1600 (1000
 *         ns of W's wait), then 401..409 100 ns each; W runs at 2500 and wakes
 *         T at 2600.
 *   CPU0: T (100) sleeps at 1000; 200 runs 1000..3600 (1000 ns of T's wait,
 *         2600..3600), then 201..219, 201+k-1 running 10k ns; T runs at
 *         3600 + 10 * (1 + ... + 19) = 5500: T waited 2900 ns.  irq 30 runs
 *         2700..2900 (200 ns), irqs 31..39 10 ns each, at 3000 + 20 j.
 * T's case names 200 (1000 ns) and 219..205 (190..50 ns): 16; the other 4
 * (201..204) ran 10 + 20 + 30 + 40 = 100 ns.  irqs: 30 first, then 39..33;
 * 31 and 32 are the other 2 (20 ns).  10 markers and 10 migrations of T in
 * its wait: 8 of each listed, 2 counted.  W's wait (600..2500): held by 400 for
 * 1000 ns, not by one of the 9 that ran after it.
 */
static void test_many_holders(void **state)
{
	static const char *const inames[] = { "i31", "i32", "i33", "i34", "i35", "i36", "i37",
					       "i38", "i39" };
	struct lat_block *b;
	const struct lat_wakeup_result *r;
	const struct lat_wake_case *c;
	char comm[16], prev[16];
	uint64_t t = 3600;
	char *txt, *js;

	(void)state;
	sw(100, 0, 0, "swapper/0", LAT_TS_RUNNING, 100, "T");
	sw(100, 1, 0, "swapper/1", LAT_TS_RUNNING, 300, "W");
	sw(500, 1, 300, "W", LAT_TS_SLEEPING, 400, "t400");
	wake(600, 0, 100, "T", LAT_EV_WAKING, 300, "W", 1);
	sw(1000, 0, 100, "T", LAT_TS_SLEEPING, 200, "t200");
	for (int k = 1; k <= 9; k++) {
		snprintf(prev, sizeof(prev), "t%d", 399 + k);
		snprintf(comm, sizeof(comm), "t%d", 400 + k);
		sw(1500 + 100 * (uint64_t)k, 1, 399 + k, prev, LAT_TS_RUNNING, 400 + k, comm);
	}
	sw(2500, 1, 409, "t409", LAT_TS_RUNNING, 300, "W");
	wake(2600, 1, 300, "W", LAT_EV_WAKING, 100, "T", 0);
	/* 10 markers and 10 migrations of T inside its wait: 8 of each listed */
	for (int k = 0; k < 10; k++) {
		struct lat_event *e = add(2610 + 4 * (uint64_t)k, 1, 300, "W", LAT_EV_MARKER);

		e->u.marker.text = "mark";
		e->u.marker.len = 4;
	}
	for (int k = 0; k < 10; k++) {
		struct lat_event *e = add(2650 + 4 * (uint64_t)k, 1, 300, "W", LAT_EV_MIGRATE);

		e->u.migrate.pid = 100;
		e->u.migrate.orig_cpu = k % 2;
		e->u.migrate.dest_cpu = 1 - k % 2;
		snprintf(e->u.migrate.comm, LAT_COMM_LEN, "T");
	}
	irq(2700, 0, 200, "t200", LAT_EV_IRQ_ENTRY, 30, "i30");
	irq(2900, 0, 200, "t200", LAT_EV_IRQ_EXIT, 30, NULL);
	for (int j = 1; j <= 9; j++) {
		irq(3000 + 20 * (uint64_t)j, 0, 200, "t200", LAT_EV_IRQ_ENTRY, 30 + j,
		    inames[j - 1]);
		irq(3010 + 20 * (uint64_t)j, 0, 200, "t200", LAT_EV_IRQ_EXIT, 30 + j, NULL);
	}
	for (int k = 1; k <= 20; k++) {
		snprintf(prev, sizeof(prev), "t%d", 199 + k);
		snprintf(comm, sizeof(comm), "t%d", 200 + k);
		if (k == 20)
			sw(t, 0, 219, "t219", LAT_TS_RUNNING, 100, "T");
		else
			sw(t, 0, 199 + k, prev, LAT_TS_RUNNING, 200 + k, comm);
		t += 10 * (uint64_t)k;
	}
	b = run();
	r = b->analysis;
	assert_true(r->nworst >= 2);
	c = &r->worst[0];
	assert_int_equal(c->pid, 100);
	assert_int_equal(c->latency_ns, 2900);
	assert_int_equal(c->non_cpu, LAT_WAKE_ONCPU_MAX);
	assert_int_equal(c->on_cpu[0].pid, 200);
	assert_int_equal(c->on_cpu[0].ns, 1000);
	for (int i = 1; i < LAT_WAKE_ONCPU_MAX; i++) {
		assert_int_equal(c->on_cpu[i].pid, 220 - i);		/* 219, 218, ... 205 */
		assert_int_equal(c->on_cpu[i].ns, 10 * (20 - i));
		assert_int_equal(c->on_cpu[i].slices, 1);
	}
	assert_int_equal(c->other_tasks, 4);
	assert_int_equal(c->other_ns, 100);
	assert_int_equal(c->unaccounted_ns, 0);
	assert_int_equal(c->nirqs, LAT_WAKE_IRQS_MAX);
	assert_int_equal(c->irqs[0].irq, 30);
	assert_int_equal(c->irqs[0].ns, 200);
	assert_string_equal(c->irqs[0].name, "i30");
	for (int i = 1; i < LAT_WAKE_IRQS_MAX; i++) {
		assert_int_equal(c->irqs[i].irq, 40 - i);		/* 39, 38, ... 33 */
		assert_int_equal(c->irqs[i].ns, 10);
	}
	assert_int_equal(c->other_irqs, 2);
	assert_int_equal(c->other_irq_ns, 20);
	assert_int_equal(c->nmarkers, LAT_WAKE_MARKERS_MAX);
	assert_int_equal(c->markers_dropped, 10 - LAT_WAKE_MARKERS_MAX);
	assert_int_equal(c->nmigr, LAT_WAKE_MIGR_MAX);
	assert_int_equal(c->migr_dropped, 10 - LAT_WAKE_MIGR_MAX);
	/* the waker's wait, 600..2500 on CPU1 */
	assert_true(c->nchain >= 1);
	assert_int_equal(c->chain[0].pid, 300);
	assert_int_equal(c->chain[0].latency_ns, 1900);
	assert_int_equal(c->chain[0].held_by_pid, 400);
	assert_int_equal(c->chain[0].held_ns, 1000);
	txt = report(b, 0);
	assert_non_null(strstr(txt, "t200/200 ran 1 us (34%) at SCHED_OTHER nice 0, "
				    "t219/219 ran 190 ns"));
	/* 160 + 150 + ... + 50 named past the first four, 100 not named: 1360 of 2900 */
	assert_non_null(strstr(txt, ", 16 more tasks 1.36 us (47%)"));
	assert_non_null(strstr(txt, "(t400/400 1 us)"));
	assert_non_null(strstr(txt, "i30 200 ns x1, i39 10 ns x1"));
	assert_non_null(strstr(txt, ", 2 more 20 ns"));
	assert_non_null(strstr(txt, "     2 more migrations;\n"));
	assert_non_null(strstr(txt, "     2 more markers\n"));
	js = report(b, 1);
	assert_non_null(strstr(js, "\"other_tasks\": 4"));
	assert_non_null(strstr(js, "\"other_irqs\": 2"));
	assert_non_null(strstr(js, "\"migrations_dropped\": 2"));
	assert_non_null(strstr(js, "\"markers_dropped\": 2"));
	free(txt);
	free(js);
	lat_block_free(b);
}

/* The chain trace reported: the JSON contract's keys and the narrative. */
static void test_report(void **state)
{
	struct lat_block *b;
	char *js, *tx;

	(void)state;
	sw(0, 1, 0, "swapper/1", LAT_TS_RUNNING, 50, "hog");
	sw(5, 0, 30, "T3", LAT_TS_SLEEPING, 0, "swapper/0");
	irq(15, 0, 0, "swapper/0", LAT_EV_IRQ_ENTRY, 0, "timer");
	wake(20, 0, 0, "swapper/0", LAT_EV_WAKING, 30, "T3", 0);
	irq(25, 0, 0, "swapper/0", LAT_EV_IRQ_EXIT, 0, NULL);
	sw(40, 0, 0, "swapper/0", LAT_TS_RUNNING, 30, "T3");
	wake(100, 0, 30, "T3", LAT_EV_WAKING, 20, "T2", 1);
	sw(4000100, 1, 50, "hog", LAT_TS_RUNNING, 20, "T2");
	b = run();
	js = report(b, 1);
	tx = report(b, 0);
	if (getenv("WK_DUMP"))
		printf("%s\n%s\n", js, tx);
	assert_non_null(strstr(js, "\"wakeup\": {"));
	assert_non_null(strstr(js, "\"lost_events\": 0"));
	assert_non_null(strstr(js, "\"tasks\": ["));
	assert_non_null(strstr(js, "\"latency_ns\": 4000000"));
	assert_non_null(strstr(js, "\"context\": \"irq\""));
	assert_non_null(strstr(js, "\"on_cpu\": ["));
	assert_non_null(strstr(js, "\"p99_ns\": "));
	/* hog held CPU1 for the whole 4 ms wait (100 .. 4000100) */
	assert_non_null(strstr(tx, "T2/20 waited 4 ms on CPU1"));
	assert_non_null(strstr(tx, "hog/50 ran 4 ms (100%) at SCHED_OTHER nice 0"));
	assert_non_null(strstr(tx, "woken by T3/30 on CPU0"));
	assert_non_null(strstr(tx, "T3/30 itself waited 20 ns on CPU0"));
	assert_non_null(strstr(tx, "woken by irq 0 (timer) on CPU0"));
	free(js);
	free(tx);
	lat_block_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_basic_waking, reset),
		cmocka_unit_test_setup(test_start_at_wakeup, reset),
		cmocka_unit_test_setup(test_self_wake, reset),
		cmocka_unit_test_setup(test_wake_races_schedule, reset),
		cmocka_unit_test_setup(test_sleep_cancels, reset),
		cmocka_unit_test_setup(test_switch_break, reset),
		cmocka_unit_test_setup(test_preempt_wait, reset),
		cmocka_unit_test_setup(test_new_and_missing_waking, reset),
		cmocka_unit_test_setup(test_migration, reset),
		cmocka_unit_test_setup(test_irq_waker, reset),
		cmocka_unit_test_setup(test_chain, reset),
		cmocka_unit_test_setup(test_lost_across_wait, reset),
		cmocka_unit_test_setup(test_percentiles, reset),
		cmocka_unit_test_setup(test_percentiles_exact, reset),
		cmocka_unit_test_setup(test_hist_merge, reset),
		cmocka_unit_test_setup(test_hist_wide_rows, reset),
		cmocka_unit_test_setup(test_hist_error, reset),
		cmocka_unit_test_setup(test_stack_blame, reset),
		cmocka_unit_test_setup(test_stack_by_name, reset),
		cmocka_unit_test_setup(test_markers_and_timeline, reset),
		cmocka_unit_test_setup(test_timelines_asked, reset),
		cmocka_unit_test_setup(test_sort_and_filter, reset),
		cmocka_unit_test_setup(test_report, reset),
		cmocka_unit_test_setup(test_many_holders, reset),
		cmocka_unit_test_setup(test_time_backwards, reset),
		cmocka_unit_test_setup(test_queued_elsewhere, reset),
	};

	return cmocka_run_group_tests(tests, NULL, release_events);
}
