// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The reader registry.  Adding a reader: define its struct lat_format in its
 * own file and add one line to the table below.
 */
#include <string.h>

#include "latscope/format.h"

extern const struct lat_format fmt_lat;
extern const struct lat_format fmt_lat2;
extern const struct lat_format fmt_lat3;
extern const struct lat_format fmt_schedcnt;
extern const struct lat_format fmt_histogram;
extern const struct lat_format fmt_rt_lattrace;
extern const struct lat_format fmt_ftrace_latency;
extern const struct lat_format fmt_tracedat;
extern const struct lat_format fmt_ftrace_text;
extern const struct lat_format fmt_kernel_tracer;
extern const struct lat_format fmt_cyclictest;
extern const struct lat_format fmt_rtla;
extern const struct lat_format fmt_perf_sched;

static const struct lat_format *const registry[] = {
	&fmt_lat,
	&fmt_lat2,
	&fmt_lat3,
	&fmt_schedcnt,
	&fmt_histogram,
	&fmt_rt_lattrace,
	&fmt_ftrace_latency,
	&fmt_tracedat,
	&fmt_ftrace_text,
	&fmt_kernel_tracer,
	&fmt_cyclictest,
	&fmt_rtla,
	&fmt_perf_sched,
};

const struct lat_format *const *lat_formats(size_t *n)
{
	*n = LAT_ARRAY_SIZE(registry);
	return registry;
}

const struct lat_format *lat_format_find(const char *name)
{
	for (size_t i = 0; i < LAT_ARRAY_SIZE(registry); i++)
		if (!strcmp(registry[i]->name, name))
			return registry[i];
	return NULL;
}

#define ROW_SHAPES_MAX 16

/*
 * A line once a diff's prefix is off it, as the readers see it: a row or
 * header of a block reader (or a row a shape says a mailer cut), a line a
 * reader keeps inside its blocks, or none of theirs.
 */
static enum lat_line_claim claim(const char *s, size_t len)
{
	enum lat_line_claim best = LAT_CLAIM_NO;

	for (size_t i = 0; i < LAT_ARRAY_SIZE(registry); i++) {
		const struct lat_format *f = registry[i];
		enum lat_line_kind k = f->line_kind ? f->line_kind(s, len) : LAT_LINE_NO;

		if (k == LAT_LINE_ROW || k == LAT_LINE_HEAD)
			return LAT_CLAIM_ROW;
		if (k == LAT_LINE_SOFT)
			best = LAT_CLAIM_SOFT;
		for (const lat_row_shape *sh = f->row_shapes; sh && *sh; sh++) {
			struct lat_row_ctx ctx = { 0 };

			if ((*sh)(s, len, &ctx) != LAT_ROW_NO)
				return LAT_CLAIM_ROW;
		}
	}
	return best;
}

void lat_formats_repair_text(struct lat_text *t)
{
	lat_text_undiff(t, claim);
	lat_formats_rejoin_rows(t);
}

/* Every registered reader's row shapes into @shapes (ROW_SHAPES_MAX): their count. */
static size_t all_row_shapes(lat_row_shape *shapes)
{
	size_t n = 0;

	for (size_t i = 0; i < LAT_ARRAY_SIZE(registry); i++)
		for (const lat_row_shape *s = registry[i]->row_shapes; s && *s; s++)
			if (n < ROW_SHAPES_MAX)
				shapes[n++] = *s;
	return n;
}

void lat_formats_rejoin_rows(struct lat_text *t)
{
	lat_row_shape shapes[ROW_SHAPES_MAX];

	lat_text_rejoin_rows(t, shapes, all_row_shapes(shapes));
}

int lat_formats_peek_wrapped(const char *peek, size_t len)
{
	struct lat_text t;
	int found;

	if (lat_text_init_mem(&t, peek, len))
		return 0;
	lat_formats_rejoin_rows(&t);
	found = t.fix.rows > 0;
	lat_text_release(&t);
	return found;
}

static int is_pure_stream(const struct lat_format *f)
{
	return f->open_stream && !f->line_kind;
}

int lat_format_detect(const char *peek, size_t len, const struct lat_format **best,
		      char *msg, size_t msglen)
{
	const struct lat_format *top = NULL, *tie = NULL;
	int top_score = 0;

	/* a format known by its magic bytes first: its certainty ends the search */
	for (size_t i = 0; i < LAT_ARRAY_SIZE(registry); i++) {
		const struct lat_format *f = registry[i];

		if (f->magic && f->probe && f->probe(peek, len) >= 100) {
			*best = f;
			return 100;
		}
	}
	for (size_t i = 0; i < LAT_ARRAY_SIZE(registry); i++) {
		const struct lat_format *f = registry[i];
		int s = f->probe ? f->probe(peek, len) : 0;

		if (s < 0)
			s = 0;
		if (s > 100)
			s = 100;
		if (s > top_score) {
			top = f;
			top_score = s;
			tie = NULL;
		} else if (s && s == top_score) {
			/* a tie between block readers is settled per block by the segmenter */
			if (is_pure_stream(f) || is_pure_stream(top))
				tie = f;
		}
	}
	if (!top) {
		if (msg && msglen)
			snprintf(msg, msglen, "no reader recognises this input");
		return -LAT_EUNKNOWN;
	}
	if (tie) {
		if (msg && msglen)
			snprintf(msg, msglen, "ambiguous format: %s and %s both score %d; use --format",
				 top->name, tie->name, top_score);
		return -LAT_EAMBIGUOUS;
	}
	*best = top;
	return top_score;
}
