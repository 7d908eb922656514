// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lat2: the second version of Willy Tarreau's busy-loop logger (seed 000
 * section [5]).  The loop now runs for a fixed time (argv[1] us) and records
 * the longest gap between two consecutive gettimeofday() calls:
 *
 *	#process1= lat2 50000
 *	#process2= while : ;do :; done
 *	date=1111995134.390, wait=       827 us, user=     50000 us, max=     51
 *
 * date is the end of the loop (ms), wait the select() sleep plus wakeup (us),
 * user the loop time (us, the argument unless the loop was stalled), max the
 * longest gap inside the loop (us).  "#processN=" lines name the processes
 * that ran; a new legend after rows starts a new block.
 */
#include <stdio.h>
#include <string.h>

#include "latscope/scan.h"
#include "loop.h"

#define LAT2_EXPECTED "\"[N: ]date=S.MS, wait= N us, user= N us, max= N\""

/* Optional "N:" process prefix. */
static int scan_proc(struct lat_scan *sc, uint64_t *id)
{
	struct lat_scan save = *sc;

	if (lat_scan_u64(sc, id) && lat_scan_char(sc, ':')) {
		lat_scan_ws(sc);
		return 1;
	}
	*sc = save;
	return 0;
}

/* [N:] "date=" digits '.': shaped like a lat2 row, as long as wait comes before user. */
static int row_shape(const char *s, size_t len)
{
	struct lat_scan sc;
	uint64_t v;
	const char *u, *w;

	lat_scan_init(&sc, s, len);
	lat_scan_ws(&sc);
	scan_proc(&sc, &v);
	if (!lat_scan_lit(&sc, "date=") || !lat_scan_u64(&sc, &v) || !lat_scan_char(&sc, '.'))
		return 0;
	w = memmem(s, len, "wait=", 5);
	u = memmem(s, len, "user=", 5);
	return w && (!u || w < u);
}

static int parse_row(const char *s, size_t len, struct loop_key *key, int64_t *row,
		     size_t *used)
{
	struct lat_scan sc;

	lat_scan_init(&sc, s, len);
	lat_scan_ws(&sc);
	scan_proc(&sc, &key->proc);
	if (!lat_scan_lit(&sc, "date=") ||
	    !lat_scan_fixed(&sc, LAT_NS_PER_S, &row[LAT_LOOP_TS], NULL))
		return 0;
	if (!lat_scan_char(&sc, ',') || !loop_scan_us(&sc, "wait=", 1, &row[LAT_LOOP_WAIT]) ||
	    !lat_scan_char(&sc, ',') || !loop_scan_us(&sc, "user=", 1, &row[LAT_LOOP_LOOP]) ||
	    !lat_scan_char(&sc, ','))
		return 0;
	/* max is printed without a unit; it is microseconds like the others */
	if (!loop_scan_us(&sc, "max=", 0, &row[LAT_LOOP_MAX]))
		return 0;
	lat_scan_lit(&sc, "us");
	lat_scan_ws(&sc);
	/* the number (or its unit) runs into no letter: "51 <- note" is a note, "51x" junk */
	if (!lat_scan_eol(&sc) && sc.p[-1] != ' ' && sc.p[-1] != '\t')
		return 0;
	*used = (size_t)(sc.p - s);
	row[LAT_LOOP_NBMAX] = LAT_VALUE_NONE;
	return 1;
}

static int is_legend(const char *s, size_t len)
{
	return len > 8 && !memcmp(s, "#process", 8);
}

static enum lat_line_kind lat2_line_kind(const char *s, size_t len)
{
	if (row_shape(s, len))
		return LAT_LINE_ROW;
	/* lat3 claims these too; the segmenter gives the block to whoever has the rows */
	if (is_legend(s, len))
		return LAT_LINE_HEAD;
	if (len && s[0] == '#')
		return LAT_LINE_SOFT;
	return LAT_LINE_NO;
}

static int lat2_probe(const char *peek, size_t len)
{
	if (memmem(peek, len, "date=", 5) && memmem(peek, len, "wait=", 5) &&
	    memmem(peek, len, "user=", 5) && memmem(peek, len, "max=", 4))
		return 85;
	return 0;
}


/* "#processN= ..." legends; other '#' lines are not rows either. */
static int lat2_head(struct lat_block *b, void *ctx, const struct lat_line *l)
{
	(void)ctx;
	if (l->binary || l->s[0] != '#')
		return 0;
	return loop_legend(b, l) ? -LAT_ENOMEM : 1;
}

static int lat2_parse_block(const struct lat_text *t, size_t first, size_t end,
			    struct lat_block *b, struct lat_diag *d)
{
	static const struct loop_how how = {
		.head = lat2_head, .parse = parse_row, .expected = LAT2_EXPECTED,
	};

	return loop_parse(t, first, end, b, d, &how);
}

const struct lat_format fmt_lat2 = {
	.name = "lat2",
	.summary = "lat2 busy-loop logs: date=S.MS, wait= N us, user= N us, max= N [#processN=]",
	.probe = lat2_probe,
	.line_kind = lat2_line_kind,
	.parse_block = lat2_parse_block,
};
