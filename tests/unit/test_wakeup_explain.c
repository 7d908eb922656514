// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The wakeup analysis' explanations over hand-built event sequences: waker
 * context, machine stalls, phantom waits, scheduling classes, task selection.
 * Every expected number is the difference of timestamps written in the test
 * (noted beside).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "latscope/env.h"
#include "latscope/report.h"
#include "report_priv.h"
#include "ftrace_text.h"
#include "wakeup_test_util.h"

static void irq(uint64_t ts, int cpu, int cur, const char *cc, enum lat_ev_type type, int nr,
		const char *name)
{
	struct lat_event *e = add(ts, cpu, cur, cc, type);

	e->u.irq.irq = nr;
	e->u.irq.name = name;
}

static const struct lat_wakeup_result *res(const struct lat_block *b)
{
	return b->analysis;
}

/* The text report of @b into a malloc'ed string. */
static char *report_text(const struct lat_block *b, const struct lat_analyze_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	rp_report_wakeup_text(f, b, o);
	fclose(f);
	return buf;
}

/*
 * A waking inside a hard irq while hog (50) runs on CPU0: the event's flags
 * say hardirq although no irq event was recorded.  hog had waited before (its
 * wait 10..20), which must not become A's chain.  A waits 1000..1600 (600).
 */
static void test_waker_irq_from_flags(void **state)
{
	struct lat_block *b;
	const struct lat_wake_case *c;
	struct lat_analyze_opts o;
	char *txt;

	(void)state;
	sw(5, 0, 50, "hog", LAT_TS_SLEEPING, 0, "swapper/0");
	sw(6, 1, 100, "A", LAT_TS_SLEEPING, 0, "swapper/1");
	wake(10, 0, 0, "swapper/0", LAT_EV_WAKING, 50, "hog", 0);
	sw(20, 0, 0, "swapper/0", LAT_TS_SLEEPING, 50, "hog");
	wake(1000, 0, 50, "hog", LAT_EV_WAKING, 100, "A", 0);
	evs[nev - 1].flags = LAT_EVF_KNOWN | LAT_EVF_HARDIRQ;
	sw(1600, 0, 50, "hog", LAT_TS_RUNNING, 100, "A");
	lat_analyze_opts_init(&o);
	b = run_opts(&o);
	c = &res(b)->worst[0];
	assert_int_equal(c->pid, 100);
	assert_int_equal(c->latency_ns, 600);
	assert_int_equal(c->waker.ctx, LAT_WAKE_CTX_IRQ);
	assert_int_equal(c->waker.irq, -1);
	assert_int_equal(c->waker.pid, 50);	/* the interrupted task */
	assert_int_equal(c->nchain, 0);		/* hog's own wait is not why A was late */
	txt = report_text(b, &o);
	assert_non_null(strstr(txt, "woken by irq (no irq events recorded to name it) on CPU0, "
				    "interrupting hog/50"));
	free(txt);
	lat_block_free(b);
}

/*
 * x86's irq_vectors events name the irq: A is woken at 1000 inside
 * local_timer (entry 990, exit 1010) with no timer events; the irq is named
 * "local_timer", and its 10 ns inside the wait (1000..1010) are in the case's
 * irqs.  A waits 1000..1600.
 */
static void test_waker_irq_vector(void **state)
{
	struct lat_block *b;
	const struct lat_wake_case *c;

	(void)state;
	sw(5, 0, 50, "hog", LAT_TS_SLEEPING, 0, "swapper/0");
	sw(6, 1, 100, "A", LAT_TS_SLEEPING, 0, "swapper/1");
	wake(10, 0, 0, "swapper/0", LAT_EV_WAKING, 50, "hog", 0);
	sw(20, 0, 0, "swapper/0", LAT_TS_SLEEPING, 50, "hog");
	add(990, 0, 50, "hog", LAT_EV_OTHER)->name = "irq_vectors:local_timer_entry";
	wake(1000, 0, 50, "hog", LAT_EV_WAKING, 100, "A", 0);
	evs[nev - 1].flags = LAT_EVF_KNOWN | LAT_EVF_HARDIRQ;
	add(1010, 0, 50, "hog", LAT_EV_OTHER)->name = "irq_vectors:local_timer_exit";
	sw(1600, 0, 50, "hog", LAT_TS_RUNNING, 100, "A");
	b = run();
	c = &res(b)->worst[0];
	assert_int_equal(c->pid, 100);
	assert_int_equal(c->latency_ns, 600);
	assert_int_equal(c->waker.ctx, LAT_WAKE_CTX_IRQ);
	assert_string_equal(c->waker.irq_name, "local_timer");
	assert_int_equal(c->nirqs, 1);
	assert_string_equal(c->irqs[0].name, "local_timer");
	assert_int_equal(c->irqs[0].ns, 10);	/* 1000..1010 inside the wait */
	lat_block_free(b);
}

/*
 * cyclictest's case: hrtimer_wakeup expires inside the timer irq (vector 236,
 * no irq_handler event) on CPU1 while stress (70) runs; the waking has the
 * hardirq flag.  C waits 2000..2300 (300).
 */
static void test_waker_hrtimer(void **state)
{
	struct lat_block *b;
	const struct lat_wake_case *c;
	struct lat_analyze_opts o;
	struct lat_event *e;
	char *txt;

	(void)state;
	sw(5, 1, 200, "C", LAT_TS_SLEEPING, 70, "stress");
	e = add(1990, 1, 70, "stress", LAT_EV_TIMER_ENTRY);
	e->flags = LAT_EVF_KNOWN | LAT_EVF_HARDIRQ;
	e->u.irq.irq = -1;
	e->u.irq.name = "hrtimer_wakeup";
	wake(2000, 1, 70, "stress", LAT_EV_WAKING, 200, "C", 1);
	evs[nev - 1].flags = LAT_EVF_KNOWN | LAT_EVF_HARDIRQ;
	e = add(2010, 1, 70, "stress", LAT_EV_TIMER_EXIT);
	e->flags = LAT_EVF_KNOWN | LAT_EVF_HARDIRQ;
	sw(2300, 1, 70, "stress", LAT_TS_RUNNING, 200, "C");
	lat_analyze_opts_init(&o);
	b = run_opts(&o);
	c = &res(b)->worst[0];
	assert_int_equal(c->latency_ns, 300);
	assert_int_equal(c->waker.ctx, LAT_WAKE_CTX_IRQ);
	assert_int_equal(c->waker.timer, 1);
	assert_string_equal(c->waker.irq_name, "hrtimer_wakeup");
	assert_string_equal(lat_wake_irq_label(&c->waker), "hrtimer_wakeup");
	txt = report_text(b, &o);
	assert_non_null(strstr(txt, "woken by irq (hrtimer hrtimer_wakeup) on CPU1, "
				    "interrupting stress/70"));
	free(txt);
	lat_block_free(b);
}

