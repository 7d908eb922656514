// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The statistics consumer (wakeup_stats.h): the per-task buckets batched and
 * flushed, and the result's tables of tasks, CPUs and histograms.
 */
#include <stdlib.h>
#include <string.h>

#include "wakeup_stats.h"

void wk_stats_init(struct wk_stats *st, struct lat_wakeup_result *r, struct lat_arena *arena,
		   int *oom, int classing)
{
	st->r = r;
	st->arena = arena;
	st->oom = oom;
	st->classing = (uint8_t)classing;
	st->all.arena = arena;
}

int wk_stats_task_init(struct wk_stats *st, struct wk_stats_task *p, uint32_t idx)
{
	if (lat_grow(&st->parts, &st->parts_cap, (size_t)idx + 1, sizeof(*st->parts)))
		return -LAT_ENOMEM;
	p->wake.arena = st->arena;
	p->preempt.arena = st->arena;
	p->rt.arena = st->arena;
	p->wait_prio = INT32_MAX;
	st->parts[idx] = p;
	st->nparts = (size_t)idx + 1;
	return 0;
}

int wk_stats_cpu_init(struct wk_stats *st, struct wk_stats_cpu *p, int32_t cpu)
{
	if (!st->cpus && !(st->cpus = lat_arena_alloc(st->arena, WK_MAX_CPUS * sizeof(*st->cpus))))
		return -LAT_ENOMEM;
	p->wake.arena = st->arena;
	p->preempt.arena = st->arena;
	st->cpus[cpu] = p;
	if ((size_t)cpu >= st->ncpus)
		st->ncpus = (size_t)cpu + 1;
	return 0;
}

static inline void pend_apply(struct wk_stats *st, const struct wk_pend *p)
{
	struct wk_stats_task *t = st->parts[p->idx];

	if (hll_bump(p->preempt ? &t->preempt : &t->wake, p->row, p->col))
		*st->oom = 1;
}

void wk_stats_flush(struct wk_stats *st)
{
	size_t n = st->npend, nt = st->nparts;

	st->npend = 0;
	if (!n)
		return;
	/* grouping pays while tasks are fewer than the batch; beyond, in order */
	if (nt > 4 * WK_PEND ||
	    lat_grow(&st->pend_count, &st->pend_count_cap, nt + 1, sizeof(*st->pend_count))) {
		for (size_t i = 0; i < n; i++)
			pend_apply(st, &st->pend[i]);
		return;
	}
	memset(st->pend_count, 0, (nt + 1) * sizeof(*st->pend_count));
	for (size_t i = 0; i < n; i++)
		st->pend_count[st->pend[i].idx + 1]++;
	for (size_t k = 1; k <= nt; k++)
		st->pend_count[k] += st->pend_count[k - 1];
	for (size_t i = 0; i < n; i++)
		st->pend_sorted[st->pend_count[st->pend[i].idx]++] = st->pend[i];
	for (size_t i = 0; i < n; i++)
		pend_apply(st, &st->pend_sorted[i]);
}

int wk_stats_rows_begin(struct wk_stats *st, size_t ntasks)
{
	struct lat_wakeup_result *r = st->r;

	if (ntasks && !(r->tasks = calloc(ntasks, sizeof(*r->tasks))))
		return -LAT_ENOMEM;
	if (r->selecting && ntasks && !(st->sel = calloc(ntasks, sizeof(*st->sel))))
		return -LAT_ENOMEM;
	return 0;
}

void wk_stats_task_row(struct wk_stats *st, const struct wk_task_view *v,
		       const struct wk_stats_task *p)
{
	struct lat_wakeup_result *r = st->r;
	struct lat_wake_task *o;

	if (!v->match || (!p->wake.n && !p->preempt.n && !p->untrusted))
		return;
	if (st->classing && !v->sel)
		return;
	if (v->sel)
		r->selected++;
	o = &r->tasks[r->ntasks];
	o->pid = v->pid;
	o->prio = p->wait_prio != INT32_MAX ? p->wait_prio : v->prio;
	memcpy(o->comm, v->comm, LAT_COMM_LEN);
	lat_hll_stat(&p->wake, &o->wake);
	lat_hll_stat(&p->preempt, &o->preempt);
	lat_hll_stat(&p->rt, &o->rt);
	o->max_end_ns = p->max_end;
	o->untrusted = p->untrusted;
	o->low_trust = p->low_trust;
	o->policy = v->policy;
	if (st->sel && v->sel && p->wake.n)
		st->sel[st->nsel++] = (struct wk_stats_sel){ p, r->ntasks };
	r->ntasks++;
}

static int cmp_task(const void *a, const void *b, void *arg)
{
	const struct lat_wake_task *x = a, *y = b;
	int c = 0;

	switch (*(const enum lat_wake_sort *)arg) {
	case LAT_WSORT_AVG:
		c = (y->wake.avg > x->wake.avg) - (y->wake.avg < x->wake.avg);
		break;
	case LAT_WSORT_P99:
		c = (y->wake.p99 > x->wake.p99) - (y->wake.p99 < x->wake.p99);
		break;
	case LAT_WSORT_COUNT:
		c = (y->wake.n > x->wake.n) - (y->wake.n < x->wake.n);
		break;
	case LAT_WSORT_COMM:
		c = strcmp(x->comm, y->comm);
		break;
	case LAT_WSORT_PID:
		break;
	case LAT_WSORT_MAX:
		c = (y->wake.max > x->wake.max) - (y->wake.max < x->wake.max);
		break;
	}
	return c ? c : (x->pid > y->pid) - (x->pid < y->pid);
}

