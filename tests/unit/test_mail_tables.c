// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Tables as mail mangles them (issue 28, core/text_rejoin.c with the readers' row shapes,
 * formats/row_shape.c):
 * format=flowed soft breaks, rows hard-wrapped at a fixed column (cyclictest
 * "T:", perf sched latency and timehist, rtla top), deep quoting, line
 * numbers a web viewer pasted, a bare /proc/loadavg above cyclictest's rows
 * and the first cyclictest versions' fields.  Each literal input is cut from
 * a public mail named in its comment (samples/README.md, "Tables as mail
 * mangles them"); every expected value is read off the literal by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "latscope/an_wakeup.h"
#include "latscope/format.h"
#include "latscope/text.h"
#include "ftrace_text.h"
#include "old_logs_util.h"

static void init(struct lat_text *t, const char *s)
{
	assert_int_equal(lat_text_init_mem(t, s, strlen(s)), 0);
	lat_formats_repair_text(t);	/* as the input layer does (formats/input.c) */
}

static void assert_line(const struct lat_text *t, size_t i, const char *s, uint32_t lineno,
			uint16_t joined)
{
	char buf[1024];

	assert_true(i < t->nlines);
	lat_line_copy(&t->lines[i], buf, sizeof(buf));
	assert_string_equal(buf, s);
	assert_int_equal(t->lines[i].lineno, lineno);
	assert_int_equal(t->lines[i].joined, joined);
}

/* The printed values of histogram @k of block @b: count, min, avg, max (ns). */
static void assert_printed(const struct lat_block *b, size_t k, const char *title, int64_t count,
			   int64_t min, int64_t avg, int64_t max)
{
	const struct lat_histogram *h;

	assert_true(k < b->nhist);
	h = b->hist[k];
	assert_string_equal(h->title, title);
	assert_true(h->has_printed);
	assert_int_equal(h->printed.count, count);
	assert_int_equal(h->printed.min_ns, min);
	assert_int_equal(h->printed.avg_ns, avg);
	assert_int_equal(h->printed.max_ns, max);
}

/* @text as the input layer repairs it: @rows rows joined back, @nlines lines left. */
static void assert_joined(const char *text, uint32_t rows, size_t nlines)
{
	struct lat_text t;

	init(&t, text);
	assert_int_equal(t.fix.rows, rows);
	assert_int_equal(t.nlines, nlines);
	lat_text_release(&t);
}

/* @text read as one block, every line of it read. */
static struct lat_loaded *load_one(const char *text)
{
	struct lat_loaded *l = old_logs_load_text(text, NULL);

	assert_int_equal(l->nblocks, 1);
	assert_int_equal(l->blocks[0]->skipped_lines, 0);
	return l;
}

/*
 * Jean-Michel Hautbois, LKML 23 Oct 2024 (Thunderbird, format=flowed): the
 * quoted row broken by a soft break after "Avg:  775 " and by a hard wrap
 * after "Max:", the new row by a soft break after "Max: ".
 */
static const char flowed_mail[] =
	"From: Jean-Michel Hautbois <jeanmichel.hautbois@yoseli.org>\n"		/* 1 */
	"Subject: Re: [PATCH RFC 1/2] m68k: Add tracirqs\n"			/* 2 */
	"Content-Type: text/plain; charset=UTF-8; format=flowed\n"		/* 3 */
	"Content-Transfer-Encoding: 8bit\n"					/* 4 */
	"\n"									/* 5 */
	">>>>> T: 0 (  245) P:99 I:1000 C:  11203 Min:     92 Act:  623 Avg:  775 \n" /* 6 */
	">>>>> Max:\n"								/* 7 */
	">>>>>      3516\n"							/* 8 */
	">>>>>\n"								/* 9 */
	"T: 0 (  258) P:99 I:1000 C:  10000 Min:    118 Act: 1104 Avg:  418 Max: \n" /* 10 */
	"   1858\n"								/* 11 */
	"\n"									/* 12 */
	"Thanks, \n"								/* 13 */
	"JM\n"									/* 14 */
	"-- \n"									/* 15 */
	"signature\n";								/* 16 */

static void test_flowed(void **state)
{
	struct lat_text t;
	struct lat_loaded *l;

	(void)state;
	init(&t, flowed_mail);
	/* soft breaks at lines 6, 10 and 13 (15 is the signature separator, kept) */
	assert_int_equal(t.fix.flowed, 3);
	assert_int_equal(t.fix.first_flowed_line, 7);
	assert_int_equal(t.fix.flowed_header_line, 3);
	/* 6+7 by the soft break, then 8 as the rest of the row cut after "Max:" */
	/* lines 0-4 are the header and the blank line after it */
	assert_line(&t, 5, "T: 0 (  245) P:99 I:1000 C:  11203 Min:     92 Act:  623 Avg:  775 "
		    "Max:      3516", 6, 2);
	assert_int_equal(t.lines[5].quote, 5);
	assert_int_equal(t.fix.rows, 1);
	assert_int_equal(t.fix.row_pieces, 1);
	assert_line(&t, 7, "T: 0 (  258) P:99 I:1000 C:  10000 Min:    118 Act: 1104 Avg:  418 "
		    "Max:    1858", 10, 1);
	assert_line(&t, 9, "Thanks, JM", 13, 1);
	assert_line(&t, 10, "--", 15, 0);
	assert_line(&t, 11, "signature", 16, 0);
	lat_text_release(&t);

	l = old_logs_load_text(flowed_mail, NULL);
	assert_int_equal(l->nblocks, 2);
	assert_printed(l->blocks[0], 0, "thread 0", 11203, 92000, 775000, 3516000);
	assert_printed(l->blocks[1], 0, "thread 0", 10000, 118000, 418000, 1858000);
	assert_int_equal(l->blocks[0]->skipped_lines, 0);
	old_logs_free(l);
}

/*
 * Jean-Michel Hautbois, linux-m68k/LKML 3 Dec 2024 (Thunderbird, format=flowed;
 * samples/mail/038-hautbois-2024-m68k-wakeup_rt-flowed.txt, lines 1-2 and
 * 151-165): a `tail -10 trace` of wakeup_rt quoted ">>", no "# latency:"
 * header: the latency reader takes it, and read as ftrace text it is 6 events.  The mailer broke both sched rows at the blank
 * the kernel pads the priority with ("%3d": "119: 49:R"), and one function row.
 * Lines 166-169 after them: a quote's empty lines are "> ", no soft break.
 */
static const char flowed_quoted_sched[] =
	"Content-Type: text/plain; charset=UTF-8; format=flowed\n"		/* 1 */
	"Content-Transfer-Encoding: 8bit\n"					/* 2 */
	"\n"									/* 3 */
	">> Sorry for my preceding mail, it *is* better:\n"			/* 4 */
	">> # tail -10 trace\n"							/* 5 */
	">> #                  |||| / _-=> migrate-disable\n"			/* 6 */
	">> #                  ||||| /     delay\n"				/* 7 */
	">> #  cmd     pid     |||||| time  |   caller\n"			/* 8 */
	">> #     \\   /        ||||||  \\    |    /\n"			/* 9 */
	">>    <idle>-0         0dnh5.   11us+:        0:120:R   + [000]     119: \n" /* 10 */
	">> 49:R irq/104-enet-fe\n"						/* 11 */
	">>    <idle>-0         0dnh5.   42us+: <stack trace>\n"		/* 12 */
	">>    <idle>-0         0dnh5.   57us!: wake_up_process <- \n"		/* 13 */
	">> __handle_irq_event_percpu\n"					/* 14 */
	">>    <idle>-0         0d..3.  282us+: __schedule <-schedule_idle\n"	/* 15 */
	">>    <idle>-0         0d..3.  302us+:        0:120:R ==> [000]     119: \n" /* 16 */
	">> 49:R irq/104-enet-fe\n"						/* 17 */
	">>    <idle>-0         0d..3.  325us : <stack trace>\n"		/* 18 */
	"> \n"									/* 19 */
	"> Oh, yeah, there is more required.\n"				/* 20 */
	"> \n"									/* 21 */
	"> The current_stack_frame() function needs to change to actually return\n"; /* 22 */

/* @text read with the reader named @format (not detected), every block analyzed. */
static struct lat_loaded *load_as(const char *text, const char *format)
{
	struct lat_read_opts ro = { .format = lat_format_find(format) };
	struct lat_analyze_opts ao;
	char path[] = "/tmp/latscope-unit-XXXXXX";
	int fd = mkstemp(path);
	struct lat_loaded *l = calloc(1, sizeof(*l));

	assert_non_null(l);
	assert_non_null(ro.format);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	assert_int_equal(lat_load(l, path, &ro), 0);
	unlink(path);
	assert_int_equal(l->nblocks, 1);
	lat_analyze_opts_init(&ao);
	assert_int_equal(lat_analyze_block(l->blocks[0], &ao), 0);
	return l;
}

static void test_flowed_quoted_sched(void **state)
{
	struct lat_text t;
	struct lat_loaded *l;
	const struct lat_block *b;
	const struct lat_wakeup_result *r;

	(void)state;
	init(&t, flowed_quoted_sched);
	/* the mail layer: soft breaks at lines 10, 13 and 16, the blank kept (no DelSp) */
	assert_int_equal(t.fix.flowed, 3);
	assert_int_equal(t.fix.first_flowed_line, 11);
	assert_line(&t, 9, "   <idle>-0         0dnh5.   11us+:        0:120:R   + [000]     119: "
		    "49:R irq/104-enet-fe", 10, 1);
	assert_int_equal(t.lines[9].quote, 2);
	assert_line(&t, 13, "   <idle>-0         0d..3.  302us+:        0:120:R ==> [000]     119: "
		    "49:R irq/104-enet-fe", 16, 1);
	/* "> " ends in a blank but holds no text: the paragraphs stay apart */
	assert_line(&t, 15, "", 19, 0);
	assert_line(&t, 16, "Oh, yeah, there is more required.", 20, 0);
	assert_line(&t, 17, "", 21, 0);
	assert_int_equal(t.lines[17].quote, 1);
	assert_int_equal(t.nlines, 19);
	lat_text_release(&t);

	/* detected: the latency reader takes a dump without its header (6 entries) */
	l = old_logs_load_text(flowed_quoted_sched, NULL);
	assert_int_equal(l->nblocks, 1);
	assert_string_equal(l->blocks[0]->fmt->name, "ftrace-latency");
	assert_int_equal(l->blocks[0]->skipped_lines, 0);
	old_logs_free(l);

	/* read as ftrace text: both rows whole, the padded " 49" read as the priority */
	l = load_as(flowed_quoted_sched, "ftrace-text");
	b = l->blocks[0];
	assert_int_equal(b->skipped_lines, 0);
	r = b->analysis;
	assert_int_equal(r->nevents, 6);	/* rows at lines 10, 12, 13, 15, 16, 18 */
	assert_int_equal(r->waits, 1);
	/* woken at 11 us, switched in at 302 us: 291 us; prio 49 is SCHED_FIFO 50 */
	assert_int_equal(r->ntasks, 1);
	assert_int_equal(r->tasks[0].pid, 119);
	assert_int_equal(r->tasks[0].prio, 49);
	assert_string_equal(r->tasks[0].comm, "irq/104-enet-fe");
	assert_int_equal(r->tasks[0].wake.max, 291000);
	old_logs_free(l);
}

/* Without a header saying format=flowed, a line ending in a blank is a line. */
static void test_not_flowed(void **state)
{
	static const char text[] =
		"Thanks, \n"
		"JM\n";
	static const char delsp[] =
		"Content-Type: text/plain; format=flowed; delsp=yes\n"
		"Subject: x\n"
		"\n"
		"long word split in the mid \n"
		"dle of it\n";
	struct lat_text t;

	(void)state;
	init(&t, text);
	assert_int_equal(t.nlines, 2);
	assert_int_equal(t.fix.flowed, 0);
	lat_text_release(&t);
	/* DelSp=yes: the blank before the break is the mailer's, deleted */
	init(&t, delsp);
	assert_int_equal(t.fix.flowed, 1);
	assert_line(&t, 3, "long word split in the middle of it", 4, 1);
	lat_text_release(&t);
}

/*
 * Clark Williams, LKML 27 Sep 2006 (cyclictest 0.9): every row wrapped after
 * "Avg:", its value on the next line; the bare /proc/loadavg above.
 */
static const char williams[] =
	"$ sudo ./cyclictest32 --prio=1\n"					/* 1 */
	"0.01 0.03 0.01 1/151 3486\n"						/* 2 */
	"\n"									/* 3 */
	"T: 0 ( 3484) P: 1 I:    1000 C:    8955 Min:      10 Act:   38011 Avg:\n" /* 4 */
	" 20919 Max:   38445\n"							/* 5 */
	"$ sudo ./cyclictest32 --prio=1 --nanosleep\n"				/* 6 */
	"0.01 0.03 0.00 1/151 3490\n"						/* 7 */
	"\n"									/* 8 */
	"T: 0 ( 3488) P: 1 I:    1000 C:   12995 Min:       6 Act:       7 Avg:\n" /* 9 */
	"     6 Max:      31\n";						/* 10 */

static void test_wrapped_cyclictest(void **state)
{
	struct lat_text t;
	struct lat_loaded *l;

	(void)state;
	init(&t, williams);
	assert_int_equal(t.fix.rows, 2);
	assert_line(&t, 3, "T: 0 ( 3484) P: 1 I:    1000 C:    8955 Min:      10 Act:   38011 "
		    "Avg:  20919 Max:   38445", 4, 1);
	lat_text_release(&t);

	/*
	 * Two runs (tids 3484, 3488): two blocks; the loadavg is no lat3 row and
	 * no label; the 8 wide Act/Avg of cyclictest 0.9 ("I:    1000") are us.
	 */
	l = old_logs_load_text(williams, NULL);
	assert_int_equal(l->nblocks, 2);
	assert_string_equal(l->blocks[0]->title, "cyclictest summary");
	assert_printed(l->blocks[0], 0, "thread 0", 8955, 10000, 20919000, 38445000);
	assert_printed(l->blocks[1], 0, "thread 0", 12995, 6000, 6000, 31000);
	assert_null(old_logs_finding(l->blocks[0], "nanoseconds"));
	old_logs_free(l);
}

/*
 * cyclictest -h's overflow list (samples/cyclictest/overflow.txt, produced here: `-l 2000
 * -h 30`, 1990 overflows) as `fold -s -w 72` wraps it: the cycle numbers ("%05lu") and
 * "# 01960 others" go to lines of their own.  Read as numbers only they would be rows of
 * the histogram (or, 5 digits wide, no line of cyclictest's); they are the list's rest:
 * 10 + 12 + 8 listed and 1960 others make the 1990 overflows, no warning.
 */
static void test_wrapped_overflow_list(void **state)
{
	static const char text[] =
		"# Histogram\n"
		"000000 000000\n"
		"000013 000001\n"
		"000014 000001\n"
		"# Total: 000000002\n"
		"# Min Latencies: 00013\n"
		"# Avg Latencies: 00079\n"
		"# Max Latencies: 02343\n"
		"# Histogram Overflows: 01990\n"
		"# Histogram Overflow at cycle number:\n"
		"# Thread 0: 00000 00001 00002 00003 00004 00005 00006 00007 00008 00009\n"
		"00010 00011 00012 00013 00014 00015 00016 00017 00018 00019 00020 00021\n"
		"00022 00023 00024 00025 00026 00027 00028 00029 # 01960 others\n";
	struct lat_loaded *l;

	(void)state;
	l = load_one(text);
	assert_null(old_logs_finding(l->blocks[0], "overflow-cycles"));
	assert_null(old_logs_finding(l->blocks[0], "total-mismatch"));
	assert_int_equal(l->blocks[0]->nhist, 1);
	/* rows 0, 13, 14 (the empty one kept) and the overflows' bucket: no row from the list */
	assert_int_equal(l->blocks[0]->hist[0]->nbuckets, 4);
	old_logs_free(l);
	/* cycles past 99999 print 6 digits: their piece reads like a histogram row, it is not */
	l = load_one("# Histogram\n000013 000001\n# Total: 000000001\n"
		     "# Histogram Overflows: 00012\n"
		     "# Histogram Overflow at cycle number:\n"
		     "# Thread 0: 99990 99991 99992 99993 99994 99995 99996 99997 99998 99999\n"
		     "100000 100001\n");
	assert_null(old_logs_finding(l->blocks[0], "overflow-cycles"));
	assert_int_equal(l->blocks[0]->hist[0]->nbuckets, 2);	/* row 13 and the overflows' */
	old_logs_free(l);
	/* the list's last piece lost: 20 listed, no "others", 30 counted, said */
	l = old_logs_load_text("# Histogram\n000013 000001\n# Total: 000000001\n"
			       "# Histogram Overflows: 00030\n"
			       "# Histogram Overflow at cycle number:\n"
			       "# Thread 0: 00000 00001 00002 00003 00004 00005 00006 00007 00008\n"
			       "00009 00010 00011 00012 00013 00014 00015 00016 00017 00018 00019\n"
			       "\n", NULL);
	assert_int_equal(l->nblocks, 1);
	assert_string_equal(old_logs_finding(l->blocks[0], "overflow-cycles")->message,
			    "thread 0: 20 overflow cycles listed and 0 others, but 30 overflows "
			    "counted");
	old_logs_free(l);
}

/*
 * Two rows never make one: a row cut short stays as it is (and is reported
 * by its reader) before a blank line, before a complete row, before a piece
 * of another quote depth; a complete row is never extended.  The first text
 * is Arnaldo Carvalho de Melo's (LKML 17 Jul 2020: ^C stopped the default
 * mode in the middle of a refresh).
 */
static void test_rows_never_joined(void **state)
{
	static const char acme[] =
		"> > T: 6 (29071) P:95 I:4000 C:    124 Min:      2 Act:    2 Avg:    2 Max:       7\n"
		"> > T: 7 (29072) P:95 I:4500 C:    110 Min:      2 Act:    2 Avg:    2 Max:\n"
		"\n"
		"> > Then we do:\n";
	static const char *const not_joined[] = {
		/* a cut row, then a row */
		"T: 0 ( 1) P:95 I:1000 C: 10 Min: 1 Act: 2 Avg: 2 Max:\n"
		"T: 1 ( 2) P:95 I:1000 C: 10 Min: 1 Act: 2 Avg: 2 Max: 9\n",
		/* a cut row, then a piece of another quote depth */
		"T: 2 ( 3) P:95 I:1000 C: 10 Min: 1 Act: 2 Avg:\n"
		"> 5 Max: 12\n",
		/* a complete row, then a number */
		"T: 3 ( 4) P:95 I:1000 C: 10 Min: 1 Act: 2 Avg: 2 Max: 9\n"
		"       17\n",
		/* a perf sched latency row cut short, then a row of its own */
		"a:1 |  1.000 ms |  2 | avg:  0.500 ms |\n"
		"b:2 |  1.000 ms |  2 | avg:  0.500 ms | max:  0.900 ms | max at: 1.000000 s\n",
		/* the TOTAL row ends after its switches */
		"  TOTAL:                |   2121.176 ms |      628 |\n"
		" ---------------------------------------------------\n",
	};
	struct lat_text t;
	struct lat_loaded *l;

	(void)state;
	for (size_t i = 0; i < LAT_ARRAY_SIZE(not_joined); i++) {
		init(&t, not_joined[i]);
		assert_int_equal(t.fix.rows, 0);
		assert_int_equal(t.nlines, 2);
		lat_text_release(&t);
	}
	init(&t, acme);
	assert_int_equal(t.fix.rows, 0);
	lat_text_release(&t);
	/* thread 7 is cut after "Max:": not joined; its maximum unknown, never guessed */
	l = old_logs_load_text(acme, NULL);
	assert_int_equal(l->nblocks, 1);
	assert_int_equal(l->blocks[0]->nhist, 2);
	assert_printed(l->blocks[0], 0, "thread 6", 124, 2000, 2000, 7000);
	assert_printed(l->blocks[0], 1, "thread 7", 110, 2000, 2000, LAT_VALUE_NONE);
	assert_int_equal(l->blocks[0]->skipped_lines, 0);
	old_logs_free(l);
}

/*
 * Daniel Dao, LKML 14 Mar 2025 (Gmail, wrapped near column 78): a perf sched
 * latency row in three pieces, and timehist -w --state rows in two.
 */
static const char dao[] =
	"Task                  |   Runtime ms  |  Count   | Avg delay ms    |\n"		/* 1 */
	"Max delay ms    | Max delay start           | Max delay end          |\n"		/* 2 */
	"---------------------------------------------------------------------\n"		/* 3 */
	"Pingora HTTP Pr:3133982 |      0.080 ms |        1 | avg: 881.614 ms |\n"		/* 4 */
	"max: 881.614 ms | max start: 312881.567210 s | max end: 312882.448824\n"	/* 5 */
	"s\n"										/* 6 */
	"\n"										/* 7 */
	"          time    cpu  task name                       wait time  sch\n"	/* 8 */
	"delay   run time  state\n"							/* 9 */
	"  312882.448861 [0118]  Pingora HTTP Pr[3133982/3045241\n"			/* 10 */
	"                   awakened: Pingora HTTP Pr[3045278/3045241\n"		/* 11 */
	"  312882.448911 [0118]  Pingora HTTP Pr[3133982/3045241      0.000\n"		/* 12 */
	"881.614      0.087      S\n";							/* 13 */

static void test_wrapped_perf_sched(void **state)
{
	struct lat_text t;
	struct lat_loaded *l;

	(void)state;
	init(&t, dao);
	assert_int_equal(t.fix.rows, 3);
	assert_int_equal(t.fix.row_pieces, 4);
	assert_line(&t, 3, "Pingora HTTP Pr:3133982 |      0.080 ms |        1 | avg: 881.614 ms | "
		    "max: 881.614 ms | max start: 312881.567210 s | max end: 312882.448824 s", 4, 2);
	assert_line(&t, 8, "  312882.448911 [0118]  Pingora HTTP Pr[3133982/3045241      0.000 "
		    "881.614      0.087      S", 12, 1);
	lat_text_release(&t);

	l = old_logs_load_text(dao, NULL);
	assert_int_equal(l->nblocks, 2);
	/* "Count" (perf 6.x) for "Switches": one switch, avg = max = 881.614 ms */
	assert_printed(l->blocks[0], 0, "Pingora HTTP Pr:3133982", 1, LAT_VALUE_NONE, 881614000,
		       881614000);
	assert_int_equal(l->blocks[0]->skipped_lines, 0);
	/* the header's second halves are its own, not malformed rows */
	assert_int_equal(l->blocks[1]->skipped_lines, 0);
	assert_int_equal(l->blocks[1]->nhist, 1);
	assert_string_equal(l->blocks[1]->hist[0]->title, "cpu118 sch delay");
	assert_int_equal(l->blocks[1]->hist[0]->nbuckets, 1);
	assert_int_equal(l->blocks[1]->hist[0]->b[0].lo_ns, 881614000);
	assert_non_null(old_logs_finding(l->blocks[1], "event-rows"));
	old_logs_free(l);
}

/*
 * rtla timerlat top -u (Documentation's example, samples/rtla/timerlat-top-u-lkml.txt)
 * as `fold -s -w 76` wraps it: both header lines and every row in two.
 */
static void test_wrapped_rtla_top(void **state)
{
	static const char text[] =
		"  0 00:01:01   |          IRQ Timer Latency (us)        |         Thread\n"
		"Timer Latency (us)      |    Ret user Timer Latency (us)\n"
		"CPU COUNT      |      cur       min       avg       max |      cur\n"
		"min       avg       max |      cur       min       avg       max\n"
		"  1 #60003     |        1         1         6        41 |       11\n"
		"7        18       367 |       14        10        22       372\n"
		"  2 #60002     |        1         1         5        17 |       11\n"
		"6        16        42 |       14         9        19        51\n";
	struct lat_loaded *l;

	(void)state;
	assert_joined(text, 4, 4);
	l = load_one(text);
	/*
	 * IRQ, Thread and Ret user per CPU; cpu1's Thread max 367 us, Ret user
	 * 372 us; COUNT (#60003) is the IRQ count: the others' are not printed
	 */
	assert_int_equal(l->blocks[0]->nhist, 6);
	assert_printed(l->blocks[0], 0, "IRQ cpu1", 60003, 1000, 6000, 41000);
	assert_printed(l->blocks[0], 1, "Thread cpu1", LAT_VALUE_NONE, 7000, 18000, 367000);
	assert_printed(l->blocks[0], 2, "Ret user cpu1", LAT_VALUE_NONE, 10000, 22000, 372000);
	old_logs_free(l);
}

/*
 * rtla hwnoise: Fernand Sieber's first run ("[RFC PATCH 0/3] kvm,sched: Add gtime
 * halted", kvm/LKML 18 Feb 2025, samples/rtla/hwnoise-lkml-2025-kvm-two-runs.txt,
 * banner to CPU 2) as `fold -s -w 76` wraps it: the header after "Max Single",
 * each row after its Max Single value.  The rows hold 7 columns, osnoise top's
 * 10: only the banner or the header above tells a whole hwnoise row from an
 * osnoise row cut short.  Then the header without the banner, and osnoise top
 * (Documentation's example, samples/rtla/osnoise-top.txt) wrapped the same way.
 */
static const char hwnoise_wrapped[] =
	"Hardware-related Noise\n"
	"duration:   0 00:02:00 | time is in us\n"
	"CPU Period       Runtime        Noise  % CPU Aval   Max Noise   Max Single  \n"
	"        HW          NMI\n"
	"  0 #4443      115518000            0   100.00000           0            0  \n"
	"         0            0\n"
	"  1 #4442      115512416       144178    99.87518        4006         4006  \n"
	"        37            0\n"
	"  2 #4443      115518000            0   100.00000           0            0  \n"
	"         0            0\n";

static void test_wrapped_hwnoise(void **state)
{
	static const char osnoise[] =
		"                                          Operating System Noise\n"
		"  duration:   0 00:01:00 | time is in us\n"
		"  CPU Period       Runtime        Noise  % CPU Aval   Max Noise   Max \n"
		"Single          HW          NMI          IRQ      Softirq       Thread\n"
		"    0 #59         53100000       304896    99.42580        6978           \n"
		"56         549            0        53111         1590           13\n"
		"    1 #59         53100000       338339    99.36282        8092           \n"
		"24         399            0        53130         1448           31\n";
	const char *no_banner = strstr(hwnoise_wrapped, "duration:");
	struct lat_text t;
	struct lat_loaded *l;

	(void)state;
	/* the header and the three rows joined: 10 lines become 6 */
	init(&t, hwnoise_wrapped);
	assert_int_equal(t.fix.rows, 4);
	assert_int_equal(t.nlines, 6);
	/* the trailing blanks of a piece go, one blank joins: "4006" + " " + "        37" */
	assert_line(&t, 4, "  1 #4442      115512416       144178    99.87518        4006         "
		    "4006         37            0", 7, 1);
	lat_text_release(&t);
	l = load_one(hwnoise_wrapped);
	assert_string_equal(l->blocks[0]->title, "rtla hwnoise");
	/* max = Max Single (the 6th number after #N): 0, 4006, 0 us */
	assert_int_equal(l->blocks[0]->nhist, 3);
	assert_printed(l->blocks[0], 0, "cpu0", LAT_VALUE_NONE, LAT_VALUE_NONE, LAT_VALUE_NONE, 0);
	assert_printed(l->blocks[0], 1, "cpu1", LAT_VALUE_NONE, LAT_VALUE_NONE, LAT_VALUE_NONE,
		       4006000);
	assert_printed(l->blocks[0], 2, "cpu2", LAT_VALUE_NONE, LAT_VALUE_NONE, LAT_VALUE_NONE, 0);
	old_logs_free(l);

	/* no banner: the header joined back ends at NMI, hwnoise's */
	assert_joined(no_banner, 4, 5);

	/* osnoise top: 10 columns under "Operating System Noise", Max Single 56 and 24 us */
	assert_joined(osnoise, 3, 5);
	l = load_one(osnoise);
	assert_string_equal(l->blocks[0]->title, "rtla osnoise top");
	assert_int_equal(l->blocks[0]->nhist, 2);
	assert_printed(l->blocks[0], 0, "cpu0", LAT_VALUE_NONE, LAT_VALUE_NONE, LAT_VALUE_NONE,
		       56000);
	assert_printed(l->blocks[0], 1, "cpu1", LAT_VALUE_NONE, LAT_VALUE_NONE, LAT_VALUE_NONE,
		       24000);
	old_logs_free(l);
}

/*
 * timerlat's auto-analysis as rtla 6.10 on aligns it (Documentation/tools/rtla/
 * rtla-timerlat-top.rst, samples/rtla/timerlat-top-aa.txt, lines 28-34 and 60-61): its
 * lines are 80 columns wide.  `fold -s -w 72` moves each share to a line of its own;
 * the culprit's time and the idle line were cut by hand narrower (after the culprit's
 * name, inside the label "Max timerlat IRQ latency from idle:").  Read back, the
 * findings are the unwrapped text's, word for word.
 */
static void test_wrapped_rtla_aa(void **state)
{
	static const char text[] =
		"  rtla timerlat hit stop tracing\n"
		"  ## CPU 23 hit stop tracing, analyzing it ##\n"
		"  IRQ handler delay:                                        27.49 us \n"
		"(65.52 %)\n"
		"  IRQ latency:                                              28.13 us\n"
		"  Timerlat IRQ duration:                                     9.59 us \n"
		"(22.85 %)\n"
		"  Blocking thread:                                           3.79 us \n"
		"(9.03 %)\n"
		"                         objtool:49256\n"
		"                       3.79 us\n"
		"\n"
		"  The system has exit from idle latency!\n"
		"    Max timerlat IRQ latency \n"
		"from idle: 17.48 us in cpu 4\n";
	struct lat_loaded *l;
	const struct lat_finding *f;

	(void)state;
	/* 5 lines joined back: 3 shares, the culprit's time, the idle line's end */
	assert_joined(text, 5, 10);
	l = load_one(text);
	f = old_logs_finding(l->blocks[0], "rtla-auto-analysis");
	assert_non_null(f);
	assert_string_equal(f->message, "## CPU 23 hit stop tracing, analyzing it ##; "
			    "IRQ handler delay: 27.49 us (65.52 %); IRQ latency: 28.13 us; "
			    "Timerlat IRQ duration: 9.59 us (22.85 %); Blocking thread: 3.79 us "
			    "(9.03 %); objtool:49256 3.79 us; Max timerlat IRQ latency from idle: "
			    "17.48 us in cpu 4");
	f = old_logs_finding(l->blocks[0], "rtla-blocking-thread");
	assert_non_null(f);
	assert_string_equal(f->message, "cpu 23: objtool:49256 blocked the timerlat thread for "
			    "3.79 us (9.03 %)");
	old_logs_free(l);
}

/*
 * "Blocking thread:" alone (the IRQ latency hit the threshold) and a culprit without a
 * time are whole lines: what follows them (the culprit, the stack's heading) does not
 * complete them, so nothing is joined.  And a piece of another table's row that reads
 * "comm:pid" at the start of its line does not start a culprit.
 */
static void test_rtla_aa_not_joined(void **state)
{
	static const char text[] =
		"## CPU 1 hit stop tracing, analyzing it ##\n"
		"  IRQ handler delay:                                         0.00 us (0.00 %)\n"
		"  IRQ latency:                                             709.25 us\n"
		"  Blocking thread:\n"
		"                                   ip:3567\n"
		"    Blocking thread stack trace\n"
		"                -> timerlat_irq\n"
		"------------------------------------------------------------------------\n"
		"    IRQ latency:                                           709.25 us (100%)\n";

	/* cyclictest -N (samples/cyclictest/nsecs.txt) wrapped at 76: "Max:16822590" is no culprit */
	static const char nsecs[] =
		"T: 0 (14911) P:80 I:200 C:   2000 Min:  11006 Act:   61694 Avg:  107127\n"
		"Max:16822590\n";

	(void)state;
	assert_joined(text, 0, 9);
	assert_joined(nsecs, 1, 1);
}

/*
 * perf sched map of 16 CPUs (Yang Jihong, LKML 6 Feb 2024, samples/perf-sched/
 * lkml-2024-yangjihong-lat-map-replay-snip.txt, lines 32-35 and 37-38) as `fold -s -w 72`
 * wraps it: each row's time and legend on a line of their own.  Then a timehist rule
 * whose last group went to the next line ("---------").
 */
static void test_wrapped_perf_sched_map(void **state)
{
	static const char map[] =
		"    *A0                                                              \n"
		"456532.510141 secs A0 => migration/0:15\n"
		"    *.                                                               \n"
		"456532.510171 secs .  => swapper:0\n"
		"     .  *B0                                                          \n"
		"456532.510261 secs B0 => migration/1:21\n"
		"     .  *.                                                           \n"
		"456532.510279 secs\n"
		"     L7  L7  L7  L7  L7  L7  L7  L7  L7  L7  L7 *L7  .   .   .   .   \n"
		"456532.785979 secs\n"
		"     L7  L7  L7  L7  L7  L7  L7  L7  L7  L7  L7  L7 *L7  .   .   .   \n"
		"456532.786054 secs\n";
	static const char timehist[] =
		"                time    cpu  task name             wait time  sch delay \n"
		" run time\n"
		"                             [tid/pid]                (msec)     (msec) \n"
		"   (msec)\n"
		"      -------------- ------  --------------------  ---------  --------- \n"
		"---------\n"
		"        79371.874569 [0011]  gcc[31949]                0.014      0.000 \n"
		"    1.148\n";
	struct lat_loaded *l;
	const struct lat_finding *f;

	(void)state;
	assert_joined(map, 6, 6);
	l = load_one(map);
	/* 6 rows, a switch each, 456532.786054 - 456532.510141 = 275.913 ms; 3 legends */
	f = old_logs_finding(l->blocks[0], "perf-sched-map");
	assert_non_null(f);
	assert_string_equal(f->message, "perf sched map: 6 context switches on 16 CPUs over 276 "
			    "ms, 3 tasks named: which task ran where, no scheduling delay (perf "
			    "sched latency and timehist print those)");
	old_logs_free(l);
	/* the row joined back (a row shape); the rule's end is the rule's, not a bad row */
	l = load_one(timehist);
	assert_int_equal(l->blocks[0]->nhist, 1);
	assert_string_equal(l->blocks[0]->hist[0]->title, "cpu11 sch delay");
	old_logs_free(l);
}

/*
 * ftrace text quoted in a reply after a mail client wrapped it (samples/ftrace-text/
 * kernel-trace.txt, lines 13-17 and 29-30, `fold -s -w 76 | sed 's/^/> /'`): with the
 * TGID column the event's name goes to the next line, a sched_switch to three lines.
 */
static void test_wrapped_ftrace_events(void **state)
{
	static const char text[] =
		">        record.sh-11147   (  11147) [001] ...1.   893.188168: \n"	/* 1 */
		"> tracing_mark_write: latscope-sample: start\n"
		">        record.sh-11147   (  11147) [001] .....   893.188309: \n"	/* 3 */
		"> sched_process_fork: comm=record.sh pid=11147 child_comm=record.sh \n"
		"> child_pid=11150\n"
		">        record.sh-11147   (  11147) [001] d..2.   893.188331: \n"	/* 6 */
		"> sched_wakeup_new: comm=record.sh pid=11150 prio=120 target_cpu=001\n"
		">        record.sh-11147   (  11147) [001] d..2.   893.188340: sched_switch: \n"
		"> prev_comm=record.sh prev_pid=11147 prev_prio=120 prev_state=D ==> \n"
		"> next_comm=record.sh next_pid=11150 next_prio=120\n"
		">        record.sh-11147   (  11147) [001] d..2.   893.188531: <stack trace>\n"
		">    Web Content-7-11150   (  11150) [001] d..3.   893.188637: sched_waking: \n"
		"> comm=migration/1 pid=21 prio=0 target_cpu=001\n"			/* 13 */
		">    Web Content-7-11150   (  11150) [001] dN.4.   893.188643: sched_wakeup: \n"
		"> comm=migration/1 pid=21 prio=0 target_cpu=001\n";
	struct lat_text t;

	(void)state;
	/* 6 events of 8 pieces joined; the stack's head was whole */
	init(&t, text);
	assert_int_equal(t.fix.rows, 6);
	assert_int_equal(t.fix.row_pieces, 8);
	assert_line(&t, 3, "       record.sh-11147   (  11147) [001] d..2.   893.188340: "
		    "sched_switch: prev_comm=record.sh prev_pid=11147 prev_prio=120 prev_state=D "
		    "==> next_comm=record.sh next_pid=11150 next_prio=120", 8, 2);
	assert_int_equal(t.nlines, 7);
	lat_text_release(&t);
	/* every event read whole: marker, fork, new task, switch, stack, waking, wakeup */
	{
		static const enum lat_ev_type want[] = { LAT_EV_MARKER, LAT_EV_FORK,
							 LAT_EV_WAKEUP_NEW, LAT_EV_SWITCH,
							 LAT_EV_STACK, LAT_EV_WAKING, LAT_EV_WAKEUP };
		char path[] = "/tmp/latscope-unit-XXXXXX";
		int fd = mkstemp(path);
		struct lat_loaded ld;
		struct lat_event ev;

		assert_true(fd >= 0);
		assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
		close(fd);
		assert_int_equal(lat_load(&ld, path, NULL), 0);
		unlink(path);
		assert_int_equal(ld.nblocks, 1);
		for (size_t i = 0; i < LAT_ARRAY_SIZE(want); i++) {
			assert_int_equal(lat_event_next(ld.blocks[0]->events, &ev), 1);
			assert_int_equal(ev.type, want[i]);
			if (ev.type == LAT_EV_SWITCH)
				assert_int_equal(ev.u.sw.next_pid, 11150);
			if (ev.type == LAT_EV_FORK)
				assert_int_equal(ev.u.task.child_pid, 11150);
		}
		assert_int_equal(lat_event_next(ld.blocks[0]->events, &ev), 0);
		assert_int_equal(ft_source_skipped(ld.blocks[0]->events), 0);
		lat_loaded_release(&ld);
	}
}

/*
 * The kernel's latency tracers (Documentation/trace/timerlat-tracer.rst and
 * hwlat_detector.rst of 5.7, samples/kernel-tracers/) wrapped by `fold -s`: timerlat
 * lines at 76 columns after their context; a hwlat row with NMIs at 125, before
 * "nmi-count:", the pair of "nmi-total:".
 */
static void test_wrapped_kernel_tracers(void **state)
{
	static const char text[] =
		"# tracer: timerlat\n"
		"          <idle>-0       [000] d.h1    54.029328: #1     context    irq \n"
		"timer_latency       932 ns\n"
		"           <...>-867     [000] ....    54.029339: #1     context thread \n"
		"timer_latency     11700 ns\n";
	static const char hwlat[] =
		"# tracer: hwlat\n"
		"             <...>-1729  [001] d...   863.938932: #10    inner/outer(us):    9/11 "
		"   ts:1581527668.970010500 count:1 nmi-total:7 \n"
		"nmi-count:1\n";
	struct lat_loaded *l;

	(void)state;
	assert_joined(text, 2, 3);
	l = load_one(text);
	/* IRQ cpu0 932 ns, Thread cpu0 11700 ns: one sample each, read whole */
	assert_int_equal(l->blocks[0]->nhist, 2);
	assert_printed(l->blocks[0], 0, "IRQ cpu0", 1, 932, 932, 932);
	assert_printed(l->blocks[0], 1, "Thread cpu0", 1, 11700, 11700, 11700);
	old_logs_free(l);
	assert_joined(hwlat, 1, 2);
	l = load_one(hwlat);
	assert_string_equal(old_logs_finding(l->blocks[0], "hwlat-nmi")->message,
			    "1 of 1 windows saw NMIs (1 in all, nmi-total up to 7 us; the first at "
			    "line 2): their gaps may be the NMIs', not the firmware's");
	old_logs_free(l);
}

/*
 * A trace copied from a web viewer with its line numbers ("318  <idle>-0 ...");
 * and two tables counted up by one that are no such paste (rtla top's CPU
 * column, rtla hist's Index).
 */
static void test_line_numbers(void **state)
{
	static const char numbered[] =
		"316  # tracer: nop\n"
		"317  #\n"
		"318            <idle>-0       [000] d..2.   893.188729: sched_switch: "
		"prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=sh "
		"next_pid=11150 next_prio=120\n"
		"319                sh-11150   [000] d..2.   893.188892: sched_wakeup: "
		"comm=record.sh pid=11147 prio=120 target_cpu=001\n"
		"320\n"
		"321  # end\n";
	static const char top[] =
		"  1 #12322     |        0         0         1        15 |       10         3         9        31\n"
		"  2 #12322     |        3         0         1        12 |       10         3         9        23\n"
		"  3 #12322     |        1         0         1        21 |        8         2         8        34\n"
		"  4 #12322     |        1         0         1        17 |       10         2        11        33\n"
		"  5 #12322     |        0         0         1        12 |        8         3         8        25\n";
	static const char hist[] =
		"0         1201         0\n"
		"1           47       563\n"
		"2            2       598\n"
		"3            0       101\n"
		"4            0        12\n";
	struct lat_text t;
	struct lat_loaded *l;
	const struct lat_block *b;

	(void)state;
	init(&t, numbered);
	assert_int_equal(t.fix.numbered, 6);
	assert_int_equal(t.fix.numbered_first, 1);
	assert_int_equal(t.fix.numbered_last, 6);
	assert_line(&t, 2, "<idle>-0       [000] d..2.   893.188729: sched_switch: "
		    "prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=sh "
		    "next_pid=11150 next_prio=120", 3, 0);
	assert_line(&t, 4, "", 5, 0);
	lat_text_release(&t);
	/* the comm is "sh", not "319                sh" */
	l = old_logs_load_text(numbered, NULL);
	assert_int_equal(l->nblocks, 1);
	b = l->blocks[0];
	assert_int_equal(b->skipped_lines, 0);
	old_logs_free(l);

	init(&t, top);
	assert_int_equal(t.fix.numbered, 0);
	lat_text_release(&t);
	init(&t, hist);
	assert_int_equal(t.fix.numbered, 0);
	lat_text_release(&t);
}

/*
 * Robert Schwebel, LKML 22 Nov 2006 (cyclictest 0.11: every field 8 wide, in
 * us); Thomas Gleixner, LKML 20 Aug 2005 (cyclictest 0.1: no Avg); both with
 * the bare /proc/loadavg above, Thomas's with a note after it.
 */
static void test_first_cyclictests(void **state)
{
	static const char schwebel[] =
		"  0.00 0.00 0.00 1/54 2843          \n"
		"  \n"
		"  T: 0 ( 2840) P:90 I:    1000 C:    1000 Min:    7294 Act: 3008486 Avg: 1508852 "
		"Max: 3008486\n";
	static const char tglx[] =
		"test1:/home/tglx/cyclictest# ./cyclictest -p 80 -n -i 1100\n"
		"293.12 276.22 198.22 88/202 12270 <---- output from /proc/loadavg\n"
		"\n"
		"T: 0 ( 5407) P:80 I:    1100 C: 2047066 Min:       7 Act:      15 Max:      59\n";
	struct lat_loaded *l;

	(void)state;
	l = old_logs_load_text(schwebel, NULL);
	assert_int_equal(l->nblocks, 1);
	assert_string_equal(l->blocks[0]->title, "cyclictest summary");
	/* 3008486 us = 3.008486 s, not 3.008486 ms */
	assert_printed(l->blocks[0], 0, "thread 0", 1000, 7294000, 1508852000, 3008486000);
	assert_null(old_logs_finding(l->blocks[0], "nanoseconds"));
	old_logs_free(l);

	l = old_logs_load_text(tglx, NULL);
	assert_int_equal(l->nblocks, 1);
	assert_int_equal(l->blocks[0]->skipped_lines, 0);
	assert_printed(l->blocks[0], 0, "thread 0", 2047066, 7000, LAT_VALUE_NONE, 59000);
	assert_non_null(old_logs_finding(l->blocks[0], "no-avg"));
	old_logs_free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flowed),
		cmocka_unit_test(test_not_flowed),
		cmocka_unit_test(test_flowed_quoted_sched),
		cmocka_unit_test(test_wrapped_cyclictest),
		cmocka_unit_test(test_wrapped_overflow_list),
		cmocka_unit_test(test_rows_never_joined),
		cmocka_unit_test(test_wrapped_perf_sched),
		cmocka_unit_test(test_wrapped_rtla_top),
		cmocka_unit_test(test_wrapped_hwnoise),
		cmocka_unit_test(test_wrapped_rtla_aa),
		cmocka_unit_test(test_rtla_aa_not_joined),
		cmocka_unit_test(test_wrapped_perf_sched_map),
		cmocka_unit_test(test_wrapped_ftrace_events),
		cmocka_unit_test(test_wrapped_kernel_tracers),
		cmocka_unit_test(test_line_numbers),
		cmocka_unit_test(test_first_cyclictests),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
