/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The model: one vocabulary for every input format.
 *
 *  - series:    periodic user-space measurements (lat/lat2/lat3 rows, schedcnt rows,
 *               probe samples), one series per process or CPU, named columns with units;
 *  - histogram: bucketed counts (delivery-time tables, cyclictest -h);
 *  - fntrace:   latency-tracer dumps (include/latscope/fntrace.h);
 *  - events:    scheduler event streams (include/latscope/event.h).
 *
 * Readers fill a struct lat_block per log block found in an input; analyses
 * (analyze/) read it, reports and charts read both.  Units are in the names.
 */
#ifndef LATSCOPE_MODEL_H
#define LATSCOPE_MODEL_H

#include "base.h"

enum lat_unit {
	LAT_UNIT_NONE,
	LAT_UNIT_NS,		/* a duration in nanoseconds */
	LAT_UNIT_TS_NS,		/* a timestamp in the input's clock, in nanoseconds */
	LAT_UNIT_CYCLES,	/* CPU cycle counter */
	LAT_UNIT_COUNT,
	LAT_UNIT_PID,
	LAT_UNIT_CPU,
};

/* What a block holds; decides which analysis runs on it. */
enum lat_schema {
	LAT_SCHEMA_NONE,
	LAT_SCHEMA_LOOP,	/* lat, lat2, lat3: user-space loop logs */
	LAT_SCHEMA_SCHEDCNT,	/* Davide Libenzi's schedcnt cycle tables */
	LAT_SCHEMA_HISTOGRAM,	/* delivery-time tables */
	LAT_SCHEMA_FNTRACE,	/* latency-tracer dumps */
	LAT_SCHEMA_EVENTS,	/* scheduler event streams */
};

#define LAT_SERIES_MAX_COLS 8
#define LAT_VALUE_NONE INT64_MIN	/* a cell the row did not have */

struct lat_column {
	const char *name;	/* static */
	enum lat_unit unit;
};

/* A note someone typed after a row's numbers ("=> process2 sleeps"). */
struct lat_row_note {
	size_t row;		/* the row it follows */
	char *text;		/* owned, as written (blanks trimmed) */
};

/* A table of int64 values, row-major, with the input line of every row. */
struct lat_series {
	char *name;		/* owned: "1", "process 1", "cpu0" */
	char *group;		/* owned or NULL: "N = 3" for schedcnt runs */
	char *note;		/* owned or NULL: a legend such as "./lat 20000000" */
	int ncols;
	struct lat_column cols[LAT_SERIES_MAX_COLS];
	size_t nrows, cap;
	int64_t *v;		/* nrows * ncols */
	uint32_t *line;		/* nrows input line numbers */
	/* free-form numbers a tool printed about this series (schedcnt's footer) */
	int64_t extra[4];
	int nextra;
	struct lat_row_note *notes;	/* owned, in row order */
	size_t nnotes, notecap;
};

static inline int64_t lat_series_at(const struct lat_series *s, size_t row, int col)
{
	return s->v[row * (size_t)s->ncols + (size_t)col];
}

/* Returns the column index named @name, or -1. */
int lat_series_col(const struct lat_series *s, const char *name);

/* Column order of every LAT_SCHEMA_LOOP series. */
enum lat_loop_col {
	LAT_LOOP_TS,	/* the row's date, in the input's clock (ns) */
	LAT_LOOP_WAIT,	/* time asleep in select()/wait: lat "wait", lat2 "wait", lat3 "select" */
	LAT_LOOP_LOOP,	/* time in the busy loop: lat "user", lat2 "user", lat3 "loop" */
	LAT_LOOP_MAX,	/* longest single gap inside the loop (lat2 max, lat3 maxlat) or NONE */
	LAT_LOOP_NBMAX,	/* gaps over 10 ms in the loop (lat3 nbmax) or NONE */
	LAT_LOOP_NCOLS
};


/*
 * Column order of every LAT_SCHEMA_SCHEDCNT series: one series per (run, CPU),
 * name "cpu0", group "N = 3"; extra[0] is the tool's own average LAT printed
 * under the section, extra[1] the second number of that line (nextra = 2).
 */
enum lat_schedcnt_col {
	LAT_SCHED_ENTRY,	/* SCHEDENTRY cycle counter */
	LAT_SCHED_EXIT,		/* SCHEDEXIT */
	LAT_SCHED_LAT,		/* LAT = EXIT - ENTRY, cycles */
	LAT_SCHED_PID,		/* PID picked (0 = idle) */
	LAT_SCHED_ENTRYDIF,	/* cycles to the next entry; NONE on a section's last row */
	LAT_SCHED_NCOLS
};

