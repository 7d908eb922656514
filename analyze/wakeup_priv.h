/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The wakeup analysis' working state (analyze/wakeup*.c only).  Everything here
 * is bounded: per-CPU rings of recent slices and irqs, a ring of recent markers,
 * per-task state (O(tasks), not O(events)) and the worst-N cases with their
 * timeline windows.  struct wk is made of sub-structs, each written by one
 * file (its comment says which, and how the others reach it; the table in
 * docs/hacking.md, "The wakeup analysis' state").
 */
#ifndef LATSCOPE_WAKEUP_PRIV_H
#define LATSCOPE_WAKEUP_PRIV_H

#include <stddef.h>

#include "latscope/an_wakeup.h"
#include "latscope/arena.h"
#include "latscope/analyze.h"
#include "analyze_priv.h"

#define WK_RING_MIN 4096	/* slices kept per CPU: explains waits up to that many switches, */
#define WK_RING_MAX 32768	/* ... more where the CPUs are few: */
#define WK_RING_BYTES ((size_t)24 << 20)	/* all CPUs' slice rings together */
#define WK_IRQ_RING 2048
#define WK_MARK_RING 256		/* markers kept for the cases' explanations */
#define WK_MARK_RING_TL 16384		/* when timelines are drawn: a window's every marker */
#define WK_MIG_RING 4096	/* migrations of all CPUs, for the timelines */
#define WK_GAP_RING 64
#define WK_STALL_RING 64	/* recent stalls, for the cases built later */
#define WK_MAX_CPUS 4096
#define WK_MAX_STACKS 16384
#define WK_HELD_LAZY (-2)	/* a link's held_by not worked out yet */
#define WK_NODES 32768		/* ended waits remembered for chains (a power of two) */
#define WK_SPARES 4		/* timeline slice buffers kept for reuse */
#define WK_PR_IRQS 4		/* irq entry names kept per CPU for the probe samples */
#define WK_PEND 16384		/* per-task histogram buckets batched before they are added */

