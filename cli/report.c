// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `latscope report TRACE... -o DIR`: the bug-report bundle (docs/report.md).  Each input is
 * read and analyzed once, with what the charts ask of the analysis added (timelines, the
 * CPUs' activity): the text report is the one `latscope analyze` writes, and every chart is
 * drawn from the same analysis by the render module exactly as the `latscope render` command
 * printed beside it draws it; report/bundle.c writes report.md and report.html.
 * The two reports are written under temporary names and renamed last: a DIR holding them holds
 * a complete bundle.
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "latscope/an_wakeup.h"
#include "latscope/bundle.h"
#include "latscope/format.h"
#include "latscope/input.h"
#include "latscope/render.h"
#include "cli.h"
#include "options.h"

#define REPORT_W 1200
#define REPORT_H 675

void usage_report(FILE *out)
{
	fprintf(out,
		"usage: latscope report [options] -o DIR TRACE...\n\n"
		"Writes DIR/report.md (charts in DIR/charts/) and DIR/report.html\n"
		"(self-contained: charts inline, no network): summary, verdicts, the worst\n"
		"cases with their timelines, the other charts of each trace, the recording's\n"
		"environment and the latscope command that draws each chart.  Says on stderr\n"
		"how long each step took.\n\n"
		"  -o, --output DIR        the bundle's directory (created if missing)\n"
		"      --size WxH          charts' size in points (default %dx%d)\n"
		"  -w, --worst N           worst cases explained (default 5)\n"
		"      --task PID|COMM, --policy rt|fair|dl, --min-prio N\n"
		"                          the tasks analyzed, as for `latscope analyze`\n"
		"      --fail-above DUR    CI gate, as for `latscope analyze` (exit 3)\n"
		"  -f, --format NAME, --buffer NAME, --jobs N, -t, --threshold DUR,\n"
		"      --cpu-mhz MHZ, --top N, --wakeup-start waking|wakeup, --include-untrusted\n"
		"                                       as for `latscope analyze`\n\n"
		"exit status: 0 the bundle was written, 1 it could not be (DIR not writable, a\n"
		"write failed, the render module missing), 2 usage error or an input not\n"
		"readable (nothing written), 3 written, and --fail-above was exceeded\n"
		"durations: ns, us, ms, s; a bare number is microseconds\n",
		REPORT_W, REPORT_H);
}

struct report_cmd {
	const char *dir;
	int width, height;
	int nin;
};

/* How long each step took, printed on stderr (docs/report.md, "Times"). */
struct report_times {
	int64_t start_ns, read_ns, analyze_ns, pass_ns, text_ns, write_ns;
	size_t npass;
};

/* One chart of the bundle. */
struct chart_job {
	size_t input, block, case_no;
	enum lat_chart_kind kind;
	char task[24];			/* --task of its command, "" none */
	char base[64];			/* file name stem, as the command's -o names it */
	char file[96];			/* "charts/STEM[-BLOCK].svg", as render writes it */
	char title[160];
	char *command;			/* owned */
	struct lat_render_buf buf;	/* the SVG, owned */
	char why[300];			/* not drawn: why */
	int64_t draw_ns;		/* the time drawing it took */
	int drawn, written;
	int unfit;			/* the chart does not draw this kind of block at all */
	int own_pass;			/* a case's timeline that needs a pass of its own */
};

/* The charts of a whole event trace beside the cases' timelines: one row each. */
static const struct {
	enum lat_chart_kind kind;
	const char *title;
} trace_charts[] = {
	{ LAT_CHART_HISTOGRAM, "wakeup-latency histogram" },
	{ LAT_CHART_BLAME, "blame" },
	{ LAT_CHART_CPUS, "CPU lanes" },
	{ LAT_CHART_SERIES, "series" },
	{ LAT_CHART_PROBE, "probe-sample histogram" },
};

static int set_output(struct cli_ctx *c, const char *arg)
{
	((struct report_cmd *)c->own)->dir = arg;
	return 0;
}

static int set_size(struct cli_ctx *c, const char *arg)
{
	struct report_cmd *r = c->own;
	char *end;
	long w = strtol(arg, &end, 10), h = 0;

	if (end != arg && (*end == 'x' || *end == 'X')) {
		arg = end + 1;
		h = strtol(arg, &end, 10);
	}
	if (end == arg || *end || w < LAT_RENDER_MIN_W || w > LAT_RENDER_MAX_W ||
	    h < LAT_RENDER_MIN_H || h > LAT_RENDER_MAX_H) {
		fprintf(stderr, "%s: --size: expected WxH from %dx%d to %dx%d, got '%s'\n", c->cmd,
			LAT_RENDER_MIN_W, LAT_RENDER_MIN_H, LAT_RENDER_MAX_W, LAT_RENDER_MAX_H,
			arg);
		return -1;
	}
	r->width = (int)w;
	r->height = (int)h;
	return 0;
}

static const struct cli_opt report_options[] = {
	{ "output", 'o', required_argument, set_output },
	{ "size", 0, required_argument, set_size },
	{ NULL, 0, 0, NULL },
};

static const struct cli_opt *const report_tables[] = {
	report_options, cli_read_options, cli_analysis_options, cli_select_options,
	cli_gate_options, NULL,
};

/* ---- commands ---------------------------------------------------------------- */

/* @s as one shell word. */
static void shell_word(FILE *f, const char *s)
{
	if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
		     "_/.,:=+-@%") == strlen(s)) {
		fputs(s, f);
		return;
	}
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

