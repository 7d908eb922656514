// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "latscope/base.h"
#include "probe.h"

struct probe_thread {
	struct rec_probes *p;
	pthread_t th;
	bool started;
	int cpu;
	bool is_timer;
	struct rec_probe_hist h;
};

struct rec_probes {
	struct rec_probe_cfg cfg;
	atomic_bool stop;
	atomic_bool spiked;
	atomic_bool fifo_failed;
	int64_t spike_ns;
	int spike_cpu;
	const char *spike_probe;
	size_t nthreads;
	struct probe_thread *t;
};

int rec_probe_bucket(int64_t ns)
{
	int k = 0;

	if (ns <= 1)
		return 0;
	while (k < REC_PROBE_BUCKETS - 1 && (ns >> (k + 1)))
		k++;
	return k;
}

void rec_probe_hist_add(struct rec_probe_hist *h, int64_t ns)
{
	if (!h->count || ns < h->min_ns)
		h->min_ns = ns;
	if (!h->count || ns > h->max_ns)
		h->max_ns = ns;
	h->count++;
	h->sum_ns += (uint64_t)ns;
	h->bucket[rec_probe_bucket(ns)]++;
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * LAT_NS_PER_S + ts.tv_nsec;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	/* An offline CPU just leaves the thread unpinned: its samples still count. */
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

/* A sample crossed a threshold: one marker line, and maybe the end of a flight recording. */
static void sample_event(struct probe_thread *t, const char *name, int64_t lat_ns, uint64_t seq,
			 bool marker)
{
	struct rec_probes *p = t->p;
	bool stop = p->cfg.stop_above_ns > 0 && lat_ns > p->cfg.stop_above_ns;
	char line[160];
	int n;

	if (stop && atomic_exchange(&p->spiked, true))
		stop = false;	/* someone else stopped it first */
	if ((marker || stop) && p->cfg.marker_fd >= 0) {
		n = snprintf(line, sizeof(line), "latscope: probe=%s cpu=%d lat_ns=%" PRId64
			     " seq=%" PRIu64 "%s\n", name, t->cpu, lat_ns, seq,
			     stop ? " stop=1" : "");
		if (write(p->cfg.marker_fd, line, (size_t)n) == n)
			t->h.markers++;
	}
	if (!stop)
		return;
	/* First the kernel (stop tracing within microseconds), then the bookkeeping. */
	if (p->cfg.tracing_on_fd >= 0 && write(p->cfg.tracing_on_fd, "0", 1) < 0)
		(void)0;
	p->spike_ns = lat_ns;
	p->spike_cpu = t->cpu;
	p->spike_probe = name;
	if (p->cfg.notify_fd >= 0 && write(p->cfg.notify_fd, "s", 1) < 0)
		(void)0;
}

/*
 * The thread's first words, before its first wait: the analysis judges the
 * waits of a probe thread for its samples, and a sample's marker comes after
 * the wait it measured (docs/probe.md).  Not "probe=": no sample.
 */
static void start_marker(struct probe_thread *t)
{
	char line[64];
	int n;

	if (t->p->cfg.marker_fd < 0)
		return;
	n = snprintf(line, sizeof(line), "latscope: probe-start=timer cpu=%d\n", t->cpu);
	if (write(t->p->cfg.marker_fd, line, (size_t)n) != n)
		(void)0;	/* the first sample's marker marks the thread then */
}

static void *timer_main(void *arg)
{
	struct probe_thread *t = arg;
	struct rec_probes *p = t->p;
	struct sched_param sp = { .sched_priority = p->cfg.timer_prio };
	int64_t interval = p->cfg.timer_interval_ns, next, now;
	uint64_t seq = 0;

	pin(t->cpu);
	if (pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp))
		atomic_store(&p->fifo_failed, true);
	start_marker(t);
	next = now_ns() + interval;
	while (!atomic_load(&p->stop)) {
		struct timespec ts = { next / LAT_NS_PER_S, next % LAT_NS_PER_S };
		int64_t lat;

		if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
			continue;	/* EINTR: sleep again for the same deadline */
		now = now_ns();
		lat = now - next;
		rec_probe_hist_add(&t->h, lat);
		seq++;
		if (lat > p->cfg.timer_marker_ns ||
		    (p->cfg.stop_above_ns > 0 && lat > p->cfg.stop_above_ns))
			sample_event(t, "timer", lat, seq, lat > p->cfg.timer_marker_ns);
		next += interval;
		/* Missed periods are counted in the latency already; do not burst to catch up. */
		if (next <= now)
			next = now + interval;
	}
	return NULL;
}

