// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdlib.h>
#include <string.h>

#include "latscope/an_histogram.h"
#include "latscope/an_probe.h"
#include "latscope/report.h"
#include "report_priv.h"

/* [lo, hi] in ns; hi is null for the open last bucket, the pair null when empty. */
static void bucket_json(struct lat_json *j, const char *key, const struct lat_hist_q *q)
{
	if (!q->valid) {
		lat_json_null(j, key);
		return;
	}
	lat_json_arr_open(j, key);
	lat_json_int(j, NULL, q->lo_ns);
	if (q->hi_ns == INT64_MAX)
		lat_json_null(j, NULL);
	else
		lat_json_int(j, NULL, q->hi_ns);
	lat_json_arr_close(j);
}

static void value_json(struct lat_json *j, const char *key, int64_t v)
{
	if (v == LAT_VALUE_NONE)
		lat_json_null(j, key);
	else
		lat_json_int(j, key, v);
}

static void printed_json_key(struct lat_json *j, const char *key,
			     const struct lat_hist_printed *p)
{
	lat_json_obj_open(j, key);
	value_json(j, "count", p->count);
	value_json(j, "min_ns", p->min_ns);
	value_json(j, "avg_ns", p->avg_ns);
	value_json(j, "max_ns", p->max_ns);
	lat_json_obj_close(j);
}

/* Present only for readers of tools that print their own summary. */
static void printed_json(struct lat_json *j, const struct lat_hist_printed *p)
{
	printed_json_key(j, "printed", p);
}

static const char *const q_keys[LAT_HQ_N] = { "p50_ns", "p90_ns", "p99_ns", "p99_9_ns" };

static void verdict(struct lat_json *j, const char *key, int c, const char *a, const char *b)
{
	if (c)
		lat_json_str(j, key, c < 0 ? a : b);
	else
		lat_json_null(j, key);
}

void rp_report_histogram_json(struct lat_json *j, const struct lat_block *b)
{
	const struct lat_hist_result *r = b->analysis;

	if (!r)
		return;
	lat_json_arr_open(j, "histograms");
	for (size_t i = 0; i < r->n; i++) {
		const struct lat_hist_stats *s = &r->stats[i];
		const struct lat_histogram *h = s->h;

		lat_json_obj_open(j, NULL);
		lat_json_str(j, "title", h->title);
		if (h->group)
			lat_json_str(j, "group", h->group);
		rp_report_json_lines(j, "lines", h->first_line, h->last_line);
		lat_json_uint(j, "buckets", h->nbuckets);
		lat_json_uint(j, "total", s->total);
		if (h->printed_total == (uint64_t)-1)
			lat_json_null(j, "printed_total");
		else
			lat_json_uint(j, "printed_total", h->printed_total);
		lat_json_uint(j, "printed_mismatches", (uint64_t)h->cum_mismatches +
			      h->pct_mismatches);
		for (int q = 0; q < LAT_HQ_N; q++)
			bucket_json(j, q_keys[q], &s->q[q]);
		lat_json_obj_open(j, "at_or_above");
		for (int t = 0; t < LAT_HT_N; t++)
			lat_json_uint(j, lat_hist_tnames[t], s->at_or_above[t]);
		lat_json_obj_close(j);
		lat_json_obj_open(j, "straddling");
		for (int t = 0; t < LAT_HT_N; t++)
			lat_json_uint(j, lat_hist_tnames[t], s->straddling[t]);
		lat_json_obj_close(j);
		bucket_json(j, "max_bucket_ns", &s->max);
		lat_json_uint(j, "max_bucket_count", s->max_count);
		if (h->has_printed)
			printed_json(j, &h->printed);
		lat_json_obj_close(j);
	}
	lat_json_arr_close(j);
	lat_json_arr_open(j, "comparisons");
	for (size_t i = 0; i < r->ncmp; i++) {
		const struct lat_hist_cmp *c = &r->cmp[i];
		const char *a = r->stats[c->a].h->title ? r->stats[c->a].h->title : "title unknown";
		const char *bb = r->stats[c->b].h->title ? r->stats[c->b].h->title :
							    "title unknown";
		char key[32];

		lat_json_obj_open(j, NULL);
		lat_json_arr_open(j, "histograms");
		lat_json_uint(j, NULL, c->a);
		lat_json_uint(j, NULL, c->b);
		lat_json_arr_close(j);
		lat_json_obj_open(j, "better");
		verdict(j, "median", c->q[LAT_HQ_P50], a, bb);
		for (int q = LAT_HQ_P90; q < LAT_HQ_N; q++)
			verdict(j, lat_hist_qnames[q], c->q[q], a, bb);
		for (int t = 0; t < LAT_HT_N; t++) {
			snprintf(key, sizeof(key), "at_or_above_%s", lat_hist_tnames[t]);
			verdict(j, key, c->at_or_above[t], a, bb);
		}
		verdict(j, "max_bucket", c->max, a, bb);
		lat_json_obj_close(j);
		lat_json_obj_close(j);
	}
	lat_json_arr_close(j);
}

