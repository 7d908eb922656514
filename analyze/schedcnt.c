// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * schedcnt tables: per run and CPU the LAT distribution (cycles), the
 * dominant ENTRYDIF period, cross-checks against what the tool printed, and
 * per PID the CPUs it ran on (a PID on more than one CPU is "bouncing").
 * Definitions: docs/analyses.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latscope/an_schedcnt.h"
#include "latscope/analyze.h"
#include "analyze_priv.h"

void an_schedcnt_free(void *p)
{
	struct lat_sched_result *r = p;

	if (!r)
		return;
	for (size_t i = 0; i < r->nruns; i++) {
		free(r->runs[i].cpus);
		free(r->runs[i].pids);
	}
	free(r->runs);
	free(r);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* The densest run of sorted values within 0.1 % of its first: median and size. */
static size_t dominant(const int64_t *v, size_t n, int64_t *period, size_t *count)
{
	size_t best_i = 0, best_n = 0, j = 0;

	for (size_t i = 0; i < n; i++) {
		if (j < i)
			j = i;
		while (j + 1 < n && v[j + 1] - v[i] <= v[i] / 1000)
			j++;
		if (j - i + 1 > best_n) {
			best_n = j - i + 1;
			best_i = i;
		}
	}
	*count = best_n;
	*period = best_n ? v[best_i + (best_n - 1) / 2] : 0;
	return best_i;
}

/* The densest cluster outside [at, at + len): a second, alternating period. */
static void second(const int64_t *v, size_t n, size_t at, size_t len, int64_t *period,
		   size_t *count)
{
	int64_t p1, p2;
	size_t c1, c2;

	dominant(v, at, &p1, &c1);
	dominant(v + at + len, n - at - len, &p2, &c2);
	*period = c2 > c1 ? p2 : p1;
	*count = c2 > c1 ? c2 : c1;
}

static int analyze_cpu(const struct lat_series *s, struct lat_sched_cpu *c, int64_t *tmp)
{
	double sum = 0;
	size_t nd = 0, at;

	memset(c, 0, sizeof(*c));
	c->s = s;
	c->cpu = -1;
	if (sscanf(s->name, "cpu%d", &c->cpu) != 1)
		c->cpu = -1;
	c->rows = s->nrows;
	c->announced = s->nextra > 2 ? s->extra[2] : LAT_VALUE_NONE;
	c->tool_avg = s->nextra > 0 ? s->extra[0] : LAT_VALUE_NONE;
	c->tool_second = s->nextra > 1 ? s->extra[1] : LAT_VALUE_NONE;
	for (size_t r = 0; r < s->nrows; r++) {
		int64_t lat = lat_series_at(s, r, LAT_SCHED_LAT);
		int64_t dif = lat_series_at(s, r, LAT_SCHED_ENTRYDIF);
		int64_t entry = lat_series_at(s, r, LAT_SCHED_ENTRY);

		if (!r || lat < c->lat_min)
			c->lat_min = lat;
		if (!r || lat > c->lat_max)
			c->lat_max = lat;
		sum += (double)lat;
		if (lat_series_at(s, r, LAT_SCHED_EXIT) - entry != lat)
			c->lat_inconsistent++;
		if (dif == LAT_VALUE_NONE)
			continue;
		tmp[nd++] = dif;
		if (r + 1 < s->nrows && lat_series_at(s, r + 1, LAT_SCHED_ENTRY) - entry != dif)
			c->dif_inconsistent++;
	}
	if (s->nrows)
		c->lat_avg = sum / (double)s->nrows;
	/* the tool truncates its average: allow one cycle either way */
	if (c->tool_avg != LAT_VALUE_NONE && s->nrows) {
		int64_t mine = (int64_t)c->lat_avg;

		c->avg_mismatch = mine - c->tool_avg > 1 || c->tool_avg - mine > 1;
	}
	lat_sort(tmp, nd, sizeof(*tmp), cmp_i64);
	c->ndif = nd;
	at = dominant(tmp, nd, &c->period_cycles, &c->period_count);
	second(tmp, nd, at, c->period_count, &c->period2_cycles, &c->period2_count);
	/* a handful of scattered gaps has no period worth naming */
	if (c->period_count < 3 || c->period_count * 4 < nd) {
		c->period_cycles = 0;
		c->period_count = 0;
	}
	if (!c->period_count || c->period2_count < 3 || c->period2_count * 4 < nd) {
		c->period2_cycles = 0;
		c->period2_count = 0;
	}
	return 0;
}

struct pid_row {
	int64_t entry;
	int32_t pid, cpu;
};

static int cmp_pid_row(const void *a, const void *b)
{
	const struct pid_row *x = a, *y = b;

	if (x->pid != y->pid)
		return (x->pid > y->pid) - (x->pid < y->pid);
	return (x->entry > y->entry) - (x->entry < y->entry);
}

/* Who ran where: every non-idle row of the run, grouped by PID in entry order. */
static int analyze_pids(struct lat_sched_run *run)
{
	struct pid_row *pr;
	size_t n = 0, total = 0, cap = 0;

	for (size_t c = 0; c < run->ncpus; c++)
		total += run->cpus[c].rows;
	pr = malloc((total ? total : 1) * sizeof(*pr));
	if (!pr)
		return -LAT_ENOMEM;
	for (size_t c = 0; c < run->ncpus; c++) {
		const struct lat_series *s = run->cpus[c].s;

		for (size_t r = 0; r < s->nrows; r++) {
			int64_t pid = lat_series_at(s, r, LAT_SCHED_PID);

			if (pid == 0 || pid > INT32_MAX)
				continue;
			pr[n++] = (struct pid_row){ lat_series_at(s, r, LAT_SCHED_ENTRY),
						    (int32_t)pid, run->cpus[c].cpu };
		}
	}
	lat_sort(pr, n, sizeof(*pr), cmp_pid_row);
	for (size_t i = 0; i < n; i++) {
		struct lat_sched_pid *p;

		if (!i || pr[i].pid != pr[i - 1].pid) {
			if (lat_grow(&run->pids, &cap, run->npids + 1, sizeof(*run->pids))) {
				free(pr);
				return -LAT_ENOMEM;
			}
			p = &run->pids[run->npids++];
			memset(p, 0, sizeof(*p));
			p->pid = pr[i].pid;
		} else {
			p = &run->pids[run->npids - 1];
			if (pr[i].cpu != pr[i - 1].cpu)
				p->moves++;
		}
		p->rows++;
		if (pr[i].cpu >= 0 && pr[i].cpu < 64)
			p->cpu_mask |= 1ull << pr[i].cpu;
	}
	free(pr);
	for (size_t i = 0; i < run->npids; i++)
		if (__builtin_popcountll(run->pids[i].cpu_mask) > 1)
			run->nbouncing++;
	return 0;
}

static void cpu_findings(struct lat_block *b, const struct lat_sched_run *run,
			 const struct lat_sched_cpu *c)
{
	const char *name = c->s->name;

	if (c->announced != LAT_VALUE_NONE && c->announced != (int64_t)c->rows)
		lat_block_add_finding(b, "row-count-mismatch", LAT_SEV_WARN,
				      "%s %s: the section header announced %lld rows, it has %zu",
				      run->label, name, (long long)c->announced, c->rows);
	if (c->tool_avg == LAT_VALUE_NONE)
		lat_block_add_finding(b, "missing-footer", LAT_SEV_WARN,
				      "%s %s: no footer line (the tool's average) after the rows",
				      run->label, name);
	else if (c->avg_mismatch)
		lat_block_add_finding(b, "avg-mismatch", LAT_SEV_WARN,
				      "%s %s: the tool printed an average LAT of %lld cycles, "
				      "the %zu rows average %.1f", run->label, name,
				      (long long)c->tool_avg, c->rows, c->lat_avg);
	if (c->lat_inconsistent)
		lat_block_add_finding(b, "inconsistent-rows", LAT_SEV_WARN,
				      "%s %s: %zu rows where LAT != SCHEDEXIT - SCHEDENTRY",
				      run->label, name, c->lat_inconsistent);
	if (c->dif_inconsistent)
		lat_block_add_finding(b, "inconsistent-rows", LAT_SEV_WARN,
				      "%s %s: %zu rows where ENTRYDIF != next SCHEDENTRY - "
				      "SCHEDENTRY", run->label, name, c->dif_inconsistent);
}

static void run_findings(struct lat_block *b, const struct lat_sched_run *run)
{
	char list[512];
	size_t len = 0, shown = 0;

	for (size_t c = 0; c < run->ncpus; c++)
		cpu_findings(b, run, &run->cpus[c]);
	if (!run->nbouncing)
		return;
	list[0] = '\0';
	for (size_t i = 0; i < run->npids && len + 64 < sizeof(list); i++) {
		const struct lat_sched_pid *p = &run->pids[i];

		if (__builtin_popcountll(p->cpu_mask) < 2)
			continue;
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%d (%zu moves)",
					shown++ ? ", " : "", p->pid, p->moves);
	}
	lat_block_add_finding(b, "bouncing", LAT_SEV_WARN,
			      "%s: %zu PID%s ran on more than one CPU: %s%s", run->label,
			      run->nbouncing, run->nbouncing == 1 ? "" : "s", list,
			      shown < run->nbouncing ? ", ..." : "");
}

