// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The timer consumer (wakeup_timer.h, docs/timers.md): hrtimer irq latency per
 * CPU and the thread latency of the threads a timer woke, as timerlat measures
 * them, from the hrtimer events and the wakeup analysis' own waits.
 */
#include <stdlib.h>
#include <string.h>

#include "wakeup_hll.h"
#include "wakeup_timer.h"

void wk_timers_init(struct wk_timers *s, struct lat_wakeup_result *r, struct lat_arena *arena,
		    int *oom, const struct wk_history *h)
{
	memset(s, 0, sizeof(*s));
	s->r = r;
	s->arena = arena;
	s->oom = oom;
	s->h = h;
}

/* The result and the name table, at the first hrtimer event.  0 or -LAT_ENOMEM. */
static int timers_begin(struct wk_timers *s)
{
	if (s->res)
		return 0;
	s->fns = calloc(WK_TMR_FNS, sizeof(*s->fns));
	s->res = calloc(1, sizeof(*s->res));
	if (!s->fns || !s->res) {
		free(s->res);
		s->res = NULL;
		*s->oom = 1;
		return -LAT_ENOMEM;
	}
	s->nfns = 1;	/* [0]: unknown */
	s->r->timers = s->res;
	return 0;
}

/* @cp as CPU @cpu's part, registered at its first hrtimer event.  0 or -LAT_ENOMEM. */
static int cpu_begin(struct wk_timers *s, struct wk_timer_cpu *cp, int32_t cpu)
{
	struct wk_timer_cpu **n;
	size_t want;

	if (cp->seen)
		return 0;
	if ((size_t)cpu >= s->ncpus) {
		want = (size_t)cpu + 1;
		if (!(n = realloc(s->cpus, want * sizeof(*n)))) {
			*s->oom = 1;
			return -LAT_ENOMEM;
		}
		memset(n + s->ncpus, 0, (want - s->ncpus) * sizeof(*n));
		s->cpus = n;
		s->ncpus = want;
	}
	s->cpus[cpu] = cp;
	cp->irq.arena = s->arena;
	cp->seen = 1;
	return 0;
}

/* The callback @name's number in fns[] (0: unknown, or no room left). */
static uint16_t fn_intern(struct wk_timers *s, const char *name)
{
	if (!name || !name[0])
		return 0;
	if (!strncmp(s->fns[s->last_fn], name, LAT_TIMER_FN_LEN - 1) && s->last_fn)
		return (uint16_t)s->last_fn;
	for (size_t i = 1; i < s->nfns; i++)
		if (!strncmp(s->fns[i], name, LAT_TIMER_FN_LEN - 1))
			return (uint16_t)(s->last_fn = i);
	if (s->nfns == WK_TMR_FNS)
		return 0;
	strncpy(s->fns[s->nfns], name, LAT_TIMER_FN_LEN - 1);
	return (uint16_t)(s->last_fn = s->nfns++);
}

/* ---- the armed timers: open addressing by address, backward-shift deletion -------------- */

static size_t tab_home(const struct wk_timers *s, uint64_t hrtimer)
{
	return (size_t)(((hrtimer >> 3) * 0x9e3779b97f4a7c15ull) >> 32) & (s->cap - 1);
}

/* The slot of @hrtimer, or the empty slot where it would go. */
static size_t tab_slot(const struct wk_timers *s, uint64_t hrtimer)
{
	size_t i = tab_home(s, hrtimer);

	while (s->tab[i].hrtimer && s->tab[i].hrtimer != hrtimer)
		i = (i + 1) & (s->cap - 1);
	return i;
}

/* Twice the slots (at most WK_TMR_CAP), every timer moved.  0, or -1 when full. */
static int tab_grow(struct wk_timers *s)
{
	size_t ocap = s->cap, ncap = ocap ? ocap * 2 : 256;
	struct wk_tmr_armed *old = s->tab;

	if (ncap > WK_TMR_CAP)
		return -1;
	if (!(s->tab = calloc(ncap, sizeof(*s->tab)))) {
		s->tab = old;
		*s->oom = 1;
		return -1;
	}
	s->cap = ncap;
	for (size_t i = 0; i < ocap; i++)
		if (old[i].hrtimer)
			s->tab[tab_slot(s, old[i].hrtimer)] = old[i];
	free(old);
	return 0;
}

