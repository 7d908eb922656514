// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A verdict per worst case: which cause took the largest part of the wait
 * (docs/wakeup.md, "Verdicts"), with its share and one line of evidence.
 * Everything comes from the case as built (holders, irqs, stalls, queued).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "wakeup_priv.h"

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

/*
 * The name of @policy (a recorded sched_setscheduler()) when it agrees with
 * the class of @prio, else NULL: a boosted or otherwise changed task keeps
 * the class its prio shows.
 */
static const char *policy_name(int32_t prio, int32_t policy)
{
	static const char *const names[] = { "SCHED_OTHER", "SCHED_FIFO", "SCHED_RR",
					     "SCHED_BATCH", NULL, "SCHED_IDLE", "SCHED_DEADLINE" };
	enum lat_sched_policy p = lat_sched_policy_of(prio);

	if (policy < 0 || policy > 6 || !names[policy])
		return NULL;
	if ((policy == 1 || policy == 2) && p == LAT_POL_RT)
		return names[policy];
	if ((policy == 0 || policy == 3 || policy == 5) && p == LAT_POL_FAIR)
		return names[policy];
	if (policy == 6 && p == LAT_POL_DEADLINE)
		return names[policy];
	return NULL;
}

const char *lat_sched_policy_name_pol(int32_t prio, int32_t policy, int *from_policy)
{
	const char *n = policy_name(prio, policy);

	if (from_policy)
		*from_policy = n != NULL;
	return n ? n : lat_sched_policy_name(prio);
}

int lat_sched_class_fmt_pol(int32_t prio, int32_t policy, char *buf, size_t len)
{
	const char *n = policy_name(prio, policy);

	if (!n) {
		lat_sched_class_fmt(prio, buf, len);
		return 0;
	}
	if (policy == 1 || policy == 2)
		snprintf(buf, len, "%s %d", n, 99 - prio);
	else if (policy == 0 || policy == 3)
		snprintf(buf, len, "%s nice %d", n, prio - 120);
	else
		snprintf(buf, len, "%s", n);	/* SCHED_IDLE: below every nice; DEADLINE */
	return 1;
}

/*
 * Holder @h of a CPU against the waiting task's @prio: 1 higher priority
 * (a higher class, or a higher real-time priority), -1 lower priority than a
 * real-time or deadline waiter (it should have been preempted at once), 0
 * the same footing (fair sharing, or an equal real-time priority).
 */
int wk_rank(int32_t prio, int32_t hprio)
{
	enum lat_sched_policy wp = lat_sched_policy_of(prio), hp = lat_sched_policy_of(hprio);

	if (wp == LAT_POL_UNKNOWN || hp == LAT_POL_UNKNOWN)
		return 0;
	if (hp != wp)
		return hp == LAT_POL_DEADLINE || (hp == LAT_POL_RT && wp == LAT_POL_FAIR) ? 1 : -1;
	if (wp == LAT_POL_RT && hprio != prio)
		return hprio < prio ? 1 : -1;
	return 0;
}

/* "comm/pid SCHED_X N ran T" of @h into @buf. */
static void holder(const struct lat_wake_oncpu *h, char *buf, size_t len)
{
	char cls[40], d[32];

	lat_sched_class_fmt(h->prio, cls, sizeof(cls));
	if (snprintf(buf, len, "%.15s/%d%s%s ran %s", h->comm, h->pid, cls[0] ? " " : "", cls,
		     lat_fmt_duration(h->ns, d, sizeof(d))) >= (int)len)
		buf[len - 1] = 0;	/* cut */
}

/* The evidence line, cut to its buffer (a long comm or class is cut, not overrun). */
static __attribute__((format(printf, 2, 3))) void evidence(struct lat_wake_verdict *v,
							   const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v->evidence, sizeof(v->evidence), fmt, ap);
	va_end(ap);
}

/*
 * The verdict of a wait whose switch-in was not recorded and which ran
 * somewhere in the last @unsure ns of it: untrusted.
 */
static void inferred_verdict(struct lat_wake_case *c, int64_t unsure)
{
	struct lat_wake_verdict *v = &c->verdict;
	char d1[32], d2[32];

	memset(v, 0, sizeof(*v));
	v->kind = LAT_VERDICT_UNTRUSTED;
	v->share = c->latency_ns > 0 ? (double)unsure / (double)c->latency_ns : 1;
	if (v->share > 1)
		v->share = 1;
	evidence(v, "its switch-in was not recorded: it ran between +%s and +%s after the waking",
		 lat_fmt_duration((int64_t)(c->end_low_ns - c->start_ns), d1, sizeof(d1)),
		 lat_fmt_duration(c->latency_ns, d2, sizeof(d2)));
}

