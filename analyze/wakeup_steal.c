// SPDX-License-Identifier: GPL-2.0-or-later
/* The steal consumer (wakeup_steal.h): steal windows from the markers, and their sums. */
#include <stdlib.h>

#include "wakeup_steal.h"

void wk_steal_init(struct wk_steal *st, const struct lat_trace_env *env, int *oom)
{
	st->oom = oom;
	for (size_t i = 0; i < WK_STEAL_CPUS; i++)
		st->last[i] = LAT_ENV_UNKNOWN;
	if (!env || !env->present)
		return;
	st->sampled = env->steal_samples != LAT_ENV_UNKNOWN && env->steal_samples > 0;
	for (int i = 0; i < env->ncpus && i < WK_STEAL_CPUS; i++)
		if (env->cpus[i].start.cpu >= 0)
			st->last[i] = env->cpus[i].start.steal_ns;
}

void wk_steal_marker(struct wk_steal *st, const struct lat_steal *s, uint64_t ts)
{
	int64_t prev;
	struct wk_steal_win *w;

	st->sampled = 1;
	if (s->cpu < 0 || s->cpu >= WK_STEAL_CPUS || s->steal_ns == LAT_ENV_UNKNOWN)
		return;
	prev = st->last[s->cpu];
	st->last[s->cpu] = s->steal_ns;
	if (prev == LAT_ENV_UNKNOWN || s->steal_ns <= prev)
		return;
	if (st->nwin == WK_STEAL_WINDOWS) {
		st->dropped++;
		return;
	}
	if (!st->win && !(st->win = malloc(WK_STEAL_WINDOWS * sizeof(*st->win)))) {
		*st->oom = 1;
		return;
	}
	w = &st->win[st->nwin++];
	w->to = ts;
	w->from = s->since_ns != LAT_ENV_UNKNOWN && s->since_ns > 0 && (uint64_t)s->since_ns <= ts ?
		  ts - (uint64_t)s->since_ns : ts;
	w->cpu = s->cpu;
	w->ns = s->steal_ns - prev;
}

int64_t wk_steal_in(const struct wk_steal *st, int32_t cpu, uint64_t a, uint64_t b)
{
	int64_t per[WK_STEAL_CPUS] = { 0 }, most = 0;

	if (!st->sampled)
		return -1;
	for (size_t i = 0; i < st->nwin; i++) {
		const struct wk_steal_win *w = &st->win[i];

		if (w->to < a || w->from > b || (cpu >= 0 && w->cpu != cpu))
			continue;
		per[w->cpu] += w->ns;
		if (per[w->cpu] > most)
			most = per[w->cpu];
	}
	return most;
}

void wk_steal_finish(const struct wk_steal *st, struct lat_wakeup_result *r)
{
	for (size_t i = 0; i < r->nstalls; i++)
		r->stalls[i].steal_ns = wk_steal_in(st, r->stalls[i].cpu, r->stalls[i].from_ns,
						    r->stalls[i].to_ns);
	for (size_t i = 0; i < r->nworst; i++) {
		struct lat_wake_case *c = &r->worst[i];

		c->steal_ns = wk_steal_in(st, c->cpu, c->start_ns, c->end_ns);
		for (size_t k = 0; k < c->nstalls; k++)
			c->stalls[k].steal_ns = wk_steal_in(st, c->stalls[k].cpu, c->stalls[k].from_ns,
							    c->stalls[k].to_ns);
	}
}

void wk_steal_release(struct wk_steal *st)
{
	free(st->win);
	st->win = NULL;
}
