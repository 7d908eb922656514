// SPDX-License-Identifier: GPL-2.0-or-later
/* Stalls (wakeup_stall.h): debts of a switch, and the silences while one is owed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wakeup_stall.h"

/* A fair task's slice at most (EEVDF's base slice grows with the CPUs; 3 ms covers 16). */
#define WK_STALL_SLICE_NS 3000000ULL

/*
 * How long tasks queued behind a fair task of the same weight can wait with
 * nothing wrong: EEVDF bounds a task's lag by max(2 slices, a tick), so the
 * one queued becomes eligible after the runner ran twice that at most, then
 * waits for the runner's deadline (a slice) and the tick that sees it; half
 * as much again for margin.  28.5 ms at HZ 250, 24 ms at HZ 1000.
 */
static uint64_t queued_bound(int64_t hz)
{
	uint64_t tick = LAT_NS_PER_S / (uint64_t)(hz > 0 ? hz : 250);
	uint64_t lag = 2 * WK_STALL_SLICE_NS > tick ? 2 * WK_STALL_SLICE_NS : tick;

	return 3 * (2 * lag + WK_STALL_SLICE_NS + tick) / 2;
}

void wk_stalls_init(struct wk_stalls *st, struct lat_wakeup_result *r, struct lat_arena *arena,
		    int64_t hz, int *oom)
{
	st->r = r;
	st->arena = arena;
	st->oom = oom;
	st->queued_ns = queued_bound(hz);
	st->tick_ns = LAT_NS_PER_S / (uint64_t)(hz > 0 ? hz : 250);
}

int wk_stall_cpu_init(struct wk_stalls *st, struct wk_stall_cpu *p, int32_t cpu,
		      const struct lat_wake_health *health)
{
	if (!st->cpus && !(st->cpus = lat_arena_alloc(st->arena, WK_MAX_CPUS * sizeof(*st->cpus))))
		return -LAT_ENOMEM;
	st->cpus[cpu] = p;
	p->health = health;
	if ((size_t)cpu >= st->ncpus)
		st->ncpus = (size_t)cpu + 1;
	return 0;
}

void wk_stall_set(struct wk_stalls *st, struct wk_stall_task *tp, struct wk_stall_cpu *cp,
		  int32_t cpu, int32_t pid, const char *comm, uint64_t ts)
{
	cp->owed_since = ts;
	cp->owed_section = 0;
	cp->owed_pid = pid;
	memcpy(cp->owed_comm, comm, LAT_COMM_LEN);
	tp->owed_cpu = (int16_t)cpu;
	st->nowed++;
}

/* @s into the result: the first LAT_WAKE_STALLS_MAX listed, all counted. */
static void record(struct wk_stalls *st, const struct lat_wake_stall *s)
{
	struct lat_wakeup_result *r = st->r;

	if (r->nstalls < LAT_WAKE_STALLS_MAX) {
		if (!r->stalls && !(r->stalls = calloc(LAT_WAKE_STALLS_MAX, sizeof(*r->stalls)))) {
			*st->oom = 1;
			return;
		}
		r->stalls[r->nstalls++] = *s;
	}
	r->nstalls_total++;
	r->stall_ns_total += (int64_t)(s->to_ns - s->from_ns);
	st->last = *s;
}

/* A silence with nothing due at its end, kept for the probe markers. */
static void keep_quiet(struct wk_stalls *st, int32_t cpu, uint64_t from, uint64_t to,
		       const struct wk_hcpu *hc)
{
	struct wk_quiet *q = &st->quiet[st->qhead++ % WK_STALL_QUIET];

	*q = (struct wk_quiet){ .cpu = cpu, .from = from, .to = to, .pid = -1, .prio = -1 };
	if (hc && hc->cur_known) {
		q->pid = hc->cur_pid;
		q->prio = hc->cur_prio;
		memcpy(q->comm, hc->cur_comm, LAT_COMM_LEN);
	}
	if (st->nquiet < WK_STALL_QUIET)
		st->nquiet++;
}

/*
 * The earliest hrtimer armed on CPU @cpu due in (@from, @to - WK_STALL_TIMER_NS]
 * (the silence outlasted its expiry), into @d: 1, else 0.  Only where the
 * CPU's events are complete: elsewhere a silence may be events not logged.
 */
