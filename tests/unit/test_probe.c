// SPDX-License-Identifier: GPL-2.0-or-later
/* Probe samples (analyze/probe.c) over hand-built event sequences; docs/probe.md. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "latscope/an_probe.h"
#include "latscope/gate.h"
#include "wakeup_test_util.h"

static void other(uint64_t ts, int cpu, int cur, const char *name)
{
	add(ts, cpu, cur, "t", LAT_EV_OTHER)->name = name;
}

static void timer_entry(uint64_t ts, int cpu, int cur, const char *fn)
{
	struct lat_event *e = add(ts, cpu, cur, "t", LAT_EV_TIMER_ENTRY);

	e->name = "timer:hrtimer_expire_entry";
	e->u.irq.irq = -1;
	e->u.irq.name = fn;
}

static void marker(uint64_t ts, int cpu, int cur, const char *text)
{
	struct lat_event *e = add(ts, cpu, cur, "probe", LAT_EV_MARKER);

	e->u.marker.text = text;
	e->u.marker.len = strlen(text);
}

/* A handler's run from @a to @b on @cpu (task @cur running): hard (@soft 0) or soft. */
static void handler(uint64_t a, uint64_t b, int cpu, int cur, const char *name, int soft, int nr)
{
	struct lat_event *e;

	e = add(a, cpu, cur, "t", soft ? LAT_EV_SOFTIRQ_ENTRY : LAT_EV_IRQ_ENTRY);
	e->u.irq.irq = nr;
	e->u.irq.name = name;
	e = add(b, cpu, cur, "t", soft ? LAT_EV_SOFTIRQ_EXIT : LAT_EV_IRQ_EXIT);
	e->u.irq.irq = nr;
	e->u.irq.name = name;
}

static int64_t parts_sum(const struct lat_probe_sample *s, int pm)
{
	int64_t sum = 0;

	for (int i = 0; i < LAT_PGAP_N; i++)
		sum += pm ? s->part_pm[i] : s->part_ns[i];
	return sum;
}

static struct lat_block *run_meta(const char *meta)
{
	struct lat_analyze_opts o;
	struct lat_block *b = lat_block_new(NULL, LAT_SCHEMA_EVENTS);

	lat_analyze_opts_init(&o);
	assert_non_null(b);
	b->events = lat_evarray_new(evs, nev, 2);
	assert_non_null(b->events);
	b->events->latscope_meta = meta;
	assert_int_equal(lat_analyze_block(b, &o), 0);
	return b;
}

/*
 * A fair timer probe thread (probe/50, prio 120 like every task here) wrote
 * its start line at 810, before its first wait (waking 1003 .. switch in 1010,
 * hog/60 of its class on the CPU): that wait is judged, and its first sample
 * has the verdict.  Without the start line the thread is marked only by the
 * sample's marker, after the wait: not judged (-1).
 */
static void first_sample(int start_line)
{
	sw(800, 1, 0, "swapper/1", LAT_TS_RUNNING, 50, "probe");
	if (start_line)
		marker(810, 1, 50, "latscope: probe-start=timer cpu=1");
	sw(820, 1, 50, "probe", LAT_TS_SLEEPING, 60, "hog");
	wake(1003, 1, 60, "hog", LAT_EV_WAKING, 50, "probe", 1);
	sw(1010, 1, 60, "hog", LAT_TS_RUNNING, 50, "probe");
	marker(1025, 1, 50, "latscope: probe=timer cpu=1 lat_ns=35 seq=1");
}

static void test_first_sample_judged(void **state)
{
	struct lat_block *b;

	(void)state;
	first_sample(1);
	b = run_meta(NULL);
	assert_int_equal(b->probe->markers, 1);	/* the start line is no sample */
	assert_int_equal(b->probe->bad_markers, 0);
	assert_int_equal(b->probe->worst[0].verdict, LAT_VERDICT_CPU_SATURATED);
	lat_block_free(b);
	nev = 0;
	first_sample(0);
	b = run_meta(NULL);
	assert_int_equal(b->probe->worst[0].verdict, -1);
	lat_block_free(b);
}

/* Every point: expected 990, irq 1000, expiry 1002, waking 1003, switch 1010, marker 1025. */
static void test_decompose_full(void **state)
{
	struct lat_block *b;
	const struct lat_probe_sample *s;

	(void)state;
	sw(900, 1, 0, "swapper/1", LAT_TS_RUNNING, 60, "hog");
	other(1000, 1, 60, "irq_vectors:local_timer_entry");
	timer_entry(1002, 1, 60, "hrtimer_wakeup");
	timer_entry(1003, 1, 60, "tick_nohz_handler");	/* not a sleep's end: not ours */
	wake(1003, 1, 60, "hog", LAT_EV_WAKING, 50, "probe", 1);
	other(1004, 1, 60, "timer:hrtimer_expire_entry");	/* a later expiry: not ours */
	sw(1010, 1, 60, "hog", LAT_TS_RUNNING, 50, "probe");
	marker(1025, 1, 50, "latscope: probe=timer cpu=1 lat_ns=35 seq=7");
	b = run_meta(NULL);
	assert_non_null(b->probe);
	assert_int_equal(b->probe->nworst, 1);
	s = &b->probe->worst[0];
	assert_int_equal(s->pt[LAT_PPT_EXPECTED], 990);
	assert_int_equal(s->pt[LAT_PPT_IRQ], 1000);
	assert_int_equal(s->pt[LAT_PPT_EXPIRE], 1002);
	assert_int_equal(s->pt[LAT_PPT_WAKING], 1003);
	assert_int_equal(s->pt[LAT_PPT_SWITCH], 1010);
	assert_int_equal(s->seg_ns[LAT_PSEG_IRQ], 10);
	assert_int_equal(s->seg_ns[LAT_PSEG_HANDLER], 2);
	assert_int_equal(s->seg_ns[LAT_PSEG_WAKE], 1);
	assert_int_equal(s->seg_ns[LAT_PSEG_RUNQ], 7);
	assert_int_equal(s->seg_ns[LAT_PSEG_SELF], 15);
	assert_int_equal(s->unknown_ns, 0);
	assert_int_equal(s->dominant, LAT_PSEG_SELF);
	assert_int_equal(s->holder_pid, 60);
	assert_int_equal(s->holder_ns, 7);
	assert_int_equal(s->seq, 7);
	/* no summary: one marker is the whole count */
	assert_int_equal(b->probe->ncpus, 1);
	assert_int_equal(b->probe->cpus[0].count, 1);
	assert_int_equal(b->probe->cpus[0].count_src, LAT_PSRC_MARKERS);
	assert_int_equal(b->probe->cpus[0].p99_ns, 35);
	lat_block_free(b);
}

