/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace.dat event decoding (tracedat_decode.c): a record's fields into a
 * struct lat_event, at the offsets of its type (tracedat_types.c).  Nothing
 * here depends on the events before (no comm table, no symbols), so a worker
 * thread can decode one CPU's records (tracedat_par.c); what depends on the
 * merged order (an event's comm, the comms learned from it, kallsyms) is the
 * finishing, done after the merge (tracedat_src.h).
 */
#ifndef LATSCOPE_FORMATS_TRACEDAT_DECODE_H
#define LATSCOPE_FORMATS_TRACEDAT_DECODE_H

#include <string.h>

#include "tracedat_types.h"
#include "tracedat_walk.h"

/* What decoding reads: the event types and the file's layout; set once, then read only. */
struct td_dec {
	struct td_types ty;
	int swap;
	unsigned int long_size;
	size_t ips_cap;			/* a stack's addresses kept at most (a page's) */
};

/*
 * Where what an event lends goes.  @copy 0: strings point into the record
 * (valid while the walker's page is), a stack's addresses go to @ips (ips_cap
 * of them).  @copy 1: all of it is copied to @p + @used, which outlives the
 * record; the caller leaves TD_LEND_ROOM(record size) bytes free there.
 */
struct td_lend {
	char *p;
	size_t used;
	uint64_t *ips;
	int copy;
};

/* Bytes an event of a @size-byte record may lend at most (a stack: 8 per 4-byte word). */
#define TD_LEND_ROOM(size) (2 * (size_t)(size) + 24)

/* td_decode_full()'s result: what the finishing (tracedat_src.h) still does. */
#define TD_DEC_COMM 1		/* ev->comm is the comm of ev->pid (else "") */
#define TD_DEC_SYM 2		/* u.irq.name is the kallsyms name of the address *aux */

/*
 * Any record, any layout: the common fields, then the event's own; an event
 * too short for its format is passed on as LAT_EV_OTHER with its name.
 * Returns TD_DEC_* flags; ev->comm is left to the finishing.
 */
int td_decode_full(const struct td_dec *d, const struct td_rec *r, struct lat_event *ev,
		   struct td_lend *l, uint64_t *aux);

static inline int32_t td_ld_s32(const char *p)
{
	int32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* A char[16]-or-longer comm: 16 bytes copied at once, the last one made the NUL. */
static inline void td_ld_comm(char *dst, const char *p)
{
	memcpy(dst, p, LAT_COMM_LEN);
	dst[LAT_COMM_LEN - 1] = 0;
}

/* A lost-events mark before record @r: @count events (0 when unknown). */
static inline void td_decode_lost(const struct td_rec *r, uint64_t count, struct lat_event *ev)
{
	ev->ts_ns = r->ts;
	ev->cpu = r->cpu;
	ev->pid = -1;
	ev->comm[0] = 0;
	ev->type = LAT_EV_LOST;
	ev->flags = 0;
	ev->name = "lost";
	ev->u.lost.count = count;
}

/* sched_switch whose fields have the host's shapes (hot_shape()), the record long enough. */
static inline void td_decode_switch_hot(const char *p, const struct td_etype *t,
					struct lat_event *ev)
{
	uint32_t st = (uint32_t)td_ld_s32(p + t->f[3].off);

	td_ld_comm(ev->u.sw.prev_comm, p + t->f[0].off);
	ev->u.sw.prev_pid = td_ld_s32(p + t->f[1].off);
	ev->u.sw.prev_prio = td_ld_s32(p + t->f[2].off);
	ev->u.sw.prev_state_raw = st;
	ev->u.sw.prev_state = lat_task_state_from_bits(st);
	td_ld_comm(ev->u.sw.next_comm, p + t->f[4].off);
	ev->u.sw.next_pid = td_ld_s32(p + t->f[5].off);
	ev->u.sw.next_prio = td_ld_s32(p + t->f[6].off);
}

/* sched_waking / sched_wakeup / sched_wakeup_new, the same. */
static inline void td_decode_wake_hot(const char *p, const struct td_etype *t,
				      struct lat_event *ev)
{
	td_ld_comm(ev->u.wake.comm, p + t->f[0].off);
	ev->u.wake.pid = td_ld_s32(p + t->f[1].off);
	ev->u.wake.prio = td_ld_s32(p + t->f[2].off);
	ev->u.wake.target_cpu = td_ld_s32(p + t->f[3].off);
}

/*
 * sched_migrate_task and softirq_entry/_exit with their fields in the host's
 * shapes: a tenth of a busy trace's events, not worth inline code.
 */
void td_decode_rare_hot(const char *p, const struct td_etype *t, struct lat_event *ev);

/* The fields of a hot type's record (td_etype.hot): a switch, a wakeup, or the rare ones. */
static inline __attribute__((always_inline)) void td_decode_hot_fields(const char *p,
									const struct td_etype *t,
									struct lat_event *ev)
{
	if (t->type == LAT_EV_SWITCH)
		td_decode_switch_hot(p, t, ev);
	else if (__builtin_expect(t->type <= LAT_EV_WAKEUP_NEW, 1))
		td_decode_wake_hot(p, t, ev);
	else
		td_decode_rare_hot(p, t, ev);
}

/*
 * The hot case: a switch or wakeup whose fields have the host's shapes and
 * whose record holds its common fields and its format (hot_min), read by
 * direct loads.  Returns its type with @ev filled but for its comm
 * (TD_DEC_COMM always), or NULL: td_decode_full() then, which gives the same
 * result for these too.
 */
static inline __attribute__((always_inline)) const struct td_etype *
td_decode_hot(const struct td_dec *d, const struct td_rec *r, struct lat_event *ev)
{
	const char *p = r->data;
	const struct td_etype *t;
	uint16_t id;

	if (r->size < d->ty.hot_hdr_min)	/* or not hot_hdr */
		return NULL;
	memcpy(&id, p + d->ty.f_type.off, 2);
	if (id >= d->ty.ntypes || !(t = d->ty.types[id]) || r->size < t->hot_min)
		return NULL;
	ev->ts_ns = r->ts;
	ev->cpu = r->cpu;
	ev->pid = td_ld_s32(p + d->ty.f_pid.off);
	/* hot_hdr: common_flags is there */
	ev->flags = lat_evf_from_common_flags((uint8_t)p[d->ty.f_flags.off]);
	ev->type = t->type;
	ev->name = t->name;
	td_decode_hot_fields(p, t, ev);
	return t;
}

#endif
