// SPDX-License-Identifier: GPL-2.0-or-later
/* A small strict JSON reader into a tree (include/latscope/json_read.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "latscope/json_read.h"

#define JR_MAX_DEPTH 64

struct jr {
	const char *p, *end;
	unsigned line;
	char *err;
	size_t errlen;
	int ret;
};

static int jr_fail(struct jr *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int jr_fail(struct jr *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (r->ret)
		return r->ret;
	n = snprintf(r->err, r->errlen, "line %u: expected ", r->line);
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < r->errlen)
		vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	r->ret = -LAT_EFORMAT;
	return r->ret;
}

static int jr_oom(struct jr *r)
{
	snprintf(r->err, r->errlen, "out of memory");
	r->ret = -LAT_ENOMEM;
	return r->ret;
}

static void jr_ws(struct jr *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r')) {
		if (*r->p == '\n')
			r->line++;
		r->p++;
	}
}

static int jr_lit(struct jr *r, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n))
		return jr_fail(r, "a JSON value");
	r->p += n;
	return 0;
}

static int hex4(const char *p, unsigned *out)
{
	*out = 0;
	for (int i = 0; i < 4; i++) {
		char c = p[i];

		*out <<= 4;
		if (c >= '0' && c <= '9')
			*out |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*out |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			*out |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	return 0;
}

static size_t put_utf8(char *o, unsigned cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | (cp >> 6));
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | (cp >> 12));
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | (cp >> 18));
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* A string at r->p (the opening quote), unescaped into a new buffer. */
static int jr_string(struct jr *r, char **out, size_t *outlen)
{
	const char *q = ++r->p;
	char *s, *o;

	while (q < r->end && *q != '"') {
		if (*q == '\\')
			q++;
		q++;
	}
	if (q >= r->end)
		return jr_fail(r, "a closing '\"'");
	/* an escape never grows: \uXXXX (6 bytes) is at most 4 bytes of UTF-8 */
	s = o = malloc((size_t)(q - r->p) + 1);
	if (!s)
		return jr_oom(r);
	while (r->p < q) {
		unsigned char c = (unsigned char)*r->p++;
		unsigned cp, lo;

		if (c < 0x20) {
			free(s);
			return jr_fail(r, "no control character inside a string");
		}
		if (c != '\\') {
			*o++ = (char)c;
			continue;
		}
		c = (unsigned char)*r->p++;
		switch (c) {
		case '"': case '\\': case '/':
			*o++ = (char)c;
			break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u':
			if (q - r->p < 4 || hex4(r->p, &cp)) {
				free(s);
				return jr_fail(r, "four hex digits after \\u");
			}
			r->p += 4;
			if (cp >= 0xd800 && cp < 0xdc00 && q - r->p >= 6 && r->p[0] == '\\' &&
			    r->p[1] == 'u' && !hex4(r->p + 2, &lo) && lo >= 0xdc00 && lo < 0xe000) {
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				r->p += 6;
			} else if (cp >= 0xd800 && cp < 0xe000) {
				cp = 0xfffd;	/* a lone surrogate */
			}
			o += put_utf8(o, cp);
			break;
		default:
			free(s);
			return jr_fail(r, "an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u)");
		}
	}
	r->p = q + 1;
	*o = 0;
	*out = s;
	*outlen = (size_t)(o - s);
	return 0;
}

static int jr_number(struct jr *r, struct lat_jv *v)
{
	const char *s = r->p;
	char buf[64], *end;
	size_t n;
	int frac = 0;

	if (r->p < r->end && *r->p == '-')
		r->p++;
	if (r->p >= r->end || *r->p < '0' || *r->p > '9')
		return jr_fail(r, "a JSON value");
	while (r->p < r->end && ((*r->p >= '0' && *r->p <= '9') || *r->p == '.' || *r->p == 'e' ||
				 *r->p == 'E' || *r->p == '+' || *r->p == '-')) {
		frac |= *r->p == '.' || *r->p == 'e' || *r->p == 'E';
		r->p++;
	}
	n = (size_t)(r->p - s);
	if (n >= sizeof(buf))
		return jr_fail(r, "a number of at most 63 characters");
	memcpy(buf, s, n);
	buf[n] = 0;
	v->type = LAT_JV_NUM;
	errno = 0;
	v->d = strtod(buf, &end);
	if (*end)
		return jr_fail(r, "a number, got '%s'", buf);
	if (!frac) {
		errno = 0;
		v->i = strtoll(buf, &end, 10);
		v->is_int = !errno && !*end;
	}
	return 0;
}