static void bucket_cell(FILE *out, const struct lat_hist_q *q, int width)
{
	char buf[80];

	if (!q->valid) {
		fprintf(out, "%*s", width, "-");
		return;
	}
	fprintf(out, "%*s", width, lat_hist_bucket_fmt(q, buf, sizeof(buf)));
}

static void value_cell(FILE *out, int64_t v, int width)
{
	char d[32];

	if (v == LAT_VALUE_NONE)
		fprintf(out, " %*s", width, "-");
	else
		fprintf(out, " %*s", width, lat_fmt_duration(v, d, sizeof(d)));
}

#define HX_NAME_MAX 80	/* the widest a name column grows; a longer name pushes its row only */

static const char *hist_name(const struct lat_histogram *h, int printed)
{
	return h->title ? h->title : printed ? "?" : "title unknown";
}

/*
 * The name column of a table of @r's histograms (those with printed values
 * when @printed, else those with buckets): @min wide, wider when a name is
 * longer (labelled runs: "removing hrtick: rtla osnoise top", a trailer
 * table's "LNICE(-19) EEVDF-NO_PARITY"), up to HX_NAME_MAX.
 */
static int name_width(const struct lat_hist_result *r, int printed, int min)
{
	size_t w = (size_t)min;

	for (size_t i = 0; i < r->n; i++) {
		const struct lat_histogram *h = r->stats[i].h;
		size_t k;

		if (printed ? !h->has_printed : !h->nbuckets)
			continue;
		k = rp_cell_width(hist_name(h, printed));
		if (k > w)
			w = k;
	}
	return w > HX_NAME_MAX ? HX_NAME_MAX : (int)w;
}

/* The tools' own count/min/avg/max (cyclictest, rtla, perf sched), as printed. */
static void printed_text(FILE *out, const struct lat_hist_result *r)
{
	int any = 0, w = name_width(r, 1, 24);

	for (size_t i = 0; i < r->n; i++) {
		const struct lat_histogram *h = r->stats[i].h;
		const struct lat_hist_printed *p = &h->printed;

		if (!h->has_printed)
			continue;
		if (!any++)
			fprintf(out, "  %-*s %9s %10s %10s %10s   (as the tool printed them)\n",
				w, "summary", "count", "min", "avg", "max");
		fputs("  ", out);
		rp_report_cell(out, hist_name(h, 1), w);
		if (p->count == LAT_VALUE_NONE)
			fprintf(out, " %9s", "-");
		else
			fprintf(out, " %9lld", (long long)p->count);
		value_cell(out, p->min_ns, 10);
		value_cell(out, p->avg_ns, 10);
		value_cell(out, p->max_ns, 10);
		fputc('\n', out);
	}
}

