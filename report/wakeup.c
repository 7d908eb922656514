// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Wakeup analysis reports: tables, a short narrative per worst case, blame by
 * kernel stack.  JSON keys: docs/json-wakeup.md.
 */
#include <string.h>

#include "latscope/an_wakeup.h"
#include "latscope/export.h"
#include "report_priv.h"

/* ---- JSON ------------------------------------------------------------------------- */

static void stack_json(struct lat_json *j, const char *key, const struct lat_wakeup_result *r,
		       int32_t id)
{
	if (id < 0 || (size_t)id >= r->nstacks)
		return;
	lat_json_str(j, key, r->stacks[id].folded);
}

static void waker_json(struct lat_json *j, const struct lat_tgids *tg,
		       const struct lat_wakeup_result *r, const struct lat_wake_waker *k)
{
	lat_json_obj_open(j, "waker");
	rp_json_task(j, tg, k->pid);
	lat_json_str(j, "comm", k->comm);
	lat_json_int(j, "cpu", k->cpu);
	lat_json_str(j, "context", lat_wake_ctx_name(k->ctx));
	if (k->ctx != LAT_WAKE_CTX_TASK) {
		lat_json_int(j, "irq", k->irq);
		lat_json_str(j, "irq_name", k->irq_name);
		lat_json_bool(j, "hrtimer", k->timer);
	}
	lat_json_bool(j, "from_wakeup", k->from_wakeup);
	stack_json(j, "stack", r, k->stack);
	lat_json_obj_close(j);
}


/*
 * "policy", "rt_priority" or "nice" (docs/json-wakeup.md), beside a "prio";
 * with @policy >= -1 (a task's own, -1 not recorded) also "policy_inferred".
 */
static void sched_json_pol(struct lat_json *j, int32_t prio, int32_t policy)
{
	enum lat_sched_policy p = lat_sched_policy_of(prio);
	int from;
	const char *name = lat_sched_policy_name_pol(prio, policy, &from);

	if (p == LAT_POL_UNKNOWN)
		return;
	lat_json_str(j, "policy", name);
	if (policy >= -1)
		lat_json_bool(j, "policy_inferred", !from);
	if (p == LAT_POL_RT && prio == LAT_PRIO_RT_UNKNOWN)
		lat_json_null(j, "rt_priority");
	else if (p == LAT_POL_RT)
		lat_json_int(j, "rt_priority", 99 - prio);
	else if (p == LAT_POL_FAIR)
		lat_json_int(j, "nice", prio - 120);
}

static void sched_json(struct lat_json *j, int32_t prio)
{
	sched_json_pol(j, prio, -2);
}

static void stall_json(struct lat_json *j, const struct lat_tgids *tg,
		       const struct lat_wake_stall *s)
{
	lat_json_obj_open(j, NULL);
	lat_json_int(j, "cpu", s->cpu);
	lat_json_uint(j, "from_ns", s->from_ns);
	lat_json_uint(j, "to_ns", s->to_ns);
	lat_json_int(j, "ns", (int64_t)(s->to_ns - s->from_ns));
	if (s->pid >= 0) {
		rp_json_task(j, tg, s->pid);
		lat_json_str(j, "comm", s->comm);
	}
	if (s->waiting_pid >= 0) {
		lat_json_int(j, "waiting_tid", s->waiting_pid);
		lat_json_str(j, "waiting_comm", s->waiting_comm);
	}
	lat_json_str(j, "due", lat_stall_due_name(s->due));
	if (s->due == LAT_STALL_QUEUED)
		lat_json_uint(j, "queued", s->queued);
	if (s->due == LAT_STALL_PROBE)
		lat_json_int(j, "probe_ns", s->probe_ns);
	if (s->due == LAT_STALL_TIMER) {
		lat_json_str(j, "timer", s->timer_fn);
		if (s->timer_pid > 0) {
			lat_json_int(j, "timer_tid", s->timer_pid);
			lat_json_str(j, "timer_comm", s->timer_comm);
		}
	}
	if (s->steal_ns >= 0)
		lat_json_int(j, "steal_ns", s->steal_ns);
	lat_json_obj_close(j);
}

/* "on_cpu": who held a CPU (longest first, shares of @total), "other_ns", "other_tasks". */
static void holders_json(struct lat_json *j, const struct lat_tgids *tg,
			 const struct lat_wakeup_result *r, const struct lat_wake_oncpu *h, size_t n, int64_t other_ns,
			 size_t other_tasks, int64_t total)
{
	lat_json_arr_open(j, "on_cpu");
	for (size_t i = 0; i < n; i++) {
		const struct lat_wake_oncpu *o = &h[i];

		lat_json_obj_open(j, NULL);
		rp_json_task(j, tg, o->pid);
		lat_json_str(j, "comm", o->comm);
		if (o->prio == LAT_PRIO_UNKNOWN)
			lat_json_null(j, "prio");
		else
			lat_json_int(j, "prio", o->prio);
		if (o->pid != 0)
			sched_json(j, o->prio);
		lat_json_int(j, "ns", o->ns);
		lat_json_fixed(j, "share", total ? (double)o->ns / (double)total : 0, 3);
		lat_json_uint(j, "slices", o->slices);
		lat_json_bool(j, "idle", o->pid == 0);
		stack_json(j, "stack", r, o->stack);
		lat_json_obj_close(j);
	}
	lat_json_arr_close(j);
	lat_json_int(j, "other_ns", other_ns);
	lat_json_uint(j, "other_tasks", other_tasks);
}

