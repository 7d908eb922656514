// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Cross-check of the wakeup analysis against an independent recording: a
 * workload runs under `latscope record` while `perf sched record` (Debian's
 * linux-perf) records the same run.  The perf events (`perf script`) are turned
 * into wakeup waits here with the rules of docs/wakeup.md.  perf sched record
 * records sched_waking instead of sched_wakeup where the kernel has it, so the
 * start point is aligned on what perf recorded: sched_waking (latscope's
 * default), else sched_wakeup (LAT_WAKE_START_WAKEUP).  For
 * every task both saw, the longest wakeup-to-run delay inside the window both
 * recorded must agree within 50 us or 5 % (tasks whose longest perf wait spans
 * a switch missing from perf's recording are left out; 95 % of the tasks must
 * agree, see the end of the test).
 *
 * Not compared: `perf sched latency`'s own table.  perf 6.1 reads prev_state
 * 0x100 (R+ on kernels >= 6.x) as a sleep and mixes preemption waits into its
 * "max delay"; both are checked separately by this file's own perf reading.
 *
 * Skipped when not root, without perf, without `latscope record` or without
 * the trace.dat reader.
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

#include "latscope/an_wakeup.h"
#include "latscope/analyze.h"
#include "latscope/input.h"

#define MAPCAP 65536		/* pids of one short run */

struct ptask {
	int32_t pid;
	int8_t on, woken_on;	/* woken_on: a waking came while it was still on its CPU */
	uint64_t pend, breaks_at, woken_on_ts;
};

struct pwait {
	int32_t pid;
	uint64_t start, end;
	int clean;		/* no switch went missing (on any CPU) during it */
};

static struct ptask map[MAPCAP];
static struct pwait *waits;
static size_t nwaits, wcap;
struct newtask {
	int32_t pid;
	uint64_t ts;
};

static struct newtask pnew[4096], lnew[4096];

/*
 * Whether perf has a wait of @t that ends where latscope's worst one ends
 * (within 50 us, on latscope's clock), whatever its length.
 */
static int perf_saw(const struct lat_wake_task *t, int64_t off)
{
	for (size_t k = 0; k < nwaits; k++) {
		int64_t d = (int64_t)(waits[k].end + (uint64_t)off - t->max_end_ns);

		if (waits[k].pid == t->pid && llabs(d) <= 50 * (int64_t)LAT_NS_PER_US)
			return 1;
	}
	return 0;
}
static size_t npnew, nlnew, npwaking;
static int32_t curpid[1024];
static uint64_t pbreaks;
static char dir[64];

static struct ptask *ptask(int32_t pid)
{
	size_t i = ((uint32_t)pid * 2654435761u) % MAPCAP;

	while (map[i].pid && map[i].pid != pid)
		i = (i + 1) % MAPCAP;
	map[i].pid = pid;
	return &map[i];
}

static int64_t field(const char *s, const char *key)
{
	const char *p = strstr(s, key);

	return p ? strtoll(p + strlen(key), NULL, 10) : -1;
}

/*
 * perf's side: waits from the first sched_waking (or sched_wakeup when @waking
 * is 0) of a task not on a CPU, or sched_wakeup_new, to its switch-in.
 */
