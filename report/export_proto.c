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

/* Field numbers of the TracePacket (trace_packet.proto) and the TrackEvent (track_event.proto). */
enum {
	TP_PROCESS_TREE = 2, TP_TIMESTAMP = 8, TP_SEQ = 10, TP_TRACK_EVENT = 11,
	TP_INTERNED = 12, TP_SEQ_FLAGS = 13, TP_SYSTEM_INFO = 45, TP_TRACK_DESC = 60,
};
enum {
	TE_ANN = 4, TE_TYPE = 9, TE_NAME_IID = 10, TE_TRACK = 11, TE_COUNTER = 30, TE_FLOW = 47,
	TE_FLOW_END = 48,
};
enum { TE_SLICE_BEGIN = 1, TE_SLICE_END = 2, TE_INSTANT = 3, TE_COUNTER_VALUE = 4 };

/* An interned name: {iid (1), name (2)} as field @field of InternedData. */
static uint8_t *interned(uint8_t *o, uint32_t field, uint64_t iid, const char *name)
{
	uint8_t *body = pb_open(o, field);

	return pb_close(body, pb_str(pb_u64(body, 1, iid), 2, name));
}

/* The first packet of sequence 1: every name and fixed string the events intern. */
static void write_interned(struct lat_pfproto *p)
{
	char kinds[3][32];
	const char *names[PP_N_END - 1] = { kinds[0], kinds[1], kinds[2], "waking", "stall",
					    "marker", "sample", "lost events" };
	uint8_t *pkt = pp_begin(p, 4096), *d, *o;

	if (!pkt)
		return;
	for (int k = 0; k < 3; k++)
		snprintf(kinds[k], sizeof(kinds[k]), "runnable (%s)",
			 lat_wait_kind_name((enum lat_wait_kind)k));
	d = o = pb_open(pb_u64(pkt, TP_SEQ, PP_SEQ), TP_INTERNED);
	for (size_t i = 0; i < PP_N_END - 1; i++)
		o = interned(o, 2, i + 1, names[i]);		/* event_names */
	for (size_t i = 0; i < K_N; i++)
		o = interned(o, 3, i + 1, key_names[i]);	/* debug_annotation_names */
	for (size_t i = 0; i < LAT_VERDICT_N + 4; i++) {	/* debug_annotation_string_values */
		if (i == LAT_VERDICT_NONE)
			continue;
		o = interned(o, 29, i < LAT_VERDICT_N ? i : PP_S_BASIS + i - LAT_VERDICT_N,
			     i < LAT_VERDICT_N ? lat_verdict_name((enum lat_verdict_kind)i) :
						 basis_names[i - LAT_VERDICT_N]);
	}
	o = pb_u64(pb_close(d, o), TP_SEQ_FLAGS, 1);	/* SEQ_INCREMENTAL_STATE_CLEARED */
	pp_end(p, pkt, o);
}

/* ---- tracks ---------------------------------------------------------------------- */

