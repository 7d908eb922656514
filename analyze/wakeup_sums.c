// SPDX-License-Identifier: GPL-2.0-or-later
/* The verdict sums consumer (wakeup_sums.h): a judged wait's parts, to the verdict engine. */
#include "wakeup_sums.h"
#include "wakeup_verdict.h"

/* Real-time time on @cp above and at prio @p, into @hi, @same (@p a real-time prio). */
static void cum_rt_split(const struct wk_sums_cpu *cp, int32_t p, uint64_t *hi, uint64_t *same)
{
	uint64_t h = 0;

	for (int32_t q = 0; q < p; q++)
		h += cp->cum_rt[q];
	*hi = h;
	*same = cp->cum_rt[p];
}

void wk_sums_snap_rt(struct wk_sums_task *tp, const struct wk_sums_cpu *cp,
		     const struct wk_hcpu *hc, int32_t prio, uint64_t part)
{
	enum wk_cum_kind part_kind = cum_kind(hc->cur_pid, hc->cur_prio);

	cum_rt_split(cp, prio, &tp->snap_rt_hi, &tp->snap_rt_same);
	if (part_kind == WK_CUM_RT && hc->cur_prio < prio)
		tp->snap_rt_hi += part;
	else if (part_kind == WK_CUM_RT && hc->cur_prio == prio)
		tp->snap_rt_same += part;
}

void wk_sums_unknown(struct wk_sums_cpu *cp, const struct wk_history *h, int32_t cpu,
		     int32_t pid, int32_t prio, uint64_t from, uint64_t to)
{
	uint64_t ns = to - from;

	if (h->nstall)
		ns -= (uint64_t)wk_stall_overlap(h, cpu, from, to);	/* no one's already */
	if (!ns)
		return;
	wk_sums_slice(cp, pid, prio, -ns);
	cp->cum.v[WK_CUM_UNK] += ns;
	cp->late[cp->lhead] = (struct wk_sums_late){ .at = to, .to = to, .ns = ns, .from = from,
						     .pid = pid, .prio = prio, .unk = 1 };
	cp->lhead = (uint8_t)((cp->lhead + 1) % WK_SUMS_LATE);
	if (cp->nlate < WK_SUMS_LATE)
		cp->nlate++;
}

/*
 * Time taken late off a class after @tp's snapshot that the snapshot never
 * had: a late stall that ended before it; the part before it of an unknown
 * stretch it fell inside (the snapshot gave that part to the class).  Given
 * back (to @d, and to the real-time time above and at @prio: @rh, @rs).
 */
static void late_undo(const struct wk_sums_task *tp, const struct wk_sums_cpu *cp, int32_t prio,
		      uint64_t d[WK_CUM_N], uint64_t *rh, uint64_t *rs)
{
	/*
	 * Newest first: they were charged in time order (at), so the first one charged
	 * before the snapshot ends the walk.  A CPU whose switches go missing keeps the
	 * ring full; most waits look at one entry.
	 */
	for (size_t n = 0; n < cp->nlate; n++) {
		const struct wk_sums_late *l = &cp->late[(cp->lhead + WK_SUMS_LATE - 1 - n) %
							 WK_SUMS_LATE];
		enum wk_cum_kind k;
		uint64_t ns = l->ns;

		if (l->at <= tp->snap.ts)
			break;	/* charged before the snapshot, as the older ones */

		if (l->unk) {
			if (!(l->from < tp->snap.ts && tp->snap.ts < l->at))
				continue;
			if (tp->snap.ts - l->from < ns)
				ns = tp->snap.ts - l->from;
			d[WK_CUM_UNK] -= ns;
		} else {
			if (!(l->to <= tp->snap.ts && tp->snap.ts < l->at))
				continue;
			d[WK_CUM_STALL] -= ns;
		}
		if (l->pid < 0)
			continue;
		k = cum_kind(l->pid, l->prio);
		d[k] += ns;
		if (k == WK_CUM_RT && l->prio < prio)
			*rh += ns;
		else if (k == WK_CUM_RT && l->prio == prio)
			*rs += ns;
	}
}

