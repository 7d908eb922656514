// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The histogram chart: latency distributions on log-log axes (as OSADL's
 * cyclictest plots), drawn as steps, several overlaid in distinct colours,
 * with p50 / p99 / max marked.  A bucket only tells a range, so percentiles
 * are given as the bucket's upper bound ("p99 < 5.62 ms"): the bucket the
 * histogram analysis found, or the value the wakeup analysis computed.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render_priv.h"

/* Upper end of bucket @i, with the open last bucket as wide as its neighbour in ratio. */
static double bucket_hi(const struct lat_histogram *h, size_t i)
{
	const struct lat_bucket *b = &h->b[i];

	if (b->hi_ns != INT64_MAX)
		return (double)b->hi_ns;
	if (i > 0 && h->b[i - 1].lo_ns > 0 && b->lo_ns > h->b[i - 1].lo_ns)
		return (double)b->lo_ns * ((double)b->lo_ns / (double)h->b[i - 1].lo_ns);
	return b->lo_ns > 0 ? (double)b->lo_ns * 2 : 1000;
}

static double bucket_lo(const struct lat_histogram *h, size_t i)
{
	double lo = (double)h->b[i].lo_ns;

	/* a first bucket from 0 cannot sit on a log axis: give it its neighbour's ratio */
	if (lo <= 0)
		lo = bucket_hi(h, i) / 2;
	return lo;
}

/* Index of the bucket holding the nearest-rank @pct percentile, or nbuckets. */
size_t lat_hist_pct_bucket(const struct lat_histogram *h, double pct)
{
	uint64_t total = 0, cum = 0, rank;

	for (size_t i = 0; i < h->nbuckets; i++)
		total += h->b[i].count;
	if (!total)
		return h->nbuckets;
	rank = (uint64_t)ceil(pct / 100.0 * (double)total);
	if (rank < 1)
		rank = 1;
	for (size_t i = 0; i < h->nbuckets; i++) {
		cum += h->b[i].count;
		if (cum >= rank)
			return i;
	}
	return h->nbuckets - 1;
}

/*
 * "p99 < 163 µs", or for the open overflow bucket, which has no upper bound,
 * "p99 ≥ 200 µs" (cyclictest's -h N, rtla's over:): nothing is invented.
 */
static void mark_label(const struct lat_histogram *h, size_t i, const char *what, char *buf,
		       size_t len)
{
	char d[32];

	if (h->b[i].hi_ns == INT64_MAX)
		snprintf(buf, len, "%s \xe2\x89\xa5 %s", what,
			 lat_fmt_dur_chart((double)h->b[i].lo_ns, d, sizeof(d)));
	else
		snprintf(buf, len, "%s < %s", what, lat_fmt_dur_chart(bucket_hi(h, i), d,
								      sizeof(d)));
}

/* Where a mark sits: the bucket's upper bound, the open bucket's lower one. */
static double mark_x(const struct lat_histogram *h, size_t i)
{
	return h->b[i].hi_ns == INT64_MAX ? bucket_lo(h, i) : bucket_hi(h, i);
}

static size_t last_nonzero(const struct lat_histogram *h)
{
	for (size_t i = h->nbuckets; i > 0; i--)
		if (h->b[i - 1].count)
			return i - 1;
	return h->nbuckets;
}

static const char *const mark_what[3] = { "p50", "p99", "max" };

/* The bucket of @h that the analysis' quantile @q names, or nbuckets. */
static size_t q_bucket(const struct lat_histogram *h, const struct lat_hist_q *q)
{
	for (size_t i = 0; q->valid && i < h->nbuckets; i++)
		if (h->b[i].lo_ns == q->lo_ns && h->b[i].hi_ns == q->hi_ns)
			return i;
	return h->nbuckets;
}

/*
 * The buckets of p50, p99 and max of histogram @k: the histogram analysis'
 * when the caller passed it, else found here (nearest rank, the same rule).
 */
static void mark_buckets(const struct lat_hist_input *in, size_t k, size_t idx[3])
{
	const struct lat_histogram *h = in->h[k];

	if (in->stats && in->stats[k].h == h) {
		idx[0] = q_bucket(h, &in->stats[k].q[LAT_HQ_P50]);
		idx[1] = q_bucket(h, &in->stats[k].q[LAT_HQ_P99]);
		idx[2] = q_bucket(h, &in->stats[k].max);
		if (idx[0] < h->nbuckets && idx[1] < h->nbuckets && idx[2] < h->nbuckets)
			return;
	}
	idx[0] = lat_hist_pct_bucket(h, 50);
	idx[1] = lat_hist_pct_bucket(h, 99);
	idx[2] = last_nonzero(h);
}

/*
 * Mark @j (p50, p99, max) of histogram @k: where it sits and its label.  The
 * analysis' own value when it gave one ("p99 1.23 ms"), else the bucket bound.
 * 0 when there is no such mark (or it repeats the previous one).
 */
