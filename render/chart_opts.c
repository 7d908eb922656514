// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The part of the chart interface that needs no cairo: option defaults, chart
 * names and the render layer's table, the chart `render --chart auto` draws per
 * schema.  Built apart from the module (latscope_chartopts) so that `latscope
 * render` and `latscope report` can check their options and name a chart (and a
 * test can) before the render module, and the libraries cairo drags in, are
 * loaded.  docs/render.md.
 */
#include <stdlib.h>
#include <string.h>

#include "latscope/render.h"
#include "smap.h"

static const char *const chart_names[LAT_CHART_NKINDS] = {
	[LAT_CHART_AUTO] = "auto",
	[LAT_CHART_TIMELINE] = "timeline",
	[LAT_CHART_HISTOGRAM] = "histogram",
	[LAT_CHART_SERIES] = "series",
	[LAT_CHART_BLAME] = "blame",
	[LAT_CHART_CPUS] = "cpus",
	[LAT_CHART_PROBE] = "probe",
};

/* The chart each schema gets when none is asked. */
static const struct {
	enum lat_schema schema;
	enum lat_chart_kind chart;
} auto_charts[] = {
	{ LAT_SCHEMA_LOOP, LAT_CHART_SERIES },
	{ LAT_SCHEMA_SCHEDCNT, LAT_CHART_CPUS },
	{ LAT_SCHEMA_HISTOGRAM, LAT_CHART_HISTOGRAM },
	{ LAT_SCHEMA_FNTRACE, LAT_CHART_BLAME },
	{ LAT_SCHEMA_EVENTS, LAT_CHART_TIMELINE },
};

const struct lat_series *rd_smap_series(const struct lat_block *b, const char *name)
{
	for (size_t i = 0; i < b->nseries; i++) {
		const struct lat_series *s = b->series[i];

		if (s->group && !strcmp(s->group, LAT_SMAP_GROUP) && !strcmp(s->name, name))
			return s;
	}
	return NULL;
}

enum lat_chart_kind lat_render_pick(const struct lat_block *b)
{
	/* a perf sched map alone: no delay, but who ran where (render/schedmap.c) */
	if (b->schema == LAT_SCHEMA_HISTOGRAM && !b->nhist && rd_smap_series(b, "cpu0"))
		return LAT_CHART_TIMELINE;
	for (size_t i = 0; i < LAT_ARRAY_SIZE(auto_charts); i++)
		if (auto_charts[i].schema == b->schema)
			return auto_charts[i].chart;
	return LAT_CHART_AUTO;
}

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

void lat_render_buf_release(struct lat_render_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}
