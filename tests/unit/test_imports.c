// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The readers of the real-time tools' outputs: cyclictest, rtla, perf-sched,
 * on the outputs kept in samples/ (samples/README-imports.md says how each
 * expected number was found with awk/grep).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "latscope/an_histogram.h"
#include "latscope/an_probe.h"
#include "latscope/report.h"
#include "old_logs_util.h"

#define S(x) LAT_SAMPLES_DIR "/" x

static const struct lat_block *one_block(struct lat_loaded *l, const char *fmt)
{
	assert_int_equal(l->nblocks, 1);
	assert_string_equal(l->blocks[0]->fmt->name, fmt);
	assert_int_equal(l->blocks[0]->skipped_lines, 0);
	return l->blocks[0];
}

static void assert_bucket(const struct lat_hist_q *q, int64_t lo, int64_t hi)
{
	assert_true(q->valid);
	assert_int_equal(q->lo_ns, lo);
	assert_int_equal(q->hi_ns, hi);
}

static void assert_printed(const struct lat_histogram *h, int64_t n, int64_t min, int64_t avg,
			   int64_t max)
{
	assert_true(h->has_printed);
	assert_int_equal(h->printed.count, n);
	assert_int_equal(h->printed.min_ns, min);
	assert_int_equal(h->printed.avg_ns, avg);
	assert_int_equal(h->printed.max_ns, max);
}

#define NONE LAT_VALUE_NONE

/* A summary's title and what the tool printed */
static void assert_titled(const struct lat_histogram *h, const char *title, int64_t min,
			  int64_t avg, int64_t max)
{
	assert_string_equal(h->title, title);
	assert_printed(h, NONE, min, avg, max);
}

static void test_cyclictest_quiet(void **state)
{
	struct lat_loaded *l = old_logs_load(S("cyclictest/quiet.txt"), NULL);
	const struct lat_block *b = one_block(l, "cyclictest");

	(void)state;
	/* T: 0 ( 8049) P:80 I:200 C:   2000 Min:     13 Act:   52 Avg:   69 Max:    3170 */
	assert_int_equal(b->nhist, 1);
	assert_string_equal(b->hist[0]->title, "thread 0");
	assert_int_equal(b->hist[0]->nbuckets, 0);
	assert_printed(b->hist[0], 2000, 13000, 69000, 3170000);
	old_logs_free(l);
}

static void test_cyclictest_default_refreshes(void **state)
{
	struct lat_loaded *l = old_logs_load(S("cyclictest/default.txt"), NULL);
	const struct lat_block *b = one_block(l, "cyclictest");

	(void)state;
	/* the last of 39 refreshes: C: 2000 Min: 11 Avg: 72 Max: 1436 */
	assert_int_equal(b->nhist, 1);
	assert_printed(b->hist[0], 2000, 11000, 72000, 1436000);
	assert_non_null(old_logs_finding(b, "refreshes"));
	old_logs_free(l);
}

static void test_cyclictest_hist(void **state)
{
	struct lat_loaded *l = old_logs_load(S("cyclictest/hist.txt"), NULL);
	const struct lat_block *b = one_block(l, "cyclictest");
	const struct lat_hist_result *r = b->analysis;

	(void)state;
	assert_int_equal(b->nhist, 2);
	/* 200 rows of 1 us and the overflow bucket [200 us, +inf) */
	assert_int_equal(b->hist[0]->nbuckets, 201);
	assert_int_equal(b->hist[0]->b[200].lo_ns, 200000);
	assert_int_equal(b->hist[0]->b[200].hi_ns, INT64_MAX);
	assert_int_equal(b->hist[0]->b[200].count, 13);
	/* # Total: 1987 + # Histogram Overflows: 13 */
	assert_int_equal(b->hist[0]->printed_total, 2000);
	assert_int_equal(b->hist[1]->printed_total, 2000);
	assert_printed(b->hist[0], NONE, 10000, 70000, 2137000);
	assert_printed(b->hist[1], NONE, 10000, 63000, 2026000);
	assert_int_equal(r->stats[0].total, 2000);
	/* ranks 1000, 1800, 1980 reached at rows 64, 92, 162; 1998 only in the overflow */
	assert_bucket(&r->stats[0].q[LAT_HQ_P50], 64000, 65000);
	assert_bucket(&r->stats[0].q[LAT_HQ_P90], 92000, 93000);
	assert_bucket(&r->stats[0].q[LAT_HQ_P99], 162000, 163000);
	assert_bucket(&r->stats[0].q[LAT_HQ_P999], 200000, INT64_MAX);
	assert_bucket(&r->stats[1].q[LAT_HQ_P50], 57000, 58000);
	assert_bucket(&r->stats[1].q[LAT_HQ_P99], 136000, 137000);
	/* printed min 10 and max 2137 agree with the buckets: no printed-stats warning */
	assert_null(old_logs_finding(b, "printed-stats"));
	assert_null(old_logs_finding(b, "overflow-cycles"));
	old_logs_free(l);
}

static void test_cyclictest_verbose(void **state)
{
	struct lat_loaded *l = old_logs_load(S("cyclictest/verbose.txt"), NULL);
	const struct lat_block *b = one_block(l, "cyclictest");
	const struct lat_hist_result *r = b->analysis;

	(void)state;
	/* 200 "0: N: LAT" rows, the largest latency 597 us */
	assert_int_equal(b->nhist, 1);
	assert_int_equal(r->stats[0].total, 200);
	assert_bucket(&r->stats[0].max, 597000, 598000);
	old_logs_free(l);
}

