// SPDX-License-Identifier: GPL-2.0-or-later
/* Probe samples (analyze/probe.c): text and JSON.  Definitions in docs/probe.md. */
#include <math.h>
#include <string.h>

#include "report_priv.h"
#include "latscope/an_probe.h"
#include "latscope/an_wakeup.h"
#include "latscope/export.h"

/* The wakeup analysis' worst case (1-based) that is this sample's run-queue wait, or 0. */
static size_t wakeup_case(const struct lat_block *b, const struct lat_probe_sample *s)
{
	const struct lat_wakeup_result *w = b->analysis;

	if (!w || !s->pt[LAT_PPT_SWITCH])
		return 0;
	for (size_t i = 0; i < w->nworst; i++)
		if (w->worst[i].pid == s->pid && w->worst[i].end_ns == s->pt[LAT_PPT_SWITCH])
			return i + 1;
	return 0;
}

static const char *const pt_names[LAT_PPT_N] = { "expected", "irq_entry", "hrtimer_expire",
						  "sched_waking", "sched_switch", "marker" };

/* ---- JSON ------------------------------------------------------------------ */

static void num_src(struct lat_json *j, const char *key, int64_t v, enum lat_probe_src s)
{
	lat_json_obj_open(j, key);
	if (s == LAT_PSRC_NONE)
		lat_json_null(j, "ns");
	else
		lat_json_int(j, "ns", v);
	lat_json_str(j, "from", lat_probe_src_name(s));
	lat_json_obj_close(j);
}

/* A percentile: its value, where from, and the range it lies in (both ends included). */
static void pct_json(struct lat_json *j, const char *key, const struct lat_probe_cpu *c, int i,
		     int64_t v, enum lat_probe_src s)
{
	lat_json_obj_open(j, key);
	if (s == LAT_PSRC_NONE) {
		lat_json_null(j, "ns");
		lat_json_null(j, "lo_ns");
		lat_json_null(j, "hi_ns");
	} else {
		lat_json_int(j, "ns", v);
		lat_json_int(j, "lo_ns", c->pct_lo_ns[i]);
		lat_json_int(j, "hi_ns", c->pct_hi_ns[i]);
	}
	lat_json_str(j, "from", lat_probe_src_name(s));
	lat_json_obj_close(j);
}

/* Every sample as comparable buckets [lo, hi, count] (hi null when open), or null. */
static void dist_json(struct lat_json *j, const struct lat_probe_cpu *c)
{
	const struct lat_histogram *h = c->dist;

	if (!h) {
		lat_json_null(j, "distribution");
		return;
	}
	lat_json_obj_open(j, "distribution");
	lat_json_str(j, "resolution", lat_probe_res_name(c->dist_res));
	if (c->dist_exact_above_ns >= 0)
		lat_json_int(j, "exact_above_ns", c->dist_exact_above_ns);
	else
		lat_json_null(j, "exact_above_ns");
	lat_json_uint(j, "total", h->total);
	lat_json_arr_open(j, "buckets");
	for (size_t i = 0; i < h->nbuckets; i++) {
		lat_json_arr_open(j, NULL);
		lat_json_int(j, NULL, h->b[i].lo_ns);
		if (h->b[i].hi_ns == INT64_MAX)
			lat_json_null(j, NULL);
		else
			lat_json_int(j, NULL, h->b[i].hi_ns);
		lat_json_uint(j, NULL, h->b[i].count);
		lat_json_arr_close(j);
	}
	lat_json_arr_close(j);
	lat_json_obj_close(j);
}

/* The probe thread's class: "rt" / "fair" / "dl" / null. */
static const char *policy_key(int32_t prio)
{
	switch (lat_sched_policy_of(prio)) {
	case LAT_POL_RT:
		return "rt";
	case LAT_POL_FAIR:
		return "fair";
	case LAT_POL_DEADLINE:
		return "dl";
	default:
		return NULL;
	}
}

static void policy_json(struct lat_json *j, const struct lat_probe_cpu *c)
{
	lat_json_str(j, "policy", policy_key(c->prio));
	if (lat_sched_policy_of(c->prio) == LAT_POL_RT)
		lat_json_int(j, "rt_prio", 99 - c->prio);
	else
		lat_json_null(j, "rt_prio");
	lat_json_str(j, "policy_from", lat_probe_src_name(c->prio_src));
}