/* The case's identity, its wait and its verdict. */
static void case_head_json(struct lat_json *j, const struct lat_tgids *tg,
			   const struct lat_wake_case *c)
{
	char ev[LAT_VERDICT_TEXT_LEN];

	rp_json_task(j, tg, c->pid);
	lat_json_str(j, "comm", c->comm);
	lat_json_int(j, "prio", c->prio);
	sched_json_pol(j, c->prio, c->policy);
	lat_json_int(j, "cpu", c->cpu);
	lat_json_int(j, "queued_cpu", c->queued_cpu);
	lat_json_str(j, "kind", lat_wait_kind_name(c->kind));
	lat_json_uint(j, "start_ns", c->start_ns);
	lat_json_uint(j, "end_ns", c->end_ns);
	lat_json_int(j, "latency_ns", c->latency_ns);
	lat_json_bool(j, "end_inferred", c->inferred_end);
	if (c->inferred_end)
		lat_json_uint(j, "end_low_ns", c->end_low_ns);
	else
		lat_json_null(j, "end_low_ns");
	if (c->unseen_pid > 0) {
		lat_json_obj_open(j, "unseen_switch_in");
		rp_json_task(j, tg, c->unseen_pid);
		lat_json_str(j, "comm", c->unseen_comm);
		lat_json_int(j, "ns", c->unseen_ns);
		lat_json_obj_close(j);
	} else {
		lat_json_null(j, "unseen_switch_in");
	}
	lat_json_obj_open(j, "verdict");
	lat_json_str(j, "kind", lat_verdict_name(c->verdict.kind));
	lat_json_fixed(j, "share", c->verdict.share, 3);
	lat_json_str(j, "evidence", lat_report_verdict_text(c, ev, sizeof(ev)));
	lat_json_obj_close(j);
	if (c->chain_verdict.waker_waited) {
		lat_json_obj_open(j, "chain_verdict");
		lat_json_str(j, "kind", c->chain_verdict.waker_late ? "waker-late" : "none");
		lat_json_fixed(j, "share", c->chain_verdict.share, 3);
		lat_json_int(j, "end_to_end_ns", c->chain_verdict.e2e_ns);
		lat_json_str(j, "evidence", lat_report_chain_text(c, ev, sizeof(ev)));
		lat_json_obj_close(j);
	} else {
		lat_json_null(j, "chain_verdict");
	}
}

/* Who held the CPU (and the CPU it was queued on) while the task waited. */
static void case_holders_json(struct lat_json *j, const struct lat_tgids *tg,
			      const struct lat_wakeup_result *r, const struct lat_wake_case *c)
{
	holders_json(j, tg, r, c->on_cpu, c->non_cpu, c->other_ns, c->other_tasks, c->latency_ns);
	if (c->queued_until_ns) {
		lat_json_obj_open(j, "queued");
		lat_json_int(j, "cpu", c->queued_left_cpu);
		if (c->queued_from_ns > c->start_ns)	/* moved more than once */
			lat_json_uint(j, "from_ns", c->queued_from_ns);
		lat_json_uint(j, "until_ns", c->queued_until_ns);
		holders_json(j, tg, r, c->queued_on, c->nqueued_on, c->queued_other_ns,
			     c->queued_other_tasks,
			     (int64_t)(c->queued_until_ns - c->queued_from_ns));
		lat_json_obj_close(j);
	}
	lat_json_int(j, "unaccounted_ns", c->unaccounted_ns);
	lat_json_int(j, "missing_switch_ns", c->missing_ns);
	lat_json_bool(j, "partial", c->partial);
}

static void case_irqs_json(struct lat_json *j, const struct lat_wake_case *c)
{
	lat_json_arr_open(j, "irqs");
	for (size_t i = 0; i < c->nirqs; i++) {
		lat_json_obj_open(j, NULL);
		lat_json_str(j, "kind", c->irqs[i].softirq ? "softirq" : "irq");
		lat_json_int(j, "irq", c->irqs[i].irq);
		lat_json_str(j, "name", c->irqs[i].name);
		lat_json_int(j, "ns", c->irqs[i].ns);
		lat_json_uint(j, "count", c->irqs[i].count);
		lat_json_obj_close(j);
	}
	lat_json_arr_close(j);
	lat_json_int(j, "other_irq_ns", c->other_irq_ns);
	lat_json_uint(j, "other_irqs", c->other_irqs);
}

/* The wakeup chain: who woke the waker, and what held each link. */
static void case_chain_json(struct lat_json *j, const struct lat_tgids *tg,
			    const struct lat_wakeup_result *r, const struct lat_wake_case *c)
{
	lat_json_arr_open(j, "chain");
	for (size_t i = 0; i < c->nchain; i++) {
		const struct lat_wake_link *l = &c->chain[i];

		lat_json_obj_open(j, NULL);
		rp_json_task(j, tg, l->pid);
		lat_json_str(j, "comm", l->comm);
		lat_json_int(j, "cpu", l->cpu);
		lat_json_str(j, "kind", lat_wait_kind_name(l->kind));
		lat_json_uint(j, "start_ns", l->start_ns);
		lat_json_uint(j, "end_ns", l->end_ns);
		lat_json_int(j, "latency_ns", l->latency_ns);
		if (l->kind == LAT_WAIT_PREEMPT)
			lat_json_str(j, "state", l->preempted ? "R+" : "R");
		if (l->held_by_pid >= 0) {
			lat_json_obj_open(j, "held_by");
			rp_json_task(j, tg, l->held_by_pid);
			lat_json_str(j, "comm", l->held_by_comm);
			lat_json_int(j, "ns", l->held_ns);
			lat_json_obj_close(j);
		} else if (l->held_unknown) {
			lat_json_bool(j, "held_by_unknown", 1);
		}
		waker_json(j, tg, r, &l->waker);
		lat_json_obj_close(j);
	}
	lat_json_arr_close(j);
	if (c->chain_cut)
		lat_json_bool(j, "chain_cut", 1);
}

/* Migrations and trace_marker lines during the wait. */
static void case_events_json(struct lat_json *j, const struct lat_tgids *tg,
			     const struct lat_wake_case *c)
{
	lat_json_arr_open(j, "migrations");
	for (size_t i = 0; i < c->nmigr; i++) {
		lat_json_obj_open(j, NULL);
		lat_json_uint(j, "ts_ns", c->migr[i].ts_ns);
		lat_json_int(j, "from_cpu", c->migr[i].from_cpu);
		lat_json_int(j, "to_cpu", c->migr[i].to_cpu);
		lat_json_obj_close(j);
	}
	lat_json_arr_close(j);
	lat_json_uint(j, "migrations_dropped", c->migr_dropped);
	lat_json_arr_open(j, "markers");
	for (size_t i = 0; i < c->nmarkers; i++) {
		lat_json_obj_open(j, NULL);
		lat_json_uint(j, "ts_ns", c->markers[i].ts_ns);
		lat_json_int(j, "cpu", c->markers[i].cpu);
		rp_json_task(j, tg, c->markers[i].pid);
		lat_json_str(j, "text", c->markers[i].text);
		if (c->markers[i].lat_ns >= 0)
			lat_json_int(j, "lat_ns", c->markers[i].lat_ns);
		lat_json_obj_close(j);
	}
	lat_json_arr_close(j);
	lat_json_uint(j, "markers_dropped", c->markers_dropped);
}

