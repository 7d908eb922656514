// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The JSON reader (core/json_read.c) and mergeable summaries (analyze/summary.c, written
 * by report/summary.c, read back by formats/summary_read.c):
 * values and escapes read back, errors with their line, and a summary written,
 * read back and merged with the bucket counts, extremes and percentiles of one
 * histogram over all the values.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "latscope/json_read.h"
#include "latscope/summary.h"

static void test_values(void **state)
{
	static const char doc[] = "{\"a\": [1, -2, 3.5, true, false, null],\n"
				  " \"s\": \"x\\\"\\\\\\/\\n\\u00e9\\ud83d\\ude00\\ud800!\",\n"
				  " \"big\": 9223372036854775807, \"over\": 9223372036854775808}";
	struct lat_jv v;
	const struct lat_jv *a, *s;
	char err[128];

	(void)state;
	assert_int_equal(lat_json_parse(doc, strlen(doc), &v, err, sizeof(err)), 0);
	a = lat_jv_get(&v, "a");
	assert_non_null(a);
	assert_int_equal(a->type, LAT_JV_ARR);
	assert_int_equal(a->n, 6);
	assert_true(a->items[0].is_int && a->items[0].i == 1);
	assert_true(a->items[1].is_int && a->items[1].i == -2);
	assert_false(a->items[2].is_int);
	assert_true(a->items[2].d == 3.5);
	assert_true(a->items[3].type == LAT_JV_BOOL && a->items[3].b);
	assert_true(a->items[4].type == LAT_JV_BOOL && !a->items[4].b);
	assert_int_equal(a->items[5].type, LAT_JV_NULL);
	s = lat_jv_get(&v, "s");
	assert_int_equal(s->line, 2);
	/* x " \ / LF e-acute (2 bytes) U+1F600 (4 bytes) lone surrogate -> U+FFFD (3) ! */
	assert_int_equal(s->slen, 1 + 1 + 1 + 1 + 1 + 2 + 4 + 3 + 1);
	assert_memory_equal(s->s, "x\"\\/\n\xc3\xa9\xf0\x9f\x98\x80\xef\xbf\xbd!", s->slen);
	assert_true(lat_jv_get(&v, "big")->is_int);
	assert_int_equal(lat_jv_get(&v, "big")->i, INT64_MAX);
	assert_false(lat_jv_get(&v, "over")->is_int);
	assert_null(lat_jv_get(&v, "missing"));
	lat_jv_free(&v);
}

static void expect_error(const char *doc, const char *msg)
{
	struct lat_jv v;
	char err[128];

	assert_int_equal(lat_json_parse(doc, strlen(doc), &v, err, sizeof(err)), -LAT_EFORMAT);
	assert_string_equal(err, msg);
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("", "line 1: expected a JSON value, got the end of the input");
	expect_error("{\"a\": 1,}", "line 1: expected a key string");
	expect_error("[1,\n2\n", "line 3: expected ',' or ']'");
	expect_error("{\"a\" 1}", "line 1: expected ':' after a key");
	expect_error("\"abc", "line 1: expected a closing '\"'");
	expect_error("\"a\\qb\"", "line 1: expected an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u)");
	expect_error("\"\\u12\"", "line 1: expected four hex digits after \\u");
	expect_error("[1] 2", "line 1: expected the end of the input after the JSON value");
	expect_error("tru", "line 1: expected a JSON value");
	expect_error("\"a\tb\"", "line 1: expected no control character inside a string");
}

/* A summary of @n waits with latencies lat[i] on CPU i % 2, comm "t"; written to JSON. */
static char *summary_of(const int64_t *lat, size_t n, const char *host, size_t *len)
{
	struct lat_summary s;
	struct lat_wake_sink sink;
	struct lat_json j;
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	assert_non_null(f);
	lat_summary_init(&s);
	s.trace = "t.dat";
	s.host = host;
	lat_summary_trace(&s);
	lat_summary_sink(&s, &sink);
	for (size_t i = 0; i < n; i++) {
		struct lat_wake_link l;
		struct lat_wait_rec rec = { .w = &l, .prio = 120, .queued_cpu = -1, .trusted = 1 };

		memset(&l, 0, sizeof(l));
		l.pid = 100;
		l.cpu = (int32_t)(i % 2);
		strcpy(l.comm, "t");
		l.kind = LAT_WAIT_WAKEUP;
		l.start_ns = 1000 * i;
		l.end_ns = 1000 * i + (uint64_t)lat[i];
		l.latency_ns = lat[i];
		l.waker.pid = -1;
		sink.wait(sink.ctx, &rec);
	}
	lat_json_init(&j, f, 0);
	lat_summary_json(&j, NULL, &s);
	fclose(f);
	lat_summary_release(&s);
	return buf;
}

