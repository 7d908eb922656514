// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Mail and paste damage undone by the text layer (core/text.c) and the loop
 * readers: quoted-printable bodies (declared, per MIME part, or by pattern),
 * no-break and Unicode spaces, wrapped and merged ftrace header lines, notes
 * typed after loop-log rows and rows a mailer joined.  Every expected value
 * is counted by hand from the literal input in the test.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "latscope/text.h"
#include "old_logs_util.h"

static void init(struct lat_text *t, const char *s)
{
	assert_int_equal(lat_text_init_mem(t, s, strlen(s)), 0);
}

static void assert_line(const struct lat_text *t, size_t i, const char *s, uint32_t lineno)
{
	char buf[512];

	assert_true(i < t->nlines);
	lat_line_copy(&t->lines[i], buf, sizeof(buf));
	assert_string_equal(buf, s);
	assert_int_equal(t->lines[i].lineno, lineno);
}

/* The line index of the first line equal to @s, or -1. */
static long find_line(const struct lat_text *t, const char *s)
{
	char buf[512];

	for (size_t i = 0; i < t->nlines; i++) {
		lat_line_copy(&t->lines[i], buf, sizeof(buf));
		if (!strcmp(buf, s))
			return (long)i;
	}
	return -1;
}

static const char qp_mail[] =
	"From: someone <a@example.org>\n"			/* 1 */
	"Subject: lat3\n"					/* 2 */
	"MIME-Version: 1.0\n"					/* 3 */
	"Content-Type: text/plain; charset=\"UTF-8\"\n"		/* 4 */
	"Content-Transfer-Encoding: quoted-printable\n"		/* 5 */
	"\n"							/* 6 */
	"#process1=3Dlat3 1000000\n"				/* 7 */
	"Date_sec.msec   select    loop  maxlat    nbmax\n"	/* 8 */
	"1112008903.267     929  100000      48       0\n"	/* 9 */
	"1112008903.368     930  100000      52  =\n"		/* 10 */
	"     0\n"						/* 11: joined to 10 */
	"1112008906.469     978 2593603 2507346=20=\n"		/* 12 */
	"      1\n"						/* 13: joined to 12 */
	"1112008906.669   99929  100000      49       0\n";	/* 14 */

/* The mail says quoted-printable: decoded, rows keep the number of their first line. */
static void test_qp_declared(void **state)
{
	struct lat_text t;
	struct lat_loaded *l;
	const struct lat_series *s;

	(void)state;
	init(&t, qp_mail);
	assert_int_equal(t.nraw, 14);
	assert_int_equal(t.nlines, 12);
	assert_int_equal(t.fix.qp_header_line, 5);
	assert_int_equal(t.fix.qp_first, 7);
	assert_int_equal(t.fix.qp_last, 14);
	assert_int_equal(t.fix.qp_lines, 8);
	assert_int_equal(t.fix.qp_soft_breaks, 2);
	assert_line(&t, 6, "#process1=lat3 1000000", 7);
	assert_line(&t, 9, "1112008903.368     930  100000      52       0", 10);
	assert_int_equal(t.lines[9].joined, 1);
	assert_line(&t, 10, "1112008906.469     978 2593603 2507346       1", 12);
	lat_text_release(&t);

	l = old_logs_load_text(qp_mail, NULL);
	assert_int_equal(l->nblocks, 1);
	assert_int_equal(l->nlines, 14);
	assert_int_equal(l->blocks[0]->first_line, 7);
	assert_int_equal(l->blocks[0]->last_line, 14);
	assert_int_equal(l->blocks[0]->skipped_lines, 0);
	s = l->blocks[0]->series[0];
	assert_int_equal(s->nrows, 4);
	assert_string_equal(s->note, "lat3 1000000");
	assert_int_equal(s->line[1], 10);
	assert_int_equal(s->line[2], 12);
	assert_int_equal(lat_series_at(s, 2, LAT_LOOP_MAX), 2507346000LL);
	assert_int_equal(lat_series_at(s, 2, LAT_LOOP_NBMAX), 1);
	old_logs_free(l);
}

