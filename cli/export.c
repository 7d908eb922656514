// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `latscope export`: a trace's slices, waits and markers for other tools:
 * Chrome trace-event JSON (--perfetto) or rows (--rows, CSV or JSON Lines).
 * docs/export.md.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "latscope/export.h"
#include "latscope/input.h"
#include "cli.h"
#include "export_id.h"
#include "export_pipe.h"
#include "options.h"

void usage_export(FILE *out)
{
	fprintf(out,
		"usage: latscope export --perfetto OUT.json [options] TRACE\n"
		"       latscope export --perfetto-proto OUT.pftrace [options] TRACE\n"
		"       latscope export --rows waits|slices|samples|stalls|traces\n"
		"                       [--format csv|jsonl] [--host NAME] [--trace-id ID]\n"
		"                       [-o OUT] [options] TRACE...\n"
		"       latscope export --rows KIND,KIND...|all -o DIR [options] TRACE...\n\n"
		"  -p, --perfetto OUT      Chrome trace-event JSON for ui.perfetto.dev and\n"
		"                          chrome://tracing (- is stdout; OUT.gz: gzip): a\n"
		"                          track per CPU with the running slices, irqs and\n"
		"                          counters, a track per task (under its process)\n"
		"                          with its waits, verdicts and waker arrows\n"
		"  -P, --perfetto-proto OUT\n"
		"                          Perfetto's protobuf trace (- is stdout; OUT.gz:\n"
		"                          gzip): the\n"
		"                          sched and irq events as ftrace events (Perfetto's\n"
		"                          own CPU and thread-state tracks), the waits with\n"
		"                          their verdicts, stalls and run queues above them\n"
		"      --window T0:T1      --perfetto, --perfetto-proto: what overlaps\n"
		"                          T0..T1 (seconds of the trace clock, as trace-cmd\n"
		"                          report shows; either may be left out)\n"
		"      --task COMM|TID     --perfetto: that task's tracks and its wakers'\n"
		"  -r, --rows KIND         one row per wait, running slice, trace_marker line,\n"
		"                          stall, or trace (its metadata and totals); several\n"
		"                          kinds (or all) in one pass, each into -o DIR/KIND.csv\n"
		"                          or DIR/KIND.jsonl\n"
		"      --format csv|jsonl  rows as CSV (RFC 4180, the default) or JSON Lines\n"
		"  -o, --output OUT        write the rows there instead of stdout (several\n"
		"                          kinds: the directory, made if missing)\n"
		"      --host NAME         the host column (default: trace.dat's node name)\n"
		"      --trace-id ID       the trace_id column (default: a hash of the file)\n"
		"      --reader NAME       read with this reader (see `latscope formats`)\n"
		"      --buffer NAME       trace.dat: export this instance's buffer\n"
		"      --jobs N            threads reading, as for `latscope analyze`; the\n"
		"                          rows and trace events are written on one more\n"
		"                          (--jobs 1: all on one)\n"
		"      --wakeup-start waking|wakeup\n"
		"                          where a wakeup wait starts (default waking)\n"
		"  -t, --threshold DUR     waits of at least DUR get a verdict (the\n"
		"                          verdict column; default 10ms, as analyze;\n"
		"                          --perfetto: every wait, default 1ns)\n\n"
		"Columns and tracks: docs/export.md.\n"
		"exit status: 0 ok, 1 the output could not be written,\n"
		"             2 usage error or an input that could not be read\n");
}

/* export's own settings (cli_ctx.own); reading and analysis go to cli_ctx.read / .an */
struct export_args {
	const char *perfetto, *proto, *output;
	unsigned kinds;			/* --rows: a mask of 1 << lat_rows_kind, 0 none */
	enum lat_rows_fmt fmt;
	int fmt_given;
	const char *host, *trace_id;	/* --host, --trace-id, NULL: the trace's own; lent */
	struct lat_perfetto_opts pf;	/* --window, --task */
	int window_given, threshold_given;
};

static int set_perfetto(struct cli_ctx *c, const char *arg)
{
	((struct export_args *)c->own)->perfetto = arg;
	return 0;
}

