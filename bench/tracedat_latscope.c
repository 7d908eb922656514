// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * latscope's side of bench/tracedat.sh: the same loop as
 * tracedat_libtracecmd.c (every event, one field read: next_pid of a switch,
 * the running pid otherwise) over the trace.dat event source.
 *   tracedat_latscope FILE [JOBS]    (JOBS: --jobs, default the reader's)
 */
#include <stdio.h>
#include <stdlib.h>

#include "latscope/input.h"

int main(int argc, char **argv)
{
	struct lat_loaded l;
	struct lat_event ev;
	unsigned long long n = 0, sum = 0;
	int ret;

	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: %s trace.dat [JOBS]\n", argv[0]);
		return 2;
	}
	if (lat_load(&l, argv[1], &(struct lat_read_opts){ .format = lat_format_find("trace.dat"),
							.diag = stderr,
							.jobs = argc == 3 ? atoi(argv[2]) : 0 }) < 0 ||
	    l.nblocks != 1) {
		fprintf(stderr, "cannot open %s: %s\n", argv[1], l.error);
		lat_loaded_release(&l);
		return 2;
	}
	while ((ret = lat_event_next(l.blocks[0]->events, &ev)) > 0) {
		sum += (unsigned long long)(ev.type == LAT_EV_SWITCH ? ev.u.sw.next_pid : ev.pid);
		n++;
	}
	printf("%llu events, checksum %llu\n", n, sum);
	lat_loaded_release(&l);
	return ret < 0;
}
