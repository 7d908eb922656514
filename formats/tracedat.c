// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trace.dat (trace-cmd v6 / v7) as a lat_event_source.
 *
 * Each CPU's ring-buffer pages are walked with kbuffer, one block of pages
 * (or one decompressed chunk) resident per CPU; the CPUs are merged with a
 * small heap on (timestamp, cpu), which is the order trace-cmd report uses
 * (tracedat_walk.c).  Event fields are read (here) at offsets looked up once
 * per event type (tracedat_types.c).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracedat_types.h"
#include "tracedat_walk.h"

/*
 * Per CPU slot of the walk: a one-entry comm cache (runs of events share a
 * pid), emptied (comm_set()) whenever the comm table changes, so that a hit
 * needs no other test.
 */
struct td_ccache {
	int32_t pid;			/* TD_CC_NONE: empty */
	const char *comm;		/* LAT_COMM_LEN bytes, lent by the comm table */
};

#define TD_CC_NONE INT32_MIN

/*
 * The source: the file (header, options, formats: tracedat_meta.c), the
 * buffer read, its page walk (tracedat_walk.c), the event types
 * (tracedat_types.c) and what the decoding keeps between events.
 */
struct td_src {
	struct lat_event_source base;
	struct td_file f;
	struct td_buffer *buf;		/* lent by f */
	struct td_walk *walk;		/* owned */
	struct td_types ty;
	struct td_ccache *cc;		/* per walk slot (ncc), owned */
	int ncc;
	int end_pending;		/* td_next_batch() met the end after some events */
	struct td_notes notes;		/* base.stop_reason and skip_reason point in */
	uint64_t *overrun;		/* base.cpu_overrun, owned */
	uint64_t *ips;			/* a stack's addresses and symbols, lent to the event */
	const char **syms;
	size_t ips_cap;
	struct lat_steal steal;		/* the last steal marker's values, lent */
};

static const char *const softirq_names[] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER",
	"RCU",
};

static inline int64_t rd(const struct td_src *s, const char *d, const struct td_fld *f)
{
	const char *p = d + f->off;

	if (!f->ok)
		return -1;
	switch (f->size) {
	case 1:
		return f->sign ? (int8_t)*p : (uint8_t)*p;
	case 2:
		return f->sign ? (int16_t)td_get16(s->f.swap, p) : td_get16(s->f.swap, p);
	case 4:
		return f->sign ? (int64_t)(int32_t)td_get32(s->f.swap, p) :
				 (int64_t)td_get32(s->f.swap, p);
	case 8:
		return (int64_t)td_get64(s->f.swap, p);
	default:
		return -1;
	}
}

/* A __data_loc / __rel_loc string, bounded by the record; NULL when out of bounds. */
static const char *rd_dyn(const struct td_src *s, const char *d, unsigned int size,
			  const struct td_fld *f, size_t *len)
{
	uint32_t v, off, l;

	if (!f->ok || !f->dyn || f->size != 4)
		return NULL;
	v = td_get32(s->f.swap, d + f->off);
	off = v & 0xffff;
	l = v >> 16;
	if (f->rel)
		off += (uint32_t)f->off + 4;
	if (off > size || l > size - off)
		return NULL;
	*len = strnlen(d + off, l);
	return d + off;
}

/* A comm: char[16] in most events, __data_loc char[] in some (6.x sched_migrate_task). */
static inline void rd_comm(const struct td_src *s, char *dst, const char *d, unsigned int size,
			   const struct td_fld *f)
{
	const char *p = d + f->off;
	size_t n = f->size < LAT_COMM_LEN - 1 ? f->size : LAT_COMM_LEN - 1;

	if (f->ok && !f->dyn && f->size >= LAT_COMM_LEN) {
		/* char comm[16]: what follows its NUL does not matter */
		memcpy(dst, p, LAT_COMM_LEN - 1);
		dst[LAT_COMM_LEN - 1] = 0;
		return;
	}
	if (f->ok && f->dyn)
		p = rd_dyn(s, d, size, f, &n);
	if (!f->ok || !p) {
		dst[0] = 0;
		return;
	}
	n = strnlen(p, n < LAT_COMM_LEN - 1 ? n : LAT_COMM_LEN - 1);
	memcpy(dst, p, n);
	dst[n] = 0;
}

