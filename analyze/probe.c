// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe samples (docs/probe.md).  The wakeup analysis hands every marker here
 * from its own event switch (pr_probe_marker()); nothing else of the stream
 * is seen here.  A sample worth explaining asks the wakeup analysis for its
 * points (struct pr_view: the switch in, the waking, the irq entry and
 * the hrtimer expiry before it, the run-queue holder), which it keeps anyway
 * or at the cost of a few stores per waking.  Every probe marker's latency is
 * kept, for exact percentiles of the tail.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "latscope/an_probe.h"
#include "latscope/an_wakeup.h"
#include "latscope/analyze.h"
#include "analyze_priv.h"
#include "probe_gap.h"

#define PR_MAX_CPUS 4096
#define PR_EARLY_NS (100 * LAT_NS_PER_US)
#define PR_MAX_VALUES (4u << 20)	/* marker latencies kept in all */

/* One probe on one CPU: its markers' latencies and its worst samples. */
struct pr_vals {
	enum lat_probe_kind kind;
	int32_t cpu;
	int64_t *v;
	size_t n, cap;
	struct lat_probe_sample *worst;	/* worst_cap, by lat descending */
	size_t nworst;
	uint64_t over;			/* markers above --fail-above */
	int32_t prio;			/* its thread's at a marker, LAT_PRIO_UNKNOWN */
	uint8_t left_out;		/* by --policy / --min-prio (pr_probe_finish()) */
};

struct pr_probe {
	pr_view_fn view;		/* the points of a marker, from the wakeup analysis' state */
	void *view_ctx;
	struct pr_vals *vals;
	size_t nvals, nkept;
	size_t worst_cap;		/* --worst: of each probe */
	struct lat_probe_sample stop;
	uint8_t has_stop, oom;
	int64_t limit_ns;		/* --fail-above, 0 none */
	enum lat_sched_policy sel_pol;	/* --policy, LAT_POL_UNKNOWN none */
	int min_prio;			/* --min-prio, 0 none */
	struct pr_gap gap;		/* the gap model's buffers */
	struct lat_probe_result r;
};

const char *lat_probe_kind_name(enum lat_probe_kind k)
{
	static const char *const n[] = { "timer", "gap", "cyclictest" };

	return (unsigned)k < LAT_ARRAY_SIZE(n) ? n[k] : "?";
}

const char *lat_probe_src_name(enum lat_probe_src s)
{
	static const char *const n[] = { "unknown", "markers", "summary", "summary-bucket" };

	return (unsigned)s < LAT_ARRAY_SIZE(n) ? n[s] : "?";
}

const char *lat_probe_res_name(enum lat_probe_res r)
{
	static const char *const n[] = { "none", "log2", "log2+1us", "1us" };

	return (unsigned)r < LAT_ARRAY_SIZE(n) ? n[r] : "?";
}

const char *lat_probe_seg_name(enum lat_probe_seg s)
{
	static const char *const n[] = { "irq", "handler", "expiry-to-waking", "runqueue",
					 "probe-path" };

	return (unsigned)s < LAT_ARRAY_SIZE(n) ? n[s] : "?";
}

/* "key=NUMBER" in @s, or -1. */
static int64_t field(const char *s, const char *key)
{
	const char *p = s;
	size_t kl = strlen(key);

	while ((p = strstr(p, key))) {
		if ((p == s || p[-1] == ' ') && p[kl] == '=' && isdigit((unsigned char)p[kl + 1]))
			return strtoll(p + kl + 1, NULL, 10);
		p += kl;
	}
	return -1;
}

/* Reads a probe marker into @out.  1: a sample, 0: not a probe marker, -1: a probe tag unread. */
static int parse_marker(const struct lat_event *ev, struct lat_probe_sample *out)
{
	char buf[160];
	size_t len = ev->u.marker.text ? ev->u.marker.len : 0;
	const char *p;

	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, ev->u.marker.text ? ev->u.marker.text : "", len);
	buf[len] = 0;
	memset(out, 0, sizeof(*out));
	out->part_dominant = -1;
	out->verdict = -1;
	out->cpu = ev->cpu;
	out->pid = ev->pid;
	if ((p = strstr(buf, "latscope: probe="))) {
		int64_t lat = field(p, "lat_ns"), cpu = field(p, "cpu");

		p += 16;
		if (!strncmp(p, "timer ", 6))
			out->kind = LAT_PROBE_TIMER;
		else if (!strncmp(p, "gap ", 4))
			out->kind = LAT_PROBE_GAP;
		else
			return -1;
		if (lat < 0)
			return -1;
		out->lat_ns = lat;
		if (cpu >= 0 && cpu < PR_MAX_CPUS)
			out->cpu = (int32_t)cpu;
		out->seq = (uint64_t)(field(p, "seq") > 0 ? field(p, "seq") : 0);
		out->stop = field(p, "stop") == 1;
		return 1;
	}
	/* rt-tests cyclictest: tracemark("hit latency threshold (%llu > %d)", diff, tracelimit), us */
	if ((p = strstr(buf, "hit latency threshold ("))) {
		p += 23;
		if (!isdigit((unsigned char)*p))
			return -1;
		out->kind = LAT_PROBE_CYCLICTEST;
		out->lat_ns = strtoll(p, NULL, 10) * LAT_NS_PER_US;
		out->stop = 1;
		return 1;
	}
	return 0;
}

