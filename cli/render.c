// SPDX-License-Identifier: GPL-2.0-or-later
/* `latscope render`: one chart per block of an input, PNG or SVG by the extension. */
#include <getopt.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "latscope/analyze.h"
#include "latscope/input.h"
#include "latscope/render.h"
#include "cli.h"
#include "options.h"

void usage_render(FILE *out)
{
	fprintf(out,
		"usage: latscope render [options] INPUT   (INPUT - is stdin)\n"
		"       latscope render -o OUT.png INPUT INPUT...\n"
		"                          the histograms of every input in one chart\n"
		"                          (cyclictest runs, rtla, perf sched timehist, the\n"
		"                          wakeup latency of traces: A/B)\n\n"
		"  -o, --output FILE       OUT.png or OUT.svg (default: INPUT's name + .png);\n"
		"                          several blocks give OUT-1.png, OUT-2.png, ... (block number)\n"
		"  -c, --chart KIND        auto|timeline|histogram|series|blame|cpus|probe (default\n"
		"                          auto: series for loop logs, histogram, cpus for\n"
		"                          schedcnt, blame for function dumps, timeline for traces;\n"
		"                          a trace also takes histogram (wakeup latency), probe,\n"
		"                          blame (--stacks icicle) and cpus (CPU lanes))\n"
		"      --window START:END  timeline: only this part, times since the timeline's\n"
		"                          start (e.g. 2ms:5ms, 1.5ms: for to the end)\n"
		"      --task PID|COMM     timeline: the task whose wakeup to explain;\n"
		"                          histogram: the tasks drawn (also --policy, --min-prio)\n"
		"  -w, --worst N           freezes / cases labelled on the chart (default 5)\n"
		"      --size WxH          pixels (SVG: points), default 1600x900\n"
		"  -f, --format NAME       read with this reader (see `latscope formats`)\n"
		"  -t, --threshold DUR     freeze threshold drawn on series charts (default 10ms)\n"
		"      --buffer NAME       trace.dat: chart this instance's buffer\n"
		"      --jobs N            threads reading, as for `latscope analyze`\n"
		"      --cpu-mhz MHZ, --top N, --wakeup-start waking|wakeup, --include-untrusted\n"
		"                          passed to the analysis, as for `latscope analyze`\n\n"
		"exit status: 0 a chart was written for every block, 1 some block had no chart, a\n"
		"write failed or the render module (" LAT_RENDER_MODULE_NAME ") could not be\n"
		"loaded, 2 usage error or no input readable\n");
}

/* render's own settings. */
struct render_cmd {
	struct lat_render_opts ro;
	const char *out;	/* -o, NULL: INPUT's name + .png */
};

static int parse_window(const char *arg, struct lat_render_opts *o)
{
	const char *colon = strchr(arg, ':');
	char start[64];
	size_t n;

	if (!colon || (n = (size_t)(colon - arg)) >= sizeof(start))
		return -1;
	memcpy(start, arg, n);
	start[n] = '\0';
	o->window_start_ns = 0;
	o->window_end_ns = -1;
	if (n && (lat_parse_duration(start, LAT_NS_PER_US, &o->window_start_ns) ||
		  o->window_start_ns < 0))
		return -1;
	if (colon[1] && (lat_parse_duration(colon + 1, LAT_NS_PER_US, &o->window_end_ns) ||
			 o->window_end_ns <= o->window_start_ns))
		return -1;
	o->has_window = 1;
	return 0;
}

static int parse_size(const char *arg, struct lat_render_opts *o)
{
	char *end;
	long w = strtol(arg, &end, 10), h;

	if (end == arg || (*end != 'x' && *end != 'X'))
		return -1;
	arg = end + 1;
	h = strtol(arg, &end, 10);
	if (end == arg || *end || w < LAT_RENDER_MIN_W || w > LAT_RENDER_MAX_W ||
	    h < LAT_RENDER_MIN_H || h > LAT_RENDER_MAX_H)
		return -1;
	o->width = (int)w;
	o->height = (int)h;
	return 0;
}

