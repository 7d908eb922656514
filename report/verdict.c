// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A verdict in words: the evidence line of a case's verdict and of its chain
 * verdict, from the data the analysis gave them (latscope/an_wakeup.h).  The
 * text and JSON reports, the report bundle and the timeline chart's headline
 * all print these lines.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "latscope/an_wakeup.h"
#include "latscope/env.h"
#include "latscope/report.h"

/* "comm/pid SCHED_X N ran T" of @h into @buf. */
static void holder(const struct lat_wake_oncpu *h, char *buf, size_t len)
{
	char cls[40], d[32];

	lat_sched_class_fmt(h->prio, cls, sizeof(cls));
	if (snprintf(buf, len, "%.15s/%d%s%s ran %s", h->comm, h->pid, cls[0] ? " " : "", cls,
		     lat_fmt_duration(h->ns, d, sizeof(d))) >= (int)len)
		buf[len - 1] = 0;	/* cut */
}

static __attribute__((format(printf, 3, 4))) void put(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

/* An untrusted verdict: which switch-in was not recorded, or whose class is unknown. */
static void untrusted_text(const struct lat_wake_case *c, const char *who, const char *d1,
			   char *buf, size_t len)
{
	const struct lat_wake_verdict *v = &c->verdict;
	char d2[32], d3[32];

	switch (v->basis) {
	case LAT_VBASIS_INFERRED:
		put(buf, len, "its switch-in was not recorded: it ran between +%s and +%s after "
		    "the waking", lat_fmt_duration((int64_t)(c->end_low_ns - c->start_ns), d2,
						   sizeof(d2)),
		    lat_fmt_duration(c->latency_ns, d3, sizeof(d3)));
		return;
	case LAT_VBASIS_UNSEEN:
		put(buf, len, "%.15s/%d ran on CPU%d with no recorded switch-in, at an unknown point "
		    "of %s of the wait: who held the CPU when is unknown", c->unseen_comm,
		    c->unseen_pid, c->cpu, d1);
		return;
	case LAT_VBASIS_MOVED:
		put(buf, len, "it moved from CPU%d with no migration recorded: who ran where it "
		    "waited is unknown", c->queued_cpu);
		return;
	default:
		break;
	}
	if (v->unknown_class)
		put(buf, len, "%s, of a class no event said (no switch or waking of it recorded): "
		    "whether it had priority is unknown", who);
	else
		put(buf, len, "who ran on CPU%d for %s is unknown (before the trace showed it, or "
		    "older than the switches kept)", c->cpu, d1);
}

/*
 * What keeps the CPU from a task that should preempt the one running, under
 * the recorded preemption model (docs/wakeup.md, "Verdicts").
 */
static const char *unpreempted_why(const struct lat_wake_verdict *v)
{
	if (v->preempt_rt > 0)
		return "on PREEMPT_RT only a raw spinlock or a section with preemption or "
		       "interrupts off keeps the CPU (or priority inversion)";
	switch (v->preempt) {
	case LAT_PREEMPT_NONE:
		return "under preempt=none kernel code is not preempted: a system call or "
		       "kernel thread keeps the CPU until it gives it up (or priority inversion)";
	case LAT_PREEMPT_VOLUNTARY:
		return "under preempt=voluntary kernel code is preempted only where it may "
		       "reschedule: a kernel section without such a point (or priority inversion)";
	case LAT_PREEMPT_NONE_OR_VOLUNTARY:
		return "under preempt=none or voluntary kernel code is preempted only where it "
		       "may reschedule: a kernel section without such a point (or priority "
		       "inversion)";
	case LAT_PREEMPT_FULL:
	case LAT_PREEMPT_LAZY:
		return "under full preemption only a section with preemption or interrupts off "
		       "keeps the CPU (or priority inversion)";
	default:
		return "priority inversion or a non-preemptible kernel section";
	}
}

/* Who can make a CPU log nothing: a host, or the CPU itself with interrupts off. */
static const char *silent_why(const struct lat_wake_verdict *v)
{
	if (v->vm > 0)
		return "on a VM: the host not running the vCPU, or a section with interrupts off";
	if (!v->vm)
		return "not a VM: a section with interrupts off, or firmware (SMI)";
	return "the host not running the vCPU, or a non-preemptible section";
}

char *lat_report_verdict_text(const struct lat_wake_case *c, char *buf, size_t len)
{
	const struct lat_wake_verdict *v = &c->verdict;
	size_t ntasks = v->ntasks;
	char who[96], d1[32];

	who[0] = 0;
	if (v->holder.pid >= 0)
		holder(&v->holder, who, sizeof(who));
	lat_fmt_duration(v->part_ns, d1, sizeof(d1));
	switch (v->kind) {
	case LAT_VERDICT_CPU_SATURATED:
		if (c->rq_avg >= 0)
			put(buf, len, "CPU%d saturated: %.1f waiting on average, %zu task%s of its "
			    "class ran %s (fair sharing)%s%s", c->cpu, c->rq_avg, ntasks,
			    ntasks == 1 ? "" : "s", d1, who[0] ? ": " : "", who);
		else
			put(buf, len, "%zu task%s of its class shared CPU%d for %s (fair sharing)%s%s",
			    ntasks, ntasks == 1 ? "" : "s", c->cpu, d1, who[0] ? ": " : "", who);
		break;
	case LAT_VERDICT_HIGHER_PRIORITY:
		put(buf, len, "higher-priority tasks ran %s: %s", d1, who);
		break;
	case LAT_VERDICT_NOT_PREEMPTIBLE:
		put(buf, len, "%s while it should have been preempted: %s", who,
		    unpreempted_why(v));
		break;
	case LAT_VERDICT_IRQ:
		put(buf, len, "irq and softirq handlers ran %s on CPU%d%s%.24s", d1, c->cpu,
		    c->nirqs ? ", mostly " : "", c->nirqs ? c->irqs[0].name : "");
		break;
	case LAT_VERDICT_STALL:
		put(buf, len, "no events on CPU%d for %s of the wait (%s)", c->cpu, d1,
		    silent_why(v));
		break;
	case LAT_VERDICT_QUEUED:
		if (c->queued_from_ns > c->start_ns)	/* moved more than once */
			put(buf, len, "queued for %s until its last migration, last on CPU%d: %s "
			    "there", d1, c->queued_left_cpu, who);
		else
			put(buf, len, "queued on CPU%d for %s until migrated: %s there",
			    c->queued_left_cpu, d1, who);
		break;
	case LAT_VERDICT_IDLE:
		put(buf, len, "CPU%d stayed idle %s: waking an idle CPU (IPI, idle exit) or a "
		    "switch that was not recorded", c->cpu, d1);
		break;
	case LAT_VERDICT_UNTRUSTED:
		untrusted_text(c, who, d1, buf, len);
		break;
	default:
		put(buf, len, "nothing recorded explains it");
		break;
	}
	return buf;
}

char *lat_report_chain_text(const struct lat_wake_case *c, char *buf, size_t len)
{
	const struct lat_wake_link *l = &c->chain[0];
	char d1[32], d2[32];

	buf[0] = 0;
	if (!c->chain_verdict.waker_waited)
		return buf;
	put(buf, len, "its waker %.15s/%d waited %s%s before it could wake it: %s from %.15s's %s "
	    "to this task's run", l->comm, l->pid,
	    lat_fmt_duration(l->latency_ns, d1, sizeof(d1)),
	    l->kind == LAT_WAIT_PREEMPT ? " (preempted)" : "",
	    lat_fmt_duration(c->chain_verdict.e2e_ns, d2, sizeof(d2)), l->comm,
	    l->kind == LAT_WAIT_PREEMPT ? "preemption" : "waking");
	return buf;
}
