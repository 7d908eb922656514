// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The cpus chart over rows of seed 004 (samples/mail/004-libenzi-schedcnt-bouncing.txt):
 * the first rows of "N = 2" CPU 0 (mail lines 128-131) and of "N = 3" CPU 0 and
 * CPU 1 (lines 243-254 and 315-324), built by hand in the schedcnt column
 * layout until the schedcnt reader lands.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "render_test_util.h"

static const struct lat_column cols[LAT_SCHED_NCOLS] = {
	{ "SCHEDENTRY", LAT_UNIT_CYCLES }, { "SCHEDEXIT", LAT_UNIT_CYCLES },
	{ "LAT", LAT_UNIT_CYCLES }, { "PID", LAT_UNIT_PID }, { "ENTRYDIF", LAT_UNIT_CYCLES },
};

static const int64_t n2_cpu0[][5] = {
	{ 450666408533, 450666414873, 6340, 0, 1124337 },
	{ 450667532870, 450667536370, 3500, 802, 16932994 },
	{ 450684465864, 450684473297, 7433, 802, 43986751 },
	{ 450728452615, 450728457629, 5014, 802, 43986420 },
};

static const int64_t n3_cpu0[][5] = {
	{ 470893629473, 470893636002, 6529, 0, 1037414 },
	{ 470894666887, 470894668132, 1245, 0, 53488 },
	{ 470894720375, 470894721441, 1066, 0, 9637 },
	{ 470894730012, 470894731108, 1096, 0, 4742 },
	{ 470894734754, 470894747173, 12419, 806, 64352 },
	{ 470894799106, 470894802128, 3022, 808, 38176085 },
	{ 470932975191, 470932977342, 2151, 809, 65979926 },
	{ 470998955117, 470998961683, 6566, 809, 43986567 },
	{ 471042941684, 471042944165, 2481, 807, 65979920 },
	{ 471108921604, 471108927510, 5906, 807, 43986646 },
	{ 471152908250, 471152910241, 1991, 808, 65979914 },
	{ 471218888164, 471218894092, 5928, 808, 43986646 },
};

static const int64_t n3_cpu1[][5] = {
	{ 470894780828, 470894786833, 6005, 807, 47977942 },
	{ 470942758770, 470942766137, 7367, 807, 25926658 },
	{ 470968685428, 470968687273, 1845, 2, 6081 },
	{ 470968691509, 470968692439, 930, 807, 18053776 },
	{ 470986745285, 470986747232, 1947, 808, 65979936 },
	{ 471052725221, 471052731298, 6077, 808, 43986624 },
	{ 471096711845, 471096714084, 2239, 809, 65979936 },
	{ 471162691781, 471162697437, 5656, 809, 43986624 },
	{ 471206678405, 471206680339, 1934, 807, 65979942 },
	{ 471272658347, 471272664023, 5676, 807, 43986618 },
};

static void add(struct lat_block *b, const char *name, const char *group,
		const int64_t (*rows)[5], size_t n)
{
	struct lat_series *s = lat_series_new(name, LAT_SCHED_NCOLS, cols);

	assert_non_null(s);
	s->group = strdup(group);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(lat_series_push(s, rows[i], (uint32_t)i + 1), 0);
	assert_int_equal(lat_block_add_series(b, s), 0);
}

static struct lat_block *build(void)
{
	struct lat_block *b = lat_block_new(NULL, LAT_SCHEMA_SCHEDCNT);

	assert_non_null(b);
	add(b, "cpu0", "N = 2", n2_cpu0, LAT_ARRAY_SIZE(n2_cpu0));
	add(b, "cpu0", "N = 3", n3_cpu0, LAT_ARRAY_SIZE(n3_cpu0));
	add(b, "cpu1", "N = 3", n3_cpu1, LAT_ARRAY_SIZE(n3_cpu1));
	return b;
}

static struct rd_rgb pid_rgb(const struct rd_cpus_layout *l, int32_t pid)
{
	for (size_t i = 0; i < l->npids; i++)
		if (l->pids[i] == pid)
			return l->rgb[i];
	fail();
	return (struct rd_rgb){ 0, 0, 0 };
}

