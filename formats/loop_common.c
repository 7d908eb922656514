// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latscope/scan.h"
#include "loop.h"

const struct lat_column loop_columns[LAT_LOOP_NCOLS] = {
	[LAT_LOOP_TS] = { "ts", LAT_UNIT_TS_NS },
	[LAT_LOOP_WAIT] = { "wait", LAT_UNIT_NS },
	[LAT_LOOP_LOOP] = { "loop", LAT_UNIT_NS },
	[LAT_LOOP_MAX] = { "max", LAT_UNIT_NS },
	[LAT_LOOP_NBMAX] = { "nbmax", LAT_UNIT_COUNT },
};

struct lat_series *loop_series(struct lat_block *b, const char *id)
{
	struct lat_series *s;

	for (size_t i = 0; i < b->nseries; i++)
		if (!strcmp(b->series[i]->name, id))
			return b->series[i];
	if (loop_full(b))
		return NULL;	/* a hostile log with a process per row: linear search stays short */
	s = lat_series_new(id, LAT_LOOP_NCOLS, loop_columns);
	if (!s || lat_block_add_series(b, s))
		return NULL;
	return s;
}

int loop_full(const struct lat_block *b)
{
	return b->nseries >= LOOP_MAX_SERIES;
}

void loop_bad_row(struct lat_block *b, struct lat_diag *d, const struct lat_line *l,
		      const char *expected)
{
	b->skipped_lines++;
	lat_diag_at(d, l->lineno, "expected %s", expected);
}

/* Ends a parse: drops series without rows, titles the block from the legends. */
static void finish_block(struct lat_block *b)
{
	size_t keep = 0, tlen = 0;
	char *title;

	for (size_t i = 0; i < b->nseries; i++)
		if (b->series[i]->note)
			tlen += strlen(b->series[i]->note) + 16;
	title = tlen && !b->title ? malloc(tlen + 1) : NULL;
	if (title) {
		title[0] = '\0';
		for (size_t i = 0; i < b->nseries; i++) {
			if (!b->series[i]->note)
				continue;
			snprintf(title + strlen(title), tlen + 1 - strlen(title), "%sprocess%s= %s",
				 title[0] ? "; " : "", b->series[i]->name, b->series[i]->note);
		}
		b->title = title;
	}
	for (size_t i = 0; i < b->nseries; i++) {
		if (b->series[i]->nrows)
			b->series[keep++] = b->series[i];
		else
			lat_series_free(b->series[i]);
	}
	b->nseries = keep;
}

/*
 * A row the mailer wrapped: lines @i and @i + 1 (< @end) joined by a blank
 * into @buf (@size bytes).  Returns the joined length, or 0 when there is no
 * next line to join or the two do not fit.
 */
static size_t join_lines(const struct lat_text *t, size_t i, size_t end, char *buf, size_t size)
{
	const struct lat_line *a = &t->lines[i], *b;

	if (i + 1 >= end)
		return 0;
	b = &t->lines[i + 1];
	if (b->binary || lat_line_blank(b) || (size_t)a->len + b->len + 2 > size)
		return 0;
	memcpy(buf, a->s, a->len);
	buf[a->len] = ' ';
	memcpy(buf + a->len + 1, b->s, b->len);
	buf[a->len + 1 + b->len] = '\0';
	return (size_t)a->len + 1 + b->len;
}

int loop_add_row(struct lat_block *b, struct lat_diag *d, const struct lat_line *l,
		     struct lat_series *s, const int64_t *row)
{
	if (!s && loop_full(b)) {
		loop_bad_row(b, d, l, LOOP_FULL_EXPECTED);
		return 0;
	}
	if (!s || lat_series_push(s, row, l->lineno))
		return -LAT_ENOMEM;
	return 1;
}

struct lat_series *loop_series_num(struct lat_block *b, uint64_t id)
{
	char name[24];

	snprintf(name, sizeof(name), "%llu", (unsigned long long)id);
	return loop_series(b, name);
}

int loop_legend(struct lat_block *b, const struct lat_line *l)
{
	struct lat_scan sc;
	uint64_t id;
	struct lat_series *s;

	lat_scan_init(&sc, l->s, l->len);
	if (!lat_scan_lit(&sc, "#process") || !lat_scan_u64(&sc, &id) || !lat_scan_char(&sc, '='))
		return 0;
	lat_scan_ws(&sc);
	s = loop_series_num(b, id);
	if (!s && loop_full(b))
		return 0;	/* a legend past the cap: its rows are skipped and said */
	if (!s)
		return -LAT_ENOMEM;
	if (!s->note && !(s->note = strndup(sc.p, (size_t)(sc.end - sc.p))))
		return -LAT_ENOMEM;
	return 0;
}

size_t loop_note(const char *s, size_t len, const char **note)
{
	int letter = 0;

	while (len && (*s == ' ' || *s == '\t'))
		s++, len--;
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	if (!len || (*s >= '0' && *s <= '9'))
		return 0;
	for (size_t k = 0; k < len && !letter; k++)
		letter = (s[k] >= 'a' && s[k] <= 'z') || (s[k] >= 'A' && s[k] <= 'Z');
	if (!letter)
		return 0;
	*note = s;
	return len;
}

