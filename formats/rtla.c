// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtla: the text of `rtla timerlat hist|top` and `rtla osnoise hist|top`,
 * with timerlat's auto-analysis (-a, --aa-only).  Examples:
 * Documentation/tools/rtla/rtla-*.rst.
 *
 *   # RTLA timerlat histogram            <- hist
 *   # Time unit is microseconds (us)
 *   Index   IRQ-000   Thr-000   ...      <- one column per (context, CPU)
 *   0        276489         0   ...      <- bucket lower bound, counts
 *   over:         0         0            <- above the last bucket
 *   count: / min: / avg: / max:          <- rtla's own summary per column
 *   ALL:        IRQ       Thr            <- newer rtla: the summary of all CPUs
 *
 *     0 00:00:12   |          IRQ Timer Latency (us)        |  Thread Timer Latency (us)
 *   CPU COUNT      |      cur       min       avg       max |  cur  min  avg  max
 *     1 #12322     |        0         0         1        15 |   10    3    9   31  <- top
 *
 *   CPU Period       Runtime        Noise  % CPU Aval   Max Noise   Max Single ...  <- osnoise top
 *   (rtla hwnoise, 6.3 on: the same under "Hardware-related Noise", without the
 *   IRQ, Softirq and Thread columns: interrupts are off while it samples)
 *
 * hist columns become histograms (bucket width: the greatest common divisor
 * of the printed indexes; rows rtla left out are empty), "over:" the open
 * bucket above the last printed one; top rows and the ALL summary become
 * histograms without buckets holding rtla's count/min/avg/max; osnoise top
 * rows and the auto-analysis become findings.  docs/formats.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latscope/format.h"
#include "import_hist.h"
#include "rtla.h"
#include "row_shape.h"

#define RT_LINE_MAX 4096
#define RT_MAX_COLS 1024
#define RT_NAME_MAX 48
#define RT_SOFT (-100)		/* parse_line(): a soft line, nothing to read */

static const char *const soft_lines[] = {
	"# Duration:", "# Time unit is", "rtla timerlat hit stop tracing",
	"rtla osnoise hit stop tracing", "Saving trace to", "Timer Latency",
	"Operating System Noise", "Hardware-related Noise", "duration:", "CPU COUNT",
	/* rtla 5.17 - 6.2 */
	"timerlat hit stop tracing", "osnoise hit stop tracing", "saving trace to",
};

static int starts_any(const char *s, size_t len, const char *const *tab, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (imp_starts(s, len, tab[i]))
			return 1;
	return 0;
}

/* "Index" alone: rtla hist found no sample above the threshold, so printed no column */
static int is_bare_index(const char *s, size_t len)
{
	imp_trim(&s, &len);
	return len == 5 && !memcmp(s, "Index", 5);
}

static int is_hist_header(const char *s, size_t len)
{
	return imp_starts(s, len, "Index") &&
	       (memmem(s, len, "IRQ-", 4) || memmem(s, len, "Thr-", 4) ||
		memmem(s, len, "CPU-", 4) || memmem(s, len, "Usr-", 4));
}

static int is_top_header(const char *s, size_t len)
{
	return (memmem(s, len, "Timer Latency (", 15) && memchr(s, '|', len)) ||
	       (imp_starts(s, len, "CPU Period") && memmem(s, len, "Max Single", 10));
}

/* "over:", "count:", "min:", "avg:", "max:" then numbers, or "ALL:" and names */
static int is_summary_row(const char *s, size_t len)
{
	static const char *const keys[] = { "over:", "count:", "min:", "avg:", "max:", "ALL:" };

	return starts_any(s, len, keys, LAT_ARRAY_SIZE(keys));
}

/* Only numbers (a hist bucket row): at least 2 */
static int is_number_row(const char *s, size_t len)
{
	size_t n = 0, i = 0;

	imp_trim(&s, &len);
	while (i < len) {
		size_t st = i;

		while (i < len && s[i] >= '0' && s[i] <= '9')
			i++;
		if (i == st || (i < len && s[i] != ' ' && s[i] != '\t'))
			return 0;
		n++;
		while (i < len && (s[i] == ' ' || s[i] == '\t'))
			i++;
	}
	return n >= 2;
}

/* "  1 #12322     |  ..." (timerlat top) or "  0 #59   53100000 ..." (osnoise top) */
static int is_top_row(const char *s, size_t len)
{
	size_t i = 0;

	imp_trim(&s, &len);
	if (len > 3 && !memcmp(s, "ALL", 3))
		i = 3;
	else
		while (i < len && s[i] >= '0' && s[i] <= '9')
			i++;
	if (!i)
		return 0;
	while (i < len && s[i] == ' ')
		i++;
	return i + 1 < len && s[i] == '#' && s[i + 1] >= '0' && s[i + 1] <= '9';
}

