// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * latscope's side of bench/tracedat.sh: the same loop as
 * tracedat_libtracecmd.c (every event, one field read: next_pid of a switch,
 * the running pid otherwise) over the trace.dat event source.
 *   tracedat_latscope FILE [JOBS]    (JOBS: --jobs, default the reader's)
 * With LAT_THREAD_CPU=1 it prints, once every event is read, the CPU time of
 * the puller (this thread: the critical path when every worker has a core)
 * and of the workers together (the process's less the puller's).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "latscope/input.h"

/* "puller P s, workers W s": this thread's CPU time, and the process's less it. */
static void thread_cpu(void)
{
	struct timespec p, t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &p);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	fprintf(stderr, "thread cpu: puller %.4f s, workers %.4f s\n",
		(double)t.tv_sec + (double)t.tv_nsec / 1e9,
		(double)(p.tv_sec - t.tv_sec) + (double)(p.tv_nsec - t.tv_nsec) / 1e9);
}

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
	if (getenv("LAT_THREAD_CPU"))
		thread_cpu();
	printf("%llu events, checksum %llu\n", n, sum);
	lat_loaded_release(&l);
	return ret < 0;
}
