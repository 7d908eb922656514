// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Stalls found by what was due (docs/wakeup.md, "Stalls"), over hand-built
 * event sequences: a switch owed (the older tests in test_wakeup_explain.c),
 * tasks queued behind a fair task past EEVDF's bound, the sched_wakeup of a
 * sched_waking, and the steal time the recorder sampled as evidence.  Every
 * expected number is a difference of timestamps written in the test.
 *
 * An hrtimer due in a silence (docs/timers.md, "Timers due"): the timers'
 * clock is put OFF ns behind the trace clock (an entry's ts - its now), and
 * every expiry below is written in the trace clock, its expires beside.
 *
 * HZ is not recorded here, so the bound on a queued task's wait is taken at
 * HZ 250: 1.5 * (2 * max(2 * 3 ms, 4 ms) + 3 ms + 4 ms) = 28.5 ms.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "latscope/an_probe.h"

#include "latscope/env.h"
#include "report_priv.h"
#include "wakeup_test_util.h"
#include "wakeup_timer_util.h"

#define MS 1000000ull
#define OFF 5000ull	/* the trace clock - the timers' clock */

static const struct lat_wakeup_result *res(const struct lat_block *b)
{
	return b->analysis;
}

/* The message of @b's first finding of @kind containing @what, or NULL. */
static const char *finding(const struct lat_block *b, const char *kind, const char *what)
{
	for (size_t i = 0; i < b->nfindings; i++)
		if (!strcmp(b->findings[i].kind, kind) && strstr(b->findings[i].message, what))
			return b->findings[i].message;
	return NULL;
}

/* The text report of @b into a malloc'ed string. */
static char *report_text(const struct lat_block *b)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	rp_report_wakeup_text(f, b, NULL);
	fclose(f);
	return buf;
}

/* Stall @s was of CPU @cpu (-1 every CPU) from @from to @to, due to @due. */
static void assert_stall(const struct lat_wake_stall *s, int cpu, enum lat_stall_due due,
			 uint64_t from, uint64_t to)
{
	assert_int_equal(s->cpu, cpu);
	assert_int_equal(s->due, due);
	assert_int_equal(s->from_ns, from);
	assert_int_equal(s->to_ns, to);
}

/* CPU0 logs a marker every ms in [from, to): the machine is never silent. */
static void busy_cpu0(uint64_t from, uint64_t to)
{
	for (uint64_t t = from; t < to; t += MS)
		add(t, 0, 50, "hog", LAT_EV_MARKER);
}

/* @pid's sched_setscheduler(0, @policy) on @cpu at @ts, returning 0 at @ts + 1. */
static void setsched_self(uint64_t ts, int cpu, int pid, const char *comm, int policy)
{
	struct lat_event *e = add(ts, cpu, pid, comm, LAT_EV_SETSCHED);

	e->u.setsched.pid = 0;
	e->u.setsched.policy = policy;
	add(ts + 1, cpu, pid, comm, LAT_EV_SETSCHED_EXIT)->u.setsched.ret = 0;
}

/*
 * hog2 (fair, 120) runs on CPU1; A (120) is woken for CPU1 by CPU0 at @wake_at
 * (its waking and sched_wakeup) and switched in at @run_at; CPU1 logs nothing
 * between.  A's priority @prio, hog2's @hog_prio.
 */
static struct lat_block *queued_behind_pol(uint64_t wake_at, uint64_t run_at, int prio,
					   int hog_prio, int hog_policy, int hog_out_prio)
{
	sw(10, 0, 0, "swapper/0", LAT_TS_RUNNING, 50, "hog");
	sw(11, 1, 100, "A", LAT_TS_SLEEPING, 60, "hog2");
	evs[nev - 1].u.sw.next_prio = hog_prio;
	if (hog_policy >= 0)
		setsched_self(20, 1, 60, "hog2", hog_policy);
	busy_cpu0(MS / 2, wake_at);
	wake(wake_at, 0, 50, "hog", LAT_EV_WAKING, 100, "A", 1);
	evs[nev - 1].u.wake.prio = prio;
	wake(wake_at + 1000, 0, 50, "hog", LAT_EV_WAKEUP, 100, "A", 1);
	evs[nev - 1].u.wake.prio = prio;
	busy_cpu0(wake_at + MS, run_at);
	sw(run_at, 1, 60, "hog2", LAT_TS_RUNNING, 100, "A");
	evs[nev - 1].u.sw.prev_prio = hog_out_prio;
	evs[nev - 1].u.sw.next_prio = prio;
	return run();
}

static struct lat_block *queued_behind(uint64_t wake_at, uint64_t run_at, int prio,
				       int hog_prio)
{
	return queued_behind_pol(wake_at, run_at, prio, hog_prio, -1, hog_prio);
}

/*
 * Queued 39 ms (1..40 ms) behind hog2, both nice 0, while CPU1 logged nothing:
 * past the 28.5 ms bound, a stall of CPU1 from the wakeup (CPU1's last event
 * is older), due to the queue.  The wait is all stall, hog2 is charged
 * nothing.
 */
