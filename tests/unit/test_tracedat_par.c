// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The trace.dat reader's worker threads (formats/tracedat_par.c): with
 * --jobs N every event (every field, and what it lends: marker text, irq and
 * timer names, stacks), its order, and the stop and skip reasons after every
 * call are those of one thread (--jobs 1), which tests/e2e/test_tracedat.sh
 * checks against trace-cmd report.  Over every sample, the fixture, and
 * truncated and damaged copies (the stop and skip reasons), with our page walk
 * and kbuffer's, pulled one event at a time and in batches of several sizes.
 */
#include <dirent.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "latscope/input.h"
#include "evtrail.h"

#define SAMPLES LAT_SAMPLES_DIR "/tracedat"

/*
 * Reads @path (@buffer) with @jobs threads, @batch events a call (0: one by
 * one through lat_event_next()), at most @max events; the trail of it.
 */
static void read_trail(struct trail *t, const char *path, const char *buffer, int jobs,
		       int batch, unsigned long max)
{
	struct lat_loaded l;
	struct lat_event evs[64];
	char stop[1024] = "", skip[1024] = "";
	int ret = 0;

	memset(t, 0, sizeof(*t));
	trail_put(t, "open %d\n", lat_load(&l, path, &(struct lat_read_opts){
		.format = lat_format_find("trace.dat"), .buffer = buffer, .jobs = jobs }));
	if (l.nblocks != 1 || !l.blocks[0]->events) {
		lat_loaded_release(&l);
		return;
	}
	trail_reasons(t, l.blocks[0]->events, stop, skip);
	for (;;) {
		if (t->events >= max)
			break;
		if (batch)
			ret = lat_event_next_batch(l.blocks[0]->events, evs, batch);
		else
			ret = lat_event_next(l.blocks[0]->events, evs);
		if (ret <= 0)
			break;
		for (int i = 0; i < (batch ? ret : 1); i++) {
			trail_event(t, &evs[i]);
			t->events++;
			/* a batch ends after any event that lends a pointer into the source */
			if (i < ret - 1)
				assert_false(lat_event_batch_ends(evs[i].type));
		}
		trail_reasons(t, l.blocks[0]->events, stop, skip);
	}
	trail_put(t, "end %d\n", ret);
	lat_loaded_release(&l);
}

/* @path read with @jobs threads gives what one thread gives; returns the events read. */
static unsigned long same_as_one(const char *path, const char *buffer, int jobs, int batch,
				 unsigned long max, struct trail *one_out)
{
	struct trail one, par;
	char what[4200];

	read_trail(&one, path, buffer, 1, batch, max);
	read_trail(&par, path, buffer, jobs, batch, max);
	snprintf(what, sizeof(what), "%s (buffer %s) --jobs %d, batch %d against one thread",
		 path, buffer ? buffer : "-", jobs, batch);
	trail_same(&one, &par, what);
	free(par.text);
	if (one_out)
		*one_out = one;
	else
		free(one.text);
	return one.events;
}

