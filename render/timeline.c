// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The timeline chart: one lane per CPU, run slices coloured per task, idle
 * blank, irq / softirq as thin strips under the slices, probe markers as
 * ticks with their value, the wakeup being explained as a bracket from waking
 * to switch-in (labelled with its latency and the task that held the CPU),
 * the waker chain as arrows between lanes, and task migrations as violet
 * arrows from the origin CPU's lane to the destination's (the case's own task
 * bold and always labelled, others thin and folded per pixel column).
 *
 * Level of detail: a slice narrower than a pixel column is folded into that
 * column, drawn in the colour of the task that ran most of it and as opaque
 * as the column was busy.  Rectangles are then drawn grouped by colour, one
 * path each, so a million slices cost a pass over the array and an SVG holds
 * at most a few thousand rectangles per lane.  Where the analysis kept a
 * CPU's slices only merged (a window longer than its rings reach), the merged
 * spans are drawn the same way, hatched and labelled (render/timeline_merged.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render_priv.h"

#define BAND_H 46.0		/* above the lanes: the bracket and its label */
#define LANE_GAP 6.0
#define THIN_H 16.0		/* a row of CPUs with nothing to draw */
#define NALPHA 4		/* opacity levels of folded columns */

struct task_acc {
	int32_t pid;
	int used;
	uint64_t run_ns;
	const char *comm;	/* lent from the first slice seen */
	int idx;		/* legend / palette index, -1 past the palette */
};

struct task_map {
	struct task_acc *t;
	size_t cap, n;
};

static struct task_acc *task_get(struct task_map *m, int32_t pid)
{
	size_t i;

	if ((m->n + 1) * 2 > m->cap) {
		size_t ncap = m->cap ? m->cap * 2 : 64;
		struct task_acc *nt = calloc(ncap, sizeof(*nt));

		if (!nt)
			return NULL;
		for (size_t k = 0; k < m->cap; k++) {
			if (!m->t[k].used)
				continue;
			i = ((uint32_t)m->t[k].pid * 2654435761u) & (ncap - 1);
			while (nt[i].used)
				i = (i + 1) & (ncap - 1);
			nt[i] = m->t[k];
		}
		free(m->t);
		m->t = nt;
		m->cap = ncap;
	}
	i = ((uint32_t)pid * 2654435761u) & (m->cap - 1);
	while (m->t[i].used && m->t[i].pid != pid)
		i = (i + 1) & (m->cap - 1);
	if (!m->t[i].used) {
		m->t[i] = (struct task_acc){ .pid = pid, .used = 1, .idx = -1 };
		m->n++;
	}
	return &m->t[i];
}

static struct task_acc *task_find(const struct task_map *m, int32_t pid)
{
	size_t i;

	if (!m->cap)
		return NULL;
	i = ((uint32_t)pid * 2654435761u) & (m->cap - 1);
	while (m->t[i].used) {
		if (m->t[i].pid == pid)
			return &m->t[i];
		i = (i + 1) & (m->cap - 1);
	}
	return NULL;
}

struct tl_priv {
	struct rd_tl_layout pub;	/* first: c->priv points at both */
	struct task_map tasks;
	const struct lat_tl_slice *sl;	/* the slices by cpu then start */
	struct lat_tl_slice *sorted;	/* owned copy when the input was not in that order */
	const struct lat_tl_mark **migr;	/* owned array: migrations to draw, by CPU pair */
	const struct lat_tl_summary *sums;	/* the merged spans by cpu then start */
	struct lat_tl_summary *sums_sorted;	/* owned copy when they were not in that order */
};

const struct rd_rgb tl_migr_own_rgb = { 0.50, 0.10, 0.75 };
static const struct rd_rgb tl_gap_rgb = { 0.45, 0.45, 0.45 };
const struct rd_rgb tl_migr_rgb = { 0.62, 0.52, 0.78 };

static int cmp_slice(const void *a, const void *b)
{
	const struct lat_tl_slice *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->start_ns < y->start_ns ? -1 : x->start_ns > y->start_ns;
}

/* The lanes are drawn in one pass over slices sorted by cpu then start. */
static int sort_slices(struct tl_priv *p, const struct lat_timeline *t)
{
	size_t i;

	p->sl = t->slices;
	for (i = 1; i < t->nslices; i++)
		if (cmp_slice(&t->slices[i - 1], &t->slices[i]) > 0)
			break;
	if (i >= t->nslices)
		return 0;
	p->sorted = malloc(t->nslices * sizeof(*p->sorted));
	if (!p->sorted)
		return -LAT_ENOMEM;
	memcpy(p->sorted, t->slices, t->nslices * sizeof(*p->sorted));
	lat_sort(p->sorted, t->nslices, sizeof(*p->sorted), cmp_slice);
	p->sl = p->sorted;
	return 0;
}

static void tl_release(struct rd_chart *c)
{
	struct tl_priv *p = c->priv;

	if (p) {
		free(p->pub.task_pid);
		free(p->pub.task_rgb);
		free(p->tasks.t);
		free(p->sorted);
		free(p->sums_sorted);
		free(p->migr);
		free(p->pub.lane_empty);
		free(p->pub.lane_top);
	}
	free(p);
	c->priv = NULL;
}

double rd_tl_lane_top(const struct rd_tl_layout *l, int cpu)
{
	if (l->lane_top)
		return l->lane_top[cpu];
	return l->lane_y0 + cpu * (l->lane_h + l->lane_gap);
}

static int lane_empty(const struct rd_tl_layout *l, int cpu)
{
	return l->lane_empty && l->lane_empty[cpu];
}

static int cmp_run_desc(const void *a, const void *b)
{
	const struct task_acc *const *x = a, *const *y = b;

	if ((*x)->run_ns != (*y)->run_ns)
		return (*x)->run_ns < (*y)->run_ns ? 1 : -1;
	return (*x)->pid < (*y)->pid ? -1 : (*x)->pid > (*y)->pid;
}

static int32_t focus_pid(const struct lat_timeline *t, const char *task)
{
	char *end;
	long v;

	if (!task || !*task)
		return -1;
	v = strtol(task, &end, 10);
	if (!*end && v >= 0 && v <= INT32_MAX)
		return (int32_t)v;
	for (size_t i = 0; i < t->nslices; i++)
		if (!strncmp(t->slices[i].comm, task, LAT_COMM_LEN))
			return t->slices[i].pid;
	return -1;
}

static void task_label(const char *comm, int32_t pid, char *buf, size_t len)
{
	char c[LAT_COMM_LEN * 3 + 4];

	rd_utf8_clean(comm ? comm : "", strnlen(comm ? comm : "", LAT_COMM_LEN), c, sizeof(c));
	if (pid >= LAT_TL_PID_UNNAMED)
		snprintf(buf, len, "%s (no pid given)", *c ? c : "?");
	else
		snprintf(buf, len, "%s:%d", *c ? c : "?", pid);
}

/*
 * The label of a waker arrow: the waking task ("comm:pid"), or the irq context
 * that ran the waking: its name ("irq eth0"; no pid: the pid is the task it
 * interrupted), or, when the trace does not name it, "woken in irq (unnamed)"
 * (softirq, nmi).
 */
void rd_tl_edge_label(const struct lat_tl_edge *e, char *buf, size_t len)
{
	static const char *const ctx[] = { "irq", "softirq", "nmi" };
	char c[LAT_COMM_LEN * 3 + 4];

	if (!e->from_irq) {
		task_label(e->from_comm, e->from_pid, buf, len);
		return;
	}
	rd_utf8_clean(e->from_comm, strnlen(e->from_comm, LAT_COMM_LEN), c, sizeof(c));
	if (!*c)
		snprintf(buf, len, "woken in %s (unnamed)",
			 e->from_irq <= LAT_ARRAY_SIZE(ctx) ? ctx[e->from_irq - 1] : "irq");
	else
		snprintf(buf, len, "irq %s", c);
}

/*
 * Who held the CPU during a bracket's wait: "CPU held by X (97%)" when one
 * task ran most of it, "CPU shared by N tasks, most by X (3%)" when none did,
 * "CPU idle" when nobody ran.
 */
static void held_phrase(const struct lat_tl_bracket *b, char *buf, size_t len)
{
	uint64_t end = b->queued_until_ns ? b->queued_until_ns : b->end_ns;
	uint64_t from = b->queued_until_ns && b->queued_from_ns > b->start_ns ? b->queued_from_ns :
			b->start_ns;
	uint64_t wait = end > from ? end - from : 0;
	int pct = wait ? (int)(100.0 * (double)b->held_ns / (double)wait + 0.5) : 0;
	char who[LAT_COMM_LEN * 3 + 16], cpu[32] = "CPU";

	/* queued on another CPU first: that CPU is named, and who ran there */
	if (b->queued_until_ns)
		snprintf(cpu, sizeof(cpu), "queued on CPU %d,", b->queued_cpu);
	if (b->held_by_pid <= 0) {
		snprintf(buf, len, "%s idle", cpu);
		return;
	}
	task_label(b->held_by_comm, b->held_by_pid, who, sizeof(who));
	if (pct >= 50)
		snprintf(buf, len, "%s held by %s (%d%%)", cpu, who, pct);
	else if (b->held_tasks > 1)
		snprintf(buf, len, "%s shared by %zu tasks, most by %s (%d%%)", cpu, b->held_tasks,
			 who, pct);
	else
		snprintf(buf, len, "%s held most by %s (%d%%)", cpu, who, pct);
}

static int cmp_migr(const void *a, const void *b)
{
	const struct lat_tl_mark *x = *(const struct lat_tl_mark *const *)a;
	const struct lat_tl_mark *y = *(const struct lat_tl_mark *const *)b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	if (x->other_cpu != y->other_cpu)
		return x->other_cpu < y->other_cpu ? -1 : 1;
	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/*
 * The migrations in the view between two lanes, sorted by CPU pair then time
 * (the drawing folds a pair's arrows per pixel column), each once: the
 * analysis records the case's own migrations with the case and may also have
 * captured them live.  Returns how many are the own task's, or -LAT_ENOMEM.
 */
static long collect_migr(struct tl_priv *p, const struct lat_timeline *t)
{
	struct rd_tl_layout *l = &p->pub;
	size_t n = 0, k = 0;
	long own = 0;

	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < t->nmarks; i++) {
			const struct lat_tl_mark *mk = &t->marks[i];

			if (mk->kind != LAT_TL_MIGRATE || mk->start_ns < l->v0 ||
			    mk->start_ns >= l->v1 || mk->cpu < 0 || mk->cpu >= l->ncpus ||
			    mk->other_cpu < 0 || mk->other_cpu >= l->ncpus ||
			    mk->cpu == mk->other_cpu)
				continue;
			if (pass)
				p->migr[k++] = mk;
			else
				n++;
		}
		if (!n)
			return 0;
		if (!pass && !(p->migr = malloc(n * sizeof(*p->migr))))
			return -LAT_ENOMEM;
	}
	lat_sort(p->migr, n, sizeof(*p->migr), cmp_migr);
	k = 0;
	for (size_t i = 0; i < n; i++) {
		if (k && !cmp_migr(&p->migr[k - 1], &p->migr[i]))
			continue;
		p->migr[k++] = p->migr[i];
		own += l->own_pid > 0 && p->migr[i]->pid == l->own_pid;
	}
	l->nmigr = k;
	return own;
}

