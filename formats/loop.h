/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the lat, lat2 and lat3 readers: the loop-log series layout. */
#ifndef LATSCOPE_FORMATS_LOOP_H
#define LATSCOPE_FORMATS_LOOP_H

#include "latscope/format.h"


extern const struct lat_column lat_loop_columns[LAT_LOOP_NCOLS];

/*
 * The series of process @id in @b, created with the loop columns on first use.
 * NULL on allocation failure.
 */
struct lat_series *lat_loop_series(struct lat_block *b, const char *id);
/* Processes per loop block; lat_loop_series() returns NULL for more (rows skipped). */
#define LAT_LOOP_MAX_SERIES 256
#define LAT_LOOP_FULL_EXPECTED "at most 256 processes in one block"
int lat_loop_full(const struct lat_block *b);

/* Counts and reports one line of a block that is not a row. */
void lat_loop_bad_row(struct lat_block *b, struct lat_diag *d, const struct lat_line *l,
		      const char *expected);

/*
 * A row the mailer wrapped: lines @i and @i + 1 (< @end) joined by a blank
 * into @buf (@size bytes).  Returns the joined length, or 0 when there is no
 * next line to join or the two do not fit.
 */
size_t lat_loop_join(const struct lat_text *t, size_t i, size_t end, char *buf, size_t size);

/* Parses one row of a numbered-process log: returns 1 with *proc and row[] filled. */
typedef int (*lat_loop_parse_fn)(const char *s, size_t len, uint64_t *proc, int64_t *row);

/*
 * Reads line *@i with @parse; when it fails, tries it joined with the next line
 * (a row the mailer wrapped) and then steps *@i past both.  Returns 1 with the
 * row parsed, 0 when neither reads (the caller reports line *@i).
 */
int lat_loop_read_row(const struct lat_text *t, size_t *i, size_t end, lat_loop_parse_fn parse,
		      uint64_t *proc, int64_t *row);

/*
 * Appends @row (read from line @l) to series @s, the row's process as
 * lat_loop_series() returned it.  Returns 1 when added; 0 when @s is NULL because
 * the block is full (the row is reported and counted as skipped); -LAT_ENOMEM.
 */
int lat_loop_add_row(struct lat_block *b, struct lat_diag *d, const struct lat_line *l,
		     struct lat_series *s, const int64_t *row);

/* lat_loop_series() for a numeric process id (lat2's #processN, lat3's "N:"). */
struct lat_series *lat_loop_series_num(struct lat_block *b, uint64_t id);

/*
 * "#process1= lat2 50000": the legend that names a process in lat2/lat3 logs
 * becomes the note of that process' series.  Returns 0 (also for lines that are
 * not a legend, and past the process cap: its rows are skipped and said) or
 * -LAT_ENOMEM.
 */
int lat_loop_legend(struct lat_block *b, const struct lat_line *l);

/* Ends a parse: drops series without rows, titles the block from the legends. */
void lat_loop_finish(struct lat_block *b);

#endif
