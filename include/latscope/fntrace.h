/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Function traces: latency-tracer dumps (Ingo Molnar's -RT/-VP tracer
 * "preemption latency trace v1.1.x", and the kernel's ftrace latency format
 * of the irqsoff / preemptoff / preemptirqsoff / wakeup* tracers).
 *
 * A dump is a header (what was measured) and the entries the tracer kept,
 * in input order.  Times are converted once, here: every *_ns is nanoseconds.
 * Definitions and the units of every field: docs/fntrace.md.
 */
#ifndef LATSCOPE_FNTRACE_H
#define LATSCOPE_FNTRACE_H

#include "base.h"

/* What an entry is (the -RT tracer's (Tn/#i) type, or the shape of an ftrace row). */
enum lat_fn_kind {
	LAT_FN_CALL,		/* a traced function call: function and parent (T1) */
	LAT_FN_SPECIAL,		/* trace_special(): function and three values (T2) */
	LAT_FN_SPECIAL_PID,	/* trace_special_pid(): "<comm-pid> (a b)" marker (T3) */
	LAT_FN_CMDLINE,		/* "[ => comm ]": a task's name recorded (T4) */
	LAT_FN_SYSCALL,		/* "> sys_xxx (a b c)" (T5) */
	LAT_FN_SYSRET,		/* "< (ret)" (T6) */
	LAT_FN_SCHED,		/* ftrace wakeup/switch line "0:120:R + [003] 312:100:R comm" */
	LAT_FN_EVENT,		/* ftrace event line "sched_wakeup: comm=..." */
	LAT_FN_STACK,		/* "<stack trace>" (frames in lat_fntrace.stack) */
	LAT_FN_NKINDS
};

/* Entry flags, the tracer's own bits (kernel/latency.c TRACE_FLAG_*). */
#define LAT_FNF_IRQS_OFF	0x01u	/* 'd' */
#define LAT_FNF_NEED_RESCHED	0x02u	/* 'n' / 'N' */
#define LAT_FNF_HARDIRQ		0x04u	/* 'h', 'H' = hard inside soft */
#define LAT_FNF_SOFTIRQ		0x08u	/* 's', 'H' */
#define LAT_FNF_NMI		0x10u	/* 'z' / 'Z' (modern ftrace) */
#define LAT_FNF_BH_OFF		0x20u	/* 'b' / 'D' (modern ftrace: bottom halves off) */
#define LAT_FNF_RESCHED_LAZY	0x40u	/* need-resched-lazy: -rt 'L' column; 'l' 'L' 'b' 'B' */

/* display-graph rows: "f();" with its duration, "f() {", "}" with the duration of the call. */
enum lat_fn_graph {
	LAT_FNG_NONE,
	LAT_FNG_LEAF,
	LAT_FNG_OPEN,
	LAT_FNG_CLOSE,
};

/* How a row printed its flags (docs/fntrace.md, "Flag columns"). */
enum lat_fn_layout {
	LAT_FNL_NONE,		/* no flags on the row */
	LAT_FNL_PREEMPT_WORD,	/* RT v1.0.2 - v1.1.1: the preempt count "80010004" in hex */
	LAT_FNL_V113,		/* RT v1.1.3: "0-h.3" CPU, '-', hardirq, softirq, depth */
	LAT_FNL_4,		/* "0dn.3": irqs-off, need-resched, hard/softirq, depth */
	LAT_FNL_5,		/* "0d..1.": ... and migrate-disable (4.x+ ftrace) */
	LAT_FNL_RT_LAZY7,	/* "0dn.h5..": PREEMPT_RT lazy patch: irqs-off, need-resched,
				 * need-resched-lazy, hard/softirq, depth, lazy depth, migrate */
	LAT_FNL_N
};

#define LAT_FN_NONE (-1)

