// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The icicle chart of kernel stacks (`record --stacks`): the folded stacks of
 * the wakeup analysis ("root;...;leaf" with the time spent in them, what
 * `latscope analyze --folded off|runnable` prints) merged into a tree, the
 * root on top, each frame as wide as the time below it.  One panel for the
 * off-CPU time (sleeping, S/D) and one for the runnable time (woken, behind
 * the task holding the CPU).  Frames narrower than a pixel are not drawn.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render_priv.h"

#define ICI_ROW_MAX 20.0
#define ICI_ROW_MIN 3.0
#define ICI_MIN_W 0.5		/* frames narrower than this (px) are not drawn */

struct ici_node {
	const char *name;	/* into the folded string, not NUL-terminated */
	size_t len;
	int64_t ns;
	uint32_t depth;
	size_t first_child, nchild;	/* children are contiguous once laid out */
	size_t parent;
};

/* One panel's tree; node 0 is the panel's root ("all stacks"). */
struct ici_tree {
	struct ici_node *n;
	size_t nn, cap;
	uint32_t depth;		/* deepest frame, root = 0 */
	struct rd_rect box;
	double row_h;
	size_t drawn;		/* frames drawn (root included) */
};

static void ici_release(struct rd_chart *c)
{
	struct rd_icicle_layout *l = c->priv;

	if (l) {
		for (int k = 0; k < 2; k++)
			free(((struct ici_tree *)l->tree[k])->n);
		free(l->tree[0]);
		free(l->tree[1]);
	}
	free(l);
	c->priv = NULL;
}

static int ici_push(struct ici_tree *t, const char *name, size_t len, size_t parent,
		    uint32_t depth)
{
	if (t->nn == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		struct ici_node *n = realloc(t->n, cap * sizeof(*n));

		if (!n)
			return -LAT_ENOMEM;
		t->n = n;
		t->cap = cap;
	}
	t->n[t->nn] = (struct ici_node){ .name = name, .len = len, .parent = parent,
					 .depth = depth };
	t->nn++;
	if (depth > t->depth)
		t->depth = depth;
	return 0;
}

/*
 * Adds one folded stack.  Children are found by a linear scan of the nodes
 * with the same parent: stacks number in the hundreds, frames in the tens.
 */
static int ici_add(struct ici_tree *t, const char *folded, int64_t ns)
{
	size_t cur = 0;
	uint32_t depth = 0;
	const char *p = folded;

	t->n[0].ns += ns;
	while (*p) {
		const char *e = strchr(p, ';');
		size_t len = e ? (size_t)(e - p) : strlen(p), found = 0;

		depth++;
		for (size_t i = 1; i < t->nn && !found; i++)
			if (t->n[i].parent == cur && t->n[i].depth == depth && t->n[i].len == len &&
			    !memcmp(t->n[i].name, p, len))
				found = i;
		if (!found) {
			if (ici_push(t, p, len, cur, depth))
				return -LAT_ENOMEM;
			found = t->nn - 1;
		}
		t->n[found].ns += ns;
		cur = found;
		if (!e)
			break;
		p = e + 1;
	}
	return 0;
}

static int ici_build(struct ici_tree *t, const struct rd_icicle_panel *pn)
{
	if (ici_push(t, "all", 3, 0, 0))
		return -LAT_ENOMEM;
	t->n[0].parent = (size_t)-1;
	for (size_t i = 0; i < pn->n; i++)
		if (pn->ns[i] > 0 && pn->folded[i] && ici_add(t, pn->folded[i], pn->ns[i]))
			return -LAT_ENOMEM;
	return 0;
}

