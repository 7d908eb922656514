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

/*
 * The key of @comm in the bundle's intern table: its 16 bytes cut at 15 (and at its NUL),
 * the rest zero, as two words (a NUL found a word at a time, its lowest zero byte).
 */
static void comm_key(const char *comm, uint64_t k[2])
{
	const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
	uint64_t z0, z1;
	unsigned len;

	memcpy(k, comm, LAT_COMM_LEN);
	z0 = (k[0] - ones) & ~k[0] & high;
	z1 = (k[1] - ones) & ~k[1] & high;
	len = z0 ? (unsigned)__builtin_ctzll(z0) / 8 :
		   z1 ? 8 + (unsigned)__builtin_ctzll(z1) / 8 : LAT_COMM_LEN - 1;
	if (len > LAT_COMM_LEN - 1)
		len = LAT_COMM_LEN - 1;
	if (len < 8) {
		k[0] &= (1ull << (8 * len)) - 1;
		k[1] = 0;
	} else {
		k[1] &= (1ull << (8 * (len - 8))) - 1;
	}
}

/* The index of @comm in the bundle's intern table, added when new. */
static uint32_t intern_comm(struct pp_bundle *b, const char *comm)
{
	const uint32_t n = PP_COMM_SLOTS;
	uint64_t k[2];
	uint32_t h;

	_Static_assert(sizeof(b->comm[0]) == sizeof(k), "a comm of the table is its key");
	comm_key(comm, k);
	h = (uint32_t)((((k[0] * 0x9e3779b97f4a7c15ull) ^ k[1]) * 0xc2b2ae3d27d4eb4full) >> 40);
	for (h &= n - 1;; h = (h + 1) & (n - 1)) {
		int32_t s = b->comm_slot[h];

		if (!s)
			break;
		if (!memcmp(b->comm[s - 1], k, sizeof(k)))
			return (uint32_t)(s - 1);
	}
	memcpy(b->comm[b->ncomm], k, sizeof(k));
	b->comm_at[b->ncomm] = (uint16_t)h;
	b->comm_slot[h] = (int32_t)++b->ncomm;
	return b->ncomm - 1;
}

/* A packed array of varints (none: no field); @v is read as @T, written as @W. */
#define PACKED(T, W)									\
static uint8_t *packed_##T(uint8_t *o, uint32_t field, const T *v, uint32_t n)	\
{											\
	uint8_t *body;									\
											\
	if (!n)										\
		return o;								\
	body = o = pb_open(o, field);							\
	for (uint32_t i = 0; i < n; i++)						\
		o = pb_varint(o, (uint64_t)(W)v[i]);					\
	return pb_close(body, o);							\
}
/* int32: a negative value sign-extended (export_pbw.h) */
PACKED(int32_t, int64_t)
PACKED(uint32_t, uint32_t)
PACKED(int64_t, uint64_t)
PACKED(uint64_t, uint64_t)

/* The bundle's CompactSched, its fields in the order of their numbers. */
static uint8_t *compact(uint8_t *o, const struct pp_bundle *b)
{
	uint8_t *body = o = pb_open(o, 4);

	o = packed_uint64_t(o, 1, b->sw_ts, b->nsw);
	o = packed_int64_t(o, 2, b->sw_state, b->nsw);
	o = packed_int32_t(o, 3, b->sw_pid, b->nsw);
	o = packed_int32_t(o, 4, b->sw_prio, b->nsw);
	for (uint32_t i = 0; i < b->ncomm; i++)
		o = pb_str(o, 5, b->comm[i]);
	o = packed_uint32_t(o, 6, b->sw_comm, b->nsw);
	o = packed_uint64_t(o, 7, b->wk_ts, b->nwk);
	o = packed_int32_t(o, 8, b->wk_pid, b->nwk);
	o = packed_int32_t(o, 9, b->wk_cpu, b->nwk);
	o = packed_int32_t(o, 10, b->wk_prio, b->nwk);
	o = packed_uint32_t(o, 11, b->wk_comm, b->nwk);
	o = packed_uint32_t(o, 12, b->wk_flags, b->nwk);
	return pb_close(body, o);
}

/* The most the bundle's packet takes: each field's tag and length, each value's most. */
static size_t bundle_room(const struct pp_bundle *b)
{
	return 64 + b->nevb + (size_t)b->ncomm * (2 + LAT_COMM_LEN) +
	       (size_t)b->nsw * (2 * PB_VARINT_MAX + 2 * PB_VARINT_MAX + PB_LEN_MAX) +
	       (size_t)b->nwk * (4 * PB_VARINT_MAX + 2 * PB_LEN_MAX);
}

