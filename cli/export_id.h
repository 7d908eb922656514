/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The trace id's hash on a thread of its own, the rows held (into a file: patched in place)
 * until it is known (cli/export_id.c).  One thread at a time calls these and writes the
 * streams: the command's, or the exporter's writer between the command's drains
 * (cli/export_pipe.h); the hash's thread writes hex, err and done alone, and done last.
 *
 * Per input: cli_ids_start() before its analysis, cli_ids_finish() after it; the tables'
 * streams are made once with cli_ids_stream() and closed with fclose().
 */
#ifndef LATSCOPE_CLI_EXPORT_ID_H
#define LATSCOPE_CLI_EXPORT_ID_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#define CLI_IDS_MAX_STREAMS 8

struct cli_id_stream;

struct cli_ids {
	pthread_t th;
	int running;		/* th started and not joined */
	FILE *in;		/* the input being hashed; owned, NULL none */
	char hex[17];		/* the hash's digits: the thread's until done */
	int err;		/* the hash's return: 0 or -EIO */
	atomic_int done;
	char *texts[2];		/* the caller's id texts, given the digits when known; lent */
	size_t ntexts;
	size_t nheld;		/* bytes held over all streams */
	struct cli_id_stream *streams[CLI_IDS_MAX_STREAMS];
	size_t nstreams;
};

/*
 * A stream for a table whose rows go to @out (owned from now on: closed with the stream,
 * unless stdout): fclose() of it says whether every write succeeded.  NULL out of memory.
 */
FILE *cli_ids_stream(struct cli_ids *ids, FILE *out);
/*
 * Starts hashing @path: LAT_ROWS_ID_HOLD into @hex (17 bytes) and 0, the digits put into
 * @hex and @id (the id of the rows, which starts with @hex's text) when they are known.
 * Without a thread the digits at once (0, or -EIO); -errno when @path cannot be opened.
 */
int cli_ids_start(struct cli_ids *ids, const char *path, char *hex, char *id);
/*
 * After the input's analysis: its rows out of @outs (the tables' streams, NULL skipped),
 * the hash waited for and the rows held written with its digits.  Returns the hash's
 * error, 0 or -EIO; a write error stays with its stream.
 */
int cli_ids_finish(struct cli_ids *ids, FILE *const *outs, size_t n);

#endif
