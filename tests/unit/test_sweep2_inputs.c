// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Issue 28's second sweep of fresh public inputs (samples/README-imports.md,
 * "Second sweep of fresh public inputs"): what each one showed wrong, checked
 * on the sample itself; the values are read off the files with grep and awk,
 * as the README says.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "latscope/format.h"
#include "latscope/fntrace.h"
#include "old_logs_util.h"

#define S(x) LAT_SAMPLES_DIR "/" x

/* The one block of @l, read without a malformed line. */
static const struct lat_block *only_block(const struct lat_loaded *l)
{
	assert_int_equal(l->nblocks, 1);
	assert_int_equal(l->blocks[0]->skipped_lines, 0);
	return l->blocks[0];
}

/* @h holds what the tool printed: count, avg and max (ns); min is checked apart. */
static void assert_count_avg_max(const struct lat_histogram *h, int64_t count, int64_t avg,
				 int64_t max)
{
	assert_int_equal(h->printed.count, count);
	assert_int_equal(h->printed.avg_ns, avg);
	assert_int_equal(h->printed.max_ns, max);
}

/*
 * An irqsoff dump quoted from below its "# latency:" line (Greg Thelen's
 * cgroup/rstat patch, LKML, 19 Mar 2025): the started-at line and the legend
 * open it.  Before, its rows were ftrace text, two of them malformed.  The
 * four entries: 0us to 45343us (awk '{print $3}'), CPU 52, irqs off ('d').
 */
static void test_latency_dump_without_header(void **state)
{
	struct lat_loaded *l = old_logs_load(S("ftrace-latency/"
					       "6.14-rc6-irqsoff-45341us-no-latency-line.txt"),
					     NULL);
	const struct lat_block *b;
	const struct lat_fntrace *ft;

	(void)state;
	b = only_block(l);
	assert_string_equal(b->fmt->name, "ftrace-latency");
	/* lines 3-27: from "#  => started at:" to the last stack frame */
	assert_int_equal(b->first_line, 3);
	ft = b->fntrace;
	assert_non_null(ft);
	assert_int_equal(ft->n, 4);
	assert_int_equal(ft->nstack, 8);
	assert_string_equal(ft->started_at, "_raw_spin_lock_irq");
	assert_string_equal(ft->ended_at, "cgroup_rstat_flush");
	assert_int_equal(ft->latency_ns, -1);
	assert_int_equal(ft->e[0].cpu, 52);
	assert_int_equal(ft->e[3].time_ns, 45343000);
	assert_non_null(old_logs_finding(b, "header-missing"));
	old_logs_free(l);
}

/*
 * perf sched -l as it was first merged (Frederic Weisbecker, "perf sched: Add
 * sched latency profiling", Sep 2009): "Tasks count total avg max" in ns and
 * no bars.  Before: "no log block of a known format found".
 */
static void test_perf_sched_2009_layout(void **state)
{
	struct lat_loaded *l = old_logs_load(S("perf-sched/commit-2009-weisbecker-sched-l-ns.txt"),
					     NULL);
	const struct lat_block *b;

	(void)state;
	b = only_block(l);
	/* 7 task rows (awk 'NF == 5 && $2 ~ /^[0-9]+$/') */
	assert_int_equal(b->nhist, 7);
	assert_string_equal(b->hist[6]->title, "kblockd/0");
	/* kblockd/0: 42 snapshots, 37805097 / 42 = 900121 ns, max 5077684 ns */
	assert_count_avg_max(b->hist[6], 42, 900121, 5077684);
	assert_int_equal(b->hist[0]->printed.max_ns, 28826);
	assert_non_null(old_logs_finding(b, "perf-sched-2009"));
	old_logs_free(l);
}

/*
 * Five numbers that are no perf row: avg is not total / count, or max lies
 * below avg.  A table of any other tool must not turn into perf sched rows.
 */
static void test_perf_sched_2009_not_any_numbers(void **state)
{
	static const char text[] =
		" Tasks                     count          total              avg            max\n"
		"\n"
		"migration/0                  2             39849            19925           28826\n"
		"ksoftirqd/0                  7            756383           108054            1000\n";
	char path[] = "/tmp/latscope-unit-XXXXXX";
	struct lat_loaded l = { 0 };
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, sizeof(text) - 1), (ssize_t)(sizeof(text) - 1));
	close(fd);
	/* nothing read: "no log block of a known format found" */
	assert_true(lat_load(&l, path, NULL) < 0);
	assert_int_equal(l.nblocks, 0);
	lat_loaded_release(&l);
	unlink(path);
}

