// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trace.dat metadata: the v6 header (one stream of blocks), the v7 sections
 * (each possibly compressed) and the options that point at them.  Layout from
 * `man 5 trace-cmd.dat.v6` and `man 5 trace-cmd.dat.v7`.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "latscope/arena.h"
#include "latscope/scan.h"
#include "tracedat.h"

/* A read position over either the file (v6 header) or a section in memory (v7). */
struct td_cur {
	struct td_file *f;
	const char *mem;		/* NULL: read the file */
	uint64_t pos, end;
};

int td_pread(struct td_file *f, void *buf, size_t n, uint64_t off)
{
	char *p = buf;

	if (off > f->fsize || n > f->fsize - off)
		return -LAT_ETRUNC;
	/* the v6 header is read in pieces of a few bytes: from the peek, no syscall each */
	if (f->peek && off <= f->peeklen && n <= f->peeklen - off) {
		memcpy(buf, f->peek + off, n);
		return 0;
	}
	while (n) {
		ssize_t r = pread(f->fd, p, n, (off_t)off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -LAT_EIO;
		if (r == 0)
			return -LAT_ETRUNC;
		p += r;
		off += (uint64_t)r;
		n -= (size_t)r;
	}
	return 0;
}

static int cur_read(struct td_cur *c, void *dst, size_t n)
{
	int ret;

	if (c->pos > c->end || n > c->end - c->pos)
		return -LAT_ETRUNC;
	if (c->mem) {
		memcpy(dst, c->mem + c->pos, n);
	} else {
		ret = td_pread(c->f, dst, n, c->pos);
		if (ret < 0)
			return ret;
	}
	c->pos += n;
	return 0;
}

static int cur_u32(struct td_cur *c, uint32_t *v)
{
	char b[4];
	int ret = cur_read(c, b, 4);

	*v = 0;
	if (!ret)
		*v = td_get32(c->f->swap, b);
	return ret;
}

static int cur_u64(struct td_cur *c, uint64_t *v)
{
	char b[8];
	int ret = cur_read(c, b, 8);

	*v = 0;
	if (!ret)
		*v = td_get64(c->f->swap, b);
	return ret;
}

/* A NUL-terminated string of at most @max bytes, malloc'ed. */
static int cur_str(struct td_cur *c, char **out, size_t max)
{
	char *s = NULL;
	size_t len = 0, cap = 0;
	char ch;
	int ret;

	for (;;) {
		ret = cur_read(c, &ch, 1);
		if (ret < 0)
			goto err;
		ret = -LAT_ELIMIT;
		if (len >= max)
			goto err;
		ret = lat_grow(&s, &cap, len + 1, 1);
		if (ret < 0)
			goto err;
		s[len++] = ch;
		if (!ch)
			break;
	}
	*out = s;
	return 0;
err:
	free(s);
	return ret;
}

/* @n bytes plus a NUL, malloc'ed; @n is checked against the cap and the data left. */
static int cur_blob(struct td_cur *c, uint64_t n, char **out)
{
	char *b;
	int ret;

	if (n > TD_MAX_SECTION)
		return -LAT_ELIMIT;
	if (c->pos > c->end || n > c->end - c->pos)
		return -LAT_ETRUNC;
	b = malloc(n + 1);
	if (!b)
		return -LAT_ENOMEM;
	ret = cur_read(c, b, n);
	if (ret < 0) {
		free(b);
		return ret;
	}
	b[n] = 0;
	*out = b;
	return 0;
}

static int expect_tag(struct td_cur *c, const char *tag, size_t len)
{
	char b[16];
	int ret = cur_read(c, b, len);

	if (ret < 0)
		return ret;
	return memcmp(b, tag, len) ? -LAT_EFORMAT : 0;
}

int td_decompress(struct td_file *f, void **dctx, const void *in, size_t clen, void *out,
		  size_t ulen)
{
	enum td_comp comp = f->comp;

	if (comp == TD_COMP_ZSTD) {
		size_t r;

		if (!*dctx && !(*dctx = ZSTD_createDCtx()))
			return -LAT_ENOMEM;
		r = ZSTD_decompressDCtx(*dctx, out, ulen, in, clen);

		return ZSTD_isError(r) || r != ulen ? -LAT_EFORMAT : 0;
	}
	if (comp == TD_COMP_ZLIB) {
		uLongf dl = ulen;

		if (uncompress(out, &dl, in, clen) != Z_OK || dl != ulen)
			return -LAT_EFORMAT;
		return 0;
	}
	return -LAT_EFORMAT;
}

void td_dctx_free(void *dctx)
{
	ZSTD_freeDCtx(dctx);
}

/*
 * Loads the v7 section at @off into memory (decompressed) and points @c at
 * it; @id is the expected section id.  *@mem: the memory @c reads, owned by
 * the caller (free it when @c is done), NULL on error.
 */
static int load_section(struct td_file *f, uint64_t off, unsigned id, struct td_cur *c,
			char **mem)
{
	char hdr[16], ch[8];
	uint64_t size;
	uint32_t clen, ulen;
	char *in = NULL, *out = NULL;
	int ret;

	f->last_section = off;
	ret = td_pread(f, hdr, sizeof(hdr), off);
	if (ret < 0)
		return ret;
	if (td_get16(f->swap, hdr) != id)
		return -LAT_EFORMAT;
	size = td_get64(f->swap, hdr + 8);
	off += sizeof(hdr);
	if (!(td_get16(f->swap, hdr + 2) & 1)) {
		struct td_cur fc = { .f = f, .pos = off, .end = f->fsize };

		ret = cur_blob(&fc, size, &out);
		if (ret < 0)
			return ret;
		*c = (struct td_cur){ .f = f, .mem = out, .pos = 0, .end = size };
		*mem = out;
		return 0;
	}
	ret = td_pread(f, ch, sizeof(ch), off);
	if (ret < 0)
		return ret;
	clen = td_get32(f->swap, ch);
	ulen = td_get32(f->swap, ch + 4);
	if (clen > TD_MAX_SECTION || ulen > TD_MAX_SECTION || clen + 8ull > size)
		return -LAT_ELIMIT;
	in = malloc(clen ? clen : 1);
	out = malloc(ulen + 1ull);
	ret = -LAT_ENOMEM;
	if (!in || !out)
		goto err;
	ret = td_pread(f, in, clen, off + 8);
	if (ret < 0)
		goto err;
	ret = td_decompress(f, &f->zstd_dctx, in, clen, out, ulen);
	if (ret < 0)
		goto err;
	out[ulen] = 0;
	free(in);
	*c = (struct td_cur){ .f = f, .mem = out, .pos = 0, .end = ulen };
	*mem = out;
	return 0;
err:
	free(in);
	free(out);
	return ret;
}

static int parse_headers(struct td_file *f, struct td_cur *c)
{
	uint64_t size = 0;
	char *b = NULL;
	int ret;

	if ((ret = expect_tag(c, "header_page", 12)) < 0 || (ret = cur_u64(c, &size)) < 0 ||
	    (ret = cur_blob(c, size, &b)) < 0)
		return ret;
	if (tep_parse_header_page(f->tep, b, size, f->long_size)) {
		free(b);
		return -LAT_EFORMAT;
	}
	free(b);
	b = NULL;
	if ((ret = expect_tag(c, "header_event", 13)) < 0 || (ret = cur_u64(c, &size)) < 0)
		return ret;
	if (c->pos > c->end || size > c->end - c->pos)
		return -LAT_ETRUNC;
	c->pos += size;		/* the event header layout is fixed; nothing to learn */
	return 0;
}

/* Keeps @p (malloc'ed) until the file is released; frees it on failure. */
static int keep(struct td_file *f, void *p)
{
	if (lat_grow(&f->keep, &f->keep_cap, f->nkeep + 1, sizeof(*f->keep)) < 0) {
		free(p);
		return -LAT_ENOMEM;
	}
	f->keep[f->nkeep++] = p;
	return 0;
}

/*
 * The id of a format whose first lines are exactly "name: NAME\nID: N\n"
 * (NAME of [A-Za-z0-9_], N decimal without leading zeros, <= TD_MAX_EVENT_ID),
 * NAME copied to @name; -1 for anything else.  libtraceevent reads such lines
 * as the same name and id (its tokens: words of alphanumerics and '_', and
 * strtoul() in base 0, which is decimal without a leading 0).
 */
static int fmt_header(const char *h, size_t len, char *name, size_t cap)
{
	size_t i = 6, n = 0, d0;
	uint32_t id = 0;

	if (len < 6 || memcmp(h, "name: ", 6))
		return -1;
	while (i < len && ((h[i] >= 'a' && h[i] <= 'z') || (h[i] >= 'A' && h[i] <= 'Z') ||
			   (h[i] >= '0' && h[i] <= '9') || h[i] == '_')) {
		if (n + 1 >= cap)
			return -1;
		name[n++] = h[i++];
	}
	if (!n || len - i < 5 || memcmp(h + i, "\nID: ", 5))
		return -1;
	i += 5;
	d0 = i;
	while (i < len && i - d0 < 6 && h[i] >= '0' && h[i] <= '9')
		id = id * 10 + (uint32_t)(h[i++] - '0');
	if (i == d0 || i >= len || h[i] != '\n' || (i - d0 > 1 && h[d0] == '0') ||
	    id > TD_MAX_EVENT_ID)
		return -1;
	name[n] = 0;
	return (int)id;
}

/*
 * @count event format files, each with an 8-byte size, for @sys (lent for
 * the file's life): noted, not parsed (struct td_fmt).
 */
static int parse_formats(struct td_file *f, struct td_cur *c, const char *sys, uint32_t count)
{
	for (uint32_t i = 0; i < count; i++) {
		uint64_t size = 0;
		struct td_fmt *m;
		char h[96];
		size_t hl;
		int ret;

		/* the checks cur_blob() made when every format was read and parsed here */
		if ((ret = cur_u64(c, &size)) < 0)
			return ret;
		if (size > TD_MAX_SECTION)
			return -LAT_ELIMIT;
		if (c->pos > c->end || size > c->end - c->pos)
			return -LAT_ETRUNC;
		if (lat_grow(&f->fmts, &f->fmts_cap, f->nfmts + 1, sizeof(*f->fmts)) < 0)
			return -LAT_ENOMEM;
		m = &f->fmts[f->nfmts];
		m->sys = sys;
		m->mem = c->mem;
		m->off = c->pos;
		m->size = (uint32_t)size;
		hl = size < sizeof(h) ? size : sizeof(h);
		if (c->mem)
			memcpy(h, c->mem + c->pos, hl);
		else if ((ret = td_pread(f, h, hl, c->pos)) < 0)
			return ret;
		m->id = fmt_header(h, hl, m->name, sizeof(m->name));
		f->nfmts++;
		c->pos += size;
	}
	return 0;
}

int td_fmt_parse(struct td_file *f, const struct td_fmt *m)
{
	char *b = malloc((size_t)m->size + 1);
	int ret = 0;

	if (!b)
		return -LAT_ENOMEM;
	if (m->mem)
		memcpy(b, m->mem + m->off, m->size);
	else
		ret = td_pread(f, b, m->size, m->off);
	b[m->size] = 0;
	/* an event libtraceevent cannot parse is left out, not fatal */
	if (!ret)
		tep_parse_event(f->tep, b, m->size, m->sys);
	free(b);
	return ret;
}

static int parse_ftrace_events(struct td_file *f, struct td_cur *c)
{
	uint32_t n = 0;
	int ret = cur_u32(c, &n);

	return ret < 0 ? ret : parse_formats(f, c, "ftrace", n);
}

static int parse_event_systems(struct td_file *f, struct td_cur *c)
{
	uint32_t nsys = 0, n = 0;
	char *sys;
	int ret;

	if ((ret = cur_u32(c, &nsys)) < 0)
		return ret;
	for (uint32_t i = 0; i < nsys; i++) {
		if ((ret = cur_str(c, &sys, 256)) < 0 || (ret = keep(f, sys)) < 0)
			return ret;
		ret = cur_u32(c, &n);
		if (!ret)
			ret = parse_formats(f, c, sys, n);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int skip_printk(struct td_cur *c)
{
	uint32_t size = 0;
	int ret;

	/*
	 * Only trace_printk (bprint) events need these, and those are passed on
	 * undecoded; libtraceevent's parser overreads on malformed lines, so the
	 * block is only checked and skipped.
	 */
	if ((ret = cur_u32(c, &size)) < 0)
		return ret;
	if (size > TD_MAX_SECTION || size > c->end - c->pos)
		return size > TD_MAX_SECTION ? -LAT_ELIMIT : -LAT_ETRUNC;
	c->pos += size;
	return 0;
}

/* "pid comm\n" lines as in saved_cmdlines. */
static int parse_cmdlines(struct td_file *f, struct td_cur *c)
{
	uint64_t size = 0;
	char *b, *p, *nl;
	int ret;

	if ((ret = cur_u64(c, &size)) < 0 || (ret = cur_blob(c, size, &b)) < 0)
		return ret;
	for (p = b; p < b + size; p = nl + 1) {
		char *end;
		long pid;

		nl = memchr(p, '\n', (size_t)(b + size - p));
		if (!nl)
			nl = b + size;
		pid = strtol(p, &end, 10);
		if (end != p && *end == ' ' && pid >= 0 && pid <= INT32_MAX && end + 1 < nl) {
			ret = td_comm_set(&f->comms, (int32_t)pid, end + 1, (size_t)(nl - end - 1));
			if (ret < 0)
				break;
		}
	}
	free(b);
	return ret < 0 ? ret : 0;
}

int td_load_kallsyms(struct td_file *f)
{
	struct td_cur c = { .f = f, .pos = f->ksyms_off, .end = f->fsize };
	uint32_t size = 0;
	char *b = NULL, *sec = NULL;
	int ret;

	if (f->ksyms_state)
		return f->ksyms_state > 0 ? 0 : -LAT_EFORMAT;
	f->ksyms_state = -1;
	if (!f->ksyms_off)
		return -LAT_EFORMAT;
	if (f->version >= 7 && (ret = load_section(f, f->ksyms_off, 19, &c, &sec)) < 0)
		return ret;
	ret = cur_u32(&c, &size);
	if (!ret)
		ret = cur_blob(&c, size, &b);
	if (!ret && tep_parse_kallsyms(f->tep, b))
		ret = -LAT_EFORMAT;
	free(b);
	free(sec);
	if (!ret)
		f->ksyms_state = 1;
	return ret;
}

/* CPUSTAT text: "CPU: n\n...overrun: x\n...dropped events: y\n" -> overrun + dropped for n. */
static void parse_cpustat(struct td_file *f, const char *s, size_t len)
{
	char *t = strndup(s, len), *p;
	long cpu = -1;
	uint64_t lost = 0;

	if (!t)
		return;
	/* latscope's own metadata block (docs/record.md), kept for the probe analysis */
	if (!strncmp(t, "latscope: ", 10)) {
		if (!f->latscope_meta)
			f->latscope_meta = t;
		else
			free(t);
		return;
	}
	if ((p = strstr(t, "CPU: ")))
		cpu = strtol(p + 5, NULL, 10);
	if ((p = strstr(t, "\noverrun: ")))
		lost += strtoull(p + 10, NULL, 10);
	if ((p = strstr(t, "\ndropped events: ")))
		lost += strtoull(p + 17, NULL, 10);
	free(t);
	if (cpu < 0 || cpu >= TD_MAX_CPUS)
		return;
	if (cpu >= f->npend_overrun) {
		uint64_t *n = realloc(f->pend_overrun, (size_t)(cpu + 1) * sizeof(*n));

		if (!n)
			return;
		memset(n + f->npend_overrun, 0, (size_t)(cpu + 1 - f->npend_overrun) * sizeof(*n));
		f->pend_overrun = n;
		f->npend_overrun = (int)cpu + 1;
	}
	f->pend_overrun[cpu] = lost;
}

static struct td_buffer *add_buffer(struct td_file *f)
{
	struct td_buffer *n;

	if (f->nbufs >= TD_MAX_BUFFERS)
		return NULL;
	n = realloc(f->bufs, (size_t)(f->nbufs + 1) * sizeof(*n));
	if (!n)
		return NULL;
	f->bufs = n;
	n = &f->bufs[f->nbufs++];
	memset(n, 0, sizeof(*n));
	n->page_size = f->page_size;
	/* v7: the CPUSTATs seen so far describe this buffer; v6 has them for the top only */
	if (f->version < 7)
		return n;
	n->overrun = f->pend_overrun;
	n->noverrun = f->npend_overrun;
	f->pend_overrun = NULL;
	f->npend_overrun = 0;
	return n;
}

static int read_cpu_table(struct td_cur *c, struct td_buffer *b, int ncpus, int with_ids)
{
	if (ncpus < 0 || ncpus > TD_MAX_CPUS)
		return -LAT_ELIMIT;
	b->cpus = calloc((size_t)ncpus + 1, sizeof(*b->cpus));
	if (!b->cpus)
		return -LAT_ENOMEM;
	for (int i = 0; i < ncpus; i++) {
		uint32_t id = (uint32_t)i;
		int ret;

		if ((with_ids && (ret = cur_u32(c, &id)) < 0) ||
		    (ret = cur_u64(c, &b->cpus[i].off)) < 0 ||
		    (ret = cur_u64(c, &b->cpus[i].size)) < 0)
			return ret;
		if (id >= TD_MAX_CPUS)
			return -LAT_ELIMIT;
		b->cpus[i].cpu = (int)id;
	}
	b->ncpus = ncpus;
	return 0;
}

/* One BUFFER option: v6 offset + name; v7 adds clock, page size and the cpu table. */
static int parse_buffer_opt(struct td_file *f, const char *p, uint32_t size)
{
	struct td_cur c = { .f = f, .mem = p, .pos = 0, .end = size };
	struct td_buffer *b = add_buffer(f);
	uint32_t psize, ncpus;
	char hdr[16];
	int ret;

	if (!b)
		return -LAT_ELIMIT;
	if ((ret = cur_u64(&c, &b->section_off)) < 0 || (ret = cur_str(&c, &b->name, 4096)) < 0)
		return ret;
	if (f->version < 7)
		return 0;	/* the cpu table sits at section_off; read when chosen */
	if ((ret = cur_str(&c, &b->clock, 256)) < 0 || (ret = cur_u32(&c, &psize)) < 0 ||
	    (ret = cur_u32(&c, &ncpus)) < 0)
		return ret;
	if (psize < 64 || psize > TD_MAX_PAGE)
		return -LAT_ELIMIT;
	b->page_size = psize;
	if ((ret = read_cpu_table(&c, b, (int)ncpus > TD_MAX_CPUS ? -1 : (int)ncpus, 1)) < 0)
		return ret;
	/* the flyrecord section header says whether its chunks are compressed */
	if ((ret = td_pread(f, hdr, sizeof(hdr), b->section_off)) < 0)
		return ret;
	b->compressed = (td_get16(f->swap, hdr + 2) & 1) != 0;
	if (b->compressed && f->comp == TD_COMP_NONE)
		return -LAT_EFORMAT;
	return 0;
}

static int parse_options(struct td_file *f, struct td_cur *c, uint64_t *next);

int td_buffer_load_cpus(struct td_file *f, struct td_buffer *b, struct lat_diag *d)
{
	struct td_cur c = { .f = f, .pos = b->section_off, .end = f->fsize };
	char tag[10];
	int ret;

	if (b->cpus)
		return 0;
	/* as after the header's cpu count: [options] then "flyrecord\0" and the table */
	ret = cur_read(&c, tag, 10);
	if (!ret && !memcmp(tag, "options  ", 10)) {
		uint64_t next;

		free(f->pend_overrun);
		f->pend_overrun = NULL;
		f->npend_overrun = 0;
		ret = parse_options(f, &c, &next);
		if (!ret && f->pend_overrun) {
			/* this instance's own CPUSTATs */
			free(b->overrun);
			b->overrun = f->pend_overrun;
			b->noverrun = f->npend_overrun;
			f->pend_overrun = NULL;
		}
		if (!ret)
			ret = cur_read(&c, tag, 10);
	}
	if (!ret && memcmp(tag, "flyrecord", 10))
		ret = -LAT_EFORMAT;
	if (!ret)
		ret = read_cpu_table(&c, b, f->ncpus_sys, 0);
	if (ret < 0)
		lat_diag_at(d, 0, "buffer \"%s\": cpu table at offset %llu unreadable: %s",
			    b->name, (unsigned long long)b->section_off, lat_strerror(ret));
	return ret;
}

/* TRACECLOCK: "[local] global ...", the selected clock (the first one seen). */
static void clock_opt(struct td_file *f, const char *data)
{
	const char *l = strchr(data, '['), *r = l ? strchr(l, ']') : NULL;

	if (l && r && !f->trace_clock)
		f->trace_clock = strndup(l + 1, (size_t)(r - l - 1));
}

/*
 * UNAME: "sysname nodename release version machine", kept whole, and its node
 * name (the first one seen).
 */
static void uname_opt(struct td_file *f, const char *data, uint32_t size)
{
	const char *h = memchr(data, ' ', size);
	size_t n = 0;

	if (!f->uname)
		f->uname = strndup(data, size);
	if (!h || f->host)
		return;
	h++;
	while (h + n < data + size && h[n] && h[n] != ' ')
		n++;
	if (n)
		f->host = strndup(h, n);
}

/* A v7 pointer (option @id 16..21) to a metadata section, read from there. */
static int section_opt(struct td_file *f, uint16_t id, const char *data, uint32_t size)
{
	struct td_cur s;
	char *sec = NULL;
	uint64_t off;
	int ret;

	if (size < 8)
		return 0;
	off = td_get64(f->swap, data);
	if (id == 19) {
		f->ksyms_off = off;
		return 0;
	}
	ret = load_section(f, off, id, &s, &sec);
	if (ret < 0)
		return ret;
	if (id == 16)
		ret = parse_headers(f, &s);
	else if (id == 17)
		ret = parse_ftrace_events(f, &s);
	else if (id == 18)
		ret = parse_event_systems(f, &s);
	else if (id == 20)
		ret = skip_printk(&s);
	else
		ret = parse_cmdlines(f, &s);
	/* the formats noted in it are parsed later, from it */
	if ((id == 17 || id == 18) && !ret)
		return keep(f, sec);
	free(sec);
	return ret;
}

/* One option other than DONE: 0 or a negative lat_err. */
static int apply_option(struct td_file *f, uint16_t id, char *data, uint32_t size)
{
	switch (id) {
	case 2:		/* CPUSTAT */
		parse_cpustat(f, data, size);
		return 0;
	case 3:		/* BUFFER */
		return parse_buffer_opt(f, data, size);
	case 4:		/* TRACECLOCK */
		clock_opt(f, data);
		return 0;
	case 5:		/* UNAME */
		uname_opt(f, data, size);
		return 0;
	case 8:		/* CPUCOUNT */
		if (size >= 4 && td_get32(f->swap, data) <= TD_MAX_CPUS)
			f->ncpus_sys = (int)td_get32(f->swap, data);
		return 0;
	case 16: case 17: case 18: case 19: case 20: case 21:
		return section_opt(f, id, data, size);
	default:
		return 0;
	}
}

/* Options from @c up to DONE; *next gets the v7 next-section offset. */
static int parse_options(struct td_file *f, struct td_cur *c, uint64_t *next)
{
	*next = 0;
	for (;;) {
		char b[6], *data = NULL;
		uint16_t id;
		uint32_t size;
		int ret;

		if ((ret = cur_read(c, b, 2)) < 0)
			return ret;
		id = td_get16(f->swap, b);
		if (!id && f->version < 7)
			return 0;	/* v6 ends the list with a bare 0 */
		if ((ret = cur_read(c, b + 2, 4)) < 0)
			return ret;
		size = td_get32(f->swap, b + 2);
		if ((ret = cur_blob(c, size, &data)) < 0)
			return ret;
		if (!id) {	/* DONE */
			if (size >= 8)
				*next = td_get64(f->swap, data);
			free(data);
			return 0;
		}
		ret = apply_option(f, id, data, size);
		free(data);
		if (ret < 0)
			return ret;
	}
}

static int open_v6(struct td_file *f, struct td_cur *c, struct lat_diag *d)
{
	uint32_t size = 0, ncpus = 0;
	uint64_t next;
	char tag[10];
	struct td_buffer *top;
	int ret;

	if ((ret = parse_headers(f, c)) < 0 || (ret = parse_ftrace_events(f, c)) < 0 ||
	    (ret = parse_event_systems(f, c)) < 0)
		return ret;
	f->ksyms_off = c->pos;
	if ((ret = cur_u32(c, &size)) < 0)
		return ret;
	if (size > c->end - c->pos)
		return -LAT_ETRUNC;
	c->pos += size;
	if ((ret = skip_printk(c)) < 0 || (ret = parse_cmdlines(f, c)) < 0 ||
	    (ret = cur_u32(c, &ncpus)) < 0)
		return ret;
	if (ncpus > TD_MAX_CPUS) {
		lat_diag_at(d, 0, "trace.dat header: %u CPUs, more than the %d latscope reads",
			    ncpus, TD_MAX_CPUS);
		return -LAT_ELIMIT;
	}
	f->ncpus_sys = (int)ncpus;
	if ((ret = cur_read(c, tag, 10)) < 0)
		return ret;
	if (!memcmp(tag, "options  ", 10)) {
		if ((ret = parse_options(f, c, &next)) < 0 || (ret = cur_read(c, tag, 10)) < 0)
			return ret;
	}
	if (!memcmp(tag, "latency  ", 10)) {
		lat_diag_at(d, 0, "a latency-tracer trace.dat holds text, not events; "
			    "read it with `trace-cmd report`");
		return -LAT_EFORMAT;
	}
	if (memcmp(tag, "flyrecord", 10))
		return -LAT_EFORMAT;
	/* the top buffer: instances (BUFFER options) were added while parsing options */
	top = add_buffer(f);
	if (!top)
		return -LAT_ENOMEM;
	top->name = strdup("");
	if (!top->name)
		return -LAT_ENOMEM;
	/* keep the top buffer first */
	if (f->nbufs > 1) {
		struct td_buffer t = *top;

		memmove(f->bufs + 1, f->bufs, (size_t)(f->nbufs - 1) * sizeof(*f->bufs));
		f->bufs[0] = t;
	}
	ret = read_cpu_table(c, &f->bufs[0], (int)ncpus, 0);
	/* instances had no CPUSTAT of their own in v6; the pending ones are the top's */
	return ret;
}

static int open_v7(struct td_file *f, struct td_cur *c)
{
	char *name = NULL, *ver = NULL;
	uint64_t off;
	int ret, nsec = 0;

	if ((ret = cur_str(c, &name, 64)) < 0 || (ret = cur_str(c, &ver, 64)) < 0)
		goto out;
	if (!strcmp(name, "none"))
		f->comp = TD_COMP_NONE;
	else if (!strcmp(name, "zstd"))
		f->comp = TD_COMP_ZSTD;
	else if (!strcmp(name, "zlib"))
		f->comp = TD_COMP_ZLIB;
	else {
		ret = -LAT_EFORMAT;
		goto out;
	}
	if ((ret = cur_u64(c, &off)) < 0)
		goto out;
	while (off) {
		struct td_cur s;
		char *sec = NULL;

		ret = -LAT_ELIMIT;
		if (++nsec > TD_MAX_OPTION_SECTIONS)
			goto out;
		if ((ret = load_section(f, off, 0, &s, &sec)) < 0)
			goto out;
		ret = parse_options(f, &s, &off);
		free(sec);
		if (ret < 0)
			goto out;
	}
out:
	free(name);
	free(ver);
	return ret;
}

/*
 * The recorder's "latscope: wallclock realtime_offset_ns=N error_ns=E ..." line
 * (docs/record.md): CLOCK_REALTIME minus the trace clock.  Absent: unknown; a
 * damaged one is said and left unknown.
 */
static void wallclock_meta(struct td_file *f, struct lat_diag *d)
{
	static const char key[] = "latscope: wallclock ";
	const char *p = f->latscope_meta, *eol;
	struct lat_scan sc;

	while (p && strncmp(p, key, sizeof(key) - 1)) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	if (!p)
		return;
	eol = strchrnul(p, '\n');
	lat_scan_init(&sc, p + sizeof(key) - 1, (size_t)(eol - p) - (sizeof(key) - 1));
	if (!lat_scan_lit(&sc, "realtime_offset_ns=") ||
	    !lat_scan_i64(&sc, &f->realtime_offset_ns) || !lat_scan_lit(&sc, " error_ns=") ||
	    !lat_scan_i64(&sc, &f->realtime_error_ns) || f->realtime_error_ns < 0 ||
	    (!lat_scan_eol(&sc) && !lat_scan_char(&sc, ' '))) {
		lat_diag_at(d, 0, "latscope metadata: expected \"%srealtime_offset_ns=N "
			    "error_ns=N\", got \"%.*s\": no wall clock", key, (int)(eol - p), p);
		return;
	}
	f->realtime_known = 1;
}

int td_file_open(struct td_file *f, struct lat_diag *d)
{
	struct td_cur c = { .f = f, .pos = 0, .end = f->fsize };
	char hdr[16], *ver = NULL;
	int ret;

	f->tep = tep_alloc();
	if (!f->tep)
		return -LAT_ENOMEM;
	if ((ret = cur_read(&c, hdr, 10)) < 0 || memcmp(hdr, "\x17\x08\x44tracing", 10)) {
		lat_diag_at(d, 0, "expected the trace.dat magic \\x17\\x08\\x44tracing");
		return -LAT_EFORMAT;
	}
	if ((ret = cur_str(&c, &ver, 16)) < 0)
		goto bad;
	f->version = atoi(ver);
	free(ver);
	if (f->version != 6 && f->version != 7) {
		lat_diag_at(d, 0, "trace.dat version %d: only versions 6 and 7 are read",
			    f->version);
		return -LAT_EFORMAT;
	}
	if ((ret = cur_read(&c, hdr, 2)) < 0)
		goto bad;
	f->bigendian = hdr[0] != 0;
	f->swap = f->bigendian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	f->long_size = hdr[1];
	if ((f->long_size != 4 && f->long_size != 8) || (ret = cur_u32(&c, &f->page_size)) < 0 ||
	    f->page_size < 64 || f->page_size > TD_MAX_PAGE) {
		lat_diag_at(d, 0, "trace.dat header: expected long size 4 or 8 and a page size "
			    "of 64 B..1 MiB");
		return -LAT_EFORMAT;
	}
	tep_set_long_size(f->tep, f->long_size);
	tep_set_page_size(f->tep, (int)f->page_size);
	tep_set_file_bigendian(f->tep, f->bigendian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(f->tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ?
					 TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	ret = f->version == 6 ? open_v6(f, &c, d) : open_v7(f, &c);
	if (ret < 0)
		goto bad;
	if (!f->nbufs) {
		lat_diag_at(d, 0, "trace.dat v%d: no flyrecord buffer in the file", f->version);
		return -LAT_EEMPTY;
	}
	if (f->pend_overrun && !f->bufs[0].overrun) {
		f->bufs[0].overrun = f->pend_overrun;
		f->bufs[0].noverrun = f->npend_overrun;
		f->pend_overrun = NULL;
	}
	wallclock_meta(f, d);
	/*
	 * the thread groups, once for the reports and the exporters; a damaged line keeps the
	 * pairs before it, its status says so to them (they warn)
	 */
	lat_tgids_parse(&f->tgids, f->latscope_meta);
	/* the recorded environment (docs/record.md); a bad value is said and left unknown */
	if (f->latscope_meta)
		return lat_trace_env_parse(&f->env, f->latscope_meta, d);
	return 0;
bad:
	if (f->version >= 7 && f->last_section)
		lat_diag_at(d, 0, "trace.dat v7 metadata unreadable: section at offset %llu of "
			    "a %llu-byte file: %s", (unsigned long long)f->last_section,
			    (unsigned long long)f->fsize, lat_strerror(ret));
	else
		lat_diag_at(d, 0, "trace.dat v%d metadata unreadable near offset %llu of a "
			    "%llu-byte file: %s", f->version, (unsigned long long)c.pos,
			    (unsigned long long)f->fsize, lat_strerror(ret));
	return ret;
}

void td_file_release(struct td_file *f)
{
	for (int i = 0; i < f->nbufs; i++) {
		free(f->bufs[i].name);
		free(f->bufs[i].clock);
		free(f->bufs[i].cpus);
		free(f->bufs[i].overrun);
	}
	free(f->bufs);
	free(f->fmts);
	for (size_t i = 0; i < f->nkeep; i++)
		free(f->keep[i]);
	free(f->keep);
	free(f->pend_overrun);
	free(f->latscope_meta);
	lat_trace_env_release(&f->env);
	lat_tgids_release(&f->tgids);
	free(f->trace_clock);
	free(f->host);
	free(f->uname);
	td_comms_release(&f->comms);
	lat_bigmap_free(f->arena_map, f->arena_maplen);
	if (f->tep)
		tep_free(f->tep);
	ZSTD_freeDCtx(f->zstd_dctx);
	memset(f, 0, sizeof(*f));
	f->fd = -1;
}

void td_arena_init(struct td_file *f)
{
	char mode[64] = "";
	FILE *fp;

	/* under ASan one block would hide overruns between its parts: separate callocs */
	if (!lat_arena_mapped_in_chunks())
		return;
	/* without THP the arena's pages would fault one by one: not worth it */
	fp = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	if (fp) {
		if (!fgets(mode, sizeof(mode), fp))
			mode[0] = 0;
		fclose(fp);
	}
	if (!strstr(mode, "[always]") && !strstr(mode, "[madvise]"))
		return;
	f->arena = lat_bigmap(LAT_BIGMAP_UNIT, &f->arena_map, &f->arena_maplen);
	if (!f->arena)
		return;
	f->arena_len = LAT_BIGMAP_UNIT;
	f->comms.pool = f->arena;
	f->comms.pool_left = f->arena_len / 2;
}

int td_comm_set(struct td_comms *c, int32_t pid, const char *comm, size_t len)
{
	char (*chunk)[LAT_COMM_LEN];

	if (len >= LAT_COMM_LEN)
		len = LAT_COMM_LEN - 1;
	if (!len || !comm[0] || pid < 0 || pid >= TD_PID_LIMIT)
		return 0;
	if (!c->chunks) {
		size_t tl = (TD_PID_LIMIT >> TD_COMM_CHUNK_SHIFT) * sizeof(*c->chunks);

		if (c->pool_left >= tl) {
			c->chunks = (void *)c->pool;
			c->pool += tl;
			c->pool_left -= tl;
		} else {
			/* 128 KiB: mmap'ed by malloc, untouched pages stay unfaulted */
			c->chunks = calloc(1, tl);
			if (!c->chunks)
				return -LAT_ENOMEM;
			c->made_table = 1;
		}
	}
	chunk = c->chunks[pid >> TD_COMM_CHUNK_SHIFT];
	if (!chunk) {
		size_t cl = (size_t)LAT_COMM_LEN << TD_COMM_CHUNK_SHIFT;

		if (c->pool_left >= cl) {
			chunk = (void *)c->pool;
			c->pool += cl;
			c->pool_left -= cl;
		} else {
			if (lat_grow(&c->made, &c->cap, c->n + 1, sizeof(*c->made)) < 0)
				return -LAT_ENOMEM;
			chunk = calloc(1 << TD_COMM_CHUNK_SHIFT, LAT_COMM_LEN);
			if (!chunk)
				return -LAT_ENOMEM;
			c->made[c->n++] = chunk;
		}
		c->chunks[pid >> TD_COMM_CHUNK_SHIFT] = chunk;
	}
	memcpy(chunk[pid & ((1 << TD_COMM_CHUNK_SHIFT) - 1)], comm, len);
	chunk[pid & ((1 << TD_COMM_CHUNK_SHIFT) - 1)][len] = 0;
	return 0;
}

void td_comms_release(struct td_comms *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->made[i]);
	free(c->made);
	if (c->made_table)
		free(c->chunks);
	memset(c, 0, sizeof(*c));
}
