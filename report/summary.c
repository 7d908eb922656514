// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Mergeable summaries of wakeup waits written as JSON (docs/merge.md): the
 * histogram parameters, the window, all waits, the comms and CPUs across hosts,
 * the worst waits, then per host.  The summary itself is the analysis'
 * (analyze/summary.c); formats/summary_read.c reads this JSON back.
 */
#include <stdlib.h>
#include <string.h>

#include "latscope/summary.h"

static void bucket_json(void *ctx, int64_t lo, int64_t hi, uint64_t n)
{
	struct lat_json *j = ctx;

	lat_json_arr_open(j, NULL);
	lat_json_int(j, NULL, lo);
	lat_json_uint(j, NULL, n);
	lat_json_arr_close(j);
}

/* A histogram's statistics, inlined in the open object. */
static void sum_json(struct lat_json *j, const struct lat_hll *h)
{
	struct lat_wake_stat st;
	int pretty;

	lat_hll_stat(h, &st);
	lat_json_uint(j, "count", h->n);
	lat_json_int(j, "sum_ns", h->n ? (int64_t)h->sum : 0);
	lat_json_int(j, "min_ns", st.min);
	lat_json_int(j, "max_ns", st.max);
	lat_json_int(j, "avg_ns", (int64_t)(st.avg + 0.5));
	lat_json_int(j, "p50_ns", st.p50);
	lat_json_int(j, "p90_ns", st.p90);
	lat_json_int(j, "p99_ns", st.p99);
	lat_json_int(j, "p999_ns", st.p999);
	pretty = j->pretty;
	lat_json_arr_open(j, "buckets");
	j->pretty = 0;	/* the pairs on one line */
	lat_hll_each(h, bucket_json, j);
	lat_json_arr_close(j);
	j->pretty = pretty;
}

static void group_json(struct lat_json *j, const struct lat_sgroup *g)
{
	lat_json_obj_open(j, NULL);
	if (g->kind == LAT_SG_COMM)
		lat_json_strn(j, "comm", g->comm, strnlen(g->comm, LAT_COMM_LEN));
	else
		lat_json_int(j, "cpu", g->cpu);
	sum_json(j, &g->h);
	lat_json_obj_close(j);
}

static int views_json(struct lat_json *j, const struct lat_summary *s, int one_host,
		      const char *host)
{
	static const char *const names[] = { "comms", "cpus" };
	struct lat_summary_view v;

	for (int k = 0; k < 2; k++) {
		if (lat_summary_view(s, k ? LAT_SG_CPU : LAT_SG_COMM, one_host, host, &v)) {
			lat_summary_view_free(&v);
			return -LAT_ENOMEM;
		}
		lat_json_arr_open(j, names[k]);
		for (size_t i = 0; i < v.n; i++)
			group_json(j, &v.g[i]);
		lat_json_arr_close(j);
		lat_summary_view_free(&v);
	}
	return 0;
}

static void worst_json(struct lat_json *j, const struct lat_summary *s)
{
	lat_json_arr_open(j, "worst");
	for (size_t i = 0; i < s->nworst; i++) {
		const struct lat_summary_worst *w = &s->worst[i];

		lat_json_obj_open(j, NULL);
		lat_json_str(j, "trace", w->trace);
		lat_json_str(j, "host", w->host);
		lat_json_int(j, "tid", w->tid);
		lat_json_strn(j, "comm", w->comm, strnlen(w->comm, LAT_COMM_LEN));
		lat_json_int(j, "cpu", w->cpu);
		lat_json_str(j, "kind", w->kind);
		lat_json_uint(j, "end_ns", w->end_ns);
		lat_json_int(j, "latency_ns", w->latency_ns);
		lat_json_str(j, "waker", w->waker[0] ? w->waker : NULL);
		lat_json_obj_close(j);
	}
	lat_json_arr_close(j);
}

/* A window's from_ns and to_ns (0: to the end, null) in the open object. */
static void window_json(struct lat_json *j, uint64_t from_ns, uint64_t to_ns)
{
	lat_json_uint(j, "from_ns", from_ns);
	if (to_ns)
		lat_json_uint(j, "to_ns", to_ns);
	else
		lat_json_null(j, "to_ns");
}

/* The traces with an id, each with its window: what lets a merge count each once. */
static void trace_ids_json(struct lat_json *j, const struct lat_summary *s)
{
	int pretty = j->pretty;

	lat_json_arr_open(j, "trace_ids");
	for (size_t i = 0; i < s->ntids; i++) {
		const struct lat_summary_tid *t = &s->tids[i];

		lat_json_obj_open(j, NULL);
		j->pretty = 0;	/* one line each */
		lat_json_str(j, "id", t->id);
		lat_json_str(j, "trace", t->trace);
		window_json(j, t->from_ns, t->to_ns);
		lat_json_obj_close(j);
		j->pretty = pretty;
	}
	lat_json_arr_close(j);
}

void lat_summary_json(struct lat_json *j, const char *key, const struct lat_summary *s)
{
	struct lat_summary_view hosts, all;
	int oom = s->oom;

	lat_json_obj_open(j, key);
	lat_json_str(j, "schema", LAT_SUMMARY_SCHEMA);
	lat_json_int(j, "version", LAT_SUMMARY_VERSION);
	lat_json_obj_open(j, "histogram");
	lat_json_str(j, "kind", "log-linear");
	lat_json_int(j, "exact_below_ns", 2 * LAT_HLL_SUB);
	lat_json_int(j, "sub_buckets", LAT_HLL_SUB);
	lat_json_fixed(j, "max_rel_error", 1.0 / (2.0 * LAT_HLL_SUB), 8);
	lat_json_obj_close(j);
	if (s->windowed) {
		lat_json_obj_open(j, "window");
		window_json(j, s->from_ns, s->to_ns);
		lat_json_obj_close(j);
	} else {
		lat_json_null(j, "window");
	}
	lat_json_uint(j, "traces", s->traces);
	trace_ids_json(j, s);
	oom |= lat_summary_view(s, LAT_SG_HOST, 0, NULL, &all) < 0;
	lat_json_obj_open(j, "all");
	if (all.n) {
		lat_json_uint(j, "preempt_waits", all.g[0].preempt);
		lat_json_uint(j, "untrusted", all.g[0].untrusted);
		sum_json(j, &all.g[0].h);
	} else {
		struct lat_hll empty = { 0 };

		lat_json_uint(j, "preempt_waits", 0);
		lat_json_uint(j, "untrusted", 0);
		sum_json(j, &empty);
	}
	lat_json_obj_close(j);
	lat_summary_view_free(&all);
	oom |= views_json(j, s, 0, NULL) < 0;
	worst_json(j, s);
	oom |= lat_summary_hosts(s, &hosts) < 0;
	lat_json_arr_open(j, "hosts");
	for (size_t i = 0; i < hosts.n; i++) {
		const struct lat_sgroup *g = &hosts.g[i];

		lat_json_obj_open(j, NULL);
		lat_json_str(j, "host", g->host);
		lat_json_uint(j, "traces", g->traces);
		lat_json_uint(j, "preempt_waits", g->preempt);
		lat_json_uint(j, "untrusted", g->untrusted);
		sum_json(j, &g->h);
		oom |= views_json(j, s, 1, g->host) < 0;
		lat_json_obj_close(j);
	}
	lat_json_arr_close(j);
	lat_summary_view_free(&hosts);
	if (oom)
		lat_json_str(j, "error", "out of memory: the summary is incomplete");
	lat_json_obj_close(j);
}
