// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Renderer core: UTF-8 cleaning of hostile input, elision, axes (ticks,
 * units, mapping), options, chart names, the blame chart, and the SVG ids renumbered.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "render_test_util.h"

static void test_utf8_clean(void **state)
{
	char out[64];

	(void)state;
	/* a byte that cannot start a sequence, a control, a tab, valid µ */
	assert_string_equal(rd_utf8_clean("a\xff" "b\x01" "c\td\xc2\xb5", (size_t)-1, out,
					   sizeof(out)), "a\xef\xbf\xbd" "b\xef\xbf\xbd" "c d\xc2\xb5");
	/* overlong '/', a lone continuation byte, a surrogate, a truncated sequence */
	assert_string_equal(rd_utf8_clean("\xc0\xaf", (size_t)-1, out, sizeof(out)),
			    "\xef\xbf\xbd\xef\xbf\xbd");
	assert_string_equal(rd_utf8_clean("\x80", (size_t)-1, out, sizeof(out)), "\xef\xbf\xbd");
	assert_string_equal(rd_utf8_clean("\xed\xa0\x80", (size_t)-1, out, sizeof(out)),
			    "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	assert_string_equal(rd_utf8_clean("x\xe2\x82", (size_t)-1, out, sizeof(out)),
			    "x\xef\xbf\xbd\xef\xbf\xbd");
	/* a fixed-size comm without NUL: only @len bytes are read */
	assert_string_equal(rd_utf8_clean("abcdef", 3, out, sizeof(out)), "abc");
	/* never cuts a character: "aaaa€" into 7 bytes keeps "aaaa" (€ is 3 bytes + NUL) */
	assert_string_equal(rd_utf8_clean("aaaa\xe2\x82\xac", (size_t)-1, out, 7), "aaaa");
	assert_string_equal(rd_utf8_clean("aaaa\xe2\x82\xac", (size_t)-1, out, 8),
			    "aaaa\xe2\x82\xac");
	assert_string_equal(rd_utf8_clean(NULL, 0, out, sizeof(out)), "");
}

static void test_text_fit(void **state)
{
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 4, 4);
	cairo_t *cr = cairo_create(s);
	char out[128];
	size_t n;

	(void)state;
	rd_font(cr, 12, 0);
	assert_string_equal(rd_text_fit(cr, "short", 500, out, sizeof(out)), "short");
	rd_text_fit(cr, "a-very-long-task-name-that-cannot-fit\xff", 80, out, sizeof(out));
	n = strlen(out);
	assert_true(n > 3);
	assert_memory_equal(out + n - 3, "\xe2\x80\xa6", 3);
	assert_true(rd_text_width(cr, out) <= 80);
	assert_int_equal(cairo_status(cr), CAIRO_STATUS_SUCCESS);
	/* invalid UTF-8 through cairo would put the context in an error state */
	rd_utf8_clean("\xff\xfe<&>", (size_t)-1, out, sizeof(out));
	rd_text(cr, 0, 10, 0, out);
	assert_int_equal(cairo_status(cr), CAIRO_STATUS_SUCCESS);
	cairo_destroy(cr);
	cairo_surface_destroy(s);
}

static void test_linear_axis(void **state)
{
	struct rd_axis a = { .lo = 0, .hi = 3.6e9, .unit = LAT_UNIT_NS };

	(void)state;
	snprintf(a.title, sizeof(a.title), "time");
	rd_axis_nice_range(&a, 10);
	/* 3.6 s / 10 -> steps of 0.5 s; the range is widened to 4 s */
	assert_true(a.lo == 0 && fabs(a.hi - 4e9) < 1);
	a.p0 = 100;
	a.p1 = 900;
	rd_axis_ticks(&a, 10);
	assert_int_equal(a.nticks, 9);
	assert_string_equal(a.tick_label[0], "0.0");
	assert_string_equal(a.tick_label[3], "1.5");
	assert_string_equal(a.tick_label[8], "4.0");
	assert_string_equal(a.title, "time [s]");
	assert_true(fabs(rd_axis_map(&a, 2e9) - 500) < 1e-9);
	/* ticks again do not stack units in the title */
	rd_axis_ticks(&a, 10);
	assert_string_equal(a.title, "time [s]");

	a = (struct rd_axis){ .lo = 0, .hi = 45000, .unit = LAT_UNIT_NS };
	rd_axis_ticks(&a, 5);
	assert_string_equal(a.title, " [\xc2\xb5s]");
	assert_string_equal(a.tick_label[1], "10");
	a = (struct rd_axis){ .lo = 0, .hi = 4.5e8, .unit = LAT_UNIT_CYCLES };
	rd_axis_ticks(&a, 10);
	assert_string_equal(a.tick_label[1], "50");
	assert_non_null(strstr(a.title, "[Mcycles]"));
}

