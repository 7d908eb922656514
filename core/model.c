// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "latscope/model.h"
#include "latscope/event.h"
#include "latscope/fntrace.h"

struct lat_block *lat_block_new(const struct lat_format *fmt, enum lat_schema schema)
{
	struct lat_block *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	b->fmt = fmt;
	b->schema = schema;
	return b;
}

void lat_block_free(struct lat_block *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->nseries; i++)
		lat_series_free(b->series[i]);
	free(b->series);
	for (size_t i = 0; i < b->nhist; i++)
		lat_histogram_free(b->hist[i]);
	free(b->hist);
	for (size_t i = 0; i < b->nfindings; i++)
		free(b->findings[i].message);
	free(b->findings);
	if (b->analysis_free)
		b->analysis_free(b);
	lat_fntrace_free(b->fntrace);
	lat_event_source_free(b->events);
	free(b->title);
	free(b);
}

int lat_block_add_finding(struct lat_block *b, const char *kind, enum lat_severity sev,
			  const char *fmt, ...)
{
	va_list ap;
	char *msg;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || lat_grow(&b->findings, &b->findcap, b->nfindings + 1, sizeof(*b->findings)))
		return -LAT_ENOMEM;
	msg = malloc((size_t)n + 1);
	if (!msg)
		return -LAT_ENOMEM;
	va_start(ap, fmt);
	vsnprintf(msg, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->findings[b->nfindings].kind = kind;
	b->findings[b->nfindings].sev = sev;
	b->findings[b->nfindings].message = msg;
	b->nfindings++;
	return 0;
}

struct lat_series *lat_series_new(const char *name, int ncols, const struct lat_column *cols)
{
	struct lat_series *s;

	if (ncols <= 0 || ncols > LAT_SERIES_MAX_COLS)
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->name = strdup(name ? name : "");
	if (!s->name) {
		free(s);
		return NULL;
	}
	s->ncols = ncols;
	memcpy(s->cols, cols, sizeof(*cols) * (size_t)ncols);
	return s;
}

void lat_series_free(struct lat_series *s)
{
	if (!s)
		return;
	free(s->name);
	free(s->group);
	free(s->note);
	free(s->v);
	free(s->line);
	for (size_t i = 0; i < s->nnotes; i++)
		free(s->notes[i].text);
	free(s->notes);
	free(s);
}

int lat_series_note_last(struct lat_series *s, const char *text, size_t len)
{
	char *t;

	if (!s->nrows)
		return 0;
	if (lat_grow(&s->notes, &s->notecap, s->nnotes + 1, sizeof(*s->notes)))
		return -LAT_ENOMEM;
	t = strndup(text, len);
	if (!t)
		return -LAT_ENOMEM;
	s->notes[s->nnotes].row = s->nrows - 1;
	s->notes[s->nnotes++].text = t;
	return 0;
}

int lat_series_col(const struct lat_series *s, const char *name)
{
	for (int i = 0; i < s->ncols; i++)
		if (!strcmp(s->cols[i].name, name))
			return i;
	return -1;
}

int lat_series_push(struct lat_series *s, const int64_t *row, uint32_t line)
{
	size_t lcap = s->cap, vcap = s->cap * (size_t)s->ncols;

	if (s->nrows == s->cap) {
		if (lat_grow(&s->line, &lcap, s->nrows + 1, sizeof(*s->line)))
			return -LAT_ENOMEM;
		if (lat_grow(&s->v, &vcap, lcap * (size_t)s->ncols, sizeof(*s->v)))
			return -LAT_ENOMEM;
		s->cap = lcap;
	}
	memcpy(s->v + s->nrows * (size_t)s->ncols, row, sizeof(*row) * (size_t)s->ncols);
	s->line[s->nrows++] = line;
	return 0;
}

int lat_block_add_series(struct lat_block *b, struct lat_series *s)
{
	size_t cap = b->nseries;	/* exact-size growth: few series per block */

	if (lat_grow(&b->series, &cap, b->nseries + 1, sizeof(*b->series))) {
		lat_series_free(s);
		return -LAT_ENOMEM;
	}
	b->series[b->nseries++] = s;
	return 0;
}

void lat_histogram_free(struct lat_histogram *h)
{
	if (!h)
		return;
	free(h->title);
	free(h->group);
	free(h->b);
	free(h);
}

int lat_block_add_hist(struct lat_block *b, struct lat_histogram *h)
{
	size_t cap = b->nhist;

	if (lat_grow(&b->hist, &cap, b->nhist + 1, sizeof(*b->hist))) {
		lat_histogram_free(h);
		return -LAT_ENOMEM;
	}
	b->hist[b->nhist++] = h;
	return 0;
}

const char *lat_severity_name(enum lat_severity s)
{
	switch (s) {
	case LAT_SEV_INFO:
		return "info";
	case LAT_SEV_WARN:
		return "warn";
	case LAT_SEV_HIGH:
		return "high";
	}
	return "info";
}

const char *lat_schema_name(enum lat_schema s)
{
	static const char *const n[] = {
		[LAT_SCHEMA_NONE] = "block",
		[LAT_SCHEMA_LOOP] = "loop log",
		[LAT_SCHEMA_SCHEDCNT] = "schedcnt table",
		[LAT_SCHEMA_HISTOGRAM] = "histogram",
		[LAT_SCHEMA_FNTRACE] = "function trace",
		[LAT_SCHEMA_EVENTS] = "event trace",
	};

	return (unsigned)s < LAT_ARRAY_SIZE(n) ? n[s] : "block";
}

const char *lat_task_state_name(enum lat_task_state st)
{
	static const char *const n[] = { "R", "S", "D", "X", "?" };

	return (unsigned)st < LAT_ARRAY_SIZE(n) ? n[st] : "?";
}

enum lat_task_state lat_task_state_from_char(int c)
{
	switch (c) {
	case 'R':
		return LAT_TS_RUNNING;
	case 'S':
		return LAT_TS_SLEEPING;
	case 'D':
		return LAT_TS_DISK;
	case 'X':
	case 'Z':
		return LAT_TS_DEAD;
	default:
		return LAT_TS_OTHER;
	}
}

enum lat_task_state lat_task_state_from_str(const char *s)
{
	return lat_task_state_from_char(s ? s[0] : 0);
}

#include "latscope/arena.h"
#include "latscope/timeline.h"

void lat_timeline_free(struct lat_timeline *t)
{
	if (!t)
		return;
	if (t->slices_map)
		lat_bigmap_free(t->slices_map, t->slices_maplen);
	else
		free(t->slices);
	free(t->sums);
	free(t->marks);
	free(t->edges);
	free(t->brackets);
	free(t);
}
