// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The timeline chart against a hand-built timeline: the bracket spans the
 * x-range of its timestamps, slices sit in their CPU's lane in their task's
 * colour, idle stays blank, the legend names the tasks, hostile task names
 * keep the SVG well-formed, a million slices fold into a few rectangles,
 * merged spans are drawn hatched and labelled.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "render_test_util.h"

#define T0 1000000000ULL	/* window start, 1 s in the trace clock */
#define MS 1000000ULL

static void add_slice(struct lat_timeline *t, size_t *cap, int cpu, int pid, const char *comm,
		      uint64_t a, uint64_t b)
{
	struct lat_tl_slice *s;

	assert_int_equal(lat_grow(&t->slices, cap, t->nslices + 1, sizeof(*t->slices)), 0);
	s = &t->slices[t->nslices++];
	memset(s, 0, sizeof(*s));
	s->cpu = cpu;
	s->pid = pid;
	s->start_ns = a;
	s->end_ns = b;
	strncpy(s->comm, comm, LAT_COMM_LEN - 1);
}

/*
 * CPU 0: hog:200 runs 0-6.2 ms, rt-task:300 6.2-7 ms, idle after.
 * CPU 1: kworker/1:1:60 0-3 ms, irq 3.40-3.45 ms, irq/24-eth0:50 3.45-3.6 ms which wakes
 *        rt-task at 3.5 ms; idle 3.6-10 ms.
 * rt-task waits from 3.5 ms (waking) to 6.2 ms (switch-in): 2.7 ms, CPU 0 held by hog.
 */
static struct lat_timeline *build(const char *hog_comm)
{
	struct lat_timeline *t = calloc(1, sizeof(*t));
	size_t cap = 0;

	assert_non_null(t);
	t->start_ns = T0;
	t->end_ns = T0 + 10 * MS;
	t->ncpus = 2;
	add_slice(t, &cap, 0, 200, hog_comm, T0, T0 + 6200000);
	add_slice(t, &cap, 0, 300, "rt-task", T0 + 6200000, T0 + 7 * MS);
	add_slice(t, &cap, 1, 60, "kworker/1:1", T0, T0 + 3 * MS);
	add_slice(t, &cap, 1, 50, "irq/24-eth0", T0 + 3450000, T0 + 3600000);
	t->marks = calloc(2, sizeof(*t->marks));
	assert_non_null(t->marks);
	t->nmarks = 2;
	t->marks[0] = (struct lat_tl_mark){ .kind = LAT_TL_IRQ, .start_ns = T0 + 3400000,
					    .end_ns = T0 + 3450000, .cpu = 1, .value_ns = -1 };
	t->marks[1] = (struct lat_tl_mark){ .kind = LAT_TL_MARKER, .start_ns = T0 + 6200000,
					    .end_ns = T0 + 6200000, .cpu = 0, .pid = 300,
					    .value_ns = 2700000 };
	strcpy(t->marks[1].label, "probe");
	t->edges = calloc(1, sizeof(*t->edges));
	assert_non_null(t->edges);
	t->nedges = 1;
	t->edges[0] = (struct lat_tl_edge){ .ts_ns = T0 + 3500000, .from_cpu = 1, .to_cpu = 0,
					    .from_pid = 50, .to_pid = 300 };
	strcpy(t->edges[0].from_comm, "irq/24-eth0");
	t->brackets = calloc(1, sizeof(*t->brackets));
	assert_non_null(t->brackets);
	t->nbrackets = 1;
	t->brackets[0] = (struct lat_tl_bracket){ .start_ns = T0 + 3500000,
						  .end_ns = T0 + 6200000, .cpu = 0, .pid = 300,
						  .held_by_pid = 200, .held_ns = 2700000,
						  .held_tasks = 1 };
	strcpy(t->brackets[0].comm, "rt-task");
	strncpy(t->brackets[0].held_by_comm, hog_comm, LAT_COMM_LEN - 1);
	snprintf(t->title, sizeof(t->title), "hand-built wakeup");
	return t;
}