static int set_proto(struct cli_ctx *c, const char *arg)
{
	((struct export_args *)c->own)->proto = arg;
	return 0;
}

static int set_rows(struct cli_ctx *c, const char *arg)
{
	struct export_args *a = c->own;
	const char *bad;
	size_t n;

	if (lat_rows_kinds_parse(arg, &a->kinds, &bad, &n)) {
		fprintf(stderr, "%s: --rows: expected waits, slices, samples, stalls or traces "
			"(a comma-separated list of them, or all), got '%.*s'\n", c->cmd,
			(int)n, bad);
		return -1;
	}
	return 0;
}

static int set_rows_format(struct cli_ctx *c, const char *arg)
{
	struct export_args *a = c->own;

	if (lat_rows_fmt_parse(arg, &a->fmt)) {
		fprintf(stderr, "%s: --format: expected csv or jsonl, got '%s' (the reader is "
			"chosen with --reader)\n", c->cmd, arg);
		return -1;
	}
	a->fmt_given = 1;
	return 0;
}

static int set_output(struct cli_ctx *c, const char *arg)
{
	((struct export_args *)c->own)->output = arg;
	return 0;
}

static int set_host(struct cli_ctx *c, const char *arg)
{
	((struct export_args *)c->own)->host = arg;
	return 0;
}

static int set_trace_id(struct cli_ctx *c, const char *arg)
{
	((struct export_args *)c->own)->trace_id = arg;
	return 0;
}

/*
 * Seconds with up to 9 decimals ("13309.5") into ns, exactly; "" is @dflt.
 * Returns 0, or -1 when it is no such number.
 */
static int parse_sec(const char *s, size_t len, uint64_t dflt, uint64_t *out)
{
	uint64_t sec = 0, frac = 0, scale = 1000000000;
	size_t i = 0;

	*out = dflt;
	if (!len)
		return 0;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
		if ((sec = sec * 10 + (uint64_t)(s[i] - '0')) > UINT64_MAX / 1000000000 / 10)
			return -1;
	if (!i || (i < len && s[i] != '.'))
		return -1;
	for (i++; i < len && s[i] >= '0' && s[i] <= '9' && scale > 1; i++)
		frac += (uint64_t)(s[i] - '0') * (scale /= 10);
	if (i < len)
		return -1;
	*out = sec * 1000000000 + frac;
	return 0;
}

static int set_window(struct cli_ctx *c, const char *arg)
{
	struct export_args *a = c->own;
	const char *colon = strchr(arg, ':');

	if (!colon || parse_sec(arg, (size_t)(colon - arg), 0, &a->pf.from_ns) ||
	    parse_sec(colon + 1, strlen(colon + 1), 0, &a->pf.to_ns) ||
	    (a->pf.to_ns && a->pf.to_ns < a->pf.from_ns)) {
		fprintf(stderr, "%s: --window: expected T0:T1, seconds of the trace clock "
			"(T0 <= T1, either may be empty), got '%s'\n", c->cmd, arg);
		return -1;
	}
	a->window_given = 1;
	return 0;
}

static int set_task(struct cli_ctx *c, const char *arg)
{
	((struct export_args *)c->own)->pf.task = arg;
	return 0;
}

static int set_threshold(struct cli_ctx *c, const char *arg)
{
	((struct export_args *)c->own)->threshold_given = 1;
	return cli_set_threshold(c, arg);
}

/* --reader NAME: export's --format is the rows' format, so the reader has this name. */
static int set_reader(struct cli_ctx *c, const char *arg)
{
	return cli_set_reader(c, "reader", arg);
}

