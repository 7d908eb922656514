// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trace.dat: the per-CPU page streams and their merge.  Blocks of pages (or
 * decompressed chunks) are loaded per CPU, walked with kbuffer or with our
 * own loop where the layout is the host's, and the CPUs are merged on
 * (timestamp, cpu), the order trace-cmd report uses (tracedat_merge.h).
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <traceevent/kbuffer.h>

#include "tracedat_walk.h"

#define TD_READ_BYTES (256u << 10)	/* read buffers of all CPUs together: stays in cache */
#define TD_PAD 64		/* zeroed slack after page data: kbuffer may peek past commit */
#define TD_LOST_NONE (-2)

struct td_cpu {
	struct td_walk_cur cur;		/* its current record, its page for the fast walk */
	uint64_t pos, end;		/* file range still to read */
	uint64_t data_off;		/* where this CPU's data starts, for messages */
	uint32_t chunks_left;		/* compressed: chunks not yet read */
	uint64_t chunk_off;		/* compressed: file offset of the chunk in data */
	char *data, *cdata;
	size_t dlen, dpos, dcap, ccap;
	char *page;
	struct kbuffer *kbuf;		/* the portable walk */
	int64_t lost;			/* TD_LOST_NONE, -1 (count unknown) or a count */
	uint64_t resident;		/* compressed: chunk buffers held, <= w->res_cap */
	void **dctx;			/* compressed: the zstd context of its walking thread */
	int ready;			/* per CPU: cpu_init() found its data readable */
	struct td_note *notes;		/* per CPU: notes not taken yet (td_walk_cpu_notes) */
	int nnotes, notes_err;
	size_t notes_cap;
};

struct td_walk {
	struct td_walk_hot h;		/* first: td_walk_next() reads it inline */
	struct td_file *f;		/* lent */
	const struct td_buffer *buf;	/* lent */
	uint32_t psize;
	struct td_cpu *cpus;
	int ncpu;
	int advance;			/* cpu slot to step before the next record, -1 none */
	int fast;			/* our own page walk instead of kbuffer's */
	uint32_t read_pages;		/* pages per pread (uncompressed data) */
	char *rbuf;			/* the CPUs' read buffers in one mapping, or NULL */
	char *rbuf_arena;		/* or in the second half of f->arena */
	size_t rbuf_len;
	/*
	 * Page data one CPU may hold (chunk buffers): its share of TD_MAX_RESIDENT,
	 * so that what a CPU reads does not depend on how far the others got.
	 */
	uint64_t res_cap;
	struct td_rec mark;		/* the lost-events mark returned last */
	int err;			/* why td_walk_next() returned NULL, or 0 at the end */
	int per_cpu;			/* walked per CPU by the caller: notes kept per CPU */
	struct td_notes *notes;		/* the caller's */
};

void td_notes_stop(struct td_notes *n, const char *text)
{
	size_t used = strlen(n->stop);

	/* every CPU that stopped early is named, the first one first */
	if (used && used + 3 < sizeof(n->stop)) {
		memcpy(n->stop + used, "; ", 3);
		used += 2;
	}
	if (used + 1 >= sizeof(n->stop))
		return;
	snprintf(n->stop + used, sizeof(n->stop) - used, "%s", text);
	*n->stop_reason = n->stop;
}

void td_notes_skip(struct td_notes *n, const char *text)
{
	if (!n->skipped++)
		snprintf(n->skip_first, sizeof(n->skip_first), "%s", text);
	snprintf(n->skip, sizeof(n->skip), "%llu damaged page%s skipped, the first: %s",
		 (unsigned long long)n->skipped, n->skipped == 1 ? "" : "s", n->skip_first);
	*n->skip_reason = n->skip;
}

/* A note of CPU @c: to the walk's notes, or kept for the caller walking CPUs one by one. */
static void note(struct td_walk *w, struct td_cpu *c, int is_skip, const char *text)
{
	if (!w->per_cpu || !c) {
		if (is_skip)
			td_notes_skip(w->notes, text);
		else
			td_notes_stop(w->notes, text);
		return;
	}
	if (c->notes_err || lat_grow(&c->notes, &c->notes_cap, (size_t)c->nnotes + 1,
				     sizeof(*c->notes)) < 0 ||
	    !(c->notes[c->nnotes].text = strdup(text))) {
		c->notes_err = -LAT_ENOMEM;
		return;
	}
	c->notes[c->nnotes++].skip = is_skip;
}

