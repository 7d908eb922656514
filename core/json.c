// SPDX-License-Identifier: GPL-2.0-or-later
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "latscope/json.h"

void lat_json_init(struct lat_json *j, FILE *out, int pretty)
{
	memset(j, 0, sizeof(*j));
	j->out = out;
	j->pretty = pretty;
	j->first[0] = 1;
}

/* The second byte ranges RFC 3629 allows after lead bytes E0, ED, F0 and F4. */
static int utf8_second_bad(unsigned char lead, unsigned char second)
{
	switch (lead) {
	case 0xe0:
		return second < 0xa0;
	case 0xed:
		return second > 0x9f;
	case 0xf0:
		return second < 0x90;
	case 0xf4:
		return second > 0x8f;
	default:
		return 0;
	}
}

size_t lat_utf8_seq(const char *s, size_t len)
{
	unsigned char c = len ? (unsigned char)s[0] : 0;
	size_t n = c >= 0xf0 && c < 0xf5 ? 4 : c >= 0xe0 && c < 0xf0 ? 3 :
		   c >= 0xc2 && c < 0xe0 ? 2 : 0;

	if (!n || n > len)
		return 0;
	for (size_t k = 1; k < n; k++)
		if (((unsigned char)s[k] & 0xc0) != 0x80)
			return 0;
	/* no overlong forms, surrogates or code points past U+10FFFF */
	return utf8_second_bad(c, (unsigned char)s[1]) ? 0 : n;
}

void lat_json_escape(FILE *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		size_t n;

		switch (c) {
		case '"':
			fputs("\\\"", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		case '\n':
			fputs("\\n", out);
			break;
		case '\r':
			fputs("\\r", out);
			break;
		case '\t':
			fputs("\\t", out);
			break;
		default:
			if (c < 0x20 || c == 0x7f) {
				fprintf(out, "\\u%04x", c);
			} else if (c >= 0x80) {
				/* keep valid UTF-8, replace what is not (each bad byte) */
				n = lat_utf8_seq(s + i, len - i);
				if (!n) {
					fputs("\\ufffd", out);
					break;
				}
				fwrite(s + i, 1, n, out);
				i += n - 1;
			} else {
				fputc(c, out);
			}
		}
	}
}

static void indent(struct lat_json *j)
{
	if (!j->pretty)
		return;
	fputc('\n', j->out);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->out);
}

static void member(struct lat_json *j, const char *key)
{
	if (!j->first[j->depth])
		fputc(',', j->out);
	j->first[j->depth] = 0;
	if (j->depth)
		indent(j);
	if (key) {
		fputc('"', j->out);
		lat_json_escape(j->out, key, strlen(key));
		fputs(j->pretty ? "\": " : "\":", j->out);
	}
}

static void open_(struct lat_json *j, const char *key, char c)
{
	member(j, key);
	fputc(c, j->out);
	if (j->depth + 1 < LAT_JSON_MAX_DEPTH)
		j->depth++;
	j->first[j->depth] = 1;
}

static void close_(struct lat_json *j, char c)
{
	int empty = j->first[j->depth];

	if (j->depth)
		j->depth--;
	if (!empty)
		indent(j);
	fputc(c, j->out);
	if (!j->depth && j->pretty)
		fputc('\n', j->out);
}

void lat_json_obj_open(struct lat_json *j, const char *key)
{
	open_(j, key, '{');
}

void lat_json_obj_close(struct lat_json *j)
{
	close_(j, '}');
}

void lat_json_arr_open(struct lat_json *j, const char *key)
{
	open_(j, key, '[');
}

void lat_json_arr_close(struct lat_json *j)
{
	close_(j, ']');
}

void lat_json_strn(struct lat_json *j, const char *key, const char *val, size_t len)
{
	member(j, key);
	if (!val) {
		fputs("null", j->out);
		return;
	}
	fputc('"', j->out);
	lat_json_escape(j->out, val, len);
	fputc('"', j->out);
}

void lat_json_str(struct lat_json *j, const char *key, const char *val)
{
	lat_json_strn(j, key, val, val ? strlen(val) : 0);
}

void lat_json_int(struct lat_json *j, const char *key, int64_t val)
{
	member(j, key);
	fprintf(j->out, "%" PRId64, val);
}

void lat_json_uint(struct lat_json *j, const char *key, uint64_t val)
{
	member(j, key);
	fprintf(j->out, "%" PRIu64, val);
}

void lat_json_bool(struct lat_json *j, const char *key, int val)
{
	member(j, key);
	fputs(val ? "true" : "false", j->out);
}

void lat_json_null(struct lat_json *j, const char *key)
{
	member(j, key);
	fputs("null", j->out);
}

void lat_json_fixed(struct lat_json *j, const char *key, double val, int decimals)
{
	member(j, key);
	if (!isfinite(val))
		fputs("null", j->out);
	else
		fprintf(j->out, "%.*f", decimals, val);
}

void lat_json_raw_number(struct lat_json *j, const char *key, const char *num)
{
	member(j, key);
	fputs(num, j->out);
}
