// SPDX-License-Identifier: GPL-2.0-or-later
/* Priority inversions (wakeup_inversion.h): the count and the longest. */
#include <string.h>

#include "wakeup_inversion.h"
#include "wakeup_verdict.h"

void wk_inversion_check(struct wk_inversions *inv, const struct wk_end *e)
{
	struct lat_wake_inversion *v = &inv->r->worst_inversion;
	const struct wk_slice *s = e->prev;

	if (e->kind == LAT_WAIT_PREEMPT || s->pid <= 0 || !e->counted ||
	    wk_rank(e->prio, s->prio) >= 0)
		return;
	if (inv->h->nstall && wk_stall_overlap(inv->h, e->cpu, e->start_ns, e->end_ns) * 2 >=
	    e->lat_ns)
		return;
	if (!inv->r->inversions++ || e->lat_ns > (int64_t)(v->end_ns - v->start_ns)) {
		v->pid = e->pid;
		v->prio = e->prio;
		memcpy(v->comm, e->comm, LAT_COMM_LEN);
		v->holder_pid = s->pid;
		v->holder_prio = s->prio;
		memcpy(v->holder_comm, s->comm, LAT_COMM_LEN);
		v->cpu = e->cpu;
		v->start_ns = e->start_ns;
		v->end_ns = e->end_ns;
	}
}
