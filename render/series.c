// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The series chart for loop logs (lat, lat2, lat3): per row, the longest
 * stall (max column, or the loop time when the tool did not measure gaps)
 * and the time asleep, over the row's date; one colour per process; the
 * freeze threshold as a line and the analysis' freezes as red rings labelled
 * with their duration.  Log y as soon as the values span two decades.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "latscope/an_loop.h"
#include "render_priv.h"

static void series_release(struct rd_chart *c)
{
	struct rd_series_layout *l = c->priv;

	if (l)
		free(l->rgb);
	free(l);
	c->priv = NULL;
}

static int col_present(const struct lat_block *b, int col)
{
	for (size_t i = 0; i < b->nseries; i++) {
		const struct lat_series *s = b->series[i];

		if (s->ncols <= col)
			continue;
		for (size_t r = 0; r < s->nrows; r++)
			if (lat_series_at(s, r, col) != LAT_VALUE_NONE)
				return 1;
	}
	return 0;
}

/* What the rows of a loop log span: time, value range, the worst stall. */
struct series_scan {
	int64_t t0, t1, maxv, minpos;
	size_t rows, nfreeze, worst_proc;
	int64_t worst;
	uint32_t worst_line;
};

static void scan_rows(const struct lat_block *b, struct rd_series_layout *l,
		      struct series_scan *sc)
{
	for (size_t i = 0; i < b->nseries; i++) {
		const struct lat_series *s = b->series[i];

		if (s->ncols < LAT_LOOP_NCOLS)
			continue;
		l->rgb[i] = rd_palette(i);
		for (size_t k = 0; k < s->nrows; k++) {
			int64_t t = lat_series_at(s, k, LAT_LOOP_TS);
			int64_t v[2] = { lat_series_at(s, k, l->stall_col),
					 lat_series_at(s, k, LAT_LOOP_WAIT) };

			if (t == LAT_VALUE_NONE)
				continue;
			sc->rows++;
			sc->t0 = t < sc->t0 ? t : sc->t0;
			sc->t1 = t > sc->t1 ? t : sc->t1;
			for (int j = 0; j < 2; j++) {
				if (v[j] == LAT_VALUE_NONE)
					continue;
				sc->maxv = v[j] > sc->maxv ? v[j] : sc->maxv;
				if (v[j] > 0 && v[j] < sc->minpos)
					sc->minpos = v[j];
			}
			if (v[0] != LAT_VALUE_NONE && v[0] > sc->worst) {
				sc->worst = v[0];
				sc->worst_line = s->line[k];
				sc->worst_proc = i;
			}
		}
	}
}

/* The analysis' freezes and threshold widen the value range. */
static void scan_result(const struct lat_loop_result *r, struct series_scan *sc)
{
	if (r) {
		for (size_t i = 0; i < r->nprocs; i++) {
			sc->nfreeze += r->procs[i].nfreezes;
			for (size_t f = 0; f < r->procs[i].nfreezes; f++)
				if (r->procs[i].freezes[f].duration_ns > sc->maxv)
					sc->maxv = r->procs[i].freezes[f].duration_ns;
		}
		if (r->threshold_ns > sc->maxv)
			sc->maxv = r->threshold_ns;
		if (r->threshold_ns > 0 && r->threshold_ns < sc->minpos)
			sc->minpos = r->threshold_ns;
	}
	if (sc->minpos == INT64_MAX)
		sc->minpos = 1;
}

static void series_axes(struct rd_chart *c, const struct rd_series_layout *l,
			const struct series_scan *sc)
{
	char ts[40];

	c->has_y = 1;
	c->x = (struct rd_axis){ .lo = 0, .hi = rd_dsub(sc->t1, sc->t0), .unit = LAT_UNIT_NS };
	snprintf(c->x.title, sizeof(c->x.title), "time since the first row (dated %s)",
		 lat_fmt_ts(sc->t0, ts, sizeof(ts)));
	rd_axis_nice_range(&c->x, 10);
	c->y = (struct rd_axis){ .lo = (double)sc->minpos, .hi = (double)sc->maxv,
				  .unit = LAT_UNIT_NS };
	c->y.log = (double)sc->maxv >= 100.0 * (double)sc->minpos;
	if (!c->y.log)
		c->y.lo = 0, c->y.hi = sc->maxv * 1.05;
	rd_axis_nice_range(&c->y, 8);
	snprintf(c->y.title, sizeof(c->y.title), "%s, and time asleep (dashed)",
		 l->stall_col == LAT_LOOP_MAX ? "longest stall in the loop (max column)" :
		 "loop time per row");
}