static int timer_due(const struct wk_stalls *st, int32_t cpu, uint64_t from, uint64_t to,
		     struct wk_timer_due *d)
{
	const struct wk_stall_cpu *cp;

	if (!st->tmr || !st->tmr->n || to - from <= WK_STALL_TIMER_NS || cpu < 0 ||
	    (size_t)cpu >= st->ncpus || !(cp = st->cpus[cpu]) || !cp->health ||
	    cp->health->incomplete != LAT_HEALTH_OK)
		return 0;
	return wk_timer_due(st->tmr, cpu, from, to - WK_STALL_TIMER_NS, d);
}

/* Stall @s was due timer @d: it starts at the expiry; a sleeper's timer names the sleeper. */
static void timer_stall(struct lat_wake_stall *s, const struct wk_timer_due *d)
{
	s->due = LAT_STALL_TIMER;
	s->from_ns = d->due_ns;
	snprintf(s->timer_fn, sizeof(s->timer_fn), "%s", d->function);
	s->timer_pid = d->pid > 0 ? d->pid : -1;
	memcpy(s->timer_comm, d->comm, LAT_COMM_LEN);
	if (d->pid > 0 && !strcmp(d->function, "hrtimer_wakeup")) {
		s->waiting_pid = d->pid;
		memcpy(s->waiting_comm, d->comm, LAT_COMM_LEN);
	}
}

/* The earliest timer due in every CPU's silence (@from, @to), into @d: 1, else 0. */
static int every_timer(const struct wk_stalls *st, uint64_t from, uint64_t to,
		       struct wk_timer_due *d)
{
	struct wk_timer_due e;
	int found = 0;

	for (size_t i = 0; i < st->ncpus; i++)
		if (timer_due(st, (int32_t)i, from, to, &e) && (!found || e.due_ns < d->due_ns)) {
			*d = e;
			found = 1;
		}
	return found;
}

/*
 * Whether CPU @cpu (@cp), which owes a switch, silent in (@from, @to), was
 * running its task's section between ticks rather than stopped: its hrtimers
 * are recorded, the task took a timer interrupt since the switch was owed
 * (@cp->owed_section, or the expiry that ends the silence: @tick_end), no
 * timer of the CPU fell due in the silence more than WK_SECTION_LATE_NS
 * before its end (a stopped vCPU fires them late), and the silence is no
 * longer than a tick and a quarter.  docs/wakeup.md, "A section between ticks".
 */
static int section(const struct wk_stalls *st, const struct wk_stall_cpu *cp, int32_t cpu,
		   uint64_t from, uint64_t to, int tick_end)
{
	struct wk_timer_due d;

	return (cp->owed_section || tick_end) && to - from <= st->tick_ns + st->tick_ns / 4 &&
	       wk_timer_known(st->tmr, cpu) &&
	       !(to > from + WK_SECTION_LATE_NS &&
		 wk_timer_due(st->tmr, cpu, from, to - WK_SECTION_LATE_NS, &d));
}

/* ... for every CPU that owes a switch (@tick_cpu: the CPU whose expiry ends it, or -1). */
static int sections_all(const struct wk_stalls *st, uint64_t from, uint64_t to, int32_t tick_cpu)
{
	for (size_t i = 0; i < st->ncpus; i++)
		if (st->cpus[i] && st->cpus[i]->owed_since &&
		    !section(st, st->cpus[i], (int32_t)i, from, to, (int32_t)i == tick_cpu))
			return 0;
	return 1;
}