static void test_log_axis(void **state)
{
	struct rd_axis a = { .lo = 48000, .hi = 2.5e9, .log = 1, .unit = LAT_UNIT_NS, .p0 = 800,
			      .p1 = 100 };
	const char *want[] = { "10 \xc2\xb5s", "100 \xc2\xb5s", "1 ms", "10 ms", "100 ms", "1 s",
			       "10 s" };
	int k = 0;

	(void)state;
	rd_axis_nice_range(&a, 8);
	assert_true(fabs(a.lo - 1e4) < 1e-6 && fabs(a.hi - 1e10) < 1e-3);
	rd_axis_ticks(&a, 8);
	for (int i = 0; i < a.nticks; i++)
		if (a.tick_label[i][0])
			assert_string_equal(a.tick_label[i], want[k++]);
	assert_int_equal(k, 7);
	/* 1e7 is three of six decades up */
	assert_true(fabs(rd_axis_map(&a, 1e7) - 450) < 1e-6);
	/* nothing below the floor: zero maps to the bottom */
	assert_true(fabs(rd_axis_map(&a, 0) - 800) < 1e-6);
}

static void test_opts_and_names(void **state)
{
	struct lat_render_opts o;
	struct lat_render_buf b = { 0 };
	struct lat_blame_row row = { "f", 1, 1, 1 };
	enum lat_chart_kind k;

	(void)state;
	lat_render_opts_init(&o);
	assert_int_equal(o.width, 1600);
	assert_int_equal(o.height, 900);
	for (int i = 0; i < LAT_CHART_NKINDS; i++) {
		assert_int_equal(lat_chart_from_name(lat_chart_name((enum lat_chart_kind)i), &k), 0);
		assert_int_equal(k, i);
	}
	assert_int_equal(lat_chart_from_name("pie", &k), -LAT_EUSAGE);
	o.width = 10;
	assert_int_equal(lat_render_blame(&row, 1, 0, NULL, &o, &b), -LAT_EUSAGE);
	assert_non_null(strstr(b.msg, "size"));
	lat_render_buf_release(&b);
}

static void test_blame(void **state)
{
	/* self + callees: schedule() 3 ms total of which 1 ms self, over a 10 ms whole */
	static const struct lat_blame_row rows[] = {
		{ "_raw_spin_lock_irqsave", 4000000, 4000000, 1200 },
		{ "schedule", 1000000, 3000000, 40 },
		{ "<hostile>&\"name\"\xff with a tail long enough to need an ellipsis in the chart",
		  500000, 600000, 1 },
	};
	struct lat_render_opts o;
	struct lat_render_buf b = { 0 }, b2 = { 0 };
	struct rd_chart c;
	struct rd_blame_input in = { rows, 3, 10000000, "fn dump" };
	cairo_surface_t *s;
	double y;

	(void)state;
	lat_render_opts_init(&o);
	s = rd_chart_image(&rd_blame_ops, &in, &o, &c);
	assert_non_null(s);
	dump_png(s, "blame.png");
	assert_non_null(strstr(c.subtitle, "3 of 3 rows"));
	assert_non_null(strstr(c.subtitle, "self 4 ms (40.0%)"));
	/* schedule's row: self bar up to 1 ms, the inclusive bar on to 3 ms */
	y = c.plot.y + 6 + 1.5 * 30;
	assert_true(rgb_dist(px(s, rd_axis_map(&c.x, 0.5e6), y), rd_palette(0)) < 0.02);
	assert_true(rgb_dist(px(s, rd_axis_map(&c.x, 2e6), y),
			     (struct rd_rgb){ 0.72, 0.82, 0.91 }) < 0.02);
	assert_true(rgb_dist(px(s, rd_axis_map(&c.x, 3.4e6), y), rd_palette(0)) > 0.3);
	cairo_surface_destroy(s);
	rd_blame_ops.release(&c);
	o.format = LAT_RENDER_SVG;
	assert_int_equal(lat_render_blame(rows, 3, 0, "<t>", &o, &b), 0);
	assert_int_equal(xmllint_ok(&b), 0);
	assert_int_equal(lat_render_blame(rows, 3, 0, "<t>", &o, &b2), 0);
	assert_int_equal(b.len, b2.len);
	assert_memory_equal(b.data, b2.data, b.len);
	lat_render_buf_release(&b);
	lat_render_buf_release(&b2);
}

