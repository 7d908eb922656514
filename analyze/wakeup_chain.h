/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The chain consumer of the wakeup pipeline (analyze/wakeup_chain.c): every
 * ended wait as a node of the wakeup chains (docs/wakeup.md, "chain").
 *
 * Chains are shared, not copied: a wait's node points at its waker's last
 * ended wait (parent), which stays what it was, so following parents gives
 * the chain as it was at each waking.  Nodes live in a ring of WK_NODES (a
 * mapping of its own, 4 MiB: two huge pages); seq tells whether a slot was
 * reused.  A task's part holds the waker's last wait at its waking
 * (chain_ref) and its own last ended wait (last_ref).
 *
 * Writes (it alone): its nodes and parts; the wait-end record's chain_ref.
 */
#ifndef LATSCOPE_WAKEUP_CHAIN_H
#define LATSCOPE_WAKEUP_CHAIN_H

#include <string.h>

#include "wakeup_rec.h"

#define WK_NODES 32768		/* ended waits remembered for chains (a power of two) */
#define WK_HELD_LAZY (-2)	/* a link's held_by not worked out yet */

/* An ended wait: what a struct lat_wake_link holds that is known at the end (wk_node_link()). */
struct wk_node {
	uint64_t seq, parent;		/* parent: seq of the waker's last wait, 0 none */
	uint64_t start_ns, end_ns;
	int32_t pid, cpu;
	char comm[LAT_COMM_LEN];
	struct lat_wake_waker waker;
	uint8_t kind, preempted;
} __attribute__((aligned(128)));

_Static_assert(sizeof(struct wk_node) == 128, "struct wk_node: two cache lines");

struct wk_chain_task {
	uint64_t chain_ref;		/* the waker's last wait at the waking (a node), 0 none */
	uint64_t last_ref;		/* its own last ended wait (a node), 0 none */
};

struct wk_chain {
	struct wk_node *nodes;		/* WK_NODES, lat_bigmap()ed at the first ended wait */
	void *map;			/* for lat_bigmap_free(): map, maplen */
	size_t maplen;
	uint64_t nseq;			/* seq of the newest node */
	int *oom;
};

/* Wait start: the chain behind it is its task waker's (@waker, NULL none: an irq, itself). */
static inline void wk_chain_start(struct wk_chain_task *cp, const struct wk_chain_task *waker)
{
	cp->chain_ref = waker ? waker->last_ref : 0;
}

int wk_chain_map(struct wk_chain *ch);

/* Wait end: its node, the first link of any chain through its task.  0, or -1 out of memory. */
static inline int wk_chain_end(struct wk_chain *ch, struct wk_chain_task *cp, struct wk_end *e)
{
	struct wk_node *nd;

	if (!ch->nodes && wk_chain_map(ch))
		return -1;
	nd = &ch->nodes[++ch->nseq & (WK_NODES - 1)];
	nd->seq = ch->nseq;
	nd->parent = cp->chain_ref;
	cp->last_ref = ch->nseq;
	nd->start_ns = e->start_ns;
	nd->end_ns = e->end_ns;
	nd->pid = e->pid;
	nd->cpu = e->cpu;
	memcpy(nd->comm, e->comm, LAT_COMM_LEN);
	nd->waker = *e->waker;
	nd->kind = (uint8_t)e->kind;
	nd->preempted = e->preempted;
	e->chain_ref = cp->chain_ref;
	return 0;
}

/* The newest node (the wait that just ended). */
static inline const struct wk_node *wk_chain_last(const struct wk_chain *ch)
{
	return &ch->nodes[ch->nseq & (WK_NODES - 1)];
}

/* The link node @nd packs, its held_by still lazy (WK_HELD_LAZY). */
void wk_node_link(const struct wk_node *nd, struct lat_wake_link *l);
/* The chain from node @ref back into @c, at most LAT_WAKE_CHAIN_MAX links (held_by lazy). */
void wk_chain_copy(const struct wk_chain *ch, uint64_t ref, struct lat_wake_case *c);
void wk_chain_release(struct wk_chain *ch);

#endif