static void test_cyclictest_json(void **state)
{
	struct lat_loaded *l = old_logs_load(S("cyclictest/hist-run.json"), NULL);
	const struct lat_block *b = one_block(l, "cyclictest");
	const struct lat_hist_result *r = b->analysis;

	(void)state;
	assert_int_equal(b->nhist, 2);
	/* "cycles": 2000, "min": 11, "max": 1987, "avg": 80.50 */
	assert_printed(b->hist[0], 2000, 11000, 80500, 1987000);
	/* the histogram holds 1635 (as "# Total:" in hist-json.txt), 365 inferred overflows */
	assert_int_equal(r->stats[0].total, 2000);
	assert_int_equal(b->hist[0]->b[b->hist[0]->nbuckets - 1].lo_ns, 100000);
	assert_int_equal(b->hist[0]->b[b->hist[0]->nbuckets - 1].count, 365);
	assert_int_equal(r->stats[1].total, 1977);
	assert_non_null(old_logs_finding(b, "overflow-inferred"));
	old_logs_free(l);
}

static void test_cyclictest_histofall(void **state)
{
	struct lat_loaded *l = old_logs_load(S("cyclictest/histofall.txt"), NULL);
	const struct lat_block *b = one_block(l, "cyclictest");
	const struct lat_hist_result *r = b->analysis;

	(void)state;
	/* -H: two threads and the sum column, which has no Min/Avg of its own */
	assert_int_equal(b->nhist, 3);
	assert_string_equal(b->hist[2]->title, "all threads");
	assert_int_equal(r->stats[0].total, 2000);
	assert_int_equal(r->stats[1].total, 1955);
	assert_int_equal(r->stats[2].total, 3955);
	assert_int_equal(b->hist[2]->printed_total, 3955);
	assert_printed(b->hist[2], NONE, NONE, NONE, 9446000);
	old_logs_free(l);
}

static void test_cyclictest_nsecs(void **state)
{
	struct lat_loaded *l = old_logs_load(S("cyclictest/nsecs.txt"), NULL);
	const struct lat_block *b = one_block(l, "cyclictest");

	(void)state;
	/* Min:  11006 Act:   61694 Avg:  107127 Max:16822590, in ns (-N) */
	assert_printed(b->hist[0], 2000, 11006, 107127, 16822590);
	assert_non_null(old_logs_finding(b, "nanoseconds"));
	old_logs_free(l);
}

static void test_cyclictest_breaktrace(void **state)
{
	struct lat_loaded *l = old_logs_load(S("cyclictest/breaktrace.txt"), NULL);
	const struct lat_block *b = one_block(l, "cyclictest");
	const struct lat_finding *f;

	(void)state;
	/* -b 300: stopped after 40 cycles; "# Break thread: 28842", "# Break value: 513" */
	assert_printed(b->hist[0], 40, 47000, 92000, 513000);
	f = old_logs_finding(b, "breaktrace");
	assert_non_null(f);
	assert_int_equal(f->sev, LAT_SEV_INFO);
	assert_non_null(strstr(f->message, "thread 0 (tid 28842) woke 513 us late"));
	old_logs_free(l);
}

static void test_perf_timehist_variants(void **state)
{
	static const char *const files[] = { "perf-sched/timehist-w.txt",
					     "perf-sched/timehist-M.txt",
					     "perf-sched/timehist-V.txt",
					     "perf-sched/timehist-state.txt" };

	(void)state;
	for (size_t i = 0; i < 4; i++) {
		char path[512];
		struct lat_loaded *l;
		const struct lat_block *b;
		const struct lat_hist_result *r;

		snprintf(path, sizeof(path), "%s/%s", LAT_SAMPLES_DIR, files[i]);
		l = old_logs_load(path, NULL);
		b = one_block(l, "perf-sched");
		r = b->analysis;
		/* the same 1088 switches (timehist -s) whatever the columns: 872 + 216 */
		assert_int_equal(r->stats[0].total, 872);
		assert_int_equal(r->stats[1].total, 216);
		if (i < 2)
			assert_non_null(old_logs_finding(b, "event-rows"));
		old_logs_free(l);
	}
}

static void test_perf_latency(void **state)
{
	struct lat_loaded *l = old_logs_load(S("perf-sched/latency.txt"), NULL);
	const struct lat_block *b = one_block(l, "perf-sched");

	(void)state;
	/* 24 task rows; their switches add up to TOTAL's 628 */
	assert_int_equal(b->nhist, 24);
	assert_string_equal(b->hist[0]->title, "sleep:8651");
	assert_printed(b->hist[0], 2, NONE, 12002000, 24003000);
	assert_string_equal(b->hist[2]->title, "cc1:(8)");
	assert_printed(b->hist[2], 485, NONE, 8452000, 41168000);
	assert_null(old_logs_finding(b, "total-mismatch"));
	assert_non_null(old_logs_finding(b, "perf-info"));
	old_logs_free(l);
}

static void test_perf_timehist(void **state)
{
	struct lat_loaded *l = old_logs_load(S("perf-sched/timehist.txt"), NULL);
	const struct lat_block *b = one_block(l, "perf-sched");
	const struct lat_hist_result *r = b->analysis;

	(void)state;
	/* rows per CPU 443 and 509; the largest sch delay 15.651 and 22.539 ms */
	assert_int_equal(b->nhist, 2);
	assert_string_equal(b->hist[0]->title, "cpu0 sch delay");
	assert_int_equal(r->stats[0].total, 443);
	assert_int_equal(r->stats[1].total, 509);
	assert_bucket(&r->stats[0].max, 15651000, 15652000);
	assert_bucket(&r->stats[1].max, 22539000, 22540000);
	old_logs_free(l);
}

