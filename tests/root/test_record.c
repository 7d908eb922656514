// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * latscope record on the real kernel (root + tracefs), with the real trace-cmd as the oracle.
 * Every test also checks that the top-level tracefs state is byte-identical afterwards and that
 * the recorder it started left no instance behind: only its own instances/latscope-PID, since
 * other recordings (other users, other test suites) may run on the machine at the same time.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#define TDIR "/sys/kernel/tracing"

/* Top-level settings a recorder could disturb; the recorder must leave all of them alone. */
static const char *const watched[] = {
	"tracing_on", "buffer_size_kb", "trace_clock", "current_tracer", "set_event",
	"tracing_cpumask", "trace_options", "set_event_pid", "set_ftrace_filter",
	"set_ftrace_notrace", "set_ftrace_pid", "tracing_thresh", "buffer_percent",
	"timestamp_mode", "saved_cmdlines_size", "error_log", "options/overwrite",
	"options/record-tgid", "events/enable", "events/sched/enable",
	"events/sched/sched_switch/enable", "events/sched/sched_switch/trigger",
	"events/sched/sched_waking/trigger", "events/sched/sched_switch/filter",
	"events/irq/enable", "dynamic_events", "/proc/sys/kernel/ftrace_enabled",
};

struct ctx {
	char dir[64];
	bool mounted;
	char *before;
	pid_t rec_pid;	/* the recorder this test started (its instance is latscope-PID) */
};

static char *read_file(const char *path, size_t *len_out)
{
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap + 1);
	int fd = open(path, O_RDONLY | O_NONBLOCK);
	ssize_t n;

	if (fd < 0 || !buf) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while ((n = read(fd, buf + len, cap - len)) > 0) {
		len += (size_t)n;
		if (len == cap) {
			cap *= 2;
			buf = realloc(buf, cap + 1);
			assert_non_null(buf);
		}
	}
	close(fd);
	buf[len] = 0;
	if (len_out)
		*len_out = len;
	return buf;
}

static char *snapshot(void)
{
	char *out = NULL, path[256];
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	for (size_t i = 0; i < sizeof(watched) / sizeof(watched[0]); i++) {
		char *c;

		if (watched[i][0] == '/')
			snprintf(path, sizeof(path), "%s", watched[i]);
		else
			snprintf(path, sizeof(path), TDIR "/%s", watched[i]);
		c = read_file(path, NULL);
		fprintf(f, "== %s\n%s\n", watched[i], c ? c : "(unreadable)");
		free(c);
	}
	fclose(f);
	return out;
}

/* Does the instance the recorder of pid @pid creates (latscope-PID, record_instance.c) exist? */
static bool own_instance_exists(pid_t pid)
{
	char path[128];
	struct stat st;

	snprintf(path, sizeof(path), TDIR "/instances/latscope-%d", (int)pid);
	return stat(path, &st) == 0;
}

/*
 * Waits up to 5 s for the recorder @pid to create its instance: proves that the instance the
 * tests check for is the one it makes (a check of a name it never uses could not fail).
 */
static void wait_own_instance(pid_t pid)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };

	for (int i = 0; i < 500 && !own_instance_exists(pid); i++)
		nanosleep(&ts, NULL);
	assert_true(own_instance_exists(pid));
}

static bool tracefs_mounted(void)
{
	char *m = read_file("/proc/mounts", NULL);
	bool yes = m && strstr(m, " tracefs ");

	free(m);
	return yes;
}

static int setup(void **state)
{
	struct ctx *c = calloc(1, sizeof(*c));

	if (!c)
		return -1;
	if (geteuid() != 0) {
		fprintf(stderr, "root tests need root\n");
		free(c);
		return -1;
	}
	if (!tracefs_mounted()) {
		if (mount("nodev", TDIR, "tracefs", 0, NULL)) {
			free(c);
			return -1;
		}
		c->mounted = true;
	}
	strcpy(c->dir, "/tmp/latscope-rec-XXXXXX");
	if (!mkdtemp(c->dir)) {
		free(c);
		return -1;
	}
	c->before = snapshot();
	*state = c;
	return 0;
}

static int teardown(void **state)
{
	struct ctx *c = *state;
	char cmd[128];

	free(c->before);
	/* a test that failed before its own umount leaves no tmpfs behind */
	snprintf(cmd, sizeof(cmd), "%s/small", c->dir);
	umount2(cmd, MNT_DETACH);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", c->dir);
	if (system(cmd))
		(void)0;
	if (c->mounted)
		umount2(TDIR, MNT_DETACH);
	free(c);
	return 0;
}

