// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The CI gate (--fail-above, docs/cli.md "The CI gate"): every selected task's wakeup waits
 * and every probe sample of the event traces against one limit; what exceeds it, counted
 * and listed in text and JSON.  Which values exceed it is the analysis' decision
 * (analyze/gate.c), and the counts are the analyses' (over_limit).
 */
#include <string.h>

#include "report_priv.h"
#include "latscope/export.h"
#include "latscope/gate.h"

/* The decision is the analysis' (analyze/gate.c); here, over the report's inputs. */
int lat_gate_check(const struct lat_report_input *in, size_t n, int64_t limit_ns,
		   struct lat_gate *g)
{
	lat_gate_init(g, limit_ns);
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < in[i].nblocks; k++)
			lat_gate_block(g, in[i].blocks[k]);
	return lat_gate_failed(g);
}

/* ---- text ------------------------------------------------------------------ */

static void who(FILE *out, const char *comm, int32_t pid)
{
	lat_fput_safe(out, comm[0] ? comm : "?", strnlen(comm[0] ? comm : "?", LAT_COMM_LEN));
	fprintf(out, "/%d", pid);
}

static void where(FILE *out, const struct lat_report_input *in, size_t k)
{
	fputs("    ", out);
	lat_fput_safe(out, in->path, strlen(in->path));
	if (in->nblocks > 1)
		fprintf(out, "#%zu", k + 1);
	fputs(": ", out);
}

static void tasks_text(FILE *out, const struct lat_report_input *in, size_t k,
		       const struct lat_wakeup_result *r, int64_t limit_ns)
{
	char d1[32], d2[32], ts[40], cls[40];

	for (size_t i = 0; i < r->ntasks; i++) {
		const struct lat_wake_task *t = &r->tasks[i];

		if (!lat_gate_task_over(t, limit_ns))
			continue;
		lat_sched_class_fmt(t->prio, cls, sizeof(cls));
		where(out, in, k);
		who(out, t->comm, t->pid);
		fprintf(out, "%s%s: worst wakeup wait %s (ended at %s), p99 %s over %llu wait%s\n",
			cls[0] ? " " : "", cls, lat_fmt_duration(t->wake.max, d1, sizeof(d1)),
			lat_fmt_trace_ts(t->max_end_ns, ts, sizeof(ts)),
			lat_fmt_duration(t->wake.p99, d2, sizeof(d2)),
			(unsigned long long)t->wake.n, t->wake.n == 1 ? "" : "s");
	}
}

static void cases_text(FILE *out, const struct lat_report_input *in, size_t k,
		       const struct lat_wakeup_result *r, int64_t limit_ns)
{
	char d[32], t0[40], t1[40];

	for (size_t i = 0; i < r->nworst; i++) {
		const struct lat_wake_case *c = &r->worst[i];

		if (!lat_gate_case_over(c, limit_ns))
			continue;
		where(out, in, k);
		fprintf(out, "case %zu: ", i + 1);
		who(out, c->comm, c->pid);
		fprintf(out, " waited %s on CPU%d (%s .. %s): %s\n",
			lat_fmt_duration(c->latency_ns, d, sizeof(d)), c->cpu,
			lat_fmt_trace_ts(c->start_ns, t0, sizeof(t0)),
			lat_fmt_trace_ts(c->end_ns, t1, sizeof(t1)),
			lat_verdict_name(c->verdict.kind));
	}
}

static void probe_text(FILE *out, const struct lat_report_input *in, size_t k,
		       const struct lat_probe_result *p, int64_t limit_ns)
{
	char d[32], ts[40];

	for (size_t i = 0; i < p->ncpus; i++) {
		const struct lat_probe_cpu *c = &p->cpus[i];

		if (!lat_gate_cpu_over(c, limit_ns))
			continue;
		where(out, in, k);
		fprintf(out, "probe %s cpu%d: max %s over %llu sample%s (from %s)\n",
			lat_probe_kind_name(c->kind), c->cpu,
			lat_fmt_duration(c->max_ns, d, sizeof(d)), (unsigned long long)c->count,
			c->count == 1 ? "" : "s", lat_probe_src_name(c->max_src));
	}
	for (size_t i = 0; i < p->nworst; i++) {
		const struct lat_probe_sample *s = &p->worst[i];

		if (!lat_gate_sample_over(s, limit_ns))
			continue;
		where(out, in, k);
		fprintf(out, "probe sample %s cpu%d seq %llu: %s at %s\n",
			lat_probe_kind_name(s->kind), s->cpu, (unsigned long long)s->seq,
			lat_fmt_duration(s->lat_ns, d, sizeof(d)),
			lat_fmt_trace_ts(s->pt[LAT_PPT_MARKER], ts, sizeof(ts)));
	}
}