static void tl_free(struct lat_timeline *t)
{
	free(t->sums);
	free(t->slices);
	free(t->marks);
	free(t->edges);
	free(t->brackets);
	free(t);
}

static double xat(const struct rd_chart *c, uint64_t ts)
{
	const struct rd_tl_layout *l = c->priv;

	return rd_axis_map(&c->x, (double)(ts - l->v0));
}

static void test_geometry(void **state)
{
	struct lat_timeline *t = build("hog");
	struct lat_render_opts o;
	struct rd_chart c;
	const struct rd_tl_layout *l;
	cairo_surface_t *s;
	double x0, x1, y0mid, y1mid;

	(void)state;
	lat_render_opts_init(&o);
	s = rd_chart_image(&rd_timeline_ops, t, &o, &c);
	assert_non_null(s);
	dump_png(s, "timeline.png");
	l = c.priv;
	assert_int_equal(l->ncpus, 2);

	/* legend: the waiting task first, the one holding its CPU next, then by run time */
	assert_string_equal(c.legend[0].text, "rt-task:300");
	assert_string_equal(c.legend[1].text, "hog:200");
	assert_string_equal(c.legend[2].text, "kworker/1:1:60");
	assert_string_equal(c.legend[3].text, "irq/24-eth0:50");
	assert_int_equal(l->ntasks, 4);
	/* hog ran the whole 2.7 ms wait */
	assert_non_null(strstr(c.subtitle, "rt-task:300 on CPU 0, CPU held by hog:200 (100%)"));
	assert_int_equal(l->nempty, 0);	/* both CPUs have slices: no lane collapsed */
	/* build(): 4 slices of 4 tasks on 2 CPUs, one irq mark, one marker: counts agree */
	assert_non_null(strstr(c.subtitle, "4 slices, 4 tasks, 2 CPUs, 1 irq, 1 marker, "
				"0 migrations"));

	/* the bracket bar covers exactly [3.5 ms, 6.2 ms] of the axis */
	x0 = xat(&c, T0 + 3500000);
	x1 = xat(&c, T0 + 6200000);
	assert_true(x1 - x0 > 100);	/* 2.7 of 10 ms of a ~1200 px plot */
	assert_true(is_alert_red(px(s, (x0 + x1) / 2, l->bracket_y)));
	assert_true(is_alert_red(px(s, x0 + 3, l->bracket_y)));
	assert_true(is_alert_red(px(s, x1 - 3, l->bracket_y)));
	assert_false(is_alert_red(px(s, x0 - 6, l->bracket_y)));
	assert_false(is_alert_red(px(s, x1 + 6, l->bracket_y)));

	/* slices in their lane and colour; idle blank (lane background) */
	y0mid = rd_tl_lane_top(l, 0) + l->lane_h * 0.75;
	y1mid = rd_tl_lane_top(l, 1) + l->lane_h * 0.25;
	assert_true(rgb_dist(px(s, xat(&c, T0 + 2 * MS), y0mid), rd_palette(1)) < 0.02);
	assert_true(rgb_dist(px(s, xat(&c, T0 + 6600000), y0mid), rd_palette(0)) < 0.02);
	assert_true(rgb_dist(px(s, xat(&c, T0 + 1 * MS), y1mid), rd_palette(2)) < 0.02);
	assert_true(rgb_dist(px(s, xat(&c, T0 + 8 * MS), y0mid),
			     (struct rd_rgb){ 0.965, 0.965, 0.965 }) < 0.01);
	assert_true(rgb_dist(px(s, xat(&c, T0 + 5 * MS), y1mid),
			     (struct rd_rgb){ 0.965, 0.965, 0.965 }) < 0.01);
	/* the waker arrow: dark, on the waking instant, between the two lanes */
	assert_true(px(s, xat(&c, T0 + 3500000),
		       (rd_tl_lane_top(l, 1) + rd_tl_lane_top(l, 0) + l->lane_h) / 2).r < 0.3);

	cairo_surface_destroy(s);
	rd_timeline_ops.release(&c);
	tl_free(t);
}

