// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Wakeup latency over a scheduler event stream, in one pass with bounded
 * state: the core's state machine (wakeup_state.h).  The rules (docs/wakeup.md):
 * a wait starts at the first sched_waking of a task that is not on a CPU
 * (sched_wakeup / sched_wakeup_new when no waking was recorded, or always with
 * LAT_WAKE_START_WAKEUP); a waking of a task still on a CPU starts nothing; a
 * switch-out with a sleeping state cancels a pending wait; the wait ends at
 * the sched_switch that puts the task on a CPU.  A switch-out in state R
 * starts a preemption wait, counted apart.
 *
 * Each wait's end is one record (struct wk_end) handed to the consumers in a
 * fixed order (end_wait()); each slice's end to the history, the sums, the
 * activity and the sink.  The source cannot be rewound (stdin, pipes), so the
 * worst cases are explained later from the history's bounded rings.
 */
#include <stdlib.h>
#include <string.h>

#include "wakeup_state.h"

/* The CPU @cpu when seen, else NULL (-1 and numbers out of range too). */
static inline struct wk_cpu *cpu_of(const struct wk *w, int32_t cpu)
{
	return (size_t)cpu < w->ncpus ? w->cpus[cpu] : NULL;
}

/* --policy / --min-prio, on the prio the task has when its wait ends. */
static int class_ok(const struct wk *w, int32_t prio)
{
	enum lat_sched_policy p = wk_policy_of(prio);

	if (w->sel.filter_pol != LAT_POL_UNKNOWN && p != w->sel.filter_pol)
		return 0;
	return !w->sel.min_prio || (p == LAT_POL_RT && 99 - prio >= w->sel.min_prio);
}

/* wk_get_task() for the task @pid that is likely @t (NULL: none): then without a lookup. */
static inline struct wk_task *get_task_hint(struct wk *w, struct wk_task *t, int32_t pid,
					    const char *comm)
{
	if (!t || t->pid != pid)
		return wk_get_task(w, pid, comm);
	if (comm && comm[0] && wk_comm_differs(t->comm, comm))
		wk_rename_task(w, t, comm);
	return t;
}

/* wk_get_task() for the task @pid that CPU @c runs: the one its switch-in (or first event) found. */
static inline struct wk_task *get_cur_task(struct wk *w, const struct wk_cpu *c, int32_t pid,
					   const char *comm)
{
	return get_task_hint(w, c->cur_task, pid, comm);
}

/* ---- run queues ------------------------------------------------------------------------ */

/* The run queue of @c gains (or loses) a waiting task at @ts. */
static inline void rq_add(struct wk *w, struct wk_cpu *c, uint64_t ts, int delta)
{
	wk_act_rq(&w->act, c->h.id, c->nq, c->area_ts, ts);
	if (ts > c->area_ts) {
		c->area += (uint64_t)c->nq * (ts - c->area_ts);
		c->area_ts = ts;
	}
	if (delta < 0 && !c->nq)
		return;
	c->nq = (uint32_t)((int64_t)c->nq + delta);
	wk_sink_runq(&w->sink, c->h.id, ts, c->nq);
}

/* @t stops waiting in its run queue. */
static inline void rq_leave(struct wk *w, struct wk_task *t, uint64_t ts)
{
	struct wk_cpu *c = cpu_of(w, t->qcpu);

	if (c) {
		rq_add(w, c, ts, -1);
		wk_stall_queue(&c->stall, &t->stall, t->prio, -1, ts);
	}
	t->qcpu = -1;
}

/* ---- waits --------------------------------------------------------------------------- */

/*
 * The pending wait of @t is over although no switch showed it run: an event
 * proved it ran (and maybe slept again) meanwhile.  Its length is unknown:
 * untrusted, kept out of the statistics and the worst cases.
 */
static void phantom(struct wk *w, struct wk_task *t, uint64_t ts)
{
	t->pending = 0;
	rq_leave(w, t, ts);
	wk_stats_phantom(&t->stats);
	if (!w->r->untrusted_waits++)
		w->r->first_untrusted_ns = ts;
	wk_stall_release(&w->stalls, &t->stall, t->pid);
}

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

/* wk_end.detail: the rest of @e, from the task and CPU it came from. */
static void end_detail(const struct wk_end *e, struct wk_end_detail *d)
{
	const struct wk_task *t = e->src;
	const struct wk_cpu *c = e->src_cpu;

	d->policy = t->policy;
	d->queued_cpu = t->queued_cpu;
	d->rq_wake = t->rq_wake;
	d->rq_area = t->area_cpu == e->cpu ? c->area - t->area0 : UINT64_MAX;
	d->migr = t->migr;
	d->nmigr = t->nmigr;
	d->migr_dropped = t->migr_dropped;
	d->left_cpu = t->left_until ? t->left_cpu : -1;
	d->left_from = t->left_from;
	d->left_until = t->left_until;
}

