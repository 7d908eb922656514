// SPDX-License-Identifier: GPL-2.0-or-later
/* Function traces (latency-tracer dumps): JSON (docs/json-fntrace.md) and text. */
#include <string.h>

#include "latscope/an_fntrace.h"
#include "report_priv.h"

static void int_or_null(struct lat_json *j, const char *key, int64_t v, int64_t none)
{
	if (v == none)
		lat_json_null(j, key);
	else
		lat_json_int(j, key, v);
}

static void header_json(struct lat_json *j, const struct lat_fntrace *t)
{
	lat_json_obj_open(j, "header");
	lat_json_str(j, "tracer", t->tracer);
	lat_json_str(j, "version", t->version);
	lat_json_str(j, "kernel", t->kernel);
	lat_json_str(j, "preempt_model", t->model);
	int_or_null(j, "latency_ns", t->latency_ns, -1);
	lat_json_uint(j, "entries_present", t->n);
	int_or_null(j, "entries_announced", t->entries_shown, -1);
	int_or_null(j, "entries_total", t->entries_total, -1);
	int_or_null(j, "cpu", t->cpu, -1);
	int_or_null(j, "nr_cpus", t->nr_cpus, -1);
	lat_json_obj_open(j, "task");
	lat_json_str(j, "comm", t->task_comm);
	lat_json_null(j, "pid");	/* a latency trace names the thread, not its process */
	int_or_null(j, "tid", t->task_pid, -1);
	int_or_null(j, "uid", t->task_uid, LAT_FN_NONE);
	int_or_null(j, "nice", t->task_nice, LAT_FN_NONE);
	int_or_null(j, "policy", t->task_policy, LAT_FN_NONE);
	int_or_null(j, "rt_prio", t->task_rt_prio, LAT_FN_NONE);
	lat_json_obj_close(j);
	lat_json_str(j, "flags_layout", lat_fn_layout_name(t->layout));
	lat_json_str(j, "started_at", t->started_at);
	lat_json_str(j, "ended_at", t->ended_at);
	lat_json_uint(j, "line", t->header_line);
	lat_json_obj_close(j);
}

static void entry_ref(struct lat_json *j, const char *key, const struct lat_fntrace *t,
		      const struct lat_fntrace_result *r, size_t i)
{
	lat_json_obj_open(j, key);
	lat_json_str(j, "function", lat_fn_entry_label(&t->e[i]));
	lat_json_uint(j, "line", t->e[i].line);
	if (t->e[i].index >= 0)
		lat_json_int(j, "index", t->e[i].index);
	lat_json_int(j, "at_ns", r->t_ns[i]);
	lat_json_obj_close(j);
}

static void stretch_json(struct lat_json *j, const char *key, const struct lat_fntrace *t,
			 const struct lat_fntrace_result *r, const struct lat_fn_stretch *s)
{
	if (!s->found) {
		lat_json_null(j, key);
		return;
	}
	lat_json_obj_open(j, key);
	lat_json_int(j, "duration_ns", s->duration_ns);
	lat_json_int(j, "start_ns", s->start_ns);
	lat_json_int(j, "end_ns", s->end_ns);
	lat_json_uint(j, "entries", s->end - s->first);
	lat_json_bool(j, "open", s->open);
	entry_ref(j, "from", t, r, s->first);
	entry_ref(j, "to", t, r, s->open ? s->end - 1 : s->end);
	lat_json_obj_close(j);
}

static size_t top(const struct lat_fntrace_result *r, size_t n)
{
	return n < (size_t)r->top_n ? n : (size_t)r->top_n;
}

static void clock_json(struct lat_json *j, const struct lat_fntrace_result *r)
{
	lat_json_obj_open(j, "clock");
	lat_json_str(j, "time_source", r->time_source);
	lat_json_fixed(j, "tsc_cycles_per_us", r->cycles_per_us, 2);
	lat_json_fixed(j, "tsc_cycles_per_us_min", r->cycles_per_us_min, 2);
	lat_json_fixed(j, "tsc_cycles_per_us_max", r->cycles_per_us_max, 2);
	lat_json_obj_close(j);
}