/* No task ran most of the wait: the headline says the CPU was shared. */
static void test_shared_cpu(void **state)
{
	struct lat_timeline *t = build("hog");
	struct lat_render_opts o;
	struct rd_chart c;
	cairo_surface_t *s;

	(void)state;
	t->brackets[0].held_ns = 270000;	/* 10% of 2.7 ms */
	t->brackets[0].held_tasks = 301;
	lat_render_opts_init(&o);
	s = rd_chart_image(&rd_timeline_ops, t, &o, &c);
	assert_non_null(s);
	assert_non_null(strstr(c.subtitle, "CPU shared by 301 tasks, most by hog:200 (10%)"));
	cairo_surface_destroy(s);
	rd_timeline_ops.release(&c);
	t->brackets[0].held_tasks = 0;		/* a chain link: how many is not known */
	s = rd_chart_image(&rd_timeline_ops, t, &o, &c);
	assert_non_null(s);
	assert_non_null(strstr(c.subtitle, "CPU held most by hog:200 (10%)"));
	cairo_surface_destroy(s);
	rd_timeline_ops.release(&c);
	/* queued on CPU 1 for the first 0.54 ms of the wait, hog there all along */
	t->brackets[0].queued_cpu = 1;
	t->brackets[0].queued_until_ns = t->brackets[0].start_ns + 540000;
	t->brackets[0].held_ns = 540000;
	t->brackets[0].held_tasks = 1;
	s = rd_chart_image(&rd_timeline_ops, t, &o, &c);
	assert_non_null(s);
	assert_non_null(strstr(c.subtitle, "rt-task:300 on CPU 0, queued on CPU 1, held by "
					   "hog:200 (100%)"));
	cairo_surface_destroy(s);
	rd_timeline_ops.release(&c);
	tl_free(t);
}

/*
 * build() on 5 CPUs with one more slice on CPU 3: CPU 2 and CPU 4 have nothing
 * in the view, each a thin row of its own between/after the lanes.  A
 * --window from 6.5 ms (CPU 0 runs rt-task until 7 ms): CPU 1 has
 * nothing either (its last slice ends at 3.6 ms, no mark after): CPUs 1-2 are
 * one row.
 */
static void test_empty_lanes(void **state)
{
	struct lat_timeline *t = build("hog");
	size_t cap = t->nslices;
	struct lat_render_opts o;
	struct rd_chart c;
	const struct rd_tl_layout *l;
	cairo_surface_t *s;
	double y;

	(void)state;
	t->ncpus = 5;
	add_slice(t, &cap, 3, 70, "other", T0, T0 + 10 * MS);
	lat_render_opts_init(&o);
	s = rd_chart_image(&rd_timeline_ops, t, &o, &c);
	assert_non_null(s);
	dump_png(s, "timeline-empty-lanes.png");
	l = c.priv;
	assert_int_equal(l->ncpus, 5);
	assert_int_equal(l->nempty, 2);
	assert_int_equal(l->nempty_rows, 2);
	assert_non_null(strstr(c.subtitle, "5 CPUs (2 with no events), "));
	y = l->lane_y0 + 2 * (l->lane_h + l->lane_gap);
	assert_true(rd_tl_lane_top(l, 2) == y);
	assert_true(rd_tl_lane_top(l, 3) == y + l->thin_h + l->lane_gap);
	assert_true(rd_tl_lane_top(l, 4) == y + l->thin_h + 2 * l->lane_gap + l->lane_h);
	assert_true(l->thin_h < l->lane_h);
	/* the thin row is pale, not a task's colour: between CPU 1's and CPU 3's lanes */
	assert_true(rgb_dist(px(s, c.plot.x + c.plot.w - 3, y + l->thin_h / 2),
			     (struct rd_rgb){ 0.985, 0.985, 0.985 }) < 0.02);
	cairo_surface_destroy(s);
	rd_timeline_ops.release(&c);

	o.has_window = 1;
	o.window_start_ns = 6500000;
	o.window_end_ns = -1;
	s = rd_chart_image(&rd_timeline_ops, t, &o, &c);
	assert_non_null(s);
	l = c.priv;
	assert_int_equal(l->nempty, 3);
	assert_int_equal(l->nempty_rows, 2);
	assert_true(rd_tl_lane_top(l, 1) == rd_tl_lane_top(l, 2));
	cairo_surface_destroy(s);
	rd_timeline_ops.release(&c);
	tl_free(t);
}