static void test_queued(void **state)
{
	struct lat_block *b = queued_behind(1 * MS, 40 * MS, 120, 120);
	const struct lat_wakeup_result *r = res(b);
	const struct lat_wake_stall *s = &r->stalls[0];
	const struct lat_wake_case *c = &r->worst[0];

	(void)state;
	assert_int_equal(r->nstalls, 1);
	assert_stall(s, 1, LAT_STALL_QUEUED, 1 * MS, 40 * MS);
	assert_int_equal(s->queued, 1);
	assert_int_equal(s->pid, 60);
	assert_int_equal(s->waiting_pid, -1);
	assert_int_equal(s->steal_ns, -1);		/* not sampled */
	assert_int_equal(c->pid, 100);
	assert_int_equal(c->latency_ns, 39 * MS);	/* from the waking */
	assert_int_equal(c->stall_ns, 39 * MS);
	assert_int_equal(c->verdict.kind, LAT_VERDICT_STALL);
	assert_int_equal(c->steal_ns, -1);
	assert_non_null(finding(b, "stall", "CPU1 logged nothing for 39 ms (0.001000000 .. "
				"0.040000000) while 1 task waited behind hog2/60 (the tick would "
				"have switched): stall? (the host not running the vCPU, or a "
				"non-preemptible section)"));
	lat_block_free(b);
}

/* 28 ms behind hog2 is within EEVDF's bound: no stall, hog2 ran. */
static void test_queued_within_bound(void **state)
{
	struct lat_block *b = queued_behind(1 * MS, 29 * MS, 120, 120);
	const struct lat_wakeup_result *r = res(b);

	(void)state;
	assert_int_equal(r->nstalls_total, 0);
	assert_int_equal(r->worst[0].stall_ns, 0);
	assert_int_equal(r->worst[0].on_cpu[0].pid, 60);
	lat_block_free(b);
}

/*
 * hog2 switched in as a fair task (120) and made itself SCHED_FIFO (policy 1)
 * at 20 ns, the priority behind a user pointer; its switch out says prio 49
 * (FIFO 50).  A fair task queued 39 ms behind it is not due to run: no stall
 * (before, the tick was taken to owe A a switch: a 39 ms stall), and the wait
 * is hog2's, of a higher class.  While hog2 runs its prio is
 * LAT_PRIO_RT_UNKNOWN, named as such.  Without the call in the trace the
 * silence is still taken for a stall: nothing said hog2 was real-time then.
 */
static void test_queued_behind_raised_rt(void **state)
{
	struct lat_block *b = queued_behind_pol(1 * MS, 40 * MS, 120, 120, 1, 49);
	const struct lat_wake_case *c = &res(b)->worst[0];
	char cls[48];

	(void)state;
	assert_int_equal(res(b)->setscheds, 1);
	assert_int_equal(res(b)->nstalls_total, 0);
	assert_int_equal(c->pid, 100);
	assert_int_equal(c->on_cpu[0].pid, 60);
	assert_int_equal(c->on_cpu[0].prio, 49);	/* from its switch out */
	assert_int_equal(c->verdict.kind, LAT_VERDICT_HIGHER_PRIORITY);
	lat_block_free(b);
	lat_sched_class_fmt(LAT_PRIO_RT_UNKNOWN, cls, sizeof(cls));
	assert_string_equal(cls, "SCHED_FIFO (priority not recorded)");
	assert_int_equal(lat_sched_class_fmt_pol(LAT_PRIO_RT_UNKNOWN, 2, cls, sizeof(cls)), 1);
	assert_string_equal(cls, "SCHED_RR (priority not recorded)");
	/* the call not recorded: the switches show a fair hog until it leaves */
	nev = 0;
	b = queued_behind_pol(1 * MS, 40 * MS, 120, 120, -1, 49);
	assert_int_equal(res(b)->nstalls_total, 1);
	lat_block_free(b);
}

/*
 * A nice 19 task (139) behind a nice 0 one waits long by design (weight 15
 * against 1024): 4 nice levels apart is no stall, 3 is (weight 1.95x).
 */
static void test_queued_far_priority(void **state)
{
	struct lat_block *b = queued_behind(1 * MS, 40 * MS, 124, 120);

	(void)state;
	assert_int_equal(res(b)->nstalls_total, 0);
	lat_block_free(b);
	nev = 0;
	b = queued_behind(1 * MS, 40 * MS, 123, 120);
	assert_int_equal(res(b)->nstalls_total, 1);
	assert_int_equal(res(b)->stalls[0].due, LAT_STALL_QUEUED);
	lat_block_free(b);
}

/* A fair task behind a real-time one (prio 50) is not due to run: no stall. */
static void test_queued_behind_rt(void **state)
{
	struct lat_block *b = queued_behind(1 * MS, 40 * MS, 120, 50);

	(void)state;
	assert_int_equal(res(b)->nstalls_total, 0);
	assert_int_equal(res(b)->worst[0].on_cpu[0].pid, 60);
	lat_block_free(b);
}

/*
 * The silence counts from when the task was queued: CPU1 silent 0..40 ms, A
 * queued there at 35 ms by CPU0 (record-stacks: a 100 ms CPU0 silence of cc1
 * alone, rcu_preempt woken for it just before its end) is 5 ms, no stall.
 */