void rp_report_histogram_text(FILE *out, const struct lat_block *b)
{
	const struct lat_hist_result *r = b->analysis;
	int any = 0, w;

	if (!r)
		return;
	for (size_t i = 0; i < r->n; i++)
		any |= r->stats[i].h->nbuckets > 0;
	w = name_width(r, 0, 16);
	if (any) {
		fprintf(out, "  %-*s %7s", w, "histogram", "total");
		for (int q = 0; q < LAT_HQ_N; q++)
			fprintf(out, " %22s", lat_hist_qnames[q]);
		fprintf(out, " %7s %7s %7s %22s\n", ">=1ms", ">=10ms", ">=100ms",
			"slowest bucket");
	}
	for (size_t i = 0; i < r->n; i++) {
		const struct lat_hist_stats *s = &r->stats[i];

		if (!s->h->nbuckets)
			continue;
		fputs("  ", out);
		rp_report_cell(out, hist_name(s->h, 0), w);
		fprintf(out, " %7llu", (unsigned long long)s->total);
		for (int q = 0; q < LAT_HQ_N; q++) {
			fputc(' ', out);
			bucket_cell(out, &s->q[q], 22);
		}
		for (int t = 0; t < LAT_HT_N; t++)
			fprintf(out, " %7llu", (unsigned long long)s->at_or_above[t]);
		fputc(' ', out);
		bucket_cell(out, &s->max, 22);
		fputc('\n', out);
	}
	if (any)
		fputs("  (a quantile is the bucket [lower, upper) that holds it; bucket values are "
		      "lower bounds)\n", out);
	printed_text(out, r);
}

/*
 * Histograms across blocks (and files).  Two kinds of pairs:
 *  - "buckets": the first block of histograms with samples is the reference;
 *    each of its histograms with samples is compared with the one of the same
 *    name in every later block (thread 0 with thread 0, cpu6 with cpu6, never
 *    by position: two runs list their CPUs or tasks in their own order);
 *  - "printed": the same for histograms that hold only what a tool printed
 *    (cyclictest -q, rtla top, perf sched latency): min, avg and max compared.
 * The name is the title, a perf sched latency task's pid (":8651", or ":(2)"
 * when perf merged tasks of one name) left out where the name is one task on
 * each side: FinalizerDaemon:1234 of one run is FinalizerDaemon:1301 of the
 * next.  Names found on one side only are listed as such.
 */
enum hx_kind { HX_BUCKETS, HX_PRINTED };

struct hx_ref {
	size_t input, block, hist;
	const struct lat_block *b;
	const struct lat_hist_stats *s;
};

struct hx_pair {
	enum hx_kind kind;
	struct hx_ref a, b;
	struct lat_hist_cmp c;		/* HX_BUCKETS */
	int p[3];			/* HX_PRINTED: min, avg, max; -1 a lower, +1 b lower */
};

typedef void (*hx_fn)(void *ctx, const struct lat_report_input *in, const struct hx_pair *p);
/* @r has no histogram of its name in @other; @side 'a' (the reference) or 'b'. */
typedef void (*hx_unmatched_fn)(void *ctx, const struct lat_report_input *in,
				const struct hx_ref *r, const struct hx_ref *other, char side);

/*
 * The histograms a block offers: a histogram block's tables, or an event block's
 * probe distributions (one per timer probe CPU, docs/probe.md).  hist_count() is
 * how many indexes there are; hist_at() is NULL where an index has none.
 */
static size_t hist_count(const struct lat_block *b)
{
	const struct lat_hist_result *r = b->analysis;

	if (b->schema == LAT_SCHEMA_HISTOGRAM)
		return r ? r->n : 0;
	return b->probe ? b->probe->ncpus : 0;
}

static const struct lat_hist_stats *hist_at(const struct lat_block *b, size_t i)
{
	const struct lat_hist_result *r = b->analysis;

	if (b->schema == LAT_SCHEMA_HISTOGRAM)
		return &r->stats[i];
	return b->probe->cpus[i].dist ? &b->probe->cpus[i].dist_stats : NULL;
}