/* The CPUs --policy / --min-prio left out, by name and count. */
static void left_out_json(struct lat_json *j, const struct lat_probe_result *r)
{
	if (!r->selecting)
		return;
	lat_json_arr_open(j, "left_out");
	for (size_t i = 0; i < r->nleft_out; i++) {
		const struct lat_probe_cpu *c = &r->left_out[i];

		lat_json_obj_open(j, NULL);
		lat_json_str(j, "probe", lat_probe_kind_name(c->kind));
		lat_json_int(j, "cpu", c->cpu);
		lat_json_uint(j, "count", c->count);
		lat_json_uint(j, "markers", c->markers);
		policy_json(j, c);
		lat_json_obj_close(j);
	}
	lat_json_arr_close(j);
}

static void cpu_json(struct lat_json *j, const struct lat_probe_cpu *c)
{
	lat_json_obj_open(j, NULL);
	lat_json_str(j, "probe", lat_probe_kind_name(c->kind));
	lat_json_int(j, "cpu", c->cpu);
	policy_json(j, c);
	lat_json_uint(j, "count", c->count);
	lat_json_str(j, "count_from", lat_probe_src_name(c->count_src));
	lat_json_uint(j, "markers", c->markers);
	if (c->has_summary) {
		lat_json_uint(j, "summary_markers", c->summary_markers);
		lat_json_bool(j, "markers_missing", c->markers_missing);
	}
	if (c->marker_above_ns >= 0)
		lat_json_int(j, "marker_above_ns", c->marker_above_ns);
	else
		lat_json_null(j, "marker_above_ns");
	num_src(j, "min", c->min_ns, c->min_src);
	num_src(j, "avg", c->avg_ns >= 0 ? (int64_t)(c->avg_ns + 0.5) : -1, c->avg_src);
	pct_json(j, "p50", c, LAT_PPCT_P50, c->p50_ns, c->p50_src);
	pct_json(j, "p99", c, LAT_PPCT_P99, c->p99_ns, c->p99_src);
	pct_json(j, "p99_9", c, LAT_PPCT_P999, c->p999_ns, c->p999_src);
	num_src(j, "max", c->max_ns, c->max_src);
	lat_json_obj_open(j, "hist_log2_ns");
	lat_json_str(j, "from", lat_probe_src_name(c->hist_src));
	lat_json_arr_open(j, "buckets");
	for (int k = 0; k < LAT_PROBE_HIST; k++) {
		if (!c->hist[k])
			continue;
		lat_json_arr_open(j, NULL);
		lat_json_int(j, NULL, k);
		lat_json_uint(j, NULL, c->hist[k]);
		lat_json_arr_close(j);
	}
	lat_json_arr_close(j);
	lat_json_obj_close(j);
	dist_json(j, c);
	lat_json_obj_close(j);
}

static void sample_head_json(struct lat_json *j, const struct lat_tgids *tg,
			     const struct lat_probe_sample *s)
{
	lat_json_obj_open(j, NULL);
	lat_json_str(j, "probe", lat_probe_kind_name(s->kind));
	lat_json_int(j, "cpu", s->cpu);
	rp_json_task(j, tg, s->pid);
	lat_json_uint(j, "seq", s->seq);
	lat_json_int(j, "lat_ns", s->lat_ns);
	lat_json_bool(j, "stop", s->stop);
}

/* The task that held the CPU longest: { pid, tid, comm, ns } under @key, or null. */
static void holder_json(struct lat_json *j, const struct lat_tgids *tg, const char *key,
			const struct lat_probe_sample *s)
{
	if (s->holder_pid >= 0 && s->holder_ns > 0) {
		lat_json_obj_open(j, key);
		rp_json_task(j, tg, s->holder_pid);
		lat_json_str(j, "comm", s->holder_comm);
		lat_json_int(j, "ns", s->holder_ns);
		lat_json_obj_close(j);
	} else {
		lat_json_null(j, key);
	}
}

