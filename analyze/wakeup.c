// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Wakeup latency over a scheduler event stream, in one pass with bounded state.
 * The rules (docs/wakeup.md): a wait starts at the first sched_waking of a task
 * that is not on a CPU (sched_wakeup / sched_wakeup_new when no waking was
 * recorded, or always with LAT_WAKE_START_WAKEUP); a waking of a task still on a
 * CPU starts nothing; a switch-out with a sleeping state cancels a pending wait;
 * the wait ends at the sched_switch that puts the task on a CPU.  A switch-out
 * in state R starts a preemption wait, counted apart.
 *
 * The source cannot be rewound (stdin, pipes), so the worst cases are explained
 * from bounded rings of what ran recently on each CPU, taken when the wait ends.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "latscope/an_wakeup_sink.h"
#include "analyze_priv.h"
#include "wakeup_priv.h"

/* Hands a slice of CPU @c's current task, ended at @end, to the sink. */
static void sink_cur_slice(const struct wk *w, const struct wk_cpu *c, int32_t cpu, uint64_t end,
			   enum lat_slice_end why)
{
	struct lat_run_slice s;

	if (w->activity && c->cur_known && c->cur_pid > 0)
		wk_act_add((struct wk *)w, cpu, WK_ACT_BUSY, c->cur_start, end, 1);
	if (!w->sink_slice || !c->cur_known)
		return;
	s.cpu = cpu;
	s.pid = c->cur_pid;
	s.prio = c->cur_prio;
	memcpy(s.comm, c->cur_comm, LAT_COMM_LEN);
	s.start_ns = c->cur_start;
	s.end_ns = end;
	s.start_known = 1;
	s.end = why;
	s.state = LAT_TS_OTHER;
	w->o->sink->slice(w->o->sink->ctx, &s);
}

static void copy_comm(char *dst, const char *src)
{
	if (!src || !src[0])
		return;
	memcpy(dst, src, LAT_COMM_LEN - 1);
	dst[LAT_COMM_LEN - 1] = 0;
}

static __attribute__((noinline)) struct wk_cpu *get_cpu(struct wk *w, int32_t cpu)
{
	struct wk_cpu *c;

	if ((size_t)cpu >= w->ncpus) {
		size_t n = (size_t)cpu + 1;
		struct wk_cpu **a = realloc(w->cpus, n * sizeof(*a));

		if (!a)
			return NULL;
		memset(a + w->ncpus, 0, (n - w->ncpus) * sizeof(*a));
		w->cpus = a;
		w->ncpus = n;
	}
	if (w->cpus[cpu])
		return w->cpus[cpu];
	c = lat_arena_alloc(&w->arena, sizeof(*c));
	if (!c)
		return NULL;
	c->rcap = w->ring_cap;
	c->ring = lat_arena_alloc(&w->arena, c->rcap * sizeof(*c->ring));
	c->irqs = lat_arena_alloc(&w->arena, WK_IRQ_RING * sizeof(*c->irqs));
	if (!c->ring || !c->irqs)
		return NULL;
	c->cur_pid = -1;
	c->id = cpu;
	c->wake.arena = &w->arena;
	c->preempt.arena = &w->arena;
	w->cpus[cpu] = c;
	return c;
}

static int task_matches(const struct wk *w, const struct wk_task *t)
{
	if (w->sel.filter_pid >= 0)
		return t->pid == w->sel.filter_pid;
	if (w->sel.filter_comm)
		return !strcmp(t->comm, w->sel.filter_comm);
	return 1;
}

/* --policy / --min-prio, on the prio the task has when its wait ends. */
static int class_ok(const struct wk *w, int32_t prio)
{
	enum lat_sched_policy p = wk_policy_of(prio);

	if (w->sel.filter_pol != LAT_POL_UNKNOWN && p != w->sel.filter_pol)
		return 0;
	return !w->sel.min_prio || (p == LAT_POL_RT && 99 - prio >= w->sel.min_prio);
}

static inline size_t task_slot(const struct wk *w, int32_t pid)
{
	size_t i = ((uint32_t)pid * 2654435761u) & (w->tasks.tcap - 1);

	while (w->tasks.slots[i].t && w->tasks.slots[i].pid != pid)
		i = (i + 1) & (w->tasks.tcap - 1);
	return i;
}

static struct wk_task *find_task(const struct wk *w, int32_t pid)
{
	return w->tasks.slots[task_slot(w, pid)].t;
}

static int tasks_grow(struct wk *w)
{
	size_t ocap = w->tasks.tcap, ncap = ocap ? ocap * 2 : 1024;
	struct wk_slot *old = w->tasks.slots;

	w->tasks.slots = calloc(ncap, sizeof(*w->tasks.slots));
	if (!w->tasks.slots) {
		w->tasks.slots = old;
		return -LAT_ENOMEM;
	}
	w->tasks.tcap = ncap;
	for (size_t i = 0; i < ocap; i++)
		if (old[i].t)
			w->tasks.slots[task_slot(w, old[i].pid)] = old[i];
	free(old);
	return 0;
}

/* A task seen for the first time (the slow path of get_task). */
static __attribute__((noinline)) struct wk_task *new_task(struct wk *w, int32_t pid,
							  const char *comm)
{
	struct wk_task *t;

	if ((w->tasks.ntasks + 1) * 2 > w->tasks.tcap && tasks_grow(w))
		goto oom;
	t = lat_arena_alloc(&w->arena, sizeof(*t));
	if (!t)
		goto oom;
	if (lat_grow(&w->tasks.by_idx, &w->tasks.by_idx_cap, w->tasks.ntasks + 1,
		     sizeof(*w->tasks.by_idx)))
		goto oom;
	t->wake.arena = &w->arena;
	t->preempt.arena = &w->arena;
	t->idx = (uint32_t)w->tasks.ntasks;
	w->tasks.by_idx[t->idx] = t;
	t->pid = pid;
	t->on_cpu = -1;
	t->off_stack = -1;
	t->owed_cpu = -1;
	t->qcpu = -1;
	t->area_cpu = -1;
	t->prio = LAT_PRIO_UNKNOWN;	/* until a switch or waking of it says */
	t->policy = -1;
	t->wait_prio = INT32_MAX;
	w->tasks.slots[task_slot(w, pid)] = (struct wk_slot){ pid, t };
	w->tasks.ntasks++;
	copy_comm(t->comm, comm);
	t->match = (uint8_t)task_matches(w, t);
	w->sel.any_match |= t->match;
	return t;
oom:
	w->oom = 1;
	return NULL;
}

static __attribute__((noinline)) void rename_task(struct wk *w, struct wk_task *t,
						  const char *comm)
{
	copy_comm(t->comm, comm);
	t->match = (uint8_t)task_matches(w, t);
	w->sel.any_match |= t->match;
}

/* Whether the names @a and @b differ in their first LAT_COMM_LEN - 1 bytes: two loads each. */
static inline int comm_differs(const char *a, const char *b)
{
	uint64_t a0, a1, b0, b1;

	_Static_assert(LAT_COMM_LEN == 16, "two overlapping 8-byte words cover 15 bytes");
	memcpy(&a0, a, 8);
	memcpy(&a1, a + 7, 8);
	memcpy(&b0, b, 8);
	memcpy(&b1, b + 7, 8);
	return ((a0 ^ b0) | (a1 ^ b1)) != 0;
}

/* The task @pid (> 0), created on first sight; comm refreshed when known. */
static inline struct wk_task *get_task(struct wk *w, int32_t pid, const char *comm)
{
	struct wk_task *t;
	size_t i;

	i = task_slot(w, pid);
	t = w->tasks.slots[i].t;
	if (!t)
		return new_task(w, pid, comm);
	/* bytes past the NUL may differ: then the same name is copied again, no harm */
	if (comm && comm[0] && comm_differs(t->comm, comm))
		rename_task(w, t, comm);
	return t;
}

/*
 * get_task() for the task @pid that CPU @c runs: the task its switch-in (or
 * first event) found, without a lookup.
 */
static inline struct wk_task *get_cur_task(struct wk *w, const struct wk_cpu *c, int32_t pid,
					   const char *comm)
{
	struct wk_task *t = c->cur_task;

	if (!t || t->pid != pid)
		return get_task(w, pid, comm);
	if (comm && comm[0] && comm_differs(t->comm, comm))
		rename_task(w, t, comm);
	return t;
}

/* The ring's next slot, the oldest slice's once the ring is full: the caller fills it. */
static inline struct wk_slice *next_slice(struct wk_cpu *c)
{
	size_t pos;

	if (c->rlen < c->rcap) {
		pos = (c->rhead + c->rlen++) & (c->rcap - 1);
	} else {
		pos = c->rhead;
		c->rhead = (c->rhead + 1) & (c->rcap - 1);
	}
	return &c->ring[pos];
}

static void push_slice(struct wk_cpu *c, const struct wk_slice *s)
{
	*next_slice(c) = *s;
}

/*
 * The slot for a new entry of a ring of @cap (the CPUs' irq rings, struct
 * wk_recent's: the oldest at @head, @len kept): the next free one, or the
 * oldest once full.  Inline: @cap is a constant at most calls.
 */
static inline size_t ring_push(size_t *head, size_t *len, size_t cap)
{
	size_t pos;

	if (*len < cap)
		return (*head + (*len)++) % cap;
	pos = *head;
	*head = (*head + 1) % cap;
	return pos;
}

static void push_irq(struct wk_cpu *c, const struct wk_irq *q)
{
	c->irqs[ring_push(&c->ihead, &c->ilen, WK_IRQ_RING)] = *q;
}

/* ---- running sums of who ran, for the verdicts above the threshold ---------- */

static inline enum wk_cum_kind cum_kind(int32_t pid, int32_t prio)
{
	if (pid == 0)
		return WK_CUM_IDLE;
	if (prio >= 100 && prio < 140)
		return WK_CUM_FAIR;
	if (prio >= 0 && prio < 100)
		return WK_CUM_RT;
	return prio == -1 ? WK_CUM_DL : WK_CUM_UNK;
}