/* The same body pasted without its header: recognised by its pattern. */
static void test_qp_pattern(void **state)
{
	const char *body = strstr(qp_mail, "#process1");
	struct lat_text t;

	(void)state;
	init(&t, body);
	assert_int_equal(t.fix.qp_header_line, 0);
	assert_int_equal(t.fix.qp_first, 1);
	assert_int_equal(t.fix.qp_soft_breaks, 2);
	assert_line(&t, 0, "#process1=lat3 1000000", 1);
	assert_line(&t, 3, "1112008903.368     930  100000      52       0", 4);
	lat_text_release(&t);
}

/*
 * Plain text with "=" signs is left alone: lat2 rows ("wait=  827"), a line
 * that ends in "=", and an "=3D" that is text.
 */
static void test_not_qp(void **state)
{
	static const char text[] =
		"#process1= lat2 50000 =\n"
		"date=1111995134.390, wait=       827 us, user=     50000 us, max=     51\n"
		"date=1111995134.491, wait=       827 us, user=     50000 us, max==\n"
		"     22\n"
		"x=3D and y=20 are just text here, z=\n";
	struct lat_text t;

	(void)state;
	init(&t, text);
	assert_int_equal(t.fix.qp_lines, 0);
	assert_int_equal(t.nlines, 5);
	assert_line(&t, 4, "x=3D and y=20 are just text here, z=", 5);
	lat_text_release(&t);
	/* what the stream readers ask before reading raw lines */
	assert_int_equal(lat_text_peek_encoded(text, strlen(text)), 0);
	assert_int_equal(lat_text_peek_encoded(qp_mail, strlen(qp_mail)), 1);
	assert_int_equal(lat_text_peek_encoded(strstr(qp_mail, "#process1"),
					       strlen(strstr(qp_mail, "#process1"))), 1);
}

/* Per MIME part: the 7bit part keeps its "=3D", the quoted-printable one is decoded. */
static void test_qp_multipart(void **state)
{
	static const char text[] =
		"From: a@example.org\n"					/* 1 */
		"Subject: two parts\n"					/* 2 */
		"MIME-Version: 1.0\n"					/* 3 */
		"Content-Type: multipart/mixed;\n"			/* 4 */
		"\tboundary=\"=_b0\"\n"					/* 5 */
		"\n"							/* 6 */
		"This is a multi-part message in MIME format.\n"	/* 7 */
		"--=_b0\n"						/* 8 */
		"Content-Type: text/plain; charset=us-ascii\n"		/* 9 */
		"Content-Transfer-Encoding: 7bit\n"			/* 10 */
		"\n"							/* 11 */
		"a=3D b, wrapped=\n"					/* 12 */
		"--=_b0\n"						/* 13 */
		"Content-Type: text/plain; charset=UTF-8\n"		/* 14 */
		"Content-Transfer-Encoding: Quoted-Printable\n"		/* 15 */
		"\n"							/* 16 */
		"a=3D b, joi=\n"					/* 17 */
		"ned\n"							/* 18 */
		"--=_b0--\n"						/* 19 */
		"epilogue=\n";						/* 20 */
	struct lat_text t;

	(void)state;
	init(&t, text);
	assert_int_equal(t.fix.qp_header_line, 15);
	assert_int_equal(t.fix.qp_first, 17);
	assert_int_equal(t.fix.qp_last, 18);
	assert_int_equal(t.fix.qp_soft_breaks, 1);
	assert_int_equal(find_line(&t, "a=3D b, wrapped="), 11);
	assert_line(&t, (size_t)find_line(&t, "a= b, joined"), "a= b, joined", 17);
	assert_line(&t, t.nlines - 1, "epilogue=", 20);
	lat_text_release(&t);
}

/*
 * Spaces a browser pastes: U+00A0 in UTF-8, a Latin-1 0xA0, U+2009 (thin),
 * U+202F, U+3000, a zero-width U+200B; "à" (C3 A0) is a letter and stays.
 */