/* "-----" rules, and timerlat top's "---------------|------...|---" above its ALL row */
static int is_dashes(const char *s, size_t len)
{
	size_t dashes = 0;

	imp_trim(&s, &len);
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '-')
			dashes++;
		else if (s[i] != '|')
			return 0;
	}
	return dashes >= 10;
}

/* "objtool:49256     3.79 us": the auto-analysis names a task and its time */
static int ends_with_time(const char *s, size_t len)
{
	imp_trim(&s, &len);
	if (len < 5 || (memcmp(s + len - 3, " us", 3) && memcmp(s + len - 3, " ns", 3)))
		return 0;
	return s[len - 4] >= '0' && s[len - 4] <= '9';
}

static enum lat_line_kind rt_line_kind(const char *s, size_t len)
{
	if (imp_starts(s, len, "# RTLA ") || is_hist_header(s, len) || is_top_header(s, len))
		return LAT_LINE_HEAD;
	enum lat_line_kind aa = rt_aa_line_kind(s, len);

	if (is_summary_row(s, len) || is_top_row(s, len) || aa == LAT_LINE_ROW)
		return LAT_LINE_ROW;
	/*
	 * Bucket rows are bare numbers, as schedcnt's and many a table's: soft, so
	 * they never start a block; inside one (after "# RTLA" or "Index") they are
	 * read, up to the over:/count: rows.
	 */
	if (starts_any(s, len, soft_lines, LAT_ARRAY_SIZE(soft_lines)) || is_dashes(s, len) ||
	    ends_with_time(s, len) || is_number_row(s, len) || aa == LAT_LINE_SOFT ||
	    imp_is_elision(s, len) || is_bare_index(s, len))
		return LAT_LINE_SOFT;
	return LAT_LINE_NO;
}

static int rt_probe(const char *peek, size_t len)
{
	if (memmem(peek, len, "# RTLA timerlat histogram", 25) ||
	    memmem(peek, len, "# RTLA osnoise histogram", 24))
		return 95;
	if (memmem(peek, len, "Timer Latency (", 15) && memmem(peek, len, "CPU COUNT", 9))
		return 90;
	if ((memmem(peek, len, "Operating System Noise", 22) ||
	     memmem(peek, len, "Hardware-related Noise", 22)) && memmem(peek, len, "Max Single", 10))
		return 90;
	return 0;
}

/* ---- state ---- */

struct rt_col {
	char name[RT_NAME_MAX + 32];		/* "IRQ-000", "Thr-001", "CPU-002", "IRQ cpu1" */
	struct imp_hist_build hb;
	int64_t over;
	int has_over;
};

struct rt_row {
	int64_t idx;
	uint32_t line;
	uint64_t *c;			/* ncols counts */
};

struct rt_state {
	int64_t unit;			/* ns per printed unit */
	struct rt_col *cols;		/* the hist columns */
	size_t ncols, ccap;
	struct rt_row *rows;
	size_t nrows, rcap;
	/* the ALL summary and the top rows: histograms without buckets */
	struct rt_col *sum;
	size_t nsum, scap;
	char groups[3][RT_NAME_MAX];	/* timerlat top: "IRQ", "Thread", "User" */
	int ngroups;
	char allnames[3][RT_NAME_MAX];	/* the ALL: columns */
	int nall, in_all;
	struct rt_aa aa;		/* timerlat's auto-analysis (rtla_aa.c) */
	int kinds;			/* 1 hist, 2 timerlat top, 4 osnoise top */
	int hwnoise;			/* osnoise top without IRQ/Softirq/Thread: rtla hwnoise */
	int64_t cmd_bucket;		/* -b of the command line above the block, 0 none */
	uint32_t elided_line;		/* the first "..." a poster put for rows left out */
	int nelided;
	int64_t top_count;		/* timerlat top: the CPU rows' COUNT summed (IRQ samples) */
	int ntop_rows;
	int64_t all_count;		/* the ALL row's count (times 10^e), -1 when none */
	int all_e;
	uint32_t all_line;
	char tool[16];			/* "osnoise" of "# RTLA osnoise histogram", or "" */
	uint32_t empty_line;		/* a bare "Index": a hist without a column (no sample) */
};

static struct rt_col *sum_col(struct rt_state *st, const char *name, int *err)
{
	struct rt_col *c;

