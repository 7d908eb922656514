// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel's own latency tracers (timerlat, osnoise, hwlat) as their trace
 * file prints them: which reader wins, and the headline numbers of every
 * layout kept in samples/kernel-tracers (samples/README-kernel-tracers.md
 * says how each was found with grep/awk).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "latscope/format.h"
#include "old_logs_util.h"
#include "ktracer.h"

#define S(x) LAT_SAMPLES_DIR "/" x
#define NONE LAT_VALUE_NONE

/* The reader lat_format_detect() picks for the first 64 KiB of @path. */
static const char *detected(const char *path)
{
	static char peek[LAT_PEEK_BYTES + LAT_PEEK_PAD];
	const struct lat_format *best = NULL;
	char msg[200];
	FILE *fp = fopen(path, "rb");
	size_t n;

	assert_non_null(fp);
	memset(peek, 0, sizeof(peek));
	n = fread(peek, 1, LAT_PEEK_BYTES, fp);
	fclose(fp);
	if (lat_format_detect(peek, n, &best, msg, sizeof(msg)) <= 0)
		return "none";
	return best->name;
}

static const struct lat_block *one_block(struct lat_loaded *l)
{
	assert_int_equal(l->nblocks, 1);
	assert_string_equal(l->blocks[0]->fmt->name, "kernel-tracer");
	assert_int_equal(l->blocks[0]->skipped_lines, 0);
	return l->blocks[0];
}

static void assert_summary(const struct lat_histogram *h, const char *title, int64_t n,
			   int64_t min, int64_t avg, int64_t max)
{
	assert_string_equal(h->title, title);
	assert_int_equal(h->nbuckets, 0);
	assert_true(h->has_printed);
	assert_int_equal(h->printed.count, n);
	assert_int_equal(h->printed.min_ns, min);
	assert_int_equal(h->printed.avg_ns, avg);
	assert_int_equal(h->printed.max_ns, max);
}

/* The finding of @kind whose message holds @text (every one must exist). */
static void assert_finding(const struct lat_block *b, const char *kind, const char *text)
{
	for (size_t i = 0; i < b->nfindings; i++)
		if (!strcmp(b->findings[i].kind, kind) && strstr(b->findings[i].message, text))
			return;
	fail_msg("no %s finding with \"%s\"", kind, text);
}

/* Loads @text (a NUL-terminated string) through a temporary file, as a file is read. */
static void load_text(const char *text, struct lat_loaded *l, FILE *diag)
{
	char path[] = "/tmp/latscope-kt-XXXXXX";
	int fd = mkstemp(path);
	size_t n = strlen(text);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, n), (ssize_t)n);
	close(fd);
	assert_int_equal(lat_load(l, path, &(struct lat_read_opts){ .diag = diag }), 0);
	unlink(path);
}

/* @text's one kernel-tracer block, loaded as a file is read; its messages in *@msgs. */
static const struct lat_block *one_kt_block(const char *text, struct lat_loaded *l, char **msgs)
{
	size_t msglen = 0;
	FILE *diag = open_memstream(msgs, &msglen);

	load_text(text, l, diag);
	fclose(diag);
	assert_int_equal(l->nblocks, 1);
	assert_string_equal(l->blocks[0]->fmt->name, "kernel-tracer");
	return l->blocks[0];
}

