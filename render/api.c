// SPDX-License-Identifier: GPL-2.0-or-later
/* The one symbol the render module exports: its drawing entry points (render.h). */
#include "render_priv.h"

const struct lat_render_api lat_render_api_v1 = {
	.version = LATSCOPE_VERSION,
	.api_size = sizeof(struct lat_render_api),
	.block_size = sizeof(struct lat_block),
	.opts_size = sizeof(struct lat_render_opts),
	.timeline_size = sizeof(struct lat_timeline),
	.render_block = lat_render_block,
	.render_series = lat_render_series,
	.render_histogram = lat_render_histogram,
	.render_cpus = lat_render_cpus,
	.render_timeline = lat_render_timeline,
	.render_blame = lat_render_blame,
	.render_compare = lat_render_compare,
};
