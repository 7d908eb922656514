// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perf-sched: the text of `perf sched latency` and `perf sched timehist`.
 *
 * latency (one row per task or per comm with -p off):
 *   Task        | Runtime ms | Switches | Avg delay ms    | Max delay ms    | Max delay start ...
 *   sleep:8651  |   9.026 ms |        2 | avg:  12.002 ms | max:  24.003 ms | max start: ...
 *   TOTAL:        |   2121.176 ms |      628 |
 * Older perf prints "Average delay ms | Maximum delay ms | Maximum delay at" and "max at: T s".
 * Each task is a histogram without buckets holding what perf printed: count =
 * Switches, avg and max delay; the TOTAL row cross-checks the switches.
 *
 * timehist (one row per context switch):
 *          time    cpu  task name     wait time  sch delay   run time
 *    225.421695 [0000]  migration/0[18]   0.000      0.004      0.017
 * The "sch delay" column (runnable to running, ms with µs resolution) becomes
 * one histogram per CPU with 1 µs buckets.  Details: docs/formats.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latscope/format.h"
#include "import_hist.h"
#include "perf_sched_map.h"
#include "row_shape.h"

#define PS_LINE_MAX 1024
#define PS_MAX_CPUS 8192

/* "Task | Runtime ms | Switches | Avg delay ms | ..." (perf 6.x: "Count" for "Switches") */
static int is_lat_header(const char *s, size_t len)
{
	return memmem(s, len, "Task", 4) && memchr(s, '|', len) && memmem(s, len, "delay", 5) &&
	       (memmem(s, len, "Switches", 8) || memmem(s, len, "Count", 5));
}

/* "time cpu task name wait time sch delay run time [pre-mig time] [state]" */
static int is_th_header(const char *s, size_t len)
{
	return memmem(s, len, "wait time", 9) &&
	       (memmem(s, len, "sch delay", 9) || memmem(s, len, "task name", 9));
}

/*
 * A piece of a header a mailer wrapped ("Max delay ms | Max delay start | Max
 * delay end |", "delay   run time  state", "(msec)     (msec)"): nothing but
 * the headers' own words.
 */
static int is_header_piece(const char *s, size_t len)
{
	static const char *const words[] = {
		"Task", "Runtime", "Switches", "Count", "Avg", "Average", "Max", "Maximum", "delay",
		"ms", "start", "end", "at", "|", "time", "cpu", "task", "name", "wait", "sch",
		"run", "state", "pre-mig", "next", "[tid/pid]", "(msec)",
	};
	struct lat_scan sc;
	const char *w;
	size_t wl;
	int n = 0;

	lat_scan_init(&sc, s, len);
	while (lat_scan_ws(&sc), lat_scan_word(&sc, &w, &wl)) {
		size_t k;

		for (k = 0; k < LAT_ARRAY_SIZE(words); k++)
			if (wl == strlen(words[k]) && !memcmp(w, words[k], wl))
				break;
		if (k == LAT_ARRAY_SIZE(words))
			return 0;
		n++;
	}
	return n > 0;
}

/*
 * A rule, or the end of one a mailer wrapped onto a line of its own ("---------"
 * after "--------------- ------ ... ---------"): groups of 3 dashes or more (the
 * narrowest is -V's CPU column, "---"), 10 dashes in all or the line's only group.
 */
static int is_dashes(const char *s, size_t len)
{
	size_t n = 0, run = 0, groups = 0;

	imp_trim(&s, &len);
	for (size_t i = 0; i <= len; i++) {
		if (i < len && s[i] == '-') {
			n++;
			run++;
			continue;
		}
		if (i < len && s[i] != ' ')
			return 0;
		if (run && run < 3)
			return 0;
		groups += run > 0;
		run = 0;
	}
	return n >= 10 || (groups == 1 && n >= 3);
}

/* "NAME:PID | R ms | N | avg: A ms | max: M ms | ..." */
static int is_lat_row(const char *s, size_t len)
{
	int bars = 0;

	for (size_t i = 0; i < len; i++)
		bars += s[i] == '|';
	if (bars < 2 || !memmem(s, len, " ms", 3) || is_lat_header(s, len))
		return 0;
	/* a task row says avg: and max:, the total starts with TOTAL: */
	return (memmem(s, len, "avg:", 4) && memmem(s, len, "max:", 4)) ||
	       imp_starts(s, len, "TOTAL:");
}

/*
 * The first layout, perf sched -l (Frederic Weisbecker's "perf sched: Add
 * sched latency profiling", Sep 2009; perf 2.6.32 printed the bars already):
 *    Tasks                     count          total              avg            max
 *   migration/0                  2             39849            19924           28826
 * every value in ns, no bars, no header rule.
 */
