// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The summary rows: what a tool printed per thread, CPU or task (cyclictest's
 * T: lines, rtla timerlat / osnoise top, perf sched latency, hwlat), or what
 * the buckets say of histograms too many for small multiples.  One row per
 * thread / CPU / task: a range bar min..max, the average (else p50) as a dark
 * tick, the max as a dot; one bar per kind in a row when the histograms come
 * in kinds (rtla: IRQ, Thread, Ret user of each CPU).  The largest max of
 * each kind is red.  Rows wrap into columns when they do not fit one at a
 * readable height, and only every Nth row is named when even the columns are
 * too short (a 256-CPU machine); the worst rows are always named.  Every text
 * is placed in the layout pass, none overlapping another.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render_priv.h"

#define RG_MIN_COL_W 260.0	/* a column of rows at its narrowest */
#define RG_MIN_BARS_W 140.0	/* the bars' part of a column at its narrowest */
#define RG_MAX_BAR 22.0
#define RG_LABEL_PT 11.0
#define RG_SMALL_PT 9.0
#define RG_VAL_PT 10.0
#define RG_LOG_RATIO 100.0	/* log axis from this max / min on (as the series chart) */

static void rg_release(struct rd_chart *c)
{
	struct rd_ranges_layout *l = c->priv;

	if (l) {
		free(l->bar);
		free(l->row_name);
		free(l->colx);
		free(l->text);
	}
	free(l);
	c->priv = NULL;
}

static double rg_col_w(const struct rd_chart *c, const struct rd_ranges_layout *l)
{
	return c->plot.w / (double)l->ncols;
}

/*
 * Titles "IRQ cpu1", "Thread cpu1", "Ret user cpu1" (rtla top) are kinds of
 * the same rows: split at the last space when there are 2 to RD_RG_KINDS
 * distinct heads and some row has more than one kind.
 */
static int titles_split(const struct rd_hist_input *in)
{
	size_t heads = 0, keys = 0;

	for (size_t k = 0; k < in->n; k++) {
		const char *t = in->h[k]->title, *sp = t ? strrchr(t, ' ') : NULL;
		int new_head = 1, new_key = 1;

		if (!sp || sp == t || !sp[1] || in->h[k]->group)
			return 0;
		for (size_t j = 0; j < k && (new_head || new_key); j++) {
			const char *u = in->h[j]->title, *su = strrchr(u, ' ');

			if (su - u == sp - t && !strncmp(u, t, (size_t)(sp - t)))
				new_head = 0;
			if (!strcmp(su, sp))
				new_key = 0;
		}
		heads += new_head;
		keys += new_key;
	}
	return heads >= 2 && heads <= RD_RG_KINDS && keys < in->n;
}

/* Histogram @k's kind and row: its group and the rest of its title, else split or whole. */
static void kind_key(const struct rd_hist_input *in, size_t k, int split, char *kind,
		     char *key)
{
	const struct lat_histogram *h = in->h[k];
	const char *t = h->title ? h->title : "";
	char raw[160];

	kind[0] = '\0';
	if (h->group && *h->group && split >= 0) {
		size_t gl = strlen(h->group);

		rd_utf8_clean(h->group, (size_t)-1, kind, 32);
		if (!strncmp(t, h->group, gl) && t[gl] == ' ')
			t += gl + 1;
	} else if (split > 0) {
		const char *sp = strrchr(t, ' ');

		rd_utf8_clean(t, (size_t)(sp - t), kind, 32);
		t = sp + 1;
	}
	if (!*t)
		snprintf(raw, sizeof(raw), "histogram %zu", k + 1);
	else
		snprintf(raw, sizeof(raw), "%s", t);
	rd_utf8_clean(raw, (size_t)-1, key, 64);
}