/* A gap sample: what its CPU did in the gap (docs/probe.md, "The gap probe's samples"). */
static void gap_json(struct lat_json *j, const struct lat_tgids *tg,
		     const struct lat_probe_sample *s)
{
	sample_head_json(j, tg, s);
	lat_json_obj_open(j, "window_ns");
	lat_json_uint(j, "from", s->pt[LAT_PPT_EXPECTED]);
	lat_json_uint(j, "to", s->pt[LAT_PPT_MARKER]);
	lat_json_obj_close(j);
	lat_json_arr_open(j, "parts");
	for (int i = 0; i < LAT_PGAP_N; i++) {
		lat_json_obj_open(j, NULL);
		lat_json_str(j, "part", lat_probe_gpart_name((enum lat_probe_gpart)i));
		lat_json_int(j, "ns", s->part_ns[i]);
		lat_json_fixed(j, "share_pct", s->part_pm[i] / 10.0, 1);
		lat_json_obj_close(j);
	}
	lat_json_arr_close(j);
	lat_json_str(j, "dominant", s->part_dominant >= 0 ?
		     lat_probe_gpart_name((enum lat_probe_gpart)s->part_dominant) : NULL);
	lat_json_int(j, "silent_ns", s->silent_ns);
	lat_json_uint(j, "tasks", s->ntasks);
	holder_json(j, tg, "longest_task", s);
	lat_json_arr_open(j, "irqs");
	for (int i = 0; i < LAT_PROBE_GAP_IRQS && s->irqs[i].name[0]; i++) {
		lat_json_obj_open(j, NULL);
		lat_json_str(j, "name", s->irqs[i].name);
		lat_json_int(j, "ns", s->irqs[i].ns);
		lat_json_obj_close(j);
	}
	lat_json_arr_close(j);
	lat_json_obj_close(j);
}

/*
 * A timer sample more than half inside stalls: its time is the silence's (the
 * wait section's verdict of the same time), not its segment's.
 */
static int stall_dominates(const struct lat_probe_sample *s)
{
	return s->stall_ns > 0 && 2 * s->stall_ns > s->lat_ns;
}

static void sample_json(struct lat_json *j, const struct lat_tgids *tg, const struct lat_block *b,
			const struct lat_probe_sample *s)
{
	size_t wc = wakeup_case(b, s);

	if (s->kind == LAT_PROBE_GAP) {
		gap_json(j, tg, s);
		return;
	}
	sample_head_json(j, tg, s);
	lat_json_obj_open(j, "points_ns");
	for (int i = 0; i < LAT_PPT_N; i++)
		if (s->pt[i])
			lat_json_uint(j, pt_names[i], s->pt[i]);
		else
			lat_json_null(j, pt_names[i]);
	lat_json_obj_close(j);
	lat_json_int(j, "expected_moved_ns", s->expected_moved_ns);
	lat_json_arr_open(j, "segments");
	for (int i = 0; i < LAT_PSEG_N; i++) {
		lat_json_obj_open(j, NULL);
		lat_json_str(j, "segment", lat_probe_seg_name((enum lat_probe_seg)i));
		if (s->seg_ns[i] >= 0) {
			lat_json_int(j, "ns", s->seg_ns[i]);
			lat_json_str(j, "to", pt_names[s->seg_to[i]]);
		} else {
			lat_json_null(j, "ns");
			lat_json_null(j, "to");
		}
		lat_json_obj_close(j);
	}
	lat_json_arr_close(j);
	lat_json_int(j, "unknown_ns", s->unknown_ns);
	lat_json_int(j, "stall_ns", s->stall_ns);
	lat_json_str(j, "dominant", stall_dominates(s) ? "stall" : s->dominant >= 0 ?
		     lat_probe_seg_name((enum lat_probe_seg)s->dominant) : NULL);
	holder_json(j, tg, "runqueue_holder", s);
	if (wc)
		lat_json_uint(j, "wakeup_case", wc);
	else
		lat_json_null(j, "wakeup_case");
	if (s->verdict >= 0) {
		lat_json_obj_open(j, "verdict");
		lat_json_str(j, "kind", lat_verdict_name((enum lat_verdict_kind)s->verdict));
		lat_json_int(j, "part_ns", s->verdict_part_ns);
		lat_json_obj_close(j);
	} else {
		lat_json_null(j, "verdict");
	}
	lat_json_obj_close(j);
}

void rp_report_probe_json(struct lat_json *j, const struct lat_block *b)
{
	const struct lat_probe_result *r = b->probe;
	const struct lat_tgids *tg;

	if (!r)
		return;
	tg = rp_tgids(b);	/* damaged: said in wakeup.pid_source */
	lat_json_obj_open(j, "probe");
	lat_json_uint(j, "markers", r->markers);
	lat_json_bool(j, "summary", r->has_summary);
	if (r->stop_above_ns >= 0)
		lat_json_int(j, "stop_above_ns", r->stop_above_ns);
	lat_json_obj_open(j, "events");
	lat_json_bool(j, "hrtimer_expire_entry", r->has_expire);
	lat_json_bool(j, "local_timer_entry", r->has_local_timer);
	lat_json_bool(j, "irq_handler_entry", r->has_irq);
	lat_json_bool(j, "sched_waking", r->has_waking);
	lat_json_obj_close(j);
	lat_json_arr_open(j, "cpus");
	for (size_t i = 0; i < r->ncpus; i++)
		cpu_json(j, &r->cpus[i]);
	lat_json_arr_close(j);
	left_out_json(j, r);
	lat_json_arr_open(j, "worst");
	for (size_t i = 0; i < r->nworst; i++)
		sample_json(j, tg, b, &r->worst[i]);
	lat_json_arr_close(j);
	lat_json_obj_close(j);
}

