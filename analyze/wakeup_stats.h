/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The statistics consumer of the wakeup pipeline (analyze/wakeup_stats.c): the
 * waits counted and their histograms per task, per CPU and over all.
 *
 * Data layout: a struct wk_stats_task in each task, a struct wk_stats_cpu in
 * each CPU (both registered here: parts[], cpus[]), and the per-task bucket
 * adds batched in pend[] (WK_PEND) until flushed grouped by task.
 *
 * Writes (it alone): its parts; of the result: waits, preempt_waits,
 * untrusted, inferred_waits, first_inferred_ns, selected, all, tasks, cpus,
 * hists, lost_events.
 */
#ifndef LATSCOPE_WAKEUP_STATS_H
#define LATSCOPE_WAKEUP_STATS_H

#include "latscope/arena.h"
#include "latscope/event.h"
#include "wakeup_history.h"
#include "wakeup_hll.h"
#include "wakeup_rec.h"

#define WK_PEND 16384		/* per-task histogram buckets batched before they are added */

/*
 * A task's part: what every counted wait writes first, beside the count and
 * extremes of its histogram (hll_note()), so that a wait's end touches the
 * cache lines of one histogram only.
 */
struct wk_stats_task {
	uint64_t low_trust;		/* counted waits of low trust (wakeup_health.h) */
	uint64_t max_end;		/* when its worst wakeup wait ended */
	int32_t wait_prio;		/* the highest priority (lowest prio) its counted waits ended
					   at, INT32_MAX none: a thread that drops its class at exit
					   is still shown as it was measured */
	struct lat_hll wake, preempt;
	struct lat_hll rt;		/* its wakeup waits that ended at a real-time or deadline
					   prio: a thread's waits before it took (or after it
					   dropped) its real-time policy are not real-time waits */
	uint64_t untrusted;		/* waits across a lost-events gap, or phantom */
};

struct wk_stats_cpu {
	struct lat_hll wake, preempt;	/* waits that ended on it */
	uint64_t lost;			/* events lost in the stream */
};

/* A task's wait whose histogram bucket is still to be added (see wk_stats_flush()). */
struct wk_pend {
	uint32_t idx;			/* the task */
	uint8_t row, col;		/* the bucket */
	uint8_t preempt;		/* 1: its preemption histogram */
};

struct wk_stats {
	struct lat_wakeup_result *r;
	struct lat_arena *arena;
	int *oom;
	uint8_t classing, selecting;	/* --policy / --min-prio; any selection */
	struct wk_stats_task **parts;	/* by task idx */
	size_t nparts, parts_cap;
	struct wk_stats_cpu **cpus;	/* WK_MAX_CPUS, by number, NULL: not seen (the arena's) */
	size_t ncpus;
	struct lat_hll all;
	struct wk_pend *pend, *pend_sorted;	/* WK_PEND each, from the arena */
	size_t npend;
	uint32_t *pend_count;		/* counting sort by task, nparts + 1 */
	size_t pend_count_cap;
	/* selected tasks with wakeup waits, for their histograms (wk_stats_task_row()) */
	struct wk_stats_sel {
		const struct wk_stats_task *p;
		size_t row;		/* in r->tasks */
	} *sel;
	size_t nsel;
};

/* What the core knows of a task, for its row. */
struct wk_task_view {
	int32_t pid, prio, policy;
	const char *comm;
	uint8_t match;			/* --task matched */
	uint8_t sel;			/* a wait of it passed --policy / --min-prio */
};

void wk_stats_init(struct wk_stats *st, struct lat_wakeup_result *r, struct lat_arena *arena,
		   int *oom, int classing);
/* A new task's part, number @idx (0, 1, ...).  0 or -LAT_ENOMEM. */
int wk_stats_task_init(struct wk_stats *st, struct wk_stats_task *p, uint32_t idx);
/* A new CPU's part.  0 or -LAT_ENOMEM. */
int wk_stats_cpu_init(struct wk_stats *st, struct wk_stats_cpu *p, int32_t cpu);
/* Adds the batched per-task buckets. */
void wk_stats_flush(struct wk_stats *st);

