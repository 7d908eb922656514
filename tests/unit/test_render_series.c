// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The series chart over the real lat3 samples: the 2.5 s freeze of seed 000
 * is drawn where the row says, the y axis goes log because 50 µs rows sit
 * beside it, the legend names the processes, the dispatcher and SVG output.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "latscope/an_loop.h"
#include "latscope/analyze.h"
#include "latscope/input.h"
#include "render_test_util.h"

static struct lat_loaded *load(const char *path)
{
	struct lat_loaded *l = calloc(1, sizeof(*l));
	struct lat_analyze_opts o;

	assert_non_null(l);
	lat_analyze_opts_init(&o);
	assert_int_equal(lat_load(l, path, NULL), 0);
	for (size_t i = 0; i < l->nblocks; i++)
		assert_int_equal(lat_analyze_block(l->blocks[i], &o), 0);
	return l;
}

static void unload(struct lat_loaded *l)
{
	lat_loaded_release(l);
	free(l);
}

static void test_freeze_where_the_row_says(void **state)
{
	struct lat_loaded *l = load(LAT_SAMPLES_DIR "/lat3/seed000-lat3-vs-shell-loop.txt");
	struct rd_series_input in = { l->blocks[0], l->blocks[0]->analysis };
	const struct rd_series_layout *lay;
	struct lat_render_opts o;
	struct rd_chart c;
	cairo_surface_t *s;
	double x, y, yfloor;

	(void)state;
	lat_render_opts_init(&o);
	o.source = "seed000-lat3-vs-shell-loop.txt";
	s = rd_chart_image(&rd_series_ops, &in, &o, &c);
	assert_non_null(s);
	dump_png(s, "series.png");
	lay = c.priv;
	/* lat3 has a maxlat column: the stall drawn is the longest gap */
	assert_int_equal(lay->stall_col, LAT_LOOP_MAX);
	/* first row 1112008903.267 (sample line 6) */
	assert_int_equal(lay->t0_ns, 1112008903267000000LL);
	/* maxlat 48 us (line 6) .. 2507346 us (line 13): five decades, so log y */
	assert_true(c.y.log);
	assert_true(c.y.lo <= 48000 && c.y.hi >= 2507346000.0);

	/* the freeze: row 1112008906.469, maxlat 2507346 us; a red ring of radius 7 around it */
	x = rd_axis_map(&c.x, (double)(1112008906469000000LL - lay->t0_ns));
	y = rd_axis_map(&c.y, 2507346000.0);
	assert_true(x > c.plot.x + c.plot.w * 0.7 && x < c.plot.x + c.plot.w);
	assert_true(y > c.plot.y && y < c.plot.y + c.plot.h * 0.2);
	assert_true(rgb_dist(px(s, x, y), rd_palette(0)) < 0.1);	/* the row's dot */
	assert_true(is_alert_red(px(s, x, y - 7)));
	assert_true(is_alert_red(px(s, x - 7, y)));
	/* a normal row (line 7, 1112008903.368: maxlat 52 us) is near the floor, no ring */
	x = rd_axis_map(&c.x, (double)(1112008903368000000LL - lay->t0_ns));
	y = rd_axis_map(&c.y, 52000.0);
	yfloor = c.plot.y + c.plot.h;
	assert_true(y > c.plot.y + c.plot.h * 0.6 && y < yfloor);
	assert_true(rgb_dist(px(s, x, y), rd_palette(0)) < 0.1);
	assert_false(is_alert_red(px(s, x, y - 7)));
	/* the threshold line at 10 ms (dashed 8 on 5 off from the plot's left edge) */
	y = round(rd_axis_map(&c.y, 1e7));
	assert_true(is_alert_red(px(s, c.plot.x + 3, y)) || is_alert_red(px(s, c.plot.x + 3, y + 1)));

	assert_string_equal(c.legend[1].text, "freeze threshold 10 ms");
	assert_non_null(strstr(c.subtitle, "worst stall 2.51 s (process 1, line 13)"));
	assert_non_null(strstr(c.subtitle, "2 freezes"));
	cairo_surface_destroy(s);
	rd_series_ops.release(&c);
	unload(l);
}

