// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The worst wakeups, explained from the per-CPU rings when their wait ends:
 * who held the CPU (slices, irqs), markers inside the wait, and a timeline
 * window that keeps collecting events until its end.  Bounded by worst_n.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wakeup_priv.h"

static int64_t overlap(uint64_t a0, uint64_t a1, uint64_t b0, uint64_t b1)
{
	uint64_t lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;

	return hi > lo ? (int64_t)(hi - lo) : 0;
}

/* Empties the grouping scratch (hold, hold_ix); -1 (and w->oom) without memory. */
static int hold_reset(struct wk *w)
{
	struct wk_cases *cs = &w->cases;

	if (!cs->hold_ix) {
		cs->hold_hcap = 256;
		cs->hold_ix = malloc(cs->hold_hcap * sizeof(*cs->hold_ix));
		if (!cs->hold_ix) {
			w->oom = 1;
			return -1;
		}
	}
	memset(cs->hold_ix, 0xff, cs->hold_hcap * sizeof(*cs->hold_ix));
	cs->nhold = 0;
	return 0;
}

static size_t hold_slot(const struct wk *w, int64_t key)
{
	const struct wk_cases *cs = &w->cases;
	size_t i = (size_t)((uint64_t)key * 0x9e3779b97f4a7c15ull >> 32) & (cs->hold_hcap - 1);

	while (cs->hold_ix[i] >= 0 && cs->hold[cs->hold_ix[i]].key != key)
		i = (i + 1) & (cs->hold_hcap - 1);
	return i;
}

/*
 * Adds an entry (a slice, or an irq) at ring position @idx to its key's group:
 * time summed, count, the first idx seen (entries come newest first) and the
 * longest one with a stack (@longest >= 0), the newest of equal ones.
 */
static void hold_add(struct wk *w, int64_t key, uint32_t idx, int64_t ns, int64_t longest)
{
	struct wk_cases *cs = &w->cases;
	size_t i = hold_slot(w, key);
	struct wk_hold *g;

	if (cs->hold_ix[i] < 0) {
		if (lat_grow(&cs->hold, &cs->hold_cap, cs->nhold + 1, sizeof(*cs->hold)) < 0) {
			w->oom = 1;
			return;
		}
		if ((cs->nhold + 1) * 2 > cs->hold_hcap) {
			int32_t *ix = malloc(2 * cs->hold_hcap * sizeof(*ix));

			if (!ix) {
				w->oom = 1;
				return;
			}
			free(cs->hold_ix);
			cs->hold_ix = ix;
			cs->hold_hcap *= 2;
			memset(ix, 0xff, cs->hold_hcap * sizeof(*ix));
			for (size_t k = 0; k < cs->nhold; k++)
				ix[hold_slot(w, cs->hold[k].key)] = (int32_t)k;
			i = hold_slot(w, key);
		}
		cs->hold_ix[i] = (int32_t)cs->nhold;
		cs->hold[cs->nhold++] = (struct wk_hold){ .key = key, .idx = idx, .longest = -1 };
	}
	g = &cs->hold[cs->hold_ix[i]];
	g->ns += ns;
	g->n++;
	if (longest > g->longest) {
		g->longest = longest;
		g->longest_idx = idx;
	}
}

/* By time, the longest first; at equal time the newest first. */
static int cmp_hold_ns(const void *a, const void *b)
{
	const struct wk_hold *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	return (y->idx > x->idx) - (y->idx < x->idx);
}

/*
 * Moves the @k (at most LAT_WAKE_ONCPU_MAX) longest of the cases.nhold groups to
 * the front of cases.hold, longest first, and returns how many that is; *rest
 * gets the others' time summed.  One compare for most groups: no full sort.
 */
