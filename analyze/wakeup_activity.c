// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CPU activity over the whole trace (wakeup_activity.h): intervals added into
 * per-CPU time bins that double in width when the trace outgrows them.
 */
#include <stdlib.h>
#include <string.h>

#include "wakeup_activity.h"

/* Halves the resolution: bin k takes bins 2k and 2k + 1. */
static void act_merge(struct lat_wake_activity *a)
{
	for (size_t c = 0; c < a->ncpus; c++) {
		struct lat_act_cpu *p = &a->cpu[c];

		for (size_t k = 0; k < LAT_ACT_BINS / 2; k++) {
			p->busy[k] = p->busy[2 * k] + p->busy[2 * k + 1];
			p->irq[k] = p->irq[2 * k] + p->irq[2 * k + 1];
			p->rq_area[k] = p->rq_area[2 * k] + p->rq_area[2 * k + 1];
		}
		memset(p->busy + LAT_ACT_BINS / 2, 0, LAT_ACT_BINS / 2 * sizeof(p->busy[0]));
		memset(p->irq + LAT_ACT_BINS / 2, 0, LAT_ACT_BINS / 2 * sizeof(p->irq[0]));
		memset(p->rq_area + LAT_ACT_BINS / 2, 0,
		       LAT_ACT_BINS / 2 * sizeof(p->rq_area[0]));
	}
	a->bin_ns *= 2;
	a->nbins = (a->nbins + 1) / 2;
}

static struct lat_act_cpu *act_cpu(struct wk_activity *w, int32_t cpu)
{
	struct lat_wake_activity *a = w->r->activity;

	if (cpu < 0 || cpu >= 4096)
		return NULL;
	if ((size_t)cpu >= a->ncpus) {
		size_t n = (size_t)cpu + 1;
		struct lat_act_cpu *p = realloc(a->cpu, n * sizeof(*p));

		if (!p) {
			*w->oom = 1;
			return NULL;
		}
		memset(p + a->ncpus, 0, (n - a->ncpus) * sizeof(*p));
		a->cpu = p;
		a->ncpus = n;
	}
	a->cpu[cpu].seen = 1;
	return &a->cpu[cpu];
}

/* @ov ns of @what (times @weight for the run queue) into bin @k of @p. */
static inline void act_bump(struct lat_act_cpu *p, enum wk_act_what what, uint64_t k, uint64_t ov,
			    uint64_t weight)
{
	switch (what) {
	case WK_ACT_BUSY:
		p->busy[k] += (int64_t)ov;
		break;
	case WK_ACT_IRQ:
		p->irq[k] += (int64_t)ov;
		break;
	case WK_ACT_RQ:
		p->rq_area[k] += ov * weight;
		break;
	}
}

void wk_act_add(struct wk_activity *w, int32_t cpu, enum wk_act_what what, uint64_t from,
		uint64_t to, uint64_t weight)
{
	struct lat_wake_activity *a = w->r->activity;
	struct lat_act_cpu *p;
	uint64_t k0, k1;
	unsigned int sh;

	if (!a || to <= from || !weight || !(p = act_cpu(w, cpu)))
		return;
	if (!a->bin_ns) {
		a->bin_ns = 1024;
		a->t0_ns = w->r->first_ns;
	}
	if (from < a->t0_ns)
		from = a->t0_ns;
	if (to <= from)
		return;
	/*
	 * Bins are 1024 ns doubled, a power of two: a shift, not a division (three
	 * divisions a call were most of the cost of a call per slice).
	 */
	sh = (unsigned int)__builtin_ctzll(a->bin_ns);
	while ((to - 1 - a->t0_ns) >> sh >= LAT_ACT_BINS) {
		act_merge(a);
		sh++;
	}
	k0 = (from - a->t0_ns) >> sh;
	k1 = (to - 1 - a->t0_ns) >> sh;
	if (k0 == k1) {
		/* the common case: a slice inside one bin */
		act_bump(p, what, k0, to - from, weight);
	} else {
		for (uint64_t k = k0; k <= k1; k++) {
			uint64_t b0 = a->t0_ns + (k << sh), b1 = b0 + a->bin_ns;

			act_bump(p, what, k, (to < b1 ? to : b1) - (from > b0 ? from : b0), weight);
		}
	}
	if (k1 + 1 > a->nbins)
		a->nbins = (size_t)k1 + 1;
}

void wk_act_free(struct lat_wake_activity *a)
{
	if (a)
		free(a->cpu);
	free(a);
}