/* What is known of histogram @k: the summary the tool printed, else its buckets' marks. */
static int bar_values(const struct rd_hist_input *in, size_t k, struct rd_rg_bar *b)
{
	const struct lat_histogram *h = in->h[k];
	const struct lat_hist_printed *p = &h->printed;
	char buf[48];
	double x;

	b->lo = b->mid = b->p99 = b->hi = NAN;
	b->count = -1;
	if (h->has_printed) {
		b->lo = p->min_ns != LAT_VALUE_NONE ? (double)p->min_ns : NAN;
		b->mid = p->avg_ns != LAT_VALUE_NONE ? (double)p->avg_ns : NAN;
		b->hi = p->max_ns != LAT_VALUE_NONE ? (double)p->max_ns : NAN;
		b->count = p->count != LAT_VALUE_NONE ? p->count : -1;
		b->mid_avg = 1;
	}
	if (rd_hist_samples(h)) {
		if (rd_hist_mark_at(in, k, 1, &x, buf, sizeof(buf)))
			b->p99 = x;
		if (isnan(b->hi) && rd_hist_mark_at(in, k, 2, &x, buf, sizeof(buf))) {
			b->hi = x;
			b->bounds = 1;
		}
		if (isnan(b->mid) && rd_hist_mark_at(in, k, 0, &x, buf, sizeof(buf))) {
			b->mid = x;
			b->mid_avg = 0;
			b->bounds = 1;
		}
		for (size_t i = 0; isnan(b->lo) && i < h->nbuckets; i++)
			if (h->b[i].count)
				b->lo = (double)h->b[i].lo_ns;
		if (b->count < 0)
			b->count = (int64_t)rd_hist_samples(h);
	}
	return !isnan(b->hi) || !isnan(b->mid) || !isnan(b->lo);
}

/* The index of @s in @names (@n of them), appended when new and @cap allows; or cap. */
static size_t intern(char (*names)[64], size_t *n, size_t cap, const char *s)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(names[i], s))
			return i;
	if (*n == cap)
		return cap;
	snprintf(names[*n], 64, "%s", s);
	return (*n)++;
}

/* Bars, rows and kinds; 0 when the kinds did not fit RD_RG_KINDS (the caller goes without). */
static int collect(const struct rd_hist_input *in, struct rd_ranges_layout *l, int split)
{
	char kinds[RD_RG_KINDS][64];

	l->nbars = l->nrows = l->nkinds = 0;
	for (size_t k = 0; k < in->n; k++) {
		struct rd_rg_bar *b = &l->bar[l->nbars];
		char kind[32], key[64];

		memset(b, 0, sizeof(*b));
		if (!bar_values(in, k, b))
			continue;
		kind_key(in, k, split, kind, key);
		b->hist = k;
		b->kind = intern(kinds, &l->nkinds, RD_RG_KINDS, kind);
		if (b->kind == RD_RG_KINDS)
			return 0;
		b->row = intern(l->row_name, &l->nrows, in->n, key);
		l->nbars++;
	}
	for (size_t i = 0; i < l->nkinds; i++)
		snprintf(l->kind[i], sizeof(l->kind[i]), "%s", kinds[i]);
	return 1;
}

/* The worst bar of each kind and of all: the largest max (else average), the first of ties. */
static double bar_top(const struct rd_rg_bar *b)
{
	return !isnan(b->hi) ? b->hi : !isnan(b->mid) ? b->mid : b->lo;
}

static void find_worst(struct rd_ranges_layout *l)
{
	for (size_t j = 0; j < RD_RG_KINDS; j++)
		l->worst[j] = l->nbars;
	l->worst_all = 0;
	for (size_t i = 0; i < l->nbars; i++) {
		size_t *w = &l->worst[l->bar[i].kind];

		if (*w == l->nbars || bar_top(&l->bar[i]) > bar_top(&l->bar[*w]))
			*w = i;
		if (bar_top(&l->bar[i]) > bar_top(&l->bar[l->worst_all]))
			l->worst_all = i;
	}
	/* every value 0 (a quiet hwnoise run): no row is worse than another */
	l->flat = !(bar_top(&l->bar[l->worst_all]) > 0);
}