/* What the layout counts over the timeline. */
struct tl_counts {
	int ncpus;
	size_t nirq, nmark;
	long nown;		/* migrations of the bracket's own task */
};

/* The part of the timeline drawn: [l->v0, l->v1), all of it or --window. */
static int tl_window(struct rd_tl_layout *l, const struct lat_timeline *t,
		     const struct lat_render_opts *o, char *msg, size_t msglen)
{
	char d1[32];

	if (!(t->end_ns > t->start_ns)) {
		snprintf(msg, msglen, "the timeline's window is empty");
		return -LAT_EEMPTY;
	}
	l->v0 = t->start_ns;
	l->v1 = t->end_ns;
	if (o->has_window) {
		uint64_t span = t->end_ns - t->start_ns;
		uint64_t ws = o->window_start_ns > 0 ? (uint64_t)o->window_start_ns : 0;
		uint64_t we = o->window_end_ns < 0 ? span : (uint64_t)o->window_end_ns;

		if (we > span)
			we = span;
		l->v0 = t->start_ns + (ws < span ? ws : span);
		l->v1 = t->start_ns + we;
		if (!(l->v1 > l->v0)) {
			snprintf(msg, msglen, "--window is outside the timeline (%s long)",
				 rd_fmt_dur_chart((double)(t->end_ns - t->start_ns), d1,
						   sizeof(d1)));
			return -LAT_EUSAGE;
		}
	}
	return 0;
}

/* Lane @cpu seen; @ns of task @pid (named @comm) in the view, unless @pid is 0 (nothing). */
static int tl_credit(struct tl_priv *p, struct tl_counts *n, int32_t cpu, int32_t pid,
		     const char *comm, uint64_t ns)
{
	struct task_acc *ta;

	if (cpu >= n->ncpus && cpu < 4096)
		n->ncpus = cpu + 1;
	if (!pid)
		return 0;
	if (!(ta = task_get(&p->tasks, pid)))
		return -LAT_ENOMEM;
	if (!ta->comm)
		ta->comm = comm;
	ta->run_ns += ns;
	return 0;
}

/* Run time per task inside the window, the CPUs seen, irqs and markers. */
static int tl_scan(struct tl_priv *p, const struct lat_timeline *t, struct tl_counts *n)
{
	const struct rd_tl_layout *l = &p->pub;

	p->pub.nsums = 0;
	p->pub.sum_slices = 0;

	for (size_t k = 0; k < t->nslices; k++) {
		const struct lat_tl_slice *s = &p->sl[k];
		uint64_t a = s->start_ns > l->v0 ? s->start_ns : l->v0;
		uint64_t b = s->end_ns < l->v1 ? s->end_ns : l->v1;

		if (tl_credit(p, n, s->cpu, b > a ? s->pid : 0, s->comm, b > a ? b - a : 0))
			return -LAT_ENOMEM;
	}
	for (size_t k = 0; k < t->nsums; k++) {
		const struct lat_tl_summary *s = &p->sums[k];
		uint64_t a = s->start_ns > l->v0 ? s->start_ns : l->v0;
		uint64_t b = s->end_ns < l->v1 ? s->end_ns : l->v1;
		int32_t pid = s->pid > 0 && b > a ? s->pid : 0;
		uint64_t ns = 0;

		if (!tl_sum_in_view(s, l->v0, l->v1)) {
			tl_credit(p, n, s->cpu, 0, NULL, 0);
			continue;
		}
		p->pub.nsums++;
		p->pub.sum_slices += s->nslices;
		/* the top task's share of the span, for its place in the legend */
		if (pid)
			ns = (uint64_t)((double)s->top_ns * (double)(b - a) /
					(double)(s->end_ns - s->start_ns));
		if (tl_credit(p, n, s->cpu, pid, s->comm, ns))
			return -LAT_ENOMEM;
	}
	for (size_t k = 0; k < t->nmarks; k++) {
		if (t->marks[k].cpu >= n->ncpus && t->marks[k].cpu < 4096)
			n->ncpus = t->marks[k].cpu + 1;
		n->nirq += t->marks[k].kind == LAT_TL_IRQ || t->marks[k].kind == LAT_TL_SOFTIRQ;
		n->nmark += t->marks[k].kind == LAT_TL_MARKER;
	}
	return 0;
}

/*
 * The tasks with a colour of their own, in legend order: the bracket's task, the one holding
 * the CPU, then by run time (RD_PALETTE_N of them); l->ntasks_all counts them all.
 */
static int tl_task_order(struct tl_priv *p, const struct lat_timeline *t)
{
	struct rd_tl_layout *l = &p->pub;
	struct task_acc **order = calloc(p->tasks.n ? p->tasks.n : 1, sizeof(*order));
	int32_t first[3] = { l->focus_pid, t->nbrackets ? t->brackets[0].pid : -1,
			     t->nbrackets ? t->brackets[0].held_by_pid : -1 };
	size_t k = 0;

	l->task_pid = calloc(RD_PALETTE_N, sizeof(*l->task_pid));
	l->task_rgb = calloc(RD_PALETTE_N, sizeof(*l->task_rgb));
	if (!order || !l->task_pid || !l->task_rgb) {
		free(order);
		return -LAT_ENOMEM;
	}
	for (size_t i = 0; i < p->tasks.cap; i++)
		if (p->tasks.t[i].used)
			order[k++] = &p->tasks.t[i];
	lat_sort(order, k, sizeof(*order), cmp_run_desc);
	l->ntasks_all = k;
	for (int f = 0; f < 3; f++) {
		struct task_acc *ta = first[f] > 0 ? task_find(&p->tasks, first[f]) : NULL;

		if (ta && ta->idx < 0) {
			ta->idx = (int)l->ntasks;
			l->task_pid[l->ntasks++] = ta->pid;
		}
	}
	for (size_t i = 0; i < k && l->ntasks < RD_PALETTE_N; i++) {
		if (order[i]->idx >= 0)
			continue;
		order[i]->idx = (int)l->ntasks;
		l->task_pid[l->ntasks++] = order[i]->pid;
	}
	free(order);
	return 0;
}

