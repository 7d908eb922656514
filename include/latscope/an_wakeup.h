/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Results of the wakeup analysis over a scheduler event stream (LAT_SCHEMA_EVENTS):
 * block->analysis.  Definitions in docs/wakeup.md, JSON keys in docs/json-wakeup.md.
 * All timestamps are in the trace's clock, in ns; durations in ns.
 */
#ifndef LATSCOPE_AN_WAKEUP_H
#define LATSCOPE_AN_WAKEUP_H

#include "an_timer.h"
#include "analyze.h"
#include "event.h"
#include "model.h"
#include "timeline.h"
#include "hll.h"

enum lat_wake_ctx {
	LAT_WAKE_CTX_TASK,
	LAT_WAKE_CTX_IRQ,
	LAT_WAKE_CTX_SOFTIRQ,
	LAT_WAKE_CTX_NMI,
};

const char *lat_wake_ctx_name(enum lat_wake_ctx c);	/* "task", "irq", "softirq", "nmi" */

struct lat_wake_waker {
	int32_t pid;		/* the task running on the waker's CPU (-1 unknown) */
	int32_t cpu;
	char comm[LAT_COMM_LEN];
	enum lat_wake_ctx ctx;
	int32_t irq;		/* irq number / softirq vector when recorded (not TASK), else -1 */
	char irq_name[24];	/* its handler / vector name, or the hrtimer callback, "" unknown */
	uint8_t timer;		/* irq_name is the hrtimer callback that ran the waking */
	int32_t stack;		/* stack id (result->stacks) recorded after the waking, or -1 */
	uint8_t from_wakeup;	/* no sched_waking: taken from sched_wakeup(_new) */
};

/* What ran a waking in irq context: its hrtimer callback or its irq's name, else "". */
const char *lat_wake_irq_label(const struct lat_wake_waker *k);

/*
 * The scheduling class as users know it, from the kernel's prio (the `prio`
 * of sched_switch / sched_waking): < 0 SCHED_DEADLINE, 0..98 real-time
 * priority 99 - prio ("SCHED_FIFO 80"), 100..139 nice prio - 120
 * ("SCHED_OTHER nice -10").  Inferred: FIFO and RR, OTHER and BATCH look the
 * same, and a priority-inheritance boost shows the donor's.  Writes "" for a
 * prio out of range.  LAT_PRIO_UNKNOWN: no event said (a task seen running
 * with no switch or waking of it yet): its class is unknown, never -1, which is
 * the kernel's prio of a SCHED_DEADLINE task.
 */
#define LAT_PRIO_UNKNOWN INT32_MIN
/*
 * Real-time, priority not recorded: a running task that a recorded
 * sched_setscheduler() made SCHED_FIFO or SCHED_RR (the priority is behind a
 * user pointer) until an event of it gives its prio.  The kernel's prio 99
 * is no real-time priority (1..99 are prio 98..0), so nothing else has it.
 */
#define LAT_PRIO_RT_UNKNOWN 99
enum lat_sched_policy { LAT_POL_UNKNOWN, LAT_POL_DEADLINE, LAT_POL_RT, LAT_POL_FAIR };

enum lat_sched_policy lat_sched_policy_of(int32_t prio);
void lat_sched_class_fmt(int32_t prio, char *buf, size_t len);
/*
 * The same with the policy a recorded sched_setscheduler() set (@policy: the
 * kernel's SCHED_* number, -1 none): its name when it agrees with @prio's
 * class ("SCHED_RR 80", "SCHED_BATCH nice 0", "SCHED_IDLE"), else the class
 * inferred from @prio.  Returns 1 when the name came from the policy.
 */
int lat_sched_class_fmt_pol(int32_t prio, int32_t policy, char *buf, size_t len);
const char *lat_sched_policy_name_pol(int32_t prio, int32_t policy, int *from_policy);

enum lat_wait_kind {
	LAT_WAIT_WAKEUP,	/* woken from sleep, waiting for a CPU */
	LAT_WAIT_PREEMPT,	/* switched out runnable (R), waiting to run again */
	LAT_WAIT_NEW,		/* a new task (sched_wakeup_new) waiting for its first run */
};

