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

#include <string.h>

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
 * What td_walk_next() reads inline (the kbuffer-like fast path, no call per
 * record): the top CPU's current record and page (the fast walk's cursor),
 * and the (timestamp, cpu) of the earliest other CPU.  The walker's own;
 * callers only go through td_walk_next().
 */
struct td_walk_cur {
	struct td_rec r;		/* the CPU's current record */
	const char *pdata;		/* the fast walk: page data, commit size, offset */
	uint32_t psz, pcur;
};

struct td_walk_hot {
	struct td_walk_cur *hot;	/* the top CPU when its next record may be stepped in
					   place (the fast walk), NULL otherwise */
	/*
	 * (timestamp, cpu) of the earliest CPU after the top one: while the top
	 * stays before it, the next record is the top's again and the merge heap
	 * is left alone (UINT64_MAX, INT_MAX when the top is alone).
	 */
	uint64_t lim_ts;
	int lim_cpu;
};

/* The walker's two out-of-line halves of td_walk_next(). */
const struct td_rec *td_walk_next_slow(struct td_walk *w);
const struct td_rec *td_walk_cross(struct td_walk *w);

/*
 * The next record in time order, lent until the next call; NULL at the end or
 * on an error (td_walk_error() tells which).  Inline: a data event of type_len
 * 1..28 that ends inside its page's commit is stepped here (the ring-buffer
 * layout of fast_next() in tracedat_walk.c); when that makes another CPU the
 * earliest, td_walk_cross() fixes the merge; anything else (long events, time
 * extends and stamps, padding, a page's end, lost marks, kbuffer's walk) is
 * td_walk_next_slow().  Nothing changes unless the event is taken.
 */
static inline const struct td_rec *td_walk_next(struct td_walk *w)
{
	struct td_walk_hot *h = (struct td_walk_hot *)(void *)w;	/* its first member */
	struct td_walk_cur *c = h->hot;

	if (c) {
		/* c->pcur <= c->psz always: every step is bounded by the commit */
		uint32_t left = c->psz - c->pcur, hd, tl;
		const char *p = c->pdata + c->pcur;

		if (left >= 4) {
			memcpy(&hd, p, 4);
			tl = hd & 31;
			if (tl - 1 < 28 && tl * 4 <= left - 4) {
				uint64_t ts = c->r.ts + (hd >> 5);

				c->r.ts = ts;
				c->r.data = p + 4;
				c->r.size = tl * 4;
				c->pcur += 4 + tl * 4;
				if (h->lim_ts < ts || (h->lim_ts == ts && h->lim_cpu < c->r.cpu))
					return td_walk_cross(w);
				return &c->r;
			}
		}
	}
	return td_walk_next_slow(w);
}

/* After td_walk_next() returned NULL: 0 at the end, or a negative lat_err. */
int td_walk_error(const struct td_walk *w);

/* CPU slots (the CPUs that hold data), for per-CPU state of the caller. */
int td_walk_slots(const struct td_walk *w);

/* Whether any CPU has a record left. */
int td_walk_live(const struct td_walk *w);

void td_walk_free(struct td_walk *w);

#endif
