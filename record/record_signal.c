// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The recorder's signal handling: the first SIGINT/SIGTERM asks the session to stop, SIGCHLD
 * wakes it.  A second one (a quick double Ctrl-C is a habit, not a wish to lose the recording)
 * stops the kernel side at once and lets the session finish the file with what it holds; only
 * a third undoes what it can from the handler itself and exits without a file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <time.h>
#include <unistd.h>

#include "latscope/base.h"
#include "latscope/record.h"
#include "record_priv.h"
#include "record_session.h"

/*
 * What a signal handler may need to undo on a third SIGINT: plain fds and paths, nothing that
 * allocates.  Only one recording runs per process.
 */
#define EM_MAX_FDS (2 * LAT_REC_MAX_CPUS + 8)
static struct {
	volatile sig_atomic_t signals;
	volatile sig_atomic_t last_signal;
	int wake_fd;
	int tracing_on_fd;
	int fds[EM_MAX_FDS];
	volatile sig_atomic_t nfds;
	char inst_path[4096];
	volatile sig_atomic_t inst_live;
	char out_path[4096];
	volatile sig_atomic_t kept;	/* out_path is complete: only its .cpuN files go */
	int ncpus;
	volatile sig_atomic_t umount;	/* tracefs was mounted by us */
} em = { .wake_fd = -1, .tracing_on_fd = -1 };

/*
 * The events --stacks puts a stacktrace trigger on (record_instance.c); here, below it, since
 * the signal handler takes them off too.
 */
const char *const rec_stack_events[REC_NSTACK_EVENTS] = { "sched/sched_switch",
								  "sched/sched_waking" };

static void em_write(const char *s)
{
	if (write(STDERR_FILENO, s, strlen(s)) < 0)
		(void)0;
}

/* Removes "<output>.cpuN" without snprintf (not async-signal-safe). */
static void em_unlink_cpu_files(void)
{
	size_t len = strlen(em.out_path);
	char path[sizeof(em.out_path) + 16];

	if (len + 12 > sizeof(path))
		return;
	memcpy(path, em.out_path, len);
	memcpy(path + len, ".cpu", 4);
	for (int cpu = 0; cpu < em.ncpus; cpu++) {
		char digits[8];
		int nd = 0, v = cpu;

		do {
			digits[nd++] = (char)('0' + v % 10);
			v /= 10;
		} while (v);
		for (int i = 0; i < nd; i++)
			path[len + 4 + i] = digits[nd - 1 - i];
		path[len + 4 + nd] = 0;
		unlink(path);
	}
}

/*
 * Closes every fd but stdin, stdout and stderr: the instance's files we opened (the registered
 * fds, but also a file libtracefs had open in the code this handler interrupted) each pin the
 * instance (rmdir says EBUSY while one is open).
 */
static void em_close_all(void)
{
	if (close_range(3, ~0U, 0) == 0)
		return;
	for (int i = 0; i < em.nfds; i++)
		close(em.fds[i]);
	for (int fd = 3; fd < 4096; fd++)
		close(fd);
}

/*
 * Removes the instance directory; true when it is gone (also when the interrupted code had
 * removed it already).  Reader threads in a splice of the instance's trace_pipe_raw keep its
 * file until the call returns (closing the fd wakes them): retry for up to two seconds.
 */
static bool em_remove_instance(void)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };

	for (int i = 0; i < 200; i++) {
		if (!rmdir(em.inst_path) || errno == ENOENT)
			return true;
		if (errno != EBUSY)
			return false;
		nanosleep(&ts, NULL);
	}
	errno = EBUSY;
	return false;
}

/* Writes @val to the instance's file @a@b@c ("/events/", "enable", ""); async-signal-safe. */
static void em_write_inst_file(const char *a, const char *b, const char *c, const char *val)
{
	size_t len = strlen(em.inst_path), la = strlen(a), lb = strlen(b), lc = strlen(c);
	char path[sizeof(em.inst_path) + 128];
	int fd;

	if (la + lb + lc >= 128)
		return;
	memcpy(path, em.inst_path, len);
	memcpy(path + len, a, la);
	memcpy(path + len + la, b, lb);
	memcpy(path + len + la + lb, c, lc + 1);
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return;
	if (write(fd, val, strlen(val)) < 0)
		(void)0;
	close(fd);
}

