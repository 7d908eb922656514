// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lat reader + loop analysis.  Expected values were worked out by hand from
 * seed 000 section [4] (samples/lat/seed000-2x-lat-20000000-vs-10000000.txt):
 * rows counted per marker, the user/wait columns sorted with `sort -n` and
 * the nearest-rank element read off (see samples/README.md).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "latscope/an_loop.h"
#include "old_logs_util.h"

#define SAMPLE LAT_SAMPLES_DIR "/lat/seed000-2x-lat-20000000-vs-10000000.txt"

static void test_seed000_two_processes(void **state)
{
	struct lat_loaded *l = old_logs_load(SAMPLE, NULL);
	const struct lat_block *b;
	const struct lat_loop_result *r;
	const struct lat_loop_proc *p1, *p2;
	size_t nw = 0, nl = 0;

	(void)state;
	assert_int_equal(l->nblocks, 1);
	b = l->blocks[0];
	assert_string_equal(b->fmt->name, "lat");
	assert_int_equal(b->first_line, 1);	/* the "P:-- = process 1" legend */
	assert_int_equal(b->last_line, 299);
	assert_int_equal(b->skipped_lines, 0);
	r = b->analysis;
	assert_int_equal(r->nprocs, 2);
	p1 = &r->procs[0];
	p2 = &r->procs[1];
	/* the legend names the markers: "--" is process 1, "**" process 2 */
	assert_string_equal(p1->s->name, "1");
	assert_string_equal(p1->s->note, "./lat 20000000, started at 1111993713.241839");
	assert_string_equal(p2->s->name, "2");
	assert_string_equal(p2->s->note, "./lat 10000000, started at 1111993714.549886");
	/* grep -c '^-- ' = 40, grep -c '^\*\* ' = 253 */
	assert_int_equal(p1->rows, 40);
	assert_int_equal(p2->rows, 253);
	/* lat has no max column */
	assert_int_equal(p1->max.n, 0);
	assert_int_equal(lat_series_at(p1->s, 0, LAT_LOOP_MAX), LAT_VALUE_NONE);
	/* process 1 user sorted: min 48207, 20th of 40 = 49461, max 2121497 */
	assert_int_equal(p1->loop.min, 48207000);
	assert_int_equal(p1->loop.p50, 49461000);
	assert_int_equal(p1->loop.max, 2121497000LL);
	/* wait: min 215, 20th = 620, max 25606 */
	assert_int_equal(p1->wait.min, 215000);
	assert_int_equal(p1->wait.p50, 620000);
	assert_int_equal(p1->wait.max, 25606000);
	/* stall = overshoot over the median: 2121497 - 49461 us, row 1111993716.616717 */
	assert_int_equal(p1->loop_nominal_ns, 49461000);
	assert_int_equal(p1->max_stall_ns, 2072036000LL);
	assert_int_equal(p1->max_stall_ts, 1111993716616717000LL);
	assert_int_equal(p1->max_stall_line, 115);
	/*
	 * Freezes over 10 ms: user >= 59461 us in 13 rows (2121497, 252583, 233469,
	 * 133559, 240650, 143624, 248251, 152330, 549531, 195771, 124905, 974252,
	 * 949623) and wait >= 10000 us in 8 (21658 18460 15838 22985 25606 18428
	 * 24583 24908).
	 */
	for (size_t f = 0; f < p1->nfreezes; f++)
		p1->freezes[f].what == LAT_FREEZE_WAIT ? nw++ : nl++;
	assert_int_equal(nl, 13);
	assert_int_equal(nw, 8);
	/* process 2: median 24712 us, worst 73735 us -> 49023 us; 24 + 9 freezes */
	assert_int_equal(p2->loop.p50, 24712000);
	assert_int_equal(p2->wait.min, 0);
	assert_int_equal(p2->wait.max, 47766000);
	assert_int_equal(p2->max_stall_ns, 49023000);
	assert_int_equal(p2->nfreezes, 33);
	old_logs_free(l);
}

/*
 * lat.c's own output (no marker, "date=", a tab), quoted and with CRLF, one
 * garbled row and one row the mailer wrapped after "us,".
 */
