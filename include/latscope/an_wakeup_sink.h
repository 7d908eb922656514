/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the wakeup analysis saw, one record at a time, for exporters
 * (`latscope export`, docs/export.md): every running slice, every ended wait,
 * every trace_marker line, every lost-events gap and every stall, in stream order.  The
 * analysis itself keeps only bounded state; a sink that wants everything
 * writes it out as it comes.  Set lat_analyze_opts.sink; any callback may be NULL.
 */
#ifndef LATSCOPE_AN_WAKEUP_SINK_H
#define LATSCOPE_AN_WAKEUP_SINK_H

#include "an_wakeup.h"

/* Why a running slice ended. */
enum lat_slice_end {
	LAT_SLICE_SWITCH,	/* a sched_switch put another task on the CPU */
	LAT_SLICE_BREAK,	/* another task was seen running: switches went missing */
	LAT_SLICE_LOST,		/* the CPU lost events here: the task may have run on */
	LAT_SLICE_TRACE_END,	/* still running when the trace ended */
};

const char *lat_slice_end_name(enum lat_slice_end e);	/* "switch", "break", "lost", "end" */

/* A task on a CPU, from its switch-in (or first sight) to its switch-out. */
struct lat_run_slice {
	int32_t cpu, pid, prio;		/* prio LAT_PRIO_UNKNOWN: seen running, no switch or
					   waking of it yet (-1 is SCHED_DEADLINE) */
	char comm[LAT_COMM_LEN];
	uint64_t start_ns, end_ns;
	uint8_t start_known;		/* 0: the switch-out came before anything showed it
					   running (trace start, after a gap): start_ns = end_ns */
	enum lat_slice_end end;
	enum lat_task_state state;	/* prev_state at the switch (LAT_SLICE_SWITCH only) */
};

/*
 * What a judged wait's verdict rests on (docs/wakeup.md, "Verdicts"): the rule's
 * basis, the time behind the verdict, and the time of each cause over the wait on
 * the CPU it waited for.
 */
struct lat_verdict_evidence {
	enum lat_verdict_basis basis;
	int64_t part_ns;		/* the time behind the verdict */
	int64_t same_ns, higher_ns, lower_ns;	/* tasks of its footing, higher, lower */
	int64_t irq_ns, stall_ns, idle_ns, unknown_ns;
	int64_t queued_ns;		/* queued on another CPU until migrated away */
};

/* An irq or softirq handler that ran on a CPU (recorded with irq events). */
struct lat_irq_slice {
	int32_t cpu, irq;
	uint8_t soft;			/* 1: a softirq */
	uint64_t start_ns, end_ns;
	const char *name;		/* "timer", "RCU", "irq11", ...; lent for the call */
};

/* An ended wait: what the wakeup analysis counts (or counts as untrusted). */
struct lat_wait_rec {
	const struct lat_wake_link *w;	/* pid, cpu (where it ran), comm, kind, times, waker;
					   lent for the call */
	int32_t prio;			/* at the switch-in */
	int32_t queued_cpu;		/* target CPU at the waking, -1 unknown */
	uint8_t trusted;		/* 0: a lost-events gap fell inside the wait */
	uint8_t low_trust;		/* on a CPU whose events are incomplete (docs/wakeup.md,
					   "Trace health"): counted, not ranked */
	/*
	 * The verdict verdicts_above counts for it ("cpu-saturated", ...: a selected,
	 * trusted wakeup or new-task wait of at least the threshold), NULL when not judged.
	 */
	const char *verdict;
	const struct lat_verdict_evidence *evidence;	/* with a verdict, else NULL; lent */
};

struct lat_wake_sink {
	void *ctx;
	void (*slice)(void *ctx, const struct lat_run_slice *s);
	void (*wait)(void *ctx, const struct lat_wait_rec *w);
	/* a trace_marker line; lat_ns: a probe's or cyclictest's latency, else -1 */
	void (*marker)(void *ctx, const struct lat_event *ev, int64_t lat_ns);
	void (*lost)(void *ctx, const struct lat_wake_gap *g);
	/* a stall (docs/wakeup.md), when the silence has ended */
	void (*stall)(void *ctx, const struct lat_wake_stall *s);
	/* an irq or softirq handler ended */
	void (*irq)(void *ctx, const struct lat_irq_slice *q);
	/* CPU @cpu's run queue (tasks waiting for it) holds @depth from @ts_ns on */
	void (*runq)(void *ctx, int32_t cpu, uint64_t ts_ns, uint32_t depth);
	/*
	 * Every event the analysis takes, as the source gave it, before the records
	 * it leads to; in stream order, the timestamps never going back (an event
	 * the analysis drops, of an impossible CPU or going back, is not passed)
	 */
	void (*event)(void *ctx, const struct lat_event *ev);
};

#endif
