/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A CPU timeline over a time window: what the timeline chart draws.  Built
 * from an event stream by analyze/ (who ran where, irqs, markers, the wakeup
 * being explained) and drawn by render/.  All times are ns in the trace clock.
 */
#ifndef LATSCOPE_TIMELINE_H
#define LATSCOPE_TIMELINE_H

#include "base.h"
#include "event.h"

struct lat_tl_slice {		/* a task on a CPU, [start, end) */
	uint64_t start_ns, end_ns;
	int32_t cpu, pid, prio;
	char comm[LAT_COMM_LEN];
	uint8_t preempted;	/* it left the CPU still runnable (R) */
};

/*
 * What ran on a CPU where the analysis no longer kept its slices one by one
 * (docs/wakeup.md, "Timeline"): the slices of [start, end) merged.  Only
 * before the CPU's first slice of the timeline; [start, end) is the merged
 * span as kept, which may begin before the window (the counts are its whole).
 */
struct lat_tl_summary {
	uint64_t start_ns, end_ns;
	int32_t cpu;
	uint32_t nslices;	/* slices merged */
	uint64_t busy_ns;	/* of which tasks ran (idle not) */
	uint64_t top_ns;	/* of which the top task ran */
	int32_t pid, prio;	/* the top task: the longest of the parts merged; 0: idle only */
	char comm[LAT_COMM_LEN];
};

enum lat_tl_mark_kind {
	LAT_TL_IRQ,		/* hardirq handler [start, end) */
	LAT_TL_SOFTIRQ,
	LAT_TL_MARKER,		/* a probe or trace_marker at start (end == start) */
	LAT_TL_LOST,		/* events lost on this CPU before start */
	LAT_TL_MIGRATE,		/* a task moved: cpu -> other_cpu */
	LAT_TL_STALL,		/* no events [start, end) on cpu (-1: on every CPU): stall? */
	LAT_TL_GAP,		/* [start, end) on cpu not in the input: its rows were left out, or
				   (label "switch missing") who ran is not known */
};

/*
 * A slice's pid at or above this is no pid: the input named the task only
 * (perf sched map's code "L7" whose legend was left out); drawn as its comm.
 */
#define LAT_TL_PID_UNNAMED 0x40000000

struct lat_tl_mark {
	enum lat_tl_mark_kind kind;
	uint64_t start_ns, end_ns;
	int32_t cpu, other_cpu;
	int32_t pid;
	int64_t value_ns;	/* a probe's latency, when the marker had one, else -1 */
	char label[48];		/* irq name, softirq vector, marker text (cut) */
};

/* An arrow: who woke whom (from the waker's CPU at ts to the wakee's CPU). */
struct lat_tl_edge {
	uint64_t ts_ns;
	int32_t from_cpu, to_cpu;
	int32_t from_pid, to_pid;
	char from_comm[LAT_COMM_LEN];	/* the waking task's comm; in an irq context the irq's
					   name, empty when the trace does not name it */
	uint8_t from_irq;	/* 0: a task woke it; else its context (enum lat_wake_ctx:
				   irq, softirq, NMI) */
};

/* The wakeup being explained: a bracket from waking to switch-in. */
struct lat_tl_bracket {
	uint64_t start_ns, end_ns;
	int32_t cpu, pid;
	char comm[LAT_COMM_LEN];
	int32_t held_by_pid;	/* the task that ran most during the wait, -1 if none/idle */
	char held_by_comm[LAT_COMM_LEN];
	int64_t held_ns;	/* how long it ran then */
	size_t held_tasks;	/* how many tasks ran then, 0 if not known */
	/*
	 * Queued on another CPU before the one it ran on (queued_until_ns != 0):
	 * held_* then say who ran on queued_cpu from queued_from_ns (start_ns,
	 * or after earlier migrations later) until queued_until_ns.
	 */
	int32_t queued_cpu;
	uint64_t queued_from_ns, queued_until_ns;
};

struct lat_timeline {
	uint64_t start_ns, end_ns;	/* the window */
	int ncpus;
	struct lat_tl_slice *slices;	/* owned, sorted by cpu then start */
	size_t nslices;
	void *slices_map;		/* slices is in this lat_bigmap() mapping, else malloc()ed */
	size_t slices_maplen;
	struct lat_tl_summary *sums;	/* owned: where slices were no longer kept, sorted by cpu
					   then start; NULL when none */
	size_t nsums;
	struct lat_tl_mark *marks;	/* owned */
	size_t nmarks;
	struct lat_tl_edge *edges;	/* owned: the waker chain of the bracket */
	size_t nedges;
	struct lat_tl_bracket *brackets;	/* owned; [0] is the case the chart is about */
	size_t nbrackets;
	char title[320];
	uint8_t switches_only;	/* the input tells who ran, nothing else (a perf sched map):
				   no irq, marker or migration is counted in the key numbers */
	size_t title_keep;	/* title's first bytes never cut in a chart: the verdict and share */
};

void lat_timeline_free(struct lat_timeline *t);

#endif