static int is_of(const struct lat_hist_stats *s, enum hx_kind kind)
{
	if (!s)
		return 0;
	if (kind == HX_BUCKETS)
		return s->total > 0;
	return !s->h->nbuckets && s->h->has_printed;
}

/* The @k-th histogram of @kind in @b, or SIZE_MAX. */
static size_t nth_of(const struct lat_block *b, size_t k, enum hx_kind kind)
{
	size_t n = hist_count(b);

	for (size_t i = 0; i < n; i++)
		if (is_of(hist_at(b, i), kind) && !k--)
			return i;
	return SIZE_MAX;
}

static int lower(int64_t a, int64_t b)
{
	if (a == LAT_VALUE_NONE || b == LAT_VALUE_NONE)
		return 0;
	return (a > b) - (a < b);
}

static void pair_fill(struct hx_pair *p)
{
	const struct lat_hist_printed *x = &p->a.s->h->printed, *y = &p->b.s->h->printed;

	if (p->kind == HX_BUCKETS) {
		p->c.a = p->a.hist;
		p->c.b = p->b.hist;
		lat_hist_compare(p->a.s, p->b.s, &p->c);
		return;
	}
	p->p[0] = lower(x->min_ns, y->min_ns);
	p->p[1] = lower(x->avg_ns, y->avg_ns);
	p->p[2] = lower(x->max_ns, y->max_ns);
}

/* The part of a title pairs are made by: without a trailing ":123" or ":(2)". */
static size_t name_len(const char *t)
{
	size_t n = t ? strlen(t) : 0, i = n;

	if (i && t[i - 1] == ')') {
		i--;
		while (i && t[i - 1] >= '0' && t[i - 1] <= '9')
			i--;
		if (i == n - 1 || !i || t[i - 1] != '(')
			return n;
		i--;
	} else {
		while (i && t[i - 1] >= '0' && t[i - 1] <= '9')
			i--;
		if (i == n)
			return n;
	}
	return i > 1 && t[i - 1] == ':' ? i - 1 : n;
}

/* "thread 3" (cyclictest) or "timer cpu3" (a timer probe's CPU): 3; else -1. */
static long thread_or_cpu(const char *t, int *cpu)
{
	const char *n = !strncmp(t, "thread ", 7) ? t + 7 : !strncmp(t, "timer cpu", 9) ? t + 9 :
			NULL;
	char *end;
	long v;

	if (!n || *n < '0' || *n > '9')
		return -1;
	v = strtol(n, &end, 10);
	*cpu = n == t + 9;
	return *end ? -1 : v;
}

/*
 * @x and @y have one name: their titles, or without pids when @short_names.
 * A timer probe's "timer cpuK" is cyclictest's "thread K": the one measures
 * what the other does on CPU K once cyclictest pins thread K there (-S, -a;
 * docs/analyses.md).
 */
static int same_name(const struct lat_hist_stats *x, const struct lat_hist_stats *y,
		     int short_names)
{
	const char *a = x->h->title, *b = y->h->title;
	size_t la, lb;
	int ca, cb;
	long ka, kb;

	if (!a || !b)
		return 0;
	ka = thread_or_cpu(a, &ca);
	kb = thread_or_cpu(b, &cb);
	if (ka >= 0 && kb >= 0 && ca != cb)
		return ka == kb;
	la = short_names ? name_len(a) : strlen(a);
	lb = short_names ? name_len(b) : strlen(b);
	return la == lb && !memcmp(a, b, la);
}

/* How many histograms of @kind in @b have @s's name without its pid. */
static size_t name_count(const struct lat_block *b, const struct lat_hist_stats *s,
			 enum hx_kind kind)
{
	size_t n = hist_count(b), c = 0;

	for (size_t i = 0; i < n; i++)
		c += is_of(hist_at(b, i), kind) && same_name(s, hist_at(b, i), 1);
	return c;
}

