// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Hostile text through the real loading path (probe, segmenter, readers,
 * analyses, both reports): long lines, NUL bytes, invalid UTF-8, numbers that
 * overflow int64, negative durations, millions of blocks, a process per row,
 * empty and binary input.  Inputs are generated into temporary files.  The
 * assertions are on counts (blocks, rows, skipped lines, the caps' findings),
 * never on time; a quadratic path shows up as the ctest timeout.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <cmocka.h>

#include "latscope/analyze.h"
#include "latscope/an_loop.h"
#include "latscope/input.h"
#include "latscope/report.h"
#include "loop.h"

#define LAT3_HEAD "Date_sec.msec   select    loop  maxlat    nbmax\n"
/* 3 rows a person can check: select 929/930/931 us */
#define LAT3_ROWS "1112008903.267     929  100000      48       0\n" \
		  "1112008903.368     930  100000      52       0\n" \
		  "1112008903.469     931  100000      49       0\n"

struct tmp {
	char path[64];
	FILE *fp;
};

static void tmp_open(struct tmp *t)
{
	int fd;

	strcpy(t->path, "/tmp/latscope-hostile-XXXXXX");
	fd = mkstemp(t->path);
	assert_true(fd >= 0);
	t->fp = fdopen(fd, "w");
	assert_non_null(t->fp);
}

static void tmp_close(struct tmp *t)
{
	assert_int_equal(fclose(t->fp), 0);
}

/* Loads and analyzes @path; returns lat_load's result, @l to release. */
static int load(struct lat_loaded *l, const char *path)
{
	struct lat_analyze_opts o;
	int ret;

	lat_analyze_opts_init(&o);
	ret = lat_load(l, path, NULL);
	for (size_t i = 0; ret == 0 && i < l->nblocks; i++)
		assert_int_equal(lat_analyze_block(l->blocks[i], &o), 0);
	return ret;
}

static const struct lat_finding *finding(const struct lat_block *b, const char *kind)
{
	for (size_t i = 0; i < b->nfindings; i++)
		if (!strcmp(b->findings[i].kind, kind))
			return &b->findings[i];
	return NULL;
}

static size_t rows_of(const struct lat_block *b)
{
	size_t n = 0;

	for (size_t i = 0; i < b->nseries; i++)
		n += b->series[i]->nrows;
	return n;
}

/* Writes both reports of @l; the JSON must pass python3 -m json.tool. */
static void reports_ok(struct lat_loaded *l, const char *path)
{
	struct lat_analyze_opts o;
	struct lat_report_input rep = { .path = path, .format = l->format, .blocks = l->blocks,
					.nblocks = l->nblocks };
	char json[80], cmd[200];
	FILE *f;

	lat_analyze_opts_init(&o);
	snprintf(json, sizeof(json), "%s.json", path);
	f = fopen(json, "w");
	assert_non_null(f);
	lat_report_json(f, &rep, 1, &o);
	fclose(f);
	f = fopen("/dev/null", "w");
	lat_report_text(f, &rep, 1, &o);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "python3 -m json.tool %s >/dev/null", json);
	assert_int_equal(system(cmd), 0);
	unlink(json);
}

/* A 10 MB line (micro signs, digits, NUL-free) between two lat3 blocks. */
static void test_10mb_line(void **state)
{
	struct lat_loaded l;
	struct tmp t;

	(void)state;
	tmp_open(&t);
	fputs(LAT3_HEAD LAT3_ROWS "\n\n\n", t.fp);
	for (int i = 0; i < 10 * 1000 * 1000 / 8; i++)
		fputs("1 \xc2\xb5s 2.", t.fp);	/* 8 bytes, shaped like rows and micro signs */
	fputs("\n\n\n\n" LAT3_HEAD LAT3_ROWS, t.fp);
	tmp_close(&t);
	assert_int_equal(load(&l, t.path), 0);
	/* both blocks read whole: 3 rows each, nothing skipped inside them */
	assert_int_equal(l.nblocks, 2);
	assert_string_equal(l.blocks[0]->fmt->name, "lat3");
	assert_int_equal(rows_of(l.blocks[0]), 3);
	assert_int_equal(rows_of(l.blocks[1]), 3);
	assert_int_equal(l.blocks[1]->first_line, 12);	/* 4 + 3 blank + 10 MB line + 3 blank + 1 */
	reports_ok(&l, t.path);
	lat_loaded_release(&l);
	unlink(t.path);
}

