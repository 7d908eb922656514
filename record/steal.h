/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Steal time through the recording (record/steal.c): /proc/stat's per-CPU steal, guest, idle
 * and iowait times read at the start, every interval by one SCHED_OTHER thread (not pinned), and
 * at the end.  A CPU whose steal or guest time changed gets a "latscope: steal" line in the
 * instance's trace_marker, so the host's theft lands in the timeline beside the events; the
 * start and end values go into the metadata (docs/record.md, "Steal time").
 */
#ifndef LATSCOPE_RECORD_STEAL_H
#define LATSCOPE_RECORD_STEAL_H

#include <stdint.h>
#include <stdio.h>

#include "latscope/env.h"

struct rec_steal_cfg {
	int ncpus;
	int marker_fd;		/* the instance's trace_marker, -1 for none */
	int64_t interval_ns;	/* 0: read at the start and the end only */
	const char *stat_path;	/* "/proc/stat" (a test's file otherwise) */
};

struct rec_stealer;

/*
 * Reads the start values (writing each CPU's first marker) and starts the thread.  Returns 0
 * or a negative lat_err (no memory, /proc/stat unreadable); *@out is freed by
 * rec_stealer_free().
 */
int rec_stealer_start(const struct rec_steal_cfg *cfg, struct rec_stealer **out);
/* Stops and joins the thread, then reads the end values (idempotent). */
void rec_stealer_stop(struct rec_stealer *s);
void rec_stealer_free(struct rec_stealer *s);
/* The metadata lines: "latscope: cpustat at=start|end cpu=N ..." and "latscope: steal_sampler". */
void rec_stealer_summary(const struct rec_stealer *s, FILE *f);
/* Steal time of the recording (end - start) over all CPUs and per CPU, to @msg in one line. */
void rec_stealer_say(const struct rec_stealer *s, FILE *msg);

/*
 * /proc/stat text into @cpus[0..ncpus) (indexed by cpu number; a CPU without a line keeps
 * cpu -1), times in ns at @ns_per_tick.  Returns the number of CPU lines read.
 */
int rec_stat_parse(const char *text, size_t len, struct lat_steal *cpus, int ncpus,
		       int64_t ns_per_tick);

#endif
