// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The worst wakeups (wakeup_case.h), explained from the history when their
 * window has passed: who held the CPU (slices, irqs), where it was queued,
 * the stalls and markers inside the wait, its chain and its verdict.  Bounded
 * by worst_n.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wakeup_case.h"
#include "wakeup_verdict.h"

static int64_t overlap(uint64_t a0, uint64_t a1, uint64_t b0, uint64_t b1)
{
	uint64_t lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;

	return hi > lo ? (int64_t)(hi - lo) : 0;
}

/* Empties the grouping scratch (hold, hold_ix); -1 (and oom) without memory. */
static int hold_reset(struct wk_cases *cs)
{
	if (!cs->hold_ix) {
		cs->hold_hcap = 256;
		cs->hold_ix = malloc(cs->hold_hcap * sizeof(*cs->hold_ix));
		if (!cs->hold_ix) {
			*cs->oom = 1;
			return -1;
		}
	}
	memset(cs->hold_ix, 0xff, cs->hold_hcap * sizeof(*cs->hold_ix));
	cs->nhold = 0;
	return 0;
}

static size_t hold_slot(const struct wk_cases *cs, int64_t key)
{
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
static void hold_add(struct wk_cases *cs, int64_t key, uint32_t idx, int64_t ns,
		     int64_t longest)
{
	size_t i = hold_slot(cs, key);
	struct wk_hold *g;

	if (cs->hold_ix[i] < 0) {
		if (lat_grow(&cs->hold, &cs->hold_cap, cs->nhold + 1, sizeof(*cs->hold)) < 0) {
			*cs->oom = 1;
			return;
		}
		if ((cs->nhold + 1) * 2 > cs->hold_hcap) {
			int32_t *ix = malloc(2 * cs->hold_hcap * sizeof(*ix));

			if (!ix) {
				*cs->oom = 1;
				return;
			}
			free(cs->hold_ix);
			cs->hold_ix = ix;
			cs->hold_hcap *= 2;
			memset(ix, 0xff, cs->hold_hcap * sizeof(*ix));
			for (size_t k = 0; k < cs->nhold; k++)
				ix[hold_slot(cs, cs->hold[k].key)] = (int32_t)k;
			i = hold_slot(cs, key);
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
static size_t hold_top(struct wk_cases *cs, size_t k, int64_t *rest)
{
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

/* The slice [s0, s1)'s time inside [start, end), less what fell inside a stall. */
static int64_t slice_ns(const struct wk_cases *cs, const struct wk_hcpu *c, uint64_t s0,
			uint64_t s1, uint64_t start, uint64_t end)
{
	int64_t ov = overlap(s0, s1, start, end);

	if (ov && cs->h->nstall)
		ov -= wk_stall_overlap(cs->h, c->id, s0 > start ? s0 : start, s1 < end ? s1 : end);
	return ov;
}

/*
 * Groups @c's slices that overlap [start, end) by task, into cases.hold (every
 * task counts, however many shared the window; hold_top() finds the longest);
 * their number.
 * *covered gets the time they cover, *missing the time of the stretches of no
 * known task (a switch missing) inside; *stop the position below the oldest one
 * looked at, (size_t)-1 when the ring ran out first.
 */
static size_t hold_slices(struct wk_cases *cs, const struct wk_hcpu *c, uint64_t start,
			  uint64_t end, int64_t *covered, int64_t *missing, size_t *stop)
{
	size_t i;

	*covered = *missing = 0;
	*stop = (size_t)-1;
	if (hold_reset(cs))
		return 0;
	/* the task on the CPU now: its slice is not in the ring yet (idx rlen) */
	if (c->cur_known) {
		int64_t ov = slice_ns(cs, c, c->cur_start, end, start, end);

		if (ov) {
			hold_add(cs, c->cur_pid, (uint32_t)c->rlen, ov, -1);
			*covered += ov;
		}
	}
	for (i = c->rlen; i-- > 0;) {
		const struct wk_slice *s = wk_ring_at(c, i);
		int64_t ov;

		if (s->end <= start)
			break;
		ov = slice_ns(cs, c, s->start, s->end, start, end);
		if (ov <= 0)
			continue;
		if (s->pid == WK_PID_UNKNOWN) {
			*missing += ov;	/* not covered: the case's unknown */
			continue;
		}
		hold_add(cs, s->pid, (uint32_t)i, ov, s->stack >= 0 ? ov : -1);
		*covered += ov;
	}
	*stop = i;
	return cs->nhold;
}

/* Fills @o from hold group @e of @cpu's ring (idx rlen: the task on the CPU now). */
static void oncpu_from(const struct wk_hcpu *cpu, const struct wk_hold *e,
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
static void resolve_link(struct wk_cases *cs, struct lat_wake_link *l)
{
	const struct wk_hcpu *c;
	struct lat_wake_oncpu o;
	int64_t covered, missing, rest;
	size_t n, stop;

	if (l->held_by_pid != WK_HELD_LAZY)
		return;
	l->held_by_pid = -1;
	l->held_ns = 0;
	if (l->cpu < 0 || (size_t)l->cpu >= cs->h->ncpus || !(c = cs->h->cpus[l->cpu]))
		return;
	if (c->rlen == c->rcap && wk_ring_at(c, 0)->end > l->start_ns) {
		l->held_unknown = 1;
		return;
	}
	n = hold_slices(cs, c, l->start_ns, l->end_ns, &covered, &missing, &stop);
	if (!n || !hold_top(cs, 1, &rest))
		return;
	oncpu_from(c, &cs->hold[0], &o);
	l->held_by_pid = o.pid;
	l->held_ns = o.ns;
	memcpy(l->held_by_comm, o.comm, LAT_COMM_LEN);
}

/*
 * A task queued on one CPU and run on another: who ran on the queue it left
 * last (queued_left_cpu) while it waited there.  That CPU, not the one it ran
 * on (often idle, which pulled it), is why it waited.
 */
static void queued_case(struct wk_cases *cs, struct lat_wake_case *c)
{
	const struct wk_hcpu *q;
	int64_t covered, missing;
	size_t g, stop;

	c->nqueued_on = 0;
	c->queued_other_ns = 0;
	c->queued_other_tasks = 0;
	if (!c->queued_until_ns || c->queued_left_cpu < 0 ||
	    (size_t)c->queued_left_cpu >= cs->h->ncpus || !(q = cs->h->cpus[c->queued_left_cpu]))
		return;
	g = hold_slices(cs, q, c->queued_from_ns, c->queued_until_ns, &covered, &missing, &stop);
	c->nqueued_on = hold_top(cs, LAT_WAKE_QUEUED_MAX, &c->queued_other_ns);
	c->queued_other_tasks = g - c->nqueued_on;
	for (size_t k = 0; k < c->nqueued_on; k++)
		oncpu_from(q, &cs->hold[k], &c->queued_on[k]);
}

/*
 * Each CPU's time in [start, end): running a task, idle, in a stall (charged
 * to neither), unknown (older than its ring, or before its first switch); and
 * the irq time inside that.
 */
static void cpu_shares(struct wk_cases *cs, struct lat_wake_case *c)
{
	const struct wk_history *h = cs->h;
	uint64_t start = c->start_ns, end = c->end_ns;

	c->ncpushare = 0;
	for (size_t k = 0; k < h->ncpus && c->ncpushare < LAT_WAKE_CPUSHARE_MAX; k++) {
		const struct wk_hcpu *cp = h->cpus[k];
		struct lat_wake_cpushare *s;
		int64_t ov;

		if (!cp)
			continue;
		s = &c->cpushare[c->ncpushare++];
		memset(s, 0, sizeof(*s));
		s->cpu = (int32_t)k;
		if (cp->cur_known) {
			ov = slice_ns(cs, cp, cp->cur_start, end, start, end);
			*(cp->cur_pid == 0 ? &s->idle_ns : &s->busy_ns) += ov > 0 ? ov : 0;
		}
		for (size_t i = cp->rlen; i-- > 0;) {
			const struct wk_slice *sl = wk_ring_at(cp, i);

			if (sl->end <= start)
				break;
			if (sl->pid == WK_PID_UNKNOWN)
				continue;	/* neither busy nor idle: the unknown */
			ov = slice_ns(cs, cp, sl->start, sl->end, start, end);
			*(sl->pid == 0 ? &s->idle_ns : &s->busy_ns) += ov > 0 ? ov : 0;
		}
		for (size_t i = cp->ilen; i-- > 0;) {
			const struct wk_irq *q = wk_irq_at(cp, i);

			if (q->end <= start)
				break;
			s->irq_ns += overlap(q->start, q->end, start, end);
		}
		s->stall_ns = h->nstall ? wk_stall_overlap(h, (int32_t)k, start, end) : 0;
		s->unknown_ns = c->latency_ns - s->busy_ns - s->idle_ns - s->stall_ns;
		if (s->unknown_ns < 0)
			s->unknown_ns = 0;
	}
}

/* The longest unseen switch-in inside the wait (wk_history_unseen()). */
static void unseen_ins(const struct wk_hcpu *cpu, struct lat_wake_case *c)
{
	struct wk_unseen u;

	wk_history_unseen(cpu, c->pid, c->start_ns, c->end_ns, &u);
	c->unseen_pid = u.pid;
	c->unseen_ns = u.ns;
	memcpy(c->unseen_comm, u.comm, LAT_COMM_LEN);
}

/* The stalls the case overlaps (on its CPU, the CPU it was queued on, or every CPU). */
static void case_stalls(const struct wk_history *h, const struct wk_hcpu *cpu,
			struct lat_wake_case *c)
{
	c->stall_ns = h->nstall ? wk_stall_overlap(h, cpu->id, c->start_ns, c->end_ns) : 0;
	c->nstalls = 0;
	for (size_t k = 0; k < h->nstall && c->nstalls < LAT_WAKE_CASE_STALLS; k++) {
		const struct lat_wake_stall *s = wk_recent_stall(h, k);

		if ((s->cpu < 0 || s->cpu == cpu->id || s->cpu == c->queued_cpu) &&
		    overlap(s->from_ns, s->to_ns, c->start_ns, c->end_ns))
			c->stalls[c->nstalls++] = *s;
	}
}

/* The irq and softirq handlers on the CPU in the wait, the longest named. */
static void case_irqs(struct wk_cases *cs, const struct wk_hcpu *cpu, struct lat_wake_case *c)
{
	size_t g = 0, n;

	if (!hold_reset(cs)) {
		for (size_t i = cpu->ilen; i-- > 0;) {
			const struct wk_irq *q = wk_irq_at(cpu, i);
			int64_t ov;

			if (q->end <= c->start_ns)
				break;
			ov = overlap(q->start, q->end, c->start_ns, c->end_ns);
			if (ov)
				hold_add(cs, (int64_t)q->irq * 2 + q->soft, (uint32_t)i, ov, -1);
		}
		g = cs->nhold;
	}
	c->nirqs = 0;
	c->other_irq_ns = 0;
	n = g ? hold_top(cs, LAT_WAKE_IRQS_MAX, &c->other_irq_ns) : 0;
	c->other_irqs = g - n;
	for (size_t k = 0; k < n; k++) {
		const struct wk_hold *e = &cs->hold[k];
		const struct wk_irq *q = wk_irq_at(cpu, e->idx);

		c->irqs[c->nirqs] = (struct lat_wake_irq){ .softirq = q->soft, .irq = q->irq,
							   .ns = e->ns, .count = e->n };
		memcpy(c->irqs[c->nirqs].name, q->name, sizeof(c->irqs[0].name));
		c->nirqs++;
	}
}

/*
 * The markers (any CPU) inside the wait, the first LAT_WAKE_MARKERS_MAX, of the last
 * WK_MARK_RING: with timelines the ring holds more (WK_MARK_RING_TL), and the explanation must
 * not depend on it (`latscope report` explains and draws from one analysis, docs/report.md).
 */
static void case_markers(const struct wk_history *h, struct lat_wake_case *c)
{
	c->markers_dropped = 0;
	for (size_t i = h->mlen > WK_MARK_RING ? h->mlen - WK_MARK_RING : 0; i < h->mlen; i++) {
		const struct lat_wake_marker *m = wk_recent_mark(h, i);

		if (m->ts_ns < c->start_ns || m->ts_ns > c->end_ns)
			continue;
		if (c->nmarkers < LAT_WAKE_MARKERS_MAX)
			c->markers[c->nmarkers++] = *m;
		else
			c->markers_dropped++;
	}
}

static void build_case(struct wk_cases *cs, const struct wk_hcpu *cpu, struct lat_wake_case *c)
{
	int64_t covered;
	size_t g, i;

	queued_case(cs, c);
	/* who held the CPU: every task in the window, the longest named */
	g = hold_slices(cs, cpu, c->start_ns, c->end_ns, &covered, &c->missing_ns, &i);
	c->non_cpu = hold_top(cs, LAT_WAKE_ONCPU_MAX, &c->other_ns);
	c->other_tasks = g - c->non_cpu;
	for (size_t k = 0; k < c->non_cpu; k++)
		oncpu_from(cpu, &cs->hold[k], &c->on_cpu[k]);
	case_stalls(cs->h, cpu, c);
	cpu_shares(cs, c);
	unseen_ins(cpu, c);
	c->unaccounted_ns = c->latency_ns - covered - c->stall_ns;
	if (c->unaccounted_ns < 0)
		c->unaccounted_ns = 0;
	if (c->missing_ns > c->unaccounted_ns)
		c->missing_ns = c->unaccounted_ns;
	/* the ring ran out before the wait's start: say so rather than guess */
	c->partial = i == (size_t)-1 && cpu->rlen == cpu->rcap && c->unaccounted_ns > 0;
	case_irqs(cs, cpu, c);
	case_markers(cs->h, c);
}

/* ---- the case's verdict --------------------------------------------------------------- */

/* The longest holder of each cause, for the verdict's evidence. */
struct vtops {
	const struct lat_wake_oncpu *top[LAT_VERDICT_N];
	size_t ntasks;			/* tasks (not idle) that held the CPU */
	int64_t unk_class;		/* of them, of no known class */
	const struct lat_wake_oncpu *unk_top;
};

/* One holder's time into its cause: idle, no known class, or its rank against the waiter. */
static void holder_part(const struct lat_wake_case *c, const struct lat_wake_oncpu *h,
			struct wk_parts *p, struct vtops *t)
{
	enum lat_verdict_kind hk;

	if (h->pid == 0) {
		hk = LAT_VERDICT_IDLE;
		p->idle_ns += h->ns;
	} else if (lat_sched_policy_of(h->prio) == LAT_POL_UNKNOWN &&
		   lat_sched_policy_of(c->prio) != LAT_POL_UNKNOWN) {
		/* no switch or waking of it said its class: no claim of priority */
		hk = LAT_VERDICT_UNTRUSTED;
		p->unknown_ns += h->ns;
		t->unk_class += h->ns;
		if (!t->unk_top)
			t->unk_top = h;
		t->ntasks++;
	} else {
		int rk = wk_rank(c->prio, h->prio);

		hk = rk > 0 ? LAT_VERDICT_HIGHER_PRIORITY : rk < 0 ?
		     LAT_VERDICT_NOT_PREEMPTIBLE : LAT_VERDICT_CPU_SATURATED;
		*(rk > 0 ? &p->higher_ns : rk < 0 ? &p->lower_ns : &p->same_ns) += h->ns;
		t->ntasks++;
	}
	if (!t->top[hk])
		t->top[hk] = h;	/* longest first */
}

/* The parts of case @c as built (holders, irqs, stalls, queued, the unknown). */
static void case_parts(const struct lat_wake_case *c, struct wk_parts *p, struct vtops *t)
{
	memset(p, 0, sizeof(*p));
	memset(t, 0, sizeof(*t));
	p->lat_ns = c->latency_ns > 0 ? c->latency_ns : 1;
	t->ntasks = c->other_tasks;
	for (size_t i = 0; i < c->non_cpu; i++)
		holder_part(c, &c->on_cpu[i], p, t);
	/* the tasks past the ones named: counted as sharing (their class is not kept) */
	p->same_ns += c->other_ns;
	p->irq_ns = c->other_irq_ns;	/* inside the holders' time: wins only over half */
	for (size_t i = 0; i < c->nirqs; i++)
		p->irq_ns += c->irqs[i].ns;
	p->stall_ns = c->stall_ns;
	p->unknown_ns += c->unaccounted_ns;
	if (c->queued_until_ns > c->start_ns)
		p->queued_ns = (int64_t)(c->queued_until_ns - c->start_ns);
	p->queued_busy = c->nqueued_on && c->queued_on[0].pid != 0;
	if (c->inferred_end && c->end_ns > c->end_low_ns)
		p->unsure_ns = (int64_t)(c->end_ns - c->end_low_ns);
	if (c->unseen_pid > 0)
		p->unseen_ns = c->unseen_ns;
}

/* The time behind verdict @k on @basis in @p. */
static int64_t part_of(const struct wk_parts *p, enum lat_verdict_kind k,
		       enum lat_verdict_basis basis)
{
	if (basis == LAT_VBASIS_INFERRED)
		return p->unsure_ns;
	if (basis == LAT_VBASIS_UNSEEN)
		return p->unseen_ns;
	if (basis == LAT_VBASIS_MOVED)
		return p->lat_ns;
	switch (k) {
	case LAT_VERDICT_CPU_SATURATED:
		return p->same_ns;
	case LAT_VERDICT_HIGHER_PRIORITY:
		return p->higher_ns;
	case LAT_VERDICT_NOT_PREEMPTIBLE:
		return p->lower_ns;
	case LAT_VERDICT_IRQ:
		return p->irq_ns;
	case LAT_VERDICT_STALL:
		return p->stall_ns;
	case LAT_VERDICT_QUEUED:
		return p->queued_ns;
	case LAT_VERDICT_IDLE:
		return p->idle_ns;
	case LAT_VERDICT_UNTRUSTED:
		return p->unknown_ns;
	default:
		return 0;
	}
}

/*
 * The verdict of case @c, by the engine from the case's parts; a wait judged
 * when it ended (@judged >= 0, on @jbasis) keeps that verdict: one wait, one
 * verdict (its parts here are the evidence shown).
 */
static void case_verdict(struct lat_wake_case *c, int judged, enum lat_verdict_basis jbasis)
{
	struct lat_wake_verdict *v = &c->verdict;
	struct wk_judgement j;
	struct wk_parts p;
	struct vtops t;
	const struct lat_wake_oncpu *who;

	case_parts(c, &p, &t);
	wk_judge(&p, &j);
	if (judged >= 0 && (j.kind != (enum lat_verdict_kind)judged || j.basis != jbasis)) {
		j.kind = (enum lat_verdict_kind)judged;
		j.basis = jbasis;
		j.part_ns = part_of(&p, j.kind, j.basis);
	}
	memset(v, 0, sizeof(*v));
	v->kind = j.kind;
	v->basis = j.basis;
	v->part_ns = j.part_ns;
	v->share = (double)j.part_ns / (double)p.lat_ns;
	if (v->share > 1)
		v->share = 1;
	v->ntasks = t.ntasks;
	who = j.kind < LAT_VERDICT_N ? t.top[j.kind] : NULL;
	if (j.kind == LAT_VERDICT_QUEUED)
		who = c->nqueued_on ? &c->queued_on[0] : NULL;
	if (j.kind == LAT_VERDICT_UNTRUSTED) {
		v->unknown_class = j.basis == LAT_VBASIS_PARTS && t.unk_top &&
				   t.unk_class * 2 > j.part_ns;
		who = v->unknown_class ? t.unk_top : NULL;
	}
	if (who)
		v->holder = *who;
	else
		v->holder.pid = -1;
}

/* The queue @c left last (@x), or the one it was queued on first if it ran elsewhere. */
static void queued_span(struct lat_wake_case *c, const struct wk_end_detail *x)
{
	c->queued_left_cpu = -1;
	c->queued_from_ns = c->queued_until_ns = 0;
	if (x->left_cpu >= 0) {
		c->queued_left_cpu = x->left_cpu;
		c->queued_from_ns = x->left_from;
		c->queued_until_ns = x->left_until;
	} else if (c->queued_cpu >= 0 && c->queued_cpu != c->cpu) {
		c->queued_left_cpu = c->queued_cpu;	/* moved unseen */
		c->queued_from_ns = c->start_ns;
		c->queued_until_ns = c->end_ns;
	}
}

/* ---- the worst list --------------------------------------------------------------------- */

/*
 * Explains @x, at @rank in the worst list, from the history as it is at
 * @until (its window's end, or the trace's).  A case only moves down the list
 * once there, so one ranked past the timelines asked for never needs one.
 */
static void build(struct wk_cases *cs, struct wk_worst *x, size_t rank, uint64_t until)
{
	const struct wk_hcpu *cpu = x->c.cpu >= 0 && (size_t)x->c.cpu < cs->h->ncpus ?
				    cs->h->cpus[x->c.cpu] : NULL;

	x->open = 0;
	cs->nopen--;
	if (cpu)
		build_case(cs, cpu, &x->c);
	for (size_t i = 0; i < x->c.nchain; i++)
		resolve_link(cs, &x->c.chain[i]);
	case_verdict(&x->c, x->verdict, x->vbasis);
	wk_chain_verdict(&x->c, cs->threshold_ns);
	if (rank < (size_t)(cs->timelines > 0 ? cs->timelines : 0))
		wk_tl_build(cs, x, until);
	else if (x->c.tl)
		wk_tl_drop(cs, x);	/* snapped, then pushed down past the timelines */
}

/* When open case @x at @rank needs the stream next: its timeline's snap, else its build. */
static uint64_t due(const struct wk_cases *cs, const struct wk_worst *x, size_t rank)
{
	return !x->c.tl && rank < (size_t)(cs->timelines > 0 ? cs->timelines : 0) ? x->twe : x->we;
}

void wk_cases_tick(struct wk_cases *cs, uint64_t ts)
{
	uint64_t next = UINT64_MAX;

	for (size_t i = 0; i < cs->nworst && cs->nopen; i++) {
		struct wk_worst *x = cs->worst[i];

		if (!x->open)
			continue;
		if (ts > x->we) {
			build(cs, x, i, x->we);
			continue;
		}
		/* a long wait's timeline: what ran, before the rings lose the end of its wait */
		if (ts > due(cs, x, i))
			wk_tl_snap(cs, x, x->twe);
		if (due(cs, x, i) < next)
			next = due(cs, x, i);
	}
	cs->next_we = next;
}

void wk_cases_close_all(struct wk_cases *cs, uint64_t last_ns)
{
	for (size_t i = 0; i < cs->nworst; i++)
		if (cs->worst[i]->open)
			build(cs, cs->worst[i], i, last_ns < cs->worst[i]->we ? last_ns :
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
static void worst_take(struct wk_worst *x, struct lat_wake_case *out)
{
	struct lat_timeline *tl = x->c.tl;

	if (tl && x->slmap) {
		tl->slices_map = x->slmap;
		tl->slices_maplen = x->slmaplen;
		x->slmap = NULL;
	}
	*out = x->c;
	x->c.tl = NULL;
}

int wk_cases_init(struct wk_cases *cs, const struct lat_analyze_opts *o,
		  const struct wk_history *h, const struct wk_chain *chain,
		  struct wk_stacks *stacks, int *oom)
{
	cs->h = h;
	cs->chain = chain;
	cs->stacks = stacks;
	cs->oom = oom;
	cs->worst_n = o->worst_n;
	cs->timelines = o->timelines;
	cs->threshold_ns = o->threshold_ns;
	cs->next_we = UINT64_MAX;
	cs->worst = calloc(o->worst_n > 0 ? (size_t)o->worst_n + 1 : 1, sizeof(*cs->worst));
	return cs->worst ? 0 : -LAT_ENOMEM;
}

int wk_cases_take(struct wk_cases *cs, struct lat_wakeup_result *r)
{
	if (cs->nworst && !(r->worst = calloc(cs->nworst, sizeof(*r->worst))))
		return -LAT_ENOMEM;
	for (size_t i = 0; i < cs->nworst; i++)
		worst_take(cs->worst[i], &r->worst[r->nworst++]);
	return 0;
}

void wk_cases_free(struct wk_cases *cs)
{
	for (size_t i = 0; i < cs->nworst; i++)
		worst_free(cs->worst[i]);
	free(cs->worst);
	wk_tl_spares_free(cs);
	free(cs->hold);
	free(cs->hold_ix);
}

static void insert_worst(struct wk_cases *cs, const struct wk_done *d)
{
	const struct lat_wake_case *c = &d->c;
	struct wk_worst *x = calloc(1, sizeof(*x));
	uint64_t margin = (uint64_t)c->latency_ns / 2, tm = wk_tl_margin(c->latency_ns);
	size_t pos;

	if (!x) {
		*cs->oom = 1;
		return;
	}
	x->c = *c;
	x->verdict = d->verdict;
	x->vbasis = d->vbasis;
	if (margin < 100 * LAT_NS_PER_US)
		margin = 100 * LAT_NS_PER_US;
	x->ws = c->start_ns > margin ? c->start_ns - margin : 0;
	x->we = c->end_ns + margin;
	x->tws = c->start_ns > tm ? c->start_ns - tm : 0;
	x->twe = c->end_ns + tm;
	if (cs->nworst == (size_t)cs->worst_n) {
		struct wk_worst *last = cs->worst[--cs->nworst];

		if (last->open)
			cs->nopen--;
		if (last->slmap)
			wk_tl_keep_spare(cs, last);
		worst_free(last);
	}
	for (pos = cs->nworst; pos > 0 && wk_rank_ns(&cs->worst[pos - 1]->c) < wk_rank_ns(c); pos--)
		;
	memmove(&cs->worst[pos + 1], &cs->worst[pos], (cs->nworst - pos) * sizeof(*cs->worst));
	cs->worst[pos] = x;
	cs->nworst++;
	x->open = 1;
	cs->nopen++;
	if (due(cs, x, pos) < cs->next_we)
		cs->next_we = due(cs, x, pos);
}

void wk_cases_finish_done(struct wk_cases *cs, struct wk_cases_cpu *cp, const struct wk_hcpu *hc)
{
	struct wk_done *d = &cp->done;

	d->valid = 0;
	if (wk_stacks_any(cs->stacks)) {
		/* runnable time blamed on the stack each holder had when it left the CPU */
		for (size_t i = hc->rlen; i-- > 0;) {
			const struct wk_slice *s = wk_ring_at(hc, i);
			int64_t ov;

			if (s->end <= d->start)
				break;
			ov = overlap(s->start, s->end, d->start, d->end);
			if (ov && s->pid > 0 && s->stack >= 0)
				wk_stack_blame_run(cs->stacks, s->stack, ov);
		}
	}
	if (!d->candidate || !wk_qualifies(cs, wk_rank_ns(&d->c)))
		return;
	insert_worst(cs, d);
}

/*
 * Keeps wait @e until its CPU's next event; a candidate for the worst gets
 * what is known of its case at its end (the rest when it is built).
 */
void wk_cases_keep(struct wk_cases_cpu *cp, struct wk_cases *cs, const struct wk_end *e)
{
	struct wk_done *d = &cp->done;
	struct lat_wake_case *c = &d->c;
	struct wk_end_detail x;

	d->valid = 1;
	d->pid = e->pid;
	d->kind = e->kind;
	d->start = e->start_ns;
	d->end = e->end_ns;
	d->verdict = e->verdict;
	d->vbasis = e->vbasis;
	if (!d->candidate)
		return;
	wk_end_detail(e, &x);
	memset(c, 0, sizeof(*c));
	c->steal_ns = -1;	/* the steal consumer's, at the end */
	c->pid = e->pid;
	c->prio = e->prio;
	c->policy = x.policy;
	c->cpu = e->cpu;
	memcpy(c->comm, e->comm, LAT_COMM_LEN);
	c->kind = e->kind;
	c->queued_cpu = x.queued_cpu;
	c->start_ns = e->start_ns;
	c->end_ns = e->end_ns;
	c->latency_ns = e->lat_ns;
	c->inferred_end = e->inferred;
	c->end_low_ns = e->end_low_ns;
	c->rq_at_wake = x.rq_wake;
	c->rq_avg = x.rq_area != UINT64_MAX && e->lat_ns > 0 ?
		    (double)x.rq_area / (double)e->lat_ns : -1;
	c->waker = *e->waker;
	wk_chain_copy(cs->chain, e->chain_ref, c);
	c->nmigr = x.nmigr;
	memcpy(c->migr, x.migr, x.nmigr * sizeof(x.migr[0]));
	c->migr_dropped = x.migr_dropped;
	queued_span(c, &x);
}