/* Odd models must give a chart or an error, never a crash or a cairo error state. */
static void test_odd_inputs(void **state)
{
	static const struct lat_column cols[LAT_LOOP_NCOLS] = {
		{ "ts", LAT_UNIT_TS_NS }, { "wait", LAT_UNIT_NS }, { "loop", LAT_UNIT_NS },
		{ "max", LAT_UNIT_NS }, { "nbmax", LAT_UNIT_COUNT },
	};
	const int64_t rows[][LAT_LOOP_NCOLS] = {
		{ 5, LAT_VALUE_NONE, LAT_VALUE_NONE, LAT_VALUE_NONE, LAT_VALUE_NONE },
		{ INT64_MAX, -7, INT64_MAX, 0, 3 },
		{ INT64_MIN + 1, 0, 0, LAT_VALUE_NONE, LAT_VALUE_NONE },
	};
	struct lat_block *b = lat_block_new(NULL, LAT_SCHEMA_LOOP);
	struct lat_series *s = lat_series_new("\xff<odd>", LAT_LOOP_NCOLS, cols);
	struct lat_tl_slice sl[3] = {
		{ .start_ns = 50, .end_ns = 10, .cpu = 0, .pid = 1 },	/* ends before it starts */
		{ .start_ns = 0, .end_ns = UINT64_MAX, .cpu = -3, .pid = 2 },
		{ .start_ns = 10, .end_ns = 20, .cpu = 4000, .pid = 3 },
	};
	struct lat_timeline t = { .start_ns = 0, .end_ns = 100, .ncpus = 1, .slices = sl,
				  .nslices = 3 };
	struct lat_render_opts o;
	struct lat_render_buf out = { 0 };
	int ret;

	(void)state;
	lat_render_opts_init(&o);
	assert_non_null(b);
	assert_non_null(s);
	/* one odd series of three rows, and an empty one */
	for (size_t i = 0; i < LAT_ARRAY_SIZE(rows); i++)
		assert_int_equal(lat_series_push(s, rows[i], (uint32_t)i + 1), 0);
	assert_int_equal(lat_block_add_series(b, s), 0);
	assert_int_equal(lat_block_add_series(b, lat_series_new("e", LAT_LOOP_NCOLS, cols)), 0);
	assert_int_equal(lat_render_block(b, &o, &out), 0);
	lat_block_free(b);
	/* 4001 CPUs, 3999 of them with nothing: one thin row between CPU 0 and CPU 4000 */
	assert_int_equal(lat_render_timeline(&t, &o, &out), 0);
	/* but not in 200 pixels (three rows): an error that says so */
	o.height = 200;
	ret = lat_render_timeline(&t, &o, &out);
	assert_int_equal(ret, -LAT_EUSAGE);
	assert_non_null(strstr(out.msg, "4001 CPUs do not fit in 200 pixels: use --size"));
	o.height = 900;
	sl[2].cpu = 1;
	assert_int_equal(lat_render_timeline(&t, &o, &out), 0);
	o.has_window = 1;
	o.window_start_ns = INT64_MAX;
	o.window_end_ns = -1;
	assert_int_equal(lat_render_timeline(&t, &o, &out), -LAT_EUSAGE);
	lat_render_buf_release(&out);
}

