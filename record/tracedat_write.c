// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trace.dat v6 writer.  Layout from man 5 trace-cmd.dat.v6; option ids and the meaning trace-cmd
 * gives them from trace-cmd 3.1.6's reader (it warns on ids it does not know, so we only emit
 * those it knows).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracedat_write.h"

void tdw_put16(unsigned char *p, uint16_t v)
{
	memcpy(p, &v, 2);
}

void tdw_put32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

void tdw_put64(unsigned char *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

void tdw_init(struct tdw *w, int fd, tdw_write_fn write_fn)
{
	memset(w, 0, sizeof(*w));
	w->fd = fd;
	w->write_fn = write_fn ? write_fn : write;
}

void tdw_release(struct tdw *w)
{
	free(w->cpu_off);
	free(w->cpu_size);
	w->cpu_off = NULL;
	w->cpu_size = NULL;
}

static int put(struct tdw *w, const void *buf, size_t len)
{
	const char *p = buf;

	if (w->err)
		return w->err;
	while (len) {
		ssize_t n = w->write_fn(w->fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			/* A zero-length write makes no progress: call it a full disk. */
			w->err = n < 0 ? -errno : -ENOSPC;
			return w->err;
		}
		p += n;
		len -= (size_t)n;
		w->pos += (uint64_t)n;
	}
	return 0;
}

static int put16(struct tdw *w, uint16_t v)
{
	unsigned char b[2];

	tdw_put16(b, v);
	return put(w, b, 2);
}

static int put32(struct tdw *w, uint32_t v)
{
	unsigned char b[4];

	tdw_put32(b, v);
	return put(w, b, 4);
}

static int put64(struct tdw *w, uint64_t v)
{
	unsigned char b[8];

	tdw_put64(b, v);
	return put(w, b, 8);
}

int tdw_write_initial(struct tdw *w, uint32_t page_size)
{
	static const unsigned char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	unsigned char flags[2];

	if (!page_size || (page_size & (page_size - 1)))
		return -EINVAL;
	w->page_size = page_size;
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	flags[0] = 1;
#else
	flags[0] = 0;
#endif
	flags[1] = 8;	/* long size of the target's user space: we only build 64-bit */
	put(w, magic, sizeof(magic));
	put(w, "6", 2);
	put(w, flags, 2);
	return put32(w, page_size);
}

int tdw_write_headers(struct tdw *w, const struct tdw_blob *header_page,
			  const struct tdw_blob *header_event)
{
	put(w, "header_page", 12);
	put64(w, header_page->len);
	put(w, header_page->data, header_page->len);
	put(w, "header_event", 13);
	put64(w, header_event->len);
	return put(w, header_event->data, header_event->len);
}

static int put_formats(struct tdw *w, const struct tdw_blob *formats, uint32_t n)
{
	put32(w, n);
	for (uint32_t i = 0; i < n; i++) {
		put64(w, formats[i].len);
		put(w, formats[i].data, formats[i].len);
	}
	return w->err;
}

int tdw_write_ftrace(struct tdw *w, const struct tdw_blob *formats, uint32_t n)
{
	return put_formats(w, formats, n);
}

int tdw_write_systems(struct tdw *w, const struct tdw_system *sys, uint32_t n)
{
	put32(w, n);
	for (uint32_t i = 0; i < n; i++) {
		put(w, sys[i].name, strlen(sys[i].name) + 1);
		put_formats(w, sys[i].formats, sys[i].nformats);
	}
	return w->err;
}

static int put_blob32(struct tdw *w, const struct tdw_blob *b)
{
	if (b->len > UINT32_MAX)
		return w->err ? w->err : (w->err = -EFBIG);
	put32(w, (uint32_t)b->len);
	return put(w, b->data, b->len);
}

int tdw_write_kallsyms(struct tdw *w, const struct tdw_blob *b)
{
	return put_blob32(w, b);
}

int tdw_write_kallsyms_fd(struct tdw *w, int fd)
{
	enum { CHUNK = 64 * 1024 };
	uint64_t size_pos = w->pos, len = 0;
	unsigned char b[4];
	ssize_t n;
	char *buf;

	if (put32(w, 0))
		return w->err;
	buf = malloc(CHUNK);
	if (!buf)
		return w->err = -ENOMEM;
	while (!w->err) {
		n = read(fd, buf, CHUNK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			/* Half a symbol table is worse than none: go back to an empty section. */
			if (ftruncate(w->fd, (off_t)(size_pos + 4)) < 0 ||
			    lseek(w->fd, (off_t)(size_pos + 4), SEEK_SET) < 0)
				w->err = -errno;
			w->pos = size_pos + 4;
			len = 0;
			break;
		}
		if (!n)
			break;
		if (len + (uint64_t)n > UINT32_MAX)
			w->err = -EFBIG;
		else if (!put(w, buf, (size_t)n))
			len += (uint64_t)n;
	}
	free(buf);
	if (w->err)
		return w->err;
	tdw_put32(b, (uint32_t)len);
	n = pwrite(w->fd, b, 4, (off_t)size_pos);
	if (n != 4)
		return w->err = n < 0 ? -errno : -ENOSPC;
	return 0;
}

int tdw_write_printk(struct tdw *w, const struct tdw_blob *b)
{
	return put_blob32(w, b);
}

int tdw_write_cmdlines(struct tdw *w, const struct tdw_blob *b)
{
	put64(w, b->len);
	return put(w, b->data, b->len);
}

int tdw_write_options(struct tdw *w, uint32_t ncpus, const struct tdw_option *opt,
			  size_t nopt)
{
	w->ncpus = ncpus;
	put32(w, ncpus);
	put(w, "options  ", 10);
	for (size_t i = 0; i < nopt; i++) {
		if (opt[i].id == TDW_OPT_DONE)
			continue;	/* a 0 id would end the list early */
		put16(w, opt[i].id);
		put32(w, opt[i].len);
		put(w, opt[i].data, opt[i].len);
	}
	return put16(w, TDW_OPT_DONE);
}

static int put_table(struct tdw *w)
{
	for (uint32_t i = 0; i < w->ncpus; i++) {
		put64(w, w->cpu_off[i]);
		put64(w, w->cpu_size[i]);
	}
	return w->err;
}

int tdw_write_flyrecord(struct tdw *w, const uint64_t *sizes)
{
	static const char zeros[512];
	uint64_t page = w->page_size, off;

	if (w->err)
		return w->err;
	if (!page)
		return w->err = -EINVAL;
	free(w->cpu_off);
	free(w->cpu_size);
	w->cpu_off = calloc(w->ncpus ? w->ncpus : 1, sizeof(uint64_t));
	w->cpu_size = calloc(w->ncpus ? w->ncpus : 1, sizeof(uint64_t));
	if (!w->cpu_off || !w->cpu_size)
		return w->err = -ENOMEM;
	put(w, "flyrecord", 10);
	w->table_pos = w->pos;
	off = (w->pos + 16ULL * w->ncpus + page - 1) / page * page;
	for (uint32_t i = 0; i < w->ncpus; i++) {
		w->cpu_off[i] = off;
		w->cpu_size[i] = sizes[i] / page * page;
		off += w->cpu_size[i];
	}
	put_table(w);
	off = w->ncpus ? w->cpu_off[0] : w->pos;
	while (!w->err && w->pos < off) {
		uint64_t n = off - w->pos;

		put(w, zeros, n < sizeof(zeros) ? n : sizeof(zeros));
	}
	return w->err;
}

int tdw_write_data(struct tdw *w, const void *buf, size_t len)
{
	return put(w, buf, len);
}

int tdw_cut(struct tdw *w, uint32_t cpu, uint64_t kept)
{
	unsigned char b[16];
	uint64_t end;
	int ret = 0;

	if (!w->cpu_off || cpu >= w->ncpus)
		return -EINVAL;
	kept = kept / w->page_size * w->page_size;
	if (kept > w->cpu_size[cpu])
		kept = w->cpu_size[cpu];
	w->cpu_size[cpu] = kept;
	end = w->cpu_off[cpu] + kept;
	for (uint32_t i = cpu + 1; i < w->ncpus; i++) {
		w->cpu_off[i] = end;
		w->cpu_size[i] = 0;
	}
	/* pwrite over bytes already on disk: no new space is needed, even on a full disk. */
	for (uint32_t i = 0; i < w->ncpus; i++) {
		tdw_put64(b, w->cpu_off[i]);
		tdw_put64(b + 8, w->cpu_size[i]);
		if (pwrite(w->fd, b, 16, (off_t)(w->table_pos + 16ULL * i)) != 16) {
			ret = -errno;
			break;
		}
	}
	if (!ret && ftruncate(w->fd, (off_t)end) < 0)
		ret = -errno;
	w->pos = end;
	return ret;
}
