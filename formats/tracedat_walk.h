/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace.dat reader, private to tracedat.c (decoding, open), tracedat_types.c
 * (event types) and tracedat_walk.c (per-CPU page blocks and chunks, the
 * page walks, the merge heap).
 */
#ifndef LATSCOPE_FORMATS_TRACEDAT_WALK_H
#define LATSCOPE_FORMATS_TRACEDAT_WALK_H

#include <traceevent/kbuffer.h>

#include "tracedat.h"

#define TD_READ_BYTES (256u << 10)	/* read buffers of all CPUs together: stays in cache */
#define TD_PAD 64		/* zeroed slack after page data: kbuffer may peek past commit */
#define TD_LOST_NONE (-2)

struct td_fld {
	uint16_t off, size;
	uint8_t ok, sign, dyn, rel;
};

#define TD_NFLD 7		/* fields read of one event type */

struct td_etype {
	enum lat_ev_type type;
	char *name;			/* "system:event" */
	uint32_t min_size;		/* records shorter than this are not decoded */
	int hot;			/* fields have the shapes decode_switch/wake_hot() read */
	uint32_t hot_min;		/* min_size if hot, else UINT32_MAX: one test */
	struct td_fld f[TD_NFLD];
};

struct td_cpu {
	int cpu;
	uint64_t pos, end;		/* file range still to read */
	uint64_t data_off;		/* where this CPU's data starts, for messages */
	uint32_t chunks_left;		/* compressed: chunks not yet read */
	uint64_t chunk_off;		/* compressed: file offset of the chunk in data */
	char *data, *cdata;
	size_t dlen, dpos, dcap, ccap;
	char *page;
	struct kbuffer *kbuf;		/* the portable walk */
	const char *pdata;		/* the fast walk: page data, commit size, offset */
	uint32_t psz, pcur;
	void *rec;
	unsigned int rec_size;
	int32_t cpid;			/* comm cache: pid, its comm, comms.gen when filled */
	uint32_t cgen;
	const char *ccomm;		/* LAT_COMM_LEN bytes */
	uint64_t ts;
	int64_t lost;			/* TD_LOST_NONE, -1 (count unknown) or a count */
};

struct td_src {
	struct lat_event_source base;
	struct td_file f;
	struct td_buffer *buf;
	uint32_t psize;
	struct td_etype **types;	/* by event id */
	size_t ntypes;
	struct td_fld f_type, f_pid, f_flags;	/* f_flags: common_flags, 1 byte */
	int hot_hdr;			/* common_type / common_pid read by direct loads */
	uint32_t hdr_end;		/* records at least this long hold both */
	struct td_cpu *cpus;
	int ncpu;
	int *heap;
	int nheap;
	/*
	 * (timestamp, cpu) of the earliest CPU after the top one: while the top
	 * stays before it, the next event is the top's again and the heap is
	 * left alone (UINT64_MAX, INT_MAX when the top is alone).
	 */
	uint64_t lim_ts;
	int lim_cpu;
	int advance;			/* cpu slot to step before the next event, -1 none */
	struct td_cpu *hot;		/* that slot when td_next() may step it in place */
	int fast;			/* our own page walk instead of kbuffer's */
	uint32_t read_pages;		/* pages per pread (uncompressed data) */
	char *rbuf;			/* the CPUs' read buffers in one mapping, or NULL */
	char *rbuf_arena;		/* or in the second half of f.arena */
	size_t rbuf_len;
	uint64_t resident;		/* page data held for all CPUs, <= TD_MAX_RESIDENT */
	uint64_t *overrun;
	uint64_t *ips;
	const char **syms;
	size_t ips_cap;
	char stop[512];
	uint64_t skipped;		/* pages (or their rest) skipped as damaged */
	char skip_first[256];		/* the first one: where and why */
	char skip[320];			/* base.skip_reason */
};

/*
 * Fills s->types (by event id) and the common header fields from the file's
 * formats (tracedat_types.c); 0 or a negative lat_err.
 */
int td_build_types(struct td_src *s);

/* Appends "where and why" to the stop reason (every CPU that stopped early is named). */
void td_set_stop(struct td_src *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Steps @c to its next page holding an event; 1 found, 0 end, <0 error. */
int td_next_page(struct td_src *s, struct td_cpu *c);

/* Steps @c to its next event: 1 found, 0 end of this CPU (reason set if early), <0 error. */
int td_step(struct td_src *s, struct td_cpu *c);

/*
 * The fast walk's common case, inline in the caller: a data event of
 * type_len 1..28 that ends inside the page's commit.  Anything else (long
 * events, time extends and stamps, padding, the end of the page, a record
 * crossing the commit) is left untouched for td_step(), which walks it the
 * same way fast_next() always did.  Only with s->fast.
 */
static inline int td_step_fast(struct td_src *s, struct td_cpu *c)
{
	/* c->pcur <= c->psz always: every step is bounded by the commit */
	uint32_t left = c->psz - c->pcur, h, tl;
	const char *p = c->pdata + c->pcur;

	if (left >= 4) {
		__builtin_memcpy(&h, p, 4);
		tl = h & 31;
		if (tl - 1 < 28 && tl * 4 <= left - 4) {
			c->ts += h >> 5;
			c->rec = (void *)(p + 4);
			c->rec_size = tl * 4;
			c->pcur += 4 + tl * 4;
			return 1;
		}
	}
	return td_step(s, c);
}

/* The merge heap of CPU slots on (timestamp, cpu). */
static inline int td_heap_less(const struct td_src *s, int a, int b)
{
	const struct td_cpu *x = &s->cpus[a], *y = &s->cpus[b];

	return x->ts < y->ts || (x->ts == y->ts && x->cpu < y->cpu);
}

void td_heap_down(struct td_src *s, int i);
void td_heap_push(struct td_src *s, int slot);

/* Notes the earliest CPU below the heap's top in lim_ts / lim_cpu. */
void td_merge_limit(struct td_src *s);

/*
 * After the top CPU stepped with result @ret (td_step()), when it ended or
 * is no longer the earliest (lim_ts / lim_cpu say so): drops it at its end,
 * restores the heap and its limit.  Returns 0, or @ret when negative.
 */
int td_merge_fix(struct td_src *s, int ret);

#endif
