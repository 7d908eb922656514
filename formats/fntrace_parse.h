/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by the rt-lattrace and ftrace-latency readers: both print the same
 * header family ("X latency trace v1.1.x") and the same compact entry row;
 * they differ in the header comment style, the parent notation and the
 * verbose layout.  The grammar: docs/fntrace.md.
 */
#ifndef LATSCOPE_FORMATS_FNTRACE_PARSE_H
#define LATSCOPE_FORMATS_FNTRACE_PARSE_H

#include "latscope/format.h"
#include "latscope/fntrace.h"

enum fnt_dialect {
	FNT_RT,		/* Ingo Molnar's -RT/-VP tracer: "preemption latency trace v1.1.x" */
	FNT_FTRACE,		/* kernel ftrace latency format: "# tracer: X", "X latency trace" */
};

/* How one dequoted line looks to @dialect (the segmenter's line_kind). */
enum lat_line_kind fnt_line_kind(enum fnt_dialect dialect, const char *s, size_t len);

/* The end of a header-only dump starting at @first (no entries pasted), or 0. */
size_t fnt_header_block(enum fnt_dialect dialect, const struct lat_text *t, size_t first);

/* Parses lines [first, end) of @t into a new struct lat_fntrace on @b. */
int fnt_parse_block(enum fnt_dialect dialect, const struct lat_text *t, size_t first,
			size_t end, struct lat_block *b, struct lat_diag *d);

/*
 * Parses one entry row (NUL-terminated, micro signs already fixed) into @e.
 * Returns 1 on success, 0 if the row is malformed, -1 for an unknown RT entry
 * type "(T9/#...)".  Strings are allocated into @e; on failure @e holds none.
 */
int fnt_parse_row(enum fnt_dialect dialect, const char *s, struct lat_fn_entry *e);

#endif
