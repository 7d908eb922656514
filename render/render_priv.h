/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the renderer: the layout every chart fills, axes with their
 * value-to-pixel mapping, text helpers and the driver that runs a chart's
 * layout and drawing onto a PNG or SVG surface.  Tests use the mapping to
 * probe pixels where a value must have been drawn.
 */
#ifndef LATSCOPE_RENDER_PRIV_H
#define LATSCOPE_RENDER_PRIV_H

#include <cairo.h>

#include "latscope/an_histogram.h"
#include "latscope/render.h"

#define RD_FONT "DejaVu Sans"
#define RD_PAD 16.0
#define RD_TITLE_PT 20.0
#define RD_TITLE_MIN_PT 16.0
#define RD_SUB_PT 13.0
#define RD_TICK_PT 12.0
#define RD_LABEL_PT 13.0
#define RD_AXIS_MAX_TICKS 128

/* "s" after a count that is not 1: "%zu task%s", n, PLURAL(n) */
#define PLURAL(n) ((n) == 1 ? "" : "s")

struct rd_rect {
	double x, y, w, h;
};

struct rd_rgb {
	double r, g, b;
};

/*
 * A numeric axis.  unit: LAT_UNIT_NS (durations and times relative to a
 * start, labelled ns/µs/ms/s), LAT_UNIT_COUNT, LAT_UNIT_CYCLES.
 */
struct rd_axis {
	double lo, hi;		/* data range, in the data's unit */
	int log;		/* log10 scale; lo must be > 0 */
	int vertical;
	double p0, p1;		/* pixel of lo and of hi */
	enum lat_unit unit;
	char title[200];	/* quantity, unit appended by rd_axis_ticks for linear axes */
	int nticks;
	double tick[RD_AXIS_MAX_TICKS];
	char tick_label[RD_AXIS_MAX_TICKS][24];
	int tick_major[RD_AXIS_MAX_TICKS];	/* labelled */
	int percent;		/* log tick labels end in "%" (shares) */
};

/* Value to pixel.  Values outside the range map outside [p0, p1]; log axes clamp v <= 0 to lo. */
double rd_axis_map(const struct rd_axis *a, double v);
/* Fills the ticks and their labels for about @target ticks; fixes the title's unit suffix. */
void rd_axis_ticks(struct rd_axis *a, int target);
/* Widens [lo, hi] to the ticks when linear (hi > lo afterwards in every case). */
void rd_axis_nice_range(struct rd_axis *a, int target);

enum rd_legend_style { RD_LEG_BOX, RD_LEG_LINE, RD_LEG_DASH, RD_LEG_RING };

struct rd_legend_item {
	char text[96];		/* sanitised */
	struct rd_rgb rgb;
	enum rd_legend_style style;
};

#define RD_LEGEND_MAX 24

struct rd_chart {
	double w, h;
	char title[512];	/* sanitised; wrapped (or elided) to the width by rd_frame_layout */
	size_t title_keep0, title_keep1;	/* title[keep0, keep1) is never cut: the verdict */
	char title_line[2][512];	/* the title as drawn: one or two lines ... */
	int title_lines;
	double title_pt;	/* ... at this size (RD_TITLE_PT, smaller when wrapped) */
	char subtitle[400];
	struct rd_rect plot;	/* where data is drawn */
	struct rd_axis x, y;
	int has_y;		/* numeric y axis; else the chart draws lane labels itself */
	double lane_label_w;	/* !has_y: room left of the plot for lane labels */
	struct rd_legend_item legend[RD_LEGEND_MAX];
	int nlegend;
	char legend_more[64];	/* "+12 other tasks" */
	struct rd_rect legend_box;
	void *priv;		/* the chart's own layout, freed by ops->release */
};

