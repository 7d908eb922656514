// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The protobuf wire writer of `export --perfetto-proto` (report/export_pbw.h) against
 * protobuf-c's packing of the same messages: the bytes must be the same.  The messages
 * are the exporter's shapes, with the values where encodings change: varints at each
 * length (0, 127, 128, 2^14, 2^32, 2^63, 2^64 - 1), negative int32 (10 bytes) and int64,
 * fixed64, empty strings and messages, bodies of 127, 128 and 16384 bytes and more (the
 * length's second and third byte, the body moved on), packed arrays of 0, 1 and 3000
 * entries, a two-byte field number (491), and a pseudo-random spread of them all.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "export_pbw.h"
#include "protos/perfetto/trace/trace.pb-c.h"

static const uint64_t edges[] = {
	0, 1, 127, 128, 300, 16383, 16384, (1ull << 21) - 1, 1ull << 21, 1ull << 31,
	(1ull << 32) - 1, 1ull << 32, 1ull << 35, 1ull << 49, 1ull << 56, 1ull << 63, UINT64_MAX,
	(uint64_t)-2, (uint64_t)INT32_MIN, (uint64_t)(int64_t)-1,
};
#define NEDGES (sizeof(edges) / sizeof(edges[0]))

static uint64_t rnd_state = 0x9e3779b97f4a7c15ull;

/* xorshift64*, then a random number of its high bits kept: every varint length turns up */
static uint64_t rnd(void)
{
	uint64_t x = rnd_state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rnd_state = x;
	x *= 0x2545f4914f6cdd1dull;
	return x >> (x % 64);
}

/* The value @i of a test: the edges first, then random ones. */
static uint64_t val(size_t i)
{
	return i < NEDGES ? edges[i] : rnd();
}

/* Packs @msg with protobuf-c into @want; its length. */
static size_t packed(const ProtobufCMessage *msg, uint8_t **want)
{
	size_t n = protobuf_c_message_get_packed_size(msg);

	*want = malloc(n ? n : 1);
	assert_non_null(*want);
	assert_int_equal(protobuf_c_message_pack(msg, *want), n);
	return n;
}

static void same(const ProtobufCMessage *msg, const uint8_t *got, size_t ngot)
{
	uint8_t *want;
	size_t n = packed(msg, &want);

	assert_int_equal(ngot, n);
	assert_memory_equal(got, want, n);
	free(want);
}

/*
 * A Trace of one TracePacket with a TrackEvent: timestamp, sequence, @nann annotations
 * (int, string of @slen bytes, interned string in turn), type, name, track, counter, flows.
 */
static void track_event(size_t i, size_t nann, size_t slen)
{
	Perfetto__Protos__TracePacket pkt = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	Perfetto__Protos__TrackEvent te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	Perfetto__Protos__DebugAnnotation ann[8], *annp[8];
	uint64_t flow = val(i + 3), end = val(i + 4);
	char *s = malloc(slen + 1);
	uint8_t *buf = malloc(8 * (slen + 64) + 256), *o, *t, *a;

	assert_true(s && buf && nann <= 8);
	memset(s, 'x', slen);
	s[slen] = 0;
	pkt.has_timestamp = 1;
	pkt.timestamp = val(i);
	pkt.optional_trusted_packet_sequence_id_case =
		PERFETTO__PROTOS__TRACE_PACKET__OPTIONAL_TRUSTED_PACKET_SEQUENCE_ID_TRUSTED_PACKET_SEQUENCE_ID;
	pkt.trusted_packet_sequence_id = (uint32_t)val(i + 1);
	pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT;
	pkt.track_event = &te;
	te.has_type = 1;
	te.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN;
	te.name_field_case = PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME_IID;
	te.name_iid = val(i + 2);
	te.has_track_uuid = 1;
	te.track_uuid = val(i + 5);
	te.counter_value_field_case =
		PERFETTO__PROTOS__TRACK_EVENT__COUNTER_VALUE_FIELD_COUNTER_VALUE;
	te.counter_value = (int64_t)val(i + 6);
	te.n_flow_ids = te.n_terminating_flow_ids = 1;
	te.flow_ids = &flow;
	te.terminating_flow_ids = &end;
	te.n_debug_annotations = nann;
	te.debug_annotations = annp;

	o = pb_open(buf, 1);	/* Trace.packet */
	t = pb_open(pb_u64(pb_u64(o, 8, pkt.timestamp), 10, pkt.trusted_packet_sequence_id), 11);
	o = t;
	for (size_t k = 0; k < nann; k++) {
		ann[k] = (Perfetto__Protos__DebugAnnotation)
			PERFETTO__PROTOS__DEBUG_ANNOTATION__INIT;
		ann[k].name_field_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME_IID;
		ann[k].name_iid = val(i + 7 + k);
		annp[k] = &ann[k];
		a = o = pb_open(o, 4);
		o = pb_u64(o, 1, ann[k].name_iid);
		if (k % 3 == 0) {
			ann[k].value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_INT_VALUE;
			ann[k].int_value = (int64_t)val(i + 8 + k);
			o = pb_u64(o, 4, (uint64_t)ann[k].int_value);
		} else if (k % 3 == 1) {
			ann[k].value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE;
			ann[k].string_value = s;
			o = pb_str(o, 6, s);
		} else {
			ann[k].value_case =
				PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE_IID;
			ann[k].string_value_iid = val(i + 9 + k);
			o = pb_u64(o, 17, ann[k].string_value_iid);
		}
		o = pb_close(a, o);
	}
	o = pb_u64(pb_u64(pb_u64(o, 9, te.type), 10, te.name_iid), 11, te.track_uuid);
	o = pb_u64(o, 30, (uint64_t)te.counter_value);
	o = pb_fixed64(pb_fixed64(o, 47, flow), 48, end);
	o = pb_close(buf + 2, pb_close(t, o));

	/* the Trace of that one packet */
	{
		Perfetto__Protos__TracePacket *pp = &pkt;
		Perfetto__Protos__Trace tr = PERFETTO__PROTOS__TRACE__INIT;

		tr.n_packet = 1;
		tr.packet = &pp;
		same(&tr.base, buf, (size_t)(o - buf));
	}
	free(s);
	free(buf);
}

static void test_track_events(void **state)
{
	(void)state;
	for (size_t i = 0; i < 2000; i++)
		track_event(i, i % 9, i < NEDGES ? i : rnd() % 300);
	/* bodies at the lengths where the length's varint grows: 127/128, 16383/16384 */
	for (size_t slen = 90; slen < 140; slen++)
		track_event(0, 2, slen);
	for (size_t slen = 16300; slen < 16420; slen += 3)
		track_event(NEDGES, 2, slen);
	track_event(3, 3, 3u << 20);
}

/*
 * An FtraceEventBundle: its cpu, a sched_migrate_task event (a two-byte field number,
 * a negative int32, an empty string), lost_events, and a CompactSched of @n entries in
 * four packed arrays (uint64, int64, int32 sign-extended, uint32) and @nstr comms.
 */
static void bundle(size_t seed, uint32_t n, uint32_t nstr)
{
	Perfetto__Protos__FtraceEventBundle fb = PERFETTO__PROTOS__FTRACE_EVENT_BUNDLE__INIT;
	Perfetto__Protos__FtraceEventBundle__CompactSched cs =
		PERFETTO__PROTOS__FTRACE_EVENT_BUNDLE__COMPACT_SCHED__INIT;
	Perfetto__Protos__FtraceEvent ev = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__FtraceEvent *evp = &ev;
	Perfetto__Protos__SchedMigrateTaskFtraceEvent mig =
		PERFETTO__PROTOS__SCHED_MIGRATE_TASK_FTRACE_EVENT__INIT;
	uint64_t *ts = calloc(n + 1, 8);
	int64_t *st = calloc(n + 1, 8);
	int32_t *pid = calloc(n + 1, 4);
	uint32_t *idx = calloc(n + 1, 4);
	char **tab = calloc(nstr + 1, sizeof(char *));
	uint8_t *buf = malloc(40 * (size_t)n + 20 * nstr + 512), *o, *c, *e, *m;

	assert_true(ts && st && pid && idx && tab && buf);
	for (uint32_t k = 0; k < n; k++) {
		ts[k] = val(seed + k);
		st[k] = (int64_t)val(seed + k + 1);
		pid[k] = (int32_t)val(seed + k + 2);
		idx[k] = (uint32_t)val(seed + k + 3);
	}
	for (uint32_t k = 0; k < nstr; k++)
		tab[k] = k % 2 ? "" : "kworker/u16:3";
	fb.has_cpu = 1;
	fb.cpu = (uint32_t)val(seed);
	fb.has_lost_events = fb.lost_events = 1;
	fb.n_event = 1;
	fb.event = &evp;
	ev.has_timestamp = ev.has_pid = ev.has_common_flags = 1;
	ev.timestamp = val(seed + 1);
	ev.pid = (uint32_t)val(seed + 2);
	ev.common_flags = (uint32_t)val(seed + 3);
	ev.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_MIGRATE_TASK;
	ev.sched_migrate_task = &mig;
	mig.comm = "";
	mig.has_pid = mig.has_dest_cpu = 1;
	mig.pid = (int32_t)val(seed + 4);
	mig.dest_cpu = -1;
	fb.compact_sched = &cs;
	cs.n_intern_table = nstr;
	cs.intern_table = tab;
	cs.n_switch_timestamp = cs.n_switch_prev_state = cs.n_switch_next_pid = n;
	cs.n_switch_next_comm_index = n;
	cs.switch_timestamp = ts;
	cs.switch_prev_state = st;
	cs.switch_next_pid = pid;
	cs.switch_next_comm_index = idx;

	o = pb_u64(buf, 1, fb.cpu);
	e = o = pb_open(o, 2);
	o = pb_u64(pb_u64(pb_u64(o, 1, ev.timestamp), 2, ev.pid), 5, ev.common_flags);
	m = o = pb_open(o, 491);
	o = pb_i32(pb_i32(pb_str(o, 1, ""), 2, mig.pid), 5, -1);
	o = pb_close(e, pb_close(m, o));
	o = pb_u64(o, 3, 1);
	c = o = pb_open(o, 4);
	if (n) {
		uint8_t *a = o = pb_open(o, 1);

		for (uint32_t k = 0; k < n; k++)
			o = pb_varint(o, ts[k]);
		a = o = pb_open(pb_close(a, o), 2);
		for (uint32_t k = 0; k < n; k++)
			o = pb_varint(o, (uint64_t)st[k]);
		a = o = pb_open(pb_close(a, o), 3);
		for (uint32_t k = 0; k < n; k++)
			o = pb_varint(o, (uint64_t)(int64_t)pid[k]);
		o = pb_close(a, o);
	}
	for (uint32_t k = 0; k < nstr; k++)
		o = pb_str(o, 5, tab[k]);
	if (n) {
		uint8_t *a = o = pb_open(o, 6);

		for (uint32_t k = 0; k < n; k++)
			o = pb_varint(o, idx[k]);
		o = pb_close(a, o);
	}
	o = pb_close(c, o);
	same(&fb.base, buf, (size_t)(o - buf));
	free(ts);
	free(st);
	free(pid);
	free(idx);
	free(tab);
	free(buf);
}

static void test_bundles(void **state)
{
	(void)state;
	bundle(0, 0, 0);
	bundle(0, 1, 1);
	bundle(3, NEDGES, 3);
	for (size_t i = 0; i < 200; i++)
		bundle(i, (uint32_t)(rnd() % 40), (uint32_t)(rnd() % 12));
	bundle(NEDGES, 3000, 2000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_track_events),
		cmocka_unit_test(test_bundles),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