static size_t hold_top(struct wk *w, size_t k, int64_t *rest)
{
	struct wk_cases *cs = &w->cases;
	struct wk_hold top[LAT_WAKE_ONCPU_MAX];
	size_t n = 0;
	int64_t all = 0, kept = 0;

	if (k > LAT_WAKE_ONCPU_MAX)
		k = LAT_WAKE_ONCPU_MAX;
	for (size_t i = 0; i < cs->nhold && k; i++) {
		const struct wk_hold *e = &cs->hold[i];
		size_t p;

		all += e->ns;
		if (n == k && cmp_hold_ns(e, &top[k - 1]) >= 0)
			continue;
		p = n < k ? n++ : k - 1;
		for (; p > 0 && cmp_hold_ns(e, &top[p - 1]) < 0; p--)
			top[p] = top[p - 1];
		top[p] = *e;
	}
	for (size_t i = 0; i < n; i++) {
		cs->hold[i] = top[i];
		kept += top[i].ns;
	}
	*rest = all - kept;
	return n;
}

/*
 * The part of [a, b) inside the stalls of @cpu (and of every CPU) still kept:
 * their union (an every-CPU stall lies inside a CPU's longer one).
 */
int64_t wk_stall_overlap(const struct wk *w, int32_t cpu, uint64_t a, uint64_t b)
{
	uint64_t lo[WK_STALL_RING], hi[WK_STALL_RING], cur0 = 0, cur1 = 0;
	size_t n = 0;
	int64_t ns = 0;

	for (size_t i = 0; i < w->recent.nstall; i++) {
		const struct lat_wake_stall *s = wk_recent_stall(&w->recent, i);
		size_t k;

		if ((s->cpu >= 0 && s->cpu != cpu) || !overlap(s->from_ns, s->to_ns, a, b))
			continue;
		/* insertion by start: a handful at most */
		for (k = n; k > 0 && lo[k - 1] > (s->from_ns > a ? s->from_ns : a); k--) {
			lo[k] = lo[k - 1];
			hi[k] = hi[k - 1];
		}
		lo[k] = s->from_ns > a ? s->from_ns : a;
		hi[k] = s->to_ns < b ? s->to_ns : b;
		n++;
	}
	for (size_t i = 0; i < n; i++) {
		if (i && lo[i] <= cur1) {
			if (hi[i] > cur1)
				cur1 = hi[i];
			continue;
		}
		ns += (int64_t)(cur1 - cur0);
		cur0 = lo[i];
		cur1 = hi[i];
	}
	return ns + (int64_t)(cur1 - cur0);
}

/* The slice [s0, s1)'s time inside [start, end), less what fell inside a stall. */
static int64_t slice_ns(const struct wk *w, const struct wk_cpu *c, uint64_t s0, uint64_t s1,
			uint64_t start, uint64_t end)
{
	int64_t ov = overlap(s0, s1, start, end);

	if (ov && w->recent.nstall)
		ov -= wk_stall_overlap(w, c->id, s0 > start ? s0 : start, s1 < end ? s1 : end);
	return ov;
}

/*
 * Groups @c's slices that overlap [start, end) by task, into cases.hold (every
 * task counts, however many shared the window; hold_top() finds the longest);
 * their number.
 * *covered gets the time they cover; *stop the position below the oldest one
 * looked at, (size_t)-1 when the ring ran out first.
 */
static size_t hold_slices(struct wk *w, const struct wk_cpu *c, uint64_t start, uint64_t end,
			  int64_t *covered, size_t *stop)
{
	size_t i;

	*covered = 0;
	*stop = (size_t)-1;
	if (hold_reset(w))
		return 0;
	/* the task on the CPU now: its slice is not in the ring yet (idx rlen) */
	if (c->cur_known) {
		int64_t ov = slice_ns(w, c, c->cur_start, end, start, end);

		if (ov) {
			hold_add(w, c->cur_pid, (uint32_t)c->rlen, ov, -1);
			*covered += ov;
		}
	}
	for (i = c->rlen; i-- > 0;) {
		const struct wk_slice *s = wk_ring_at(c, i);
		int64_t ov;

		if (s->end <= start)
			break;
		ov = slice_ns(w, c, s->start, s->end, start, end);
		if (ov <= 0)
			continue;
		hold_add(w, s->pid, (uint32_t)i, ov, s->stack >= 0 ? ov : -1);
		*covered += ov;
	}
	*stop = i;
	return w->cases.nhold;
}