/* One line an option; a new one (and its setter) goes here and into usage_export(). */
static const struct cli_opt export_options[] = {
	{ "perfetto", 'p', required_argument, set_perfetto },
	{ "perfetto-proto", 'P', required_argument, set_proto },
	{ "rows", 'r', required_argument, set_rows },
	{ "format", 0, required_argument, set_rows_format },
	{ "output", 'o', required_argument, set_output },
	{ "reader", 0, required_argument, set_reader },
	{ "buffer", 0, required_argument, cli_set_buffer },
	{ "jobs", 0, required_argument, cli_set_jobs },
	{ "wakeup-start", 0, required_argument, cli_set_wake_start },
	{ "threshold", 't', required_argument, set_threshold },
	{ "window", 0, required_argument, set_window },
	{ "task", 0, required_argument, set_task },
	{ "host", 0, required_argument, set_host },
	{ "trace-id", 0, required_argument, set_trace_id },
	{ NULL, 0, 0, NULL },
};

static const struct cli_opt *const export_tables[] = { export_options, NULL };

/* The options that go together, and the inputs: 0, or -1 after saying why. */
static int check_args(const struct export_args *a, int ninputs)
{
	if (!!a->perfetto + !!a->proto + !!a->kinds != 1) {
		fprintf(stderr, "latscope export: give one of --perfetto OUT, --perfetto-proto "
				"OUT or --rows KIND\n");
		return -1;
	}
	if (a->proto && (a->fmt_given || a->output || a->pf.task || a->host || a->trace_id)) {
		fprintf(stderr, "latscope export: --perfetto-proto takes its file and --window; "
				"--task, --format, --output, --host and --trace-id go with "
				"the others\n");
		return -1;
	}
	if (a->proto && ninputs > 1) {
		fprintf(stderr, "latscope export: --perfetto-proto takes one trace\n");
		return -1;
	}
	if (a->trace_id && ninputs > 1) {
		fprintf(stderr, "latscope export: --trace-id names one trace: give one TRACE\n");
		return -1;
	}
	if (a->perfetto && (a->fmt_given || a->output)) {
		fprintf(stderr, "latscope export: --format and --output go with --rows; "
				"--perfetto takes its file\n");
		return -1;
	}
	if (ninputs < 1) {
		fprintf(stderr, "latscope export: no input trace\n");
		return -1;
	}
	if (!a->perfetto && !a->proto && (a->window_given || a->pf.task)) {
		fprintf(stderr, "latscope export: --window and --task go with --perfetto; "
				"filter the rows instead\n");
		return -1;
	}
	if (a->perfetto && ninputs > 1) {
		fprintf(stderr, "latscope export: --perfetto takes one trace\n");
		return -1;
	}
	if ((a->kinds & (a->kinds - 1)) && (!a->output || !strcmp(a->output, "-"))) {
		fprintf(stderr, "latscope export: several --rows kinds go into files: give "
				"-o DIR\n");
		return -1;
	}
	return 0;
}

/* Where export_input() puts each stream's name, host and id while it runs (lent). */
struct export_names {
	const char **trace, **host, **trace_id;
	struct lat_rows *rows;		/* --rows: for the traces table, else NULL */
	struct lat_perfetto *pf;	/* --perfetto: for the tasks' processes, else NULL */
	struct lat_pfproto *pp;		/* --perfetto-proto: the same, and the system */
	struct cli_ids *ids;		/* --rows without --trace-id: the ids' hash, else NULL */
	struct cli_pipe *pipe;		/* the records written on a thread of their own, or NULL */
	char host_copy[256];	/* the last stream's host, kept past the input's release */
};

/*
 * The pid column of @b's rows, from the recorder's tgids line, and the wall_ns
 * column, from its wall clock offset (docs/record.md).
 */
static void export_source(struct lat_rows *r, const struct lat_block *b, const char *name)
{
	int ret = lat_rows_source(r, b->events);

	if (ret == -LAT_EFORMAT)
		fprintf(stderr, "%s: warning: the recorder's tgids line is damaged: the pid "
				"column is empty for the tasks from the first bad pair on\n", name);
	else if (ret < 0)
		fprintf(stderr, "%s: warning: the pid column is empty: %s\n", name,
			lat_strerror(ret));
}

static void id_warning(const char *path, int err)
{
	fprintf(stderr, "%s: warning: no trace id (cannot read it again: %s)\n", path,
		lat_strerror(err));
}

