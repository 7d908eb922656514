/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Scheduler event streams: what trace.dat, ftrace text and trace-cmd report
 * text all become.  A source is pulled one event at a time, per-CPU streams
 * already merged by timestamp; nothing holds the whole trace.
 */
#ifndef LATSCOPE_EVENT_H
#define LATSCOPE_EVENT_H

#include "base.h"

#define LAT_COMM_LEN 16

enum lat_ev_type {
	LAT_EV_OTHER,		/* an event we do not interpret (name in ev.name) */
	LAT_EV_SWITCH,
	LAT_EV_WAKING,
	LAT_EV_WAKEUP,
	LAT_EV_WAKEUP_NEW,
	LAT_EV_MIGRATE,
	LAT_EV_FORK,
	LAT_EV_EXEC,
	LAT_EV_EXIT,
	LAT_EV_IRQ_ENTRY,
	LAT_EV_IRQ_EXIT,
	LAT_EV_SOFTIRQ_ENTRY,
	LAT_EV_SOFTIRQ_EXIT,
	LAT_EV_MARKER,		/* trace_marker text (print / tracing_mark_write) */
	LAT_EV_STACK,		/* kernel stack of the preceding event on this CPU */
	LAT_EV_LOST,		/* the source lost u.lost.count events on this CPU before ts */
	LAT_EV_TIMER_ENTRY,	/* timer:hrtimer_expire_entry: u.timer hrtimer, now, the callback in
				   u.timer.name (= u.irq.name) */
	LAT_EV_TIMER_EXIT,	/* its end (timer:hrtimer_expire_exit): u.timer.hrtimer */
	LAT_EV_SETSCHED,	/* syscalls:sys_enter_sched_setscheduler: u.setsched pid, policy */
	LAT_EV_SETSCHED_EXIT,	/* syscalls:sys_exit_sched_setscheduler: u.setsched.ret */
	LAT_EV_TIMER_START,	/* timer:hrtimer_start: u.timer (hrtimer, expires, softexpires,
				   the callback in name) */
	LAT_EV_TIMER_CANCEL,	/* timer:hrtimer_cancel: u.timer.hrtimer */
	LAT_EV_NTYPES
};

/* A field of u.timer the source did not have. */
#define LAT_TIMER_UNKNOWN INT64_MIN

/* prev_state of a switch, folded to what latency analysis needs. */
enum lat_task_state {
	LAT_TS_RUNNING,		/* R / R+: preempted, still runnable */
	LAT_TS_SLEEPING,	/* S: interruptible sleep */
	LAT_TS_DISK,		/* D: uninterruptible */
	LAT_TS_DEAD,		/* X / Z */
	LAT_TS_OTHER,		/* T, t, I, P, ... */
};

/*
 * The context an event fired in, from the kernel's common_flags (trace.dat) or
 * the irq-info column of text ("d.h2."): LAT_EVF_KNOWN says the source had it.
 */
/* The low byte is the kernel's TRACE_FLAG_* bits of common_flags (kernel/trace/trace.h). */
#define LAT_EVF_KNOWN	0x100
#define LAT_EVF_HARDIRQ	0x08
#define LAT_EVF_SOFTIRQ	0x10	/* serving a softirq (not merely bh disabled) */
#define LAT_EVF_NMI	0x40

/* common_flags as read from a trace.dat record, to ev->flags. */
static inline uint16_t lat_evf_from_common_flags(uint8_t f)
{
	return (uint16_t)(LAT_EVF_KNOWN | f);
}

