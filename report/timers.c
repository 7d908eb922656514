// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel-side timer latency (latscope/an_timer.h, docs/timers.md): per CPU the
 * irq latency of the hrtimers, per woken thread its latency from its timer's
 * expiry to its run, the worst of both with what delayed them.  A woken
 * thread's wait is the wakeup analysis' own: its verdict is referenced, never
 * judged again.  JSON keys: docs/json-wakeup.md, "timers".  Nothing when the
 * trace has no hrtimer event.
 */
#include <inttypes.h>
#include <string.h>

#include "latscope/an_wakeup.h"
#include "latscope/export.h"
#include "report_priv.h"

static const struct lat_timer_result *timers_of(const struct lat_block *b)
{
	const struct lat_wakeup_result *r = b->analysis;

	return r ? r->timers : NULL;
}

/* The worst wakeup case that is sample @s's wait, or -1. */
static long case_of(const struct lat_wakeup_result *r, const struct lat_timer_sample *s)
{
	if (s->running)
		return -1;
	for (size_t i = 0; i < r->nworst; i++)
		if (r->worst[i].pid == s->pid && r->worst[i].start_ns == s->wait_start_ns)
			return (long)i;
	return -1;
}

/* The verdict of sample @s's wait: its worst case's, else the one given at its end. */
static int verdict_of(const struct lat_wakeup_result *r, const struct lat_timer_sample *s)
{
	long c = case_of(r, s);

	return c >= 0 ? (int)r->worst[c].verdict.kind : s->verdict;
}

/* ---- JSON ------------------------------------------------------------------------------- */

static void hex_json(struct lat_json *j, const char *key, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	lat_json_str(j, key, buf);
}

static void expiry_json(struct lat_json *j, const struct lat_tgids *tg, const char *key,
			const struct lat_timer_expiry *x)
{
	lat_json_obj_open(j, key);
	lat_json_int(j, "cpu", x->cpu);
	lat_json_str(j, "function", x->function[0] ? x->function : NULL);
	hex_json(j, "hrtimer", x->hrtimer);
	lat_json_uint(j, "expiry_ns", x->expiry_ns);
	lat_json_uint(j, "entry_ns", x->entry_ns);
	lat_json_int(j, "irq_ns", x->irq_ns);
	lat_json_int(j, "armed_tid", x->armed_pid);
	lat_json_str(j, "armed_comm", x->armed_comm);
	lat_json_obj_open(j, "delay");
	rp_json_task(j, tg, x->delay.pid);
	lat_json_str(j, "comm", x->delay.pid >= 0 ? x->delay.comm : NULL);
	if (x->delay.silent_from_ns) {
		lat_json_uint(j, "silent_from_ns", x->delay.silent_from_ns);
		lat_json_uint(j, "silent_to_ns", x->delay.silent_to_ns);
	} else {
		lat_json_null(j, "silent_from_ns");
		lat_json_null(j, "silent_to_ns");
	}
	lat_json_int(j, "stall_ns", x->delay.stall_ns);
	lat_json_obj_close(j);
	lat_json_obj_close(j);
}

static void sample_json(struct lat_json *j, const struct lat_tgids *tg,
			const struct lat_wakeup_result *r, const struct lat_timer_sample *s)
{
	long c = case_of(r, s);
	int v = verdict_of(r, s);

	lat_json_obj_open(j, NULL);
	rp_json_task(j, tg, s->pid);
	lat_json_str(j, "comm", s->comm);
	lat_json_int(j, "prio", s->prio);
	lat_json_int(j, "cpu", s->cpu);
	lat_json_int(j, "latency_ns", s->latency_ns);
	lat_json_int(j, "irq_ns", s->x.irq_ns);
	lat_json_int(j, "callback_ns", s->callback_ns);
	lat_json_int(j, "wait_ns", s->wait_ns);
	lat_json_uint(j, "waking_ns", s->waking_ns);
	lat_json_uint(j, "end_ns", s->end_ns);
	lat_json_bool(j, "running", s->running);
	lat_json_bool(j, "inferred_end", s->inferred);
	lat_json_bool(j, "low_trust", s->low_trust);
	lat_json_uint(j, "end_low_ns", s->end_low_ns);
	expiry_json(j, tg, "timer", &s->x);
	if (s->running) {
		lat_json_null(j, "wait");
	} else {
		lat_json_obj_open(j, "wait");
		lat_json_uint(j, "start_ns", s->wait_start_ns);
		lat_json_uint(j, "end_ns", s->end_ns);
		lat_json_str(j, "verdict", v >= 0 ? lat_verdict_name((enum lat_verdict_kind)v) :
			     NULL);
		if (c >= 0)
			lat_json_uint(j, "worst_index", (uint64_t)c);
		else
			lat_json_null(j, "worst_index");
		lat_json_obj_close(j);
	}
	lat_json_obj_close(j);
}