struct rd_chart_ops {
	const char *name;
	/* Fills c (title, axes ranges, legend, priv); @m measures text.  0 or -lat_err + msg. */
	int (*layout)(struct rd_chart *c, cairo_t *m, const void *data,
		      const struct lat_render_opts *o, char *msg, size_t msglen);
	/* Draws the data inside c->plot (the frame is already drawn). */
	void (*draw)(cairo_t *cr, const struct rd_chart *c, const void *data,
		     const struct lat_render_opts *o);
	void (*release)(struct rd_chart *c);
};

/*
 * Runs layout then draws frame and data onto a PNG or SVG (o->format) held in
 * @out.  Returns 0 or a negative lat_err with out->msg set.
 */
int rd_chart_run(const struct rd_chart_ops *ops, const void *data,
		  const struct lat_render_opts *o, struct lat_render_buf *out);

/*
 * Renames every id of the SVG document in @b (and its references: href="#X",
 * url(#X)) to its prefix and a per-document number in order of first
 * appearance, so that a chart's bytes do not depend on what the process drew
 * before (render/svg_ids.c).  Returns 0, or -LAT_ENOMEM with @b unchanged.
 */
int rd_svg_renumber_ids(struct lat_render_buf *b);

/*
 * For tests: the same layout and drawing onto an RGB24 image surface, returned
 * (cairo_surface_destroy it), with the layout in @c (ops->release(c) after).
 * NULL on failure.
 */
cairo_surface_t *rd_chart_image(const struct rd_chart_ops *ops, const void *data,
				 const struct lat_render_opts *o, struct rd_chart *c);

/*
 * Frame layout shared by every chart: title rows, legend column on the
 * right, axis labels; sets c->plot and the axes' pixel ends.  Call after the
 * axes' ranges, the titles and the legend are known.
 */
void rd_frame_layout(struct rd_chart *c, cairo_t *m);
/* The bottom of the title lines (after rd_frame_layout). */
double rd_frame_title_h(const struct rd_chart *c);
void rd_frame_draw(cairo_t *cr, const struct rd_chart *c);
/*
 * The ticks of an axis (its pixel ends set) and their grid lines: an x axis
 * between @y_top and @y_bottom (ticks below y_bottom), a y axis between
 * @x_left and @x_right (ticks left of x_left); tick labels when @labels.
 * The frame draws c->x and c->y with them; charts of several panels draw
 * each panel's.  Uses the current font for the x labels.
 */
void rd_axis_draw_x(cairo_t *cr, const struct rd_axis *a, double y_top, double y_bottom,
		     int labels);
void rd_axis_draw_y(cairo_t *cr, const struct rd_axis *a, double x_left, double x_right,
		     int labels);
/* The y axis title, rotated, left of c->plot (what the frame draws when c->has_y). */
void rd_axis_title_y(cairo_t *cr, const struct rd_chart *c, const char *title);

/* Selects the chart font at @size points (bold or not) with fixed, unhinted metrics. */
void rd_font(cairo_t *cr, double size, int bold);
double rd_text_width(cairo_t *cr, const char *s);
/* Draws @s (valid UTF-8) with its left end at x (align 0), centre (1) or right end (2). */
void rd_text(cairo_t *cr, double x, double y, int align, const char *s);
/*
 * A text placed in a layout pass as a box @pt high from box->y (its baseline
 * RD_TEXT_BASE of that below the top: DejaVu's digits and descenders fit).
 */
#define RD_TEXT_BASE 0.78
void rd_text_box(cairo_t *cr, const struct rd_rect *box, double pt, int bold, const char *s);
/* Copies @s into @out elided with "…" to at most @maxw wide; returns out. */
char *rd_text_fit(cairo_t *cr, const char *s, double maxw, char *out, size_t outlen);

/*
 * Copies @in (@len bytes, or up to NUL when len == (size_t)-1) into @out as
 * valid UTF-8: invalid bytes and control characters become U+FFFD.  Always
 * NUL-terminates, never cuts a character.  Returns out.
 */
char *rd_utf8_clean(const char *in, size_t len, char *out, size_t outlen);

