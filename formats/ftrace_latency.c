// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftrace-latency: the kernel's latency format (irqsoff, preemptoff,
 * preemptirqsoff, wakeup, wakeup_rt, wakeup_dl; function with latency-format):
 *
 *   # tracer: irqsoff
 *   # irqsoff latency trace v1.1.5 on 3.8.0-test+
 *   # latency: 16 us, #4/4, CPU#0 | (M:preempt VP:0, KP:0, SP:0 HP:0 #P:4)
 *   #    | task: swapper/0-0 (uid:0 nice:0 policy:0 rt_prio:0)
 *   #  => started at: run_timer_softirq
 *     <idle>-0       0d.s2    0us+: _raw_spin_lock_irq <-run_timer_softirq
 *
 * and the 2.6.26-2.6.28 layout, whose header lines have no "#" and whose
 * parent is in parentheses: "ls-4860  0d...    0us!: trace_hardirqs_off_thunk (apic_timer_interrupt)".
 * Today's kernels add a migrate-disable column to the flags ("0d.s2."), PREEMPT_RT
 * kernels with the lazy patch print 7 flag columns ("0dn.h5.."), and
 * options/display-graph prints function_graph rows with a REL TIME column.
 */
#include <string.h>

#include "fntrace_parse.h"

static enum lat_line_kind ft_line_kind(const char *s, size_t len)
{
	return fnt_line_kind(FNT_FTRACE, s, len);
}

static int ft_probe(const char *peek, size_t len)
{
	const char *t = strstr(peek, " latency trace v1.");

	(void)len;
	/* "preemption latency trace" is the -RT tracer's title */
	while (t && t - peek >= 10 && !strncmp(t - 10, "preemption", 10))
		t = strstr(t + 1, " latency trace v1.");
	if (t && strstr(peek, "# tracer:"))
		return 95;
	if (t)
		return 80;
	return 0;
}

static int ft_parse_block(const struct lat_text *t, size_t first, size_t end,
			  struct lat_block *b, struct lat_diag *d)
{
	return fnt_parse_block(FNT_FTRACE, t, first, end, b, d);
}

static size_t ft_header_block(const struct lat_text *t, size_t first)
{
	return fnt_header_block(FNT_FTRACE, t, first);
}

const struct lat_format fmt_ftrace_latency = {
	.name = "ftrace-latency",
	.summary = "ftrace latency-tracer output: \"# tracer: irqsoff|preemptoff|wakeup...\", "
		   "\"# latency: N us, #A/B, CPU#n\" and its entries (function or display-graph)",
	.probe = ft_probe,
	.line_kind = ft_line_kind,
	.parse_block = ft_parse_block,
	.header_block = ft_header_block,
};