static void test_rtla_timerlat_hist(void **state)
{
	struct lat_loaded *l = old_logs_load(S("rtla/timerlat-hist.txt"), NULL);
	const struct lat_block *b = one_block(l, "rtla");
	const struct lat_hist_result *r = b->analysis;

	(void)state;
	assert_int_equal(b->nhist, 10);
	assert_string_equal(b->hist[1]->title, "Thr cpu0");
	/* every column adds up to its count: 600002 */
	for (size_t i = 0; i < 10; i++) {
		assert_int_equal(r->stats[i].total, 600002);
		assert_int_equal(b->hist[i]->printed.count, 600002);
	}
	/* Thr-000: cumulative 331965 >= 300001 at row 6, 586495 >= 540002 at row 8 */
	assert_bucket(&r->stats[1].q[LAT_HQ_P50], 6000, 7000);
	assert_bucket(&r->stats[1].q[LAT_HQ_P90], 8000, 9000);
	assert_printed(b->hist[1], 600002, 1000, 5000, 36000);
	/* IRQ columns compared with IRQ cpu0, Thr columns with Thr cpu0: 4 + 4 */
	assert_string_equal(b->hist[0]->group, "IRQ");
	assert_string_equal(b->hist[1]->group, "Thr");
	assert_int_equal(r->ncmp, 8);
	assert_int_equal(r->cmp[0].a, 0);
	assert_int_equal(r->cmp[0].b, 2);
	assert_int_equal(r->cmp[1].a, 1);
	assert_int_equal(r->cmp[1].b, 3);
	/* Thr-002 reaches 300001 at row 5: better at the median than Thr-000 (row 6) */
	assert_bucket(&r->stats[5].q[LAT_HQ_P50], 5000, 6000);
	assert_int_equal(r->cmp[3].b, 5);
	assert_int_equal(r->cmp[3].q[LAT_HQ_P50], 1);
	assert_bucket(&r->stats[1].max, 36000, 37000);
	assert_null(old_logs_finding(b, "printed-stats"));
	old_logs_free(l);
}

static void test_rtla_osnoise_hist(void **state)
{
	struct lat_loaded *l = old_logs_load(S("rtla/osnoise-hist.txt"), NULL);
	const struct lat_block *b = one_block(l, "rtla");
	const struct lat_hist_result *r = b->analysis;

	(void)state;
	/* -b 10: rows 0, 10, ..., 50 are buckets of 10 us */
	assert_int_equal(b->nhist, 12);
	assert_string_equal(b->hist[0]->title, "cpu0");
	assert_int_equal(b->hist[0]->b[1].lo_ns, 10000);
	assert_int_equal(b->hist[0]->b[1].hi_ns, 20000);
	assert_int_equal(r->stats[0].total, 55215);
	assert_bucket(&r->stats[0].max, 30000, 40000);
	old_logs_free(l);
}

static void test_rtla_all_and_overflow(void **state)
{
	struct lat_loaded *l = old_logs_load(S("rtla/timerlat-hist-all.txt"), NULL);
	const struct lat_block *b = one_block(l, "rtla");
	const struct lat_hist_result *r = b->analysis;

	(void)state;
	/* 4 columns + ALL IRQ, ALL Thr */
	assert_int_equal(b->nhist, 6);
	assert_string_equal(b->hist[4]->title, "ALL IRQ");
	assert_printed(b->hist[4], 20002, 6000, 140000, 428000);
	/* rows 28 + over 9973 = 10001; -E 20: the open bucket starts at 20 us */
	assert_int_equal(r->stats[0].total, 10001);
	assert_bucket(&r->stats[0].q[LAT_HQ_P50], 20000, INT64_MAX);
	assert_int_equal(b->hist[0]->b[b->hist[0]->nbuckets - 1].count, 9973);
	assert_null(old_logs_finding(b, "printed-stats"));
	old_logs_free(l);
}

static void test_rtla_two_rows(void **state)
{
	struct lat_loaded *l = old_logs_load(S("rtla/timerlat-hist-usr-lkml.txt"), NULL);
	const struct lat_block *b;

	(void)state;
	/* the rtla block, then one ftrace-text line of the saved trace */
	assert_int_equal(l->nblocks, 2);
	b = l->blocks[0];
	assert_string_equal(b->fmt->name, "rtla");
	assert_non_null(old_logs_finding(b, "bucket-width"));
	assert_int_equal(b->hist[1]->b[b->hist[1]->nbuckets - 2].lo_ns, 21000);
	assert_int_equal(b->hist[1]->b[b->hist[1]->nbuckets - 2].hi_ns, 22000);
	/* Usr-000: count 0, min/avg/max "-" */
	assert_printed(b->hist[2], 0, NONE, NONE, NONE);
	old_logs_free(l);
}

/*
 * rtla hwnoise (6.3 on): osnoise top with interrupts disabled, no IRQ, Softirq
 * and Thread columns.  Documentation/tools/rtla/rtla-hwnoise.rst's example:
 * Max Single per CPU 3 3 3 4 2 2 3 us, CPU 3 "#599 ... 86 99.99998 4 3 6 75".
 */
static void test_rtla_hwnoise(void **state)
{
	struct lat_loaded *l = old_logs_load(S("rtla/hwnoise-doc.txt"), NULL);
	const struct lat_block *b = one_block(l, "rtla");
	static const int64_t single_us[] = { 3, 3, 3, 4, 2, 2, 3 };

	(void)state;
	assert_string_equal(b->title, "rtla hwnoise");
	/* from the column header to the last row, as osnoise top's */
	assert_int_equal(b->first_line, 4);
	assert_int_equal(b->last_line, 11);
	assert_int_equal(b->nhist, 7);
	for (int i = 0; i < 7; i++) {
		char name[8];

		snprintf(name, sizeof(name), "cpu%d", i + 1);
		assert_string_equal(b->hist[i]->title, name);
		assert_int_equal(b->hist[i]->printed.max_ns, single_us[i] * 1000);
	}
	assert_non_null(old_logs_finding(b, "osnoise"));
	assert_non_null(strstr(old_logs_finding(b, "osnoise")->message,
			       "cpu1: 599 periods, runtime 599000000 us, noise 138 us, % CPU "
			       "available 99.99997, max noise 3 us, max single 3 us, HW 4, NMI 74"));
	old_logs_free(l);
}

/*
 * osnoise top prints no ALL row in any rtla (osnoise_top.c: the header, then one row per
 * monitored CPU): a line "ALL #..." under its header, as if timerlat top's summary had
 * been copied there (the documentation's first two rows, then an ALL line built from
 * their sums: not a sample), is reported as what it is not, and read as no CPU.
 */
