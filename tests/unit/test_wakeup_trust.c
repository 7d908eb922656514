// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the wakeup analysis may claim, over hand-built event sequences: the
 * class of a task seen running with no switch of it, inferred switch-ins
 * whose uncertain part is most of the wait.  Every expected number is the
 * difference of timestamps written in the test (noted beside).
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

static const uint16_t task_ctx = LAT_EVF_KNOWN, soft_ctx = LAT_EVF_KNOWN | LAT_EVF_SOFTIRQ;

static const struct lat_wakeup_result *res(const struct lat_block *b)
{
	return b->analysis;
}

static struct lat_event *flagged(struct lat_event *e, uint16_t flags)
{
	e->flags = flags;
	return e;
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

static char *report_json(const struct lat_block *b, const struct lat_analyze_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct lat_json j;

	assert_non_null(f);
	lat_json_init(&j, f, 1);
	lat_json_obj_open(&j, NULL);
	rp_report_wakeup_json(&j, b, o);
	lat_json_obj_close(&j);
	fclose(f);
	return buf;
}

/*
 * The idle VM's "tokio-rt-worker/76 SCHED_DEADLINE ran 2.04 ms": tok (76,
 * prio 110 = SCHED_OTHER nice -10) is woken at 1000 on idle CPU1, its switch
 * in is not recorded, its marker at 1010 (task context) shows it running.
 * rcu (15, prio 120) is woken at 1100 from a softirq on CPU1; tok logs at
 * 4900; rcu's switch in is not recorded either, its switch out at 5000 ends
 * its wait (inferred, 100 of 3900 uncertain) and tok's slice [1010, 4900), its
 * last event (who ran after it is not known: wakeup.md, "Missing switches"),
 * with the prio tok had at its waking, 110, not "unknown" read as -1 (the
 * kernel's SCHED_DEADLINE prio).  rcu waited behind a task of its class for
 * 3800 of 3900: cpu-saturated.
 */
static void test_last_known_prio(void **state)
{
	struct lat_block *b;
	const struct lat_wakeup_result *r;
	const struct lat_wake_case *c;

	(void)state;
	sw(5, 1, 15, "rcu", LAT_TS_SLEEPING, 0, "swapper/1");
	flagged(&evs[nev - 1], task_ctx);
	wake(1000, 1, 0, "swapper/1", LAT_EV_WAKING, 76, "tok", 1);
	evs[nev - 1].u.wake.prio = 110;
	flagged(&evs[nev - 1], soft_ctx);
	flagged(add(1010, 1, 76, "tok", LAT_EV_MARKER), task_ctx);
	wake(1100, 1, 76, "tok", LAT_EV_WAKING, 15, "rcu", 1);
	flagged(&evs[nev - 1], soft_ctx);
	flagged(add(4900, 1, 76, "tok", LAT_EV_MARKER), task_ctx);
	sw(5000, 1, 15, "rcu", LAT_TS_OTHER, 0, "swapper/1");
	flagged(&evs[nev - 1], task_ctx);
	b = run();
	r = res(b);
	assert_int_equal(r->nworst, 2);
	c = &r->worst[0];
	assert_int_equal(c->pid, 15);
	assert_int_equal(c->latency_ns, 3900);		/* 5000 - 1100 */
	assert_true(c->inferred_end);			/* after 4900: 100 uncertain */
	assert_int_equal(c->end_low_ns, 4900);
	assert_int_equal(c->unseen_pid, -1);		/* its own switch-in: end_low_ns */
	assert_int_equal(c->non_cpu, 1);
	assert_int_equal(c->on_cpu[0].pid, 76);
	assert_int_equal(c->on_cpu[0].prio, 110);
	assert_int_equal(c->on_cpu[0].ns, 3800);		/* 4900 - 1100 */
	assert_int_equal(c->unaccounted_ns, 100);		/* 4900..5000: not known */
	assert_int_equal(c->verdict.kind, LAT_VERDICT_CPU_SATURATED);
	assert_null(strstr(verdict_text(c), "DEADLINE"));
	assert_non_null(strstr(verdict_text(c), "tok/76 SCHED_OTHER nice -10 ran 3.8 us"));
	lat_block_free(b);
}

/*
 * The same with anon (78), of which no switch or waking was ever recorded: its
 * class is unknown.  The verdict claims no priority (not higher-priority, not
 * fair sharing): untrusted, naming anon; JSON "prio": null.  The verdict of
 * every wait above the threshold (1000) says untrusted too.
 */
static void test_unknown_class(void **state)
{
	struct lat_block *b;
	const struct lat_wakeup_result *r;
	const struct lat_wake_case *c;
	struct lat_analyze_opts o;
	char *txt;

	(void)state;
	sw(5, 1, 15, "rcu", LAT_TS_SLEEPING, 0, "swapper/1");
	flagged(&evs[nev - 1], task_ctx);
	flagged(add(1000, 1, 78, "anon", LAT_EV_MARKER), task_ctx);
	wake(1100, 1, 78, "anon", LAT_EV_WAKING, 15, "rcu", 1);
	flagged(&evs[nev - 1], soft_ctx);
	flagged(add(4900, 1, 78, "anon", LAT_EV_MARKER), task_ctx);
	sw(5000, 1, 15, "rcu", LAT_TS_OTHER, 0, "swapper/1");
	flagged(&evs[nev - 1], task_ctx);
	lat_analyze_opts_init(&o);
	o.threshold_ns = 1000;
	b = run_opts(&o);
	r = res(b);
	assert_int_equal(r->nworst, 1);
	c = &r->worst[0];
	assert_int_equal(c->latency_ns, 3900);
	assert_int_equal(c->on_cpu[0].pid, 78);
	assert_int_equal(c->on_cpu[0].prio, LAT_PRIO_UNKNOWN);
	assert_int_equal(c->unseen_pid, -1);
	assert_int_equal(c->verdict.kind, LAT_VERDICT_UNTRUSTED);
	assert_true(c->verdict.share == 1.0);
	/* 1100..4900; after its last event at 4900 who ran is not known: untrusted too */
	assert_non_null(strstr(verdict_text(c), "anon/78 ran 3.8 us, of a class no event "
				    "said"));
	assert_int_equal(r->above, 1);
	assert_int_equal(r->verdicts_above[LAT_VERDICT_UNTRUSTED], 1);
	txt = report_text(b, &o);
	assert_non_null(strstr(txt, "anon/78 ran 3.8 us (97%) (class unknown: no switch or "
				    "waking of it recorded); 100 ns unknown (100 ns of it: "
				    "switches missing, no event showed who ran)"));
	assert_null(strstr(txt, "DEADLINE"));
	assert_null(strstr(txt, "prio -"));
	free(txt);
	txt = report_json(b, &o);
	assert_non_null(strstr(txt, "\"comm\": \"anon\",\n"));
	assert_non_null(strstr(txt, "\"prio\": null"));
	assert_non_null(strstr(txt, "\"missing_switch_ns\": 100,"));
	free(txt);
	lat_block_free(b);
}

/*
 * The idle VM's phantom: rcu is woken at 1100 from a softirq that tok runs on
 * CPU1; the softirq exits at 1107 (CPU1's last event of tok); rcu's own first
 * event is its switch-out at 3140 (its switch in was not recorded): it ran in
 * (1107, 3140], counted as 2040 with 2033 of it uncertain (over half): the
 * verdict is untrusted, and it ranks by the 7 it surely waited.  B's
 * confirmed wait on CPU0 (4000..4500, 500) ranks first.  Above the threshold
 * (1000) the inferred wait is untrusted as well.
 */
static void test_inferred_unsure(void **state)
{
	struct lat_block *b;
	const struct lat_wakeup_result *r;
	const struct lat_wake_case *c;
	struct lat_analyze_opts o;
	char *txt;

	(void)state;
	sw(5, 1, 15, "rcu", LAT_TS_SLEEPING, 76, "tok");
	evs[nev - 1].u.sw.next_prio = 110;
	flagged(&evs[nev - 1], task_ctx);
	sw(6, 0, 200, "B", LAT_TS_SLEEPING, 50, "hog");
	flagged(&evs[nev - 1], task_ctx);
	wake(1100, 1, 76, "tok", LAT_EV_WAKING, 15, "rcu", 1);
	flagged(&evs[nev - 1], soft_ctx);
	flagged(add(1107, 1, 76, "tok", LAT_EV_SOFTIRQ_EXIT), soft_ctx);
	sw(3140, 1, 15, "rcu", LAT_TS_OTHER, 76, "tok");
	evs[nev - 1].u.sw.next_prio = 110;
	flagged(&evs[nev - 1], task_ctx);
	wake(4000, 1, 76, "tok", LAT_EV_WAKING, 200, "B", 0);
	flagged(&evs[nev - 1], task_ctx);
	sw(4500, 0, 50, "hog", LAT_TS_RUNNING, 200, "B");
	flagged(&evs[nev - 1], task_ctx);
	lat_analyze_opts_init(&o);
	o.threshold_ns = 1000;
	b = run_opts(&o);
	r = res(b);
	assert_int_equal(r->waits, 2);
	assert_int_equal(r->inferred_waits, 1);
	assert_int_equal(r->all.max, 2040);		/* the statistics count the upper bound */
	assert_int_equal(r->nworst, 2);
	assert_int_equal(r->worst[0].pid, 200);		/* 500 confirmed, over 7 surely waited */
	assert_int_equal(r->worst[0].verdict.kind, LAT_VERDICT_CPU_SATURATED);
	c = &r->worst[1];
	assert_int_equal(c->pid, 15);
	assert_true(c->inferred_end);
	assert_int_equal(c->latency_ns, 2040);		/* 3140 - 1100 */
	assert_int_equal(c->end_low_ns, 1107);
	assert_int_equal(c->verdict.kind, LAT_VERDICT_UNTRUSTED);
	assert_true(c->verdict.share > 0.996 && c->verdict.share < 0.997);	/* 2033/2040 */
	assert_string_equal(verdict_text(c), "its switch-in was not recorded: it ran "
			    "between +7 ns and +2.04 us after the waking");
	assert_int_equal(r->above, 1);
	assert_int_equal(r->verdicts_above[LAT_VERDICT_UNTRUSTED], 1);
	txt = report_text(b, &o);
	assert_non_null(strstr(txt, "  2. untrusted (100%): its switch-in was not recorded"));
	free(txt);
	lat_block_free(b);

	/* the worst one only: the confirmed wait, the phantom one is not "the worst" */
	o.worst_n = 1;
	b = run_opts(&o);
	r = res(b);
	assert_int_equal(r->nworst, 1);
	assert_int_equal(r->worst[0].pid, 200);
	lat_block_free(b);
}

/*
 * An inferred switch-in whose uncertain part is under half keeps its verdict:
 * P is woken at 1000 for CPU1 where hog runs and logs until 1800, P's own
 * marker at 2000: 1000 counted, 200 of it uncertain; hog ran 800 of it.
 */
static void test_inferred_sure(void **state)
{
	struct lat_block *b;
	const struct lat_wakeup_result *r;
	const struct lat_wake_case *c;

	(void)state;
	sw(5, 1, 200, "P", LAT_TS_SLEEPING, 50, "hog");
	flagged(&evs[nev - 1], task_ctx);
	wake(1000, 0, 0, "swapper/0", LAT_EV_WAKING, 200, "P", 1);
	flagged(&evs[nev - 1], task_ctx);
	flagged(add(1800, 1, 50, "hog", LAT_EV_MARKER), task_ctx);
	flagged(add(2000, 1, 200, "P", LAT_EV_MARKER), task_ctx);
	b = run();
	r = res(b);
	assert_int_equal(r->nworst, 1);
	c = &r->worst[0];
	assert_true(c->inferred_end);
	assert_int_equal(c->latency_ns, 1000);
	assert_int_equal(c->end_low_ns, 1800);
	assert_int_equal(c->verdict.kind, LAT_VERDICT_CPU_SATURATED);
	lat_block_free(b);
}

/*
 * The idle VM's "CPU1 stayed idle 813 us": kd (78) and K (9134) are woken at
 * 990 and 1000 for idle CPU1; the switch from idle to kd is not recorded; at
 * 1800 kd switches out to K.  K's wait (800) is confirmed, but kd ran at an
 * unknown point of the 800 the slices charge to idle: untrusted.  With a
 * recorded switch-in of kd at 1500, K waited behind idle (500) and kd (300).
 */
static void test_unseen_switch_in(void **state)
{
	struct lat_block *b;
	const struct lat_wakeup_result *r;
	const struct lat_wake_case *c;
	char *txt;
	struct lat_analyze_opts o;

	(void)state;
	sw(5, 1, 9134, "K", LAT_TS_SLEEPING, 78, "kd");
	sw(6, 1, 78, "kd", LAT_TS_SLEEPING, 0, "swapper/1");
	wake(990, 1, 0, "swapper/1", LAT_EV_WAKING, 78, "kd", 1);
	flagged(&evs[nev - 1], soft_ctx);
	wake(1000, 1, 0, "swapper/1", LAT_EV_WAKING, 9134, "K", 1);
	flagged(&evs[nev - 1], soft_ctx);
	sw(1800, 1, 78, "kd", LAT_TS_OTHER, 9134, "K");
	flagged(&evs[nev - 1], task_ctx);
	lat_analyze_opts_init(&o);
	b = run_opts(&o);
	r = res(b);
	c = &r->worst[0];
	assert_int_equal(c->pid, 9134);
	assert_int_equal(c->latency_ns, 800);
	assert_false(c->inferred_end);
	assert_int_equal(c->unseen_pid, 78);
	assert_int_equal(c->unseen_ns, 800);
	assert_int_equal(c->verdict.kind, LAT_VERDICT_UNTRUSTED);
	assert_string_equal(verdict_text(c), "kd/78 ran on CPU1 with no recorded switch-in, "
			    "at an unknown point of 800 ns of the wait: who held the CPU when is "
			    "unknown");
	txt = report_text(b, &o);
	assert_non_null(strstr(txt, "(kd/78 left the CPU with no recorded switch-in"));
	free(txt);
	txt = report_json(b, &o);
	assert_non_null(strstr(txt, "\"unseen_switch_in\": {\n"));
	free(txt);
	lat_block_free(b);

	nev = 0;
	sw(5, 1, 9134, "K", LAT_TS_SLEEPING, 78, "kd");
	sw(6, 1, 78, "kd", LAT_TS_SLEEPING, 0, "swapper/1");
	wake(990, 1, 0, "swapper/1", LAT_EV_WAKING, 78, "kd", 1);
	wake(1000, 1, 0, "swapper/1", LAT_EV_WAKING, 9134, "K", 1);
	sw(1500, 1, 0, "swapper/1", LAT_TS_RUNNING, 78, "kd");
	sw(1800, 1, 78, "kd", LAT_TS_OTHER, 9134, "K");
	b = run_opts(&o);
	c = &res(b)->worst[0];
	assert_int_equal(c->pid, 9134);
	assert_int_equal(c->unseen_pid, -1);
	assert_int_equal(c->verdict.kind, LAT_VERDICT_IDLE);	/* 500 of 800 */
	lat_block_free(b);
}

static const struct lat_wake_case *case_of(const struct lat_wakeup_result *r, int32_t pid)
{
	for (size_t i = 0; i < r->nworst; i++)
		if (r->worst[i].pid == pid)
			return &r->worst[i];
	fail_msg("no case of %d", pid);
	return NULL;
}

/*
 * One wait, one verdict (docs/wakeup.md, "Verdicts").  The scenario of
 * test_unseen_switch_in with a threshold of 500: K's 800 ns wait is judged
 * when it ends, from the sums, and kd's unseen switch-in (800 of it) makes it
 * untrusted there as in its case (before, the sums said idle 800 and the case
 * untrusted).  kd's own wait (990 .. 1800, inferred: it ran after 1000) is
 * judged untrusted too, its switch-in unsure for 800 of 810.  Then a wait that moved with no migration recorded: M is woken
 * at 1000 for CPU0 (hog runs there), and switched in on CPU1 at 3000, where
 * hog2 (its class) ran: the sums know nothing of CPU1 for it (untrusted,
 * moved), and its case, whose own parts say cpu-saturated, keeps that verdict.
 */
static void test_one_verdict(void **state)
{
	const struct lat_wakeup_result *r;
	const struct lat_wake_case *c;
	struct lat_analyze_opts o;
	struct lat_block *b;

	(void)state;
	sw(5, 1, 9134, "K", LAT_TS_SLEEPING, 78, "kd");
	sw(6, 1, 78, "kd", LAT_TS_SLEEPING, 0, "swapper/1");
	wake(990, 1, 0, "swapper/1", LAT_EV_WAKING, 78, "kd", 1);
	flagged(&evs[nev - 1], soft_ctx);
	wake(1000, 1, 0, "swapper/1", LAT_EV_WAKING, 9134, "K", 1);
	flagged(&evs[nev - 1], soft_ctx);
	sw(1800, 1, 78, "kd", LAT_TS_OTHER, 9134, "K");
	flagged(&evs[nev - 1], task_ctx);
	lat_analyze_opts_init(&o);
	o.threshold_ns = 500;
	b = run_opts(&o);
	r = res(b);
	assert_int_equal(r->above, 2);
	assert_int_equal(r->verdicts_above[LAT_VERDICT_UNTRUSTED], 2);
	assert_int_equal(r->verdicts_above[LAT_VERDICT_IDLE], 0);
	c = case_of(r, 9134);
	assert_int_equal(c->verdict.kind, LAT_VERDICT_UNTRUSTED);
	assert_int_equal(c->verdict.basis, LAT_VBASIS_UNSEEN);
	assert_int_equal(c->verdict.part_ns, 800);
	lat_block_free(b);

	nev = 0;
	sw(5, 0, 300, "M", LAT_TS_SLEEPING, 50, "hog");
	sw(6, 1, 77, "x", LAT_TS_SLEEPING, 60, "hog2");
	wake(1000, 0, 50, "hog", LAT_EV_WAKING, 300, "M", 0);
	sw(3000, 1, 60, "hog2", LAT_TS_RUNNING, 300, "M");
	b = run_opts(&o);
	r = res(b);
	assert_int_equal(r->above, 1);
	assert_int_equal(r->verdicts_above[LAT_VERDICT_UNTRUSTED], 1);
	c = case_of(r, 300);
	assert_int_equal(c->latency_ns, 2000);
	assert_int_equal(c->verdict.kind, LAT_VERDICT_UNTRUSTED);
	assert_int_equal(c->verdict.basis, LAT_VBASIS_MOVED);
	assert_string_equal(verdict_text(c), "it moved from CPU0 with no migration recorded: who "
			    "ran where it waited is unknown");
	lat_block_free(b);
}

/*
 * The chain verdict (docs/wakeup.md): A is woken at 1000 for CPU0 where hog
 * runs and runs at 9000 (8000), then wakes B at 9500 for idle CPU1, which runs
 * at 9700 (200): end to end 8700 (1000 .. 9700), A's 8000 is 92% of it:
 * waker-late.  A is woken again at 20000 and runs at 21000 (1000), works, and
 * wakes C at 30000, which runs at 30100 (100): A's wait is at least C's and
 * the threshold (1000), but 1000 of 10100 end to end: noted, not waker-late.
 * D, woken by A at 40000, runs at 42000 (2000, longer than A's 1000): none.
 */
static void test_chain_verdict(void **state)
{
	struct lat_block *b;
	const struct lat_wakeup_result *r;
	const struct lat_wake_case *c;
	struct lat_analyze_opts o;
	char *txt;

	(void)state;
	sw(5, 0, 100, "A", LAT_TS_SLEEPING, 50, "hog");
	sw(6, 1, 200, "B", LAT_TS_SLEEPING, 300, "C");
	sw(7, 1, 300, "C", LAT_TS_SLEEPING, 400, "D");
	sw(8, 1, 400, "D", LAT_TS_SLEEPING, 0, "swapper/1");
	wake(1000, 1, 0, "swapper/1", LAT_EV_WAKING, 100, "A", 0);
	sw(9000, 0, 50, "hog", LAT_TS_RUNNING, 100, "A");
	wake(9500, 0, 100, "A", LAT_EV_WAKING, 200, "B", 1);
	sw(9700, 1, 0, "swapper/1", LAT_TS_RUNNING, 200, "B");
	sw(9800, 1, 200, "B", LAT_TS_SLEEPING, 0, "swapper/1");
	sw(10000, 0, 100, "A", LAT_TS_SLEEPING, 50, "hog");
	wake(20000, 1, 0, "swapper/1", LAT_EV_WAKING, 100, "A", 0);
	sw(21000, 0, 50, "hog", LAT_TS_RUNNING, 100, "A");
	wake(30000, 0, 100, "A", LAT_EV_WAKING, 300, "C", 1);
	sw(30100, 1, 0, "swapper/1", LAT_TS_RUNNING, 300, "C");
	sw(30200, 1, 300, "C", LAT_TS_SLEEPING, 0, "swapper/1");
	wake(40000, 0, 100, "A", LAT_EV_WAKING, 400, "D", 1);
	sw(42000, 1, 0, "swapper/1", LAT_TS_RUNNING, 400, "D");
	lat_analyze_opts_init(&o);
	o.threshold_ns = 1000;
	o.worst_n = 10;
	b = run_opts(&o);
	r = res(b);
	assert_int_equal(r->nworst, 5);
	c = case_of(r, 200);
	assert_int_equal(c->latency_ns, 200);
	assert_int_equal(c->nchain, 1);
	assert_int_equal(c->chain[0].latency_ns, 8000);
	assert_true(c->chain_verdict.waker_waited);
	assert_true(c->chain_verdict.waker_late);
	assert_int_equal(c->chain_verdict.e2e_ns, 8700);
	assert_true(c->chain_verdict.share > 0.919 && c->chain_verdict.share < 0.920);
	assert_string_equal(chain_text(c), "its waker A/100 waited 8 us before it "
			    "could wake it: 8.7 us from A's waking to this task's run");
	assert_int_equal(c->verdict.kind, LAT_VERDICT_IDLE);	/* its own wait: unchanged */
	c = case_of(r, 300);
	assert_int_equal(c->chain[0].latency_ns, 1000);
	assert_true(c->chain_verdict.waker_waited);
	assert_false(c->chain_verdict.waker_late);
	assert_int_equal(c->chain_verdict.e2e_ns, 10100);
	c = case_of(r, 400);
	assert_int_equal(c->chain[0].latency_ns, 1000);
	assert_false(c->chain_verdict.waker_waited);
	c = case_of(r, 100);
	assert_false(c->chain_verdict.waker_waited);	/* woken by idle: no chain */
	txt = report_text(b, &o);
	assert_non_null(strstr(txt, "\n     chain: waker-late (92% end to end): its waker A/100 "
				    "waited 8 us"));
	assert_non_null(strstr(txt, "\n     chain: the waker waited too (10% end to end): its "
				    "waker A/100 waited 1 us"));
	free(txt);
	txt = report_json(b, &o);
	assert_non_null(strstr(txt, "\"chain_verdict\": {\n"));
	assert_non_null(strstr(txt, "\"kind\": \"waker-late\",\n"));
	assert_non_null(strstr(txt, "\"end_to_end_ns\": 8700,\n"));
	assert_non_null(strstr(txt, "\"chain_verdict\": null"));
	free(txt);
	lat_block_free(b);
}

/*
 * R and R+ (docs/wakeup.md): H leaves CPU0 as R+ (0x100) at 1000 and comes
 * back at 1300 (300), then as R (0) at 2000 and back at 2100 (100): both are
 * preemption waits.  L (PREEMPT_RT, blocked on a sleeping lock) leaves CPU1
 * as R+ at 3000 and is woken by H at 3500 before it runs at 3600: not a
 * preemption, counted apart (preempt_woken 1, R+ 1), not as a phantom; its
 * wakeup wait 3500..3600 is counted.  L then wakes W at 5000 (W runs at
 * 5100): W's chain shows L's last wait, the wakeup, not the lock wait.
 */
static void test_r_plus(void **state)
{
	struct lat_block *b;
	const struct lat_wakeup_result *r;
	struct lat_analyze_opts o;
	char *txt;

	(void)state;
	sw(5, 1, 300, "W", LAT_TS_SLEEPING, 200, "L");
	sw(1000, 0, 100, "H", LAT_TS_RUNNING, 50, "hog");
	evs[nev - 1].u.sw.prev_state_raw = 0x100;
	sw(1300, 0, 50, "hog", LAT_TS_RUNNING, 100, "H");
	evs[nev - 1].u.sw.prev_state_raw = 0x100;
	sw(2000, 0, 100, "H", LAT_TS_RUNNING, 50, "hog");
	sw(2100, 0, 50, "hog", LAT_TS_RUNNING, 100, "H");
	evs[nev - 1].u.sw.prev_state_raw = 0x100;
	sw(3000, 1, 200, "L", LAT_TS_RUNNING, 0, "swapper/1");
	evs[nev - 1].u.sw.prev_state_raw = 0x100;
	wake(3500, 0, 100, "H", LAT_EV_WAKING, 200, "L", 1);
	sw(3600, 1, 0, "swapper/1", LAT_TS_RUNNING, 200, "L");
	wake(5000, 1, 200, "L", LAT_EV_WAKING, 300, "W", 0);
	sw(5100, 0, 100, "H", LAT_TS_RUNNING, 300, "W");
	evs[nev - 1].u.sw.prev_state_raw = 0x100;
	lat_analyze_opts_init(&o);
	b = run_opts(&o);
	r = res(b);
	assert_int_equal(r->preempt_waits, 3);	/* H 300, H 100, hog's at 1300 ended at 2000 */
	assert_int_equal(r->preempt_woken, 1);
	assert_int_equal(r->preempt_woken_plus, 1);
	assert_int_equal(r->first_preempt_woken_ns, 3500);
	assert_int_equal(r->untrusted_waits, 1);		/* counted among them */
	assert_int_equal(r->waits, 2);			/* L 3500..3600, W 5000..5100 */
	assert_int_equal(case_of(r, 200)->latency_ns, 100);
	lat_block_free(b);

	/* a chain link that is a preemption wait says R+ or R */
	nev = 0;
	sw(5, 1, 300, "W", LAT_TS_SLEEPING, 200, "L");
	sw(1000, 1, 200, "L", LAT_TS_RUNNING, 50, "hog");
	evs[nev - 1].u.sw.prev_state_raw = 0x100;
	sw(1400, 1, 50, "hog", LAT_TS_RUNNING, 200, "L");
	wake(1500, 1, 200, "L", LAT_EV_WAKING, 300, "W", 0);
	sw(1600, 0, 0, "swapper/0", LAT_TS_RUNNING, 300, "W");
	b = run_opts(&o);
	r = res(b);
	assert_int_equal(case_of(r, 300)->nchain, 1);
	assert_true(case_of(r, 300)->chain[0].preempted);
	txt = report_text(b, &o);
	assert_non_null(strstr(txt, "L/200 itself waited 400 ns on CPU1 after preemption (R+: "
				    "preempted in the kernel)"));
	free(txt);
	txt = report_json(b, &o);
	assert_non_null(strstr(txt, "\"state\": \"R+\",\n"));
	free(txt);
	lat_block_free(b);
}

static void setsched(uint64_t ts, int cpu, int cur, const char *cc, int pid, int policy)
{
	struct lat_event *e = add(ts, cpu, cur, cc, LAT_EV_SETSCHED);

	e->u.setsched.pid = pid;
	e->u.setsched.policy = policy;
}

static void setsched_ret(uint64_t ts, int cpu, int cur, const char *cc, int64_t ret)
{
	add(ts, cpu, cur, cc, LAT_EV_SETSCHED_EXIT)->u.setsched.ret = ret;
}

/*
 * The policy from sched_setscheduler() (docs/wakeup.md, "Scheduling
 * classes"): A (prio 19) sets SCHED_RR for itself (pid 0) and it succeeds: A
 * is "SCHED_RR 80".  B's call fails (ret -1): B stays "SCHED_FIFO 80",
 * inferred.  C sets SCHED_BATCH for D (pid 400): D (prio 120) is
 * "SCHED_BATCH nice 0".  E asks SCHED_IDLE | SCHED_RESET_ON_FORK but runs at
 * an RT prio (a boost): its prio's class is kept, "SCHED_FIFO 90".  Each is
 * woken on idle CPU1 and waits 100 * k.
 */
static void test_setscheduler(void **state)
{
	struct lat_block *b;
	const struct lat_wakeup_result *r;
	struct lat_analyze_opts o;
	const int pids[4] = { 100, 200, 400, 500 }, prios[4] = { 19, 19, 120, 9 };
	const char *names[4] = { "A", "B", "D", "E" };
	char cls[40], *txt;

	(void)state;
	setsched(10, 0, 100, "A", 0, 2);
	setsched_ret(11, 0, 100, "A", 0);
	setsched(20, 0, 200, "B", 0, 2);
	setsched_ret(21, 0, 200, "B", -1);
	setsched(30, 0, 300, "C", 400, 3);
	setsched_ret(31, 0, 300, "C", 0);
	setsched(40, 0, 500, "E", 0, 5 | 0x40000000);
	setsched_ret(41, 0, 500, "E", 0);
	sw(50, 0, 500, "E", LAT_TS_SLEEPING, 0, "swapper/0");
	sw(60, 1, 400, "D", LAT_TS_SLEEPING, 0, "swapper/1");
	for (int k = 0; k < 4; k++) {
		uint64_t t0 = 1000 * (uint64_t)(k + 1);

		wake(t0, 0, 0, "swapper/0", LAT_EV_WAKING, pids[k], names[k], 1);
		evs[nev - 1].u.wake.prio = prios[k];
		sw(t0 + 100 * (uint64_t)(k + 1), 1, 0, "swapper/1", LAT_TS_RUNNING, pids[k],
		   names[k]);
		evs[nev - 1].u.sw.next_prio = prios[k];
		sw(t0 + 500, 1, pids[k], names[k], LAT_TS_SLEEPING, 0, "swapper/1");
		evs[nev - 1].u.sw.prev_prio = prios[k];
	}
	lat_analyze_opts_init(&o);
	b = run_opts(&o);
	r = res(b);
	assert_int_equal(r->setscheds, 3);		/* A, D, E: B's failed */
	assert_int_equal(r->nworst, 4);
	assert_int_equal(case_of(r, 100)->policy, 2);
	assert_int_equal(lat_sched_class_fmt_pol(19, case_of(r, 100)->policy, cls, sizeof(cls)), 1);
	assert_string_equal(cls, "SCHED_RR 80");
	assert_int_equal(case_of(r, 200)->policy, -1);
	assert_int_equal(lat_sched_class_fmt_pol(19, -1, cls, sizeof(cls)), 0);
	assert_string_equal(cls, "SCHED_FIFO 80");
	assert_int_equal(case_of(r, 400)->policy, 3);
	assert_int_equal(case_of(r, 500)->policy, 5);	/* the reset-on-fork bit dropped */
	assert_int_equal(lat_sched_class_fmt_pol(9, 5, cls, sizeof(cls)), 0);
	assert_string_equal(cls, "SCHED_FIFO 90");
	assert_int_equal(lat_sched_class_fmt_pol(120, 5, cls, sizeof(cls)), 1);
	assert_string_equal(cls, "SCHED_IDLE");
	txt = report_text(b, &o);
	assert_non_null(strstr(txt, "A/100 SCHED_RR 80 waited 100 ns"));
	assert_non_null(strstr(txt, "B/200 SCHED_FIFO 80 waited 200 ns"));
	assert_non_null(strstr(txt, "D/400 SCHED_BATCH nice 0 waited 300 ns"));
	assert_non_null(strstr(txt, "E/500 SCHED_FIFO 90 waited 400 ns"));
	assert_non_null(strstr(txt, "    A/100 SCHED_RR 80: max 100 ns"));
	free(txt);
	txt = report_json(b, &o);
	assert_non_null(strstr(txt, "\"policy\": \"SCHED_RR\",\n"));
	assert_non_null(strstr(txt, "\"policy\": \"SCHED_BATCH\",\n"));
	assert_non_null(strstr(txt, "\"policy_inferred\": false,\n"));
	assert_non_null(strstr(txt, "\"policy_inferred\": true,\n"));
	assert_non_null(strstr(txt, "\"setschedulers\": 3,\n"));
	free(txt);
	lat_block_free(b);
}

/*
 * The queued CPU follows sched_wakeup's (trace-cmd -e sched_waking -e
 * sched_wakeup -e sched_switch: no sched_migrate_task).  A last ran on CPU0:
 * its waking at 1000 says target_cpu 0, the kernel chose CPU1, where hog runs
 * (sched_wakeup at 1100: CPU1).  A's switch in is not recorded; its own event
 * at 5000 on CPU1 (task context) ends its wait there, inferred: only on the
 * CPU it is queued on.  Run queue of CPU1 at the waking: hog (1).
 */
static void test_queued_at_wakeup(void **state)
{
	struct lat_block *b;
	const struct lat_wakeup_result *r;
	const struct lat_wake_case *c;

	(void)state;
	sw(5, 1, 0, "swapper/1", LAT_TS_RUNNING, 50, "hog");
	flagged(&evs[nev - 1], task_ctx);
	sw(6, 0, 100, "A", LAT_TS_SLEEPING, 0, "swapper/0");
	flagged(&evs[nev - 1], task_ctx);
	wake(1000, 0, 0, "swapper/0", LAT_EV_WAKING, 100, "A", 0);
	flagged(&evs[nev - 1], soft_ctx);
	wake(1100, 0, 0, "swapper/0", LAT_EV_WAKEUP, 100, "A", 1);
	flagged(&evs[nev - 1], soft_ctx);
	flagged(add(3000, 1, 50, "hog", LAT_EV_MARKER), task_ctx);
	flagged(add(5000, 1, 100, "A", LAT_EV_MARKER), task_ctx);
	b = run();
	r = res(b);
	assert_int_equal(r->waits, 1);
	assert_int_equal(r->inferred_waits, 1);
	assert_int_equal(r->nworst, 1);
	c = &r->worst[0];
	assert_int_equal(c->pid, 100);
	assert_int_equal(c->cpu, 1);
	assert_int_equal(c->queued_cpu, 1);
	assert_int_equal(c->latency_ns, 4000);		/* 5000 - 1000 */
	assert_true(c->inferred_end);
	assert_int_equal(c->rq_at_wake, 1);
	lat_block_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_last_known_prio, reset),
		cmocka_unit_test_setup(test_unknown_class, reset),
		cmocka_unit_test_setup(test_inferred_unsure, reset),
		cmocka_unit_test_setup(test_inferred_sure, reset),
		cmocka_unit_test_setup(test_unseen_switch_in, reset),
		cmocka_unit_test_setup(test_one_verdict, reset),
		cmocka_unit_test_setup(test_chain_verdict, reset),
		cmocka_unit_test_setup(test_r_plus, reset),
		cmocka_unit_test_setup(test_setscheduler, reset),
		cmocka_unit_test_setup(test_queued_at_wakeup, reset),
	};

	return cmocka_run_group_tests(tests, NULL, release_events);
}