static void hist_fill(struct lat_wake_hist *o, const struct lat_hll *h, int32_t cpu, int32_t pid)
{
	memset(o, 0, sizeof(*o));
	o->cpu = cpu;
	o->pid = pid;
	o->prio = -1;
	lat_hll_stat(h, &o->st);
	wk_hll_coarse(h, o->b);
}

/* Largest max first, then pid: the selected tasks that get a histogram. */
static int cmp_hist_task(const void *a, const void *b, void *arg)
{
	const struct wk_stats_sel *x = a, *y = b;
	const struct lat_wake_task *rows = arg;
	int c = (y->p->wake.max > x->p->wake.max) - (y->p->wake.max < x->p->wake.max);

	return c ? c : (rows[x->row].pid > rows[y->row].pid) - (rows[x->row].pid < rows[y->row].pid);
}

/* result->hists: the CPUs' wakeup waits, then the selected tasks' (when selecting). */
static int build_hists(struct wk_stats *st, const struct lat_wake_task *rows)
{
	struct lat_wakeup_result *r = st->r;
	size_t n = 0, nsel = st->nsel;

	for (size_t i = 0; i < st->ncpus; i++)
		n += st->cpus[i] && st->cpus[i]->wake.n;
	if (nsel)
		qsort_r(st->sel, nsel, sizeof(*st->sel), cmp_hist_task, (void *)rows);
	if (nsel > LAT_WAKE_HIST_TASKS)
		nsel = LAT_WAKE_HIST_TASKS;
	if (n + nsel && !(r->hists = calloc(n + nsel, sizeof(*r->hists))))
		return -LAT_ENOMEM;
	for (size_t i = 0; i < st->ncpus; i++)
		if (st->cpus[i] && st->cpus[i]->wake.n)
			hist_fill(&r->hists[r->nhists++], &st->cpus[i]->wake, (int32_t)i, -1);
	r->nhist_cpus = r->nhists;
	for (size_t i = 0; i < nsel; i++) {
		struct lat_wake_hist *o = &r->hists[r->nhists++];
		const struct lat_wake_task *row = &rows[st->sel[i].row];

		hist_fill(o, &st->sel[i].p->wake, -1, row->pid);
		o->prio = row->prio;
		memcpy(o->comm, row->comm, LAT_COMM_LEN);
	}
	return 0;
}

/* result->cpus: every CPU seen or with an overrun, with its lost events. */
static int build_cpus(struct wk_stats *st, const struct lat_event_source *src)
{
	struct lat_wakeup_result *r = st->r;

	if (st->ncpus && !(r->cpus = calloc(st->ncpus, sizeof(*r->cpus))))
		return -LAT_ENOMEM;
	for (size_t i = 0; i < st->ncpus; i++) {
		const struct wk_stats_cpu *c = st->cpus[i];
		struct lat_wake_cpu *o = &r->cpus[r->ncpus];
		uint64_t ovr = src->cpu_overrun && (int)i < src->ncpus ? src->cpu_overrun[i] : 0;

		if (!c && !ovr)
			continue;
		r->ncpus++;
		o->cpu = (int32_t)i;
		o->overrun = ovr;
		o->lost = c && c->lost > ovr ? c->lost : ovr;
		r->lost_events += o->lost;
		if (c) {
			lat_hll_stat(&c->wake, &o->wake);
			lat_hll_stat(&c->preempt, &o->preempt);
		}
	}
	/* overrun on CPUs that never produced an event */
	for (int i = (int)st->ncpus; src->cpu_overrun && i < src->ncpus; i++)
		r->lost_events += src->cpu_overrun[i];
	return 0;
}

int wk_stats_finish(struct wk_stats *st, const struct lat_event_source *src, const char *sort)
{
	struct lat_wakeup_result *r = st->r;
	struct lat_wake_task *rows;
	enum lat_wake_sort key;
	int ret;

	/* the histograms are made before the sort: they point at the rows */
	rows = r->tasks;
	if (lat_wake_sort_parse(sort ? sort : "max", &key))
		key = LAT_WSORT_MAX;
	/* every counted wakeup wait went into its CPU's histogram, and only there */
	for (size_t i = 0; i < st->ncpus; i++)
		if (st->cpus[i] && lat_hll_merge(&st->all, &st->cpus[i]->wake))
			return -LAT_ENOMEM;
	lat_hll_stat(&st->all, &r->all);
	if ((ret = build_cpus(st, src)) || (ret = build_hists(st, rows)))
		return ret;
	if (r->ntasks)
		qsort_r(r->tasks, r->ntasks, sizeof(*r->tasks), cmp_task, &key);
	return 0;
}

void wk_stats_release(struct wk_stats *st)
{
	free(st->parts);
	free(st->pend_count);	/* pend, pend_sorted: in the arena */
	free(st->sel);
}
