/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * latscope's own latency probes: "timer" (cyclictest-like) and "gap" (lat3-like), one pinned
 * thread per CPU each.  Samples above a threshold go to the instance's trace_marker so they
 * land in the same timeline as the scheduler events.
 */
#ifndef LATSCOPE_PROBE_H
#define LATSCOPE_PROBE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define REC_PROBE_BUCKETS 64	/* bucket k counts samples in [2^k, 2^(k+1)) ns; 0 holds 0 too */

struct rec_probe_hist {
	uint64_t count;
	uint64_t sum_ns;
	int64_t min_ns;
	int64_t max_ns;
	uint64_t markers;
	uint64_t bucket[REC_PROBE_BUCKETS];
};

struct rec_probe_cfg {
	int ncpus;
	int marker_fd;		/* the instance's trace_marker, -1 for none */
	int tracing_on_fd;	/* the instance's tracing_on, written "0" on a spike */
	int notify_fd;		/* one byte is written here when the spike stopped the trace */
	bool timer;
	int64_t timer_interval_ns;
	int timer_prio;
	int64_t timer_marker_ns;
	bool gap;
	int64_t gap_threshold_ns;
	int64_t stop_above_ns;	/* 0 = off */
};

struct rec_probes;

/* Starts the configured threads; *@out is freed by rec_probes_free().  Returns 0 or -lat_err. */
int rec_probes_start(const struct rec_probe_cfg *cfg, struct rec_probes **out, FILE *msg);
/* Stops and joins every thread (idempotent). */
void rec_probes_stop(struct rec_probes *p);
void rec_probes_free(struct rec_probes *p);
/* True (and the spike) once a sample above stop_above_ns stopped the trace. */
bool rec_probes_spike(const struct rec_probes *p, int64_t *ns, int *cpu, const char **probe);
/*
 * Appends one "latscope: probe=... cpu=N samples=... hist_log2_ns=k:count,..." line per
 * probe thread to @f (the summary stored in the file and printed at the end).
 */
void rec_probes_summary(const struct rec_probes *p, FILE *f);
/* True when the timer threads run SCHED_FIFO (false: fell back to SCHED_OTHER). */
bool rec_probes_fifo(const struct rec_probes *p);

/* Histogram bucket of @ns (exposed for the unit tests). */
int rec_probe_bucket(int64_t ns);
void rec_probe_hist_add(struct rec_probe_hist *h, int64_t ns);

#endif
