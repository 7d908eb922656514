// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Tables of cyclictest trailers assembled by hand (cyclictest_table.h): a
 * column is a run (a kernel, a patch), a group of lines a workload.  Read as
 * cyclictest's own trailers they were threads of one run, each later group
 * overwriting the one before, and the labelled lines were malformed.
 * Samples: samples/cyclictest/lkml-2023-zijlstra-*, lkml-2024-zang-*.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latscope/scan.h"
#include "cyclictest_table.h"
#include "import_hist.h"

#define CTT_COLS 16
#define CTT_GROUPS 32
#define CTT_LABEL 48
#define CTT_NAME 32

enum { CTT_TOTAL, CTT_MIN, CTT_AVG, CTT_MAX, CTT_OVF, CTT_NKINDS };

static const char *const kind_names[CTT_NKINDS] = {
	"# Total:", "# Min Latencies:", "# Avg Latencies:", "# Max Latencies:",
	"# Histogram Overflows:",
};

struct ctt_cell {
	int64_t v[CTT_NKINDS];		/* ns (Total, Overflows: counts), or LAT_VALUE_NONE */
	uint32_t first, last;		/* the lines of its values, 0 when it has none */
};

struct ctt_group {
	char label[CTT_LABEL];		/* "LNICE(-19)", "" when the group has none */
	unsigned seen;			/* bit per kind read in this group */
	struct ctt_cell cell[CTT_COLS];
};

/* Written by ctt_parse() alone. */
struct ctt {
	struct ctt_group g[CTT_GROUPS];
	int ng, ncols;
	char names[CTT_COLS][CTT_NAME];	/* the columns' names, or "" */
	int named;
};

/* One trailer line taken apart: its label (may be empty), its kind, its values. */
struct ctt_line {
	const char *label;
	size_t label_len;
	int kind;
	struct lat_scan values;		/* positioned after the kind's name */
};

static int split_line(const char *s, size_t len, struct ctt_line *out)
{
	const char *hash;

	imp_trim(&s, &len);
	hash = memchr(s, '#', len);
	if (!hash || memchr(hash + 1, '#', len - (size_t)(hash + 1 - s)))
		return 0;
	out->label = s;
	out->label_len = (size_t)(hash - s);
	imp_trim(&out->label, &out->label_len);
	if (out->label_len > CTT_LABEL - 1)
		return 0;
	for (int k = 0; k < CTT_NKINDS; k++) {
		size_t n = strlen(kind_names[k]);

		if ((size_t)(s + len - hash) > n && !memcmp(hash, kind_names[k], n)) {
			out->kind = k;
			lat_scan_init(&out->values, hash + n, (size_t)(s + len - hash) - n);
			return 1;
		}
	}
	return 0;
}

int ctt_labelled(const char *s, size_t len)
{
	struct ctt_line l;

	return split_line(s, len, &l) && l.label_len > 0;
}

int ctt_is_table(const struct lat_text *t, size_t first, size_t end)
{
	unsigned seen = 0;
	int labelled = 0, repeated = 0;

	for (size_t i = first; i < end; i++) {
		const struct lat_line *l = &t->lines[i];
		struct ctt_line cl;

		if (lat_line_blank(l))
			continue;
		if (l->binary || !split_line(l->s, l->len, &cl))
			return 0;
		labelled |= cl.label_len > 0;
		if (seen & (1u << cl.kind)) {
			repeated = 1;
			seen = 0;
		}
		seen |= 1u << cl.kind;
	}
	return labelled || repeated;
}

/* A new group when this kind was read in the current one, or a second label comes. */
static struct ctt_group *group_for(struct ctt *tb, const struct ctt_line *cl)
{
	struct ctt_group *g = tb->ng ? &tb->g[tb->ng - 1] : NULL;

