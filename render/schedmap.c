// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A perf sched map drawn as the timeline chart: one lane per CPU, who ran
 * there from one switch to the next (formats/perf_sched_map.c keeps the map's
 * cells as series).  A map tells who ran, not who waited: no bracket, no irq,
 * no marker; where the poster left rows out ("<SNIP>"), and on a CPU before
 * the map first shows it, the lanes are grey ("not known"), not blank (idle).  docs/render.md, "timeline of a perf sched map".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latscope/timeline.h"
#include "render_priv.h"
#include "smap.h"

struct smap {
	const struct lat_series *tasks;
	const struct lat_series **cpu;	/* lane k: series "cpu<k>" */
	int ncpus;
	int64_t t0, t1;			/* the first and last row's time */
};

static int smap_find(struct smap *m, const struct lat_block *b)
{
	char name[24];

	m->tasks = rd_smap_series(b, "tasks");
	while (snprintf(name, sizeof(name), "cpu%d", m->ncpus), rd_smap_series(b, name))
		m->ncpus++;
	if (!m->ncpus)
		return -LAT_EEMPTY;
	m->cpu = calloc((size_t)m->ncpus, sizeof(*m->cpu));
	if (!m->cpu)
		return -LAT_ENOMEM;
	m->t0 = INT64_MAX;
	m->t1 = INT64_MIN;
	for (int c = 0; c < m->ncpus; c++) {
		const struct lat_series *s;

		snprintf(name, sizeof(name), "cpu%d", c);
		s = m->cpu[c] = rd_smap_series(b, name);
		if (!s->nrows)
			continue;
		if (lat_series_at(s, 0, LAT_SMAP_TS) < m->t0)
			m->t0 = lat_series_at(s, 0, LAT_SMAP_TS);
		if (lat_series_at(s, s->nrows - 1, LAT_SMAP_TS) > m->t1)
			m->t1 = lat_series_at(s, s->nrows - 1, LAT_SMAP_TS);
	}
	return m->t1 > m->t0 ? 0 : -LAT_EEMPTY;
}

/* Task row @task's pid and comm (the note of its row): LAT_TL_PID_UNNAMED + row when no pid. */
static void smap_task(const struct smap *m, int64_t task, struct lat_tl_slice *s)
{
	int64_t pid = lat_series_at(m->tasks, (size_t)task, LAT_SMAP_PID);

	s->pid = pid >= 0 && pid < LAT_TL_PID_UNNAMED ? (int32_t)pid :
		 LAT_TL_PID_UNNAMED + (int32_t)task;
	/* every row of "tasks" has its note: the comm */
	if ((size_t)task < m->tasks->nnotes && m->tasks->notes[task].row == (size_t)task)
		snprintf(s->comm, sizeof(s->comm), "%s", m->tasks->notes[task].text);
}

/* Row @i of lane @c as a slice until the lane's next row (the map's end): 1 slice, 0 a gap. */
static int smap_span(const struct smap *m, int c, size_t i, struct lat_tl_slice *s,
		     struct lat_tl_mark *g)
{
	const struct lat_series *cs = m->cpu[c];
	int64_t task = lat_series_at(cs, i, LAT_SMAP_TASK);
	int64_t a = lat_series_at(cs, i, LAT_SMAP_TS);
	int64_t z = i + 1 < cs->nrows ? lat_series_at(cs, i + 1, LAT_SMAP_TS) : m->t1;

	if (task == LAT_VALUE_NONE) {
		*g = (struct lat_tl_mark){ .kind = LAT_TL_GAP, .start_ns = (uint64_t)a,
					   .end_ns = (uint64_t)z, .cpu = c, .other_cpu = -1,
					   .value_ns = -1 };
		return 0;
	}
	memset(s, 0, sizeof(*s));
	s->start_ns = (uint64_t)a;
	s->end_ns = (uint64_t)z;
	s->cpu = c;
	s->prio = -1;
	if (task >= 0 && m->tasks && (size_t)task < m->tasks->nrows)
		smap_task(m, task, s);
	return 1;
}

static int smap_timeline(const struct smap *m, const struct lat_block *b,
			 struct lat_timeline *tl)
{
	size_t n = 0;

	for (int c = 0; c < m->ncpus; c++)
		n += m->cpu[c]->nrows;
	tl->slices = calloc(n ? n : 1, sizeof(*tl->slices));
	tl->marks = calloc(n + (size_t)m->ncpus, sizeof(*tl->marks));
	if (!tl->slices || !tl->marks)
		return -LAT_ENOMEM;
	tl->start_ns = (uint64_t)m->t0;
	tl->end_ns = (uint64_t)m->t1;
	tl->ncpus = m->ncpus;
	tl->switches_only = 1;
	for (int c = 0; c < m->ncpus; c++) {
		const struct lat_series *cs = m->cpu[c];
		int64_t first = cs->nrows ? lat_series_at(cs, 0, LAT_SMAP_TS) : m->t1;

		/* perf prints a CPU blank until its first switch: not known, not idle */
		if (first > m->t0)
			tl->marks[tl->nmarks++] = (struct lat_tl_mark){
				.kind = LAT_TL_GAP, .start_ns = (uint64_t)m->t0,
				.end_ns = (uint64_t)first, .cpu = c, .other_cpu = -1,
				.value_ns = -1 };
		for (size_t i = 0; i < cs->nrows; i++) {
			if (smap_span(m, c, i, &tl->slices[tl->nslices], &tl->marks[tl->nmarks]))
				tl->nslices++;
			else
				tl->nmarks++;
		}
	}
	snprintf(tl->title, sizeof(tl->title), "%s", b->title ? b->title : "perf sched map");
	return 0;
}

int rd_smap_timeline(const struct lat_block *b, struct lat_timeline **out)
{
	struct smap m = { 0 };
	struct lat_timeline *tl = calloc(1, sizeof(*tl));
	int ret = tl ? smap_find(&m, b) : -LAT_ENOMEM;

	if (!ret)
		ret = smap_timeline(&m, b, tl);
	free(m.cpu);
	if (ret) {
		lat_timeline_free(tl);
		tl = NULL;
	}
	*out = tl;
	return ret;
}

int rd_render_smap(const struct lat_block *b, const struct lat_render_opts *o,
		   struct lat_render_buf *out)
{
	struct lat_timeline *tl;
	int ret = rd_smap_timeline(b, &tl);

	if (!ret)
		ret = rd_chart_run(&rd_timeline_ops, tl, o, out);
	else if (ret == -LAT_EEMPTY)
		snprintf(out->msg, sizeof(out->msg), "the perf sched map spans no time: "
			 "no timeline to draw");
	else
		snprintf(out->msg, sizeof(out->msg), "out of memory");
	lat_timeline_free(tl);
	return ret;
}