/* The rows of an input written with its id (cli_ids_finish()); its error. */
static int ids_finish(struct cli_ids *ids, const struct lat_rows *r)
{
	FILE *outs[LAT_ROWS_NKINDS];

	for (int k = 0; k < LAT_ROWS_NKINDS; k++)
		outs[k] = r->t[k].out;
	return cli_ids_finish(ids, outs, LAT_ROWS_NKINDS);
}

/*
 * Runs the wakeup analysis of every event stream of @path with @sink attached;
 * @names gets each stream's name and host while it runs.  Returns the number
 * of streams, or -1 after a message when the input cannot be read.
 */
static int export_input(const char *path, struct cli_ctx *c, const struct lat_wake_sink *sink,
			struct export_names *names)
{
	const struct export_args *a = c->own;
	struct lat_loaded l;
	char name[4096], id[64] = "", hash[17] = "";
	int n = 0, nev = 0, ret;

	ret = lat_load(&l, path, &c->read);
	if (ret < 0) {
		fprintf(stderr, "%s: error: %s\n", path, l.error);
		lat_loaded_release(&l);
		return -1;
	}
	for (size_t k = 0; k < l.nblocks; k++)
		nev += l.blocks[k]->events != NULL;
	if (!nev)
		fprintf(stderr, "%s: error: not an event trace (%s): nothing to export\n", path,
			l.format ? l.format : "?");
	if ((a->perfetto || a->proto) && nev > 1)
		fprintf(stderr, "%s: warning: %d event traces in one input: all on the same "
				"tracks\n", path, nev);
	if (names->trace_id && !a->trace_id && nev) {
		/* on a thread of its own while the rows are made (cli/export_id.c) */
		ret = names->ids ? cli_ids_start(names->ids, path, hash, id) :
				   lat_rows_trace_id(path, hash);
		if (ret < 0)
			id_warning(path, ret);
	}
	c->an.sink = sink;
	for (size_t k = 0; k < l.nblocks; k++) {
		struct lat_block *b = l.blocks[k];

		if (!b->events)
			continue;
		n++;
		/* several traces in one input (a mail): name each by its first line */
		if (nev > 1 && b->first_line)
			snprintf(name, sizeof(name), "%s:%u", path, b->first_line);
		else
			snprintf(name, sizeof(name), "%s", path);
		*names->trace = name;
		*names->host = a->host ? a->host : b->events->host;
		if (names->trace_id) {
			/* several traces in one input: each its own id */
			const char *base = a->trace_id ? a->trace_id : hash;

			if (nev > 1 && b->first_line)
				snprintf(id, sizeof(id), "%.40s:%u", base, b->first_line);
			else
				snprintf(id, sizeof(id), "%s", base);
			*names->trace_id = id;
		}
		snprintf(names->host_copy, sizeof(names->host_copy), "%s",
			 b->events->host ? b->events->host : "");
		if (names->rows)
			export_source(names->rows, b, name);
		if (names->pf)
			lat_perfetto_source(names->pf, b->events);
		if (names->pp)
			lat_pfproto_source(names->pp, b->events);
		if ((names->pf || names->pp) && b->events->tgids &&
		    b->events->tgids->status == -LAT_EFORMAT)
			fprintf(stderr, "%s: warning: the recorder's tgids line is damaged: the "
					"tasks from the first bad pair on have no process\n", name);
		ret = lat_analyze_block(b, &c->an);
		/* its records written before its names change and its totals are written */
		if (names->pipe)
			cli_pipe_drain(names->pipe);
		if (ret < 0)
			fprintf(stderr, "%s: error: the analysis stopped: %s; the export holds "
					"what came before\n", name, lat_strerror(ret));
		if (names->rows)
			lat_rows_trace(names->rows, b);
		for (size_t i = 0; i < b->nfindings; i++)
			if (b->findings[i].sev != LAT_SEV_INFO)
				fprintf(stderr, "%s: warning: %s\n", name, b->findings[i].message);
	}
	*names->trace = NULL;
	*names->host = NULL;
	if (names->rows) {
		names->rows->tg = NULL;	/* the source's, released below */
		lat_rows_flush(names->rows);	/* this input's rows, before its id is put in */
	}
	if (names->ids && names->rows && (ret = ids_finish(names->ids, names->rows)) < 0)
		id_warning(path, ret);
	if (names->trace_id)
		*names->trace_id = NULL;
	c->an.sink = NULL;
	lat_loaded_release(&l);
	return nev ? n : -1;
}