	if (!g || (g->seen & (1u << cl->kind)) || (cl->label_len && g->label[0])) {
		if (tb->ng == CTT_GROUPS)
			return NULL;
		g = &tb->g[tb->ng++];
		for (int c = 0; c < CTT_COLS; c++)
			for (int k = 0; k < CTT_NKINDS; k++)
				g->cell[c].v[k] = LAT_VALUE_NONE;
	}
	if (cl->label_len)
		snprintf(g->label, sizeof(g->label), "%.*s", (int)cl->label_len, cl->label);
	g->seen |= 1u << cl->kind;
	return g;
}

/* 1 when read, 0 when the line is no trailer or a value is not a number, -1 when full */
static int read_line(struct ctt *tb, const struct lat_line *l)
{
	struct ctt_line cl;
	struct ctt_group *g;
	int col = 0;

	if (l->binary || !split_line(l->s, l->len, &cl))
		return 0;
	g = group_for(tb, &cl);
	if (!g)
		return -1;
	while (lat_scan_ws(&cl.values), !lat_scan_eol(&cl.values)) {
		int count = cl.kind == CTT_TOTAL || cl.kind == CTT_OVF;
		int64_t v;

		/* cyclictest prints µs ("Avg" with decimals in some versions) */
		if (!lat_scan_fixed(&cl.values, count ? 1 : 1000, &v, NULL) || col == CTT_COLS)
			return 0;
		g->cell[col].v[cl.kind] = v;
		if (!g->cell[col].first)
			g->cell[col].first = l->lineno;
		g->cell[col++].last = l->lineno;
	}
	if (col > tb->ncols)
		tb->ncols = col;
	return col > 0;
}

/*
 * The columns' names: the nearest non-blank line within 3 lines above the
 * table, when it holds as many words as the table has columns, no '#' nor ':'
 * (a sentence or a label) and no word that is a number.
 */
static void read_names(struct ctt *tb, const struct lat_text *t, size_t first)
{
	const struct lat_line *l = NULL;
	struct lat_scan sc;
	int n = 0;

	for (size_t i = first, k = 0; i > 0 && k < 3 && !l; k++)
		if (!lat_line_blank(&t->lines[--i]))
			l = &t->lines[i];
	if (!l || l->binary || memchr(l->s, '#', l->len) || memchr(l->s, ':', l->len))
		return;
	lat_scan_init(&sc, l->s, l->len);
	while (lat_scan_ws(&sc), !lat_scan_eol(&sc)) {
		const char *w;
		size_t wl, d = 0;

		if (n == tb->ncols || !lat_scan_word(&sc, &w, &wl) || wl >= CTT_NAME)
			return;
		while (d < wl && w[d] >= '0' && w[d] <= '9')
			d++;
		if (d == wl)
			return;
		snprintf(tb->names[n++], CTT_NAME, "%.*s", (int)wl, w);
	}
	tb->named = n == tb->ncols;
}

static int add_cell(const struct ctt *tb, int gi, int c, struct lat_block *b)
{
	const struct ctt_group *g = &tb->g[gi];
	const struct ctt_cell *cell = &g->cell[c];
	struct imp_hist_build hb;
	char group[CTT_LABEL], title[CTT_LABEL + CTT_NAME + 16];
	int ret;

	if (g->label[0])
		snprintf(group, sizeof(group), "%s", g->label);
	else if (tb->ng > 1)
		snprintf(group, sizeof(group), "group %d", gi + 1);
	else
		group[0] = '\0';
	if (tb->named)
		snprintf(title, sizeof(title), "%s%s%s", group, *group ? " " : "", tb->names[c]);
	else
		snprintf(title, sizeof(title), "%s%sthread %d", group, *group ? " " : "", c);
	ret = imp_hist_build_init(&hb, title);
	if (ret)
		return ret;
	if (*group && !(hb.h->group = strdup(group))) {
		imp_hist_build_drop(&hb);
		return -LAT_ENOMEM;
	}
	hb.h->printed = (struct lat_hist_printed){ LAT_VALUE_NONE, cell->v[CTT_MIN],
						   cell->v[CTT_AVG], cell->v[CTT_MAX] };
	if (cell->v[CTT_TOTAL] != LAT_VALUE_NONE)
		hb.h->printed.count = cell->v[CTT_TOTAL] +
				      (cell->v[CTT_OVF] != LAT_VALUE_NONE ? cell->v[CTT_OVF] : 0);
	hb.h->has_printed = 1;
	hb.h->first_line = cell->first;
	hb.h->last_line = cell->last;
	return imp_hist_build_finish(&hb, 1000, b);
}