static void coverage_json(struct lat_json *j, const struct lat_fntrace *t,
			  const struct lat_fntrace_result *r)
{
	lat_json_obj_open(j, "coverage");
	lat_json_int(j, "span_ns", r->span_ns);
	lat_json_int(j, "covered_ns", r->covered_ns);
	if (r->covered_pct < 0)
		lat_json_null(j, "covered_pct");
	else
		lat_json_fixed(j, "covered_pct", r->covered_pct, 2);
	lat_json_bool(j, "truncated", r->truncated);
	lat_json_uint(j, "missing_indexes", r->missing_indexes);
	lat_json_uint(j, "elisions", t->elisions);
	lat_json_int(j, "unattributed_ns", r->unattributed_ns);
	lat_json_uint(j, "unknown_types", t->unknown_types);
	lat_json_uint(j, "joined_lines", t->joined_lines);
	lat_json_uint(j, "split_lines", t->split_lines);
	lat_json_uint(j, "quoted_lines", t->quoted_lines);
	lat_json_uint(j, "graph_unclosed", r->graph_unclosed);
	lat_json_uint(j, "graph_unmatched", r->graph_unmatched);
	lat_json_int(j, "window_ns", r->window_ns);
	lat_json_obj_close(j);
}

/* "functions", then "blame" by self time and "blame_inclusive" by total time. */
static void blame_json(struct lat_json *j, const struct lat_fntrace_result *r)
{
	lat_json_uint(j, "functions", r->nfn);
	lat_json_arr_open(j, "blame");
	for (size_t i = 0; i < top(r, r->nfn); i++) {
		const struct lat_fn_blame *f = &r->fn[i];

		lat_json_obj_open(j, NULL);
		lat_json_str(j, "function", f->function);
		lat_json_int(j, "self_ns", f->self_ns);
		lat_json_int(j, "total_ns", f->total_ns);
		lat_json_uint(j, "calls", f->calls);
		lat_json_fixed(j, "share_pct", f->share_pct, 2);
		lat_json_obj_close(j);
	}
	lat_json_arr_close(j);
	lat_json_arr_open(j, "blame_inclusive");
	for (size_t i = 0; i < top(r, r->nfn); i++) {
		const struct lat_fn_blame *f = &r->fn[r->by_total[i]];

		lat_json_obj_open(j, NULL);
		lat_json_str(j, "function", f->function);
		lat_json_int(j, "total_ns", f->total_ns);
		lat_json_int(j, "self_ns", f->self_ns);
		lat_json_uint(j, "calls", f->calls);
		lat_json_obj_close(j);
	}
	lat_json_arr_close(j);
}

static void critical_path_json(struct lat_json *j, const struct lat_fntrace *t,
			       const struct lat_fntrace_result *r)
{
	lat_json_obj_open(j, "critical_path");
	stretch_json(j, "irqs_off", t, r, &r->off[LAT_FN_OFF_IRQS]);
	stretch_json(j, "preempt_off", t, r, &r->off[LAT_FN_OFF_PREEMPT]);
	stretch_json(j, "irqs_or_preempt_off", t, r, &r->off[LAT_FN_OFF_EITHER]);
	if (r->has_wakeup) {
		lat_json_obj_open(j, "wakeup");
		entry_ref(j, "entry", t, r, r->wake_entry);
		lat_json_int(j, "to_end_ns", r->wake_to_end_ns);
		lat_json_int(j, "to_last_entry_ns", r->wake_to_last_ns);
		lat_json_obj_close(j);
	} else {
		lat_json_null(j, "wakeup");
	}
	lat_json_obj_close(j);
}

static void repeats_json(struct lat_json *j, const struct lat_fntrace *t,
			 const struct lat_fntrace_result *r)
{
	lat_json_arr_open(j, "repeats");
	for (size_t i = 0; i < top(r, r->nrep); i++) {
		const struct lat_fn_repeat *rp = &r->rep[i];
		size_t last = rp->first + rp->period * rp->count - 1;

		lat_json_obj_open(j, NULL);
		lat_json_str(j, "caller", rp->caller);
		lat_json_arr_open(j, "sequence");
		for (size_t k = 0; k < rp->period; k++)
			lat_json_str(j, NULL, lat_fn_entry_label(&t->e[rp->first + k]));
		lat_json_arr_close(j);
		lat_json_uint(j, "count", rp->count);
		lat_json_uint(j, "entries", rp->period * rp->count);
		lat_json_int(j, "time_ns", rp->time_ns);
		lat_json_uint(j, "first_line", t->e[rp->first].line);
		lat_json_uint(j, "last_line", t->e[last].line);
		lat_json_obj_close(j);
	}
	lat_json_arr_close(j);
}