static int jr_value(struct jr *r, struct lat_jv *v, int depth);

static int jr_push(struct jr *r, struct lat_jv *v, size_t *cap)
{
	if (v->n == *cap) {
		size_t nc = *cap ? 2 * *cap : 4;
		struct lat_jv *it = realloc(v->items, nc * sizeof(*it));

		if (!it)
			return jr_oom(r);
		v->items = it;
		if (v->type == LAT_JV_OBJ) {
			char **k = realloc(v->keys, nc * sizeof(*k));

			if (!k)
				return jr_oom(r);
			v->keys = k;
		}
		*cap = nc;
	}
	memset(&v->items[v->n], 0, sizeof(v->items[0]));
	return 0;
}

static int jr_container(struct jr *r, struct lat_jv *v, int depth)
{
	int obj = *r->p == '{';
	char close = obj ? '}' : ']';
	size_t cap = 0;

	v->type = obj ? LAT_JV_OBJ : LAT_JV_ARR;
	if (depth >= JR_MAX_DEPTH)
		return jr_fail(r, "nesting of at most %d levels", JR_MAX_DEPTH);
	r->p++;
	jr_ws(r);
	if (r->p < r->end && *r->p == close) {
		r->p++;
		return 0;
	}
	for (;;) {
		char *key = NULL;
		size_t klen;

		jr_ws(r);
		if (obj) {
			if (r->p >= r->end || *r->p != '"')
				return jr_fail(r, "a key string");
			if (jr_string(r, &key, &klen))
				return r->ret;
			jr_ws(r);
			if (r->p >= r->end || *r->p != ':') {
				free(key);
				return jr_fail(r, "':' after a key");
			}
			r->p++;
		}
		if (jr_push(r, v, &cap)) {
			free(key);
			return r->ret;
		}
		if (obj)
			v->keys[v->n] = key;
		v->n++;
		if (jr_value(r, &v->items[v->n - 1], depth + 1))
			return r->ret;
		jr_ws(r);
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			continue;
		}
		if (r->p < r->end && *r->p == close) {
			r->p++;
			return 0;
		}
		return jr_fail(r, "',' or '%c'", close);
	}
}

static int jr_value(struct jr *r, struct lat_jv *v, int depth)
{
	jr_ws(r);
	v->line = r->line;
	if (r->p >= r->end)
		return jr_fail(r, "a JSON value, got the end of the input");
	switch (*r->p) {
	case '{':
	case '[':
		return jr_container(r, v, depth);
	case '"':
		v->type = LAT_JV_STR;
		return jr_string(r, &v->s, &v->slen);
	case 't':
		v->type = LAT_JV_BOOL;
		v->b = 1;
		return jr_lit(r, "true");
	case 'f':
		v->type = LAT_JV_BOOL;
		return jr_lit(r, "false");
	case 'n':
		v->type = LAT_JV_NULL;
		return jr_lit(r, "null");
	default:
		return jr_number(r, v);
	}
}

int lat_json_parse(const char *text, size_t len, struct lat_jv *out, char *err, size_t errlen)
{
	struct jr r = { text, text + len, 1, err, errlen, 0 };

	memset(out, 0, sizeof(*out));
	if (errlen)
		err[0] = 0;
	if (!jr_value(&r, out, 0)) {
		jr_ws(&r);
		if (r.p < r.end)
			jr_fail(&r, "the end of the input after the JSON value");
	}
	if (r.ret)
		lat_jv_free(out);
	return r.ret;
}

void lat_jv_free(struct lat_jv *v)
{
	for (size_t i = 0; i < v->n; i++) {
		lat_jv_free(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->s);
	memset(v, 0, sizeof(*v));
}

const struct lat_jv *lat_jv_get(const struct lat_jv *o, const char *key)
{
	if (!o || o->type != LAT_JV_OBJ)
		return NULL;
	for (size_t i = 0; i < o->n; i++)
		if (!strcmp(o->keys[i], key))
			return &o->items[i];
	return NULL;
}