static int is_lat09_header(const char *s, size_t len)
{
	static const char *const words[] = { "Tasks", "count", "total", "avg", "max" };
	struct lat_scan sc;
	const char *w;
	size_t wl, n = 0;

	lat_scan_init(&sc, s, len);
	while (lat_scan_ws(&sc), lat_scan_word(&sc, &w, &wl)) {
		if (n == LAT_ARRAY_SIZE(words) || wl != strlen(words[n]) || memcmp(w, words[n], wl))
			return 0;
		n++;
	}
	return n == LAT_ARRAY_SIZE(words);
}

#define PS09_NUMS 4		/* count, total, avg, max */

/*
 * A row of that layout: the task's name (*@name, *@nlen; it may hold blanks)
 * and its four numbers in @v.  The row has no mark of its own, so the numbers
 * must be perf's: avg = total / count as perf divided them, avg <= max <= total.
 */
static int lat09_row(const char *s, size_t len, const char **name, size_t *nlen,
		     uint64_t v[PS09_NUMS])
{
	const char *w[PS09_NUMS];
	size_t e = len;

	imp_trim(&s, &len);
	e = len;
	for (int k = PS09_NUMS - 1; k >= 0; k--) {
		struct lat_scan sc;
		size_t b = e;

		while (b && s[b - 1] >= '0' && s[b - 1] <= '9')
			b--;
		if (b == e || !b || (s[b - 1] != ' ' && s[b - 1] != '\t'))
			return 0;
		lat_scan_init(&sc, s + b, e - b);
		if (!lat_scan_u64(&sc, &v[k]))
			return 0;
		w[k] = s + b;
		while (b && (s[b - 1] == ' ' || s[b - 1] == '\t'))
			b--;
		e = b;
	}
	*name = s;
	*nlen = (size_t)(w[0] - s);
	imp_trim(name, nlen);
	return *nlen && v[0] && v[2] == v[1] / v[0] && v[2] <= v[3] && v[3] <= v[1] &&
	       !(**name >= '0' && **name <= '9');
}

static int is_lat09_row(const char *s, size_t len)
{
	const char *name;
	size_t n;
	uint64_t v[PS09_NUMS];

	return lat09_row(s, len, &name, &n, v);
}

/* "   225.421678 [0000]  task[tid] ..." */
static int is_th_row(const char *s, size_t len)
{
	size_t i = 0;
	int dot = 0, digits = 0;

	imp_trim(&s, &len);
	while (i < len && ((s[i] >= '0' && s[i] <= '9') || s[i] == '.')) {
		dot += s[i] == '.';
		digits++;
		i++;
	}
	if (dot != 1 || digits < 3)
		return 0;
	while (i < len && s[i] == ' ')
		i++;
	return i < len && s[i] == '[';
}

/* Digits, a '.', then exactly @ndec digits: "0.004" (@ndec 3) */
static int is_fixed(const char *w, size_t wl, size_t ndec)
{
	size_t i = 0;

	while (i < wl && w[i] >= '0' && w[i] <= '9')
		i++;
	if (!i || i + 1 + ndec != wl || w[i] != '.')
		return 0;
	for (i++; i < wl; i++)
		if (w[i] < '0' || w[i] > '9')
			return 0;
	return 1;
}

/* "7188680.765074": seconds with 6 decimals, as perf sched map prints its times */
static int is_secs(const char *w, size_t wl)
{
	return is_fixed(w, wl, 6);
}

/* A cell of perf sched map: "*" (the CPU that switched) then "." (idle) or "A0" */
static int map_cell(const char *w, size_t wl, int *star)
{
	size_t i = 0;

	if (wl && w[0] == '*') {
		(*star)++;
		i++;
	}
	if (i < wl && w[i] == '.' && i + 1 == wl)
		return 1;
	if (i >= wl || w[i] < 'A' || w[i] > 'Z')
		return 0;
	for (i++; i < wl && w[i] >= '0' && w[i] <= '9'; i++)
		;
	return i == wl;
}

/*
 * "  *.   A0       7188680.765074 secs .  => swapper:0": a perf sched map row,
 * one cell per CPU, one of them starred, the time, then maybe the legend of a
 * task seen for the first time.  It tells which task ran where, no delay.
 */
/*
 * The map's cells from the start of @s: their count and the starred ones; *@w
 * is the word after them (the time), *@wl 0 when the line ends with them.
 * Each cell is handed to @keep when not NULL (-1 when that runs out of memory).
 */
