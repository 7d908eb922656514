// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Tables quoted as diff lines (issue 28, core/text_diff.c with the readers' line
 * classes): a patch to a document carries its example output as added lines, a
 * review quotes them as "> +".  The prefix comes off the lines the readers know,
 * the removed lines of such a diff (the old version) are dropped, prose and
 * diffs without a table are left alone.  Each literal is cut from a public mail
 * named in its comment (samples/README.md, "Tables quoted as diff lines"); every
 * expected value is read off the literal by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "latscope/format.h"
#include "latscope/text.h"
#include "old_logs_util.h"

static void init(struct lat_text *t, const char *s)
{
	assert_int_equal(lat_text_init_mem(t, s, strlen(s)), 0);
	lat_formats_repair_text(t);	/* as the input layer does (formats/input.c) */
}

static void assert_line(const struct lat_text *t, size_t i, const char *s, uint32_t lineno)
{
	char buf[1024];

	assert_true(i < t->nlines);
	lat_line_copy(&t->lines[i], buf, sizeof(buf));
	assert_string_equal(buf, s);
	assert_int_equal(t->lines[i].lineno, lineno);
}

/* Histogram @k of @b is @title: @count samples (LAT_VALUE_NONE: not printed), max @max ns. */
static void assert_hist(const struct lat_block *b, size_t k, const char *title, int64_t count,
			int64_t max)
{
	assert_true(k < b->nhist);
	assert_string_equal(b->hist[k]->title, title);
	assert_true(b->hist[k]->has_printed);
	assert_int_equal(b->hist[k]->printed.count, count);
	assert_int_equal(b->hist[k]->printed.max_ns, max);
}

/*
 * Bagas Sanjaya, "Re: [PATCH V2 6/6] Documentation/rtla: Add hwnoise man page", LKML,
 * 1 Feb 2023 (samples/mail/032): the patch's first example quoted as "> +" lines of a
 * hunk, decoded (the mail is quoted-printable); lines 94-95, 138-148 and 162-164 of the
 * decoded body.
 */
static const char hwnoise_review[] =
	"On Tue, Jan 31, 2023 at 05:30:07PM +0100, Daniel Bristot de Oliveira wrote:\n" /* 1 */
	"> +++ b/Documentation/tools/rtla/rtla-hwnoise.rst\n" /* 2 */
	"> @@ -0,0 +1,107 @@\n" /* 3 */
	"> +end of the session::\n" /* 4 */
	"> +\n" /* 5 */
	"> +  # rtla hwnoise -c 1-7 -T 1 -d 10m -q\n" /* 6 */
	"> +                                          Hardware-related Noise\n" /* 7 */
	"> +  duration:   0 00:10:00 | time is in us\n" /* 8 */
	"> +  CPU Period       Runtime        Noise  % CPU Aval   Max Noise   Max Single  "
	"        HW          NMI\n" /* 9 */
	"> +    1 #599       599000000          138    99.99997           3            3  "
	"         4           74\n" /* 10 */
	"> +    2 #599       599000000           85    99.99998           3            3  "
	"         4           75\n"
	"> +    3 #599       599000000           86    99.99998           4            3  "
	"         6           75\n"
	"> +    4 #599       599000000           81    99.99998           4            4  "
	"         2           75\n"
	"> +    5 #599       599000000           85    99.99998           2            2  "
	"         2           75\n"
	"> +    6 #599       599000000           76    99.99998           2            2  "
	"         0           75\n"
	"> +    7 #599       599000000           77    99.99998           3            3  "
	"         0           75\n" /* 16 */
	"> +\n" /* 17 */
	"> +The first column shows the *CPU*, and the second column shows how many\n" /* 18 */
	"\n" /* 19 */
	"LGTM, thanks!\n"; /* 20 */