/* No timer events: the first segment runs to the waking, handler and expiry are unknown. */
static void test_decompose_unknown(void **state)
{
	struct lat_block *b;
	const struct lat_probe_sample *s;

	(void)state;
	wake(2000, 0, 0, "swapper/0", LAT_EV_WAKING, 51, "probe", 0);
	sw(2100, 0, 0, "swapper/0", LAT_TS_RUNNING, 51, "probe");
	marker(2110, 0, 51, "latscope: probe=timer cpu=0 lat_ns=300 seq=1");
	marker(2120, 0, 51, "latscope: probe=timer cpu=0 seq=2");	/* no lat_ns */
	b = run_meta(NULL);
	s = &b->probe->worst[0];
	assert_int_equal(s->pt[LAT_PPT_EXPECTED], 1810);
	assert_int_equal(s->seg_ns[LAT_PSEG_IRQ], 190);
	assert_int_equal(s->seg_to[LAT_PSEG_IRQ], LAT_PPT_WAKING);
	assert_int_equal(s->seg_ns[LAT_PSEG_HANDLER], -1);
	assert_int_equal(s->seg_ns[LAT_PSEG_WAKE], -1);
	assert_int_equal(s->seg_ns[LAT_PSEG_RUNQ], 100);
	assert_int_equal(s->seg_ns[LAT_PSEG_SELF], 10);
	assert_int_equal(s->unknown_ns, 0);
	assert_int_equal(b->probe->bad_markers, 1);
	assert_int_equal(b->probe->markers, 1);
	lat_block_free(b);
}

/*
 * The switch in was not recorded (wakeup.md, "Inferred switch-ins"): the probe
 * thread is woken at 2000 on idle CPU0 (in an irq), the idle task's irq exit at
 * 2050 is CPU0's last event, the marker (task context) at 2110 is the thread's
 * first own event: the switch point is 2110, the run-queue segment 2000..2110.
 * The idle task is known to run up to its last event, 2050; from there to 2110
 * a switch is missing and who ran is not known (wakeup.md, "Missing switches").
 */
static void test_inferred_switch(void **state)
{
	struct lat_block *b;
	const struct lat_probe_sample *s;

	(void)state;
	sw(100, 0, 51, "probe", LAT_TS_SLEEPING, 0, "swapper/0");
	wake(2000, 0, 0, "swapper/0", LAT_EV_WAKING, 51, "probe", 0);
	evs[nev - 1].flags = LAT_EVF_KNOWN | LAT_EVF_HARDIRQ;
	add(2050, 0, 0, "swapper/0", LAT_EV_IRQ_EXIT)->flags = LAT_EVF_KNOWN | LAT_EVF_HARDIRQ;
	marker(2110, 0, 51, "latscope: probe=timer cpu=0 lat_ns=300 seq=1");
	evs[nev - 1].flags = LAT_EVF_KNOWN;
	b = run_meta(NULL);
	assert_non_null(b->probe);
	s = &b->probe->worst[0];
	assert_int_equal(s->pt[LAT_PPT_WAKING], 2000);
	assert_int_equal(s->pt[LAT_PPT_SWITCH], 2110);
	assert_int_equal(s->seg_ns[LAT_PSEG_IRQ], 190);
	assert_int_equal(s->seg_ns[LAT_PSEG_RUNQ], 110);
	assert_int_equal(s->seg_ns[LAT_PSEG_SELF], 0);
	assert_int_equal(s->unknown_ns, 0);
	assert_int_equal(s->holder_pid, 0);	/* the idle task, 2000..2050 */
	assert_int_equal(s->holder_ns, 50);
	lat_block_free(b);
}

/*
 * Points of an earlier period are not this sample's (docs/probe.md).  The
 * thread woken at 1,000,000 was preempted at 1,050,000 and ran again at
 * 1,900,000; its marker at 1,920,000 says 700 us: expected 1,220,000.  The
 * waking is 220 us before that, an earlier period's: expected .. switch is one
 * segment, 680 us.  (Before, the waking was taken and the points were out of
 * order, as a cyclictest run on this VM showed.)
 */
static void test_earlier_waking(void **state)
{
	struct lat_block *b;
	const struct lat_probe_sample *s;

	(void)state;
	wake(1000000, 0, 0, "swapper/0", LAT_EV_WAKING, 51, "probe", 0);
	sw(1010000, 0, 0, "swapper/0", LAT_TS_RUNNING, 51, "probe");
	sw(1050000, 0, 51, "probe", LAT_TS_RUNNING, 60, "hog");
	sw(1900000, 0, 60, "hog", LAT_TS_RUNNING, 51, "probe");
	marker(1920000, 0, 51, "latscope: probe=timer cpu=0 lat_ns=700000 seq=3");
	b = run_meta(NULL);
	assert_non_null(b->probe);
	s = &b->probe->worst[0];
	assert_int_equal(s->pt[LAT_PPT_EXPECTED], 1220000);
	assert_int_equal(s->pt[LAT_PPT_WAKING], 0);
	assert_int_equal(s->pt[LAT_PPT_SWITCH], 1900000);
	assert_int_equal(s->seg_ns[LAT_PSEG_IRQ], 680000);
	assert_int_equal(s->seg_to[LAT_PSEG_IRQ], LAT_PPT_SWITCH);
	assert_int_equal(s->seg_ns[LAT_PSEG_RUNQ], -1);
	assert_int_equal(s->seg_ns[LAT_PSEG_SELF], 20000);
	assert_int_equal(s->unknown_ns, 0);
	assert_int_equal(s->holder_pid, -1);
	lat_block_free(b);
}

