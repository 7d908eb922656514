/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one JSON writer.  Strings are always escaped (task names are input);
 * commas and nesting are tracked here so emitters cannot get them wrong.
 */
#ifndef LATSCOPE_JSON_H
#define LATSCOPE_JSON_H

#include "base.h"

#define LAT_JSON_MAX_DEPTH 32

struct lat_json {
	FILE *out;
	int depth;
	int pretty;
	unsigned char first[LAT_JSON_MAX_DEPTH];	/* nothing written yet at this depth */
	int after_key;
};

void lat_json_init(struct lat_json *j, FILE *out, int pretty);
/* Object members take a key; array elements pass key = NULL. */
void lat_json_obj_open(struct lat_json *j, const char *key);
void lat_json_obj_close(struct lat_json *j);
void lat_json_arr_open(struct lat_json *j, const char *key);
void lat_json_arr_close(struct lat_json *j);
void lat_json_str(struct lat_json *j, const char *key, const char *val);	/* NULL -> null */
void lat_json_strn(struct lat_json *j, const char *key, const char *val, size_t len);
void lat_json_int(struct lat_json *j, const char *key, int64_t val);
void lat_json_uint(struct lat_json *j, const char *key, uint64_t val);
void lat_json_bool(struct lat_json *j, const char *key, int val);
void lat_json_null(struct lat_json *j, const char *key);
/* A number written with @decimals digits after the point (no exponent). */
void lat_json_fixed(struct lat_json *j, const char *key, double val, int decimals);
/* Writes a raw, already valid, JSON number text such as "1111993713.241839". */
void lat_json_raw_number(struct lat_json *j, const char *key, const char *num);
/* Escapes @len bytes of @s as a JSON string body into @out (no quotes). */
void lat_json_escape(FILE *out, const char *s, size_t len);
/*
 * The bytes of @x (8 bytes of a string, the first the lowest) that a JSON string does not
 * hold as they are (below 0x20, above 0x7e, '"' and '\\'), each as its top bit.  Exact up to
 * the first such byte: the borrows and carries of the tests reach only the bytes after it.
 */
static inline uint64_t lat_json_unplain8(uint64_t x)
{
	const uint64_t ones = 0x0101010101010101ull, top = 0x8080808080808080ull;
	uint64_t q = x ^ ('"' * ones), b = x ^ ('\\' * ones);

	return (((x - 0x20 * ones) & ~x) |		/* a byte below 0x20 */
		((x + ones) | x) |			/* one above 0x7e */
		((q - ones) & ~q) | ((b - ones) & ~b)) & top;
}

/* The most bytes the escape of one byte (or UTF-8 sequence) of a string takes. */
#define LAT_JSON_ESCAPE_MAX 6
/*
 * The same into @dst, @room bytes at most (LAT_JSON_ESCAPE_MAX or more: something is
 * written): what fits of @s, whole escapes only.  Returns the bytes written, *@used the
 * bytes of @s they stand for.
 */
size_t lat_json_escape_some(char *dst, size_t room, const char *s, size_t len, size_t *used);
/*
 * The length (2..4) of the valid UTF-8 sequence (RFC 3629: no overlong form, surrogate or
 * code point past U+10FFFF) that starts at @s (@len bytes left), 0 when none does.
 */
size_t lat_utf8_seq(const char *s, size_t len);

#endif
