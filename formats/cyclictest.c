// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cyclictest (rt-tests): every output it writes.
 *
 *   T: 0 ( 8049) P:80 I:200 C:   2000 Min:     13 Act:   52 Avg:   69 Max:    3170
 *                                    <- summary (-q, or the last refresh of the default mode)
 *   # Histogram                      <- -h N / --histfile: one row per microsecond,
 *   000010 000001	000001               one count column per thread
 *   # Total: 000001987 000001989      <- trailers, one value per thread
 *   # Min Latencies: 00010 00010
 *   # Avg Latencies: 00070 00063
 *   # Max Latencies: 02137 02026      (-H: a last "all threads" column, not in Min/Avg)
 *   # Histogram Overflows: 00013 00011
 *   # Histogram Overflow at cycle number:
 *   # Thread 0: 01389 01434 ...  [# 00265 others]
 *   Thread 0 Interval: 700           <- -v: "thread: cycle: latency" per sample
 *          0:       0:      51
 *   "rt_test_version:": "2.40", ... <- --json=FILE (rt-tests 2.x)
 *
 * Every thread becomes one histogram titled "thread N": buckets of 1 us
 * ([i, i+1) us: cyclictest truncates to whole microseconds), the overflows in
 * the open bucket [N us, +inf) where N is one past the largest printed row,
 * -v samples bucketed the same way, and the tool's own count/min/avg/max as
 * printed.  Layout and checks: docs/formats.md.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latscope/format.h"
#include "cyclictest_table.h"
#include "import_hist.h"
#include "row_shape.h"

#define CT_LINE_MAX 4096
#define CT_MAX_THREADS 4096
#define CT_EXPECTED_SUM "\"T: N ( TID) P:N I:N C:N Min:N Act:N Avg:N Max:N\""
#define CT_EXPECTED_ROW "a histogram row \"BUCKET COUNT...\" or a \"# Name: values\" trailer"

enum ct_trailer {
	CT_TOTAL, CT_MIN, CT_AVG, CT_MAX, CT_OVERFLOWS, CT_NTRAILERS
};

struct ct_thread {
	int id;
	int64_t tid;				/* the summary's "( 8049)", or NONE */
	int64_t prio, interval;			/* LAT_VALUE_NONE when not printed */
	int64_t cycles, min, avg, max;		/* summary or JSON, ns */
	int64_t trailer[CT_NTRAILERS];		/* -h trailers (Total and Overflows are counts) */
	int64_t listed_overflows, others;	/* cycle numbers listed / "# N others" */
	struct imp_hist_build hb;
	int64_t hist_top;			/* one past the largest bucket row, ns; 0 none */
	uint64_t hist_sum;
	int has_summary, has_hist, has_json_hist;
};

struct ct_state {
	struct ct_thread *th;
	size_t n, cap;
	int kinds;			/* bit per output kind seen, for the title */
	int64_t unit;			/* ns per printed unit: 1000, JSON "resolution_in_ns" 1 */
	int json_threads, json_thread, json_hist, json_other;
	char *cmdline;
	uint64_t refreshes;		/* summary lines that replaced an earlier one */
	uint64_t cut_rows;		/* summary lines that end at "Max:" (value cut off) */
	uint32_t cut_line;		/* the first of them */
	int nmin;			/* values in "# Min Latencies:": threads, not -H's sum */
	int nsecs;			/* summaries printed by -N (ns): Act and Avg 8 wide */
	int no_avg;			/* summaries without Avg (the first cyclictest versions) */
	int64_t break_tid, break_value;	/* -b: "# Break thread:", "# Break value:" (or NONE) */
	char *notes;			/* "# Max Latency:" (old rt-tests) and "# SMIs:" lines */
	int64_t ovf_open;		/* the thread of an overflow list not ended yet, or -1 */
};

enum { CT_K_SUMMARY = 1, CT_K_HIST = 2, CT_K_VERBOSE = 4, CT_K_JSON = 8 };

/* ---- line shapes ---- */

/*
 * "000010 000001	000001": numbers only, each zero-padded to 6 digits at least
 * (rt-tests prints "%06d" and "%06lu"), so that schedcnt's rows are not mine.
 */
static int is_hist_row(const char *s, size_t len)
{
	size_t i = 0, ntok = 0;

	imp_trim(&s, &len);
	while (i < len) {
		size_t st = i;

		while (i < len && s[i] >= '0' && s[i] <= '9')
			i++;
		if (i - st < 6)
			return 0;
		ntok++;
		if (i < len && s[i] != ' ' && s[i] != '\t')
			return 0;
		while (i < len && (s[i] == ' ' || s[i] == '\t'))
			i++;
	}
	return ntok >= 2;
}

/*
 * "00010 00011 00012 # 01960 others": the rest of an overflow list ("%05lu" each) a mailer
 * wrapped onto lines of their own, which only the block can tell (ovf_continues()).
 */
static int is_ovf_piece(const char *s, size_t len)
{
	size_t i = 0, ntok = 0;

	imp_trim(&s, &len);
	while (i < len && s[i] != '#') {
		size_t st = i;

		while (i < len && s[i] >= '0' && s[i] <= '9')
			i++;
		if (i - st < 5 || (i < len && s[i] != ' ' && s[i] != '\t'))
			return 0;
		ntok++;
		while (i < len && (s[i] == ' ' || s[i] == '\t'))
			i++;
	}
	if (i < len)
		return len - i > 7 && !memcmp(s + len - 7, " others", 7);
	/*
	 * One number alone is a pid more often than a list's last cycle ("# pidof
	 * cyclictest" then "29064", LKML 2020): only a zero-padded one ("%05lu") is taken.
	 */
	return ntok > 1 || (ntok == 1 && s[0] == '0');
}