/* Appends "where and why" of CPU @c (NULL: of the buffer) to the stop reason. */
static void __attribute__((format(printf, 3, 4))) set_stop(struct td_walk *w, struct td_cpu *c,
							   const char *fmt, ...)
{
	char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	note(w, c, 0, text);
}

/*
 * A damaged page (or the rest of one) is skipped, not the rest of the CPU: it
 * is counted in the source's skip_reason (the first one described), and the
 * CPU's next event is preceded by a lost-events mark of unknown count, so that
 * the analysis treats the hole as a gap.
 */
static void __attribute__((format(printf, 3, 4))) skip(struct td_walk *w, struct td_cpu *c,
						       const char *fmt, ...)
{
	char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	note(w, c, 1, text);
	c->lost = -1;
}

/* Loads the next block of pages (or chunk) of @c; 1 loaded, 0 end, <0 error. */
/* Uncompressed data: the next read_pages pages of the CPU straight from the file. */
static int refill_plain(struct td_walk *w, struct td_cpu *c)
{
	uint64_t n, avail;
	int ret;

	if (c->pos >= c->end)
		return 0;
	n = c->end - c->pos;
	if (n > (uint64_t)w->read_pages * w->psize)
		n = (uint64_t)w->read_pages * w->psize;
	avail = c->pos < w->f->fsize ? w->f->fsize - c->pos : 0;
	if (n > avail) {
		n = avail - avail % w->psize;
		if (w->f->fsize <= c->data_off)
			set_stop(w, c, "CPU%d data (offsets %llu to %llu) is past the "
				    "file's end at %llu", c->cur.r.cpu,
				    (unsigned long long)c->data_off,
				    (unsigned long long)c->end,
				    (unsigned long long)w->f->fsize);
		else
			set_stop(w, c, "CPU%d data ends at offset %llu of %llu "
				    "(the file ends there)", c->cur.r.cpu,
				    (unsigned long long)w->f->fsize,
				    (unsigned long long)c->end);
		c->end = c->pos + n;
		if (!n)
			return 0;
	}
	n -= n % w->psize;
	if (!n) {
		set_stop(w, c, "CPU%d data ends inside a page at offset %llu", c->cur.r.cpu,
			    (unsigned long long)c->end);
		return 0;
	}
	ret = td_pread(w->f, c->data, n, c->pos);
	if (ret < 0) {
		set_stop(w, c, "CPU%d: read at offset %llu failed: %s", c->cur.r.cpu,
			    (unsigned long long)c->pos, lat_strerror(ret));
		return 0;
	}
	c->pos += n;
	c->dlen = n;
	return 1;
}