	for (size_t i = 0; i < st->nsum; i++)
		if (!strcmp(st->sum[i].name, name))
			return &st->sum[i];
	if (st->nsum >= RT_MAX_COLS)
		return NULL;
	if (lat_grow(&st->sum, &st->scap, st->nsum + 1, sizeof(*st->sum))) {
		*err = -LAT_ENOMEM;
		return NULL;
	}
	c = &st->sum[st->nsum];
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	if (imp_hist_build_init(&c->hb, name)) {
		*err = -LAT_ENOMEM;
		return NULL;
	}
	c->hb.h->has_printed = 1;
	st->nsum++;
	return c;
}

/* ---- hist ---- */

static int parse_hist_header(struct rt_state *st, const char *buf, int *err)
{
	struct lat_scan sc;
	const char *w;
	size_t wl;

	if (st->ncols)		/* a second table: keep the first one's columns */
		return 0;
	lat_scan_init(&sc, buf, strlen(buf));
	lat_scan_ws(&sc);
	if (!lat_scan_lit(&sc, "Index"))
		return 0;
	while (lat_scan_ws(&sc), lat_scan_word(&sc, &w, &wl)) {
		struct rt_col *c;

		if (st->ncols >= RT_MAX_COLS || wl >= RT_NAME_MAX)
			return 0;
		if (lat_grow(&st->cols, &st->ccap, st->ncols + 1, sizeof(*st->cols))) {
			*err = -LAT_ENOMEM;
			return 0;
		}
		c = &st->cols[st->ncols];
		memset(c, 0, sizeof(*c));
		memcpy(c->name, w, wl);
		if (imp_hist_build_init(&c->hb, NULL)) {
			*err = -LAT_ENOMEM;
			return 0;
		}
		c->hb.h->printed = (struct lat_hist_printed){ LAT_VALUE_NONE, LAT_VALUE_NONE,
							      LAT_VALUE_NONE, LAT_VALUE_NONE };
		st->ncols++;
	}
	st->kinds |= 1;
	st->in_all = 0;
	return st->ncols > 0;
}

static int parse_number_row(struct rt_state *st, const char *buf, uint32_t line, int *err)
{
	struct lat_scan sc;
	struct rt_row *r;
	uint64_t idx;

	if (!st->ncols || st->in_all)
		return 0;
	lat_scan_init(&sc, buf, strlen(buf));
	lat_scan_ws(&sc);
	if (!lat_scan_u64(&sc, &idx) || idx > INT64_MAX / LAT_NS_PER_S)
		return 0;
	if (lat_grow(&st->rows, &st->rcap, st->nrows + 1, sizeof(*st->rows)) ||
	    !(st->rows[st->nrows].c = calloc(st->ncols, sizeof(uint64_t)))) {
		*err = -LAT_ENOMEM;
		return 0;
	}
	r = &st->rows[st->nrows++];
	r->idx = (int64_t)idx;
	r->line = line;
	for (size_t i = 0; i < st->ncols; i++) {
		lat_scan_ws(&sc);
		if (!lat_scan_u64(&sc, &r->c[i])) {
			free(r->c);
			st->nrows--;
			return 0;
		}
	}
	lat_scan_ws(&sc);
	if (!lat_scan_eol(&sc)) {
		free(r->c);
		st->nrows--;
		return 0;
	}
	return 1;
}