/*
 * The thread's last recorded switch in, 500,000, is 500 us before the expected
 * time 1,000,000 (marker 3,000,000, 2 ms): this period's switch in was not
 * recorded.  Only the total is known: one segment, expected .. marker.
 */
static void test_earlier_switch(void **state)
{
	struct lat_block *b;
	const struct lat_probe_sample *s;

	(void)state;
	sw(500000, 0, 0, "swapper/0", LAT_TS_RUNNING, 51, "probe");
	marker(3000000, 0, 51, "latscope: probe=timer cpu=0 lat_ns=2000000 seq=4");
	b = run_meta(NULL);
	s = &b->probe->worst[0];
	assert_int_equal(s->pt[LAT_PPT_SWITCH], 0);
	assert_int_equal(s->seg_ns[LAT_PSEG_IRQ], 2000000);
	assert_int_equal(s->seg_to[LAT_PSEG_IRQ], LAT_PPT_MARKER);
	assert_int_equal(s->seg_ns[LAT_PSEG_SELF], -1);
	assert_int_equal(s->unknown_ns, 0);
	lat_block_free(b);
}

/*
 * The stored summary: 100 samples, 2 markers (4000, 5000).  p99 rank 99 > 98
 * unmarked: the first marker; p99.9 rank 100: the second; p50 rank 50 falls in
 * bucket 10 (60 samples): <= 2048.
 */
static void test_summary(void **state)
{
	static const char meta[] =
		"latscope: version=0.1.0 cmdline=\"x\" events=sched probe=timer interval_ns=1000000 "
		"prio=95 policy=fifo marker_ns=3000 stop_above_ns=4500\n"
		"latscope: probe=timer cpu=0 samples=100 min_ns=1100 avg_ns=1500 max_ns=5000 "
		"markers=2 hist_log2_ns=10:60,11:38,12:2\n"
		"latscope: tgids=1:1\n";
	struct lat_block *b;
	const struct lat_probe_cpu *c;

	(void)state;
	marker(3000, 0, 52, "latscope: probe=timer cpu=0 lat_ns=5000 seq=80 stop=1");
	marker(3500, 0, 52, "latscope: probe=timer cpu=0 lat_ns=4000 seq=40");
	marker(3600, 1, 53, "hit latency threshold (7 > 5)");
	b = run_meta(meta);
	assert_non_null(b->probe);
	assert_int_equal(b->probe->ncpus, 2);
	c = &b->probe->cpus[0];
	assert_int_equal(c->kind, LAT_PROBE_TIMER);
	assert_int_equal(c->count, 100);
	assert_int_equal(c->count_src, LAT_PSRC_SUMMARY);
	assert_int_equal(c->markers, 2);
	assert_int_equal(c->marker_above_ns, 3000);
	assert_int_equal(c->min_ns, 1100);
	assert_int_equal(c->max_ns, 5000);
	assert_int_equal(c->p50_ns, 2048);
	assert_int_equal(c->p50_src, LAT_PSRC_SUMMARY_BUCKET);
	/* bucket 10 is [1024, 2048): its lower end raised to the min, 1100 */
	assert_int_equal(c->pct_lo_ns[LAT_PPCT_P50], 1100);
	assert_int_equal(c->pct_hi_ns[LAT_PPCT_P50], 2048);
	assert_false(c->markers_missing);
	assert_int_equal(c->p99_ns, 4000);
	assert_int_equal(c->p99_src, LAT_PSRC_MARKERS);
	assert_int_equal(c->pct_lo_ns[LAT_PPCT_P99], 4000);
	assert_int_equal(c->pct_hi_ns[LAT_PPCT_P99], 4000);
	assert_int_equal(c->p999_ns, 5000);
	assert_int_equal(c->hist[11], 38);
	/* 2 samples in [4096, 8192) but one marker there: the log2 buckets alone */
	assert_non_null(c->dist);
	assert_int_equal(c->dist_res, LAT_PRES_LOG2);
	assert_int_equal(c->dist_exact_above_ns, -1);
	assert_int_equal(c->dist->nbuckets, 3);
	assert_int_equal(c->dist->b[2].lo_ns, 4096);
	assert_int_equal(c->dist->b[2].hi_ns, 8192);
	assert_int_equal(c->dist_stats.total, 100);
	c = &b->probe->cpus[1];
	assert_int_equal(c->kind, LAT_PROBE_CYCLICTEST);
	assert_int_equal(c->max_ns, 7000);
	assert_null(c->dist);	/* no summary: the markers are only the tail */
	assert_int_equal(b->probe->stop_above_ns, 4500);
	/* the stopping sample first, although the cyclictest one is larger */
	assert_int_equal(b->probe->nworst, 3);
	assert_true(b->probe->worst[0].stop);
	assert_int_equal(b->probe->worst[0].lat_ns, 5000);
	assert_int_equal(b->probe->worst[1].lat_ns, 7000);
	assert_int_equal(b->probe->worst[2].lat_ns, 4000);
	lat_block_free(b);
}

/*
 * Flight recorder: the recorder wrote 20 markers on CPU0, the trace holds the 3
 * newest (250, 300, 900 us); the oldest 17 were overwritten.  The markers are not
 * the 20 largest samples, so no percentile comes from them.  Nearest ranks of
 * 1000 samples: p50 500, p99 990, p99.9 999.  Cumulative summary counts: 10, 810
 * (bucket 14), 960, 980, 990 (bucket 17), 995, 1000 (bucket 19).  So p50 is in
 * [16384, 32768], p99 in [131072, 262144], p99.9 in [524288, 900000] (the max).
 * Before, p99.9 was "300 us from markers": rank 999 - (1000 - 3) = the 2nd marker.
 */
