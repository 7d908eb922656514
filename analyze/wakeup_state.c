// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The wakeup analysis' core state (wakeup_state.h): tasks and CPUs made on
 * first sight, with the history's and the consumers' parts of them set up;
 * tasks renamed as their comm changes.
 */
#include <stdlib.h>
#include <string.h>

#include "wakeup_state.h"

int wk_task_matches(const struct wk *w, const struct wk_task *t)
{
	if (w->sel.filter_pid >= 0)
		return t->pid == w->sel.filter_pid;
	if (w->sel.filter_comm)
		return !strcmp(t->comm, w->sel.filter_comm);
	return 1;
}

/*
 * @src's name into @dst, zeros after it: wk_comm_differs() compares whole words, so a
 * task's name has nothing after its NUL (an event's may, e.g. a kernel comm that was longer).
 */
static void copy_comm(char *dst, const char *src)
{
	if (!src || !src[0])
		return;
	memset(dst, 0, LAT_COMM_LEN);
	memcpy(dst, src, strnlen(src, LAT_COMM_LEN - 1));
}

int wk_tasks_grow(struct wk *w)
{
	size_t ocap = w->tasks.tcap, ncap = ocap ? ocap * 2 : 1024;
	struct wk_slot *old = w->tasks.slots;

	w->tasks.slots = calloc(ncap, sizeof(*w->tasks.slots));
	if (!w->tasks.slots) {
		w->tasks.slots = old;
		return -LAT_ENOMEM;
	}
	w->tasks.tcap = ncap;
	for (size_t i = 0; i < ocap; i++)
		if (old[i].t)
			w->tasks.slots[wk_task_slot(w, old[i].pid)] = old[i];
	free(old);
	return 0;
}

/* A task seen for the first time (the slow path of wk_get_task). */
__attribute__((noinline)) struct wk_task *wk_new_task(struct wk *w, int32_t pid, const char *comm)
{
	struct wk_task *t;

	if ((w->tasks.ntasks + 1) * 2 > w->tasks.tcap && wk_tasks_grow(w))
		goto oom;
	t = lat_arena_alloc(&w->arena, sizeof(*t));
	if (!t)
		goto oom;
	t->idx = (uint32_t)w->tasks.ntasks;
	if (wk_stats_task_init(&w->stats, &t->stats, t->idx))
		goto oom;
	t->pid = pid;
	t->on_cpu = -1;
	t->off_stack = -1;
	t->stall.owed_cpu = -1;
	t->stall.qprio = -1;
	t->qcpu = -1;
	t->area_cpu = -1;
	t->prio = LAT_PRIO_UNKNOWN;	/* until a switch or waking of it says */
	t->policy = -1;
	t->unsel_rank = -1;
	w->tasks.slots[wk_task_slot(w, pid)] = (struct wk_slot){ pid, t };
	w->tasks.ntasks++;
	copy_comm(t->comm, comm);
	t->match = (uint8_t)wk_task_matches(w, t);
	w->sel.any_match |= t->match;
	return t;
oom:
	w->oom = 1;
	return NULL;
}

__attribute__((noinline)) void wk_rename_task(struct wk *w, struct wk_task *t, const char *comm)
{
	copy_comm(t->comm, comm);
	t->match = (uint8_t)wk_task_matches(w, t);
	w->sel.any_match |= t->match;
}

__attribute__((noinline)) struct wk_cpu *wk_new_cpu(struct wk *w, int32_t cpu)
{
	struct wk_cpu *c;

	if ((size_t)cpu >= w->ncpus) {
		size_t n = (size_t)cpu + 1;
		struct wk_cpu **a = realloc(w->cpus, n * sizeof(*a));

		if (!a)
			return NULL;
		memset(a + w->ncpus, 0, (n - w->ncpus) * sizeof(*a));
		w->cpus = a;
		w->ncpus = n;
	}
	if (w->cpus[cpu])
		return w->cpus[cpu];
	c = lat_arena_alloc(&w->arena, sizeof(*c));
	if (!c || wk_hcpu_init(&c->h, cpu, w->ring_cap, &w->arena) ||
	    wk_history_add_cpu(&w->h, &c->h, &w->arena) || wk_stats_cpu_init(&w->stats, &c->stats, cpu) ||
	    wk_health_cpu_init(&w->health, &c->health, cpu) ||
	    wk_stall_cpu_init(&w->stalls, &c->stall, cpu, &c->health.r))
		return NULL;
	w->cpus[cpu] = c;
	return c;
}
