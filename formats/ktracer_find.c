// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel-tracer reader's findings: the worst sample of each kind with
 * what the trace says caused it (the osnoise events inside its window, the
 * timer IRQ of the same activation, the task running), the stack printed
 * with it, osnoise's interference counters per CPU, hwlat's NMIs.  Values
 * are said in the unit the tracer printed (timerlat and the osnoise events
 * ns, osnoise rows and hwlat µs).
 */
#include <stdio.h>
#include <string.h>

#include "ktracer_priv.h"

static const char *const ctx_names[KT_NCTX] = { "IRQ", "Thread", "Ret user" };

/* "200.203445": a line's time as ftrace prints it */
static const char *ts_str(uint64_t ts_ns, char *buf, size_t len)
{
	snprintf(buf, len, "%llu.%06llu", (unsigned long long)(ts_ns / 1000000000u),
		 (unsigned long long)(ts_ns % 1000000000u / 1000u));
	return buf;
}

/* The osnoise events of the block: how many of each, the longest ones. */
static int noise_events(const struct kt_state *st, struct lat_block *b)
{
	char list[KT_TOP * 120];
	size_t n = 0;

	if (!st->n_noise)
		return 0;
	list[0] = '\0';
	for (int k = 0; k < st->nlongest && n < sizeof(list); k++) {
		const struct kt_noise_ev *e = &st->longest[k];

		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s%s%s %lld ns on cpu%d "
				      "(line %u)", k ? ", " : "", kt_noise_name(e->type),
				      e->name[0] ? " " : "", e->name, (long long)e->dur_ns,
				      (int)e->cpu, e->line);
	}
	return lat_block_add_finding(b, "noise-events", LAT_SEV_INFO,
				     "%llu osnoise events (irq_noise %llu, softirq_noise %llu, "
				     "nmi_noise %llu, thread_noise %llu); the longest: %s",
				     (unsigned long long)st->n_noise,
				     (unsigned long long)st->n_by_type[KT_NZ_IRQ],
				     (unsigned long long)st->n_by_type[KT_NZ_SOFTIRQ],
				     (unsigned long long)st->n_by_type[KT_NZ_NMI],
				     (unsigned long long)st->n_by_type[KT_NZ_THREAD], list);
}

/* "thread_noise insmod:1026 838681 ns (97.5 %, line 9), irq_noise ..." */
static void noise_list(const struct kt_worst *w, int64_t of_ns, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int k = 0; k < w->ntop && n < len; k++) {
		const struct kt_noise_ev *e = &w->top[k];

		n += (size_t)snprintf(buf + n, len - n, "%s%s%s%s %lld ns (%.1f %%, line %u)",
				      k ? ", " : "", kt_noise_name(e->type), e->name[0] ? " " : "",
				      e->name, (long long)e->dur_ns,
				      of_ns ? 100.0 * (double)e->dur_ns / (double)of_ns : 0.0,
				      e->line);
	}
}

static int culprit(struct lat_block *b, const struct kt_worst *w, const char *what)
{
	char list[KT_TOP * 120];

	if (!w->nnoise)
		return 0;
	noise_list(w, w->v_ns, list, sizeof(list));
	return lat_block_add_finding(b, "noise-culprit", LAT_SEV_INFO,
				     "%s %lld ns on cpu%d (line %u): %d osnoise event%s in its window, "
				     "%lld ns in all; the largest: %s", what, (long long)w->v_ns,
				     (int)w->cpu, w->line, w->nnoise, w->nnoise == 1 ? "" : "s",
				     (long long)w->noise_sum, list);
}

static int timerlat_findings(const struct kt_state *st, struct lat_block *b)
{
	char ts[40], what[40], irq[120];
	int ret = 0;

	for (int x = 0; x < KT_NCTX && !ret; x++) {
		const struct kt_worst *w = &st->tl[x];

		if (!w->valid)
			continue;
		snprintf(what, sizeof(what), "%s latency", ctx_names[x]);
		if (x == KT_CTX_IRQ)
			snprintf(irq, sizeof(irq), ": %s was running when the timer fired", w->who);
		else if (w->has_irq)
			snprintf(irq, sizeof(irq), "; the timer IRQ of this activation: %lld ns "
				 "(%s running)", (long long)w->irq_lat, w->irq_who);
		else
			irq[0] = '\0';
		ret = lat_block_add_finding(b, "worst-sample", LAT_SEV_INFO,
					    "%s: worst %lld ns on cpu%d at %s (activation #%llu, "
					    "line %u)%s", what, (long long)w->v_ns, (int)w->cpu,
					    ts_str(w->ts_ns, ts, sizeof(ts)),
					    (unsigned long long)w->seq, w->line, irq);
		if (!ret)
			ret = culprit(b, w, what);
		if (!ret && w->stack)
			ret = lat_block_add_finding(b, "stack", LAT_SEV_INFO,
						    "%s %lld ns on cpu%d: the stack printed with it "
						    "(line %u, %d frames, innermost first): %s", what,
						    (long long)w->v_ns, (int)w->cpu, w->stack_line,
						    w->nframes, w->stack);
	}
	return ret;
}

