// SPDX-License-Identifier: GPL-2.0-or-later
/* Trace health (wakeup_health.h): when a CPU's events are incomplete, and the result. */
#include <stdlib.h>
#include <string.h>

#include "wakeup_health.h"

void wk_health_init(struct wk_health *hl, struct lat_wakeup_result *r, struct lat_arena *arena)
{
	hl->r = r;
	hl->arena = arena;
}

int wk_health_cpu_init(struct wk_health *hl, struct wk_health_cpu *p, int32_t cpu)
{
	if (!hl->cpus && !(hl->cpus = lat_arena_alloc(hl->arena, WK_MAX_CPUS * sizeof(*hl->cpus))))
		return -LAT_ENOMEM;
	p->r.cpu = cpu;
	hl->cpus[cpu] = p;
	if ((size_t)cpu >= hl->ncpus)
		hl->ncpus = (size_t)cpu + 1;
	return 0;
}

/*
 * After a break at @ts: incomplete when most exits from idle went unrecorded
 * (at least WK_HEALTH_IDLE_BREAKS), or when the breaks are at least
 * WK_HEALTH_BREAKS and a tenth of the switches.
 */
void wk_health_judge(struct wk_health_cpu *p, uint64_t ts)
{
	struct lat_wake_health *h = &p->r;

	if (h->idle_exits_unrecorded >= WK_HEALTH_IDLE_BREAKS &&
	    h->idle_exits_unrecorded > h->out_of_idle)
		h->incomplete = LAT_HEALTH_IDLE_EXITS;
	else if (h->breaks >= WK_HEALTH_BREAKS && h->breaks * 10 >= h->switches)
		h->incomplete = LAT_HEALTH_BREAKS;
	else
		return;
	h->incomplete_since_ns = ts;
}

int wk_health_finish(struct wk_health *hl)
{
	struct lat_wakeup_result *r = hl->r;

	if (!hl->ncpus)
		return 0;
	r->health = calloc(hl->ncpus, sizeof(*r->health));
	if (!r->health)
		return -LAT_ENOMEM;
	for (size_t i = 0; i < hl->ncpus; i++)
		if (hl->cpus[i])
			r->health[r->nhealth++] = hl->cpus[i]->r;
	return 0;
}
