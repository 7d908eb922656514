/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace.dat reader, private to tracedat.c (event types, decoding, open) and
 * tracedat_walk.c (per-CPU page blocks and chunks, the page walks, the merge
 * heap).
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
	char ccomm[LAT_COMM_LEN];
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
	struct td_fld f_type, f_pid;
	struct td_cpu *cpus;
	int ncpu;
	int *heap;
	int nheap;
	int advance;			/* cpu slot to step before the next event, -1 none */
	int fast;			/* our own page walk instead of kbuffer's */
	uint32_t read_pages;		/* pages per pread (uncompressed data) */
	uint64_t resident;		/* page data held for all CPUs, <= TD_MAX_RESIDENT */
	uint64_t *overrun;
	uint64_t *ips;
	const char **syms;
	size_t ips_cap;
	char stop[512];
};

/* Appends "where and why" to the stop reason (every CPU that stopped early is named). */
void td_set_stop(struct td_src *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Steps @c to its next page holding an event; 1 found, 0 end, <0 error. */
int td_next_page(struct td_src *s, struct td_cpu *c);

/* Steps @c to its next event: 1 found, 0 end of this CPU (reason set if early), <0 error. */
int td_step(struct td_src *s, struct td_cpu *c);

/* The merge heap of CPU slots on (timestamp, cpu). */
void td_heap_down(struct td_src *s, int i);
void td_heap_push(struct td_src *s, int slot);

#endif