/* @ns (may be "negative": a stall taken off) of task @pid at @prio on @c. */
static inline void cum_add(struct wk_cpu *c, int32_t pid, int32_t prio, uint64_t ns)
{
	enum wk_cum_kind k = cum_kind(pid, prio);

	c->cum.v[k] += ns;
	if (k == WK_CUM_RT)
		c->cum_rt[prio] += ns;
}

/* Real-time time on @c above and at prio @p, into @hi, @same (@p a real-time prio). */
static void cum_rt_split(const struct wk_cpu *c, int32_t p, uint64_t *hi, uint64_t *same)
{
	uint64_t h = 0;

	for (int32_t q = 0; q < p; q++)
		h += c->cum_rt[q];
	*hi = h;
	*same = c->cum_rt[p];
}

static __attribute__((noinline)) void cum_snap_rt(struct wk_task *t, const struct wk_cpu *c,
						   enum wk_cum_kind part_kind, uint64_t part)
{
	int32_t p = t->prio;

	cum_rt_split(c, p, &t->snap_rt_hi, &t->snap_rt_same);
	if (part_kind == WK_CUM_RT && c->cur_prio < p)
		t->snap_rt_hi += part;
	else if (part_kind == WK_CUM_RT && c->cur_prio == p)
		t->snap_rt_same += part;
}

/* @t's snapshot of @c's sums at @ts, the running task's part so far in its class. */
static inline void cum_snap(struct wk_task *t, const struct wk_cpu *c, uint64_t ts)
{
	uint64_t part = c->cur_known && ts > c->cur_start ? ts - c->cur_start : 0;
	enum wk_cum_kind part_kind = cum_kind(c->cur_pid, c->cur_prio);

	t->snap.s = c->cum;
	t->snap.s.v[part_kind] += part;
	t->snap.ts = ts;
	t->snap_cpu = c->id;
	if (t->prio >= 0 && t->prio < 100)
		cum_snap_rt(t, c, part_kind, part);
}

/*
 * The verdict of @t's wait of @lat ending at @ts on @c (a counted wakeup wait
 * of at least the threshold), from the sums since its snapshot: counted in
 * verdicts_above (docs/wakeup.md, "Verdicts") and given to an exporter's
 * row.  The same choice as a worst case's (wk_verdict_choose()), from sums
 * instead of the case's slices.
 */
static __attribute__((noinline)) enum lat_verdict_kind
verdict_of(const struct wk_cpu *c, const struct wk_task *t, uint64_t ts, int64_t lat)
{
	uint64_t snap_ts = t->snap.ts, d[WK_CUM_N];
	int64_t span = (int64_t)(ts - snap_ts), covered;
	enum lat_sched_policy wp = wk_policy_of(t->prio);
	int64_t idle, dl, rt, fair, hi = 0, same = 0, lo = 0, unk, stall;

	if (t->snap_cpu != c->id || ts < snap_ts ||
	    (t->inferred && (int64_t)(ts - t->end_low) * 2 > lat))
		return LAT_VERDICT_UNTRUSTED;	/* moved unseen, or ran at an unknown point of it */
	for (int i = 0; i < WK_CUM_N; i++)
		d[i] = c->cum.v[i] - t->snap.s.v[i];	/* the running part before it is in snap */
	idle = (int64_t)d[WK_CUM_IDLE];
	dl = (int64_t)d[WK_CUM_DL];
	rt = (int64_t)d[WK_CUM_RT];
	fair = (int64_t)d[WK_CUM_FAIR];
	unk = (int64_t)d[WK_CUM_UNK];	/* tasks of no known class: no claim of priority */
	stall = (int64_t)d[WK_CUM_STALL];
	if (wp == LAT_POL_RT) {
		uint64_t rh, rs;

		cum_rt_split(c, t->prio, &rh, &rs);
		hi += dl + (int64_t)(rh - t->snap_rt_hi);
		same += (int64_t)(rs - t->snap_rt_same);
		lo += rt - (int64_t)(rh - t->snap_rt_hi) - (int64_t)(rs - t->snap_rt_same) + fair;
	} else if (wp == LAT_POL_FAIR) {
		hi += dl + rt;
		same += fair;
	} else if (wp == LAT_POL_DEADLINE) {
		same += dl;
		lo += rt + fair;
	} else {
		unk += dl + rt + fair;
	}
	covered = idle + hi + same + lo + unk + stall;
	return wk_verdict_choose(lat, (int64_t)d[WK_CUM_IRQ], (int64_t)t->queued_ns,
				 t->queued_busy, same, hi, lo, stall, idle,
				 unk + (span > covered ? span - covered : 0));
}

/* Counts the verdict of a wait of at least the threshold; returns it. */
static enum lat_verdict_kind verdict_above(struct wk *w, const struct wk_cpu *c,
					   const struct wk_task *t, uint64_t ts, int64_t lat)
{
	enum lat_verdict_kind v = verdict_of(c, t, ts, lat);

	w->r->verdicts_above[v]++;
	w->r->above++;
	return v;
}

static void owe_release(struct wk *w, struct wk_task *t);

/* The run queue of @c gains (or loses) a waiting task at @ts. */
static inline void rq_add(struct wk *w, struct wk_cpu *c, uint64_t ts, int delta)
{
	if (w->activity && c->nq && ts > c->area_ts)
		wk_act_add(w, c->id, WK_ACT_RQ, c->area_ts, ts, c->nq);
	if (ts > c->area_ts) {
		c->area += (uint64_t)c->nq * (ts - c->area_ts);
		c->area_ts = ts;
	}
	if (delta < 0 && !c->nq)
		return;
	c->nq = (uint32_t)((int64_t)c->nq + delta);
}

/* @t stops waiting in its run queue. */
static inline void rq_leave(struct wk *w, struct wk_task *t, uint64_t ts)
{
	if ((size_t)t->qcpu < w->ncpus && w->cpus[t->qcpu])	/* -1: none */
		rq_add(w, w->cpus[t->qcpu], ts, -1);
	t->qcpu = -1;
}

/*
 * The pending wait of @t is over although no switch showed it run: an event
 * proved it ran (and maybe slept again) meanwhile.  Its length is unknown:
 * untrusted, kept out of the statistics and the worst cases.
 */
static void phantom(struct wk *w, struct wk_task *t, uint64_t ts)
{
	t->pending = 0;
	rq_leave(w, t, ts);
	t->untrusted++;
	if (!w->r->untrusted_waits++)
		w->r->first_untrusted_ns = ts;
	if (t->owed_cpu >= 0)
		owe_release(w, t);
}

static inline void end_wait(struct wk *w, struct wk_cpu *c, int32_t cpu, struct wk_task *t,
			    uint64_t ts);

/*
 * A pending preemption wait of @t ends at a sched_waking of it: it was asleep
 * after all.  On PREEMPT_RT a task that blocks on a sleeping lock is switched
 * out as R+ or R (docs/wakeup.md, "R and R+"); elsewhere it ran unseen.  Not
 * counted, a phantom wait, and said apart.
 */
static __attribute__((noinline)) void preempt_woken(struct wk *w, struct wk_task *t, uint64_t ts)
{
	if (!w->r->preempt_woken++)
		w->r->first_preempt_woken_ns = ts;
	w->r->preempt_woken_plus += t->plus;
	phantom(w, t, ts);
}

/*
 * Whether event @ev of the pending task @t on @cpu ends its wait as an
 * inferred switch-in (docs/wakeup.md, "Inferred switch-ins"): an event in task
 * context (common_flags known: not in an irq, softirq or NMI) on the CPU it is
 * queued on, while the CPU's current task was known to be another, which
 * logged the CPU's last event @low at or after the waking: so the task did
 * not run there already when it was woken.
 */
static inline int infer_ok(const struct wk_task *t, int32_t cpu, const struct lat_event *ev,
			   uint64_t low)
{
	int32_t q = t->qcpu >= 0 ? t->qcpu : t->queued_cpu;

	return (ev->flags & LAT_EVF_KNOWN) &&
	       !(ev->flags & (LAT_EVF_HARDIRQ | LAT_EVF_SOFTIRQ | LAT_EVF_NMI)) && q == cpu &&
	       low >= t->start && ev->ts_ns >= low;
}

/*
 * The wait of @t ends at @ts, its own first event on @cpu: the switch in,
 * missing, was in (@low, @ts], @low the CPU's last event before (of another
 * task).  Counted with the upper bound @ts and flagged.
 */
static __attribute__((noinline)) void infer_end(struct wk *w, struct wk_cpu *c, int32_t cpu,
						 struct wk_task *t, uint64_t low, uint64_t ts)
{
	t->inferred = 1;
	t->end_low = low;
	end_wait(w, c, cpu, t, ts);
	t->inferred = 0;
}

/*
 * Every event names the task running on its CPU.  Where the CPU's current task
 * is unknown (trace start, after a gap) that fills it in; where it differs from
 * what the switches said, a switch went missing: the slice so far is closed
 * there and counted as a switch break.  A task seen running is not waiting.
 * Switches, stacks and uninterpreted events are not used: events recorded
 * inside __schedule() after the switch (its kernel stack, sched_stat_*) still
 * carry the previous task's pid.  Called (by handle()) only for an event of a
 * task (pid >= 0) other than the CPU's current one.
 */