/* Takes @hrtimer out of the table into @out; 0 when it was not there. */
static int tab_take(struct wk_timers *s, uint64_t hrtimer, struct wk_tmr_armed *out)
{
	size_t i, j, k;

	if (!s->n || !hrtimer)
		return 0;
	i = tab_slot(s, hrtimer);
	if (!s->tab[i].hrtimer)
		return 0;
	*out = s->tab[i];
	s->n--;
	/* the slots after it that are not at home move back into the hole */
	for (j = (i + 1) & (s->cap - 1); s->tab[j].hrtimer; j = (j + 1) & (s->cap - 1)) {
		k = tab_home(s, s->tab[j].hrtimer);
		if ((j > i && (k <= i || k > j)) || (j < i && k <= i && k > j)) {
			s->tab[i] = s->tab[j];
			i = j;
		}
	}
	s->tab[i].hrtimer = 0;
	return 1;
}

/* ---- events ------------------------------------------------------------------------------ */

static void on_start(struct wk_timers *s, struct wk_timer_cpu *cp, const struct lat_event *ev)
{
	struct wk_tmr_armed *a;
	size_t i;

	s->res->starts++;
	if (!ev->u.timer.hrtimer || ev->u.timer.expires == LAT_TIMER_UNKNOWN)
		return;
	if (cp->deq.hrtimer == ev->u.timer.hrtimer)
		cp->deq.hrtimer = 0;	/* re-armed: that cancel was no expiry's */
	if ((s->n + 1) * 2 > s->cap && tab_grow(s)) {
		s->res->dropped++;
		return;
	}
	i = tab_slot(s, ev->u.timer.hrtimer);
	a = &s->tab[i];
	s->n += !a->hrtimer;
	a->hrtimer = ev->u.timer.hrtimer;
	a->expires = ev->u.timer.expires;
	a->gen = s->gen;
	a->pid = ev->pid;
	a->fn = fn_intern(s, ev->u.timer.name);
	a->cpu = (int16_t)ev->cpu;
	memcpy(a->comm, ev->comm, LAT_COMM_LEN);
	a->comm[LAT_COMM_LEN - 1] = 0;
}

/* The task on @hc at @ts from the slices kept (the newest first), into @d; -1 unknown. */
static void who_ran(const struct wk_hcpu *hc, uint64_t ts, struct lat_timer_delay *d)
{
	d->pid = -1;
	d->comm[0] = 0;
	if (hc->cur_known && hc->cur_start <= ts) {
		d->pid = hc->cur_pid;
		memcpy(d->comm, hc->cur_comm, LAT_COMM_LEN);
		return;
	}
	for (size_t i = hc->rlen, n = 0; i > 0 && n < 256; i--, n++) {
		const struct wk_slice *sl = wk_ring_at(hc, i - 1);

		if (sl->start <= ts && ts < sl->end) {
			d->pid = sl->pid;
			memcpy(d->comm, sl->comm, LAT_COMM_LEN);
			return;
		}
		if (sl->end <= ts)
			return;
	}
}

/* The worst irq latencies, one per interrupt: @x replaces a smaller one of its interrupt. */
static void worst_irq(struct lat_timer_result *res, const struct lat_timer_expiry *x)
{
	struct lat_timer_expiry *w = res->worst_irq;
	size_t n = res->nworst_irq, i;

	for (i = 0; i < n; i++)
		if (w[i].cpu == x->cpu && w[i].now == x->now)
			break;
	if (i < n) {
		if (w[i].irq_ns >= x->irq_ns)
			return;
		memmove(&w[i], &w[i + 1], (n - i - 1) * sizeof(*w));
		n--;
	} else if (n == LAT_TIMER_WORST && w[n - 1].irq_ns >= x->irq_ns) {
		return;
	}
	if (n == LAT_TIMER_WORST)
		n--;
	for (i = n; i > 0 && w[i - 1].irq_ns < x->irq_ns; i--)
		w[i] = w[i - 1];
	w[i] = *x;
	res->nworst_irq = n + 1;
}

/*
 * @a's expiry, its callback entered at @ev on @cp: the irq latency and what
 * delayed it (the task on the CPU at the expiry, the CPU's silence, stalls).
 */
static void measure(struct wk_timers *s, struct wk_timer_cpu *cp, const struct wk_hcpu *hc,
		    const struct wk_tmr_armed *a, const struct lat_event *ev,
		    struct lat_timer_expiry *x)
{
	int64_t irq = ev->u.timer.now - a->expires;

