// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Hostile trace.dat files made from a real one (samples/tracedat/mixed-3000-v6.dat,
 * recorded by trace-cmd; the v7 zstd sample for truncation): the helper below
 * walks the v6 layout (`man 5 trace-cmd.dat.v6`) to find every section
 * boundary, the cpu table and the pages, then writes variants: truncated at
 * every boundary and mid-page, commits beyond the page, offsets past EOF or
 * overflowing 64 bits, CPU counts of 0 and 100,000, absurd field offsets and
 * sizes, a format file that is not text, timestamps going backwards, a pid
 * with two comms.  Each must load and analyze without a sanitizer report
 * (this test runs in the ASan build too), and either analyze what was
 * readable with a "truncated" warning finding or fail with a message.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "latscope/analyze.h"
#include "latscope/an_wakeup.h"
#include "latscope/input.h"
#include "latscope/report.h"

#define V6 LAT_SAMPLES_DIR "/tracedat/mixed-3000-v6.dat"
#define V7 LAT_SAMPLES_DIR "/tracedat/mixed-3000-v7-zstd.dat"
#define MAXB 64

struct v6 {
	unsigned char *d;
	size_t len;
	size_t bound[MAXB];	/* section starts, in file order */
	int nb;
	size_t fmt_first, fmt_end;	/* the ftrace + event format files */
	size_t cmd_off, cmd_len;	/* saved cmdlines text */
	size_t ncpus_off;		/* u32 cpu count */
	size_t table_off;		/* flyrecord cpu table: (u64 off, u64 size) per CPU */
	uint32_t ncpus, psize;
};

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *d;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	rewind(f);
	d = malloc((size_t)n);
	assert_non_null(d);
	assert_int_equal(fread(d, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return d;
}

static uint32_t u32(const struct v6 *v, size_t off)
{
	uint32_t x;

	assert_true(off + 4 <= v->len);
	memcpy(&x, v->d + off, 4);
	return x;
}

static uint64_t u64(const struct v6 *v, size_t off)
{
	uint64_t x;

	assert_true(off + 8 <= v->len);
	memcpy(&x, v->d + off, 8);
	return x;
}

static void mark(struct v6 *v, size_t off)
{
	assert_true(v->nb < MAXB);
	v->bound[v->nb++] = off;
}

/* Walks the v6 layout; the sample is little-endian with 8-byte longs. */
static void v6_parse(struct v6 *v)
{
	size_t p = 10, n;

	memset(v, 0, sizeof(*v));
	v->d = slurp(V6, &v->len);
	assert_memory_equal(v->d, "\x17\x08\x44tracing6", 11);
	p = 12;
	assert_int_equal(v->d[p], 0);	/* little endian */
	assert_int_equal(v->d[p + 1], 8);
	v->psize = u32(v, p + 2);
	p += 6;
	mark(v, p);			/* header_page */
	p += 12;
	p += 8 + u64(v, p);
	mark(v, p);			/* header_event */
	p += 13;
	p += 8 + u64(v, p);
	mark(v, p);			/* ftrace event formats */
	v->fmt_first = p;
	n = u32(v, p);
	p += 4;
	for (size_t i = 0; i < n; i++)
		p += 8 + u64(v, p);
	mark(v, p);			/* event systems */
	n = u32(v, p);
	p += 4;
	for (size_t i = 0; i < n; i++) {
		size_t k;

		p += strlen((char *)v->d + p) + 1;
		k = u32(v, p);
		p += 4;
		for (size_t j = 0; j < k; j++)
			p += 8 + u64(v, p);
	}
	v->fmt_end = p;
	mark(v, p);			/* kallsyms */
	p += 4 + u32(v, p);
	mark(v, p);			/* printk */
	p += 4 + u32(v, p);
	mark(v, p);			/* cmdlines */
	v->cmd_len = u64(v, p);
	v->cmd_off = p + 8;
	p += 8 + v->cmd_len;
	mark(v, p);			/* cpu count */
	v->ncpus_off = p;
	v->ncpus = u32(v, p);
	p += 4;
	mark(v, p);			/* options or flyrecord */
	if (!memcmp(v->d + p, "options  ", 10)) {
		p += 10;
		for (;;) {
			uint16_t id;

			memcpy(&id, v->d + p, 2);
			p += 2;
			if (!id)
				break;
			p += 4 + u32(v, p);
		}
		mark(v, p);
	}
	assert_memory_equal(v->d + p, "flyrecord", 10);
	v->table_off = p + 10;
	mark(v, v->table_off);
	for (uint32_t c = 0; c < v->ncpus; c++)
		if (u64(v, v->table_off + 16 * c + 8))
			mark(v, u64(v, v->table_off + 16 * c));	/* each CPU's pages */
}

static uint64_t cpu_off(const struct v6 *v, int c)
{
	return u64(v, v->table_off + 16 * (size_t)c);
}

/* What one variant gave; the counts are summed for the report at the end. */
struct outcome {
	int analyzed, refused, truncated;
	uint64_t full;		/* events in the untouched file */
	int complete;		/* analyzed variants that still read every event */
};

/*
 * Loads @len bytes of @d as a file, analyzes, writes both reports.  Returns
 * 1 analyzed (with a "truncated" finding when reading stopped early), 0 refused
 * with a message.
 */
static int run(const unsigned char *d, size_t len, struct outcome *o, int check_json)
{
	char path[] = "/tmp/latscope-hostile-dat-XXXXXX";
	struct lat_analyze_opts opts;
	struct lat_loaded l;
	int fd = mkstemp(path), ret, got;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, d, len), (ssize_t)len);
	close(fd);
	lat_analyze_opts_init(&opts);
	ret = lat_load(&l, path, NULL);
	if (ret < 0) {
		/* refused: one clear reason, and nothing half-loaded */
		assert_true(l.error[0] != '\0');
		assert_null(strchr(l.error, '\n'));
		assert_int_equal(l.nblocks, 0);
		o->refused++;
		got = 0;
	} else {
		struct lat_report_input rep = { .path = path, .format = l.format,
						.blocks = l.blocks, .nblocks = l.nblocks };
		FILE *f;
		char jpath[64], cmd[128];

		assert_int_equal(l.nblocks, 1);
		assert_int_equal(lat_analyze_block(l.blocks[0], &opts), 0);
		/* flagged: reading stopped early, or went on past a damaged page */
		for (size_t i = 0; i < l.blocks[0]->nfindings; i++)
			if (!strcmp(l.blocks[0]->findings[i].kind, "truncated") ||
			    !strcmp(l.blocks[0]->findings[i].kind, "damaged-data")) {
				o->truncated++;
				break;
			}
		if (o->full && ((const struct lat_wakeup_result *)l.blocks[0]->analysis)->nevents ==
				       o->full)
			o->complete++;
		snprintf(jpath, sizeof(jpath), "%s.json", path);
		f = fopen(jpath, "w");
		assert_non_null(f);
		lat_report_json(f, &rep, 1, &opts);
		lat_report_text(f, &rep, 1, &opts);
		fclose(f);
		if (check_json) {
			f = fopen(jpath, "w");
			lat_report_json(f, &rep, 1, &opts);
			fclose(f);
			snprintf(cmd, sizeof(cmd), "python3 -m json.tool %s >/dev/null", jpath);
			assert_int_equal(system(cmd), 0);
		}
		unlink(jpath);
		o->analyzed++;
		got = 1;
	}
	lat_loaded_release(&l);
	unlink(path);
	return got;
}

