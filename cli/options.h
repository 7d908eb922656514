/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The commands' options, as tables (perf's OPT_PARENT(sched_options) is the model): the reading
 * options (-f, --buffer) and the analysis options (-t, -w, --top, --task, ...) are written once
 * and shared by every command that reads or analyzes; a command adds a table of its own.
 * Each option fills the struct of the layer it belongs to: struct lat_read_opts for the
 * reading, struct lat_analyze_opts for the analysis, the command's own struct for the rest.
 */
#ifndef LATSCOPE_CLI_OPTIONS_H
#define LATSCOPE_CLI_OPTIONS_H

#include <stdio.h>

#include "latscope/analyze.h"
#include "latscope/input.h"

struct cli_ctx {
	const char *cmd;		/* "latscope analyze", for messages; lent */
	struct lat_read_opts read;
	struct lat_analyze_opts an;
	void *own;			/* the command's own settings */
	int top_given;			/* --top was on the command line */
};

struct cli_opt {
	const char *name;		/* long name; NULL ends a table */
	int key;			/* short option letter, 0: long only */
	int has_arg;			/* no_argument or required_argument (getopt.h) */
	/* Applies the option (@arg NULL without argument): 0, or -1 after saying why. */
	int (*set)(struct cli_ctx *c, const char *arg);
};

/* -f/--format NAME, --buffer NAME: fill c->read. */
extern const struct cli_opt cli_read_options[];
/* -t/--threshold, --cpu-mhz, -w/--worst, --top, --task, --wakeup-start: fill c->an. */
extern const struct cli_opt cli_analysis_options[];
/* --policy rt|fair|dl, --min-prio N: the wakeup analysis' selection beside --task
 * (analyze, render, report) */
extern const struct cli_opt cli_select_options[];

/* --fail-above DUR: fills c->an.fail_above_ns (analyze and report). */
extern const struct cli_opt cli_gate_options[];

/*
 * The setters of single shared options, for a command that takes only some of a
 * table (export: --buffer, --jobs, --wakeup-start, --threshold): --buffer NAME into
 * c->read.buffer, --jobs N into c->read.jobs, --wakeup-start waking|wakeup into
 * c->an.wake_start, --threshold DUR into c->an.threshold_ns.
 */
int cli_set_buffer(struct cli_ctx *c, const char *arg);
int cli_set_jobs(struct cli_ctx *c, const char *arg);
/* The reader named @arg into c->read.format; -1 after "CMD: unknown @what 'ARG' ...". */
int cli_set_reader(struct cli_ctx *c, const char *what, const char *arg);
int cli_set_wake_start(struct cli_ctx *c, const char *arg);
int cli_set_threshold(struct cli_ctx *c, const char *arg);

/* Sets the defaults: diagnostics to stderr, lat_analyze_opts_init(). */
void cli_ctx_init(struct cli_ctx *c, const char *cmd, void *own);

/*
 * Parses the options of argv[1..] with @tables (NULL-terminated list of tables).  With
 * @stop_at_operand, options end at the first operand (what follows is a command's own).
 * Returns the index of the first operand, or -1 after a message (an unknown option also
 * prints @usage to stderr).
 */
int cli_parse(int argc, char **argv, const struct cli_opt *const *tables, int stop_at_operand,
	      struct cli_ctx *c, void (*usage)(FILE *out));

/* A count from 1 to 100000 into *@out; -1 after "CMD: NAME: expected a count ...". */
int cli_count(const struct cli_ctx *c, const char *name, const char *arg, int *out);

#endif