static __attribute__((noinline)) void note_current(struct wk *w, struct wk_cpu *c, int32_t cpu,
						   const struct lat_event *ev)
{
	struct wk_task *t;
	int was_known;
	uint64_t low;

	was_known = c->cur_known;
	low = c->seen ? c->last_ts : 0;
	if (c->cur_known) {
		struct wk_slice s = { .start = c->cur_start, .end = ev->ts_ns, .pid = c->cur_pid,
				      .prio = c->cur_prio, .stack = -1 };

		memcpy(s.comm, c->cur_comm, LAT_COMM_LEN);
		push_slice(c, &s);
		cum_add(c, s.pid, s.prio, s.end - s.start);
		sink_cur_slice(w, c, cpu, ev->ts_ns, LAT_SLICE_BREAK);
		if (!w->r->switch_breaks++)
			w->r->first_break_ns = ev->ts_ns;
	}
	if (c->cur_pid > 0 && c->cur_pid != ev->pid) {
		t = find_task(w, c->cur_pid);
		if (t && t->on_cpu == cpu)
			t->on_cpu = -1;
	}
	c->cur_known = 1;
	c->cur_switched = 0;
	c->cur_pid = ev->pid;
	c->cur_prio = LAT_PRIO_UNKNOWN;
	c->cur_start = ev->ts_ns;
	memcpy(c->cur_comm, ev->comm, LAT_COMM_LEN);
	c->cur_comm[LAT_COMM_LEN - 1] = 0;
	c->cur_task = NULL;
	if (ev->pid == 0)
		return;
	t = get_task(w, ev->pid, ev->comm);
	if (!t)
		return;
	c->cur_task = t;
	c->cur_prio = t->prio;	/* its last known, from a switch or waking of it */
	if (t->pending) {
		/* it runs: its switch-in was not seen */
		if (was_known && c->seen && infer_ok(t, cpu, ev, low)) {
			infer_end(w, c, cpu, t, low, ev->ts_ns);
			c->cur_switched = 2;
		} else {
			phantom(w, t, ev->ts_ns);
		}
	}
	t->on_cpu = cpu;
}

/*
 * Who woke: the running task, or the irq it was in.  The event's own context
 * (common_flags, or the text's irq-info column) says whether it fired inside a
 * hard irq, softirq or NMI even when no irq events were recorded; the open
 * irq, softirq and hrtimer callback name it.  Without the context, an open
 * irq or softirq says it.  Every field is written (no memset).
 */
static void make_waker(const struct wk_cpu *c, int32_t cpu, const struct lat_event *ev,
		       struct lat_wake_waker *k)
{
	const struct wk_open_irq *o = NULL;

	k->pid = ev->pid;
	k->cpu = cpu;
	k->ctx = LAT_WAKE_CTX_TASK;
	k->irq = -1;
	k->irq_name[0] = 0;
	k->timer = 0;
	k->stack = -1;
	k->from_wakeup = 0;
	memcpy(k->comm, ev->comm, LAT_COMM_LEN);
	k->comm[LAT_COMM_LEN - 1] = 0;
	if ((ev->flags & (LAT_EVF_KNOWN | LAT_EVF_NMI | LAT_EVF_HARDIRQ | LAT_EVF_SOFTIRQ)) ==
	    LAT_EVF_KNOWN)
		return;		/* in task context: the common case */
	if (ev->flags & LAT_EVF_KNOWN) {
		if (ev->flags & LAT_EVF_NMI) {
			k->ctx = LAT_WAKE_CTX_NMI;
		} else if (ev->flags & LAT_EVF_HARDIRQ) {
			k->ctx = LAT_WAKE_CTX_IRQ;
			o = c->hard.open ? &c->hard : NULL;
		} else if (ev->flags & LAT_EVF_SOFTIRQ) {
			k->ctx = LAT_WAKE_CTX_SOFTIRQ;
			o = c->soft.open ? &c->soft : NULL;
		}
	} else if (c->hard.open) {
		k->ctx = LAT_WAKE_CTX_IRQ;
		o = &c->hard;
	} else if (c->soft.open) {
		k->ctx = LAT_WAKE_CTX_SOFTIRQ;
		o = &c->soft;
	}
	if (o) {
		k->irq = o->irq;
		memcpy(k->irq_name, o->name, sizeof(k->irq_name));
	}
	if (k->ctx != LAT_WAKE_CTX_TASK && c->timer.open) {
		memcpy(k->irq_name, c->timer.name, sizeof(k->irq_name));
		k->timer = 1;
	}
}

static void owe_clear(struct wk *w, struct wk_cpu *c)
{
	if (!c->owed_since)
		return;
	c->owed_since = 0;
	w->nowed--;
}

/*
 * A task woken for CPU @queued that should run there at once: the CPU is idle,
 * or the task is real-time (prio < 100) and above the one running.  Until the
 * CPU's next switch, a silence on it is a stall (docs/wakeup.md).
 */
static void owe_release(struct wk *w, struct wk_task *t)
{
	struct wk_cpu *c;

	if (t->owed_cpu < 0)
		return;
	c = w->cpus[t->owed_cpu];
	if (c->owed_pid == t->pid)
		owe_clear(w, c);
	t->owed_cpu = -1;
}

/*
 * The CPU is the waking's target_cpu (the task's last CPU), then sched_wakeup's
 * (the one chosen), then a migration's destination: each moves the debt.
 */
static inline int owes(const struct wk_cpu *c, const struct wk_task *t)
{
	return c->cur_known && !c->owed_since &&
	       (c->cur_pid == 0 || (t->prio >= 0 && t->prio < 100 && c->cur_prio >= 0 &&
				    t->prio < c->cur_prio));
}

static __attribute__((noinline)) void owe_set(struct wk *w, struct wk_task *t, struct wk_cpu *c,
					       int32_t queued, uint64_t ts)
{
	c->owed_since = ts;
	c->owed_pid = t->pid;
	memcpy(c->owed_comm, t->comm, LAT_COMM_LEN);
	t->owed_cpu = queued;
	w->nowed++;
}

static void owe(struct wk *w, struct wk_task *t, int32_t queued, uint64_t ts)
{
	struct wk_cpu *c;

	owe_release(w, t);
	if (queued < 0 || (size_t)queued >= w->ncpus || !(c = w->cpus[queued]) || !owes(c, t))
		return;
	c->owed_since = ts;
	c->owed_pid = t->pid;
	memcpy(c->owed_comm, t->comm, LAT_COMM_LEN);
	t->owed_cpu = queued;
	w->nowed++;
}

static inline __attribute__((always_inline)) void start_wait(struct wk *w, struct wk_task *t,
							      enum lat_wait_kind kind, uint64_t ts,
							      int32_t queued,
							      const struct lat_wake_waker *k,
							      const struct wk_cpu *wc)
{
	t->pending = 1;
	t->at_wakeup = 0;
	t->kind = (uint8_t)kind;
	t->start = ts;
	t->gaps_at_start = w->recent.ngaps;
	t->queued_cpu = queued;
	t->rq_wake = -1;
	t->area_cpu = -1;
	t->snap_cpu = -1;
	t->queued_ns = 0;
	t->queued_busy = 0;
	if (t->owed_cpu >= 0)
		owe_release(w, t);
	if ((size_t)queued < w->ncpus && w->cpus[queued]) {	/* -1: none */
		struct wk_cpu *qc = w->cpus[queued];

		if (w->activity && qc->nq && ts > qc->area_ts)
			wk_act_add(w, queued, WK_ACT_RQ, qc->area_ts, ts, qc->nq);
		if (ts > qc->area_ts) {
			qc->area += (uint64_t)qc->nq * (ts - qc->area_ts);
			qc->area_ts = ts;
		}
		if (kind != LAT_WAIT_PREEMPT)
			cum_snap(t, qc, ts);	/* for verdict_above(): wakeup waits only */
		t->rq_wake = (int32_t)qc->nq + (qc->cur_known && qc->cur_pid > 0);
		t->area0 = qc->area;
		t->area_cpu = queued;
		qc->nq++;
		t->qcpu = queued;
		if (kind != LAT_WAIT_PREEMPT && owes(qc, t))
			owe_set(w, t, qc, queued, ts);
	}
	t->nmigr = 0;
	t->migr_dropped = 0;
	t->chain_ref = 0;
	if (k) {
		if (k != &t->waker)
			t->waker = *k;
	} else {
		memset(&t->waker, 0, sizeof(t->waker));
		t->waker.pid = -1;
		t->waker.cpu = -1;
		t->waker.irq = -1;
		t->waker.stack = -1;
	}
	/* why the waker was late: its own last wait and the chain behind it */
	if (k && k->ctx == LAT_WAKE_CTX_TASK && k->pid > 0 && k->pid != t->pid) {
		/* the waker is usually the task running on @wc, the CPU of the waking */
		const struct wk_task *wt = wc && wc->cur_task && wc->cur_task->pid == k->pid ?
					   wc->cur_task : find_task(w, k->pid);

		if (wt)
			t->chain_ref = wt->last_ref;
	}
}

/* The link node @nd packs, its held_by still lazy. */
static void node_link(const struct wk_node *nd, struct lat_wake_link *l)
{
	l->pid = nd->pid;
	l->cpu = nd->cpu;
	memcpy(l->comm, nd->comm, LAT_COMM_LEN);
	l->kind = (enum lat_wait_kind)nd->kind;
	l->start_ns = nd->start_ns;
	l->end_ns = nd->end_ns;
	l->latency_ns = (int64_t)(nd->end_ns - nd->start_ns);
	l->waker = nd->waker;
	l->held_by_pid = WK_HELD_LAZY;
	l->held_by_comm[0] = 0;
	l->held_ns = 0;
	l->held_unknown = 0;
	l->preempted = nd->preempted;
}

/* The chain from node @ref back, at most LAT_WAKE_CHAIN_MAX links (held_by still lazy). */
static void chain_copy(const struct wk_chain *ch, uint64_t ref, struct lat_wake_case *c)
{
	c->nchain = 0;
	while (ref && c->nchain < LAT_WAKE_CHAIN_MAX) {
		const struct wk_node *nd = &ch->nodes[ref & (WK_NODES - 1)];

		if (nd->seq != ref) {
			c->chain_cut = 1;	/* WK_NODES waits ended since: the ring moved on */
			return;
		}
		node_link(nd, &c->chain[c->nchain++]);
		ref = nd->parent;
	}
}