/* Fills @o from hold group @e of @cpu's ring (idx rlen: the task on the CPU now). */
static void oncpu_from(const struct wk_cpu *cpu, const struct wk_hold *e,
		       struct lat_wake_oncpu *o)
{
	memset(o, 0, sizeof(*o));
	if (e->idx == cpu->rlen) {
		o->pid = cpu->cur_pid;
		o->prio = cpu->cur_prio;
		memcpy(o->comm, cpu->cur_comm, LAT_COMM_LEN);
	} else {
		const struct wk_slice *s = wk_ring_at(cpu, e->idx);

		o->pid = s->pid;
		o->prio = s->prio;
		memcpy(o->comm, s->comm, LAT_COMM_LEN);
	}
	o->ns = e->ns;
	o->slices = e->n;
	o->stack = e->longest >= 0 ? wk_ring_at(cpu, e->longest_idx)->stack : -1;
}

/*
 * Who ran most on the link's CPU during its wait.  Worked out only for a case's
 * chain (for every wait it would cost a scan of every slice each wait spans):
 * the ring still holds the window unless the CPU switched rcap times since.
 */
void wk_resolve_link(struct wk *w, struct lat_wake_link *l)
{
	struct wk_cases *cs = &w->cases;
	const struct wk_cpu *c;
	struct lat_wake_oncpu o;
	int64_t covered, rest;
	size_t n, stop;

	if (l->held_by_pid != WK_HELD_LAZY)
		return;
	l->held_by_pid = -1;
	l->held_ns = 0;
	if (l->cpu < 0 || (size_t)l->cpu >= w->ncpus || !(c = w->cpus[l->cpu]))
		return;
	if (c->rlen == c->rcap && wk_ring_at(c, 0)->end > l->start_ns) {
		l->held_unknown = 1;
		return;
	}
	n = hold_slices(w, c, l->start_ns, l->end_ns, &covered, &stop);
	if (!n || !hold_top(w, 1, &rest))
		return;
	oncpu_from(c, &cs->hold[0], &o);
	l->held_by_pid = o.pid;
	l->held_ns = o.ns;
	memcpy(l->held_by_comm, o.comm, LAT_COMM_LEN);
}

/*
 * A task queued on one CPU and run on another: who ran on the CPU it was
 * queued on, from the waking until it was migrated off it.  That CPU, not
 * the one it ran on (often idle, which pulled it), is why it waited.
 */
static void queued_case(struct wk *w, struct lat_wake_case *c)
{
	struct wk_cases *cs = &w->cases;
	const struct wk_cpu *q;
	int64_t covered;
	size_t g, stop;

	c->nqueued_on = 0;
	c->queued_other_ns = 0;
	c->queued_other_tasks = 0;
	c->queued_until_ns = 0;
	if (c->queued_cpu < 0 || c->queued_cpu == c->cpu || (size_t)c->queued_cpu >= w->ncpus ||
	    !(q = w->cpus[c->queued_cpu]))
		return;
	c->queued_until_ns = c->end_ns;
	for (size_t k = 0; k < c->nmigr; k++)
		if (c->migr[k].from_cpu == c->queued_cpu) {
			c->queued_until_ns = c->migr[k].ts_ns;
			break;
		}
	g = hold_slices(w, q, c->start_ns, c->queued_until_ns, &covered, &stop);
	c->nqueued_on = hold_top(w, LAT_WAKE_QUEUED_MAX, &c->queued_other_ns);
	c->queued_other_tasks = g - c->nqueued_on;
	for (size_t k = 0; k < c->nqueued_on; k++)
		oncpu_from(q, &cs->hold[k], &c->queued_on[k]);
}