static struct rd_legend_item *tl_legend_add(struct rd_chart *c, struct rd_rgb rgb,
					     enum rd_legend_style style)
{
	struct rd_legend_item *it = &c->legend[c->nlegend++];

	it->rgb = rgb;
	it->style = style;
	return it;
}

static void tl_legend(struct rd_chart *c, struct tl_priv *p, const struct lat_timeline *t,
		      const struct tl_counts *n)
{
	struct rd_tl_layout *l = &p->pub;
	char who[80];

	for (size_t i = 0; i < l->ntasks; i++) {
		struct task_acc *ta = task_find(&p->tasks, l->task_pid[i]);
		struct rd_legend_item *it;

		l->task_rgb[i] = rd_palette(i);
		it = tl_legend_add(c, l->task_rgb[i], RD_LEG_BOX);
		task_label(ta->comm, ta->pid, it->text, sizeof(it->text));
	}
	if (l->ntasks_all > l->ntasks)
		snprintf(c->legend_more, sizeof(c->legend_more), "+%zu other tasks (pale)",
			 l->ntasks_all - l->ntasks);
	if (n->nirq)
		snprintf(tl_legend_add(c, (struct rd_rgb){ 0.2, 0.2, 0.2 }, RD_LEG_LINE)->text,
			 sizeof(c->legend[0].text), "irq (dark) / softirq (amber)");
	if (t->nbrackets)
		snprintf(tl_legend_add(c, rd_alert_rgb, RD_LEG_LINE)->text,
			 sizeof(c->legend[0].text), "wakeup latency (waking \xe2\x86\x92 running)");
	if (n->nown) {
		const char *comm = t->nbrackets ? t->brackets[0].comm : NULL;
		struct task_acc *ta = comm ? NULL : task_find(&p->tasks, l->own_pid);

		task_label(comm ? comm : ta ? ta->comm : "", l->own_pid, who, sizeof(who));
		snprintf(tl_legend_add(c, tl_migr_own_rgb, RD_LEG_LINE)->text,
			 sizeof(c->legend[0].text), "migration of %s", who);
	}
	if (l->nmigr > (size_t)n->nown)
		snprintf(tl_legend_add(c, tl_migr_rgb, RD_LEG_LINE)->text,
			 sizeof(c->legend[0].text), "migration of another task");
	/* bands over the lanes: stalls, then what the input left out (once each) */
	for (int gap = 0; gap < 2; gap++) {
		for (size_t i = 0; i < t->nmarks; i++) {
			const struct lat_tl_mark *mk = &t->marks[i];

			if (mk->kind != (gap ? LAT_TL_GAP : LAT_TL_STALL) || mk->end_ns <= l->v0 ||
			    mk->start_ns >= l->v1)
				continue;
			/* a gap of the analysis says why (a switch missing), the input's rows do not */
			snprintf(tl_legend_add(c, gap ? tl_gap_rgb : rd_alert_rgb, RD_LEG_BOX)->text,
				 sizeof(c->legend[0].text), "%s%s", !gap ? "no events: stall?" :
				 mk->label[0] ? "not known: " : "not in the input: not known",
				 gap ? mk->label : "");
			break;
		}
	}
	if (l->focus_pid >= 0)
		snprintf(tl_legend_add(c, (struct rd_rgb){ 0.6, 0.6, 0.6 }, RD_LEG_DASH)->text,
			 sizeof(c->legend[0].text), "hatched: not the --task, holder or waker");
	if (l->nsums)
		snprintf(tl_legend_add(c, (struct rd_rgb){ 0.35, 0.35, 0.35 }, RD_LEG_BOX)->text,
			 sizeof(c->legend[0].text), "white-hatched: slices merged");
}

static void tl_subtitle(struct rd_chart *c, const struct rd_tl_layout *l,
			const struct lat_timeline *t, const struct tl_counts *n)
{
	char d1[32], who[80], held[160], empty[40] = "", merged[48] = "";
	size_t k;

	if (l->nempty)
		snprintf(empty, sizeof(empty), " (%d with no events)", l->nempty);
	if (l->sum_slices)
		snprintf(merged, sizeof(merged), " (and %llu merged)",
			 (unsigned long long)l->sum_slices);
	if (t->nbrackets) {
		const struct lat_tl_bracket *b = &t->brackets[0];

		task_label(b->comm, b->pid, who, sizeof(who));
		held_phrase(b, held, sizeof(held));
		snprintf(c->subtitle, sizeof(c->subtitle), "wakeup latency %s: %s on CPU %d, "
			 "%s \xc2\xb7 ", rd_fmt_dur_chart((double)(b->end_ns -
			 b->start_ns), d1, sizeof(d1)), who, b->cpu, held);
	}
	k = strlen(c->subtitle);
	if (t->switches_only) {
		snprintf(c->subtitle + k, sizeof(c->subtitle) - k, "%zu slice%s, %zu task%s, "
			 "%d CPU%s%s \xc2\xb7 window %s", t->nslices, PLURAL(t->nslices),
			 l->ntasks_all, PLURAL(l->ntasks_all), n->ncpus, PLURAL(n->ncpus), empty,
			 rd_fmt_dur_chart((double)(l->v1 - l->v0), d1, sizeof(d1)));
		return;
	}
	snprintf(c->subtitle + k, sizeof(c->subtitle) - k, "%zu slice%s%s, %zu task%s, %d CPU%s%s, "
		 "%zu irq%s, %zu marker%s, %zu migration%s \xc2\xb7 window %s", t->nslices,
		 PLURAL(t->nslices), merged, l->ntasks_all, PLURAL(l->ntasks_all), n->ncpus,
		 PLURAL(n->ncpus), empty, n->nirq, PLURAL(n->nirq), n->nmark, PLURAL(n->nmark), l->nmigr,
		 PLURAL(l->nmigr), rd_fmt_dur_chart((double)(l->v1 - l->v0), d1, sizeof(d1)));
}

static void mark_cpu(uint8_t *used, int ncpus, int cpu)
{
	if (cpu >= 0 && cpu < ncpus)
		used[cpu] = 1;
}

/*
 * The CPUs with nothing to draw in the view: no slice (a task's or idle), merged span, irq,
 * marker, lost events, stall of their own, migration end, waker arrow or
 * wait.  Each run of consecutive ones is drawn as one thin row (docs/render.md).
 */
static int tl_empty_lanes(struct rd_tl_layout *l, const struct lat_timeline *t)
{
	uint8_t *used = calloc((size_t)l->ncpus, 1);

	if (!used)
		return -LAT_ENOMEM;
	for (size_t i = 0; i < t->nslices; i++)
		if (t->slices[i].end_ns > l->v0 && t->slices[i].start_ns < l->v1)
			mark_cpu(used, l->ncpus, t->slices[i].cpu);
	for (size_t i = 0; i < t->nsums; i++)
		if (tl_sum_in_view(&t->sums[i], l->v0, l->v1))
			mark_cpu(used, l->ncpus, t->sums[i].cpu);
	for (size_t i = 0; i < t->nmarks; i++) {
		const struct lat_tl_mark *mk = &t->marks[i];

		if (mk->end_ns < l->v0 || mk->start_ns >= l->v1)
			continue;
		mark_cpu(used, l->ncpus, mk->cpu);
		if (mk->kind == LAT_TL_MIGRATE)
			mark_cpu(used, l->ncpus, mk->other_cpu);
	}
	for (size_t i = 0; i < t->nedges; i++) {
		if (t->edges[i].ts_ns < l->v0 || t->edges[i].ts_ns >= l->v1)
			continue;
		mark_cpu(used, l->ncpus, t->edges[i].from_cpu);
		mark_cpu(used, l->ncpus, t->edges[i].to_cpu);
	}
	for (size_t i = 0; i < t->nbrackets; i++) {
		if (t->brackets[i].end_ns < l->v0 || t->brackets[i].start_ns >= l->v1)
			continue;
		mark_cpu(used, l->ncpus, t->brackets[i].cpu);
		if (t->brackets[i].queued_until_ns)
			mark_cpu(used, l->ncpus, t->brackets[i].queued_cpu);
	}
	l->nempty = l->nempty_rows = 0;
	for (int cpu = 0; cpu < l->ncpus; cpu++) {
		used[cpu] = !used[cpu];
		l->nempty += used[cpu];
		l->nempty_rows += used[cpu] && (!cpu || !used[cpu - 1]);
	}
	if (!l->nempty || l->nempty == l->ncpus) {
		/* all drawn, or nothing at all: every lane as it is */
		free(used);
		l->nempty = l->nempty_rows = 0;
		return 0;
	}
	l->lane_empty = used;
	return 0;
}

