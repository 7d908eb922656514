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

#include "tracedat_par.h"

/* Any record td_decode_hot() declined: decoded, then finished; whether a batch ends after it. */
static __attribute__((noinline)) int decode_cold(struct td_src *s, const struct td_rec *r,
						 struct lat_event *ev)
{
	struct td_lend l = { .ips = s->ips };
	struct td_ccache *cc = &s->cc[r->slot];
	uint64_t aux = 0;
	int fl = td_decode_full(&s->dec, r, ev, &l, &aux);

	if (fl & TD_DEC_COMM)
		td_comm_of(s, cc, ev->pid, ev->comm);
	else
		ev->comm[0] = 0;
	if ((unsigned)ev->type < 32 && (TD_FINISH_TYPES & (1u << ev->type)))
		td_finish(s, cc, ev, fl, aux);
	return lat_event_batch_ends(ev->type);
}

/*
 * One record into @ev: the hot case (td_decode_hot()) and its comm inline in
 * td_next() and td_next_batch(), all else decode_cold().  Returns whether a
 * batch ends after the event (lat_event_batch_ends(): of the hot ones, softirqs).
 */
static inline __attribute__((always_inline)) int decode(struct td_src *s,
							 const struct td_rec *r,
							 struct lat_event *ev)
{
	const struct td_etype *t = td_decode_hot(&s->dec, r, ev);
	struct td_ccache *cc;

	if (!t)
		return decode_cold(s, r, ev);
	cc = &s->cc[r->slot];
	td_comm_of(s, cc, ev->pid, ev->comm);
	if (t->type == LAT_EV_SWITCH)
		td_switch_in(s, cc, ev->u.sw.next_pid, ev->u.sw.next_comm);
	/* a softirq lends nothing here, but the contract is by type (another source's may) */
	return __builtin_expect(t->type > LAT_EV_MIGRATE, 0) && lat_event_batch_ends(t->type);
}

/* A lost-events mark of the walk: the count, 0 when unknown. */
static __attribute__((noinline)) int emit_lost(const struct td_rec *r, struct lat_event *ev)
{
	td_decode_lost(r, r->lost, ev);
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

	td_par_free(s);		/* the workers first: they use the walk */
	td_walk_free(s->walk);
	td_types_release(&s->dec.ty);
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
/* the same source with its CPUs decoded by worker threads (tracedat_par.c) */
static const struct lat_event_source_ops td_par_ops = { .next = td_par_next, .free = td_free,
							 .next_batch = td_par_next_batch };

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
 * What the finishing keeps beside the walk: a comm cache per CPU slot, room
 * for a stack; and what the source tells of the CPUs (count, overruns).
 */
static int init_decode(struct td_src *s)
{
	const struct td_buffer *b = s->buf;
	int maxcpu = -1;

	if (td_finish_init(s, td_walk_slots(s->walk)) < 0)
		return -LAT_ENOMEM;
	for (int i = 0; i < b->ncpus; i++)
		if (b->cpus[i].cpu > maxcpu)
			maxcpu = b->cpus[i].cpu;
	s->base.latscope_meta = s->f.latscope_meta;
	s->base.env = s->f.env.present ? &s->f.env : NULL;
	s->base.tgids = s->f.latscope_meta ? &s->f.tgids : NULL;
	s->base.realtime_known = s->f.realtime_known;
	s->base.realtime_offset_ns = s->f.realtime_offset_ns;
	s->base.realtime_error_ns = s->f.realtime_error_ns;
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

/* The walk of the buffer, with @nworkers worker threads (0: one thread reads). */
static int open_walk(struct td_src *s, int nworkers)
{
	int ret;

	s->notes = (struct td_notes){ .stop_reason = &s->base.stop_reason,
				      .skip_reason = &s->base.skip_reason };
	ret = td_walk_open(&s->walk, &s->f, s->buf, &s->notes, nworkers > 0);
	if (ret < 0)
		return ret;
	if (!s->cc && (ret = init_decode(s)) < 0)
		return ret;
	if (!nworkers)
		return 0;
	ret = td_par_start(s, nworkers);
	if (ret != 1) {
		s->base.ops = &td_par_ops;
		return ret;
	}
	/* no thread could be made: one thread reads */
	td_par_free(s);
	td_walk_free(s->walk);
	s->walk = NULL;
	s->base.stop_reason = s->base.skip_reason = NULL;
	return open_walk(s, 0);
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
	ret = td_types_build(&s->dec.ty, &s->f);
	if (ret < 0) {
		lat_diag_at(d, 0, "trace.dat holds no usable event formats");
		goto err;
	}
	s->dec.swap = s->f.swap;
	s->dec.long_size = (unsigned int)s->f.long_size;
	/* the peek is the caller's, gone once we return; the page data is read from the file */
	s->f.peek = NULL;
	ret = open_walk(s, td_par_workers(s, in->jobs));
	if (ret < 0)
		goto err;
	if (!(s->par ? td_par_live(s) : td_walk_live(s->walk)) && s->base.stop_reason) {
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

const struct lat_format fmt_tracedat = {
	.name = "trace.dat",
	.summary = "trace-cmd trace.dat v6 and v7 (zstd/zlib): scheduler event stream",
	.probe = td_probe,
	.magic = 1,
	.open_stream = td_open,
};
