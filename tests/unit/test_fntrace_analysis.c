// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Function-trace analysis: the TSC clock, blame (self and inclusive), the
 * longest irqs/preempt-off stretch, the wakeup, folded repeats, coverage of
 * truncated and elided dumps, and the marker/delay cross-checks.  Every
 * expected value is worked out by hand in the comment next to it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "fntrace_test_util.h"
#include "latscope/an_fntrace.h"

static const struct lat_fn_blame *find_fn(const struct lat_fntrace_result *r, const char *name)
{
	for (size_t i = 0; i < r->nfn; i++)
		if (!strcmp(r->fn[i].function, name))
			return &r->fn[i];
	fail_msg("function %s not in the blame table", name);
	return NULL;
}

static void test_seed002(void **state)
{
	struct lat_loaded *l = fnt_load(LAT_SAMPLES_DIR "/rt-lattrace/seed002-revell-3402us.txt",
					NULL, NULL, NULL);
	const struct lat_fntrace *t = fnt_only(l, "rt-lattrace");
	const struct lat_fntrace_result *r = l->blocks[0]->analysis;
	const struct lat_fn_blame *f;

	(void)state;
	/*
	 * Every verbose entry bounds the tracer's divisor D (cycles per us):
	 * printed_us <= (tsc - tsc#0) / D < printed_us + 1.  The tightest pair
	 * (worked out with awk over the sample): #49 is 14681 cycles after #0 and
	 * prints 0.010ms, so D > 14681 / 11 = 1334.64; #39 is 10707 cycles and
	 * prints 0.008ms, so D <= 10707 / 8 = 1338.38.  The estimate is the middle.
	 */
	assert_string_equal(r->time_source, "tsc");
	assert_true(r->cycles_per_us_min > 1334.63 && r->cycles_per_us_min < 1334.65);
	assert_true(r->cycles_per_us_max > 1338.37 && r->cycles_per_us_max < 1338.39);
	/* span: #0 .. #51 = 2512920692919 - 2512920677720 = 15199 cycles / 1336.51 = 11372 ns */
	assert_int_equal(r->span_ns, 11372);
	assert_int_equal(r->covered_ns, 11372);
	assert_true(r->truncated);
	assert_int_equal(r->entries_present, 51);
	assert_int_equal(r->missing_indexes, 1);	/* #1 */
	/* 11372 / 3402000 = 0.334 % */
	assert_true(r->covered_pct > 0.33 && r->covered_pct < 0.34);

	/*
	 * kmem_cache_free, 5 calls, self = cycles to the next entry:
	 * #13 443 + #20 636 + #27 992 + #34 788 + #41 280 = 3139 cycles = 2348.7 ns
	 * (each time is rounded to the ns on its own, so allow 1 ns).
	 */
	assert_string_equal(r->fn[0].function, "kmem_cache_free");
	assert_in_range(r->fn[0].self_ns, 2348, 2350);
	assert_int_equal(r->fn[0].calls, 5);
	/*
	 * inclusive: its own 2349 plus cache_flusharray's subtree (#42 .. #46:
	 * 688960 -> 692070 = 3110 cycles = 2327 ns) = 4676
	 */
	assert_in_range(r->fn[0].total_ns, 4674, 4678);
	/* journal_commit_transaction is never an entry, only a parent: calls 0 */
	f = find_fn(r, "journal_commit_transaction");
	assert_int_equal(f->calls, 0);
	assert_int_equal(f->self_ns, 0);
	/* everything from #8 (679575) to #51 (692919) runs under it: 13344 cycles = 9984 ns */
	assert_in_range(f->total_ns, 9982, 9986);
	assert_int_equal(r->fn[r->by_total[0]].function == f->function, 1);

	/* the longest irqs-off stretch: flags 3 from #42 to #46, #47 has flags 2 */
	assert_true(r->off[LAT_FN_OFF_IRQS].found);
	assert_int_equal(t->e[r->off[LAT_FN_OFF_IRQS].first].index, 42);
	assert_int_equal(t->e[r->off[LAT_FN_OFF_IRQS].end].index, 47);
	assert_in_range(r->off[LAT_FN_OFF_IRQS].duration_ns, 2326, 2328);
	assert_false(r->off[LAT_FN_OFF_IRQS].open);
	/* preempt count >= 1 in every entry: open to the end */
	assert_true(r->off[LAT_FN_OFF_PREEMPT].open);
	assert_int_equal(r->off[LAT_FN_OFF_PREEMPT].duration_ns, 11372);

	/* wakeup: #2 __trace_start_sched_wakeup, 233 cycles after #0 = 174 ns */
	assert_true(r->has_wakeup);
	assert_int_equal(t->e[r->wake_entry].index, 2);
	assert_int_equal(r->wake_ns, 174);
	assert_int_equal(r->wake_to_end_ns, 3402000 - 174);

	/* __journal_unfile_buffer .. inverted_lock, 7 entries, #8..#35 = 4 copies */
	assert_true(r->nrep >= 1);
	assert_int_equal(r->rep[0].period, 7);
	assert_int_equal(r->rep[0].count, 4);
	assert_int_equal(t->e[r->rep[0].first].index, 8);
	assert_string_equal(r->rep[0].caller, "journal_commit_transaction");
	assert_string_equal(t->e[r->rep[0].first + 5].function, "kmem_cache_free");
	/* #8 679575 .. #36 687446 = 7871 cycles = 5889 ns */
	assert_in_range(r->rep[0].time_ns, 5888, 5890);

	/* 49 verbose entries, 48 with a next one; #0's "+3971052.610ms" is the only outlier */
	assert_int_equal(r->delay_checked, 48);
	assert_int_equal(r->delay_mismatch, 1);
	/* #0's "<756f6a6b> (<6c616e72>)": 6b 6a 6f 75 72 6e 61 6c = "kjournal" */
	{
		int seen = 0;

		for (size_t i = 0; i < l->blocks[0]->nfindings; i++)
			if (!strcmp(l->blocks[0]->findings[i].kind, "garbled-entry")) {
				assert_non_null(strstr(l->blocks[0]->findings[i].message,
						       "\"kjournal\""));
				seen++;
			}
		assert_int_equal(seen, 1);
	}
	fnt_free(l);
}

