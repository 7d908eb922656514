// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * schedcnt reader + analysis.  Seed 004 values were checked by hand with awk
 * over the table (rows per section, LAT min/max/sum, the per-PID CPU sets and
 * the CPU changes of each PID with the rows of both CPUs merged by SCHEDENTRY);
 * see samples/README.md.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "latscope/an_schedcnt.h"
#include "old_logs_util.h"

#define SAMPLE LAT_SAMPLES_DIR "/schedcnt/seed004-cpuhog-n1-to-n4.txt"

static void test_seed004_runs(void **state)
{
	struct lat_analyze_opts o;
	struct lat_loaded *l;
	const struct lat_sched_result *r;
	static const size_t rows[4][2] = { { 78, 14 }, { 56, 53 }, { 73, 77 }, { 73, 77 } };
	static const int64_t tool_avg[4][2] = {
		{ 4532, 1570 }, { 5212, 4616 }, { 3862, 3521 }, { 2982, 2808 } };
	static const size_t bouncing[4] = { 0, 0, 3, 0 };

	(void)state;
	lat_analyze_opts_init(&o);
	o.cpu_mhz = 733;
	l = old_logs_load(SAMPLE, &o);
	assert_int_equal(l->nblocks, 1);
	assert_string_equal(l->blocks[0]->fmt->name, "schedcnt");
	assert_string_equal(l->blocks[0]->title, "N = 1, N = 2, N = 3, N = 4");
	r = l->blocks[0]->analysis;
	assert_int_equal(r->nruns, 4);
	for (size_t i = 0; i < 4; i++) {
		const struct lat_sched_run *run = &r->runs[i];

		assert_int_equal(run->ncpus, 2);
		for (size_t c = 0; c < 2; c++) {
			assert_int_equal(run->cpus[c].cpu, (int)c);
			assert_int_equal(run->cpus[c].rows, rows[i][c]);
			assert_int_equal(run->cpus[c].announced, (int64_t)rows[i][c]);
			assert_int_equal(run->cpus[c].tool_avg, tool_avg[i][c]);
			/* the footer is the truncated average of our rows */
			assert_int_equal((int64_t)run->cpus[c].lat_avg, tool_avg[i][c]);
			assert_false(run->cpus[c].avg_mismatch);
			assert_int_equal(run->cpus[c].lat_inconsistent, 0);
			assert_int_equal(run->cpus[c].dif_inconsistent, 0);
		}
		assert_int_equal(run->nbouncing, bouncing[i]);
	}
	assert_string_equal(r->runs[2].label, "N = 3");
	/* N = 1 cpu0: LAT 1094..6515, sum 353566 over 78 rows */
	assert_int_equal(r->runs[0].cpus[0].lat_min, 1094);
	assert_int_equal(r->runs[0].cpus[0].lat_max, 6515);
	assert_float_equal(r->runs[0].cpus[0].lat_avg, 353566.0 / 78, 1e-9);
	/* 74 of its 77 ENTRYDIFs are 43986559..43986728; the median of those is 43986624 */
	assert_int_equal(r->runs[0].cpus[0].period_count, 74);
	assert_int_equal(r->runs[0].cpus[0].period_cycles, 43986624);
	/* 43986624 cycles / 733 MHz = 60009.037 us (733 * 60009 = 43986597, remainder 27 / 733) */
	assert_int_equal(lat_cycles_to_ns(43986624, 733), 60009037);
	/* N = 3: the hogs 807, 808, 809 ran on both CPUs, 22, 21 and 22 moves */
	for (size_t p = 0, k = 0; p < r->runs[2].npids; p++) {
		const struct lat_sched_pid *pp = &r->runs[2].pids[p];
		static const int32_t pid[] = { 807, 808, 809 };
		static const size_t moves[] = { 22, 21, 22 };

		if (pp->cpu_mask != 3)
			continue;
		assert_int_equal(pp->pid, pid[k]);
		assert_int_equal(pp->moves, moves[k]);
		k++;
	}
	/* N = 1: 796 stayed on CPU 0 */
	assert_int_equal(r->runs[0].pids[r->runs[0].npids - 1].pid, 796);
	assert_int_equal(r->runs[0].pids[r->runs[0].npids - 1].cpu_mask, 1);
	assert_non_null(old_logs_finding(l->blocks[0], "bouncing"));
	assert_string_equal(old_logs_finding(l->blocks[0], "bouncing-summary")->message,
			    "bouncing in N = 3; none in N = 1, N = 2, N = 4");
	assert_null(old_logs_finding(l->blocks[0], "avg-mismatch"));
	assert_null(old_logs_finding(l->blocks[0], "row-count-mismatch"));
	old_logs_free(l);
}

/*
 * Hand-made table: quoting and CRLF, a section announcing 3 rows with 2
 * (ending without ENTRYDIF, so the footer is recognised), a wrong footer
 * average, a 3-number line, and PID 100 moving 0 -> 1 -> 0.
 */