/* The @i-th colour of the task palette (stable order, no red: red is for alerts). */
struct rd_rgb rd_palette(size_t i);
#define RD_PALETTE_N 12
/* A muted colour derived from @key, for tasks past the palette. */
struct rd_rgb rd_muted(uint32_t key);
extern const struct rd_rgb rd_alert_rgb;	/* freezes, brackets, thresholds */

/* a - b as a double, without signed overflow for values read from files */
static inline double rd_dsub(int64_t a, int64_t b)
{
	int64_t r;

	if (!__builtin_sub_overflow(a, b, &r))
		return (double)r;
	return (double)a - (double)b;
}

static inline void rd_set_rgb(cairo_t *cr, struct rd_rgb c, double alpha)
{
	cairo_set_source_rgba(cr, c.r, c.g, c.b, alpha);
}

/* "2.51 s", "50 µs" with up to 3 significant digits (µ, not u: charts are UTF-8). */
char *rd_fmt_dur_chart(double ns, char *buf, size_t len);

/*
 * A percentile mark of a histogram chart: a dashed line at x from under its
 * label (y0) down to the floor (y1), and its label in a row of a band above
 * the data (render/labels.c).
 */
struct rd_plabel {
	double x, y1;		/* the line; y1 its lower end */
	double w, h;		/* the text's extent */
	char text[48];
	size_t hist;		/* whose mark (colour) */
	int what;		/* 0 p50, 1 p99, 2 max */
	/* set by rd_plabels_place() */
	int placed, row;
	struct rd_rect box;	/* the text's box */
	double y0;		/* the line's upper end, under the box */
};

/*
 * Places the labels in rows of @pitch pixels from the top of @zone: beside
 * their line (right, else left), the max marks first, then p99, then p50.  No
 * two boxes overlap and no line crosses a box (of a lower row); a label that
 * fits nowhere is not placed (counted in *dropped).  Returns the rows used.
 */
int rd_plabels_place(struct rd_plabel *l, size_t n, const struct rd_rect *zone,
		      double pitch, size_t *dropped);


/*
 * Title "source · block N: title" into c->title.  A headline too wide for one
 * line wraps to two, then shrinks (down to RD_TITLE_MIN_PT); only then is it
 * cut, and never in title_keep0..1 when it fits a line (rd_frame_layout).
 */
void rd_chart_title(struct rd_chart *c, const struct lat_render_opts *o, const char *kind,
		     const char *title);

/* Histograms made for one chart (render/events.c): titles and buckets owned. */
struct rd_hist_set {
	struct lat_histogram **h;
	struct rd_hist_marks *marks;	/* per histogram: the analysis' percentiles */
	size_t n, cap;
};

void rd_hist_set_release(struct rd_hist_set *e);
/*
 * The wakeup waits of an analysed event block: one histogram per CPU, or per
 * selected task (*per_task) when the analysis selected tasks; each from its
 * first non-empty bucket to its last.  0, -LAT_EEMPTY or -LAT_ENOMEM.
 */
int rd_hist_set_wakeup(struct rd_hist_set *e, const struct lat_block *b, int *per_task);

/*
 * What the analysis says of the case a timeline is about (its worst[0]): the
 * verdict put first in tl->title, the stalls in the window appended as
 * LAT_TL_STALL marks.  0 or -LAT_ENOMEM.
 */
struct lat_wakeup_result;
int rd_tl_add_case(struct lat_timeline *tl, const struct lat_wakeup_result *r, size_t idx);

/*
 * The x axis of an A/B chart (lat_render_compare) names what each side
 * measured: once when every side measured the same ("wakeup latency (waking
 * to running)", "latency: cyclictest histogram"), else per side, "latency ·
 * A#1: rtla hist · B#1: wakeup latency (waking to running)".
 */
void rd_compare_what(const struct lat_block *const *b, const char *const *names, size_t n,
		      char *buf, size_t len);
