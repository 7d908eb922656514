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

/*
 * How to read an input: the reading layer's options (the analysis has its own, see
 * analyze.h).  Every command fills one from the shared options (cli/options.c).
 */
struct lat_read_opts {
	const struct lat_format *format;	/* read with this reader; NULL: detect */
	const char *buffer;	/* trace.dat instance; NULL: the top one ("" too); lent */
	FILE *diag;		/* "file:line: ..." messages; NULL: only counted */
	/*
	 * Threads reading a stream (trace.dat, ftrace text file): 1 one; N the thread
	 * pulling the events and N - 1 workers; 0 the default: lat_jobs_default(), and
	 * one thread for small inputs.  The events are the same either way.
	 */
	int jobs;
};

struct lat_loaded {
	char *path;			/* owned copy */
	const char *format;		/* reader name, or "mail" when blocks differ; static */
	struct lat_block **blocks;	/* owned */
	size_t nblocks;
	size_t nlines, other_lines;
	struct lat_text text;		/* text inputs: kept while blocks may point into it */
	FILE *fp;			/* stream inputs: kept open for the event source */
	struct lat_read_opts opts;	/* as given (buffer lent by the caller) */
	char error[256];		/* empty when the input was read */
	struct lat_diag diag;
};

/*
 * Reads @path ("-" for stdin) as @o says (NULL: detect the reader, the top trace.dat buffer,
 * diagnostics only counted).  Returns 0 when at least one block was found; otherwise a
 * negative lat_err with the reason in l->error.  @l owns everything it holds (the blocks,
 * the text they point into, the open stream): release it with lat_loaded_release() in every
 * case.
 */
int lat_load(struct lat_loaded *l, const char *path, const struct lat_read_opts *o);
/*
 * The same over an open stream @fp (owned by @l from now on, closed on release); @name for
 * messages.
 */
int lat_load_fp(struct lat_loaded *l, const char *name, FILE *fp, const struct lat_read_opts *o);
/* Frees what @l holds and zeroes it. */
void lat_loaded_release(struct lat_loaded *l);

#endif
