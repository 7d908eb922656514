// SPDX-License-Identifier: GPL-2.0-or-later
/* The wakeup analysis' results: tables out of the working state, and findings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wakeup_priv.h"

/* ---- results ---------------------------------------------------------------------- */

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
	lat_hll_coarse(h, o->b);
}

/* Largest max first, then pid: the selected tasks that get a histogram. */
static int cmp_hist_task(const void *a, const void *b)
{
	const struct wk_task *x = *(const struct wk_task *const *)a;
	const struct wk_task *y = *(const struct wk_task *const *)b;
	int c = (y->wake.max > x->wake.max) - (y->wake.max < x->wake.max);

	return c ? c : (x->pid > y->pid) - (x->pid < y->pid);
}

/* result->hists: the CPUs' wakeup waits, then the selected tasks' (when selecting). */
static int build_hists(struct wk *w)
{
	struct lat_wakeup_result *r = w->r;
	const struct wk_task **sel = NULL, *t;
	size_t nsel = 0, n = 0;

	for (size_t i = 0; i < w->ncpus; i++)
		n += w->cpus[i] && w->cpus[i]->wake.n;
	if (r->selecting && w->tasks.ntasks && !(sel = calloc(w->tasks.ntasks, sizeof(*sel))))
		return -LAT_ENOMEM;
	for (size_t i = 0; sel && (t = wk_tasks_next(&w->tasks, &i));)
		if (t->match && t->sel && t->wake.n && nsel < w->tasks.ntasks)
			sel[nsel++] = t;
	if (nsel)
		qsort(sel, nsel, sizeof(*sel), cmp_hist_task);
	if (nsel > LAT_WAKE_HIST_TASKS)
		nsel = LAT_WAKE_HIST_TASKS;
	if (n + nsel && !(r->hists = calloc(n + nsel, sizeof(*r->hists)))) {
		free(sel);
		return -LAT_ENOMEM;
	}
	for (size_t i = 0; i < w->ncpus; i++)
		if (w->cpus[i] && w->cpus[i]->wake.n)
			hist_fill(&r->hists[r->nhists++], &w->cpus[i]->wake, (int32_t)i, -1);
	r->nhist_cpus = r->nhists;
	for (size_t i = 0; i < nsel; i++) {
		struct lat_wake_hist *o = &r->hists[r->nhists++];

		hist_fill(o, &sel[i]->wake, -1, sel[i]->pid);
		o->prio = sel[i]->wait_prio != INT32_MAX ? sel[i]->wait_prio : sel[i]->prio;
		memcpy(o->comm, sel[i]->comm, LAT_COMM_LEN);
	}
	free(sel);
	return 0;
}

