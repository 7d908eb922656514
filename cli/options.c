// SPDX-License-Identifier: GPL-2.0-or-later
/* The option tables shared by the commands, and the parser over a list of tables. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "latscope/an_wakeup.h"
#include "options.h"

#define CLI_MAX_OPTS 64

void cli_ctx_init(struct cli_ctx *c, const char *cmd, void *own)
{
	memset(c, 0, sizeof(*c));
	c->cmd = cmd;
	c->read.diag = stderr;
	lat_analyze_opts_init(&c->an);
	c->own = own;
}

int cli_count(const struct cli_ctx *c, const char *name, const char *arg, int *out)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (*end || v < 1 || v > 100000) {
		fprintf(stderr, "%s: %s: expected a count from 1 to 100000, got '%s'\n", c->cmd,
			name, arg);
		return -1;
	}
	*out = (int)v;
	return 0;
}

int cli_set_reader(struct cli_ctx *c, const char *what, const char *arg)
{
	c->read.format = lat_format_find(arg);
	if (!c->read.format) {
		fprintf(stderr, "%s: unknown %s '%s' (see `latscope formats`)\n", c->cmd, what, arg);
		return -1;
	}
	return 0;
}

static int set_format(struct cli_ctx *c, const char *arg)
{
	return cli_set_reader(c, "format", arg);
}

int cli_set_buffer(struct cli_ctx *c, const char *arg)
{
	c->read.buffer = arg;
	return 0;
}

/* --jobs N: threads reading a stream; more than 256 would only cost memory. */
int cli_set_jobs(struct cli_ctx *c, const char *arg)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (*end || v < 1 || v > 256) {
		fprintf(stderr, "%s: --jobs: expected a thread count from 1 to 256, got '%s'\n",
			c->cmd, arg);
		return -1;
	}
	c->read.jobs = (int)v;
	return 0;
}

const struct cli_opt cli_read_options[] = {
	{ "format", 'f', required_argument, set_format },
	{ "buffer", 0, required_argument, cli_set_buffer },
	{ "jobs", 0, required_argument, cli_set_jobs },
	{ NULL, 0, 0, NULL },
};

int cli_set_threshold(struct cli_ctx *c, const char *arg)
{
	if (lat_parse_duration(arg, LAT_NS_PER_US, &c->an.threshold_ns) || !c->an.threshold_ns) {
		fprintf(stderr, "%s: --threshold: expected a duration such as 500us, 10ms, 2s, "
			"got '%s'\n", c->cmd, arg);
		return -1;
	}
	return 0;
}

static int set_cpu_mhz(struct cli_ctx *c, const char *arg)
{
	char *end;

	c->an.cpu_mhz = strtod(arg, &end);
	if (*end || !(c->an.cpu_mhz > 0 && c->an.cpu_mhz < 1e6)) {
		fprintf(stderr, "%s: --cpu-mhz: expected a frequency in MHz such as 733, got "
			"'%s'\n", c->cmd, arg);
		return -1;
	}
	return 0;
}

static int set_worst(struct cli_ctx *c, const char *arg)
{
	return cli_count(c, "--worst", arg, &c->an.worst_n);
}

static int set_top(struct cli_ctx *c, const char *arg)
{
	c->top_given = 1;
	return cli_count(c, "--top", arg, &c->an.top_n);
}

static int set_task(struct cli_ctx *c, const char *arg)
{
	c->an.task = arg;
	return 0;
}

static int set_include_untrusted(struct cli_ctx *c, const char *arg)
{
	(void)arg;
	c->an.include_untrusted = 1;
	return 0;
}

int cli_set_wake_start(struct cli_ctx *c, const char *arg)
{
	if (!strcmp(arg, "waking")) {
		c->an.wake_start = LAT_WAKE_START_WAKING;
	} else if (!strcmp(arg, "wakeup")) {
		c->an.wake_start = LAT_WAKE_START_WAKEUP;
	} else {
		fprintf(stderr, "%s: --wakeup-start: expected waking or wakeup, got '%s'\n",
			c->cmd, arg);
		return -1;
	}
	return 0;
}

