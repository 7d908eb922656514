/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The analyses' entry points, one pair per kind of block: the kind table (report/kind.c,
 * include/latscope/kind.h) is their only caller.  Each fills b->analysis with its result
 * (owned by the block, freed through the table's result_free).
 */
#ifndef LATSCOPE_ANALYZE_PRIV_H
#define LATSCOPE_ANALYZE_PRIV_H

#include "latscope/analyze.h"

int lat_analyze_loop(struct lat_block *b, const struct lat_analyze_opts *o);
void lat_loop_result_free(void *r);
int lat_analyze_schedcnt(struct lat_block *b, const struct lat_analyze_opts *o);
void lat_schedcnt_result_free(void *r);
int lat_analyze_histogram(struct lat_block *b, const struct lat_analyze_opts *o);
void lat_histogram_result_free(void *r);
int lat_analyze_fntrace(struct lat_block *b, const struct lat_analyze_opts *o);
void lat_fntrace_result_free(void *r);
int lat_analyze_wakeup(struct lat_block *b, const struct lat_analyze_opts *o);
/* An event trace: probe samples (b->probe, analyze/probe.c) and the wakeup analysis. */
int lat_analyze_events(struct lat_block *b, const struct lat_analyze_opts *o);
void lat_events_extra_free(struct lat_block *b);
/* analyze/wakeup_result.c (wakeup_priv.h) */
void wk_result_free(void *r);

#endif
