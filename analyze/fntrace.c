// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Function traces (latency-tracer dumps): the clock, how much of the window
 * the dump covers, per-function blame, the longest irqs/preempt-off stretch,
 * the wakeup, repeated call sequences, and cross-checks of the tracer's own
 * delay column and markers.  Definitions: docs/fntrace.md.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "latscope/an_fntrace.h"
#include "latscope/analyze.h"
#include "analyze_priv.h"

#define MAX_DEPTH 64	/* call chain kept per CPU */
#define MAX_PERIOD 16	/* longest call sequence folded */

const char *lat_fn_entry_label(const struct lat_fn_entry *e)
{
	if (e->function)
		return e->function;
	switch (e->kind) {
	case LAT_FN_SYSRET: return "[sysret]";
	case LAT_FN_CMDLINE: return "[cmdline]";
	case LAT_FN_SCHED: return "[sched]";
	case LAT_FN_STACK: return "[stack trace]";
	case LAT_FN_SPECIAL: return "[special]";
	case LAT_FN_CALL: return e->graph == LAT_FNG_CLOSE ? "[return]" : "[?]";
	default: return "[?]";
	}
}

const char *lat_fn_off_name(enum lat_fn_off_what w)
{
	static const char *const n[LAT_FN_OFF_N] = { "irqs-off", "preempt-off",
						     "irqs-or-preempt-off" };

	return (unsigned)w < LAT_FN_OFF_N ? n[w] : "?";
}

void an_fntrace_free(void *p)
{
	struct lat_fntrace_result *r = p;

	if (!r)
		return;
	free(r->t_ns);
	free(r->self_ns);
	free(r->fn);
	free(r->by_total);
	free(r->rep);
	free(r);
}

/* ---- the clock ---- */

/*
 * The -RT tracer prints time as cycles_to_usecs(tsc - tsc[#0]), an integer
 * division by cpu_khz/1000+1, so every verbose entry bounds the divisor:
 * printed_us <= cycles / D < printed_us + 1.  The delay column bounds it the
 * same way between index-adjacent entries.  The bounds give cycles per us.
 */
static int tsc_bounds(const struct lat_fntrace *t, double *lo, double *hi)
{
	const struct lat_fn_entry *e0 = NULL;
	double l = 0, h = INFINITY;

	for (size_t i = 0; i < t->n; i++)
		if (t->e[i].has_tsc && t->e[i].index == 0)
			e0 = &t->e[i];
	if (!e0)
		return 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct lat_fn_entry *e = &t->e[i];
		double d, us;

		if (!e->has_tsc || e->tsc_cycles < e0->tsc_cycles)
			continue;
		d = (double)(e->tsc_cycles - e0->tsc_cycles);
		us = (double)(e->time_ns / LAT_NS_PER_US);
		if (d / (us + 1) > l)
			l = d / (us + 1);
		if (us > 0 && d / us < h)
			h = d / us;
		if (i + 1 < t->n && t->e[i + 1].has_tsc && t->e[i + 1].index == e->index + 1 &&
		    e->delay_ns >= 0 && t->e[i + 1].tsc_cycles >= e->tsc_cycles) {
			double dd = (double)(t->e[i + 1].tsc_cycles - e->tsc_cycles);
			double rr = (double)(e->delay_ns / LAT_NS_PER_US);

			if (dd / (rr + 1) > l)
				l = dd / (rr + 1);
			if (rr > 0 && dd / rr < h)
				h = dd / rr;
		}
	}
	if (!isfinite(h) || l <= 0 || l > h)
		return 0;
	*lo = l;
	*hi = h;
	return 1;
}

static int tsc_origin(const struct lat_fntrace *t, uint64_t *tsc0)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->e[i].has_tsc && t->e[i].index == 0) {
			*tsc0 = t->e[i].tsc_cycles;
			return 1;
		}
	return 0;
}