static void test_rtla_osnoise_no_all(void **state)
{
	static const char text[] =
		"                                          Operating System Noise\n"
		"  duration:   0 00:01:00 | time is in us\n"
		"  CPU Period       Runtime        Noise  % CPU Aval   Max Noise   Max Single"
		"          HW          NMI          IRQ      Softirq       Thread\n"
		"    0 #59         53100000       304896    99.42580        6978           56"
		"         549            0        53111         1590           13\n"
		"    1 #59         53100000       338339    99.36282        8092           24"
		"         399            0        53130         1448           31\n"
		"  ALL #118       106200000       643235    99.39431        8092           56"
		"         948            0       106241         3038           44\n";
	char path[] = "/tmp/latscope-unit-XXXXXX";
	int fd = mkstemp(path);
	char *msgs = NULL;
	size_t msglen = 0;
	FILE *diag = open_memstream(&msgs, &msglen);
	struct lat_loaded l = { 0 };
	const struct lat_block *b;

	(void)state;
	assert_true(fd >= 0 && diag);
	assert_int_equal(write(fd, text, sizeof(text) - 1), (ssize_t)(sizeof(text) - 1));
	close(fd);
	assert_int_equal(lat_load(&l, path, &(struct lat_read_opts){ .diag = diag }), 0);
	unlink(path);
	assert_int_equal(l.nblocks, 1);
	b = l.blocks[0];
	assert_string_equal(b->title, "rtla osnoise top");
	assert_int_equal(b->skipped_lines, 1);
	/* cpu0 and cpu1 (Max Single 56 and 24 us), no "ALL" summary */
	assert_int_equal(b->nhist, 2);
	assert_string_equal(b->hist[0]->title, "cpu0");
	assert_int_equal(b->hist[0]->printed.max_ns, 56000);
	assert_string_equal(b->hist[1]->title, "cpu1");
	assert_int_equal(b->hist[1]->printed.max_ns, 24000);
	fclose(diag);
	assert_non_null(strstr(msgs, ":6: expected an osnoise top row \"CPU #PERIODS RUNTIME "));
	assert_non_null(strstr(msgs, "(rtla prints no ALL row there: not read)"));
	free(msgs);
	lat_loaded_release(&l);
}

static const char top_esc[] =
	"\033[2;37;40m                                     Timer Latency\033[0;0;0m\n"
	"  0 00:00:05   |          IRQ Timer Latency (us)        |         "
	"Thread Timer Latency (us)      |    Ret user Timer Latency (us)\n"
	"\033[2;30;47mCPU COUNT      |      cur       min       avg       max |"
	"      cur       min       avg       max |      cur       min       avg"
	"       max\033[0;0;0m\n"
	"  0 #5000      |        1         0         1        10 |        3   "
	"      2         4        20 |        -         -         -         -\n";

static void test_rtla_top_user(void **state)
{
	struct lat_loaded *l = old_logs_load(S("rtla/timerlat-top-u-lkml.txt"), NULL);
	const struct lat_block *b = one_block(l, "rtla");

	(void)state;
	/* CPUs 1-7, IRQ, Thread and "Ret user" each */
	assert_int_equal(b->nhist, 21);
	assert_string_equal(b->hist[2]->title, "Ret user cpu1");
	/*
	 * "1 #60003 | 1 1 6 41 | 11 7 18 367 | 14 10 22 372": COUNT is the IRQ
	 * count (timerlat_top.c prints cpu_data->irq_count), the others' are not
	 * printed
	 */
	assert_printed(b->hist[0], 60003, 1000, 6000, 41000);
	assert_printed(b->hist[1], NONE, 7000, 18000, 367000);
	assert_printed(b->hist[2], NONE, 10000, 22000, 372000);
	old_logs_free(l);

	/*
	 * Built from rtla's timerlat_top.c format strings (a capture to a file keeps
	 * the colour escapes; a context without samples prints "-"): not a sample.
	 */
	l = old_logs_load_text(top_esc, NULL);
	b = one_block(l, "rtla");
	assert_int_equal(b->nhist, 3);
	assert_printed(b->hist[0], 5000, 0, 1000, 10000);
	assert_printed(b->hist[1], NONE, 2000, 4000, 20000);
	assert_printed(b->hist[2], NONE, NONE, NONE, NONE);
	old_logs_free(l);
}

static void test_rtla_timerlat_top_aa(void **state)
{
	struct lat_loaded *l = old_logs_load(S("rtla/timerlat-top-aa.txt"), NULL);
	const struct lat_block *b = one_block(l, "rtla");
	const struct lat_finding *aa;

	(void)state;
	/* CPUs 1-23, IRQ and Thread each */
	assert_int_equal(b->nhist, 46);
	assert_string_equal(b->hist[44]->title, "IRQ cpu23");
	assert_printed(b->hist[44], 12320, 0, 1000, 28000);
	assert_printed(b->hist[45], NONE, 3000, 11000, 41000);
	aa = old_logs_finding(b, "rtla-auto-analysis");
	assert_non_null(aa);
	assert_non_null(strstr(aa->message, "IRQ handler delay: 27.49 us (65.52 %)"));
	assert_non_null(strstr(aa->message, "Thread latency: 41.96 us (100%)"));
	/* the blocking thread's 19-frame stack, innermost first */
	assert_non_null(strstr(aa->message, "stack: timerlat_irq <- __hrtimer_run_queues <- "));
	assert_non_null(strstr(aa->message, "<- entry_SYSCALL_64_after_hwframe; Thread"));
	old_logs_free(l);
}

