// SPDX-License-Identifier: GPL-2.0-or-later
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "latscope/an_wakeup.h"
#include "latscope/export.h"
#include "latscope/input.h"
#include "latscope/report.h"
#include "latscope/summary.h"
#include "cli.h"
#include "options.h"

void usage_analyze(FILE *out)
{
	fprintf(out,
		"usage: latscope analyze [options] FILE...   (FILE - is stdin)\n\n"
		"  -f, --format NAME       read with this reader (see `latscope formats`)\n"
		"  -j, --json              JSON report (docs/json.md) instead of text; it lists\n"
		"                          every task unless --top is given\n"
		"  -t, --threshold DUR     freeze/spike threshold, e.g. 500us, 10ms, 2s (default 10ms)\n"
		"      --cpu-mhz MHZ       schedcnt: convert cycles to time\n"
		"  -w, --worst N           critical paths to explain (default 5)\n"
		"      --top N             rows in blame and per-task tables (default 20; the\n"
		"                          JSON: all, unless --top is given)\n"
		"      --task PID|COMM     only this task (a COMM: every thread with it)\n"
		"      --policy rt|fair|dl\n"
		"                          only tasks of this scheduling class\n"
		"      --min-prio N        only real-time tasks of priority N (1-99) or above\n"
		"      --fail-above DUR    CI gate: exit 3 when a counted wakeup wait of a\n"
		"                          selected task or a probe sample exceeds DUR (500us,\n"
		"                          1.5ms; a bare number is us); the report lists them\n"
		"      --sort KEY          wakeup tables: max, avg, p99, count, pid, comm (default max)\n"
		"      --buffer NAME       trace.dat: analyze this instance's buffer\n"
		"      --jobs N            threads reading a trace.dat or ftrace text file\n"
		"                          (default: the CPUs, at most 16; 1 for small files\n"
		"                          and uncompressed trace.dat of fewer than 8 CPUs)\n"
		"      --wakeup-start waking|wakeup\n"
		"                          where a wakeup wait starts (default waking)\n"
		"      --include-untrusted\n"
		"                          waits on a CPU whose events are incomplete (trace\n"
		"                          health) may head the worst and fail the gate too\n"
		"      --folded off|runnable\n"
		"                          instead of the report, every kernel stack with its\n"
		"                          off-CPU or runnable time in ns, as FlameGraph reads\n"
		"                          (flamegraph.pl --countname ns)\n"
		"      --mergeable         with --json: each input's mergeable summary of its\n"
		"                          wakeup waits, for `latscope merge` (docs/merge.md)\n"
		"      --host NAME         the summary's host label (default: trace.dat's node)\n"
		"      --summary-window FROM:TO\n"
		"                          the summary counts only waits ending in [FROM, TO),\n"
		"                          ns in the trace's clock (TO empty: to the end)\n\n"
		"exit status: 0 ok, 1 the report could not be written,\n"
		"             2 usage error or an input not readable (or, with --fail-above,\n"
		"             no event trace to check), 3 --fail-above exceeded\n"
		"durations: ns, us, ms, s; a bare number is microseconds\n");
}

/* analyze's own settings. */
struct analyze_cmd {
	int json;
	int folded;		/* -1 none, 0 off-CPU, 1 runnable */
	int mergeable;		/* --mergeable */
	const char *host;	/* --host, NULL: the trace's own; lent */
	int windowed;		/* --summary-window */
	uint64_t from_ns, to_ns;
	struct lat_summary *sums;	/* --mergeable: one per input */
};

static int set_json(struct cli_ctx *c, const char *arg)
{
	((struct analyze_cmd *)c->own)->json = 1;
	return 0;
}

static int set_sort(struct cli_ctx *c, const char *arg)
{
	if (lat_wake_sort_parse(arg, &(enum lat_wake_sort){ 0 })) {
		fprintf(stderr, "%s: --sort: expected max, avg, p99, count, pid or comm, got "
			"'%s'\n", c->cmd, arg);
		return -1;
	}
	c->an.sort = arg;
	return 0;
}

static int set_folded(struct cli_ctx *c, const char *arg)
{
	struct analyze_cmd *a = c->own;

	if (!strcmp(arg, "off")) {
		a->folded = 0;
	} else if (!strcmp(arg, "runnable")) {
		a->folded = 1;
	} else {
		fprintf(stderr, "%s: --folded: expected off or runnable, got '%s'\n", c->cmd, arg);
		return -1;
	}
	return 0;
}

static int set_mergeable(struct cli_ctx *c, const char *arg)
{
	((struct analyze_cmd *)c->own)->mergeable = 1;
	return 0;
}

static int set_host(struct cli_ctx *c, const char *arg)
{
	((struct analyze_cmd *)c->own)->host = arg;
	return 0;
}