static int ici_layout(struct rd_chart *c, cairo_t *m, const void *data,
		      const struct lat_render_opts *o, char *msg, size_t msglen)
{
	const struct rd_icicle_input *in = data;
	struct rd_icicle_layout *l = calloc(1, sizeof(*l));
	double y, gap = 26, avail;
	uint32_t rows = 0;
	int np = 0;
	char d[32], sub[400] = "";

	if (!l || !(l->tree[0] = calloc(1, sizeof(struct ici_tree))) ||
	    !(l->tree[1] = calloc(1, sizeof(struct ici_tree)))) {
		if (l) {
			free(l->tree[0]);
			free(l);
		}
		snprintf(msg, msglen, "out of memory");
		return -LAT_ENOMEM;
	}
	c->priv = l;
	for (int k = 0; k < 2; k++) {
		struct ici_tree *t = l->tree[k];

		if (ici_build(t, &in->panel[k])) {
			snprintf(msg, msglen, "out of memory");
			return -LAT_ENOMEM;
		}
		l->total_ns[k] = t->n[0].ns;
		l->nframes[k] = t->nn;
		l->depth[k] = t->depth;
		if (t->n[0].ns > 0) {
			np++;
			rows += t->depth + 1;
		}
	}
	if (!np) {
		snprintf(msg, msglen, "no kernel stack with off-CPU or runnable time");
		return -LAT_EEMPTY;
	}
	c->has_y = 0;
	rd_font(m, RD_LABEL_PT, 1);
	c->lane_label_w = rd_text_width(m, "runnable");
	c->x = (struct rd_axis){ .lo = 0, .hi = 100, .unit = LAT_UNIT_NONE };
	snprintf(c->x.title, sizeof(c->x.title), "share of each panel's time (%%)");
	for (int k = 0; k < 2; k++) {
		struct rd_legend_item *it;

		if (!l->total_ns[k])
			continue;
		it = &c->legend[c->nlegend++];
		it->rgb = k ? (struct rd_rgb){ 0.93, 0.55, 0.25 } : (struct rd_rgb){ 0.35, 0.55,
										     0.85 };
		it->style = RD_LEG_BOX;
		snprintf(it->text, sizeof(it->text), "%s %s (%zu stack%s)", k ? "runnable" :
			 "off-CPU", rd_fmt_dur_chart((double)l->total_ns[k], d, sizeof(d)),
			 in->panel[k].n, PLURAL(in->panel[k].n));
		snprintf(sub + strlen(sub), sizeof(sub) - strlen(sub), "%s%s: %s in %zu stack%s, "
			 "%zu frame%s, %u deep", sub[0] ? " \xc2\xb7 " : "",
			 k ? "runnable (woken, waiting for the CPU)" : "off-CPU (asleep)", d,
			 in->panel[k].n, PLURAL(in->panel[k].n), l->nframes[k] - 1,
			 PLURAL(l->nframes[k] - 1), l->depth[k]);
	}
	rd_chart_title(c, o, "blame", in->title);
	snprintf(c->subtitle, sizeof(c->subtitle), "%s", sub);
	rd_frame_layout(c, m);

	avail = c->plot.h - 8 - (np - 1) * gap;
	y = c->plot.y + 4;
	for (int k = 0; k < 2; k++) {
		struct ici_tree *t = l->tree[k];
		double rh;

		if (!l->total_ns[k])
			continue;
		rh = fmax(ICI_ROW_MIN, fmin(ICI_ROW_MAX, avail / rows));
		t->row_h = rh;
		t->box = (struct rd_rect){ c->plot.x, y, c->plot.w, rh * (t->depth + 1) };
		y += t->box.h + gap;
	}
	/* a shallow tree: the axis right under it */
	if (y - gap + 4 < c->plot.y + c->plot.h)
		c->plot.h = y - gap + 4 - c->plot.y;
	return 0;
}

/* A warm colour per frame name (FlameGraph's idea), blue-ish for off-CPU. */
static struct rd_rgb frame_rgb(const struct ici_node *n, int runnable)
{
	uint32_t h = 2166136261u;
	double v;

	for (size_t i = 0; i < n->len; i++)
		h = (h ^ (uint8_t)n->name[i]) * 16777619u;
	v = (double)(h % 1000) / 1000.0;
	if (runnable)
		return (struct rd_rgb){ 0.93, 0.45 + 0.35 * v, 0.20 + 0.15 * v };
	return (struct rd_rgb){ 0.30 + 0.25 * v, 0.55 + 0.25 * v, 0.88 };
}