const char *lat_wait_kind_name(enum lat_wait_kind k);	/* "wakeup", "preempt", "new" */

/* One step back along the wakeup edges: why a waker itself was late. */
struct lat_wake_link {
	int32_t pid, cpu;
	char comm[LAT_COMM_LEN];
	enum lat_wait_kind kind;
	uint64_t start_ns, end_ns;	/* its last wait before it woke the next task */
	int64_t latency_ns;
	struct lat_wake_waker waker;
	int32_t held_by_pid;		/* who ran most on its CPU during that wait, -1 none */
	char held_by_comm[LAT_COMM_LEN];
	int64_t held_ns;
	uint8_t held_unknown;		/* that wait is older than the slices kept */
	uint8_t preempted;		/* a preemption wait that began at an R+ switch-out
					   (the kernel's preempt mark), not a plain R */
};

/*
 * A stall (docs/wakeup.md, "Stalls"): a CPU (or every CPU: cpu -1) logged
 * nothing for at least LAT_WAKE_STALL_NS while something was due there: a switch
 * it owed (a task woken for it that should run at once: it was idle, or the woken
 * task is real-time and above the running one), a switch due to tasks queued
 * behind a fair one past EEVDF's bound, the sched_wakeup of a waking, a probe's
 * timer (a sample measured across the silence, found when its marker comes), an
 * hrtimer armed there whose expiry the silence outlasted by LAT_WAKE_STALL_NS.  The
 * host not running the vCPU (steal time shows it when recorded), or the kernel
 * with interrupts off there.
 */
#define LAT_WAKE_STALL_NS 2000000
#define LAT_WAKE_STALLS_MAX 64
#define LAT_WAKE_PI_NS 100000		/* an RT wait behind a lower task: from 100 us */
#define LAT_WAKE_CASE_STALLS 4

/* What was due in a silence that made it a stall. */
enum lat_stall_due {
	LAT_STALL_OWED,			/* a switch the CPU owed a woken task */
	LAT_STALL_QUEUED,		/* a switch, tasks queued behind a fair one */
	LAT_STALL_WAKEUP,		/* the sched_wakeup of a sched_waking just before */
	LAT_STALL_PROBE,		/* a probe's timer (or its busy loop) measured across it */
	LAT_STALL_TIMER,		/* an hrtimer's expiry, LAT_WAKE_STALL_NS before its end */
	LAT_STALL_NDUE
};

/* "owed-switch", "queued", "wakeup", "probe", "timer" */
const char *lat_stall_due_name(enum lat_stall_due d);

struct lat_wake_stall {
	int32_t cpu;			/* -1: every CPU was silent */
	uint64_t from_ns, to_ns;	/* the last event before the silence, the first after */
	int32_t pid;			/* on that CPU (per-CPU stalls), -1 unknown / every CPU */
	char comm[LAT_COMM_LEN];
	int32_t waiting_pid;		/* the task that should have run, -1 unknown */
	char waiting_comm[LAT_COMM_LEN];
	enum lat_stall_due due;
	uint32_t queued;		/* LAT_STALL_QUEUED: the tasks queued on the CPU */
	int64_t probe_ns;		/* LAT_STALL_PROBE: the sample's latency (waiting_pid's) */
	/*
	 * LAT_STALL_TIMER: the timer due (from_ns is its expiry): its callback, ""
	 * unknown, and the task that armed it (-1 none); waiting_pid is that task
	 * when the callback is hrtimer_wakeup (its sleeper).
	 */
	char timer_fn[LAT_TIMER_FN_LEN];
	int32_t timer_pid;
	char timer_comm[LAT_COMM_LEN];
	/*
	 * Steal time the recorder sampled (docs/record.md) in windows that overlap the
	 * stall, on its CPU (every CPU: the most of one CPU): the host ran something
	 * else; -1 unknown (not sampled).  0 with sampling: interrupts were off there.
	 * [the steal, wakeup_steal.c, at the end]
	 */
	int64_t steal_ns;
};

/*
 * A CPU's trace health (docs/wakeup.md, "Trace health"): what its events say
 * about themselves, and whether they are demonstrably incomplete.
 */