static void test_window(void **state)
{
	struct lat_timeline *t = build("hog");
	struct lat_render_opts o;
	struct lat_render_buf b = { 0 };
	struct rd_chart c;
	cairo_surface_t *s;
	const struct rd_tl_layout *l;

	(void)state;
	lat_render_opts_init(&o);
	o.has_window = 1;
	o.window_start_ns = 3 * MS;
	o.window_end_ns = 7 * MS;
	s = rd_chart_image(&rd_timeline_ops, t, &o, &c);
	assert_non_null(s);
	l = c.priv;
	assert_int_equal(l->v0, T0 + 3 * MS);
	assert_int_equal(l->v1, T0 + 7 * MS);
	/* 3.5 ms is an eighth into the 4 ms view */
	assert_true(fabs(xat(&c, T0 + 3500000) - (c.plot.x + c.plot.w / 8)) < 0.5);
	cairo_surface_destroy(s);
	rd_timeline_ops.release(&c);

	o.window_start_ns = 20 * MS;
	o.window_end_ns = -1;
	assert_int_equal(lat_render_timeline(t, &o, &b), -LAT_EUSAGE);
	assert_non_null(strstr(b.msg, "--window"));
	lat_render_buf_release(&b);
	tl_free(t);
}

static void test_hostile_svg(void **state)
{
	/* markup, quotes, a control character and a byte that is not UTF-8 */
	struct lat_timeline *t = build("<b>&\"x\x01\xff'");
	struct lat_render_opts o;
	struct lat_render_buf b = { 0 }, b2 = { 0 };

	(void)state;
	snprintf(t->title, sizeof(t->title), "</svg><script>&amp \xc3\x28");
	lat_render_opts_init(&o);
	o.format = LAT_RENDER_SVG;
	o.source = "<evil>&.dat";
	assert_int_equal(lat_render_timeline(t, &o, &b), 0);
	assert_true(b.len > 1000);
	assert_int_equal(xmllint_ok(&b), 0);
	/* cairo drew the text as glyphs: no input text leaks into the markup */
	assert_null(memmem(b.data, b.len, "<script", 7));
	assert_null(memmem(b.data, b.len, "<evil", 5));
	/* same input, same bytes, even with cairo's process-wide surface numbering */
	assert_int_equal(lat_render_timeline(t, &o, &b2), 0);
	assert_int_equal(b.len, b2.len);
	assert_memory_equal(b.data, b2.data, b.len);
	o.format = LAT_RENDER_PNG;
	assert_int_equal(lat_render_timeline(t, &o, &b), 0);
	assert_int_equal(lat_render_timeline(t, &o, &b2), 0);
	assert_int_equal(b.len, b2.len);
	assert_memory_equal(b.data, b2.data, b.len);
	assert_memory_equal(b.data, "\x89PNG", 4);
	lat_render_buf_release(&b);
	lat_render_buf_release(&b2);
	tl_free(t);
}