/*
 * Each CPU's time in [start, end): running a task, idle, in a stall (charged
 * to neither), unknown (older than its ring, or before its first switch); and
 * the irq time inside that.
 */
static void cpu_shares(struct wk *w, struct lat_wake_case *c)
{
	uint64_t start = c->start_ns, end = c->end_ns;

	c->ncpushare = 0;
	for (size_t k = 0; k < w->ncpus && c->ncpushare < LAT_WAKE_CPUSHARE_MAX; k++) {
		const struct wk_cpu *cp = w->cpus[k];
		struct lat_wake_cpushare *s;
		int64_t ov;

		if (!cp)
			continue;
		s = &c->cpushare[c->ncpushare++];
		memset(s, 0, sizeof(*s));
		s->cpu = (int32_t)k;
		if (cp->cur_known) {
			ov = slice_ns(w, cp, cp->cur_start, end, start, end);
			*(cp->cur_pid == 0 ? &s->idle_ns : &s->busy_ns) += ov > 0 ? ov : 0;
		}
		for (size_t i = cp->rlen; i-- > 0;) {
			const struct wk_slice *sl = wk_ring_at(cp, i);

			if (sl->end <= start)
				break;
			ov = slice_ns(w, cp, sl->start, sl->end, start, end);
			*(sl->pid == 0 ? &s->idle_ns : &s->busy_ns) += ov > 0 ? ov : 0;
		}
		for (size_t i = cp->ilen; i-- > 0;) {
			const struct wk_irq *q = wk_irq_at(cp, i);

			if (q->end <= start)
				break;
			s->irq_ns += overlap(q->start, q->end, start, end);
		}
		s->stall_ns = w->recent.nstall ? wk_stall_overlap(w, (int32_t)k, start, end) : 0;
		s->unknown_ns = c->latency_ns - s->busy_ns - s->idle_ns - s->stall_ns;
		if (s->unknown_ns < 0)
			s->unknown_ns = 0;
	}
}

/*
 * A switch whose previous task was not the CPU's current one leaves the slice
 * of the task the switches said ran ending there, then an empty slice of the
 * task switched out (on_switch()): that task ran at an unknown point of the
 * slice before.  The longest such slice inside the wait, another task's than
 * the case's own (an inferred switch-in of its own is end_low_ns).
 */
static void unseen_ins(const struct wk_cpu *cpu, struct lat_wake_case *c)
{
	c->unseen_pid = -1;
	c->unseen_ns = 0;
	c->unseen_comm[0] = 0;
	for (size_t i = cpu->rlen; i-- > 1;) {
		const struct wk_slice *s = wk_ring_at(cpu, i), *b = wk_ring_at(cpu, i - 1);
		int64_t ov;

		if (s->end <= c->start_ns)
			break;
		if (s->start != s->end || s->pid <= 0 || s->pid == c->pid || b->end != s->start ||
		    b->pid == s->pid)
			continue;
		ov = overlap(b->start, b->end, c->start_ns, c->end_ns);
		if (ov > c->unseen_ns) {
			c->unseen_ns = ov;
			c->unseen_pid = s->pid;
			memcpy(c->unseen_comm, s->comm, LAT_COMM_LEN);
		}
	}
}

