// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * latscope record: a private tracefs instance, one reader thread per CPU splicing raw ring-buffer
 * pages into per-CPU files, optional probes writing markers, and at the end one trace.dat (v6).
 * Nothing outside the instance is written (tracefs itself is mounted if it was not, and
 * unmounted again).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "latscope/base.h"
#include "latscope/record.h"
#include "probe.h"
#include "record_env.h"
#include "record_priv.h"
#include "record_session.h"
#include "steal.h"

void lat_record_opts_init(struct lat_record_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->output = "trace.dat";
	o->timer_interval_ns = LAT_NS_PER_MS;
	o->timer_prio = 95;
	o->gap_threshold_ns = 100 * LAT_NS_PER_US;
	o->marker_threshold_ns = 200 * LAT_NS_PER_US;
	o->steal_interval_ns = 10 * LAT_NS_PER_MS;
}

static uint64_t stat_field(const char *text, const char *key)
{
	const char *p = text ? strstr(text, key) : NULL;

	return p ? strtoull(p + strlen(key), NULL, 10) : 0;
}

static void read_stats(struct rec *r)
{
	r->stats = calloc((size_t)r->ncpus, sizeof(*r->stats));
	for (int cpu = 0; r->stats && cpu < r->ncpus; cpu++) {
		char file[64];

		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
		r->stats[cpu] = tracefs_instance_file_read(r->inst, file, NULL);
	}
	r->clock = tracefs_instance_file_read(r->inst, "trace_clock", NULL);
	r->cmdlines = tracefs_instance_file_read(NULL, "saved_cmdlines", NULL);
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

/*
 * saved_tgids is only filled with the top-level record-tgid option, which we leave alone: the
 * thread-group ids of the pids in saved_cmdlines come from /proc/TGID/task/TID instead (one
 * readdir per live process, no file reads; pids that already exited are missing).
 */
static void append_tgids(FILE *f, const char *cmdlines)
{
	long *pids = NULL;
	size_t n = 0, cap = 0;
	const char *sep = "";
	struct dirent *de;
	DIR *proc;

	for (const char *p = cmdlines; p && *p; ) {
		long pid = strtol(p, NULL, 10);

		if (pid > 0 && !lat_grow(&pids, &cap, n + 1, sizeof(*pids)))
			pids[n++] = pid;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	lat_sort(pids, n, sizeof(*pids), cmp_long);
	fputs("latscope: tgids=", f);
	proc = n ? opendir("/proc") : NULL;
	while (proc && (de = readdir(proc))) {
		char path[64];
		struct dirent *te;
		long tgid = strtol(de->d_name, NULL, 10);
		DIR *task;

		if (tgid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/task", tgid);
		task = opendir(path);
		while (task && (te = readdir(task))) {
			long tid = strtol(te->d_name, NULL, 10);

			if (tid > 0 && bsearch(&tid, pids, n, sizeof(*pids), cmp_long)) {
				fprintf(f, "%s%ld:%ld", sep, tid, tgid);
				sep = ",";
			}
		}
		if (task)
			closedir(task);
	}
	if (proc)
		closedir(proc);
	fputc('\n', f);
	free(pids);
}

/*
 * CLOCK_REALTIME - trace clock, measured as tracing started (and again at the
 * stop: the two differ by the clocks' drift over the recording, or by a jump
 * of the wall clock); no line when the clock does not count ns.
 */
static void append_wallclock(FILE *f, const struct rec *r)
{
	if (!r->wall.ok)
		return;
	fprintf(f, "latscope: wallclock realtime_offset_ns=%" PRId64 " error_ns=%" PRId64,
		r->wall.offset_ns, r->wall.error_ns);
	if (r->wall_end.ok)
		fprintf(f, " end_offset_ns=%" PRId64 " end_error_ns=%" PRId64,
			r->wall_end.offset_ns, r->wall_end.error_ns);
	fputc('\n', f);
}

static void probes_desc(const struct lat_record_opts *o, FILE *f, bool fifo)
{
	fprintf(f, "latscope: version=%s cmdline=\"%s\" events=%s%s", LATSCOPE_VERSION,
		o->cmdline ? o->cmdline : "", "sched", o->irq ? ",irq" : "");
	if (o->timer_detail)
		fputs(",timer-detail", f);
	if (o->top_markers)
		fputs(",top-markers", f);
	for (size_t i = 0; i < o->nevents; i++)
		fprintf(f, ",%s", o->events[i]);
	fprintf(f, " stacks=%d buffer_kb=%u", o->stacks, o->buffer_kb);
	if (o->probe_timer)
		fprintf(f, " probe=timer interval_ns=%" PRId64 " prio=%d policy=%s marker_ns=%"
			PRId64, o->timer_interval_ns, o->timer_prio, fifo ? "fifo" : "other",
			o->marker_threshold_ns);
	if (o->probe_gap)
		fprintf(f, " probe=gap threshold_ns=%" PRId64, o->gap_threshold_ns);
	if (o->stop_above_ns > 0)
		fprintf(f, " stop_above_ns=%" PRId64, o->stop_above_ns);
	fputc('\n', f);
}

/* Builds the options and writes the rest of the file. */
static int finish_file(struct rec *r, bool *readable, struct lat_record_result *res)
{
	struct tdw_option opts[LAT_REC_MAX_CPUS + 8];
	char **texts = NULL;
	char *meta = NULL, *cmdlines = r->cmdlines, *clock = r->clock;
	size_t nopt = 0, meta_len = 0, cl_len = 0;
	const char **paths;
	struct utsname u;
	char uname_buf[5 * 65 + 8];
	static const char version[] = "latscope " LATSCOPE_VERSION;
	FILE *mf;
	int ret;

	paths = calloc((size_t)r->ncpus, sizeof(*paths));
	texts = calloc((size_t)r->ncpus, sizeof(*texts));
	if (!paths || !texts) {
		ret = -ENOMEM;
		goto out;
	}
	cl_len = cmdlines ? strlen(cmdlines) : 0;
	if (!uname(&u)) {
		snprintf(uname_buf, sizeof(uname_buf), "%s %s %s %s %s", u.sysname, u.nodename,
			 u.release, u.version, u.machine);
		opts[nopt++] = (struct tdw_option){ TDW_OPT_UNAME, uname_buf,
							(uint32_t)strlen(uname_buf) + 1 };
	}
	opts[nopt++] = (struct tdw_option){ TDW_OPT_VERSION, version, sizeof(version) };
	if (clock)
		opts[nopt++] = (struct tdw_option){ TDW_OPT_TRACECLOCK, clock,
							(uint32_t)strlen(clock) + 1 };
	for (int cpu = 0; cpu < r->ncpus; cpu++) {
		uint64_t over = stat_field(r->stats ? r->stats[cpu] : NULL, "overrun: ");
		uint64_t drop = stat_field(r->stats ? r->stats[cpu] : NULL, "dropped events: ");

		paths[cpu] = r->rd ? r->rd[cpu].path : NULL;
		res->events_total += stat_field(r->stats ? r->stats[cpu] : NULL, "read events: ");
		res->lost_total += over + drop;
		if (asprintf(&texts[cpu], "CPU: %d\n%s", cpu,
			     r->stats && r->stats[cpu] ? r->stats[cpu] : "") < 0) {
			texts[cpu] = NULL;
			continue;
		}
		opts[nopt++] = (struct tdw_option){ TDW_OPT_CPUSTAT, texts[cpu],
							(uint32_t)strlen(texts[cpu]) + 1 };
	}
	/* latscope's own metadata rides in one more CPUSTAT: trace-cmd --stat prints it. */
	mf = open_memstream(&meta, &meta_len);
	if (mf) {
		probes_desc(r->o, mf, rec_probes_fifo(r->probes));
		rec_probes_summary(r->probes, mf);
		append_tgids(mf, cmdlines);
		if (r->env)
			fputs(r->env, mf);
		rec_stealer_summary(r->stealer, mf);
		append_wallclock(mf, r);
		fclose(mf);
		opts[nopt++] = (struct tdw_option){ TDW_OPT_CPUSTAT, meta,
							(uint32_t)meta_len + 1 };
	}
	{
		struct rec_tail t = {
			.cmdlines = cmdlines ? cmdlines : "", .cmdlines_len = cl_len,
			.ncpus = (uint32_t)r->ncpus, .opts = opts, .nopts = nopt,
			.cpu_paths = paths,
		};

		ret = rec_file_finish(&r->file, &t, readable);
	}
out:
	for (int cpu = 0; texts && cpu < r->ncpus; cpu++)
		free(texts[cpu]);
	free(texts);
	free(paths);
	free(meta);
	return ret;
}

static pid_t start_command(struct rec *r, int *go_fd)
{
	int go[2];
	pid_t pid;

	if (pipe2(go, O_CLOEXEC) < 0)
		return -1;
	pid = fork();
	if (pid < 0) {
		close(go[0]);
		close(go[1]);
		return -1;
	}
	if (pid == 0) {
		sigset_t none;
		char c;

		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		close(go[1]);
		/* Wait until tracing is on, so the command's first events are in the file. */
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(r->o->command[0], r->o->command);
		fprintf(stderr, "latscope: cannot run %s: %s\n", r->o->command[0],
			strerror(errno));
		_exit(127);
	}
	close(go[0]);
	*go_fd = go[1];
	return pid;
}

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * LAT_NS_PER_S + ts.tv_nsec;
}

/* Waits for the end: duration, signal, command exit, spike or a reader's write error. */
static enum lat_record_end wait_for_end(struct rec *r)
{
	int64_t deadline = r->o->duration_ns > 0 ? mono_ns() + r->o->duration_ns : 0;

	for (;;) {
		struct pollfd pfd = { r->wake[0], POLLIN, 0 };
		int timeout = -1;
		char c;

		if (rec_em_signals())
			return LAT_REC_END_SIGNAL;
		if (r->child > 0 && !r->child_done &&
		    waitpid(r->child, &r->child_status, WNOHANG) == r->child) {
			r->child_done = true;
			return LAT_REC_END_COMMAND;
		}
		for (int cpu = 0; cpu < r->ncpus; cpu++)
			if (r->rd && r->rd[cpu].err)
				return LAT_REC_END_WRITE_ERROR;
		if (deadline) {
			int64_t left = deadline - mono_ns();

			if (left <= 0)
				return LAT_REC_END_DURATION;
			timeout = (int)((left + LAT_NS_PER_MS - 1) / LAT_NS_PER_MS);
		}
		if (poll(&pfd, 1, timeout) > 0 && read(r->wake[0], &c, 1) == 1 && c == 's')
			return LAT_REC_END_SPIKE;
	}
}

static void print_summary(struct rec *r, const struct lat_record_result *res)
{
	for (int cpu = 0; r->stats && cpu < r->ncpus; cpu++) {
		uint64_t over = stat_field(r->stats[cpu], "overrun: ");
		uint64_t drop = stat_field(r->stats[cpu], "dropped events: ");

		if (over || drop)
			fprintf(r->msg, "latscope: CPU%d lost events: overrun %" PRIu64
				", dropped %" PRIu64 "\n", cpu, over, drop);
	}
	if (!res->lost_total)
		fprintf(r->msg, "latscope: no events lost in the kernel buffers\n");
	else if (r->o->stop_above_ns > 0)
		fprintf(r->msg, "latscope: (flight recorder: overrun = older events overwritten "
			"on purpose)\n");
}

static void free_rec(struct rec *r)
{
	for (size_t i = 0; i < r->nsystems; i++)
		free(r->systems[i]);
	free(r->systems);
	for (size_t i = 0; i < r->nenabled; i++)
		free(r->enabled[i]);
	free(r->enabled);
	for (int cpu = 0; r->stats && cpu < r->ncpus; cpu++)
		free(r->stats[cpu]);
	free(r->stats);
	free(r->clock);
	free(r->cmdlines);
	free(r->env);
	if (r->wake[0] >= 0)
		close(r->wake[0]);
	if (r->wake[1] >= 0)
		close(r->wake[1]);
}

static const char *end_name(enum lat_record_end e)
{
	switch (e) {
	case LAT_REC_END_DURATION: return "the duration ended";
	case LAT_REC_END_SIGNAL: return "stopped by a signal";
	case LAT_REC_END_COMMAND: return "the command exited";
	case LAT_REC_END_SPIKE: return "a probe sample crossed --stop-above";
	case LAT_REC_END_WRITE_ERROR: return "a write error";
	}
	return "?";
}

/* The instance's sub-buffer must be the page size: trace.dat v6 has one size for both. */
static int check_subbuf(struct rec *r)
{
	char *sb = tracefs_instance_file_read(r->inst, "buffer_subbuf_size_kb", NULL);
	int ret = 0;

	if (sb && strtol(sb, NULL, 10) * 1024 != sysconf(_SC_PAGESIZE)) {
		fprintf(r->msg, "latscope: sub-buffer of %s KB differs from the page size: "
			"not supported by trace.dat v6\n", sb);
		ret = -LAT_EFORMAT;
	}
	free(sb);
	return ret;
}

/* The environment lines of the metadata (record_env.c), read before tracing starts. */
static void read_env(struct rec *r)
{
	struct rec_env_in in = { .root = "", .release = "", .version = "", .live = true };
	struct utsname u;
	size_t len = 0;
	FILE *f = open_memstream(&r->env, &len);

	if (!uname(&u)) {
		in.release = u.release;
		in.version = u.version;
	}
	if (!f)
		return;
	rec_env_write(&in, f, r->msg);
	fclose(f);
}

/* The instance, the file's header and the instance's tracing_on and trace_marker fds. */
static int prepare(struct rec *r, struct lat_record_result *res)
{
	const struct lat_record_opts *o = r->o;
	int ret = rec_setup_instance(r);

	if (!ret)
		ret = check_subbuf(r);
	if (ret)
		return ret;
	read_env(r);
	rec_em_output(o->output);
	/*
	 * kallsyms (large, and reading it is most of a short recording's CPU) only turns
	 * kernel addresses into names: kernel stacks, the ip of our probes' markers, and
	 * whatever an extra -e event prints with %pS.  The scheduler and irq events carry none.
	 */
	ret = rec_file_begin(&r->file, o->output, r->tdir, (const char *const *)r->systems,
				 r->nsystems, o->stacks || o->probe_timer || o->probe_gap ||
				 o->nevents > 0 || o->timer_detail, r->msg);
	if (ret) {
		fprintf(r->msg, "latscope: %s: %s\n", o->output, lat_strerror(ret));
		rec_em_output(NULL);
		res->write_err = ret;
		return -LAT_EIO;
	}
	r->file_open = true;
	r->tracing_on_fd = tracefs_instance_file_open(r->inst, "tracing_on", O_WRONLY | O_CLOEXEC);
	r->marker_fd = tracefs_instance_file_open(r->inst, "trace_marker", O_WRONLY | O_CLOEXEC);
	if (r->tracing_on_fd < 0 || r->marker_fd < 0) {
		fprintf(r->msg, "latscope: opening tracing_on/trace_marker of %s refused: %s\n",
			r->inst_name, strerror(errno));
		return -LAT_EPERM;
	}
	rec_em_tracing_on(r->tracing_on_fd);
	rec_em_add_fd(r->tracing_on_fd);
	rec_em_add_fd(r->marker_fd);
	return 0;
}

/* Steal time through the recording (steal.c); a recording goes on without it. */
static void start_stealer(struct rec *r)
{
	struct rec_steal_cfg sc = {
		.ncpus = r->ncpus, .marker_fd = r->marker_fd,
		.interval_ns = r->o->steal_interval_ns, .stat_path = "/proc/stat",
	};
	int ret = rec_stealer_start(&sc, &r->stealer);

	if (ret)
		fprintf(r->msg, "latscope: /proc/stat: %s: no steal time in this recording\n",
			lat_strerror(ret));
}

/*
 * Readers, the command, tracing on, the probes: with our signals blocked, so that the worker
 * threads inherit a mask without them (only this thread handles them).  *@go_fd: the pipe
 * that lets the command run.
 */
static int start(struct rec *r, int *go_fd)
{
	const struct lat_record_opts *o = r->o;
	sigset_t block, old_mask;
	int ret;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGCHLD);
	pthread_sigmask(SIG_BLOCK, &block, &old_mask);
	ret = rec_open_readers(r, o->stop_above_ns <= 0);
	if (!ret && o->command) {
		r->child = start_command(r, go_fd);
		if (r->child < 0) {
			fprintf(r->msg, "latscope: fork: %s\n", strerror(errno));
			ret = -LAT_EIO;
		}
	}
	if (!ret && tracefs_trace_on(r->inst) < 0) {
		fprintf(r->msg, "latscope: turning tracing on refused: %s\n", strerror(errno));
		ret = -LAT_EPERM;
	}
	if (!ret)
		rec_wallclock(r, &r->wall);
	if (!ret && (o->probe_timer || o->probe_gap)) {
		struct rec_probe_cfg pc = {
			.ncpus = r->ncpus, .marker_fd = r->marker_fd,
			.tracing_on_fd = r->tracing_on_fd, .notify_fd = r->wake[1],
			.timer = o->probe_timer, .timer_interval_ns = o->timer_interval_ns,
			.timer_prio = o->timer_prio, .timer_marker_ns = o->marker_threshold_ns,
			.gap = o->probe_gap, .gap_threshold_ns = o->gap_threshold_ns,
			.stop_above_ns = o->stop_above_ns,
		};

		ret = rec_probes_start(&pc, &r->probes, r->msg);
	}
	if (!ret)
		start_stealer(r);
	pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
	return ret;
}

/* Says that the recording runs (and a refused SCHED_FIFO once), then waits for its end. */
static void record(struct rec *r, struct lat_record_result *res)
{
	const struct lat_record_opts *o = r->o;

	if (r->probes && o->probe_timer) {
		struct timespec ts = { 0, 20 * 1000 * 1000 };

		/* The threads set their policy as they start; report a fallback once. */
		nanosleep(&ts, NULL);
		if (!rec_probes_fifo(r->probes))
			fprintf(r->msg, "latscope: SCHED_FIFO %d refused, timer probe runs "
				"SCHED_OTHER\n", o->timer_prio);
	}
	fprintf(r->msg, "latscope: recording %d CPUs into %s (instance %s)%s\n", r->ncpus,
		o->output, r->inst_name, o->stop_above_ns > 0 ? ", flight recorder" : "");
	res->end = wait_for_end(r);
}

/*
 * Stopped for another reason than the command's exit: the command is not part of what we
 * record any more.  It gets the signal that stopped us (else SIGTERM); one that outlives it
 * while another signal arrives (the user's second Ctrl-C) is killed, so that the file is
 * written now.
 */
static void end_command(struct rec *r, struct lat_record_result *res)
{
	/* the signals before the one that asks for the kill (1: the one that stopped us) */
	int seen = res->end == LAT_REC_END_SIGNAL ? 1 : rec_em_signals();
	bool killed = false;

	kill(r->child, res->end == LAT_REC_END_SIGNAL ? rec_em_last_signal() : SIGTERM);
	for (;;) {
		struct pollfd pfd = { r->wake[0], POLLIN, 0 };
		pid_t got = waitpid(r->child, &r->child_status, WNOHANG);
		char c;

		if (got == r->child) {
			r->child_done = true;
			return;
		}
		if (got < 0 && errno != EINTR)
			return;
		if (!killed && rec_em_signals() > seen) {
			kill(r->child, SIGKILL);
			killed = true;
		}
		/* SIGCHLD and our signals write to the wake pipe */
		if (poll(&pfd, 1, 100) > 0)
			while (read(r->wake[0], &c, 1) == 1)
				;
	}
}

/*
 * Stops the kernel first (so that what we stop is what the file holds), then the probes, the
 * command and the readers; reads the stats and removes the instance.
 */
static void stop(struct rec *r, struct lat_record_result *res)
{
	if (r->tracing_on_fd >= 0 && write(r->tracing_on_fd, "0", 1) < 0)
		(void)0;
	if (r->inst)
		rec_wallclock(r, &r->wall_end);
	rec_probes_stop(r->probes);
	rec_stealer_stop(r->stealer);
	if (res->end == LAT_REC_END_SPIKE)
		rec_probes_spike(r->probes, &res->spike_ns, &res->spike_cpu, &res->spike_probe);
	if (r->child > 0 && !r->child_done)
		end_command(r, res);
	if (r->child_done)
		res->cmd_status = r->child_status;
	if (r->rd)
		rec_stop_readers(r);
	for (int cpu = 0; r->rd && cpu < r->ncpus; cpu++)
		if (r->rd[cpu].err && !res->write_err)
			res->write_err = r->rd[cpu].err;
	if (r->inst)
		read_stats(r);
	rec_close_readers(r);
	/* forgotten by the signal handler before its number can be reused */
	rec_em_tracing_on(-1);
	if (r->tracing_on_fd >= 0)
		close(r->tracing_on_fd);
	if (r->marker_fd >= 0)
		close(r->marker_fd);
	r->tracing_on_fd = r->marker_fd = -1;
	/* The kernel side is done: remove the instance before the (longer) file assembly. */
	rec_teardown_instance(r);
}

/* Writes the rest of the file and says how the recording went; true when it is readable. */
static bool finish(struct rec *r, struct lat_record_result *res)
{
	const struct lat_record_opts *o = r->o;
	bool readable = false;
	int wret = finish_file(r, &readable, res);

	if (wret && !res->write_err)
		res->write_err = wret;
	if (res->write_err) {
		res->end = res->end == LAT_REC_END_SPIKE ? res->end : LAT_REC_END_WRITE_ERROR;
		fprintf(r->msg, "latscope: %s: write error: %s; %s\n", o->output,
			lat_strerror(res->write_err), readable ?
			"the file holds the pages written before it (trace-cmd reads it)" :
			"no readable file could be written");
	}
	fprintf(r->msg, "latscope: stopped: %s; %" PRIu64 " events read from the buffers%s\n",
		end_name(res->end), res->events_total, res->write_err ?
		" (the file keeps only the pages that fit)" : "");
	print_summary(r, res);
	rec_stealer_say(r->stealer, r->msg);
	/* The same per-CPU probe lines the file stores (--stat shows them too). */
	rec_probes_summary(r->probes, r->msg);
	if (res->end == LAT_REC_END_SPIKE && res->spike_probe) {
		char b[32], above[32];

		fprintf(r->msg, "latscope: spike: probe=%s cpu=%d lat=%s (lat_ns=%" PRId64
			") above %s\n", res->spike_probe, res->spike_cpu,
			lat_fmt_duration(res->spike_ns, b, sizeof(b)), res->spike_ns,
			lat_fmt_duration(o->stop_above_ns, above, sizeof(above)));
	}
	return readable;
}

int lat_record_run(const struct lat_record_opts *o, struct lat_record_result *res)
{
	struct rec rr = { .o = o, .wake = { -1, -1 }, .child = -1, .tracing_on_fd = -1,
			  .marker_fd = -1 };
	struct rec *r = &rr;
	bool readable = false;
	int go_fd = -1, ret;

	memset(res, 0, sizeof(*res));
	r->msg = o->msg ? o->msg : stderr;
	r->ncpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	if (r->ncpus < 1 || r->ncpus > LAT_REC_MAX_CPUS) {
		fprintf(r->msg, "latscope: %d CPUs: not supported\n", r->ncpus);
		return -LAT_ELIMIT;
	}
	if (pipe2(r->wake, O_CLOEXEC | O_NONBLOCK) < 0)
		return -LAT_EIO;
	rec_em_begin(r->ncpus, r->wake[1]);
	ret = prepare(r, res);
	if (ret)
		goto out;
	ret = start(r, &go_fd);
	if (go_fd >= 0) {
		if (!ret && write(go_fd, "g", 1) < 0)
			(void)0;
		close(go_fd);	/* without a byte the child exits 127 */
	}
	if (!ret)
		record(r, res);
	stop(r, res);
	if (ret) {
		fprintf(r->msg, "latscope: recording failed: %s\n", lat_strerror(ret));
		goto out;
	}
	readable = finish(r, res);
	/* complete: a late third signal must not remove it */
	if (readable)
		rec_em_output_complete();
	ret = readable ? 0 : -LAT_EIO;
out:
	rec_teardown_instance(r);
	rec_probes_free(r->probes);
	rec_stealer_free(r->stealer);
	rec_free_readers(r);
	if (r->file_open)
		rec_file_close(&r->file, !readable);
	if (r->tracing_on_fd >= 0)
		close(r->tracing_on_fd);
	if (r->marker_fd >= 0)
		close(r->marker_fd);
	rec_em_end();
	free_rec(r);
	return ret;
}
