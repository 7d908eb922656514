// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A worst case's timeline window (docs/wakeup.md, "Timeline"): every CPU's
 * slices, irqs, markers, migrations and lost events in [start - m, end + m],
 * from the history when the window has passed, with the case's waker edges
 * and the brackets of its chain.  Where a CPU's ring no longer reaches back
 * to the window's start, its coarse history's merged spans fill the rest.  A
 * case's slices go into one mapping reused from case to case.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wakeup_case.h"

static struct lat_tl_slice *tl_slice(struct wk_worst *x, int32_t cpu,
				     uint64_t start, uint64_t end, int32_t pid, int32_t prio,
				     const char *comm, int preempted)
{
	struct lat_timeline *tl = x->c.tl;
	struct lat_tl_slice *s;

	if (start < tl->start_ns)
		start = tl->start_ns;
	if (end > tl->end_ns)
		end = tl->end_ns;
	if (end <= start)
		return NULL;
	if (tl->nslices == x->slcap)
		return NULL;	/* sized by tl_slices(): cannot happen */
	s = &tl->slices[tl->nslices++];
	s->start_ns = start;
	s->end_ns = end;
	s->cpu = cpu;
	s->pid = pid;
	s->prio = prio;
	memcpy(s->comm, comm, LAT_COMM_LEN);
	s->comm[LAT_COMM_LEN - 1] = 0;
	s->preempted = (uint8_t)preempted;
	return s;
}

static void tl_mark(struct wk_cases *cs, struct wk_worst *x, enum lat_tl_mark_kind kind,
		    uint64_t start, uint64_t end, int32_t cpu, int32_t other, int32_t pid,
		    int64_t value, const char *label)
{
	struct lat_timeline *tl = x->c.tl;
	struct lat_tl_mark *m;
	size_t n = label ? strnlen(label, sizeof(m->label) - 1) : 0;

	if (tl->nmarks == x->mkcap &&
	    lat_grow(&tl->marks, &x->mkcap, tl->nmarks + 1, sizeof(*tl->marks))) {
		*cs->oom = 1;
		return;
	}
	m = &tl->marks[tl->nmarks++];
	memset(m, 0, sizeof(*m));
	m->kind = kind;
	m->start_ns = start;
	m->end_ns = end;
	m->cpu = cpu;
	m->other_cpu = other;
	m->pid = pid;
	m->value_ns = value;
	if (n)
		memcpy(m->label, label, n);
}

static void tl_edge(struct lat_timeline *tl, uint64_t ts, const struct lat_wake_waker *k,
		    int32_t to_cpu, int32_t to_pid)
{
	struct lat_tl_edge *e = &tl->edges[tl->nedges++];

	memset(e, 0, sizeof(*e));
	e->ts_ns = ts;
	e->from_cpu = k->cpu;
	e->to_cpu = to_cpu;
	e->from_pid = k->pid;
	e->to_pid = to_pid;
	if (k->ctx == LAT_WAKE_CTX_TASK)
		memcpy(e->from_comm, k->comm, LAT_COMM_LEN);
	else
		snprintf(e->from_comm, LAT_COMM_LEN, "%s", lat_wake_irq_label(k));
	e->from_comm[LAT_COMM_LEN - 1] = 0;
	e->from_irq = (uint8_t)k->ctx;
}

/*
 * The task that ran longest on the CPU (the list is by ns, descending), idle
 * left out: an idle stretch longer than any one task's slice among 100 tasks
 * sharing the CPU does not make the CPU "idle".  NULL when only idle ran.
 */
static const struct lat_wake_oncpu *busiest(const struct lat_wake_oncpu *o, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (o[i].pid > 0)
			return &o[i];
	return NULL;
}

/* How many of them are tasks (idle not counted). */
static size_t ran_count(const struct lat_wake_oncpu *o, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += o[i].pid > 0;
	return k;
}

