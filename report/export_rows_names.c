// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `latscope export --rows`, beside the rows (export_rows.c): the names of the tables and
 * formats, a trace's id (the hash of its file), the preemption model a uname names.
 * docs/export.md.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "latscope/export.h"

const char *lat_uname_preempt(const char *uname)
{
	static const char *const models[] = { "PREEMPT_RT", "PREEMPT_DYNAMIC", "PREEMPT" };

	for (size_t i = 0; uname && i < LAT_ARRAY_SIZE(models); i++) {
		size_t n = strlen(models[i]);

		/* a word of its own: " PREEMPT " is not the start of " PREEMPT_DYNAMIC" */
		for (const char *p = strstr(uname, models[i]); p; p = strstr(p + 1, models[i]))
			if ((p == uname || p[-1] == ' ') && (!p[n] || p[n] == ' '))
				return models[i];
	}
	return NULL;
}

int lat_rows_trace_id_file(FILE *f, char *buf)
{
	uint64_t h = 14695981039346656037ull;
	unsigned char chunk[65536];
	size_t n;

	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		for (size_t i = 0; i < n; i++)
			h = (h ^ chunk[i]) * 1099511628211ull;
	snprintf(buf, 17, "%016" PRIx64, h);
	return ferror(f) ? -EIO : 0;
}

int lat_rows_trace_id(const char *path, char *buf)
{
	FILE *f = fopen(path, "rb");
	int err;

	if (!f)
		return -errno;
	err = lat_rows_trace_id_file(f, buf);
	fclose(f);
	return err;
}

static const char *const kind_names[LAT_ROWS_NKINDS] = { "waits", "slices", "samples", "stalls",
							   "traces" };

const char *lat_rows_kind_name(enum lat_rows_kind kind)
{
	return kind_names[kind];
}

const char *lat_rows_fmt_name(enum lat_rows_fmt fmt)
{
	return fmt == LAT_ROWS_JSONL ? "jsonl" : "csv";
}

int lat_rows_kind_parse(const char *s, enum lat_rows_kind *out)
{
	for (size_t i = 0; i < LAT_ROWS_NKINDS; i++)
		if (!strcmp(s, kind_names[i])) {
			*out = (enum lat_rows_kind)i;
			return 0;
		}
	return -LAT_EUSAGE;
}

int lat_rows_kinds_parse(const char *s, unsigned *mask, const char **bad, size_t *badlen)
{
	*mask = 0;
	if (!strcmp(s, "all")) {
		*mask = (1u << LAT_ROWS_NKINDS) - 1;
		return 0;
	}
	for (const char *p = s;; p++) {
		size_t n = strcspn(p, ",");
		size_t k = 0;

		while (k < LAT_ROWS_NKINDS && (strlen(kind_names[k]) != n ||
					       strncmp(p, kind_names[k], n)))
			k++;
		if (k == LAT_ROWS_NKINDS) {
			*bad = p;
			*badlen = n;
			return -LAT_EUSAGE;
		}
		*mask |= 1u << k;
		p += n;
		if (!*p)
			return 0;
	}
}

int lat_rows_fmt_parse(const char *s, enum lat_rows_fmt *out)
{
	if (!strcmp(s, "csv"))
		*out = LAT_ROWS_CSV;
	else if (!strcmp(s, "jsonl"))
		*out = LAT_ROWS_JSONL;
	else
		return -LAT_EUSAGE;
	return 0;
}

