// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `latscope export --perfetto-proto`: Perfetto's own protobuf trace format
 * (export_proto.h).  The kernel's events go out as ftrace events
 * (export_proto_ftrace.c), so that Perfetto draws its CPU and thread-state
 * tracks and its SQL (thread_state, the critical path) works on them; on top,
 * latscope's records as TrackEvents on tracks of its own: each wait a slice on
 * its task's thread track with its verdict and evidence as debug annotations
 * and a flow from a zero-length waking on the waker's track, the stalls as
 * slices on a track per CPU, the run-queue depth as a counter per CPU, markers
 * and lost events as instants.  Every packet is written as it is made (one
 * CPU's bundle and one record at most in memory).  Layout: docs/export.md.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "export_proto.h"

/* Sequence 1: the TrackEvents and descriptors (interned names); 2: the ftrace bundles. */
#define PP_SEQ 1

/* Track uuids: a few fixed ones, then a range per kind of track (no two collide). */
/* small: a uuid is in every event (a varint: below 2^21, 3 bytes; 2^28, 4) */
#define PP_UUID_CPUS 1			/* "latscope CPUs", parent of the CPUs' tracks */
#define PP_UUID_NOPROC 2		/* "Tasks (process not known)" */
#define PP_UUID_ALLSTALL 3		/* stalls of every CPU */
#define PP_UUID_CPU 16			/* + kind << 12 + cpu (cpu < 4096) */
#define PP_UUID_THREAD (1ull << 15)	/* + tid: a task of a known process */
#define PP_UUID_TASK (1ull << 23)	/* + tid: a task of no known process */

/* the run queues first: the most events, the smallest uuids */
enum pp_cpu_track { PP_RUNQ, PP_STALLS, PP_MARKERS, PP_WAKE_IDLE, PP_WAKE_IRQ, PP_WAKE_SOFT };

/* Interned event names: a wait kind's iid is its enum value + 1. */
enum { PP_N_WAKING = 4, PP_N_STALL, PP_N_MARKER, PP_N_SAMPLE, PP_N_LOST, PP_N_END };

/* Interned debug annotation names, iid = index + 1. */
enum pp_key {
	K_CPU, K_QUEUED_CPU, K_PRIO, K_TRUSTED, K_WAKER, K_VERDICT, K_BASIS, K_PART, K_SAME,
	K_HIGHER, K_LOWER, K_IRQ, K_STALL, K_IDLE, K_UNKNOWN, K_QUEUED, K_TID, K_TEXT, K_LAT,
	K_COUNT, K_SINCE, K_UNTIL, K_DUR, K_COMM, K_WAITING_TID, K_WAITING_COMM, K_N
};

static const char *const key_names[K_N] = {
	"cpu", "queued_cpu", "prio", "trusted", "waker", "verdict", "basis", "part_ns",
	"same_ns", "higher_ns", "lower_ns", "irq_ns", "stall_ns", "idle_ns", "unknown_ns",
	"queued_ns", "tid", "text", "lat_ns", "count", "since_ns", "until_ns", "dur_ns", "comm",
	"waiting_tid", "waiting_comm",
};

/* Interned annotation strings: a verdict's iid is its enum value, a basis' PP_S_BASIS + it. */
#define PP_S_BASIS 32
static const char *const basis_names[] = { "parts", "moved", "inferred", "unseen" };

/* ---- packets --------------------------------------------------------------------- */

/* 1 the first time (and sets @flag) */
static int once(uint8_t *flag)
{
	if (*flag)
		return 0;
	*flag = 1;
	return 1;
}

static void on_seq(Perfetto__Protos__TracePacket *pkt)
{
	pkt->optional_trusted_packet_sequence_id_case =
		PERFETTO__PROTOS__TRACE_PACKET__OPTIONAL_TRUSTED_PACKET_SEQUENCE_ID_TRUSTED_PACKET_SEQUENCE_ID;
	pkt->trusted_packet_sequence_id = PP_SEQ;
}

/* The first packet of sequence 1: every name and fixed string the events intern. */
static void write_interned(struct lat_pfproto *p)
{
	Perfetto__Protos__TracePacket pkt = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	Perfetto__Protos__InternedData d = PERFETTO__PROTOS__INTERNED_DATA__INIT;
	Perfetto__Protos__EventName en[PP_N_END - 1], *enp[PP_N_END - 1];
	Perfetto__Protos__DebugAnnotationName an[K_N], *anp[K_N];
	Perfetto__Protos__InternedString is[LAT_VERDICT_N + 4], *isp[LAT_VERDICT_N + 4];
	char kinds[3][32];
	const char *names[PP_N_END - 1] = { kinds[0], kinds[1], kinds[2], "waking", "stall",
					    "marker", "sample", "lost events" };
	size_t ns = 0;

	for (int k = 0; k < 3; k++)
		snprintf(kinds[k], sizeof(kinds[k]), "runnable (%s)",
			 lat_wait_kind_name((enum lat_wait_kind)k));
	for (size_t i = 0; i < PP_N_END - 1; i++) {
		en[i] = (Perfetto__Protos__EventName)PERFETTO__PROTOS__EVENT_NAME__INIT;
		en[i].has_iid = 1;
		en[i].iid = i + 1;
		en[i].name = (char *)names[i];
		enp[i] = &en[i];
	}
	for (size_t i = 0; i < K_N; i++) {
		an[i] = (Perfetto__Protos__DebugAnnotationName)
			PERFETTO__PROTOS__DEBUG_ANNOTATION_NAME__INIT;
		an[i].has_iid = 1;
		an[i].iid = i + 1;
		an[i].name = (char *)key_names[i];
		anp[i] = &an[i];
	}
	for (size_t i = 0; i < LAT_VERDICT_N + 4; i++) {
		const char *s = i < LAT_VERDICT_N ? lat_verdict_name((enum lat_verdict_kind)i) :
						    basis_names[i - LAT_VERDICT_N];

		if (i == LAT_VERDICT_NONE)
			continue;
		is[ns] = (Perfetto__Protos__InternedString)PERFETTO__PROTOS__INTERNED_STRING__INIT;
		is[ns].has_iid = is[ns].has_str = 1;
		is[ns].iid = i < LAT_VERDICT_N ? i : PP_S_BASIS + i - LAT_VERDICT_N;
		is[ns].str.data = (uint8_t *)s;
		is[ns].str.len = strlen(s);
		isp[ns] = &is[ns];
		ns++;
	}
	d.n_event_names = PP_N_END - 1;
	d.event_names = enp;
	d.n_debug_annotation_names = K_N;
	d.debug_annotation_names = anp;
	d.n_debug_annotation_string_values = ns;
	d.debug_annotation_string_values = isp;
	pkt.interned_data = &d;
	pkt.has_sequence_flags = 1;
	pkt.sequence_flags = PERFETTO__PROTOS__TRACE_PACKET__SEQUENCE_FLAGS__SEQ_INCREMENTAL_STATE_CLEARED;
	on_seq(&pkt);
	pp_write(p, &pkt);
}

/* ---- tracks ---------------------------------------------------------------------- */

/* A named track (@counter: a counter track) under @parent (0: top level). */
static void desc_named(struct lat_pfproto *p, uint64_t uuid, uint64_t parent, const char *name,
		       int counter, int32_t rank)
{
	Perfetto__Protos__TracePacket pkt = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	Perfetto__Protos__TrackDescriptor d = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
	Perfetto__Protos__CounterDescriptor c = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__INIT;

	d.has_uuid = 1;
	d.uuid = uuid;
	if (parent) {
		d.has_parent_uuid = 1;
		d.parent_uuid = parent;
	}
	d.static_or_dynamic_name_case =
		PERFETTO__PROTOS__TRACK_DESCRIPTOR__STATIC_OR_DYNAMIC_NAME_NAME;
	d.name = (char *)name;
	if (counter)
		d.counter = &c;
	if (rank >= 0) {
		d.has_sibling_order_rank = 1;
		d.sibling_order_rank = rank;
	}
	if (uuid == PP_UUID_CPUS) {
		d.has_child_ordering = 1;
		d.child_ordering = PERFETTO__PROTOS__TRACK_DESCRIPTOR__CHILD_TRACKS_ORDERING__EXPLICIT;
	}
	pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_DESCRIPTOR;
	pkt.track_descriptor = &d;
	on_seq(&pkt);
	pp_write(p, &pkt);
}

/* Task @pid (its comm noted when given); NULL for the idle task or out of memory. */
static struct lat_pf_task *task_of(struct lat_pfproto *p, int32_t pid, const char *comm)
{
	return pf_task(&p->tt, pid, comm ? comm : "");
}

/*
 * The track of task @t, its descriptor written when first used: the thread's
 * own track (Perfetto puts it with the thread's state) when its process is
 * known, else a track named "COMM TID" under "Tasks (process not known)".
 */
static uint64_t task_track(struct lat_pfproto *p, struct lat_pf_task *t)
{
	Perfetto__Protos__TracePacket pkt = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	Perfetto__Protos__TrackDescriptor d = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
	Perfetto__Protos__ThreadDescriptor th = PERFETTO__PROTOS__THREAD_DESCRIPTOR__INIT;
	char name[48];

	if (t->tgid == PF_TASKS_PID) {
		if (!t->drawn) {
			if (once(&p->top[1]))
				desc_named(p, PP_UUID_NOPROC, 0, "Tasks (process not known)", 0,
					   -1);
			snprintf(name, sizeof(name), "%.16s %d", t->comm[0] ? t->comm : "?",
				 t->pid);
			desc_named(p, PP_UUID_TASK + (uint32_t)t->pid, PP_UUID_NOPROC, name, 0, -1);
			t->drawn = 1;
		}
		return PP_UUID_TASK + (uint32_t)t->pid;
	}
	if (!t->drawn) {
		d.has_uuid = 1;
		d.uuid = PP_UUID_THREAD + (uint32_t)t->pid;
		th.has_pid = th.has_tid = 1;
		th.pid = t->tgid;
		th.tid = t->pid;
		if (t->comm[0])
			th.thread_name = t->comm;
		d.thread = &th;
		pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_DESCRIPTOR;
		pkt.track_descriptor = &d;
		on_seq(&pkt);
		pp_write(p, &pkt);
		t->drawn = 1;
	}
	return PP_UUID_THREAD + (uint32_t)t->pid;
}

/* The track @kind of @cpu, its descriptor written when first used. */
static uint64_t cpu_track(struct lat_pfproto *p, int32_t cpu, enum pp_cpu_track kind)
{
	static const char *const what[] = { "runnable", "stalls", "markers", "idle wakings",
					    "irq wakings", "softirq wakings" };
	struct pp_cpu *c = (size_t)cpu < p->ncpus ? &p->cpus[cpu] : NULL;
	uint8_t *made = !c ? NULL : kind == PP_STALLS ? &c->stalls : kind == PP_MARKERS ?
		&c->markers : kind == PP_RUNQ ? &c->runq : &c->wake[kind - PP_WAKE_IDLE];
	uint64_t uuid = PP_UUID_CPU + ((uint64_t)kind << 12) + (uint32_t)cpu;
	char name[48];

	if (made && !*made) {
		if (once(&p->top[0]))
			desc_named(p, PP_UUID_CPUS, 0, "latscope CPUs", 0, -1);
		snprintf(name, sizeof(name), "CPU %d %s", cpu, what[kind]);
		desc_named(p, uuid, PP_UUID_CPUS, name, kind == PP_RUNQ, cpu * 8 + (int)kind);
		*made = 1;
	}
	return uuid;
}

/* ---- track events ---------------------------------------------------------------- */

#define PP_MAX_ANN 20

/* One TrackEvent being made, with its annotations. */
struct pp_te {
	Perfetto__Protos__TracePacket pkt;
	Perfetto__Protos__TrackEvent te;
	Perfetto__Protos__DebugAnnotation ann[PP_MAX_ANN], *annp[PP_MAX_ANN];
	uint64_t flow;
};

static void te_init(struct pp_te *x, uint64_t ts, Perfetto__Protos__TrackEvent__Type type,
		    uint64_t track, uint64_t name_iid)
{
	x->pkt = (Perfetto__Protos__TracePacket)PERFETTO__PROTOS__TRACE_PACKET__INIT;
	x->te = (Perfetto__Protos__TrackEvent)PERFETTO__PROTOS__TRACK_EVENT__INIT;
	x->pkt.has_timestamp = 1;
	x->pkt.timestamp = ts;
	on_seq(&x->pkt);
	x->pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT;
	x->pkt.track_event = &x->te;
	x->te.has_type = 1;
	x->te.type = type;
	x->te.has_track_uuid = 1;
	x->te.track_uuid = track;
	if (name_iid) {
		x->te.name_field_case = PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME_IID;
		x->te.name_iid = name_iid;
	}
	x->te.debug_annotations = x->annp;
}

static Perfetto__Protos__DebugAnnotation *ann(struct pp_te *x, enum pp_key k)
{
	size_t i = x->te.n_debug_annotations;

	if (i == PP_MAX_ANN)	/* never: the most any record writes is 16 */
		i--;
	else
		x->te.n_debug_annotations++;
	x->ann[i] = (Perfetto__Protos__DebugAnnotation)PERFETTO__PROTOS__DEBUG_ANNOTATION__INIT;
	x->ann[i].name_field_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME_IID;
	x->ann[i].name_iid = (uint64_t)k + 1;
	x->annp[i] = &x->ann[i];
	return &x->ann[i];
}

static void ann_int(struct pp_te *x, enum pp_key k, int64_t v)
{
	Perfetto__Protos__DebugAnnotation *a = ann(x, k);

	a->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_INT_VALUE;
	a->int_value = v;
}

/* @s: lent until the event is written */
static void ann_str(struct pp_te *x, enum pp_key k, char *s)
{
	Perfetto__Protos__DebugAnnotation *a = ann(x, k);

	a->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE;
	a->string_value = s;
}

static void ann_iid(struct pp_te *x, enum pp_key k, uint64_t iid)
{
	Perfetto__Protos__DebugAnnotation *a = ann(x, k);

	a->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE_IID;
	a->string_value_iid = iid;
}

/* The end of the slice open on @track, at @ts. */
static void te_end(struct lat_pfproto *p, uint64_t ts, uint64_t track)
{
	struct pp_te x;

	te_init(&x, ts, PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END, track, 0);
	pp_write(p, &x.pkt);
}

/* ---- the records ----------------------------------------------------------------- */

/*
 * The arrow's source: a zero-length slice at the waking on the waker's track
 * (the waker task's; the CPU's irq or softirq wakings for a waking in an
 * interrupt, its idle wakings for the idle task), the flow @flow starting there.
 */
static void waking(struct lat_pfproto *p, const struct lat_wake_link *l, uint64_t *flow)
{
	const struct lat_wake_waker *k = &l->waker;
	struct lat_pf_task *t = NULL;
	uint64_t track;
	struct pp_te x;

	if (k->ctx == LAT_WAKE_CTX_TASK && k->pid > 0 && (t = task_of(p, k->pid, k->comm)))
		track = task_track(p, t);
	else if (k->ctx == LAT_WAKE_CTX_TASK)
		track = cpu_track(p, k->cpu, PP_WAKE_IDLE);
	else
		track = cpu_track(p, k->cpu, k->ctx == LAT_WAKE_CTX_SOFTIRQ ? PP_WAKE_SOFT :
								      PP_WAKE_IRQ);
	te_init(&x, l->start_ns, PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT, track,
		PP_N_WAKING);
	x.te.n_flow_ids = 1;
	x.te.flow_ids = flow;
	pp_write(p, &x.pkt);
}

/* The verdict and what it rests on: the basis, its part, every cause with time. */
static void verdict_anns(struct pp_te *x, const struct lat_wait_rec *rec)
{
	const struct lat_verdict_evidence *e = rec->evidence;
	const struct { enum pp_key k; int64_t ns; } parts[] = {
		{ K_SAME, e->same_ns }, { K_HIGHER, e->higher_ns }, { K_LOWER, e->lower_ns },
		{ K_IRQ, e->irq_ns }, { K_STALL, e->stall_ns }, { K_IDLE, e->idle_ns },
		{ K_UNKNOWN, e->unknown_ns }, { K_QUEUED, e->queued_ns },
	};
	int v = 1;

	while (v < LAT_VERDICT_N && strcmp(rec->verdict, lat_verdict_name(v)))
		v++;
	if (v < LAT_VERDICT_N)
		ann_iid(x, K_VERDICT, (uint64_t)v);
	else
		ann_str(x, K_VERDICT, (char *)rec->verdict);
	/*
	 * The rule's usual way, said by their absence: by the parts, the time behind
	 * the verdict is its own cause's part (wk_judge()), written below.
	 */
	if (e->basis != LAT_VBASIS_PARTS) {
		ann_iid(x, K_BASIS, PP_S_BASIS + (e->basis <= LAT_VBASIS_UNSEEN ? e->basis : 0));
		ann_int(x, K_PART, e->part_ns);
	}
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (parts[i].ns)
			ann_int(x, parts[i].k, parts[i].ns);
}

static void pp_wait(void *ctx, const struct lat_wait_rec *rec)
{
	struct lat_pfproto *p = ctx;
	const struct lat_wake_link *l = rec->w;
	struct lat_pf_task *t = task_of(p, l->pid, l->comm);
	uint64_t track, flow = 0;
	struct pp_te x;
	char w[64];

	/* a preemption wait is Perfetto's own Runnable (Preempted) thread state */
	if (!t || l->kind == LAT_WAIT_PREEMPT || !pp_in_window(p, l->start_ns, l->end_ns))
		return;
	track = task_track(p, t);
	/* the source first: at one time Perfetto takes the packets in file order */
	if (l->waker.cpu >= 0 && l->kind != LAT_WAIT_PREEMPT) {
		flow = ++p->nflows;
		waking(p, l, &flow);
	}
	te_init(&x, l->start_ns, PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN, track,
		(uint64_t)l->kind + 1);
	if (flow) {
		x.te.n_terminating_flow_ids = 1;
		x.te.terminating_flow_ids = &flow;
	}
	ann_int(&x, K_CPU, l->cpu);
	if (rec->queued_cpu >= 0 && rec->queued_cpu != l->cpu)
		ann_int(&x, K_QUEUED_CPU, rec->queued_cpu);
	if (!rec->trusted)
		ann_int(&x, K_TRUSTED, 0);
	/* a task waker is the flow's source track; an interrupt is named */
	if (l->waker.cpu >= 0 && l->waker.ctx != LAT_WAKE_CTX_TASK) {
		pf_waker_name(w, sizeof(w), &l->waker);
		ann_str(&x, K_WAKER, w);
	}
	if (rec->verdict && rec->evidence)
		verdict_anns(&x, rec);
	pp_write(p, &x.pkt);
	te_end(p, l->end_ns, track);
}

/* The run queue's depth: its changes at one instant written once, the last of them. */
static void runq_flush(struct lat_pfproto *p, int32_t cpu, struct pp_cpu *c)
{
	struct pp_te x;

	if (c->runq_pend < 0 || c->runq_pend == c->runq_last) {
		c->runq_pend = -1;
		return;
	}
	te_init(&x, c->runq_ts, PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_COUNTER,
		cpu_track(p, cpu, PP_RUNQ), 0);
	x.te.counter_value_field_case =
		PERFETTO__PROTOS__TRACK_EVENT__COUNTER_VALUE_FIELD_COUNTER_VALUE;
	x.te.counter_value = c->runq_pend;
	pp_write(p, &x.pkt);
	c->runq_last = c->runq_pend;
	c->runq_pend = -1;
}

static void pp_runq(void *ctx, int32_t cpu, uint64_t ts, uint32_t depth)
{
	struct lat_pfproto *p = ctx;
	struct pp_cpu *c;

	if (cpu < 0 || (size_t)cpu >= p->ncpus || !pp_in_window(p, ts, ts))
		return;
	c = &p->cpus[cpu];
	if (c->runq_pend >= 0 && c->runq_ts != ts)
		runq_flush(p, cpu, c);
	c->runq_pend = depth;
	c->runq_ts = ts;
}

static void pp_marker(void *ctx, const struct lat_event *ev, int64_t lat_ns)
{
	struct lat_pfproto *p = ctx;
	struct pp_te x;
	char text[256];
	size_t n = ev->u.marker.text ? ev->u.marker.len : 0;

	if (ev->cpu < 0 || (size_t)ev->cpu >= p->ncpus || !pp_in_window(p, ev->ts_ns, ev->ts_ns))
		return;
	if (n >= sizeof(text))
		n = sizeof(text) - 1;
	memcpy(text, n ? ev->u.marker.text : "", n);
	text[n] = 0;
	te_init(&x, ev->ts_ns, PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT,
		cpu_track(p, ev->cpu, PP_MARKERS), lat_ns >= 0 ? PP_N_SAMPLE : PP_N_MARKER);
	if (lat_ns >= 0)
		ann_int(&x, K_LAT, lat_ns);
	ann_int(&x, K_TID, ev->pid);
	ann_str(&x, K_TEXT, text);
	pp_write(p, &x.pkt);
}

static void pp_lost(void *ctx, const struct lat_wake_gap *g)
{
	struct lat_pfproto *p = ctx;
	struct pp_te x;

	if (g->cpu < 0 || (size_t)g->cpu >= p->ncpus || !pp_in_window(p, g->to_ns, g->to_ns))
		return;
	te_init(&x, g->to_ns, PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT,
		cpu_track(p, g->cpu, PP_MARKERS), PP_N_LOST);
	ann_int(&x, K_COUNT, (int64_t)g->count);
	ann_int(&x, K_SINCE, (int64_t)g->from_ns);
	pp_write(p, &x.pkt);
}

/* A stall: a slice over the silence on its CPU's stall track, or on the all-CPU one. */
static void pp_stall(void *ctx, const struct lat_wake_stall *s)
{
	struct lat_pfproto *p = ctx;
	uint64_t track;
	struct pp_te x;
	char comm[LAT_COMM_LEN], wcomm[LAT_COMM_LEN];

	if (!pp_in_window(p, s->from_ns, s->to_ns))
		return;
	if (s->cpu >= 0 && (size_t)s->cpu < p->ncpus) {
		track = cpu_track(p, s->cpu, PP_STALLS);
	} else {
		track = PP_UUID_ALLSTALL;
		if (once(&p->top[2]))
			desc_named(p, track, 0, "latscope stalls (every CPU)", 0, -1);
	}
	snprintf(comm, sizeof(comm), "%.15s", s->comm);
	snprintf(wcomm, sizeof(wcomm), "%.15s", s->waiting_comm);
	te_init(&x, s->from_ns, PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN, track,
		PP_N_STALL);
	ann_int(&x, K_CPU, s->cpu);
	ann_int(&x, K_DUR, (int64_t)(s->to_ns - s->from_ns));
	ann_int(&x, K_TID, s->pid);
	ann_str(&x, K_COMM, comm);
	ann_int(&x, K_WAITING_TID, s->waiting_pid);
	ann_str(&x, K_WAITING_COMM, wcomm);
	pp_write(p, &x.pkt);
	te_end(p, s->to_ns, track);
}

/* Every switched-in task is noted: the process tree names them all. */
static void pp_event_note(void *ctx, const struct lat_event *ev)
{
	struct lat_pfproto *p = ctx;

	if (!p->first_ns)
		p->first_ns = ev->ts_ns;
	if (ev->type == LAT_EV_SWITCH)
		task_of(p, ev->u.sw.next_pid, ev->u.sw.next_comm);
	pp_event(p, ev);
}

/* ---- the whole trace ------------------------------------------------------------- */

struct lat_pfproto *lat_pfproto_new(FILE *out, const struct lat_perfetto_opts *o)
{
	struct lat_pfproto *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->out = out;
	if (o)
		p->o = *o;
	p->tt.task_tid = -1;	/* the table's --task: none (every task matches) */
	p->tt.max_cpu = -1;
	write_interned(p);
	return p;
}

/* The next word of @s (blank-separated) into @w; returns what follows it. */
static const char *word(const char *s, char *w, size_t n)
{
	size_t i = 0;

	while (*s == ' ')
		s++;
	while (*s && *s != ' ') {
		if (i + 1 < n)
			w[i++] = *s;
		s++;
	}
	w[i] = 0;
	return s;
}

/*
 * The system: the kernel's release (Perfetto reads sched_switch's prev_state
 * by it) from UNAME ("Linux HOST RELEASE VERSION... MACHINE"), the CPUs.
 */
void lat_pfproto_source(struct lat_pfproto *p, const struct lat_event_source *src)
{
	Perfetto__Protos__TracePacket pkt = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	Perfetto__Protos__SystemInfo si = PERFETTO__PROTOS__SYSTEM_INFO__INIT;
	Perfetto__Protos__Utsname u = PERFETTO__PROTOS__UTSNAME__INIT;
	char sys[64], host[256], rel[128], ver[512] = "", mach[64] = "";
	const char *s = src->uname, *last;

	lat_perfetto_source(&p->tt, src);
	if (s) {
		s = word(word(word(s, sys, sizeof(sys)), host, sizeof(host)), rel, sizeof(rel));
		last = strrchr(s, ' ');
		if (last && last[1]) {
			snprintf(mach, sizeof(mach), "%s", last + 1);
			while (*s == ' ')
				s++;
			snprintf(ver, sizeof(ver), "%.*s", (int)(last - s), s);
		}
		u.sysname = sys;
		u.release = rel;
		u.version = ver;
		u.machine = mach;
		si.utsname = &u;
	}
	if (src->ncpus > 0) {
		si.has_num_cpus = 1;
		si.num_cpus = (uint32_t)src->ncpus;
	}
	pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_SYSTEM_INFO;
	pkt.system_info = &si;
	pp_write(p, &pkt);
}

void lat_pfproto_sink(struct lat_pfproto *p, struct lat_wake_sink *sink)
{
	memset(sink, 0, sizeof(*sink));
	sink->ctx = p;
	sink->event = pp_event_note;
	sink->wait = pp_wait;
	sink->marker = pp_marker;
	sink->lost = pp_lost;
	sink->stall = pp_stall;
	sink->runq = pp_runq;
}

/*
 * The process tree of the tasks whose process is known: each process named by
 * its leader's comm, each thread with its process and comm.  The task table is
 * packed to its front and sorted (it is not used afterwards).
 */
static void process_tree(struct lat_pfproto *p)
{
	Perfetto__Protos__TracePacket pkt = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	Perfetto__Protos__ProcessTree tree = PERFETTO__PROTOS__PROCESS_TREE__INIT;
	Perfetto__Protos__ProcessTree__Thread *th = NULL, **thp = NULL;
	Perfetto__Protos__ProcessTree__Process *pr = NULL, **prp = NULL;
	char **cmd = NULL;
	size_t n = 0, np = 0;

	for (size_t i = 0; i < p->tt.tcap; i++)
		if (p->tt.tasks[i].pid && p->tt.tasks[i].tgid != PF_TASKS_PID)
			p->tt.tasks[n++] = p->tt.tasks[i];
	if (!n)
		return;
	qsort(p->tt.tasks, n, sizeof(*p->tt.tasks), pf_cmp_task);
	th = calloc(n, sizeof(*th));
	thp = calloc(n, sizeof(*thp));
	pr = calloc(n, sizeof(*pr));
	prp = calloc(n, sizeof(*prp));
	cmd = calloc(n, sizeof(*cmd));
	if (!th || !thp || !pr || !prp || !cmd) {
		p->oom = 1;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		struct lat_pf_task *t = &p->tt.tasks[i];

		th[i] = (Perfetto__Protos__ProcessTree__Thread)
			PERFETTO__PROTOS__PROCESS_TREE__THREAD__INIT;
		th[i].has_tid = th[i].has_tgid = 1;
		th[i].tid = t->pid;
		th[i].tgid = t->tgid;
		th[i].name = t->comm;
		thp[i] = &th[i];
		if (i && t->tgid == t[-1].tgid)
			continue;
		pr[np] = (Perfetto__Protos__ProcessTree__Process)
			PERFETTO__PROTOS__PROCESS_TREE__PROCESS__INIT;
		pr[np].has_pid = 1;
		pr[np].pid = t->tgid;
		/* the leader's comm when it was seen (sorted by tid: first when it was) */
		if (t->pid == t->tgid && t->comm[0]) {
			cmd[np] = t->comm;
			pr[np].n_cmdline = 1;
			pr[np].cmdline = &cmd[np];
			pr[np].has_cmdline_is_comm = pr[np].cmdline_is_comm = 1;
		}
		prp[np] = &pr[np];
		np++;
	}
	tree.n_processes = np;
	tree.processes = prp;
	tree.n_threads = n;
	tree.threads = thp;
	if (p->first_ns) {	/* the threads are of their processes from the start */
		pkt.has_timestamp = 1;
		pkt.timestamp = p->first_ns;
	}
	pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_PROCESS_TREE;
	pkt.process_tree = &tree;
	pp_write(p, &pkt);
out:
	free(th);
	free(thp);
	free(pr);
	free(prp);
	free(cmd);
}

int lat_pfproto_end(struct lat_pfproto *p)
{
	int ret;

	for (size_t c = 0; c < p->ncpus; c++)
		runq_flush(p, (int32_t)c, &p->cpus[c]);
	pp_flush_all(p);
	process_tree(p);
	ret = p->oom || p->tt.oom ? -LAT_ENOMEM : p->werr ? -EIO : 0;
	for (size_t c = 0; c < p->ncpus; c++)
		free(p->bundles[c]);
	free(p->bundles);
	free(p->cpus);
	free(p->tt.tasks);
	free(p->buf);
	free(p);
	return ret;
}
