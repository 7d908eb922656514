// SPDX-License-Identifier: GPL-2.0-or-later
/* lat3 reader + loop analysis, against values checked by hand in the seed mail. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <unistd.h>

#include "latscope/an_loop.h"
#include "latscope/analyze.h"
#include "latscope/input.h"

static struct lat_loaded *load_analyze(const char *path, int64_t thr)
{
	struct lat_loaded *l = calloc(1, sizeof(*l));
	struct lat_analyze_opts o;

	assert_non_null(l);
	lat_analyze_opts_init(&o);
	if (thr)
		o.threshold_ns = thr;
	assert_int_equal(lat_load(l, path, NULL), 0);
	for (size_t i = 0; i < l->nblocks; i++)
		assert_int_equal(lat_analyze_block(l->blocks[i], &o), 0);
	return l;
}

static void free_loaded(struct lat_loaded *l)
{
	lat_loaded_release(l);
	free(l);
}

static void test_seed000_lat3_vs_shell_loop(void **state)
{
	struct lat_loaded *l = load_analyze(LAT_SAMPLES_DIR "/lat3/seed000-lat3-vs-shell-loop.txt", 0);
	const struct lat_loop_result *r;
	const struct lat_loop_proc *p;

	(void)state;
	assert_int_equal(l->nblocks, 1);
	assert_string_equal(l->format, "lat3");
	r = l->blocks[0]->analysis;
	assert_int_equal(r->nprocs, 1);
	p = &r->procs[0];
	assert_string_equal(p->s->name, "1");
	assert_int_equal(p->rows, 11);
	/* select column sorted: 680 929 929 930 930 [930] ... 978 99929 */
	assert_int_equal(p->wait.min, 680000);
	assert_int_equal(p->wait.p50, 930000);
	assert_int_equal(p->wait.max, 99929000);
	assert_int_equal(p->loop.p50, 100000000);
	assert_int_equal(p->loop.max, 2593603000LL);
	/* maxlat 2507346 us in the row dated 1112008906.469, line 13 of the sample */
	assert_int_equal(p->max_stall_ns, 2507346000LL);
	assert_int_equal(p->max_stall_ts, 1112008906469000000LL);
	assert_int_equal(p->max_stall_line, 13);
	assert_int_equal(p->nbmax_sum, 1);
	assert_int_equal(p->nfreezes, 2);
	assert_int_equal(p->freezes[0].what, LAT_FREEZE_LOOP);
	assert_int_equal(p->freezes[0].duration_ns, 2507346000LL);
	assert_int_equal(p->freezes[1].what, LAT_FREEZE_WAIT);
	assert_int_equal(p->freezes[1].ts_ns, 1112008906669000000LL);
	assert_int_equal(p->freezes[1].duration_ns, 99929000);
	free_loaded(l);
}

static void test_two_processes_split(void **state)
{
	struct lat_loaded *l = load_analyze(LAT_SAMPLES_DIR "/lat3/seed000-2x-lat3-1000000.txt", 0);
	const struct lat_loop_result *r;

	(void)state;
	assert_int_equal(l->nblocks, 1);
	r = l->blocks[0]->analysis;
	assert_int_equal(r->nprocs, 2);
	assert_int_equal(r->procs[0].rows, 20);	/* rows prefixed "1: " */
	assert_int_equal(r->procs[1].rows, 18);	/* rows prefixed "2: " */
	/* process 1's longest gap: "1: 1112015227.335 841 1952641 1002003 1" */
	assert_int_equal(r->procs[0].max_stall_ns, 1002003000LL);
	assert_int_equal(r->procs[1].max_stall_ns, 1000071000LL);
	free_loaded(l);
}

/* Mail quoting, CRLF, a garbled row and prose around the block. */
static void test_quoted_crlf_malformed(void **state)
{
	static const char mail[] =
		"Hi, here is what lat3 printed:\r\n"
		"\r\n"
		"> Date_sec.msec   select    loop  maxlat    nbmax\r\n"
		"> 1112008903.267     929  100000      48       0\r\n"
		"> 1112008903.368     930  1000x0      52       0\r\n"
		">\r\n"
		"> 1112008906.469     978 2593603 2507346       1\r\n"
		"\r\n"
		"Regards,\r\n"
		"-- \r\nWilly\r\n";
	char path[] = "/tmp/latscope-test-XXXXXX";
	int fd = mkstemp(path);
	struct lat_loaded l;
	const struct lat_loop_result *r;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, mail, sizeof(mail) - 1), (ssize_t)sizeof(mail) - 1);
	close(fd);
	assert_int_equal(lat_load(&l, path, NULL), 0);
	unlink(path);
	assert_int_equal(l.nblocks, 1);
	assert_int_equal(l.blocks[0]->first_line, 3);
	assert_int_equal(l.blocks[0]->last_line, 7);
	assert_int_equal(l.blocks[0]->skipped_lines, 1);
	assert_int_equal(l.diag.nwarn, 1);
	assert_int_equal(l.other_lines, 11 - 5);
	r = NULL;
	{
		struct lat_analyze_opts o;

		lat_analyze_opts_init(&o);
		assert_int_equal(lat_analyze_block(l.blocks[0], &o), 0);
		r = l.blocks[0]->analysis;
	}
	assert_int_equal(r->procs[0].rows, 2);
	assert_int_equal(r->procs[0].max_stall_ns, 2507346000LL);
	lat_loaded_release(&l);
}

static void test_empty_and_binary(void **state)
{
	struct lat_loaded l;

	(void)state;
	assert_int_equal(lat_load(&l, "/dev/null", NULL), -LAT_EEMPTY);
	assert_string_equal(l.error, "empty input");
	lat_loaded_release(&l);
	assert_int_equal(lat_load(&l, "/nonexistent/file", NULL), -LAT_EIO);
	lat_loaded_release(&l);
	/* a directory opens and reads as empty: said for what it is */
	assert_int_equal(lat_load(&l, "/", NULL), -LAT_EIO);
	assert_string_equal(l.error, "cannot open: Is a directory");
	lat_loaded_release(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed000_lat3_vs_shell_loop),
		cmocka_unit_test(test_two_processes_split),
		cmocka_unit_test(test_quoted_crlf_malformed),
		cmocka_unit_test(test_empty_and_binary),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