/*
 * The flags win over a stale open irq: irq 24 entered at 100 and its exit was
 * not recorded; the waking at 500 says task context, so the task woke D.
 * An NMI waking is its own context.
 */
static void test_waker_flags_over_stale_irq(void **state)
{
	struct lat_block *b;
	const struct lat_wakeup_result *r;

	(void)state;
	sw(5, 0, 300, "D", LAT_TS_SLEEPING, 80, "W");
	sw(6, 1, 400, "N", LAT_TS_SLEEPING, 0, "swapper/1");
	irq(100, 0, 80, "W", LAT_EV_IRQ_ENTRY, 24, "eth0");
	wake(500, 0, 80, "W", LAT_EV_WAKING, 300, "D", 0);
	evs[nev - 1].flags = LAT_EVF_KNOWN;
	wake(600, 1, 0, "swapper/1", LAT_EV_WAKING, 400, "N", 1);
	evs[nev - 1].flags = LAT_EVF_KNOWN | LAT_EVF_NMI | LAT_EVF_HARDIRQ;
	sw(700, 1, 0, "swapper/1", LAT_TS_RUNNING, 400, "N");	/* 100 */
	sw(900, 0, 80, "W", LAT_TS_SLEEPING, 300, "D");	/* 400 */
	b = run();
	r = res(b);
	assert_int_equal(r->nworst, 2);
	assert_int_equal(r->worst[0].pid, 300);
	assert_int_equal(r->worst[0].latency_ns, 400);
	assert_int_equal(r->worst[0].waker.ctx, LAT_WAKE_CTX_TASK);
	assert_int_equal(r->worst[0].waker.pid, 80);
	assert_int_equal(r->worst[1].latency_ns, 100);
	assert_int_equal(r->worst[1].waker.ctx, LAT_WAKE_CTX_NMI);
	lat_block_free(b);
}

#define MS 1000000ull

/*
 * A FIFO task (prio 19) woken at 1 ms for idle CPU1, which logs nothing until
 * its switch at 4 ms: a CPU1 stall of 3 ms.  CPU0 logs at 2 and 3 ms, so the
 * machine was never silent for 2 ms.  The wait (3 ms) is all stall: idle is
 * charged nothing.
 */
static void test_stall_cpu(void **state)
{
	struct lat_block *b;
	const struct lat_wakeup_result *r;
	const struct lat_wake_case *c;
	struct lat_analyze_opts o;
	char *txt;

	(void)state;
	sw(10, 0, 0, "swapper/0", LAT_TS_RUNNING, 50, "hog");
	sw(11, 1, 100, "A", LAT_TS_SLEEPING, 0, "swapper/1");
	wake(1 * MS, 0, 50, "hog", LAT_EV_WAKING, 100, "A", 1);
	evs[nev - 1].u.wake.prio = 19;
	add(2 * MS, 0, 50, "hog", LAT_EV_MARKER);
	add(3 * MS, 0, 50, "hog", LAT_EV_MARKER);
	sw(4 * MS, 1, 0, "swapper/1", LAT_TS_RUNNING, 100, "A");
	lat_analyze_opts_init(&o);
	b = run_opts(&o);
	r = res(b);
	assert_int_equal(r->nstalls, 1);
	assert_int_equal(r->stalls[0].cpu, 1);
	assert_int_equal(r->stalls[0].from_ns, 1 * MS);
	assert_int_equal(r->stalls[0].to_ns, 4 * MS);
	assert_int_equal(r->stalls[0].waiting_pid, 100);
	c = &r->worst[0];
	assert_int_equal(c->latency_ns, 3 * MS);
	assert_int_equal(c->stall_ns, 3 * MS);
	assert_int_equal(c->nstalls, 1);
	assert_int_equal(c->non_cpu, 0);		/* idle is charged nothing */
	assert_int_equal(c->unaccounted_ns, 0);
	txt = report_text(b, &o);
	assert_non_null(strstr(txt, "no events: stall? 3 ms (100%)"));
	assert_int_equal(c->verdict.kind, LAT_VERDICT_STALL);
	assert_non_null(strstr(txt, "  1. stall (100%): no events on CPU1 for 3 ms of the wait"));
	assert_non_null(strstr(txt, "CPU1 logged nothing for 3 ms"));
	free(txt);
	lat_block_free(b);
}

/*
 * Both CPUs run CFS hogs; a FIFO task is woken for CPU1 at 1 ms and nothing is
 * logged anywhere until its switch at 6 ms: one every-CPU stall of 5 ms (CPU1's
 * own silence is that stall, not a second one).  hog2 is charged nothing.
 * A longer silence after a CFS waking (no switch owed) is no stall.
 */
static void test_stall_all(void **state)
{
	struct lat_block *b;
	const struct lat_wakeup_result *r;
	const struct lat_wake_case *c;

	(void)state;
	sw(10, 0, 0, "swapper/0", LAT_TS_RUNNING, 50, "hog");
	sw(11, 1, 100, "A", LAT_TS_SLEEPING, 60, "hog2");
	wake(1 * MS, 0, 50, "hog", LAT_EV_WAKING, 100, "A", 1);
	evs[nev - 1].u.wake.prio = 19;
	sw(6 * MS, 1, 60, "hog2", LAT_TS_RUNNING, 100, "A");
	sw(6 * MS + 10, 1, 100, "A", LAT_TS_SLEEPING, 60, "hog2");
	wake(7 * MS, 0, 50, "hog", LAT_EV_WAKING, 100, "A", 1);	/* prio 120 */
	sw(13 * MS, 1, 60, "hog2", LAT_TS_RUNNING, 100, "A");
	b = run();
	r = res(b);
	assert_int_equal(r->nstalls, 1);
	assert_int_equal(r->stalls[0].cpu, -1);
	assert_int_equal(r->stalls[0].from_ns, 1 * MS);
	assert_int_equal(r->stalls[0].to_ns, 6 * MS);
	assert_int_equal(r->nworst, 2);
	/* the CFS wait 7..13 ms: hog2 ran, no stall */
	c = &r->worst[0];
	assert_int_equal(c->latency_ns, 6 * MS);
	assert_int_equal(c->start_ns, 7 * MS);
	assert_int_equal(c->stall_ns, 0);
	assert_int_equal(c->on_cpu[0].pid, 60);
	assert_int_equal(c->on_cpu[0].ns, 6 * MS);
	/* the FIFO wait 1..6 ms: all stall */
	c = &r->worst[1];
	assert_int_equal(c->start_ns, 1 * MS);
	assert_int_equal(c->stall_ns, 5 * MS);
	assert_int_equal(c->non_cpu, 0);
	lat_block_free(b);
}

