// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Helpers shared by the report emitters (report.c and the per-kind report/X.c): in a file of
 * their own, so that no emitter depends on report.c, which depends on them through the kind
 * table.
 */
#include <string.h>

#include "report_priv.h"

void lat_fput_safe(FILE *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\x%02x", c);
		else
			fputc(c, out);
	}
}

void lat_report_cell(FILE *out, const char *s, int width)
{
	size_t n = strlen(s);

	lat_fput_safe(out, s, n);
	for (int i = (int)n; i < width; i++)
		fputc(' ', out);
}

void lat_report_json_lines(struct lat_json *j, const char *key, uint64_t first, uint64_t last)
{
	lat_json_arr_open(j, key);
	lat_json_uint(j, NULL, first);
	lat_json_uint(j, NULL, last);
	lat_json_arr_close(j);
}