/*
 * Hostile mail structure: 100,000 nested multipart headers, then a part
 * declared quoted-printable with 1,000,000 soft breaks, then a lat3 block that
 * must still be read with its own line numbers.  Only 8 boundaries are kept:
 * deeper, the headers are body text, the part is undeclared, and the bare "="
 * of those headers keep the pattern from calling it quoted-printable.  Then
 * the same without the nesting: 1,000,000 soft breaks decoded into one line.
 */
static void test_hostile_mime(void **state)
{
	struct lat_loaded l;
	struct tmp t;
	uint32_t at;

	(void)state;
	tmp_open(&t);
	fputs("From: a@example.org\nSubject: x\nMIME-Version: 1.0\n"
	      "Content-Type: multipart/mixed; boundary=\"b\"\n\n--b\n", t.fp);
	for (int i = 0; i < 100000; i++)
		fprintf(t.fp, "Content-Type: multipart/mixed; boundary=\"b%d\"\n\n--b%d\n", i, i);
	fputs("Content-Transfer-Encoding: quoted-printable\n\n", t.fp);
	for (int i = 0; i < 1000 * 1000; i++)
		fputs("=3D=\n", t.fp);
	fputs("\n", t.fp);
	at = 6 + 3 * 100000 + 2 + 1000 * 1000 + 1 + 1;	/* the lat3 header's line */
	fputs(LAT3_HEAD LAT3_ROWS, t.fp);
	tmp_close(&t);
	assert_int_equal(load(&l, t.path), 0);
	assert_int_equal(l.nblocks, 1);
	assert_string_equal(l.blocks[0]->fmt->name, "lat3");
	assert_int_equal(rows_of(l.blocks[0]), 3);
	assert_int_equal(l.blocks[0]->first_line, at);
	assert_int_equal(l.text.fix.qp_lines, 0);
	assert_int_equal(l.nlines, at + 3);
	reports_ok(&l, t.path);
	lat_loaded_release(&l);
	unlink(t.path);

	tmp_open(&t);
	fputs("From: a@example.org\nSubject: x\nMIME-Version: 1.0\n"
	      "Content-Transfer-Encoding: quoted-printable\n\n", t.fp);
	for (int i = 0; i < 1000 * 1000; i++)
		fputs("=3D=\n", t.fp);
	fputs("\n", t.fp);
	at = 5 + 1000 * 1000 + 1 + 1;
	fputs(LAT3_HEAD LAT3_ROWS, t.fp);
	tmp_close(&t);
	assert_int_equal(load(&l, t.path), 0);
	assert_int_equal(l.nblocks, 1);
	assert_int_equal(rows_of(l.blocks[0]), 3);
	assert_int_equal(l.blocks[0]->first_line, at);
	assert_int_equal(l.text.fix.qp_soft_breaks, 1000 * 1000);
	assert_int_equal(l.text.fix.qp_header_line, 4);
	/* 5 header lines, the joined line, the lat3 header and rows */
	assert_int_equal(l.text.nlines, 5 + 1 + 4);
	assert_int_equal(l.nlines, at + 3);
	reports_ok(&l, t.path);
	lat_loaded_release(&l);
	unlink(t.path);
}

/*
 * A NUL inside a row, a number past INT64_MAX, a negative duration, invalid
 * UTF-8: each is one skipped row; the three good rows are read.
 */
static void test_bad_rows(void **state)
{
	static const char bad[] =
		LAT3_HEAD
		"1112008903.267     929  100000      48       0\n"
		"1112008903.300     9\0002  100000      48       0\n"
		"1112008903.368     930  100000      52       0\n"
		"1112008903.400 99999999999999999999 100000 48 0\n"
		"1112008903.450     -5  100000      48       0\n"
		"1112008903.460     5\xff\xfe  100000      48       0\n"
		"1112008903.469     931  100000      49       0\n";
	struct lat_loaded l;
	const struct lat_series *s;
	struct tmp t;

	(void)state;
	tmp_open(&t);
	fwrite(bad, 1, sizeof(bad) - 1, t.fp);
	tmp_close(&t);
	assert_int_equal(load(&l, t.path), 0);
	assert_int_equal(l.nblocks, 1);
	assert_int_equal(rows_of(l.blocks[0]), 3);
	assert_int_equal(l.blocks[0]->skipped_lines, 4);
	s = l.blocks[0]->series[0];
	/* no wrapped or negative value got in: select is 929, 930, 931 us */
	assert_int_equal(lat_series_at(s, 0, LAT_LOOP_WAIT), 929000);
	assert_int_equal(lat_series_at(s, 1, LAT_LOOP_WAIT), 930000);
	assert_int_equal(lat_series_at(s, 2, LAT_LOOP_WAIT), 931000);
	reports_ok(&l, t.path);
	lat_loaded_release(&l);
	unlink(t.path);
}