/*
 * The wait-end record of @t's wait ending at @ts on @cpu (@c), @prev the slice
 * that a switch in ended (NULL otherwise).
 */
static inline __attribute__((always_inline)) void end_record(struct wk *w, const struct wk_cpu *c,
							      int32_t cpu, const struct wk_task *t,
							      uint64_t ts,
							      const struct wk_slice *prev,
							      struct wk_end *e)
{
	const struct wk_cpu *qc;

	e->pid = t->pid;
	e->prio = t->prio;
	e->cpu = cpu;
	e->kind = (enum lat_wait_kind)t->kind;
	e->start_ns = t->start;
	e->end_ns = ts;
	e->lat_ns = (int64_t)(ts - t->start);
	e->comm = t->comm;
	e->waker = &t->waker;
	e->trusted = t->gaps_at_start == w->h.ngaps;
	e->selected = t->match;
	if (w->sel.classing)
		e->selected &= class_ok(w, t->prio);
	e->low_trust = !wk_health_ok(&c->health) ||
		       (t->queued_cpu != cpu && (qc = cpu_of(w, t->queued_cpu)) &&
			!wk_health_ok(&qc->health));
	e->counted = e->trusted && e->selected;
	e->ranked = e->counted && (!e->low_trust || w->include_untrusted);
	e->inferred = t->inferred;
	e->preempted = t->plus && t->kind == LAT_WAIT_PREEMPT;
	e->end_low_ns = t->inferred ? t->end_low : ts;
	e->prev = prev;
	e->detail = end_detail;
	e->src = t;
	e->src_cpu = c;
	e->chain_ref = 0;
	e->verdict = -1;
	e->vbasis = LAT_VBASIS_PARTS;
}

/*
 * --task COMM with timelines: a wait of @t that COMM did not select (another name then)
 * and that would rank were @t's pid selected (a report's case timeline is `--task PID`):
 * its rank kept for the cases' check in wakeup.c.
 */
static __attribute__((noinline)) void unselected_end(const struct wk *w, struct wk_task *t,
						      const struct wk_end *e)
{
	if (!e->trusted || e->kind == LAT_WAIT_PREEMPT || (e->low_trust && !w->include_untrusted) ||
	    (w->sel.classing && !class_ok(w, t->prio)))
		return;
	if (wk_end_rank(e) > t->unsel_rank)
		t->unsel_rank = wk_end_rank(e);
}

/*
 * A wait of @t ending on @c of low trust: counted on the incomplete CPU.  Inline:
 * where a CPU is incomplete, about half the waits are (91,414 of 188,640 on the
 * bench trace); elsewhere none, and the code costs nothing.
 */
static inline void low_trust(struct wk *w, struct wk_cpu *c, const struct wk_task *t)
{
	struct wk_cpu *q = cpu_of(w, t->queued_cpu);

	wk_health_low_trust(&w->health, !wk_health_ok(&c->health) || !q ? &c->health : &q->health);
}

/*
 * A wait of a task that writes timer samples ended (@e, judged by the sums
 * when of the threshold or more): judged here otherwise, not counted, and kept
 * for the sample's marker that follows (wk_probe_view()): one verdict for the
 * wait in the probe section too.  Such a task is one that wrote a sample's
 * marker before, or a real-time one whose wait was long enough to matter in
 * a sample (cyclictest -b writes a single marker, after the wait it measured).
 */
static __attribute__((noinline)) void probe_end(struct wk_task *t, const struct wk_cpu *c,
						const struct wk_end *e)
{
	struct wk_end j = *e;	/* the consumers after the sums see a short wait unjudged */

	t->pr.verdict = -1;
	if (j.counted && j.kind != LAT_WAIT_PREEMPT && j.verdict < 0)
		wk_sums_verdict(&t->sums, &c->sums, &c->h, &j);
	if (j.verdict < 0)
		return;
	t->pr.verdict = (int8_t)j.verdict;
	t->pr.v_end = j.end_ns;
	t->pr.v_part = j.evidence.part_ns;
}

/*
 * @t's wait ends at @ts on @cpu: its record goes to every consumer, in this
 * order (a consumer may add to the record for the ones after it).  Inline:
 * one call per wait in on_switch(); infer_end() is the rare other caller.
 */
