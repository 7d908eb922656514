/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The exporters' records on a thread of their own (cli/export_pipe.c): the analysis copies
 * each record the wakeup sink gets into a bounded ring, a second thread hands them, in
 * their order, to the exporter's own sink, which makes and writes the text there.  Writing
 * the text was half of `export --perfetto` and of `--rows all` (bench/README-export.md);
 * this way it runs beside the analysis when a core is free.
 *
 * Data: the ring is CLI_PIPE_CHUNKS chunks of CLI_PIPE_CHUNK bytes.  The analysis' thread
 * alone writes the chunk it fills (fill, nfill) and `filled`; the exporter's thread alone
 * reads a filled chunk and writes `done`; both under `mu`.  A record too big for a chunk
 * (a long marker) is handed on by the analysis' thread itself after the ring is drained.
 *
 * Use: cli_pipe_start() around the exporter's sink (the sink of the pipe in @front goes to
 * lat_analyze_opts.sink), cli_pipe_drain() before anything else reads or changes what the
 * exporter's callbacks use (after each block's analysis, before the exporter's end),
 * cli_pipe_stop() last.  Only the sink callbacks slice, wait, marker, lost, stall, irq and
 * runq are carried: cli_pipe_start() refuses a sink with an event callback.
 */
#ifndef LATSCOPE_CLI_EXPORT_PIPE_H
#define LATSCOPE_CLI_EXPORT_PIPE_H

#include <pthread.h>

#include "latscope/an_wakeup_sink.h"

/*
 * A side that waits is woken when half the ring is filled (the thread) or free (the
 * analysis), not at each chunk: a wake-up per chunk cost more than the copies.
 */
#define CLI_PIPE_CHUNK (64u << 10)
#define CLI_PIPE_CHUNKS 16u

struct cli_pipe {
	struct lat_wake_sink back;	/* the exporter's: called on the pipe's thread */
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t more, room;	/* for the thread; for the analysis */
	unsigned long filled, done;	/* chunks handed to the thread, and those it took */
	int idle, full;			/* the thread waits for more; the analysis for room */
	int flush;			/* the analysis waits for every chunk to be done */
	int quit;
	char *ring;			/* CLI_PIPE_CHUNKS * CLI_PIPE_CHUNK bytes */
	char *fill;			/* the chunk being filled */
	size_t nfill;
	size_t lens[CLI_PIPE_CHUNKS];	/* the bytes of each filled chunk */
};

/*
 * Starts the thread that calls @back (lent until cli_pipe_stop()) and sets @front to the
 * sink that feeds it.  Returns 0, or -1 (no thread, no memory, or @back has an event
 * callback): then nothing was started and @back is to be used as it is.
 */
int cli_pipe_start(struct cli_pipe *p, const struct lat_wake_sink *back,
		   struct lat_wake_sink *front);
/* Returns when every record given so far has been handed to the exporter's sink. */
void cli_pipe_drain(struct cli_pipe *p);
/* Drains, ends the thread, frees the ring. */
void cli_pipe_stop(struct cli_pipe *p);

#endif