/*
 * The case of a wait that qualifies for the worst (end_wait(), rare): what is known at its
 * end, kept in c->done until the CPU's next switch completes it (wk_finish_done()).
 */
static void done_case(struct wk *w, struct wk_cpu *c, int32_t cpu, const struct wk_task *t,
		      uint64_t ts, int64_t lat)
{
	struct wk_done *d = &c->done;

	memset(&d->c, 0, sizeof(d->c));
	d->c.pid = t->pid;
	d->c.prio = t->prio;
	d->c.policy = t->policy;
	d->c.cpu = cpu;
	memcpy(d->c.comm, t->comm, LAT_COMM_LEN);
	d->c.kind = (enum lat_wait_kind)t->kind;
	d->c.queued_cpu = t->queued_cpu;
	d->c.start_ns = t->start;
	d->c.end_ns = ts;
	d->c.latency_ns = lat;
	d->c.inferred_end = t->inferred;
	d->c.end_low_ns = t->inferred ? t->end_low : ts;
	d->c.rq_at_wake = t->rq_wake;
	d->c.rq_avg = -1;
	if (t->area_cpu == cpu && lat > 0)
		d->c.rq_avg = (double)(c->area - t->area0) / (double)lat;
	d->c.waker = t->waker;
	chain_copy(&w->chain, t->chain_ref, &d->c);
	d->c.nmigr = t->nmigr;
	memcpy(d->c.migr, t->migr, t->nmigr * sizeof(t->migr[0]));
	d->c.migr_dropped = t->migr_dropped;
}

/*
 * An exporter's record of the wait @l of @t that ends now, with @verdict: the
 * verdict verdicts_above counted it under (end_wait()), -1 when it was not
 * judged.
 */
static __attribute__((noinline)) void sink_wait(struct wk *w, const struct wk_task *t,
						 const struct wk_node *nd, int trusted,
						 int verdict)
{
	struct lat_wake_link l;
	struct lat_wait_rec rec = { .w = &l, .prio = t->prio, .queued_cpu = t->queued_cpu,
				    .trusted = (uint8_t)trusted };

	node_link(nd, &l);
	if (verdict >= 0)
		rec.verdict = lat_verdict_name((enum lat_verdict_kind)verdict);

	w->o->sink->wait(w->o->sink->ctx, &rec);
}

/* Inline: one call per wait in on_switch(); infer_end() is the rare other caller. */
static inline __attribute__((always_inline)) void end_wait(struct wk *w, struct wk_cpu *c,
							   int32_t cpu, struct wk_task *t,
							   uint64_t ts)
{
	int64_t lat = (int64_t)(ts - t->start);
	int trusted = t->gaps_at_start == w->recent.ngaps;
	int verdict = -1;		/* judged: the verdict verdicts_above counted */
	struct wk_done *d = &c->done;
	struct wk_chain *ch = &w->chain;
	struct wk_node *nd;

	t->pending = 0;
	if (t->owed_cpu >= 0)
		owe_release(w, t);
	rq_leave(w, t, ts);
	/* this wait becomes the first link of any chain through this task */
	if (!ch->nodes &&
	    !(ch->nodes = lat_bigmap(WK_NODES * sizeof(*ch->nodes), &ch->map, &ch->maplen))) {
		w->oom = 1;
		return;
	}
	nd = &ch->nodes[++ch->nseq & (WK_NODES - 1)];
	nd->seq = ch->nseq;
	nd->parent = t->chain_ref;
	t->last_ref = ch->nseq;
	nd->start_ns = t->start;
	nd->end_ns = ts;
	nd->pid = t->pid;
	nd->cpu = cpu;
	memcpy(nd->comm, t->comm, LAT_COMM_LEN);
	nd->waker = t->waker;
	nd->kind = t->kind;
	nd->preempted = t->kind == LAT_WAIT_PREEMPT && t->plus;

	if (!t->match || (w->sel.classing && !class_ok(w, t->prio))) {
		if (!trusted) {
			t->untrusted++;
			w->r->untrusted++;
		}
		goto uncounted;
	}
	t->sel = 1;
	if (!trusted) {
		t->untrusted++;
		w->r->untrusted++;
		goto uncounted;
	}
	if (t->inferred && !w->r->inferred_waits++)
		w->r->first_inferred_ns = ts;
	if (t->kind == LAT_WAIT_PREEMPT) {
		w->r->preempt_waits++;
		wk_hist_add(w, t, c, 1, lat);
	} else {
		w->r->waits++;
		if (t->prio >= -1 && t->prio < t->wait_prio)
			t->wait_prio = t->prio;
		if (lat >= t->wake.max || !t->wake.n)
			t->max_end = ts;
		/* w->all is the CPUs' histograms merged at the end */
		wk_hist_add(w, t, c, 0, lat);
		if (lat >= w->above_ns)
			verdict = (int)verdict_above(w, c, t, ts, lat);
		if (lat > w->fail_ns)
			w->r->over_limit++;
	}
	if (w->sink_wait)
		sink_wait(w, t, nd, 1, verdict);
	if (d->valid)
		wk_finish_done(w, c, cpu);
	d->candidate = t->kind != LAT_WAIT_PREEMPT &&
		       wk_qualifies(w, t->inferred ? (int64_t)(t->end_low - t->start) : lat);
	if (!d->candidate && !w->r->has_stacks)
		return;
	d->valid = 1;
	d->pid = t->pid;
	d->kind = (enum lat_wait_kind)t->kind;
	d->start = t->start;
	d->end = ts;
	if (!d->candidate)
		return;
	done_case(w, c, cpu, t, ts, lat);
	return;
uncounted:
	if (w->sink_wait)
		sink_wait(w, t, nd, trusted, -1);
}

/*
 * A real-time or deadline task's wait that ends with a lower-priority task
 * (@s, not idle) leaving the CPU: a priority inversion, or a section of that
 * task the kernel could not preempt (docs/wakeup.md, "Real-time tasks").
 */
static void check_inversion(struct wk *w, int32_t cpu, const struct wk_task *t,
			    const struct wk_slice *s, int32_t prio, uint64_t ts)
{
	struct lat_wake_inversion *v = &w->r->worst_inversion;
	int64_t lat = (int64_t)(ts - t->start);

	if (wk_policy_of(prio) == LAT_POL_FAIR || t->kind == LAT_WAIT_PREEMPT ||
	    lat < LAT_WAKE_PI_NS || s->pid <= 0 || t->gaps_at_start != w->recent.ngaps ||
	    wk_rank(prio, s->prio) >= 0 || !t->match || (w->sel.classing && !class_ok(w, prio)))
		return;
	if (w->recent.nstall && wk_stall_overlap(w, cpu, t->start, ts) * 2 >= lat)
		return;
	if (!w->r->inversions++ || lat > (int64_t)(v->end_ns - v->start_ns)) {
		v->pid = t->pid;
		v->prio = prio;
		memcpy(v->comm, t->comm, LAT_COMM_LEN);
		v->holder_pid = s->pid;
		v->holder_prio = s->prio;
		memcpy(v->holder_comm, s->comm, LAT_COMM_LEN);
		v->cpu = cpu;
		v->start_ns = t->start;
		v->end_ns = ts;
	}
}

/*
 * A switch out of another task than the one the switches said was running: that
 * one left unseen, and ran until here.
 */
static void switch_break(struct wk *w, struct wk_cpu *c, int32_t cpu,
			 const struct lat_event *ev)
{
	struct wk_slice *b = next_slice(c);
	struct wk_task *t;

	*b = (struct wk_slice){ .start = c->cur_start, .end = ev->ts_ns, .pid = c->cur_pid,
				.prio = c->cur_prio, .stack = -1 };
	memcpy(b->comm, c->cur_comm, LAT_COMM_LEN);
	cum_add(c, b->pid, b->prio, b->end - b->start);
	sink_cur_slice(w, c, cpu, ev->ts_ns, LAT_SLICE_BREAK);
	c->cur_start = ev->ts_ns;	/* counted up to here */
	if (!w->r->switch_breaks++)
		w->r->first_break_ns = ev->ts_ns;
	if (c->cur_pid > 0 && (t = find_task(w, c->cur_pid)) && t->on_cpu == cpu)
		t->on_cpu = -1;
}