enum lat_health_why {
	LAT_HEALTH_OK,			/* nothing shows events missing systematically */
	LAT_HEALTH_IDLE_EXITS,		/* its switches out of idle are mostly not recorded */
	LAT_HEALTH_BREAKS,		/* a tenth of its switches are missing */
};

const char *lat_health_name(enum lat_health_why w);	/* "ok", "idle-exits", "breaks" */

struct lat_wake_health {
	int32_t cpu;
	uint64_t events, switches;
	uint64_t into_idle, out_of_idle;	/* sched_switch to and from the idle task */
	/* exits from idle that only the next task's own events showed (no switch recorded) */
	uint64_t idle_exits_unrecorded;
	uint64_t breaks;		/* events of a task the CPU was not known to run */
	uint64_t wakings, wakeups;	/* sched_waking, sched_wakeup(_new) logged on it */
	uint64_t unpaired_wakeups;	/* of them, a sched_wakeup with no sched_waking of its
					   task before (not sched_wakeup_new, which has none) */
	uint64_t lost_marks, lost_events;	/* lost-events marks, and the events they count */
	uint64_t silences;		/* gaps of LAT_WAKE_STALL_NS or more between its events */
	uint64_t longest_silence_ns, longest_silence_end_ns;
	enum lat_health_why incomplete;
	uint64_t incomplete_since_ns;	/* from then on: no inference there, waits low-trust */
	uint64_t low_trust_waits;	/* waits that ended or were queued there since */
};

#define LAT_WAKE_CHAIN_MAX 4
#define LAT_WAKE_CPUSHARE_MAX 16
#define LAT_WAKE_ONCPU_MAX 16
#define LAT_WAKE_IRQS_MAX 8
#define LAT_WAKE_QUEUED_MAX 4
#define LAT_WAKE_MIGR_MAX 8
#define LAT_WAKE_MARKERS_MAX 8

struct lat_wake_oncpu {		/* a task that held the target CPU during the wait */
	int32_t pid, prio;	/* pid 0: idle */
	char comm[LAT_COMM_LEN];
	int64_t ns;
	uint32_t slices;
	int32_t stack;		/* stack id at the switch that ended its longest slice, or -1 */
};

struct lat_wake_irq {
	uint8_t softirq;
	int32_t irq;
	char name[24];
	int64_t ns;
	uint32_t count;
};

struct lat_wake_migr {
	uint64_t ts_ns;
	int32_t from_cpu, to_cpu;
};

struct lat_wake_marker {
	uint64_t ts_ns;
	int32_t cpu, pid;
	int64_t lat_ns;		/* a latscope probe's lat_ns, else -1 */
	char text[80];
};

/*
 * Why a worst case waited, in one word (docs/wakeup.md, "Verdicts"): what took
 * the largest part of the wait on the CPU it waited for.
 */
enum lat_verdict_kind {
	LAT_VERDICT_NONE,
	LAT_VERDICT_CPU_SATURATED,	/* tasks of its class shared the CPU */
	LAT_VERDICT_HIGHER_PRIORITY,	/* tasks of a higher class or RT priority ran */
	LAT_VERDICT_NOT_PREEMPTIBLE,	/* a lower-priority task kept the CPU from an RT/DL one */
	LAT_VERDICT_IRQ,		/* irq and softirq handlers */
	LAT_VERDICT_STALL,		/* no events: stall? */
	LAT_VERDICT_QUEUED,		/* queued on a busy CPU until migrated */
	LAT_VERDICT_IDLE,		/* the CPU stayed idle: idle exit, IPI, or a missed switch */
	LAT_VERDICT_UNTRUSTED,		/* who ran is unknown (events missing or not kept) */
	LAT_VERDICT_N
};

const char *lat_verdict_name(enum lat_verdict_kind k);	/* "cpu-saturated", ... */

/* What a verdict rests on (docs/wakeup.md, "Verdicts": the rule's steps). */
enum lat_verdict_basis {
	LAT_VBASIS_PARTS,	/* the time of each cause over the wait: the largest (or over half) */
	LAT_VBASIS_MOVED,	/* untrusted: it moved with no migration recorded, nothing known */
	LAT_VBASIS_INFERRED,	/* untrusted: its own switch-in was not recorded (inferred end) */
	LAT_VBASIS_UNSEEN,	/* untrusted: a holder's switch-in was not recorded (unseen_*) */
};

