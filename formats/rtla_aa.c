// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * timerlat's auto-analysis (rtla timerlat -a, --aa-only), in both layouts:
 * rtla 6.3 - 6.9 aligned its values with tabs, which a paste into a web page
 * or chat turns into single blanks ("IRQ latency:           1.90 us"); 6.10
 * on aligns with spaces.  Per CPU that hit the stop condition:
 *
 *   ## CPU 3 hit stop tracing, analyzing it ##
 *     [Previous IRQ interference:                 up to  8.93 us]
 *     IRQ handler delay:  [(exit from idle)]       1.30 us (0.11 %)
 *     IRQ latency:                                 1.90 us
 *     Timerlat IRQ duration:                       3.00 us (0.24 %)
 *     Blocking thread:                          1223.16 us (99.00 %)
 *                      insync:4048              1223.16 us   <- the culprit
 *       Blocking thread stacktrace                          (6.15: "stack trace")
 *                 -> timerlat_irq ...                       <- its stack, innermost first
 *     IRQ interference                             4.93 us (0.40 %)  (no colon)
 *                 local_timer:236                  4.93 us
 *   ------------------------------------------------------------------------
 *      Thread latency:                          1235.47 us (100%)
 *
 * When the IRQ latency hit the threshold, "Blocking thread:" has no value, the
 * thread under it no time, and the total is "IRQ latency: ... (100%)".  The
 * lines are kept as one finding; the culprit and its stack as two more.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latscope/scan.h"
#include "import_hist.h"
#include "rtla.h"

/* labels of the auto-analysis that carry a value (the interferences have no colon) */
static const char *const aa_labels[] = {
	"IRQ handler delay:", "IRQ latency:", "Timerlat IRQ duration:", "Blocking thread:",
	"Thread latency:", "Max timerlat IRQ latency from idle:", "Previous IRQ interference:",
	"IRQ interference", "Softirq interference", "Thread interference", "NMI interference",
	"Thread dispatch latency:", "Kernel IRQ", "Max timerlat thread latency",
};

/* lines around them that carry no value of their own */
static const char *const aa_soft[] = {
	"Blocking thread stacktrace", "Blocking thread stack trace", "-> ",
	"The system has exit from idle", "Printing CPU tasks:",
};

static int starts_any(const char *s, size_t len, const char *const *tab, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (imp_starts(s, len, tab[i]))
			return 1;
	return 0;
}

/*
 * The first "N.NN us" (or ns) of [s, s+len) after its label, in ns; *pct gets
 * the "(9.03 %)" behind it ("" when none).  0 when the line has no time.
 */
static int time_of(const char *s, size_t len, int64_t *ns, char *pct, size_t pctlen)
{
	if (pct)
		pct[0] = '\0';
	for (size_t i = 0; i < len; i++) {
		struct lat_scan sc;
		int64_t v;
		int in_us;

		if (s[i] < '0' || s[i] > '9' || (i && s[i - 1] != ' ' && s[i - 1] != '\t'))
			continue;
		lat_scan_init(&sc, s + i, len - i);
		if (!lat_scan_fixed(&sc, 1000, &v, NULL) || !lat_scan_char(&sc, ' '))
			continue;
		if (lat_scan_lit(&sc, "us"))
			in_us = 1;
		else if (lat_scan_lit(&sc, "ns"))
			in_us = 0;
		else
			continue;
		*ns = in_us ? v : v / 1000;	/* v is the number times 1000 */
		lat_scan_ws(&sc);
		if (pct && lat_scan_char(&sc, '(')) {
			const char *e = memchr(sc.p, ')', (size_t)(sc.end - sc.p));

			if (e)
				snprintf(pct, pctlen, "%.*s", (int)(e - sc.p), sc.p);
		}
		return 1;
	}
	return 0;
}

/* The index in aa_labels of the label @s starts with, -1 for none; *@cut: only its first words. */
static int aa_label_at(const char *s, size_t len, int *cut)
{
	*cut = 0;
	for (size_t i = 0; i < LAT_ARRAY_SIZE(aa_labels); i++) {
		size_t ll = strlen(aa_labels[i]);

		if (len >= ll && !memcmp(s, aa_labels[i], ll))
			return (int)i;
		if (len < ll && !memcmp(s, aa_labels[i], len) && aa_labels[i][len] == ' ')
			*cut = 1;
	}
	return -1;
}