static void test_detection(void **state)
{
	static const char *const ours[] = {
		"timerlat-rst-cat-trace.txt", "timerlat-rst-osnoise-events.txt",
		"timerlat-rst-print-stack.txt", "timerlat-rst-5.14-ipi.txt",
		"timerlat-lkml-2021-stop-tracing.txt", "timerlat-lkml-2024-m68k-quoted.txt",
		"timerlat-lkml-2021-rt-header.txt",
		"osnoise-rst-cat-trace.txt", "osnoise-rst-events.txt",
		"osnoise-lkml-2021-rt-rows.txt", "osnoise-notes-5col.txt",
		"hwlat-ftrace-rst-4.x.txt", "hwlat-ftrace-rst-5.7.txt",
		"hwlat-lkml-2023-mgag200-flowed.txt",
	};
	/* every ftrace-text sample keeps its reader */
	static const char *const theirs[] = {
		"kernel-trace.txt", "kernel-trace-noirqinfo.txt", "kernel-trace-notgid.txt",
		"kernel-trace-pipe-lost.txt", "kernel-trace-symoffset.txt", "kernel-tracecmd.txt",
		"tracecmd-report.txt", "lkml-2024-rcutorture-ftrace-dump.txt",
	};
	char path[512];

	(void)state;
	for (size_t i = 0; i < LAT_ARRAY_SIZE(ours); i++) {
		snprintf(path, sizeof(path), "%s/kernel-tracers/%s", LAT_SAMPLES_DIR, ours[i]);
		assert_string_equal(detected(path), "kernel-tracer");
	}
	for (size_t i = 0; i < LAT_ARRAY_SIZE(theirs); i++) {
		snprintf(path, sizeof(path), "%s/ftrace-text/%s", LAT_SAMPLES_DIR, theirs[i]);
		assert_string_equal(detected(path), "ftrace-text");
	}
}

/*
 * A nop trace with sched events and osnoise:* events between them stays an
 * event trace (streamed, its wakeups analyzed); one timer_latency line makes
 * it timerlat's; osnoise events alone are osnoise's.
 */
static const char mixed[] =
	"# tracer: nop\n"
	"#\n"
	"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
	"#              | |         |   |||||     |         |\n"
	"          <idle>-0       [001] dNh2.   100.000010: sched_wakeup: comm=rt pid=77 "
	"prio=9 target_cpu=001\n"
	"          <idle>-0       [001] dNh1.   100.000012: irq_noise: local_timer:236 start "
	"100.000008000 duration 3000 ns\n"
	"          <idle>-0       [001] d..2.   100.000020: sched_switch: prev_comm=swapper/1 "
	"prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=rt next_pid=77 next_prio=9\n"
	"          <idle>-0       [001] d..3.   100.000021: thread_noise: swapper/1:0 start "
	"100.000012000 duration 8000 ns\n"
	"              rt-77      [001] d..2.   100.000030: sched_switch: prev_comm=rt "
	"prev_pid=77 prev_prio=9 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n";

static const char noise_only[] =
	"       osnoise/3-50      [003] d.h..    10.000001: irq_noise: local_timer:236 start "
	"10.000000100 duration 900 ns\n"
	"       osnoise/3-50      [003] ..s..    10.000004: softirq_noise:    TIMER:1 start "
	"10.000002000 duration 1500 ns\n"
	"      kworker/3-60       [003] d..3.    10.000009: thread_noise: kworker/3:1:60 start "
	"10.000004000 duration 4000 ns\n";

static void test_plain_events_with_osnoise(void **state)
{
	struct lat_loaded *l = old_logs_load_text(mixed, NULL);
	char *one;

	(void)state;
	assert_int_equal(l->nblocks, 1);
	assert_string_equal(l->blocks[0]->fmt->name, "ftrace-text");
	assert_int_equal(l->blocks[0]->schema, LAT_SCHEMA_EVENTS);
	old_logs_free(l);

	/* the same with one timerlat sample: a timerlat trace, the sched events counted */
	one = malloc(sizeof(mixed) + 128);
	assert_non_null(one);
	snprintf(one, sizeof(mixed) + 128, "%s%s", mixed,
		 "              rt-77      [001] .....   100.000031: #5     context thread "
		 "timer_latency     21000 ns\n");
	l = old_logs_load_text(one, NULL);
	free(one);
	assert_int_equal(l->nblocks, 1);
	assert_string_equal(l->blocks[0]->fmt->name, "kernel-tracer");
	assert_finding(l->blocks[0], "other-events", "3 other events");
	/* fire at 100.000010: both noises meet the window [100.000010, 100.000032] */
	assert_finding(l->blocks[0], "noise-culprit", "2 osnoise events in its window, "
			"11000 ns in all; the largest: thread_noise swapper/1:0 8000 ns");
	old_logs_free(l);

	l = old_logs_load_text(noise_only, NULL);
	assert_int_equal(l->nblocks, 1);
	assert_string_equal(l->blocks[0]->fmt->name, "kernel-tracer");
	assert_string_equal(l->blocks[0]->title, "osnoise events");
	assert_finding(l->blocks[0], "noise-events", "3 osnoise events (irq_noise 1, softirq_noise "
		       "1, nmi_noise 0, thread_noise 1); the longest: thread_noise kworker/3:1:60 "
		       "4000 ns on cpu3 (line 3), softirq_noise TIMER:1 1500 ns on cpu3 (line 2)");
	old_logs_free(l);
}