static void test_markers_missing(void **state)
{
	static const char meta[] =
		"latscope: version=0.1.0 cmdline=\"x\" events=sched probe=timer "
		"interval_ns=1000000 prio=95 policy=fifo marker_ns=200000 stop_above_ns=800000\n"
		"latscope: probe=timer cpu=0 samples=1000 min_ns=10000 avg_ns=30000 "
		"max_ns=900000 markers=20 hist_log2_ns=13:10,14:800,15:150,16:20,17:10,18:5,19:5\n";
	const struct lat_probe_cpu *c;
	struct lat_block *b;
	size_t i;

	(void)state;
	marker(3000, 0, 52, "latscope: probe=timer cpu=0 lat_ns=250000 seq=900");
	marker(4000, 0, 52, "latscope: probe=timer cpu=0 lat_ns=300000 seq=950");
	marker(5000, 0, 52, "latscope: probe=timer cpu=0 lat_ns=900000 seq=999 stop=1");
	b = run_meta(meta);
	assert_non_null(b->probe);
	c = &b->probe->cpus[0];
	assert_int_equal(c->markers, 3);
	assert_true(c->markers_missing);
	assert_int_equal(c->p50_src, LAT_PSRC_SUMMARY_BUCKET);
	assert_int_equal(c->pct_lo_ns[LAT_PPCT_P50], 16384);
	assert_int_equal(c->pct_hi_ns[LAT_PPCT_P50], 32768);
	assert_int_equal(c->p99_src, LAT_PSRC_SUMMARY_BUCKET);
	assert_int_equal(c->pct_lo_ns[LAT_PPCT_P99], 131072);
	assert_int_equal(c->pct_hi_ns[LAT_PPCT_P99], 262144);
	assert_int_equal(c->p999_src, LAT_PSRC_SUMMARY_BUCKET);
	assert_int_equal(c->p999_ns, 900000);
	assert_int_equal(c->pct_lo_ns[LAT_PPCT_P999], 524288);
	assert_int_equal(c->pct_hi_ns[LAT_PPCT_P999], 900000);
	/* max and count stay the summary's, exact */
	assert_int_equal(c->max_ns, 900000);
	assert_int_equal(c->max_src, LAT_PSRC_SUMMARY);
	/* said so */
	for (i = 0; i < b->nfindings; i++)
		if (!strcmp(b->findings[i].kind, "probe-markers-missing"))
			break;
	assert_true(i < b->nfindings);
	assert_non_null(strstr(b->findings[i].message,
			       "timer cpu0: 3 in the trace, 20 written, at least 10 samples"));
	lat_block_free(b);
}

/*
 * A damaged summary: bucket 63 ([2^63, ...) ns, past int64; the recorder never
 * writes it) holds 2 of 3 samples, min 5000, max 6000.  Timer marks due above
 * --marker-above 3000: bucket 12 (1) and 63 (2), 3 > 0 written: missing.  p50
 * (rank 2) is in bucket 63: its ends were 1 << 63 (undefined behaviour, and
 * INT64_MIN in practice, so lo was the min, 5000); now the range is cut to
 * [min, max] and its low end to its high one: [6000, 6000].  p99 (rank 3 = n):
 * the max.
 */
static void test_summary_damaged(void **state)
{
	static const char meta[] =
		"latscope: version=0.1.0 cmdline=\"x\" events=sched probe=timer "
		"interval_ns=1000000 prio=95 policy=fifo marker_ns=3000\n"
		"latscope: probe=timer cpu=0 samples=3 min_ns=5000 avg_ns=5500 max_ns=6000 "
		"markers=0 hist_log2_ns=12:1,63:2\n";
	const struct lat_probe_cpu *c;
	struct lat_block *b;

	(void)state;
	sw(900, 0, 0, "swapper/0", LAT_TS_RUNNING, 60, "hog");
	b = run_meta(meta);
	assert_non_null(b->probe);
	assert_int_equal(b->probe->ncpus, 1);
	c = &b->probe->cpus[0];
	assert_true(c->markers_missing);
	assert_int_equal(c->p50_src, LAT_PSRC_SUMMARY_BUCKET);
	assert_int_equal(c->pct_lo_ns[LAT_PPCT_P50], 6000);
	assert_int_equal(c->pct_hi_ns[LAT_PPCT_P50], 6000);
	assert_int_equal(c->p99_src, LAT_PSRC_SUMMARY);
	assert_int_equal(c->p99_ns, 6000);
	lat_block_free(b);
}

/*
 * Marker writes refused: tracing is off after the flight recorder's spike and at
 * the recording's end, and the recorder counts only the markers it wrote.
 * Timer CPU0 (a recording here, `--stop-above 2ms`): 72 samples, 1 marker (the
 * stopping one, 2270820), but buckets 20 and 21 ([1048576, ...), wholly above
 * --marker-above 200 us) hold 3 samples: 2 marks were refused.  Gap CPU1: 3
 * samples, 2 markers (150 and 300 us); the 600 us one's write was refused.
 * Before, gap p50 (rank 2 of 3) was "150 us from markers" and p99 (rank 3)
 * "300 us"; now p50 is bucket 18, [262144, 524288], and p99, rank n, the max.
 */