/* "count:  600002  600002 ..." for the hist columns or, after "ALL:", the ALL columns */
static int parse_summary_row(struct rt_state *st, const char *buf, int *err)
{
	static const char *const keys[] = { "over:", "count:", "min:", "avg:", "max:" };
	struct lat_scan sc;
	size_t k, n;
	const char *w;
	size_t wl;

	lat_scan_init(&sc, buf, strlen(buf));
	lat_scan_ws(&sc);
	if (lat_scan_lit(&sc, "ALL:")) {
		st->nall = 0;
		while (lat_scan_ws(&sc), lat_scan_word(&sc, &w, &wl)) {
			if (st->nall >= 3 || wl + 4 >= RT_NAME_MAX)
				return 0;
			snprintf(st->allnames[st->nall++], RT_NAME_MAX, "ALL %.*s", (int)wl, w);
		}
		st->in_all = 1;
		return st->nall > 0;
	}
	for (k = 0; k < LAT_ARRAY_SIZE(keys); k++)
		if (lat_scan_lit(&sc, keys[k]))
			break;
	if (k == LAT_ARRAY_SIZE(keys))
		return 0;
	if (st->empty_line && !st->ncols && !st->in_all) {
		/* no column: blank before 6.11, "0" since (rtla's "no noise observed") */
		int64_t v = 0;

		lat_scan_ws(&sc);
		if (!lat_scan_eol(&sc) && (!lat_scan_fixed(&sc, 1, &v, NULL) || v))
			return 0;
		lat_scan_ws(&sc);
		return lat_scan_eol(&sc);
	}
	n = st->in_all ? (size_t)st->nall : st->ncols;
	for (size_t i = 0; i < n; i++) {
		struct rt_col *c = st->in_all ? sum_col(st, st->allnames[i], err) : &st->cols[i];
		struct lat_hist_printed *p;
		int64_t v;

		if (!c)
			return 0;
		p = &c->hb.h->printed;
		lat_scan_ws(&sc);
		/* "avg:" may have decimals in newer rtla; a CPU without samples prints "-" */
		if (lat_scan_char(&sc, '-'))
			continue;
		/*
		 * Before 6.10 rtla printed a column without samples (count 0) with
		 * its initial values, min ~0 (18446744073709551615) and max 0: no
		 * sample's, so none is kept.
		 */
		if (k > 1 && c->hb.h->has_printed && p->count == 0) {
			if (!lat_scan_word(&sc, &w, &wl))
				return 0;
			continue;
		}
		if (!lat_scan_fixed(&sc, st->unit, &v, NULL))
			return 0;
		c->hb.h->has_printed |= k > 0;
		if (k == 0) {
			c->over = v / st->unit;
			c->has_over = 1;
		} else if (k == 1) {
			p->count = v / st->unit;
		} else if (k == 2) {
			p->min_ns = v;
		} else if (k == 3) {
			p->avg_ns = v;
		} else {
			p->max_ns = v;
		}
	}
	lat_scan_ws(&sc);
	return lat_scan_eol(&sc);
}