/*
 * "       0:       0:      51": rt-tests prints "%8d:%8lu:%8ld", three fields
 * of 8 characters at least, so that a time of day "10:15:32" is not mine.
 */
static int is_verbose_row(const char *s, size_t len)
{
	size_t field = 0, nfield = 0;

	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	if (!len || s[len - 1] < '0' || s[len - 1] > '9')
		return 0;
	for (size_t i = 0; i <= len; i++) {
		if (i == len || s[i] == ':') {
			if (field < 8 || ++nfield > 3)
				return 0;
			field = 0;
			continue;
		}
		if (s[i] != ' ' && s[i] != '-' && (s[i] < '0' || s[i] > '9'))
			return 0;
		field++;
	}
	return nfield == 3;
}

static const char *const trailer_names[] = {
	"# Total:", "# Min Latencies:", "# Avg Latencies:", "# Max Latencies:",
	"# Histogram Overflows:", "# Histogram Overflow at cycle number:", "# Thread ",
	"# Max Latency:", "# SMIs:", "# Thread Ids:", "# Break thread:", "# Break value:",
};

/* A trailer; "LNICE(-19)  # Avg Latencies: ..." too (a hand-made table, ctt_is_table()) */
static int is_trailer(const char *s, size_t len)
{
	for (size_t i = 0; i < LAT_ARRAY_SIZE(trailer_names); i++)
		if (imp_starts(s, len, trailer_names[i]))
			return 1;
	return ctt_labelled(s, len);
}

/* "# Histogram" alone: the table's head (not "# Histogram Overflows:", a trailer) */
static int is_hist_head(const char *s, size_t len)
{
	imp_trim(&s, &len);
	return len == 11 && !memcmp(s, "# Histogram", 11);
}

/* rt-tests' --json keys, top level and per thread */
static const char *const json_heads[] = { "\"file_version\":" };
static const char *const json_soft[] = {
	"\"cmdline:\":", "\"rt_test_version:\":", "\"start_time\":", "\"end_time\":",
	"\"return_code\":", "\"sysinfo\":", "\"sysname\":", "\"nodename\":", "\"release\":",
	"\"version\":", "\"machine\":", "\"realtime\":", "\"num_threads\":",
	"\"resolution_in_ns\":", "\"thread\":",
};
static const char *const json_rows[] = {
	"\"histogram\":", "\"cycles\":", "\"min\":", "\"max\":", "\"avg\":", "\"cpu\":",
	"\"node\":",
};

static int starts_any(const char *s, size_t len, const char *const *tab, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (imp_starts(s, len, tab[i]))
			return 1;
	return 0;
}

/* "\"11\": 2," or "\"0\": {" */
static int is_json_numkey(const char *s, size_t len)
{
	size_t i = 1;

	imp_trim(&s, &len);
	if (len < 4 || s[0] != '"')
		return 0;
	while (i < len && s[i] >= '0' && s[i] <= '9')
		i++;
	return i > 1 && i + 1 < len && s[i] == '"' && s[i + 1] == ':';
}

static int is_brace(const char *s, size_t len)
{
	imp_trim(&s, &len);
	return (len == 1 && (s[0] == '{' || s[0] == '}')) || (len == 2 && !memcmp(s, "},", 2));
}

/* A summary line: "T:" then a thread number */
static int is_summary(const char *s, size_t len)
{
	imp_trim(&s, &len);
	return len > 3 && !memcmp(s, "T:", 2) && memmem(s, len, "Max:", 4);
}

/*
 * Before "policy:" was added, the bare /proc/loadavg: "0.97 1.02 1.18 4/545 3576"
 * (three loads, runnable/total, the last pid), a note may follow ("293.12
 * 276.22 198.22 88/202 12270 <---- output from /proc/loadavg", LKML 2005).
 */
static int is_loadavg(const char *s, size_t len)
{
	struct lat_scan sc;
	int64_t v;
	uint64_t u;

	lat_scan_init(&sc, s, len);
	lat_scan_ws(&sc);
	for (int k = 0; k < 3; k++) {
		int dec = 0;

		if ((k && !lat_scan_ws(&sc)) || !lat_scan_fixed(&sc, 100, &v, &dec) || dec != 2)
			return 0;
	}
	if (!lat_scan_ws(&sc) || !lat_scan_u64(&sc, &u) || !lat_scan_char(&sc, '/') ||
	    !lat_scan_u64(&sc, &u) || !lat_scan_ws(&sc) || !lat_scan_u64(&sc, &u))
		return 0;
	return lat_scan_eol(&sc) || lat_scan_ws(&sc) > 0;
}

/* The default mode's refresh line, after the cursor-up escape: "\e[3Apolicy: fifo: ..." */
static int is_policy(const char *s, size_t len)
{
	imp_trim(&s, &len);
	if (len && s[0] == '\033') {
		const char *p = memchr(s, 'A', len);

		if (!p)
			return 0;
		len -= (size_t)(p + 1 - s);
		s = p + 1;
	}
	if (len >= 7 && !memcmp(s, "policy:", 7))
		return 1;
	return is_loadavg(s, len);
}

/* The loadavg line above a run's summaries is the run's own: no label, look above it. */
/*
 * The run's own command line ("./cyclictest -a -t -m -i200 -d0 -p99", "#
 * cyclictest ...") sits between its label and its rows, as "policy:" does.
 */
