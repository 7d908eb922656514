// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Percentile labels of the histogram charts, placed in the layout pass: each
 * mark is a dashed vertical line from under its label down to the floor, its
 * label beside the line (right, else left) in one of the rows of a band above
 * the data.  A label never overlaps another label, and no mark's line runs
 * through a label: the line of a label in row r crosses every row below r at
 * its x.  The placement is a depth-first search over (row, side) per label in
 * x order, leaving out as little as it can (a max weighs more than a p99, a
 * p99 more than a p50); a label left out is not drawn, nor its line (the key
 * numbers still give it).  The search is bounded; past the bound it keeps the
 * best placement found.
 */
#include <math.h>
#include <stdlib.h>

#include "render_priv.h"

/* Space kept between two labels of a row, and between a label and a line. */
#define PL_GAP 6.0
#define PL_LINE_GAP 3.0
#define PL_BUDGET 20000L	/* search steps */

static int spans(double lo, double hi, double x)
{
	return x >= lo - PL_LINE_GAP && x <= hi + PL_LINE_GAP;
}

/* Whether @p at row @row with its box at @bx is clear of every placed label. */
static int clear(const struct rd_plabel *l, size_t n, const struct rd_plabel *p, int row,
		 double bx)
{
	for (size_t i = 0; i < n; i++) {
		const struct rd_plabel *q = &l[i];

		if (!q->placed || q == p)
			continue;
		if (q->row == row && bx < q->box.x + q->w + PL_GAP && q->box.x < bx + p->w + PL_GAP)
			return 0;
		/* q sits lower: p's line crosses q's row */
		if (q->row > row && spans(q->box.x, q->box.x + q->w, p->x))
			return 0;
		/* q sits higher: q's line crosses p's row */
		if (q->row < row && spans(bx, bx + p->w, q->x))
			return 0;
	}
	return 1;
}

struct pl_search {
	struct rd_plabel *l;
	size_t n, *ord;		/* labels by x */
	const struct rd_rect *zone;
	double pitch;
	int rows;
	long budget;
	int cost, best_cost;
	int *best_row;		/* per label: its row, -1 left out */
	double *best_bx;
};

static int drop_cost(const struct rd_plabel *p)
{
	return p->what == 2 ? 100 : p->what == 1 ? 10 : 1;
}

static void keep_best(struct pl_search *s)
{
	s->best_cost = s->cost;
	for (size_t i = 0; i < s->n; i++) {
		s->best_row[i] = s->l[i].placed ? s->l[i].row : -1;
		s->best_bx[i] = s->l[i].box.x;
	}
}

static void search(struct pl_search *s, size_t k)
{
	struct rd_plabel *p;
	double side[2];

	if (s->cost >= s->best_cost || s->budget-- <= 0)
		return;
	if (k == s->n) {
		keep_best(s);
		return;
	}
	p = &s->l[s->ord[k]];
	side[0] = p->x + 4;
	side[1] = p->x - 4 - p->w;
	for (int r = 0; r < s->rows && s->best_cost; r++)
		for (int j = 0; j < 2; j++) {
			if (side[j] < s->zone->x || side[j] + p->w > s->zone->x + s->zone->w ||
			    p->x < s->zone->x || p->x > s->zone->x + s->zone->w ||
			    !clear(s->l, s->n, p, r, side[j]))
				continue;
			p->placed = 1;
			p->row = r;
			p->box.x = side[j];
			search(s, k + 1);
			p->placed = 0;
		}
	s->cost += drop_cost(p);
	search(s, k + 1);
	s->cost -= drop_cost(p);
}

/* @ord: the labels by x (insertion sort: a few labels, ties kept in order). */
static void order_by_x(const struct rd_plabel *l, size_t n, size_t *ord)
{
	for (size_t i = 0; i < n; i++) {
		size_t j = i;

		for (; j > 0 && l[ord[j - 1]].x > l[i].x; j--)
			ord[j] = ord[j - 1];
		ord[j] = i;
	}
}

int rd_plabels_place(struct rd_plabel *l, size_t n, const struct rd_rect *zone,
		      double pitch, size_t *dropped)
{
	struct pl_search s = { .l = l, .n = n, .zone = zone, .pitch = pitch,
			       .rows = (int)floor(zone->h / pitch), .budget = PL_BUDGET,
			       .best_cost = 1 << 30 };
	int used = 0;

	*dropped = 0;
	s.ord = calloc(n + 1, sizeof(*s.ord));
	s.best_row = calloc(n + 1, sizeof(*s.best_row));
	s.best_bx = calloc(n + 1, sizeof(*s.best_bx));
	for (size_t i = 0; i < n; i++)
		l[i].placed = 0;
	if (s.ord && s.best_row && s.best_bx) {
		for (size_t i = 0; i < n; i++)
			s.best_row[i] = -1;
		order_by_x(l, n, s.ord);
		search(&s, 0);
	}
	for (size_t i = 0; i < n; i++) {
		struct rd_plabel *p = &l[i];

		if (!s.best_row || s.best_row[i] < 0) {
			(*dropped)++;
			continue;
		}
		p->placed = 1;
		p->row = s.best_row[i];
		p->box = (struct rd_rect){ s.best_bx[i], zone->y + p->row * pitch, p->w, p->h };
		p->y0 = p->box.y + p->box.h + 2;
		used = p->row + 1 > used ? p->row + 1 : used;
	}
	free(s.ord);
	free(s.best_row);
	free(s.best_bx);
	return used;
}