/* The time of [@from, @to] on CPU @cpu inside the stalls the wakeup analysis found. */
static int64_t stall_time(const struct pr_view *v, int32_t cpu, uint64_t from, uint64_t to)
{
	return v->stall_ns ? v->stall_ns(v->spans_src, cpu, from, to) : 0;
}

/* The points of sample @s whose marker is @ev, from the wakeup analysis' state (@v). */
static void decompose(const struct pr_view *v, const struct lat_event *ev,
		      struct lat_probe_sample *s)
{
	uint64_t *pt = s->pt;
	int64_t known = 0;

	pt[LAT_PPT_MARKER] = ev->ts_ns;
	pt[LAT_PPT_EXPECTED] = ev->ts_ns > (uint64_t)s->lat_ns ? ev->ts_ns - (uint64_t)s->lat_ns : 0;
	if (v->switch_ts && v->switch_ts <= ev->ts_ns)
		pt[LAT_PPT_SWITCH] = v->switch_ts;

	if (pt[LAT_PPT_SWITCH] && v->waking_ts && v->waking_ts <= pt[LAT_PPT_SWITCH]) {
		/* the expiry and irq that woke it: the last ones before the waking */
		pt[LAT_PPT_WAKING] = v->waking_ts;
		if (v->expire_ts && v->expire_ts <= v->waking_ts)
			pt[LAT_PPT_EXPIRE] = v->expire_ts;
		if (v->irq_ts && v->irq_ts <= (pt[LAT_PPT_EXPIRE] ? pt[LAT_PPT_EXPIRE] : v->waking_ts)) {
			pt[LAT_PPT_IRQ] = v->irq_ts;
			memcpy(s->irq_name, v->irq_name, sizeof(s->irq_name));
		}
	}
	/*
	 * A switch in or a waking more than PR_EARLY_NS before the expected time is
	 * an earlier period's: the switch in of this one was not recorded, or the
	 * thread was still runnable from an earlier waking (preempted since).  Not
	 * used: what lies between expected and the next point left is one segment.
	 */
	if (pt[LAT_PPT_SWITCH] && pt[LAT_PPT_SWITCH] + PR_EARLY_NS < pt[LAT_PPT_EXPECTED])
		pt[LAT_PPT_SWITCH] = 0;
	if (!pt[LAT_PPT_SWITCH] ||
	    (pt[LAT_PPT_WAKING] && pt[LAT_PPT_WAKING] + PR_EARLY_NS < pt[LAT_PPT_EXPECTED])) {
		pt[LAT_PPT_WAKING] = 0;
		pt[LAT_PPT_EXPIRE] = 0;
		pt[LAT_PPT_IRQ] = 0;
		s->irq_name[0] = 0;
	}
	/*
	 * The expected time is the marker's minus the latency, so it is late by the
	 * probe's clock read to marker write: an irq or expiry a little before it
	 * is this period's (the expected point moves back to it); one more than
	 * PR_EARLY_NS before it is an earlier period's.
	 */
	for (int i = LAT_PPT_IRQ; i <= LAT_PPT_EXPIRE; i++) {
		if (pt[i] && pt[i] + PR_EARLY_NS < pt[LAT_PPT_EXPECTED])
			pt[i] = 0;
		if (pt[i] && pt[i] < pt[LAT_PPT_EXPECTED]) {
			s->expected_moved_ns += (int64_t)(pt[LAT_PPT_EXPECTED] - pt[i]);
			pt[LAT_PPT_EXPECTED] = pt[i];
		}
	}
	/*
	 * Segment i runs from point i to the next recorded point: when point i+1 is
	 * missing, segment i covers the next ones too (seg_to) and those are unknown.
	 */
	s->dominant = -1;
	for (int i = 0; i < LAT_PSEG_N; i++) {
		s->seg_ns[i] = -1;
		s->seg_to[i] = -1;
	}
	for (int i = 0; i < LAT_PSEG_N; i++) {
		int k = i + 1;

		if (!pt[i])
			continue;
		while (k < LAT_PPT_MARKER && !pt[k])
			k++;
		if (pt[k] < pt[i])
			continue;	/* out of order: left unknown */
		s->seg_ns[i] = (int64_t)(pt[k] - pt[i]);
		s->seg_to[i] = k;
		known += s->seg_ns[i];
		if (s->dominant < 0 || s->seg_ns[i] > s->seg_ns[s->dominant])
			s->dominant = i;
	}
	s->unknown_ns = s->lat_ns + s->expected_moved_ns - known;
	s->stall_ns = stall_time(v, ev->cpu, pt[LAT_PPT_EXPECTED], pt[LAT_PPT_MARKER]);
	s->holder_pid = -1;
	if (pt[LAT_PPT_WAKING] && pt[LAT_PPT_SWITCH] && v->holder_ns > 0) {
		/* no run time inside a stall: the holder ran at most the rest */
		int64_t most = (int64_t)(pt[LAT_PPT_SWITCH] - pt[LAT_PPT_WAKING]) -
			       stall_time(v, ev->cpu, pt[LAT_PPT_WAKING], pt[LAT_PPT_SWITCH]);

		s->holder_pid = v->holder_pid;
		s->holder_ns = v->holder_ns < most ? v->holder_ns : most;
		memcpy(s->holder_comm, v->holder_comm, LAT_COMM_LEN);
	}
	/* the wait it measured: the one that ended at this switch in */
	if (pt[LAT_PPT_SWITCH] && pt[LAT_PPT_SWITCH] == v->switch_ts && v->verdict >= 0) {
		s->verdict = v->verdict;
		s->verdict_part_ns = v->verdict_part_ns;
	}
}

