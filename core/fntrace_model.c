// SPDX-License-Identifier: GPL-2.0-or-later
/* The function-trace model (include/latscope/fntrace.h): allocation only. */
#include <stdlib.h>
#include <string.h>

#include "latscope/fntrace.h"

struct lat_fntrace *lat_fntrace_new(void)
{
	struct lat_fntrace *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->latency_ns = -1;
	t->entries_shown = -1;
	t->entries_total = -1;
	t->cpu = -1;
	t->nr_cpus = -1;
	t->task_pid = -1;
	t->task_uid = LAT_FN_NONE;
	t->task_nice = LAT_FN_NONE;
	t->task_policy = LAT_FN_NONE;
	t->task_rt_prio = LAT_FN_NONE;
	return t;
}

void lat_fntrace_free(struct lat_fntrace *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++) {
		free(t->e[i].comm);
		free(t->e[i].function);
		free(t->e[i].parent);
		free(t->e[i].text);
		free(t->e[i].note);
	}
	for (size_t i = 0; i < t->nstack; i++)
		free(t->stack[i]);
	free(t->stack);
	free(t->e);
	free(t->tracer);
	free(t->version);
	free(t->kernel);
	free(t->model);
	free(t->task_comm);
	free(t->started_at);
	free(t->ended_at);
	free(t);
}

struct lat_fn_entry *lat_fntrace_add(struct lat_fntrace *t)
{
	struct lat_fn_entry *e;

	if (lat_grow(&t->e, &t->cap, t->n + 1, sizeof(*t->e)))
		return NULL;
	e = &t->e[t->n++];
	memset(e, 0, sizeof(*e));
	e->delay_ns = -1;
	e->cpu = -1;
	e->pid = -1;
	e->index = -1;
	e->type = -1;
	e->preempt_count = -1;
	e->migrate = -1;
	e->lazy_depth = -1;
	e->depth = -1;
	e->dur_ns = -1;
	return e;
}

const char *lat_fn_kind_name(enum lat_fn_kind k)
{
	static const char *const names[LAT_FN_NKINDS] = {
		[LAT_FN_CALL] = "call",
		[LAT_FN_SPECIAL] = "special",
		[LAT_FN_SPECIAL_PID] = "sched-marker",
		[LAT_FN_CMDLINE] = "cmdline",
		[LAT_FN_SYSCALL] = "syscall",
		[LAT_FN_SYSRET] = "sysret",
		[LAT_FN_SCHED] = "sched",
		[LAT_FN_EVENT] = "event",
		[LAT_FN_STACK] = "stack-trace",
	};

	return (unsigned)k < LAT_FN_NKINDS ? names[k] : "?";
}

const char *lat_fn_layout_name(enum lat_fn_layout l)
{
	static const char *const names[LAT_FNL_N] = {
		[LAT_FNL_PREEMPT_WORD] = "preempt-word",
		[LAT_FNL_V113] = "v1.1.3",
		[LAT_FNL_4] = "4",
		[LAT_FNL_5] = "5-migrate",
		[LAT_FNL_RT_LAZY7] = "7-rt-lazy",
	};

	return (unsigned)l < LAT_FNL_N ? names[l] : NULL;
}
