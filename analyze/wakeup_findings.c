// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The wakeup analysis' findings: what the block's report lists first (lost
 * events, stalls, inversions, waits not counted, damage, the worst wakeup),
 * from the result.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latscope/an_wakeup.h"
#include "analyze_priv.h"
#include "wakeup_stack.h"

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

/* What was due in stall @s, for its finding. */
static void stall_due_text(const struct lat_wake_stall *s, char *buf, size_t len)
{
	char d1[32];

	buf[0] = 0;
	if (s->due == LAT_STALL_QUEUED)
		snprintf(buf, len, " while %u task%s waited behind %.15s/%d (the tick would have "
			 "switched)", s->queued, s->queued == 1 ? "" : "s", s->comm, s->pid);
	else if (s->due == LAT_STALL_PROBE)
		snprintf(buf, len, " while the sample of %.15s/%d was due (it measured %s)",
			 s->waiting_comm, s->waiting_pid, lat_fmt_duration(s->probe_ns, d1, sizeof(d1)));
	else if (s->due == LAT_STALL_TIMER && s->waiting_pid >= 0)
		snprintf(buf, len, " after the timer of %.15s/%d (%s) was due", s->waiting_comm,
			 s->waiting_pid, s->timer_fn);
	else if (s->due == LAT_STALL_TIMER && s->timer_fn[0])
		snprintf(buf, len, " after the timer %s was due", s->timer_fn);
	else if (s->due == LAT_STALL_TIMER && s->timer_pid > 0)
		snprintf(buf, len, " after a timer armed by %.15s/%d was due (callback unknown)",
			 s->timer_comm, s->timer_pid);
	else if (s->due == LAT_STALL_TIMER)
		snprintf(buf, len, " after a timer was due (callback unknown)");
	else if (s->due == LAT_STALL_WAKEUP && s->waiting_pid >= 0)
		snprintf(buf, len, " between the sched_waking of %.15s/%d and its sched_wakeup",
			 s->waiting_comm, s->waiting_pid);
	else if (s->waiting_pid >= 0)
		snprintf(buf, len, " while %.15s/%d should have run", s->waiting_comm,
			 s->waiting_pid);
}

/* What the steal time says of stall @s (cpu name @where), for its finding. */
static void stall_steal_text(const struct lat_wake_stall *s, const char *where, char *buf,
			     size_t len)
{
	char d1[32];

	if (s->steal_ns > 0)
		snprintf(buf, len, "the host stole %s of %s around it (/proc/stat)",
			 lat_fmt_duration(s->steal_ns, d1, sizeof(d1)),
			 s->cpu < 0 ? "a CPU" : where);
	else if (!s->steal_ns)
		snprintf(buf, len, "no steal time on %s around it: a non-preemptible section, or "
			 "the host not accounting its steal", where);
	else
		snprintf(buf, len, "the host not running the vCPU%s, or a non-preemptible section",
			 s->cpu < 0 ? "s" : "");
}

/* The first 8 stalls (CPUs that logged nothing), and how many more. */
static void stall_findings(struct lat_block *b, const struct lat_wakeup_result *r)
{
	char t1[40], t2[40], n1[32], d1[32], due[128], why[128];

	for (size_t i = 0; i < r->nstalls && i < 8; i++) {
		const struct lat_wake_stall *s = &r->stalls[i];

		if (s->cpu < 0)
			snprintf(n1, sizeof(n1), "every CPU");
		else
			snprintf(n1, sizeof(n1), "CPU%d", s->cpu);
		stall_due_text(s, due, sizeof(due));
		stall_steal_text(s, n1, why, sizeof(why));
		lat_block_add_finding(b, "stall", LAT_SEV_WARN,
				      "%s logged nothing for %s (%s .. %s)%s: stall? (%s); no run "
				      "time is charged inside it", n1,
				      lat_fmt_duration((int64_t)(s->to_ns - s->from_ns), d1,
						       sizeof(d1)),
				      lat_fmt_trace_ts(s->from_ns, t1, sizeof(t1)),
				      lat_fmt_trace_ts(s->to_ns, t2, sizeof(t2)), due, why);
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

/* The CPUs whose events are incomplete: the headline, it changes what the rest can say. */
static void health_findings(struct lat_block *b, const struct lat_wakeup_result *r)
{
	char t1[40];

	for (size_t i = 0; i < r->nhealth; i++) {
		const struct lat_wake_health *h = &r->health[i];

		if (h->incomplete == LAT_HEALTH_IDLE_EXITS)
			lat_block_add_finding(b, "trace-health", LAT_SEV_HIGH,
					      "CPU%d's events are incomplete: %llu switches into idle, "
					      "%llu out, %llu exits from idle seen only by the next "
					      "task's events (its switches out of idle are not "
					      "recorded, from %s): no switch-in or stall is inferred "
					      "there, and its %llu waits are of low trust (not ranked "
					      "nor gated; --include-untrusted)", h->cpu,
					      (unsigned long long)h->into_idle,
					      (unsigned long long)h->out_of_idle,
					      (unsigned long long)h->idle_exits_unrecorded,
					      lat_fmt_trace_ts(h->incomplete_since_ns, t1, sizeof(t1)),
					      (unsigned long long)h->low_trust_waits);
		else if (h->incomplete == LAT_HEALTH_BREAKS)
			lat_block_add_finding(b, "trace-health", LAT_SEV_HIGH,
					      "CPU%d's events are incomplete: %llu of its %llu switches "
					      "showed another task than the one it ran (from %s): no "
					      "switch-in or stall is inferred there, and its %llu waits "
					      "are of low trust (not ranked nor gated; "
					      "--include-untrusted)", h->cpu,
					      (unsigned long long)h->breaks,
					      (unsigned long long)h->switches,
					      lat_fmt_trace_ts(h->incomplete_since_ns, t1, sizeof(t1)),
					      (unsigned long long)h->low_trust_waits);
	}
}

/* The waits not counted, or counted up to an inferred end. */
static void wait_findings(struct lat_block *b, const struct lat_wakeup_result *r)
{
	char t1[40];

	if (r->untrusted_waits)
		lat_block_add_finding(b, "untrusted-waits", LAT_SEV_WARN,
				      "%llu wait%s ended with proof that the task ran meanwhile "
				      "without a recorded switch (a second sched_waking or "
				      "sched_wakeup of it, an event it ran, or its switch out on a CPU "
				      "whose events are incomplete; first at %s): not counted, their "
				      "length is unknown", (unsigned long long)r->untrusted_waits,
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
	health_findings(b, r);
	gap_findings(b, r);
	stall_findings(b, r);
	inversion_finding(b, r);
	wait_findings(b, r);
	damage_findings(b, r);
	worst_finding(b, o, r);
}