static void test_round_trip(void **state)
{
	int64_t lat[1000];
	struct lat_hll whole = { 0 };
	struct lat_wake_stat st;
	struct lat_summary m;
	struct lat_jv a, b;
	char *ja, *jb, *out = NULL, err[256];
	size_t la, lb, lo;
	FILE *f;
	struct lat_json j;
	const struct lat_jv *all, *hosts;

	(void)state;
	for (size_t i = 0; i < 1000; i++) {
		lat[i] = (int64_t)((i * 7919) % 1000) * 1013 + 17;	/* 17 .. 1011999 */
		lat_hll_add(&whole, lat[i]);
	}
	lat_hll_stat(&whole, &st);
	ja = summary_of(lat, 600, "h1", &la);
	jb = summary_of(lat + 600, 400, "h2", &lb);
	assert_int_equal(lat_json_parse(ja, la, &a, err, sizeof(err)), 0);
	assert_int_equal(lat_json_parse(jb, lb, &b, err, sizeof(err)), 0);
	lat_summary_init(&m);
	assert_int_equal(lat_summary_add_json(&m, &a, err, sizeof(err)), 0);
	assert_int_equal(lat_summary_add_json(&m, &b, err, sizeof(err)), 0);
	f = open_memstream(&out, &lo);
	lat_json_init(&j, f, 0);
	lat_summary_json(&j, NULL, &m);
	fclose(f);
	lat_summary_release(&m);
	lat_jv_free(&a);
	assert_int_equal(lat_json_parse(out, lo, &a, err, sizeof(err)), 0);
	all = lat_jv_get(&a, "all");
	assert_int_equal(lat_jv_get(all, "count")->i, 1000);
	assert_int_equal(lat_jv_get(all, "min_ns")->i, st.min);
	assert_int_equal(lat_jv_get(all, "max_ns")->i, st.max);
	assert_int_equal(lat_jv_get(all, "p50_ns")->i, st.p50);
	assert_int_equal(lat_jv_get(all, "p99_ns")->i, st.p99);
	assert_int_equal(lat_jv_get(all, "p999_ns")->i, st.p999);
	assert_int_equal(lat_jv_get(all, "sum_ns")->i, (int64_t)whole.sum);
	hosts = lat_jv_get(&a, "hosts");
	assert_int_equal(hosts->n, 2);
	assert_string_equal(lat_jv_get(&hosts->items[0], "host")->s, "h1");
	assert_int_equal(lat_jv_get(&hosts->items[0], "count")->i, 600);
	assert_int_equal(lat_jv_get(&a, "traces")->i, 2);
	/* the worst wait of all is the largest value, 999 * 1013 + 17 */
	assert_int_equal(lat_jv_get(&lat_jv_get(&a, "worst")->items[0], "latency_ns")->i,
			 999 * 1013 + 17);
	lat_jv_free(&a);
	lat_jv_free(&b);
	lat_hll_release(&whole);
	free(ja);
	free(jb);
	free(out);
}

static void test_refused(void **state)
{
	static const int64_t lat[3] = { 10, 20, 30 };
	struct lat_summary m;
	struct lat_jv v;
	char *js, *p, err[256];
	size_t len;

	(void)state;
	js = summary_of(lat, 3, NULL, &len);
	p = strstr(js, "\"version\":1");
	assert_non_null(p);
	p[10] = '7';
	assert_int_equal(lat_json_parse(js, len, &v, err, sizeof(err)), 0);
	lat_summary_init(&m);
	assert_int_equal(lat_summary_add_json(&m, &v, err, sizeof(err)), -LAT_EFORMAT);
	assert_non_null(strstr(err, "expected a summary of version 1, got version 7"));
	assert_int_equal(m.traces, 0);
	lat_jv_free(&v);
	p[10] = '1';
	/*
	 * a bucket count of the host changed (what a merge reads: "all", "comms" and "cpus"
	 * before "hosts" are views of it): the buckets no longer add up, nothing is taken
	 */
	p = strstr(strstr(js, "\"hosts\""), "\"buckets\":[[10,1]");
	assert_non_null(p);
	p[15] = '2';
	assert_int_equal(lat_json_parse(js, len, &v, err, sizeof(err)), 0);
	assert_int_equal(lat_summary_add_json(&m, &v, err, sizeof(err)), -LAT_EFORMAT);
	assert_non_null(strstr(err, "expected buckets whose counts add up to \"count\""));
	assert_int_equal(m.traces, 0);
	assert_int_equal(m.ngroups, 0);
	lat_jv_free(&v);
	lat_summary_release(&m);
	free(js);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
