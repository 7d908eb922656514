// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The bug-report bundle (docs/report.md): one document structure (bundle_doc()) written
 * through two sets of primitives, Markdown and HTML.  Every text that comes from an input
 * (task names, paths, the kernel's strings) goes through the primitives' escaping; only the
 * structure is written raw.
 */
#include <stdarg.h>
#include <string.h>

#include "report_priv.h"
#include "latscope/an_probe.h"
#include "latscope/an_wakeup.h"
#include "latscope/bundle.h"
#include "latscope/event.h"
#include "latscope/format.h"

struct doc;

struct doc_ops {
	void (*open)(struct doc *d, const char *title);
	void (*close)(struct doc *d);
	void (*head)(struct doc *d, int level, const char *text);
	void (*para)(struct doc *d, const char *text);		/* a paragraph of plain text */
	void (*code)(struct doc *d, const char *cmd);		/* a command, one line */
	void (*pre)(struct doc *d, const char *text);		/* preformatted block */
	void (*table)(struct doc *d, const char *const *cols, size_t n);
	void (*cell)(struct doc *d, size_t col, const char *text);
	void (*table_end)(struct doc *d);
	void (*image)(struct doc *d, const struct lat_bundle_chart *c);
};

struct doc {
	FILE *out;
	const struct doc_ops *ops;
	size_t ncols;
};

static void cellf(struct doc *d, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void cellf(struct doc *d, size_t col, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	d->ops->cell(d, col, buf);
}

static void paraf(struct doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void paraf(struct doc *d, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	d->ops->para(d, buf);
}

/* ---- Markdown ---------------------------------------------------------------- */

/* Text with Markdown's active characters escaped and control characters as \xNN. */
static void md_esc(FILE *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\x%02x", c);
		else if (strchr("\\`*_[]<>|#!{}", c))
			fprintf(out, "\\%c", c);
		else
			fputc(c, out);
	}
}

static void md_open(struct doc *d, const char *title)
{
	fputs("# ", d->out);
	md_esc(d->out, title);
	fputs("\n", d->out);
}

static void md_close(struct doc *d)
{
	(void)d;
}

static void md_head(struct doc *d, int level, const char *text)
{
	fprintf(d->out, "\n%.*s ", level, "######");
	md_esc(d->out, text);
	fputc('\n', d->out);
}

static void md_para(struct doc *d, const char *text)
{
	fputc('\n', d->out);
	md_esc(d->out, text);
	fputc('\n', d->out);
}

/* The longest run of backticks in @s, so a fence or code span around it can be longer. */
static size_t ticks(const char *s)
{
	size_t run = 0, best = 0;

	for (; *s; s++) {
		run = *s == '`' ? run + 1 : 0;
		best = run > best ? run : best;
	}
	return best;
}

static void md_code(struct doc *d, const char *cmd)
{
	size_t n = ticks(cmd) + 1;

	fputc('\n', d->out);
	for (size_t i = 0; i < n; i++)
		fputc('`', d->out);
	fputs(" ", d->out);
	lat_fput_safe(d->out, cmd, strlen(cmd));
	fputs(" ", d->out);
	for (size_t i = 0; i < n; i++)
		fputc('`', d->out);
	fputc('\n', d->out);
}

static void md_pre(struct doc *d, const char *text)
{
	size_t n = ticks(text) + 1;
	size_t len = strlen(text);

	n = n < 3 ? 3 : n;
	fputc('\n', d->out);
	for (size_t i = 0; i < n; i++)
		fputc('`', d->out);
	fputc('\n', d->out);
	/* every line as it is, control characters but the line ends shown as \xNN */
	for (const char *p = text, *e; p < text + len; p = e + 1) {
		e = strchr(p, '\n');
		if (!e)
			e = text + len;
		lat_fput_safe(d->out, p, (size_t)(e - p));
		fputc('\n', d->out);
	}
	for (size_t i = 0; i < n; i++)
		fputc('`', d->out);
	fputc('\n', d->out);
}

static void md_table(struct doc *d, const char *const *cols, size_t n)
{
	d->ncols = n;
	fputs("\n|", d->out);
	for (size_t i = 0; i < n; i++) {
		fputc(' ', d->out);
		md_esc(d->out, cols[i]);
		fputs(" |", d->out);
	}
	fputs("\n|", d->out);
	for (size_t i = 0; i < n; i++)
		fputs(" --- |", d->out);
}

static void md_cell(struct doc *d, size_t col, const char *text)
{
	if (!col)
		fputs("\n|", d->out);
	fputc(' ', d->out);
	md_esc(d->out, text);
	fputs(" |", d->out);
}

static void md_table_end(struct doc *d)
{
	fputc('\n', d->out);
}

static void md_image(struct doc *d, const struct lat_bundle_chart *c)
{
	fputs("\n![", d->out);
	md_esc(d->out, c->title);
	fputs("](", d->out);
	/* the file name is ours: letters, digits, '-', '.', '/' */
	fputs(c->file, d->out);
	fputs(")\n", d->out);
}

static const struct doc_ops md_ops = {
	md_open, md_close, md_head, md_para, md_code, md_pre, md_table, md_cell, md_table_end,
	md_image,
};

/* ---- HTML -------------------------------------------------------------------- */

static void html_esc_n(FILE *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '&')
			fputs("&amp;", out);
		else if (c == '<')
			fputs("&lt;", out);
		else if (c == '>')
			fputs("&gt;", out);
		else if (c == '"')
			fputs("&quot;", out);
		else if ((c < 0x20 && c != '\n') || c == 0x7f)
			fprintf(out, "\\x%02x", c);
		else
			fputc(c, out);
	}
}