/* The options of @c that change what a chart shows, as `latscope render` takes them. */
static void common_options(FILE *f, const struct cli_ctx *c)
{
	struct lat_analyze_opts def;

	lat_analyze_opts_init(&def);
	if (c->read.format)
		fprintf(f, " -f %s", c->read.format->name);
	if (c->read.buffer) {
		fputs(" --buffer ", f);
		shell_word(f, c->read.buffer);
	}
	if (c->an.threshold_ns != def.threshold_ns)
		fprintf(f, " -t %lldns", (long long)c->an.threshold_ns);
	if (c->an.cpu_mhz > 0)
		fprintf(f, " --cpu-mhz %.17g", c->an.cpu_mhz);
	if (c->top_given)
		fprintf(f, " --top %d", c->an.top_n);
	if (c->an.wake_start == LAT_WAKE_START_WAKEUP)
		fputs(" --wakeup-start wakeup", f);
	if (c->an.include_untrusted)
		fputs(" --include-untrusted", f);
	if (c->an.policy) {
		fputs(" --policy ", f);
		shell_word(f, c->an.policy);
	}
	if (c->an.min_prio > 0)
		fprintf(f, " --min-prio %d", c->an.min_prio);
}

static char *job_command(const struct cli_ctx *c, const struct report_cmd *r, const char *path,
			 const struct chart_job *j)
{
	char *cmd = NULL, out[4200];
	size_t len = 0;
	FILE *f = open_memstream(&cmd, &len);

	if (!f)
		return NULL;
	fputs("latscope render", f);
	common_options(f, c);
	if (j->kind != LAT_CHART_AUTO)
		fprintf(f, " --chart %s", lat_chart_name(j->kind));
	if (j->task[0]) {
		fputs(" --task ", f);
		shell_word(f, j->task);
	}
	fprintf(f, " --worst %d --size %dx%d -o ", c->an.worst_n, r->width, r->height);
	snprintf(out, sizeof(out), "%s/charts/%s.svg", r->dir, j->base);
	shell_word(f, out);
	/* a file named -x would be read as an option */
	fputs(path[0] == '-' ? " ./" : " ", f);
	shell_word(f, path);
	if (fclose(f)) {
		free(cmd);
		return NULL;
	}
	return cmd;
}

/* ---- the charts -------------------------------------------------------------- */