static void compute_times(struct lat_block *b, const struct lat_fntrace *t,
			  const struct lat_analyze_opts *o, struct lat_fntrace_result *r)
{
	uint64_t tsc0 = 0;
	double lo = 0, hi = 0, cpu = 0;

	r->time_source = "printed";
	if (t->verbose && tsc_origin(t, &tsc0)) {
		int bounded = tsc_bounds(t, &lo, &hi);

		if (o->cpu_mhz > 0) {
			/* the tracer divided by cpu_khz/1000 + 1: allow that one either way */
			if (bounded && (o->cpu_mhz + 1 < lo || o->cpu_mhz - 1 > hi))
				lat_block_add_finding(b, "cpu-mhz-mismatch", LAT_SEV_WARN,
						      "--cpu-mhz %.1f is outside the %.2f..%.2f cycles/us "
						      "the dump's own time column allows",
						      o->cpu_mhz, lo, hi);
			cpu = o->cpu_mhz;
			lo = hi = cpu;
		} else if (bounded) {
			cpu = (lo + hi) / 2;
		}
	}
	if (cpu > 0) {
		r->time_source = "tsc";
		r->cycles_per_us = cpu;
		r->cycles_per_us_min = lo;
		r->cycles_per_us_max = hi;
	}
	/* TSC times first (self_ns is scratch here): the next TSC time of every entry */
	for (size_t i = t->n; i-- > 0;) {
		const struct lat_fn_entry *e = &t->e[i];

		if (cpu > 0 && e->has_tsc && e->tsc_cycles >= tsc0)
			r->self_ns[i] = (int64_t)llround((double)(e->tsc_cycles - tsc0) * 1000.0 /
							 cpu);
		else
			r->self_ns[i] = i + 1 < t->n ? r->self_ns[i + 1] : INT64_MAX;
	}
	for (size_t i = 0; i < t->n; i++) {
		const struct lat_fn_entry *e = &t->e[i];
		int64_t v = e->time_ns;

		if (cpu > 0 && e->has_tsc && e->tsc_cycles >= tsc0) {
			v = r->self_ns[i];
		} else if (cpu > 0) {
			/* printed to the microsecond: keep it between its neighbours on the TSC */
			if (i && v < r->t_ns[i - 1])
				v = r->t_ns[i - 1];
			if (v > r->self_ns[i])
				v = r->self_ns[i];
		}
		r->t_ns[i] = v;
	}
}

/* ---- blame ---- */

