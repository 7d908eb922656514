/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The trace.dat event source (tracedat.c: one thread; tracedat_par.c: CPUs
 * decoded by worker threads) and the finishing of a decoded event, done in
 * the merged order because it depends on the events before: its comm from
 * the saved cmdlines and what the trace taught since (tracedat_finish.c),
 * the kallsyms names of stacks and timer callbacks.
 */
#ifndef LATSCOPE_FORMATS_TRACEDAT_SRC_H
#define LATSCOPE_FORMATS_TRACEDAT_SRC_H

#include "latscope/env.h"
#include "tracedat_decode.h"

/*
 * Per CPU slot of the walk: a one-entry comm cache (runs of events share a
 * pid), emptied (td_comm_set()) whenever the comm table changes, so that a hit
 * needs no other test.
 */
struct td_ccache {
	int32_t pid;			/* TD_CC_NONE: empty */
	const char *comm;		/* LAT_COMM_LEN bytes, lent by the comm table */
};

#define TD_CC_NONE INT32_MIN
#define TD_FN_CACHE 4

struct td_par;

/*
 * The source: the file (header, options, formats: tracedat_meta.c), the
 * buffer read, its page walk (tracedat_walk.c), the decoding's types and
 * layout (tracedat_decode.h) and what the finishing keeps between events.
 */
struct td_src {
	struct lat_event_source base;
	struct td_file f;
	struct td_buffer *buf;		/* lent by f */
	struct td_walk *walk;		/* owned */
	struct td_dec dec;
	struct td_ccache *cc;		/* per walk slot (ncc), owned */
	int ncc;
	int end_pending;		/* a batch met the end after some events */
	struct td_notes notes;		/* base.stop_reason and skip_reason point in */
	uint64_t *overrun;		/* base.cpu_overrun, owned */
	uint64_t *ips;			/* one thread: a stack's addresses, lent to it */
	const char **syms;		/* a stack's symbols, lent to the event */
	struct lat_steal steal;		/* the last steal marker's values, lent */
	struct td_par *par;		/* the worker threads (tracedat_par.c), or NULL */
	/*
	 * The last hrtimer callbacks named (address, kallsyms name or NULL): a
	 * timer-heavy trace names a handful of callbacks over and over, and each
	 * tep_find_function() is a binary search of every kernel symbol.
	 */
	struct td_fn {
		uint64_t addr;
		const char *name;
	} fns[TD_FN_CACHE];
	unsigned fn_next;
};

extern const char td_comm_idle[LAT_COMM_LEN], td_comm_unknown[LAT_COMM_LEN];

/*
 * Points @cc at @pid's comm: its table entry @c (LAT_COMM_LEN bytes, NUL
 * inside, stable until the table is released) or one of the two fixed names.
 */
static inline void td_comm_cache_fill(struct td_ccache *cc, int32_t pid, const char *c)
{
	cc->comm = pid == 0 ? td_comm_idle : c ? c : td_comm_unknown;
	cc->pid = pid;
}

/* The comm of @pid, through a one-entry cache per CPU (runs of events share a pid). */
static inline void td_comm_of(struct td_src *s, struct td_ccache *cc, int32_t pid, char *dst)
{
	if (pid != cc->pid)
		td_comm_cache_fill(cc, pid, pid ? td_comm_get(&s->f.comms, pid) : NULL);
	memcpy(dst, cc->comm, LAT_COMM_LEN);
}

/* A switch to @pid whose comm the table lacks: learned; its entry, or NULL. */
const char *td_switch_learn(struct td_src *s, int32_t pid, const char *comm);

/*
 * A switch to @pid on @cc's CPU: learns its comm (the saved cmdlines lack
 * short-lived tasks) and, with the same table lookup, fills the CPU's comm
 * cache with it, since the events that follow on this CPU are that task's.
 */
static inline void td_switch_in(struct td_src *s, struct td_ccache *cc, int32_t pid,
				const char *comm)
{
	const char *c = NULL;

	if (pid > 0) {
		c = td_comm_get(&s->f.comms, pid);
		if (!c && comm[0])
			c = td_switch_learn(s, pid, comm);
	}
	if (pid >= 0)
		td_comm_cache_fill(cc, pid, c);
}

/*
 * The rest of the finishing, after the event's own comm (td_comm_of(), by the
 * caller): what it teaches the comm table (a switch's next task, a fork's
 * child, an exec's new comm), a stack's symbols (in s->syms), a steal-time
 * marker's values (in s->steal, lent until the next event) and, with
 * TD_DEC_SYM in @fl, the name of a timer callback at address @aux.  Only the
 * types in TD_FINISH_TYPES need it.
 */
void td_finish(struct td_src *s, struct td_ccache *cc, struct lat_event *ev, int fl,
	       uint64_t aux);

#define TD_FINISH_TYPES ((1u << LAT_EV_SWITCH) | (1u << LAT_EV_FORK) | (1u << LAT_EV_EXEC) | \
			 (1u << LAT_EV_STACK) | (1u << LAT_EV_TIMER_ENTRY) | (1u << LAT_EV_MARKER) | \
			 (1u << LAT_EV_TIMER_START))

/*
 * Makes the comm caches of @nslots walk slots (empty) and the stack buffers;
 * s->dec.ips_cap set.  0 or -LAT_ENOMEM; td_free() frees them either way.
 */
int td_finish_init(struct td_src *s, int nslots);

#endif
