// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Mergeable summaries of wakeup waits (include/latscope/summary.h,
 * docs/merge.md): histograms per host, per host and comm, per host and CPU,
 * written to and read back from JSON, merged bucket by bucket.
 */
#include <stdlib.h>
#include <string.h>

#include "latscope/summary.h"

enum sg_kind { SG_HOST, SG_COMM, SG_CPU };

struct lat_sgroup {
	enum sg_kind kind;
	char *host;			/* owned, NULL: unknown */
	char comm[LAT_COMM_LEN];	/* SG_COMM */
	int32_t cpu;			/* SG_CPU */
	uint64_t traces, preempt, untrusted;	/* SG_HOST */
	struct lat_hll h;
};

void lat_summary_init(struct lat_summary *s)
{
	memset(s, 0, sizeof(*s));
}

void lat_summary_release(struct lat_summary *s)
{
	for (size_t i = 0; i < s->cap; i++) {
		struct lat_sgroup *g = s->groups[i];

		if (!g)
			continue;
		lat_hll_release(&g->h);
		free(g->host);
		free(g);
	}
	free(s->groups);
	for (size_t i = 0; i < s->nworst; i++) {
		free(s->worst[i].trace);
		free(s->worst[i].host);
	}
	memset(s, 0, sizeof(*s));
}

static int same_host(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ull;
	return h;
}

static uint64_t group_hash(enum sg_kind kind, const char *host, const char *comm, int32_t cpu)
{
	uint64_t h = fnv(14695981039346656037ull, &kind, sizeof(kind));

	h = host ? fnv(h, host, strlen(host) + 1) : fnv(h, "", 0);
	if (kind == SG_COMM)
		h = fnv(h, comm, strnlen(comm, LAT_COMM_LEN));
	if (kind == SG_CPU)
		h = fnv(h, &cpu, sizeof(cpu));
	return h;
}

static int group_is(const struct lat_sgroup *g, enum sg_kind kind, const char *host,
		    const char *comm, int32_t cpu)
{
	return g->kind == kind && same_host(g->host, host) &&
	       (kind != SG_COMM || !strncmp(g->comm, comm, LAT_COMM_LEN)) &&
	       (kind != SG_CPU || g->cpu == cpu);
}

static int rehash(struct lat_summary *s)
{
	size_t ncap = s->cap ? 2 * s->cap : 64;
	struct lat_sgroup **ng = calloc(ncap, sizeof(*ng));

	if (!ng)
		return -LAT_ENOMEM;
	for (size_t i = 0; i < s->cap; i++) {
		struct lat_sgroup *g = s->groups[i];
		size_t k;

		if (!g)
			continue;
		k = group_hash(g->kind, g->host, g->comm, g->cpu) & (ncap - 1);
		while (ng[k])
			k = (k + 1) & (ncap - 1);
		ng[k] = g;
	}
	free(s->groups);
	s->groups = ng;
	s->cap = ncap;
	return 0;
}

/* The group (@kind, @host, @comm or @cpu), made when new; NULL when out of memory. */
static struct lat_sgroup *group(struct lat_summary *s, enum sg_kind kind, const char *host,
				const char *comm, int32_t cpu)
{
	struct lat_sgroup *g;
	size_t k;

	if (2 * (s->ngroups + 1) > s->cap && rehash(s))
		return NULL;
	k = group_hash(kind, host, comm, cpu) & (s->cap - 1);
	for (; s->groups[k]; k = (k + 1) & (s->cap - 1))
		if (group_is(s->groups[k], kind, host, comm, cpu))
			return s->groups[k];
	g = calloc(1, sizeof(*g));
	if (!g || (host && !(g->host = strdup(host)))) {
		free(g);
		return NULL;
	}
	g->kind = kind;
	if (kind == SG_COMM)
		memcpy(g->comm, comm, strnlen(comm, LAT_COMM_LEN));
	g->cpu = kind == SG_CPU ? cpu : -1;
	s->groups[k] = g;
	s->ngroups++;
	return g;
}

