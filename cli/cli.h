/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LATSCOPE_CLI_H
#define LATSCOPE_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Exit codes (README, docs/cli.md). */
#define CLI_EXIT_OK 0
#define CLI_EXIT_FAIL 1		/* the job ran but failed (a write error) */
#define CLI_EXIT_USAGE 2	/* bad usage, or no input could be read */
#define CLI_EXIT_GATE 3		/* --fail-above: a wait or probe sample exceeded the limit */

struct cli_command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);	/* argv[0] is "latscope NAME" */
	void (*usage)(FILE *out);
};

int cmd_analyze(int argc, char **argv);
void usage_analyze(FILE *out);
int cmd_dump(int argc, char **argv);
void usage_dump(FILE *out);
int cmd_export(int argc, char **argv);
int cmd_merge(int argc, char **argv);
void usage_merge(FILE *out);
void usage_export(FILE *out);
int cmd_render(int argc, char **argv);
void usage_render(FILE *out);
int cmd_formats(int argc, char **argv);
void usage_formats(FILE *out);
#ifdef LATSCOPE_HAVE_RECORD
int cmd_record(int argc, char **argv);
void usage_record(FILE *out);
#endif

/*
 * Loads the render module and returns its table (cli/render_module.c); call
 * once.  NULL after printing "latscope: charts need PATH: why" when it cannot
 * be loaded.
 */
struct lat_render_api;
const struct lat_render_api *cli_render_api(void);

/* Writes a rendered chart to @path.  0 or -1. */
struct lat_render_buf;
int cli_write_file(const char *path, const struct lat_render_buf *b);

/* `latscope render A B ...`: every input's histograms with samples in one chart (@out). */
struct lat_read_opts;
struct lat_render_opts;
struct lat_analyze_opts;
int cli_render_many(char **inputs, int n, const char *out,
		    const struct lat_read_opts *read,
		    struct lat_render_opts *ro, const struct lat_analyze_opts *ao,
		    const struct lat_render_api *api);

/*
 * Loads @path and analyzes its blocks with c->an into @l, filling @rep for the reports;
 * false after "PATH: error: why" when it could not be read (cli/analyze.c).  @read_ns, when
 * not NULL, gets the time of the load (lat_load(): a stream reader decodes later, in the
 * analysis) added.
 */
struct lat_loaded;
struct lat_report_input;
struct cli_ctx;
bool cli_load_one(struct lat_loaded *l, struct lat_report_input *rep, const char *path,
		  const struct cli_ctx *c, int64_t *read_ns);

/* CLOCK_MONOTONIC in ns, for the steps' times. */
int64_t cli_now_ns(void);

/* `latscope report TRACE... -o DIR` (cli/report.c). */
int cmd_report(int argc, char **argv);
void usage_report(FILE *out);

/* True when argv holds -h / --help before any "--". */
int cli_wants_help(int argc, char **argv);

/* The git commit built from, "unknown" outside git (generated: cmake/commit.cmake). */
extern const char cli_commit[];

#endif
