// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The wakeup analysis' bounded memory, at its edges: a chain link whose wait
 * is older than the slices kept says so (held_by_unknown), a chain whose waits
 * are older than the ended waits kept is cut (chain_cut), and a timeline built
 * after the fact still shows what happened around the case.  The traces are
 * generated; every expected number is a timestamp difference written here.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "wakeup_test_util.h"

static void migrate(uint64_t ts, int cpu, int cur, const char *cc, int pid, const char *comm,
		    int from, int to)
{
	struct lat_event *e = add(ts, cpu, cur, cc, LAT_EV_MIGRATE);

	e->u.migrate.pid = pid;
	e->u.migrate.prio = 120;
	e->u.migrate.orig_cpu = from;
	e->u.migrate.dest_cpu = to;
	snprintf(e->u.migrate.comm, LAT_COMM_LEN, "%s", comm);
}

/*
 * W (300) sleeps on CPU1 at 100 while Y (500) runs there, X (400) on CPU0
 * wakes it at 150, it runs at 400: a 250 ns wait, all of it Y's.  W then wakes
 * V (600) at 500, and V only runs on CPU0 at @v_end.  Between the two, Y and Z
 * (700) take turns @pingpong times on CPU1, 1000 ns apart from 1000 on, leaving
 * in state @st: every switch pushes a slice, and in R it also ends a preemption
 * wait (one more node for chains).
 */
static void waker_then_pingpong(size_t pingpong, enum lat_task_state st, uint64_t v_end)
{
	uint64_t t = 1000;

	sw(10, 0, 0, "swapper/0", LAT_TS_RUNNING, 400, "X");
	sw(20, 1, 0, "swapper/1", LAT_TS_RUNNING, 300, "W");
	sw(100, 1, 300, "W", LAT_TS_SLEEPING, 500, "Y");
	wake(150, 0, 400, "X", LAT_EV_WAKING, 300, "W", 1);
	sw(400, 1, 500, "Y", LAT_TS_RUNNING, 300, "W");
	wake(500, 1, 300, "W", LAT_EV_WAKING, 600, "V", 0);
	sw(600, 1, 300, "W", LAT_TS_SLEEPING, 500, "Y");
	for (size_t i = 0; i < pingpong; i++, t += 1000) {
		if (i % 2)
			sw(t, 1, 700, "Z", st, 500, "Y");
		else
			sw(t, 1, 500, "Y", st, 700, "Z");
	}
	assert_true(t < v_end);
	sw(v_end, 0, 400, "X", LAT_TS_RUNNING, 600, "V");
}

/* A few switches: the link's CPU still has the wait's slices, so who held it is known. */
static void test_link_held_by(void **state)
{
	struct lat_block *b;
	const struct lat_wakeup_result *r;
	const struct lat_wake_case *c;

	(void)state;
	waker_then_pingpong(100, LAT_TS_RUNNING, 200000);
	b = run();
	r = b->analysis;
	c = &r->worst[0];
	assert_int_equal(c->pid, 600);
	assert_int_equal(c->latency_ns, 200000 - 500);
	assert_int_equal(c->chain_cut, 0);
	assert_int_equal(c->nchain, 1);
	assert_int_equal(c->chain[0].pid, 300);
	assert_int_equal(c->chain[0].latency_ns, 400 - 150);
	assert_int_equal(c->chain[0].held_by_pid, 500);
	assert_int_equal(c->chain[0].held_ns, 400 - 150);
	assert_int_equal(c->chain[0].held_unknown, 0);
	assert_int_equal(c->chain[0].waker.pid, 400);
	lat_block_free(b);
}

/*
 * 40000 switches on CPU1 since, none ending a wait: its ring (32768 slices with
 * two CPUs) no longer reaches W's wait, the ended waits still do.
 */
static void test_link_older_than_ring(void **state)
{
	struct lat_block *b;
	const struct lat_wakeup_result *r;
	const struct lat_wake_case *c;

	(void)state;
	waker_then_pingpong(40000, LAT_TS_SLEEPING, 50000000);
	b = run();
	r = b->analysis;
	c = &r->worst[0];
	assert_int_equal(c->pid, 600);
	assert_int_equal(c->chain_cut, 0);
	assert_int_equal(c->nchain, 1);
	assert_int_equal(c->chain[0].pid, 300);
	assert_int_equal(c->chain[0].latency_ns, 400 - 150);
	assert_int_equal(c->chain[0].held_by_pid, -1);
	assert_int_equal(c->chain[0].held_unknown, 1);
	lat_block_free(b);
}

