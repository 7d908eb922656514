/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ftrace text, private to the reader and its tests: one line of the kernel's
 * `trace` / `trace_pipe` text or of `trace-cmd report` into a struct lat_event.
 * docs/ftrace-text.md describes the shapes.
 */
#ifndef LATSCOPE_FTRACE_TEXT_H
#define LATSCOPE_FTRACE_TEXT_H

#include "latscope/env.h"
#include "latscope/event.h"
#include "latscope/format.h"

/* Longest line the stream reader accepts; longer ones are reported and skipped. */
#define FT_LINE_MAX 65536
/* Frames kept per <stack trace>; deeper frames are counted, not kept. */
#define FT_STACK_MAX 128
/* Symbol bytes kept per stack (all frames); longer symbols are cut. */
#define FT_SYM_BYTES 8192

enum ft_kind {
	FT_SKIP,		/* blank, comment, "cpus=2", "##### CPU 1 buffer started" */
	FT_EVENT,		/* *ev filled */
	FT_STACK,		/* "<stack trace>": *ev has the context, frames follow */
	FT_USTACK,		/* "<user stack trace>": context in *ev, frames follow */
	FT_FRAME,		/* " => symbol" */
	FT_LOST,		/* "CPU:1 [LOST 1204 EVENTS]": ev->cpu, ev->u.lost.count */
	FT_BAD,		/* *expected says what was expected */
	FT_FOREIGN,		/* not ftrace text at all (prose in a mail) */
};

/*
 * The irq-info flags column of one line, decoded (docs/ftrace-text.md "Flags").
 * The layout follows from the width: 4 columns (irqs-off, need-resched,
 * hardirq/softirq, preempt-depth), 5 (and migrate-disable, 5.13+), 7 (PREEMPT_RT
 * with lazy preemption: irqs-off, need-resched, need-resched-lazy,
 * hardirq/softirq, preempt-depth, preempt-lazy-depth, migrate-disable).
 */
struct ft_flags {
	uint8_t ncols;		/* characters printed; 0: the line has no flags column */
	uint8_t decoded;	/* 1: a known width and every column valid */
	char irqs;		/* 'd' irqs off, 'D' +BH off, 'b' BH off, 'X' unsupported, '.' */
	char resched;		/* 'N' 'n' 'p' '.', 6.13+ lazy: 'L' 'l' 'B' 'b' */
	char lazy;		/* -RT need-resched-lazy 'L' or '.'; 0 when not printed */
	char ctx;		/* 'Z' NMI in hardirq, 'z' NMI, 'H' hardirq+softirq, 'h' 's' '.';
				 * by width when not decoded: the 3rd of 4+ columns, else 0 */
	int8_t preempt;		/* preempt-depth 0..15, -1 when not decoded */
	int8_t lazy_depth;	/* -RT preempt-lazy-depth, -1 when not printed */
	int8_t migrate;		/* migrate-disable depth, -1 when not printed */
	const char *text;	/* the characters, lent while the line is */
};

/* Flag columns, as a legend names them ("#  / _----=> need-resched"). */
enum ft_col {
	FT_COL_IRQS = 1,	/* irqs-off, irqs-off/BH-disabled */
	FT_COL_RESCHED,	/* need-resched */
	FT_COL_LAZY,	/* need-resched-lazy (-RT) */
	FT_COL_CTX,		/* hardirq/softirq */
	FT_COL_PREEMPT,	/* preempt-depth */
	FT_COL_LAZY_DEPTH,	/* preempt-lazy-depth (-RT) */
	FT_COL_MIGRATE,	/* migrate-disable */
	FT_COL_CPU,		/* CPU# (latency format: the cpu glued in front) */
};

/*
 * Decodes @n flag characters by their width (4, 5 or 7) into @f; returns
 * f->decoded.  The only reader of the column: when the width is not one of
 * those (or a column is not valid), f->ctx is still the third character of 4
 * or more, where the 4- and 5-column layouts have the context.
 */