void lat_summary_trace(struct lat_summary *s)
{
	struct lat_sgroup *g = group(s, SG_HOST, s->host, NULL, -1);

	s->traces++;
	if (!g)
		s->oom = 1;
	else
		g->traces++;
}

/* The worst waits: latency descending, then trace and end time, for a stable order. */
static int worst_before(const struct lat_summary_worst *a, const struct lat_summary_worst *b)
{
	int c;

	if (a->latency_ns != b->latency_ns)
		return a->latency_ns > b->latency_ns;
	c = strcmp(a->trace, b->trace);
	if (c)
		return c < 0;
	return a->end_ns < b->end_ns;
}

/* Offers @w (whose strings the summary takes) to the worst list. */
static void worst_offer(struct lat_summary *s, struct lat_summary_worst *w)
{
	size_t i;

	if (s->nworst == LAT_SUMMARY_WORST && !worst_before(w, &s->worst[s->nworst - 1])) {
		free(w->trace);
		free(w->host);
		return;
	}
	if (s->nworst == LAT_SUMMARY_WORST) {
		s->nworst--;
		free(s->worst[s->nworst].trace);
		free(s->worst[s->nworst].host);
	}
	for (i = s->nworst; i > 0 && worst_before(w, &s->worst[i - 1]); i--)
		s->worst[i] = s->worst[i - 1];
	s->worst[i] = *w;
	s->nworst++;
}

static void waker_word(const struct lat_wake_waker *k, char *buf, size_t len)
{
	if (k->ctx != LAT_WAKE_CTX_TASK && k->irq_name[0])
		snprintf(buf, len, "%s:%.24s", lat_wake_ctx_name(k->ctx), k->irq_name);
	else if (k->ctx != LAT_WAKE_CTX_TASK)
		snprintf(buf, len, "%s", lat_wake_ctx_name(k->ctx));
	else if (k->pid >= 0)
		snprintf(buf, len, "%.16s:%d", k->comm, k->pid);
	else
		buf[0] = 0;
}

static int hll_add_to(struct lat_sgroup *g, int64_t v)
{
	return g ? lat_hll_add(&g->h, v) : -LAT_ENOMEM;
}

static void summary_wait(void *ctx, const struct lat_wait_rec *rec)
{
	struct lat_summary *s = ctx;
	const struct lat_wake_link *l = rec->w;
	struct lat_sgroup *host;
	struct lat_summary_worst w;

	if (s->windowed && (l->end_ns < s->from_ns || (s->to_ns && l->end_ns >= s->to_ns)))
		return;
	host = group(s, SG_HOST, s->host, NULL, -1);
	if (!host) {
		s->oom = 1;
		return;
	}
	if (!rec->trusted) {
		host->untrusted++;
		return;
	}
	if (l->kind == LAT_WAIT_PREEMPT) {
		host->preempt++;
		return;
	}
	if (lat_hll_add(&host->h, l->latency_ns) ||
	    hll_add_to(group(s, SG_COMM, s->host, l->comm, -1), l->latency_ns) ||
	    hll_add_to(group(s, SG_CPU, s->host, NULL, l->cpu), l->latency_ns))
		s->oom = 1;
	if (s->nworst == LAT_SUMMARY_WORST && l->latency_ns <= s->worst[s->nworst - 1].latency_ns)
		return;	/* the common case, before any copy */
	memset(&w, 0, sizeof(w));
	w.trace = strdup(s->trace ? s->trace : "");
	w.host = s->host ? strdup(s->host) : NULL;
	if (!w.trace || (s->host && !w.host)) {
		free(w.trace);
		free(w.host);
		s->oom = 1;
		return;
	}
	w.tid = l->pid;
	w.cpu = l->cpu;
	memcpy(w.comm, l->comm, strnlen(l->comm, LAT_COMM_LEN));
	snprintf(w.kind, sizeof(w.kind), "%s", lat_wait_kind_name(l->kind));
	waker_word(&l->waker, w.waker, sizeof(w.waker));
	w.latency_ns = l->latency_ns;
	w.end_ns = l->end_ns;
	worst_offer(s, &w);
}