static void test_hunk_quoted(void **state)
{
	struct lat_text t;
	struct lat_loaded *l;
	const struct lat_block *b;

	(void)state;
	init(&t, hwnoise_review);
	/*
	 * lines 5-17 lose their "+": a blank (5, 17), the command, the banner and the
	 * duration line the rtla reader keeps in its blocks (6-8), the header (9) and
	 * the rows (10-16); the prose (4, 18) keeps it
	 */
	assert_int_equal(t.fix.diff_stripped, 13);
	assert_int_equal(t.fix.diff_removed, 0);
	assert_int_equal(t.fix.diff_first, 5);
	assert_int_equal(t.fix.diff_last, 17);
	assert_line(&t, 2, "@@ -0,0 +1,107 @@", 3);
	assert_line(&t, 3, "+end of the session::", 4);
	assert_line(&t, 8, "  CPU Period       Runtime        Noise  % CPU Aval   Max Noise   Max "
		    "Single          HW          NMI", 9);
	assert_line(&t, 9, "    1 #599       599000000          138    99.99997           3       "
		    "     3           4           74", 10);
	assert_int_equal(t.lines[9].quote, 1);
	assert_line(&t, 17, "+The first column shows the *CPU*, and the second column shows "
		    "how many", 18);
	lat_text_release(&t);

	/* one rtla hwnoise block, every row read; Max Single per CPU: 3 3 3 4 2 2 3 us */
	l = old_logs_load_text(hwnoise_review, NULL);
	assert_int_equal(l->nblocks, 1);
	b = l->blocks[0];
	assert_int_equal(b->skipped_lines, 0);
	assert_string_equal(b->title, "rtla hwnoise");
	assert_int_equal(b->nhist, 7);
	assert_hist(b, 0, "cpu1", LAT_VALUE_NONE, 3000);
	assert_hist(b, 3, "cpu4", LAT_VALUE_NONE, 4000);
	assert_hist(b, 6, "cpu7", LAT_VALUE_NONE, 3000);
	old_logs_free(l);
}

/*
 * Daniel Bristot de Oliveira, "Re: [PATCH V3 9/9] tracing: Add timerlat tracer", LKML,
 * 11 Jun 2021 (samples/mail/033): the patch's trace quoted at depth 2 as ">> +" lines,
 * the hunk header cut ("[...]"); lines 172-194 of the mail.
 */
static const char timerlat_review[] =
	"[...]\n"
	"\n"
	">> +  [root@f32 tracing]# cat trace\n"
	">> +  # tracer: timerlat\n"
	">> +  #\n"
	">> +  #                              _-----=> irqs-off\n"
	">> +  #                             / _----=> need-resched\n"
	">> +  #                            | / _---=> hardirq/softirq\n"
	">> +  #                            || / _--=> preempt-depth\n"
	">> +  #                            || /\n"
	">> +  #                            ||||             ACTIVATION\n"
	">> +  #         TASK-PID      CPU# ||||   TIMESTAMP    ID            CONTEXT        "
	"        LATENCY\n"
	">> +  #            | |         |   ||||      |         |                  |       "
	"                |\n"
	">> +          <idle>-0       [000] d.h1    54.029328: #1     context    irq timer_latency"
	"       932 ns\n"
	">> +           <...>-867     [000] ....    54.029339: #1     context thread timer_latency"
	"     11700 ns\n"
	">> +          <idle>-0       [001] dNh1    54.029346: #1     context    irq timer_latency"
	"      2833 ns\n"
	">> +           <...>-868     [001] ....    54.029353: #1     context thread timer_latency"
	"      9820 ns\n"
	">> +          <idle>-0       [000] d.h1    54.030328: #2     context    irq timer_latency"
	"       769 ns\n"
	">> +           <...>-867     [000] ....    54.030330: #2     context thread timer_latency"
	"      3070 ns\n"
	">> +          <idle>-0       [001] d.h1    54.030344: #2     context    irq timer_latency"
	"       935 ns\n"
	">> +           <...>-868     [001] ....    54.030347: #2     context thread timer_latency"
	"      4351 ns\n"
	">> +\n"
	">> +\n"
	">> +The tracer creates a per-cpu kernel thread with real-time priority that\n"
	"> \n"
	"> This is where I would add that ASCII art.\n";

static void test_no_hunk_header(void **state)
{
	struct lat_loaded *l;
	const struct lat_block *b;
	const struct lat_finding *f;

	(void)state;
	l = old_logs_load_text(timerlat_review, NULL);
	assert_int_equal(l->nblocks, 1);
	b = l->blocks[0];
	assert_string_equal(b->fmt->name, "kernel-tracer");
	assert_int_equal(b->skipped_lines, 0);
	/*
	 * from "# tracer: timerlat" (line 4) on; with the "+" the rows alone read, their
	 * comm "+          <idl" (a comm may hold blanks), and the header did not
	 */
	assert_int_equal(b->first_line, 4);
	f = old_logs_finding(b, "worst-sample");
	assert_non_null(f);
	assert_non_null(strstr(f->message, "worst 2833 ns on cpu1"));
	assert_non_null(strstr(f->message, ": <idle>-0 was running"));
	/* per CPU and context two samples: cpu0 IRQ 932, 769; thread 11700, 3070 ns ... */
	assert_int_equal(b->nhist, 4);
	assert_hist(b, 0, "IRQ cpu0", 2, 932);
	assert_hist(b, 1, "Thread cpu0", 2, 11700);
	assert_hist(b, 2, "IRQ cpu1", 2, 2833);
	assert_hist(b, 3, "Thread cpu1", 2, 9820);
	old_logs_free(l);
}

