/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A small JSON reader (RFC 8259) into a tree, for documents latscope wrote
 * itself (`latscope merge` reads `analyze --json` reports).  Strict: no
 * comments, no trailing commas; a duplicate key keeps both (lookups find the
 * first).  Numbers keep their text and, when integral and in range, an int64.
 */
#ifndef LATSCOPE_JSON_READ_H
#define LATSCOPE_JSON_READ_H

#include "base.h"

enum lat_jv_type { LAT_JV_NULL, LAT_JV_BOOL, LAT_JV_NUM, LAT_JV_STR, LAT_JV_ARR, LAT_JV_OBJ };

struct lat_jv {
	enum lat_jv_type type;
	unsigned line;			/* where the value starts, from 1 */
	int is_int;			/* LAT_JV_NUM: an integer that fits i */
	int64_t i;
	double d;
	int b;
	char *s;			/* LAT_JV_STR: unescaped, NUL-terminated (may hold NULs) */
	size_t slen;
	struct lat_jv *items;		/* LAT_JV_ARR / LAT_JV_OBJ: n values */
	char **keys;			/* LAT_JV_OBJ: n keys */
	size_t n;
};

/*
 * Parses @len bytes into *@out (free with lat_jv_free).  Returns 0, or
 * -LAT_EFORMAT with "line N: expected ..." in @err, or -LAT_ENOMEM.
 */
int lat_json_parse(const char *text, size_t len, struct lat_jv *out, char *err, size_t errlen);
void lat_jv_free(struct lat_jv *v);

/* The member @key of object @o, NULL when absent or @o is not an object. */
const struct lat_jv *lat_jv_get(const struct lat_jv *o, const char *key);

#endif
