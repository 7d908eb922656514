// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The wakeup analysis' core: the events that are not a switch or a waking
 * (wakeup_state.h).  Irq, softirq and hrtimer handlers (who ran a waking, and
 * their time), markers, lost events, kernel stacks, fork/exec and
 * sched_setscheduler(); the stalls found before an event, handed to the
 * history, the sums and the sink; and the probe samples' view of a marker.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wakeup_state.h"

/* The handler's name into @buf (@len bytes, NUL-padded); no printf: one per irq entry. */
static void irq_name(const struct lat_event *ev, int soft, char *buf, size_t len)
{
	static const char *const vec[] = { "HI", "TIMER", "NET_TX", "NET_RX", "BLOCK",
					   "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU" };
	const char *s = ev->u.irq.name;

	if ((!s || !s[0]) && soft && ev->u.irq.irq >= 0 &&
	    (size_t)ev->u.irq.irq < LAT_ARRAY_SIZE(vec))
		s = vec[ev->u.irq.irq];
	if (s && s[0]) {
		strncpy(buf, s, len - 1);
		buf[len - 1] = 0;
	} else {
		snprintf(buf, len, "%s%d", soft ? "softirq" : "irq", ev->u.irq.irq);
	}
}

/* A handler ran on @c from @o's entry to @end: the history, the sums, and (@act) the activity. */
static void irq_ended(struct wk *w, struct wk_cpu *c, const struct wk_open_irq *o, int soft,
		      uint64_t end, int act)
{
	struct wk_irq q = { .start = o->start, .end = end, .irq = o->irq, .soft = (uint8_t)soft };

	memcpy(q.name, o->name, sizeof(q.name));
	wk_history_irq(&c->h, &q);
	if (act)
		wk_act_irq(&w->act, c->h.id, q.start, q.end);
	wk_sums_irq(&c->sums, soft, q.end - q.start);
	wk_sink_irq(&w->sink, c->h.id, soft, q.irq, q.name, q.start, q.end);
}

void wk_on_irq(struct wk *w, struct wk_cpu *c, int32_t cpu, const struct lat_event *ev)
{
	int soft = ev->type == LAT_EV_SOFTIRQ_ENTRY || ev->type == LAT_EV_SOFTIRQ_EXIT;
	struct wk_open_irq *o = soft ? &c->soft : &c->hard;

	(void)cpu;
	if (ev->type == LAT_EV_IRQ_ENTRY && w->pr) {
		w->pseen.irq = 1;
		wk_probe_irq_entry(&c->pr, ev->ts_ns, ev->u.irq.name);
	}
	if (ev->type == LAT_EV_IRQ_ENTRY || ev->type == LAT_EV_SOFTIRQ_ENTRY) {
		o->open = 1;
		o->start = ev->ts_ns;
		o->irq = ev->u.irq.irq;
		irq_name(ev, soft, o->name, sizeof(o->name));
		wk_sums_irq_entry(&c->sums, soft, ev->ts_ns);
		return;
	}
	if (!o->open)
		return;
	o->open = 0;
	irq_ended(w, c, o, soft, ev->ts_ns, 1);
}

/*
 * An hrtimer callback: open from its entry to its exit, it names a waking
 * inside it.  Its expiry is the probe samples' (a task's sleep ends in
 * hrtimer_wakeup; the tick and other callbacks are not it).
 */
void wk_on_timer(struct wk *w, struct wk_cpu *c, const struct lat_event *ev)
{
	if (ev->type == LAT_EV_TIMER_EXIT) {
		c->timer.open = 0;
		return;
	}
	if (w->pr) {
		w->pseen.expire = 1;
		if (!ev->u.irq.name || !ev->u.irq.name[0] ||
		    !strncmp(ev->u.irq.name, "hrtimer_wakeup", 14))
			c->pr.expire_ts = ev->ts_ns;
	}
	wk_stall_tick(&c->stall, &c->h, ev->pid);
	c->timer.open = 1;
	c->timer.start = ev->ts_ns;
	c->timer.irq = -1;
	memset(c->timer.name, 0, sizeof(c->timer.name));
	if (ev->u.irq.name && ev->u.irq.name[0])
		strncpy(c->timer.name, ev->u.irq.name, sizeof(c->timer.name) - 1);
	else
		memcpy(c->timer.name, "hrtimer", sizeof("hrtimer"));
}