/*
 * Draws node @i at [x, x + w) and its children after it, largest first (ties
 * by name), so the same stacks always give the same picture.
 */
static void draw_node(cairo_t *cr, struct ici_tree *t, size_t i, double x, double w,
		      int runnable)
{
	const struct ici_node *n = &t->n[i];
	double y = t->box.y + n->depth * t->row_h;
	size_t *kids = NULL, nk = 0;

	if (w < ICI_MIN_W)
		return;
	t->drawn++;
	rd_set_rgb(cr, i ? frame_rgb(n, runnable) : (struct rd_rgb){ 0.8, 0.8, 0.8 }, 1);
	cairo_rectangle(cr, x, y, fmax(w - 0.5, 0.5), t->row_h - 1);
	cairo_fill(cr);
	if (w > 30 && t->row_h >= 9) {
		char raw[160], clean[160], fit[160];
		size_t len = n->len < sizeof(raw) - 1 ? n->len : sizeof(raw) - 1;

		memcpy(raw, n->name, len);
		raw[len] = '\0';
		rd_utf8_clean(raw, (size_t)-1, clean, sizeof(clean));
		rd_font(cr, fmin(RD_TICK_PT, t->row_h - 3), 0);
		rd_text_fit(cr, clean, w - 6, fit, sizeof(fit));
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		rd_text(cr, x + 3, y + t->row_h * 0.72, 0, fit);
	}
	for (size_t k = i + 1; k < t->nn; k++)
		if (t->n[k].parent == i)
			nk++;
	if (!nk || !(kids = malloc(nk * sizeof(*kids))))
		return;
	nk = 0;
	for (size_t k = i + 1; k < t->nn; k++)
		if (t->n[k].parent == i)
			kids[nk++] = k;
	/* insertion sort: few children */
	for (size_t a = 1; a < nk; a++) {
		size_t v = kids[a], b = a;

		while (b > 0) {
			const struct ici_node *p = &t->n[kids[b - 1]], *q = &t->n[v];
			size_t ml = p->len < q->len ? p->len : q->len;
			int cmpn = memcmp(p->name, q->name, ml);

			if (p->ns > q->ns || (p->ns == q->ns && (cmpn < 0 || (!cmpn &&
								       p->len <= q->len))))
				break;
			kids[b] = kids[b - 1];
			b--;
		}
		kids[b] = v;
	}
	for (size_t a = 0; a < nk; a++) {
		double cw = n->ns > 0 ? w * (double)t->n[kids[a]].ns / (double)n->ns : 0;

		draw_node(cr, t, kids[a], x, cw, runnable);
		x += cw;
	}
	free(kids);
}

static void ici_draw(cairo_t *cr, const struct rd_chart *c, const void *data,
		     const struct lat_render_opts *o)
{
	struct rd_icicle_layout *l = c->priv;
	char d[32];

	(void)data;
	(void)o;
	for (int k = 0; k < 2; k++) {
		struct ici_tree *t = l->tree[k];

		if (!l->total_ns[k])
			continue;
		t->drawn = 0;
		draw_node(cr, t, 0, t->box.x, t->box.w, k);
		l->drawn[k] = t->drawn;
		rd_font(cr, RD_LABEL_PT, 1);
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		rd_text(cr, c->plot.x - 8, t->box.y + fmin(t->row_h, 16) * 0.8, 2,
			 k ? "runnable" : "off-CPU");
		rd_font(cr, RD_TICK_PT, 0);
		rd_text(cr, c->plot.x - 8, t->box.y + fmin(t->row_h, 16) * 0.8 + 15, 2,
			 rd_fmt_dur_chart((double)l->total_ns[k], d, sizeof(d)));
	}
}

const struct rd_chart_ops rd_icicle_ops = {
	.name = "icicle",
	.layout = ici_layout,
	.draw = ici_draw,
	.release = ici_release,
};