struct fn_table {
	size_t *slot;		/* index + 1 into r->fn, 0 = empty */
	size_t nslot;
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

static struct lat_fn_blame *fn_get(struct fn_table *ft, struct lat_fntrace_result *r,
				   size_t *cap, const char *name)
{
	size_t i = (size_t)(hash_str(name) & (ft->nslot - 1));

	while (ft->slot[i]) {
		struct lat_fn_blame *b = &r->fn[ft->slot[i] - 1];

		if (!strcmp(b->function, name))
			return b;
		i = (i + 1) & (ft->nslot - 1);
	}
	if (lat_grow(&r->fn, cap, r->nfn + 1, sizeof(*r->fn)))
		return NULL;
	memset(&r->fn[r->nfn], 0, sizeof(r->fn[r->nfn]));
	r->fn[r->nfn].function = name;
	ft->slot[i] = ++r->nfn;
	return &r->fn[r->nfn - 1];
}

struct chain {
	int32_t cpu;
	const char *f[MAX_DEPTH];
	int depth;
};

static struct chain *chain_of(struct chain *c, size_t *nc, size_t max, int32_t cpu)
{
	for (size_t i = 0; i < *nc; i++)
		if (c[i].cpu == cpu)
			return &c[i];
	if (*nc == max)
		return &c[0];
	c[*nc].cpu = cpu;
	c[*nc].depth = 0;
	return &c[(*nc)++];
}

/* Moves the chain to "parent -> function" for a call entry. */
static void chain_call(struct chain *c, const char *fn, const char *parent)
{
	int k = -1;

	if (parent)
		for (k = c->depth - 1; k >= 0; k--)
			if (!strcmp(c->f[k], parent))
				break;
	if (k >= 0) {
		c->depth = k + 1;
	} else {
		c->depth = 0;
		if (parent)
			c->f[c->depth++] = parent;
	}
	if (c->depth == MAX_DEPTH)
		c->depth--;
	c->f[c->depth++] = fn;
}

static int cmp_self(const void *a, const void *b)
{
	const struct lat_fn_blame *x = a, *y = b;

	if (x->self_ns != y->self_ns)
		return x->self_ns < y->self_ns ? 1 : -1;
	if (x->calls != y->calls)
		return x->calls < y->calls ? 1 : -1;
	return strcmp(x->function, y->function);
}

static int cmp_total(const void *a, const void *b, void *arg)
{
	const struct lat_fn_blame *base = arg;
	const struct lat_fn_blame *x = &base[*(const size_t *)a];
	const struct lat_fn_blame *y = &base[*(const size_t *)b];

	if (x->total_ns != y->total_ns)
		return x->total_ns < y->total_ns ? 1 : -1;
	return strcmp(x->function, y->function);
}

/* share of the window, the order by self time, and the order by total time */
static int blame_finish(struct lat_fntrace_result *r)
{
	for (size_t i = 0; i < r->nfn; i++)
		r->fn[i].share_pct = r->window_ns > 0 ?
			(double)r->fn[i].self_ns * 100.0 / (double)r->window_ns : 0;
	if (r->nfn > 1)
		lat_sort(r->fn, r->nfn, sizeof(*r->fn), cmp_self);
	r->by_total = malloc((r->nfn ? r->nfn : 1) * sizeof(*r->by_total));
	if (!r->by_total)
		return -LAT_ENOMEM;
	for (size_t i = 0; i < r->nfn; i++)
		r->by_total[i] = i;
	if (r->nfn > 1)
		qsort_r(r->by_total, r->nfn, sizeof(*r->by_total), cmp_total, r->fn);
	return 0;
}

static int blame(const struct lat_fntrace *t, struct lat_fntrace_result *r)
{
	struct fn_table ft = { 0 };
	struct chain chains[8];
	size_t nchains = 0, cap = 0;
	int ret = 0;

	ft.nslot = 64;
	while (ft.nslot < 2 * (t->n + t->n + 2))
		ft.nslot *= 2;
	ft.slot = calloc(ft.nslot, sizeof(*ft.slot));
	if (!ft.slot)
		return -LAT_ENOMEM;
	/* self time: to the next entry on the same CPU, never across an elision */
	for (size_t i = 0; i < t->n; i++) {
		r->self_ns[i] = -1;
		for (size_t j = i + 1; j < t->n; j++) {
			if (t->e[j].gap_before)
				break;
			if (t->e[j].cpu == t->e[i].cpu || t->e[j].cpu < 0 || t->e[i].cpu < 0) {
				int64_t d = r->t_ns[j] - r->t_ns[i];

				r->self_ns[i] = d < 0 ? 0 : d;
				break;
			}
		}
	}
	for (size_t i = 0; i < t->n; i++) {
		const struct lat_fn_entry *e = &t->e[i];
		const char *label = lat_fn_entry_label(e);
		struct lat_fn_blame *b = fn_get(&ft, r, &cap, label);
		struct chain *c = chain_of(chains, &nchains, LAT_ARRAY_SIZE(chains), e->cpu);
		int64_t self = r->self_ns[i] > 0 ? r->self_ns[i] : 0;

		if (!b) {
			ret = -LAT_ENOMEM;
			goto out;
		}
		b->calls++;
		b->self_ns += self;
		if (e->kind == LAT_FN_CALL && e->function) {
			chain_call(c, e->function, e->parent);
			/* a parent that is never an entry itself still gets its inclusive time */
			for (int k = 0; k < c->depth; k++) {
				int dup = 0;
				struct lat_fn_blame *a;

				for (int m = 0; m < k; m++)
					if (!strcmp(c->f[m], c->f[k]))
						dup = 1;
				if (dup)
					continue;
				a = fn_get(&ft, r, &cap, c->f[k]);
				if (!a) {
					ret = -LAT_ENOMEM;
					goto out;
				}
				a->total_ns += self;
			}
		} else {
			b = fn_get(&ft, r, &cap, label);
			if (!b) {
				ret = -LAT_ENOMEM;
				goto out;
			}
			b->total_ns += self;
		}
	}
	ret = blame_finish(r);
out:
	free(ft.slot);
	return ret;
}

/* ---- blame of display-graph rows: the tracer's own call durations ---- */

struct gframe {
	const char *fn;
	int depth;
	int64_t child_ns;	/* durations of its direct children */
};

struct gstack {
	struct gframe f[MAX_DEPTH];
	int n;
};

/* Drops frames deeper than @depth (their "}" is not in the dump). */
static void gstack_unwind(struct gstack *st, int depth, struct lat_fntrace_result *r)
{
	while (st->n && st->f[st->n - 1].depth > depth) {
		st->n--;
		r->graph_unclosed++;
	}
}

/* Charges @ns to the innermost open frame above @depth (the caller of that row). */
static void gstack_child(struct gstack *st, int depth, int64_t ns)
{
	if (st->n && st->f[st->n - 1].depth < depth)
		st->f[st->n - 1].child_ns += ns;
}

static int graph_row(struct fn_table *ft, struct lat_fntrace_result *r, size_t *cap,
		     struct gstack *st, const struct lat_fn_entry *e)
{
	struct lat_fn_blame *b;
	int64_t d = e->dur_ns;