/* Log when the values span RG_LOG_RATIO or more, else linear from 0. */
static void rg_axis(struct rd_chart *c, const struct rd_hist_input *in,
		    const struct rd_ranges_layout *l)
{
	double vmin = INFINITY, vmax = 0;

	for (size_t i = 0; i < l->nbars; i++) {
		const struct rd_rg_bar *b = &l->bar[i];
		double v[4] = { b->lo, b->mid, b->p99, b->hi };

		for (int j = 0; j < 4; j++) {
			if (isnan(v[j]))
				continue;
			vmax = fmax(vmax, v[j]);
			if (v[j] > 0)
				vmin = fmin(vmin, v[j]);
		}
	}
	c->x = (struct rd_axis){ .unit = LAT_UNIT_NS };
	if (vmin < INFINITY && vmax / vmin >= RG_LOG_RATIO) {
		c->x.log = 1;
		c->x.lo = vmin / 1.3;
		c->x.hi = vmax * 1.3;
	} else {
		c->x.hi = vmax > 0 ? vmax * 1.04 : 1000;
		rd_axis_nice_range(&c->x, 8);
	}
	snprintf(c->x.title, sizeof(c->x.title), "%s", in->what ? in->what : "latency");
	c->has_y = 0;
}

/* "1.44 ms · n 2000", "max 1.44 ms · n 2000" (the worst), "≤ 16 µs" (a bucket bound). */
static void value_text(const struct rd_rg_bar *b, int with_max, char *buf, size_t len)
{
	char d[32];
	size_t n;

	snprintf(buf, len, "%s%s%s", with_max ? "max " : "", b->bounds ? "\xe2\x89\xa4 " : "",
		 rd_fmt_dur_chart(bar_top(b), d, sizeof(d)));
	n = strlen(buf);
	if (b->count >= 0)
		snprintf(buf + n, len - n, " \xc2\xb7 n %lld", (long long)b->count);
}

/*
 * Adds a text at (x, centre line cy), left-aligned (align 0) or right-aligned
 * (2), elided to @maxw; with @check, only when it overlaps no text placed
 * before.  1 when placed.
 */
static int text_add(struct rd_ranges_layout *l, cairo_t *m, double x, double cy, int align,
		    double maxw, double pt, int bold, int alert, const char *s, int check)
{
	struct rd_rg_text t = { .pt = pt, .bold = bold, .alert = alert };
	double w;

	rd_font(m, pt, bold);
	rd_text_fit(m, s, maxw, t.s, sizeof(t.s));
	w = rd_text_width(m, t.s);
	t.box = (struct rd_rect){ align == 2 ? x - w : x, cy - pt / 2, w, pt };
	for (size_t i = 0; check && i < l->ntext; i++) {
		const struct rd_rect *o = &l->text[i].box;

		if (t.box.x < o->x + o->w + 4 && o->x < t.box.x + w + 4 &&
		    t.box.y < o->y + o->h + 1 && o->y < t.box.y + t.box.h + 1)
			return 0;
	}
	if (lat_grow(&l->text, &l->text_cap, l->ntext + 1, sizeof(*l->text)))
		return 0;
	l->text[l->ntext++] = t;
	return 1;
}

/* Columns and row pitch: one column if the rows fit at a readable pitch, else as few as do. */
static int rg_grid(struct rd_chart *c, struct rd_ranges_layout *l, char *msg, size_t msglen)
{
	double avail = c->plot.h - 8, minp = fmax(14, (double)l->nkinds * 5 + 4);
	size_t maxc = (size_t)fmax(1, floor(c->plot.w / RG_MIN_COL_W)), nc, rpc;

	for (nc = 1; nc < maxc; nc++)
		if (avail / ceil((double)l->nrows / (double)nc) >= minp)
			break;
	rpc = (l->nrows + nc - 1) / nc;
	l->ncols = (l->nrows + rpc - 1) / rpc;
	l->rows_per_col = rpc;
	l->pitch = avail / (double)rpc;
	if (l->pitch < 1.5 * (double)l->nkinds) {
		snprintf(msg, msglen, "%zu rows do not fit in %.0f pixels: use --size", l->nrows,
			 c->plot.h);
		return -LAT_ELIMIT;
	}
	l->label_every = l->pitch >= minp ? 1 : (size_t)ceil(minp / l->pitch);
	l->bar_h = fmin(RG_MAX_BAR, fmax(1, (l->pitch - 2) / (double)l->nkinds * 0.7));
	l->col_top = c->plot.y + 4;
	l->col_bottom = l->col_top + (double)rpc * l->pitch;
	for (size_t i = 0; i < l->nbars; i++) {
		struct rd_rg_bar *b = &l->bar[i];
		double sub = fmin(l->pitch / (double)l->nkinds, l->bar_h + 4);

		b->col = b->row / rpc;
		b->y = l->col_top + ((double)(b->row % rpc) + 0.5) * l->pitch +
		       ((double)b->kind - ((double)l->nkinds - 1) / 2) * sub;
	}
	return 0;
}

