/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Mergeable summaries (docs/merge.md): the wakeup waits of many traces as
 * log-linear histograms per host, per host and comm, per host and CPU, with
 * counts, sums, extremes and the worst waits with their trace.  Filled from the
 * wakeup analysis' records (a lat_wake_sink) or from summaries read back from
 * JSON; merging two is exact: the histograms add bucket by bucket, so the
 * percentiles of a merge are those of one analysis over all the data.
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

struct lat_sgroup;

struct lat_summary_worst {
	char *trace, *host;		/* owned; host NULL: unknown */
	int32_t tid, cpu;
	char comm[LAT_COMM_LEN];
	char kind[8];
	char waker[64];
	int64_t latency_ns;
	uint64_t end_ns;
};

struct lat_summary {
	/* set by the caller between traces (lent): the current trace and its host label */
	const char *trace, *host;
	/* only waits ending in [from_ns, to_ns) are counted (to_ns 0: no end) */
	uint64_t from_ns, to_ns;
	int windowed;
	struct lat_sgroup **groups;	/* hash by (kind, host, key) */
	size_t ngroups, cap;
	struct lat_summary_worst worst[LAT_SUMMARY_WORST];
	size_t nworst;
	uint64_t traces;		/* traces summarized (lat_summary_trace) */
	int oom;
};

void lat_summary_init(struct lat_summary *s);
void lat_summary_release(struct lat_summary *s);
/* A trace begins: counts it for its host (s->host); call after setting trace and host. */
void lat_summary_trace(struct lat_summary *s);
/* The sink that feeds @s: every trusted wakeup and new-task wait. */
void lat_summary_sink(struct lat_summary *s, struct lat_wake_sink *sink);
/* Writes @s as the JSON object @key (docs/merge.md). */
void lat_summary_json(struct lat_json *j, const char *key, const struct lat_summary *s);
/*
 * Adds the summary object @v (written by lat_summary_json, read back) to @s.
 * Returns 0, or -LAT_EFORMAT with "line N: expected ..." in @err (nothing of
 * @v is added then), or -LAT_ENOMEM.
 */
int lat_summary_add_json(struct lat_summary *s, const struct lat_jv *v, char *err,
			 size_t errlen);

#endif