static void flush(struct lat_pfproto *p, int32_t cpu, struct pp_bundle *b)
{
	uint8_t *pkt, *fb, *o;

	if (!b->nsw && !b->nwk && !b->nev)
		return;
	pkt = pp_begin(p, bundle_room(b));
	if (pkt) {
		/* TracePacket: ftrace_events (1), trusted_packet_sequence_id (10) */
		fb = pb_open(pkt, 1);
		o = pb_u64(fb, 1, (uint32_t)cpu);
		memcpy(o, b->evb, b->nevb);
		o += b->nevb;
		if (b->lost)
			o = pb_u64(o, 3, 1);
		if (b->nsw || b->nwk)
			o = compact(o, b);
		o = pb_u64(pb_close(fb, o), 10, 2);	/* the TrackEvents' is 1 */
		pp_end(p, pkt, o);
	}
	b->nsw = b->nwk = b->nev = 0;
	b->nevb = 0;
	b->sw_last = b->wk_last = 0;
	b->lost = 0;
	for (uint32_t i = 0; i < b->ncomm; i++)
		b->comm_slot[b->comm_at[i]] = 0;
	b->ncomm = 0;
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

/* String field @field: @s cut at @max bytes and at 31 (what Perfetto's fields hold). */
static uint8_t *cut_str(uint8_t *o, uint32_t field, const char *s, size_t max)
{
	size_t n = s ? strnlen(s, max) : 0;

	return pb_bytes(o, field, s ? s : "", n < 32 ? n : 31);
}

/* A wakeup's fields (sched_wakeup and _new share the layout, sched.proto). */
static uint8_t *wakeup_sub(uint8_t *o, const struct lat_event *ev)
{
	o = cut_str(o, 1, ev->u.wake.comm, LAT_COMM_LEN);
	o = pb_i32(pb_i32(o, 2, ev->u.wake.pid), 3, ev->u.wake.prio);
	o = pb_i32(o, 4, 1);			/* success */
	if (ev->u.wake.target_cpu >= 0)
		o = pb_i32(o, 5, ev->u.wake.target_cpu);
	return o;
}

/* The FtraceEvent field of @ev's kind (ftrace_event.proto); 0: not given to Perfetto. */
static uint32_t sub_field(enum lat_ev_type t)
{
	switch (t) {
	case LAT_EV_WAKEUP:
		return 17;
	case LAT_EV_WAKEUP_NEW:
		return 114;
	case LAT_EV_MIGRATE:
		return 491;
	case LAT_EV_IRQ_ENTRY:
		return 36;
	case LAT_EV_IRQ_EXIT:
		return 37;
	case LAT_EV_SOFTIRQ_ENTRY:
		return 24;
	case LAT_EV_SOFTIRQ_EXIT:
		return 25;
	case LAT_EV_FORK:
		return 239;
	case LAT_EV_EXIT:
		return 238;
	default:
		return 0;
	}
}

/* The fields of @ev's own message (sched.proto, irq.proto), in the order of their numbers. */
static uint8_t *sub_fields(uint8_t *o, const struct lat_event *ev)
{
	switch (ev->type) {
	case LAT_EV_WAKEUP:
	case LAT_EV_WAKEUP_NEW:
		return wakeup_sub(o, ev);
	case LAT_EV_MIGRATE:
		o = cut_str(o, 1, ev->u.migrate.comm, LAT_COMM_LEN);
		o = pb_i32(pb_i32(o, 2, ev->u.migrate.pid), 3, ev->u.migrate.prio);
		return pb_i32(pb_i32(o, 4, ev->u.migrate.orig_cpu), 5, ev->u.migrate.dest_cpu);
	case LAT_EV_IRQ_ENTRY:
		return cut_str(pb_i32(o, 1, ev->u.irq.irq), 2, ev->u.irq.name, 64);
	case LAT_EV_IRQ_EXIT:
		return pb_i32(pb_i32(o, 1, ev->u.irq.irq), 2, ev->u.irq.ret);
	case LAT_EV_SOFTIRQ_ENTRY:
	case LAT_EV_SOFTIRQ_EXIT:
		/* entry and exit: one field, the vector (irq.proto) */
		return pb_u64(o, 1, (uint32_t)ev->u.irq.irq);
	case LAT_EV_FORK:
		o = cut_str(o, 1, ev->u.task.comm, LAT_COMM_LEN);
		o = pb_i32(o, 2, ev->u.task.pid);
		o = cut_str(o, 3, ev->u.task.child_comm, LAT_COMM_LEN);
		return pb_i32(o, 4, ev->u.task.child_pid);
	default:	/* LAT_EV_EXIT */
		return pb_i32(cut_str(o, 1, ev->u.task.comm, LAT_COMM_LEN), 2, ev->u.task.pid);
	}
}

/* @ev as an FtraceEvent of the bundle (its field 2), written now (at most PP_EV_MAX). */
static void add_other(struct pp_bundle *b, const struct lat_event *ev)
{
	uint32_t field = sub_field(ev->type);
	uint8_t *e, *sub, *o;

	if (!field)
		return;
	e = o = pb_open(b->evb + b->nevb, 2);
	o = pb_u64(o, 1, ev->ts_ns);
	if (ev->pid >= 0)
		o = pb_u64(o, 2, (uint32_t)ev->pid);
	if (ev->flags & LAT_EVF_KNOWN)
		o = pb_u64(o, 5, ev->flags & 0xff);
	sub = pb_open(o, field);
	o = pb_close(e, pb_close(sub, sub_fields(sub, ev)));
	b->nevb = (size_t)(o - b->evb);
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
