/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The history the wakeup analysis keeps to explain waits after they end
 * (analyze/wakeup_history.c): per CPU what runs now and rings of the last
 * running slices and irq handlers, and for all CPUs rings of the last
 * markers, migrations, lost-events gaps and stalls.  Bounded: the source
 * cannot be rewound (docs/wakeup.md, "Why bounded rings").
 *
 * Data layout:
 *   struct wk_history          one per analysis, in struct wk; its memory is the arena's
 *     cpus[i] -> wk_hcpu       embedded in the core's struct wk_cpu
 *       ring[rcap]             slices, oldest at rhead (rcap a power of two)
 *       coarse                 with timelines: the slices the ring let go of, merged
 *                              (wakeup_coarse.h); NULL without
 *       irqs[WK_IRQ_RING]      handler runs, oldest at ihead
 *     marks[mcap], migs[], rgaps[], rstalls[]   rings, oldest at *head
 *
 * Writer: the core (wakeup_core.c) alone, through the inline push functions
 * below.  Readers (const): the worst cases (wakeup_case.c), the verdict sums
 * (wk_history_unseen()), the rt consumer and the probe view.
 */
#ifndef LATSCOPE_WAKEUP_HISTORY_H
#define LATSCOPE_WAKEUP_HISTORY_H

#include "latscope/arena.h"
#include "wakeup_coarse.h"
#include "wakeup_rec.h"

#define WK_RING_MIN 4096	/* slices kept per CPU: explains waits up to that many switches, */
#define WK_RING_MAX 32768	/* ... more where the CPUs are few: */
#define WK_RING_BYTES ((size_t)24 << 20)	/* all CPUs' slice rings together */
#define WK_IRQ_RING 2048
#define WK_MARK_RING 256		/* markers kept for the cases' explanations */
#define WK_MARK_RING_TL 16384		/* when timelines are drawn: a window's every marker */
#define WK_MIG_RING 4096	/* migrations of all CPUs, for the timelines */
#define WK_GAP_RING 64
#define WK_STALL_RING 64	/* recent stalls, for the cases built later */
#define WK_MAX_CPUS 4096	/* CPU numbers above are skipped (per-CPU tables of pointers) */
#define WK_UNSEEN_RING 64	/* recent unseen switch-ins per CPU, for the verdict sums */

/*
 * An empty slice of a task (pid > 0) right after another task's slice that
 * ended where it starts: a switch out of a task the CPU was not known to run
 * (or one that ran 0 ns), which ran at an unknown point of the slice before.
 */
struct wk_unseen_rec {
	uint64_t from, to;		/* the slice before */
	int32_t pid;			/* the task switched out */
	char comm[LAT_COMM_LEN];
};
/* A CPU's history: the task on it now, then its last slices and irqs. */
struct wk_hcpu {
	int32_t id;
	int32_t cur_pid, cur_prio;	/* the task running now (cur_known) */
	uint64_t cur_start;
	uint8_t cur_known;
	char cur_comm[LAT_COMM_LEN];
	/*
	 * The current task was seen running on another CPU from cut_ns (its switch-in
	 * there) while this CPU's switches still said it ran here: its slice here ended
	 * by then.  Valid while cut_pid and cut_of are cur_pid and cur_start.  Only the
	 * exported slice is cut (wakeup_sink.c); the ring keeps what the switches said.
	 */
	uint64_t cut_ns, cut_of;
	int32_t cut_pid;
	struct wk_slice *ring;
	size_t rhead, rlen, rcap;
	struct wk_irq *irqs;
	size_t ihead, ilen;
	struct wk_unseen_rec *unseen;	/* WK_UNSEEN_RING, oldest at uhead */
	size_t uhead, ulen;
	struct wk_coarse_cpu *coarse;	/* the slices the full ring let go of, merged; NULL:
					   not kept (no timeline asked) */
};

