// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The wakeup analysis' history (wakeup_history.h): the rings' memory, and the
 * questions the explanations ask of them.
 */
#include <stdlib.h>
#include <string.h>

#include "analyze_priv.h"
#include "wakeup_history.h"

static int64_t overlap(uint64_t a0, uint64_t a1, uint64_t b0, uint64_t b1)
{
	uint64_t lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;

	return hi > lo ? (int64_t)(hi - lo) : 0;
}

int wk_hcpu_init(struct wk_hcpu *c, int32_t cpu, size_t rcap, struct lat_arena *arena)
{
	c->id = cpu;
	c->cur_pid = -1;
	c->rcap = rcap;
	c->ring = lat_arena_alloc(arena, rcap * sizeof(*c->ring));
	c->irqs = lat_arena_alloc(arena, WK_IRQ_RING * sizeof(*c->irqs));
	c->unseen = lat_arena_alloc(arena, WK_UNSEEN_RING * sizeof(*c->unseen));
	return c->ring && c->irqs && c->unseen ? 0 : -LAT_ENOMEM;
}

int wk_history_add_cpu(struct wk_history *h, struct wk_hcpu *c, struct lat_arena *arena)
{
	if (!h->cpus && !(h->cpus = lat_arena_alloc(arena, WK_MAX_CPUS * sizeof(*h->cpus))))
		return -LAT_ENOMEM;
	if (h->coarse_cap && !(c->coarse = wk_coarse_new(arena, h->coarse_cap)))
		return -LAT_ENOMEM;
	h->cpus[c->id] = c;
	if ((size_t)c->id >= h->ncpus)
		h->ncpus = (size_t)c->id + 1;
	return 0;
}

struct lat_wake_marker *wk_history_mark(struct wk_history *h, struct lat_arena *arena,
					size_t cap)
{
	if (!h->marks) {
		h->mcap = cap;
		h->marks = lat_arena_alloc(arena, h->mcap * sizeof(*h->marks));
		if (!h->marks)
			return NULL;
	}
	return &h->marks[wk_ring_push(&h->mhead, &h->mlen, h->mcap)];
}

struct wk_mig *wk_history_mig(struct wk_history *h, struct lat_arena *arena)
{
	if (!h->migs && !(h->migs = lat_arena_alloc(arena, WK_MIG_RING * sizeof(*h->migs))))
		return NULL;
	return &h->migs[wk_ring_push(&h->mighead, &h->nmig, WK_MIG_RING)];
}

int64_t wk_stall_overlap(const struct wk_history *h, int32_t cpu, uint64_t a, uint64_t b)
{
	uint64_t lo[WK_STALL_RING], hi[WK_STALL_RING], cur0 = 0, cur1 = 0;
	size_t n = 0;
	int64_t ns = 0;

	for (size_t i = 0; i < h->nstall; i++) {
		const struct lat_wake_stall *s = wk_recent_stall(h, i);
		size_t k;

		if ((s->cpu >= 0 && s->cpu != cpu) || !overlap(s->from_ns, s->to_ns, a, b))
			continue;
		/* insertion by start: a handful at most */
		for (k = n; k > 0 && lo[k - 1] > (s->from_ns > a ? s->from_ns : a); k--) {
			lo[k] = lo[k - 1];
			hi[k] = hi[k - 1];
		}
		lo[k] = s->from_ns > a ? s->from_ns : a;
		hi[k] = s->to_ns < b ? s->to_ns : b;
		n++;
	}
	for (size_t i = 0; i < n; i++) {
		if (i && lo[i] <= cur1) {
			if (hi[i] > cur1)
				cur1 = hi[i];
			continue;
		}
		ns += (int64_t)(cur1 - cur0);
		cur0 = lo[i];
		cur1 = hi[i];
	}
	return ns + (int64_t)(cur1 - cur0);
}

int64_t wk_history_stall_ns(const void *src, int32_t cpu, uint64_t from, uint64_t to)
{
	const struct wk_history *h = src;

	return to > from && h->nstall ? wk_stall_overlap(h, cpu, from, to) : 0;
}

