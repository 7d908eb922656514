// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A perf sched map kept as series (model.h, LAT_SMAP_GROUP) so that `render`
 * can draw who ran where.  Each row of the map prints every CPU's current
 * task, the one that switched starred:
 *     *A0  .        7188680.765186 secs
 *      D0 *E0       7188680.772043 secs E0 => rcuos/1:18
 * A cell is kept when it changes.  perf names a task by a code the first time
 * it runs (the legend after "secs") and reuses codes once it ran out of them,
 * so a legend for a code seen before is a new task.  docs/formats.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latscope/base.h"
#include "perf_sched_map.h"

#define PSM_CODES (36 * 36 * 36)	/* codes of up to three characters: "A0", "AB1" */

static const struct lat_column task_cols[LAT_SMAP_TASK_NCOLS] = {
	[LAT_SMAP_PID] = { "pid", LAT_UNIT_PID },
	[LAT_SMAP_CODE] = { "code", LAT_UNIT_NONE },
};

static const struct lat_column cpu_cols[LAT_SMAP_CPU_NCOLS] = {
	[LAT_SMAP_TS] = { "ts", LAT_UNIT_TS_NS },
	[LAT_SMAP_TASK] = { "task", LAT_UNIT_NONE },
};

/* "A0" in base 36 (digits, then letters); -1 when it is not a code */
static int64_t code_of(const char *w, size_t wl)
{
	int64_t v = 0;

	if (!wl || wl > 12)
		return -1;
	for (size_t i = 0; i < wl; i++) {
		int d = w[i] >= '0' && w[i] <= '9' ? w[i] - '0' :
			w[i] >= 'A' && w[i] <= 'Z' ? w[i] - 'A' + 10 : -1;

		if (d < 0)
			return -1;
		v = v * 36 + d;
	}
	return v;
}

static struct lat_series *new_series(struct lat_block *b, const char *name, int ncols,
				     const struct lat_column *cols)
{
	struct lat_series *s = lat_series_new(name, ncols, cols);

	if (!s)
		return NULL;
	s->group = strdup(LAT_SMAP_GROUP);
	if (!s->group) {
		lat_series_free(s);
		return NULL;
	}
	return lat_block_add_series(b, s) ? NULL : s;	/* freed when it failed */
}

int psm_cell(struct psm_keep *k, size_t col, const char *w, size_t wl)
{
	struct psm_cellrec *c;

	if (lat_grow(&k->cell, &k->cellcap, k->ncell + 1, sizeof(*k->cell)))
		return -LAT_ENOMEM;
	c = &k->cell[k->ncell++];
	/* the cell starts at its '*', else at the blank before the name */
	c->col = (uint32_t)(wl && w[0] == '*' ? col : col ? col - 1 : 0);
	if (wl && w[0] == '*') {
		w++;
		wl--;
	}
	c->task = wl == 1 && w[0] == '.' ? -1 : (int32_t)code_of(w, wl);	/* a code for now */
	return 0;
}

/* A new row of "tasks" for @code: pid NONE and the code as its name until a legend says. */
static int64_t new_task(struct psm_keep *k, int64_t code, const char *comm, size_t clen,
			int64_t pid, uint32_t line)
{
	int64_t row[LAT_SMAP_TASK_NCOLS] = { [LAT_SMAP_PID] = pid, [LAT_SMAP_CODE] = code };
	char name[16];
	size_t n = 0;

	if (!k->tasks && !(k->tasks = new_series(k->b, "tasks", LAT_SMAP_TASK_NCOLS, task_cols)))
		return -LAT_ENOMEM;
	if (!comm) {
		/* the code back from base 36: the name the map gave it */
		for (int64_t c = code; n < sizeof(name) - 1; c /= 36) {
			name[n++] = (char)(c % 36 < 10 ? '0' + c % 36 : 'A' + c % 36 - 10);
			if (c < 36)
				break;
		}
		for (size_t i = 0; i < n / 2; i++) {
			char t = name[i];

			name[i] = name[n - 1 - i];
			name[n - 1 - i] = t;
		}
		comm = name;
		clen = n;
	}
	if (lat_series_push(k->tasks, row, line) ||
	    lat_series_note_last(k->tasks, comm, clen))
		return -LAT_ENOMEM;
	if (code < PSM_CODES) {
		if (!k->by_code && !(k->by_code = calloc(PSM_CODES, sizeof(*k->by_code))))
			return -LAT_ENOMEM;
		k->by_code[code] = (int32_t)k->tasks->nrows;
	}
	return (int64_t)k->tasks->nrows - 1;
}

/* The task row of @code: the latest one named so (a code past PSM_CODES: the last of it). */
static int64_t task_of(struct psm_keep *k, int64_t code, uint32_t line)
{
	if (code < 0)
		return -1;
	if (code < PSM_CODES && k->by_code && k->by_code[code])
		return k->by_code[code] - 1;
	for (size_t i = k->tasks ? k->tasks->nrows : 0; i-- > 0;)
		if (lat_series_at(k->tasks, i, LAT_SMAP_CODE) == code)
			return (int64_t)i;
	return new_task(k, code, NULL, 0, LAT_VALUE_NONE, line);
}