struct wk_mig {
	uint64_t ts_ns;
	int32_t from_cpu, to_cpu, pid;
	char comm[LAT_COMM_LEN];
};

struct wk_history {
	struct wk_hcpu **cpus;		/* WK_MAX_CPUS, by number, NULL: not seen (the arena's) */
	size_t ncpus;
	uint32_t coarse_cap;		/* spans per level of each CPU's coarse history, 0: none */
	uint64_t ngaps;			/* gaps ever: a wait across one is untrusted */
	struct lat_wake_marker *marks;	/* a ring of mcap, from the arena at the first marker */
	size_t mhead, mlen, mcap;
	struct wk_mig *migs;		/* WK_MIG_RING recent migrations, at the first one */
	size_t mighead, nmig;
	struct lat_wake_gap rgaps[WK_GAP_RING];	/* recent lost-events gaps */
	size_t gaphead, ngap;
	struct lat_wake_stall rstalls[WK_STALL_RING];	/* recent stalls */
	size_t stallhead, nstall;
};

/* Slice @i of @c's ring, 0 the oldest. */
static inline const struct wk_slice *wk_ring_at(const struct wk_hcpu *c, size_t i)
{
	return &c->ring[(c->rhead + i) & (c->rcap - 1)];
}

static inline const struct wk_irq *wk_irq_at(const struct wk_hcpu *c, size_t i)
{
	return &c->irqs[(c->ihead + i) % WK_IRQ_RING];
}

static inline const struct lat_wake_marker *wk_recent_mark(const struct wk_history *h, size_t i)
{
	return &h->marks[(h->mhead + i) % h->mcap];
}

static inline const struct wk_mig *wk_recent_mig(const struct wk_history *h, size_t i)
{
	return &h->migs[(h->mighead + i) % WK_MIG_RING];
}

static inline const struct lat_wake_gap *wk_recent_gap(const struct wk_history *h, size_t i)
{
	return &h->rgaps[(h->gaphead + i) % WK_GAP_RING];
}

static inline const struct lat_wake_stall *wk_recent_stall(const struct wk_history *h, size_t i)
{
	return &h->rstalls[(h->stallhead + i) % WK_STALL_RING];
}

/* The newest stall, or NULL. */
static inline const struct lat_wake_stall *wk_last_stall(const struct wk_history *h)
{
	return h->nstall ? wk_recent_stall(h, h->nstall - 1) : NULL;
}

/* ---- the core's writes --------------------------------------------------------------- */

/*
 * The ring's next slot, the oldest slice's once the ring is full: the caller
 * fills it.  The oldest goes to the coarse history first, where one is kept.
 */
static inline struct wk_slice *wk_ring_next(struct wk_hcpu *c)
{
	size_t pos;

	if (c->rlen < c->rcap) {
		pos = (c->rhead + c->rlen++) & (c->rcap - 1);
	} else {
		pos = c->rhead;
		c->rhead = (c->rhead + 1) & (c->rcap - 1);
		if (__builtin_expect(c->coarse != NULL, 0))
			wk_coarse_add(c->coarse, &c->ring[pos]);
	}
	return &c->ring[pos];
}

/* The newest slice of @c's ring (rlen > 0), for its stack. */
static inline struct wk_slice *wk_ring_last(struct wk_hcpu *c)
{
	return &c->ring[(c->rhead + c->rlen - 1) & (c->rcap - 1)];
}

/*
 * The slot for a new entry of a ring of @cap (oldest at @head, @len kept): the
 * next free one, or the oldest once full.  Inline: @cap is a constant at most calls.
 */
static inline size_t wk_ring_push(size_t *head, size_t *len, size_t cap)
{
	size_t pos;

	if (*len < cap)
		return (*head + (*len)++) % cap;
	pos = *head;
	*head = (*head + 1) % cap;
	return pos;
}

void wk_history_note_unseen(struct wk_hcpu *c, const struct wk_slice *s);