static void test_timerlat_cat_trace(void **state)
{
	struct lat_loaded *l = old_logs_load(S("kernel-tracers/timerlat-rst-cat-trace.txt"), NULL);
	const struct lat_block *b = one_block(l);

	(void)state;
	assert_string_equal(b->title, "timerlat trace");
	assert_int_equal(b->first_line, 2);	/* "# tracer: timerlat" */
	assert_int_equal(b->nhist, 4);
	/* awk over the 8 samples: cpu0 irq 932, 769; thread 11700, 3070 (avg 7385) */
	assert_summary(b->hist[0], "IRQ cpu0", 2, 769, 850, 932);
	assert_summary(b->hist[1], "Thread cpu0", 2, 3070, 7385, 11700);
	assert_summary(b->hist[2], "IRQ cpu1", 2, 935, 1884, 2833);
	assert_summary(b->hist[3], "Thread cpu1", 2, 4351, 7085, 9820);
	assert_string_equal(b->hist[1]->group, "Thread");
	assert_finding(b, "worst-sample", "Thread latency: worst 11700 ns on cpu0 at 54.029339 "
		       "(activation #1, line 13); the timer IRQ of this activation: 932 ns");
	assert_finding(b, "worst-sample", "IRQ latency: worst 2833 ns on cpu1");
	old_logs_free(l);
}

static void test_timerlat_print_stack(void **state)
{
	struct lat_loaded *l =
		old_logs_load(S("kernel-tracers/timerlat-rst-print-stack.txt"), NULL);
	const struct lat_block *b = one_block(l);

	(void)state;
	assert_int_equal(b->nhist, 2);
	assert_summary(b->hist[1], "Thread cpu7", 1, 859978, 859978, 859978);
	/*
	 * fire = 200.203445 - 859978 ns = 200.202585022: the noise of lines 7-9
	 * meets it (838681 + 11855 + 7318 = 857854), line 5's ended at 200.201947248
	 */
	assert_finding(b, "noise-culprit", "3 osnoise events in its window, 857854 ns in all; "
		       "the largest: thread_noise insmod:1026 838681 ns (97.5 %, line 9)");
	assert_finding(b, "stack", "(line 11, 14 frames, innermost first): timerlat_irq <- "
		       "__hrtimer_run_queues");
	assert_finding(b, "stack", "delay_tsc <- dummy_load_1ms_pd_init <- do_one_initcall");
	old_logs_free(l);
}