/*
 * cyclictest's last row cut after "Max:" (Arnaldo Carvalho de Melo quoting
 * his run, LKML, 17 Jul 2020): thread 7 keeps its count, min and avg, its
 * maximum is unknown.  Before, the row was malformed and thread 7 lost.
 */
static void test_cyclictest_row_cut_at_max(void **state)
{
	struct lat_loaded *l = old_logs_load(S("mail/040-melo-2020-cyclictest-quoted-last-row-cut.txt"),
					     NULL);
	const struct lat_block *b;
	const struct lat_finding *f;

	(void)state;
	b = only_block(l);
	/* grep -c '^> > T:' = 8 threads */
	assert_int_equal(b->nhist, 8);
	assert_string_equal(b->hist[7]->title, "thread 7");
	/* T: 7 (29072) P:95 I:4500 C: 110 Min: 2 Act: 2 Avg: 2 Max: */
	assert_count_avg_max(b->hist[7], 110, 2000, LAT_VALUE_NONE);
	assert_int_equal(b->hist[7]->printed.min_ns, 2000);
	assert_int_equal(b->hist[6]->printed.max_ns, 7000);
	f = old_logs_finding(b, "row-cut");
	assert_non_null(f);
	assert_non_null(strstr(f->message, "line 17:"));
	/* "> > 29064", pidof's answer at line 22, is no piece of an overflow list */
	assert_int_equal(l->nblocks, 1);
	assert_int_equal(l->diag.nwarn, 0);
	old_logs_free(l);
	/* a row with a value after Max: is whole: no such finding */
	l = old_logs_load_text("T: 0 (29065) P:95 I:1000 C:    518 Min:      2 Act:    2 Avg:    2 "
			       "Max:       6\n", NULL);
	assert_int_equal(l->nblocks, 1);
	assert_null(old_logs_finding(l->blocks[0], "row-cut"));
	old_logs_free(l);
}

/*
 * Three numbered runs, each label above its command line and "policy:"
 * (Huacai Chen's LoongArch PREEMPT_RT data quoted by himself, QP, LKML
 * 2024): the blocks take the labels.  Before, all three were "cyclictest
 * summary" and only their order told them apart.  Max of thread 3: 931,
 * 226, 53 us (the QP soft breaks joined: grep -A1 'T: 3').
 */
static void test_cyclictest_numbered_run_labels(void **state)
{
	struct lat_loaded *l = old_logs_load(S("mail/039-chen-2024-loongarch-cyclictest-qp-quoted.txt"),
					     NULL);

	(void)state;
	assert_int_equal(l->nblocks, 3);
	assert_string_equal(l->blocks[0]->title,
			    "1. PREEMPT kernel with default configuration: cyclictest summary");
	assert_string_equal(l->blocks[1]->title,
			    "2. PREEMPT_RT kernel with default configuration: cyclictest summary");
	assert_string_equal(l->blocks[2]->title,
			    "3. PREEMPT_RT kernel with tuned configuration: cyclictest summary");
	assert_int_equal(l->blocks[0]->hist[3]->printed.max_ns, 931000);
	assert_int_equal(l->blocks[1]->hist[3]->printed.max_ns, 226000);
	assert_int_equal(l->blocks[2]->hist[3]->printed.max_ns, 53000);
	old_logs_free(l);
	/* a sentence above the command is still prose: "results. For instance:" */
	l = old_logs_load_text("Here are the results. For instance:\n"
			       "# cyclictest -p 80 -n\n"
			       "T: 0 ( 1636) P:80 I:1000 C:  10000 Min:      9 Act:   18 Avg:   15 "
			       "Max:      34\n", NULL);
	assert_int_equal(l->nblocks, 1);
	assert_string_equal(l->blocks[0]->title, "cyclictest summary");
	old_logs_free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_latency_dump_without_header),
		cmocka_unit_test(test_perf_sched_2009_layout),
		cmocka_unit_test(test_perf_sched_2009_not_any_numbers),
		cmocka_unit_test(test_cyclictest_row_cut_at_max),
		cmocka_unit_test(test_cyclictest_numbered_run_labels),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