static inline __attribute__((always_inline)) void end_wait(struct wk *w, struct wk_cpu *c,
							   int32_t cpu, struct wk_task *t,
							   uint64_t ts, const struct wk_slice *prev)
{
	struct wk_end e;

	t->pending = 0;
	wk_stall_release(&w->stalls, &t->stall, t->pid);
	rq_leave(w, t, ts);
	end_record(w, c, cpu, t, ts, prev, &e);
	if (wk_chain_end(&w->chain, &t->chain, &e))
		return;
	t->sel |= e.selected;
	if (e.low_trust && e.counted)
		low_trust(w, c, t);
	wk_stats_end(&w->stats, &t->stats, &c->stats, t->idx, &e);
	wk_sums_end(&w->sums, &t->sums, &c->sums, &c->h, &e);
	if (__builtin_expect(t->pr.marked || ((uint32_t)e.prio < 100 &&
					      e.lat_ns >= WK_PR_JUDGE_RT_NS), 0))
		probe_end(t, c, &e);
	wk_gate_end(&w->gate, &e);
	wk_inversion_end(&w->inv, &e);
	if (w->sink.wait)
		wk_sink_wait(&w->sink, &e, wk_chain_last(&w->chain));
	if (e.counted)
		wk_cases_end(&w->cases, &c->cases, &c->h, &e);
	else if (!t->match && w->sel.filter_comm && w->cases.timelines > 0)
		unselected_end(w, t, &e);
	wk_timer_end(&w->tmr, &t->tmr, &e);
}

/*
 * Whether event @ev of the pending task @t on @cpu ends its wait as an
 * inferred switch-in (docs/wakeup.md, "Inferred switch-ins"): an event in task
 * context (common_flags known: not in an irq, softirq or NMI) on the CPU it is
 * queued on, while the CPU's current task was known to be another, which
 * logged the CPU's last event @low at or after the waking: so the task did
 * not run there already when it was woken.  Never on a CPU whose events are
 * incomplete (wakeup_health.h): there the unrecorded switch is the rule.
 */
static inline int infer_ok(const struct wk_cpu *c, const struct wk_task *t, int32_t cpu,
			   const struct lat_event *ev, uint64_t low)
{
	int32_t q = t->qcpu >= 0 ? t->qcpu : t->queued_cpu;

	return wk_health_ok(&c->health) && (ev->flags & LAT_EVF_KNOWN) &&
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
	end_wait(w, c, cpu, t, ts, NULL);
	t->inferred = 0;
}

/*
 * The slice of the task the switches said @c ran, cut because another task
 * showed up at @ts: it ran up to the CPU's last event before (@low, as for an
 * inferred switch-in); from there to @ts who ran is not known, a slice of no
 * task (WK_PID_UNKNOWN) in the ring, the sums' unknown and nobody's in the
 * activity and the sink (docs/wakeup.md, "Missing switches").  Counted as a
 * switch break (in the result and the CPU's health) when @count.
 */
static void break_slice(struct wk *w, struct wk_cpu *c, int32_t cpu, uint64_t ts, int count)
{
	uint64_t low = c->seen && c->last_ts > c->h.cur_start ? c->last_ts : c->h.cur_start;
	struct wk_slice *b;

	if (count)	/* a CPU that never recorded a switch lost none */
		wk_health_break(&c->health, c->h.cur_pid, ts);
	if (!wk_health_ok(&c->health))
		wk_stall_clear(&w->stalls, &c->stall);	/* its idle is no proof of anything */
	if (low > ts)
		low = ts;
	/*
	 * Its switch-in its only event: no time of its known, the stretch holds it
	 * (an empty slice in the ring would read as a switch-in unseen); the
	 * export keeps the switch-in, an empty slice.
	 */
	if (low > c->h.cur_start || low == ts) {
		b = wk_ring_next(&c->h);
		*b = (struct wk_slice){ .start = c->h.cur_start, .end = low, .pid = c->h.cur_pid,
					.prio = c->h.cur_prio, .stack = -1 };
		memcpy(b->comm, c->h.cur_comm, LAT_COMM_LEN);
		wk_history_pushed(&c->h, b);
	}
	wk_cur_slice_out(w, c, cpu, low, LAT_SLICE_BREAK);
	wk_sums_slice(&c->sums, c->h.cur_pid, c->h.cur_prio, ts - c->h.cur_start);
	if (low < ts) {
		b = wk_ring_next(&c->h);
		*b = (struct wk_slice){ .start = low, .end = ts, .pid = WK_PID_UNKNOWN,
					.prio = LAT_PRIO_UNKNOWN, .stack = -1 };
		wk_sums_unknown(&c->sums, &w->h, cpu, c->h.cur_pid, c->h.cur_prio, low, ts);
	}
	if (count && !w->r->switch_breaks++)
		w->r->first_break_ns = ts;
}

