// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The trace.dat reader through its public face (lat_load + lat_event_source).
 * Expected values come from trace-cmd itself: `trace-cmd report -t FILE`
 * counted per event name (e.g. `trace-cmd report FILE | grep -c sched_switch:`
 * gives 789 for samples/tracedat/mixed-3000-v6.dat), `trace-cmd dump --options`
 * for the CPUSTAT overrun values and the clock.  tests/e2e/test_tracedat.sh
 * compares every event with trace-cmd report.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "latscope/input.h"

#define V6 LAT_SAMPLES_DIR "/tracedat/mixed-3000-v6.dat"
#define V7 LAT_SAMPLES_DIR "/tracedat/mixed-3000-v7-zstd.dat"
#define INST LAT_SAMPLES_DIR "/tracedat/mixed-inst1-v7-zstd.dat"
#define TIMERS LAT_SAMPLES_DIR "/tracedat/cyclictest-timers-v7-zstd.dat"
#define FIXTURE LAT_FIXTURE_V7

struct counts {
	unsigned long n[LAT_EV_NTYPES];
	unsigned long total, backwards;
	int cpus_seen;
};

static int load(struct lat_loaded *l, const char *path, const char *buffer)
{
	return lat_load(l, path, &(struct lat_read_opts){ .format = lat_format_find("trace.dat"),
						   .buffer = buffer });
}

static void count_all(struct lat_event_source *src, struct counts *c)
{
	struct lat_event ev;
	uint64_t last = 0;

	memset(c, 0, sizeof(*c));
	while (lat_event_next(src, &ev) > 0) {
		assert_true((unsigned)ev.type < LAT_EV_NTYPES);
		c->n[ev.type]++;
		c->total++;
		if (ev.ts_ns < last)
			c->backwards++;
		last = ev.ts_ns;
		c->cpus_seen |= 1 << (ev.cpu & 15);
	}
}

static void test_v6_counts(void **state)
{
	struct lat_loaded l;
	struct counts c;

	(void)state;
	assert_int_equal(load(&l, V6, NULL), 0);
	assert_int_equal(l.nblocks, 1);
	assert_non_null(l.blocks[0]->events);
	assert_int_equal(l.blocks[0]->events->ncpus, 2);
	count_all(l.blocks[0]->events, &c);
	/* trace-cmd report: 3000 events, 789 sched_switch, 654 sched_waking, 650 sched_wakeup,
	 * 403 sched_wakeup_new, 20 sched_migrate_task, 403 fork, 3 exec, 35+35 softirq, 4+4 irq */
	assert_int_equal(c.total, 3000);
	assert_int_equal(c.n[LAT_EV_SWITCH], 789);
	assert_int_equal(c.n[LAT_EV_WAKING], 654);
	assert_int_equal(c.n[LAT_EV_WAKEUP], 650);
	assert_int_equal(c.n[LAT_EV_WAKEUP_NEW], 403);
	assert_int_equal(c.n[LAT_EV_MIGRATE], 20);
	assert_int_equal(c.n[LAT_EV_FORK], 403);
	assert_int_equal(c.n[LAT_EV_EXEC], 3);
	assert_int_equal(c.n[LAT_EV_SOFTIRQ_ENTRY], 35);
	assert_int_equal(c.n[LAT_EV_IRQ_EXIT], 4);
	assert_int_equal(c.n[LAT_EV_LOST], 0);
	assert_int_equal(c.backwards, 0);
	assert_int_equal(c.cpus_seen, 3);
	assert_null(l.blocks[0]->events->stop_reason);
	lat_loaded_release(&l);
}

/*
 * hrtimer events, fields looked up by name (docs/timers.md), in the timer sample;
 * `trace-cmd report -t` of it: 1042 hrtimer_start, 3 hrtimer_cancel, 1039 expire
 * entries and exits, and cyclictest's worst timer:
 *   cyclictest-27828 [000] 7246.127957499: hrtimer_start: hrtimer=0xffffc90006eafca8
 *     function=hrtimer_wakeup/0x0 expires=7246101697396 softexpires=7246101697396
 *   latscope-28287 [000] 7246.130469467: hrtimer_expire_entry: hrtimer=0xffffc90006eafca8
 *     now=7246104027829 function=hrtimer_wakeup/0x0
 */