/*
 * A perf sched map (formats/perf_sched_map.c), kept in its LAT_SCHEMA_HISTOGRAM
 * block for the chart of who ran where: every series of group LAT_SMAP_GROUP.
 * Series "tasks": one row per task code the map shows ("A0"), its pid from the
 * map's legend ("A0 => perf:15304"; LAT_VALUE_NONE when the legend was left
 * out) and the code in base 36; the row's note is its comm (the code when the
 * legend was left out).  Series "cpu0", "cpu1"...: a row each time the CPU's
 * cell changes; from ts on the CPU ran that row of "tasks", -1 idle, or
 * LAT_VALUE_NONE: not known, rows were left out ("<SNIP>") until the next row.
 */
#define LAT_SMAP_GROUP "perf sched map"

enum lat_smap_task_col { LAT_SMAP_PID, LAT_SMAP_CODE, LAT_SMAP_TASK_NCOLS };
enum lat_smap_cpu_col { LAT_SMAP_TS, LAT_SMAP_TASK, LAT_SMAP_CPU_NCOLS };

struct lat_bucket {
	int64_t lo_ns;		/* inclusive lower bound */
	int64_t hi_ns;		/* exclusive upper bound; INT64_MAX for the open last bucket */
	uint64_t count;
};

/* What a tool printed about the samples of a histogram (cyclictest, rtla, perf sched). */
struct lat_hist_printed {
	int64_t count;		/* samples (cycles, switches), or LAT_VALUE_NONE */
	int64_t min_ns, avg_ns, max_ns;	/* each LAT_VALUE_NONE when not printed */
};

struct lat_histogram {
	char *title;		/* owned, may be NULL */
	/* owned or NULL: histograms are compared within their group (rtla: "IRQ", "Thr") */
	char *group;
	size_t nbuckets;
	struct lat_bucket *b;	/* owned, ascending lo_ns */
	uint64_t total;
	uint32_t first_line, last_line;
	/* what the input printed itself, to cross-check: (uint64_t)-1 when absent */
	uint64_t printed_total;
	/* the reader's cross-check of the printed cumulative and percent columns */
	uint32_t cum_mismatches, pct_mismatches;
	uint32_t first_mismatch_line;	/* 0 when both counts are 0 */
	/* the tool's own summary; has_printed 0 when it printed none (nbuckets may be 0) */
	int has_printed;
	struct lat_hist_printed printed;
};

struct lat_fntrace;	/* fntrace.h */
struct lat_event_source;	/* event.h */
struct lat_probe_result;	/* an_probe.h */
struct lat_finding;

enum lat_severity { LAT_SEV_INFO, LAT_SEV_WARN, LAT_SEV_HIGH };

struct lat_finding {
	const char *kind;	/* static: "freeze", "bouncing", "skipped-rows", ... */
	enum lat_severity sev;
	char *message;		/* owned */
};

struct lat_format;

/* One log block of one format inside an input. */

struct lat_block {
	const struct lat_format *fmt;
	enum lat_schema schema;
	char *title;			/* owned or NULL */
	uint32_t first_line, last_line;
	size_t skipped_lines;		/* malformed rows inside the block */

	struct lat_series **series;	/* owned */
	size_t nseries;
	struct lat_histogram **hist;	/* owned */
	size_t nhist;
	struct lat_fntrace *fntrace;	/* owned, LAT_SCHEMA_FNTRACE */
	struct lat_event_source *events;	/* owned, LAT_SCHEMA_EVENTS */

	struct lat_finding *findings;	/* owned */
	size_t nfindings, findcap;

	void *analysis;			/* owned: the analysis result (typed per schema) */
	/* probe samples of an event stream (an_probe.h), or NULL; owned */
	struct lat_probe_result *probe;
	/* set by lat_analyze_block(): frees analysis and probe (lat_block_free() calls it) */
	void (*analysis_free)(struct lat_block *b);
};

struct lat_block *lat_block_new(const struct lat_format *fmt, enum lat_schema schema);
void lat_block_free(struct lat_block *b);
/* Appends a finding; message is printf-formatted.  Returns 0 or -LAT_ENOMEM. */
int lat_block_add_finding(struct lat_block *b, const char *kind, enum lat_severity sev,
			  const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* A new series with @ncols columns; @name is copied.  NULL on allocation failure. */
struct lat_series *lat_series_new(const char *name, int ncols, const struct lat_column *cols);
void lat_series_free(struct lat_series *s);
/* Appends one row of ncols values.  Returns 0 or -LAT_ENOMEM. */
int lat_series_push(struct lat_series *s, const int64_t *row, uint32_t line);
/* Keeps @len bytes of @text as the note of the last row of @s.  0 or -LAT_ENOMEM. */
int lat_series_note_last(struct lat_series *s, const char *text, size_t len);
/* Adopts @s into @b (freed with the block).  Returns 0 or -LAT_ENOMEM (s freed). */
int lat_block_add_series(struct lat_block *b, struct lat_series *s);
int lat_block_add_hist(struct lat_block *b, struct lat_histogram *h);
void lat_histogram_free(struct lat_histogram *h);

const char *lat_severity_name(enum lat_severity s);
/* What a block of schema @s is, for messages: "loop log", "event trace", ... (static). */
const char *lat_schema_name(enum lat_schema s);

#endif
