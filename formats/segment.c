// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The segmenter: finds the log blocks inside a pasted mail.  Every block
 * reader classifies lines; a block is a run of its rows and headers, with
 * blank lines and comments allowed inside and up to two foreign lines (a
 * wrapped or garbled row) when a row of the same reader follows them.  The
 * reader that claims most rows from a starting line wins it; equals are
 * decided by tie_break(), never dropped.
 */
#include <stdlib.h>
#include <string.h>

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

/*
 * How well @f recognises lines [first, end) on their own: its probe over the
 * lines joined as a file (at most LAT_PEEK_BYTES, zero-padded as probes expect).
 * -1 when memory ran out.
 */
static int block_probe(const struct lat_text *t, const struct lat_format *f, size_t first,
		       size_t end)
{
	char *buf;
	size_t n = 0;
	int score;

	if (!f->probe)
		return 0;
	buf = calloc(1, LAT_PEEK_BYTES + LAT_PEEK_PAD);
	if (!buf)
		return -1;
	for (size_t j = first; j < end && n < LAT_PEEK_BYTES; j++) {
		const struct lat_line *l = &t->lines[j];
		size_t k = l->binary ? 0 : l->len;

		if (k > LAT_PEEK_BYTES - n - 1)
			k = LAT_PEEK_BYTES - n - 1;
		memcpy(buf + n, l->s, k);
		n += k;
		buf[n++] = '\n';
	}
	score = f->probe(buf, n);
	free(buf);
	return score < 0 ? 0 : score;
}

struct cand {
	const struct lat_format *f;
	size_t rows, end;
	int head, score;
};

/*
 * Two or more readers claim the most rows from the same line, all with or all
 * without a header: the tie-break (docs/formats.md).  The reader whose probe
 * scores the block's own text highest wins; if that ties too, the reader
 * registered first (`latscope formats` order).  Returns the winner's index in
 * @c, or -1 on allocation failure.
 */
static int tie_break(const struct lat_text *t, struct cand *c, size_t nc, size_t i,
		     struct lat_diag *d)
{
	size_t w = 0;
	int undecided = 0;

	for (size_t k = 0; k < nc; k++) {
		c[k].score = block_probe(t, c[k].f, i, c[k].end);
		if (c[k].score < 0)
			return -1;
	}
	for (size_t k = 1; k < nc; k++) {
		if (c[k].score > c[w].score) {
			w = k;
			undecided = 0;
		} else if (c[k].score == c[w].score) {
			undecided = 1;	/* the earlier reader keeps it */
		}
	}
	if (undecided) {
		const struct lat_format *other = NULL;

		for (size_t k = 0; k < nc && !other; k++)
			if (k != w && c[k].score == c[w].score)
				other = c[k].f;

		lat_diag_at(d, t->lines[i].lineno,
			    "lines %u-%u: %s and %s read them equally (%zu rows, probe %d); "
			    "read as %s, the reader listed first; --format picks another",
			    t->lines[i].lineno, t->lines[c[w].end - 1].lineno, c[w].f->name,
			    other->name, c[w].rows, c[w].score, c[w].f->name);
	}
	return (int)w;
}

int lat_segment_text(const struct lat_text *t, const struct lat_format *const *fmts, size_t n,
		     struct lat_segment **out, struct lat_diag *d)
{
	struct lat_segment *seg = NULL;
	struct cand *cand;
	size_t nseg = 0, cap = 0, i = 0;

	cand = calloc(n ? n : 1, sizeof(*cand));
	if (!cand)
		return -LAT_ENOMEM;
	while (i < t->nlines) {
		size_t best_rows = 0, norow_end = i + 1, nc = 0, f;
		int best_head = 0, w;

		for (f = 0; f < n; f++) {
			enum lat_line_kind k;
			size_t rows, end;
			int head;

			if (!fmts[f]->line_kind)
				continue;
			k = kind_of(fmts[f], &t->lines[i]);
			if (k != LAT_LINE_ROW && k != LAT_LINE_HEAD)
				continue;
			end = extent(t, fmts[f], i, &rows);
			head = k == LAT_LINE_HEAD;
			if (!rows) {
				size_t hend = head && fmts[f]->header_block ?
					      fmts[f]->header_block(t, i) : 0;

				if (hend <= i) {
					/* headers without rows: a later start inside finds none */
					if (end > norow_end)
						norow_end = end;
					continue;
				}
				end = hend;	/* a header-only block (0 rows) */
			}
			/* most rows first; between equals, the one that starts with its header */
			if (rows > best_rows || (rows == best_rows && head && !best_head)) {
				nc = 0;
				best_rows = rows;
				best_head = head;
			} else if (rows < best_rows || head != best_head) {
				continue;
			}
			cand[nc++] = (struct cand){ .f = fmts[f], .rows = rows, .end = end,
						    .head = head };
		}
		if (!nc) {
			i = norow_end;
			continue;
		}
		w = nc > 1 ? tie_break(t, cand, nc, i, d) : 0;
		if (w < 0 || lat_grow(&seg, &cap, nseg + 1, sizeof(*seg))) {
			free(seg);
			free(cand);
			return -LAT_ENOMEM;
		}
		if (cand[w].f->split) {
			size_t e = cand[w].f->split(t, i, cand[w].end);

			if (e > i && e < cand[w].end) {
				/* the lines before the cut that are no row (a label) stay outside */
				while (e > i + 1 && kind_of(cand[w].f, &t->lines[e - 1]) !=
						    LAT_LINE_ROW)
					e--;
				cand[w].end = e;
			}
		}
		seg[nseg].fmt = cand[w].f;
		seg[nseg].first = i;
		seg[nseg].end = cand[w].end;
		nseg++;
		i = cand[w].end;
	}
	free(cand);
	*out = seg;
	return (int)(nseg > INT32_MAX ? INT32_MAX : nseg);
}
