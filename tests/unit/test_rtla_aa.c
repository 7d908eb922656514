// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtla in every version: timerlat's auto-analysis in the tab-aligned layout
 * (rtla 6.3 - 6.9, and as a paste flattens it) and the space-aligned one
 * (6.10+), its culprit and stack; timerlat top's ALL row, rows left out, a
 * count that overflowed, notes typed after a row.  The samples and how their
 * numbers were checked: samples/README-imports.md.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "latscope/format.h"
#include "old_logs_util.h"

#define S(x) LAT_SAMPLES_DIR "/" x
#define NONE LAT_VALUE_NONE

static void assert_printed(const struct lat_histogram *h, const char *title, int64_t n,
			   int64_t min, int64_t avg, int64_t max)
{
	assert_string_equal(h->title, title);
	assert_true(h->has_printed);
	assert_int_equal(h->printed.count, n);
	assert_int_equal(h->printed.min_ns, min);
	assert_int_equal(h->printed.avg_ns, avg);
	assert_int_equal(h->printed.max_ns, max);
}

static const char *message(const struct lat_block *b, const char *kind)
{
	const struct lat_finding *f = old_logs_finding(b, kind);

	assert_non_null(f);
	return f->message;
}

static const char blocking_23[] =
	"cpu 23: objtool:49256 blocked the timerlat thread for 3.79 us (9.03 % of the 41.96 us "
	"Thread latency)";

static void test_aa_both_layouts(void **state)
{
	struct lat_loaded *tabs = old_logs_load(S("rtla/timerlat-top-aa-tabs-6.3-lkml.txt"), NULL);
	struct lat_loaded *spaces = old_logs_load(S("rtla/timerlat-top-aa.txt"), NULL);
	const struct lat_block *t, *s;

	(void)state;
	assert_int_equal(tabs->nblocks, 1);
	assert_int_equal(spaces->nblocks, 1);
	t = tabs->blocks[0];
	s = spaces->blocks[0];
	assert_int_equal(t->skipped_lines, 0);
	/* the same run, printed by rtla 6.3 with tabs and documented with spaces */
	assert_string_equal(message(t, "rtla-auto-analysis"), message(s, "rtla-auto-analysis"));
	assert_string_equal(message(t, "rtla-blocking-thread"), blocking_23);
	assert_string_equal(message(s, "rtla-blocking-thread"), blocking_23);
	assert_string_equal(message(t, "rtla-stack"), message(s, "rtla-stack"));
	assert_non_null(strstr(message(s, "rtla-stack"), "cpu 23: the stack of objtool:49256, "
			       "innermost first (19 frames): timerlat_irq <- __hrtimer_run_queues"));
	assert_non_null(strstr(message(s, "rtla-stack"), "<- btrfs_buffered_write <- "
			       "btrfs_do_write_iter <- vfs_write"));
	assert_int_equal(t->nhist, 46);
	assert_printed(t->hist[44], "IRQ cpu23", 12320, 0, 1000, 28000);
	old_logs_free(tabs);
	old_logs_free(spaces);
}

static void test_aa_tabs_flattened(void **state)
{
	struct lat_loaded *l = old_logs_load(S("rtla/timerlat-aa-tabs-pasted-lkml.txt"), NULL);
	const struct lat_block *b;

	(void)state;
	assert_int_equal(l->nblocks, 1);
	b = l->blocks[0];
	assert_int_equal(b->skipped_lines, 0);
	assert_string_equal(b->title, "rtla auto-analysis");
	assert_string_equal(message(b, "rtla-blocking-thread"),
			    "cpu 3: insync:4048 blocked the timerlat thread for 1223.16 us (99.00 % "
			    "of the 1235.47 us Thread latency)");
	/* "IRQ interference" has no colon; the IRQ under it is kept too */
	assert_non_null(strstr(message(b, "rtla-auto-analysis"),
			       "IRQ interference 4.93 us (0.40 %); local_timer:236 4.93 us; "
			       "Thread latency: 1235.47 us (100%)"));
	assert_null(old_logs_finding(b, "rtla-stack"));
	/* an analysis alone: its IRQ and Thread latencies are the block's summaries */
	assert_int_equal(b->nhist, 2);
	assert_printed(b->hist[0], "IRQ cpu3", NONE, NONE, NONE, 1900);
	assert_printed(b->hist[1], "Thread cpu3", NONE, NONE, NONE, 1235470);
	old_logs_free(l);
}

