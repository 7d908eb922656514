/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel-side timer latency of an event trace (docs/timers.md), from the hrtimer
 * events alone (timer:hrtimer_start, hrtimer_expire_entry/exit, hrtimer_cancel): each
 * timer's irq latency, and the thread latency of the threads a timer woke, as the
 * kernel's timerlat tracer measures them, without a user-space probe.
 *
 * Part of the wakeup analysis' result (lat_wakeup_result.timers), written by
 * analyze/wakeup_timer.c alone, final once lat_analyze_block() returns.  Times are
 * in the trace's clock (ns).  A timer's expiry in the trace clock is its callback's
 * entry less its irq latency: expires and now are in the timer's own clock
 * (CLOCK_MONOTONIC, CLOCK_REALTIME, ...), which the trace clock is not.
 * Invariants:
 *  - irq latency = now - expires >= 0 (a callback run inside the timer's slack,
 *    before expires, counts 0: early); expiry_ns = entry_ns - irq latency;
 *  - thread latency = end_ns - expiry_ns = irq latency + callback_ns + wait_ns, end_ns
 *    the woken thread's switch in (or its waking when it was still on a CPU);
 *  - measured <= entries; the per-CPU counts sum to measured; the arrays hold n* entries.
 */
#ifndef LATSCOPE_AN_TIMER_H
#define LATSCOPE_AN_TIMER_H

#include "event.h"
#include "hll.h"

#define LAT_TIMER_WORST 8		/* worst expiries and thread samples kept */
#define LAT_TIMER_THREADS_MAX 256	/* threads given a row; the rest counted */
#define LAT_TIMER_FN_LEN 24

/* What kept a timer's callback from running at its expiry, on its CPU. */
struct lat_timer_delay {
	int32_t pid;			/* the task on the CPU at the expiry (0 idle), -1 unknown */
	char comm[LAT_COMM_LEN];
	/*
	 * The CPU logged nothing from silent_from_ns (before the expiry) until
	 * silent_to_ns, the first callback of the interrupt that ran it; both 0 when
	 * the CPU logged an event between the expiry and the interrupt.
	 */
	uint64_t silent_from_ns, silent_to_ns;
	int64_t stall_ns;		/* of [expiry, entry] inside the analysis' stalls */
};

/* One expiry of a timer whose hrtimer_start was recorded. */
struct lat_timer_expiry {
	int32_t cpu;			/* where the callback ran */
	char function[LAT_TIMER_FN_LEN];	/* the callback, "" unknown */
	uint64_t hrtimer;		/* the timer's address (text: the hashed %p) */
	uint64_t expiry_ns;		/* when it was due, in the trace clock */
	uint64_t entry_ns;		/* hrtimer_expire_entry */
	int64_t irq_ns;			/* irq latency */
	int64_t now;			/* entry's now (timer clock), shared by an interrupt's
					   callbacks */
	int32_t armed_pid;		/* the task that armed it (hrtimer_start), -1 unknown */
	char armed_comm[LAT_COMM_LEN];
	struct lat_timer_delay delay;
};

/* A thread woken by a timer: its latency from the timer's expiry to its run. */
struct lat_timer_sample {
	int32_t pid, prio;		/* prio at the switch in */
	char comm[LAT_COMM_LEN];
	int32_t cpu;			/* where it ran */
	struct lat_timer_expiry x;	/* the timer that woke it: the irq part */
	uint64_t waking_ns;		/* its sched_waking in the callback */
	uint64_t end_ns;		/* its switch in (or waking_ns when running) */
	int64_t latency_ns;		/* end_ns - x.expiry_ns */
	int64_t callback_ns;		/* waking_ns - x.entry_ns */
	int64_t wait_ns;		/* end_ns - waking_ns: its wakeup wait */
	uint8_t running;		/* it was still on a CPU: no wait (its sleep never began) */
	uint8_t inferred;		/* its switch in was not recorded: it ran in
					   (end_low_ns, end_ns] */
	uint8_t low_trust;		/* its wait is of low trust (wakeup.md, "Trace health") */
	uint64_t end_low_ns;
	/*
	 * The wakeup wait (the wakeup analysis' own, docs/wakeup.md): it began at
	 * wait_start_ns (waking_ns, or the sched_wakeup with --wake-start wakeup); its
	 * verdict when the analysis judged it (a wait of the threshold or more), else -1.
	 */
	uint64_t wait_start_ns;
	int verdict;			/* enum lat_verdict_kind, or -1 */
	int vbasis;			/* enum lat_verdict_basis */
};

struct lat_timer_cpu {
	int32_t cpu;
	struct lat_wake_stat irq;	/* irq latency of its measured expiries */
	uint64_t early;			/* of them, callbacks inside the slack (counted 0) */
	uint64_t b[LAT_WAKE_HIST_N];	/* histogram (lat_wake_hist_edges()) */
};

struct lat_timer_thread {
	int32_t pid, prio;		/* prio: at its worst sample's switch in */
	char comm[LAT_COMM_LEN];
	char function[LAT_TIMER_FN_LEN];	/* the callback of its worst sample */
	struct lat_wake_stat lat;	/* thread latency of its samples */
	uint64_t running;		/* samples woken while on a CPU */
	uint64_t untrusted;		/* its waits across a lost-events gap: not counted */
	uint64_t low_trust;		/* samples of waits of low trust: counted, never its worst
					   sample unless --include-untrusted */
	int64_t max_irq_ns;		/* the irq part of its worst sample */
	uint64_t max_end_ns;		/* when its worst sample ended */
};

struct lat_timer_result {
	uint64_t starts, cancels, entries;	/* events seen */
	uint64_t measured;		/* entries whose hrtimer_start was seen: irq latency
					   known */
	uint64_t unarmed;		/* entries with no start seen (armed before the trace) */
	uint64_t untrusted;		/* entries with a lost-events gap since their start */
	uint64_t early;			/* measured callbacks inside the slack (irq latency 0) */
	uint64_t dropped;		/* starts not kept: too many timers armed at once */
	uint64_t wakes;			/* thread samples (woken threads' latencies counted) */
	uint64_t unmatched;		/* timer wakings whose wait was not seen to end, or
					   not counted (untrusted, or not --task / --policy) */
	struct lat_wake_stat irq;	/* every measured expiry */
	struct lat_timer_cpu *cpus;	/* CPU order */
	size_t ncpus;
	/* real-time and deadline threads first, then each by its max thread latency */
	struct lat_timer_thread *threads;
	size_t nthreads;
	uint64_t wakes_dropped;		/* timer wakes of threads past LAT_TIMER_THREADS_MAX */
	/*
	 * the worst sample of each of the first LAT_TIMER_WORST threads, in their order,
	 * of the samples whose wait may head a list (the wakeup analysis' ranked ones)
	 */
	struct lat_timer_sample worst[LAT_TIMER_WORST];
	size_t nworst;
	/* the worst irq latencies, one per interrupt (CPU and now), the worst first */
	struct lat_timer_expiry worst_irq[LAT_TIMER_WORST];
	size_t nworst_irq;
};

void lat_timer_result_free(struct lat_timer_result *t);

#endif
