// SPDX-License-Identifier: GPL-2.0-or-later
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "latscope/dectext.h"
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

/*
 * What one call writes, gathered and handed to stdio at once: a report of
 * histograms writes ~10,000 members, and each fputc() or fputs() is a
 * locked call of ~100 instructions (an indent was one per level).  Text
 * longer than the buffer goes out in pieces, the same bytes.
 */
struct jbuf {
	FILE *out;
	size_t n;
	char b[256];
};

/* Not an initializer: that would clear the buffer's 256 bytes at every call. */
static void jb_init(struct jbuf *jb, FILE *out)
{
	jb->out = out;
	jb->n = 0;
}

static void jb_flush(struct jbuf *jb)
{
	if (jb->n)
		fwrite(jb->b, 1, jb->n, jb->out);
	jb->n = 0;
}

static void jb_put(struct jbuf *jb, const char *s, size_t len)
{
	if (jb->n + len > sizeof(jb->b)) {
		jb_flush(jb);
		if (len > sizeof(jb->b)) {
			fwrite(s, 1, len, jb->out);
			return;
		}
	}
	memcpy(jb->b + jb->n, s, len);
	jb->n += len;
}

static void jb_putc(struct jbuf *jb, char c)
{
	if (jb->n == sizeof(jb->b))
		jb_flush(jb);
	jb->b[jb->n++] = c;
}

/* Whether byte @c goes into a JSON string as it is (printable ASCII but '"' and '\'). */
static inline int plain(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

/*
 * The escape of the byte at @s that is not plain() (of @len left) into @u: its length (6 at
 * most); *@used, the bytes of @s it stands for (a UTF-8 sequence is kept whole).
 */
static size_t escape_one(char *u, const char *s, size_t len, size_t *used)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char c = (unsigned char)s[0];
	const char *two = c == '"' ? "\\\"" : c == '\\' ? "\\\\" : c == '\n' ? "\\n" :
			  c == '\r' ? "\\r" : c == '\t' ? "\\t" : NULL;
	size_t n;

	*used = 1;
	if (two) {
		memcpy(u, two, 2);
		return 2;
	}
	if (c < 0x20 || c == 0x7f) {
		memcpy(u, "\\u00", 4);
		u[4] = hex[c >> 4];
		u[5] = hex[c & 15];
		return 6;
	}
	/* keep valid UTF-8, replace what is not (each bad byte) */
	n = lat_utf8_seq(s, len);
	if (!n) {
		memcpy(u, "\\ufffd", 6);
		return 6;
	}
	memcpy(u, s, n);
	*used = n;
	return n;
}

size_t lat_json_escape_some(char *dst, size_t room, const char *s, size_t len, size_t *used)
{
	size_t i = 0, o = 0;

	while (i < len) {
		char u[6];
		size_t n, k;

		if (plain((unsigned char)s[i])) {	/* the run of bytes that need nothing */
			uint64_t x;

			/* 8 at a time while they are (names: the most of an export's text) */
			for (n = 1; i + n + 8 <= len && n + 8 <= room - o &&
				    (memcpy(&x, s + i + n, 8), !lat_json_unplain8(x));)
				n += 8;
			for (; i + n < len && n < room - o && plain((unsigned char)s[i + n]); n++)
				;
			if (o + n > room)
				break;
			memcpy(dst + o, s + i, n);
			o += n;
			i += n;
			continue;
		}
		n = escape_one(u, s + i, len - i, &k);
		if (o + n > room)
			break;
		memcpy(dst + o, u, n);
		o += n;
		i += k;
	}
	*used = i;
	return o;
}

static void escape(struct jbuf *jb, const char *s, size_t len)
{
	while (len) {
		size_t used;

		if (sizeof(jb->b) - jb->n < LAT_JSON_ESCAPE_MAX)
			jb_flush(jb);
		jb->n += lat_json_escape_some(jb->b + jb->n, sizeof(jb->b) - jb->n, s, len, &used);
		s += used;
		len -= used;
	}
}