static void test_queued_late(void **state)
{
	struct lat_block *b = queued_behind(35 * MS, 40 * MS, 120, 120);

	(void)state;
	assert_int_equal(res(b)->nstalls_total, 0);
	lat_block_free(b);
}

/*
 * Every CPU silent 3 ms right after a sched_waking (1 ms) whose sched_wakeup
 * comes at 4 ms, nothing owed (A is fair, CPU1 runs hog2): a stall of every
 * CPU, due the wakeup.  The trace pairs waking and wakeup (B's pair first).
 */
static void test_wakeup_due(void **state)
{
	struct lat_block *b;
	const struct lat_wakeup_result *r;
	const struct lat_wake_stall *s;

	(void)state;
	sw(10, 0, 0, "swapper/0", LAT_TS_RUNNING, 50, "hog");
	sw(11, 1, 100, "A", LAT_TS_SLEEPING, 60, "hog2");
	sw(12, 0, 50, "hog", LAT_TS_SLEEPING, 0, "swapper/0");
	sw(13, 0, 0, "swapper/0", LAT_TS_RUNNING, 50, "hog");
	wake(100, 0, 50, "hog", LAT_EV_WAKING, 70, "B", 0);
	wake(200, 0, 50, "hog", LAT_EV_WAKEUP, 70, "B", 0);
	busy_cpu0(MS / 2, 1 * MS);
	wake(1 * MS - 50000, 0, 50, "hog", LAT_EV_WAKING, 100, "A", 1);
	wake(4 * MS, 1, 60, "hog2", LAT_EV_WAKEUP, 100, "A", 1);
	sw(5 * MS, 1, 60, "hog2", LAT_TS_RUNNING, 100, "A");
	b = run();
	r = res(b);
	assert_int_equal(r->nstalls_total, 1);
	s = &r->stalls[0];
	assert_int_equal(s->cpu, -1);
	assert_int_equal(s->due, LAT_STALL_WAKEUP);
	assert_int_equal(s->from_ns, 1 * MS - 50000);
	assert_int_equal(s->to_ns, 4 * MS);
	assert_int_equal(s->waiting_pid, 100);
	assert_non_null(finding(b, "stall", "every CPU logged nothing for 3.05 ms (0.000950000 .. "
				"0.004000000) between the sched_waking of A/100 and its "
				"sched_wakeup"));
	lat_block_free(b);
}

/*
 * A waking 150 us before the last event of the machine is past the 100 us a
 * sched_wakeup takes: the silence after is no stall.  Neither is a silence
 * after a waking in a trace that never pairs them (sched_waking alone).
 */
static void test_wakeup_not_due(void **state)
{
	struct lat_block *b;

	(void)state;
	sw(10, 0, 0, "swapper/0", LAT_TS_RUNNING, 50, "hog");
	sw(11, 1, 100, "A", LAT_TS_SLEEPING, 60, "hog2");
	wake(100, 0, 50, "hog", LAT_EV_WAKING, 70, "B", 0);
	wake(200, 0, 50, "hog", LAT_EV_WAKEUP, 70, "B", 0);
	wake(1 * MS, 0, 50, "hog", LAT_EV_WAKING, 100, "A", 1);
	add(1 * MS + 150000, 0, 50, "hog", LAT_EV_MARKER);
	wake(4 * MS, 1, 60, "hog2", LAT_EV_WAKEUP, 100, "A", 1);
	sw(5 * MS, 1, 60, "hog2", LAT_TS_RUNNING, 100, "A");
	b = run();
	assert_int_equal(res(b)->nstalls_total, 0);
	lat_block_free(b);
	nev = 0;
	sw(10, 0, 0, "swapper/0", LAT_TS_RUNNING, 50, "hog");
	sw(11, 1, 100, "A", LAT_TS_SLEEPING, 60, "hog2");
	wake(1 * MS, 0, 50, "hog", LAT_EV_WAKING, 100, "A", 1);
	sw(5 * MS, 1, 60, "hog2", LAT_TS_RUNNING, 100, "A");
	b = run();
	assert_int_equal(res(b)->nstalls_total, 0);
	lat_block_free(b);
}

/* A "latscope: steal" marker at @ts: @cpu's steal total @steal_ns, read @since_ns after the last. */
static struct lat_steal steals[8];
static size_t nsteals;

static void steal(uint64_t ts, int cpu, int64_t steal_ns, int64_t since_ns)
{
	struct lat_steal *s = &steals[nsteals++];
	struct lat_event *e = add(ts, 0, 900, "latscope", LAT_EV_MARKER);
	static const char text[] = "latscope: steal";

	*s = (struct lat_steal){ .cpu = cpu, .steal_ns = steal_ns, .since_ns = since_ns };
	e->u.marker.text = text;
	e->u.marker.len = sizeof(text) - 1;
	e->u.marker.steal = s;
}

/*
 * The owed-switch stall of test_stall_cpu (a FIFO task woken for idle CPU1 at
 * 1 ms, its switch at 4 ms) with steal time sampled: CPU1's steal grew 20 ms
 * (from 5 to 25 ms) in the reading 0..10 ms, which overlaps the stall; CPU0's
 * did not grow.  The stall and the wait get CPU1's 20 ms; a CPU0 stall
 * (5.5..8 ms, owed to B) gets 0: no steal time there.
 */