/*
 * Per-task histogram buckets, batched.  A bucket add is one counter, but the
 * counters of hundreds of tasks spread over megabytes: added as the waits end,
 * nearly every one was a cache miss to memory (a third of the analysis time on
 * a hackbench trace).  Noted in a buffer and added WK_PEND at a time, grouped
 * by task, a task's rows are fetched once per batch.  Count, sum, min and max
 * are kept at once (hll_note()): only percentiles wait for the flush.  The
 * CPU's histogram gets the wait at once, from the same bucket index.
 */
static inline __attribute__((always_inline)) void stats_hist_add(struct wk_stats *st,
								  struct wk_stats_task *tp,
								  struct wk_stats_cpu *cp,
								  uint32_t idx, int preempt,
								  int64_t lat)
{
	struct lat_hll *ch = preempt ? &cp->preempt : &cp->wake;
	struct wk_pend *p;
	unsigned row, col;

	if (lat < 0)
		lat = 0;
	hll_index((uint64_t)lat, &row, &col);
	/* the CPU's histogram at once: the CPUs are few, their rows stay in the cache */
	if (hll_bump(ch, row, col))
		*st->oom = 1;
	hll_note(ch, lat);
	hll_note(preempt ? &tp->preempt : &tp->wake, lat);
	if (__builtin_expect(!st->pend, 0)) {
		st->pend = lat_arena_alloc(st->arena, 2 * WK_PEND * sizeof(*st->pend));
		if (!st->pend) {
			*st->oom = 1;
			return;
		}
		st->pend_sorted = st->pend + WK_PEND;
	}
	p = &st->pend[st->npend++];
	p->idx = idx;
	p->row = (uint8_t)row;
	p->col = (uint8_t)col;
	p->preempt = (uint8_t)preempt;
	if (st->npend == WK_PEND)
		wk_stats_flush(st);
}

/*
 * Wait end (task @idx's part @tp, the CPU's @cp): counted (those of low trust
 * too, and said), or counted as untrusted (a lost-events gap inside it).
 */
static inline __attribute__((always_inline)) void wk_stats_end(struct wk_stats *st,
								struct wk_stats_task *tp,
								struct wk_stats_cpu *cp,
								uint32_t idx,
								const struct wk_end *e)
{
	struct lat_wakeup_result *r = st->r;

	if (!e->trusted) {
		tp->untrusted++;
		r->untrusted++;
		return;
	}
	if (!e->counted)
		return;
	tp->low_trust += e->low_trust;
	if (e->inferred && !r->inferred_waits++)
		r->first_inferred_ns = e->end_ns;
	if (e->kind == LAT_WAIT_PREEMPT) {
		r->preempt_waits++;
		stats_hist_add(st, tp, cp, idx, 1, e->lat_ns);
		return;
	}
	r->waits++;
	if (e->prio >= -1 && e->prio < tp->wait_prio)
		tp->wait_prio = e->prio;
	if (e->lat_ns >= tp->wake.max || !tp->wake.n)
		tp->max_end = e->end_ns;
	if (e->prio >= -1 && e->prio < 100 && lat_hll_add(&tp->rt, e->lat_ns))
		*st->oom = 1;
	/* st->all is the CPUs' histograms merged at the end */
	stats_hist_add(st, tp, cp, idx, 0, e->lat_ns);
}

/* A wait ended by proof that the task ran meanwhile (a phantom): not counted. */
static inline void wk_stats_phantom(struct wk_stats_task *tp)
{
	tp->untrusted++;
}

/* @count events lost on the CPU of @cp. */
static inline void wk_stats_lost(struct wk_stats_cpu *cp, uint64_t count)
{
	cp->lost += count;
}

/* Room for the rows of @ntasks tasks.  0 or -LAT_ENOMEM. */
int wk_stats_rows_begin(struct wk_stats *st, size_t ntasks);
/* The row of a task (its part @p) in the result, when it has one to show. */
void wk_stats_task_row(struct wk_stats *st, const struct wk_task_view *v,
		       const struct wk_stats_task *p);
/*
 * The result's tables once every task has had its row: tasks sorted by @sort,
 * the CPUs (with @src's overrun), all, the histograms.  0 or -LAT_ENOMEM.
 */
int wk_stats_finish(struct wk_stats *st, const struct lat_event_source *src, const char *sort);
void wk_stats_release(struct wk_stats *st);

#endif