static void tl_bracket(struct lat_timeline *tl, uint64_t s, uint64_t e, int32_t cpu, int32_t pid,
		       const char *comm, int32_t held_pid, const char *held_comm, int64_t held_ns,
		       size_t held_tasks)
{
	struct lat_tl_bracket *b = &tl->brackets[tl->nbrackets++];

	memset(b, 0, sizeof(*b));
	b->start_ns = s;
	b->end_ns = e;
	b->cpu = cpu;
	b->pid = pid;
	memcpy(b->comm, comm, LAT_COMM_LEN);
	b->held_by_pid = held_pid;
	b->held_ns = held_ns;
	b->held_tasks = held_tasks;
	if (held_comm)
		memcpy(b->held_by_comm, held_comm, LAT_COMM_LEN);
}

/*
 * The merged spans of @cpu (number @id) in the window, older than its ring's
 * oldest slice: from the oldest level down, each oldest first.
 */
static void tl_sums(struct wk_cases *cs, struct wk_worst *x, int32_t id, const struct wk_hcpu *cpu)
{
	const struct wk_coarse_cpu *cc = cpu->coarse;
	struct lat_timeline *tl = x->c.tl;
	uint64_t until = tl->end_ns;

	if (!cc || !cc->nslices)
		return;
	if (cpu->rlen && wk_ring_at(cpu, 0)->start < until)
		until = wk_ring_at(cpu, 0)->start;
	for (uint32_t lv = cc->nlevels; lv-- > 0;) {
		for (uint32_t i = 0; i < cc->lv[lv].len; i++) {
			const struct wk_coarse *e = wk_coarse_at(cc, lv, i);
			struct lat_tl_summary *s;

			if (e->end <= tl->start_ns)
				continue;
			if (e->start >= until)
				return;
			if (tl->nsums == x->sumcap &&
			    lat_grow(&tl->sums, &x->sumcap, tl->nsums + 1, sizeof(*tl->sums))) {
				*cs->oom = 1;
				return;
			}
			s = &tl->sums[tl->nsums++];
			*s = (struct lat_tl_summary){ .start_ns = e->start, .end_ns = e->end,
						      .cpu = id, .nslices = e->n,
						      .busy_ns = e->busy_ns, .top_ns = e->top_ns,
						      .pid = e->pid, .prio = e->prio };
			memcpy(s->comm, e->comm, LAT_COMM_LEN);
		}
	}
}

/* The index of the first slice of @cpu's ring that ends after @ts. */
static size_t ring_from(const struct wk_hcpu *cpu, uint64_t ts)
{
	size_t k;

	for (k = cpu->rlen; k > 0 && wk_ring_at(cpu, k - 1)->end > ts; k--)
		;
	return k;
}