/* Slices in any order draw the same chart as sorted ones (the analysis sorts, others may not). */
static void test_unsorted_slices(void **state)
{
	struct lat_timeline *t = build("hog");
	struct lat_render_opts o;
	struct lat_render_buf a = { 0 }, b = { 0 };

	(void)state;
	lat_render_opts_init(&o);
	assert_int_equal(lat_render_timeline(t, &o, &a), 0);
	for (size_t i = 0; i < t->nslices / 2; i++) {
		struct lat_tl_slice x = t->slices[i];

		t->slices[i] = t->slices[t->nslices - 1 - i];
		t->slices[t->nslices - 1 - i] = x;
	}
	assert_true(t->slices[0].cpu == 1);
	assert_int_equal(lat_render_timeline(t, &o, &b), 0);
	assert_int_equal(a.len, b.len);
	assert_memory_equal(a.data, b.data, a.len);
	lat_render_buf_release(&a);
	lat_render_buf_release(&b);
	tl_free(t);
}

/* A million 100 ns slices of two tasks alternating on CPU 0: the folding must keep it small. */
static void test_million_slices(void **state)
{
	struct lat_timeline *t = calloc(1, sizeof(*t));
	struct lat_render_opts o;
	struct lat_render_buf b = { 0 };
	struct rd_chart c;
	cairo_surface_t *s;
	const struct rd_tl_layout *l;
	size_t cap = 0, n = 1000000;

	(void)state;
	assert_non_null(t);
	t->start_ns = T0;
	t->end_ns = T0 + n * 100;
	t->ncpus = 2;
	for (size_t i = 0; i < n; i++)
		add_slice(t, &cap, 0, i % 2 ? 11 : 12, i % 2 ? "odd" : "even", T0 + i * 100,
			  T0 + i * 100 + 100);
	lat_render_opts_init(&o);
	s = rd_chart_image(&rd_timeline_ops, t, &o, &c);
	assert_non_null(s);
	l = c.priv;
	/* one folded column per pixel at most, merged where neighbours match */
	assert_true(l->drawn_rects <= (size_t)c.plot.w + 2);
	assert_int_equal(l->ntasks_all, 2);
	/* the lane is painted (fully busy columns), not left blank */
	assert_true(rgb_dist(px(s, c.plot.x + c.plot.w / 2, rd_tl_lane_top(l, 0) + l->lane_h / 2),
			     (struct rd_rgb){ 0.965, 0.965, 0.965 }) > 0.1);
	cairo_surface_destroy(s);
	rd_timeline_ops.release(&c);
	o.format = LAT_RENDER_SVG;
	assert_int_equal(lat_render_timeline(t, &o, &b), 0);
	assert_true(b.len <= 2u << 20);
	lat_render_buf_release(&b);
	free(t->slices);
	free(t);
}

/*
 * build() with CPU 1's first 3 ms merged (the analysis no longer had them one
 * by one): 300 spans of 10 us, each of 5 slices, 8 us of them tasks', 6 us
 * the top task's, kworker/1:1:60 (the legend's third colour), then its exact
 * slice 3-3.4 ms.  The spans are drawn in its colour as opaque as they were
 * busy, in the 4 levels of folded columns (0.8 busy: level round(0.8 x 3) =
 * 2, 0.25 + 0.75 x 2 / 3 = 0.75 over the lane's 0.965 grey), as one
 * rectangle (no seams between them), hatched in white, outlined, labelled
 * with the 1500 slices merged (span 150's 5 empty ones too); the subtitle
 * and the legend say so.
 */
static void add_sums(struct lat_timeline *t, size_t n, uint64_t from)
{
	t->sums = calloc(n, sizeof(*t->sums));
	assert_non_null(t->sums);
	t->nsums = n;
	for (size_t i = 0; i < n; i++)
		t->sums[i] = (struct lat_tl_summary){ .start_ns = from + i * 10000,
						      .end_ns = from + i * 10000 + 10000, .cpu = 1,
						      .nslices = 5, .busy_ns = 8000, .top_ns = 6000,
						      .pid = 60, .prio = 120,
						      .comm = "kworker/1:1" };
}