/* Busy for a window, then sleep as long: lat3 yields in select so it never owns the CPU. */
#define GAP_WINDOW_NS (1 * LAT_NS_PER_MS)

static void *gap_main(void *arg)
{
	struct probe_thread *t = arg;
	struct rec_probes *p = t->p;
	int64_t thr = p->cfg.gap_threshold_ns;
	uint64_t seq = 0;

	pin(t->cpu);
	while (!atomic_load(&p->stop)) {
		int64_t start = now_ns(), prev = start, cur;
		struct timespec pause = { 0, GAP_WINDOW_NS };

		while ((cur = now_ns()) - start < GAP_WINDOW_NS) {
			if (cur - prev > thr) {
				seq++;
				rec_probe_hist_add(&t->h, cur - prev);
				sample_event(t, "gap", cur - prev, seq, true);
			}
			prev = cur;
		}
		nanosleep(&pause, NULL);
	}
	return NULL;
}

int rec_probes_start(const struct rec_probe_cfg *cfg, struct rec_probes **out, FILE *msg)
{
	struct rec_probes *p;
	size_t n = 0;
	int ret = 0;

	*out = NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -LAT_ENOMEM;
	p->cfg = *cfg;
	p->nthreads = (size_t)cfg->ncpus * ((cfg->timer ? 1 : 0) + (cfg->gap ? 1 : 0));
	p->t = calloc(p->nthreads ? p->nthreads : 1, sizeof(*p->t));
	if (!p->t) {
		free(p);
		return -LAT_ENOMEM;
	}
	for (int kind = 0; kind < 2; kind++) {
		bool timer = kind == 0;

		if ((timer && !cfg->timer) || (!timer && !cfg->gap))
			continue;
		for (int cpu = 0; cpu < cfg->ncpus; cpu++) {
			struct probe_thread *t = &p->t[n++];

			t->p = p;
			t->cpu = cpu;
			t->is_timer = timer;
			if (pthread_create(&t->th, NULL, timer ? timer_main : gap_main, t)) {
				ret = -LAT_ENOMEM;
				goto out;
			}
			t->started = true;
		}
	}
out:
	*out = p;
	if (ret)
		rec_probes_stop(p);
	(void)msg;
	return ret;
}

void rec_probes_stop(struct rec_probes *p)
{
	if (!p)
		return;
	atomic_store(&p->stop, true);
	for (size_t i = 0; i < p->nthreads; i++) {
		if (p->t[i].started)
			pthread_join(p->t[i].th, NULL);
		p->t[i].started = false;
	}
}

void rec_probes_free(struct rec_probes *p)
{
	if (!p)
		return;
	rec_probes_stop(p);
	free(p->t);
	free(p);
}

bool rec_probes_spike(const struct rec_probes *p, int64_t *ns, int *cpu, const char **probe)
{
	if (!p || !atomic_load(&p->spiked) || !p->spike_probe)
		return false;
	*ns = p->spike_ns;
	*cpu = p->spike_cpu;
	*probe = p->spike_probe;
	return true;
}

bool rec_probes_fifo(const struct rec_probes *p)
{
	return p && !atomic_load(&p->fifo_failed);
}

void rec_probes_summary(const struct rec_probes *p, FILE *f)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nthreads; i++) {
		const struct probe_thread *t = &p->t[i];
		const struct rec_probe_hist *h = &t->h;
		const char *sep = "";

		fprintf(f, "latscope: probe=%s cpu=%d samples=%" PRIu64 " min_ns=%" PRId64
			" avg_ns=%" PRIu64 " max_ns=%" PRId64 " markers=%" PRIu64 " hist_log2_ns=",
			t->is_timer ? "timer" : "gap", t->cpu, h->count, h->min_ns,
			h->count ? h->sum_ns / h->count : 0, h->max_ns, h->markers);
		for (int k = 0; k < REC_PROBE_BUCKETS; k++) {
			if (!h->bucket[k])
				continue;
			fprintf(f, "%s%d:%" PRIu64, sep, k, h->bucket[k]);
			sep = ",";
		}
		fputc('\n', f);
	}
}