static void test_markers_refused(void **state)
{
	static const char meta[] =
		"latscope: version=0.1.0 cmdline=\"x\" events=sched probe=timer "
		"interval_ns=200000 prio=95 policy=fifo marker_ns=200000 probe=gap "
		"threshold_ns=100000 stop_above_ns=2000000\n"
		"latscope: probe=timer cpu=0 samples=72 min_ns=18877 avg_ns=108033 "
		"max_ns=2270820 markers=1 hist_log2_ns=14:65,15:3,16:1,20:2,21:1\n"
		"latscope: probe=gap cpu=1 samples=3 min_ns=150000 avg_ns=350000 "
		"max_ns=600000 markers=2 hist_log2_ns=17:1,18:1,19:1\n";
	const struct lat_probe_cpu *c;
	struct lat_block *b;

	(void)state;
	marker(3000, 0, 52, "latscope: probe=timer cpu=0 lat_ns=2270820 seq=72 stop=1");
	marker(3100, 1, 70, "latscope: probe=gap cpu=1 lat_ns=150000 seq=1");
	marker(3200, 1, 70, "latscope: probe=gap cpu=1 lat_ns=300000 seq=2");
	b = run_meta(meta);
	c = &b->probe->cpus[0];
	assert_int_equal(c->kind, LAT_PROBE_TIMER);
	assert_int_equal(c->markers, c->summary_markers);
	assert_true(c->markers_missing);
	/* p99 rank 72 = n: the max, exact from the summary; p50 rank 36 in bucket 14 */
	assert_int_equal(c->p99_ns, 2270820);
	assert_int_equal(c->p99_src, LAT_PSRC_SUMMARY);
	assert_int_equal(c->p50_src, LAT_PSRC_SUMMARY_BUCKET);
	assert_int_equal(c->pct_lo_ns[LAT_PPCT_P50], 18877);
	assert_int_equal(c->pct_hi_ns[LAT_PPCT_P50], 32768);
	c = &b->probe->cpus[1];
	assert_int_equal(c->kind, LAT_PROBE_GAP);
	assert_true(c->markers_missing);
	assert_int_equal(c->p50_src, LAT_PSRC_SUMMARY_BUCKET);
	assert_int_equal(c->pct_lo_ns[LAT_PPCT_P50], 262144);
	assert_int_equal(c->pct_hi_ns[LAT_PPCT_P50], 524288);
	assert_int_equal(c->p99_ns, 600000);
	assert_int_equal(c->p99_src, LAT_PSRC_SUMMARY);
	lat_block_free(b);
}

/*
 * The distribution as a histogram: log2 buckets up to --marker-above (3000 ns, the last one cut
 * at 3001), the two markers above it in 1 us buckets; with a marker missing, log2 only.
 */
static void test_distribution(void **state)
{
	static const char meta[] =
		"latscope: version=0.1.0 cmdline=\"x\" events=sched probe=timer "
		"interval_ns=1000000 prio=95 policy=fifo marker_ns=3000\n"
		"latscope: probe=timer cpu=0 samples=100 min_ns=1100 avg_ns=1500 max_ns=5000 "
		"markers=2 hist_log2_ns=10:60,11:39,12:1\n"
		"latscope: probe=timer cpu=1 samples=10 min_ns=1100 avg_ns=1500 max_ns=5000 "
		"markers=3 hist_log2_ns=10:7,11:2,12:1\n";
	static const int64_t want[4][3] = { { 1024, 2048, 60 }, { 2048, 3001, 38 },
					    { 4000, 5000, 1 }, { 5000, 6000, 1 } };
	const struct lat_probe_cpu *c;
	struct lat_block *b;

	(void)state;
	marker(3000, 0, 52, "latscope: probe=timer cpu=0 lat_ns=5000 seq=80");
	marker(3500, 0, 52, "latscope: probe=timer cpu=0 lat_ns=4000 seq=40");
	marker(3600, 0, 52, "latscope: probe=timer cpu=0 lat_ns=3000 seq=41");	/* not above */
	marker(3700, 1, 53, "latscope: probe=timer cpu=1 lat_ns=5000 seq=9");
	b = run_meta(meta);
	assert_non_null(b->probe);
	c = &b->probe->cpus[0];
	/* 3 markers in the trace, the summary says 2: one is not the recorder's */
	assert_int_equal(c->dist_res, LAT_PRES_LOG2);
	lat_block_free(b);

	reset(NULL);
	marker(3000, 0, 52, "latscope: probe=timer cpu=0 lat_ns=5000 seq=80");
	marker(3500, 0, 52, "latscope: probe=timer cpu=0 lat_ns=4000 seq=40");
	marker(3700, 1, 53, "latscope: probe=timer cpu=1 lat_ns=5000 seq=9");
	b = run_meta(meta);
	c = &b->probe->cpus[0];
	assert_non_null(c->dist);
	assert_int_equal(c->dist_res, LAT_PRES_MIXED);
	assert_int_equal(c->dist_exact_above_ns, 3000);
	assert_int_equal(c->dist->nbuckets, 4);
	for (size_t i = 0; i < 4; i++) {
		assert_int_equal(c->dist->b[i].lo_ns, want[i][0]);
		assert_int_equal(c->dist->b[i].hi_ns, want[i][1]);
		assert_int_equal(c->dist->b[i].count, want[i][2]);
	}
	/* p50 rank 50 in the first bucket; p99 rank 99 = 60 + 38 + 1: the 4000 ns marker's */
	assert_int_equal(c->dist_stats.total, 100);
	assert_int_equal(c->dist_stats.q[LAT_HQ_P50].lo_ns, 1024);
	assert_int_equal(c->dist_stats.q[LAT_HQ_P99].lo_ns, 4000);
	assert_int_equal(c->dist_stats.q[LAT_HQ_P999].lo_ns, 5000);
	/* cpu1: the summary counts 3 markers, the trace holds 1 (overwritten): log2 only */
	c = &b->probe->cpus[1];
	assert_int_equal(c->dist_res, LAT_PRES_LOG2);
	assert_int_equal(c->dist->b[2].hi_ns, 8192);
	lat_block_free(b);
}

/*
 * The gap stream: the gap probe thread 70 runs on CPU1 from 1000; its marker at
 * 2850 says a gap of 1350 ns: the window is [1500, 2850].  In it: nothing
 * logged 1500..2000 (500, stall), irq virtio0 2000..2100, softirq TIMER
 * 2100..2150, nothing 2150..2200 (50, stall: the way to the switch), hog/80
 * 2200..2600 with irq eth0 2500..2540 inside (360 hog, 40 irq), kworker/81
 * 2600..2800 (200), the thread again 2800..2850 (probe-path 50).  With
 * @irqs 0 the handlers are not in the trace.
 */