static const struct lat_wakeup_result *wake(struct lat_loaded *l)
{
	return l->blocks[0]->analysis;
}

/* The untouched file: the reference the variants are compared with. */
static uint64_t events_of(const unsigned char *d, size_t len)
{
	char path[] = "/tmp/latscope-hostile-dat-XXXXXX";
	struct lat_analyze_opts opts;
	struct lat_loaded l;
	uint64_t n;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, d, len), (ssize_t)len);
	close(fd);
	lat_analyze_opts_init(&opts);
	assert_int_equal(lat_load(&l, path, NULL), 0);
	assert_int_equal(lat_analyze_block(l.blocks[0], &opts), 0);
	n = wake(&l)->nevents;
	lat_loaded_release(&l);
	unlink(path);
	return n;
}

static void test_truncated_everywhere(void **state)
{
	struct outcome o = { 0 };
	struct v6 v;
	size_t data0;

	(void)state;
	v6_parse(&v);
	o.full = events_of(v.d, v.len);
	/* at every boundary, one byte either side of it */
	for (int i = 0; i < v.nb; i++)
		for (int k = -1; k <= 1; k++)
			run(v.d, v.bound[i] + (size_t)k, &o, 0);
	/* at every page boundary and mid-page of the first CPU's data */
	data0 = cpu_off(&v, 0);
	for (size_t p = data0; p < v.len; p += v.psize) {
		run(v.d, p, &o, 0);
		run(v.d, p + v.psize / 2, &o, 0);
	}
	/* metadata cuts are refused, data cuts analyzed and flagged */
	assert_int_equal(o.analyzed + o.refused, 3 * v.nb + 2 * ((v.len - data0 + v.psize - 1) /
								 v.psize));
	assert_true(o.refused >= 3 * (v.nb - (int)v.ncpus));
	assert_true(o.analyzed > 0);
	assert_int_equal(o.truncated + o.complete, o.analyzed);
	print_message("truncated: %d analyzed (%d flagged, %d after the last event), %d "
		      "refused\n", o.analyzed, o.truncated, o.complete, o.refused);
	free(v.d);
}