/* The tops of the lanes and of the collapsed rows, top down in CPU order. */
static int tl_lane_tops(struct rd_tl_layout *l)
{
	double y = l->lane_y0;

	l->lane_top = malloc((size_t)l->ncpus * sizeof(*l->lane_top));
	if (!l->lane_top)
		return -LAT_ENOMEM;
	for (int cpu = 0; cpu < l->ncpus; cpu++) {
		if (!lane_empty(l, cpu)) {
			l->lane_top[cpu] = y;
			y += l->lane_h + l->lane_gap;
		} else if (cpu && lane_empty(l, cpu - 1)) {
			l->lane_top[cpu] = l->lane_top[cpu - 1];
		} else {
			l->lane_top[cpu] = y;
			y += l->thin_h + l->lane_gap;
		}
	}
	return 0;
}

/* The x axis over the window, then one lane per CPU in the plot. */
static int tl_lanes(struct rd_chart *c, cairo_t *m, struct rd_tl_layout *l, int ncpus,
		    const struct lat_render_opts *o, char *msg, size_t msglen)
{
	char ts[40];
	double avail;
	int nrows;

	c->has_y = 0;
	rd_font(m, RD_LABEL_PT, 0);
	c->lane_label_w = rd_text_width(m, "CPU 0000");
	c->x = (struct rd_axis){ .lo = 0, .hi = (double)(l->v1 - l->v0), .unit = LAT_UNIT_NS };
	snprintf(c->x.title, sizeof(c->x.title), "time since the window start (%s s)",
		 lat_fmt_trace_ts(l->v0, ts, sizeof(ts)));
	rd_frame_layout(c, m);
	nrows = ncpus - l->nempty + l->nempty_rows;
	avail = c->plot.h - BAND_H - 4;
	l->lane_gap = nrows > 32 ? 1 : LANE_GAP;
	l->lane_y0 = c->plot.y + BAND_H;
	l->bracket_y = c->plot.y + BAND_H - 12;
	l->thin_h = THIN_H;
	l->lane_h = (avail - (nrows - 1) * l->lane_gap - l->nempty_rows * l->thin_h) /
		    (ncpus - l->nempty);
	if (l->nempty && l->lane_h < l->thin_h)	/* as thin as the lanes */
		l->lane_h = l->thin_h = (avail - (nrows - 1) * l->lane_gap) / nrows;
	if (l->lane_h < 1) {
		snprintf(msg, msglen, "%d CPU%s do not fit in %d pixels: use --size", ncpus, PLURAL(ncpus),
			 o->height);
		return -LAT_EUSAGE;
	}
	return l->nempty ? tl_lane_tops(l) : 0;
}

static int tl_layout(struct rd_chart *c, cairo_t *m, const void *data,
		     const struct lat_render_opts *o, char *msg, size_t msglen)
{
	const struct lat_timeline *t = data;
	struct tl_priv *p = calloc(1, sizeof(*p));
	struct rd_tl_layout *l = &p->pub;
	struct tl_counts n = { .ncpus = t->ncpus };
	int ret;

	if (!p)
		goto nomem;
	c->priv = p;
	ret = tl_window(l, t, o, msg, msglen);
	if (ret)
		return ret;
	if (sort_slices(p, t) || tl_sum_sort(t, &p->sums, &p->sums_sorted) || tl_scan(p, t, &n))
		goto nomem;
	if (n.ncpus <= 0) {
		snprintf(msg, msglen, "the timeline has no CPU");
		return -LAT_EEMPTY;
	}
	l->ncpus = n.ncpus;
	l->focus_pid = focus_pid(t, o->task);
	l->own_pid = t->nbrackets ? t->brackets[0].pid : l->focus_pid;
	n.nown = collect_migr(p, t);
	if (n.nown < 0 || tl_task_order(p, t) || tl_empty_lanes(l, t))
		goto nomem;
	tl_legend(c, p, t, &n);
	rd_chart_title(c, o, "timeline", t->title);
	c->title_keep1 = c->title_keep0 + t->title_keep;
	tl_subtitle(c, l, t, &n);
	return tl_lanes(c, m, l, n.ncpus, o, msg, msglen);
nomem:
	snprintf(msg, msglen, "out of memory");
	return -LAT_ENOMEM;
}

/* --- drawing ------------------------------------------------------------------ */

struct rect {
	float x0, x1;
	int16_t colour;		/* palette index, or RD_PALETTE_N + muted bucket */
	uint8_t alpha;		/* 0 .. NALPHA-1 */
};

struct lane_rects {
	struct rect *r;
	size_t n, cap;
};

static int push_rect(struct lane_rects *lr, double x0, double x1, int colour, int alpha)
{
	if (lr->n && lr->r[lr->n - 1].colour == colour && lr->r[lr->n - 1].alpha == alpha &&
	    x0 <= lr->r[lr->n - 1].x1 + 0.01) {
		if (x1 > lr->r[lr->n - 1].x1)
			lr->r[lr->n - 1].x1 = (float)x1;
		return 0;
	}
	if (lat_grow(&lr->r, &lr->cap, lr->n + 1, sizeof(*lr->r)))
		return -LAT_ENOMEM;
	lr->r[lr->n++] = (struct rect){ (float)x0, (float)x1, (int16_t)colour, (uint8_t)alpha };
	return 0;
}

static int cmp_rect(const void *a, const void *b)
{
	const struct rect *x = a, *y = b;

	if (x->colour != y->colour)
		return x->colour - y->colour;
	if (x->alpha != y->alpha)
		return x->alpha - y->alpha;
	return x->x0 < y->x0 ? -1 : x->x0 > y->x0;
}

#define NMUTED 16

static int colour_of(const struct tl_priv *p, int32_t pid)
{
	const struct task_acc *ta = task_find(&p->tasks, pid);

	if (ta && ta->idx >= 0)
		return ta->idx;
	return tl_muted_colour(pid);
}

/* A folded pixel column being filled. */
struct column {
	long col;		/* -1: none */
	double busy_px;
	int32_t best_pid;
	double best_px;
	int32_t cur_pid;
	double cur_px;
};

static int flush_column(const struct tl_priv *p, struct column *cl, double x0,
			struct lane_rects *lr)
{
	int alpha;

	if (cl->col < 0)
		return 0;
	if (cl->cur_px > cl->best_px)
		cl->best_pid = cl->cur_pid;
	alpha = (int)(fmin(cl->busy_px, 1.0) * (NALPHA - 1) + 0.5);
	cl->col = -1;
	return push_rect(lr, x0, x0 + 1, colour_of(p, cl->best_pid), alpha);
}

static int lane_rects(const struct rd_chart *c, const struct lat_timeline *t,
		      const struct tl_priv *p, size_t *si, int cpu, struct lane_rects *lr)
{
	const struct rd_tl_layout *l = &p->pub;
	double scale = c->plot.w / (double)(l->v1 - l->v0);
	struct column cl = { .col = -1 };
	double colx = 0;

	for (; *si < t->nslices && p->sl[*si].cpu == cpu; (*si)++) {
		const struct lat_tl_slice *s = &p->sl[*si];
		double x0, x1;

		if (s->pid == 0 || s->end_ns <= s->start_ns || s->end_ns <= l->v0 ||
		    s->start_ns >= l->v1)
			continue;
		x0 = ((double)((s->start_ns > l->v0 ? s->start_ns : l->v0) - l->v0)) * scale;
		x1 = ((double)((s->end_ns < l->v1 ? s->end_ns : l->v1) - l->v0)) * scale;
		if (x1 - x0 >= 1) {
			if (cl.col >= 0 && (long)floor(x0) >= cl.col && flush_column(p, &cl, colx, lr))
				return -LAT_ENOMEM;
			if (push_rect(lr, x0, x1, colour_of(p, s->pid), NALPHA - 1))
				return -LAT_ENOMEM;
			continue;
		}
		if (cl.col >= 0 && (long)floor(x0) != cl.col && flush_column(p, &cl, colx, lr))
			return -LAT_ENOMEM;
		if (cl.col < 0) {
			cl = (struct column){ .col = (long)floor(x0), .best_pid = s->pid,
					      .cur_pid = s->pid };
			colx = floor(x0);
		}
		cl.busy_px += x1 - x0;
		if (s->pid != cl.cur_pid) {
			if (cl.cur_px > cl.best_px) {
				cl.best_px = cl.cur_px;
				cl.best_pid = cl.cur_pid;
			}
			cl.cur_pid = s->pid;
			cl.cur_px = 0;
		}
		cl.cur_px += x1 - x0;
	}
	if (flush_column(p, &cl, colx, lr))
		return -LAT_ENOMEM;
	return 0;
}