/*
 * The histogram of @b named as @s (of block @a), not yet @used, of @kind;
 * SIZE_MAX when none.  A task's pid is left out only where its name is one
 * task on each side: two "latency_test" of one run against two of another
 * are told apart by nothing but their pids.
 */
static size_t partner(const struct lat_block *a, const struct lat_block *b,
		      const struct lat_hist_stats *s, enum hx_kind kind, const unsigned char *used)
{
	size_t n = hist_count(b);
	int short_names = name_count(a, s, kind) == 1 && name_count(b, s, kind) == 1;

	for (size_t i = 0; i < n; i++) {
		const struct lat_hist_stats *y = hist_at(b, i);

		if (!used[i] && is_of(y, kind) && same_name(s, y, short_names))
			return i;
	}
	return SIZE_MAX;
}

/*
 * Pairs histograms of the reference @x with those of @y by name: @fn for each
 * pair, @un (may be NULL) for each histogram that has none (side 'a' or 'b').
 * Returns the pairs, or SIZE_MAX when out of memory.
 */
static size_t hx_pair_blocks(const struct lat_report_input *in, enum hx_kind kind,
			     const struct hx_ref *x, const struct hx_ref *y, hx_fn fn,
			     hx_unmatched_fn un, void *ctx)
{
	size_t nx = hist_count(x->b), ny = hist_count(y->b), count = 0;
	unsigned char *used = calloc(ny ? ny : 1, 1);

	if (!used)
		return SIZE_MAX;
	for (size_t h = 0; h < nx; h++) {
		const struct lat_hist_stats *s = hist_at(x->b, h);
		struct hx_pair p;
		size_t k;

		if (!is_of(s, kind))
			continue;
		k = partner(x->b, y->b, s, kind, used);
		if (k == SIZE_MAX) {
			struct hx_ref r = { x->input, x->block, h, x->b, s };

			if (un)
				un(ctx, in, &r, y, 'a');
			continue;
		}
		used[k] = 1;
		memset(&p, 0, sizeof(p));
		p.kind = kind;
		p.a = (struct hx_ref){ x->input, x->block, h, x->b, s };
		p.b = (struct hx_ref){ y->input, y->block, k, y->b, hist_at(y->b, k) };
		pair_fill(&p);
		if (fn)
			fn(ctx, in, &p);
		count++;
	}
	for (size_t k = 0; un && k < ny; k++) {
		struct hx_ref r = { y->input, y->block, k, y->b, hist_at(y->b, k) };

		if (!used[k] && is_of(r.s, kind))
			un(ctx, in, &r, x, 'b');
	}
	free(used);
	return count;
}

/* The pairs of @kind (SIZE_MAX: out of memory); @un as for hx_pair_blocks(). */
static size_t hx_walk_kind(const struct lat_report_input *in, size_t n, enum hx_kind kind,
			   hx_fn fn, hx_unmatched_fn un, void *ctx)
{
	struct hx_ref ref = { 0 };
	size_t count = 0;

	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < in[i].nblocks; k++) {
			const struct lat_block *b = in[i].blocks[k];
			struct hx_ref cur = { i, k, 0, b, NULL };
			size_t c;

			if (nth_of(b, 0, kind) == SIZE_MAX)
				continue;
			if (!ref.b) {
				ref = cur;
				continue;
			}
			c = hx_pair_blocks(in, kind, &ref, &cur, fn, un, ctx);
			if (c == SIZE_MAX)
				return SIZE_MAX;
			count += c;
		}
	}
	return count;
}

/* Every pair (@fn) and every histogram without one (@un); each may be NULL. */
static size_t hx_walk(const struct lat_report_input *in, size_t n, hx_fn fn, hx_unmatched_fn un,
		      void *ctx)
{
	size_t a = hx_walk_kind(in, n, HX_BUCKETS, fn, un, ctx);
	size_t b = hx_walk_kind(in, n, HX_PRINTED, fn, un, ctx);

	return a == SIZE_MAX || b == SIZE_MAX ? SIZE_MAX : a + b;
}

