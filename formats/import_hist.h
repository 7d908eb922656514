/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helpers of the readers that import the real-time tools' outputs (cyclictest,
 * rtla, perf sched): histograms built bucket by bucket or from single samples,
 * and the tool's own printed summary.
 */
#ifndef LATSCOPE_IMPORT_HIST_H
#define LATSCOPE_IMPORT_HIST_H

#include "latscope/model.h"
#include "latscope/scan.h"

/* A histogram being built: buckets may be added in any order. */
struct imp_hist_build {
	struct lat_histogram *h;
	size_t cap;
	int64_t *v;		/* single samples, for imp_hist_build_values() */
	size_t nv, vcap;
};

/* A new empty histogram titled @title (copied); printed values NONE.  -LAT_ENOMEM. */
int imp_hist_build_init(struct imp_hist_build *hb, const char *title);
/* Adds the bucket [lo_ns, hi_ns) holding @count samples. */
int imp_hist_build_bucket(struct imp_hist_build *hb, int64_t lo_ns, int64_t hi_ns,
			  uint64_t count, uint32_t line);
/* Keeps one sample; turned into buckets of @width_ns by imp_hist_build_finish(). */
int imp_hist_build_value(struct imp_hist_build *hb, int64_t ns, uint32_t line);
/*
 * Sorts the buckets (samples become one bucket [k*w, (k+1)*w) per distinct
 * k = ns / @width_ns), sums the total and adopts the histogram into @b.
 * Frees the builder in every case.
 */
int imp_hist_build_finish(struct imp_hist_build *hb, int64_t width_ns, struct lat_block *b);
void imp_hist_build_drop(struct imp_hist_build *hb);

/* Does the trimmed line [s, s+len) start with @lit? */
int imp_starts(const char *s, size_t len, const char *lit);
/* [s, s+len) without leading and trailing blanks. */
void imp_trim(const char **s, size_t *len);
/* "...", "[...]", "<SNIP>", "[snip]" alone on a line: rows a poster left out */
int imp_is_elision(const char *s, size_t len);
/* Copies at most @cap-1 bytes of a line, NUL-terminated, micro sign fixed; 0 if too long. */
int imp_copy(const char *s, size_t len, char *buf, size_t cap);
/*
 * Prefixes @b's title with its run's label ("6.6.58-stable: cyclictest
 * summary"), the line just above line @first when it is one: lines @skip
 * (may be NULL) says are the run's own are passed over; a label starts with
 * a version or with '+' and a letter ("+tweak"), or ends in ':', or names
 * @loose (may be NULL: "perf sched")
 * (docs/formats.md, "Several runs in one paste").  0 or -LAT_ENOMEM.
 */
struct lat_text;
int imp_label_title(const struct lat_text *t, size_t first,
			int (*skip)(const char *, size_t), const char *loose,
			struct lat_block *b);

#endif