/* Slice @s was just put in @c's ring: an unseen switch-in when it is empty after another. */
static inline void wk_history_pushed(struct wk_hcpu *c, const struct wk_slice *s)
{
	if (__builtin_expect(s->start == s->end && s->pid > 0, 0) && c->rlen >= 2)
		wk_history_note_unseen(c, s);
}

static inline void wk_history_irq(struct wk_hcpu *c, const struct wk_irq *q)
{
	c->irqs[wk_ring_push(&c->ihead, &c->ilen, WK_IRQ_RING)] = *q;
}

static inline void wk_history_gap(struct wk_history *h, const struct lat_wake_gap *g)
{
	h->rgaps[wk_ring_push(&h->gaphead, &h->ngap, WK_GAP_RING)] = *g;
}

static inline void wk_history_stall(struct wk_history *h, const struct lat_wake_stall *s)
{
	h->rstalls[wk_ring_push(&h->stallhead, &h->nstall, WK_STALL_RING)] = *s;
}

/* A CPU's rings, @rcap slices (a power of two), from @arena.  0 or -LAT_ENOMEM. */
int wk_hcpu_init(struct wk_hcpu *c, int32_t cpu, size_t rcap, struct lat_arena *arena);
/*
 * Registers @c as CPU c->id's history (the table from @arena), with its coarse
 * history when h->coarse_cap says so.  0 or -LAT_ENOMEM.
 */
int wk_history_add_cpu(struct wk_history *h, struct wk_hcpu *c, struct lat_arena *arena);
/* The slot of a new marker (the ring from @arena, @cap entries, at the first), or NULL. */
struct lat_wake_marker *wk_history_mark(struct wk_history *h, struct lat_arena *arena,
					size_t cap);
/* The slot of a new migration (the ring from @arena at the first), or NULL. */
struct wk_mig *wk_history_mig(struct wk_history *h, struct lat_arena *arena);

/* ---- readers ----------------------------------------------------------------------------- */

/*
 * The part of [a, b) inside the stalls of @cpu (and of every CPU) still kept:
 * their union (an every-CPU stall lies inside a CPU's longer one).
 */
int64_t wk_stall_overlap(const struct wk_history *h, int32_t cpu, uint64_t a, uint64_t b);

/* A task that ran on a CPU with no recorded switch-in, at an unknown point of ns of a wait. */
struct wk_unseen {
	int32_t pid;			/* -1: none */
	char comm[LAT_COMM_LEN];
	int64_t ns;
};

/*
 * The longest unseen switch-in on @c inside [start, end) of another task than
 * @pid (docs/wakeup.md, "Inferred switch-ins"): a switch whose previous task
 * was not the CPU's current one leaves that task's slice ending there, then
 * an empty slice of the task switched out, which ran at an unknown point of
 * the slice before.  From the slices still in the ring.
 */
void wk_history_unseen(const struct wk_hcpu *c, int32_t pid, uint64_t start, uint64_t end,
		       struct wk_unseen *u);
/* The same from the last WK_UNSEEN_RING such slices noted (wk_history_pushed()): cheap. */
void wk_history_unseen_recent(const struct wk_hcpu *c, int32_t pid, uint64_t start,
			      uint64_t end, struct wk_unseen *u);

/*
 * The probe samples' spans (pr_spans_fn, analyze_priv.h): CPU @cpu's
 * slices (the one running now up to @to), irqs, stalls and lost events that
 * overlap [@from, @to], @src a const struct wk_history.  Irqs older than the
 * ring keeps are an unknown span.
 */
struct pr_hspan;
void wk_history_spans(const void *src, int32_t cpu, uint64_t from, uint64_t to,
		      void (*fn)(void *arg, const struct pr_hspan *s), void *arg);
/* wk_stall_overlap() for the probe, @src a const struct wk_history; 0 when @to <= @from. */
int64_t wk_history_stall_ns(const void *src, int32_t cpu, uint64_t from, uint64_t to);

#endif