/*
 * With --task, every task but it, the task the case is about, the one that
 * held its CPU most and its wakers is dimmed.
 */
static int dimmed(const struct rd_tl_layout *l, const struct lat_timeline *t, int32_t pid)
{
	if (l->focus_pid < 0 || pid == l->focus_pid)
		return 0;
	if (t->nbrackets && (pid == t->brackets[0].pid || pid == t->brackets[0].held_by_pid))
		return 0;
	for (size_t i = 0; i < t->nedges; i++)
		if (!t->edges[i].from_irq && pid == t->edges[i].from_pid)
			return 0;
	return 1;
}

/* The thin row of the run of CPUs with nothing to draw that starts at @cpu. */
static void draw_empty_row(cairo_t *cr, const struct rd_chart *c, const struct rd_tl_layout *l,
			   int cpu)
{
	double top = rd_tl_lane_top(l, cpu), h = l->thin_h;
	int last = cpu;
	char buf[64];

	while (last + 1 < l->ncpus && lane_empty(l, last + 1))
		last++;
	cairo_set_source_rgb(cr, 0.985, 0.985, 0.985);
	cairo_rectangle(cr, c->plot.x, top, c->plot.w, h);
	cairo_fill(cr);
	if (h < 9)
		return;
	if (last > cpu)
		snprintf(buf, sizeof(buf), "CPUs %d\xe2\x80\x93%d: no events", cpu, last);
	else
		snprintf(buf, sizeof(buf), "CPU %d: no events", cpu);
	cairo_set_source_rgb(cr, 0.45, 0.45, 0.45);
	rd_font(cr, fmin(RD_TICK_PT - 1, h - 3), 0);
	rd_text(cr, c->plot.x + 6, top + h / 2 + fmin(RD_TICK_PT - 1, h - 3) * 0.35, 0, buf);
}

static void draw_lanes(cairo_t *cr, const struct rd_chart *c, const struct lat_timeline *t,
		       struct tl_priv *p)
{
	struct rd_tl_layout *l = &p->pub;
	struct lane_rects lr = { 0 };
	size_t si = 0, sk = 0;

	l->drawn_rects = l->drawn_sum_labels = 0;
	for (int cpu = 0; cpu < l->ncpus; cpu++) {
		double top = rd_tl_lane_top(l, cpu), h = l->lane_h;
		char buf[32];

		if (lane_empty(l, cpu)) {
			if (!cpu || !lane_empty(l, cpu - 1))
				draw_empty_row(cr, c, l, cpu);
			continue;
		}
		/* the lane's background and label */
		cairo_set_source_rgb(cr, 0.965, 0.965, 0.965);
		cairo_rectangle(cr, c->plot.x, top, c->plot.w, h);
		cairo_fill(cr);
		cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
		rd_font(cr, h >= RD_LABEL_PT ? RD_LABEL_PT : fmax(h, 5), 0);
		snprintf(buf, sizeof(buf), "CPU %d", cpu);
		rd_text(cr, c->plot.x - 8, top + h / 2 + fmin(h, RD_LABEL_PT) * 0.35, 2, buf);
		/* the merged spans before the lane's first slice */
		cairo_save(cr);
		cairo_rectangle(cr, c->plot.x, c->plot.y, c->plot.w, c->plot.h);
		cairo_clip(cr);
		tl_sum_draw_lane(cr, c, l, p->sums, t->nsums, &sk, cpu, top);
		cairo_restore(cr);

		/* slices are sorted by cpu, then start: skip lanes' foreign slices */
		while (si < t->nslices && p->sl[si].cpu < cpu)
			si++;
		lr.n = 0;
		if (lane_rects(c, t, p, &si, cpu, &lr))
			break;
		if (lr.n)
			lat_sort(lr.r, lr.n, sizeof(*lr.r), cmp_rect);
		/* a folded column at the right end may reach a pixel past the plot */
		cairo_save(cr);
		cairo_rectangle(cr, c->plot.x, c->plot.y, c->plot.w, c->plot.h);
		cairo_clip(cr);
		for (size_t i = 0; i < lr.n; i++) {
			const struct rect *r = &lr.r[i];
			double a = 0.25 + 0.75 * r->alpha / (NALPHA - 1);
			int32_t pid = r->colour < RD_PALETTE_N ? l->task_pid[r->colour] : -1;

			cairo_rectangle(cr, c->plot.x + r->x0, top + 1, r->x1 - r->x0, h - 2);
			if (i + 1 == lr.n || lr.r[i + 1].colour != r->colour ||
			    lr.r[i + 1].alpha != r->alpha) {
				struct rd_rgb rgb = tl_colour_rgb(l, r->colour);

				if (!dimmed(l, t, pid)) {
					rd_set_rgb(cr, rgb, a);
					cairo_fill(cr);
					continue;
				}
				/*
				 * dimmed (--task): a pale fill and hatching in the task's
				 * own colour, so that it still matches its legend entry
				 * and no pale colour of another task is mistaken for it
				 */
				rd_set_rgb(cr, rgb, 0.18);
				cairo_fill_preserve(cr);
				tl_hatch_fill(cr, rgb, 0.9, 0);
			}
		}
		cairo_restore(cr);
		l->drawn_rects += lr.n;
	}
	free(lr.r);
}

/* "73.2 µs probe=timer cpu=1 ...": the value first, so that eliding keeps it */
static void marker_text(const struct lat_tl_mark *mk, char *buf, size_t len)
{
	char lab[64], d1[32];
	const char *p;

	rd_utf8_clean(mk->label, strnlen(mk->label, sizeof(mk->label)), lab, sizeof(lab));
	/* latscope's own markers: the "latscope: " prefix says nothing on the chart */
	p = strncmp(lab, "latscope: ", 10) ? lab : lab + 10;
	if (mk->value_ns >= 0)
		snprintf(buf, len, "%s%s%s", rd_fmt_dur_chart((double)mk->value_ns, d1,
							      sizeof(d1)), *p ? " " : "", p);
	else
		snprintf(buf, len, "%s", p);
}

#define MARKER_SLOT_PX 150.0	/* one label per lane and slot: the largest value in it */

/* draw_markers()' scratch: per lane the best marker of each slot, the pending tick column. */
struct mk_scratch {
	size_t nslot;
	const struct lat_tl_mark **best;	/* [cpu * nslot + slot] */
	long *lastcol;				/* per lane: the column of the pending tick */
	int64_t *colmax;			/* per lane: the largest value in that column */
	int64_t vmax;				/* the largest value in the view */
};

/* The largest value of the markers in the view, 0 when none has one. */
static int64_t markers_vmax(const struct lat_timeline *t, const struct rd_tl_layout *l)
{
	int64_t vmax = 0;

	for (size_t i = 0; i < t->nmarks; i++)
		if (t->marks[i].kind == LAT_TL_MARKER && t->marks[i].value_ns > vmax &&
		    t->marks[i].start_ns >= l->v0 && t->marks[i].start_ns < l->v1)
			vmax = t->marks[i].value_ns;
	return vmax;
}