/* The run queue and every CPU's time during the wait, and the stalls in it. */
static void case_cpus_json(struct lat_json *j, const struct lat_tgids *tg,
			   const struct lat_wake_case *c)
{
	lat_json_int(j, "rq_at_wake", c->rq_at_wake);
	if (c->rq_avg >= 0)
		lat_json_fixed(j, "rq_avg", c->rq_avg, 2);
	else
		lat_json_null(j, "rq_avg");
	lat_json_arr_open(j, "cpus");
	for (size_t i = 0; i < c->ncpushare; i++) {
		const struct lat_wake_cpushare *s = &c->cpushare[i];

		lat_json_obj_open(j, NULL);
		lat_json_int(j, "cpu", s->cpu);
		lat_json_int(j, "busy_ns", s->busy_ns);
		lat_json_int(j, "idle_ns", s->idle_ns);
		lat_json_int(j, "irq_ns", s->irq_ns);
		lat_json_int(j, "stall_ns", s->stall_ns);
		lat_json_int(j, "unknown_ns", s->unknown_ns);
		lat_json_obj_close(j);
	}
	lat_json_arr_close(j);
	lat_json_int(j, "stall_ns", c->stall_ns);
	if (c->steal_ns >= 0)
		lat_json_int(j, "steal_ns", c->steal_ns);
	lat_json_arr_open(j, "stalls");
	for (size_t i = 0; i < c->nstalls; i++)
		stall_json(j, tg, &c->stalls[i]);
	lat_json_arr_close(j);
}

static void case_json(struct lat_json *j, const struct lat_tgids *tg,
		      const struct lat_wakeup_result *r, const struct lat_wake_case *c)
{
	lat_json_obj_open(j, NULL);
	case_head_json(j, tg, c);
	waker_json(j, tg, r, &c->waker);
	case_holders_json(j, tg, r, c);
	case_irqs_json(j, c);
	case_chain_json(j, tg, r, c);
	case_events_json(j, tg, c);
	case_cpus_json(j, tg, c);
	lat_json_obj_close(j);
}

static void blame_json(struct lat_json *j, const char *key, const struct lat_wake_blame *fn,
		       size_t nfn, const struct lat_wake_blame *st, size_t nst)
{
	lat_json_obj_open(j, key);
	lat_json_arr_open(j, "functions");
	for (size_t i = 0; i < nfn; i++) {
		lat_json_obj_open(j, NULL);
		lat_json_str(j, "function", fn[i].name);
		lat_json_int(j, "ns", fn[i].ns);
		lat_json_uint(j, "count", fn[i].count);
		lat_json_obj_close(j);
	}
	lat_json_arr_close(j);
	lat_json_arr_open(j, "stacks");
	for (size_t i = 0; i < nst; i++) {
		lat_json_obj_open(j, NULL);
		lat_json_str(j, "stack", st[i].name);
		lat_json_int(j, "ns", st[i].ns);
		lat_json_uint(j, "count", st[i].count);
		lat_json_obj_close(j);
	}
	lat_json_arr_close(j);
	lat_json_obj_close(j);
}

/* The counts of the analysis: events, waits, what was not counted, the selection. */
static void counts_json(struct lat_json *j, const struct lat_wakeup_result *r,
			const struct lat_analyze_opts *o)
{
	lat_json_str(j, "start_event", r->start == LAT_WAKE_START_WAKEUP ? "sched_wakeup" :
		     "sched_waking");
	lat_json_uint(j, "events", r->nevents);
	lat_json_uint(j, "first_ns", r->first_ns);
	lat_json_uint(j, "last_ns", r->last_ns);
	lat_json_uint(j, "waits", r->waits);
	lat_json_uint(j, "preempt_waits", r->preempt_waits);
	lat_json_uint(j, "untrusted", r->untrusted);
	lat_json_uint(j, "untrusted_waits", r->untrusted_waits);
	lat_json_uint(j, "inferred_waits", r->inferred_waits);
	lat_json_uint(j, "preempt_woken", r->preempt_woken);
	lat_json_uint(j, "preempt_woken_plus", r->preempt_woken_plus);
	lat_json_uint(j, "setschedulers", r->setscheds);
	if (r->selecting) {
		lat_json_obj_open(j, "selection");
		if (o && o->task)
			lat_json_str(j, "task", o->task);
		if (o && o->policy)
			lat_json_str(j, "policy", o->policy);
		if (o && o->min_prio > 0)
			lat_json_int(j, "min_prio", o->min_prio);
		lat_json_uint(j, "threads", r->selected);
		lat_json_obj_close(j);
	} else {
		lat_json_null(j, "selection");
	}
	lat_json_uint(j, "self_wakes", r->self_wakes);
	lat_json_uint(j, "canceled", r->canceled);
	lat_json_uint(j, "switch_breaks", r->switch_breaks);
	lat_json_uint(j, "backwards", r->backwards);
}

