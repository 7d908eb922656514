// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Mergeable summaries of wakeup waits (include/latscope/summary.h,
 * docs/merge.md): the groups per host, per host and comm, per host and CPU
 * (a hash by kind, host and key), the worst waits, the sink that fills them
 * from the wakeup analysis, the merge of two, and the views the writer
 * (report/summary.c) lists.  The JSON reader is formats/summary_read.c.
 */
#include <stdlib.h>
#include <string.h>

#include "latscope/summary.h"

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
	for (size_t i = 0; i < s->ntids; i++) {
		free(s->tids[i].id);
		free(s->tids[i].trace);
		free(s->tids[i].origin);
	}
	free(s->tids);
	free(s->tid_hash);
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

static uint64_t group_hash(enum lat_sg_kind kind, const char *host, const char *comm, int32_t cpu)
{
	uint64_t h = fnv(14695981039346656037ull, &kind, sizeof(kind));

	h = host ? fnv(h, host, strlen(host) + 1) : fnv(h, "", 0);
	if (kind == LAT_SG_COMM)
		h = fnv(h, comm, strnlen(comm, LAT_COMM_LEN));
	if (kind == LAT_SG_CPU)
		h = fnv(h, &cpu, sizeof(cpu));
	return h;
}

static int group_is(const struct lat_sgroup *g, enum lat_sg_kind kind, const char *host,
		    const char *comm, int32_t cpu)
{
	return g->kind == kind && same_host(g->host, host) &&
	       (kind != LAT_SG_COMM || !strncmp(g->comm, comm, LAT_COMM_LEN)) &&
	       (kind != LAT_SG_CPU || g->cpu == cpu);
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

struct lat_sgroup *lat_summary_group(struct lat_summary *s, enum lat_sg_kind kind,
				     const char *host, const char *comm, int32_t cpu)
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
	if (kind == LAT_SG_COMM)
		memcpy(g->comm, comm, strnlen(comm, LAT_COMM_LEN));
	g->cpu = kind == LAT_SG_CPU ? cpu : -1;
	s->groups[k] = g;
	s->ngroups++;
	return g;
}

static uint64_t id_hash(const char *id)
{
	return fnv(14695981039346656037ull, id, strlen(id));
}

/* The slot of @id's first entry in s->tid_hash (empty when it has none). */
static size_t tid_slot(const struct lat_summary *s, const char *id)
{
	size_t k = id_hash(id) & (s->tid_hcap - 1);

	while (s->tid_hash[k] && strcmp(s->tids[s->tid_hash[k] - 1].id, id))
		k = (k + 1) & (s->tid_hcap - 1);
	return k;
}

static int tid_rehash(struct lat_summary *s)
{
	size_t ncap = s->tid_hcap ? 2 * s->tid_hcap : 64, *nh = calloc(ncap, sizeof(*nh));
	size_t *old = s->tid_hash, ocap = s->tid_hcap;

	if (!nh)
		return -LAT_ENOMEM;
	s->tid_hash = nh;
	s->tid_hcap = ncap;
	for (size_t i = 0; i < ocap; i++)
		if (old[i])
			nh[tid_slot(s, s->tids[old[i] - 1].id)] = old[i];
	free(old);
	return 0;
}

int lat_summary_tid_add(struct lat_summary *s, const char *id, const char *trace,
			const char *origin, uint64_t from_ns, uint64_t to_ns)
{
	struct lat_summary_tid t = { .from_ns = from_ns, .to_ns = to_ns };
	size_t k;

	if ((2 * (s->ntids + 1) > s->tid_hcap && tid_rehash(s)) ||
	    lat_grow(&s->tids, &s->tid_cap, s->ntids + 1, sizeof(t)))
		return -LAT_ENOMEM;
	t.id = strdup(id);
	t.trace = trace ? strdup(trace) : NULL;
	t.origin = origin ? strdup(origin) : NULL;
	if (!t.id || (trace && !t.trace) || (origin && !t.origin)) {
		free(t.id);
		free(t.trace);
		free(t.origin);
		return -LAT_ENOMEM;
	}
	/* the new entry heads its id's chain */
	k = tid_slot(s, id);
	t.next = s->tid_hash[k];
	s->tids[s->ntids++] = t;
	s->tid_hash[k] = s->ntids;
	return 0;
}

void lat_summary_trace(struct lat_summary *s)
{
	struct lat_sgroup *g = lat_summary_group(s, LAT_SG_HOST, s->host, NULL, -1);

	s->traces++;
	if (!g)
		s->oom = 1;
	else
		g->traces++;
	if (s->trace_id && lat_summary_tid_add(s, s->trace_id, s->trace, NULL,
					       s->windowed ? s->from_ns : 0,
					       s->windowed ? s->to_ns : 0))
		s->oom = 1;
}

/* Whether windows [f, t) overlap (t 0: no end). */
static int windows_meet(const struct lat_summary_tid *a, const struct lat_summary_tid *b)
{
	return (!b->to_ns || a->from_ns < b->to_ns) && (!a->to_ns || b->from_ns < a->to_ns);
}