/* One tick per pixel column and lane, as tall as the column's largest value. */
static void marker_ticks(cairo_t *cr, const struct rd_chart *c, const struct lat_timeline *t,
			 struct rd_tl_layout *l, double scale, struct mk_scratch *m)
{
	for (int cpu = 0; cpu < l->ncpus; cpu++)
		m->lastcol[cpu] = -1;
	cairo_set_line_width(cr, 1);
	for (size_t i = 0; i <= t->nmarks; i++) {
		const struct lat_tl_mark *mk = i < t->nmarks ? &t->marks[i] : NULL;
		double x = 0;
		long col = -1;
		size_t slot;
		const struct lat_tl_mark **b;

		if (mk && (mk->kind != LAT_TL_MARKER || mk->cpu < 0 || mk->cpu >= l->ncpus ||
			   mk->start_ns < l->v0 || mk->start_ns >= l->v1))
			continue;
		if (mk) {
			l->nmarkers++;
			x = round(c->plot.x + (double)(mk->start_ns - l->v0) * scale) + 0.5;
			col = (long)floor(x);
			slot = (size_t)((x - c->plot.x) / MARKER_SLOT_PX);
			b = &m->best[(size_t)mk->cpu * m->nslot +
				     (slot < m->nslot ? slot : m->nslot - 1)];
			if (!*b || mk->value_ns > (*b)->value_ns)
				*b = mk;
		}
		for (int cpu = 0; cpu < l->ncpus; cpu++) {
			double top = rd_tl_lane_top(l, cpu), len;

			if (mk && (cpu != mk->cpu || col == m->lastcol[cpu])) {
				if (mk && cpu == mk->cpu && mk->value_ns > m->colmax[cpu])
					m->colmax[cpu] = mk->value_ns;
				continue;
			}
			if (m->lastcol[cpu] >= 0) {
				len = l->lane_h * 0.35;
				if (m->vmax > 0 && m->colmax[cpu] >= 0)
					len = 3 + (len - 3) * (double)m->colmax[cpu] /
					      (double)m->vmax;
				cairo_move_to(cr, (double)m->lastcol[cpu] + 0.5, top);
				cairo_line_to(cr, (double)m->lastcol[cpu] + 0.5, top + len);
				l->drawn_marker_ticks++;
			}
			m->lastcol[cpu] = mk ? col : -1;
			m->colmax[cpu] = mk ? mk->value_ns : -1;
		}
	}
	cairo_set_source_rgba(cr, 0.2, 0.2, 0.2, 0.75);
	cairo_stroke(cr);
}

/* Per lane and slot the best marker labelled, value first, with a filled head; no overlap. */
static void marker_labels(cairo_t *cr, const struct rd_chart *c, struct rd_tl_layout *l,
			  double scale, const struct mk_scratch *m)
{
	rd_font(cr, RD_TICK_PT - 1, 0);
	for (int cpu = 0; cpu < l->ncpus && l->lane_h >= 14; cpu++) {
		double lastx = -1e9, top = rd_tl_lane_top(l, cpu);

		for (size_t s = 0; s < m->nslot; s++) {
			const struct lat_tl_mark *mk = m->best[(size_t)cpu * m->nslot + s];
			char buf[96], fit[96];
			double x, w;

			if (!mk)
				continue;
			x = round(c->plot.x + (double)(mk->start_ns - l->v0) * scale) + 0.5;
			marker_text(mk, buf, sizeof(buf));
			rd_text_fit(cr, buf, MARKER_SLOT_PX - 12, fit, sizeof(fit));
			w = rd_text_width(cr, fit);
			if (x + 3 + w > c->plot.x + c->plot.w)
				x = c->plot.x + c->plot.w - 3 - w;
			if (x < lastx)
				continue;
			/* a filled head on the labelled one */
			cairo_set_source_rgb(cr, 0.05, 0.05, 0.05);
			cairo_move_to(cr, x - 3.5, top - 4);
			cairo_line_to(cr, x + 3.5, top - 4);
			cairo_line_to(cr, x, top + 1);
			cairo_close_path(cr);
			cairo_fill(cr);
			cairo_set_source_rgba(cr, 1, 1, 1, 0.8);
			cairo_rectangle(cr, x + 2, top + 2, w + 2, RD_TICK_PT + 1);
			cairo_fill(cr);
			cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
			rd_text(cr, x + 3, top + RD_TICK_PT, 0, fit);
			lastx = x + 3 + w + 6;
			l->drawn_marker_labels++;
		}
	}
}

/*
 * Markers (probe samples, trace_marker lines), every one in the view: a thin
 * tick per pixel column and lane from the lane top, as long as the largest
 * value in the column (a third of the lane for the largest in the view, or
 * for markers without a value), and per slot of MARKER_SLOT_PX the marker with
 * the largest value (else the first) labelled, value first.  Many markers make
 * a profile of their values, not a black band; the labels never overlap.
 */
static void draw_markers(cairo_t *cr, const struct rd_chart *c, const struct lat_timeline *t,
			 struct rd_tl_layout *l, double scale)
{
	struct mk_scratch m = { .nslot = (size_t)(c->plot.w / MARKER_SLOT_PX) + 1 };

	l->nmarkers = l->drawn_marker_ticks = l->drawn_marker_labels = 0;
	m.best = calloc(m.nslot * (size_t)l->ncpus, sizeof(*m.best));
	m.lastcol = malloc((size_t)l->ncpus * sizeof(*m.lastcol));
	m.colmax = malloc((size_t)l->ncpus * sizeof(*m.colmax));
	if (!m.best || !m.lastcol || !m.colmax)
		goto out;
	m.vmax = markers_vmax(t, l);
	marker_ticks(cr, c, t, l, scale, &m);
	marker_labels(cr, c, l, scale, &m);
out:
	free(m.best);
	free(m.lastcol);
	free(m.colmax);
}

/* Lost events: a red bar across the lane, "events lost" where there is room. */
static void draw_lost(cairo_t *cr, const struct rd_chart *c, const struct lat_timeline *t,
		      const struct rd_tl_layout *l, double scale)
{
	double lastx = -1e9;

	rd_font(cr, RD_TICK_PT - 1, 0);
	for (size_t i = 0; i < t->nmarks; i++) {
		const struct lat_tl_mark *mk = &t->marks[i];
		double x, top;

		if (mk->kind != LAT_TL_LOST || mk->cpu < 0 || mk->cpu >= l->ncpus ||
		    mk->start_ns < l->v0 || mk->start_ns >= l->v1)
			continue;
		x = round(c->plot.x + (double)(mk->start_ns - l->v0) * scale) + 0.5;
		top = rd_tl_lane_top(l, mk->cpu);
		rd_set_rgb(cr, rd_alert_rgb, 1);
		cairo_set_line_width(cr, 2);
		cairo_move_to(cr, x, top);
		cairo_line_to(cr, x, top + l->lane_h);
		cairo_stroke(cr);
		cairo_set_line_width(cr, 1);
		if (x > lastx && l->lane_h >= 14) {
			cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
			rd_text(cr, x + 3, top + l->lane_h - 4, 0, "events lost");
			lastx = x + 6 + rd_text_width(cr, "events lost");
		}
	}
}

/*
 * Stalls (LAT_TL_STALL): no event on that CPU (cpu -1: on any) while a switch
 * was owed.  A pale red band over the lanes it silenced, "no events: stall?"
 * with its length.  Gaps (LAT_TL_GAP, rows the input left out) alike in grey,
 * "rows left out", never mistaken for idle (blank).
 */
static void draw_stalls(cairo_t *cr, const struct rd_chart *c, const struct lat_timeline *t,
			struct rd_tl_layout *l, double scale)
{
	l->drawn_stalls = 0;
	rd_font(cr, RD_TICK_PT - 1, 1);
	for (size_t i = 0; i < t->nmarks; i++) {
		const struct lat_tl_mark *mk = &t->marks[i];
		uint64_t s0 = mk->start_ns > l->v0 ? mk->start_ns : l->v0;
		uint64_t s1 = mk->end_ns < l->v1 ? mk->end_ns : l->v1;
		double x0, x1;
		char buf[64], d1[32];
		int gap = mk->kind == LAT_TL_GAP;
		struct rd_rgb rgb = gap ? tl_gap_rgb : rd_alert_rgb;

		if ((mk->kind != LAT_TL_STALL && !gap) || s1 <= s0 || mk->cpu >= l->ncpus)
			continue;
		x0 = c->plot.x + (double)(s0 - l->v0) * scale;
		x1 = fmax(c->plot.x + (double)(s1 - l->v0) * scale, x0 + 2);
		for (int cpu = 0; cpu < l->ncpus; cpu++) {
			double top = rd_tl_lane_top(l, cpu);

			if ((mk->cpu >= 0 && cpu != mk->cpu) || lane_empty(l, cpu))
				continue;
			rd_set_rgb(cr, rgb, gap ? 0.3 : 0.16);
			cairo_rectangle(cr, x0, top, x1 - x0, l->lane_h);
			cairo_fill(cr);
			rd_set_rgb(cr, rgb, 0.9);
			cairo_rectangle(cr, x0, top + l->lane_h - 3, x1 - x0, 3);
			cairo_fill(cr);
		}
		l->drawn_stalls += !gap;
		snprintf(buf, sizeof(buf), "%s %s", gap ? "not known:" : "no events: stall?",
			 rd_fmt_dur_chart((double)(mk->end_ns - mk->start_ns), d1, sizeof(d1)));
		if (x1 - x0 > rd_text_width(cr, buf) + 6 && l->lane_h >= 14) {
			int cpu = mk->cpu >= 0 ? mk->cpu : l->ncpus - 1;

			while (cpu > 0 && lane_empty(l, cpu))
				cpu--;
			double ty = rd_tl_lane_top(l, cpu) + l->lane_h - 7;

			cairo_set_source_rgba(cr, 1, 1, 1, 0.85);
			cairo_rectangle(cr, x0 + 2, ty - RD_TICK_PT + 1, rd_text_width(cr, buf) + 3,
					RD_TICK_PT + 2);
			cairo_fill(cr);
			rd_set_rgb(cr, rgb, 1);
			rd_text(cr, x0 + 3, ty, 0, buf);
		}
	}
}