static void test_unicode_spaces(void **state)
{
	static const char text[] =
		"Date_sec.msec   select    loop  maxlat    nbmax\n"
		"1112008903.267\xc2\xa0    929\xa0 100000\xe2\x80\x89     48 \xe2\x80\xaf"
		"     0\n"
		"1112008903.368\xe3\x80\x80    930  100000      52 \xe2\x80\x8b      0\n"
		"voil\xc3\xa0\n";
	struct lat_loaded *l;
	const struct lat_text *t;

	(void)state;
	l = old_logs_load_text(text, NULL);
	t = &l->text;
	assert_int_equal(t->fix.spaces, 6);
	assert_int_equal(t->fix.first_space_line, 2);
	assert_line(t, 1, "1112008903.267     929  100000      48       0", 2);
	assert_line(t, 3, "voil\xc3\xa0", 4);
	assert_int_equal(l->nblocks, 1);
	assert_int_equal(l->blocks[0]->skipped_lines, 0);
	assert_int_equal(l->blocks[0]->series[0]->nrows, 2);
	old_logs_free(l);
}

/*
 * An ftrace latency header as a mailer left it: "# latency:" wrapped twice
 * (the second piece even starts with "#"), the task line wrapped at column 0,
 * and the header rule merged with the "# latency:" line of a second trace.
 */
static void test_ftrace_header(void **state)
{
	static const char text[] =
		"# tracer: irqsoff\n"							/* 1 */
		"#\n"									/* 2 */
		"# irqsoff latency trace v1.1.5 on 6.14.0-rc6\n"			/* 3 */
		"# --------------------------------------------------------------------\n" /* 4 */
		"# latency: 279663 us, #21352/21352, CPU#0 | (M:NONE VP:0, KP:0, SP:0\n" /* 5 */
		"HP:0\n"								/* 6 */
		"#P:2)\n"								/* 7 */
		"#    -----------------\n"						/* 8 */
		"#    | task: dd-805 (uid:0 nice:0 policy:0\n"				/* 9 */
		"rt_prio:0)\n"								/* 10 */
		"#    -----------------\n"						/* 11 */
		"#  => started at: __rmqueue_pcplist\n"					/* 12 */
		"# wakeup_rt latency trace v1.1.5 on\n"					/* 13 */
		"6.10.14-stable\n"							/* 14 */
		"# ---------------------------------------------------------------- "
		"# latency: 55 us, #3/3, CPU#4 | (M:desktop VP:0, KP:0, SP:0 HP:0 #P:8)\n" /* 15 */
		"#     \\   /        ||||||  \\    |    /\n"				/* 16 */
		"  dd-805   0d...    0us : foo <-bar\n"					/* 17 */
		"  dd-805   0d...    1us : baz <-bar\n";				/* 18 */
	struct lat_text t;

	(void)state;
	init(&t, text);
	assert_line(&t, 4, "# latency: 279663 us, #21352/21352, CPU#0 | "
			   "(M:NONE VP:0, KP:0, SP:0 HP:0 #P:2)", 5);
	assert_int_equal(t.lines[4].joined, 2);
	assert_line(&t, 6, "#    | task: dd-805 (uid:0 nice:0 policy:0 rt_prio:0)", 9);
	assert_line(&t, 9, "# wakeup_rt latency trace v1.1.5 on 6.10.14-stable", 13);
	assert_line(&t, 10, "# ----------------------------------------------------------------",
		    15);
	assert_line(&t, 11, "# latency: 55 us, #3/3, CPU#4 | "
			    "(M:desktop VP:0, KP:0, SP:0 HP:0 #P:8)", 15);
	/* the entries after the legend are not joined */
	assert_line(&t, 13, "  dd-805   0d...    0us : foo <-bar", 17);
	assert_line(&t, 14, "  dd-805   0d...    1us : baz <-bar", 18);
	assert_int_equal(t.nlines, 15);
	assert_int_equal(t.nraw, 18);
	assert_int_equal(t.fix.rejoined, 4);
	assert_int_equal(t.fix.first_rejoined_line, 6);
	assert_int_equal(t.fix.split, 1);
	assert_int_equal(t.fix.first_split_line, 15);
	lat_text_release(&t);
}

