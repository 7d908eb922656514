// SPDX-License-Identifier: GPL-2.0-or-later
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "latscope/an_wakeup.h"
#include "latscope/input.h"
#include "latscope/report.h"
#include "cli.h"

void usage_analyze(FILE *out)
{
	fprintf(out,
		"usage: latscope analyze [options] FILE...   (FILE - is stdin)\n\n"
		"  -f, --format NAME       read with this reader (see `latscope formats`)\n"
		"  -j, --json              JSON report (docs/json.md) instead of text\n"
		"  -t, --threshold DUR     freeze/spike threshold, e.g. 500us, 10ms, 2s (default 10ms)\n"
		"      --cpu-mhz MHZ       schedcnt: convert cycles to time\n"
		"  -w, --worst N           critical paths to explain (default 5)\n"
		"      --top N             rows in blame and per-task tables (default 20)\n"
		"      --task PID|COMM     only this task (a COMM: every thread with it)\n"
		"      --policy rt|fair|dl only tasks of this scheduling class\n"
		"      --min-prio N        only real-time tasks of priority N (1-99) or above\n"
		"      --sort KEY          wakeup tables: max, avg, p99, count, pid, comm (default max)\n"
		"      --buffer NAME       trace.dat: analyze this instance's buffer\n"
		"      --wakeup-start waking|wakeup\n"
		"                          where a wakeup wait starts (default waking)\n"
		"      --folded off|runnable\n"
		"                          instead of the report, every kernel stack with its\n"
		"                          off-CPU or runnable time in ns, as FlameGraph reads\n"
		"                          (flamegraph.pl --countname ns)\n\n"
		"exit status: 0 ok, 1 the report could not be written,\n"
		"             2 usage error or no input readable\n");
}

enum { OPT_CPU_MHZ = 256, OPT_TOP, OPT_TASK, OPT_BUFFER, OPT_WAKE, OPT_SORT, OPT_FOLDED,
       OPT_POLICY, OPT_MIN_PRIO };