static void test_seed002_cpu_mhz(void **state)
{
	struct lat_analyze_opts o;
	struct lat_loaded *l;
	const struct lat_fntrace_result *r;

	(void)state;
	lat_analyze_opts_init(&o);
	o.cpu_mhz = 1000;
	l = fnt_load(LAT_SAMPLES_DIR "/rt-lattrace/seed002-revell-3402us.txt", NULL, &o, NULL);
	r = l->blocks[0]->analysis;
	/* --cpu-mhz 1000: one cycle is one ns, the span is the raw 15199 cycles */
	assert_string_equal(r->time_source, "tsc");
	assert_int_equal(r->span_ns, 15199);
	/* ... and 1000 is far outside the 1334.64..1338.38 the time column allows */
	{
		int seen = 0;

		for (size_t i = 0; i < l->blocks[0]->nfindings; i++)
			seen += !strcmp(l->blocks[0]->findings[i].kind, "cpu-mhz-mismatch");
		assert_int_equal(seen, 1);
	}
	fnt_free(l);
	/* 1336 is inside: no finding */
	o.cpu_mhz = 1336;
	l = fnt_load(LAT_SAMPLES_DIR "/rt-lattrace/seed002-revell-3402us.txt", NULL, &o, NULL);
	for (size_t i = 0; i < l->blocks[0]->nfindings; i++)
		assert_string_not_equal(l->blocks[0]->findings[i].kind, "cpu-mhz-mismatch");
	fnt_free(l);
}

#define HDR "# tracer: irqsoff\n" \
	"# irqsoff latency trace v1.1.5 on 6.1.0\n" \
	"# latency: 40 us, #9/9, CPU#1 | (M:preempt VP:0, KP:0, SP:0 HP:0 #P:2)\n" \
	"#    | task: bash-100 (uid:0 nice:0 policy:0 rt_prio:0)\n"
#define ROWS_A \
	"    bash-100     1d..1    0us+: outer <-syscall\n" \
	"    bash-100     1d..1    2us : a <-outer\n" \
	"    bash-100     1d..2    3us+: b <-a\n" \
	"    bash-100     1d..1    5us : a <-outer\n" \
	"    bash-100     1d..2    6us+: b <-a\n" \
	"    bash-100     1d..1    8us : a <-outer\n" \
	"    bash-100     1d..2    9us+: b <-a\n" \
	"    bash-100     1...1   11us : c <-outer\n"
#define ROW_LAST "    bash-100     1d..1   40us : outer <-syscall\n"