static void build_case(struct wk *w, const struct wk_cpu *cpu, struct lat_wake_case *c)
{
	struct wk_cases *cs = &w->cases;
	int64_t covered;
	size_t g, i, n;

	queued_case(w, c);
	/* who held the CPU: every task in the window, the longest named */
	g = hold_slices(w, cpu, c->start_ns, c->end_ns, &covered, &i);
	c->non_cpu = hold_top(w, LAT_WAKE_ONCPU_MAX, &c->other_ns);
	c->other_tasks = g - c->non_cpu;
	for (size_t k = 0; k < c->non_cpu; k++)
		oncpu_from(cpu, &cs->hold[k], &c->on_cpu[k]);
	c->stall_ns = w->recent.nstall ? wk_stall_overlap(w, cpu->id, c->start_ns, c->end_ns) : 0;
	c->nstalls = 0;
	for (size_t k = 0; k < w->recent.nstall && c->nstalls < LAT_WAKE_CASE_STALLS; k++) {
		const struct lat_wake_stall *s = wk_recent_stall(&w->recent, k);

		if ((s->cpu < 0 || s->cpu == cpu->id || s->cpu == c->queued_cpu) &&
		    overlap(s->from_ns, s->to_ns, c->start_ns, c->end_ns))
			c->stalls[c->nstalls++] = *s;
	}
	cpu_shares(w, c);
	unseen_ins(cpu, c);
	c->unaccounted_ns = c->latency_ns - covered - c->stall_ns;
	if (c->unaccounted_ns < 0)
		c->unaccounted_ns = 0;
	/* the ring ran out before the wait's start: say so rather than guess */
	c->partial = i == (size_t)-1 && cpu->rlen == cpu->rcap && c->unaccounted_ns > 0;

	/* irq and softirq handlers in the window, likewise */
	g = 0;
	if (!hold_reset(w)) {
		for (i = cpu->ilen; i-- > 0;) {
			const struct wk_irq *q = wk_irq_at(cpu, i);
			int64_t ov;

			if (q->end <= c->start_ns)
				break;
			ov = overlap(q->start, q->end, c->start_ns, c->end_ns);
			if (ov)
				hold_add(w, (int64_t)q->irq * 2 + q->soft, (uint32_t)i, ov, -1);
		}
		g = cs->nhold;
	}
	c->nirqs = 0;
	c->other_irq_ns = 0;
	n = g ? hold_top(w, LAT_WAKE_IRQS_MAX, &c->other_irq_ns) : 0;
	c->other_irqs = g - n;
	for (size_t k = 0; k < n; k++) {
		const struct wk_hold *e = &cs->hold[k];
		const struct wk_irq *q = wk_irq_at(cpu, e->idx);

		c->irqs[c->nirqs] = (struct lat_wake_irq){ .softirq = q->soft, .irq = q->irq,
							   .ns = e->ns, .count = e->n };
		memcpy(c->irqs[c->nirqs].name, q->name, sizeof(c->irqs[0].name));
		c->nirqs++;
	}
	c->markers_dropped = 0;
	for (i = 0; i < w->recent.mlen; i++) {
		const struct lat_wake_marker *m = wk_recent_mark(&w->recent, i);

		if (m->ts_ns < c->start_ns || m->ts_ns > c->end_ns)
			continue;
		if (c->nmarkers < LAT_WAKE_MARKERS_MAX)
			c->markers[c->nmarkers++] = *m;
		else
			c->markers_dropped++;
	}
}

/* ---- timeline windows ------------------------------------------------------------- */

/*
 * A case's explanation and timeline are built when its window closes (end +
 * half the latency, at least 100 us), from the rings: most cases that enter the
 * worst N are pushed out again before that (411 of 472 on the hackbench
 * fixture x8), and those cost nothing but their header.
 */

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

