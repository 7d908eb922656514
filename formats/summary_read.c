// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Mergeable summaries read back from the JSON of `analyze --json --mergeable`
 * or `latscope merge` (docs/merge.md; written by report/summary.c): every
 * member checked ("line N: expected ..."), filled into a summary of the
 * analysis (analyze/summary.c) and merged into the caller's only when all of
 * it was read.
 */
#include <stdlib.h>
#include <string.h>

#include "latscope/summary.h"

struct rd {
	char *err;
	size_t errlen;
};

static int rd_fail(struct rd *r, const struct lat_jv *at, const char *what)
{
	snprintf(r->err, r->errlen, "line %u: expected %s", at ? at->line : 0, what);
	return -LAT_EFORMAT;
}

/* The unsigned integer member @key of @o into *@out. */
static int rd_uint(struct rd *r, const struct lat_jv *o, const char *key, uint64_t *out)
{
	const struct lat_jv *v = lat_jv_get(o, key);
	char what[80];

	if (!v || v->type != LAT_JV_NUM || !v->is_int || v->i < 0) {
		snprintf(what, sizeof(what), "\"%s\": an integer >= 0", key);
		return rd_fail(r, v ? v : o, what);
	}
	*out = (uint64_t)v->i;
	return 0;
}

static int rd_int(struct rd *r, const struct lat_jv *o, const char *key, int64_t *out)
{
	uint64_t u;
	int ret = rd_uint(r, o, key, &u);

	*out = (int64_t)u;
	return ret;
}

static int rd_arr(struct rd *r, const struct lat_jv *o, const char *key,
		  const struct lat_jv **out)
{
	char what[80];

	*out = lat_jv_get(o, key);
	if (!*out || (*out)->type != LAT_JV_ARR) {
		snprintf(what, sizeof(what), "\"%s\": an array", key);
		return rd_fail(r, *out ? *out : o, what);
	}
	return 0;
}

/* A string member, or NULL for null; *ok 0 when it is neither. */
static const char *rd_str(const struct lat_jv *o, const char *key, int *ok)
{
	const struct lat_jv *v = lat_jv_get(o, key);

	*ok = v && (v->type == LAT_JV_STR || v->type == LAT_JV_NULL);
	return *ok && v->type == LAT_JV_STR ? v->s : NULL;
}

/* A histogram (count, sum_ns, min_ns, max_ns, buckets) of object @o into @g. */
static int rd_sum(struct rd *r, const struct lat_jv *o, struct lat_sgroup *g)
{
	const struct lat_jv *b;
	uint64_t n, total = 0;
	int64_t sum, min, max;

	if (rd_uint(r, o, "count", &n) || rd_int(r, o, "sum_ns", &sum) ||
	    rd_int(r, o, "min_ns", &min) || rd_int(r, o, "max_ns", &max) ||
	    rd_arr(r, o, "buckets", &b))
		return -LAT_EFORMAT;
	for (size_t i = 0; i < b->n; i++) {
		const struct lat_jv *e = &b->items[i];

		if (e->type != LAT_JV_ARR || e->n != 2 || !e->items[0].is_int ||
		    !e->items[1].is_int || e->items[0].i < 0 || e->items[1].i < 1)
			return rd_fail(r, e, "a bucket [lo_ns, count] (count >= 1)");
		if (n && e->items[0].i > max)
			return rd_fail(r, e, "a bucket not above max_ns");
		if (lat_hll_bucket_n(&g->h, e->items[0].i, (uint64_t)e->items[1].i))
			return -LAT_ENOMEM;
		total += (uint64_t)e->items[1].i;
	}
	if (total != n)
		return rd_fail(r, b, "buckets whose counts add up to \"count\"");
	if (n && (min > max))
		return rd_fail(r, o, "min_ns <= max_ns");
	if (!n)
		return 0;
	g->h.n = n;
	g->h.sum = (double)sum;
	g->h.min = min;
	g->h.max = max;
	return 0;
}

static int rd_groups(struct rd *r, struct lat_summary *t, const struct lat_jv *host,
		     const char *name, enum lat_sg_kind kind)
{
	const struct lat_jv *a;

	if (rd_arr(r, host, kind == LAT_SG_COMM ? "comms" : "cpus", &a))
		return -LAT_EFORMAT;
	for (size_t i = 0; i < a->n; i++) {
		const struct lat_jv *e = &a->items[i], *cpu = lat_jv_get(e, "cpu");
		const char *comm = "";
		struct lat_sgroup *g;
		int ok = 1;

		if (kind == LAT_SG_COMM)
			comm = rd_str(e, "comm", &ok);
		if (kind == LAT_SG_COMM && (!ok || !comm))
			return rd_fail(r, e, "\"comm\": a string");
		if (kind == LAT_SG_CPU &&
		    (!cpu || !cpu->is_int || cpu->i < -1 || cpu->i > INT32_MAX))
			return rd_fail(r, e, "\"cpu\": a CPU number");
		g = lat_summary_group(t, kind, name, comm,
				      kind == LAT_SG_CPU ? (int32_t)cpu->i : -1);
		if (!g)
			return -LAT_ENOMEM;
		if (g->h.n)
			return rd_fail(r, e, "each comm and CPU once per host");
		if (rd_sum(r, e, g))
			return -LAT_EFORMAT;
	}
	return 0;
}