/*
 * The analysis a chart is drawn from.  The report's own (load_all()) with the --task of the
 * report: every chart of a block is drawn from it, each case's timeline from its place in the
 * worst list (docs/report.md, "One analysis").  Only under a --task COMM, when the case's
 * task has a wait COMM did not select (another name then) that ranks as high, is its
 * timeline (`--task PID`, which explains that wait first) drawn from a pass of its own.
 */
struct chart_pass {
	size_t input, block;
	char task[24];		/* its --task, "" none */
	int loaded;		/* l holds the input: release it */
	int ok;			/* the block is there and analyzed */
	struct lat_loaded l;
	const struct lat_loaded *src;	/* what is drawn: &l, or the report's input */
	char why[300];		/* !ok: why */
};

/* The options of the report's one analysis: `latscope analyze`'s, and what charts need. */
static struct lat_analyze_opts charts_opts(const struct lat_analyze_opts *an)
{
	struct lat_analyze_opts ao = *an;

	/* `latscope render` keeps 1 (cli/render.c): the worst's, or the --task's */
	ao.timelines = an->worst_n > 1 ? an->worst_n : 1;
	ao.activity = 1;
	return ao;
}

/* --task as the analysis reads it: a PID when all digits (analyze/wakeup.c). */
static int task_is_pid(const char *task)
{
	char *end;
	long v = strtol(task, &end, 10);

	return *task && !*end && v >= 0 && v <= INT32_MAX;
}

/* The --task of the pass that draws @j. */
static const char *pass_task(const struct cli_ctx *c, const struct chart_job *j)
{
	if (j->own_pass && c->an.task && !task_is_pid(c->an.task))
		return j->task;
	return c->an.task ? c->an.task : "";
}

static int same_pass(const struct chart_pass *p, const struct cli_ctx *c,
		     const struct chart_job *j)
{
	return p->loaded && p->input == j->input && p->block == j->block &&
	       !strcmp(p->task, pass_task(c, j));
}

/* @j is drawn from the report's own analysis (its pass selects the report's tasks). */
static int shared_pass(const struct cli_ctx *c, const struct chart_job *j)
{
	return !strcmp(pass_task(c, j), c->an.task ? c->an.task : "");
}

/* @p set to draw @j from the report's analysis of its input, @l. */
static void pass_share(struct chart_pass *p, const struct cli_ctx *c, const struct lat_loaded *l,
		       const struct chart_job *j)
{
	p->input = j->input;
	p->block = j->block;
	snprintf(p->task, sizeof(p->task), "%s", c->an.task ? c->an.task : "");
	p->src = l;
	p->ok = 1;
}

static void pass_release(struct chart_pass *p)
{
	if (p->loaded)
		lat_loaded_release(&p->l);
	p->loaded = p->ok = 0;
}

/* Reads @path again and analyzes @j's block for its pass. */
static void pass_run(struct chart_pass *p, const struct cli_ctx *c, const char *path,
		     const struct chart_job *j)
{
	struct lat_read_opts rd = c->read;
	struct lat_analyze_opts ao = charts_opts(&c->an);
	int ret;

	pass_release(p);
	p->input = j->input;
	p->block = j->block;
	snprintf(p->task, sizeof(p->task), "%s", pass_task(c, j));
	p->loaded = 1;
	p->src = &p->l;
	rd.diag = NULL;		/* its warnings were printed once, by the report's own read */
	ao.task = p->task[0] ? p->task : NULL;
	ao.fail_above_ns = 0;
	if (lat_load(&p->l, path, &rd) < 0 || j->block >= p->l.nblocks) {
		snprintf(p->why, sizeof(p->why), "the input could not be read again: %.200s",
			 p->l.error[0] ? p->l.error : "fewer blocks");
		return;
	}
	ret = lat_analyze_block(p->l.blocks[j->block], &ao);
	if (ret < 0)
		fprintf(stderr, "%s: block %zu: analysis stopped: %s\n", path, j->block + 1,
			lat_strerror(ret));
	p->ok = 1;
}

