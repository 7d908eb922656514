// SPDX-License-Identifier: GPL-2.0-or-later
/* The export sink consumer (wakeup_sink.h): records built for lat_analyze_opts.sink. */
#include <string.h>

#include "wakeup_sink.h"

void wk_sink_cur(const struct wk_sink *k, const struct wk_hcpu *hc, int32_t cpu, uint64_t end,
		 enum lat_slice_end why)
{
	struct lat_run_slice s;

	if (!k->slice || !hc->cur_known)
		return;
	s.cpu = cpu;
	s.pid = hc->cur_pid;
	s.prio = hc->cur_prio;
	memcpy(s.comm, hc->cur_comm, LAT_COMM_LEN);
	s.start_ns = hc->cur_start;
	/* it ran elsewhere from cut_ns: the slice here ended by then (wakeup_history.h) */
	if (hc->cut_pid == hc->cur_pid && hc->cut_of == hc->cur_start && hc->cut_ns < end)
		end = hc->cut_ns;
	s.end_ns = end;
	s.start_known = 1;
	s.end = why;
	s.state = LAT_TS_OTHER;
	k->s->slice(k->s->ctx, &s);
}

void wk_sink_switch(const struct wk_sink *k, int32_t cpu, const struct wk_slice *s, int known,
		    enum lat_task_state state)
{
	struct lat_run_slice rs = { .cpu = cpu, .pid = s->pid, .prio = s->prio,
				    .start_ns = s->start, .end_ns = s->end,
				    .start_known = (uint8_t)known, .end = LAT_SLICE_SWITCH,
				    .state = state };

	memcpy(rs.comm, s->comm, LAT_COMM_LEN);
	k->s->slice(k->s->ctx, &rs);
}

void wk_sink_wait(const struct wk_sink *k, const struct wk_end *e, const struct wk_node *nd)
{
	struct lat_wake_link l;
	struct wk_end_detail x;
	struct lat_wait_rec rec = { .w = &l, .prio = e->prio, .trusted = e->trusted,
				    .low_trust = e->low_trust };

	wk_end_detail(e, &x);
	rec.queued_cpu = x.queued_cpu;
	wk_node_link(nd, &l);
	if (e->verdict >= 0) {
		rec.verdict = lat_verdict_name((enum lat_verdict_kind)e->verdict);
		rec.evidence = &e->evidence;
	}
	k->s->wait(k->s->ctx, &rec);
}
