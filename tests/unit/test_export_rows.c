// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The rows exporter (report/export_rows.c): the pid column from the
 * recorder's "latscope: tgids=TID:TGID,..." line (docs/record.md) and what a
 * damaged or absent line gives; unknown values (\N in CSV, null in JSON
 * Lines); the one text rule of both formats; the wall_ns column; --rows lists;
 * a trace_id held while its hash runs; the tgid table the trace.dat reader parses, one for
 * the reports and the exporters.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "latscope/event.h"
#include "latscope/export.h"
#include "latscope/input.h"
#include "latscope/model.h"
#include "latscope/tgids.h"
#include "report_priv.h"

/* Points table @kind of @r at a memory stream over @buf, its header done. */
static FILE *to_buf(struct lat_rows *r, enum lat_rows_kind kind, char *buf, size_t len)
{
	FILE *f = fmemopen(buf, len, "w");

	assert_non_null(f);
	memset(buf, 0, len);
	assert_int_equal(lat_rows_table(r, kind, f), 0);
	r->t[kind].header_done = 1;
	return f;
}

/* The stalls table's row of a stall of CPU 0 with task @tid running, into @buf. */
static void stall_row(struct lat_rows *r, int32_t tid, char *buf, size_t len)
{
	struct lat_wake_sink sink;
	struct lat_wake_stall s = { .cpu = 0, .pid = tid, .comm = "t", .from_ns = 1, .to_ns = 2,
				    .waiting_pid = -1 };
	FILE *f = to_buf(r, LAT_ROWS_STALLS, buf, len);

	lat_rows_sink(r, &sink);
	sink.stall(sink.ctx, &s);
	lat_rows_flush(r);
	fclose(f);
	lat_rows_table(r, LAT_ROWS_STALLS, NULL);
}

/* The samples table's row of a marker of @len bytes of @text, into @buf. */
static void marker_row(struct lat_rows *r, const char *text, size_t tlen, char *buf, size_t len)
{
	struct lat_wake_sink sink;
	struct lat_event ev = { .ts_ns = 5, .cpu = 1, .pid = 3, .comm = "c", .type = LAT_EV_MARKER };
	FILE *f = to_buf(r, LAT_ROWS_SAMPLES, buf, len);

	ev.u.marker.text = text;
	ev.u.marker.len = tlen;
	lat_rows_sink(r, &sink);
	sink.marker(sink.ctx, &ev, -1);
	lat_rows_flush(r);
	fclose(f);
	lat_rows_table(r, LAT_ROWS_SAMPLES, NULL);
}

/* @tg parsed from @meta and handed to @r as the next trace's source's; the source's status. */
static int rows_tgids(struct lat_rows *r, struct lat_tgids *tg, const char *meta)
{
	struct lat_event_source src = { .tgids = tg };

	lat_tgids_parse(tg, meta);
	return lat_rows_source(r, &src);
}

/*
 * The waits table's row of a wakeup wait of task 1 named by the 16 bytes @comm, woken by task
 * 5 named by @waker, into @buf.
 */
static void wait_row(struct lat_rows *r, const char comm[16], const char waker[16], char *buf,
		     size_t len)
{
	struct lat_wake_sink sink;
	struct lat_wake_link l = { .pid = 1, .cpu = 0, .kind = LAT_WAIT_WAKEUP, .start_ns = 10,
				   .end_ns = 20, .latency_ns = 10,
				   .waker = { .pid = 5, .cpu = 0, .ctx = LAT_WAKE_CTX_TASK } };
	struct lat_wait_rec rec = { .w = &l, .prio = 120, .queued_cpu = 0, .trusted = 1 };
	FILE *f = to_buf(r, LAT_ROWS_WAITS, buf, len);

	memcpy(l.comm, comm, 16);
	memcpy(l.waker.comm, waker, 16);
	lat_rows_sink(r, &sink);
	sink.wait(sink.ctx, &rec);
	lat_rows_flush(r);
	fclose(f);
	lat_rows_table(r, LAT_ROWS_WAITS, NULL);
}

/*
 * A comm is copied as its 16 bytes when it needs no escaping or quoting: what follows its
 * NUL is not written, a comm of 16 bytes has no NUL, and a blank at either end, a comma or a
 * quote still give CSV's quotes (a blank at the end of a waker's comm does not: its tid
 * follows), a quote JSON's escape.
 */