static void hx_name(const struct lat_report_input *in, const struct hx_ref *r, char *buf,
		    size_t len)
{
	const char *t = r->s->h->title;

	snprintf(buf, len, "%s#%zu %s", in[r->input].path, r->block + 1, t ? t : "?");
}

/* The probe CPU a histogram of @r stands for, or NULL for a histogram block's table. */
static const struct lat_probe_cpu *probe_of(const struct hx_ref *r)
{
	return r->b->schema == LAT_SCHEMA_HISTOGRAM ? NULL : &r->b->probe->cpus[r->hist];
}

/* The width all closed buckets of @h share, or 0 when they differ. */
static int64_t uniform_width(const struct lat_histogram *h)
{
	int64_t w = 0;

	for (size_t i = 0; i < h->nbuckets; i++) {
		int64_t x = h->b[i].hi_ns - h->b[i].lo_ns;

		if (h->b[i].hi_ns == INT64_MAX)
			continue;
		if (w && x != w)
			return 0;
		w = x;
	}
	return w;
}

/* How finely a side's samples are known, in words (docs/analyses.md). */
static void resolution_text(const struct hx_ref *r, char *buf, size_t len)
{
	const struct lat_probe_cpu *pc = probe_of(r);
	int64_t w = uniform_width(r->s->h);
	char d[32];

	if (!pc) {
		if (w)
			snprintf(buf, len, "%s buckets", lat_fmt_duration(w, d, sizeof(d)));
		else
			snprintf(buf, len, "buckets of varying width");
		return;
	}
	switch (pc->dist_res) {
	case LAT_PRES_EXACT:
		snprintf(buf, len, "1 us buckets, every sample from its marker");
		break;
	case LAT_PRES_MIXED:
		snprintf(buf, len, "log2 buckets of the recorder's summary up to %s, 1 us buckets "
			 "from the markers above", lat_fmt_duration(pc->dist_exact_above_ns, d,
								     sizeof(d)));
		break;
	default:
		snprintf(buf, len, "log2 buckets of the recorder's summary");
		break;
	}
}

static void resolution_json(struct lat_json *j, const struct hx_ref *r)
{
	const struct lat_probe_cpu *pc = probe_of(r);
	int64_t w = uniform_width(r->s->h);

	lat_json_obj_open(j, "resolution");
	if (!pc) {
		lat_json_str(j, "kind", w ? "uniform" : "varying");
		if (w)
			lat_json_int(j, "width_ns", w);
		else
			lat_json_null(j, "width_ns");
		lat_json_null(j, "exact_above_ns");
	} else {
		lat_json_str(j, "kind", lat_probe_res_name(pc->dist_res));
		if (pc->dist_res == LAT_PRES_EXACT)
			lat_json_int(j, "width_ns", LAT_NS_PER_US);
		else
			lat_json_null(j, "width_ns");
		if (pc->dist_exact_above_ns >= 0)
			lat_json_int(j, "exact_above_ns", pc->dist_exact_above_ns);
		else
			lat_json_null(j, "exact_above_ns");
	}
	lat_json_obj_close(j);
}

static void hx_side_json(struct lat_json *j, const char *key, const struct lat_report_input *in,
			 const struct hx_ref *r)
{
	lat_json_obj_open(j, key);
	lat_json_str(j, "path", in[r->input].path);
	lat_json_uint(j, "input", r->input);
	lat_json_uint(j, "block", r->block);
	lat_json_str(j, "source", probe_of(r) ? "probe" : "histogram");
	lat_json_uint(j, "histogram", r->hist);
	lat_json_str(j, "title", r->s->h->title);
	if (r->s->h->nbuckets) {
		lat_json_uint(j, "total", r->s->total);
		resolution_json(j, r);
	}
	lat_json_obj_close(j);
}

static const char *const p_names[3] = { "min", "avg", "max" };