/*
 * Its title (static): "wakeup latency of several inputs" when every side is a
 * trace's waits, "histograms of several inputs" when none is, "wakeup waits
 * and histograms of several inputs" for a mix (an rtla hist is no wakeup latency).
 */
const char *rd_compare_title(const struct lat_block *const *b, size_t n);

/* Event traces' histograms (render/events.c), from the analyses' results. */
int rd_render_wakeup_hist(const struct lat_block *b, const struct lat_render_opts *o,
			   struct lat_render_buf *out);
int rd_render_probe_hist(const struct lat_block *b, const struct lat_render_opts *o,
			  struct lat_render_buf *out);

/* Chart implementations. */
extern const struct rd_chart_ops rd_series_ops;	/* data: struct rd_series_input */
extern const struct rd_chart_ops rd_hist_ops;		/* data: struct rd_hist_input */
extern const struct rd_chart_ops rd_cpus_ops;		/* data: struct lat_block */
extern const struct rd_chart_ops rd_timeline_ops;	/* data: struct lat_timeline */
extern const struct rd_chart_ops rd_blame_ops;	/* data: struct rd_blame_input */

struct rd_series_input {
	const struct lat_block *b;
	const struct lat_loop_result *r;
};

/* Percentiles an analysis computed, marked at their value instead of a bucket bound. */
#define RD_HIST_MARKS_BUCKETS (-2)	/* p50: no values, mark this one's buckets */

struct rd_hist_marks {
	int64_t p50, p99, max;	/* -1: not known (that mark is left out) */
	unsigned bound;		/* bit j (p50, p99, max): the value is a bucket's upper bound */
};

struct rd_hist_input {
	struct lat_histogram *const *h;
	size_t n;
	const char *title;
	const struct rd_hist_marks *marks;	/* per histogram, or NULL: from the buckets */
	const char *what;	/* x axis quantity, NULL: "latency" */
	/*
	 * Per histogram, the histogram analysis' quantile buckets (an_histogram.h,
	 * its p50, p99 and max marked at their bucket), or NULL: found here.
	 */
	const struct lat_hist_stats *stats;
	int shares;		/* y: each histogram's share of its samples (A/B), not counts */
	/* summary rows: where the printed summaries come from, NULL: "as the tool printed them" */
	const char *source;
};

/*
 * The histogram chart's layout (c->priv), for tests.  Up to 3 histograms (6
 * compared by share) are overlaid in c->plot; more are small multiples, one
 * panel each, the panels of a group (h->group: rtla's IRQ, Thr) on rows of
 * their own, every panel on the same axes.  More than fit: the chart fails
 * with -LAT_ELIMIT and rd_hist_chart() draws the summary rows instead.
 */
struct rd_hist_panel {
	struct rd_rect box;	/* its frame; the data under the label band */
	struct rd_axis x, y;	/* the chart's ranges, this panel's pixels */
	size_t first, n;	/* its histograms: order[first .. first + n) */
	size_t col;		/* grid column */
	int ylabels;		/* tick labels left of it (first column) */
	char title[96];		/* small multiples: the histogram's name */
};

struct rd_hist_layout {
	int multiples;
	size_t npanels, ncols;
	struct rd_hist_panel *panel;	/* overlaid: one, c->plot with c->x and c->y */
	size_t *order;		/* the histograms with samples, panel by panel */
	size_t norder;
	uint64_t *total;	/* per histogram: samples in its buckets */
	size_t *colour;		/* per histogram: palette index */
	size_t ngroups;
	struct rd_plabel *label;	/* the marks of every histogram drawn */
	size_t nlabels, dropped;	/* dropped: marks with no room for their label */
};

/*
 * The summary rows (render/ranges.c): per histogram a range bar min..max with
 * its average (or p50) and its max marked, one row per thread / CPU / task,
 * one bar per kind in a row when the histograms come in kinds (h->group, or
 * titles "IRQ cpu1" / "Thread cpu1"); rows wrap into columns.  Its layout
 * (c->priv), for tests.
 */