/*
 * The idle machine's "waited 8.594 s": A is woken at 1000, 2000 and 3000 with
 * no switch of it between (the kernel traces a waking only of a sleeping task:
 * it ran twice unseen), and runs at 3500.  Two waits are untrusted and not
 * counted; the one wait counted is 3000..3500 (500), not 2500.  B, woken at
 * 4000, is seen running at 4200 (a marker under its pid): untrusted as well.
 * C has only sched_wakeup events: a second one at 6000 ends the first.
 */
static void test_phantom(void **state)
{
	struct lat_block *b;
	const struct lat_wakeup_result *r;

	(void)state;
	sw(5, 0, 100, "A", LAT_TS_SLEEPING, 50, "hog");
	sw(6, 1, 200, "B", LAT_TS_SLEEPING, 300, "C");
	sw(7, 1, 300, "C", LAT_TS_SLEEPING, 0, "swapper/1");
	wake(1000, 1, 0, "swapper/1", LAT_EV_WAKING, 100, "A", 0);
	wake(2000, 1, 0, "swapper/1", LAT_EV_WAKING, 100, "A", 0);
	wake(3000, 1, 0, "swapper/1", LAT_EV_WAKING, 100, "A", 0);
	sw(3500, 0, 50, "hog", LAT_TS_RUNNING, 100, "A");
	wake(4000, 0, 100, "A", LAT_EV_WAKING, 200, "B", 1);
	add(4200, 1, 200, "B", LAT_EV_MARKER);
	sw(4300, 1, 200, "B", LAT_TS_SLEEPING, 0, "swapper/1");
	wake(5000, 0, 100, "A", LAT_EV_WAKEUP, 300, "C", 1);
	wake(6000, 0, 100, "A", LAT_EV_WAKEUP, 300, "C", 1);
	sw(6100, 1, 0, "swapper/1", LAT_TS_RUNNING, 300, "C");
	b = run();
	r = res(b);
	assert_int_equal(r->untrusted_waits, 4);	/* A twice, B, C */
	assert_int_equal(r->first_untrusted_ns, 2000);
	assert_int_equal(r->waits, 2);			/* A 3000..3500, C 6000..6100 */
	assert_int_equal(r->all.max, 500);
	assert_int_equal(r->nworst, 2);
	assert_int_equal(r->worst[0].pid, 100);
	assert_int_equal(r->worst[0].start_ns, 3000);
	assert_int_equal(r->worst[1].pid, 300);
	assert_int_equal(r->worst[1].latency_ns, 100);
	assert_int_equal(r->canceled, 0);
	lat_block_free(b);
}

static struct lat_event *flagged(struct lat_event *e, uint16_t flags)
{
	e->flags = flags;
	return e;
}

/*
 * Inferred switch-ins (docs/wakeup.md): P is woken at 1000 on idle CPU1 (in an
 * irq), the idle task logs its last event at 1100, P's own marker in task
 * context at 1300 shows it running: the wait ends there, 300, no earlier than
 * 1100.  Q, woken at 2000 for CPU0 where hog runs (hog logs at 2050), switches
 * out at 2300 with no switch in: 300, no earlier than 2050.  R's first event
 * (3100) is in an irq, S's (4100) has no context: both untrusted as before.
 * T, woken at 5000 for CPU0, switches out there at 5200 with no event of hog
 * since the waking (CPU0's last at 2300): T may have run all along, canceled.
 */
static void test_inferred(void **state)
{
	const uint16_t task = LAT_EVF_KNOWN, hard = LAT_EVF_KNOWN | LAT_EVF_HARDIRQ;
	struct lat_block *b;
	const struct lat_wakeup_result *r;

	(void)state;
	sw(5, 1, 200, "P", LAT_TS_SLEEPING, 0, "swapper/1");
	sw(6, 0, 300, "Q", LAT_TS_SLEEPING, 50, "hog");
	wake(1000, 1, 0, "swapper/1", LAT_EV_WAKING, 200, "P", 1);
	flagged(&evs[nev - 1], hard);
	flagged(add(1100, 1, 0, "swapper/1", LAT_EV_IRQ_EXIT), hard);
	flagged(add(1300, 1, 200, "P", LAT_EV_MARKER), task);
	sw(1400, 1, 200, "P", LAT_TS_SLEEPING, 0, "swapper/1");
	flagged(&evs[nev - 1], task);
	wake(2000, 0, 50, "hog", LAT_EV_WAKING, 300, "Q", 0);
	flagged(&evs[nev - 1], task);
	flagged(add(2050, 0, 50, "hog", LAT_EV_MARKER), task);
	sw(2300, 0, 300, "Q", LAT_TS_SLEEPING, 50, "hog");
	flagged(&evs[nev - 1], task);
	wake(3000, 1, 0, "swapper/1", LAT_EV_WAKING, 400, "R", 1);
	flagged(&evs[nev - 1], hard);
	flagged(add(3100, 1, 400, "R", LAT_EV_MARKER), hard);
	sw(3200, 1, 400, "R", LAT_TS_SLEEPING, 0, "swapper/1");
	wake(4000, 1, 0, "swapper/1", LAT_EV_WAKING, 500, "S", 1);
	flagged(&evs[nev - 1], hard);
	add(4100, 1, 500, "S", LAT_EV_MARKER);
	sw(4200, 1, 500, "S", LAT_TS_SLEEPING, 0, "swapper/1");
	wake(5000, 1, 0, "swapper/1", LAT_EV_WAKING, 600, "T", 0);
	flagged(&evs[nev - 1], hard);
	sw(5200, 0, 600, "T", LAT_TS_SLEEPING, 50, "hog");
	flagged(&evs[nev - 1], task);
	b = run();
	r = res(b);
	assert_int_equal(r->inferred_waits, 2);
	assert_int_equal(r->first_inferred_ns, 1300);
	assert_int_equal(r->waits, 2);
	assert_int_equal(r->untrusted_waits, 2);	/* R, S */
	assert_int_equal(r->canceled, 1);		/* T */
	assert_int_equal(r->nworst, 2);
	for (size_t i = 0; i < 2; i++) {
		const struct lat_wake_case *c = &r->worst[i];

		assert_int_equal(c->latency_ns, 300);
		assert_true(c->inferred_end);
		assert_int_equal(c->end_low_ns, c->pid == 200 ? 1100 : 2050);
		assert_int_equal(c->end_ns, c->pid == 200 ? 1300 : 2300);
	}
	lat_block_free(b);
}

