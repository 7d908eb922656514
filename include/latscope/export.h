/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Exporters (docs/export.md): the wakeup analysis' records written out as they
 * come, as Chrome trace-event JSON (Perfetto, chrome://tracing) or as rows
 * (CSV, JSON Lines) for SQL engines.  Each exporter fills a lat_wake_sink to
 * pass in lat_analyze_opts.sink; the analysis drives it.
 */
#ifndef LATSCOPE_EXPORT_H
#define LATSCOPE_EXPORT_H

#include "an_wakeup_sink.h"
#include "tgids.h"

enum lat_rows_kind { LAT_ROWS_WAITS, LAT_ROWS_SLICES, LAT_ROWS_SAMPLES, LAT_ROWS_STALLS,
		    LAT_ROWS_TRACES, LAT_ROWS_NKINDS };

/*
 * The row tables' version (the row_schema column): changes when a column's meaning does.
 * 2: unknown values are \N in CSV, text is escaped alike in CSV and JSON Lines, wall_ns.
 */
#define LAT_ROWS_SCHEMA 2
enum lat_rows_fmt { LAT_ROWS_CSV, LAT_ROWS_JSONL };

/* Parse "waits|slices|samples|stalls|traces" and "csv|jsonl".  Return 0 or -LAT_EUSAGE. */
int lat_rows_kind_parse(const char *s, enum lat_rows_kind *out);
int lat_rows_fmt_parse(const char *s, enum lat_rows_fmt *out);
/*
 * Parse a comma-separated list of kinds, or "all", into a mask of (1 << kind).  Returns 0,
 * or -LAT_EUSAGE with the first word that is not a kind (or an empty one) in @bad (lent
 * from @s, @badlen bytes).
 */
int lat_rows_kinds_parse(const char *s, unsigned *mask, const char **bad, size_t *badlen);
/* "waits", ... (static) */
const char *lat_rows_kind_name(enum lat_rows_kind kind);
/* "csv" or "jsonl" (static): the file name extension of a table */
const char *lat_rows_fmt_name(enum lat_rows_fmt fmt);

/* One table being written. */
struct lat_rows_table {
	FILE *out;			/* lent; NULL: this table is not written */
	uint64_t nrows;
	int header_done;
};

/*
 * The rows writer: the tables asked for, each to its own stream, filled in one
 * pass over the traces.  Between traces the caller sets trace, host and
 * trace_id and calls lat_rows_source().  The text of trace and host is read once per
 * trace (set them, then call lat_rows_source(); change the pointers, not the text, during a
 * trace); trace_id's may change in place (LAT_ROWS_ID_HOLD given its digits).
 */
struct lat_rows {
	struct lat_rows_table t[LAT_ROWS_NKINDS];
	enum lat_rows_fmt fmt;
	const char *trace;	/* the trace column; lent, change between traces */
	const char *host;	/* the host column, NULL: unknown; lent */
	const char *trace_id;	/* the trace_id column, NULL: unknown; lent */
	int64_t threshold_ns;	/* the traces table's verdict threshold, 0 none */
	/* the current trace's CLOCK_REALTIME - trace clock (the wall_ns column), if known */
	int wall_known;
	int64_t wall_offset_ns;
	/* the pid column: the current trace's thread groups (its source's), NULL none; lent */
	const struct lat_tgids *tg;
	/*
	 * the writer's own: the rows not out yet, the first columns (trace, host) and the
	 * last (trace_id, row_schema) as written; owned (export_rows.c)
	 */
	struct lat_rows_priv *priv;
};

/* A rows writer in @fmt with no table yet. */
void lat_rows_init(struct lat_rows *r, enum lat_rows_fmt fmt);
/*
 * Table @kind goes to @out (lent until lat_rows_release(); NULL: not written), a stream of
 * its own: the writer holds up to 64 KiB of each table's rows and hands them to its stream
 * in one write (lat_rows_flush()).  What the table held goes to its stream before.  Returns
 * 0, or -LAT_ENOMEM (then the table is not written).
 */
int lat_rows_table(struct lat_rows *r, enum lat_rows_kind kind, FILE *out);
/*
 * The rows made so far, out to their tables' streams: before the caller flushes, reads or
 * closes one.
 */
void lat_rows_flush(struct lat_rows *r);
/*
 * The next trace comes from @src: its wall clock offset (the wall_ns column) and its
 * thread groups (the pid column: src->tgids, lent until the next call or
 * lat_rows_release()).  Returns the table's status (lat_tgids_parse()), 0 without one.
 */
int lat_rows_source(struct lat_rows *r, const struct lat_event_source *src);
/* Frees what @r holds (not its outputs; rows not flushed are dropped). */
void lat_rows_release(struct lat_rows *r);
/* Writes the CSV headers not written yet (so an empty table still has one). */
void lat_rows_header(struct lat_rows *r);
/* The sink that writes @r's tables of waits, slices, samples and stalls. */
void lat_rows_sink(struct lat_rows *r, struct lat_wake_sink *sink);
/*
 * The traces table's row of analyzed event block @b (its source's metadata and
 * the wakeup analysis' totals); nothing when that table is not written.
 */
void lat_rows_trace(struct lat_rows *r, const struct lat_block *b);
/*
 * A trace's id: FNV-1a 64 of the bytes of the file at @path, as 16 hex digits
 * in @buf (17 bytes).  Returns 0, or -errno when the file cannot be read.
 */
int lat_rows_trace_id(const char *path, char *buf);
/* The same of the open file @f, read to its end (not closed): 0, or -EIO after a read error. */
int lat_rows_trace_id_file(FILE *f, char *buf);

/* The digits of a trace id (lat_rows_trace_id()). */
#define LAT_ROWS_ID_LEN 16
/*
 * A trace_id that starts with LAT_ROWS_ID_HOLD (LAT_ROWS_ID_LEN bytes 0x01) is one whose
 * hash is not known yet: the rows carry these bytes as they are where its digits go (no
 * other byte of a table is 0x01: text writes its control bytes as \xNN), for the caller to
 * put the digits in their place when they are known (cli/export_id.c).
 */
#define LAT_ROWS_ID_HOLD "\1\1\1\1\1\1\1\1\1\1\1\1\1\1\1\1"

/*
 * The preemption model named in a uname version string ("#1 SMP PREEMPT_DYNAMIC
 * ..."): "PREEMPT_RT", "PREEMPT_DYNAMIC", "PREEMPT", or NULL when it says none.
 */
const char *lat_uname_preempt(const char *uname);

/* What --perfetto exports (docs/export.md, "Size"). */
struct lat_perfetto_opts {
	uint64_t from_ns, to_ns;	/* --window: what overlaps [from, to]; to 0: no end */
	const char *task;		/* --task: only this comm (or tid) and its wakers; lent */
};

/* Chrome trace-event JSON writer. */
struct lat_pf_task;
struct lat_pf_cpu;
struct lat_perfetto {
	FILE *out;
	struct lat_perfetto_opts o;
	uint64_t nevents;	/* trace events written */
	uint64_t nflows;
	int32_t max_cpu;	/* highest CPU seen, -1 none */
	int32_t task_tid;	/* o.task as a number, -1: a comm */
	struct lat_pf_task *tasks;	/* open addressing by pid */
	size_t ntasks, tcap;
	struct lat_pf_cpu *cpus;	/* counter state, by CPU number (max_cpu + 1) */
	size_t ccap;
	const struct lat_tgids *tg;	/* the tasks' processes: the source's, NULL none; lent */
	int oom;
	char *buf;		/* the JSON not handed to out yet (export_perfetto_tracks.c) */
	size_t nbuf;
	struct lat_pf_head *heads;	/* events' beginnings as written (the same) */
	struct lat_pf_cache *cache;	/* texts made before, made again the same */
};

/*
 * Starts the JSON document; @o NULL: everything.  Returns 0, or -LAT_ENOMEM (nothing to
 * end then).
 */
int lat_perfetto_begin(struct lat_perfetto *p, FILE *out, const struct lat_perfetto_opts *o);
/*
 * The next trace comes from @src: its tasks' processes (src->tgids, lent until the next
 * call or lat_perfetto_end()); call before its analysis.
 */
void lat_perfetto_source(struct lat_perfetto *p, const struct lat_event_source *src);
void lat_perfetto_sink(struct lat_perfetto *p, struct lat_wake_sink *sink);
/*
 * Writes the counters' last values, the track names and closes the document
 * with @trace (the input's name) and @host (NULL: unknown) in otherData, all of it
 * handed to out (not flushed), and frees what @p holds.
 * Returns 0 or -LAT_ENOMEM.
 */
int lat_perfetto_end(struct lat_perfetto *p, const char *trace, const char *host);

/*
 * Perfetto's protobuf trace writer (`export --perfetto-proto`, docs/export.md):
 * the kernel's events as ftrace event bundles and latscope's waits, verdicts,
 * stalls, markers and run-queue counters as TrackEvents, streamed to @out.
 * Returns NULL out of memory.  Then, per trace: lat_pfproto_source() before its
 * analysis with lat_pfproto_sink()'s sink.
 */
struct lat_pfproto;
struct lat_pfproto *lat_pfproto_new(FILE *out, const struct lat_perfetto_opts *o);
/*
 * The system the trace was recorded on (kernel release, CPUs), when the source says, and
 * its tasks' processes (as lat_perfetto_source()).
 */
void lat_pfproto_source(struct lat_pfproto *p, const struct lat_event_source *src);
void lat_pfproto_sink(struct lat_pfproto *p, struct lat_wake_sink *sink);
/*
 * Writes what the bundles and counters hold and the process tree, and frees
 * @p.  Returns 0, -LAT_ENOMEM or -EIO (a write failed).
 */
int lat_pfproto_end(struct lat_pfproto *p);

/* "dl", "rt" or "fair" for a kernel prio as sched_switch shows it (-1 .. 139). */
const char *lat_prio_policy(int32_t prio);

#endif
