/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Per-schema report emitters; report.c writes the envelope and dispatches. */
#ifndef LATSCOPE_REPORT_PRIV_H
#define LATSCOPE_REPORT_PRIV_H

#include "latscope/json.h"
#include "latscope/report.h"

void rp_report_loop_json(struct lat_json *j, const struct lat_block *b);
void rp_report_loop_text(FILE *out, const struct lat_block *b);
void rp_report_schedcnt_json(struct lat_json *j, const struct lat_block *b);
void rp_report_schedcnt_text(FILE *out, const struct lat_block *b);
void rp_report_histogram_json(struct lat_json *j, const struct lat_block *b);
void rp_report_histogram_text(FILE *out, const struct lat_block *b);
struct lat_report_input;
/* Histograms of different blocks and files compared (nothing when fewer than two blocks). */
void rp_report_hist_across_json(struct lat_json *j, const struct lat_report_input *in, size_t n);
void rp_report_hist_across_text(FILE *out, const struct lat_report_input *in, size_t n);
void rp_report_fntrace_json(struct lat_json *j, const struct lat_block *b);
void rp_report_fntrace_text(FILE *out, const struct lat_block *b);
void rp_report_wakeup_json(struct lat_json *j, const struct lat_block *b,
			    const struct lat_analyze_opts *o);
void rp_report_wakeup_text(FILE *out, const struct lat_block *b,
			    const struct lat_analyze_opts *o);

/* Probe samples of an event stream (report/probe.c); nothing when the block has none. */
void rp_report_probe_json(struct lat_json *j, const struct lat_block *b);
void rp_report_probe_text(FILE *out, const struct lat_block *b);
/* Kernel-side timer latency (report/timers.c); nothing when the trace has no hrtimer event. */
void rp_report_timers_json(struct lat_json *j, const struct lat_block *b);
void rp_report_timers_text(FILE *out, const struct lat_block *b,
			    const struct lat_analyze_opts *o);
/* The recorded environment of an event trace (report/env.c); nothing when it has none. */
void rp_report_env_json(struct lat_json *j, const struct lat_block *b);
void rp_report_env_text(FILE *out, const struct lat_block *b);
/* The same as (what, value) rows, each through @row (report.md's environment table). */
void rp_report_env_rows(const struct lat_block *b,
			 void (*row)(void *ctx, const char *what, const char *value), void *ctx);
/* "  name" left-aligned in @width columns, control characters escaped. */
void rp_report_cell(FILE *out, const char *s, int width);
/* The columns rp_report_cell() prints @s in (an escape is 4, a UTF-8 character 1). */
size_t rp_cell_width(const char *s);
/* A histogram's numbers as the wakeup JSON has them: count, avg_ns, min_ns, p50_ns .. max_ns. */
struct lat_wake_stat;
void rp_report_stat_json(struct lat_json *j, const struct lat_wake_stat *s);
/* "comm/pid", "idle" for pid 0, control characters escaped. */
void rp_report_who(FILE *out, const char *comm, int32_t pid);
/*
 * The thread groups of event block @b's tasks (the pid keys, docs/json.md): the recorder's
 * tgids line of its source (docs/record.md), as the reader parsed it (lat_event_source.tgids);
 * lent until lat_block_free().  Its status is what lat_tgids_parse() returned: pairs read,
 * or negative (then it holds the pairs before a damaged one, or none).  Never NULL: no
 * event block, or a source without the table, is an empty table.
 */
struct lat_tgids;
const struct lat_tgids *rp_tgids(const struct lat_block *b);
/*
 * A task of an event trace: "pid" its process (thread group) from @tg, null when not
 * known (no tgids line, @tg NULL, the task exited before the recorder read it, the idle
 * task), then "tid" @tid, the thread (the kernel's pid).
 */
void rp_json_task(struct lat_json *j, const struct lat_tgids *tg, int32_t tid);
/* "pid_source": where the pids came from ({from, threads, damaged}), or null when none. */
void rp_json_pid_source(struct lat_json *j, const struct lat_tgids *tg);
/* "@key": [@first, @last], an input's line range (docs/json.md). */
void rp_report_json_lines(struct lat_json *j, const char *key, uint64_t first, uint64_t last);

/* An event trace's trace health per CPU (report/health.c). */
struct lat_wakeup_result;
void rp_health_json(struct lat_json *j, const struct lat_wakeup_result *r);
void rp_health_text(FILE *out, const struct lat_wakeup_result *r);

/* The writers of a schema's section (report/kind.c, the report layer's table). */
struct rp_writers {
	enum lat_schema schema;
	void (*text)(FILE *out, const struct lat_block *b, const struct lat_analyze_opts *o);
	void (*json)(struct lat_json *j, const struct lat_block *b,
		     const struct lat_analyze_opts *o);
};

/* The writers of schema @s (static), or NULL for LAT_SCHEMA_NONE and unknown values. */
const struct rp_writers *rp_writers_of(enum lat_schema s);

#endif