static void read_perf(const char *path, int waking)
{
	char cmd[256], line[1024];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "perf script -i %s --ns -F pid,cpu,time,event,trace 2>/dev/null",
		 path);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		int cur, cpu;
		unsigned long sec, nsec;
		char ev[64];
		uint64_t ts;

		if (sscanf(line, "%d [%d] %lu.%lu: %63s", &cur, &cpu, &sec, &nsec, ev) != 5)
			continue;
		ts = (uint64_t)sec * 1000000000ull + nsec;
		/*
		 * The task an event ran in is on its CPU, even when its switch-in was
		 * not recorded (the same rule as the analysis; switches and
		 * sched_stat_* are recorded around __schedule() and are left out).
		 */
		if (strcmp(ev, "sched:sched_switch:") && strncmp(ev, "sched:sched_stat", 16) &&
		    cpu >= 0 && cpu < 1024 && cur > 0 && curpid[cpu] != cur) {
			struct ptask *t = ptask(cur);

			if (curpid[cpu] > 0) {
				ptask(curpid[cpu])->on = 0;
				pbreaks++;
			}
			curpid[cpu] = cur;
			t->on = 1;
			t->pend = 0;
		}
		if (!strcmp(ev, "sched:sched_switch:")) {
			int64_t prev = field(line, " prev_pid="), next = field(line, " next_pid=");
			struct ptask *t;

			/* a switch-out that was not recorded: the CPU's task left unseen */
			if (cpu >= 0 && cpu < 1024 && curpid[cpu] > 0 && curpid[cpu] != prev) {
				ptask(curpid[cpu])->on = 0;
				pbreaks++;
			}
			if (cpu >= 0 && cpu < 1024)
				curpid[cpu] = (int32_t)next;
			if (prev > 0) {
				t = ptask((int32_t)prev);
				t->on = 0;
				t->pend = 0;
				/*
				 * Woken while still in schedule(), it blocked anyway: the
				 * kernel completes that wakeup right after this switch
				 * (latscope sees its sched_wakeup; perf recorded none).
				 */
				if (t->woken_on && !strstr(line, "prev_state=R") &&
				    ts - t->woken_on_ts < 200 * LAT_NS_PER_US) {
					t->pend = ts;
					t->breaks_at = pbreaks;
				}
				t->woken_on = 0;
			}
			if (next > 0) {
				t = ptask((int32_t)next);
				if (t->pend) {
					if (nwaits == wcap) {
						wcap = wcap ? wcap * 2 : 4096;
						waits = realloc(waits, wcap * sizeof(*waits));
						assert_non_null(waits);
					}
					waits[nwaits++] = (struct pwait){ t->pid, t->pend, ts,
									  t->breaks_at == pbreaks };
				}
				t->pend = 0;
				t->on = 1;
			}
		} else if (!strcmp(ev, waking ? "sched:sched_waking:" : "sched:sched_wakeup:") ||
			   !strcmp(ev, "sched:sched_wakeup_new:")) {
			int64_t pid = field(line, " pid=");
			struct ptask *t;

			if (pid <= 0)
				continue;
			t = ptask((int32_t)pid);
			if (!strcmp(ev, "sched:sched_wakeup_new:") && npnew < LAT_ARRAY_SIZE(pnew))
				pnew[npnew++] = (struct newtask){ (int32_t)pid, ts };
			if (!t->on && !t->pend && pid != cur) {
				t->pend = ts;
				t->breaks_at = pbreaks;
			} else if (t->on && !strcmp(ev, "sched:sched_waking:")) {
				t->woken_on = 1;
				t->woken_on_ts = ts;
			}
		}
	}
	pclose(p);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static void test_perf_crosscheck(void **state)
{
	char cmd[1024], perf_path[96], dat[96];
	struct lat_loaded l = { 0 }, l2 = { 0 };
	struct lat_analyze_opts o;
	struct lat_event ev;
	const struct lat_wakeup_result *r;
	int64_t offs[4096];
	size_t noff = 0, compared = 0, agreed = 0;
	int64_t off;
	uint64_t lo, hi;

	(void)state;
	if (geteuid() != 0 || system("perf --version >/dev/null 2>&1") ||
	    system(LATSCOPE_BIN " record --help >/dev/null 2>&1") ||
	    !lat_format_find("trace.dat"))
		skip();
	/* LAT_XCHECK_DIR: re-check a kept recording (a failed run leaves its directory) */
	if (getenv("LAT_XCHECK_DIR")) {
		snprintf(dir, sizeof(dir), "%s", getenv("LAT_XCHECK_DIR"));
	} else {
		snprintf(dir, sizeof(dir), "/tmp/latscope-xcheck-XXXXXX");
		assert_non_null(mkdtemp(dir));
	}
	snprintf(perf_path, sizeof(perf_path), "%s/perf.data", dir);
	snprintf(dat, sizeof(dat), "%s/t.dat", dir);
	/* pipe ping-pong beside a CPU hog: wakeups with real delays on a 2-CPU machine */
	snprintf(cmd, sizeof(cmd),
		 "perf sched record -q -o %s -- " LATSCOPE_BIN " record -o %s -- "
		 "sh -c 'perf bench sched pipe -l 20000 >/dev/null & "
		 "dd if=/dev/zero of=/dev/null bs=4k count=300000 2>/dev/null; wait' "
		 ">/dev/null 2>&1", perf_path, dat);
	if (!getenv("LAT_XCHECK_DIR"))
		assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "perf script -i %s -F event 2>/dev/null | "
		 "grep -q sched:sched_waking:", perf_path);
	npwaking = system(cmd) == 0;
	read_perf(perf_path, (int)npwaking);

	/* clock offset: each new task's sched_wakeup_new is one event in both traces */
	assert_int_equal(lat_load(&l2, dat, NULL), 0);
	while (lat_event_next(l2.blocks[0]->events, &ev) > 0)
		if (ev.type == LAT_EV_WAKEUP_NEW && nlnew < LAT_ARRAY_SIZE(lnew))
			lnew[nlnew++] = (struct newtask){ ev.u.wake.pid, ev.ts_ns };
	lat_loaded_release(&l2);
	for (size_t i = 0; i < nlnew; i++)
		for (size_t k = 0; k < npnew; k++)
			if (pnew[k].pid == lnew[i].pid && noff < LAT_ARRAY_SIZE(offs))
				offs[noff++] = (int64_t)(lnew[i].ts - pnew[k].ts);
	assert_true(noff >= 3);
	qsort(offs, noff, sizeof(offs[0]), cmp_i64);
	off = offs[noff / 2];

	lat_analyze_opts_init(&o);
	o.wake_start = npwaking ? LAT_WAKE_START_WAKING : LAT_WAKE_START_WAKEUP;
	assert_int_equal(lat_load(&l, dat, NULL), 0);
	assert_int_equal(lat_analyze_block(l.blocks[0], &o), 0);
	r = l.blocks[0]->analysis;
	/* the two clocks are aligned to within a few us: the window edges get 50 us of slack */
	lo = r->first_ns - 50 * LAT_NS_PER_US;
	hi = r->last_ns + 50 * LAT_NS_PER_US;
	for (size_t i = 0; i < r->ntasks; i++) {
		const struct lat_wake_task *t = &r->tasks[i];
		int64_t pmax = -1, d;
		int clean = 0;

		if (!t->wake.n)
			continue;
		/* perf's longest wait of this task inside latscope's window */
		for (size_t k = 0; k < nwaits; k++) {
			uint64_t s = waits[k].start + (uint64_t)off, e = waits[k].end + (uint64_t)off;

			if (waits[k].pid == t->pid && s >= lo && e <= hi &&
			    (int64_t)(e - s) > pmax) {
				pmax = (int64_t)(e - s);
				clean = waits[k].clean;
			}
		}
		/*
		 * Both recordings miss some switches on this kind of machine (no
		 * lost-events mark in either): a perf wait across such a break is
		 * perf's data, not a disagreement of the two analyses.
		 */
		if (pmax < 0 || !clean)
			continue;
		if (t->wake.max > pmax + 50 * (int64_t)LAT_NS_PER_US && !perf_saw(t, off)) {
			/*
			 * latscope's worst wait of this task is not in perf's data at
			 * all: perf lost its waking (seen on this VM: the wait is
			 * real in the trace, the CPU ran another task throughout).
			 */
			fprintf(stderr, "not compared: %s/%d, perf has no wait at latscope's "
				"worst (%lld ns ending at %llu)\n", t->comm, t->pid,
				(long long)t->wake.max, (unsigned long long)t->max_end_ns);
			continue;
		}
		compared++;
		d = llabs(pmax - t->wake.max);
		if (d <= 50 * LAT_NS_PER_US || d * 20 <= pmax)
			agreed++;
		else
			fprintf(stderr, "disagree: %s/%d latscope %lld ns, perf %lld ns\n", t->comm,
				t->pid, (long long)t->wake.max, (long long)pmax);
	}
	fprintf(stderr, "compared %zu tasks, %zu agree; clock offset %lld ns\n", compared, agreed,
		(long long)off);
	/*
	 * On the test VM both recorders silently miss events now and then (no
	 * lost-events mark in either: perf has no PERF_RECORD_LOST, ftrace no
	 * missed-events flag, yet a few switches and wakings are absent from one
	 * of the two files), so a task's longest wait can be seen by one side
	 * only.  And both probes sit on the same tracepoint, one after the
	 * other: on 2026-11-30 the host stole the vCPU between them for 660 us,
	 * so perf stamped a switch at .465928 and ftrace the same switch at
	 * .486579 (after the clock offset), making latscope's wait of that task
	 * 100 us longer (sched_stat_runtime confirms the task ran meanwhile).
	 * Every disagreement seen so far was traced to one of these; 95 % of the
	 * tasks must agree, but one disagreement is let through among the ~20
	 * tasks a run compares, and every disagreement is printed.
	 */
	assert_true(compared >= 3);
	assert_true((compared - agreed) * 100 <= compared * 5 || compared - agreed <= 1);
	lat_loaded_release(&l);
	free(waits);
	if (!getenv("LAT_XCHECK_DIR")) {
		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		assert_int_equal(system(cmd), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_perf_crosscheck),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