/*
 * Task @t shows up running on @cpu at @ts while the switches still have it on
 * another CPU: the slice there ended by @ts (an unseen switch out); the
 * export cuts it there when the break is found (docs/export.md).  Inlined by
 * force: once per switch-in, and its first test nearly always returns.
 */
static inline __attribute__((always_inline)) void
cut_elsewhere(struct wk *w, const struct wk_task *t, int32_t cpu, uint64_t ts)
{
	struct wk_cpu *o;

	if (t->on_cpu < 0 || t->on_cpu == cpu || !(o = cpu_of(w, t->on_cpu)))
		return;
	if (!o->h.cur_known || o->h.cur_pid != t->pid || o->h.cur_start > ts)
		return;
	if (o->h.cut_pid == t->pid && o->h.cut_of == o->h.cur_start)
		return;		/* cut already, earlier */
	o->h.cut_ns = ts;
	o->h.cut_of = o->h.cur_start;
	o->h.cut_pid = t->pid;
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
	int was_known = c->h.cur_known;
	uint64_t low = c->seen ? c->last_ts : 0;

	/* without any sched_switch on the CPU (an atrace of markers) nothing went missing */
	if (c->h.cur_known)
		break_slice(w, c, cpu, ev->ts_ns, c->switched);
	if (c->h.cur_pid > 0 && c->h.cur_pid != ev->pid) {
		t = wk_find_task(w, c->h.cur_pid);
		if (t && t->on_cpu == cpu)
			t->on_cpu = -1;
	}
	c->h.cur_known = 1;
	c->cur_switched = 0;
	c->h.cur_pid = ev->pid;
	c->h.cur_prio = LAT_PRIO_UNKNOWN;
	c->h.cur_start = ev->ts_ns;
	memcpy(c->h.cur_comm, ev->comm, LAT_COMM_LEN);
	c->h.cur_comm[LAT_COMM_LEN - 1] = 0;
	c->cur_task = NULL;
	if (ev->pid == 0 || !(t = wk_get_task(w, ev->pid, ev->comm)))
		return;
	c->cur_task = t;
	c->h.cur_prio = t->prio;	/* its last known, from a switch or waking of it */
	if (t->pending) {
		/* it runs: its switch-in was not seen */
		if (was_known && c->seen && infer_ok(c, t, cpu, ev, low)) {
			infer_end(w, c, cpu, t, low, ev->ts_ns);
			c->cur_switched = 2;
		} else {
			phantom(w, t, ev->ts_ns);
		}
	}
	cut_elsewhere(w, t, cpu, ev->ts_ns);
	t->on_cpu = cpu;
}

/*
 * Who woke: the running task, or the irq it was in.  The event's own context
 * (common_flags, or the text's irq-info column) says whether it fired inside a
 * hard irq, softirq or NMI even when no irq events were recorded; the open
 * irq, softirq and hrtimer callback name it.  Without the context, an open
 * irq or softirq says it.  Every field is written (no memset).  Inlined by
 * force: once per waking, and GCC 12 kept it a call (-1.2M instructions of
 * 285M on the bench trace inlined).
 */
