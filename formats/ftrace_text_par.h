/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ftrace text files parsed by worker threads (ftrace_text_par.c): the file is
 * cut into chunks at line boundaries, each chunk's lines parsed by a worker
 * (ft_parse(): the line's shape and fields, which depend on the line alone),
 * and the reader's state machine (stacks and their frames, lost-events lines,
 * legends, buffers: ftrace_text.c) takes the parsed lines in file order.
 */
#ifndef LATSCOPE_FORMATS_FTRACE_TEXT_PAR_H
#define LATSCOPE_FORMATS_FTRACE_TEXT_PAR_H

#include "ftrace_text.h"

/* Kinds beyond enum ft_kind of a parsed line. */
#define FT_OVERLONG (FT_FOREIGN + 1)	/* FT_LINE_MAX bytes or more: skipped */
#define FT_JOINED (FT_FOREIGN + 2)	/* two events a mailer joined: reported */

/*
 * One line (dequoted) parsed: ft_parse_line() unless it holds two events
 * a mailer joined (FT_JOINED, not parsed).  @nc: a CPU count the line gives,
 * else left alone.
 */
int ft_parse(const char *line, size_t len, struct lat_event *ev, struct ft_strs *strs,
	     int *nc, const char **exp);

/* An event line's event, as a worker parsed it (lent with its chunk). */
struct ft_pev {
	struct lat_event ev;		/* ev.name, u.irq.name: in the chunk */
	struct ft_flags flags;	/* flags.text: in the line (EVENT, STACK, USTACK) */
	const char *buffer;		/* trace-cmd report's "instance:" prefix, "" none */
	uint8_t rel;			/* the worker's: which pointers are offsets still */
};

/* One line of the file, parsed by a worker; lent until the puller leaves its chunk. */
struct ft_pline {
	const char *s;			/* the line, dequoted (FT_OVERLONG: NULL) */
	uint32_t len;
	uint8_t kind;			/* enum ft_kind, FT_OVERLONG or FT_JOINED */
	uint16_t nc;			/* a CPU count the line gives, 0 none */
	const char *exp;		/* FT_BAD: what was expected */
	struct ft_pev *pev;		/* EVENT, STACK, USTACK, LOST: its event, else NULL */
};

/*
 * Files smaller than this are read with one thread by default: making the
 * threads costs more than they save (bench/README-ftrace-text.md, "Threads").
 */
#define FT_PAR_MIN_BYTES (4u << 20)

struct ft_par;

/*
 * Workers for a @size-byte file read with @jobs threads in all: 0 when one
 * thread reads it.  @jobs 0, the default: a worker per online CPU (at most
 * LAT_JOBS_MAX) beside the puller, none below FT_PAR_MIN_BYTES.
 */
int ft_par_workers(uint64_t size, int jobs);

/*
 * Starts @nworkers workers parsing the @size bytes of @fd (a regular file, at
 * offset 0; the caller keeps it open).  0 with *@out set; 1 no thread could be
 * made (read with one thread); or -LAT_ENOMEM.
 */
int ft_par_open(struct ft_par **out, int fd, uint64_t size, int nworkers);

/* The next line: 1 with *@out set, 0 at the file's end, or -LAT_EIO (a read failed). */
int ft_par_next(struct ft_par *p, const struct ft_pline **out);

/* Stops the workers (each ends within its chunk), joins them and frees @p. */
void ft_par_free(struct ft_par *p);

#endif