static int is_command(const char *s, size_t len)
{
	const char *c;

	imp_trim(&s, &len);
	c = memmem(s, len, "cyclictest ", 11);
	if (!c)
		return 0;
	/* only a prompt or a path before it: "# ", "$ sudo ", "./", "~/rt-tests/" */
	for (const char *p = s; p < c; p++)
		if (*p == ' ' && !(p - s == 1 && (s[0] == '#' || s[0] == '$')) &&
		    !(p - s >= 4 && !memcmp(p - 4, "sudo", 4)))
			return 0;
	return 1;
}

static int ct_label_skip(const char *s, size_t len)
{
	return is_policy(s, len) || is_command(s, len);
}

/*
 * "# Histogram" is a row, not a head: a head after rows ends a block, and
 * trailers pasted above their table (TI's performance guide prints "# Total:" ...
 * first) belong to it.  A histogram after another run's rows is cut by ct_split().
 */
static enum lat_line_kind ct_line_kind(const char *s, size_t len)
{
	if (is_summary(s, len) || is_hist_row(s, len) || is_trailer(s, len) ||
	    is_verbose_row(s, len) || is_hist_head(s, len) || is_ovf_piece(s, len))
		return LAT_LINE_ROW;
	if (imp_starts(s, len, "# Histogram") || imp_starts(s, len, "Thread ") ||
	    starts_any(s, len, json_heads, LAT_ARRAY_SIZE(json_heads)))
		return LAT_LINE_HEAD;
	if (starts_any(s, len, json_rows, LAT_ARRAY_SIZE(json_rows)) || is_json_numkey(s, len))
		return LAT_LINE_ROW;
	if (starts_any(s, len, json_soft, LAT_ARRAY_SIZE(json_soft)) || is_brace(s, len) ||
	    is_policy(s, len) || imp_is_elision(s, len) ||
	    imp_starts(s, len, "# /dev/cpu_dma_latency") ||
	    imp_starts(s, len, "Max CPUs =") || imp_starts(s, len, "Online CPUs ="))
		return LAT_LINE_SOFT;
	return LAT_LINE_NO;
}

static int ct_probe(const char *peek, size_t len)
{
	if (memmem(peek, len, "\"rt_test_version:\"", 18))
		return 95;
	if (memmem(peek, len, "# Histogram", 11) &&
	    (memmem(peek, len, "# Total:", 8) || memmem(peek, len, "# Min Latencies:", 16)))
		return 90;
	if (memmem(peek, len, "T: 0 (", 6) && memmem(peek, len, " C:", 3) &&
	    memmem(peek, len, " Max:", 5))
		return 90;
	if (memmem(peek, len, "Thread 0 Interval:", 18))
		return 80;
	return 0;
}

/* ---- threads ---- */

static struct ct_thread *thread_of(struct ct_state *st, int64_t id, int *err)
{
	struct ct_thread *t;

	for (size_t i = 0; i < st->n; i++)
		if (st->th[i].id == id)
			return &st->th[i];
	if (id < 0 || id >= CT_MAX_THREADS || st->n >= CT_MAX_THREADS)
		return NULL;
	if (lat_grow(&st->th, &st->cap, st->n + 1, sizeof(*st->th))) {
		*err = -LAT_ENOMEM;
		return NULL;
	}
	t = &st->th[st->n];
	memset(t, 0, sizeof(*t));
	t->id = (int)id;
	t->prio = t->interval = t->cycles = t->min = t->avg = t->max = LAT_VALUE_NONE;
	t->tid = LAT_VALUE_NONE;
	for (int k = 0; k < CT_NTRAILERS; k++)
		t->trailer[k] = LAT_VALUE_NONE;
	t->listed_overflows = 0;
	t->others = 0;
	if (imp_hist_build_init(&t->hb, NULL)) {
		*err = -LAT_ENOMEM;
		return NULL;
	}
	st->n++;
	return t;
}

static void note_line(struct lat_histogram *h, uint32_t line)
{
	if (!h->first_line || line < h->first_line)
		h->first_line = line;
	if (line > h->last_line)
		h->last_line = line;
}

/* ---- summaries ---- */