static void test_merged(void **state)
{
	struct lat_timeline *t = build("hog");
	struct lat_render_opts o;
	struct lat_render_buf a = { 0 }, b = { 0 };
	struct rd_chart c;
	const struct rd_tl_layout *l;
	cairo_surface_t *s;
	struct rd_rgb want, kw = rd_palette(2);
	int coloured = 0, white = 0;
	double x, y;

	(void)state;
	t->slices[2].start_ns = T0 + 3 * MS;	/* kworker's exact slice: after the merged ones */
	t->slices[2].end_ns = T0 + 3400000;
	add_sums(t, 300, T0);
	/* one span at 1.5 ms of empty slices only (the analysis' switches of unseen tasks) */
	t->sums[150].end_ns = t->sums[150].start_ns;
	t->sums[150].busy_ns = t->sums[150].top_ns = 0;
	lat_render_opts_init(&o);
	s = rd_chart_image(&rd_timeline_ops, t, &o, &c);
	assert_non_null(s);
	dump_png(s, "timeline-merged.png");
	l = c.priv;
	assert_int_equal(l->nsums, 300);
	assert_true(l->sum_slices == 1500);
	assert_int_equal(l->drawn_sum_labels, 1);
	assert_non_null(strstr(c.subtitle, "4 slices (and 1500 merged), "));
	assert_true(legend_has(&c, "white-hatched: slices merged"));
	assert_string_equal(c.legend[2].text, "kworker/1:1:60");
	/* a 6x6 px block of the merged stretch, away from the label: fill and hatch */
	want = (struct rd_rgb){ 0.75 * kw.r + 0.25 * 0.965, 0.75 * kw.g + 0.25 * 0.965,
				 0.75 * kw.b + 0.25 * 0.965 };
	y = rd_tl_lane_top(l, 1) + l->lane_h * 0.75;
	for (x = xat(&c, T0 + 1 * MS); x < xat(&c, T0 + 1 * MS) + 6; x++) {
		for (int dy = 0; dy < 6; dy++) {
			struct rd_rgb p = px(s, x, y + dy);

			coloured += rgb_dist(p, want) < 0.03;
			/* a white line (0.75 opaque) over the fill: every component high */
			white += fmin(p.r, fmin(p.g, p.b)) > 0.7;
		}
	}
	assert_true(coloured >= 6);
	assert_true(white >= 6);
	/* the exact slice after the stretch is plain */
	assert_true(rgb_dist(px(s, xat(&c, T0 + 3200000), y), kw) < 0.02);
	cairo_surface_destroy(s);
	rd_timeline_ops.release(&c);

	/* a --window from 2 ms: the last 100 spans in view, still labelled */
	o.has_window = 1;
	o.window_start_ns = 2 * MS;
	o.window_end_ns = -1;
	s = rd_chart_image(&rd_timeline_ops, t, &o, &c);
	assert_non_null(s);
	l = c.priv;
	assert_int_equal(l->nsums, 100);
	assert_true(l->sum_slices == 500);
	cairo_surface_destroy(s);
	rd_timeline_ops.release(&c);

	/* spans in any order draw the same chart; the SVG stays well-formed */
	o.has_window = 0;
	o.format = LAT_RENDER_SVG;
	assert_int_equal(lat_render_timeline(t, &o, &a), 0);
	assert_int_equal(xmllint_ok(&a), 0);
	for (size_t i = 0; i < t->nsums / 2; i++) {
		struct lat_tl_summary m = t->sums[i];

		t->sums[i] = t->sums[t->nsums - 1 - i];
		t->sums[t->nsums - 1 - i] = m;
	}
	assert_int_equal(lat_render_timeline(t, &o, &b), 0);
	assert_int_equal(a.len, b.len);
	assert_memory_equal(a.data, b.data, a.len);
	lat_render_buf_release(&a);
	lat_render_buf_release(&b);
	tl_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_geometry),
		cmocka_unit_test(test_shared_cpu),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_empty_lanes),
		cmocka_unit_test(test_hostile_svg),
		cmocka_unit_test(test_unsorted_slices),
		cmocka_unit_test(test_million_slices),
		cmocka_unit_test(test_merged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
