// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The gap probe's model (probe_gap.h; docs/probe.md, "The gap probe's samples").
 * The probe thread busy-loops on clock reads: a gap is a time it did not run,
 * so its parts are what its CPU did in the window [marker - lat, marker], as
 * the wakeup analysis' history has it (slices, handlers, stalls, lost events).
 * One sweep over the spans' ends gives each instant to the first that holds:
 * unknown, stall, irq, another task, the thread itself; the parts then add up
 * to the window, the sample, exactly.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probe_gap.h"

/* What covers an instant, by precedence: the higher wins. */
enum { PC_OWN, PC_TASK, PC_IRQ, PC_STALL, PC_UNKNOWN, PC_N };

struct pr_span {
	uint64_t a, b;			/* clipped to the window */
	int32_t pid;
	int cls;
	char name[24];
};

struct pr_point {
	uint64_t ts;
	size_t span;			/* SIZE_MAX: an end of the window */
	int open;
};

struct pr_named {
	int32_t pid;			/* a task's; -1 a handler's, by name */
	char name[24];
	int64_t ns;
};

const char *lat_probe_gpart_name(enum lat_probe_gpart p)
{
	static const char *const n[] = { "irq", "preempted", "stall", "probe-path", "unknown" };

	return (unsigned)p < LAT_ARRAY_SIZE(n) ? n[p] : "?";
}

static void collect(void *arg, const struct pr_hspan *s)
{
	static const int cls[] = { [PR_HSPAN_TASK] = PC_TASK, [PR_HSPAN_IRQ] = PC_IRQ,
				   [PR_HSPAN_STALL] = PC_STALL, [PR_HSPAN_UNKNOWN] = PC_UNKNOWN };
	struct pr_gap *g = arg;
	uint64_t a = s->start > g->from ? s->start : g->from, b = s->end < g->to ? s->end : g->to;
	struct pr_span *p;

	if (b <= a || g->oom || (unsigned)s->kind >= LAT_ARRAY_SIZE(cls))
		return;
	if (lat_grow(&g->sp, &g->spcap, g->nsp + 1, sizeof(*g->sp))) {
		g->oom = 1;
		return;
	}
	p = &g->sp[g->nsp++];
	p->a = a;
	p->b = b;
	p->pid = s->pid;
	p->cls = s->kind == PR_HSPAN_TASK && s->pid == g->pid ? PC_OWN : cls[s->kind];
	strncpy(p->name, s->name ? s->name : "", sizeof(p->name) - 1);
	p->name[sizeof(p->name) - 1] = 0;
}

static int cmp_point(const void *x, const void *y)
{
	const struct pr_point *a = x, *b = y;

	return (a->ts > b->ts) - (a->ts < b->ts);
}

/* @ns more for the task @pid, or the handler @name (pid -1). */
static void credit(struct pr_gap *g, int32_t pid, const char *name, int64_t ns)
{
	struct pr_named *w;

	for (size_t i = 0; i < g->nwho; i++)
		if (g->who[i].pid == pid && (pid >= 0 || !strcmp(g->who[i].name, name))) {
			g->who[i].ns += ns;
			return;
		}
	if (lat_grow(&g->who, &g->whocap, g->nwho + 1, sizeof(*g->who))) {
		g->oom = 1;
		return;
	}
	w = &g->who[g->nwho++];
	w->pid = pid;
	memcpy(w->name, name, sizeof(w->name));
	w->ns = ns;
}

/* The open span of class @cls that opened last (the innermost handler), or SIZE_MAX. */
static size_t innermost(const struct pr_gap *g, size_t nact, int cls)
{
	size_t k = SIZE_MAX;

	for (size_t i = 0; i < nact; i++) {
		const struct pr_span *p = &g->sp[g->act[i]];

		if (p->cls == cls && (k == SIZE_MAX || p->a >= g->sp[k].a))
			k = g->act[i];
	}
	return k;
}