enum lat_summary_seen lat_summary_seen(const struct lat_summary *s, const struct lat_summary *src,
				       const struct lat_summary_tid **dup,
				       const struct lat_summary_tid **mine)
{
	size_t same = 0, met = 0;

	*dup = *mine = NULL;
	for (size_t i = 0; i < src->ntids && s->tid_hcap; i++) {
		const struct lat_summary_tid *t = &src->tids[i], *o = NULL;
		int is_same = 0;

		for (size_t e = s->tid_hash[tid_slot(s, t->id)]; e; e = s->tids[e - 1].next) {
			const struct lat_summary_tid *x = &s->tids[e - 1];

			if (!windows_meet(x, t))
				continue;
			o = o ? o : x;
			is_same |= x->from_ns == t->from_ns && x->to_ns == t->to_ns;
		}
		if (!o)
			continue;
		met++;
		same += is_same;
		if (!*dup) {
			*dup = o;
			*mine = t;
		}
	}
	if (!met)
		return LAT_SEEN_NONE;
	/* every trace of src counted already, each whole: src adds nothing */
	return same == src->ntids && src->traces == src->ntids ? LAT_SEEN_ALL : LAT_SEEN_SOME;
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

void lat_summary_worst_offer(struct lat_summary *s, struct lat_summary_worst *w)
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
	host = lat_summary_group(s, LAT_SG_HOST, s->host, NULL, -1);
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
	    hll_add_to(lat_summary_group(s, LAT_SG_COMM, s->host, l->comm, -1), l->latency_ns) ||
	    hll_add_to(lat_summary_group(s, LAT_SG_CPU, s->host, NULL, l->cpu), l->latency_ns))
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
	lat_summary_worst_offer(s, &w);
}

void lat_summary_sink(struct lat_summary *s, struct lat_wake_sink *sink)
{
	memset(sink, 0, sizeof(*sink));
	sink->ctx = s;
	sink->wait = summary_wait;
}

static int view_cmp(const void *a, const void *b)
{
	const struct lat_sgroup *x = a, *y = b;

	if (x->kind == LAT_SG_CPU)
		return (x->cpu > y->cpu) - (x->cpu < y->cpu);
	if (x->kind == LAT_SG_COMM && x->h.max != y->h.max)
		return (y->h.max > x->h.max) - (y->h.max < x->h.max);
	if (x->kind == LAT_SG_COMM)
		return strncmp(x->comm, y->comm, LAT_COMM_LEN);
	/* hosts: unknown first, then by name */
	if (!x->host || !y->host)
		return !!x->host - !!y->host;
	return strcmp(x->host, y->host);
}

int lat_summary_view(const struct lat_summary *s, enum lat_sg_kind kind, int one_host,
		     const char *host, struct lat_summary_view *v)
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
			    (kind == LAT_SG_HOST && !one_host))
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

void lat_summary_view_free(struct lat_summary_view *v)
{
	for (size_t i = 0; v->g && !v->lent && i < v->n; i++)
		lat_hll_release(&v->g[i].h);
	free(v->g);
	v->g = NULL;
}

int lat_summary_hosts(const struct lat_summary *s, struct lat_summary_view *v)
{
	v->n = 0;
	v->lent = 1;
	v->g = calloc(s->ngroups + 1, sizeof(*v->g));
	for (size_t i = 0; i < s->cap; i++) {
		const struct lat_sgroup *g = s->groups[i];

		if (g && g->kind == LAT_SG_HOST && v->g)
			v->g[v->n++] = *g;	/* shallow: only sorted and read */
	}
	lat_sort(v->g, v->n, sizeof(*v->g), view_cmp);
	return v->g ? 0 : -LAT_ENOMEM;
}

int lat_summary_merge(struct lat_summary *dst, struct lat_summary *src)
{
	for (size_t i = 0; i < src->cap; i++) {
		const struct lat_sgroup *g = src->groups[i];
		struct lat_sgroup *o;

		if (!g)
			continue;
		o = lat_summary_group(dst, g->kind, g->host, g->comm, g->cpu);
		if (!o || lat_hll_merge(&o->h, &g->h))
			return -LAT_ENOMEM;
		o->traces += g->traces;
		o->preempt += g->preempt;
		o->untrusted += g->untrusted;
	}
	for (size_t i = 0; i < src->nworst; i++) {
		lat_summary_worst_offer(dst, &src->worst[i]);	/* takes the strings */
		src->worst[i].trace = src->worst[i].host = NULL;
	}
	src->nworst = 0;
	dst->traces += src->traces;
	for (size_t i = 0; i < src->ntids; i++) {
		const struct lat_summary_tid *t = &src->tids[i];

		if (lat_summary_tid_add(dst, t->id, t->trace, t->origin ? t->origin : src->origin,
					t->from_ns, t->to_ns))
			return -LAT_ENOMEM;
	}
	return 0;
}
