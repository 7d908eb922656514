// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The wakeup analysis' entry (docs/wakeup.md): the options into the core and
 * its consumers, the events run through the core (wakeup_core.c), then each
 * consumer's part of the result and the findings.
 */
#include <stdlib.h>
#include <string.h>

#include "wakeup_state.h"
#include "wakeup_verdict.h"

/* --task, --policy, --min-prio into @w->sel; bad values are findings. */
static void setup_selection(struct wk *w, struct lat_block *b, const struct lat_analyze_opts *o,
			    struct lat_wakeup_result *r)
{
	w->sel.filter_pid = -1;
	if (o->task && o->task[0]) {
		char *end;
		long v = strtol(o->task, &end, 10);

		if (!*end && v >= 0 && v <= INT32_MAX)
			w->sel.filter_pid = (int32_t)v;
		else
			w->sel.filter_comm = o->task;
	}
	if (o->policy && lat_sched_policy_parse(o->policy, &w->sel.filter_pol))
		lat_block_add_finding(b, "bad-option", LAT_SEV_WARN,
				      "unknown policy '%s' (rt, fair or dl): every class kept",
				      o->policy);
	if (o->min_prio > 0 && o->min_prio < 100)
		w->sel.min_prio = o->min_prio;
	r->selecting = w->sel.filter_pid >= 0 || w->sel.filter_comm || w->sel.filter_pol ||
		       w->sel.min_prio;
	w->sel.classing = w->sel.filter_pol || w->sel.min_prio;
}

/* The options into @w and its consumers; the ring size for @src's CPUs. */
static int wk_setup(struct wk *w, struct lat_block *b, const struct lat_analyze_opts *o,
		    const struct lat_event_source *src, struct lat_wakeup_result *r)
{
	w->o = o;
	w->r = r;
	/* as many slices per CPU as WK_RING_BYTES allows, within [WK_RING_MIN, WK_RING_MAX] */
	w->ring_cap = WK_RING_MAX;
	while (w->ring_cap > WK_RING_MIN &&
	       w->ring_cap * sizeof(struct wk_slice) * (size_t)(src->ncpus > 0 ? src->ncpus : 8) >
	       WK_RING_BYTES)
		w->ring_cap /= 2;
	/* what the rings let go of, merged, for timelines of waits longer than they reach */
	w->h.coarse_cap = o->timelines > 0 ? wk_coarse_cap(src->ncpus) : 0;
	setup_selection(w, b, o, r);
	w->wake_tent = o->wake_start == LAT_WAKE_START_WAKEUP;
	w->include_untrusted = o->include_untrusted != 0;
	if (o->sort && lat_wake_sort_parse(o->sort, &(enum lat_wake_sort){ 0 }))
		lat_block_add_finding(b, "bad-option", LAT_SEV_WARN,
				      "unknown sort key '%s': sorted by max", o->sort);
	w->chain.oom = &w->oom;
	wk_stats_init(&w->stats, r, &w->arena, &w->oom, w->sel.classing);
	w->sums = (struct wk_sums){ r, o->threshold_ns > 0 ? o->threshold_ns : INT64_MAX };
	wk_gate_init(&w->gate, r, o->fail_above_ns);
	w->inv = (struct wk_inversions){ r, &w->h };
	wk_sink_init(&w->sink, o->sink);
	wk_stacks_init(&w->stacks, r, o->top_n, &w->oom);
	wk_stalls_init(&w->stalls, r, &w->arena,
		       src->env && src->env->hz != LAT_ENV_UNKNOWN ? src->env->hz : 0, &w->oom);
	wk_steal_init(&w->steal, src->env, &w->oom);
	wk_health_init(&w->health, r, &w->arena);
	w->act = (struct wk_activity){ r, r->activity != NULL, &w->oom };
	wk_timers_init(&w->tmr, r, &w->arena, &w->oom, &w->h);
	wk_mslices_init(&w->ms, r, &w->oom);
	w->stalls.tmr = &w->tmr;
	/* the task table is never empty: no lookup tests for it */
	if (wk_tasks_grow(w))
		return -LAT_ENOMEM;
	return wk_cases_init(&w->cases, o, &w->h, &w->chain, &w->stacks, &w->oom);
}

