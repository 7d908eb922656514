/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Row shapes (row_shape.c): for the readers whose table rows a mailer wraps,
 * a lat_row_shape each (include/latscope/text.h) that their descriptors list
 * in row_shapes.  No data: each function reads one line, nothing else.
 */
#ifndef LATSCOPE_FORMATS_ROW_SHAPE_H
#define LATSCOPE_FORMATS_ROW_SHAPE_H

#include <stddef.h>

#include "latscope/text.h"

/* cyclictest's "T: 0 ( 1234) P:95 I:200 C: ... Max: N" summary row */
enum lat_row_state fmt_row_ct_summary(const char *s, size_t n, struct lat_row_ctx *ctx);
/* a perf sched latency row: "  comm:pid | runtime ms | switches | avg: ... | max: ... |" */
enum lat_row_state fmt_row_ps_latency(const char *s, size_t n, struct lat_row_ctx *ctx);
/* a perf sched timehist row: "time [cpu] task[tid] wait sch-delay run" */
enum lat_row_state fmt_row_ps_timehist(const char *s, size_t n, struct lat_row_ctx *ctx);
/* an rtla timerlat/osnoise top or hwnoise row (hwnoise's after its banner or header) */
enum lat_row_state fmt_row_rtla_top(const char *s, size_t n, struct lat_row_ctx *ctx);
/* timerlat top's two header lines */
enum lat_row_state fmt_row_rtla_top_head(const char *s, size_t n, struct lat_row_ctx *ctx);
/* osnoise top's and hwnoise's banner (noted in @ctx) and column header */
enum lat_row_state fmt_row_rtla_noise_head(const char *s, size_t n, struct lat_row_ctx *ctx);

#endif
