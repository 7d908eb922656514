/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Results of the function-trace analysis (latency-tracer dumps): block->analysis
 * of a LAT_SCHEMA_FNTRACE block.  Definitions: docs/fntrace.md.  Strings are
 * lent from the block's struct lat_fntrace (or static) for the block's lifetime.
 */
#ifndef LATSCOPE_AN_FNTRACE_H
#define LATSCOPE_AN_FNTRACE_H

#include "model.h"
#include "fntrace.h"

/* One function (or entry kind, "[sysret]", "[sched]") and the time it is blamed for. */
struct lat_fn_blame {
	const char *function;
	int64_t self_ns;	/* sum of (next entry on the CPU - this entry) over its entries */
	int64_t total_ns;	/* self time of every entry while it was on the call chain */
	uint64_t calls;		/* entries naming it */
	double share_pct;	/* self_ns / window_ns * 100 */
};

enum lat_fn_off_what { LAT_FN_OFF_IRQS, LAT_FN_OFF_PREEMPT, LAT_FN_OFF_EITHER, LAT_FN_OFF_N };

/* The longest run of entries with interrupts (or preemption, or either) off. */
struct lat_fn_stretch {
	int found;
	size_t first, end;	/* entry indexes [first, end) */
	int64_t start_ns, end_ns, duration_ns;
	int open;		/* still off at the last entry: the stretch is at least this long */
};

/* A call sequence repeated back to back, folded into one line. */
struct lat_fn_repeat {
	size_t first;		/* entry index where the first copy starts */
	size_t period;		/* entries per copy */
	size_t count;		/* copies */
	int64_t time_ns;	/* from the first copy's start to the entry after the last copy */
	const char *caller;	/* parent of the first entry, or NULL */
};

struct lat_fntrace_result {
	/* the clock every time below is on */
	const char *time_source;	/* "tsc" (cycles scaled) or "printed" */
	double cycles_per_us, cycles_per_us_min, cycles_per_us_max;	/* 0 unless tsc */
	int64_t *t_ns;			/* owned: per entry, since the first entry */
	int64_t *self_ns;		/* owned: per entry, to the next on its CPU; -1 */

	/* coverage of the window */
	size_t entries_present;
	size_t missing_indexes;		/* indexes skipped between present entries */
	int truncated;			/* fewer entries than the header announced */
	int64_t span_ns;		/* last entry - first entry */
	int64_t covered_ns;		/* span minus the stretches cut out by elisions */
	double covered_pct;		/* covered_ns / latency * 100; -1 without a latency */
	int64_t window_ns;		/* the denominator of share_pct: covered_ns, else latency */
	int64_t unattributed_ns;	/* time across elisions, blamed on no function */

	/* blame, sorted by self_ns (then calls, then name) */
	struct lat_fn_blame *fn;	/* owned */
	size_t nfn;
	size_t *by_total;		/* owned: indexes into fn, sorted by total_ns */
	int top_n;

	struct lat_fn_stretch off[LAT_FN_OFF_N];

	/* the wakeup of the traced task */
	int has_wakeup;
	size_t wake_entry;
	int64_t wake_ns;		/* entry time of the wakeup */
	int64_t wake_to_end_ns;		/* to the header latency, else the last entry */
	int64_t wake_to_last_ns;	/* to the last entry present */

	struct lat_fn_repeat *rep;	/* owned, sorted by entries folded (period * count) */
	size_t nrep;

	/* cross-checks of the tracer's own delay column and markers */
	/* display-graph: blame comes from the DURATION column */
	size_t graph_unclosed;		/* "f() {" never closed in the dump (cut, or trace end) */
	size_t graph_unmatched;		/* "}" whose "f() {" is not in the dump */

	size_t delay_checked, delay_mismatch;
	int delay_since_prev;		/* the (+delay) column reads as time since the previous
					 * entry (RT v1.0 - v1.0.5), not to the next one */
	size_t mark_checked, mark_mismatch;
};

/* The label blame uses for entry @e: its function, or "[sysret]" style for other kinds. */
const char *lat_fn_entry_label(const struct lat_fn_entry *e);

/* "irqs-off", "preempt-off", "irqs-or-preempt-off"; static. */
const char *lat_fn_off_name(enum lat_fn_off_what w);

#endif
