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
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracedat_walk.h"

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
static void comm_cache_fill(struct td_src *s, struct td_cpu *cpu, int32_t pid, const char *c)
{
	cpu->ccomm = pid == 0 ? comm_idle : c ? c : comm_unknown;
	cpu->cpid = pid;
	cpu->cgen = s->f.comms.gen;
}

/* The comm of @pid, through a one-entry cache per CPU (runs of events share a pid). */
static inline void comm_of(struct td_src *s, struct td_cpu *cpu, int32_t pid, char *dst)
{
	if (pid != cpu->cpid || cpu->cgen != s->f.comms.gen)
		comm_cache_fill(s, cpu, pid, pid ? td_comm_get(&s->f.comms, pid) : NULL);
	memcpy(dst, cpu->ccomm, LAT_COMM_LEN);
}

/* Learns a comm the saved cmdlines did not have (short-lived tasks). */
static void learn_comm(struct td_src *s, int32_t pid, const char *comm)
{
	if (pid > 0 && comm[0] && !td_comm_get(&s->f.comms, pid))
		td_comm_set(&s->f.comms, pid, comm, strlen(comm));
}

/*
 * A switch to @pid on @cpu: learns its comm as learn_comm() does and, with
 * the same table lookup, fills the CPU's comm cache with it, since the events
 * that follow on this CPU are that task's.
 */
