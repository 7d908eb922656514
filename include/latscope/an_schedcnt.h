/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Results of the schedcnt analysis: block->analysis.  Definitions: docs/analyses.md. */
#ifndef LATSCOPE_AN_SCHEDCNT_H
#define LATSCOPE_AN_SCHEDCNT_H

#include "model.h"

struct lat_sched_cpu {
	const struct lat_series *s;	/* lent from the block */
	int cpu;			/* from the series name, -1 when unknown */
	size_t rows;
	int64_t announced;		/* rows the section header announced, or LAT_VALUE_NONE */
	int64_t lat_min, lat_max;	/* cycles; 0 when rows == 0 */
	double lat_avg;
	int64_t tool_avg, tool_second;	/* the footer, LAT_VALUE_NONE when absent */
	int avg_mismatch;		/* |floor(lat_avg) - tool_avg| > 1 */
	size_t lat_inconsistent;	/* rows where LAT != EXIT - ENTRY */
	size_t dif_inconsistent;	/* rows where ENTRYDIF != next ENTRY - ENTRY */
	/* ENTRYDIF's densest cluster (values within 0.1 % of each other) */
	int64_t period_cycles;		/* its median, 0 when no row has an ENTRYDIF */
	size_t period_count, ndif;
	/* the next densest cluster when gaps alternate between two periods, else 0 */
	int64_t period2_cycles;
	size_t period2_count;
};

struct lat_sched_pid {
	int32_t pid;
	uint32_t cpu_mask;		/* bit c: seen on CPU c (c < 32) */
	size_t moves;			/* CPU changes, rows of all CPUs merged by SCHEDENTRY */
	size_t rows;
};

struct lat_sched_run {
	const char *label;		/* lent: "N = 3" */
	struct lat_sched_cpu *cpus;	/* owned */
	size_t ncpus;
	struct lat_sched_pid *pids;	/* owned, ascending pid, idle (0) excluded */
	size_t npids;
	size_t nbouncing;		/* pids seen on more than one CPU */
};

struct lat_sched_result {
	double cpu_mhz;			/* 0 when unknown: no time conversion */
	struct lat_sched_run *runs;	/* owned, in input order */
	size_t nruns;
};

/* Cycles to nanoseconds at @mhz (> 0). */
static inline int64_t lat_cycles_to_ns(double cycles, double mhz)
{
	return (int64_t)(cycles * 1000.0 / mhz + 0.5);
}

#endif