static void series_subtitle(struct rd_chart *c, const struct lat_block *b,
			    const struct lat_loop_result *r, const struct rd_series_layout *l,
			    const struct series_scan *sc)
{
	char d1[32], d2[32];

	snprintf(c->subtitle, sizeof(c->subtitle), "%zu row%s, %zu process%s \xc2\xb7 worst %s "
		 "%s (process %s, line %u)", sc->rows, PLURAL(sc->rows), b->nseries, b->nseries == 1 ? "" : "es",
		 l->stall_col == LAT_LOOP_MAX ? "stall" : "loop", rd_fmt_dur_chart(sc->worst, d1,
		 sizeof(d1)), b->series[sc->worst_proc]->name, sc->worst_line);
	if (r) {
		size_t n = strlen(c->subtitle);
		int64_t p99 = 0;

		for (size_t i = 0; i < r->nprocs; i++) {
			int64_t v = l->stall_col == LAT_LOOP_MAX ? r->procs[i].max.p99 :
				    r->procs[i].loop.p99;

			p99 = v > p99 ? v : p99;
		}
		snprintf(c->subtitle + n, sizeof(c->subtitle) - n, " \xc2\xb7 p99 %s \xc2\xb7 "
			 "%zu freeze%s \xe2\x89\xa5 %s", rd_fmt_dur_chart(p99, d2, sizeof(d2)),
			 sc->nfreeze, sc->nfreeze == 1 ? "" : "s",
			 rd_fmt_dur_chart(r->threshold_ns, d1, sizeof(d1)));
	}
}

static void series_legend(struct rd_chart *c, const struct lat_block *b,
			  const struct lat_loop_result *r, const struct rd_series_layout *l)
{
	char d1[32];

	for (size_t i = 0; i < b->nseries && c->nlegend + 4 <= RD_LEGEND_MAX; i++) {
		struct rd_legend_item *it = &c->legend[c->nlegend++];

		snprintf(it->text, sizeof(it->text), "process %s%s%s",
			 b->series[i]->name, b->series[i]->note ? ": " : "",
			 b->series[i]->note ? b->series[i]->note : "");
		rd_utf8_clean(it->text, (size_t)-1, it->text, sizeof(it->text));
		it->rgb = l->rgb[i];
		it->style = RD_LEG_LINE;
	}
	if (r) {
		struct rd_legend_item *it = &c->legend[c->nlegend++];

		snprintf(it->text, sizeof(it->text), "freeze threshold %s",
			 rd_fmt_dur_chart(r->threshold_ns, d1, sizeof(d1)));
		it->rgb = rd_alert_rgb;
		it->style = RD_LEG_DASH;
		it = &c->legend[c->nlegend++];
		snprintf(it->text, sizeof(it->text), "freeze (duration)");
		it->rgb = rd_alert_rgb;
		it->style = RD_LEG_RING;
	}
}

static int series_layout(struct rd_chart *c, cairo_t *m, const void *data,
			 const struct lat_render_opts *o, char *msg, size_t msglen)
{
	const struct rd_series_input *in = data;
	const struct lat_block *b = in->b;
	const struct lat_loop_result *r = in->r;
	struct rd_series_layout *l;
	struct series_scan sc = { .t0 = INT64_MAX, .t1 = INT64_MIN, .minpos = INT64_MAX,
				  .worst = -1 };

	if (b->nseries == 0) {
		snprintf(msg, msglen, "the block holds no rows");
		return -LAT_EEMPTY;
	}
	l = calloc(1, sizeof(*l));
	if (!l || !(l->rgb = calloc(b->nseries, sizeof(*l->rgb)))) {
		free(l);
		snprintf(msg, msglen, "out of memory");
		return -LAT_ENOMEM;
	}
	c->priv = l;
	l->nprocs = b->nseries;
	l->stall_col = col_present(b, LAT_LOOP_MAX) ? LAT_LOOP_MAX : LAT_LOOP_LOOP;
	scan_rows(b, l, &sc);
	if (!sc.rows) {
		snprintf(msg, msglen, "the block holds no dated rows");
		return -LAT_EEMPTY;
	}
	l->t0_ns = sc.t0;
	scan_result(r, &sc);
	series_axes(c, l, &sc);
	rd_chart_title(c, o, "loop log", b->title);
	series_subtitle(c, b, r, l, &sc);
	series_legend(c, b, r, l);
	rd_frame_layout(c, m);
	return 0;
}

