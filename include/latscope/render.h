/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Charts: PNG or SVG drawn with cairo from the model and the analysis results.
 *
 * Every chart goes through one code path: a layout pass (text measured with
 * cairo on a scratch surface, fixed font "DejaVu Sans", unhinted metrics) and
 * a drawing pass onto an image surface (PNG) or an SVG surface.  Same input,
 * same bytes out.  Text taken from the input is made valid UTF-8 first and
 * never reaches the SVG as markup (cairo draws glyph outlines).  docs/render.md.
 */
#ifndef LATSCOPE_RENDER_H
#define LATSCOPE_RENDER_H

#include <string.h>

#include "model.h"
#include "timeline.h"

enum lat_render_format { LAT_RENDER_PNG, LAT_RENDER_SVG };

enum lat_chart_kind {
	LAT_CHART_AUTO,		/* pick per block: see lat_render_pick() */
	LAT_CHART_TIMELINE,
	LAT_CHART_HISTOGRAM,
	LAT_CHART_SERIES,
	LAT_CHART_BLAME,
	LAT_CHART_CPUS,
	LAT_CHART_PROBE,	/* event traces: the probe samples' histogram */
	LAT_CHART_NKINDS
};

#define LAT_RENDER_DEFAULT_W 1600
#define LAT_RENDER_DEFAULT_H 900
#define LAT_RENDER_MIN_W 320
#define LAT_RENDER_MIN_H 200
#define LAT_RENDER_MAX_W 8192
#define LAT_RENDER_MAX_H 8192

struct lat_render_opts {
	int width, height;		/* pixels (SVG: points) */
	enum lat_render_format format;
	enum lat_chart_kind chart;
	/* timeline: crop to [window_start_ns, window_end_ns) relative to the timeline start */
	int has_window;
	int64_t window_start_ns, window_end_ns;	/* end < 0: to the end */
	const char *task;		/* timeline: highlight this PID or comm (lent); NULL = none */
	int worst;			/* freezes / peaks labelled with their value (default 5) */
	const char *source;		/* input name for the title (lent), NULL = none */
	int block_no;			/* 1-based block number for the title, 0 = none */
	/*
	 * timeline: the worst case drawn, 0 the worst (`latscope render`, whose --task selects
	 * in the analysis); `latscope report` draws every case from one analysis
	 */
	size_t case_idx;
};

void lat_render_opts_init(struct lat_render_opts *o);

/* A rendered file in memory. */
struct lat_render_buf {
	unsigned char *data;		/* owned, free with lat_render_buf_release() */
	size_t len, cap;
	char msg[256];			/* why nothing was drawn, when a call fails */
};

void lat_render_buf_release(struct lat_render_buf *b);

/* The chart names accepted by --chart ("auto", "timeline", ...), and back. */
const char *lat_chart_name(enum lat_chart_kind k);
int lat_chart_from_name(const char *name, enum lat_chart_kind *out);

/* The chart `auto` draws for @b (LAT_CHART_AUTO when none fits). */
enum lat_chart_kind lat_render_pick(const struct lat_block *b);

/*
 * Draws block @b as chart o->chart (auto: lat_render_pick) into @out, using
 * b->analysis when the schema's analysis filled it.  Returns 0, or a negative
 * lat_err with the reason in out->msg: -LAT_EUSAGE when the chart does not fit
 * the block, -LAT_EEMPTY when the block holds nothing to draw.
 */
int lat_render_block(const struct lat_block *b, const struct lat_render_opts *o,
		     struct lat_render_buf *out);

/*
 * Loop logs (LAT_SCHEMA_LOOP): the stall (max column, else loop time) and the
 * wait of every row over time, one colour per process; the freeze threshold
 * and the freezes of @r (may be NULL: no freezes drawn).
 */
struct lat_loop_result;
int lat_render_series(const struct lat_block *b, const struct lat_loop_result *r,
		      const struct lat_render_opts *o, struct lat_render_buf *out);

/* Histograms overlaid on log-log axes with p50/p99/max marked. */
int lat_render_histogram(struct lat_histogram *const *h, size_t n, const char *title,
			 const struct lat_render_opts *o, struct lat_render_buf *out);