/* Draws @j from pass @p as its command draws it. */
static void draw(const struct lat_render_api *api, const struct report_cmd *r,
		 const struct cli_ctx *c, const char *path, const struct chart_pass *p,
		 struct chart_job *j)
{
	struct lat_render_opts ro;
	int ret;

	if (!p->ok) {
		snprintf(j->why, sizeof(j->why), "%s", p->why);
		return;
	}
	lat_render_opts_init(&ro);
	ro.width = r->width;
	ro.height = r->height;
	ro.format = LAT_RENDER_SVG;
	ro.chart = j->kind;
	ro.task = j->task[0] ? j->task : NULL;
	/* `render --task PID` draws the task's worst: the case itself, the first of its task */
	if (j->case_no && strcmp(p->task, j->task))
		ro.case_idx = j->case_no - 1;
	ro.worst = c->an.worst_n;
	ro.source = path;
	ro.block_no = p->src->nblocks > 1 ? (int)j->block + 1 : 0;
	j->draw_ns = cli_now_ns();
	ret = api->render_block(p->src->blocks[j->block], &ro, &j->buf);
	j->draw_ns = cli_now_ns() - j->draw_ns;
	if (ret < 0)
		snprintf(j->why, sizeof(j->why), "%s", j->buf.msg);
	else
		j->drawn = 1;
	j->unfit = ret == -LAT_EUSAGE;
}

/* A new job for block @k of input @i (NULL when out of memory). */
static struct chart_job *add_job(struct chart_job **jobs, size_t *n, size_t *cap, size_t i,
				 size_t k)
{
	struct chart_job *j;

	if (lat_grow(jobs, cap, *n + 1, sizeof(**jobs)))
		return NULL;
	j = &(*jobs)[(*n)++];
	memset(j, 0, sizeof(*j));
	j->input = i;
	j->block = k;
	return j;
}

/* Names @j's files from @stem: input and block numbers added when there are several. */
static void name_job(struct chart_job *j, const struct report_cmd *r,
		     const struct lat_report_input *in, const char *stem)
{
	if (r->nin > 1)
		snprintf(j->base, sizeof(j->base), "in%zu-%s", j->input + 1, stem);
	else
		snprintf(j->base, sizeof(j->base), "%s", stem);
	if (in->nblocks > 1)
		snprintf(j->file, sizeof(j->file), "charts/%s-%zu.svg", j->base, j->block + 1);
	else
		snprintf(j->file, sizeof(j->file), "charts/%s.svg", j->base);
}

/* The worst case of each task among the explained ones: its timeline (`render --task PID`). */
static int case_jobs(struct chart_job **jobs, size_t *n, size_t *cap,
		     const struct report_cmd *r, const struct lat_report_input *in, size_t i,
		     size_t k)
{
	const struct lat_wakeup_result *w = in->blocks[k]->analysis;
	char stem[48];

	for (size_t c = 0; w && c < w->nworst; c++) {
		const struct lat_wake_case *wc = &w->worst[c];
		struct chart_job *j;
		size_t prev = 0;

		while (prev < c && w->worst[prev].pid != wc->pid)
			prev++;
		if (prev < c)	/* `render --task PID` draws the task's worst: case prev */
			continue;
		j = add_job(jobs, n, cap, i, k);
		if (!j)
			return -1;
		j->case_no = c + 1;
		j->kind = LAT_CHART_TIMELINE;
		j->own_pass = wc->outranked_unselected;
		snprintf(j->task, sizeof(j->task), "%d", wc->pid);
		snprintf(stem, sizeof(stem), "case-%zu-timeline", c + 1);
		name_job(j, r, in, stem);
		snprintf(j->title, sizeof(j->title), "timeline of case %zu: %.*s/%d", c + 1,
			 LAT_COMM_LEN, wc->comm, wc->pid);
	}
	return 0;
}

