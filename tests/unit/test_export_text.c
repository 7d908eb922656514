// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The exporters' numbers (include/latscope/dectext.h) against printf(): the two quotients by
 * multiply and shift over every value they are used on, the 4-digit words over all their
 * values, the 8-digit ones over every value below 10^6 and a stride through 10^8, and whole
 * numbers below 200000, at every length, both ends of the types and a pseudo-random spread;
 * nothing written past the room promised.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "latscope/dectext.h"

/* n / 100 of a 4-digit field, n / 10 of a 2-digit one: exact over their whole ranges */
static void test_quotients(void **state)
{
	(void)state;
	for (uint64_t n = 0; n < 10000; n++)
		assert_int_equal((n * 5243) >> 19, n / 100);
	for (uint64_t n = 0; n < 100; n++)
		assert_int_equal((n * 103) >> 10, n / 10);
}

static void check_digits8(uint32_t v)
{
	char want[16], got[9];

	snprintf(want, sizeof(want), "%08" PRIu32, v);
	lat_put8(got, lat_digits8(v));
	got[8] = 0;
	assert_string_equal(got, want);
}

static void test_digits8(void **state)
{
	(void)state;
	for (uint32_t v = 0; v < 10000; v++) {
		char want[8], got[5];
		uint32_t d = lat_digits4(v) + 0x30303030u;

		snprintf(want, sizeof(want), "%04" PRIu32, v);
		memcpy(got, &d, 4);
		got[4] = 0;
		assert_string_equal(got, want);
	}
	for (uint32_t v = 0; v < 1000000; v++)
		check_digits8(v);
	for (uint32_t v = 0; v < 100000000; v += 997)
		check_digits8(v);
	check_digits8(99999999);
	check_digits8(10000000);
	check_digits8(12345678);
}

/* @v through lat_dec_u64() (or lat_dec_i64() when @sign) against printf; the room kept. */
static void check_dec(uint64_t v, int sign)
{
	char want[32], got[LAT_DEC_ROOM + 8], *end;

	memset(got, 'z', sizeof(got));
	if (sign) {
		snprintf(want, sizeof(want), "%" PRId64, (int64_t)v);
		end = lat_dec_i64(got, (int64_t)v);
	} else {
		snprintf(want, sizeof(want), "%" PRIu64, v);
		end = lat_dec_u64(got, v);
	}
	assert_int_equal(end - got, strlen(want));
	assert_memory_equal(got, want, strlen(want));
	for (size_t i = LAT_DEC_ROOM; i < sizeof(got); i++)
		assert_int_equal(got[i], 'z');
}

static void check_us(uint64_t ns)
{
	char want[40], got[LAT_DEC_ROOM + 8], *end;

	memset(got, 'z', sizeof(got));
	snprintf(want, sizeof(want), "%" PRIu64 ".%03u", ns / 1000, (unsigned)(ns % 1000));
	end = lat_dec_us(got, ns);
	assert_int_equal(end - got, strlen(want));
	assert_memory_equal(got, want, strlen(want));
	for (size_t i = LAT_DEC_ROOM; i < sizeof(got); i++)
		assert_int_equal(got[i], 'z');
}

static void test_dec(void **state)
{
	uint64_t x = 88172645463325252ull, p = 1;

	(void)state;
	/* every length: 10^k - 1, 10^k, 10^k + 1 */
	for (int k = 0; k < 20; k++, p *= 10) {
		for (uint64_t v = p - 1; v <= p + 1; v++) {
			check_dec(v, 0);
			check_dec(v, 1);
			check_dec(-v, 1);
			check_us(v);
		}
	}
	check_dec(UINT64_MAX, 0);
	check_dec((uint64_t)INT64_MAX, 1);
	check_dec((uint64_t)INT64_MIN, 1);
	check_us(UINT64_MAX);
	check_us(994571013876);		/* a trace clock's ns */
	for (uint64_t v = 0; v < 200000; v++) {
		check_dec(v, 1);
		check_us(v);
	}
	for (int i = 0; i < 1000000; i++) {
		/* xorshift64, its value shifted to every length */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		check_dec(x >> (i % 64), 0);
		check_dec(x >> (i % 64), 1);
		check_us(x >> (i % 64));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quotients),
		cmocka_unit_test(test_digits8),
		cmocka_unit_test(test_dec),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