/* "4 columns (EEVDF, PATCH, ...) in 3 groups (LNICE(-19), LNICE(0), LNICE(19))" */
static int table_finding(const struct ctt *tb, struct lat_block *b)
{
	char cols[256] = "", groups[256] = "";
	size_t n = 0;

	for (int c = 0; c < tb->ncols && tb->named && n < sizeof(cols); c++)
		n += (size_t)snprintf(cols + n, sizeof(cols) - n, "%s%s", c ? ", " : " (",
				      tb->names[c]);
	if (n && n < sizeof(cols))
		snprintf(cols + n, sizeof(cols) - n, ")");
	n = 0;
	for (int g = 0; g < tb->ng && tb->g[g].label[0] && n < sizeof(groups); g++)
		n += (size_t)snprintf(groups + n, sizeof(groups) - n, "%s%s", g ? ", " : " (",
				      tb->g[g].label);
	if (n && n < sizeof(groups))
		snprintf(groups + n, sizeof(groups) - n, ")");
	return lat_block_add_finding(b, "trailer-table", LAT_SEV_INFO,
				     "the trailers form a table of %d column%s%s in %d group%s%s: "
				     "each cell is one run's summary, set side by side by hand",
				     tb->ncols, tb->ncols == 1 ? "" : "s", cols, tb->ng,
				     tb->ng == 1 ? "" : "s", groups);
}

static int finish(const struct ctt *tb, struct lat_block *b)
{
	char title[256];
	size_t n = (size_t)snprintf(title, sizeof(title), "cyclictest trailers");
	int ret = 0;

	for (int g = 0; g < tb->ng && !ret; g++)
		for (int c = 0; c < tb->ncols && !ret; c++)
			if (tb->g[g].cell[c].first)
				ret = add_cell(tb, g, c, b);
	if (!ret)
		ret = table_finding(tb, b);
	for (int c = 0; c < tb->ncols && tb->named && n < sizeof(title); c++)
		n += (size_t)snprintf(title + n, sizeof(title) - n, "%s%s", c ? ", " : ": ",
				      tb->names[c]);
	if (!ret && !(b->title = strdup(title)))
		ret = -LAT_ENOMEM;
	return ret;
}

int ctt_parse(const struct lat_text *t, size_t first, size_t end, struct lat_block *b,
	      struct lat_diag *d)
{
	struct ctt *tb = calloc(1, sizeof(*tb));
	int ret;

	if (!tb)
		return -LAT_ENOMEM;
	b->schema = LAT_SCHEMA_HISTOGRAM;
	for (size_t i = first; i < end; i++) {
		const struct lat_line *l = &t->lines[i];
		int r;

		if (lat_line_blank(l))
			continue;
		r = read_line(tb, l);
		if (r > 0)
			continue;
		b->skipped_lines++;
		if (r < 0)
			lat_diag_at(d, l->lineno, "expected at most %d groups of trailers",
				    CTT_GROUPS);
		else
			lat_diag_at(d, l->lineno, "expected a trailer \"[LABEL] # Max Latencies: "
				    "N N ...\" of at most %d values", CTT_COLS);
	}
	read_names(tb, t, first);
	ret = finish(tb, b);
	free(tb);
	if (ret)
		return ret;
	return b->nhist ? 0 : -LAT_EEMPTY;
}