	gstack_unwind(st, e->depth, r);
	if (e->graph == LAT_FNG_CLOSE) {
		struct gframe *f = st->n ? &st->f[st->n - 1] : NULL;

		if (!f || f->depth != e->depth) {
			/* the call began before the dump: no self time without its children */
			r->graph_unmatched++;
			if (!e->function || d < 0)
				return 0;
			b = fn_get(ft, r, cap, e->function);
			if (!b)
				return -LAT_ENOMEM;
			b->total_ns += d;
			gstack_child(st, e->depth, d);
			return 0;
		}
		st->n--;
		if (d < 0)
			return 0;
		b = fn_get(ft, r, cap, f->fn);
		if (!b)
			return -LAT_ENOMEM;
		b->total_ns += d;
		b->self_ns += d > f->child_ns ? d - f->child_ns : 0;
		gstack_child(st, e->depth, d);
		return 0;
	}
	b = fn_get(ft, r, cap, lat_fn_entry_label(e));
	if (!b)
		return -LAT_ENOMEM;
	b->calls++;
	if (e->graph == LAT_FNG_OPEN) {
		if (st->n < MAX_DEPTH)
			st->f[st->n++] = (struct gframe){ b->function, e->depth, 0 };
		return 0;
	}
	if (e->graph == LAT_FNG_LEAF && d >= 0) {
		b->self_ns += d;
		b->total_ns += d;
		gstack_child(st, e->depth, d);
	}
	return 0;
}

/*
 * display-graph dumps carry each call's duration: a leaf "f();" is its own
 * self and total time; "f() {" ... "}" is total time at the "}", self time
 * being that minus the durations of its direct children.  Rows without a
 * duration (the stack trace) only count as calls.
 */
static int blame_graph(const struct lat_fntrace *t, struct lat_fntrace_result *r)
{
	struct fn_table ft = { 0 };
	struct gstack st = { .n = 0 };
	size_t cap = 0;
	int ret = 0;
	int32_t cpu = t->n ? t->e[0].cpu : -1;

	ft.nslot = 64;
	while (ft.nslot < 2 * (t->n + 2))
		ft.nslot *= 2;
	ft.slot = calloc(ft.nslot, sizeof(*ft.slot));
	if (!ft.slot)
		return -LAT_ENOMEM;
	for (size_t i = 0; i < t->n; i++) {
		const struct lat_fn_entry *e = &t->e[i];

		r->self_ns[i] = -1;
		if (e->gap_before || e->cpu != cpu) {
			/* an elision or another CPU: the open calls end out of sight */
			gstack_unwind(&st, -1, r);
			cpu = e->cpu;
		}
		if (!e->graph) {
			struct lat_fn_blame *b = fn_get(&ft, r, &cap, lat_fn_entry_label(e));

			if (!b) {
				ret = -LAT_ENOMEM;
				goto out;
			}
			b->calls++;
			continue;
		}
		if ((ret = graph_row(&ft, r, &cap, &st, e)) < 0)
			goto out;
	}
	gstack_unwind(&st, -1, r);
	ret = blame_finish(r);
out:
	free(ft.slot);
	return ret;
}

/* ---- coverage ---- */

static void coverage(const struct lat_fntrace *t, struct lat_fntrace_result *r)
{
	int32_t last_index = -1;

	r->entries_present = t->n;
	if (t->n) {
		r->span_ns = r->t_ns[t->n - 1] - r->t_ns[0];
		r->covered_ns = r->span_ns;
	}
	for (size_t i = 0; i < t->n; i++) {
		const struct lat_fn_entry *e = &t->e[i];

		if (i && e->gap_before) {
			int64_t g = r->t_ns[i] - r->t_ns[i - 1];

			if (g > 0) {
				r->covered_ns -= g;
				r->unattributed_ns += g;
			}
		}
		if (e->index >= 0) {
			if (last_index >= 0 && e->index > last_index + 1)
				r->missing_indexes += (size_t)(e->index - last_index - 1);
			last_index = e->index;
		}
	}
	r->truncated = t->entries_shown >= 0 && (int64_t)t->n < t->entries_shown;
	r->covered_pct = t->latency_ns > 0 ?
		(double)r->covered_ns * 100.0 / (double)t->latency_ns : -1;
	r->window_ns = r->covered_ns > 0 ? r->covered_ns : t->latency_ns;
}

/* ---- irqs/preempt off ---- */

static int is_off(const struct lat_fn_entry *e, enum lat_fn_off_what w)
{
	int irqs = (e->flags & LAT_FNF_IRQS_OFF) != 0, pre = e->preempt_count > 0;

	return w == LAT_FN_OFF_IRQS ? irqs : w == LAT_FN_OFF_PREEMPT ? pre : irqs || pre;
}

static void off_stretches(const struct lat_fntrace *t, struct lat_fntrace_result *r)
{
	for (int w = 0; w < LAT_FN_OFF_N; w++) {
		struct lat_fn_stretch *best = &r->off[w];
		size_t start = 0, prev = 0;
		int in = 0;

		for (size_t i = 0; i <= t->n; i++) {
			const struct lat_fn_entry *e = i < t->n ? &t->e[i] : NULL;
			int off, cut;

			if (e && (!e->flags_known || e->kind == LAT_FN_STACK))
				continue;
			/* an elision ends a stretch at the entry before it: the cut is unknown */
			cut = in && e && e->gap_before;
			off = e && is_off(e, (enum lat_fn_off_what)w) && !cut;
			if (!in && off) {
				in = 1;
				start = i;
			} else if (in && (!off || !e)) {
				size_t last = e && !cut ? i : prev;
				int64_t dur = r->t_ns[last] - r->t_ns[start];

				if (!best->found || dur > best->duration_ns) {
					best->found = 1;
					best->first = start;
					best->end = e && !cut ? i : prev + 1;
					best->start_ns = r->t_ns[start];
					best->end_ns = r->t_ns[last];
					best->duration_ns = dur;
					best->open = !e || cut;
				}
				in = 0;
				if (e && is_off(e, (enum lat_fn_off_what)w)) {
					in = 1;	/* a new stretch begins after an elision */
					start = i;
				}
			}
			prev = i;
		}
	}
}

/* ---- wakeup ---- */

static int is_wakeup(const struct lat_fn_entry *e)
{
	if (e->kind == LAT_FN_SCHED)
		return e->text && strstr(e->text, " + [") != NULL;
	if (e->kind == LAT_FN_EVENT)
		return e->function && (!strcmp(e->function, "sched_waking") ||
				       !strcmp(e->function, "sched_wakeup"));
	if (!e->function)
		return 0;
	return !strcmp(e->function, "try_to_wake_up") ||
	       !strcmp(e->function, "__trace_start_sched_wakeup") ||
	       !strcmp(e->function, "trace_start_sched_wakeup") ||
	       !strncmp(e->function, "ttwu_", 5);
}

static void wakeup(const struct lat_fntrace *t, struct lat_fntrace_result *r)
{
	for (size_t i = 0; i < t->n; i++) {
		if (!is_wakeup(&t->e[i]))
			continue;
		r->has_wakeup = 1;
		r->wake_entry = i;
		r->wake_ns = r->t_ns[i];
		r->wake_to_last_ns = r->t_ns[t->n - 1] - r->t_ns[i];
		r->wake_to_end_ns = t->latency_ns >= r->t_ns[i] ? t->latency_ns - r->t_ns[i] :
			r->wake_to_last_ns;
		return;
	}
}

/* ---- repeated call sequences ---- */

static int same(const struct lat_fntrace *t, size_t a, size_t b)
{
	if (t->e[b].gap_before)
		return 0;
	return !strcmp(lat_fn_entry_label(&t->e[a]), lat_fn_entry_label(&t->e[b]));
}

static int cmp_rep(const void *a, const void *b)
{
	const struct lat_fn_repeat *x = a, *y = b;
	size_t nx = x->period * x->count, ny = y->period * y->count;

	if (nx != ny)
		return nx < ny ? 1 : -1;
	return x->first < y->first ? -1 : x->first > y->first;
}

static int repeats(const struct lat_fntrace *t, struct lat_fntrace_result *r)
{
	size_t cap = 0, i = 0;

	while (i < t->n) {
		size_t best_p = 0, best_c = 0;

		for (size_t p = 1; p <= MAX_PERIOD && i + 2 * p <= t->n; p++) {
			size_t c = 1;

			for (;;) {
				size_t s = i + c * p, k;

				if (s + p > t->n)
					break;
				for (k = 0; k < p; k++)
					if (!same(t, i + k, s + k))
						break;
				if (k < p)
					break;
				c++;
			}
			if (c >= 2 && p * c >= 4 && p * c > best_p * best_c) {
				best_p = p;
				best_c = c;
			}
		}
		if (!best_p) {
			i++;
			continue;
		}
		if (lat_grow(&r->rep, &cap, r->nrep + 1, sizeof(*r->rep)))
			return -LAT_ENOMEM;
		{
			struct lat_fn_repeat *rp = &r->rep[r->nrep++];
			size_t after = i + best_p * best_c;

			rp->first = i;
			rp->period = best_p;
			rp->count = best_c;
			rp->caller = t->e[i].parent;
			rp->time_ns = r->t_ns[after < t->n ? after : t->n - 1] - r->t_ns[i];
		}
		i += best_p * best_c;
	}
	if (r->nrep > 1)
		lat_sort(r->rep, r->nrep, sizeof(*r->rep), cmp_rep);
	return 0;
}

/* ---- cross-checks ---- */

/* Lower/upper bounds (us) a delay marker promises, loosest over tracer versions. */
static void mark_bounds(char m, double *lo, double *hi)
{
	*lo = 0;
	*hi = INFINITY;
	switch (m) {
	case ' ': *hi = 10; break;	/* ' ' is <= 1 us (-RT, 2.6-3.x) or <= 10 us (4.x+) */
	case '+': *lo = 1; *hi = 100; break;
	case '!': *lo = 100; break;
	case '#': *lo = 1000; break;
	case '*': *lo = 10000; break;
	case '@': *lo = 100000; break;
	case '$': *lo = 1000000; break;
	default: break;
	}
}

/*
 * Compares every printed (+delay) with the time between entry i and its
 * neighbour: the next entry (@since_prev 0) or the previous one (1).
 * Returns the disagreements; *checked and *first (first disagreeing entry).
 */
static size_t delay_check(const struct lat_fntrace *t, const struct lat_fntrace_result *r,
			  int since_prev, size_t *checked, size_t *first)
{
	size_t bad = 0;

	*checked = 0;
	*first = SIZE_MAX;
	for (size_t i = 0; i < t->n; i++) {
		const struct lat_fn_entry *e = &t->e[i];
		size_t a = since_prev ? i - 1 : i, b = since_prev ? i : i + 1;
		int64_t dt, slack;

		if (e->delay_ns < 0 || (since_prev && !i) || b >= t->n || t->e[b].gap_before)
			continue;
		dt = r->t_ns[b] - r->t_ns[a];
		/* the column is truncated to the microsecond; the TSC is finer */
		slack = LAT_NS_PER_US + (r->t_ns[b] == t->e[b].time_ns ? LAT_NS_PER_US : 0);
		(*checked)++;
		if (llabs(e->delay_ns - dt) > slack) {
			bad++;
			if (*first == SIZE_MAX)
				*first = i;
		}
	}
	return bad;
}

static void delay_finding(struct lat_block *b, const struct lat_fntrace *t,
			  const struct lat_fntrace_result *r, size_t first)
{
	size_t o = r->delay_since_prev ? first - 1 : first + 1;
	const struct lat_fn_entry *e = &t->e[first], *nx = &t->e[o];
	char d1[32], d2[32], idx[32] = "", nidx[32] = "";

	if (e->index >= 0)
		snprintf(idx, sizeof(idx), "entry #%d ", e->index);
	if (nx->index >= 0)
		snprintf(nidx, sizeof(nidx), "#%d, ", nx->index);
	lat_block_add_finding(b, "delay-mismatch", LAT_SEV_WARN,
			      "%zu of %zu printed delays disagree with the %s entry's time; "
			      "first at line %u: %ssays +%s, the %s entry present "
			      "(%sline %u) is %s %s%s",
			      r->delay_mismatch, r->delay_checked,
			      r->delay_since_prev ? "previous" : "next", e->line, idx,
			      lat_fmt_duration(e->delay_ns, d1, sizeof(d1)),
			      r->delay_since_prev ? "previous" : "next", nidx, nx->line,
			      lat_fmt_duration(llabs(r->t_ns[o] - r->t_ns[first]), d2, sizeof(d2)),
			      r->delay_since_prev ? "earlier" : "later",
			      !r->delay_since_prev && e->index >= 0 && nx->index > e->index + 1 ?
			      " (the entries between them are missing from the dump, and the "
			      "delay was measured to them)" : "");
}

/*
 * What the marker of entry @i measures: the time to the next entry of the
 * buffer, or on a display-graph row the call's duration.  -1: nothing to check.
 */
static int64_t mark_span(const struct lat_fntrace *t, const struct lat_fntrace_result *r,
			 size_t i)
{
	const struct lat_fn_entry *e = &t->e[i];

	if (!e->mark)
		return -1;
	if (e->graph)
		return e->dur_ns;
	/* the tracer measured to the next entry of its buffer */
	if (i + 1 >= t->n || t->e[i + 1].gap_before ||
	    (e->index >= 0 && t->e[i + 1].index != e->index + 1))
		return -1;
	return r->t_ns[i + 1] - r->t_ns[i];
}

static void cross_checks(struct lat_block *b, const struct lat_fntrace *t,
			 struct lat_fntrace_result *r)
{
	size_t first_delay, first_mark = SIZE_MAX, checked_prev, first_prev, bad_prev;
	int64_t first_span = 0;
	char d1[32];