static void test_constructed_blame(void **state)
{
	struct lat_loaded *l = fnt_load(NULL, HDR ROWS_A ROW_LAST, NULL, NULL);
	const struct lat_fntrace_result *r = l->blocks[0]->analysis;
	const struct lat_fn_blame *f;

	(void)state;
	assert_string_equal(r->time_source, "printed");
	/* self: c 11 -> 40 = 29 us; b 3x 2 us; a 3x 1 us; outer 0 -> 2 (+ the last, 0) */
	assert_string_equal(r->fn[0].function, "c");
	assert_int_equal(r->fn[0].self_ns, 29000);
	assert_string_equal(r->fn[1].function, "b");
	assert_int_equal(r->fn[1].self_ns, 6000);
	assert_int_equal(r->fn[1].calls, 3);
	/* 29 / 40 */
	assert_true(r->fn[0].share_pct > 72.49 && r->fn[0].share_pct < 72.51);
	f = find_fn(r, "a");
	assert_int_equal(f->self_ns, 3000);
	assert_int_equal(f->total_ns, 9000);	/* a + its b children: 3 x (1 + 2) */
	f = find_fn(r, "outer");
	assert_int_equal(f->self_ns, 2000);
	assert_int_equal(f->total_ns, 40000);	/* everything runs under outer */
	assert_int_equal(f->calls, 2);
	f = find_fn(r, "syscall");
	assert_int_equal(f->calls, 0);
	assert_int_equal(f->total_ns, 40000);
	/* irqs off from 0 us until c (11 us) turns them on; preempt depth >= 1 throughout */
	assert_int_equal(r->off[LAT_FN_OFF_IRQS].duration_ns, 11000);
	assert_int_equal(r->off[LAT_FN_OFF_IRQS].first, 0);
	assert_int_equal(r->off[LAT_FN_OFF_IRQS].end, 7);
	assert_false(r->off[LAT_FN_OFF_IRQS].open);
	assert_int_equal(r->off[LAT_FN_OFF_PREEMPT].duration_ns, 40000);
	assert_true(r->off[LAT_FN_OFF_PREEMPT].open);
	assert_false(r->has_wakeup);
	/* a, b three times from entry 1: 2 us .. 11 us */
	assert_int_equal(r->nrep, 1);
	assert_int_equal(r->rep[0].first, 1);
	assert_int_equal(r->rep[0].period, 2);
	assert_int_equal(r->rep[0].count, 3);
	assert_int_equal(r->rep[0].time_ns, 9000);
	assert_string_equal(r->rep[0].caller, "outer");
	/* c's ' ' promises <= 10 us but the next entry is 29 us later */
	assert_int_equal(r->mark_checked, 8);
	assert_int_equal(r->mark_mismatch, 1);
	assert_int_equal(r->covered_ns, 40000);
	assert_false(r->truncated);
	fnt_free(l);
}

static void test_constructed_elision(void **state)
{
	struct lat_loaded *l = fnt_load(NULL, HDR ROWS_A "[...]\n" ROW_LAST, NULL, NULL);
	const struct lat_fntrace_result *r = l->blocks[0]->analysis;

	(void)state;
	/* the 29 us across "[...]" belong to nobody */
	assert_int_equal(r->unattributed_ns, 29000);
	assert_int_equal(r->covered_ns, 11000);
	assert_true(r->covered_pct > 27.49 && r->covered_pct < 27.51);	/* 11 / 40 */
	assert_int_equal(find_fn(r, "c")->self_ns, 0);
	assert_string_equal(r->fn[0].function, "b");
	/* the preempt-off stretch stops at the cut, and is marked open */
	assert_int_equal(r->off[LAT_FN_OFF_PREEMPT].duration_ns, 11000);
	assert_true(r->off[LAT_FN_OFF_PREEMPT].open);
	assert_int_equal(r->mark_checked, 7);
	assert_int_equal(r->mark_mismatch, 0);
	fnt_free(l);
}

static void test_wakeup_rt(void **state)
{
	struct lat_loaded *l = fnt_load(LAT_SAMPLES_DIR "/ftrace-latency/3.8-wakeup_rt-5us.txt",
					NULL, NULL, NULL);
	const struct lat_fntrace_result *r = l->blocks[0]->analysis;

	(void)state;
	/* "0:120:R   + [003]  2389: 94:R sleep" at 0 us; latency 5 us */
	assert_true(r->has_wakeup);
	assert_int_equal(r->wake_entry, 0);
	assert_int_equal(r->wake_to_end_ns, 5000);
	/* ttwu_do_activate 1 us -> __schedule 5 us */
	assert_string_equal(r->fn[0].function, "ttwu_do_activate.constprop.87");
	assert_int_equal(r->fn[0].self_ns, 4000);
	fnt_free(l);
}