/* 40000 preemption waits end after W's: W's wait left the ring of ended waits. */
static void test_chain_cut(void **state)
{
	struct lat_block *b;
	const struct lat_wakeup_result *r;
	const struct lat_wake_case *c;

	(void)state;
	waker_then_pingpong(40000, LAT_TS_RUNNING, 50000000);
	b = run();
	r = b->analysis;
	/* every ping-pong switch but the first ends one, and Y's at 600 */
	assert_int_equal(r->preempt_waits, 40000 - 1 + 1);
	c = &r->worst[0];
	assert_int_equal(c->pid, 600);
	assert_int_equal(c->latency_ns, 50000000 - 500);
	assert_int_equal(c->nchain, 0);
	assert_int_equal(c->chain_cut, 1);
	lat_block_free(b);
}

/*
 * The timeline is built when the case's window has passed, from the rings:
 * a migration of another task inside the wait, and one after the wait inside
 * the margin, are both on it; one before the window is not.
 */
static void test_timeline_after_the_fact(void **state)
{
	struct lat_block *b;
	struct lat_timeline *tl = NULL;
	int seen_in = 0, seen_after = 0, seen_before = 0;

	(void)state;
	sw(10, 0, 0, "swapper/0", LAT_TS_RUNNING, 400, "X");
	sw(20, 1, 0, "swapper/1", LAT_TS_RUNNING, 500, "Y");
	sw(30, 0, 400, "X", LAT_TS_SLEEPING, 0, "swapper/0");
	sw(40, 0, 0, "swapper/0", LAT_TS_RUNNING, 400, "X");
	migrate(50, 1, 500, "Y", 800, "M", 1, 0);		/* before the window */
	wake(300000, 1, 500, "Y", LAT_EV_WAKING, 400, "X", 0);		/* X is running: nothing */
	sw(400000, 0, 400, "X", LAT_TS_SLEEPING, 0, "swapper/0");
	wake(500000, 1, 500, "Y", LAT_EV_WAKING, 400, "X", 0);		/* wait 500000 .. 900000 */
	migrate(600000, 1, 500, "Y", 801, "M1", 1, 0);		/* inside */
	sw(900000, 0, 0, "swapper/0", LAT_TS_RUNNING, 400, "X");	/* 400 us */
	migrate(1000000, 1, 500, "Y", 802, "M2", 0, 1);	/* inside the 200 us margin */
	sw(3000000, 1, 500, "Y", LAT_TS_SLEEPING, 0, "swapper/1");
	b = run();
	assert_int_equal(((const struct lat_wakeup_result *)b->analysis)->worst[0].latency_ns,
			 400000);
	assert_int_equal(lat_wakeup_timeline(b, 0, &tl), 0);
	/* margins: half the latency (200 us) on each side */
	assert_int_equal(tl->start_ns, 300000);
	assert_int_equal(tl->end_ns, 1100000);
	for (size_t i = 0; i < tl->nmarks; i++) {
		if (tl->marks[i].kind != LAT_TL_MIGRATE)
			continue;
		seen_before += tl->marks[i].pid == 800;
		seen_in += tl->marks[i].pid == 801 && tl->marks[i].cpu == 1 &&
			   tl->marks[i].other_cpu == 0;
		seen_after += tl->marks[i].pid == 802;
	}
	assert_int_equal(seen_before, 0);
	assert_int_equal(seen_in, 1);
	assert_int_equal(seen_after, 1);
	/* CPU0: X until 400000, idle to 900000, X from there to the window's end */
	assert_true(tl->nslices >= 3);
	assert_int_equal(tl->slices[0].cpu, 0);
	assert_int_equal(tl->slices[0].pid, 400);
	assert_int_equal(tl->slices[0].start_ns, 300000);
	assert_int_equal(tl->slices[0].end_ns, 400000);
	assert_int_equal(tl->slices[1].pid, 0);
	assert_int_equal(tl->slices[1].end_ns, 900000);
	assert_int_equal(tl->slices[2].pid, 400);
	assert_int_equal(tl->slices[2].end_ns, 1100000);
	lat_timeline_free(tl);
	lat_block_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_link_held_by, reset),
		cmocka_unit_test_setup(test_link_older_than_ring, reset),
		cmocka_unit_test_setup(test_chain_cut, reset),
		cmocka_unit_test_setup(test_timeline_after_the_fact, reset),
	};

	return cmocka_run_group_tests(tests, NULL, release_events);
}