static void test_comm_copied(void **state)
{
	static const struct {
		char comm[17], waker[17];
		const char *csv;
	} cases[] = {
		{ "abc\0,\"\x01zz\xffzzzzzz", "abc\0\x01zzzzzzzzzzz", ",1,abc,fair,120,0,10,20,10,wakeup,abc:5," },
		{ "0123456789abcdef", "0123456789abcdef",
		  ",1,0123456789abcdef,fair,120,0,10,20,10,wakeup,0123456789abcdef:5," },
		{ " ab", " ab", ",1,\" ab\",fair,120,0,10,20,10,wakeup,\" ab:5\"," },
		{ "ab ", "ab ", ",1,\"ab \",fair,120,0,10,20,10,wakeup,ab :5," },
		{ "a,b", "a\"b", ",1,\"a,b\",fair,120,0,10,20,10,wakeup,\"a\"\"b:5\"," },
		{ "", "", ",1,,fair,120,0,10,20,10,wakeup,:5," },
		{ "a\tb", "a\\b", ",1,a\\x09b,fair,120,0,10,20,10,wakeup,a\\x5cb:5," },
	};
	struct lat_rows r;
	char buf[512];

	(void)state;
	lat_rows_init(&r, LAT_ROWS_CSV);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		wait_row(&r, cases[i].comm, cases[i].waker, buf, sizeof(buf));
		if (!strstr(buf, cases[i].csv))
			fail_msg("case %zu: %s has no %s", i, buf, cases[i].csv);
	}
	lat_rows_release(&r);
	lat_rows_init(&r, LAT_ROWS_JSONL);
	wait_row(&r, cases[4].comm, cases[4].waker, buf, sizeof(buf));
	assert_non_null(strstr(buf, "\"tid\":1,\"comm\":\"a,b\",\"policy\""));
	assert_non_null(strstr(buf, "\"waker\":\"a\\\"b:5\","));
	wait_row(&r, cases[0].comm, cases[0].waker, buf, sizeof(buf));
	assert_non_null(strstr(buf, "\"comm\":\"abc\",\"policy\""));
	assert_non_null(strstr(buf, "\"waker\":\"abc:5\","));
	lat_rows_release(&r);
}

static void test_tgids(void **state)
{
	static const char meta[] = "latscope: version=0.1.0 cmdline=\"record\"\n"
				   "latscope: probe=timer cpu=0 samples=3\n"
				   "latscope: tgids=59:1,20719:2748,2748:2748,20713:20713\n";
	struct lat_event_source none = { .tgids = NULL };
	struct lat_tgids tg = { .v = NULL };
	struct lat_rows r;
	char buf[256];

	(void)state;
	lat_rows_init(&r, LAT_ROWS_CSV);
	assert_int_equal(rows_tgids(&r, &tg, meta), 4);
	/* trace "", host, pid, tid, comm, cpu, from, to, dur, waiting_tid, waiting_comm,
	 * wall_ns, trace_id, row_schema */
	stall_row(&r, 20719, buf, sizeof(buf));
	assert_string_equal(buf, ",\\N,2748,20719,t,0,1,2,1,\\N,\\N,\\N,\\N,2\r\n");
	stall_row(&r, 59, buf, sizeof(buf));
	assert_string_equal(buf, ",\\N,1,59,t,0,1,2,1,\\N,\\N,\\N,\\N,2\r\n");
	/* not in the list (exited before the recorder read /proc), and the idle task */
	stall_row(&r, 20718, buf, sizeof(buf));
	assert_string_equal(buf, ",\\N,\\N,20718,t,0,1,2,1,\\N,\\N,\\N,\\N,2\r\n");
	stall_row(&r, 0, buf, sizeof(buf));
	assert_string_equal(buf, ",\\N,\\N,0,t,0,1,2,1,\\N,\\N,\\N,\\N,2\r\n");
	/* the next trace has no table (no metadata): nothing is carried over */
	assert_int_equal(lat_rows_source(&r, &none), 0);
	stall_row(&r, 20719, buf, sizeof(buf));
	assert_string_equal(buf, ",\\N,\\N,20719,t,0,1,2,1,\\N,\\N,\\N,\\N,2\r\n");
	assert_int_equal(rows_tgids(&r, &tg, "latscope: version=0.1.0\n"), 0);
	stall_row(&r, 20719, buf, sizeof(buf));
	assert_string_equal(buf, ",\\N,\\N,20719,t,0,1,2,1,\\N,\\N,\\N,\\N,2\r\n");
	assert_int_equal(rows_tgids(&r, &tg, "latscope: tgids=\n"), 0);
	assert_int_equal(rows_tgids(&r, &tg, NULL), 0);
	lat_rows_release(&r);
	lat_tgids_release(&tg);
}

