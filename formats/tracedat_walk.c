// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trace.dat: the per-CPU page streams and their merge.  Blocks of pages (or
 * decompressed chunks) are loaded per CPU, walked with kbuffer or with our
 * own loop where the layout is the host's, and the CPUs are merged with a
 * small heap on (timestamp, cpu), the order trace-cmd report uses.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tracedat_walk.h"

void td_set_stop(struct td_src *s, const char *fmt, ...)
{
	size_t used = strlen(s->stop);
	va_list ap;

	/* every CPU that stopped early is named, the first one first */
	if (used && used + 3 < sizeof(s->stop)) {
		memcpy(s->stop + used, "; ", 3);
		used += 2;
	}
	if (used + 1 >= sizeof(s->stop))
		return;
	va_start(ap, fmt);
	vsnprintf(s->stop + used, sizeof(s->stop) - used, fmt, ap);
	va_end(ap);
	s->base.stop_reason = s->stop;
}

/*
 * A damaged page (or the rest of one) is skipped, not the rest of the CPU: it
 * is counted in the source's skip_reason (the first one described), and the
 * CPU's next event is preceded by a lost-events mark of unknown count, so that
 * the analysis treats the hole as a gap.
 */
static void __attribute__((format(printf, 3, 4))) skip(struct td_src *s, struct td_cpu *c,
						       const char *fmt, ...)
{
	va_list ap;

	if (!s->skipped++) {
		va_start(ap, fmt);
		vsnprintf(s->skip_first, sizeof(s->skip_first), fmt, ap);
		va_end(ap);
	}
	snprintf(s->skip, sizeof(s->skip), "%llu damaged page%s skipped, the first: %s",
		 (unsigned long long)s->skipped, s->skipped == 1 ? "" : "s", s->skip_first);
	s->base.skip_reason = s->skip;
	c->lost = -1;
}

/* Loads the next block of pages (or chunk) of @c; 1 loaded, 0 end, <0 error. */
/* Uncompressed data: the next read_pages pages of the CPU straight from the file. */
static int refill_plain(struct td_src *s, struct td_cpu *c)
{
	uint64_t n, avail;
	int ret;

	if (c->pos >= c->end)
		return 0;
	n = c->end - c->pos;
	if (n > (uint64_t)s->read_pages * s->psize)
		n = (uint64_t)s->read_pages * s->psize;
	avail = c->pos < s->f.fsize ? s->f.fsize - c->pos : 0;
	if (n > avail) {
		n = avail - avail % s->psize;
		if (s->f.fsize <= c->data_off)
			td_set_stop(s, "CPU%d data (offsets %llu to %llu) is past the "
				    "file's end at %llu", c->cpu,
				    (unsigned long long)c->data_off,
				    (unsigned long long)c->end,
				    (unsigned long long)s->f.fsize);
		else
			td_set_stop(s, "CPU%d data ends at offset %llu of %llu "
				    "(the file ends there)", c->cpu,
				    (unsigned long long)s->f.fsize,
				    (unsigned long long)c->end);
		c->end = c->pos + n;
		if (!n)
			return 0;
	}
	n -= n % s->psize;
	if (!n) {
		td_set_stop(s, "CPU%d data ends inside a page at offset %llu", c->cpu,
			    (unsigned long long)c->end);
		return 0;
	}
	ret = td_pread(&s->f, c->data, n, c->pos);
	if (ret < 0) {
		td_set_stop(s, "CPU%d: read at offset %llu failed: %s", c->cpu,
			    (unsigned long long)c->pos, lat_strerror(ret));
		return 0;
	}
	c->pos += n;
	c->dlen = n;
	return 1;
}

