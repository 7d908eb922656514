// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `latscope export`: a trace's slices, waits and markers for other tools:
 * Chrome trace-event JSON (--perfetto) or rows (--rows, CSV or JSON Lines).
 * docs/export.md.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "latscope/export.h"
#include "latscope/input.h"
#include "cli.h"

void usage_export(FILE *out)
{
	fprintf(out,
		"usage: latscope export --perfetto OUT.json [options] TRACE\n"
		"       latscope export --rows waits|slices|samples|stalls|traces\n"
		"                       [--format csv|jsonl] [--host NAME] [--trace-id ID]\n"
		"                       [-o OUT] [options] TRACE...\n\n"
		"  -p, --perfetto OUT      Chrome trace-event JSON for ui.perfetto.dev and\n"
		"                          chrome://tracing (- is stdout): a track per CPU\n"
		"                          with the running slices, a track per task with its\n"
		"                          waits, waker arrows, markers, stalls, lost events\n"
		"  -r, --rows KIND         one row per wait, running slice, trace_marker line,\n"
		"                          stall, or trace (its metadata and totals)\n"
		"      --format csv|jsonl  rows as CSV (RFC 4180, the default) or JSON Lines\n"
		"  -o, --output OUT        write the rows there instead of stdout\n"
		"      --host NAME         the host column (default: trace.dat's node name)\n"
		"      --trace-id ID       the trace_id column (default: a hash of the file)\n"
		"      --reader NAME       read with this reader (see `latscope formats`)\n"
		"      --buffer NAME       trace.dat: export this instance's buffer\n"
		"      --wakeup-start waking|wakeup\n"
		"                          where a wakeup wait starts (default waking)\n\n"
		"Columns and tracks: docs/export.md.\n"
		"exit status: 0 ok, 1 the output could not be written,\n"
		"             2 usage error or an input that could not be read\n");
}

struct export_args {
	const char *perfetto, *output;
	int rows;			/* 1: --rows given */
	enum lat_rows_kind kind;
	enum lat_rows_fmt fmt;
	int fmt_given;
	const struct lat_format *reader;
	const char *buffer;		/* --buffer, NULL: the top one; lent */
	const char *host, *trace_id;	/* --host, --trace-id, NULL: the trace's own; lent */
	struct lat_analyze_opts o;
};

enum { OPT_FORMAT = 256, OPT_READER, OPT_BUFFER, OPT_WAKE, OPT_HOST, OPT_TRACE_ID };

static int parse_args(int argc, char **argv, struct export_args *a)
{
	static const struct option longopts[] = {
		{ "perfetto", required_argument, NULL, 'p' },
		{ "rows", required_argument, NULL, 'r' },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "output", required_argument, NULL, 'o' },
		{ "reader", required_argument, NULL, OPT_READER },
		{ "buffer", required_argument, NULL, OPT_BUFFER },
		{ "wakeup-start", required_argument, NULL, OPT_WAKE },
		{ "host", required_argument, NULL, OPT_HOST },
		{ "trace-id", required_argument, NULL, OPT_TRACE_ID },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "p:r:o:", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			a->perfetto = optarg;
			break;
		case 'r':
			if (lat_rows_kind_parse(optarg, &a->kind)) {
				fprintf(stderr, "latscope export: --rows: expected waits, "
						"slices, samples, stalls or traces, got '%s'\n",
					optarg);
				return -1;
			}
			a->rows = 1;
			break;
		case OPT_FORMAT:
			if (lat_rows_fmt_parse(optarg, &a->fmt)) {
				fprintf(stderr, "latscope export: --format: expected csv or jsonl, "
						"got '%s' (the reader is chosen with --reader)\n",
					optarg);
				return -1;
			}
			a->fmt_given = 1;
			break;
		case 'o':
			a->output = optarg;
			break;
		case OPT_READER:
			a->reader = lat_format_find(optarg);
			if (!a->reader) {
				fprintf(stderr, "latscope export: unknown reader '%s' "
						"(see `latscope formats`)\n", optarg);
				return -1;
			}
			break;
		case OPT_BUFFER:
			a->buffer = optarg;
			break;
		case OPT_HOST:
			a->host = optarg;
			break;
		case OPT_TRACE_ID:
			a->trace_id = optarg;
			break;
		case OPT_WAKE:
			if (!strcmp(optarg, "waking")) {
				a->o.wake_start = LAT_WAKE_START_WAKING;
			} else if (!strcmp(optarg, "wakeup")) {
				a->o.wake_start = LAT_WAKE_START_WAKEUP;
			} else {
				fprintf(stderr, "latscope export: --wakeup-start: expected waking "
						"or wakeup, got '%s'\n", optarg);
				return -1;
			}
			break;
		default:
			usage_export(stderr);
			return -1;
		}
	}
	if (!a->perfetto == !a->rows) {
		fprintf(stderr, "latscope export: give one of --perfetto OUT or --rows KIND\n");
		return -1;
	}
	if (a->trace_id && argc - optind > 1) {
		fprintf(stderr, "latscope export: --trace-id names one trace: give one TRACE\n");
		return -1;
	}
	if (a->perfetto && (a->fmt_given || a->output)) {
		fprintf(stderr, "latscope export: --format and --output go with --rows; "
				"--perfetto takes its file\n");
		return -1;
	}
	if (optind >= argc) {
		fprintf(stderr, "latscope export: no input trace\n");
		return -1;
	}
	if (a->perfetto && argc - optind > 1) {
		fprintf(stderr, "latscope export: --perfetto takes one trace\n");
		return -1;
	}
	return 0;
}