/* "T: 0 ( 8049) P:80 I:200 C:   2000 Min:     13 Act:   52 Avg:   69 Max:    3170" */
static int parse_summary(struct ct_state *st, const char *buf, uint32_t line, int *err)
{
	struct lat_scan sc;
	struct ct_thread *t;
	int64_t id, tid, v[7], unit;
	static const char *const keys[] = { "P:", "I:", "C:", "Min:", "Act:", "Avg:", "Max:" };
	int seen = 0, wide = 0, old = 0;

	lat_scan_init(&sc, buf, strlen(buf));
	lat_scan_ws(&sc);
	if (!lat_scan_lit(&sc, "T:") || (lat_scan_ws(&sc), !lat_scan_i64(&sc, &id)))
		return 0;
	lat_scan_ws(&sc);
	if (!lat_scan_char(&sc, '(') || (lat_scan_ws(&sc), !lat_scan_i64(&sc, &tid)) ||
	    (lat_scan_ws(&sc), !lat_scan_char(&sc, ')')))
		return 0;
	for (int k = 0; k < 7; k++)
		v[k] = LAT_VALUE_NONE;
	while (lat_scan_ws(&sc), !lat_scan_eol(&sc)) {
		const char *w;
		size_t wl;
		int k;

		for (k = 0; k < 7; k++)
			if (lat_scan_lit(&sc, keys[k]))
				break;
		if (k < 7) {
			const char *f = sc.p;

			lat_scan_ws(&sc);
			/* a paste cut after the last key: the row without its maximum */
			if (k == 6 && lat_scan_eol(&sc)) {
				seen |= 1 << k;
				if (!st->cut_rows++)
					st->cut_line = line;
				break;
			}
			if (!lat_scan_i64(&sc, &v[k]))
				return 0;
			seen |= 1 << k;
			/* -N prints Act and Avg 8 wide (ns), the default 5 wide (us) */
			if (k == 4 || k == 5)
				wide += sc.p - f >= 8;
			/* cyclictest 0.x printed every field 8 wide, "I:    1000", in us */
			if (k == 1)
				old = sc.p - f >= 8;
			continue;
		}
		/* a field this version adds (SMI:, ...): a word "KEY:" and a value */
		if (!lat_scan_word(&sc, &w, &wl) || w[wl - 1] != ':')
			return 0;
		lat_scan_ws(&sc);
		if (!lat_scan_word(&sc, &w, &wl))
			return 0;
	}
	/* C, Min and Max are what the summary is for (the first versions print no Avg) */
	if ((seen & 0x4c) != 0x4c)
		return 0;
	t = thread_of(st, id, err);
	if (!t)
		return *err ? 0 : -1;
	if (t->has_summary)
		st->refreshes++;
	t->has_summary = 1;
	t->tid = tid;
	t->prio = v[0];
	t->interval = v[1];
	t->cycles = v[2];
	unit = wide == 2 && !old ? 1 : st->unit;
	st->nsecs |= wide == 2 && !old;
	st->no_avg |= !(seen & 0x20);
	/* the default mode's first refresh has no sample yet: Min:1000000 C:0 */
	t->min = v[2] ? v[3] * unit : LAT_VALUE_NONE;
	t->avg = v[2] && v[5] != LAT_VALUE_NONE ? v[5] * unit : LAT_VALUE_NONE;
	t->max = v[2] && v[6] != LAT_VALUE_NONE ? v[6] * unit : LAT_VALUE_NONE;
	note_line(t->hb.h, line);
	st->kinds |= CT_K_SUMMARY;
	return 1;
}

/* ---- histograms ---- */

/* Bucket @idx (in st->unit) of thread @t's histogram gets @c samples; -1 out of memory. */
static int add_bucket(struct ct_state *st, struct ct_thread *t, uint64_t idx, uint64_t c,
		      uint32_t line, int *err)
{
	int64_t lo = (int64_t)idx * st->unit, hi = (int64_t)(idx + 1) * st->unit;

	if (imp_hist_build_bucket(&t->hb, lo, hi, c, line)) {
		*err = -LAT_ENOMEM;
		return -1;
	}
	t->has_hist = 1;
	t->hist_sum += c;
	if (hi > t->hist_top)
		t->hist_top = hi;
	return 0;
}

static int parse_hist_row(struct ct_state *st, const char *buf, uint32_t line, int *err)
{
	struct lat_scan sc;
	uint64_t idx, c;
	int col = 0;

	lat_scan_init(&sc, buf, strlen(buf));
	lat_scan_ws(&sc);
	if (!lat_scan_u64(&sc, &idx) || idx > (uint64_t)INT64_MAX / 1000000)
		return 0;
	while (lat_scan_ws(&sc), !lat_scan_eol(&sc)) {
		struct ct_thread *t;

		if (!lat_scan_u64(&sc, &c))
			return 0;
		t = thread_of(st, col++, err);
		if (!t)
			return *err ? 0 : -1;
		if (add_bucket(st, t, idx, c, line, err))
			return 0;
	}
	st->kinds |= CT_K_HIST;
	return col > 0;
}

/* Keeps a trailer line latscope has no model for, to show it as a finding. */
static int add_note(struct ct_state *st, const char *buf, int *err)
{
	size_t have = st->notes ? strlen(st->notes) : 0, n = strlen(buf);
	char *p = realloc(st->notes, have + n + 3);

	if (!p) {
		*err = -LAT_ENOMEM;
		return 0;
	}
	st->notes = p;
	if (have)
		memcpy(p + have, "; ", 2), have += 2;
	memcpy(p + have, buf, n + 1);
	return 1;
}