int wk_build_results(struct wk *w, const struct lat_event_source *src)
{
	struct lat_wakeup_result *r = w->r;
	const struct wk_task *t;
	enum lat_wake_sort key;
	size_t n = 0;

	if (w->tasks.ntasks && !(r->tasks = calloc(w->tasks.ntasks, sizeof(*r->tasks))))
		return -LAT_ENOMEM;
	for (size_t i = 0; (t = wk_tasks_next(&w->tasks, &i));) {
		struct lat_wake_task *o;

		if (!t->match || (!t->wake.n && !t->preempt.n && !t->untrusted))
			continue;
		if (wk_sel_classing(&w->sel) && !t->sel)
			continue;
		if (t->sel)
			r->selected++;
		o = &r->tasks[n++];
		o->pid = t->pid;
		o->prio = t->wait_prio != INT32_MAX ? t->wait_prio : t->prio;
		memcpy(o->comm, t->comm, LAT_COMM_LEN);
		lat_hll_stat(&t->wake, &o->wake);
		lat_hll_stat(&t->preempt, &o->preempt);
		o->max_end_ns = t->max_end;
		o->untrusted = t->untrusted;
		o->policy = t->policy;
	}
	r->ntasks = n;
	if (lat_wake_sort_parse(w->o->sort ? w->o->sort : "max", &key))
		key = LAT_WSORT_MAX;
	if (n)
		qsort_r(r->tasks, n, sizeof(*r->tasks), cmp_task, &key);
	/* every counted wakeup wait went into its CPU's histogram, and only there */
	for (size_t i = 0; i < w->ncpus; i++)
		if (w->cpus[i] && lat_hll_merge(&w->all, &w->cpus[i]->wake))
			return -LAT_ENOMEM;
	lat_hll_stat(&w->all, &r->all);

	if (w->ncpus && !(r->cpus = calloc(w->ncpus, sizeof(*r->cpus))))
		return -LAT_ENOMEM;
	for (size_t i = 0; i < w->ncpus; i++) {
		const struct wk_cpu *c = w->cpus[i];
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
	for (int i = (int)w->ncpus; src->cpu_overrun && i < src->ncpus; i++)
		r->lost_events += src->cpu_overrun[i];

	if (build_hists(w))
		return -LAT_ENOMEM;
	if (wk_cases_take(&w->cases, r))
		return -LAT_ENOMEM;
	return wk_blame_finish(w);
}

void wk_result_free(void *p)
{
	struct lat_wakeup_result *r = p;

	if (!r)
		return;
	free(r->tasks);
	free(r->cpus);
	free(r->hists);
	lat_wake_activity_free(r->activity);
	for (size_t i = 0; i < r->nworst; i++)
		lat_timeline_free(r->worst[i].tl);
	free(r->worst);
	free(r->gaps);
	free(r->stalls);
	for (size_t i = 0; i < r->nstacks; i++) {
		free(r->stacks[i].folded);
		free(r->stacks[i].top);
	}
	free(r->stacks);
	free(r->off_stacks);
	free(r->off_funcs);
	free(r->run_stacks);
	free(r->run_funcs);
	free(r->stop_reason);
	free(r->skip_reason);
	free(r);
}

static void fmt_count(uint64_t v, char *buf, size_t len)
{
	char tmp[32];
	int n = snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)v), o = 0;

	for (int i = 0; i < n && (size_t)o + 2 < len; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = 0;
}

/* Lost events: the first 8 gaps, how many more, and the ring buffer overruns per CPU. */
static void gap_findings(struct lat_block *b, const struct lat_wakeup_result *r)
{
	char t1[40], t2[40], n1[32];

	for (size_t i = 0; i < r->ngaps && i < 8; i++) {
		const struct lat_wake_gap *g = &r->gaps[i];

		fmt_count(g->count, n1, sizeof(n1));
		if (g->from_ns >= g->to_ns)	/* at the start of the trace */
			lat_block_add_finding(b, "lost-events", LAT_SEV_WARN,
					      "CPU%d lost %s events before %s, where the trace "
					      "starts", g->cpu, g->count ? n1 : "some (count unknown)",
					      lat_fmt_trace_ts(g->to_ns, t1, sizeof(t1)));
		else
			lat_block_add_finding(b, "lost-events", LAT_SEV_WARN,
					      "CPU%d lost %s events between %s and %s", g->cpu,
					      g->count ? n1 : "some (count unknown)",
					      lat_fmt_trace_ts(g->from_ns, t1, sizeof(t1)),
					      lat_fmt_trace_ts(g->to_ns, t2, sizeof(t2)));
	}
	if (r->ngaps_total > 8)
		lat_block_add_finding(b, "lost-events", LAT_SEV_WARN,
				      "%llu more gaps with lost events",
				      (unsigned long long)(r->ngaps_total - 8));
	for (size_t i = 0; i < r->ncpus; i++) {
		if (!r->cpus[i].overrun)
			continue;
		fmt_count(r->cpus[i].overrun, n1, sizeof(n1));
		lat_block_add_finding(b, "overrun", LAT_SEV_WARN,
				      "CPU%d: the ring buffer overran, %s events lost (trace stats)",
				      r->cpus[i].cpu, n1);
	}
}

