/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One entry point per schema; analyze.c dispatches. */
#ifndef LATSCOPE_ANALYZE_PRIV_H
#define LATSCOPE_ANALYZE_PRIV_H

#include "latscope/analyze.h"

int lat_analyze_loop(struct lat_block *b, const struct lat_analyze_opts *o);
int lat_analyze_schedcnt(struct lat_block *b, const struct lat_analyze_opts *o);
int lat_analyze_histogram(struct lat_block *b, const struct lat_analyze_opts *o);
int lat_analyze_fntrace(struct lat_block *b, const struct lat_analyze_opts *o);
int lat_analyze_wakeup(struct lat_block *b, const struct lat_analyze_opts *o);

#endif
