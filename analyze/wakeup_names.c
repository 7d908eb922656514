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

static const char *sched_policy_name(int32_t prio)
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
		if (prio == LAT_PRIO_RT_UNKNOWN)
			snprintf(buf, len, "SCHED_FIFO (priority not recorded)");
		else
			snprintf(buf, len, "SCHED_FIFO %d", 99 - prio);
		break;
	case LAT_POL_FAIR:
		snprintf(buf, len, "SCHED_OTHER nice %d", prio - 120);
		break;
	default:
		snprintf(buf, len, "%s", sched_policy_name(prio));
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

const char *lat_stall_due_name(enum lat_stall_due d)
{
	switch (d) {
	case LAT_STALL_QUEUED:
		return "queued";
	case LAT_STALL_WAKEUP:
		return "wakeup";
	case LAT_STALL_PROBE:
		return "probe";
	case LAT_STALL_TIMER:
		return "timer";
	default:
		return "owed-switch";
	}
}

const char *lat_health_name(enum lat_health_why w)
{
	switch (w) {
	case LAT_HEALTH_IDLE_EXITS:
		return "idle-exits";
	case LAT_HEALTH_BREAKS:
		return "breaks";
	default:
		return "ok";
	}
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

/*
 * The name of @policy (a recorded sched_setscheduler()) when it agrees with
 * the class of @prio, else NULL: a boosted or otherwise changed task keeps
 * the class its prio shows.
 */
static const char *policy_name(int32_t prio, int32_t policy)
{
	static const char *const names[] = { "SCHED_OTHER", "SCHED_FIFO", "SCHED_RR",
					     "SCHED_BATCH", NULL, "SCHED_IDLE", "SCHED_DEADLINE" };
	enum lat_sched_policy p = lat_sched_policy_of(prio);

	if (policy < 0 || policy > 6 || !names[policy])
		return NULL;
	if ((policy == 1 || policy == 2) && p == LAT_POL_RT)
		return names[policy];
	if ((policy == 0 || policy == 3 || policy == 5) && p == LAT_POL_FAIR)
		return names[policy];
	if (policy == 6 && p == LAT_POL_DEADLINE)
		return names[policy];
	return NULL;
}

const char *lat_sched_policy_name_pol(int32_t prio, int32_t policy, int *from_policy)
{
	const char *n = policy_name(prio, policy);

	if (from_policy)
		*from_policy = n != NULL;
	return n ? n : sched_policy_name(prio);
}

int lat_sched_class_fmt_pol(int32_t prio, int32_t policy, char *buf, size_t len)
{
	const char *n = policy_name(prio, policy);

	if (!n) {
		lat_sched_class_fmt(prio, buf, len);
		return 0;
	}
	if ((policy == 1 || policy == 2) && prio == LAT_PRIO_RT_UNKNOWN)
		snprintf(buf, len, "%s (priority not recorded)", n);
	else if (policy == 1 || policy == 2)
		snprintf(buf, len, "%s %d", n, 99 - prio);
	else if (policy == 0 || policy == 3)
		snprintf(buf, len, "%s nice %d", n, prio - 120);
	else
		snprintf(buf, len, "%s", n);	/* SCHED_IDLE: below every nice; DEADLINE */
	return 1;
}