void lat_summary_sink(struct lat_summary *s, struct lat_wake_sink *sink)
{
	memset(sink, 0, sizeof(*sink));
	sink->ctx = s;
	sink->wait = summary_wait;
}

/* ---- JSON out ------------------------------------------------------------------------- */

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

/* A view: the groups of @kind merged across hosts, one per comm or CPU (or one in all). */
struct view {
	struct lat_sgroup *g;		/* malloc'd array */
	size_t n;
};

static int view_cmp(const void *a, const void *b)
{
	const struct lat_sgroup *x = a, *y = b;

	if (x->kind == SG_CPU)
		return (x->cpu > y->cpu) - (x->cpu < y->cpu);
	if (x->kind == SG_COMM && x->h.max != y->h.max)
		return (y->h.max > x->h.max) - (y->h.max < x->h.max);
	if (x->kind == SG_COMM)
		return strncmp(x->comm, y->comm, LAT_COMM_LEN);
	/* hosts: unknown first, then by name */
	if (!x->host || !y->host)
		return !!x->host - !!y->host;
	return strcmp(x->host, y->host);
}

/*
 * The groups of @kind (of @host only when @one_host), merged by key when
 * @across.  Returns 0 or -LAT_ENOMEM; v->g's histograms are copies.
 */
static int view_build(const struct lat_summary *s, enum sg_kind kind, int one_host,
		      const char *host, struct view *v)
{
	memset(v, 0, sizeof(*v));
	v->g = calloc(s->ngroups + 1, sizeof(*v->g));
	if (!v->g)
		return -LAT_ENOMEM;
	for (size_t i = 0; i < s->cap; i++) {
		const struct lat_sgroup *g = s->groups[i];
		struct lat_sgroup *o = NULL;

		if (!g || g->kind != kind || (one_host && !same_host(g->host, host)))
			continue;
		for (size_t k = 0; !one_host && k < v->n; k++)
			if (group_is(&v->g[k], kind, NULL, g->comm, g->cpu) ||
			    (kind == SG_HOST && !one_host))
				o = &v->g[k];
		if (!o) {
			o = &v->g[v->n++];
			*o = *g;
			o->host = one_host ? g->host : NULL;	/* lent */
			memset(&o->h, 0, sizeof(o->h));
		} else {
			o->traces += g->traces;
			o->preempt += g->preempt;
			o->untrusted += g->untrusted;
		}
		if (lat_hll_merge(&o->h, &g->h))
			return -LAT_ENOMEM;
	}
	lat_sort(v->g, v->n, sizeof(*v->g), view_cmp);
	return 0;
}

static void view_free(struct view *v)
{
	for (size_t i = 0; v->g && i < v->n; i++)
		lat_hll_release(&v->g[i].h);
	free(v->g);
	v->g = NULL;
}