/* Invalid UTF-8 and control bytes in a title still give valid JSON. */
static void test_utf8_title(void **state)
{
	struct lat_loaded l;
	struct tmp t;

	(void)state;
	tmp_open(&t);
	fputs("#process1= lat3 \xed\xa0\x80 \xe0\x80\xaf \xf4\x90\x80\x80 \xc3 \x1b[31m\"<&>\n"
	      LAT3_HEAD LAT3_ROWS, t.fp);
	tmp_close(&t);
	assert_int_equal(load(&l, t.path), 0);
	assert_int_equal(l.nblocks, 1);
	assert_non_null(l.blocks[0]->title);
	assert_non_null(strchr(l.blocks[0]->title, '\x1b'));	/* kept in the model ... */
	reports_ok(&l, t.path);					/* ... escaped in the output */
	lat_loaded_release(&l);
	unlink(t.path);
}

/* A process per row: the first LOOP_MAX_SERIES are read, the rest skipped and said. */
static void test_process_per_row(void **state)
{
	struct lat_loaded l;
	struct tmp t;
	const int n = 200000;

	(void)state;
	tmp_open(&t);
	fputs(LAT3_HEAD, t.fp);
	for (int i = 1; i <= n; i++)
		fprintf(t.fp, "%d: 1112008903.%03d 929 100000 48 0\n", i, i % 1000);
	tmp_close(&t);
	assert_int_equal(load(&l, t.path), 0);
	assert_int_equal(l.nblocks, 1);
	assert_int_equal(l.blocks[0]->nseries, LOOP_MAX_SERIES);
	assert_int_equal(rows_of(l.blocks[0]), LOOP_MAX_SERIES);
	assert_int_equal(l.blocks[0]->skipped_lines, n - LOOP_MAX_SERIES);
	assert_int_equal(l.diag.nwarn, n - LOOP_MAX_SERIES);
	lat_loaded_release(&l);
	unlink(t.path);
}

/*
 * 10^7 two-line blocks in one mail (230 MB): the line index stops at
 * LAT_TEXT_MAX_LINES (2^24 lines = 2^23 blocks), the first LAT_MAX_BLOCKS
 * blocks are read and analyzed, the rest counted; both caps are findings.
 * The sanitizer build (several times slower, and run by several helpers at
 * once) uses 10^6 blocks: still 15 times LAT_MAX_BLOCKS; the line cap has
 * its own test below.
 */
#ifdef __SANITIZE_ADDRESS__
#define NBLOCKS 1000000ull
#else
#define NBLOCKS 10000000ull
#endif
static void test_ten_million_blocks(void **state)
{
	uint64_t read_blocks = NBLOCKS * 2 > LAT_TEXT_MAX_LINES ? LAT_TEXT_MAX_LINES / 2 : NBLOCKS;
	struct lat_loaded l;
	struct rusage ru;
	struct tmp t;
	const struct lat_block *last;
	char want[64];

	(void)state;
	tmp_open(&t);
	for (uint64_t i = 0; i < NBLOCKS; i++)
		fputs("#process1=\n1.1 1 1 1 1\n", t.fp);
	tmp_close(&t);
	assert_int_equal(load(&l, t.path), 0);
	last = NULL;
	if (NBLOCKS * 2 > LAT_TEXT_MAX_LINES) {
		assert_int_equal(l.text.cut, LAT_TEXT_CUT_LINES);
		assert_int_equal(l.nlines, LAT_TEXT_MAX_LINES);
		/* lines after 2^24: (10^7 - 2^23) blocks of 23 bytes */
		assert_int_equal(l.text.cut_bytes, (NBLOCKS - read_blocks) * 23);
	} else {
		assert_int_equal(l.text.cut, 0);
		assert_int_equal(l.nlines, NBLOCKS * 2);
	}
	assert_int_equal(l.nblocks, LAT_MAX_BLOCKS);
	for (size_t i = 0; i < l.nblocks; i++)
		assert_int_equal(rows_of(l.blocks[i]), 1);
	last = l.blocks[l.nblocks - 1];
	assert_true((finding(last, "input-cut") != NULL) == (NBLOCKS * 2 > LAT_TEXT_MAX_LINES));
	assert_non_null(finding(last, "blocks-cut"));
	/* the blocks segmented but not read are counted: 2^23 - 65536 = 8323072 for 10^7 */
	snprintf(want, sizeof(want), "%llu more blocks",
		 (unsigned long long)(read_blocks - LAT_MAX_BLOCKS));
	assert_non_null(strstr(finding(last, "blocks-cut")->message, want));
	lat_loaded_release(&l);
	unlink(t.path);
	/* bounded: text 230 MB + 384 MiB index + segments + 65536 blocks */
	assert_int_equal(getrusage(RUSAGE_SELF, &ru), 0);
#ifndef __SANITIZE_ADDRESS__
	assert_true(ru.ru_maxrss < 3L * 1024 * 1024);	/* KiB */
#endif
}

