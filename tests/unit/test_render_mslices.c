// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A trace of an app's trace markers only (an Android atrace with no sched
 * category) has no wait and so no timeline; its atrace slices' durations are
 * drawn instead (issue 28: a chart for every input with numbers), as summary
 * rows per name.  Before, render exited 1: "no wakeup or preemption wait
 * among them: no timeline to draw".  The numbers themselves are checked in
 * test_not_latency.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "old_logs_util.h"
#include "render_test_util.h"

#define LINE(t, pid, cpu, what) \
	"             t-" #pid "   [00" #cpu "] ...1    " t ": tracing_mark_write: " what "\n"

/* tick 10.000 -> 10.003 (3 ms) and 10.010 -> 10.011 (1 ms); frame async 10.001 -> 10.009 */
static const char slices[] =
	"# tracer: nop\n#\n"
	LINE("10.000000", 100, 0, "B|100|tick")
	LINE("10.001000", 100, 0, "S|100|frame|1")
	LINE("10.003000", 100, 0, "E|100")
	LINE("10.009000", 200, 1, "F|100|frame|1")
	LINE("10.010000", 100, 0, "B|100|tick")
	LINE("10.011000", 100, 0, "E|100");

/* one begin, no end */
static const char open_only[] = "# tracer: nop\n#\n" LINE("10.000000", 100, 0, "B|100|tick");

static int draw(const char *text, struct lat_render_buf *out)
{
	struct lat_loaded *l = old_logs_load_text(text, NULL);
	struct lat_render_opts o;
	int ret;

	lat_render_opts_init(&o);
	o.format = LAT_RENDER_SVG;
	ret = lat_render_block(l->blocks[0], &o, out);
	old_logs_free(l);
	return ret;
}

/*
 * Rows in order of first begin: tick (2 ended: min 1 ms, avg 2 ms, max 3 ms)
 * and frame (async, 1 ended: 8 ms), the worst of all, red.
 */
static void test_slices_drawn(void **state)
{
	struct lat_render_buf out = { 0 };
	struct lat_loaded *l = old_logs_load_text(slices, NULL);
	struct lat_render_opts o;
	struct rd_mslices m;
	struct rd_chart c;
	const struct rd_ranges_layout *rl;
	cairo_surface_t *img;

	(void)state;
	assert_int_equal(rd_mslices_input(l->blocks[0], &m, out.msg, sizeof(out.msg)), 0);
	lat_render_opts_init(&o);
	img = rd_chart_image(&rd_ranges_ops, &m.in, &o, &c);
	assert_non_null(img);
	dump_png(img, "mslices.png");
	rl = c.priv;
	assert_int_equal(rl->nrows, 2);
	assert_string_equal(rl->row_name[0], "tick");
	assert_string_equal(rl->row_name[1], "frame (async)");
	assert_true(rl->bar[0].lo == 1e6 && rl->bar[0].mid == 2e6 && rl->bar[0].hi == 3e6);
	assert_int_equal(rl->bar[0].count, 2);
	assert_true(rl->bar[1].hi == 8e6);
	assert_int_equal(rl->worst_all, 1);
	assert_non_null(strstr(c.subtitle, "measured from the trace markers"));
	assert_null(strstr(c.subtitle, "as the tool printed"));
	assert_non_null(strstr(c.title, "trace-marker slices (no wait to draw): 3 ended"));
	assert_string_equal(c.x.title, "slice duration (begin to end) [ms]");
	rd_ranges_ops.release(&c);
	cairo_surface_destroy(img);
	rd_mslices_release(&m);
	old_logs_free(l);

	/* through the dispatcher, as `render` draws it (it was "no timeline to draw") */
	assert_int_equal(draw(slices, &out), 0);
	assert_int_equal(xmllint_ok(&out), 0);
	lat_render_buf_release(&out);
}

static void test_none_ended(void **state)
{
	struct lat_render_buf out = { 0 };

	(void)state;
	assert_int_equal(draw(open_only, &out), -LAT_EEMPTY);
	assert_string_equal(out.msg, "1 trace-marker slice begun and none ended: no duration "
			    "to draw");
	lat_render_buf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slices_drawn),
		cmocka_unit_test(test_none_ended),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