static void tl_mark(struct wk *w, struct wk_worst *x, enum lat_tl_mark_kind kind, uint64_t start,
		    uint64_t end, int32_t cpu, int32_t other, int32_t pid, int64_t value,
		    const char *label)
{
	struct lat_timeline *tl = x->c.tl;
	struct lat_tl_mark *m;
	size_t n = label ? strnlen(label, sizeof(m->label) - 1) : 0;

	if (tl->nmarks == x->mkcap &&
	    lat_grow(&tl->marks, &x->mkcap, tl->nmarks + 1, sizeof(*tl->marks))) {
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

/* The index of the first slice of @cpu's ring that ends after @ts. */
static size_t ring_from(const struct wk_cpu *cpu, uint64_t ts)
{
	size_t k;

	for (k = cpu->rlen; k > 0 && wk_ring_at(cpu, k - 1)->end > ts; k--)
		;
	return k;
}

/* The slices of every CPU in [tl->start_ns, until], then what each CPU runs at @until. */
static void tl_slices(struct wk *w, struct wk_worst *x, uint64_t until)
{
	struct wk_cases *cs = &w->cases;
	struct lat_timeline *tl = x->c.tl;
	size_t need = 0;

	/*
	 * Sized once, in a huge-page mapping reused from a case pushed out: a
	 * 4 KiB page fault costs ~10 us on a VM, and a window of a long wait holds
	 * thousands of slices.
	 */
	for (size_t i = 0; i < w->ncpus; i++)
		if (w->cpus[i])
			need += w->cpus[i]->rlen - ring_from(w->cpus[i], tl->start_ns) + 1;
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
			w->oom = 1;
			return;
		}
		x->slcap = (x->slmaplen - LAT_BIGMAP_UNIT) / sizeof(*tl->slices);
	}
	for (size_t i = 0; i < w->ncpus; i++) {
		const struct wk_cpu *cpu = w->cpus[i];
		size_t k;

		if (!cpu)
			continue;
		for (k = ring_from(cpu, tl->start_ns); k < cpu->rlen; k++) {
			const struct wk_slice *s = wk_ring_at(cpu, k);

			if (s->start >= tl->end_ns)
				break;
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
			tl_mark(w, x, q->soft ? LAT_TL_SOFTIRQ : LAT_TL_IRQ, q->start, q->end,
				(int32_t)i, -1, -1, -1, q->name);
		}
	}
}

/* The window can only start where every full ring still has slices. */
static uint64_t tl_kept_from(const struct wk *w, uint64_t ws)
{
	for (size_t i = 0; i < w->ncpus; i++) {
		const struct wk_cpu *cpu = w->cpus[i];

		if (cpu && cpu->rlen == cpu->rcap && wk_ring_at(cpu, 0)->start > ws)
			ws = wk_ring_at(cpu, 0)->start;
	}
	return ws;
}