static int is_worst(const struct rd_ranges_layout *l, size_t i)
{
	for (size_t j = 0; j < l->nkinds && !l->flat; j++)
		if (l->worst[j] == i)
			return 1;
	return 0;
}

/* Row names: the worst rows' first (bold, red), then every label_every-th that fits. */
static double row_labels(struct rd_chart *c, cairo_t *m, struct rd_ranges_layout *l)
{
	double colw = rg_col_w(c, l), pt = l->label_every > 1 ? RG_SMALL_PT : RG_LABEL_PT;
	double lw = 0;

	rd_font(m, pt, 1);
	for (size_t r = 0; r < l->nrows; r++)
		lw = fmax(lw, rd_text_width(m, l->row_name[r]));
	lw = fmin(lw, colw * 0.32);
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < l->nbars; i++) {
			const struct rd_rg_bar *b = &l->bar[i];
			double x = c->plot.x + (double)b->col * colw + 6 + lw;
			double cy = l->col_top + ((double)(b->row % l->rows_per_col) + 0.5) *
				    l->pitch;
			int worst = !l->flat && (i == l->worst_all || is_worst(l, i));

			/* one name per row: at its first bar (or its worst one) */
			if (pass == 0 ? !worst : (b->kind != 0 || worst ||
						  (b->row % l->rows_per_col) % l->label_every))
				continue;
			text_add(l, m, x, cy, 2, lw, pt, worst, worst, l->row_name[b->row], 1);
		}
	return lw;
}

/* "900 µs": a worst bar's value beside its dot when there is no column of values. */
static void short_value(const struct rd_rg_bar *b, char *buf, size_t len)
{
	char d[32];

	snprintf(buf, len, "%s%s", b->bounds ? "\xe2\x89\xa4 " : "",
		 rd_fmt_dur_chart(bar_top(b), d, sizeof(d)));
}

/*
 * Widens the axis so that the dot and value of each worst bar fit right of it
 * in bars @w pixels wide (the bars keep at least a third of the width).
 */
static void room_right(struct rd_chart *c, cairo_t *m, const struct rd_ranges_layout *l,
		       double w)
{
	struct rd_axis *a = &c->x;
	double lo = a->log ? log10(a->lo) : a->lo, hi = a->log ? log10(a->hi) : a->hi;
	char buf[48];

	rd_font(m, RG_VAL_PT, 1);
	for (size_t j = 0; j < l->nkinds; j++) {
		const struct rd_rg_bar *b = &l->bar[l->worst[j]];
		double v = bar_top(b), f;

		short_value(b, buf, sizeof(buf));
		f = fmax(0.33, 1 - (rd_text_width(m, buf) + l->bar_h / 2 + 14) / w);
		v = a->log ? log10(fmax(v, a->lo)) : v;
		hi = fmax(hi, lo + (v - lo) / f);
	}
	a->hi = a->log ? pow(10, hi) : hi;
	rd_axis_ticks(a, 4);	/* the title's unit for the new range */
	a->nticks = 0;
}

