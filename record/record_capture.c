// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The recorder's capture: one reader thread per CPU splicing raw ring-buffer pages from the
 * instance's trace_pipe_raw into a per-CPU file, and the drain after tracing stopped.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "latscope/base.h"
#include "latscope/record.h"
#include "record_session.h"

static void *reader_main(void *arg)
{
	struct reader *rd = arg;
	int n;

	while (!atomic_load(&rd->r->stopping)) {
		n = tracefs_cpu_write(rd->tcpu, rd->out_fd, false);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n < 0) {
			rd->err = -errno;
			if (write(rd->r->wake[1], "w", 1) < 0)
				(void)0;
			return NULL;
		}
	}
	return NULL;
}

/* After tracing stopped: what is left, full pages by splice, then the partial ones by read. */
static void reader_drain(struct reader *rd)
{
	int n;

	if (rd->err || !rd->tcpu)
		return;
	do
		n = tracefs_cpu_write(rd->tcpu, rd->out_fd, true);
	while (n > 0);
	if (n < 0 && errno != EAGAIN) {
		rd->err = -errno;
		return;
	}
	do
		n = tracefs_cpu_flush_write(rd->tcpu, rd->out_fd);
	while (n > 0);
	if (n < 0 && errno != EAGAIN)
		rd->err = -errno;
}

int rec_open_readers(struct rec *r, bool threads)
{
	int page = (int)sysconf(_SC_PAGESIZE);

	r->rd = calloc((size_t)r->ncpus, sizeof(*r->rd));
	if (!r->rd)
		return -LAT_ENOMEM;
	for (int cpu = 0; cpu < r->ncpus; cpu++) {
		struct reader *rd = &r->rd[cpu];
		char file[64];

		rd->r = r;
		rd->cpu = cpu;
		rd->raw_fd = rd->out_fd = -1;
		if (asprintf(&rd->path, "%s.cpu%d", r->o->output, cpu) < 0) {
			rd->path = NULL;
			return -LAT_ENOMEM;
		}
		rd->out_fd = open(rd->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (rd->out_fd < 0) {
			fprintf(r->msg, "latscope: %s: %s\n", rd->path, strerror(errno));
			return -LAT_EIO;
		}
		snprintf(file, sizeof(file), "per_cpu/cpu%d/trace_pipe_raw", cpu);
		/* tracefs_cpu_alloc_fd() trusts the fd's own mode for "nonblock". */
		rd->raw_fd = tracefs_instance_file_open(r->inst, file, O_RDONLY | O_CLOEXEC |
							(threads ? 0 : O_NONBLOCK));
		if (rd->raw_fd < 0)
			continue;	/* an offline CPU: no data */
		rec_em_add_fd(rd->raw_fd);
		rd->tcpu = tracefs_cpu_alloc_fd(rd->raw_fd, page, !threads);
		if (!rd->tcpu)
			return -LAT_ENOMEM;
	}
	for (int cpu = 0; threads && cpu < r->ncpus; cpu++) {
		struct reader *rd = &r->rd[cpu];

		if (!rd->tcpu)
			continue;
		if (pthread_create(&rd->th, NULL, reader_main, rd))
			return -LAT_ENOMEM;
		rd->started = true;
	}
	return 0;
}

void rec_stop_readers(struct rec *r)
{
	atomic_store(&r->stopping, true);
	for (int cpu = 0; r->rd && cpu < r->ncpus; cpu++)
		if (r->rd[cpu].tcpu)
			tracefs_cpu_stop(r->rd[cpu].tcpu);
	for (int cpu = 0; r->rd && cpu < r->ncpus; cpu++) {
		struct reader *rd = &r->rd[cpu];

		if (rd->started)
			pthread_join(rd->th, NULL);
		rd->started = false;
		reader_drain(rd);
	}
}

void rec_close_readers(struct rec *r)
{
	for (int cpu = 0; r->rd && cpu < r->ncpus; cpu++) {
		struct reader *rd = &r->rd[cpu];

		if (rd->tcpu)
			tracefs_cpu_free_fd(rd->tcpu);
		rd->tcpu = NULL;
		if (rd->raw_fd >= 0)
			close(rd->raw_fd);
		rd->raw_fd = -1;
		if (rd->out_fd >= 0)
			close(rd->out_fd);
		rd->out_fd = -1;
	}
	rec_em_forget_fds();
}

void rec_free_readers(struct rec *r)
{
	rec_close_readers(r);
	for (int cpu = 0; r->rd && cpu < r->ncpus; cpu++) {
		if (r->rd[cpu].path)
			unlink(r->rd[cpu].path);
		free(r->rd[cpu].path);
	}
	free(r->rd);
	r->rd = NULL;
}