static void on_switch(struct wk *w, struct wk_cpu *c, int32_t cpu, const struct lat_event *ev)
{
	struct wk_slice *s;
	struct wk_task *t;
	/* the switches said prev was running (cont), or another task (broke), or nothing */
	int cont = c->cur_known && c->cur_pid == ev->u.sw.prev_pid;
	int broke = c->cur_known && !cont;
	uint64_t low = c->last_ts;	/* read when broke only */

	if (broke)
		switch_break(w, c, cpu, ev);
	owe_clear(w, c);
	/* written in place: a slice is written at every switch, read for a few cases */
	s = next_slice(c);
	s->start = cont ? c->cur_start : ev->ts_ns;
	s->end = ev->ts_ns;
	s->pid = ev->u.sw.prev_pid;
	s->prio = ev->u.sw.prev_prio;
	s->stack = -1;
	s->preempted = ev->u.sw.prev_state == LAT_TS_RUNNING;
	cum_add(c, s->pid, s->prio, s->end - s->start);
	memcpy(s->comm, ev->u.sw.prev_comm, LAT_COMM_LEN);
	s->comm[LAT_COMM_LEN - 1] = 0;
	if (w->activity && s->pid > 0)
		wk_act_add(w, cpu, WK_ACT_BUSY, s->start, s->end, 1);
	c->stack_kind = WK_STK_SWITCH;
	c->stack_pid = ev->u.sw.prev_pid;
	if (w->sink_slice) {
		struct lat_run_slice rs = { .cpu = cpu, .pid = s->pid, .prio = s->prio,
					    .start_ns = s->start, .end_ns = s->end,
					    .start_known = (uint8_t)cont,
					    .end = LAT_SLICE_SWITCH, .state = ev->u.sw.prev_state };

		memcpy(rs.comm, s->comm, LAT_COMM_LEN);
		w->o->sink->slice(w->o->sink->ctx, &rs);
	}

	if (ev->u.sw.prev_pid > 0 &&
	    (t = get_cur_task(w, c, ev->u.sw.prev_pid, ev->u.sw.prev_comm))) {
		t->prio = ev->u.sw.prev_prio;
		if (t->on_cpu == cpu)
			t->on_cpu = -1;
		if (t->pending && broke && c->seen && infer_ok(t, cpu, ev, low))
			infer_end(w, c, cpu, t, low, ev->ts_ns);	/* it ran: switch-in missing */
		if (t->pending) {
			/* a wait that started while it still ran (or from a lost view) */
			t->pending = 0;
			w->r->canceled++;
			if (t->owed_cpu >= 0)
				owe_release(w, t);
			rq_leave(w, t, ev->ts_ns);
		}
		t->off = 0;
		if (ev->u.sw.prev_state == LAT_TS_RUNNING) {
			start_wait(w, t, LAT_WAIT_PREEMPT, ev->ts_ns, cpu, NULL, NULL);
			/* R+: the preempt mark above the state bits (0x100 since 4.14) */
			t->plus = ev->u.sw.prev_state_raw != 0;
		} else if (ev->u.sw.prev_state == LAT_TS_SLEEPING || ev->u.sw.prev_state == LAT_TS_DISK) {
			t->off = 1;
			t->off_start = ev->ts_ns;
			t->off_stack = -1;
		}
	}

	c->cur_known = 1;
	c->cur_switched = 1;
	c->cur_pid = ev->u.sw.next_pid;
	c->cur_prio = ev->u.sw.next_prio;
	c->cur_start = ev->ts_ns;
	memcpy(c->cur_comm, ev->u.sw.next_comm, LAT_COMM_LEN);
	c->cur_comm[LAT_COMM_LEN - 1] = 0;
	c->cur_task = NULL;
	if (ev->u.sw.next_pid <= 0 || !(t = get_task(w, ev->u.sw.next_pid, ev->u.sw.next_comm)))
		return;
	c->cur_task = t;
	t->prio = ev->u.sw.next_prio;
	if (t->pending) {
		check_inversion(w, cpu, t, s, ev->u.sw.next_prio, ev->ts_ns);
		end_wait(w, c, cpu, t, ev->ts_ns);
	}
	if (t->off) {
		t->off = 0;
		if (t->off_stack >= 0 && t->match)
			wk_stack_blame_off(&w->stacks, t->off_stack,
					   (int64_t)(ev->ts_ns - t->off_start));
	}
	t->on_cpu = cpu;
}

/*
 * The probe samples' points (analyze/probe.c): a waking (sched_wakeup when the
 * trace has no waking) notes for its task the irq entry and hrtimer_wakeup
 * expiry last seen on the waker's CPU.  A few stores; nothing when no probe
 * samples are collected.
 */
static inline void probe_waking(struct wk *w, const struct wk_cpu *c, int32_t cpu,
				struct wk_task *t, const struct lat_event *ev,
				enum lat_ev_type type)
{
	if (type == LAT_EV_WAKING)
		w->pseen.waking = 1;
	else if (type != LAT_EV_WAKEUP || w->pseen.waking)
		return;
	t->pw_ts = ev->ts_ns;
	t->pw_cpu = ev->u.wake.target_cpu >= 0 ? ev->u.wake.target_cpu : cpu;
	t->pw_wcpu = cpu;
	t->pw_irq_ts = c->pr_irq_ts;
	t->pw_expire_ts = c->pr_expire_ts;
}

static int name_is(const struct lat_event *ev, const char *event)
{
	const char *n = ev->name, *c;

	if (!n)
		return 0;
	c = strchr(n, ':');
	return !strcmp(c ? c + 1 : n, event);
}

static void probe_irq_entry(struct wk_cpu *c, uint64_t ts, const char *name)
{
	size_t i = c->pr_ihead++ % WK_PR_IRQS;

	c->pr_irq_ts = ts;
	c->pr_irq[i].ts = ts;
	strncpy(c->pr_irq[i].name, name && name[0] ? name : "irq", sizeof(c->pr_irq[i].name) - 1);
	c->pr_irq[i].name[sizeof(c->pr_irq[i].name) - 1] = 0;
}

/* The events only the probe samples use: an hrtimer expiry or local timer irq by name. */
static void probe_other(struct wk *w, struct wk_cpu *c, const struct lat_event *ev)
{
	if (name_is(ev, "hrtimer_expire_entry")) {
		w->pseen.expire = 1;
		c->pr_expire_ts = ev->ts_ns;
	} else if (name_is(ev, "local_timer_entry")) {
		w->pseen.local_timer = 1;
		probe_irq_entry(c, ev->ts_ns, "local_timer");
	}
}

static void probe_timer(struct wk *w, struct wk_cpu *c, const struct lat_event *ev)
{
	w->pseen.expire = 1;
	/* a task's sleep ends in hrtimer_wakeup; the tick and other callbacks are not it */
	if (!ev->u.irq.name || !ev->u.irq.name[0] || !strncmp(ev->u.irq.name, "hrtimer_wakeup", 14))
		c->pr_expire_ts = ev->ts_ns;
}

/* The run-queue holder: who ran longest on @c in [@from, @to], not @pid. */
static void probe_holder(const struct wk_cpu *c, int32_t pid, uint64_t from, uint64_t to,
			 struct lat_probe_view *v)
{
	for (size_t i = c->rlen; i > 0; i--) {
		const struct wk_slice *sl = wk_ring_at(c, i - 1);
		uint64_t a = sl->start > from ? sl->start : from, b = sl->end < to ? sl->end : to;

		if (sl->end <= from)
			break;
		if (b <= a || sl->pid == pid || (int64_t)(b - a) <= v->holder_ns)
			continue;
		v->holder_ns = (int64_t)(b - a);
		v->holder_pid = sl->pid;
		memcpy(v->holder_comm, sl->comm, LAT_COMM_LEN);
	}
}

/* lat_probe_view_fn: the points of the marker @ev's task (analyze_priv.h). */
static void wk_probe_view(void *ctx, const struct lat_event *ev, struct lat_probe_view *v)
{
	const struct wk *w = ctx;
	const struct wk_cpu *c = ev->cpu >= 0 && (size_t)ev->cpu < w->ncpus ? w->cpus[ev->cpu] :
				 NULL;
	const struct wk_task *t = ev->pid > 0 ? find_task(w, ev->pid) : NULL;

	v->holder_pid = -1;
	if (!c || !c->cur_known || !c->cur_switched || c->cur_pid != ev->pid ||
	    c->cur_start > ev->ts_ns)
		return;
	v->switch_ts = c->cur_start;
	if (!t || !t->pw_ts || t->pw_cpu != ev->cpu || t->pw_ts > v->switch_ts ||
	    t->pw_ts < c->pr_lost_ts)
		return;
	v->waking_ts = t->pw_ts;
	v->irq_ts = t->pw_irq_ts;
	v->expire_ts = t->pw_expire_ts;
	if (v->irq_ts && (size_t)t->pw_wcpu < w->ncpus && w->cpus[t->pw_wcpu]) {
		const struct wk_cpu *wc = w->cpus[t->pw_wcpu];

		for (size_t i = 0; i < WK_PR_IRQS; i++)
			if (wc->pr_irq[i].ts == v->irq_ts)
				memcpy(v->irq_name, wc->pr_irq[i].name, sizeof(v->irq_name));
	}
	probe_holder(c, ev->pid, v->waking_ts, v->switch_ts, v);
}

/* @type is ev->type, a constant at each of handle()'s three calls: one copy each */
static inline __attribute__((always_inline)) void on_wake(struct wk *w, struct wk_cpu *c,
							   int32_t cpu,
							   const struct lat_event *ev,
							   enum lat_ev_type type)
{
	struct wk_task *t = get_task(w, ev->u.wake.pid, ev->u.wake.comm);
	struct lat_wake_waker k;

	if (!t || ev->u.wake.pid <= 0)
		return;
	t->prio = ev->u.wake.prio;
	if (w->pr)
		probe_waking(w, c, cpu, t, ev, type);
	if (type == LAT_EV_WAKING) {
		if (t->on_cpu >= 0 || ev->pid == t->pid) {
			/* it woke itself (or was woken) before calling schedule() */
			w->r->self_wakes++;
			return;
		}
		/* the kernel traces a waking only of a sleeping task: it ran and slept since */
		if (t->pending && t->kind == LAT_WAIT_PREEMPT)
			preempt_woken(w, t, ev->ts_ns);
		else if (t->pending)
			phantom(w, t, ev->ts_ns);
		if (w->wake_tent) {
			make_waker(c, cpu, ev, &t->tent);
			t->has_tent = 1;
			c->stack_kind = WK_STK_WAKING;
			c->stack_pid = t->pid;
			return;
		}
		if (t->pending)
			return;
		/* made in place: a waker is 76 bytes, one per wait */
		make_waker(c, cpu, ev, &t->waker);
		start_wait(w, t, LAT_WAIT_WAKEUP, ev->ts_ns, ev->u.wake.target_cpu, &t->waker, c);
		c->stack_kind = WK_STK_WAKING;
		c->stack_pid = t->pid;
		return;
	}
	/* sched_wakeup / sched_wakeup_new */
	if (t->pending && t->at_wakeup && t->on_cpu < 0 && ev->pid != t->pid)
		phantom(w, t, ev->ts_ns);	/* a second wakeup: likewise */
	if (t->pending && t->kind != LAT_WAIT_PREEMPT && ev->u.wake.target_cpu != t->queued_cpu)
		owe(w, t, ev->u.wake.target_cpu, t->start);	/* another CPU chosen */
	if (t->on_cpu >= 0 || ev->pid == t->pid || t->pending) {
		t->has_tent = 0;
		return;
	}
	if (t->has_tent) {
		k = t->tent;
	} else {
		make_waker(c, cpu, ev, &k);
		k.from_wakeup = 1;
	}
	t->has_tent = 0;
	start_wait(w, t, type == LAT_EV_WAKEUP_NEW ? LAT_WAIT_NEW : LAT_WAIT_WAKEUP,
		   ev->ts_ns, ev->u.wake.target_cpu, &k, c);
	t->at_wakeup = 1;
}

