/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Stalls (analyze/wakeup_stall.c; docs/wakeup.md, "Stalls"): a CPU that logs
 * nothing for LAT_WAKE_STALL_NS while it owed a switch (a task woken for it
 * that the kernel would run at once: it was idle, or the woken task is
 * real-time and above the one running), or every CPU silent that long while
 * one owed a switch.  The core tells it who is owed what (wk_stall_owe() and
 * the others) and asks it before each event (wk_stall_check()); the stalls it
 * finds go back to the core, which hands them to the history, the sums and
 * the sink.
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

struct wk_stall_cpu {
	uint64_t owed_since;		/* a task woken for it should run at once: since, 0 none */
	int32_t owed_pid;
	char owed_comm[LAT_COMM_LEN];
};

struct wk_stall_task {
	int32_t owed_cpu;		/* the CPU that owes it a switch, -1 none */
};

struct wk_stalls {
	struct lat_wakeup_result *r;
	struct lat_arena *arena;
	int *oom;
	size_t nowed;			/* CPUs that owe a switch */
	struct wk_stall_cpu **cpus;	/* WK_MAX_CPUS, by number, NULL: not seen (the arena's) */
	size_t ncpus;
	struct lat_wake_stall last;	/* the newest stall found (valid when r->nstalls_total) */
};

void wk_stalls_init(struct wk_stalls *st, struct lat_wakeup_result *r, struct lat_arena *arena,
		    int *oom);
/* A new CPU's part.  0 or -LAT_ENOMEM. */
int wk_stall_cpu_init(struct wk_stalls *st, struct wk_stall_cpu *p, int32_t cpu);

/* The CPU's debt is paid (a switch) or void (lost events). */
static inline void wk_stall_clear(struct wk_stalls *st, struct wk_stall_cpu *cp)
{
	if (!cp->owed_since)
		return;
	cp->owed_since = 0;
	st->nowed--;
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

/* Whether CPU @hc (part @cp) owes a switch to a task of @prio woken for it. */
static inline int wk_stall_owes(const struct wk_stall_cpu *cp, const struct wk_hcpu *hc,
				int32_t prio)
{
	return hc->cur_known && !cp->owed_since &&
	       (hc->cur_pid == 0 || (prio >= 0 && prio < 100 && hc->cur_prio >= 0 &&
				     prio < hc->cur_prio));
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

/* Whether an event at @ts on a CPU (@cp, its last event @last_ts) may end a stall. */
static inline int wk_stall_due(const struct wk_stalls *st, const struct wk_stall_cpu *cp,
			       uint64_t ts, uint64_t last_ns, uint64_t last_ts)
{
	return st->nowed && (ts - last_ns >= LAT_WAKE_STALL_NS ||
			     (cp->owed_since && ts - last_ts >= LAT_WAKE_STALL_NS));
}

/*
 * The silences that end at event @ev on CPU @hc (part @cp, its last event
 * @last_ts, @seen: it had one; @last_ns the last event of any CPU): every
 * CPU's, then this one's unless it is that same one.  Each is recorded in the
 * result and written to @out; how many (0 to 2).
 */
int wk_stall_check(struct wk_stalls *st, struct wk_stall_cpu *cp, const struct wk_hcpu *hc,
		   uint64_t last_ts, int seen, const struct lat_event *ev, uint64_t last_ns,
		   struct lat_wake_stall out[2]);

#endif