/* osnoise's per-CPU counters, summed over the periods, as rtla osnoise top lists them */
static int osnoise_cpus(const struct kt_state *st, struct lat_block *b)
{
	int ret = 0;

	for (size_t i = 0; i < st->ncpus && !ret; i++) {
		const struct kt_cpu *c = st->cpus[i];

		if (!c || !c->os.n)
			continue;
		ret = lat_block_add_finding(b, "osnoise", LAT_SEV_INFO,
					    "cpu%zu: %lld period%s, runtime %lld us, noise %lld us, "
					    "%% CPU available %lld.%05lld%s, max single noise %lld us, "
					    "HW %lld, NMI %lld, IRQ %lld, softirq %lld, thread %lld", i,
					    (long long)c->os.n, c->os.n == 1 ? "" : "s",
					    (long long)c->os_runtime, (long long)c->os_noise,
					    (long long)(c->os_min_avail / 100000),
					    (long long)(c->os_min_avail % 100000),
					    c->os.n == 1 ? "" : " (the lowest)",
					    (long long)(c->os.max / LAT_NS_PER_US),
					    (long long)c->os_cnt[0], (long long)c->os_cnt[1],
					    (long long)c->os_cnt[2], (long long)c->os_cnt[3],
					    (long long)c->os_cnt[4]);
	}
	return ret;
}

static int osnoise_findings(const struct kt_state *st, struct lat_block *b)
{
	const struct kt_worst *w = &st->os, *t = &st->thr;
	char ts[40];
	int ret = 0;

	if (w->valid)
		ret = lat_block_add_finding(b, "worst-sample", LAT_SEV_INFO,
					    "max single noise: worst %lld us on cpu%d at %s (line %u): "
					    "noise %lld us in a %lld us runtime, %lld.%05lld %% CPU "
					    "available; HW %lld, NMI %lld, IRQ %lld, softirq %lld, "
					    "thread %lld", (long long)w->row.u.os.single_us,
					    (int)w->cpu, ts_str(w->ts_ns, ts, sizeof(ts)), w->line,
					    (long long)w->row.u.os.noise_us,
					    (long long)w->row.u.os.runtime_us,
					    (long long)(w->row.u.os.avail / 100000),
					    (long long)(w->row.u.os.avail % 100000),
					    (long long)w->row.u.os.hw, (long long)w->row.u.os.nmi,
					    (long long)w->row.u.os.irq, (long long)w->row.u.os.sirq,
					    (long long)w->row.u.os.thread);
	if (!ret)
		ret = osnoise_cpus(st, b);
	if (!ret && t->valid)
		ret = lat_block_add_finding(b, "worst-sample", LAT_SEV_INFO,
					    "sample_threshold: worst noise %lld ns on cpu%d at %s "
					    "(line %u), %lld interference%s", (long long)t->v_ns,
					    (int)t->cpu, ts_str(t->ts_ns, ts, sizeof(ts)), t->line,
					    (long long)t->row.u.nz.interferences,
					    t->row.u.nz.interferences == 1 ? "" : "s");
	if (!ret && t->valid)
		ret = culprit(b, t, "the noise of");
	return ret;
}