static void test_line_kinds(void **state)
{
	const struct lat_format *ct = lat_format_find("cyclictest");
	const struct lat_format *rt = lat_format_find("rtla");
	const struct lat_format *ps = lat_format_find("perf-sched");
	static const char sum[] = "T: 0 ( 1234) P:80 I:200 C:   5000 Min:      3 Act:    5 "
				  "Avg:    6 Max:      37";
	static const char prose[] = "The latency was 37 us: T: is the thread.";

	static const char sched[] = "430018440148 430018446565 6417 0 1049704";
	static const char clock[] = "   10:15:32";
	static const char vrow[] = "       0:     197:      76";
	static const char aa[] = "IRQ latency: it was bad yesterday, 28 us.";
	struct lat_loaded *l;

	(void)state;
	assert_int_equal(ct->line_kind(sum, sizeof(sum) - 1), LAT_LINE_ROW);
	/* schedcnt's rows, a time of day and prose are not cyclictest's or rtla's */
	assert_int_equal(ct->line_kind(sched, sizeof(sched) - 1), LAT_LINE_NO);
	assert_int_equal(ct->line_kind(clock, sizeof(clock) - 1), LAT_LINE_NO);
	assert_int_equal(ct->line_kind(vrow, sizeof(vrow) - 1), LAT_LINE_ROW);
	assert_int_equal(rt->line_kind(sched, sizeof(sched) - 1), LAT_LINE_SOFT);
	assert_int_equal(rt->line_kind(aa, sizeof(aa) - 1), LAT_LINE_NO);
	l = old_logs_load_text("Some prose.\n\n0 3\n430018440148 430018446565 6417 0 1049704\n"
			       "430019489852 430019496122 6270 0 1049704\n"
			       "433654311212 433654315598 4386 796\n4532 7463\n", NULL);
	assert_int_equal(l->nblocks, 1);
	assert_string_equal(l->blocks[0]->fmt->name, "schedcnt");
	old_logs_free(l);
	assert_int_equal(ct->line_kind(prose, sizeof(prose) - 1), LAT_LINE_NO);
	assert_int_equal(rt->line_kind(prose, sizeof(prose) - 1), LAT_LINE_NO);
	assert_int_equal(ps->line_kind(prose, sizeof(prose) - 1), LAT_LINE_NO);
}

static void test_broken_rows(void **state)
{
	struct lat_loaded *l = old_logs_load_text(
		"# Histogram\n000000 000001\n000001 00000x\n000002 000003\n"
		"# Total: 000000004\n# Min Latencies: 00000\n# Max Latencies: 00002\n"
		"# Histogram Overflows: 00000\n", NULL);
	const struct lat_block *b;

	(void)state;
	assert_int_equal(l->nblocks, 1);
	b = l->blocks[0];
	/* the broken row is reported and counted, the others kept */
	assert_int_equal(b->skipped_lines, 1);
	assert_int_equal(b->hist[0]->total, 4);
	old_logs_free(l);
}

static const char ct_bad[] =
	"# Histogram\n000000 000001\n000001 99999999999999999999999\n"
	"000002 000002\n# Total: 000000003\n# Histogram Overflows: 00000\n"
	"T: 99999 ( 1234) P:80 I:200 C:   5000 Min:      3 Act:    5 Avg:    6 Max:      37\n";

static const char json_cut[] =
	"{\n  \"file_version\": 1,\n  \"rt_test_version:\": \"2.40\",\n"
	"  \"num_threads\": 1,\n  \"resolution_in_ns\": 0,\n"
	"  \"thread\": {\n    \"0\": {\n      \"histogram\": {\n"
	"        \"5\": 2,\n        \"7\": 1\n      },\n"
	"      \"cycles\": 3,\n      \"min\": 5,\n";

static const char lat_bad[] =
	"  Task                  |   Runtime ms  | Switches | Avg delay ms    | Max delay ms    |\n"
	"  a:1                   |      1.000 ms |        2 | avg:   0.500 ms | max:   0.900 ms |\n"
	"  b:2                   |      1.000 ms |        3 | avg:   0.500 ms |\n"
	"  TOTAL:                |      2.000 ms |        5 |\n";

/*
 * Older perf (builtin-sched.c "| avg:%9.3f ms | max:%9.3f ms | max at: %13.6f s"),
 * built from its format string: not a sample.
 */
static const char lat_old[] =
	" -----------------------------------------------------------------------------------\n"
	"  Task                  |   Runtime ms  | Switches | Average delay ms | "
	"Maximum delay ms | Maximum delay at     |\n"
	" -----------------------------------------------------------------------------------\n"
	"  kworker/0:1:42        |      0.120 ms |        3 | avg:    0.013 ms | "
	"max:    0.020 ms | max at:   1234.567890 s\n"
	"  TOTAL:                |      0.120 ms |        3 |\n";

static void test_perf_latency_old(void **state)
{
	struct lat_loaded *l = old_logs_load_text(lat_old, NULL);
	const struct lat_block *b = one_block(l, "perf-sched");

	(void)state;
	assert_int_equal(b->nhist, 1);
	assert_string_equal(b->hist[0]->title, "kworker/0:1:42");
	assert_printed(b->hist[0], 3, NONE, 13000, 20000);
	assert_null(old_logs_finding(b, "total-mismatch"));
	old_logs_free(l);
}

static void test_hostile(void **state)
{
	struct lat_loaded *l;
	const struct lat_block *b;

	(void)state;
	/* rtla: a row with one count too few is reported; the counts disagree with count: */
	l = old_logs_load_text("# RTLA timerlat histogram\n# Time unit is microseconds (us)\n"
			       "Index   IRQ-000   Thr-000\n0  5  3\n1  2\n2  1  1\n"
			       "over:  0  0\ncount:  8  4\nmin:  0  0\navg:  0  0\n"
			       "max:  2  2\n", NULL);
	assert_int_equal(l->nblocks, 1);
	b = l->blocks[0];
	assert_int_equal(b->skipped_lines, 1);
	assert_int_equal(b->hist[0]->total, 6);
	assert_non_null(old_logs_finding(b, "printed-stats"));
	old_logs_free(l);

	/* cyclictest: a thread number out of range and a count that overflows 64 bits */
	l = old_logs_load_text(ct_bad, NULL);
	assert_int_equal(l->nblocks, 1);
	b = l->blocks[0];
	assert_int_equal(b->skipped_lines, 2);
	assert_int_equal(b->hist[0]->total, 3);
	old_logs_free(l);

	/* --json cut in the middle of a thread: what was read is kept */
	l = old_logs_load_text(json_cut, NULL);
	assert_int_equal(l->nblocks, 1);
	b = l->blocks[0];
	assert_int_equal(b->hist[0]->total, 3);
	assert_int_equal(b->hist[0]->printed.min_ns, 5000);
	assert_int_equal(b->hist[0]->printed.max_ns, NONE);
	old_logs_free(l);

	/* perf sched latency: a row without its max delay is reported, the TOTAL disagrees */
	l = old_logs_load_text(lat_bad, NULL);
	assert_int_equal(l->nblocks, 1);
	b = l->blocks[0];
	assert_int_equal(b->skipped_lines, 1);
	assert_int_equal(b->nhist, 1);
	assert_non_null(old_logs_finding(b, "total-mismatch"));
	old_logs_free(l);
}