/*
 * After label @i (aa_labels) of @s: @sc at its value, past the colon and the words
 * some labels put before it, "(exit from idle)" and "up to".
 */
static void aa_value_at(const char *s, size_t len, int i, struct lat_scan *sc)
{
	size_t ll = strlen(aa_labels[i]);

	lat_scan_init(sc, s + ll, len - ll);
	lat_scan_char(sc, ':');
	lat_scan_ws(sc);
	if (lat_scan_lit(sc, "(exit from idle)") || lat_scan_lit(sc, "up to"))
		lat_scan_ws(sc);
}

/*
 * A label and its value: "IRQ latency:     28.13 us", "IRQ interference    4.93 us
 * (0.40 %)", "IRQ handler delay:   (exit from idle)   0.98 us (0.00 %)",
 * "Previous IRQ interference:   up to   8.93 us"; or "Blocking thread:" alone.
 */
static int is_label(const char *s, size_t len)
{
	struct lat_scan sc;
	int64_t v;
	int cut, i;

	imp_trim(&s, &len);
	i = aa_label_at(s, len, &cut);
	if (i < 0)
		return 0;
	if (len == 16 && !memcmp(s, "Blocking thread:", 16))
		return 1;
	aa_value_at(s, len, i, &sc);
	return lat_scan_fixed(&sc, 1000, &v, NULL) && lat_scan_char(&sc, ' ') &&
	       (lat_scan_lit(&sc, "us") || lat_scan_lit(&sc, "ns"));
}

/* "insync:4048" or "objtool:49256     3.79 us": a comm, a colon, a pid, maybe a time */
static int is_thread(const char *s, size_t len, size_t *namelen)
{
	const char *colon, *p, *e;

	imp_trim(&s, &len);
	e = s + len;
	for (p = s; p < e && *p != ' ' && *p != '\t'; p++)
		;
	colon = memrchr(s, ':', (size_t)(p - s));
	if (!colon || colon == s || colon + 1 == p)
		return 0;
	for (const char *d = colon + 1; d < p; d++)
		if (*d < '0' || *d > '9')
			return 0;
	*namelen = (size_t)(p - s);
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	return p == e || (e - p > 3 && (!memcmp(e - 3, " us", 3) || !memcmp(e - 3, " ns", 3)));
}

/* "[003]  kworker/3:1:212 ...": a CPU of --dump-tasks */
static int is_task_dump(const char *s, size_t len)
{
	imp_trim(&s, &len);
	return len > 5 && s[0] == '[' && s[4] == ']' && s[1] >= '0' && s[1] <= '9';
}

/* labels whose time a share follows, "(65.52 %)" (Thread latency's is "(100%)") */
static const char *const aa_shared[] = {
	"IRQ handler delay:", "Timerlat IRQ duration:", "Blocking thread:", "Thread latency:",
	"IRQ interference", "Softirq interference", "Thread interference", "NMI interference",
};

/* After the time of "Max timerlat IRQ latency from idle:": "in cpu N". */
static enum lat_row_state aa_row_cpu(struct lat_scan *sc)
{
	static const char *const words[] = { "in", "cpu" };
	uint64_t cpu;

	for (size_t k = 0; k < LAT_ARRAY_SIZE(words); k++) {
		if (sc->p == sc->end)
			return LAT_ROW_CUT;
		if (!lat_scan_lit(sc, words[k]))
			return LAT_ROW_NO;
		lat_scan_ws(sc);
	}
	if (sc->p == sc->end)
		return LAT_ROW_CUT;
	return lat_scan_u64(sc, &cpu) && sc->p == sc->end ? LAT_ROW_FULL : LAT_ROW_NO;
}

#define AA_CULPRIT_INDENT 8	/* the least indent of a culprit line, tabs as 8 */

/*
 * An auto-analysis line as a mailer wraps it (a row shape, docs/formats.md "Mail and
 * paste damage"): the aligned layout of rtla 6.10 on is 80 columns wide, so a client
 * that wraps at 72-78 moves a share, "(65.52 %)", or a time to the next line.  Cut short:
 * the first words of a label; a label without its time; a time without the share its
 * label has; the culprit ("insync:4048") without its time.  Each is joined only with
 * what completes it, so "Blocking thread:" alone (the IRQ hit the threshold) stays.
 */
