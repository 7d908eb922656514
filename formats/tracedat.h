/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace.dat reader internals, shared by tracedat_meta.c (file layout: v6
 * header, v7 sections, options, compression), tracedat_types.c (event
 * types), tracedat.c and tracedat_walk.c (per-CPU page streams, event
 * decoding, merge).  Only these files see libtraceevent.
 */
#ifndef LATSCOPE_FORMATS_TRACEDAT_H
#define LATSCOPE_FORMATS_TRACEDAT_H

#include <traceevent/event-parse.h>

#include "latscope/env.h"
#include "latscope/format.h"
#include "latscope/tgids.h"

/* Caps on what the file may make us allocate (docs/tracedat.md). */
#define TD_MAX_CPUS 4096		/* CPUs per buffer */
#define TD_MAX_SECTION (256u << 20)	/* one metadata block or section, uncompressed */
#define TD_MAX_CHUNK (64u << 20)	/* one flyrecord chunk, compressed or not */
#define TD_MAX_PAGE (1u << 20)		/* ring-buffer sub-buffer size */
#define TD_MAX_BUFFERS 256		/* instances */
#define TD_MAX_EVENT_ID 65535
#define TD_MAX_OPTION_SECTIONS 1024
/* page data held for all CPUs at once (pages read ahead, decompressed chunks) */
#define TD_MAX_RESIDENT (512u << 20)

enum td_comp { TD_COMP_NONE, TD_COMP_ZSTD, TD_COMP_ZLIB };

struct td_cpu_desc {
	int cpu;
	uint64_t off, size;
};

struct td_buffer {
	char *name;			/* "" for the top instance */
	char *clock;			/* NULL if not recorded */
	uint64_t section_off;		/* v7: flyrecord section; v6 instance: its cpu table */
	uint32_t page_size;
	int compressed;			/* flyrecord data is in compressed chunks */
	int ncpus;
	struct td_cpu_desc *cpus;
	uint64_t *overrun;		/* [ncpus_all] from CPUSTAT, or NULL */
	int noverrun;
};

/*
 * pid -> comm as a two-level table indexed by pid (chunks of 256 pids made
 * on first use): a lookup per event is two loads.  Pids are below the
 * kernel's PID_MAX_LIMIT.  Every page a process touches first costs a page
 * fault (as much as copying tens of KiB: bench/README-tracedat.md, "Page
 * faults"), so the chunks are one page each (4 KiB: a fixture's 1,443 saved cmdlines fill 17
 * of them, where 64 KiB chunks made 48 pages), the 128 KiB pointer table is
 * left to the kernel's zero pages until a range is used, and the chunks made
 * are listed so that freeing them does not walk the table.
 */
#define TD_PID_LIMIT (1 << 22)
#define TD_COMM_CHUNK_SHIFT 8

struct td_comms {
	char (**chunks)[LAT_COMM_LEN];	/* TD_PID_LIMIT >> TD_COMM_CHUNK_SHIFT of them */
	void **made;			/* the chunks made, for freeing */
	size_t n, cap;			/* chunks made, room in made */
	char *pool;			/* zeroed memory to take the table and chunks from */
	size_t pool_left;		/* (the file's arena), or 0 */
	int made_table;			/* chunks was calloc'ed */
};

/*
 * An event format file noted while the metadata is read and parsed by
 * libtraceevent only when the reader needs its fields (td_fmt_parse()): a
 * trace holds tens to hundreds of formats, of which a dozen are decoded, and
 * parsing one costs ~200k instructions and heap pages.  The name and id are
 * read from its first two lines when they have the kernel's exact form
 * "name: NAME\nID: N\n", which libtraceevent reads the same way.
 */
struct td_fmt {
	const char *sys;		/* its system, lent by the td_file */
	const char *mem;		/* the v7 section holding it, or NULL: the file */
	uint64_t off;			/* in mem or in the file */
	uint32_t size;
	int id;				/* -1: the first lines are not of that form */
	char name[64];
};