/* Compressed data (v7): the CPU's next chunk, inflated. */
static int refill_chunk(struct td_src *s, struct td_cpu *c)
{
	char h[8];
	uint32_t clen, ulen;
	int ret;

	if (!c->chunks_left)
		return 0;
	c->chunks_left--;
	if (c->pos + 8 > c->end || td_pread(&s->f, h, 8, c->pos) < 0) {
		td_set_stop(s, "CPU%d data ends at offset %llu of %llu (chunk header)",
			    c->cpu,
			    (unsigned long long)(c->pos < s->f.fsize ? c->pos : s->f.fsize),
			    (unsigned long long)c->end);
		return 0;
	}
	clen = td_get32(s->f.swap, h);
	ulen = td_get32(s->f.swap, h + 4);
	if (clen > TD_MAX_CHUNK || ulen > TD_MAX_CHUNK || ulen < s->psize ||
	    c->pos + 8 + clen > c->end) {
		td_set_stop(s, "CPU%d: bad chunk at offset %llu (%u -> %u bytes)", c->cpu,
			    (unsigned long long)c->pos, clen, ulen);
		return 0;
	}
	/* chunks of every CPU are held at once: a file of tiny bombs stops here */
	if (clen > c->ccap && (s->resident += clen - c->ccap) > TD_MAX_RESIDENT) {
		td_set_stop(s, "CPU%d: chunk at offset %llu would hold more than "
			    "512 MiB of page data for all CPUs (TD_MAX_RESIDENT)", c->cpu,
			    (unsigned long long)c->pos);
		return 0;
	}
	if ((size_t)ulen + TD_PAD > c->dcap &&
	    (s->resident += (size_t)ulen + TD_PAD - c->dcap) > TD_MAX_RESIDENT) {
		td_set_stop(s, "CPU%d: chunk at offset %llu inflates to %u bytes: more "
			    "than 512 MiB of page data for all CPUs (TD_MAX_RESIDENT)",
			    c->cpu, (unsigned long long)c->pos, ulen);
		return 0;
	}
	if (lat_grow(&c->cdata, &c->ccap, clen ? clen : 1, 1) < 0 ||
	    lat_grow(&c->data, &c->dcap, (size_t)ulen + TD_PAD, 1) < 0)
		return -LAT_ENOMEM;
	ret = td_pread(&s->f, c->cdata, clen, c->pos + 8);
	if (ret < 0) {
		td_set_stop(s, "CPU%d data ends at offset %llu of %llu (inside a chunk)",
			    c->cpu, (unsigned long long)s->f.fsize,
			    (unsigned long long)c->end);
		return 0;
	}
	if (td_decompress(&s->f, c->cdata, clen, c->data, ulen) < 0) {
		td_set_stop(s, "CPU%d: chunk at offset %llu does not decompress", c->cpu,
			    (unsigned long long)c->pos);
		return 0;
	}
	memset(c->data + ulen, 0, TD_PAD);
	c->chunk_off = c->pos;
	c->pos += 8 + (uint64_t)clen;
	c->dlen = ulen - ulen % s->psize;
	return 1;
}

/* The CPU's next stretch of page data into c->data: 1, 0 at its end (or a stop), or an error. */
static int refill(struct td_src *s, struct td_cpu *c)
{
	c->dpos = 0;
	c->dlen = 0;
	return s->buf->compressed ? refill_chunk(s, c) : refill_plain(s, c);
}

