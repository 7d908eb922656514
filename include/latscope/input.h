/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Opening an input: probe, pick a reader (or take --format), and cut it into
 * blocks.  Shared by `analyze` and `render` so both see the same blocks.
 */
#ifndef LATSCOPE_INPUT_H
#define LATSCOPE_INPUT_H

#include "format.h"

/*
 * Most blocks read from one text input; later ones are counted, not parsed
 * (each costs a parse, an analysis and a report section).
 */
#define LAT_MAX_BLOCKS 65536u

struct lat_loaded {
	char *path;			/* owned copy */
	const char *format;		/* reader name, or "mail" when blocks differ; static */
	struct lat_block **blocks;	/* owned */
	size_t nblocks;
	size_t nlines, other_lines;
	struct lat_text text;		/* text inputs: kept while blocks may point into it */
	FILE *fp;			/* stream inputs: kept open for the event source */
	const char *buffer;		/* trace.dat instance asked for, or NULL; lent */
	char error[256];		/* empty when the input was read */
	struct lat_diag diag;
};

/*
 * Reads @path ("-" for stdin) with reader @forced (NULL: detect).  Diagnostics
 * go to @diag_out.  Returns 0 when at least one block was found; otherwise a
 * negative lat_err with the reason in l->error.  Release with lat_loaded_release()
 * in every case.
 */
int lat_load(struct lat_loaded *l, const char *path, const struct lat_format *forced,
	     FILE *diag_out);
/*
 * The same over an open stream @fp (owned from now on, closed on release);
 * @name for messages, @buffer as for lat_load_buffer().
 */
int lat_load_fp(struct lat_loaded *l, const char *name, FILE *fp, const struct lat_format *forced,
		const char *buffer, FILE *diag_out);
/* lat_load() with a trace.dat instance to read (@buffer, NULL: the top one). */
int lat_load_buffer(struct lat_loaded *l, const char *path, const struct lat_format *forced,
		    const char *buffer, FILE *diag_out);
void lat_loaded_release(struct lat_loaded *l);

#endif