struct td_file {
	int fd;
	uint64_t fsize;
	const char *path;
	/* the file's first peeklen bytes (the reader's probe peek), valid while opening */
	const char *peek;
	size_t peeklen;
	struct td_fmt *fmts;		/* in file order */
	size_t nfmts, fmts_cap;
	char **keep;			/* system names and v7 sections the fmts point into */
	size_t nkeep, keep_cap;
	int version;
	int bigendian;			/* file byte order */
	int swap;			/* file order differs from the host's */
	int long_size;
	uint32_t page_size;
	enum td_comp comp;
	void *zstd_dctx;		/* the zstd context of the metadata and the walk */
	int ncpus_sys;			/* CPUCOUNT option or the v6 header's count */
	struct tep_handle *tep;
	/* kallsyms are parsed only when a stack needs a symbol */
	uint64_t ksyms_off, ksyms_size;	/* v6: data range; v7: section offset (size 0) */
	uint64_t last_section;		/* v7: the section read last, for messages */
	int ksyms_state;		/* 0 not loaded, 1 loaded, -1 failed */
	char *trace_clock;		/* TRACECLOCK option's selected clock */
	char *host;			/* UNAME option's node name ("Linux HOST 6.1.0 ..."), or NULL */
	char *uname;			/* the whole UNAME option, or NULL */
	struct td_buffer *bufs;
	int nbufs;
	struct td_comms comms;
	/*
	 * 2 MiB in one transparent huge page, made on first touch (NULL when
	 * THP is off): one fault for the ~80 pages of read buffers and comm
	 * table it holds (costs: bench/README-tracedat.md, "Page faults").
	 * The first half is the comms' pool, the second the read buffers'.
	 */
	char *arena;			/* lat_bigmap(): arena_map, arena_maplen to free */
	size_t arena_len;
	void *arena_map;
	size_t arena_maplen;
	/* CPUSTAT text seen before the buffer it belongs to (v7) */
	uint64_t *pend_overrun;
	int npend_overrun;
	char *latscope_meta;		/* the CPUSTAT block of "latscope: " lines, or NULL */
	struct lat_trace_env env;	/* parsed from latscope_meta (present 0: none) */
	struct lat_tgids tgids;		/* its tgids line parsed (n 0: none) */
	/* CLOCK_REALTIME - trace clock from its "latscope: wallclock" line (docs/record.md) */
	int realtime_known;
	int64_t realtime_offset_ns, realtime_error_ns;
};

/*
 * Reads the header, the metadata and every options section of @f (fd, fsize
 * and path set by the caller).  Problems go to @d; returns 0 or a negative
 * lat_err with the reason already reported.
 */
int td_file_open(struct td_file *f, struct lat_diag *d);

/* Makes f->arena when transparent huge pages can back it (not under ASan). */
void td_arena_init(struct td_file *f);
void td_file_release(struct td_file *f);

/* Reads the cpu table of a v6 instance buffer (lazy: only the buffer we read). */
int td_buffer_load_cpus(struct td_file *f, struct td_buffer *b, struct lat_diag *d);

/* Parses the kallsyms into f->tep on first use; returns 0 or a negative lat_err. */
int td_load_kallsyms(struct td_file *f);

/*
 * Decompresses @in (clen bytes) into @out (exactly ulen bytes expected) with
 * f->comp; *@dctx is the zstd context, made on first use (f->zstd_dctx, or a
 * thread's own: one context serves one thread at a time).
 */
int td_decompress(struct td_file *f, void **dctx, const void *in, size_t clen, void *out,
		  size_t ulen);
/* Frees a zstd context td_decompress() made. */
void td_dctx_free(void *dctx);

/*
 * Parses the noted format @m into f->tep (a format libtraceevent rejects is
 * left out, as when all were parsed up front).  Returns 0 or a negative
 * lat_err (memory, I/O).
 */
int td_fmt_parse(struct td_file *f, const struct td_fmt *m);

/* Reads exactly @n bytes at @off; -LAT_ETRUNC when the file ends first. */
int td_pread(struct td_file *f, void *buf, size_t n, uint64_t off);

static inline const char *td_comm_get(const struct td_comms *c, int32_t pid)
{
	const char *s;

	if (pid < 0 || pid >= TD_PID_LIMIT || !c->chunks || !c->chunks[pid >> TD_COMM_CHUNK_SHIFT])
		return NULL;
	s = c->chunks[pid >> TD_COMM_CHUNK_SHIFT][pid & ((1 << TD_COMM_CHUNK_SHIFT) - 1)];
	return s[0] ? s : NULL;
}

int td_comm_set(struct td_comms *c, int32_t pid, const char *comm, size_t len);
void td_comms_release(struct td_comms *c);

static inline uint16_t td_get16(int swap, const void *p)
{
	uint16_t v;

	__builtin_memcpy(&v, p, 2);
	return swap ? __builtin_bswap16(v) : v;
}

static inline uint32_t td_get32(int swap, const void *p)
{
	uint32_t v;

	__builtin_memcpy(&v, p, 4);
	return swap ? __builtin_bswap32(v) : v;
}

static inline uint64_t td_get64(int swap, const void *p)
{
	uint64_t v;

	__builtin_memcpy(&v, p, 8);
	return swap ? __builtin_bswap64(v) : v;
}

#endif