/* "# Max Latencies: 02137 02026": one value per thread, in thread order */
static int parse_trailer(struct ct_state *st, const char *buf, int *err)
{
	static const struct {
		const char *name;
		int k;
	} tab[] = {
		{ "# Total:", CT_TOTAL }, { "# Min Latencies:", CT_MIN },
		{ "# Avg Latencies:", CT_AVG }, { "# Max Latencies:", CT_MAX },
		{ "# Histogram Overflows:", CT_OVERFLOWS },
	};
	struct lat_scan sc;
	int col = 0;

	lat_scan_init(&sc, buf, strlen(buf));
	lat_scan_ws(&sc);
	if (lat_scan_lit(&sc, "# Histogram Overflow at cycle number:")) {
		lat_scan_ws(&sc);
		return lat_scan_eol(&sc);
	}
	if (imp_starts(buf, strlen(buf), "# Max Latency:") ||
	    imp_starts(buf, strlen(buf), "# SMIs:"))
		return add_note(st, buf, err);
	/* -b: "# Thread Ids: 28842", "# Break thread: 28842", "# Break value: 513" */
	if (lat_scan_lit(&sc, "# Thread Ids:")) {
		int64_t v;

		while (lat_scan_ws(&sc), !lat_scan_eol(&sc))
			if (!lat_scan_i64(&sc, &v))
				return 0;
		return 1;
	}
	if (lat_scan_lit(&sc, "# Break ")) {
		int value = lat_scan_lit(&sc, "value:");
		int64_t v;

		if (!value && !lat_scan_lit(&sc, "thread:"))
			return 0;
		lat_scan_ws(&sc);
		if (!lat_scan_i64(&sc, &v) || (lat_scan_ws(&sc), !lat_scan_eol(&sc)))
			return 0;
		if (value)
			st->break_value = v * st->unit;
		else
			st->break_tid = v;
		return 1;
	}
	if (lat_scan_lit(&sc, "# Thread ")) {
		/* "# Thread 0: 01389 01434 ... [# 00265 others]" */
		int64_t id, v;
		struct ct_thread *t;

		if (!lat_scan_i64(&sc, &id) || !lat_scan_char(&sc, ':'))
			return 0;
		t = thread_of(st, id, err);
		if (!t)
			return *err ? 0 : -1;
		while (lat_scan_ws(&sc), !lat_scan_eol(&sc)) {
			if (lat_scan_char(&sc, '#')) {
				lat_scan_ws(&sc);
				if (!lat_scan_i64(&sc, &v) || (lat_scan_ws(&sc),
				    !lat_scan_lit(&sc, "others")))
					return 0;
				t->others = v;
				continue;
			}
			if (!lat_scan_i64(&sc, &v))
				return 0;
			t->listed_overflows++;
		}
		st->ovf_open = t->others ? -1 : id;	/* "# N others" ends the list */
		return 1;
	}
	for (size_t i = 0; i < LAT_ARRAY_SIZE(tab); i++) {
		if (!lat_scan_lit(&sc, tab[i].name))
			continue;
		while (lat_scan_ws(&sc), !lat_scan_eol(&sc)) {
			struct ct_thread *t;
			int64_t v;

			/* Avg may have decimals in some versions: keep ns */
			if (!lat_scan_fixed(&sc, st->unit, &v, NULL))
				return 0;
			t = thread_of(st, col++, err);
			if (!t)
				return *err ? 0 : -1;
			if (tab[i].k == CT_MIN)
				st->nmin = col;
			if (tab[i].k == CT_TOTAL || tab[i].k == CT_OVERFLOWS)
				v /= st->unit;
			t->trailer[tab[i].k] = v;
		}
		return col > 0;
	}
	return 0;
}

/*
 * A line a mailer wrapped off "# Thread 0: 01389 01434 ...": more cycle numbers of the
 * thread whose list is open, maybe ending in "# 00265 others".  Read as histogram rows
 * (numbers only) they would add buckets nobody printed.  1 when @s was such a line.
 */
static int ovf_continues(struct ct_state *st, const char *s, size_t len, int *err)
{
	struct lat_scan sc;
	int64_t v, others = -1;
	struct ct_thread *t;
	int64_t n = 0;

	lat_scan_init(&sc, s, len);
	while (lat_scan_ws(&sc), !lat_scan_eol(&sc)) {
		if (lat_scan_char(&sc, '#')) {
			lat_scan_ws(&sc);
			if (!lat_scan_i64(&sc, &others) || (lat_scan_ws(&sc),
			    !lat_scan_lit(&sc, "others")) || (lat_scan_ws(&sc), !lat_scan_eol(&sc)))
				return 0;
			break;
		}
		if (!lat_scan_i64(&sc, &v) || v < 0)
			return 0;
		n++;
	}
	if (!n && others < 0)
		return 0;
	t = thread_of(st, st->ovf_open, err);
	if (!t)
		return 0;
	t->listed_overflows += n;
	if (others >= 0) {
		t->others = others;
		st->ovf_open = -1;
	}
	return 1;
}

/* ---- -v ---- */

static int parse_verbose(struct ct_state *st, const char *buf, uint32_t line, int *err)
{
	struct lat_scan sc;
	int64_t id, cycle, lat;
	struct ct_thread *t;

	lat_scan_init(&sc, buf, strlen(buf));
	lat_scan_ws(&sc);
	if (!lat_scan_i64(&sc, &id) || !lat_scan_char(&sc, ':') || (lat_scan_ws(&sc),
	    !lat_scan_i64(&sc, &cycle)) || !lat_scan_char(&sc, ':') || (lat_scan_ws(&sc),
	    !lat_scan_i64(&sc, &lat)) || (lat_scan_ws(&sc), !lat_scan_eol(&sc)))
		return 0;
	if (lat > INT64_MAX / 1000000 || lat < -INT64_MAX / 1000000)
		return 0;
	t = thread_of(st, id, err);
	if (!t)
		return *err ? 0 : -1;
	if (imp_hist_build_value(&t->hb, lat * st->unit, line)) {
		*err = -LAT_ENOMEM;
		return 0;
	}
	st->kinds |= CT_K_VERBOSE;
	return 1;
}

/* ---- --json ---- */

static int json_value(struct lat_scan *sc, const char *key, int64_t unit, int64_t *v)
{
	lat_scan_ws(sc);
	if (!lat_scan_lit(sc, key))
		return 0;
	lat_scan_ws(sc);
	if (!lat_scan_fixed(sc, unit, v, NULL))
		return -1;
	lat_scan_ws(sc);
	lat_scan_char(sc, ',');
	lat_scan_ws(sc);
	return lat_scan_eol(sc) ? 1 : -1;
}

static char *json_string(const char *buf)
{
	const char *q = strstr(buf, "\":");
	const char *a, *z;

	if (!q)
		return NULL;
	a = strchr(q + 2, '"');
	z = a ? strrchr(a + 1, '"') : NULL;
	if (!a || !z)
		return NULL;
	return strndup(a + 1, (size_t)(z - a - 1));
}