/* rtla 6.3's first release: "Previous IRQ interference" printed without its \n (fixed in 6.3) */
static void test_aa_previous_irq(void **state)
{
	struct lat_loaded *l = old_logs_load(S("rtla/timerlat-aa-tabs-prev-irq-lkml.txt"), NULL);
	const struct lat_block *b;

	(void)state;
	assert_int_equal(l->nblocks, 1);
	b = l->blocks[0];
	/* the two analyses, the patch's "Fix the output:" (line 10) between them */
	assert_int_equal(b->skipped_lines, 1);
	assert_non_null(strstr(message(b, "rtla-auto-analysis"),
			       "## CPU 12 hit stop tracing, analyzing it ##; Previous IRQ "
			       "interference: up to 2.22 us IRQ handler delay: 18.06 us (0.00 %); "
			       "IRQ latency: 18.52 us;"));
	assert_non_null(strstr(message(b, "rtla-auto-analysis"),
			       "## CPU 7 hit stop tracing, analyzing it ##; Previous IRQ "
			       "interference: up to 8.93 us; IRQ handler delay: 0.98 us (0.00 %); "
			       "IRQ latency: 2.95 us; Timerlat IRQ duration: 11.26 us (0.03 %)"));
	/* no thread is named: no blocking-thread finding; each CPU's IRQ latency */
	assert_null(old_logs_finding(b, "rtla-blocking-thread"));
	assert_int_equal(b->nhist, 2);
	assert_printed(b->hist[0], "IRQ cpu12", NONE, NONE, NONE, 18520);
	assert_printed(b->hist[1], "IRQ cpu7", NONE, NONE, NONE, 2950);
	old_logs_free(l);
}

/*
 * John Kacur's report (May 2024): rtla before 6.10 printed a column without
 * samples with its initial values, "min: 18446744073709551615" (~0) and
 * "max: 0"; the analysis of hist -T came with no "## CPU" line.
 */
static void test_hist_count0_unnamed_cpu(void **state)
{
	struct lat_loaded *l = old_logs_load(S("rtla/timerlat-hist-count0-aa-tabs-lkml.txt"),
					     NULL);
	const struct lat_block *b;

	(void)state;
	assert_int_equal(l->nblocks, 1);
	b = l->blocks[0];
	/* the min: row (line 13) is read, not reported; no line is */
	assert_int_equal(b->skipped_lines, 0);
	assert_int_equal(b->nhist, 6);
	/* rows 2, 33, 36, 49, 52: one sample each; "2" is IRQ-001's (us) */
	assert_printed(b->hist[0], "IRQ cpu1", 1, 2000, 2000, 2000);
	assert_printed(b->hist[4], "Thr cpu2", 1, 52000, 52000, 52000);
	/* Usr-002: count 0, its ~0 / - / 0 no values */
	assert_printed(b->hist[5], "Usr cpu2", 0, NONE, NONE, NONE);
	/* swapper/2:0 under "Blocking thread:", the total on the glued line */
	assert_string_equal(message(b, "rtla-blocking-thread"),
			    "cpu not printed: swapper/2:0 blocked the timerlat thread for 1.01 us "
			    "(1.90 % of the 52.93 us Thread latency)");
	assert_non_null(strstr(message(b, "rtla-auto-analysis"),
			       "IRQ handler delay: (exit from idle) 48.21 us (91.09 %)"));
	old_logs_free(l);
}