static int rd_worst(struct rd *r, struct lat_summary *t, const struct lat_jv *a)
{
	for (size_t i = 0; i < a->n; i++) {
		const struct lat_jv *e = &a->items[i];
		struct lat_summary_worst w;
		const char *trace, *host, *comm, *kind, *waker;
		int ok[5];
		int64_t tid, cpu;
		uint64_t end;
		int64_t lat;
		const struct lat_jv *vt = lat_jv_get(e, "tid"), *vc = lat_jv_get(e, "cpu");

		trace = rd_str(e, "trace", &ok[0]);
		host = rd_str(e, "host", &ok[1]);
		comm = rd_str(e, "comm", &ok[2]);
		kind = rd_str(e, "kind", &ok[3]);
		waker = rd_str(e, "waker", &ok[4]);
		if (!ok[0] || !ok[1] || !ok[2] || !ok[3] || !ok[4] || !trace || !comm || !kind ||
		    !vt || !vt->is_int || !vc || !vc->is_int)
			return rd_fail(r, e, "a worst wait {trace, host, tid, comm, cpu, kind, "
					     "end_ns, latency_ns, waker}");
		if (rd_uint(r, e, "end_ns", &end) || rd_int(r, e, "latency_ns", &lat))
			return -LAT_EFORMAT;
		tid = vt->i;
		cpu = vc->i;
		memset(&w, 0, sizeof(w));
		w.trace = strdup(trace);
		w.host = host ? strdup(host) : NULL;
		if (!w.trace || (host && !w.host)) {
			free(w.trace);
			free(w.host);
			return -LAT_ENOMEM;
		}
		w.tid = (int32_t)tid;
		w.cpu = (int32_t)cpu;
		snprintf(w.comm, sizeof(w.comm), "%.15s", comm);
		snprintf(w.kind, sizeof(w.kind), "%.7s", kind);
		snprintf(w.waker, sizeof(w.waker), "%s", waker ? waker : "");
		w.end_ns = end;
		w.latency_ns = lat;
		lat_summary_worst_offer(t, &w);
	}
	return 0;
}

/*
 * The traces with an id (optional: a report of a latscope before them has none, its traces
 * then count as of unknown id).
 */
static int rd_trace_ids(struct rd *r, struct lat_summary *t, const struct lat_jv *v)
{
	const struct lat_jv *a = lat_jv_get(v, "trace_ids");

	if (!a)
		return 0;
	if (a->type != LAT_JV_ARR)
		return rd_fail(r, a, "\"trace_ids\": an array");
	for (size_t i = 0; i < a->n; i++) {
		const struct lat_jv *e = &a->items[i], *to = lat_jv_get(e, "to_ns");
		int ok[2];
		const char *id = rd_str(e, "id", &ok[0]), *trace = rd_str(e, "trace", &ok[1]);
		uint64_t from;

		if (e->type != LAT_JV_OBJ || !ok[0] || !id || !*id || !ok[1] || !to ||
		    (to->type != LAT_JV_NULL && (!to->is_int || to->i <= 0)))
			return rd_fail(r, e, "a trace {id: a string, trace, from_ns, to_ns: "
					     "an integer > 0 or null}");
		if (rd_uint(r, e, "from_ns", &from))
			return -LAT_EFORMAT;
		if (lat_summary_tid_add(t, id, trace, NULL, from,
					to->type == LAT_JV_NULL ? 0 : (uint64_t)to->i))
			return -LAT_ENOMEM;
	}
	return 0;
}