static inline __attribute__((always_inline)) void make_waker(const struct wk_cpu *c,
							      int32_t cpu,
							      const struct lat_event *ev,
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

/* The run queue of @qc (CPU @queued) gains @t at @ts: the start's consumers of that CPU. */
static inline __attribute__((always_inline)) void join_queue(struct wk *w, struct wk_task *t,
							      struct wk_cpu *qc, int32_t queued,
							      enum lat_wait_kind kind, uint64_t ts)
{
	wk_act_rq(&w->act, queued, qc->nq, qc->area_ts, ts);
	if (ts > qc->area_ts) {
		qc->area += (uint64_t)qc->nq * (ts - qc->area_ts);
		qc->area_ts = ts;
	}
	if (kind != LAT_WAIT_PREEMPT)
		wk_sums_snap(&t->sums, &qc->sums, &qc->h, t->prio, ts);	/* wakeup waits only */
	t->rq_wake = (int32_t)qc->nq + (qc->h.cur_known && qc->h.cur_pid > 0);
	t->area0 = qc->area;
	t->area_cpu = queued;
	qc->nq++;
	wk_sink_runq(&w->sink, queued, ts, qc->nq);
	wk_stall_queue(&qc->stall, &t->stall, t->prio, 1, ts);
	t->qcpu = queued;
	if (kind != LAT_WAIT_PREEMPT && wk_health_ok(&qc->health) &&
	    wk_stall_owes(&qc->stall, &qc->h, t->prio))
		wk_stall_set(&w->stalls, &t->stall, &qc->stall, queued, t->pid, t->comm, ts);
}

/* @t's waker @k (NULL: none known), and the chain behind it when the waker is a task. */
static inline void set_waker(struct wk *w, struct wk_task *t, const struct lat_wake_waker *k,
			     const struct wk_cpu *wc)
{
	const struct wk_task *wt = NULL;

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
	if (k && k->ctx == LAT_WAKE_CTX_TASK && k->pid > 0 && k->pid != t->pid)
		/* the waker is usually the task running on @wc, the CPU of the waking */
		wt = wc && wc->cur_task && wc->cur_task->pid == k->pid ? wc->cur_task :
		     wk_find_task(w, k->pid);
	wk_chain_start(&t->chain, wt ? &wt->chain : NULL);
}

static inline __attribute__((always_inline)) void start_wait(struct wk *w, struct wk_task *t,
							      enum lat_wait_kind kind, uint64_t ts,
							      int32_t queued,
							      const struct lat_wake_waker *k,
							      const struct wk_cpu *wc)
{
	struct wk_cpu *qc = cpu_of(w, queued);

	t->pending = 1;
	t->at_wakeup = 0;
	t->wakeup_seen = 0;
	t->kind = (uint8_t)kind;
	t->start = ts;
	t->gaps_at_start = w->h.ngaps;
	t->queued_cpu = queued;
	t->rq_wake = -1;
	t->area_cpu = -1;
	wk_sums_start(&t->sums);
	wk_stall_release(&w->stalls, &t->stall, t->pid);
	if (qc)
		join_queue(w, t, qc, queued, kind, ts);
	t->nmigr = 0;
	t->migr_dropped = 0;
	t->arrived = ts;
	t->left_until = 0;
	set_waker(w, t, k, wc);
}

/*
 * A switch out of another task than the one the switches said was running: that
 * one left unseen, and ran until here.
 */
static void switch_break(struct wk *w, struct wk_cpu *c, int32_t cpu,
			 const struct lat_event *ev)
{
	struct wk_task *t;

	break_slice(w, c, cpu, ev->ts_ns, 1);
	c->h.cur_start = ev->ts_ns;	/* counted up to here */
	if (c->h.cur_pid > 0 && (t = wk_find_task(w, c->h.cur_pid)) && t->on_cpu == cpu)
		t->on_cpu = -1;
}

/*
 * The task @ev switched out (@t, @prev_state): its wait or sleep begins, a pending one ends.
 * Inlined by force: with the timer consumer's hooks in end_wait() GCC 12 stopped inlining
 * it, a call per switch (+2.6 % instructions on the bench trace, +1.2 % inlined).
 */
static inline __attribute__((always_inline)) void
switch_out(struct wk *w, struct wk_cpu *c, int32_t cpu, struct wk_task *t,
	   const struct lat_event *ev, int broke, uint64_t low)
{
	t->prio = ev->u.sw.prev_prio;
	if (t->on_cpu == cpu)
		t->on_cpu = -1;
	if (t->pending && broke && c->seen && infer_ok(c, t, cpu, ev, low))
		infer_end(w, c, cpu, t, low, ev->ts_ns);	/* it ran: switch-in missing */
	else if (t->pending && broke && !wk_health_ok(&c->health))
		phantom(w, t, ev->ts_ns);	/* it ran, when is not known */
	if (t->pending) {
		/* a wait that started while it still ran (or from a lost view) */
		t->pending = 0;
		w->r->canceled++;
		wk_stall_release(&w->stalls, &t->stall, t->pid);
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

/*
 * A sched_switch: the slice of the task that leaves ends, the one that comes
 * in ends its wait.  Inlined by force into handle(), the loop: a third of the
 * events, too long for GCC to inline, and a call cost the frame of a large
 * function each time (~23 instructions a switch).
 */
static inline __attribute__((always_inline)) void
on_switch(struct wk *w, struct wk_cpu *c, int32_t cpu, const struct lat_event *ev)
{
	struct wk_slice *s;
	struct wk_task *t;
	/* the switches said prev was running (cont), or another task (broke), or nothing */
	int cont = c->h.cur_known && c->h.cur_pid == ev->u.sw.prev_pid;
	int broke = c->h.cur_known && !cont;
	uint64_t low = c->last_ts;	/* read when broke only */

	if (broke)
		switch_break(w, c, cpu, ev);
	wk_health_switch(&c->health, ev->u.sw.prev_pid, ev->u.sw.next_pid);
	wk_stall_clear(&w->stalls, &c->stall);
	/* written in place: a slice is written at every switch, read for a few cases */
	s = wk_ring_next(&c->h);
	s->start = cont ? c->h.cur_start : ev->ts_ns;
	s->end = ev->ts_ns;
	s->pid = ev->u.sw.prev_pid;
	s->prio = ev->u.sw.prev_prio;
	s->stack = -1;
	s->preempted = ev->u.sw.prev_state == LAT_TS_RUNNING;
	wk_sums_slice(&c->sums, s->pid, s->prio, s->end - s->start);
	memcpy(s->comm, ev->u.sw.prev_comm, LAT_COMM_LEN);
	s->comm[LAT_COMM_LEN - 1] = 0;
	wk_history_pushed(&c->h, s);
	wk_act_busy(&w->act, cpu, s->pid, s->start, s->end);
	c->stack_kind = WK_STK_SWITCH;
	c->stack_pid = ev->u.sw.prev_pid;
	if (w->sink.slice)
		wk_sink_switch(&w->sink, cpu, s, cont, ev->u.sw.prev_state);
	if (ev->u.sw.prev_pid > 0 &&
	    (t = get_cur_task(w, c, ev->u.sw.prev_pid, ev->u.sw.prev_comm)))
		switch_out(w, c, cpu, t, ev, broke, low);

	c->h.cur_known = 1;
	c->cur_switched = 1;
	c->switched = 1;
	c->h.cur_pid = ev->u.sw.next_pid;
	c->h.cur_prio = ev->u.sw.next_prio;
	c->h.cur_start = ev->ts_ns;
	memcpy(c->h.cur_comm, ev->u.sw.next_comm, LAT_COMM_LEN);
	c->h.cur_comm[LAT_COMM_LEN - 1] = 0;
	c->cur_task = NULL;
	if (ev->u.sw.next_pid <= 0 || !(t = wk_get_task(w, ev->u.sw.next_pid, ev->u.sw.next_comm)))
		return;
	c->cur_task = t;
	t->prio = ev->u.sw.next_prio;
	if (t->pending)
		end_wait(w, c, cpu, t, ev->ts_ns, s);
	if (t->off) {
		t->off = 0;
		if (t->off_stack >= 0 && t->match)
			wk_stack_blame_off(&w->stacks, t->off_stack,
					   (int64_t)(ev->ts_ns - t->off_start));
	}
	cut_elsewhere(w, t, cpu, ev->ts_ns);
	t->on_cpu = cpu;
}

/* A sched_waking: a wait starts unless its task still runs, or its pending one was a phantom. */
static inline __attribute__((always_inline)) void on_waking(struct wk *w, struct wk_cpu *c,
							     int32_t cpu, struct wk_task *t,
							     const struct lat_event *ev)
{
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
}

/*
 * sched_wakeup names the CPU @t was queued on; sched_waking's target_cpu is the
 * CPU it last ran on, before the kernel chose.  Where no sched_migrate_task
 * moved the wait there (not recorded), it was never queued on the old one: the
 * wait is queued on @to from now, as if woken there (its run queue, sums, the
 * switch owed).
 */
static __attribute__((noinline)) void wakeup_queue(struct wk *w, struct wk_task *t, int32_t to,
						    uint64_t ts)
{
	struct wk_cpu *qc = cpu_of(w, to), *fc = cpu_of(w, t->qcpu >= 0 ? t->qcpu : t->queued_cpu);

	/* the microseconds since the waking count as queued, as for a migration */
	wk_sums_migrate(&t->sums, fc ? &fc->h : NULL, qc ? &qc->sums : NULL, qc ? &qc->h : NULL,
			t->prio, t->start, ts);
	rq_leave(w, t, ts);
	wk_stall_release(&w->stalls, &t->stall, t->pid);
	t->arrived = ts;	/* never queued on the old one: nothing left there */
	t->queued_cpu = to;
	t->rq_wake = -1;
	t->area_cpu = -1;
	if (qc)
		join_queue(w, t, qc, to, (enum lat_wait_kind)t->kind, ts);
}

/* @type is ev->type, a constant at each of handle()'s three calls: one copy each */
static inline __attribute__((always_inline)) void on_wake(struct wk *w, struct wk_cpu *c,
							   int32_t cpu,
							   const struct lat_event *ev,
							   enum lat_ev_type type)
{
	struct wk_task *t;
	struct lat_wake_waker k;

	/* a sched_wakeup nearly always follows its sched_waking: its task, without a lookup */
	if (type == LAT_EV_WAKING)
		t = wk_get_task(w, ev->u.wake.pid, ev->u.wake.comm);
	else
		t = get_task_hint(w, w->woken, ev->u.wake.pid, ev->u.wake.comm);
	if (!t || ev->u.wake.pid <= 0)
		return;
	w->woken = t;
	wk_timer_wake(&w->tmr, &c->tmr, &t->tmr, ev, t->on_cpu);
	t->prio = ev->u.wake.prio;
	wk_health_wake(&w->health, &c->health, &t->health, type, t->pid, t->comm, ev->ts_ns);
	if (w->pr) {
		if (type == LAT_EV_WAKING)
			w->pseen.waking = 1;
		if (type == LAT_EV_WAKING || (type == LAT_EV_WAKEUP && !w->pseen.waking))
			wk_probe_waking(&t->pr, &c->pr, cpu, ev->u.wake.target_cpu, ev->ts_ns);
	}
	if (type == LAT_EV_WAKING) {
		on_waking(w, c, cpu, t, ev);
		return;
	}
	/* sched_wakeup / sched_wakeup_new: a second one of a wait proves it ran meanwhile */
	if (t->pending && t->wakeup_seen && t->kind != LAT_WAIT_PREEMPT && t->on_cpu < 0 &&
	    ev->pid != t->pid)
		phantom(w, t, ev->ts_ns);
	if (t->pending && t->kind != LAT_WAIT_PREEMPT && !t->wakeup_seen &&
	    ev->u.wake.target_cpu != (t->qcpu >= 0 ? t->qcpu : t->queued_cpu))
		wakeup_queue(w, t, ev->u.wake.target_cpu, ev->ts_ns);
	t->wakeup_seen |= t->pending && t->kind != LAT_WAIT_PREEMPT;
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
	t->wakeup_seen = 1;
}

/* A pending wait of @t moves to another CPU: its run queue, its debt, its sums. */
static void migrate_wait(struct wk *w, struct wk_task *t, const struct lat_event *ev)
{
	int32_t to = ev->u.migrate.dest_cpu;
	struct wk_cpu *fc = cpu_of(w, ev->u.migrate.orig_cpu), *dc = cpu_of(w, to);

	if (t->stall.owed_cpu >= 0) {
		struct wk_cpu *oc = dc && wk_health_ok(&dc->health) ? dc : NULL;

		wk_stall_owe(&w->stalls, &t->stall, oc ? &oc->stall : NULL, oc ? &oc->h : NULL, to,
			     t->pid, t->prio, t->comm, ev->ts_ns);
	}
	wk_sums_migrate(&t->sums, fc ? &fc->h : NULL, dc ? &dc->sums : NULL, dc ? &dc->h : NULL,
			t->prio, t->start, ev->ts_ns);
	if (t->qcpu >= 0) {
		rq_leave(w, t, ev->ts_ns);
		if (dc) {
			rq_add(w, dc, ev->ts_ns, 1);
			wk_stall_queue(&dc->stall, &t->stall, t->prio, 1, ev->ts_ns);
			t->qcpu = to;
		}
		t->area_cpu = -1;	/* moved: no average over one CPU */
	}
	t->left_cpu = ev->u.migrate.orig_cpu;
	t->left_from = t->arrived;
	t->left_until = t->arrived = ev->ts_ns;
	if (t->nmigr < LAT_WAKE_MIGR_MAX)
		t->migr[t->nmigr++] = (struct lat_wake_migr){ ev->ts_ns, ev->u.migrate.orig_cpu,
							      to };
	else
		t->migr_dropped++;
}

static void on_migrate(struct wk *w, const struct lat_event *ev)
{
	struct wk_task *t = wk_find_task(w, ev->u.migrate.pid);
	struct wk_mig *m = wk_history_mig(&w->h, &w->arena);

	if (!m) {
		w->oom = 1;
	} else {
		m->ts_ns = ev->ts_ns;
		m->from_cpu = ev->u.migrate.orig_cpu;
		m->to_cpu = ev->u.migrate.dest_cpu;
		m->pid = ev->u.migrate.pid;
		memcpy(m->comm, ev->u.migrate.comm, LAT_COMM_LEN);
		m->comm[LAT_COMM_LEN - 1] = 0;
	}
	if (t && t->pending)
		migrate_wait(w, t, ev);
}

/*
 * The events that tell which task a CPU runs (every event but these).  hrtimer_start and
 * hrtimer_cancel stay out as they were while uninterpreted: the recordings that hold them
 * find the same waits as before the timer consumer read them.
 */
#define WK_NOTE_TYPES (~((1u << LAT_EV_LOST) | (1u << LAT_EV_STACK) | (1u << LAT_EV_OTHER) | \
			 (1u << LAT_EV_SWITCH) | (1u << LAT_EV_TIMER_START) | \
			 (1u << LAT_EV_TIMER_CANCEL)))
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
 * Event @ev on @c ends a silence of LAT_WAKE_STALL_NS at least there (maybe
 * everywhere): was something due?  And the CPU's trace health counts it.
 */
static __attribute__((noinline)) void silence(struct wk *w, struct wk_cpu *c,
					      const struct lat_event *ev)
{
	if (ev->type != LAT_EV_LOST)
		wk_check_stall(w, c, ev);
	wk_health_silence(&c->health, c->last_ts, ev->ts_ns);
}

/* The events of neither the wait machine nor the CPU's current task. */
static void dispatch_other(struct wk *w, struct wk_cpu *c, int32_t cpu, const struct lat_event *ev)
{
	if ((1u << ev->type) & WK_TMR_EVENTS)
		wk_timer_event(&w->tmr, &c->tmr, &c->h, c->seen ? c->last_ts : 0, ev);
	switch (ev->type) {
	case LAT_EV_MIGRATE:
		on_migrate(w, ev);
		break;
	case LAT_EV_IRQ_ENTRY:
	case LAT_EV_IRQ_EXIT:
	case LAT_EV_SOFTIRQ_ENTRY:
	case LAT_EV_SOFTIRQ_EXIT:
		wk_on_irq(w, c, cpu, ev);
		break;
	case LAT_EV_TIMER_ENTRY:
	case LAT_EV_TIMER_EXIT:
		wk_on_timer(w, c, ev);
		break;
	case LAT_EV_MARKER:
		wk_on_marker(w, cpu, ev);
		break;
	case LAT_EV_STACK:
		wk_on_stack(w, c, ev);
		break;
	case LAT_EV_LOST:
		wk_on_lost(w, c, cpu, ev);
		break;
	case LAT_EV_FORK:
	case LAT_EV_EXEC:
	case LAT_EV_SETSCHED:
	case LAT_EV_SETSCHED_EXIT:
		wk_on_task(w, ev);
		break;
	case LAT_EV_OTHER:
		wk_on_other(w, c, ev);
		break;
	default:
		break;
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
		if (!(c = wk_new_cpu(w, cpu))) {
			w->oom = 1;
			return;
		}
	}
	if (__builtin_expect(wk_stall_due(ev->ts_ns, c->last_ts), 0))
		silence(w, c, ev);
	r->last_ns = ev->ts_ns;
	if (__builtin_expect(w->sink.event, 0))
		w->sink.s->event(w->sink.s->ctx, ev);
	wk_health_event(&c->health);
	if (ev->ts_ns > w->cases.next_we)
		wk_cases_tick(&w->cases, ev->ts_ns);
	/* a stack event belongs to the event before it: that one's wait is finished after it */
	if (ev->type == LAT_EV_SWITCH) {	/* a third of the events: no dispatch */
		wk_cases_event(&w->cases, &c->cases, &c->h);
		on_switch(w, c, cpu, ev);	/* sets stack_kind: the switch's */
		goto out;
	}
	if (ev->type != LAT_EV_STACK) {
		wk_cases_event(&w->cases, &c->cases, &c->h);
		c->stack_kind = WK_STK_NONE;
	}
	/* the event of the task the CPU runs, nearly always: that tested first */
	if (!(c->h.cur_pid == ev->pid && c->h.cur_known) && ((1u << ev->type) & WK_NOTE_TYPES) &&
	    ev->pid >= 0)
		note_current(w, c, cpu, ev);
	if (ev->type == LAT_EV_WAKING)
		on_wake(w, c, cpu, ev, LAT_EV_WAKING);
	else if (ev->type == LAT_EV_WAKEUP)
		on_wake(w, c, cpu, ev, LAT_EV_WAKEUP);
	else if (ev->type == LAT_EV_WAKEUP_NEW)
		on_wake(w, c, cpu, ev, LAT_EV_WAKEUP_NEW);
	else
		dispatch_other(w, c, cpu, ev);
out:
	c->seen = 1;
	c->last_ts = ev->ts_ns;
}

/* Events taken from the source at once (lat_event_next_batch()). */
#define WK_BATCH 32

int wk_run(struct wk *w, struct lat_event_source *src, uint64_t *taken)
{
	struct lat_event evs[WK_BATCH];
	int ret;

	while ((ret = lat_event_next_batch(src, evs, WK_BATCH)) > 0) {
		for (int i = 0; i < ret; i++)
			handle(w, &evs[i]);
		*taken += (uint64_t)ret;
		if (w->oom)
			break;
	}
	return ret;
}