/* The worst bars' values beside their dot, else left of their bar. */
static void worst_values(cairo_t *m, struct rd_ranges_layout *l)
{
	char buf[48];

	for (size_t j = 0; j < l->nkinds; j++) {
		const struct rd_rg_bar *b = &l->bar[l->worst[j]];
		const struct rd_axis *a = &l->colx[b->col];
		double xs = rd_axis_map(a, bar_top(b)) + l->bar_h / 2 + 6;

		short_value(b, buf, sizeof(buf));
		if (!text_add(l, m, xs, b->y, 0, 1e9, RG_VAL_PT, !l->flat, !l->flat, buf, 1))
			text_add(l, m, rd_axis_map(a, isnan(b->lo) ? a->lo : b->lo) - 6, b->y, 2,
				 1e9, RG_VAL_PT, !l->flat, !l->flat, buf, 1);
	}
}

/*
 * Each column's x axis, and the values: right of each column when there is
 * room for them at a readable size, else the worst bars' only, beside them.
 */
static int rg_values(struct rd_chart *c, cairo_t *m, struct rd_ranges_layout *l, double lw)
{
	double colw = rg_col_w(c, l), vw = 0, sub = l->pitch / (double)l->nkinds;
	int column;
	char buf[96];

	rd_font(m, RG_VAL_PT, 1);
	for (size_t i = 0; i < l->nbars; i++) {
		value_text(&l->bar[i], 0, buf, sizeof(buf));
		vw = fmax(vw, rd_text_width(m, buf));
	}
	column = sub >= RG_VAL_PT + 1 && colw - 6 - lw - 8 - vw - 14 >= RG_MIN_BARS_W;
	if (!column)
		room_right(c, m, l, colw - 6 - lw - 8 - 12);
	l->colx = calloc(l->ncols, sizeof(*l->colx));
	if (!l->colx)
		return -LAT_ENOMEM;
	for (size_t k = 0; k < l->ncols; k++) {
		struct rd_axis *a = &l->colx[k];
		double x0 = c->plot.x + (double)k * colw;

		*a = c->x;
		a->p0 = x0 + 6 + lw + 8 + fmax(2, l->bar_h / 2 + 2);	/* a dot at 0 clears the name */
		a->p1 = x0 + colw - (column ? vw + 14 : 12);
		rd_axis_ticks(a, (int)fmax(2, (a->p1 - a->p0) / 70));
	}
	if (!column) {
		worst_values(m, l);
		return 0;
	}
	for (size_t i = 0; i < l->nbars; i++) {
		const struct rd_rg_bar *b = &l->bar[i];
		int worst = is_worst(l, i);

		value_text(b, 0, buf, sizeof(buf));
		text_add(l, m, l->colx[b->col].p1 + 8, b->y, 0, vw + 2, RG_VAL_PT, worst, worst,
			 buf, 0);
	}
	return 0;
}

/* Key numbers: rows, the worst bar of all and of each other kind, where the values come from. */
static void rg_key(struct rd_chart *c, const struct rd_hist_input *in,
		   const struct rd_ranges_layout *l)
{
	size_t len;
	char buf[96];

	snprintf(c->subtitle, sizeof(c->subtitle), "%zu row%s", l->nrows, PLURAL(l->nrows));
	if (l->flat) {
		value_text(&l->bar[l->worst_all], 1, buf, sizeof(buf));
		len = strlen(c->subtitle);
		snprintf(c->subtitle + len, sizeof(c->subtitle) - len, " \xc2\xb7 every row: %s", buf);
	}
	for (size_t j = 0; j < l->nkinds && !l->flat; j++) {
		const struct rd_rg_bar *b = &l->bar[l->worst[j]];

		len = strlen(c->subtitle);
		value_text(b, 1, buf, sizeof(buf));
		snprintf(c->subtitle + len, sizeof(c->subtitle) - len, " \xc2\xb7 %s%s%s%s: %s",
			 l->worst[j] == l->worst_all ? "worst " : "", l->kind[j],
			 l->kind[j][0] ? " " : "", l->row_name[b->row], buf);
	}
	len = strlen(c->subtitle);
	snprintf(c->subtitle + len, sizeof(c->subtitle) - len, " \xc2\xb7 %s",
		 l->bar[l->worst_all].bounds ? "bucket bounds (no summary printed)" :
		 in->source ? in->source : "as the tool printed them");
}