static const char *finding_msg(const struct lat_block *b, const char *kind)
{
	for (size_t i = 0; i < b->nfindings; i++)
		if (!strcmp(b->findings[i].kind, kind))
			return b->findings[i].message;
	return NULL;
}

/*
 * The (+delay) column read both ways: constructed v1.0.2-style rows whose
 * delays are the time since the previous row, then the same times with the
 * delays moved one row up (time to the next row).
 */
static void test_delay_direction(void **state)
{
	static const char since[] =
		"preemption latency trace v1.0.2\n"
		" latency: 30 us, entries: 4 (4)\n"
		"    | task: bash/7, uid:0 nice:0 policy:0 rt_prio:0\n"
		"=======>\n"
		"00000001 0.000ms (+0.000ms): a (x)\n"
		"00000001 0.010ms (+0.010ms): b (x)\n"
		"00000001 0.012ms (+0.002ms): c (x)\n"
		"00000001 0.030ms (+0.018ms): d (x)\n";
	static const char next[] =
		"preemption latency trace v1.0.7\n"
		" latency: 30 us, entries: 4 (4)\n"
		"    | task: bash/7, uid:0 nice:0 policy:0 rt_prio:0\n"
		"=======>\n"
		"00000001 0.000ms (+0.010ms): a (x)\n"
		"00000001 0.010ms (+0.002ms): b (x)\n"
		"00000001 0.012ms (+0.018ms): c (x)\n"
		"00000001 0.030ms (+0.000ms): d (x)\n";
	struct lat_loaded *l = fnt_load(NULL, since, NULL, NULL);
	const struct lat_fntrace_result *r = l->blocks[0]->analysis;

	(void)state;
	/* since-previous: rows 2-4 agree (3 checked, row 1 has no previous) */
	assert_true(r->delay_since_prev);
	assert_int_equal(r->delay_checked, 3);
	assert_int_equal(r->delay_mismatch, 0);
	/* the blame does not depend on it: a 10 us, b 2 us, c 18 us */
	assert_int_equal(find_fn(r, "c")->self_ns, 18000);
	assert_int_equal(find_fn(r, "a")->self_ns, 10000);
	fnt_free(l);

	l = fnt_load(NULL, next, NULL, NULL);
	r = l->blocks[0]->analysis;
	assert_false(r->delay_since_prev);
	assert_int_equal(r->delay_checked, 3);
	assert_int_equal(r->delay_mismatch, 0);
	fnt_free(l);
}

/* A header cut by the poster: the facts it lost are named, with their line. */
static void test_header_unknown(void **state)
{
	static const char text[] =
		"# tracer: irqsoff\n"
		"# irqsoff latency trace v1.1.5 on 3.8.0\n"
		"# latency: 16 us, #4/4 | (M:preempt VP:0, KP:0, SP:0 HP:0 #P:4)\n"
		"  <idle>-0       0d.s2    0us+: _raw_spin_lock_irq <-run_timer_softirq\n"
		"  <idle>-0       0dNs3   17us : _raw_spin_unlock_irq <-run_timer_softirq\n";
	struct lat_loaded *l = fnt_load(NULL, text, NULL, NULL);
	const struct lat_block *b = l->blocks[0];
	const char *m = finding_msg(b, "header-unknown");

	(void)state;
	assert_int_equal(b->fntrace->cpu, -1);
	assert_non_null(m);
	assert_non_null(strstr(m, "CPU (line 3: no \"CPU#n\" on it)"));
	assert_non_null(strstr(m, "task (no \"| task:\" line)"));
	assert_null(strstr(m, "latency"));
	assert_null(finding_msg(b, "header-missing"));
	fnt_free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed002),
		cmocka_unit_test(test_seed002_cpu_mhz),
		cmocka_unit_test(test_constructed_blame),
		cmocka_unit_test(test_constructed_elision),
		cmocka_unit_test(test_wakeup_rt),
		cmocka_unit_test(test_delay_direction),
		cmocka_unit_test(test_header_unknown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