void wk_history_unseen(const struct wk_hcpu *c, int32_t pid, uint64_t start, uint64_t end,
		       struct wk_unseen *u)
{
	u->pid = -1;
	u->ns = 0;
	u->comm[0] = 0;
	for (size_t i = c->rlen; i-- > 1;) {
		const struct wk_slice *s = wk_ring_at(c, i), *b = wk_ring_at(c, i - 1);
		int64_t ov;

		if (s->end <= start)
			break;
		if (s->start != s->end || s->pid <= 0 || s->pid == pid || b->end != s->start ||
		    b->pid == s->pid)
			continue;
		ov = overlap(b->start, b->end, start, end);
		if (ov > u->ns) {
			u->ns = ov;
			u->pid = s->pid;
			memcpy(u->comm, s->comm, LAT_COMM_LEN);
		}
	}
}

void wk_history_note_unseen(struct wk_hcpu *c, const struct wk_slice *s)
{
	const struct wk_slice *b = wk_ring_at(c, c->rlen - 2);
	struct wk_unseen_rec *u;

	if (b->end != s->start || b->pid == s->pid)
		return;
	u = &c->unseen[wk_ring_push(&c->uhead, &c->ulen, WK_UNSEEN_RING)];
	u->from = b->start;
	u->to = b->end;
	u->pid = s->pid;
	memcpy(u->comm, s->comm, LAT_COMM_LEN);
}

void wk_history_unseen_recent(const struct wk_hcpu *c, int32_t pid, uint64_t start,
			      uint64_t end, struct wk_unseen *u)
{
	u->pid = -1;
	u->ns = 0;
	u->comm[0] = 0;
	for (size_t i = c->ulen; i-- > 0;) {
		const struct wk_unseen_rec *r = &c->unseen[(c->uhead + i) % WK_UNSEEN_RING];
		int64_t ov;

		if (r->to <= start)
			break;
		if (r->pid == pid)
			continue;
		ov = overlap(r->from, r->to, start, end);
		if (ov > u->ns) {
			u->ns = ov;
			u->pid = r->pid;
			memcpy(u->comm, r->comm, LAT_COMM_LEN);
		}
	}
}

static void span(uint64_t a, uint64_t b, enum pr_hspan_kind kind, int32_t pid,
		 const char *name, pr_hspan_fn fn, void *arg)
{
	struct pr_hspan s = { kind, a, b, pid, name };

	fn(arg, &s);
}

void wk_history_spans(const void *src, int32_t cpu, uint64_t from, uint64_t to,
		      pr_hspan_fn fn, void *arg)
{
	const struct wk_history *h = src;
	const struct wk_hcpu *c = h->cpus && cpu >= 0 && (size_t)cpu < h->ncpus ? h->cpus[cpu] :
				  NULL;

	if (!c)
		return;
	/* the rings are in the order of their ends: newest first, down to the window */
	for (size_t i = c->rlen; i-- > 0;) {
		const struct wk_slice *s = wk_ring_at(c, i);

		if (s->end < from)
			break;
		if (s->start < to && s->end > s->start)
			span(s->start, s->end, s->pid == WK_PID_UNKNOWN ? PR_HSPAN_UNKNOWN :
			     PR_HSPAN_TASK, s->pid, s->comm, fn, arg);
	}
	if (c->cur_known && c->cur_start < to)
		span(c->cur_start, to, PR_HSPAN_TASK, c->cur_pid, c->cur_comm, fn, arg);
	for (size_t i = c->ilen; i-- > 0;) {
		const struct wk_irq *q = wk_irq_at(c, i);

		if (q->end < from)
			break;
		if (q->start < to && q->end > q->start)
			span(q->start, q->end, PR_HSPAN_IRQ, -1, q->name, fn, arg);
	}
	/* a full ring may have dropped irqs that ended before its oldest */
	if (c->ilen == WK_IRQ_RING && wk_irq_at(c, 0)->end > from)
		span(from, wk_irq_at(c, 0)->end, PR_HSPAN_UNKNOWN, -1, "", fn, arg);
	for (size_t i = 0; i < h->nstall; i++) {
		const struct lat_wake_stall *s = wk_recent_stall(h, i);

		if ((s->cpu < 0 || s->cpu == cpu) && overlap(s->from_ns, s->to_ns, from, to))
			span(s->from_ns, s->to_ns, PR_HSPAN_STALL, -1, "", fn, arg);
	}
	for (size_t i = 0; i < h->ngap; i++) {
		const struct lat_wake_gap *g = wk_recent_gap(h, i);

		if (g->cpu == cpu && overlap(g->from_ns, g->to_ns, from, to))
			span(g->from_ns, g->to_ns, PR_HSPAN_UNKNOWN, -1, "", fn, arg);
	}
}