static void html_esc(FILE *out, const char *s)
{
	html_esc_n(out, s, strlen(s));
}

static const char html_style[] =
	"body{font-family:sans-serif;margin:1em auto;padding:0 1em;max-width:1300px;color:#222;"
	"background:#fff}\n"
	"table{border-collapse:collapse;margin:0.5em 0}\n"
	"td,th{border:1px solid #bbb;padding:2px 8px;text-align:left;vertical-align:top}\n"
	"th{background:#eee}\n"
	"pre{background:#f6f6f6;padding:0.6em;overflow-x:auto;font-size:85%}\n"
	"code{background:#f0f0f0;padding:1px 4px}\n"
	"figure{margin:1em 0}\n"
	"img{max-width:100%;height:auto;border:1px solid #ddd}\n";

static void html_open(struct doc *d, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>",
	      d->out);
	html_esc(d->out, title);
	fprintf(d->out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", html_style);
	html_esc(d->out, title);
	fputs("</h1>\n", d->out);
}

static void html_close(struct doc *d)
{
	fputs("</body>\n</html>\n", d->out);
}

static void html_head(struct doc *d, int level, const char *text)
{
	fprintf(d->out, "<h%d>", level);
	html_esc(d->out, text);
	fprintf(d->out, "</h%d>\n", level);
}

static void html_para(struct doc *d, const char *text)
{
	fputs("<p>", d->out);
	html_esc(d->out, text);
	fputs("</p>\n", d->out);
}

static void html_code(struct doc *d, const char *cmd)
{
	fputs("<p><code>", d->out);
	html_esc(d->out, cmd);
	fputs("</code></p>\n", d->out);
}

static void html_pre(struct doc *d, const char *text)
{
	fputs("<pre>", d->out);
	html_esc(d->out, text);
	fputs("</pre>\n", d->out);
}

static void html_table(struct doc *d, const char *const *cols, size_t n)
{
	d->ncols = n;
	fputs("<table>\n<tr>", d->out);
	for (size_t i = 0; i < n; i++) {
		fputs("<th>", d->out);
		html_esc(d->out, cols[i]);
		fputs("</th>", d->out);
	}
	fputs("</tr>", d->out);
}

static void html_cell(struct doc *d, size_t col, const char *text)
{
	if (!col)
		fputs("\n<tr>", d->out);
	fputs("<td>", d->out);
	html_esc(d->out, text);
	fputs("</td>", d->out);
	if (col + 1 == d->ncols)
		fputs("</tr>", d->out);
}

static void html_table_end(struct doc *d)
{
	fputs("\n</table>\n", d->out);
}

