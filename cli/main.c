// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>
#include <string.h>

#include "latscope/base.h"
#include "cli.h"

static const struct lat_command commands[] = {
	{ "analyze", "explain the latency in traces and pasted logs", cmd_analyze, usage_analyze },
	{ "dump", "print a trace's events one per line (debugging readers)", cmd_dump, usage_dump },
	{ "export", "write a trace's slices and waits for Perfetto or SQL", cmd_export,
	  usage_export },
	{ "merge", "combine the mergeable summaries of analyze --json reports", cmd_merge,
	  usage_merge },
	{ "report", "write a bug-report bundle: report.md and a self-contained report.html",
	  cmd_report, usage_report },
	{ "render", "draw PNG/SVG charts of traces and pasted logs", cmd_render, usage_render },
	{ "formats", "list the input formats latscope reads", cmd_formats, usage_formats },
#ifdef LATSCOPE_HAVE_RECORD
	{ "record", "record scheduler events and latency probes into trace.dat", cmd_record,
	  usage_record },
#endif
};

static void usage(FILE *out)
{
	fprintf(out, "usage: latscope <command> [options]\n\ncommands:\n");
	for (size_t i = 0; i < LAT_ARRAY_SIZE(commands); i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\n`latscope <command> --help` for a command's options; --version.\n"
		     "exit status: 0 ok, 1 the job failed, 2 usage error or unreadable input,\n"
		     "             3 `analyze --fail-above` exceeded\n");
}

int cli_wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return 0;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static char prog[64];

	if (argc < 2) {
		usage(stderr);
		return LAT_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return LAT_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("latscope %s\n", LATSCOPE_VERSION);
		return LAT_EXIT_OK;
	}
	for (size_t i = 0; i < LAT_ARRAY_SIZE(commands); i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		if (cli_wants_help(argc - 1, argv + 1)) {
			commands[i].usage(stdout);
			return LAT_EXIT_OK;
		}
		/* getopt names the program by argv[0]: "latscope analyze: unrecognized option" */
		snprintf(prog, sizeof(prog), "latscope %s", commands[i].name);
		argv[1] = prog;
		return commands[i].run(argc - 1, argv + 1);
	}
	fprintf(stderr, "latscope: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return LAT_EXIT_USAGE;
}