static void test_plain_quoted_crlf_wrapped(void **state)
{
	static const char mail[] =
		"Willy wrote:\r\n"
		"> date=1111993713.241839,\t user=     49421 us,  wait=       456 us\r\n"
		"> date=1111993713.291499,\t user=     4908x9 us,  wait=       410 us\r\n"
		"> date=1111993713.341838,\t user=     49435 us,\r\n"
		">  wait=       744 us\r\n"
		"> date=1111993713.391437,\t user=     49042 us,  wait=       396 us\r\n"
		">\r\n"
		"> date=1111993716.616717,\t user=   2121497 us,  wait=       373 us\r\n"
		"\r\n"
		"Any hint?\r\n";
	struct lat_loaded *l = old_logs_load_text(mail, NULL);
	const struct lat_block *b;
	const struct lat_loop_result *r;
	const struct lat_loop_proc *p;

	(void)state;
	assert_int_equal(l->nblocks, 1);
	b = l->blocks[0];
	assert_string_equal(b->fmt->name, "lat");
	assert_int_equal(b->first_line, 2);
	assert_int_equal(b->last_line, 8);
	assert_int_equal(b->skipped_lines, 1);	/* "4908x9" */
	assert_int_equal(l->diag.nwarn, 1);
	r = b->analysis;
	assert_int_equal(r->nprocs, 1);
	p = &r->procs[0];
	assert_string_equal(p->s->name, "1");
	/* 4 rows: 49421, 49435 (rejoined, line 4), 49042, 2121497 */
	assert_int_equal(p->rows, 4);
	assert_int_equal(p->s->line[1], 4);
	assert_int_equal(lat_series_at(p->s, 1, LAT_LOOP_WAIT), 744000);
	assert_int_equal(lat_series_at(p->s, 0, LAT_LOOP_TS), 1111993713241839000LL);
	/* nearest-rank median of {49042, 49421, 49435, 2121497} is the 2nd: 49421 */
	assert_int_equal(p->loop_nominal_ns, 49421000);
	assert_int_equal(p->max_stall_ns, (2121497 - 49421) * 1000LL);
	assert_int_equal(p->nfreezes, 1);
	old_logs_free(l);
}

/* Marks without a legend name their own series; an unknown line inside is reported. */
static void test_marks_without_legend(void **state)
{
	static const char text[] =
		"--  1111993713.241839,   user=     49421 us,   wait=       456 us\n"
		"**  1111993714.549886,   user=     24833 us,   wait=         0 us\n"
		"--  1111993713.291499,   user=     49089 us,   wait=       410 us\n"
		"**  1111993714.575477,   user= 24833 us; wait= 289 us\n"
		"**  1111993714.600950,   user=     24744 us,   wait=       569 us\n";
	struct lat_loaded *l = old_logs_load_text(text, NULL);
	const struct lat_loop_result *r;

	(void)state;
	assert_int_equal(l->nblocks, 1);
	assert_int_equal(l->blocks[0]->skipped_lines, 1);	/* ';' instead of ',' */
	r = l->blocks[0]->analysis;
	assert_int_equal(r->nprocs, 2);
	assert_string_equal(r->procs[0].s->name, "--");
	assert_int_equal(r->procs[0].rows, 2);
	assert_string_equal(r->procs[1].s->name, "**");
	assert_int_equal(r->procs[1].rows, 2);
	assert_null(r->procs[0].s->note);
	old_logs_free(l);
}

/* The reader alone: line kinds the segmenter relies on. */
static void test_line_kinds(void **state)
{
	const struct lat_format *f = lat_format_find("lat");
	static const char legend[] = "P:-- = process 1 : ./lat 20000000, started at 1.2";
	static const char hdr[] = "P      system time           time spent           time spent";
	static const char lat2row[] = "date=1111995134.390, wait=   827 us, user=  50000 us, max=  51";
	static const char prose[] = "The first version (attached below) mesures the time";

	(void)state;
	assert_non_null(f);
	assert_int_equal(f->line_kind(legend, sizeof(legend) - 1), LAT_LINE_HEAD);
	assert_int_equal(f->line_kind(hdr, sizeof(hdr) - 1), LAT_LINE_HEAD);
	/* lat2 prints wait before user and has max=: not ours */
	assert_int_equal(f->line_kind(lat2row, sizeof(lat2row) - 1), LAT_LINE_NO);
	assert_int_equal(f->line_kind(prose, sizeof(prose) - 1), LAT_LINE_NO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed000_two_processes),
		cmocka_unit_test(test_plain_quoted_crlf_wrapped),
		cmocka_unit_test(test_marks_without_legend),
		cmocka_unit_test(test_line_kinds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