/* Every sample, both walks, several thread counts and batch sizes. */
static void test_samples(void **state)
{
	DIR *dir = opendir(SAMPLES);
	struct dirent *de;
	int files = 0;

	(void)state;
	assert_non_null(dir);
	while ((de = readdir(dir))) {
		char path[4096];
		size_t n = strlen(de->d_name);

		if (n < 4 || strcmp(de->d_name + n - 4, ".dat"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", SAMPLES, de->d_name);
		for (int kb = 0; kb < 2; kb++) {
			setenv("LATSCOPE_TRACEDAT_KBUFFER", kb ? "1" : "0", 1);
			assert_true(same_as_one(path, NULL, 2, 32, ULONG_MAX, NULL) > 0);
			same_as_one(path, NULL, 3, 0, ULONG_MAX, NULL);
			same_as_one(path, NULL, 16, 7, ULONG_MAX, NULL);
		}
		if (strstr(de->d_name, "inst1"))
			same_as_one(path, "inst1", 2, 32, ULONG_MAX, NULL);
		files++;
	}
	closedir(dir);
	unsetenv("LATSCOPE_TRACEDAT_KBUFFER");
	assert_true(files >= 12);
	/* mixed-3000-v6.dat: 3000 events (trace-cmd report), all of them */
	assert_int_equal(same_as_one(SAMPLES "/mixed-3000-v6.dat", NULL, 2, 32, ULONG_MAX, NULL),
			 3000);
}

/* The trace-cmd fixture (67,159 events: trace-cmd report), v7+zstd and v6. */
static void test_fixture(void **state)
{
	(void)state;
	assert_int_equal(same_as_one(LAT_FIXTURE_V7, NULL, 2, 32, ULONG_MAX, NULL), 67159);
	assert_int_equal(same_as_one(LAT_FIXTURE_V6, NULL, 3, 32, ULONG_MAX, NULL), 67159);
}

/*
 * 8 CPUs (12,000 events: mixed-3000-v6.dat's 3000 times 4): the workers merge groups of
 * CPUs (one group of 8 with --jobs 2, 4 + 4 with 3, 2 + 3 + 3 with 4, 2 + 2 + 2 + 2 with 5),
 * and with --jobs 16 one CPU each; both walks, one event and batches at a time.
 */
static void test_groups(void **state)
{
	static const int jobs[] = { 2, 3, 4, 5, 16 };

	(void)state;
	for (int kb = 0; kb < 2; kb++) {
		setenv("LATSCOPE_TRACEDAT_KBUFFER", kb ? "1" : "0", 1);
		for (size_t j = 0; j < LAT_ARRAY_SIZE(jobs); j++) {
			assert_int_equal(same_as_one(LAT_FIXTURE_W8, NULL, jobs[j], 32, ULONG_MAX,
						     NULL), 12000);
			same_as_one(LAT_FIXTURE_W8, NULL, jobs[j], 0, ULONG_MAX, NULL);
			same_as_one(LAT_FIXTURE_W8, NULL, jobs[j], 1, 5000, NULL);
		}
	}
	unsetenv("LATSCOPE_TRACEDAT_KBUFFER");
}

/* A copy of @src: cut at @cut bytes (0: whole), @nflip bytes set to @val at spread offsets. */
static void damaged_copy(const char *src, const char *dst, long cut, int nflip, int seed,
			 unsigned char val)
{
	FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
	char buf[65536];
	long size, done = 0;
	size_t n;

	assert_true(in && out);
	fseek(in, 0, SEEK_END);
	size = ftell(in);
	rewind(in);
	if (!cut || cut > size)
		cut = size;
	while (done < cut && (n = fread(buf, 1, sizeof(buf), in)) > 0) {
		if ((long)n > cut - done)
			n = (size_t)(cut - done);
		assert_int_equal(fwrite(buf, 1, n, out), n);
		done += (long)n;
	}
	for (int i = 0; i < nflip; i++) {
		/* the same multiplicative walk as tests/e2e/tracedat_damage.sh */
		unsigned long long off = ((unsigned long long)(seed * 7919 + i * 104729) *
					  2654435761ull) % (unsigned long long)cut;

		fseek(out, (long)off, SEEK_SET);
		fputc(val, out);
	}
	fclose(in);
	fclose(out);
}

/*
 * Truncated and damaged copies: the stop and skip reasons (and the lost marks)
 * after every call are those of one thread, also when the read stops early,
 * and also where workers merge groups of CPUs (the 8-CPU trace).  The cuts
 * and flips are chosen so that the notes are met (checked below).
 */
static void test_damaged(void **state)
{
	const char *srcs[] = { SAMPLES "/mixed-3000-v6.dat", SAMPLES "/mixed-3000-v7-zstd.dat",
			       SAMPLES "/probe-pair-v7-zstd.dat", LAT_FIXTURE_W8 };
	char path[] = "/tmp/latscope-tdpar-XXXXXX";
	int fd = mkstemp(path), stops = 0, skips = 0;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	for (size_t s = 0; s < LAT_ARRAY_SIZE(srcs); s++) {
		FILE *f = fopen(srcs[s], "rb");
		long size;

		assert_non_null(f);
		fseek(f, 0, SEEK_END);
		size = ftell(f);
		fclose(f);
		for (int k = 0; k < 24; k++) {
			struct trail one;

			/* cut at 1/2 .. 23/24 of the file, or whole with 4 bytes set */
			damaged_copy(srcs[s], path, k < 12 ? size * (12 + k) / 24 : 0,
				     k < 12 ? 0 : 4, k, k % 3 ? 0xff : 0);
			for (int kb = 0; kb < 2; kb++) {
				setenv("LATSCOPE_TRACEDAT_KBUFFER", kb ? "1" : "0", 1);
				same_as_one(path, NULL, 2, 32, ULONG_MAX, &one);
				stops += one.stops > 0;
				skips += one.skips > 0;
				free(one.text);
				same_as_one(path, NULL, 3, 1, ULONG_MAX, NULL);
				same_as_one(path, NULL, 2, 32, 100, NULL);
				same_as_one(path, NULL, 4, 0, 1000, NULL);
			}
		}
	}
	unsetenv("LATSCOPE_TRACEDAT_KBUFFER");
	unlink(path);
	/* the copies do stop early and skip pages: the comparisons above saw notes */
	assert_true(stops >= 20);
	assert_true(skips >= 2);
}

/* Threads alive in this process (/proc/self/task). */
static int threads(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *de;
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	return n;
}

/*
 * --jobs N: N - 1 workers, never more than the CPUs with data (the fixture has 2);
 * the default on a small or an uncompressed file and --jobs 1: none.  Freeing the source early
 * (workers in the middle of the trace) stops and joins them.
 */
static void test_workers(void **state)
{
	const struct { const char *path; int jobs, workers; } cases[] = {
		{ LAT_FIXTURE_V7, 3, 2 },	/* 2 CPUs with data: 2 workers */
		{ LAT_FIXTURE_V7, 2, 1 },
		{ LAT_FIXTURE_V7, 16, 2 },
		{ LAT_FIXTURE_V7, 1, 0 },
		{ SAMPLES "/mixed-3000-v6.dat", 0, 0 },	/* 196 KB */
		{ LAT_FIXTURE_V6, 0, 0 },	/* 8.8 MB, uncompressed: one thread */
		{ LAT_FIXTURE_V7, 0, 0 },	/* compressed, under TD_PAR_MIN_BYTES */
	};
	int base = threads();

	(void)state;
	for (size_t i = 0; i < LAT_ARRAY_SIZE(cases); i++) {
		struct lat_loaded l;
		struct lat_event ev;

		assert_int_equal(lat_load(&l, cases[i].path, &(struct lat_read_opts){
			.format = lat_format_find("trace.dat"), .jobs = cases[i].jobs }), 0);
		assert_int_equal(threads(), base + cases[i].workers);
		assert_int_equal(lat_event_next(l.blocks[0]->events, &ev), 1);
		lat_loaded_release(&l);
		assert_int_equal(threads(), base);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_samples),
		cmocka_unit_test(test_fixture),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_damaged),
		cmocka_unit_test(test_workers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