static void gap_stream(int irqs)
{
	sw(1000, 1, 0, "swapper/1", LAT_TS_RUNNING, 70, "gap");
	if (irqs) {
		handler(2000, 2100, 1, 70, "virtio0", 0, 11);
		handler(2100, 2150, 1, 70, "TIMER", 1, 1);
	}
	sw(2200, 1, 70, "gap", LAT_TS_RUNNING, 80, "hog");
	if (irqs)
		handler(2500, 2540, 1, 80, "eth0", 0, 12);
	sw(2600, 1, 80, "hog", LAT_TS_RUNNING, 81, "kworker");
	sw(2800, 1, 81, "kworker", LAT_TS_SLEEPING, 70, "gap");
	marker(2850, 1, 70, "latscope: probe=gap cpu=1 lat_ns=1350 seq=4");
}

/*
 * The parts add up to the sample: irq 100 + 50 + 40 = 190, preempted 360 +
 * 200 = 560, stall 500 + 50 = 550, probe-path 50; 1350.  Shares in per mille:
 * 140.74, 414.81, 407.41, 37.04: floors 140 + 414 + 407 + 37 = 998, the two
 * largest remainders (preempted .81, irq .74) get the rest: 141, 415, 407, 37.
 * (Before, the timer model made of it one segment "expected -> sched_switch".)
 */
static void test_gap_parts(void **state)
{
	const struct lat_probe_sample *s;
	struct lat_block *b;

	(void)state;
	gap_stream(1);
	b = run_meta(NULL);
	assert_non_null(b->probe);
	assert_int_equal(b->probe->nworst, 1);
	s = &b->probe->worst[0];
	assert_int_equal(s->kind, LAT_PROBE_GAP);
	assert_int_equal(s->pt[LAT_PPT_EXPECTED], 1500);
	assert_int_equal(s->part_ns[LAT_PGAP_IRQ], 190);
	assert_int_equal(s->part_ns[LAT_PGAP_PREEMPTED], 560);
	assert_int_equal(s->part_ns[LAT_PGAP_STALL], 550);
	assert_int_equal(s->silent_ns, 550);
	assert_int_equal(s->part_ns[LAT_PGAP_PATH], 50);
	assert_int_equal(s->part_ns[LAT_PGAP_UNKNOWN], 0);
	assert_int_equal(parts_sum(s, 0), s->lat_ns);
	assert_int_equal(s->part_pm[LAT_PGAP_IRQ], 141);
	assert_int_equal(s->part_pm[LAT_PGAP_PREEMPTED], 415);
	assert_int_equal(s->part_pm[LAT_PGAP_STALL], 407);
	assert_int_equal(s->part_pm[LAT_PGAP_PATH], 37);
	assert_int_equal(parts_sum(s, 1), 1000);
	assert_int_equal(s->part_dominant, LAT_PGAP_PREEMPTED);
	assert_int_equal(s->ntasks, 2);
	assert_int_equal(s->holder_pid, 80);
	assert_int_equal(s->holder_ns, 360);
	assert_string_equal(s->holder_comm, "hog");
	assert_string_equal(s->irqs[0].name, "virtio0");
	assert_int_equal(s->irqs[0].ns, 100);
	assert_string_equal(s->irqs[1].name, "TIMER");
	assert_int_equal(s->irqs[1].ns, 50);
	assert_string_equal(s->irqs[2].name, "eth0");
	assert_int_equal(s->irqs[2].ns, 40);
	/* no timer-model segment */
	assert_int_equal(s->dominant, -1);
	assert_int_equal(s->seg_ns[LAT_PSEG_RUNQ], -1);
	lat_block_free(b);
}

/*
 * The same without irq events: the thread's silent time (1500..2200, 700) may
 * be a handler the trace does not record: unknown, not stall.  hog 400 +
 * kworker 200 = 600 preempted, 50 probe-path: 1350.
 */
static void test_gap_no_irqs(void **state)
{
	const struct lat_probe_sample *s;
	struct lat_block *b;

	(void)state;
	gap_stream(0);
	b = run_meta(NULL);
	s = &b->probe->worst[0];
	assert_int_equal(s->part_ns[LAT_PGAP_IRQ], 0);
	assert_int_equal(s->part_ns[LAT_PGAP_PREEMPTED], 600);
	assert_int_equal(s->part_ns[LAT_PGAP_STALL], 0);
	assert_int_equal(s->part_ns[LAT_PGAP_UNKNOWN], 700);
	assert_int_equal(s->silent_ns, 700);
	assert_int_equal(s->part_ns[LAT_PGAP_PATH], 50);
	assert_int_equal(parts_sum(s, 0), 1350);
	assert_int_equal(parts_sum(s, 1), 1000);
	assert_int_equal(s->holder_pid, 80);
	assert_int_equal(s->holder_ns, 400);
	lat_block_free(b);
}

/*
 * A stall the wakeup analysis found (docs/wakeup.md, "Stalls") is stall in the
 * gap, before the task that ran in it: the RT task 90 is woken for CPU0 at
 * 10,000 while the gap thread 70 runs there, and nothing is logged anywhere
 * until 3,010,000 (3 ms, above LAT_WAKE_STALL_NS) when 90 switches in; it
 * sleeps at 3,020,000; the marker at 3,030,000 says 3,025,000: the window is
 * [5,000, 3,030,000].  Parts: 5,000 silent + 3,000,000 stall = 3,005,000
 * stall, 10,000 preempted (90), 10,000 probe-path.  An irq on CPU1 at 100
 * says the trace records handlers.
 */