/* Everything of summary @v into the empty @t; @t holds part of it on error. */
static int rd_summary(struct rd *r, struct lat_summary *t, const struct lat_jv *v)
{
	const struct lat_jv *hosts, *worst, *ver = lat_jv_get(v, "version");
	int ok;
	const char *schema = rd_str(v, "schema", &ok);
	char what[160];

	if (v->type != LAT_JV_OBJ)
		return rd_fail(r, v, "a summary object");
	if (!schema || strcmp(schema, LAT_SUMMARY_SCHEMA))
		return rd_fail(r, v, "\"schema\": \"" LAT_SUMMARY_SCHEMA "\"");
	if (!ver || !ver->is_int || ver->i != LAT_SUMMARY_VERSION) {
		snprintf(what, sizeof(what), "a summary of version %d (this latscope merges "
			 "version %d only; analyze the traces again with this latscope)",
			 LAT_SUMMARY_VERSION, LAT_SUMMARY_VERSION);
		if (ver && ver->is_int)
			snprintf(what, sizeof(what), "a summary of version %d, got version %lld "
				 "(this latscope merges version %d only: analyze the traces "
				 "again with the latscope that merges them)", LAT_SUMMARY_VERSION,
				 (long long)ver->i, LAT_SUMMARY_VERSION);
		return rd_fail(r, ver ? ver : v, what);
	}
	if (rd_arr(r, v, "hosts", &hosts) || rd_arr(r, v, "worst", &worst))
		return -LAT_EFORMAT;
	for (size_t i = 0; i < hosts->n; i++) {
		const struct lat_jv *h = &hosts->items[i];
		const char *name = rd_str(h, "host", &ok);
		struct lat_sgroup *g;

		if (h->type != LAT_JV_OBJ || !ok)
			return rd_fail(r, h, "a host {host: a string or null, ...}");
		g = lat_summary_group(t, LAT_SG_HOST, name, NULL, -1);
		if (!g)
			return -LAT_ENOMEM;
		if (g->traces || g->h.n)
			return rd_fail(r, h, "each host once");
		if (rd_uint(r, h, "traces", &g->traces) ||
		    rd_uint(r, h, "preempt_waits", &g->preempt) ||
		    rd_uint(r, h, "untrusted", &g->untrusted) || rd_sum(r, h, g) ||
		    rd_groups(r, t, h, name, LAT_SG_COMM) || rd_groups(r, t, h, name, LAT_SG_CPU))
			return -LAT_EFORMAT;
		t->traces += g->traces;
	}
	if (rd_trace_ids(r, t, v))
		return -LAT_EFORMAT;
	if (t->ntids > t->traces)
		return rd_fail(r, lat_jv_get(v, "trace_ids"), "no more trace_ids than traces");
	return rd_worst(r, t, worst);
}

/* A trace's window as ", window FROM:TO" (empty when whole) into @buf. */
static void window_text(const struct lat_summary_tid *t, char *buf, size_t len)
{
	buf[0] = '\0';
	if (t->to_ns)
		snprintf(buf, len, ", window %llu:%llu", (unsigned long long)t->from_ns,
			 (unsigned long long)t->to_ns);
	else if (t->from_ns)
		snprintf(buf, len, ", window %llu:", (unsigned long long)t->from_ns);
}

/*
 * What lat_summary_seen() found, said: @mine of the summary read overlaps @dup,
 * merged before; @all: every trace of the summary read was merged before.
 */
static void seen_text(const struct lat_summary_tid *dup, const struct lat_summary_tid *mine,
		      char *err, size_t errlen, int all)
{
	char win[80], dwin[80], from[600] = "";

	window_text(mine, win, sizeof(win));
	window_text(dup, dwin, sizeof(dwin));
	if (dup->origin)
		snprintf(from, sizeof(from), " from %.500s", dup->origin);
	if (all)
		snprintf(err, errlen, "trace %s (%s%s) was merged already%s: counted once, this "
			 "summary skipped", mine->id, mine->trace ? mine->trace : "?", win, from);
	else if (dup->from_ns != mine->from_ns || dup->to_ns != mine->to_ns)
		snprintf(err, errlen, "trace %s (%s%s) overlaps the part of it merged already%s "
			 "(%s): its waits there would count twice; refused", mine->id,
			 mine->trace ? mine->trace : "?", win, from,
			 dup->to_ns || dup->from_ns ? dwin + 2 : "the whole trace");
	else
		snprintf(err, errlen, "trace %s (%s%s) was merged already%s, and this summary "
			 "holds other traces too: it cannot be counted once; refused (merge the "
			 "reports it was made of instead)", mine->id,
			 mine->trace ? mine->trace : "?", win, from);
}

int lat_summary_add_json(struct lat_summary *s, const struct lat_jv *v, char *err, size_t errlen)
{
	struct rd r = { err, errlen };
	struct lat_summary t;
	int ret;

	const struct lat_summary_tid *dup, *mine;
	enum lat_summary_seen seen;

	lat_summary_init(&t);
	t.origin = s->origin;
	ret = rd_summary(&r, &t, v);
	if (ret == -LAT_ENOMEM)
		snprintf(err, errlen, "out of memory");
	if (!ret) {
		seen = lat_summary_seen(s, &t, &dup, &mine);
		if (seen != LAT_SEEN_NONE) {
			seen_text(dup, mine, err, errlen, seen == LAT_SEEN_ALL);
			ret = seen == LAT_SEEN_ALL ? 1 : -LAT_EFORMAT;
		}
	}
	if (!ret)
		ret = lat_summary_merge(s, &t);
	lat_summary_release(&t);
	return ret;
}
