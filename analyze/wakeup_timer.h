/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The timer consumer of the wakeup pipeline (analyze/wakeup_timer.c): kernel-side
 * timer latency (docs/timers.md, latscope/an_timer.h) from the hrtimer events.
 *
 *   hrtimer_start    the timer is armed: its expiry (expires) into the table of
 *                    armed timers, by address
 *   hrtimer_cancel   it leaves the queue: kept aside on the CPU, since older
 *                    kernels (4.x) log one right before each expiry too
 *   expire_entry     its callback runs: irq latency = now - expires; the callback
 *                    is open on its CPU until its expire_exit
 *   a waking in it   the thread it wakes (hrtimer_wakeup's sleeper, or the thread
 *                    that armed it): its wakeup wait is a timer wait
 *   the wait's end   thread latency = switch in - expiry, in the trace clock
 *
 * Data layout:
 *   struct wk_timers            one per analysis (struct wk): the result, the armed
 *     tab[cap]                  timers (open addressing by address, cap <= WK_TMR_CAP),
 *     fns[]                     the callbacks' names, threads[] the woken threads' rows,
 *     cpus[]                    and its CPU parts by number (they live in struct wk_cpu)
 *   struct wk_timer_cpu         its part of a CPU: the callbacks open, the last timer
 *                               dequeued, the irq-latency histogram
 *   struct wk_timer_task        its part of a task: its row, once a timer woke it
 *
 * Writes (it alone): its parts; of the result: timers.  Bounded: WK_TMR_CAP armed
 * timers, LAT_TIMER_THREADS_MAX rows, WK_TMR_FNS names.
 */
#ifndef LATSCOPE_WAKEUP_TIMER_H
#define LATSCOPE_WAKEUP_TIMER_H

#include "latscope/an_timer.h"
#include "latscope/arena.h"
#include "wakeup_history.h"
#include "wakeup_rec.h"

#define WK_TMR_CAP 16384		/* armed timers tracked at most (slots; half used) */
#define WK_TMR_FNS 64			/* callback names kept; more are "" */
#define WK_TMR_NEST 2			/* a hard hrtimer inside a softirq one */
/* |trace clock - timer clock| at most this for wk_timer_due() (~73 min; REALTIME is ~56 years) */
#define WK_TMR_CLK_NEAR (1ll << 42)

/* The events the consumer takes (wk_timer_event()): the hrtimer ones, and lost events. */
#define WK_TMR_EVENTS ((1u << LAT_EV_TIMER_START) | (1u << LAT_EV_TIMER_CANCEL) | \
		       (1u << LAT_EV_TIMER_ENTRY) | (1u << LAT_EV_TIMER_EXIT) | \
		       (1u << LAT_EV_LOST))

/* An armed timer (a slot of the table, or a CPU's dequeued one). */
struct wk_tmr_armed {
	uint64_t hrtimer;		/* 0: empty */
	int64_t expires;
	uint64_t gen;			/* the consumer's lost-events count at the start */
	int32_t pid;			/* who armed it */
	uint16_t fn;			/* its callback (fns[]), 0 unknown */
	int16_t cpu;			/* where hrtimer_start was logged */
	char comm[LAT_COMM_LEN];
};

/* A callback running on a CPU, from its entry to its exit. */
struct wk_tmr_open {
	struct lat_timer_expiry x;	/* x.irq_ns < 0: its start was not seen, nothing measured */
	uint8_t woke;			/* a waking in it was taken */
};

struct wk_timer_cpu {
	struct wk_tmr_open open[WK_TMR_NEST];
	uint8_t depth;			/* callbacks open */
	uint8_t seen;			/* registered in wk_timers.cpus */
	struct wk_tmr_armed deq;	/* the last timer canceled here, or empty */
	/* the interrupt running callbacks now: their now, its first entry, the CPU's last
	   event before it */
	int64_t irq_now;
	uint64_t irq_entry_ns, irq_from_ns;
	/* the CPU's last irq_vectors entry (local_timer_entry) and its last event before it */
	uint64_t vec_ns, vec_from_ns;
	struct lat_hll irq;		/* irq latency of its measured expiries */
	uint64_t early;
	/* the trace clock - the timers' clock at its last entry (wk_timer_due()) */
	int64_t clk_off;
	uint8_t clk_known;
};

/* A thread a timer woke: its row, and the timer wake waiting for its wait's end. */
struct wk_timer_thread {
	struct lat_timer_thread row;	/* lat filled at the end, from hll */
	struct lat_hll hll;
	uint8_t sel;			/* a counted wait of it passed the selection */
	uint8_t pend;			/* a timer waking of it, its wait not ended yet */
	uint64_t pend_wakeup_ns;	/* the sched_wakeup after it, 0 none yet */
	struct lat_timer_sample p;	/* that waking: p.x, p.waking_ns */
	struct lat_timer_sample worst;	/* its worst sample of those that may head a list */
	uint8_t has_worst;
};