static void cpus_json(struct lat_json *j, const struct lat_timer_result *t)
{
	int64_t lo, hi;

	lat_json_arr_open(j, "cpus");
	for (size_t i = 0; i < t->ncpus; i++) {
		const struct lat_timer_cpu *c = &t->cpus[i];

		lat_json_obj_open(j, NULL);
		lat_json_int(j, "cpu", c->cpu);
		rp_report_stat_json(j, &c->irq);
		lat_json_uint(j, "early", c->early);
		lat_json_arr_open(j, "hist");	/* [lo_ns, count] of the non-empty buckets */
		for (size_t k = 0; k < LAT_WAKE_HIST_N; k++) {
			if (!c->b[k])
				continue;
			lat_wake_hist_edges(k, &lo, &hi);
			lat_json_arr_open(j, NULL);
			lat_json_int(j, NULL, lo);
			lat_json_uint(j, NULL, c->b[k]);
			lat_json_arr_close(j);
		}
		lat_json_arr_close(j);
		lat_json_obj_close(j);
	}
	lat_json_arr_close(j);
}

static void threads_json(struct lat_json *j, const struct lat_tgids *tg,
			 const struct lat_timer_result *t)
{
	lat_json_arr_open(j, "threads");
	for (size_t i = 0; i < t->nthreads; i++) {
		const struct lat_timer_thread *h = &t->threads[i];

		lat_json_obj_open(j, NULL);
		rp_json_task(j, tg, h->pid);
		lat_json_str(j, "comm", h->comm);
		lat_json_int(j, "prio", h->prio);
		lat_json_str(j, "function", h->function[0] ? h->function : NULL);
		rp_report_stat_json(j, &h->lat);
		lat_json_uint(j, "running", h->running);
		lat_json_uint(j, "untrusted", h->untrusted);
		lat_json_uint(j, "low_trust", h->low_trust);
		lat_json_int(j, "max_irq_ns", h->max_irq_ns);
		lat_json_uint(j, "max_end_ns", h->max_end_ns);
		lat_json_obj_close(j);
	}
	lat_json_arr_close(j);
}

void rp_report_timers_json(struct lat_json *j, const struct lat_block *b)
{
	const struct lat_timer_result *t = timers_of(b);
	const struct lat_tgids *tg;

	if (!t)
		return;
	tg = rp_tgids(b);	/* damaged: said in wakeup.pid_source */
	lat_json_obj_open(j, "timers");
	lat_json_uint(j, "starts", t->starts);
	lat_json_uint(j, "cancels", t->cancels);
	lat_json_uint(j, "entries", t->entries);
	lat_json_uint(j, "measured", t->measured);
	lat_json_uint(j, "unarmed", t->unarmed);
	lat_json_uint(j, "untrusted", t->untrusted);
	lat_json_uint(j, "early", t->early);
	lat_json_uint(j, "dropped", t->dropped);
	lat_json_uint(j, "wakes", t->wakes);
	lat_json_uint(j, "unmatched", t->unmatched);
	lat_json_uint(j, "wakes_dropped", t->wakes_dropped);
	lat_json_obj_open(j, "irq");
	rp_report_stat_json(j, &t->irq);
	lat_json_obj_close(j);
	cpus_json(j, t);
	threads_json(j, tg, t);
	lat_json_arr_open(j, "worst");
	for (size_t i = 0; i < t->nworst; i++)
		sample_json(j, tg, b->analysis, &t->worst[i]);
	lat_json_arr_close(j);
	lat_json_arr_open(j, "worst_irq");
	for (size_t i = 0; i < t->nworst_irq; i++)
		expiry_json(j, tg, NULL, &t->worst_irq[i]);
	lat_json_arr_close(j);
	lat_json_obj_close(j);
}