/* Written in runs: a chart's SVG is megabytes, a stdio call per character was a tenth of a report. */
static void base64(FILE *out, const unsigned char *p, size_t n)
{
	static const char tab[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char buf[4096];
	size_t used = 0;

	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16;

		v |= i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0;
		v |= i + 2 < n ? p[i + 2] : 0;
		if (used + 4 > sizeof(buf)) {
			fwrite(buf, 1, used, out);
			used = 0;
		}
		buf[used++] = tab[v >> 18 & 63];
		buf[used++] = tab[v >> 12 & 63];
		buf[used++] = i + 1 < n ? tab[v >> 6 & 63] : '=';
		buf[used++] = i + 2 < n ? tab[v & 63] : '=';
	}
	fwrite(buf, 1, used, out);
}

static void html_image(struct doc *d, const struct lat_bundle_chart *c)
{
	fputs("<figure><img alt=\"", d->out);
	html_esc(d->out, c->title);
	fprintf(d->out, "\" width=\"%d\" height=\"%d\" src=\"data:image/svg+xml;base64,",
		c->width, c->height);
	base64(d->out, c->svg, c->len);
	fputs("\"><figcaption>", d->out);
	html_esc(d->out, c->title);
	fputs("</figcaption></figure>\n", d->out);
}

static const struct doc_ops html_ops = {
	html_open, html_close, html_head, html_para, html_code, html_pre, html_table, html_cell,
	html_table_end, html_image,
};

/* ---- the document ------------------------------------------------------------ */

const char *lat_bundle_preempt_model(const char *version)
{
	if (!version)
		return "unknown (the trace holds no kernel version string)";
	if (strstr(version, "PREEMPT_RT"))
		return "PREEMPT_RT (fully preemptible, real-time)";
	if (strstr(version, "PREEMPT_DYNAMIC"))
		return "PREEMPT_DYNAMIC (none, voluntary, full or lazy, chosen at boot; the mode "
		       "in use is not in the trace)";
	if (strstr(version, "PREEMPT_LAZY"))
		return "PREEMPT_LAZY";
	for (const char *p = strstr(version, "PREEMPT"); p; p = strstr(p + 1, "PREEMPT"))
		if ((p == version || p[-1] == ' ') && (p[7] == ' ' || !p[7]))
			return "PREEMPT (full)";
	return "not stated in the version string (none or voluntary)";
}

static const struct lat_wakeup_result *wakeup_of(const struct lat_block *b)
{
	return b->schema == LAT_SCHEMA_EVENTS ? b->analysis : NULL;
}

static const char *dur(int64_t ns, char *buf, size_t len)
{
	return lat_fmt_duration(ns, buf, len);
}

static const char *block_name(const struct lat_bundle *bn, size_t i, size_t k, char *buf,
			      size_t len)
{
	if (bn->in[i].nblocks > 1)
		snprintf(buf, len, "%s#%zu", bn->in[i].path, k + 1);
	else
		snprintf(buf, len, "%s", bn->in[i].path);
	return buf;
}

static void summary_row(struct doc *d, const char *name, const struct lat_wakeup_result *r)
{
	char d1[32], d2[32], who[64];
	const struct lat_wake_case *c = r->nworst ? &r->worst[0] : NULL;

	snprintf(who, sizeof(who), "%.*s/%d", LAT_COMM_LEN, c ? c->comm : "", c ? c->pid : 0);
	d->ops->cell(d, 0, name);
	cellf(d, 1, "%llu", (unsigned long long)r->nevents);
	cellf(d, 2, "%llu", (unsigned long long)r->waits);
	cellf(d, 3, "%s", r->all.n ? dur(r->all.p99, d1, sizeof(d1)) : "-");
	cellf(d, 4, "%s", r->all.n ? dur(r->all.max, d2, sizeof(d2)) : "-");
	d->ops->cell(d, 5, c ? who : "-");
	d->ops->cell(d, 6, c ? lat_verdict_name(c->verdict.kind) : "-");
	cellf(d, 7, "%llu", (unsigned long long)r->lost_events);
	cellf(d, 8, "%llu", (unsigned long long)r->nstalls_total);
}

