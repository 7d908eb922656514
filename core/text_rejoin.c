// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Whole lines a mailer or a web viewer broke or prefixed, put back
 * (docs/formats.md, "Mail and paste damage"):
 *
 *  - format=flowed (RFC 3676): a line of a body declared flowed that ends in
 *    a blank goes on on the next line of the same quote depth;
 *  - table rows wrapped at a fixed column: a line that starts a row of a
 *    known table (cyclictest "T:", perf sched latency and timehist, rtla top)
 *    but stops before the row is complete is joined with the next 1-3 lines
 *    of its quote depth, when together they make exactly one complete row and
 *    none of them starts a row of its own.  Two real rows are never joined:
 *    a complete row is never extended, and a piece that starts a row is never
 *    taken as a continuation;
 *  - line numbers a web viewer pasted in front of each line ("318  <idle>-0
 *    ..."): removed from a run of lines numbered one by one.
 *
 * The row shapes are the tools' printf formats; only as much of them as tells
 * "a row, cut short" from "a row" and from "not a row" is checked here, the
 * readers read the rows.
 */
#include <string.h>

#include "text_priv.h"

/* ---- a cursor over one line ------------------------------------------- */

struct tr {
	const char *p, *e;
};

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static void ws(struct tr *c)
{
	while (c->p < c->e && is_blank(*c->p))
		c->p++;
}

static int at_end(struct tr *c)
{
	ws(c);
	return c->p >= c->e;
}

/* The end of a token: the line's end or a blank. */
static int boundary(const struct tr *c)
{
	return c->p >= c->e || is_blank(*c->p);
}

static int lit(struct tr *c, const char *s)
{
	size_t n = strlen(s);

	if ((size_t)(c->e - c->p) < n || memcmp(c->p, s, n))
		return 0;
	c->p += n;
	return 1;
}

/* Digits: their count. */
static size_t digits(struct tr *c)
{
	const char *s = c->p;

	while (c->p < c->e && is_digit(*c->p))
		c->p++;
	return (size_t)(c->p - s);
}

/* "12" or "12.345": 1, with the count of decimals in *@dec (-1 without a point). */
static int number(struct tr *c, int *dec)
{
	if (!digits(c))
		return 0;
	*dec = -1;
	if (c->p < c->e && *c->p == '.') {
		c->p++;
		*dec = (int)digits(c);
	}
	return 1;
}

/* ---- row shapes ------------------------------------------------------- */

enum tr_state { TR_NO, TR_CUT, TR_FULL };

/*
 * cyclictest's summary (rt-tests: "T:%2d (%5d) P:%2d I:%ld C:%7lu Min:%7ld
 * Act:%5ld Avg:%5ld Max:%8ld", the first versions without Avg, later ones
 * with SMI:): "KEY: value" pairs after the thread and its tid; complete once
 * Max has its value.
 */
static enum tr_state ct_summary(const char *s, size_t n)
{
	struct tr c = { s, s + n };
	int max = 0;

	ws(&c);
	if (!lit(&c, "T:") || (ws(&c), !digits(&c)) || (ws(&c), !lit(&c, "(")) ||
	    (ws(&c), !digits(&c)) || (ws(&c), !lit(&c, ")")))
		return TR_NO;
	for (;;) {
		const char *k;
		int is_max;

		if (at_end(&c))
			return max ? TR_FULL : TR_CUT;
		k = c.p;
		while (c.p < c.e && ((*c.p >= 'A' && *c.p <= 'Z') || (*c.p >= 'a' && *c.p <= 'z')))
			c.p++;
		if (c.p == k || c.p >= c.e || *c.p != ':')
			return TR_NO;
		is_max = c.p - k == 3 && !memcmp(k, "Max", 3);
		c.p++;
		if (at_end(&c))
			return max ? TR_FULL : TR_CUT;	/* "Max:" and its value on the next line */
		if (*c.p == '-')
			c.p++;
		if (!digits(&c) || !boundary(&c))
			return TR_NO;
		max |= is_max;
	}
}

/*
 * One '|' cell of a table against @pat, words separated by blanks where "N"
 * is a number and anything else a literal: 2 when the cell is all of it, 1
 * when the cell (the line's last) stops at a word boundary inside it, 0 else.
 */
static int cell(const char *s, const char *e, const char *pat, int last)
{
	struct tr c = { s, e };

	while (*pat) {
		const char *w = pat;
		int dec;

		while (*pat && *pat != ' ')
			pat++;
		if (at_end(&c))
			return last ? 1 : 0;
		if (pat - w == 1 && *w == 'N') {
			if (!number(&c, &dec) || !boundary(&c))
				return 0;
		} else if ((size_t)(c.e - c.p) < (size_t)(pat - w) ||
			   memcmp(c.p, w, (size_t)(pat - w))) {
			return 0;
		} else {
			c.p += pat - w;
		}
		while (*pat == ' ')
			pat++;
	}
	return at_end(&c) ? 2 : 0;
}

/*
 * perf sched latency: " %s:%d | %9.3f ms | %9lu | avg:%9.3f ms | max:%9.3f ms |
 * max at: %13.6f s" (older perf), "... | max start: %12s s | max end: %12s s"
 * (newer); the "TOTAL:" row ends after the switches.  A row starts once its
 * name, Runtime and a bar are there.
 */
static enum tr_state ps_latency(const char *s, size_t n)
{
	static const char *const cells[] = { "N ms", "N", "avg: N ms", "max: N ms", "max at: N s",
					     "max end: N s" };
	const char *e = s + n, *bar = memchr(s, '|', n), *name = s, *p;
	int total;

	if (!bar)
		return TR_NO;
	while (name < bar && is_blank(*name))
		name++;
	if (name == bar)
		return TR_NO;
	total = bar - name >= 6 && !memcmp(name, "TOTAL:", 6);
	p = bar + 1;
	for (size_t k = 0; k < LAT_ARRAY_SIZE(cells); k++) {
		const char *next = memchr(p, '|', (size_t)(e - p));
		const char *end = next ? next : e;
		int r = cell(p, end, cells[k], !next), done;

		if (k && at_end(&((struct tr){ p, e })))
			return TR_CUT;		/* "... avg: 6.546 ms |", the rest below */
		if (k == 4 && r != 2) {
			/* newer perf: "max start: T s | max end: T s" */
			int r2 = cell(p, end, "max start: N s", !next);

			if (r2 == 2) {
				if (!next)
					return TR_CUT;
				p = next + 1;
				continue;
			}
			r = r2 ? r2 : r;
		}
		if (!r || (k == 0 && (r != 2 || !next)))
			return TR_NO;		/* no Runtime and its bar: not a row */
		if (r == 1)
			return TR_CUT;
		done = (k == 1 && total) || k >= 4;
		if (done)
			return !next || at_end(&((struct tr){ next + 1, e })) ? TR_FULL : TR_NO;
		if (!next)
			return TR_CUT;
		p = next + 1;
	}
	return TR_NO;
}

/*
 * perf sched timehist: "%15s [%04d] " then the task and "wait time", "sch
 * delay", "run time" ("%9.3f", ms), or an event of -w ("awakened: task") or
 * -M ("migrated: task cpu A => B").  Complete with its three times or its event.
 */
static enum tr_state ps_timehist(const char *s, size_t n)
{
	struct tr c = { s, s + n };
	int dec, times = 0;

	ws(&c);
	if (!number(&c, &dec) || dec < 1 || (ws(&c), !lit(&c, "[")) || !digits(&c) ||
	    !lit(&c, "]") || !boundary(&c))
		return TR_NO;
	if (memmem(c.p, (size_t)(c.e - c.p), "awakened: ", 10))
		return TR_FULL;
	if (memmem(c.p, (size_t)(c.e - c.p), "migrated: ", 10))
		return memmem(c.p, (size_t)(c.e - c.p), " => ", 4) ? TR_FULL : TR_CUT;
	/* the task's name may hold blanks and digits; its times have 3 decimals */
	while (!at_end(&c)) {
		const char *w = c.p;

		if (number(&c, &dec) && dec == 3 && boundary(&c)) {
			if (++times == 3)
				return TR_FULL;
			continue;
		}
		c.p = w;
		while (c.p < c.e && !is_blank(*c.p))
			c.p++;
		if (times)
			return TR_NO;	/* a word between the times: not a row of this shape */
	}
	return TR_CUT;
}

/*
 * rtla timerlat top: "%3d #%-9d |" then per context "%9s %9s %9s %9s |" (cur,
 * min, avg, max; "-" for none), the ALL row three per context (min, avg, max);
 * osnoise top: "%3d #%-6d" then ten columns without bars.
 */
static enum tr_state rtla_top(const char *s, size_t n)
{
	struct tr c = { s, s + n };
	int all, words = 0, groups = 0, want;

	ws(&c);
	all = lit(&c, "ALL");
	if ((!all && !digits(&c)) || (ws(&c), !lit(&c, "#")) || !digits(&c) || !boundary(&c))
		return TR_NO;
	ws(&c);
	if (c.p < c.e && *c.p == 'e' && (c.p++, digits(&c)))
		ws(&c);			/* the ALL row's count exponent, "#1191444 e4" */
	want = all ? 3 : 4;
	if (c.p < c.e && *c.p != '|') {
		/* osnoise top: Runtime, Noise, % CPU Aval, Max Noise, Max Single, HW ... Thread */
		while (!at_end(&c)) {
			int dec;

			if (!number(&c, &dec) || !boundary(&c))
				return TR_NO;
			words++;
		}
		return words >= 10 ? (words == 10 ? TR_FULL : TR_NO) : TR_CUT;
	}
	while (!at_end(&c)) {
		int dec;

		if (*c.p == '|') {
			if (groups && words != want)
				return TR_NO;
			c.p++;
			groups++;
			words = 0;
			continue;
		}
		if (!lit(&c, "-") && !number(&c, &dec))
			return TR_NO;
		if (!boundary(&c) || ++words > want)
			return TR_NO;
	}
	return groups >= 2 && words == want ? TR_FULL : TR_CUT;
}

/*
 * rtla timerlat top's two header lines: "%3d %02d:%02d:%02d |" then per context
 * "%s Timer Latency (us) |" (the group titles), and "CPU COUNT |" then "cur min
 * avg max" per context.  Complete when the last group is.
 */
static enum tr_state rtla_top_head(const char *s, size_t n)
{
	static const char *const cols[] = { "cur", "min", "avg", "max" };
	struct tr c = { s, s + n };
	int title = 0, words = 0, groups = 0;
	const char *last = NULL;

	ws(&c);
	if (lit(&c, "CPU") && (ws(&c), lit(&c, "COUNT"))) {
		ws(&c);
	} else {
		c.p = s;
		ws(&c);
		if (!digits(&c) || (ws(&c), !digits(&c)) || !lit(&c, ":") || !digits(&c) ||
		    !lit(&c, ":") || !digits(&c))
			return TR_NO;
		title = 1;
		ws(&c);
	}
	if (c.p >= c.e || *c.p != '|')
		return TR_NO;
	while (!at_end(&c)) {
		const char *w = c.p;

		if (*c.p == '|') {
			if (groups && (title ? !last : words != 4))
				return TR_NO;
			c.p++;
			groups++;
			words = 0;
			last = NULL;
			continue;
		}
		while (c.p < c.e && !is_blank(*c.p) && *c.p != '|')
			c.p++;
		if (title) {
			/* a group title ends in "Timer Latency (us)" (or "(ns)") */
			last = (c.p - w == 4 && (!memcmp(w, "(us)", 4) || !memcmp(w, "(ns)", 4))) ?
			       w : NULL;
			continue;
		}
		if (words == 4 || c.p - w != 3 || memcmp(w, cols[words], 3))
			return TR_NO;
		words++;
	}
	if (title)
		return last ? TR_FULL : TR_CUT;
	return groups >= 2 && words == 4 ? TR_FULL : TR_CUT;
}

typedef enum tr_state (*tr_shape)(const char *s, size_t n);

static const tr_shape shapes[] = { ct_summary, ps_latency, ps_timehist, rtla_top, rtla_top_head };

/* The shape @l starts (its index), -1 for none. */
static int shape_of(const struct lat_line *l, enum tr_state *st)
{
	if (l->binary)
		return -1;
	for (size_t i = 0; i < LAT_ARRAY_SIZE(shapes); i++) {
		*st = shapes[i](l->s, l->len);
		if (*st != TR_NO)
			return (int)i;
	}
	return -1;
}

/* ---- joining ----------------------------------------------------------- */

#define TR_PIECES 3		/* continuation lines of one wrapped row, at most */
#define TR_ROW_MAX 1024		/* the longest row tried */

/*
 * Row @i is cut short (shape @k): the number of lines after it that complete
 * it, 0 when they do not.
 */
static size_t completes(const struct lat_text *t, size_t i, int k)
{
	const struct lat_line *d = &t->lines[i];
	char buf[TR_ROW_MAX];
	size_t len = d->len;

	if (len > sizeof(buf))
		return 0;
	memcpy(buf, d->s, len);
	for (size_t j = i + 1; j < t->nlines && j - i <= TR_PIECES; j++) {
		const struct lat_line *c = &t->lines[j];
		enum tr_state st;

		if (c->binary || c->quote != d->quote || lat_line_blank(c) ||
		    shape_of(c, &st) >= 0 || len + 1 + c->len > sizeof(buf))
			return 0;
		buf[len++] = ' ';
		memcpy(buf + len, c->s, c->len);
		len += c->len;
		st = shapes[k](buf, len);
		if (st == TR_FULL)
			return j - i;
		if (st == TR_NO)
			return 0;
	}
	return 0;
}

void tx_rejoin_rows(struct lat_text *t)
{
	struct lat_text_repairs *fx = &t->fix;
	size_t wi = 0, r = 0, n = t->nlines;

	while (r < n) {
		struct lat_line cur = t->lines[r++];
		enum tr_state st;
		int k = shape_of(&cur, &st);
		size_t m = k >= 0 && st == TR_CUT ? completes(t, r - 1, k) : 0;

		if (m) {
			size_t done = 0;

			while (done < m && tx_join(&cur, &t->lines[r + done], 1))
				done++;
			if (done && !fx->rows++)
				fx->first_row_line = cur.lineno;
			fx->row_pieces += (uint32_t)done;
			r += done;
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
	struct tr c = { l->s, l->s + l->len };
	const char *d;

	ws(&c);
	d = c.p;
	if (l->binary || !digits(&c) || *d == '0' || c.p - d > 9 || !boundary(&c))
		return 0;
	*v = 0;
	for (const char *p = d; p < c.p; p++)
		*v = *v * 10 + (uint64_t)(*p - '0');
	ws(&c);
	*text = 0;
	for (const char *p = c.p; p < c.e; p++)
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'))
			*text = 1;
	return (size_t)(c.p - l->s);
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