	if (irq < 0) {	/* inside its slack, before expires: on time */
		irq = 0;
		cp->early++;
		s->res->early++;
	}
	if ((uint64_t)irq > ev->ts_ns)
		irq = (int64_t)ev->ts_ns;
	x->irq_ns = irq;
	x->expiry_ns = ev->ts_ns - (uint64_t)irq;
	x->armed_pid = a->pid;
	memcpy(x->armed_comm, a->comm, LAT_COMM_LEN);
	s->res->measured++;
	if (lat_hll_add(&cp->irq, irq))
		*s->oom = 1;
	who_ran(hc, x->expiry_ns, &x->delay);
	if (cp->irq_from_ns && cp->irq_from_ns <= x->expiry_ns && x->expiry_ns < cp->irq_entry_ns) {
		x->delay.silent_from_ns = cp->irq_from_ns;
		x->delay.silent_to_ns = cp->irq_entry_ns;
		x->delay.stall_ns = wk_stall_overlap(s->h, x->cpu, x->expiry_ns, ev->ts_ns);
	}
	worst_irq(s->res, x);
}

/*
 * The difference of the trace clock and the timers' clock at a callback's
 * entry.  Only one of a clock near the trace's (CLOCK_MONOTONIC, BOOTTIME: both
 * count from boot, as the default trace clock does): a CLOCK_REALTIME timer's
 * now counts from 1970, and would place the monotonic timers decades away.
 */
static void clock_note(struct wk_timer_cpu *cp, const struct lat_event *ev)
{
	int64_t off = (int64_t)ev->ts_ns - ev->u.timer.now;

	if (ev->u.timer.now == LAT_TIMER_UNKNOWN || off > WK_TMR_CLK_NEAR || off < -WK_TMR_CLK_NEAR)
		return;
	cp->clk_off = off;
	cp->clk_known = 1;
}

static void on_entry(struct wk_timers *s, struct wk_timer_cpu *cp, const struct wk_hcpu *hc,
		     uint64_t last_ns, const struct lat_event *ev)
{
	struct wk_tmr_armed a = { 0 };
	struct wk_tmr_open *o;
	int armed;

	s->res->entries++;
	if (cp->deq.hrtimer && cp->deq.hrtimer == ev->u.timer.hrtimer) {
		a = cp->deq;	/* older kernels (4.x): a cancel right before each expiry */
		cp->deq.hrtimer = 0;
		armed = 1;
	} else {
		armed = tab_take(s, ev->u.timer.hrtimer, &a);
	}
	if (cp->depth == WK_TMR_NEST) {	/* an exit was missed: the oldest goes */
		memmove(&cp->open[0], &cp->open[1], sizeof(cp->open[0]) * (WK_TMR_NEST - 1));
	} else {
		cp->depth++;
		s->nopen++;
	}
	o = &cp->open[cp->depth - 1];
	memset(o, 0, sizeof(*o));
	o->x.cpu = ev->cpu;
	if (ev->u.timer.name)
		strncpy(o->x.function, ev->u.timer.name, LAT_TIMER_FN_LEN - 1);
	else if (armed)
		memcpy(o->x.function, s->fns[a.fn], LAT_TIMER_FN_LEN);
	o->x.hrtimer = ev->u.timer.hrtimer;
	o->x.entry_ns = ev->ts_ns;
	o->x.now = ev->u.timer.now;
	o->x.irq_ns = -1;
	o->x.armed_pid = -1;
	/* one interrupt runs every callback due: they share its now and the silence before it */
	if (ev->u.timer.now != cp->irq_now || !cp->irq_entry_ns) {
		int vec = cp->vec_ns && last_ns == cp->vec_ns;	/* its vector came just before */

		cp->irq_now = ev->u.timer.now;
		cp->irq_entry_ns = vec ? cp->vec_ns : ev->ts_ns;
		cp->irq_from_ns = vec ? cp->vec_from_ns : last_ns;
	}
	clock_note(cp, ev);
	if (!armed || ev->u.timer.now == LAT_TIMER_UNKNOWN)
		s->res->unarmed++;
	else if (a.gen != s->gen)
		s->res->untrusted++;	/* re-armed unseen, maybe: nothing measured */
	else
		measure(s, cp, hc, &a, ev, &o->x);
}

