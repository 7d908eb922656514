// SPDX-License-Identifier: GPL-2.0-or-later
/* latscope record: options to struct lat_record_opts, exit status from the result. */
#ifdef LATSCOPE_HAVE_RECORD
#include <ctype.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "latscope/base.h"
#include "latscope/record.h"
#include "cli.h"
#include "options.h"

void usage_record(FILE *out)
{
	fprintf(out,
		"usage: latscope record [-o FILE] [-d DURATION | -- COMMAND ARGS...] [--irq] [--stacks]\n"
		"                       [--timer-detail] [--top-markers]\n"
		"                       [--probe timer[:INTERVAL[:PRIO]]] [--probe gap[:THRESHOLD]]\n"
		"                       [--marker-above DURATION] [--stop-above DURATION]\n"
		"                       [--buffer-kb N] [--steal-interval DURATION]\n"
		"                       [-e SYSTEM:EVENT]...\n\n"
		"Records scheduler events (and latscope's probes) from a private tracefs instance\n"
		"into a trace.dat (v6) that trace-cmd and KernelShark read.\n\n"
		"  -o FILE              output (default trace.dat)\n"
		"  -d DURATION          record this long (500ms, 2s: a unit is required);\n"
		"                       default: until SIGINT\n"
		"  -- COMMAND ARGS      record until COMMAND exits; exit with its status\n"
		"  --irq                add irq_handler_entry/exit, softirq_entry/exit\n"
		"  --stacks             kernel stack on sched_switch and sched_waking\n"
		"  --timer-detail       add hrtimer_start/cancel/expire_entry/exit,\n"
		"                       local_timer_entry/exit (docs/timers.md)\n"
		"  --top-markers        also record the top-level trace_marker's writes\n"
		"                       (cyclictest --tracemark; needs options/copy_trace_marker)\n"
		"  --probe timer[:INTERVAL[:PRIO]]  cyclictest-like probe (default 1ms, FIFO 95)\n"
		"  --probe gap[:THRESHOLD]          lat3-like busy probe (default 100us)\n"
		"  --marker-above DURATION  timer samples above this become markers (default 200us)\n"
		"  --stop-above DURATION    flight recorder: stop at the first probe sample above\n"
		"  --buffer-kb N        per-CPU ring buffer size in KB\n"
		"  --steal-interval DURATION  read /proc/stat's steal time this often into\n"
		"                       markers (default 10ms; 0: at the start and end only)\n"
		"  -e SYSTEM:EVENT      one more event (EVENT may be '*'); repeatable\n\n"
		"exit status: the command's with -- COMMAND; else 0 ok, 1 write error,\n"
		"2 usage error or tracefs refused (needs root)\n"
		"durations: ns, us, ms, s; a bare number is microseconds (-d needs a unit)\n");
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

/* record's settings (it has no reading or analysis options). */
struct record_cmd {
	struct lat_record_opts o;
	const char **events;	/* -e, pointing into argv */
	size_t nev, cap;
};

static struct lat_record_opts *rec_opts(struct cli_ctx *c)
{
	return &((struct record_cmd *)c->own)->o;
}

static int set_output(struct cli_ctx *c, const char *arg)
{
	rec_opts(c)->output = arg;
	return 0;
}

static int set_duration(struct cli_ctx *c, const char *arg)
{
	struct lat_record_opts *o = rec_opts(c);

	size_t n = strlen(arg);

	/* a bare number: seconds here would be microseconds in every other option */
	if (n && (isdigit((unsigned char)arg[n - 1]) || arg[n - 1] == '.')) {
		fprintf(stderr, "latscope record: -d %s: give a unit (%ss, %sms): a bare number "
			"is microseconds in latscope's other options\n", arg, arg, arg);
		return -1;
	}
	if (lat_parse_duration(arg, LAT_NS_PER_US, &o->duration_ns) || o->duration_ns <= 0) {
		fprintf(stderr, "latscope record: -d %s: expected a duration such as 500ms, 2s\n",
			arg);
		return -1;
	}
	return 0;
}

static int add_event(struct cli_ctx *c, const char *arg)
{
	struct record_cmd *r = c->own;

	if (lat_grow(&r->events, &r->cap, r->nev + 1, sizeof(*r->events)))
		return -1;
	r->events[r->nev++] = arg;
	return 0;
}

static int set_irq(struct cli_ctx *c, const char *arg)
{
	rec_opts(c)->irq = true;
	return 0;
}

static int set_timer_detail(struct cli_ctx *c, const char *arg)
{
	rec_opts(c)->timer_detail = true;
	return 0;
}

static int set_top_markers(struct cli_ctx *c, const char *arg)
{
	rec_opts(c)->top_markers = true;
	return 0;
}

static int set_stacks(struct cli_ctx *c, const char *arg)
{
	rec_opts(c)->stacks = true;
	return 0;
}

static int set_probe(struct cli_ctx *c, const char *arg)
{
	char spec[256];

	snprintf(spec, sizeof(spec), "%s", arg);
	if (strlen(arg) >= sizeof(spec) || parse_probe(rec_opts(c), spec)) {
		fprintf(stderr, "latscope record: --probe: expected timer[:INTERVAL[:PRIO]] or "
			"gap[:THRESHOLD]\n");
		return -1;
	}
	return 0;
}

static int set_above(const char *arg, int64_t *ns, bool positive)
{
	if (lat_parse_duration(arg, LAT_NS_PER_US, ns) || (positive && *ns <= 0)) {
		fprintf(stderr, "latscope record: %s: expected a duration\n", arg);
		return -1;
	}
	return 0;
}

static int set_stop_above(struct cli_ctx *c, const char *arg)
{
	return set_above(arg, &rec_opts(c)->stop_above_ns, true);
}

static int set_marker_above(struct cli_ctx *c, const char *arg)
{
	return set_above(arg, &rec_opts(c)->marker_threshold_ns, false);
}

static int set_buffer_kb(struct cli_ctx *c, const char *arg)
{
	char *end;
	unsigned long kb = strtoul(arg, &end, 10);

	if (*end || !kb || kb > 4UL * 1024 * 1024) {
		fprintf(stderr, "latscope record: --buffer-kb %s: expected 1..4194304\n", arg);
		return -1;
	}
	rec_opts(c)->buffer_kb = (unsigned)kb;
	return 0;
}

static int set_steal_interval(struct cli_ctx *c, const char *arg)
{
	int64_t *ns = &rec_opts(c)->steal_interval_ns;

	if (lat_parse_duration(arg, LAT_NS_PER_US, ns) || *ns < 0 ||
	    (*ns > 0 && *ns < LAT_NS_PER_MS)) {
		fprintf(stderr, "latscope record: --steal-interval %s: expected 0 or a duration of "
			"1ms or more\n", arg);
		return -1;
	}
	return 0;
}

static const struct cli_opt record_options[] = {
	{ "output", 'o', required_argument, set_output },
	{ "duration", 'd', required_argument, set_duration },
	{ "event", 'e', required_argument, add_event },
	{ "irq", 0, no_argument, set_irq },
	{ "stacks", 0, no_argument, set_stacks },
	{ "timer-detail", 0, no_argument, set_timer_detail },
	{ "top-markers", 0, no_argument, set_top_markers },
	{ "probe", 0, required_argument, set_probe },
	{ "stop-above", 0, required_argument, set_stop_above },
	{ "marker-above", 0, required_argument, set_marker_above },
	{ "buffer-kb", 0, required_argument, set_buffer_kb },
	{ "steal-interval", 0, required_argument, set_steal_interval },
	{ NULL, 0, 0, NULL },
};

static const struct cli_opt *const record_tables[] = { record_options, NULL };

/* What follows the options: nothing, or "-- COMMAND ARGS" (not with -d). */
static int check_command(struct lat_record_opts *o, int first, int argc, char **argv)
{
	if (first >= argc)
		return 0;
	if (first > 0 && strcmp(argv[first - 1], "--")) {
		fprintf(stderr, "latscope record: unexpected '%s' (a command goes after --)\n",
			argv[first]);
		return -1;
	}
	if (o->duration_ns) {
		fprintf(stderr, "latscope record: -d and -- COMMAND exclude each other\n");
		return -1;
	}
	o->command = argv + first;
	return 0;
}

/* The exit status for what lat_record_run() returned. */
static int record_status(const struct lat_record_opts *o, int ret,
			 const struct lat_record_result *res)
{
	if (ret == -LAT_EPERM || ret == -LAT_EUSAGE)
		return CLI_EXIT_USAGE;
	if (ret || res->write_err)
		return CLI_EXIT_FAIL;
	if (o->command && res->end == LAT_REC_END_COMMAND)
		return WIFEXITED(res->cmd_status) ? WEXITSTATUS(res->cmd_status) :
		       128 + WTERMSIG(res->cmd_status);
	if (res->end == LAT_REC_END_SIGNAL && o->command)
		return 130;
	return CLI_EXIT_OK;
}

int cmd_record(int argc, char **argv)
{
	struct record_cmd r = { .events = NULL };
	struct lat_record_result res;
	struct cli_ctx c;
	char *cmdline = join_args(argc, argv);
	int first, status = CLI_EXIT_USAGE;

	lat_record_opts_init(&r.o);
	cli_ctx_init(&c, argv[0], &r);
	/* stop at the first operand, so COMMAND's own options stay its own */
	first = cli_parse(argc, argv, record_tables, 1, &c, usage_record);
	if (first < 0 || check_command(&r.o, first, argc, argv))
		goto out;
	/* A flight recorder needs something to trip it: the timer probe by default. */
	if (r.o.stop_above_ns > 0 && !r.o.probe_timer && !r.o.probe_gap)
		r.o.probe_timer = true;
	r.o.events = r.events;
	r.o.nevents = r.nev;
	r.o.cmdline = cmdline;
	status = record_status(&r.o, lat_record_run(&r.o, &res), &res);
out:
	free(r.events);
	free(cmdline);
	return status;
}
#endif