/* One event as a line of text: every field the readers fill, for comparing two reads. */
static void ev_line(const struct lat_event *ev, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%llu %d %d %.16s %d %u %s |", (unsigned long long)ev->ts_ns,
			 ev->cpu, ev->pid, ev->comm, (int)ev->type, ev->flags,
			 ev->name ? ev->name : "-");

	if (ev->type == LAT_EV_SWITCH)
		snprintf(buf + n, len - (size_t)n, "%.16s %d %d %u %.16s %d %d", ev->u.sw.prev_comm,
			 ev->u.sw.prev_pid, ev->u.sw.prev_prio, ev->u.sw.prev_state_raw,
			 ev->u.sw.next_comm, ev->u.sw.next_pid, ev->u.sw.next_prio);
	else if (ev->type == LAT_EV_WAKING || ev->type == LAT_EV_WAKEUP ||
		 ev->type == LAT_EV_WAKEUP_NEW)
		snprintf(buf + n, len - (size_t)n, "%.16s %d %d %d", ev->u.wake.comm,
			 ev->u.wake.pid, ev->u.wake.prio, ev->u.wake.target_cpu);
	else if (ev->type == LAT_EV_MARKER)
		snprintf(buf + n, len - (size_t)n, "%.*s", (int)ev->u.marker.len,
			 ev->u.marker.text ? ev->u.marker.text : "");
	else if (ev->type == LAT_EV_LOST)
		snprintf(buf + n, len - (size_t)n, "%llu", (unsigned long long)ev->u.lost.count);
	else if (ev->type >= LAT_EV_IRQ_ENTRY && ev->type <= LAT_EV_SOFTIRQ_EXIT)
		snprintf(buf + n, len - (size_t)n, "%d %s", ev->u.irq.irq,
			 ev->u.irq.name ? ev->u.irq.name : "-");
}

/* The events of @path (a text line each, in @out) and the last return: by next() or batches of @n. */
static int read_all(const char *path, int n, char ***out, size_t *count)
{
	struct lat_loaded l;
	struct lat_event evs[40];
	size_t cap = 0;
	int ret;

	*out = NULL;
	*count = 0;
	if (lat_load(&l, path, NULL) < 0) {
		lat_loaded_release(&l);	/* refused: its reason is kept in @l */
		return -1000;
	}
	for (;;) {
		ret = n ? lat_event_next_batch(l.blocks[0]->events, evs, n) :
			  lat_event_next(l.blocks[0]->events, evs);
		if (ret <= 0)
			break;
		/* a batch's lent pointers stay valid until the next call: read them all now */
		for (int i = 0; i < ret; i++) {
			char line[512];

			ev_line(&evs[i], line, sizeof(line));
			if (*count == cap) {
				cap = cap ? 2 * cap : 1024;
				*out = realloc(*out, cap * sizeof(**out));
				assert_non_null(*out);
			}
			(*out)[(*count)++] = strdup(line);
		}
	}
	lat_loaded_release(&l);
	return ret;
}

