// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A chart for every input with numbers (issue 28): the summary rows of
 * histograms that hold only what the tool printed (cyclictest T: lines, rtla
 * timerlat top, perf sched latency), from one row to 256 CPUs, the worst of
 * each kind highlighted, no two texts overlapping; and a latency trace pasted
 * without its entries.  Expected numbers come from the samples by grep / awk
 * (in each test's comment), never from the chart code.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "latscope/analyze.h"
#include "latscope/fntrace.h"
#include "latscope/input.h"
#include "render_test_util.h"

static struct lat_block *load(struct lat_loaded *ld, const char *path)
{
	struct lat_analyze_opts ao;

	lat_analyze_opts_init(&ao);
	assert_int_equal(lat_load(ld, path, NULL), 0);
	assert_true(ld->nblocks >= 1);
	assert_int_equal(lat_analyze_block(ld->blocks[0], &ao), 0);
	return ld->blocks[0];
}

/* The block drawn by the dispatcher (a PNG in memory): it has a chart now. */
static void renders(const struct lat_block *b)
{
	struct lat_render_opts o;
	struct lat_render_buf buf = { 0 };

	lat_render_opts_init(&o);
	assert_int_equal(lat_render_block(b, &o, &buf), 0);
	assert_true(buf.len > 1000);
	lat_render_buf_release(&buf);
}

/* Every text of the layout inside the plot and clear of every other. */
static void texts_apart(const struct rd_chart *c, const struct rd_ranges_layout *l)
{
	for (size_t i = 0; i < l->ntext; i++) {
		assert_true(rect_inside(&l->text[i].box, &c->plot));
		for (size_t j = i + 1; j < l->ntext; j++)
			assert_false(rects_overlap(&l->text[i].box, &l->text[j].box));
	}
}

/* The text @s of the layout (and whether it is the red one), or -1. */
static int find_text(const struct rd_ranges_layout *l, const char *s)
{
	for (size_t i = 0; i < l->ntext; i++)
		if (!strcmp(l->text[i].s, s))
			return l->text[i].alert;
	return -1;
}

/* The max dot of bar @i is red (the worst) or not. */
static int dot_red(cairo_surface_t *s, const struct rd_ranges_layout *l, size_t i)
{
	const struct rd_rg_bar *b = &l->bar[i];

	return is_alert_red(px(s, rd_axis_map(&l->colx[b->col], b->hi), b->y));
}

/*
 * The summary rows of sample @path's first block at @w x @h (0: the default
 * size), after checking that the block renders through the dispatcher.
 */
static cairo_surface_t *draw_sample(struct lat_loaded *ld, const char *path, int w, int h,
				    struct rd_chart *c)
{
	struct lat_block *b = load(ld, path);
	struct rd_hist_input in = { b->hist, b->nhist, b->title, NULL, NULL, NULL, 0, NULL };
	struct lat_render_opts o;
	cairo_surface_t *s;

	renders(b);
	lat_render_opts_init(&o);
	if (w) {
		o.width = w;
		o.height = h;
	}
	s = rd_chart_image(&rd_ranges_ops, &in, &o, c);
	assert_non_null(s);
	return s;
}

/* The texts apart, then everything released. */
static void done(cairo_surface_t *s, struct rd_chart *c, struct lat_loaded *ld)
{
	texts_apart(c, c->priv);
	cairo_surface_destroy(s);
	rd_ranges_ops.release(c);
	if (ld)
		lat_loaded_release(ld);
}

/*
 * cyclictest/default.txt: one thread; its last T: line (grep '^T:' | tail -1)
 * "C: 2000 Min: 11 Act: 74 Avg: 72 Max: 1436" (us).  One row, its max red, the
 * row named "thread 0" in red with "1.44 ms · n 2000" beside the bars.
 */
static void test_cyclictest_one_row(void **state)
{
	struct lat_loaded ld;
	struct rd_chart c;
	cairo_surface_t *s = draw_sample(&ld, LAT_SAMPLES_DIR "/cyclictest/default.txt", 0, 0, &c);
	const struct rd_ranges_layout *l = c.priv;

	(void)state;
	dump_png(s, "summary-one-row.png");
	assert_int_equal(l->nrows, 1);
	assert_int_equal(l->nbars, 1);
	assert_true(l->bar[0].lo == 11000 && l->bar[0].mid == 72000 && l->bar[0].hi == 1436000);
	assert_int_equal(l->bar[0].count, 2000);
	assert_true(l->bar[0].mid_avg && !l->bar[0].bounds);
	/* 11 us .. 1.44 ms spans more than 100x: a log axis */
	assert_true(c.x.log);
	assert_int_equal(find_text(l, "thread 0"), 1);
	assert_int_equal(find_text(l, "1.44 ms \xc2\xb7 n 2000"), 1);
	assert_true(dot_red(s, l, 0));
	/* the average's tick is dark, on the bar */
	assert_true(rgb_dist(px(s, rd_axis_map(&l->colx[0], 72000), l->bar[0].y),
			     (struct rd_rgb){ 0.15, 0.15, 0.15 }) < 0.1);
	assert_non_null(strstr(c.subtitle, "thread 0: max 1.44 ms \xc2\xb7 n 2000"));
	done(s, &c, &ld);
}

/*
 * rtla/timerlat-top-aa.txt: 23 CPUs (1-23) with IRQ and Thread columns;
 * awk '$3=="|" && $1 ~ /^[0-9]+$/' over the rows (less the duration line
 * "0 00:00:12 |") gives the IRQ max 28 us and the Thread max 41 us, both on
 * CPU 23 (row "23 #12320 | 28 0 1 28 | 41 3 11 41").  Titles "IRQ cpu23" /
 * "Thread cpu23" are two kinds of one row.
 */
static void test_rtla_top_kinds(void **state)
{
	struct lat_loaded ld;
	struct rd_chart c;
	cairo_surface_t *s = draw_sample(&ld, LAT_SAMPLES_DIR "/rtla/timerlat-top-aa.txt", 1200,
					 675, &c);
	const struct rd_ranges_layout *l = c.priv;
	size_t w0, w1, red = 0;

	(void)state;
	assert_int_equal(l->nrows, 23);
	assert_int_equal(l->nkinds, 2);
	assert_string_equal(l->kind[0], "IRQ");
	assert_string_equal(l->kind[1], "Thread");
	assert_string_equal(l->row_name[0], "cpu1");
	assert_string_equal(l->row_name[22], "cpu23");
	assert_int_equal(l->label_every, 1);
	w0 = l->worst[0];
	w1 = l->worst[1];
	assert_string_equal(l->row_name[l->bar[w0].row], "cpu23");
	assert_string_equal(l->row_name[l->bar[w1].row], "cpu23");
	assert_true(l->bar[w0].hi == 28000 && l->bar[w1].hi == 41000);
	assert_int_equal(l->worst_all, w1);
	/* both worst dots red, no other */
	for (size_t i = 0; i < l->nbars; i++)
		red += dot_red(s, l, i);
	assert_int_equal(red, 2);
	assert_true(dot_red(s, l, w0) && dot_red(s, l, w1));
	/* every row named, once */
	for (size_t r = 0; r < l->nrows; r++)
		assert_true(find_text(l, l->row_name[r]) >= 0);
	assert_int_equal(find_text(l, "cpu23"), 1);
	/* 0 .. 41 us is less than 100x the smallest positive value (1 us): linear */
	assert_false(c.x.log);
	done(s, &c, &ld);
}

/*
 * perf-sched/latency.txt prints no minimum: the bars run pale from the axis;
 * 24 tasks (grep -c ' | avg:'); the largest max is cc1:(8), "max: 41.168 ms"
 * with 485 switches (sort -t'|' -k5).
 */
static void test_perf_sched_no_min(void **state)
{
	struct lat_loaded ld;
	struct rd_chart c;
	cairo_surface_t *s = draw_sample(&ld, LAT_SAMPLES_DIR "/perf-sched/latency.txt", 0, 0, &c);
	const struct rd_ranges_layout *l = c.priv;

	(void)state;
	assert_int_equal(l->nrows, 24);
	assert_int_equal(l->nkinds, 1);
	for (size_t i = 0; i < l->nbars; i++)
		assert_true(isnan(l->bar[i].lo));
	assert_string_equal(l->row_name[l->bar[l->worst_all].row], "cc1:(8)");
	assert_true(l->bar[l->worst_all].hi == 41168000);
	assert_int_equal(l->bar[l->worst_all].count, 485);
	assert_int_equal(find_text(l, "cc1:(8)"), 1);
	assert_int_equal(find_text(l, "41.2 ms \xc2\xb7 n 485"), 1);
	assert_true(dot_red(s, l, l->worst_all));
	done(s, &c, &ld);
}

/*
 * rtla/hwnoise-doc-ideal.txt: 7 CPUs (1-7), every Max Single 0 us (awk '$2 ~ /^#/ { print
 * $7 }': seven 0s).  No row is worse than another: no name or dot red, the
 * subtitle says "every row", and the dots at 0 stay clear of the row names.
 */
static void test_all_zero(void **state)
{
	struct lat_loaded ld;
	struct rd_chart c;
	cairo_surface_t *s = draw_sample(&ld, LAT_SAMPLES_DIR "/rtla/hwnoise-doc-ideal.txt", 0, 0,
					 &c);
	const struct rd_ranges_layout *l = c.priv;

	(void)state;
	assert_int_equal(l->nrows, 7);
	assert_int_equal(l->flat, 1);
	for (size_t i = 0; i < l->nbars; i++) {
		assert_true(l->bar[i].hi == 0);
		assert_false(dot_red(s, l, i));
	}
	assert_int_equal(find_text(l, "cpu1"), 0);
	assert_non_null(strstr(c.subtitle, "every row: max 0 ns"));
	assert_null(strstr(c.subtitle, "worst"));
	/* the dot's left edge (radius bar_h / 2 + 0.5) right of every name */
	for (size_t i = 0; i < l->ntext; i++)
		if (!strncmp(l->text[i].s, "cpu", 3))
			assert_true(l->text[i].box.x + l->text[i].box.w <=
				    rd_axis_map(&l->colx[0], 0) - l->bar_h / 2 - 0.5);
	done(s, &c, &ld);
}

/* A summary-only histogram as a reader makes it: "KIND cpuN", min/avg/max in us. */
static struct lat_histogram *summary(const char *kind, int cpu, int64_t count, int64_t min_us,
				     int64_t avg_us, int64_t max_us)
{
	struct lat_histogram *h = calloc(1, sizeof(*h));
	char t[64];

	assert_non_null(h);
	snprintf(t, sizeof(t), "%s cpu%d", kind, cpu);
	h->title = strdup(t);
	h->printed_total = (uint64_t)-1;
	h->has_printed = 1;
	h->printed = (struct lat_hist_printed){ count, min_us * 1000, avg_us * 1000,
						max_us * 1000 };
	return h;
}

/*
 * A 256-CPU rtla top (IRQ and Thread per CPU): Thread maxima 20..59 us but
 * 900 us on CPU 137, IRQ maxima 5..14 us but 100 us on CPU 3.  At 1200x675
 * and at 1600x900 every CPU has its row, the rows wrap into columns, the two
 * worst CPUs are named in red with their values, and no texts overlap.
 */
static void test_256_cpus(void **state)
{
	enum { N = 256 };
	static const int sizes[2][2] = { { 1200, 675 }, { 1600, 900 } };
	struct lat_histogram *h[2 * N];
	struct rd_hist_input in = { h, 2 * N, "rtla timerlat top, 256 CPUs", NULL, NULL, NULL,
				     0, NULL };

	(void)state;
	for (int cpu = 0; cpu < N; cpu++) {
		h[2 * cpu] = summary("IRQ", cpu, 10000 + cpu, 1, 2, cpu == 3 ? 100 : 5 + cpu % 10);
		h[2 * cpu + 1] = summary("Thread", cpu, 10000 + cpu, 3, 9,
					 cpu == 137 ? 900 : 20 + cpu % 40);
	}
	for (int k = 0; k < 2; k++) {
		struct lat_render_opts o;
		const struct rd_ranges_layout *l;
		struct rd_chart c;
		cairo_surface_t *s;
		size_t named = 0;

		lat_render_opts_init(&o);
		o.width = sizes[k][0];
		o.height = sizes[k][1];
		s = rd_chart_image(&rd_ranges_ops, &in, &o, &c);
		assert_non_null(s);
		if (k == 0)
			dump_png(s, "summary-256-cpus.png");
		l = c.priv;
		assert_int_equal(l->nrows, N);
		assert_int_equal(l->nbars, 2 * N);
		assert_int_equal(l->nkinds, 2);
		assert_true(l->ncols >= 2 && l->ncols * l->rows_per_col >= N);
		/* two bars per row, each at least a pixel and a half apart */
		assert_true(l->pitch >= 3);
		for (size_t i = 0; i < l->nbars; i++) {
			const struct rd_rg_bar *b = &l->bar[i];
			const struct rd_axis *a = &l->colx[b->col];
			double x = rd_axis_map(a, b->hi);

			assert_true(b->y > c.plot.y && b->y < c.plot.y + c.plot.h);
			assert_true(x >= a->p0 - 0.5 && x <= a->p1 + 0.5);
			assert_int_equal(b->hist, i);
		}
		assert_int_equal(l->worst[0], 2 * 3);
		assert_int_equal(l->worst[1], 2 * 137 + 1);
		assert_int_equal(l->worst_all, 2 * 137 + 1);
		assert_true(dot_red(s, l, l->worst[0]) && dot_red(s, l, l->worst[1]));
		assert_int_equal(find_text(l, "cpu137"), 1);
		assert_int_equal(find_text(l, "cpu3"), 1);
		for (size_t i = 0; i < l->ntext; i++)
			named += !strncmp(l->text[i].s, "cpu", 3);
		/* every label_every-th row named, less those the worst rows' names hide */
		assert_true(named >= N / l->label_every - 4);
		done(s, &c, NULL);
	}
	for (int i = 0; i < 2 * N; i++)
		lat_histogram_free(h[i]);
}

/*
 * rt-lattrace/v1.0.1-vogel-header-only-408us.txt: " latency: 408 us, entries:
 * 2273 (2273)" and no entry; the chart is the latency, blamed on nothing.
 */
static void test_header_only_trace(void **state)
{
	struct lat_loaded ld;
	struct lat_block *b = load(&ld, LAT_SAMPLES_DIR
				   "/rt-lattrace/v1.0.1-vogel-header-only-408us.txt");

	(void)state;
	assert_non_null(b->fntrace);
	assert_true(b->fntrace->latency_ns == 408000);
	assert_int_equal(b->fntrace->n, 0);
	renders(b);
	lat_loaded_release(&ld);
}

/*
 * rtla/timerlat-hist-usr-lkml.txt ends with one bpf_trace_printk line of the
 * trace rtla saved (line 22, block 2): no wait, no chart, and it says so.
 */
static void test_trace_without_waits(void **state)
{
	struct lat_loaded ld;
	struct lat_analyze_opts ao;
	struct lat_render_opts o;
	struct lat_render_buf buf = { 0 };
	struct lat_block *b;

	(void)state;
	lat_analyze_opts_init(&ao);
	ao.timelines = 1;
	assert_int_equal(lat_load(&ld, LAT_SAMPLES_DIR "/rtla/timerlat-hist-usr-lkml.txt", NULL),
			 0);
	assert_int_equal(ld.nblocks, 2);
	b = ld.blocks[1];
	assert_int_equal(b->first_line, 22);
	assert_int_equal(lat_analyze_block(b, &ao), 0);
	lat_render_opts_init(&o);
	assert_int_equal(lat_render_block(b, &o, &buf), -LAT_EEMPTY);
	assert_string_equal(buf.msg, "1 event and no wakeup or preemption wait among them: no "
			    "timeline to draw");
	lat_render_buf_release(&buf);
	lat_loaded_release(&ld);
}

/*
 * Hostile names (markup, a control character, invalid UTF-8) and a kind of
 * its own: a well-formed SVG, the same bytes twice.
 */
static void test_hostile_svg(void **state)
{
	struct lat_histogram *h[3] = { summary("IRQ", 0, 5, 1, 2, 3),
				       summary("Thread", 0, 5, 2, 3, 9),
				       summary("IRQ", 1, 5, 1, 2, 4) };
	struct lat_render_opts o;
	struct lat_render_buf b[2] = { { 0 }, { 0 } };

	(void)state;
	free(h[2]->title);
	h[2]->title = strdup("IRQ <b>&\x01\xff\xfe</b>");
	lat_render_opts_init(&o);
	o.format = LAT_RENDER_SVG;
	for (int k = 0; k < 2; k++)
		assert_int_equal(lat_render_histogram(h, 3, "<svg> & \"x\"", &o, &b[k]), 0);
	assert_int_equal(b[0].len, b[1].len);
	assert_memory_equal(b[0].data, b[1].data, b[0].len);
	assert_int_equal(xmllint_ok(&b[0]), 0);
	for (int k = 0; k < 2; k++)
		lat_render_buf_release(&b[k]);
	for (int k = 0; k < 3; k++)
		lat_histogram_free(h[k]);
}

/* Histograms with neither samples nor a printed summary: still nothing to draw. */
static void test_nothing(void **state)
{
	struct lat_histogram *h = summary("IRQ", 0, 0, 0, 0, 0);
	struct lat_render_opts o;
	struct lat_render_buf b = { 0 };

	(void)state;
	h->has_printed = 0;
	lat_render_opts_init(&o);
	assert_int_equal(lat_render_histogram(&h, 1, NULL, &o, &b), -LAT_EEMPTY);
	assert_non_null(strstr(b.msg, "no samples and no printed summary"));
	lat_render_buf_release(&b);
	lat_histogram_free(h);
}

/*
 * samples/kernel-tracers/hwlat-lkml-2023-mgag200-flowed.txt, block 3 (lines
 * 55-66): "# tracer: hwlat" with "entries-in-buffer/entries-written: 0/0", no
 * row.  Its chart (histogram) has nothing to draw: the message says what the
 * reader found, not "a histogram chart does not fit this block".
 */
static void test_empty_block_says_why(void **state)
{
	struct lat_loaded ld = { 0 };
	struct lat_render_opts o;
	struct lat_render_buf b = { 0 };
	const struct lat_block *blk;

	(void)state;
	load(&ld, LAT_SAMPLES_DIR "/kernel-tracers/hwlat-lkml-2023-mgag200-flowed.txt");
	assert_int_equal(ld.nblocks, 3);
	blk = ld.blocks[2];
	assert_int_equal(blk->first_line, 55);
	lat_render_opts_init(&o);
	assert_int_equal(lat_render_block(blk, &o, &b), -LAT_EEMPTY);
	assert_string_equal(b.msg, "nothing to draw: no sample in this trace "
			    "(entries-in-buffer/entries-written: 0/0): nothing reached the "
			    "tracer's threshold while it ran");
	/* a chart asked that does not fit this kind of block still says so */
	o.chart = LAT_CHART_SERIES;
	assert_int_equal(lat_render_block(blk, &o, &b), -LAT_EUSAGE);
	assert_non_null(strstr(b.msg, "a series chart does not fit this block"));
	lat_render_buf_release(&b);
	lat_loaded_release(&ld);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cyclictest_one_row),
		cmocka_unit_test(test_rtla_top_kinds),
		cmocka_unit_test(test_perf_sched_no_min),
		cmocka_unit_test(test_all_zero),
		cmocka_unit_test(test_256_cpus),
		cmocka_unit_test(test_header_only_trace),
		cmocka_unit_test(test_trace_without_waits),
		cmocka_unit_test(test_hostile_svg),
		cmocka_unit_test(test_nothing),
		cmocka_unit_test(test_empty_block_says_why),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
