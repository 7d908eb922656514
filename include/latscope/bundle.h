/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The bug-report bundle (`latscope report`, docs/report.md): one document written twice, as
 * Markdown (report.md, charts beside it in charts/) and as a self-contained HTML page
 * (report.html, every chart inline as a data: URI, no script, no network).  The charts are
 * drawn by the caller (the render module) and handed in as SVG bytes.
 */
#ifndef LATSCOPE_BUNDLE_H
#define LATSCOPE_BUNDLE_H

#include <stdio.h>

#include "report.h"

struct lat_bundle_chart {
	size_t input, block;		/* what it draws: in[input].blocks[block] */
	size_t case_no;			/* 1-based worst case it is zoomed on, 0 none */
	const char *kind;		/* "timeline", "histogram", ...; lent */
	const char *title;		/* lent */
	const char *file;		/* path under the bundle directory ("charts/x.svg"); lent */
	const char *command;		/* the latscope command that draws the same bytes; lent */
	const unsigned char *svg;	/* the chart, lent; NULL: not drawn (see why) */
	size_t len;
	int width, height;		/* its size (points) */
	const char *why;		/* why it was not drawn; lent */
};

struct lat_bundle {
	const char *command;		/* the `latscope report ...` command line; lent */
	const struct lat_report_input *in;	/* analyzed inputs; lent */
	size_t n;
	const struct lat_analyze_opts *o;
	const char *summary;		/* the text report of `latscope analyze`; lent */
	const struct lat_bundle_chart *charts;	/* lent */
	size_t ncharts;
};

/* Writes the bundle's report.md to @out (charts referenced by their file). */
void lat_bundle_md(FILE *out, const struct lat_bundle *b);
/* Writes the bundle's report.html to @out (charts inline). */
void lat_bundle_html(FILE *out, const struct lat_bundle *b);

/*
 * The preemption model a kernel version string ("#1 SMP PREEMPT_DYNAMIC ...") states: a
 * static description, "not stated ..." when it names none.
 */
const char *lat_bundle_preempt_model(const char *version);

#endif
