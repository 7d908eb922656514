/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the lat, lat2 and lat3 readers: the loop-log series layout. */
#ifndef LATSCOPE_FORMATS_LOOP_H
#define LATSCOPE_FORMATS_LOOP_H

#include "latscope/format.h"


extern const struct lat_column lat_loop_columns[LAT_LOOP_NCOLS];

/*
 * The series of process @id in @b, created with the loop columns on first use.
 * NULL on allocation failure.
 */
struct lat_series *lat_loop_series(struct lat_block *b, const char *id);

/* Counts and reports one line of a block that is not a row. */
void lat_loop_bad_row(struct lat_block *b, struct lat_diag *d, const struct lat_line *l,
		      const char *expected);

/* Ends a parse: drops series without rows, titles the block from the legends. */
void lat_loop_finish(struct lat_block *b);

#endif
