/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internals shared by the recorder's session (record*.c) and record/record_file.c (the file). */
#ifndef LATSCOPE_RECORD_PRIV_H
#define LATSCOPE_RECORD_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "tracedat_write.h"

/* Reads a whole file (tracefs files report size 0, so read to EOF).  Returns 0 or -errno. */
int rec_slurp(const char *path, char **buf, size_t *len);

/* What the file's header needs, gathered before tracing starts. */
struct rec_file {
	char *path;
	int fd;
	struct tdw w;
	uint64_t prefix_end;	/* end of the sections known at the start (up to printk) */
	bool kallsyms_left_out;
};

/*
 * Creates @path and writes initial format, headers, the ftrace formats, the formats of
 * @systems (names of event systems under @tracing_dir/events), with @kallsyms kallsyms (else
 * an empty kallsyms section) and printk formats; then reserves room for the rest of the
 * header.  On ENOSPC it retries without kallsyms.  Returns 0 or -errno; on error the file is
 * removed.
 */
int rec_file_begin(struct rec_file *f, const char *path, const char *tracing_dir,
		       const char *const *systems, size_t nsystems, bool kallsyms, FILE *msg);

struct rec_tail {
	const char *cmdlines;
	size_t cmdlines_len;
	uint32_t ncpus;
	const struct tdw_option *opts;
	size_t nopts;
	const char *const *cpu_paths;	/* per-CPU raw page files, NULL entries = no data */
};

/*
 * Writes cmdlines, options, flyrecord and the per-CPU data, freeing the per-CPU files' space
 * as it goes.  On a write error the file is cut to the pages that fit (still readable).
 * Returns 0 or -errno of the first write error (*@readable says whether a file trace-cmd can
 * read remains).
 */
int rec_file_finish(struct rec_file *f, const struct rec_tail *t, bool *readable);
/* Closes (and with @remove unlinks) the file. */
void rec_file_close(struct rec_file *f, bool remove);

#define REC_NSTACK_EVENTS 2
extern const char *const rec_stack_events[REC_NSTACK_EVENTS];

#endif
