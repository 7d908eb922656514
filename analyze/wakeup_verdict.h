/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The verdict engine (analyze/wakeup_verdict.c): why one wait waited, in one
 * word, from its evidence.  Every verdict of the wakeup analysis comes from
 * wk_judge(): the verdict of every wait of the threshold or more (from the
 * verdict sums, wakeup_sums.c) and a worst case's (from its holders,
 * wakeup_case.c); a wait judged at its end keeps that verdict as a case.  The
 * rule of precedence is written once, here, and in docs/wakeup.md,
 * "Verdicts".  No text: report/ words a verdict from its data.
 */
#ifndef LATSCOPE_WAKEUP_VERDICT_H
#define LATSCOPE_WAKEUP_VERDICT_H

#include "latscope/an_wakeup.h"

/*
 * A wait's evidence: the time (ns) of each cause over the wait, as the caller
 * could measure it.  The causes on the CPU it waited for (same, higher, lower,
 * idle, stall, unknown) partition the time the caller covered; irq time lies
 * inside them; queued time is before a migration, on the CPU it left.
 */
struct wk_parts {
	int64_t lat_ns;			/* the wait, > 0 */
	int64_t same_ns;		/* tasks of its footing: its class, or its RT priority */
	int64_t higher_ns;		/* a higher class or a higher RT priority */
	int64_t lower_ns;		/* lower than a real-time or deadline waiter */
	int64_t irq_ns;			/* irq and softirq handlers */
	int64_t stall_ns;		/* nothing logged: stalls (docs/wakeup.md, "Stalls") */
	int64_t idle_ns;		/* the idle task */
	int64_t unknown_ns;		/* who ran is unknown, or of a class no event said */
	int64_t queued_ns;		/* queued on another CPU until migrated away */
	uint8_t queued_busy;		/* ... while a task (not idle) ran there */
	uint8_t no_evidence;		/* it moved with no migration recorded: nothing known */
	int64_t unsure_ns;		/* its own switch-in not recorded: end - end_low */
	int64_t unseen_ns;		/* a holder ran at an unknown point of this much of it */
};

/* What the engine decided. */
struct wk_judgement {
	enum lat_verdict_kind kind;
	enum lat_verdict_basis basis;
	int64_t part_ns;		/* the time behind it (the chosen part) */
};

/*
 * The verdict of @p (docs/wakeup.md, "Verdicts"), in this order:
 *  1. nothing known (no_evidence): untrusted;
 *  2. its own switch-in unsure for more than half the wait: untrusted;
 *  3. a holder's unseen switch-in over more than half the wait: untrusted;
 *  4. irq and softirq handlers over half the wait: irq-softirq (their time lies
 *     inside the holders');
 *  5. queued elsewhere over half the wait while a task ran there: queued-elsewhere;
 *  6. else the largest of same (cpu-saturated), higher, lower (not-preemptible),
 *     stall, idle, unknown (untrusted), the first in that order on a tie;
 *     none when all are 0.
 */
void wk_judge(const struct wk_parts *p, struct wk_judgement *j);

/*
 * Holder prio @hprio of a CPU against the waiting task's @prio: 1 higher
 * priority (a higher class, or a higher real-time priority), -1 lower than a
 * real-time or deadline waiter (it should have been preempted at once), 0 the
 * same footing (fair sharing, or an equal real-time priority).
 */
int wk_rank(int32_t prio, int32_t hprio);

struct lat_trace_env;
/* @v's environment fields from @env (NULL: unknown). */
void wk_verdict_env(struct lat_wake_verdict *v, const struct lat_trace_env *env);

/* The chain's view of case @c (c->chain_verdict): docs/wakeup.md, "Chain verdict". */
void wk_chain_verdict(struct lat_wake_case *c, int64_t threshold_ns);

#endif
