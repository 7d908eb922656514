// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The worst wakeups, explained from the per-CPU rings when their wait ends:
 * who held the CPU (slices, irqs), markers inside the wait, and a timeline
 * window that keeps collecting events until its end.  Bounded by worst_n.
 */
#include <stdlib.h>
#include <string.h>

#include "wakeup_priv.h"

int wk_qualifies(const struct wk *w, int64_t lat)
{
	if (w->o->worst_n <= 0)
		return 0;
	return w->nworst < (size_t)w->o->worst_n || lat > w->worst[w->nworst - 1]->c.latency_ns;
}

static int64_t overlap(uint64_t a0, uint64_t a1, uint64_t b0, uint64_t b1)
{
	uint64_t lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;

	return hi > lo ? (int64_t)(hi - lo) : 0;
}

/*
 * Who ran most on the link's CPU during its wait.  Worked out only for a case's
 * chain (for every wait it would cost a scan of every slice each wait spans):
 * the ring still holds the window unless the CPU switched WK_RING times since.
 */
void wk_resolve_link(const struct wk *w, struct lat_wake_link *l)
{
	struct holder { int32_t pid; int64_t ns; const char *comm; } acc[8];
	const struct wk_cpu *c;
	size_t n = 0, best = 0;

	if (l->held_by_pid != WK_HELD_LAZY)
		return;
	l->held_by_pid = -1;
	l->held_ns = 0;
	if (l->cpu < 0 || (size_t)l->cpu >= w->ncpus || !(c = w->cpus[l->cpu]))
		return;
	if (c->rlen == WK_RING && wk_ring_at(c, 0)->end > l->start_ns) {
		l->held_unknown = 1;
		return;
	}
	for (size_t i = c->rlen; i-- > 0;) {
		const struct wk_slice *s = wk_ring_at(c, i);
		int64_t ov;
		size_t k;

		if (s->end <= l->start_ns)
			break;
		ov = overlap(s->start, s->end, l->start_ns, l->end_ns);
		if (!ov)
			continue;
		for (k = 0; k < n && acc[k].pid != s->pid; k++)
			;
		if (k == n) {
			if (n == LAT_ARRAY_SIZE(acc))
				continue;
			acc[n++] = (struct holder){ s->pid, 0, s->comm };
		}
		acc[k].ns += ov;
	}
	if (!n)
		return;
	for (size_t k = 1; k < n; k++)
		if (acc[k].ns > acc[best].ns)
			best = k;
	l->held_by_pid = acc[best].pid;
	l->held_ns = acc[best].ns;
	memcpy(l->held_by_comm, acc[best].comm, LAT_COMM_LEN);
}

static void add_oncpu(struct lat_wake_case *c, const struct wk_slice *s, int64_t ns,
		      int64_t *longest)
{
	size_t k;

	for (k = 0; k < c->non_cpu && c->on_cpu[k].pid != s->pid; k++)
		;
	if (k == c->non_cpu) {
		if (k == LAT_WAKE_ONCPU_MAX) {
			c->other_ns += ns;
			return;
		}
		memset(&c->on_cpu[k], 0, sizeof(c->on_cpu[k]));
		c->on_cpu[k].pid = s->pid;
		c->on_cpu[k].prio = s->prio;
		c->on_cpu[k].stack = -1;
		memcpy(c->on_cpu[k].comm, s->comm, LAT_COMM_LEN);
		longest[k] = 0;
		c->non_cpu++;
	}
	c->on_cpu[k].ns += ns;
	c->on_cpu[k].slices++;
	if (ns > longest[k] && s->stack >= 0) {
		longest[k] = ns;
		c->on_cpu[k].stack = s->stack;
	}
}

static int cmp_oncpu(const void *a, const void *b)
{
	const struct lat_wake_oncpu *x = a, *y = b;

	return (y->ns > x->ns) - (y->ns < x->ns);
}