/*
 * The instance stays: at least no event of it fires any more.  A --stacks
 * trigger keeps its event in the kernel's soft mode, where "0" to
 * events/enable leaves it on (set_event still lists it): the triggers go first.
 */
static void em_disable_instance(void)
{
	for (size_t i = 0; i < REC_NSTACK_EVENTS; i++)
		em_write_inst_file("/events/", rec_stack_events[i], "/trigger", "!stacktrace");
	em_write_inst_file("/events/", "enable", "", "0");
}

static void on_signal(int sig)
{
	int saved = errno;

	if (sig == SIGCHLD) {
		if (em.wake_fd >= 0 && write(em.wake_fd, "c", 1) < 0)
			(void)0;
		errno = saved;
		return;
	}
	em.last_signal = sig;
	if (++em.signals < 3) {
		/*
		 * The second: what was captured up to now is what the file keeps (the session
		 * stops the rest as after the first, and kills a command that outlives it).
		 */
		if (em.signals == 2) {
			if (em.tracing_on_fd >= 0 && write(em.tracing_on_fd, "0", 1) < 0)
				(void)0;
			em_write("latscope: second signal: tracing stopped, writing the file "
				 "with what was recorded so far (a third signal aborts without "
				 "a file)\n");
		}
		if (em.wake_fd >= 0 && write(em.wake_fd, "i", 1) < 0)
			(void)0;
		errno = saved;
		return;
	}
	/* Third signal: stop the kernel side, drop our files, remove the instance, leave. */
	if (em.tracing_on_fd >= 0 && write(em.tracing_on_fd, "0", 1) < 0)
		(void)0;
	em_close_all();
	if (em.out_path[0]) {
		if (!em.kept)
			unlink(em.out_path);
		em_unlink_cpu_files();
	}
	if (!em.inst_live || em_remove_instance()) {
		if (em.umount)
			umount2("/sys/kernel/tracing", MNT_DETACH);
		em_write("latscope: aborted by a third signal: ");
		em_write(em.inst_live ? "instance removed, " : "no instance left, ");
		em_write(em.kept ? "the file was complete already: kept\n" : "no file written\n");
	} else {
		int err = errno;

		em_disable_instance();
		em_write("latscope: aborted by a third signal: ");
		em_write(em.kept ? "the file was complete already: kept" : "no file written");
		em_write(", but could not remove instance ");
		em_write(em.inst_path);
		em_write(" (");
		em_write(strerrordesc_np(err) ? strerrordesc_np(err) : "unknown error");
		em_write("); its tracing is off; remove it with: rmdir ");
		em_write(em.inst_path);
		em_write(" (the next latscope record also removes it)\n");
	}
	_exit(130);
}

void rec_em_add_fd(int fd)
{
	if (fd >= 0 && em.nfds < EM_MAX_FDS) {
		em.fds[em.nfds] = fd;
		em.nfds = em.nfds + 1;
	}
}

static struct sigaction old_int, old_term, old_chld;

void rec_em_begin(int ncpus, int wake_fd)
{
	struct sigaction sa;

	em.signals = 0;
	em.nfds = 0;
	em.inst_live = 0;
	em.out_path[0] = 0;
	em.kept = 0;
	em.ncpus = ncpus;
	em.wake_fd = wake_fd;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGCHLD, &sa, &old_chld);
}

void rec_em_end(void)
{
	em.out_path[0] = 0;
	em.wake_fd = -1;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGCHLD, &old_chld, NULL);
}

void rec_em_instance(const char *path, bool mounted_here)
{
	if (!path) {
		em.inst_live = 0;
		return;
	}
	em.inst_live = 0;
	snprintf(em.inst_path, sizeof(em.inst_path), "%s", path);
	em.umount = mounted_here;
	em.inst_live = 1;
}

void rec_em_output(const char *path)
{
	if (!path) {
		em.out_path[0] = 0;
		return;
	}
	snprintf(em.out_path, sizeof(em.out_path), "%s", path);
}

void rec_em_output_complete(void)
{
	em.kept = 1;
}

void rec_em_tracing_on(int fd)
{
	em.tracing_on_fd = fd;
}

void rec_em_forget_fds(void)
{
	em.nfds = 0;
}

int rec_em_signals(void)
{
	return em.signals;
}

int rec_em_last_signal(void)
{
	return em.last_signal;
}