static int block_jobs(struct chart_job **jobs, size_t *n, size_t *cap,
		      const struct report_cmd *r, const struct cli_ctx *c,
		      const struct lat_report_input *in, size_t i, size_t k)
{
	const struct lat_block *b = in->blocks[k];
	struct chart_job *j;

	if (b->schema != LAT_SCHEMA_EVENTS) {
		j = add_job(jobs, n, cap, i, k);
		if (!j)
			return -1;
		j->kind = LAT_CHART_AUTO;
		name_job(j, r, in, "chart");
		snprintf(j->title, sizeof(j->title), "%s chart",
			 lat_chart_name(lat_render_pick(b)));
		return 0;
	}
	if (case_jobs(jobs, n, cap, r, in, i, k))
		return -1;
	for (size_t t = 0; t < LAT_ARRAY_SIZE(trace_charts); t++) {
		j = add_job(jobs, n, cap, i, k);
		if (!j)
			return -1;
		j->kind = trace_charts[t].kind;
		if (c->an.task)
			snprintf(j->task, sizeof(j->task), "%s", c->an.task);
		name_job(j, r, in, lat_chart_name(j->kind));
		snprintf(j->title, sizeof(j->title), "%s", trace_charts[t].title);
	}
	return 0;
}

/* Every chart of the bundle, drawn from @loaded (the report's analysis) where it can be. */
static int make_charts(const struct lat_render_api *api, const struct cli_ctx *c,
		       const struct report_cmd *r, const struct lat_report_input *in,
		       const struct lat_loaded *loaded, struct chart_job **jobs, size_t *n,
		       struct report_times *tm)
{
	struct chart_pass pass = { .loaded = 0 }, shared = { .loaded = 0 };
	size_t cap = 0;

	for (size_t i = 0; i < (size_t)r->nin; i++)
		for (size_t k = 0; k < in[i].nblocks; k++)
			if (block_jobs(jobs, n, &cap, r, c, &in[i], i, k))
				return -1;
	/* the jobs of one pass are next to each other (a block's): one pass at a time is kept */
	for (size_t j = 0; j < *n; j++) {
		struct chart_job *cj = &(*jobs)[j];

		cj->command = job_command(c, r, in[cj->input].path, cj);
		if (!cj->command) {
			pass_release(&pass);
			return -1;
		}
		if (shared_pass(c, cj)) {
			pass_share(&shared, c, &loaded[cj->input], cj);
			draw(api, r, c, in[cj->input].path, &shared, cj);
			continue;
		}
		if (!same_pass(&pass, c, cj)) {
			int64_t t0 = cli_now_ns();

			pass_run(&pass, c, in[cj->input].path, cj);
			tm->pass_ns += cli_now_ns() - t0;
			tm->npass++;
		}
		draw(api, r, c, in[cj->input].path, &pass, cj);
	}
	pass_release(&pass);
	return 0;
}

/* ---- the files --------------------------------------------------------------- */

/* DIR/NAME into @buf; -1 when too long. */
static int dir_path(const struct report_cmd *r, const char *name, char *buf, size_t len)
{
	return (size_t)snprintf(buf, len, "%s/%s", r->dir, name) < len ? 0 : -1;
}

static int make_dir(const char *path)
{
	struct stat st;

	if (!mkdir(path, 0777))
		return 0;
	if (errno != EEXIST)
		return -1;
	if (stat(path, &st))
		return -1;
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return -1;
	}
	return 0;
}

/* Removes a previous bundle's reports (so a failure leaves none) and makes DIR/charts. */
static int prepare_dir(const struct report_cmd *r, char *what, size_t len)
{
	static const char *const reports[] = { "report.md", "report.html" };
	char p[4200];

	snprintf(what, len, "%s", r->dir);
	if (make_dir(r->dir) || access(r->dir, W_OK | X_OK))
		return -1;
	for (size_t i = 0; i < LAT_ARRAY_SIZE(reports); i++) {
		if (dir_path(r, reports[i], p, sizeof(p)))
			return errno = ENAMETOOLONG, -1;
		snprintf(what, len, "%s", p);
		if (unlink(p) && errno != ENOENT)
			return -1;
	}
	if (dir_path(r, "charts", p, sizeof(p)))
		return errno = ENAMETOOLONG, -1;
	snprintf(what, len, "%s", p);
	return make_dir(p);
}

