// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The steal sampler.  On a VM the host now and then runs something else on this guest's CPUs:
 * every CPU falls silent in the trace for milliseconds and nothing inside the guest explains
 * it.  The kernel counts that time per CPU as "steal" in /proc/stat; reading it through the
 * recording and writing a marker where it grew puts the host's share next to the silence.
 *
 * Cost: one pread() of /proc/stat per interval (the file is opened once; the kernel regenerates
 * it at offset 0), by a SCHED_OTHER thread that is not pinned, so it never delays an RT task
 * and runs where the scheduler finds room.  Its timer slack is a tenth of the interval, so
 * its wake-ups ride along with other timers instead of waking an idle CPU on their own.
 * Markers are written only for a CPU whose steal or guest time changed (bench figures in
 * docs/record.md, "Steal time").
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "latscope/base.h"
#include "steal.h"

struct rec_stealer {
	struct rec_steal_cfg cfg;
	int fd;
	char *buf;
	size_t cap;
	int64_t ns_per_tick, clk_tck;
	struct lat_steal *start, *prev, *cur, *end;	/* [ncpus] each */
	int64_t prev_ns;	/* CLOCK_MONOTONIC of the last reading */
	uint64_t samples, markers;
	int64_t late_max_ns;
	pthread_t th;
	bool started, stopped;
	atomic_bool stop;
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * LAT_NS_PER_S + ts.tv_nsec;
}

int rec_stat_parse(const char *text, size_t len, struct lat_steal *cpus, int ncpus,
		       int64_t ns_per_tick)
{
	const char *p = text, *end = text + len;
	int n = 0;

	for (int i = 0; i < ncpus; i++) {
		cpus[i].cpu = -1;
		cpus[i].steal_ns = cpus[i].guest_ns = cpus[i].idle_ns = LAT_ENV_UNKNOWN;
		cpus[i].iowait_ns = cpus[i].since_ns = LAT_ENV_UNKNOWN;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		unsigned long long v[10];
		char line[512];
		int cpu, k;

		/* "cpuN user nice system idle iowait irq softirq steal guest guest_nice" */
		if (le - p > 4 && !memcmp(p, "cpu", 3) && p[3] >= '0' && p[3] <= '9' &&
		    le - p < (ptrdiff_t)sizeof(line)) {
			memcpy(line, p, (size_t)(le - p));
			line[le - p] = 0;
			k = sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
				   &cpu, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7],
				   &v[8], &v[9]);
			if (k >= 10 && cpu >= 0 && cpu < ncpus) {
				cpus[cpu].cpu = cpu;
				cpus[cpu].idle_ns = (int64_t)v[3] * ns_per_tick;
				cpus[cpu].iowait_ns = (int64_t)v[4] * ns_per_tick;
				cpus[cpu].steal_ns = (int64_t)v[7] * ns_per_tick;
				cpus[cpu].guest_ns = (int64_t)v[8] * ns_per_tick;
				n++;
			}
		}
		p = nl ? nl + 1 : end;
	}
	return n;
}

