// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Memory of the wakeup analysis against trace length: a synthetic source (64
 * tasks on 2 CPUs, a waking + switch per step, irqs, markers and stacks now and
 * then) of N events is analyzed; peak RSS and events/s are printed.  The state
 * must not grow with N: compare the RSS of 1e5, 1e6 and 1e7 events.
 * Built by bench/wakeup/run.sh against the layer archives
 * (build/liblatscope_{report,analyze,formats,model}.a).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "latscope/an_wakeup.h"
#include "latscope/analyze.h"

struct gen {
	struct lat_event_source src;
	uint64_t n, i, ts;
	int32_t cur[2];
	unsigned phase;
	struct lat_event pend[4];
	unsigned npend, ppos;
};

static const uint64_t ips[4] = { 1, 2, 3, 4 };
static const char *const syms[4] = { "__schedule", "schedule", "do_nanosleep", "hrtimer_nanosleep" };

static void fill(struct gen *g)
{
	uint64_t k = g->i;
	int cpu = (int)(k & 1);
	int32_t base = cpu ? 2000 : 1000;
	int32_t nxt = base + (int32_t)((k / 2 + 1) % 32);
	int32_t cur = g->cur[cpu];
	struct lat_event *e;

	g->npend = 0;
	g->ppos = 0;
	g->ts += 1000;
	e = &g->pend[g->npend++];
	memset(e, 0, sizeof(*e));
	e->ts_ns = g->ts;
	e->cpu = cpu;
	e->pid = cur;
	snprintf(e->comm, sizeof(e->comm), "t%d", cur);
	e->type = LAT_EV_WAKING;
	e->u.wake.pid = nxt;
	e->u.wake.prio = 120;
	e->u.wake.target_cpu = cpu;
	snprintf(e->u.wake.comm, LAT_COMM_LEN, "t%d", nxt);
	g->ts += 1000 + (k * 7919) % 100000;
	e = &g->pend[g->npend++];
	memset(e, 0, sizeof(*e));
	e->ts_ns = g->ts;
	e->cpu = cpu;
	e->pid = cur;
	e->type = LAT_EV_SWITCH;
	e->u.sw.prev_pid = cur;
	e->u.sw.prev_prio = 120;
	e->u.sw.prev_state = LAT_TS_SLEEPING;
	snprintf(e->u.sw.prev_comm, LAT_COMM_LEN, "t%d", cur);
	e->u.sw.next_pid = nxt;
	e->u.sw.next_prio = 120;
	snprintf(e->u.sw.next_comm, LAT_COMM_LEN, "t%d", nxt);
	if (k % 16 == 0) {
		e = &g->pend[g->npend++];
		memset(e, 0, sizeof(*e));
		e->ts_ns = g->ts;
		e->cpu = cpu;
		e->pid = cur;
		e->type = LAT_EV_STACK;
		e->u.stack.ips = ips;
		e->u.stack.syms = syms;
		e->u.stack.depth = 4;
	}
	g->cur[cpu] = nxt;
	g->i++;
}

static int gen_next(struct lat_event_source *s, struct lat_event *ev)
{
	struct gen *g = (struct gen *)s;

	if (g->ppos == g->npend) {
		if (g->i >= g->n)
			return 0;
		fill(g);
	}
	*ev = g->pend[g->ppos++];
	return 1;
}

static void gen_free(struct lat_event_source *s)
{
	free(s);
}

static const struct lat_event_source_ops gen_ops = { gen_next, gen_free };

int main(int argc, char **argv)
{
	uint64_t steps = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000;
	struct gen *g = calloc(1, sizeof(*g));
	struct lat_block *b = lat_block_new(NULL, LAT_SCHEMA_EVENTS);
	struct lat_analyze_opts o;
	const struct lat_wakeup_result *r;
	struct timespec t0, t1;
	struct rusage ru;
	double s;

	if (!g || !b)
		return 1;
	g->src.ops = &gen_ops;
	g->src.ncpus = 2;
	g->n = steps;
	g->cur[0] = 1000;
	g->cur[1] = 2000;
	b->events = &g->src;
	lat_analyze_opts_init(&o);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (lat_analyze_block(b, &o))
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	getrusage(RUSAGE_SELF, &ru);
	r = b->analysis;
	s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("events %llu waits %llu tasks %zu stacks %zu peak_rss_kb %ld events_per_s %.0f\n",
	       (unsigned long long)r->nevents, (unsigned long long)r->waits, r->ntasks, r->nstacks,
	       ru.ru_maxrss, (double)r->nevents / s);
	lat_block_free(b);
	return 0;
}
