/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The worst-cases consumer of the wakeup pipeline (analyze/wakeup_case.c,
 * the windows in wakeup_timeline.c): the worst N wakeup waits, explained
 * from the history when their window has passed (docs/wakeup.md, "The worst
 * N"), and the runnable time of every wait blamed on the holders' stacks.
 *
 * A wait that ends at a switch is finished at its CPU's next event (after the
 * stack the switch-out recorded): its CPU's part (struct wk_cases_cpu) holds
 * it until then.  A case that enters the worst is open until its window [ws,
 * we] has passed (wk_cases_tick()), then built.  One ranked among the
 * timelines asked for also has a timeline window [tws, twe] inside it (the
 * same but for long waits, wk_tl_margin()): what ran is taken from the
 * history when that one has passed, the rest with the case.
 *
 * Writes (it alone): its parts; of the result: worst, nworst.  Reads the
 * history, the chain, and adds runnable blame to the stacks.
 */
#ifndef LATSCOPE_WAKEUP_CASE_H
#define LATSCOPE_WAKEUP_CASE_H

#include "wakeup_chain.h"
#include "wakeup_history.h"
#include "wakeup_stack.h"

#define WK_SPARES 4		/* timeline slice buffers kept for reuse */
#define WK_TL_MARGIN_CAP (50 * LAT_NS_PER_MS)	/* a timeline's margins beyond: the wait's 1/8 */

/* A wait that ended at a switch, finished at the CPU's next event (after its stack). */
struct wk_done {
	uint8_t valid, candidate;
	int32_t pid;
	enum lat_wait_kind kind;
	uint64_t start, end;
	int verdict;			/* judged at its end (enum lat_verdict_kind), -1 not */
	enum lat_verdict_basis vbasis;
	struct lat_wake_case c;
};

struct wk_cases_cpu {
	struct wk_done done;
};

/* A task (or irq) in a case's window: its slices (or runs) summed. */
struct wk_hold {
	int64_t key;			/* pid, or irq number * 2 + softirq */
	uint32_t idx;			/* ring position of its newest */
	uint32_t n;			/* how many */
	int64_t ns;			/* overlap with the window, summed */
	int64_t longest;		/* its longest slice with a stack, -1 none */
	uint32_t longest_idx;
};

/* A lat_bigmap() buffer of timeline slices kept for the next case. */
struct wk_spare {
	struct lat_tl_slice *p;		/* NULL: empty slot */
	size_t cap, maplen;
	void *map;
};

/*
 * A worst case; open until its window [ws, we] has passed and it is built.
 * Its timeline's window is [tws, twe] (inside): c.tl is made when that one
 * has passed (wk_tl_snap()) while it ranks among the timelines asked for.
 */
struct wk_worst {
	struct lat_wake_case c;
	uint64_t ws, we;
	uint64_t tws, twe;
	size_t slcap, mkcap, sumcap;
	void *slmap;			/* tl->slices is a lat_bigmap() mapping: this, slmaplen */
	size_t slmaplen;
	uint8_t open;
	int verdict;			/* judged at its end, -1 not: the case keeps it */
	enum lat_verdict_basis vbasis;
};

struct wk_cases {
	const struct wk_history *h;	/* lent: what the cases are explained from */
	const struct wk_chain *chain;	/* lent */
	struct wk_stacks *stacks;	/* lent: runnable blame goes there */
	int worst_n, timelines;
	int64_t threshold_ns;
	int *oom;
	struct wk_worst **worst;	/* by latency, descending */
	size_t nworst, nopen;
	uint64_t next_we;		/* no open case's window ends before this */
	struct wk_spare spares[WK_SPARES];	/* pushed-out cases' slice buffers, for reuse */
	struct wk_hold *hold;		/* scratch: a window's tasks or irqs (hold_slices()) */
	size_t hold_cap, nhold;
	int32_t *hold_ix;		/* their index by key, open addressing, -1 empty */
	size_t hold_hcap;
};

/*
 * What a case ranks by among the worst: its latency, or for an inferred
 * switch-in the part it surely waited, up to end_low_ns (docs/wakeup.md, "The
 * worst N"): an unrecorded switch-in is not a confirmed worst case.
 */
