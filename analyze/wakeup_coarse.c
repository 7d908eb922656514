// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A CPU's slices merged once its ring lets go of them (wakeup_coarse.h): a
 * ring of spans per level, each level's spans twice as long as the one's
 * below, so memory grows with the log of the trace's length.
 */
#include <string.h>

#include "wakeup_coarse.h"

uint32_t wk_coarse_cap(int ncpus)
{
	uint32_t cap = WK_COARSE_MAX;

	while (cap > WK_COARSE_MIN &&
	       (size_t)cap * sizeof(struct wk_coarse) * 24 * (size_t)(ncpus > 0 ? ncpus : 8) >
	       WK_COARSE_BYTES)
		cap /= 2;
	return cap;
}

struct wk_coarse_cpu *wk_coarse_new(struct lat_arena *arena, uint32_t cap)
{
	struct wk_coarse_cpu *cc = lat_arena_alloc(arena, sizeof(*cc));

	if (cc) {
		cc->arena = arena;
		cc->cap = cap;
	}
	return cc;
}

/* @s into @d, which ends no later than @s starts (or about). */
static void merge(struct wk_coarse *d, const struct wk_coarse *s)
{
	if (s->end > d->end)
		d->end = s->end;
	d->busy_ns += s->busy_ns;
	d->n += s->n;
	if (s->pid > 0 && s->pid == d->pid) {
		d->top_ns += s->top_ns;
	} else if (s->top_ns > d->top_ns) {
		d->pid = s->pid;
		d->prio = s->prio;
		d->top_ns = s->top_ns;
		memcpy(d->comm, s->comm, LAT_COMM_LEN);
	}
}

/*
 * @x into the levels: merged into level i's newest span while the two fit in
 * its span length, else appended; a full level's oldest span is carried up.
 */
static void push(struct wk_coarse_cpu *cc, struct wk_coarse x)
{
	uint32_t mask = cc->cap - 1;

	for (uint32_t i = 0; i < WK_COARSE_LEVELS; i++) {
		struct wk_coarse_level *l = &cc->lv[i];
		uint64_t res = (uint64_t)WK_COARSE_RES0_NS << i;
		struct wk_coarse *last, out;

		if (!l->e) {
			l->e = lat_arena_alloc(cc->arena, cc->cap * sizeof(*l->e));
			if (!l->e)
				break;
			cc->nlevels = i + 1;
		}
		if (l->len) {
			last = &l->e[(l->head + l->len - 1) & mask];
			if (x.end >= last->start && x.end - last->start <= res) {
				merge(last, &x);
				return;
			}
		}
		if (l->len < cc->cap) {
			l->e[(l->head + l->len++) & mask] = x;
			return;
		}
		/* full: the oldest's slot takes @x, the oldest goes up a level */
		out = l->e[l->head];
		l->e[l->head] = x;
		l->head = (l->head + 1) & mask;
		x = out;
	}
	/* past the top level, or no memory for a level: what it held is gone */
	if (x.end > cc->lost_to)
		cc->lost_to = x.end;
}

void wk_coarse_add(struct wk_coarse_cpu *cc, const struct wk_slice *s)
{
	struct wk_coarse x = { .start = s->start, .end = s->end, .n = 1, .pid = s->pid,
			       .prio = s->prio };
	uint64_t ns = s->end > s->start ? s->end - s->start : 0;

	if (s->pid > 0) {
		x.busy_ns = x.top_ns = ns;
		memcpy(x.comm, s->comm, LAT_COMM_LEN);
	} else {
		x.pid = 0;
	}
	cc->nslices++;
	push(cc, x);
}