struct lat_fn_entry {
	int64_t time_ns;	/* since the first entry of the trace, as printed (us or ms) */
	int64_t delay_ns;	/* RT verbose "(+x.xxxms)": time to the next entry; -1 */
	uint64_t tsc_cycles;	/* RT verbose "[...]": raw rdtsc value; valid if has_tsc */
	uint32_t line;		/* input line (the first one when a wrapped entry was joined) */
	int32_t cpu;		/* -1 when not printed */
	int32_t pid;		/* -1 when not printed */
	int32_t index;		/* RT "(Tn/#i)" or verbose index; -1 */
	int16_t type;		/* RT "Tn" type number; -1 */
	int16_t preempt_count;	/* preempt depth; -1 when unknown */
	int16_t migrate;	/* modern ftrace migrate-disable depth; -1 when not printed */
	int16_t lazy_depth;	/* -rt preempt-lazy-depth; -1 when not printed */
	uint8_t layout;		/* enum lat_fn_layout */
	uint8_t graph;		/* enum lat_fn_graph: a display-graph (function_graph) row */
	int16_t depth;		/* display-graph call depth (indent / 2); -1 */
	int64_t dur_ns;		/* display-graph DURATION column; -1 when blank */
	uint8_t flags;		/* LAT_FNF_* */
	uint8_t flags_known;	/* the row printed its irq/preempt flags */
	uint8_t has_tsc;
	uint8_t gap_before;	/* an elision marker ("etc", "[...]") precedes this entry */
	uint8_t joined;		/* the entry was wrapped over two lines and joined */
	char mark;		/* marker after the time: ' ' + ! # * @ $; 0 if none */
	enum lat_fn_kind kind;
	char *comm;		/* owned; "<...>" when the tracer did not know it */
	char *function;		/* owned; without "+off/size" and "<addr>"; NULL for SYSRET */
	char *parent;		/* owned or NULL */
	char *text;		/* owned: rest of a SPECIAL/SCHED/EVENT/SYSRET row, or NULL */
	char *note;		/* owned: text the poster typed after the row ("<== hmmm"), or NULL */
};

struct lat_fntrace {
	char *tracer;		/* "preemption" (-RT), "irqsoff", ...; owned or NULL */
	char *version;		/* "v1.1.4"; owned or NULL */
	char *kernel;		/* "2.6.12-rc1-RT-V0.7.41-00"; owned or NULL */
	char *model;		/* "(M:preempt VP:0, ...)": the preemption model "preempt"; owned */
	int64_t latency_ns;	/* header "latency: N us"; -1 when absent */
	int64_t entries_shown;	/* header "#A/B": A, entries kept and printed; -1 */
	int64_t entries_total;	/* header "#A/B": B, entries the tracer logged; -1 */
	int32_t cpu;		/* header "CPU#n"; -1 */
	int32_t nr_cpus;	/* header "#P:n"; -1 */
	char *task_comm;	/* header "| task: comm-pid (...)"; owned or NULL */
	int32_t task_pid;	/* -1 */
	int32_t task_uid, task_nice, task_policy, task_rt_prio;	/* LAT_FN_NONE when absent */
	char *started_at;	/* "=> started at: X" without +off/size; owned or NULL */
	char *ended_at;
	uint32_t header_line;	/* line of "... latency trace v..." */
	uint32_t latency_line;	/* line of "latency: ..."; 0 when absent */
	uint32_t task_line;	/* line of "| task: ..." / "process: ..."; 0 when absent */

	struct lat_fn_entry *e;	/* owned, input order */
	size_t n, cap;
	char **stack;		/* owned: "=> frame" lines after "<stack trace>" */
	size_t nstack, stackcap;

	size_t unknown_types;	/* "(T9/#...)" rows skipped */
	size_t elisions;	/* "etc", "[...]" lines: entries the poster cut */
	size_t joined_lines;	/* entries rebuilt from two wrapped lines */
	size_t split_lines;	/* lines that held several entries a mailer joined */
	size_t quoted_lines;	/* rows that were mail-quoted ("> ") */
	int verbose;		/* RT verbose layout seen (raw TSC and indexes present) */
	enum lat_fn_layout layout;	/* flag columns of the first row that had flags */
	int graph;		/* display-graph rows seen: blame from their DURATION column */
};

struct lat_fntrace *lat_fntrace_new(void);
/* Frees @t and everything it owns; NULL is a no-op. */
void lat_fntrace_free(struct lat_fntrace *t);
/* Appends a zeroed entry (cpu, pid, index, type, counts set to -1); NULL on ENOMEM. */
struct lat_fn_entry *lat_fntrace_add(struct lat_fntrace *t);

/* "preempt-word", "v1.1.3", "4", "5-migrate", "7-rt-lazy"; NULL for LAT_FNL_NONE. */
const char *lat_fn_layout_name(enum lat_fn_layout l);

/* "call", "special", "wakeup-marker", ... static. */
const char *lat_fn_kind_name(enum lat_fn_kind k);

#endif
