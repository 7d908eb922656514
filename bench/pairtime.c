// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Paired, alternating whole-process timing for the bench scripts:
 *
 *   pairtime [-n RUNS] [-w WARMUP] CMD_A ARGS... --vs CMD_B ARGS...
 *
 * runs A and B in turn (A B A B ...), after WARMUP unmeasured runs of each,
 * their output to /dev/null, and prints per command the wall and CPU
 * seconds (user + sys, of the process and its threads) and the peak RSS
 * as median [min, max], then the ratio A/B of each pair (how many times
 * faster B is): median, the middle half [p25, p75] and [min, max].  Pairs compare well when the
 * machine's speed drifts (other jobs on a shared VM); the spread says how
 * much it did.  One line per figure, for scripts to pick:
 *
 *   A wall 0.0312 [0.0290, 0.0401]
 *   A cpu 0.0452 [0.0440, 0.0470]
 *   A rss_kib 17408 [17300, 17500]
 *   B ...
 *   A/B wall 1.92 [1.85, 2.03] [1.70, 2.30]
 *   A/B cpu ...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct run {
	double wall, cpu, rss;
};

static int run_once(char **argv, struct run *r)
{
	struct timespec t0, t1;
	struct rusage ru;
	int st;
	pid_t pid;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		int fd = open("/dev/null", O_WRONLY);

		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	if (wait4(pid, &st, 0, &ru) < 0)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	r->wall = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	r->cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
		 (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	r->rss = (double)ru.ru_maxrss;
	if (!WIFEXITED(st) || WEXITSTATUS(st) == 127) {
		fprintf(stderr, "pairtime: %s failed (status %d)\n", argv[0], st);
		return -1;
	}
	return 0;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The value at fraction @q of the sorted @v (n of them), between neighbours. */
static double quant(double *v, int n, double q)
{
	double pos = q * (n - 1);
	int i = (int)pos;

	if (i >= n - 1)
		return v[n - 1];
	return v[i] + (v[i + 1] - v[i]) * (pos - i);
}

static void print(const char *who, const char *what, double *v, int n, int spread)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_d);
	if (!strcmp(what, "rss_kib"))
		printf("%s %s %.0f [%.0f, %.0f]\n", who, what, quant(v, n, 0.5), v[0], v[n - 1]);
	else if (spread)
		printf("%s %s %.4g [%.4g, %.4g] [%.4g, %.4g]\n", who, what, quant(v, n, 0.5),
		       quant(v, n, 0.25), quant(v, n, 0.75), v[0], v[n - 1]);
	else
		printf("%s %s %.4g [%.4g, %.4g]\n", who, what, quant(v, n, 0.5), v[0], v[n - 1]);
}

int main(int argc, char **argv)
{
	int runs = 11, warm = 1, i = 1, vs;
	char **a, **b;
	double *v[8];
	struct run ra, rb;

	for (; i < argc && argv[i][0] == '-' && strcmp(argv[i], "--vs"); i += 2) {
		if (i + 1 >= argc)
			break;
		if (!strcmp(argv[i], "-n"))
			runs = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "-w"))
			warm = atoi(argv[i + 1]);
	}
	for (vs = i; vs < argc && strcmp(argv[vs], "--vs"); vs++)
		;
	if (runs < 1 || vs == i || vs >= argc - 1) {
		fprintf(stderr, "usage: pairtime [-n RUNS] [-w WARMUP] CMD_A ARGS... --vs CMD_B ARGS...\n");
		return 2;
	}
	argv[vs] = NULL;
	a = argv + i;
	b = argv + vs + 1;
	for (int k = 0; k < 8; k++)
		v[k] = calloc((size_t)runs, sizeof(double));
	for (int k = 0; k < warm; k++)
		if (run_once(a, &ra) || run_once(b, &rb))
			return 1;
	for (int k = 0; k < runs; k++) {
		if (run_once(a, &ra) || run_once(b, &rb))
			return 1;
		v[0][k] = ra.wall;
		v[1][k] = ra.cpu;
		v[2][k] = ra.rss;
		v[3][k] = rb.wall;
		v[4][k] = rb.cpu;
		v[5][k] = rb.rss;
		v[6][k] = ra.wall / rb.wall;
		v[7][k] = rb.cpu > 0 ? ra.cpu / rb.cpu : 0;
	}
	print("A", "wall", v[0], runs, 0);
	print("A", "cpu", v[1], runs, 0);
	print("A", "rss_kib", v[2], runs, 0);
	print("B", "wall", v[3], runs, 0);
	print("B", "cpu", v[4], runs, 0);
	print("B", "rss_kib", v[5], runs, 0);
	print("A/B", "wall", v[6], runs, 1);
	print("A/B", "cpu", v[7], runs, 1);
	return 0;
}