/* "E0 => rcuos/1:18": a new task for the code (comm up to the last ':', then its pid). */
static int legend(struct psm_keep *k, const char *s, size_t len, uint32_t line)
{
	const char *arrow = memmem(s, len, " => ", 4), *comm, *colon = NULL;
	size_t clen;
	int64_t code, pid = 0, t;

	if (!arrow)
		return 0;
	while (len && (*s == ' ' || *s == '\t')) {
		s++;
		len--;
	}
	code = code_of(s, (size_t)(arrow - s));
	if (code < 0)
		return 0;	/* ". => swapper:0": idle, a cell of its own */
	comm = arrow + 4;
	clen = len - (size_t)(comm - s);
	while (clen && (comm[clen - 1] == ' ' || comm[clen - 1] == '\r'))
		clen--;
	for (size_t i = clen; i-- > 0 && !colon;)
		colon = comm[i] == ':' ? comm + i : NULL;
	for (const char *p = colon ? colon + 1 : comm + clen; p < comm + clen && pid >= 0; p++)
		pid = *p >= '0' && *p <= '9' && pid < 100000000 ? pid * 10 + (*p - '0') : -1;
	if (colon && colon + 1 < comm + clen && pid >= 0)
		clen = (size_t)(colon - comm);
	else
		pid = LAT_VALUE_NONE;
	t = new_task(k, code, comm, clen, pid, line);
	return t < 0 ? (int)t : 0;
}

int psm_row(struct psm_keep *k, int64_t ts_ns, const char *rest, size_t len, uint32_t line)
{
	int ret = legend(k, rest, len, line);

	for (size_t i = k->row_first; i < k->ncell && !ret; i++) {
		int64_t t = task_of(k, k->cell[i].task, line);

		if (t < -1)
			ret = (int)t;
		k->cell[i].task = (int32_t)t;
	}
	if (!ret && lat_grow(&k->row, &k->rowcap, k->nrow + 1, sizeof(*k->row)))
		ret = -LAT_ENOMEM;
	if (!ret)
		k->row[k->nrow++] = (struct psm_row){ ts_ns, line, k->row_first,
						      k->ncell - k->row_first };
	k->row_first = k->ncell;
	return ret;
}

int psm_gap(struct psm_keep *k)
{
	k->ncell = k->row_first;	/* a row cut short before it */
	if (!k->nrow || k->row[k->nrow - 1].ts_ns == INT64_MIN)
		return 0;
	if (lat_grow(&k->row, &k->rowcap, k->nrow + 1, sizeof(*k->row)))
		return -LAT_ENOMEM;
	k->row[k->nrow++] = (struct psm_row){ INT64_MIN, 0, k->ncell, 0 };
	return 0;
}

/* Series "cpu0" .. "cpu<n-1>", and each CPU's task so far (NONE: not told yet). */
static int cpu_series(struct psm_keep *k, size_t n, struct lat_series **cpu, int64_t *cur)
{
	char name[24];

	for (size_t c = 0; c < n; c++) {
		snprintf(name, sizeof(name), "cpu%zu", c);
		cur[c] = LAT_VALUE_NONE;
		cpu[c] = new_series(k->b, name, LAT_SMAP_CPU_NCOLS, cpu_cols);
		if (!cpu[c])
			return -LAT_ENOMEM;
	}
	return 0;
}

/* Row @r into the series: each cell whose task changed; a gap ends every CPU's task. */
static int push_row(const struct psm_keep *k, const struct psm_row *r, int64_t last_ns,
		    uint32_t indent, struct lat_series **cpu, int64_t *cur, size_t n)
{
	int ret = 0;

	for (size_t i = 0; i < n && r->ts_ns == INT64_MIN && !ret; i++) {
		int64_t row[LAT_SMAP_CPU_NCOLS] = { last_ns, LAT_VALUE_NONE };

		if (cur[i] != LAT_VALUE_NONE)
			ret = lat_series_push(cpu[i], row, cpu[i]->line[cpu[i]->nrows - 1]);
		cur[i] = LAT_VALUE_NONE;
	}
	for (size_t i = r->first; i < r->first + r->n && !ret; i++) {
		size_t c = (k->cell[i].col - indent + 2) / 4;
		int64_t row[LAT_SMAP_CPU_NCOLS] = { r->ts_ns, k->cell[i].task };

		if (c < n && row[1] != cur[c])
			ret = lat_series_push(cpu[c], row, r->line);
		if (c < n)
			cur[c] = row[1];
	}
	return ret;
}

int psm_finish(struct psm_keep *k, int ret)
{
	uint32_t indent = UINT32_MAX, right = 0;
	struct lat_series **cpu = NULL;
	int64_t *cur = NULL, last_ns = 0;
	size_t n;

	for (size_t i = 0; i < k->ncell; i++) {
		indent = k->cell[i].col < indent ? k->cell[i].col : indent;
		right = k->cell[i].col > right ? k->cell[i].col : right;
	}
	n = k->ncell && !ret ? (right - indent + 2) / 4 + 1 : 0;
	if (n) {
		cpu = calloc(n, sizeof(*cpu));
		cur = calloc(n, sizeof(*cur));
		ret = cpu && cur ? cpu_series(k, n, cpu, cur) : -LAT_ENOMEM;
	}
	for (size_t r = 0; r < k->nrow && n && !ret; r++) {
		ret = push_row(k, &k->row[r], last_ns, indent, cpu, cur, n);
		if (k->row[r].ts_ns != INT64_MIN)
			last_ns = k->row[r].ts_ns;
	}
	free(cpu);
	free(cur);
	free(k->cell);
	free(k->row);
	free(k->by_code);
	memset(k, 0, sizeof(*k));
	return ret;
}