/* A named track (@counter: a counter track) under @parent (0: top level). */
static void desc_named(struct lat_pfproto *p, uint64_t uuid, uint64_t parent, const char *name,
		       int counter, int32_t rank)
{
	uint8_t *pkt = pp_begin(p, PP_ROOM), *d, *o;

	/* TrackDescriptor: uuid 1, name 2, parent_uuid 5, counter 8, child_ordering 11, rank 12 */
	d = o = pb_open(pb_u64(pkt, TP_SEQ, PP_SEQ), TP_TRACK_DESC);
	o = pb_str(pb_u64(o, 1, uuid), 2, name);
	if (parent)
		o = pb_u64(o, 5, parent);
	if (counter) {
		uint8_t *c = pb_open(o, 8);

		o = pb_close(c, c);	/* an empty CounterDescriptor */
	}
	if (uuid == PP_UUID_CPUS)
		o = pb_i32(o, 11, 3);		/* child_ordering EXPLICIT */
	if (rank >= 0)
		o = pb_i32(o, 12, rank);
	pp_end(p, pkt, pb_close(d, o));
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
	uint8_t *pkt, *d, *th, *o;
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
		/* TrackDescriptor: uuid 1, thread 4 (ThreadDescriptor: pid 1, tid 2, name 5) */
		pkt = pp_begin(p, PP_ROOM);
		d = o = pb_open(pb_u64(pkt, TP_SEQ, PP_SEQ), TP_TRACK_DESC);
		th = o = pb_open(pb_u64(o, 1, PP_UUID_THREAD + (uint32_t)t->pid), 4);
		o = pb_u64(pb_i32(o, 1, t->tgid), 2, (uint64_t)(int64_t)t->pid);
		if (t->comm[0])
			o = pb_bytes(o, 5, t->comm, strnlen(t->comm, LAT_COMM_LEN));
		pp_end(p, pkt, pb_close(d, pb_close(th, o)));
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

/*
 * One TrackEvent being made in the output buffer: the packet's timestamp and sequence,
 * then the event's fields in the order of their numbers, its annotations (4) first,
 * with ann_*(), then te_fields() (type, name, track), then what the kind adds (counter,
 * flows), then te_done().  PP_ROOM holds the most an event has: a marker's 255-byte text
 * and two numbers; a wait's 16 annotations (~250 bytes) with an interrupt waker's name.
 */
struct pp_te {
	uint8_t *pkt, *te;
};

static uint8_t *te_begin(struct lat_pfproto *p, struct pp_te *x, uint64_t ts)
{
	x->pkt = pp_begin(p, PP_ROOM);
	x->te = pb_open(pb_u64(pb_u64(x->pkt, TP_TIMESTAMP, ts), TP_SEQ, PP_SEQ), TP_TRACK_EVENT);
	return x->te;
}

static uint8_t *te_fields(uint8_t *o, int type, uint64_t track, uint64_t name_iid)
{
	o = pb_u64(o, TE_TYPE, (uint64_t)type);
	if (name_iid)
		o = pb_u64(o, TE_NAME_IID, name_iid);
	return pb_u64(o, TE_TRACK, track);
}

static void te_done(struct lat_pfproto *p, struct pp_te *x, uint8_t *o)
{
	pp_end(p, x->pkt, pb_close(x->te, o));
}

/*
 * A DebugAnnotation: its name's iid (1), then its value (@field: int_value 4,
 * string_value 6, string_value_iid 17) from @v (a varint) or @s (@n bytes).
 */
static uint8_t *ann(uint8_t *o, enum pp_key k, uint32_t field, uint64_t v, const char *s,
		    size_t n)
{
	uint8_t *body = pb_open(o, TE_ANN);

	o = pb_u64(body, 1, (uint64_t)k + 1);
	o = s ? pb_bytes(o, field, s, n) : pb_u64(o, field, v);
	return pb_close(body, o);
}

static uint8_t *ann_int(uint8_t *o, enum pp_key k, int64_t v)
{
	return ann(o, k, 4, (uint64_t)v, NULL, 0);
}

static uint8_t *ann_str(uint8_t *o, enum pp_key k, const char *s)
{
	return ann(o, k, 6, 0, s, strlen(s));
}

static uint8_t *ann_iid(uint8_t *o, enum pp_key k, uint64_t iid)
{
	return ann(o, k, 17, iid, NULL, 0);
}

/* The end of the slice open on @track, at @ts. */
static void te_end(struct lat_pfproto *p, uint64_t ts, uint64_t track)
{
	struct pp_te x;

	te_done(p, &x, te_fields(te_begin(p, &x, ts), TE_SLICE_END, track, 0));
}

/* ---- the records ----------------------------------------------------------------- */

/*
 * The arrow's source: a zero-length slice at the waking on the waker's track
 * (the waker task's; the CPU's irq or softirq wakings for a waking in an
 * interrupt, its idle wakings for the idle task), the flow @flow starting there.
 */
static void waking(struct lat_pfproto *p, const struct lat_wake_link *l, uint64_t flow)
{
	const struct lat_wake_waker *k = &l->waker;
	struct lat_pf_task *t = NULL;
	uint64_t track;
	struct pp_te x;
	uint8_t *o;

	if (k->ctx == LAT_WAKE_CTX_TASK && k->pid > 0 && (t = task_of(p, k->pid, k->comm)))
		track = task_track(p, t);
	else if (k->ctx == LAT_WAKE_CTX_TASK)
		track = cpu_track(p, k->cpu, PP_WAKE_IDLE);
	else
		track = cpu_track(p, k->cpu, k->ctx == LAT_WAKE_CTX_SOFTIRQ ? PP_WAKE_SOFT :
								      PP_WAKE_IRQ);
	o = te_fields(te_begin(p, &x, l->start_ns), TE_INSTANT, track, PP_N_WAKING);
	te_done(p, &x, pb_fixed64(o, TE_FLOW, flow));
}

/* The verdict and what it rests on: the basis, its part, every cause with time. */
static uint8_t *verdict_anns(uint8_t *o, const struct lat_wait_rec *rec)
{
	const struct lat_verdict_evidence *e = rec->evidence;
	const struct { enum pp_key k; int64_t ns; } parts[] = {
		{ K_SAME, e->same_ns }, { K_HIGHER, e->higher_ns }, { K_LOWER, e->lower_ns },
		{ K_IRQ, e->irq_ns }, { K_STALL, e->stall_ns }, { K_IDLE, e->idle_ns },
		{ K_UNKNOWN, e->unknown_ns }, { K_QUEUED, e->queued_ns },
	};
	int v = 1;

	/* the analysis' own name (the same pointer) or its text */
	while (v < LAT_VERDICT_N && rec->verdict != lat_verdict_name(v) &&
	       strcmp(rec->verdict, lat_verdict_name(v)))
		v++;
	if (v < LAT_VERDICT_N)
		o = ann_iid(o, K_VERDICT, (uint64_t)v);
	else
		o = ann_str(o, K_VERDICT, rec->verdict);
	/*
	 * The rule's usual way, said by their absence: by the parts, the time behind
	 * the verdict is its own cause's part (wk_judge()), written below.
	 */
	if (e->basis != LAT_VBASIS_PARTS) {
		uint64_t b = e->basis <= LAT_VBASIS_UNSEEN ? e->basis : 0;

		o = ann_iid(o, K_BASIS, PP_S_BASIS + b);
		o = ann_int(o, K_PART, e->part_ns);
	}
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (parts[i].ns)
			o = ann_int(o, parts[i].k, parts[i].ns);
	return o;
}

static void pp_wait(void *ctx, const struct lat_wait_rec *rec)
{
	struct lat_pfproto *p = ctx;
	const struct lat_wake_link *l = rec->w;
	struct lat_pf_task *t = task_of(p, l->pid, l->comm);
	uint64_t track, flow = 0;
	struct pp_te x;
	uint8_t *o;
	char w[PF_WAKER_NAME];

	/* a preemption wait is Perfetto's own Runnable (Preempted) thread state */
	if (!t || l->kind == LAT_WAIT_PREEMPT || !pp_in_window(p, l->start_ns, l->end_ns))
		return;
	track = task_track(p, t);
	/* the source first: at one time Perfetto takes the packets in file order */
	if (l->waker.cpu >= 0 && l->kind != LAT_WAIT_PREEMPT) {
		flow = ++p->nflows;
		waking(p, l, flow);
	}
	o = ann_int(te_begin(p, &x, l->start_ns), K_CPU, l->cpu);
	if (rec->queued_cpu >= 0 && rec->queued_cpu != l->cpu)
		o = ann_int(o, K_QUEUED_CPU, rec->queued_cpu);
	if (!rec->trusted)
		o = ann_int(o, K_TRUSTED, 0);
	/* a task waker is the flow's source track; an interrupt is named */
	if (l->waker.cpu >= 0 && l->waker.ctx != LAT_WAKE_CTX_TASK) {
		pf_waker_name(w, &l->waker);
		o = ann_str(o, K_WAKER, w);
	}
	if (rec->verdict && rec->evidence)
		o = verdict_anns(o, rec);
	o = te_fields(o, TE_SLICE_BEGIN, track, (uint64_t)l->kind + 1);
	if (flow)
		o = pb_fixed64(o, TE_FLOW_END, flow);
	te_done(p, &x, o);
	te_end(p, l->end_ns, track);
}

/* The run queue's depth: its changes at one instant written once, the last of them. */
static void runq_flush(struct lat_pfproto *p, int32_t cpu, struct pp_cpu *c)
{
	struct pp_te x;
	uint64_t track;
	uint8_t *o;

	if (c->runq_pend < 0 || c->runq_pend == c->runq_last) {
		c->runq_pend = -1;
		return;
	}
	track = cpu_track(p, cpu, PP_RUNQ);
	o = te_fields(te_begin(p, &x, c->runq_ts), TE_COUNTER_VALUE, track, 0);
	te_done(p, &x, pb_u64(o, TE_COUNTER, (uint64_t)c->runq_pend));
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
	uint64_t track;
	uint8_t *o;
	size_t n = ev->u.marker.text ? strnlen(ev->u.marker.text, ev->u.marker.len) : 0;

	if (ev->cpu < 0 || (size_t)ev->cpu >= p->ncpus || !pp_in_window(p, ev->ts_ns, ev->ts_ns))
		return;
	track = cpu_track(p, ev->cpu, PP_MARKERS);
	o = te_begin(p, &x, ev->ts_ns);
	if (lat_ns >= 0)
		o = ann_int(o, K_LAT, lat_ns);
	o = ann_int(o, K_TID, ev->pid);
	/* cut at 255 bytes (and at a NUL, as a C string of it was) */
	o = ann(o, K_TEXT, 6, 0, n ? ev->u.marker.text : "", n < 256 ? n : 255);
	o = te_fields(o, TE_INSTANT, track, lat_ns >= 0 ? PP_N_SAMPLE : PP_N_MARKER);
	te_done(p, &x, o);
}

static void pp_lost(void *ctx, const struct lat_wake_gap *g)
{
	struct lat_pfproto *p = ctx;
	struct pp_te x;
	uint64_t track;
	uint8_t *o;

	if (g->cpu < 0 || (size_t)g->cpu >= p->ncpus || !pp_in_window(p, g->to_ns, g->to_ns))
		return;
	track = cpu_track(p, g->cpu, PP_MARKERS);
	o = ann_int(te_begin(p, &x, g->to_ns), K_COUNT, (int64_t)g->count);
	o = ann_int(o, K_SINCE, (int64_t)g->from_ns);
	te_done(p, &x, te_fields(o, TE_INSTANT, track, PP_N_LOST));
}

/* A stall: a slice over the silence on its CPU's stall track, or on the all-CPU one. */
static void pp_stall(void *ctx, const struct lat_wake_stall *s)
{
	struct lat_pfproto *p = ctx;
	uint64_t track;
	struct pp_te x;
	uint8_t *o;

	if (!pp_in_window(p, s->from_ns, s->to_ns))
		return;
	if (s->cpu >= 0 && (size_t)s->cpu < p->ncpus) {
		track = cpu_track(p, s->cpu, PP_STALLS);
	} else {
		track = PP_UUID_ALLSTALL;
		if (once(&p->top[2]))
			desc_named(p, track, 0, "latscope stalls (every CPU)", 0, -1);
	}
	o = ann_int(te_begin(p, &x, s->from_ns), K_CPU, s->cpu);
	o = ann_int(o, K_DUR, (int64_t)(s->to_ns - s->from_ns));
	o = ann_int(o, K_TID, s->pid);
	o = ann(o, K_COMM, 6, 0, s->comm, strnlen(s->comm, LAT_COMM_LEN - 1));
	o = ann_int(o, K_WAITING_TID, s->waiting_pid);
	o = ann(o, K_WAITING_COMM, 6, 0, s->waiting_comm,
		strnlen(s->waiting_comm, LAT_COMM_LEN - 1));
	te_done(p, &x, te_fields(o, TE_SLICE_BEGIN, track, PP_N_STALL));
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

	if (!p || !(p->buf = malloc(PP_OUT))) {
		free(p);
		return NULL;
	}
	p->bufcap = PP_OUT;
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
	char sys[64], host[256], rel[128], ver[512] = "", mach[64] = "";
	const char *s = src->uname, *last;
	uint8_t *pkt = pp_begin(p, PP_ROOM), *si, *u, *o;

	lat_perfetto_source(&p->tt, src);
	/* SystemInfo: utsname 1 (sysname 1, version 2, release 3, machine 4), num_cpus 8 */
	si = o = pb_open(pkt, TP_SYSTEM_INFO);
	if (s) {
		s = word(word(word(s, sys, sizeof(sys)), host, sizeof(host)), rel, sizeof(rel));
		last = strrchr(s, ' ');
		if (last && last[1]) {
			snprintf(mach, sizeof(mach), "%s", last + 1);
			while (*s == ' ')
				s++;
			snprintf(ver, sizeof(ver), "%.*s", (int)(last - s), s);
		}
		u = o = pb_open(o, 1);
		o = pb_str(pb_str(pb_str(pb_str(o, 1, sys), 2, ver), 3, rel), 4, mach);
		o = pb_close(u, o);
	}
	if (src->ncpus > 0)
		o = pb_u64(o, 8, (uint32_t)src->ncpus);
	pp_end(p, pkt, pb_close(si, o));
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
	uint8_t *pkt, *tree, *m, *o;
	size_t n = 0;

	for (size_t i = 0; i < p->tt.tcap; i++)
		if (p->tt.tasks[i].pid && p->tt.tasks[i].tgid != PF_TASKS_PID)
			p->tt.tasks[n++] = p->tt.tasks[i];
	if (!n)
		return;
	qsort(p->tt.tasks, n, sizeof(*p->tt.tasks), pf_cmp_task);
	/* a process and a thread per task at most, each under 64 bytes */
	if (!(pkt = pp_begin(p, 64 + 128 * n)))
		return;
	/* ProcessTree: processes 1 (pid 1, cmdline 3, cmdline_is_comm 9), threads 2 */
	tree = o = pb_open(pkt, TP_PROCESS_TREE);
	for (size_t i = 0; i < n; i++) {
		const struct lat_pf_task *t = &p->tt.tasks[i];

		if (i && t->tgid == t[-1].tgid)
			continue;
		m = o = pb_open(o, 1);
		o = pb_i32(o, 1, t->tgid);
		/* the leader's comm when it was seen (sorted by tid: first when it was) */
		if (t->pid == t->tgid && t->comm[0])
			o = pb_u64(pb_bytes(o, 3, t->comm, strnlen(t->comm, LAT_COMM_LEN)), 9, 1);
		o = pb_close(m, o);
	}
	/* Thread: tid 1, name 2, tgid 3 */
	for (size_t i = 0; i < n; i++) {
		const struct lat_pf_task *t = &p->tt.tasks[i];

		m = o = pb_open(o, 2);
		o = pb_bytes(pb_i32(o, 1, t->pid), 2, t->comm, strnlen(t->comm, LAT_COMM_LEN));
		o = pb_close(m, pb_i32(o, 3, t->tgid));
	}
	o = pb_close(tree, o);
	/* the threads are of their processes from the start */
	if (p->first_ns)
		o = pb_u64(o, TP_TIMESTAMP, p->first_ns);
	pp_end(p, pkt, o);
}

int lat_pfproto_end(struct lat_pfproto *p)
{
	int ret;

	for (size_t c = 0; c < p->ncpus; c++)
		runq_flush(p, (int32_t)c, &p->cpus[c]);
	pp_flush_all(p);
	process_tree(p);
	pp_drain(p);
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
