// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The ftrace-text reader's worker threads (formats/ftrace_text_par.c): a file
 * read with --jobs N gives the events (every field, and what it lends), the
 * diagnostics (their line numbers), the counts of lines, skipped lines and
 * decoded flags of one thread (--jobs 1).  The files are built here so that the
 * 64 KiB chunks the workers take are cut everywhere: inside events, inside
 * "<stack trace>" runs and their frames, next to lost-events lines, legends,
 * instance prefixes, quoted lines, CR-LF lines, overlong lines (just under,
 * at and over FT_LINE_MAX, and over several chunks), runs of blank lines
 * and a last line without its newline.
 */
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
#include "ftrace_text.h"

#define SAMPLES LAT_SAMPLES_DIR "/ftrace-text"

/* Reads @path with @jobs threads; the trail of events, diagnostics and counts. */
static void read_text(struct trail *t, const char *path, int jobs)
{
	struct lat_loaded l;
	struct lat_event ev;
	char *diag = NULL;
	size_t dlen = 0;
	FILE *d = open_memstream(&diag, &dlen);
	uint64_t dec = 0, undec = 0;
	int ret = 0;

	assert_non_null(d);
	memset(t, 0, sizeof(*t));
	trail_put(t, "open %d\n", lat_load(&l, path, &(struct lat_read_opts){
		.format = lat_format_find("ftrace-text"), .diag = d, .jobs = jobs }));
	if (l.nblocks == 1 && l.blocks[0]->events) {
		struct lat_event_source *src = l.blocks[0]->events;

		while ((ret = lat_event_next(src, &ev)) > 0) {
			trail_event(t, &ev);
			t->events++;
		}
		ft_source_flags(src, &dec, &undec);
		trail_put(t, "end %d ncpus %d lines %llu skipped %zu flags %llu/%llu\n", ret,
			  src->ncpus, (unsigned long long)ft_source_lines(src),
			  ft_source_skipped(src), (unsigned long long)dec,
			  (unsigned long long)undec);
	}
	lat_loaded_release(&l);
	fclose(d);
	trail_put(t, "diagnostics:\n%s", diag);
	free(diag);
}

/* @path with 2, 3 and 4 threads gives what one thread gives; the events of one thread. */
static unsigned long same_as_one(const char *path)
{
	struct trail one, par;
	unsigned long n;

	read_text(&one, path, 1);
	for (int j = 2; j <= 4; j++) {
		char what[4200];

		read_text(&par, path, j);
		snprintf(what, sizeof(what), "%s --jobs %d against one thread", path, j);
		trail_same(&one, &par, what);
		free(par.text);
	}
	n = one.events;
	free(one.text);
	return n;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *b;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	b = malloc((size_t)n + 1);
	assert_non_null(b);
	assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return b;
}

/* @n bytes of @c, then a newline. */
static void line_of(FILE *f, char c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fputc(c, f);
	fputc('\n', f);
}

/*
 * The samples' text over and over, @pad bytes of a comment first (so that the
 * chunk cuts fall elsewhere in each file), with odd lines between the copies.
 */
static void build(const char *path, size_t pad, int copies)
{
	static const char *const srcs[] = { SAMPLES "/kernel-trace.txt",
					    SAMPLES "/tracecmd-report.txt",
					    SAMPLES "/kernel-trace-pipe-lost.txt",
					    SAMPLES "/lkml-2020-rt-lazy-flags.txt" };
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	fputc('#', f);
	line_of(f, ' ', pad);
	for (int c = 0; c < copies; c++) {
		size_t len;
		char *b = slurp(srcs[c % 4], &len);

		assert_int_equal(fwrite(b, 1, len, f), len);
		free(b);
		switch (c % 6) {
		case 0:		/* overlong lines: just under, at, over the limit */
			line_of(f, 'x', FT_LINE_MAX - 1);
			line_of(f, 'y', FT_LINE_MAX);
			line_of(f, 'z', FT_LINE_MAX + 1);
			break;
		case 1:		/* longer than two chunks */
			line_of(f, 'w', 150000);
			break;
		case 2:		/* blank lines, and a quoted, CR-LF event line */
			for (int i = 0; i < 3000; i++)
				fputc('\n', f);
			fputs("> sh-8869 [001] 994.571014: sched_waking: comm=migration/1 pid=21 "
			      "prio=0 target_cpu=001\r\n", f);
			break;
		default:
			break;
		}
	}
	/* the last line without its newline */
	fputs("          <idle>-0       [001] d.h2.   900.000001: sched_waking: comm=a pid=7 "
	      "prio=120 target_cpu=001", f);
	fclose(f);
}

/* Built files with the cuts everywhere: every event, diagnostic and count as one thread's. */
static void test_chunk_cuts(void **state)
{
	char path[] = "/tmp/latscope-ftpar-XXXXXX";
	int fd = mkstemp(path);
	unsigned long events = 0;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	for (size_t pad = 0; pad < 4000; pad += 397) {
		build(path, pad, 12);
		events = same_as_one(path);
		/* the copies' events, and the last line's */
		assert_true(events > 3 * 2527);
	}
	unlink(path);
}

/* A file of nothing but newlines over many chunks, and one of a single overlong line. */
static void test_degenerate(void **state)
{
	char path[] = "/tmp/latscope-ftpar-XXXXXX";
	int fd = mkstemp(path);
	FILE *f;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	f = fopen(path, "wb");
	for (int i = 0; i < 300000; i++)
		fputc('\n', f);
	fclose(f);
	assert_int_equal(same_as_one(path), 0);
	f = fopen(path, "wb");
	line_of(f, 'q', 1 << 20);
	fclose(f);
	assert_int_equal(same_as_one(path), 0);
	unlink(path);
}

/* Every ftrace-text sample (most fit one chunk: the threads' start and end). */
static void test_samples(void **state)
{
	static const char *const names[] = {
		"kernel-trace.txt", "kernel-trace-noirqinfo.txt", "kernel-trace-notgid.txt",
		"kernel-trace-pipe-lost.txt", "kernel-trace-symoffset.txt", "kernel-tracecmd.txt",
		"lkml-2020-rt-lazy-flags.txt", "lkml-2024-rcutorture-ftrace-dump.txt",
		"mail-quoted-trace.txt", "tracecmd-report.txt",
	};

	(void)state;
	for (size_t i = 0; i < LAT_ARRAY_SIZE(names); i++) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/%s", SAMPLES, names[i]);
		same_as_one(path);
	}
	/* kernel-trace.txt: 2527 events (its "# entries-in-buffer/entries-written: 2527/2527") */
	assert_int_equal(same_as_one(SAMPLES "/kernel-trace.txt"), 2527);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_samples),
		cmocka_unit_test(test_chunk_cuts),
		cmocka_unit_test(test_degenerate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
