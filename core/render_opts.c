// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The part of the chart interface that needs no cairo: option defaults and
 * chart names (the per-schema pick is the kind table's, report/kind.c).  It
 * lives in latscope_core so that `latscope render` can check its options (and
 * a test can name a chart) before the render module, and the libraries cairo
 * drags in, are loaded.  docs/render.md.
 */
#include <stdlib.h>
#include <string.h>

#include "latscope/render.h"

static const char *const chart_names[LAT_CHART_NKINDS] = {
	[LAT_CHART_AUTO] = "auto",
	[LAT_CHART_TIMELINE] = "timeline",
	[LAT_CHART_HISTOGRAM] = "histogram",
	[LAT_CHART_SERIES] = "series",
	[LAT_CHART_BLAME] = "blame",
	[LAT_CHART_CPUS] = "cpus",
	[LAT_CHART_PROBE] = "probe",
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

void lat_render_buf_release(struct lat_render_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}
