// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The CI gate's decision (--fail-above, include/latscope/gate.h): which tasks, cases, probe
 * CPUs and samples of the analyzed event traces exceed the limit, and the counts of what was
 * checked.  The reports list them (report/gate.c).
 */
#include <string.h>

#include "latscope/gate.h"

const struct lat_wakeup_result *lat_gate_wakeup(const struct lat_block *b)
{
	return b->schema == LAT_SCHEMA_EVENTS ? b->analysis : NULL;
}

const struct lat_probe_result *lat_gate_probe(const struct lat_block *b)
{
	return b->schema == LAT_SCHEMA_EVENTS ? b->probe : NULL;
}

int lat_gate_task_over(const struct lat_wake_task *t, int64_t limit_ns)
{
	return t->wake.n && t->wake.max > limit_ns;
}

int lat_gate_case_over(const struct lat_wake_case *c, int64_t limit_ns)
{
	return c->latency_ns > limit_ns;
}

int lat_gate_cpu_over(const struct lat_probe_cpu *c, int64_t limit_ns)
{
	return c->max_src != LAT_PSRC_NONE && c->max_ns > limit_ns;
}

int lat_gate_sample_over(const struct lat_probe_sample *s, int64_t limit_ns)
{
	return s->lat_ns > limit_ns;
}

void lat_gate_init(struct lat_gate *g, int64_t limit_ns)
{
	memset(g, 0, sizeof(*g));
	g->limit_ns = limit_ns;
}

void lat_gate_block(struct lat_gate *g, const struct lat_block *b)
{
	const struct lat_wakeup_result *r = lat_gate_wakeup(b);
	const struct lat_probe_result *p = lat_gate_probe(b);

	if (!r && !p)
		return;
	g->traces++;
	if (r) {
		g->waits += r->all.n;
		g->waits_over += r->over_limit;
		g->untrusted += r->untrusted + r->untrusted_waits;
		for (size_t i = 0; i < r->ntasks; i++)
			g->tasks_over += lat_gate_task_over(&r->tasks[i], g->limit_ns);
	}
	if (p)
		g->samples_over += p->over_limit;
	for (size_t i = 0; p && i < p->ncpus; i++) {
		g->samples += p->cpus[i].count;
		g->cpus_over += lat_gate_cpu_over(&p->cpus[i], g->limit_ns);
	}
	for (size_t i = 0; p && i < p->nleft_out; i++) {
		g->samples_left_out += p->left_out[i].count;
		g->cpus_left_out++;
	}
}

int lat_gate_failed(const struct lat_gate *g)
{
	return g->tasks_over || g->cpus_over;
}