static void test_tgids_damaged(void **state)
{
	static const char *const bad[] = {
		"latscope: tgids=7:7,8:x,9:9\n", "latscope: tgids=7:7,8\n",
		"latscope: tgids=7:7,-8:8\n", "latscope: tgids=7:7,8:0\n",
		"latscope: tgids=7:7;8:8\n", "latscope: tgids=7:7,99999999999:1\n",
	};
	struct lat_tgids tg = { .v = NULL };
	struct lat_rows r;
	char buf[256];

	(void)state;
	lat_rows_init(&r, LAT_ROWS_CSV);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		/* the pairs before the bad one are kept */
		assert_int_equal(rows_tgids(&r, &tg, bad[i]), -LAT_EFORMAT);
		stall_row(&r, 7, buf, sizeof(buf));
		assert_string_equal(buf, ",\\N,7,7,t,0,1,2,1,\\N,\\N,\\N,\\N,2\r\n");
		stall_row(&r, 9, buf, sizeof(buf));
		assert_string_equal(buf, ",\\N,\\N,9,t,0,1,2,1,\\N,\\N,\\N,\\N,2\r\n");
	}
	lat_rows_release(&r);
	lat_tgids_release(&tg);
}

/* Unknown values: null in JSON Lines too; trace_id, host and wall_ns once known. */
static void test_unknown_and_wall(void **state)
{
	struct lat_event_source src = { .realtime_known = 1,
					.realtime_offset_ns = 1700000000000000000 };
	struct lat_rows r;
	char buf[512];

	(void)state;
	lat_rows_init(&r, LAT_ROWS_JSONL);
	stall_row(&r, 20719, buf, sizeof(buf));
	assert_string_equal(buf, "{\"trace\":\"\",\"host\":null,\"pid\":null,\"tid\":20719,"
			    "\"comm\":\"t\",\"cpu\":0,\"from_ns\":1,\"to_ns\":2,\"dur_ns\":1,"
			    "\"waiting_tid\":null,\"waiting_comm\":null,\"wall_ns\":null,"
			    "\"trace_id\":null,\"row_schema\":2}\n");
	/* an unknown task (a stall of every CPU) has no name either */
	stall_row(&r, -1, buf, sizeof(buf));
	assert_non_null(strstr(buf, "\"pid\":null,\"tid\":null,\"comm\":null,"));
	/* the wall clock of from_ns: 1 + the offset */
	assert_int_equal(lat_rows_source(&r, &src), 0);
	r.host = "h";
	r.trace_id = "0123456789abcdef";
	stall_row(&r, 20719, buf, sizeof(buf));
	assert_non_null(strstr(buf, "\"host\":\"h\","));
	assert_non_null(strstr(buf, ",\"wall_ns\":1700000000000000001,\"trace_id\":"
				    "\"0123456789abcdef\",\"row_schema\":2}\n"));
	/* a trace without the offset: no wall clock carried over */
	src.realtime_known = 0;
	lat_rows_source(&r, &src);
	stall_row(&r, 20719, buf, sizeof(buf));
	assert_non_null(strstr(buf, ",\"wall_ns\":null,"));
	lat_rows_release(&r);
}

/*
 * Timestamps written with their digits above the last 8 kept from the row before
 * (export_rows.c, ts_dec()): the text printf() gives, where those digits stay, change, come
 * back, grow past 8 (from 10^16 ns) and where there are none (below 10^8); wall_ns with an
 * offset that makes it negative, and one that makes it 19 digits.
 */
