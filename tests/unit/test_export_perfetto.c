// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The texts `export --perfetto` keeps and copies (report/export_perfetto.h) against the
 * way they were written before: a timestamp with its high digits kept (pf_ts()) against
 * lat_dec_us() over every length of number and across changes of the kept digits in both
 * directions; a waker's name against printf()'s "%.16s:%d", "%s:%.24s", "%s" (a comm of
 * 16 bytes without its NUL, an irq name of 24, none); an analysis' name by its address
 * (pf_name()) against its text, with two names in one slot.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "export_perfetto.h"

static struct lat_perfetto *new_writer(void)
{
	struct lat_perfetto *p = calloc(1, sizeof(*p));

	assert_non_null(p);
	p->cache = calloc(1, sizeof(*p->cache));
	assert_non_null(p->cache);
	return p;
}

static void free_writer(struct lat_perfetto *p)
{
	free(p->cache);
	free(p);
}

static void check_ts(struct lat_perfetto *p, uint64_t ns)
{
	char want[64], got[64];
	size_t nw = (size_t)(lat_dec_us(want, ns) - want), ng;

	ng = (size_t)(pf_ts(p, got, ns) - got);
	want[nw] = got[ng] = 0;
	assert_string_equal(got, want);
}

static void test_ts(void **state)
{
	struct lat_perfetto *p = new_writer();
	uint64_t x = 88172645463325252ull;

	(void)state;
	/* below 0.1 s (nothing kept: lat_dec_us() drops the leading zeros), then each length */
	for (uint64_t ns = 0; ns < 2000; ns++)
		check_ts(p, ns);
	for (uint64_t v = 1; v && v < UINT64_MAX / 3; v *= 3) {
		check_ts(p, v);
		check_ts(p, v - 1);
		check_ts(p, 99999999);	/* back below the kept digits */
		check_ts(p, v + 1);
	}
	/* around the ends of the kept digits: 10^8 ns, 10^16 ns (17 digits: not kept) */
	for (uint64_t ns = 100000000 - 3; ns < 100000000 + 3; ns++)
		check_ts(p, ns);
	for (uint64_t ns = 10000000000000000ull - 3; ns < 10000000000000000ull + 3; ns++)
		check_ts(p, ns);
	check_ts(p, UINT64_MAX);
	/* a trace's times: the kept digits hold, then change, at random steps */
	for (int i = 0, ns = 0; i < 200000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		ns = (int)(x % 50000000);
		check_ts(p, 994571013876ull + (uint64_t)i * 7919 + (uint64_t)ns);
		check_ts(p, x >> (x % 64));
	}
	free_writer(p);
}

static void check_waker(const struct lat_wake_waker *k)
{
	char want[PF_WAKER_NAME], got[PF_WAKER_NAME];
	const char *irq = lat_wake_irq_label(k);

	if (k->ctx == LAT_WAKE_CTX_TASK)
		snprintf(want, sizeof(want), "%.16s:%d", k->comm[0] ? k->comm : "?", k->pid);
	else if (irq[0])
		snprintf(want, sizeof(want), "%s:%.24s", lat_wake_ctx_name(k->ctx), irq);
	else
		snprintf(want, sizeof(want), "%s", lat_wake_ctx_name(k->ctx));
	pf_waker_name(got, k);
	assert_string_equal(got, want);
}

static void test_waker_names(void **state)
{
	struct lat_wake_waker k = { .pid = 1234, .cpu = 1 };
	const int32_t pids[] = { 0, 7, -1, 4194304, INT32_MIN, INT32_MAX };

	(void)state;
	for (size_t i = 0; i < sizeof(pids) / sizeof(pids[0]); i++) {
		k.pid = pids[i];
		memset(k.comm, 0, sizeof(k.comm));
		check_waker(&k);			/* no comm: "?" */
		memcpy(k.comm, "kworker/u16:3", 13);
		check_waker(&k);
		memset(k.comm, 'c', sizeof(k.comm));	/* 16 bytes, no NUL */
		check_waker(&k);
	}
	for (int ctx = LAT_WAKE_CTX_IRQ; ctx <= LAT_WAKE_CTX_NMI; ctx++) {
		k.ctx = (enum lat_wake_ctx)ctx;
		memset(k.irq_name, 0, sizeof(k.irq_name));
		check_waker(&k);			/* the kind alone */
		memcpy(k.irq_name, "hrtimer_wakeup", 14);
		check_waker(&k);
		memset(k.irq_name, 'i', sizeof(k.irq_name));	/* 24 bytes, no NUL */
		check_waker(&k);
	}
	k.ctx = LAT_WAKE_CTX_TASK;
	check_waker(&k);
}

static void test_names(void **state)
{
	struct lat_perfetto *p = new_writer();
	/* one string of 31 bytes kept, one of 32 written as it is; the rest in turn */
	static const char *const names[] = {
		"cpu-saturated", "stall", "", "runnable", "abcdefghijklmnopqrstuvwxyz01234",
		"abcdefghijklmnopqrstuvwxyz012345", "wakeup", "R+",
	};
	char out[128];

	(void)state;
	for (int round = 0; round < 3; round++) {
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			char *e = pf_name(p, out, names[i]);

			*e = 0;
			assert_string_equal(out, names[i]);
		}
	}
	/* every name in one slot: the addresses differ, so does the text */
	for (size_t i = 0; i < PF_NAMEWORDS; i++)
		p->cache->words[i] = p->cache->words[0];
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		*pf_name(p, out, names[i]) = 0;
		assert_string_equal(out, names[i]);
	}
	free_writer(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ts),
		cmocka_unit_test(test_waker_names),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