/* At the end of the events: the waits still held finished, the current slices out, flushed. */
static void wk_finish(struct wk *w, struct lat_wakeup_result *r)
{
	for (size_t i = 0; i < w->ncpus; i++)
		if (w->cpus[i])
			wk_cases_event(&w->cases, &w->cpus[i]->cases, &w->cpus[i]->h);
	for (size_t i = 0; i < w->ncpus; i++)
		if (w->cpus[i])
			wk_cur_slice_out(w, w->cpus[i], (int32_t)i, r->last_ns,
					 LAT_SLICE_TRACE_END);
	wk_cases_close_all(&w->cases, r->last_ns);
	wk_stats_flush(&w->stats);
}

/* The result's tables: every consumer's part. */
static int wk_results(struct wk *w, const struct lat_event_source *src)
{
	const struct wk_task *t;
	int ret;

	if ((ret = wk_stats_rows_begin(&w->stats, w->tasks.ntasks)))
		return ret;
	for (size_t i = 0; i < w->tasks.tcap; i++) {
		struct wk_task_view v;

		if (!(t = w->tasks.slots[i].t))
			continue;
		v = (struct wk_task_view){ t->pid, t->prio, t->policy, t->comm, t->match, t->sel };
		wk_stats_task_row(&w->stats, &v, &t->stats);
	}
	if ((ret = wk_stats_finish(&w->stats, src, w->o->sort)) ||
	    (ret = wk_cases_take(&w->cases, w->r)) || (ret = wk_health_finish(&w->health)) ||
	    (ret = wk_timers_finish(&w->tmr)))
		return ret;
	for (size_t i = 0; i < w->r->nworst; i++) {
		struct lat_wake_case *c = &w->r->worst[i];

		wk_verdict_env(&c->verdict, src->env);
		t = wk_find_task(w, c->pid);
		c->outranked_unselected = t && t->unsel_rank >= wk_rank_ns(c);
	}
	wk_stalls_finish(&w->stalls);
	wk_steal_finish(&w->steal, w->r);
	wk_mslices_finish(&w->ms);
	return wk_stacks_finish(&w->stacks);
}

static int any_switch(const struct wk *w)
{
	for (size_t i = 0; i < w->ncpus; i++)
		if (w->cpus[i] && w->cpus[i]->switched)
			return 1;
	return 0;
}

/* Why nothing shows: no task matched --task, or none of them passed the class filters. */
static void select_findings(struct lat_block *b, const struct wk *w,
			    const struct lat_analyze_opts *o, const struct lat_wakeup_result *r)
{
	if (r->selecting && w->sel.any_match && !r->selected)
		lat_block_add_finding(b, "no-such-task", LAT_SEV_WARN,
				      "no wait of a task that matched --task passed --policy / "
				      "--min-prio: nothing to show");
	if ((w->sel.filter_pid >= 0 || w->sel.filter_comm) && !w->sel.any_match)
		lat_block_add_finding(b, "no-such-task", LAT_SEV_WARN,
				      "no task in the trace has the %s '%s' (--task): nothing to show",
				      w->sel.filter_pid >= 0 ? "pid" : "comm", o->task);
	if (!r->nevents)
		lat_block_add_finding(b, "empty", LAT_SEV_WARN, "the trace holds no events");
	else if (!any_switch(w))
		lat_block_add_finding(b, "no-switches", LAT_SEV_INFO,
				      "none of the %llu events is a sched_switch: no wait can be "
				      "measured (waits need sched_switch and sched_waking or "
				      "sched_wakeup; Android's atrace records them with its 'sched' "
				      "category)", (unsigned long long)r->nevents);
}