static void test_timerlat_layouts(void **state)
{
	struct lat_loaded *l = old_logs_load(S("kernel-tracers/timerlat-rst-5.14-ipi.txt"), NULL);
	const struct lat_block *b = one_block(l);

	(void)state;
	/* 7-column flags "dNLh2.."; 8 noise events: 4597+56+2048+1495+1558+1932+1050+10909 */
	assert_finding(b, "noise-culprit", "8 osnoise events in its window, 23645 ns in all; "
		       "the largest: thread_noise cc1:87882 10909 ns");
	old_logs_free(l);

	/* 4-column flags, two CPUs, sched_switch and the stop message between */
	l = old_logs_load(S("kernel-tracers/timerlat-lkml-2021-stop-tracing.txt"), NULL);
	b = one_block(l);
	assert_int_equal(b->nhist, 4);
	assert_summary(b->hist[0], "IRQ cpu3", 1, 1200, 1200, 1200);
	assert_summary(b->hist[3], "Thread cpu6", 1, 41931, 41931, 41931);
	assert_finding(b, "stop-tracing", "on cpu 6 (line 14)");
	assert_finding(b, "other-events", "2 other events");
	assert_finding(b, "noise-culprit", "6816 ns in all");
	old_logs_free(l);

	/* quoted in a mail, 5-column flags, a 1 ms tick clock (0 ns noise is no culprit) */
	l = old_logs_load(S("kernel-tracers/timerlat-lkml-2024-m68k-quoted.txt"), NULL);
	b = one_block(l);
	assert_summary(b->hist[0], "IRQ cpu0", 2, 108608, 109664, 110720);
	assert_summary(b->hist[1], "Thread cpu0", 3, 401472, 405973, 409280);
	assert_null(old_logs_finding(b, "noise-culprit"));
	old_logs_free(l);

	/*
	 * PREEMPT_RT rows (7 flag columns "d..h...") under the 4-column header
	 * they overran, the patch that gave RT its own header: one activation.
	 */
	l = old_logs_load(S("kernel-tracers/timerlat-lkml-2021-rt-header.txt"), NULL);
	b = one_block(l);
	assert_int_equal(b->nhist, 2);
	assert_summary(b->hist[0], "IRQ cpu0", 1, 830, 830, 830);
	assert_summary(b->hist[1], "Thread cpu0", 1, 11301, 11301, 11301);
	assert_finding(b, "worst-sample", "worst 11301 ns on cpu0 at 3279.798881 (activation #1, "
		       "line 15); the timer IRQ of this activation: 830 ns");
	old_logs_free(l);
}

/*
 * The 5-column header (migrate-disable, 5.16 on) of a trace with no row:
 * Daniel Bristot de Oliveira, "[PATCH] tracing/timerlat: Always wakeup the
 * timerlat thread", LKML, 11 May 2023, Message-Id
 * <1ed8f830638b20a39d535d27d908e319a9a3c4e2.1683822622.git.bristot@kernel.org>,
 * its reproducer verbatim (not in samples/: a trace without a row has no chart).
 * timerlat writes every activation, so no row means it never ran, not that
 * nothing reached a threshold as for hwlat.
 */
static void test_timerlat_5col_header_empty(void **state)
{
	static const char text[] =
		"  # echo 0 > tracing_on                 # disable trace\n"
		"  # echo 1 > osnoise/stop_tracing_us    # stop trace if timerlat irq > 1 us\n"
		"  # echo timerlat > current_tracer      # enable timerlat tracer\n"
		"  # sleep 1                             # wait... that is the time when rtla\n"
		"                                        # apply configs like prio or cgroup\n"
		"  # echo 1 > tracing_on                 # start tracing\n"
		"  # cat trace\n"
		"  # tracer: timerlat\n"
		"  #\n"
		"  #                                _-----=> irqs-off\n"
		"  #                               / _----=> need-resched\n"
		"  #                              | / _---=> hardirq/softirq\n"
		"  #                              || / _--=> preempt-depth\n"
		"  #                              ||| / _-=> migrate-disable\n"
		"  #                              |||| /     delay\n"
		"  #                              |||||            ACTIVATION\n"
		"  #           TASK-PID      CPU# |||||   TIMESTAMP   ID            CONTEXT"
		"                 LATENCY\n"
		"  #              | |         |   |||||      |         |                  |"
		"                       |\n"
		"        NOTHING!\n";
	struct lat_loaded l;
	const struct lat_block *b;

	(void)state;
	load_text(text, &l, NULL);
	assert_int_equal(l.nblocks, 1);
	b = l.blocks[0];
	assert_string_equal(b->fmt->name, "kernel-tracer");
	assert_string_equal(b->title, "timerlat trace");
	/* the title line and the 10 header lines under it; no line read as a bad row */
	assert_int_equal(b->first_line, 8);
	assert_int_equal(b->last_line, 18);
	assert_int_equal(b->skipped_lines, 0);
	assert_int_equal(b->nhist, 0);
	assert_finding(b, "no-samples", "timerlat writes every activation, so it recorded none");
	lat_loaded_release(&l);
}

