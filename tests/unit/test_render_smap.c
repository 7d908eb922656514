// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A perf sched map drawn as lanes of who ran (issue 28 item 6: a chart for
 * every input with numbers; the map was "a histogram chart does not fit this
 * block").  The reader keeps the map's cells by their column (a CPU perf has
 * not seen yet is printed blank), a reused code is a new task, rows left out
 * are "not known", drawn grey, never blank (idle).  Values read off the
 * samples with grep (each below) and off the text made here.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "latscope/timeline.h"
#include "old_logs_util.h"
#include "render_test_util.h"
#include "smap.h"

#define SAMPLE(x) LAT_SAMPLES_DIR "/perf-sched/" x

static int64_t at(const struct lat_series *s, size_t row, int col)
{
	assert_true(row < s->nrows);
	return lat_series_at(s, row, col);
}

static const struct lat_block *map_block(const struct lat_loaded *l)
{
	for (size_t i = 0; i < l->nblocks; i++)
		if (rd_smap_series(l->blocks[i], "cpu0"))
			return l->blocks[i];
	fail_msg("no perf sched map kept");
	return NULL;
}

/*
 * blog-2016: row 1 "      *A0  7188680.765033 secs A0 => perf:15304" has
 * CPU 0 blank (not seen yet): A0 is CPU 1's, as row 2 "*.   A0" shows.
 * CPU 0: idle at .765074, perf (A0) from .765186 ("*A0  ." row 5) to
 * .765878 ("*.   ." row 6).  10 tasks named (`grep -c '[A-Z]0 =>'`).
 */
static void test_blog_columns(void **state)
{
	struct lat_loaded *l = old_logs_load(SAMPLE("blog-2016-b20yang-latency-map-tabs.txt"),
					     NULL);
	const struct lat_block *b = map_block(l);
	const struct lat_series *c0 = rd_smap_series(b, "cpu0");
	const struct lat_series *c1 = rd_smap_series(b, "cpu1");
	const struct lat_series *tk = rd_smap_series(b, "tasks");
	struct lat_timeline *tl;
	int perf_on_cpu0 = 0, gap0 = 0;

	(void)state;
	assert_non_null(c1);
	assert_null(rd_smap_series(b, "cpu2"));
	assert_int_equal(tk->nrows, 10);
	assert_int_equal(at(tk, 0, LAT_SMAP_PID), 15304);
	assert_string_equal(tk->notes[0].text, "perf");
	assert_int_equal(at(c1, 0, LAT_SMAP_TS), 7188680765033000LL);
	assert_int_equal(at(c1, 0, LAT_SMAP_TASK), 0);
	assert_int_equal(at(c0, 0, LAT_SMAP_TS), 7188680765074000LL);
	assert_int_equal(at(c0, 0, LAT_SMAP_TASK), -1);
	assert_int_equal(lat_render_pick(b), LAT_CHART_TIMELINE);

	assert_int_equal(rd_smap_timeline(b, &tl), 0);
	assert_int_equal(tl->ncpus, 2);
	for (size_t i = 0; i < tl->nslices; i++) {
		const struct lat_tl_slice *s = &tl->slices[i];

		if (s->cpu == 0 && s->pid == 15304) {
			perf_on_cpu0++;
			assert_int_equal(s->start_ns, 7188680765186000ULL);
			assert_int_equal(s->end_ns, 7188680765878000ULL);
			assert_string_equal(s->comm, "perf");
		}
	}
	assert_int_equal(perf_on_cpu0, 1);
	/* CPU 0 before its first cell: not known, from the map's start */
	for (size_t i = 0; i < tl->nmarks; i++) {
		const struct lat_tl_mark *m = &tl->marks[i];

		assert_int_equal(m->kind, LAT_TL_GAP);
		gap0 += m->cpu == 0 && m->start_ns == 7188680765033000ULL &&
			m->end_ns == 7188680765074000ULL;
	}
	assert_int_equal(gap0, 1);
	assert_int_equal(tl->nmarks, 1);
	lat_timeline_free(tl);
	old_logs_free(l);
}

/*
 * lkml-2024: rows at .510141 .. .510279 on CPUs 0 and 1, "<SNIP>", then rows
 * from .785979 on, all 16 CPUs running L7, whose legend was left out.
 * CPU 0: A0 (migration/0:15), idle at .510171, not known from .510279
 * (the last row before the cut) to .785979.
 */
