// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The wakeup analysis over the real trace-cmd fixtures, end to end through the
 * trace.dat reader (skipped while that reader is not registered).
 *
 * Expected values were checked against `trace-cmd report` of the same file:
 * hackbench:9174's waking at 994.636899 (by hackbench-9154 on CPU1) and its
 * switch-in at 994.984060 on CPU1 are 347.161 ms apart, and an independent
 * script applying docs/wakeup.md's rules to the report text counted 18360
 * wakeup waits, 5220 preemption waits and the same five worst maxima to the
 * microsecond (18357 waits when starting at sched_wakeup).
 *
 * Phantom waits (docs/wakeup.md) then ended 35 pending waits as untrusted: 29
 * that were counted as canceled before (the task seen running), and 6 at a
 * second sched_waking (or sched_wakeup) of a pending task, e.g. hackbench:9081,
 * woken at 995.559129 and again at 995.559161 (it switches out at 995.559162:
 * it ran, its switch-in is missing).  3 of the 6 were preemption waits (a task
 * switched out in R is not sleeping: a waking of it proves it ran and slept
 * again), so 5217 preemption waits; their wakings now start wakeup waits where
 * they used to be ignored: 18363 wakeup waits (18360 when starting at
 * sched_wakeup).
 *
 * Inferred switch-ins (docs/wakeup.md) then ended 94 of those waits at the
 * woken task's own first event in task context on its CPU, after an event of
 * another task there since the waking: 89 of the 487 canceled ones (the task
 * switched out with no switch in) and 5 of the 35 untrusted ones; 90 wakeup
 * and 4 preemption waits.  E.g. cyclictest:8870, woken on idle CPU1 at
 * 994.573324795 (the idle task's softirq_exit at 994.573333009 is CPU1's last
 * event), switches out at 994.573530971 with no switch in (trace-cmd report -t):
 * 206.176 us, no less than 197.962 us of it after 994.573333009.  And at
 * 994.573637127 (softirq_exit at 994.573642721, its sched_process_exec at
 * 994.573696190).  18453 wakeup waits, 5221 preemption waits, 30 untrusted,
 * 398 canceled (18450 when starting at sched_wakeup).
 *
 * Trace health (docs/wakeup.md): trace-cmd report shows CPU1 508 switches into
 * idle and none out (grep '==> swapper/1:0' / 'swapper/1:0 .* ==>'); from its
 * 4th exit from idle shown only by the next task's events (994.576747432) its
 * events are incomplete: no switch-in is inferred there any more.  The 87
 * waits inferred there since (85 wakeup, 2 preemption) and all 398 canceled
 * ones (switched out with no switch in, all on CPU1) end untrusted: 30 + 87 +
 * 398 = 515 untrusted, 7 inferred, 0 canceled, 18368 wakeup and 5219
 * preemption waits (18365 from sched_wakeup).  CPU1's waits are of low trust
 * and not ranked: the worst 5 are CPU0's, led by hackbench:9215, woken by
 * hackbench:9199 on CPU0 at 994.938359635 (its sched_wakeup at 994.938361818)
 * and switched in there at 995.058670975: 120311340 ns (120309157 from the
 * wakeup); then 9218, 9219, 9224, 9264 (export --rows waits: the five longest
 * trusted wakeup rows).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "latscope/an_wakeup.h"
#include "latscope/analyze.h"
#include "latscope/input.h"

static struct lat_loaded *load(const char *name, enum lat_wake_start start)
{
	struct lat_loaded *l = calloc(1, sizeof(*l));
	struct lat_analyze_opts o;

	assert_non_null(l);
	lat_analyze_opts_init(&o);
	o.wake_start = start;
	o.timelines = 1;	/* as `latscope render` */
	assert_int_equal(lat_load(l, name, NULL), 0);
	assert_int_equal(l->nblocks, 1);
	assert_int_equal(l->blocks[0]->schema, LAT_SCHEMA_EVENTS);
	assert_int_equal(lat_analyze_block(l->blocks[0], &o), 0);
	return l;
}

static void check_mixed(const char *path)
{
	static const int32_t pids[5] = { 9215, 9218, 9219, 9224, 9264 };
	static const int64_t max_us[5] = { 120311, 120112, 119445, 118280, 117999 };
	struct lat_loaded *l = load(path, LAT_WAKE_START_WAKING);
	const struct lat_wakeup_result *r = l->blocks[0]->analysis;
	const struct lat_wake_case *c;
	int64_t sum = 0;

	assert_int_equal(r->nevents, 67159);
	assert_int_equal(r->waits, 18368);
	assert_int_equal(r->untrusted_waits, 515);
	assert_int_equal(r->inferred_waits, 7);
	assert_int_equal(r->canceled, 0);
	assert_int_equal(r->preempt_waits, 5219);
	assert_int_equal(r->nhealth, 2);
	assert_int_equal(r->health[1].into_idle, 508);
	assert_int_equal(r->health[1].out_of_idle, 0);
	assert_int_equal(r->health[1].incomplete, LAT_HEALTH_IDLE_EXITS);
	assert_int_equal(r->health[1].incomplete_since_ns, 994576747432LL);
	assert_int_equal(r->health[0].incomplete, LAT_HEALTH_OK);
	assert_int_equal(r->lost_events, 0);
	assert_int_equal(r->nworst, 5);
	for (int i = 0; i < 5; i++) {
		assert_int_equal(r->worst[i].pid, pids[i]);
		/* the report prints microseconds: agree to within one */
		assert_true(llabs(r->worst[i].latency_ns - max_us[i] * 1000) <= 1000);
	}
	c = &r->worst[0];
	assert_int_equal(c->start_ns, 994938359635LL);
	assert_int_equal(c->end_ns, 995058670975LL);
	assert_int_equal(c->cpu, 0);
	assert_int_equal(c->waker.pid, 9199);
	assert_int_equal(c->waker.cpu, 0);
	assert_int_equal(c->waker.ctx, LAT_WAKE_CTX_TASK);
	/* every ns of the wait is someone's: holders + the rest + what was not covered */
	for (size_t i = 0; i < c->non_cpu; i++)
		sum += c->on_cpu[i].ns;
	assert_int_equal(sum + c->other_ns + c->unaccounted_ns, c->latency_ns);
	assert_true(c->nchain >= 1);
	assert_int_equal(c->chain[0].pid, 9199);
	assert_non_null(c->tl);
	assert_true(c->tl->nslices > 0);
	lat_loaded_release(l);
	free(l);
}

static int have_reader(void)
{
	return lat_format_find("trace.dat") != NULL;
}

static void test_mixed_v7(void **state)
{
	(void)state;
	if (!have_reader())
		skip();
	check_mixed(LAT_FIXTURE_V7);
}

static void test_mixed_v6(void **state)
{
	(void)state;
	if (!have_reader())
		skip();
	check_mixed(LAT_FIXTURE_V6);
}

static void test_mixed_start_wakeup(void **state)
{
	struct lat_loaded *l;
	const struct lat_wakeup_result *r;

	(void)state;
	if (!have_reader())
		skip();
	l = load(LAT_FIXTURE_V7, LAT_WAKE_START_WAKEUP);
	r = l->blocks[0]->analysis;
	assert_int_equal(r->waits, 18365);
	assert_int_equal(r->worst[0].pid, 9215);
	/* sched_wakeup at 994.938361818, 2183 ns after the waking */
	assert_int_equal(r->worst[0].latency_ns, 120309157);
	lat_loaded_release(l);
	free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mixed_v7),
		cmocka_unit_test(test_mixed_v6),
		cmocka_unit_test(test_mixed_start_wakeup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
