/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A perf sched map's series in a block (model.h, LAT_SMAP_GROUP): what
 * `--chart auto` (chart_opts.c) and the map's timeline (schedmap.c) look up.
 * Needs no cairo.
 */
#ifndef LATSCOPE_RENDER_SMAP_H
#define LATSCOPE_RENDER_SMAP_H

#include "latscope/model.h"

/* The map's series named @name ("tasks", "cpu0") in @b, or NULL. */
const struct lat_series *rd_smap_series(const struct lat_block *b, const char *name);

#endif