/* gzip through a FILE (fopencookie): the writers keep their fprintf()s. */
static ssize_t gz_write(void *cookie, const char *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		unsigned n = len - done > 1u << 30 ? 1u << 30 : (unsigned)(len - done);
		int w = gzwrite(cookie, buf + done, n);

		if (w <= 0)
			return done ? (ssize_t)done : -1;
		done += (size_t)w;
	}
	return (ssize_t)done;
}

static int gz_close(void *cookie)
{
	return gzclose(cookie) == Z_OK ? 0 : EOF;
}

static int ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), m = strlen(tail);

	return n >= m && !strcmp(s + n - m, tail);
}

/* The --perfetto output: stdout, a file, or a gzip file (OUT.gz); NULL after saying why. */
static FILE *perfetto_open(const char *path)
{
	cookie_io_functions_t io = { .write = gz_write, .close = gz_close };
	gzFile gz;
	FILE *f;

	if (!strcmp(path, "-"))
		return stdout;
	if (!ends_with(path, ".gz")) {
		if (!(f = fopen(path, "w")))
			fprintf(stderr, "latscope export: cannot write %s: %s\n", path,
				strerror(errno));
		return f;
	}
	/* level 6, zlib's default: level 1 wrote 45 % more for 2.4x less CPU (a 20 s export) */
	if (!(gz = gzopen(path, "wb6"))) {
		fprintf(stderr, "latscope export: cannot write %s: %s\n", path,
			errno ? strerror(errno) : "out of memory");
		return NULL;
	}
	gzbuffer(gz, 1 << 18);
	if (!(f = fopencookie(gz, "w", io))) {
		gzclose(gz);
		fprintf(stderr, "latscope export: cannot write %s: %s\n", path,
			strerror(errno));
	}
	return f;
}

/*
 * The sink the analysis is given: @sink itself, or, when a second thread may run (--jobs
 * other than 1), the front of @pipe, whose thread writes the records while the analysis
 * goes on (cli/export_pipe.h); names->pipe is then set, to stop with cli_pipe_stop().
 */
static const struct lat_wake_sink *pipe_sink(const struct cli_ctx *c, struct cli_pipe *pipe,
					     const struct lat_wake_sink *sink,
					     struct lat_wake_sink *front,
					     struct export_names *names)
{
	int jobs = c->read.jobs ? c->read.jobs : lat_jobs_default();

	if (jobs < 2 || cli_pipe_start(pipe, sink, front))
		return sink;
	names->pipe = pipe;
	return front;
}

static int run_perfetto(struct cli_ctx *c, const char *path)
{
	const struct export_args *a = c->own;
	struct lat_perfetto p;
	struct lat_wake_sink sink, front;
	struct cli_pipe pipe;
	const char *trace = NULL, *host = NULL;
	struct export_names names = { .trace = &trace, .host = &host, .pf = &p };
	FILE *out = perfetto_open(a->perfetto);
	int n, ret, werr;

	if (!out)
		return CLI_EXIT_FAIL;
	/* every wait judged: a verdict on each wait slice */
	if (!a->threshold_given)
		c->an.threshold_ns = 1;
	setvbuf(out, NULL, _IOFBF, 1 << 16);
	if (lat_perfetto_begin(&p, out, &a->pf)) {
		fprintf(stderr, "latscope export: out of memory\n");
		if (out != stdout)
			fclose(out);
		return CLI_EXIT_FAIL;
	}
	lat_perfetto_sink(&p, &sink);
	n = export_input(path, c, pipe_sink(c, &pipe, &sink, &front, &names), &names);
	if (names.pipe)
		cli_pipe_stop(names.pipe);
	ret = lat_perfetto_end(&p, path, names.host_copy[0] ? names.host_copy : NULL);
	werr = fflush(out) || ferror(out);
	if (out != stdout)
		werr |= fclose(out) != 0;
	if (werr || ret < 0) {
		fprintf(stderr, "latscope export: cannot write %s: %s\n", a->perfetto,
			ret < 0 ? lat_strerror(ret) : "write error");
		return CLI_EXIT_FAIL;
	}
	return n < 0 ? CLI_EXIT_USAGE : CLI_EXIT_OK;
}