/* Compressed data (v7): the CPU's next chunk, inflated. */
static int refill_chunk(struct td_walk *w, struct td_cpu *c)
{
	char h[8];
	uint32_t clen, ulen;
	int ret;

	if (!c->chunks_left)
		return 0;
	c->chunks_left--;
	if (c->pos + 8 > c->end || td_pread(w->f, h, 8, c->pos) < 0) {
		set_stop(w, c, "CPU%d data ends at offset %llu of %llu (chunk header)",
			    c->cur.r.cpu,
			    (unsigned long long)(c->pos < w->f->fsize ? c->pos : w->f->fsize),
			    (unsigned long long)c->end);
		return 0;
	}
	clen = td_get32(w->f->swap, h);
	ulen = td_get32(w->f->swap, h + 4);
	if (clen > TD_MAX_CHUNK || ulen > TD_MAX_CHUNK || ulen < w->psize ||
	    c->pos + 8 + clen > c->end) {
		set_stop(w, c, "CPU%d: bad chunk at offset %llu (%u -> %u bytes)", c->cur.r.cpu,
			    (unsigned long long)c->pos, clen, ulen);
		return 0;
	}
	/* chunks of every CPU are held at once: a file of tiny bombs stops here */
	if (clen > c->ccap && (c->resident += clen - c->ccap) > w->res_cap) {
		set_stop(w, c, "CPU%d: chunk at offset %llu would hold more than its "
			    "share (%llu MiB) of the 512 MiB of page data for all CPUs "
			    "(TD_MAX_RESIDENT)", c->cur.r.cpu, (unsigned long long)c->pos,
			    (unsigned long long)(w->res_cap >> 20));
		return 0;
	}
	if ((size_t)ulen + TD_PAD > c->dcap &&
	    (c->resident += (size_t)ulen + TD_PAD - c->dcap) > w->res_cap) {
		set_stop(w, c, "CPU%d: chunk at offset %llu inflates to %u bytes: more "
			    "than its share (%llu MiB) of the 512 MiB of page data for all CPUs "
			    "(TD_MAX_RESIDENT)", c->cur.r.cpu, (unsigned long long)c->pos, ulen,
			    (unsigned long long)(w->res_cap >> 20));
		return 0;
	}
	if (lat_grow(&c->cdata, &c->ccap, clen ? clen : 1, 1) < 0 ||
	    lat_grow(&c->data, &c->dcap, (size_t)ulen + TD_PAD, 1) < 0)
		return -LAT_ENOMEM;
	ret = td_pread(w->f, c->cdata, clen, c->pos + 8);
	if (ret < 0) {
		set_stop(w, c, "CPU%d data ends at offset %llu of %llu (inside a chunk)",
			    c->cur.r.cpu, (unsigned long long)w->f->fsize,
			    (unsigned long long)c->end);
		return 0;
	}
	if (td_decompress(w->f, c->dctx, c->cdata, clen, c->data, ulen) < 0) {
		set_stop(w, c, "CPU%d: chunk at offset %llu does not decompress", c->cur.r.cpu,
			    (unsigned long long)c->pos);
		return 0;
	}
	memset(c->data + ulen, 0, TD_PAD);
	c->chunk_off = c->pos;
	c->pos += 8 + (uint64_t)clen;
	c->dlen = ulen - ulen % w->psize;
	return 1;
}

/* The CPU's next stretch of page data into c->data: 1, 0 at its end (or a stop), or an error. */
static int refill(struct td_walk *w, struct td_cpu *c)
{
	c->dpos = 0;
	c->dlen = 0;
	return w->buf->compressed ? refill_chunk(w, c) : refill_plain(w, c);
}

static int rec_ok(struct td_walk *w, struct td_cpu *c)
{
	int sz = kbuffer_event_size(c->kbuf);
	const char *r = c->cur.r.data;

	if (sz < 0 || r < c->page || r + sz > c->page + w->psize)
		return 0;
	c->cur.r.size = (unsigned int)sz;
	return 1;
}

/*
 * The fast page walk (little-endian host and file, 8-byte longs, the ring
 * buffer format since 2.6.31), written from the kernel's ring-buffer event
 * layout: a 32-bit header with type_len in bits 0-4 and a time delta in bits
 * 5-31; type_len 1..28 is a data event of type_len * 4 bytes, 0 one whose
 * length (plus 4) is the next word, 29 padding, 30 a time extend (next word
 * << 27 added to the delta), 31 an absolute time stamp.  It gives the same
 * events and timestamps as kbuffer (checked in tests/e2e/test_tracedat.sh by
 * comparing both walks) without a call per event.  Every event is bounded by
 * the page's commit size.  Returns 1 with c->cur.r.data set, 0 at the end of the
 * page, -1 on a corrupt event.
 */
static int fast_next(struct td_cpu *c)
{
	while (c->cur.pcur < c->cur.psz) {
		const char *p = c->cur.pdata + c->cur.pcur;
		uint32_t h, tl, len, w;

		memcpy(&h, p, 4);
		tl = h & 31;
		if (tl != 31)
			c->cur.r.ts += h >> 5;
		if (tl >= 1 && tl <= 28) {
			len = tl * 4;
			if (len > c->cur.psz - c->cur.pcur - 4)
				return -1;
			c->cur.r.data = (void *)(p + 4);
			c->cur.r.size = len;
			c->cur.pcur += 4 + len;
			return 1;
		}
		if (c->cur.psz - c->cur.pcur < 8)
			return -1;
		memcpy(&w, p + 4, 4);
		switch (tl) {
		case 0:
			if (w < 4)
				return -1;
			len = (w - 4 + 3) & ~3u;
			if (len > c->cur.psz - c->cur.pcur - 8)
				return -1;
			c->cur.r.data = (void *)(p + 8);
			c->cur.r.size = len;
			c->cur.pcur += 8 + len;
			return 1;
		case 29:	/* padding: the word is its length after the header */
			if (w > c->cur.psz - c->cur.pcur - 4)
				return 0;
			c->cur.pcur += 4 + w;
			break;
		case 30:
			c->cur.r.ts += (uint64_t)w << 27;
			c->cur.pcur += 8;
			break;
		default:	/* 31: absolute, keeping the top 5 bits of the clock */
			c->cur.r.ts = ((((uint64_t)w << 27) + (h >> 5)) | (c->cur.r.ts & (0xf8ull << 56)));
			c->cur.pcur += 8;
			break;
		}
	}
	return 0;
}