static void test_steal(void **state)
{
	struct lat_block *b;
	const struct lat_wakeup_result *r;
	const struct lat_wake_case *c;
	char *txt;

	(void)state;
	nsteals = 0;
	steal(100, 1, 5 * (int64_t)MS, -1);
	steal(101, 0, 7 * (int64_t)MS, -1);
	sw(200, 0, 0, "swapper/0", LAT_TS_RUNNING, 50, "hog");
	sw(201, 1, 100, "A", LAT_TS_SLEEPING, 0, "swapper/1");
	sw(202, 0, 50, "hog", LAT_TS_SLEEPING, 0, "swapper/0");
	wake(1 * MS, 1, 0, "swapper/1", LAT_EV_WAKING, 100, "A", 1);
	evs[nev - 1].u.wake.prio = 19;
	add(2 * MS, 0, 0, "swapper/0", LAT_EV_MARKER);
	add(3 * MS, 0, 0, "swapper/0", LAT_EV_MARKER);
	sw(4 * MS, 1, 0, "swapper/1", LAT_TS_RUNNING, 100, "A");
	wake(5 * MS + MS / 2, 1, 100, "A", LAT_EV_WAKING, 110, "B", 0);
	evs[nev - 1].u.wake.prio = 19;
	add(6 * MS, 1, 100, "A", LAT_EV_MARKER);
	add(7 * MS, 1, 100, "A", LAT_EV_MARKER);
	sw(8 * MS, 0, 0, "swapper/0", LAT_TS_RUNNING, 110, "B");
	steal(10 * MS, 1, 25 * (int64_t)MS, 10 * (int64_t)MS);
	b = run();
	r = res(b);
	assert_int_equal(r->nstalls, 2);
	assert_int_equal(r->stalls[0].cpu, 1);
	assert_int_equal(r->stalls[0].steal_ns, 20 * MS);
	assert_int_equal(r->stalls[1].cpu, 0);
	assert_int_equal(r->stalls[1].from_ns, 5 * MS + MS / 2);
	assert_int_equal(r->stalls[1].steal_ns, 0);
	c = &r->worst[0];
	assert_int_equal(c->pid, 100);
	assert_int_equal(c->steal_ns, 20 * MS);
	assert_int_equal(c->stalls[0].steal_ns, 20 * MS);
	txt = report_text(b);
	assert_non_null(strstr(txt, "the host stole 20 ms of CPU1 during this wait (/proc/stat)"));
	free(txt);
	assert_non_null(finding(b, "stall", "CPU1 logged nothing for 3 ms (0.001000000 .. "
				"0.004000000) while A/100 should have run: stall? (the host stole "
				"20 ms of CPU1 around it (/proc/stat))"));
	assert_non_null(finding(b, "stall", "CPU0 logged nothing for 2.5 ms (0.005500000 .. "
				"0.008000000) while B/110 should have run: stall? (no steal time "
				"on CPU0 around it"));
	lat_block_free(b);
}

/* A probe marker at @ts on CPU @cpu by latscope/900: "latscope: probe=timer cpu=N lat_ns=..". */
static char probe_text[4][96];
static size_t nprobe;
static const char *probe_kind = "timer";

static void probe_marker(uint64_t ts, int cpu, int64_t lat_ns)
{
	char *t = probe_text[nprobe++ % 4];
	struct lat_event *e;

	snprintf(t, sizeof(probe_text[0]), "latscope: probe=%s cpu=%d lat_ns=%lld seq=5",
		 probe_kind, cpu, (long long)lat_ns);
	e = add(ts, cpu, 900, "latscope", LAT_EV_MARKER);
	e->u.marker.text = t;
	e->u.marker.len = strlen(t);
}

/*
 * hog (fair) runs on CPU0, hog2 on CPU1, C (fair) is queued behind hog2 from
 * 0.5 ms; every CPU is silent 1..12 ms with nothing due that the events show.
 * At 12 ms the probe thread (latscope/900, FIFO) is woken on CPU0 and writes
 * its sample at 12.05 ms: 11.05 ms late, so its timer was due at 1 ms, inside
 * the silence: a stall of every CPU 1..12 ms, due the probe.  D (fair) is
 * queued behind hog2 at 12.01 ms, after the silence but before the marker: its
 * wait (12.01..14 ms) had no stall in it, C's (0.5..13 ms) had 11 ms of it.
 */
