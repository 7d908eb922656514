// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * histogram: delivery-time tables (Mark Christiansen, LKML 1999, seed 003).
 *
 *	Plain 2.2.10                     <- title: the line before the header
 *	Delivery Times Cumulative
 *	125.893ms 0 0.00% 0 0.00%        <- value unit count pct cumcount cumpct
 *	112.202ms 1 0.02% 1 0.02%
 *	...
 *	0.050ms 2976 59.52% 5000 100.00%
 *
 * Each value is the LOWER bound of its bucket: row "0.050ms" counts the
 * samples in [50 us, 56.234 us), the next larger value; the largest value's
 * bucket is open.  Rows may come largest first (the seed: cumulative counts
 * then run from the top, "at or above") or smallest first.  Several tables
 * separated by a title line stay one block so that they can be compared.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latscope/scan.h"
#include "latscope/format.h"

#define HIST_EXPECTED "\"VALUE UNIT COUNT [PCT% CUMCOUNT CUMPCT%]\" (unit ns, us, ms or s)"
#define HIST_LINE_MAX 256
#define HIST_NO_TITLE "title unknown"
#define HIST_TITLE_MAX 100
/* printed percentages have two decimals: allow half a unit of the last one */
#define HIST_PCT_TOL 50	/* in 1/10000 % */

struct raw_row {
	int64_t lo_ns;
	uint64_t count, cum;
	int64_t pct, cumpct;	/* in 1/10000 % */
	int full;		/* the row had the pct and cumulative columns */
	uint32_t line;
};

static int is_header(const char *s, size_t len)
{
	if (!memmem(s, len, "Cumulative", 10))
		return 0;
	for (size_t i = 0; i < len; i++)
		if (s[i] >= '0' && s[i] <= '9')
			return 0;
	return 1;
}

/* "0.050ms" or "0.050 ms": the value in ns. */
static int scan_value(struct lat_scan *sc, int64_t *ns)
{
	static const struct {
		const char *u;
		int64_t div;	/* nano-units per ns unit */
	} units[] = { { "ms", 1000 }, { "us", 1000000 }, { "ns", 1000000000 }, { "s", 1 } };
	struct lat_scan save = *sc;
	int64_t v;

	/* read in nano-units first: the unit decides the scale */
	if (!lat_scan_fixed(sc, LAT_NS_PER_S, &v, NULL))
		return 0;
	lat_scan_ws(sc);
	for (size_t i = 0; i < LAT_ARRAY_SIZE(units); i++) {
		if (lat_scan_lit(sc, units[i].u)) {
			if (!lat_scan_eol(sc) && sc->p[0] != ' ' && sc->p[0] != '\t')
				break;
			*ns = v / units[i].div;
			return 1;
		}
	}
	*sc = save;
	return 0;
}

static int scan_pct(struct lat_scan *sc, int64_t *v)
{
	if (!lat_scan_fixed(sc, 10000, v, NULL))
		return 0;
	lat_scan_char(sc, '%');
	return 1;
}

/* Parses a row of the NUL-terminated, micro-fixed @buf.  Returns 1 (row), 0 (not). */
static int parse_row(const char *buf, struct raw_row *r)
{
	struct lat_scan sc;

	memset(r, 0, sizeof(*r));
	lat_scan_init(&sc, buf, strlen(buf));
	lat_scan_ws(&sc);
	if (!scan_value(&sc, &r->lo_ns) || !lat_scan_ws(&sc) || !lat_scan_u64(&sc, &r->count))
		return 0;
	lat_scan_ws(&sc);
	if (lat_scan_eol(&sc))
		return 1;
	if (!scan_pct(&sc, &r->pct) || !lat_scan_ws(&sc) || !lat_scan_u64(&sc, &r->cum) ||
	    !lat_scan_ws(&sc) || !scan_pct(&sc, &r->cumpct))
		return 0;
	lat_scan_ws(&sc);
	r->full = 1;
	return lat_scan_eol(&sc);
}