/* The time of each cause in a case, and the longest holder of each. */
struct vparts {
	int64_t part[LAT_VERDICT_N];
	const struct lat_wake_oncpu *top[LAT_VERDICT_N];
	size_t ntasks;			/* tasks (not idle) that held the CPU */
	int64_t unk_class;		/* of them, of no known class */
	const struct lat_wake_oncpu *unk_top;
};

static void verdict_parts(const struct lat_wake_case *c, struct vparts *p)
{
	int64_t irq = c->other_irq_ns;

	memset(p, 0, sizeof(*p));
	p->ntasks = c->other_tasks;
	for (size_t i = 0; i < c->non_cpu; i++) {
		const struct lat_wake_oncpu *h = &c->on_cpu[i];
		enum lat_verdict_kind hk;

		if (h->pid == 0) {
			hk = LAT_VERDICT_IDLE;
		} else if (lat_sched_policy_of(h->prio) == LAT_POL_UNKNOWN &&
			   lat_sched_policy_of(c->prio) != LAT_POL_UNKNOWN) {
			/* no switch or waking of it said its class: no claim of priority */
			hk = LAT_VERDICT_UNTRUSTED;
			p->unk_class += h->ns;
			if (!p->unk_top)
				p->unk_top = h;
			p->ntasks++;
		} else {
			int rk = wk_rank(c->prio, h->prio);

			hk = rk > 0 ? LAT_VERDICT_HIGHER_PRIORITY : rk < 0 ?
			     LAT_VERDICT_NOT_PREEMPTIBLE : LAT_VERDICT_CPU_SATURATED;
			p->ntasks++;
		}
		p->part[hk] += h->ns;
		if (!p->top[hk])
			p->top[hk] = h;	/* longest first */
	}
	/* the tasks past the ones named: counted as sharing (their class is not kept) */
	p->part[LAT_VERDICT_CPU_SATURATED] += c->other_ns;
	for (size_t i = 0; i < c->nirqs; i++)
		irq += c->irqs[i].ns;
	p->part[LAT_VERDICT_IRQ] = irq;	/* inside the holders' time: wins only over half */
	p->part[LAT_VERDICT_STALL] = c->stall_ns;
	p->part[LAT_VERDICT_UNTRUSTED] += c->unaccounted_ns;
	if (c->queued_until_ns > c->start_ns)
		p->part[LAT_VERDICT_QUEUED] = (int64_t)(c->queued_until_ns - c->start_ns);
}

/*
 * Untrusted because a switch-in was not recorded (docs/wakeup.md, "Inferred
 * switch-ins"): the case's own, with more than half the wait uncertain (it may
 * not have waited at all), or a holder's run at an unknown point of more than
 * half of it.  1 when the verdict is set.
 */
static int unseen_verdict(struct lat_wake_case *c, int64_t lat)
{
	struct lat_wake_verdict *v = &c->verdict;
	int64_t unsure = c->inferred_end && c->end_ns > c->end_low_ns ?
			 (int64_t)(c->end_ns - c->end_low_ns) : 0;
	char d1[32];

	if (unsure * 2 > lat) {
		inferred_verdict(c, unsure);
		return 1;
	}
	if (c->unseen_pid <= 0 || c->unseen_ns * 2 <= lat)
		return 0;
	memset(v, 0, sizeof(*v));
	v->kind = LAT_VERDICT_UNTRUSTED;
	v->share = (double)c->unseen_ns / (double)lat;
	if (v->share > 1)
		v->share = 1;
	evidence(v, "%.15s/%d ran on CPU%d with no recorded switch-in, at an unknown point "
		 "of %s of the wait: who held the CPU when is unknown", c->unseen_comm,
		 c->unseen_pid, c->cpu, lat_fmt_duration(c->unseen_ns, d1, sizeof(d1)));
	return 1;
}

