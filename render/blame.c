// SPDX-License-Identifier: GPL-2.0-or-later
#include "render_priv.h"

static int blame_layout(struct lat_chart *c, cairo_t *m, const void *data,
			 const struct lat_render_opts *o, char *msg, size_t msglen)
{
	snprintf(msg, msglen, "not yet");
	return -LAT_EUSAGE;
}

static void blame_draw(cairo_t *cr, const struct lat_chart *c, const void *data,
			const struct lat_render_opts *o)
{
}

const struct lat_chart_ops lat_blame_ops = { .name = "blame", .layout = blame_layout, .draw = blame_draw };