static void test_hrtimer_fields(void **state)
{
	struct lat_loaded l;
	struct lat_event ev;
	unsigned long n[LAT_EV_NTYPES] = { 0 }, found = 0;

	(void)state;
	assert_int_equal(load(&l, TIMERS, NULL), 0);
	while (lat_event_next(l.blocks[0]->events, &ev) > 0) {
		n[ev.type]++;
		if (ev.ts_ns == 7246127957499ull && ev.type == LAT_EV_TIMER_START) {
			assert_int_equal(ev.pid, 27828);
			assert_true(ev.u.timer.hrtimer == 0xffffc90006eafca8ull);
			assert_string_equal(ev.u.timer.name, "hrtimer_wakeup");
			assert_true(ev.u.timer.expires == 7246101697396ll);
			assert_true(ev.u.timer.softexpires == 7246101697396ll);
			assert_true(ev.u.timer.now == LAT_TIMER_UNKNOWN);
			found++;
		}
		if (ev.ts_ns == 7246130469467ull && ev.type == LAT_EV_TIMER_ENTRY) {
			assert_int_equal(ev.pid, 28287);
			assert_true(ev.u.timer.hrtimer == 0xffffc90006eafca8ull);
			assert_true(ev.u.timer.now == 7246104027829ll);
			assert_string_equal(ev.u.irq.name, "hrtimer_wakeup");	/* u.irq's view */
			assert_string_equal(ev.name, "timer:hrtimer_expire_entry");
			found++;
		}
	}
	assert_int_equal(found, 2);
	assert_int_equal(n[LAT_EV_TIMER_START], 1042);
	assert_int_equal(n[LAT_EV_TIMER_CANCEL], 3);
	assert_int_equal(n[LAT_EV_TIMER_ENTRY], 1039);
	assert_int_equal(n[LAT_EV_TIMER_EXIT], 1039);
	lat_loaded_release(&l);
}

/* The first switch of the sample, as trace-cmd report -t prints it:
 * sh-8869 [001] 994.571072862: sched_switch: trace-cmd:8869 [120] R ==> migration/1:21 [0] */
static void test_first_switch_fields(void **state)
{
	const char *files[] = { V6, V7 };

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		struct lat_loaded l;
		struct lat_event ev;

		assert_int_equal(load(&l, files[i], NULL), 0);
		while (lat_event_next(l.blocks[0]->events, &ev) > 0 && ev.type != LAT_EV_SWITCH)
			;
		assert_int_equal(ev.type, LAT_EV_SWITCH);
		assert_true(ev.ts_ns == 994571072862ull);
		assert_int_equal(ev.cpu, 1);
		assert_int_equal(ev.pid, 8869);
		assert_string_equal(ev.comm, "sh");
		assert_string_equal(ev.name, "sched:sched_switch");
		assert_string_equal(ev.u.sw.prev_comm, "trace-cmd");
		assert_int_equal(ev.u.sw.prev_pid, 8869);
		assert_int_equal(ev.u.sw.prev_prio, 120);
		assert_int_equal(ev.u.sw.prev_state, LAT_TS_RUNNING);
		assert_string_equal(ev.u.sw.next_comm, "migration/1");
		assert_int_equal(ev.u.sw.next_pid, 21);
		assert_int_equal(ev.u.sw.next_prio, 0);
		lat_loaded_release(&l);
	}
}

static void test_instances(void **state)
{
	struct lat_loaded l;
	struct counts c;

	(void)state;
	assert_int_equal(load(&l, INST, "inst1"), 0);
	count_all(l.blocks[0]->events, &c);
	/* inst1 holds CPU1's pages: `trace-cmd report FILE | grep -c '^inst1:'` = 662 */
	assert_int_equal(c.total, 662);
	assert_int_equal(c.cpus_seen, 2);
	lat_loaded_release(&l);
	assert_true(load(&l, INST, "nosuch") < 0);
	lat_loaded_release(&l);
}

