// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Migrations on the timeline chart: an arrow from the origin CPU's lane to the
 * destination's at the migration instant, the case's own task bold and in its
 * own colour, other tasks pale and merged per 24 px and CPU pair, each
 * migration once, none outside the view; on a hand-built timeline and on a
 * recorded trace whose worst case for --task 3125 holds the task's migration.
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

#define T0 1000000000ULL
#define MS 1000000ULL

/* The centre of the pixel column an instant is drawn in (arrows sit on whole pixels). */
static double xat(const struct rd_chart *c, uint64_t ts)
{
	const struct rd_tl_layout *l = c->priv;

	return round(rd_axis_map(&c->x, (double)(ts - l->v0))) + 0.5;
}

/* Between the lanes of CPU 0 and CPU 1, where only arrows are drawn. */
static double gap_y(const struct rd_tl_layout *l)
{
	return rd_tl_lane_top(l, 1) - l->lane_gap / 2;
}

static double mid_y(const struct rd_tl_layout *l, int cpu)
{
	return rd_tl_lane_top(l, cpu) + l->lane_h / 2;
}

static int is_rgb(struct rd_rgb c, struct rd_rgb want)
{
	return rgb_dist(c, want) < 0.12;
}

static void add_migr(struct lat_timeline *t, uint64_t ts, int from, int to, int pid,
		     const char *comm)
{
	struct lat_tl_mark *m = &t->marks[t->nmarks++];

	*m = (struct lat_tl_mark){ .kind = LAT_TL_MIGRATE, .start_ns = ts, .end_ns = ts,
				   .cpu = from, .other_cpu = to, .pid = pid, .value_ns = -1 };
	snprintf(m->label, sizeof(m->label), "%s", comm);
}

/*
 * CPU 0: hog:200 0-6.2 ms, rt-task:300 6.2-7 ms; CPU 1: kworker/1:1:60 0-3 ms.
 * rt-task waits 3.5-6.2 ms (the bracket) and moves CPU 1 -> 0 at 5 ms (recorded
 * twice, as the analysis may: live and with its case).  Other tasks: kworker
 * 0 -> 1 at 2 ms; 100 hackbench tasks 0 -> 1 within 1 us of 8 ms (0.12 px); and three that must not be drawn: at 20 ms (outside the 10 ms
 * window), 1 -> 1, and 0 -> 7 (no lane 7).
 */
static struct lat_timeline *build(void)
{
	struct lat_timeline *t = calloc(1, sizeof(*t));

	assert_non_null(t);
	t->start_ns = T0;
	t->end_ns = T0 + 10 * MS;
	t->ncpus = 2;
	t->slices = calloc(3, sizeof(*t->slices));
	assert_non_null(t->slices);
	t->slices[0] = (struct lat_tl_slice){ T0, T0 + 6200000, 0, 200, 120, "hog", 0 };
	t->slices[1] = (struct lat_tl_slice){ T0 + 6200000, T0 + 7 * MS, 0, 300, 0, "rt-task", 0 };
	t->slices[2] = (struct lat_tl_slice){ T0, T0 + 3 * MS, 1, 60, 120, "kworker/1:1", 0 };
	t->nslices = 3;
	t->marks = calloc(110, sizeof(*t->marks));
	assert_non_null(t->marks);
	add_migr(t, T0 + 5 * MS, 1, 0, 300, "rt-task");
	add_migr(t, T0 + 2 * MS, 0, 1, 60, "kworker/1:1");
	for (int i = 0; i < 100; i++)
		add_migr(t, T0 + 8 * MS + (uint64_t)i * 10, 0, 1, 1000 + i, "hackbench");
	add_migr(t, T0 + 5 * MS, 1, 0, 300, "rt-task");
	add_migr(t, T0 + 20 * MS, 0, 1, 61, "late");
	add_migr(t, T0 + 4 * MS, 1, 1, 62, "stays");
	add_migr(t, T0 + 9 * MS, 0, 7, 63, "nowhere");
	t->brackets = calloc(1, sizeof(*t->brackets));
	assert_non_null(t->brackets);
	t->nbrackets = 1;
	t->brackets[0] = (struct lat_tl_bracket){ .start_ns = T0 + 3500000,
						  .end_ns = T0 + 6200000, .cpu = 0, .pid = 300,
						  .held_by_pid = 200 };
	strcpy(t->brackets[0].comm, "rt-task");
	strcpy(t->brackets[0].held_by_comm, "hog");
	return t;
}

static void tl_free(struct lat_timeline *t)
{
	free(t->slices);
	free(t->marks);
	free(t->brackets);
	free(t);
}