void lat_gate_text(FILE *out, const struct lat_report_input *in, size_t n,
		   const struct lat_gate *g)
{
	char lim[32];

	lat_fmt_duration(g->limit_ns, lim, sizeof(lim));
	fprintf(out, "\n== gate: --fail-above %s (%lld ns): %s ==\n", lim, (long long)g->limit_ns,
		g->tasks_over || g->cpus_over ? "FAILED" : "passed");
	fprintf(out, "  checked: %llu wakeup waits and %llu probe samples in %zu event "
		"trace%s", (unsigned long long)g->waits, (unsigned long long)g->samples,
		g->traces, g->traces == 1 ? "" : "s");
	if (g->untrusted)
		fprintf(out, "; %llu untrusted waits (lost or missing events) not checked",
			(unsigned long long)g->untrusted);
	if (g->cpus_left_out)
		fprintf(out, "; %llu probe sample%s of %zu probe CPU%s left out by --policy / "
			"--min-prio (the class of their thread)",
			(unsigned long long)g->samples_left_out, g->samples_left_out == 1 ? "" : "s",
			g->cpus_left_out, g->cpus_left_out == 1 ? "" : "s");
	fputc('\n', out);
	if (!g->tasks_over && !g->cpus_over)
		return;
	fprintf(out, "  above %s: %llu wakeup wait%s (%zu task%s), %llu probe sample%s (%zu probe "
		"CPU%s)\n", lim, (unsigned long long)g->waits_over, g->waits_over == 1 ? "" : "s",
		g->tasks_over, g->tasks_over == 1 ? "" : "s", (unsigned long long)g->samples_over,
		g->samples_over == 1 ? "" : "s", g->cpus_over, g->cpus_over == 1 ? "" : "s");
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < in[i].nblocks; k++) {
			const struct lat_block *b = in[i].blocks[k];

			if (lat_gate_wakeup(b)) {
				tasks_text(out, &in[i], k, lat_gate_wakeup(b), g->limit_ns);
				cases_text(out, &in[i], k, lat_gate_wakeup(b), g->limit_ns);
			}
			if (lat_gate_probe(b))
				probe_text(out, &in[i], k, lat_gate_probe(b), g->limit_ns);
		}
	}
}

/* ---- JSON ------------------------------------------------------------------ */

static void where_json(struct lat_json *j, const struct lat_report_input *in, size_t k)
{
	lat_json_obj_open(j, NULL);
	lat_json_str(j, "path", in->path);
	lat_json_uint(j, "block", k + 1);
}

static void tasks_json(struct lat_json *j, const struct lat_report_input *in, size_t k,
		       const struct lat_wakeup_result *r, int64_t limit_ns)
{
	char cls[40];
	const struct lat_tgids *tg;

	tg = rp_tgids(in->blocks[k]);
	for (size_t i = 0; i < r->ntasks; i++) {
		const struct lat_wake_task *t = &r->tasks[i];

		if (!lat_gate_task_over(t, limit_ns))
			continue;
		where_json(j, in, k);
		rp_json_task(j, tg, t->pid);
		lat_json_strn(j, "comm", t->comm, strnlen(t->comm, LAT_COMM_LEN));
		lat_sched_class_fmt(t->prio, cls, sizeof(cls));
		lat_json_str(j, "class", cls[0] ? cls : NULL);
		lat_json_uint(j, "waits", t->wake.n);
		lat_json_int(j, "max_ns", t->wake.max);
		lat_json_uint(j, "max_end_ns", t->max_end_ns);
		lat_json_int(j, "p99_ns", t->wake.p99);
		lat_json_obj_close(j);
	}
}

static void cases_json(struct lat_json *j, const struct lat_report_input *in, size_t k,
		       const struct lat_wakeup_result *r, int64_t limit_ns)
{
	const struct lat_tgids *tg;

	tg = rp_tgids(in->blocks[k]);
	for (size_t i = 0; i < r->nworst; i++) {
		const struct lat_wake_case *c = &r->worst[i];

		if (!lat_gate_case_over(c, limit_ns))
			continue;
		where_json(j, in, k);
		lat_json_uint(j, "case", i + 1);
		rp_json_task(j, tg, c->pid);
		lat_json_strn(j, "comm", c->comm, strnlen(c->comm, LAT_COMM_LEN));
		lat_json_int(j, "cpu", c->cpu);
		lat_json_uint(j, "start_ns", c->start_ns);
		lat_json_uint(j, "end_ns", c->end_ns);
		lat_json_int(j, "latency_ns", c->latency_ns);
		lat_json_str(j, "verdict", lat_verdict_name(c->verdict.kind));
		lat_json_obj_close(j);
	}
}