/*
 * One row at @s: its values, and after it either more rows (*more), a note
 * (*note, *nlen) or nothing.  Returns 0 when @s is not that.
 */
static int one_row(const char *s, size_t n, loop_parse_fn parse, struct loop_key *key,
		   int64_t *row, const char **rest, size_t *rn, const char **note, size_t *nlen)
{
	int64_t next[LAT_LOOP_NCOLS];
	struct loop_key nkey = { .proc = 1 };
	size_t used;

	key->proc = 1;
	key->mark = NULL;
	key->mlen = 0;
	*nlen = 0;
	if (!parse(s, n, key, row, &used))
		return 0;
	s += used;
	n -= used;
	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	*rest = s;
	*rn = n;
	if (!n || parse(s, n, &nkey, next, &used))
		return 1;
	*nlen = loop_note(s, n, note);
	*rn = 0;
	return *nlen > 0;
}

/* The rows of @s (@n bytes) on line @l: returns 1 when @s was rows, 0, or an error. */
static int take_rows(struct lat_block *b, struct lat_diag *d, const struct lat_line *l,
		     const char *s, size_t n, const struct loop_how *how)
{
	const char *rest = s, *note;
	size_t rn = n, nlen, k = 0;
	int64_t row[LAT_LOOP_NCOLS];
	struct loop_key key;
	int ret;

	/* all of it or nothing: a line is not half rows */
	do {
		if (!one_row(rest, rn, how->parse, &key, row, &rest, &rn, &note, &nlen))
			return 0;
	} while (rn && ++k < LOOP_MAX_JOINED);
	if (rn) {
		loop_bad_row(b, d, l, "at most 8 rows on one line");
		return 1;
	}
	rest = s;
	rn = n;
	do {
		struct lat_series *ser;

		one_row(rest, rn, how->parse, &key, row, &rest, &rn, &note, &nlen);
		ser = how->series ? how->series(b, how->ctx, &key) :
				    loop_series_num(b, key.proc);
		ret = loop_add_row(b, d, l, ser, row);
		if (ret < 0)
			return ret;
		if (ret && nlen && lat_series_note_last(ser, note, nlen))
			return -LAT_ENOMEM;
	} while (rn);
	return 1;
}

/*
 * Line *@i as rows, or joined with the next one (a row the mailer wrapped: *@i
 * then steps past both).  1 read (rows past the process cap are reported and
 * skipped), 0 not rows, -LAT_ENOMEM.
 */
static int take_line(struct lat_block *b, struct lat_diag *d, const struct lat_text *t,
		     size_t *i, size_t end, const struct loop_how *how)
{
	const struct lat_line *l = &t->lines[*i];
	char buf[512];
	size_t n;
	int ret;

	if (l->binary)
		return 0;
	ret = take_rows(b, d, l, l->s, l->len, how);
	if (ret)
		return ret;
	n = join_lines(t, *i, end, buf, sizeof(buf));
	if (!n)
		return 0;
	ret = take_rows(b, d, l, buf, n, how);
	if (ret > 0)
		(*i)++;
	return ret;
}

static size_t count_rows(const struct lat_block *b)
{
	size_t n = 0;

	for (size_t i = 0; i < b->nseries; i++)
		n += b->series[i]->nrows;
	return n;
}

/* finish_block(), and 0 when the block holds rows, else -LAT_EEMPTY. */
static int end_block(struct lat_block *b)
{
	size_t rows = count_rows(b);

	finish_block(b);
	return rows ? 0 : -LAT_EEMPTY;
}

int loop_parse(const struct lat_text *t, size_t first, size_t end, struct lat_block *b,
		   struct lat_diag *d, const struct loop_how *how)
{
	int ret;

	b->schema = LAT_SCHEMA_LOOP;
	for (size_t i = first; i < end; i++) {
		const struct lat_line *l = &t->lines[i];

		if (lat_line_blank(l))
			continue;
		ret = how->head ? how->head(b, how->ctx, l) : 0;
		if (!ret)
			ret = take_line(b, d, t, &i, end, how);
		if (ret < 0)
			return ret;
		if (!ret)
			loop_bad_row(b, d, l, how->expected);
	}
	return end_block(b);
}

int loop_scan_us(struct lat_scan *sc, const char *key, int unit_us, int64_t *ns)
{
	uint64_t v;

	lat_scan_ws(sc);
	if (!lat_scan_lit(sc, key))
		return 0;
	lat_scan_ws(sc);
	if (!lat_scan_u64(sc, &v) || v > INT64_MAX / LAT_NS_PER_US)
		return 0;
	lat_scan_ws(sc);
	if (unit_us && !lat_scan_lit(sc, "us"))
		return 0;
	*ns = (int64_t)v * LAT_NS_PER_US;
	return 1;
}