static int set_window(struct cli_ctx *c, const char *arg)
{
	struct analyze_cmd *a = c->own;
	char *end;
	unsigned long long from, to = 0;

	from = strtoull(arg, &end, 10);
	if (end == arg || *end != ':' || arg[0] == '-')
		goto bad;
	if (end[1]) {
		const char *t = end + 1;

		to = strtoull(t, &end, 10);
		if (*end || t[0] == '-' || to <= from)
			goto bad;
	}
	a->windowed = 1;
	a->from_ns = from;
	a->to_ns = to;
	return 0;
bad:
	fprintf(stderr, "%s: --summary-window: expected FROM:TO in ns (FROM < TO, TO may be "
		"empty), got '%s'\n", c->cmd, arg);
	return -1;
}

static const struct cli_opt analyze_options[] = {
	{ "json", 'j', no_argument, set_json },
	{ "sort", 0, required_argument, set_sort },
	{ "folded", 0, required_argument, set_folded },
	{ "mergeable", 0, no_argument, set_mergeable },
	{ "host", 0, required_argument, set_host },
	{ "summary-window", 0, required_argument, set_window },
	{ NULL, 0, 0, NULL },
};

static const struct cli_opt *const analyze_tables[] = {
	cli_read_options, cli_analysis_options, cli_select_options, cli_gate_options,
	analyze_options, NULL,
};

/*
 * Analyzes block @k of @l, feeding @sum (when not NULL) with its waits if it
 * is an event trace.  @hash: the input's trace id (export's: a hash of the
 * file), computed here when first needed, "" when it cannot be (stdin).
 */
static int analyze_block(struct lat_loaded *l, size_t k, const char *path,
			 const struct analyze_cmd *a, struct lat_summary *sum,
			 const struct lat_analyze_opts *o, char hash[17])
{
	struct lat_block *b = l->blocks[k];
	struct lat_analyze_opts so;
	struct lat_wake_sink sink;
	char name[4096], id[64];
	size_t nev = 0;
	int ret;

	if (!sum || !b->events)
		return lat_analyze_block(b, o);
	for (size_t i = 0; i < l->nblocks; i++)
		nev += l->blocks[i]->events != NULL;
	if (!hash[0] && strcmp(path, "-") && lat_rows_trace_id(path, hash) < 0)
		hash[0] = '\0';
	/* several traces in one input (a mail): each by its first line, as export names them */
	if (nev > 1 && b->first_line) {
		snprintf(name, sizeof(name), "%s:%u", path, b->first_line);
		snprintf(id, sizeof(id), "%s:%u", hash, b->first_line);
	} else {
		snprintf(name, sizeof(name), "%s", path);
		snprintf(id, sizeof(id), "%s", hash);
	}
	sum->trace = name;
	sum->trace_id = hash[0] ? id : NULL;
	sum->host = a->host ? a->host : b->events->host;
	lat_summary_trace(sum);
	so = *o;
	lat_summary_sink(sum, &sink);
	so.sink = &sink;
	ret = lat_analyze_block(b, &so);
	sum->trace = sum->host = sum->trace_id = NULL;
	return ret;
}

int64_t cli_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * Loads and analyzes one input into @rep; false when it could not be read.  @read_ns (when
 * not NULL) gets the time lat_load() took added.
 */
static bool load_one(struct lat_loaded *l, struct lat_report_input *rep, const char *path,
		     const struct cli_ctx *c, struct lat_summary *sum, int64_t *read_ns)
{
	const struct analyze_cmd *a = c->own;
	int64_t t0 = cli_now_ns();
	int ret = lat_load(l, path, &c->read);
	char hash[17] = "";

	if (read_ns)
		*read_ns += cli_now_ns() - t0;

	rep->path = path;
	if (ret < 0) {
		fprintf(stderr, "%s: error: %s\n", path, l->error);
		rep->error = l->error;
		return false;
	}
	for (size_t k = 0; k < l->nblocks; k++) {
		ret = analyze_block(l, k, path, a, sum, &c->an, hash);
		if (ret < 0)
			lat_block_add_finding(l->blocks[k], "analysis-failed", LAT_SEV_HIGH,
					      "analysis stopped: %s", lat_strerror(ret));
	}
	rep->format = l->format;
	rep->blocks = l->blocks;
	rep->nblocks = l->nblocks;
	rep->nlines = l->nlines;
	rep->other_lines = l->other_lines;
	rep->repairs = &l->text.fix;
	rep->warnings = l->diag.nwarn;
	if (sum && sum->oom)
		fprintf(stderr, "%s: error: out of memory: the summary is incomplete\n", path);
	rep->summary = sum;
	return true;
}

