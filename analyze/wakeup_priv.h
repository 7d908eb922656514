/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The wakeup analysis' working state (analyze/wakeup*.c only).  Everything here
 * is bounded: per-CPU rings of recent slices and irqs, a ring of recent markers,
 * per-task state (O(tasks), not O(events)) and the worst-N cases with their
 * timeline windows.
 */
#ifndef LATSCOPE_WAKEUP_PRIV_H
#define LATSCOPE_WAKEUP_PRIV_H

#include "latscope/an_wakeup.h"
#include "latscope/analyze.h"

#define WK_RING 4096		/* slices kept per CPU: explains waits up to that many switches */
#define WK_IRQ_RING 2048
#define WK_MARK_RING 256
#define WK_MIGR_RING 4096	/* migrations of every task kept for the timelines */
#define WK_MAX_CPUS 4096
#define WK_MAX_STACKS 16384
#define WK_HELD_LAZY (-2)	/* a link's held_by not worked out yet */

struct wk_slice {
	uint64_t start, end;
	int32_t pid, prio, stack;
	char comm[LAT_COMM_LEN];
	uint8_t preempted;
};

struct wk_irq {
	uint64_t start, end;
	int32_t irq;
	uint8_t soft;
	char name[24];
};

struct wk_open_irq {
	uint8_t open;
	uint64_t start;
	int32_t irq;
	char name[24];
};

enum wk_stack_kind { WK_STK_NONE, WK_STK_SWITCH, WK_STK_WAKING };

/* A wait that ended at a switch, finished at the CPU's next event (after its stack). */
struct wk_done {
	uint8_t valid, candidate;
	int32_t pid;
	enum lat_wait_kind kind;
	uint64_t start, end;
	struct lat_wake_case c;
};

struct wk_cpu {
	int32_t cur_pid, cur_prio;
	char cur_comm[LAT_COMM_LEN];
	uint64_t cur_start, last_ts;
	uint8_t cur_known, seen;
	struct wk_slice *ring;
	size_t rhead, rlen;
	struct wk_irq *irqs;
	size_t ihead, ilen;
	struct wk_open_irq hard, soft;
	enum wk_stack_kind stack_kind;
	int32_t stack_pid;
	struct wk_done done;
	struct lat_hll wake, preempt;
	uint64_t lost;
};

struct wk_task {
	int32_t pid, prio;
	char comm[LAT_COMM_LEN];
	int32_t on_cpu;
	uint8_t pending, match, has_tent, off, nchain, nlast, nmigr;
	enum lat_wait_kind kind;
	uint64_t start, gaps_at_start;
	int32_t queued_cpu;
	uint32_t migr_dropped;
	struct lat_wake_waker waker, tent;
	struct lat_wake_link chain[LAT_WAKE_CHAIN_MAX];	/* the waker's chain at the waking */
	struct lat_wake_link last[LAT_WAKE_CHAIN_MAX];	/* [0] its own last wait, then its chain */
	struct lat_wake_migr migr[LAT_WAKE_MIGR_MAX];
	uint64_t off_start;
	int32_t off_stack;
	struct lat_hll wake, preempt;
	uint64_t untrusted, max_end;
};

struct wk_stack {
	uint64_t hash;
	int64_t off_ns, run_ns;
	uint64_t off_cnt, run_cnt;
};

/* A worst case plus the window its timeline is still collecting. */
struct wk_worst {
	struct lat_wake_case c;
	uint64_t ws, we;
	size_t slcap, mkcap;
	uint8_t open;
};

struct wk {
	const struct lat_analyze_opts *o;
	struct lat_wakeup_result *r;
	int32_t filter_pid;		/* -1: by comm (filter_comm) or no filter */
	const char *filter_comm;
	struct wk_cpu **cpus;
	size_t ncpus;
	struct wk_task **tasks;		/* open addressing by pid */
	size_t tcap, ntasks;
	struct lat_hll all;
	uint64_t ngaps;
	struct lat_wake_marker marks[WK_MARK_RING];
	size_t mhead, mlen;
	/*
	 * A case's window opens when the case ends: what other tasks' migrations
	 * did before then comes from here, as slices come from the CPU rings.
	 */
	struct wk_migr {
		uint64_t ts_ns;
		int32_t from_cpu, to_cpu, pid;
		char comm[LAT_COMM_LEN];
	} *migrs;			/* WK_MIGR_RING, allocated at the first migration */
	size_t ghead, glen;
	struct wk_stack *stk;		/* parallel to r->stacks */
	size_t stk_cap, rstk_cap, fold_cap;
	char *fold_buf;
	int32_t *stk_hash;		/* open addressing, WK_MAX_STACKS * 2 slots, -1 empty */
	struct wk_worst **worst;	/* by latency, descending */
	size_t nworst, nopen;
	int oom;
};

static inline const struct wk_slice *wk_ring_at(const struct wk_cpu *c, size_t i)
{
	return &c->ring[(c->rhead + i) % WK_RING];
}

static inline const struct wk_irq *wk_irq_at(const struct wk_cpu *c, size_t i)
{
	return &c->irqs[(c->ihead + i) % WK_IRQ_RING];
}

/* wakeup_case.c */
int wk_qualifies(const struct wk *w, int64_t lat);
void wk_resolve_link(const struct wk *w, struct lat_wake_link *l);
void wk_finish_done(struct wk *w, struct wk_cpu *c, int32_t cpu);
void wk_cap_slice(struct wk *w, int32_t cpu, const struct wk_slice *s);
void wk_cap_irq(struct wk *w, int32_t cpu, const struct wk_irq *q);
void wk_cap_mark(struct wk *w, enum lat_tl_mark_kind kind, uint64_t start, uint64_t end,
		 int32_t cpu, int32_t other, int32_t pid, int64_t value, const char *label);
void wk_cap_tick(struct wk *w, uint64_t ts);
void wk_cap_close_all(struct wk *w);
void wk_worst_free(struct wk_worst *x);
/* wakeup_result.c */
int wk_build_results(struct wk *w, const struct lat_event_source *src);
void wk_result_free(void *p);
void wk_add_findings(struct lat_block *b, const struct lat_analyze_opts *o,
		     const struct lat_wakeup_result *r);
/* wakeup_stack.c */
int32_t wk_stack_intern(struct wk *w, const uint64_t *ips, const char *const *syms,
			uint32_t depth);
int wk_blame_finish(struct wk *w);
void wk_stacks_free(struct wk *w);

#endif