static void cross_checks_json(struct lat_json *j, const struct lat_fntrace_result *r)
{
	lat_json_obj_open(j, "cross_checks");
	lat_json_uint(j, "delays_checked", r->delay_checked);
	lat_json_uint(j, "delays_disagreeing", r->delay_mismatch);
	lat_json_str(j, "delay_column", r->delay_since_prev ? "since-previous" : "to-next");
	lat_json_uint(j, "markers_checked", r->mark_checked);
	lat_json_uint(j, "markers_disagreeing", r->mark_mismatch);
	lat_json_obj_close(j);
}

static void stack_json(struct lat_json *j, const struct lat_fntrace *t)
{
	lat_json_arr_open(j, "stack");
	for (size_t i = 0; i < t->nstack; i++)
		lat_json_str(j, NULL, t->stack[i]);
	lat_json_arr_close(j);
}

/* Text a poster typed after entries ("<== hmmm"), in input order. */
static void notes_json(struct lat_json *j, const struct lat_fntrace *t)
{
	lat_json_arr_open(j, "notes");
	for (size_t i = 0; i < t->n; i++) {
		if (!t->e[i].note)
			continue;
		lat_json_obj_open(j, NULL);
		lat_json_uint(j, "line", t->e[i].line);
		lat_json_str(j, "entry", lat_fn_entry_label(&t->e[i]));
		lat_json_str(j, "text", t->e[i].note);
		lat_json_obj_close(j);
	}
	lat_json_arr_close(j);
}

void rp_report_fntrace_json(struct lat_json *j, const struct lat_block *b)
{
	const struct lat_fntrace *t = b->fntrace;
	const struct lat_fntrace_result *r = b->analysis;

	if (!t)
		return;
	header_json(j, t);
	if (!r)
		return;
	clock_json(j, r);
	coverage_json(j, t, r);
	blame_json(j, r);
	critical_path_json(j, t, r);
	repeats_json(j, t, r);
	cross_checks_json(j, r);
	stack_json(j, t);
	notes_json(j, t);
}

static const char *dur(int64_t ns, char *buf, size_t len)
{
	return lat_fmt_duration(ns, buf, len);
}

static void safe(FILE *out, const char *s)
{
	if (s)
		lat_fput_safe(out, s, strlen(s));
	else
		fputs("?", out);
}

static void safe_or_unknown(FILE *out, const char *s)
{
	if (s)
		lat_fput_safe(out, s, strlen(s));
	else
		fputs("unknown", out);
}

/* "%d" of @v, or "unknown" when it is @none. */
static const char *num_or_unknown(int64_t v, int64_t none, char *buf, size_t len)
{
	if (v == none)
		return "unknown";
	snprintf(buf, len, "%lld", (long long)v);
	return buf;
}

static void header_text(FILE *out, const struct lat_fntrace *t)
{
	char d1[32], n1[24], n2[24], n3[24];

	fputs("  tracer ", out);
	if (!t->tracer && !t->version) {
		fputs("unknown (no header)", out);
	} else {
		safe_or_unknown(out, t->tracer);
		fputs(" ", out);
		safe_or_unknown(out, t->version);
		fputs(" on ", out);
		safe_or_unknown(out, t->kernel);
	}
	fprintf(out, ": latency %s, CPU %s, task ", t->latency_ns >= 0 ?
		dur(t->latency_ns, d1, sizeof(d1)) : "unknown",
		num_or_unknown(t->cpu, -1, n1, sizeof(n1)));
	if (!t->task_comm && t->task_pid < 0) {
		fputs("unknown", out);
	} else {
		safe_or_unknown(out, t->task_comm);
		fprintf(out, " (pid %s)", num_or_unknown(t->task_pid, -1, n1, sizeof(n1)));
	}
	fprintf(out, " (policy %s, rt_prio %s)\n",
		num_or_unknown(t->task_policy, LAT_FN_NONE, n2, sizeof(n2)),
		num_or_unknown(t->task_rt_prio, LAT_FN_NONE, n3, sizeof(n3)));
	if (t->started_at || t->ended_at) {
		fputs("  started at ", out);
		safe_or_unknown(out, t->started_at);
		fputs(", ended at ", out);
		safe_or_unknown(out, t->ended_at);
		fputc('\n', out);
	}
}