/* Where export_input() puts each stream's name, host and id while it runs (lent). */
struct export_names {
	const char **trace, **host, **trace_id;
	struct lat_rows *rows;		/* --rows: for the traces table, else NULL */
	char host_copy[256];	/* the last stream's host, kept past the input's release */
};

/*
 * Runs the wakeup analysis of every event stream of @path with @sink attached;
 * @names gets each stream's name and host while it runs.  Returns the number
 * of streams, or -1 after a message when the input cannot be read.
 */
static int export_input(const char *path, struct export_args *a, const struct lat_wake_sink *sink,
			struct export_names *names)
{
	struct lat_loaded l;
	char name[4096], id[64], hash[17] = "";
	int n = 0, nev = 0, ret;

	ret = lat_load(&l, path, &(struct lat_read_opts){ .format = a->reader,
							  .buffer = a->buffer, .diag = stderr });
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
	if (a->perfetto && nev > 1)
		fprintf(stderr, "%s: warning: %d event traces in one input: all on the same "
				"tracks\n", path, nev);
	if (names->trace_id && !a->trace_id && nev) {
		ret = lat_rows_trace_id(path, hash);
		if (ret < 0)
			fprintf(stderr, "%s: warning: no trace id (cannot read it again: %s)\n",
				path, lat_strerror(ret));
	}
	a->o.sink = sink;
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
		ret = lat_analyze_block(b, &a->o);
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
	if (names->trace_id)
		*names->trace_id = NULL;
	a->o.sink = NULL;
	lat_loaded_release(&l);
	return nev ? n : -1;
}

static int run_perfetto(struct export_args *a, const char *path)
{
	struct lat_perfetto p;
	struct lat_wake_sink sink;
	const char *trace = NULL, *host = NULL;
	struct export_names names = { .trace = &trace, .host = &host };
	FILE *out = strcmp(a->perfetto, "-") ? fopen(a->perfetto, "w") : stdout;
	int n, ret, werr;

	if (!out) {
		fprintf(stderr, "latscope export: cannot write %s: %s\n", a->perfetto,
			strerror(errno));
		return LAT_EXIT_FAIL;
	}
	lat_perfetto_begin(&p, out);
	lat_perfetto_sink(&p, &sink);
	n = export_input(path, a, &sink, &names);
	ret = lat_perfetto_end(&p, path, names.host_copy[0] ? names.host_copy : NULL);
	werr = fflush(out) || ferror(out);
	if (out != stdout)
		werr |= fclose(out) != 0;
	if (werr || ret < 0) {
		fprintf(stderr, "latscope export: cannot write %s: %s\n", a->perfetto,
			ret < 0 ? lat_strerror(ret) : "write error");
		return LAT_EXIT_FAIL;
	}
	return n < 0 ? LAT_EXIT_USAGE : LAT_EXIT_OK;
}

static int run_rows(struct export_args *a, int nin, char **in)
{
	struct lat_rows r;
	struct lat_wake_sink sink;
	struct export_names names = { .trace = &r.trace, .host = &r.host,
				      .trace_id = &r.trace_id, .rows = &r };
	FILE *out = a->output && strcmp(a->output, "-") ? fopen(a->output, "w") : stdout;
	int bad = 0, werr;

	if (!out) {
		fprintf(stderr, "latscope export: cannot write %s: %s\n", a->output,
			strerror(errno));
		return LAT_EXIT_FAIL;
	}
	lat_rows_init(&r, out, a->kind, a->fmt);
	lat_rows_header(&r);
	lat_rows_sink(&r, &sink);
	for (int i = 0; i < nin; i++)
		bad += export_input(in[i], a, &sink, &names) < 0;
	werr = fflush(out) || ferror(out);
	if (out != stdout)
		werr |= fclose(out) != 0;
	if (werr) {
		fprintf(stderr, "latscope export: cannot write %s\n",
			out == stdout ? "the rows" : a->output);
		return LAT_EXIT_FAIL;
	}
	return bad ? LAT_EXIT_USAGE : LAT_EXIT_OK;
}

int cmd_export(int argc, char **argv)
{
	struct export_args a;

	memset(&a, 0, sizeof(a));
	lat_analyze_opts_init(&a.o);
	a.o.worst_n = 0;	/* no case is explained: only the records are wanted */
	if (parse_args(argc, argv, &a) < 0)
		return LAT_EXIT_USAGE;
	if (a.perfetto)
		return run_perfetto(&a, argv[optind]);
	return run_rows(&a, argc - optind, argv + optind);
}