static int rec_ok(struct td_src *s, struct td_cpu *c)
{
	int sz = kbuffer_event_size(c->kbuf);
	const char *r = c->rec;

	if (sz < 0 || r < c->page || r + sz > c->page + s->psize)
		return 0;
	c->rec_size = (unsigned int)sz;
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
 * the page's commit size.  Returns 1 with c->rec set, 0 at the end of the
 * page, -1 on a corrupt event.
 */
static int fast_next(struct td_cpu *c)
{
	while (c->pcur < c->psz) {
		const char *p = c->pdata + c->pcur;
		uint32_t h, tl, len, w;

		memcpy(&h, p, 4);
		tl = h & 31;
		if (tl != 31)
			c->ts += h >> 5;
		if (tl >= 1 && tl <= 28) {
			len = tl * 4;
			if (len > c->psz - c->pcur - 4)
				return -1;
			c->rec = (void *)(p + 4);
			c->rec_size = len;
			c->pcur += 4 + len;
			return 1;
		}
		if (c->psz - c->pcur < 8)
			return -1;
		memcpy(&w, p + 4, 4);
		switch (tl) {
		case 0:
			if (w < 4)
				return -1;
			len = (w - 4 + 3) & ~3u;
			if (len > c->psz - c->pcur - 8)
				return -1;
			c->rec = (void *)(p + 8);
			c->rec_size = len;
			c->pcur += 8 + len;
			return 1;
		case 29:	/* padding: the word is its length after the header */
			if (w > c->psz - c->pcur - 4)
				return 0;
			c->pcur += 4 + w;
			break;
		case 30:
			c->ts += (uint64_t)w << 27;
			c->pcur += 8;
			break;
		default:	/* 31: absolute, keeping the top 5 bits of the clock */
			c->ts = ((((uint64_t)w << 27) + (h >> 5)) | (c->ts & (0xf8ull << 56)));
			c->pcur += 8;
			break;
		}
	}
	return 0;
}

/* Where the current page is, for messages: a file offset, or a chunk and a page in it. */
static const char *page_where(struct td_src *s, struct td_cpu *c, char *buf, size_t len)
{
	if (s->buf->compressed)
		snprintf(buf, len, "page %zu of the chunk at offset %llu", c->dpos / s->psize - 1,
			 (unsigned long long)c->chunk_off);
	else
		snprintf(buf, len, "the page at offset %llu",
			 (unsigned long long)(c->pos - c->dlen + c->dpos - s->psize));
	return buf;
}

/* An event runs past its page's commit: the rest of the page is skipped. */
static void corrupt_event(struct td_src *s, struct td_cpu *c)
{
	char w[96];

	skip(s, c, "CPU%d: corrupt event in %s", c->cpu, page_where(s, c, w, sizeof(w)));
}

/*
 * Whether the page just taken (c->page, its header's time stamp @pts) is out
 * of the CPU's time order.  Pages of one CPU are written in time order, so a
 * page is out of order when it starts before the CPU's last event, or after
 * the next page when that one is in order and the page after it does not
 * agree with this one (one page stamped in the far future, not the next one
 * stamped in the past).  Only pages already read are looked at.
 */
static int page_out_of_order(const struct td_src *s, const struct td_cpu *c, uint64_t pts)
{
	uint64_t nts;

	if (pts < c->ts)
		return 1;
	if (c->dpos + s->psize > c->dlen)
		return 0;
	nts = td_get64(s->f.swap, c->data + c->dpos);
	if (pts <= nts || nts < c->ts)
		return 0;
	return c->dpos + 2 * (size_t)s->psize > c->dlen ||
	       pts > td_get64(s->f.swap, c->data + c->dpos + s->psize);
}

/* Steps @c to its next page holding an event; 1 found, 0 end, <0 error. */
int td_next_page(struct td_src *s, struct td_cpu *c)
{
	unsigned int hdr = 8 + (unsigned int)s->f.long_size;
	unsigned long long ts;

	for (;;) {
		uint64_t commit, flags, pts;
		char w[96];
		int ret, missed;

		if (c->dpos + s->psize > c->dlen) {
			ret = refill(s, c);
			if (ret <= 0)
				return ret;
			continue;
		}
		c->page = c->data + c->dpos;
		c->dpos += s->psize;
		flags = s->f.long_size == 8 ? td_get64(s->f.swap, c->page + 8) :
					      td_get32(s->f.swap, c->page + 8);
		commit = flags & ((1u << 27) - 1);
		pts = td_get64(s->f.swap, c->page);
		if (commit > s->psize - hdr ||
		    (!s->fast && kbuffer_load_subbuffer(c->kbuf, c->page) < 0)) {
			skip(s, c, "CPU%d: corrupt page (commit %llu): %s", c->cpu,
			     (unsigned long long)commit, page_where(s, c, w, sizeof(w)));
			continue;
		}
		if (page_out_of_order(s, c, pts)) {
			char t1[40], t2[40];

			skip(s, c, "CPU%d: page stamped %s, out of time order after %s: %s",
			     c->cpu, lat_fmt_trace_ts(pts, t1, sizeof(t1)),
			     lat_fmt_trace_ts(c->ts, t2, sizeof(t2)),
			     page_where(s, c, w, sizeof(w)));
			continue;
		}
		if (s->fast) {
			c->pdata = c->page + hdr;
			c->psz = (uint32_t)commit;
			c->pcur = 0;
			c->ts = pts;
			/* bit 31: events were lost before this page; bit 30: count after data */
			if ((flags & (1u << 31)) && c->lost != -1)
				c->lost = (flags & (1u << 30)) && commit + 8 <= s->psize - hdr ?
					(int64_t)td_get64(0, c->pdata + commit) : -1;
			ret = fast_next(c);
			if (ret < 0)
				corrupt_event(s, c);
			if (ret > 0)
				return 1;
			continue;
		}
		missed = kbuffer_missed_events(c->kbuf);
		if (missed && c->lost != -1)
			c->lost = missed < 0 ? -1 : missed;
		c->rec = kbuffer_read_event(c->kbuf, &ts);
		if (!c->rec)
			continue;
		if (!rec_ok(s, c)) {
			corrupt_event(s, c);
			continue;
		}
		c->ts = ts;
		return 1;
	}
}

int td_step(struct td_src *s, struct td_cpu *c)
{
	unsigned long long ts;
	int ret;

	if (s->fast) {
		ret = fast_next(c);
		if (ret > 0)
			return 1;
		if (ret < 0)
			corrupt_event(s, c);
		return td_next_page(s, c);
	}
	c->rec = kbuffer_next_event(c->kbuf, &ts);
	if (!c->rec)
		return td_next_page(s, c);
	if (!rec_ok(s, c)) {
		corrupt_event(s, c);
		return td_next_page(s, c);
	}
	c->ts = ts;
	return 1;
}

void td_heap_down(struct td_src *s, int i)
{
	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = i, t;

		if (l < s->nheap && td_heap_less(s, s->heap[l], s->heap[m]))
			m = l;
		if (r < s->nheap && td_heap_less(s, s->heap[r], s->heap[m]))
			m = r;
		if (m == i)
			return;
		t = s->heap[i];
		s->heap[i] = s->heap[m];
		s->heap[m] = t;
		i = m;
	}
}