/*
 * A/B: one histogram per input block, overlaid: an event trace's wakeup waits
 * (all CPUs, the selected ones when the analysis had --task/--policy), or a
 * histogram block's histograms.  @names[i] names block i ("A.dat#1").  The
 * blocks were analysed.
 */
int lat_render_compare(const struct lat_block *const *b, const char *const *names, size_t n,
		       const struct lat_render_opts *o, struct lat_render_buf *out);

/* schedcnt (LAT_SCHEMA_SCHEDCNT): per run, which PID each CPU picked over the cycles. */
int lat_render_cpus(const struct lat_block *b, const struct lat_render_opts *o,
		    struct lat_render_buf *out);

/* A CPU timeline: lanes per CPU, slices, irqs, markers, the bracket and waker chain. */
int lat_render_timeline(const struct lat_timeline *t, const struct lat_render_opts *o,
			struct lat_render_buf *out);

/* One row of a blame table: a function and where its time went. */
struct lat_blame_row {
	const char *name;		/* lent */
	uint64_t self_ns, total_ns, calls;
};

/* Horizontal bars of the top @n rows (in the given order), % of @whole_ns (0: sum of self). */
int lat_render_blame(const struct lat_blame_row *rows, size_t n, uint64_t whole_ns,
		     const char *title, const struct lat_render_opts *o,
		     struct lat_render_buf *out);

/*
 * The render module.  The drawing code and cairo (with the ~18 libraries it
 * loads: pixman, fontconfig, freetype, png, xcb, X11...) are built as the
 * module latscope-render.so, which the latscope executable dlopen()s only when
 * it draws a chart: analysis runs never pay cairo's start-up.  The module
 * exports one symbol, LAT_RENDER_API_SYMBOL, a table of the drawing entry
 * points above.  The options, chart names and lat_render_pick() are not in it:
 * they need no cairo and live in latscope_chartopts (render/chart_opts.c), which
 * the executable links.  A new, incompatible table gets
 * a new symbol (_v2); version and struct sizes catch a module from another
 * build whose structs differ.  docs/render.md.
 */
#define LAT_RENDER_API_SYMBOL "lat_render_api_v1"
#define LAT_RENDER_MODULE_NAME "latscope-render.so"

struct lat_render_api {
	const char *version;		/* LATSCOPE_VERSION of the module's build */
	size_t api_size;		/* sizeof(struct lat_render_api) */
	size_t block_size;		/* sizeof(struct lat_block) */
	size_t opts_size;		/* sizeof(struct lat_render_opts) */
	size_t timeline_size;		/* sizeof(struct lat_timeline) */
	int (*render_block)(const struct lat_block *b, const struct lat_render_opts *o,
			    struct lat_render_buf *out);
	int (*render_series)(const struct lat_block *b, const struct lat_loop_result *r,
			     const struct lat_render_opts *o, struct lat_render_buf *out);
	int (*render_histogram)(struct lat_histogram *const *h, size_t n, const char *title,
				const struct lat_render_opts *o, struct lat_render_buf *out);
	int (*render_cpus)(const struct lat_block *b, const struct lat_render_opts *o,
			   struct lat_render_buf *out);
	int (*render_timeline)(const struct lat_timeline *t, const struct lat_render_opts *o,
			       struct lat_render_buf *out);
	int (*render_blame)(const struct lat_blame_row *rows, size_t n, uint64_t whole_ns,
			    const char *title, const struct lat_render_opts *o,
			    struct lat_render_buf *out);
	int (*render_compare)(const struct lat_block *const *b, const char *const *names,
			      size_t n, const struct lat_render_opts *o,
			      struct lat_render_buf *out);
};

/* The table the module exports (and latscope_render, for programs linking it statically). */
extern const struct lat_render_api lat_render_api_v1;

/*
 * True when @api (from a module) was built from the same headers as the caller:
 * same version and the same sizes of the structs passed across.
 */
static inline int lat_render_api_compatible(const struct lat_render_api *api)
{
	return api && api->version && !strcmp(api->version, LATSCOPE_VERSION) &&
	       api->api_size == sizeof(struct lat_render_api) &&
	       api->block_size == sizeof(struct lat_block) &&
	       api->opts_size == sizeof(struct lat_render_opts) &&
	       api->timeline_size == sizeof(struct lat_timeline);
}

#endif