static struct pr_vals *vals_find(const struct pr_probe *st, enum lat_probe_kind k, int32_t cpu)
{
	for (size_t i = 0; i < st->nvals; i++)
		if (st->vals[i].kind == k && st->vals[i].cpu == cpu)
			return &st->vals[i];
	return NULL;
}

static struct pr_vals *vals_of(struct pr_probe *st, enum lat_probe_kind k, int32_t cpu)
{
	struct pr_vals *v = vals_find(st, k, cpu);

	if (v)
		return v;
	if (st->nvals % 8 == 0) {
		struct pr_vals *n = realloc(st->vals, (st->nvals + 8) * sizeof(*n));

		if (!n) {
			st->oom = 1;
			return NULL;
		}
		st->vals = n;
	}
	memset(&st->vals[st->nvals], 0, sizeof(*st->vals));
	st->vals[st->nvals].kind = k;
	st->vals[st->nvals].cpu = cpu;
	st->vals[st->nvals].prio = LAT_PRIO_UNKNOWN;
	if (st->worst_cap &&
	    !(st->vals[st->nvals].worst = calloc(st->worst_cap, sizeof(*st->vals->worst)))) {
		st->oom = 1;
		return NULL;
	}
	return &st->vals[st->nvals++];
}

/* Whether a sample of @lat_ns would be among @v's worst (ties: the earlier stays). */
static int is_worse(const struct pr_probe *st, const struct pr_vals *v, int64_t lat_ns)
{
	return st->worst_cap && (v->nworst < st->worst_cap || lat_ns > v->worst[v->nworst - 1].lat_ns);
}

static void keep_worst(struct pr_probe *st, struct pr_vals *v, const struct lat_probe_sample *s)
{
	size_t i;

	if (!is_worse(st, v, s->lat_ns))
		return;
	if (v->nworst < st->worst_cap)
		v->nworst++;
	for (i = v->nworst - 1; i > 0 && v->worst[i - 1].lat_ns < s->lat_ns; i--)
		v->worst[i] = v->worst[i - 1];
	v->worst[i] = *s;
}

void pr_probe_marker(struct pr_probe *st, const struct lat_event *ev)
{
	struct pr_view view;
	struct lat_probe_sample s;
	struct pr_vals *v;
	int ret = parse_marker(ev, &s), worse;

	if (ret < 0)
		st->r.bad_markers++;
	if (ret <= 0)
		return;
	st->r.markers++;
	if (!(v = vals_of(st, s.kind, s.cpu)))
		return;
	if (st->limit_ns > 0 && s.lat_ns > st->limit_ns)
		v->over++;
	if (st->nkept < PR_MAX_VALUES) {
		if (lat_grow(&v->v, &v->cap, v->n + 1, sizeof(*v->v))) {
			st->oom = 1;
			return;
		}
		v->v[v->n++] = s.lat_ns;
		st->nkept++;
	}
	if (s.stop && st->has_stop)
		s.stop = 0;	/* the first stopping sample is the one that stopped it */
	worse = s.stop || is_worse(st, v, s.lat_ns);
	if (!worse && v->prio != LAT_PRIO_UNKNOWN)
		return;
	memset(&view, 0, sizeof(view));
	view.prio = LAT_PRIO_UNKNOWN;
	view.verdict = -1;
	if (st->view)
		st->view(st->view_ctx, ev, &view);
	if (v->prio == LAT_PRIO_UNKNOWN)
		v->prio = view.prio;	/* its thread's class, for --policy */
	if (!worse)
		return;
	if (s.kind != LAT_PROBE_GAP)
		decompose(&view, ev, &s);
	else if (pr_gap_decompose(&st->gap, &view, ev, &s))
		st->oom = 1;
	if (s.stop) {
		st->stop = s;
		st->has_stop = 1;
	} else {
		keep_worst(st, v, &s);
	}
}

void pr_probe_free(struct pr_probe *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->nvals; i++) {
		free(st->vals[i].v);
		free(st->vals[i].worst);
	}
	free(st->vals);
	pr_gap_free(&st->gap);
	free(st->r.cpus);
	free(st->r.worst);
	free(st);
}