/* ---- text ------------------------------------------------------------------------------- */

static const char *dur(int64_t ns, char *buf)
{
	return lat_fmt_duration(ns, buf, 32);
}

static void stat_row(FILE *out, const struct lat_wake_stat *s)
{
	char b[6][32];

	fprintf(out, " %7" PRIu64 " %10s %10s %10s %10s %10s", s->n, dur(s->min, b[0]),
		dur((int64_t)(s->avg + 0.5), b[1]), dur(s->p50, b[2]), dur(s->p99, b[3]),
		dur(s->max, b[4]));
}

/* Why a callback ran late: the CPU's silence, the stall, who ran at the expiry. */
static void delay_text(FILE *out, const struct lat_timer_expiry *x)
{
	char d[32], t[40], t2[40];

	if (x->delay.silent_from_ns)
		fprintf(out, "; CPU%d logged nothing from %s until the interrupt at %s (%s)",
			x->cpu, lat_fmt_trace_ts(x->delay.silent_from_ns, t, sizeof(t)),
			lat_fmt_trace_ts(x->delay.silent_to_ns, t2, sizeof(t2)),
			dur((int64_t)(x->delay.silent_to_ns - x->delay.silent_from_ns), d));
	if (x->delay.stall_ns)
		fprintf(out, ", %s of it in a stall", dur(x->delay.stall_ns, d));
	if (x->delay.pid >= 0) {
		fputs("; at the expiry CPU", out);
		fprintf(out, "%d ran ", x->cpu);
		rp_report_who(out, x->delay.comm, x->delay.pid);
	}
}

static void expiry_text(FILE *out, size_t i, const struct lat_timer_expiry *x)
{
	char d[32], t[40];

	fprintf(out, "  %zu. CPU%d %s: ", i + 1, x->cpu,
		lat_fmt_trace_ts(x->expiry_ns, t, sizeof(t)));
	lat_fput_safe(out, x->function[0] ? x->function : "?",
		      strnlen(x->function[0] ? x->function : "?", LAT_TIMER_FN_LEN));
	fprintf(out, " ran %s late (armed by ", dur(x->irq_ns, d));
	rp_report_who(out, x->armed_comm, x->armed_pid);
	fputc(')', out);
	delay_text(out, x);
	fputc('\n', out);
}

/* The wait part of @s: the wakeup analysis' wait, its verdict, its worst case. */
static void wait_text(FILE *out, const struct lat_wakeup_result *r,
		      const struct lat_timer_sample *s, const struct lat_analyze_opts *o)
{
	long c = case_of(r, s);
	int v = verdict_of(r, s);
	char d[32], ev[LAT_VERDICT_TEXT_LEN];

	fprintf(out, " + wait %s on CPU%d", dur(s->wait_ns, d), s->cpu);
	if (s->inferred)
		fputs(" (its switch in was not recorded: counted to its own first event)", out);
	if (c >= 0) {
		lat_report_verdict_text(&r->worst[c], ev, sizeof(ev));
		fprintf(out, "\n       the wait is worst wakeup %ld: %s: ", c + 1,
			lat_verdict_name((enum lat_verdict_kind)v));
		lat_fput_safe(out, ev, strlen(ev));
	} else if (v >= 0) {
		fprintf(out, "\n       the wait's verdict: %s",
			lat_verdict_name((enum lat_verdict_kind)v));
	} else if (s->wait_ns > 0) {
		fprintf(out, "\n       the wait was not judged (below --threshold %s)",
			dur(o ? o->threshold_ns : 0, d));
	}
}