/*
 * A wait's verdict, as data: report/ words it (lat_report_verdict_text()).  Every
 * verdict comes from one rule (analyze/wakeup_verdict.h); a worst case whose wait
 * was judged when it ended (at least the threshold) keeps that verdict.
 */
struct lat_wake_verdict {
	enum lat_verdict_kind kind;
	enum lat_verdict_basis basis;
	double share;			/* part_ns of the wait, at most 1 */
	int64_t part_ns;		/* the time behind the verdict */
	/*
	 * The task that took the longest part of that cause on the CPU (the
	 * queued CPU's for queued-elsewhere), pid -1 when none is named; for an
	 * untrusted verdict of a class no event said (unknown_class), that task.
	 */
	struct lat_wake_oncpu holder;
	size_t ntasks;			/* tasks (not idle) that held the CPU during the wait */
	uint8_t unknown_class;		/* most of the unknown part: tasks of no known class */
	/*
	 * The recording's environment (latscope/env.h), for the words: what can
	 * keep a CPU from a waiting task depends on the preemption model and on
	 * whether a host can stop the CPU.
	 */
	int8_t preempt;			/* enum lat_preempt_mode, LAT_PREEMPT_UNKNOWN (-1) */
	int8_t preempt_rt;		/* a PREEMPT_RT kernel: 1, 0, -1 unknown */
	int8_t vm;			/* a virtual machine: 1, 0, -1 unknown */
};

/*
 * The chain's view of a case (docs/wakeup.md, "Chain verdict"): its waker
 * was itself woken and waited chain[0].latency_ns before it ran and woke
 * it.  That does not lengthen the case's own wait (it starts at the waking),
 * but delays the task end to end, from the waker's waking to its own run.
 * Set (waker_waited) when the waker's wait is at least the case's latency and
 * the threshold; waker_late when it is also more than half of end to end.
 */
struct lat_wake_chain_verdict {
	uint8_t waker_waited, waker_late;
	double share;			/* waker's wait / end to end */
	int64_t e2e_ns;			/* chain[0].start_ns .. end_ns */
};

/*
 * One of the worst wakeups, explained (docs/wakeup.md, "The worst N").
 * Invariants: latency_ns = end_ns - start_ns; start_ns <= end_low_ns <= end_ns;
 * on_cpu[] (non_cpu of them), queued_on[] and irqs[] by ns descending, the rest
 * summed in other_*; on_cpu's time + other_ns + stall_ns + unaccounted_ns add up
 * to the wait (irq time lies inside them); verdict.share <= 1.
 */