static int run_proto(struct cli_ctx *c, const char *path)
{
	const struct export_args *a = c->own;
	struct lat_wake_sink sink;
	const char *trace = NULL, *host = NULL;
	struct export_names names = { .trace = &trace, .host = &host };
	FILE *out = perfetto_open(a->proto);
	int n, ret, werr;

	if (!out)
		return CLI_EXIT_FAIL;
	if (!(names.pp = lat_pfproto_new(out, &a->pf))) {
		fprintf(stderr, "latscope export: out of memory\n");
		if (out != stdout)
			fclose(out);
		return CLI_EXIT_FAIL;
	}
	/* every wait judged: a verdict on each wait slice */
	if (!a->threshold_given)
		c->an.threshold_ns = 1;
	setvbuf(out, NULL, _IOFBF, 1 << 16);
	lat_pfproto_sink(names.pp, &sink);
	n = export_input(path, c, &sink, &names);
	ret = lat_pfproto_end(names.pp);
	werr = fflush(out) || ferror(out);
	if (out != stdout)
		werr |= fclose(out) != 0;
	if (werr || ret < 0) {
		fprintf(stderr, "latscope export: cannot write %s: %s\n", a->proto,
			ret < 0 ? lat_strerror(ret) : "write error");
		return CLI_EXIT_FAIL;
	}
	return n < 0 ? CLI_EXIT_USAGE : CLI_EXIT_OK;
}

/*
 * Rows go out in 256 KiB writes, not stdio's 4 KiB (a tenth of the system time of a
 * 25 MB table, bench/README-export.md); memory stays bounded: one buffer per table.
 */
static void rows_buffer(FILE *out)
{
	setvbuf(out, NULL, _IOFBF, 256 << 10);
}

/*
 * @out as a table's stream: through @ids (the rows held while the id is hashed) when not
 * NULL; NULL after a message.
 */
static FILE *table_stream(FILE *out, struct cli_ids *ids)
{
	FILE *f = ids ? cli_ids_stream(ids, out) : out;

	if (!f) {
		fprintf(stderr, "latscope export: out of memory\n");
		if (out != stdout)
			fclose(out);
		return NULL;
	}
	rows_buffer(f);
	return f;
}

/* Table @k of @r goes to @out: 0, or -1 after a message (@out closed unless stdout). */
static int set_table(struct lat_rows *r, int k, FILE *out)
{
	if (!lat_rows_table(r, (enum lat_rows_kind)k, out))
		return 0;
	fprintf(stderr, "latscope export: out of memory\n");
	if (out != stdout)
		fclose(out);
	return -1;
}

/*
 * A table's file, open for reading too where it may be: the rows are then given their trace
 * id in place when its hash is known (cli/export_id.c), not held in memory till then.
 */
static FILE *table_file(const char *path)
{
	FILE *f = fopen(path, "w+");

	return f ? f : fopen(path, "w");
}

/*
 * Opens the table files of --rows: stdout or -o OUT for one kind, DIR/KIND.EXT
 * for several (DIR made if missing), through @ids when not NULL.  Returns 0, or
 * -1 after a message.
 */
