// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The rows exporter (report/export_rows.c): the pid column from the
 * recorder's "latscope: tgids=TID:TGID,..." line (docs/record.md) and what a
 * damaged or absent line gives; --rows lists.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "latscope/export.h"

/* Points table @kind of @r at a memory stream over @buf, its header done. */
static FILE *to_buf(struct lat_rows *r, enum lat_rows_kind kind, char *buf, size_t len)
{
	FILE *f = fmemopen(buf, len, "w");

	assert_non_null(f);
	memset(buf, 0, len);
	lat_rows_table(r, kind, f);
	r->t[kind].header_done = 1;
	return f;
}

/* The stalls table's row of a stall of CPU 0 with task @tid running, into @buf. */
static void stall_row(struct lat_rows *r, int32_t tid, char *buf, size_t len)
{
	struct lat_wake_sink sink;
	struct lat_wake_stall s = { .cpu = 0, .pid = tid, .comm = "t", .from_ns = 1, .to_ns = 2,
				    .waiting_pid = -1 };
	FILE *f = to_buf(r, LAT_ROWS_STALLS, buf, len);

	lat_rows_sink(r, &sink);
	sink.stall(sink.ctx, &s);
	fclose(f);
	lat_rows_table(r, LAT_ROWS_STALLS, NULL);
}

static void test_tgids(void **state)
{
	static const char meta[] = "latscope: version=0.1.0 cmdline=\"record\"\n"
				   "latscope: probe=timer cpu=0 samples=3\n"
				   "latscope: tgids=59:1,20719:2748,2748:2748,20713:20713\n";
	struct lat_rows r;
	char buf[256];

	(void)state;
	lat_rows_init(&r, LAT_ROWS_CSV);
	assert_int_equal(lat_rows_tgids(&r, meta), 4);
	stall_row(&r, 20719, buf, sizeof(buf));
	assert_string_equal(buf, ",,2748,20719,t,0,1,2,1,,,,1\r\n");
	stall_row(&r, 59, buf, sizeof(buf));
	assert_string_equal(buf, ",,1,59,t,0,1,2,1,,,,1\r\n");
	/* not in the list (exited before the recorder read /proc), and the idle task */
	stall_row(&r, 20718, buf, sizeof(buf));
	assert_string_equal(buf, ",,,20718,t,0,1,2,1,,,,1\r\n");
	stall_row(&r, 0, buf, sizeof(buf));
	assert_string_equal(buf, ",,,0,t,0,1,2,1,,,,1\r\n");
	/* the next trace has no metadata: nothing is carried over */
	assert_int_equal(lat_rows_tgids(&r, NULL), 0);
	stall_row(&r, 20719, buf, sizeof(buf));
	assert_string_equal(buf, ",,,20719,t,0,1,2,1,,,,1\r\n");
	assert_int_equal(lat_rows_tgids(&r, "latscope: version=0.1.0\n"), 0);
	assert_int_equal(lat_rows_tgids(&r, "latscope: tgids=\n"), 0);
	lat_rows_release(&r);
}

static void test_tgids_damaged(void **state)
{
	static const char *const bad[] = {
		"latscope: tgids=7:7,8:x,9:9\n", "latscope: tgids=7:7,8\n",
		"latscope: tgids=7:7,-8:8\n", "latscope: tgids=7:7,8:0\n",
		"latscope: tgids=7:7;8:8\n", "latscope: tgids=7:7,99999999999:1\n",
	};
	struct lat_rows r;
	char buf[256];

	(void)state;
	lat_rows_init(&r, LAT_ROWS_CSV);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		/* the pairs before the bad one are kept */
		assert_int_equal(lat_rows_tgids(&r, bad[i]), -LAT_EFORMAT);
		stall_row(&r, 7, buf, sizeof(buf));
		assert_string_equal(buf, ",,7,7,t,0,1,2,1,,,,1\r\n");
		stall_row(&r, 9, buf, sizeof(buf));
		assert_string_equal(buf, ",,,9,t,0,1,2,1,,,,1\r\n");
	}
	lat_rows_release(&r);
}

static void test_kinds(void **state)
{
	unsigned mask;
	const char *bad;
	size_t n;

	(void)state;
	assert_int_equal(lat_rows_kinds_parse("waits", &mask, &bad, &n), 0);
	assert_int_equal(mask, 1u << LAT_ROWS_WAITS);
	assert_int_equal(lat_rows_kinds_parse("traces,waits,stalls", &mask, &bad, &n), 0);
	assert_int_equal(mask, (1u << LAT_ROWS_TRACES) | (1u << LAT_ROWS_WAITS) |
			       (1u << LAT_ROWS_STALLS));
	assert_int_equal(lat_rows_kinds_parse("all", &mask, &bad, &n), 0);
	assert_int_equal(mask, 31);
	assert_int_equal(lat_rows_kinds_parse("waits,cases,stalls", &mask, &bad, &n),
			 -LAT_EUSAGE);
	assert_int_equal(n, 5);
	assert_memory_equal(bad, "cases", 5);
	assert_int_equal(lat_rows_kinds_parse("waits,", &mask, &bad, &n), -LAT_EUSAGE);
	assert_int_equal(n, 0);
	assert_int_equal(lat_rows_kinds_parse("wait", &mask, &bad, &n), -LAT_EUSAGE);
	assert_int_equal(lat_rows_kinds_parse("waitss", &mask, &bad, &n), -LAT_EUSAGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tgids),
		cmocka_unit_test(test_tgids_damaged),
		cmocka_unit_test(test_kinds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