static const char comm_idle[LAT_COMM_LEN] = "<idle>", comm_unknown[LAT_COMM_LEN] = "<...>";

/*
 * Points @cpu's one-entry comm cache at @pid's comm: its table entry @c
 * (LAT_COMM_LEN bytes, NUL inside, stable until the table is released) or one
 * of the two fixed names.
 */
static void comm_cache_fill(struct td_ccache *cc, int32_t pid, const char *c)
{
	cc->comm = pid == 0 ? comm_idle : c ? c : comm_unknown;
	cc->pid = pid;
}

/* The comm of @pid, through a one-entry cache per CPU (runs of events share a pid). */
static inline void comm_of(struct td_src *s, struct td_ccache *cc, int32_t pid, char *dst)
{
	if (pid != cc->pid)
		comm_cache_fill(cc, pid, pid ? td_comm_get(&s->f.comms, pid) : NULL);
	memcpy(dst, cc->comm, LAT_COMM_LEN);
}

/*
 * td_comm_set() while reading: every CPU's cache is emptied, since one may
 * hold "<...>" for the pid just learned.
 */
static int comm_set(struct td_src *s, int32_t pid, const char *comm, size_t len)
{
	int ret = td_comm_set(&s->f.comms, pid, comm, len);

	for (int i = 0; i < s->ncc; i++)
		s->cc[i].pid = TD_CC_NONE;
	return ret;
}

/* Learns a comm the saved cmdlines did not have (short-lived tasks). */
static void learn_comm(struct td_src *s, int32_t pid, const char *comm)
{
	if (pid > 0 && comm[0] && !td_comm_get(&s->f.comms, pid))
		comm_set(s, pid, comm, strlen(comm));
}

/*
 * A switch to @pid on @cpu: learns its comm as learn_comm() does and, with
 * the same table lookup, fills the CPU's comm cache with it, since the events
 * that follow on this CPU are that task's.
 */
static __attribute__((noinline)) const char *switch_learn(struct td_src *s, int32_t pid,
							    const char *comm)
{
	if (comm_set(s, pid, comm, strlen(comm)) == 0)
		return td_comm_get(&s->f.comms, pid);
	return NULL;
}

static inline void switch_in(struct td_src *s, struct td_ccache *cc, int32_t pid,
			     const char *comm)
{
	const char *c = NULL;

	if (pid > 0) {
		c = td_comm_get(&s->f.comms, pid);
		if (!c && comm[0])
			c = switch_learn(s, pid, comm);
	}
	if (pid >= 0)
		comm_cache_fill(cc, pid, c);
}