/* The first 8 stalls (CPUs that logged nothing), and how many more. */
static void stall_findings(struct lat_block *b, const struct lat_wakeup_result *r)
{
	char t1[40], t2[40], n1[32], d1[32];

	for (size_t i = 0; i < r->nstalls && i < 8; i++) {
		const struct lat_wake_stall *s = &r->stalls[i];
		char who[64] = "";

		if (s->waiting_pid >= 0)
			snprintf(who, sizeof(who), " while %.15s/%d should have run",
				 s->waiting_comm, s->waiting_pid);
		if (s->cpu < 0)
			snprintf(n1, sizeof(n1), "every CPU");
		else
			snprintf(n1, sizeof(n1), "CPU%d", s->cpu);
		lat_block_add_finding(b, "stall", LAT_SEV_WARN,
				      "%s logged nothing for %s (%s .. %s)%s: stall? (the host "
				      "not running the vCPU%s, or a non-preemptible section); no "
				      "run time is charged inside it", n1,
				      lat_fmt_duration((int64_t)(s->to_ns - s->from_ns), d1,
						       sizeof(d1)),
				      lat_fmt_trace_ts(s->from_ns, t1, sizeof(t1)),
				      lat_fmt_trace_ts(s->to_ns, t2, sizeof(t2)), who,
				      s->cpu < 0 ? "s" : "");
	}
	if (r->nstalls_total > 8)
		lat_block_add_finding(b, "stall", LAT_SEV_WARN, "%llu more stalls",
				      (unsigned long long)(r->nstalls_total - 8));
}

/* Priority inversions, with the longest. */
static void inversion_finding(struct lat_block *b, const struct lat_wakeup_result *r)
{
	char t1[40], d1[32];

	if (r->inversions) {
		const struct lat_wake_inversion *v = &r->worst_inversion;
		char c1[40], c2[40];

		lat_sched_class_fmt(v->prio, c1, sizeof(c1));
		lat_sched_class_fmt(v->holder_prio, c2, sizeof(c2));
		lat_block_add_finding(b, "priority-inversion", LAT_SEV_WARN,
				      "%llu wait%s of real-time tasks ended behind a lower-priority "
				      "task (priority inversion or a non-preemptible section); the "
				      "longest: %.15s/%d %s waited %s on CPU%d (ended at %s) while "
				      "%.15s/%d %s held it", (unsigned long long)r->inversions,
				      r->inversions == 1 ? "" : "s", v->comm, v->pid, c1,
				      lat_fmt_duration((int64_t)(v->end_ns - v->start_ns), d1,
						       sizeof(d1)), v->cpu,
				      lat_fmt_trace_ts(v->end_ns, t1, sizeof(t1)), v->holder_comm,
				      v->holder_pid, c2);
	}
}

/* The waits not counted, or counted up to an inferred end. */
static void wait_findings(struct lat_block *b, const struct lat_wakeup_result *r)
{
	char t1[40];

	if (r->untrusted_waits)
		lat_block_add_finding(b, "untrusted-waits", LAT_SEV_WARN,
				      "%llu wait%s ended with proof that the task ran meanwhile "
				      "without a recorded switch (a second sched_waking of it, or an "
				      "event it ran; first at %s): not counted, their length is "
				      "unknown", (unsigned long long)r->untrusted_waits,
				      r->untrusted_waits == 1 ? "" : "s",
				      lat_fmt_trace_ts(r->first_untrusted_ns, t1, sizeof(t1)));
	if (r->inferred_waits)
		lat_block_add_finding(b, "inferred-switch-ins", LAT_SEV_INFO,
				      "%llu wait%s ended at the woken task's own first event in task "
				      "context on the CPU it was queued on, its sched_switch in not "
				      "recorded (first at %s): counted up to that event, an upper "
				      "bound", (unsigned long long)r->inferred_waits,
				      r->inferred_waits == 1 ? "" : "s",
				      lat_fmt_trace_ts(r->first_inferred_ns, t1, sizeof(t1)));
	if (r->preempt_woken)
		lat_block_add_finding(b, "preempted-then-woken", LAT_SEV_INFO,
				      "%llu time%s a task switched out runnable (R+ %llu, R %llu) "
				      "was woken before it ran again (first at %s): a runnable task "
				      "is not asleep.  On PREEMPT_RT a task blocking on a sleeping "
				      "lock (spinlock_t, rtmutex) is switched out as R+ (RT patch "
				      "5.9-rt13 to 5.14-rt) or R (5.15 to 5.17; D since 5.18): a "
				      "lock wait; elsewhere it ran and slept again with no switch "
				      "recorded.  Not counted as preemption waits (among the untrusted waits)",
				      (unsigned long long)r->preempt_woken,
				      r->preempt_woken == 1 ? "" : "s",
				      (unsigned long long)r->preempt_woken_plus,
				      (unsigned long long)(r->preempt_woken - r->preempt_woken_plus),
				      lat_fmt_trace_ts(r->first_preempt_woken_ns, t1, sizeof(t1)));
	if (r->untrusted)
		lat_block_add_finding(b, "untrusted-waits", LAT_SEV_WARN,
				      "%llu wait%s crossed a lost-events gap: flagged, not counted",
				      (unsigned long long)r->untrusted, r->untrusted == 1 ? "" : "s");
}