/*
 * Verdicts over every wait of the threshold (100) or more, beyond the worst N
 * (1): A waits 1000..1500 while hog (same class) runs: cpu-saturated; B
 * 2000..2300 on idle CPU1: idle; C 3000..3400 while R (SCHED_FIFO 89) runs:
 * higher-priority; E 5000..5400 on idle CPU1 with an irq 5000..5300 (over
 * half): irq-softirq.  D's 50 is under the threshold; hog's preemption wait is
 * not a wakeup wait.  The one case shown is A's.
 */
static void test_verdicts_above(void **state)
{
	struct lat_block *b;
	const struct lat_wakeup_result *r;
	struct lat_analyze_opts o;
	char *txt;

	(void)state;
	sw(5, 0, 100, "A", LAT_TS_SLEEPING, 50, "hog");
	sw(6, 1, 200, "B", LAT_TS_SLEEPING, 0, "swapper/1");
	wake(1000, 1, 0, "swapper/1", LAT_EV_WAKING, 100, "A", 0);
	sw(1500, 0, 50, "hog", LAT_TS_RUNNING, 100, "A");
	wake(2000, 0, 100, "A", LAT_EV_WAKING, 200, "B", 1);
	sw(2300, 1, 0, "swapper/1", LAT_TS_RUNNING, 200, "B");
	sw(2900, 0, 100, "A", LAT_TS_SLEEPING, 400, "R");
	evs[nev - 1].u.sw.next_prio = 10;
	wake(3000, 1, 200, "B", LAT_EV_WAKING, 300, "C", 0);
	sw(3400, 0, 400, "R", LAT_TS_SLEEPING, 300, "C");
	evs[nev - 1].u.sw.prev_prio = 10;
	sw(4000, 1, 200, "B", LAT_TS_SLEEPING, 0, "swapper/1");
	wake(5000, 0, 300, "C", LAT_EV_WAKING, 500, "E", 1);
	irq(5000, 1, 0, "swapper/1", LAT_EV_IRQ_ENTRY, 5, "eth");
	irq(5300, 1, 0, "swapper/1", LAT_EV_IRQ_EXIT, 5, "eth");
	sw(5400, 1, 0, "swapper/1", LAT_TS_RUNNING, 500, "E");
	wake(6000, 1, 500, "E", LAT_EV_WAKING, 600, "D", 0);
	sw(6050, 0, 300, "C", LAT_TS_SLEEPING, 600, "D");
	lat_analyze_opts_init(&o);
	o.threshold_ns = 100;
	o.worst_n = 1;
	b = run_opts(&o);
	r = res(b);
	assert_int_equal(r->nworst, 1);
	assert_int_equal(r->worst[0].pid, 100);
	assert_int_equal(r->worst[0].verdict.kind, LAT_VERDICT_CPU_SATURATED);
	assert_int_equal(r->above, 4);
	assert_int_equal(r->verdicts_above[LAT_VERDICT_CPU_SATURATED], 1);
	assert_int_equal(r->verdicts_above[LAT_VERDICT_IDLE], 1);
	assert_int_equal(r->verdicts_above[LAT_VERDICT_HIGHER_PRIORITY], 1);
	assert_int_equal(r->verdicts_above[LAT_VERDICT_IRQ], 1);
	txt = report_text(b, &o);
	assert_non_null(strstr(txt, "verdicts of the 4 waits of 100 ns or more: cpu-saturated 1, "
				    "higher-priority 1, irq-softirq 1, idle 1"));
	free(txt);
	lat_block_free(b);
}

/*
 * A wait that starts inside a handler counts only its own part of it, in the
 * case and in the verdict sums alike (one verdict per wait).  Idle CPU0: the
 * TIMER softirq 1000..1320 wakes K (700) at 1270, SCHED runs 1330..1400; W
 * (800) runs 1500..1700, then K.  K's wait 1270..1700 (430): idle 1270..1500
 * (230), W 200, irqs inside it 1320-1270 + 1400-1330 = 120: idle.  The sums
 * once charged the whole TIMER softirq (320 + 70 = 390 > 230): irq-softirq.
 */
static void test_verdict_irq_open_at_start(void **state)
{
	const struct lat_wakeup_result *r;
	struct lat_analyze_opts o;
	struct lat_block *b;

	(void)state;
	sw(5, 0, 700, "K", LAT_TS_SLEEPING, 0, "swapper/0");
	irq(1000, 0, 0, "swapper/0", LAT_EV_SOFTIRQ_ENTRY, 1, "TIMER");
	wake(1260, 0, 0, "swapper/0", LAT_EV_WAKING, 800, "W", 0);
	wake(1270, 0, 0, "swapper/0", LAT_EV_WAKING, 700, "K", 0);
	irq(1320, 0, 0, "swapper/0", LAT_EV_SOFTIRQ_EXIT, 1, "TIMER");
	irq(1330, 0, 0, "swapper/0", LAT_EV_SOFTIRQ_ENTRY, 7, "SCHED");
	irq(1400, 0, 0, "swapper/0", LAT_EV_SOFTIRQ_EXIT, 7, "SCHED");
	sw(1500, 0, 0, "swapper/0", LAT_TS_RUNNING, 800, "W");
	sw(1700, 0, 800, "W", LAT_TS_SLEEPING, 700, "K");
	lat_analyze_opts_init(&o);
	o.threshold_ns = 300;
	o.worst_n = 1;
	b = run_opts(&o);
	r = res(b);
	assert_int_equal(r->nworst, 1);
	assert_int_equal(r->worst[0].pid, 700);
	assert_int_equal(r->worst[0].latency_ns, 430);
	assert_int_equal(r->worst[0].verdict.kind, LAT_VERDICT_IDLE);
	assert_int_equal(r->above, 1);
	assert_int_equal(r->verdicts_above[LAT_VERDICT_IDLE], 1);
	assert_int_equal(r->verdicts_above[LAT_VERDICT_IRQ], 0);
	lat_block_free(b);
}