static int map_cells(struct lat_scan *sc, const char *s, size_t len, const char **w,
		     size_t *wl, int *star, struct psm_keep *keep)
{
	int cells = 0;

	*star = 0;
	lat_scan_init(sc, s, len);
	while (lat_scan_ws(sc), lat_scan_word(sc, w, wl)) {
		if (!map_cell(*w, *wl, star))
			return cells;
		if (keep && psm_cell(keep, (size_t)(*w - s), *w, *wl))
			return -1;
		cells++;
	}
	*wl = 0;
	return cells;
}

static int is_map_row(const char *s, size_t len)
{
	struct lat_scan sc;
	const char *w;
	size_t wl;
	int star, cells = map_cells(&sc, s, len, &w, &wl, &star, NULL);

	if (!cells || star != 1 || !is_secs(w, wl))
		return 0;
	lat_scan_ws(&sc);
	return lat_scan_lit(&sc, "secs");
}

/*
 * A map row as a mailer wraps it (a row shape, docs/formats.md "Mail and paste damage"):
 * its cells, then "TIME secs" and, for a task seen the first time, "A0 => comm:pid".
 * Cells alone are a row cut short; perf before 6.11 printed such lines as rows of their
 * own, but nothing after them completes them, so they are never joined.
 */
static enum lat_row_state ps_row_map(const char *s, size_t len, struct lat_row_ctx *ctx)
{
	struct lat_scan sc;
	const char *w;
	size_t wl;
	int star, cells = map_cells(&sc, s, len, &w, &wl, &star, NULL);

	(void)ctx;
	if (!cells || star > 1)
		return LAT_ROW_NO;
	if (!wl)
		return LAT_ROW_CUT;
	if (star != 1 || !is_secs(w, wl))
		return LAT_ROW_NO;
	if (lat_scan_ws(&sc), sc.p == sc.end)
		return LAT_ROW_CUT;
	if (!lat_scan_lit(&sc, "secs"))
		return LAT_ROW_NO;
	if (lat_scan_ws(&sc), sc.p == sc.end)
		return LAT_ROW_FULL;
	/* the legend: its code, "=>", the task */
	if (!lat_scan_word(&sc, &w, &wl) || (lat_scan_ws(&sc), sc.p == sc.end))
		return LAT_ROW_CUT;
	if (!lat_scan_lit(&sc, "=>"))
		return LAT_ROW_NO;
	return lat_scan_ws(&sc), sc.p == sc.end ? LAT_ROW_CUT : LAT_ROW_FULL;
}

/* Rows a poster left out: "<SNIP>" and the like, or a line opening with "..." */
static int is_elision(const char *s, size_t len)
{
	return imp_is_elision(s, len) || imp_starts(s, len, "...") || imp_starts(s, len, "[...]");
}

/* "   B0      ": a map row of cells alone (perf before 6.11 printed one per filtered CPU) */
static int is_map_cells(const char *s, size_t len)
{
	struct lat_scan sc;
	const char *w;
	size_t wl;
	int star, cells = map_cells(&sc, s, len, &w, &wl, &star, NULL);

	return cells && !star && !wl;
}

static enum lat_line_kind ps_line_kind(const char *s, size_t len)
{
	if (is_lat_header(s, len) || is_th_header(s, len) || is_lat09_header(s, len))
		return LAT_LINE_HEAD;
	/* "INFO: 26.316% context switch bugs (5 out of 19)" closes the latency table */
	if (is_lat_row(s, len) || is_th_row(s, len) || is_map_row(s, len) ||
	    is_lat09_row(s, len) ||
	    (imp_starts(s, len, "INFO:") && memmem(s, len, "context switch bugs", 19)))
		return LAT_LINE_ROW;
	if (is_dashes(s, len) || imp_starts(s, len, "INFO:") || is_header_piece(s, len) ||
	    (memmem(s, len, "[tid/pid]", 9) && memmem(s, len, "(msec)", 6)) ||
	    is_elision(s, len) || is_map_cells(s, len))
		return LAT_LINE_SOFT;
	return LAT_LINE_NO;
}