static void probe_silence(int64_t lat_ns)
{
	sw(10, 0, 0, "swapper/0", LAT_TS_RUNNING, 50, "hog");
	sw(11, 1, 0, "swapper/1", LAT_TS_RUNNING, 60, "hog2");
	sw(12, 0, 50, "hog", LAT_TS_RUNNING, 0, "swapper/0");
	sw(13, 0, 0, "swapper/0", LAT_TS_RUNNING, 50, "hog");
	wake(MS / 2, 0, 50, "hog", LAT_EV_WAKING, 100, "C", 1);
	wake(MS / 2 + 1000, 0, 50, "hog", LAT_EV_WAKEUP, 100, "C", 1);
	add(1 * MS, 0, 50, "hog", LAT_EV_MARKER);
	wake(12 * MS, 0, 50, "hog", LAT_EV_WAKING, 900, "latscope", 0);
	evs[nev - 1].u.wake.prio = 4;
	wake(12 * MS + 1000, 0, 50, "hog", LAT_EV_WAKEUP, 900, "latscope", 0);
	evs[nev - 1].u.wake.prio = 4;
	sw(12 * MS + 2000, 0, 50, "hog", LAT_TS_RUNNING, 900, "latscope");
	evs[nev - 1].u.sw.next_prio = 4;
	wake(12 * MS + 10000, 0, 900, "latscope", LAT_EV_WAKING, 110, "D", 1);
	wake(12 * MS + 11000, 0, 900, "latscope", LAT_EV_WAKEUP, 110, "D", 1);
	probe_marker(12 * MS + 50000, 0, lat_ns);
	sw(12 * MS + 60000, 0, 900, "latscope", LAT_TS_SLEEPING, 50, "hog");
	evs[nev - 1].u.sw.prev_prio = 4;
	add(12 * MS + MS / 2, 0, 50, "hog", LAT_EV_MARKER);
	sw(13 * MS, 1, 60, "hog2", LAT_TS_RUNNING, 100, "C");
	sw(13 * MS + 500000, 1, 100, "C", LAT_TS_SLEEPING, 60, "hog2");
	sw(14 * MS, 1, 60, "hog2", LAT_TS_RUNNING, 110, "D");
}

static const struct lat_wake_case *case_of(const struct lat_wakeup_result *r, int pid)
{
	for (size_t i = 0; i < r->nworst; i++)
		if (r->worst[i].pid == pid)
			return &r->worst[i];
	fail_msg("no case of %d", pid);
	return NULL;
}

/*
 * A tick on CPU0 at @ts while @pid (@comm) runs: its hrtimer expiry (the clock
 * OFF behind), re-armed a tick (4 ms) later, and its TIMER softirq.
 */
static void tick_cpu0(uint64_t ts, int pid, const char *comm)
{
	struct lat_event *e;

	tentry(ts, 0, pid, comm, 0xb0, "tick_nohz_handler", (int64_t)(ts - OFF));
	tstart(ts + 1000, 0, pid, comm, 0xb0, "tick_nohz_handler", (int64_t)(ts + 4 * MS - OFF),
	       (int64_t)(ts + 4 * MS - OFF));
	texit(ts + 2000, 0, pid, comm, 0xb0);
	e = add(ts + 3000, 0, pid, comm, LAT_EV_SOFTIRQ_ENTRY);
	e->u.irq.irq = 1;
	e->u.irq.name = "TIMER";
	e = add(ts + 10000, 0, pid, comm, LAT_EV_SOFTIRQ_EXIT);
	e->u.irq.irq = 1;
	e->u.irq.name = "TIMER";
}

/*
 * The khugepaged case of issue 27: the probe thread (latscope/900, FIFO 95 =
 * prio 4) wrote its start line and sleeps; khugepaged/40 (fair) runs on CPU0
 * from 0.5 ms and keeps it while the probe is woken there at 1.02 ms (its
 * timer, due 0.99 ms), until 11 ms.  Ticks (irq and TIMER softirq in
 * khugepaged's context, each re-armed 4 ms on) at 1 ms and at @ticks[]
 * inside the wait; the probe measured 10.02 ms (its marker at 11.01 ms).
 * CPU1 idle, logging a marker every ms when @cpu1_markers (else nothing:
 * every CPU is silent between CPU0's ticks).  HZ not recorded: a tick is 4 ms.
 */
static void khugepaged_section(const uint64_t *ticks, size_t nticks, int cpu1_markers)
{
	struct lat_event *e;
	static const char start[] = "latscope: probe-start=timer cpu=0";

	sw(10, 0, 0, "swapper/0", LAT_TS_RUNNING, 900, "latscope");
	evs[nev - 1].u.sw.next_prio = 4;
	e = add(100, 0, 900, "latscope", LAT_EV_MARKER);
	e->u.marker.text = start;
	e->u.marker.len = strlen(start);
	sw(200, 0, 900, "latscope", LAT_TS_SLEEPING, 0, "swapper/0");
	evs[nev - 1].u.sw.prev_prio = 4;
	sw(MS / 2, 0, 0, "swapper/0", LAT_TS_RUNNING, 40, "khugepaged");
	tick_cpu0(1 * MS, 40, "khugepaged");
	wake(1 * MS + 20000, 0, 40, "khugepaged", LAT_EV_WAKING, 900, "latscope", 0);
	evs[nev - 1].u.wake.prio = 4;
	wake(1 * MS + 21000, 0, 40, "khugepaged", LAT_EV_WAKEUP, 900, "latscope", 0);
	evs[nev - 1].u.wake.prio = 4;
	for (size_t i = 0; i < nticks; i++)
		tick_cpu0(ticks[i], 40, "khugepaged");
	sw(11 * MS, 0, 40, "khugepaged", LAT_TS_RUNNING, 900, "latscope");
	evs[nev - 1].u.sw.next_prio = 4;
	probe_marker(11 * MS + 10000, 0, 10 * (int64_t)MS + 20000);
	sw(11 * MS + 20000, 0, 900, "latscope", LAT_TS_SLEEPING, 40, "khugepaged");
	evs[nev - 1].u.sw.prev_prio = 4;
	/* CPU1's markers, each moved in place (the events are in time order) */
	for (uint64_t t = MS / 2 + 500; cpu1_markers && t < 12 * MS; t += MS) {
		struct lat_event m = *add(t, 1, 0, "swapper/1", LAT_EV_MARKER);
		size_t i = 0;

		while (evs[i].ts_ns < t)
			i++;
		memmove(&evs[i + 1], &evs[i], (nev - 1 - i) * sizeof(evs[0]));
		evs[i] = m;
	}
}