/* @in renumbered into a NUL-terminated copy (static buffer) */
static const char *renumber(const char *in)
{
	static char out[1024];
	struct lat_render_buf b = { .data = NULL };

	b.data = malloc(strlen(in) + 1);
	assert_non_null(b.data);
	memcpy(b.data, in, strlen(in));
	b.len = b.cap = strlen(in);
	assert_int_equal(rd_svg_renumber_ids(&b), 0);
	assert_true(b.len < sizeof(out));
	if (b.len)
		memcpy(out, b.data, b.len);
	out[b.len] = 0;
	lat_render_buf_release(&b);
	return out;
}

static void test_svg_ids(void **state)
{
	(void)state;
	/* cairo's process-wide numbers: the surface, the source images */
	assert_string_equal(renumber("<g id=\"surface57\"><image id=\"image30\" "
				     "xlink:href=\"data:image/png;base64,aWQ9Ig==\"/>"
				     "<pattern id=\"pattern0\"><use xlink:href=\"#image30\"/>"
				     "</pattern><rect style=\"fill:url(#pattern0);\"/>"
				     "<use xlink:href=\"#image30\"/></g>"),
			    "<g id=\"surface1\"><image id=\"image1\" "
			    "xlink:href=\"data:image/png;base64,aWQ9Ig==\"/>"
			    "<pattern id=\"pattern1\"><use xlink:href=\"#image1\"/>"
			    "</pattern><rect style=\"fill:url(#pattern1);\"/>"
			    "<use xlink:href=\"#image1\"/></g>");
	/* per prefix, in order of first sight, a reference before its definition too */
	assert_string_equal(renumber("<use xlink:href=\"#glyph0-7\"/><symbol id=\"glyph0-3\"/>"
				     "<symbol id=\"glyph0-7\"/><clipPath id=\"clip9\"/>"
				     "<g clip-path=\"url(#clip9)\"/><g id=\"glyph1-1\"/>"),
			    "<use xlink:href=\"#glyph1\"/><symbol id=\"glyph2\"/>"
			    "<symbol id=\"glyph1\"/><clipPath id=\"clip1\"/>"
			    "<g clip-path=\"url(#clip1)\"/><g id=\"glyph3\"/>");
	/* a number grows past its digits: pattern9 is the 10th */
	assert_string_equal(renumber("<p id=\"p9\"/><p id=\"p8\"/><p id=\"p7\"/><p id=\"p6\"/>"
				     "<p id=\"p5\"/><p id=\"p4\"/><p id=\"p3\"/><p id=\"p2\"/>"
				     "<p id=\"p1\"/><p id=\"p0\"/>"),
			    "<p id=\"p1\"/><p id=\"p2\"/><p id=\"p3\"/><p id=\"p4\"/>"
			    "<p id=\"p5\"/><p id=\"p6\"/><p id=\"p7\"/><p id=\"p8\"/>"
			    "<p id=\"p9\"/><p id=\"p10\"/>");
	/* not names: empty, other characters, too long, unterminated, a bare "#" elsewhere */
	assert_string_equal(renumber("<a id=\"\"/><a id=\"a b\"/><a href=\"#\"/>"
				     "<a id=\"x12345678901234567890123456789012345678901\"/>"
				     "<a style=\"fill:#ff0000\"/><a id=\"z1"),
			    "<a id=\"\"/><a id=\"a b\"/><a href=\"#\"/>"
			    "<a id=\"x12345678901234567890123456789012345678901\"/>"
			    "<a style=\"fill:#ff0000\"/><a id=\"z1");
	assert_string_equal(renumber(""), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_utf8_clean),
		cmocka_unit_test(test_text_fit),
		cmocka_unit_test(test_linear_axis),
		cmocka_unit_test(test_log_axis),
		cmocka_unit_test(test_opts_and_names),
		cmocka_unit_test(test_blame),
		cmocka_unit_test(test_odd_inputs),
		cmocka_unit_test(test_svg_ids),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
