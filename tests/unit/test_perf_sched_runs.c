// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perf sched as people post it (issue 28): timehist with every column set
 * read from the front (-V, -w, -M, --state, -n, -P, call chains), two
 * labelled `perf sched latency` runs in one paste kept apart, and the
 * comparison of runs made name by name, never by position.  Inputs are cut
 * from the public examples of samples/perf-sched and samples/mail (their
 * README says where each comes from); values are read off the literals.
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
#include "old_logs_util.h"

static const struct lat_histogram *hist_named(const struct lat_block *b, const char *title)
{
	for (size_t i = 0; i < b->nhist; i++)
		if (b->hist[i]->title && !strcmp(b->hist[i]->title, title))
			return b->hist[i];
	return NULL;
}

/* The one sample of a timehist CPU histogram, ns. */
static int64_t only_sample(const struct lat_block *b, const char *title)
{
	const struct lat_histogram *h = hist_named(b, title);

	assert_non_null(h);
	assert_int_equal(h->total, 1);
	return h->b[0].lo_ns;
}

/*
 * Every column set: -V's visual column, -w's and -M's event rows, --state's
 * letter and -n's "next: task[pid]" (perf 6.1 here, samples/perf-sched/
 * timehist-wMV-state-n.txt lines 1-9), -P's pre-migration time (Madadi Vineeth
 * Reddy's patch, LKML 3 Oct 2024, samples/perf-sched/timehist-P-lkml.txt)
 * and a call chain after the columns.
 */
static void test_timehist_columns(void **state)
{
	static const char all[] =
		"           time    cpu  012  task name                       wait time  sch delay   run time  state\n"
		"                             [tid/pid]                          (msec)     (msec)     (msec)       \n"
		"--------------- ------  ---  ------------------------------  ---------  ---------  ---------  -----\n"
		"    2554.903921 [0000]       perf[13536]                                                      awakened: migration/0[18]\n"
		"    2554.903924 [0000]  s    perf[13536]                         0.000      0.000      0.000      D  next: migration/0[18]         \n"
		"    2554.903927 [0000]       migration/0[18]                                                  awakened: perf[13536]\n"
		"    2554.903928 [0000]   m     migration/0[18]                                                  migrated: perf[13536] cpu 0 => 1\n"
		"    2554.903934 [0000]  s    migration/0[18]                     0.000      0.003      0.009      S  next: collect2[13815]         \n"
		"    2554.904176 [0001]   s   Web Content 2[13815]                0.000      0.012      0.241      R  next: <idle>  schedule <- __schedule\n";
	static const char premig[] =
		"           time    cpu  task name                       wait time  sch delay   run time  pre-mig time\n"
		"                        [tid/pid]                          (msec)     (msec)     (msec)     (msec)\n"
		"--------------- ------  ------------------------------  ---------  ---------  ---------  ---------\n"
		"   38456.720806 [0001]  schbench[28634/28574]               4.917      4.768      1.004      0.000\n"
		"   38456.722800 [0002]  schbench[28773/28574]              60.371     60.237      3.955     60.197\n"
		"   38456.723800 [0004]  schbench[28762/28574]              42.951     42.839      3.999     39.867\n";
	struct lat_loaded *l;
	const struct lat_block *b;
	const struct lat_histogram *h;
	const struct lat_finding *f;

	(void)state;
	l = old_logs_load_text(all, NULL);
	assert_int_equal(l->nblocks, 1);
	b = l->blocks[0];
	assert_int_equal(b->skipped_lines, 0);
	/* cpu0: sch delay 0.000 and 0.003 ms; cpu1 0.012 ms (its task's name has a blank) */
	h = hist_named(b, "cpu0 sch delay");
	assert_int_equal(h->total, 2);
	assert_int_equal(h->b[h->nbuckets - 1].lo_ns, 3000);
	assert_int_equal(only_sample(b, "cpu1 sch delay"), 12000);
	assert_non_null(f = old_logs_finding(b, "event-rows"));
	assert_non_null(strstr(f->message, "3 awakened/migrated rows"));
	old_logs_free(l);

	l = old_logs_load_text(premig, NULL);
	b = l->blocks[0];
	assert_int_equal(b->skipped_lines, 0);
	/* the sch delay (second time), not the pre-migration time (fourth) */
	assert_int_equal(only_sample(b, "cpu2 sch delay"), 60237000);
	assert_int_equal(only_sample(b, "cpu4 sch delay"), 42839000);
	assert_non_null(f = old_logs_finding(b, "pre-migration"));
	assert_non_null(strstr(f->message, "3 rows"));
	assert_non_null(strstr(f->message, "60.2 ms (line 5)"));
	old_logs_free(l);
}