static void free_lines(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/*
 * next_batch gives what next() gives, event for event, and the same end or
 * error: on the whole file (with markers, irqs, lost marks if any) and on
 * copies cut inside the data, where the walk stops with an error.
 */
static void test_batch_equals_next(void **state)
{
	struct v6 v;
	size_t data0, cuts = 0;

	(void)state;
	v6_parse(&v);
	data0 = cpu_off(&v, 0);
	for (size_t cut = v.len; cut > data0; cut = cut > v.psize / 3 + data0 ? cut - v.psize / 3 :
									     data0) {
		char path[] = "/tmp/latscope-batch-dat-XXXXXX";
		int fd = mkstemp(path), rn;
		char **a;
		size_t na;

		assert_true(fd >= 0);
		assert_int_equal(write(fd, v.d, cut), (ssize_t)cut);
		close(fd);
		rn = read_all(path, 0, &a, &na);
		for (int n = 1; n <= 40; n += 13) {
			char **b;
			size_t nb;
			int rb = read_all(path, n, &b, &nb);

			assert_int_equal(rb, rn);
			assert_int_equal(nb, na);
			for (size_t i = 0; i < na; i++)
				assert_string_equal(b[i], a[i]);
			free_lines(b, nb);
		}
		if (cut == v.len)
			assert_int_equal(na, 3000);	/* the sample's name */
		free_lines(a, na);
		unlink(path);
		cuts++;
	}
	assert_true(cuts > 10);
	free(v.d);
}

static void test_truncated_v7(void **state)
{
	struct outcome o = { 0 };
	size_t len;
	unsigned char *d = slurp(V7, &len);

	(void)state;
	o.full = events_of(d, len);
	assert_int_equal(o.full, 3000);	/* the sample's name: 3000 events */
	for (size_t cut = 0; cut < len; cut += 97)
		run(d, cut, &o, 0);
	assert_true(o.refused > 0);
	/* no silent loss: an analyzed cut either read every event or says it stopped */
	assert_int_equal(o.truncated + o.complete, o.analyzed);
	print_message("v7 truncated: %d analyzed (%d flagged, %d after the last event), %d "
		      "refused\n", o.analyzed, o.truncated, o.complete, o.refused);
	free(d);
}

static void test_pages(void **state)
{
	struct outcome o = { 0 };
	struct v6 v;
	unsigned char *w;
	uint64_t full, off, n;

	(void)state;
	v6_parse(&v);
	full = events_of(v.d, v.len);
	w = malloc(v.len);
	assert_non_null(w);
	/*
	 * commit beyond the page, on each CPU's first page: that page is skipped
	 * and said (damaged-data), the rest of the CPU and the others are read
	 */
	for (uint32_t c = 0; c < v.ncpus; c++) {
		memcpy(w, v.d, v.len);
		off = cpu_off(&v, (int)c);
		memset(w + off + 8, 0x7f, 4);
		assert_int_equal(run(w, v.len, &o, c == 0), 1);
		n = events_of(w, v.len);
		assert_true(n < full && n + v.psize / 8 > full);	/* one page's events */
	}
	assert_int_equal(o.truncated, (int)v.ncpus);
	/*
	 * timestamps going backwards: CPU0's second page starts before its first.
	 * Its events would come out of time order: the page is skipped and said.
	 */
	memcpy(w, v.d, v.len);
	off = cpu_off(&v, 0);
	memcpy(w + off + v.psize, w + off, 8);
	w[off + v.psize] -= 1;
	memset(w + off + v.psize + 1, 0, 1);
	assert_int_equal(run(w, v.len, &o, 0), 1);
	assert_int_equal(o.truncated, (int)v.ncpus + 1);
	n = events_of(w, v.len);
	assert_true(n < full && n + v.psize / 8 > full);
	free(w);
	free(v.d);
}

static void test_cpu_table(void **state)
{
	struct outcome o = { 0 };
	struct v6 v;
	unsigned char *w;
	uint64_t x;
	uint32_t n;

	(void)state;
	v6_parse(&v);
	w = malloc(v.len);
	assert_non_null(w);
	/* CPU0's data past EOF; then an offset + size overflowing 64 bits */
	memcpy(w, v.d, v.len);
	x = v.len + 4096;
	memcpy(w + v.table_off, &x, 8);
	assert_int_equal(run(w, v.len, &o, 0), 1);
	x = UINT64_MAX - 100;
	memcpy(w + v.table_off, &x, 8);
	x = 4096;
	memcpy(w + v.table_off + 8, &x, 8);
	assert_int_equal(run(w, v.len, &o, 0), 1);
	x = 1;
	memcpy(w + v.table_off, &x, 8);
	x = UINT64_MAX;
	memcpy(w + v.table_off + 8, &x, 8);
	assert_int_equal(run(w, v.len, &o, 1), 1);
	assert_int_equal(o.truncated, 3);
	/* every CPU past EOF: nothing readable, refused */
	memcpy(w, v.d, v.len);
	for (uint32_t c = 0; c < v.ncpus; c++) {
		x = v.len + 1;
		memcpy(w + v.table_off + 16 * c, &x, 8);
	}
	assert_int_equal(run(w, v.len, &o, 0), 0);
	/* CPU counts 0 and 100,000 */
	memcpy(w, v.d, v.len);
	n = 0;
	memcpy(w + v.ncpus_off, &n, 4);
	run(w, v.len, &o, 0);
	n = 100000;
	memcpy(w + v.ncpus_off, &n, 4);
	assert_int_equal(run(w, v.len, &o, 0), 0);
	free(w);
	free(v.d);
}

/* Replaces the digits after every "offset:" / "size:" in the formats (not common_*). */
static void mangle_fields(unsigned char *w, const struct v6 *v, int common_too)
{
	for (size_t p = v->fmt_first; p + 8 < v->fmt_end; p++) {
		size_t skip = !memcmp(w + p, "offset:", 7) ? 7 : !memcmp(w + p, "size:", 5) ? 5 : 0;
		unsigned char *line = w + p;

		if (!skip)
			continue;
		while (line > w + v->fmt_first && line[-1] != '\n')
			line--;
		if (!common_too && memmem(line, (size_t)(w + p - line), "common_", 7))
			continue;
		for (p += skip; p < v->fmt_end && w[p] >= '0' && w[p] <= '9'; p++)
			w[p] = '9';
	}
}

static void test_formats(void **state)
{
	struct outcome o = { 0 };
	struct v6 v;
	unsigned char *w;
	size_t sz;

	(void)state;
	v6_parse(&v);
	w = malloc(v.len);
	assert_non_null(w);
	/* absurd offsets and sizes in every event field: events pass undecoded */
	memcpy(w, v.d, v.len);
	mangle_fields(w, &v, 0);
	assert_int_equal(run(w, v.len, &o, 1), 1);
	/* common_type too: no event can be typed, refused with a message */
	memcpy(w, v.d, v.len);
	mangle_fields(w, &v, 1);
	assert_int_equal(run(w, v.len, &o, 0), 0);
	/* the first ftrace format file is binary noise (same size) */
	memcpy(w, v.d, v.len);
	sz = (size_t)u64(&v, v.fmt_first + 4);
	for (size_t i = 0; i < sz; i++)
		w[v.fmt_first + 12 + i] = (unsigned char)(i * 131 + 7);
	assert_int_equal(run(w, v.len, &o, 0), 1);
	free(w);
	free(v.d);
}

/* Two cmdlines for one pid: the later one wins, no crash, both reports valid. */
static void test_pid_two_comms(void **state)
{
	struct outcome o = { 0 };
	struct v6 v;
	unsigned char *w, *c, *nl, *c2;

	(void)state;
	v6_parse(&v);
	w = malloc(v.len);
	assert_non_null(w);
	memcpy(w, v.d, v.len);
	c = w + v.cmd_off;
	nl = memchr(c, '\n', v.cmd_len);
	assert_non_null(nl);
	/* give the second line the first line's pid (same digit count or padded with 0s) */
	c2 = nl + 1;
	{
		size_t d1 = strspn((char *)c, "0123456789"), d2 = strspn((char *)c2, "0123456789");

		if (d2 >= d1) {
			memset(c2, '0', d2 - d1);
			memcpy(c2 + d2 - d1, c, d1);
		}
	}
	assert_int_equal(run(w, v.len, &o, 1), 1);
	free(w);
	free(v.d);
}

/*
 * v7 compressed chunks: found by their zstd frame magic with a plausible
 * (clen, ulen) header before it.  A chunk claiming to inflate to 2 GiB, and
 * one claiming 64 MiB (the cap) that inflates to less, stop that CPU with a
 * message; nothing is allocated beyond the caps (ASan's allocator would
 * report a 2 GiB request in the sanitizer build).
 */
static void test_v7_chunks(void **state)
{
	struct outcome o = { 0 };
	size_t len, nchunks = 0;
	unsigned char *d = slurp(V7, &len), *w = malloc(len);

	(void)state;
	assert_non_null(w);
	for (size_t p = 8; p + 4 <= len; p++) {
		uint32_t clen, ulen;

		if (memcmp(d + p, "\x28\xb5\x2f\xfd", 4))
			continue;
		memcpy(&clen, d + p - 8, 4);
		memcpy(&ulen, d + p - 4, 4);
		if (!ulen || ulen % 4096 || clen > len - p)
			continue;	/* a metadata section's frame, not a page chunk */
		nchunks++;
		memcpy(w, d, len);
		ulen = 0x80000000u;
		memcpy(w + p - 4, &ulen, 4);
		assert_int_equal(run(w, len, &o, 0), 1);
		ulen = 64u << 20;
		memcpy(w + p - 4, &ulen, 4);
		assert_int_equal(run(w, len, &o, 0), 1);
	}
	/* the sample has a chunk per CPU at least (2 CPUs) */
	assert_true(nchunks >= 2);
	assert_int_equal(o.truncated, o.analyzed);
	print_message("v7 chunks: %zu patched twice, %d flagged\n", nchunks, o.truncated);
	free(w);
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_truncated_everywhere),
		cmocka_unit_test(test_truncated_v7),
		cmocka_unit_test(test_batch_equals_next),
		cmocka_unit_test(test_pages),
		cmocka_unit_test(test_cpu_table),
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_pid_two_comms),
		cmocka_unit_test(test_v7_chunks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