/* @cp's callbacks open from the @depth'th on are over. */
static void close_to(struct wk_timers *s, struct wk_timer_cpu *cp, size_t depth)
{
	s->nopen -= cp->depth - depth;
	cp->depth = (uint8_t)depth;
}

static void on_timer_exit(struct wk_timers *s, struct wk_timer_cpu *cp,
			  const struct lat_event *ev)
{
	for (size_t i = cp->depth; i > 0; i--)
		if (cp->open[i - 1].x.hrtimer == ev->u.timer.hrtimer) {
			close_to(s, cp, i - 1);
			return;
		}
}

void wk_timer_event(struct wk_timers *s, struct wk_timer_cpu *cp, const struct wk_hcpu *hc,
		    uint64_t last_ns, const struct lat_event *ev)
{
	struct wk_tmr_armed a;

	if (ev->type == LAT_EV_LOST) {
		/* a timer armed before may have been re-armed unseen; callbacks end unseen */
		s->gen++;
		close_to(s, cp, 0);
		cp->deq.hrtimer = 0;
		return;
	}
	if (timers_begin(s) || cpu_begin(s, cp, ev->cpu))
		return;
	switch (ev->type) {
	case LAT_EV_TIMER_START:
		on_start(s, cp, ev);
		break;
	case LAT_EV_TIMER_CANCEL:
		s->res->cancels++;
		if (tab_take(s, ev->u.timer.hrtimer, &a))
			cp->deq = a;
		break;
	case LAT_EV_TIMER_ENTRY:
		on_entry(s, cp, hc, last_ns, ev);
		break;
	default:
		on_timer_exit(s, cp, ev);
		break;
	}
}

int wk_timer_due(const struct wk_timers *s, int32_t cpu, uint64_t from_ns, uint64_t to_ns,
		 struct wk_timer_due *out)
{
	const struct wk_timer_cpu *cp;
	const struct wk_tmr_armed *best = NULL;
	uint64_t best_ns = 0;

	if (!s->n || cpu < 0 || (size_t)cpu >= s->ncpus || !(cp = s->cpus[cpu]) || !cp->clk_known)
		return 0;
	for (size_t i = 0; i < s->cap; i++) {
		const struct wk_tmr_armed *a = &s->tab[i];
		int64_t due;

		/* KTIME_MAX (armed "never") overflows: never due */
		if (!a->hrtimer || a->cpu != cpu || a->gen != s->gen ||
		    __builtin_add_overflow(a->expires, cp->clk_off, &due) || due <= (int64_t)from_ns ||
		    due > (int64_t)to_ns || (best && (uint64_t)due >= best_ns))
			continue;
		best = a;
		best_ns = (uint64_t)due;
	}
	if (!best)
		return 0;
	out->due_ns = best_ns;
	out->hrtimer = best->hrtimer;
	out->pid = best->pid;
	out->function = s->fns[best->fn];
	memcpy(out->comm, best->comm, LAT_COMM_LEN);
	return 1;
}

/* ---- the woken threads --------------------------------------------------------------------- */

/* @tp's row (made on first use), or NULL: no room (counted) or no memory. */
static struct wk_timer_thread *thread_of(struct wk_timers *s, struct wk_timer_task *tp,
					 const struct lat_event *ev)
{
	struct wk_timer_thread *th;

	if (tp->th)
		return tp->th;
	if (s->nthreads == LAT_TIMER_THREADS_MAX) {
		s->res->wakes_dropped++;
		return NULL;
	}
	if (!s->threads && !(s->threads = calloc(LAT_TIMER_THREADS_MAX, sizeof(*s->threads)))) {
		*s->oom = 1;
		return NULL;
	}
	if (!(th = lat_arena_alloc(s->arena, sizeof(*th)))) {
		*s->oom = 1;
		return NULL;
	}
	th->hll.arena = s->arena;
	th->row.pid = ev->u.wake.pid;
	th->row.prio = ev->u.wake.prio;
	memcpy(th->row.comm, ev->u.wake.comm, LAT_COMM_LEN);
	th->row.comm[LAT_COMM_LEN - 1] = 0;
	s->threads[s->nthreads++] = th;
	return tp->th = th;
}

