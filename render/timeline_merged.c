// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The timeline chart's merged spans (struct lat_tl_summary): where the
 * analysis no longer kept a CPU's slices one by one, what ran there merged.
 * Drawn like folded columns (the top task's colour, as opaque as the span was
 * busy), the stretch hatched in white and labelled "summarised: N slices
 * merged", so that nobody reads it as exact slices.  Also the colours and
 * the hatching render/timeline.c shares with it.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render_priv.h"

int tl_muted_colour(int32_t pid)
{
	return RD_PALETTE_N + (int)(((uint32_t)pid * 2654435761u) >> 28);
}

struct rd_rgb tl_colour_rgb(const struct rd_tl_layout *l, int colour)
{
	if (colour < RD_PALETTE_N)
		return l->task_rgb[colour];
	return rd_muted((uint32_t)(colour - RD_PALETTE_N) * 977u + 13u);
}

/* A task's colour: its legend's, else its muted bucket's (as timeline.c's colour_of()). */
static struct rd_rgb pid_rgb(const struct rd_tl_layout *l, int32_t pid)
{
	for (size_t i = 0; i < l->ntasks; i++)
		if (l->task_pid[i] == pid)
			return tl_colour_rgb(l, (int)i);
	return tl_colour_rgb(l, tl_muted_colour(pid));
}

void tl_hatch_fill(cairo_t *cr, struct rd_rgb rgb, double alpha, int back)
{
	cairo_surface_t *tile = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 6, 6);
	cairo_pattern_t *pat;
	cairo_t *tc = cairo_create(tile);

	cairo_set_source_rgba(tc, rgb.r, rgb.g, rgb.b, alpha);
	cairo_set_line_width(tc, 1.4);
	cairo_move_to(tc, -1, back ? -1 : 7);
	cairo_line_to(tc, 7, back ? 7 : -1);
	cairo_stroke(tc);
	cairo_destroy(tc);
	pat = cairo_pattern_create_for_surface(tile);
	cairo_pattern_set_extend(pat, CAIRO_EXTEND_REPEAT);
	cairo_set_source(cr, pat);
	cairo_fill(cr);
	cairo_pattern_destroy(pat);
	cairo_surface_destroy(tile);
}

int tl_sum_in_view(const struct lat_tl_summary *s, uint64_t v0, uint64_t v1)
{
	if (s->start_ns >= v1)
		return 0;
	return s->end_ns > v0 || (s->end_ns <= s->start_ns && s->start_ns >= v0);
}

static int cmp_sum(const void *a, const void *b)
{
	const struct lat_tl_summary *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->start_ns < y->start_ns ? -1 : x->start_ns > y->start_ns;
}

int tl_sum_sort(const struct lat_timeline *t, const struct lat_tl_summary **out,
		struct lat_tl_summary **copy)
{
	size_t i;

	*out = t->sums;
	*copy = NULL;
	for (i = 1; i < t->nsums; i++)
		if (cmp_sum(&t->sums[i - 1], &t->sums[i]) > 0)
			break;
	if (i >= t->nsums)
		return 0;
	*copy = malloc(t->nsums * sizeof(**copy));
	if (!*copy)
		return -LAT_ENOMEM;
	memcpy(*copy, t->sums, t->nsums * sizeof(**copy));
	lat_sort(*copy, t->nsums, sizeof(**copy), cmp_sum);
	*out = *copy;
	return 0;
}

/* A pixel column of spans narrower than a pixel: the one that ran most, how busy. */
struct sum_col {
	long col;		/* -1: none */
	double busy_px;
	int32_t pid;
	double top_px;
};

/* A rectangle being extended while its neighbours have its task and opacity (no seams). */
struct sum_rect {
	double x0, x1;		/* x1 < x0: none */
	int32_t pid;
	int level;		/* opacity: 0 .. SUM_LEVELS - 1 */
};

#define SUM_LEVELS 4		/* as the folded columns of slices */

static void flush_rect(cairo_t *cr, const struct rd_tl_layout *l, struct sum_rect *r, double top)
{
	if (r->x1 < r->x0)
		return;
	rd_set_rgb(cr, r->pid > 0 ? pid_rgb(l, r->pid) : (struct rd_rgb){ 0.8, 0.8, 0.8 },
		    0.25 + 0.75 * r->level / (SUM_LEVELS - 1));
	cairo_rectangle(cr, r->x0, top + 1, r->x1 - r->x0, l->lane_h - 2);
	cairo_fill(cr);
	r->x1 = r->x0 - 1;
}

