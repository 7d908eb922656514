/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The verdict sums consumer of the wakeup pipeline (analyze/wakeup_sums.c):
 * the verdict of every counted wakeup wait of the threshold or more, from
 * running sums of who ran (docs/wakeup.md, "Verdicts of every wait").
 *
 * Per CPU, the time (ns) of each class of task that ran, of irq handlers and
 * of stalls, summed as each slice, handler and stall ends (struct wk_sums_cpu;
 * a handler still open counts its time so far at a snapshot and at a wait's end);
 * per task, a snapshot of its CPU's sums at the start of its wait or its last
 * migration (struct wk_sums_task): a wait's share of each is the difference
 * at its end.  A stall is taken off the class of the task it was charged to.
 *
 * Writes (it alone): its parts; of the result: verdicts_above, above.
 */
#ifndef LATSCOPE_WAKEUP_SUMS_H
#define LATSCOPE_WAKEUP_SUMS_H

#include "wakeup_history.h"
#include "wakeup_rec.h"

enum wk_cum_kind { WK_CUM_IDLE, WK_CUM_DL, WK_CUM_RT, WK_CUM_FAIR, WK_CUM_UNK, WK_CUM_IRQ,
		   WK_CUM_STALL, WK_CUM_N };

struct wk_cum {
	uint64_t v[WK_CUM_N];
};

#define WK_SUMS_LATE 8		/* late stalls and unknown stretches remembered per CPU */

/*
 * Time taken late off the class of @pid (at @prio), @ns of it: a stall charged
 * at a probe marker (@at) that ended at @to, or (@unk) the stretch [@from, @at)
 * of a missing switch, found at its end and moved to the unknown.
 */
struct wk_sums_late {
	uint64_t at, to, ns, from;
	int32_t pid, prio;
	uint8_t unk;
};

struct wk_sums_cpu {
	struct wk_cum cum;
	uint64_t cum_rt[100];		/* real-time time by prio */
	struct wk_sums_late late[WK_SUMS_LATE];	/* a ring, lhead the next */
	uint8_t lhead, nlate;
	uint64_t st_from, st_to;	/* the stall time charged last (a union), st_to 0 none */
	uint64_t irq_since[2];		/* the open hard [0] and soft [1] handler's entry */
	uint8_t irq_open;		/* bit k: irq_since[k] holds one */
};

/*
 * A task's snapshot of its CPU's sums at the start of its wait (or its last
 * migration), one cache line first: the running task's slice so far (not in
 * the sums yet) is added to its class, so that a wait's share of each is the
 * sums at its end less these.
 */
struct wk_sums_task {
	struct {
		struct wk_cum s;
		uint64_t ts;		/* when taken */
	} snap __attribute__((aligned(64)));
	int32_t snap_cpu;		/* whose sums snap holds, -1 none */
	uint8_t queued_busy;		/* a task (not idle) ran where it was queued then */
	uint64_t queued_ns;		/* of the wait, before its last migration */
	uint64_t snap_rt_hi, snap_rt_same;	/* real-time time above and at its priority, at
						   the snapshot (a real-time task's) */
};

struct wk_sums {
	struct lat_wakeup_result *r;
	int64_t above_ns;		/* waits of this or more are judged */
};

static inline enum wk_cum_kind cum_kind(int32_t pid, int32_t prio)
{
	if (pid == 0)
		return WK_CUM_IDLE;
	if (prio >= 100 && prio < 140)
		return WK_CUM_FAIR;
	if (prio >= 0 && prio < 100)
		return WK_CUM_RT;
	return prio == -1 ? WK_CUM_DL : WK_CUM_UNK;
}

/* Slice end: @ns (may be "negative": a stall taken off) of task @pid at @prio on @cp. */
static inline void wk_sums_slice(struct wk_sums_cpu *cp, int32_t pid, int32_t prio, uint64_t ns)
{
	enum wk_cum_kind k = cum_kind(pid, prio);

	cp->cum.v[k] += ns;
	if (k == WK_CUM_RT)
		cp->cum_rt[prio] += ns;
}

/* Irq entry (@soft: a softirq) at @ts on @cp: its time so far counts in a snapshot. */
static inline void wk_sums_irq_entry(struct wk_sums_cpu *cp, int soft, uint64_t ts)
{
	cp->irq_since[soft] = ts;
	cp->irq_open |= (uint8_t)(1u << soft);
}

/* Irq end: a handler (@soft: a softirq) ran @ns on @cp. */
static inline void wk_sums_irq(struct wk_sums_cpu *cp, int soft, uint64_t ns)
{
	cp->cum.v[WK_CUM_IRQ] += ns;
	cp->irq_open &= (uint8_t)~(1u << soft);
}

/* Lost events: the handlers open on @cp are forgotten, as the core forgets them. */
static inline void wk_sums_lost(struct wk_sums_cpu *cp)
{
	cp->irq_open = 0;
}

/*
 * The time at @ts of the handlers still open on @cp (not in the sums until they
 * end): a wait that starts or ends inside a handler (a wakeup from an irq starts
 * in one) counts only its own part of it, as the case's irq list does.
 */
static inline uint64_t wk_sums_irq_open_ns(const struct wk_sums_cpu *cp, uint64_t ts)
{
	uint64_t ns = 0;

	for (int k = 0; k < 2; k++)
		if ((cp->irq_open >> k & 1) && ts > cp->irq_since[k])
			ns += ts - cp->irq_since[k];
	return ns;
}

void wk_sums_snap_rt(struct wk_sums_task *tp, const struct wk_sums_cpu *cp,
		     const struct wk_hcpu *hc, int32_t prio, uint64_t part);

/* @tp's snapshot of the CPU's sums (@cp, its history @hc) at @ts; @prio: the task's. */
static inline void wk_sums_snap(struct wk_sums_task *tp, const struct wk_sums_cpu *cp,
				const struct wk_hcpu *hc, int32_t prio, uint64_t ts)
{
	uint64_t part = hc->cur_known && ts > hc->cur_start ? ts - hc->cur_start : 0;
	enum wk_cum_kind part_kind = cum_kind(hc->cur_pid, hc->cur_prio);

	tp->snap.s = cp->cum;
	tp->snap.s.v[part_kind] += part;
	if (__builtin_expect(cp->irq_open, 0))
		tp->snap.s.v[WK_CUM_IRQ] += wk_sums_irq_open_ns(cp, ts);
	tp->snap.ts = ts;
	tp->snap_cpu = hc->id;
	if (prio >= 0 && prio < 100)
		wk_sums_snap_rt(tp, cp, hc, prio, part);
}

/* Wait start: nothing measured yet. */
static inline void wk_sums_start(struct wk_sums_task *tp)
{
	tp->snap_cpu = -1;
	tp->queued_ns = 0;
	tp->queued_busy = 0;
}

/*
 * A pending wait begun at @start moves at @ts from the CPU @from (its history,
 * NULL unknown) to @to (its sums and history, NULL unknown): the time so far
 * counts as queued, busy when a task ran where it leaves; the sums start again.
 */
static inline void wk_sums_migrate(struct wk_sums_task *tp, const struct wk_hcpu *from,
				   const struct wk_sums_cpu *to, const struct wk_hcpu *to_h,
				   int32_t prio, uint64_t start, uint64_t ts)
{
	tp->queued_ns = ts > start ? ts - start : 0;
	tp->queued_busy = from && from->cur_known && from->cur_pid > 0;
	if (to)
		wk_sums_snap(tp, to, to_h, prio, ts);
	else
		tp->snap_cpu = -1;
}

/*
 * A stall @from..@to on the CPU (@cp, its history @hc): charged to no one.  An
 * every-CPU stall and the CPU's own silence around it end at the same event:
 * the time they share is charged once.
 */
static inline void wk_sums_stall(struct wk_sums_cpu *cp, const struct wk_hcpu *hc, uint64_t from,
				 uint64_t to)
{
	uint64_t ns = to - from;

	if (cp->st_to > from && cp->st_from < to) {
		uint64_t lo = from > cp->st_from ? from : cp->st_from;
		uint64_t hi = to < cp->st_to ? to : cp->st_to;

		ns -= hi - lo;
		cp->st_from = from < cp->st_from ? from : cp->st_from;
		cp->st_to = to > cp->st_to ? to : cp->st_to;
	} else {
		cp->st_from = from;
		cp->st_to = to;
	}
	if (!ns)
		return;
	if (hc->cur_known)
		wk_sums_slice(cp, hc->cur_pid, hc->cur_prio, -ns);
	cp->cum.v[WK_CUM_STALL] += ns;
}

/*
 * A stall of @ns on the CPU (@cp) found late (at a probe marker, @at) that
 * ended at @to while task @pid of @prio (-1 unknown) was on it: charged to no
 * one, and remembered so that a wait whose snapshot was taken between @to and
 * @at does not lose what its snapshot never had (sums_parts()).
 */
static inline void wk_sums_stall_late(struct wk_sums_cpu *cp, int32_t pid, int32_t prio,
				      uint64_t ns, uint64_t to, uint64_t at)
{
	if (pid >= 0)
		wk_sums_slice(cp, pid, prio, -ns);
	cp->cum.v[WK_CUM_STALL] += ns;
	cp->late[cp->lhead] = (struct wk_sums_late){ .at = at, .to = to, .ns = ns, .pid = pid,
						     .prio = prio };
	cp->lhead = (uint8_t)((cp->lhead + 1) % WK_SUMS_LATE);
	if (cp->nlate < WK_SUMS_LATE)
		cp->nlate++;
}

/*
 * A switch went missing on CPU @cpu (@cp, the history @h): the stretch [@from,
 * @to) that the sums gave to task @pid at @prio (its slice ran on to @to) was
 * run by nobody known.  Its time outside stalls moves to the unknown, and is
 * remembered: a wait whose snapshot fell inside it had part of it in its
 * snapshot (sums_parts()).
 */
void wk_sums_unknown(struct wk_sums_cpu *cp, const struct wk_history *h, int32_t cpu,
		     int32_t pid, int32_t prio, uint64_t from, uint64_t to);

/* The verdict of wait @e from @tp's snapshot and the CPU's sums, set in @e. */
void wk_sums_verdict(const struct wk_sums_task *tp, const struct wk_sums_cpu *cp,
		     const struct wk_hcpu *hc, struct wk_end *e);

/* ... and counted in the verdicts of the waits above the threshold. */
void wk_sums_judge(struct wk_sums *s, const struct wk_sums_task *tp, const struct wk_sums_cpu *cp,
		   const struct wk_hcpu *hc, struct wk_end *e);

/*
 * Wait end: a counted wakeup wait of the threshold or more is judged.  The length
 * first: most waits are shorter (31,368 of the 188,640 that end on the bench
 * trace are judged).
 */
static inline void wk_sums_end(struct wk_sums *s, const struct wk_sums_task *tp,
			       const struct wk_sums_cpu *cp, const struct wk_hcpu *hc,
			       struct wk_end *e)
{
	if (e->lat_ns >= s->above_ns && e->counted && e->kind != LAT_WAIT_PREEMPT)
		wk_sums_judge(s, tp, cp, hc, e);
}

#endif