/*
 * cyclictest -b 500 --tracemark under `latscope record --top-markers --timer-detail`: its own
 * marker "hit latency threshold (648 > 500)" decomposed; every point and segment checked with
 * `trace-cmd report -t` (samples/README-probe.md).
 */
static void test_cyclictest_marker_decomposed(void **state)
{
	static const int64_t seg[LAT_PSEG_N] = { 617973, 842, 370, 10861, 17954 };
	struct lat_loaded *l =
		old_logs_load(LAT_SAMPLES_DIR "/tracedat/cyclictest-break-v7-zstd.dat", NULL);
	const struct lat_probe_result *p = l->blocks[0]->probe;
	const struct lat_probe_sample *s;
	int64_t sum = 0;

	(void)state;
	assert_non_null(p);
	assert_int_equal(p->nworst, 1);
	s = &p->worst[0];
	assert_int_equal(s->kind, LAT_PROBE_CYCLICTEST);
	assert_true(s->stop);
	assert_int_equal(s->pid, 17592);
	assert_int_equal(s->cpu, 0);
	assert_int_equal(s->lat_ns, 648000);
	assert_int_equal(s->pt[LAT_PPT_MARKER], 13245116580307ULL);
	assert_int_equal(s->pt[LAT_PPT_EXPECTED], 13245115932307ULL);
	assert_int_equal(s->pt[LAT_PPT_IRQ], 13245116550280ULL);
	assert_int_equal(s->pt[LAT_PPT_SWITCH], 13245116562353ULL);
	for (int i = 0; i < LAT_PSEG_N; i++) {
		assert_int_equal(s->seg_ns[i], seg[i]);
		sum += s->seg_ns[i];
	}
	assert_int_equal(sum, s->lat_ns);
	assert_int_equal(s->unknown_ns, 0);
	assert_int_equal(s->dominant, LAT_PSEG_IRQ);
	assert_int_equal(s->holder_pid, 17593);
	old_logs_free(l);
}

/*
 * Two cyclictest runs pasted one after the other, each under its kernel
 * version (as in samples/mail/011): the second run's thread ids are other
 * processes, so it is a block of its own, titled by its label; the label
 * lines are outside both blocks.  Without labels the new tids still cut.
 */
/*
 * TI's RT performance guide (samples/README-imports.md) prints the trailers
 * above "# Histogram": one block.  Before, "# Histogram" was a head that ended
 * the trailers' block: two blocks, the first warning that 100000000 counted
 * samples were in no bucket.
 */
static void test_cyclictest_trailers_first(void **state)
{
	struct lat_loaded *l = old_logs_load(S("cyclictest/doc-2017-ti-am574x-osadl-trailers-first.txt"),
					     NULL);
	const struct lat_block *b = one_block(l, "cyclictest");
	const struct lat_hist_result *r = b->analysis;
	/* a summary, then a histogram of another run: two blocks still */
	static const char two[] =
		"T: 0 ( 3001) P:80 I:1000 C:  10000 Min:      5 Act:    9 Avg:    8 Max:      40\n"
		"# Histogram\n"
		"000005 010000\n"
		"# Total: 000010000\n"
		"# Histogram\n"
		"000004 000007\n";

	(void)state;
	assert_int_equal(b->first_line, 12);
	assert_int_equal(b->last_line, 47);
	assert_int_equal(b->nhist, 1);
	/* awk '/^    0000/{s+=$2} END{print s}' = 100000000 = # Total: (no overflows) */
	assert_int_equal(r->stats[0].total, 100000000);
	assert_int_equal(b->hist[0]->printed_total, 100000000);
	assert_printed(b->hist[0], NONE, 7000, 10000, 27000);
	/* running sum: 42543507 at row 10, 95702402 at row 11; 99555686 at row 16 */
	assert_bucket(&r->stats[0].q[LAT_HQ_P50], 11000, 12000);
	assert_bucket(&r->stats[0].q[LAT_HQ_P99], 16000, 17000);
	assert_null(old_logs_finding(b, "total-mismatch"));
	old_logs_free(l);
	l = old_logs_load_text(two, NULL);
	assert_int_equal(l->nblocks, 3);
	assert_int_equal(l->blocks[1]->first_line, 2);
	assert_int_equal(l->blocks[1]->last_line, 4);
	assert_int_equal(l->blocks[2]->first_line, 5);
	assert_int_equal(l->blocks[1]->skipped_lines, 0);
	assert_int_equal(l->blocks[2]->skipped_lines, 0);
	old_logs_free(l);
}

/*
 * Trailers set side by side by hand (LKML sched threads): a column per kernel
 * named on the line above, a group per workload labelled in front of a line.
 * Before, the columns were threads, each group overwrote the one before
 * (thread 1 of Zang's table ended with LNICE(19)'s 7.031 s) and the labelled
 * lines were malformed.
 */
