/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace.dat page walk (tracedat_walk.c): the records of one buffer, every
 * CPU's pages walked and the CPUs merged on (timestamp, cpu), the order
 * trace-cmd report uses.  Like kbuffer, an opaque walker that knows pages,
 * not events: it yields raw records, and lost-events marks where the ring
 * buffer (or a damaged page) lost some.  The event decoding (tracedat.c) sees
 * only struct td_rec.
 */
#ifndef LATSCOPE_FORMATS_TRACEDAT_WALK_H
#define LATSCOPE_FORMATS_TRACEDAT_WALK_H

#include "tracedat.h"

struct td_walk;

/* One record, lent by the walker until the next td_walk_next(). */
struct td_rec {
	const char *data;		/* the event's payload, or NULL: a lost-events mark */
	unsigned int size;		/* bytes at data */
	int cpu;
	uint64_t ts;
	uint64_t lost;			/* a mark: events lost before the next record (0 unknown) */
	int slot;			/* the CPU's index, 0 .. td_walk_slots() - 1 */
};

/*
 * Starts the walk of buffer @b of @f (its cpu table loaded, page size checked);
 * both must outlive the walker.  Where a CPU stops early or damaged pages are
 * skipped, the walker points *@stop_reason / *@skip_reason at its text (owned
 * by the walker, NULL until then).  0 with *@out set (free with td_walk_free()),
 * or -LAT_ENOMEM.
 */
int td_walk_open(struct td_walk **out, struct td_file *f, const struct td_buffer *b,
		 const char **stop_reason, const char **skip_reason);

/*
 * The next record in time order, lent until the next call; NULL at the end or
 * on an error (td_walk_error() tells which).
 */
const struct td_rec *td_walk_next(struct td_walk *w);

/* After td_walk_next() returned NULL: 0 at the end, or a negative lat_err. */
int td_walk_error(const struct td_walk *w);

/* CPU slots (the CPUs that hold data), for per-CPU state of the caller. */
int td_walk_slots(const struct td_walk *w);

/* Whether any CPU has a record left. */
int td_walk_live(const struct td_walk *w);

void td_walk_free(struct td_walk *w);

#endif