struct lat_wake_case {
	int32_t pid, prio, cpu;		/* cpu: where it finally ran */
	int32_t policy;			/* set by a recorded sched_setscheduler(), -1 none */
	char comm[LAT_COMM_LEN];
	enum lat_wait_kind kind;
	int32_t queued_cpu;		/* the CPU it was queued on first (sched_wakeup's,
					   else the waking's target_cpu), -1 unknown */
	uint64_t start_ns, end_ns;
	int64_t latency_ns;
	/*
	 * Its switch in was not recorded: the wait ended at the task's own first
	 * event on the CPU it was queued on (end_ns, the upper bound); it ran no
	 * earlier than end_low_ns (the CPU's last event of another task).
	 */
	uint8_t inferred_end;
	uint64_t end_low_ns;
	/*
	 * A task switched out on its CPU during the wait whose switch in was not
	 * recorded (the longest such): it ran at an unknown point of unseen_ns,
	 * after the last event of the task before it (missing_ns).  unseen_pid
	 * -1: none.
	 */
	int32_t unseen_pid;
	char unseen_comm[LAT_COMM_LEN];
	int64_t unseen_ns;
	struct lat_wake_waker waker;
	struct lat_wake_oncpu on_cpu[LAT_WAKE_ONCPU_MAX];	/* by ns, descending */
	size_t non_cpu;
	int64_t other_ns;		/* tasks beyond the LAT_WAKE_ONCPU_MAX longest */
	size_t other_tasks;		/* how many */
	int64_t unaccounted_ns;		/* not covered by the slices kept (see partial) */
	int64_t missing_ns;		/* of it: a switch went missing, who ran is not known
					   (docs/wakeup.md, "Missing switches") */
	uint8_t partial;		/* the slice window did not reach back to start_ns */
	/*
	 * When it waited in another CPU's queue before the one it ran from: the
	 * queue it left at its last migration (queued_left_cpu, from
	 * queued_from_ns: the wait's start, or the migration before), or the CPU
	 * it was queued on first when no migration of it was recorded
	 * (queued_cpu != cpu: until the end).  The verdict sums count the time
	 * from the start to queued_until_ns as queued.  Who ran on
	 * queued_left_cpu in [queued_from_ns, queued_until_ns), the longest
	 * first.  queued_until_ns 0: none.
	 */
	int32_t queued_left_cpu;
	uint64_t queued_from_ns;
	uint64_t queued_until_ns;
	struct lat_wake_oncpu queued_on[LAT_WAKE_QUEUED_MAX];
	size_t nqueued_on;
	int64_t queued_other_ns;	/* tasks beyond those */
	size_t queued_other_tasks;
	struct lat_wake_irq irqs[LAT_WAKE_IRQS_MAX];	/* by ns, descending */
	size_t nirqs;
	int64_t other_irq_ns;		/* irqs beyond the LAT_WAKE_IRQS_MAX longest */
	size_t other_irqs;		/* how many (distinct irqs and softirq vectors) */
	struct lat_wake_link chain[LAT_WAKE_CHAIN_MAX];	/* [0]: the waker's last wait */
	size_t nchain;
	uint8_t chain_cut;		/* older links were no longer kept (WK_NODES waits ago) */
	struct lat_wake_migr migr[LAT_WAKE_MIGR_MAX];
	size_t nmigr;
	uint32_t migr_dropped;
	struct lat_wake_marker markers[LAT_WAKE_MARKERS_MAX];
	size_t nmarkers;
	struct lat_wake_verdict verdict;
	struct lat_wake_chain_verdict chain_verdict;
	/*
	 * Run-queue depth: tasks waiting for the CPU it was queued on at the
	 * waking (itself not counted) plus 1 if a task ran there, and the average
	 * number of tasks waiting (itself included) on the CPU it ran on over the
	 * wait, -1 when it moved between CPUs.  Then each CPU's time in the wait.
	 */
	int32_t rq_at_wake;
	double rq_avg;
	struct lat_wake_cpushare {
		int32_t cpu;
		int64_t busy_ns, idle_ns, irq_ns, stall_ns, unknown_ns;
	} cpushare[LAT_WAKE_CPUSHARE_MAX];
	size_t ncpushare;
	int64_t stall_ns;		/* of the wait, on its CPU, in stalls: charged to no one */
	struct lat_wake_stall stalls[LAT_WAKE_CASE_STALLS];	/* the stalls it overlaps */
	size_t nstalls;
	uint32_t markers_dropped;	/* markers in the wait past LAT_WAKE_MARKERS_MAX */
	/* steal time sampled on its CPU in windows overlapping the wait, -1 unknown
	   [the steal, wakeup_steal.c, at the end] */
	int64_t steal_ns;
	struct lat_timeline *tl;	/* owned: the window around the case, or NULL */
	/*
	 * Under --task COMM with timelines asked for: its pid has a wait the name did not
	 * select (the task had another name then) that ranks as high or higher and would
	 * have been among its worst had the pid been selected.  Then `--task PID` explains
	 * another wait of the task first than this one (what `latscope report` checks before
	 * drawing the case's timeline from this pass, docs/report.md "One analysis").
	 */
	uint8_t outranked_unselected;
};