/* After each test: the recorder it started left nothing behind, nothing changed. */
static void check_clean(struct ctx *c)
{
	char *after = snapshot();

	assert_true(c->rec_pid > 0);
	if (own_instance_exists(c->rec_pid))
		fprintf(stderr, "instance left: latscope-%d\n", (int)c->rec_pid);
	assert_false(own_instance_exists(c->rec_pid));
	assert_string_equal(after, c->before);
	free(after);
}

static int run(const char *cmd)
{
	int st = system(cmd);

	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/*
 * Runs @cmd, a command line that starts with the recorder (or with setpriv, which execs it),
 * and keeps the recorder's pid in c->rec_pid: the shell writes its own pid, then execs the
 * command in its place, so the recorder has that pid.
 */
static int run_rec(struct ctx *c, const char *cmd)
{
	char sh[1024], pidf[128];
	char *pid;
	int rc;

	snprintf(pidf, sizeof(pidf), "%s/rec.pid", c->dir);
	snprintf(sh, sizeof(sh), "echo $$ >%s && exec %s", pidf, cmd);
	rc = run(sh);
	pid = read_file(pidf, NULL);
	assert_non_null(pid);
	c->rec_pid = (pid_t)atoi(pid);
	free(pid);
	return rc;
}

/* trace-cmd report must read the file with an empty stderr; returns stdout. */
static char *report(struct ctx *c, const char *file, const char *flags)
{
	char cmd[512], out[128], err[128];
	char *errtext, *text;

	snprintf(out, sizeof(out), "%s/report.out", c->dir);
	snprintf(err, sizeof(err), "%s/report.err", c->dir);
	snprintf(cmd, sizeof(cmd), "trace-cmd report %s %s >%s 2>%s", flags, file, out, err);
	assert_int_equal(run(cmd), 0);
	errtext = read_file(err, NULL);
	assert_non_null(errtext);
	if (errtext[0])
		fprintf(stderr, "trace-cmd said: %s\n", errtext);
	assert_string_equal(errtext, "");
	free(errtext);
	text = read_file(out, NULL);
	assert_non_null(text);
	return text;
}

/* Events of type @name in a report ("   12.345678: name:"). */
static unsigned count_type(const char *rep, const char *name)
{
	char key[64];
	unsigned n = 0;

	snprintf(key, sizeof(key), ": %s:", name);
	for (const char *p = rep; (p = strstr(p, key)); p++)
		n++;
	return n;
}

static unsigned count_str(const char *rep, const char *s)
{
	unsigned n = 0;

	for (const char *p = rep; (p = strstr(p, s)); p++)
		n++;
	return n;
}

/* Sum of "read events: N" over the CPU stats that --stat shows. */
static uint64_t stat_read_events(const char *st)
{
	uint64_t sum = 0;

	for (const char *p = st; (p = strstr(p, "read events: ")); p++)
		sum += strtoull(p + 13, NULL, 10);
	return sum;
}

static unsigned event_lines(const char *rep)
{
	unsigned n = 0;

	/*
	 * An event line is "comm-pid [CPU] SECONDS: name: ...": its first '[' opens a CPU
	 * number followed by "] " and a timestamp.  Stack lines ("=> fn") have no '['.
	 */
	for (const char *line = rep; line && *line; ) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		const char *b = memchr(line, '[', len);

		if (b && b[1] >= '0' && b[1] <= '9') {
			const char *e = b + 1;

			while (*e >= '0' && *e <= '9')
				e++;
			if (e[0] == ']' && e[1] == ' ')
				n++;
		}
		line = nl ? nl + 1 : NULL;
	}
	return n;
}

/*
 * Ten rounds of fork (pipe) / exec / sleep.  The machine is shared, so the programs are copies
 * with names no one else runs: per round one exec of each, exactly 10 (by construction: the
 * loop runs each once per round; checked with strace -f -e execve).
 */
#define WORKLOAD "sh -c 'for i in 1 2 3 4 5 6 7 8 9 10; do echo x | %s/lscat >/dev/null; " \
		 "%s/lssleep 0.1; done; exit 7'"