/*
 * Daniel Bristot de Oliveira, "[PATCH 3/3] Documentation/rtla: Add timerlat-top
 * auto-analysis options", LKML, 31 Jan 2023 (samples/mail/035): the man page's example
 * replaced, the column header a context line between the old table ("-") and the new
 * one ("+").  Lines 146, 155-159, 160, 166, 184, 204, 222 (the hunk's header, the two
 * headers, the old rows of CPU 0 and 6, the old run's last line and first line of prose,
 * the new rows of CPU 1 and 23, the new run's last line).
 */
static const char top_replaced[] =
	"@@ -30,102 +30,84 @@ OPTIONS\n" /* 1 */
	"-  [root@alien ~]# rtla timerlat top -s 30 -T 30 -t\n" /* 2 */
	"-                   Timer Latency\n" /* 3 */
	"-    0 00:00:59   |          IRQ Timer Latency (us)        |         Thread Timer "
	"Latency (us)\n" /* 4 */
	"+  # timerlat -a 40 -c 1-23 -q\n" /* 5 */
	"+                                     Timer Latency\n" /* 6 */
	"+    0 00:00:12   |          IRQ Timer Latency (us)        |         Thread Timer "
	"Latency (us)\n" /* 7 */
	"   CPU COUNT      |      cur       min       avg       max |      cur       min      "
	" avg       max\n" /* 8 */
	"-    0 #58634     |        1         0         1        10 |       11         2      "
	"  10        23\n" /* 9 */
	"-    6 #58634     |       12         0         1        12 |       30         2      "
	"  10        30 <--- CPU with spike\n" /* 10 */
	"-  timerlat hit stop tracing\n" /* 11 */
	"-In the trace, it is possible the notice that the *IRQ* timer latency was\n" /* 12 */
	"+    1 #12322     |        0         0         1        15 |       10         3      "
	"   9        31\n" /* 13 */
	"+   23 #12320     |       28         0         1        28 |       41         3      "
	"  11        41\n" /* 14 */
	"+  rtla timerlat hit stop tracing\n"; /* 15 */

static void test_removed_lines(void **state)
{
	struct lat_text t;
	struct lat_loaded *l;
	const struct lat_block *b;

	(void)state;
	init(&t, top_replaced);
	/* 7 removed lines (2-4, 9-12) dropped, prose or not: the old version */
	assert_int_equal(t.fix.diff_removed, 7);
	assert_int_equal(t.nlines, 15 - 7);
	assert_line(&t, 3, "    0 00:00:12   |          IRQ Timer Latency (us)        |         "
		    "Thread Timer Latency (us)", 7);
	assert_line(&t, 4, "  CPU COUNT      |      cur       min       avg       max |      cur  "
		    "     min       avg       max", 8);
	assert_line(&t, 5, "    1 #12322     |        0         0         1        15 |       10  "
		    "       3         9        31", 13);
	lat_text_release(&t);

	/*
	 * one timerlat top block of the new rows only: CPU 1 and 23 (IRQ max 15 and 28
	 * us, Thread 31 and 41 us); CPU 0 and 6 were the old version's
	 */
	l = old_logs_load_text(top_replaced, NULL);
	assert_int_equal(l->nblocks, 1);
	b = l->blocks[0];
	assert_int_equal(b->skipped_lines, 0);
	assert_int_equal(b->nhist, 4);
	assert_hist(b, 0, "IRQ cpu1", 12322, 15000);
	assert_hist(b, 1, "Thread cpu1", LAT_VALUE_NONE, 31000);
	assert_hist(b, 2, "IRQ cpu23", 12320, 28000);
	assert_hist(b, 3, "Thread cpu23", LAT_VALUE_NONE, 41000);
	old_logs_free(l);
}

