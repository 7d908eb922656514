// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lat: the first version of Willy Tarreau's busy-loop logger (LKML, March 2005,
 * seed 000 section [2]).  Each iteration does
 *
 *	gettimeofday(&tv2); for (i = 0; i < loops; i++); gettimeofday(&tv3);
 *	printf("date=%lu.%06lu,\t user=%10lld us,  wait=%10lld us\n",
 *	       tv3, tv3 - tv2, tv2 - tv1);
 *	gettimeofday(&tv1); select(0, NULL, NULL, NULL, 1 ms);
 *
 * so "date" is the end of the busy loop, "user" the wall time the loop of a
 * fixed number of iterations took (preemption makes it grow) and "wait" the
 * time from before the 1 ms select() to the start of the next loop (the sleep
 * plus the wakeup latency).  There is no max column: the analysis takes the
 * loop's overshoot over its median as the stall.
 *
 * Two-process reports (section [4]) merge two logs by date, mark each row with
 * a process column ("--", "**") and name the markers in a legend:
 *
 *	P:-- = process 1 : ./lat 20000000, started at 1111993713.241839
 *	--  1111993713.241839,   user=     49421 us,   wait=       456 us
 */
#include <stdio.h>
#include <string.h>

#include "latscope/scan.h"
#include "loop.h"

#define ROW_EXPECTED "\"[MARK] [date=]S.US, user= N us, wait= N us\""
#define MAX_MARKS 16
#define MARK_LEN 8

static int has(const char *s, size_t len, const char *needle)
{
	size_t n = strlen(needle);

	for (size_t i = 0; i + n <= len; i++)
		if (!memcmp(s + i, needle, n))
			return 1;
	return 0;
}

/*
 * A process marker: a word that does not start with a digit nor with
 * "date=" ("--", "**").  Leaves @sc after the word and its blanks.
 */
static int scan_mark(struct lat_scan *sc, const char **m, size_t *mlen)
{
	struct lat_scan save = *sc;

	if (lat_scan_eol(sc) || (*sc->p >= '0' && *sc->p <= '9') ||
	    (sc->end - sc->p >= 5 && !memcmp(sc->p, "date=", 5)))
		return 0;
	if (!lat_scan_word(sc, m, mlen) || *mlen > MARK_LEN || !lat_scan_ws(sc)) {
		*sc = save;
		return 0;
	}
	return 1;
}

/* Optional marker, optional "date=", then S.US: shaped like a lat row. */
static int row_start(struct lat_scan *sc, const char **m, size_t *mlen)
{
	uint64_t v;
	struct lat_scan probe;

	*m = "";
	*mlen = 0;
	lat_scan_ws(sc);
	scan_mark(sc, m, mlen);
	lat_scan_lit(sc, "date=");
	probe = *sc;
	return lat_scan_u64(&probe, &v) && lat_scan_char(&probe, '.');
}

/* "user=" before "wait=" and no "max=": lat, not lat2 (which prints wait first). */
static int row_shape(const char *s, size_t len)
{
	struct lat_scan sc;
	const char *m, *u, *w;
	size_t mlen;

	lat_scan_init(&sc, s, len);
	if (!row_start(&sc, &m, &mlen) || has(s, len, "max="))
		return 0;
	u = memmem(s, len, "user=", 5);
	w = memmem(s, len, "wait=", 5);
	/* no wait= at all: a row the mailer wrapped, the rest is on the next line */
	return u && (!w || u < w);
}

/* A row; its key is its mark (loop_parse_fn). */
static int parse_row(const char *s, size_t len, struct loop_key *key, int64_t *row,
		     size_t *used)
{
	struct lat_scan sc;

	lat_scan_init(&sc, s, len);
	if (!row_start(&sc, &key->mark, &key->mlen) ||
	    !lat_scan_fixed(&sc, LAT_NS_PER_S, &row[LAT_LOOP_TS], NULL))
		return 0;
	if (!lat_scan_char(&sc, ',') || !loop_scan_us(&sc, "user=", 1, &row[LAT_LOOP_LOOP]) ||
	    !lat_scan_char(&sc, ',') || !loop_scan_us(&sc, "wait=", 1, &row[LAT_LOOP_WAIT]))
		return 0;
	if (!lat_scan_eol(&sc) && !lat_scan_ws(&sc))
		return 0;
	*used = (size_t)(sc.p - s);
	row[LAT_LOOP_MAX] = LAT_VALUE_NONE;
	row[LAT_LOOP_NBMAX] = LAT_VALUE_NONE;
	return 1;
}

/* "P:-- = process 1 : ./lat 20000000, started at ..." */
struct legend {
	const char *mark;
	size_t mlen;
	uint64_t id;
	const char *note;
	size_t nlen;
};