static void test_workload_events_and_markers(void **state)
{
	struct ctx *c = *state;
	char cmd[512], file[128];
	char *rep, *st;
	unsigned markers = 0, parsed = 0, stack_lines;
	const char *p;

	snprintf(file, sizeof(file), "%s/w.dat", c->dir);
	snprintf(cmd, sizeof(cmd), "cp /usr/bin/cat %s/lscat && cp /usr/bin/sleep %s/lssleep",
		 c->dir, c->dir);
	assert_int_equal(run(cmd), 0);
	snprintf(cmd, sizeof(cmd), "%s record -o %s --stacks --probe timer --marker-above 1us "
		 "-- " WORKLOAD, LATSCOPE_BIN, file, c->dir, c->dir);
	assert_int_equal(run_rec(c, cmd), 7);	/* the command's own status */
	check_clean(c);
	rep = report(c, file, "");
	st = report(c, file, "--stat");
	snprintf(cmd, sizeof(cmd), "filename=%s/lscat ", c->dir);
	assert_int_equal(count_str(rep, cmd), 10);
	snprintf(cmd, sizeof(cmd), "filename=%s/lssleep ", c->dir);
	assert_int_equal(count_str(rep, cmd), 10);
	assert_true(count_type(rep, "sched_process_fork") >= 20);
	assert_true(count_type(rep, "sched_process_exit") >= 20);
	assert_true(count_type(rep, "sched_switch") > 0);
	assert_true(count_type(rep, "sched_waking") > 0);
	assert_true(count_type(rep, "sched_wakeup") > 0);
	assert_true(count_type(rep, "sched_wakeup_new") >= 20);
	/* The file holds exactly what the kernel says was read out of the buffers. */
	assert_int_equal(event_lines(rep), stat_read_events(st));
	/* --stacks: a kernel stack after the switches. */
	stack_lines = count_type(rep, "kernel_stack");
	assert_true(stack_lines > 0);
	/* Markers: one parseable line per sample above 1 us, as many as the summary counts. */
	for (p = rep; (p = strstr(p, "latscope: probe=timer ")); p++) {
		int cpu;
		long long lat;
		unsigned long long seq;

		markers++;
		if (sscanf(p, "latscope: probe=timer cpu=%d lat_ns=%lld seq=%llu", &cpu, &lat,
			   &seq) == 3 && cpu >= 0 && lat > 1000 && seq > 0)
			parsed++;
	}
	assert_true(markers > 0);
	assert_int_equal(parsed, markers);
	{
		unsigned long long sum = 0;

		for (p = st; (p = strstr(p, "latscope: probe=timer cpu=")); p++) {
			const char *m = strstr(p, " markers=");

			assert_non_null(m);
			sum += strtoull(m + 9, NULL, 10);
		}
		assert_int_equal(sum, markers);
	}
	/* each timer thread's start line, one per CPU with a summary (docs/probe.md) */
	assert_int_equal(count_str(rep, "latscope: probe-start=timer cpu="),
			 count_str(st, "latscope: probe=timer cpu="));
	assert_non_null(strstr(st, "latscope: version="));
	assert_non_null(strstr(st, "CPU: 0\n"));
	free(rep);
	free(st);
}

static void test_sigint_mid_run(void **state)
{
	struct ctx *c = *state;
	char file[128];
	struct timespec ts = { 0, 700 * 1000 * 1000 };
	int status;
	pid_t pid;
	char *rep;

	snprintf(file, sizeof(file), "%s/int.dat", c->dir);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		execl(LATSCOPE_BIN, "latscope", "record", "-o", file, "-d", "60s", "--irq",
		      (char *)NULL);
		_exit(127);
	}
	c->rec_pid = pid;
	wait_own_instance(pid);
	nanosleep(&ts, NULL);
	kill(pid, SIGINT);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	check_clean(c);
	rep = report(c, file, "");
	assert_true(event_lines(rep) > 0);
	free(rep);
}

static void test_disk_full(void **state)
{
	struct ctx *c = *state;
	char mnt[128], file[160], cmd[512], errf[160];
	char *rep, *err;
	int rc;

	snprintf(mnt, sizeof(mnt), "%s/small", c->dir);
	assert_int_equal(mkdir(mnt, 0755), 0);
	assert_int_equal(mount("tmpfs", mnt, "tmpfs", 0, "size=300k"), 0);
	snprintf(file, sizeof(file), "%s/full.dat", mnt);
	snprintf(errf, sizeof(errf), "%s/full.err", c->dir);
	snprintf(cmd, sizeof(cmd), "%s record -o %s --irq -- sh -c 'for i in $(seq 400); do "
		 "/bin/true; done' 2>%s", LATSCOPE_BIN, file, errf);
	rc = run_rec(c, cmd);
	err = read_file(errf, NULL);
	assert_non_null(err);
	assert_int_equal(rc, 1);
	assert_non_null(strstr(err, "No space left on device"));
	assert_non_null(strstr(err, "trace-cmd reads it"));
	check_clean(c);
	rep = report(c, file, "");
	assert_true(event_lines(rep) > 0);
	/* No per-CPU leftovers beside the file. */
	snprintf(cmd, sizeof(cmd), "test ! -e %s.cpu0 && test ! -e %s.cpu1", file, file);
	assert_int_equal(run(cmd), 0);
	free(rep);
	free(err);
	umount2(mnt, MNT_DETACH);
}

