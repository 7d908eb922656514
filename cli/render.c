// SPDX-License-Identifier: GPL-2.0-or-later
/* `latscope render`: one chart per block of an input, PNG or SVG by the extension. */
#include <getopt.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>

#include "latscope/analyze.h"
#include "latscope/input.h"
#include "latscope/render.h"
#include "cli.h"

void usage_render(FILE *out)
{
	fprintf(out,
		"usage: latscope render [options] INPUT   (INPUT - is stdin)\n"
		"       latscope render -o OUT.png INPUT INPUT...\n"
		"                          the histograms of every input in one chart\n"
		"                          (cyclictest runs, rtla, perf sched timehist)\n\n"
		"  -o, --output FILE       OUT.png or OUT.svg (default: INPUT's name + .png);\n"
		"                          several blocks give OUT-1.png, OUT-2.png, ... (block number)\n"
		"  -c, --chart KIND        auto|timeline|histogram|series|blame|cpus (default auto:\n"
		"                          series for loop logs, histogram, cpus for schedcnt,\n"
		"                          blame for function dumps, timeline for traces)\n"
		"      --window START:END  timeline: only this part, times since the timeline's\n"
		"                          start (e.g. 2ms:5ms, 1.5ms: for to the end)\n"
		"      --task PID|COMM     timeline: the task whose wakeup to explain\n"
		"  -w, --worst N           freezes / cases labelled on the chart (default 5)\n"
		"      --size WxH          pixels (SVG: points), default 1600x900\n"
		"  -f, --format NAME       read with this reader (see `latscope formats`)\n"
		"  -t, --threshold DUR     freeze threshold drawn on series charts (default 10ms)\n"
		"      --buffer NAME       trace.dat: chart this instance's buffer\n"
		"      --cpu-mhz MHZ, --top N, --wakeup-start waking|wakeup\n"
		"                          passed to the analysis, as for `latscope analyze`\n\n"
		"exit status: 0 a chart was written for every block, 1 some block had no chart, a\n"
		"write failed or the render module (" LAT_RENDER_MODULE_NAME ") could not be\n"
		"loaded, 2 usage error or no input readable\n");
}

enum { OPT_WINDOW = 256, OPT_TASK, OPT_SIZE, OPT_CPU_MHZ, OPT_TOP, OPT_BUFFER, OPT_WAKE };

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

int cli_write_file(const char *path, const struct lat_render_buf *b)
{
	FILE *f = fopen(path, "wb");
	int bad;

	if (!f)
		return -1;
	bad = fwrite(b->data, 1, b->len, f) != b->len;
	bad |= fclose(f) != 0;
	return bad ? -1 : 0;
}

