/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Tables of cyclictest trailers assembled by hand (formats/cyclictest_table.c):
 * the "# Min/Avg/Max Latencies:" lines of several runs side by side, one
 * column per kernel named on a line above, one group of lines per workload
 * labelled in front of a trailer (LKML sched threads, 2023-2024):
 *
 *                                   EEVDF      PATCH
 *                   # Min Latencies: 00006      00006
 *     LNICE(-19)    # Avg Latencies: 00191      00122
 *                   # Max Latencies: 15442      07648
 *
 * Private to formats/: cyclictest.c asks it about lines and blocks.
 */
#ifndef LATSCOPE_CYCLICTEST_TABLE_H
#define LATSCOPE_CYCLICTEST_TABLE_H

#include "latscope/format.h"

/* "LNICE(-19)    # Avg Latencies: 00191 ...": a value trailer with a label in front */
int ctt_labelled(const char *s, size_t len);

/*
 * Are lines [first, end) such a table: nothing but value trailers (Total,
 * Min, Avg, Max, Overflows), a label in front of one of them or a trailer
 * repeated (several groups)?  A single run's trailers are not.
 */
int ctt_is_table(const struct lat_text *t, size_t first, size_t end);

/*
 * Reads the table into @b: per group and column with a value a summary-only
 * histogram "LNICE(-19) EEVDF" (group "LNICE(-19)"), its printed min/avg/max
 * (µs → ns) and count (Total + Overflows); columns are named by the line of
 * as many words just above the table, else "thread N".  0, -LAT_EEMPTY or
 * -LAT_ENOMEM; bad lines are reported on @d and counted.
 */
int ctt_parse(const struct lat_text *t, size_t first, size_t end, struct lat_block *b,
	      struct lat_diag *d);

#endif
