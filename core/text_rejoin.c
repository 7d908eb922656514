// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Whole lines a mailer or a web viewer broke or prefixed, put back
 * (docs/formats.md, "Mail and paste damage"):
 *
 *  - format=flowed (RFC 3676): a line of a body declared flowed that ends in
 *    a blank goes on on the next line of the same quote depth;
 *  - table rows wrapped at a fixed column: a line that starts a row of a
 *    known table (cyclictest "T:", perf sched latency and timehist, rtla top)
 *    but stops before the row is complete is joined with the next 1-4 lines
 *    of its quote depth, when together they make exactly one complete row and
 *    none of them starts a row of its own.  Two real rows are never joined:
 *    a complete row is never extended, and a piece that starts a row is never
 *    taken as a continuation;
 *  - line numbers a web viewer pasted in front of each line ("318  <idle>-0
 *    ..."): removed from a run of lines numbered one by one.
 *
 * The row shapes are the readers' (struct lat_format's row_shapes,
 * formats/row_shape.c): the text layer knows no tool's table, it only joins
 * what a shape calls a row cut short with what completes it.
 */
#include <string.h>

#include "text_priv.h"

struct tr_shapes {
	const lat_row_shape *v;
	size_t n;
};

/* The shape @l starts (its index), -1 for none; a banner or header may set @ctx. */
static int shape_of(const struct tr_shapes *sh, const struct lat_line *l, enum lat_row_state *st,
		    struct lat_row_ctx *ctx)
{
	if (l->binary)
		return -1;
	for (size_t i = 0; i < sh->n; i++) {
		*st = sh->v[i](l->s, l->len, ctx);
		if (*st != LAT_ROW_NO)
			return (int)i;
	}
	return -1;
}

/* ---- joining ----------------------------------------------------------- */

#define TR_PIECES 4		/* continuation lines of one wrapped row, at most */
#define TR_ROW_MAX 1024		/* the longest row tried */

/*
 * Row @i is cut short (shape @k), under the layout @ctx says: the number of
 * lines after it that complete it, 0 when they do not.  Pieces tell nothing.
 */
static size_t completes(const struct tr_shapes *sh, const struct lat_text *t, size_t i, int k,
			const struct lat_row_ctx *ctx)
{
	const struct lat_line *d = &t->lines[i];
	char buf[TR_ROW_MAX];
	size_t len = d->len;

	if (len > sizeof(buf))
		return 0;
	memcpy(buf, d->s, len);
	for (size_t j = i + 1; j < t->nlines && j - i <= TR_PIECES; j++) {
		const struct lat_line *c = &t->lines[j];
		struct lat_row_ctx scratch = *ctx;
		enum lat_row_state st;

		if (c->binary || c->quote != d->quote || lat_line_blank(c) ||
		    shape_of(sh, c, &st, &scratch) >= 0 || len + 1 + c->len > sizeof(buf))
			return 0;
		buf[len++] = ' ';
		memcpy(buf + len, c->s, c->len);
		len += c->len;
		scratch = *ctx;
		st = sh->v[k](buf, len, &scratch);
		if (st == LAT_ROW_FULL)
			return j - i;
		if (st == LAT_ROW_NO)
			return 0;
	}
	return 0;
}

void lat_text_rejoin_rows(struct lat_text *t, const lat_row_shape *shapes, size_t nshapes)
{
	const struct tr_shapes sh = { shapes, nshapes };
	struct lat_text_repairs *fx = &t->fix;
	struct lat_row_ctx ctx = { 0 };
	size_t wi = 0, r = 0, n = t->nlines;

	while (r < n) {
		struct lat_line cur = t->lines[r++];
		enum lat_row_state st;
		int k = shape_of(&sh, &cur, &st, &ctx);
		size_t m = k >= 0 && st == LAT_ROW_CUT ? completes(&sh, t, r - 1, k, &ctx) : 0;

		if (m) {
			size_t done = 0;

			while (done < m && tx_join(&cur, &t->lines[r + done], 1))
				done++;
			if (done && !fx->rows++)
				fx->first_row_line = cur.lineno;
			fx->row_pieces += (uint32_t)done;
			r += done;
			/* a header joined back tells the rows below their layout */
			shape_of(&sh, &cur, &st, &ctx);
		}
		t->lines[wi++] = cur;
	}
	t->nlines = wi;
}

void tx_rejoin_flowed(struct lat_text *t)
{
	struct lat_text_repairs *fx = &t->fix;
	size_t wi = 0, r = 0, n = t->nlines;

	while (r < n) {
		struct lat_line cur = t->lines[r++];

		/* RFC 3676 4.2: a soft break joins lines of one quote depth; a blank line ends */
		while (cur.soft && r < n && t->lines[r].quote == cur.quote &&
		       !lat_line_blank(&t->lines[r])) {
			uint8_t next_soft = t->lines[r].soft;

			if (!tx_join(&cur, &t->lines[r], cur.soft == 1))
				break;
			if (!fx->flowed++)
				fx->first_flowed_line = t->lines[r].lineno;
			cur.soft = next_soft;
			r++;
		}
		cur.soft = 0;
		t->lines[wi++] = cur;
	}
	t->nlines = wi;
}

/* ---- line numbers pasted in front of each line ------------------------- */

#define TR_NUMBERED_MIN 5	/* the shortest run of numbered lines taken for one */

/*
 * "318  text", "318\ttext" or a bare "318": the number (no leading zero) in
 * *@v and the length of the prefix (number and blanks); 0 when @l has none.
 * *@text says whether what follows holds a letter.
 */
static size_t line_number(const struct lat_line *l, uint64_t *v, int *text)
{
	const char *p = l->s, *e = l->s + l->len, *d;

	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	d = p;
	while (p < e && *p >= '0' && *p <= '9')
		p++;
	if (l->binary || p == d || *d == '0' || p - d > 9 || (p < e && *p != ' ' && *p != '\t'))
		return 0;
	*v = 0;
	for (const char *q = d; q < p; q++)
		*v = *v * 10 + (uint64_t)(*q - '0');
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	*text = 0;
	for (const char *q = p; q < e; q++)
		if ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z'))
			*text = 1;
	return (size_t)(p - l->s);
}

/* The length of the run of numbered lines from @i (0 when it is no such run). */
static size_t numbered_run(const struct lat_text *t, size_t i)
{
	uint64_t v, prev = 0;
	size_t j, texts = 0;
	int text;

	for (j = i; j < t->nlines && line_number(&t->lines[j], &v, &text); j++) {
		if (j > i && v != prev + 1)
			break;
		prev = v;
		texts += (size_t)text;
	}
	/*
	 * A table counted up by one (rtla hist's Index, rtla top's CPU column) is
	 * no numbered paste: most of the lines must hold a word.
	 */
	if (j - i < TR_NUMBERED_MIN || texts * 2 < j - i)
		return 0;
	return j - i;
}

void tx_strip_line_numbers(struct lat_text *t)
{
	struct lat_text_repairs *fx = &t->fix;

	for (size_t i = 0; i < t->nlines;) {
		size_t run = numbered_run(t, i);

		if (!run) {
			i++;
			continue;
		}
		for (size_t j = i; j < i + run; j++) {
			struct lat_line *l = &t->lines[j];
			uint64_t v;
			int text;
			size_t k = line_number(l, &v, &text);

			l->s += k;
			l->len -= (uint32_t)k;
			if (!fx->numbered++)
				fx->numbered_first = l->lineno;
			fx->numbered_last = l->lineno;
		}
		i += run;
	}
}