/* /proc/stat into s->cur; 0 or -errno. */
static int read_stat(struct rec_stealer *s)
{
	ssize_t n;
	char *nb;

	for (;;) {
		n = pread(s->fd, s->buf, s->cap, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if ((size_t)n < s->cap)
			break;
		/* filled: a bigger machine than the buffer; read it again whole */
		nb = realloc(s->buf, s->cap * 2);
		if (!nb)
			return -ENOMEM;
		s->buf = nb;
		s->cap *= 2;
	}
	rec_stat_parse(s->buf, (size_t)n, s->cur, s->cfg.ncpus, s->ns_per_tick);
	s->samples++;
	return 0;
}

static void marker(struct rec_stealer *s, const struct lat_steal *c, int64_t since_ns)
{
	char line[256];
	int n;

	if (s->cfg.marker_fd < 0)
		return;
	n = snprintf(line, sizeof(line), "latscope: steal cpu=%d steal_ns=%" PRId64 " guest_ns=%"
		     PRId64 " idle_ns=%" PRId64 " iowait_ns=%" PRId64, c->cpu, c->steal_ns,
		     c->guest_ns, c->idle_ns, c->iowait_ns);
	if (since_ns >= 0)
		n += snprintf(line + n, sizeof(line) - (size_t)n, " since_ns=%" PRId64, since_ns);
	line[n++] = '\n';
	if (write(s->cfg.marker_fd, line, (size_t)n) == n)
		s->markers++;
}

/* One reading: a marker per CPU whose steal or guest time changed (every CPU the first time). */
static void sample(struct rec_stealer *s, bool first)
{
	int64_t now = mono_ns();
	struct lat_steal *t;

	if (read_stat(s))
		return;
	for (int i = 0; i < s->cfg.ncpus; i++) {
		const struct lat_steal *c = &s->cur[i], *p = &s->prev[i];

		if (c->cpu < 0)
			continue;
		if (first || p->cpu < 0 || c->steal_ns != p->steal_ns || c->guest_ns != p->guest_ns)
			marker(s, c, first || p->cpu < 0 ? -1 : now - s->prev_ns);
	}
	s->prev_ns = now;
	t = s->prev;
	s->prev = s->cur;
	s->cur = t;
}

static void *sampler_main(void *arg)
{
	struct rec_stealer *s = arg;
	int64_t next = mono_ns() + s->cfg.interval_ns;

	/* its own name in the trace: its wake-ups are ours, not the workload's */
	pthread_setname_np(pthread_self(), "latscope-steal");
	/* let the kernel fold our wake-ups into other timers' (a tenth of the period) */
	prctl(PR_SET_TIMERSLACK, (unsigned long)(s->cfg.interval_ns / 10), 0, 0, 0);
	pthread_mutex_lock(&s->mu);
	while (!atomic_load(&s->stop)) {
		struct timespec ts = { next / LAT_NS_PER_S, next % LAT_NS_PER_S };
		int64_t now;

		if (pthread_cond_timedwait(&s->cv, &s->mu, &ts) != ETIMEDOUT)
			continue;	/* woken to stop (or spuriously: the loop asks) */
		now = mono_ns();
		if (now - next > s->late_max_ns)
			s->late_max_ns = now - next;
		sample(s, false);
		next += s->cfg.interval_ns;
		if (next <= now)	/* late by a period or more: no catch-up burst */
			next = now + s->cfg.interval_ns;
	}
	pthread_mutex_unlock(&s->mu);
	return NULL;
}

static int alloc_state(struct rec_stealer *s, const struct rec_steal_cfg *cfg)
{
	long tck = sysconf(_SC_CLK_TCK);
	size_t n = (size_t)(cfg->ncpus > 0 ? cfg->ncpus : 1);

	s->cfg = *cfg;
	s->fd = -1;
	s->clk_tck = tck > 0 ? tck : 100;
	s->ns_per_tick = LAT_NS_PER_S / s->clk_tck;
	s->cap = 16384;
	s->buf = malloc(s->cap);
	s->start = calloc(n, sizeof(*s->start));
	s->prev = calloc(n, sizeof(*s->prev));
	s->cur = calloc(n, sizeof(*s->cur));
	s->end = calloc(n, sizeof(*s->end));
	if (!s->buf || !s->start || !s->prev || !s->cur || !s->end)
		return -LAT_ENOMEM;
	for (size_t i = 0; i < n; i++)
		s->prev[i].cpu = s->end[i].cpu = -1;
	return 0;
}

int rec_stealer_start(const struct rec_steal_cfg *cfg, struct rec_stealer **out)
{
	struct rec_stealer *s = calloc(1, sizeof(*s));
	pthread_condattr_t ca;
	int ret;

	*out = NULL;
	if (!s)
		return -LAT_ENOMEM;
	pthread_mutex_init(&s->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->cv, &ca);
	pthread_condattr_destroy(&ca);
	ret = alloc_state(s, cfg);
	if (!ret) {
		s->fd = open(cfg->stat_path, O_RDONLY | O_CLOEXEC);
		ret = s->fd < 0 ? -LAT_EIO : 0;
	}
	if (ret) {
		rec_stealer_free(s);
		return ret;
	}
	sample(s, true);
	memcpy(s->start, s->prev, (size_t)cfg->ncpus * sizeof(*s->start));
	if (cfg->interval_ns > 0) {
		pthread_attr_t a;
		struct sched_param sp = { 0 };

		/* SCHED_OTHER whatever the caller runs at: it must never delay what it watches */
		pthread_attr_init(&a);
		pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED);
		pthread_attr_setschedpolicy(&a, SCHED_OTHER);
		pthread_attr_setschedparam(&a, &sp);
		s->started = !pthread_create(&s->th, &a, sampler_main, s);
		pthread_attr_destroy(&a);
	}
	*out = s;
	return 0;
}