static void test_gap_stall(void **state)
{
	const struct lat_probe_sample *s;
	struct lat_block *b;

	(void)state;
	sw(50, 0, 0, "swapper/0", LAT_TS_RUNNING, 70, "gap");
	handler(100, 200, 1, 0, "virtio0", 0, 11);
	wake(10000, 0, 70, "gap", LAT_EV_WAKING, 90, "rt", 0);
	evs[nev - 1].u.wake.prio = 10;
	sw(3010000, 0, 70, "gap", LAT_TS_RUNNING, 90, "rt");
	evs[nev - 1].u.sw.next_prio = 10;
	sw(3020000, 0, 90, "rt", LAT_TS_SLEEPING, 70, "gap");
	evs[nev - 1].u.sw.prev_prio = 10;
	marker(3030000, 0, 70, "latscope: probe=gap cpu=0 lat_ns=3025000 seq=9");
	b = run_meta(NULL);
	assert_true(((const struct lat_wakeup_result *)b->analysis)->nstalls_total > 0);
	s = &b->probe->worst[0];
	assert_int_equal(s->part_ns[LAT_PGAP_STALL], 3005000);
	assert_int_equal(s->silent_ns, 5000);
	assert_int_equal(s->part_ns[LAT_PGAP_PREEMPTED], 10000);
	assert_int_equal(s->part_ns[LAT_PGAP_PATH], 10000);
	assert_int_equal(s->part_ns[LAT_PGAP_IRQ], 0);
	assert_int_equal(parts_sum(s, 0), 3025000);
	assert_int_equal(s->part_dominant, LAT_PGAP_STALL);
	lat_block_free(b);
}

/*
 * Lost events in the gap: CPU1's events between its switch at 1000 and the
 * lost-events mark at 2000 are gone, and nothing says who ran until the marker
 * at 2500 (1000 ns: window [1500, 2500]): all of it unknown.
 */
static void test_gap_lost(void **state)
{
	const struct lat_probe_sample *s;
	struct lat_block *b;

	(void)state;
	sw(1000, 1, 0, "swapper/1", LAT_TS_RUNNING, 70, "gap");
	add(2000, 1, -1, "", LAT_EV_LOST)->u.lost.count = 5;
	marker(2500, 1, 70, "latscope: probe=gap cpu=1 lat_ns=1000 seq=1");
	b = run_meta(NULL);
	s = &b->probe->worst[0];
	assert_int_equal(s->part_ns[LAT_PGAP_UNKNOWN], 1000);
	assert_int_equal(s->part_pm[LAT_PGAP_UNKNOWN], 1000);
	assert_int_equal(s->part_dominant, LAT_PGAP_UNKNOWN);
	lat_block_free(b);
}

/*
 * --worst is per probe: 2 timer samples larger than every gap sample do not
 * push the gap samples out (worst_n 2: 2 of each, worst first).
 */
static void test_worst_per_probe(void **state)
{
	struct lat_analyze_opts o;
	struct lat_block *b = lat_block_new(NULL, LAT_SCHEMA_EVENTS);
	static const int64_t want[4] = { 9000, 8000, 1350, 700 };

	(void)state;
	gap_stream(1);
	marker(2900, 1, 70, "latscope: probe=gap cpu=1 lat_ns=700 seq=5");
	marker(2950, 1, 70, "latscope: probe=gap cpu=1 lat_ns=600 seq=6");
	marker(3000, 0, 51, "latscope: probe=timer cpu=0 lat_ns=8000 seq=1");
	marker(3100, 0, 51, "latscope: probe=timer cpu=0 lat_ns=9000 seq=2");
	marker(3200, 0, 51, "latscope: probe=timer cpu=0 lat_ns=7000 seq=3");
	lat_analyze_opts_init(&o);
	o.worst_n = 2;
	b->events = lat_evarray_new(evs, nev, 2);
	assert_int_equal(lat_analyze_block(b, &o), 0);
	assert_int_equal(b->probe->nworst, 4);
	for (size_t i = 0; i < 4; i++)
		assert_int_equal(b->probe->worst[i].lat_ns, want[i]);
	lat_block_free(b);
}

/*
 * --policy / --min-prio select the probe CPUs by their thread's class.  The
 * recorder declares the timer probe SCHED_FIFO 95 (or, with @other, SCHED_OTHER:
 * FIFO refused) and the gap probe; the timer thread 51 on CPU0 is switched in at
 * prio 4 (FIFO 95) when @seen, the gap thread 70 on CPU1 at 120.  Markers: timer
 * 900 and 300 us, gap 800 us.
 */
static struct lat_block *policy_run(const char *policy, int min_prio, int other, int seen)
{
	static char meta[512];
	struct lat_analyze_opts o;
	struct lat_block *b = lat_block_new(NULL, LAT_SCHEMA_EVENTS);

	snprintf(meta, sizeof(meta),
		 "latscope: version=0.1.0 cmdline=\"record --probe timer --probe gap prio=1\" "
		 "events=sched stacks=0 buffer_kb=0 probe=timer interval_ns=1000000 prio=95 "
		 "policy=%s marker_ns=200000 probe=gap threshold_ns=100000\n"
		 "latscope: probe=timer cpu=0 samples=50 min_ns=10000 avg_ns=40000 max_ns=900000 "
		 "markers=2 hist_log2_ns=14:48,18:1,19:1\n"
		 "latscope: probe=gap cpu=1 samples=1 min_ns=800000 avg_ns=800000 max_ns=800000 "
		 "markers=1 hist_log2_ns=19:1\n", other ? "other" : "fifo");
	reset(NULL);
	if (seen) {
		sw(100, 0, 0, "swapper/0", LAT_TS_RUNNING, 51, "timer");
		evs[nev - 1].u.sw.next_prio = other ? 120 : 4;
		sw(100, 1, 0, "swapper/1", LAT_TS_RUNNING, 70, "gap");
	}
	marker(1000000, 0, 51, "latscope: probe=timer cpu=0 lat_ns=900000 seq=1");
	marker(1100000, 1, 70, "latscope: probe=gap cpu=1 lat_ns=800000 seq=1");
	marker(1200000, 0, 51, "latscope: probe=timer cpu=0 lat_ns=300000 seq=2");
	lat_analyze_opts_init(&o);
	o.policy = policy;
	o.min_prio = min_prio;
	o.fail_above_ns = 250000;
	b->events = lat_evarray_new(evs, nev, 2);
	assert_non_null(b->events);
	b->events->latscope_meta = meta;
	assert_int_equal(lat_analyze_block(b, &o), 0);
	assert_non_null(b->probe);
	return b;
}