void td_heap_push(struct td_src *s, int slot)
{
	int i = s->nheap++;

	s->heap[i] = slot;
	while (i && td_heap_less(s, s->heap[i], s->heap[(i - 1) / 2])) {
		int p = (i - 1) / 2, t = s->heap[p];

		s->heap[p] = s->heap[i];
		s->heap[i] = t;
		i = p;
	}
}

void td_merge_limit(struct td_src *s)
{
	s->lim_ts = UINT64_MAX;
	s->lim_cpu = INT_MAX;
	/* the earliest after the top is one of its two children */
	for (int i = 1; i < 3 && i < s->nheap; i++) {
		const struct td_cpu *c = &s->cpus[s->heap[i]];

		if (c->ts < s->lim_ts || (c->ts == s->lim_ts && c->cpu < s->lim_cpu)) {
			s->lim_ts = c->ts;
			s->lim_cpu = c->cpu;
		}
	}
}

int td_merge_fix(struct td_src *s, int ret)
{
	if (ret < 0)
		return ret;
	if (ret && s->nheap == 2) {
		/* two CPUs, the other one now earlier: they trade places */
		const struct td_cpu *c = &s->cpus[s->heap[0]];

		s->heap[0] = s->heap[1];
		s->heap[1] = (int)(c - s->cpus);
		s->lim_ts = c->ts;
		s->lim_cpu = c->cpu;
		return 0;
	}
	if (!ret)
		s->heap[0] = s->heap[--s->nheap];
	td_heap_down(s, 0);
	td_merge_limit(s);
	return 0;
}