/* Copies a line for parsing with the micro sign fixed; 0 if too long. */
static int copy_line(const char *s, size_t len, char *buf)
{
	if (len >= HIST_LINE_MAX)
		return 0;
	memcpy(buf, s, len);
	buf[len] = '\0';
	lat_fix_micro(buf);
	return 1;
}

/* Starts with a value and a unit: a row, or a malformed one. */
static int row_shape(const char *s, size_t len)
{
	char buf[HIST_LINE_MAX];
	struct lat_scan sc;
	int64_t v;
	uint64_t c;

	if (!copy_line(s, len, buf))
		return 0;
	lat_scan_init(&sc, buf, strlen(buf));
	lat_scan_ws(&sc);
	return scan_value(&sc, &v) && lat_scan_ws(&sc) && lat_scan_u64(&sc, &c);
}

static enum lat_line_kind hist_line_kind(const char *s, size_t len)
{
	/*
	 * The header is a ROW, not a HEAD: a HEAD after rows would cut the
	 * "Plain" and "With Patch" tables into two blocks, and comparing them
	 * needs one.  The title line between them is bridged as a gap.
	 */
	if (is_header(s, len) || row_shape(s, len))
		return LAT_LINE_ROW;
	return LAT_LINE_NO;
}

static int hist_probe(const char *peek, size_t len)
{
	if (memmem(peek, len, "Delivery Times", 14) && memmem(peek, len, "Cumulative", 10))
		return 90;
	return 0;
}

static int cmp_raw(const void *a, const void *b)
{
	const struct raw_row *x = a, *y = b;

	return (x->lo_ns > y->lo_ns) - (x->lo_ns < y->lo_ns);
}

static int64_t pct_of(uint64_t n, uint64_t total)
{
	return total ? (int64_t)(((long double)n * 1000000.0L) / (long double)total + 0.5L) : 0;
}

static int64_t diff(int64_t a, int64_t b)
{
	return a > b ? a - b : b - a;
}

/* Turns the rows of one table into a histogram in @b. */
static int finish(struct lat_block *b, struct raw_row *rows, size_t n, char *title)
{
	struct lat_histogram *h;
	uint64_t run = 0, total = 0, printed = 0;
	int any_full = 0;

	h = calloc(1, sizeof(*h));
	if (!h) {
		free(title);
		return -LAT_ENOMEM;
	}
	h->title = title;
	h->first_line = rows[0].line;
	h->last_line = rows[n - 1].line;
	for (size_t i = 0; i < n; i++)
		total += rows[i].count;
	/* the printed columns, in the order they were printed */
	for (size_t i = 0; i < n; i++) {
		run += rows[i].count;
		if (!rows[i].full)
			continue;
		any_full = 1;
		if (rows[i].cum > printed)
			printed = rows[i].cum;
		if (rows[i].cum != run || diff(rows[i].cumpct, pct_of(run, total)) > HIST_PCT_TOL) {
			h->cum_mismatches++;
			if (!h->first_mismatch_line)
				h->first_mismatch_line = rows[i].line;
		}
		if (diff(rows[i].pct, pct_of(rows[i].count, total)) > HIST_PCT_TOL) {
			h->pct_mismatches++;
			if (!h->first_mismatch_line)
				h->first_mismatch_line = rows[i].line;
		}
	}
	h->printed_total = any_full ? printed : (uint64_t)-1;
	h->total = total;
	lat_sort(rows, n, sizeof(*rows), cmp_raw);
	h->b = calloc(n, sizeof(*h->b));
	if (!h->b) {
		lat_histogram_free(h);
		return -LAT_ENOMEM;
	}
	h->nbuckets = n;
	for (size_t i = 0; i < n; i++) {
		h->b[i].lo_ns = rows[i].lo_ns;
		h->b[i].count = rows[i].count;
		h->b[i].hi_ns = INT64_MAX;
		for (size_t j = i + 1; j < n; j++)
			if (rows[j].lo_ns > rows[i].lo_ns) {
				h->b[i].hi_ns = rows[j].lo_ns;
				break;
			}
	}
	return lat_block_add_hist(b, h);
}