static void test_runs_and_bouncing(void **state)
{
	struct lat_block *b = build();
	struct lat_render_opts o;
	struct rd_chart c;
	const struct rd_cpus_layout *l;
	const struct rd_cpus_run *r;
	cairo_surface_t *s;
	double lane, x0, x1, y;

	(void)state;
	lat_render_opts_init(&o);
	assert_int_equal(lat_render_pick(b), LAT_CHART_CPUS);
	s = rd_chart_image(&rd_cpus_ops, b, &o, &c);
	assert_non_null(s);
	dump_png(s, "cpus.png");
	l = c.priv;
	assert_int_equal(l->nruns, 2);
	assert_string_equal(l->runs[0].group, "N = 2");
	assert_int_equal(l->runs[1].ncpus, 2);
	/* PID 802 alone on one CPU never changes CPU */
	assert_int_equal(l->runs[0].changes, 0);
	/*
	 * N = 3, picks merged by SCHEDEXIT: 808 (cpu0) next on cpu1, 807 back on cpu0,
	 * 809 on cpu1, 808 on cpu0, 807 on cpu1: 5 changes (listed in order by hand).
	 */
	assert_int_equal(l->runs[1].changes, 5);
	/*
	 * Every PID picked has a legend entry, longest-running first (exit to the next
	 * entry, summed by hand over the rows above): 807 ~312 Mcycles (110 on cpu0 + 202
	 * on cpu1), 808 ~258, 809 ~220, 802 ~105 (N = 2), 806 0.06, 2 0.004.
	 */
	assert_int_equal(l->npids, 6);
	assert_int_equal(c.nlegend, 6);
	assert_string_equal(c.legend[0].text, "pid 807");
	assert_string_equal(c.legend[1].text, "pid 808");
	assert_string_equal(c.legend[2].text, "pid 809");
	assert_string_equal(c.legend[3].text, "pid 802");
	assert_string_equal(c.legend[4].text, "pid 806");
	assert_string_equal(c.legend[5].text, "pid 2");
	for (size_t i = 0; i < l->npids; i++) {
		char want[32];
		int found = 0;

		snprintf(want, sizeof(want), "pid %d", l->pids[i]);
		for (int k = 0; k < c.nlegend; k++)
			if (!strcmp(c.legend[k].text, want)) {
				found = 1;
				/* the legend swatch is the colour the PID is drawn in */
				assert_true(rgb_dist(c.legend[k].rgb, l->rgb[i]) < 1e-9);
			}
		assert_true(found);
	}

	/* cpu0 of N = 3 ran 809 from its exit at ...961683 to the next entry ...941684 */
	r = &l->runs[1];
	lane = r->box.h / 2;
	x0 = rd_axis_map(&c.x, (double)(470998961683LL - r->c0));
	x1 = rd_axis_map(&c.x, (double)(470998955117LL + 43986567LL - r->c0));
	y = r->box.y + lane / 2;
	assert_true(x1 - x0 > 3);
	assert_true(rgb_dist(px(s, (x0 + x1) / 2, y), pid_rgb(l, 809)) < 0.02);
	/* and cpu1 at the same time ran 808 */
	assert_true(rgb_dist(px(s, rd_axis_map(&c.x, (double)(471010000000LL - r->c0)),
			       y + lane), pid_rgb(l, 808)) < 0.02);
	/* N = 2: after 802's last pick ends (~116 Mcycles in) nothing is drawn: background */
	r = &l->runs[0];
	assert_true(rgb_dist(px(s, rd_axis_map(&c.x, 300e6), r->box.y + r->box.h / 2),
			     (struct rd_rgb){ 0.965, 0.965, 0.965 }) < 0.02);
	assert_true(rgb_dist(px(s, rd_axis_map(&c.x, 80e6), r->box.y + r->box.h / 2),
			     pid_rgb(l, 802)) < 0.02);
	cairo_surface_destroy(s);
	rd_cpus_ops.release(&c);
	lat_block_free(b);
}

static void test_not_schedcnt(void **state)
{
	struct lat_block *b = lat_block_new(NULL, LAT_SCHEMA_LOOP);
	struct lat_render_opts o;
	struct lat_render_buf out = { 0 };

	(void)state;
	lat_render_opts_init(&o);
	o.chart = LAT_CHART_CPUS;
	assert_int_equal(lat_render_block(b, &o, &out), -LAT_EUSAGE);
	assert_non_null(strstr(out.msg, "cpus chart does not fit"));
	lat_render_buf_release(&out);
	lat_block_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_runs_and_bouncing),
		cmocka_unit_test(test_not_schedcnt),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
