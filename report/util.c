// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Helpers shared by the report emitters (report.c and the per-kind report/X.c): in a file of
 * their own, so that no emitter depends on report.c, which depends on them through the kind
 * table.
 */
#include <stdlib.h>
#include <string.h>

#include "latscope/event.h"
#include "latscope/export.h"
#include "latscope/hll.h"
#include "latscope/tgids.h"
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

size_t rp_cell_width(const char *s)
{
	size_t w = 0;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f)
			w += 4;		/* lat_fput_safe()'s "\xNN" */
		else if ((c & 0xc0) != 0x80)
			w++;		/* a UTF-8 sequence is one column, as a terminal shows it */
	}
	return w;
}

void rp_report_cell(FILE *out, const char *s, int width)
{
	lat_fput_safe(out, s, strlen(s));
	for (int i = (int)rp_cell_width(s); i < width; i++)
		fputc(' ', out);
}

void rp_report_json_lines(struct lat_json *j, const char *key, uint64_t first, uint64_t last)
{
	lat_json_arr_open(j, key);
	lat_json_uint(j, NULL, first);
	lat_json_uint(j, NULL, last);
	lat_json_arr_close(j);
}

void rp_report_stat_json(struct lat_json *j, const struct lat_wake_stat *s)
{
	lat_json_uint(j, "count", s->n);
	lat_json_int(j, "avg_ns", (int64_t)(s->avg + 0.5));
	lat_json_int(j, "min_ns", s->min);
	lat_json_int(j, "p50_ns", s->p50);
	lat_json_int(j, "p90_ns", s->p90);
	lat_json_int(j, "p99_ns", s->p99);
	lat_json_int(j, "p999_ns", s->p999);
	lat_json_int(j, "max_ns", s->max);
}

void rp_report_who(FILE *out, const char *comm, int32_t pid)
{
	if (pid == 0) {
		fputs("idle", out);
		return;
	}
	lat_fput_safe(out, comm[0] ? comm : "?", strnlen(comm[0] ? comm : "?", LAT_COMM_LEN));
	fprintf(out, "/%d", pid);
}

const struct lat_tgids *rp_tgids(const struct lat_block *b)
{
	static const struct lat_tgids none = { .status = 0 };

	if (!b || !b->events || !b->events->tgids)
		return &none;
	return b->events->tgids;
}

void rp_json_task(struct lat_json *j, const struct lat_tgids *tg, int32_t tid)
{
	int32_t tgid = tg ? lat_tgids_of(tg, tid) : -1;

	if (tgid > 0)
		lat_json_int(j, "pid", tgid);
	else
		lat_json_null(j, "pid");
	lat_json_int(j, "tid", tid);
}

void rp_json_pid_source(struct lat_json *j, const struct lat_tgids *tg)
{
	if (!tg->n && tg->status >= 0) {
		lat_json_null(j, "pid_source");
		return;
	}
	lat_json_obj_open(j, "pid_source");
	lat_json_str(j, "from", "latscope-record");
	lat_json_uint(j, "threads", tg->n);
	lat_json_bool(j, "damaged", tg->status < 0);
	lat_json_obj_close(j);
}
