// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The frame every chart shares (title, key numbers, axes, grid, legend) and
 * the driver: layout on a scratch surface, then the same drawing onto a PNG
 * image or an SVG stream, collected in memory.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cairo-svg.h>

#include "render_priv.h"

#define LEG_ROW 20.0
#define LEG_SWATCH 24.0

void rd_chart_title(struct rd_chart *c, const struct lat_render_opts *o, const char *kind,
		     const char *title)
{
	char src[120], t[320], block[32] = "";

	rd_utf8_clean(o->source ? o->source : "", (size_t)-1, src, sizeof(src));
	rd_utf8_clean(title ? title : "", (size_t)-1, t, sizeof(t));
	if (o->block_no > 0)
		snprintf(block, sizeof(block), "block %d", o->block_no);
	snprintf(c->title, sizeof(c->title), "%s%s%s%s%s%s%s", src, *src && *block ? " \xc2\xb7 " : "",
		 block, (*src || *block) ? " \xc2\xb7 " : "", kind, *t ? ": " : "", t);
	c->title_keep0 = c->title_keep1 = strlen(c->title) - strlen(t);
}

/* Bytes of @s kept by rd_text_fit's @out (its ellipsis left out). */
static size_t kept_bytes(const char *s, const char *out)
{
	size_t n = strlen(out);

	if (!strcmp(s, out))
		return n;
	return n >= 3 ? n - 3 : 0;
}

/*
 * The longest head of @s (ending before a space) that fits @maxw: its length,
 * 0 if no space-bounded head fits.
 */
static size_t fit_head(cairo_t *m, const char *s, double maxw)
{
	char buf[sizeof(((struct rd_chart *)0)->title)];
	size_t best = 0;

	for (size_t i = 1; s[i] && i < sizeof(buf); i++) {
		if (s[i] != ' ')
			continue;
		memcpy(buf, s, i);
		buf[i] = '\0';
		if (rd_text_width(m, buf) > maxw)
			break;
		best = i;
	}
	return best;
}

/* Line @k of the title: @n bytes of @s (elided to @maxw if need be). */
static size_t title_put(struct rd_chart *c, cairo_t *m, int k, const char *s, size_t n,
			double maxw)
{
	char buf[sizeof(c->title_line[0])];

	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	while (n && buf[n - 1] == ' ')
		buf[--n] = '\0';
	rd_text_fit(m, buf, maxw, c->title_line[k], sizeof(c->title_line[k]));
	return kept_bytes(buf, c->title_line[k]);
}

/*
 * The title on one line at RD_TITLE_PT if it fits, else on two lines broken
 * at a space, at RD_TITLE_PT and then smaller sizes down to RD_TITLE_MIN_PT;
 * else, as a last resort, two lines at the smallest size with the second cut
 * at its end, or, when that would cut into title_keep0..1 (the verdict kind
 * and share), broken just before title_keep0 with the first line cut instead.
 */
static void title_wrap(struct rd_chart *c, cairo_t *m)
{
	double maxw = c->w - 2 * RD_PAD;
	size_t len = strlen(c->title), brk = 0, kept;

	c->title_lines = 1;
	for (double pt = RD_TITLE_PT; pt >= RD_TITLE_MIN_PT; pt -= 2) {
		c->title_pt = pt;
		rd_font(m, pt, 1);
		if (rd_text_width(m, c->title) <= maxw) {
			title_put(c, m, 0, c->title, len, maxw);
			return;
		}
		brk = fit_head(m, c->title, maxw);
		if (brk && rd_text_width(m, c->title + brk + 1) <= maxw) {
			c->title_lines = 2;
			title_put(c, m, 0, c->title, brk, maxw);
			title_put(c, m, 1, c->title + brk + 1, len - brk - 1, maxw);
			return;
		}
	}
	/* the last resort, at RD_TITLE_MIN_PT */
	c->title_lines = 2;
	if (brk) {
		title_put(c, m, 0, c->title, brk, maxw);
		kept = title_put(c, m, 1, c->title + brk + 1, len - brk - 1, maxw);
		if (c->title_keep1 <= brk || brk + 1 + kept >= c->title_keep1)
			return;
	}
	if (c->title_keep1 > c->title_keep0 && c->title_keep0 > 0) {
		title_put(c, m, 0, c->title, c->title_keep0, maxw);
		title_put(c, m, 1, c->title + c->title_keep0, len - c->title_keep0, maxw);
		return;
	}
	if (!brk) {
		c->title_lines = 1;
		title_put(c, m, 0, c->title, len, maxw);
	}
}

double rd_frame_title_h(const struct rd_chart *c)
{
	return RD_PAD + c->title_lines * c->title_pt + (c->title_lines - 1) * 4;
}