struct lat_wake_task {
	int32_t pid;
	int32_t prio;			/* the highest its wakeup waits ended at, else the last */
	char comm[LAT_COMM_LEN];
	struct lat_wake_stat wake;	/* wakeup (and new-task) waits */
	struct lat_wake_stat preempt;	/* preemption waits */
	struct lat_wake_stat rt;	/* the wakeup waits that ended at a real-time or deadline
					   prio (prio < 100): those of its real-time times only */
	uint64_t max_end_ns;		/* when its worst wakeup wait ended */
	uint64_t untrusted;		/* waits across a lost-events gap, or phantom: not counted */
	uint64_t low_trust;		/* counted waits on a CPU whose events are incomplete */
	int32_t policy;			/* set by a recorded sched_setscheduler(), -1 none */
};

struct lat_wake_cpu {
	int32_t cpu;
	struct lat_wake_stat wake, preempt;
	uint64_t lost;			/* events lost (stream gaps, or overrun when larger) */
	uint64_t overrun;		/* the source's per-CPU overrun, 0 if unknown */
};

/*
 * The wakeup waits counted (those the selectors passed) of one CPU or of one
 * selected task, as a histogram (result->hists).
 */
struct lat_wake_hist {
	int32_t cpu;			/* a CPU's waits (pid -1), or -1 */
	int32_t pid;			/* a selected task's waits (cpu -1), or -1 */
	int32_t prio;
	char comm[LAT_COMM_LEN];
	struct lat_wake_stat st;	/* the analysis' numbers (p50, p99, max...) */
	uint64_t b[LAT_WAKE_HIST_N];
};

#define LAT_WAKE_HIST_TASKS 12		/* selected tasks given a histogram, largest max first */

/*
 * CPU activity over the whole trace (lat_analyze_opts.activity): per CPU and
 * time bin, the ns a task ran (pid > 0), the ns in irq and softirq handlers,
 * and the run-queue depth integrated over the bin (tasks waiting for that CPU
 * x ns: divided by bin_ns, the average depth).  Bins start at first_ns and
 * double in width as the trace goes on, so at most LAT_ACT_BINS are used.
 */
#define LAT_ACT_BINS 512

struct lat_act_cpu {
	int64_t busy[LAT_ACT_BINS], irq[LAT_ACT_BINS];
	uint64_t rq_area[LAT_ACT_BINS];
	uint8_t seen;
};

struct lat_wake_activity {
	uint64_t t0_ns, bin_ns;		/* bin k: [t0 + k bin_ns, t0 + (k + 1) bin_ns) */
	size_t nbins;			/* bins used */
	size_t ncpus;			/* cpu[] is indexed by CPU number */
	struct lat_act_cpu *cpu;
};

struct lat_wake_gap {
	int32_t cpu;
	uint64_t from_ns, to_ns;	/* last event seen before the gap, the event after it */
	uint64_t count;			/* 0: the source did not know how many */
};

struct lat_wake_stack {
	char *folded;			/* owned: "root;...;leaf" */
	char *top;			/* owned: first frame outside the scheduler and tracing */
	uint32_t depth;
};

/* Time attributed to a stack (or a function), with the number of intervals. */
struct lat_wake_blame {
	int32_t stack;			/* stack id, or -1 for a function row */
	const char *name;		/* folded stack or top function, lent from stacks */
	int64_t ns;
	uint64_t count;
};

enum lat_wake_sort { LAT_WSORT_MAX, LAT_WSORT_AVG, LAT_WSORT_P99, LAT_WSORT_COUNT,
		     LAT_WSORT_PID, LAT_WSORT_COMM };

/*
 * The result of the wakeup analysis (block->analysis of an event trace), owned
 * by the block.  Each group of fields has one writer in analyze/ (named in
 * brackets; docs/hacking.md, "The wakeup analysis"); everything is final once
 * lat_analyze_block() returns.  Invariants:
 *  - waits + preempt_waits waits are in the statistics (all, tasks, cpus,
 *    hists); untrusted, untrusted_waits, preempt_woken and canceled ones are not;
 *  - above <= waits, and the verdicts_above sum to above; over_limit <= waits;
 *  - worst holds at most worst_n cases, by rank (latency, or its sure part when
 *    inferred), each with the verdict its wait was judged with when judged;
 *  - the arrays hold n* entries; the *_total counts can be larger (lists cut);
 *  - times are in the trace's clock (ns), first_ns <= every time <= last_ns.
 */