/* ---- text ------------------------------------------------------------------ */

static const char *dur(int64_t ns, enum lat_probe_src s, char *buf, size_t len)
{
	if (s == LAT_PSRC_NONE || ns < 0)
		return "-";
	return lat_fmt_duration(ns, buf, len);
}

/* A percentile: exact, or the range of its log2 bucket ("65.5-131 us", "655 us-1.05 ms"). */
static const char *pct(const struct lat_probe_cpu *c, int i, int64_t ns, enum lat_probe_src s,
		       char *buf, size_t len)
{
	char lo[32], hi[32];
	const char *ul, *uh;

	if (s != LAT_PSRC_SUMMARY_BUCKET || c->pct_lo_ns[i] < 0)
		return dur(ns, s, buf, len);
	lat_fmt_duration(c->pct_lo_ns[i], lo, sizeof(lo));
	lat_fmt_duration(c->pct_hi_ns[i], hi, sizeof(hi));
	ul = strrchr(lo, ' ');
	uh = strrchr(hi, ' ');
	if (ul && uh && !strcmp(ul, uh))
		snprintf(buf, len, "%.*s-%s", (int)(ul - lo), lo, hi);
	else
		snprintf(buf, len, "%s-%s", lo, hi);
	return buf;
}

/* The probe thread's class, short: "FIFO 95", "OTHER", "?". */
static const char *class_text(int32_t prio, char *buf, size_t len)
{
	switch (lat_sched_policy_of(prio)) {
	case LAT_POL_RT:
		snprintf(buf, len, "FIFO %d", 99 - prio);
		return buf;
	case LAT_POL_FAIR:
		return "OTHER";
	case LAT_POL_DEADLINE:
		return "DEADLINE";
	default:
		return "?";
	}
}

static void cpu_text(FILE *out, const struct lat_probe_cpu *c)
{
	char b[6][80], cls[24];

	fprintf(out, "  %-10s %4d %-8s %8llu %10s %10s %14s %14s %14s %10s %7llu%s\n",
		lat_probe_kind_name(c->kind), c->cpu, class_text(c->prio, cls, sizeof(cls)),
		(unsigned long long)c->count,
		dur(c->min_ns, c->min_src, b[0], 80),
		dur(c->avg_ns >= 0 ? (int64_t)(c->avg_ns + 0.5) : -1, c->avg_src, b[1], 80),
		pct(c, LAT_PPCT_P50, c->p50_ns, c->p50_src, b[2], 80),
		pct(c, LAT_PPCT_P99, c->p99_ns, c->p99_src, b[3], 80),
		pct(c, LAT_PPCT_P999, c->p999_ns, c->p999_src, b[4], 80),
		dur(c->max_ns, c->max_src, b[5], 80), (unsigned long long)c->markers,
		c->markers_missing ? " (missing)" : "");
}

/* OSADL-style: latency classes on one axis, the count on a log scale on the other. */
static void hist_text(FILE *out, const struct lat_probe_cpu *c)
{
	char lo[32], hi[32];

	fprintf(out, "    %s cpu%d, log2 classes, count on a log scale (from %s):\n",
		lat_probe_kind_name(c->kind), c->cpu, lat_probe_src_name(c->hist_src));
	for (int k = 0; k < LAT_PROBE_HIST; k++) {
		int bar;

		if (!c->hist[k])
			continue;
		lat_fmt_duration(k ? (int64_t)1 << k : 0, lo, sizeof(lo));
		lat_fmt_duration(k >= 62 ? INT64_MAX : (int64_t)1 << (k + 1), hi, sizeof(hi));
		bar = 1 + (int)(log10((double)c->hist[k]) * 8);
		fprintf(out, "    [%9s, %9s) %9llu ", lo, hi, (unsigned long long)c->hist[k]);
		for (int i = 0; i < bar && i < 60; i++)
			fputc('#', out);
		fputc('\n', out);
	}
}

