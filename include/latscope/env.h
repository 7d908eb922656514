/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The machine a trace was recorded on, as `latscope record` stores it in the file's metadata
 * ("latscope: env ..." and "latscope: cpustat ..." lines, docs/record.md "The recorded
 * environment"), and the steal-time markers it writes through the recording ("latscope: steal
 * cpu=N ...").  core/env.c parses both; the readers fill a struct lat_trace_env from the
 * metadata (reachable as lat_event_source.env) and lend a parsed struct lat_steal with each
 * steal marker (lat_event.u.marker.steal); the analysis and the reports read them.
 *
 * Unknown is never 0: a number not recorded (or not readable when recorded) is LAT_ENV_UNKNOWN,
 * an enum its _UNKNOWN value, a string NULL; "" is a string recorded empty (e.g. no isolated
 * CPU).
 */
#ifndef LATSCOPE_ENV_H
#define LATSCOPE_ENV_H

#include <stdint.h>

#include "base.h"

/* A number not recorded, or recorded as unreadable. */
#define LAT_ENV_UNKNOWN INT64_MIN
/* CPUs the metadata may describe (a higher cpu= is reported and skipped). */
#define LAT_ENV_MAX_CPUS 8192

/* The kernel's preemption mode (the Kconfig choice, or the PREEMPT_DYNAMIC mode). */
enum lat_preempt_mode {
	LAT_PREEMPT_UNKNOWN = -1,
	LAT_PREEMPT_NONE,		/* "none": kernel code is never preempted */
	LAT_PREEMPT_VOLUNTARY,		/* "voluntary": only at might_resched() points */
	LAT_PREEMPT_FULL,		/* "full": preemptible outside preempt/irq-off sections */
	LAT_PREEMPT_LAZY,		/* "lazy": full for RT tasks, at the tick for fair ones */
	/* uname -v without PREEMPT and no config: none or voluntary, not told apart */
	LAT_PREEMPT_NONE_OR_VOLUNTARY,
	LAT_PREEMPT_NMODES
};

/* Where a recorded value came from (the "*_src=" keys). */
enum lat_env_src {
	LAT_ENV_SRC_UNKNOWN = -1,
	LAT_ENV_SRC_DEBUGFS,		/* debugfs sched/preempt: the mode at the recording */
	LAT_ENV_SRC_CMDLINE,		/* the preempt= kernel parameter (the mode at boot) */
	LAT_ENV_SRC_CONFIG,		/* the kernel config (/proc/config.gz, /boot/config-*) */
	LAT_ENV_SRC_UNAME,		/* the kernel's version string (uname -v) */
	LAT_ENV_SRC_MEASURED,		/* measured while recording (HZ: jiffies over time) */
	LAT_ENV_NSRC
};

/* How the tick runs (CONFIG_HZ_PERIODIC, CONFIG_NO_HZ_IDLE, CONFIG_NO_HZ_FULL; nohz=off). */
enum lat_nohz_mode {
	LAT_NOHZ_UNKNOWN = -1,
	LAT_NOHZ_PERIODIC,		/* a tick every 1/HZ on every CPU, idle or not */
	LAT_NOHZ_IDLE,			/* no tick on an idle CPU */
	LAT_NOHZ_FULL,			/* also none on a nohz_full CPU running one task */
	LAT_NOHZ_NMODES
};

/*
 * Per-CPU times from /proc/stat, cumulative since boot, converted to ns from USER_HZ ticks
 * (so their resolution is 1/clk_tck s: 10 ms at USER_HZ 100), as a steal marker or the
 * metadata's start and end lines hold them.
 */
struct lat_steal {
	int32_t cpu;			/* the CPU they are of, -1 unknown */
	int64_t steal_ns;		/* the host ran another while this vCPU wanted to run */
	int64_t guest_ns;		/* this CPU ran a guest of its own */
	int64_t idle_ns;		/* idle, not waiting for I/O */
	int64_t iowait_ns;		/* idle with I/O pending */
	/*
	 * A marker only: ns (CLOCK_MONOTONIC) since the sampler's previous reading, so the
	 * change it reports happened within the since_ns before the marker; LAT_ENV_UNKNOWN
	 * for the first reading and in the metadata.
	 */
	int64_t since_ns;
};

/* What the metadata says of one CPU. */
struct lat_env_cpu {
	struct lat_steal start, end;	/* /proc/stat at the start and the end; cpu -1: none */
	int64_t fair_runtime_ns;	/* the fair server's runtime per period, LAT_ENV_UNKNOWN */
	int64_t fair_period_ns;		/* and its period */
};

struct lat_trace_env {
	int present;			/* 1: the file has environment lines; 0: all unknown */
	/* preemption */
	enum lat_preempt_mode preempt;
	enum lat_env_src preempt_src;	/* DEBUGFS, CMDLINE, CONFIG or UNAME */
	int preempt_dynamic;		/* CONFIG_PREEMPT_DYNAMIC: 1, 0, -1 unknown */
	int preempt_rt;			/* a PREEMPT_RT kernel: 1, 0, -1 unknown */
	char *preempt_note;		/* why no better source was used, or NULL; owned */
	/* the tick */
	int64_t hz;			/* CONFIG_HZ (ticks per second), LAT_ENV_UNKNOWN */
	enum lat_env_src hz_src;	/* CONFIG or MEASURED */
	enum lat_nohz_mode nohz;
	/* isolation: CPU lists as the kernel prints them ("1-3,5"), "" none, NULL unknown */
	char *nohz_full;		/* /sys/devices/system/cpu/nohz_full; owned */
	char *isolated;			/* /sys/devices/system/cpu/isolated; owned */
	char *cmdline;			/* latency-related /proc/cmdline parameters; owned */
	/* virtualization */
	/* "kvm", "xen", "vmware", ..., "none"; "vm": a hypervisor of unknown kind; NULL
	 * unknown; owned */
	char *virt;
	/* where virt came from: "systemd-detect-virt", "sys-hypervisor", "cpuid"; owned */
	char *virt_src;
	int hypervisor_flag;		/* /proc/cpuinfo's "hypervisor" flag: 1, 0, -1 */
	char *sys_hypervisor;		/* /sys/hypervisor/type, NULL absent; owned */
	char *dmi_vendor;		/* /sys/class/dmi/id/sys_vendor, NULL absent; owned */
	char *dmi_product;		/* /sys/class/dmi/id/product_name, NULL absent; owned */
	/* RT throttling */
	int64_t rt_runtime_us;		/* sched_rt_runtime_us: -1 means no throttling (the
					 * kernel's own value); LAT_ENV_UNKNOWN */
	int64_t rt_period_us;		/* sched_rt_period_us, LAT_ENV_UNKNOWN */
	char *fair_note;		/* why the fair server was not read, or NULL; owned */
	/* the steal sampler */
	int64_t clk_tck;		/* USER_HZ of /proc/stat, LAT_ENV_UNKNOWN */
	int64_t steal_interval_ns;	/* its period; 0: it did not run; LAT_ENV_UNKNOWN */
	int64_t steal_samples;		/* readings of /proc/stat, LAT_ENV_UNKNOWN */
	int64_t steal_markers;		/* markers it wrote (a changed steal or guest time) */
	int64_t steal_late_max_ns;	/* its latest wake-up past the period, LAT_ENV_UNKNOWN */
	/* per CPU, indexed by cpu number; ncpus 0: none recorded */
	struct lat_env_cpu *cpus;	/* owned */
	int ncpus;
};

/* Everything unknown, nothing owned. */
void lat_trace_env_init(struct lat_trace_env *e);
/* Frees what @e owns and leaves it as lat_trace_env_init() does. */
void lat_trace_env_release(struct lat_trace_env *e);

/*
 * Fills @e from @meta, the "latscope: ...\n" metadata lines (other lines are skipped; @e is
 * initialized first).  A malformed value is reported to @d ("latscope metadata line N:
 * expected ...") and left unknown.  Returns 0 or -LAT_ENOMEM.
 */
int lat_trace_env_parse(struct lat_trace_env *e, const char *meta, struct lat_diag *d);

/*
 * A "latscope: steal cpu=N steal_ns=... guest_ns=... idle_ns=... iowait_ns=... since_ns=..."
 * marker text (@len bytes, not NUL-terminated; the line may come after a prefix such as the
 * "0xIP: " trace-cmd prints) into @out: 1 when it is one (cpu= and steal_ns= present, each
 * other value LAT_ENV_UNKNOWN when missing), 0 when the text is something else.
 */
int lat_steal_parse(const char *text, size_t len, struct lat_steal *out);

/* "none", "voluntary", "full", "lazy", "none-or-voluntary", "unknown" (static). */
const char *lat_preempt_mode_name(enum lat_preempt_mode m);
/* "debugfs", "cmdline", "config", "uname", "measured", "unknown" (static). */
const char *lat_env_src_name(enum lat_env_src s);
/* "periodic", "idle", "full", "unknown" (static). */
const char *lat_nohz_mode_name(enum lat_nohz_mode m);

#endif