/* The slices of every CPU in [tl->start_ns, until], then what each CPU runs at @until. */
static void tl_slices(struct wk_cases *cs, struct wk_worst *x, uint64_t until)
{
	const struct wk_history *h = cs->h;
	struct lat_timeline *tl = x->c.tl;
	size_t need = 0;

	/*
	 * Sized once, in a huge-page mapping reused from a case pushed out: a
	 * 4 KiB page fault costs ~10 us on a VM, and a window of a long wait holds
	 * thousands of slices.
	 */
	for (size_t i = 0; i < h->ncpus; i++)
		if (h->cpus[i])
			need += h->cpus[i]->rlen - ring_from(h->cpus[i], tl->start_ns) + 1;
	if (!need)
		return;
	for (size_t i = 0; i < WK_SPARES; i++) {
		struct wk_spare *sp = &cs->spares[i];

		/* the smallest that fits */
		if (sp->p && sp->cap >= need && (!tl->slices || sp->cap < x->slcap)) {
			tl->slices = sp->p;
			x->slcap = sp->cap;
			x->slmap = sp->map;
			x->slmaplen = sp->maplen;
		}
	}
	for (size_t i = 0; tl->slices && i < WK_SPARES; i++)
		if (cs->spares[i].p == tl->slices)
			cs->spares[i].p = NULL;
	if (!tl->slices) {
		/* room to grow: the windows of the worst cases grow as the trace goes on */
		tl->slices = lat_bigmap(2 * need * sizeof(*tl->slices), &x->slmap, &x->slmaplen);
		if (!tl->slices) {
			*cs->oom = 1;
			return;
		}
		x->slcap = (x->slmaplen - LAT_BIGMAP_UNIT) / sizeof(*tl->slices);
	}
	for (size_t i = 0; i < h->ncpus; i++) {
		const struct wk_hcpu *cpu = h->cpus[i];
		size_t k;

		if (!cpu)
			continue;
		tl_sums(cs, x, (int32_t)i, cpu);
		for (k = ring_from(cpu, tl->start_ns); k < cpu->rlen; k++) {
			const struct wk_slice *s = wk_ring_at(cpu, k);

			if (s->start >= tl->end_ns)
				break;
			if (s->pid == WK_PID_UNKNOWN) {
				/* a switch missing: no one known ran, drawn as not known */
				tl_mark(cs, x, LAT_TL_GAP, s->start, s->end, (int32_t)i, -1, -1, -1,
					"switch missing");
				continue;
			}
			tl_slice(x, (int32_t)i, s->start, s->end, s->pid, s->prio, s->comm,
				 s->preempted);
		}
		/* the slice still running at @until (only the end of the trace can cut it) */
		if (cpu->cur_known && cpu->cur_start < tl->end_ns && (k == cpu->rlen))
			tl_slice(x, (int32_t)i, cpu->cur_start, until, cpu->cur_pid,
				 cpu->cur_prio, cpu->cur_comm, 0);
		for (k = cpu->ilen; k > 0 && wk_irq_at(cpu, k - 1)->end > tl->start_ns; k--)
			;
		for (; k < cpu->ilen; k++) {
			const struct wk_irq *q = wk_irq_at(cpu, k);

			if (q->start >= tl->end_ns)
				break;
			tl_mark(cs, x, q->soft ? LAT_TL_SOFTIRQ : LAT_TL_IRQ, q->start, q->end,
				(int32_t)i, -1, -1, -1, q->name);
		}
	}
}

/*
 * The window can only start where every CPU still has what ran: its full
 * ring's oldest slice, or, with a coarse history, where that lost nothing.
 */
static uint64_t tl_kept_from(const struct wk_history *h, uint64_t ws)
{
	for (size_t i = 0; i < h->ncpus; i++) {
		const struct wk_hcpu *cpu = h->cpus[i];
		uint64_t from;

		if (!cpu || cpu->rlen < cpu->rcap)
			continue;
		from = cpu->coarse ? cpu->coarse->lost_to : wk_ring_at(cpu, 0)->start;
		if (from > ws)
			ws = from;
	}
	return ws;
}

/* The markers, migrations and lost events of the window, as marks. */
static void tl_marks(struct wk_cases *cs, struct wk_worst *x)
{
	const struct wk_history *h = cs->h;
	const struct lat_wake_case *c = &x->c;
	struct lat_timeline *tl = c->tl;

	for (size_t i = 0; i < h->mlen; i++) {
		const struct lat_wake_marker *m = wk_recent_mark(h, i);

		if (m->ts_ns >= tl->start_ns && m->ts_ns <= tl->end_ns)
			tl_mark(cs, x, LAT_TL_MARKER, m->ts_ns, m->ts_ns, m->cpu, -1, m->pid,
				m->lat_ns, m->text);
	}
	/* every migration the ring still has, then the case's own older than the ring */
	for (size_t i = 0; i < h->nmig; i++) {
		const struct wk_mig *m = wk_recent_mig(h, i);

		if (m->ts_ns >= tl->start_ns && m->ts_ns <= tl->end_ns)
			tl_mark(cs, x, LAT_TL_MIGRATE, m->ts_ns, m->ts_ns, m->from_cpu, m->to_cpu,
				m->pid, -1, m->comm);
	}
	for (size_t i = 0; i < c->nmigr; i++)
		if (!h->nmig || c->migr[i].ts_ns < wk_recent_mig(h, 0)->ts_ns)
			tl_mark(cs, x, LAT_TL_MIGRATE, c->migr[i].ts_ns, c->migr[i].ts_ns,
				c->migr[i].from_cpu, c->migr[i].to_cpu, c->pid, -1, c->comm);
	for (size_t i = 0; i < h->ngap; i++) {
		const struct lat_wake_gap *g = wk_recent_gap(h, i);

		if (g->to_ns >= tl->start_ns && g->to_ns <= tl->end_ns)
			tl_mark(cs, x, LAT_TL_LOST, g->to_ns, g->to_ns, g->cpu, -1, -1,
				(int64_t)g->count, "lost events");
	}
}