static int parse_json(struct ct_state *st, const char *buf, uint32_t line, int *err)
{
	static const char *const fields[] = { "\"cycles\":", "\"min\":", "\"max\":", "\"avg\":",
					      "\"cpu\":", "\"node\":" };
	const char *s = buf;
	size_t len = strlen(buf);
	struct lat_scan sc;
	int64_t v;
	struct ct_thread *t;

	imp_trim(&s, &len);
	st->kinds |= CT_K_JSON;
	if (imp_starts(s, len, "\"cmdline:\":")) {
		free(st->cmdline);
		st->cmdline = json_string(s);
		return 1;
	}
	if (starts_any(s, len, json_heads, LAT_ARRAY_SIZE(json_heads)))
		return 1;
	lat_scan_init(&sc, s, len);
	if (json_value(&sc, "\"resolution_in_ns\":", 1, &v) == 1) {
		st->unit = v ? 1 : 1000;
		return 1;
	}
	if (is_brace(s, len)) {
		if (s[0] != '}')
			return 1;
		if (st->json_hist)
			st->json_hist = 0;
		else if (st->json_thread >= 0)
			st->json_thread = -1;
		else if (st->json_other)
			st->json_other = 0;
		else
			st->json_threads = 0;
		return 1;
	}
	if (imp_starts(s, len, "\"thread\":")) {
		st->json_threads = 1;
		return 1;
	}
	if (imp_starts(s, len, "\"sysinfo\":")) {
		st->json_other = !memchr(s, '}', len);
		return 1;
	}
	if (starts_any(s, len, json_soft, LAT_ARRAY_SIZE(json_soft)))
		return 1;
	if (st->json_threads && st->json_thread < 0 && is_json_numkey(s, len)) {
		lat_scan_char(&sc, '"');
		if (!lat_scan_i64(&sc, &v) || !(t = thread_of(st, v, err)))
			return *err ? 0 : -1;
		st->json_thread = (int)v;
		return 1;
	}
	if (st->json_thread < 0)
		return 0;
	t = thread_of(st, st->json_thread, err);
	if (!t)
		return *err ? 0 : -1;
	if (imp_starts(s, len, "\"histogram\":")) {
		/* "histogram": {      },  is an empty one on one line */
		st->json_hist = !memchr(s, '}', len);
		t->has_json_hist = 1;
		return 1;
	}
	if (st->json_hist) {
		uint64_t idx, c;

		if (!lat_scan_char(&sc, '"') || !lat_scan_u64(&sc, &idx) ||
		    !lat_scan_lit(&sc, "\":") || (lat_scan_ws(&sc), !lat_scan_u64(&sc, &c)) ||
		    idx > (uint64_t)INT64_MAX / 1000000)
			return 0;
		if (add_bucket(st, t, idx, c, line, err))
			return 0;
		return 1;
	}
	for (size_t i = 0; i < LAT_ARRAY_SIZE(fields); i++) {
		int r;

		lat_scan_init(&sc, s, len);
		r = json_value(&sc, fields[i], i < 4 && i ? st->unit : 1, &v);
		if (!r)
			continue;
		if (r < 0)
			return 0;
		t->has_summary = 1;
		note_line(t->hb.h, line);
		if (i == 0)
			t->cycles = v;
		else if (i == 1)
			t->min = v;
		else if (i == 2)
			t->max = v;
		else if (i == 3)
			t->avg = v;
		return 1;
	}
	return 0;
}

/* ---- the block ---- */