/*
 * sched_setscheduler() as the syscall events show it (docs/wakeup.md,
 * "Scheduling classes"): the policy asked at the entry (pid 0: the caller)
 * is the target's once the exit returns 0.  The priority is behind a user
 * pointer: it still comes from the prio of the sched_* events.
 */
static __attribute__((noinline)) void on_setsched(struct wk *w, const struct lat_event *ev)
{
	struct wk_task *t = ev->pid > 0 ? get_task(w, ev->pid, ev->comm) : NULL, *x;

	if (!t)
		return;
	if (ev->type == LAT_EV_SETSCHED) {
		t->ss_pending = 1;
		t->ss_target = ev->u.setsched.pid > 0 ? ev->u.setsched.pid : ev->pid;
		t->ss_policy = ev->u.setsched.policy & ~0x40000000;	/* SCHED_RESET_ON_FORK */
		return;
	}
	if (!t->ss_pending)
		return;
	t->ss_pending = 0;
	if (ev->u.setsched.ret != 0 || t->ss_policy < 0 || t->ss_policy > 6)
		return;
	x = t->ss_target == t->pid ? t : find_task(w, t->ss_target);
	if (!x)
		x = get_task(w, t->ss_target, "");
	if (x) {
		x->policy = t->ss_policy;
		w->r->setscheds++;
	}
}

/*
 * A pending wait moves to another CPU: the time so far counts as queued
 * (elsewhere), busy when a task ran on the CPU it leaves; the sums start
 * again on the new CPU.
 */
static void migrate_snap(struct wk *w, struct wk_task *t, const struct lat_event *ev)
{
	int32_t from = ev->u.migrate.orig_cpu, to = ev->u.migrate.dest_cpu;
	const struct wk_cpu *fc = from >= 0 && (size_t)from < w->ncpus ? w->cpus[from] : NULL;

	t->queued_ns = ev->ts_ns > t->start ? ev->ts_ns - t->start : 0;
	t->queued_busy = fc && fc->cur_known && fc->cur_pid > 0;
	if (to >= 0 && (size_t)to < w->ncpus && w->cpus[to])
		cum_snap(t, w->cpus[to], ev->ts_ns);
	else
		t->snap_cpu = -1;
}

static void on_migrate(struct wk *w, const struct lat_event *ev)
{
	struct wk_task *t = find_task(w, ev->u.migrate.pid);
	struct wk_mig *m = NULL;
	struct wk_recent *rc = &w->recent;

	if (!rc->migs && !(rc->migs = lat_arena_alloc(&w->arena, WK_MIG_RING * sizeof(*rc->migs))))
		w->oom = 1;
	else
		m = &rc->migs[ring_push(&rc->mighead, &rc->nmig, WK_MIG_RING)];
	if (m) {
		m->ts_ns = ev->ts_ns;
		m->from_cpu = ev->u.migrate.orig_cpu;
		m->to_cpu = ev->u.migrate.dest_cpu;
		m->pid = ev->u.migrate.pid;
		memcpy(m->comm, ev->u.migrate.comm, LAT_COMM_LEN);
		m->comm[LAT_COMM_LEN - 1] = 0;
	}
	if (!t || !t->pending)
		return;
	if (t->owed_cpu >= 0)
		owe(w, t, ev->u.migrate.dest_cpu, ev->ts_ns);
	migrate_snap(w, t, ev);
	if (t->qcpu >= 0) {
		struct wk_cpu *dc = ev->u.migrate.dest_cpu >= 0 &&
				    (size_t)ev->u.migrate.dest_cpu < w->ncpus ?
				    w->cpus[ev->u.migrate.dest_cpu] : NULL;

		rq_leave(w, t, ev->ts_ns);
		if (dc) {
			rq_add(w, dc, ev->ts_ns, 1);
			t->qcpu = ev->u.migrate.dest_cpu;
		}
		t->area_cpu = -1;	/* moved: no average over one CPU */
	}
	if (t->nmigr < LAT_WAKE_MIGR_MAX)
		t->migr[t->nmigr++] = (struct lat_wake_migr){ ev->ts_ns, ev->u.migrate.orig_cpu,
							      ev->u.migrate.dest_cpu };
	else
		t->migr_dropped++;
}

/* The handler's name into @buf (@len bytes, NUL-padded); no printf: one per irq entry. */
static void irq_name(const struct lat_event *ev, int soft, char *buf, size_t len)
{
	static const char *const vec[] = { "HI", "TIMER", "NET_TX", "NET_RX", "BLOCK",
					   "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU" };
	const char *s = ev->u.irq.name;

	if ((!s || !s[0]) && soft && ev->u.irq.irq >= 0 &&
	    (size_t)ev->u.irq.irq < LAT_ARRAY_SIZE(vec))
		s = vec[ev->u.irq.irq];
	if (s && s[0]) {
		strncpy(buf, s, len - 1);
		buf[len - 1] = 0;
	} else {
		snprintf(buf, len, "%s%d", soft ? "softirq" : "irq", ev->u.irq.irq);
	}
}

/* An hrtimer callback: open from its entry to its exit, it names a waking inside it. */
static void on_timer(struct wk_cpu *c, const struct lat_event *ev)
{
	if (ev->type == LAT_EV_TIMER_EXIT) {
		c->timer.open = 0;
		return;
	}
	c->timer.open = 1;
	c->timer.start = ev->ts_ns;
	c->timer.irq = -1;
	memset(c->timer.name, 0, sizeof(c->timer.name));
	if (ev->u.irq.name && ev->u.irq.name[0])
		strncpy(c->timer.name, ev->u.irq.name, sizeof(c->timer.name) - 1);
	else
		memcpy(c->timer.name, "hrtimer", sizeof("hrtimer"));
}

static void on_irq(struct wk *w, struct wk_cpu *c, int32_t cpu, const struct lat_event *ev)
{
	int soft = ev->type == LAT_EV_SOFTIRQ_ENTRY || ev->type == LAT_EV_SOFTIRQ_EXIT;
	struct wk_open_irq *o = soft ? &c->soft : &c->hard;
	struct wk_irq q;

	if (ev->type == LAT_EV_IRQ_ENTRY && w->pr) {
		w->pseen.irq = 1;
		probe_irq_entry(c, ev->ts_ns, ev->u.irq.name);
	}
	if (ev->type == LAT_EV_IRQ_ENTRY || ev->type == LAT_EV_SOFTIRQ_ENTRY) {
		o->open = 1;
		o->start = ev->ts_ns;
		o->irq = ev->u.irq.irq;
		irq_name(ev, soft, o->name, sizeof(o->name));
		return;
	}
	if (!o->open)
		return;
	o->open = 0;
	q.start = o->start;
	q.end = ev->ts_ns;
	q.irq = o->irq;
	q.soft = (uint8_t)soft;
	memcpy(q.name, o->name, sizeof(q.name));
	push_irq(c, &q);
	if (w->activity)
		wk_act_add(w, cpu, WK_ACT_IRQ, q.start, q.end, 1);
	c->cum.v[WK_CUM_IRQ] += q.end - q.start;
}

/*
 * x86's irq_vectors:* events (local_timer, reschedule, call_function, irq_work,
 * ...: the vectors that are no irq_handler_entry) as hard irqs named by their
 * vector: "irq_vectors:local_timer_entry" opens "local_timer", its _exit closes
 * it.  A waking inside one is then credited to it by name.
 */
static void on_vector(struct wk_cpu *c, const struct lat_event *ev)
{
	const char *n = ev->name + 12;
	size_t l = strlen(n);
	struct wk_irq q;

	if (l > 6 && !memcmp(n + l - 6, "_entry", 6)) {
		l -= 6;
		if (l >= sizeof(c->hard.name))
			l = sizeof(c->hard.name) - 1;
		c->hard.open = 1;
		c->hard.start = ev->ts_ns;
		c->hard.irq = -1;
		memset(c->hard.name, 0, sizeof(c->hard.name));
		memcpy(c->hard.name, n, l);
	} else if (l > 5 && !memcmp(n + l - 5, "_exit", 5) && c->hard.open) {
		c->hard.open = 0;
		q.start = c->hard.start;
		q.end = ev->ts_ns;
		q.irq = c->hard.irq;
		q.soft = 0;
		memcpy(q.name, c->hard.name, sizeof(q.name));
		push_irq(c, &q);
		c->cum.v[WK_CUM_IRQ] += q.end - q.start;
	}
}

/* latscope's "probe=timer cpu=1 lat_ns=73210" and cyclictest's "hit latency threshold (X > Y)" */
static int64_t marker_latency(const char *s, size_t len)
{
	char buf[128];
	const char *p;

	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, s, len);
	buf[len] = 0;
	p = strstr(buf, "lat_ns=");
	if (p && isdigit((unsigned char)p[7]))
		return strtoll(p + 7, NULL, 10);
	p = strstr(buf, "hit latency threshold (");
	if (p && isdigit((unsigned char)p[23]))
		return strtoll(p + 23, NULL, 10) * LAT_NS_PER_US;
	return -1;
}