/*
 * Sample @p of @th complete but for its derived parts: counted; its worst, when
 * it may head a list (@ranked: its wait is the wakeup analysis' ranked one)?
 */
static void add_sample(struct wk_timers *s, struct wk_timer_thread *th, struct lat_timer_sample *p,
		       int ranked)
{
	p->latency_ns = (int64_t)(p->end_ns - p->x.expiry_ns);
	p->callback_ns = (int64_t)(p->waking_ns - p->x.entry_ns);
	p->wait_ns = (int64_t)(p->end_ns - p->waking_ns);
	if (ranked && (!th->has_worst || p->latency_ns > th->worst.latency_ns)) {
		th->worst = *p;
		th->has_worst = 1;
	}
	if (!th->hll.n || p->latency_ns > th->hll.max) {
		th->row.prio = p->prio;
		th->row.max_irq_ns = p->x.irq_ns;
		th->row.max_end_ns = p->end_ns;
		memcpy(th->row.function, p->x.function, LAT_TIMER_FN_LEN);
	}
	if (lat_hll_add(&th->hll, p->latency_ns))
		*s->oom = 1;
	th->row.running += p->running;
	s->res->wakes++;
}

/* Whether the callback @o woke the task of @ev: hrtimer_wakeup's sleeper, or its armer. */
static int timer_woke(const struct wk_tmr_open *o, const struct lat_event *ev)
{
	return !o->woke && o->x.irq_ns >= 0 &&
	       (!strcmp(o->x.function, "hrtimer_wakeup") || o->x.armed_pid == ev->u.wake.pid);
}

void wk_timer_wake_slow(struct wk_timers *s, struct wk_timer_cpu *cp, struct wk_timer_task *tp,
			const struct lat_event *ev, int32_t on_cpu)
{
	struct wk_timer_thread *th = tp->th;
	int running = on_cpu >= 0 || ev->pid == ev->u.wake.pid;	/* as the core says */
	struct wk_tmr_open *o;

	if (th && th->pend && ev->type != LAT_EV_WAKING && !th->pend_wakeup_ns)
		th->pend_wakeup_ns = ev->ts_ns;	/* the wakeup after its timer waking */
	if (!cp->depth || ev->u.wake.pid <= 0)
		return;
	if ((ev->flags & (LAT_EVF_KNOWN | LAT_EVF_HARDIRQ | LAT_EVF_SOFTIRQ)) == LAT_EVF_KNOWN) {
		close_to(s, cp, 0);	/* in task context: the callbacks' exits were missed */
		return;
	}
	o = &cp->open[cp->depth - 1];
	if (!timer_woke(o, ev) || !(th = thread_of(s, tp, ev)))
		return;
	o->woke = 1;
	if (th->pend) {
		s->res->unmatched++;	/* the wait of its last timer waking never ended */
		th->pend = 0;
		s->npend--;
	}
	memset(&th->p, 0, sizeof(th->p));
	th->p.x = o->x;
	th->p.pid = ev->u.wake.pid;
	th->p.prio = ev->u.wake.prio;
	memcpy(th->p.comm, th->row.comm, LAT_COMM_LEN);
	th->p.waking_ns = ev->ts_ns;
	th->p.verdict = -1;
	th->pend_wakeup_ns = ev->type != LAT_EV_WAKING ? ev->ts_ns : 0;
	if (!running) {
		th->p.cpu = -1;
		th->pend = 1;
		s->npend++;
		return;
	}
	/* still on a CPU (its timer fired before it slept): it runs on, no wait */
	th->p.cpu = ev->pid == ev->u.wake.pid ? ev->cpu : -1;
	th->p.end_ns = th->p.end_low_ns = ev->ts_ns;
	th->p.running = 1;
	add_sample(s, th, &th->p, 1);
}

