// SPDX-License-Identifier: GPL-2.0-or-later
/* The chain consumer (wakeup_chain.h): the nodes' mapping, and chains read back. */
#include "latscope/arena.h"
#include "wakeup_chain.h"

int wk_chain_map(struct wk_chain *ch)
{
	ch->nodes = lat_bigmap(WK_NODES * sizeof(*ch->nodes), &ch->map, &ch->maplen);
	if (ch->nodes)
		return 0;
	*ch->oom = 1;
	return -1;
}

void wk_node_link(const struct wk_node *nd, struct lat_wake_link *l)
{
	l->pid = nd->pid;
	l->cpu = nd->cpu;
	memcpy(l->comm, nd->comm, LAT_COMM_LEN);
	l->kind = (enum lat_wait_kind)nd->kind;
	l->start_ns = nd->start_ns;
	l->end_ns = nd->end_ns;
	l->latency_ns = (int64_t)(nd->end_ns - nd->start_ns);
	l->waker = nd->waker;
	l->held_by_pid = WK_HELD_LAZY;
	l->held_by_comm[0] = 0;
	l->held_ns = 0;
	l->held_unknown = 0;
	l->preempted = nd->preempted;
}

void wk_chain_copy(const struct wk_chain *ch, uint64_t ref, struct lat_wake_case *c)
{
	c->nchain = 0;
	while (ref && c->nchain < LAT_WAKE_CHAIN_MAX) {
		const struct wk_node *nd = &ch->nodes[ref & (WK_NODES - 1)];

		if (nd->seq != ref) {
			c->chain_cut = 1;	/* WK_NODES waits ended since: the ring moved on */
			return;
		}
		wk_node_link(nd, &c->chain[c->nchain++]);
		ref = nd->parent;
	}
}

void wk_chain_release(struct wk_chain *ch)
{
	lat_bigmap_free(ch->map, ch->maplen);
	ch->nodes = NULL;
	ch->map = NULL;
}