/* Every CPU silent from @x->last_ns while a switch was owed, a sched_wakeup or a timer due. */
static int every_cpu(struct wk_stalls *st, const struct wk_stall_ctx *x, uint64_t ts,
		     int32_t tick_cpu, struct lat_wake_stall *s)
{
	int waking = x->open_ts && x->open_ts + WK_STALL_WAKING_NS >= x->last_ns;
	struct wk_timer_due d;
	int timer = 0;

	if (ts - x->last_ns < LAT_WAKE_STALL_NS)
		return 0;
	if (!st->nowed && !waking && !(timer = every_timer(st, x->last_ns, ts, &d))) {
		keep_quiet(st, -1, x->last_ns, ts, NULL);
		return 0;
	}
	if (!waking && !timer && sections_all(st, x->last_ns, ts, tick_cpu))
		return 0;	/* the CPUs that owed a switch ran their tasks between ticks */
	*s = (struct lat_wake_stall){ .cpu = -1, .from_ns = x->last_ns, .to_ns = ts, .pid = -1,
				      .waiting_pid = -1, .due = LAT_STALL_OWED, .steal_ns = -1 };
	if (timer) {
		timer_stall(s, &d);
		record(st, s);
		return 1;
	}
	for (size_t i = 0; st->nowed && i < st->ncpus; i++)
		if (st->cpus[i] && st->cpus[i]->owed_since) {
			s->waiting_pid = st->cpus[i]->owed_pid;
			memcpy(s->waiting_comm, st->cpus[i]->owed_comm, LAT_COMM_LEN);
			break;
		}
	if (!st->nowed) {
		s->due = LAT_STALL_WAKEUP;
		s->waiting_pid = x->open_pid;
		memcpy(s->waiting_comm, x->open_comm, LAT_COMM_LEN);
	}
	record(st, s);
	return 1;
}

/*
 * The fair tasks queued on CPU @cp (@hc) that its fair task would have let run
 * by now: near its priority or above (0 none, or its run queue not known), the
 * earliest since when one was (@since).
 */
static uint32_t near_queued(const struct wk_stall_cpu *cp, const struct wk_hcpu *hc,
			    int trusted, uint64_t *since)
{
	uint32_t n = 0;
	int32_t top;

	if (!trusted || !cp->nfair || !hc->cur_known || hc->cur_pid <= 0 || hc->cur_prio < 100 ||
	    hc->cur_prio >= 100 + WK_STALL_FAIR)
		return 0;
	top = hc->cur_prio - 100 + WK_STALL_NICE_NEAR;
	*since = UINT64_MAX;
	for (int32_t k = 0; k <= top && k < WK_STALL_FAIR; k++) {
		n += cp->fair[k];
		if (cp->fair[k] && cp->fair_since[k] < *since)
			*since = cp->fair_since[k];
	}
	return n;
}

/*
 * What was due in this CPU's silence before @ts that makes it a stall: its
 * kind, its start into *@from, the tasks queued into *@nq, the timer into @d;
 * -1 none.  A switch owed (or tasks queued) for too short a time leaves the
 * timers; a silence with nothing at all due is kept for a probe's marker (not
 * one an every-CPU silence kept already).
 */
static int silence_due(struct wk_stalls *st, const struct wk_stall_cpu *cp,
		       const struct wk_hcpu *hc, const struct wk_stall_ctx *x, uint64_t ts,
		       int tick_end, uint64_t *from, uint32_t *nq, struct wk_timer_due *d)
{
	const struct wk_quiet *lq = &st->quiet[(st->qhead - 1) % WK_STALL_QUIET];
	int switch_due = 0;
	uint64_t since;

	if (cp->owed_since) {
		*from = x->last_ts > cp->owed_since ? x->last_ts : cp->owed_since;
		if (ts >= *from && ts - *from >= LAT_WAKE_STALL_NS &&
		    !section(st, cp, hc->id, x->last_ts, ts, tick_end))
			return LAT_STALL_OWED;
		switch_due = 1;
	} else if ((*nq = near_queued(cp, hc, x->trusted, &since))) {
		/* queued since the silence began, or since then (a remote wakeup in it) */
		*from = x->last_ts > since ? x->last_ts : since;
		if (ts >= *from && ts - *from >= st->queued_ns)
			return LAT_STALL_QUEUED;
		switch_due = 1;
	}
	if (timer_due(st, hc->id, x->last_ts, ts, d)) {
		*from = d->due_ns;
		*nq = 0;
		return LAT_STALL_TIMER;
	}
	if (!switch_due && x->trusted && ts - x->last_ts >= LAT_WAKE_STALL_NS &&
	    !(st->nquiet && lq->cpu < 0 && lq->to == ts))
		keep_quiet(st, hc->id, x->last_ts, ts, hc);
	return -1;
}

