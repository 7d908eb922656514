// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The histogram chart: latency distributions on log-log axes (as OSADL's
 * cyclictest plots), drawn as steps with p50 / p99 / max marked
 * (render/hist_marks.c).  Up to 3 histograms (6 compared by share) are
 * overlaid in distinct colours; more become small multiples, one panel per
 * histogram on the same axes, the panels of each group (rtla's IRQ, Thr) on
 * rows of their own.  The percentile labels are placed in the layout pass
 * (render/labels.c): they never overlap, and no mark's line runs through one.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render_priv.h"

#define HM_MIN_W 190.0		/* a small multiple's smallest frame */
#define HM_MIN_H 110.0
#define HM_GAP 10.0
#define HM_TITLE_PT 11.0
#define HL_PANEL_PT 10.0	/* percentile labels in a small multiple */
#define OVERLAY_MAX 3
#define OVERLAY_MAX_SHARES 6

static void hist_release(struct rd_chart *c)
{
	struct rd_hist_layout *l = c->priv;

	if (l) {
		free(l->panel);
		free(l->order);
		free(l->total);
		free(l->colour);
		free(l->label);
	}
	free(l);
	c->priv = NULL;
}

/* What a bucket is drawn at: its count, or its share of the histogram's samples (%). */
static double yval(const struct rd_hist_input *in, const struct rd_hist_layout *l, size_t k,
		   size_t i)
{
	double n = (double)in->h[k]->b[i].count;

	return in->shares ? 100 * n / (double)(l->total[k] ? l->total[k] : 1) : n;
}

static void hist_name(const struct rd_hist_input *in, size_t k, char *buf, size_t len)
{
	if (in->h[k]->title)
		rd_utf8_clean(in->h[k]->title, (size_t)-1, buf, len);
	else
		snprintf(buf, len, "histogram %zu", k + 1);
}

/* Histograms with samples into l->order; the data's ranges: x lo, hi, smallest y > 0, y max. */
static void scan(const struct rd_hist_input *in, struct rd_hist_layout *l, double r[4])
{
	r[0] = INFINITY;
	r[1] = 0;
	r[2] = INFINITY;
	r[3] = 0;
	for (size_t k = 0; k < in->n; k++) {
		const struct lat_histogram *h = in->h[k];

		l->total[k] = rd_hist_samples(h);
		if (!l->total[k])
			continue;
		l->order[l->norder++] = k;
		for (size_t i = 0; i < h->nbuckets; i++) {
			if (!h->b[i].count)
				continue;
			r[0] = fmin(r[0], rd_hist_bucket_lo(h, i));
			r[1] = fmax(r[1], rd_hist_bucket_hi(h, i));
			r[2] = fmin(r[2], yval(in, l, k, i));
			r[3] = fmax(r[3], yval(in, l, k, i));
		}
	}
}

/*
 * Small multiples are ordered by group (first appearance), each group's in
 * input order; a panel is coloured by its group when there are several.
 */
static void assign_groups(const struct rd_hist_input *in, struct rd_hist_layout *l)
{
	const char *seen[RD_LEGEND_MAX];
	size_t *grp = calloc(in->n ? in->n : 1, sizeof(*grp)), m = 0;

	l->ngroups = 0;
	for (size_t j = 0; j < l->norder; j++) {
		const char *g = in->h[l->order[j]]->group ? in->h[l->order[j]]->group : "";
		size_t i;

		for (i = 0; i < l->ngroups && strcmp(seen[i], g); i++)
			;
		if (i == l->ngroups && l->ngroups < RD_LEGEND_MAX)
			seen[l->ngroups++] = g;
		if (grp)
			grp[l->order[j]] = i;
		/* small multiples are coloured by group (all alike when there is one) */
		l->colour[l->order[j]] = l->multiples ? i : l->order[j];
	}
	if (!grp || !l->multiples || l->ngroups < 2) {
		free(grp);
		return;
	}
	/* stable: by group, then input order */
	for (size_t g = 0; g < l->ngroups; g++)
		for (size_t k = 0; k < in->n; k++)
			if (l->total[k] && grp[k] == g)
				l->order[m++] = k;
	free(grp);
}

/* Rows of a grid of @cols columns, each group starting a row. */
static size_t grid_rows(const struct rd_hist_layout *l, size_t cols)
{
	size_t rows = 0, run = 0;

	for (size_t j = 0; j < l->norder; j++) {
		int same = j > 0 && l->ngroups > 1 &&
			   l->colour[l->order[j]] == l->colour[l->order[j - 1]];

		if (j > 0 && !same && l->ngroups > 1)
			run = 0;
		if (run % cols == 0)
			rows++;
		run++;
	}
	return rows;
}

/*
 * The grid with the panels closest to 1.4:1 and few empty cells, among those
 * of panels at least HM_MIN_W x HM_MIN_H.
 */
static int grid_pick(const struct rd_chart *c, const struct rd_hist_layout *l, size_t *cols,
		     size_t *rows)
{
	size_t maxc = (size_t)floor((c->plot.w + HM_GAP) / (HM_MIN_W + HM_GAP));
	size_t maxr = (size_t)floor((c->plot.h + HM_GAP) / (HM_MIN_H + HM_GAP));
	double best = INFINITY;

	for (size_t nc = 1; nc <= maxc && nc <= l->norder; nc++) {
		size_t nr = grid_rows(l, nc);
		double pw = (c->plot.w - (double)(nc - 1) * HM_GAP) / (double)nc;
		double ph = (c->plot.h - (double)(nr - 1) * HM_GAP) / (double)nr;
		/* empty cells waste room as much as a skewed panel does */
		double score = fabs(log(pw / ph / 1.4)) +
			       2 * (double)(nr * nc - l->norder) / (double)(nr * nc);

		if (nr > maxr || score >= best)
			continue;
		best = score;
		*cols = nc;
		*rows = nr;
	}
	return best < INFINITY ? 0 : -LAT_ELIMIT;
}

static void panel_axes(const struct rd_chart *c, struct rd_hist_panel *p)
{
	p->x = c->x;
	p->x.p0 = p->box.x;
	p->x.p1 = p->box.x + p->box.w;
	rd_axis_ticks(&p->x, (int)fmax(2, p->box.w / 90));
	p->y = c->y;
	p->y.p0 = p->box.y + p->box.h;
	p->y.p1 = p->box.y;
}

/* The tool's own maximum, when the histogram's max is in its open last bucket; else -1. */
static int64_t printed_max(const struct rd_hist_input *in, size_t k)
{
	const struct lat_histogram *h = in->h[k];

	if (h->has_printed && h->printed.max_ns != LAT_VALUE_NONE && rd_hist_mark_open(in, k))
		return h->printed.max_ns;
	return -1;
}

/* "IRQ cpu0 · 10001 samples", with " · printed max 428 µs" when the buckets cannot say. */
static void panel_title(const struct rd_hist_input *in, const struct rd_hist_layout *l,
			size_t k, const char *name, char *buf, size_t len)
{
	char d[32];
	size_t n;

	snprintf(buf, len, "%s \xc2\xb7 %llu sample%s", name, (unsigned long long)l->total[k],
		 PLURAL(l->total[k]));
	n = strlen(buf);
	if (printed_max(in, k) >= 0)
		snprintf(buf + n, len - n, " \xc2\xb7 printed max %s",
			 rd_fmt_dur_chart((double)printed_max(in, k), d, sizeof(d)));
}

static int place_multiples(struct rd_chart *c, const struct rd_hist_input *in,
			   struct rd_hist_layout *l, char *msg, size_t msglen)
{
	size_t cols = 1, rows = 1, r = 0, col = 0;
	double pw, ph;

	if (grid_pick(c, l, &cols, &rows)) {
		snprintf(msg, msglen, "%zu histograms do not fit as panels of %.0fx%.0f",
			 l->norder, HM_MIN_W, HM_MIN_H);
		return -LAT_ELIMIT;
	}
	l->panel = calloc(l->norder, sizeof(*l->panel));
	if (!l->panel) {
		snprintf(msg, msglen, "out of memory");
		return -LAT_ENOMEM;
	}
	l->ncols = cols;
	pw = (c->plot.w - (double)(cols - 1) * HM_GAP) / (double)cols;
	ph = (c->plot.h - (double)(rows - 1) * HM_GAP) / (double)rows;
	for (size_t j = 0; j < l->norder; j++) {
		struct rd_hist_panel *p = &l->panel[l->npanels++];
		size_t k = l->order[j];
		char name[80];

		if (j > 0 && (col == cols || (l->ngroups > 1 &&
					      l->colour[k] != l->colour[l->order[j - 1]]))) {
			r++;
			col = 0;
		}
		p->box = (struct rd_rect){ c->plot.x + (double)col * (pw + HM_GAP),
					    c->plot.y + (double)r * (ph + HM_GAP), pw, ph };
		p->first = j;
		p->n = 1;
		p->col = col++;
		p->ylabels = p->col == 0;
		hist_name(in, k, name, sizeof(name));
		panel_title(in, l, k, name, p->title, sizeof(p->title));
		panel_axes(c, p);
	}
	return 0;
}

/*
 * Mark @w of histogram @k sits where the one before it does (p99 in the p50's
 * bucket): one label says both, "p50, p99 < 2 µs".
 */
static void merge_mark(cairo_t *m, const struct rd_hist_input *in, struct rd_hist_layout *l,
		       size_t first, size_t k, int w)
{
	static const char *const what[3] = { "p50", "p99", "max" };
	struct rd_plabel *prev = l->nlabels > first ? &l->label[l->nlabels - 1] : NULL;
	char buf[2 * sizeof(prev->text)], own[sizeof(prev->text)];
	const char *rest;
	double xv;
	size_t keep;
	int n;

	if (!prev || prev->hist != k || prev->what != w - 1 ||
	    !rd_hist_mark_at(in, k, w, &xv, own, sizeof(own)))
		return;
	/* "p50, p99" + the value part both labels share, " < 2 µs" */
	rest = strchr(own, ' ');
	if (!rest || strlen(prev->text) < strlen(rest))
		return;
	keep = strlen(prev->text) - strlen(rest);
	n = snprintf(buf, sizeof(buf), "%.*s, %s%s", (int)keep, prev->text, what[w], rest);
	if (n < 0 || (size_t)n >= sizeof(prev->text))
		return;
	memcpy(prev->text, buf, (size_t)n + 1);
	prev->what = w;
	prev->w = rd_text_width(m, prev->text);
}

/* The marks of panel @p as labels at @pt points, placed in the band at its top. */
static int panel_labels(cairo_t *m, const struct rd_hist_input *in, struct rd_hist_layout *l,
			struct rd_hist_panel *p, const struct rd_rect *zone, double pt)
{
	size_t first = l->nlabels;

	rd_font(m, pt, 0);
	for (size_t j = p->first; j < p->first + p->n; j++) {
		size_t k = l->order[j];

		for (int w = 0; w < 3; w++) {
			struct rd_plabel *lb = &l->label[l->nlabels];
			double xv;

			memset(lb, 0, sizeof(*lb));
			if (!rd_hist_mark(in, k, w, &xv, lb->text, sizeof(lb->text))) {
				merge_mark(m, in, l, first, k, w);
				continue;
			}
			lb->x = round(rd_axis_map(&p->x, xv)) + 0.5;
			lb->y1 = p->box.y + p->box.h;
			lb->w = rd_text_width(m, lb->text);
			lb->h = pt;
			lb->hist = k;
			lb->what = w;
			l->nlabels++;
		}
	}
	{
		size_t dropped;
		int used = rd_plabels_place(l->label + first, l->nlabels - first, zone, pt + 5,
					     &dropped);

		l->dropped += dropped;
		return used;
	}
}

/*
 * Labels of every panel, then the data of each below the band of label rows
 * the most crowded panel used (the same height in every panel: one y axis).
 */
static int place_labels(struct rd_chart *c, cairo_t *m, const struct rd_hist_input *in,
			struct rd_hist_layout *l)
{
	double pt = l->multiples ? HL_PANEL_PT : RD_TICK_PT, head, band;
	int used = 0, rows;

	l->label = calloc(3 * l->norder + 1, sizeof(*l->label));
	if (!l->label)
		return -LAT_ENOMEM;
	for (size_t i = 0; i < l->npanels; i++) {
		struct rd_hist_panel *p = &l->panel[i];
		struct rd_rect zone;

		head = l->multiples ? HM_TITLE_PT + 8 : 4;
		/* at most a third of a panel for labels, a row per mark at most */
		rows = (int)fmin(3 * (double)p->n, floor(p->box.h / 3 / (pt + 5)));
		zone = (struct rd_rect){ p->box.x + 2, p->box.y + head, p->box.w - 4,
					  rows * (pt + 5) };
		used = (int)fmax(used, panel_labels(m, in, l, p, &zone, pt));
	}
	band = (l->multiples ? HM_TITLE_PT + 8 : 4) + used * (pt + 5) + 4;
	for (size_t i = 0; i < l->npanels; i++) {
		struct rd_axis *y = l->multiples ? &l->panel[i].y : &c->y;

		y->p1 = l->panel[i].box.y + band;
		rd_axis_ticks(y, (int)fmax(2, (y->p0 - y->p1) / (l->multiples ? 30 : 55)));
		l->panel[i].y = *y;
	}
	return 0;
}

/* Key numbers of an overlay: per histogram, its samples and marks; the legend. */
static void overlay_key(struct rd_chart *c, const struct rd_hist_input *in,
			struct rd_hist_layout *l)
{
	size_t more = 0;

	for (size_t k = 0; k < in->n; k++) {
		size_t len = strlen(c->subtitle);
		char name[160], d[3][48], pm[32];
		double x;

		hist_name(in, k, name, sizeof(name));
		if (c->nlegend < RD_LEGEND_MAX) {
			struct rd_legend_item *it = &c->legend[c->nlegend++];

			snprintf(it->text, sizeof(it->text), "%.70s (%llu sample%s)", name,
				 (unsigned long long)l->total[k], PLURAL(l->total[k]));
			it->rgb = rd_palette(k);
			it->style = RD_LEG_BOX;
		} else {
			more++;
		}
		if (!l->total[k])
			continue;
		for (int j = 0; j < 3; j++)
			if (!rd_hist_mark_at(in, k, j, &x, d[j], sizeof(d[j])))
				snprintf(d[j], sizeof(d[j]), "?");
		snprintf(c->subtitle + len, sizeof(c->subtitle) - len, "%s%s: n %llu, %s, %s, %s",
			 len ? " \xc2\xb7 " : "", name, (unsigned long long)l->total[k], d[0], d[1],
			 d[2]);
		/* the tool's own maximum says what the open bucket cannot */
		if (printed_max(in, k) >= 0) {
			len = strlen(c->subtitle);
			snprintf(c->subtitle + len, sizeof(c->subtitle) - len, " (printed max %s)",
				 rd_fmt_dur_chart((double)printed_max(in, k), pm, sizeof(pm)));
		}
	}
	if (more)
		snprintf(c->legend_more, sizeof(c->legend_more), "+%zu more", more);
}

/* Key numbers of small multiples: how many, the groups, the largest max; a legend of groups. */
static void multiples_key(struct rd_chart *c, const struct rd_hist_input *in,
			  struct rd_hist_layout *l)
{
	size_t worst = l->order[0];
	double wx = 0, x;
	char d[96], name[96];

	for (size_t j = 0; j < l->norder; j++) {
		size_t k = l->order[j];

		if (!rd_hist_mark_at(in, k, 2, &x, d, sizeof(d)))
			continue;
		/* the tool's maximum beyond an open bucket is the larger */
		x = printed_max(in, k) >= 0 ? fmax(x, (double)printed_max(in, k)) : x;
		if (x > wx) {
			wx = x;
			worst = k;
		}
	}
	rd_hist_mark_at(in, worst, 2, &x, d, sizeof(d));
	if (printed_max(in, worst) >= 0) {
		char pm[32];
		size_t n = strlen(d);

		snprintf(d + n, sizeof(d) - n, " (printed max %s)",
			 rd_fmt_dur_chart((double)printed_max(in, worst), pm, sizeof(pm)));
	}
	hist_name(in, worst, name, sizeof(name));
	snprintf(c->subtitle, sizeof(c->subtitle), "%zu histograms, one panel each, same axes"
		 " \xc2\xb7 largest: %s %s", l->norder, name, d);
	for (size_t g = 0; l->ngroups > 1 && g < l->ngroups; g++) {
		struct rd_legend_item *it = &c->legend[c->nlegend++];

		for (size_t j = 0; j < l->norder; j++)
			if (l->colour[l->order[j]] == g) {
				const char *gn = in->h[l->order[j]]->group;

				rd_utf8_clean(gn && *gn ? gn : "(no group)", (size_t)-1, it->text,
					       sizeof(it->text));
				break;
			}
		it->rgb = rd_palette(g);
		it->style = RD_LEG_BOX;
	}
}

/* The axes' ranges: log x over the buckets, log y from half the smallest value. */
static void hist_axes(struct rd_chart *c, cairo_t *m, const struct rd_hist_input *in,
		      const double r[4], int multiples)
{
	struct rd_axis t;
	double ylab = 0;

	/* a margin, not whole decades: the data should fill the width */
	c->x = (struct rd_axis){ .lo = r[0] / 1.4, .hi = r[1] * 1.4, .log = 1,
				  .unit = LAT_UNIT_NS };
	snprintf(c->x.title, sizeof(c->x.title), "%s", in->what ? in->what : "latency");
	c->y = (struct rd_axis){ .lo = r[2], .hi = r[3] * 1.5, .log = 1,
				  .unit = in->shares ? LAT_UNIT_NONE : LAT_UNIT_COUNT,
				  .percent = in->shares };
	/* counts by whole decades; shares with a margin (a top decade would stay empty) */
	if (!in->shares)
		rd_axis_nice_range(&c->y, 8);
	/* empty buckets drop to the floor, half a step below the smallest count */
	c->y.lo = r[2] / 2;
	snprintf(c->y.title, sizeof(c->y.title), in->shares ? "share of its samples per bucket" :
		 "samples per bucket");
	c->has_y = !multiples;
	if (!multiples)
		return;
	/* small multiples: the frame leaves room for the y tick labels the panels draw */
	t = c->y;
	rd_axis_ticks(&t, 4);
	rd_font(m, RD_TICK_PT, 0);
	for (int i = 0; i < t.nticks; i++)
		ylab = fmax(ylab, rd_text_width(m, t.tick_label[i]));
	c->lane_label_w = RD_LABEL_PT + 12 + ylab;
	rd_axis_ticks(&c->y, 4);	/* fixes the title's unit */
}

static int hist_layout(struct rd_chart *c, cairo_t *m, const void *data,
		       const struct lat_render_opts *o, char *msg, size_t msglen)
{
	const struct rd_hist_input *in = data;
	struct rd_hist_layout *l = calloc(1, sizeof(*l));
	double r[4];
	int ret;

	if (!l)
		goto nomem;
	c->priv = l;
	l->order = calloc(in->n + 1, sizeof(*l->order));
	l->total = calloc(in->n + 1, sizeof(*l->total));
	l->colour = calloc(in->n + 1, sizeof(*l->colour));
	if (!l->order || !l->total || !l->colour)
		goto nomem;
	scan(in, l, r);
	if (!l->norder) {
		snprintf(msg, msglen, "the histograms hold no samples");
		return -LAT_EEMPTY;
	}
	l->multiples = l->norder > (in->shares ? OVERLAY_MAX_SHARES : OVERLAY_MAX);
	assign_groups(in, l);
	hist_axes(c, m, in, r, l->multiples);
	rd_chart_title(c, o, "histogram", in->title);
	if (l->multiples)
		multiples_key(c, in, l);
	else
		overlay_key(c, in, l);
	rd_frame_layout(c, m);
	if (l->multiples) {
		ret = place_multiples(c, in, l, msg, msglen);
		if (ret)
			return ret;
		c->x.nticks = 0;	/* each column draws its own */
	} else {
		l->panel = calloc(1, sizeof(*l->panel));
		if (!l->panel)
			goto nomem;
		l->npanels = 1;
		l->ncols = 1;
		l->panel[0] = (struct rd_hist_panel){ .box = c->plot, .x = c->x, .y = c->y,
						       .first = 0, .n = l->norder };
	}
	if (place_labels(c, m, in, l))
		goto nomem;
	return 0;
nomem:
	snprintf(msg, msglen, "out of memory");
	return -LAT_ENOMEM;
}

static void draw_steps(cairo_t *cr, const struct rd_hist_input *in,
		       const struct rd_hist_layout *l, const struct rd_hist_panel *p, size_t k)
{
	const struct lat_histogram *h = in->h[k];
	struct rd_rgb rgb = rd_palette(l->colour[k]);
	double floor_y = p->y.p0;
	int open = 0;

	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < h->nbuckets; i++) {
			double x0 = rd_axis_map(&p->x, rd_hist_bucket_lo(h, i));
			double x1 = rd_axis_map(&p->x, rd_hist_bucket_hi(h, i));
			double y = h->b[i].count ? rd_axis_map(&p->y, yval(in, l, k, i)) : floor_y;

			if (!open) {
				cairo_move_to(cr, x0, floor_y);
				open = 1;
			}
			cairo_line_to(cr, x0, y);
			cairo_line_to(cr, x1, y);
			/* a gap between buckets goes down to the floor */
			if (i + 1 == h->nbuckets ||
			    rd_hist_bucket_lo(h, i + 1) > rd_hist_bucket_hi(h, i) * 1.0001) {
				cairo_line_to(cr, x1, floor_y);
				if (pass == 0)
					cairo_close_path(cr);
				open = 0;
			}
		}
		if (pass == 0) {
			rd_set_rgb(cr, rgb, 0.14);
			cairo_fill(cr);
		} else {
			rd_set_rgb(cr, rgb, 1);
			cairo_set_line_width(cr, 1.8);
			cairo_stroke(cr);
		}
		open = 0;
	}
}

