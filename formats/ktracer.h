/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's own latency tracers as their `trace` file prints them, private
 * to formats/: one line of a timerlat, osnoise or hwlat trace (or of the
 * osnoise:* events beside them) into a struct kt_rec.  The reader is
 * formats/ktracer.c; ftrace-text's probe asks kt_classify() so that these
 * traces are not streamed as scheduler events.  docs/formats.md, "The
 * kernel's latency tracers".
 */
#ifndef LATSCOPE_KTRACER_H
#define LATSCOPE_KTRACER_H

#include "latscope/event.h"

enum kt_kind {
	KT_NONE,	/* no line of these tracers (maybe another ftrace line) */
	KT_TITLE,	/* "# tracer: timerlat" (osnoise, hwlat): u.title */
	KT_TIMERLAT,	/* "#1 context irq timer_latency 932 ns": u.tl */
	KT_OSNOISE,	/* a period row "1000000 190 99.98100 9 18 0 1007 18 1": u.os */
	KT_HWLAT,	/* "#1 inner/outer(us): 12/14 ts:1499801089.066141940 ...": u.hw */
	KT_HWLAT_CUT,	/* a hwlat row a mailer cut after "inner/outer(us):": u.hw.seq */
	KT_HWLAT_REST,	/* the rest of it on the next line, "41/41 ts:...": u.hw */
	KT_NOISE,	/* osnoise:irq_noise, softirq_noise, nmi_noise, thread_noise: u.nz */
	KT_THRESHOLD,	/* osnoise:sample_threshold: u.nz (type -1) */
	KT_STOP,	/* "timerlat_main: stop tracing hit on cpu 6": u.stop_cpu */
	KT_BAD,		/* shaped like one of the above with a field wrong: expected */
};

enum kt_tracer { KT_TR_NONE, KT_TR_TIMERLAT, KT_TR_OSNOISE, KT_TR_HWLAT };
enum kt_ctx { KT_CTX_IRQ, KT_CTX_THREAD, KT_CTX_USER, KT_NCTX };
enum kt_noise { KT_NZ_IRQ, KT_NZ_SOFTIRQ, KT_NZ_NMI, KT_NZ_THREAD };

#define KT_NAME_MAX 48

struct kt_rec {
	enum kt_kind kind;
	int has_head;		/* the line has an event's head: cpu, pid, comm, ts_ns */
	int32_t cpu, pid;
	char comm[LAT_COMM_LEN];
	uint64_t ts_ns;		/* the line's timestamp */
	const char *expected;	/* KT_BAD: what a good line looks like (static) */
	union {
		enum kt_tracer title;
		struct {
			uint64_t seq;	/* the activation id */
			enum kt_ctx ctx;
			int64_t lat_ns;
		} tl;
		struct {	/* µs as printed; avail in 1e-5 % (99.98100 -> 9998100) */
			int64_t runtime_us, noise_us, avail, single_us;
			int64_t hw, nmi, irq, sirq, thread;
		} os;
		struct {	/* -1: not printed (count before 5.7, nmi only when an NMI came) */
			uint64_t seq;
			int64_t inner_us, outer_us;
			uint64_t wall_s, wall_ns;
			int64_t count, nmi_total_us, nmi_count;
		} hw;
		struct {
			int type;	/* enum kt_noise, -1 for sample_threshold */
			char name[KT_NAME_MAX];	/* "local_timer:236", "insmod:1026", "" */
			uint64_t start_ns;
			int64_t dur_ns;
			int64_t interferences;	/* sample_threshold, else -1 */
		} nz;
		int32_t stop_cpu;
	} u;
};

/*
 * Parses one dequoted line into @r; returns r->kind.  KT_NONE for every line
 * that is none of these (a sched_switch event, a stack frame, prose).
 */
enum kt_kind kt_parse_line(const char *s, size_t len, struct kt_rec *r);

/*
 * The same for the two kinds of line that have no event head, a title and
 * the rest of a cut hwlat row (cheap: no head is parsed); KT_NONE otherwise.
 */
enum kt_kind kt_parse_headless(const char *s, size_t len, struct kt_rec *r);

/* The name of noise @type ("irq_noise"); "sample_threshold" for -1. */
const char *kt_noise_name(int type);

/* How a probe weighs a line (see kt_classify()). */
enum kt_class {
	KT_CL_OTHER,	/* none of the tracers' lines */
	KT_CL_OWN,	/* only these tracers print it: a title, a sample row, sample_threshold */
	KT_CL_NOISE,	/* an osnoise:*_noise event, which a plain event trace may hold too */
};

/* The class of one dequoted line. */
enum kt_class kt_classify(const char *s, size_t len);
/* The class of an event line named @name ("irq_noise") that ftrace text parsed. */
enum kt_class kt_classify_event(const char *name);

#endif