struct lat_event {
	uint64_t ts_ns;
	int32_t cpu;
	int32_t pid;			/* the task running when the event fired, -1 if unknown */
	char comm[LAT_COMM_LEN];	/* its comm, "" if unknown */
	enum lat_ev_type type;
	uint16_t flags;			/* LAT_EVF_*, 0: context unknown */
	const char *name;		/* "system:event" or "event", lent until the next call */
	union {
		struct {
			char prev_comm[LAT_COMM_LEN];
			int32_t prev_pid, prev_prio;
			enum lat_task_state prev_state;
			uint32_t prev_state_raw;	/* kernel's bits when known */
			char next_comm[LAT_COMM_LEN];
			int32_t next_pid, next_prio;
		} sw;
		struct {	/* WAKING, WAKEUP, WAKEUP_NEW */
			char comm[LAT_COMM_LEN];
			int32_t pid, prio, target_cpu;	/* target_cpu -1 if unknown */
		} wake;
		struct {
			char comm[LAT_COMM_LEN];
			int32_t pid, prio, orig_cpu, dest_cpu;
		} migrate;
		struct {	/* FORK: parent -> child; EXEC / EXIT: pid, comm */
			char comm[LAT_COMM_LEN];
			int32_t pid;
			int32_t child_pid;
			char child_comm[LAT_COMM_LEN];
		} task;
		struct {	/* IRQ_* (irq, name), SOFTIRQ_* (vec), TIMER_* (irq -1, function) */
			int32_t irq;		/* irq number or softirq vector */
			int32_t ret;		/* irq_handler_exit */
			const char *name;	/* handler or vector name, lent */
		} irq;
		/*
		 * TIMER_*: the hrtimer's fields (docs/timers.md).  The first three
		 * members are u.irq's (a common initial sequence): a reader of
		 * u.irq.name sees the callback.
		 */
		struct {
			int32_t irq, ret;	/* -1, 0 */
			const char *name;	/* its callback (ENTRY, START), lent, or NULL */
			uint64_t hrtimer;	/* its address (text: the hashed %p), 0 unknown */
			/* START: the expiry armed, in the timer's own clock (MONOTONIC, ...) */
			int64_t expires, softexpires;
			int64_t now;		/* ENTRY: that clock when its callback ran */
		} timer;
		struct {
			const char *text;	/* lent, not NUL-terminated; trailing newline removed */
			size_t len;
			/*
			 * latscope's steal-time line ("latscope: steal cpu=N ...",
			 * docs/record.md) parsed by the reader, lent like the text;
			 * NULL for every other marker
			 */
			const struct lat_steal *steal;
		} marker;
		struct {
			const uint64_t *ips;	/* lent */
			const char *const *syms;	/* lent, may be NULL or hold NULLs */
			uint32_t depth;
		} stack;
		struct {
			uint64_t count;		/* 0 when the page said "events lost" without a count */
		} lost;
		struct {	/* SETSCHED (pid 0: the caller), SETSCHED_EXIT (ret) */
			int32_t pid, policy;	/* SCHED_OTHER 0, FIFO 1, RR 2, BATCH 3, IDLE 5,
						   DEADLINE 6, | SCHED_RESET_ON_FORK */
			int64_t ret;
		} setsched;
	} u;
};

_Static_assert(offsetof(struct lat_event, u.timer.name) == offsetof(struct lat_event, u.irq.name),
	       "u.timer begins as u.irq");

struct lat_event_source;
struct lat_steal;
struct lat_trace_env;
struct lat_tgids;

struct lat_event_source_ops {
	/* Returns 1 with *ev filled, 0 at the end, or a negative lat_err. */
	int (*next)(struct lat_event_source *src, struct lat_event *ev);
	void (*free)(struct lat_event_source *src);
	/*
	 * Optional: up to @n events into @evs, as @n calls of next() would give
	 * them; returns how many (>= 1), 0 at the end, or a negative lat_err
	 * when no event came before the error.  A batch ends after any event
	 * that lends a pointer into the source (see lat_event_batch_ends()):
	 * what every event of a batch lends stays valid until the next call.
	 */
	int (*next_batch)(struct lat_event_source *src, struct lat_event *evs, int n);
};