/*
 * What is no table quoted as a diff stays as it is: a hunk of C source (Daniel
 * Bristot de Oliveira, "Re: [RFC PATCH 5/5] tracing: Add the osnoise tracer", LKML,
 * 15 Apr 2021, samples/mail/034's mail: include/linux/ftrace_irq.h), a run of removed
 * rows without an added one (the old rows of samples/mail/035 alone), and an indented
 * table after an added line (samples/mail/021's rows): outside a hunk a blank is
 * indentation, not a context line.
 */
static void test_not_a_table_diff(void **state)
{
	static const char source[] =
		">> @@ -7,12 +7,24 @@ extern bool trace_hwlat_callback_enabled;\n"
		">>  extern void trace_hwlat_callback(bool enter);\n"
		">>  #endif\n"
		">>  \n"
		">> +/*\n"
		">> + * XXX: Make it generic\n"
		">> + */\n"
		">> +#ifdef CONFIG_OSNOISE_TRACER\n"
		">> +extern bool trace_osnoise_callback_enabled;\n";
	static const char removed_only[] =
		"-    0 #58634     |        1         0         1        10 |       11         2  "
		"      10        23\n"
		"-    1 #58634     |        1         0         1         9 |       12         2  "
		"       9        23\n";
	static const char indented[] =
		"+1\n"
		"  T: 0 ( 1453) P:80 I:    1000 C:  399995 Min:       6 Act:      10 Avg:      "
		"10 Max:     170\n";
	struct lat_text t;

	(void)state;
	init(&t, source);
	assert_int_equal(t.fix.diff_stripped + t.fix.diff_removed, 0);
	assert_line(&t, 1, " extern void trace_hwlat_callback(bool enter);", 2);
	assert_line(&t, 7, "+#ifdef CONFIG_OSNOISE_TRACER", 8);
	lat_text_release(&t);

	init(&t, removed_only);
	assert_int_equal(t.fix.diff_stripped + t.fix.diff_removed, 0);
	assert_int_equal(t.nlines, 2);
	lat_text_release(&t);

	init(&t, indented);
	assert_int_equal(t.fix.diff_stripped + t.fix.diff_removed, 0);
	assert_line(&t, 0, "+1", 1);
	assert_line(&t, 1, "  T: 0 ( 1453) P:80 I:    1000 C:  399995 Min:       6 Act:      10 "
		    "Avg:      10 Max:     170", 2);
	lat_text_release(&t);
}

/*
 * A diff row a mailer wrapped: the added lines of samples/mail/032's example (the
 * header and CPU 1 and 2) as `fold -s -w 76 | sed 's/ *$//'` wraps them (derived),
 * the piece after each break without the "+".  The prefix comes off first, then
 * the header and rows are joined back (lat_formats_repair_text()'s order), the
 * header telling the rows they are hwnoise's 7 columns.
 */
static void test_wrapped_diff_row(void **state)
{
	static const char text[] =
		"+  CPU Period       Runtime        Noise  % CPU Aval   Max Noise   Max\n"
		"Single          HW          NMI\n"
		"+    1 #599       599000000          138    99.99997           3\n"
		"3           4           74\n"
		"+    2 #599       599000000           85    99.99998           3\n"
		"3           4           75\n";
	struct lat_loaded *l;
	struct lat_text t;

	(void)state;
	init(&t, text);
	assert_int_equal(t.fix.diff_stripped, 3);
	assert_int_equal(t.fix.rows, 3);
	assert_int_equal(t.nlines, 3);
	assert_line(&t, 1, "    1 #599       599000000          138    99.99997           3 3    "
		    "       4           74", 3);
	lat_text_release(&t);

	l = old_logs_load_text(text, NULL);
	assert_int_equal(l->nblocks, 1);
	assert_int_equal(l->blocks[0]->skipped_lines, 0);
	assert_string_equal(l->blocks[0]->title, "rtla hwnoise");
	assert_int_equal(l->blocks[0]->nhist, 2);
	assert_hist(l->blocks[0], 1, "cpu2", LAT_VALUE_NONE, 3000);
	old_logs_free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hunk_quoted),
		cmocka_unit_test(test_no_hunk_header),
		cmocka_unit_test(test_removed_lines),
		cmocka_unit_test(test_not_a_table_diff),
		cmocka_unit_test(test_wrapped_diff_row),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