enum lat_row_state rt_aa_row(const char *s, size_t len, struct lat_row_ctx *ctx)
{
	struct lat_scan sc;
	int64_t v;
	size_t nl, indent, deep = 0;
	int cut, i;

	(void)ctx;
	for (indent = 0; indent < len && (s[indent] == ' ' || s[indent] == '\t'); indent++)
		deep += s[indent] == '\t' ? 8 : 1;
	imp_trim(&s, &len);
	if (!len)
		return LAT_ROW_NO;
	i = aa_label_at(s, len, &cut);
	if (i < 0) {
		if (cut)
			return LAT_ROW_CUT;
		/*
		 * rtla prints the culprit deep under its label ("%24s:%-d"); a "Max:16822590"
		 * that a mailer put at the start of a line is a piece of a cyclictest row
		 */
		if (deep < AA_CULPRIT_INDENT || !is_thread(s, len, &nl))
			return LAT_ROW_NO;
		return nl == len ? LAT_ROW_CUT : LAT_ROW_FULL;
	}
	aa_value_at(s, len, i, &sc);
	if (sc.p == sc.end || (*sc.p == '(' && !memchr(sc.p, ')', (size_t)(sc.end - sc.p))))
		return LAT_ROW_CUT;
	if (!lat_scan_fixed(&sc, 1000, &v, NULL))
		return LAT_ROW_NO;
	if (lat_scan_ws(&sc), sc.p == sc.end)
		return LAT_ROW_CUT;
	if (!lat_scan_lit(&sc, "us") && !lat_scan_lit(&sc, "ns"))
		return LAT_ROW_NO;
	lat_scan_ws(&sc);
	if (!strcmp(aa_labels[i], "Max timerlat IRQ latency from idle:"))
		return aa_row_cpu(&sc);
	if (sc.p == sc.end)
		return starts_any(s, len, aa_shared, LAT_ARRAY_SIZE(aa_shared)) ? LAT_ROW_CUT :
										   LAT_ROW_FULL;
	if (*sc.p != '(')
		return LAT_ROW_NO;
	return memchr(sc.p, ')', (size_t)(sc.end - sc.p)) ? LAT_ROW_FULL : LAT_ROW_CUT;
}

enum lat_line_kind rt_aa_line_kind(const char *s, size_t len)
{
	size_t nl;

	if (imp_starts(s, len, "## CPU ") && memmem(s, len, "hit stop tracing", 16))
		return LAT_LINE_ROW;
	if (is_label(s, len))
		return LAT_LINE_ROW;
	if (starts_any(s, len, aa_soft, LAT_ARRAY_SIZE(aa_soft)) || is_thread(s, len, &nl) ||
	    is_task_dump(s, len))
		return LAT_LINE_SOFT;
	return LAT_LINE_NO;
}

static int text_add(struct rt_aa *a, const char *s, size_t n, const char *sep)
{
	size_t cap = a->len + n + strlen(sep) + 1;
	char *p = realloc(a->text, cap);

	if (!p)
		return -LAT_ENOMEM;
	a->text = p;
	a->len += (size_t)snprintf(p + a->len, cap - a->len, "%s%.*s", a->len ? sep : "",
				   (int)n, s);
	return 0;
}

/* "IRQ handler delay:\t\t    27.49 us (65.52 %)" -> "IRQ handler delay: 27.49 us (65.52 %)" */
static int squeezed(struct rt_aa *a, const char *s, size_t len)
{
	char out[1024];
	size_t o = 0;
	int space = 0;

	imp_trim(&s, &len);
	for (size_t i = 0; i < len && o + 2 < sizeof(out); i++) {
		if (s[i] == ' ' || s[i] == '\t') {
			space = 1;
			continue;
		}
		if (space && o)
			out[o++] = ' ';
		space = 0;
		out[o++] = s[i];
	}
	return text_add(a, out, o, "; ");
}

static struct rt_aa_sec *section(struct rt_aa *a)
{
	return a->nsec ? &a->sec[a->nsec - 1] : NULL;
}

/* A CPU's section from @line on; cpu -1 when the analysis does not name it. */
static void section_open(struct rt_aa *a, int cpu, uint32_t line)
{
	struct rt_aa_sec *sec;

	if (a->nsec >= RT_AA_SECTIONS)
		return;
	sec = &a->sec[a->nsec++];
	sec->cpu = cpu;
	sec->line = line;
	sec->culprit_ns = sec->total_ns = sec->irq_ns = LAT_VALUE_NONE;
}