static void hx_json(void *ctx, const struct lat_report_input *in, const struct hx_pair *p)
{
	struct lat_json *j = ctx;
	const struct lat_hist_cmp *c = &p->c;
	char key[32];

	lat_json_obj_open(j, NULL);
	lat_json_str(j, "kind", p->kind == HX_BUCKETS ? "buckets" : "printed");
	hx_side_json(j, "a", in, &p->a);
	hx_side_json(j, "b", in, &p->b);
	lat_json_obj_open(j, "better");
	if (p->kind == HX_PRINTED) {
		for (int k = 0; k < 3; k++)
			verdict(j, p_names[k], p->p[k], "a", "b");
		lat_json_obj_close(j);
		printed_json_key(j, "a_printed", &p->a.s->h->printed);
		printed_json_key(j, "b_printed", &p->b.s->h->printed);
		lat_json_obj_close(j);
		return;
	}
	verdict(j, "median", c->q[LAT_HQ_P50], "a", "b");
	for (int q = LAT_HQ_P90; q < LAT_HQ_N; q++)
		verdict(j, lat_hist_qnames[q], c->q[q], "a", "b");
	for (int t = 0; t < LAT_HT_N; t++) {
		snprintf(key, sizeof(key), "at_or_above_%s", lat_hist_tnames[t]);
		verdict(j, key, c->at_or_above[t], "a", "b");
	}
	verdict(j, "max_bucket", c->max, "a", "b");
	lat_json_obj_close(j);
	for (int q = 0; q < LAT_HQ_N; q++) {
		snprintf(key, sizeof(key), "a_%s", q_keys[q]);
		bucket_json(j, key, &p->a.s->q[q]);
		snprintf(key, sizeof(key), "b_%s", q_keys[q]);
		bucket_json(j, key, &p->b.s->q[q]);
	}
	lat_json_obj_close(j);
}

/* Counts what has no partner. */
static void hx_count_un(void *ctx, const struct lat_report_input *in, const struct hx_ref *r,
			const struct hx_ref *other, char side)
{
	(void)in;
	(void)r;
	(void)other;
	(void)side;
	(*(size_t *)ctx)++;
}

static void hx_json_un(void *ctx, const struct lat_report_input *in, const struct hx_ref *r,
		       const struct hx_ref *other, char side)
{
	struct lat_json *j = ctx;

	lat_json_obj_open(j, NULL);
	lat_json_str(j, "side", side == 'a' ? "a" : "b");
	lat_json_str(j, "path", in[r->input].path);
	lat_json_uint(j, "input", r->input);
	lat_json_uint(j, "block", r->block);
	lat_json_uint(j, "histogram", r->hist);
	lat_json_str(j, "title", r->s->h->title);
	lat_json_str(j, "kind", is_of(r->s, HX_BUCKETS) ? "buckets" : "printed");
	lat_json_obj_open(j, "not_in");
	lat_json_str(j, "path", in[other->input].path);
	lat_json_uint(j, "input", other->input);
	lat_json_uint(j, "block", other->block);
	lat_json_obj_close(j);
	lat_json_obj_close(j);
}

void rp_report_hist_across_json(struct lat_json *j, const struct lat_report_input *in, size_t n)
{
	size_t un = 0, pairs = hx_walk(in, n, NULL, hx_count_un, &un);

	if (pairs == SIZE_MAX)
		return;
	if (pairs) {
		lat_json_arr_open(j, "histogram_comparisons");
		hx_walk(in, n, hx_json, NULL, j);
		lat_json_arr_close(j);
	}
	if (un) {
		lat_json_arr_open(j, "histogram_unmatched");
		hx_walk(in, n, NULL, hx_json_un, j);
		lat_json_arr_close(j);
	}
}

