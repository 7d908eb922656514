// SPDX-License-Identifier: GPL-2.0-or-later
/* core/arena.c: alignment, zeroing, chunk boundaries, big requests, release. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "latscope/arena.h"

static int all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

static void test_small_allocations(void **state)
{
	struct lat_arena a = { 0 };
	unsigned char *prev = NULL;

	(void)state;
	/* 5000 x 1000 bytes: more than two 2 MiB chunks, every block aligned, zeroed, apart */
	for (int i = 0; i < 5000; i++) {
		unsigned char *p = lat_arena_alloc(&a, 1000);

		assert_non_null(p);
		assert_int_equal((uintptr_t)p % 64, 0);
		assert_true(all_zero(p, 1000));
		memset(p, 0xa5, 1000);
		if (prev && p > prev)
			assert_true(p >= prev + 1000);
		prev = p;
	}
	/* 1000 rounds up to 1024: 2047 fit a chunk after its header, so three chunks */
	if (lat_arena_mapped_in_chunks())
		assert_int_equal(a.mapped, 3 * 2 * LAT_BIGMAP_UNIT);
	else
		assert_int_equal(a.mapped, 5000 * (64 + 1024));
	lat_arena_release(&a);
	assert_int_equal(a.mapped, 0);
	assert_null(a.chunks);
	/* usable again after release */
	assert_non_null(lat_arena_alloc(&a, 1));
	lat_arena_release(&a);
}

static void test_big_allocation(void **state)
{
	struct lat_arena a = { 0 };
	unsigned char *small, *big, *after;

	(void)state;
	small = lat_arena_alloc(&a, 100);
	big = lat_arena_alloc(&a, 5 << 20);	/* its own mapping: 6 MiB + alignment slack */
	after = lat_arena_alloc(&a, 100);
	assert_non_null(small);
	assert_non_null(big);
	assert_non_null(after);
	assert_true(all_zero(big, 5 << 20));
	big[(5 << 20) - 1] = 1;
	if (lat_arena_mapped_in_chunks()) {
		/* the small requests still share the first chunk */
		assert_ptr_equal(after, small + 128);
		assert_int_equal(a.mapped, 2 * LAT_BIGMAP_UNIT + 4 * LAT_BIGMAP_UNIT);
	}
	assert_null(lat_arena_alloc(&a, SIZE_MAX - 10));
	lat_arena_release(&a);
}

static void test_bigmap(void **state)
{
	void *map = NULL;
	size_t maplen = 0;
	unsigned char *p;

	(void)state;
	p = lat_bigmap(3 * LAT_BIGMAP_UNIT + 1, &map, &maplen);
	assert_non_null(p);
	assert_int_equal(maplen, 5 * LAT_BIGMAP_UNIT);	/* 4 units rounded up, plus slack */
	if (lat_arena_mapped_in_chunks()) {
		assert_int_equal((uintptr_t)p % LAT_BIGMAP_UNIT, 0);
		assert_true(p >= (unsigned char *)map);
		assert_true(p + 4 * LAT_BIGMAP_UNIT <= (unsigned char *)map + maplen);
	}
	p[4 * LAT_BIGMAP_UNIT - 1] = 7;
	lat_bigmap_free(map, maplen);
	lat_bigmap_free(NULL, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small_allocations),
		cmocka_unit_test(test_big_allocation),
		cmocka_unit_test(test_bigmap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
