// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `latscope export --perfetto-proto`, the kernel's events (export_proto.h): each
 * CPU's events collect in its FtraceEventBundle and are written when one kind
 * fills (PP_BUNDLE_N) or at the end, so a CPU's bundles follow one another in
 * time and each holds its events sorted, as Perfetto's ftrace importer wants.
 * sched_switch and sched_waking, most of a trace, go in the bundle's compact
 * form (CompactSched: delta timestamps, comms interned per bundle); wakeups,
 * migrations, irq and softirq handlers, forks and exits as FtraceEvents.
 * Perfetto builds its CPU, thread-state and irq tracks from them.
 */
#include <stdlib.h>
#include <string.h>

#include "export_proto.h"

static struct pp_bundle *bundle_of(struct lat_pfproto *p, int32_t cpu)
{
	if (cpu < 0 || cpu >= 4096)
		return NULL;
	if ((size_t)cpu >= p->ncpus) {
		size_t n = (size_t)cpu + 8;
		struct pp_bundle **b = realloc(p->bundles, n * sizeof(*b));
		struct pp_cpu *c;

		if (!b)
			goto oom;
		p->bundles = b;
		c = realloc(p->cpus, n * sizeof(*c));
		if (!c)
			goto oom;
		p->cpus = c;
		for (size_t i = p->ncpus; i < n; i++) {
			b[i] = NULL;
			c[i] = (struct pp_cpu){ .runq_last = -1, .runq_pend = -1 };
		}
		p->ncpus = n;
	}
	if (!p->bundles[cpu] && !(p->bundles[cpu] = calloc(1, sizeof(struct pp_bundle))))
		goto oom;
	return p->bundles[cpu];
oom:
	p->oom = 1;
	return NULL;
}

/* The index of @comm in the bundle's intern table, added when new. */
static uint32_t intern_comm(struct pp_bundle *b, const char *comm)
{
	uint32_t h = 2166136261u, n = 4 * PP_BUNDLE_N;
	size_t len = strnlen(comm, LAT_COMM_LEN - 1);

	for (size_t i = 0; i < len; i++)
		h = (h ^ (uint8_t)comm[i]) * 16777619u;
	for (h &= n - 1;; h = (h + 1) & (n - 1)) {
		int32_t s = b->comm_slot[h];

		if (!s)
			break;
		if (!strncmp(b->comm[s - 1], comm, LAT_COMM_LEN - 1))
			return (uint32_t)(s - 1);
	}
	memcpy(b->comm[b->ncomm], comm, len);
	b->comm[b->ncomm][len] = 0;
	b->comm_ptr[b->ncomm] = b->comm[b->ncomm];
	b->comm_slot[h] = (int32_t)++b->ncomm;
	return b->ncomm - 1;
}

static void flush(struct lat_pfproto *p, int32_t cpu, struct pp_bundle *b)
{
	Perfetto__Protos__TracePacket pkt = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	Perfetto__Protos__FtraceEventBundle fb = PERFETTO__PROTOS__FTRACE_EVENT_BUNDLE__INIT;
	Perfetto__Protos__FtraceEventBundle__CompactSched cs =
		PERFETTO__PROTOS__FTRACE_EVENT_BUNDLE__COMPACT_SCHED__INIT;

	if (!b->nsw && !b->nwk && !b->nev)
		return;
	fb.has_cpu = 1;
	fb.cpu = (uint32_t)cpu;
	if (b->lost)
		fb.has_lost_events = fb.lost_events = 1;
	fb.n_event = b->nev;
	fb.event = b->ev_ptr;
	if (b->nsw || b->nwk) {
		cs.n_intern_table = b->ncomm;
		cs.intern_table = b->comm_ptr;
		cs.n_switch_timestamp = cs.n_switch_prev_state = cs.n_switch_next_pid =
			cs.n_switch_next_prio = cs.n_switch_next_comm_index = b->nsw;
		cs.switch_timestamp = b->sw_ts;
		cs.switch_prev_state = b->sw_state;
		cs.switch_next_pid = b->sw_pid;
		cs.switch_next_prio = b->sw_prio;
		cs.switch_next_comm_index = b->sw_comm;
		cs.n_waking_timestamp = cs.n_waking_pid = cs.n_waking_target_cpu =
			cs.n_waking_prio = cs.n_waking_comm_index = cs.n_waking_common_flags =
				b->nwk;
		cs.waking_timestamp = b->wk_ts;
		cs.waking_pid = b->wk_pid;
		cs.waking_target_cpu = b->wk_cpu;
		cs.waking_prio = b->wk_prio;
		cs.waking_comm_index = b->wk_comm;
		cs.waking_common_flags = b->wk_flags;
		fb.compact_sched = &cs;
	}
	pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_FTRACE_EVENTS;
	pkt.ftrace_events = &fb;
	pkt.optional_trusted_packet_sequence_id_case =
		PERFETTO__PROTOS__TRACE_PACKET__OPTIONAL_TRUSTED_PACKET_SEQUENCE_ID_TRUSTED_PACKET_SEQUENCE_ID;
	pkt.trusted_packet_sequence_id = 2;	/* the TrackEvents' is 1 */
	pp_write(p, &pkt);
	b->nsw = b->nwk = b->nev = b->ncomm = 0;
	b->sw_last = b->wk_last = 0;
	b->lost = 0;
	memset(b->comm_slot, 0, sizeof(b->comm_slot));
}

