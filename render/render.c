// SPDX-License-Identifier: GPL-2.0-or-later
/* Public entry points of the renderer and the per-block dispatcher. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latscope/an_fntrace.h"
#include "latscope/an_loop.h"
#include "latscope/an_wakeup.h"
#include "latscope/timeline.h"
#include "render_priv.h"

static const char *const chart_names[LAT_CHART_NKINDS] = {
	[LAT_CHART_AUTO] = "auto",
	[LAT_CHART_TIMELINE] = "timeline",
	[LAT_CHART_HISTOGRAM] = "histogram",
	[LAT_CHART_SERIES] = "series",
	[LAT_CHART_BLAME] = "blame",
	[LAT_CHART_CPUS] = "cpus",
};

void lat_render_opts_init(struct lat_render_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->width = LAT_RENDER_DEFAULT_W;
	o->height = LAT_RENDER_DEFAULT_H;
	o->format = LAT_RENDER_PNG;
	o->chart = LAT_CHART_AUTO;
	o->window_end_ns = -1;
	o->worst = 5;
}

const char *lat_chart_name(enum lat_chart_kind k)
{
	return (unsigned)k < LAT_CHART_NKINDS ? chart_names[k] : "?";
}

int lat_chart_from_name(const char *name, enum lat_chart_kind *out)
{
	for (int k = 0; k < LAT_CHART_NKINDS; k++) {
		if (!strcmp(name, chart_names[k])) {
			*out = (enum lat_chart_kind)k;
			return 0;
		}
	}
	return -LAT_EUSAGE;
}

enum lat_chart_kind lat_render_pick(const struct lat_block *b)
{
	switch (b->schema) {
	case LAT_SCHEMA_LOOP:
		return LAT_CHART_SERIES;
	case LAT_SCHEMA_HISTOGRAM:
		return LAT_CHART_HISTOGRAM;
	case LAT_SCHEMA_SCHEDCNT:
		return LAT_CHART_CPUS;
	case LAT_SCHEMA_FNTRACE:
		return LAT_CHART_BLAME;
	case LAT_SCHEMA_EVENTS:
		return LAT_CHART_TIMELINE;
	default:
		return LAT_CHART_AUTO;
	}
}

int lat_render_series(const struct lat_block *b, const struct lat_loop_result *r,
		      const struct lat_render_opts *o, struct lat_render_buf *out)
{
	struct lat_series_input in = { b, r };

	return lat_chart_run(&lat_series_ops, &in, o, out);
}

int lat_render_histogram(struct lat_histogram *const *h, size_t n, const char *title,
			 const struct lat_render_opts *o, struct lat_render_buf *out)
{
	struct lat_hist_input in = { h, n, title };

	return lat_chart_run(&lat_hist_ops, &in, o, out);
}

int lat_render_cpus(const struct lat_block *b, const struct lat_render_opts *o,
		    struct lat_render_buf *out)
{
	return lat_chart_run(&lat_cpus_ops, b, o, out);
}

int lat_render_timeline(const struct lat_timeline *t, const struct lat_render_opts *o,
			struct lat_render_buf *out)
{
	return lat_chart_run(&lat_timeline_ops, t, o, out);
}

int lat_render_blame(const struct lat_blame_row *rows, size_t n, uint64_t whole_ns,
		     const char *title, const struct lat_render_opts *o,
		     struct lat_render_buf *out)
{
	struct lat_blame_input in = { rows, n, whole_ns, title };

	return lat_chart_run(&lat_blame_ops, &in, o, out);
}

static const char *schema_name(enum lat_schema s)
{
	switch (s) {
	case LAT_SCHEMA_LOOP: return "loop log";
	case LAT_SCHEMA_SCHEDCNT: return "schedcnt table";
	case LAT_SCHEMA_HISTOGRAM: return "histogram";
	case LAT_SCHEMA_FNTRACE: return "function trace";
	case LAT_SCHEMA_EVENTS: return "event trace";
	default: return "block";
	}
}

/* The window the wakeup analysis kept around its worst case. */
static int timeline_of_events(const struct lat_block *b, const struct lat_render_opts *o,
			      struct lat_render_buf *out)
{
	struct lat_timeline *tl = NULL;
	int ret = lat_wakeup_timeline(b, 0, &tl);

	if (ret == -LAT_EEMPTY) {
		snprintf(out->msg, sizeof(out->msg), "no wakeup to draw: the trace has no "
			 "complete wakeup wait (or none of the --task asked for)");
		return -LAT_EUSAGE;
	}
	if (ret < 0)
		return ret;
	ret = lat_render_timeline(tl, o, out);
	lat_timeline_free(tl);
	return ret;
}

/* Top functions of a latency-tracer dump, by self time as the analysis sorted them. */
static int blame_of_fntrace(const struct lat_block *b, const struct lat_render_opts *o,
			    struct lat_render_buf *out)
{
	const struct lat_fntrace_result *r = b->analysis;
	struct lat_blame_row *rows;
	size_t n;
	int ret;

	if (!r || !r->nfn) {
		snprintf(out->msg, sizeof(out->msg), "no function entries to blame");
		return -LAT_EUSAGE;
	}
	n = r->nfn < 20 ? r->nfn : 20;
	rows = calloc(n, sizeof(*rows));
	if (!rows)
		return -LAT_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		rows[i].name = r->fn[i].function;
		rows[i].self_ns = r->fn[i].self_ns > 0 ? (uint64_t)r->fn[i].self_ns : 0;
		rows[i].total_ns = r->fn[i].total_ns > 0 ? (uint64_t)r->fn[i].total_ns : 0;
		rows[i].calls = r->fn[i].calls;
	}
	ret = lat_render_blame(rows, n, r->window_ns > 0 ? (uint64_t)r->window_ns : 0, b->title,
			       o, out);
	free(rows);
	return ret;
}

int lat_render_block(const struct lat_block *b, const struct lat_render_opts *o,
		     struct lat_render_buf *out)
{
	enum lat_chart_kind k = o->chart == LAT_CHART_AUTO ? lat_render_pick(b) : o->chart;
	int fits = 0;

	out->msg[0] = '\0';
	switch (k) {
	case LAT_CHART_SERIES:
		fits = b->schema == LAT_SCHEMA_LOOP;
		if (fits)
			return lat_render_series(b, b->analysis, o, out);
		break;
	case LAT_CHART_HISTOGRAM:
		fits = b->nhist > 0;
		if (fits)
			return lat_render_histogram(b->hist, b->nhist, b->title, o, out);
		break;
	case LAT_CHART_CPUS:
		fits = b->schema == LAT_SCHEMA_SCHEDCNT;
		if (fits)
			return lat_render_cpus(b, o, out);
		break;
	case LAT_CHART_TIMELINE:
		if (b->schema == LAT_SCHEMA_EVENTS)
			return timeline_of_events(b, o, out);
		break;
	case LAT_CHART_BLAME:
		if (b->schema == LAT_SCHEMA_FNTRACE)
			return blame_of_fntrace(b, o, out);
		break;
	default:
		break;
	}
	if (k == LAT_CHART_AUTO)
		snprintf(out->msg, sizeof(out->msg), "no chart for a %s", schema_name(b->schema));
	else
		snprintf(out->msg, sizeof(out->msg), "a %s chart does not fit a %s",
			 lat_chart_name(k), schema_name(b->schema));
	return -LAT_EUSAGE;
}