struct wk_slice {
	uint64_t start, end;
	int32_t pid, prio, stack;
	char comm[LAT_COMM_LEN];
	uint8_t preempted;
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

/*
 * Running sums of a CPU's time (ns) by who ran, for the verdicts of every wait
 * above the threshold: a wait's share of each is the difference of the sums at
 * its end and at its start.  A slice is added when it ends; a stall is taken
 * off the class of the task it was charged to, and added to stall.
 */
enum wk_cum_kind { WK_CUM_IDLE, WK_CUM_DL, WK_CUM_RT, WK_CUM_FAIR, WK_CUM_UNK, WK_CUM_IRQ,
		   WK_CUM_STALL, WK_CUM_N };

struct wk_cum {
	uint64_t v[WK_CUM_N];
};

/*
 * A task's snapshot of its CPU's sums at the start of its wait (or its last
 * migration), one cache line: the running task's slice so far (not in the
 * sums yet) is added to its class, so that a wait's share of each is the
 * sums at its end less these.
 */
struct wk_snap {
	struct wk_cum s;
	uint64_t ts;			/* when taken */
};

struct wk_cpu {
	int32_t id;
	int32_t cur_pid, cur_prio;
	uint32_t nq;			/* tasks waiting for it (pending waits queued on it) */
	uint64_t area, area_ts;		/* nq integrated over time (ns), up to area_ts */
	uint64_t owed_since;		/* a task woken for it should run at once: since, 0 none */
	int32_t owed_pid;
	char owed_comm[LAT_COMM_LEN];
	char cur_comm[LAT_COMM_LEN];
	struct wk_task *cur_task;	/* cur_pid's task when looked up since it ran, or NULL */
	uint64_t cur_start, last_ts;
	uint8_t cur_known, seen;
	struct wk_slice *ring;
	size_t rhead, rlen, rcap;	/* rcap: a power of two */
	struct wk_irq *irqs;
	size_t ihead, ilen;
	struct wk_open_irq hard, soft, timer;	/* timer: an hrtimer callback running */
	enum wk_stack_kind stack_kind;
	int32_t stack_pid;
	struct wk_done done;
	struct lat_hll wake, preempt;
	uint64_t lost;
	struct wk_cum cum;
	uint64_t cum_rt[100];		/* real-time time by prio */
	/* for the probe samples (wk_probe_view()) */
	uint8_t cur_switched;		/* cur_start is a sched_switch's (2: an inferred one) */
	uint8_t pr_ihead;
	uint64_t pr_irq_ts, pr_expire_ts;	/* the last irq entry, hrtimer_wakeup expiry */
	uint64_t pr_lost_ts;		/* the last lost-events mark */
	struct {
		uint64_t ts;
		char name[24];
	} pr_irq[WK_PR_IRQS];		/* the last irq entries' names */
};

/*
 * An ended wait, as a link of the chains through it.  Chains are shared, not
 * copied: a wait points at its waker's last ended wait (parent), which stays
 * what it was, so following parents gives the chain as it was at each waking.
 * Nodes live in a ring of WK_NODES; seq tells whether a slot was reused.
 */
struct wk_node {
	uint64_t seq, parent;		/* parent: seq of the waker's last wait, 0 none */
	/* what a struct lat_wake_link holds that is known at the end (node_link()) */
	uint64_t start_ns, end_ns;
	int32_t pid, cpu;
	char comm[LAT_COMM_LEN];
	struct lat_wake_waker waker;
	uint8_t kind, preempted;
} __attribute__((aligned(128)));

_Static_assert(sizeof(struct wk_node) == 128, "struct wk_node: two cache lines");

/* The pid beside the pointer: a probe past other pids does not load their tasks. */
struct wk_slot {
	int32_t pid;
	struct wk_task *t;		/* NULL: empty */
};

/* A task's wait whose histogram bucket is still to be added (see wk_pend_flush). */
struct wk_pend {
	uint32_t idx;			/* the task */
	uint8_t row, col;		/* the bucket */
	uint8_t preempt;		/* 1: its preemption histogram */
};

/*
 * The first 64 bytes are what every event about the task touches (the arena
 * aligns it to 64): lookup, the comm check, and the start of a wait.  A wait's
 * start and end touch the next four lines too (the rest of the wait, its
 * snapshot, its waker and the probe's notes), and its histogram's count and
 * extremes; the rest is rarer.
 */
struct wk_task {
	int32_t pid, prio;
	int32_t on_cpu, queued_cpu;
	uint64_t start;
	uint64_t chain_ref;		/* the waker's last wait at the waking (a node), 0 none */
	char comm[LAT_COMM_LEN];
	uint64_t gaps_at_start;
	uint8_t pending, match, has_tent, off, nmigr, kind;	/* kind: enum lat_wait_kind */
	uint8_t at_wakeup;		/* the pending wait started at a sched_wakeup(_new) */
	uint8_t sel;			/* a wait of it passed --policy / --min-prio */
	/* line 1: the rest of a wait's start and end, and of a sleep's start */
	uint8_t inferred;		/* the wait ending now ends at an inferred switch-in */
	uint8_t queued_busy;		/* a task (not idle) ran where it was queued then */
	uint8_t plus;			/* its preemption wait began at an R+ switch-out */
	uint32_t idx;			/* creation order, for batching its histogram buckets */
	uint64_t last_ref;		/* its own last ended wait (a node), 0 none */
	int32_t owed_cpu;		/* the CPU that owes it a switch (owe()), -1 none */
	int32_t qcpu;			/* the CPU whose run queue it waits in, -1 none */
	int32_t rq_wake, area_cpu;	/* run-queue depth at the waking; area0's CPU */
	uint64_t area0;			/* that CPU's area at the start of the wait */
	int32_t wait_prio;		/* the highest priority (lowest prio) its counted waits ended
					   at, INT32_MAX none: a thread that drops its class at exit
					   is still shown as it was measured */
	int32_t snap_cpu;		/* whose sums snap holds, -1 none */
	uint64_t queued_ns;		/* of the wait, before its last migration */
	uint64_t off_start;
	/* line 2 */
	struct wk_snap snap;
	/* lines 3-4: its waker, and its last waking for the probe samples: when, for
	   which CPU, by which CPU and that CPU's last irq entry and hrtimer expiry
	   then (0 none); the rest of a wait's */
	struct lat_wake_waker waker;
	int32_t pw_cpu, pw_wcpu;
	uint64_t pw_ts, pw_irq_ts, pw_expire_ts;
	uint32_t migr_dropped;
	int32_t off_stack;
	uint64_t max_end;
	uint64_t end_low;		/* an inferred switch-in: no earlier than this */
	/* then the rarer */
	struct lat_hll wake, preempt;
	uint64_t untrusted;
	uint64_t snap_rt_hi, snap_rt_same;	/* real-time time above and at its priority, at
						   the snapshot (a real-time task's) */
	struct lat_wake_waker tent;
	struct lat_wake_migr migr[LAT_WAKE_MIGR_MAX];
	/* cold: a recorded sched_setscheduler() */
	uint8_t ss_pending;		/* inside sched_setscheduler(): ss_target, ss_policy */
	int32_t ss_target, ss_policy;
	int32_t policy;			/* set by a recorded sched_setscheduler(), -1 none */
};

_Static_assert(offsetof(struct wk_task, snap) == 128 && sizeof(struct wk_snap) == 64 &&
	       offsetof(struct wk_task, waker) == 192 && offsetof(struct wk_task, wake) == 320,
	       "struct wk_task: the lines of a wait");

/* A lat_bigmap() buffer of timeline slices kept for the next case. */
struct wk_spare {
	struct lat_tl_slice *p;		/* NULL: empty slot */
	size_t cap, maplen;
	void *map;
};

struct wk_mig {
	uint64_t ts_ns;
	int32_t from_cpu, to_cpu, pid;
	char comm[LAT_COMM_LEN];
};

struct wk_stack {
	uint64_t hash;
	int64_t off_ns, run_ns;
	uint64_t off_cnt, run_cnt;
};

/* A worst case; open until its window [ws, we] has passed and it is built. */
struct wk_worst {
	struct lat_wake_case c;
	uint64_t ws, we;
	size_t slcap, mkcap;
	void *slmap;			/* tl->slices is a lat_bigmap() mapping: this, slmaplen */
	size_t slmaplen;
	uint8_t open;
};

/*
 * The per-task histogram buckets batched (wk_hist_add(), wk_pend_flush()):
 * wakeup_hist.c's alone, written by nobody else; freed by wk_batch_free().
 */
struct wk_batch {
	struct wk_pend *pend, *pend_sorted;	/* WK_PEND each, from the arena */
	size_t npend;
	uint32_t *pend_count;		/* counting sort by task, ntasks + 1 */
	size_t pend_count_cap;
};

/*
 * The kernel stacks interned (wk_stack_intern()), with the time blamed on
 * each: wakeup_stack.c's; the others add blame through wk_stack_blame_off()
 * and wk_stack_blame_run() only.  Freed by wk_stacks_free().
 */
struct wk_stacks {
	struct wk_stack *stk;		/* parallel to r->stacks */
	size_t stk_cap, rstk_cap, fold_cap;
	char *fold_buf;
	int32_t *stk_hash;		/* open addressing, WK_MAX_STACKS * 2 slots, -1 empty */
};

/*
 * The ended waits behind the chains (struct wk_node): wakeup.c's alone, which
 * pushes one at every ended wait (end_wait()) and copies a case's chain out
 * of them (chain_copy()).  A mapping of its own (4 MiB: two huge pages; in
 * the arena its header would take a third), freed by wk_release().
 */
struct wk_chain {
	struct wk_node *nodes;		/* WK_NODES, lat_bigmap()ed at the first ended wait */
	void *map;			/* for lat_bigmap_free(): map, maplen */
	size_t maplen;
	uint64_t nseq;			/* seq of the newest node */
};

/*
 * The selection (--task, --policy, --min-prio): wakeup.c's, set once by
 * wk_setup(), which also marks the tasks that match (task_matches(),
 * class_ok()); the others ask wk_sel_classing().
 */
struct wk_sel {
	int32_t filter_pid;		/* -1: by comm (filter_comm) or no filter */
	enum lat_sched_policy filter_pol;	/* LAT_POL_UNKNOWN: any */
	int min_prio;			/* real-time priority at least, 0 any */
	uint8_t classing;		/* filter_pol or min_prio set */
	uint8_t any_match;		/* some task matched --task */
	const char *filter_comm;
};

/* Whether --policy or --min-prio select: then only tasks with a wait that passed count. */
static inline int wk_sel_classing(const struct wk_sel *s)
{
	return s->classing;
}

/*
 * The task table: wakeup.c's, which creates the tasks (get_task(), new_task())
 * and frees the table; the others read it through wk_tasks_next() (every
 * task, in table order) and wk_task_by_idx().  The tasks live in the arena.
 */
struct wk_tasks {
	struct wk_slot *slots;		/* open addressing by pid; allocated before the first event */
	size_t tcap, ntasks;
	struct wk_task **by_idx;	/* tasks by idx */
	size_t by_idx_cap;
};

/* The task with creation number @idx (< ntasks). */
static inline struct wk_task *wk_task_by_idx(const struct wk_tasks *ts, uint32_t idx)
{
	return ts->by_idx[idx];
}

/* The next task of the table from slot *@i on (*@i moves past it), NULL after the last. */
static inline struct wk_task *wk_tasks_next(const struct wk_tasks *ts, size_t *i)
{
	for (; *i < ts->tcap; (*i)++)
		if (ts->slots[*i].t)
			return ts->slots[(*i)++].t;
	return NULL;
}

/*
 * The recent markers, migrations, lost-events gaps and stalls, in rings for
 * the cases built later: wakeup.c's, whose event handlers push; the others
 * read entry i (0 the oldest) of a ring of mlen, nmig, ngap, nstall with
 * wk_recent_mark(), _mig(), _gap(), _stall().
 */
struct wk_recent {
	uint64_t ngaps;			/* gaps ever: a wait across one is untrusted */
	struct lat_wake_marker *marks;	/* a ring of mcap, from the arena at the first marker */
	size_t mhead, mlen, mcap;
	struct wk_mig *migs;		/* WK_MIG_RING recent migrations, at the first one */
	size_t mighead, nmig;
	struct lat_wake_gap rgaps[WK_GAP_RING];	/* recent lost-events gaps, likewise */
	size_t gaphead, ngap;
	struct lat_wake_stall rstalls[WK_STALL_RING];	/* recent stalls, likewise */
	size_t stallhead, nstall;
};

static inline const struct lat_wake_marker *wk_recent_mark(const struct wk_recent *r, size_t i)
{
	return &r->marks[(r->mhead + i) % r->mcap];
}

static inline const struct wk_mig *wk_recent_mig(const struct wk_recent *r, size_t i)
{
	return &r->migs[(r->mighead + i) % WK_MIG_RING];
}

static inline const struct lat_wake_gap *wk_recent_gap(const struct wk_recent *r, size_t i)
{
	return &r->rgaps[(r->gaphead + i) % WK_GAP_RING];
}

static inline const struct lat_wake_stall *wk_recent_stall(const struct wk_recent *r, size_t i)
{
	return &r->rstalls[(r->stallhead + i) % WK_STALL_RING];
}

/*
 * The worst cases, open until their window has passed (wk_cap_tick()), and
 * wakeup_case.c's scratch: wakeup_case.c's alone.  wakeup.c reads next_we on
 * every event and asks wk_qualifies() at every wait's end; wakeup_result.c
 * moves the cases into the result with wk_cases_take().  Made by
 * wk_cases_init(), freed by wk_cases_free().
 */
struct wk_cases {
	struct wk_worst **worst;	/* by latency, descending */
	size_t nworst, nopen;
	uint64_t next_we;		/* no open case's window ends before this */
	struct wk_spare spares[WK_SPARES];	/* pushed-out cases' slice buffers, for reuse */
	struct wk_hold *hold;		/* scratch: a window's tasks or irqs (hold_slices()) */
	size_t hold_cap, nhold;
	int32_t *hold_ix;		/* their index by key, open addressing, -1 empty */
	size_t hold_hcap;
};

struct wk {
	const struct lat_analyze_opts *o;
	struct lat_wakeup_result *r;
	struct wk_sel sel;		/* wakeup.c's */
	uint8_t activity;		/* r->activity kept */
	uint8_t sink_wait, sink_slice;	/* o->sink takes waits, slices (tested at each) */
	uint8_t wake_tent;		/* o->wake_start: waits start at sched_wakeup */
	int64_t above_ns;		/* waits of this or more get a verdict (verdict_above) */
	int64_t fail_ns;		/* waits over this count in over_limit (--fail-above) */
	struct wk_cpu **cpus;
	size_t ncpus;
	size_t ring_cap;		/* slices per CPU ring */
	struct wk_tasks tasks;		/* wakeup.c's */
	struct lat_hll all;
	struct wk_recent recent;	/* wakeup.c's */
	size_t nowed;			/* CPUs that owe a switch */
	struct wk_stacks stacks;	/* wakeup_stack.c's */
	struct wk_chain chain;		/* wakeup.c's */
	struct wk_cases cases;		/* wakeup_case.c's */
	struct lat_arena arena;		/* CPUs, rings, tasks, histogram rows (not the nodes) */
	struct wk_batch batch;		/* wakeup_hist.c's */
	struct lat_probe *pr;		/* the probe samples, NULL: not collected */
	struct lat_probe_seen pseen;
	int oom;
};

static inline const struct wk_slice *wk_ring_at(const struct wk_cpu *c, size_t i)
{
	return &c->ring[(c->rhead + i) & (c->rcap - 1)];
}

static inline const struct wk_irq *wk_irq_at(const struct wk_cpu *c, size_t i)
{
	return &c->irqs[(c->ihead + i) % WK_IRQ_RING];
}

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

/* Whether a wait of rank @lat (wk_rank_ns()) enters the worst N (wakeup_case.c's). */
static inline int wk_qualifies(const struct wk *w, int64_t lat)
{
	const struct wk_cases *cs = &w->cases;

	if (w->o->worst_n <= 0)
		return 0;
	return cs->nworst < (size_t)w->o->worst_n || lat > wk_rank_ns(&cs->worst[cs->nworst - 1]->c);
}

/* lat_sched_policy_of(), inline for the per-wait checks of wakeup.c */
static inline enum lat_sched_policy wk_policy_of(int32_t prio)
{
	if (prio < 0)
		return prio == -1 ? LAT_POL_DEADLINE : LAT_POL_UNKNOWN;
	if (prio < 100)
		return LAT_POL_RT;
	if (prio < 140)
		return LAT_POL_FAIR;
	return LAT_POL_UNKNOWN;
}

/* wakeup_case.c */
int64_t wk_stall_overlap(const struct wk *w, int32_t cpu, uint64_t a, uint64_t b);
void wk_resolve_link(struct wk *w, struct lat_wake_link *l);
void wk_finish_done(struct wk *w, struct wk_cpu *c, int32_t cpu);
void wk_cap_tick(struct wk *w, uint64_t ts);
void wk_cap_close_all(struct wk *w);
int wk_cases_init(struct wk_cases *cs, int worst_n);
int wk_cases_take(struct wk_cases *cs, struct lat_wakeup_result *r);
void wk_cases_free(struct wk_cases *cs);
/* wakeup_verdict.c */
int wk_rank(int32_t prio, int32_t hprio);
void wk_verdict(struct lat_wake_case *c);
void wk_chain_verdict(struct lat_wake_case *c, int64_t threshold_ns);
/* wakeup_activity.c: result->activity, when lat_analyze_opts.activity */
enum wk_act_what { WK_ACT_BUSY, WK_ACT_IRQ, WK_ACT_RQ };
void wk_act_add(struct wk *w, int32_t cpu, enum wk_act_what what, uint64_t from, uint64_t to,
		uint64_t weight);
void lat_wake_activity_free(struct lat_wake_activity *a);
/* wakeup_hist.c */
int wk_hll_bump_slow(struct lat_hll *h, unsigned row, unsigned col);
void wk_pend_flush(struct wk *w);
void wk_batch_free(struct wk_batch *b);
/* wakeup_result.c */
int wk_build_results(struct wk *w, const struct lat_event_source *src);
void wk_result_free(void *p);
void wk_add_findings(struct lat_block *b, const struct lat_analyze_opts *o,
		     const struct lat_wakeup_result *r);
/* wakeup_stack.c */
int32_t wk_stack_intern(struct wk *w, const uint64_t *ips, const char *const *syms,
			uint32_t depth);
int wk_blame_finish(struct wk *w);
void wk_stacks_free(struct wk_stacks *s);

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
/* wakeup_names.c: the public lat_sched_*, lat_wake_*_name, lat_*_parse (latscope/an_wakeup.h) */

/* ---- wakeup_hist.c's per-wait part, inline in end_wait() ---- */

static inline void hll_index(uint64_t v, unsigned *row, unsigned *col)
{
	unsigned m, shift;

	if (v < 2 * LAT_HLL_SUB) {
		*row = (unsigned)(v / LAT_HLL_SUB);
		*col = (unsigned)(v % LAT_HLL_SUB);
		return;
	}
	m = 63u - (unsigned)__builtin_clzll(v);
	shift = m - 7;
	*row = m - 6;
	*col = (unsigned)((v >> shift) - LAT_HLL_SUB);
}

/*
 * The row table: LAT_HLL_ROWS row pointers, then each row's count, so that a
 * percentile walk reads the few rows its ranks fall in, not every bucket.
 */
#define HLL_TABLE_BYTES (LAT_HLL_ROWS * (sizeof(void *) + sizeof(uint64_t)))
/*
 * A row's counters are uint8_t while its count is below HLL_W8, uint16_t while
 * below HLL_W16, uint32_t from then on: a counter is at most its row's count,
 * so none can overflow its width, and the width needs no flag.  Nearly every
 * per-task row holds fewer than 255 values.
 */
#define HLL_W8 255u
#define HLL_W16 65535u

static inline uint64_t *hll_row_counts(void *const *rows)
{
	return (uint64_t *)(void *)(rows + LAT_HLL_ROWS);
}

/* Bucket @col of row @r (allocated) of the table @rows. */
static inline uint32_t hll_get(void *const *rows, unsigned r, unsigned col)
{
	uint64_t n = hll_row_counts(rows)[r];

	if (n < HLL_W8)
		return ((const uint8_t *)rows[r])[col];
	return n < HLL_W16 ? ((const uint16_t *)rows[r])[col] : ((const uint32_t *)rows[r])[col];
}

static inline void hll_note(struct lat_hll *h, int64_t v)
{
	if (v < 0)
		v = 0;
	if (!h->n || v < h->min)
		h->min = v;
	if (!h->n || v > h->max)
		h->max = v;
	h->n++;
	h->sum += (double)v;
}

/*
 * The bucket (@row, @col) of @h, one more: inline while its row exists and
 * keeps its width (8 or 16 bits).
 */
static inline int hll_bump(struct lat_hll *h, unsigned row, unsigned col)
{
	void *r;
	uint64_t *n;

	if (__builtin_expect(!h->rows || !(r = h->rows[row]), 0))
		return wk_hll_bump_slow(h, row, col);
	n = &hll_row_counts(h->rows)[row];
	if (*n < HLL_W8 - 1)
		((uint8_t *)r)[col]++;
	else if (*n >= HLL_W8 && *n < HLL_W16 - 1)
		((uint16_t *)r)[col]++;
	else
		return wk_hll_bump_slow(h, row, col);
	(*n)++;
	return 0;
}

/*
 * Per-task histogram buckets, batched.  A bucket add is one counter, but the
 * counters of hundreds of tasks spread over megabytes: added as the waits end,
 * nearly every one was a cache miss to memory (a third of the analysis time on
 * a hackbench trace).  Noted in a buffer and added WK_PEND at a time, grouped
 * by task, a task's rows are fetched once per batch.  Count, sum, min and max
 * are kept at once (lat_hll_note): only percentiles wait for the flush.  The
 * CPU's histogram (@c) gets the wait at once, from the same bucket index.
 */
static inline __attribute__((always_inline)) void wk_hist_add(struct wk *w, struct wk_task *t,
							       struct wk_cpu *c, int preempt,
							       int64_t lat)
{
	struct lat_hll *ch = preempt ? &c->preempt : &c->wake;
	struct wk_batch *b = &w->batch;
	struct wk_pend *p;
	unsigned row, col;

	if (lat < 0)
		lat = 0;
	hll_index((uint64_t)lat, &row, &col);
	/* the CPU's histogram at once: the CPUs are few, their rows stay in the cache */
	if (hll_bump(ch, row, col))
		w->oom = 1;
	hll_note(ch, lat);
	hll_note(preempt ? &t->preempt : &t->wake, lat);
	if (__builtin_expect(!b->pend, 0)) {
		b->pend = lat_arena_alloc(&w->arena, 2 * WK_PEND * sizeof(*b->pend));
		if (!b->pend) {
			w->oom = 1;
			return;
		}
		b->pend_sorted = b->pend + WK_PEND;
	}
	p = &b->pend[b->npend++];
	p->idx = t->idx;
	p->row = (uint8_t)row;
	p->col = (uint8_t)col;
	p->preempt = (uint8_t)preempt;
	if (b->npend == WK_PEND)
		wk_pend_flush(w);
}

/*
 * The verdict of a wait of @lat from the time of each cause: irq and softirq
 * handlers when over half (their time lies inside the holders'), then queued
 * elsewhere when over half and a task held that CPU (@queued_busy), else the
 * first largest of the others in enum order.  One rule for both callers:
 * verdict_of() in wakeup.c, for every wait above the threshold, passes its sums
 * as they are; the cases' verdicts (wakeup_verdict.c) their parts array
 * (wk_verdict_pick()).
 */
static inline enum lat_verdict_kind wk_verdict_choose(int64_t lat, int64_t irq, int64_t queued,
						      int queued_busy, int64_t same, int64_t hi,
						      int64_t lo, int64_t stall, int64_t idle,
						      int64_t untrusted)
{
	enum lat_verdict_kind k = LAT_VERDICT_CPU_SATURATED;
	int64_t best = same;

	_Static_assert(LAT_VERDICT_CPU_SATURATED < LAT_VERDICT_HIGHER_PRIORITY &&
		       LAT_VERDICT_HIGHER_PRIORITY < LAT_VERDICT_NOT_PREEMPTIBLE &&
		       LAT_VERDICT_NOT_PREEMPTIBLE < LAT_VERDICT_STALL &&
		       LAT_VERDICT_STALL < LAT_VERDICT_IDLE && LAT_VERDICT_IDLE < LAT_VERDICT_UNTRUSTED &&
		       LAT_VERDICT_UNTRUSTED + 1 == LAT_VERDICT_N,
		       "wk_verdict_choose() takes the parts in enum order");
	if (irq * 2 > lat)
		return LAT_VERDICT_IRQ;
	if (queued * 2 > lat && queued_busy)
		return LAT_VERDICT_QUEUED;
	if (hi > best)
		k = LAT_VERDICT_HIGHER_PRIORITY, best = hi;
	if (lo > best)
		k = LAT_VERDICT_NOT_PREEMPTIBLE, best = lo;
	if (stall > best)
		k = LAT_VERDICT_STALL, best = stall;
	if (idle > best)
		k = LAT_VERDICT_IDLE, best = idle;
	if (untrusted > best)
		k = LAT_VERDICT_UNTRUSTED, best = untrusted;
	return best > 0 ? k : LAT_VERDICT_NONE;
}

/* wk_verdict_choose() on a parts array indexed by enum lat_verdict_kind. */
static inline enum lat_verdict_kind wk_verdict_pick(const int64_t part[LAT_VERDICT_N],
						    int64_t lat, int queued_busy)
{
	return wk_verdict_choose(lat, part[LAT_VERDICT_IRQ], part[LAT_VERDICT_QUEUED], queued_busy,
				 part[LAT_VERDICT_CPU_SATURATED], part[LAT_VERDICT_HIGHER_PRIORITY],
				 part[LAT_VERDICT_NOT_PREEMPTIBLE], part[LAT_VERDICT_STALL],
				 part[LAT_VERDICT_IDLE], part[LAT_VERDICT_UNTRUSTED]);
}

#endif
