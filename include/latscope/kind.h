/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What latscope does with each kind of block (schema): one row per kind in one table
 * (report/kind.c; libarchive's format descriptor is the model).  Adding a schema means one
 * more row there: its analysis, its reports, its chart.
 */
#ifndef LATSCOPE_KIND_H
#define LATSCOPE_KIND_H

#include <stdio.h>

#include "analyze.h"
#include "render.h"

struct lat_json;

struct lat_kind {
	enum lat_schema schema;
	const char *name;		/* "loop log", "event trace", ... for messages */
	/* Fills b->analysis (and findings); 0 or a negative lat_err.  NULL: no analysis. */
	int (*analyze)(struct lat_block *b, const struct lat_analyze_opts *o);
	/* Frees what analyze left in b->analysis. */
	void (*result_free)(void *result);
	/* Frees what analyze hung on the block besides b->analysis (b->probe); NULL: nothing. */
	void (*extra_free)(struct lat_block *b);
	/* The block's section of the text and of the JSON report (after the common part). */
	void (*report_text)(FILE *out, const struct lat_block *b,
			    const struct lat_analyze_opts *o);
	void (*report_json)(struct lat_json *j, const struct lat_block *b,
			    const struct lat_analyze_opts *o);
	/* The chart `render --chart auto` draws (LAT_CHART_AUTO: none). */
	enum lat_chart_kind chart;
};

/* The row of @s (static), or NULL for LAT_SCHEMA_NONE and unknown values. */
const struct lat_kind *lat_kind_of(enum lat_schema s);

#endif