#define RD_RG_KINDS 6

struct rd_rg_bar {
	size_t hist;		/* the histogram drawn */
	size_t row, kind;
	double lo, mid, p99, hi;	/* ns; NAN: not known */
	int64_t count;		/* -1: not known */
	int mid_avg;		/* mid is the average (else p50) */
	int bounds;		/* the values are bucket bounds (no summary printed) */
	double y;		/* its centre line */
	size_t col;
};

struct rd_rg_text {
	struct rd_rect box;
	char s[96];
	double pt;
	int bold, alert;	/* alert: the worst, in red */
};

struct rd_ranges_layout {
	struct rd_rg_bar *bar;
	size_t nbars, nrows, nkinds;
	char kind[RD_RG_KINDS][64];
	char (*row_name)[64];	/* per row */
	size_t ncols, rows_per_col, label_every;	/* every Nth row labelled (and worst) */
	double pitch, bar_h;	/* row pitch, a bar's thickness */
	struct rd_axis *colx;	/* per column: the shared range, its pixels */
	double col_top, col_bottom;
	size_t worst[RD_RG_KINDS];	/* per kind: the bar with the largest max */
	size_t worst_all;
	int flat;			/* every value 0: no worst marked */
	struct rd_rg_text *text;	/* every text drawn in the plot */
	size_t ntext, text_cap;
};

extern const struct rd_chart_ops rd_ranges_ops;	/* data: struct rd_hist_input */

/*
 * Draws histograms: the histogram chart, or when none holds samples but the
 * tool printed their summary (cyclictest T: rows, rtla top, perf sched
 * latency) or when there are more than fit as small multiples, the summary
 * rows (render/ranges.c).  0 or a negative lat_err with out->msg set.
 */
int rd_hist_chart(const struct rd_hist_input *in, const struct lat_render_opts *o,
		   struct lat_render_buf *out);

/*
 * A trace with no wait but atrace's marker slices: their durations per name
 * as summary rows (render/mslices.c).  0 or a negative lat_err, out->msg set.
 * rd_mslices_input() makes the chart's input (for tests too): per name that
 * ended a slice, a histogram of no bucket with its count, min, avg and max;
 * 0, or -LAT_EEMPTY / -LAT_ENOMEM with @msg set and nothing to release.
 */
struct rd_mslices {
	struct rd_hist_input in;
	struct lat_histogram *hs, **hp;	/* owned */
	char title[400];
};

int rd_mslices_input(const struct lat_block *b, struct rd_mslices *m, char *msg, size_t len);
void rd_mslices_release(struct rd_mslices *m);
int rd_render_mslices(const struct lat_block *b, const struct lat_render_opts *o,
		      struct lat_render_buf *out);

/*
 * Bucket edges on a log axis (render/hist_marks.c): the open last bucket as
 * wide (in ratio) as its neighbour, a first bucket from 0 half its upper bound.
 */
double rd_hist_bucket_lo(const struct lat_histogram *h, size_t i);
double rd_hist_bucket_hi(const struct lat_histogram *h, size_t i);
/* Index of the bucket holding the nearest-rank @pct percentile (nbuckets when empty). */
size_t rd_hist_pct_bucket(const struct lat_histogram *h, double pct);
/* The samples in the buckets of @h. */
uint64_t rd_hist_samples(const struct lat_histogram *h);
/*
 * Mark @j (0 p50, 1 p99, 2 max) of histogram @k of @in: where it sits (ns)
 * and its label, "p99 < 5.62 ms" (a bucket's bound, "≥" for the open bucket)
 * or "p99 1.23 ms" (the analysis' value).  0 when @k has no such mark.
 * rd_hist_mark() also leaves out a mark at the place of the one before it.
 */