#define TEXT_NOTES 10

/* "notes after entries:", as for loop-log rows (report/loop.c). */
static void notes_text(FILE *out, const struct lat_fntrace *t)
{
	size_t shown = 0, all = 0;

	for (size_t i = 0; i < t->n; i++)
		all += t->e[i].note != NULL;
	if (!all)
		return;
	fputs("  notes after entries:\n", out);
	for (size_t i = 0; i < t->n && shown < TEXT_NOTES; i++) {
		if (!t->e[i].note)
			continue;
		fprintf(out, "    line %u (", t->e[i].line);
		safe(out, lat_fn_entry_label(&t->e[i]));
		fputs("): ", out);
		safe(out, t->e[i].note);
		fputc('\n', out);
		shown++;
	}
	if (all > shown)
		fprintf(out, "    ... %zu more (--json lists every note)\n", all - shown);
}

void rp_report_fntrace_text(FILE *out, const struct lat_block *b)
{
	const struct lat_fntrace *t = b->fntrace;
	const struct lat_fntrace_result *r = b->analysis;
	char d1[32], d2[32], n1[24], n2[24];

	if (!t || !r)
		return;
	header_text(out, t);
	fprintf(out, "  entries: %zu present of %s announced (%s logged); they cover %s",
		t->n, num_or_unknown(t->entries_shown, -1, n1, sizeof(n1)),
		num_or_unknown(t->entries_total, -1, n2, sizeof(n2)),
		dur(r->covered_ns, d1, sizeof(d1)));
	if (r->covered_pct >= 0)
		fprintf(out, " = %.1f%% of the latency", r->covered_pct);
	fprintf(out, "; times from %s", r->time_source);
	if (r->cycles_per_us > 0)
		fprintf(out, " at %.1f cycles/us (%.2f..%.2f)", r->cycles_per_us,
			r->cycles_per_us_min, r->cycles_per_us_max);
	fputc('\n', out);

	if (r->nfn)
		fprintf(out, "  %-40s %10s %10s %7s %7s\n", "function (self time)", "self",
			"total", "calls", "share");
	for (size_t i = 0; i < top(r, r->nfn); i++) {
		const struct lat_fn_blame *f = &r->fn[i];

		fputs("  ", out);
		rp_report_cell(out, f->function, 40);
		fprintf(out, " %10s %10s %7llu %6.1f%%\n", dur(f->self_ns, d1, sizeof(d1)),
			dur(f->total_ns, d2, sizeof(d2)), (unsigned long long)f->calls,
			f->share_pct);
	}
	for (int w = 0; w < LAT_FN_OFF_N; w++) {
		const struct lat_fn_stretch *s = &r->off[w];

		if (!s->found)
			continue;
		fprintf(out, "  longest %s: %s%s from line %u (",
			lat_fn_off_name((enum lat_fn_off_what)w),
			s->open ? ">= " : "", dur(s->duration_ns, d1, sizeof(d1)),
			t->e[s->first].line);
		safe(out, lat_fn_entry_label(&t->e[s->first]));
		fprintf(out, ") to line %u%s\n", t->e[s->open ? s->end - 1 : s->end].line,
			s->open ? " (still off there)" : "");
	}
	if (r->has_wakeup) {
		fprintf(out, "  wakeup at %s (line %u, ", dur(r->wake_ns, d1, sizeof(d1)),
			t->e[r->wake_entry].line);
		safe(out, lat_fn_entry_label(&t->e[r->wake_entry]));
		fprintf(out, "), %s to the end of the window\n",
			dur(r->wake_to_end_ns, d2, sizeof(d2)));
	}
	for (size_t i = 0; i < top(r, r->nrep); i++) {
		const struct lat_fn_repeat *rp = &r->rep[i];

		fprintf(out, "  x%-4zu %10s  ", rp->count, dur(rp->time_ns, d1, sizeof(d1)));
		if (rp->caller) {
			safe(out, rp->caller);
			fputs(" -> ", out);
		}
		for (size_t k = 0; k < rp->period; k++) {
			fputs(k ? " -> " : "", out);
			safe(out, lat_fn_entry_label(&t->e[rp->first + k]));
		}
		fprintf(out, "  (lines %u-%u)\n", t->e[rp->first].line,
			t->e[rp->first + rp->period * rp->count - 1].line);
	}
	notes_text(out, t);
}
