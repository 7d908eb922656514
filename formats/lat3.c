// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lat3: Willy Tarreau's busy-loop gap logger (LKML, March 2005).
 *
 *   Date_sec.msec   select    loop  maxlat    nbmax
 *   1112008906.469     978 2593603 2507346       1
 *
 * select and loop are microseconds, maxlat the longest gap between two
 * gettimeofday() calls in the loop (us), nbmax the number of gaps over 10 ms.
 * Two-process reports prefix rows with "1: " / "2: " and the header with "P".
 */
#include <stdio.h>
#include <string.h>

#include "latscope/scan.h"
#include "loop.h"

#define LAT3_EXPECTED "\"[N: ]Date_sec.msec select loop maxlat nbmax\" (5 numbers)"

static int find(const char *s, size_t len, const char *needle)
{
	size_t n = strlen(needle);

	for (size_t i = 0; i + n <= len; i++)
		if (!memcmp(s + i, needle, n))
			return 1;
	return 0;
}

/* Optional "N:" process prefix; returns 1 and the id when present. */
static int scan_proc(struct lat_scan *sc, uint64_t *id)
{
	struct lat_scan save = *sc;
	uint64_t v;

	if (lat_scan_u64(sc, &v) && lat_scan_char(sc, ':')) {
		*id = v;
		return 1;
	}
	*sc = save;
	return 0;
}

/* A row starts with [N:] digits '.' digits and a blank: shaped like ours. */
static int row_shape(const char *s, size_t len)
{
	struct lat_scan sc;
	uint64_t v;

	lat_scan_init(&sc, s, len);
	lat_scan_ws(&sc);
	scan_proc(&sc, &v);
	lat_scan_ws(&sc);
	if (!lat_scan_u64(&sc, &v) || !lat_scan_char(&sc, '.') || !lat_scan_u64(&sc, &v))
		return 0;
	/*
	 * and a whole number after it (no fraction, no '/'): prose such as "1.3
	 * ms will cause" is not a row, nor is /proc/loadavg ("0.01 0.03 0.01
	 * 1/151 3486", printed bare by the first cyclictest versions)
	 */
	return lat_scan_ws(&sc) > 0 && lat_scan_u64(&sc, &v) &&
	       (lat_scan_eol(&sc) || (*sc.p != '.' && *sc.p != '/'));
}

static int parse_row(const char *s, size_t len, struct loop_key *key, int64_t *row,
		     size_t *used)
{
	struct lat_scan sc;
	uint64_t sel, loop, max, nb;

	lat_scan_init(&sc, s, len);
	lat_scan_ws(&sc);
	scan_proc(&sc, &key->proc);	/* absent: the caller's default, process 1 */
	lat_scan_ws(&sc);
	if (!lat_scan_fixed(&sc, LAT_NS_PER_S, &row[LAT_LOOP_TS], NULL))
		return 0;
	if (!lat_scan_ws(&sc) || !lat_scan_u64(&sc, &sel) || !lat_scan_ws(&sc) ||
	    !lat_scan_u64(&sc, &loop) || !lat_scan_ws(&sc) || !lat_scan_u64(&sc, &max) ||
	    !lat_scan_ws(&sc) || !lat_scan_u64(&sc, &nb))
		return 0;
	/* a number runs into no letter: "26=>" is not a row, "26  => note" is */
	if (!lat_scan_eol(&sc) && !lat_scan_ws(&sc))
		return 0;
	*used = (size_t)(sc.p - s);
	if (sel > INT64_MAX / 1000 || loop > INT64_MAX / 1000 || max > INT64_MAX / 1000 ||
	    nb > INT64_MAX)
		return 0;
	row[LAT_LOOP_WAIT] = (int64_t)sel * LAT_NS_PER_US;
	row[LAT_LOOP_LOOP] = (int64_t)loop * LAT_NS_PER_US;
	row[LAT_LOOP_MAX] = (int64_t)max * LAT_NS_PER_US;
	row[LAT_LOOP_NBMAX] = (int64_t)nb;
	return 1;
}

static enum lat_line_kind lat3_line_kind(const char *s, size_t len)
{
	if (find(s, len, "Date_sec.msec") && find(s, len, "maxlat"))
		return LAT_LINE_HEAD;
	if (row_shape(s, len))
		return LAT_LINE_ROW;
	/* "#process1= lat3 ...": the legend that opens a two-process report */
	if (len > 8 && !memcmp(s, "#process", 8))
		return LAT_LINE_HEAD;
	if (len && s[0] == '#')
		return LAT_LINE_SOFT;
	return LAT_LINE_NO;
}

static int lat3_probe(const char *peek, size_t len)
{
	/* the header is unmistakable; rows alone are only likely */
	if (find(peek, len, "Date_sec.msec") && find(peek, len, "maxlat") &&
	    find(peek, len, "nbmax"))
		return 90;
	return 0;
}


/* "#process1= ..." legends and other '#' lines, the column header. */
static int lat3_head(struct lat_block *b, void *ctx, const struct lat_line *l)
{
	(void)ctx;
	if (l->s[0] == '#')
		return loop_legend(b, l) ? -LAT_ENOMEM : 1;
	return lat3_line_kind(l->s, l->len) == LAT_LINE_HEAD;
}

static int lat3_parse_block(const struct lat_text *t, size_t first, size_t end,
			    struct lat_block *b, struct lat_diag *d)
{
	static const struct loop_how how = {
		.head = lat3_head, .parse = parse_row, .expected = LAT3_EXPECTED,
	};

	return loop_parse(t, first, end, b, d, &how);
}

const struct lat_format fmt_lat3 = {
	.name = "lat3",
	.summary = "lat3 busy-loop logs: Date_sec.msec select loop maxlat nbmax [N: prefix]",
	.probe = lat3_probe,
	.line_kind = lat3_line_kind,
	.parse_block = lat3_parse_block,
};
