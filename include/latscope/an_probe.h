/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Probe samples in a scheduler event stream: latscope's timer/gap probe markers
 * ("latscope: probe=timer cpu=1 lat_ns=73210 seq=118") and cyclictest's
 * --tracemark/-b marker ("hit latency threshold (X > Y)"), per CPU, with the
 * recorder's stored per-CPU summary (CPUSTAT "latscope: probe=" lines) when the
 * markers were filtered by --marker-above; the worst samples decomposed along
 * timer expiry -> irq entry -> sched_waking -> sched_switch in -> marker.
 * Definitions in docs/probe.md.  block->probe.
 */
#ifndef LATSCOPE_AN_PROBE_H
#define LATSCOPE_AN_PROBE_H

#include "an_histogram.h"
#include "event.h"
#include "model.h"

#define LAT_PROBE_HIST 64		/* log2 buckets: k holds [2^k, 2^(k+1)) ns */

enum lat_probe_kind { LAT_PROBE_TIMER, LAT_PROBE_GAP, LAT_PROBE_CYCLICTEST, LAT_PROBE_NKINDS };

const char *lat_probe_kind_name(enum lat_probe_kind k);	/* "timer", "gap", "cyclictest" */

/* Where a number comes from. */
enum lat_probe_src {
	LAT_PSRC_NONE,		/* unknown */
	LAT_PSRC_MARKERS,	/* exact, from the markers in the trace */
	LAT_PSRC_SUMMARY,	/* exact, from the recorder's stored summary */
	LAT_PSRC_SUMMARY_BUCKET,	/* the summary's log2 bucket that holds it: a range */
};

const char *lat_probe_src_name(enum lat_probe_src s);	/* "markers", "summary", ... */

/* How finely a probe's distribution is known (docs/probe.md, "As a histogram"). */
enum lat_probe_res {
	LAT_PRES_NONE,		/* no distribution: no summary (markers alone are its tail) */
	LAT_PRES_LOG2,		/* the summary's log2 buckets only (markers lost, T unknown) */
	LAT_PRES_MIXED,		/* log2 buckets up to --marker-above, exact 1 us buckets above */
	LAT_PRES_EXACT,		/* every sample has its marker: 1 us buckets */
};

const char *lat_probe_res_name(enum lat_probe_res r);	/* "log2", "log2+1us", "1us" */

/* The percentiles of a probe CPU, in the order of its p50/p99/p999 fields. */
enum lat_probe_pct { LAT_PPCT_P50, LAT_PPCT_P99, LAT_PPCT_P999, LAT_PPCT_N };

struct lat_probe_cpu {
	enum lat_probe_kind kind;
	int32_t cpu;
	uint64_t count;			/* samples (the summary's when there is one) */
	uint64_t markers;		/* markers seen in the trace */
	int64_t marker_above_ns;	/* the recording's --marker-above, -1 unknown */
	int64_t min_ns, max_ns, p50_ns, p99_ns, p999_ns;	/* -1 unknown */
	double avg_ns;			/* < 0 unknown */
	enum lat_probe_src count_src, min_src, avg_src, max_src, p50_src, p99_src, p999_src;
	uint64_t hist[LAT_PROBE_HIST];	/* log2 buckets */
	enum lat_probe_src hist_src;
	/*
	 * Each percentile lies in [pct_lo_ns, pct_hi_ns] (both included): equal to its _ns when
	 * exact (from markers, or the max when the rank is the count: summary), the summary's
	 * log2 bucket cut to [min, max] when not (summary-bucket; its _ns is then the upper
	 * bound), -1 unknown.
	 */
	int64_t pct_lo_ns[LAT_PPCT_N], pct_hi_ns[LAT_PPCT_N];
	uint64_t summary_markers;	/* the summary's markers= (the recorder's count) */
	uint8_t has_summary;
	/*
	 * The markers are not every sample that should have one: the trace does not hold
	 * exactly the markers the recorder wrote (markers != summary_markers: the flight
	 * recorder overwrote the oldest, or markers not the recorder's), or the recorder wrote
	 * fewer than it had samples to mark (every gap sample; every timer sample in a log2
	 * bucket wholly above marker_above_ns: writes refused once tracing was off).  The
	 * markers are then not the largest samples, so no percentile comes from them.
	 */
	uint8_t markers_missing;
	/*
	 * The probe thread's scheduling class, as the kernel's prio (include/latscope/an_wakeup.h:
	 * 99 - N for SCHED_FIFO N, 120 SCHED_OTHER; LAT_PRIO_UNKNOWN): from the trace (the prio
	 * of its task at a marker: prio_src markers), else from the recorder's metadata (the
	 * timer probe's policy= and prio=, the gap probe is SCHED_OTHER: summary).  --policy
	 * and --min-prio select the probe CPUs by it (docs/probe.md, "Which probes --policy
	 * keeps").
	 */
	int32_t prio;
	enum lat_probe_src prio_src;
	/*
	 * Every sample as a histogram comparable with cyclictest's and other tools' (timer
	 * probe with a summary only; else NULL): ascending, non-overlapping buckets.
	 */
	struct lat_histogram *dist;	/* owned */
	struct lat_hist_stats dist_stats;	/* its quantiles; dist_stats.h = dist */
	enum lat_probe_res dist_res;
	int64_t dist_exact_above_ns;	/* MIXED/EXACT: samples above it are exact; else -1 */
};