static void draw_marks(cairo_t *cr, const struct rd_chart *c, const struct lat_timeline *t,
		       struct rd_tl_layout *l)
{
	double scale = c->plot.w / (double)(l->v1 - l->v0);

	draw_stalls(cr, c, t, l, scale);
	/* irqs and softirqs: strips in the lane's lower part, merged per pixel */
	for (int kind = LAT_TL_IRQ; kind <= LAT_TL_SOFTIRQ; kind++) {
		for (int cpu = 0; cpu < l->ncpus; cpu++) {
			double top = rd_tl_lane_top(l, cpu), sh = fmax(2, fmin(5, l->lane_h / 5));
			double y = top + l->lane_h - sh * (kind == LAT_TL_IRQ ? 1 : 2) - 1;
			double rx0 = -1, rx1 = -1;

			for (size_t i = 0; i < t->nmarks; i++) {
				const struct lat_tl_mark *mk = &t->marks[i];
				double x0, x1;

				if ((int)mk->kind != kind || mk->cpu != cpu || mk->end_ns < l->v0 ||
				    mk->start_ns >= l->v1)
					continue;
				x0 = c->plot.x + (double)((mk->start_ns > l->v0 ? mk->start_ns :
							  l->v0) - l->v0) * scale;
				x1 = c->plot.x + (double)((mk->end_ns < l->v1 ? mk->end_ns : l->v1) -
							  l->v0) * scale;
				x1 = fmax(x1, x0 + 1);
				if (rx1 >= 0 && x0 <= rx1 + 0.5) {
					rx1 = fmax(rx1, x1);
					continue;
				}
				if (rx1 >= 0)
					cairo_rectangle(cr, rx0, y, rx1 - rx0, sh);
				rx0 = x0;
				rx1 = x1;
			}
			if (rx1 >= 0)
				cairo_rectangle(cr, rx0, y, rx1 - rx0, sh);
			if (kind == LAT_TL_IRQ)
				cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
			else
				cairo_set_source_rgb(cr, 0.85, 0.55, 0.05);
			cairo_fill(cr);
		}
	}
	draw_markers(cr, c, t, l, scale);
	draw_lost(cr, c, t, l, scale);
}

static double lane_mid(const struct rd_tl_layout *l, int cpu)
{
	return rd_tl_lane_top(l, cpu) + l->lane_h / 2;
}

static void arrow_head(cairo_t *cr, double x, double y, double dx, double dy)
{
	double n = hypot(dx, dy), ux = n > 0 ? dx / n : 0, uy = n > 0 ? dy / n : 1;

	cairo_move_to(cr, x, y);
	cairo_line_to(cr, x - 9 * ux + 4.5 * uy, y - 9 * uy - 4.5 * ux);
	cairo_line_to(cr, x - 9 * ux - 4.5 * uy, y - 9 * uy + 4.5 * ux);
	cairo_close_path(cr);
	cairo_fill(cr);
}

struct label_box {
	double x, y, w, h;
};

static int label_hits(const struct label_box *b, size_t n, const struct label_box *q)
{
	for (size_t i = 0; i < n; i++)
		if (q->x < b[i].x + b[i].w && b[i].x < q->x + q->w && q->y < b[i].y + b[i].h &&
		    b[i].y < q->y + q->h)
			return 1;
	return 0;
}

/* The labels of the waker chain and the migrations, kept apart. */
struct placed_labels {
	struct label_box box[256];
	size_t n;
};

/* Puts @q at the first of @tries places stepping down that hits no placed label; 0 if none. */
static int place_label(struct placed_labels *pl, struct label_box *q, int tries)
{
	int k;

	for (k = 0; k < tries && label_hits(pl->box, pl->n, q); k++)
		q->y += q->h + 1;
	/* a label that could not be recorded could be covered: not drawn */
	if (k == tries || pl->n == LAT_ARRAY_SIZE(pl->box))
		return 0;
	pl->box[pl->n++] = *q;
	return 1;
}

static void draw_edges(cairo_t *cr, const struct rd_chart *c, const struct lat_timeline *t,
		       const struct rd_tl_layout *l, struct placed_labels *pl)
{
	double scale = c->plot.w / (double)(l->v1 - l->v0);

	rd_font(cr, RD_TICK_PT - 1, 1);
	for (size_t i = 0; i < t->nedges; i++) {
		const struct lat_tl_edge *e = &t->edges[i];
		double x, y0, y1;
		char buf[120];

		if (e->ts_ns < l->v0 || e->ts_ns >= l->v1 || e->from_cpu < 0 || e->to_cpu < 0 ||
		    e->from_cpu >= l->ncpus || e->to_cpu >= l->ncpus)
			continue;
		x = c->plot.x + (double)(e->ts_ns - l->v0) * scale;
		y0 = lane_mid(l, e->from_cpu);
		y1 = lane_mid(l, e->to_cpu);
		cairo_set_source_rgb(cr, 0.05, 0.05, 0.05);
		cairo_set_line_width(cr, 1.6);
		if (e->from_cpu == e->to_cpu) {
			/* same CPU: a hook from the lane's middle up to its top edge */
			double top = rd_tl_lane_top(l, e->to_cpu) + 2;

			cairo_move_to(cr, x - 14, y0);
			cairo_curve_to(cr, x - 14, top, x - 4, top, x, top + 2);
			cairo_stroke(cr);
			arrow_head(cr, x, top + 4, 4, 3);
		} else {
			cairo_move_to(cr, x, y0);
			cairo_line_to(cr, x, y1 + (y1 > y0 ? -8 : 8));
			cairo_stroke(cr);
			arrow_head(cr, x, y1, 0, y1 - y0);
		}
		cairo_arc(cr, x, y0, 3, 0, 2 * M_PI);
		cairo_fill(cr);
		cairo_set_line_width(cr, 1);
		rd_tl_edge_label(e, buf, sizeof(buf));
		{
			/* the waker's name beside the arrow's tail; step down past other labels */
			struct label_box q = { x + 5, y0 - RD_TICK_PT - 2,
					       rd_text_width(cr, buf) + 4, RD_TICK_PT + 3 };

			if (!place_label(pl, &q, 6))
				continue;
			cairo_set_source_rgba(cr, 1, 1, 1, 0.85);
			cairo_rectangle(cr, q.x, q.y, q.w, q.h);
			cairo_fill(cr);
			cairo_set_source_rgb(cr, 0.05, 0.05, 0.05);
			rd_text(cr, q.x + 2, q.y + RD_TICK_PT - 1, 0, buf);
		}
	}
}

/*
 * Migrations: a line from a ring on the origin CPU's lane to an arrow head on
 * the destination's, at the migration instant.  Other tasks' arrows are thin
 * and pale, one per pixel column and CPU pair, labelled with the task where a
 * label fits; the case's own task's are bold, drawn last, each one, labelled
 * with the move.
 */
#define MIGR_BIN_PX 24.0	/* other tasks' moves between two CPUs this close (px): one arrow */

static void draw_migrations(cairo_t *cr, const struct rd_chart *c, struct tl_priv *p,
			    struct placed_labels *pl)
{
	struct rd_tl_layout *l = &p->pub;
	double scale = c->plot.w / (double)(l->v1 - l->v0);

	struct {
		struct label_box q;
		int own;
		char text[120];
	} *labs = l->nmigr ? calloc(l->nmigr, sizeof(*labs)) : NULL;
	size_t nlab = 0;