struct pr_probe *pr_probe_new(const struct lat_analyze_opts *o, pr_view_fn view,
			       void *ctx)
{
	struct pr_probe *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	st->view = view;
	st->view_ctx = ctx;
	st->limit_ns = o->fail_above_ns;
	st->worst_cap = o->worst_n > 0 ? (size_t)o->worst_n : 0;
	/* a bad --policy is the wakeup analysis' finding; every probe is kept then */
	if (o->policy && lat_sched_policy_parse(o->policy, &st->sel_pol))
		st->sel_pol = LAT_POL_UNKNOWN;
	st->min_prio = o->min_prio > 0 && o->min_prio < 100 ? o->min_prio : 0;
	return st;
}

void pr_result_free(void *p)
{
	struct lat_probe_result *r = p;

	if (!r)
		return;
	for (size_t i = 0; i < r->ncpus; i++)
		lat_histogram_free(r->cpus[i].dist);
	free(r->cpus);
	free(r->left_out);
	free(r->worst);
	free(r);
}

/* ---- the recorder's summary ------------------------------------------------ */

static struct lat_probe_cpu *cpu_of(struct lat_probe_result *r, enum lat_probe_kind k,
				    int32_t cpu)
{
	struct lat_probe_cpu *n;

	for (size_t i = 0; i < r->ncpus; i++)
		if (r->cpus[i].kind == k && r->cpus[i].cpu == cpu)
			return &r->cpus[i];
	n = realloc(r->cpus, (r->ncpus + 1) * sizeof(*n));
	if (!n)
		return NULL;
	r->cpus = n;
	n = &r->cpus[r->ncpus++];
	memset(n, 0, sizeof(*n));
	n->kind = k;
	n->cpu = cpu;
	n->marker_above_ns = -1;
	n->min_ns = n->max_ns = n->p50_ns = n->p99_ns = n->p999_ns = -1;
	n->avg_ns = -1;
	return n;
}

/* One "latscope: probe=KIND cpu=N samples=..." line of the stored metadata. */
static int summary_line(struct lat_probe_result *r, const char *l, int64_t marker_ns)
{
	enum lat_probe_kind k;
	struct lat_probe_cpu *pc;
	const char *h;
	int64_t cpu = field(l, "cpu"), n = field(l, "samples");

	if (!strncmp(l, "probe=timer ", 12))
		k = LAT_PROBE_TIMER;
	else if (!strncmp(l, "probe=gap ", 10))
		k = LAT_PROBE_GAP;
	else
		return 0;
	if (cpu < 0 || cpu >= PR_MAX_CPUS || n < 0)
		return 0;
	pc = cpu_of(r, k, (int32_t)cpu);
	if (!pc)
		return -LAT_ENOMEM;
	pc->has_summary = 1;
	r->has_summary = 1;
	pc->count = (uint64_t)n;
	pc->count_src = LAT_PSRC_SUMMARY;
	if (n > 0) {
		pc->min_ns = field(l, "min_ns");
		pc->max_ns = field(l, "max_ns");
		pc->avg_ns = (double)field(l, "avg_ns");
		pc->min_src = pc->max_src = pc->avg_src = LAT_PSRC_SUMMARY;
	}
	pc->summary_markers = (uint64_t)(field(l, "markers") > 0 ? field(l, "markers") : 0);
	pc->marker_above_ns = k == LAT_PROBE_TIMER ? marker_ns : -1;
	h = strstr(l, "hist_log2_ns=");
	if (h) {
		h += 13;
		while (isdigit((unsigned char)*h)) {
			char *e;
			long b = strtol(h, &e, 10);
			unsigned long long c;

			if (*e != ':')
				break;
			c = strtoull(e + 1, &e, 10);
			if (b >= 0 && b < LAT_PROBE_HIST)
				pc->hist[b] += c;
			if (*e != ',')
				break;
			h = e + 1;
		}
		pc->hist_src = LAT_PSRC_SUMMARY;
	}
	return 0;
}

/*
 * The probe threads' classes the recorder's first line declares (docs/record.md,
 * "Probes"), as kernel prios into @prio (by kind): the timer probe's policy= and
 * prio=, the gap probe always SCHED_OTHER.  After the command line, which may hold
 * anything.
 */
static void declared_prios(const char *line, int32_t *prio)
{
	const char *rest = strstr(line, " events="), *t;
	int64_t p;

	if (!rest)
		return;
	if ((t = strstr(rest, " probe=timer "))) {
		p = field(t, "prio");
		if (strstr(t, " policy=other "))
			prio[LAT_PROBE_TIMER] = 120;
		else if (strstr(t, " policy=fifo ") && p >= 1 && p <= 99)
			prio[LAT_PROBE_TIMER] = 99 - (int32_t)p;
	}
	if (strstr(rest, " probe=gap "))
		prio[LAT_PROBE_GAP] = 120;
}