static void test_stop_above(void **state)
{
	struct ctx *c = *state;
	char file[128], cmd[512], errf[160];
	char *rep, *err, *last;

	snprintf(file, sizeof(file), "%s/spike.dat", c->dir);
	snprintf(errf, sizeof(errf), "%s/spike.err", c->dir);
	/* Every wake-up is later than 1 us: the first sample trips it. */
	snprintf(cmd, sizeof(cmd), "%s record -o %s --probe timer --stop-above 1us -d 30s 2>%s",
		 LATSCOPE_BIN, file, errf);
	assert_int_equal(run_rec(c, cmd), 0);
	check_clean(c);
	err = read_file(errf, NULL);
	assert_non_null(strstr(err, "latscope: spike: probe=timer"));
	rep = report(c, file, "");
	/*
	 * The thread that wrote the stop marker turned tracing off before its next sample, so no
	 * later marker of its CPU is in the file (the other CPU's thread may have written one in
	 * the microseconds before tracing went off: that is allowed).
	 */
	last = strstr(rep, " stop=1");
	assert_non_null(last);
	while (last > rep && strncmp(last, "latscope: probe=timer cpu=", 26))
		last--;
	{
		char key[64];

		snprintf(key, sizeof(key), "latscope: probe=timer cpu=%d ", atoi(last + 26));
		assert_null(strstr(last + 1, key));
	}
	free(rep);
	free(err);
}

static void test_not_root(void **state)
{
	struct ctx *c = *state;
	char file[128], errf[128], cmd[512];
	char *err;

	snprintf(file, sizeof(file), "%s/nobody.dat", c->dir);
	snprintf(errf, sizeof(errf), "%s/nobody.err", c->dir);
	assert_int_equal(chmod(c->dir, 0777), 0);
	snprintf(cmd, sizeof(cmd), "setpriv --reuid=65534 --regid=65534 --clear-groups "
		 "%s record -o %s -d 1s 2>%s", LATSCOPE_BIN, file, errf);
	assert_int_equal(run_rec(c, cmd), 2);
	err = read_file(errf, NULL);
	assert_non_null(err);
	assert_non_null(strstr(err, "refused"));
	assert_non_null(strstr(err, "root"));
	assert_int_equal(count_str(err, "\n"), 1);	/* one line */
	assert_int_equal(access(file, F_OK), -1);	/* nothing left behind */
	check_clean(c);
	free(err);
}

/* A command that cannot run: its status (127) comes back, the file is still readable. */
static void test_command_fails(void **state)
{
	struct ctx *c = *state;
	char file[128], cmd[512];
	char *rep;

	snprintf(file, sizeof(file), "%s/fail.dat", c->dir);
	snprintf(cmd, sizeof(cmd), "%s record -o %s -- /nonexistent/command 2>/dev/null",
		 LATSCOPE_BIN, file);
	assert_int_equal(run_rec(c, cmd), 127);
	check_clean(c);
	rep = report(c, file, "");
	free(rep);
}

/*
 * Two signals back to back (SIGINT then SIGTERM: two of the same kind could merge while
 * pending), as a quick double Ctrl-C: what was recorded is kept.  Exit 0, a file trace-cmd
 * reads with sched_switch events in it, no instance, no FILE.cpuN.
 */
static void test_second_sigint(void **state)
{
	struct ctx *c = *state;
	char file[128], cmd[512];
	struct timespec ts = { 0, 500 * 1000 * 1000 };
	int status;
	char *rep;
	pid_t pid;

	snprintf(file, sizeof(file), "%s/double.dat", c->dir);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		execl(LATSCOPE_BIN, "latscope", "record", "-o", file, "-d", "60s", (char *)NULL);
		_exit(127);
	}
	c->rec_pid = pid;
	wait_own_instance(pid);
	nanosleep(&ts, NULL);
	kill(pid, SIGINT);
	kill(pid, SIGTERM);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	check_clean(c);
	snprintf(cmd, sizeof(cmd), "test ! -e %s.cpu0 && test ! -e %s.cpu1", file, file);
	assert_int_equal(run(cmd), 0);
	rep = report(c, file, "");
	/* half a second of a 2-CPU machine: at least the recorder's own switches */
	assert_true(count_type(rep, "sched_switch") > 0);
	free(rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_workload_events_and_markers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sigint_mid_run, setup, teardown),
		cmocka_unit_test_setup_teardown(test_disk_full, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stop_above, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_root, setup, teardown),
		cmocka_unit_test_setup_teardown(test_command_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(test_second_sigint, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