	r->delay_mismatch = delay_check(t, r, 0, &r->delay_checked, &first_delay);
	/* the early -RT tracers printed the delay since the previous entry: take the reading
	 * that agrees with the times better */
	bad_prev = delay_check(t, r, 1, &checked_prev, &first_prev);
	if (checked_prev && bad_prev < r->delay_mismatch) {
		r->delay_since_prev = 1;
		r->delay_mismatch = bad_prev;
		r->delay_checked = checked_prev;
		first_delay = first_prev;
	}
	for (size_t i = 0; i < t->n; i++) {
		const struct lat_fn_entry *e = &t->e[i];
		int64_t dt = mark_span(t, r, i);
		double lo, hi, us = (double)dt / LAT_NS_PER_US;

		if (dt < 0)
			continue;
		mark_bounds(e->mark, &lo, &hi);
		r->mark_checked++;
		/* printed times are whole microseconds: allow one either way */
		if (us + 1 <= lo || us - 1 > hi) {
			r->mark_mismatch++;
			if (first_mark == SIZE_MAX) {
				first_mark = i;
				first_span = dt;
			}
		}
	}
	if (r->delay_mismatch)
		delay_finding(b, t, r, first_delay);
	if (r->mark_mismatch) {
		const struct lat_fn_entry *e = &t->e[first_mark];

		lat_block_add_finding(b, "marker-mismatch", LAT_SEV_WARN,
				      "%zu of %zu delay markers disagree with the time to the next "
				      "entry (the call's duration on display-graph rows); first at "
				      "line %u: '%c' but %s",
				      r->mark_mismatch, r->mark_checked, e->line, e->mark,
				      lat_fmt_duration(first_span, d1, sizeof(d1)));
	}
}

/*
 * "<756f6a6b>" printed for a function: an address with no symbol.  When the
 * bytes (little endian, as i386 stored them) spell text, the entry is a task
 * name read as a function call (seed 002's #0 spells "kjou" "rnal").
 */
static int addr_text(const char *s, char *out)
{
	unsigned long v;
	char *end;

	if (!s || s[0] != '<' || strlen(s) != 10)
		return 0;
	v = strtoul(s + 1, &end, 16);
	if (*end != '>')
		return 0;
	for (int i = 0; i < 4; i++) {
		unsigned char c = (unsigned char)(v >> (8 * i));

		if (c && (c < 0x20 || c > 0x7e))
			return 0;
		out[i] = c ? (char)c : '.';
	}
	out[4] = '\0';
	return 1;
}

static void garbled(struct lat_block *b, const struct lat_fntrace *t)
{
	for (size_t i = 0; i < t->n; i++) {
		char f[5], p[5];

		if (!addr_text(t->e[i].function, f) || !addr_text(t->e[i].parent, p))
			continue;
		lat_block_add_finding(b, "garbled-entry", LAT_SEV_INFO,
				      "line %u: function %s and parent %s are no kernel addresses "
				      "but read as text \"%s%s\": probably a task name (the tracer's "
				      "cmdline record) printed as a call",
				      t->e[i].line, t->e[i].function, t->e[i].parent, f, p);
	}
}

/* Appends "; what (where)" to @buf. */
static void gap_add(char *buf, size_t len, const char *what, const char *where, uint32_t line)
{
	size_t n = strlen(buf);

	if (n >= len - 1)
		return;
	if (line)
		snprintf(buf + n, len - n, "%s%s (line %u: %s)", n ? "; " : "", what, line, where);
	else
		snprintf(buf + n, len - n, "%s%s (%s)", n ? "; " : "", what, where);
}

/*
 * The header facts the dump did not give: the latency, the entry counts, the
 * CPU and the task, each with the line that should have said it.
 */
static void header_gaps(struct lat_block *b, const struct lat_fntrace *t)
{
	char buf[640] = "";
	uint32_t ll = t->latency_line;

	if (!t->header_line && !ll && !t->task_line) {
		lat_block_add_finding(b, "header-missing", LAT_SEV_WARN,
				      "entries without a tracer header (from line %u): the latency, "
				      "entry counts, CPU and task are unknown",
				      t->n ? t->e[0].line : 0);
		return;
	}
	if (t->latency_ns < 0)
		gap_add(buf, sizeof(buf), "latency", ll ? "no number after \"latency:\"" :
			"no \"latency:\" line", ll);
	if (t->entries_shown < 0)
		gap_add(buf, sizeof(buf), "entries announced", ll ?
			"neither \"#A/B\" nor \"entries: A (B)\"" : "no \"latency:\" line", ll);
	if (t->cpu < 0)
		gap_add(buf, sizeof(buf), "CPU", ll ? "no \"CPU#n\" on it" : "no \"latency:\" line", ll);
	if (!t->task_comm || t->task_pid < 0)
		gap_add(buf, sizeof(buf), "task", t->task_line ? "no \"comm-pid\" or "
			"\"comm/pid\"" : "no \"| task:\" line", t->task_line);
	if (buf[0])
		lat_block_add_finding(b, "header-unknown", LAT_SEV_INFO,
				      "header facts unknown: %s", buf);
}

static void findings(struct lat_block *b, const struct lat_fntrace *t,
		     const struct lat_fntrace_result *r)
{
	char d1[32], d2[32];

	garbled(b, t);
	header_gaps(b, t);

	if (!t->n && t->entries_shown >= 0)
		lat_block_add_finding(b, "entries-absent", LAT_SEV_WARN,
				      "header only: none of the %lld announced entries is in the "
				      "input; only the header facts are read",
				      (long long)t->entries_shown);
	else if (!t->n)
		lat_block_add_finding(b, "entries-absent", LAT_SEV_WARN,
				      "header only: no entry is in the input; only the header facts "
				      "are read");
	else if (r->truncated)
		lat_block_add_finding(b, "truncated-dump", LAT_SEV_WARN,
				      "%zu of %lld announced entries present; they cover %s of the "
				      "%s latency (%.1f%%)",
				      t->n, (long long)t->entries_shown,
				      lat_fmt_duration(r->covered_ns, d1, sizeof(d1)),
				      lat_fmt_duration(t->latency_ns, d2, sizeof(d2)),
				      r->covered_pct < 0 ? 0 : r->covered_pct);
	if (t->entries_total > t->entries_shown && t->entries_shown >= 0)
		lat_block_add_finding(b, "buffer-overflow", LAT_SEV_INFO,
				      "the tracer logged %lld entries in the window but kept %lld: "
				      "the rest of the latency was not recorded",
				      (long long)t->entries_total, (long long)t->entries_shown);
	if (t->elisions)
		lat_block_add_finding(b, "elided", LAT_SEV_INFO,
				      "%zu place%s where the poster cut entries (\"etc\", \"[...]\"); "
				      "%s not attributed",
				      t->elisions, t->elisions == 1 ? "" : "s",
				      lat_fmt_duration(r->unattributed_ns, d1, sizeof(d1)));
	if (t->unknown_types)
		lat_block_add_finding(b, "unknown-entry-types", LAT_SEV_WARN,
				      "%zu entries of an unknown type (Tn) skipped", t->unknown_types);
	if (r->missing_indexes)
		lat_block_add_finding(b, "missing-entries", LAT_SEV_INFO,
				      "%zu entry index%s skipped between entries present",
				      r->missing_indexes, r->missing_indexes == 1 ? "" : "es");
	if (r->graph_unclosed || r->graph_unmatched)
		lat_block_add_finding(b, "graph-incomplete", LAT_SEV_INFO,
				      "%zu call%s opened (\"f() {\") without their \"}\" in the dump "
				      "and %zu \"}\" without their call: no duration for those, their "
				      "time is in no function's self time",
				      r->graph_unclosed, r->graph_unclosed == 1 ? "" : "s",
				      r->graph_unmatched);
	if (t->joined_lines)
		lat_block_add_finding(b, "wrapped-lines", LAT_SEV_INFO,
				      "%zu entr%s wrapped over two lines and joined", t->joined_lines,
				      t->joined_lines == 1 ? "y was" : "ies were");
	if (t->split_lines)
		lat_block_add_finding(b, "joined-rows", LAT_SEV_INFO,
				      "%zu line%s held several entries a mailer joined; each was read "
				      "(with that line's number)", t->split_lines,
				      t->split_lines == 1 ? "" : "s");
	if (r->nfn && r->fn[0].self_ns > 0)
		lat_block_add_finding(b, "top-function", LAT_SEV_INFO,
				      "%s: %s self time in %llu call%s (%.1f%% of the window)",
				      r->fn[0].function,
				      lat_fmt_duration(r->fn[0].self_ns, d1, sizeof(d1)),
				      (unsigned long long)r->fn[0].calls, r->fn[0].calls == 1 ? "" : "s",
				      r->fn[0].share_pct);
}

int an_fntrace(struct lat_block *b, const struct lat_analyze_opts *o)
{
	const struct lat_fntrace *t = b->fntrace;
	struct lat_fntrace_result *r;
	int ret;

	if (!t)
		return -LAT_EEMPTY;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -LAT_ENOMEM;
	b->analysis = r;
	r->top_n = o->top_n > 0 ? o->top_n : 20;
	r->covered_pct = -1;
	r->t_ns = calloc(t->n ? t->n : 1, sizeof(*r->t_ns));
	r->self_ns = calloc(t->n ? t->n : 1, sizeof(*r->self_ns));
	if (!r->t_ns || !r->self_ns)
		return -LAT_ENOMEM;
	compute_times(b, t, o, r);
	coverage(t, r);
	if ((ret = t->graph ? blame_graph(t, r) : blame(t, r)) < 0)
		return ret;
	off_stretches(t, r);
	wakeup(t, r);
	if ((ret = repeats(t, r)) < 0)
		return ret;
	cross_checks(b, t, r);
	findings(b, t, r);
	return 0;
}