static void probe_cpus_json(struct lat_json *j, const struct lat_report_input *in, size_t k,
			    const struct lat_probe_result *p, int64_t limit_ns)
{
	for (size_t i = 0; i < p->ncpus; i++) {
		const struct lat_probe_cpu *c = &p->cpus[i];

		if (!lat_gate_cpu_over(c, limit_ns))
			continue;
		where_json(j, in, k);
		lat_json_str(j, "probe", lat_probe_kind_name(c->kind));
		lat_json_int(j, "cpu", c->cpu);
		lat_json_uint(j, "count", c->count);
		lat_json_int(j, "max_ns", c->max_ns);
		lat_json_str(j, "max_from", lat_probe_src_name(c->max_src));
		lat_json_obj_close(j);
	}
}

static void probe_samples_json(struct lat_json *j, const struct lat_report_input *in, size_t k,
			       const struct lat_probe_result *p, int64_t limit_ns)
{
	const struct lat_tgids *tg;

	tg = rp_tgids(in->blocks[k]);
	for (size_t i = 0; i < p->nworst; i++) {
		const struct lat_probe_sample *s = &p->worst[i];

		if (!lat_gate_sample_over(s, limit_ns))
			continue;
		where_json(j, in, k);
		lat_json_str(j, "probe", lat_probe_kind_name(s->kind));
		lat_json_int(j, "cpu", s->cpu);
		rp_json_task(j, tg, s->pid);
		lat_json_uint(j, "seq", s->seq);
		lat_json_int(j, "lat_ns", s->lat_ns);
		lat_json_uint(j, "marker_ns", s->pt[LAT_PPT_MARKER]);
		lat_json_obj_close(j);
	}
}

/* One list of the gate: @emit over every event-trace block that has the part it lists. */
static void list_json(struct lat_json *j, const char *key, const struct lat_report_input *in,
		      size_t n, const struct lat_gate *g, int probe,
		      void (*emit)(struct lat_json *, const struct lat_report_input *, size_t,
				   const void *, int64_t))
{
	lat_json_arr_open(j, key);
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < in[i].nblocks; k++) {
			const struct lat_block *b = in[i].blocks[k];
			const void *part = probe ? (const void *)lat_gate_probe(b) :
					   (const void *)lat_gate_wakeup(b);

			if (part)
				emit(j, &in[i], k, part, g->limit_ns);
		}
	}
	lat_json_arr_close(j);
}

static void tasks_emit(struct lat_json *j, const struct lat_report_input *in, size_t k,
		       const void *part, int64_t limit_ns)
{
	tasks_json(j, in, k, part, limit_ns);
}

static void cases_emit(struct lat_json *j, const struct lat_report_input *in, size_t k,
		       const void *part, int64_t limit_ns)
{
	cases_json(j, in, k, part, limit_ns);
}

static void pcpus_emit(struct lat_json *j, const struct lat_report_input *in, size_t k,
		       const void *part, int64_t limit_ns)
{
	probe_cpus_json(j, in, k, part, limit_ns);
}

static void psamples_emit(struct lat_json *j, const struct lat_report_input *in, size_t k,
			  const void *part, int64_t limit_ns)
{
	probe_samples_json(j, in, k, part, limit_ns);
}

void lat_gate_json(struct lat_json *j, const struct lat_report_input *in, size_t n,
		   const struct lat_gate *g)
{
	lat_json_obj_open(j, "gate");
	lat_json_int(j, "limit_ns", g->limit_ns);
	lat_json_bool(j, "passed", !g->tasks_over && !g->cpus_over);
	lat_json_uint(j, "traces", g->traces);
	lat_json_uint(j, "waits", g->waits);
	lat_json_uint(j, "samples", g->samples);
	lat_json_uint(j, "untrusted_waits", g->untrusted);
	lat_json_uint(j, "waits_over", g->waits_over);
	lat_json_uint(j, "samples_over", g->samples_over);
	if (g->cpus_left_out) {
		lat_json_uint(j, "samples_left_out", g->samples_left_out);
		lat_json_uint(j, "probe_cpus_left_out", g->cpus_left_out);
	}
	list_json(j, "tasks", in, n, g, 0, tasks_emit);
	list_json(j, "cases", in, n, g, 0, cases_emit);
	list_json(j, "probe_cpus", in, n, g, 1, pcpus_emit);
	list_json(j, "probe_samples", in, n, g, 1, psamples_emit);
	lat_json_obj_close(j);
}