/* "max: a (271 us vs 2.81 ms)" for each printed value both have */
static void printed_msg(const struct hx_pair *p, const char *an, const char *bn, char *buf,
			size_t len)
{
	const struct lat_hist_printed *x = &p->a.s->h->printed, *y = &p->b.s->h->printed;
	const int64_t xv[3] = { x->min_ns, x->avg_ns, x->max_ns };
	const int64_t yv[3] = { y->min_ns, y->avg_ns, y->max_ns };
	size_t n = 0;

	buf[0] = '\0';
	for (int k = 2; k >= 0 && n < len; k--) {
		char d1[32], d2[32];

		if (xv[k] == LAT_VALUE_NONE || yv[k] == LAT_VALUE_NONE)
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%s: %s is lower (%s vs %s)",
				      n ? "; " : "", p_names[k],
				      p->p[k] < 0 ? an : p->p[k] > 0 ? bn : "neither",
				      lat_fmt_duration(xv[k], d1, sizeof(d1)),
				      lat_fmt_duration(yv[k], d2, sizeof(d2)));
	}
	if (!n)
		snprintf(buf, len, "no printed value in common");
}

static void hx_text(void *ctx, const struct lat_report_input *in, const struct hx_pair *p)
{
	FILE *out = ctx;
	char an[300], bn[300], msg[2048];

	hx_name(in, &p->a, an, sizeof(an));
	hx_name(in, &p->b, bn, sizeof(bn));
	if (p->kind == HX_BUCKETS)
		lat_hist_cmp_message(msg, sizeof(msg), "a", p->a.s, "b", p->b.s, &p->c);
	else
		printed_msg(p, "a", "b", msg, sizeof(msg));
	fputs("  a = ", out);
	lat_fput_safe(out, an, strlen(an));
	fputs(", b = ", out);
	lat_fput_safe(out, bn, strlen(bn));
	fputs(p->kind == HX_BUCKETS ? ":\n    " : " (as the tool printed them):\n    ", out);
	lat_fput_safe(out, msg, strlen(msg));
	fputc('\n', out);
	if (p->kind != HX_BUCKETS)
		return;
	resolution_text(&p->a, an, sizeof(an));
	resolution_text(&p->b, bn, sizeof(bn));
	fprintf(out, "    resolution: a %s; b %s: a quantile is the bucket that holds it, "
		"'neither' where the two buckets overlap\n", an, bn);
}

/* The names without a partner, a line per block pair and side. */
struct hx_text_un {
	FILE *out;
	int open;			/* a line is open for the block pair and side below */
	struct hx_ref at, other;
	char side;
};

static void hx_text_un(void *ctx, const struct lat_report_input *in, const struct hx_ref *r,
		       const struct hx_ref *other, char side)
{
	struct hx_text_un *u = ctx;
	const char *t = r->s->h->title;

	if (u->open && u->side == side && u->at.input == r->input && u->at.block == r->block &&
	    u->other.input == other->input && u->other.block == other->block) {
		fputs(", ", u->out);
	} else {
		if (u->open)
			fputc('\n', u->out);
		fputs("  only in ", u->out);
		lat_fput_safe(u->out, in[r->input].path, strlen(in[r->input].path));
		fprintf(u->out, "#%zu (none of the name in ", r->block + 1);
		lat_fput_safe(u->out, in[other->input].path, strlen(in[other->input].path));
		fprintf(u->out, "#%zu): ", other->block + 1);
		u->at = *r;
		u->other = *other;
		u->side = side;
		u->open = 1;
	}
	lat_fput_safe(u->out, t ? t : "?", strlen(t ? t : "?"));
}

void rp_report_hist_across_text(FILE *out, const struct lat_report_input *in, size_t n)
{
	struct hx_text_un u = { out, 0, { 0 }, { 0 }, 0 };
	size_t un = 0, pairs = hx_walk(in, n, NULL, hx_count_un, &un);

	if (pairs == SIZE_MAX || (!pairs && !un))
		return;
	fputs("\n== histograms across blocks (the first block's histograms against those of the "
	      "same name in each later block) ==\n", out);
	hx_walk(in, n, hx_text, NULL, out);
	hx_walk(in, n, NULL, hx_text_un, &u);
	if (u.open)
		fputc('\n', out);
}
