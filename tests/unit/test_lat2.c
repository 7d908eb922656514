// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lat2 reader + loop analysis, and how the segmenter splits seed 000's
 * section [5] between lat2 and lat3.  Values read off the seed by hand: each
 * lat2 block has 7 rows, one stalled loop (max=) and one long wait right after.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "latscope/an_loop.h"
#include "old_logs_util.h"

static void test_seed000_lat2_50000(void **state)
{
	struct lat_loaded *l =
		old_logs_load(LAT_SAMPLES_DIR "/lat2/seed000-lat2-50000-vs-shell-loop.txt", NULL);
	const struct lat_block *b;
	const struct lat_loop_result *r;
	const struct lat_loop_proc *p;

	(void)state;
	assert_int_equal(l->nblocks, 1);
	b = l->blocks[0];
	assert_string_equal(b->fmt->name, "lat2");
	assert_string_equal(b->title, "process1= lat2 50000; process2= while : ;do :; done");
	r = b->analysis;
	/* process 2 (the shell loop) printed nothing: only process 1 has rows */
	assert_int_equal(r->nprocs, 1);
	p = &r->procs[0];
	assert_string_equal(p->s->note, "lat2 50000");
	assert_int_equal(p->rows, 7);
	/* max= column: 51 22 2102961 51 89 22 51 -> worst 2102961 us at 1111995136.546 */
	assert_int_equal(p->max.n, 7);
	assert_int_equal(p->max_stall_ns, 2102961000LL);
	assert_int_equal(p->max_stall_ts, 1111995136546000000LL);
	assert_int_equal(p->max_stall_line, 6);
	/* wait: 827 827 828 399760 985 1017 940 -> sorted 4th (median) is 940 */
	assert_int_equal(p->wait.p50, 940000);
	assert_int_equal(p->max_wait_ns, 399760000);
	/* user: 50000 x6 and 2103676 */
	assert_int_equal(p->loop.p50, 50000000);
	assert_int_equal(p->loop.max, 2103676000LL);
	/* freezes: the 2.1 s loop stall and the 400 ms wait */
	assert_int_equal(p->nfreezes, 2);
	assert_int_equal(p->freezes[0].what, LAT_FREEZE_LOOP);
	assert_int_equal(p->freezes[1].what, LAT_FREEZE_WAIT);
	assert_int_equal(p->freezes[1].duration_ns, 399760000);
	old_logs_free(l);
}

/*
 * The whole mail: [4] is lat, the two "#process1= lat2" legends each start a
 * lat2 block, and "#process1=lat3" (which both readers call HEAD) goes to lat3
 * because lat3 claims the rows after it.
 */
static void test_seed000_mail_blocks(void **state)
{
	static const struct {
		const char *fmt;
		uint32_t first, last;
	} want[] = {
		{ "lat", 269, 567 }, { "lat2", 575, 584 }, { "lat2", 586, 595 },
		{ "lat3", 597, 612 }, { "lat3", 621, 659 }, { "lat3", 669, 703 },
	};
	struct lat_loaded *l =
		old_logs_load(LAT_SAMPLES_DIR "/mail/000-tarreau-2.6.11-sched-latency.txt", NULL);

	(void)state;
	assert_int_equal(l->nblocks, LAT_ARRAY_SIZE(want));
	assert_string_equal(l->format, "mail");
	for (size_t i = 0; i < LAT_ARRAY_SIZE(want); i++) {
		assert_string_equal(l->blocks[i]->fmt->name, want[i].fmt);
		assert_int_equal(l->blocks[i]->first_line, want[i].first);
		assert_int_equal(l->blocks[i]->last_line, want[i].last);
		assert_int_equal(l->blocks[i]->skipped_lines, 0);
	}
	/* prose and C source are not errors */
	assert_int_equal(l->diag.nwarn, 0);
	old_logs_free(l);
}

/* Quoting, CRLF, a row without max=, a wrapped row and a "N:" prefix. */
static void test_quoted_malformed_wrapped(void **state)
{
	static const char mail[] =
		">> #process1= lat2 100000\r\n"
		">> date=1111995037.390, wait=       818 us, user=    100000 us, max=    153\r\n"
		">> date=1111995037.491, wait=       817 us, user=    100000 us, max=\r\n"
		">> date=1111995037.592, wait=       819 us, user=    100000 us,\r\n"
		">>  max=     51\r\n"
		">> 2: date=1111995040.691, wait=       819 us, user=   3098525 us, max=3062425\r\n";
	struct lat_loaded *l = old_logs_load_text(mail, NULL);
	const struct lat_loop_result *r;

	(void)state;
	assert_int_equal(l->nblocks, 1);
	assert_int_equal(l->blocks[0]->skipped_lines, 1);	/* "max=" without a value */
	r = l->blocks[0]->analysis;
	assert_int_equal(r->nprocs, 2);
	assert_string_equal(r->procs[0].s->name, "1");
	assert_int_equal(r->procs[0].rows, 2);	/* line 2 and the rejoined lines 4-5 */
	assert_int_equal(lat_series_at(r->procs[0].s, 1, LAT_LOOP_MAX), 51000);
	assert_string_equal(r->procs[1].s->name, "2");
	assert_int_equal(r->procs[1].max_stall_ns, 3062425000LL);
	old_logs_free(l);
}

static void test_line_kinds(void **state)
{
	const struct lat_format *f = lat_format_find("lat2");
	static const char legend[] = "#process1= lat2 50000";
	static const char comment[] = "# anything";
	static const char latrow[] = "--  1111993713.241839,   user=  49421 us,   wait=  456 us";

	(void)state;
	assert_int_equal(f->line_kind(legend, sizeof(legend) - 1), LAT_LINE_HEAD);
	assert_int_equal(f->line_kind(comment, sizeof(comment) - 1), LAT_LINE_SOFT);
	assert_int_equal(f->line_kind(latrow, sizeof(latrow) - 1), LAT_LINE_NO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed000_lat2_50000),
		cmocka_unit_test(test_seed000_mail_blocks),
		cmocka_unit_test(test_quoted_malformed_wrapped),
		cmocka_unit_test(test_line_kinds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
