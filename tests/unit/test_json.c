// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * core/json.c: the bytes the writer gives, pretty and compact, escapes, the
 * extremes of the integers, and text longer than its 256-byte buffer (one
 * member, and one escaped string through lat_json_escape()).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "latscope/json.h"

/* What @f holds, NUL-terminated (the caller frees); @f is closed. */
static char *slurp(FILE *f)
{
	long n;
	char *s;

	assert_int_equal(fflush(f), 0);
	n = ftell(f);
	assert_true(n >= 0);
	s = malloc((size_t)n + 1);
	assert_non_null(s);
	rewind(f);
	assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
	s[n] = 0;
	fclose(f);
	return s;
}

/* Every kind of value once, nested, pretty: written out by hand below. */
static void write_all(struct lat_json *j)
{
	/* quote, backslash, newline, tab, CR, 0x01, DEL, é, a bad byte, U+1F600, "\xe0\x80" */
	static const char s[] = "a\"b\\c\nd\te\rf\x01g\x7fh\xc3\xa9i\xffj\xf0\x9f\x98\x80k\xe0\x80";

	lat_json_obj_open(j, NULL);
	lat_json_int(j, "min", INT64_MIN);
	lat_json_int(j, "max", INT64_MAX);
	lat_json_uint(j, "umax", UINT64_MAX);
	lat_json_int(j, "zero", 0);
	lat_json_int(j, "neg", -7);
	lat_json_arr_open(j, "arr");
	lat_json_int(j, NULL, 1);
	lat_json_obj_open(j, NULL);
	lat_json_obj_close(j);
	lat_json_arr_open(j, NULL);
	lat_json_arr_close(j);
	lat_json_arr_close(j);
	lat_json_strn(j, "s", s, sizeof(s) - 1);
	lat_json_str(j, "k\"ey", NULL);
	lat_json_bool(j, "t", 1);
	lat_json_bool(j, "f", 0);
	lat_json_null(j, "n");
	lat_json_fixed(j, "x", 1.5, 3);
	lat_json_fixed(j, "nan", NAN, 2);
	lat_json_raw_number(j, "raw", "1111993713.241839");
	lat_json_obj_close(j);
}

#define ESC "a\\\"b\\\\c\\nd\\te\\rf\\u0001g\\u007fh\xc3\xa9i\\ufffd" \
	    "j\xf0\x9f\x98\x80k\\ufffd\\ufffd"

/* write_all()'s text, @pretty or compact (the caller frees). */
static char *all_written(int pretty)
{
	FILE *f = tmpfile();
	struct lat_json j;

	assert_non_null(f);
	lat_json_init(&j, f, pretty);
	write_all(&j);
	return slurp(f);
}

static void test_pretty(void **state)
{
	char *got = all_written(1);

	(void)state;
	assert_string_equal(got, "{\n"
			    "  \"min\": -9223372036854775808,\n"
			    "  \"max\": 9223372036854775807,\n"
			    "  \"umax\": 18446744073709551615,\n"
			    "  \"zero\": 0,\n"
			    "  \"neg\": -7,\n"
			    "  \"arr\": [\n"
			    "    1,\n"
			    "    {},\n"
			    "    []\n"
			    "  ],\n"
			    "  \"s\": \"" ESC "\",\n"
			    "  \"k\\\"ey\": null,\n"
			    "  \"t\": true,\n"
			    "  \"f\": false,\n"
			    "  \"n\": null,\n"
			    "  \"x\": 1.500,\n"
			    "  \"nan\": null,\n"
			    "  \"raw\": 1111993713.241839\n"
			    "}\n");
	free(got);
}

static void test_compact(void **state)
{
	char *got = all_written(0);

	(void)state;
	assert_string_equal(got, "{\"min\":-9223372036854775808,\"max\":9223372036854775807,"
			    "\"umax\":18446744073709551615,\"zero\":0,\"neg\":-7,"
			    "\"arr\":[1,{},[]],\"s\":\"" ESC "\",\"k\\\"ey\":null,"
			    "\"t\":true,\"f\":false,\"n\":null,\"x\":1.500,\"nan\":null,"
			    "\"raw\":1111993713.241839}");
	free(got);
}

/*
 * 1000 bytes, every 7th a quote (escaped to two bytes): 143 quotes (0, 7, ...,
 * 994), so 1143 bytes between the value's quotes, past the buffer four times;
 * and a key of 300 bytes.  The expected text is built byte by byte here.
 */
static void test_long(void **state)
{
	char val[1001], key[301], want[1400 + 320 + 32], *got, *w = want;
	struct lat_json j;
	FILE *f = tmpfile();

	(void)state;
	assert_non_null(f);
	for (int i = 0; i < 1000; i++)
		val[i] = i % 7 ? (char)('a' + i % 26) : '"';
	val[1000] = 0;
	memset(key, 'k', 300);
	key[300] = 0;
	lat_json_init(&j, f, 1);
	lat_json_obj_open(&j, NULL);
	lat_json_str(&j, key, val);
	lat_json_obj_close(&j);
	w += sprintf(w, "{\n  \"%s\": \"", key);
	for (int i = 0; i < 1000; i++) {
		if (val[i] == '"')
			*w++ = '\\';
		*w++ = val[i];
	}
	strcpy(w, "\"\n}\n");
	assert_int_equal(strlen(want), 5 + 300 + 4 + 1143 + 4);
	got = slurp(f);
	assert_string_equal(got, want);
	free(got);

	/* lat_json_escape() alone: the same bytes */
	f = tmpfile();
	assert_non_null(f);
	lat_json_escape(f, val, 1000);
	got = slurp(f);
	want[strlen(want) - 4] = 0;	/* the value's text, without its closing */
	assert_string_equal(got, want + 5 + 300 + 4);
	free(got);
}

/* Nesting past LAT_JSON_MAX_DEPTH: the indent stops growing at depth 31 (62 spaces). */
static void test_deep(void **state)
{
	FILE *f = tmpfile();
	struct lat_json j;
	char *got, *p, want[63];

	(void)state;
	assert_non_null(f);
	lat_json_init(&j, f, 1);
	for (int i = 0; i < 40; i++)
		lat_json_arr_open(&j, NULL);
	lat_json_int(&j, NULL, 5);
	got = slurp(f);
	p = strchr(got, '5');
	assert_non_null(p);
	/* the 5 is on its own line after 31 levels of two spaces */
	want[0] = '\n';
	memset(want + 1, ' ', 62);
	assert_true(p - got >= 63);
	assert_memory_equal(p - 63, want, 63);
	assert_int_not_equal(p[-64], ' ');
	free(got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pretty),
		cmocka_unit_test(test_compact),
		cmocka_unit_test(test_long),
		cmocka_unit_test(test_deep),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