static void switch_in(struct td_src *s, struct td_cpu *cpu, int32_t pid, const char *comm)
{
	const char *c = NULL;

	if (pid > 0) {
		c = td_comm_get(&s->f.comms, pid);
		if (!c && comm[0] && td_comm_set(&s->f.comms, pid, comm, strlen(comm)) == 0)
			c = td_comm_get(&s->f.comms, pid);
	}
	if (pid >= 0)
		comm_cache_fill(s, cpu, pid, c);
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
static inline void decode_switch_hot(struct td_src *s, struct td_cpu *c, const char *d,
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
	switch_in(s, c, ev->u.sw.next_pid, ev->u.sw.next_comm);
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

/* Any record, any layout: the common fields by rd(), then the event's own. */
static __attribute__((noinline)) void decode_full(struct td_src *s, struct td_cpu *c,
						  struct lat_event *ev)
{
	const char *d = c->rec;
	unsigned int size = c->rec_size;
	const struct td_etype *t = NULL;
	size_t len;
	int64_t id;

	ev->ts_ns = c->ts;
	ev->cpu = c->cpu;
	ev->type = LAT_EV_OTHER;
	ev->name = "unknown";
	ev->flags = 0;
	if (size < (uint32_t)s->f_type.off + s->f_type.size) {
		ev->pid = -1;
		ev->comm[0] = 0;
		return;
	}
	if (s->f_flags.ok && size > s->f_flags.off)
		ev->flags = lat_evf_from_common_flags((uint8_t)d[s->f_flags.off]);
	id = rd(s, d, &s->f_type);
	ev->pid = (int32_t)(size >= (uint32_t)s->f_pid.off + s->f_pid.size ?
			    rd(s, d, &s->f_pid) : -1);
	comm_of(s, c, ev->pid, ev->comm);
	if (id >= 0 && (uint64_t)id < s->ntypes)
		t = s->types[id];
	if (!t)
		return;
	ev->name = t->name;
	if (size < t->min_size)
		return;		/* too short for its format: passed on undecoded */
	ev->type = t->type;
	if (t->hot) {
		if (t->type == LAT_EV_SWITCH)
			decode_switch_hot(s, c, d, t, ev);
		else
			decode_wake_hot(d, t, ev);
		return;
	}
	switch (t->type) {
	case LAT_EV_SWITCH: {
		int64_t st = rd(s, d, &t->f[3]);

		rd_comm(s, ev->u.sw.prev_comm, d, size, &t->f[0]);
		ev->u.sw.prev_pid = (int32_t)rd(s, d, &t->f[1]);
		ev->u.sw.prev_prio = (int32_t)rd(s, d, &t->f[2]);
		ev->u.sw.prev_state_raw = (uint32_t)st;
		rd_comm(s, ev->u.sw.next_comm, d, size, &t->f[4]);
		ev->u.sw.next_pid = (int32_t)rd(s, d, &t->f[5]);
		ev->u.sw.next_prio = (int32_t)rd(s, d, &t->f[6]);
		ev->u.sw.prev_state = lat_task_state_from_bits((uint32_t)st);
		switch_in(s, c, ev->u.sw.next_pid, ev->u.sw.next_comm);
		break;
	}
	case LAT_EV_WAKING:
	case LAT_EV_WAKEUP:
	case LAT_EV_WAKEUP_NEW:
		rd_comm(s, ev->u.wake.comm, d, size, &t->f[0]);
		ev->u.wake.pid = (int32_t)rd(s, d, &t->f[1]);
		ev->u.wake.prio = (int32_t)rd(s, d, &t->f[2]);
		ev->u.wake.target_cpu = (int32_t)rd(s, d, &t->f[3]);
		break;
	case LAT_EV_MIGRATE:
		rd_comm(s, ev->u.migrate.comm, d, size, &t->f[0]);
		ev->u.migrate.pid = (int32_t)rd(s, d, &t->f[1]);
		ev->u.migrate.prio = (int32_t)rd(s, d, &t->f[2]);
		ev->u.migrate.orig_cpu = (int32_t)rd(s, d, &t->f[3]);
		ev->u.migrate.dest_cpu = (int32_t)rd(s, d, &t->f[4]);
		break;
	case LAT_EV_FORK:
		rd_comm(s, ev->u.task.comm, d, size, &t->f[0]);
		ev->u.task.pid = (int32_t)rd(s, d, &t->f[1]);
		rd_comm(s, ev->u.task.child_comm, d, size, &t->f[2]);
		ev->u.task.child_pid = (int32_t)rd(s, d, &t->f[3]);
		learn_comm(s, ev->u.task.child_pid, ev->u.task.child_comm);
		break;
	case LAT_EV_EXEC: {
		const char *fn = rd_dyn(s, d, size, &t->f[0], &len), *b;

		ev->u.task.pid = (int32_t)rd(s, d, &t->f[1]);
		ev->u.task.child_pid = -1;
		ev->u.task.child_comm[0] = 0;
		ev->u.task.comm[0] = 0;
		if (fn) {
			/* the new comm is the file's basename, as the kernel sets it */
			b = memrchr(fn, '/', len);
			b = b ? b + 1 : fn;
			len -= (size_t)(b - fn);
			if (len > LAT_COMM_LEN - 1)
				len = LAT_COMM_LEN - 1;
			memcpy(ev->u.task.comm, b, len);
			ev->u.task.comm[len] = 0;
			if (len)
				td_comm_set(&s->f.comms, ev->u.task.pid, b, len);
		}
		break;
	}
	case LAT_EV_EXIT:
		rd_comm(s, ev->u.task.comm, d, size, &t->f[0]);
		ev->u.task.pid = (int32_t)rd(s, d, &t->f[1]);
		ev->u.task.child_pid = -1;
		ev->u.task.child_comm[0] = 0;
		break;
	case LAT_EV_IRQ_ENTRY:
	case LAT_EV_IRQ_EXIT:
		ev->u.irq.irq = (int32_t)rd(s, d, &t->f[0]);
		ev->u.irq.ret = t->type == LAT_EV_IRQ_EXIT ? (int32_t)rd(s, d, &t->f[1]) : 0;
		ev->u.irq.name = NULL;
		if (t->type == LAT_EV_IRQ_ENTRY) {
			/* the name is NUL-terminated inside the record (checked by rd_dyn) */
			const char *nm = rd_dyn(s, d, size, &t->f[1], &len);

			if (nm && len < size - (size_t)(nm - d) && !nm[len])
				ev->u.irq.name = nm;
		}
		break;
	case LAT_EV_SOFTIRQ_ENTRY:
	case LAT_EV_SOFTIRQ_EXIT:
		ev->u.irq.irq = (int32_t)rd(s, d, &t->f[0]);
		ev->u.irq.ret = 0;
		ev->u.irq.name = ev->u.irq.irq >= 0 &&
			(size_t)ev->u.irq.irq < LAT_ARRAY_SIZE(softirq_names) ?
			softirq_names[ev->u.irq.irq] : NULL;
		break;
	case LAT_EV_TIMER_ENTRY:
	case LAT_EV_TIMER_EXIT:
		ev->u.irq.irq = -1;
		ev->u.irq.ret = 0;
		ev->u.irq.name = NULL;
		/* the callback's address, named from the file's kallsyms */
		if (t->type == LAT_EV_TIMER_ENTRY && !t->f[0].dyn &&
		    t->f[0].size == (uint16_t)s->f.long_size && td_load_kallsyms(&s->f) == 0)
			ev->u.irq.name = tep_find_function(s->f.tep,
							   (unsigned long long)rd(s, d, &t->f[0]));
		break;
	case LAT_EV_MARKER: {
		const char *txt = d + t->f[0].off;

		len = strnlen(txt, size - t->f[0].off);
		while (len && (txt[len - 1] == '\n'))
			len--;
		ev->u.marker.text = txt;
		ev->u.marker.len = len;
		break;
	}
	case LAT_EV_STACK:
		decode_stack(s, d, size, t, ev);
		break;
	default:
		break;
	}
}

/*
 * The hot case inline: a switch or wakeup (hot_shape()) whose record holds
 * its common fields and its format (min_size), read by direct loads; all
 * else goes to decode_full(), which gives the same result for these too.
 */
static inline void decode(struct td_src *s, struct td_cpu *c, struct lat_event *ev)
{
	const char *d = c->rec;
	unsigned int size = c->rec_size;
	const struct td_etype *t;
	uint16_t id;

	if (!s->hot_hdr || size < s->hdr_end) {
		decode_full(s, c, ev);
		return;
	}
	memcpy(&id, d + s->f_type.off, 2);
	if (id >= s->ntypes || !(t = s->types[id]) || size < t->hot_min) {
		decode_full(s, c, ev);
		return;
	}
	ev->ts_ns = c->ts;
	ev->cpu = c->cpu;
	ev->pid = ld_s32(d + s->f_pid.off);
	ev->flags = s->f_flags.ok ? lat_evf_from_common_flags((uint8_t)d[s->f_flags.off]) : 0;
	comm_of(s, c, ev->pid, ev->comm);
	ev->type = t->type;
	ev->name = t->name;
	if (t->type == LAT_EV_SWITCH)
		decode_switch_hot(s, c, d, t, ev);
	else
		decode_wake_hot(d, t, ev);
}


/* The top CPU @c has a lost-events mark before its current record: returned first. */
static __attribute__((noinline)) int emit_lost(struct td_src *s, struct td_cpu *c,
					       struct lat_event *ev)
{
	s->advance = -1;
	s->hot = NULL;
	ev->ts_ns = c->ts;
	ev->cpu = c->cpu;
	ev->pid = -1;
	ev->comm[0] = 0;
	ev->type = LAT_EV_LOST;
	ev->name = "lost";
	ev->u.lost.count = c->lost > 0 ? (uint64_t)c->lost : 0;
	c->lost = TD_LOST_NONE;
	return 1;
}

static __attribute__((noinline)) int td_next_slow(struct td_src *s, struct lat_event *ev)
{
	struct td_cpu *c;

	s->hot = NULL;
	if (s->advance >= 0) {
		int ret;

		c = &s->cpus[s->advance];
		s->advance = -1;
		ret = s->fast ? td_step_fast(s, c) : td_step(s, c);
		/* the heap is only touched when the top CPU ended or another one is earlier */
		if (ret <= 0 || s->lim_ts < c->ts || (s->lim_ts == c->ts && s->lim_cpu < c->cpu)) {
			ret = td_merge_fix(s, ret);
			if (ret < 0)
				return ret;
		}
	}
	if (!s->nheap)
		return 0;
	c = &s->cpus[s->heap[0]];
	if (c->lost != TD_LOST_NONE)
		return emit_lost(s, c, ev);
	decode(s, c, ev);
	s->advance = s->heap[0];
	if (s->fast)
		s->hot = c;
	return 1;
}

/*
 * The next event: stepped in place when the top CPU's next record is a plain
 * data event in the same page (no lost mark can be pending on that CPU:
 * next_page() sets those, and they are returned before the page's first
 * record); when that makes another CPU the earliest, the merge is fixed and
 * that CPU's pending record (or its lost mark) comes next.  td_next_slow()
 * for everything else.
 */
static int td_next(struct lat_event_source *base, struct lat_event *ev)
{
	struct td_src *s = (struct td_src *)base;
	struct td_cpu *c = s->hot;

	if (c) {
		/* as td_step_fast(), but nothing changes unless the event is taken */
		uint32_t left = c->psz - c->pcur, h, tl;
		const char *p = c->pdata + c->pcur;
		uint64_t ts;

		if (left >= 4) {
			memcpy(&h, p, 4);
			tl = h & 31;
			ts = c->ts + (h >> 5);
			if (tl - 1 < 28 && tl * 4 <= left - 4) {
				c->ts = ts;
				c->rec = (void *)(p + 4);
				c->rec_size = tl * 4;
				c->pcur += 4 + tl * 4;
				if (s->lim_ts < ts || (s->lim_ts == ts && s->lim_cpu < c->cpu)) {
					td_merge_fix(s, 1);
					c = &s->cpus[s->heap[0]];
					s->advance = s->heap[0];
					s->hot = c;
					if (c->lost != TD_LOST_NONE)
						return emit_lost(s, c, ev);
				}
				decode(s, c, ev);
				return 1;
			}
		}
	}
	return td_next_slow(s, ev);
}

static void td_free(struct lat_event_source *base)
{
	struct td_src *s = (struct td_src *)base;

	for (int i = 0; i < s->ncpu; i++) {
		if (!s->rbuf && !s->rbuf_arena)
			free(s->cpus[i].data);
		free(s->cpus[i].cdata);
		if (s->cpus[i].kbuf)
			kbuffer_free(s->cpus[i].kbuf);
	}
	for (size_t i = 0; i < s->ntypes; i++) {
		if (s->types[i])
			free(s->types[i]->name);
		free(s->types[i]);
	}
	free(s->types);
	if (s->rbuf)
		munmap(s->rbuf, s->rbuf_len);
	free(s->cpus);
	free(s->heap);
	free(s->overrun);
	free(s->ips);
	free(s->syms);
	if (s->f.fd >= 0)
		close(s->f.fd);
	td_file_release(&s->f);
	free(s);
}

static const struct lat_event_source_ops td_ops = { .next = td_next, .free = td_free };

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
 * The read buffers of all CPUs (uncompressed data) in one mapping populated
 * up front: each page a process touches first costs a page fault, and
 * MAP_POPULATE makes the 64 pages of two CPUs' buffers in one call at about
 * half that per page (bench/README-tracedat.md, "Page faults").  Zeroed, as calloc()
 * gave them (the TD_PAD slack stays zero).  Under AddressSanitizer, and if
 * the mapping fails, each CPU callocs its own, which ASan bounds.
 */
static void map_read_bufs(struct td_src *s, size_t stride)
{
#ifndef __SANITIZE_ADDRESS__
	size_t n = 0, len;
	void *p;

	for (int i = 0; i < s->buf->ncpus; i++)
		n += s->buf->cpus[i].size != 0;
	if (!n || stride > SIZE_MAX / n)
		return;
	len = n * stride;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE,
		 -1, 0);
	if (p == MAP_FAILED)
		return;
	s->rbuf = p;
	s->rbuf_len = len;
#endif
}

static int init_cpus(struct td_src *s)
{
	struct td_buffer *b = s->buf;
	const char *kb;
	size_t stride;
	int maxcpu = -1;

	/* at least 4 pages per CPU are read ahead: all of them must fit TD_MAX_RESIDENT */
	if ((uint64_t)b->ncpus * 4 * s->psize > TD_MAX_RESIDENT) {
		td_set_stop(s, "%d CPUs of %u-byte pages exceed the 512 MiB read cap "
			    "(TD_MAX_RESIDENT)", b->ncpus, s->psize);
		return 0;
	}
	s->cpus = calloc((size_t)b->ncpus + 1, sizeof(*s->cpus));
	s->heap = calloc((size_t)b->ncpus + 1, sizeof(*s->heap));
	s->ips_cap = s->psize / (unsigned int)s->f.long_size;
	/* a few MiB of read buffer in all, at least 4 pages per CPU */
	s->read_pages = TD_READ_BYTES / s->psize / (uint32_t)(b->ncpus ? b->ncpus : 1);
	if (s->read_pages < 4)
		s->read_pages = 4;
	/* our own walk where the layout is the host's; LATSCOPE_TRACEDAT_KBUFFER=1: kbuffer */
	kb = getenv("LATSCOPE_TRACEDAT_KBUFFER");
	s->fast = !s->f.swap && s->f.long_size == 8 && !tep_is_old_format(s->f.tep) &&
		  __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && !(kb && *kb && strcmp(kb, "0"));
	s->ips = calloc(s->ips_cap, sizeof(*s->ips));
	s->syms = calloc(s->ips_cap, sizeof(*s->syms));
	if (!s->cpus || !s->heap || !s->ips || !s->syms)
		return -LAT_ENOMEM;
	/* each CPU's buffer: read_pages pages and the pad, 64-byte aligned */
	stride = ((size_t)s->read_pages * s->psize + TD_PAD + 63) & ~(size_t)63;
	if (!b->compressed && s->f.arena && (size_t)b->ncpus * stride <= s->f.arena_len / 2)
		s->rbuf_arena = s->f.arena + s->f.arena_len / 2;
	else if (!b->compressed)
		map_read_bufs(s, stride);
	for (int i = 0; i < b->ncpus; i++) {
		const struct td_cpu_desc *cd = &b->cpus[i];
		struct td_cpu *c = &s->cpus[s->ncpu];
		int ret;

		if (cd->cpu > maxcpu)
			maxcpu = cd->cpu;
		if (!cd->size)
			continue;
		s->ncpu++;
		c->cpu = cd->cpu;
		c->lost = TD_LOST_NONE;
		c->cpid = -2;
		c->ccomm = comm_unknown;
		c->data_off = cd->off;
		c->pos = cd->off;
		c->end = cd->off + cd->size < cd->off ? UINT64_MAX : cd->off + cd->size;
		c->kbuf = kbuffer_alloc(s->f.long_size == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
					s->f.bigendian ? KBUFFER_ENDIAN_BIG :
							 KBUFFER_ENDIAN_LITTLE);
		if (!c->kbuf)
			return -LAT_ENOMEM;
		if (tep_is_old_format(s->f.tep))
			kbuffer_set_old_format(c->kbuf);
		if (b->compressed) {
			char h[4];

			if (td_pread(&s->f, h, 4, c->pos) < 0) {
				td_set_stop(s, "CPU%d data ends at offset %llu of %llu", c->cpu,
					    (unsigned long long)s->f.fsize,
					    (unsigned long long)c->end);
				continue;
			}
			c->chunks_left = td_get32(s->f.swap, h);
			/* the recorded size counts the chunks, not the 4-byte chunk count */
			c->pos += 4;
			c->end = c->end > UINT64_MAX - 4 ? UINT64_MAX : c->end + 4;
		} else {
			c->dcap = (size_t)s->read_pages * s->psize + TD_PAD;
			c->data = s->rbuf_arena ? s->rbuf_arena + (size_t)(s->ncpu - 1) * stride :
				  s->rbuf ? s->rbuf + (size_t)(s->ncpu - 1) * stride :
					    calloc(1, c->dcap);
			if (!c->data)
				return -LAT_ENOMEM;
		}
		ret = td_next_page(s, c);
		if (ret < 0)
			return ret;
		if (ret)
			td_heap_push(s, s->ncpu - 1);
	}
	td_merge_limit(s);
	s->base.latscope_meta = s->f.latscope_meta;
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
	s->advance = -1;
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
	s->psize = s->buf->page_size;
	ret = -LAT_ELIMIT;
	if (s->psize < 64 || s->psize > TD_MAX_PAGE)
		goto err;
	s->base.clock = s->buf->clock ? s->buf->clock : s->f.trace_clock;
	s->base.host = s->f.host;
	s->base.uname = s->f.uname;
	ret = td_build_types(s);
	if (ret < 0) {
		lat_diag_at(d, 0, "trace.dat holds no usable event formats");
		goto err;
	}
	ret = init_cpus(s);
	if (ret < 0)
		goto err;
	/* the peek is the caller's: gone once we return */
	s->f.peek = NULL;
	if (!s->nheap && s->stop[0]) {
		lat_diag_at(d, 0, "no event readable: %s", s->stop);
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
	.open_stream = td_open,
};