/* [t0, t1): nothing opens or closes inside; @cnt the open spans per class. */
static void interval(struct pr_gap *g, const int *cnt, size_t nact, uint64_t t0, uint64_t t1,
		     uint64_t path_from, struct lat_probe_sample *s)
{
	int64_t ns = (int64_t)(t1 - t0);
	int c = PC_N - 1;
	size_t k;

	while (c >= 0 && !cnt[c])
		c--;
	if (c < 0 || c == PC_UNKNOWN) {
		s->part_ns[LAT_PGAP_UNKNOWN] += ns;	/* no span: who ran is not known */
	} else if (c == PC_STALL) {
		s->part_ns[LAT_PGAP_STALL] += ns;
	} else if (c == PC_IRQ || c == PC_TASK) {
		s->part_ns[c == PC_IRQ ? LAT_PGAP_IRQ : LAT_PGAP_PREEMPTED] += ns;
		k = innermost(g, nact, c);
		if (k != SIZE_MAX)
			credit(g, c == PC_IRQ ? -1 : g->sp[k].pid, g->sp[k].name, ns);
	} else if (t0 >= path_from) {
		s->part_ns[LAT_PGAP_PATH] += ns;
	} else {
		s->part_ns[LAT_PGAP_STALL] += ns;
		s->silent_ns += ns;
	}
}

/* Every instant of the window to its part.  0 or -LAT_ENOMEM. */
static int sweep(struct pr_gap *g, uint64_t path_from, struct lat_probe_sample *s)
{
	size_t n = 0, nact = 0;
	int cnt[PC_N] = { 0 };

	if (lat_grow(&g->pt, &g->ptcap, 2 * g->nsp + 2, sizeof(*g->pt)) ||
	    lat_grow(&g->act, &g->actcap, g->nsp + 1, sizeof(*g->act)))
		return -LAT_ENOMEM;
	g->pt[n++] = (struct pr_point){ g->from, SIZE_MAX, 0 };
	g->pt[n++] = (struct pr_point){ g->to, SIZE_MAX, 0 };
	for (size_t i = 0; i < g->nsp; i++) {
		g->pt[n++] = (struct pr_point){ g->sp[i].a, i, 1 };
		g->pt[n++] = (struct pr_point){ g->sp[i].b, i, 0 };
	}
	qsort(g->pt, n, sizeof(*g->pt), cmp_point);
	for (size_t i = 0; i < n; i++) {
		const struct pr_point *p = &g->pt[i];

		if (p->span != SIZE_MAX && p->open) {
			cnt[g->sp[p->span].cls]++;
			g->act[nact++] = p->span;
		} else if (p->span != SIZE_MAX) {
			cnt[g->sp[p->span].cls]--;
			for (size_t k = 0; k < nact; k++)
				if (g->act[k] == p->span) {
					g->act[k] = g->act[--nact];
					break;
				}
		}
		if (i + 1 < n && g->pt[i + 1].ts > p->ts)
			interval(g, cnt, nact, p->ts, g->pt[i + 1].ts, path_from, s);
	}
	return g->oom ? -LAT_ENOMEM : 0;
}

/* The tasks that ran (the longest is the holder) and the handlers, longest first. */
static void who_ran(const struct pr_gap *g, struct lat_probe_sample *s)
{
	s->holder_pid = -1;
	for (size_t i = 0; i < g->nwho; i++) {
		const struct pr_named *w = &g->who[i];
		int k;

		if (w->pid >= 0) {
			s->ntasks++;
			if (w->ns > s->holder_ns) {
				s->holder_ns = w->ns;
				s->holder_pid = w->pid;
				memcpy(s->holder_comm, w->name, LAT_COMM_LEN);
				s->holder_comm[LAT_COMM_LEN - 1] = 0;
			}
			continue;
		}
		for (k = 0; k < LAT_PROBE_GAP_IRQS && s->irqs[k].name[0] && s->irqs[k].ns >= w->ns;
		     k++)
			;
		if (k == LAT_PROBE_GAP_IRQS)
			continue;
		memmove(&s->irqs[k + 1], &s->irqs[k],
			(size_t)(LAT_PROBE_GAP_IRQS - 1 - k) * sizeof(s->irqs[0]));
		memcpy(s->irqs[k].name, w->name, sizeof(s->irqs[k].name));
		s->irqs[k].ns = w->ns;
	}
}

