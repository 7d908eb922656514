/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The text layer's own helpers (core/ only): text.c splits and decodes an
 * input into lines, text_rejoin.c undoes what mailers and web viewers did to
 * whole lines (format=flowed soft breaks, line-number prefixes, and, with the
 * readers' row shapes, table rows wrapped at a fixed column), text_diff.c
 * reads a table quoted as diff lines as the patched document (with the
 * readers' line classes), text_line.c holds what they all use.
 */
#ifndef LATSCOPE_CORE_TEXT_PRIV_H
#define LATSCOPE_CORE_TEXT_PRIV_H

#include "latscope/text.h"

/*
 * Appends line @c to line @d in place (@c lies after @d in the buffer), with
 * one blank between them when @blank.  Returns 0 (nothing done) when @c does
 * not lie after @d.
 */
int tx_join(struct lat_line *d, const struct lat_line *c, int blank);

/* Removes the line numbers a web viewer pasted in front of each line (docs/formats.md). */
void tx_strip_line_numbers(struct lat_text *t);
/* Joins each line ending in a format=flowed soft break (l->soft) with the next. */
void tx_rejoin_flowed(struct lat_text *t);

#endif
