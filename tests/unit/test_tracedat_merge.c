// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The merge of the CPUs on (timestamp, cpu) (formats/tracedat_merge.c), driven as the page
 * walk and the puller drive it: the top CPU's head handed out, the CPU stepped, the merge
 * fixed only when the new head passed the limit or the CPU ended.  What comes out must be
 * every head in sorted (timestamp, cpu) order: the sort of all of them, made here with
 * qsort.  The walk and the threaded reader share this merge, so tests/unit/test_tracedat_par.c
 * (threads against one thread) cannot see a fault of it; this can.
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tracedat_merge.h"

#define MAXCPU 40
#define MAXEV 300

struct head {
	uint64_t ts;
	int32_t cpu;
};

struct fake_cpu {
	int32_t cpu;
	int n, next;
	uint64_t ts[MAXEV];
};

static uint64_t rng = 88172645463325252ull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int head_cmp(const void *a, const void *b)
{
	const struct head *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

/*
 * @ncpu CPUs (slots in an order unlike their numbers), each with up to @maxev events whose
 * timestamps step by 0..@span-1 (0: equal timestamps on one CPU; a small span: many equal
 * timestamps across CPUs, ordered by cpu).  Some CPUs have no events and are not pushed.
 */
static void run_case(int ncpu, int maxev, uint64_t span)
{
	static struct fake_cpu cpus[MAXCPU];
	static struct head want[MAXCPU * MAXEV], got[MAXCPU * MAXEV];
	struct td_mnode nodes[MAXCPU + 1];
	struct td_merge m = { .h = nodes };
	size_t nwant = 0, ngot = 0;

	for (int i = 0; i < ncpu; i++) {
		struct fake_cpu *c = &cpus[i];
		uint64_t ts = rnd() % (span * 4 + 1);

		/* numbers out of slot order, with gaps: 3, 0, 9, 6, ... */
		c->cpu = (int32_t)((i * 7 + 3) % (ncpu * 3 + 1));
		c->n = (int)(rnd() % (uint64_t)(maxev + 1));
		c->next = 0;
		for (int k = 0; k < c->n; k++) {
			ts += rnd() % span;
			c->ts[k] = ts;
			want[nwant].ts = ts;
			want[nwant++].cpu = c->cpu;
		}
		if (c->n)
			td_merge_push(&m, c->ts[0], c->cpu, i);
	}
	td_merge_limit(&m);
	qsort(want, nwant, sizeof(*want), head_cmp);

	while (m.n) {
		struct fake_cpu *c = &cpus[m.h[0].slot];

		assert_true(ngot < nwant);
		got[ngot].ts = c->ts[c->next];
		got[ngot++].cpu = c->cpu;
		if (++c->next == c->n)
			td_merge_fix(&m, 0, 0);
		else if (td_merge_crossed(&m, c->ts[c->next], c->cpu))
			td_merge_fix(&m, 1, c->ts[c->next]);
	}
	assert_int_equal(ngot, nwant);
	for (size_t i = 0; i < nwant; i++) {
		assert_int_equal(got[i].ts, want[i].ts);
		assert_int_equal(got[i].cpu, want[i].cpu);
	}
}

/* One CPU, two (the walk's trade of places), and up to 40, with spans from all-equal to wide. */
static void test_merge_order(void **state)
{
	static const uint64_t spans[] = { 1, 2, 3, 10, 1000, 1000000 };

	(void)state;
	for (int ncpu = 1; ncpu <= MAXCPU; ncpu++)
		for (size_t s = 0; s < sizeof(spans) / sizeof(spans[0]); s++)
			for (int round = 0; round < 4; round++)
				run_case(ncpu, round == 0 ? 3 : MAXEV, spans[s]);
}

/* The limit: the earliest head after the top, or none when the top is alone. */
static void test_merge_limit(void **state)
{
	struct td_mnode nodes[4];
	struct td_merge m = { .h = nodes };

	(void)state;
	td_merge_push(&m, 50, 2, 0);
	td_merge_limit(&m);
	assert_int_equal(m.lim_ts, UINT64_MAX);
	/* the top alone: any next head of its own stays before the limit */
	assert_false(td_merge_crossed(&m, UINT64_MAX - 1, 2));
	td_merge_push(&m, 50, 1, 1);
	td_merge_push(&m, 40, 7, 2);
	td_merge_limit(&m);
	/* the top is (40, 7); after it (50, 1) comes before (50, 2) */
	assert_int_equal(m.h[0].slot, 2);
	assert_int_equal(m.lim_ts, 50);
	assert_int_equal(m.lim_cpu, 1);
	/* a head at (50, 7) is after (50, 1): crossed; at (50, 0) it is not */
	assert_true(td_merge_crossed(&m, 50, 7));
	assert_false(td_merge_crossed(&m, 50, 0));

	/*
	 * The limit the sift leaves.  The top steps to (60, 7): (50, 1) comes up, and the
	 * earliest after it is (50, 2), ahead of (60, 7).
	 */
	td_merge_fix(&m, 1, 60);
	assert_int_equal(m.h[0].slot, 1);
	assert_int_equal(m.lim_ts, 50);
	assert_int_equal(m.lim_cpu, 2);
	/* (50, 1) ends: (50, 2) on top, (60, 7) after it */
	td_merge_fix(&m, 0, 0);
	assert_int_equal(m.n, 2);
	assert_int_equal(m.h[0].slot, 0);
	assert_int_equal(m.lim_ts, 60);
	assert_int_equal(m.lim_cpu, 7);
	/* (50, 2) ends: (60, 7) is alone, nothing after it (a limit on it would sift at each step) */
	td_merge_fix(&m, 0, 0);
	assert_int_equal(m.n, 1);
	assert_int_equal(m.h[0].slot, 2);
	assert_int_equal(m.lim_ts, UINT64_MAX);
	assert_int_equal(m.lim_cpu, INT32_MAX);
	td_merge_fix(&m, 0, 0);
	assert_int_equal(m.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge_order),
		cmocka_unit_test(test_merge_limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
