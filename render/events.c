// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Histograms of event traces, from the analyses' results (nothing recomputed
 * here): the wakeup waits per CPU or per selected task (result->hists, with
 * the analysis' percentiles), the probe samples per CPU (b->probe, log2
 * buckets), and several traces overlaid (A/B).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latscope/an_probe.h"
#include "latscope/format.h"
#include "latscope/an_wakeup.h"
#include "render_priv.h"

void rd_hist_set_release(struct rd_hist_set *e)
{
	for (size_t i = 0; i < e->n; i++)
		lat_histogram_free(e->h[i]);
	free(e->h);
	free(e->marks);
	memset(e, 0, sizeof(*e));
}

/*
 * Appends a histogram of @nb counts whose bucket k is [lo(k), hi(k)), from the
 * first non-empty bucket to the last; empty ones between stay (they drop to
 * the floor).  Nothing when every count is 0.
 */
static int ev_add(struct rd_hist_set *e, const uint64_t *cnt, size_t nb,
		  void (*edges)(const void *ctx, size_t k, int64_t *lo, int64_t *hi),
		  const void *ctx, const char *title,
		  const struct rd_hist_marks *mk)
{
	struct lat_histogram *h;
	size_t first = nb, last = 0;

	for (size_t k = 0; k < nb; k++) {
		if (!cnt[k])
			continue;
		if (first == nb)
			first = k;
		last = k;
	}
	if (first == nb)
		return 0;
	if (e->n == e->cap) {
		size_t cap = e->cap ? 2 * e->cap : 8;
		struct lat_histogram **nh = realloc(e->h, cap * sizeof(*nh));
		struct rd_hist_marks *nm;

		if (!nh)
			return -LAT_ENOMEM;
		e->h = nh;
		nm = realloc(e->marks, cap * sizeof(*nm));
		if (!nm)
			return -LAT_ENOMEM;
		e->marks = nm;
		e->cap = cap;
	}
	h = calloc(1, sizeof(*h));
	if (!h)
		return -LAT_ENOMEM;
	h->nbuckets = last - first + 1;
	h->b = calloc(h->nbuckets, sizeof(*h->b));
	h->title = strdup(title);
	h->printed_total = (uint64_t)-1;
	if (!h->b || !h->title) {
		lat_histogram_free(h);
		return -LAT_ENOMEM;
	}
	for (size_t k = first; k <= last; k++) {
		struct lat_bucket *b = &h->b[k - first];

		edges(ctx, k, &b->lo_ns, &b->hi_ns);
		b->count = cnt[k];
		h->total += cnt[k];
	}
	e->marks[e->n] = mk ? *mk : (struct rd_hist_marks){ RD_HIST_MARKS_BUCKETS, -1, -1, 0 };
	e->h[e->n++] = h;
	return 0;
}

static struct rd_hist_marks stat_marks(const struct lat_wake_stat *st)
{
	return (struct rd_hist_marks){ st->p50, st->p99, st->max, 0 };
}

static void wake_edges(const void *ctx, size_t k, int64_t *lo, int64_t *hi)
{
	(void)ctx;
	lat_wake_hist_edges(k, lo, hi);
}

static void log2_edges(const void *ctx, size_t k, int64_t *lo, int64_t *hi)
{
	(void)ctx;
	*lo = k ? (int64_t)1 << k : 0;
	*hi = k + 1 < 63 ? (int64_t)1 << (k + 1) : INT64_MAX;
}

static int ev_draw(const struct rd_hist_set *e, const char *title, const char *what,
		   int shares, const struct lat_render_opts *o, struct lat_render_buf *out)
{
	struct rd_hist_input in = { e->h, e->n, title, e->marks, what, NULL, shares, NULL };

	return rd_hist_chart(&in, o, out);
}

/* The name of a wakeup histogram: "CPU 2" or "cyclictest:1234 SCHED_FIFO 80". */
static void wake_hist_name(const struct lat_wake_hist *wh, char *buf, size_t len)
{
	char cls[48];

	if (wh->pid < 0) {
		snprintf(buf, len, "CPU %d", wh->cpu);
		return;
	}
	lat_sched_class_fmt(wh->prio, cls, sizeof(cls));
	snprintf(buf, len, "%.*s:%d%s%s", LAT_COMM_LEN, wh->comm, wh->pid, cls[0] ? " " : "",
		 cls);
}