struct lat_wakeup_result {
	/* [the entry, wakeup.c] */
	enum lat_wake_start start;
	uint64_t nevents;		/* events analyzed (skipped and backwards ones not) */
	int selecting;			/* --task / --policy / --min-prio given */
	char *stop_reason;		/* reading stopped early: why (owned), or NULL */
	char *skip_reason;		/* damaged data skipped: what (owned), or NULL */

	/* [the core, wakeup_core.c and wakeup_events.c] */
	uint64_t first_ns, last_ns;	/* the first and last event analyzed */
	uint64_t self_wakes, canceled;
	/*
	 * Waits ended by proof that the task ran meanwhile although no switch
	 * showed it (a second sched_waking of it, or an event it ran): not
	 * counted, not ranked; the first such proof's time.
	 */
	uint64_t untrusted_waits;
	uint64_t first_untrusted_ns;
	/*
	 * Preemption waits ended by a sched_waking of the task before it ran
	 * again: it was asleep after all (docs/wakeup.md, "R and R+"): on
	 * PREEMPT_RT a task blocked on a sleeping lock is switched out as R+
	 * (RT patch 5.9-rt13 .. 5.14) or R (5.15 .. 5.17).  Not counted as
	 * preemption; the first one's time, and how many began at an R+.
	 */
	uint64_t preempt_woken, preempt_woken_plus;
	uint64_t first_preempt_woken_ns;
	uint64_t setscheds;		/* sched_setscheduler() calls seen to succeed */
	struct lat_wake_gap *gaps;	/* the first LAT_WAKE_GAPS_MAX lost-events gaps */
	size_t ngaps;
	uint64_t ngaps_total;
	uint64_t skipped_events;	/* CPU numbers out of range */
	/* events earlier than one already analyzed (a corrupt timestamp): skipped */
	uint64_t backwards;
	uint64_t first_back_ns, first_back_from_ns;	/* the first: its time, the time before */
	int32_t first_back_cpu;
	/* switches whose prev was not the CPU's current task: events missing unannounced */
	uint64_t switch_breaks;
	uint64_t first_break_ns;

	/* [the statistics, wakeup_stats.c] */
	uint64_t waits, preempt_waits;	/* counted: trusted and selected */
	uint64_t untrusted;		/* waits across a lost-events gap: not counted */
	/*
	 * Counted waits whose switch in was not recorded, ended at the task's own
	 * first event in task context on the CPU it was queued on (an upper bound;
	 * docs/wakeup.md, "Inferred switch-ins"); the first one's time.
	 */
	uint64_t inferred_waits;
	uint64_t first_inferred_ns;
	size_t selected;		/* threads with waits that passed the selection */
	struct lat_wake_stat all;	/* every counted wakeup wait */
	struct lat_wake_task *tasks;	/* sorted (--sort), filtered */
	size_t ntasks;
	struct lat_wake_cpu *cpus;
	size_t ncpus;
	/*
	 * Wakeup-wait histograms: every CPU with waits (cpu order), then, when
	 * selecting, the LAT_WAKE_HIST_TASKS selected tasks with the largest max.
	 */
	struct lat_wake_hist *hists;
	size_t nhists, nhist_cpus;
	uint64_t lost_events;		/* per CPU the larger of the stream's count and overrun */

	/* [the verdict sums, wakeup_sums.c] */
	/*
	 * Verdicts over every counted wakeup wait of at least the threshold
	 * (lat_analyze_opts.threshold_ns), from per-CPU running sums of who ran
	 * (docs/wakeup.md, "Verdicts"): how many of each kind, and in all.
	 */
	uint64_t verdicts_above[LAT_VERDICT_N];
	uint64_t above;

	/* [the gate, wakeup_gate.h] */
	/*
	 * --fail-above (lat_analyze_opts.fail_above_ns > 0): the counted wakeup
	 * waits of the selected tasks strictly above it (docs/cli.md, "The CI gate").
	 */
	uint64_t over_limit;