void rd_frame_layout(struct rd_chart *c, cairo_t *m)
{
	double top;
	double bottom = c->h - RD_PAD - RD_LABEL_PT - 10 - RD_TICK_PT - 10;
	double right = c->w - RD_PAD - 12, left, ylab = 0;

	title_wrap(c, m);
	top = rd_frame_title_h(c) + 8 + RD_SUB_PT + 18;
	if (c->nlegend || c->legend_more[0]) {
		double lw = 0;

		rd_font(m, RD_TICK_PT, 0);
		for (int i = 0; i < c->nlegend; i++)
			lw = fmax(lw, rd_text_width(m, c->legend[i].text));
		lw = fmax(lw, rd_text_width(m, c->legend_more));
		lw = fmin(lw + LEG_SWATCH + 8, c->w * 0.26);
		c->legend_box = (struct rd_rect){ c->w - RD_PAD - lw, top, lw,
						   (c->nlegend + !!c->legend_more[0]) * LEG_ROW };
		right = c->legend_box.x - 20;
	}
	if (bottom < top + 40)
		bottom = top + 40;
	if (c->has_y) {
		c->y.vertical = 1;
		c->y.p0 = bottom;
		c->y.p1 = top;
		rd_axis_ticks(&c->y, (int)fmax(2, (bottom - top) / 55));
		rd_font(m, RD_TICK_PT, 0);
		for (int i = 0; i < c->y.nticks; i++)
			ylab = fmax(ylab, rd_text_width(m, c->y.tick_label[i]));
		left = RD_PAD + RD_LABEL_PT + 12 + ylab + 8;
	} else {
		left = RD_PAD + c->lane_label_w + 8;
	}
	if (right < left + 40)
		right = left + 40;
	c->plot = (struct rd_rect){ left, top, right - left, bottom - top };
	c->x.p0 = left;
	c->x.p1 = right;
	rd_axis_ticks(&c->x, (int)fmax(2, (right - left) / 120));
	if (c->legend_box.h > c->plot.h) {
		/* keep what fits, say how many did not */
		int fit = (int)(c->plot.h / LEG_ROW) - 1, more;

		if (fit < 0)
			fit = 0;
		if (fit < c->nlegend) {
			more = c->nlegend - fit + atoi(c->legend_more[0] == '+' ?
						      c->legend_more + 1 : "0");
			c->nlegend = fit;
			snprintf(c->legend_more, sizeof(c->legend_more), "+%d more", more);
		}
		c->legend_box.h = (c->nlegend + 1) * LEG_ROW;
	}
}

void rd_axis_draw_x(cairo_t *cr, const struct rd_axis *a, double y_top, double y_bottom,
		     int labels)
{
	for (int i = 0; i < a->nticks; i++) {
		double x = round(rd_axis_map(a, a->tick[i])) + 0.5;

		if (a->tick_major[i]) {
			cairo_set_source_rgb(cr, 0.90, 0.90, 0.90);
			cairo_move_to(cr, x, y_top);
			cairo_line_to(cr, x, y_bottom);
			cairo_stroke(cr);
		}
		cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
		cairo_move_to(cr, x, y_bottom);
		cairo_line_to(cr, x, y_bottom + (a->tick_major[i] ? 6 : 3));
		cairo_stroke(cr);
		if (labels && a->tick_label[i][0])
			rd_text(cr, x, y_bottom + 8 + RD_TICK_PT, 1, a->tick_label[i]);
	}
}

static void draw_axis_x(cairo_t *cr, const struct rd_chart *c)
{
	const struct rd_axis *a = &c->x;
	double yb = c->plot.y + c->plot.h;

	char buf[sizeof(a->title) + 8];

	rd_axis_draw_x(cr, a, c->plot.y, yb, 1);
	rd_font(cr, RD_LABEL_PT, 0);
	rd_text(cr, c->plot.x + c->plot.w / 2, yb + 8 + RD_TICK_PT + 10 + RD_LABEL_PT, 1,
		 rd_text_fit(cr, a->title, c->plot.w, buf, sizeof(buf)));
}

void rd_axis_draw_y(cairo_t *cr, const struct rd_axis *a, double x_left, double x_right,
		     int labels)
{
	rd_font(cr, RD_TICK_PT, 0);
	for (int i = 0; i < a->nticks; i++) {
		double y = round(rd_axis_map(a, a->tick[i])) + 0.5;

		if (a->tick_major[i]) {
			cairo_set_source_rgb(cr, 0.90, 0.90, 0.90);
			cairo_move_to(cr, x_left, y);
			cairo_line_to(cr, x_right, y);
			cairo_stroke(cr);
		}
		cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
		cairo_move_to(cr, x_left, y);
		cairo_line_to(cr, x_left - (a->tick_major[i] ? 6 : 3), y);
		cairo_stroke(cr);
		if (labels && a->tick_label[i][0])
			rd_text(cr, x_left - 9, y + RD_TICK_PT * 0.35, 2, a->tick_label[i]);
	}
}