static void test_policy(void **state)
{
	const struct lat_probe_result *r;
	struct lat_gate g;
	struct lat_block *b;

	(void)state;
	/* no selection: both, the classes from the trace */
	b = policy_run(NULL, 0, 0, 1);
	r = b->probe;
	assert_int_equal(r->ncpus, 2);
	assert_int_equal(r->nleft_out, 0);
	assert_int_equal(r->cpus[0].prio, 4);
	assert_int_equal(r->cpus[0].prio_src, LAT_PSRC_MARKERS);
	assert_int_equal(r->cpus[1].prio, 120);
	assert_int_equal(r->over_limit, 3);
	lat_block_free(b);

	/* --policy rt: the gap probe (SCHED_OTHER) is left out of the result and the gate */
	b = policy_run("rt", 0, 0, 1);
	r = b->probe;
	assert_int_equal(r->ncpus, 1);
	assert_int_equal(r->cpus[0].kind, LAT_PROBE_TIMER);
	assert_int_equal(r->nleft_out, 1);
	assert_int_equal(r->left_out[0].kind, LAT_PROBE_GAP);
	assert_int_equal(r->left_out[0].count, 1);
	assert_int_equal(r->over_limit, 2);
	assert_int_equal(r->nworst, 2);
	assert_int_equal(r->worst[0].kind, LAT_PROBE_TIMER);
	assert_int_equal(r->worst[1].kind, LAT_PROBE_TIMER);
	lat_gate_init(&g, 250000);
	lat_gate_block(&g, b);
	assert_int_equal(g.samples, 50);
	assert_int_equal(g.samples_over, 2);
	assert_int_equal(g.cpus_over, 1);
	assert_int_equal(g.samples_left_out, 1);
	assert_int_equal(g.cpus_left_out, 1);
	lat_block_free(b);

	/* --policy fair: the gap probe alone */
	b = policy_run("fair", 0, 0, 1);
	r = b->probe;
	assert_int_equal(r->ncpus, 1);
	assert_int_equal(r->cpus[0].kind, LAT_PROBE_GAP);
	assert_int_equal(r->over_limit, 1);
	assert_int_equal(r->nworst, 1);
	assert_int_equal(r->worst[0].kind, LAT_PROBE_GAP);
	lat_block_free(b);

	/* --min-prio: FIFO 95 passes 95, not 96 */
	b = policy_run(NULL, 95, 0, 1);
	assert_int_equal(b->probe->ncpus, 1);
	assert_int_equal(b->probe->cpus[0].kind, LAT_PROBE_TIMER);
	lat_block_free(b);
	b = policy_run(NULL, 96, 0, 1);
	assert_int_equal(b->probe->ncpus, 0);
	assert_int_equal(b->probe->nleft_out, 2);
	assert_int_equal(b->probe->over_limit, 0);
	assert_int_equal(b->probe->nworst, 0);
	lat_gate_init(&g, 250000);
	lat_gate_block(&g, b);
	assert_false(lat_gate_failed(&g));
	lat_block_free(b);
}

/*
 * No sched events of the probe threads: their class comes from the recorder's
 * metadata (the gap probe SCHED_OTHER; the timer probe policy=fifo prio=95, or
 * policy=other when FIFO was refused).  The "prio=1" in the command line is not it.
 */
static void test_policy_declared(void **state)
{
	const struct lat_probe_result *r;
	struct lat_block *b;

	(void)state;
	b = policy_run("rt", 0, 0, 0);
	r = b->probe;
	assert_int_equal(r->ncpus, 1);
	assert_int_equal(r->cpus[0].kind, LAT_PROBE_TIMER);
	assert_int_equal(r->cpus[0].prio, 4);
	assert_int_equal(r->cpus[0].prio_src, LAT_PSRC_SUMMARY);
	assert_int_equal(r->left_out[0].prio, 120);
	assert_int_equal(r->left_out[0].prio_src, LAT_PSRC_SUMMARY);
	lat_block_free(b);
	/* FIFO refused: the timer probe is SCHED_OTHER too, and --policy rt keeps nothing */
	b = policy_run("rt", 0, 1, 0);
	assert_int_equal(b->probe->ncpus, 0);
	assert_int_equal(b->probe->nleft_out, 2);
	lat_block_free(b);
	/* the trace says so as well */
	b = policy_run("fair", 0, 1, 1);
	assert_int_equal(b->probe->ncpus, 2);
	assert_int_equal(b->probe->cpus[0].prio_src, LAT_PSRC_MARKERS);
	lat_block_free(b);
}

/* A trace without probe markers or summary has no probe result. */
static void test_none(void **state)
{
	struct lat_block *b;

	(void)state;
	sw(100, 0, 0, "swapper/0", LAT_TS_RUNNING, 5, "a");
	marker(200, 0, 5, "hello");
	b = run_meta(NULL);
	assert_null(b->probe);
	lat_block_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_first_sample_judged, reset),
		cmocka_unit_test_setup(test_decompose_full, reset),
		cmocka_unit_test_setup(test_decompose_unknown, reset),
		cmocka_unit_test_setup(test_earlier_waking, reset),
		cmocka_unit_test_setup(test_earlier_switch, reset),
		cmocka_unit_test_setup(test_inferred_switch, reset),
		cmocka_unit_test_setup(test_summary, reset),
		cmocka_unit_test_setup(test_markers_missing, reset),
		cmocka_unit_test_setup(test_markers_refused, reset),
		cmocka_unit_test_setup(test_summary_damaged, reset),
		cmocka_unit_test_setup(test_distribution, reset),
		cmocka_unit_test_setup(test_gap_parts, reset),
		cmocka_unit_test_setup(test_gap_no_irqs, reset),
		cmocka_unit_test_setup(test_gap_stall, reset),
		cmocka_unit_test_setup(test_gap_lost, reset),
		cmocka_unit_test_setup(test_worst_per_probe, reset),
		cmocka_unit_test_setup(test_policy, reset),
		cmocka_unit_test_setup(test_policy_declared, reset),
		cmocka_unit_test_setup(test_none, reset),
	};
	return cmocka_run_group_tests(tests, NULL, release_events);
}