/* "-> timerlat_irq": the text's "; stack: a <- b" and the section's stack */
static int frame(struct rt_aa *a, const char *s, size_t len)
{
	struct rt_aa_sec *sec = section(a);
	int ret;

	imp_trim(&s, &len);
	s += 3;
	len -= 3;
	imp_trim(&s, &len);
	ret = a->in_stack ? text_add(a, s, len, " <- ") : text_add(a, "stack: ", 7, "; ");
	if (!ret && !a->in_stack)
		ret = text_add(a, s, len, "");
	a->in_stack = 1;
	if (ret || !sec)
		return ret;
	if (sec->nframes < 256) {
		size_t cap = sec->stack_len + len + 5;
		char *p = realloc(sec->stack, cap);

		if (!p)
			return -LAT_ENOMEM;
		sec->stack = p;
		sec->stack_len += (size_t)snprintf(p + sec->stack_len, cap - sec->stack_len,
						   "%s%.*s", sec->nframes ? " <- " : "", (int)len, s);
	}
	sec->nframes++;
	return 0;
}

/* A label line: the blocking thread's share and the total are kept per section. */
static void label(struct rt_aa *a, const char *s, size_t len)
{
	struct rt_aa_sec *sec = section(a);
	int64_t ns;
	char pct[24];
	int has = time_of(s, len, &ns, pct, sizeof(pct));

	a->after_blocking = imp_starts(s, len, "Blocking thread:");
	if (!sec)
		return;
	if (a->after_blocking && has)
		snprintf(sec->blocking_pct, sizeof(sec->blocking_pct), "%s", pct);
	if (has && !strcmp(pct, "100%") && (imp_starts(s, len, "Thread latency:") ||
					     imp_starts(s, len, "IRQ latency:"))) {
		sec->total_ns = ns;
		snprintf(sec->total_kind, sizeof(sec->total_kind), "%s",
			 imp_starts(s, len, "IRQ") ? "IRQ" : "Thread");
	} else if (has && imp_starts(s, len, "IRQ latency:")) {
		sec->irq_ns = ns;
	}
}

int rt_aa_line(struct rt_aa *a, const char *buf, uint32_t line)
{
	const char *s = buf;
	size_t len = strlen(buf), nl;
	int64_t ns;

	if (a->nsec)
		a->sec[a->nsec - 1].last_line = line;

	if (a->text && imp_starts(s, len, "-> "))
		return frame(a, s, len) ? -LAT_ENOMEM : 1;
	a->in_stack = 0;
	if (imp_starts(s, len, "## CPU ")) {
		section_open(a, atoi(strstr(s, "## CPU ") + 7), line);
		a->after_blocking = 0;
		return squeezed(a, s, len) ? -LAT_ENOMEM : 1;
	}
	if (is_label(s, len)) {
		/*
		 * rtla timerlat hist -T of 6.9 printed the analysis with no "## CPU"
		 * line (John Kacur's count-0 report): a section of an unnamed CPU.
		 * "Max timerlat IRQ latency from idle" after the sections is none.
		 */
		if (!a->nsec && !imp_starts(s, len, "Max timerlat IRQ latency from idle"))
			section_open(a, -1, line);
		label(a, s, len);
		return squeezed(a, s, len) ? -LAT_ENOMEM : 1;
	}
	if (a->after_blocking && is_thread(s, len, &nl)) {
		struct rt_aa_sec *sec = section(a);

		imp_trim(&s, &len);
		if (sec) {
			snprintf(sec->culprit, sizeof(sec->culprit), "%.*s", (int)nl, s);
			sec->culprit_ns = time_of(s + nl, len - nl, &ns, NULL, 0) ? ns :
					  LAT_VALUE_NONE;
		}
		a->after_blocking = 0;
		return squeezed(a, s, len) ? -LAT_ENOMEM : 1;
	}
	a->after_blocking = 0;
	/* the interference lines under a label: "local_timer:236     4.93 us" */
	if (a->text && time_of(s, len, &ns, NULL, 0))
		return squeezed(a, s, len) ? -LAT_ENOMEM : 1;
	return 0;
}

/* "3.79 us" as rtla printed it (%.2f us) */
static const char *us2(int64_t ns, char *buf, size_t len)
{
	snprintf(buf, len, "%lld.%02lld us", (long long)(ns / 1000), (long long)(ns % 1000 / 10));
	return buf;
}