static void on_marker(struct wk *w, int32_t cpu, const struct lat_event *ev)
{
	struct lat_wake_marker *m;
	struct wk_recent *rc = &w->recent;
	size_t len = ev->u.marker.text ? ev->u.marker.len : 0;

	if (!rc->marks) {
		rc->mcap = w->o->timelines > 0 ? WK_MARK_RING_TL : WK_MARK_RING;
		rc->marks = lat_arena_alloc(&w->arena, rc->mcap * sizeof(*rc->marks));
		if (!rc->marks) {
			w->oom = 1;
			return;
		}
	}
	m = &rc->marks[ring_push(&rc->mhead, &rc->mlen, rc->mcap)];
	m->ts_ns = ev->ts_ns;
	m->cpu = cpu;
	m->pid = ev->pid;
	if (len >= sizeof(m->text))
		len = sizeof(m->text) - 1;
	if (len)
		memcpy(m->text, ev->u.marker.text, len);
	m->text[len] = 0;
	m->lat_ns = len ? marker_latency(ev->u.marker.text, ev->u.marker.len) : -1;
	if (w->o->sink && w->o->sink->marker)
		w->o->sink->marker(w->o->sink->ctx, ev, m->lat_ns);
}

static void on_lost(struct wk *w, struct wk_cpu *c, int32_t cpu, const struct lat_event *ev)
{
	struct lat_wakeup_result *r = w->r;
	struct wk_recent *rc = &w->recent;
	struct lat_wake_gap g = { .cpu = cpu, .from_ns = c->seen ? c->last_ts : r->first_ns,
				  .to_ns = ev->ts_ns, .count = ev->u.lost.count };

	if (r->ngaps < LAT_WAKE_GAPS_MAX) {
		if (!r->gaps && !(r->gaps = calloc(LAT_WAKE_GAPS_MAX, sizeof(*r->gaps)))) {
			w->oom = 1;
			return;
		}
		r->gaps[r->ngaps++] = g;
	}
	/* the recent ones again, for the timelines built later */
	rc->rgaps[ring_push(&rc->gaphead, &rc->ngap, WK_GAP_RING)] = g;
	r->ngaps_total++;
	c->lost += ev->u.lost.count;
	/* the task ran at least until the last event seen before the gap */
	sink_cur_slice(w, c, cpu, g.from_ns > c->cur_start ? g.from_ns : c->cur_start,
		       LAT_SLICE_LOST);
	if (w->o->sink && w->o->sink->lost)
		w->o->sink->lost(w->o->sink->ctx, &g);
	/* every wait pending now spans the gap: it is counted as untrusted when it ends */
	rc->ngaps++;
	c->cur_known = 0;
	c->pr_irq_ts = 0;
	c->pr_expire_ts = 0;
	c->pr_lost_ts = ev->ts_ns;
	c->hard.open = 0;
	c->soft.open = 0;
	c->timer.open = 0;
	owe_clear(w, c);
}

static void on_stack(struct wk *w, struct wk_cpu *c, const struct lat_event *ev)
{
	int32_t id;
	struct wk_task *t;

	w->r->has_stacks = 1;
	if (c->stack_kind == WK_STK_NONE || !ev->u.stack.ips || !ev->u.stack.depth)
		return;
	id = wk_stack_intern(w, ev->u.stack.ips, ev->u.stack.syms, ev->u.stack.depth);
	if (id < 0)
		goto out;
	t = c->stack_pid > 0 ? find_task(w, c->stack_pid) : NULL;
	if (c->stack_kind == WK_STK_SWITCH) {
		if (c->rlen) {
			struct wk_slice *s = &c->ring[(c->rhead + c->rlen - 1) & (c->rcap - 1)];

			if (s->pid == c->stack_pid)
				s->stack = id;
		}
		if (t && t->off)
			t->off_stack = id;
	} else if (t) {
		if (t->pending)
			t->waker.stack = id;
		if (t->has_tent)
			t->tent.stack = id;
	}
out:
	c->stack_kind = WK_STK_NONE;
}

static void on_task(struct wk *w, const struct lat_event *ev)
{
	if (ev->type == LAT_EV_SETSCHED || ev->type == LAT_EV_SETSCHED_EXIT)
		on_setsched(w, ev);
	else if (ev->type == LAT_EV_FORK && ev->u.task.child_pid > 0)
		get_task(w, ev->u.task.child_pid, ev->u.task.child_comm);
	else if (ev->type == LAT_EV_EXEC && ev->u.task.pid > 0)
		get_task(w, ev->u.task.pid, ev->u.task.comm);
}

static void add_stall(struct wk *w, const struct lat_wake_stall *s)
{
	struct lat_wakeup_result *r = w->r;
	struct wk_recent *rc = &w->recent;

	if (r->nstalls < LAT_WAKE_STALLS_MAX) {
		if (!r->stalls && !(r->stalls = calloc(LAT_WAKE_STALLS_MAX, sizeof(*r->stalls)))) {
			w->oom = 1;
			return;
		}
		r->stalls[r->nstalls++] = *s;
	}
	rc->rstalls[ring_push(&rc->stallhead, &rc->nstall, WK_STALL_RING)] = *s;
	r->nstalls_total++;
	r->stall_ns_total += (int64_t)(s->to_ns - s->from_ns);
	/* charged to no one: taken off the running task's class, into stall */
	for (size_t i = 0; i < w->ncpus; i++) {
		struct wk_cpu *c = w->cpus[i];

		if (!c || (s->cpu >= 0 && (size_t)s->cpu != i))
			continue;
		if (c->cur_known)
			cum_add(c, c->cur_pid, c->cur_prio, -(s->to_ns - s->from_ns));
		c->cum.v[WK_CUM_STALL] += s->to_ns - s->from_ns;
	}
	if (w->o->sink && w->o->sink->stall)
		w->o->sink->stall(w->o->sink->ctx, s);
}

/* The newest stall, or NULL. */
static const struct lat_wake_stall *last_stall(const struct wk *w)
{
	return w->recent.nstall ? wk_recent_stall(&w->recent, w->recent.nstall - 1) : NULL;
}

/*
 * Silences (docs/wakeup.md, "Stalls"), checked before event @ev at @ts on @c:
 * every CPU silent for LAT_WAKE_STALL_NS while one owed a switch, or @c silent
 * that long while it owed one.  A CPU's silence inside an every-CPU stall
 * already recorded is that stall.  An event that shows the owed task running
 * (its switch-in went missing) proves nothing: it may have run all along.
 */
static void check_stall(struct wk *w, struct wk_cpu *c, const struct lat_event *ev)
{
	const struct lat_wake_stall *ls;
	struct lat_wake_stall s;
	uint64_t from, ts = ev->ts_ns;

	if (c->owed_since && ev->type != LAT_EV_SWITCH && ev->pid == c->owed_pid)
		return;
	if (w->nowed && ts - w->r->last_ns >= LAT_WAKE_STALL_NS) {
		s = (struct lat_wake_stall){ .cpu = -1, .from_ns = w->r->last_ns, .to_ns = ts,
					     .pid = -1, .waiting_pid = -1 };
		for (size_t i = 0; i < w->ncpus; i++)
			if (w->cpus[i] && w->cpus[i]->owed_since) {
				s.waiting_pid = w->cpus[i]->owed_pid;
				memcpy(s.waiting_comm, w->cpus[i]->owed_comm, LAT_COMM_LEN);
				break;
			}
		add_stall(w, &s);
	}
	if (!c->owed_since || !c->seen)
		return;
	from = c->last_ts > c->owed_since ? c->last_ts : c->owed_since;
	if (ts < from || ts - from < LAT_WAKE_STALL_NS)
		return;
	ls = last_stall(w);
	if (ls && ls->cpu < 0 && ls->from_ns <= from + LAT_WAKE_STALL_NS / 2 &&
	    ls->to_ns + LAT_WAKE_STALL_NS / 2 >= ts)
		return;
	s = (struct lat_wake_stall){ .cpu = c->id, .from_ns = from, .to_ns = ts,
				     .pid = c->cur_pid, .waiting_pid = c->owed_pid };
	memcpy(s.comm, c->cur_comm, LAT_COMM_LEN);
	memcpy(s.waiting_comm, c->owed_comm, LAT_COMM_LEN);
	add_stall(w, &s);
	/* the CPU is owed the switch still, but this silence is counted */
	c->owed_since = ts;
}

/* The events that tell which task a CPU runs (every event but these). */
#define WK_NOTE_TYPES (~((1u << LAT_EV_LOST) | (1u << LAT_EV_STACK) | (1u << LAT_EV_OTHER) | \
			 (1u << LAT_EV_SWITCH)))
_Static_assert(LAT_EV_NTYPES <= 32, "WK_NOTE_TYPES is a 32-bit mask");

/*
 * Sources give events in time order; one earlier than the last analyzed has a
 * corrupt timestamp, and would make waits of negative or absurd length:
 * counted and skipped.
 */
static __attribute__((noinline)) void backwards(struct lat_wakeup_result *r,
						const struct lat_event *ev)
{
	if (!r->backwards++) {
		r->first_back_ns = ev->ts_ns;
		r->first_back_from_ns = r->last_ns;
		r->first_back_cpu = ev->cpu;
	}
}

/*
 * One event.  Out of memory sets w->oom, which the caller checks after each
 * batch (what the analysis made is dropped then).
 */
