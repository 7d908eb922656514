/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The text layer's own helpers (core/ only): text.c splits and decodes an
 * input into lines, text_line.c holds what works on one line.
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

#endif