static void summary(struct doc *d, const struct lat_bundle *bn)
{
	static const char *const cols[] = { "trace", "events", "wakeup waits", "p99", "max",
					    "worst task", "its verdict", "lost events",
					    "stalls" };
	char name[512];
	int any = 0;

	d->ops->head(d, 2, "Summary");
	for (size_t i = 0; i < bn->n; i++)
		for (size_t k = 0; k < bn->in[i].nblocks; k++) {
			const struct lat_wakeup_result *r = wakeup_of(bn->in[i].blocks[k]);

			if (!r)
				continue;
			if (!any++)
				d->ops->table(d, cols, LAT_ARRAY_SIZE(cols));
			summary_row(d, block_name(bn, i, k, name, sizeof(name)), r);
		}
	if (any)
		d->ops->table_end(d);
	else
		d->ops->para(d, "No event trace in the inputs: the full report below says what "
				"each input holds.");
}

static void verdict_counts(struct doc *d, const char *name, const struct lat_wakeup_result *r)
{
	size_t cnt[LAT_VERDICT_N] = { 0 };
	char line[512];
	size_t at;

	for (size_t i = 0; i < r->nworst; i++)
		cnt[(unsigned)r->worst[i].verdict.kind < LAT_VERDICT_N ?
		    r->worst[i].verdict.kind : LAT_VERDICT_NONE]++;
	at = (size_t)snprintf(line, sizeof(line), "%s: verdicts of the %zu worst wakeups:",
			      name, r->nworst);
	for (int k = 0; k < LAT_VERDICT_N && at < sizeof(line); k++)
		if (cnt[k])
			at += (size_t)snprintf(line + at, sizeof(line) - at, " %s %zu,",
					       lat_verdict_name((enum lat_verdict_kind)k), cnt[k]);
	if (at < sizeof(line) && line[at - 1] == ',')
		line[at - 1] = '\0';
	d->ops->para(d, line);
}

/* The chart of @bn zoomed on case @c of block @k of input @i, or NULL. */
static const struct lat_bundle_chart *case_chart(const struct lat_bundle *bn, size_t i,
						 size_t k, size_t c)
{
	for (size_t j = 0; j < bn->ncharts; j++)
		if (bn->charts[j].input == i && bn->charts[j].block == k &&
		    bn->charts[j].case_no == c)
			return &bn->charts[j];
	return NULL;
}

static void chart(struct doc *d, const struct lat_bundle_chart *c)
{
	if (c->svg) {
		d->ops->image(d, c);
		d->ops->para(d, "Drawn by:");
		d->ops->code(d, c->command);
	} else {
		paraf(d, "%s: not drawn: %s (command: %s)", c->title, c->why ? c->why : "?",
		      c->command);
	}
}

static void case_rows(struct doc *d, const struct lat_wakeup_result *r)
{
	static const char *const cols[] = { "#", "task", "class", "CPU", "waited from",
					    "to", "latency", "verdict", "evidence" };
	char cls[40], t0[40], t1[40], dl[32], ev[LAT_VERDICT_TEXT_LEN];

	d->ops->table(d, cols, LAT_ARRAY_SIZE(cols));
	for (size_t c = 0; c < r->nworst; c++) {
		const struct lat_wake_case *w = &r->worst[c];

		lat_sched_class_fmt(w->prio, cls, sizeof(cls));
		cellf(d, 0, "%zu", c + 1);
		cellf(d, 1, "%.*s/%d", LAT_COMM_LEN, w->comm, w->pid);
		d->ops->cell(d, 2, cls);
		cellf(d, 3, "%d", w->cpu);
		d->ops->cell(d, 4, lat_fmt_trace_ts(w->start_ns, t0, sizeof(t0)));
		d->ops->cell(d, 5, lat_fmt_trace_ts(w->end_ns, t1, sizeof(t1)));
		d->ops->cell(d, 6, dur(w->latency_ns, dl, sizeof(dl)));
		cellf(d, 7, "%s (%.0f%%)", lat_verdict_name(w->verdict.kind),
		      w->verdict.share * 100);
		cellf(d, 8, "%s", lat_report_verdict_text(w, ev, sizeof(ev)));
	}
	d->ops->table_end(d);
}