/* Writes one report (@md 1: Markdown, 0: HTML) to DIR/NAME.tmp. */
static int write_report(const struct report_cmd *r, const char *name, int md,
			const struct lat_bundle *bn, char *what, size_t len)
{
	char p[4200];
	FILE *f;
	int bad;

	if (dir_path(r, name, p, sizeof(p)))
		return errno = ENAMETOOLONG, -1;
	snprintf(what, len, "%s", p);
	f = fopen(p, "w");
	if (!f)
		return -1;
	if (md)
		lat_bundle_md(f, bn);
	else
		lat_bundle_html(f, bn);
	bad = ferror(f);
	bad |= fclose(f) != 0;
	if (bad && !errno)
		errno = EIO;
	return bad ? -1 : 0;
}

/* Undoes a failed bundle: the temporary reports and the charts written. */
static void undo(const struct report_cmd *r, struct chart_job *jobs, size_t n)
{
	static const char *const tmp[] = { ".report.md.tmp", ".report.html.tmp" };
	char p[4200];

	for (size_t i = 0; i < LAT_ARRAY_SIZE(tmp); i++)
		if (!dir_path(r, tmp[i], p, sizeof(p)))
			unlink(p);
	for (size_t j = 0; j < n; j++)
		if (jobs[j].written && !dir_path(r, jobs[j].file, p, sizeof(p)))
			unlink(p);
}

static int write_files(const struct report_cmd *r, struct chart_job *jobs, size_t n,
		       const struct lat_bundle *bn, char *what, size_t len)
{
	char p[4200], q[4200];

	for (size_t j = 0; j < n; j++) {
		if (!jobs[j].drawn)
			continue;
		if (dir_path(r, jobs[j].file, p, sizeof(p)))
			return errno = ENAMETOOLONG, -1;
		snprintf(what, len, "%s", p);
		errno = 0;
		if (cli_write_file(p, &jobs[j].buf))
			return errno = errno ? errno : EIO, -1;
		jobs[j].written = 1;
	}
	if (write_report(r, ".report.md.tmp", 1, bn, what, len) ||
	    write_report(r, ".report.html.tmp", 0, bn, what, len))
		return -1;
	if (dir_path(r, ".report.md.tmp", p, sizeof(p)) || dir_path(r, "report.md", q, sizeof(q)))
		return errno = ENAMETOOLONG, -1;
	snprintf(what, len, "%s", q);
	if (rename(p, q))
		return -1;
	if (dir_path(r, ".report.html.tmp", p, sizeof(p)) ||
	    dir_path(r, "report.html", q, sizeof(q)))
		return errno = ENAMETOOLONG, -1;
	snprintf(what, len, "%s", q);
	if (rename(p, q)) {
		int e = errno;

		dir_path(r, "report.md", q, sizeof(q));
		unlink(q);
		errno = e;
		return -1;
	}
	return 0;
}

/* ---- the command ------------------------------------------------------------- */

/* The bundle's own command line, for its header. */
static char *own_command(int argc, char **argv)
{
	char *cmd = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&cmd, &len);

	if (!f)
		return NULL;
	fputs("latscope report", f);
	for (int i = 1; i < argc; i++) {
		fputc(' ', f);
		shell_word(f, argv[i]);
	}
	if (fclose(f)) {
		free(cmd);
		return NULL;
	}
	return cmd;
}

static char *text_report(const struct lat_report_input *rep, size_t n,
			 const struct lat_analyze_opts *o)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	if (!f)
		return NULL;
	lat_report_text(f, rep, n, o);
	if (fclose(f)) {
		free(s);
		return NULL;
	}
	return s;
}

struct bundle_run {
	struct lat_loaded *loaded;
	struct lat_report_input *rep;
	struct chart_job *jobs;
	size_t njobs;
	char *summary, *command;
	struct lat_bundle_chart *charts;
};

