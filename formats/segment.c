// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The segmenter: finds the log blocks inside a pasted mail.  Every block
 * reader classifies lines; a block is a run of its rows and headers, with
 * blank lines and comments allowed inside and up to two foreign lines (a
 * wrapped or garbled row) when a row of the same reader follows them.  The
 * reader that claims most rows from a starting line wins it.
 */
#include <stdlib.h>

#include "latscope/format.h"

#define GAP_LINES 2

static enum lat_line_kind kind_of(const struct lat_format *f, const struct lat_line *l)
{
	if (l->binary)
		return LAT_LINE_NO;
	if (lat_line_blank(l))
		return LAT_LINE_SOFT;
	return f->line_kind(l->s, l->len);
}

/* Extent of a block of @f starting at line @i: returns its end, rows in *rows. */
static size_t extent(const struct lat_text *t, const struct lat_format *f, size_t i,
		     size_t *rows)
{
	size_t end = i, j, nrows = 0;

	for (j = i; j < t->nlines; j++) {
		enum lat_line_kind k = kind_of(f, &t->lines[j]);

		if (k == LAT_LINE_HEAD) {
			if (nrows)
				break;
			end = j + 1;
		} else if (k == LAT_LINE_ROW) {
			nrows++;
			end = j + 1;
		} else if (k == LAT_LINE_NO) {
			size_t g;
			int resume = 0;

			for (g = 1; g <= GAP_LINES && j + g < t->nlines; g++) {
				enum lat_line_kind kg = kind_of(f, &t->lines[j + g]);

				if (kg == LAT_LINE_ROW) {
					resume = 1;
					break;
				}
				if (kg == LAT_LINE_HEAD)
					break;
			}
			if (!resume)
				break;
		}
	}
	*rows = nrows;
	return end;
}

int lat_segment_text(const struct lat_text *t, const struct lat_format *const *fmts, size_t n,
		     struct lat_segment **out, struct lat_diag *d)
{
	struct lat_segment *seg = NULL;
	size_t nseg = 0, cap = 0, i = 0;

	while (i < t->nlines) {
		const struct lat_format *best = NULL;
		size_t best_rows = 0, best_end = i + 1, f;
		size_t norow_end = i + 1;
		int best_head = 0, tied = 0;
		const struct lat_format *tie_with = NULL;

		for (f = 0; f < n; f++) {
			enum lat_line_kind k;
			size_t rows, end;

			if (!fmts[f]->line_kind)
				continue;
			k = kind_of(fmts[f], &t->lines[i]);
			if (k != LAT_LINE_ROW && k != LAT_LINE_HEAD)
				continue;
			end = extent(t, fmts[f], i, &rows);
			if (!rows) {
				/* headers with no rows: a later start inside them finds none either */
				if (end > norow_end)
					norow_end = end;
				continue;
			}
			if (rows > best_rows ||
			    (rows == best_rows && k == LAT_LINE_HEAD && !best_head)) {
				best = fmts[f];
				best_rows = rows;
				best_end = end;
				best_head = k == LAT_LINE_HEAD;
				tied = 0;
			} else if (rows == best_rows && (k == LAT_LINE_HEAD) == best_head) {
				tied = 1;
				tie_with = fmts[f];
				if (end > best_end)
					best_end = end;
			}
		}
		if (!best) {
			i = norow_end;
			continue;
		}
		if (tied) {
			lat_diag_at(d, t->lines[i].lineno,
				    "ambiguous block (lines %u-%u): %s and %s read it equally; use --format",
				    t->lines[i].lineno, t->lines[best_end - 1].lineno, best->name,
				    tie_with->name);
			i = best_end;
			continue;
		}
		if (lat_grow(&seg, &cap, nseg + 1, sizeof(*seg))) {
			free(seg);
			return -LAT_ENOMEM;
		}
		seg[nseg].fmt = best;
		seg[nseg].first = i;
		seg[nseg].end = best_end;
		nseg++;
		i = best_end;
	}
	*out = seg;
	return (int)(nseg > INT32_MAX ? INT32_MAX : nseg);
}
