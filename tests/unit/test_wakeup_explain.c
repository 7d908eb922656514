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
	lat_report_wakeup_text(f, b, o);
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
	assert_string_equal(c->waker.timer_fn, "hrtimer_wakeup");
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
	struct lat_ft_strs strs;
	struct lat_event ev;
	const char *exp;
	int nc = 0;

	(void)state;
	assert_int_equal(lat_ft_parse_line(l1, strlen(l1), &ev, &strs, &nc, &exp), LAT_FT_EVENT);
	assert_int_equal(ev.type, LAT_EV_WAKING);
	assert_int_equal(ev.flags, LAT_EVF_KNOWN | LAT_EVF_HARDIRQ);
	assert_int_equal(lat_ft_parse_line(l2, strlen(l2), &ev, &strs, &nc, &exp), LAT_FT_EVENT);
	assert_int_equal(ev.type, LAT_EV_TIMER_ENTRY);
	assert_string_equal(ev.u.irq.name, "hrtimer_wakeup");
	assert_int_equal(lat_ft_parse_line(l3, strlen(l3), &ev, &strs, &nc, &exp), LAT_FT_EVENT);
	assert_int_equal(ev.type, LAT_EV_TIMER_EXIT);
	assert_int_equal(ev.flags, LAT_EVF_KNOWN | LAT_EVF_SOFTIRQ);
	/* no irq-info column: the context is unknown */
	assert_int_equal(lat_ft_parse_line(l4, strlen(l4), &ev, &strs, &nc, &exp), LAT_FT_EVENT);
	assert_int_equal(ev.flags, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_waker_irq_from_flags, reset),
		cmocka_unit_test_setup(test_waker_hrtimer, reset),
		cmocka_unit_test_setup(test_waker_flags_over_stale_irq, reset),
		cmocka_unit_test(test_text_context),
	};

	return cmocka_run_group_tests(tests, NULL, release_events);
}