/* Where the current page is, for messages: a file offset, or a chunk and a page in it. */
static const char *page_where(struct td_walk *w, struct td_cpu *c, char *buf, size_t len)
{
	if (w->buf->compressed)
		snprintf(buf, len, "page %zu of the chunk at offset %llu", c->dpos / w->psize - 1,
			 (unsigned long long)c->chunk_off);
	else
		snprintf(buf, len, "the page at offset %llu",
			 (unsigned long long)(c->pos - c->dlen + c->dpos - w->psize));
	return buf;
}

/* An event runs past its page's commit: the rest of the page is skipped. */
static void corrupt_event(struct td_walk *w, struct td_cpu *c)
{
	char at[96];

	skip(w, c, "CPU%d: corrupt event in %s", c->cur.r.cpu, page_where(w, c, at, sizeof(at)));
}

/*
 * Whether the page just taken (c->page, its header's time stamp @pts) is out
 * of the CPU's time order.  Pages of one CPU are written in time order, so a
 * page is out of order when it starts before the CPU's last event, or after
 * the next page when that one is in order and the page after it does not
 * agree with this one (one page stamped in the far future, not the next one
 * stamped in the past).  Only pages already read are looked at.
 */
static int page_out_of_order(const struct td_walk *w, const struct td_cpu *c, uint64_t pts)
{
	uint64_t nts;

	if (pts < c->cur.r.ts)
		return 1;
	if (c->dpos + w->psize > c->dlen)
		return 0;
	nts = td_get64(w->f->swap, c->data + c->dpos);
	if (pts <= nts || nts < c->cur.r.ts)
		return 0;
	return c->dpos + 2 * (size_t)w->psize > c->dlen ||
	       pts > td_get64(w->f->swap, c->data + c->dpos + w->psize);
}

/* Steps @c to its next page holding an event; 1 found, 0 end, <0 error. */
static int next_page(struct td_walk *w, struct td_cpu *c)
{
	unsigned int hdr = 8 + (unsigned int)w->f->long_size;
	unsigned long long ts;

	for (;;) {
		uint64_t commit, flags, pts;
		char at[96];
		int ret, missed;

		if (c->dpos + w->psize > c->dlen) {
			ret = refill(w, c);
			if (ret <= 0)
				return ret;
			continue;
		}
		c->page = c->data + c->dpos;
		c->dpos += w->psize;
		flags = w->f->long_size == 8 ? td_get64(w->f->swap, c->page + 8) :
					      td_get32(w->f->swap, c->page + 8);
		commit = flags & ((1u << 27) - 1);
		pts = td_get64(w->f->swap, c->page);
		if (commit > w->psize - hdr ||
		    (!w->fast && kbuffer_load_subbuffer(c->kbuf, c->page) < 0)) {
			skip(w, c, "CPU%d: corrupt page (commit %llu): %s", c->cur.r.cpu,
			     (unsigned long long)commit, page_where(w, c, at, sizeof(at)));
			continue;
		}
		if (page_out_of_order(w, c, pts)) {
			char t1[40], t2[40];

			skip(w, c, "CPU%d: page stamped %s, out of time order after %s: %s",
			     c->cur.r.cpu, lat_fmt_trace_ts(pts, t1, sizeof(t1)),
			     lat_fmt_trace_ts(c->cur.r.ts, t2, sizeof(t2)),
			     page_where(w, c, at, sizeof(at)));
			continue;
		}
		if (w->fast) {
			c->cur.pdata = c->page + hdr;
			c->cur.psz = (uint32_t)commit;
			c->cur.pcur = 0;
			c->cur.r.ts = pts;
			/* bit 31: events were lost before this page; bit 30: count after data */
			if ((flags & (1u << 31)) && c->lost != -1)
				c->lost = (flags & (1u << 30)) && commit + 8 <= w->psize - hdr ?
					(int64_t)td_get64(0, c->cur.pdata + commit) : -1;
			ret = fast_next(c);
			if (ret < 0)
				corrupt_event(w, c);
			if (ret > 0)
				return 1;
			continue;
		}
		missed = kbuffer_missed_events(c->kbuf);
		if (missed && c->lost != -1)
			c->lost = missed < 0 ? -1 : missed;
		c->cur.r.data = kbuffer_read_event(c->kbuf, &ts);
		if (!c->cur.r.data)
			continue;
		if (!rec_ok(w, c)) {
			corrupt_event(w, c);
			continue;
		}
		c->cur.r.ts = ts;
		return 1;
	}
}

