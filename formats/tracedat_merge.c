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

	/* the earliest after the top is one of its two children */
	if (m->n < 2) {
		m->lim_ts = UINT64_MAX;
		m->lim_cpu = INT32_MAX;
		return;
	}
	h += 1 + less(&h[2], &h[1]);
	m->lim_ts = h->ts;
	m->lim_cpu = h->cpu;
}

void td_merge_sift(struct td_merge *m, int live)
{
	struct td_mnode *h = m->h, x = h[0];
	size_t n, i = 0;

	if (!live && --m->n)
		x = h[m->n];
	n = (size_t)m->n;
	if (n) {
		/* the hole down along the earlier child while that one is before the node */
		for (size_t l = 1; l < n; l = 2 * i + 1) {
			size_t c = l + (size_t)less(&h[l + 1], &h[l]);

			if (!less(&h[c], &x))
				break;
			h[i] = h[c];
			i = c;
		}
		h[i] = x;
	}
	end_mark(m);
	td_merge_limit(m);
}