static int hist_mark(const struct lat_hist_input *in, size_t k, int j, double *x, char *buf,
		     size_t len)
{
	const struct lat_histogram *h = in->h[k];
	char d[32];

	if (in->marks && in->marks[k].p50 != LAT_HIST_MARKS_BUCKETS) {
		const struct lat_hist_marks *m = &in->marks[k];
		int64_t v[3] = { m->p50, m->p99, m->max };

		if (v[j] < 0 || (j > 0 && v[j] == v[j - 1]))
			return 0;
		*x = v[j] > 0 ? (double)v[j] : 1;
		snprintf(buf, len, "%s %s%s", mark_what[j], m->bound & (1u << j) ?
			 "\xe2\x89\xa4 " : "", lat_fmt_dur_chart((double)v[j], d, sizeof(d)));
		return 1;
	} else {
		size_t idx[3];

		mark_buckets(in, k, idx);
		if (idx[2] == h->nbuckets || (j > 0 && idx[j] == idx[j - 1]))
			return 0;
		*x = mark_x(h, idx[j]);
		mark_label(h, idx[j], mark_what[j], buf, len);
		return 1;
	}
}

static int hist_layout(struct lat_chart *c, cairo_t *m, const void *data,
		       const struct lat_render_opts *o, char *msg, size_t msglen)
{
	const struct lat_hist_input *in = data;
	double xlo = INFINITY, xhi = 0, ymax = 1;
	size_t nonempty = 0, n = 0;
	char d1[48], d2[48], d3[48], x1[32];

	for (size_t k = 0; k < in->n; k++) {
		const struct lat_histogram *h = in->h[k];

		for (size_t i = 0; i < h->nbuckets; i++) {
			if (!h->b[i].count)
				continue;
			nonempty++;
			xlo = fmin(xlo, bucket_lo(h, i));
			xhi = fmax(xhi, bucket_hi(h, i));
			ymax = fmax(ymax, (double)h->b[i].count);
		}
	}
	if (!nonempty) {
		snprintf(msg, msglen, "the histograms hold no samples");
		return -LAT_EEMPTY;
	}
	c->has_y = 1;
	/* a margin, not whole decades: the data should fill the width */
	c->x = (struct lat_axis){ .lo = xlo / 1.4, .hi = xhi * 1.4, .log = 1, .unit = LAT_UNIT_NS };
	snprintf(c->x.title, sizeof(c->x.title), "%s", in->what ? in->what : "latency");
	c->y = (struct lat_axis){ .lo = 1, .hi = ymax * 1.5, .log = 1, .unit = LAT_UNIT_COUNT };
	lat_axis_nice_range(&c->y, 8);
	/* room above the tallest bar for the percentile labels */
	if (c->y.hi < ymax * 3)
		c->y.hi *= 10;
	/* zero-count buckets drop to the floor, half a step below a count of 1 */
	c->y.lo = 0.5;
	snprintf(c->y.title, sizeof(c->y.title), "samples per bucket");

	lat_chart_title(c, o, "histogram", in->title);
	for (size_t k = 0; k < in->n; k++) {
		const struct lat_histogram *h = in->h[k];
		size_t idx[3], p50, p99, mx, len = strlen(c->subtitle);
		uint64_t total = 0;
		char name[160];

		mark_buckets(in, k, idx);
		p50 = idx[0];
		p99 = idx[1];
		mx = idx[2];
		for (size_t i = 0; i < h->nbuckets; i++)
			total += h->b[i].count;
		if (h->title)
			lat_utf8_clean(h->title, (size_t)-1, name, sizeof(name));
		else
			snprintf(name, sizeof(name), "histogram %zu", k + 1);
		if (c->nlegend < LAT_LEGEND_MAX) {
			struct lat_legend_item *it = &c->legend[c->nlegend++];

			snprintf(it->text, sizeof(it->text), "%.70s (%llu sample%s)", name,
				 (unsigned long long)total, PLURAL(total));
			it->rgb = lat_palette(k);
			it->style = LAT_LEG_BOX;
		} else {
			n++;
		}
		if (mx == h->nbuckets)
			continue;
		if (in->marks && in->marks[k].p50 != LAT_HIST_MARKS_BUCKETS) {
			const struct lat_hist_marks *mk = &in->marks[k];

			static const char *const le = "\xe2\x89\xa4 ";

			snprintf(d1, sizeof(d1), "p50 %s%s", mk->bound & 1 ? le : "",
				 lat_fmt_dur_chart((double)mk->p50, x1, sizeof(x1)));
			snprintf(d2, sizeof(d2), "p99 %s%s", mk->bound & 2 ? le : "",
				 lat_fmt_dur_chart((double)mk->p99, x1, sizeof(x1)));
			snprintf(d3, sizeof(d3), "max %s%s", mk->bound & 4 ? le : "",
				 lat_fmt_dur_chart((double)mk->max, x1, sizeof(x1)));
		} else {
			mark_label(h, p50, "p50", d1, sizeof(d1));
			mark_label(h, p99, "p99", d2, sizeof(d2));
			mark_label(h, mx, "max", d3, sizeof(d3));
		}
		snprintf(c->subtitle + len, sizeof(c->subtitle) - len,
			 "%s%s: n %llu, %s, %s, %s", len ? " \xc2\xb7 " : "",
			 name, (unsigned long long)total, d1, d2, d3);
		/* the tool's own maximum says what the open bucket cannot */
		if (h->has_printed && h->printed.max_ns != LAT_VALUE_NONE &&
		    h->b[mx].hi_ns == INT64_MAX) {
			len = strlen(c->subtitle);
			snprintf(c->subtitle + len, sizeof(c->subtitle) - len, " (printed max %s)",
				 lat_fmt_dur_chart((double)h->printed.max_ns, d3, sizeof(d3)));
		}
	}
	if (n)
		snprintf(c->legend_more, sizeof(c->legend_more), "+%zu more", n);
	lat_frame_layout(c, m);
	return 0;
}