static void test_mismatches_and_bouncing(void **state)
{
	static const char mail[] =
		"> SCHEDENTRY SCHEDEXIT LAT PID ENTRYDIF\r\n"
		"> N = 2\r\n"
		"> 0 3\r\n"
		"> 1000 1100 100 100 1000\r\n"
		"> 2000 2300 300 0\r\n"
		"> 999 5\r\n"
		"> 1 2\r\n"
		"> 1500 1700 200 100 1000\r\n"
		"> 2500 2600 100 7 7 7\r\n"
		"> 2600 2640 40 101\r\n"
		"> 120 0\r\n"
		">\r\n"
		"> N = 3\r\n"
		"> 0 1\r\n"
		"> 5000 5010 10 100\r\n"
		"> 10 4\r\n";
	struct lat_loaded *l = old_logs_load_text(mail, NULL);
	const struct lat_block *b;
	const struct lat_sched_result *r;
	const struct lat_sched_run *run;

	(void)state;
	assert_int_equal(l->nblocks, 1);
	b = l->blocks[0];
	assert_int_equal(b->first_line, 1);
	assert_int_equal(b->last_line, 16);
	assert_int_equal(b->skipped_lines, 1);	/* "2500 2600 100 7 7 7" */
	r = b->analysis;
	assert_int_equal(r->nruns, 2);
	run = &r->runs[0];
	assert_string_equal(run->label, "N = 2");
	assert_int_equal(run->ncpus, 2);
	/* cpu0: 2 rows of 3 announced; LAT 100, 300 -> avg 200, footer says 999 */
	assert_int_equal(run->cpus[0].rows, 2);
	assert_int_equal(run->cpus[0].announced, 3);
	assert_true(run->cpus[0].avg_mismatch);
	assert_int_equal(run->cpus[0].tool_second, 5);
	/* cpu1: LAT 200, 40 -> avg 120 = footer */
	assert_int_equal(run->cpus[1].rows, 2);
	assert_false(run->cpus[1].avg_mismatch);
	/* PID 100: cpu0 at 1000, cpu1 at 1500: one move; 101 only on cpu1 */
	assert_int_equal(run->npids, 2);
	assert_int_equal(run->pids[0].pid, 100);
	assert_int_equal(run->pids[0].cpu_mask, 3);
	assert_int_equal(run->pids[0].moves, 1);
	assert_int_equal(run->nbouncing, 1);
	assert_int_equal(r->runs[1].nbouncing, 0);
	assert_non_null(old_logs_finding(b, "row-count-mismatch"));
	assert_non_null(old_logs_finding(b, "avg-mismatch"));
	assert_non_null(old_logs_finding(b, "skipped-rows"));
	assert_string_equal(old_logs_finding(b, "bouncing-summary")->message,
			    "bouncing in N = 2; none in N = 3");
	old_logs_free(l);
}

/* A section with no footer before the next run, and rows before any section header. */
static void test_missing_footer_and_header(void **state)
{
	static const char text[] =
		"SCHEDENTRY SCHEDEXIT LAT PID ENTRYDIF\n"
		"1000 1100 100 5 500\n"
		"1500 1600 100 5\n"
		"N = 2\n"
		"0 1\n"
		"3000 3050 50 6\n"
		"50 1\n";
	struct lat_loaded *l = old_logs_load_text(text, NULL);
	const struct lat_sched_result *r;
	const struct lat_block *b;
	size_t missing = 0;

	(void)state;
	assert_int_equal(l->nblocks, 1);
	/* the orphan rows are kept under an unknown CPU, and said so on stderr */
	assert_int_equal(l->diag.nwarn, 1);
	b = l->blocks[0];
	r = b->analysis;
	assert_int_equal(r->nruns, 2);
	/* the unknown facts are called so, and each missing one is a finding with its line */
	assert_string_equal(r->runs[0].label, "N = unknown");
	assert_string_equal(r->runs[0].cpus[0].s->name, "cpu unknown");
	for (size_t i = 0; i < b->nfindings; i++) {
		if (strcmp(b->findings[i].kind, "header-missing"))
			continue;
		missing++;
		assert_non_null(strstr(b->findings[i].message, "at line 2"));
		assert_null(strstr(b->findings[i].message, "-1"));
	}
	assert_int_equal(missing, 2);
	assert_int_equal(r->runs[0].cpus[0].cpu, -1);
	assert_int_equal(r->runs[0].cpus[0].rows, 2);
	assert_int_equal(r->runs[0].cpus[0].tool_avg, LAT_VALUE_NONE);
	assert_non_null(old_logs_finding(l->blocks[0], "missing-footer"));
	assert_int_equal(r->runs[1].cpus[0].rows, 1);
	assert_int_equal(r->runs[1].cpus[0].tool_avg, 50);
	old_logs_free(l);
}

static void test_line_kinds(void **state)
{
	const struct lat_format *f = lat_format_find("schedcnt");
	static const struct {
		const char *s;
		enum lat_line_kind k;
	} cases[] = {
		{ "SCHEDENTRY SCHEDEXIT LAT PID ENTRYDIF", LAT_LINE_HEAD },
		{ "430018440148 430018446565 6417 0 1049704", LAT_LINE_ROW },
		{ "433654311212 433654315598 4386 796", LAT_LINE_ROW },
		{ "0 78", LAT_LINE_ROW },
		{ "4532 7463", LAT_LINE_ROW },
		{ "N = 3", LAT_LINE_SOFT },	/* never starts a block */
		{ "1 2 3", LAT_LINE_NO },
		/* cyclictest -h rows are zero-padded: not ours */
		{ "000001 000003 000000 000000 000000", LAT_LINE_NO },
		{ "with N [1, 2, 3, 4]", LAT_LINE_NO },
	};

	(void)state;
	for (size_t i = 0; i < LAT_ARRAY_SIZE(cases); i++)
		assert_int_equal(f->line_kind(cases[i].s, strlen(cases[i].s)), cases[i].k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed004_runs),
		cmocka_unit_test(test_mismatches_and_bouncing),
		cmocka_unit_test(test_missing_footer_and_header),
		cmocka_unit_test(test_line_kinds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