static struct lat_block *run_1ms(void)
{
	struct lat_analyze_opts o;

	lat_analyze_opts_init(&o);
	o.threshold_ns = 1 * MS;	/* the probe's wait is judged as it ends */
	return run_opts(&o);
}

/*
 * Ticks at 5 and 9 ms inside the 9.98 ms wait (1.021 .. 11 ms), each on time
 * (due then): the silences 1.021 .. 5 and 5.01 .. 9 ms end at a tick
 * khugepaged took and are no longer than 5 ms: its section, not a stall,
 * whether CPU1 logs or not.  One verdict: not-preemptible, khugepaged's 9.98
 * ms, in the wait and in the probe sample.
 */
static void test_nonpreemptible_section(void **state)
{
	static const uint64_t ticks[] = { 5 * MS, 9 * MS };

	(void)state;
	for (int cpu1 = 1; cpu1 >= 0; cpu1--) {
		struct lat_block *b;
		const struct lat_wakeup_result *r;
		const struct lat_wake_case *c;

		nev = 0;
		khugepaged_section(ticks, 2, cpu1);
		b = run_1ms();
		r = res(b);
		assert_int_equal(r->nstalls_total, 0);
		c = case_of(r, 900);
		assert_int_equal(c->latency_ns, 11 * MS - (1 * MS + 20000));
		assert_int_equal(c->stall_ns, 0);
		assert_int_equal(c->verdict.kind, LAT_VERDICT_NOT_PREEMPTIBLE);
		assert_int_equal(c->on_cpu[0].pid, 40);
		assert_int_equal(b->probe->worst[0].verdict, LAT_VERDICT_NOT_PREEMPTIBLE);
		assert_int_equal(b->probe->worst[0].stall_ns, 0);
		lat_block_free(b);
	}
}

/*
 * The other side of the rule.  No tick inside the wait: CPU0 silent 1.021 ..
 * 11 ms (9.98 ms, more than a tick) while it owed the probe a switch: a stall,
 * the verdict of the wait and of the sample.  A tick late: armed for 9 ms, it
 * fires at 9.4 ms, 400 us late (more than 200): the silence 5.01 .. 9.4 ms
 * (4.39 ms, within 5) is a stall (the first, 1.021 .. 5 ms, is not).
 */
static void test_section_bounds(void **state)
{
	static const uint64_t late[] = { 5 * MS, 9 * MS + 400000 };
	struct lat_block *b;
	const struct lat_wakeup_result *r;
	const struct lat_wake_case *c;

	(void)state;
	khugepaged_section(NULL, 0, 1);
	b = run_1ms();
	r = res(b);
	assert_int_equal(r->nstalls_total, 1);
	assert_stall(&r->stalls[0], 0, LAT_STALL_OWED, 1 * MS + 21000, 11 * MS);
	c = case_of(r, 900);
	assert_int_equal(c->verdict.kind, LAT_VERDICT_STALL);
	assert_int_equal(b->probe->worst[0].verdict, LAT_VERDICT_STALL);
	lat_block_free(b);

	nev = 0;
	khugepaged_section(late, 2, 1);
	b = run_1ms();
	r = res(b);
	assert_int_equal(r->nstalls_total, 1);
	assert_stall(&r->stalls[0], 0, LAT_STALL_OWED, 5 * MS + 10000, 9 * MS + 400000);
	lat_block_free(b);
}