static void test_osnoise(void **state)
{
	struct lat_loaded *l = old_logs_load(S("kernel-tracers/osnoise-rst-cat-trace.txt"), NULL);
	const struct lat_block *b = one_block(l);

	(void)state;
	assert_string_equal(b->title, "osnoise trace");
	assert_int_equal(b->nhist, 8);
	/* MAX SINGLE NOISE column: 9 74 202 45 168 57 21 107 */
	assert_summary(b->hist[2], "cpu2", 1, 202000, 202000, 202000);
	assert_finding(b, "worst-sample", "max single noise: worst 202 us on cpu2 at 81.638193 "
		       "(line 14): noise 5675 us in a 1000000 us runtime, 99.43250 % CPU "
		       "available; HW 6, NMI 0, IRQ 1013, softirq 25, thread 21");
	assert_finding(b, "osnoise", "cpu7: 1 period, runtime 1000000 us, noise 7816 us");
	old_logs_free(l);

	/* PREEMPT_RT rows ("......."), the 4-column header */
	l = old_logs_load(S("kernel-tracers/osnoise-lkml-2021-rt-rows.txt"), NULL);
	b = one_block(l);
	assert_int_equal(b->nhist, 5);
	assert_finding(b, "worst-sample", "worst 197 us on cpu1");
	old_logs_free(l);

	/* 5-column header, CPU 31 first: CPU order 0-9, 31 */
	l = old_logs_load(S("kernel-tracers/osnoise-notes-5col.txt"), NULL);
	b = one_block(l);
	assert_int_equal(b->nhist, 11);
	assert_summary(b->hist[10], "cpu31", 1, 19000, 19000, 19000);
	assert_finding(b, "worst-sample", "worst 771 us on cpu8");
	old_logs_free(l);

	/* the events alone: sample_threshold and the noise in its window */
	l = old_logs_load(S("kernel-tracers/osnoise-rst-events.txt"), NULL);
	b = one_block(l);
	/* no period row: the sample_threshold events are the summary */
	assert_int_equal(b->nhist, 1);
	assert_summary(b->hist[0], "cpu8", 1, 8812, 8812, 8812);
	/* [5789.858404555, +8812 ns]: lines 4 and 5; line 3 ended 1 ms before */
	assert_finding(b, "noise-culprit", "2 osnoise events in its window, 5916 ns in all; the "
		       "largest: thread_noise migration/8:54 3068 ns (34.8 %, line 5), irq_noise "
		       "local_timer:236 2848 ns (32.3 %, line 4)");
	old_logs_free(l);

	/*
	 * the same events as the RFC printed them (Daniel Bristot de Oliveira, "Re: [RFC
	 * PATCH 5/5] tracing: Add the osnoise tracer", LKML 15 Apr 2021, its quote of the
	 * commit message): sample_threshold's duration in us, "duration 8 us"
	 */
	l = old_logs_load_text(
		">>        osnoise/8-961     [008] d.h.  5789.857532: irq_noise: local_timer:236 "
		"start 5789.857529929 duration 1845 ns\n"
		">>        osnoise/8-961     [008] dNh.  5789.858408: irq_noise: local_timer:236 "
		"start 5789.858404871 duration 2848 ns\n"
		">>      migration/8-54      [008] d...  5789.858413: thread_noise: migration/8:54 "
		"start 5789.858409300 duration 3068 ns\n"
		">>        osnoise/8-961     [008] ....  5789.858413: sample_threshold: start "
		"5789.858404555 duration 8 us interferences 2\n", NULL);
	b = one_block(l);
	assert_int_equal(b->skipped_lines, 0);
	assert_summary(b->hist[0], "cpu8", 1, 8000, 8000, 8000);
	/* [5789.858404555, +8000 ns]: lines 2 and 3 again, 3068 / 8000 = 38.4 % */
	assert_finding(b, "noise-culprit", "2 osnoise events in its window, 5916 ns in all; the "
		       "largest: thread_noise migration/8:54 3068 ns (38.4 %, line 3), irq_noise "
		       "local_timer:236 2848 ns (35.6 %, line 2)");
	old_logs_free(l);
}