/* All waits, the @top tasks and every CPU. */
static void tables_json(struct lat_json *j, const struct lat_tgids *tg,
			const struct lat_wakeup_result *r, size_t top)
{
	lat_json_obj_open(j, "all");
	rp_report_stat_json(j, &r->all);
	lat_json_obj_close(j);
	lat_json_uint(j, "ntasks", r->ntasks);
	lat_json_arr_open(j, "tasks");
	for (size_t i = 0; i < r->ntasks && i < top; i++) {
		const struct lat_wake_task *t = &r->tasks[i];

		lat_json_obj_open(j, NULL);
		rp_json_task(j, tg, t->pid);
		lat_json_str(j, "comm", t->comm);
		rp_report_stat_json(j, &t->wake);
		lat_json_uint(j, "max_end_ns", t->max_end_ns);
		lat_json_uint(j, "untrusted", t->untrusted);
		lat_json_uint(j, "low_trust", t->low_trust);
		lat_json_obj_open(j, "preempt");
		rp_report_stat_json(j, &t->preempt);
		lat_json_obj_close(j);
		lat_json_obj_close(j);
	}
	lat_json_arr_close(j);
	lat_json_arr_open(j, "cpus");
	for (size_t i = 0; i < r->ncpus; i++) {
		const struct lat_wake_cpu *c = &r->cpus[i];

		lat_json_obj_open(j, NULL);
		lat_json_int(j, "cpu", c->cpu);
		rp_report_stat_json(j, &c->wake);
		lat_json_obj_open(j, "preempt");
		rp_report_stat_json(j, &c->preempt);
		lat_json_obj_close(j);
		lat_json_uint(j, "lost_events", c->lost);
		lat_json_uint(j, "overrun", c->overrun);
		lat_json_obj_close(j);
	}
	lat_json_arr_close(j);
}

/* Real-time threads first: every one, not cut by --top. */
static void rt_json(struct lat_json *j, const struct lat_tgids *tg,
		    const struct lat_wakeup_result *r)
{
	lat_json_arr_open(j, "rt");
	for (size_t i = 0; i < r->ntasks; i++) {
		const struct lat_wake_task *t = &r->tasks[i];

		if (!t->rt.n)
			continue;
		lat_json_obj_open(j, NULL);
		rp_json_task(j, tg, t->pid);
		lat_json_str(j, "comm", t->comm);
		lat_json_int(j, "prio", t->prio);
		sched_json_pol(j, t->prio, t->policy);
		lat_json_uint(j, "count", t->rt.n);
		lat_json_int(j, "p99_ns", t->rt.p99);
		lat_json_int(j, "max_ns", t->rt.max);
		lat_json_uint(j, "other_waits", t->wake.n - t->rt.n);
		lat_json_obj_close(j);
	}
	lat_json_arr_close(j);
}

/* The verdicts over the worst N and over every wait above the threshold. */
static void verdicts_json(struct lat_json *j, const struct lat_wakeup_result *r)
{
	lat_json_obj_open(j, "verdicts");	/* over the worst N */
	for (int k = 1; k < LAT_VERDICT_N; k++) {
		uint64_t n = 0;

		for (size_t i = 0; i < r->nworst; i++)
			n += r->worst[i].verdict.kind == (enum lat_verdict_kind)k;
		lat_json_uint(j, lat_verdict_name((enum lat_verdict_kind)k), n);
	}
	lat_json_obj_close(j);
	/* over every counted wakeup wait of at least the threshold (wakeup.md, "Verdicts") */
	lat_json_obj_open(j, "verdicts_above_threshold");
	lat_json_uint(j, "waits", r->above);
	for (int k = 1; k < LAT_VERDICT_N; k++)
		lat_json_uint(j, lat_verdict_name((enum lat_verdict_kind)k), r->verdicts_above[k]);
	lat_json_uint(j, "none", r->verdicts_above[LAT_VERDICT_NONE]);
	lat_json_obj_close(j);
}

/* The trace's gaps (lost events) and stalls (CPUs that stopped tracing). */
static void gaps_json(struct lat_json *j, const struct lat_tgids *tg,
		      const struct lat_wakeup_result *r)
{
	lat_json_arr_open(j, "gaps");
	for (size_t i = 0; i < r->ngaps; i++) {
		lat_json_obj_open(j, NULL);
		lat_json_int(j, "cpu", r->gaps[i].cpu);
		lat_json_uint(j, "from_ns", r->gaps[i].from_ns);
		lat_json_uint(j, "to_ns", r->gaps[i].to_ns);
		lat_json_uint(j, "count", r->gaps[i].count);
		lat_json_obj_close(j);
	}
	lat_json_arr_close(j);
	lat_json_uint(j, "gaps_total", r->ngaps_total);
	lat_json_int(j, "stall_threshold_ns", LAT_WAKE_STALL_NS);
	lat_json_arr_open(j, "stalls");
	for (size_t i = 0; i < r->nstalls; i++)
		stall_json(j, tg, &r->stalls[i]);
	lat_json_arr_close(j);
	lat_json_uint(j, "stalls_total", r->nstalls_total);
	lat_json_int(j, "stall_ns_total", r->stall_ns_total);
}

void rp_report_wakeup_json(struct lat_json *j, const struct lat_block *b,
			    const struct lat_analyze_opts *o)
{
	const struct lat_wakeup_result *r = b->analysis;
	size_t top = o && o->top_n > 0 ? (size_t)o->top_n : 20;
	const struct lat_tgids *tg;

	if (!r)
		return;
	tg = rp_tgids(b);
	lat_json_obj_open(j, "wakeup");
	counts_json(j, r, o);
	rp_json_pid_source(j, tg);
	tables_json(j, tg, r, top);
	rt_json(j, tg, r);
	lat_json_uint(j, "priority_inversions", r->inversions);
	verdicts_json(j, r);
	lat_json_arr_open(j, "worst");
	for (size_t i = 0; i < r->nworst; i++)
		case_json(j, tg, r, &r->worst[i]);
	lat_json_arr_close(j);
	gaps_json(j, tg, r);
	rp_health_json(j, r);
	lat_json_str(j, "stop_reason", r->stop_reason);
	lat_json_bool(j, "has_stacks", r->has_stacks);
	if (r->has_stacks) {
		lat_json_obj_open(j, "blame");
		blame_json(j, "off_cpu", r->off_funcs, r->noff_funcs, r->off_stacks,
			   r->noff_stacks);
		blame_json(j, "runnable", r->run_funcs, r->nrun_funcs, r->run_stacks,
			   r->nrun_stacks);
		lat_json_uint(j, "stacks_dropped", r->stacks_dropped);
		lat_json_obj_close(j);
	}
	lat_json_obj_close(j);
	lat_json_uint(j, "lost_events", r->lost_events);
}