/* A rule with no header item after it, and a "(" closed nowhere near: left alone. */
static void test_ftrace_header_not_joined(void **state)
{
	static const char text[] =
		"# ---------------------------------------------------------------- results\n"
		"# latency: 5 us, #1/1, CPU#0 | (M:NONE VP:0, KP:0, SP:0\n"
		"this line is prose, longer than any wrapped piece of a header line\n"
		"and so is this one, which also has a ) in it somewhere\n";
	struct lat_text t;

	(void)state;
	init(&t, text);
	assert_int_equal(t.nlines, 4);
	assert_int_equal(t.fix.rejoined, 0);
	assert_int_equal(t.fix.split, 0);
	lat_text_release(&t);
}

/*
 * Notes after the numbers (Tarreau, LKML 2005: "... 26  => process2 sleeps"),
 * two rows on one line, and a row with a sixth number (junk, not a note).
 */
static void test_loop_notes(void **state)
{
	static const char text[] =
		"P: Date_sec.usec   select    loop  maxlat    nbmax\n"			/* 1 */
		"1: 1112024849.747     793 1000000   99996       5\n"			/* 2 */
		"2: 1112024850.645       0 10017626 1000070      26  => process2 sleeps\n"	/* 3 */
		"1: 1112024853.245     792 3496467 2499621       5 "
		"1: 1112024854.344   99929 1000000    8297       0\n"			/* 4 */
		"1: 1112024855.345     841 1000000    8308       0      7\n"		/* 5 */
		"1: 1112024856.362     792 1015845   99996       3 <-- here\n";		/* 6 */
	struct lat_loaded *l;
	const struct lat_block *b;
	const struct lat_series *p1 = NULL, *p2 = NULL;

	(void)state;
	l = old_logs_load_text(text, NULL);
	assert_int_equal(l->nblocks, 1);
	b = l->blocks[0];
	assert_int_equal(b->skipped_lines, 1);	/* line 5 */
	for (size_t i = 0; i < b->nseries; i++) {
		if (!strcmp(b->series[i]->name, "1"))
			p1 = b->series[i];
		if (!strcmp(b->series[i]->name, "2"))
			p2 = b->series[i];
	}
	assert_non_null(p1);
	assert_non_null(p2);
	assert_int_equal(p1->nrows, 4);
	assert_int_equal(p2->nrows, 1);
	assert_int_equal(p2->nnotes, 1);
	assert_string_equal(p2->notes[0].text, "=> process2 sleeps");
	assert_int_equal(p2->line[p2->notes[0].row], 3);
	assert_int_equal(lat_series_at(p2, 0, LAT_LOOP_NBMAX), 26);
	/* both rows of line 4 say line 4 */
	assert_int_equal(p1->line[1], 4);
	assert_int_equal(p1->line[2], 4);
	assert_int_equal(lat_series_at(p1, 2, LAT_LOOP_WAIT), 99929000LL);
	assert_int_equal(p1->nnotes, 1);
	assert_string_equal(p1->notes[0].text, "<-- here");
	assert_int_equal(p1->line[p1->notes[0].row], 6);
	old_logs_free(l);
}

/* lat and lat2 rows take notes too. */
static void test_loop_notes_lat_lat2(void **state)
{
	static const char lat2[] =
		"#process1= lat2 50000\n"
		"date=1111995134.390, wait=       827 us, user=     50000 us, max=     51\n"
		"date=1111995136.546, wait=       827 us, user=   2103676 us, max=2102961  "
		"<- the shell loop starts\n";
	static const char lat[] =
		"P:-- = process 1 : ./lat 20000000, started at 1111993713.241839\n"
		"--  1111993713.241839,   user=     49421 us,   wait=       456 us\n"
		"--  1111993716.616717,   user=   2121497 us,   wait=       413 us  (2.1 s!)\n";
	struct lat_loaded *l;
	const struct lat_series *s;

	(void)state;
	l = old_logs_load_text(lat2, NULL);
	assert_int_equal(l->nblocks, 1);
	s = l->blocks[0]->series[0];
	assert_int_equal(s->nrows, 2);
	assert_int_equal(s->nnotes, 1);
	assert_int_equal(s->notes[0].row, 1);
	assert_string_equal(s->notes[0].text, "<- the shell loop starts");
	old_logs_free(l);

	l = old_logs_load_text(lat, NULL);
	assert_int_equal(l->nblocks, 1);
	s = l->blocks[0]->series[0];
	assert_int_equal(s->nrows, 2);
	assert_int_equal(s->nnotes, 1);
	assert_string_equal(s->notes[0].text, "(2.1 s!)");
	assert_int_equal(lat_series_at(s, 1, LAT_LOOP_LOOP), 2121497000LL);
	old_logs_free(l);
}

