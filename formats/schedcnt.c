// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * schedcnt: Davide Libenzi's scheduler latency sampler (LKML, October 2001,
 * seed 004).  One table per run of the load generator ("N = k" tasks), one
 * section per CPU:
 *
 *	SCHEDENTRY SCHEDEXIT LAT PID ENTRYDIF
 *	N = 1
 *	0 78                                       <- "cpu count": CPU 0, 78 rows
 *	430018440148 430018446565 6417 0 1049704   <- cycle counters, LAT = EXIT - ENTRY,
 *	...                                           PID picked, cycles to the next entry
 *	433654311212 433654315598 4386 796         <- the last row has no ENTRYDIF
 *	4532 7463                                  <- footer: the tool's average LAT, ?
 *
 * Section headers and footers are both two-number lines; the announced row
 * count tells them apart.  Series layout: enum lat_schedcnt_col (model.h),
 * one series per (run, CPU) named "cpu0" in group "N = 1", extra[0..1] the
 * footer and extra[2] the announced count (LAT_VALUE_NONE when absent).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latscope/scan.h"
#include "latscope/format.h"

#define SCHED_EXPECTED \
	"\"SCHEDENTRY SCHEDEXIT LAT PID [ENTRYDIF]\" (4 or 5 numbers), \"CPU COUNT\" or a footer"
#define SCHED_MAX_FIELDS 8
/* a footer's first number is an average LAT in cycles; a CPU number is below this */
#define SCHED_MAX_CPU 64

static const struct lat_column sched_columns[LAT_SCHED_NCOLS] = {
	[LAT_SCHED_ENTRY] = { "entry", LAT_UNIT_CYCLES },
	[LAT_SCHED_EXIT] = { "exit", LAT_UNIT_CYCLES },
	[LAT_SCHED_LAT] = { "lat", LAT_UNIT_CYCLES },
	[LAT_SCHED_PID] = { "pid", LAT_UNIT_PID },
	[LAT_SCHED_ENTRYDIF] = { "entrydif", LAT_UNIT_CYCLES },
};

/* A line of blank-separated unsigned integers: returns how many (0 if anything else). */
static int numbers(const char *s, size_t len, int64_t *v, int max)
{
	struct lat_scan sc;
	int n = 0;

	lat_scan_init(&sc, s, len);
	lat_scan_ws(&sc);
	while (!lat_scan_eol(&sc)) {
		uint64_t x;

		/* printf("%llu") never pads: "000123" is some other tool's table */
		if (sc.end - sc.p > 1 && sc.p[0] == '0' && sc.p[1] >= '0' && sc.p[1] <= '9')
			return 0;
		if (!lat_scan_u64(&sc, &x) || x > INT64_MAX)
			return 0;
		if (n < max)
			v[n] = (int64_t)x;
		n++;
		if (!lat_scan_ws(&sc) && !lat_scan_eol(&sc))
			return 0;
	}
	return n;
}

/* "N = 3" -> 3 */
static int run_label(const char *s, size_t len, uint64_t *k)
{
	struct lat_scan sc;

	lat_scan_init(&sc, s, len);
	lat_scan_ws(&sc);
	if (!lat_scan_char(&sc, 'N'))
		return 0;
	lat_scan_ws(&sc);
	if (!lat_scan_char(&sc, '='))
		return 0;
	lat_scan_ws(&sc);
	if (!lat_scan_u64(&sc, k))
		return 0;
	lat_scan_ws(&sc);
	return lat_scan_eol(&sc);
}

static int is_header(const char *s, size_t len)
{
	return memmem(s, len, "SCHEDENTRY", 10) && memmem(s, len, "SCHEDEXIT", 9);
}

static enum lat_line_kind sched_line_kind(const char *s, size_t len)
{
	int64_t v[SCHED_MAX_FIELDS];
	uint64_t k;

	if (is_header(s, len))
		return LAT_LINE_HEAD;
	/*
	 * Rows are 4 or 5 numbers, section headers and footers 2; other counts
	 * are left to the gap rule so that foreign integer tables are not ours.
	 */
	switch (numbers(s, len, v, SCHED_MAX_FIELDS)) {
	case 2:
	case 4:
	case 5:
		return LAT_LINE_ROW;
	default:
		break;
	}
	/* kept inside a table, but a lone "N = 3" in prose starts nothing */
	if (run_label(s, len, &k))
		return LAT_LINE_SOFT;
	return LAT_LINE_NO;
}

static int sched_probe(const char *peek, size_t len)
{
	if (memmem(peek, len, "SCHEDENTRY", 10) && memmem(peek, len, "SCHEDEXIT", 9) &&
	    memmem(peek, len, "ENTRYDIF", 8))
		return 90;
	return 0;
}

struct sched_parse {
	struct lat_block *b;
	struct lat_diag *d;
	char label[32];
	struct lat_series *cur;	/* the open section, NULL between sections */
	int last_had_dif;	/* the previous row had an ENTRYDIF: more rows should follow */
	int nolabel_said;	/* rows before any "N = k" were reported */
	size_t rows;
};

