// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The cpus chart for schedcnt tables: one panel per run ("N = 3"), one lane
 * per CPU, and along the cycle counter the PID each CPU picked: the row's
 * SCHEDEXIT until the CPU's next SCHEDENTRY (ENTRYDIF later), coloured per
 * PID, idle (PID 0) blank.  A thin line joins a PID's consecutive picks on
 * different CPUs, so tasks bounced between CPUs (seed 004, N odd) show as
 * zig-zags between the lanes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "latscope/stats.h"
#include "render_priv.h"

#define PANEL_HEAD 22.0
#define PANEL_GAP 14.0

static void cpus_release(struct rd_chart *c)
{
	struct rd_cpus_layout *l = c->priv;

	if (l) {
		free(l->runs);
		free(l->pids);
		free(l->rgb);
	}
	free(l);
	c->priv = NULL;
}

static int same_group(const struct lat_series *a, const struct lat_series *b)
{
	if (!a->group || !b->group)
		return a->group == b->group;
	return !strcmp(a->group, b->group);
}

/* Index of @pid in the sorted l->pids, or -1. */
static int pid_index(const struct rd_cpus_layout *l, int32_t pid)
{
	size_t lo = 0, hi = l->npids;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (l->pids[mid] == pid)
			return (int)mid;
		if (l->pids[mid] < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static int cmp_i32(const void *a, const void *b)
{
	const int32_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

static int cmp_i64(const void *a, const void *b)
{
	const int64_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

struct pick {
	int64_t at;		/* SCHEDEXIT: the PID starts running */
	int64_t end;		/* the CPU's next SCHEDENTRY, else at */
	int32_t pid;
	int cpu;
};

static int cmp_pick(const void *a, const void *b)
{
	const struct pick *x = a, *y = b;

	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	return x->cpu - y->cpu;
}

/* Picks of one run in time order; *n set.  NULL on allocation failure. */
static struct pick *run_picks(const struct lat_block *b, const struct rd_cpus_run *r, size_t *n)
{
	size_t total = 0, k = 0;
	struct pick *p;

	for (size_t i = r->first; i < r->first + r->n; i++)
		total += b->series[i]->nrows;
	p = malloc((total ? total : 1) * sizeof(*p));
	if (!p)
		return NULL;
	for (size_t i = r->first; i < r->first + r->n; i++) {
		const struct lat_series *s = b->series[i];

		for (size_t row = 0; row < s->nrows; row++) {
			int64_t ex = lat_series_at(s, row, LAT_SCHED_EXIT);
			int64_t pid = lat_series_at(s, row, LAT_SCHED_PID);
			int64_t e = lat_series_at(s, row, LAT_SCHED_ENTRY);
			int64_t dif = lat_series_at(s, row, LAT_SCHED_ENTRYDIF);
			int64_t end = ex;

			if (ex == LAT_VALUE_NONE || pid == LAT_VALUE_NONE || pid <= 0 ||
			    pid > INT32_MAX)
				continue;
			if (e != LAT_VALUE_NONE && dif != LAT_VALUE_NONE &&
			    __builtin_add_overflow(e, dif, &end))
				end = ex;
			p[k++] = (struct pick){ ex, end, (int32_t)pid, (int)(i - r->first) };
		}
	}
	lat_sort(p, k, sizeof(*p), cmp_pick);
	*n = k;
	return p;
}

/*
 * Walks the picks of run @r in time order and calls @cb (when not NULL) for
 * every PID picked on another CPU than its previous pick; counts them in
 * *@changes.  Needs l->pids.  Returns 0 or -LAT_ENOMEM.
 */
static int cpu_changes(const struct lat_block *b, const struct rd_cpus_layout *l,
		       const struct rd_cpus_run *r,
		       void (*cb)(void *arg, const struct pick *from, const struct pick *to),
		       void *arg, size_t *changes)
{
	struct pick *last = calloc(l->npids ? l->npids : 1, sizeof(*last)), *p;
	size_t n = 0;

	*changes = 0;
	p = last ? run_picks(b, r, &n) : NULL;
	if (!p) {
		free(last);
		return -LAT_ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		int k = pid_index(l, p[i].pid);

		if (k < 0)
			continue;
		/* last[k].pid == 0: no earlier pick of this PID in the run */
		if (last[k].pid && last[k].cpu != p[i].cpu) {
			(*changes)++;
			if (cb)
				cb(arg, &last[k], &p[i]);
		}
		last[k] = p[i];
	}
	free(p);
	free(last);
	return 0;
}

struct pid_run {
	int32_t pid;
	size_t idx;		/* in l->pids */
	double cycles;		/* picked until the next entry, over every run */
};

static int cmp_run(const void *a, const void *b)
{
	const struct pid_run *x = a, *y = b;

	if (x->cycles != y->cycles)
		return x->cycles < y->cycles ? 1 : -1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/*
 * Palette colours go to the PIDs that ran longest (the hogs whose bouncing the
 * chart is about), pale ones to the rest; the legend lists them in that order.
 */
static int assign_colours(struct rd_chart *c, const struct lat_block *b,
			  struct rd_cpus_layout *l)
{
	struct pid_run *pr = calloc(l->npids ? l->npids : 1, sizeof(*pr));

	if (!pr)
		return -LAT_ENOMEM;
	for (size_t i = 0; i < l->npids; i++)
		pr[i] = (struct pid_run){ l->pids[i], i, 0 };
	for (size_t i = 0; i < b->nseries; i++) {
		const struct lat_series *s = b->series[i];

		for (size_t row = 0; row < s->nrows; row++) {
			int64_t e = lat_series_at(s, row, LAT_SCHED_ENTRY);
			int64_t ex = lat_series_at(s, row, LAT_SCHED_EXIT);
			int64_t pid = lat_series_at(s, row, LAT_SCHED_PID);
			int64_t dif = lat_series_at(s, row, LAT_SCHED_ENTRYDIF);
			int k;

			if (e == LAT_VALUE_NONE || ex == LAT_VALUE_NONE || dif == LAT_VALUE_NONE ||
			    pid <= 0 || pid > INT32_MAX)
				continue;
			k = pid_index(l, (int32_t)pid);
			if (k >= 0)
				pr[k].cycles += fmax(0, rd_dsub(e, ex) + (double)dif);
		}
	}
	lat_sort(pr, l->npids, sizeof(*pr), cmp_run);
	for (size_t r = 0; r < l->npids; r++) {
		size_t i = pr[r].idx;

		l->rgb[i] = r < RD_PALETTE_N ? rd_palette(r) : rd_muted((uint32_t)l->pids[i]);
		if (c->nlegend < RD_LEGEND_MAX - 1) {
			struct rd_legend_item *it = &c->legend[c->nlegend++];

			snprintf(it->text, sizeof(it->text), "pid %d", l->pids[i]);
			it->rgb = l->rgb[i];
			it->style = RD_LEG_BOX;
		}
	}
	free(pr);
	return 0;
}

/*
 * Groups the block's series into runs (consecutive series of one group), collecting every LAT
 * value into @lat (*@nlat of them) and every PID picked into l->pids.
 */
static void collect_runs(const struct lat_block *b, struct rd_cpus_layout *l, int64_t *lat,
			 size_t *nlat, size_t *np)
{
	for (size_t i = 0; i < b->nseries; i++) {
		const struct lat_series *s = b->series[i];
		struct rd_cpus_run *r;

		if (!l->nruns || !same_group(b->series[l->runs[l->nruns - 1].first], s)) {
			r = &l->runs[l->nruns++];
			r->first = i;
			r->group = s->group;
			r->c0 = INT64_MAX;
		}
		r = &l->runs[l->nruns - 1];
		r->n++;
		for (size_t row = 0; row < s->nrows; row++) {
			int64_t e = lat_series_at(s, row, LAT_SCHED_ENTRY);
			int64_t v = lat_series_at(s, row, LAT_SCHED_LAT);
			int64_t pid = lat_series_at(s, row, LAT_SCHED_PID);

			if (e != LAT_VALUE_NONE && e < r->c0)
				r->c0 = e;
			if (v != LAT_VALUE_NONE)
				lat[(*nlat)++] = v;
			if (pid != LAT_VALUE_NONE && pid > 0 && pid <= INT32_MAX)
				l->pids[(*np)++] = (int32_t)pid;
		}
	}
}

/*
 * The shared x range: the longest run, from its first entry to its last pick's end.  Also
 * sets each run's origin and CPU count; *@lanes: the CPU lanes of all panels.
 */
static double runs_span(const struct lat_block *b, struct rd_cpus_layout *l, size_t *lanes)
{
	double span = 1;

	for (size_t k = 0; k < l->nruns; k++) {
		struct rd_cpus_run *r = &l->runs[k];

		if (r->c0 == INT64_MAX)
			r->c0 = 0;
		r->ncpus = (int)r->n;
		*lanes += r->n;
		for (size_t i = r->first; i < r->first + r->n; i++) {
			const struct lat_series *s = b->series[i];

			for (size_t row = 0; row < s->nrows; row++) {
				int64_t e = lat_series_at(s, row, LAT_SCHED_ENTRY);
				int64_t dif = lat_series_at(s, row, LAT_SCHED_ENTRYDIF);
				int64_t ex = lat_series_at(s, row, LAT_SCHED_EXIT);
				int64_t end = ex;

				if (dif != LAT_VALUE_NONE && e != LAT_VALUE_NONE &&
				    __builtin_add_overflow(e, dif, &end))
					end = LAT_VALUE_NONE;

				if (end != LAT_VALUE_NONE && rd_dsub(end, r->c0) > span)
					span = rd_dsub(end, r->c0);
			}
		}
	}
	return span;
}

/* One panel per run, @lanes CPU lanes in all, stacked in the plot area. */
static int place_panels(struct rd_chart *c, struct rd_cpus_layout *l, size_t lanes,
			const struct lat_render_opts *o, char *msg, size_t msglen)
{
	double avail = c->plot.h - l->nruns * (PANEL_HEAD + PANEL_GAP);
	double lane = lanes ? avail / (double)lanes : 0;
	double y;

	if (lane > 120)
		lane = 120;
	if (lane < 4) {
		snprintf(msg, msglen, "%zu run%s do not fit in %d pixels: use --size",
			 l->nruns, PLURAL(l->nruns), o->height);
		return -LAT_EUSAGE;
	}
	y = c->plot.y + 6;
	for (size_t k = 0; k < l->nruns; k++) {
		struct rd_cpus_run *r = &l->runs[k];

		r->box = (struct rd_rect){ c->plot.x, y + PANEL_HEAD, c->plot.w, lane * r->n };
		y += PANEL_HEAD + lane * r->n + PANEL_GAP;
	}
	c->plot.h = y - c->plot.y - PANEL_GAP + 6;
	return 0;
}

/* The PIDs once each, their colours and the legend's "+N more". */
static int pid_colours(struct rd_chart *c, const struct lat_block *b,
		       struct rd_cpus_layout *l, size_t np)
{
	lat_sort(l->pids, np, sizeof(*l->pids), cmp_i32);
	for (size_t i = 0; i < np; i++)
		if (!l->npids || l->pids[l->npids - 1] != l->pids[i])
			l->pids[l->npids++] = l->pids[i];
	for (size_t k = 0; k < l->nruns; k++)
		if (cpu_changes(b, l, &l->runs[k], NULL, NULL, &l->runs[k].changes))
			return -LAT_ENOMEM;
	l->rgb = calloc(l->npids ? l->npids : 1, sizeof(*l->rgb));
	if (!l->rgb || assign_colours(c, b, l))
		return -LAT_ENOMEM;
	if (l->npids > (size_t)c->nlegend)
		snprintf(c->legend_more, sizeof(c->legend_more), "+%zu more PIDs (pale)",
			 l->npids - (size_t)c->nlegend);
	return 0;
}

static int cpus_layout(struct rd_chart *c, cairo_t *m, const void *data,
		       const struct lat_render_opts *o, char *msg, size_t msglen)
{
	const struct lat_block *b = data;
	struct rd_cpus_layout *l = calloc(1, sizeof(*l));
	int64_t *lat = NULL;
	double span;
	size_t nlat = 0, rows = 0, np = 0, panel_lanes = 0;
	int ret = 0;

	if (!l)
		goto nomem;
	c->priv = l;
	for (size_t i = 0; i < b->nseries; i++) {
		if (b->series[i]->ncols < LAT_SCHED_NCOLS) {
			snprintf(msg, msglen, "series %zu is not a schedcnt table", i + 1);
			return -LAT_EFORMAT;
		}
		rows += b->series[i]->nrows;
	}
	if (!rows) {
		snprintf(msg, msglen, "the block holds no rows");
		return -LAT_EEMPTY;
	}
	l->runs = calloc(b->nseries, sizeof(*l->runs));
	l->pids = malloc(rows * sizeof(*l->pids));
	lat = malloc(rows * sizeof(*lat));
	if (!l->runs || !l->pids || !lat)
		goto nomem;
	collect_runs(b, l, lat, &nlat, &np);
	span = runs_span(b, l, &panel_lanes);
	if (pid_colours(c, b, l, np))
		goto nomem;

	lat_sort(lat, nlat, sizeof(*lat), cmp_i64);
	rd_chart_title(c, o, "schedcnt", b->title);
	snprintf(c->subtitle, sizeof(c->subtitle), "%zu run%s, %zu row%s \xc2\xb7 scheduler "
		 "latency (LAT) max %lld, p99 %lld cycles \xc2\xb7 lines: a PID picked next on "
		 "another CPU", l->nruns, PLURAL(l->nruns), rows, PLURAL(rows),
		 nlat ? (long long)lat[nlat - 1] : 0,
		 nlat ? (long long)lat_percentile_sorted(lat, nlat, 99) : 0);

	c->has_y = 0;
	rd_font(m, RD_LABEL_PT, 0);
	c->lane_label_w = rd_text_width(m, "cpu000");
	c->x = (struct rd_axis){ .lo = 0, .hi = span, .unit = LAT_UNIT_CYCLES };
	snprintf(c->x.title, sizeof(c->x.title), "cycle counter since the run's first "
		 "SCHEDENTRY");
	rd_axis_nice_range(&c->x, 10);
	rd_frame_layout(c, m);
	ret = place_panels(c, l, panel_lanes, o, msg, msglen);
	free(lat);
	return ret;
nomem:
	free(lat);
	snprintf(msg, msglen, "out of memory");
	return -LAT_ENOMEM;
}

struct join_arg {
	cairo_t *cr;
	const struct rd_chart *c;
	const struct rd_cpus_run *r;
	double lane;
};

static void join(void *arg, const struct pick *from, const struct pick *to)
{
	const struct join_arg *a = arg;

	/* from where the PID stopped on one CPU to where it started on the other */
	cairo_move_to(a->cr, rd_axis_map(&a->c->x, rd_dsub(from->end, a->r->c0)),
		      a->r->box.y + (from->cpu + 0.5) * a->lane);
	cairo_line_to(a->cr, rd_axis_map(&a->c->x, rd_dsub(to->at, a->r->c0)),
		      a->r->box.y + (to->cpu + 0.5) * a->lane);
}

static void cpus_draw(cairo_t *cr, const struct rd_chart *c, const void *data,
		      const struct lat_render_opts *o)
{
	const struct lat_block *b = data;
	const struct rd_cpus_layout *l = c->priv;
	char buf[200], name[64];

	for (size_t k = 0; k < l->nruns; k++) {
		const struct rd_cpus_run *r = &l->runs[k];
		double lane = r->box.h / (r->n ? (double)r->n : 1);
		const struct lat_series *s0 = b->series[r->first];

		rd_utf8_clean(r->group ? r->group : "run", (size_t)-1, name, sizeof(name));
		snprintf(buf, sizeof(buf), "%s \xc2\xb7 %zu CPU change%s", name, r->changes,
			 r->changes == 1 ? "" : "s");
		if (s0->nextra >= 1) {
			size_t len = strlen(buf);

			snprintf(buf + len, sizeof(buf) - len, " \xc2\xb7 average LAT printed by the "
				 "tool: %lld cycles", (long long)s0->extra[0]);
		}
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		rd_font(cr, RD_LABEL_PT, 1);
		rd_text(cr, r->box.x + 4, r->box.y - 6, 0, buf);
		for (size_t i = r->first; i < r->first + r->n; i++) {
			const struct lat_series *s = b->series[i];
			double top = r->box.y + (double)(i - r->first) * lane;

			cairo_set_source_rgb(cr, 0.965, 0.965, 0.965);
			cairo_rectangle(cr, r->box.x, top + 1, r->box.w, lane - 2);
			cairo_fill(cr);
			rd_font(cr, fmin(RD_LABEL_PT, lane * 0.8), 0);
			cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
			rd_utf8_clean(s->name, (size_t)-1, name, sizeof(name));
			rd_text(cr, r->box.x - 8, top + lane / 2 + fmin(RD_LABEL_PT, lane) * 0.35,
				 2, name);
			for (size_t row = 0; row < s->nrows; row++) {
				int64_t e = lat_series_at(s, row, LAT_SCHED_ENTRY);
				int64_t ex = lat_series_at(s, row, LAT_SCHED_EXIT);
				int64_t pid = lat_series_at(s, row, LAT_SCHED_PID);
				int64_t dif = lat_series_at(s, row, LAT_SCHED_ENTRYDIF);
				double x0, x1;
				int pi;

				if (ex == LAT_VALUE_NONE || pid == LAT_VALUE_NONE || pid <= 0 ||
				    pid > INT32_MAX)
					continue;
				pi = pid_index(l, (int32_t)pid);
				x0 = rd_axis_map(&c->x, rd_dsub(ex, r->c0));
				x1 = dif != LAT_VALUE_NONE && e != LAT_VALUE_NONE ?
				     rd_axis_map(&c->x, rd_dsub(e, r->c0) + (double)dif) : x0 + 2;
				cairo_rectangle(cr, x0, top + 3, fmax(x1 - x0, 1.5), lane - 6);
				rd_set_rgb(cr, pi >= 0 ? l->rgb[pi] : rd_muted((uint32_t)pid), 1);
				cairo_fill(cr);
			}
		}
		/* a PID's next pick on another CPU: join the two picks */
		{
			struct join_arg ja = { cr, c, r, lane };
			size_t n;

			cairo_set_line_width(cr, 1.2);
			rd_set_rgb(cr, (struct rd_rgb){ 0.1, 0.1, 0.1 }, 0.55);
			if (!cpu_changes(b, l, r, join, &ja, &n))
				cairo_stroke(cr);
			cairo_new_path(cr);
		}
	}
}

const struct rd_chart_ops rd_cpus_ops = {
	.name = "cpus",
	.layout = cpus_layout,
	.draw = cpus_draw,
	.release = cpus_release,
};