/*
 * The wakeup waits of an event trace: per selected task when the analysis
 * selected tasks (--task, --policy), else per CPU; the percentiles are the
 * analysis' (within 1/256 of the exact value).
 */
int rd_hist_set_wakeup(struct rd_hist_set *e, const struct lat_block *b, int *per_task)
{
	const struct lat_wakeup_result *r = b->analysis;
	size_t from, to;
	int ret = 0;

	*per_task = 0;
	if (!r || !r->nhists)
		return -LAT_EEMPTY;
	from = r->selecting && r->nhists > r->nhist_cpus ? r->nhist_cpus : 0;
	to = from ? r->nhists : r->nhist_cpus;
	*per_task = from > 0;
	for (size_t i = from; i < to && !ret; i++) {
		const struct lat_wake_hist *wh = &r->hists[i];
		struct rd_hist_marks mk = stat_marks(&wh->st);
		char name[96];

		wake_hist_name(wh, name, sizeof(name));
		ret = ev_add(e, wh->b, LAT_WAKE_HIST_N, wake_edges, NULL, name, &mk);
	}
	return ret;
}

int rd_render_wakeup_hist(const struct lat_block *b, const struct lat_render_opts *o,
			   struct lat_render_buf *out)
{
	const struct lat_wakeup_result *r = b->analysis;
	struct rd_hist_set e = { 0 };
	char title[240];
	int ret, per_task;

	ret = rd_hist_set_wakeup(&e, b, &per_task);
	if (ret == -LAT_EEMPTY || (!ret && !e.n)) {
		snprintf(out->msg, sizeof(out->msg), "no wakeup wait in this trace%s to draw a "
			 "histogram of", r && r->selecting ? " for the selected tasks" : "");
		rd_hist_set_release(&e);
		return -LAT_EEMPTY;
	}
	snprintf(title, sizeof(title), "%s%swakeup latency %s, %llu waits%s",
		 b->title ? b->title : "", b->title ? " \xc2\xb7 " : "",
		 per_task ? "per selected task" : "per CPU", (unsigned long long)r->all.n,
		 per_task && r->selected > LAT_WAKE_HIST_TASKS ? " (12 largest max)" : "");
	if (!ret)
		ret = ev_draw(&e, title, "wakeup latency (waking to running)", 0, o, out);
	else
		snprintf(out->msg, sizeof(out->msg), "out of memory");
	rd_hist_set_release(&e);
	return ret;
}

/* The probe samples per CPU (and kind), the recorder's log2 buckets. */
int rd_render_probe_hist(const struct lat_block *b, const struct lat_render_opts *o,
			  struct lat_render_buf *out)
{
	const struct lat_probe_result *p = b->probe;
	struct rd_hist_set e = { 0 };
	char title[240];
	uint64_t samples = 0;
	int ret = 0;

	if (!p || !p->ncpus) {
		snprintf(out->msg, sizeof(out->msg), "no probe samples in this trace (record "
			 "with --probe)");
		return -LAT_EEMPTY;
	}
	for (size_t i = 0; i < p->ncpus && !ret; i++) {
		const struct lat_probe_cpu *pc = &p->cpus[i];
		struct rd_hist_marks mk = {
			pc->p50_ns, pc->p99_ns, pc->max_ns,
			(pc->p50_src == LAT_PSRC_SUMMARY_BUCKET) |
			(pc->p99_src == LAT_PSRC_SUMMARY_BUCKET) << 1 |
			(pc->max_src == LAT_PSRC_SUMMARY_BUCKET) << 2 };
		uint64_t nsamp = pc->count;
		char name[64];

		if (pc->hist_src == LAT_PSRC_NONE)
			continue;
		snprintf(name, sizeof(name), "%s CPU %d", lat_probe_kind_name(pc->kind), pc->cpu);
		samples += nsamp;
		ret = ev_add(&e, pc->hist, LAT_PROBE_HIST, log2_edges, NULL, name, &mk);
	}
	if (!ret && !e.n) {
		snprintf(out->msg, sizeof(out->msg), "the probe samples have no histogram "
			 "(neither markers nor the recorder's summary)");
		rd_hist_set_release(&e);
		return -LAT_EEMPTY;
	}
	snprintf(title, sizeof(title), "%s%sprobe samples per CPU: %llu sample%s, %llu "
		 "marker%s in the trace%s", b->title ? b->title : "", b->title ? " \xc2\xb7 " : "",
		 (unsigned long long)samples, PLURAL(samples), (unsigned long long)p->markers,
		 PLURAL(p->markers),
		 p->has_summary ? " (counts from the recorder's summary)" : "");
	if (!ret)
		ret = ev_draw(&e, title, "probe latency", 0, o, out);
	else
		snprintf(out->msg, sizeof(out->msg), "out of memory");
	rd_hist_set_release(&e);
	return ret;
}

