// SPDX-License-Identifier: GPL-2.0-or-later
/* latscope record: options to struct lat_record_opts, exit status from the result. */
#ifdef LATSCOPE_HAVE_RECORD
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "latscope/base.h"
#include "latscope/record.h"
#include "cli.h"

void usage_record(FILE *out)
{
	fprintf(out,
		"usage: latscope record [-o FILE] [-d DURATION | -- COMMAND ARGS...] [--irq] [--stacks]\n"
		"                       [--timer-detail]\n"
		"                       [--probe timer[:INTERVAL[:PRIO]]] [--probe gap[:THRESHOLD]]\n"
		"                       [--marker-above DURATION] [--stop-above DURATION]\n"
		"                       [--buffer-kb N] [-e SYSTEM:EVENT]...\n\n"
		"Records scheduler events (and latscope's probes) from a private tracefs instance\n"
		"into a trace.dat (v6) that trace-cmd and KernelShark read.\n\n"
		"  -o FILE              output (default trace.dat)\n"
		"  -d DURATION          record this long (500ms, 2s); default: until SIGINT\n"
		"  -- COMMAND ARGS      record until COMMAND exits; exit with its status\n"
		"  --irq                add irq_handler_entry/exit, softirq_entry/exit\n"
		"  --stacks             kernel stack on sched_switch and sched_waking\n"
		"  --timer-detail       add hrtimer_expire_entry/exit, local_timer_entry/exit\n"
		"  --probe timer[:INTERVAL[:PRIO]]  cyclictest-like probe (default 1ms, FIFO 95)\n"
		"  --probe gap[:THRESHOLD]          lat3-like busy probe (default 100us)\n"
		"  --marker-above DURATION  timer samples above this become markers (default 200us)\n"
		"  --stop-above DURATION    flight recorder: stop at the first probe sample above\n"
		"  --buffer-kb N        per-CPU ring buffer size in KB\n"
		"  -e SYSTEM:EVENT      one more event (EVENT may be '*'); repeatable\n\n"
		"exit status: the command's with -- COMMAND; else 0 ok, 1 write error,\n"
		"2 usage error or tracefs refused (needs root)\n");
}

static int parse_probe(struct lat_record_opts *o, char *arg)
{
	char *name = strtok(arg, ":");
	char *a1 = strtok(NULL, ":");
	char *a2 = strtok(NULL, ":");

	if (!name)
		return -LAT_EUSAGE;
	if (!strcmp(name, "timer")) {
		o->probe_timer = true;
		if (a1 && (lat_parse_duration(a1, LAT_NS_PER_US, &o->timer_interval_ns) ||
			   o->timer_interval_ns < 10 * LAT_NS_PER_US))
			return -LAT_EUSAGE;
		if (a2) {
			char *end;
			long prio = strtol(a2, &end, 10);

			if (*end || prio < 1 || prio > 99)
				return -LAT_EUSAGE;
			o->timer_prio = (int)prio;
		}
		return strtok(NULL, ":") ? -LAT_EUSAGE : 0;
	}
	if (!strcmp(name, "gap")) {
		o->probe_gap = true;
		if (a1 && (lat_parse_duration(a1, LAT_NS_PER_US, &o->gap_threshold_ns) ||
			   o->gap_threshold_ns < 1000))
			return -LAT_EUSAGE;
		return a2 ? -LAT_EUSAGE : 0;
	}
	return -LAT_EUSAGE;
}