/* The title of the table whose header (or first row) is line @i: the line above it. */
static char *title_above(const struct lat_text *t, size_t i, size_t lowest)
{
	for (size_t k = i; k-- > lowest && i - k <= 2;) {
		const struct lat_line *l = &t->lines[k];

		if (lat_line_blank(l))
			continue;
		if (l->binary || l->len > HIST_TITLE_MAX || is_header(l->s, l->len) ||
		    row_shape(l->s, l->len))
			return NULL;
		/* "With Patch:" introduces the table; the colon is not part of its name */
		return strndup(l->s, l->len - (l->len > 1 && l->s[l->len - 1] == ':'));
	}
	return NULL;
}

/* Is the next non-blank line before @end a table header? */
static int header_follows(const struct lat_text *t, size_t i, size_t end)
{
	for (size_t k = i + 1; k < end; k++) {
		if (lat_line_blank(&t->lines[k]))
			continue;
		return is_header(t->lines[k].s, t->lines[k].len);
	}
	return 0;
}

static int hist_parse_block(const struct lat_text *t, size_t first, size_t end,
			    struct lat_block *b, struct lat_diag *d)
{
	struct raw_row *rows = NULL;
	size_t n = 0, cap = 0, lowest = first, tlen = 0;
	char *title = NULL;
	int ret = 0, started = 0;

	b->schema = LAT_SCHEMA_HISTOGRAM;
	/* the first table's title sits just above the block */
	lowest = first >= 2 ? first - 2 : 0;
	for (size_t i = first; i < end && !ret; i++) {
		const struct lat_line *l = &t->lines[i];
		char buf[HIST_LINE_MAX];
		struct raw_row r;

		if (lat_line_blank(l))
			continue;
		if (!l->binary && is_header(l->s, l->len)) {
			if (n)
				ret = finish(b, rows, n, title);
			else
				free(title);
			n = 0;
			title = title_above(t, i, i == first ? lowest : first);
			started = 1;
			continue;
		}
		if (!l->binary && copy_line(l->s, l->len, buf) && parse_row(buf, &r)) {
			if (!started) {
				title = title_above(t, i, lowest);
				started = 1;
			}
			r.line = l->lineno;
			if (lat_grow(&rows, &cap, n + 1, sizeof(*rows)))
				ret = -LAT_ENOMEM;
			else
				rows[n++] = r;
			continue;
		}
		/* a title line between two tables; anything else is a broken row */
		if (!l->binary && header_follows(t, i, end))
			continue;
		b->skipped_lines++;
		lat_diag_at(d, l->lineno, "expected %s", HIST_EXPECTED);
	}
	if (!ret && n)
		ret = finish(b, rows, n, title);
	else
		free(title);
	free(rows);
	if (ret)
		return ret;
	for (size_t i = 0; i < b->nhist; i++) {
		const struct lat_histogram *h = b->hist[i];

		tlen += (h->title ? strlen(h->title) : strlen(HIST_NO_TITLE)) + 4;
		if (!h->title && lat_block_add_finding(b, "header-missing", LAT_SEV_INFO,
						       "the table at lines %u-%u has no title line "
						       "above it: its title is unknown",
						       h->first_line, h->last_line))
			return -LAT_ENOMEM;
	}
	if (tlen && (b->title = calloc(1, tlen + 1))) {
		for (size_t i = 0; i < b->nhist; i++) {
			if (i)
				strcat(b->title, " vs ");
			strcat(b->title, b->hist[i]->title ? b->hist[i]->title : HIST_NO_TITLE);
		}
	}
	return b->nhist ? 0 : -LAT_EEMPTY;
}

const struct lat_format fmt_histogram = {
	.name = "histogram",
	.summary = "delivery-time histograms: VALUE UNIT COUNT PCT% CUM CUMPCT% under a "
		   "\"Delivery Times Cumulative\" header",
	.probe = hist_probe,
	.line_kind = hist_line_kind,
	.parse_block = hist_parse_block,
};