static void test_hand_built(void **state)
{
	struct lat_timeline *t = build();
	struct lat_render_opts o;
	struct lat_render_buf b = { 0 };
	const struct rd_tl_layout *l;
	struct rd_chart c;
	cairo_surface_t *s;
	double x;

	(void)state;
	lat_render_opts_init(&o);
	s = rd_chart_image(&rd_timeline_ops, t, &o, &c);
	assert_non_null(s);
	dump_png(s, "timeline-migrations.png");
	l = c.priv;
	/* 1 own (its duplicate once) + kworker + 100 hackbench; the 3 others are not drawable */
	assert_int_equal(l->nmigr, 102);
	/*
	 * the 100 (0.12 px wide) merge into one arrow labelled with their count, the
	 * kworker's (2 ms, far from them) is its own; the own task's is never merged
	 */
	assert_int_equal(l->drawn_migr, 3);
	assert_int_equal(l->drawn_own_migr, 1);
	assert_true(legend_has(&c, "migration of rt-task:300"));
	assert_true(legend_has(&c, "migration of another task"));

	/* own: bold, own colour, crossing the lane gap; head on CPU 0, ring on CPU 1 */
	x = xat(&c, T0 + 5 * MS);
	assert_true(is_rgb(px(s, x, gap_y(l)), tl_migr_own_rgb));
	assert_true(is_rgb(px(s, x + 1.5, mid_y(l, 0) + 7), tl_migr_own_rgb));
	assert_false(is_rgb(px(s, x + 2.5, mid_y(l, 1) - 7), tl_migr_own_rgb));
	/* others: pale violet in the gap, head on CPU 1 */
	x = xat(&c, T0 + 2 * MS);
	assert_true(is_rgb(px(s, x, gap_y(l)), tl_migr_rgb));
	assert_true(is_rgb(px(s, x + 1.5, mid_y(l, 1) - 7), tl_migr_rgb));
	assert_true(is_rgb(px(s, xat(&c, T0 + 8 * MS), gap_y(l)), tl_migr_rgb));
	/* nothing where no migration is drawn: 4 ms (1 -> 1), 9 ms (to no lane), 3 ms */
	assert_false(is_rgb(px(s, xat(&c, T0 + 4 * MS), gap_y(l)), tl_migr_rgb));
	assert_false(is_rgb(px(s, xat(&c, T0 + 9 * MS), gap_y(l)), tl_migr_rgb));
	assert_false(is_rgb(px(s, xat(&c, T0 + 3 * MS), gap_y(l)), tl_migr_rgb));
	cairo_surface_destroy(s);
	rd_timeline_ops.release(&c);

	/* a window without the own migration: no own legend entry, nothing drawn there */
	o.has_window = 1;
	o.window_start_ns = 6 * MS;
	o.window_end_ns = 10 * MS;
	s = rd_chart_image(&rd_timeline_ops, t, &o, &c);
	assert_non_null(s);
	l = c.priv;
	assert_int_equal(l->nmigr, 100);
	assert_true(l->drawn_migr >= 1 && l->drawn_migr <= 2);
	assert_int_equal(l->drawn_own_migr, 0);
	assert_false(legend_has(&c, "migration of rt-task:300"));
	cairo_surface_destroy(s);
	rd_timeline_ops.release(&c);

	o.has_window = 0;
	o.format = LAT_RENDER_SVG;
	assert_int_equal(lat_render_timeline(t, &o, &b), 0);
	assert_int_equal(xmllint_ok(&b), 0);
	lat_render_buf_release(&b);
	tl_free(t);
}

/*
 * samples/tracedat/record-stacks-v7-zstd.dat, the worst wakeup of cc:3125: it
 * waits from 5912.625791851 (fork) to 5912.629619159 on CPU 0 and was moved
 * CPU 1 -> 0 at 5912.629525751.  Checked with `trace-cmd report -t` on the
 * sample: "<idle>-0 [000] 5912.629525751: sched_migrate_task: comm=cc pid=3125
 * prio=120 orig_cpu=1 dest_cpu=0"; the only other migration in the case's
 * window [5912.623878197, 5912.631532813] is rcu_preempt:15 1 -> 0 at
 * 5912.629520762, before the case ended (so from the analysis' ring).  It was
 * queued on CPU 1, whose events are incomplete (its exits from idle are not
 * recorded, docs/wakeup.md "Trace health"): a wait of low trust, ranked only
 * with --include-untrusted.
 */
