// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The recorder's reading of the trace clock (record/record_clock.c): the "now
 * ts:" line of a tracefs per_cpu stats file, as the kernel writes it for a
 * clock in ns ("%5llu.%06lu", kernel/trace/trace.c tracing_stats_read()) and
 * raw for a counter or TSC clock (no wall clock then).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "record_session.h"

static void test_now_ts(void **state)
{
	/* the stats file of this VM's instance, clock local */
	static const char stats[] = "entries: 1\noverrun: 0\ncommit overrun: 0\nbytes: 60\n"
				    "oldest event ts:   176.175691\nnow ts:   955.151206\n"
				    "dropped events: 0\nread events: 0\n";
	int64_t ns = 0;

	(void)state;
	assert_int_equal(rec_parse_now_ts(stats, &ns), 0);
	assert_int_equal(ns, 955151206000);
	assert_int_equal(rec_parse_now_ts("now ts: 1796401632.000001\n", &ns), 0);
	assert_int_equal(ns, 1796401632000001000);
	/* counter / x86-tsc: "now ts: %llu", a count */
	assert_int_equal(rec_parse_now_ts("oldest event ts: 12\nnow ts: 123456789\n", &ns), -1);
	assert_int_equal(rec_parse_now_ts("now ts:   955.15120\n", &ns), -1);
	assert_int_equal(rec_parse_now_ts("now ts:   955.1512060\n", &ns), -1);
	assert_int_equal(rec_parse_now_ts("now ts: -1.000000\n", &ns), -1);
	assert_int_equal(rec_parse_now_ts("entries: 1\n", &ns), -1);
	assert_int_equal(rec_parse_now_ts(NULL, &ns), -1);
	assert_int_equal(rec_parse_now_ts("now ts: 99999999999999999999.000000\n", &ns), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_now_ts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