static void handle(struct wk *w, const struct lat_event *ev)
{
	struct lat_wakeup_result *r = w->r;
	struct wk_cpu *c = NULL;
	int32_t cpu = ev->cpu;

	/* a CPU seen before: one test; a new one, or a corrupt number, below */
	if (__builtin_expect((uint32_t)cpu >= w->ncpus || !(c = w->cpus[cpu]), 0) &&
	    (cpu < 0 || cpu >= WK_MAX_CPUS)) {
		r->skipped_events++;
		return;
	}
	if (ev->ts_ns < r->last_ns) {	/* last_ns is 0 before the first event */
		backwards(r, ev);
		return;
	}
	if (__builtin_expect(!c, 0)) {
		if (!w->ncpus)
			r->first_ns = ev->ts_ns;	/* the first event taken makes the first CPU */
		if (!(c = get_cpu(w, cpu))) {
			w->oom = 1;
			return;
		}
	}
	/* a silence of LAT_WAKE_STALL_NS at least, everywhere or here, while a switch is owed */
	if (w->nowed && (ev->ts_ns - r->last_ns >= LAT_WAKE_STALL_NS ||
			 (c->owed_since && ev->ts_ns - c->last_ts >= LAT_WAKE_STALL_NS)) &&
	    ev->type != LAT_EV_LOST)
		check_stall(w, c, ev);
	r->last_ns = ev->ts_ns;
	if (ev->ts_ns > w->cases.next_we)
		wk_cap_tick(w, ev->ts_ns);
	if (ev->type != LAT_EV_STACK) {
		if (c->done.valid)
			wk_finish_done(w, c, cpu);
		c->stack_kind = WK_STK_NONE;
	}
	if (ev->type == LAT_EV_SWITCH) {	/* a third of the events: no dispatch */
		on_switch(w, c, cpu, ev);
		goto out;
	}
	if (((1u << ev->type) & WK_NOTE_TYPES) && ev->pid >= 0 &&
	    !(c->cur_known && c->cur_pid == ev->pid))
		note_current(w, c, cpu, ev);
	switch (ev->type) {
	case LAT_EV_WAKING:
		on_wake(w, c, cpu, ev, LAT_EV_WAKING);
		break;
	case LAT_EV_WAKEUP:
		on_wake(w, c, cpu, ev, LAT_EV_WAKEUP);
		break;
	case LAT_EV_WAKEUP_NEW:
		on_wake(w, c, cpu, ev, LAT_EV_WAKEUP_NEW);
		break;
	case LAT_EV_MIGRATE:
		on_migrate(w, ev);
		break;
	case LAT_EV_IRQ_ENTRY:
	case LAT_EV_IRQ_EXIT:
	case LAT_EV_SOFTIRQ_ENTRY:
	case LAT_EV_SOFTIRQ_EXIT:
		on_irq(w, c, cpu, ev);
		break;
	case LAT_EV_TIMER_ENTRY:
		if (w->pr)
			probe_timer(w, c, ev);
		/* fall through */
	case LAT_EV_TIMER_EXIT:
		on_timer(c, ev);
		break;
	case LAT_EV_MARKER:
		on_marker(w, cpu, ev);
		if (w->pr)
			lat_probe_marker(w->pr, ev);
		break;
	case LAT_EV_STACK:
		on_stack(w, c, ev);
		break;
	case LAT_EV_LOST:
		on_lost(w, c, cpu, ev);
		break;
	case LAT_EV_FORK:
	case LAT_EV_EXEC:
	case LAT_EV_SETSCHED:
	case LAT_EV_SETSCHED_EXIT:
		on_task(w, ev);
		break;
	case LAT_EV_OTHER:
		if (ev->name && !strncmp(ev->name, "irq_vectors:", 12))
			on_vector(c, ev);
		if (w->pr)
			probe_other(w, c, ev);
		break;
	default:
		break;
	}
out:
	c->seen = 1;
	c->last_ts = ev->ts_ns;
}

static void wk_release(struct wk *w)
{
	/* CPUs, tasks and their histogram rows live in the arena */
	lat_bigmap_free(w->chain.map, w->chain.maplen);
	free(w->cpus);
	free(w->tasks.slots);
	free(w->tasks.by_idx);
	wk_batch_free(&w->batch);
	wk_cases_free(&w->cases);
	wk_stacks_free(&w->stacks);
	lat_arena_release(&w->arena);
}

/* The options into @w: the ring size for @src's CPUs, --task, --policy, --min-prio, --sort. */
static void wk_setup(struct wk *w, struct lat_block *b, const struct lat_analyze_opts *o,
		     const struct lat_event_source *src, struct lat_wakeup_result *r)
{
	w->o = o;
	w->r = r;
	/* as many slices per CPU as WK_RING_BYTES allows, within [WK_RING_MIN, WK_RING_MAX] */
	w->ring_cap = WK_RING_MAX;
	while (w->ring_cap > WK_RING_MIN &&
	       w->ring_cap * sizeof(struct wk_slice) * (size_t)(src->ncpus > 0 ? src->ncpus : 8) >
	       WK_RING_BYTES)
		w->ring_cap /= 2;
	w->all.arena = &w->arena;
	w->sel.filter_pid = -1;
	if (o->task && o->task[0]) {
		char *end;
		long v = strtol(o->task, &end, 10);

		if (!*end && v >= 0 && v <= INT32_MAX)
			w->sel.filter_pid = (int32_t)v;
		else
			w->sel.filter_comm = o->task;
	}
	if (o->policy && lat_sched_policy_parse(o->policy, &w->sel.filter_pol))
		lat_block_add_finding(b, "bad-option", LAT_SEV_WARN,
				      "unknown policy '%s' (rt, fair or dl): every class kept",
				      o->policy);
	if (o->min_prio > 0 && o->min_prio < 100)
		w->sel.min_prio = o->min_prio;
	r->selecting = w->sel.filter_pid >= 0 || w->sel.filter_comm || w->sel.filter_pol ||
		       w->sel.min_prio;
	w->sel.classing = w->sel.filter_pol || w->sel.min_prio;
	w->activity = r->activity != NULL;
	w->sink_wait = o->sink && o->sink->wait;
	w->sink_slice = o->sink && o->sink->slice;
	w->wake_tent = o->wake_start == LAT_WAKE_START_WAKEUP;
	w->above_ns = o->threshold_ns > 0 ? o->threshold_ns : INT64_MAX;
	w->fail_ns = o->fail_above_ns > 0 ? o->fail_above_ns : INT64_MAX;
	if (o->sort && lat_wake_sort_parse(o->sort, &(enum lat_wake_sort){ 0 }))
		lat_block_add_finding(b, "bad-option", LAT_SEV_WARN,
				      "unknown sort key '%s': sorted by max", o->sort);
}

/* At the end of the events: the waits still open ended, the current slices sunk, flushed. */
static void wk_finish(struct wk *w, struct lat_wakeup_result *r)
{
	for (size_t i = 0; i < w->ncpus; i++)
		if (w->cpus[i] && w->cpus[i]->done.valid)
			wk_finish_done(w, w->cpus[i], (int32_t)i);
	for (size_t i = 0; i < w->ncpus; i++)
		if (w->cpus[i])
			sink_cur_slice(w, w->cpus[i], (int32_t)i, r->last_ns, LAT_SLICE_TRACE_END);
	wk_cap_close_all(w);
	wk_pend_flush(w);
}

/* Why nothing shows: no task matched --task, or none of them passed the class filters. */
static void select_findings(struct lat_block *b, const struct wk *w,
			    const struct lat_analyze_opts *o, const struct lat_wakeup_result *r)
{
	if (r->selecting && w->sel.any_match && !r->selected)
		lat_block_add_finding(b, "no-such-task", LAT_SEV_WARN,
				      "no wait of a task that matched --task passed --policy / "
				      "--min-prio: nothing to show");
	if ((w->sel.filter_pid >= 0 || w->sel.filter_comm) && !w->sel.any_match)
		lat_block_add_finding(b, "no-such-task", LAT_SEV_WARN,
				      "no task in the trace has the %s '%s' (--task): nothing to show",
				      w->sel.filter_pid >= 0 ? "pid" : "comm", o->task);
	if (!r->nevents)
		lat_block_add_finding(b, "empty", LAT_SEV_WARN, "the trace holds no events");
}

/* Events taken from the source at once (lat_event_next_batch()). */
#define WK_BATCH 32

int wk_analyze(struct lat_block *b, const struct lat_analyze_opts *o, int with_probe)
{
	struct lat_event_source *src = b->events;
	struct wk w = { 0 };
	struct lat_event evs[WK_BATCH];
	struct lat_wakeup_result *r;
	uint64_t taken = 0;
	int ret;

	if (!src)
		return -LAT_EEMPTY;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -LAT_ENOMEM;
	b->analysis = r;
	r->start = o->wake_start;
	if (o->activity && !(r->activity = calloc(1, sizeof(*r->activity))))
		return -LAT_ENOMEM;
	wk_setup(&w, b, o, src, r);
	ret = wk_cases_init(&w.cases, o->worst_n);
	/* the task table is never empty: no lookup tests for it */
	if (!ret && tasks_grow(&w))
		ret = -LAT_ENOMEM;
	if (with_probe && !(w.pr = lat_probe_new(o, wk_probe_view, &w))) {
		ret = -LAT_ENOMEM;
		goto out;
	}
	if (ret)
		goto out;
	while ((ret = lat_event_next_batch(src, evs, WK_BATCH)) > 0) {
		for (int i = 0; i < ret; i++)
			handle(&w, &evs[i]);
		taken += (uint64_t)ret;
		if (w.oom) {
			ret = -LAT_ENOMEM;
			goto out;
		}
	}
	/* the events analyzed: all but those handle() skipped */
	r->nevents = taken - r->skipped_events - r->backwards;
	if (ret < 0) {
		lat_block_add_finding(b, "read-error", r->nevents ? LAT_SEV_WARN : LAT_SEV_HIGH,
				      "reading the events failed after %llu events: %s",
				      (unsigned long long)r->nevents, lat_strerror(ret));
		if (!r->nevents)
			goto out;
	}
	if (src->stop_reason)
		r->stop_reason = strdup(src->stop_reason);
	if (src->skip_reason)
		r->skip_reason = strdup(src->skip_reason);
	wk_finish(&w, r);
	ret = w.oom ? -LAT_ENOMEM : wk_build_results(&w, src);
	if (ret)
		goto out;
	wk_add_findings(b, o, r);
	select_findings(b, &w, o, r);
out:
	if (w.pr) {
		/* the samples seen are kept even when the wakeup analysis failed */
		int pret = lat_probe_finish(b, w.pr, &w.pseen);

		if (!ret)
			ret = pret;
		lat_probe_free(w.pr);
	}
	wk_release(&w);
	return ret;
}