/* What the trace lacked or got wrong: an early stop, damage, missing events, time going back. */
static void damage_findings(struct lat_block *b, const struct lat_wakeup_result *r)
{
	char t1[40], t2[40];

	if (r->stop_reason)
		lat_block_add_finding(b, "truncated", LAT_SEV_WARN,
				      "reading stopped early: %s; analyzed up to %s", r->stop_reason,
				      lat_fmt_trace_ts(r->last_ns, t1, sizeof(t1)));
	if (r->skip_reason)
		lat_block_add_finding(b, "damaged-data", LAT_SEV_WARN,
				      "reading went on past damaged data: %s; waits across it are "
				      "flagged as for lost events", r->skip_reason);
	if (r->switch_breaks)
		lat_block_add_finding(b, "missing-events", LAT_SEV_WARN,
				      "%llu events showed a task other than the one the CPU was "
				      "running after its last sched_switch (first at %s): events are "
				      "missing without a lost-events mark; waits around them may be "
				      "wrong",
				      (unsigned long long)r->switch_breaks,
				      lat_fmt_trace_ts(r->first_break_ns, t1, sizeof(t1)));
	if (r->backwards)
		lat_block_add_finding(b, "time-backwards", LAT_SEV_WARN,
				      "%llu event%s earlier than one already analyzed (corrupt "
				      "timestamps) skipped; the first on CPU%d at %s, after %s",
				      (unsigned long long)r->backwards, r->backwards == 1 ? "" : "s",
				      r->first_back_cpu, lat_fmt_trace_ts(r->first_back_ns, t1,
				      sizeof(t1)), lat_fmt_trace_ts(r->first_back_from_ns, t2,
				      sizeof(t2)));
	if (r->skipped_events)
		lat_block_add_finding(b, "skipped-events", LAT_SEV_WARN,
				      "%llu events with a CPU number out of range skipped",
				      (unsigned long long)r->skipped_events);
	if (r->stacks_dropped)
		lat_block_add_finding(b, "stacks-dropped", LAT_SEV_WARN,
				      "more than %d distinct kernel stacks: %llu not interned",
				      WK_MAX_STACKS, (unsigned long long)r->stacks_dropped);
}

/* The worst wakeup, of a severity by the threshold. */
static void worst_finding(struct lat_block *b, const struct lat_analyze_opts *o,
			  const struct lat_wakeup_result *r)
{
	char t1[40], d1[32];

	if (r->nworst) {
		const struct lat_wake_case *c = &r->worst[0];

		lat_block_add_finding(b, "worst-wakeup", c->latency_ns >= 10 * o->threshold_ns ?
				      LAT_SEV_HIGH : c->latency_ns >= o->threshold_ns ?
				      LAT_SEV_WARN : LAT_SEV_INFO,
				      "worst wakeup: %s/%d waited %s on CPU%d (ended at %s)",
				      c->comm, c->pid, lat_fmt_duration(c->latency_ns, d1, sizeof(d1)),
				      c->cpu, lat_fmt_trace_ts(c->end_ns, t1, sizeof(t1)));
	}
}

void wk_add_findings(struct lat_block *b, const struct lat_analyze_opts *o,
			 const struct lat_wakeup_result *r)
{
	gap_findings(b, r);
	stall_findings(b, r);
	inversion_finding(b, r);
	wait_findings(b, r);
	damage_findings(b, r);
	worst_finding(b, o, r);
}