static int section_findings(const struct rt_aa_sec *s, struct lat_block *b)
{
	char t1[32], t2[32], of[96] = "", cpu[40];
	int ret = 0;

	if (s->cpu >= 0)
		snprintf(cpu, sizeof(cpu), "cpu %d", s->cpu);
	else
		snprintf(cpu, sizeof(cpu), "cpu not printed");

	if (s->total_ns != LAT_VALUE_NONE)
		snprintf(of, sizeof(of), " of the %s %s latency", us2(s->total_ns, t2, sizeof(t2)),
			 s->total_kind);
	if (s->culprit[0] && s->culprit_ns != LAT_VALUE_NONE)
		ret = lat_block_add_finding(b, "rtla-blocking-thread", LAT_SEV_INFO,
					    "%s: %s blocked the timerlat thread for %s (%s%s)",
					    cpu, s->culprit, us2(s->culprit_ns, t1, sizeof(t1)),
					    s->blocking_pct[0] ? s->blocking_pct : "share not printed",
					    of);
	else if (s->culprit[0] && s->total_ns != LAT_VALUE_NONE)
		ret = lat_block_add_finding(b, "rtla-blocking-thread", LAT_SEV_INFO,
					    "%s: %s was running when the timer IRQ came late "
					    "(%s latency %s)", cpu, s->culprit, s->total_kind,
					    us2(s->total_ns, t2, sizeof(t2)));
	else if (s->culprit[0])
		ret = lat_block_add_finding(b, "rtla-blocking-thread", LAT_SEV_INFO,
					    "%s: %s was running when the timer IRQ came late",
					    cpu, s->culprit);
	if (!ret && s->stack)
		ret = lat_block_add_finding(b, "rtla-stack", LAT_SEV_INFO,
					    "%s: the stack of %s, innermost first (%d frames): %s",
					    cpu, s->culprit[0] ? s->culprit : "the blocking thread",
					    s->nframes, s->stack);
	return ret;
}

int rt_aa_finish(const struct rt_aa *a, struct lat_block *b)
{
	int ret = 0;

	if (!a->text)
		return 0;
	ret = lat_block_add_finding(b, "rtla-auto-analysis", LAT_SEV_INFO, "%s", a->text);
	for (int i = 0; i < a->nsec && !ret; i++)
		ret = section_findings(&a->sec[i], b);
	return ret;
}

static int aa_summary(struct lat_block *b, const struct rt_aa_sec *s, const char *ctx,
		      int64_t ns)
{
	struct imp_hist_build hb;
	char title[48];
	int ret;

	if (s->cpu >= 0)
		snprintf(title, sizeof(title), "%s cpu%d", ctx, s->cpu);
	else
		snprintf(title, sizeof(title), "%s", ctx);
	ret = imp_hist_build_init(&hb, title);
	if (ret)
		return ret;
	if (!(hb.h->group = strdup(ctx))) {
		imp_hist_build_drop(&hb);
		return -LAT_ENOMEM;
	}
	/* one sample, the one that hit the stop condition: its count is not printed */
	hb.h->has_printed = 1;
	hb.h->printed.max_ns = ns;
	hb.h->first_line = s->line;
	hb.h->last_line = s->last_line ? s->last_line : s->line;
	return imp_hist_build_finish(&hb, 0, b);
}

int rt_aa_summaries(const struct rt_aa *a, struct lat_block *b)
{
	int ret = 0;

	for (int i = 0; i < a->nsec && !ret; i++) {
		const struct rt_aa_sec *s = &a->sec[i];
		int irq_total = s->total_ns != LAT_VALUE_NONE && !strcmp(s->total_kind, "IRQ");

		if (s->irq_ns != LAT_VALUE_NONE || irq_total)
			ret = aa_summary(b, s, "IRQ", s->irq_ns != LAT_VALUE_NONE ? s->irq_ns :
						       s->total_ns);
		if (!ret && s->total_ns != LAT_VALUE_NONE && !irq_total)
			ret = aa_summary(b, s, "Thread", s->total_ns);
	}
	return ret;
}

void rt_aa_free(struct rt_aa *a)
{
	free(a->text);
	for (int i = 0; i < a->nsec; i++)
		free(a->sec[i].stack);
}
