// SPDX-License-Identifier: GPL-2.0-or-later
/* Public entry points of the renderer and the per-block dispatcher. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latscope/an_fntrace.h"
#include "latscope/an_histogram.h"
#include "latscope/an_loop.h"
#include "latscope/an_wakeup.h"
#include "latscope/fntrace.h"
#include "latscope/report.h"
#include "render_priv.h"
#include "smap.h"

int lat_render_series(const struct lat_block *b, const struct lat_loop_result *r,
		      const struct lat_render_opts *o, struct lat_render_buf *out)
{
	struct rd_series_input in = { b, r };

	return rd_chart_run(&rd_series_ops, &in, o, out);
}

int lat_render_histogram(struct lat_histogram *const *h, size_t n, const char *title,
			 const struct lat_render_opts *o, struct lat_render_buf *out)
{
	struct rd_hist_input in = { h, n, title, NULL, NULL, NULL, 0, NULL };

	return rd_hist_chart(&in, o, out);
}

int lat_render_cpus(const struct lat_block *b, const struct lat_render_opts *o,
		    struct lat_render_buf *out)
{
	return rd_chart_run(&rd_cpus_ops, b, o, out);
}

int lat_render_timeline(const struct lat_timeline *t, const struct lat_render_opts *o,
			struct lat_render_buf *out)
{
	return rd_chart_run(&rd_timeline_ops, t, o, out);
}

int lat_render_blame(const struct lat_blame_row *rows, size_t n, uint64_t whole_ns,
		     const char *title, const struct lat_render_opts *o,
		     struct lat_render_buf *out)
{
	struct rd_blame_input in = { rows, n, whole_ns, title };

	return rd_chart_run(&rd_blame_ops, &in, o, out);
}

/*
 * What the analysis says of the case the timeline is about (worst[@idx]): its
 * verdict in the headline, and the stalls in the window as LAT_TL_STALL marks
 * (the machine-wide and per-CPU stalls the analysis kept).
 */
int rd_tl_add_case(struct lat_timeline *tl, const struct lat_wakeup_result *r, size_t idx)
{
	size_t n = 0;
	struct lat_tl_mark *m;

	if (idx < r->nworst && r->worst[idx].verdict.kind != LAT_VERDICT_NONE) {
		const struct lat_wake_verdict *v = &r->worst[idx].verdict;
		char buf[512], ev[LAT_VERDICT_TEXT_LEN];

		/*
		 * the verdict first: a headline too long wraps, and is only cut
		 * (at its end) as a last resort, never in "kind (share%)"
		 */
		int head = snprintf(buf, sizeof(buf), "%s (%.0f%%)", lat_verdict_name(v->kind),
				    100 * v->share);

		snprintf(buf + head, sizeof(buf) - (size_t)head, ": %s \xc2\xb7 %s",
			 lat_report_verdict_text(&r->worst[idx], ev, sizeof(ev)), tl->title);
		snprintf(tl->title, sizeof(tl->title), "%.*s", (int)sizeof(tl->title) - 1, buf);
		tl->title_keep = (size_t)head;
	}
	for (size_t i = 0; i < r->nstalls; i++)
		n += r->stalls[i].to_ns > tl->start_ns && r->stalls[i].from_ns < tl->end_ns;
	if (!n)
		return 0;
	m = realloc(tl->marks, (tl->nmarks + n) * sizeof(*m));
	if (!m)
		return -LAT_ENOMEM;
	tl->marks = m;
	for (size_t i = 0; i < r->nstalls; i++) {
		const struct lat_wake_stall *s = &r->stalls[i];

		if (s->to_ns <= tl->start_ns || s->from_ns >= tl->end_ns)
			continue;
		m = &tl->marks[tl->nmarks++];
		memset(m, 0, sizeof(*m));
		m->kind = LAT_TL_STALL;
		m->start_ns = s->from_ns;
		m->end_ns = s->to_ns;
		m->cpu = s->cpu;
		m->other_cpu = -1;
		m->pid = s->pid;
		m->value_ns = (int64_t)(s->to_ns - s->from_ns);
	}
	return 0;
}

/*
 * The timeline of worst case o->case_idx the analysis captured (the worst, or the --task's
 * when the analysis selected it).
 */
static int render_events(const struct lat_block *b, const struct lat_render_opts *o,
			 struct lat_render_buf *out)
{
	struct lat_timeline *tl = NULL;
	int ret;