static void draw_steps(cairo_t *cr, const struct lat_chart *c, const struct lat_histogram *h,
		       struct lat_rgb rgb)
{
	double floor_y = c->plot.y + c->plot.h;
	int open = 0;

	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < h->nbuckets; i++) {
			double x0 = lat_axis_map(&c->x, bucket_lo(h, i));
			double x1 = lat_axis_map(&c->x, bucket_hi(h, i));
			double y = h->b[i].count ? lat_axis_map(&c->y, (double)h->b[i].count) :
				   floor_y;

			if (!open) {
				cairo_move_to(cr, x0, floor_y);
				open = 1;
			}
			cairo_line_to(cr, x0, y);
			cairo_line_to(cr, x1, y);
			/* a gap between buckets goes down to the floor */
			if (i + 1 == h->nbuckets || bucket_lo(h, i + 1) > bucket_hi(h, i) * 1.0001) {
				cairo_line_to(cr, x1, floor_y);
				if (pass == 0)
					cairo_close_path(cr);
				open = 0;
			}
		}
		if (pass == 0) {
			lat_set_rgb(cr, rgb, 0.14);
			cairo_fill(cr);
		} else {
			lat_set_rgb(cr, rgb, 1);
			cairo_set_line_width(cr, 1.8);
			cairo_stroke(cr);
		}
		open = 0;
	}
}

static void hist_draw(cairo_t *cr, const struct lat_chart *c, const void *data,
		      const struct lat_render_opts *o)
{
	const struct lat_hist_input *in = data;
	char buf[64];

	cairo_save(cr);
	cairo_rectangle(cr, c->plot.x, c->plot.y, c->plot.w, c->plot.h);
	cairo_clip(cr);
	for (size_t k = 0; k < in->n; k++)
		draw_steps(cr, c, in->h[k], lat_palette(k));
	cairo_restore(cr);

	/* percentile marks: a dashed line from the top, labels stacked per histogram */
	lat_font(cr, LAT_TICK_PT, 0);
	for (size_t k = 0; k < in->n && k < LAT_LEGEND_MAX; k++) {
		double d[] = { 3, 3 }, lastx = -1e9, xs[3], tx[3], w[3];
		double ytxt = c->plot.y + 16 + (double)k * (LAT_TICK_PT + 6);
		double limit = c->plot.x + c->plot.w - 2;
		char lab[3][64];
		int have[3];

		/* labels left to right beside their line, then pulled back from the right edge */
		for (int j = 0; j < 3; j++) {
			have[j] = hist_mark(in, k, j, &xs[j], lab[j], sizeof(lab[j]));
			if (!have[j])
				continue;
			xs[j] = round(lat_axis_map(&c->x, xs[j])) + 0.5;
			w[j] = lat_text_width(cr, lab[j]);
			tx[j] = fmax(lastx, xs[j] + 4);
			lastx = tx[j] + w[j] + 10;
		}
		for (int j = 2; j >= 0; j--) {
			if (!have[j])
				continue;
			if (tx[j] + w[j] > limit)
				tx[j] = limit - w[j];
			limit = tx[j] - 10;
		}
		for (int j = 0; j < 3; j++) {
			if (!have[j])
				continue;
			lat_set_rgb(cr, lat_palette(k), 0.9);
			cairo_set_line_width(cr, 1.2);
			cairo_set_dash(cr, d, 2, 0);
			cairo_move_to(cr, xs[j], ytxt + 4);
			cairo_line_to(cr, xs[j], c->plot.y + c->plot.h);
			cairo_stroke(cr);
			cairo_set_dash(cr, NULL, 0, 0);
			lat_text(cr, tx[j], ytxt, 0, lab[j]);
		}
	}
	(void)buf;
}

const struct lat_chart_ops lat_hist_ops = {
	.name = "histogram",
	.layout = hist_layout,
	.draw = hist_draw,
};