/* This CPU silent while it owed a switch, with tasks queued behind a fair one, or a timer due. */
static int this_cpu(struct wk_stalls *st, struct wk_stall_cpu *cp, const struct wk_hcpu *hc,
		    const struct wk_stall_ctx *x, uint64_t ts, int tick_end, struct lat_wake_stall *s)
{
	const struct lat_wake_stall *ls = &st->last;
	struct wk_timer_due d;
	uint64_t from = 0;
	uint32_t nq = 0;
	int due;

	if (!x->seen || (due = silence_due(st, cp, hc, x, ts, tick_end, &from, &nq, &d)) < 0)
		return 0;
	/* a CPU's silence inside an every-CPU stall already recorded is that stall */
	if (st->r->nstalls_total && ls->cpu < 0 && ls->from_ns <= from + LAT_WAKE_STALL_NS / 2 &&
	    ls->to_ns + LAT_WAKE_STALL_NS / 2 >= ts)
		return 0;
	*s = (struct lat_wake_stall){ .cpu = hc->id, .from_ns = from, .to_ns = ts,
				      .pid = hc->cur_pid, .waiting_pid = -1,
				      .due = (enum lat_stall_due)due,
				      .queued = nq, .steal_ns = -1 };
	memcpy(s->comm, hc->cur_comm, LAT_COMM_LEN);
	if (due == LAT_STALL_TIMER)
		timer_stall(s, &d);
	if (due == LAT_STALL_OWED) {
		s->waiting_pid = cp->owed_pid;
		memcpy(s->waiting_comm, cp->owed_comm, LAT_COMM_LEN);
		/* the CPU is owed the switch still, but this silence is counted */
		cp->owed_since = ts;
	}
	record(st, s);
	return 1;
}

int wk_stall_check(struct wk_stalls *st, struct wk_stall_cpu *cp, const struct wk_hcpu *hc,
		   const struct wk_stall_ctx *x, const struct lat_event *ev,
		   struct lat_wake_stall out[2])
{
	/* an hrtimer expiry (the tick, most often) in the running task's context */
	int tick_end = ev->type == LAT_EV_TIMER_ENTRY && hc->cur_known && ev->pid == hc->cur_pid;
	int n = 0;

	/* an event that shows the owed task running (its switch-in missing) proves nothing */
	if (cp->owed_since && ev->type != LAT_EV_SWITCH && ev->pid == cp->owed_pid)
		return 0;
	n += every_cpu(st, x, ev->ts_ns, tick_end ? hc->id : -1, &out[n]);
	n += this_cpu(st, cp, hc, x, ev->ts_ns, tick_end, &out[n]);
	return n;
}

int wk_stall_probe(struct wk_stalls *st, int32_t cpu, uint64_t ts, int64_t lat_ns, int32_t pid,
		   const char *comm, struct lat_wake_stall *out, int32_t *prio)
{
	uint64_t due = lat_ns > 0 && (uint64_t)lat_ns < ts ? ts - (uint64_t)lat_ns : ts;

	for (size_t i = 1; i <= st->nquiet; i++) {
		struct wk_quiet *q = &st->quiet[(st->qhead - i) % WK_STALL_QUIET];
		uint64_t from = q->from > due ? q->from : due;

		if (q->to <= from || q->to - from < LAT_WAKE_STALL_NS || (q->cpu >= 0 && q->cpu != cpu))
			continue;
		*out = (struct lat_wake_stall){ .cpu = q->cpu, .from_ns = from, .to_ns = q->to,
						.pid = q->pid, .waiting_pid = pid,
						.due = LAT_STALL_PROBE, .probe_ns = lat_ns,
						.steal_ns = -1 };
		memcpy(out->comm, q->comm, LAT_COMM_LEN);
		snprintf(out->waiting_comm, LAT_COMM_LEN, "%s", comm);
		*prio = q->prio;
		q->to = 0;	/* used */
		record(st, out);
		return 1;
	}
	return 0;
}

static int by_end(const void *a, const void *b)
{
	const struct lat_wake_stall *x = a, *y = b;

	/* by end (as found: the every-CPU one first where both end at one event) */
	if (x->to_ns != y->to_ns)
		return x->to_ns < y->to_ns ? -1 : 1;
	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

void wk_stalls_finish(struct wk_stalls *st)
{
	/* those found at a probe's marker come after the ones found meanwhile */
	if (st->r->nstalls > 1)
		qsort(st->r->stalls, st->r->nstalls, sizeof(*st->r->stalls), by_end);
}