/* ---- text ------------------------------------------------------------------------- */

static const char *dur(int64_t ns, char *buf, size_t len)
{
	return lat_fmt_duration(ns, buf, len);
}

static void stat_row(FILE *out, const struct lat_wake_stat *s)
{
	char b[7][32];

	fprintf(out, " %7llu %10s %10s %10s %10s %10s %10s", (unsigned long long)s->n,
		dur((int64_t)(s->avg + 0.5), b[0], 32), dur(s->p50, b[1], 32),
		dur(s->p90, b[2], 32), dur(s->p99, b[3], 32), dur(s->p999, b[4], 32),
		dur(s->max, b[5], 32));
}

/* "@pre" "SCHED_FIFO 80" (the class inferred from the kernel prio), or "@pre" "prio N". */
static void sched_text(FILE *out, const char *pre, int32_t prio)
{
	char buf[40];

	lat_sched_class_fmt(prio, buf, sizeof(buf));
	if (buf[0])
		fprintf(out, "%s%s", pre, buf);
	else if (prio == LAT_PRIO_UNKNOWN)
		fputs(" (class unknown: no switch or waking of it recorded)", out);
	else
		fprintf(out, "%sprio %d", pre, prio);
}

/*
 * ": X ran 3.9 ms (93%) at SCHED_OTHER nice 0 in fn, ..., N more tasks T (P%)": the
 * first four of @n holders (longest first), the rest summed; shares of @total.
 */
static void holders_text(FILE *out, const struct lat_wakeup_result *r,
			 const struct lat_wake_oncpu *h, size_t n, int64_t other_ns,
			 size_t other_tasks, int64_t total)
{
	char d1[32];

	for (size_t i = 0; i < n && i < 4; i++) {
		const struct lat_wake_oncpu *o = &h[i];
		int pct = total ? (int)(100.0 * (double)o->ns / (double)total + 0.5) : 0;

		fputs(i ? ", " : ": ", out);
		rp_report_who(out, o->comm, o->pid);
		if (o->pid == 0) {
			fprintf(out, " %s (%d%%)", dur(o->ns, d1, sizeof(d1)), pct);
		} else {
			fprintf(out, " ran %s (%d%%)", dur(o->ns, d1, sizeof(d1)), pct);
			sched_text(out, " at ", o->prio);
		}
		if (o->stack >= 0 && (size_t)o->stack < r->nstacks) {
			fputs(" in ", out);
			lat_fput_safe(out, r->stacks[o->stack].top,
				      strlen(r->stacks[o->stack].top));
		}
	}
	if (n > 4 || other_tasks) {
		int64_t rest = other_ns;
		size_t more = (n > 4 ? n - 4 : 0) + other_tasks;

		for (size_t i = 4; i < n; i++)
			rest += h[i].ns;
		fprintf(out, ", %zu more task%s %s (%d%%)", more, more == 1 ? "" : "s",
			dur(rest, d1, sizeof(d1)),
			total ? (int)(100.0 * (double)rest / (double)total + 0.5) : 0);
	}
}

static void waker_text(FILE *out, const struct lat_wakeup_result *r,
		       const struct lat_wake_waker *k, enum lat_wait_kind kind)
{
	if (k->pid < 0 && k->cpu < 0) {
		fputs("no recorded waker", out);
		return;
	}
	if (k->ctx != LAT_WAKE_CTX_TASK) {
		static const char *const ctx[] = { "task", "irq", "softirq", "NMI" };
		const char *name = lat_wake_irq_label(k);

		fprintf(out, "woken by %s", ctx[k->ctx]);
		if (k->irq >= 0)
			fprintf(out, " %d", k->irq);
		if (k->timer)
			fputs(" (hrtimer ", out);
		else if (name[0])
			fputs(" (", out);
		if (name[0]) {
			lat_fput_safe(out, name, strnlen(name, sizeof(k->irq_name)));
			fputc(')', out);
		} else if (k->irq < 0) {
			fputs(" (no irq events recorded to name it)", out);
		}
		fprintf(out, " on CPU%d, interrupting ", k->cpu);
		rp_report_who(out, k->comm, k->pid);
	} else {
		fputs("woken by ", out);
		rp_report_who(out, k->comm, k->pid);
		fprintf(out, " on CPU%d", k->cpu);
	}
	/* a new task has no sched_waking: sched_wakeup_new is where its wait starts */
	if (k->from_wakeup)
		fputs(kind == LAT_WAIT_NEW ? " (at its fork)" :
		      " (no sched_waking: from sched_wakeup)", out);
	if (k->stack >= 0 && (size_t)k->stack < r->nstacks) {
		fputs(" in ", out);
		lat_fput_safe(out, r->stacks[k->stack].top, strlen(r->stacks[k->stack].top));
	}
}

/* The verdict, then who waited how long where. */
static void case_head_text(FILE *out, const struct lat_wake_case *c, size_t idx)
{
	char d1[32], t1[40], t2[40], ev[LAT_VERDICT_TEXT_LEN];

	fprintf(out, "  %zu. %s (%d%%): ", idx + 1, lat_verdict_name(c->verdict.kind),
		(int)(100.0 * c->verdict.share + 0.5));
	lat_report_verdict_text(c, ev, sizeof(ev));
	lat_fput_safe(out, ev, strlen(ev));
	if (c->chain_verdict.waker_waited) {
		fprintf(out, "\n     chain: %s (%d%% end to end): ",
			c->chain_verdict.waker_late ? "waker-late" : "the waker waited too",
			(int)(100.0 * c->chain_verdict.share + 0.5));
		lat_report_chain_text(c, ev, sizeof(ev));
		lat_fput_safe(out, ev, strlen(ev));
	}
	fputs("\n     ", out);
	rp_report_who(out, c->comm, c->pid);
	if (lat_sched_class_fmt_pol(c->prio, c->policy, d1, sizeof(d1)))
		fprintf(out, " %s", d1);	/* from its recorded sched_setscheduler() */
	else
		sched_text(out, " ", c->prio);
	fprintf(out, "%s waited %s on CPU%d (%s .. %s)", c->kind == LAT_WAIT_NEW ? " (new task)" : "",
		dur(c->latency_ns, d1, sizeof(d1)), c->cpu,
		lat_fmt_trace_ts(c->start_ns, t1, sizeof(t1)),
		lat_fmt_trace_ts(c->end_ns, t2, sizeof(t2)));
	if (c->inferred_end)
		fprintf(out, " (its switch in was not recorded: it ran between %s and %s, its own "
			"first event; counted to the latter)",
			lat_fmt_trace_ts(c->end_low_ns, t1, sizeof(t1)),
			lat_fmt_trace_ts(c->end_ns, t2, sizeof(t2)));
	if (c->unseen_pid > 0) {
		fputs(" (", out);
		rp_report_who(out, c->unseen_comm, c->unseen_pid);
		fprintf(out, " left the CPU with no recorded switch-in: it ran at an unknown point "
			"of %s before)", dur(c->unseen_ns, d1, sizeof(d1)));
	}
}