/*
 * x86's irq_vectors:* events (local_timer, reschedule, call_function, irq_work,
 * ...: the vectors that are no irq_handler_entry) as hard irqs named by their
 * vector: "irq_vectors:local_timer_entry" opens "local_timer", its _exit closes
 * it.  A waking inside one is then credited to it by name.
 */
static void on_vector(struct wk *w, struct wk_cpu *c, const struct lat_event *ev)
{
	const char *n = ev->name + 12;
	size_t l = strlen(n);

	if (l > 6 && !memcmp(n + l - 6, "_entry", 6)) {
		l -= 6;
		if (l >= sizeof(c->hard.name))
			l = sizeof(c->hard.name) - 1;
		c->hard.open = 1;
		c->hard.start = ev->ts_ns;
		wk_sums_irq_entry(&c->sums, 0, ev->ts_ns);
		wk_timer_vector(&c->tmr, c->seen ? c->last_ts : 0, ev->ts_ns);
		c->hard.irq = -1;
		memset(c->hard.name, 0, sizeof(c->hard.name));
		memcpy(c->hard.name, n, l);
	} else if (l > 5 && !memcmp(n + l - 5, "_exit", 5) && c->hard.open) {
		c->hard.open = 0;
		irq_ended(w, c, &c->hard, 0, ev->ts_ns, 0);
	}
}

static int name_is(const struct lat_event *ev, const char *event)
{
	const char *n = ev->name, *c;

	if (!n)
		return 0;
	c = strchr(n, ':');
	return !strcmp(c ? c + 1 : n, event);
}

/* An event the analysis does not interpret: x86's irq vectors; the probe's timer points. */
void wk_on_other(struct wk *w, struct wk_cpu *c, const struct lat_event *ev)
{
	if (ev->name && !strncmp(ev->name, "irq_vectors:", 12))
		on_vector(w, c, ev);
	if (!w->pr)
		return;
	if (name_is(ev, "hrtimer_expire_entry")) {
		w->pseen.expire = 1;
		c->pr.expire_ts = ev->ts_ns;
	} else if (name_is(ev, "local_timer_entry")) {
		w->pseen.local_timer = 1;
		wk_probe_irq_entry(&c->pr, ev->ts_ns, "local_timer");
	}
}

/* latscope's "probe=timer cpu=1 lat_ns=73210" and cyclictest's "hit latency threshold (X > Y)" */
static int64_t marker_latency(const char *s, size_t len)
{
	char buf[128];
	const char *p;

	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, s, len);
	buf[len] = 0;
	p = strstr(buf, "lat_ns=");
	if (p && isdigit((unsigned char)p[7]))
		return strtoll(p + 7, NULL, 10);
	p = strstr(buf, "hit latency threshold (");
	if (p && isdigit((unsigned char)p[23]))
		return strtoll(p + 23, NULL, 10) * LAT_NS_PER_US;
	return -1;
}

/* The task on CPU @c at @ts (its pid, prio; -1 not known). */
static void ran_at(const struct wk_hcpu *c, uint64_t ts, int32_t *pid, int32_t *prio)
{
	*pid = *prio = -1;
	if (c->cur_known && c->cur_start <= ts) {
		*pid = c->cur_pid;
		*prio = c->cur_prio;
		return;
	}
	for (size_t i = c->rlen; i > 0; i--) {
		const struct wk_slice *sl = wk_ring_at(c, i - 1);

		if (sl->start <= ts && ts < sl->end) {
			*pid = sl->pid;	/* WK_PID_UNKNOWN: not known */
			*prio = sl->pid == WK_PID_UNKNOWN ? -1 : sl->prio;
			return;
		}
		if (sl->end <= ts)
			return;
	}
}

/*
 * A marker of a sample of @lat_ns (a probe's, cyclictest's): a silence it
 * measured across is a stall, charged to no one as the others are (a wait
 * judged between the silence's end and this marker keeps it as its task's).
 */
static void on_probe_due(struct wk *w, int32_t cpu, const struct lat_event *ev, int64_t lat_ns)
{
	struct lat_wake_stall s;
	int32_t prio;

	if (!wk_stall_probe(&w->stalls, cpu, ev->ts_ns, lat_ns, ev->pid, ev->comm, &s, &prio))
		return;
	wk_history_stall(&w->h, &s);
	for (size_t i = 0; i < w->ncpus; i++) {
		struct wk_cpu *c = w->cpus[i];
		int32_t pid = s.pid;

		if (!c || (s.cpu >= 0 && (size_t)s.cpu != i))
			continue;
		if (s.cpu < 0)
			ran_at(&c->h, s.from_ns, &pid, &prio);
		wk_sums_stall_late(&c->sums, pid, prio, s.to_ns - s.from_ns, s.to_ns, ev->ts_ns);
	}
	wk_sink_stall(&w->sink, &s);
}