/* Steps @c to its next event: 1 found, 0 end of this CPU (reason set if early), <0 error. */
static int step(struct td_walk *w, struct td_cpu *c)
{
	unsigned long long ts;
	int ret;

	if (w->fast) {
		ret = fast_next(c);
		if (ret > 0)
			return 1;
		if (ret < 0)
			corrupt_event(w, c);
		return next_page(w, c);
	}
	c->cur.r.data = kbuffer_next_event(c->kbuf, &ts);
	if (!c->cur.r.data)
		return next_page(w, c);
	if (!rec_ok(w, c)) {
		corrupt_event(w, c);
		return next_page(w, c);
	}
	c->cur.r.ts = ts;
	return 1;
}

/* step() after the fast walk's common case (td_cur_step()), inline in the caller. */
static inline int step_fast(struct td_walk *w, struct td_cpu *c)
{
	if (td_cur_step(&c->cur))
		return 1;
	return step(w, c);
}

/* The top CPU @c has a lost-events mark before its current record: returned first. */
static __attribute__((noinline)) const struct td_rec *mark_lost(struct td_walk *w,
								 struct td_cpu *c)
{
	w->advance = -1;
	w->h.hot = NULL;
	w->mark = c->cur.r;
	w->mark.data = NULL;
	w->mark.size = 0;
	w->mark.lost = c->lost > 0 ? (uint64_t)c->lost : 0;
	c->lost = TD_LOST_NONE;
	return &w->mark;
}

/* td_walk_next() when the top CPU cannot step in place (tracedat_walk.h). */
const struct td_rec *td_walk_next_slow(struct td_walk *w)
{
	struct td_cpu *c;

	w->h.hot = NULL;
	if (w->advance >= 0) {
		int ret;

		c = &w->cpus[w->advance];
		w->advance = -1;
		ret = w->fast ? step_fast(w, c) : step(w, c);
		/* the heap is only touched when the top CPU ended or another one is earlier */
		if (ret <= 0) {
			if (ret < 0) {
				w->err = ret;
				return NULL;
			}
			td_merge_fix(&w->h.m, 0, 0);
		} else if (td_merge_crossed(&w->h.m, c->cur.r.ts, c->cur.r.cpu)) {
			td_merge_fix(&w->h.m, 1, c->cur.r.ts);
		}
	}
	if (!w->h.m.n)
		return NULL;
	c = &w->cpus[w->h.m.h[0].slot];
	if (c->lost != TD_LOST_NONE)
		return mark_lost(w, c);
	w->advance = w->h.m.h[0].slot;
	if (w->fast)
		w->h.hot = &c->cur;
	return &c->cur.r;
}

/*
 * td_walk_next()'s case when the CPU stepped in place is no longer the
 * earliest (tracedat_walk.h): the merge is fixed and that CPU's pending
 * record (or its lost mark) comes next.
 */
const struct td_rec *td_walk_cross(struct td_walk *w)
{
	struct td_cpu *c;

	/* hot is the top CPU's cursor, stepped past the limit */
	td_merge_fix(&w->h.m, 1, w->h.hot->r.ts);
	c = &w->cpus[w->h.m.h[0].slot];
	w->advance = w->h.m.h[0].slot;
	w->h.hot = &c->cur;
	if (c->lost != TD_LOST_NONE)
		return mark_lost(w, c);
	return &c->cur.r;
}