/* The waker edges and the brackets of the case and of its chain. */
static void tl_case(struct lat_timeline *tl, const struct lat_wake_case *c)
{
	const struct lat_wake_oncpu *top;

	if (c->waker.cpu >= 0)
		tl_edge(tl, c->start_ns, &c->waker, c->queued_cpu >= 0 ? c->queued_cpu : c->cpu,
			c->pid);
	if (c->queued_until_ns && c->verdict.kind == LAT_VERDICT_QUEUED) {
		/* the CPU it was queued on is why it waited (queued_case()): the verdict says so */
		top = busiest(c->queued_on, c->nqueued_on);
		tl_bracket(tl, c->start_ns, c->end_ns, c->cpu, c->pid, c->comm,
			   top ? top->pid : -1, top ? top->comm : NULL, top ? top->ns : 0,
			   ran_count(c->queued_on, c->nqueued_on) + c->queued_other_tasks);
		tl->brackets[tl->nbrackets - 1].queued_cpu = c->queued_left_cpu;
		tl->brackets[tl->nbrackets - 1].queued_from_ns = c->queued_from_ns;
		tl->brackets[tl->nbrackets - 1].queued_until_ns = c->queued_until_ns;
	} else {
		top = busiest(c->on_cpu, c->non_cpu);
		tl_bracket(tl, c->start_ns, c->end_ns, c->cpu, c->pid, c->comm,
			   top ? top->pid : -1, top ? top->comm : NULL, top ? top->ns : 0,
			   ran_count(c->on_cpu, c->non_cpu) + c->other_tasks);
	}
	for (size_t i = 0; i < c->nchain; i++) {
		const struct lat_wake_link *l = &c->chain[i];

		if (l->waker.cpu >= 0)
			tl_edge(tl, l->start_ns, &l->waker, l->cpu, l->pid);
		tl_bracket(tl, l->start_ns, l->end_ns, l->cpu, l->pid, l->comm,
			   l->held_by_pid > 0 ? l->held_by_pid : -1,
			   l->held_by_pid > 0 ? l->held_by_comm : NULL, l->held_ns, 0);
	}
}

uint64_t wk_tl_margin(int64_t latency_ns)
{
	uint64_t m = latency_ns > 0 ? (uint64_t)latency_ns / 2 : 0;

	if (m > WK_TL_MARGIN_CAP)
		m = (uint64_t)latency_ns / 8 > WK_TL_MARGIN_CAP ? (uint64_t)latency_ns / 8 :
		    WK_TL_MARGIN_CAP;
	return m < 100 * LAT_NS_PER_US ? 100 * LAT_NS_PER_US : m;
}

void wk_tl_snap(struct wk_cases *cs, struct wk_worst *x, uint64_t until)
{
	struct lat_wake_case *c = &x->c;
	struct lat_timeline *tl;
	char d[32];

	tl = c->tl = calloc(1, sizeof(*tl));
	if (tl) {
		tl->edges = calloc(LAT_WAKE_CHAIN_MAX + 1, sizeof(*tl->edges));
		tl->brackets = calloc(LAT_WAKE_CHAIN_MAX + 1, sizeof(*tl->brackets));
	}
	if (!tl || !tl->edges || !tl->brackets) {
		lat_timeline_free(tl);
		c->tl = NULL;
		*cs->oom = 1;
		return;
	}
	tl->start_ns = tl_kept_from(cs->h, x->tws);
	tl->end_ns = until < x->twe ? (until > tl->start_ns ? until : tl->start_ns) : x->twe;
	tl->ncpus = (int)cs->h->ncpus;
	snprintf(tl->title, sizeof(tl->title), "%.15s/%d waited %s on CPU%d", c->comm, c->pid,
		 lat_fmt_duration(c->latency_ns, d, sizeof(d)), c->cpu);
	tl_slices(cs, x, until);
	tl_marks(cs, x);
}

