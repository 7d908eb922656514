/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf sched map rows kept for the chart of who ran where (the series of
 * model.h's LAT_SMAP_GROUP).  perf_sched.c reads a row's cells and time and
 * hands them here cell by cell (psm_cell), then the row (psm_row); an elision
 * mark ("<SNIP>") between rows is psm_gap; psm_finish at the block's end.
 * The series it makes belong to the block from the start.
 */
#ifndef LATSCOPE_PERF_SCHED_MAP_H
#define LATSCOPE_PERF_SCHED_MAP_H

#include "latscope/model.h"

/* A row read, kept until the block ends: its cells' columns tell their CPUs. */
struct psm_cellrec {
	uint32_t col;		/* where the cell starts in its line (its '*' or the blank) */
	int32_t task;		/* row of "tasks", -1 idle */
};

struct psm_keep {
	struct lat_block *b;
	struct lat_series *tasks;	/* the block's */
	struct psm_cellrec *cell;	/* every row's cells, one after the other */
	size_t ncell, cellcap;
	struct psm_row {
		int64_t ts_ns;		/* INT64_MIN: rows left out here */
		uint32_t line;
		size_t first, n;	/* its cells */
	} *row;
	size_t nrow, rowcap;
	int32_t *by_code;		/* code (base 36, < PSM_CODES) -> task row + 1 */
	size_t row_first;		/* the row being read: its first cell */
};

/*
 * Cell of the row being read: "*A0", "B0", "." ([w, w+wl)) at column @col of
 * its line.  0 or -LAT_ENOMEM.
 */
int psm_cell(struct psm_keep *k, size_t col, const char *w, size_t wl);
/*
 * The row read: its time and the rest of the line after "secs" (maybe a legend
 * "A0 => perf:15304").  0 or -LAT_ENOMEM.
 */
int psm_row(struct psm_keep *k, int64_t ts_ns, const char *rest, size_t len, uint32_t line);
/* Rows left out here: what ran is not known until the next row. */
int psm_gap(struct psm_keep *k);
/*
 * The block ends: when @ret is 0 (the block read), the series "cpu<N>" made
 * from the rows kept (a cell's CPU is its column: perf prints 4 columns per
 * CPU, blank for a CPU not seen yet, so the leftmost cell of all rows is
 * CPU 0); the builder freed in every case.  @ret, or -LAT_ENOMEM.
 */
int psm_finish(struct psm_keep *k, int ret);

#endif