static void test_aa_irq_case(void **state)
{
	struct lat_loaded *l = old_logs_load(S("rtla/timerlat-aa-irq-qp-lkml-2025.txt"), NULL);
	const struct lat_block *b;

	(void)state;
	/* the analysis, then the function trace Marc attached (ftrace text) */
	assert_int_equal(l->nblocks, 2);
	b = l->blocks[0];
	assert_string_equal(b->fmt->name, "rtla");
	assert_int_equal(b->first_line, 30);
	/* "(0.00" / "%)": a line his mailer wrapped, joined back (rt_aa_row()) */
	assert_int_equal(l->text.fix.rows, 1);
	assert_int_equal(b->skipped_lines, 0);
	assert_non_null(strstr(message(b, "rtla-auto-analysis"),
			       "IRQ handler delay: 0.00 us (0.00 %); IRQ latency: 709.25 us;"));
	assert_string_equal(message(b, "rtla-blocking-thread"),
			    "cpu 1: ip:3567 was running when the timer IRQ came late (IRQ latency "
			    "709.25 us)");
	assert_non_null(strstr(message(b, "rtla-stack"), "cpu 1: the stack of ip:3567, innermost "
			       "first (21 frames): timerlat_irq <- "));
	assert_non_null(strstr(message(b, "rtla-stack"), "<- igb_update_mc_addr_list <- "
			       "igb_set_rx_mode <- "));
	assert_string_equal(l->blocks[1]->fmt->name, "ftrace-text");
	/* the IRQ case names one latency, the IRQ's */
	assert_int_equal(b->nhist, 1);
	assert_printed(b->hist[0], "IRQ cpu1", NONE, NONE, NONE, 709250);
	assert_int_equal(b->hist[0]->first_line, 30);
	old_logs_free(l);
}

static void test_top_all_row(void **state)
{
	struct lat_loaded *l = old_logs_load(S("rtla/timerlat-top-all-6.10-lkml.txt"), NULL);
	const struct lat_block *b;

	(void)state;
	assert_int_equal(l->nblocks, 1);
	b = l->blocks[0];
	assert_int_equal(b->skipped_lines, 0);
	assert_int_equal(b->nhist, 10);
	/* COUNT is the IRQ count: the Thread column's is not printed */
	assert_printed(b->hist[0], "IRQ cpu0", 10003, 19000, 150000, 441000);
	assert_printed(b->hist[1], "Thread cpu0", NONE, 35000, 170000, 459000);
	/* "ALL #40011  e0 |  2  137  462 |  8  156  481": 3 x 10003 + 10002 = 40011 */
	assert_printed(b->hist[8], "IRQ all", 40011, 2000, 137000, 462000);
	assert_printed(b->hist[9], "Thread all", NONE, 8000, 156000, 481000);
	assert_null(old_logs_finding(b, "count-mismatch"));
	assert_null(old_logs_finding(b, "count-overflow"));
	old_logs_free(l);
}

static void test_top_overflow(void **state)
{
	struct lat_loaded *l = old_logs_load(S("rtla/timerlat-top-overflow-lkml.txt"), NULL);
	const struct lat_block *b;

	(void)state;
	assert_int_equal(l->nblocks, 1);
	b = l->blocks[0];
	/* the "..." between the rows is the poster's, not a malformed row */
	assert_int_equal(b->skipped_lines, 0);
	assert_string_equal(message(b, "rows-elided"), "1 \"...\" line (the first at line 8): the "
			    "paste leaves rows out; the ALL row covers every CPU");
	assert_int_equal(b->nhist, 6);
	/* " 1 #43200096  |": the count wider than its column */
	assert_printed(b->hist[0], "IRQ cpu1", 43200096, 0, 1000, 2000);
	/* "ALL #119144 e4": 119144 x 10^4 */
	assert_printed(b->hist[4], "IRQ all", 1191440000, 0, 5000, 4000);
	assert_string_equal(message(b, "count-overflow"), "IRQ all: the average 5 us is above the "
			    "maximum 4 us: the sample count rtla divided by overflowed (a 32-bit "
			    "int before rtla 6.13), this row's averages are wrong");
	assert_int_equal(b->findings[1].sev, LAT_SEV_WARN);
	assert_non_null(strstr(b->findings[1].message, "Thread all: the average 28 us is above "
			       "the maximum 16 us"));
	old_logs_free(l);
}

/* Built from timerlat_top.c's format strings ("%3d #%-9llu |", "ALL #%-6llu e%d |"). */
static const char mismatch[] =
	"                                     Timer Latency\n"
	"  0 00:00:10   |          IRQ Timer Latency (us)        |         Thread Timer "
	"Latency (us)\n"
	"CPU COUNT      |      cur       min       avg       max |      cur       min       avg"
	"       max\n"
	"  0 #1000      |        1         0         1        10 |        3         2         4"
	"        20\n"
	"  1 #1000      |        1         0         1        11 |        3         2         4"
	"        21\n"
	"---------------|----------------------------------------|------------------------------"
	"---------\n"
	"ALL #1500   e0 |                  0         1        11 |                  2         4"
	"        21\n";