/*
 * Two runs of `perf sched latency` one under the other, each under its label
 * and without a header of its own (Youssef Esmat's and Tobias Huschle's mails
 * do that, samples/mail/025 and 027): two blocks, titled by their labels; the
 * labels are no malformed rows.  The tasks print in each run's own order:
 * FinalizerDaemon is compared with FinalizerDaemon, cpu6's worker only with
 * itself, and what has no partner is listed.
 */
static const char two_runs[] =
	"Before:\n"
	"  FinalizerDaemon:1234  |      1.000 ms |       10 | avg:    0.500 ms | max:    2.000 ms | max at:    10.000000 s\n"
	"  kworker/6:1:88        |      1.000 ms |       10 | avg:    0.100 ms | max:    0.300 ms | max at:    10.100000 s\n"
	"After:\n"
	"  kworker/6:1:91        |      1.000 ms |       10 | avg:    0.050 ms | max:    0.200 ms | max at:    20.100000 s\n"
	"  Binder:4321_2:77      |      1.000 ms |        4 | avg:    0.070 ms | max:    0.090 ms | max at:    20.200000 s\n"
	"  FinalizerDaemon:1301  |      1.000 ms |       10 | avg:    0.250 ms | max:    1.000 ms | max at:    20.000000 s\n";

/* The JSON report of @l in *@buf (caller frees). */
static void report_json(struct lat_loaded *l, char **buf)
{
	struct lat_analyze_opts o;
	struct lat_report_input rep = { .path = "two-runs.txt", .format = l->format,
					.blocks = l->blocks, .nblocks = l->nblocks };
	size_t len = 0;
	FILE *f = open_memstream(buf, &len);

	assert_non_null(f);
	lat_analyze_opts_init(&o);
	lat_report_json(f, &rep, 1, &o);
	fclose(f);
}

/* The text between @key's first occurrence in @s and the next "}", for strstr(). */
static char *section(const char *s, const char *key)
{
	const char *a = strstr(s, key), *e;

	assert_non_null(a);
	e = strchr(a, '}');
	assert_non_null(e);
	return strndup(a, (size_t)(e - a));
}

static void test_labelled_runs_by_name(void **state)
{
	struct lat_loaded *l;
	char *json = NULL, *first;

	(void)state;
	l = old_logs_load_text(two_runs, NULL);
	assert_int_equal(l->nblocks, 2);
	assert_string_equal(l->blocks[0]->title,
			    "Before: perf sched latency: per task, as perf printed it");
	assert_string_equal(l->blocks[1]->title,
			    "After: perf sched latency: per task, as perf printed it");
	assert_int_equal(l->blocks[0]->skipped_lines, 0);
	assert_int_equal(l->blocks[1]->skipped_lines, 0);
	assert_int_equal(l->blocks[0]->nhist, 2);
	assert_int_equal(l->blocks[1]->nhist, 3);

	report_json(l, &json);
	/* two pairs: FinalizerDaemon (first in a, last in b), then kworker/6:1 */
	first = section(json, "\"histogram_comparisons\"");
	assert_non_null(strstr(first, "\"title\": \"FinalizerDaemon:1234\""));
	free(first);
	first = section(strstr(json, "\"histogram_comparisons\"") + 1, "\"b\": {");
	assert_non_null(strstr(first, "\"title\": \"FinalizerDaemon:1301\""));
	free(first);
	assert_non_null(strstr(json, "\"title\": \"kworker/6:1:91\""));
	/* Binder has no partner: listed, on side b */
	first = section(json, "\"histogram_unmatched\"");
	assert_non_null(strstr(first, "\"side\": \"b\""));
	assert_non_null(strstr(first, "\"title\": \"Binder:4321_2:77\""));
	free(first);
	free(json);
	old_logs_free(l);
}

/*
 * Runs labelled as changes on top of the one above: Mike Galbraith, "Re: [PATCH]
 * sched/fair: Reschedule the cfs_rq when current is ineligible", LKML 25 May 2024
 * (samples/mail/036), the second and third of his five runs (decoded, two rows
 * each).  "+tweak" names the third: a label, the block's title, no row.
 */
