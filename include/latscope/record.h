/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The recorder: scheduler events and latscope's own probes from a private tracefs instance into
 * a trace.dat (version 6) file.  Only record/ includes libtracefs.
 */
#ifndef LATSCOPE_RECORD_H
#define LATSCOPE_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define LAT_REC_MAX_CPUS 256

struct lat_record_opts {
	const char *output;		/* trace.dat path */
	int64_t duration_ns;		/* 0: until SIGINT/SIGTERM or the command exits */
	char **command;			/* NULL-terminated argv of the command to run, or NULL */
	bool irq;			/* irq_handler_* and softirq_* */
	bool stacks;			/* stacktrace trigger on sched_switch and sched_waking */
	/* hrtimer_expire_entry/exit and local_timer_entry/exit, those the kernel has */
	bool timer_detail;
	/* the instance's copy_trace_marker: writes to the top-level trace_marker (cyclictest) */
	bool top_markers;
	bool probe_timer;
	int64_t timer_interval_ns;	/* default 1 ms */
	int timer_prio;			/* SCHED_FIFO priority, default 95 */
	bool probe_gap;
	int64_t gap_threshold_ns;	/* default 100 us */
	int64_t marker_threshold_ns;	/* timer samples above this become markers, default 200 us */
	int64_t stop_above_ns;		/* > 0: flight recorder, stop at the first sample above */
	unsigned buffer_kb;		/* per-CPU ring buffer size, 0 = the kernel's default */
	/* /proc/stat's steal time read this often into markers, default 10 ms; 0: only at
	 * the start and the end */
	int64_t steal_interval_ns;
	const char *const *events;	/* extra "SYSTEM:EVENT" (EVENT may be "*") */
	size_t nevents;
	const char *cmdline;		/* stored in the file's metadata */
	FILE *msg;			/* progress and messages; NULL = stderr */
};

/* Sets the defaults documented in docs/record.md. */
void lat_record_opts_init(struct lat_record_opts *o);

enum lat_record_end {
	LAT_REC_END_DURATION,	/* the duration ended */
	LAT_REC_END_SIGNAL,	/* SIGINT or SIGTERM */
	LAT_REC_END_COMMAND,	/* the command exited */
	LAT_REC_END_SPIKE,	/* --stop-above fired */
	LAT_REC_END_WRITE_ERROR,
};

struct lat_record_result {
	enum lat_record_end end;
	int cmd_status;		/* wait status of the command when end == COMMAND */
	int write_err;		/* -errno of the first write error, 0 if none */
	uint64_t events_total;	/* entries read out of the buffers (from per-CPU stats) */
	uint64_t lost_total;	/* overrun + dropped over all CPUs */
	int64_t spike_ns;	/* the sample that stopped a flight recording */
	int spike_cpu;
	const char *spike_probe;
};

/*
 * Records into o->output.  Returns 0 when a file trace-cmd can read was written (even after a
 * write error, with the pages that fit: res->write_err says so), -LAT_EPERM when tracefs
 * refused (a one-line reason was printed, nothing is left behind), another negative lat_err
 * otherwise.  The instance is always removed.
 */
int lat_record_run(const struct lat_record_opts *o, struct lat_record_result *res);

#endif