int pr_gap_decompose(struct pr_gap *g, const struct pr_view *v,
		     const struct lat_event *ev, struct lat_probe_sample *s)
{
	uint64_t path_from = UINT64_MAX;
	int ret;

	s->pt[LAT_PPT_MARKER] = ev->ts_ns;
	s->pt[LAT_PPT_EXPECTED] = ev->ts_ns > (uint64_t)s->lat_ns ? ev->ts_ns - (uint64_t)s->lat_ns : 0;
	for (int i = 0; i < LAT_PSEG_N; i++) {
		s->seg_ns[i] = -1;
		s->seg_to[i] = -1;
	}
	s->dominant = -1;
	g->nsp = g->nwho = 0;
	g->oom = 0;
	g->pid = ev->pid;
	g->from = s->pt[LAT_PPT_EXPECTED];
	g->to = ev->ts_ns;
	if (v->spans)
		v->spans(v->spans_src, ev->cpu, g->from, g->to, collect, g);
	if (g->oom)
		return -LAT_ENOMEM;
	/* the thread's own slice up to the marker, when it began inside: its way back */
	for (size_t i = 0; i < g->nsp; i++)
		if (g->sp[i].cls == PC_OWN && g->sp[i].b == g->to && g->sp[i].a > g->from)
			path_from = g->sp[i].a;
	if ((ret = sweep(g, path_from, s)))
		return ret;
	/* a window cut at the trace's time 0 (hand-made streams) */
	s->part_ns[LAT_PGAP_UNKNOWN] += s->lat_ns - (int64_t)(g->to - g->from);
	who_ran(g, s);
	return 0;
}

/* Shares in per mille that add up to 1000: the largest remainders get the rest. */
static void shares(struct lat_probe_sample *s)
{
	int64_t total = 0, rem[LAT_PGAP_N];
	int left = 1000;

	for (int i = 0; i < LAT_PGAP_N; i++)
		total += s->part_ns[i] > 0 ? s->part_ns[i] : 0;
	for (int i = 0; i < LAT_PGAP_N; i++) {
		int64_t p = s->part_ns[i] > 0 && total > 0 ? s->part_ns[i] : 0;

		s->part_pm[i] = total > 0 ? (uint16_t)(p * 1000 / total) : 0;
		rem[i] = total > 0 ? p * 1000 % total : -1;
		left -= s->part_pm[i];
	}
	while (total > 0 && left-- > 0) {
		int k = 0;

		for (int i = 1; i < LAT_PGAP_N; i++)
			if (rem[i] > rem[k])
				k = i;
		s->part_pm[k]++;
		rem[k] = -1;
	}
}

void pr_gap_finish(struct lat_probe_sample *s, int irqs)
{
	if (!irqs) {
		s->part_ns[LAT_PGAP_STALL] -= s->silent_ns;
		s->part_ns[LAT_PGAP_UNKNOWN] += s->silent_ns;
	}
	shares(s);
	s->part_dominant = -1;
	for (int i = 0; i < LAT_PGAP_N; i++)
		if (s->part_ns[i] > 0 &&
		    (s->part_dominant < 0 || s->part_ns[i] > s->part_ns[s->part_dominant]))
			s->part_dominant = i;
	s->unknown_ns = s->part_ns[LAT_PGAP_UNKNOWN];
}

void pr_gap_free(struct pr_gap *g)
{
	free(g->sp);
	free(g->pt);
	free(g->who);
	free(g->act);
}