static void wake_edges_sum(const struct lat_wakeup_result *r, uint64_t *sum)
{
	memset(sum, 0, LAT_WAKE_HIST_N * sizeof(*sum));
	for (size_t i = 0; i < r->nhist_cpus; i++)
		for (size_t k = 0; k < LAT_WAKE_HIST_N; k++)
			sum[k] += r->hists[i].b[k];
}

static void copy_edges(const void *ctx, size_t k, int64_t *lo, int64_t *hi)
{
	const struct lat_histogram *src = ctx;

	*lo = src->b[k].lo_ns;
	*hi = src->b[k].hi_ns;
}

/* One block's histograms into @e, named "@name TITLE". */
static int compare_add(struct rd_hist_set *e, const struct lat_block *b, const char *name)
{
	char title[300];
	int ret = 0;

	if (b->schema == LAT_SCHEMA_EVENTS) {
		const struct lat_wakeup_result *r = b->analysis;
		uint64_t *sum;
		struct rd_hist_marks mk;

		if (!r || !r->nhist_cpus)
			return 0;
		sum = malloc(LAT_WAKE_HIST_N * sizeof(*sum));
		if (!sum)
			return -LAT_ENOMEM;
		wake_edges_sum(r, sum);
		mk = stat_marks(&r->all);
		snprintf(title, sizeof(title), "%s wakeup waits%s", name,
			 r->selecting ? " (selected)" : "");
		ret = ev_add(e, sum, LAT_WAKE_HIST_N, wake_edges, NULL, title, &mk);
		free(sum);
		return ret;
	}
	/* bucket tables: percentiles as bucket bounds (no marks given) */
	for (size_t i = 0; i < b->nhist && !ret; i++) {
		const struct lat_histogram *h = b->hist[i];
		uint64_t *cnt;

		if (!h->total || !h->nbuckets)
			continue;
		cnt = malloc(h->nbuckets * sizeof(*cnt));
		if (!cnt)
			return -LAT_ENOMEM;
		for (size_t k = 0; k < h->nbuckets; k++)
			cnt[k] = h->b[k].count;
		snprintf(title, sizeof(title), "%s %s", name, h->title ? h->title : "?");
		ret = ev_add(e, cnt, h->nbuckets, copy_edges, h, title, NULL);
		free(cnt);
	}
	return ret;
}

#define WAKE_METRIC "wakeup latency (waking to running)"

/* What block @b measures, for the axis: the wakeup waits, or the histograms' block. */
static void compare_metric(const struct lat_block *b, char *buf, size_t len)
{
	if (b->schema == LAT_SCHEMA_EVENTS)
		snprintf(buf, len, WAKE_METRIC);
	else
		rd_utf8_clean(b->title ? b->title : b->fmt && b->fmt->name ? b->fmt->name :
			       "histogram", (size_t)-1, buf, len);
}

void rd_compare_what(const struct lat_block *const *b, const char *const *names, size_t n,
		      char *buf, size_t len)
{
	char m0[96], m[96], nm[64];
	int same = 1;
	size_t used;

	compare_metric(b[0], m0, sizeof(m0));
	for (size_t i = 1; i < n; i++) {
		compare_metric(b[i], m, sizeof(m));
		same &= !strcmp(m, m0);
	}
	if (same) {
		snprintf(buf, len, b[0]->schema == LAT_SCHEMA_EVENTS ? "%s" : "latency: %s", m0);
		return;
	}
	snprintf(buf, len, "latency");
	for (size_t i = 0; i < n; i++) {
		used = strlen(buf);
		compare_metric(b[i], m, sizeof(m));
		rd_utf8_clean(names[i], (size_t)-1, nm, sizeof(nm));
		snprintf(buf + used, len - used, " \xc2\xb7 %s: %s", nm, m);
	}
}