static void test_cyclictest_trailer_table(void **state)
{
	struct lat_loaded *l = old_logs_load(S("cyclictest/lkml-2024-zang-trailer-table-four-kernels.txt"),
					     NULL);
	const struct lat_block *b = one_block(l, "cyclictest");
	/* Zang's reply (LKML, 6 Jun 2024): groups of one line, parted by blank lines */
	static const char avg_only[] =
		"                                  EEVDF      PATCH  EEVDF-NO_PARITY  PATCH-NO_PARITY\n"
		"\n"
		"   LNICE(-19)    # Avg Latencies: 00572      00347      00502      00218\n"
		"\n"
		"   LNICE(0)      # Avg Latencies: 02262      02225      02442      02321\n";

	(void)state;
	/* 3 groups x 4 columns, in the order printed */
	assert_int_equal(b->nhist, 12);
	assert_titled(b->hist[0], "LNICE(-19) EEVDF", 6000, 191000, 15442000);
	assert_string_equal(b->hist[0]->group, "LNICE(-19)");
	assert_titled(b->hist[5], "LNICE(0) PATCH", 10000, 277000, 32391000);
	/* "# Max Latencies: 2688299    7031295    426196     425708" (µs) */
	assert_titled(b->hist[9], "LNICE(19) PATCH", 53000, 31045000, 7031295000);
	assert_string_equal(b->hist[11]->title, "LNICE(19) PATCH-NO_PARITY");
	assert_non_null(old_logs_finding(b, "trailer-table"));
	old_logs_free(l);

	/* Zijlstra's: tabs, CFS only in the LNICE(0) group */
	l = old_logs_load(S("cyclictest/lkml-2023-zijlstra-eevdf-trailer-table-tabs.txt"), NULL);
	b = one_block(l, "cyclictest");
	assert_int_equal(b->nhist, 4);
	assert_titled(b->hist[0], "LNICE(19) EEVDF", 53000, 4350000, 76019000);
	assert_titled(b->hist[2], "LNICE(0) CFS", 53000, 687000, 13913000);
	assert_titled(b->hist[3], "LNICE(-19) EEVDF", 19000, 261000, 5642000);
	old_logs_free(l);

	l = old_logs_load_text(avg_only, NULL);
	b = one_block(l, "cyclictest");
	assert_int_equal(b->nhist, 8);
	assert_titled(b->hist[5], "LNICE(0) PATCH", NONE, 2225000, NONE);
	old_logs_free(l);

	/* one run's own trailers stay its threads */
	l = old_logs_load_text("# Min Latencies: 00010 00010\n# Max Latencies: 02137 02026\n", NULL);
	b = one_block(l, "cyclictest");
	assert_int_equal(b->nhist, 2);
	assert_titled(b->hist[1], "thread 1", 10000, NONE, 2026000);
	assert_null(old_logs_finding(b, "trailer-table"));
	old_logs_free(l);
}

/* The text report of @l's blocks, as `latscope analyze` prints it; free() it. */
static char *text_report(const struct lat_loaded *l)
{
	struct lat_report_input in = { .path = "x", .format = l->format, .blocks = l->blocks,
				       .nblocks = l->nblocks };
	struct lat_analyze_opts o;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	lat_analyze_opts_init(&o);
	lat_report_text(f, &in, 1, &o);
	fclose(f);
	return buf;
}

/*
 * Where column @word of the line starting with @head ends: every row under it that
 * starts with @row must end its own cell there (right-aligned numbers); returns
 * how many rows did.
 */
static int rows_aligned(const char *report, const char *head, const char *word, const char *row)
{
	const char *h = strstr(report, head), *e, *p;
	size_t col;
	int n = 0;

	assert_non_null(h);
	e = strstr(h, word);
	assert_non_null(e);
	col = (size_t)(e - h) + strlen(word);
	for (p = strstr(h, "\n"); p && (p = strstr(p, row)); p++) {
		if (p[-1] != '\n')
			continue;
		/* the cell ends at the column: its last character there, a blank after it */
		assert_true(strlen(p) > col);
		assert_true(p[col - 1] != ' ');
		assert_true(p[col] == ' ' || p[col] == '\n');
		n++;
	}
	return n;
}

/*
 * The text report's name column is as wide as the table's longest name: a
 * trailer table's "LNICE(-19) EEVDF-NO_PARITY" (26 characters) no longer
 * pushes its row's numbers two columns right of the header's, nor does the
 * CPU 1000 of a timehist ("cpu1000 sch delay", 17) in the bucket table.
 */
static void test_text_long_names(void **state)
{
	static const char big[] =
		"           time    cpu  task name                       wait time  sch delay   run time\n"
		"                        [tid/pid]                          (msec)     (msec)     (msec)\n"
		"--------------- ------  ------------------------------  ---------  ---------  ---------\n"
		"     100.000100 [0001]  a[10]                               0.000      0.004      0.010\n"
		"     100.000200 [1000]  b[11]                               0.000      0.012      0.010\n";
	struct lat_loaded *l;
	char *rep;

	(void)state;
	l = old_logs_load(S("cyclictest/lkml-2024-zang-trailer-table-four-kernels.txt"), NULL);
	rep = text_report(l);
	/* "  summary ... count min avg max": 12 rows, all LNICE */
	assert_int_equal(rows_aligned(rep, "  summary", " count", "  LNICE("), 12);
	assert_int_equal(rows_aligned(rep, "  summary", " max", "  LNICE("), 12);
	free(rep);
	old_logs_free(l);

	l = old_logs_load_text(big, NULL);
	rep = text_report(l);
	assert_int_equal(rows_aligned(rep, "  histogram", " total", "  cpu"), 2);
	free(rep);
	old_logs_free(l);
}

/*
 * rtla osnoise hist with no sample above -T (Luis Claudio R. Goncalves,
 * "rtla/osnoise: Better report when histogram is empty", LKML 27 Jun 2024,
 * both outputs of the patch verbatim): a bare "Index", then the summary
 * rows blank (before 6.11) or 0 (since).  Before, "Index" and every "0" row
 * were malformed and no block was left: "no log block of a known format".
 */