void wk_on_marker(struct wk *w, int32_t cpu, const struct lat_event *ev)
{
	size_t len = ev->u.marker.text ? ev->u.marker.len : 0;
	struct lat_wake_marker *m;
	struct wk_task *t;
	int timer = 1;

	m = wk_history_mark(&w->h, &w->arena, w->o->timelines > 0 ? WK_MARK_RING_TL : WK_MARK_RING);
	if (!m) {
		w->oom = 1;
		return;
	}
	m->ts_ns = ev->ts_ns;
	m->cpu = cpu;
	m->pid = ev->pid;
	if (len >= sizeof(m->text))
		len = sizeof(m->text) - 1;
	if (len)
		memcpy(m->text, ev->u.marker.text, len);
	m->text[len] = 0;
	m->lat_ns = len ? marker_latency(ev->u.marker.text, ev->u.marker.len) : -1;
	wk_sink_marker(&w->sink, ev, m->lat_ns);
	/*
	 * A timer sample (latscope's or cyclictest's) was due at its expiry; a
	 * gap sample is a fair busy loop kept off its CPU, which a hog does too.
	 */
	if (m->lat_ns < 0 || strstr(m->text, "probe=gap "))
		timer = 0;
	/* a sample's marker, or a timer probe thread's start: before its first sample's wait */
	if ((timer || strstr(m->text, "latscope: probe-start=timer ")) && ev->pid > 0 &&
	    (t = wk_find_task(w, ev->pid)))
		t->pr.marked = 1;	/* its next waits are judged for their samples */
	if (timer && m->lat_ns >= LAT_WAKE_STALL_NS)
		on_probe_due(w, cpu, ev, m->lat_ns);
	if (ev->u.marker.steal)
		wk_steal_marker(&w->steal, ev->u.marker.steal, ev->ts_ns);
	if (ev->u.marker.text)
		wk_mslices_marker(&w->ms, ev->pid, ev->ts_ns, ev->u.marker.text,
				  ev->u.marker.len);
	if (w->pr)
		pr_probe_marker(w->pr, ev);
}

void wk_on_lost(struct wk *w, struct wk_cpu *c, int32_t cpu, const struct lat_event *ev)
{
	struct lat_wakeup_result *r = w->r;
	struct lat_wake_gap g = { .cpu = cpu, .from_ns = c->seen ? c->last_ts : r->first_ns,
				  .to_ns = ev->ts_ns, .count = ev->u.lost.count };

	if (r->ngaps < LAT_WAKE_GAPS_MAX) {
		if (!r->gaps && !(r->gaps = calloc(LAT_WAKE_GAPS_MAX, sizeof(*r->gaps)))) {
			w->oom = 1;
			return;
		}
		r->gaps[r->ngaps++] = g;
	}
	/* the recent ones again, for the timelines built later */
	wk_history_gap(&w->h, &g);
	r->ngaps_total++;
	wk_stats_lost(&c->stats, ev->u.lost.count);
	wk_health_lost(&c->health, ev->u.lost.count);
	/* the task ran at least until the last event seen before the gap */
	wk_cur_slice_out(w, c, cpu, g.from_ns > c->h.cur_start ? g.from_ns : c->h.cur_start,
			 LAT_SLICE_LOST);
	wk_sink_lost(&w->sink, &g);
	/* every wait pending now spans the gap: it is counted as untrusted when it ends */
	w->h.ngaps++;
	c->h.cur_known = 0;
	wk_probe_lost(&c->pr, ev->ts_ns);
	c->hard.open = 0;
	c->soft.open = 0;
	c->timer.open = 0;
	wk_sums_lost(&c->sums);
	wk_stall_clear(&w->stalls, &c->stall);
}

