/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel-tracer reader's state while it reads a block, shared by
 * formats/ktracer.c (which reads the lines and owns it) and
 * formats/ktracer_find.c (which turns it into findings).
 */
#ifndef LATSCOPE_KTRACER_PRIV_H
#define LATSCOPE_KTRACER_PRIV_H

#include "latscope/model.h"
#include "ktracer.h"

#define KT_MAX_CPUS 4096	/* CPU numbers at or above are reported, not read */
#define KT_RING 32		/* osnoise events kept per CPU to explain a sample */
#define KT_TOP 4		/* the largest of them named in a finding */
#define KT_FRAMES_BYTES 4096	/* a stack's frames, joined */
#define KT_OTHER_NAMES 4	/* other events counted by name */
#define KT_STOPS 8		/* "stop tracing hit on cpu N" lines kept */

/* count/min/max/sum of one kind of sample of one CPU, with its first and last line */
struct kt_acc {
	int64_t n, min, max, sum;
	uint32_t first, last;
};

struct kt_noise_ev {
	int type;			/* enum kt_noise */
	int32_t cpu;
	char name[KT_NAME_MAX];		/* "local_timer:236", "insmod:1026", "" */
	uint64_t start_ns;
	int64_t dur_ns;
	uint32_t line;
};

struct kt_cpu {
	int seen;
	struct kt_acc tl[KT_NCTX];	/* timerlat latencies per context, ns */
	struct kt_acc os;		/* osnoise: max single noise per period, ns */
	int64_t os_runtime, os_noise;	/* µs, summed over the periods */
	int64_t os_min_avail;		/* the lowest % CPU available, 1e-5 % */
	int64_t os_cnt[5];		/* HW, NMI, IRQ, softirq, thread, summed */
	struct kt_acc hw;		/* hwlat: max(inner, outer) per window, ns */
	struct kt_acc thr;		/* osnoise:sample_threshold durations, ns */
	struct kt_noise_ev ring[KT_RING];	/* the last osnoise events, oldest first */
	unsigned rhead, rlen;
	/* the last timerlat IRQ sample: the IRQ part of the thread sample that follows */
	int irq_valid;
	uint64_t irq_seq;
	int64_t irq_lat;
	char irq_who[LAT_COMM_LEN + 16];
	uint32_t last_line;		/* the last timerlat sample: a stack printed next is its */
};

/* The worst sample of one kind, and what explains it. */
struct kt_worst {
	int valid;
	int64_t v_ns;
	int32_t cpu;
	uint32_t line;
	uint64_t seq, ts_ns;
	char who[LAT_COMM_LEN + 16];	/* "comm-pid" of its line: the task running */
	struct kt_rec row;		/* osnoise, hwlat, sample_threshold: the whole row */
	/* timerlat thread samples: the IRQ sample of the same activation */
	int has_irq;
	int64_t irq_lat;
	char irq_who[LAT_COMM_LEN + 16];
	/* the osnoise events inside its window, the largest first */
	struct kt_noise_ev top[KT_TOP];
	int ntop, nnoise;
	int64_t noise_sum;
	char *stack;			/* owned: frames "a <- b <- c", innermost first */
	int nframes;
	uint32_t stack_line;
};

struct kt_stop {
	int32_t cpu;
	uint32_t line;
};

struct kt_state {
	enum kt_tracer tracer;		/* from "# tracer:", else none */
	struct kt_cpu **cpus;		/* owned, by CPU number, NULL where none seen */
	size_t ncpus;
	struct kt_worst tl[KT_NCTX], os, hw, thr;
	uint64_t n_samples, n_noise, n_thresholds, n_stacks, n_other;
	uint64_t n_by_type[4];		/* osnoise events by enum kt_noise */
	struct kt_noise_ev longest[KT_TOP];	/* the longest osnoise events, longest first */
	int nlongest;
	struct {
		char name[40];
		uint64_t n;
	} other[KT_OTHER_NAMES];
	struct kt_stop stops[KT_STOPS];
	int nstop;
	long long entries[2];		/* "entries-in-buffer/entries-written: A/B" */
	int has_entries;
	int64_t hw_nmi_rows, hw_nmi_count, hw_nmi_max_us;
	uint32_t hw_nmi_line;
	/* the stack being read: 1 kernel, 2 user (frames not kept) */
	int in_stack, nframes;
	int32_t stack_cpu;
	uint32_t stack_line;
	char frames[KT_FRAMES_BYTES];
};

/* Appends the findings of a block read into @st (tracer @tr) to @b.  0 or -LAT_ENOMEM. */
int kt_findings(const struct kt_state *st, enum kt_tracer tr, struct lat_block *b);

#endif