static void run_free(struct bundle_run *b, int nin)
{
	for (int i = 0; b->loaded && i < nin; i++)
		lat_loaded_release(&b->loaded[i]);
	for (size_t j = 0; j < b->njobs; j++) {
		free(b->jobs[j].command);
		lat_render_buf_release(&b->jobs[j].buf);
	}
	free(b->jobs);
	free(b->loaded);
	free(b->rep);
	free(b->summary);
	free(b->command);
	free(b->charts);
}

/* The charts for the documents: every one but those of a kind the block cannot have. */
static size_t fill_charts(struct bundle_run *b, const struct report_cmd *r)
{
	size_t n = 0;

	for (size_t j = 0; j < b->njobs; j++) {
		const struct chart_job *cj = &b->jobs[j];

		if (cj->unfit)
			continue;
		b->charts[n++] = (struct lat_bundle_chart){
			.input = cj->input, .block = cj->block, .case_no = cj->case_no,
			.kind = lat_chart_name(cj->kind), .title = cj->title, .file = cj->file,
			.command = cj->command, .svg = cj->drawn ? cj->buf.data : NULL,
			.len = cj->buf.len, .width = r->width, .height = r->height,
			.why = cj->why,
		};
	}
	return n;
}

/*
 * Loads and analyzes every input, once for the text report and the charts (charts_opts());
 * CLI_EXIT_OK, or the status after a message.
 */
static int load_all(struct bundle_run *b, const struct cli_ctx *c, int nin, char **paths,
		    struct report_times *tm)
{
	struct cli_ctx lc = *c;
	int ok = 0;

	b->loaded = calloc((size_t)nin, sizeof(*b->loaded));
	b->rep = calloc((size_t)nin, sizeof(*b->rep));
	if (!b->loaded || !b->rep) {
		fprintf(stderr, "latscope report: out of memory\n");
		return CLI_EXIT_FAIL;
	}
	lc.an = charts_opts(&c->an);
	for (int i = 0; i < nin; i++)
		ok += cli_load_one(&b->loaded[i], &b->rep[i], paths[i], &lc, &tm->read_ns);
	tm->analyze_ns = cli_now_ns() - tm->start_ns - tm->read_ns;
	if (ok != nin) {
		fprintf(stderr, "latscope report: %d of %d inputs could not be read: no bundle "
				"written\n", nin - ok, nin);
		return CLI_EXIT_USAGE;
	}
	return CLI_EXIT_OK;
}

static size_t drawn(const struct chart_job *jobs, size_t n)
{
	size_t k = 0;

	for (size_t j = 0; j < n; j++)
		k += jobs[j].drawn;
	return k;
}

/* Each step's time on stderr: stdout and the bundle's files stay the same bytes run to run. */
static void print_times(const struct report_times *tm, const struct chart_job *jobs, size_t n)
{
	int64_t draw_ns = 0;

	fprintf(stderr, "latscope report: time: read %.1f ms\n", tm->read_ns / 1e6);
	fprintf(stderr, "latscope report: time: analyze %.1f ms\n", tm->analyze_ns / 1e6);
	fprintf(stderr, "latscope report: time: text report %.1f ms\n", tm->text_ns / 1e6);
	if (tm->npass)
		fprintf(stderr, "latscope report: time: timelines' own analysis %.1f ms "
				"(%zu pass%s)\n", tm->pass_ns / 1e6, tm->npass,
			tm->npass == 1 ? "" : "es");
	for (size_t j = 0; j < n; j++) {
		draw_ns += jobs[j].draw_ns;
		if (jobs[j].drawn)
			fprintf(stderr, "latscope report: time: draw %s %.1f ms\n", jobs[j].file,
				jobs[j].draw_ns / 1e6);
	}
	fprintf(stderr, "latscope report: time: draw, all %.1f ms\n", draw_ns / 1e6);
	fprintf(stderr, "latscope report: time: write %.1f ms\n", tm->write_ns / 1e6);
	fprintf(stderr, "latscope report: time: total %.1f ms\n", (cli_now_ns() - tm->start_ns) / 1e6);
}