static void add_rect(cairo_t *cr, const struct rd_tl_layout *l, struct sum_rect *r, double top,
		     double x0, double x1, int32_t pid, double busy)
{
	int level = (int)(fmin(busy, 1.0) * (SUM_LEVELS - 1) + 0.5);

	if (r->x1 >= r->x0 && r->pid == pid && r->level == level && x0 <= r->x1 + 0.01) {
		r->x1 = fmax(r->x1, x1);
		return;
	}
	flush_rect(cr, l, r, top);
	*r = (struct sum_rect){ x0, x1, pid, level };
}

static void flush_col(cairo_t *cr, const struct rd_tl_layout *l, struct sum_col *cl,
		      struct sum_rect *r, double top)
{
	if (cl->col >= 0)
		add_rect(cr, l, r, top, (double)cl->col, (double)cl->col + 1, cl->pid, cl->busy_px);
	cl->col = -1;
}

/*
 * One lane's spans in the view (@n of @s, by start), a span narrower than a
 * pixel folded into its column; [*x0, *x1] their stretch.  Returns the slices
 * they merged.
 */
static uint64_t sum_rects(cairo_t *cr, const struct rd_chart *c, const struct rd_tl_layout *l,
			  const struct lat_tl_summary *s, size_t n, double top, double *x0,
			  double *x1)
{
	double scale = c->plot.w / (double)(l->v1 - l->v0);
	struct sum_col cl = { .col = -1 };
	struct sum_rect r = { 0, -1, 0, 0 };
	uint64_t merged = 0;

	for (size_t i = 0; i < n; i++) {
		uint64_t a = s[i].start_ns > l->v0 ? s[i].start_ns : l->v0;
		uint64_t b = s[i].end_ns < l->v1 ? s[i].end_ns : l->v1;
		double span = (double)(s[i].end_ns - s[i].start_ns), xa, px, busy;

		if (!tl_sum_in_view(&s[i], l->v0, l->v1))
			continue;
		merged += s[i].nslices;
		if (s[i].end_ns <= s[i].start_ns)
			continue;	/* of empty slices only: counted, nothing to draw */
		xa = c->plot.x + (double)(a - l->v0) * scale;
		px = (double)(b - a) * scale;
		busy = (double)s[i].busy_ns / span;
		*x0 = fmin(*x0, xa);
		*x1 = fmax(*x1, xa + px);
		if (cl.col >= 0 && (px >= 1 || (long)floor(xa) != cl.col))
			flush_col(cr, l, &cl, &r, top);
		if (px >= 1) {
			add_rect(cr, l, &r, top, xa, xa + px, s[i].pid, busy);
			continue;
		}
		if (cl.col < 0)
			cl = (struct sum_col){ .col = (long)floor(xa), .pid = s[i].pid };
		cl.busy_px += busy * px;
		if ((double)s[i].top_ns / span * px > cl.top_px) {
			cl.top_px = (double)s[i].top_ns / span * px;
			cl.pid = s[i].pid;
		}
	}
	flush_col(cr, l, &cl, &r, top);
	flush_rect(cr, l, &r, top);
	return merged;
}

void tl_sum_draw_lane(cairo_t *cr, const struct rd_chart *c, struct rd_tl_layout *l,
		      const struct lat_tl_summary *s, size_t n, size_t *k, int cpu, double top)
{
	double x0 = INFINITY, x1 = -INFINITY, h = l->lane_h, w;
	uint64_t merged;
	size_t first;
	char buf[64];

	while (*k < n && s[*k].cpu < cpu)
		(*k)++;
	for (first = *k; *k < n && s[*k].cpu == cpu; (*k)++)
		;
	merged = sum_rects(cr, c, l, s + first, *k - first, top, &x0, &x1);
	if (!(x1 >= x0))
		return;		/* none in the view */
	/* the stretch hatched in white and outlined: not slices as recorded */
	cairo_rectangle(cr, x0, top + 1, fmax(x1 - x0, 1), h - 2);
	tl_hatch_fill(cr, (struct rd_rgb){ 1, 1, 1 }, 0.75, 1);
	cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
	cairo_set_line_width(cr, 1);
	cairo_rectangle(cr, x0 + 0.5, top + 1.5, fmax(x1 - x0 - 1, 1), h - 3);
	cairo_stroke(cr);
	snprintf(buf, sizeof(buf), "summarised: %" PRIu64 " slice%s merged", merged,
		 PLURAL(merged));
	rd_font(cr, RD_TICK_PT - 1, 1);
	w = rd_text_width(cr, buf);
	if (x1 - x0 < w + 10 || h < RD_TICK_PT + 8)
		return;
	cairo_set_source_rgba(cr, 1, 1, 1, 0.9);
	cairo_rectangle(cr, (x0 + x1) / 2 - w / 2 - 3, top + 4, w + 6, RD_TICK_PT + 3);
	cairo_fill(cr);
	cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
	rd_text(cr, (x0 + x1) / 2, top + 3 + RD_TICK_PT, 1, buf);
	l->drawn_sum_labels++;
}