static void sample_text(FILE *out, const struct lat_wakeup_result *r, size_t i,
			const struct lat_timer_sample *s, const struct lat_analyze_opts *o)
{
	char d[3][32], t[40], cls[40];

	fprintf(out, "  %zu. ", i + 1);
	rp_report_who(out, s->comm, s->pid);
	lat_sched_class_fmt(s->prio, cls, sizeof(cls));
	if (cls[0])
		fprintf(out, " %s", cls);
	fprintf(out, " ran %s after its timer's expiry at %s (", dur(s->latency_ns, d[0]),
		lat_fmt_trace_ts(s->x.expiry_ns, t, sizeof(t)));
	lat_fput_safe(out, s->x.function[0] ? s->x.function : "?",
		      strnlen(s->x.function[0] ? s->x.function : "?", LAT_TIMER_FN_LEN));
	fprintf(out, " on CPU%d)\n     = irq %s", s->x.cpu, dur(s->x.irq_ns, d[0]));
	delay_text(out, &s->x);
	fprintf(out, "\n     + callback %s", dur(s->callback_ns, d[1]));
	if (s->running)
		fputs(" (it was still on a CPU: no wait)", out);
	else
		wait_text(out, r, s, o);
	fputc('\n', out);
}

static void tables_text(FILE *out, const struct lat_timer_result *t)
{
	char cls[40], d[32];
	uint64_t low = 0;

	fprintf(out, "\n  hrtimer irq latency (the callback's now - the expiry hrtimer_start "
		"armed):\n  %-16s %7s %10s %10s %10s %10s %10s %7s\n", "cpu", "count", "min", "avg",
		"p50", "p99", "max", "early");
	for (size_t i = 0; i < t->ncpus; i++) {
		fprintf(out, "  CPU%-13d", t->cpus[i].cpu);
		stat_row(out, &t->cpus[i].irq);
		fprintf(out, " %7" PRIu64 "\n", t->cpus[i].early);
	}
	fprintf(out, "  %-16s", "all");
	stat_row(out, &t->irq);
	fprintf(out, " %7" PRIu64 "\n", t->early);
	if (!t->nthreads)
		return;
	fprintf(out, "\n  thread latency of the threads timers woke (switch in - expiry, as "
		"cyclictest and timerlat measure):\n  %-16s %7s %-16s %7s %10s %10s %10s %10s "
		"%10s %10s\n", "thread", "pid", "class", "count", "min", "avg", "p50", "p99", "max",
		"max's irq");
	for (size_t i = 0; i < t->nthreads; i++) {
		const struct lat_timer_thread *h = &t->threads[i];

		fputs("  ", out);
		rp_report_cell(out, h->comm, 16);
		lat_sched_class_fmt(h->prio, cls, sizeof(cls));
		fprintf(out, " %7d %-16s", h->pid, cls);
		stat_row(out, &h->lat);
		fprintf(out, " %10s\n", dur(h->max_irq_ns, d));
		low += h->low_trust;
	}
	if (low)
		fprintf(out, "  (%" PRIu64 " sample%s of waits of low trust, on a CPU whose events "
			"are incomplete: in the table, not among the worst below)\n", low,
			low == 1 ? "" : "s");
}

void rp_report_timers_text(FILE *out, const struct lat_block *b, const struct lat_analyze_opts *o)
{
	const struct lat_timer_result *t = timers_of(b);

	if (!t)
		return;
	fprintf(out, "\n  hrtimers (docs/timers.md): %" PRIu64 " expiries, %" PRIu64 " measured "
		"(their hrtimer_start recorded), %" PRIu64 " armed before the trace or unseen, "
		"%" PRIu64 " after lost events; %" PRIu64 " thread wakes\n", t->entries,
		t->measured, t->unarmed, t->untrusted, t->wakes);
	if (!t->measured) {
		if (t->entries && !t->starts)
			fputs("  (record timer:hrtimer_start too: latscope record "
			      "--timer-detail)\n", out);
		return;
	}
	tables_text(out, t);
	if (t->nworst) {
		fputs("\n  worst thread latencies (irq: expiry to callback; callback: to the "
		      "waking; wait: the wakeup wait):\n", out);
		for (size_t i = 0; i < t->nworst; i++)
			sample_text(out, b->analysis, i, &t->worst[i], o);
	}
	fputs("\n  worst hrtimer irq latencies (one per interrupt):\n", out);
	for (size_t i = 0; i < t->nworst_irq; i++)
		expiry_text(out, i, &t->worst_irq[i]);
}