static void test_ts_kept(void **state)
{
	static const int64_t ts[] = {
		0, 99999999, 100000000, 100000001, 199999999, 994571013876000, 994571013876001,
		994571099999999, 994571100000000, 994580000000000, 994571013876005,
		9999999999999999, 10000000000000000, 10000000000000007, 123456789012345678,
		7000000000000000000, 7, 994571013876000,
	};
	static const int64_t offsets[] = { -300000000, 1700000000000000000 };
	struct lat_event_source src = { .realtime_known = 1 };
	struct lat_wake_sink sink;
	struct lat_rows r;
	char buf[512], want[256];

	(void)state;
	lat_rows_init(&r, LAT_ROWS_JSONL);
	for (size_t o = 0; o < sizeof(offsets) / sizeof(offsets[0]); o++) {
		src.realtime_offset_ns = offsets[o];
		lat_rows_source(&r, &src);
		for (size_t i = 0; i < sizeof(ts) / sizeof(ts[0]); i++) {
			struct lat_wake_stall s = { .cpu = 0, .pid = 1, .comm = "t",
						    .from_ns = (uint64_t)ts[i],
						    .to_ns = (uint64_t)ts[(i + 1) % 18],
						    .waiting_pid = -1 };
			FILE *f = to_buf(&r, LAT_ROWS_STALLS, buf, sizeof(buf));

			lat_rows_sink(&r, &sink);
			sink.stall(sink.ctx, &s);
			lat_rows_flush(&r);
			fclose(f);
			lat_rows_table(&r, LAT_ROWS_STALLS, NULL);
			snprintf(want, sizeof(want), "\"from_ns\":%" PRId64 ",\"to_ns\":%" PRId64
				 ",", ts[i], ts[(i + 1) % 18]);
			assert_non_null(strstr(buf, want));
			snprintf(want, sizeof(want), "\"wall_ns\":%" PRId64 ",",
				 (int64_t)((uint64_t)ts[i] + (uint64_t)offsets[o]));
			assert_non_null(strstr(buf, want));
		}
	}
	lat_rows_release(&r);
}

/*
 * One text rule for both formats: comma, quote, backslash, TAB, DEL, LF, a
 * byte that is not UTF-8 (0xff) and a valid two-byte character (U+00E9).
 */
static void test_text(void **state)
{
	static const char text[] = "a,\"b\\c\t\x7f\n\xff \xc3\xa9";
	struct lat_rows r;
	char buf[512];

	(void)state;
	lat_rows_init(&r, LAT_ROWS_CSV);
	marker_row(&r, text, sizeof(text) - 1, buf, sizeof(buf));
	/* trace, host, pid, tid, comm, cpu, ts_ns, probe, lat_ns, text, wall, id, schema */
	assert_string_equal(buf, ",\\N,\\N,3,c,1,5,\\N,\\N,"
			    "\"a,\"\"b\\x5cc\\x09\\x7f\\x0a\\xff \xc3\xa9\",\\N,\\N,2\r\n");
	lat_rows_release(&r);
	lat_rows_init(&r, LAT_ROWS_JSONL);
	marker_row(&r, text, sizeof(text) - 1, buf, sizeof(buf));
	/* the same text after JSON's unescaping: \\x5c is the four characters \x5c */
	assert_non_null(strstr(buf, ",\"text\":\"a,\\\"b\\\\x5cc\\\\x09\\\\x7f\\\\x0a\\\\xff "
				    "\xc3\xa9\","));
	lat_rows_release(&r);
	/* CSV quotes a field with a blank at either end (readers trim unquoted ones) */
	lat_rows_init(&r, LAT_ROWS_CSV);
	marker_row(&r, " x", 2, buf, sizeof(buf));
	assert_non_null(strstr(buf, ",\" x\","));
	marker_row(&r, "x y", 3, buf, sizeof(buf));
	assert_non_null(strstr(buf, ",x y,"));
	/* text that reads \N is not NULL: its backslash is escaped */
	marker_row(&r, "\\N", 2, buf, sizeof(buf));
	assert_non_null(strstr(buf, ",\\x5cN,"));
	lat_rows_release(&r);
}

/*
 * A trace_id held (LAT_ROWS_ID_HOLD, cli/export_id.c): its 16 bytes 0x01 are written as
 * they are, unescaped, where the digits go (text writes 0x01 as \x01), the rest of the id
 * as text; the caller puts the digits there, and the row is what the id gives.
 */