static const char plus_labels[] =
	"6.1.91-eevdf\n"
	" -----------------------------------------------------------------------------------"
	"-----------------------\n"
	"  Task                  |   Runtime ms  | Switches | Avg delay ms    | Max delay ms "
	"   | Sum delay ms     |\n"
	" -----------------------------------------------------------------------------------"
	"-----------------------\n"
	"  massive_intr:(9)      |1971557.115 ms |  6127207 | avg:   0.034 ms | max:  16.351 "
	"ms | sum:208289.732 ms |\n"
	"  dav1d-worker:(8)      |  85561.180 ms |   499175 | avg:   0.262 ms | max:  15.656 "
	"ms | sum:130584.659 ms |\n"
	"\n"
	"+tweak\n"
	"------------------------------------------------------------------------------------"
	"----------------------\n"
	"  Task                  |   Runtime ms  | Switches | Avg delay ms    | Max delay ms "
	"   | Sum delay ms     |\n"
	" -----------------------------------------------------------------------------------"
	"-----------------------\n"
	"  massive_intr:(9)      |1965603.161 ms |  6284089 | avg:   0.034 ms | max:  16.005 "
	"ms | sum:214120.602 ms |\n"
	"  dav1d-worker:(8)      |  89853.413 ms |   599733 | avg:   0.240 ms | max:  48.387 "
	"ms | sum:144117.080 ms |\n";

#define PS_LAT_TITLE ": perf sched latency: per task, as perf printed it"

/*
 * @text read as two runs, nothing malformed, titled @label0 and @label1; the
 * second task of each has the max @max0 and @max1 (ns).
 */
static void assert_two_runs(const char *text, const char *label0, const char *label1,
			    int64_t max0, int64_t max1)
{
	struct lat_loaded *l = old_logs_load_text(text, NULL);
	char title[256];

	assert_int_equal(l->nblocks, 2);
	for (size_t i = 0; i < 2; i++) {
		snprintf(title, sizeof(title), "%s" PS_LAT_TITLE, i ? label1 : label0);
		assert_string_equal(l->blocks[i]->title, title);
		assert_int_equal(l->blocks[i]->skipped_lines, 0);
		assert_true(l->blocks[i]->nhist >= 2);
		assert_int_equal(l->blocks[i]->hist[1]->printed.max_ns, i ? max1 : max0);
	}
	old_logs_free(l);
}

static void test_plus_labels(void **state)
{
	(void)state;
	/* dav1d-worker: max 15.656 ms, then 48.387 ms */
	assert_two_runs(plus_labels, "6.1.91-eevdf", "+tweak", 15656000, 48387000);
}

/*
 * Two runs under one header, each under its label, the rows numbered by the
 * repetition of the run: Peter Zijlstra, "[RFC][PATCH 09/10] sched/eevdf: Allow
 * shorter slices to wakeup-preempt", LKML 5 Apr 2024, Mike Galbraith's numbers
 * (samples/mail/037, two of the nine rows of each run).  The first label lies
 * between the header and the rows: the run's title, no malformed row; the
 * second, between the runs, cuts them and titles the second.
 */
static const char one_header[] =
	"    Task                  |   Runtime ms  | Switches | Avg delay ms    | Max delay ms "
	"   | Sum delay ms     |\n"
	"\n"
	"  100ms massive_intr 500us cyclictest NO_PREEMPT_SHORT\n"
	"\n"
	"  1 massive_intr:(5)      | 846018.956 ms |   779188 | avg:   0.273 ms | max:  58.337 ms "
	"| sum:212545.245 ms |\n"
	"  1 cyclictest:(5)        |  12615.604 ms |   639689 | avg:   0.471 ms | max:  32.272 ms "
	"| sum:301351.094 ms |\n"
	"\n"
	"  100ms massive_intr 500us cyclictest PREEMPT_SHORT\n"
	"\n"
	"  1 massive_intr:(5)      | 839843.919 ms |   837384 | avg:   0.264 ms | max:  74.366 ms "
	"| sum:221476.885 ms |\n"
	"  1 cyclictest:(5)        |  13156.391 ms |   667412 | avg:   0.373 ms | max:  38.247 ms "
	"| sum:249174.502 ms |\n";

static void test_labels_under_one_header(void **state)
{
	(void)state;
	/* cyclictest's max: 32.272 ms, then 38.247 ms */
	assert_two_runs(one_header, "100ms massive_intr 500us cyclictest NO_PREEMPT_SHORT",
			"100ms massive_intr 500us cyclictest PREEMPT_SHORT", 32272000, 38247000);
}

/*
 * A timehist header with no row under it: Yang Jihong's "perf sched timehist:
 * Fixed timestamp error when unable to confirm event sched_in time" as the
 * 5.10 stable review carried it (stable@vger, 15 Oct 2024,
 * samples/perf-sched/stable-2024-yang-timehist-three-runs.txt lines 31-57):
 * "Before:" eight rows, all at 200.000000, one per CPU 0-7; " After:" the
 * header, its "(msec)" line and its rule, and nothing (the --time window holds
 * no switch).  The empty run is a block that says so, the run before is
 * untouched.
 */
