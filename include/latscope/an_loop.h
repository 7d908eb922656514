/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Results of the loop-log analysis (lat, lat2, lat3): block->analysis. */
#ifndef LATSCOPE_AN_LOOP_H
#define LATSCOPE_AN_LOOP_H

#include "model.h"
#include "stats.h"

enum lat_freeze_what {
	LAT_FREEZE_WAIT,	/* asleep in select()/wait far longer than asked */
	LAT_FREEZE_LOOP,	/* the busy loop stopped (max gap, or overshoot for lat) */
};

struct lat_freeze {
	int64_t ts_ns;		/* the row's date (end of the measured interval) */
	int64_t duration_ns;
	uint32_t line;
	enum lat_freeze_what what;
};

struct lat_loop_proc {
	const struct lat_series *s;	/* lent from the block */
	size_t rows;
	struct lat_stat wait, loop, max;	/* max.n == 0 when the log has no max column */
	int64_t loop_nominal_ns;	/* median loop time: what a row should take */
	int64_t max_stall_ns;		/* longest single stall: max column, else loop overshoot */
	int64_t max_stall_ts;
	uint32_t max_stall_line;
	int64_t max_wait_ns;
	uint64_t nbmax_sum;		/* the tool's own count of gaps over 10 ms */
	int has_nbmax;
	struct lat_freeze *freezes;	/* owned, in input order */
	size_t nfreezes;
};

struct lat_loop_result {
	int64_t threshold_ns;
	struct lat_loop_proc *procs;	/* owned, one per series */
	size_t nprocs;
};

#endif
