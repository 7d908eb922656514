// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loop logs (lat, lat2, lat3): per process, the distribution of wait and loop
 * times, the worst single stall and the freezes above the threshold.
 * Definitions: docs/analyses.md.
 */
#include <stdlib.h>
#include <string.h>

#include "latscope/an_loop.h"
#include "latscope/analyze.h"
#include "analyze_priv.h"

void an_loop_free(void *p)
{
	struct lat_loop_result *r = p;

	if (!r)
		return;
	for (size_t i = 0; i < r->nprocs; i++)
		free(r->procs[i].freezes);
	free(r->procs);
	free(r);
}

static int add_freeze(struct lat_loop_proc *p, size_t *cap, int64_t ts, int64_t dur,
		      uint32_t line, enum lat_freeze_what what)
{
	if (lat_grow(&p->freezes, cap, p->nfreezes + 1, sizeof(*p->freezes)))
		return -LAT_ENOMEM;
	p->freezes[p->nfreezes++] = (struct lat_freeze){ ts, dur, line, what };
	return 0;
}

/* Column @col of every row that has it, into @tmp; stats into @st. */
static void column_stat(const struct lat_series *s, int col, int64_t *tmp, struct lat_stat *st)
{
	size_t n = 0;

	for (size_t r = 0; r < s->nrows; r++) {
		int64_t v = lat_series_at(s, r, col);

		if (v != LAT_VALUE_NONE)
			tmp[n++] = v;
	}
	lat_stat_compute(tmp, n, st);
}

static int analyze_proc(const struct lat_series *s, int64_t thr, struct lat_loop_proc *p,
			int64_t *tmp)
{
	size_t fcap = 0;
	int has_max;

	memset(p, 0, sizeof(*p));
	p->s = s;
	p->rows = s->nrows;
	column_stat(s, LAT_LOOP_WAIT, tmp, &p->wait);
	column_stat(s, LAT_LOOP_LOOP, tmp, &p->loop);
	column_stat(s, LAT_LOOP_MAX, tmp, &p->max);
	has_max = p->max.n > 0;
	p->loop_nominal_ns = p->loop.p50;
	p->max_stall_ns = -1;

	for (size_t r = 0; r < s->nrows; r++) {
		int64_t ts = lat_series_at(s, r, LAT_LOOP_TS);
		int64_t wait = lat_series_at(s, r, LAT_LOOP_WAIT);
		int64_t loop = lat_series_at(s, r, LAT_LOOP_LOOP);
		int64_t max = lat_series_at(s, r, LAT_LOOP_MAX);
		int64_t nb = lat_series_at(s, r, LAT_LOOP_NBMAX);
		int64_t stall;

		if (nb != LAT_VALUE_NONE) {
			p->nbmax_sum += (uint64_t)nb;
			p->has_nbmax = 1;
		}
		if (wait > p->max_wait_ns)
			p->max_wait_ns = wait;
		if (wait >= thr && add_freeze(p, &fcap, ts, wait, s->line[r], LAT_FREEZE_WAIT))
			return -LAT_ENOMEM;
		/* a loop stall: the longest gap when the tool measured it, else the overshoot */
		stall = has_max ? max : loop - p->loop_nominal_ns;
		if (stall == LAT_VALUE_NONE)
			continue;
		if (stall > p->max_stall_ns) {
			p->max_stall_ns = stall;
			p->max_stall_ts = ts;
			p->max_stall_line = s->line[r];
		}
		if (stall >= thr && add_freeze(p, &fcap, ts, stall, s->line[r], LAT_FREEZE_LOOP))
			return -LAT_ENOMEM;
	}
	if (p->max_stall_ns < 0)
		p->max_stall_ns = 0;
	return 0;
}

int an_loop(struct lat_block *b, const struct lat_analyze_opts *o)
{
	struct lat_loop_result *r = calloc(1, sizeof(*r));
	size_t maxrows = 0;
	int64_t *tmp;
	char d1[32], d2[32];
	int ret = 0;

	if (!r)
		return -LAT_ENOMEM;
	r->threshold_ns = o->threshold_ns;
	for (size_t i = 0; i < b->nseries; i++)
		if (b->series[i]->nrows > maxrows)
			maxrows = b->series[i]->nrows;
	tmp = malloc((maxrows ? maxrows : 1) * sizeof(*tmp));
	r->procs = calloc(b->nseries ? b->nseries : 1, sizeof(*r->procs));
	if (!tmp || !r->procs) {
		free(tmp);
		an_loop_free(r);
		return -LAT_ENOMEM;
	}
	b->analysis = r;
	for (size_t i = 0; i < b->nseries && !ret; i++) {
		ret = analyze_proc(b->series[i], o->threshold_ns, &r->procs[i], tmp);
		r->nprocs = i + 1;
	}
	free(tmp);
	if (ret)
		return ret;

	for (size_t i = 0; i < r->nprocs; i++) {
		const struct lat_loop_proc *p = &r->procs[i];
		size_t nw = 0, nl = 0;

		for (size_t f = 0; f < p->nfreezes; f++)
			p->freezes[f].what == LAT_FREEZE_WAIT ? nw++ : nl++;
		if (!p->nfreezes)
			continue;
		lat_block_add_finding(b, "freeze", p->max_stall_ns >= 10 * o->threshold_ns ?
				      LAT_SEV_HIGH : LAT_SEV_WARN,
				      "process %s froze %zu times over %s (%zu in the loop, %zu in "
				      "select/wait); worst loop stall %s at line %u",
				      p->s->name, p->nfreezes, lat_fmt_duration(o->threshold_ns, d1,
				      sizeof(d1)), nl, nw,
				      lat_fmt_duration(p->max_stall_ns, d2, sizeof(d2)),
				      p->max_stall_line);
	}
	return 0;
}