static void build_timeline(struct wk *w, struct wk_worst *x, uint64_t until)
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
		w->oom = 1;
		return;
	}
	tl->start_ns = tl_kept_from(w, x->ws);
	tl->end_ns = until < x->we ? (until > tl->start_ns ? until : tl->start_ns) : x->we;
	tl->ncpus = (int)w->ncpus;
	snprintf(tl->title, sizeof(tl->title), "%.15s/%d waited %s on CPU%d", c->comm, c->pid,
		 lat_fmt_duration(c->latency_ns, d, sizeof(d)), c->cpu);
	tl_slices(w, x, until);
	for (size_t i = 0; i < w->recent.mlen; i++) {
		const struct lat_wake_marker *m = wk_recent_mark(&w->recent, i);

		if (m->ts_ns >= tl->start_ns && m->ts_ns <= tl->end_ns)
			tl_mark(w, x, LAT_TL_MARKER, m->ts_ns, m->ts_ns, m->cpu, -1, m->pid,
				m->lat_ns, m->text);
	}
	/* every migration the ring still has, then the case's own older than the ring */
	for (size_t i = 0; i < w->recent.nmig; i++) {
		const struct wk_mig *m = wk_recent_mig(&w->recent, i);

		if (m->ts_ns >= tl->start_ns && m->ts_ns <= tl->end_ns)
			tl_mark(w, x, LAT_TL_MIGRATE, m->ts_ns, m->ts_ns, m->from_cpu, m->to_cpu,
				m->pid, -1, m->comm);
	}
	for (size_t i = 0; i < c->nmigr; i++)
		if (!w->recent.nmig || c->migr[i].ts_ns < wk_recent_mig(&w->recent, 0)->ts_ns)
			tl_mark(w, x, LAT_TL_MIGRATE, c->migr[i].ts_ns, c->migr[i].ts_ns,
				c->migr[i].from_cpu, c->migr[i].to_cpu, c->pid, -1, c->comm);
	for (size_t i = 0; i < w->recent.ngap; i++) {
		const struct lat_wake_gap *g = wk_recent_gap(&w->recent, i);

		if (g->to_ns >= tl->start_ns && g->to_ns <= tl->end_ns)
			tl_mark(w, x, LAT_TL_LOST, g->to_ns, g->to_ns, g->cpu, -1, -1,
				(int64_t)g->count, "lost events");
	}
	if (c->waker.cpu >= 0)
		tl_edge(tl, c->start_ns, &c->waker, c->queued_cpu >= 0 ? c->queued_cpu : c->cpu,
			c->pid);
	if (c->queued_until_ns) {
		/* the CPU it was queued on is why it waited (queued_case()) */
		const struct lat_wake_oncpu *h = busiest(c->queued_on, c->nqueued_on);

		tl_bracket(tl, c->start_ns, c->end_ns, c->cpu, c->pid, c->comm,
			   h ? h->pid : -1, h ? h->comm : NULL, h ? h->ns : 0,
			   ran_count(c->queued_on, c->nqueued_on) + c->queued_other_tasks);
		tl->brackets[tl->nbrackets - 1].queued_cpu = c->queued_cpu;
		tl->brackets[tl->nbrackets - 1].queued_until_ns = c->queued_until_ns;
	} else {
		const struct lat_wake_oncpu *h = busiest(c->on_cpu, c->non_cpu);

		tl_bracket(tl, c->start_ns, c->end_ns, c->cpu, c->pid, c->comm,
			   h ? h->pid : -1, h ? h->comm : NULL, h ? h->ns : 0,
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

/*
 * Explains @x, at @rank in the worst list, from the rings as they are at @until
 * (its window's end, or the trace's).  A case only moves down the list once
 * there, so one ranked past the timelines asked for never needs one.
 */
static void build(struct wk *w, struct wk_worst *x, size_t rank, uint64_t until)
{
	struct wk_cases *cs = &w->cases;
	struct wk_cpu *cpu = x->c.cpu >= 0 && (size_t)x->c.cpu < w->ncpus ? w->cpus[x->c.cpu] :
			     NULL;

	x->open = 0;
	cs->nopen--;
	if (cpu)
		build_case(w, cpu, &x->c);
	for (size_t i = 0; i < x->c.nchain; i++)
		wk_resolve_link(w, &x->c.chain[i]);
	wk_verdict(&x->c);
	wk_chain_verdict(&x->c, w->o->threshold_ns);
	if (rank < (size_t)(w->o->timelines > 0 ? w->o->timelines : 0))
		build_timeline(w, x, until);
}

/* Builds the open cases whose window ended before @ts; notes when the next one ends. */
void wk_cap_tick(struct wk *w, uint64_t ts)
{
	struct wk_cases *cs = &w->cases;
	uint64_t next = UINT64_MAX;

	for (size_t i = 0; i < cs->nworst && cs->nopen; i++) {
		struct wk_worst *x = cs->worst[i];

		if (!x->open)
			continue;
		if (ts > x->we)
			build(w, x, i, x->we);
		else if (x->we < next)
			next = x->we;
	}
	cs->next_we = next;
}

void wk_cap_close_all(struct wk *w)
{
	struct wk_cases *cs = &w->cases;

	for (size_t i = 0; i < cs->nworst; i++)
		if (cs->worst[i]->open)
			build(w, cs->worst[i], i, w->r->last_ns < cs->worst[i]->we ? w->r->last_ns :
			      cs->worst[i]->we);
}

static void worst_free(struct wk_worst *x)
{
	if (!x)
		return;
	if (x->slmap) {
		if (x->c.tl)
			x->c.tl->slices = NULL;
		lat_bigmap_free(x->slmap, x->slmaplen);
	}
	lat_timeline_free(x->c.tl);
	free(x);
}

/* Moves @x's case into @out; its timeline takes the slices' mapping along. */
static int worst_take(struct wk_worst *x, struct lat_wake_case *out)
{
	struct lat_timeline *tl = x->c.tl;

	if (tl && x->slmap) {
		tl->slices_map = x->slmap;
		tl->slices_maplen = x->slmaplen;
		x->slmap = NULL;
	}
	*out = x->c;
	x->c.tl = NULL;
	return 0;
}

/* Keeps @x's slice buffer for reuse in place of the smallest spare (or frees it). */
static void keep_spare(struct wk *w, struct wk_worst *x)
{
	struct wk_cases *cs = &w->cases;
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

static void spares_free(struct wk_cases *cs)
{
	for (size_t i = 0; i < WK_SPARES; i++)
		if (cs->spares[i].p)
			lat_bigmap_free(cs->spares[i].map, cs->spares[i].maplen);
}

/* Room for @worst_n cases (and one more); no window open yet. */
int wk_cases_init(struct wk_cases *cs, int worst_n)
{
	cs->next_we = UINT64_MAX;
	cs->worst = calloc(worst_n > 0 ? (size_t)worst_n + 1 : 1, sizeof(*cs->worst));
	return cs->worst ? 0 : -LAT_ENOMEM;
}

/* Moves the cases into @r->worst (best first), with their timelines. */
int wk_cases_take(struct wk_cases *cs, struct lat_wakeup_result *r)
{
	if (cs->nworst && !(r->worst = calloc(cs->nworst, sizeof(*r->worst))))
		return -LAT_ENOMEM;
	for (size_t i = 0; i < cs->nworst; i++) {
		if (worst_take(cs->worst[i], &r->worst[r->nworst]))
			return -LAT_ENOMEM;
		r->nworst++;
	}
	return 0;
}

void wk_cases_free(struct wk_cases *cs)
{
	for (size_t i = 0; i < cs->nworst; i++)
		worst_free(cs->worst[i]);
	free(cs->worst);
	spares_free(cs);
	free(cs->hold);
	free(cs->hold_ix);
}

static void insert_worst(struct wk *w, const struct lat_wake_case *c)
{
	struct wk_cases *cs = &w->cases;
	struct wk_worst *x = calloc(1, sizeof(*x));
	uint64_t margin = (uint64_t)c->latency_ns / 2;
	size_t pos;

	if (!x) {
		w->oom = 1;
		return;
	}
	x->c = *c;
	if (margin < 100 * LAT_NS_PER_US)
		margin = 100 * LAT_NS_PER_US;
	x->ws = c->start_ns > margin ? c->start_ns - margin : 0;
	x->we = c->end_ns + margin;
	if (cs->nworst == (size_t)w->o->worst_n) {
		struct wk_worst *last = cs->worst[--cs->nworst];

		if (last->open)
			cs->nopen--;
		if (last->slmap)
			keep_spare(w, last);
		worst_free(last);
	}
	for (pos = cs->nworst; pos > 0 && wk_rank_ns(&cs->worst[pos - 1]->c) < wk_rank_ns(c); pos--)
		;
	memmove(&cs->worst[pos + 1], &cs->worst[pos], (cs->nworst - pos) * sizeof(*cs->worst));
	cs->worst[pos] = x;
	cs->nworst++;
	x->open = 1;
	cs->nopen++;
	if (x->we < cs->next_we)
		cs->next_we = x->we;
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
			if (ov && s->pid > 0 && s->stack >= 0)
				wk_stack_blame_run(&w->stacks, s->stack, ov);
		}
	}
	if (!d->candidate || !wk_qualifies(w, wk_rank_ns(&d->c)))
		return;
	(void)cpu;
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
	t->slices_map = NULL;	/* the copy's slices are its own */
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
