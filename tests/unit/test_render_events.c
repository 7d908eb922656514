// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Charts of event traces beside the timeline: the wakeup-latency histogram
 * (per CPU, from the analysis' histograms and percentiles), the icicle of
 * kernel stacks, the CPU lanes of the whole trace, and the timeline's
 * markers, stalls, queued wait and verdict.  Expected numbers were taken by
 * other routes than the chart code (export rows, analyze --json, analyze
 * --folded, awk): samples/README.md, "Charts of event traces".
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "latscope/an_wakeup.h"
#include "latscope/analyze.h"
#include "latscope/input.h"
#include "render_test_util.h"

#define STACKS LAT_SAMPLES_DIR "/tracedat/record-stacks-v7-zstd.dat"
#define CYCLIC LAT_SAMPLES_DIR "/tracedat/cyclictest-stress-v7-zstd.dat"

/*
 * The recordings of this VM have CPU 1's exits from idle unrecorded (docs/wakeup.md,
 * "Trace health"): its waits are of low trust.  A test about a case there ranks them.
 */
static int include_untrusted;

static struct lat_block *load(struct lat_loaded *ld, const char *path, const char *task,
			      int activity)
{
	struct lat_analyze_opts ao;

	lat_analyze_opts_init(&ao);
	ao.timelines = 1;
	ao.activity = activity;
	ao.task = task;
	ao.include_untrusted = include_untrusted;
	assert_int_equal(lat_load(ld, path, NULL), 0);
	assert_int_equal(lat_analyze_block(ld->blocks[0], &ao), 0);
	return ld->blocks[0];
}

static size_t nonempty(const struct lat_histogram *h)
{
	size_t n = 0;

	for (size_t i = 0; i < h->nbuckets; i++)
		n += h->b[i].count > 0;
	return n;
}

/* A pixel the pale fill (or a line) of a histogram tinted, not the white plot. */
static int tinted(struct rd_rgb c)
{
	return rgb_dist(c, (struct rd_rgb){ 1, 1, 1 }) > 0.05;
}

/*
 * record-stacks: 127 counted wakeup waits on CPU 0 and 135 on CPU 1 (analyze
 * --json, cpus[].count; 142 on CPU 1 when switch-ins were still inferred there:
 * its events are incomplete, docs/wakeup.md "Trace health", and 7 of those
 * waits end untrusted since), in 43 and 49 non-empty buckets of 8 per power of
 * two (export --rows waits, wakeup/new rows of each CPU, bucketed with python);
 * p50 84223 / 45439 ns and max 4031988 / 3889355 ns (analyze --json).  Drawn
 * alone, CPU 0's histogram fills exactly its 43 non-empty buckets just above
 * the floor and leaves the empty ones between them white.
 */
static void test_wakeup_hist(void **state)
{
	static const size_t want_ne[2] = { 43, 49 };
	static const uint64_t want_n[2] = { 127, 135 };
	static const int64_t want_p50[2] = { 84223, 45439 }, want_max[2] = { 4031988, 3889355 };
	struct lat_loaded ld;
	struct lat_block *b = load(&ld, STACKS, NULL, 0);
	struct rd_hist_set e = { 0 };
	struct lat_render_opts o;
	struct lat_render_buf buf[2] = { { 0 }, { 0 } };
	struct rd_chart c;
	cairo_surface_t *s;
	size_t filled = 0, white = 0;
	int per_task;

	(void)state;
	assert_int_equal(rd_hist_set_wakeup(&e, b, &per_task), 0);
	assert_int_equal(per_task, 0);
	assert_int_equal(e.n, 2);
	for (size_t k = 0; k < 2; k++) {
		assert_int_equal(e.h[k]->total, want_n[k]);
		assert_int_equal(nonempty(e.h[k]), want_ne[k]);
		assert_true(e.marks[k].p50 == want_p50[k]);
		assert_true(e.marks[k].max == want_max[k]);
		/* the last bucket holds the max, the first the min */
		assert_true(e.h[k]->b[e.h[k]->nbuckets - 1].lo_ns <= want_max[k] &&
			    want_max[k] < e.h[k]->b[e.h[k]->nbuckets - 1].hi_ns);
	}
	assert_string_equal(e.h[0]->title, "CPU 0");

	lat_render_opts_init(&o);
	{
		/* marks at bucket bounds (NULL marks): no dashed line crosses a bucket's middle */
		struct rd_hist_input in = { e.h, 1, "cpu 0", NULL, NULL, NULL, 0, NULL };
		const struct lat_histogram *h = e.h[0];

		s = rd_chart_image(&rd_hist_ops, &in, &o, &c);
		assert_non_null(s);
		dump_png(s, "wakeup-hist-cpu0.png");
		for (size_t i = 0; i < h->nbuckets; i++) {
			double x = rd_axis_map(&c.x, sqrt((double)(h->b[i].lo_ns ? h->b[i].lo_ns : 1) *
							   (double)h->b[i].hi_ns));
			double y = (rd_axis_map(&c.y, 1) + rd_axis_map(&c.y, 0.5)) / 2;

			if (tinted(px(s, x, y)))
				filled++;
			else
				white++;
			assert_int_equal(tinted(px(s, x, y)), h->b[i].count > 0);
		}
		assert_int_equal(filled, want_ne[0]);
		assert_int_equal(white, h->nbuckets - want_ne[0]);
		cairo_surface_destroy(s);
		if (rd_hist_ops.release)
			rd_hist_ops.release(&c);
	}

	/* the block's chart, twice: byte-identical, a well-formed SVG */
	o.chart = LAT_CHART_HISTOGRAM;
	o.format = LAT_RENDER_SVG;
	assert_int_equal(lat_render_block(b, &o, &buf[0]), 0);
	assert_int_equal(lat_render_block(b, &o, &buf[1]), 0);
	assert_int_equal(buf[0].len, buf[1].len);
	assert_memory_equal(buf[0].data, buf[1].data, buf[0].len);
	assert_int_equal(xmllint_ok(&buf[0]), 0);
	lat_render_buf_release(&buf[0]);
	lat_render_buf_release(&buf[1]);
	rd_hist_set_release(&e);
	lat_loaded_release(&ld);
}

/*
 * --task 3040 (gmake) selects one thread: one histogram, its own, of its 25
 * counted wakeup waits (analyze --task 3040 --json all.count; its 26th ended at
 * a switch-in on CPU 1 that is not inferred any more; export --rows waits: 25
 * wakeup rows of tid 3040 in 17 non-empty buckets) with
 * the analysis' p50 76031 ns and max 3678586 ns.
 */
static void test_wakeup_hist_task(void **state)
{
	struct lat_loaded ld;
	struct lat_block *b = load(&ld, STACKS, "3040", 0);
	struct rd_hist_set e = { 0 };
	int per_task;

	(void)state;
	assert_int_equal(rd_hist_set_wakeup(&e, b, &per_task), 0);
	assert_int_equal(per_task, 1);
	assert_int_equal(e.n, 1);
	assert_string_equal(e.h[0]->title, "gmake:3040 SCHED_OTHER nice 0");
	assert_int_equal(e.h[0]->total, 25);
	assert_int_equal(nonempty(e.h[0]), 17);
	assert_true(e.marks[0].p50 == 76031 && e.marks[0].max == 3678586);
	rd_hist_set_release(&e);
	lat_loaded_release(&ld);
}

/*
 * The icicle of record-stacks: `analyze --folded off` prints 9 stacks with
 * 6369396174 ns, 67 distinct frames (prefixes, awk), 17 deep; `--folded
 * runnable` 25 stacks, 79005834 ns (85222 ns less than when switch-ins were
 * inferred on CPU 1: those 7 waits end untrusted), 149 frames, 17 deep.
 */
static void test_icicle(void **state)
{
	struct lat_loaded ld;
	struct lat_block *b = load(&ld, STACKS, NULL, 0);
	const struct lat_wakeup_result *r = b->analysis;
	const char **names[2];
	int64_t *ns[2];
	const struct lat_wake_blame *rows[2] = { r->off_stacks, r->run_stacks };
	size_t n[2] = { r->noff_stacks_all, r->nrun_stacks_all };
	struct rd_icicle_input in = { .title = "stacks" };
	const struct rd_icicle_layout *l;
	struct lat_render_opts o;
	struct rd_chart c;
	cairo_surface_t *s;

	(void)state;
	assert_int_equal(n[0], 9);
	assert_int_equal(n[1], 25);
	for (int k = 0; k < 2; k++) {
		names[k] = calloc(n[k], sizeof(*names[k]));
		ns[k] = calloc(n[k], sizeof(*ns[k]));
		assert_true(names[k] && ns[k]);
		for (size_t i = 0; i < n[k]; i++) {
			names[k][i] = rows[k][i].name;
			ns[k][i] = rows[k][i].ns;
		}
		in.panel[k] = (struct rd_icicle_panel){ names[k], ns[k], n[k] };
	}
	lat_render_opts_init(&o);
	s = rd_chart_image(&rd_icicle_ops, &in, &o, &c);
	assert_non_null(s);
	dump_png(s, "icicle.png");
	l = c.priv;
	assert_true(l->total_ns[0] == 6369396174LL);
	assert_true(l->total_ns[1] == 79005834LL);
	assert_int_equal(l->nframes[0], 67 + 1);
	assert_int_equal(l->nframes[1], 149 + 1);
	assert_int_equal(l->depth[0], 17);
	assert_int_equal(l->depth[1], 17);
	/* frames under half a pixel are left out, the root always drawn */
	assert_true(l->drawn[0] >= 1 && l->drawn[0] <= l->nframes[0]);
	assert_true(l->drawn[1] >= 1 && l->drawn[1] <= l->nframes[1]);
	cairo_surface_destroy(s);
	rd_icicle_ops.release(&c);
	for (int k = 0; k < 2; k++) {
		free(names[k]);
		free(ns[k]);
	}

	/* through the block: the same chart, as an SVG that parses */
	{
		struct lat_render_buf buf = { 0 };

		o.chart = LAT_CHART_BLAME;
		o.format = LAT_RENDER_SVG;
		assert_int_equal(lat_render_block(b, &o, &buf), 0);
		assert_int_equal(xmllint_ok(&buf), 0);
		lat_render_buf_release(&buf);
	}
	lat_loaded_release(&ld);
}

/*
 * CPU lanes of record-stacks: 2 lanes; the time a task ran per CPU equals the
 * sum of the running slices with a known start and pid > 0 of `export --rows
 * slices` (991702923 ns on CPU 0, 989058347 ns on CPU 1, awk).  Before slices
 * ended at the last event of their task when a switch went missing, they were
 * 994191278 and 989817469: the differences, 2488355 and 759122 ns, are the
 * stretches from a CPU's last event to an event of another task than the
 * switches' (pid > 0) in `trace-cmd report -t` (a script, docs/wakeup.md
 * "Missing switches").  Its one stall
 * went with the debt CPU 1 owed while "idle" (its events are incomplete,
 * docs/wakeup.md "Trace health"); cyclictest-stress has 2 (analyze --json
 * stalls[]): every CPU 450.845894091 .. 450.849989769, drawn over both lanes,
 * and CPU 0 450.844464766 .. 450.849989769, drawn over lane 0.
 */
static void test_lanes(void **state)
{
	static const int64_t want_busy[2] = { 991702923, 989058347 };
	struct lat_loaded ld;
	struct lat_block *b = load(&ld, STACKS, NULL, 1);
	const struct lat_wakeup_result *r = b->analysis;
	const struct lat_wake_activity *a = r->activity;
	struct rd_lanes_input in = { r, "lanes" };
	const struct rd_lanes_layout *l;
	struct lat_render_opts o;
	struct rd_chart c;
	cairo_surface_t *s;

	(void)state;
	assert_non_null(a);
	assert_int_equal(a->ncpus, 2);
	assert_true(a->nbins > LAT_ACT_BINS / 2 && a->nbins <= LAT_ACT_BINS);
	for (int cpu = 0; cpu < 2; cpu++) {
		int64_t busy = 0;

		for (size_t k = 0; k < a->nbins; k++) {
			busy += a->cpu[cpu].busy[k];
			/* no bin holds more run time than it is long */
			assert_true(a->cpu[cpu].busy[k] <= (int64_t)a->bin_ns);
		}
		assert_true(busy == want_busy[cpu]);
	}
	assert_int_equal(r->nstalls, 0);
	lat_render_opts_init(&o);
	s = rd_chart_image(&rd_lanes_ops, &in, &o, &c);
	assert_non_null(s);
	dump_png(s, "lanes.png");
	l = c.priv;
	assert_int_equal(l->nlanes, 2);
	assert_int_equal(l->drawn_stalls, 0);
	/*
	 * the lanes use the plot's whole height: the plot ends where the frame puts
	 * the x axis (900 - 16 pad - 13 title - 10 - 12 tick labels - 10 = 839), the
	 * second lane 4 px above it
	 */
	assert_true(fabs(c.plot.y + c.plot.h - (o.height - 61)) < 0.01);
	assert_true(fabs(l->lane_y0 + 2 * l->lane_h + l->lane_gap - (c.plot.y + c.plot.h - 4)) <
		    0.01);
	cairo_surface_destroy(s);
	rd_lanes_ops.release(&c);
	lat_loaded_release(&ld);

	b = load(&ld, CYCLIC, NULL, 1);
	r = b->analysis;
	a = r->activity;
	in.r = r;
	assert_int_equal(r->nstalls, 2);
	assert_int_equal(r->stalls[0].cpu, -1);
	assert_int_equal(r->stalls[1].cpu, 0);
	s = rd_chart_image(&rd_lanes_ops, &in, &o, &c);
	assert_non_null(s);
	l = c.priv;
	assert_int_equal(l->drawn_stalls, 2);
	/* the machine-wide stall's marker is red on top of both lanes */
	{
		double x = rd_axis_map(&c.x, rd_dsub((int64_t)(r->stalls[0].from_ns +
								 r->stalls[0].to_ns) / 2,
						       (int64_t)a->t0_ns));

		assert_true(is_alert_red(px(s, x, l->lane_y0 + 2)));
		assert_true(is_alert_red(px(s, x, l->lane_y0 + l->lane_h + l->lane_gap + 2)));
	}
	cairo_surface_destroy(s);
	rd_lanes_ops.release(&c);
	lat_loaded_release(&ld);
}

static void add_marker(struct lat_timeline *t, uint64_t ts, int cpu, int64_t v)
{
	struct lat_tl_mark *m = &t->marks[t->nmarks++];

	*m = (struct lat_tl_mark){ .kind = LAT_TL_MARKER, .start_ns = ts, .end_ns = ts,
				   .cpu = cpu, .other_cpu = -1, .value_ns = v };
	snprintf(m->label, sizeof(m->label), "latscope: probe=timer cpu=%d lat_ns=%lld", cpu,
		 (long long)v);
}

/*
 * 20000 probe markers over 10 ms on 2 CPUs (one every 1 us per CPU): all of
 * them are counted in the view, drawn as at most one tick per pixel column
 * and lane (not a black band), and at most one label per 150 px slot and lane.
 */
static void test_markers(void **state)
{
	struct lat_timeline *t = calloc(1, sizeof(*t));
	const struct rd_tl_layout *l;
	struct lat_render_opts o;
	struct rd_chart c;
	cairo_surface_t *s;
	size_t slots;

	(void)state;
	assert_non_null(t);
	t->start_ns = 1000000000ULL;
	t->end_ns = t->start_ns + 10000000ULL;
	t->ncpus = 2;
	t->marks = calloc(20000, sizeof(*t->marks));
	assert_non_null(t->marks);
	for (int i = 0; i < 10000; i++)
		for (int cpu = 0; cpu < 2; cpu++)
			add_marker(t, t->start_ns + (uint64_t)i * 1000 + (uint64_t)cpu * 300, cpu,
				   50000 + (i * 7919 + cpu * 104729) % 400000);
	lat_render_opts_init(&o);
	s = rd_chart_image(&rd_timeline_ops, t, &o, &c);
	assert_non_null(s);
	dump_png(s, "timeline-markers.png");
	l = c.priv;
	slots = (size_t)(c.plot.w / 150) + 1;
	assert_int_equal(l->nmarkers, 20000);
	/* 7.7 markers per pixel column: every column of both lanes, once */
	assert_true(l->drawn_marker_ticks <= 2 * ((size_t)c.plot.w + 1));
	assert_true(l->drawn_marker_ticks >= 2 * ((size_t)c.plot.w - 2));
	/*
	 * a label (at most 138 px) may cover the next slot, never two: at least every
	 * other slot of each lane is labelled
	 */
	assert_true(l->drawn_marker_labels >= 2 * (slots / 2) && l->drawn_marker_labels <= 2 * slots);
	/* the lane's lower part stays its background: ticks reach a third of the lane */
	assert_true(rgb_dist(px(s, c.plot.x + c.plot.w / 2 + 0.5, rd_tl_lane_top(l, 0) +
				l->lane_h * 0.8), (struct rd_rgb){ 0.965, 0.965, 0.965 }) < 0.02);
	cairo_surface_destroy(s);
	rd_timeline_ops.release(&c);
	lat_timeline_free(t);
}

/*
 * The worst case of cyclictest-stress (its .args: --worst 3 --top 5): verdict
 * "stall" (analyze --json worst[0].verdict); two stalls overlap its window,
 * one on every CPU and one on CPU 0 (stalls[]), both drawn.
 */
static void test_timeline_case(void **state)
{
	struct lat_loaded ld;
	struct lat_block *b = load(&ld, CYCLIC, NULL, 0);
	struct lat_timeline *t = NULL;
	const struct rd_tl_layout *l;
	struct lat_render_opts o;
	struct rd_chart c;
	cairo_surface_t *s;
	size_t nstall = 0;

	(void)state;
	assert_int_equal(lat_wakeup_timeline(b, 0, &t), 0);
	assert_int_equal(rd_tl_add_case(t, b->analysis, 0), 0);
	assert_int_equal(strncmp(t->title, "stall (97%): no events on CPU0 for 5.53 ms", 42), 0);
	for (size_t i = 0; i < t->nmarks; i++)
		nstall += t->marks[i].kind == LAT_TL_STALL;
	assert_int_equal(nstall, 2);
	lat_render_opts_init(&o);
	s = rd_chart_image(&rd_timeline_ops, t, &o, &c);
	assert_non_null(s);
	dump_png(s, "timeline-stalls.png");
	l = c.priv;
	assert_int_equal(l->drawn_stalls, 2);
	cairo_surface_destroy(s);
	rd_timeline_ops.release(&c);
	lat_timeline_free(t);
	lat_loaded_release(&ld);

	/*
	 * cc:3125 of record-stacks (--task 3125) is queued on CPU 1 until pulled to
	 * CPU 0 (test_render_migrate.c): its wait is outlined on CPU 1 first (a wait
	 * of low trust, CPU 1's events being incomplete: ranked when asked)
	 */
	include_untrusted = 1;
	b = load(&ld, STACKS, "3125", 0);
	include_untrusted = 0;
	assert_int_equal(lat_wakeup_timeline(b, 0, &t), 0);
	assert_int_equal(rd_tl_add_case(t, b->analysis, 0), 0);
	assert_int_equal(strncmp(t->title, "queued-elsewhere", 16), 0);
	assert_int_equal(t->brackets[0].queued_cpu, 1);
	o.task = "3125";
	s = rd_chart_image(&rd_timeline_ops, t, &o, &c);
	assert_non_null(s);
	l = c.priv;
	assert_int_equal(l->queued_outlined, 1);
	/* the outline's left edge is red on CPU 1's lane at the waking */
	assert_true(is_alert_red(px(s, round(rd_axis_map(&c.x, (double)(t->brackets[0].start_ns -
									 l->v0))),
				   rd_tl_lane_top(l, 1) + l->lane_h / 2)));
	cairo_surface_destroy(s);
	rd_timeline_ops.release(&c);
	lat_timeline_free(t);
	lat_loaded_release(&ld);
}

/*
 * The worst case of mixed-3000-v6 (hackbench): `analyze --json` worst[0].on_cpu
 * lists idle (swapper/1, 97659 ns) first, then hackbench/9237 (39100 ns) and 14
 * other tasks, plus other_tasks 90: 105 tasks shared CPU 1 (the verdict's
 * "105 tasks of its class ran").  The bracket names the busiest task, not idle.
 * (A wait on CPU 1, whose events are incomplete: ranked with --include-untrusted.)
 */
static void test_bracket_holder(void **state)
{
	struct lat_loaded ld;
	struct lat_block *b;
	struct lat_timeline *t = NULL;

	(void)state;
	include_untrusted = 1;
	b = load(&ld, LAT_SAMPLES_DIR "/tracedat/mixed-3000-v6.dat", NULL, 0);
	include_untrusted = 0;
	assert_int_equal(lat_wakeup_timeline(b, 0, &t), 0);
	assert_int_equal(t->brackets[0].pid, 9152);
	assert_int_equal(t->brackets[0].held_by_pid, 9237);
	assert_true(t->brackets[0].held_ns == 39100);
	assert_int_equal(t->brackets[0].held_tasks, 105);
	lat_timeline_free(t);
	lat_loaded_release(&ld);
}

/*
 * lkml-2020-rt-lazy-flags.txt: rcuc/7:53 is woken at 46.299705 by a
 * sched_wakeup printed by <idle>-0 with the flags "dN.h4.." (line 154: in
 * hardirq context, no irq events in the trace to name the irq); analyze says
 * "woken by irq (no irq events recorded to name it)".  The arrow says so too,
 * not "irq irq:0" (0 is the idle task the irq interrupted).
 */
#define LKML_RT LAT_SAMPLES_DIR "/ftrace-text/lkml-2020-rt-lazy-flags.txt"

/*
 * Its 8 CPUs (the trace's [007] and the analysis' ncpus) have events on CPU 7
 * only (grep: every line of the block is `[007]`): CPUs 0-6 make one thin row
 * "CPUs 0–6: no events" above CPU 7's lane, which gets the rest of the plot.
 */
static void test_empty_lanes(struct lat_timeline *t)
{
	struct lat_render_opts o;
	struct rd_chart c;
	const struct rd_tl_layout *l;
	cairo_surface_t *s;

	lat_render_opts_init(&o);
	o.width = 1200;
	o.height = 675;
	s = rd_chart_image(&rd_timeline_ops, t, &o, &c);
	assert_non_null(s);
	l = c.priv;
	assert_int_equal(l->ncpus, 8);
	assert_int_equal(l->nempty, 7);
	assert_int_equal(l->nempty_rows, 1);
	for (int cpu = 0; cpu < 7; cpu++)
		assert_true(rd_tl_lane_top(l, cpu) == l->lane_y0);
	assert_true(rd_tl_lane_top(l, 7) == l->lane_y0 + l->thin_h + l->lane_gap);
	/* CPU 7's lane reaches the plot's bottom, less the 4 px margin */
	assert_true(fabs(rd_tl_lane_top(l, 7) + l->lane_h - (c.plot.y + c.plot.h - 4)) < 1);
	assert_non_null(strstr(c.subtitle, "8 CPUs (7 with no events), "));
	cairo_surface_destroy(s);
	rd_timeline_ops.release(&c);
}

static void test_timeline_unnamed_irq(void **state)
{
	struct lat_loaded ld;
	struct lat_block *b = load(&ld, LKML_RT, NULL, 0);
	struct lat_timeline *t = NULL;
	struct lat_tl_edge e = { .from_pid = 1234, .from_irq = 1 };
	char buf[120];
	size_t n = 0;

	(void)state;
	assert_int_equal(lat_wakeup_timeline(b, 0, &t), 0);
	assert_int_equal(t->brackets[0].pid, 53);
	for (size_t i = 0; i < t->nedges; i++) {
		if (t->edges[i].to_pid != 53)
			continue;
		n++;
		assert_int_equal(t->edges[i].from_cpu, 7);
		rd_tl_edge_label(&t->edges[i], buf, sizeof(buf));
		assert_string_equal(buf, "woken in irq (unnamed)");
	}
	assert_int_equal(n, 1);
	test_empty_lanes(t);
	/* a named irq context: its name, without the pid of the task it interrupted */
	strcpy(e.from_comm, "eth0");
	rd_tl_edge_label(&e, buf, sizeof(buf));
	assert_string_equal(buf, "irq eth0");
	e.from_irq = LAT_WAKE_CTX_SOFTIRQ;
	e.from_comm[0] = 0;	/* not named in the trace */
	rd_tl_edge_label(&e, buf, sizeof(buf));
	assert_string_equal(buf, "woken in softirq (unnamed)");
	/* a task: comm:pid */
	e.from_irq = 0;
	strcpy(e.from_comm, "ksoftirqd/7");
	rd_tl_edge_label(&e, buf, sizeof(buf));
	assert_string_equal(buf, "ksoftirqd/7:1234");
	lat_timeline_free(t);
	lat_loaded_release(&ld);
}

/* The headline drawn at @w x 675 with @source: its layout in @c (release it). */
static void headline(struct lat_timeline *t, const char *source, int w, struct rd_chart *c)
{
	struct lat_render_opts o;
	cairo_surface_t *s;

	lat_render_opts_init(&o);
	o.source = source;
	o.width = w;
	o.height = 675;
	s = rd_chart_image(&rd_timeline_ops, t, &o, c);
	assert_non_null(s);
	cairo_surface_destroy(s);
}

static int has_ellipsis(const char *s)
{
	return strstr(s, "\xe2\x80\xa6") != NULL;
}

/*
 * The headline of lkml-2020-rt-lazy-flags (`render --size 1200x675`, the
 * sample's .args) is 182 characters: "... · timeline: idle (100%): CPU7 stayed
 * idle 23 us: waking an idle CPU (IPI, idle exit) or a switch that was not
 * recorded · rcuc/7/53 waited 23 us on CPU7" (analyze's case 1).  It wraps to
 * two lines at the full size, uncut; at 560 px it shrinks and is cut at its
 * end; with a source name wider than a line, the first line is cut and the
 * second starts with the verdict kind and share, whole.
 */
static void test_headline_wrap(void **state)
{
	static const char src[] = "samples/ftrace-text/lkml-2020-rt-lazy-flags.txt";
	static const char tail[] = "waiting a long while to be named in this headline";
	struct lat_loaded ld;
	struct lat_block *b = load(&ld, LKML_RT, NULL, 0);
	struct lat_timeline *t = NULL;
	struct rd_chart c;
	char both[1100], longsrc[120];

	(void)state;
	assert_int_equal(lat_wakeup_timeline(b, 0, &t), 0);
	assert_int_equal(rd_tl_add_case(t, b->analysis, 0), 0);
	assert_string_equal(t->title, "idle (100%): CPU7 stayed idle 23 us: waking an idle CPU "
			    "(IPI, idle exit) or a switch that was not recorded \xc2\xb7 rcuc/7/53 "
			    "waited 23 us on CPU7");
	assert_int_equal(t->title_keep, strlen("idle (100%)"));

	headline(t, src, 1200, &c);
	assert_int_equal(c.title_lines, 2);
	assert_true(c.title_pt == RD_TITLE_PT);
	snprintf(both, sizeof(both), "%s %s", c.title_line[0], c.title_line[1]);
	assert_string_equal(both, c.title);	/* nothing cut */
	assert_false(has_ellipsis(both));
	assert_non_null(strstr(c.title_line[0], "timeline: idle (100%):"));
	rd_timeline_ops.release(&c);

	/* narrow: smallest size, two lines, the second cut at its end */
	headline(t, src, 560, &c);
	assert_int_equal(c.title_lines, 2);
	assert_true(c.title_pt == RD_TITLE_MIN_PT);
	assert_true(has_ellipsis(c.title_line[1]));
	snprintf(both, sizeof(both), "%s %s", c.title_line[0], c.title_line[1]);
	assert_non_null(strstr(both, "idle (100%)"));
	rd_timeline_ops.release(&c);

	/* a source name wider than the line: it is cut, the verdict kind and share are not */
	memset(longsrc, 'x', sizeof(longsrc) - 1);
	longsrc[sizeof(longsrc) - 1] = '\0';
	memcpy(longsrc + sizeof(longsrc) - sizeof(tail), tail, sizeof(tail));
	headline(t, longsrc, 560, &c);
	assert_int_equal(c.title_lines, 2);
	assert_true(has_ellipsis(c.title_line[0]));
	assert_int_equal(strncmp(c.title_line[1], "idle (100%)", 11), 0);
	rd_timeline_ops.release(&c);
	lat_timeline_free(t);
	lat_loaded_release(&ld);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wakeup_hist),
		cmocka_unit_test(test_wakeup_hist_task),
		cmocka_unit_test(test_icicle),
		cmocka_unit_test(test_lanes),
		cmocka_unit_test(test_markers),
		cmocka_unit_test(test_timeline_case),
		cmocka_unit_test(test_bracket_holder),
		cmocka_unit_test(test_timeline_unnamed_irq),
		cmocka_unit_test(test_headline_wrap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