	/* [the inversions, wakeup_inversion.c] */
	/*
	 * Waits of real-time / deadline tasks of at least LAT_WAKE_PI_NS that ended
	 * with a lower-priority task (not idle) on the CPU, less than half of them
	 * inside a stall: priority inversions (or non-preemptible sections); the
	 * longest, with the task that held the CPU at its end.
	 */
	uint64_t inversions;
	struct lat_wake_inversion {
		int32_t pid, prio, holder_pid, holder_prio, cpu;
		char comm[LAT_COMM_LEN], holder_comm[LAT_COMM_LEN];
		uint64_t start_ns, end_ns;
	} worst_inversion;

	/* [the worst cases, wakeup_case.c] */
	struct lat_wake_case *worst;	/* by rank, the worst first */
	size_t nworst;

	/* [the stalls, wakeup_stall.c] */
	struct lat_wake_stall *stalls;	/* the first LAT_WAKE_STALLS_MAX stalls */
	size_t nstalls;
	uint64_t nstalls_total;
	int64_t stall_ns_total;		/* their length summed (all of them) */

	/* [the stacks, wakeup_stack.c] */
	int has_stacks;
	struct lat_wake_stack *stacks;	/* interned kernel stacks, by id */
	size_t nstacks;
	uint64_t stacks_dropped;	/* stacks over the intern limit */
	/* blame, sorted by ns descending, at most top_n rows each */
	struct lat_wake_blame *off_stacks, *off_funcs, *run_stacks, *run_funcs;
	size_t noff_stacks, noff_funcs, nrun_stacks, nrun_funcs;
	/* every stack with time is in off_stacks / run_stacks, past the top_n: charts draw all */
	size_t noff_stacks_all, nrun_stacks_all;

	/* [the trace health, wakeup_health.c] */
	struct lat_wake_health *health;	/* every CPU seen, by number */
	size_t nhealth;
	/*
	 * Counted waits that ended on (or were queued on) a CPU whose events are
	 * incomplete: in the statistics, but not ranked among the worst nor counted
	 * by the gate unless lat_analyze_opts.include_untrusted.
	 */
	uint64_t low_trust_waits;

	/* [the activity, wakeup_activity.c] */
	struct lat_wake_activity *activity;	/* NULL unless lat_analyze_opts.activity */

	/* [the timers, wakeup_timer.c] */
	struct lat_timer_result *timers;	/* NULL: the trace has no hrtimer event */

	/* [the marker slices, wakeup_slices.c] */
	struct lat_wake_mslice *mslices;	/* owned, in order of first begin; NULL: none */
	size_t nmslices;
	uint64_t mslice_orphans;	/* ends ("E", "F") with no begin seen */
	uint64_t mslice_dropped;	/* begins past LAT_WAKE_MSLICE_NAMES names or 65536
					   slices open at once: not measured */
};

/*
 * Slices an app marked through trace_marker in Android's atrace form
 * (docs/wakeup.md, "Marker slices"): "B|pid|name" ... "E|pid" on one thread
 * (nested), "S|pid|name|cookie" ... "F|pid|name|cookie" (async: matched by
 * name and cookie, from any thread).  Per name and kind, the slices ended.
 */
#define LAT_WAKE_MSLICE_NAMES 4096

struct lat_wake_mslice {
	char *name;			/* owned */
	uint8_t async;			/* S/F; else B/E */
	uint64_t count;			/* slices ended */
	int64_t min_ns, max_ns, sum_ns;	/* of those (min 0 and max 0 when count is 0) */
	uint64_t open;			/* begun, not ended at the trace's end */
};

#define LAT_WAKE_GAPS_MAX 64

/* Parses a --policy name (rt, fair, dl).  Returns 0 or -LAT_EUSAGE. */
int lat_sched_policy_parse(const char *s, enum lat_sched_policy *out);

/* Parses a --sort key (max, avg, p99, count, pid, comm).  Returns 0 or -LAT_EUSAGE. */
int lat_wake_sort_parse(const char *s, enum lat_wake_sort *out);

/*
 * The timeline around worst case @idx (0 = the worst): a deep copy the caller
 * frees with lat_timeline_free().  Returns 0, -LAT_EEMPTY when the block has
 * no such case or it has no captured window, or -LAT_ENOMEM.
 */
int lat_wakeup_timeline(const struct lat_block *b, size_t idx, struct lat_timeline **out);

#endif
