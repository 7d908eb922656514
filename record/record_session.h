/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One recording session, shared by record/record.c (lifecycle and file assembly),
 * record_instance.c (the tracefs instance), record_capture.c (the per-CPU readers) and
 * record_signal.c (what a signal handler may undo).
 */
#ifndef LATSCOPE_RECORD_SESSION_H
#define LATSCOPE_RECORD_SESSION_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "record_priv.h"

struct lat_record_opts;
struct rec_probes;
struct rec_stealer;
struct tracefs_cpu;
struct tracefs_instance;

struct reader {
	struct rec *r;
	int cpu;
	int raw_fd;
	struct tracefs_cpu *tcpu;
	int out_fd;
	char *path;
	pthread_t th;
	bool started;
	int err;		/* -errno of a write error */
};

/* CLOCK_REALTIME minus the instance's trace clock (record/record_clock.c) */
struct rec_wall {
	bool ok;			/* false: the clock does not count ns, or no reading */
	int64_t offset_ns, error_ns;
};

struct rec {
	const struct lat_record_opts *o;
	FILE *msg;
	const char *tdir;
	bool mounted_here;
	struct tracefs_instance *inst;
	char inst_name[64];
	int ncpus;
	struct reader *rd;
	int wake[2];
	atomic_bool stopping;
	char **systems;
	size_t nsystems;
	char **enabled;		/* "sys/event" paths enabled */
	size_t nenabled;
	bool triggers_set;
	bool copy_markers;		/* options/copy_trace_marker set (--top-markers) */
	struct rec_probes *probes;
	struct rec_stealer *stealer;	/* NULL: /proc/stat unreadable */
	char *env;		/* the "latscope: env" metadata lines, read before tracing */
	int tracing_on_fd;	/* the instance's tracing_on, trace_marker; -1: not open */
	int marker_fd;
	struct rec_file file;
	bool file_open;
	pid_t child;
	int child_status;
	bool child_done;
	char **stats;		/* per-CPU stats text at the end */
	char *clock;		/* the instance's trace_clock */
	struct rec_wall wall, wall_end;	/* once tracing is on, and at the stop */
	char *cmdlines;		/* saved_cmdlines (global, read-only) at the end */
};

/*
 * record_instance.c.  Mounts tracefs if needed, creates the instance latscope-PID (tracing
 * off), sets its buffer and enables the events and triggers of r->o.  Returns 0, -LAT_EPERM
 * (a one-line reason was printed), -LAT_EUSAGE for a bad or unknown event, or another
 * negative lat_err.  What it did is undone by rec_teardown_instance().
 */
int rec_setup_instance(struct rec *r);
/* Undoes everything in the instance, then removes it; safe on a half-built setup. */
void rec_teardown_instance(struct rec *r);

/*
 * Measures CLOCK_REALTIME minus the instance's trace clock into @w
 * (record/record_clock.c); w->ok false when it cannot be had.
 */
void rec_wallclock(struct rec *r, struct rec_wall *w);
/*
 * The "now ts:" of a per_cpu stats text in ns into *@ns: 0, or -1 when it is
 * missing or not in seconds.microseconds (a clock that does not count ns).
 */
int rec_parse_now_ts(const char *stats, int64_t *ns);

/*
 * record_capture.c.  Creates the per-CPU files "<output>.cpuN" and opens the CPUs' raw
 * buffers; with @threads starts one reader thread per CPU (without, the flight recorder reads
 * everything at the end).  Returns 0 or a negative lat_err; rec_free_readers() undoes it.
 */
int rec_open_readers(struct rec *r, bool threads);
/* Stops and joins the reader threads, then drains what is left in the buffers. */
void rec_stop_readers(struct rec *r);
/* Closes the buffers and the per-CPU files (their paths stay for the file assembly). */
void rec_close_readers(struct rec *r);
/* Closes, removes the per-CPU files and frees r->rd. */
void rec_free_readers(struct rec *r);

/*
 * record_signal.c: the state a third SIGINT/SIGTERM needs to undo the recording from inside
 * the handler (plain fds and paths); a second one stops tracing through the instance's
 * tracing_on and lets the session finish the file.  Only one recording runs per process.
 */
/* Resets the state and installs the handlers for SIGINT, SIGTERM and SIGCHLD. */
void rec_em_begin(int ncpus, int wake_fd);
/* Forgets the output and the wake fd and restores the handlers rec_em_begin() replaced. */
void rec_em_end(void);
/*
 * The instance directory to remove on a third signal (set before it is created: one that does
 * not exist counts as removed), and whether tracefs is to be unmounted after; NULL: it is gone.
 */
void rec_em_instance(const char *path, bool mounted_here);
/* The output file (and its .cpuN files) to remove on a third signal; NULL: none (complete). */
void rec_em_output(const char *path);
/* The output file is complete: a third signal keeps it. */
void rec_em_output_complete(void);
/* The instance's open tracing_on, or -1. */
void rec_em_tracing_on(int fd);
/* An fd to close on a third signal (ignored when the table is full). */
void rec_em_add_fd(int fd);
/* Forgets the fds added so far (they are closed). */
void rec_em_forget_fds(void);
/* How many SIGINT/SIGTERM arrived, and the last one's number. */
int rec_em_signals(void);
int rec_em_last_signal(void);

#endif