struct wk_timer_task {
	struct wk_timer_thread *th;	/* NULL: no timer woke it */
};

struct wk_timers {
	struct lat_wakeup_result *r;
	struct lat_timer_result *res;	/* r->timers, made at the first hrtimer event */
	struct lat_arena *arena;
	int *oom;
	const struct wk_history *h;
	uint64_t gen;			/* lost-events marks seen */
	struct wk_tmr_armed *tab;
	size_t cap, n;
	char (*fns)[LAT_TIMER_FN_LEN];	/* [0] "": unknown */
	size_t nfns, last_fn;
	struct wk_timer_thread **threads;	/* LAT_TIMER_THREADS_MAX slots, at the first */
	size_t nthreads;
	struct wk_timer_cpu **cpus;	/* by CPU number, ncpus slots */
	size_t ncpus;
	/* callbacks open on all CPUs, threads with pend set: both 0, no part is looked at */
	size_t nopen, npend;
};

void wk_timers_init(struct wk_timers *s, struct lat_wakeup_result *r, struct lat_arena *arena,
		    int *oom, const struct wk_history *h);
/*
 * An event of WK_TMR_EVENTS on a CPU (@cp, its history @hc; @last_ns its last
 * event before this one, 0 none).
 */
void wk_timer_event(struct wk_timers *s, struct wk_timer_cpu *cp, const struct wk_hcpu *hc,
		    uint64_t last_ns, const struct lat_event *ev);
void wk_timer_wake_slow(struct wk_timers *s, struct wk_timer_cpu *cp, struct wk_timer_task *tp,
			const struct lat_event *ev, int32_t on_cpu);
void wk_timer_end_slow(struct wk_timers *s, struct wk_timer_task *tp, const struct wk_end *e);
/* A timer due inside a silence (wk_timer_due()). */
struct wk_timer_due {
	uint64_t due_ns;		/* its expiry (expires), in the trace clock */
	uint64_t hrtimer;
	int32_t pid;			/* who armed it */
	const char *function;		/* its callback, "" unknown (lives as long as @s) */
	char comm[LAT_COMM_LEN];
};

/*
 * For the stall detector ("timer due", docs/timers.md, "Timers due"): the
 * earliest expiry in (@from_ns, @to_ns] of the timers armed on CPU @cpu and not
 * yet expired, into @out: 1, or 0 when none is known to be due.  A timer's
 * expires is in its own clock: it is placed in the trace clock by the
 * difference of the two at the CPU's last hrtimer_expire_entry (its
 * timestamp - its now); before the CPU's first one nothing is known.  Timers
 * armed before lost events are left out (re-armed unseen, maybe).  It scans
 * the armed table (at most WK_TMR_CAP slots): for silences, not every event.
 */
int wk_timer_due(const struct wk_timers *s, int32_t cpu, uint64_t from_ns, uint64_t to_ns,
		 struct wk_timer_due *out);

/* Whether CPU @cpu's timers are known (its hrtimer events recorded, its clock placed). */
static inline int wk_timer_known(const struct wk_timers *s, int32_t cpu)
{
	return s && s->n && cpu >= 0 && (size_t)cpu < s->ncpus && s->cpus[cpu] &&
	       s->cpus[cpu]->clk_known;
}

/* The result's tables (r->timers), at the end.  0 or -LAT_ENOMEM. */
int wk_timers_finish(struct wk_timers *s);
void wk_timers_release(struct wk_timers *s);

/*
 * A waking or wakeup @ev of the task @tp on a CPU (@cp): a timer wake when a
 * callback is open there; a wakeup after such a waking.  @on_cpu: where the task
 * runs (-1 none): a task running, or woken by itself, begins no wait.
 */
static inline void wk_timer_wake(struct wk_timers *s, struct wk_timer_cpu *cp,
				 struct wk_timer_task *tp, const struct lat_event *ev,
				 int32_t on_cpu)
{
	if (__builtin_expect(s->nopen | s->npend, 0) && (cp->depth || tp->th))
		wk_timer_wake_slow(s, cp, tp, ev, on_cpu);
}

/*
 * An irq_vectors:*_entry at @ts on @cp's CPU, its last event before at @last_ns
 * (0 none).  When a callback's entry follows it directly (x86's local_timer_entry,
 * --timer-detail), the interrupt began there: the CPU's silence before the
 * interrupt ends at the vector, not at the callback a few hundred ns later.
 */
static inline void wk_timer_vector(struct wk_timer_cpu *cp, uint64_t last_ns, uint64_t ts)
{
	cp->vec_ns = ts;
	cp->vec_from_ns = last_ns;
}

/* A wait ends (after the sums: e->verdict is the analysis' own): a timer wait's sample. */
static inline void wk_timer_end(struct wk_timers *s, struct wk_timer_task *tp,
				const struct wk_end *e)
{
	if (__builtin_expect(s->npend != 0, 0) && tp->th && tp->th->pend)
		wk_timer_end_slow(s, tp, e);
}

#endif