static void test_probe_due(void **state)
{
	struct lat_block *b;
	const struct lat_wakeup_result *r;
	const struct lat_wake_stall *s;
	const struct lat_wake_case *c;
	struct lat_analyze_opts o;

	(void)state;
	probe_silence(11 * (int64_t)MS + 50000);
	lat_analyze_opts_init(&o);
	o.threshold_ns = 1 * MS;	/* C and D are judged as they end */
	b = run_opts(&o);
	r = res(b);
	assert_int_equal(r->nstalls_total, 1);
	s = &r->stalls[0];
	assert_int_equal(s->cpu, -1);
	assert_int_equal(s->due, LAT_STALL_PROBE);
	assert_int_equal(s->from_ns, 1 * MS);
	assert_int_equal(s->to_ns, 12 * MS);
	assert_int_equal(s->waiting_pid, 900);
	assert_int_equal(s->probe_ns, 11 * MS + 50000);
	assert_non_null(finding(b, "stall", "every CPU logged nothing for 11 ms (0.001000000 .. "
				"0.012000000) while the sample of latscope/900 was due (it measured "
				"11.1 ms)"));	/* 3 digits */
	/* C waited 0.5..13 ms: 11 ms of it in the stall, hog2 ran 1.5 ms */
	c = case_of(r, 100);
	assert_int_equal(c->latency_ns, 12 * MS + MS / 2);
	assert_int_equal(c->stall_ns, 11 * MS);
	assert_int_equal(c->verdict.kind, LAT_VERDICT_STALL);
	/* D waited 12.01..14 ms behind hog2, after the stall: hog2's time, not a stall */
	c = case_of(r, 110);
	assert_int_equal(c->latency_ns, 2 * MS - 10000);
	assert_int_equal(c->stall_ns, 0);
	assert_int_equal(c->verdict.kind, LAT_VERDICT_CPU_SATURATED);
	/* both judged as they ended, with the same verdicts */
	assert_int_equal(r->verdicts_above[LAT_VERDICT_STALL], 1);
	/* the probe section says so too: 11 ms of its 11.05 ms sample in the stall */
	assert_non_null(b->probe);
	assert_true(b->probe->nworst >= 1);
	assert_int_equal(b->probe->worst[0].lat_ns, 11 * MS + 50000);
	assert_int_equal(b->probe->worst[0].stall_ns, 11 * MS);
	lat_block_free(b);
}

/*
 * The same silence, the sample 3 ms late: its timer was due at 9.05 ms, so the
 * stall is 9.05..12 ms.  1.5 ms late: due at 10.55 ms, 1.45 ms of silence
 * left, no stall.  A gap probe's 11 ms sample: no stall (a hog keeps a fair
 * busy loop off its CPU as long).
 */
static void test_probe_due_part(void **state)
{
	struct lat_block *b;
	const struct lat_wakeup_result *r;

	(void)state;
	probe_silence(3 * (int64_t)MS);
	b = run();
	r = res(b);
	assert_int_equal(r->nstalls_total, 1);
	assert_int_equal(r->stalls[0].from_ns, 9 * MS + 50000);
	assert_int_equal(r->stalls[0].to_ns, 12 * MS);
	lat_block_free(b);
	nev = 0;
	probe_silence(MS + MS / 2);
	b = run();
	assert_int_equal(res(b)->nstalls_total, 0);
	lat_block_free(b);
	nev = 0;
	probe_kind = "gap";
	probe_silence(11 * (int64_t)MS + 50000);
	probe_kind = "timer";
	b = run();
	assert_int_equal(res(b)->nstalls_total, 0);
	lat_block_free(b);
}


/*
 * CPU0's first four exits from idle are seen only by x/70's markers (no switch
 * out of idle): its events are incomplete from the 4th (docs/wakeup.md, "Trace
 * health").  Before 100 us.
 */
static void incomplete_cpu0(void)
{
	for (uint64_t t = 1000; t < 5000; t += 1000) {
		sw(t, 0, 70, "x", LAT_TS_SLEEPING, 0, "swapper/0");
		add(t + 500, 0, 70, "x", LAT_EV_MARKER);
	}
}

/*
 * A (200) runs on CPU0, takes the tick (0xb0) at 1 ms, arms its sleep
 * (hrtimer_wakeup, 0xa0) for @due_at in the trace clock (expires @due_at -
 * OFF) and sleeps at 1.002 ms: hog (50) runs, and CPU0 logs nothing until the
 * callback at @fire_at wakes A.  CPU1 runs hog2 (60) and, when @busy, logs a
 * marker every ms until 10 ms: then only CPU0 is silent.
 */
static struct lat_block *timer_sleep(uint64_t due_at, uint64_t fire_at, int busy)
{
	sw(100000, 0, 0, "swapper/0", LAT_TS_RUNNING, 200, "A");
	sw(100100, 1, 0, "swapper/1", LAT_TS_RUNNING, 60, "hog2");
	tentry(MS, 0, 200, "A", 0xb0, "tick_nohz_handler", (int64_t)(MS - OFF));
	texit(MS + 500, 0, 200, "A", 0xb0);
	tstart(MS + 1000, 0, 200, "A", 0xa0, "hrtimer_wakeup", (int64_t)(due_at - OFF),
	       (int64_t)(due_at - OFF));
	sw(MS + 2000, 0, 200, "A", LAT_TS_SLEEPING, 50, "hog");
	for (uint64_t t = MS + MS / 2; busy && t < fire_at; t += MS)
		add(t, 1, 60, "hog2", LAT_EV_MARKER);
	tentry(fire_at, 0, 50, "hog", 0xa0, "hrtimer_wakeup", (int64_t)(fire_at - OFF));
	wake(fire_at + 500, 0, 50, "hog", LAT_EV_WAKING, 200, "A", 0);
	evs[nev - 1].flags = HARD;
	texit(fire_at + 1000, 0, 50, "hog", 0xa0);
	sw(fire_at + 2000, 0, 50, "hog", LAT_TS_RUNNING, 200, "A");
	add(fire_at + 3000, 1, 60, "hog2", LAT_EV_MARKER);
	return run();
}