static int hwlat_findings(const struct kt_state *st, struct lat_block *b)
{
	const struct kt_worst *w = &st->hw;
	char ts[40], extra[200];
	size_t n = 0;
	int ret;

	if (!w->valid)
		return 0;
	extra[0] = '\0';
	if (w->row.u.hw.count >= 0)
		n += (size_t)snprintf(extra + n, sizeof(extra) - n, ", %lld time%s above the "
				      "threshold in its window", (long long)w->row.u.hw.count,
				      w->row.u.hw.count == 1 ? "" : "s");
	if (w->row.u.hw.nmi_count > 0 && n < sizeof(extra))
		snprintf(extra + n, sizeof(extra) - n, "; an NMI came in: nmi-total %lld us, "
			 "nmi-count %lld", (long long)w->row.u.hw.nmi_total_us,
			 (long long)w->row.u.hw.nmi_count);
	ret = lat_block_add_finding(b, "worst-sample", LAT_SEV_INFO,
				    "hwlat: worst %lld us on cpu%d at %s (#%llu, line %u): inner %lld "
				    "us, outer %lld us, wall time %llu.%09llu%s",
				    (long long)(w->v_ns / LAT_NS_PER_US), (int)w->cpu,
				    ts_str(w->ts_ns, ts, sizeof(ts)), (unsigned long long)w->seq,
				    w->line, (long long)w->row.u.hw.inner_us,
				    (long long)w->row.u.hw.outer_us,
				    (unsigned long long)w->row.u.hw.wall_s,
				    (unsigned long long)w->row.u.hw.wall_ns, extra);
	if (!ret && st->hw_nmi_rows)
		ret = lat_block_add_finding(b, "hwlat-nmi", LAT_SEV_INFO,
					    "%lld of %llu windows saw NMIs (%lld in all, nmi-total "
					    "up to %lld us; the first at line %u): their gaps may be "
					    "the NMIs', not the firmware's",
					    (long long)st->hw_nmi_rows,
					    (unsigned long long)st->n_samples,
					    (long long)st->hw_nmi_count, (long long)st->hw_nmi_max_us,
					    st->hw_nmi_line);
	return ret;
}

static int other_findings(const struct kt_state *st, struct lat_block *b)
{
	char names[200];
	size_t n = 0;
	int ret = 0;

	for (int i = 0; i < st->nstop && !ret; i++)
		ret = lat_block_add_finding(b, "stop-tracing", LAT_SEV_INFO,
					    "the tracer stopped tracing on cpu %d (line %u)",
					    (int)st->stops[i].cpu, st->stops[i].line);
	if (ret || !st->n_other)
		return ret;
	names[0] = '\0';
	for (int k = 0; k < KT_OTHER_NAMES && st->other[k].n && n < sizeof(names); k++)
		n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s %llu", k ? ", " : "",
				      st->other[k].name, (unsigned long long)st->other[k].n);
	return lat_block_add_finding(b, "other-events", LAT_SEV_INFO,
				     "%llu other event%s beside the tracer's lines, not analyzed: %s",
				     (unsigned long long)st->n_other, st->n_other == 1 ? "" : "s",
				     names);
}

static int summary_note(const struct kt_state *st, enum kt_tracer tr, struct lat_block *b)
{
	static const char *const of[] = { "", "timer latency", "max single noise of each period",
					   "max(inner, outer) of each window" };
	/* hwlat writes a row only above its threshold; the other two write every period */
	static const char *const why[] = {
		"nothing reached the tracer's threshold while it ran",
		"timerlat writes every activation, so it recorded none: tracing was off or "
		"stopped before the first timer fired",
		"osnoise writes every period, so it recorded none: tracing was off or stopped "
		"before the first period ended",
		"nothing reached the tracer's threshold while it ran",
	};
	char entries[80] = "";

	if (st->n_samples)
		return lat_block_add_finding(b, "summary-counted", LAT_SEV_INFO,
					     "count, min, avg and max per CPU are counted from the "
					     "%llu row%s of the trace (the %s); the tracer prints no "
					     "summary of its own", (unsigned long long)st->n_samples,
					     st->n_samples == 1 ? "" : "s", of[tr]);
	if (st->n_thresholds)
		return lat_block_add_finding(b, "summary-counted", LAT_SEV_INFO,
					     "count, min, avg and max per CPU are counted from the "
					     "%llu sample_threshold event%s (the noise above osnoise's "
					     "tolerance)", (unsigned long long)st->n_thresholds,
					     st->n_thresholds == 1 ? "" : "s");
	if (st->n_noise)
		return 0;
	if (st->has_entries)
		snprintf(entries, sizeof(entries), " (entries-in-buffer/entries-written: %lld/%lld)",
			 st->entries[0], st->entries[1]);
	return lat_block_add_finding(b, "no-samples", LAT_SEV_INFO,
				     "no sample in this trace%s: %s", entries, why[tr]);
}

int kt_findings(const struct kt_state *st, enum kt_tracer tr, struct lat_block *b)
{
	int ret = timerlat_findings(st, b);

	if (!ret)
		ret = osnoise_findings(st, b);
	if (!ret)
		ret = hwlat_findings(st, b);
	if (!ret)
		ret = noise_events(st, b);
	if (!ret)
		ret = other_findings(st, b);
	if (!ret)
		ret = summary_note(st, tr, b);
	return ret;
}