void rd_axis_title_y(cairo_t *cr, const struct rd_chart *c, const char *title)
{
	char buf[160];

	rd_font(cr, RD_LABEL_PT, 0);
	rd_text_fit(cr, title, c->plot.h, buf, sizeof(buf));
	cairo_save(cr);
	cairo_translate(cr, RD_PAD + RD_LABEL_PT, c->plot.y + c->plot.h / 2);
	cairo_rotate(cr, -M_PI / 2);
	rd_text(cr, 0, 0, 1, buf);
	cairo_restore(cr);
}

static void draw_axis_y(cairo_t *cr, const struct rd_chart *c)
{
	rd_axis_draw_y(cr, &c->y, c->plot.x, c->plot.x + c->plot.w, 1);
	rd_axis_title_y(cr, c, c->y.title);
}

static void draw_legend(cairo_t *cr, const struct rd_chart *c)
{
	const struct rd_rect *b = &c->legend_box;
	char buf[128];

	rd_font(cr, RD_TICK_PT, 0);
	for (int i = 0; i < c->nlegend; i++) {
		const struct rd_legend_item *it = &c->legend[i];
		double y = b->y + i * LEG_ROW, cy = y + LEG_ROW / 2;

		rd_set_rgb(cr, it->rgb, 1);
		switch (it->style) {
		case RD_LEG_BOX:
			cairo_rectangle(cr, b->x, cy - 6, 16, 12);
			cairo_fill(cr);
			break;
		case RD_LEG_DASH: {
			double d[] = { 4, 3 };

			cairo_set_dash(cr, d, 2, 0);
		}
			/* fall through */
		case RD_LEG_LINE:
			cairo_set_line_width(cr, 2);
			cairo_move_to(cr, b->x, cy);
			cairo_line_to(cr, b->x + 18, cy);
			cairo_stroke(cr);
			cairo_set_dash(cr, NULL, 0, 0);
			cairo_set_line_width(cr, 1);
			break;
		case RD_LEG_RING:
			cairo_set_line_width(cr, 2);
			cairo_new_sub_path(cr);
			cairo_arc(cr, b->x + 9, cy, 5, 0, 2 * M_PI);
			cairo_stroke(cr);
			cairo_set_line_width(cr, 1);
			break;
		}
		cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
		rd_text_fit(cr, it->text, b->w - LEG_SWATCH, buf, sizeof(buf));
		rd_text(cr, b->x + LEG_SWATCH, cy + RD_TICK_PT * 0.35, 0, buf);
	}
	if (c->legend_more[0]) {
		cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
		rd_text(cr, b->x + LEG_SWATCH, b->y + c->nlegend * LEG_ROW + LEG_ROW / 2 +
			 RD_TICK_PT * 0.35, 0, c->legend_more);
	}
}

void rd_frame_draw(cairo_t *cr, const struct rd_chart *c)
{
	char buf[sizeof(c->subtitle)];

	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_set_line_width(cr, 1);
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	rd_font(cr, c->title_pt, 1);
	for (int k = 0; k < c->title_lines; k++)
		rd_text(cr, RD_PAD, RD_PAD + c->title_pt + k * (c->title_pt + 4), 0,
			 c->title_line[k]);
	cairo_set_source_rgb(cr, 0.30, 0.30, 0.30);
	rd_font(cr, RD_SUB_PT, 0);
	rd_text(cr, RD_PAD, rd_frame_title_h(c) + 8 + RD_SUB_PT,
		 0, rd_text_fit(cr, c->subtitle, c->w - 2 * RD_PAD, buf, sizeof(buf)));
	rd_font(cr, RD_TICK_PT, 0);
	draw_axis_x(cr, c);
	if (c->has_y)
		draw_axis_y(cr, c);
	cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
	cairo_rectangle(cr, round(c->plot.x) + 0.5, round(c->plot.y) + 0.5, round(c->plot.w),
			round(c->plot.h));
	cairo_stroke(cr);
	draw_legend(cr, c);
}

/* --- output ------------------------------------------------------------------ */

static cairo_status_t buf_write(void *closure, const unsigned char *data, unsigned int len)
{
	struct lat_render_buf *b = closure;

	if (lat_grow(&b->data, &b->cap, b->len + len, 1))
		return CAIRO_STATUS_NO_MEMORY;
	memcpy(b->data + b->len, data, len);
	b->len += len;
	return CAIRO_STATUS_SUCCESS;
}