	l->drawn_migr = l->drawn_own_migr = 0;
	rd_font(cr, RD_TICK_PT - 1, 0);
	for (int own = 0; own < 2; own++) {
		for (size_t i = 0, j; i < l->nmigr; i = j) {
			const struct lat_tl_mark *mk = p->migr[i];
			double x, y0, y1, dir;
			char who[80], buf[120];
			struct label_box q;

			j = i + 1;
			if ((l->own_pid > 0 && mk->pid == l->own_pid) != own)
				continue;
			x = round(c->plot.x + (double)(mk->start_ns - l->v0) * scale) + 0.5;
			/*
			 * other tasks': the moves between one pair of CPUs less than
			 * MIGR_BIN_PX after the group's first make one arrow, which says
			 * how many it stands for
			 */
			while (!own && j < l->nmigr && p->migr[j]->cpu == mk->cpu &&
			       p->migr[j]->other_cpu == mk->other_cpu &&
			       !(l->own_pid > 0 && p->migr[j]->pid == l->own_pid) &&
			       (double)(p->migr[j]->start_ns - mk->start_ns) * scale < MIGR_BIN_PX)
				j++;
			y0 = lane_mid(l, mk->cpu);
			y1 = lane_mid(l, mk->other_cpu);
			dir = y1 > y0 ? 1 : -1;
			rd_set_rgb(cr, own ? tl_migr_own_rgb : tl_migr_rgb, 1);
			cairo_set_line_width(cr, own ? 2.5 : j - i > 1 ? 2 : 1.2);
			cairo_new_path(cr);	/* text leaves a current point the arc would join */
			cairo_arc(cr, x, y0, 3.5, 0, 2 * M_PI);
			cairo_stroke(cr);
			cairo_move_to(cr, x, y0 + 3.5 * dir);
			cairo_line_to(cr, x, y1 - 8 * dir);
			cairo_stroke(cr);
			arrow_head(cr, x, y1, 0, y1 - y0);
			cairo_set_line_width(cr, 1);
			l->drawn_migr++;
			l->drawn_own_migr += own;
			if (l->lane_h < 14)
				continue;
			task_label(mk->label, mk->pid, who, sizeof(who));
			if (own)
				snprintf(buf, sizeof(buf), "%s CPU %d \xe2\x86\x92 %d", who, mk->cpu,
					 mk->other_cpu);
			else if (j - i > 1)
				snprintf(buf, sizeof(buf), "\xc3\x97%zu", j - i);
			else
				snprintf(buf, sizeof(buf), "%s", who);
			/* beside the head, inside the destination lane */
			q = (struct label_box){ x + 5, y1 - (dir > 0 ? RD_TICK_PT + 3 : -2),
						rd_text_width(cr, buf) + 4, RD_TICK_PT + 3 };
			if (q.x + q.w > c->plot.x + c->plot.w)
				q.x = x - 5 - q.w;
			if (!labs || !place_label(pl, &q, own ? 6 : 1))
				continue;
			labs[nlab].q = q;
			labs[nlab].own = own;
			snprintf(labs[nlab++].text, sizeof(labs[0].text), "%s", buf);
		}
	}
	/* the labels after every arrow, so that no arrow crosses one */
	for (size_t i = 0; i < nlab; i++) {
		const struct label_box *q = &labs[i].q;

		cairo_set_source_rgba(cr, 1, 1, 1, 0.85);
		cairo_rectangle(cr, q->x, q->y, q->w, q->h);
		cairo_fill(cr);
		if (labs[i].own)
			rd_set_rgb(cr, tl_migr_own_rgb, 1);
		else
			cairo_set_source_rgb(cr, 0.35, 0.28, 0.45);
		rd_text(cr, q->x + 2, q->y + RD_TICK_PT - 1, 0, labs[i].text);
	}
	free(labs);
}

/* The x of time @t on the chart, clamped to the view. */
static double view_x(const struct rd_chart *c, const struct rd_tl_layout *l, double scale,
		     uint64_t t)
{
	return c->plot.x + (double)((t > l->v0 ? (t < l->v1 ? t : l->v1) : l->v0) - l->v0) * scale;
}

static void draw_bracket(cairo_t *cr, const struct rd_chart *c, const struct lat_tl_bracket *b,
			 struct rd_tl_layout *l, int main_one)
{
	double scale = c->plot.w / (double)(l->v1 - l->v0);
	double x0, x1, y = l->bracket_y, top, d[] = { 4, 3 };
	char who[80], held[160], buf[320], d1[32], fit[320];

	if (b->end_ns < l->v0 || b->start_ns >= l->v1 || b->cpu < 0 || b->cpu >= l->ncpus)
		return;
	x0 = view_x(c, l, scale, b->start_ns);
	x1 = view_x(c, l, scale, b->end_ns);
	top = rd_tl_lane_top(l, b->cpu);
	rd_set_rgb(cr, rd_alert_rgb, main_one ? 1 : 0.5);
	cairo_set_line_width(cr, main_one ? 2 : 1);
	if (b->queued_until_ns && b->queued_cpu >= 0 && b->queued_cpu < l->ncpus &&
	    b->queued_cpu != b->cpu && b->queued_until_ns > b->start_ns) {
		/*
		 * queued on another CPU: the wait is outlined there until it was
		 * pulled away (from its arrival there), then on the CPU it ran on
		 */
		uint64_t qe = b->queued_until_ns < b->end_ns ? b->queued_until_ns : b->end_ns;
		uint64_t qs = b->queued_from_ns > b->start_ns ? b->queued_from_ns : b->start_ns;
		double xq = view_x(c, l, scale, qe), xs = view_x(c, l, scale, qs);
		double qtop = rd_tl_lane_top(l, b->queued_cpu);

		cairo_rectangle(cr, xs, qtop, fmax(xq - xs, 1), l->lane_h);
		if (x1 > xq)
			cairo_rectangle(cr, xq, top, fmax(x1 - xq, 1), l->lane_h);
		cairo_stroke(cr);
		if (main_one && xq - xs > 60 && l->lane_h >= 14) {
			rd_font(cr, RD_TICK_PT - 1, 1);
			rd_text(cr, xs + 4, qtop + l->lane_h - 4, 0, "queued here");
		}
		l->queued_outlined += main_one;
	} else {
		/* the wait, outlined on the wakee's lane */
		cairo_rectangle(cr, x0, top, fmax(x1 - x0, 1), l->lane_h);
		cairo_stroke(cr);
	}
	if (!main_one)
		return;
	cairo_set_dash(cr, d, 2, 0);
	cairo_set_line_width(cr, 1);
	cairo_move_to(cr, x0, y);
	cairo_line_to(cr, x0, top);
	cairo_move_to(cr, x1, y);
	cairo_line_to(cr, x1, top);
	cairo_stroke(cr);
	cairo_set_dash(cr, NULL, 0, 0);
	cairo_set_line_width(cr, 2.5);
	cairo_move_to(cr, x0, y - 6);
	cairo_line_to(cr, x0, y);
	cairo_line_to(cr, x1, y);
	cairo_line_to(cr, x1, y - 6);
	cairo_stroke(cr);
	cairo_set_line_width(cr, 1);
	task_label(b->comm, b->pid, who, sizeof(who));
	held_phrase(b, held, sizeof(held));
	snprintf(buf, sizeof(buf), "%s waited %s to run on CPU %d \xe2\x80\x94 %s",
		 who, rd_fmt_dur_chart((double)(b->end_ns - b->start_ns), d1, sizeof(d1)),
		 b->cpu, held);
	rd_font(cr, RD_LABEL_PT, 1);
	rd_text_fit(cr, buf, c->plot.w - 8, fit, sizeof(fit));
	{
		double w = rd_text_width(cr, fit), tx = (x0 + x1) / 2 - w / 2;

		tx = fmax(c->plot.x + 4, fmin(tx, c->plot.x + c->plot.w - 4 - w));
		rd_text(cr, tx, y - 10, 0, fit);
	}
}

static void tl_draw(cairo_t *cr, const struct rd_chart *c, const void *data,
		    const struct lat_render_opts *o)
{
	const struct lat_timeline *t = data;
	struct tl_priv *p = c->priv;
	struct rd_tl_layout *l = &p->pub;
	struct placed_labels pl = { .n = 0 };
	size_t nb = t->nbrackets;

	draw_lanes(cr, c, t, p);
	cairo_save(cr);
	cairo_rectangle(cr, c->plot.x, c->plot.y, c->plot.w, c->plot.h);
	cairo_clip(cr);
	draw_marks(cr, c, t, l);
	if (nb > (size_t)o->worst)
		nb = (size_t)o->worst;
	for (size_t i = nb; i > 1; i--)
		draw_bracket(cr, c, &t->brackets[i - 1], l, 0);
	if (nb)
		draw_bracket(cr, c, &t->brackets[0], l, 1);
	draw_edges(cr, c, t, l, &pl);
	draw_migrations(cr, c, p, &pl);
	cairo_restore(cr);
}

const struct rd_chart_ops rd_timeline_ops = {
	.name = "timeline",
	.layout = tl_layout,
	.draw = tl_draw,
	.release = tl_release,
};