static int64_t gcd64(int64_t a, int64_t b)
{
	while (b) {
		int64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* "IRQ-000" -> "IRQ cpu0", "CPU-002" -> "cpu2" */
static void col_title(const char *name, char *out, size_t len)
{
	const char *dash = strrchr(name, '-');
	long cpu = dash ? strtol(dash + 1, NULL, 10) : -1;

	if (!dash || cpu < 0)
		snprintf(out, len, "%s", name);
	else if (!strncmp(name, "CPU-", 4))
		snprintf(out, len, "cpu%ld", cpu);
	else
		snprintf(out, len, "%.*s cpu%ld", (int)(dash - name), name, cpu);
}

/*
 * "-b 10" or "--bucket-size 10" / "=10" on the command line pasted just above
 * the block (up to 4 lines, a wrapped command included); 0 when none.
 */
static int64_t cmdline_bucket(const struct lat_text *t, size_t first)
{
	for (size_t k = first; k-- > 0 && first - k <= 4;) {
		const struct lat_line *l = &t->lines[k];
		char buf[RT_LINE_MAX];
		const char *p;

		if (l->binary || !imp_copy(l->s, l->len, buf, sizeof(buf)))
			continue;
		p = strstr(buf, " -b ");
		if (p) {
			p += 4;
		} else if ((p = strstr(buf, "--bucket-size"))) {
			p += 13;
			if (*p != '=' && *p != ' ')
				continue;
			p++;
		} else {
			continue;
		}
		if (*p >= '1' && *p <= '9') {
			long v = strtol(p, NULL, 10);

			return v > 0 && v < 1000000 ? v : 0;
		}
	}
	return 0;
}

/*
 * The bucket width: the command line's -b, else the greatest common divisor
 * of the printed indexes when at least 3 rows show it (rtla leaves empty rows
 * out: 2 rows "6" and "21" say nothing), else rtla's default 1.
 */
static int64_t bucket_width(struct rt_state *st, struct lat_block *b, int *err)
{
	int64_t w = 0;

	if (st->cmd_bucket)
		return st->cmd_bucket;
	for (size_t i = 0; i < st->nrows; i++)
		w = gcd64(w, st->rows[i].idx);
	if (st->nrows >= 3 && w > 1)
		return w;
	if (w > 1)
		*err = lat_block_add_finding(b, "bucket-width", LAT_SEV_INFO,
					     "%zu rows do not show the bucket width: rtla's "
					     "default 1 is assumed (give the command line with -b)",
					     st->nrows);
	return 1;
}

static int finish_hist(struct rt_state *st, struct lat_block *b)
{
	int64_t w, top = 0;
	int ret = 0;

	for (size_t i = 0; i < st->nrows; i++)
		if (st->rows[i].idx > top)
			top = st->rows[i].idx;
	w = bucket_width(st, b, &ret);
	if (ret)
		return ret;
	for (size_t c = 0; c < st->ncols && !ret; c++) {
		struct rt_col *col = &st->cols[c];
		char title[RT_NAME_MAX + 56];

		col_title(col->name, title, sizeof(title));
		col->hb.h->title = strdup(title);
		if (!col->hb.h->title)
			return -LAT_ENOMEM;
		/* IRQ columns are compared with IRQ columns, Thr with Thr */
		if (strncmp(col->name, "CPU-", 4) && strchr(col->name, '-') &&
		    !(col->hb.h->group = strndup(col->name, (size_t)(strchr(col->name, '-') -
								   col->name))))
			return -LAT_ENOMEM;
		for (size_t i = 0; i < st->nrows && !ret; i++)
			ret = imp_hist_build_bucket(&col->hb, st->rows[i].idx * st->unit,
						    (st->rows[i].idx + w) * st->unit,
						    st->rows[i].c[c], st->rows[i].line);
		if (!ret && col->has_over && st->nrows)
			ret = imp_hist_build_bucket(&col->hb, (top + w) * st->unit, INT64_MAX,
						    (uint64_t)col->over, 0);
		if (!ret)
			ret = imp_hist_build_finish(&col->hb, 0, b);
	}
	return ret;
}

/* ---- top ---- */

static int parse_top_header(struct rt_state *st, const char *buf)
{
	const char *p = buf;

	if (strstr(buf, "Max Single")) {
		st->kinds |= 4;
		st->hwnoise = !strstr(buf, "Thread");
		return 1;
	}
	st->ngroups = 0;
	st->unit = strstr(buf, "(ns)") ? 1 : 1000;
	/* "|   IRQ Timer Latency (us)   |   Thread Timer Latency (us)   |   Ret user Timer ..." */
	while ((p = strchr(p, '|')) && st->ngroups < 3) {
		const char *a = p + 1, *z;

		while (*a == ' ')
			a++;
		z = strstr(a, " Timer Latency");
		if (!z || z == a || z - a >= RT_NAME_MAX)
			return 0;
		snprintf(st->groups[st->ngroups++], RT_NAME_MAX, "%.*s", (int)(z - a), a);
		p++;
	}
	st->kinds |= 2;
	return st->ngroups > 0;
}

/* "ALL #119144 e4 |": the count divided by 10^e to fit its 6 digits (rtla 6.10+) */
static int all_count(struct lat_scan *sc, int64_t *count, int *e)
{
	int64_t x;

	lat_scan_ws(sc);
	*e = 0;
	if (!lat_scan_char(sc, 'e'))
		return 1;
	if (!lat_scan_i64(sc, &x) || x < 0 || x > 12)
		return 0;
	for (*e = (int)x; x > 0; x--) {
		if (*count > INT64_MAX / 10)
			return 0;
		*count *= 10;
	}
	return 1;
}

/* One context's "cur min avg max" (the ALL row has no cur): "-" where it had no sample. */
static int top_values(struct rt_state *st, struct lat_scan *sc, int all, int64_t v[4])
{
	v[0] = LAT_VALUE_NONE;
	for (int k = all ? 1 : 0; k < 4; k++) {
		lat_scan_ws(sc);
		if (lat_scan_char(sc, '-'))
			v[k] = LAT_VALUE_NONE;
		else if (!lat_scan_fixed(sc, st->unit, &v[k], NULL))
			return 0;
	}
	return 1;
}

/*
 * "  6 #58634     |  12  0  1  12 |  30  2  10  30 <--- CPU with spike" or the
 * ALL row.  COUNT is the IRQ sample count (rtla: "unless trace is being lost,
 * IRQ counter is always the max"): the other contexts' counts are not printed.
 */
static int parse_timerlat_top_row(struct rt_state *st, const char *buf, uint32_t line,
				  struct lat_block *b, int *err)
{
	struct lat_scan sc;
	int64_t cpu = -1, count;
	char cpuname[32];
	int all, e = 0;

	lat_scan_init(&sc, buf, strlen(buf));
	lat_scan_ws(&sc);
	all = lat_scan_lit(&sc, "ALL");
	if (all)
		snprintf(cpuname, sizeof(cpuname), "all");
	else if (lat_scan_i64(&sc, &cpu) && cpu >= 0)
		snprintf(cpuname, sizeof(cpuname), "cpu%lld", (long long)cpu);
	else
		return 0;
	lat_scan_ws(&sc);
	if (!lat_scan_char(&sc, '#') || !lat_scan_i64(&sc, &count) || count < 0 ||
	    (all && !all_count(&sc, &count, &e)))
		return 0;
	for (int g = 0; g < st->ngroups; g++) {
		int64_t v[4];
		char name[RT_NAME_MAX + 32];
		struct rt_col *c;

		lat_scan_ws(&sc);
		if (!lat_scan_char(&sc, '|') || !top_values(st, &sc, all, v))
			return 0;
		snprintf(name, sizeof(name), "%s %s", st->groups[g], cpuname);
		c = sum_col(st, name, err);
		if (!c)
			return 0;
		c->hb.h->printed = (struct lat_hist_printed){
			g ? LAT_VALUE_NONE : v[3] == LAT_VALUE_NONE ? 0 : count, v[1], v[2], v[3] };
		c->hb.h->first_line = c->hb.h->last_line = line;
	}
	if (all) {
		st->all_count = count;
		st->all_e = e;
		st->all_line = line;
	} else {
		st->top_count += count;
		st->ntop_rows++;
	}
	lat_scan_ws(&sc);
	lat_scan_char(&sc, '|');
	lat_scan_ws(&sc);
	if (lat_scan_eol(&sc))
		return 1;
	/* a note typed after the row ("<--- CPU with spike"), not a number gone astray */
	if ((*sc.p >= '0' && *sc.p <= '9') || *sc.p == '|')
		return 0;
	*err = lat_block_add_finding(b, "note", LAT_SEV_INFO, "%s (line %u): \"%s\" typed after "
				     "the row", cpuname, line, sc.p);
	return !*err;
}

/* us as the row printed them: "5 us" */
static const char *top_value(const struct rt_state *st, int64_t ns, char *buf, size_t len)
{
	if (st->unit == 1)
		snprintf(buf, len, "%lld ns", (long long)ns);
	else
		snprintf(buf, len, "%lld us", (long long)(ns / st->unit));
	return buf;
}

/*
 * The checks rtla's own numbers allow: an average above the maximum (the
 * count overflowed: rtla kept it in a 32-bit int before 6.13), the ALL count
 * against the CPU rows' sum, and rows a poster left out.
 */
static int top_findings(const struct rt_state *st, struct lat_block *b)
{
	char a[32], m[32];
	int ret = 0;

	for (size_t i = 0; i < st->nsum && !ret; i++) {
		const struct lat_hist_printed *p = &st->sum[i].hb.h->printed;

		if (p->avg_ns == LAT_VALUE_NONE || p->max_ns == LAT_VALUE_NONE ||
		    p->avg_ns <= p->max_ns)
			continue;
		ret = lat_block_add_finding(b, "count-overflow", LAT_SEV_WARN,
					    "%s: the average %s is above the maximum %s: the sample "
					    "count rtla divided by overflowed (a 32-bit int before "
					    "rtla 6.13), this row's averages are wrong",
					    st->sum[i].name, top_value(st, p->avg_ns, a, sizeof(a)),
					    top_value(st, p->max_ns, m, sizeof(m)));
	}
	if (!ret && st->all_line && st->ntop_rows && !st->nelided) {
		int64_t step = 1;

		for (int e = 0; e < st->all_e; e++)
			step *= 10;
		if (st->top_count < st->all_count || st->top_count >= st->all_count + step)
			ret = lat_block_add_finding(b, "count-mismatch", LAT_SEV_WARN,
						    "ALL (line %u): its count %lld is not the sum of "
						    "the CPU rows' counts, %lld", st->all_line,
						    (long long)st->all_count, (long long)st->top_count);
	}
	if (!ret && st->nelided)
		ret = lat_block_add_finding(b, "rows-elided", LAT_SEV_INFO,
					    "%d \"...\" line%s (the first at line %u): the paste "
					    "leaves rows out%s", st->nelided, st->nelided == 1 ? "" : "s",
					    st->elided_line, st->all_line ? "; the ALL row covers "
					    "every CPU" : "");
	return ret;
}

/*
 * osnoise top: one finding per CPU with every column, the longest single noise
 * as max; rtla hwnoise's rows end after the NMI column.
 */
static int parse_osnoise_top_row(struct rt_state *st, const char *buf, uint32_t line,
				 struct lat_block *b, int *err)
{
	static const char *const names[] = { "runtime", "noise", "% CPU available", "max noise",
					     "max single", "HW", "NMI", "IRQ", "softirq",
					     "thread" };
	struct lat_scan sc;
	int64_t cpu, periods, v[10];
	char name[32], msg[512];
	size_t n = 0;
	int ncols = st->hwnoise ? 7 : 10;
	struct rt_col *c;

	lat_scan_init(&sc, buf, strlen(buf));
	lat_scan_ws(&sc);
	if (!lat_scan_i64(&sc, &cpu) || (lat_scan_ws(&sc), !lat_scan_char(&sc, '#')) ||
	    !lat_scan_i64(&sc, &periods))
		return 0;
	for (int k = 0; k < ncols; k++) {
		lat_scan_ws(&sc);
		if (!lat_scan_fixed(&sc, k == 2 ? 100000 : 1, &v[k], NULL))
			return 0;
	}
	lat_scan_ws(&sc);
	if (!lat_scan_eol(&sc))
		return 0;
	snprintf(name, sizeof(name), "cpu%lld", (long long)cpu);
	c = sum_col(st, name, err);
	if (!c)
		return 0;
	c->hb.h->printed.max_ns = v[4] * st->unit;
	/* the row's line, as timerlat top's rows have theirs (charts and JSON point at it) */
	c->hb.h->first_line = c->hb.h->last_line = line;
	n += (size_t)snprintf(msg, sizeof(msg), "cpu%lld: %lld periods", (long long)cpu,
			      (long long)periods);
	for (int k = 0; k < ncols && n < sizeof(msg); k++) {
		if (k == 2)
			n += (size_t)snprintf(msg + n, sizeof(msg) - n, ", %s %lld.%05lld",
					      names[k], (long long)(v[k] / 100000),
					      (long long)(v[k] % 100000));
		else
			n += (size_t)snprintf(msg + n, sizeof(msg) - n, ", %s %lld%s", names[k],
					      (long long)v[k], k < 5 ? " us" : "");
	}
	*err = lat_block_add_finding(b, "osnoise", LAT_SEV_INFO, "%s", msg);
	return !*err;
}

static int parse_line(struct rt_state *st, const struct lat_line *l, char *buf,
		      struct lat_block *b, int *err)
{
	size_t len = strlen(buf);
	int r;

	if (imp_starts(buf, len, "# Time unit is")) {
		st->unit = strstr(buf, "(ns)") ? 1 : 1000;
		return 1;
	}
	if (imp_starts(buf, len, "duration:") && strstr(buf, "time is in")) {
		st->unit = strstr(buf, "in ns") ? 1 : 1000;
		return 1;
	}
	if (imp_starts(buf, len, "# RTLA ")) {
		sscanf(buf, " # RTLA %15s", st->tool);
		return 1;
	}
	if (is_bare_index(buf, len) && !st->ncols) {
		st->empty_line = l->lineno;
		st->kinds |= 1;
		return 1;
	}
	if (is_hist_header(buf, len))
		return parse_hist_header(st, buf, err);
	if (is_top_header(buf, len))
		return parse_top_header(st, buf);
	if (is_summary_row(buf, len))
		return parse_summary_row(st, buf, err);
	if (is_top_row(buf, len))
		return st->kinds & 4 && !(st->kinds & 2) ?
		       parse_osnoise_top_row(st, buf, l->lineno, b, err) :
		       parse_timerlat_top_row(st, buf, l->lineno, b, err);
	if (is_number_row(buf, len))
		return parse_number_row(st, buf, l->lineno, err);
	r = rt_aa_line(&st->aa, buf, l->lineno);
	if (r)
		return r;
	if (imp_is_elision(buf, len)) {
		if (!st->nelided++)
			st->elided_line = l->lineno;
		return 1;
	}
	return RT_SOFT;	/* a soft line without data */
}

static void free_state(struct rt_state *st)
{
	for (size_t i = 0; i < st->ncols; i++)
		imp_hist_build_drop(&st->cols[i].hb);
	for (size_t i = 0; i < st->nsum; i++)
		imp_hist_build_drop(&st->sum[i].hb);
	for (size_t i = 0; i < st->nrows; i++)
		free(st->rows[i].c);
	free(st->cols);
	free(st->sum);
	free(st->rows);
	rt_aa_free(&st->aa);
}

/* The histograms and findings of a block read into @st. */
static int finish_block(struct rt_state *st, struct lat_block *b)
{
	int ret = 0;

	if (st->ncols)
		ret = finish_hist(st, b);
	else if (st->empty_line)
		ret = lat_block_add_finding(b, "no-samples", LAT_SEV_INFO,
					    "line %u: rtla%s%s hist printed no column: no sample "
					    "reached the threshold (-T), so there is nothing to draw",
					    st->empty_line, st->tool[0] ? " " : "", st->tool);
	if (!ret)
		ret = rt_aa_finish(&st->aa, b);
	/* an analysis alone: the latencies it names are the block's summaries */
	if (!ret && !st->ncols && !st->nsum)
		ret = rt_aa_summaries(&st->aa, b);
	/* before the summaries are finished: the builders hand them to the block */
	if (!ret && st->kinds & 2)
		ret = top_findings(st, b);
	for (size_t i = 0; i < st->nsum && !ret; i++)
		ret = imp_hist_build_finish(&st->sum[i].hb, 0, b);
	if (!ret && !(b->title = strdup(st->kinds & 1 ? "rtla hist" :
					st->kinds & 2 ? "rtla timerlat top" :
					st->kinds & 4 ? (st->hwnoise ? "rtla hwnoise" :
							 "rtla osnoise top") :
					"rtla auto-analysis")))
		ret = -LAT_ENOMEM;
	return ret;
}

/* What line @l of a block read into @st should have been. */
static void report_line(const struct rt_state *st, const struct lat_line *l, struct lat_diag *d)
{
	const char *s = l->s;
	size_t len = l->len;

	if (!(st->kinds & 4) || st->kinds & 2) {
		lat_diag_at(d, l->lineno, "expected an rtla hist row \"INDEX COUNT...\", a "
			    "count:/min:/avg:/max:/over: row, a top row \"CPU #COUNT | cur min avg "
			    "max | ...\" or an auto-analysis line");
		return;
	}
	/* under osnoise top's or hwnoise's header: their row, which starts with a CPU */
	imp_trim(&s, &len);
	lat_diag_at(d, l->lineno, "expected an %s row \"CPU #PERIODS RUNTIME NOISE %%AVAIL "
		    "MAX-NOISE MAX-SINGLE HW NMI%s\"%s", st->hwnoise ? "rtla hwnoise" : "osnoise top",
		    st->hwnoise ? "" : " IRQ SOFTIRQ THREAD",
		    len >= 3 && !memcmp(s, "ALL", 3) ? " (rtla prints no ALL row there: not read)" :
		    "");
}

/*
 * Lines between a run's label and its table that are the run's own: "duration:",
 * the banners, rules of '#' or dashes and the "%<" marks a poster puts around it.
 */
static int rt_label_skip(const char *s, size_t len)
{
	size_t n = 0;

	if (starts_any(s, len, soft_lines, LAT_ARRAY_SIZE(soft_lines)) || is_dashes(s, len) ||
	    memmem(s, len, "%<", 2) || memmem(s, len, ">%", 2))
		return 1;
	imp_trim(&s, &len);
	while (n < len && s[n] == '#')
		n++;
	return len >= 3 && n == len;
}

static int rt_parse_block(const struct lat_text *t, size_t first, size_t end,
			  struct lat_block *b, struct lat_diag *d)
{
	struct rt_state st = { .unit = 1000, .all_count = -1 };
	char *buf = malloc(RT_LINE_MAX);
	int ret = 0, err = 0;

	b->schema = LAT_SCHEMA_HISTOGRAM;
	if (!buf)
		return -LAT_ENOMEM;
	st.cmd_bucket = cmdline_bucket(t, first);
	for (size_t i = first; i < end && !ret; i++) {
		const struct lat_line *l = &t->lines[i];
		int r = 0;

		if (lat_line_blank(l))
			continue;
		if (!l->binary && imp_copy(l->s, l->len, buf, RT_LINE_MAX))
			r = parse_line(&st, l, buf, b, &err);
		if (err) {
			ret = err;
			break;
		}
		if (r == -LAT_ENOMEM) {
			ret = r;
			break;
		}
		if (r == RT_SOFT) {
			if (rt_line_kind(l->s, l->len) == LAT_LINE_SOFT)
				continue;
			r = 0;
		}
		if (r > 0)
			continue;
		b->skipped_lines++;
		report_line(&st, l, d);
	}
	free(buf);
	if (!ret)
		ret = finish_block(&st, b);
	/* "removing hrtick:" / "With hrtick:" over two runs (LKML 2024) */
	if (!ret && st.kinds & 6)
		ret = imp_label_title(t, first, rt_label_skip, NULL, b);
	free_state(&st);
	if (ret)
		return ret;
	return b->nhist || b->nfindings ? 0 : -LAT_EEMPTY;
}

static const lat_row_shape row_shapes[] = { fmt_row_rtla_top, fmt_row_rtla_top_head,
					     fmt_row_rtla_noise_head, rt_aa_row, NULL };

const struct lat_format fmt_rtla = {
	.name = "rtla",
	.summary = "rtla timerlat/osnoise hist and top text, with timerlat's auto-analysis (-a)",
	.probe = rt_probe,
	.line_kind = rt_line_kind,
	.parse_block = rt_parse_block,
	.row_shapes = row_shapes,
};