static void worst_cases(struct doc *d, const struct lat_bundle *bn)
{
	char name[512], h[640], dl[32];

	d->ops->head(d, 2, "Verdicts and worst cases");
	for (size_t i = 0; i < bn->n; i++)
		for (size_t k = 0; k < bn->in[i].nblocks; k++) {
			const struct lat_wakeup_result *r = wakeup_of(bn->in[i].blocks[k]);

			if (!r || !r->nworst)
				continue;
			block_name(bn, i, k, name, sizeof(name));
			verdict_counts(d, name, r);
			case_rows(d, r);
			d->ops->para(d, "The timelines: each task's worst case (latscope render "
					"--task PID draws a task's worst wait).");
			for (size_t c = 0; c < r->nworst; c++) {
				const struct lat_bundle_chart *ch = case_chart(bn, i, k, c + 1);
				const struct lat_wake_case *w = &r->worst[c];

				if (!ch)
					continue;
				snprintf(h, sizeof(h), "Case %zu: %.*s/%d waited %s", c + 1,
					 LAT_COMM_LEN, w->comm, w->pid,
					 dur(w->latency_ns, dl, sizeof(dl)));
				d->ops->head(d, 3, h);
				chart(d, ch);
			}
		}
}

static void other_charts(struct doc *d, const struct lat_bundle *bn)
{
	int any = 0;

	for (size_t j = 0; j < bn->ncharts; j++) {
		if (bn->charts[j].case_no)
			continue;
		if (!any++)
			d->ops->head(d, 2, "Charts");
		d->ops->head(d, 3, bn->charts[j].title);
		chart(d, &bn->charts[j]);
	}
}

/* "sysname nodename release version... machine": the token @idx (0..2), or the rest. */
static void uname_part(const char *u, int idx, char *buf, size_t len)
{
	const char *p = u, *e;
	size_t n;

	buf[0] = '\0';
	for (int t = 0; t < idx && p; t++) {
		p = strchr(p, ' ');
		p = p ? p + 1 : NULL;
	}
	if (!p)
		return;
	if (idx < 3) {
		e = strchr(p, ' ');
		n = e ? (size_t)(e - p) : strlen(p);
	} else {
		/* the version: up to the last blank (the machine follows it) */
		e = strrchr(p, ' ');
		n = e ? (size_t)(e - p) : strlen(p);
	}
	snprintf(buf, len, "%.*s", (int)n, p);
}

static void env_row(struct doc *d, const char *key, const char *val)
{
	d->ops->cell(d, 0, key);
	d->ops->cell(d, 1, val && val[0] ? val : "unknown");
}

/* The recorder's own line ("latscope: version=... cmdline=..."), without the prefix. */
static void recorder_line(const char *meta, char *buf, size_t len)
{
	const char *e;

	buf[0] = '\0';
	if (!meta || strncmp(meta, "latscope: version=", 18))
		return;
	e = strchr(meta, '\n');
	snprintf(buf, len, "%.*s", (int)(e ? e - meta - 10 : (ptrdiff_t)strlen(meta) - 10),
		 meta + 10);
}

/* A recorded-environment row of report/env.c into the table. */
static void recorded_row(void *ctx, const char *what, const char *value)
{
	char key[64];

	snprintf(key, sizeof(key), "recorded %s", what);
	env_row(ctx, key, value);
}

