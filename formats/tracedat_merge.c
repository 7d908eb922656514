// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The CPUs' merge on (timestamp, cpu) (tracedat_merge.h).
 *
 * The compares are written without branches: which of two CPUs' heads is the
 * earlier is as good as random, and a mispredicted branch a level costs more
 * than the few instructions more.  The reader alone on an 80-CPU trace took
 * 0.70 of the CPU time of the page walk's old heap so; re-placing the top
 * bottom-up instead, as Floyd's heapsort does, 0.76, and 0.77 with branches:
 * there a CPU that passed the limit lands halfway down, not at the leaves.
 * An end mark after the last node, later than any head, spares the bound
 * check of a lone child.
 */
#include <limits.h>
#include <stddef.h>

#include "tracedat_merge.h"

/* Without branches: which of two heads is earlier is as good as random. */
static inline int less(const struct td_mnode *a, const struct td_mnode *b)
{
	return (a->ts < b->ts) | ((a->ts == b->ts) & (a->cpu < b->cpu));
}

/* After the last node, one later than any head: a lone last child needs no bound check. */
static inline void end_mark(struct td_merge *m)
{
	m->h[m->n].ts = UINT64_MAX;
	m->h[m->n].cpu = INT32_MAX;
	m->h[m->n].slot = -1;
}

/* The limit is @x's head; the end mark's is none (UINT64_MAX, INT32_MAX). */
static inline void set_limit(struct td_merge *m, const struct td_mnode *x)
{
	m->lim_ts = x->ts;
	m->lim_cpu = x->cpu;
}

void td_merge_push(struct td_merge *m, uint64_t ts, int32_t cpu, int32_t slot)
{
	struct td_mnode x = { ts, cpu, slot };
	int i = m->n++;

	while (i && less(&x, &m->h[(i - 1) / 2])) {
		m->h[i] = m->h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	m->h[i] = x;
	end_mark(m);
}

void td_merge_limit(struct td_merge *m)
{
	const struct td_mnode *h = m->h;

	/* the earliest after the top is one of its two children, the end mark when it is alone */
	if (m->n < 2) {
		end_mark(m);
		set_limit(m, &h[m->n]);
	} else
		set_limit(m, &h[1 + less(&h[2], &h[1])]);
}

/*
 * The hole left at @i moves down along the earlier child while that one is
 * before @x, then takes @x; @n nodes, the end mark after them.
 */
static inline void sift_down(struct td_mnode *h, size_t n, size_t i, struct td_mnode x)
{
	for (size_t l = 2 * i + 1; l < n; l = 2 * i + 1) {
		size_t c = l + (size_t)less(&h[l + 1], &h[l]);

		if (!less(&h[c], &x))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = x;
}

/*
 * The limit comes out of the sift's first level: the top's child that stays
 * in place is one candidate, the node that moved into the other child's place
 * (or @x itself) the other.  A separate step that read both children again
 * after the sift cost 61M of 2201M instructions of analyze on an 80-CPU trace
 * (bench/README-tracedat.md, "Many CPUs: the limit in the sift, the workers'
 * groups").
 */
void td_merge_sift(struct td_merge *m, int live)
{
	struct td_mnode *h = m->h, x = h[0];
	size_t n, c;

	if (!live && --m->n)
		x = h[m->n];
	n = (size_t)m->n;
	if (n < 2) {
		/* the top alone, or none: nothing comes after it */
		if (n)
			h[0] = x;
		end_mark(m);
		set_limit(m, &h[n]);
		return;
	}
	/* written first: a dropped top's replacement came from here, h[n] is read as a child */
	end_mark(m);
	c = 1 + (size_t)less(&h[2], &h[1]);
	if (!less(&h[c], &x)) {
		/* @x stays on top: only a dropped top's replacement that was its child can */
		h[0] = x;
		set_limit(m, &h[c]);
		return;
	}
	h[0] = h[c];
	sift_down(h, n, c, x);
	/*
	 * The other child, c ^ 3, is in the other subtree: the sift left it alone.  An
	 * index, not a ?: (which the compiler makes a branch, as good as random).
	 */
	c ^= 3 & -(size_t)less(&h[c ^ 3], &h[c]);
	set_limit(m, &h[c]);
}