void wk_on_stack(struct wk *w, struct wk_cpu *c, const struct lat_event *ev)
{
	int32_t id;
	struct wk_task *t;

	wk_stacks_seen(&w->stacks);
	if (c->stack_kind == WK_STK_NONE || !ev->u.stack.ips || !ev->u.stack.depth)
		return;
	id = wk_stack_intern(&w->stacks, ev->u.stack.ips, ev->u.stack.syms, ev->u.stack.depth);
	if (id < 0)
		goto out;
	t = c->stack_pid > 0 ? wk_find_task(w, c->stack_pid) : NULL;
	if (c->stack_kind == WK_STK_SWITCH) {
		if (c->h.rlen) {
			struct wk_slice *s = wk_ring_last(&c->h);

			if (s->pid == c->stack_pid)
				s->stack = id;
		}
		if (t && t->off)
			t->off_stack = id;
	} else if (t) {
		if (t->pending)
			t->waker.stack = id;
		if (t->has_tent)
			t->tent.stack = id;
	}
out:
	c->stack_kind = WK_STK_NONE;
}

/*
 * The prio a task of @prio has after sched_setscheduler(@policy): a change of
 * class is seen at once, a real-time priority only at its next event
 * (LAT_PRIO_RT_UNKNOWN until then); a fair task's nice is kept (0 when it
 * comes from real-time: the nice is not in the events either).
 */
static int32_t setsched_prio(int32_t prio, int32_t policy)
{
	enum lat_sched_policy was = wk_policy_of(prio);

	if (policy == 1 || policy == 2)
		return LAT_PRIO_RT_UNKNOWN;
	if (policy == 6)
		return -1;
	return was == LAT_POL_FAIR ? prio : 120;	/* OTHER, BATCH, IDLE */
}

/*
 * Task @x's policy changed at @ts while it ran on a CPU: what that CPU runs
 * is of the new class from here (a SCHED_FIFO hog that raised itself no
 * longer owes the tick a switch to the fair tasks queued behind it).  The run
 * is not cut: its slice takes the prio of its switch out, when recorded.
 */
static void setsched_running(struct wk *w, struct wk_task *x, int32_t policy)
{
	struct wk_cpu *c = x->on_cpu >= 0 && (size_t)x->on_cpu < w->ncpus ? w->cpus[x->on_cpu] :
									       NULL;
	int32_t prio;

	if (!c || !c->h.cur_known || c->h.cur_pid != x->pid)
		return;
	prio = setsched_prio(c->h.cur_prio, policy);
	if (prio == c->h.cur_prio)
		return;
	c->h.cur_prio = prio;
	x->prio = prio;
	wk_stall_clear(&w->stalls, &c->stall);	/* a switch owed to the old class */
}

/*
 * sched_setscheduler() as the syscall events show it (docs/wakeup.md,
 * "Scheduling classes"): the policy asked at the entry (pid 0: the caller)
 * is the target's once the exit returns 0.  The priority is behind a user
 * pointer: it still comes from the prio of the sched_* events, and is not
 * known (LAT_PRIO_RT_UNKNOWN) for a running task made real-time until then.
 */
static void on_setsched(struct wk *w, const struct lat_event *ev)
{
	struct wk_task *t = ev->pid > 0 ? wk_get_task(w, ev->pid, ev->comm) : NULL, *x;

	if (!t)
		return;
	if (ev->type == LAT_EV_SETSCHED) {
		t->ss_pending = 1;
		t->ss_target = ev->u.setsched.pid > 0 ? ev->u.setsched.pid : ev->pid;
		t->ss_policy = ev->u.setsched.policy & ~0x40000000;	/* SCHED_RESET_ON_FORK */
		return;
	}
	if (!t->ss_pending)
		return;
	t->ss_pending = 0;
	if (ev->u.setsched.ret != 0 || t->ss_policy < 0 || t->ss_policy > 6)
		return;
	x = t->ss_target == t->pid ? t : wk_find_task(w, t->ss_target);
	if (!x)
		x = wk_get_task(w, t->ss_target, "");
	if (x) {
		x->policy = t->ss_policy;
		w->r->setscheds++;
		setsched_running(w, x, t->ss_policy);
	}
}

void wk_on_task(struct wk *w, const struct lat_event *ev)
{
	if (ev->type == LAT_EV_SETSCHED || ev->type == LAT_EV_SETSCHED_EXIT)
		on_setsched(w, ev);
	else if (ev->type == LAT_EV_FORK && ev->u.task.child_pid > 0)
		wk_get_task(w, ev->u.task.child_pid, ev->u.task.child_comm);
	else if (ev->type == LAT_EV_EXEC && ev->u.task.pid > 0)
		wk_get_task(w, ev->u.task.pid, ev->u.task.comm);
}