static const char empty_after[] =
	"Before:\n"								/* 1 */
	"\n"
	"  arbitrarily specify a time window of interest, timestamp will be set to an "
	"incorrect value\n"
	"\n"
	"  # perf sched timehist --time 100,200\n"				/* 5 */
	"  Samples of sched_switch event do not have callchains.\n"
	"             time    cpu  task name                       wait time  sch delay   run time\n"
	"                          [tid/pid]                          (msec)     (msec)     (msec)\n"
	"  --------------- ------  ------------------------------  ---------  ---------  ---------\n"
	"       200.000000 [0000]  perf[1229608]                       0.000      0.000      0.000\n"
	"       200.000000 [0001]  perf[1229608]                       0.000      0.000      0.000\n"
	"       200.000000 [0002]  perf[1229608]                       0.000      0.000      0.000\n"
	"       200.000000 [0003]  perf[1229608]                       0.000      0.000      0.000\n"
	"       200.000000 [0004]  perf[1229608]                       0.000      0.000      0.000\n"
	"       200.000000 [0005]  perf[1229608]                       0.000      0.000      0.000\n"
	"       200.000000 [0006]  perf[1229608]                       0.000      0.000      0.000\n"
	"       200.000000 [0007]  perf[1229608]                       0.000      0.000      0.000\n"
	"\n"
	" After:\n"
	"\n"									/* 20 */
	"  # perf sched timehist --time 100,200\n"
	"  Samples of sched_switch event do not have callchains.\n"
	"             time    cpu  task name                       wait time  sch delay   run time\n"
	"                          [tid/pid]                          (msec)     (msec)     (msec)\n"
	"  --------------- ------  ------------------------------  ---------  ---------  ---------\n"
	"\n"
	"Fixes: 853b74071110bed3 (\"perf sched timehist: Add option to specify time window of "
	"interest\")\n";

static void test_timehist_header_without_rows(void **state)
{
	struct lat_loaded *l;
	const struct lat_block *b;
	const struct lat_finding *f;

	(void)state;
	l = old_logs_load_text(empty_after, NULL);
	assert_int_equal(l->nblocks, 2);
	/* the "Before:" run: header at 7, rows 10-17, a CPU each, sch delay 0.000 */
	b = l->blocks[0];
	assert_int_equal(b->first_line, 7);
	assert_int_equal(b->last_line, 17);
	assert_int_equal(b->nhist, 8);
	assert_int_equal(hist_named(b, "cpu7 sch delay")->total, 1);
	assert_int_equal(only_sample(b, "cpu0 sch delay"), 0);
	assert_null(old_logs_finding(b, "no-samples"));
	/* the " After:" run: header 23, "(msec)" 24, rule 25; nothing malformed */
	b = l->blocks[1];
	assert_string_equal(b->fmt->name, "perf-sched");
	assert_int_equal(b->first_line, 23);
	assert_int_equal(b->last_line, 25);
	assert_int_equal(b->nhist, 0);
	assert_int_equal(b->skipped_lines, 0);
	assert_string_equal(b->title, "perf sched timehist: sch delay per CPU");
	assert_non_null(f = old_logs_finding(b, "no-samples"));
	assert_int_equal(f->sev, LAT_SEV_INFO);
	assert_non_null(strstr(f->message, "line 23: perf sched timehist printed its header and "
					   "no row"));
	assert_int_equal(l->diag.nwarn, 0);
	old_logs_free(l);

	/* the same header as `fold -s -w 76` wraps it: header, (msec) and rule in two pieces */
	l = old_logs_load_text(
		"             time    cpu  task name                       wait time  sch \n"
		"delay   run time\n"
		"                          [tid/pid]                          (msec)     \n"
		"(msec)     (msec)\n"
		"  --------------- ------  ------------------------------  ---------  \n"
		"---------  ---------\n"
		"\n"
		"Fixes: 853b74071110bed3\n", NULL);
	assert_int_equal(l->nblocks, 1);
	b = l->blocks[0];
	assert_int_equal(b->first_line, 1);
	assert_int_equal(b->last_line, 6);
	assert_int_equal(b->skipped_lines, 0);
	assert_non_null(f = old_logs_finding(b, "no-samples"));
	assert_non_null(strstr(f->message, "line 1: perf sched timehist"));
	old_logs_free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timehist_columns),
		cmocka_unit_test(test_labelled_runs_by_name),
		cmocka_unit_test(test_plus_labels),
		cmocka_unit_test(test_labels_under_one_header),
		cmocka_unit_test(test_timehist_header_without_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