static int has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), k = strlen(suf);

	return n >= k && !strcasecmp(s + n - k, suf);
}

/* OUT.png -> OUT-3.png (@no > 0), into @buf. */
static void numbered(const char *out, int no, char *buf, size_t len)
{
	const char *dot = strrchr(out, '.');
	size_t stem = dot ? (size_t)(dot - out) : strlen(out);

	if (no <= 0)
		snprintf(buf, len, "%s", out);
	else
		snprintf(buf, len, "%.*s-%d%s", (int)stem, out, no, dot ? dot : "");
}

static int set_output(struct cli_ctx *c, const char *arg)
{
	((struct render_cmd *)c->own)->out = arg;
	return 0;
}

static int set_chart(struct cli_ctx *c, const char *arg)
{
	if (lat_chart_from_name(arg, &((struct render_cmd *)c->own)->ro.chart)) {
		fprintf(stderr, "%s: --chart: expected auto, timeline, histogram, series, blame, "
			"cpus or probe, got '%s'\n", c->cmd, arg);
		return -1;
	}
	return 0;
}

static int set_window(struct cli_ctx *c, const char *arg)
{
	if (parse_window(arg, &((struct render_cmd *)c->own)->ro)) {
		fprintf(stderr, "%s: --window: expected START:END with durations such as "
			"2ms:5ms, got '%s'\n", c->cmd, arg);
		return -1;
	}
	return 0;
}

static int set_size(struct cli_ctx *c, const char *arg)
{
	if (parse_size(arg, &((struct render_cmd *)c->own)->ro)) {
		fprintf(stderr, "%s: --size: expected WxH from %dx%d to %dx%d, got '%s'\n",
			c->cmd, LAT_RENDER_MIN_W, LAT_RENDER_MIN_H, LAT_RENDER_MAX_W,
			LAT_RENDER_MAX_H, arg);
		return -1;
	}
	return 0;
}

static const struct cli_opt render_options[] = {
	{ "output", 'o', required_argument, set_output },
	{ "chart", 'c', required_argument, set_chart },
	{ "window", 0, required_argument, set_window },
	{ "size", 0, required_argument, set_size },
	{ NULL, 0, 0, NULL },
};

static const struct cli_opt *const render_tables[] = {
	render_options, cli_analysis_options, cli_select_options, cli_read_options, NULL,
};

/* -o, else INPUT's file name + .png (in *@defout, to free); the type from the extension. */
static int check_output(struct render_cmd *r, const char *input, char **defout)
{
	if (!r->out) {
		char *copy = strdup(input);

		if (!copy || asprintf(defout, "%s.png", strcmp(input, "-") ?
				      basename(copy) : "stdin") < 0)
			*defout = NULL;
		free(copy);
		if (!*defout) {
			fprintf(stderr, "latscope render: out of memory\n");
			return CLI_EXIT_FAIL;
		}
		r->out = *defout;
	}
	if (has_suffix(r->out, ".svg")) {
		r->ro.format = LAT_RENDER_SVG;
	} else if (!has_suffix(r->out, ".png")) {
		fprintf(stderr, "latscope render: -o: expected a name ending in .png or .svg, "
				"got '%s'\n", r->out);
		return CLI_EXIT_USAGE;
	}
	return CLI_EXIT_OK;
}

/* Analyzes and draws block @k of @l into its file; false when it got no chart. */
static bool render_one(const struct lat_render_api *api, struct lat_loaded *l, size_t k,
		       struct render_cmd *r, const struct lat_analyze_opts *ao,
		       struct lat_render_buf *buf)
{
	struct lat_block *b = l->blocks[k];
	char path[4096];
	int ret = lat_analyze_block(b, ao);