const char *rd_compare_title(const struct lat_block *const *b, size_t n)
{
	size_t traces = 0;

	for (size_t i = 0; i < n; i++)
		traces += b[i]->schema == LAT_SCHEMA_EVENTS;
	return traces == n ? "wakeup latency of several inputs" :
	       traces ? "wakeup waits and histograms of several inputs" :
	       "histograms of several inputs";
}

/*
 * A/B: the histograms of several blocks overlaid, each as its share of its
 * own samples per bucket (runs of different lengths compare), the x axis
 * naming what each side measured.
 */
int lat_render_compare(const struct lat_block *const *b, const char *const *names, size_t n,
		       const struct lat_render_opts *o, struct lat_render_buf *out)
{
	struct rd_hist_set e = { 0 };
	int ret = 0;
	char what[200];

	out->msg[0] = '\0';
	for (size_t i = 0; i < n && !ret; i++)
		ret = compare_add(&e, b[i], names[i]);
	if (ret) {
		snprintf(out->msg, sizeof(out->msg), "out of memory");
	} else if (!e.n) {
		snprintf(out->msg, sizeof(out->msg), "no histogram with samples and no wakeup "
			 "wait in these inputs");
		ret = -LAT_EEMPTY;
	} else {
		rd_compare_what(b, names, n, what, sizeof(what));
		ret = ev_draw(&e, rd_compare_title(b, n), what, 1, o, out);
	}
	rd_hist_set_release(&e);
	return ret;
}

/* Lent pointers of one blame table, as an icicle panel. */
static int stacks_panel(const struct lat_wake_blame *rows, size_t n,
			struct rd_icicle_panel *pn, const char ***names, int64_t **ns)
{
	*names = calloc(n ? n : 1, sizeof(**names));
	*ns = calloc(n ? n : 1, sizeof(**ns));
	if (!*names || !*ns)
		return -LAT_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		(*names)[i] = rows[i].name;
		(*ns)[i] = rows[i].ns;
	}
	*pn = (struct rd_icicle_panel){ *names, *ns, n };
	return 0;
}

/*
 * The kernel stacks of a `record --stacks` trace: off-CPU and runnable time
 * by stack, every stack the analysis attributed time to (not only the
 * --top rows of the text report).
 */
int rd_render_stacks(const struct lat_block *b, const struct lat_render_opts *o,
		      struct lat_render_buf *out)
{
	const struct lat_wakeup_result *r = b->analysis;
	struct rd_icicle_input in = { .title = NULL };
	const char **names[2] = { NULL, NULL };
	int64_t *ns[2] = { NULL, NULL };
	char title[240];
	int ret;

	if (!r || !r->has_stacks || !r->nstacks) {
		snprintf(out->msg, sizeof(out->msg), "no kernel stacks in this trace (record "
			 "with --stacks)");
		return -LAT_EEMPTY;
	}
	ret = stacks_panel(r->off_stacks, r->noff_stacks_all, &in.panel[0], &names[0], &ns[0]);
	if (!ret)
		ret = stacks_panel(r->run_stacks, r->nrun_stacks_all, &in.panel[1], &names[1],
				   &ns[1]);
	snprintf(title, sizeof(title), "%s%skernel stacks: off-CPU and runnable time%s",
		 b->title ? b->title : "", b->title ? " \xc2\xb7 " : "",
		 r->selecting ? " of the selected tasks" : "");
	in.title = title;
	if (!ret)
		ret = rd_chart_run(&rd_icicle_ops, &in, o, out);
	else
		snprintf(out->msg, sizeof(out->msg), "out of memory");
	for (int k = 0; k < 2; k++) {
		free(names[k]);
		free(ns[k]);
	}
	return ret;
}