static int cmp_i64(const void *a, const void *b)
{
	const int64_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

/* Median spacing of the rows' dates, 0 when unknown. */
static int64_t median_step(const struct lat_series *s)
{
	int64_t *d = malloc((s->nrows ? s->nrows : 1) * sizeof(*d)), prev = LAT_VALUE_NONE, m;
	size_t n = 0;

	if (!d)
		return 0;
	for (size_t k = 0; k < s->nrows; k++) {
		int64_t t = lat_series_at(s, k, LAT_LOOP_TS);

		if (t == LAT_VALUE_NONE)
			continue;
		if (prev != LAT_VALUE_NONE && t > prev && !__builtin_sub_overflow(t, prev, &d[n]))
			n++;
		prev = t;
	}
	lat_sort(d, n, sizeof(*d), cmp_i64);
	m = n ? d[n / 2] : 0;
	free(d);
	return m;
}

static void draw_one(cairo_t *cr, const struct rd_chart *c, const struct lat_series *s,
		     int col, int64_t t0, struct rd_rgb rgb, int dashed, int dots)
{
	double d[] = { 5, 4 };
	/* no line across a gap in the log: nothing was measured there */
	double gap = (double)median_step(s) * 2.5;
	int64_t prev = LAT_VALUE_NONE;
	int pen = 0, npx = 0;
	/* rows sharing a pixel column: one vertical stroke over their range (level of detail) */
	long col_px = LONG_MIN;
	double ymin = 0, ymax = 0, ylast = 0;

	rd_set_rgb(cr, rgb, dashed ? 0.55 : 1);
	cairo_set_line_width(cr, dashed ? 1.2 : 1.8);
	if (dashed)
		cairo_set_dash(cr, d, 2, 0);
	for (size_t k = 0; k < s->nrows; k++) {
		int64_t t = lat_series_at(s, k, LAT_LOOP_TS), v = lat_series_at(s, k, col);
		double x, y;

		if (t == LAT_VALUE_NONE || v == LAT_VALUE_NONE) {
			pen = 0;
			continue;
		}
		x = rd_axis_map(&c->x, rd_dsub(t, t0));
		y = rd_axis_map(&c->y, (double)v);
		if (gap > 0 && prev != LAT_VALUE_NONE && rd_dsub(t, prev) > gap)
			pen = 0;
		prev = t;
		if (pen && (long)floor(x) == col_px) {
			ymin = fmin(ymin, y);
			ymax = fmax(ymax, y);
			ylast = y;
			npx++;
			continue;
		}
		if (pen && npx > 1) {
			cairo_line_to(cr, col_px + 0.5, ymin);
			cairo_line_to(cr, col_px + 0.5, ymax);
			cairo_line_to(cr, col_px + 0.5, ylast);
		}
		if (pen)
			cairo_line_to(cr, x, y);
		else
			cairo_move_to(cr, x, y);
		pen = 1;
		col_px = (long)floor(x);
		ymin = ymax = ylast = y;
		npx = 1;
	}
	if (pen && npx > 1) {
		cairo_line_to(cr, col_px + 0.5, ymin);
		cairo_line_to(cr, col_px + 0.5, ymax);
		cairo_line_to(cr, col_px + 0.5, ylast);
	}
	cairo_stroke(cr);
	cairo_set_dash(cr, NULL, 0, 0);
	if (!dots)
		return;
	for (size_t k = 0; k < s->nrows; k++) {
		int64_t t = lat_series_at(s, k, LAT_LOOP_TS), v = lat_series_at(s, k, col);

		if (t == LAT_VALUE_NONE || v == LAT_VALUE_NONE)
			continue;
		cairo_arc(cr, rd_axis_map(&c->x, rd_dsub(t, t0)),
			  rd_axis_map(&c->y, (double)v), dashed ? 2 : 3.2, 0, 2 * M_PI);
		cairo_fill(cr);
	}
}

struct placed {
	double x, y, w, h;
};

static int overlaps(const struct placed *p, size_t n, struct placed q)
{
	for (size_t i = 0; i < n; i++)
		if (q.x < p[i].x + p[i].w && p[i].x < q.x + q.w && q.y < p[i].y + p[i].h &&
		    p[i].y < q.y + q.h)
			return 1;
	return 0;
}

struct freeze_at {
	const struct lat_freeze *f;
	double v;		/* where the ring goes: the row's plotted value */
};

static int cmp_dur_desc(const void *a, const void *b)
{
	const struct freeze_at *x = a, *y = b;

	if (x->f->duration_ns != y->f->duration_ns)
		return x->f->duration_ns < y->f->duration_ns ? 1 : -1;
	return x->f->ts_ns < y->f->ts_ns ? -1 : x->f->ts_ns > y->f->ts_ns;
}

/*
 * The value drawn for the freeze's row: the wait for a select/wait freeze, the
 * stall column for a loop freeze.  With a max column that is the freeze's
 * duration; for lat (no max) the loop time, whose overshoot the duration is.
 */
static double freeze_value(const struct lat_loop_proc *p, const struct lat_freeze *f, int col)
{
	const struct lat_series *s = p->s;
	size_t lo = 0, hi = s ? s->nrows : 0;

	if (f->what == LAT_FREEZE_WAIT)
		col = LAT_LOOP_WAIT;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (s->line[mid] < f->line)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (s && lo < s->nrows && s->line[lo] == f->line && s->ncols > col &&
	    lat_series_at(s, lo, col) != LAT_VALUE_NONE)
		return (double)lat_series_at(s, lo, col);
	return (double)f->duration_ns;
}

static void draw_freezes(cairo_t *cr, const struct rd_chart *c, const struct lat_loop_result *r,
			 int64_t t0, int worst, int col)
{
	struct freeze_at *all;
	struct placed *done;
	size_t n = 0, ndone = 0;
	char buf[48];

	for (size_t i = 0; i < r->nprocs; i++)
		n += r->procs[i].nfreezes;
	if (!n)
		return;
	all = calloc(n, sizeof(*all));
	done = calloc(n, sizeof(*done));
	if (!all || !done)
		goto out;
	n = 0;
	for (size_t i = 0; i < r->nprocs; i++)
		for (size_t f = 0; f < r->procs[i].nfreezes; f++) {
			all[n].f = &r->procs[i].freezes[f];
			all[n].v = freeze_value(&r->procs[i], all[n].f, col);
			n++;
		}
	lat_sort(all, n, sizeof(*all), cmp_dur_desc);
	rd_set_rgb(cr, rd_alert_rgb, 1);
	cairo_set_line_width(cr, 2);
	for (size_t i = 0; i < n; i++) {
		cairo_new_sub_path(cr);
		cairo_arc(cr, rd_axis_map(&c->x, rd_dsub(all[i].f->ts_ns, t0)),
			  rd_axis_map(&c->y, all[i].v), 7, 0, 2 * M_PI);
	}
	cairo_stroke(cr);
	/* the longest ones get their duration written, without overlapping labels */
	rd_font(cr, RD_TICK_PT, 1);
	for (size_t i = 0; i < n && (int)ndone < worst; i++) {
		double x = rd_axis_map(&c->x, rd_dsub(all[i].f->ts_ns, t0));
		double y = rd_axis_map(&c->y, all[i].v);
		struct placed q;

		rd_fmt_dur_chart((double)all[i].f->duration_ns, buf, sizeof(buf));
		if (all[i].f->what == LAT_FREEZE_WAIT)
			strcat(buf, " asleep");
		else if (col == LAT_LOOP_LOOP)
			strcat(buf, " late");
		q = (struct placed){ x + 9, y - 10 - RD_TICK_PT, rd_text_width(cr, buf) + 6,
				     RD_TICK_PT + 4 };
		if (q.x + q.w > c->plot.x + c->plot.w)
			q.x = x - 9 - q.w;
		if (q.y < c->plot.y)
			q.y = y + 10;
		if (overlaps(done, ndone, q))
			continue;
		done[ndone++] = q;
		cairo_set_source_rgba(cr, 1, 1, 1, 0.85);
		cairo_rectangle(cr, q.x, q.y, q.w, q.h);
		cairo_fill(cr);
		rd_set_rgb(cr, rd_alert_rgb, 1);
		rd_text(cr, q.x + 3, q.y + RD_TICK_PT, 0, buf);
	}
out:
	free(all);
	free(done);
}

/* A loop freeze ends at its row's date: shade the time the process stood still. */
static void shade_freezes(cairo_t *cr, const struct rd_chart *c, const struct lat_loop_result *r,
			  int64_t t0)
{
	for (size_t p = 0; p < r->nprocs; p++) {
		for (size_t i = 0; i < r->procs[p].nfreezes; i++) {
			const struct lat_freeze *f = &r->procs[p].freezes[i];
			double x1 = rd_axis_map(&c->x, rd_dsub(f->ts_ns, t0));
			double x0 = rd_axis_map(&c->x, rd_dsub(f->ts_ns, t0) - (double)f->duration_ns);

			if (f->what != LAT_FREEZE_LOOP || x1 - x0 < 2)
				continue;
			cairo_rectangle(cr, x0, c->plot.y, x1 - x0, c->plot.h);
			rd_set_rgb(cr, rd_alert_rgb, 0.06);
			cairo_fill(cr);
		}
	}
}

static void series_draw(cairo_t *cr, const struct rd_chart *c, const void *data,
			const struct lat_render_opts *o)
{
	const struct rd_series_input *in = data;
	const struct rd_series_layout *l = c->priv;
	const struct lat_block *b = in->b;
	char buf[64], d1[32];

	cairo_rectangle(cr, c->plot.x, c->plot.y - 1, c->plot.w + 1, c->plot.h + 2);
	cairo_clip(cr);
	if (in->r)
		shade_freezes(cr, c, in->r, l->t0_ns);
	if (in->r && in->r->threshold_ns > 0) {
		double y = round(rd_axis_map(&c->y, (double)in->r->threshold_ns)) + 0.5;
		double d[] = { 8, 5 };

		rd_set_rgb(cr, rd_alert_rgb, 0.8);
		cairo_set_line_width(cr, 1.2);
		cairo_set_dash(cr, d, 2, 0);
		cairo_move_to(cr, c->plot.x, y);
		cairo_line_to(cr, c->plot.x + c->plot.w, y);
		cairo_stroke(cr);
		cairo_set_dash(cr, NULL, 0, 0);
		rd_font(cr, RD_TICK_PT, 0);
		snprintf(buf, sizeof(buf), "freeze threshold %s",
			 rd_fmt_dur_chart((double)in->r->threshold_ns, d1, sizeof(d1)));
		rd_text(cr, c->plot.x + c->plot.w - 6, y - 5, 2, buf);
	}
	for (size_t i = 0; i < b->nseries; i++) {
		const struct lat_series *s = b->series[i];
		int dots = s->nrows < c->plot.w / 4;

		if (s->ncols < LAT_LOOP_NCOLS)
			continue;
		draw_one(cr, c, s, LAT_LOOP_WAIT, l->t0_ns, l->rgb[i], 1, dots);
	}
	for (size_t i = 0; i < b->nseries; i++) {
		const struct lat_series *s = b->series[i];
		int dots = s->nrows < c->plot.w / 4;

		if (s->ncols < LAT_LOOP_NCOLS)
			continue;
		draw_one(cr, c, s, l->stall_col, l->t0_ns, l->rgb[i], 0, dots);
	}
	if (in->r)
		draw_freezes(cr, c, in->r, l->t0_ns, o->worst, l->stall_col);
}

const struct rd_chart_ops rd_series_ops = {
	.name = "series",
	.layout = series_layout,
	.draw = series_draw,
	.release = series_release,
};
