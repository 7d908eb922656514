// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The wakeup analysis' names and keys: scheduling classes by prio, wait kinds,
 * waker contexts, slice ends, the --policy and --sort keys.  Pure functions of
 * their arguments, below every other analyze/wakeup*.c file: they call them,
 * this file calls none of them.
 */
#include <stdio.h>
#include <string.h>

#include "latscope/an_wakeup_sink.h"
#include "wakeup_rec.h"

const char *lat_wake_ctx_name(enum lat_wake_ctx c)
{
	switch (c) {
	case LAT_WAKE_CTX_IRQ:
		return "irq";
	case LAT_WAKE_CTX_SOFTIRQ:
		return "softirq";
	case LAT_WAKE_CTX_NMI:
		return "nmi";
	default:
		return "task";
	}
}

const char *lat_wake_irq_label(const struct lat_wake_waker *k)
{
	return k->irq_name;
}

enum lat_sched_policy lat_sched_policy_of(int32_t prio)
{
	return wk_policy_of(prio);
}

const char *lat_sched_policy_name(int32_t prio)
{
	switch (lat_sched_policy_of(prio)) {
	case LAT_POL_DEADLINE:
		return "SCHED_DEADLINE";
	case LAT_POL_RT:
		return "SCHED_FIFO";
	case LAT_POL_FAIR:
		return "SCHED_OTHER";
	default:
		return "";
	}
}

void lat_sched_class_fmt(int32_t prio, char *buf, size_t len)
{
	switch (lat_sched_policy_of(prio)) {
	case LAT_POL_RT:
		snprintf(buf, len, "SCHED_FIFO %d", 99 - prio);
		break;
	case LAT_POL_FAIR:
		snprintf(buf, len, "SCHED_OTHER nice %d", prio - 120);
		break;
	default:
		snprintf(buf, len, "%s", lat_sched_policy_name(prio));
		break;
	}
}

int lat_sched_policy_parse(const char *s, enum lat_sched_policy *out)
{
	if (!s)
		return -LAT_EUSAGE;
	if (!strcmp(s, "rt"))
		*out = LAT_POL_RT;
	else if (!strcmp(s, "fair"))
		*out = LAT_POL_FAIR;
	else if (!strcmp(s, "dl"))
		*out = LAT_POL_DEADLINE;
	else
		return -LAT_EUSAGE;
	return 0;
}

const char *lat_wait_kind_name(enum lat_wait_kind k)
{
	switch (k) {
	case LAT_WAIT_PREEMPT:
		return "preempt";
	case LAT_WAIT_NEW:
		return "new";
	default:
		return "wakeup";
	}
}

const char *lat_slice_end_name(enum lat_slice_end e)
{
	switch (e) {
	case LAT_SLICE_BREAK:
		return "break";
	case LAT_SLICE_LOST:
		return "lost";
	case LAT_SLICE_TRACE_END:
		return "end";
	default:
		return "switch";
	}
}

int lat_wake_sort_parse(const char *s, enum lat_wake_sort *out)
{
	static const char *const keys[] = { "max", "avg", "p99", "count", "pid", "comm" };

	for (size_t i = 0; i < LAT_ARRAY_SIZE(keys); i++)
		if (s && !strcmp(s, keys[i])) {
			*out = (enum lat_wake_sort)i;
			return 0;
		}
	return -LAT_EUSAGE;
}