	if (b->schema != LAT_SCHEMA_EVENTS)
		return rd_render_smap(b, o, out);
	if (!b->analysis) {
		snprintf(out->msg, sizeof(out->msg), "the wakeup analysis did not run on this "
			 "block");
		return -LAT_EEMPTY;
	}
	ret = lat_wakeup_timeline(b, o->case_idx, &tl);
	if (ret == -LAT_EEMPTY) {
		const struct lat_wakeup_result *r = b->analysis;

		if (!o->task && !r->waits && !r->preempt_waits && r->nmslices)
			return rd_render_mslices(b, o, out);
		if (!o->task && !r->waits && !r->preempt_waits)
			snprintf(out->msg, sizeof(out->msg), "%llu event%s and no wakeup or "
				 "preemption wait among them: no timeline to draw",
				 (unsigned long long)r->nevents, PLURAL(r->nevents));
		else if (r->low_trust_waits && !r->nworst)
			snprintf(out->msg, sizeof(out->msg), "no trusted wakeup in this trace%s "
				 "to draw a timeline around: %llu wait%s ended on a CPU whose "
				 "events are incomplete (--include-untrusted draws them)",
				 o->task ? " for --task" : "",
				 (unsigned long long)r->low_trust_waits, PLURAL(r->low_trust_waits));
		else
			snprintf(out->msg, sizeof(out->msg), "no wakeup in this trace%s to draw a "
				 "timeline around", o->task ? " for --task" : "");
		return ret;
	}
	if (ret < 0) {
		snprintf(out->msg, sizeof(out->msg), "timeline: %s", lat_strerror(ret));
		return ret;
	}
	if (!tl->title[0] && b->title)
		snprintf(tl->title, sizeof(tl->title), "%s", b->title);
	ret = rd_tl_add_case(tl, b->analysis, o->case_idx);
	if (!ret)
		ret = lat_render_timeline(tl, o, out);
	else
		snprintf(out->msg, sizeof(out->msg), "out of memory");
	lat_timeline_free(tl);
	return ret;
}

/*
 * A latency trace pasted without its entries (the header only): the latency
 * the header states, as one bar blamed on nothing, the entries announced and
 * where the section started and ended in the title.
 */
static int render_header_only(const struct lat_block *b, const struct lat_render_opts *o,
			      struct lat_render_buf *out)
{
	const struct lat_fntrace *f = b->fntrace;
	struct lat_blame_row row = { .total_ns = (uint64_t)f->latency_ns,
				     .self_ns = (uint64_t)f->latency_ns };
	char name[96], title[300], ents[48] = "";

	if (f->entries_total >= 0)
		snprintf(ents, sizeof(ents), " of the %lld announced",
			 (long long)f->entries_total);
	snprintf(name, sizeof(name), "not in the input (no entry%s)", ents);
	row.name = name;
	snprintf(title, sizeof(title), "%s%sheader only: latency from %s to %s",
		 b->title ? b->title : "", b->title ? " \xc2\xb7 " : "",
		 f->started_at ? f->started_at : "?", f->ended_at ? f->ended_at : "?");
	return lat_render_blame(&row, 1, row.self_ns, title, o, out);
}

/* The top functions of a function-trace dump by self time. */
static int render_fntrace(const struct lat_block *b, const struct lat_render_opts *o,
			  struct lat_render_buf *out)
{
	const struct lat_fntrace_result *r = b->analysis;
	struct lat_blame_row *rows;
	size_t n;
	int ret;

	if (r && !r->nfn && b->fntrace && b->fntrace->latency_ns > 0)
		return render_header_only(b, o, out);
	if (!r || !r->nfn) {
		snprintf(out->msg, sizeof(out->msg), "the function-trace analysis found no "
			 "function to blame");
		return -LAT_EEMPTY;
	}
	n = r->top_n > 0 && (size_t)r->top_n < r->nfn ? (size_t)r->top_n : r->nfn;
	rows = calloc(n, sizeof(*rows));
	if (!rows) {
		snprintf(out->msg, sizeof(out->msg), "out of memory");
		return -LAT_ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		rows[i].name = r->fn[i].function;
		rows[i].self_ns = r->fn[i].self_ns > 0 ? (uint64_t)r->fn[i].self_ns : 0;
		rows[i].total_ns = r->fn[i].total_ns > 0 ? (uint64_t)r->fn[i].total_ns : 0;
		rows[i].calls = r->fn[i].calls;
	}
	{
		char title[200];

		snprintf(title, sizeof(title), "%s%stop %zu of %zu function%s by self time",
			 b->title ? b->title : "", b->title ? " \xc2\xb7 " : "", n, r->nfn,
			 PLURAL(r->nfn));
		ret = lat_render_blame(rows, n, r->window_ns > 0 ? (uint64_t)r->window_ns : 0,
				       title, o, out);
	}
	free(rows);
	return ret;
}