static void test_truncated(void **state)
{
	char path[] = "/tmp/latscope-td-XXXXXX";
	int fd = mkstemp(path);
	FILE *in = fopen(V6, "rb");
	char buf[4096];
	struct lat_loaded l;
	struct counts c;

	(void)state;
	assert_true(fd >= 0 && in);
	/* the header and 10 of CPU0's pages: CPU0 data starts at 49152 (trace-cmd dump --flyrecord) */
	for (int i = 0; i < (49152 + 10 * 4096) / 4096; i++) {
		assert_int_equal(fread(buf, 1, sizeof(buf), in), sizeof(buf));
		assert_int_equal(write(fd, buf, sizeof(buf)), (ssize_t)sizeof(buf));
	}
	fclose(in);
	close(fd);
	assert_int_equal(load(&l, path, NULL), 0);
	count_all(l.blocks[0]->events, &c);
	assert_true(c.total > 100 && c.total < 3000);
	assert_int_equal(c.cpus_seen, 1);
	assert_non_null(l.blocks[0]->events->stop_reason);
	assert_non_null(strstr(l.blocks[0]->events->stop_reason, "CPU0 data ends at offset 90112"));
	lat_loaded_release(&l);
	unlink(path);
}

static void test_fixture_overrun(void **state)
{
	struct lat_loaded l;
	const struct lat_event_source *src;

	(void)state;
	assert_int_equal(access(FIXTURE, R_OK), 0);
	assert_int_equal(load(&l, FIXTURE, NULL), 0);
	src = l.blocks[0]->events;
	/* trace-cmd dump --options: CPUSTAT overrun 0, dropped events 0 on both CPUs; clock local */
	assert_non_null(src->cpu_overrun);
	assert_int_equal(src->ncpus, 2);
	assert_true(src->cpu_overrun[0] == 0 && src->cpu_overrun[1] == 0);
	assert_string_equal(src->clock, "local");
	lat_loaded_release(&l);
}

/*
 * Detection: the magic "\x17\x08\x44tracing" and version 6 or 7 are certain
 * and end the search (the text readers are not asked); any other version
 * scores 60 through the full search, and without the magic the text after it
 * is what counts.
 */
static void test_detect_magic(void **state)
{
	/* after the magic, lines a lat3 log would have: ignored */
	static const char v6[] = "\x17\x08\x44tracing6\0\x00\x10\0\0"
				 "\n1 1180000000.123 1 2 3\n2 1180000001.123 1 2 3\n";
	char peek[sizeof(v6)];
	const struct lat_format *best = NULL;
	char msg[128];

	(void)state;
	memcpy(peek, v6, sizeof(v6));
	assert_int_equal(lat_format_detect(peek, sizeof(peek) - 1, &best, msg, sizeof(msg)), 100);
	assert_string_equal(best->name, "trace.dat");
	peek[10] = '7';
	best = NULL;
	assert_int_equal(lat_format_detect(peek, sizeof(peek) - 1, &best, msg, sizeof(msg)), 100);
	assert_string_equal(best->name, "trace.dat");
	peek[10] = '8';		/* ours, but unreadable: not final */
	best = NULL;
	assert_int_equal(lat_format_detect(peek, sizeof(peek) - 1, &best, msg, sizeof(msg)), 60);
	assert_string_equal(best->name, "trace.dat");
	peek[1] = 'X';		/* no magic */
	best = NULL;
	assert_true(lat_format_detect(peek, sizeof(peek) - 1, &best, msg, sizeof(msg)) <= 0 ||
		    strcmp(best->name, "trace.dat"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v6_counts),
		cmocka_unit_test(test_first_switch_fields),
		cmocka_unit_test(test_hrtimer_fields),
		cmocka_unit_test(test_instances),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_fixture_overrun),
		cmocka_unit_test(test_detect_magic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