static int read_summary(struct lat_probe_result *r, const char *meta, int32_t *prio)
{
	int64_t marker_ns = -1;
	const char *l = meta;

	r->stop_above_ns = -1;
	while (l && *l) {
		const char *e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l) : strlen(l);
		char *line = strndup(l, len);
		int ret = 0;

		if (!line)
			return -LAT_ENOMEM;
		if (!strncmp(line, "latscope: version=", 18)) {
			marker_ns = field(line, "marker_ns");
			r->stop_above_ns = field(line, "stop_above_ns");
			declared_prios(line, prio);
		} else if (!strncmp(line, "latscope: probe=", 16)) {
			ret = summary_line(r, line + 10, marker_ns);
		}
		free(line);
		if (ret)
			return ret;
		l = e ? e + 1 : NULL;
	}
	return 0;
}

/* ---- statistics ------------------------------------------------------------ */

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static int log2_bucket(int64_t v)
{
	int k = 0;

	while (v > 1 && k < LAT_PROBE_HIST - 1) {
		v >>= 1;
		k++;
	}
	return k;
}

/*
 * The ends of log2 bucket @k, [2^k, 2^(k+1)) ns; 2^63 is past int64 and no ns value
 * is there (only a damaged summary names bucket 63): INT64_MAX.
 */
static int64_t log2_lo(int k)
{
	return !k ? 0 : k >= 63 ? INT64_MAX : (int64_t)1 << k;
}

static int64_t log2_hi(int k)
{
	return k >= 62 ? INT64_MAX : (int64_t)1 << (k + 1);
}

/*
 * Nearest-rank percentile @milli (thousandths of a percent) of the @pc->count samples, @i
 * its index (enum lat_probe_pct; its _ns and _src fields in @ns, @src).  The @m markers
 * (@sorted, ascending) are the @m largest samples when the trace holds every marker the
 * recorder wrote (or there is no summary: they are all it knows): exact when the rank
 * falls among them.  Else the summary's log2 bucket that holds the rank, cut to
 * [min, max]: a range, its upper bound in @ns (docs/probe.md).
 */
static void percentile(struct lat_probe_cpu *pc, const int64_t *sorted, size_t m,
		       uint32_t milli, int i, int64_t *ns, enum lat_probe_src *src)
{
	uint64_t n = pc->count, rank, below, cum = 0;

	*ns = pc->pct_lo_ns[i] = pc->pct_hi_ns[i] = -1;
	*src = LAT_PSRC_NONE;
	if (!n)
		return;
	rank = (n * milli + 99999) / 100000;
	if (!rank)
		rank = 1;
	if (m > n)
		m = (size_t)n;
	below = n - m;
	if (!pc->markers_missing && rank > below) {
		*ns = pc->pct_lo_ns[i] = pc->pct_hi_ns[i] = sorted[rank - below - 1];
		*src = LAT_PSRC_MARKERS;
		return;
	}
	if (pc->hist_src != LAT_PSRC_SUMMARY)
		return;
	if (rank == n && pc->max_src == LAT_PSRC_SUMMARY) {
		*ns = pc->pct_lo_ns[i] = pc->pct_hi_ns[i] = pc->max_ns;	/* the largest is known */
		*src = LAT_PSRC_SUMMARY;
		return;
	}
	for (int k = 0; k < LAT_PROBE_HIST; k++) {
		cum += pc->hist[k];
		if (cum >= rank) {
			int64_t lo = log2_lo(k), hi = log2_hi(k);

			*ns = pc->pct_hi_ns[i] = pc->max_ns >= 0 && pc->max_ns < hi ? pc->max_ns : hi;
			lo = pc->min_ns > lo ? pc->min_ns : lo;
			pc->pct_lo_ns[i] = lo < *ns ? lo : *ns;	/* a damaged summary */
			*src = LAT_PSRC_SUMMARY_BUCKET;
			return;
		}
	}
}

/* ---- the distribution as a histogram (docs/probe.md, "As a histogram") --------- */


/*
 * The summary's log2 buckets less the samples above --marker-above (@t): 0 when
 * they cannot be taken out (a bucket would go negative, or a sample left above
 * @t).  @first gets the index of the first sorted marker above @t.
 */
static int split_exact(const struct lat_probe_cpu *pc, const int64_t *s, size_t m, int64_t t,
		       uint64_t *rest, size_t *first)
{
	memcpy(rest, pc->hist, sizeof(pc->hist));
	*first = m;
	if (t < 0 || m != pc->summary_markers)
		return 0;	/* some markers are not in the trace: their values are unknown */
	for (size_t i = 0; i < m; i++) {
		int k = log2_bucket(s[i]);

		if (s[i] <= t)
			continue;	/* a stop=1 marker at or under the threshold */
		if (*first == m)
			*first = i;
		if (!rest[k])
			return 0;
		rest[k]--;
	}
	for (int k = 0; k < LAT_PROBE_HIST; k++)
		if (rest[k] && log2_lo(k) > t)
			return 0;
	return 1;
}

static void dist_add(struct lat_histogram *h, int64_t lo, int64_t hi, uint64_t count)
{
	struct lat_bucket *last = h->nbuckets ? &h->b[h->nbuckets - 1] : NULL;

	if (last && last->lo_ns == lo) {
		last->count += count;
	} else {
		h->b[h->nbuckets++] = (struct lat_bucket){ lo, hi, count };
	}
	h->total += count;
}