void wk_timer_end_slow(struct wk_timers *s, struct wk_timer_task *tp, const struct wk_end *e)
{
	struct wk_timer_thread *th = tp->th;
	struct lat_timer_sample *p = &th->p;

	if (e->kind == LAT_WAIT_PREEMPT)
		return;
	if (e->start_ns != p->waking_ns && e->start_ns != th->pend_wakeup_ns) {
		if (e->start_ns > p->waking_ns) {	/* that waking's wait ended unseen */
			th->pend = 0;
			s->npend--;
			s->res->unmatched++;
		}
		return;
	}
	th->pend = 0;
	s->npend--;
	if (!e->trusted || !e->selected) {
		th->row.untrusted += !e->trusted;
		s->res->unmatched++;
		return;
	}
	th->sel = 1;
	memcpy(th->row.comm, e->comm, LAT_COMM_LEN);
	th->row.comm[LAT_COMM_LEN - 1] = 0;
	memcpy(p->comm, th->row.comm, LAT_COMM_LEN);
	p->prio = e->prio;
	p->cpu = e->cpu;
	p->end_ns = e->end_ns;
	p->end_low_ns = e->end_low_ns;
	p->inferred = e->inferred;
	p->wait_start_ns = e->start_ns;
	p->verdict = e->verdict;
	p->vbasis = (int)e->vbasis;
	p->low_trust = e->low_trust;
	th->row.low_trust += e->low_trust;
	add_sample(s, th, p, e->ranked);
}

/* ---- the result ---------------------------------------------------------------------------- */

/* Real-time (and deadline) threads first, then by their worst latency. */
static int cmp_thread(const void *a, const void *b)
{
	const struct wk_timer_thread *x = *(struct wk_timer_thread *const *)a;
	const struct wk_timer_thread *y = *(struct wk_timer_thread *const *)b;
	enum lat_sched_policy px = wk_policy_of(x->row.prio), py = wk_policy_of(y->row.prio);
	int rx = px == LAT_POL_RT || px == LAT_POL_DEADLINE;
	int ry = py == LAT_POL_RT || py == LAT_POL_DEADLINE;

	if (rx != ry)
		return ry - rx;
	if (x->hll.max != y->hll.max)
		return x->hll.max < y->hll.max ? 1 : -1;
	return x->row.pid < y->row.pid ? -1 : x->row.pid > y->row.pid;
}

/* Every CPU's irq latency, and all of them together. */
static int finish_cpus(struct wk_timers *s, struct lat_timer_result *res)
{
	struct lat_hll all = { .arena = s->arena };
	size_t n = 0;

	for (size_t i = 0; i < s->ncpus; i++)
		n += s->cpus[i] != NULL;
	if (n && !(res->cpus = calloc(n, sizeof(*res->cpus))))
		return -LAT_ENOMEM;
	for (size_t i = 0; i < s->ncpus; i++) {
		const struct wk_timer_cpu *cp = s->cpus[i];
		struct lat_timer_cpu *o;

		if (!cp)
			continue;
		o = &res->cpus[res->ncpus++];
		o->cpu = (int32_t)i;
		o->early = cp->early;
		lat_hll_stat(&cp->irq, &o->irq);
		wk_hll_coarse(&cp->irq, o->b);
		if (lat_hll_merge(&all, &cp->irq))
			return -LAT_ENOMEM;
	}
	lat_hll_stat(&all, &res->irq);
	return 0;
}

int wk_timers_finish(struct wk_timers *s)
{
	struct lat_timer_result *res = s->res;
	int ret;

	if (!res)
		return 0;
	if ((ret = finish_cpus(s, res)))
		return ret;
	if (s->nthreads) {	/* none: s->threads is NULL, and qsort(NULL, 0) undefined */
		if (!(res->threads = calloc(s->nthreads, sizeof(*res->threads))))
			return -LAT_ENOMEM;
		qsort(s->threads, s->nthreads, sizeof(*s->threads), cmp_thread);
	}
	for (size_t i = 0; i < s->nthreads; i++) {
		struct wk_timer_thread *th = s->threads[i];

		res->unmatched += th->pend;	/* still waiting at the trace's end */
		if (!th->hll.n || (s->r->selecting && !th->sel))
			continue;
		lat_hll_stat(&th->hll, &th->row.lat);
		res->threads[res->nthreads++] = th->row;
		if (res->nworst < LAT_TIMER_WORST && th->has_worst)
			res->worst[res->nworst++] = th->worst;
	}
	return 0;
}

void wk_timers_release(struct wk_timers *s)
{
	/* thread rows and histogram rows live in the arena */
	free(s->tab);
	free(s->fns);
	free(s->threads);
	free(s->cpus);
	s->tab = NULL;
	s->fns = NULL;
	s->threads = NULL;
	s->cpus = NULL;
}

void lat_timer_result_free(struct lat_timer_result *t)
{
	if (!t)
		return;
	free(t->cpus);
	free(t->threads);
	free(t);
}