/*
 * The read buffers of all CPUs (uncompressed data) in one mapping populated
 * up front: each page a process touches first costs a page fault, and
 * MAP_POPULATE makes the 64 pages of two CPUs' buffers in one call at about
 * half that per page (bench/README-tracedat.md, "Page faults").  Zeroed, as calloc()
 * gave them (the TD_PAD slack stays zero).  Under AddressSanitizer, and if
 * the mapping fails, each CPU callocs its own, which ASan bounds.
 */
static void map_read_bufs(struct td_walk *w, size_t stride)
{
#if !LAT_ASAN
	size_t n = 0, len;
	void *p;

	for (int i = 0; i < w->buf->ncpus; i++)
		n += w->buf->cpus[i].size != 0;
	if (!n || stride > SIZE_MAX / n)
		return;
	len = n * stride;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE,
		 -1, 0);
	if (p == MAP_FAILED)
		return;
	w->rbuf = p;
	w->rbuf_len = len;
#endif
}

/* How many pages a read takes, which walk, where the read buffers are. */
static int walk_setup(struct td_walk *w, size_t *stride)
{
	const struct td_buffer *b = w->buf;
	const char *kb;

	w->cpus = calloc((size_t)b->ncpus + 1, sizeof(*w->cpus));
	w->h.m.h = calloc((size_t)b->ncpus + 1, sizeof(*w->h.m.h));
	if (!w->cpus || !w->h.m.h)
		return -LAT_ENOMEM;
	/* a few MiB of read buffer in all, at least 4 pages per CPU */
	w->read_pages = TD_READ_BYTES / w->psize / (uint32_t)(b->ncpus ? b->ncpus : 1);
	if (w->read_pages < 4)
		w->read_pages = 4;
	/* our own walk where the layout is the host's; LATSCOPE_TRACEDAT_KBUFFER=1: kbuffer */
	kb = getenv("LATSCOPE_TRACEDAT_KBUFFER");
	w->fast = !w->f->swap && w->f->long_size == 8 && !tep_is_old_format(w->f->tep) &&
		  __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && !(kb && *kb && strcmp(kb, "0"));
	/* each CPU's buffer: read_pages pages and the pad, 64-byte aligned */
	*stride = ((size_t)w->read_pages * w->psize + TD_PAD + 63) & ~(size_t)63;
	if (!b->compressed && w->f->arena && (size_t)b->ncpus * *stride <= w->f->arena_len / 2)
		w->rbuf_arena = w->f->arena + w->f->arena_len / 2;
	else if (!b->compressed)
		map_read_bufs(w, *stride);
	return 0;
}

/*
 * CPU slot @c for descriptor @cd: its range, its kbuffer, its chunk count or
 * read buffer.  1 ready, 0 its data cannot be read (stop reason set), <0 error.
 */
static int cpu_init(struct td_walk *w, struct td_cpu *c, const struct td_cpu_desc *cd,
		    size_t stride)
{
	struct td_file *f = w->f;

	c->cur.r.cpu = cd->cpu;
	c->cur.r.slot = (int)(c - w->cpus);
	c->lost = TD_LOST_NONE;
	c->dctx = &f->zstd_dctx;
	c->data_off = cd->off;
	c->pos = cd->off;
	c->end = cd->off + cd->size < cd->off ? UINT64_MAX : cd->off + cd->size;
	c->kbuf = kbuffer_alloc(f->long_size == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
				f->bigendian ? KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE);
	if (!c->kbuf)
		return -LAT_ENOMEM;
	if (tep_is_old_format(f->tep))
		kbuffer_set_old_format(c->kbuf);
	if (w->buf->compressed) {
		char h[4];

		if (td_pread(f, h, 4, c->pos) < 0) {
			set_stop(w, c, "CPU%d data ends at offset %llu of %llu", c->cur.r.cpu,
				 (unsigned long long)f->fsize, (unsigned long long)c->end);
			return 0;
		}
		c->chunks_left = td_get32(f->swap, h);
		/* the recorded size counts the chunks, not the 4-byte chunk count */
		c->pos += 4;
		c->end = c->end > UINT64_MAX - 4 ? UINT64_MAX : c->end + 4;
		return 1;
	}
	c->dcap = (size_t)w->read_pages * w->psize + TD_PAD;
	c->data = w->rbuf_arena ? w->rbuf_arena + (size_t)c->cur.r.slot * stride :
		  w->rbuf ? w->rbuf + (size_t)c->cur.r.slot * stride : calloc(1, c->dcap);
	return c->data ? 1 : -LAT_ENOMEM;
}

