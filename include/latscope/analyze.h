/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Analyses: pure computation over a block's model; no I/O, no output format.
 * Each fills block->analysis (typed per schema, see the analyze_*.h headers)
 * and appends findings.
 */
#ifndef LATSCOPE_ANALYZE_H
#define LATSCOPE_ANALYZE_H

#include "model.h"

struct lat_wake_sink;

enum lat_wake_start {
	LAT_WAKE_START_WAKING,	/* sched_waking, falling back to sched_wakeup (default) */
	LAT_WAKE_START_WAKEUP,	/* sched_wakeup, as perf sched latency does */
};

struct lat_analyze_opts {
	int64_t threshold_ns;	/* freeze / spike threshold (--threshold), default 10 ms */
	double cpu_mhz;		/* schedcnt: cycles to time (--cpu-mhz), 0 = unknown */
	int worst_n;		/* critical paths to explain (--worst), default 5 */
	int top_n;		/* rows in blame and per-task tables (--top), default 20 */
	const char *task;	/* --task PID or COMM (every thread with it), NULL for all; lent */
	const char *policy;	/* --policy rt|fair|dl: only tasks of that class, NULL all; lent */
	int min_prio;		/* --min-prio N: only real-time tasks of priority >= N, 0 all */
	enum lat_wake_start wake_start;
	/*
	 * --fail-above: the reports add the CI gate's section (report/gate.c) listing what
	 * exceeds it (the decision: analyze/gate.c); 0 none.  The wakeup and probe analyses
	 * count the waits and probe markers above it (over_limit).
	 */
	int64_t fail_above_ns;
	const char *sort;	/* wakeup tables: max (default), avg, p99, count, pid, comm; lent */
	/*
	 * Worst cases, from the worst, whose timeline (every CPU's slices around
	 * the wait) is kept for a chart: `latscope render` asks for 1, the text
	 * and JSON reports for none.  Default 0.
	 */
	int timelines;
	/* the wakeup analysis keeps every CPU's activity over time (result->activity) */
	int activity;
	/*
	 * --include-untrusted: waits of low trust (on a CPU whose events are
	 * incomplete, docs/wakeup.md "Trace health") may head the worst and fail the
	 * gate like the others.  Default 0: they are only in the statistics.
	 */
	int include_untrusted;
	/* the wakeup analysis' records as they come (an_wakeup_sink.h), NULL none; lent */
	const struct lat_wake_sink *sink;
};

void lat_analyze_opts_init(struct lat_analyze_opts *o);

/*
 * Runs the analysis for b->schema (the table in analyze/analyze.c).  Returns 0 or a
 * negative lat_err.  The result stays in b->analysis (typed per schema: an_*.h), and the
 * probe samples of an event trace in b->probe, both owned by the block: lat_block_free()
 * frees them through b->analysis_free.
 */
int lat_analyze_block(struct lat_block *b, const struct lat_analyze_opts *o);

#endif