/* A small multiple: its grid, its frame, its title. */
static void draw_panel_frame(cairo_t *cr, const struct rd_hist_panel *p)
{
	char buf[96];

	cairo_set_line_width(cr, 1);
	rd_axis_draw_x(cr, &p->x, p->y.p1, p->box.y + p->box.h, 0);
	rd_axis_draw_y(cr, &p->y, p->box.x, p->box.x + p->box.w, p->ylabels);
	cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
	cairo_rectangle(cr, round(p->box.x) + 0.5, round(p->box.y) + 0.5, round(p->box.w),
			round(p->box.h));
	cairo_stroke(cr);
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	rd_font(cr, HM_TITLE_PT, 1);
	rd_text(cr, p->box.x + 6, p->box.y + 4 + HM_TITLE_PT,
		 0, rd_text_fit(cr, p->title, p->box.w - 12, buf, sizeof(buf)));
}

/* The shared axes of small multiples: x tick labels under each column, the y title. */
static void multiples_axes(cairo_t *cr, const struct rd_chart *c,
			   const struct rd_hist_layout *l)
{
	double yb = c->plot.y + c->plot.h;

	for (size_t col = 0; col < l->ncols; col++)
		for (size_t i = 0; i < l->npanels; i++) {
			if (l->panel[i].col != col)
				continue;
			rd_font(cr, RD_TICK_PT, 0);
			rd_axis_draw_x(cr, &l->panel[i].x, yb, yb, 1);
			break;
		}
	rd_axis_title_y(cr, c, c->y.title);
}