int ft_flags_decode(const char *s, size_t n, struct ft_flags *f);
/* The same with the columns a legend announced (@layout: enum ft_col, 0-ended). */
int ft_flags_decode_layout(const char *s, size_t n, const uint8_t *layout,
			       struct ft_flags *f);
/* The column a legend line names, or 0 when the line is no legend line. */
int ft_legend_col(const char *s, size_t len);

/* Strings an event lends, NUL-terminated copies owned by the caller's parser. */
struct ft_strs {
	char name[64];		/* event name of LAT_EV_OTHER */
	char irq[64];		/* irq handler or softirq action name */
	char buffer[64];	/* trace-cmd report's "instance:" prefix of the line, or "" */
	struct ft_flags flags;	/* the line's irq-info column */
	struct lat_steal steal;		/* a latscope steal marker's values (marker.steal) */
};

/*
 * The fields of an hrtimer event (ev->type LAT_EV_TIMER_*) from its text [p, e):
 * u.timer filled, the callback's name copied into strs->irq.  Returns 1, or 0
 * when a field it needs is missing or bad (ftrace_text_timer.c).
 */
int ft_timer_fields(const char *p, const char *e, struct lat_event *ev,
			struct ft_strs *strs);

/*
 * Parses one line (no newline, already dequoted).  Fills @ev for EVENT, STACK,
 * USTACK and LOST; @ncpus gets a CPU count found in a header line (else left
 * alone).  Returns the kind; for FT_BAD *expected (static) says what a
 * good line looks like.  Never reads outside [s, s + len).
 */
enum ft_kind ft_parse_line(const char *s, size_t len, struct lat_event *ev,
				   struct ft_strs *strs, int *ncpus, const char **expected);

/*
 * The head "<comm>-<pid> [(tgid)] [cpu] [flags] <sec.usec>: " of an event line
 * (console prefixes and blanks before it skipped): fills @ev's comm, pid, cpu,
 * flags and ts_ns and returns the offset of what follows it, or 0 when @s has
 * no such head.  For the readers of lines whose payload is no event ("#1
 * context irq timer_latency 932 ns": formats/ktracer_line.c).
 */
size_t ft_parse_head(const char *s, size_t len, struct lat_event *ev,
			 struct ft_strs *strs);

/*
 * ft_parse_line() of a line whose head ft_parse_head() read into @ev and @strs (@off
 * its result, nonzero), without reading the head again (the row shape, ft_row()).
 */
enum ft_kind ft_parse_after_head(const char *s, size_t len, size_t off, struct lat_event *ev,
				 struct ft_strs *strs, int *ncpus, const char **expected);

/*
 * Bytes in front of @s that a console or syslog capture added to an ftrace line:
 * a syslog "... host kernel: " prefix, a "<4>" log level, the printk time
 * "[  123.456789]" and caller id "[ T123]", or a "| " paste bar.  0 if none.
 */
size_t ft_console_prefix(const char *s, size_t len);

/*
 * One stack frame line: symbol (offset "+0x1c/0x80" dropped) into @sym (NUL-
 * terminated, cut to @symlen - 1) and the address when printed, else 0.
 * Returns 1, or 0 when the line is no frame.
 */
int ft_parse_frame(const char *s, size_t len, char *sym, size_t symlen, uint64_t *ip);

/*
 * An event source over lines [first, end) of @t (kept alive by the caller).
 * Malformed lines go to @d (NULL: only counted).  NULL on allocation failure.
 */
struct lat_event_source *ft_text_source_new(const struct lat_text *t, size_t first,
						 size_t end, struct lat_diag *d);

/* Lines skipped as malformed so far by a source of this reader. */
size_t ft_source_skipped(const struct lat_event_source *src);
/*
 * Event lines of a source whose irq-info flags were decoded / printed but not
 * decoded (unknown width or letters, or a width other than the legend's).
 */
void ft_source_flags(const struct lat_event_source *src, uint64_t *decoded,
			 uint64_t *undecoded);
/* Lines read so far by a source of this reader. */
uint64_t ft_source_lines(const struct lat_event_source *src);

extern const struct lat_format fmt_ftrace_text;

#endif