static void test_id_held(void **state)
{
	static const char digits[] = "0123456789abcdef";
	struct lat_rows r;
	char buf[512], *p;

	(void)state;
	for (int jsonl = 0; jsonl < 2; jsonl++) {
		char want[512];

		lat_rows_init(&r, jsonl ? LAT_ROWS_JSONL : LAT_ROWS_CSV);
		r.trace_id = "0123456789abcdef:12";
		stall_row(&r, 7, want, sizeof(want));
		r.trace_id = LAT_ROWS_ID_HOLD ":12";
		stall_row(&r, 7, buf, sizeof(buf));
		p = strchr(buf, 1);
		assert_non_null(p);
		assert_memory_equal(p, LAT_ROWS_ID_HOLD, 16);
		assert_memory_equal(p + 16, ":12", 3);
		assert_null(strchr(p + 16, 1));
		memcpy(p, digits, 16);
		assert_string_equal(buf, want);
		lat_rows_release(&r);
	}
}

/* The event block of the input @path, loaded into @l. */
static struct lat_block *events_block(struct lat_loaded *l, const char *path)
{
	assert_int_equal(lat_load(l, path, NULL), 0);
	for (size_t k = 0; k < l->nblocks; k++)
		if (l->blocks[k]->events)
			return l->blocks[k];
	fail_msg("%s: no event block", path);
	return NULL;
}

/*
 * The trace.dat reader parses the recorder's tgids line once, where it reads the metadata,
 * and lends it with the source: the reports' table (rp_tgids()) is that one.  The sample's
 * line (strings samples/tracedat/idle-10s-v6.dat | grep tgids=) has 27 pairs, 11296:9652
 * and 59:1 among them, no 9653.
 */
static void test_tgids_reader(void **state)
{
	struct lat_loaded l;
	struct lat_block *b;
	const struct lat_tgids *t;

	(void)state;
	b = events_block(&l, LAT_SAMPLES_DIR "/tracedat/idle-10s-v6.dat");
	t = b->events->tgids;
	assert_non_null(t);
	assert_int_equal(t->status, 27);
	assert_int_equal(t->n, 27);
	assert_int_equal(lat_tgids_of(t, 11296), 9652);
	assert_int_equal(lat_tgids_of(t, 59), 1);
	assert_int_equal(lat_tgids_of(t, 9653), -1);
	assert_ptr_equal(rp_tgids(b), t);
	lat_loaded_release(&l);
	/* trace-cmd's file has no latscope metadata: no table, the reports' is empty */
	b = events_block(&l, LAT_FIXTURE_V6);
	assert_null(b->events->tgids);
	assert_int_equal(rp_tgids(b)->n, 0);
	assert_int_equal(rp_tgids(b)->status, 0);
	assert_int_equal(rp_tgids(NULL)->n, 0);
	lat_loaded_release(&l);
}

static void test_kinds(void **state)
{
	unsigned mask;
	const char *bad;
	size_t n;

	(void)state;
	assert_int_equal(lat_rows_kinds_parse("waits", &mask, &bad, &n), 0);
	assert_int_equal(mask, 1u << LAT_ROWS_WAITS);
	assert_int_equal(lat_rows_kinds_parse("traces,waits,stalls", &mask, &bad, &n), 0);
	assert_int_equal(mask, (1u << LAT_ROWS_TRACES) | (1u << LAT_ROWS_WAITS) |
			       (1u << LAT_ROWS_STALLS));
	assert_int_equal(lat_rows_kinds_parse("all", &mask, &bad, &n), 0);
	assert_int_equal(mask, 31);
	assert_int_equal(lat_rows_kinds_parse("waits,cases,stalls", &mask, &bad, &n),
			 -LAT_EUSAGE);
	assert_int_equal(n, 5);
	assert_memory_equal(bad, "cases", 5);
	assert_int_equal(lat_rows_kinds_parse("waits,", &mask, &bad, &n), -LAT_EUSAGE);
	assert_int_equal(n, 0);
	assert_int_equal(lat_rows_kinds_parse("wait", &mask, &bad, &n), -LAT_EUSAGE);
	assert_int_equal(lat_rows_kinds_parse("waitss", &mask, &bad, &n), -LAT_EUSAGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tgids),
		cmocka_unit_test(test_tgids_damaged),
		cmocka_unit_test(test_unknown_and_wall),
		cmocka_unit_test(test_ts_kept),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_id_held),
		cmocka_unit_test(test_tgids_reader),
		cmocka_unit_test(test_comm_copied),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