static int open_section(struct sched_parse *p, int64_t cpu, int64_t count)
{
	char name[32];
	struct lat_series *s;

	if (cpu >= 0)
		snprintf(name, sizeof(name), "cpu%lld", (long long)cpu);
	else
		snprintf(name, sizeof(name), "cpu unknown");
	s = lat_series_new(name, LAT_SCHED_NCOLS, sched_columns);
	if (!s)
		return -LAT_ENOMEM;
	s->group = strdup(p->label[0] ? p->label : "N = unknown");
	if (!s->group) {
		lat_series_free(s);
		return -LAT_ENOMEM;
	}
	s->extra[0] = LAT_VALUE_NONE;
	s->extra[1] = LAT_VALUE_NONE;
	s->extra[2] = count;
	s->nextra = 3;
	if (lat_block_add_series(p->b, s))
		return -LAT_ENOMEM;
	p->cur = s;
	p->last_had_dif = 0;
	return 0;
}

/* A two-number line: the open section's footer, or the next section's header. */
static int two_numbers(struct sched_parse *p, const int64_t *v)
{
	struct lat_series *s = p->cur;

	if (s) {
		int full = s->extra[2] != LAT_VALUE_NONE && (int64_t)s->nrows >= s->extra[2];

		if (full || !p->last_had_dif || v[0] >= SCHED_MAX_CPU) {
			s->extra[0] = v[0];
			s->extra[1] = v[1];
			p->cur = NULL;
			return 0;
		}
		/* rows missing and no footer: a new section starts (the analysis reports it) */
	}
	return open_section(p, v[0], v[1]);
}

static int sched_parse_block(const struct lat_text *t, size_t first, size_t end,
			     struct lat_block *b, struct lat_diag *d)
{
	struct sched_parse p = { .b = b, .d = d };
	size_t tlen = 0;

	b->schema = LAT_SCHEMA_SCHEDCNT;
	for (size_t i = first; i < end; i++) {
		const struct lat_line *l = &t->lines[i];
		int64_t v[SCHED_MAX_FIELDS], row[LAT_SCHED_NCOLS];
		uint64_t k;
		int n;

		if (lat_line_blank(l) || (!l->binary && is_header(l->s, l->len)))
			continue;
		if (!l->binary && run_label(l->s, l->len, &k)) {
			snprintf(p.label, sizeof(p.label), "N = %llu", (unsigned long long)k);
			p.cur = NULL;
			continue;
		}
		n = l->binary ? 0 : numbers(l->s, l->len, v, SCHED_MAX_FIELDS);
		if (n == 2) {
			if (two_numbers(&p, v))
				return -LAT_ENOMEM;
			continue;
		}
		if (n != 4 && n != 5) {
			b->skipped_lines++;
			lat_diag_at(d, l->lineno, "expected %s", SCHED_EXPECTED);
			continue;
		}
		if (!p.cur) {
			lat_diag_at(d, l->lineno, "expected a \"CPU COUNT\" line before the rows; "
				    "reading them as CPU unknown");
			if (open_section(&p, -1, LAT_VALUE_NONE) ||
			    lat_block_add_finding(b, "header-missing", LAT_SEV_WARN,
						  "%s: no \"CPU COUNT\" line before the rows at line "
						  "%u: their CPU and announced row count are unknown",
						  p.label[0] ? p.label : "N = unknown", l->lineno))
				return -LAT_ENOMEM;
		}
		if (!p.label[0] && !p.nolabel_said) {
			p.nolabel_said = 1;
			if (lat_block_add_finding(b, "header-missing", LAT_SEV_WARN,
						  "no \"N = k\" line before the rows at line %u: "
						  "their run is unknown", l->lineno))
				return -LAT_ENOMEM;
		}
		memcpy(row, v, 4 * sizeof(*row));
		row[LAT_SCHED_ENTRYDIF] = n == 5 ? v[4] : LAT_VALUE_NONE;
		if (lat_series_push(p.cur, row, l->lineno))
			return -LAT_ENOMEM;
		p.last_had_dif = n == 5;
		p.rows++;
	}
	/* title: the runs in order, "N = 1, N = 2" */
	for (size_t i = 0; i < b->nseries; i++)
		tlen += strlen(b->series[i]->group) + 2;
	b->title = calloc(1, tlen + 1);
	for (size_t i = 0; b->title && i < b->nseries; i++) {
		if (i && !strcmp(b->series[i]->group, b->series[i - 1]->group))
			continue;
		if (b->title[0])
			strcat(b->title, ", ");
		strcat(b->title, b->series[i]->group);
	}
	return p.rows ? 0 : -LAT_EEMPTY;
}

const struct lat_format fmt_schedcnt = {
	.name = "schedcnt",
	.summary = "schedcnt cycle tables: N = k runs, CPU COUNT sections, "
		   "SCHEDENTRY SCHEDEXIT LAT PID ENTRYDIF",
	.probe = sched_probe,
	.line_kind = sched_line_kind,
	.parse_block = sched_parse_block,
};