/*
 * cyclictest's threads share the comm: the main thread (10, SCHED_OTHER) waits
 * 1000..3000 (2000), the measuring thread (11, prio 19 = SCHED_FIFO 80) waits
 * 4000..4500 (500); x (12) is not cyclictest.  --task cyclictest selects both
 * (the main thread's wait is the worst), --policy rt only the FIFO thread,
 * --min-prio 81 none of them.
 */
static void selection_events(void)
{
	sw(5, 0, 10, "cyclictest", LAT_TS_SLEEPING, 12, "x");
	sw(6, 1, 11, "cyclictest", LAT_TS_SLEEPING, 0, "swapper/1");
	wake(1000, 1, 0, "swapper/1", LAT_EV_WAKING, 10, "cyclictest", 0);
	sw(3000, 0, 12, "x", LAT_TS_SLEEPING, 10, "cyclictest");
	sw(3100, 0, 10, "cyclictest", LAT_TS_SLEEPING, 12, "x");
	wake(4000, 1, 0, "swapper/1", LAT_EV_WAKING, 11, "cyclictest", 0);
	evs[nev - 1].u.wake.prio = 19;
	sw(4500, 0, 12, "x", LAT_TS_RUNNING, 11, "cyclictest");
	evs[nev - 1].u.sw.next_prio = 19;
}

static void test_select_threads(void **state)
{
	struct lat_analyze_opts o;
	struct lat_block *b;
	const struct lat_wakeup_result *r;
	char *txt;

	(void)state;
	selection_events();
	lat_analyze_opts_init(&o);
	o.task = "cyclictest";
	b = run_opts(&o);
	r = res(b);
	assert_true(r->selecting);
	assert_int_equal(r->selected, 2);
	assert_int_equal(r->waits, 2);
	assert_int_equal(r->worst[0].pid, 10);
	assert_int_equal(r->worst[0].latency_ns, 2000);
	txt = report_text(b, &o);
	assert_non_null(strstr(txt, "selected: --task cyclictest: 2 threads with waits matched"));
	free(txt);
	lat_block_free(b);

	o.policy = "rt";
	b = run_opts(&o);
	r = res(b);
	assert_int_equal(r->selected, 1);
	assert_int_equal(r->ntasks, 1);
	assert_int_equal(r->waits, 1);
	assert_int_equal(r->nworst, 1);
	assert_int_equal(r->worst[0].pid, 11);
	assert_int_equal(r->worst[0].latency_ns, 500);
	assert_int_equal(r->all.max, 500);
	lat_block_free(b);

	o.min_prio = 81;
	b = run_opts(&o);
	r = res(b);
	assert_int_equal(r->selected, 0);
	assert_int_equal(r->nworst, 0);
	{
		int found = 0;

		for (size_t i = 0; i < b->nfindings; i++)
			found |= !strcmp(b->findings[i].kind, "no-such-task");
		assert_true(found);
	}
	lat_block_free(b);
}

/*
 * One verdict per cause, each wait alone on CPU0 (times in ns, shares exact):
 * A (fair) behind hog (fair) 1000..2000: cpu-saturated 100%;
 * B (fair) behind rt (prio 49 = FIFO 50) 3000..3400: higher-priority 100%;
 * C (prio 9 = FIFO 90) behind hog 5000..5200: not-preemptible 100%;
 * D (fair) behind hog 7000..8000 with irq 30 running 7100..7700: irq-softirq 60%.
 */
static void test_verdicts(void **state)
{
	struct lat_block *b;
	const struct lat_wakeup_result *r;
	const struct lat_wake_case *c;
	struct lat_analyze_opts o;
	char *txt;

	(void)state;
	sw(5, 1, 101, "A", LAT_TS_SLEEPING, 0, "swapper/1");
	sw(6, 1, 0, "swapper/1", LAT_TS_RUNNING, 102, "B");
	sw(7, 1, 102, "B", LAT_TS_SLEEPING, 0, "swapper/1");
	sw(8, 1, 0, "swapper/1", LAT_TS_RUNNING, 103, "C");
	sw(9, 1, 103, "C", LAT_TS_SLEEPING, 0, "swapper/1");
	sw(10, 1, 0, "swapper/1", LAT_TS_RUNNING, 104, "D");
	sw(11, 1, 104, "D", LAT_TS_SLEEPING, 0, "swapper/1");
	sw(12, 0, 0, "swapper/0", LAT_TS_RUNNING, 50, "hog");
	wake(1000, 0, 50, "hog", LAT_EV_WAKING, 101, "A", 0);
	sw(2000, 0, 50, "hog", LAT_TS_RUNNING, 101, "A");
	sw(2100, 0, 101, "A", LAT_TS_SLEEPING, 60, "rt");
	evs[nev - 1].u.sw.next_prio = 49;
	wake(3000, 0, 60, "rt", LAT_EV_WAKING, 102, "B", 0);
	sw(3400, 0, 60, "rt", LAT_TS_SLEEPING, 102, "B");
	evs[nev - 1].u.sw.prev_prio = 49;
	sw(3500, 0, 102, "B", LAT_TS_SLEEPING, 50, "hog");
	wake(5000, 0, 50, "hog", LAT_EV_WAKING, 103, "C", 0);
	evs[nev - 1].u.wake.prio = 9;
	sw(5200, 0, 50, "hog", LAT_TS_RUNNING, 103, "C");
	evs[nev - 1].u.sw.next_prio = 9;
	sw(5300, 0, 103, "C", LAT_TS_SLEEPING, 50, "hog");
	evs[nev - 1].u.sw.prev_prio = 9;
	wake(7000, 0, 50, "hog", LAT_EV_WAKING, 104, "D", 0);
	irq(7100, 0, 50, "hog", LAT_EV_IRQ_ENTRY, 30, "nvme");
	irq(7700, 0, 50, "hog", LAT_EV_IRQ_EXIT, 30, NULL);
	sw(8000, 0, 50, "hog", LAT_TS_RUNNING, 104, "D");
	lat_analyze_opts_init(&o);
	b = run_opts(&o);
	r = res(b);
	assert_int_equal(r->nworst, 4);
	c = &r->worst[0];	/* A or D: both 1000; A ended first */
	assert_int_equal(c->pid, 101);
	assert_int_equal(c->verdict.kind, LAT_VERDICT_CPU_SATURATED);
	assert_true(c->verdict.share == 1.0);
	assert_non_null(strstr(verdict_text(c), "CPU0 saturated: 1.0 waiting on average, "
				    "1 task of its class ran 1 us"));
	c = &r->worst[1];
	assert_int_equal(c->pid, 104);
	assert_int_equal(c->verdict.kind, LAT_VERDICT_IRQ);
	assert_true(c->verdict.share > 0.599 && c->verdict.share < 0.601);
	c = &r->worst[2];
	assert_int_equal(c->pid, 102);
	assert_int_equal(c->verdict.kind, LAT_VERDICT_HIGHER_PRIORITY);
	assert_non_null(strstr(verdict_text(c), "rt/60 SCHED_FIFO 50 ran 400 ns"));
	c = &r->worst[3];
	assert_int_equal(c->pid, 103);
	assert_int_equal(c->verdict.kind, LAT_VERDICT_NOT_PREEMPTIBLE);
	assert_non_null(strstr(verdict_text(c), "hog/50 SCHED_OTHER nice 0 ran 200 ns"));
	txt = report_text(b, &o);
	assert_non_null(strstr(txt, "verdicts of the 4 worst: cpu-saturated 1, higher-priority 1, "
				    "not-preemptible 1, irq-softirq 1\n"));
	assert_non_null(strstr(txt, "  1. cpu-saturated (100%): CPU0 saturated: 1.0 waiting"));
	free(txt);
	lat_block_free(b);
}