int cmd_render(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "chart", required_argument, NULL, 'c' },
		{ "window", required_argument, NULL, OPT_WINDOW },
		{ "task", required_argument, NULL, OPT_TASK },
		{ "worst", required_argument, NULL, 'w' },
		{ "size", required_argument, NULL, OPT_SIZE },
		{ "format", required_argument, NULL, 'f' },
		{ "threshold", required_argument, NULL, 't' },
		{ "cpu-mhz", required_argument, NULL, OPT_CPU_MHZ },
		{ "top", required_argument, NULL, OPT_TOP },
		{ "buffer", required_argument, NULL, OPT_BUFFER },
		{ "wakeup-start", required_argument, NULL, OPT_WAKE },
		{ NULL, 0, NULL, 0 },
	};
	struct lat_render_opts ro;
	struct lat_analyze_opts ao;
	const struct lat_format *forced = NULL;
	struct lat_render_buf buf = { 0 };
	const struct lat_render_api *api;
	struct lat_loaded l;
	const char *out = NULL, *input;
	char *defout = NULL, path[4096];
	int c, ret, written = 0, failed = 0;
	char *end;

	lat_render_opts_init(&ro);
	lat_analyze_opts_init(&ao);
	ao.timelines = 1;	/* the timeline chart draws the worst case */
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:c:w:f:t:", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'c':
			if (lat_chart_from_name(optarg, &ro.chart)) {
				fprintf(stderr, "latscope render: --chart: expected auto, timeline, "
						"histogram, series, blame or cpus, got '%s'\n", optarg);
				return LAT_EXIT_USAGE;
			}
			break;
		case OPT_WINDOW:
			if (parse_window(optarg, &ro)) {
				fprintf(stderr, "latscope render: --window: expected START:END with "
						"durations such as 2ms:5ms, got '%s'\n", optarg);
				return LAT_EXIT_USAGE;
			}
			break;
		case OPT_TASK:
			ro.task = ao.task = optarg;
			break;
		case 'w': {
			long v = strtol(optarg, &end, 10);

			if (*end || v < 1 || v > 100000) {
				fprintf(stderr, "latscope render: --worst: expected a count from 1 to "
						"100000, got '%s'\n", optarg);
				return LAT_EXIT_USAGE;
			}
			ro.worst = ao.worst_n = (int)v;
			break;
		}
		case OPT_SIZE:
			if (parse_size(optarg, &ro)) {
				fprintf(stderr, "latscope render: --size: expected WxH from %dx%d to "
						"%dx%d, got '%s'\n", LAT_RENDER_MIN_W, LAT_RENDER_MIN_H,
					LAT_RENDER_MAX_W, LAT_RENDER_MAX_H, optarg);
				return LAT_EXIT_USAGE;
			}
			break;
		case 'f':
			forced = lat_format_find(optarg);
			if (!forced) {
				fprintf(stderr, "latscope render: unknown format '%s' "
						"(see `latscope formats`)\n", optarg);
				return LAT_EXIT_USAGE;
			}
			break;
		case 't':
			if (lat_parse_duration(optarg, LAT_NS_PER_US, &ao.threshold_ns) ||
			    !ao.threshold_ns) {
				fprintf(stderr, "latscope render: --threshold: expected a duration "
						"such as 500us, 10ms, 2s, got '%s'\n", optarg);
				return LAT_EXIT_USAGE;
			}
			break;
		case OPT_CPU_MHZ:
			ao.cpu_mhz = strtod(optarg, &end);
			if (*end || !(ao.cpu_mhz > 0 && ao.cpu_mhz < 1e6)) {
				fprintf(stderr, "latscope render: --cpu-mhz: expected a frequency "
						"in MHz such as 733, got '%s'\n", optarg);
				return LAT_EXIT_USAGE;
			}
			break;
		case OPT_TOP: {
			long v = strtol(optarg, &end, 10);

			if (*end || v < 1 || v > 100000) {
				fprintf(stderr, "latscope render: --top: expected a count from 1 to "
						"100000, got '%s'\n", optarg);
				return LAT_EXIT_USAGE;
			}
			ao.top_n = (int)v;
			break;
		}
		case OPT_BUFFER:
			ao.buffer = optarg;
			break;
		case OPT_WAKE:
			if (!strcmp(optarg, "waking")) {
				ao.wake_start = LAT_WAKE_START_WAKING;
			} else if (!strcmp(optarg, "wakeup")) {
				ao.wake_start = LAT_WAKE_START_WAKEUP;
			} else {
				fprintf(stderr, "latscope render: --wakeup-start: expected waking "
						"or wakeup, got '%s'\n", optarg);
				return LAT_EXIT_USAGE;
			}
			break;
		default:
			usage_render(stderr);
			return LAT_EXIT_USAGE;
		}
	}
	if (argc - optind < 1) {
		fprintf(stderr, "latscope render: expected an input file\n");
		usage_render(stderr);
		return LAT_EXIT_USAGE;
	}
	if (argc - optind > 1) {
		if (!out || (!has_suffix(out, ".png") && !has_suffix(out, ".svg"))) {
			fprintf(stderr, "latscope render: several inputs: give -o OUT.png or "
					"OUT.svg (one histogram chart of them all)\n");
			return LAT_EXIT_USAGE;
		}
		ro.format = has_suffix(out, ".svg") ? LAT_RENDER_SVG : ro.format;
		api = cli_render_api();
		if (!api)
			return LAT_EXIT_FAIL;
		return cli_render_many(argv + optind, argc - optind, out, forced, &ro, &ao, api);
	}
	input = argv[optind];
	if (!out) {
		char *copy = strdup(input);

		if (!copy || asprintf(&defout, "%s.png", strcmp(input, "-") ?
				      basename(copy) : "stdin") < 0)
			defout = NULL;
		free(copy);
		if (!defout) {
			fprintf(stderr, "latscope render: out of memory\n");
			return LAT_EXIT_FAIL;
		}
		out = defout;
	}
	if (has_suffix(out, ".svg")) {
		ro.format = LAT_RENDER_SVG;
	} else if (!has_suffix(out, ".png")) {
		fprintf(stderr, "latscope render: -o: expected a name ending in .png or .svg, "
				"got '%s'\n", out);
		free(defout);
		return LAT_EXIT_USAGE;
	}

	/* before reading the input: a missing module is known without the work */
	api = cli_render_api();
	if (!api) {
		free(defout);
		return LAT_EXIT_FAIL;
	}
	ret = lat_load_buffer(&l, input, forced, ao.buffer, stderr);
	if (ret < 0) {
		fprintf(stderr, "%s: error: %s\n", input, l.error);
		lat_loaded_release(&l);
		free(defout);
		return LAT_EXIT_USAGE;
	}
	ro.source = input;
	for (size_t k = 0; k < l.nblocks; k++) {
		struct lat_block *b = l.blocks[k];

		ret = lat_analyze_block(b, &ao);
		if (ret < 0)
			fprintf(stderr, "%s: block %zu: analysis stopped: %s\n", input, k + 1,
				lat_strerror(ret));
		ro.block_no = l.nblocks > 1 ? (int)k + 1 : 0;
		ret = api->render_block(b, &ro, &buf);
		if (ret < 0) {
			if (b->last_line)
				fprintf(stderr, "%s: block %zu (lines %u-%u): no chart: %s\n", input,
					k + 1, b->first_line, b->last_line, buf.msg);
			else
				fprintf(stderr, "%s: block %zu: no chart: %s\n", input, k + 1,
					buf.msg);
			failed++;
			continue;
		}
		numbered(out, ro.block_no, path, sizeof(path));
		if (cli_write_file(path, &buf)) {
			fprintf(stderr, "latscope render: cannot write %s\n", path);
			failed++;
			continue;
		}
		printf("%s: %s chart of block %zu (%zu bytes)\n", path,
		       lat_chart_name(ro.chart == LAT_CHART_AUTO ? lat_render_pick(b) : ro.chart),
		       k + 1, buf.len);
		written++;
	}
	lat_render_buf_release(&buf);
	lat_loaded_release(&l);
	free(defout);
	return failed || !written ? LAT_EXIT_FAIL : LAT_EXIT_OK;
}
