/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace.dat version 6 writer (man 5 trace-cmd.dat.v6).  Host byte order (the ring-buffer pages
 * are copied raw, so the file must say the host's endianness), 64-bit longs;
 * the sections are written in the order the format fixes, each by its own call.
 * Every call returns 0 or -errno of the first failed write; after a failure the writer
 * refuses further writes with the same error (the caller decides how to end the file).
 */
#ifndef LATSCOPE_TRACEDAT_WRITE_H
#define LATSCOPE_TRACEDAT_WRITE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct tdw_blob {
	const char *data;
	size_t len;
};

/* One event system: its name and the format files of its events. */
struct tdw_system {
	const char *name;
	const struct tdw_blob *formats;
	uint32_t nformats;
};

/* Option ids trace-cmd 3.1.6 reads without a warning (trace-cmd-private.h). */
enum tdw_option_id {
	TDW_OPT_DONE = 0,
	TDW_OPT_CPUSTAT = 2,
	TDW_OPT_TRACECLOCK = 4,
	TDW_OPT_UNAME = 5,
	TDW_OPT_VERSION = 9,
};

struct tdw_option {
	uint16_t id;
	const void *data;
	uint32_t len;
};

/* Write seam: tests inject short writes and ENOSPC here.  Same contract as write(2). */
typedef ssize_t (*tdw_write_fn)(int fd, const void *buf, size_t len);

struct tdw {
	int fd;
	uint64_t pos;		/* bytes written so far (the file offset) */
	uint32_t page_size;
	int err;		/* first -errno, sticky */
	tdw_write_fn write_fn;
	/* flyrecord table, filled by tdw_write_flyrecord() */
	uint32_t ncpus;
	uint64_t table_pos;	/* file offset of the (offset, size) pairs */
	uint64_t *cpu_off;
	uint64_t *cpu_size;
};

/* Starts a writer on @fd, positioned at offset 0.  @write_fn NULL means write(2). */
void tdw_init(struct tdw *w, int fd, tdw_write_fn write_fn);
/* Frees the flyrecord table; does not close the fd. */
void tdw_release(struct tdw *w);

/* Magic, "tracing", "6", endianness, long size 8, page size. */
int tdw_write_initial(struct tdw *w, uint32_t page_size);
int tdw_write_headers(struct tdw *w, const struct tdw_blob *header_page,
			  const struct tdw_blob *header_event);
int tdw_write_ftrace(struct tdw *w, const struct tdw_blob *formats, uint32_t n);
int tdw_write_systems(struct tdw *w, const struct tdw_system *sys, uint32_t n);
/* kallsyms and printk formats carry 32-bit sizes; an empty blob is allowed. */
int tdw_write_kallsyms(struct tdw *w, const struct tdw_blob *b);
/*
 * The same section read from @fd to its end in chunks (no whole-file buffer): the size is
 * written as 0 and patched in place (pwrite) once known.  A read error stores an empty
 * section.  Returns 0 or the writer's error (-EFBIG above 4 GB).
 */
int tdw_write_kallsyms_fd(struct tdw *w, int fd);
int tdw_write_printk(struct tdw *w, const struct tdw_blob *b);
/* saved_cmdlines, 64-bit size. */
int tdw_write_cmdlines(struct tdw *w, const struct tdw_blob *b);
/* CPU count, "options  ", the options, the terminating option 0. */
int tdw_write_options(struct tdw *w, uint32_t ncpus, const struct tdw_option *opt,
			  size_t nopt);
/*
 * "flyrecord", then per CPU (offset, size) with the data laid out page-aligned, one CPU after
 * the other, and the padding up to the first CPU's data.  @sizes are rounded down to whole
 * pages.  The CPU count is the one given to tdw_write_options().
 */
int tdw_write_flyrecord(struct tdw *w, const uint64_t *sizes);
/* Raw page data for the CPU whose turn it is (the caller writes CPUs in order). */
int tdw_write_data(struct tdw *w, const void *buf, size_t len);
/*
 * Ends the file after a failed or short data copy: CPU @cpu keeps @kept bytes (rounded down
 * to pages), later CPUs none; rewrites the table and truncates the file.  Uses pwrite and
 * ftruncate, which need no new space.
 */
int tdw_cut(struct tdw *w, uint32_t cpu, uint64_t kept);

/* Helpers for callers and tests: stores in host byte order (the file's order). */
void tdw_put16(unsigned char *p, uint16_t v);
void tdw_put32(unsigned char *p, uint32_t v);
void tdw_put64(unsigned char *p, uint64_t v);

#endif