/*
 * R (prio 9 = FIFO 90) is woken at 1000 and again at 10000 while hog (fair)
 * runs on CPU0; hog leaves the CPU at 1500 (500 ns: under 100 us, nothing) and
 * at 160000 (150 us: a priority inversion).  R's last switch-out is at
 * SCHED_OTHER (it dropped its class at exit): it is still a real-time thread.
 */
static void test_inversion(void **state)
{
	struct lat_block *b;
	const struct lat_wakeup_result *r;
	struct lat_analyze_opts o;
	char *txt;

	(void)state;
	sw(5, 0, 200, "R", LAT_TS_SLEEPING, 50, "hog");
	evs[nev - 1].u.sw.prev_prio = 9;
	wake(1000, 1, 0, "swapper/1", LAT_EV_WAKING, 200, "R", 0);
	evs[nev - 1].u.wake.prio = 9;
	sw(1500, 0, 50, "hog", LAT_TS_RUNNING, 200, "R");
	evs[nev - 1].u.sw.next_prio = 9;
	sw(1600, 0, 200, "R", LAT_TS_SLEEPING, 50, "hog");
	evs[nev - 1].u.sw.prev_prio = 9;
	wake(10000, 1, 0, "swapper/1", LAT_EV_WAKING, 200, "R", 0);
	evs[nev - 1].u.wake.prio = 9;
	sw(160000, 0, 50, "hog", LAT_TS_RUNNING, 200, "R");
	evs[nev - 1].u.sw.next_prio = 9;
	sw(160100, 0, 200, "R", LAT_TS_DEAD, 50, "hog");	/* prio 120 at exit */
	lat_analyze_opts_init(&o);
	b = run_opts(&o);
	r = res(b);
	assert_int_equal(r->inversions, 1);
	assert_int_equal(r->worst_inversion.pid, 200);
	assert_int_equal(r->worst_inversion.holder_pid, 50);
	assert_int_equal(r->worst_inversion.start_ns, 10000);
	assert_int_equal(r->worst_inversion.end_ns, 160000);
	assert_int_equal(r->ntasks, 2);		/* R, and hog with its preemption waits */
	assert_int_equal(r->tasks[0].pid, 200);
	assert_int_equal(r->tasks[0].prio, 9);
	txt = report_text(b, &o);
	assert_non_null(strstr(txt, "real-time threads (wakeup waits):\n    R/200 SCHED_FIFO 90: "
				    "max 150 us, p99 150 us over 2 waits\n"));
	free(txt);
	lat_block_free(b);
}

/* R (FIFO 90) sleeps at 5, is woken at 10000 and runs at 160000: 150 us behind hog (fair). */
static void r_behind_hog(void)
{
	sw(5, 0, 200, "R", LAT_TS_SLEEPING, 50, "hog");
	evs[nev - 1].u.sw.prev_prio = 9;
	wake(10000, 1, 0, "swapper/1", LAT_EV_WAKING, 200, "R", 0);
	evs[nev - 1].u.wake.prio = 9;
	sw(160000, 0, 50, "hog", LAT_TS_RUNNING, 200, "R");
	evs[nev - 1].u.sw.next_prio = 9;
}

/*
 * The environment in the words: R (FIFO 90) waits 150 us behind hog (fair),
 * not-preemptible; recorded under preempt=none on a KVM guest, the evidence
 * says what keeps a CPU there.  The same case as a stall: a VM's host, or not
 * a VM.  Without an environment: both causes, as before.
 */