int cmd_analyze(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },
		{ "threshold", required_argument, NULL, 't' },
		{ "cpu-mhz", required_argument, NULL, OPT_CPU_MHZ },
		{ "worst", required_argument, NULL, 'w' },
		{ "top", required_argument, NULL, OPT_TOP },
		{ "task", required_argument, NULL, OPT_TASK },
		{ "buffer", required_argument, NULL, OPT_BUFFER },
		{ "wakeup-start", required_argument, NULL, OPT_WAKE },
		{ "sort", required_argument, NULL, OPT_SORT },
		{ "folded", required_argument, NULL, OPT_FOLDED },
		{ "policy", required_argument, NULL, OPT_POLICY },
		{ "min-prio", required_argument, NULL, OPT_MIN_PRIO },
		{ NULL, 0, NULL, 0 },
	};
	struct lat_analyze_opts o;
	const struct lat_format *forced = NULL;
	struct lat_loaded *loaded;
	struct lat_report_input *rep;
	int json = 0, folded = -1, c, nin, ok = 0;
	char *end;

	lat_analyze_opts_init(&o);
	optind = 1;
	while ((c = getopt_long(argc, argv, "f:jt:w:", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			forced = lat_format_find(optarg);
			if (!forced) {
				fprintf(stderr, "latscope analyze: unknown format '%s' "
						"(see `latscope formats`)\n", optarg);
				return LAT_EXIT_USAGE;
			}
			break;
		case 'j':
			json = 1;
			break;
		case 't':
			if (lat_parse_duration(optarg, LAT_NS_PER_US, &o.threshold_ns) ||
			    !o.threshold_ns) {
				fprintf(stderr, "latscope analyze: --threshold: expected a duration "
						"such as 500us, 10ms, 2s, got '%s'\n", optarg);
				return LAT_EXIT_USAGE;
			}
			break;
		case OPT_CPU_MHZ:
			o.cpu_mhz = strtod(optarg, &end);
			if (*end || !(o.cpu_mhz > 0 && o.cpu_mhz < 1e6)) {
				fprintf(stderr, "latscope analyze: --cpu-mhz: expected a frequency "
						"in MHz such as 733, got '%s'\n", optarg);
				return LAT_EXIT_USAGE;
			}
			break;
		case 'w':
		case OPT_TOP: {
			long v = strtol(optarg, &end, 10);

			if (*end || v < 1 || v > 100000) {
				fprintf(stderr, "latscope analyze: %s: expected a count from 1 to "
						"100000, got '%s'\n", c == 'w' ? "--worst" : "--top",
					optarg);
				return LAT_EXIT_USAGE;
			}
			*(c == 'w' ? &o.worst_n : &o.top_n) = (int)v;
			break;
		}
		case OPT_TASK:
			o.task = optarg;
			break;
		case OPT_POLICY:
			if (lat_sched_policy_parse(optarg, &(enum lat_sched_policy){ 0 })) {
				fprintf(stderr, "latscope analyze: --policy: expected rt, fair or "
						"dl, got '%s'\n", optarg);
				return LAT_EXIT_USAGE;
			}
			o.policy = optarg;
			break;
		case OPT_MIN_PRIO: {
			long v = strtol(optarg, &end, 10);

			if (*end || v < 1 || v > 99) {
				fprintf(stderr, "latscope analyze: --min-prio: expected a real-time "
						"priority from 1 to 99, got '%s'\n", optarg);
				return LAT_EXIT_USAGE;
			}
			o.min_prio = (int)v;
			break;
		}
		case OPT_SORT:
			if (lat_wake_sort_parse(optarg, &(enum lat_wake_sort){ 0 })) {
				fprintf(stderr, "latscope analyze: --sort: expected max, avg, p99, "
						"count, pid or comm, got '%s'\n", optarg);
				return LAT_EXIT_USAGE;
			}
			o.sort = optarg;
			break;
		case OPT_BUFFER:
			o.buffer = optarg;
			break;
		case OPT_WAKE:
			if (!strcmp(optarg, "waking")) {
				o.wake_start = LAT_WAKE_START_WAKING;
			} else if (!strcmp(optarg, "wakeup")) {
				o.wake_start = LAT_WAKE_START_WAKEUP;
			} else {
				fprintf(stderr, "latscope analyze: --wakeup-start: expected waking "
						"or wakeup, got '%s'\n", optarg);
				return LAT_EXIT_USAGE;
			}
			break;
		case OPT_FOLDED:
			if (!strcmp(optarg, "off")) {
				folded = 0;
			} else if (!strcmp(optarg, "runnable")) {
				folded = 1;
			} else {
				fprintf(stderr, "latscope analyze: --folded: expected off or "
						"runnable, got '%s'\n", optarg);
				return LAT_EXIT_USAGE;
			}
			break;
		default:
			usage_analyze(stderr);
			return LAT_EXIT_USAGE;
		}
	}
	if (folded >= 0 && json) {
		fprintf(stderr, "latscope analyze: --folded and --json: choose one\n");
		return LAT_EXIT_USAGE;
	}
	if (folded >= 0)
		o.top_n = INT_MAX;	/* every stack: a flame graph of the top 20 would lie */
	nin = argc - optind;
	if (nin < 1) {
		fprintf(stderr, "latscope analyze: no input file\n");
		usage_analyze(stderr);
		return LAT_EXIT_USAGE;
	}
	loaded = calloc((size_t)nin, sizeof(*loaded));
	rep = calloc((size_t)nin, sizeof(*rep));
	if (!loaded || !rep) {
		fprintf(stderr, "latscope analyze: out of memory\n");
		free(loaded);
		free(rep);
		return LAT_EXIT_FAIL;
	}
	for (int i = 0; i < nin; i++) {
		struct lat_loaded *l = &loaded[i];
		int ret = lat_load_buffer(l, argv[optind + i], forced, o.buffer, stderr);

		rep[i].path = argv[optind + i];
		if (ret < 0) {
			fprintf(stderr, "%s: error: %s\n", argv[optind + i], l->error);
			rep[i].error = l->error;
			continue;
		}
		for (size_t k = 0; k < l->nblocks; k++) {
			ret = lat_analyze_block(l->blocks[k], &o);
			if (ret < 0)
				lat_block_add_finding(l->blocks[k], "analysis-failed", LAT_SEV_HIGH,
						      "analysis stopped: %s", lat_strerror(ret));
		}
		rep[i].format = l->format;
		rep[i].blocks = l->blocks;
		rep[i].nblocks = l->nblocks;
		rep[i].nlines = l->nlines;
		rep[i].other_lines = l->other_lines;
		rep[i].repairs = &l->text.fix;
		rep[i].warnings = l->diag.nwarn;
		ok++;
	}
	if (folded >= 0) {
		if (!lat_report_folded(stdout, rep, (size_t)nin, folded) && ok)
			fprintf(stderr, "latscope analyze: --folded: no kernel stacks in the input "
					"(record them with `latscope record --stacks` or "
					"`trace-cmd record -T`)\n");
	} else if (json) {
		lat_report_json(stdout, rep, (size_t)nin, &o);
	} else {
		lat_report_text(stdout, rep, (size_t)nin, &o);
	}
	for (int i = 0; i < nin; i++)
		lat_loaded_release(&loaded[i]);
	free(loaded);
	free(rep);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "latscope analyze: cannot write the report\n");
		return LAT_EXIT_FAIL;
	}
	return ok == nin ? LAT_EXIT_OK : LAT_EXIT_USAGE;
}