static inline int64_t wk_rank_ns(const struct lat_wake_case *c)
{
	return c->inferred_end && c->end_low_ns < c->end_ns ?
	       (int64_t)(c->end_low_ns - c->start_ns) : c->latency_ns;
}

/* Whether a wait of rank @lat enters the worst N. */
static inline int wk_qualifies(const struct wk_cases *cs, int64_t lat)
{
	if (cs->worst_n <= 0)
		return 0;
	return cs->nworst < (size_t)cs->worst_n ||
	       lat > wk_rank_ns(&cs->worst[cs->nworst - 1]->c);
}

/* Room for the worst N (and one more); no window open yet.  0 or -LAT_ENOMEM. */
int wk_cases_init(struct wk_cases *cs, const struct lat_analyze_opts *o,
		  const struct wk_history *h, const struct wk_chain *chain,
		  struct wk_stacks *stacks, int *oom);
/* Finishes the wait the CPU (@cp, its history @hc) holds: its blame, its place in the worst. */
void wk_cases_finish_done(struct wk_cases *cs, struct wk_cases_cpu *cp, const struct wk_hcpu *hc);
void wk_cases_keep(struct wk_cases_cpu *cp, struct wk_cases *cs, const struct wk_end *e);

/*
 * Wait end (counted): the CPU's waiting one is finished, this one kept until
 * the CPU's next event when it may enter the worst or its runnable time is to
 * be blamed on stacks.
 */
static inline void wk_cases_end(struct wk_cases *cs, struct wk_cases_cpu *cp,
				const struct wk_hcpu *hc, const struct wk_end *e)
{
	struct wk_done *d = &cp->done;

	if (d->valid)
		wk_cases_finish_done(cs, cp, hc);
	d->candidate = e->ranked && e->kind != LAT_WAIT_PREEMPT &&
		       wk_qualifies(cs, wk_end_rank(e));
	if (!d->candidate && !wk_stacks_any(cs->stacks))
		return;
	wk_cases_keep(cp, cs, e);
}

/* Any event but a stack on the CPU: the wait it holds is finished. */
static inline void wk_cases_event(struct wk_cases *cs, struct wk_cases_cpu *cp,
				  const struct wk_hcpu *hc)
{
	if (cp->done.valid)
		wk_cases_finish_done(cs, cp, hc);
}

/* Builds the open cases whose window ended before @ts; notes when the next one ends. */
void wk_cases_tick(struct wk_cases *cs, uint64_t ts);
/* The trace ended at @last_ns: every open case is built. */
void wk_cases_close_all(struct wk_cases *cs, uint64_t last_ns);
/* Moves the cases into @r->worst (the worst first), with their timelines. */
int wk_cases_take(struct wk_cases *cs, struct lat_wakeup_result *r);
void wk_cases_free(struct wk_cases *cs);

/* ---- wakeup_timeline.c: a case's window of every CPU's slices -------------------------- */

/*
 * The margin of a timeline on each side of a wait of @latency_ns: half of it,
 * but beyond WK_TL_MARGIN_CAP only that or an eighth of it, whichever is
 * longer (the wait fills most of the chart); 100 us at least.
 */
uint64_t wk_tl_margin(int64_t latency_ns);
/* What ran in @x's timeline window, from the history as it is at @until: x->c.tl made. */
void wk_tl_snap(struct wk_cases *cs, struct wk_worst *x, uint64_t until);
/* @x's timeline, snapped now if not before, with the case built: its brackets and edges. */
void wk_tl_build(struct wk_cases *cs, struct wk_worst *x, uint64_t until);
/* @x's timeline dropped (it ranks past the timelines asked for), its slice buffer kept. */
void wk_tl_drop(struct wk_cases *cs, struct wk_worst *x);
/* Keeps @x's slice buffer for reuse in place of the smallest spare (or leaves it). */
void wk_tl_keep_spare(struct wk_cases *cs, struct wk_worst *x);
void wk_tl_spares_free(struct wk_cases *cs);

#endif
