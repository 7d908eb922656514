/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The stack consumer of the wakeup pipeline (analyze/wakeup_stack.c): kernel
 * stacks interned (bounded by WK_MAX_STACKS), then blamed for off-CPU time
 * (the stack a task slept in: the core, at its switch in) and runnable time
 * (the stack of the task that held the CPU, taken when it left it: the worst
 * cases' consumer, as each wait is finished).
 *
 * Data layout: stk[] parallel to the result's stacks[] (their blame), a hash
 * of WK_MAX_STACKS * 2 slots (open addressing, -1 empty) by folded text.
 *
 * Writes (it alone): of the result: has_stacks, stacks, nstacks,
 * stacks_dropped, off_stacks/funcs, run_stacks/funcs and their counts.
 */
#ifndef LATSCOPE_WAKEUP_STACK_H
#define LATSCOPE_WAKEUP_STACK_H

#include "latscope/an_wakeup.h"

#define WK_MAX_STACKS 16384

struct wk_stack {
	uint64_t hash;
	int64_t off_ns, run_ns;
	uint64_t off_cnt, run_cnt;
};

struct wk_stacks {
	struct lat_wakeup_result *r;
	int top_n;
	int *oom;
	struct wk_stack *stk;		/* parallel to r->stacks */
	size_t stk_cap, rstk_cap, fold_cap;
	char *fold_buf;
	int32_t *stk_hash;		/* open addressing, WK_MAX_STACKS * 2 slots, -1 empty */
};

void wk_stacks_init(struct wk_stacks *st, struct lat_wakeup_result *r, int top_n, int *oom);

/* The trace has stack events. */
static inline void wk_stacks_seen(struct wk_stacks *st)
{
	st->r->has_stacks = 1;
}

/* Whether the trace has had stack events so far. */
static inline int wk_stacks_any(const struct wk_stacks *st)
{
	return st->r->has_stacks;
}

/* The id of a stack (innermost frame first), interned on first sight; -1 none. */
int32_t wk_stack_intern(struct wk_stacks *st, const uint64_t *ips, const char *const *syms,
			uint32_t depth);

/* Off-CPU time @ns (a task slept in stack @id) blamed on it: one more. */
static inline void wk_stack_blame_off(struct wk_stacks *s, int32_t id, int64_t ns)
{
	struct wk_stack *k = &s->stk[id];

	k->off_ns += ns;
	k->off_cnt++;
}

/* Runnable time @ns (the CPU's holder left it in stack @id) blamed on it: one more. */
static inline void wk_stack_blame_run(struct wk_stacks *s, int32_t id, int64_t ns)
{
	s->stk[id].run_ns += ns;
	s->stk[id].run_cnt++;
}

/* The blame lists of the result, sorted, cut to top_n.  0 or -LAT_ENOMEM. */
int wk_stacks_finish(struct wk_stacks *st);
void wk_stacks_free(struct wk_stacks *st);

#endif