static int open_tables(const struct export_args *a, struct lat_rows *r, struct cli_ids *ids)
{
	int one = !(a->kinds & (a->kinds - 1));

	if (one) {
		FILE *out = a->output && strcmp(a->output, "-") ? table_file(a->output) : stdout;

		if (!out) {
			fprintf(stderr, "latscope export: cannot write %s: %s\n", a->output,
				strerror(errno));
			return -1;
		}
		if (!(out = table_stream(out, ids)))
			return -1;
		for (int k = 0; k < LAT_ROWS_NKINDS; k++)
			if ((a->kinds & (1u << k)) && set_table(r, k, out))
				return -1;
		return 0;
	}
	if (mkdir(a->output, 0777) && errno != EEXIST) {
		fprintf(stderr, "latscope export: cannot make %s: %s\n", a->output,
			strerror(errno));
		return -1;
	}
	for (int k = 0; k < LAT_ROWS_NKINDS; k++) {
		char path[4096];
		FILE *out;

		if (!(a->kinds & (1u << k)))
			continue;
		snprintf(path, sizeof(path), "%s/%s.%s", a->output,
			 lat_rows_kind_name((enum lat_rows_kind)k), lat_rows_fmt_name(a->fmt));
		out = table_file(path);
		if (!out) {
			fprintf(stderr, "latscope export: cannot write %s: %s\n", path,
				strerror(errno));
			return -1;
		}
		if (!(out = table_stream(out, ids)) || set_table(r, k, out))
			return -1;
	}
	return 0;
}

/* Flushes and closes the tables' files; 0, or -1 after naming the one that failed. */
static int close_tables(const struct export_args *a, struct lat_rows *r)
{
	int bad = 0;

	lat_rows_flush(r);
	for (int k = 0; k < LAT_ROWS_NKINDS; k++) {
		FILE *out = r->t[k].out;
		int werr;

		if (!out)
			continue;
		for (int j = k + 1; j < LAT_ROWS_NKINDS; j++)
			if (r->t[j].out == out)
				r->t[j].out = NULL;	/* one stream: closed once */
		werr = fflush(out) || ferror(out);
		if (out != stdout)
			werr |= fclose(out) != 0;
		r->t[k].out = NULL;
		if (werr && !bad && (a->kinds & (a->kinds - 1)))
			fprintf(stderr, "latscope export: cannot write %s/%s.%s\n", a->output,
				lat_rows_kind_name((enum lat_rows_kind)k),
				lat_rows_fmt_name(a->fmt));
		else if (werr && !bad)
			fprintf(stderr, "latscope export: cannot write %s\n",
				out == stdout ? "the rows" : a->output);
		bad |= werr;
	}
	return bad ? -1 : 0;
}

static int run_rows(struct cli_ctx *c, int nin, char **in)
{
	const struct export_args *a = c->own;
	struct lat_rows r;
	struct lat_wake_sink sink, front;
	const struct lat_wake_sink *use;
	struct cli_pipe pipe;
	struct cli_ids ids = { .running = 0 };
	struct export_names names = { .trace = &r.trace, .host = &r.host,
				      .trace_id = &r.trace_id, .rows = &r,
				      .ids = a->trace_id ? NULL : &ids };
	int bad = 0, werr;

	lat_rows_init(&r, a->fmt);
	r.threshold_ns = c->an.threshold_ns;
	werr = open_tables(a, &r, names.ids);
	if (!werr) {
		lat_rows_header(&r);
		lat_rows_sink(&r, &sink);
		use = pipe_sink(c, &pipe, &sink, &front, &names);
		for (int i = 0; i < nin; i++)
			bad += export_input(in[i], c, use, &names) < 0;
		if (names.pipe)
			cli_pipe_stop(names.pipe);
	}
	werr |= close_tables(a, &r);
	lat_rows_release(&r);
	if (werr)
		return CLI_EXIT_FAIL;
	return bad ? CLI_EXIT_USAGE : CLI_EXIT_OK;
}

int cmd_export(int argc, char **argv)
{
	struct export_args a = { .perfetto = NULL };
	struct cli_ctx c;
	int first;

	cli_ctx_init(&c, argv[0], &a);
	c.an.worst_n = 0;	/* no case is explained: only the records are wanted */
	first = cli_parse(argc, argv, export_tables, 0, &c, usage_export);
	if (first < 0 || check_args(&a, argc - first) < 0)
		return CLI_EXIT_USAGE;
	if (a.perfetto)
		return run_perfetto(&c, argv[first]);
	if (a.proto)
		return run_proto(&c, argv[first]);
	return run_rows(&c, argc - first, argv + first);
}