/* The parts of wait @e from the sums since @tp's snapshot (which is of this CPU). */
static void sums_parts(const struct wk_sums_task *tp, const struct wk_sums_cpu *cp,
		       const struct wk_end *e, struct wk_parts *p)
{
	uint64_t d[WK_CUM_N], rh_fix = 0, rs_fix = 0;
	int64_t span = (int64_t)(e->end_ns - tp->snap.ts), covered, dl, rt, fair, unk;
	enum lat_sched_policy wp = wk_policy_of(e->prio);	/* inline: once per judged wait */

	/* unrolled (GCC 12 at -O2 keeps the loop): once per judged wait, 31k on the bench trace */
#pragma GCC unroll 8
	for (int i = 0; i < WK_CUM_N; i++)
		d[i] = cp->cum.v[i] - tp->snap.s.v[i];	/* the running part before it is in snap */
	d[WK_CUM_IRQ] += wk_sums_irq_open_ns(cp, e->end_ns);
	late_undo(tp, cp, e->prio, d, &rh_fix, &rs_fix);
	p->idle_ns = (int64_t)d[WK_CUM_IDLE];
	dl = (int64_t)d[WK_CUM_DL];
	rt = (int64_t)d[WK_CUM_RT];
	fair = (int64_t)d[WK_CUM_FAIR];
	unk = (int64_t)d[WK_CUM_UNK];	/* tasks of no known class: no claim of priority */
	p->stall_ns = (int64_t)d[WK_CUM_STALL];
	p->irq_ns = (int64_t)d[WK_CUM_IRQ];
	if (wp == LAT_POL_RT) {
		uint64_t rh, rs;

		cum_rt_split(cp, e->prio, &rh, &rs);
		rh += rh_fix;
		rs += rs_fix;
		p->higher_ns = dl + (int64_t)(rh - tp->snap_rt_hi);
		p->same_ns = (int64_t)(rs - tp->snap_rt_same);
		p->lower_ns = rt - (int64_t)(rh - tp->snap_rt_hi) -
			      (int64_t)(rs - tp->snap_rt_same) + fair;
	} else if (wp == LAT_POL_FAIR) {
		p->higher_ns = dl + rt;
		p->same_ns = fair;
	} else if (wp == LAT_POL_DEADLINE) {
		p->same_ns = dl;
		p->lower_ns = rt + fair;
	} else {
		unk += dl + rt + fair;
	}
	covered = p->idle_ns + p->higher_ns + p->same_ns + p->lower_ns + unk + p->stall_ns;
	p->unknown_ns = unk + (span > covered ? span - covered : 0);
	p->queued_ns = (int64_t)tp->queued_ns;
	p->queued_busy = tp->queued_busy;
}

void wk_sums_verdict(const struct wk_sums_task *tp, const struct wk_sums_cpu *cp,
		     const struct wk_hcpu *hc, struct wk_end *e)
{
	struct wk_parts p = { .lat_ns = e->lat_ns };
	struct wk_judgement j;

	if (e->inferred && e->end_ns > e->end_low_ns)
		p.unsure_ns = (int64_t)(e->end_ns - e->end_low_ns);
	if (tp->snap_cpu != hc->id || e->end_ns < tp->snap.ts)
		p.no_evidence = 1;	/* moved unseen: the sums are another CPU's */
	else
		sums_parts(tp, cp, e, &p);
	/* a task that ran with no recorded switch-in inside it, as the case would see it */
	if (hc->ulen) {
		struct wk_unseen u;

		wk_history_unseen_recent(hc, e->pid, e->start_ns, e->end_ns, &u);
		if (u.pid > 0)
			p.unseen_ns = u.ns;
	}
	wk_judge(&p, &j);
	e->verdict = (int)j.kind;
	e->vbasis = j.basis;
	e->evidence = (struct lat_verdict_evidence){
		.basis = j.basis, .part_ns = j.part_ns, .same_ns = p.same_ns,
		.higher_ns = p.higher_ns, .lower_ns = p.lower_ns, .irq_ns = p.irq_ns,
		.stall_ns = p.stall_ns, .idle_ns = p.idle_ns, .unknown_ns = p.unknown_ns,
		.queued_ns = p.queued_ns };
}

void wk_sums_judge(struct wk_sums *s, const struct wk_sums_task *tp, const struct wk_sums_cpu *cp,
		   const struct wk_hcpu *hc, struct wk_end *e)
{
	wk_sums_verdict(tp, cp, hc, e);
	s->r->verdicts_above[e->verdict]++;
	s->r->above++;
}