/*
 * A's timer was due at 2 ms; CPU0 logged nothing from 1.002 ms until its
 * callback at 5 ms: 3 ms past the expiry (more than the 2 ms margin), a stall
 * of CPU0 from the expiry to the callback, due to the timer, naming the
 * sleeper.  Nothing was owed (A was asleep, hog fair) and no task queued.
 */
static void test_timer_due(void **state)
{
	struct lat_block *b = timer_sleep(2 * MS, 5 * MS, 1);
	const struct lat_wakeup_result *r = res(b);
	const struct lat_wake_stall *s = &r->stalls[0];

	(void)state;
	assert_int_equal(r->nstalls_total, 1);
	assert_stall(s, 0, LAT_STALL_TIMER, 2 * MS, 5 * MS);
	assert_int_equal(s->pid, 50);
	assert_int_equal(s->waiting_pid, 200);
	assert_string_equal(s->waiting_comm, "A");
	assert_string_equal(s->timer_fn, "hrtimer_wakeup");
	assert_int_equal(s->timer_pid, 200);
	assert_int_equal(r->stall_ns_total, 3 * MS);
	assert_non_null(finding(b, "stall", "CPU0 logged nothing for 3 ms (0.002000000 .. "
				"0.005000000) after the timer of A/200 (hrtimer_wakeup) was due: "
				"stall?"));
	lat_block_free(b);
}

/*
 * The margin: a callback 2 ms after its expiry (silence 1.002 .. 4 ms) is a
 * stall of 2 ms; 1 ns earlier it is a timer late by less than the margin (an
 * idle vCPU woken late), no stall.
 */
static void test_timer_due_margin(void **state)
{
	struct lat_block *b = timer_sleep(2 * MS, 4 * MS, 1);

	(void)state;
	assert_int_equal(res(b)->nstalls_total, 1);
	assert_int_equal(res(b)->stalls[0].to_ns - res(b)->stalls[0].from_ns, 2 * MS);
	lat_block_free(b);
	nev = 0;
	b = timer_sleep(2 * MS, 4 * MS - 1, 1);
	assert_int_equal(res(b)->nstalls_total, 0);
	lat_block_free(b);
}

/*
 * Nothing due: the timer armed for 6 ms fires early at 5 ms (its slack), so
 * the 4 ms silence had no expiry in it; and on a CPU whose events are
 * incomplete the same stall as test_timer_due is not claimed.
 */
static void test_timer_not_due(void **state)
{
	struct lat_block *b = timer_sleep(6 * MS, 5 * MS, 1);

	(void)state;
	assert_int_equal(res(b)->nstalls_total, 0);
	lat_block_free(b);
	nev = 0;
	incomplete_cpu0();
	b = timer_sleep(2 * MS, 5 * MS, 1);
	assert_int_equal(res(b)->health[0].incomplete, LAT_HEALTH_IDLE_EXITS);
	assert_int_equal(res(b)->nstalls_total, 0);
	lat_block_free(b);
}

/*
 * Every CPU silent (CPU1 logs nothing from 100.1 us): with A's timer due on
 * CPU0 at 2 ms it is a stall of every CPU from the expiry to CPU0's callback
 * at 5 ms; CPU0's own silence is that same stall, not recorded twice.
 */
static void test_timer_due_every_cpu(void **state)
{
	struct lat_block *b = timer_sleep(2 * MS, 5 * MS, 0);
	const struct lat_wakeup_result *r = res(b);

	(void)state;
	assert_int_equal(r->nstalls_total, 1);
	assert_stall(&r->stalls[0], -1, LAT_STALL_TIMER, 2 * MS, 5 * MS);
	assert_int_equal(r->stalls[0].waiting_pid, 200);
	assert_non_null(finding(b, "stall", "every CPU logged nothing for 3 ms"));
	lat_block_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_queued, reset),
		cmocka_unit_test_setup(test_queued_within_bound, reset),
		cmocka_unit_test_setup(test_queued_far_priority, reset),
		cmocka_unit_test_setup(test_queued_behind_rt, reset),
		cmocka_unit_test_setup(test_queued_behind_raised_rt, reset),
		cmocka_unit_test_setup(test_queued_late, reset),
		cmocka_unit_test_setup(test_wakeup_due, reset),
		cmocka_unit_test_setup(test_wakeup_not_due, reset),
		cmocka_unit_test_setup(test_steal, reset),
		cmocka_unit_test_setup(test_nonpreemptible_section, reset),
		cmocka_unit_test_setup(test_section_bounds, reset),
		cmocka_unit_test_setup(test_probe_due, reset),
		cmocka_unit_test_setup(test_probe_due_part, reset),
		cmocka_unit_test_setup(test_timer_due, reset),
		cmocka_unit_test_setup(test_timer_due_margin, reset),
		cmocka_unit_test_setup(test_timer_not_due, reset),
		cmocka_unit_test_setup(test_timer_due_every_cpu, reset),
	};

	return cmocka_run_group_tests(tests, NULL, release_events);
}