static void rg_legend(struct rd_chart *c, const struct rd_ranges_layout *l)
{
	static const struct rd_rgb ink = { 0.15, 0.15, 0.15 };
	int avg = 0, p50 = 0, nomin = 0;

	for (size_t j = 0; j < l->nkinds && l->nkinds > 1; j++)
		c->legend[c->nlegend++] = (struct rd_legend_item){ .rgb = rd_palette(j),
								    .style = RD_LEG_BOX };
	for (size_t j = 0; j < l->nkinds && l->nkinds > 1; j++)
		snprintf(c->legend[j].text, sizeof(c->legend[j].text), "%s", l->kind[j][0] ?
			 l->kind[j] : "(other)");
	if (l->nkinds == 1)
		c->legend[c->nlegend++] = (struct rd_legend_item){ "min .. max", rd_palette(0),
								    RD_LEG_BOX };
	for (size_t i = 0; i < l->nbars; i++) {
		avg |= !isnan(l->bar[i].mid) && l->bar[i].mid_avg;
		p50 |= !isnan(l->bar[i].mid) && !l->bar[i].mid_avg;
		nomin |= isnan(l->bar[i].lo);
	}
	if (nomin) {
		struct rd_rgb pale = rd_palette(0);

		pale.r += (1 - pale.r) * 0.75;
		pale.g += (1 - pale.g) * 0.75;
		pale.b += (1 - pale.b) * 0.75;
		c->legend[c->nlegend++] = (struct rd_legend_item){ "pale: no min printed", pale,
								    RD_LEG_BOX };
	}
	if (avg)
		c->legend[c->nlegend++] = (struct rd_legend_item){ "average", ink, RD_LEG_LINE };
	if (p50)
		c->legend[c->nlegend++] = (struct rd_legend_item){ "p50", ink, RD_LEG_LINE };
	c->legend[c->nlegend++] = (struct rd_legend_item){ "max (worst: red)", rd_alert_rgb,
							    RD_LEG_RING };
}

static int rg_layout(struct rd_chart *c, cairo_t *m, const void *data,
		     const struct lat_render_opts *o, char *msg, size_t msglen)
{
	const struct rd_hist_input *in = data;
	struct rd_ranges_layout *l = calloc(1, sizeof(*l));
	double lw;
	int ret;

	if (!l)
		goto nomem;
	c->priv = l;
	l->bar = calloc(in->n + 1, sizeof(*l->bar));
	l->row_name = calloc(in->n + 1, sizeof(*l->row_name));
	if (!l->bar || !l->row_name)
		goto nomem;
	if (!collect(in, l, titles_split(in)))
		collect(in, l, -1);	/* too many kinds: one row per histogram */
	if (!l->nbars) {
		snprintf(msg, msglen, "the histograms hold no samples and no printed summary");
		return -LAT_EEMPTY;
	}
	find_worst(l);
	rg_axis(c, in, l);
	rd_chart_title(c, o, "summary", in->title);
	rg_key(c, in, l);
	rg_legend(c, l);
	rd_frame_layout(c, m);
	c->x.nticks = 0;	/* each column draws its own */
	ret = rg_grid(c, l, msg, msglen);
	if (ret)
		return ret;
	lw = row_labels(c, m, l);
	if (rg_values(c, m, l, lw))
		goto nomem;
	return 0;
nomem:
	snprintf(msg, msglen, "out of memory");
	return -LAT_ENOMEM;
}