/*
 * A declared base64 text part is decoded; each decoded line keeps the number
 * of the input line its first byte came from.  16 characters a line = 12
 * bytes: "first line here\r\n" is bytes 0-16 (lines 10-11), "second\r\n"
 * 17-24 (11-12), "\r\n" 25-26 (12), "last without end" 27-42 (12-13).  A
 * base64 image part is left alone.
 */
static void test_base64_part(void **state)
{
	static const char text[] =
		"From: a@example.org\n"					/* 1 */
		"Subject: b64\n"					/* 2 */
		"MIME-Version: 1.0\n"					/* 3 */
		"Content-Type: multipart/mixed; boundary=\"b1\"\n"	/* 4 */
		"\n"							/* 5 */
		"--b1\n"						/* 6 */
		"Content-Type: text/plain; charset=UTF-8\n"		/* 7 */
		"Content-Transfer-Encoding: base64\n"			/* 8 */
		"\n"							/* 9 */
		"Zmlyc3QgbGluZSBo\n"					/* 10 */
		"ZXJlDQpzZWNvbmQN\n"					/* 11 */
		"Cg0KbGFzdCB3aXRo\n"					/* 12 */
		"b3V0IGVuZA==\n"					/* 13 */
		"--b1\n"						/* 14 */
		"Content-Type: image/png\n"				/* 15 */
		"Content-Transfer-Encoding: base64\n"			/* 16 */
		"\n"							/* 17 */
		"iVBORw0KPXg=\n"					/* 18 */
		"--b1--\n";						/* 19 */
	struct lat_text t;
	long i;

	(void)state;
	init(&t, text);
	assert_int_equal(t.nraw, 19);
	assert_int_equal(t.fix.b64_header_line, 8);
	assert_int_equal(t.fix.b64_first, 10);
	assert_int_equal(t.fix.b64_last, 13);
	assert_int_equal(t.fix.b64_lines, 4);
	assert_int_equal(t.fix.b64_text_lines, 4);
	assert_int_equal(t.fix.b64_bad, 0);
	assert_int_equal(t.fix.qp_lines, 0);
	i = find_line(&t, "first line here");
	assert_true(i >= 0);
	assert_line(&t, (size_t)i, "first line here", 10);
	assert_int_equal(t.lines[i].joined, 1);
	assert_line(&t, (size_t)i + 1, "second", 11);
	assert_int_equal(t.lines[i + 1].joined, 1);
	assert_line(&t, (size_t)i + 2, "", 12);
	assert_line(&t, (size_t)i + 3, "last without end", 12);
	assert_int_equal(t.lines[i + 3].joined, 1);
	assert_line(&t, (size_t)i + 4, "--b1", 14);
	assert_line(&t, (size_t)find_line(&t, "iVBORw0KPXg="), "iVBORw0KPXg=", 18);
	lat_text_release(&t);
	assert_int_equal(lat_text_peek_encoded(text, strlen(text)), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qp_declared),
		cmocka_unit_test(test_qp_pattern),
		cmocka_unit_test(test_not_qp),
		cmocka_unit_test(test_qp_multipart),
		cmocka_unit_test(test_base64_part),
		cmocka_unit_test(test_unicode_spaces),
		cmocka_unit_test(test_ftrace_header),
		cmocka_unit_test(test_ftrace_header_not_joined),
		cmocka_unit_test(test_loop_notes),
		cmocka_unit_test(test_loop_notes_lat_lat2),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