int rd_hist_mark_at(const struct rd_hist_input *in, size_t k, int j, double *x, char *buf,
		     size_t len);
int rd_hist_mark(const struct rd_hist_input *in, size_t k, int j, double *x, char *buf,
		  size_t len);
/* Whether the max of histogram @k is in the open last bucket (no upper bound). */
int rd_hist_mark_open(const struct rd_hist_input *in, size_t k);

struct rd_blame_input {
	const struct lat_blame_row *rows;
	size_t n;
	uint64_t whole_ns;
	const char *title;
};

/* The icicle chart (render/icicle.c): folded stacks and their time, two panels. */
struct rd_icicle_panel {
	const char *const *folded;	/* "root;...;leaf", lent */
	const int64_t *ns;
	size_t n;
};

struct rd_icicle_input {
	struct rd_icicle_panel panel[2];	/* [0] off-CPU, [1] runnable */
	const char *title;
};

/* Its layout (c->priv), for tests. */
struct rd_icicle_layout {
	void *tree[2];			/* per panel, private */
	int64_t total_ns[2];		/* the root frame: the panel's time */
	size_t nframes[2];		/* distinct frames, the root included */
	uint32_t depth[2];		/* frames below the root on the deepest stack */
	size_t drawn[2];		/* frames drawn (at least ICI_MIN_W wide) */
};

extern const struct rd_chart_ops rd_icicle_ops;	/* data: struct rd_icicle_input */

int rd_render_stacks(const struct lat_block *b, const struct lat_render_opts *o,
		      struct lat_render_buf *out);

/* CPU lanes of an event trace (render/lanes.c). */
struct lat_wakeup_result;
struct rd_lanes_input {
	const struct lat_wakeup_result *r;	/* with ->activity */
	const char *title;
};

/* Its layout (c->priv), for tests. */
struct rd_lanes_layout {
	int32_t *cpu;			/* lane k is CPU cpu[k] */
	size_t nlanes, nbins;
	uint64_t bin_ns;
	double rq_max;			/* largest average run-queue depth of a bin */
	double lane_y0, lane_h, lane_gap;
	size_t drawn_stalls;		/* stalls drawn (each once, whatever its lanes) */
};

extern const struct rd_chart_ops rd_lanes_ops;	/* data: struct rd_lanes_input */
/*
 * A perf sched map's lanes of who ran (render/schedmap.c), as a timeline:
 * rd_smap_timeline() builds it (*out owned by the caller, NULL on failure;
 * 0, -LAT_EEMPTY when the map spans no time, -LAT_ENOMEM).
 */
int rd_smap_timeline(const struct lat_block *b, struct lat_timeline **out);
int rd_render_smap(const struct lat_block *b, const struct lat_render_opts *o,
		   struct lat_render_buf *out);
int rd_render_lanes(const struct lat_block *b, const struct lat_render_opts *o,
		     struct lat_render_buf *out);

/* The series chart's own layout (c->priv), for tests. */
struct rd_series_layout {
	int stall_col;		/* LAT_LOOP_MAX or LAT_LOOP_LOOP */
	int64_t t0_ns;		/* x = ts - t0 */
	size_t nprocs;
	struct rd_rgb *rgb;	/* per series */
};

