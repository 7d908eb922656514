// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rt-lattrace: Ingo Molnar's -RT / -VP latency tracer (kernel/latency.c,
 * 2004-2006), /proc/latency_trace as pasted into mails.  v1.1.4:
 *
 *   preemption latency trace v1.1.4 on 2.6.12-rc1-RT-V0.7.41-00
 *    latency: 3402 us, #4095/20285, CPU#0 | (M:preempt VP:0, KP:1, SP:1 HP:1 #P:1)
 *       | task: ksoftirqd/0-2 (uid:0 nice:-10 policy:0 rt_prio:0)
 *   (T1/#8) <...> 2576 0 2 00000001 00000008 [0002512920679575] 0.001ms (+0.000ms): f+o/s <a> (p+o/s <a>)
 *   (T3/#4) <...>-2576 0dn.3    0us : try_to_wake_up+0x11e/0x140 <c01104fe> <<...>-2> (69 73):
 *
 * and the v1.0 - v1.1.3 layouts of 2004 ("00010001 0.002ms (+0.002ms): f (parent)",
 * "comm-pid 0-h.3 2us : f (parent)").
 * Grammar and units: formats/fntrace_parse.c, docs/fntrace.md.
 */
#include <string.h>

#include "fntrace_parse.h"

static enum lat_line_kind rt_line_kind(const char *s, size_t len)
{
	return fnt_line_kind(FNT_RT, s, len);
}

static int rt_probe(const char *peek, size_t len)
{
	(void)len;
	if (strstr(peek, "preemption latency trace v1."))
		return 95;
	return 0;
}

static int rt_parse_block(const struct lat_text *t, size_t first, size_t end,
			  struct lat_block *b, struct lat_diag *d)
{
	return fnt_parse_block(FNT_RT, t, first, end, b, d);
}

static size_t rt_header_block(const struct lat_text *t, size_t first)
{
	return fnt_header_block(FNT_RT, t, first);
}

const struct lat_format fmt_rt_lattrace = {
	.name = "rt-lattrace",
	.summary = "-RT/-VP latency tracer dumps: \"preemption latency trace v1.0 - v1.1.5\" "
		   "(2004-2006; verbose and compact entries)",
	.probe = rt_probe,
	.line_kind = rt_line_kind,
	.parse_block = rt_parse_block,
	.header_block = rt_header_block,
};
