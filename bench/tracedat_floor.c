// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Floors for bench/tracedat.sh: the least a program must do to read every
 * event of a v6 trace.dat, and to turn them into wakeup latencies.
 *
 *   tracedat_floor pread  FILE RANGES    each CPU's pages read in turn into one
 *                                        reused buffer, their event headers
 *                                        walked, one field read per event
 *                                        (common_pid); no merge, no decoding
 *   tracedat_floor mmap   FILE RANGES    the same through one mapping of the file
 *   tracedat_floor wakeup FILE RANGES --sw ID,PREV_PID,PREV_STATE,NEXT_PID
 *                         --wk ID,PID    pread, the CPUs merged by timestamp,
 *                                        and the least wakeup analysis: a wait
 *                                        starts at a waking of a task not on
 *                                        a CPU or at a preemption, ends at its
 *                                        switch-in; count, sum and max per task
 *                                        and in all.  No comms, no percentiles,
 *                                        no critical path, no lost events, no
 *                                        checks beyond a page's commit.
 *
 * RANGES is OFF:SIZE per CPU; scripts/tracedat_v6_tool.py cpus prints them and
 * the --sw/--wk options.  Prints "N events, pid sum S" (N must equal the
 * reader's event count) and, for wakeup, "W waits, sum T ns, max M ns".
 * Little-endian, 8-byte longs, 4096-byte pages: what the bench's file is.
 * Written from the kernel's ring-buffer layout (see tracedat_walk.c).
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define PSIZE 4096u
#define HDR 16u			/* page header: timestamp, commit (8-byte long) */
#define BLOCK (128u << 10)	/* what latscope's reader reads per pread */
#define MAXCPU 64

struct count {
	unsigned long long n, pids;
};

/* One CPU's stream for the merged walk. */
struct stream {
	int fd;
	uint64_t off, left;		/* file range not yet read */
	char *buf;
	uint32_t len, pg;		/* bytes in buf, offset of the current page */
	const char *d;			/* current page's data */
	uint32_t commit, cur;
	uint64_t ts;
	const char *rec;		/* current record, NULL at the end */
};

static int32_t ld32(const char *p)
{
	int32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* The next data record of @s's current page after s->cur, or 0 at its end. */
static int page_next(struct stream *s)
{
	while (s->cur + 4 <= s->commit) {
		const char *p = s->d + s->cur;
		uint32_t h = (uint32_t)ld32(p), tl = h & 31, w;

		if (tl != 31)
			s->ts += h >> 5;
		if (tl >= 1 && tl <= 28) {
			if (s->cur + 4 + tl * 4 > s->commit)
				return 0;
			s->rec = p + 4;
			s->cur += 4 + tl * 4;
			return 1;
		}
		if (s->cur + 8 > s->commit)
			return 0;
		w = (uint32_t)ld32(p + 4);
		if (tl == 0) {
			if (w < 8 || s->cur + 8 + ((w - 4 + 3) & ~3u) > s->commit)
				return 0;
			s->rec = p + 8;
			s->cur += 8 + ((w - 4 + 3) & ~3u);
			return 1;
		}
		if (tl == 29)
			s->cur += 4 + w;
		else if (tl == 30)
			s->ts += (uint64_t)w << 27;
		else
			s->ts = ((uint64_t)w << 27) + (h >> 5);
		if (tl != 29)
			s->cur += 8;
	}
	return 0;
}

/* Steps @s to its next record (s->rec NULL at the end of its pages). */
static void stream_next(struct stream *s)
{
	for (;;) {
		uint64_t commit;

		if (s->d && page_next(s))
			return;
		if (s->d)
			s->pg += PSIZE;
		if (!s->d || s->pg + PSIZE > s->len) {
			uint32_t n = s->left < BLOCK ? (uint32_t)s->left : BLOCK;

			n -= n % PSIZE;
			if (!n || pread(s->fd, s->buf, n, (off_t)s->off) != (ssize_t)n) {
				s->rec = NULL;
				return;
			}
			s->off += n;
			s->left -= n;
			s->len = n;
			s->pg = 0;
		}
		s->d = s->buf + s->pg;
		memcpy(&s->ts, s->d, 8);
		memcpy(&commit, s->d + 8, 8);
		commit &= (1u << 27) - 1;
		s->commit = commit > PSIZE - HDR ? 0 : (uint32_t)commit;
		s->d += HDR;
		s->cur = 0;
	}
}

/* The least per-task state: open-addressed on pid, grown by doubling. */
struct task {
	int32_t pid;
	uint8_t used, on_cpu;
	uint64_t start;			/* wait start, 0 none */
	uint64_t n, sum, max;
};

static struct task *tasks;
static uint32_t tmask = 1023, tcount;

static struct task *task(int32_t pid);

static __attribute__((noinline)) struct task *task_new(uint32_t i, int32_t pid)
{
	if (++tcount * 2 > tmask) {
		struct task *old = tasks;
		uint32_t on = tmask + 1;

		tmask = tmask * 2 + 1;
		tasks = calloc(tmask + 1, sizeof(*tasks));
		if (!tasks)
			exit(2);
		tcount = 0;
		for (uint32_t k = 0; k < on; k++)
			if (old[k].used)
				*task(old[k].pid) = old[k];	/* task_new() counts it */
		free(old);
		return task(pid);
	}
	tasks[i].used = 1;
	tasks[i].pid = pid;
	return &tasks[i];
}

static inline struct task *task(int32_t pid)
{
	uint32_t i = ((uint32_t)pid * 2654435761u) & tmask;

	while (tasks[i].used && tasks[i].pid != pid)
		i = (i + 1) & tmask;
	return tasks[i].used ? &tasks[i] : task_new(i, pid);
}

static int wakeup(int fd, char **ranges, int nr, const int sw[4], const int wk[2])
{
	static struct stream st[MAXCPU];
	unsigned long long n = 0, pids = 0, waits = 0, sum = 0, max = 0;
	uint64_t lim = 0;
	long lim_cpu = 0;
	int ns = 0;

	tasks = calloc(tmask + 1, sizeof(*tasks));
	for (int i = 0; i < nr && i < MAXCPU; i++) {
		unsigned long long off, size;

		if (sscanf(ranges[i], "%llu:%llu", &off, &size) != 2)
			return 2;
		st[ns] = (struct stream){ .fd = fd, .off = off, .left = size };
		st[ns].buf = malloc(BLOCK);
		if (!tasks || !st[ns].buf)
			return 2;
		stream_next(&st[ns]);
		ns++;
	}
	for (struct stream *s = NULL;;) {
		const char *r;
		uint16_t id;

		/* the earliest CPU, (ts, cpu) order; kept while it stays before the others */
		if (!s || !s->rec || s->ts > lim || (s->ts == lim && s - st > lim_cpu)) {
			s = NULL;
			for (int i = 0; i < ns; i++)
				if (st[i].rec && (!s || st[i].ts < s->ts))
					s = &st[i];
			if (!s)
				break;
			lim = UINT64_MAX;
			lim_cpu = ns;
			for (int i = 0; i < ns; i++)
				if (st[i].rec && &st[i] != s && st[i].ts < lim) {
					lim = st[i].ts;
					lim_cpu = i;
				}
		}
		r = s->rec;
		memcpy(&id, r, 2);
		pids += (unsigned long long)ld32(r + 4);
		n++;
		if (id == sw[0]) {
			struct task *p = task(ld32(r + sw[1])), *t = task(ld32(r + sw[3]));
			uint64_t state;

			memcpy(&state, r + sw[2], 8);
			p->on_cpu = 0;
			p->start = (state & 0xff) ? 0 : s->ts;	/* preempted: waits again */
			if (t->start) {
				uint64_t l = s->ts - t->start;

				t->n++;
				t->sum += l;
				if (l > t->max)
					t->max = l;
				t->start = 0;
			}
			t->on_cpu = 1;
		} else if (id == wk[0]) {
			struct task *t = task(ld32(r + wk[1]));

			if (!t->on_cpu && !t->start)
				t->start = s->ts;
		}
		stream_next(s);
	}
	for (uint32_t i = 0; i <= tmask; i++) {
		waits += tasks[i].n;
		sum += tasks[i].sum;
		if (tasks[i].max > max)
			max = tasks[i].max;
	}
	printf("%llu events, pid sum %llu\n%llu waits, sum %llu ns, max %llu ns\n", n, pids,
	       waits, sum, max);
	return 0;
}

static void walk_page(const char *pg, struct count *c)
{
	struct stream s = { .d = pg + HDR };
	uint64_t commit;

	memcpy(&commit, pg + 8, 8);
	commit &= (1u << 27) - 1;
	s.commit = commit > PSIZE - HDR ? 0 : (uint32_t)commit;
	while (page_next(&s)) {
		c->pids += (unsigned long long)ld32(s.rec + 4);
		c->n++;
	}
}

static int opt_ints(char **argv, int *i, int argc, const char *name, int *v, int n)
{
	if (*i + 1 >= argc || strcmp(argv[*i], name))
		return -1;
	if (n == 4 ? sscanf(argv[*i + 1], "%d,%d,%d,%d", &v[0], &v[1], &v[2], &v[3]) != 4 :
		     sscanf(argv[*i + 1], "%d,%d", &v[0], &v[1]) != 2)
		return -1;
	*i += 2;
	return 0;
}

int main(int argc, char **argv)
{
	static char block[BLOCK];
	struct count c = { 0 };
	const char *map = NULL;
	struct stat st;
	int fd, i = 3, sw[4], wk[2];

	if (argc < 4 || (strcmp(argv[1], "pread") && strcmp(argv[1], "mmap") &&
			 strcmp(argv[1], "wakeup")))
		goto usage;
	fd = open(argv[2], O_RDONLY);
	if (fd < 0 || fstat(fd, &st) < 0) {
		perror(argv[2]);
		return 2;
	}
	if (!strcmp(argv[1], "wakeup")) {
		if (opt_ints(argv, &i, argc, "--sw", sw, 4) || opt_ints(argv, &i, argc, "--wk", wk, 2))
			goto usage;
		return wakeup(fd, argv + i, argc - i, sw, wk);
	}
	if (!strcmp(argv[1], "mmap")) {
		map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (map == MAP_FAILED) {
			perror("mmap");
			return 2;
		}
	}
	for (; i < argc; i++) {
		unsigned long long off, size;

		if (sscanf(argv[i], "%llu:%llu", &off, &size) != 2 ||
		    off + size > (unsigned long long)st.st_size) {
			fprintf(stderr, "%s: bad range '%s'\n", argv[0], argv[i]);
			return 2;
		}
		size -= size % PSIZE;
		while (size) {
			size_t n = size < BLOCK ? (size_t)size : BLOCK;
			const char *d = map ? map + off : block;

			if (!map && pread(fd, block, n, (off_t)off) != (ssize_t)n) {
				fprintf(stderr, "%s: short read at %llu\n", argv[0], off);
				return 2;
			}
			for (size_t p = 0; p < n; p += PSIZE)
				walk_page(d + p, &c);
			off += n;
			size -= n;
		}
	}
	printf("%llu events, pid sum %llu\n", c.n, c.pids);
	return 0;
usage:
	fprintf(stderr, "usage: %s pread|mmap FILE OFF:SIZE ...\n"
		"       %s wakeup FILE --sw ID,PREV_PID,PREV_STATE,NEXT_PID --wk ID,PID "
		"OFF:SIZE ...\n", argv[0], argv[0]);
	return 2;
}