void wk_tl_build(struct wk_cases *cs, struct wk_worst *x, uint64_t until)
{
	if (!x->c.tl)
		wk_tl_snap(cs, x, until);
	if (x->c.tl)
		tl_case(x->c.tl, &x->c);
}

void wk_tl_drop(struct wk_cases *cs, struct wk_worst *x)
{
	if (x->slmap)
		wk_tl_keep_spare(cs, x);
	if (x->slmap) {		/* not kept: the spares were bigger */
		x->c.tl->slices = NULL;
		lat_bigmap_free(x->slmap, x->slmaplen);
		x->slmap = NULL;
	}
	lat_timeline_free(x->c.tl);
	x->c.tl = NULL;
	x->slcap = x->mkcap = x->sumcap = 0;
}

/* Keeps @x's slice buffer for reuse in place of the smallest spare (or frees it). */
void wk_tl_keep_spare(struct wk_cases *cs, struct wk_worst *x)
{
	struct wk_spare *min = &cs->spares[0];

	for (size_t i = 0; i < WK_SPARES; i++) {
		if (!cs->spares[i].p) {
			min = &cs->spares[i];
			break;
		}
		if (cs->spares[i].cap < min->cap)
			min = &cs->spares[i];
	}
	if (min->p && min->cap >= x->slcap)
		return;		/* worst_free() unmaps it */
	if (min->p)
		lat_bigmap_free(min->map, min->maplen);
	/* stale slices stay in it: every user writes what it reads */
	*min = (struct wk_spare){ x->c.tl->slices, x->slcap, x->slmaplen, x->slmap };
	x->c.tl->slices = NULL;
	x->slmap = NULL;
}

void wk_tl_spares_free(struct wk_cases *cs)
{
	for (size_t i = 0; i < WK_SPARES; i++)
		if (cs->spares[i].p)
			lat_bigmap_free(cs->spares[i].map, cs->spares[i].maplen);
}

int lat_wakeup_timeline(const struct lat_block *b, size_t idx, struct lat_timeline **out)
{
	const struct lat_wakeup_result *r;
	const struct lat_timeline *s;
	struct lat_timeline *t;

	*out = NULL;
	if (!b || b->schema != LAT_SCHEMA_EVENTS || !b->analysis)
		return -LAT_EEMPTY;
	r = b->analysis;
	if (idx >= r->nworst || !r->worst[idx].tl)
		return -LAT_EEMPTY;
	s = r->worst[idx].tl;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -LAT_ENOMEM;
	*t = *s;
	t->slices_map = NULL;	/* the copy's slices are its own */
	t->sums = s->nsums ? malloc(s->nsums * sizeof(*t->sums)) : NULL;
	t->slices = malloc((s->nslices ? s->nslices : 1) * sizeof(*t->slices));
	t->marks = malloc((s->nmarks ? s->nmarks : 1) * sizeof(*t->marks));
	t->edges = malloc((s->nedges ? s->nedges : 1) * sizeof(*t->edges));
	t->brackets = malloc((s->nbrackets ? s->nbrackets : 1) * sizeof(*t->brackets));
	if (!t->slices || !t->marks || !t->edges || !t->brackets || (s->nsums && !t->sums)) {
		lat_timeline_free(t);
		return -LAT_ENOMEM;
	}
	if (s->nslices)
		memcpy(t->slices, s->slices, s->nslices * sizeof(*t->slices));
	if (s->nsums)
		memcpy(t->sums, s->sums, s->nsums * sizeof(*t->sums));
	if (s->nmarks)
		memcpy(t->marks, s->marks, s->nmarks * sizeof(*t->marks));
	if (s->nedges)
		memcpy(t->edges, s->edges, s->nedges * sizeof(*t->edges));
	if (s->nbrackets)
		memcpy(t->brackets, s->brackets, s->nbrackets * sizeof(*t->brackets));
	*out = t;
	return 0;
}