static void test_hwlat(void **state)
{
	struct lat_loaded *l = old_logs_load(S("kernel-tracers/hwlat-ftrace-rst-4.x.txt"), NULL);
	const struct lat_block *b = one_block(l);

	(void)state;
	assert_string_equal(b->title, "hwlat trace");
	/* max(inner, outer) per row: cpu1 14 12, cpu2 12, cpu3 11 12 12 */
	assert_int_equal(b->nhist, 3);
	assert_summary(b->hist[0], "cpu1", 2, 12000, 13000, 14000);
	assert_summary(b->hist[2], "cpu3", 3, 11000, 11666, 12000);
	assert_finding(b, "worst-sample", "hwlat: worst 14 us on cpu1 at 19452.055471 (#1, "
		       "line 13): inner 12 us, outer 14 us, wall time 1499801089.066141940");
	assert_finding(b, "hwlat-nmi", "1 of 6 windows saw NMIs");
	old_logs_free(l);

	l = old_logs_load(S("kernel-tracers/hwlat-ftrace-rst-5.7.txt"), NULL);
	b = one_block(l);
	assert_summary(b->hist[0], "cpu1", 4, 11000, 12750, 17000);
	assert_finding(b, "worst-sample", "worst 18 us on cpu3 at 849.827033 (#7, line 21): "
		       "inner 18 us, outer 9 us, wall time 1581527654.889013793, 1 time above");
	assert_finding(b, "hwlat-nmi", "2 of 12 windows saw NMIs (2 in all, nmi-total up to 7 us;"
		       " the first at line 24)");
	old_logs_free(l);
}

static void test_hwlat_mail_wrapped(void **state)
{
	struct lat_loaded *l =
		old_logs_load(S("kernel-tracers/hwlat-lkml-2023-mgag200-flowed.txt"), NULL);
	const struct lat_block *b;

	(void)state;
	/*
	 * three traces, each row cut after "inner/outer(us): " (format=flowed, its
	 * header not in the excerpt): the text layer joins the 9 rows (hwlat's row shape)
	 */
	assert_int_equal(l->text.fix.rows, 9);
	assert_int_equal(l->nblocks, 3);
	b = l->blocks[0];
	assert_int_equal(b->skipped_lines, 0);
	assert_summary(b->hist[0], "cpu0", 5, 40000, 40600, 41000);
	assert_summary(b->hist[1], "cpu1", 1, 41000, 41000, 41000);
	assert_finding(b, "worst-sample", "worst 41 us on cpu1 at 613.749741 (#1, line 17)");
	assert_finding(b, "worst-sample", "9976 times above the threshold");
	b = l->blocks[1];
	assert_summary(b->hist[0], "cpu0", 2, 21000, 21000, 21000);
	/* the third: a header and no row */
	b = l->blocks[2];
	assert_int_equal(b->first_line, 55);
	assert_int_equal(b->nhist, 0);
	assert_finding(b, "no-samples", "(entries-in-buffer/entries-written: 0/0)");
	old_logs_free(l);
}

static void test_bad_lines(void **state)
{
	static const char text[] =
		"# tracer: timerlat\n"
		"          <idle>-0       [000] d.h1    54.029328: #1     context    irq "
		"timer_latency       932 ns\n"
		"           <...>-867     [000] ....    54.029339: #1     context thread "
		"timer_latency     11x00 ns\n"
		"           <...>-867     [000] ....    54.029340: #1     context window "
		"timer_latency     11700 ns\n"
		"          <idle>-0       [001] dNh1    54.029346: #1     context    irq "
		"timer_latency      2833 ns\n"
		"             cc1-87882   [005] dNLh1..   548.771082: irq_noise: local_timer:236 "
		"start 548.771077442 duration x ns\n"
		"                   <...>-859     [000] ....    81.637220: 1000000        190  "
		"99.98100       9     18\n"
		"           <...>-867     [000] ....    54.030330: #2     context thread "
		"timer_latency      3070 ns\n";
	char *msgs = NULL;
	struct lat_loaded l;
	const struct lat_block *b;

	(void)state;
	b = one_kt_block(text, &l, &msgs);
	assert_int_equal(b->skipped_lines, 4);
	assert_non_null(strstr(msgs, ":3: expected a timerlat sample \"#N context "
			       "irq|thread|user-ret timer_latency N ns\""));
	assert_non_null(strstr(msgs, ":4: expected a timerlat sample"));
	assert_non_null(strstr(msgs, ":6: expected an osnoise event"));
	assert_non_null(strstr(msgs, ":7: expected an osnoise period row"));
	/* the good rows are kept: cpu0 irq 932, thread 3070; cpu1 irq 2833 */
	assert_int_equal(b->nhist, 3);
	assert_summary(b->hist[1], "Thread cpu0", 1, 3070, 3070, 3070);
	lat_loaded_release(&l);
	free(msgs);
}

