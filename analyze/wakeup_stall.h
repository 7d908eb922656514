/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Stalls (analyze/wakeup_stall.c; docs/wakeup.md, "Stalls"): silences while
 * something was due.  A CPU that logs nothing for LAT_WAKE_STALL_NS while it
 * owed a switch (a task woken for it that the kernel would run at once: it
 * was idle, or the woken task is real-time and above the one running), or for
 * queued_ns (EEVDF's bound on their wait, with margin) while tasks of a
 * weight near its own were queued behind a fair one;
 * every CPU silent for LAT_WAKE_STALL_NS while one owed a switch, or right
 * after a sched_waking whose sched_wakeup had not come; a silence a probe
 * sample measured across (known at its marker, after: wk_stall_probe()); a
 * silence of a CPU whose events are complete (of every CPU: of one of them)
 * that went on WK_STALL_TIMER_NS past the expiry of an hrtimer armed there
 * (wk_timer_due(), docs/timers.md, "Timers due").  The core tells it who
 * is owed what (wk_stall_owe() and the others) and asks it before each event
 * (wk_stall_check()); the stalls it finds go back to the core, which hands
 * them to the history, the sums and the sink.
 *
 * Data layout: per CPU the debt (struct wk_stall_cpu, registered in cpus[]),
 * per task the CPU that owes it a switch (struct wk_stall_task).
 *
 * Writes (it alone): its parts; of the result: stalls, nstalls,
 * nstalls_total, stall_ns_total.
 */
#ifndef LATSCOPE_WAKEUP_STALL_H
#define LATSCOPE_WAKEUP_STALL_H

#include "wakeup_history.h"
#include "wakeup_timer.h"

/* Fair priorities 100..139 (nice -20..19). */
#define WK_STALL_FAIR 40

struct wk_stall_cpu {
	uint64_t owed_since;		/* a task woken for it should run at once: since, 0 none */
	int32_t owed_pid;
	/*
	 * The task on it took a timer interrupt while it owed the switch: the CPU
	 * ran that task then (wk_stall_tick(); docs/wakeup.md, "A section between
	 * ticks")
	 */
	uint8_t owed_section;
	char owed_comm[LAT_COMM_LEN];
	/* fair tasks waiting in its run queue, by priority - 100, and since when (fair > 0) */
	uint32_t nfair, fair[WK_STALL_FAIR];
	uint64_t fair_since[WK_STALL_FAIR];
	const struct lat_wake_health *health;	/* its trace health (the health consumer's) */
};

struct wk_stall_task {
	int16_t owed_cpu;		/* the CPU that owes it a switch, -1 none (< WK_MAX_CPUS) */
	int16_t qprio;			/* fair: the priority it waits with in a queue, else -1 */
};

/*
 * Tasks queued behind a fair task wait a bounded time for it to be preempted
 * (EEVDF picks the eligible task with the earliest deadline at the tick) when
 * their weight is near its own: up to WK_STALL_NICE_NEAR nice levels below it
 * (weight 1.25^3, twice less at most).  Not known from the trace: cgroup
 * weights (equal by default) and SCHED_IDLE (weight 3, shown as prio 120).
 */
#define WK_STALL_NICE_NEAR 3

/* Task @tp (of @prio) joins (@delta 1) or leaves (-1) the run queue of CPU @cp at @ts. */
static inline void wk_stall_queue(struct wk_stall_cpu *cp, struct wk_stall_task *tp,
				  int32_t prio, int delta, uint64_t ts)
{
	if (delta > 0) {
		tp->qprio = prio >= 100 && prio < 100 + WK_STALL_FAIR ? (int16_t)prio : -1;
		if (tp->qprio < 0)
			return;
		if (!cp->fair[prio - 100]++)
			cp->fair_since[prio - 100] = ts;
		cp->nfair++;
		return;
	}
	if (tp->qprio < 0 || !cp->fair[tp->qprio - 100])
		return;
	cp->fair[tp->qprio - 100]--;
	cp->nfair--;
	tp->qprio = -1;
}

/*
 * An hrtimer due in a silence makes it a stall when the silence lasted this
 * long after its expiry.  Measured here (docs/timers.md, "Timers due"): a
 * silence of 2 ms or more with a timer due ends 10-70 us after the expiry
 * (idle NOHZ CPUs: the tick, p99 69 us of 5,988), a few up to 1.04 ms late
 * (a halted vCPU woken late), the stalls 2.19 ms and more.
 */
#define WK_STALL_TIMER_NS LAT_WAKE_STALL_NS

/* A sched_waking this close before a silence still had its sched_wakeup due. */
#define WK_STALL_WAKING_NS 100000

/* What the core knows of a CPU and the machine at the end of a silence. */
struct wk_stall_ctx {
	uint64_t last_ts;		/* the CPU's last event before this one */
	uint8_t seen;			/* it had one */
	uint8_t trusted;		/* its events are complete (its run queue known) */
	uint64_t last_ns;		/* the last event of any CPU before this one */
	uint64_t open_ts;		/* the newest sched_waking without its sched_wakeup, 0 */
	int32_t open_pid;		/* its task */
	const char *open_comm;
};

/*
 * A silence of LAT_WAKE_STALL_NS or more with nothing known to be due at its
 * end: a stall if a probe sample's marker later says it measured across it.
 */
struct wk_quiet {
	int32_t cpu;			/* -1: every CPU */
	uint64_t from, to;
	int32_t pid, prio;		/* the task on the CPU then (cpu >= 0), -1 none */
	char comm[LAT_COMM_LEN];
};

/* A timer that fired this long after its expiry was late: its CPU did not run (section()). */
#define WK_SECTION_LATE_NS 200000

#define WK_STALL_QUIET 16		/* the newest silences kept for the probe markers */

struct wk_stalls {
	struct lat_wakeup_result *r;
	struct lat_arena *arena;
	int *oom;
	uint64_t queued_ns;		/* a switch is due after this with tasks queued (28.5 ms) */
	uint64_t tick_ns;		/* the tick's period (4 ms when HZ is not recorded) */
	const struct wk_timers *tmr;	/* the timers armed (timers due), NULL none */
	size_t nowed;			/* CPUs that owe a switch */
	struct wk_stall_cpu **cpus;	/* WK_MAX_CPUS, by number, NULL: not seen (the arena's) */
	size_t ncpus;
	struct lat_wake_stall last;	/* the newest stall found (valid when r->nstalls_total) */
	struct wk_quiet quiet[WK_STALL_QUIET];	/* a ring, the newest at qhead - 1 */
	size_t qhead, nquiet;
};

/* @hz: the kernel's tick rate when the recording says it (<= 0 unknown: 250). */
void wk_stalls_init(struct wk_stalls *st, struct lat_wakeup_result *r, struct lat_arena *arena,
		    int64_t hz, int *oom);
/* A new CPU's part (its trace health @health, lent for the run).  0 or -LAT_ENOMEM. */
int wk_stall_cpu_init(struct wk_stalls *st, struct wk_stall_cpu *p, int32_t cpu,
		      const struct lat_wake_health *health);

/* The CPU's debt is paid (a switch) or void (lost events). */
static inline void wk_stall_clear(struct wk_stalls *st, struct wk_stall_cpu *cp)
{
	if (!cp->owed_since)
		return;
	cp->owed_since = 0;
	st->nowed--;
}

/*
 * An hrtimer expiry on CPU @cp (@hc) in the context of task @pid: while the CPU
 * owes a switch, its running task took it and kept the CPU.
 */
static inline void wk_stall_tick(struct wk_stall_cpu *cp, const struct wk_hcpu *hc, int32_t pid)
{
	if (cp->owed_since && hc->cur_known && pid == hc->cur_pid)
		cp->owed_section = 1;
}

/* Task @pid (part @tp) no longer waits: its CPU owes it nothing. */
static inline void wk_stall_release(struct wk_stalls *st, struct wk_stall_task *tp, int32_t pid)
{
	struct wk_stall_cpu *c;

	if (tp->owed_cpu < 0)
		return;
	c = st->cpus[tp->owed_cpu];
	if (c->owed_pid == pid)
		wk_stall_clear(st, c);
	tp->owed_cpu = -1;
}

/*
 * Whether CPU @hc (part @cp) owes a switch to a task of @prio woken for it.  Whether
 * it is idle or the task preempts first: a busy CPU and a fair task, most wakings.
 */
static inline int wk_stall_owes(const struct wk_stall_cpu *cp, const struct wk_hcpu *hc,
				int32_t prio)
{
	return (hc->cur_pid == 0 || (prio >= 0 && prio < 100 && hc->cur_prio >= 0 &&
				     prio < hc->cur_prio && hc->cur_prio != LAT_PRIO_RT_UNKNOWN)) &&
	       hc->cur_known && !cp->owed_since;
}

void wk_stall_set(struct wk_stalls *st, struct wk_stall_task *tp, struct wk_stall_cpu *cp,
		  int32_t cpu, int32_t pid, const char *comm, uint64_t ts);

/*
 * Task @pid's wait is for CPU @cpu (its parts @cp, @hc; NULL unknown) from
 * @ts: the debt moves there (the waking's target_cpu, then sched_wakeup's,
 * then a migration's destination).
 */
static inline void wk_stall_owe(struct wk_stalls *st, struct wk_stall_task *tp,
				struct wk_stall_cpu *cp, const struct wk_hcpu *hc, int32_t cpu,
				int32_t pid, int32_t prio, const char *comm, uint64_t ts)
{
	wk_stall_release(st, tp, pid);
	if (cp && wk_stall_owes(cp, hc, prio))
		wk_stall_set(st, tp, cp, cpu, pid, comm, ts);
}

/*
 * Whether an event at @ts on a CPU (its last event @last_ts, 0 none) ends a
 * silence long enough to be a stall: most events do not.  One test per event:
 * the silence of every CPU (since the last event of any) lies inside the CPU's.
 */
static inline int wk_stall_due(uint64_t ts, uint64_t last_ts)
{
	return ts - last_ts >= LAT_WAKE_STALL_NS;
}

/*
 * The silences that end at event @ev on CPU @hc (part @cp; @x what the core
 * knows): every CPU's, then this one's unless it is that same one.  Each is
 * recorded in the result and written to @out; how many (0 to 2).
 */
int wk_stall_check(struct wk_stalls *st, struct wk_stall_cpu *cp, const struct wk_hcpu *hc,
		   const struct wk_stall_ctx *x, const struct lat_event *ev,
		   struct lat_wake_stall out[2]);

/*
 * A probe sample's marker at @ts on CPU @cpu by task @pid (@comm): its thread
 * wanted to run from @ts - @lat_ns (its timer's expected time, its busy loop's
 * gap start).  A kept silence of that CPU or every CPU where it was due for
 * LAT_WAKE_STALL_NS or more is a stall (recorded, written to @out): 1, else 0.
 * *@prio is the priority of the task on the CPU then (-1 none).
 */
int wk_stall_probe(struct wk_stalls *st, int32_t cpu, uint64_t ts, int64_t lat_ns, int32_t pid,
		   const char *comm, struct lat_wake_stall *out, int32_t *prio);

/* At the end: the stalls listed in the result in time order. */
void wk_stalls_finish(struct wk_stalls *st);

#endif