static void test_recorded(void **state)
{
	struct lat_loaded ld;
	struct lat_analyze_opts ao;
	struct lat_render_opts o;
	struct lat_render_buf b = { 0 };
	struct lat_timeline *t = NULL;
	const struct lat_tl_mark *own = NULL;
	const struct rd_tl_layout *l;
	struct rd_chart c;
	cairo_surface_t *s;

	(void)state;
	lat_analyze_opts_init(&ao);
	ao.timelines = 1;
	ao.task = "3125";
	ao.include_untrusted = 1;
	assert_int_equal(lat_load(&ld, LAT_SAMPLES_DIR "/tracedat/record-stacks-v7-zstd.dat",
				  NULL), 0);
	assert_int_equal(lat_analyze_block(ld.blocks[0], &ao), 0);
	assert_int_equal(lat_wakeup_timeline(ld.blocks[0], 0, &t), 0);
	assert_int_equal(t->brackets[0].pid, 3125);
	for (size_t i = 0; i < t->nmarks; i++)
		if (t->marks[i].kind == LAT_TL_MIGRATE && t->marks[i].pid == 3125)
			own = &t->marks[i];
	assert_non_null(own);
	assert_true(own->start_ns == 5912629525751ULL);
	assert_int_equal(own->cpu, 1);
	assert_int_equal(own->other_cpu, 0);
	for (size_t i = 0; i < t->nmarks; i++) {
		if (t->marks[i].kind != LAT_TL_MIGRATE || t->marks[i].pid == 3125)
			continue;
		assert_int_equal(t->marks[i].pid, 15);
		assert_true(t->marks[i].start_ns == 5912629520762ULL);
		assert_string_equal(t->marks[i].label, "rcu_preempt");
	}

	lat_render_opts_init(&o);
	o.task = "3125";
	s = rd_chart_image(&rd_timeline_ops, t, &o, &c);
	assert_non_null(s);
	dump_png(s, "timeline-migration-cc.png");
	l = c.priv;
	assert_int_equal(l->nmigr, 2);
	assert_int_equal(l->drawn_migr, 2);
	assert_int_equal(l->drawn_own_migr, 1);
	assert_true(legend_has(&c, "migration of cc:3125"));
	assert_true(is_rgb(px(s, xat(&c, own->start_ns), gap_y(l)), tl_migr_own_rgb));
	assert_true(is_rgb(px(s, xat(&c, own->start_ns) + 1.5, mid_y(l, 0) + 7),
			   tl_migr_own_rgb));
	cairo_surface_destroy(s);
	rd_timeline_ops.release(&c);

	o.format = LAT_RENDER_SVG;
	assert_int_equal(lat_render_timeline(t, &o, &b), 0);
	assert_int_equal(xmllint_ok(&b), 0);
	lat_render_buf_release(&b);
	lat_timeline_free(t);
	lat_loaded_release(&ld);
}

/*
 * The trace-cmd fixture (hackbench): the two worst cases wait 347 ms
 * (994.636899102 .. 994.984059800) and 300 ms (994.681558269 ..
 * 994.981468965); their timelines have margins of 50 ms (WK_TL_MARGIN_CAP,
 * more than an eighth of either wait): [994.586899102, 995.034059800] and
 * [994.631558269, 995.031468965].  They hold 440 and 397 migrations:
 * `trace-cmd report -t FIXTURE | awk` over sched_migrate_task lines with a
 * time inside.  Both waits are on CPU 1, whose events are incomplete: ranked
 * with --include-untrusted.
 */
static void test_fixture(void **state)
{
	static const struct {
		uint64_t ws, we;
		size_t n;
	} want[2] = { { 994586899102ULL, 995034059800ULL, 440 },
		      { 994631558269ULL, 995031468965ULL, 397 } };
	struct lat_loaded ld;
	struct lat_analyze_opts ao;
	struct lat_render_opts o;
	struct rd_chart c;
	cairo_surface_t *s;

	(void)state;
	assert_int_equal(access(LAT_FIXTURE_V6, R_OK), 0);
	lat_analyze_opts_init(&ao);
	ao.timelines = 2;
	ao.include_untrusted = 1;
	lat_render_opts_init(&o);
	assert_int_equal(lat_load(&ld, LAT_FIXTURE_V6, NULL), 0);
	assert_int_equal(lat_analyze_block(ld.blocks[0], &ao), 0);
	for (size_t k = 0; k < 2; k++) {
		struct lat_timeline *t = NULL;
		const struct rd_tl_layout *l;
		size_t n = 0;

		assert_int_equal(lat_wakeup_timeline(ld.blocks[0], k, &t), 0);
		assert_true(t->start_ns == want[k].ws && t->end_ns == want[k].we);
		for (size_t i = 0; i < t->nmarks; i++)
			n += t->marks[i].kind == LAT_TL_MIGRATE;
		assert_int_equal(n, want[k].n);
		s = rd_chart_image(&rd_timeline_ops, t, &o, &c);
		assert_non_null(s);
		l = c.priv;
		/* all distinct and between the two lanes; merged to at most 2 per 24 px */
		assert_int_equal(l->nmigr, want[k].n);
		assert_true(l->drawn_migr > 0 && l->drawn_migr < want[k].n);
		assert_true(l->drawn_migr <= 2 * ((size_t)c.plot.w / 24 + 1));
		cairo_surface_destroy(s);
		rd_timeline_ops.release(&c);
		lat_timeline_free(t);
	}
	lat_loaded_release(&ld);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand_built),
		cmocka_unit_test(test_recorded),
		cmocka_unit_test(test_fixture),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