static void sample_head_text(FILE *out, const struct lat_probe_sample *s, size_t idx)
{
	char d[32], t[32];

	fprintf(out, "  %zu. %s cpu%d pid %d: %s", idx + 1, lat_probe_kind_name(s->kind), s->cpu,
		s->pid, lat_fmt_duration(s->lat_ns, d, sizeof(d)));
	if (s->seq)
		fprintf(out, " (seq %llu)", (unsigned long long)s->seq);
	fprintf(out, " at %s%s\n", lat_fmt_trace_ts(s->pt[LAT_PPT_MARKER], t, sizeof(t)),
		s->stop ? "  <- the sample that stopped the recording" : "");
}

/* What a gap part holds, after its share. */
static void gap_part_text(FILE *out, const struct lat_probe_sample *s, int i)
{
	char d[32];

	switch (i) {
	case LAT_PGAP_IRQ:
		for (int k = 0; k < LAT_PROBE_GAP_IRQS && s->irqs[k].name[0]; k++) {
			fputs(k ? ", " : "  ", out);
			lat_fput_safe(out, s->irqs[k].name, strlen(s->irqs[k].name));
			fprintf(out, " %s", lat_fmt_duration(s->irqs[k].ns, d, sizeof(d)));
		}
		break;
	case LAT_PGAP_PREEMPTED:
		if (s->holder_pid < 0 || s->holder_ns <= 0)
			break;
		fprintf(out, "  %u task%s ran; the longest ", s->ntasks, s->ntasks == 1 ? "" : "s");
		lat_fput_safe(out, s->holder_comm, strlen(s->holder_comm));
		fprintf(out, " (%d) %s", s->holder_pid, lat_fmt_duration(s->holder_ns, d, sizeof(d)));
		break;
	case LAT_PGAP_STALL:
		if (s->part_ns[i])
			fputs("  nothing logged while the thread was on its CPU", out);
		break;
	case LAT_PGAP_PATH:
		if (s->part_ns[i])
			fputs("  its switch in -> marker", out);
		break;
	default:
		if (s->part_ns[i] && s->silent_ns && s->part_ns[LAT_PGAP_STALL] < s->silent_ns)
			fputs("  nothing logged, and the trace records no irq handlers (--irq)", out);
		break;
	}
}

static void gap_text(FILE *out, const struct lat_probe_sample *s, size_t idx)
{
	char d[32];

	sample_head_text(out, s, idx);
	for (int i = 0; i < LAT_PGAP_N; i++) {
		fprintf(out, "     %-17s %10s %5.1f%%", lat_probe_gpart_name((enum lat_probe_gpart)i),
			lat_fmt_duration(s->part_ns[i], d, sizeof(d)), s->part_pm[i] / 10.0);
		gap_part_text(out, s, i);
		if (i == s->part_dominant)
			fputs("  <- dominant", out);
		fputc('\n', out);
	}
}