/* The command line as typed, for the file's metadata (quotes are not reproduced). */
static char *join_args(int argc, char **argv)
{
	size_t len = 1;
	char *s;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = calloc(1, len);
	for (int i = 0; s && i < argc; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	/* The metadata line quotes the command line with "": keep it one token. */
	for (char *p = s; p && *p; p++)
		if (*p == '"' || *p == '\n')
			*p = '\'';
	return s;
}

int cmd_record(int argc, char **argv)
{
	enum { OPT_IRQ = 256, OPT_STACKS, OPT_PROBE, OPT_STOP, OPT_BUF, OPT_MARK,
	       OPT_TDETAIL };
	static const struct option lopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "duration", required_argument, NULL, 'd' },
		{ "event", required_argument, NULL, 'e' },
		{ "irq", no_argument, NULL, OPT_IRQ },
		{ "stacks", no_argument, NULL, OPT_STACKS },
		{ "timer-detail", no_argument, NULL, OPT_TDETAIL },
		{ "probe", required_argument, NULL, OPT_PROBE },
		{ "stop-above", required_argument, NULL, OPT_STOP },
		{ "marker-above", required_argument, NULL, OPT_MARK },
		{ "buffer-kb", required_argument, NULL, OPT_BUF },
		{ NULL, 0, NULL, 0 },
	};
	struct lat_record_opts o;
	struct lat_record_result res;
	const char **events = NULL;
	size_t nev = 0, cap = 0;
	char *cmdline = join_args(argc, argv);
	int c, ret, status = LAT_EXIT_USAGE;

	lat_record_opts_init(&o);
	optind = 1;
	/* "+": stop at the first non-option, so COMMAND's own options stay its own. */
	while ((c = getopt_long(argc, argv, "+o:d:e:", lopts, NULL)) != -1) {
		char *end;
		unsigned long kb;

		switch (c) {
		case 'o':
			o.output = optarg;
			break;
		case 'd':
			if (lat_parse_duration(optarg, LAT_NS_PER_S, &o.duration_ns) ||
			    o.duration_ns <= 0) {
				fprintf(stderr, "latscope record: -d %s: expected a duration\n", optarg);
				goto out;
			}
			break;
		case 'e':
			if (lat_grow(&events, &cap, nev + 1, sizeof(*events)))
				goto out;
			events[nev++] = optarg;
			break;
		case OPT_IRQ:
			o.irq = true;
			break;
		case OPT_STACKS:
			o.stacks = true;
			break;
		case OPT_TDETAIL:
			o.timer_detail = true;
			break;
		case OPT_PROBE:
			if (parse_probe(&o, optarg)) {
				fprintf(stderr, "latscope record: --probe: expected timer[:INTERVAL"
					"[:PRIO]] or gap[:THRESHOLD]\n");
				goto out;
			}
			break;
		case OPT_STOP:
		case OPT_MARK:
			if (lat_parse_duration(optarg, LAT_NS_PER_US,
					       c == OPT_STOP ? &o.stop_above_ns :
							       &o.marker_threshold_ns) ||
			    (c == OPT_STOP && o.stop_above_ns <= 0)) {
				fprintf(stderr, "latscope record: %s: expected a duration\n", optarg);
				goto out;
			}
			break;
		case OPT_BUF:
			kb = strtoul(optarg, &end, 10);
			if (*end || !kb || kb > 4UL * 1024 * 1024) {
				fprintf(stderr, "latscope record: --buffer-kb %s: expected 1..4194304\n",
					optarg);
				goto out;
			}
			o.buffer_kb = (unsigned)kb;
			break;
		default:
			usage_record(stderr);
			goto out;
		}
	}
	if (optind < argc) {
		if (optind > 0 && strcmp(argv[optind - 1], "--")) {
			fprintf(stderr, "latscope record: unexpected '%s' (a command goes after --)\n",
				argv[optind]);
			goto out;
		}
		if (o.duration_ns) {
			fprintf(stderr, "latscope record: -d and -- COMMAND exclude each other\n");
			goto out;
		}
		o.command = argv + optind;
	}
	/* A flight recorder needs something to trip it: the timer probe by default. */
	if (o.stop_above_ns > 0 && !o.probe_timer && !o.probe_gap)
		o.probe_timer = true;
	o.events = events;
	o.nevents = nev;
	o.cmdline = cmdline;
	ret = lat_record_run(&o, &res);
	if (ret == -LAT_EPERM || ret == -LAT_EUSAGE) {
		status = LAT_EXIT_USAGE;
	} else if (ret) {
		status = LAT_EXIT_FAIL;
	} else if (res.write_err) {
		status = LAT_EXIT_FAIL;
	} else if (o.command && res.end == LAT_REC_END_COMMAND) {
		status = WIFEXITED(res.cmd_status) ? WEXITSTATUS(res.cmd_status) :
			 128 + WTERMSIG(res.cmd_status);
	} else if (res.end == LAT_REC_END_SIGNAL && o.command) {
		status = 130;
	} else {
		status = LAT_EXIT_OK;
	}
out:
	free(events);
	free(cmdline);
	return status;
}
#endif