static void hist_draw(cairo_t *cr, const struct rd_chart *c, const void *data,
		      const struct lat_render_opts *o)
{
	const struct rd_hist_input *in = data;
	const struct rd_hist_layout *l = c->priv;
	double dash[] = { 3, 3 };

	(void)o;
	for (size_t i = 0; i < l->npanels; i++) {
		const struct rd_hist_panel *p = &l->panel[i];

		if (l->multiples)
			draw_panel_frame(cr, p);
		cairo_save(cr);
		cairo_rectangle(cr, p->box.x, p->y.p1, p->box.w, p->y.p0 - p->y.p1);
		cairo_clip(cr);
		for (size_t j = p->first; j < p->first + p->n; j++)
			draw_steps(cr, in, l, p, l->order[j]);
		cairo_restore(cr);
	}
	if (l->multiples)
		multiples_axes(cr, c, l);
	/* percentile marks: a dashed line from under the label to the floor */
	for (size_t i = 0; i < l->nlabels; i++) {
		const struct rd_plabel *lb = &l->label[i];

		if (!lb->placed)
			continue;
		rd_set_rgb(cr, rd_palette(l->colour[lb->hist]), 0.9);
		cairo_set_line_width(cr, 1.2);
		cairo_set_dash(cr, dash, 2, 0);
		cairo_move_to(cr, lb->x, lb->y0);
		cairo_line_to(cr, lb->x, lb->y1);
		cairo_stroke(cr);
		cairo_set_dash(cr, NULL, 0, 0);
		rd_text_box(cr, &lb->box, lb->h, 0, lb->text);
	}
}

const struct rd_chart_ops rd_hist_ops = {
	.name = "histogram",
	.layout = hist_layout,
	.draw = hist_draw,
	.release = hist_release,
};