/*
 * A hwlat row cut after "inner/outer(us):" that the text layer does not join (its rest
 * after a blank line, or none): the reader does not pair the lines itself, it reports
 * both and reads the whole row only.
 */
static void test_hwlat_cut_left(void **state)
{
	static const char text[] =
		"# tracer: hwlat\n"
		"  <...>-8804    [000] d....   787.684533: #1 inner/outer(us):   41/41    "
		"ts:1702045440.955603974 count:22591\n"
		"  <...>-8804    [000] d....   844.303041: #2 inner/outer(us): \n"
		"\n"
		"  40/40    ts:1702045497.575594006 count:33324\n"
		"  <...>-8804    [000] d....   900.494844: #3 inner/outer(us): \n";
	char *msgs = NULL;
	struct lat_loaded l;
	const struct lat_block *b;

	(void)state;
	b = one_kt_block(text, &l, &msgs);
	assert_int_equal(l.text.fix.rows, 0);
	/* lines 3 and 6 cut, line 5 a rest without its row */
	assert_int_equal(b->skipped_lines, 3);
	assert_non_null(strstr(msgs, ":3: expected \"I/O ts:S.NS ...\" after "
			       "\"inner/outer(us):\" (here or on the next line)"));
	assert_non_null(strstr(msgs, ":5: expected a hwlat row"));
	assert_non_null(strstr(msgs, ":6: expected \"I/O ts:S.NS ...\" after "));
	/* the one whole row: #1, 41 us on cpu0 */
	assert_int_equal(b->nhist, 1);
	assert_summary(b->hist[0], "cpu0", 1, 41000, 41000, 41000);
	lat_loaded_release(&l);
	free(msgs);
}

static void test_line_shapes(void **state)
{
	struct kt_rec r;
	static const char hw_cut[] = "  <...>-8795    [001] dn...   613.749741: #1 inner/outer(us): ";
	static const char hw_rest[] = "  41/41    ts:1702045267.016266287 count:9976";
	static const char ctxsw[] = "  <idle>-0  [000] d... 123.456: 3997:120:R ==> [000] 4055:120:R ls";
	static const char prose[] = "The hwlat tracer reported 41/41 ts: as above.";

	(void)state;
	assert_int_equal(kt_parse_line(hw_cut, sizeof(hw_cut) - 1, &r), KT_HWLAT_CUT);
	assert_int_equal(r.u.hw.seq, 1);
	assert_int_equal(kt_parse_line(hw_rest, sizeof(hw_rest) - 1, &r), KT_HWLAT_REST);
	assert_int_equal(r.u.hw.inner_us, 41);
	assert_int_equal(r.u.hw.count, 9976);
	assert_int_equal(r.u.hw.nmi_count, -1);
	/* the 2.6.27 sched_switch tracer's rows also start with digits: not osnoise's */
	assert_int_equal(kt_parse_line(ctxsw, sizeof(ctxsw) - 1, &r), KT_NONE);
	assert_int_equal(kt_classify(ctxsw, sizeof(ctxsw) - 1), KT_CL_OTHER);
	assert_int_equal(kt_parse_line(prose, sizeof(prose) - 1, &r), KT_NONE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_detection),
		cmocka_unit_test(test_plain_events_with_osnoise),
		cmocka_unit_test(test_timerlat_cat_trace),
		cmocka_unit_test(test_timerlat_print_stack),
		cmocka_unit_test(test_timerlat_layouts),
		cmocka_unit_test(test_timerlat_5col_header_empty),
		cmocka_unit_test(test_osnoise),
		cmocka_unit_test(test_hwlat),
		cmocka_unit_test(test_hwlat_mail_wrapped),
		cmocka_unit_test(test_bad_lines),
		cmocka_unit_test(test_hwlat_cut_left),
		cmocka_unit_test(test_line_shapes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
