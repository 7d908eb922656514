/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `latscope export --perfetto-proto`: Perfetto's protobuf trace (a `Trace` of
 * `TracePacket`s, third_party/perfetto/protos), written as the analysis goes.
 * Two parts write struct lat_pfproto: the kernel's events as ftrace event
 * bundles, one bundle per CPU at a time (report/export_proto_ftrace.c, the
 * bundles only), and latscope's records as TrackEvents on its own tracks
 * (report/export_proto.c, everything else); both make their packets in place
 * in the output buffer (report/export_proto_write.c: buf, nbuf, bufcap, werr)
 * with the wire format's writers (export_pbw.h).  Layout: docs/export.md.
 */
#ifndef LATSCOPE_EXPORT_PROTO_H
#define LATSCOPE_EXPORT_PROTO_H

#include <stdio.h>

#include "latscope/export.h"
#include "export_perfetto.h"
#include "export_pbw.h"

/* Events of one kind a CPU's bundle holds before it is written: bounds the memory. */
#define PP_BUNDLE_N 2048
#define PP_COMM_SLOTS (4 * PP_BUNDLE_N)
/*
 * The most an FtraceEvent of the bundle's own takes, its tag and length with it: the
 * timestamp 11, pid 6, flags 3, the event's tag and length 3, a fork's sub-message 88
 * (two 31-byte comms with tag and length, two int32 of 10 bytes with their tags).
 */
#define PP_EV_MAX 128

/* One CPU's bundle being filled: compact sched_switch and sched_waking, other events. */
struct pp_bundle {
	uint32_t nsw, nwk, nev;
	uint8_t lost;			/* events were lost before this bundle */
	uint64_t sw_last, wk_last;	/* the last timestamps (the deltas' base) */
	uint64_t sw_ts[PP_BUNDLE_N];	/* delta-encoded, as CompactSched wants */
	int64_t sw_state[PP_BUNDLE_N];
	int32_t sw_pid[PP_BUNDLE_N], sw_prio[PP_BUNDLE_N];
	uint32_t sw_comm[PP_BUNDLE_N];
	uint64_t wk_ts[PP_BUNDLE_N];
	int32_t wk_pid[PP_BUNDLE_N], wk_cpu[PP_BUNDLE_N], wk_prio[PP_BUNDLE_N];
	uint32_t wk_comm[PP_BUNDLE_N], wk_flags[PP_BUNDLE_N];
	/*
	 * the comms of the compact events, interned per bundle (open addressing): each
	 * cut at 15 bytes, zero after (its key, intern_comm()), and its slot
	 */
	uint32_t ncomm;
	char comm[2 * PP_BUNDLE_N][LAT_COMM_LEN];
	uint16_t comm_at[2 * PP_BUNDLE_N];
	int32_t comm_slot[PP_COMM_SLOTS];	/* index + 1 into comm, 0 empty */
	/* the other events, as written (FtraceEvent fields of the bundle) */
	size_t nevb;
	uint8_t evb[PP_BUNDLE_N * PP_EV_MAX];
};

/* Latscope's tracks of one CPU: which descriptors are written. */
struct pp_cpu {
	uint8_t stalls, markers, runq, wake[3];	/* wake: idle task, irq, softirq */
	int64_t runq_last;		/* the counter's last value written, -1 none */
	uint64_t runq_ts;		/* a value pending at this time */
	int64_t runq_pend;		/* -1 none */
};

struct lat_pfproto {
	FILE *out;
	struct lat_perfetto_opts o;
	struct pp_bundle **bundles;	/* by CPU, allocated when the CPU has an event */
	struct pp_cpu *cpus;
	size_t ncpus;			/* of bundles and cpus */
	/*
	 * The JSON writer's task table only (pf_task(): pid, tgid or PF_TASKS_PID,
	 * comm); a task's drawn: its track descriptor is written
	 */
	struct lat_perfetto tt;
	uint8_t *buf;			/* the file's next bytes, nbuf of them */
	size_t nbuf, bufcap;
	uint64_t nflows;
	/*
	 * sched_waking seen: the sched_wakeups after it are left out (Perfetto takes a
	 * task's wakeup from its waking; a trace without wakings keeps them all)
	 */
	uint8_t saw_waking;
	uint64_t first_ns;		/* the first event's time (the process tree's), 0 none */
	uint8_t top[3];			/* the tracks "latscope", unknown process, all-CPU stalls */
	uint8_t verdicts;		/* interned verdict strings (bits) */
	int oom, werr;
};

/*
 * The output is made in place in p->buf and handed to p->out when PP_OUT bytes do not
 * leave room for the next packet.  A packet is begun with pp_begin(), which makes room for
 * @need bytes of it and returns where its body goes (a `packet` field of the Trace), and
 * ended with pp_end() at the position after its body.  PP_ROOM is room enough for every
 * packet but a bundle and the process tree (the most: a SystemInfo, ~800 bytes of uname).
 */
#define PP_OUT (256u << 10)
#define PP_ROOM 1024u
/* NULL when @need is more than PP_OUT and no more memory could be had (p->oom). */
uint8_t *pp_begin(struct lat_pfproto *p, size_t need);
void pp_end(struct lat_pfproto *p, uint8_t *body, uint8_t *end);
/* Hands the bytes made to p->out (a failure sets p->werr). */
void pp_drain(struct lat_pfproto *p);
/* The bundles of every CPU, what they hold so far. */
void pp_flush_all(struct lat_pfproto *p);
/* The sink's event callback: the kernel's event into its CPU's bundle. */
void pp_event(void *ctx, const struct lat_event *ev);
/* Whether [@from, @to] overlaps the window. */
static inline int pp_in_window(const struct lat_pfproto *p, uint64_t from, uint64_t to)
{
	return to >= p->o.from_ns && (!p->o.to_ns || from <= p->o.to_ns);
}

#endif