static void group_json(struct lat_json *j, const struct lat_sgroup *g)
{
	lat_json_obj_open(j, NULL);
	if (g->kind == SG_COMM)
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
	struct view v;

	for (int k = 0; k < 2; k++) {
		if (view_build(s, k ? SG_CPU : SG_COMM, one_host, host, &v)) {
			view_free(&v);
			return -LAT_ENOMEM;
		}
		lat_json_arr_open(j, names[k]);
		for (size_t i = 0; i < v.n; i++)
			group_json(j, &v.g[i]);
		lat_json_arr_close(j);
		view_free(&v);
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

void lat_summary_json(struct lat_json *j, const char *key, const struct lat_summary *s)
{
	struct view hosts, all;
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
		lat_json_uint(j, "from_ns", s->from_ns);
		if (s->to_ns)
			lat_json_uint(j, "to_ns", s->to_ns);
		else
			lat_json_null(j, "to_ns");
		lat_json_obj_close(j);
	} else {
		lat_json_null(j, "window");
	}
	lat_json_uint(j, "traces", s->traces);
	oom |= view_build(s, SG_HOST, 0, NULL, &all) < 0;
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
	view_free(&all);
	oom |= views_json(j, s, 0, NULL) < 0;
	worst_json(j, s);
	hosts.n = 0;
	hosts.g = calloc(s->ngroups + 1, sizeof(*hosts.g));
	oom |= !hosts.g;
	lat_json_arr_open(j, "hosts");
	for (size_t i = 0; i < s->cap; i++) {
		const struct lat_sgroup *g = s->groups[i];

		if (g && g->kind == SG_HOST && hosts.g)
			hosts.g[hosts.n++] = *g;	/* shallow: only sorted and read */
	}
	lat_sort(hosts.g, hosts.n, sizeof(*hosts.g), view_cmp);
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
	free(hosts.g);
	if (oom)
		lat_json_str(j, "error", "out of memory: the summary is incomplete");
	lat_json_obj_close(j);
}

/* ---- JSON in -------------------------------------------------------------------------- */

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
		     const char *name, enum sg_kind kind)
{
	const struct lat_jv *a;

	if (rd_arr(r, host, kind == SG_COMM ? "comms" : "cpus", &a))
		return -LAT_EFORMAT;
	for (size_t i = 0; i < a->n; i++) {
		const struct lat_jv *e = &a->items[i], *cpu = lat_jv_get(e, "cpu");
		const char *comm = "";
		struct lat_sgroup *g;
		int ok = 1;

		if (kind == SG_COMM)
			comm = rd_str(e, "comm", &ok);
		if (kind == SG_COMM && (!ok || !comm))
			return rd_fail(r, e, "\"comm\": a string");
		if (kind == SG_CPU && (!cpu || !cpu->is_int || cpu->i < -1 || cpu->i > INT32_MAX))
			return rd_fail(r, e, "\"cpu\": a CPU number");
		g = group(t, kind, name, comm, kind == SG_CPU ? (int32_t)cpu->i : -1);
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
		worst_offer(t, &w);
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
		g = group(t, SG_HOST, name, NULL, -1);
		if (!g)
			return -LAT_ENOMEM;
		if (g->traces || g->h.n)
			return rd_fail(r, h, "each host once");
		if (rd_uint(r, h, "traces", &g->traces) ||
		    rd_uint(r, h, "preempt_waits", &g->preempt) ||
		    rd_uint(r, h, "untrusted", &g->untrusted) || rd_sum(r, h, g) ||
		    rd_groups(r, t, h, name, SG_COMM) || rd_groups(r, t, h, name, SG_CPU))
			return -LAT_EFORMAT;
		t->traces += g->traces;
	}
	return rd_worst(r, t, worst);
}

/* Adds every group and worst wait of @src to @dst. */
static int summary_merge(struct lat_summary *dst, struct lat_summary *src)
{
	for (size_t i = 0; i < src->cap; i++) {
		const struct lat_sgroup *g = src->groups[i];
		struct lat_sgroup *o;

		if (!g)
			continue;
		o = group(dst, g->kind, g->host, g->comm, g->cpu);
		if (!o || lat_hll_merge(&o->h, &g->h))
			return -LAT_ENOMEM;
		o->traces += g->traces;
		o->preempt += g->preempt;
		o->untrusted += g->untrusted;
	}
	for (size_t i = 0; i < src->nworst; i++) {
		worst_offer(dst, &src->worst[i]);	/* takes the strings */
		src->worst[i].trace = src->worst[i].host = NULL;
	}
	src->nworst = 0;
	dst->traces += src->traces;
	return 0;
}

int lat_summary_add_json(struct lat_summary *s, const struct lat_jv *v, char *err, size_t errlen)
{
	struct rd r = { err, errlen };
	struct lat_summary t;
	int ret;

	lat_summary_init(&t);
	ret = rd_summary(&r, &t, v);
	if (ret == -LAT_ENOMEM)
		snprintf(err, errlen, "out of memory");
	if (!ret)
		ret = summary_merge(s, &t);
	lat_summary_release(&t);
	return ret;
}
