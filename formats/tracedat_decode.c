// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trace.dat event decoding of any type and layout (tracedat_decode.h): fields
 * read at the offsets looked up once per event type (tracedat_types.c), every
 * read bounded by the record.
 */
#include "tracedat_decode.h"

static const char *const softirq_names[] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER",
	"RCU",
};

static inline int64_t rd(const struct td_dec *dc, const char *d, const struct td_fld *f)
{
	const char *p = d + f->off;

	if (!f->ok)
		return -1;
	switch (f->size) {
	case 1:
		return f->sign ? (int8_t)*p : (uint8_t)*p;
	case 2:
		return f->sign ? (int16_t)td_get16(dc->swap, p) : td_get16(dc->swap, p);
	case 4:
		return f->sign ? (int64_t)(int32_t)td_get32(dc->swap, p) :
				 (int64_t)td_get32(dc->swap, p);
	case 8:
		return (int64_t)td_get64(dc->swap, p);
	default:
		return -1;
	}
}

/* A __data_loc / __rel_loc string, bounded by the record; NULL when out of bounds. */
static const char *rd_dyn(const struct td_dec *dc, const char *d, unsigned int size,
			  const struct td_fld *f, size_t *len)
{
	uint32_t v, off, l;

	if (!f->ok || !f->dyn || f->size != 4)
		return NULL;
	v = td_get32(dc->swap, d + f->off);
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
static void rd_comm(const struct td_dec *dc, char *dst, const char *d, unsigned int size,
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
		p = rd_dyn(dc, d, size, f, &n);
	/* zeros after the name: the analysis compares comms as whole words (wk_comm_differs) */
	memset(dst, 0, LAT_COMM_LEN);
	if (!f->ok || !p)
		return;
	n = strnlen(p, n < LAT_COMM_LEN - 1 ? n : LAT_COMM_LEN - 1);
	memcpy(dst, p, n);
}

/* @n bytes at @s as the event lends them: @s itself, or a copy that outlives the record. */
static const char *lend_bytes(struct td_lend *l, const char *s, size_t n)
{
	char *q;

	if (!l->copy)
		return s;
	q = l->p + l->used;
	memcpy(q, s, n);
	l->used += n;
	return q;
}

static void decode_stack(const struct td_dec *dc, const char *d, unsigned int size,
			 const struct td_etype *t, struct lat_event *ev, struct td_lend *l)
{
	int64_t want = rd(dc, d, &t->f[0]);
	uint32_t off = t->f[1].off, depth = 0;
	unsigned int ls = dc->long_size;
	uint64_t avail = off <= size ? (uint64_t)(size - off) / ls : 0, *ips = l->ips;

	if (want < 0 || (uint64_t)want > avail)
		want = (int64_t)avail;
	if ((size_t)want > dc->ips_cap)
		want = (int64_t)dc->ips_cap;
	if (l->copy) {
		l->used = (l->used + 7) & ~(size_t)7;
		ips = (uint64_t *)(void *)(l->p + l->used);
	}
	for (int64_t i = 0; i < want; i++) {
		const char *p = d + off + (size_t)i * ls;
		uint64_t ip = ls == 8 ? td_get64(dc->swap, p) : td_get32(dc->swap, p);

		/* older kernels end the list with ULONG_MAX */
		if (ip == (ls == 8 ? UINT64_MAX : UINT32_MAX) || !ip)
			break;
		ips[depth++] = ip;
	}
	if (l->copy)
		l->used += depth * sizeof(*ips);
	ev->u.stack.ips = ips;
	ev->u.stack.depth = depth;
	ev->u.stack.syms = NULL;
}

/* sched_switch of any layout. */
static void decode_switch(const struct td_dec *dc, const char *d, unsigned int size,
			  const struct td_etype *t, struct lat_event *ev)
{
	int64_t st = rd(dc, d, &t->f[3]);

	rd_comm(dc, ev->u.sw.prev_comm, d, size, &t->f[0]);
	ev->u.sw.prev_pid = (int32_t)rd(dc, d, &t->f[1]);
	ev->u.sw.prev_prio = (int32_t)rd(dc, d, &t->f[2]);
	ev->u.sw.prev_state_raw = (uint32_t)st;
	rd_comm(dc, ev->u.sw.next_comm, d, size, &t->f[4]);
	ev->u.sw.next_pid = (int32_t)rd(dc, d, &t->f[5]);
	ev->u.sw.next_prio = (int32_t)rd(dc, d, &t->f[6]);
	ev->u.sw.prev_state = lat_task_state_from_bits((uint32_t)st);
}

/* The wakeups and sched_migrate_task of any layout. */
static void decode_wake_migrate(const struct td_dec *dc, const char *d, unsigned int size,
				const struct td_etype *t, struct lat_event *ev)
{
	if (t->type != LAT_EV_MIGRATE) {
		rd_comm(dc, ev->u.wake.comm, d, size, &t->f[0]);
		ev->u.wake.pid = (int32_t)rd(dc, d, &t->f[1]);
		ev->u.wake.prio = (int32_t)rd(dc, d, &t->f[2]);
		ev->u.wake.target_cpu = (int32_t)rd(dc, d, &t->f[3]);
		return;
	}
	rd_comm(dc, ev->u.migrate.comm, d, size, &t->f[0]);
	ev->u.migrate.pid = (int32_t)rd(dc, d, &t->f[1]);
	ev->u.migrate.prio = (int32_t)rd(dc, d, &t->f[2]);
	ev->u.migrate.orig_cpu = (int32_t)rd(dc, d, &t->f[3]);
	ev->u.migrate.dest_cpu = (int32_t)rd(dc, d, &t->f[4]);
}

/* sched_process_exec: the new comm is the file's basename, as the kernel sets it. */
static void decode_exec(const struct td_dec *dc, const char *d, unsigned int size,
			const struct td_etype *t, struct lat_event *ev)
{
	size_t len;
	const char *fn = rd_dyn(dc, d, size, &t->f[0], &len), *b;

	ev->u.task.pid = (int32_t)rd(dc, d, &t->f[1]);
	ev->u.task.child_pid = -1;
	ev->u.task.child_comm[0] = 0;
	memset(ev->u.task.comm, 0, LAT_COMM_LEN);	/* zeros after the name, as rd_comm() */
	if (!fn)
		return;
	b = memrchr(fn, '/', len);
	b = b ? b + 1 : fn;
	len -= (size_t)(b - fn);
	if (len > LAT_COMM_LEN - 1)
		len = LAT_COMM_LEN - 1;
	memcpy(ev->u.task.comm, b, len);	/* no NUL inside: rd_dyn() measured fn */
}

/* sched_process_fork / exec / exit. */
static void decode_task(const struct td_dec *dc, const char *d, unsigned int size,
			const struct td_etype *t, struct lat_event *ev)
{
	if (t->type == LAT_EV_EXEC) {
		decode_exec(dc, d, size, t, ev);
		return;
	}
	rd_comm(dc, ev->u.task.comm, d, size, &t->f[0]);
	ev->u.task.pid = (int32_t)rd(dc, d, &t->f[1]);
	if (t->type == LAT_EV_EXIT) {
		ev->u.task.child_pid = -1;
		ev->u.task.child_comm[0] = 0;
		return;
	}
	rd_comm(dc, ev->u.task.child_comm, d, size, &t->f[2]);
	ev->u.task.child_pid = (int32_t)rd(dc, d, &t->f[3]);
}

/* irq handlers and softirqs: the number and a name where one is known. */
static int decode_irq(const struct td_dec *dc, const char *d, unsigned int size,
		      const struct td_etype *t, struct lat_event *ev, struct td_lend *l)
{
	const char *nm;
	size_t len;

	ev->u.irq.irq = (int32_t)rd(dc, d, &t->f[0]);
	ev->u.irq.ret = 0;
	ev->u.irq.name = NULL;
	switch (t->type) {
	case LAT_EV_IRQ_ENTRY:
		/* the name is NUL-terminated inside the record (checked by rd_dyn) */
		nm = rd_dyn(dc, d, size, &t->f[1], &len);
		if (nm && len < size - (size_t)(nm - d) && !nm[len])
			ev->u.irq.name = lend_bytes(l, nm, len + 1);
		return 0;
	case LAT_EV_IRQ_EXIT:
		ev->u.irq.ret = (int32_t)rd(dc, d, &t->f[1]);
		return 0;
	default:	/* softirqs */
		ev->u.irq.name = ev->u.irq.irq >= 0 &&
			(size_t)ev->u.irq.irq < LAT_ARRAY_SIZE(softirq_names) ?
			softirq_names[ev->u.irq.irq] : NULL;
		return 0;
	}
}

/* What decode_wake_migrate() and decode_irq() read, by direct loads (hot_shape()). */
void td_decode_rare_hot(const char *p, const struct td_etype *t, struct lat_event *ev)
{
	int32_t vec;

	if (t->type == LAT_EV_MIGRATE) {
		td_ld_comm(ev->u.migrate.comm, p + t->f[0].off);
		ev->u.migrate.pid = td_ld_s32(p + t->f[1].off);
		ev->u.migrate.prio = td_ld_s32(p + t->f[2].off);
		ev->u.migrate.orig_cpu = td_ld_s32(p + t->f[3].off);
		ev->u.migrate.dest_cpu = td_ld_s32(p + t->f[4].off);
		return;
	}
	vec = td_ld_s32(p + t->f[0].off);	/* softirq entry / exit */
	ev->u.irq.irq = vec;
	ev->u.irq.ret = 0;
	ev->u.irq.name = vec >= 0 && (size_t)vec < LAT_ARRAY_SIZE(softirq_names) ?
			 softirq_names[vec] : NULL;
}

/* A 64-bit field of a timer event, LAT_TIMER_UNKNOWN when its format has none. */
static int64_t rd_timer(const struct td_dec *dc, const char *d, const struct td_fld *f)
{
	return f->ok && !f->dyn && f->size == 8 ? (int64_t)td_get64(dc->swap, d + f->off) :
						 LAT_TIMER_UNKNOWN;
}

/*
 * hrtimer events: the timer's address, its expiry (start) or clock (entry).
 * Fields as in the known table: function, hrtimer, then now (entry) or
 * expires, softexpires (start); exit and cancel have the hrtimer alone.  The
 * callback's address is named by the finishing (TD_DEC_SYM).
 */
static int decode_timer(const struct td_dec *dc, const char *d, const struct td_etype *t,
			struct lat_event *ev, uint64_t *aux)
{
	int own = t->type == LAT_EV_TIMER_ENTRY || t->type == LAT_EV_TIMER_START;
	const struct td_fld *fh = &t->f[own ? 1 : 0];

	ev->u.timer.irq = -1;
	ev->u.timer.ret = 0;
	ev->u.timer.name = NULL;
	ev->u.timer.hrtimer = fh->ok && !fh->dyn && (fh->size == 4 || fh->size == 8) ?
			      (uint64_t)rd(dc, d, fh) : 0;
	ev->u.timer.expires = t->type == LAT_EV_TIMER_START ? rd_timer(dc, d, &t->f[2]) :
			      LAT_TIMER_UNKNOWN;
	ev->u.timer.softexpires = t->type == LAT_EV_TIMER_START ? rd_timer(dc, d, &t->f[3]) :
				  LAT_TIMER_UNKNOWN;
	ev->u.timer.now = t->type == LAT_EV_TIMER_ENTRY ? rd_timer(dc, d, &t->f[2]) :
			  LAT_TIMER_UNKNOWN;
	if (!own || t->f[0].dyn || t->f[0].size != (uint16_t)dc->long_size)
		return 0;
	*aux = (uint64_t)rd(dc, d, &t->f[0]);
	return TD_DEC_SYM;
}

/* trace_marker text, its trailing newlines dropped. */
static void decode_marker(const char *d, unsigned int size, const struct td_etype *t,
			  struct lat_event *ev, struct td_lend *l)
{
	const char *txt = d + t->f[0].off;
	size_t len = strnlen(txt, size - t->f[0].off);

	while (len && (txt[len - 1] == '\n'))
		len--;
	ev->u.marker.text = lend_bytes(l, txt, len);
	ev->u.marker.len = len;
	ev->u.marker.steal = NULL;	/* parsed by the finishing (td_finish()) */
}

/* A known event's own fields, any layout; returns TD_DEC_SYM or 0. */
static int decode_fields(const struct td_dec *dc, const char *d, unsigned int size,
			 const struct td_etype *t, struct lat_event *ev, struct td_lend *l,
			 uint64_t *aux)
{
	switch (t->type) {
	case LAT_EV_SWITCH:
		decode_switch(dc, d, size, t, ev);
		return 0;
	case LAT_EV_WAKING:
	case LAT_EV_WAKEUP:
	case LAT_EV_WAKEUP_NEW:
	case LAT_EV_MIGRATE:
		decode_wake_migrate(dc, d, size, t, ev);
		return 0;
	case LAT_EV_FORK:
	case LAT_EV_EXEC:
	case LAT_EV_EXIT:
		decode_task(dc, d, size, t, ev);
		return 0;
	case LAT_EV_IRQ_ENTRY:
	case LAT_EV_IRQ_EXIT:
	case LAT_EV_SOFTIRQ_ENTRY:
	case LAT_EV_SOFTIRQ_EXIT:
		return decode_irq(dc, d, size, t, ev, l);
	case LAT_EV_TIMER_ENTRY:
	case LAT_EV_TIMER_EXIT:
	case LAT_EV_TIMER_START:
	case LAT_EV_TIMER_CANCEL:
		return decode_timer(dc, d, t, ev, aux);
	case LAT_EV_MARKER:
		decode_marker(d, size, t, ev, l);
		return 0;
	case LAT_EV_STACK:
		decode_stack(dc, d, size, t, ev, l);
		return 0;
	case LAT_EV_SETSCHED:
		/* the syscall's arguments, as unsigned longs */
		ev->u.setsched.pid = (int32_t)rd(dc, d, &t->f[0]);
		ev->u.setsched.policy = (int32_t)rd(dc, d, &t->f[1]);
		return 0;
	case LAT_EV_SETSCHED_EXIT:
		ev->u.setsched.ret = (int64_t)rd(dc, d, &t->f[0]);
		return 0;
	default:
		return 0;
	}
}

int td_decode_full(const struct td_dec *dc, const struct td_rec *r, struct lat_event *ev,
		   struct td_lend *l, uint64_t *aux)
{
	const char *d = r->data;
	unsigned int size = r->size;
	const struct td_types *ty = &dc->ty;
	const struct td_etype *t = NULL;
	int64_t id;

	ev->ts_ns = r->ts;
	ev->cpu = r->cpu;
	ev->type = LAT_EV_OTHER;
	ev->name = "unknown";
	ev->flags = 0;
	if (size < (uint32_t)ty->f_type.off + ty->f_type.size) {
		ev->pid = -1;
		return 0;
	}
	if (ty->f_flags.ok && size > ty->f_flags.off)
		ev->flags = lat_evf_from_common_flags((uint8_t)d[ty->f_flags.off]);
	id = rd(dc, d, &ty->f_type);
	ev->pid = (int32_t)(size >= (uint32_t)ty->f_pid.off + ty->f_pid.size ?
			    rd(dc, d, &ty->f_pid) : -1);
	if (id >= 0 && (uint64_t)id < ty->ntypes)
		t = ty->types[id];
	if (!t)
		return TD_DEC_COMM;
	ev->name = t->name;
	if (size < t->min_size)
		return TD_DEC_COMM;	/* too short for its format: passed on undecoded */
	ev->type = t->type;
	if (!t->hot)
		return TD_DEC_COMM | decode_fields(dc, d, size, t, ev, l, aux);
	td_decode_hot_fields(d, t, ev);
	return TD_DEC_COMM;
}