const struct cli_opt cli_analysis_options[] = {
	{ "threshold", 't', required_argument, cli_set_threshold },
	{ "cpu-mhz", 0, required_argument, set_cpu_mhz },
	{ "worst", 'w', required_argument, set_worst },
	{ "top", 0, required_argument, set_top },
	{ "task", 0, required_argument, set_task },
	{ "wakeup-start", 0, required_argument, cli_set_wake_start },
	{ "include-untrusted", 0, no_argument, set_include_untrusted },
	{ NULL, 0, 0, NULL },
};

static int set_policy(struct cli_ctx *c, const char *arg)
{
	if (lat_sched_policy_parse(arg, &(enum lat_sched_policy){ 0 })) {
		fprintf(stderr, "%s: --policy: expected rt, fair or dl, got '%s'\n", c->cmd, arg);
		return -1;
	}
	c->an.policy = arg;
	return 0;
}

static int set_min_prio(struct cli_ctx *c, const char *arg)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (*end || v < 1 || v > 99) {
		fprintf(stderr, "%s: --min-prio: expected a real-time priority from 1 to 99, "
			"got '%s'\n", c->cmd, arg);
		return -1;
	}
	c->an.min_prio = (int)v;
	return 0;
}

/* Which tasks the wakeup analysis selects besides --task (analyze, render). */
const struct cli_opt cli_select_options[] = {
	{ "policy", 0, required_argument, set_policy },
	{ "min-prio", 0, required_argument, set_min_prio },
	{ NULL, 0, 0, NULL },
};

static int set_fail_above(struct cli_ctx *c, const char *arg)
{
	if (lat_parse_duration(arg, LAT_NS_PER_US, &c->an.fail_above_ns) ||
	    !c->an.fail_above_ns) {
		fprintf(stderr, "%s: --fail-above: expected a duration above 0 such as 500us, "
			"10ms, 2s (a bare number is microseconds), got '%s'\n", c->cmd, arg);
		return -1;
	}
	return 0;
}

const struct cli_opt cli_gate_options[] = {
	{ "fail-above", 0, required_argument, set_fail_above },
	{ NULL, 0, 0, NULL },
};

/* The getopt_long() tables for @tables: long options return 256 + their index in @all. */
static int build(const struct cli_opt *const *tables, int stop_at_operand,
		 const struct cli_opt **all, struct option *lo, char *shorts)
{
	int n = 0;
	char *s = shorts;

	if (stop_at_operand)
		*s++ = '+';
	for (size_t t = 0; tables[t]; t++) {
		for (const struct cli_opt *o = tables[t]; o->name; o++) {
			if (n == CLI_MAX_OPTS)
				return -1;
			all[n] = o;
			lo[n] = (struct option){ o->name, o->has_arg, NULL, 256 + n };
			if (o->key) {
				*s++ = (char)o->key;
				if (o->has_arg == required_argument)
					*s++ = ':';
			}
			n++;
		}
	}
	lo[n] = (struct option){ NULL, 0, NULL, 0 };
	*s = '\0';
	return n;
}

int cli_parse(int argc, char **argv, const struct cli_opt *const *tables, int stop_at_operand,
	      struct cli_ctx *c, void (*usage)(FILE *out))
{
	const struct cli_opt *all[CLI_MAX_OPTS];
	struct option lo[CLI_MAX_OPTS + 1];
	char shorts[2 * CLI_MAX_OPTS + 2];
	int n = build(tables, stop_at_operand, all, lo, shorts), k;

	if (n < 0)
		return -1;
	optind = 1;
	while ((k = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		const struct cli_opt *o = NULL;

		if (k >= 256 && k < 256 + n)
			o = all[k - 256];
		for (int i = 0; !o && k > 0 && k < 256 && i < n; i++)
			if (all[i]->key == k)
				o = all[i];
		if (!o) {
			usage(stderr);
			return -1;
		}
		if (o->set(c, optarg))
			return -1;
	}
	return optind;
}
