/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The rtla reader's parts, private to formats/: rtla.c reads the hist and top
 * tables and hands timerlat's auto-analysis lines to rtla_aa.c.
 */
#ifndef LATSCOPE_RTLA_H
#define LATSCOPE_RTLA_H

#include "latscope/format.h"

#define RT_AA_SECTIONS 8	/* "## CPU N hit stop tracing" sections kept */

/* One CPU's analysis: "## CPU 23 hit stop tracing, analyzing it ##" and what follows. */
struct rt_aa_sec {
	int cpu;
	uint32_t line;
	char culprit[64];	/* the blocking thread "objtool:49256", "" when none */
	int64_t culprit_ns;	/* its time, LAT_VALUE_NONE when printed without (IRQ case) */
	char blocking_pct[24];	/* "9.03 %" of "Blocking thread: 3.79 us (9.03 %)", or "" */
	char total_kind[8];	/* "Thread" or "IRQ" of "Thread latency: 41.96 us (100%)" */
	int64_t total_ns;	/* LAT_VALUE_NONE until that line */
	int64_t irq_ns;		/* "IRQ latency: 28.13 us" (the IRQ's part), LAT_VALUE_NONE */
	uint32_t last_line;	/* the section's last line read */
	char *stack;		/* owned: "timerlat_irq <- ... <- entry_SYSCALL_64...", or NULL */
	size_t stack_len;
	int nframes;
};

/* timerlat's auto-analysis (rtla timerlat -a / --aa-only), as rtla_aa.c gathers it. */
struct rt_aa {
	char *text;		/* owned: every line, blanks squeezed, joined by "; " */
	size_t len;
	int in_stack;		/* the last line was a "-> fn" frame */
	int after_blocking;	/* the last label was "Blocking thread:": its thread follows */
	struct rt_aa_sec sec[RT_AA_SECTIONS];
	int nsec;
};

/*
 * How the segmenter sees an auto-analysis line: LAT_LINE_ROW for a label with
 * its value, LAT_LINE_SOFT for the lines around them (a thread "comm:pid", a
 * stack frame, the headings), LAT_LINE_NO when it is none.
 */
enum lat_line_kind rt_aa_line_kind(const char *s, size_t len);
/* an auto-analysis line, whole or cut short by a mailer (a row shape) */
enum lat_row_state rt_aa_row(const char *s, size_t len, struct lat_row_ctx *ctx);

/*
 * Reads one line (NUL-terminated) into @a: 1 when it was an auto-analysis
 * line, 0 when not, -LAT_ENOMEM.
 */
int rt_aa_line(struct rt_aa *a, const char *buf, uint32_t line);

/* Adds the findings (rtla-auto-analysis, rtla-blocking-thread, rtla-stack) to @b; 0 or error. */
int rt_aa_finish(const struct rt_aa *a, struct lat_block *b);

/*
 * For an analysis printed alone (--aa-only, or pasted without its table): per
 * CPU analyzed the latencies it names as summary-only histograms, "IRQ cpu3"
 * and "Thread cpu3", whose max is the sample that stopped the trace.  0 or error.
 */
int rt_aa_summaries(const struct rt_aa *a, struct lat_block *b);

void rt_aa_free(struct rt_aa *a);

#endif