static void report(const struct analyze_cmd *a, const struct lat_report_input *rep, size_t n,
		   size_t ok, const struct lat_analyze_opts *o)
{
	if (a->folded >= 0) {
		if (!lat_report_folded(stdout, rep, n, a->folded) && ok)
			fprintf(stderr, "latscope analyze: --folded: no kernel stacks in the input "
					"(record them with `latscope record --stacks` or "
					"`trace-cmd record -T`)\n");
	} else if (a->json) {
		lat_report_json(stdout, rep, n, o);
	} else {
		lat_report_text(stdout, rep, n, o);
	}
}

/*
 * The exit status once the report is out: 2 when an input could not be read (its waits are
 * unknown), else 3 when --fail-above was exceeded, or 2 when it had no event trace to check.
 */
static int status(const struct cli_ctx *c, const struct lat_report_input *rep, int nin, int ok)
{
	struct lat_gate g;

	if (ok != nin)
		return CLI_EXIT_USAGE;
	if (c->an.fail_above_ns <= 0)
		return CLI_EXIT_OK;
	if (lat_gate_check(rep, (size_t)nin, c->an.fail_above_ns, &g))
		return CLI_EXIT_GATE;
	if (!g.traces) {
		fprintf(stderr, "latscope analyze: --fail-above: no event trace (trace.dat, ftrace "
				"text) in the input: nothing was checked\n");
		return CLI_EXIT_USAGE;
	}
	return CLI_EXIT_OK;
}

bool cli_load_one(struct lat_loaded *l, struct lat_report_input *rep, const char *path,
		  const struct cli_ctx *c, int64_t *read_ns)
{
	/* without a summary, load_one() does not read c->own (analyze's own settings) */
	return load_one(l, rep, path, c, NULL, read_ns);
}

/* Every input loaded, analyzed and reported together. */
static int run_analyze(struct cli_ctx *c, const struct analyze_cmd *a, int nin, char **paths)
{
	struct lat_loaded *loaded = calloc((size_t)nin, sizeof(*loaded));
	struct lat_report_input *rep = calloc((size_t)nin, sizeof(*rep));
	struct lat_summary *sums = a->mergeable ? calloc((size_t)nin, sizeof(*sums)) : NULL;
	int ok = 0, rc = CLI_EXIT_FAIL;

	if (!loaded || !rep || (a->mergeable && !sums)) {
		fprintf(stderr, "latscope analyze: out of memory\n");
		goto out;
	}
	for (int i = 0; i < nin; i++) {
		struct lat_summary *sum = sums ? &sums[i] : NULL;

		if (sum) {
			lat_summary_init(sum);
			sum->windowed = a->windowed;
			sum->from_ns = a->from_ns;
			sum->to_ns = a->to_ns;
		}
		ok += load_one(&loaded[i], &rep[i], paths[i], c, sum, NULL);
	}
	report(a, rep, (size_t)nin, (size_t)ok, &c->an);
	if (fflush(stdout) || ferror(stdout))
		fprintf(stderr, "latscope analyze: cannot write the report\n");
	else
		rc = status(c, rep, nin, ok);
	for (int i = 0; i < nin; i++) {
		lat_loaded_release(&loaded[i]);
		if (sums)
			lat_summary_release(&sums[i]);
	}
out:
	free(loaded);
	free(rep);
	free(sums);
	return rc;
}

int cmd_analyze(int argc, char **argv)
{
	struct analyze_cmd a = { .json = 0, .folded = -1 };
	struct cli_ctx c;
	int first;

	cli_ctx_init(&c, argv[0], &a);
	first = cli_parse(argc, argv, analyze_tables, 0, &c, usage_analyze);
	if (first < 0)
		return CLI_EXIT_USAGE;
	if (a.folded >= 0 && a.json) {
		fprintf(stderr, "latscope analyze: --folded and --json: choose one\n");
		return CLI_EXIT_USAGE;
	}
	if ((a.mergeable || a.host || a.windowed) && !a.json) {
		fprintf(stderr, "latscope analyze: --mergeable, --host and --summary-window go "
				"with --json\n");
		return CLI_EXIT_USAGE;
	}
	if ((a.host || a.windowed) && !a.mergeable) {
		fprintf(stderr, "latscope analyze: --host and --summary-window label and cut the "
				"summary: add --mergeable\n");
		return CLI_EXIT_USAGE;
	}
	if (a.folded >= 0 && c.an.fail_above_ns) {
		fprintf(stderr, "latscope analyze: --folded and --fail-above: choose one\n");
		return CLI_EXIT_USAGE;
	}
	if (a.folded >= 0 || (a.json && !c.top_given))
		/* every stack: a flame graph of the top 20 would lie; scripts get every task */
		c.an.top_n = INT_MAX;
	if (argc - first < 1) {
		fprintf(stderr, "latscope analyze: no input file\n");
		usage_analyze(stderr);
		return CLI_EXIT_USAGE;
	}
	return run_analyze(&c, &a, argc - first, argv + first);
}