static void test_top_count_mismatch(void **state)
{
	struct lat_loaded *l = old_logs_load_text(mismatch, NULL);
	const struct lat_block *b;

	(void)state;
	assert_int_equal(l->nblocks, 1);
	b = l->blocks[0];
	assert_int_equal(b->skipped_lines, 0);
	assert_string_equal(message(b, "count-mismatch"), "ALL (line 7): its count 1500 is not the "
			    "sum of the CPU rows' counts, 2000");
	old_logs_free(l);
}

static void test_top_notes_and_old_wording(void **state)
{
	struct lat_loaded *l = old_logs_load(S("rtla/timerlat-top-trace-5.17-doc.txt"), NULL);
	const struct lat_block *b;

	(void)state;
	/* rtla 5.17's top, then the trace it saved (the kernel-tracer reader) */
	assert_int_equal(l->nblocks, 2);
	b = l->blocks[0];
	assert_string_equal(b->fmt->name, "rtla");
	assert_int_equal(b->skipped_lines, 0);
	assert_int_equal(b->nhist, 48);
	assert_string_equal(message(b, "note"), "cpu6 (line 11): \"<--- CPU with spike\" typed "
			    "after the row");
	assert_printed(b->hist[13], "Thread cpu6", NONE, 2000, 10000, 30000);
	b = l->blocks[1];
	assert_string_equal(b->fmt->name, "kernel-tracer");
	assert_int_equal(b->skipped_lines, 0);
	assert_non_null(strstr(message(b, "stack"), "<- _raw_spin_unlock_irqrestore [<---- "
			       "spinlock that disabled interrupt.] <- try_to_wake_up"));
	assert_non_null(strstr(message(b, "noise-culprit"), "irq_noise local_timer:236 12553 ns "
			       "(41.4 %, line 35), thread_noise sh:109404 4769 ns"));
	old_logs_free(l);
}

static void test_aa_line_kinds(void **state)
{
	const struct lat_format *rt = lat_format_find("rtla");
	static const char *const rows[] = {
		"  Blocking thread:",
		"  IRQ handler delay:\t\t\t\t      \t    27.49 us (65.52 %)",
		"    IRQ interference          4.93 us (0.40 %)",
		"  Previous IRQ interference:                  up to       8.93 us",
		"  IRQ handler delay:                  (exit from idle)       0.98 us (0.00 %)",
		("ALL #40011  e0 |                  2       137       462 |                  8       "
		 "156       481"),
	};
	static const char *const soft[] = {
		"                               ip:3567",
		"\t\t\tobjtool:49256    \t\t     3.79 us",
		"    Blocking thread stack trace",
		"  ---------------|----------------------------------------|-----------------------",
		"...",
		"  saving trace to timerlat_trace.txt",
	};
	static const char prose[] = "IRQ interference is what we saw, 4 us of it.";

	(void)state;
	for (size_t i = 0; i < LAT_ARRAY_SIZE(rows); i++)
		assert_int_equal(rt->line_kind(rows[i], strlen(rows[i])), LAT_LINE_ROW);
	for (size_t i = 0; i < LAT_ARRAY_SIZE(soft); i++)
		assert_int_equal(rt->line_kind(soft[i], strlen(soft[i])), LAT_LINE_SOFT);
	assert_int_equal(rt->line_kind(prose, sizeof(prose) - 1), LAT_LINE_NO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_aa_both_layouts),
		cmocka_unit_test(test_aa_tabs_flattened),
		cmocka_unit_test(test_aa_irq_case),
		cmocka_unit_test(test_top_all_row),
		cmocka_unit_test(test_top_overflow),
		cmocka_unit_test(test_top_count_mismatch),
		cmocka_unit_test(test_top_notes_and_old_wording),
		cmocka_unit_test(test_aa_line_kinds),
		cmocka_unit_test(test_aa_previous_irq),
		cmocka_unit_test(test_hist_count0_unnamed_cpu),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