void pp_flush_all(struct lat_pfproto *p)
{
	for (size_t c = 0; c < p->ncpus; c++)
		if (p->bundles[c])
			flush(p, (int32_t)c, p->bundles[c]);
}

static void add_switch(struct pp_bundle *b, const struct lat_event *ev)
{
	uint32_t i = b->nsw++;

	b->sw_ts[i] = ev->ts_ns - b->sw_last;
	b->sw_last = ev->ts_ns;
	b->sw_state[i] = ev->u.sw.prev_state_raw;
	b->sw_pid[i] = ev->u.sw.next_pid;
	b->sw_prio[i] = ev->u.sw.next_prio;
	b->sw_comm[i] = intern_comm(b, ev->u.sw.next_comm);
}

static void add_waking(struct pp_bundle *b, const struct lat_event *ev)
{
	uint32_t i = b->nwk++;

	b->wk_ts[i] = ev->ts_ns - b->wk_last;
	b->wk_last = ev->ts_ns;
	b->wk_pid[i] = ev->u.wake.pid;
	b->wk_cpu[i] = ev->u.wake.target_cpu;
	b->wk_prio[i] = ev->u.wake.prio;
	b->wk_comm[i] = intern_comm(b, ev->u.wake.comm);
	b->wk_flags[i] = ev->flags & 0xff;
}

/* A copy of @s (NUL-terminated, cut to the slot) in the event's string slot @k. */
static char *keep(struct pp_bundle *b, uint32_t i, int k, const char *s, size_t max)
{
	size_t n = s ? strnlen(s, max) : 0;

	if (n >= sizeof(b->str[i][k]))
		n = sizeof(b->str[i][k]) - 1;
	if (n)
		memcpy(b->str[i][k], s, n);
	b->str[i][k][n] = 0;
	return b->str[i][k];
}

/* The sub-message of a wakeup (sched_wakeup and _new share the layout). */
static void wakeup_sub(struct pp_bundle *b, uint32_t i, const struct lat_event *ev)
{
	Perfetto__Protos__SchedWakeupFtraceEvent *w = &b->sub[i].wakeup;

	*w = (Perfetto__Protos__SchedWakeupFtraceEvent)
		PERFETTO__PROTOS__SCHED_WAKEUP_FTRACE_EVENT__INIT;
	w->comm = keep(b, i, 0, ev->u.wake.comm, LAT_COMM_LEN);
	w->has_pid = w->has_prio = w->has_success = 1;
	w->pid = ev->u.wake.pid;
	w->prio = ev->u.wake.prio;
	w->success = 1;
	if (ev->u.wake.target_cpu >= 0) {
		w->has_target_cpu = 1;
		w->target_cpu = ev->u.wake.target_cpu;
	}
}

/*
 * Fills the sub-message of event @i for @ev; returns the FtraceEvent's case, or
 * NOT_SET for an event Perfetto is not given.
 */
