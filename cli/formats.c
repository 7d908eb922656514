// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>

#include "latscope/format.h"
#include "cli.h"

void usage_formats(FILE *out)
{
	fprintf(out, "usage: latscope formats\n\nLists every reader: name, kind, summary.\n");
}

int cmd_formats(int argc, char **argv)
{
	size_t n;
	const struct lat_format *const *f = lat_formats(&n);

	(void)argv;
	if (argc > 1) {
		usage_formats(stderr);
		return CLI_EXIT_USAGE;
	}
	for (size_t i = 0; i < n; i++)
		printf("%-16s %-7s %s\n", f[i]->name,
		       f[i]->line_kind ? (f[i]->open_stream ? "both" : "text") : "stream",
		       f[i]->summary);
	return CLI_EXIT_OK;
}