static void wk_release(struct wk *w)
{
	/* CPUs, tasks and their histogram rows live in the arena */
	wk_chain_release(&w->chain);
	free(w->cpus);
	free(w->tasks.slots);
	wk_stats_release(&w->stats);
	wk_cases_free(&w->cases);
	wk_stacks_free(&w->stacks);
	wk_steal_release(&w->steal);
	wk_timers_release(&w->tmr);
	wk_mslices_finish(&w->ms);
	lat_arena_release(&w->arena);
}

/* The events analyzed, the reading's end, the consumers' results, the findings. */
static int wk_after(struct wk *w, struct lat_block *b, int ret, uint64_t taken)
{
	struct lat_event_source *src = b->events;
	struct lat_wakeup_result *r = w->r;

	/* the events analyzed: all but those handle() skipped */
	r->nevents = taken - r->skipped_events - r->backwards;
	if (ret < 0) {
		lat_block_add_finding(b, "read-error", r->nevents ? LAT_SEV_WARN : LAT_SEV_HIGH,
				      "reading the events failed after %llu events: %s",
				      (unsigned long long)r->nevents, lat_strerror(ret));
		if (!r->nevents)
			return ret;
	}
	if (src->stop_reason)
		r->stop_reason = strdup(src->stop_reason);
	if (src->skip_reason)
		r->skip_reason = strdup(src->skip_reason);
	wk_finish(w, r);
	ret = w->oom ? -LAT_ENOMEM : wk_results(w, src);
	if (ret)
		return ret;
	wk_add_findings(b, w->o, r);
	select_findings(b, w, w->o, r);
	return 0;
}

int wk_analyze(struct lat_block *b, const struct lat_analyze_opts *o, int with_probe)
{
	struct lat_event_source *src = b->events;
	struct wk w = { 0 };
	struct lat_wakeup_result *r;
	uint64_t taken = 0;
	int ret;

	if (!src)
		return -LAT_EEMPTY;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -LAT_ENOMEM;
	b->analysis = r;
	r->start = o->wake_start;
	if (o->activity && !(r->activity = calloc(1, sizeof(*r->activity))))
		return -LAT_ENOMEM;
	ret = wk_setup(&w, b, o, src, r);
	if (!ret && with_probe && !(w.pr = pr_probe_new(o, wk_probe_view, &w)))
		ret = -LAT_ENOMEM;
	if (!ret) {
		ret = wk_run(&w, src, &taken);
		ret = w.oom ? -LAT_ENOMEM : wk_after(&w, b, ret, taken);
	}
	if (w.pr) {
		/* the samples seen are kept even when the wakeup analysis failed */
		int pret = pr_probe_finish(b, w.pr, &w.pseen);

		if (!ret)
			ret = pret;
		pr_probe_free(w.pr);
	}
	wk_release(&w);
	return ret;
}

void wk_result_free(void *p)
{
	struct lat_wakeup_result *r = p;

	if (!r)
		return;
	free(r->tasks);
	free(r->cpus);
	free(r->hists);
	free(r->health);
	wk_act_free(r->activity);
	for (size_t i = 0; i < r->nworst; i++)
		lat_timeline_free(r->worst[i].tl);
	free(r->worst);
	free(r->gaps);
	free(r->stalls);
	for (size_t i = 0; i < r->nstacks; i++) {
		free(r->stacks[i].folded);
		free(r->stacks[i].top);
	}
	free(r->stacks);
	free(r->off_stacks);
	free(r->off_funcs);
	free(r->run_stacks);
	free(r->run_funcs);
	free(r->stop_reason);
	free(r->skip_reason);
	lat_timer_result_free(r->timers);
	for (size_t i = 0; i < r->nmslices; i++)
		free(r->mslices[i].name);
	free(r->mslices);
	free(r);
}