/* A stall: the history keeps it, the sums charge it to no one, the sink gets it. */
static void on_stall(struct wk *w, const struct lat_wake_stall *s)
{
	wk_history_stall(&w->h, s);
	for (size_t i = 0; i < w->ncpus; i++) {
		struct wk_cpu *c = w->cpus[i];

		if (c && (s->cpu < 0 || (size_t)s->cpu == i))
			wk_sums_stall(&c->sums, &c->h, s->from_ns, s->to_ns);
	}
	wk_sink_stall(&w->sink, s);
}

void wk_check_stall(struct wk *w, struct wk_cpu *c, const struct lat_event *ev)
{
	struct wk_stall_ctx x = { .last_ts = c->last_ts, .seen = c->seen,
				  .trusted = wk_health_ok(&c->health),
				  .last_ns = w->r->last_ns, .open_pid = w->health.open_pid,
				  .open_comm = w->health.open_comm };
	struct lat_wake_stall s[2];
	int n;

	/* a waking whose sched_wakeup is due: only where the trace pairs them */
	if (w->health.paired)
		x.open_ts = w->health.open_ts;
	n = wk_stall_check(&w->stalls, &c->stall, &c->h, &x, ev, s);

	for (int i = 0; i < n; i++)
		on_stall(w, &s[i]);
}

/* The run-queue holder: who ran longest on @c in [@from, @to], not @pid. */
static void probe_holder(const struct wk_hcpu *c, int32_t pid, uint64_t from, uint64_t to,
			 struct pr_view *v)
{
	for (size_t i = c->rlen; i > 0; i--) {
		const struct wk_slice *sl = wk_ring_at(c, i - 1);
		uint64_t a = sl->start > from ? sl->start : from, b = sl->end < to ? sl->end : to;

		if (sl->end <= from)
			break;
		if (b <= a || sl->pid == pid || sl->pid == WK_PID_UNKNOWN ||
		    (int64_t)(b - a) <= v->holder_ns)
			continue;
		v->holder_ns = (int64_t)(b - a);
		v->holder_pid = sl->pid;
		memcpy(v->holder_comm, sl->comm, LAT_COMM_LEN);
	}
}

void wk_probe_view(void *ctx, const struct lat_event *ev, struct pr_view *v)
{
	const struct wk *w = ctx;
	const struct wk_cpu *c = ev->cpu >= 0 && (size_t)ev->cpu < w->ncpus ? w->cpus[ev->cpu] :
				 NULL;
	const struct wk_task *t = ev->pid > 0 ? wk_find_task(w, ev->pid) : NULL;

	v->holder_pid = -1;
	v->prio = c && c->h.cur_known && c->h.cur_pid == ev->pid ? c->h.cur_prio : LAT_PRIO_UNKNOWN;
	v->spans = wk_history_spans;
	v->stall_ns = wk_history_stall_ns;
	v->spans_src = &w->h;
	if (!c || !c->h.cur_known || !c->cur_switched || c->h.cur_pid != ev->pid ||
	    c->h.cur_start > ev->ts_ns)
		return;
	v->switch_ts = c->h.cur_start;
	if (!t || !t->pr.ts || t->pr.cpu != ev->cpu || t->pr.ts > v->switch_ts ||
	    t->pr.ts < c->pr.lost_ts)
		return;
	v->waking_ts = t->pr.ts;
	if (t->pr.verdict >= 0 && t->pr.v_end == v->switch_ts) {
		v->verdict = t->pr.verdict;
		v->verdict_part_ns = t->pr.v_part;
	}
	v->irq_ts = t->pr.irq_ts;
	v->expire_ts = t->pr.expire_ts;
	if (v->irq_ts && (size_t)t->pr.wcpu < w->ncpus && w->cpus[t->pr.wcpu]) {
		const struct wk_cpu *wc = w->cpus[t->pr.wcpu];

		for (size_t i = 0; i < WK_PR_IRQS; i++)
			if (wc->pr.irq[i].ts == v->irq_ts)
				memcpy(v->irq_name, wc->pr.irq[i].name, sizeof(v->irq_name));
	}
	probe_holder(&c->h, ev->pid, v->waking_ts, v->switch_ts, v);
}