struct lat_event_source {
	const struct lat_event_source_ops *ops;
	int ncpus;			/* 0 if unknown */
	const char *clock;		/* "local", "mono", ... or NULL, lent */
	/* per-CPU overrun / dropped totals when the file has them, else NULL */
	const uint64_t *cpu_overrun;
	/* set by the source when it stopped early: where and why (lent) */
	const char *stop_reason;
	/* set by the source when it skipped damaged data and went on (lent) */
	const char *skip_reason;
	/* latscope's own metadata lines ("latscope: ...\n", docs/record.md), lent, or NULL */
	const char *latscope_meta;
	/* the host the trace was recorded on (trace.dat's UNAME option), NULL unknown; lent */
	const char *host;
	/* the whole UNAME option ("Linux HOST RELEASE VERSION MACHINE"), NULL unknown; lent */
	const char *uname;
	/*
	 * The environment latscope record stored (latscope/env.h: preemption model, HZ,
	 * isolation, virtualization, RT throttling, steal totals), NULL when the trace has
	 * none; lent by the source
	 */
	const struct lat_trace_env *env;
	/*
	 * The tasks' thread groups (latscope/tgids.h), parsed by the reader from the recorder's
	 * tgids line of latscope_meta, NULL when the source has no such metadata; lent
	 */
	const struct lat_tgids *tgids;
	/*
	 * CLOCK_REALTIME minus the trace clock, ns, when the recorder measured it
	 * (latscope's "wallclock" metadata line, docs/record.md): a timestamp plus
	 * realtime_offset_ns is the wall-clock time, within realtime_error_ns.
	 */
	int realtime_known;
	int64_t realtime_offset_ns, realtime_error_ns;
};

static inline int lat_event_next(struct lat_event_source *s, struct lat_event *ev)
{
	return s->ops->next(s, ev);
}

/*
 * Whether an event of type @t can lend a pointer into the source besides its
 * static name (marker text, stack, irq and timer names, an uninterpreted
 * event's fields): a batch (next_batch) ends after it.
 */
static inline int lat_event_batch_ends(enum lat_ev_type t)
{
	const uint32_t own = (1u << LAT_EV_SWITCH) | (1u << LAT_EV_WAKING) |
			     (1u << LAT_EV_WAKEUP) | (1u << LAT_EV_WAKEUP_NEW) |
			     (1u << LAT_EV_MIGRATE) | (1u << LAT_EV_FORK) | (1u << LAT_EV_EXEC) |
			     (1u << LAT_EV_EXIT) | (1u << LAT_EV_LOST) | (1u << LAT_EV_SETSCHED) |
			     (1u << LAT_EV_SETSCHED_EXIT) | (1u << LAT_EV_TIMER_CANCEL);

	return (unsigned)t >= 32 || !(own & (1u << t));
}

/*
 * Up to @n (>= 1) events into @evs: the source's batch, or one event of next().
 * Returns how many, 0 at the end, or a negative lat_err.
 */
static inline int lat_event_next_batch(struct lat_event_source *s, struct lat_event *evs, int n)
{
	int ret;

	if (s->ops->next_batch)
		return s->ops->next_batch(s, evs, n);
	ret = s->ops->next(s, evs);
	return ret > 0 ? 1 : ret;
}

static inline void lat_event_source_free(struct lat_event_source *s)
{
	if (s)
		s->ops->free(s);
}

/* "R", "S", "D", ... for a folded state. */
const char *lat_task_state_name(enum lat_task_state st);
/* Folds a kernel prev_state letter string ("R+", "S", "D|W", "X") to the enum. */
enum lat_task_state lat_task_state_from_str(const char *s);
/* The same for its first letter @c (0, or any other: LAT_TS_OTHER). */
enum lat_task_state lat_task_state_from_char(int c);

/*
 * Folds a kernel prev_state value (TASK_REPORT bits since 4.14: 0 = R,
 * 0x100 = preempted R+, 0x01 S, 0x02 D, 0x10/0x20 X/Z) to the enum.
 */
static inline enum lat_task_state lat_task_state_from_bits(uint32_t st)
{
	if (!(st & 0xff))
		return LAT_TS_RUNNING;
	if (st & 0x01)
		return LAT_TS_SLEEPING;
	if (st & 0x02)
		return LAT_TS_DISK;
	if (st & 0x30)
		return LAT_TS_DEAD;
	return LAT_TS_OTHER;
}

#endif
