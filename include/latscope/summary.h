/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Mergeable summaries (docs/merge.md): the wakeup waits of many traces as
 * log-linear histograms per host, per host and comm, per host and CPU, with
 * counts, sums, extremes and the worst waits with their trace.  Filled from the
 * wakeup analysis' records (a lat_wake_sink) or from summaries read back from
 * JSON; merging two is exact: the histograms add bucket by bucket, so the
 * percentiles of a merge are those of one analysis over all the data.
 *
 * The summary is the analysis' (analyze/summary.c: the groups, the worst waits,
 * the sink, the merge); report/summary.c writes it as JSON and
 * formats/summary_read.c reads that JSON back.
 */
#ifndef LATSCOPE_SUMMARY_H
#define LATSCOPE_SUMMARY_H

#include "an_wakeup.h"
#include "an_wakeup_sink.h"
#include "json.h"
#include "json_read.h"

#define LAT_SUMMARY_SCHEMA "latscope-summary"
#define LAT_SUMMARY_VERSION 1
#define LAT_SUMMARY_WORST 16	/* the worst waits kept */

/* What a group counts: one host, one comm of a host, one CPU of a host. */
enum lat_sg_kind { LAT_SG_HOST, LAT_SG_COMM, LAT_SG_CPU };

struct lat_sgroup {
	enum lat_sg_kind kind;
	char *host;			/* owned, NULL: unknown */
	char comm[LAT_COMM_LEN];	/* LAT_SG_COMM */
	int32_t cpu;			/* LAT_SG_CPU */
	uint64_t traces, preempt, untrusted;	/* LAT_SG_HOST */
	struct lat_hll h;
};

struct lat_summary_worst {
	char *trace, *host;		/* owned; host NULL: unknown */
	int32_t tid, cpu;
	char comm[LAT_COMM_LEN];
	char kind[8];
	char waker[64];
	int64_t latency_ns;
	uint64_t end_ns;
};

/* A trace summarized: its id (the rows' trace_id, docs/export.md) and window. */
struct lat_summary_tid {
	char *id;			/* owned */
	char *trace;			/* owned: its path as analyzed, NULL unknown */
	char *origin;			/* owned: the report it was merged from, NULL: none */
	uint64_t from_ns, to_ns;	/* the window of it summarized; to_ns 0: to the end */
	size_t next;			/* 1 + the next entry of the same id, 0: none */
};

struct lat_summary {
	/* set by the caller between traces (lent): the current trace and its host label */
	const char *trace, *host;
	/* the current trace's id, NULL unknown (lent, set with trace) */
	const char *trace_id;
	/* set by the caller before lat_summary_add_json(): the report read (lent) */
	const char *origin;
	/* only waits ending in [from_ns, to_ns) are counted (to_ns 0: no end) */
	uint64_t from_ns, to_ns;
	int windowed;
	struct lat_sgroup **groups;	/* owned; hash by (kind, host, key) */
	size_t ngroups, cap;
	struct lat_summary_worst worst[LAT_SUMMARY_WORST];
	size_t nworst;
	uint64_t traces;		/* traces summarized (lat_summary_trace) */
	/* the traces with an id, in the order summarized or merged; by id in tid_hash */
	struct lat_summary_tid *tids;	/* owned */
	size_t ntids, tid_cap;
	size_t *tid_hash;		/* owned: 1 + the first entry of an id, 0 empty */
	size_t tid_hcap;
	int oom;
};

/* What lat_summary_seen() finds of one summary's traces in another. */
enum lat_summary_seen { LAT_SEEN_NONE, LAT_SEEN_ALL, LAT_SEEN_SOME };

void lat_summary_init(struct lat_summary *s);
void lat_summary_release(struct lat_summary *s);
/*
 * A trace begins: counts it for its host (s->host) and keeps its id (s->trace_id) with the
 * window; call after setting trace, host and trace_id.
 */
void lat_summary_trace(struct lat_summary *s);
/*
 * Whether the traces of @src were summarized in @s already: LAT_SEEN_NONE (no id of @src
 * in @s with an overlapping window), LAT_SEEN_ALL (@src has ids and each is in @s with the
 * same window: merging @src would count every wait of it twice), LAT_SEEN_SOME (some
 * overlap, not all: it cannot be counted once).  *@dup: the entry of @s that overlaps the
 * first one of @src that does (NULL when none); *@mine: that one of @src.
 */
enum lat_summary_seen lat_summary_seen(const struct lat_summary *s, const struct lat_summary *src,
				       const struct lat_summary_tid **dup,
				       const struct lat_summary_tid **mine);
/*
 * Keeps the trace @id (@trace, @origin: may be NULL) with its window in @s (the strings
 * are copied).  Returns 0 or -LAT_ENOMEM.
 */
int lat_summary_tid_add(struct lat_summary *s, const char *id, const char *trace,
			const char *origin, uint64_t from_ns, uint64_t to_ns);
/* The sink that feeds @s: every trusted wakeup and new-task wait. */
void lat_summary_sink(struct lat_summary *s, struct lat_wake_sink *sink);
/*
 * The group (@kind, @host, @comm or @cpu) of @s, made when new (owned by @s); NULL when out
 * of memory.
 */
struct lat_sgroup *lat_summary_group(struct lat_summary *s, enum lat_sg_kind kind,
				     const char *host, const char *comm, int32_t cpu);
/* Offers @w to the worst list of @s; @s takes w's strings (kept or freed). */
void lat_summary_worst_offer(struct lat_summary *s, struct lat_summary_worst *w);
/*
 * Adds every group and worst wait of @src to @dst (@dst takes the worst waits' strings).
 * Returns 0 or -LAT_ENOMEM.
 */
int lat_summary_merge(struct lat_summary *dst, struct lat_summary *src);

/* A view of a summary's groups, sorted: CPUs by number, comms worst first, hosts by name. */
struct lat_summary_view {
	struct lat_sgroup *g;		/* owned array */
	size_t n;
	int lent;			/* 1: g[] are shallow copies of the summary's groups */
};
/*
 * The groups of @kind (of @host only when @one_host), merged across hosts by comm or CPU
 * (the hosts into one) when not @one_host; the histograms are copies.  Returns 0 or
 * -LAT_ENOMEM; release @v with lat_summary_view_free() either way.
 */
int lat_summary_view(const struct lat_summary *s, enum lat_sg_kind kind, int one_host,
		     const char *host, struct lat_summary_view *v);
/* Every host group of @s, shallow (lent: valid while @s is unchanged); 0 or -LAT_ENOMEM. */
int lat_summary_hosts(const struct lat_summary *s, struct lat_summary_view *v);
void lat_summary_view_free(struct lat_summary_view *v);

/* Writes @s as the JSON object @key (docs/merge.md; report/summary.c). */
void lat_summary_json(struct lat_json *j, const char *key, const struct lat_summary *s);
/*
 * Adds the summary object @v (written by lat_summary_json, read back) to @s
 * (formats/summary_read.c), its traces taking s->origin as their origin.
 * Returns 0; 1 when every trace of @v is in @s already (nothing added, what in
 * @err: merging it would count it twice); -LAT_EFORMAT with "line N: expected
 * ..." or what overlaps in @err (nothing of @v is added then), or -LAT_ENOMEM.
 */
int lat_summary_add_json(struct lat_summary *s, const struct lat_jv *v, char *err,
			 size_t errlen);

#endif