static int parse_legend(const char *s, size_t len, struct legend *lg)
{
	struct lat_scan sc;

	lat_scan_init(&sc, s, len);
	if (!lat_scan_lit(&sc, "P:") || !lat_scan_word(&sc, &lg->mark, &lg->mlen) ||
	    lg->mlen > MARK_LEN)
		return 0;
	lat_scan_ws(&sc);
	if (!lat_scan_char(&sc, '='))
		return 0;
	lat_scan_ws(&sc);
	if (!lat_scan_lit(&sc, "process"))
		return 0;
	lat_scan_ws(&sc);
	if (!lat_scan_u64(&sc, &lg->id))
		return 0;
	lat_scan_ws(&sc);
	if (lat_scan_char(&sc, ':'))
		lat_scan_ws(&sc);
	lg->note = sc.p;
	lg->nlen = (size_t)(sc.end - sc.p);
	return 1;
}

static int is_column_header(const char *s, size_t len)
{
	return has(s, len, "system time") || (has(s, len, "tv_sec.tv_usec") &&
					       has(s, len, "in loop"));
}

static enum lat_line_kind lat_line_kind(const char *s, size_t len)
{
	struct legend lg;

	if (parse_legend(s, len, &lg) || is_column_header(s, len))
		return LAT_LINE_HEAD;
	if (row_shape(s, len))
		return LAT_LINE_ROW;
	return LAT_LINE_NO;
}

static int lat_probe(const char *peek, size_t len)
{
	/* the exact printf of lat.c, or the merged report's legend */
	if (has(peek, len, "user=") && has(peek, len, "wait=") && has(peek, len, " us,"))
		return has(peek, len, "P:") && has(peek, len, "= process") ? 90 : 80;
	return 0;
}

struct mark_map {
	char mark[MARK_LEN + 1];
	struct lat_series *s;
};

/* The series of rows marked @m (legend id when known, else the marker itself). */
static struct lat_series *series_for(struct lat_block *b, struct mark_map *map, size_t *nmap,
				     const char *m, size_t mlen, uint64_t id)
{
	char name[24];
	struct lat_series *s;

	for (size_t i = 0; i < *nmap; i++)
		if (strlen(map[i].mark) == mlen && !memcmp(map[i].mark, m, mlen))
			return map[i].s;
	if (id)
		snprintf(name, sizeof(name), "%llu", (unsigned long long)id);
	else if (mlen)
		snprintf(name, sizeof(name), "%.*s", (int)mlen, m);
	else
		snprintf(name, sizeof(name), "1");
	s = loop_series(b, name);
	if (s && *nmap < MAX_MARKS) {
		if (mlen)
			memcpy(map[*nmap].mark, m, mlen);
		map[*nmap].mark[mlen] = '\0';
		map[*nmap].s = s;
		(*nmap)++;
	}
	return s;
}

/* The marks seen in a block and their series. */
struct marks {
	struct mark_map map[MAX_MARKS];
	size_t n;
};

/* The series of a row: by its mark (loop_how.series). */
static struct lat_series *mark_series(struct lat_block *b, void *ctx,
				      const struct loop_key *key)
{
	struct marks *mk = ctx;

	return series_for(b, mk->map, &mk->n, key->mark, key->mlen, 0);
}

/* "P:x = process N : note" legends (the mark's series and its note), column headers. */
static int lat_head(struct lat_block *b, void *ctx, const struct lat_line *l)
{
	struct marks *mk = ctx;
	struct lat_series *s;
	struct legend lg;

	if (l->binary)
		return 0;
	if (!parse_legend(l->s, l->len, &lg))
		return is_column_header(l->s, l->len);
	s = series_for(b, mk->map, &mk->n, lg.mark, lg.mlen, lg.id);
	if (!s && loop_full(b))
		return 1;	/* its rows are skipped and said */
	if (!s)
		return -LAT_ENOMEM;
	if (!s->note && lg.nlen && !(s->note = strndup(lg.note, lg.nlen)))
		return -LAT_ENOMEM;
	return 1;
}

static int lat_parse_block(const struct lat_text *t, size_t first, size_t end,
			   struct lat_block *b, struct lat_diag *d)
{
	struct marks mk = { .n = 0 };
	const struct loop_how how = {
		.head = lat_head, .parse = parse_row, .series = mark_series, .ctx = &mk,
		.expected = ROW_EXPECTED,
	};

	return loop_parse(t, first, end, b, d, &how);
}

const struct lat_format fmt_lat = {
	.name = "lat",
	.summary = "lat busy-loop logs: date=S.US, user= N us, wait= N us [P:-- legend, marks]",
	.probe = lat_probe,
	.line_kind = lat_line_kind,
	.parse_block = lat_parse_block,
};