static inline int32_t ld_s32(const char *p)
{
	int32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* A char[16]-or-longer comm: 16 bytes copied at once, the last one made the NUL. */
static inline void ld_comm(char *dst, const char *p)
{
	memcpy(dst, p, LAT_COMM_LEN);
	dst[LAT_COMM_LEN - 1] = 0;
}

/* sched_switch with hot_shape(): the record holds every field (min_size checked). */
static inline void decode_switch_hot(struct td_src *s, struct td_ccache *cc, const char *d,
				     const struct td_etype *t, struct lat_event *ev)
{
	uint32_t st = (uint32_t)ld_s32(d + t->f[3].off);

	ld_comm(ev->u.sw.prev_comm, d + t->f[0].off);
	ev->u.sw.prev_pid = ld_s32(d + t->f[1].off);
	ev->u.sw.prev_prio = ld_s32(d + t->f[2].off);
	ev->u.sw.prev_state_raw = st;
	ev->u.sw.prev_state = lat_task_state_from_bits(st);
	ld_comm(ev->u.sw.next_comm, d + t->f[4].off);
	ev->u.sw.next_pid = ld_s32(d + t->f[5].off);
	ev->u.sw.next_prio = ld_s32(d + t->f[6].off);
	switch_in(s, cc, ev->u.sw.next_pid, ev->u.sw.next_comm);
}

static void decode_stack(struct td_src *s, const char *d, unsigned int size,
			 const struct td_etype *t, struct lat_event *ev)
{
	int64_t want = rd(s, d, &t->f[0]);
	uint32_t off = t->f[1].off, depth = 0;
	unsigned int ls = (unsigned int)s->f.long_size;
	uint64_t avail = off <= size ? (uint64_t)(size - off) / ls : 0;

	if (want < 0 || (uint64_t)want > avail)
		want = (int64_t)avail;
	if ((size_t)want > s->ips_cap)
		want = (int64_t)s->ips_cap;
	for (int64_t i = 0; i < want; i++) {
		const char *p = d + off + (size_t)i * ls;
		uint64_t ip = ls == 8 ? td_get64(s->f.swap, p) : td_get32(s->f.swap, p);

		/* older kernels end the list with ULONG_MAX */
		if (ip == (ls == 8 ? UINT64_MAX : UINT32_MAX) || !ip)
			break;
		s->ips[depth++] = ip;
	}
	ev->u.stack.ips = s->ips;
	ev->u.stack.depth = depth;
	ev->u.stack.syms = NULL;
	if (depth && td_load_kallsyms(&s->f) == 0) {
		for (uint32_t i = 0; i < depth; i++)
			s->syms[i] = tep_find_function(s->f.tep, s->ips[i]);
		ev->u.stack.syms = s->syms;
	}
}

/* sched_waking / sched_wakeup / sched_wakeup_new with hot_shape(). */
static inline void decode_wake_hot(const char *d, const struct td_etype *t, struct lat_event *ev)
{
	ld_comm(ev->u.wake.comm, d + t->f[0].off);
	ev->u.wake.pid = ld_s32(d + t->f[1].off);
	ev->u.wake.prio = ld_s32(d + t->f[2].off);
	ev->u.wake.target_cpu = ld_s32(d + t->f[3].off);
}

/* sched_switch of any layout, by rd(). */
static void decode_switch(struct td_src *s, struct td_ccache *cc, const char *d,
			  unsigned int size, const struct td_etype *t, struct lat_event *ev)
{
	int64_t st = rd(s, d, &t->f[3]);

	rd_comm(s, ev->u.sw.prev_comm, d, size, &t->f[0]);
	ev->u.sw.prev_pid = (int32_t)rd(s, d, &t->f[1]);
	ev->u.sw.prev_prio = (int32_t)rd(s, d, &t->f[2]);
	ev->u.sw.prev_state_raw = (uint32_t)st;
	rd_comm(s, ev->u.sw.next_comm, d, size, &t->f[4]);
	ev->u.sw.next_pid = (int32_t)rd(s, d, &t->f[5]);
	ev->u.sw.next_prio = (int32_t)rd(s, d, &t->f[6]);
	ev->u.sw.prev_state = lat_task_state_from_bits((uint32_t)st);
	switch_in(s, cc, ev->u.sw.next_pid, ev->u.sw.next_comm);
}

/* The wakeups and sched_migrate_task of any layout. */
static void decode_wake_migrate(struct td_src *s, const char *d, unsigned int size,
				const struct td_etype *t, struct lat_event *ev)
{
	if (t->type != LAT_EV_MIGRATE) {
		rd_comm(s, ev->u.wake.comm, d, size, &t->f[0]);
		ev->u.wake.pid = (int32_t)rd(s, d, &t->f[1]);
		ev->u.wake.prio = (int32_t)rd(s, d, &t->f[2]);
		ev->u.wake.target_cpu = (int32_t)rd(s, d, &t->f[3]);
		return;
	}
	rd_comm(s, ev->u.migrate.comm, d, size, &t->f[0]);
	ev->u.migrate.pid = (int32_t)rd(s, d, &t->f[1]);
	ev->u.migrate.prio = (int32_t)rd(s, d, &t->f[2]);
	ev->u.migrate.orig_cpu = (int32_t)rd(s, d, &t->f[3]);
	ev->u.migrate.dest_cpu = (int32_t)rd(s, d, &t->f[4]);
}

/* sched_process_exec: the new comm is the file's basename, as the kernel sets it. */
static void decode_exec(struct td_src *s, const char *d, unsigned int size,
			const struct td_etype *t, struct lat_event *ev)
{
	size_t len;
	const char *fn = rd_dyn(s, d, size, &t->f[0], &len), *b;

	ev->u.task.pid = (int32_t)rd(s, d, &t->f[1]);
	ev->u.task.child_pid = -1;
	ev->u.task.child_comm[0] = 0;
	ev->u.task.comm[0] = 0;
	if (!fn)
		return;
	b = memrchr(fn, '/', len);
	b = b ? b + 1 : fn;
	len -= (size_t)(b - fn);
	if (len > LAT_COMM_LEN - 1)
		len = LAT_COMM_LEN - 1;
	memcpy(ev->u.task.comm, b, len);
	ev->u.task.comm[len] = 0;
	if (len)
		comm_set(s, ev->u.task.pid, b, len);
}

/* sched_process_fork / exec / exit. */
static void decode_task(struct td_src *s, const char *d, unsigned int size,
			const struct td_etype *t, struct lat_event *ev)
{
	if (t->type == LAT_EV_EXEC) {
		decode_exec(s, d, size, t, ev);
		return;
	}
	rd_comm(s, ev->u.task.comm, d, size, &t->f[0]);
	ev->u.task.pid = (int32_t)rd(s, d, &t->f[1]);
	if (t->type == LAT_EV_EXIT) {
		ev->u.task.child_pid = -1;
		ev->u.task.child_comm[0] = 0;
		return;
	}
	rd_comm(s, ev->u.task.child_comm, d, size, &t->f[2]);
	ev->u.task.child_pid = (int32_t)rd(s, d, &t->f[3]);
	learn_comm(s, ev->u.task.child_pid, ev->u.task.child_comm);
}

/* irq handlers, softirqs and hrtimer callbacks: the number and a name where one is known. */
static void decode_irq(struct td_src *s, const char *d, unsigned int size,
		       const struct td_etype *t, struct lat_event *ev)
{
	const char *nm;
	size_t len;

	ev->u.irq.irq = (int32_t)rd(s, d, &t->f[0]);
	ev->u.irq.ret = 0;
	ev->u.irq.name = NULL;
	switch (t->type) {
	case LAT_EV_IRQ_ENTRY:
		/* the name is NUL-terminated inside the record (checked by rd_dyn) */
		nm = rd_dyn(s, d, size, &t->f[1], &len);
		if (nm && len < size - (size_t)(nm - d) && !nm[len])
			ev->u.irq.name = nm;
		break;
	case LAT_EV_IRQ_EXIT:
		ev->u.irq.ret = (int32_t)rd(s, d, &t->f[1]);
		break;
	case LAT_EV_SOFTIRQ_ENTRY:
	case LAT_EV_SOFTIRQ_EXIT:
		ev->u.irq.name = ev->u.irq.irq >= 0 &&
			(size_t)ev->u.irq.irq < LAT_ARRAY_SIZE(softirq_names) ?
			softirq_names[ev->u.irq.irq] : NULL;
		break;
	default:
		/* hrtimers: the callback's address, named from the file's kallsyms */
		ev->u.irq.irq = -1;
		if (t->type == LAT_EV_TIMER_ENTRY && !t->f[0].dyn &&
		    t->f[0].size == (uint16_t)s->f.long_size && td_load_kallsyms(&s->f) == 0)
			ev->u.irq.name = tep_find_function(s->f.tep,
							   (unsigned long long)rd(s, d, &t->f[0]));
		break;
	}
}

/* trace_marker text, its trailing newlines dropped. */
static void decode_marker(struct td_src *s, const char *d, unsigned int size,
			  const struct td_etype *t, struct lat_event *ev)
{
	const char *txt = d + t->f[0].off;
	size_t len = strnlen(txt, size - t->f[0].off);

	while (len && (txt[len - 1] == '\n'))
		len--;
	ev->u.marker.text = txt;
	ev->u.marker.len = len;
	/* latscope's steal-time markers come parsed (lent until the next event) */
	ev->u.marker.steal = lat_steal_parse(txt, len, &s->steal) ? &s->steal : NULL;
}

/* A known event's own fields, any layout. */
static void decode_fields(struct td_src *s, struct td_ccache *cc, const char *d,
			  unsigned int size, const struct td_etype *t, struct lat_event *ev)
{
	switch (t->type) {
	case LAT_EV_SWITCH:
		decode_switch(s, cc, d, size, t, ev);
		break;
	case LAT_EV_WAKING:
	case LAT_EV_WAKEUP:
	case LAT_EV_WAKEUP_NEW:
	case LAT_EV_MIGRATE:
		decode_wake_migrate(s, d, size, t, ev);
		break;
	case LAT_EV_FORK:
	case LAT_EV_EXEC:
	case LAT_EV_EXIT:
		decode_task(s, d, size, t, ev);
		break;
	case LAT_EV_IRQ_ENTRY:
	case LAT_EV_IRQ_EXIT:
	case LAT_EV_SOFTIRQ_ENTRY:
	case LAT_EV_SOFTIRQ_EXIT:
	case LAT_EV_TIMER_ENTRY:
	case LAT_EV_TIMER_EXIT:
		decode_irq(s, d, size, t, ev);
		break;
	case LAT_EV_MARKER:
		decode_marker(s, d, size, t, ev);
		break;
	case LAT_EV_STACK:
		decode_stack(s, d, size, t, ev);
		break;
	case LAT_EV_SETSCHED:
		/* the syscall's arguments, as unsigned longs */
		ev->u.setsched.pid = (int32_t)rd(s, d, &t->f[0]);
		ev->u.setsched.policy = (int32_t)rd(s, d, &t->f[1]);
		break;
	case LAT_EV_SETSCHED_EXIT:
		ev->u.setsched.ret = (int64_t)rd(s, d, &t->f[0]);
		break;
	default:
		break;
	}
}

/* Any record, any layout: the common fields by rd(), then the event's own. */
static __attribute__((noinline)) void decode_full(struct td_src *s, const struct td_rec *r,
						  struct lat_event *ev)
{
	const char *d = r->data;
	unsigned int size = r->size;
	struct td_ccache *cc = &s->cc[r->slot];
	const struct td_etype *t = NULL;
	int64_t id;

	ev->ts_ns = r->ts;
	ev->cpu = r->cpu;
	ev->type = LAT_EV_OTHER;
	ev->name = "unknown";
	ev->flags = 0;
	if (size < (uint32_t)s->ty.f_type.off + s->ty.f_type.size) {
		ev->pid = -1;
		ev->comm[0] = 0;
		return;
	}
	if (s->ty.f_flags.ok && size > s->ty.f_flags.off)
		ev->flags = lat_evf_from_common_flags((uint8_t)d[s->ty.f_flags.off]);
	id = rd(s, d, &s->ty.f_type);
	ev->pid = (int32_t)(size >= (uint32_t)s->ty.f_pid.off + s->ty.f_pid.size ?
			    rd(s, d, &s->ty.f_pid) : -1);
	comm_of(s, cc, ev->pid, ev->comm);
	if (id >= 0 && (uint64_t)id < s->ty.ntypes)
		t = s->ty.types[id];
	if (!t)
		return;
	ev->name = t->name;
	if (size < t->min_size)
		return;		/* too short for its format: passed on undecoded */
	ev->type = t->type;
	if (!t->hot)
		decode_fields(s, cc, d, size, t, ev);
	else if (t->type == LAT_EV_SWITCH)
		decode_switch_hot(s, cc, d, t, ev);
	else
		decode_wake_hot(d, t, ev);
}

/*
 * The hot case: a switch or wakeup (hot_shape()) whose record holds its
 * common fields and its format (min_size), read by direct loads; all else
 * goes to decode_full(), which gives the same result for these too.  Inline in
 * td_next() and td_next_batch().  Returns whether a batch ends after the event
 * (lat_event_batch_ends(): never for the hot ones).
 */
static inline __attribute__((always_inline)) int decode(struct td_src *s,
							 const struct td_rec *r,
							 struct lat_event *ev)
{
	const char *d = r->data;
	unsigned int size = r->size;
	struct td_ccache *cc;
	const struct td_etype *t;
	uint16_t id;

	if (size < s->ty.hot_hdr_min) {	/* or not hot_hdr */
		decode_full(s, r, ev);
		return lat_event_batch_ends(ev->type);
	}
	memcpy(&id, d + s->ty.f_type.off, 2);
	if (id >= s->ty.ntypes || !(t = s->ty.types[id]) || size < t->hot_min) {
		decode_full(s, r, ev);
		return lat_event_batch_ends(ev->type);
	}
	cc = &s->cc[r->slot];
	ev->ts_ns = r->ts;
	ev->cpu = r->cpu;
	ev->pid = ld_s32(d + s->ty.f_pid.off);
	ev->flags = lat_evf_from_common_flags((uint8_t)d[s->ty.f_flags.off]);	/* hot_hdr: ok */
	comm_of(s, cc, ev->pid, ev->comm);
	ev->type = t->type;
	ev->name = t->name;
	if (t->type == LAT_EV_SWITCH)
		decode_switch_hot(s, cc, d, t, ev);
	else
		decode_wake_hot(d, t, ev);
	return 0;
}


/* A lost-events mark of the walk: the count, 0 when unknown. */
static __attribute__((noinline)) int emit_lost(const struct td_rec *r, struct lat_event *ev)
{
	ev->ts_ns = r->ts;
	ev->cpu = r->cpu;
	ev->pid = -1;
	ev->comm[0] = 0;
	ev->type = LAT_EV_LOST;
	ev->name = "lost";
	ev->u.lost.count = r->lost;
	return 1;
}

/* td_next() at the end of the walk (or an error), or at a lost-events mark (@r->data NULL). */
static __attribute__((noinline)) int td_next_end(struct td_src *s, const struct td_rec *r,
						 struct lat_event *ev)
{
	if (!r)
		return td_walk_error(s->walk);
	return emit_lost(r, ev);
}

static int td_next(struct lat_event_source *base, struct lat_event *ev)
{
	struct td_src *s = (struct td_src *)base;
	const struct td_rec *r = td_walk_next(s->walk);

	if (__builtin_expect(!r || !r->data, 0))
		return td_next_end(s, r, ev);
	decode(s, r, ev);
	return 1;
}

/*
 * next_batch: td_next() @n times in one loop (no call and no prologue per
 * event).  The end or an error met after some events is kept for the next
 * call (end_pending): the walker is not asked twice past its end.
 */
static int td_next_batch(struct lat_event_source *base, struct lat_event *evs, int n)
{
	struct td_src *s = (struct td_src *)base;
	int i = 0;

	if (s->end_pending)
		return td_walk_error(s->walk);
	while (i < n) {
		const struct td_rec *r = td_walk_next(s->walk);
		struct lat_event *ev = &evs[i++];

		if (__builtin_expect(!r, 0)) {
			if (i == 1)
				return td_walk_error(s->walk);
			s->end_pending = 1;
			return i - 1;
		}
		if (__builtin_expect(!r->data, 0)) {
			emit_lost(r, ev);
			continue;
		}
		if (decode(s, r, ev))
			break;
	}
	return i;
}

static void td_free(struct lat_event_source *base)
{
	struct td_src *s = (struct td_src *)base;

	td_walk_free(s->walk);
	td_types_release(&s->ty);
	free(s->cc);
	free(s->overrun);
	free(s->ips);
	free(s->syms);
	if (s->f.fd >= 0)
		close(s->f.fd);
	td_file_release(&s->f);
	free(s);
}

static const struct lat_event_source_ops td_ops = { .next = td_next, .free = td_free,
						     .next_batch = td_next_batch };

/* Bytes of page data @b holds (its cpu table read if need be, quietly); 0 if none. */
static uint64_t buffer_bytes(struct td_src *s, struct td_buffer *b, const struct lat_diag *d)
{
	struct lat_diag quiet;
	uint64_t n = 0;

	lat_diag_init(&quiet, d->path, NULL);
	if (s->f.version < 7 && td_buffer_load_cpus(&s->f, b, &quiet) < 0)
		return 0;
	for (int i = 0; i < b->ncpus; i++)
		n += b->cpus[i].size;
	return n;
}

static struct td_buffer *pick_buffer(struct td_src *s, const char *want, struct lat_diag *d)
{
	struct td_file *f = &s->f;
	char list[512] = "";
	size_t used = 0;
	struct td_buffer *b = NULL;

	for (int i = 0; i < f->nbufs; i++) {
		int n = snprintf(list + used, sizeof(list) - used, "%s\"%s\"", i ? ", " : "",
				 f->bufs[i].name);

		if (n > 0 && (size_t)n < sizeof(list) - used)
			used += (size_t)n;
		if (want ? !strcmp(f->bufs[i].name, want) : !b && !f->bufs[i].name[0])
			b = &f->bufs[i];
	}
	if (!want && !b)
		b = &f->bufs[0];	/* no top buffer recorded: the first instance */
	if (!b) {
		lat_diag_at(d, 0, "no buffer \"%s\" in this trace.dat; it holds: %s", want, list);
		return NULL;
	}
	/* an empty top buffer beside instances that hold events: the first of those */
	if (!want && f->nbufs > 1 && !b->name[0] && !buffer_bytes(s, b, d))
		for (int i = 0; i < f->nbufs; i++)
			if (f->bufs[i].name[0] && buffer_bytes(s, &f->bufs[i], d)) {
				if (d->out)
					fprintf(d->out, "%s: note: the top buffer holds no events; "
						"reading \"%s\"\n", d->path, f->bufs[i].name);
				b = &f->bufs[i];
				break;
			}
	if (f->nbufs > 1 && d->out)
		fprintf(d->out, "%s: note: buffers in this file: %s; reading \"%s\" (--buffer NAME "
			"picks another)\n", d->path, list, b->name);
	return b;
}

/*
 * What the decoding keeps beside the walk: a comm cache per CPU slot, room
 * for a stack; and what the source tells of the CPUs (count, overruns).
 */
static int init_decode(struct td_src *s)
{
	const struct td_buffer *b = s->buf;
	int nslots = td_walk_slots(s->walk), maxcpu = -1;

	s->cc = calloc((size_t)nslots + 1, sizeof(*s->cc));
	s->ips_cap = b->page_size / (unsigned int)s->f.long_size;
	s->ips = calloc(s->ips_cap, sizeof(*s->ips));
	s->syms = calloc(s->ips_cap, sizeof(*s->syms));
	if (!s->cc || !s->ips || !s->syms)
		return -LAT_ENOMEM;
	s->ncc = nslots + 1;
	for (int i = 0; i < s->ncc; i++) {
		s->cc[i].pid = TD_CC_NONE;
		s->cc[i].comm = comm_unknown;
	}
	for (int i = 0; i < b->ncpus; i++)
		if (b->cpus[i].cpu > maxcpu)
			maxcpu = b->cpus[i].cpu;
	s->base.latscope_meta = s->f.latscope_meta;
	s->base.env = s->f.env.present ? &s->f.env : NULL;
	s->base.ncpus = maxcpu + 1 > s->f.ncpus_sys ? maxcpu + 1 : s->f.ncpus_sys;
	if (b->overrun && s->base.ncpus > 0) {
		s->overrun = calloc((size_t)s->base.ncpus, sizeof(*s->overrun));
		if (!s->overrun)
			return -LAT_ENOMEM;
		for (int i = 0; i < b->noverrun && i < s->base.ncpus; i++)
			s->overrun[i] = b->overrun[i];
		s->base.cpu_overrun = s->overrun;
	}
	return 0;
}

static int td_probe(const char *peek, size_t len)
{
	if (len < 12 || memcmp(peek, "\x17\x08\x44tracing", 10))
		return 0;
	/* the version is "6\0" or "7\0"; other versions are ours too, but unreadable */
	if ((peek[10] == '6' || peek[10] == '7') && !peek[11])
		return 100;
	return 60;
}

static int td_open(struct lat_input *in, struct lat_event_source **out, struct lat_diag *d)
{
	struct td_src *s;
	struct stat st;
	int ret;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -LAT_ENOMEM;
	s->base.ops = &td_ops;
	s->f.path = in->path;
	s->f.fd = -1;
	ret = -LAT_EIO;
	if (in->peek_consumed || fstat(fileno(in->fp), &st) < 0 || !S_ISREG(st.st_mode)) {
		lat_diag_at(d, 0, "trace.dat needs a seekable regular file");
		goto err;
	}
	/* our own descriptor: the source may outlive the caller's FILE */
	s->f.fd = dup(fileno(in->fp));
	if (s->f.fd < 0)
		goto err;
	s->f.fsize = (uint64_t)st.st_size;
	s->f.peek = in->peek;
	s->f.peeklen = in->peek ? in->peeklen : 0;
	td_arena_init(&s->f);
	ret = td_file_open(&s->f, d);
	if (ret < 0)
		goto err;
	ret = -LAT_EUSAGE;
	s->buf = pick_buffer(s, in->buffer, d);
	if (!s->buf)
		goto err;
	if (s->f.version < 7 && (ret = td_buffer_load_cpus(&s->f, s->buf, d)) < 0)
		goto err;
	ret = -LAT_ELIMIT;
	if (s->buf->page_size < 64 || s->buf->page_size > TD_MAX_PAGE)
		goto err;
	s->base.clock = s->buf->clock ? s->buf->clock : s->f.trace_clock;
	s->base.host = s->f.host;
	s->base.uname = s->f.uname;
	ret = td_types_build(&s->ty, &s->f);
	if (ret < 0) {
		lat_diag_at(d, 0, "trace.dat holds no usable event formats");
		goto err;
	}
	s->notes = (struct td_notes){ .stop_reason = &s->base.stop_reason,
				      .skip_reason = &s->base.skip_reason };
	ret = td_walk_open(&s->walk, &s->f, s->buf, &s->notes, 0);
	if (ret < 0)
		goto err;
	ret = init_decode(s);
	if (ret < 0)
		goto err;
	/* the peek is the caller's: gone once we return */
	s->f.peek = NULL;
	if (!td_walk_live(s->walk) && s->base.stop_reason) {
		lat_diag_at(d, 0, "no event readable: %s", s->base.stop_reason);
		ret = -LAT_ETRUNC;
		goto err;
	}
	*out = &s->base;
	return 0;
err:
	s->f.peek = NULL;
	td_free(&s->base);
	return ret;
}

const struct lat_format lat_format_tracedat = {
	.name = "trace.dat",
	.summary = "trace-cmd trace.dat v6 and v7 (zstd/zlib): scheduler event stream",
	.probe = td_probe,
	.magic = 1,
	.open_stream = td_open,
};