void lat_json_escape(FILE *out, const char *s, size_t len)
{
	struct jbuf jb;

	jb_init(&jb, out);
	escape(&jb, s, len);
	jb_flush(&jb);
}

/* LAT_JSON_MAX_DEPTH levels of two spaces, after the newline. */
static const char spaces[] = "\n                                                                ";
_Static_assert(sizeof(spaces) == 2 + 2 * LAT_JSON_MAX_DEPTH, "an indent of every depth");

static void indent(struct lat_json *j, struct jbuf *jb)
{
	if (!j->pretty)
		return;
	jb_put(jb, spaces, 1 + 2 * (size_t)j->depth);
}

/* Starts a member (or array element: @key NULL) in @jb: its comma, indent and key. */
static void member(struct lat_json *j, struct jbuf *jb, const char *key)
{
	jb_init(jb, j->out);
	if (!j->first[j->depth])
		jb_putc(jb, ',');
	j->first[j->depth] = 0;
	if (j->depth)
		indent(j, jb);
	if (key) {
		jb_putc(jb, '"');
		escape(jb, key, strlen(key));
		jb_put(jb, "\": ", j->pretty ? 3 : 2);
	}
}

static void open_(struct lat_json *j, const char *key, char c)
{
	struct jbuf jb;

	member(j, &jb, key);
	jb_putc(&jb, c);
	jb_flush(&jb);
	if (j->depth + 1 < LAT_JSON_MAX_DEPTH)
		j->depth++;
	j->first[j->depth] = 1;
}

static void close_(struct lat_json *j, char c)
{
	struct jbuf jb;
	int empty = j->first[j->depth];

	jb_init(&jb, j->out);
	if (j->depth)
		j->depth--;
	if (!empty)
		indent(j, &jb);
	jb_putc(&jb, c);
	if (!j->depth && j->pretty)
		jb_putc(&jb, '\n');
	jb_flush(&jb);
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
	struct jbuf jb;

	member(j, &jb, key);
	if (!val) {
		jb_put(&jb, "null", 4);
	} else {
		jb_putc(&jb, '"');
		escape(&jb, val, len);
		jb_putc(&jb, '"');
	}
	jb_flush(&jb);
}

void lat_json_str(struct lat_json *j, const char *key, const char *val)
{
	lat_json_strn(j, key, val, val ? strlen(val) : 0);
}

/* The member @key, then the text @v of @len bytes (a number, true, false, null). */
static void put_raw(struct lat_json *j, const char *key, const char *v, size_t len)
{
	struct jbuf jb;

	member(j, &jb, key);
	jb_put(&jb, v, len);
	jb_flush(&jb);
}

void lat_json_int(struct lat_json *j, const char *key, int64_t val)
{
	char buf[LAT_DEC_ROOM];

	put_raw(j, key, buf, (size_t)(lat_dec_i64(buf, val) - buf));
}

void lat_json_uint(struct lat_json *j, const char *key, uint64_t val)
{
	char buf[LAT_DEC_ROOM];

	put_raw(j, key, buf, (size_t)(lat_dec_u64(buf, val) - buf));
}

void lat_json_bool(struct lat_json *j, const char *key, int val)
{
	put_raw(j, key, val ? "true" : "false", val ? 4 : 5);
}

void lat_json_null(struct lat_json *j, const char *key)
{
	put_raw(j, key, "null", 4);
}

void lat_json_fixed(struct lat_json *j, const char *key, double val, int decimals)
{
	struct jbuf jb;
	char buf[64];
	int n;

	member(j, &jb, key);
	if (!isfinite(val)) {
		jb_put(&jb, "null", 4);
	} else {
		n = snprintf(buf, sizeof(buf), "%.*f", decimals, val);
		if (n >= 0 && (size_t)n < sizeof(buf)) {
			jb_put(&jb, buf, (size_t)n);
		} else {	/* a huge value: printed as it was, whatever its length */
			jb_flush(&jb);
			fprintf(j->out, "%.*f", decimals, val);
		}
	}
	jb_flush(&jb);
}

void lat_json_raw_number(struct lat_json *j, const char *key, const char *num)
{
	put_raw(j, key, num, strlen(num));
}
