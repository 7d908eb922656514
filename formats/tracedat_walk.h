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
#include "tracedat_merge.h"

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
 * Why CPUs stopped early and which damaged pages were skipped, as the source
 * says it (stop_reason, skip_reason): every CPU that stopped early named, the
 * first one first; the count of damaged pages and the first one.  Filled in
 * the order the merged walk meets them (tracedat_par.c replays the workers'
 * notes in that order).
 */
struct td_notes {
	const char **stop_reason;	/* the caller's, pointed at stop */
	const char **skip_reason;	/* the caller's, pointed at skip */
	char stop[512];
	uint64_t skipped;		/* pages (or their rest) skipped as damaged */
	char skip_first[256];		/* the first one: where and why */
	char skip[320];
};

/* A CPU stopped early: @text ("CPU1 data ends at ...") appended to the stop reason. */
void td_notes_stop(struct td_notes *n, const char *text);
/* A damaged page skipped: counted, @text kept when it is the first. */
void td_notes_skip(struct td_notes *n, const char *text);

/* A note of one CPU's walk, kept for the merge to replay (a walk opened per CPU). */
struct td_note {
	int skip;			/* td_notes_skip(), else td_notes_stop() */
	char *text;			/* owned */
};

/*
 * Starts the walk of buffer @b of @f (its cpu table loaded, page size checked);
 * both must outlive the walker.  Where a CPU stops early or damaged pages are
 * skipped, the walker fills @notes (the caller's, zeroed, its reason pointers
 * set).  0 with *@out set (free with td_walk_free()), or -LAT_ENOMEM.
 *
 * @per_cpu: the CPUs are walked one by one by the caller (td_walk_cpu_*(),
 * each CPU by one thread at a time), not merged; their notes are kept per CPU
 * (td_walk_cpu_notes()) instead of going to @notes.
 */
int td_walk_open(struct td_walk **out, struct td_file *f, const struct td_buffer *b,
		 struct td_notes *notes, int per_cpu);

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
	 * The CPUs' merge; its limit, the (timestamp, cpu) of the earliest CPU
	 * after the top one: while the top stays before it, the next record is
	 * the top's again and the merge heap is left alone.
	 */
	struct td_merge m;
};

/* The walker's two out-of-line halves of td_walk_next(). */
const struct td_rec *td_walk_next_slow(struct td_walk *w);
const struct td_rec *td_walk_cross(struct td_walk *w);

/*
 * Steps @c in place when its next record is a data event of type_len 1..28
 * that ends inside its page's commit (the ring-buffer layout of fast_next() in
 * tracedat_walk.c): 1.  Otherwise 0, @c untouched: long events, time extends
 * and stamps, padding and a page's end are the walker's (the fast walk only).
 */
static inline int td_cur_step(struct td_walk_cur *c)
{
	/* c->pcur <= c->psz always: every step is bounded by the commit */
	uint32_t left = c->psz - c->pcur, hd, tl;
	const char *p = c->pdata + c->pcur;

	if (left >= 4) {
		memcpy(&hd, p, 4);
		tl = hd & 31;
		if (tl - 1 < 28 && tl * 4 <= left - 4) {
			c->r.ts += hd >> 5;
			c->r.data = p + 4;
			c->r.size = tl * 4;
			c->pcur += 4 + tl * 4;
			return 1;
		}
	}
	return 0;
}

/*
 * The next record in time order, lent until the next call; NULL at the end or
 * on an error (td_walk_error() tells which).  Inline: the top CPU steps in
 * place (td_cur_step()); when that makes another CPU the earliest,
 * td_walk_cross() fixes the merge; anything else is td_walk_next_slow().
 */
static inline const struct td_rec *td_walk_next(struct td_walk *w)
{
	struct td_walk_hot *h = (struct td_walk_hot *)(void *)w;	/* its first member */
	struct td_walk_cur *c = h->hot;

	if (c && td_cur_step(c)) {
		if (td_merge_crossed(&h->m, c->r.ts, c->r.cpu))
			return td_walk_cross(w);
		return &c->r;
	}
	return td_walk_next_slow(w);
}

/* After td_walk_next() returned NULL: 0 at the end, or a negative lat_err. */
int td_walk_error(const struct td_walk *w);

/* CPU slots (the CPUs that hold data), for per-CPU state of the caller. */
int td_walk_slots(const struct td_walk *w);

/* Whether any CPU has a record left. */
int td_walk_live(const struct td_walk *w);

/*
 * A walk opened per CPU: slot @slot walked alone.  @dctx: the caller's zstd
 * context (one per thread), made on first use.  td_walk_cpu_start() takes the
 * CPU's first record, td_walk_cpu_step() its next one (after td_cur_step()
 * declined): 1 with td_walk_cpu_cur(w, slot)->r set, 0 at the CPU's end (a
 * note says why when early), or a negative lat_err.
 */
int td_walk_cpu_start(struct td_walk *w, int slot, void **dctx);
int td_walk_cpu_step(struct td_walk *w, int slot, void **dctx);
/* The CPU's cursor: its current record, and its page for td_cur_step(). */
struct td_walk_cur *td_walk_cpu_cur(struct td_walk *w, int slot);
/* Whether td_cur_step() may be used (our own page walk, not kbuffer's). */
int td_walk_fast(const struct td_walk *w);
/*
 * Whether events were lost before the current record (a lost-events mark is
 * due, then cleared): 1 with *@count (0 unknown), else 0.
 */
int td_walk_cpu_lost(struct td_walk *w, int slot, uint64_t *count);
/*
 * The notes the CPU made since the last call, in order: their count, *@out an
 * array of them (the caller frees each text and the array), or a negative lat_err.
 */
int td_walk_cpu_notes(struct td_walk *w, int slot, struct td_note **out);

void td_walk_free(struct td_walk *w);

#endif
