/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ftrace text, private to the reader and its tests: one line of the kernel's
 * `trace` / `trace_pipe` text or of `trace-cmd report` into a struct lat_event.
 * docs/ftrace-text.md describes the shapes.
 */
#ifndef LATSCOPE_FTRACE_TEXT_H
#define LATSCOPE_FTRACE_TEXT_H

#include "latscope/event.h"
#include "latscope/format.h"

/* Longest line the stream reader accepts; longer ones are reported and skipped. */
#define LAT_FT_LINE_MAX 65536
/* Frames kept per <stack trace>; deeper frames are counted, not kept. */
#define LAT_FT_STACK_MAX 128
/* Symbol bytes kept per stack (all frames); longer symbols are cut. */
#define LAT_FT_SYM_BYTES 8192

enum lat_ft_kind {
	LAT_FT_SKIP,		/* blank, comment, "cpus=2", "##### CPU 1 buffer started" */
	LAT_FT_EVENT,		/* *ev filled */
	LAT_FT_STACK,		/* "<stack trace>": *ev has the context, frames follow */
	LAT_FT_USTACK,		/* "<user stack trace>": context in *ev, frames follow */
	LAT_FT_FRAME,		/* " => symbol" */
	LAT_FT_LOST,		/* "CPU:1 [LOST 1204 EVENTS]": ev->cpu, ev->u.lost.count */
	LAT_FT_BAD,		/* *expected says what was expected */
	LAT_FT_FOREIGN,		/* not ftrace text at all (prose in a mail) */
};

/* Strings an event lends, NUL-terminated copies owned by the caller's parser. */
struct lat_ft_strs {
	char name[64];		/* event name of LAT_EV_OTHER */
	char irq[64];		/* irq handler or softirq action name */
	char buffer[64];	/* trace-cmd report's "instance:" prefix of the line, or "" */
};

/*
 * Parses one line (no newline, already dequoted).  Fills @ev for EVENT, STACK,
 * USTACK and LOST; @ncpus gets a CPU count found in a header line (else left
 * alone).  Returns the kind; for LAT_FT_BAD *expected (static) says what a
 * good line looks like.  Never reads outside [s, s + len).
 */
enum lat_ft_kind lat_ft_parse_line(const char *s, size_t len, struct lat_event *ev,
				   struct lat_ft_strs *strs, int *ncpus, const char **expected);

/*
 * Bytes in front of @s that a console or syslog capture added to an ftrace line:
 * a syslog "... host kernel: " prefix, a "<4>" log level, the printk time
 * "[  123.456789]" and caller id "[ T123]", or a "| " paste bar.  0 if none.
 */
size_t lat_ft_console_prefix(const char *s, size_t len);

/*
 * One stack frame line: symbol (offset "+0x1c/0x80" dropped) into @sym (NUL-
 * terminated, cut to @symlen - 1) and the address when printed, else 0.
 * Returns 1, or 0 when the line is no frame.
 */
int lat_ft_parse_frame(const char *s, size_t len, char *sym, size_t symlen, uint64_t *ip);

/*
 * An event source over lines [first, end) of @t (kept alive by the caller).
 * Malformed lines go to @d (NULL: only counted).  NULL on allocation failure.
 */
struct lat_event_source *lat_ft_text_source_new(const struct lat_text *t, size_t first,
						 size_t end, struct lat_diag *d);

/* Lines skipped as malformed so far by a source of this reader. */
size_t lat_ft_source_skipped(const struct lat_event_source *src);
/* Lines read so far by a source of this reader. */
uint64_t lat_ft_source_lines(const struct lat_event_source *src);

extern const struct lat_format lat_format_ftrace_text;

#endif