static void build_case(struct wk *w, const struct wk_cpu *cpu, struct lat_wake_case *c)
{
	int64_t covered = 0, longest[LAT_WAKE_ONCPU_MAX];
	size_t i;

	for (i = cpu->rlen; i-- > 0;) {
		const struct wk_slice *s = wk_ring_at(cpu, i);
		int64_t ov;

		if (s->end <= c->start_ns)
			break;
		ov = overlap(s->start, s->end, c->start_ns, c->end_ns);
		if (ov) {
			add_oncpu(c, s, ov, longest);
			covered += ov;
		}
	}
	lat_sort(c->on_cpu, c->non_cpu, sizeof(c->on_cpu[0]), cmp_oncpu);
	c->unaccounted_ns = c->latency_ns - covered;
	if (c->unaccounted_ns < 0)
		c->unaccounted_ns = 0;
	/* the ring ran out before the wait's start: say so rather than guess */
	c->partial = i == (size_t)-1 && cpu->rlen == WK_RING && c->unaccounted_ns > 0;

	for (i = cpu->ilen; i-- > 0;) {
		const struct wk_irq *q = wk_irq_at(cpu, i);
		int64_t ov;
		size_t k;

		if (q->end <= c->start_ns)
			break;
		ov = overlap(q->start, q->end, c->start_ns, c->end_ns);
		if (!ov)
			continue;
		for (k = 0; k < c->nirqs; k++)
			if (c->irqs[k].irq == q->irq && c->irqs[k].softirq == q->soft)
				break;
		if (k == c->nirqs) {
			if (k == LAT_WAKE_IRQS_MAX)
				continue;
			c->irqs[k] = (struct lat_wake_irq){ .softirq = q->soft, .irq = q->irq };
			memcpy(c->irqs[k].name, q->name, sizeof(c->irqs[k].name));
			c->nirqs++;
		}
		c->irqs[k].ns += ov;
		c->irqs[k].count++;
	}
	for (i = 0; i < w->mlen && c->nmarkers < LAT_WAKE_MARKERS_MAX; i++) {
		const struct lat_wake_marker *m = &w->marks[(w->mhead + i) % WK_MARK_RING];

		if (m->ts_ns >= c->start_ns && m->ts_ns <= c->end_ns)
			c->markers[c->nmarkers++] = *m;
	}
}

/* ---- timeline windows ------------------------------------------------------------- */

static void tl_slice(struct wk *w, struct wk_worst *x, int32_t cpu, uint64_t start,
		     uint64_t end, int32_t pid, int32_t prio, const char *comm, int preempted)
{
	struct lat_timeline *tl = x->c.tl;
	struct lat_tl_slice *s;

	if (start < x->ws)
		start = x->ws;
	if (end > x->we)
		end = x->we;
	if (end <= start)
		return;
	if (lat_grow(&tl->slices, &x->slcap, tl->nslices + 1, sizeof(*tl->slices))) {
		w->oom = 1;
		return;
	}
	s = &tl->slices[tl->nslices++];
	memset(s, 0, sizeof(*s));
	s->start_ns = start;
	s->end_ns = end;
	s->cpu = cpu;
	s->pid = pid;
	s->prio = prio;
	memcpy(s->comm, comm, LAT_COMM_LEN);
	s->comm[LAT_COMM_LEN - 1] = 0;
	s->preempted = (uint8_t)preempted;
}

