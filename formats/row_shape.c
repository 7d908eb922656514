// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The table rows of the tools whose rows a mailer wraps (row_shape.h): as much
 * of each tool's printf format as tells "a row, cut short" from "a row" and
 * from "not a row".  The readers read the rows; the text layer joins the
 * pieces (lat_text_rejoin_rows(), docs/formats.md "Mail and paste damage").
 */
#include <string.h>

#include "row_shape.h"

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

/*
 * cyclictest's summary (rt-tests: "T:%2d (%5d) P:%2d I:%ld C:%7lu Min:%7ld
 * Act:%5ld Avg:%5ld Max:%8ld", the first versions without Avg, later ones
 * with SMI:): "KEY: value" pairs after the thread and its tid; complete once
 * Max has its value.
 */
enum lat_row_state fmt_row_ct_summary(const char *s, size_t n, struct lat_row_ctx *ctx)
{
	struct tr c = { s, s + n };
	int max = 0;

	(void)ctx;
	ws(&c);
	if (!lit(&c, "T:") || (ws(&c), !digits(&c)) || (ws(&c), !lit(&c, "(")) ||
	    (ws(&c), !digits(&c)) || (ws(&c), !lit(&c, ")")))
		return LAT_ROW_NO;
	for (;;) {
		const char *k;
		int is_max;

		if (at_end(&c))
			return max ? LAT_ROW_FULL : LAT_ROW_CUT;
		k = c.p;
		while (c.p < c.e && ((*c.p >= 'A' && *c.p <= 'Z') || (*c.p >= 'a' && *c.p <= 'z')))
			c.p++;
		if (c.p == k || c.p >= c.e || *c.p != ':')
			return LAT_ROW_NO;
		is_max = c.p - k == 3 && !memcmp(k, "Max", 3);
		c.p++;
		if (at_end(&c))
			return max ? LAT_ROW_FULL : LAT_ROW_CUT;	/* "Max:" and its value on the next line */
		if (*c.p == '-')
			c.p++;
		if (!digits(&c) || !boundary(&c))
			return LAT_ROW_NO;
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
enum lat_row_state fmt_row_ps_latency(const char *s, size_t n, struct lat_row_ctx *ctx)
{
	static const char *const cells[] = { "N ms", "N", "avg: N ms", "max: N ms", "max at: N s",
					     "max end: N s" };
	const char *e = s + n, *bar = memchr(s, '|', n), *name = s, *p;
	int total;

	(void)ctx;
	if (!bar)
		return LAT_ROW_NO;
	while (name < bar && is_blank(*name))
		name++;
	if (name == bar)
		return LAT_ROW_NO;
	total = bar - name >= 6 && !memcmp(name, "TOTAL:", 6);
	p = bar + 1;
	for (size_t k = 0; k < LAT_ARRAY_SIZE(cells); k++) {
		const char *next = memchr(p, '|', (size_t)(e - p));
		const char *end = next ? next : e;
		int r = cell(p, end, cells[k], !next), done;

		if (k && at_end(&((struct tr){ p, e })))
			return LAT_ROW_CUT;		/* "... avg: 6.546 ms |", the rest below */
		if (k == 4 && r != 2) {
			/* newer perf: "max start: T s | max end: T s" */
			int r2 = cell(p, end, "max start: N s", !next);

			if (r2 == 2) {
				if (!next)
					return LAT_ROW_CUT;
				p = next + 1;
				continue;
			}
			r = r2 ? r2 : r;
		}
		if (!r || (k == 0 && (r != 2 || !next)))
			return LAT_ROW_NO;		/* no Runtime and its bar: not a row */
		if (r == 1)
			return LAT_ROW_CUT;
		done = (k == 1 && total) || k >= 4;
		if (done)
			return !next || at_end(&((struct tr){ next + 1, e })) ? LAT_ROW_FULL : LAT_ROW_NO;
		if (!next)
			return LAT_ROW_CUT;
		p = next + 1;
	}
	return LAT_ROW_NO;
}

/*
 * perf sched timehist: "%15s [%04d] " then the task and "wait time", "sch
 * delay", "run time" ("%9.3f", ms), or an event of -w ("awakened: task") or
 * -M ("migrated: task cpu A => B").  Complete with its three times or its event.
 */
enum lat_row_state fmt_row_ps_timehist(const char *s, size_t n, struct lat_row_ctx *ctx)
{
	struct tr c = { s, s + n };
	int dec, times = 0;

	(void)ctx;
	ws(&c);
	if (!number(&c, &dec) || dec < 1 || (ws(&c), !lit(&c, "[")) || !digits(&c) ||
	    !lit(&c, "]") || !boundary(&c))
		return LAT_ROW_NO;
	if (memmem(c.p, (size_t)(c.e - c.p), "awakened: ", 10))
		return LAT_ROW_FULL;
	if (memmem(c.p, (size_t)(c.e - c.p), "migrated: ", 10))
		return memmem(c.p, (size_t)(c.e - c.p), " => ", 4) ? LAT_ROW_FULL : LAT_ROW_CUT;
	/* the task's name may hold blanks and digits; its times have 3 decimals */
	while (!at_end(&c)) {
		const char *w = c.p;

		if (number(&c, &dec) && dec == 3 && boundary(&c)) {
			if (++times == 3)
				return LAT_ROW_FULL;
			continue;
		}
		c.p = w;
		while (c.p < c.e && !is_blank(*c.p))
			c.p++;
		if (times)
			return LAT_ROW_NO;	/* a word between the times: not a row of this shape */
	}
	return LAT_ROW_CUT;
}

/* The layouts of osnoise top's table (struct lat_row_ctx's layout). */
enum { RSH_LAYOUT_NONE, RSH_LAYOUT_OSNOISE, RSH_LAYOUT_HWNOISE };

#define RSH_OSNOISE_COLS 10	/* Runtime ... Thread */
#define RSH_HWNOISE_COLS 7	/* Runtime ... NMI: rtla hwnoise runs with interrupts off */
#define RSH_HWNOISE_HEAD 13	/* the header's words up to NMI, hwnoise's last */

/*
 * rtla timerlat top: "%3d #%-9d |" then per context "%9s %9s %9s %9s |" (cur,
 * min, avg, max; "-" for none), the ALL row three per context (min, avg, max);
 * osnoise top: "%3d #%-6d" then ten columns without bars, rtla hwnoise the
 * first seven: which, the banner or header above says (@ctx), else ten.
 */
enum lat_row_state fmt_row_rtla_top(const char *s, size_t n, struct lat_row_ctx *ctx)
{
	struct tr c = { s, s + n };
	int all, words = 0, groups = 0, want;
	int cols = ctx->layout == RSH_LAYOUT_HWNOISE ? RSH_HWNOISE_COLS : RSH_OSNOISE_COLS;

	ws(&c);
	all = lit(&c, "ALL");
	if ((!all && !digits(&c)) || (ws(&c), !lit(&c, "#")) || !digits(&c) || !boundary(&c))
		return LAT_ROW_NO;
	ws(&c);
	if (c.p < c.e && *c.p == 'e' && (c.p++, digits(&c)))
		ws(&c);			/* the ALL row's count exponent, "#1191444 e4" */
	want = all ? 3 : 4;
	if (c.p < c.e && *c.p != '|') {
		/* osnoise top: Runtime, Noise, % CPU Aval, Max Noise, Max Single, HW ... Thread */
		while (!at_end(&c)) {
			int dec;

			if (!number(&c, &dec) || !boundary(&c))
				return LAT_ROW_NO;
			words++;
		}
		return words >= cols ? (words == cols ? LAT_ROW_FULL : LAT_ROW_NO) : LAT_ROW_CUT;
	}
	while (!at_end(&c)) {
		int dec;

		if (*c.p == '|') {
			if (groups && words != want)
				return LAT_ROW_NO;
			c.p++;
			groups++;
			words = 0;
			continue;
		}
		if (!lit(&c, "-") && !number(&c, &dec))
			return LAT_ROW_NO;
		if (!boundary(&c) || ++words > want)
			return LAT_ROW_NO;
	}
	return groups >= 2 && words == want ? LAT_ROW_FULL : LAT_ROW_CUT;
}

/*
 * rtla timerlat top's two header lines: "%3d %02d:%02d:%02d |" then per context
 * "%s Timer Latency (us) |" (the group titles), and "CPU COUNT |" then "cur min
 * avg max" per context.  Complete when the last group is.
 */
enum lat_row_state fmt_row_rtla_top_head(const char *s, size_t n, struct lat_row_ctx *ctx)
{
	static const char *const cols[] = { "cur", "min", "avg", "max" };
	struct tr c = { s, s + n };
	int title = 0, words = 0, groups = 0;
	const char *last = NULL;

	(void)ctx;
	ws(&c);
	if (lit(&c, "CPU") && (ws(&c), lit(&c, "COUNT"))) {
		ws(&c);
	} else {
		c.p = s;
		ws(&c);
		if (!digits(&c) || (ws(&c), !digits(&c)) || !lit(&c, ":") || !digits(&c) ||
		    !lit(&c, ":") || !digits(&c))
			return LAT_ROW_NO;
		title = 1;
		ws(&c);
	}
	if (c.p >= c.e || *c.p != '|')
		return LAT_ROW_NO;
	while (!at_end(&c)) {
		const char *w = c.p;

		if (*c.p == '|') {
			if (groups && (title ? !last : words != 4))
				return LAT_ROW_NO;
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
			return LAT_ROW_NO;
		words++;
	}
	if (title)
		return last ? LAT_ROW_FULL : LAT_ROW_CUT;
	return groups >= 2 && words == 4 ? LAT_ROW_FULL : LAT_ROW_CUT;
}

/*
 * rtla osnoise top's banner ("Operating System Noise") and rtla hwnoise's
 * ("Hardware-related Noise", tools/tracing/rtla/src/osnoise_top.c), noted in
 * @ctx; then the column header both print, hwnoise's ending after NMI.  A
 * header that ends at NMI is osnoise top's cut short under osnoise's banner,
 * else hwnoise's: osnoise's is 101 columns long up to NMI, so a mailer that
 * wraps at 72-78 cuts it before (after "Max Single"), never just after NMI.
 */
enum lat_row_state fmt_row_rtla_noise_head(const char *s, size_t n, struct lat_row_ctx *ctx)
{
	static const char *const words[] = { "CPU", "Period", "Runtime", "Noise", "%", "CPU",
					     "Aval", "Max", "Noise", "Max", "Single", "HW", "NMI",
					     "IRQ", "Softirq", "Thread" };
	struct tr c = { s, s + n };
	size_t k = 0;

	ws(&c);
	if (lit(&c, "Operating System Noise") && at_end(&c)) {
		ctx->layout = RSH_LAYOUT_OSNOISE;
		return LAT_ROW_NO;
	}
	c.p = s;
	ws(&c);
	if (lit(&c, "Hardware-related Noise") && at_end(&c)) {
		ctx->layout = RSH_LAYOUT_HWNOISE;
		return LAT_ROW_NO;
	}
	c.p = s;
	for (; !at_end(&c); k++) {
		if (k == LAT_ARRAY_SIZE(words) || !lit(&c, words[k]) || !boundary(&c))
			return LAT_ROW_NO;
	}
	if (k < 2)
		return LAT_ROW_NO;		/* "CPU Period" at least */
	if (k == LAT_ARRAY_SIZE(words)) {
		ctx->layout = RSH_LAYOUT_OSNOISE;
		return LAT_ROW_FULL;
	}
	if (k == RSH_HWNOISE_HEAD && ctx->layout != RSH_LAYOUT_OSNOISE) {
		ctx->layout = RSH_LAYOUT_HWNOISE;
		return LAT_ROW_FULL;
	}
	return LAT_ROW_CUT;
}