/* 2^24 + 1000 lines: the index stops at LAT_TEXT_MAX_LINES, the last 1000 are counted. */
static void test_line_cap(void **state)
{
	struct lat_loaded l;
	struct tmp t;
	static char nl[1 << 20];

	(void)state;
	memset(nl, '\n', sizeof(nl));
	tmp_open(&t);
	fputs(LAT3_HEAD LAT3_ROWS, t.fp);	/* 4 lines */
	for (int i = 0; i < 16; i++)
		fwrite(nl, 1, sizeof(nl), t.fp);
	fwrite(nl, 1, 1000 - 4, t.fp);
	tmp_close(&t);
	assert_int_equal(load(&l, t.path), 0);
	assert_int_equal(l.text.cut, LAT_TEXT_CUT_LINES);
	assert_int_equal(l.nlines, LAT_TEXT_MAX_LINES);
	assert_int_equal(l.text.cut_bytes, 1000);	/* 1000 newlines, one byte each */
	assert_int_equal(l.nblocks, 1);
	assert_int_equal(rows_of(l.blocks[0]), 3);
	assert_non_null(finding(l.blocks[0], "input-cut"));
	lat_loaded_release(&l);
	unlink(t.path);
}

/* More than LAT_TEXT_MAX_BYTES: the first 512 MiB are read, the rest counted. */
static void test_text_cap(void **state)
{
	struct lat_loaded l;
	struct tmp t;
	char *spaces = malloc(1 << 20);
	size_t written = 0;

	(void)state;
	assert_non_null(spaces);
	memset(spaces, ' ', 1 << 20);
	spaces[(1 << 20) - 1] = '\n';
	tmp_open(&t);
	fputs(LAT3_HEAD LAT3_ROWS, t.fp);
	written += strlen(LAT3_HEAD LAT3_ROWS);
	/* blank 1 MiB lines (free to classify) up to 2 MiB past the cap */
	while (written < LAT_TEXT_MAX_BYTES + (2u << 20)) {
		fwrite(spaces, 1, 1 << 20, t.fp);
		written += 1 << 20;
	}
	fputs(LAT3_HEAD LAT3_ROWS, t.fp);	/* past the cap: not read */
	written += strlen(LAT3_HEAD LAT3_ROWS);
	tmp_close(&t);
	free(spaces);
	assert_int_equal(load(&l, t.path), 0);
	assert_int_equal(l.text.cut, LAT_TEXT_CUT_BYTES);
	assert_int_equal(l.text.len + l.text.cut_bytes, written);
	assert_true(l.text.len <= LAT_TEXT_MAX_BYTES);
	assert_int_equal(l.nblocks, 1);
	assert_int_equal(rows_of(l.blocks[0]), 3);
	assert_non_null(finding(l.blocks[0], "input-cut"));
	lat_loaded_release(&l);
	unlink(t.path);
}

/* Empty, binary and prose-only inputs: an error with one clear reason. */
static void test_nothing_readable(void **state)
{
	static const struct {
		const char *data;
		size_t len;
		int err;
		const char *msg;
	} cases[] = {
		{ "", 0, -LAT_EEMPTY, "empty input" },
		{ "\x7f" "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0", 16, -LAT_EUNKNOWN, "binary data" },
		{ "Hello,\nthis mail has no log in it.\n", 35, -LAT_EEMPTY, "no log block" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct lat_loaded l;
		struct tmp t;

		tmp_open(&t);
		fwrite(cases[i].data, 1, cases[i].len, t.fp);
		tmp_close(&t);
		assert_int_equal(load(&l, t.path), cases[i].err);
		assert_int_equal(l.nblocks, 0);
		assert_non_null(strstr(l.error, cases[i].msg));
		assert_null(strchr(l.error, '\n'));
		lat_loaded_release(&l);
		unlink(t.path);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_10mb_line),
		cmocka_unit_test(test_bad_rows),
		cmocka_unit_test(test_hostile_mime),
		cmocka_unit_test(test_utf8_title),
		cmocka_unit_test(test_process_per_row),
		cmocka_unit_test(test_nothing_readable),
		cmocka_unit_test(test_line_cap),
		cmocka_unit_test(test_ten_million_blocks),
		cmocka_unit_test(test_text_cap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