static void env_block(struct doc *d, const char *name, const struct lat_block *b,
		      const struct lat_wakeup_result *r)
{
	static const char *const cols[] = { "what", "value" };
	const struct lat_event_source *s = b->events;
	const char *u = s ? s->uname : NULL;
	char buf[1024], t0[40], t1[40], dl[32];

	d->ops->head(d, 3, name);
	d->ops->table(d, cols, 2);
	env_row(d, "reader", b->fmt ? b->fmt->name : NULL);
	uname_part(u ? u : "", 1, buf, sizeof(buf));
	env_row(d, "host", s && s->host ? s->host : buf);
	uname_part(u ? u : "", 2, buf, sizeof(buf));
	env_row(d, "kernel release", buf);
	uname_part(u ? u : "", 3, buf, sizeof(buf));
	env_row(d, "kernel version string", buf);
	/* the recorder's own view (recorded ... rows below) when the trace has it */
	if (!s || !s->env)
		env_row(d, "preemption model", lat_bundle_preempt_model(u ? buf : NULL));
	buf[0] = '\0';
	if (u && strrchr(u, ' '))
		snprintf(buf, sizeof(buf), "%s", strrchr(u, ' ') + 1);
	env_row(d, "machine", buf);
	snprintf(buf, sizeof(buf), "%d", s ? s->ncpus : 0);
	env_row(d, "CPUs in the trace", s && s->ncpus ? buf : NULL);
	env_row(d, "trace clock", s ? s->clock : NULL);
	recorder_line(s ? s->latscope_meta : NULL, buf, sizeof(buf));
	env_row(d, "recorded by", buf[0] ? buf : "not latscope (no latscope metadata)");
	rp_report_env_rows(b, recorded_row, d);
	if (r) {
		snprintf(buf, sizeof(buf), "%s .. %s (%s)",
			 lat_fmt_trace_ts(r->first_ns, t0, sizeof(t0)),
			 lat_fmt_trace_ts(r->last_ns, t1, sizeof(t1)),
			 dur((int64_t)(r->last_ns - r->first_ns), dl, sizeof(dl)));
		env_row(d, "events from", buf);
		snprintf(buf, sizeof(buf), "%llu lost, %llu gap%s",
			 (unsigned long long)r->lost_events, (unsigned long long)r->ngaps_total,
			 r->ngaps_total == 1 ? "" : "s");
		env_row(d, "lost events", buf);
	}
	d->ops->table_end(d);
}

static void environment(struct doc *d, const struct lat_bundle *bn)
{
	char name[512];
	int any = 0;

	for (size_t i = 0; i < bn->n; i++)
		for (size_t k = 0; k < bn->in[i].nblocks; k++) {
			const struct lat_block *b = bn->in[i].blocks[k];

			if (b->schema != LAT_SCHEMA_EVENTS)
				continue;
			if (!any++) {
				d->ops->head(d, 2, "Environment");
				d->ops->para(d, "As the trace stores it: the kernel from "
						"the trace.dat UNAME option, the clock and CPUs "
						"from the trace, the recorder's command line and "
						"the recorded environment (preemption, tick, "
						"isolation, virtualization, RT throttling, steal "
						"time) from latscope's metadata; without that, the "
						"preemption model from the kernel's version "
						"string.");
			}
			env_block(d, block_name(bn, i, k, name, sizeof(name)), b,
				  wakeup_of(b));
		}
}

static void reproduce(struct doc *d, const struct lat_bundle *bn)
{
	d->ops->head(d, 2, "Reproduce");
	d->ops->para(d, "This bundle:");
	d->ops->code(d, bn->command);
	for (size_t j = 0; j < bn->ncharts; j++) {
		if (!bn->charts[j].svg)
			continue;
		paraf(d, "%s (%s):", bn->charts[j].file, bn->charts[j].title);
		d->ops->code(d, bn->charts[j].command);
	}
}

static void bundle_doc(struct doc *d, const struct lat_bundle *bn)
{
	char line[1024];
	size_t at = 0;

	d->ops->open(d, "latscope report");
	for (size_t i = 0; i < bn->n && at < sizeof(line); i++)
		at += (size_t)snprintf(line + at, sizeof(line) - at, "%s%s", i ? ", " : "",
				       bn->in[i].path);
	paraf(d, "latscope %s; inputs: %s.", LATSCOPE_VERSION, line);
	summary(d, bn);
	worst_cases(d, bn);
	other_charts(d, bn);
	environment(d, bn);
	d->ops->head(d, 2, "Full report");
	d->ops->para(d, "The output of latscope analyze with the same options:");
	d->ops->pre(d, bn->summary ? bn->summary : "");
	reproduce(d, bn);
	d->ops->close(d);
}

void lat_bundle_md(FILE *out, const struct lat_bundle *b)
{
	struct doc d = { out, &md_ops, 0 };

	bundle_doc(&d, b);
}

void lat_bundle_html(FILE *out, const struct lat_bundle *b)
{
	struct doc d = { out, &html_ops, 0 };

	bundle_doc(&d, b);
}
