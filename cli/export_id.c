// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The trace_id column of `latscope export --rows` (docs/export.md) without waiting for it:
 * the id is FNV-1a 64 of the whole input file, a chain of multiplies that reads ~40 ms of
 * a 27 MB trace.dat, as long as its analysis (bench/README-export.md), and every row carries
 * it.  So the hash runs on a thread of its own while the analysis writes the rows with
 * LAT_ROWS_ID_HOLD where the id's digits go.  Into a regular file open for reading too the
 * rows go out at once and are given the digits in place when they are known (read back and
 * written again, PATCH_BUF bytes at a time); elsewhere (a pipe, the terminal) they wait in
 * memory (CLI_HOLD_MAX bytes over all tables at most: then the writer waits for the hash)
 * until the digits are known, and are written with them put in.  The rows after that carry
 * them (the caller's id texts are changed).  The bytes written are those of the hash
 * computed first.  Holding, the writer waited for the hash once 16 MiB were held, while
 * the analysis, the hash and the writer had two cores between them (bench/README-export.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "latscope/export.h"
#include "export_id.h"

/*
 * Rows held while the hash runs, over all tables: about 0.1 s of rows (then the analysis
 * waits for the hash).  A build may set less (a test of the wait).
 */
#ifndef CLI_HOLD_MAX
#define CLI_HOLD_MAX (16u << 20)
#endif

/* What a file's rows are read back and written again by, with the digits put in. */
#define PATCH_BUF (1u << 20)

/* One table's stream: what the rows writer writes goes through here to @out. */
struct cli_id_stream {
	struct cli_ids *ids;
	FILE *out;		/* the table's file; owned (not stdout) */
	char *held;		/* rows written while the hash runs */
	size_t nheld, cap;
	char *scratch;		/* a write with held bytes in it, the digits put in */
	size_t scap;
	unsigned k;		/* held bytes seen so far, modulo LAT_ROWS_ID_LEN */
	int bad;		/* a write to out failed */
	int in_place;		/* out is a regular file open for reading: nothing held */
	off_t pos;		/* bytes written to out */
	off_t patch_from;	/* in_place: the first byte written while the hash ran; -1 none */
};

static void *hash_thread(void *arg)
{
	struct cli_ids *ids = arg;

	ids->err = lat_rows_trace_id_file(ids->in, ids->hex);
	atomic_store_explicit(&ids->done, 1, memory_order_release);
	return NULL;
}

/*
 * @p[0..n) with each held byte replaced by the id's digit at its place.  They come in runs
 * of LAT_ROWS_ID_LEN (a write may cut one): one search a run, not one a byte, and a whole
 * run given the digits in one copy (a byte at a time was 200 instructions a row).
 */
static void put_digits(struct cli_id_stream *s, char *p, size_t n)
{
	char *q = p, *end = p + n;

	while ((q = memchr(q, LAT_ROWS_ID_HOLD[0], (size_t)(end - q)))) {
		if (!s->k && (size_t)(end - q) >= LAT_ROWS_ID_LEN &&
		    !memcmp(q, LAT_ROWS_ID_HOLD, LAT_ROWS_ID_LEN)) {
			memcpy(q, s->ids->hex, LAT_ROWS_ID_LEN);
			q += LAT_ROWS_ID_LEN;
			continue;
		}
		do {
			*q++ = s->ids->hex[s->k];
			s->k = (s->k + 1) % LAT_ROWS_ID_LEN;
		} while (q < end && *q == LAT_ROWS_ID_HOLD[0]);
	}
}

/* @n bytes of @p to the file, digits put in place; 0 or -1. */
static int pass(struct cli_id_stream *s, const char *p, size_t n)
{
	s->pos += (off_t)n;
	if (!memchr(p, LAT_ROWS_ID_HOLD[0], n))
		return fwrite(p, 1, n, s->out) == n ? 0 : -1;
	if (n > s->scap) {
		char *m = realloc(s->scratch, n);

		if (!m)
			return -1;
		s->scratch = m;
		s->scap = n;
	}
	memcpy(s->scratch, p, n);
	put_digits(s, s->scratch, n);
	return fwrite(s->scratch, 1, n, s->out) == n ? 0 : -1;
}

/*
 * The bytes of @s's file written while the hash ran, from s->patch_from on, read back and
 * written again with the digits put in; 0 or -1.
 */
static int patch(struct cli_id_stream *s)
{
	int fd = fileno(s->out);
	off_t off = s->patch_from;

	s->patch_from = -1;
	if (s->scap < PATCH_BUF) {
		char *m = realloc(s->scratch, PATCH_BUF);

		if (!m)
			return -1;
		s->scratch = m;
		s->scap = PATCH_BUF;
	}
	while (off < s->pos) {
		size_t n = s->pos - off < PATCH_BUF ? (size_t)(s->pos - off) : PATCH_BUF;

		if (pread(fd, s->scratch, n, off) != (ssize_t)n)
			return -1;
		put_digits(s, s->scratch, n);
		if (pwrite(fd, s->scratch, n, off) != (ssize_t)n)
			return -1;
		off += (off_t)n;
	}
	return 0;
}

/* The hash is known: every stream's held rows go out with their digits; 0 or -1. */
static int resolve(struct cli_ids *ids)
{
	int bad = 0;

	if (!ids->running)
		return 0;
	pthread_join(ids->th, NULL);
	ids->running = 0;
	/* the rows after this one carry the digits (their fixed form is made again) */
	for (size_t i = 0; i < ids->ntexts; i++)
		if (!strncmp(ids->texts[i], LAT_ROWS_ID_HOLD, LAT_ROWS_ID_LEN))
			memcpy(ids->texts[i], ids->hex, LAT_ROWS_ID_LEN);
	for (size_t i = 0; i < ids->nstreams; i++) {
		struct cli_id_stream *s = ids->streams[i];

		if (s->patch_from >= 0 && patch(s))
			bad = s->bad = -1;
		if (!s->nheld)
			continue;	/* held stays NULL: nothing for memchr() */
		put_digits(s, s->held, s->nheld);
		if (fwrite(s->held, 1, s->nheld, s->out) != s->nheld)
			bad = s->bad = -1;
		s->pos += (off_t)s->nheld;
		free(s->held);
		s->held = NULL;
		s->nheld = s->cap = 0;
	}
	ids->nheld = 0;
	return bad;
}

static ssize_t id_write(void *cookie, const char *p, size_t n)
{
	struct cli_id_stream *s = cookie;
	struct cli_ids *ids = s->ids;

	if (ids->running && atomic_load_explicit(&ids->done, memory_order_acquire) &&
	    resolve(ids))
		return -1;
	if (ids->running && s->in_place) {
		/* out as they are: the digits are put in when known (patch()) */
		if (s->patch_from < 0)
			s->patch_from = s->pos;
		s->pos += (off_t)n;
		if (fwrite(p, 1, n, s->out) != n) {
			s->bad = -1;
			return -1;
		}
		return (ssize_t)n;
	}
	if (ids->running && ids->nheld + n <= CLI_HOLD_MAX) {
		if (s->nheld + n > s->cap) {
			size_t cap = s->cap ? s->cap : 1 << 20;
			char *m;

			while (cap < s->nheld + n)
				cap *= 2;
			if (!(m = realloc(s->held, cap)))
				return -1;
			s->held = m;
			s->cap = cap;
		}
		memcpy(s->held + s->nheld, p, n);
		s->nheld += n;
		ids->nheld += n;
		return (ssize_t)n;
	}
	/* past the bound: the analysis waits for the hash */
	if (resolve(ids) || pass(s, p, n)) {
		s->bad = -1;
		return -1;
	}
	return (ssize_t)n;
}

static int id_close(void *cookie)
{
	struct cli_id_stream *s = cookie;
	int bad = resolve(s->ids) || s->bad;

	bad |= fflush(s->out) || ferror(s->out);
	if (s->out != stdout)
		bad |= fclose(s->out) != 0;
	free(s->scratch);
	for (size_t i = 0; i < s->ids->nstreams; i++)
		if (s->ids->streams[i] == s)
			s->ids->streams[i] = s->ids->streams[--s->ids->nstreams];
	free(s);
	return bad ? EOF : 0;
}

/* Whether @out is a regular file open for reading and writing; *pos its offset. */
static int in_place(FILE *out, off_t *pos)
{
	int fd = fileno(out), fl = fd < 0 ? -1 : fcntl(fd, F_GETFL);
	struct stat st;

	if (fl < 0 || (fl & O_ACCMODE) != O_RDWR || (fl & O_APPEND) || fstat(fd, &st) ||
	    !S_ISREG(st.st_mode))
		return 0;
	*pos = lseek(fd, 0, SEEK_CUR);
	return *pos >= 0;
}

FILE *cli_ids_stream(struct cli_ids *ids, FILE *out)
{
	cookie_io_functions_t io = { .write = id_write, .close = id_close };
	struct cli_id_stream *s;
	FILE *f;

	if (ids->nstreams == CLI_IDS_MAX_STREAMS || !(s = calloc(1, sizeof(*s))))
		return NULL;
	s->ids = ids;
	s->out = out;
	s->patch_from = -1;
	s->in_place = in_place(out, &s->pos);
	if (!(f = fopencookie(s, "w", io))) {
		free(s);
		return NULL;
	}
	/* the stream above buffers: each of its writes goes out as it is */
	setvbuf(out, NULL, _IONBF, 0);
	ids->streams[ids->nstreams++] = s;
	return f;
}

int cli_ids_start(struct cli_ids *ids, const char *path, char *hex, char *id)
{
	int ret;

	ids->in = fopen(path, "rb");
	if (!ids->in)
		return -errno;
	ids->texts[0] = hex;
	ids->texts[1] = id;
	ids->ntexts = 2;
	atomic_store(&ids->done, 0);
	if (!pthread_create(&ids->th, NULL, hash_thread, ids)) {
		ids->running = 1;
		memcpy(hex, LAT_ROWS_ID_HOLD, LAT_ROWS_ID_LEN + 1);
		return 0;
	}
	/* no thread: the hash first, as without one */
	ret = lat_rows_trace_id_file(ids->in, hex);
	fclose(ids->in);
	ids->in = NULL;
	return ret;
}

int cli_ids_finish(struct cli_ids *ids, FILE *const *outs, size_t n)
{
	/* this input's rows into the held buffers or out, before the next input's come */
	for (size_t i = 0; i < n; i++)
		if (outs[i])
			fflush(outs[i]);
	if (!ids->in)
		return 0;
	resolve(ids);	/* a failed write: said by the stream's fclose() */
	fclose(ids->in);
	ids->in = NULL;
	ids->ntexts = 0;
	return ids->err;
}