void rec_stealer_stop(struct rec_stealer *s)
{
	if (!s || s->stopped)
		return;
	pthread_mutex_lock(&s->mu);
	atomic_store(&s->stop, true);
	pthread_cond_signal(&s->cv);
	pthread_mutex_unlock(&s->mu);
	if (s->started)
		pthread_join(s->th, NULL);
	s->started = false;
	s->stopped = true;
	/* the end values, without a marker: tracing is off by now */
	if (!read_stat(s))
		memcpy(s->end, s->cur, (size_t)s->cfg.ncpus * sizeof(*s->end));
}

void rec_stealer_free(struct rec_stealer *s)
{
	if (!s)
		return;
	rec_stealer_stop(s);
	if (s->fd >= 0)
		close(s->fd);
	pthread_cond_destroy(&s->cv);
	pthread_mutex_destroy(&s->mu);
	free(s->buf);
	free(s->start);
	free(s->prev);
	free(s->cur);
	free(s->end);
	free(s);
}

static void cpustat_lines(FILE *f, const char *at, const struct lat_steal *v, int n)
{
	for (int i = 0; i < n; i++)
		if (v[i].cpu >= 0)
			fprintf(f, "latscope: cpustat at=%s cpu=%d steal_ns=%" PRId64 " guest_ns=%"
				PRId64 " idle_ns=%" PRId64 " iowait_ns=%" PRId64 "\n", at, v[i].cpu,
				v[i].steal_ns, v[i].guest_ns, v[i].idle_ns, v[i].iowait_ns);
}

void rec_stealer_summary(const struct rec_stealer *s, FILE *f)
{
	if (!s)
		return;
	cpustat_lines(f, "start", s->start, s->cfg.ncpus);
	cpustat_lines(f, "end", s->end, s->cfg.ncpus);
	fprintf(f, "latscope: steal_sampler interval_ns=%" PRId64 " clk_tck=%" PRId64
		" samples=%" PRIu64 " markers=%" PRIu64 " late_max_ns=%" PRId64 "\n",
		s->cfg.interval_ns, s->clk_tck, s->samples, s->markers, s->late_max_ns);
}

void rec_stealer_say(const struct rec_stealer *s, FILE *msg)
{
	char b[32];
	int64_t total = 0;

	if (!s)
		return;
	for (int i = 0; i < s->cfg.ncpus; i++)
		if (s->start[i].cpu >= 0 && s->end[i].cpu >= 0)
			total += s->end[i].steal_ns - s->start[i].steal_ns;
	if (!total) {
		fprintf(msg, "latscope: no steal time (/proc/stat) during the recording\n");
		return;
	}
	fprintf(msg, "latscope: the host stole %s of CPU time during the recording:",
		lat_fmt_duration(total, b, sizeof(b)));
	for (int i = 0; i < s->cfg.ncpus; i++)
		if (s->start[i].cpu >= 0 && s->end[i].cpu >= 0)
			fprintf(msg, " CPU%d %s", i, lat_fmt_duration(s->end[i].steal_ns -
				s->start[i].steal_ns, b, sizeof(b)));
	fprintf(msg, " (/proc/stat, %" PRId64 " ms resolution)\n",
		(int64_t)(s->ns_per_tick / LAT_NS_PER_MS));
}