/* The evidence line of verdict @k from the parts @p. */
static void verdict_evidence(struct lat_wake_case *c, enum lat_verdict_kind k,
			     const struct vparts *p)
{
	struct lat_wake_verdict *v = &c->verdict;
	size_t ntasks = p->ntasks;
	char who[96], d1[32];

	who[0] = 0;
	if (k < LAT_VERDICT_N && p->top[k])
		holder(p->top[k], who, sizeof(who));
	lat_fmt_duration(p->part[k], d1, sizeof(d1));
	switch (k) {
	case LAT_VERDICT_CPU_SATURATED:
		if (c->rq_avg >= 0)
			evidence(v, "CPU%d saturated: %.1f waiting on "
				 "average, %zu task%s of its class ran %s (fair sharing)%s%s", c->cpu,
				 c->rq_avg, ntasks, ntasks == 1 ? "" : "s", d1, who[0] ? ": " : "",
				 who);
		else
			evidence(v, "%zu task%s of its class shared "
				 "CPU%d for %s (fair sharing)%s%s", ntasks, ntasks == 1 ? "" : "s",
				 c->cpu, d1, who[0] ? ": " : "", who);
		break;
	case LAT_VERDICT_HIGHER_PRIORITY:
		evidence(v, "higher-priority tasks ran %s: %s", d1,
			 who);
		break;
	case LAT_VERDICT_NOT_PREEMPTIBLE:
		evidence(v, "%s while it should have been "
			 "preempted: priority inversion or a non-preemptible kernel section", who);
		break;
	case LAT_VERDICT_IRQ:
		evidence(v, "irq and softirq handlers ran %s on "
			 "CPU%d%s%.24s", d1, c->cpu, c->nirqs ? ", mostly " : "",
			 c->nirqs ? c->irqs[0].name : "");
		break;
	case LAT_VERDICT_STALL:
		evidence(v, "no events on CPU%d for %s of the wait "
			 "(the host not running the vCPU, or a non-preemptible section)", c->cpu, d1);
		break;
	case LAT_VERDICT_QUEUED:
		holder(&c->queued_on[0], who, sizeof(who));
		evidence(v, "queued on CPU%d for %s until migrated: "
			 "%s there", c->queued_cpu, d1, who);
		break;
	case LAT_VERDICT_IDLE:
		evidence(v, "CPU%d stayed idle %s: waking an idle "
			 "CPU (IPI, idle exit) or a switch that was not recorded", c->cpu, d1);
		break;
	case LAT_VERDICT_UNTRUSTED:
		if (p->unk_class * 2 > p->part[k] && p->unk_top) {
			holder(p->unk_top, who, sizeof(who));
			evidence(v, "%s, of a class no event said (no switch or waking of it "
				 "recorded): whether it had priority is unknown", who);
		} else {
			evidence(v, "who ran on CPU%d for %s is unknown (before the trace "
				 "showed it, or older than the switches kept)", c->cpu, d1);
		}
		break;
	default:
		evidence(v, "nothing recorded explains it");
		break;
	}
}

void wk_verdict(struct lat_wake_case *c)
{
	int64_t lat = c->latency_ns > 0 ? c->latency_ns : 1;
	struct lat_wake_verdict *v = &c->verdict;
	enum lat_verdict_kind k;
	struct vparts p;

	verdict_parts(c, &p);
	k = wk_verdict_pick(p.part, lat, c->nqueued_on && c->queued_on[0].pid != 0);
	if (unseen_verdict(c, lat))
		return;
	memset(v, 0, sizeof(*v));
	v->kind = k;
	v->share = (double)p.part[k] / (double)lat;
	if (v->share > 1)
		v->share = 1;
	verdict_evidence(c, k, &p);
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
	char d1[32], d2[32];

	memset(v, 0, sizeof(*v));
	if (!c->nchain || l->end_ns > c->start_ns || l->start_ns > l->end_ns ||
	    l->latency_ns < c->latency_ns || l->latency_ns < threshold_ns || l->latency_ns <= 0)
		return;
	v->waker_waited = 1;
	v->e2e_ns = (int64_t)(c->end_ns - l->start_ns);
	v->share = v->e2e_ns > 0 ? (double)l->latency_ns / (double)v->e2e_ns : 0;
	v->waker_late = v->share > 0.5;
	lat_fmt_duration(l->latency_ns, d1, sizeof(d1));
	lat_fmt_duration(v->e2e_ns, d2, sizeof(d2));
	if (snprintf(v->evidence, sizeof(v->evidence), "its waker %.15s/%d waited %s%s before it "
		     "could wake it: %s from %.15s's %s to this task's run", l->comm, l->pid,
		     d1, l->kind == LAT_WAIT_PREEMPT ? " (preempted)" : "", d2, l->comm,
		     l->kind == LAT_WAIT_PREEMPT ? "preemption" : "waking") >=
	    (int)sizeof(v->evidence))
		v->evidence[sizeof(v->evidence) - 1] = 0;	/* cut */
}