static void test_verdict_env(void **state)
{
	struct lat_block *b;
	struct lat_analyze_opts o;
	struct lat_trace_env env;
	struct lat_wake_case c;

	(void)state;
	r_behind_hog();
	lat_trace_env_init(&env);
	env.preempt = LAT_PREEMPT_NONE;
	env.virt = (char *)"kvm";	/* lent: never released */
	lat_analyze_opts_init(&o);
	b = lat_block_new(NULL, LAT_SCHEMA_EVENTS);
	assert_non_null(b);
	b->events = lat_evarray_new(evs, nev, 2);
	assert_non_null(b->events);
	b->events->env = &env;
	assert_int_equal(lat_analyze_block(b, &o), 0);
	c = res(b)->worst[0];
	assert_int_equal(c.pid, 200);
	assert_int_equal(c.verdict.kind, LAT_VERDICT_NOT_PREEMPTIBLE);
	assert_int_equal(c.verdict.preempt, LAT_PREEMPT_NONE);
	assert_int_equal(c.verdict.vm, 1);
	assert_string_equal(verdict_text(&c), "hog/50 SCHED_OTHER nice 0 ran 150 us while it "
			    "should have been preempted: under preempt=none kernel code is not "
			    "preempted: a system call or kernel thread keeps the CPU until it gives "
			    "it up (or priority inversion)");
	c.verdict.kind = LAT_VERDICT_STALL;
	assert_string_equal(verdict_text(&c), "no events on CPU0 for 150 us of the wait (on a "
			    "VM: the host not running the vCPU, or a section with interrupts off)");
	c.verdict.vm = 0;
	assert_string_equal(verdict_text(&c), "no events on CPU0 for 150 us of the wait (not a "
			    "VM: a section with interrupts off, or firmware (SMI))");
	b->events->env = NULL;
	lat_block_free(b);
	nev = 0;
	r_behind_hog();
	b = run_opts(&o);
	assert_int_equal(res(b)->worst[0].verdict.preempt, LAT_PREEMPT_UNKNOWN);
	assert_int_equal(res(b)->worst[0].verdict.vm, -1);
	assert_non_null(strstr(verdict_text(&res(b)->worst[0]), "should have been preempted: "
			       "priority inversion or a non-preemptible kernel section"));
	lat_block_free(b);
}

/*
 * Policy over time: R starts as SCHED_OTHER (prio 120) and waits 5 ms behind
 * hog (woken at 1000, runs at 5001000), then sets SCHED_FIFO 90 (prio 9) and
 * waits 100 us (woken at 6000000, runs at 6100000).  The task table counts
 * both (max 5 ms); the real-time table only the FIFO wait (max 100 us), and
 * says the other apart.
 */
static void test_rt_policy_over_time(void **state)
{
	struct lat_block *b;
	const struct lat_wakeup_result *r;
	struct lat_analyze_opts o;
	char *txt;

	(void)state;
	sw(5, 0, 200, "R", LAT_TS_SLEEPING, 50, "hog");
	wake(1000, 1, 0, "swapper/1", LAT_EV_WAKING, 200, "R", 0);
	sw(5001000, 0, 50, "hog", LAT_TS_RUNNING, 200, "R");
	sw(5002000, 0, 200, "R", LAT_TS_SLEEPING, 50, "hog");
	evs[nev - 1].u.sw.prev_prio = 9;
	wake(6000000, 1, 0, "swapper/1", LAT_EV_WAKING, 200, "R", 0);
	evs[nev - 1].u.wake.prio = 9;
	sw(6100000, 0, 50, "hog", LAT_TS_RUNNING, 200, "R");
	evs[nev - 1].u.sw.next_prio = 9;
	lat_analyze_opts_init(&o);
	b = run_opts(&o);
	r = res(b);
	assert_int_equal(r->tasks[0].pid, 200);
	assert_int_equal(r->tasks[0].wake.n, 2);
	assert_int_equal(r->tasks[0].wake.max, 5000000);
	assert_int_equal(r->tasks[0].rt.n, 1);
	assert_int_equal(r->tasks[0].rt.max, 100000);
	txt = report_text(b, &o);
	assert_non_null(strstr(txt, "real-time threads (wakeup waits):\n    R/200 SCHED_FIFO 90: "
				    "max 100 us, p99 100 us over 1 wait (and 1 at a lower class, "
				    "not counted here)\n"));
	free(txt);
	lat_block_free(b);
}

/*
 * Q (100) is woken for CPU1 at 1000 while B (20) runs there, migrated to CPU0
 * (A/10 running) at 11000, back to CPU1 at 31000, and run there at 41000: 40
 * us, of which 30 before its last migration, queued: queued-elsewhere, 75%,
 * though it ran on the CPU it was first queued on.  The queue it left last is
 * CPU0's, where A ran all 20 us it was there (11000 .. 31000).
 */
static void test_queued_bounced(void **state)
{
	struct lat_block *b;
	const struct lat_wake_case *c;
	struct lat_event *e;

	(void)state;
	sw(10, 0, 0, "swapper/0", LAT_TS_RUNNING, 10, "A");
	sw(20, 1, 100, "Q", LAT_TS_SLEEPING, 20, "B");
	wake(1000, 0, 10, "A", LAT_EV_WAKING, 100, "Q", 1);
	wake(1100, 0, 10, "A", LAT_EV_WAKEUP, 100, "Q", 1);
	for (int k = 0; k < 2; k++) {
		e = add(k ? 31000 : 11000, k ? 0 : 1, k ? 10 : 20, k ? "A" : "B", LAT_EV_MIGRATE);
		e->u.migrate.pid = 100;
		e->u.migrate.prio = 120;
		e->u.migrate.orig_cpu = k ? 0 : 1;
		e->u.migrate.dest_cpu = k ? 1 : 0;
		snprintf(e->u.migrate.comm, LAT_COMM_LEN, "Q");
	}
	sw(41000, 1, 20, "B", LAT_TS_RUNNING, 100, "Q");
	b = run();
	c = &res(b)->worst[0];
	assert_int_equal(c->pid, 100);
	assert_int_equal(c->latency_ns, 40000);
	assert_int_equal(c->queued_cpu, 1);
	assert_int_equal(c->queued_left_cpu, 0);
	assert_int_equal(c->queued_from_ns, 11000);
	assert_int_equal(c->queued_until_ns, 31000);
	assert_int_equal(c->verdict.kind, LAT_VERDICT_QUEUED);
	assert_int_equal(c->verdict.part_ns, 30000);
	assert_int_equal(c->queued_on[0].pid, 10);
	assert_int_equal(c->queued_on[0].ns, 20000);
	assert_true(c->verdict.share > 0.749 && c->verdict.share < 0.751);
	assert_string_equal(verdict_text(c), "queued for 30 us until its last migration, last on "
			    "CPU0: A/10 SCHED_OTHER nice 0 ran 20 us there");
	lat_block_free(b);
}

