// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The blame chart: the top functions as horizontal bars, inclusive time
 * (pale) with the self time (solid) inside it, each written as ns and % of
 * the whole, with the call count.  Rows come in the caller's order.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render_priv.h"

#define ROW_MAX 30.0
#define ROW_MIN 16.0

struct blame_priv {
	size_t nrows;		/* rows that fit */
	double row_h, y0;
	uint64_t whole_ns;
};

static void blame_release(struct rd_chart *c)
{
	free(c->priv);
	c->priv = NULL;
}

static int blame_layout(struct rd_chart *c, cairo_t *m, const void *data,
			const struct lat_render_opts *o, char *msg, size_t msglen)
{
	const struct rd_blame_input *in = data;
	struct blame_priv *p = calloc(1, sizeof(*p));
	uint64_t maxv = 0, whole = in->whole_ns;
	double namew = 0;
	char d1[32], d2[32], name[160];

	if (!p) {
		snprintf(msg, msglen, "out of memory");
		return -LAT_ENOMEM;
	}
	c->priv = p;
	if (!in->n) {
		snprintf(msg, msglen, "no functions to blame");
		return -LAT_EEMPTY;
	}
	rd_font(m, RD_LABEL_PT, 0);
	for (size_t i = 0; i < in->n; i++) {
		const struct lat_blame_row *r = &in->rows[i];

		maxv = r->total_ns > maxv ? r->total_ns : maxv;
		maxv = r->self_ns > maxv ? r->self_ns : maxv;
		if (!in->whole_ns)
			whole += r->self_ns;
		rd_utf8_clean(r->name, (size_t)-1, name, sizeof(name));
		namew = fmax(namew, rd_text_width(m, name));
	}
	p->whole_ns = whole;
	c->has_y = 0;
	c->lane_label_w = fmin(namew, c->w * 0.28);
	c->x = (struct rd_axis){ .lo = 0, .hi = (double)maxv * 1.02, .unit = LAT_UNIT_NS };
	snprintf(c->x.title, sizeof(c->x.title), "time");
	rd_axis_nice_range(&c->x, 10);

	c->legend[0] = (struct rd_legend_item){ .rgb = rd_palette(0), .style = RD_LEG_BOX };
	snprintf(c->legend[0].text, sizeof(c->legend[0].text), "self time");
	c->legend[1] = (struct rd_legend_item){ .rgb = { 0.72, 0.82, 0.91 }, .style = RD_LEG_BOX };
	snprintf(c->legend[1].text, sizeof(c->legend[1].text), "inclusive time");
	c->nlegend = 2;
	rd_chart_title(c, o, "blame", in->title);
	rd_frame_layout(c, m);

	p->y0 = c->plot.y + 6;
	p->row_h = fmin(ROW_MAX, (c->plot.h - 12) / (double)in->n);
	p->nrows = in->n;
	if (p->row_h < ROW_MIN) {
		p->row_h = ROW_MIN;
		p->nrows = (size_t)((c->plot.h - 12) / ROW_MIN);
	}
	/* few rows: a compact chart, the axis right under the last bar */
	if (p->nrows * p->row_h + 12 < c->plot.h)
		c->plot.h = (double)p->nrows * p->row_h + 12;
	rd_utf8_clean(in->rows[0].name, (size_t)-1, name, sizeof(name));
	snprintf(c->subtitle, sizeof(c->subtitle), "%zu of %zu row%s \xc2\xb7 whole %s \xc2\xb7 "
		 "first: %s, self %s (%.1f%%)", p->nrows, in->n, PLURAL(in->n),
		 rd_fmt_dur_chart((double)whole, d1, sizeof(d1)), name,
		 rd_fmt_dur_chart((double)in->rows[0].self_ns, d2, sizeof(d2)),
		 whole ? 100.0 * (double)in->rows[0].self_ns / (double)whole : 0.0);
	return 0;
}

static void blame_draw(cairo_t *cr, const struct rd_chart *c, const void *data,
		       const struct lat_render_opts *o)
{
	const struct rd_blame_input *in = data;
	const struct blame_priv *p = c->priv;
	double x0 = rd_axis_map(&c->x, 0);

	for (size_t i = 0; i < p->nrows; i++) {
		const struct lat_blame_row *r = &in->rows[i];
		double y = p->y0 + (double)i * p->row_h, bh = p->row_h * 0.72;
		double xt = rd_axis_map(&c->x, (double)r->total_ns);
		double xs = rd_axis_map(&c->x, (double)r->self_ns);
		double pt = p->whole_ns ? 100.0 * (double)r->total_ns / (double)p->whole_ns : 0;
		double ps = p->whole_ns ? 100.0 * (double)r->self_ns / (double)p->whole_ns : 0;
		char name[160], fit[160], buf[200], d1[32], d2[32];
		double tw, tx;

		if (i % 2) {
			cairo_set_source_rgb(cr, 0.975, 0.975, 0.975);
			cairo_rectangle(cr, c->plot.x + 1, y, c->plot.w - 2, p->row_h);
			cairo_fill(cr);
		}
		cairo_set_source_rgb(cr, 0.72, 0.82, 0.91);
		cairo_rectangle(cr, x0, y + (p->row_h - bh) / 2, fmax(xt - x0, 1), bh);
		cairo_fill(cr);
		rd_set_rgb(cr, rd_palette(0), 1);
		cairo_rectangle(cr, x0, y + (p->row_h - bh) / 2, fmax(xs - x0, 1), bh);
		cairo_fill(cr);

		rd_font(cr, fmin(RD_LABEL_PT, p->row_h * 0.7), 0);
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		rd_text_fit(cr, r->name ? r->name : "?", c->lane_label_w, fit, sizeof(fit));
		rd_text(cr, c->plot.x - 8, y + p->row_h / 2 + fmin(RD_LABEL_PT, p->row_h) * 0.35,
			 2, fit);
		snprintf(buf, sizeof(buf), "self %s (%.1f%%) \xc2\xb7 total %s (%.1f%%) \xc2\xb7 "
			 "%llu call%s", rd_fmt_dur_chart((double)r->self_ns, d1, sizeof(d1)), ps,
			 rd_fmt_dur_chart((double)r->total_ns, d2, sizeof(d2)), pt,
			 (unsigned long long)r->calls, r->calls == 1 ? "" : "s");
		rd_font(cr, fmin(RD_TICK_PT, p->row_h * 0.65), 0);
		tw = rd_text_width(cr, buf);
		tx = fmax(xt, xs) + 6;
		if (tx + tw > c->plot.x + c->plot.w - 4) {
			/* no room right of the bar: inside it, white on the self bar only */
			tx = fmax(x0 + 4, fmax(xt, xs) - tw - 6);
			if (tx < xs)
				cairo_set_source_rgb(cr, 1, 1, 1);
			else
				cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		} else {
			cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
		}
		rd_text(cr, tx, y + p->row_h / 2 + fmin(RD_TICK_PT, p->row_h) * 0.33, 0, buf);
		(void)name;
	}
}

const struct rd_chart_ops rd_blame_ops = {
	.name = "blame",
	.layout = blame_layout,
	.draw = blame_draw,
	.release = blame_release,
};