static int run_report(struct cli_ctx *c, struct report_cmd *r, char **paths, char *cmd)
{
	struct bundle_run b = { .command = cmd };
	struct report_times tm = { .start_ns = cli_now_ns() };
	const struct lat_render_api *api;
	struct lat_bundle bn;
	struct lat_gate g;
	char what[4200];
	int rc;

	rc = load_all(&b, c, r->nin, paths, &tm);
	if (rc != CLI_EXIT_OK)
		goto out;
	rc = CLI_EXIT_FAIL;
	api = cli_render_api();
	if (!api)
		goto out;
	tm.text_ns = cli_now_ns();
	b.summary = text_report(b.rep, (size_t)r->nin, &c->an);
	tm.text_ns = cli_now_ns() - tm.text_ns;
	if (!b.summary || make_charts(api, c, r, b.rep, b.loaded, &b.jobs, &b.njobs, &tm) ||
	    !(b.charts = calloc(b.njobs + 1, sizeof(*b.charts)))) {
		fprintf(stderr, "latscope report: out of memory\n");
		goto out;
	}
	bn = (struct lat_bundle){ b.command, b.rep, (size_t)r->nin, &c->an, b.summary,
				  b.charts, fill_charts(&b, r) };
	tm.write_ns = cli_now_ns();
	if (prepare_dir(r, what, sizeof(what)) ||
	    write_files(r, b.jobs, b.njobs, &bn, what, sizeof(what))) {
		fprintf(stderr, "latscope report: %s: %s: no bundle written\n", what,
			strerror(errno));
		undo(r, b.jobs, b.njobs);
		goto out;
	}
	printf("%s/report.md, %s/report.html: %zu chart%s drawn\n", r->dir, r->dir,
	       drawn(b.jobs, b.njobs), drawn(b.jobs, b.njobs) == 1 ? "" : "s");
	for (size_t j = 0; j < b.njobs; j++)
		if (!b.jobs[j].drawn && !b.jobs[j].unfit)
			printf("  %s: not drawn: %s\n", b.jobs[j].file, b.jobs[j].why);
	tm.write_ns = cli_now_ns() - tm.write_ns;
	print_times(&tm, b.jobs, b.njobs);
	rc = CLI_EXIT_OK;
	if (c->an.fail_above_ns > 0 &&
	    lat_gate_check(b.rep, (size_t)r->nin, c->an.fail_above_ns, &g))
		rc = CLI_EXIT_GATE;
out:
	run_free(&b, r->nin);
	return rc;
}

int cmd_report(int argc, char **argv)
{
	struct report_cmd r = { .dir = NULL, .width = REPORT_W, .height = REPORT_H };
	struct cli_ctx c;
	char *cmd;
	int first;

	cli_ctx_init(&c, argv[0], &r);
	first = cli_parse(argc, argv, report_tables, 0, &c, usage_report);
	if (first < 0)
		return CLI_EXIT_USAGE;
	if (!r.dir || !*r.dir) {
		fprintf(stderr, "latscope report: -o DIR: the bundle's directory is required\n");
		return CLI_EXIT_USAGE;
	}
	if (argc - first < 1) {
		fprintf(stderr, "latscope report: expected a trace or log file\n");
		usage_report(stderr);
		return CLI_EXIT_USAGE;
	}
	for (int i = first; i < argc; i++)
		if (!strcmp(argv[i], "-")) {
			fprintf(stderr, "latscope report: each input is read again for its charts: "
					"give a file, not - (stdin)\n");
			return CLI_EXIT_USAGE;
		}
	r.nin = argc - first;
	cmd = own_command(argc, argv);
	if (!cmd) {
		fprintf(stderr, "latscope report: out of memory\n");
		return CLI_EXIT_FAIL;
	}
	/* run_report frees cmd */
	return run_report(&c, &r, argv + first, cmd);
}
