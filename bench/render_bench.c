// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench/render: draw a timeline of N run slices (default 1,000,000) on 4 CPUs
 * and compare with the wakeup analysis of the same schedule, fed as an event
 * stream (a sched_waking then a sched_switch per slice), in the same run.
 * Without the wakeup analysis in the tree the ratio is not printed.
 * Usage: render_bench [N] [OUT_PREFIX]   (writes OUT_PREFIX.png / .svg when given)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "latscope/analyze.h"
#include "latscope/render.h"

#define NCPUS 4
#define NTASKS 200

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint32_t rnd(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(*s >> 33);
}

/* --- the schedule as a compact, time-ordered event list ------------------------------ */

struct cev {
	uint64_t ts;
	int32_t cpu, prev, next;	/* switch: prev -> next; waking: next is woken (prev -1) */
};

struct src {
	struct lat_event_source base;
	const struct cev *ev;
	size_t n, i;
};

static void comm_of(int32_t pid, char *buf)
{
	if (pid == 0)
		snprintf(buf, LAT_COMM_LEN, "swapper");
	else
		snprintf(buf, LAT_COMM_LEN, "task-%d", pid);
}

static int src_next(struct lat_event_source *s, struct lat_event *ev)
{
	struct src *x = (struct src *)s;
	const struct cev *c;

	if (x->i >= x->n)
		return 0;
	c = &x->ev[x->i++];
	memset(ev, 0, sizeof(*ev));
	ev->ts_ns = c->ts;
	ev->cpu = c->cpu;
	if (c->prev < 0) {
		ev->type = LAT_EV_WAKING;
		ev->name = "sched:sched_waking";
		ev->pid = -1;
		ev->u.wake.pid = c->next;
		ev->u.wake.prio = 120;
		ev->u.wake.target_cpu = c->cpu;
		comm_of(c->next, ev->u.wake.comm);
		return 1;
	}
	ev->type = LAT_EV_SWITCH;
	ev->name = "sched:sched_switch";
	ev->pid = c->prev;
	comm_of(c->prev, ev->comm);
	comm_of(c->prev, ev->u.sw.prev_comm);
	ev->u.sw.prev_pid = c->prev;
	ev->u.sw.prev_prio = 120;
	ev->u.sw.prev_state = LAT_TS_SLEEPING;
	comm_of(c->next, ev->u.sw.next_comm);
	ev->u.sw.next_pid = c->next;
	ev->u.sw.next_prio = 120;
	return 1;
}

static void src_free(struct lat_event_source *s)
{
	(void)s;
}

static const struct lat_event_source_ops src_ops = { src_next, src_free };

static int cmp_cev(const void *a, const void *b)
{
	const struct cev *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	/* the waking before the switch it leads to */
	return (x->prev >= 0) - (y->prev >= 0);
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000000, k = 0, ne = 0;
	const char *prefix = argc > 2 ? argv[2] : NULL;
	struct lat_timeline t = { 0 };
	struct lat_render_opts o;
	struct lat_render_buf png = { 0 }, svg = { 0 };
	struct cev *ev;
	uint64_t seed = 42, cpu_t[NCPUS] = { 0 };
	int32_t cur[NCPUS] = { 0 };
	double t0, t_png, t_svg, t_an = -1;
	int ret;

	if (n < NCPUS)
		n = NCPUS;
	t.slices = calloc(n, sizeof(*t.slices));
	ev = calloc(2 * n, sizeof(*ev));
	if (!t.slices || !ev)
		return 1;
	/* per CPU: back-to-back slices of 1..40 us, a task per slice, woken 2 us before */
	for (int cpu = 0; cpu < NCPUS; cpu++) {
		for (size_t i = 0; i < n / NCPUS; i++) {
			struct lat_tl_slice *s = &t.slices[k++];
			uint64_t d = 1000 + rnd(&seed) % 39000;
			int32_t pid = 1000 + (int32_t)(rnd(&seed) % NTASKS);

			s->start_ns = 1000000 + cpu_t[cpu];
			s->end_ns = s->start_ns + d;
			s->cpu = cpu;
			s->pid = pid;
			s->prio = 120;
			comm_of(pid, s->comm);
			ev[ne++] = (struct cev){ s->start_ns - 2000, cpu, -1, pid };
			ev[ne++] = (struct cev){ s->start_ns, cpu, cur[cpu], pid };
			cur[cpu] = pid;
			cpu_t[cpu] += d;
		}
	}
	t.nslices = k;
	t.ncpus = NCPUS;
	t.start_ns = 1000000;
	t.end_ns = t.start_ns;
	for (int cpu = 0; cpu < NCPUS; cpu++)
		if (t.start_ns + cpu_t[cpu] > t.end_ns)
			t.end_ns = t.start_ns + cpu_t[cpu];
	snprintf(t.title, sizeof(t.title), "bench: %zu slices", k);
	qsort(ev, ne, sizeof(*ev), cmp_cev);

	lat_render_opts_init(&o);
	t0 = now();
	ret = lat_render_timeline(&t, &o, &png);
	t_png = now() - t0;
	if (ret) {
		fprintf(stderr, "render: %s\n", png.msg);
		return 1;
	}
	o.format = LAT_RENDER_SVG;
	t0 = now();
	ret = lat_render_timeline(&t, &o, &svg);
	t_svg = now() - t0;
	if (ret) {
		fprintf(stderr, "render: %s\n", svg.msg);
		return 1;
	}

	{
		struct lat_block *b = lat_block_new(NULL, LAT_SCHEMA_EVENTS);
		struct src *s = calloc(1, sizeof(*s));
		struct lat_analyze_opts ao;

		if (!b || !s)
			return 1;
		s->base.ops = &src_ops;
		s->base.ncpus = NCPUS;
		s->ev = ev;
		s->n = ne;
		b->events = &s->base;
		lat_analyze_opts_init(&ao);
		ao.timelines = 1;	/* as `latscope render` */
		t0 = now();
		ret = lat_analyze_block(b, &ao);
		t_an = now() - t0;
		/* no wakeup analysis in this build: the block was only marked not analyzed */
		if (ret || !b->analysis)
			t_an = -1;
		b->events = NULL;
		lat_block_free(b);
		free(s);
	}

	printf("slices            %zu on %d CPUs, %d tasks, %zu events\n", k, NCPUS, NTASKS, ne);
	printf("render PNG        %.3f s, %zu bytes (1600x900)\n", t_png, png.len);
	printf("render SVG        %.3f s, %zu bytes\n", t_svg, svg.len);
	if (t_an > 0) {
		printf("wakeup analysis   %.3f s over the same schedule as events\n", t_an);
		printf("ratio render/analysis  PNG %.2f  SVG %.2f  (goal: <= 1)\n", t_png / t_an,
		       t_svg / t_an);
	} else {
		printf("wakeup analysis   not in this build: no ratio\n");
	}
	if (prefix) {
		char path[512];
		FILE *f;

		snprintf(path, sizeof(path), "%s.png", prefix);
		f = fopen(path, "wb");
		if (f) {
			fwrite(png.data, 1, png.len, f);
			fclose(f);
		}
		snprintf(path, sizeof(path), "%s.svg", prefix);
		f = fopen(path, "wb");
		if (f) {
			fwrite(svg.data, 1, svg.len, f);
			fclose(f);
		}
	}
	lat_render_buf_release(&png);
	lat_render_buf_release(&svg);
	free(t.slices);
	free(ev);
	return 0;
}
