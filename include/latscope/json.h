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
 * The length (2..4) of the valid UTF-8 sequence (RFC 3629: no overlong form, surrogate or
 * code point past U+10FFFF) that starts at @s (@len bytes left), 0 when none does.
 */
size_t lat_utf8_seq(const char *s, size_t len);

#endif