static void tl_mark(struct wk *w, struct wk_worst *x, enum lat_tl_mark_kind kind, uint64_t start,
		    uint64_t end, int32_t cpu, int32_t other, int32_t pid, int64_t value,
		    const char *label)
{
	struct lat_timeline *tl = x->c.tl;
	struct lat_tl_mark *m;

	if (lat_grow(&tl->marks, &x->mkcap, tl->nmarks + 1, sizeof(*tl->marks))) {
		w->oom = 1;
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
	snprintf(m->label, sizeof(m->label), "%s", label ? label : "");
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
	memcpy(e->from_comm, k->ctx == LAT_WAKE_CTX_TASK ? k->comm : k->irq_name, LAT_COMM_LEN);
	e->from_comm[LAT_COMM_LEN - 1] = 0;
	e->from_irq = k->ctx != LAT_WAKE_CTX_TASK;
}

static void tl_bracket(struct lat_timeline *tl, uint64_t s, uint64_t e, int32_t cpu, int32_t pid,
		       const char *comm, int32_t held_pid, const char *held_comm)
{
	struct lat_tl_bracket *b = &tl->brackets[tl->nbrackets++];

	memset(b, 0, sizeof(*b));
	b->start_ns = s;
	b->end_ns = e;
	b->cpu = cpu;
	b->pid = pid;
	memcpy(b->comm, comm, LAT_COMM_LEN);
	b->held_by_pid = held_pid;
	if (held_comm)
		memcpy(b->held_by_comm, held_comm, LAT_COMM_LEN);
}

static void cap_start(struct wk *w, struct wk_worst *x)
{
	struct lat_wake_case *c = &x->c;
	uint64_t margin = (uint64_t)c->latency_ns / 2;
	struct lat_timeline *tl;
	char d[32];
	size_t g0;

	if (margin < 100 * LAT_NS_PER_US)
		margin = 100 * LAT_NS_PER_US;
	x->ws = c->start_ns > margin ? c->start_ns - margin : 0;
	x->we = c->end_ns + margin;
	tl = c->tl = calloc(1, sizeof(*tl));
	if (tl) {
		tl->edges = calloc(LAT_WAKE_CHAIN_MAX + 1, sizeof(*tl->edges));
		tl->brackets = calloc(LAT_WAKE_CHAIN_MAX + 1, sizeof(*tl->brackets));
	}
	if (!tl || !tl->edges || !tl->brackets) {
		lat_timeline_free(tl);
		c->tl = NULL;
		w->oom = 1;
		return;
	}
	tl->start_ns = x->ws;
	tl->end_ns = x->we;
	tl->ncpus = (int)w->ncpus;
	snprintf(tl->title, sizeof(tl->title), "%.15s/%d waited %s on CPU%d", c->comm, c->pid,
		 lat_fmt_duration(c->latency_ns, d, sizeof(d)), c->cpu);
	for (size_t i = 0; i < w->ncpus; i++) {
		const struct wk_cpu *cpu = w->cpus[i];
		size_t k;

		if (!cpu)
			continue;
		for (k = cpu->rlen; k > 0 && wk_ring_at(cpu, k - 1)->end > x->ws; k--)
			;
		for (; k < cpu->rlen; k++) {
			const struct wk_slice *s = wk_ring_at(cpu, k);

			tl_slice(w, x, (int32_t)i, s->start, s->end, s->pid, s->prio, s->comm,
				 s->preempted);
		}
		for (k = cpu->ilen; k > 0 && wk_irq_at(cpu, k - 1)->end > x->ws; k--)
			;
		for (; k < cpu->ilen; k++) {
			const struct wk_irq *q = wk_irq_at(cpu, k);

			tl_mark(w, x, q->soft ? LAT_TL_SOFTIRQ : LAT_TL_IRQ, q->start, q->end,
				(int32_t)i, -1, -1, -1, q->name);
		}
	}
	for (size_t i = 0; i < w->mlen; i++) {
		const struct lat_wake_marker *m = &w->marks[(w->mhead + i) % WK_MARK_RING];

		if (m->ts_ns >= x->ws && m->ts_ns <= x->we)
			tl_mark(w, x, LAT_TL_MARKER, m->ts_ns, m->ts_ns, m->cpu, -1, m->pid,
				m->lat_ns, m->text);
	}
	/* back from the newest to the window's start, then forward in time order */
	for (g0 = w->glen; g0 > 0 && w->migrs[(w->ghead + g0 - 1) % WK_MIGR_RING].ts_ns >= x->ws;
	     g0--)
		;
	for (size_t k = g0; k < w->glen; k++) {
		const struct wk_migr *g = &w->migrs[(w->ghead + k) % WK_MIGR_RING];

		if (g->ts_ns <= x->we)
			tl_mark(w, x, LAT_TL_MIGRATE, g->ts_ns, g->ts_ns, g->from_cpu, g->to_cpu,
				g->pid, -1, g->comm);
	}
	/* the case's own migrations older than the ring (every migration enters it) */
	for (size_t i = 0; i < c->nmigr; i++)
		if (!w->glen || c->migr[i].ts_ns < w->migrs[w->ghead].ts_ns)
			tl_mark(w, x, LAT_TL_MIGRATE, c->migr[i].ts_ns, c->migr[i].ts_ns,
				c->migr[i].from_cpu, c->migr[i].to_cpu, c->pid, -1, c->comm);
	for (size_t i = 0; i < w->r->ngaps; i++) {
		const struct lat_wake_gap *g = &w->r->gaps[i];

		if (g->to_ns >= x->ws && g->to_ns <= x->we)
			tl_mark(w, x, LAT_TL_LOST, g->to_ns, g->to_ns, g->cpu, -1, -1,
				(int64_t)g->count, "lost events");
	}
	if (c->waker.cpu >= 0)
		tl_edge(tl, c->start_ns, &c->waker, c->queued_cpu >= 0 ? c->queued_cpu : c->cpu,
			c->pid);
	tl_bracket(tl, c->start_ns, c->end_ns, c->cpu, c->pid, c->comm,
		   c->non_cpu && c->on_cpu[0].pid > 0 ? c->on_cpu[0].pid : -1,
		   c->non_cpu && c->on_cpu[0].pid > 0 ? c->on_cpu[0].comm : NULL);
	for (size_t i = 0; i < c->nchain; i++) {
		const struct lat_wake_link *l = &c->chain[i];

		if (l->waker.cpu >= 0)
			tl_edge(tl, l->start_ns, &l->waker, l->cpu, l->pid);
		tl_bracket(tl, l->start_ns, l->end_ns, l->cpu, l->pid, l->comm,
			   l->held_by_pid > 0 ? l->held_by_pid : -1,
			   l->held_by_pid > 0 ? l->held_by_comm : NULL);
	}
	x->open = 1;
	w->nopen++;
}

static int cmp_tl_slice(const void *a, const void *b)
{
	const struct lat_tl_slice *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return (x->start_ns > y->start_ns) - (x->start_ns < y->start_ns);
}

/* Closes @x's window at @until: the slices still running are cut there. */
static void cap_close(struct wk *w, struct wk_worst *x, uint64_t until)
{
	if (!x->open)
		return;
	for (size_t i = 0; i < w->ncpus; i++) {
		const struct wk_cpu *c = w->cpus[i];

		if (c && c->cur_known && c->cur_start < x->we)
			tl_slice(w, x, (int32_t)i, c->cur_start, until, c->cur_pid, c->cur_prio,
				 c->cur_comm, 0);
	}
	if (x->c.tl) {
		if (until < x->we)
			x->c.tl->end_ns = until > x->ws ? until : x->ws;
		if (x->c.tl->nslices)
			lat_sort(x->c.tl->slices, x->c.tl->nslices, sizeof(*x->c.tl->slices),
			      cmp_tl_slice);
	}
	x->open = 0;
	w->nopen--;
}

void wk_cap_slice(struct wk *w, int32_t cpu, const struct wk_slice *s)
{
	for (size_t i = 0; i < w->nworst; i++) {
		struct wk_worst *x = w->worst[i];

		if (x->open && s->end > x->ws && s->start < x->we)
			tl_slice(w, x, cpu, s->start, s->end, s->pid, s->prio, s->comm,
				 s->preempted);
	}
}

void wk_cap_irq(struct wk *w, int32_t cpu, const struct wk_irq *q)
{
	for (size_t i = 0; i < w->nworst; i++) {
		struct wk_worst *x = w->worst[i];

		if (x->open && q->end > x->ws && q->start < x->we)
			tl_mark(w, x, q->soft ? LAT_TL_SOFTIRQ : LAT_TL_IRQ, q->start, q->end, cpu,
				-1, -1, -1, q->name);
	}
}

void wk_cap_mark(struct wk *w, enum lat_tl_mark_kind kind, uint64_t start, uint64_t end,
		 int32_t cpu, int32_t other, int32_t pid, int64_t value, const char *label)
{
	for (size_t i = 0; i < w->nworst; i++) {
		struct wk_worst *x = w->worst[i];

		if (x->open && start >= x->ws && start <= x->we)
			tl_mark(w, x, kind, start, end, cpu, other, pid, value, label);
	}
}

void wk_cap_tick(struct wk *w, uint64_t ts)
{
	for (size_t i = 0; i < w->nworst && w->nopen; i++)
		if (w->worst[i]->open && ts > w->worst[i]->we)
			cap_close(w, w->worst[i], w->worst[i]->we);
}

void wk_cap_close_all(struct wk *w)
{
	for (size_t i = 0; i < w->nworst; i++)
		cap_close(w, w->worst[i], w->r->last_ns < w->worst[i]->we ? w->r->last_ns :
			  w->worst[i]->we);
}

void wk_worst_free(struct wk_worst *x)
{
	if (!x)
		return;
	lat_timeline_free(x->c.tl);
	free(x);
}

static void insert_worst(struct wk *w, const struct lat_wake_case *c)
{
	struct wk_worst *x = calloc(1, sizeof(*x));
	size_t pos;

	if (!x) {
		w->oom = 1;
		return;
	}
	x->c = *c;
	if (w->nworst == (size_t)w->o->worst_n) {
		struct wk_worst *last = w->worst[--w->nworst];

		if (last->open)
			w->nopen--;
		wk_worst_free(last);
	}
	for (pos = w->nworst; pos > 0 && w->worst[pos - 1]->c.latency_ns < c->latency_ns; pos--)
		;
	memmove(&w->worst[pos + 1], &w->worst[pos], (w->nworst - pos) * sizeof(*w->worst));
	w->worst[pos] = x;
	w->nworst++;
	cap_start(w, x);
}

void wk_finish_done(struct wk *w, struct wk_cpu *c, int32_t cpu)
{
	struct wk_done *d = &c->done;

	d->valid = 0;
	if (w->r->has_stacks) {
		/* runnable time blamed on the stack each holder had when it left the CPU */
		for (size_t i = c->rlen; i-- > 0;) {
			const struct wk_slice *s = wk_ring_at(c, i);
			int64_t ov;

			if (s->end <= d->start)
				break;
			ov = overlap(s->start, s->end, d->start, d->end);
			if (ov && s->pid > 0 && s->stack >= 0) {
				w->stk[s->stack].run_ns += ov;
				w->stk[s->stack].run_cnt++;
			}
		}
	}
	if (!d->candidate || !wk_qualifies(w, d->c.latency_ns))
		return;
	(void)cpu;
	build_case(w, c, &d->c);
	insert_worst(w, &d->c);
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
	t->slices = malloc((s->nslices ? s->nslices : 1) * sizeof(*t->slices));
	t->marks = malloc((s->nmarks ? s->nmarks : 1) * sizeof(*t->marks));
	t->edges = malloc((s->nedges ? s->nedges : 1) * sizeof(*t->edges));
	t->brackets = malloc((s->nbrackets ? s->nbrackets : 1) * sizeof(*t->brackets));
	if (!t->slices || !t->marks || !t->edges || !t->brackets) {
		lat_timeline_free(t);
		return -LAT_ENOMEM;
	}
	if (s->nslices)
		memcpy(t->slices, s->slices, s->nslices * sizeof(*t->slices));
	if (s->nmarks)
		memcpy(t->marks, s->marks, s->nmarks * sizeof(*t->marks));
	if (s->nedges)
		memcpy(t->edges, s->edges, s->nedges * sizeof(*t->edges));
	if (s->nbrackets)
		memcpy(t->brackets, s->brackets, s->nbrackets * sizeof(*t->brackets));
	*out = t;
	return 0;
}
