// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The verdict engine (wakeup_verdict.h): the one rule that gives a wait its
 * verdict from its parts; the verdicts' names; the chain's view of a case.
 */
#include <stdio.h>
#include <string.h>

#include "latscope/env.h"
#include "wakeup_verdict.h"

const char *lat_verdict_name(enum lat_verdict_kind k)
{
	static const char *const names[LAT_VERDICT_N] = {
		[LAT_VERDICT_NONE] = "none",
		[LAT_VERDICT_CPU_SATURATED] = "cpu-saturated",
		[LAT_VERDICT_HIGHER_PRIORITY] = "higher-priority",
		[LAT_VERDICT_NOT_PREEMPTIBLE] = "not-preemptible",
		[LAT_VERDICT_IRQ] = "irq-softirq",
		[LAT_VERDICT_STALL] = "stall",
		[LAT_VERDICT_QUEUED] = "queued-elsewhere",
		[LAT_VERDICT_IDLE] = "idle",
		[LAT_VERDICT_UNTRUSTED] = "untrusted",
	};

	return (unsigned)k < LAT_VERDICT_N ? names[k] : "none";
}

int wk_rank(int32_t prio, int32_t hprio)
{
	enum lat_sched_policy wp = lat_sched_policy_of(prio), hp = lat_sched_policy_of(hprio);

	if (wp == LAT_POL_UNKNOWN || hp == LAT_POL_UNKNOWN)
		return 0;
	if (hp != wp)
		return hp == LAT_POL_DEADLINE || (hp == LAT_POL_RT && wp == LAT_POL_FAIR) ? 1 : -1;
	if (wp == LAT_POL_RT && (prio == LAT_PRIO_RT_UNKNOWN || hprio == LAT_PRIO_RT_UNKNOWN))
		return 0;	/* which one is higher is not recorded */
	if (wp == LAT_POL_RT && hprio != prio)
		return hprio < prio ? 1 : -1;
	return 0;
}

void wk_judge(const struct wk_parts *p, struct wk_judgement *j)
{
	int64_t lat = p->lat_ns, best = p->same_ns;

	_Static_assert(LAT_VERDICT_CPU_SATURATED < LAT_VERDICT_HIGHER_PRIORITY &&
		       LAT_VERDICT_HIGHER_PRIORITY < LAT_VERDICT_NOT_PREEMPTIBLE &&
		       LAT_VERDICT_NOT_PREEMPTIBLE < LAT_VERDICT_STALL &&
		       LAT_VERDICT_STALL < LAT_VERDICT_IDLE && LAT_VERDICT_IDLE < LAT_VERDICT_UNTRUSTED &&
		       LAT_VERDICT_UNTRUSTED + 1 == LAT_VERDICT_N,
		       "rule 6 takes the parts in enum order");
	j->basis = LAT_VBASIS_PARTS;
	if (p->no_evidence) {
		*j = (struct wk_judgement){ LAT_VERDICT_UNTRUSTED, LAT_VBASIS_MOVED, lat };
		return;
	}
	if (p->unsure_ns * 2 > lat) {
		*j = (struct wk_judgement){ LAT_VERDICT_UNTRUSTED, LAT_VBASIS_INFERRED, p->unsure_ns };
		return;
	}
	if (p->unseen_ns * 2 > lat) {
		*j = (struct wk_judgement){ LAT_VERDICT_UNTRUSTED, LAT_VBASIS_UNSEEN, p->unseen_ns };
		return;
	}
	if (p->irq_ns * 2 > lat) {
		j->kind = LAT_VERDICT_IRQ;
		j->part_ns = p->irq_ns;
		return;
	}
	if (p->queued_ns * 2 > lat && p->queued_busy) {
		j->kind = LAT_VERDICT_QUEUED;
		j->part_ns = p->queued_ns;
		return;
	}
	j->kind = LAT_VERDICT_CPU_SATURATED;
	if (p->higher_ns > best)
		j->kind = LAT_VERDICT_HIGHER_PRIORITY, best = p->higher_ns;
	if (p->lower_ns > best)
		j->kind = LAT_VERDICT_NOT_PREEMPTIBLE, best = p->lower_ns;
	if (p->stall_ns > best)
		j->kind = LAT_VERDICT_STALL, best = p->stall_ns;
	if (p->idle_ns > best)
		j->kind = LAT_VERDICT_IDLE, best = p->idle_ns;
	if (p->unknown_ns > best)
		j->kind = LAT_VERDICT_UNTRUSTED, best = p->unknown_ns;
	if (best <= 0)
		j->kind = LAT_VERDICT_NONE, best = 0;
	j->part_ns = best;
}

/*
 * The chain's verdict (docs/wakeup.md, "Chain verdict"): the waker's own
 * last wait before it woke the task (chain[0]) against the case's latency
 * and against end to end, from the waker's waking to the task's run.
 */
void wk_chain_verdict(struct lat_wake_case *c, int64_t threshold_ns)
{
	struct lat_wake_chain_verdict *v = &c->chain_verdict;
	const struct lat_wake_link *l = &c->chain[0];

	memset(v, 0, sizeof(*v));
	if (!c->nchain || l->end_ns > c->start_ns || l->start_ns > l->end_ns ||
	    l->latency_ns < c->latency_ns || l->latency_ns < threshold_ns || l->latency_ns <= 0)
		return;
	v->waker_waited = 1;
	v->e2e_ns = (int64_t)(c->end_ns - l->start_ns);
	v->share = v->e2e_ns > 0 ? (double)l->latency_ns / (double)v->e2e_ns : 0;
	v->waker_late = v->share > 0.5;
}

void wk_verdict_env(struct lat_wake_verdict *v, const struct lat_trace_env *env)
{
	v->preempt = LAT_PREEMPT_UNKNOWN;
	v->preempt_rt = -1;
	v->vm = -1;
	if (!env)
		return;
	v->preempt = (int8_t)env->preempt;
	v->preempt_rt = (int8_t)(env->preempt_rt < 0 ? -1 : env->preempt_rt > 0);
	if (env->virt)
		v->vm = strcmp(env->virt, "none") != 0;
	else if (env->hypervisor_flag >= 0)
		v->vm = (int8_t)(env->hypervisor_flag > 0);
}