/*
 * Every sample of a timer probe with a summary as one histogram: the summary's log2
 * buckets, and when every marker the recorder wrote is in the trace the samples above
 * --marker-above taken out of them and put back exactly, in cyclictest's 1 us buckets
 * [floor(v / 1 us), +1 us) (the first one starting above the threshold); the log2
 * buckets then end at the threshold.  0 or -LAT_ENOMEM.
 */
static int build_dist(struct lat_probe_cpu *pc, const int64_t *s, size_t m)
{
	uint64_t rest[LAT_PROBE_HIST];
	int64_t t = pc->marker_above_ns;
	struct lat_histogram *h;
	size_t first;
	int exact, any_log2 = 0;

	pc->dist_exact_above_ns = -1;
	if (pc->kind != LAT_PROBE_TIMER || !pc->has_summary || pc->hist_src != LAT_PSRC_SUMMARY ||
	    !pc->count)
		return 0;
	exact = split_exact(pc, s, m, t, rest, &first);
	if (!exact)
		split_exact(pc, s, m, -1, rest, &first);
	h = calloc(1, sizeof(*h));
	if (!h)
		return -LAT_ENOMEM;
	pc->dist = h;
	h->printed_total = (uint64_t)-1;
	h->title = malloc(32);
	h->b = calloc(LAT_PROBE_HIST + (m - first), sizeof(*h->b));
	if (!h->title || !h->b)
		return -LAT_ENOMEM;
	snprintf(h->title, 32, "%s cpu%d", lat_probe_kind_name(pc->kind), (int)pc->cpu);
	for (int k = 0; k < LAT_PROBE_HIST; k++) {
		int64_t hi = log2_hi(k);

		if (!rest[k])
			continue;
		if (exact && hi > t + 1)
			hi = t + 1;
		dist_add(h, log2_lo(k), hi, rest[k]);
		any_log2 = 1;
	}
	for (size_t i = first; exact && i < m; i++) {
		int64_t lo = s[i] / LAT_NS_PER_US * LAT_NS_PER_US;

		dist_add(h, lo > t ? lo : t + 1, lo + LAT_NS_PER_US, 1);
	}
	pc->dist_res = !exact ? LAT_PRES_LOG2 : any_log2 ? LAT_PRES_MIXED : LAT_PRES_EXACT;
	if (exact)
		pc->dist_exact_above_ns = t;
	lat_hist_stats_of(h, &pc->dist_stats);
	return 0;
}

/*
 * How many samples of a CPU with a summary should have a marker, at least: every gap
 * probe sample; every timer sample in a log2 bucket wholly above --marker-above.  More
 * than the recorder wrote: some writes were refused (tracing already off: after the
 * flight recorder's spike, at the recording's end), and the markers are not the
 * largest samples.
 */
static uint64_t marks_due(const struct lat_probe_cpu *pc)
{
	uint64_t due = 0;

	if (pc->kind == LAT_PROBE_GAP)
		return pc->count;
	if (pc->kind != LAT_PROBE_TIMER || pc->marker_above_ns < 0)
		return pc->summary_markers;
	for (int k = 0; k < LAT_PROBE_HIST; k++)
		if (log2_lo(k) > pc->marker_above_ns)
			due += pc->hist[k];
	return due;
}

static int cpu_stats(struct lat_probe_cpu *pc, struct pr_vals *v)
{
	int64_t *s = v ? v->v : NULL;
	size_t m = v ? v->n : 0;
	double sum = 0;

	if (m)
		qsort(s, m, sizeof(*s), cmp_i64);
	pc->markers = m;
	if (!pc->has_summary) {
		pc->count = m;
		pc->count_src = LAT_PSRC_MARKERS;
		if (m) {
			for (size_t i = 0; i < m; i++) {
				sum += (double)s[i];
				pc->hist[log2_bucket(s[i])]++;
			}
			pc->min_ns = s[0];
			pc->max_ns = s[m - 1];
			pc->avg_ns = sum / (double)m;
			pc->min_src = pc->max_src = pc->avg_src = LAT_PSRC_MARKERS;
			pc->hist_src = LAT_PSRC_MARKERS;
		}
	}
	pc->markers_missing = pc->has_summary &&
			      (m != pc->summary_markers || marks_due(pc) > pc->summary_markers);
	percentile(pc, s, m, 50000, LAT_PPCT_P50, &pc->p50_ns, &pc->p50_src);
	percentile(pc, s, m, 99000, LAT_PPCT_P99, &pc->p99_ns, &pc->p99_src);
	percentile(pc, s, m, 99900, LAT_PPCT_P999, &pc->p999_ns, &pc->p999_src);
	return build_dist(pc, s, m);
}