static int draw_series(const struct lat_block *b, const struct lat_render_opts *o,
		       struct lat_render_buf *out)
{
	return lat_render_series(b, b->analysis, o, out);
}

static int draw_histogram(const struct lat_block *b, const struct lat_render_opts *o,
			  struct lat_render_buf *out)
{
	const struct lat_hist_result *r = b->schema == LAT_SCHEMA_HISTOGRAM ? b->analysis : NULL;
	struct rd_hist_input in = { b->hist, b->nhist, b->title, NULL, NULL, NULL, 0, NULL };

	if (b->schema == LAT_SCHEMA_EVENTS)
		return rd_render_wakeup_hist(b, o, out);
	/* the percentiles of the histogram analysis, not found again */
	if (r && r->n == b->nhist)
		in.stats = r->stats;
	return rd_hist_chart(&in, o, out);
}

static bool fits_loop(const struct lat_block *b)
{
	return b->schema == LAT_SCHEMA_LOOP;
}

static bool fits_hist(const struct lat_block *b)
{
	return b->nhist > 0 || b->schema == LAT_SCHEMA_EVENTS;
}

static bool fits_cpus(const struct lat_block *b)
{
	return b->schema == LAT_SCHEMA_SCHEDCNT || b->schema == LAT_SCHEMA_EVENTS;
}

static int draw_cpus(const struct lat_block *b, const struct lat_render_opts *o,
		     struct lat_render_buf *out)
{
	if (b->schema == LAT_SCHEMA_EVENTS)
		return rd_render_lanes(b, o, out);
	return lat_render_cpus(b, o, out);
}

static bool fits_events(const struct lat_block *b)
{
	return b->schema == LAT_SCHEMA_EVENTS;
}

/* An event trace, or a perf sched map (who ran where: render/schedmap.c) */
static bool fits_timeline(const struct lat_block *b)
{
	return fits_events(b) || rd_smap_series(b, "cpu0");
}

static bool fits_fntrace(const struct lat_block *b)
{
	return b->schema == LAT_SCHEMA_FNTRACE || b->schema == LAT_SCHEMA_EVENTS;
}

static int draw_blame(const struct lat_block *b, const struct lat_render_opts *o,
		      struct lat_render_buf *out)
{
	if (b->schema == LAT_SCHEMA_EVENTS)
		return rd_render_stacks(b, o, out);
	return render_fntrace(b, o, out);
}

/* Per chart: which blocks it fits, and how it is drawn from them. */
static const struct {
	bool (*fits)(const struct lat_block *b);
	int (*draw)(const struct lat_block *b, const struct lat_render_opts *o,
		    struct lat_render_buf *out);
} charts[LAT_CHART_NKINDS] = {
	[LAT_CHART_SERIES] = { fits_loop, draw_series },
	[LAT_CHART_HISTOGRAM] = { fits_hist, draw_histogram },
	[LAT_CHART_CPUS] = { fits_cpus, draw_cpus },
	[LAT_CHART_TIMELINE] = { fits_timeline, render_events },
	[LAT_CHART_BLAME] = { fits_fntrace, draw_blame },
	[LAT_CHART_PROBE] = { fits_events, rd_render_probe_hist },
};

int lat_render_block(const struct lat_block *b, const struct lat_render_opts *o,
		     struct lat_render_buf *out)
{
	enum lat_chart_kind k = o->chart == LAT_CHART_AUTO ? lat_render_pick(b) : o->chart;

	out->msg[0] = '\0';
	if ((unsigned)k < LAT_CHART_NKINDS && charts[k].fits && charts[k].fits(b))
		return charts[k].draw(b, o, out);
	if (k == LAT_CHART_AUTO) {
		snprintf(out->msg, sizeof(out->msg), "no chart for a %s", lat_schema_name(b->schema));
	} else if (k == lat_render_pick(b) && b->nfindings) {
		/* the chart this block would get, empty: what the reader found instead */
		snprintf(out->msg, sizeof(out->msg), "nothing to draw: %s",
			 b->findings[0].message);
		return -LAT_EEMPTY;
	} else
		snprintf(out->msg, sizeof(out->msg), "a %s chart does not fit this block (%s)",
			 lat_chart_name(k), lat_schema_name(b->schema));
	return -LAT_EUSAGE;
}
