// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "latscope/base.h"
#include "cli.h"

static const struct cli_command commands[] = {
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

/*
 * The malloc heap on transparent huge pages.  Each 4 KiB page a process
 * touches first costs a page fault, ~12 us on the VMs we measure on (a third
 * of a small trace's analysis is page faults); a 2 MiB huge page costs one.
 * The heap grows by brk, and only the part of it advised MADV_HUGEPAGE may get
 * huge pages: so the heap is made to grow in 16 MiB steps (M_TOP_PAD, nothing
 * is touched until used), never given back (M_TRIM_THRESHOLD: a shrunk and
 * regrown heap would not be advised), with requests up to 16 MiB from it
 * (M_MMAP_THRESHOLD: a mapping of its own is 4 KiB pages again); a block that
 * is never touched fills the heap up to the next 2 MiB boundary, and the
 * heap from there is advised.  Advice only: where THP is off nothing changes.
 * Not under AddressSanitizer (its own allocator).  bench/README.md, "Start-up".
 */

static void heap_on_huge_pages(void)
{
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE) && !LAT_ASAN
	const uintptr_t unit = (uintptr_t)2 << 20;
	uintptr_t at, edge, end;
	char *probe;

	if (!mallopt(M_MMAP_THRESHOLD, 16 << 20) || !mallopt(M_TOP_PAD, 16 << 20) ||
	    !mallopt(M_TRIM_THRESHOLD, INT32_MAX))
		return;
	/* where the heap's free end is now (in a fresh process, which has freed nothing) */
	probe = malloc(1);
	if (!probe)
		return;
	at = (uintptr_t)probe + 32;
	edge = (at + unit - 1) & ~(unit - 1);
	/* the filler: never touched past its header, never freed */
	if (edge - at <= 256 || malloc(edge - at - 64)) {
		end = (uintptr_t)sbrk(0) & ~(unit - 1);
		if (end > edge)
			(void)madvise((void *)edge, end - edge, MADV_HUGEPAGE);
	}
	free(probe);
#endif
}

int main(int argc, char **argv)
{
	static char prog[64];

	heap_on_huge_pages();

	if (argc < 2) {
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return CLI_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("latscope %s (commit %s)\n", LATSCOPE_VERSION, cli_commit);
		return CLI_EXIT_OK;
	}
	for (size_t i = 0; i < LAT_ARRAY_SIZE(commands); i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		if (cli_wants_help(argc - 1, argv + 1)) {
			commands[i].usage(stdout);
			return CLI_EXIT_OK;
		}
		/* getopt names the program by argv[0]: "latscope analyze: unrecognized option" */
		snprintf(prog, sizeof(prog), "latscope %s", commands[i].name);
		argv[1] = prog;
		return commands[i].run(argc - 1, argv + 1);
	}
	fprintf(stderr, "latscope: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return CLI_EXIT_USAGE;
}