static int cmp_cpu(const void *a, const void *b)
{
	const struct lat_probe_cpu *x = a, *y = b;

	if (x->kind != y->kind)
		return (int)x->kind - (int)y->kind;
	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

/* The CPUs whose markers are not the recorder's: their percentiles are ranges. */
static void missing_finding(struct lat_block *b, const struct lat_probe_result *r)
{
	char list[400] = "";
	size_t len = 0, n = 0;

	for (size_t i = 0; i < r->ncpus; i++) {
		const struct lat_probe_cpu *c = &r->cpus[i];

		if (!c->markers_missing)
			continue;
		if (n++ < 4 && len < sizeof(list))
			len += (size_t)snprintf(list + len, sizeof(list) - len,
						"%s%s cpu%d: %llu in the trace, %llu written, %s%llu "
						"samples to mark", len ? "; " : "",
						lat_probe_kind_name(c->kind), c->cpu,
						(unsigned long long)c->markers,
						(unsigned long long)c->summary_markers,
						c->kind == LAT_PROBE_GAP ? "" : "at least ",
						(unsigned long long)marks_due(c));
	}
	if (n)
		lat_block_add_finding(b, "probe-markers-missing", LAT_SEV_INFO,
				      "the probe markers are not every sample they should be (%s%s: "
				      "the flight recorder overwrote the oldest, or tracing stopped "
				      "before the last were written): percentiles there are ranges of "
				      "the recorder's log2 histogram, not exact", list,
				      n > 4 ? "; ..." : "");
}

static void add_findings(struct lat_block *b, const struct lat_probe_result *r,
			 const struct lat_probe_sample *stop)
{
	const struct lat_probe_sample *s = r->nworst ? &r->worst[0] : NULL;

	if (stop && !(s && s->stop))
		lat_block_add_finding(b, "probe-stop", LAT_SEV_INFO,
				      "the recording stopped on a %s probe sample of %lld us on CPU%d, "
				      "whose thread's class --policy / --min-prio left out",
				      lat_probe_kind_name(stop->kind),
				      (long long)(stop->lat_ns / 1000), stop->cpu);

	if (s && s->stop &&
	    !lat_block_add_finding(b, "probe-stop", LAT_SEV_HIGH,
				   "the recording stopped on a %s probe sample of %lld us on CPU%d "
				   "(%s segment %lld us): it is explained first, before the worst "
				   "wakeup of any task", lat_probe_kind_name(s->kind),
				   (long long)(s->lat_ns / 1000), s->cpu,
				   s->dominant >= 0 ? lat_probe_seg_name((enum lat_probe_seg)s->dominant) :
				   "no known",
				   (long long)(s->dominant >= 0 ? s->seg_ns[s->dominant] / 1000 : 0))) {
		/* the reason the recording exists goes before the wakeup analysis' findings */
		struct lat_finding f = b->findings[b->nfindings - 1];

		memmove(b->findings + 1, b->findings, (b->nfindings - 1) * sizeof(*b->findings));
		b->findings[0] = f;
	}
	if (r->nworst && (!r->has_expire || !(r->has_local_timer || r->has_irq)))
		lat_block_add_finding(b, "probe-segments-unknown", LAT_SEV_INFO,
				      "the trace has no %s%s%s: the probe samples' timer expiry and "
				      "irq segments are unknown (record with --timer-detail)",
				      r->has_expire ? "" : "timer:hrtimer_expire_entry",
				      !r->has_expire && !(r->has_local_timer || r->has_irq) ?
				      " nor " : "",
				      r->has_local_timer || r->has_irq ? "" :
				      "irq_vectors:local_timer_entry");
	missing_finding(b, r);
	if (r->bad_markers)
		lat_block_add_finding(b, "probe-bad-marker", LAT_SEV_WARN,
				      "%llu probe marker%s could not be read (no lat_ns=)",
				      (unsigned long long)r->bad_markers,
				      r->bad_markers == 1 ? "" : "s");
}

/* Worst first; of the same latency, the earlier marker. */
static int cmp_worst(const void *a, const void *b)
{
	const struct lat_probe_sample *x = a, *y = b;

	if (x->lat_ns != y->lat_ns)
		return x->lat_ns < y->lat_ns ? 1 : -1;
	return (x->pt[LAT_PPT_MARKER] > y->pt[LAT_PPT_MARKER]) -
	       (x->pt[LAT_PPT_MARKER] < y->pt[LAT_PPT_MARKER]);
}

/*
 * r->worst: the stopping sample first, then the worst --worst of each probe (the
 * CPUs' lists merged), worst first; gap samples finished (@irqs: the trace records
 * irq handlers).  0 or -LAT_ENOMEM.
 */
static int take_worst(struct pr_probe *st, struct lat_probe_result *r, int irqs)
{
	size_t n = 0, first, taken[LAT_PROBE_NKINDS] = { 0 };

	const struct pr_vals *sv = st->has_stop ? vals_find(st, st->stop.kind, st->stop.cpu) : NULL;

	for (size_t i = 0; i < st->nvals; i++)
		n += st->vals[i].nworst;
	if (!(r->worst = calloc(n + 1, sizeof(*r->worst))))
		return -LAT_ENOMEM;
	if (st->has_stop && !(sv && sv->left_out))
		r->worst[r->nworst++] = st->stop;
	first = r->nworst;
	for (size_t i = 0; i < st->nvals; i++)
		for (size_t k = 0; k < st->vals[i].nworst && !st->vals[i].left_out; k++)
			r->worst[r->nworst++] = st->vals[i].worst[k];
	qsort(r->worst + first, r->nworst - first, sizeof(*r->worst), cmp_worst);
	n = first;
	for (size_t i = first; i < r->nworst; i++) {
		unsigned k = (unsigned)r->worst[i].kind < LAT_PROBE_NKINDS ? r->worst[i].kind : 0;

		if (taken[k]++ < st->worst_cap)
			r->worst[n++] = r->worst[i];
	}
	r->nworst = n;
	for (size_t i = 0; i < r->nworst; i++)
		if (r->worst[i].kind == LAT_PROBE_GAP)
			pr_gap_finish(&r->worst[i], irqs);
	return 0;
}

/* Whether a probe whose thread has the kernel prio @prio passes --policy / --min-prio. */
static int class_ok(const struct pr_probe *st, int32_t prio)
{
	enum lat_sched_policy p = lat_sched_policy_of(prio);

	if (st->sel_pol != LAT_POL_UNKNOWN && p != st->sel_pol)
		return 0;
	return !st->min_prio || (p == LAT_POL_RT && 99 - prio >= st->min_prio);
}

/*
 * Each CPU's thread class (the trace's, else the recorder's @declared by kind), and
 * --policy / --min-prio: the CPUs that do not pass go to r->left_out, their markers
 * out of over_limit, their samples out of worst (vals' left_out).  0 or -LAT_ENOMEM.
 */
static int select_cpus(struct pr_probe *st, struct lat_probe_result *r, const int32_t *declared)
{
	size_t n = 0, k = 0;

	r->selecting = st->sel_pol != LAT_POL_UNKNOWN || st->min_prio;
	for (size_t i = 0; i < r->ncpus; i++) {
		struct lat_probe_cpu *c = &r->cpus[i];
		struct pr_vals *v = vals_find(st, c->kind, c->cpu);

		c->prio = LAT_PRIO_UNKNOWN;
		c->prio_src = LAT_PSRC_NONE;
		if (v && v->prio != LAT_PRIO_UNKNOWN) {
			c->prio = v->prio;
			c->prio_src = LAT_PSRC_MARKERS;
		} else if (declared[c->kind] != LAT_PRIO_UNKNOWN) {
			c->prio = declared[c->kind];
			c->prio_src = LAT_PSRC_SUMMARY;
		}
		if (!r->selecting || class_ok(st, c->prio)) {
			r->over_limit += v ? v->over : 0;
			continue;
		}
		n++;
		if (v)
			v->left_out = 1;
	}
	if (!n)
		return 0;
	if (!(r->left_out = calloc(n, sizeof(*r->left_out))))
		return -LAT_ENOMEM;
	for (size_t i = 0; i < r->ncpus; i++) {
		struct lat_probe_cpu *c = &r->cpus[i];

		if (!r->selecting || class_ok(st, c->prio)) {
			r->cpus[k++] = *c;
			continue;
		}
		lat_histogram_free(c->dist);	/* a left-out CPU is only named */
		c->dist = NULL;
		r->left_out[r->nleft_out++] = *c;
	}
	r->ncpus = k;
	return 0;
}

int pr_probe_finish(struct lat_block *b, struct pr_probe *st, const struct pr_seen *seen)
{
	int32_t declared[LAT_PROBE_NKINDS] = { LAT_PRIO_UNKNOWN, LAT_PRIO_UNKNOWN,
					       LAT_PRIO_UNKNOWN };
	struct lat_probe_result *r;
	int ret = 0;

	r = calloc(1, sizeof(*r));
	if (!r || st->oom) {
		ret = -LAT_ENOMEM;
		goto out;
	}
	*r = st->r;
	r->has_expire = seen->expire;
	r->has_local_timer = seen->local_timer;
	r->has_irq = seen->irq;
	r->has_waking = seen->waking;
	r->stop_above_ns = -1;
	r->over_limit = 0;	/* of the CPUs kept: select_cpus() */
	if (b->events && b->events->latscope_meta &&
	    (ret = read_summary(r, b->events->latscope_meta, declared)))
		goto out;
	for (size_t i = 0; i < st->nvals; i++)
		if (!cpu_of(r, st->vals[i].kind, st->vals[i].cpu)) {
			ret = -LAT_ENOMEM;
			goto out;
		}
	if (!r->ncpus && !st->has_stop) {
		pr_result_free(r);
		r = NULL;
		goto out;
	}
	for (size_t i = 0; i < r->ncpus; i++)
		if ((ret = cpu_stats(&r->cpus[i], vals_find(st, r->cpus[i].kind, r->cpus[i].cpu))))
			goto out;
	qsort(r->cpus, r->ncpus, sizeof(*r->cpus), cmp_cpu);
	if ((ret = select_cpus(st, r, declared)) ||
	    (ret = take_worst(st, r, seen->irq || seen->local_timer)))
		goto out;
	add_findings(b, r, st->has_stop ? &st->stop : NULL);
	b->probe = r;
	r = NULL;
out:
	pr_result_free(r);
	return ret;
}
