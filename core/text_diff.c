// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Tables quoted as diff lines (docs/formats.md, "Mail and paste damage"):
 * a patch to a document carries the document's example output as added
 * lines ("+  CPU Period ...", "+    1 #599 ..."), and a review quotes them
 * ("> +    1 #599 ...").  The prefix is taken off a line of a diff when the
 * readers know what is left (a row or header of their tables, or a line
 * their tables hold: a rule, a banner, a blank), so the table reads as the
 * patched document shows it; prose keeps its prefix and stays prose.
 *
 * Where a diff is:
 *  - a hunk: from a hunk header "@@ -a[,b] +c[,d] @@" on, the lines of its
 *    quote depth that start with "+", "-", " " (context) or "\", or are
 *    empty (a context line whose blank the mailer trimmed), as many as the
 *    header counts (so the "-- " under a patch is no removed line);
 *  - without a hunk header (a reviewer quoted only the table): a run of
 *    lines of one quote depth that start with "+" or "-", of which an added
 *    line is a row or header of a known table.  Outside a hunk a line that
 *    starts with a blank is an indented line, not context.
 *
 * The removed lines ("-") of a diff that holds a table are the old version
 * of the document: they are dropped from the line index (counted, never
 * read), so the old and the new rows of a changed table are not read as one
 * table, and the new rows stand together under their header as the patched
 * document has them.  A diff without a table (source code, prose) is left
 * as it is.
 */
#include <string.h>

#include "text_priv.h"

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* "12" or "12,7": a hunk's line range, its count in *@n (1 when not given); NULL if none. */
static const char *hunk_range(const char *p, const char *e, uint64_t *n)
{
	if (p >= e || !is_digit(*p))
		return NULL;
	while (p < e && is_digit(*p))
		p++;
	*n = 1;
	if (p < e && *p == ',') {
		if (++p >= e || !is_digit(*p))
			return NULL;
		for (*n = 0; p < e && is_digit(*p) && *n < UINT32_MAX; p++)
			*n = *n * 10 + (uint64_t)(*p - '0');
		if (p < e && is_digit(*p))
			return NULL;
	}
	return p;
}

/*
 * "@@ -12,7 +12,9 @@" (what follows, a function's name, is free): the lines
 * the hunk holds of the old file (context and removed) and of the new one
 * (context and added).
 */
struct hunk {
	uint64_t old_left, new_left;
};

static int hunk_header(const struct lat_line *l, struct hunk *h)
{
	const char *p = l->s, *e = l->s + l->len;

	if (l->binary || l->len < 13 || memcmp(p, "@@ -", 4))
		return 0;
	p = hunk_range(p + 4, e, &h->old_left);
	if (!p || e - p < 2 || memcmp(p, " +", 2))
		return 0;
	p = hunk_range(p + 2, e, &h->new_left);
	return p && e - p >= 3 && !memcmp(p, " @@", 3);
}

/*
 * A line of the hunk @h, counted off it: "+", "-", " ", or empty (a context
 * line whose blank the mailer trimmed), while the header's counts last; "\ No
 * newline at end of file" counts for neither.  A reviewer who cut the hunk
 * short ends it earlier, with a line of another kind.
 */
static int hunk_line(const struct lat_line *l, struct hunk *h)
{
	char c = l->len ? l->s[0] : ' ';

	if (l->binary)
		return 0;
	if (c == '\\')
		return 1;
	if (c == '+' && h->new_left) {
		h->new_left--;
		return 1;
	}
	if (c == '-' && h->old_left) {
		h->old_left--;
		return 1;
	}
	if (c == ' ' && h->old_left && h->new_left) {
		h->old_left--;
		h->new_left--;
		return 1;
	}
	return 0;
}

static int changed_line(const struct lat_line *l)
{
	return !l->binary && l->len && (l->s[0] == '+' || l->s[0] == '-');
}

/* What the readers make of @l without its first character. */
static enum lat_line_claim claim_rest(const struct lat_line *l, lat_claim_fn claim)
{
	return claim(l->s + 1, l->len - 1);
}

/* A row or header of a known table on an added line (or, in a hunk, a context line). */
static int table_line(const struct lat_line *l, int context, lat_claim_fn claim)
{
	return l->len && (l->s[0] == '+' || (context && l->s[0] == ' ')) &&
	       claim_rest(l, claim) == LAT_CLAIM_ROW;
}

/*
 * The end of the diff whose lines start at @i (the hunk @h's, after its
 * header, when @hunk), all of quote depth @q, and in *@table whether it holds
 * a row or header of a known table.
 */
static size_t diff_end(const struct lat_text *t, size_t i, uint8_t q, int hunk, struct hunk h,
		       lat_claim_fn claim, int *table)
{
	*table = 0;
	for (; i < t->nlines && t->lines[i].quote == q; i++) {
		const struct lat_line *l = &t->lines[i];

		if (!(hunk ? hunk_line(l, &h) : changed_line(l)))
			break;
		if (!*table && table_line(l, hunk, claim))
			*table = 1;
	}
	return i;
}

static void note(struct lat_text_repairs *fx, const struct lat_line *l)
{
	if (!fx->diff_first)
		fx->diff_first = l->lineno;
	fx->diff_last = l->lineno + l->joined;
}

/*
 * Lines [@from, @end) of a diff that holds a table, written back from *@wi
 * on: the prefix taken off the added (and, in a hunk, context) lines the
 * readers know, the removed lines dropped.
 */
static void undiff_run(struct lat_text *t, size_t from, size_t end, int context,
		       lat_claim_fn claim, size_t *wi)
{
	struct lat_text_repairs *fx = &t->fix;

	for (size_t r = from; r < end; r++) {
		struct lat_line cur = t->lines[r];
		char c = cur.len ? cur.s[0] : '\0';

		if (c == '-') {
			note(fx, &cur);
			fx->diff_removed++;
			continue;
		}
		if ((c == '+' || (c == ' ' && context)) &&
		    claim_rest(&cur, claim) != LAT_CLAIM_NO) {
			note(fx, &cur);
			cur.s++;
			cur.len--;
			fx->diff_stripped++;
		}
		t->lines[(*wi)++] = cur;
	}
}

void lat_text_undiff(struct lat_text *t, lat_claim_fn claim)
{
	size_t wi = 0, r = 0, n = t->nlines;

	while (r < n) {
		const struct lat_line *l = &t->lines[r];
		struct hunk h = { 0, 0 };
		int hunk = hunk_header(l, &h), table;
		size_t from = r + (size_t)hunk, end;

		if (!hunk && !changed_line(l)) {
			t->lines[wi++] = t->lines[r++];
			continue;
		}
		end = diff_end(t, from, l->quote, hunk, h, claim, &table);
		if (!table) {
			while (r < end)
				t->lines[wi++] = t->lines[r++];
			continue;
		}
		if (hunk)
			t->lines[wi++] = *l;
		undiff_run(t, from, end, hunk, claim, &wi);
		r = end;
	}
	t->nlines = wi;
}