static void test_rtla_hist_empty(void **state)
{
	static const char text[] =
		"    [~]# osnoise hist -d 5s -T 500\n"
		"    # RTLA osnoise histogram\n"
		"    # Time unit is microseconds (us)\n"
		"    # Duration:   0 00:00:05\n"
		"    Index\n"							/* 5 */
		"    over:\n"
		"    count:\n"
		"    min:\n"
		"    avg:\n"
		"    max:\n"
		"\n"
		"That could lead users to confusing interpretations of the results.\n"
		"\n"
		"    [~]# osnoise hist -d 5s -T 500\n"
		"    # RTLA osnoise histogram\n"					/* 15 */
		"    # Time unit is microseconds (us)\n"
		"    # Duration:   0 00:00:05\n"
		"    Index\n"							/* 18 */
		"    over: 0\n"
		"    count: 0\n"
		"    min: 0\n"
		"    avg: 0\n"
		"    max: 0\n";
	struct lat_loaded *l = old_logs_load_text(text, NULL);
	const struct lat_finding *f;

	(void)state;
	assert_int_equal(l->nblocks, 2);
	for (size_t i = 0; i < 2; i++) {
		assert_string_equal(l->blocks[i]->fmt->name, "rtla");
		assert_int_equal(l->blocks[i]->skipped_lines, 0);
		assert_int_equal(l->blocks[i]->nhist, 0);
		f = old_logs_finding(l->blocks[i], "no-samples");
		assert_non_null(f);
		assert_non_null(strstr(f->message, i ? "line 18: rtla osnoise hist" :
					    "line 5: rtla osnoise hist"));
	}
	old_logs_free(l);
	/* a value there is no sample's: reported */
	l = old_logs_load_text("# RTLA osnoise histogram\nIndex\nover: 0\ncount: 3\n", NULL);
	assert_int_equal(l->nblocks, 1);
	assert_int_equal(l->blocks[0]->skipped_lines, 1);
	old_logs_free(l);
}

static void test_cyclictest_runs(void **state)
{
	static const char two[] =
		"2.6.33-rt4:\n"								/* 1 */
		"T: 0 ( 3001) P:80 I:1000 C:  10000 Min:      5 Act:    9 Avg:    8 Max:      40\n"
		"T: 1 ( 3002) P:80 I:1500 C:   6666 Min:      5 Act:    9 Avg:    8 Max:      41\n"
		"\n"									/* 4 */
		"2.6.33-rt5:\n"								/* 5 */
		"T: 0 ( 4101) P:80 I:1000 C:  10000 Min:      4 Act:    7 Avg:    6 Max:      30\n"
		"T: 1 ( 4102) P:80 I:1500 C:   6666 Min:      4 Act:    7 Avg:    6 Max:      31\n";
	struct lat_loaded *l;

	(void)state;
	l = old_logs_load_text(two, NULL);
	assert_int_equal(l->nblocks, 2);
	assert_int_equal(l->blocks[0]->first_line, 2);
	assert_int_equal(l->blocks[0]->last_line, 3);
	assert_int_equal(l->blocks[1]->first_line, 6);
	assert_int_equal(l->blocks[1]->last_line, 7);
	assert_string_equal(l->blocks[0]->title, "2.6.33-rt4: cyclictest summary");
	assert_string_equal(l->blocks[1]->title, "2.6.33-rt5: cyclictest summary");
	assert_int_equal(l->blocks[0]->skipped_lines, 0);
	assert_int_equal(l->blocks[1]->skipped_lines, 0);
	assert_printed(l->blocks[0]->hist[1], 6666, 5000, 8000, 41000);
	assert_printed(l->blocks[1]->hist[0], 10000, 4000, 6000, 30000);
	assert_null(old_logs_finding(l->blocks[1], "refreshes"));
	old_logs_free(l);
	/* the same without labels */
	l = old_logs_load_text("T: 0 ( 3001) P:80 I:1000 C:  10000 Min:      5 Act:    9 Avg:    8 Max:      40\n"
			       "T: 0 ( 4101) P:80 I:1000 C:  10000 Min:      4 Act:    7 Avg:    6 Max:      30\n",
			       NULL);
	assert_int_equal(l->nblocks, 2);
	assert_int_equal(l->blocks[1]->first_line, 2);
	assert_string_equal(l->blocks[1]->title, "cyclictest summary");
	old_logs_free(l);
	/* the same tids again are refreshes of one run: one block */
	l = old_logs_load_text("T: 0 ( 0) P:80 I:1000 C:      0 Min:1000000 Act:    0 Avg:    0 Max:       0\n"
			       "T: 0 ( 3001) P:80 I:1000 C:  10000 Min:      5 Act:    9 Avg:    8 Max:      40\n"
			       "T: 0 ( 3001) P:80 I:1000 C:  20000 Min:      5 Act:    9 Avg:    8 Max:      50\n",
			       NULL);
	assert_int_equal(l->nblocks, 1);
	assert_non_null(old_logs_finding(l->blocks[0], "refreshes"));
	old_logs_free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cyclictest_quiet),
		cmocka_unit_test(test_cyclictest_default_refreshes),
		cmocka_unit_test(test_cyclictest_runs),
		cmocka_unit_test(test_cyclictest_hist),
		cmocka_unit_test(test_cyclictest_verbose),
		cmocka_unit_test(test_cyclictest_json),
		cmocka_unit_test(test_cyclictest_histofall),
		cmocka_unit_test(test_cyclictest_nsecs),
		cmocka_unit_test(test_cyclictest_breaktrace),
		cmocka_unit_test(test_cyclictest_marker_decomposed),
		cmocka_unit_test(test_perf_timehist_variants),
		cmocka_unit_test(test_perf_latency),
		cmocka_unit_test(test_perf_timehist),
		cmocka_unit_test(test_rtla_timerlat_hist),
		cmocka_unit_test(test_rtla_osnoise_hist),
		cmocka_unit_test(test_rtla_hwnoise),
		cmocka_unit_test(test_rtla_all_and_overflow),
		cmocka_unit_test(test_rtla_two_rows),
		cmocka_unit_test(test_rtla_top_user),
		cmocka_unit_test(test_rtla_timerlat_top_aa),
		cmocka_unit_test(test_line_kinds),
		cmocka_unit_test(test_rtla_osnoise_no_all),
		cmocka_unit_test(test_broken_rows),
		cmocka_unit_test(test_perf_latency_old),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_cyclictest_trailers_first),
		cmocka_unit_test(test_cyclictest_trailer_table),
		cmocka_unit_test(test_text_long_names),
		cmocka_unit_test(test_rtla_hist_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