/* Where the wait went: who held the CPU, the time without events or unknown, the stalls. */
static void case_time_text(FILE *out, const struct lat_wakeup_result *r,
			   const struct lat_wake_case *c)
{
	char d1[32], t1[40], t2[40];

	holders_text(out, r, c->on_cpu, c->non_cpu, c->other_ns, c->other_tasks, c->latency_ns);
	if (c->stall_ns)
		fprintf(out, ", no events: stall? %s (%d%%)", dur(c->stall_ns, d1, sizeof(d1)),
			(int)(100.0 * (double)c->stall_ns / (double)c->latency_ns + 0.5));
	if (c->unaccounted_ns) {
		fprintf(out, "; %s unknown (", dur(c->unaccounted_ns, d1, sizeof(d1)));
		if (c->missing_ns)
			fprintf(out, "%s of it: switches missing, no event showed who ran",
				dur(c->missing_ns, d1, sizeof(d1)));
		if (c->missing_ns && c->missing_ns < c->unaccounted_ns)
			fputs("; the rest ", out);
		if (c->missing_ns < c->unaccounted_ns)
			fputs(c->partial ? "older than the switches kept in memory" :
			      "before the trace showed who ran", out);
		fputc(')', out);
	}
	for (size_t i = 0; i < c->nstalls; i++) {
		const struct lat_wake_stall *s = &c->stalls[i];

		if (s->cpu < 0)
			fputs(";\n     every CPU", out);
		else
			fprintf(out, ";\n     CPU%d", s->cpu);
		fprintf(out, " logged nothing for %s (%s .. %s): stall?",
			dur((int64_t)(s->to_ns - s->from_ns), d1, sizeof(d1)),
			lat_fmt_trace_ts(s->from_ns, t1, sizeof(t1)),
			lat_fmt_trace_ts(s->to_ns, t2, sizeof(t2)));
	}
	if (c->steal_ns > 0)
		fprintf(out, ";\n     the host stole %s of CPU%d during this wait (/proc/stat)", dur(c->steal_ns, d1, sizeof(d1)), c->cpu);
	else if (!c->steal_ns && c->stall_ns)
		fprintf(out, ";\n     no steal time on CPU%d during this wait", c->cpu);
}

/* The CPU it was queued on first, its run queue, and every CPU's share of the wait. */
static void case_queue_text(FILE *out, const struct lat_wakeup_result *r,
			    const struct lat_wake_case *c)
{
	char d1[32], d2[32], t1[40];

	if (c->queued_until_ns && c->queued_from_ns <= c->start_ns) {
		int64_t q = (int64_t)(c->queued_until_ns - c->start_ns);

		fprintf(out, ";\n     queued first on CPU%d for %s", c->queued_left_cpu,
			dur(q, d1, sizeof(d1)));
		if (c->queued_until_ns < c->end_ns)
			fprintf(out, " (migrated at %s)",
				lat_fmt_trace_ts(c->queued_until_ns, t1, sizeof(t1)));
		holders_text(out, r, c->queued_on, c->nqueued_on, c->queued_other_ns,
			     c->queued_other_tasks, q);
	} else if (c->queued_until_ns) {
		/* moved more than once: the time before its last move, the last queue's holders */
		int64_t q = (int64_t)(c->queued_until_ns - c->queued_from_ns);

		fprintf(out, ";\n     queued %s before its last migration (%s); last on CPU%d for "
			"%s", dur((int64_t)(c->queued_until_ns - c->start_ns), d1, sizeof(d1)),
			lat_fmt_trace_ts(c->queued_until_ns, t1, sizeof(t1)), c->queued_left_cpu,
			dur(q, d2, sizeof(d2)));
		holders_text(out, r, c->queued_on, c->nqueued_on, c->queued_other_ns,
			     c->queued_other_tasks, q);
	}
	if (c->rq_at_wake >= 0) {
		fprintf(out, ";\n     run queue of CPU%d at the waking: %d task%s", c->queued_cpu,
			c->rq_at_wake, c->rq_at_wake == 1 ? "" : "s");
		if (c->rq_avg >= 0)
			fprintf(out, "; waiting on average during the wait: %.1f", c->rq_avg);
	}
	for (size_t i = 0; i < c->ncpushare; i++) {
		const struct lat_wake_cpushare *s = &c->cpushare[i];
		double l = c->latency_ns > 0 ? (double)c->latency_ns : 1;

		fprintf(out, "%sCPU%d busy %d%%, idle %d%%, irq %d%%", i ? "; " : ";\n     ",
			s->cpu, (int)(100.0 * (double)s->busy_ns / l + 0.5),
			(int)(100.0 * (double)s->idle_ns / l + 0.5),
			(int)(100.0 * (double)s->irq_ns / l + 0.5));
		if ((int)(100.0 * (double)s->stall_ns / l + 0.5))
			fprintf(out, ", no events %d%%", (int)(100.0 * (double)s->stall_ns / l + 0.5));
		if ((int)(100.0 * (double)s->unknown_ns / l + 0.5))
			fprintf(out, ", unknown %d%%", (int)(100.0 * (double)s->unknown_ns / l + 0.5));
	}
}