	if (ret < 0)
		fprintf(stderr, "%s: block %zu: analysis stopped: %s\n", r->ro.source, k + 1,
			lat_strerror(ret));
	r->ro.block_no = l->nblocks > 1 ? (int)k + 1 : 0;
	ret = api->render_block(b, &r->ro, buf);
	if (ret < 0) {
		if (b->last_line)
			fprintf(stderr, "%s: block %zu (lines %u-%u): no chart: %s\n", r->ro.source,
				k + 1, b->first_line, b->last_line, buf->msg);
		else
			fprintf(stderr, "%s: block %zu: no chart: %s\n", r->ro.source, k + 1,
				buf->msg);
		return false;
	}
	numbered(r->out, r->ro.block_no, path, sizeof(path));
	if (cli_write_file(path, buf)) {
		fprintf(stderr, "latscope render: cannot write %s\n", path);
		return false;
	}
	printf("%s: %s chart of block %zu (%zu bytes)\n", path,
	       lat_chart_name(r->ro.chart == LAT_CHART_AUTO ? lat_render_pick(b) : r->ro.chart),
	       k + 1, buf->len);
	return true;
}

/* One chart per block of @input. */
static int run_render(struct render_cmd *r, const struct cli_ctx *c, const char *input)
{
	const struct lat_render_api *api;
	struct lat_render_buf buf = { 0 };
	struct lat_loaded l;
	size_t written = 0, failed = 0;

	/* before reading the input: a missing module is known without the work */
	api = cli_render_api();
	if (!api)
		return CLI_EXIT_FAIL;
	if (lat_load(&l, input, &c->read) < 0) {
		fprintf(stderr, "%s: error: %s\n", input, l.error);
		lat_loaded_release(&l);
		return CLI_EXIT_USAGE;
	}
	r->ro.source = input;
	for (size_t k = 0; k < l.nblocks; k++) {
		if (render_one(api, &l, k, r, &c->an, &buf))
			written++;
		else
			failed++;
	}
	lat_render_buf_release(&buf);
	lat_loaded_release(&l);
	return failed || !written ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

/* Several inputs: their histograms in one chart, -o OUT.png or OUT.svg required. */
static int run_many(struct render_cmd *r, const struct cli_ctx *c, int nin, char **inputs)
{
	const struct lat_render_api *api;

	if (!r->out || (!has_suffix(r->out, ".png") && !has_suffix(r->out, ".svg"))) {
		fprintf(stderr, "latscope render: several inputs: give -o OUT.png or "
				"OUT.svg (one histogram chart of them all)\n");
		return CLI_EXIT_USAGE;
	}
	r->ro.format = has_suffix(r->out, ".svg") ? LAT_RENDER_SVG : r->ro.format;
	api = cli_render_api();
	if (!api)
		return CLI_EXIT_FAIL;
	return cli_render_many(inputs, nin, r->out, &c->read, &r->ro, &c->an, api);
}

int cmd_render(int argc, char **argv)
{
	struct render_cmd r = { .out = NULL };
	struct cli_ctx c;
	char *defout = NULL;
	int first, rc;

	lat_render_opts_init(&r.ro);
	cli_ctx_init(&c, argv[0], &r);
	c.an.timelines = 1;	/* the timeline chart draws the worst case */
	c.an.activity = 1;	/* the cpus chart of a trace draws every CPU's activity */
	first = cli_parse(argc, argv, render_tables, 0, &c, usage_render);
	if (first < 0)
		return CLI_EXIT_USAGE;
	r.ro.task = c.an.task;
	r.ro.worst = c.an.worst_n;
	if (argc - first < 1) {
		fprintf(stderr, "latscope render: expected an input file\n");
		usage_render(stderr);
		return CLI_EXIT_USAGE;
	}
	if (argc - first > 1)
		return run_many(&r, &c, argc - first, argv + first);
	rc = check_output(&r, argv[first], &defout);
	if (rc == CLI_EXIT_OK)
		rc = run_render(&r, &c, argv[first]);
	free(defout);
	return rc;
}