static int cmp_thread(const void *a, const void *b)
{
	const struct ct_thread *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

static int finish_thread(struct ct_state *st, struct ct_thread *t, struct lat_block *b)
{
	struct lat_histogram *h = t->hb.h;
	struct lat_hist_printed *p = &h->printed;
	int64_t ovf = LAT_VALUE_NONE;
	char title[64];

	/* -H: one more column than threads (the Min line has one value per thread) */
	if (st->nmin && t->id == st->nmin && t->has_hist && !t->has_summary)
		snprintf(title, sizeof(title), "all threads");
	else
		snprintf(title, sizeof(title), "thread %d", t->id);
	h->title = strdup(title);
	if (!h->title)
		return -LAT_ENOMEM;
	if (t->has_summary) {
		*p = (struct lat_hist_printed){ t->cycles, t->min, t->avg, t->max };
	} else if (t->trailer[CT_MIN] != LAT_VALUE_NONE || t->trailer[CT_MAX] != LAT_VALUE_NONE) {
		*p = (struct lat_hist_printed){ LAT_VALUE_NONE, t->trailer[CT_MIN],
						t->trailer[CT_AVG], t->trailer[CT_MAX] };
	}
	h->has_printed = t->has_summary || p->min_ns != LAT_VALUE_NONE ||
			 p->max_ns != LAT_VALUE_NONE;
	if (t->trailer[CT_OVERFLOWS] != LAT_VALUE_NONE) {
		ovf = t->trailer[CT_OVERFLOWS];
		if (t->trailer[CT_TOTAL] != LAT_VALUE_NONE)
			h->printed_total = (uint64_t)(t->trailer[CT_TOTAL] + ovf);
	} else if (t->has_json_hist && t->cycles != LAT_VALUE_NONE && t->has_hist &&
		   (uint64_t)t->cycles > t->hist_sum) {
		/* --json has no overflow count: the cycles the histogram does not hold */
		ovf = t->cycles - (int64_t)t->hist_sum;
		lat_block_add_finding(b, "overflow-inferred", LAT_SEV_INFO,
				      "thread %d: %lld of %lld cycles are not in the JSON "
				      "histogram: counted as overflows at or above %lld us", t->id,
				      (long long)ovf, (long long)t->cycles,
				      (long long)(t->hist_top / 1000));
	}
	if (ovf > 0 && t->has_hist &&
	    imp_hist_build_bucket(&t->hb, t->hist_top, INT64_MAX, (uint64_t)ovf, 0))
		return -LAT_ENOMEM;
	if (t->listed_overflows && t->trailer[CT_OVERFLOWS] != LAT_VALUE_NONE &&
	    t->listed_overflows + t->others != t->trailer[CT_OVERFLOWS])
		lat_block_add_finding(b, "overflow-cycles", LAT_SEV_WARN,
				      "thread %d: %lld overflow cycles listed and %lld others, but "
				      "%lld overflows counted", t->id,
				      (long long)t->listed_overflows, (long long)t->others,
				      (long long)t->trailer[CT_OVERFLOWS]);
	return imp_hist_build_finish(&t->hb, st->unit, b);
}

/* -b stopped the run: which thread, at what latency, and whether its summary agrees. */
static int break_finding(const struct ct_state *st, struct lat_block *b)
{
	const struct ct_thread *t = NULL;
	char d[32];

	for (size_t i = 0; i < st->n; i++)
		if (st->th[i].tid == st->break_tid)
			t = &st->th[i];
	lat_fmt_duration(st->break_value, d, sizeof(d));
	if (t && t->max != LAT_VALUE_NONE && t->max != st->break_value)
		return lat_block_add_finding(b, "breaktrace", LAT_SEV_WARN,
					     "-b stopped the run at %s on thread %d (tid %lld), but "
					     "its summary's Max differs", d, t->id,
					     (long long)st->break_tid);
	if (t)
		return lat_block_add_finding(b, "breaktrace", LAT_SEV_INFO,
					     "-b stopped the run: thread %d (tid %lld) woke %s late "
					     "(its Max)", t->id, (long long)st->break_tid, d);
	return lat_block_add_finding(b, "breaktrace", LAT_SEV_INFO,
				     "-b stopped the run: tid %lld woke %s late",
				     (long long)st->break_tid, d);
}

static char *block_title(const struct ct_state *st)
{
	char buf[512];
	size_t n = 0;

	n += (size_t)snprintf(buf + n, sizeof(buf) - n, "cyclictest");
	if (st->kinds & CT_K_JSON)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, " --json");
	if (st->kinds & CT_K_SUMMARY)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, " summary");
	if (st->kinds & CT_K_HIST)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, " histogram");
	if (st->kinds & CT_K_VERBOSE)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, " -v samples");
	if (st->cmdline && n < sizeof(buf))
		snprintf(buf + n, sizeof(buf) - n, ": %s", st->cmdline);
	return strdup(buf);
}

/* ---- runs: several cyclictest processes pasted one after the other ---- */

/* "T: 0 ( 4541) ...": the thread number and its tid; 0 when @s is no summary line. */
static int summary_ids(const struct lat_line *l, int64_t *id, int64_t *tid)
{
	struct lat_scan sc;

	if (l->binary || !is_summary(l->s, l->len))
		return 0;
	lat_scan_init(&sc, l->s, l->len);
	lat_scan_ws(&sc);
	if (!lat_scan_lit(&sc, "T:") || (lat_scan_ws(&sc), !lat_scan_i64(&sc, id)))
		return 0;
	lat_scan_ws(&sc);
	return lat_scan_char(&sc, '(') && (lat_scan_ws(&sc), lat_scan_i64(&sc, tid));
}

#define CT_RUN_THREADS 256

/* A row of a run other than its trailers: a summary, a histogram row, -v, JSON */
static int run_row(const struct lat_line *l)
{
	return !l->binary && !lat_line_blank(l) && ct_line_kind(l->s, l->len) == LAT_LINE_ROW &&
	       !is_trailer(l->s, l->len) && !is_hist_head(l->s, l->len);
}

/*
 * The default mode refreshes a summary line with the same thread ids: a
 * summary line whose thread had another tid before is another process, a new
 * run ("6.6.58-stable" then its summaries, mail/011).  The block is cut there,
 * and at a "# Histogram" after a run's rows (a second histogram, or one printed
 * after the summaries): only trailers may stand above their own table.
 */
static size_t ct_split(const struct lat_text *t, size_t first, size_t end)
{
	struct { int64_t id, tid; } seen[CT_RUN_THREADS];
	size_t n = 0;
	int rows = 0;

	for (size_t i = first; i < end; i++) {
		const struct lat_line *l = &t->lines[i];
		int64_t id, tid;
		size_t k;

		if (i > first && !l->binary && is_hist_head(l->s, l->len) && rows)
			return i;
		rows |= run_row(l);
		if (!summary_ids(l, &id, &tid))
			continue;
		for (k = 0; k < n && seen[k].id != id; k++)
			;
		/* the default mode's first refresh, before the thread ran, prints tid 0 */
		if (k < n && seen[k].tid && tid && seen[k].tid != tid)
			return i;
		if (k < n)
			seen[k].tid = tid ? tid : seen[k].tid;
		if (k == n) {
			if (n == CT_RUN_THREADS)
				return end;	/* more threads than are told apart: one block */
			seen[n].id = id;
			seen[n++].tid = tid;
		}
	}
	return end;
}