/* Across runs: which had bouncing, which did not (seed 004's own conclusion). */
static void summary_finding(struct lat_block *b, const struct lat_sched_result *r)
{
	char yes[256] = "", no[256] = "";
	size_t ny = 0, nn = 0;

	if (r->nruns < 2)
		return;
	for (size_t i = 0; i < r->nruns; i++) {
		char *dst = r->runs[i].nbouncing ? yes : no;
		size_t *cnt = r->runs[i].nbouncing ? &ny : &nn;
		size_t l = strlen(dst);

		snprintf(dst + l, 256 - l, "%s%s", (*cnt)++ ? ", " : "", r->runs[i].label);
	}
	if (!ny)
		lat_block_add_finding(b, "bouncing-summary", LAT_SEV_INFO,
				      "no PID ran on more than one CPU in any run (%s)", no);
	else
		lat_block_add_finding(b, "bouncing-summary", LAT_SEV_INFO,
				      "bouncing in %s; none in %s", yes, nn ? no : "no run");
}

static const char *group_of(const struct lat_series *s)
{
	return s->group ? s->group : "N = ?";
}

int an_schedcnt(struct lat_block *b, const struct lat_analyze_opts *o)
{
	struct lat_sched_result *r = calloc(1, sizeof(*r));
	size_t maxrows = 0, cap = 0;
	int64_t *tmp = NULL;
	int ret = 0;

	if (!r)
		return -LAT_ENOMEM;
	r->cpu_mhz = o->cpu_mhz;
	b->analysis = r;
	for (size_t i = 0; i < b->nseries; i++)
		if (b->series[i]->nrows > maxrows)
			maxrows = b->series[i]->nrows;
	tmp = malloc((maxrows ? maxrows : 1) * sizeof(*tmp));
	if (!tmp)
		return -LAT_ENOMEM;
	/* consecutive series of one group are one run */
	for (size_t i = 0; i < b->nseries && !ret;) {
		const char *label = group_of(b->series[i]);
		struct lat_sched_run *run;
		size_t j = i;

		while (j < b->nseries && !strcmp(group_of(b->series[j]), label))
			j++;
		if (lat_grow(&r->runs, &cap, r->nruns + 1, sizeof(*r->runs))) {
			ret = -LAT_ENOMEM;
			break;
		}
		run = &r->runs[r->nruns++];
		memset(run, 0, sizeof(*run));
		run->label = label;
		run->cpus = calloc(j - i, sizeof(*run->cpus));
		if (!run->cpus) {
			ret = -LAT_ENOMEM;
			break;
		}
		run->ncpus = j - i;
		for (size_t k = i; k < j; k++)
			analyze_cpu(b->series[k], &run->cpus[k - i], tmp);
		ret = analyze_pids(run);
		i = j;
	}
	free(tmp);
	if (ret)
		return ret;
	summary_finding(b, r);
	for (size_t i = 0; i < r->nruns; i++)
		run_findings(b, &r->runs[i]);
	return 0;
}