static void test_two_processes(void **state)
{
	struct lat_loaded *l = load(LAT_SAMPLES_DIR "/lat3/seed000-2x-lat3-1000000.txt");
	struct rd_series_input in = { l->blocks[0], l->blocks[0]->analysis };
	struct lat_render_opts o;
	struct rd_chart c;
	cairo_surface_t *s;

	(void)state;
	lat_render_opts_init(&o);
	s = rd_chart_image(&rd_series_ops, &in, &o, &c);
	assert_non_null(s);
	/* one legend entry per process, in the block's order, each its own colour */
	assert_int_equal(l->blocks[0]->nseries, 2);
	assert_true(!strncmp(c.legend[0].text, "process 1", 9));
	assert_true(!strncmp(c.legend[1].text, "process 2", 9));
	assert_true(rgb_dist(c.legend[0].rgb, c.legend[1].rgb) > 0.3);
	cairo_surface_destroy(s);
	rd_series_ops.release(&c);
	unload(l);
}

static void test_mail_blocks_and_svg(void **state)
{
	struct lat_loaded *l = load(LAT_SAMPLES_DIR "/mail/000-tarreau-2.6.11-sched-latency.txt");
	struct lat_render_opts o;
	struct lat_render_buf b = { 0 }, b2 = { 0 };

	(void)state;
	lat_render_opts_init(&o);
	o.source = "000 <mail> & \"quotes\"";
	assert_true(l->nblocks >= 3);
	for (size_t i = 0; i < l->nblocks; i++) {
		o.block_no = (int)i + 1;
		o.format = LAT_RENDER_PNG;
		assert_int_equal(lat_render_block(l->blocks[i], &o, &b), 0);
		assert_memory_equal(b.data, "\x89PNG\r\n", 6);
		assert_true(b.len < 512 * 1024);	/* "well under 1 MiB" */
		o.format = LAT_RENDER_SVG;
		assert_int_equal(lat_render_block(l->blocks[i], &o, &b), 0);
		assert_int_equal(xmllint_ok(&b), 0);
		assert_int_equal(lat_render_block(l->blocks[i], &o, &b2), 0);
		assert_int_equal(b.len, b2.len);
		assert_memory_equal(b.data, b2.data, b.len);
	}
	/* a chart that does not fit the block says so */
	o.chart = LAT_CHART_HISTOGRAM;
	assert_int_equal(lat_render_block(l->blocks[0], &o, &b), -LAT_EUSAGE);
	assert_non_null(strstr(b.msg, "histogram"));
	lat_render_buf_release(&b);
	lat_render_buf_release(&b2);
	unload(l);
}

/* 200,000 rows: rows sharing a pixel column fold, so the SVG stays small and well-formed. */
static void test_dense_rows(void **state)
{
	static const struct lat_column cols[LAT_LOOP_NCOLS] = {
		{ "ts", LAT_UNIT_TS_NS }, { "wait", LAT_UNIT_NS }, { "loop", LAT_UNIT_NS },
		{ "max", LAT_UNIT_NS }, { "nbmax", LAT_UNIT_COUNT },
	};
	struct lat_block *b = lat_block_new(NULL, LAT_SCHEMA_LOOP);
	struct lat_series *s = lat_series_new("1", LAT_LOOP_NCOLS, cols);
	struct lat_render_opts o;
	struct lat_render_buf out = { 0 };
	struct rd_series_input in = { NULL, NULL };
	struct rd_chart c;
	cairo_surface_t *img;
	double x, y;

	(void)state;
	assert_non_null(b);
	assert_non_null(s);
	for (int64_t i = 0; i < 200000; i++) {
		/* every 1 ms; 50 us stalls, a 5 ms one at row 100000 */
		int64_t row[LAT_LOOP_NCOLS] = { i * 1000000, 1000, 1000000,
						i == 100000 ? 5000000 : 50000, 0 };

		assert_int_equal(lat_series_push(s, row, (uint32_t)i + 1), 0);
	}
	assert_int_equal(lat_block_add_series(b, s), 0);
	lat_render_opts_init(&o);
	o.format = LAT_RENDER_SVG;
	assert_int_equal(lat_render_series(b, NULL, &o, &out), 0);
	assert_true(out.len < 2u << 20);
	assert_int_equal(xmllint_ok(&out), 0);
	/* the lone 5 ms spike survives the folding */
	o.format = LAT_RENDER_PNG;
	in.b = b;
	img = rd_chart_image(&rd_series_ops, &in, &o, &c);
	assert_non_null(img);
	x = rd_axis_map(&c.x, 100000 * 1e6);
	y = rd_axis_map(&c.y, 5e6);
	assert_true(rgb_dist(px(img, floor(x) + 0.5, y + 2), rd_palette(0)) < 0.2);
	cairo_surface_destroy(img);
	rd_series_ops.release(&c);
	lat_render_buf_release(&out);
	lat_block_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_freeze_where_the_row_says),
		cmocka_unit_test(test_two_processes),
		cmocka_unit_test(test_mail_blocks_and_svg),
		cmocka_unit_test(test_dense_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
