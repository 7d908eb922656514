// SPDX-License-Identifier: GPL-2.0-or-later
/* The probes' log2 histogram: bucket bounds and the running min/avg/max. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "probe.h"

static void test_bucket_bounds(void **state)
{
	(void)state;
	/* Bucket k holds [2^k, 2^(k+1)): 1023 < 1024 = 2^10 <= 2047. */
	assert_int_equal(rec_probe_bucket(0), 0);
	assert_int_equal(rec_probe_bucket(1), 0);
	assert_int_equal(rec_probe_bucket(2), 1);
	assert_int_equal(rec_probe_bucket(3), 1);
	assert_int_equal(rec_probe_bucket(1023), 9);
	assert_int_equal(rec_probe_bucket(1024), 10);
	assert_int_equal(rec_probe_bucket(2047), 10);
	assert_int_equal(rec_probe_bucket(73210), 16);	/* 65536 <= 73210 < 131072 */
	assert_int_equal(rec_probe_bucket(INT64_MAX), 62);
}

static void test_hist_add(void **state)
{
	struct rec_probe_hist h;

	(void)state;
	memset(&h, 0, sizeof(h));
	rec_probe_hist_add(&h, 50000);
	rec_probe_hist_add(&h, 10000);
	rec_probe_hist_add(&h, 90000);
	assert_int_equal(h.count, 3);
	assert_int_equal(h.min_ns, 10000);
	assert_int_equal(h.max_ns, 90000);
	assert_int_equal(h.sum_ns / h.count, 50000);
	assert_int_equal(h.bucket[13], 1);	/* 8192 <= 10000 < 16384 */
	assert_int_equal(h.bucket[15], 1);	/* 32768 <= 50000 < 65536 */
	assert_int_equal(h.bucket[16], 1);	/* 65536 <= 90000 */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bucket_bounds),
		cmocka_unit_test(test_hist_add),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