static Perfetto__Protos__FtraceEvent__EventCase fill_sub(struct pp_bundle *b, uint32_t i,
							 const struct lat_event *ev)
{
	union pp_sub *u = &b->sub[i];

	switch (ev->type) {
	case LAT_EV_WAKEUP:
		wakeup_sub(b, i, ev);
		return PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_WAKEUP;
	case LAT_EV_WAKEUP_NEW:
		/* the same fields, numbers and types (sched.proto): one layout */
		wakeup_sub(b, i, ev);
		u->wakeup.base.descriptor = &perfetto__protos__sched_wakeup_new_ftrace_event__descriptor;
		return PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_WAKEUP_NEW;
	case LAT_EV_MIGRATE:
		u->migrate = (Perfetto__Protos__SchedMigrateTaskFtraceEvent)
			PERFETTO__PROTOS__SCHED_MIGRATE_TASK_FTRACE_EVENT__INIT;
		u->migrate.comm = keep(b, i, 0, ev->u.migrate.comm, LAT_COMM_LEN);
		u->migrate.has_pid = u->migrate.has_prio = 1;
		u->migrate.has_orig_cpu = u->migrate.has_dest_cpu = 1;
		u->migrate.pid = ev->u.migrate.pid;
		u->migrate.prio = ev->u.migrate.prio;
		u->migrate.orig_cpu = ev->u.migrate.orig_cpu;
		u->migrate.dest_cpu = ev->u.migrate.dest_cpu;
		return PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_MIGRATE_TASK;
	case LAT_EV_IRQ_ENTRY:
		u->irq_entry = (Perfetto__Protos__IrqHandlerEntryFtraceEvent)
			PERFETTO__PROTOS__IRQ_HANDLER_ENTRY_FTRACE_EVENT__INIT;
		u->irq_entry.has_irq = 1;
		u->irq_entry.irq = ev->u.irq.irq;
		u->irq_entry.name = keep(b, i, 0, ev->u.irq.name, 64);
		return PERFETTO__PROTOS__FTRACE_EVENT__EVENT_IRQ_HANDLER_ENTRY;
	case LAT_EV_IRQ_EXIT:
		u->irq_exit = (Perfetto__Protos__IrqHandlerExitFtraceEvent)
			PERFETTO__PROTOS__IRQ_HANDLER_EXIT_FTRACE_EVENT__INIT;
		u->irq_exit.has_irq = u->irq_exit.has_ret = 1;
		u->irq_exit.irq = ev->u.irq.irq;
		u->irq_exit.ret = ev->u.irq.ret;
		return PERFETTO__PROTOS__FTRACE_EVENT__EVENT_IRQ_HANDLER_EXIT;
	case LAT_EV_SOFTIRQ_ENTRY:
	case LAT_EV_SOFTIRQ_EXIT:
		/* entry and exit: one field, the vector (irq.proto) */
		u->soft = (Perfetto__Protos__SoftirqEntryFtraceEvent)
			PERFETTO__PROTOS__SOFTIRQ_ENTRY_FTRACE_EVENT__INIT;
		u->soft.has_vec = 1;
		u->soft.vec = (uint32_t)ev->u.irq.irq;
		if (ev->type == LAT_EV_SOFTIRQ_ENTRY)
			return PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SOFTIRQ_ENTRY;
		u->soft.base.descriptor = &perfetto__protos__softirq_exit_ftrace_event__descriptor;
		return PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SOFTIRQ_EXIT;
	case LAT_EV_FORK:
		u->fork = (Perfetto__Protos__SchedProcessForkFtraceEvent)
			PERFETTO__PROTOS__SCHED_PROCESS_FORK_FTRACE_EVENT__INIT;
		u->fork.parent_comm = keep(b, i, 0, ev->u.task.comm, LAT_COMM_LEN);
		u->fork.child_comm = keep(b, i, 1, ev->u.task.child_comm, LAT_COMM_LEN);
		u->fork.has_parent_pid = u->fork.has_child_pid = 1;
		u->fork.parent_pid = ev->u.task.pid;
		u->fork.child_pid = ev->u.task.child_pid;
		return PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_PROCESS_FORK;
	case LAT_EV_EXIT:
		u->exit = (Perfetto__Protos__SchedProcessExitFtraceEvent)
			PERFETTO__PROTOS__SCHED_PROCESS_EXIT_FTRACE_EVENT__INIT;
		u->exit.comm = keep(b, i, 0, ev->u.task.comm, LAT_COMM_LEN);
		u->exit.has_pid = 1;
		u->exit.pid = ev->u.task.pid;
		return PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_PROCESS_EXIT;
	default:
		return PERFETTO__PROTOS__FTRACE_EVENT__EVENT__NOT_SET;
	}
}

static void add_other(struct pp_bundle *b, const struct lat_event *ev)
{
	uint32_t i = b->nev;
	Perfetto__Protos__FtraceEvent *e = &b->ev[i];
	Perfetto__Protos__FtraceEvent__EventCase k = fill_sub(b, i, ev);

	if (k == PERFETTO__PROTOS__FTRACE_EVENT__EVENT__NOT_SET)
		return;
	*e = (Perfetto__Protos__FtraceEvent)PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	e->has_timestamp = 1;
	e->timestamp = ev->ts_ns;
	if (ev->pid >= 0) {
		e->has_pid = 1;
		e->pid = (uint32_t)ev->pid;
	}
	if (ev->flags & LAT_EVF_KNOWN) {
		e->has_common_flags = 1;
		e->common_flags = ev->flags & 0xff;
	}
	e->event_case = k;
	e->sched_wakeup = &b->sub[i].wakeup;	/* every case's pointer is the union's */
	b->ev_ptr[i] = e;
	b->nev++;
}

void pp_event(void *ctx, const struct lat_event *ev)
{
	struct lat_pfproto *p = ctx;
	struct pp_bundle *b;

	if (!pp_in_window(p, ev->ts_ns, ev->ts_ns) || !(b = bundle_of(p, ev->cpu)))
		return;
	if (ev->type == LAT_EV_LOST) {
		/* the events before the gap in their own bundle, the next one says it */
		flush(p, ev->cpu, b);
		b->lost = 1;
		return;
	}
	if (b->nsw == PP_BUNDLE_N || b->nwk == PP_BUNDLE_N || b->nev == PP_BUNDLE_N)
		flush(p, ev->cpu, b);
	p->saw_waking |= ev->type == LAT_EV_WAKING;
	if (ev->type == LAT_EV_SWITCH)
		add_switch(b, ev);
	else if (ev->type == LAT_EV_WAKING)
		add_waking(b, ev);
	else if (ev->type != LAT_EV_WAKEUP || !p->saw_waking)
		add_other(b, ev);
}