/* Who woke it, and the chain of waits before that waker ran. */
static void case_chain_text(FILE *out, const struct lat_wakeup_result *r,
			    const struct lat_wake_case *c)
{
	char d1[32], d2[32];

	fputs(";\n     ", out);
	waker_text(out, r, &c->waker, c->kind);
	for (size_t i = 0; i < c->nchain; i++) {
		const struct lat_wake_link *l = &c->chain[i];

		fputs(";\n     ", out);
		rp_report_who(out, l->comm, l->pid);
		fprintf(out, " itself waited %s on CPU%d%s", dur(l->latency_ns, d1, sizeof(d1)),
			l->cpu, l->kind != LAT_WAIT_PREEMPT ? "" : l->preempted ?
			" after preemption (R+: preempted in the kernel)" :
			" after preemption (R: rescheduled at a return to user space, or yielded)");
		if (l->held_by_pid >= 0) {
			fputs(" (", out);
			rp_report_who(out, l->held_by_comm, l->held_by_pid);
			fprintf(out, " %s)", dur(l->held_ns, d2, sizeof(d2)));
		} else if (l->held_unknown) {
			fputs(" (who held that CPU is unknown: older than the switches kept per CPU)",
			      out);
		}
		if (l->kind != LAT_WAIT_PREEMPT) {
			fputs(", ", out);
			waker_text(out, r, &l->waker, l->kind);
		}
	}
	if (c->chain_cut)
		fputs(" (the chain goes on, but its older waits are too old to be remembered)", out);
}

/* The irqs, migrations and trace_marker lines during the wait. */
static void case_events_text(FILE *out, const struct lat_wake_case *c)
{
	char d1[32], t1[40];

	if (c->nirqs) {
		fputs(";\n     irqs on CPU during the wait:", out);
		for (size_t i = 0; i < c->nirqs; i++) {
			fputs(i ? ", " : " ", out);
			lat_fput_safe(out, c->irqs[i].name, strnlen(c->irqs[i].name, 24));
			fprintf(out, " %s x%u", dur(c->irqs[i].ns, d1, sizeof(d1)),
				c->irqs[i].count);
		}
		if (c->other_irqs)
			fprintf(out, ", %zu more %s", c->other_irqs,
				dur(c->other_irq_ns, d1, sizeof(d1)));
	}
	for (size_t i = 0; i < c->nmigr; i++)
		fprintf(out, ";\n     migrated CPU%d -> CPU%d at %s", c->migr[i].from_cpu,
			c->migr[i].to_cpu, lat_fmt_trace_ts(c->migr[i].ts_ns, t1, sizeof(t1)));
	if (c->migr_dropped)
		fprintf(out, ";\n     %u more migrations", c->migr_dropped);
	for (size_t i = 0; i < c->nmarkers; i++) {
		fprintf(out, ";\n     marker on CPU%d at %s: ", c->markers[i].cpu,
			lat_fmt_trace_ts(c->markers[i].ts_ns, t1, sizeof(t1)));
		lat_fput_safe(out, c->markers[i].text, strlen(c->markers[i].text));
	}
	if (c->markers_dropped)
		fprintf(out, ";\n     %u more markers", c->markers_dropped);
}

static void case_text(FILE *out, const struct lat_wakeup_result *r, const struct lat_wake_case *c,
		      size_t idx)
{
	case_head_text(out, c, idx);
	case_time_text(out, r, c);
	case_queue_text(out, r, c);
	case_chain_text(out, r, c);
	case_events_text(out, c);
	fputs("\n", out);
}

static void blame_text(FILE *out, const char *title, const struct lat_wake_blame *fn, size_t nfn,
		       const struct lat_wake_blame *st, size_t nst)
{
	char d[32];

	if (!nfn)
		return;
	fprintf(out, "  %s, by function:\n", title);
	for (size_t i = 0; i < nfn; i++) {
		fprintf(out, "    %10s %7llu  ", dur(fn[i].ns, d, sizeof(d)),
			(unsigned long long)fn[i].count);
		lat_fput_safe(out, fn[i].name, strlen(fn[i].name));
		fputc('\n', out);
	}
	fprintf(out, "  %s, folded stacks (ns):\n", title);
	for (size_t i = 0; i < nst; i++) {
		fputs("    ", out);
		lat_fput_safe(out, st[i].name, strlen(st[i].name));
		fprintf(out, " %lld\n", (long long)st[i].ns);
	}
}

/*
 * Real-time threads first, every one (not cut by --top): max and p99 of their
 * wakeup waits while they were real-time.
 */
static void rt_text(FILE *out, const struct lat_wakeup_result *r)
{
	char d1[32], d2[32], cls[40];
	int first = 1;

	for (size_t i = 0; i < r->ntasks; i++) {
		const struct lat_wake_task *t = &r->tasks[i];

		if (!t->rt.n)
			continue;
		if (first)
			fputs("\n  real-time threads (wakeup waits):\n", out);
		first = 0;
		lat_sched_class_fmt_pol(t->prio, t->policy, cls, sizeof(cls));
		fputs("    ", out);
		rp_report_who(out, t->comm, t->pid);
		fprintf(out, " %s: max %s, p99 %s over %llu wait%s", cls,
			dur(t->rt.max, d1, sizeof(d1)), dur(t->rt.p99, d2, sizeof(d2)),
			(unsigned long long)t->rt.n, t->rt.n == 1 ? "" : "s");
		if (t->wake.n > t->rt.n)
			fprintf(out, " (and %llu at a lower class, not counted here)",
				(unsigned long long)(t->wake.n - t->rt.n));
		fputc('\n', out);
	}
	if (!first && r->inversions)
		fprintf(out, "    %llu wait%s ended behind a lower-priority task (see the "
			"priority-inversion finding)\n", (unsigned long long)r->inversions,
			r->inversions == 1 ? "" : "s");
}

/* What the list of worst wakeups needs said before it. */
static void worst_notes(FILE *out, const struct lat_wakeup_result *r)
{
	if (r->inferred_waits)
		fputs("  (a wait whose switch in was not recorded ranks by the time it surely "
		      "waited; the tables count it up to its own first event)\n", out);
	if (r->setscheds)
		fputs("  (a task whose sched_setscheduler() was recorded is shown with the "
		      "policy it set)\n", out);
}