static int do_layout(const struct rd_chart_ops *ops, const void *data,
		     const struct lat_render_opts *o, struct rd_chart *c, char *msg, size_t msglen)
{
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 4, 4);
	cairo_t *m = cairo_create(s);
	int ret;

	memset(c, 0, sizeof(*c));
	c->w = o->width;
	c->h = o->height;
	rd_font(m, RD_TICK_PT, 0);
	ret = ops->layout(c, m, data, o, msg, msglen);
	if (!ret && cairo_status(m) != CAIRO_STATUS_SUCCESS) {
		snprintf(msg, msglen, "layout: %s", cairo_status_to_string(cairo_status(m)));
		ret = -LAT_EIO;
	}
	cairo_destroy(m);
	cairo_surface_destroy(s);
	return ret;
}

static void do_draw(cairo_t *cr, const struct rd_chart_ops *ops, const void *data,
		    const struct lat_render_opts *o, const struct rd_chart *c)
{
	rd_frame_draw(cr, c);
	cairo_save(cr);
	ops->draw(cr, c, data, o);
	cairo_restore(cr);
}

static int check_opts(const struct lat_render_opts *o, char *msg, size_t len)
{
	if (o->width < LAT_RENDER_MIN_W || o->width > LAT_RENDER_MAX_W ||
	    o->height < LAT_RENDER_MIN_H || o->height > LAT_RENDER_MAX_H) {
		snprintf(msg, len, "size %dx%d outside %dx%d .. %dx%d", o->width, o->height,
			 LAT_RENDER_MIN_W, LAT_RENDER_MIN_H, LAT_RENDER_MAX_W, LAT_RENDER_MAX_H);
		return -LAT_EUSAGE;
	}
	return 0;
}

cairo_surface_t *rd_chart_image(const struct rd_chart_ops *ops, const void *data,
				 const struct lat_render_opts *o, struct rd_chart *c)
{
	cairo_surface_t *s;
	cairo_t *cr;
	char msg[256];

	if (check_opts(o, msg, sizeof(msg)))
		return NULL;
	if (do_layout(ops, data, o, c, msg, sizeof(msg))) {
		if (ops->release)
			ops->release(c);
		return NULL;
	}
	s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, o->width, o->height);
	cr = cairo_create(s);
	rd_font(cr, RD_TICK_PT, 0);
	do_draw(cr, ops, data, o, c);
	cairo_destroy(cr);
	cairo_surface_flush(s);
	return s;
}

int rd_chart_run(const struct rd_chart_ops *ops, const void *data,
		  const struct lat_render_opts *o, struct lat_render_buf *out)
{
	struct rd_chart c;
	cairo_surface_t *s;
	cairo_status_t st;
	cairo_t *cr;
	int ret;

	out->len = 0;
	out->msg[0] = '\0';
	ret = check_opts(o, out->msg, sizeof(out->msg));
	if (ret)
		return ret;
	ret = do_layout(ops, data, o, &c, out->msg, sizeof(out->msg));
	if (ret)
		goto out;
	if (o->format == LAT_RENDER_SVG) {
		s = cairo_svg_surface_create_for_stream(buf_write, out, o->width, o->height);
		cairo_svg_surface_restrict_to_version(s, CAIRO_SVG_VERSION_1_1);
	} else {
		s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, o->width, o->height);
	}
	cr = cairo_create(s);
	rd_font(cr, RD_TICK_PT, 0);
	do_draw(cr, ops, data, o, &c);
	st = cairo_status(cr);
	cairo_destroy(cr);
	if (o->format == LAT_RENDER_SVG) {
		cairo_surface_finish(s);
	} else if (st == CAIRO_STATUS_SUCCESS) {
		cairo_surface_flush(s);
		st = cairo_surface_write_to_png_stream(s, buf_write, out);
	}
	if (st == CAIRO_STATUS_SUCCESS)
		st = cairo_surface_status(s);
	cairo_surface_destroy(s);
	if (st != CAIRO_STATUS_SUCCESS) {
		snprintf(out->msg, sizeof(out->msg), "cairo: %s", cairo_status_to_string(st));
		ret = st == CAIRO_STATUS_NO_MEMORY ? -LAT_ENOMEM : -LAT_EIO;
		goto out;
	}
	if (o->format == LAT_RENDER_SVG && rd_svg_renumber_ids(out)) {
		snprintf(out->msg, sizeof(out->msg), "SVG ids: out of memory");
		ret = -LAT_ENOMEM;
	}
out:
	if (ops->release)
		ops->release(&c);
	return ret;
}