/* The segments of a sample, in time order.  Each is [from, to) of two points. */
enum lat_probe_seg {
	LAT_PSEG_IRQ,		/* expected wake -> timer irq entry: irqs off / stall */
	LAT_PSEG_HANDLER,	/* irq entry -> hrtimer_expire_entry: handler before the expiry */
	LAT_PSEG_WAKE,		/* hrtimer_expire_entry -> sched_waking of the probe */
	LAT_PSEG_RUNQ,		/* sched_waking -> sched_switch in: run-queue wait */
	LAT_PSEG_SELF,		/* sched_switch in -> the marker: the probe's own path */
	LAT_PSEG_N
};

const char *lat_probe_seg_name(enum lat_probe_seg s);

/* The points between segments. */
enum lat_probe_pt {
	LAT_PPT_EXPECTED,	/* the marker's time - the sample's latency */
	LAT_PPT_IRQ,		/* irq_vectors:local_timer_entry (or an irq_handler_entry) */
	LAT_PPT_EXPIRE,		/* timer:hrtimer_expire_entry */
	LAT_PPT_WAKING,		/* sched_waking (or sched_wakeup) of the probe thread */
	LAT_PPT_SWITCH,		/* sched_switch to the probe thread */
	LAT_PPT_MARKER,		/* the marker */
	LAT_PPT_N
};

/*
 * The parts of a gap probe's sample (docs/probe.md, "The gap probe's samples"): what its CPU did
 * in the gap [marker - lat_ns, marker], each instant in the first that holds: unknown, stall,
 * irq, preempted, then the probe thread's own time (probe-path after its switch in, else stall).
 */
enum lat_probe_gpart {
	LAT_PGAP_IRQ,		/* recorded irq and softirq handlers */
	LAT_PGAP_PREEMPTED,	/* other tasks ran: the thread was switched out */
	LAT_PGAP_STALL,		/* nothing logged while it was on the CPU; stalls the wakeup
				   analysis found */
	LAT_PGAP_PATH,		/* probe-path: from its switch in back to the marker */
	LAT_PGAP_UNKNOWN,	/* lost events, who ran not known; its silent time when the trace
				   records no irq handlers */
	LAT_PGAP_N
};

const char *lat_probe_gpart_name(enum lat_probe_gpart p);	/* "irq", "preempted", ... */

#define LAT_PROBE_GAP_IRQS 3

struct lat_probe_sample {
	enum lat_probe_kind kind;
	int32_t cpu, pid;
	uint64_t seq;
	int64_t lat_ns;
	uint8_t stop;			/* the flight recorder's stopping sample */
	uint64_t pt[LAT_PPT_N];		/* 0: not recorded */
	int64_t seg_ns[LAT_PSEG_N];	/* -1: unknown */
	int seg_to[LAT_PSEG_N];		/* the point (enum lat_probe_pt) a segment ends at, -1 */
	int64_t expected_moved_ns;	/* the expected point moved back to an earlier irq/expiry */
	int64_t unknown_ns;		/* lat_ns + expected_moved_ns - the known segments */
	int dominant;			/* enum lat_probe_seg, -1 none known */
	/*
	 * Of the sample, the time inside stalls the wakeup analysis found on its
	 * CPU or on every CPU (docs/wakeup.md, "Stalls"): nothing was logged, so
	 * the segment it lies in is not the handler's or a task's time.  0 none.
	 */
	int64_t stall_ns;
	/* run-queue wait: who ran on the CPU the longest between the waking and the switch */
	int32_t holder_pid;
	char holder_comm[LAT_COMM_LEN];
	int64_t holder_ns;
	char irq_name[24];		/* the irq whose entry was taken */
	/*
	 * The verdict of the wakeup wait this timer sample measured (enum
	 * lat_verdict_kind, -1 not judged: a gap sample, the thread's first
	 * marker, a wait not counted), the same as the wait's everywhere else,
	 * and the part it rests on.
	 */
	int verdict;
	int64_t verdict_part_ns;
	/*
	 * The gap model (kind LAT_PROBE_GAP; seg_ns all unknown): the window is pt[EXPECTED]
	 * (marker - lat_ns) .. pt[MARKER]; holder_*: the task that ran longest in it.
	 */
	int64_t part_ns[LAT_PGAP_N];	/* add up to lat_ns */
	uint16_t part_pm[LAT_PGAP_N];	/* shares in per mille, adding up to 1000 */
	int part_dominant;		/* enum lat_probe_gpart, -1 none (not a gap sample) */
	int64_t silent_ns;		/* of the stall (or unknown) part: the thread's own time
					   with nothing logged */
	uint32_t ntasks;		/* other tasks that ran in the gap */
	struct {
		char name[24];
		int64_t ns;
	} irqs[LAT_PROBE_GAP_IRQS];	/* the handlers' time by name, longest first; "" none */
};

struct lat_probe_result {
	struct lat_probe_cpu *cpus;	/* by kind, then cpu */
	size_t ncpus;
	struct lat_probe_sample *worst;	/* the stopping sample first, then by lat_ns descending */
	size_t nworst;
	uint64_t markers, bad_markers;	/* probe markers seen; markers with a probe tag unread */
	uint64_t over_limit;		/* markers whose sample is above --fail-above (if given),
					   of the CPUs kept */
	/*
	 * The probe CPUs --policy / --min-prio left out (their thread's class did not pass):
	 * not in cpus, worst, over_limit nor the gate.  NULL / 0 when nothing was left out.
	 */
	struct lat_probe_cpu *left_out;
	size_t nleft_out;
	uint8_t selecting;		/* --policy or --min-prio given */
	uint8_t has_expire, has_local_timer, has_irq, has_waking;	/* events the trace has */
	uint8_t has_summary;
	int64_t stop_above_ns;		/* from the summary, -1 unknown */
};


#endif