void rp_report_wakeup_text(FILE *out, const struct lat_block *b,
			    const struct lat_analyze_opts *o)
{
	const struct lat_wakeup_result *r = b->analysis;
	size_t top = o && o->top_n > 0 ? (size_t)o->top_n : 20;

	if (!r)
		return;
	fprintf(out, "  %llu events; %llu wakeup waits (from %s), %llu preemption waits, "
		"%llu lost events%s\n", (unsigned long long)r->nevents,
		(unsigned long long)r->waits,
		r->start == LAT_WAKE_START_WAKEUP ? "sched_wakeup" : "sched_waking",
		(unsigned long long)r->preempt_waits, (unsigned long long)r->lost_events,
		r->untrusted ? ", some waits untrusted (see above)" : "");
	if (r->selecting) {
		fputs("  selected:", out);
		if (o && o->task) {
			fputs(" --task ", out);
			lat_fput_safe(out, o->task, strlen(o->task));
		}
		if (o && o->policy) {
			fputs(" --policy ", out);
			lat_fput_safe(out, o->policy, strlen(o->policy));
		}
		if (o && o->min_prio > 0)
			fprintf(out, " --min-prio %d", o->min_prio);
		fprintf(out, ": %zu thread%s with waits matched (the statistics over all: "
			"the \"all\" row of the JSON)\n", r->selected, r->selected == 1 ? "" : "s");
	}
	rt_text(out, r);
	if (r->ntasks) {
		fprintf(out, "\n  %-16s %7s %7s %10s %10s %10s %10s %10s %10s %8s\n", "task", "pid",
			"waits", "avg", "p50", "p90", "p99", "p99.9", "max", "preempt");
		for (size_t i = 0; i < r->ntasks && i < top; i++) {
			const struct lat_wake_task *t = &r->tasks[i];

			fputs("  ", out);
			rp_report_cell(out, t->comm, 16);
			fprintf(out, " %7d", t->pid);
			stat_row(out, &t->wake);
			fprintf(out, " %8llu\n", (unsigned long long)t->preempt.n);
		}
		if (r->ntasks > top)
			fprintf(out, "  ... %zu more tasks (--top)\n", r->ntasks - top);
		fprintf(out, "\n  %-16s %7s %7s %10s %10s %10s %10s %10s %10s %8s\n", "cpu", "",
			"waits", "avg", "p50", "p90", "p99", "p99.9", "max", "lost");
		for (size_t i = 0; i < r->ncpus; i++) {
			fprintf(out, "  CPU%-13d %7s", r->cpus[i].cpu, "");
			stat_row(out, &r->cpus[i].wake);
			fprintf(out, " %8llu\n", (unsigned long long)r->cpus[i].lost);
		}
	}
	rp_health_text(out, r);
	if (r->nworst) {
		size_t cnt[LAT_VERDICT_N] = { 0 };
		int first = 1;

		for (size_t i = 0; i < r->nworst; i++)
			cnt[(unsigned)r->worst[i].verdict.kind < LAT_VERDICT_N ?
			    r->worst[i].verdict.kind : LAT_VERDICT_NONE]++;
		fprintf(out, "\n  verdicts of the %zu worst:", r->nworst);
		for (int k = 0; k < LAT_VERDICT_N; k++)
			if (cnt[k]) {
				fprintf(out, "%s %s %zu", first ? "" : ",",
					lat_verdict_name((enum lat_verdict_kind)k), cnt[k]);
				first = 0;
			}
		fputc('\n', out);
		if (r->above) {
			char d[32];

			fprintf(out, "  verdicts of the %llu waits of %s or more:",
				(unsigned long long)r->above,
				dur(o ? o->threshold_ns : 0, d, sizeof(d)));
			first = 1;
			for (int k = 0; k < LAT_VERDICT_N; k++)
				if (r->verdicts_above[k]) {
					fprintf(out, "%s %s %llu", first ? "" : ",",
						lat_verdict_name((enum lat_verdict_kind)k),
						(unsigned long long)r->verdicts_above[k]);
					first = 0;
				}
			fputc('\n', out);
		}
		fprintf(out, "\n  worst wakeups (scheduling classes inferred from the kernel prio: "
			"SCHED_FIFO may be SCHED_RR, SCHED_OTHER may be SCHED_BATCH):\n");
		worst_notes(out, r);
		for (size_t i = 0; i < r->nworst; i++)
			case_text(out, r, &r->worst[i], i);
	}
	if (r->has_stacks) {
		fputc('\n', out);
		blame_text(out, "off-CPU time (slept in S/D)", r->off_funcs, r->noff_funcs,
			   r->off_stacks, r->noff_stacks);
		blame_text(out, "runnable time behind the task holding the CPU", r->run_funcs,
			   r->nrun_funcs, r->run_stacks, r->nrun_stacks);
	}
}

/*
 * FlameGraph's folded format, "root;...;leaf ns", one line per stack with off-CPU
 * (or runnable) time, every block of every input.  Returns the number of blocks
 * that had kernel stacks at all.
 */
size_t lat_report_folded(FILE *out, const struct lat_report_input *in, size_t n, int runnable)
{
	size_t with_stacks = 0;

	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < in[i].nblocks; k++) {
			const struct lat_block *b = in[i].blocks[k];
			const struct lat_wakeup_result *r;
			const struct lat_wake_blame *st;
			size_t nst;

			if (b->schema != LAT_SCHEMA_EVENTS || !b->analysis)
				continue;
			r = b->analysis;
			if (!r->has_stacks)
				continue;
			with_stacks++;
			st = runnable ? r->run_stacks : r->off_stacks;
			nst = runnable ? r->nrun_stacks : r->noff_stacks;
			for (size_t s = 0; s < nst; s++) {
				lat_fput_safe(out, st[s].name, strlen(st[s].name));
				fprintf(out, " %lld\n", (long long)st[s].ns);
			}
		}
	}
	return with_stacks;
}
