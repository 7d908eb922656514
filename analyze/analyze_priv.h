/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the analyses; their entry points are in latscope/analyze.h. */
#ifndef LATSCOPE_ANALYZE_PRIV_H
#define LATSCOPE_ANALYZE_PRIV_H

#include "latscope/analyze.h"
#include "latscope/event.h"

struct lat_wakeup_result;

/*
 * Probe samples (analyze/probe.c) are collected inside the wakeup analysis'
 * own event loop: it hands every marker to pr_probe_marker(), which asks it
 * back (view) for the points of the samples worth explaining.
 */
struct pr_probe;

/*
 * What ran on a CPU, as the wakeup analysis' history holds it: the gap probe's
 * model (docs/probe.md, "The gap probe's samples").
 */
enum pr_hspan_kind {
	PR_HSPAN_TASK,		/* a task's slice: pid (0 the idle task), name its comm */
	PR_HSPAN_IRQ,		/* an irq or softirq handler's run, entry to exit: name */
	PR_HSPAN_STALL,	/* a stall of the CPU or of every CPU (docs/wakeup.md, "Stalls") */
	PR_HSPAN_UNKNOWN,	/* lost events, or irqs no longer kept: what ran is not known */
};

struct pr_hspan {
	enum pr_hspan_kind kind;
	uint64_t start, end;
	int32_t pid;
	const char *name;	/* lent for the call; "" none */
};

typedef void (*pr_hspan_fn)(void *arg, const struct pr_hspan *s);
/*
 * Calls @fn for every span of CPU @cpu's history that overlaps [@from, @to]
 * (@src: the history, opaque here), the task running now as a slice up to @to.
 * Time no span covers: the history does not know who ran.
 */
typedef void (*pr_spans_fn)(const void *src, int32_t cpu, uint64_t from, uint64_t to,
			    pr_hspan_fn fn, void *arg);
/* The time of [@from, @to] on CPU @cpu inside stalls, counted once where they nest. */
typedef int64_t (*pr_stall_ns_fn)(const void *src, int32_t cpu, uint64_t from, uint64_t to);

/* What the wakeup analysis knows of a marker's task; 0 / -1: not recorded. */
struct pr_view {
	int32_t prio;			/* the task's kernel prio on its CPU now, LAT_PRIO_UNKNOWN */
	pr_spans_fn spans;		/* the CPUs' history (NULL none), with its @src */
	pr_stall_ns_fn stall_ns;	/* of the same history, NULL none */
	const void *spans_src;
	uint64_t switch_ts;		/* the sched_switch that put it on the marker's CPU */
	uint64_t waking_ts;		/* its last sched_waking (sched_wakeup) for that CPU */
	uint64_t irq_ts, expire_ts;	/* the irq entry and hrtimer_wakeup expiry last seen
					   on the waker's CPU at that waking */
	char irq_name[24];
	int32_t holder_pid;		/* who ran longest on the CPU from waking to switch */
	int64_t holder_ns;
	char holder_comm[LAT_COMM_LEN];
	int verdict;			/* of the wait ended at switch_ts, -1 not judged */
	int64_t verdict_part_ns;
};

/* Which events the trace has, for the probe's "events" and its findings. */
struct pr_seen {
	uint8_t expire, local_timer, irq, waking;
};

typedef void (*pr_view_fn)(void *ctx, const struct lat_event *ev, struct pr_view *v);

struct pr_probe *pr_probe_new(const struct lat_analyze_opts *o, pr_view_fn view,
				void *ctx);
void pr_probe_marker(struct pr_probe *p, const struct lat_event *ev);
/* Builds b->probe (NULL when the trace has no probe samples) and adds findings. */
int pr_probe_finish(struct lat_block *b, struct pr_probe *p, const struct pr_seen *seen);
void pr_probe_free(struct pr_probe *p);
/* Frees b->probe (a struct lat_probe_result); NULL is a no-op. */
void pr_result_free(void *r);

/*
 * The analyses' entry points, one pair per schema: the table in analyze/analyze.c is
 * their only caller.  Each fills b->analysis with its result, freed with its *_free.
 */
int an_loop(struct lat_block *b, const struct lat_analyze_opts *o);
void an_loop_free(void *r);
int an_schedcnt(struct lat_block *b, const struct lat_analyze_opts *o);
void an_schedcnt_free(void *r);
int an_histogram(struct lat_block *b, const struct lat_analyze_opts *o);
void an_histogram_free(void *r);
int an_fntrace(struct lat_block *b, const struct lat_analyze_opts *o);
void an_fntrace_free(void *r);
/* The wakeup analysis, with the probe samples collected on the way (@with_probe). */
int wk_analyze(struct lat_block *b, const struct lat_analyze_opts *o, int with_probe);
void wk_result_free(void *r);	/* analyze/wakeup.c */
/* The findings of a wakeup result (analyze/wakeup_findings.c). */
void wk_add_findings(struct lat_block *b, const struct lat_analyze_opts *o,
		     const struct lat_wakeup_result *r);

#endif