/* A run's label, not a garbled row: a letter, no bar, no "TIME [CPU]". */
static int is_label(const char *s, size_t len)
{
	int letter = 0;

	for (size_t i = 0; i < len; i++)
		letter |= (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z');
	return letter && !memchr(s, '|', len) && !is_th_row(s, len);
}

/* Above a block: its rules and header pieces are the table's own, the label is above them. */
static int ps_label_skip(const char *s, size_t len)
{
	return is_dashes(s, len) || is_header_piece(s, len) || is_lat_header(s, len) ||
	       is_th_header(s, len);
}

#define PS_LABEL_MAX 64		/* a run's label under or between tables, at most */

/* Prefixes @b's title with @n bytes of @label ("NO_PREEMPT_SHORT: perf sched latency ..."). */
static int label_title(struct lat_block *b, const char *label, size_t n)
{
	char *title;

	imp_trim(&label, &n);
	if (asprintf(&title, "%.*s: %s", (int)n, label, b->title) < 0)
		return -LAT_ENOMEM;
	free(b->title);
	b->title = title;
	return 0;
}

/*
 * The label the segmenter cut this run at (ps_split): the nearest line above
 * @first, within 3 and past the run's own rules and header pieces, when it
 * is a label and a row of the same table (timehist when @th) lies right
 * above it, blank lines apart: the line between two runs of one table, not
 * the prose between a latency table and a timehist one.  NULL if not.
 */
static const struct lat_line *split_label(const struct lat_text *t, size_t first, int th)
{
	const struct lat_line *label = NULL;

	for (size_t i = first, k = 0; i > 0 && k < 4; k++) {
		const struct lat_line *l = &t->lines[--i];

		if (l->binary)
			return NULL;
		if (lat_line_blank(l) || (!label && ps_label_skip(l->s, l->len)))
			continue;
		if (label) {
			int same = th ? is_th_row(l->s, l->len) : is_lat_row(l->s, l->len);

			return same ? label : NULL;
		}
		if (ps_line_kind(l->s, l->len) != LAT_LINE_NO || !is_label(l->s, l->len) ||
		    l->len > PS_LABEL_MAX)
			return NULL;
		label = l;
	}
	return NULL;
}

/*
 * @b's title: what it holds, after its run's label, which is the line under
 * the header before the first row (@under, may be NULL), else a label above
 * it (imp_label_title()), else the label the runs were cut at.
 */
static int ps_title(const struct lat_text *t, size_t first, const struct lat_line *under,
		    int nlat, int nth, int map_only, struct lat_block *b)
{
	const char *plain = nlat && nth ? "perf sched latency and timehist" :
			    nth ? "perf sched timehist: sch delay per CPU" :
			    map_only ? "perf sched map: which task ran where" :
			    "perf sched latency: per task, as perf printed it";
	const struct lat_line *cut;

	b->title = strdup(plain);
	if (!b->title)
		return -LAT_ENOMEM;
	if (under)
		return label_title(b, under->s, under->len);
	if (imp_label_title(t, first, ps_label_skip, "perf sched", b))
		return -LAT_ENOMEM;
	if (strcmp(b->title, plain) || (nlat && nth))
		return 0;	/* labelled above, or two tables: no one run's label */
	cut = split_label(t, first, nth);
	return cut ? label_title(b, cut->s, cut->len) : 0;
}

static int ps_probe(const char *peek, size_t len)
{
	if (memmem(peek, len, "Switches", 8) && memmem(peek, len, "max:", 4) &&
	    memmem(peek, len, "Runtime ms", 10))
		return 90;
	if (memmem(peek, len, "sch delay", 9) && memmem(peek, len, "wait time", 9) &&
	    memmem(peek, len, "run time", 8))
		return 90;
	if (memmem(peek, len, "Tasks ", 6) && memmem(peek, len, " count ", 7) &&
	    memmem(peek, len, " total ", 7))
		return 60;
	return 0;
}

/* ---- latency ---- */

/* "  avg:  12.002 ms " after the label: the value in ns */
static int field_ms(const char *f, const char *label, int64_t *ns)
{
	struct lat_scan sc;

	lat_scan_init(&sc, f, strlen(f));
	lat_scan_ws(&sc);
	if (label && !lat_scan_lit(&sc, label))
		return 0;
	lat_scan_ws(&sc);
	if (!lat_scan_fixed(&sc, LAT_NS_PER_MS, ns, NULL))
		return 0;
	lat_scan_ws(&sc);
	if (!lat_scan_lit(&sc, "ms"))
		return 0;
	lat_scan_ws(&sc);
	return lat_scan_eol(&sc);
}

static int field_u64(const char *f, uint64_t *v)
{
	struct lat_scan sc;

	lat_scan_init(&sc, f, strlen(f));
	lat_scan_ws(&sc);
	if (!lat_scan_u64(&sc, v))
		return 0;
	lat_scan_ws(&sc);
	return lat_scan_eol(&sc);
}

/* Splits @buf at '|' in place: up to @max fields.  Returns the count. */
static int split_bars(char *buf, char **f, int max)
{
	int n = 0;
	char *p = buf;

	while (n < max) {
		char *bar = strchr(p, '|');

		f[n++] = p;
		if (!bar)
			break;
		*bar = '\0';
		p = bar + 1;
	}
	return n;
}

struct ps_lat {
	uint64_t switches, total_switches;
	int has_total;
	int ns09;		/* rows of the 2009 layout read */
};

static int parse_lat_row(char *buf, uint32_t line, struct lat_block *b, struct ps_lat *pl)
{
	char *f[8], *name;
	int n = split_bars(buf, f, 8);
	size_t nlen;
	int64_t runtime, avg, max;
	uint64_t sw;
	struct imp_hist_build hb;
	int ret;

	if (n < 3)
		return 0;
	name = f[0];
	nlen = strlen(name);
	imp_trim((const char **)&name, &nlen);
	if (!nlen || !field_ms(f[1], NULL, &runtime) || !field_u64(f[2], &sw))
		return 0;
	if (nlen == 6 && !memcmp(name, "TOTAL:", 6)) {
		pl->total_switches = sw;
		pl->has_total = 1;
		return 1;
	}
	if (n < 5 || !field_ms(f[3], "avg:", &avg) || !field_ms(f[4], "max:", &max))
		return 0;
	name[nlen] = '\0';
	ret = imp_hist_build_init(&hb, name);
	if (ret)
		return ret;
	hb.h->has_printed = 1;
	hb.h->printed = (struct lat_hist_printed){ (int64_t)sw, LAT_VALUE_NONE, avg, max };
	hb.h->first_line = hb.h->last_line = line;
	pl->switches += sw;
	ret = imp_hist_build_finish(&hb, 0, b);
	return ret ? ret : 1;
}

/* A row of the 2009 layout: the task's switches, avg and max as printed, in ns. */
static int parse_lat09_row(const char *buf, uint32_t line, struct lat_block *b,
			   struct ps_lat *pl)
{
	const char *name;
	size_t n;
	uint64_t v[PS09_NUMS];
	char title[PS_LINE_MAX];
	struct imp_hist_build hb;
	int ret;

	if (!lat09_row(buf, strlen(buf), &name, &n, v) || n >= sizeof(title) ||
	    v[3] > (uint64_t)INT64_MAX || v[0] > (uint64_t)INT64_MAX)
		return 0;
	memcpy(title, name, n);
	title[n] = '\0';
	ret = imp_hist_build_init(&hb, title);
	if (ret)
		return ret;
	hb.h->has_printed = 1;
	hb.h->printed = (struct lat_hist_printed){ (int64_t)v[0], LAT_VALUE_NONE, (int64_t)v[2],
						   (int64_t)v[3] };
	hb.h->first_line = hb.h->last_line = line;
	pl->switches += v[0];
	pl->ns09 = 1;
	ret = imp_hist_build_finish(&hb, 0, b);
	return ret ? ret : 1;
}

/* ---- timehist ---- */

struct ps_cpu {
	int64_t cpu;
	struct imp_hist_build hb;
};

struct ps_th {
	struct ps_cpu *c;
	size_t n, cap;
	uint64_t idle;
	uint64_t events;	/* -w "awakened:" and -M "migrated:" rows */
	uint64_t premig_rows;	/* rows with -P's pre-migration time */
	int64_t premig_max_ns;
	uint32_t premig_line;	/* the row of the longest */
	uint32_t head_line;	/* the first timehist header */
};

/*
 * perf sched map rows read (a map holds no delay: counted, then said so) and
 * kept for the chart of who ran where (perf_sched_map.c)
 */
struct ps_map {
	uint64_t rows, tasks;	/* switches; "XX => comm:pid" legends (tasks named) */
	int cpus;		/* cells in the widest row */
	int64_t first_ns, last_ns;
	struct psm_keep keep;
};

static int parse_map_row(const char *buf, uint32_t line, struct ps_map *m)
{
	struct lat_scan sc, ts;
	const char *w;
	size_t wl;
	int star, cells = map_cells(&sc, buf, strlen(buf), &w, &wl, &star, &m->keep);
	int64_t t;

	if (cells < 0)
		return -LAT_ENOMEM;
	lat_scan_init(&ts, w, wl);
	if (!lat_scan_fixed(&ts, LAT_NS_PER_S, &t, NULL)) {
		m->keep.ncell = m->keep.row_first;	/* no row: its cells are not kept */
		return 0;
	}
	lat_scan_ws(&sc);
	lat_scan_lit(&sc, "secs");
	if (psm_row(&m->keep, t, sc.p, (size_t)(sc.end - sc.p), line))
		return -LAT_ENOMEM;
	if (!m->rows++)
		m->first_ns = t;
	m->last_ns = t;
	if (cells > m->cpus)
		m->cpus = cells;
	m->tasks += strstr(buf, " => ") != NULL;
	return 1;
}

static int map_finding(const struct ps_map *m, struct lat_block *b)
{
	char span[32];

	lat_fmt_duration(m->last_ns - m->first_ns, span, sizeof(span));
	return lat_block_add_finding(b, "perf-sched-map", LAT_SEV_INFO,
				     "perf sched map: %llu context switches on %d CPU%s over %s, "
				     "%llu task%s named: which task ran where, no scheduling "
				     "delay (perf sched latency and timehist print those)",
				     (unsigned long long)m->rows, m->cpus, m->cpus == 1 ? "" : "s",
				     span, (unsigned long long)m->tasks, m->tasks == 1 ? "" : "s");
}

/* "0.004": a time as timehist prints it, "%9.3f" ms. */
static int is_ms(const char *w, size_t wl)
{
	return is_fixed(w, wl, 3);
}

/* The CPU's histogram, made on its first row; NULL (and *@err) when out of memory. */
static struct ps_cpu *cpu_of(struct ps_th *th, int64_t cpu, int *err)
{
	struct ps_cpu *c;
	char title[48];

	for (size_t i = 0; i < th->n; i++)
		if (th->c[i].cpu == cpu)
			return &th->c[i];
	if (lat_grow(&th->c, &th->cap, th->n + 1, sizeof(*th->c))) {
		*err = -LAT_ENOMEM;
		return NULL;
	}
	c = &th->c[th->n];
	c->cpu = cpu;
	snprintf(title, sizeof(title), "cpu%lld sch delay", (long long)cpu);
	if (imp_hist_build_init(&c->hb, title)) {
		*err = -LAT_ENOMEM;
		return NULL;
	}
	th->n++;
	return c;
}

/*
 * "TIME [CPU] [VISUAL] TASK WAIT SCH RUN [PRE-MIG] [STATE] [next: TASK] [CALLCHAIN]"
 * (-V adds the visual column before the task, -P the pre-migration time, --state
 * a letter, -n the next task, and call chains follow): read from the front, the
 * task's name may hold blanks and digits, its times are the first three words
 * of three decimals in a row.
 */
static int parse_th_row(const char *buf, uint32_t line, struct ps_th *th, int *err)
{
	struct lat_scan sc;
	int64_t ts, cpu, t[4];
	const char *w;
	size_t wl;
	int nt = 0, idle = 0;
	struct ps_cpu *c;

	lat_scan_init(&sc, buf, strlen(buf));
	lat_scan_ws(&sc);
	if (!lat_scan_fixed(&sc, LAT_NS_PER_S, &ts, NULL) || (lat_scan_ws(&sc),
	    !lat_scan_char(&sc, '[')) || !lat_scan_i64(&sc, &cpu) || !lat_scan_char(&sc, ']'))
		return 0;
	/* -w and -M add event rows: "... task[tid]   awakened: other[tid]" */
	if (strstr(sc.p, " awakened: ") || strstr(sc.p, " migrated: ")) {
		th->events++;
		return 1;
	}
	while (nt < 3 && (lat_scan_ws(&sc), lat_scan_word(&sc, &w, &wl))) {
		struct lat_scan v;

		if (!is_ms(w, wl)) {
			if (nt)
				return 0;	/* a word between the times */
			idle |= wl == 6 && !memcmp(w, "<idle>", 6);
			continue;
		}
		lat_scan_init(&v, w, wl);
		lat_scan_fixed(&v, LAT_NS_PER_MS, &t[nt++], NULL);
	}
	if (nt < 3 || cpu < 0 || cpu >= PS_MAX_CPUS)
		return 0;
	/* -P: a fourth time, the pre-migration wait */
	if (lat_scan_ws(&sc), lat_scan_word(&sc, &w, &wl) && is_ms(w, wl)) {
		struct lat_scan v;

		lat_scan_init(&v, w, wl);
		lat_scan_fixed(&v, LAT_NS_PER_MS, &t[3], NULL);
		th->premig_rows++;
		if (t[3] > th->premig_max_ns) {
			th->premig_max_ns = t[3];
			th->premig_line = line;
		}
	}
	if (idle) {
		th->idle++;
		return 1;
	}
	c = cpu_of(th, cpu, err);
	if (!c)
		return 0;
	if (imp_hist_build_value(&c->hb, t[1], line)) {
		*err = -LAT_ENOMEM;
		return 0;
	}
	return 1;
}

static int cmp_cpu(const void *a, const void *b)
{
	const struct ps_cpu *x = a, *y = b;

	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

static int premig_finding(struct lat_block *b, const struct ps_th *th)
{
	char d[32];

	if (!th->premig_max_ns)
		return lat_block_add_finding(b, "pre-migration", LAT_SEV_INFO,
					     "%llu rows with a pre-migration time (timehist -P), "
					     "none above 0", (unsigned long long)th->premig_rows);
	return lat_block_add_finding(b, "pre-migration", LAT_SEV_INFO,
				     "%llu rows with a pre-migration time (timehist -P): the "
				     "longest %s (line %u), a wait on a CPU the task then left",
				     (unsigned long long)th->premig_rows,
				     lat_fmt_duration(th->premig_max_ns, d, sizeof(d)),
				     th->premig_line);
}

/* The timehist CPUs' histograms into @b by CPU (when @ret is 0), the builders freed. */
static int th_finish(struct ps_th *th, struct lat_block *b, int ret)
{
	lat_sort(th->c, th->n, sizeof(*th->c), cmp_cpu);
	for (size_t i = 0; i < th->n; i++) {
		if (!ret)
			ret = imp_hist_build_finish(&th->c[i].hb, LAT_NS_PER_US, b);
		imp_hist_build_drop(&th->c[i].hb);
	}
	free(th->c);
	return ret;
}

/*
 * What the block's rows told besides the histograms: totals, elisions, rows not
 * counted; a block that is a timehist header with no row under it (@head_only)
 * says why there is nothing.
 */
static int ps_findings(struct lat_block *b, const struct ps_lat *pl, const struct ps_th *th,
		       const struct ps_map *map, int elided, uint32_t elided_line, int head_only)
{
	int ret = 0;

	if (pl->has_total && pl->total_switches != pl->switches && !elided)
		ret = lat_block_add_finding(b, "total-mismatch", LAT_SEV_WARN,
					    "the TOTAL row counts %llu switches, the tasks add up "
					    "to %llu", (unsigned long long)pl->total_switches,
					    (unsigned long long)pl->switches);
	if (!ret && elided)
		ret = lat_block_add_finding(b, "rows-elided", LAT_SEV_INFO,
					    "line %u: rows left out (%d mark%s such as \"...\" or "
					    "\"<SNIP>\"): the rows shown are read%s", elided_line,
					    elided, elided == 1 ? "" : "s", pl->has_total ?
					    ", the TOTAL row cannot be checked against them" : "");
	if (!ret && th->events)
		ret = lat_block_add_finding(b, "event-rows", LAT_SEV_INFO,
					    "%llu awakened/migrated rows (timehist -w, -M) are "
					    "events, not switches: not counted",
					    (unsigned long long)th->events);
	if (!ret && th->premig_rows)
		ret = premig_finding(b, th);
	if (!ret && th->idle)
		ret = lat_block_add_finding(b, "idle-rows", LAT_SEV_INFO,
					    "%llu <idle> rows not counted: the idle task has no "
					    "scheduling delay", (unsigned long long)th->idle);
	if (!ret && head_only)
		ret = lat_block_add_finding(b, "no-samples", LAT_SEV_INFO,
					    "line %u: perf sched timehist printed its header and no "
					    "row: nothing switched in what it was asked to show (its "
					    "--time window, -p, -C), so there is nothing to draw",
					    th->head_line);
	if (!ret && map->rows)
		ret = map_finding(map, b);
	if (!ret && pl->ns09)
		ret = lat_block_add_finding(b, "perf-sched-2009", LAT_SEV_INFO,
					    "perf sched -l's first layout (\"Tasks count total avg "
					    "max\", 2009): latencies in ns, count = the wakeup latencies "
					    "measured; no minimum printed");
	return ret;
}

static int ps_parse_block(const struct lat_text *t, size_t first, size_t end,
			  struct lat_block *b, struct lat_diag *d)
{
	struct ps_lat pl = { 0 };
	struct ps_th th = { 0 };
	const struct lat_line *under = NULL;
	struct ps_map map = { .keep.b = b };
	char buf[PS_LINE_MAX];
	int ret = 0, err = 0, nlat = 0, nth = 0, elided = 0, head_only;
	uint32_t elided_line = 0;

	b->schema = LAT_SCHEMA_HISTOGRAM;
	for (size_t i = first; i < end && !ret; i++) {
		const struct lat_line *l = &t->lines[i];
		enum lat_line_kind k;
		int r = 0;

		if (lat_line_blank(l))
			continue;
		k = l->binary ? LAT_LINE_NO : ps_line_kind(l->s, l->len);
		if (k == LAT_LINE_SOFT && is_elision(l->s, l->len)) {
			ret = psm_gap(&map.keep);
			if (!elided++)
				elided_line = l->lineno;
		}
		if (k == LAT_LINE_HEAD && !th.head_line && is_th_header(l->s, l->len))
			th.head_line = l->lineno;
		if (k == LAT_LINE_HEAD || (k == LAT_LINE_SOFT && !imp_starts(l->s, l->len,
										 "INFO:")))
			continue;
		/* under one header, each run's label before its rows: no row of the table */
		if (k == LAT_LINE_NO && !nlat && !nth && !under && is_label(l->s, l->len) &&
		    l->len <= PS_LABEL_MAX) {
			under = l;
			continue;
		}
		if (k != LAT_LINE_NO && imp_starts(l->s, l->len, "INFO:")) {
			ret = lat_block_add_finding(b, "perf-info", LAT_SEV_INFO, "line %u: %.*s",
						    l->lineno, (int)l->len, l->s);
			continue;
		}
		if (k == LAT_LINE_ROW && imp_copy(l->s, l->len, buf, sizeof(buf))) {
			if (is_th_row(buf, strlen(buf))) {
				r = parse_th_row(buf, l->lineno, &th, &err);
				nth += r > 0;
			} else if (is_map_row(buf, strlen(buf))) {
				r = parse_map_row(buf, l->lineno, &map);
			} else if (is_lat09_row(buf, strlen(buf))) {
				r = parse_lat09_row(buf, l->lineno, b, &pl);
				nlat += r > 0;
			} else {
				r = parse_lat_row(buf, l->lineno, b, &pl);
				nlat += r > 0;
			}
		}
		if (err || r < 0) {
			ret = err ? err : r;
			break;
		}
		if (r > 0)
			continue;
		b->skipped_lines++;
		lat_diag_at(d, l->lineno, "expected a perf sched latency row \"TASK | R ms | N | "
			    "avg: A ms | max: M ms | ...\" or a timehist row \"TIME [CPU] TASK "
			    "WAIT SCH RUN\"");
	}
	ret = th_finish(&th, b, ret);
	ret = psm_finish(&map.keep, ret);
	/* a timehist header and nothing else (ps_header_block()) */
	head_only = !nlat && !nth && !map.rows && !b->skipped_lines && th.head_line;
	if (!ret)
		ret = ps_findings(b, &pl, &th, &map, elided, elided_line, head_only);
	if (!ret)
		ret = ps_title(t, first, under, nlat, nth || head_only,
			       !nlat && !nth && map.rows, b);
	if (ret)
		return ret;
	/* a map alone, a header alone: a block that says what it is, not "unusable" */
	return b->nhist || map.rows || head_only ? 0 : -LAT_EEMPTY;
}

/* "---------  ---------": the rest of a rule a mailer wrapped (dashes and blanks) */
static int dash_piece(const char *s, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++) {
		if (s[i] != '-' && s[i] != ' ')
			return 0;
		n += s[i] == '-';
	}
	return n > 0;
}

#define PS_HEAD_LINES 6	/* a header's own lines under it, with a mailer's wrap pieces */

/*
 * A timehist header with no row under it: `perf sched timehist --time A,B`
 * of a window where nothing switched prints its header and its rule and
 * stops.  Still a block (its finding says so): the header, its "[tid/pid]
 * (msec)" line and the rule, each maybe wrapped in pieces by a mailer; 0
 * when @first starts no such header.
 */
static size_t ps_header_block(const struct lat_text *t, size_t first)
{
	const struct lat_line *h = &t->lines[first];
	size_t end = 0;

	if (h->binary || !is_th_header(h->s, h->len))
		return 0;
	for (size_t i = first + 1; i < t->nlines && i <= first + PS_HEAD_LINES; i++) {
		const struct lat_line *l = &t->lines[i];

		if (l->binary)
			break;
		if (end ? dash_piece(l->s, l->len) : is_dashes(l->s, l->len))
			end = i + 1;
		else if (end || !is_header_piece(l->s, l->len))
			break;
	}
	return end;
}

/*
 * Several runs pasted one after the other, each under a label line ("6.6 rc7
 * --> perf sched latency -s max", "Before:"): a line that is no row and no
 * header of ours, holds a letter and no bar, between rows, ends a run.  The
 * block is cut there; the label stays outside (the next block's title).
 */
static size_t ps_split(const struct lat_text *t, size_t first, size_t end)
{
	int rows = 0;

	for (size_t i = first; i < end; i++) {
		const struct lat_line *l = &t->lines[i];
		enum lat_line_kind k;

		if (l->binary || lat_line_blank(l))
			continue;
		k = ps_line_kind(l->s, l->len);
		if (k == LAT_LINE_ROW)
			rows = 1;
		else if (k == LAT_LINE_NO && rows && is_label(l->s, l->len))
			return i;
	}
	return end;
}

static const lat_row_shape row_shapes[] = { fmt_row_ps_latency, fmt_row_ps_timehist, ps_row_map,
					     NULL };

const struct lat_format fmt_perf_sched = {
	.name = "perf-sched",
	.summary = "perf sched latency (per-task switches, avg and max delay) and perf sched "
		   "timehist (sch delay per CPU)",
	.probe = ps_probe,
	.line_kind = ps_line_kind,
	.parse_block = ps_parse_block,
	.split = ps_split,
	.header_block = ps_header_block,
	.row_shapes = row_shapes,
};