static int parse_line(struct ct_state *st, const char *buf, size_t len, uint32_t lineno,
		      int *err)
{
	if (is_summary(buf, len))
		return parse_summary(st, buf, lineno, err);
	if (is_hist_row(buf, len))
		return parse_hist_row(st, buf, lineno, err);
	if (is_trailer(buf, len))
		return parse_trailer(st, buf, err);
	if (is_hist_head(buf, len))
		return 1;
	if (is_verbose_row(buf, len))
		return parse_verbose(st, buf, lineno, err);
	return parse_json(st, buf, lineno, err);
}

static int ct_parse_block(const struct lat_text *t, size_t first, size_t end,
			  struct lat_block *b, struct lat_diag *d)
{
	struct ct_state st = { .unit = 1000, .json_thread = -1, .break_tid = LAT_VALUE_NONE,
			       .break_value = LAT_VALUE_NONE, .ovf_open = -1 };
	char *buf = malloc(CT_LINE_MAX);
	int ret = 0, err = 0;

	if (ctt_is_table(t, first, end)) {
		free(buf);
		return ctt_parse(t, first, end, b, d);
	}
	b->schema = LAT_SCHEMA_HISTOGRAM;
	if (!buf)
		return -LAT_ENOMEM;
	for (size_t i = first; i < end && !ret; i++) {
		const struct lat_line *l = &t->lines[i];
		enum lat_line_kind k;
		int r;

		if (lat_line_blank(l) || l->binary) {
			st.ovf_open = -1;
			if (!l->binary)
				continue;
		} else if (st.ovf_open >= 0) {
			if (ovf_continues(&st, l->s, l->len, &err))
				continue;
			st.ovf_open = -1;
			if (err) {
				ret = err;
				break;
			}
		}
		k = l->binary ? LAT_LINE_NO : ct_line_kind(l->s, l->len);
		if (k == LAT_LINE_SOFT && !starts_any(l->s, l->len, json_soft,
						      LAT_ARRAY_SIZE(json_soft)) &&
		    !is_brace(l->s, l->len))
			continue;
		if (k == LAT_LINE_HEAD && !starts_any(l->s, l->len, json_heads,
						      LAT_ARRAY_SIZE(json_heads)))
			continue;
		r = 0;
		if (k != LAT_LINE_NO && imp_copy(l->s, l->len, buf, CT_LINE_MAX))
			r = parse_line(&st, buf, strlen(buf), l->lineno, &err);
		if (err) {
			ret = err;
			break;
		}
		if (r > 0)
			continue;
		b->skipped_lines++;
		if (r < 0)
			lat_diag_at(d, l->lineno, "expected a thread number from 0 to %d",
				    CT_MAX_THREADS - 1);
		else
			lat_diag_at(d, l->lineno, "expected %s, %s, a -v row "
				    "\"THREAD: CYCLE: LATENCY\" or an rt-tests --json line",
				    CT_EXPECTED_SUM, CT_EXPECTED_ROW);
	}
	free(buf);
	lat_sort(st.th, st.n, sizeof(*st.th), cmp_thread);
	for (size_t i = 0; i < st.n && !ret; i++)
		ret = finish_thread(&st, &st.th[i], b);
	for (size_t i = 0; i < st.n; i++)
		imp_hist_build_drop(&st.th[i].hb);
	if (!ret && st.refreshes)
		ret = lat_block_add_finding(b, "refreshes", LAT_SEV_INFO,
					    "%llu summary lines were refreshes of an earlier one: "
					    "the last of each thread is kept",
					    (unsigned long long)st.refreshes);
	if (!ret && st.cut_rows)
		ret = lat_block_add_finding(b, "row-cut", LAT_SEV_INFO,
					    "line %u: %llu summary line%s end%s at \"Max:\" without "
					    "its value (the paste was cut there): count, min and avg "
					    "are read, the maximum is unknown", st.cut_line,
					    (unsigned long long)st.cut_rows, st.cut_rows == 1 ? "" : "s",
					    st.cut_rows == 1 ? "s" : "");
	if (!ret && st.nsecs)
		ret = lat_block_add_finding(b, "nanoseconds", LAT_SEV_INFO,
					    "the summaries print Act and Avg 8 wide: "
					    "cyclictest -N, their values are read as ns");
	if (!ret && st.no_avg)
		ret = lat_block_add_finding(b, "no-avg", LAT_SEV_INFO,
					    "the summaries print no Avg (the first cyclictest "
					    "versions, 2005): the average is unknown");
	if (!ret && st.break_value != LAT_VALUE_NONE)
		ret = break_finding(&st, b);
	if (!ret && st.notes)
		ret = lat_block_add_finding(b, "trailer", LAT_SEV_INFO, "%s", st.notes);
	if (!ret && (b->title = block_title(&st)) == NULL)
		ret = -LAT_ENOMEM;
	if (!ret && (st.kinds & CT_K_SUMMARY))
		ret = imp_label_title(t, first, ct_label_skip, NULL, b);
	free(st.th);
	free(st.cmdline);
	free(st.notes);
	if (ret)
		return ret;
	return b->nhist ? 0 : -LAT_EEMPTY;
}

static const lat_row_shape row_shapes[] = { fmt_row_ct_summary, NULL };

const struct lat_format fmt_cyclictest = {
	.name = "cyclictest",
	.summary = "cyclictest (rt-tests): summaries (-q and the default refresh), -h/--histfile "
		   "histograms with their trailers, -v samples, --json",
	.probe = ct_probe,
	.line_kind = ct_line_kind,
	.parse_block = ct_parse_block,
	.split = ct_split,
	.row_shapes = row_shapes,
};