static void draw_bar(cairo_t *cr, const struct rd_ranges_layout *l, size_t i)
{
	const struct rd_rg_bar *b = &l->bar[i];
	const struct rd_axis *a = &l->colx[b->col];
	struct rd_rgb rgb = rd_palette(b->kind);
	double h = l->bar_h, x0, x1;
	int worst = is_worst(l, i);

	/* min .. max; pale from the axis' start when the minimum is not known */
	x0 = rd_axis_map(a, isnan(b->lo) ? a->lo : b->lo);
	x1 = rd_axis_map(a, bar_top(b));
	rd_set_rgb(cr, rgb, isnan(b->lo) ? 0.18 : 0.45);
	cairo_rectangle(cr, x0, b->y - h / 2, fmax(x1 - x0, 1), h);
	cairo_fill(cr);
	if (!isnan(b->p99)) {
		rd_set_rgb(cr, rgb, 1);
		cairo_rectangle(cr, rd_axis_map(a, b->p99) - 0.75, b->y - h / 2, 1.5, h);
		cairo_fill(cr);
	}
	if (!isnan(b->mid)) {
		cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
		cairo_rectangle(cr, rd_axis_map(a, b->mid) - 1.25, b->y - h / 2 - 2, 2.5, h + 4);
		cairo_fill(cr);
	}
	if (isnan(b->hi))
		return;
	rd_set_rgb(cr, worst ? rd_alert_rgb : rgb, 1);
	cairo_new_sub_path(cr);
	cairo_arc(cr, x1, b->y, fmax(2, h / 2 + (worst ? 2 : 0.5)), 0, 2 * M_PI);
	cairo_fill(cr);
}

static void rg_draw(cairo_t *cr, const struct rd_chart *c, const void *data,
		    const struct lat_render_opts *o)
{
	const struct rd_ranges_layout *l = c->priv;
	double colw = rg_col_w(c, l), yb = c->plot.y + c->plot.h;

	(void)data;
	(void)o;
	/* every other row shaded, so that a row reads across */
	for (size_t r = 0; l->pitch >= 6 && r < l->nrows; r += 2) {
		cairo_set_source_rgb(cr, 0.965, 0.965, 0.965);
		cairo_rectangle(cr, c->plot.x + (double)(r / l->rows_per_col) * colw + 1,
				l->col_top + (double)(r % l->rows_per_col) * l->pitch, colw - 2,
				l->pitch);
		cairo_fill(cr);
	}
	for (size_t k = 0; k < l->ncols; k++) {
		cairo_set_line_width(cr, 1);
		rd_axis_draw_x(cr, &l->colx[k], c->plot.y, yb, 0);
		rd_font(cr, RD_TICK_PT, 0);
		rd_axis_draw_x(cr, &l->colx[k], yb, yb, 1);
		if (k) {
			cairo_set_source_rgb(cr, 0.6, 0.6, 0.6);
			cairo_move_to(cr, round(c->plot.x + (double)k * colw) + 0.5, c->plot.y);
			cairo_line_to(cr, round(c->plot.x + (double)k * colw) + 0.5, yb);
			cairo_stroke(cr);
		}
	}
	for (size_t i = 0; i < l->nbars; i++)
		draw_bar(cr, l, i);
	for (size_t i = 0; i < l->ntext; i++) {
		const struct rd_rg_text *t = &l->text[i];

		if (t->alert)
			rd_set_rgb(cr, rd_alert_rgb, 1);
		else
			cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
		rd_text_box(cr, &t->box, t->pt, t->bold, t->s);
	}
}

const struct rd_chart_ops rd_ranges_ops = {
	.name = "summary",
	.layout = rg_layout,
	.draw = rg_draw,
	.release = rg_release,
};

static int any_samples(const struct rd_hist_input *in)
{
	for (size_t k = 0; k < in->n; k++)
		if (rd_hist_samples(in->h[k]))
			return 1;
	return 0;
}

int rd_hist_chart(const struct rd_hist_input *in, const struct lat_render_opts *o,
		   struct lat_render_buf *out)
{
	int ret;

	if (!any_samples(in))
		return rd_chart_run(&rd_ranges_ops, in, o, out);
	ret = rd_chart_run(&rd_hist_ops, in, o, out);
	/* more histograms than fit as panels: their summary rows */
	if (ret == -LAT_ELIMIT)
		ret = rd_chart_run(&rd_ranges_ops, in, o, out);
	return ret;
}