static void test_lkml_snip(void **state)
{
	struct lat_loaded *l = old_logs_load(SAMPLE("lkml-2024-yangjihong-lat-map-replay-snip.txt"),
					     NULL);
	const struct lat_block *b = map_block(l);
	const struct lat_series *c0 = rd_smap_series(b, "cpu0");
	const struct lat_series *tk = rd_smap_series(b, "tasks");
	struct lat_timeline *tl;
	struct lat_render_opts o;
	struct lat_render_buf out = { 0 };
	struct rd_chart c;
	cairo_surface_t *img;
	int gap0 = 0, l7 = 0;

	(void)state;
	assert_non_null(rd_smap_series(b, "cpu15"));
	assert_null(rd_smap_series(b, "cpu16"));
	assert_int_equal(tk->nrows, 3);
	assert_string_equal(tk->notes[2].text, "L7");
	assert_true(at(tk, 2, LAT_SMAP_PID) == LAT_VALUE_NONE);
	assert_int_equal(c0->nrows, 4);
	assert_int_equal(at(c0, 1, LAT_SMAP_TASK), -1);
	assert_int_equal(at(c0, 2, LAT_SMAP_TS), 456532510279000LL);
	assert_true(at(c0, 2, LAT_SMAP_TASK) == LAT_VALUE_NONE);
	assert_int_equal(at(c0, 3, LAT_SMAP_TS), 456532785979000LL);
	assert_int_equal(at(c0, 3, LAT_SMAP_TASK), 2);

	assert_int_equal(rd_smap_timeline(b, &tl), 0);
	for (size_t i = 0; i < tl->nmarks; i++)
		gap0 += tl->marks[i].cpu == 0 && tl->marks[i].start_ns == 456532510279000ULL &&
			tl->marks[i].end_ns == 456532785979000ULL;
	for (size_t i = 0; i < tl->nslices; i++)
		l7 += tl->slices[i].pid == LAT_TL_PID_UNNAMED + 2;
	assert_int_equal(gap0, 1);
	assert_int_equal(l7, 16);	/* one per CPU after the cut */
	lat_render_opts_init(&o);
	img = rd_chart_image(&rd_timeline_ops, tl, &o, &c);
	assert_non_null(img);
	dump_png(img, "smap-snip.png");
	{
		const struct rd_tl_layout *ly = c.priv;
		double x = rd_axis_map(&c.x, (double)(456532600000000ULL - ly->v0));
		double y = rd_tl_lane_top(ly, 0) + ly->lane_h / 2;
		struct rd_rgb g = px(img, x, y);

		/* grey (not the blank lane's near-white): the cut is not idle */
		assert_true(rgb_dist(g, (struct rd_rgb){ 0.82, 0.82, 0.82 }) < 0.08);
	}
	assert_true(legend_has(&c, "L7 (no pid given)"));
	assert_true(legend_has(&c, "not in the input: not known"));
	assert_null(strstr(c.subtitle, "irq"));
	rd_timeline_ops.release(&c);
	cairo_surface_destroy(img);
	lat_timeline_free(tl);

	/* the whole path: "--chart auto" draws it */
	o.format = LAT_RENDER_SVG;
	assert_int_equal(lat_render_block(b, &o, &out), 0);
	assert_int_equal(xmllint_ok(&out), 0);
	lat_render_buf_release(&out);
	old_logs_free(l);
}

/*
 * Made here: perf reuses a code once it ran out of them, with a new legend;
 * "A0" is then another task.  CPU 1 runs a:10, then the second A0, c:12.
 */
static void test_reused_code(void **state)
{
	static const char text[] =
		" -----------------------------------------------------------------\n"
		"  Task                  |   Runtime ms  | Switches | Average delay ms | "
		"Maximum delay ms | Maximum delay at       |\n"
		" -----------------------------------------------------------------\n"
		"  a:10                  |      0.170 ms |        3 | avg:    0.016 ms | "
		"max:    0.023 ms | max at: 100.000500 s\n"
		"\n"
		"# perf sched map\n"
		"      *A0       100.000100 secs A0 => a:10\n"
		"  *.   A0       100.000200 secs .  => swapper:0\n"
		"   .  *A0       100.000300 secs A0 => c:12\n"
		"   .  *.        100.000400 secs\n";
	struct lat_loaded *l = old_logs_load_text(text, NULL);
	const struct lat_block *b = map_block(l);
	const struct lat_series *c1 = rd_smap_series(b, "cpu1");
	const struct lat_series *tk = rd_smap_series(b, "tasks");

	(void)state;
	assert_int_equal(tk->nrows, 2);
	assert_int_equal(at(tk, 1, LAT_SMAP_PID), 12);
	assert_string_equal(tk->notes[1].text, "c");
	assert_int_equal(c1->nrows, 3);
	assert_int_equal(at(c1, 0, LAT_SMAP_TASK), 0);
	assert_int_equal(at(c1, 1, LAT_SMAP_TASK), 1);
	assert_int_equal(at(c1, 1, LAT_SMAP_TS), 100000300000LL);
	assert_int_equal(at(c1, 2, LAT_SMAP_TASK), -1);
	old_logs_free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blog_columns),
		cmocka_unit_test(test_lkml_snip),
		cmocka_unit_test(test_reused_code),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
