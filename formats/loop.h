/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the lat, lat2 and lat3 readers: the loop-log series layout. */
#ifndef LATSCOPE_FORMATS_LOOP_H
#define LATSCOPE_FORMATS_LOOP_H

#include "latscope/format.h"


extern const struct lat_column loop_columns[LAT_LOOP_NCOLS];

/*
 * The series of process @id in @b, created with the loop columns on first use.
 * NULL on allocation failure.
 */
struct lat_series *loop_series(struct lat_block *b, const char *id);
/* Processes per loop block; loop_series() returns NULL for more (rows skipped). */
#define LOOP_MAX_SERIES 256
#define LOOP_FULL_EXPECTED "at most 256 processes in one block"
int loop_full(const struct lat_block *b);

/* Counts and reports one line of a block that is not a row. */
void loop_bad_row(struct lat_block *b, struct lat_diag *d, const struct lat_line *l,
		      const char *expected);

/* What says which series a row belongs to. */
struct loop_key {
	uint64_t proc;		/* lat2 / lat3 "N:" prefix: the process (1 when none) */
	const char *mark;	/* lat: the row's mark ("x"), lent by the line */
	size_t mlen;		/* 0: no mark */
};

/*
 * Parses one row at the start of @s: returns 1 with *@key (proc left alone when
 * the row has no process prefix), row[] and *used (the bytes read, blanks after
 * the row included) filled.  What follows the row is the caller's: a note,
 * another row, or junk.
 */
typedef int (*loop_parse_fn)(const char *s, size_t len, struct loop_key *key,
				 int64_t *row, size_t *used);

/* How a reader's blocks are read: its lines that are not rows, its rows, their series. */
struct loop_how {
	/*
	 * A line that is not rows (legend, column header): 1 taken, 0 not (it is
	 * read as rows), or -LAT_ENOMEM.  NULL: none.
	 */
	int (*head)(struct lat_block *b, void *ctx, const struct lat_line *l);
	loop_parse_fn parse;
	/*
	 * The series of @key (NULL when the block is full);
	 * NULL: loop_series_num(b, key->proc).
	 */
	struct lat_series *(*series)(struct lat_block *b, void *ctx,
				     const struct loop_key *key);
	void *ctx;			/* passed to head and series */
	const char *expected;		/* a row's shape, for the lines that are neither */
};

/*
 * The note someone typed after a row's numbers ("=> process2 sleeps", "<-- here"):
 * @s with its blanks trimmed, when it has a letter and does not start with a
 * digit (a seventh number is junk, not a note).  Returns its length (0: not a note).
 */
size_t loop_note(const char *s, size_t len, const char **note);

/* Rows one line may hold (a mailer that joined lines: "... 0 1: 1112015223.380 ..."). */
#define LOOP_MAX_JOINED 8

/*
 * Parses lines [@first, @end) of @t into loop block @b: blank lines skipped,
 * how->head's lines taken, every other line read as one or more rows (rows a
 * mailer joined, each maybe with a note; all of them or none), or with the
 * next line when the mailer wrapped a row; each row goes to the series its
 * key gives.  A line that is none of these is reported (how->expected) and
 * counted.  Ends by dropping series without rows and titling the block
 * from the legends.  Returns 0, -LAT_EEMPTY without rows,
 * or -LAT_ENOMEM.
 */
int loop_parse(const struct lat_text *t, size_t first, size_t end, struct lat_block *b,
		   struct lat_diag *d, const struct loop_how *how);

/*
 * Appends @row (read from line @l) to series @s, the row's process as
 * loop_series() returned it.  Returns 1 when added; 0 when @s is NULL because
 * the block is full (the row is reported and counted as skipped); -LAT_ENOMEM.
 */
int loop_add_row(struct lat_block *b, struct lat_diag *d, const struct lat_line *l,
		     struct lat_series *s, const int64_t *row);

/* loop_series() for a numeric process id (lat2's #processN, lat3's "N:"). */
struct lat_series *loop_series_num(struct lat_block *b, uint64_t id);

/*
 * "#process1= lat2 50000": the legend that names a process in lat2/lat3 logs
 * becomes the note of that process' series.  Returns 0 (also for lines that are
 * not a legend, and past the process cap: its rows are skipped and said) or
 * -LAT_ENOMEM.
 */
int loop_legend(struct lat_block *b, const struct lat_line *l);

struct lat_scan;
/*
 * "KEY N us" (blanks around N allowed; without @unit_us the "us" is not
 * there): N microseconds into *@ns.  Returns 0 when @sc is not at that.
 */
int loop_scan_us(struct lat_scan *sc, const char *key, int unit_us, int64_t *ns);

#endif