static void sample_text(FILE *out, const struct lat_block *b, const struct lat_probe_sample *s,
			size_t idx)
{
	char d[32], t[32];
	size_t wc = wakeup_case(b, s);

	if (s->kind == LAT_PROBE_GAP) {
		gap_text(out, s, idx);
		return;
	}
	sample_head_text(out, s, idx);
	for (int i = 0; i < LAT_PSEG_N; i++) {
		fprintf(out, "     %-17s ", lat_probe_seg_name((enum lat_probe_seg)i));
		if (s->seg_ns[i] < 0) {
			int merged = 0;

			for (int k = 0; k < i; k++)
				if (s->seg_ns[k] >= 0 && s->seg_to[k] > i)
					merged = 1;
			fprintf(out, "%s\n", merged ? "unknown (within the segment above: its "
				"start event was not recorded)" : "unknown (not recorded)");
			continue;
		}
		fprintf(out, "%10s %5.1f%%  %s -> %s", lat_fmt_duration(s->seg_ns[i], d, sizeof(d)),
			s->lat_ns > 0 ? 100.0 * (double)s->seg_ns[i] / (double)s->lat_ns : 0.0,
			pt_names[i], pt_names[s->seg_to[i]]);
		if (i == s->dominant && !stall_dominates(s))
			fputs("  <- dominant", out);
		if (i == LAT_PSEG_RUNQ && s->holder_pid >= 0 && s->holder_ns > 0) {
			fputs("; the CPU ran ", out);
			lat_fput_safe(out, s->holder_comm, strlen(s->holder_comm));
			fprintf(out, " (%d) for %s", s->holder_pid,
				lat_fmt_duration(s->holder_ns, t, sizeof(t)));
		}
		if (i == LAT_PSEG_RUNQ && wc)
			fprintf(out, " (worst wakeup #%zu below)", wc);
		fputc('\n', out);
	}
	if (s->stall_ns > 0)
		fprintf(out, "     %-17s %10s %5.1f%%  nothing logged (the stall findings): the "
			"host not running the CPU, or a section with interrupts off, inside the "
			"segments above%s\n", "stall", lat_fmt_duration(s->stall_ns, d, sizeof(d)),
			s->lat_ns > 0 ? 100.0 * (double)s->stall_ns / (double)s->lat_ns : 0.0,
			stall_dominates(s) ? "  <- dominant" : "");
	if (s->expected_moved_ns)
		fprintf(out, "     (expected time moved back %s to the irq/expiry before it)\n",
			lat_fmt_duration(s->expected_moved_ns, d, sizeof(d)));
	if (s->unknown_ns)
		fprintf(out, "     not covered by a segment: %s\n",
			lat_fmt_duration(s->unknown_ns, d, sizeof(d)));
	if (s->verdict >= 0 && s->pt[LAT_PPT_WAKING] && s->pt[LAT_PPT_SWITCH])
		fprintf(out, "     %-17s %s (%.0f%% of its wakeup wait, %s: the wait's verdict in "
			"every section)\n", "verdict",
			lat_verdict_name((enum lat_verdict_kind)s->verdict),
			100.0 * (double)s->verdict_part_ns /
			(double)(s->pt[LAT_PPT_SWITCH] - s->pt[LAT_PPT_WAKING]),
			lat_fmt_duration((int64_t)(s->pt[LAT_PPT_SWITCH] - s->pt[LAT_PPT_WAKING]), t,
					 sizeof(t)));
}

static void left_out_text(FILE *out, const struct lat_probe_result *r)
{
	char cls[24];

	for (size_t i = 0; i < r->nleft_out; i++) {
		const struct lat_probe_cpu *c = &r->left_out[i];

		fprintf(out, "%s%s cpu%d (%s, %llu sample%s)", i ? ", " : "  left out by --policy / "
			"--min-prio: ", lat_probe_kind_name(c->kind), c->cpu,
			class_text(c->prio, cls, sizeof(cls)), (unsigned long long)c->count,
			c->count == 1 ? "" : "s");
		if (i + 1 == r->nleft_out)
			fputc('\n', out);
	}
}

void rp_report_probe_text(FILE *out, const struct lat_block *b)
{
	const struct lat_probe_result *r = b->probe;
	int summary = 0, missing = 0;

	if (!r)
		return;
	fprintf(out, "\n  probe samples (%llu marker%s; docs/probe.md):\n",
		(unsigned long long)r->markers, r->markers == 1 ? "" : "s");
	if (!r->ncpus) {
		left_out_text(out, r);
		return;
	}
	fprintf(out, "  %-10s %4s %-8s %8s %10s %10s %14s %14s %14s %10s %7s\n", "probe", "cpu",
		"class", "count", "min", "avg", "p50", "p99", "p99.9", "max", "markers");
	for (size_t i = 0; i < r->ncpus; i++) {
		const struct lat_probe_cpu *c = &r->cpus[i];

		cpu_text(out, c);
		summary |= c->has_summary;
		missing |= c->markers_missing;
	}
	if (summary)
		fputs("  count, min, avg, max: the recorder's stored summary (every sample);"
		      " percentiles:\n  exact from the markers when the rank is among the samples"
		      " above --marker-above,\n  else a range: the summary's log2 bucket that holds"
		      " it\n", out);
	else
		fputs("  every number from the markers in the trace (no recorder summary:"
		      " samples that made\n  no marker are not counted)\n", out);
	left_out_text(out, r);
	if (missing)
		fputs("  (missing): the markers are not every sample they should be (flight recorder,"
		      " or tracing\n  stopped before the last were written): its percentiles are"
		      " ranges of the summary's log2\n  buckets, the largest sample its max\n", out);
	for (size_t i = 0; i < r->ncpus; i++)
		hist_text(out, &r->cpus[i]);
	if (!r->nworst)
		return;
	fputs("\n  worst probe samples, decomposed (timer: expected -> irq entry -> hrtimer expiry"
	      " -> waking -> switch in -> marker;\n  gap: what its CPU did in the gap):\n", out);
	for (size_t i = 0; i < r->nworst; i++)
		sample_text(out, b, &r->worst[i], i);
}