int td_walk_open(struct td_walk **out, struct td_file *f, const struct td_buffer *b,
		 struct td_notes *notes, int per_cpu)
{
	struct td_walk *w = calloc(1, sizeof(*w));
	size_t stride;
	int ret = -LAT_ENOMEM, ndata = 0;

	*out = NULL;
	if (!w)
		return ret;
	w->f = f;
	w->buf = b;
	w->psize = b->page_size;
	w->advance = -1;
	w->notes = notes;
	w->per_cpu = per_cpu;
	/* at least 4 pages per CPU are read ahead: all of them must fit TD_MAX_RESIDENT */
	if ((uint64_t)b->ncpus * 4 * w->psize > TD_MAX_RESIDENT) {
		set_stop(w, NULL, "%d CPUs of %u-byte pages exceed the 512 MiB read cap "
			 "(TD_MAX_RESIDENT)", b->ncpus, w->psize);
		ret = 0;
		goto out;
	}
	for (int i = 0; i < b->ncpus; i++)
		ndata += b->cpus[i].size != 0;
	w->res_cap = TD_MAX_RESIDENT / (uint64_t)(ndata ? ndata : 1);
	ret = walk_setup(w, &stride);
	for (int i = 0; ret >= 0 && i < b->ncpus; i++) {
		struct td_cpu *c = &w->cpus[w->ncpu];

		if (!b->cpus[i].size)
			continue;
		w->ncpu++;
		ret = cpu_init(w, c, &b->cpus[i], stride);
		c->ready = ret > 0;
		if (ret > 0 && !per_cpu)
			ret = next_page(w, c);
		if (ret > 0 && !per_cpu)
			td_merge_push(&w->h.m, c->cur.r.ts, c->cur.r.cpu, w->ncpu - 1);
	}
	if (ret >= 0)
		td_merge_limit(&w->h.m);
out:
	if (ret < 0) {
		td_walk_free(w);
		return ret;
	}
	*out = w;
	return 0;
}

int td_walk_slots(const struct td_walk *w)
{
	return w->ncpu;
}

int td_walk_error(const struct td_walk *w)
{
	return w->err;
}

int td_walk_live(const struct td_walk *w)
{
	return w->h.m.n > 0;
}

int td_walk_cpu_start(struct td_walk *w, int slot, void **dctx)
{
	struct td_cpu *c = &w->cpus[slot];

	c->dctx = dctx;
	return c->ready ? next_page(w, c) : 0;
}

int td_walk_cpu_step(struct td_walk *w, int slot, void **dctx)
{
	struct td_cpu *c = &w->cpus[slot];

	c->dctx = dctx;
	return step(w, c);
}

struct td_walk_cur *td_walk_cpu_cur(struct td_walk *w, int slot)
{
	return &w->cpus[slot].cur;
}

int td_walk_fast(const struct td_walk *w)
{
	return w->fast;
}

int td_walk_cpu_lost(struct td_walk *w, int slot, uint64_t *count)
{
	struct td_cpu *c = &w->cpus[slot];

	if (c->lost == TD_LOST_NONE)
		return 0;
	*count = c->lost > 0 ? (uint64_t)c->lost : 0;
	c->lost = TD_LOST_NONE;
	return 1;
}

int td_walk_cpu_notes(struct td_walk *w, int slot, struct td_note **out)
{
	struct td_cpu *c = &w->cpus[slot];
	int n = c->nnotes;

	*out = NULL;
	if (c->notes_err)
		return c->notes_err;
	if (!n)
		return 0;
	*out = c->notes;
	c->notes = NULL;
	c->nnotes = 0;
	c->notes_cap = 0;
	return n;
}

void td_walk_free(struct td_walk *w)
{
	if (!w)
		return;
	for (int i = 0; i < w->ncpu; i++) {
		struct td_cpu *c = &w->cpus[i];

		if (!w->rbuf && !w->rbuf_arena)
			free(c->data);
		free(c->cdata);
		if (c->kbuf)
			kbuffer_free(c->kbuf);
		for (int k = 0; k < c->nnotes; k++)
			free(c->notes[k].text);
		free(c->notes);
	}
	if (w->rbuf)
		munmap(w->rbuf, w->rbuf_len);
	free(w->cpus);
	free(w->h.m.h);
	free(w);
}