/* The timeline's layout (c->priv), for tests. */
struct rd_tl_layout {
	uint64_t v0, v1;	/* the view, in trace ns; x axis = ns since v0 */
	int ncpus;
	double lane_y0, lane_h, lane_gap;	/* lane k spans [y0 + k (h+gap), +h) */
	double bracket_y;	/* the main bracket's horizontal bar */
	size_t ntasks;		/* tasks in the legend (palette colours) */
	int32_t *task_pid;	/* legend order */
	struct rd_rgb *task_rgb;
	size_t ntasks_all;
	size_t drawn_rects;	/* slice rectangles after level-of-detail merging */
	int32_t focus_pid;	/* --task, -1 none */
	int32_t own_pid;	/* the case's task (bracket 0, else --task): its migrations stand out */
	size_t nmigr;		/* migrations in the view between two drawn lanes (duplicates once) */
	size_t drawn_migr;	/* arrows drawn: others' sharing a pixel column and CPU pair fold */
	size_t drawn_own_migr;	/* of which the own task's (never folded) */
	size_t nmarkers;	/* LAT_TL_MARKER marks in the view, on a lane */
	size_t drawn_marker_ticks;	/* ticks: one per pixel column and lane */
	size_t drawn_marker_labels;	/* labels: at most one per lane and slot of 150 px */
	size_t drawn_stalls;	/* LAT_TL_STALL marks drawn */
	int queued_outlined;	/* bracket 0's wait outlined on the CPU it was queued on */
	uint8_t *lane_empty;	/* per CPU: nothing to draw in the view, collapsed; or NULL */
	double *lane_top;	/* per CPU: its lane's top, or its collapsed row's; or NULL */
	int nempty;		/* CPUs collapsed ... */
	int nempty_rows;	/* ... into this many thin rows (one per run of consecutive CPUs) */
	double thin_h;		/* a collapsed row's height */
	size_t nsums;		/* merged spans (lat_tl_summary) in the view */
	uint64_t sum_slices;	/* the slices they merged */
	size_t drawn_sum_labels;	/* lanes labelled "summarised: N slices merged" */
};

double rd_tl_lane_top(const struct rd_tl_layout *l, int cpu);

/* ---- render/timeline_merged.c: merged spans, and what timeline.c shares with them ---- */

/* The muted colour (an index past the palette) of a task without a legend colour. */
int tl_muted_colour(int32_t pid);
/* A colour index's rgb: the legend's (l->task_rgb) or a muted one. */
struct rd_rgb tl_colour_rgb(const struct rd_tl_layout *l, int colour);
/* Fills the current path with diagonal lines of @rgb, 6 px apart: "/", or "\" if @back. */
void tl_hatch_fill(cairo_t *cr, struct rd_rgb rgb, double alpha, int back);
/* Whether merged span @s is in the view [v0, v1): overlaps it, or is empty and inside it. */
int tl_sum_in_view(const struct lat_tl_summary *s, uint64_t v0, uint64_t v1);
/* @t's merged spans by cpu then start: t->sums, or a sorted copy (*copy, freed by the caller). */
int tl_sum_sort(const struct lat_timeline *t, const struct lat_tl_summary **out,
		struct lat_tl_summary **copy);
/*
 * Lane @cpu's merged spans (from *k on in @s, @n sorted by cpu then start;
 * *k moves past them), its top at @top: folded per pixel, the stretch
 * hatched, outlined and labelled where it fits (l->drawn_sum_labels).
 */
void tl_sum_draw_lane(cairo_t *cr, const struct rd_chart *c, struct rd_tl_layout *l,
		      const struct lat_tl_summary *s, size_t n, size_t *k, int cpu, double top);

/*
 * A waker arrow's label: "comm:pid" for a task, "irq NAME" for a named irq
 * context, "woken in irq (unnamed)" (softirq, nmi) when the trace names none.
 */
void rd_tl_edge_label(const struct lat_tl_edge *e, char *buf, size_t len);

/* Migration arrows: the case's own task's, and every other task's. */
extern const struct rd_rgb tl_migr_own_rgb, tl_migr_rgb;

/* The cpus chart's layout (c->priv): one panel per run. */
struct rd_cpus_layout {
	size_t nruns;
	struct rd_cpus_run {
		const char *group;
		size_t first, n;	/* series indexes of this run */
		int ncpus;
		struct rd_rect box;
		struct rd_axis x;
		int64_t c0;	/* cycles at x = 0 */
		size_t changes;	/* consecutive picks of a PID on another CPU */
	} *runs;
	size_t npids;
	int32_t *pids;
	struct rd_rgb *rgb;
};

#endif