/*
 * Run-queue depth: hog runs on CPU0; A is woken for it at 1000 (nobody waits,
 * hog runs: 1), B at 2000 (A waits, hog runs: 2).  A runs at 3000: 1000..2000
 * one waiting (A), 2000..3000 two: 3000 / 2000 = 1.5 on average.  B runs at
 * 4000: 2000..3000 two (A, B), 3000..4000 two (B, and hog, preempted at 3000):
 * 2.0.  CPU1 is idle all along.
 */
static void test_runqueue(void **state)
{
	struct lat_block *b;
	const struct lat_wakeup_result *r;
	const struct lat_wake_case *c;

	(void)state;
	sw(5, 0, 101, "A", LAT_TS_SLEEPING, 50, "hog");
	sw(6, 1, 102, "B", LAT_TS_SLEEPING, 0, "swapper/1");
	wake(1000, 1, 0, "swapper/1", LAT_EV_WAKING, 101, "A", 0);
	wake(2000, 1, 0, "swapper/1", LAT_EV_WAKING, 102, "B", 0);
	sw(3000, 0, 50, "hog", LAT_TS_RUNNING, 101, "A");
	sw(4000, 0, 101, "A", LAT_TS_SLEEPING, 102, "B");
	b = run();
	r = res(b);
	assert_int_equal(r->nworst, 2);
	c = &r->worst[0];
	assert_int_equal(c->pid, 101);
	assert_int_equal(c->rq_at_wake, 1);
	assert_true(c->rq_avg > 1.499 && c->rq_avg < 1.501);
	assert_int_equal(c->ncpushare, 2);
	assert_int_equal(c->cpushare[0].busy_ns, 2000);
	assert_int_equal(c->cpushare[1].idle_ns, 2000);
	c = &r->worst[1];
	assert_int_equal(c->pid, 102);
	assert_int_equal(c->rq_at_wake, 2);
	assert_true(c->rq_avg > 1.999 && c->rq_avg < 2.001);
	/* B's holders: hog 2000..3000, A 3000..4000 */
	assert_int_equal(c->cpushare[0].busy_ns, 2000);
	assert_int_equal(c->verdict.kind, LAT_VERDICT_CPU_SATURATED);
	assert_non_null(strstr(verdict_text(c), "CPU0 saturated: 2.0 waiting on average"));
	lat_block_free(b);
}

/* The kernel prio in words (include/linux/sched/prio.h: MAX_RT_PRIO 100, nice 0 = 120). */
static void test_sched_class(void **state)
{
	static const struct {
		int32_t prio;
		const char *s;
	} t[] = {
		{ 19, "SCHED_FIFO 80" }, { 0, "SCHED_FIFO 99" }, { 98, "SCHED_FIFO 1" },
		{ 110, "SCHED_OTHER nice -10" }, { 120, "SCHED_OTHER nice 0" },
		{ 139, "SCHED_OTHER nice 19" }, { -1, "SCHED_DEADLINE" }, { 140, "" }, { -5, "" },
	};
	char buf[40];

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		lat_sched_class_fmt(t[i].prio, buf, sizeof(buf));
		assert_string_equal(buf, t[i].s);
	}
}

/* The text's irq-info column and hrtimer lines (lines as the kernel prints them). */
static void test_text_context(void **state)
{
	static const char *const l1 =
		"      cyclictest-5012    [001] d.h2.  7316.212447: sched_waking: comm=cyclictest "
		"pid=5013 prio=19 target_cpu=001";
	static const char *const l2 =
		"          <idle>-0       [000] d.h1.  7316.212440: hrtimer_expire_entry: "
		"hrtimer=00000000e4e5c0b9 function=hrtimer_wakeup now=7316212000000";
	static const char *const l3 =
		"          <idle>-0       [000] d.s2.  7316.212450: hrtimer_expire_exit: "
		"hrtimer=00000000e4e5c0b9";
	static const char *const l4 = "          bash-1977  [000]  7316.2: sched_waking: comm=a "
		"pid=5 prio=120 target_cpu=000";
	struct ft_strs strs;
	struct lat_event ev;
	const char *exp;
	int nc = 0;

	(void)state;
	assert_int_equal(ft_parse_line(l1, strlen(l1), &ev, &strs, &nc, &exp), FT_EVENT);
	assert_int_equal(ev.type, LAT_EV_WAKING);
	assert_int_equal(ev.flags, LAT_EVF_KNOWN | LAT_EVF_HARDIRQ);
	assert_int_equal(ft_parse_line(l2, strlen(l2), &ev, &strs, &nc, &exp), FT_EVENT);
	assert_int_equal(ev.type, LAT_EV_TIMER_ENTRY);
	assert_string_equal(ev.u.irq.name, "hrtimer_wakeup");
	assert_int_equal(ft_parse_line(l3, strlen(l3), &ev, &strs, &nc, &exp), FT_EVENT);
	assert_int_equal(ev.type, LAT_EV_TIMER_EXIT);
	assert_int_equal(ev.flags, LAT_EVF_KNOWN | LAT_EVF_SOFTIRQ);
	/* no irq-info column: the context is unknown */
	assert_int_equal(ft_parse_line(l4, strlen(l4), &ev, &strs, &nc, &exp), FT_EVENT);
	assert_int_equal(ev.flags, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_waker_irq_from_flags, reset),
		cmocka_unit_test_setup(test_waker_hrtimer, reset),
		cmocka_unit_test_setup(test_waker_irq_vector, reset),
		cmocka_unit_test_setup(test_waker_flags_over_stale_irq, reset),
		cmocka_unit_test(test_text_context),
		cmocka_unit_test_setup(test_stall_cpu, reset),
		cmocka_unit_test_setup(test_stall_all, reset),
		cmocka_unit_test_setup(test_phantom, reset),
		cmocka_unit_test_setup(test_inferred, reset),
		cmocka_unit_test(test_sched_class),
		cmocka_unit_test_setup(test_verdicts, reset),
		cmocka_unit_test_setup(test_verdicts_above, reset),
		cmocka_unit_test_setup(test_verdict_irq_open_at_start, reset),
		cmocka_unit_test_setup(test_inversion, reset),
		cmocka_unit_test_setup(test_rt_policy_over_time, reset),
		cmocka_unit_test_setup(test_verdict_env, reset),
		cmocka_unit_test_setup(test_queued_bounced, reset),
		cmocka_unit_test_setup(test_runqueue, reset),
		cmocka_unit_test_setup(test_select_threads, reset),
	};

	return cmocka_run_group_tests(tests, NULL, release_events);
}
