// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The environment as evidence: what decides how long a task can wait besides the tasks
 * themselves (the preemption model, the tick, isolated CPUs, a hypervisor, RT throttling and
 * the fair server), read once before tracing starts and stored as "latscope: env" lines in the
 * file's metadata (docs/record.md, "The recorded environment").  Every value says where it came
 * from; what could not be read is left out and a note says why, never a guess.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "latscope/base.h"
#include "latscope/env.h"
#include "latscope/record.h"
#include "record_env.h"
#include "record_priv.h"

extern char **environ;

/* @in->root + @path, read whole and trimmed of trailing blanks; NULL (errno set) when not. */
static char *read_trim(const char *root, const char *path)
{
	char full[4096];
	char *buf;
	size_t len;
	int ret;

	snprintf(full, sizeof(full), "%s%s", root, path);
	ret = rec_slurp(full, &buf, &len);
	if (ret) {
		errno = -ret;
		return NULL;
	}
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' ' || buf[len - 1] == '\t'))
		buf[--len] = 0;
	return buf;
}

/* ` key="value"`, a '"' or a line break inside turned into '\'' (docs/record.md). */
static void put_q(FILE *f, const char *key, const char *val)
{
	fprintf(f, " %s=\"", key);
	for (const char *p = val; *p; p++)
		fputc(*p == '"' || *p == '\n' || *p == '\r' ? '\'' : *p, f);
	fputc('"', f);
}

/* ---- the kernel config ---------------------------------------------------------------- */

struct kcfg {
	char src[4096];		/* the file read, "" none */
	int preempt;		/* enum lat_preempt_mode of the choice */
	int dynamic, rt;	/* 1 / 0 once a config was read */
	int64_t hz;
	int nohz;		/* enum lat_nohz_mode */
};

static void kcfg_line(struct kcfg *k, const char *l)
{
	static const struct { const char *key; int mode; } modes[] = {
		{ "CONFIG_PREEMPT_NONE=y", LAT_PREEMPT_NONE },
		{ "CONFIG_PREEMPT_VOLUNTARY=y", LAT_PREEMPT_VOLUNTARY },
		{ "CONFIG_PREEMPT=y", LAT_PREEMPT_FULL },
		{ "CONFIG_PREEMPT_LAZY=y", LAT_PREEMPT_LAZY },
	};

	for (size_t i = 0; i < LAT_ARRAY_SIZE(modes); i++)
		if (!strcmp(l, modes[i].key))
			k->preempt = modes[i].mode;
	if (!strcmp(l, "CONFIG_PREEMPT_RT=y"))
		k->rt = 1;
	else if (!strcmp(l, "CONFIG_PREEMPT_DYNAMIC=y"))
		k->dynamic = 1;
	else if (!strncmp(l, "CONFIG_HZ=", 10))
		k->hz = strtoll(l + 10, NULL, 10);
	else if (!strcmp(l, "CONFIG_HZ_PERIODIC=y"))
		k->nohz = LAT_NOHZ_PERIODIC;
	else if (!strcmp(l, "CONFIG_NO_HZ_IDLE=y"))
		k->nohz = LAT_NOHZ_IDLE;
	else if (!strcmp(l, "CONFIG_NO_HZ_FULL=y"))
		k->nohz = LAT_NOHZ_FULL;
}

/*
 * The running kernel's own config (/proc/config.gz, CONFIG_IKCONFIG_PROC), else the one named
 * after its release in /boot; zlib reads either (a plain file passes through gzread).
 */
static void kcfg_read(struct kcfg *k, const struct rec_env_in *in)
{
	char path[2][4096], line[512];
	gzFile gz = NULL;

	memset(k, 0, sizeof(*k));
	k->preempt = LAT_PREEMPT_UNKNOWN;
	k->hz = LAT_ENV_UNKNOWN;
	k->nohz = LAT_NOHZ_UNKNOWN;
	snprintf(path[0], sizeof(path[0]), "%s/proc/config.gz", in->root);
	snprintf(path[1], sizeof(path[1]), "%s/boot/config-%s", in->root, in->release);
	for (int i = 0; i < 2 && !gz; i++) {
		gz = gzopen(path[i], "rb");
		if (gz)
			snprintf(k->src, sizeof(k->src), "%s", path[i] + strlen(in->root));
	}
	if (!gz)
		return;
	while (gzgets(gz, line, sizeof(line))) {
		line[strcspn(line, "\n")] = 0;
		kcfg_line(k, line);
	}
	gzclose(gz);
	/* the Kconfig choice of older kernels held PREEMPT_RT itself: fully preemptible */
	if (k->rt && k->preempt == LAT_PREEMPT_UNKNOWN)
		k->preempt = LAT_PREEMPT_FULL;
}

/* ---- debugfs -------------------------------------------------------------------------- */

struct dbg {
	char dir[4096];		/* where debugfs is reachable, "" not */
	char tmp[64];		/* our own read-only mount, "" none */
	char note[256];		/* why it is not reachable */
};

/* The mount point of debugfs in @root/proc/mounts, or "". */
static void dbg_find(struct dbg *g, const char *root)
{
	char *m = read_trim(root, "/proc/mounts");

	for (char *l = m; l && *l; ) {
		char *nl = strchr(l, '\n'), dev[256], dir[4096], type[64];

		if (nl)
			*nl = 0;
		if (sscanf(l, "%255s %4095s %63s", dev, dir, type) == 3 &&
		    !strcmp(type, "debugfs")) {
			snprintf(g->dir, sizeof(g->dir), "%s%s", root, dir);
			break;
		}
		l = nl ? nl + 1 : NULL;
	}
	free(m);
}

/* debugfs reachable: found mounted, or mounted read-only in a private directory (live only). */
static void dbg_open(struct dbg *g, const struct rec_env_in *in, FILE *msg)
{
	memset(g, 0, sizeof(*g));
	dbg_find(g, in->root);
	if (g->dir[0] || !in->live)
		return;
	snprintf(g->tmp, sizeof(g->tmp), "/tmp/latscope-debugfs-XXXXXX");
	if (!mkdtemp(g->tmp)) {
		snprintf(g->note, sizeof(g->note), "debugfs not mounted; mkdtemp: %s",
			 strerror(errno));
		g->tmp[0] = 0;
	} else if (mount("debugfs", g->tmp, "debugfs", MS_RDONLY | MS_NOSUID | MS_NODEV |
			 MS_NOEXEC, NULL)) {
		snprintf(g->note, sizeof(g->note), "debugfs not mounted; mounting it read-only "
			 "refused: %s", strerror(errno));
		rmdir(g->tmp);
		g->tmp[0] = 0;
	} else {
		snprintf(g->dir, sizeof(g->dir), "%s", g->tmp);
	}
	if (g->note[0])
		fprintf(msg, "latscope: environment: %s (the preemption mode and the fair server "
			"are taken from elsewhere or left unknown)\n", g->note);
}

static void dbg_close(struct dbg *g)
{
	if (!g->tmp[0])
		return;
	umount2(g->tmp, MNT_DETACH);
	rmdir(g->tmp);
	g->tmp[0] = 0;
}

/* debugfs file @rel (e.g. "/sched/preempt"), trimmed; NULL with @note set when not readable. */
static char *dbg_read(const struct dbg *g, const char *rel, char *note, size_t nlen)
{
	char *s;

	if (!g->dir[0]) {
		snprintf(note, nlen, "%s", g->note[0] ? g->note : "debugfs not mounted");
		return NULL;
	}
	s = read_trim(g->dir, rel);
	if (!s)
		snprintf(note, nlen, "debugfs %s: %s", rel + 1, strerror(errno));
	return s;
}

/* ---- preemption ------------------------------------------------------------------------ */

static int mode_of(const char *s, size_t n)
{
	static const char *const names[] = { "none", "voluntary", "full", "lazy" };

	for (size_t i = 0; i < LAT_ARRAY_SIZE(names); i++)
		if (strlen(names[i]) == n && !memcmp(names[i], s, n))
			return (int)i;
	return LAT_PREEMPT_UNKNOWN;
}

/* A whole word @w in @s (blank-separated). */
static bool has_word(const char *s, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = s; s && (p = strstr(p, w)); p += n)
		if ((p == s || p[-1] == ' ') && (!p[n] || p[n] == ' '))
			return true;
	return false;
}

/* The value of kernel parameter @key= in @cmdline (copied into @buf), or NULL. */
static const char *param(const char *cmdline, const char *key, char *buf, size_t len)
{
	size_t n = strlen(key);

	for (const char *p = cmdline; p && *p; ) {
		size_t w = strcspn(p, " ");

		if (w > n && !memcmp(p, key, n) && p[n] == '=') {
			snprintf(buf, len, "%.*s", (int)(w - n - 1), p + n + 1);
			return buf;
		}
		p += w;
		p += strspn(p, " ");
	}
	return NULL;
}

struct preempt {
	int mode, src, dynamic, rt;
	char note[512];
};

/* Without debugfs: the config's choice and the preempt= parameter, else uname -v's words. */
static void preempt_fallback(struct preempt *p, const struct kcfg *k, const char *cmdline,
			     const char *version)
{
	char buf[32];
	const char *boot = param(cmdline, "preempt", buf, sizeof(buf));

	if (k->src[0]) {
		p->dynamic = k->dynamic;
		p->rt = k->rt;
		p->mode = k->preempt;
		p->src = LAT_ENV_SRC_CONFIG;
	} else {
		p->rt = has_word(version, "PREEMPT_RT");
		p->dynamic = has_word(version, "PREEMPT_DYNAMIC") ? 1 : p->rt ? -1 : 0;
		p->src = LAT_ENV_SRC_UNAME;
		p->mode = p->rt || has_word(version, "PREEMPT") ? LAT_PREEMPT_FULL :
			  has_word(version, "PREEMPT_LAZY") ? LAT_PREEMPT_LAZY :
			  p->dynamic == 1 ? LAT_PREEMPT_UNKNOWN : LAT_PREEMPT_NONE_OR_VOLUNTARY;
	}
	/* a dynamic kernel boots in the config's mode unless preempt= says another */
	if (p->dynamic != 0 && boot && mode_of(boot, strlen(boot)) != LAT_PREEMPT_UNKNOWN) {
		p->mode = mode_of(boot, strlen(boot));
		p->src = LAT_ENV_SRC_CMDLINE;
	}
	if (p->dynamic == 1 && p->mode != LAT_PREEMPT_UNKNOWN)
		snprintf(p->note + strlen(p->note), sizeof(p->note) - strlen(p->note),
			 "%sthe mode at boot: it may have been changed since", p->note[0] ? "; " :
			 "");
}

/* The mode from debugfs sched/preempt ("none voluntary (full) lazy"), else the fallbacks. */
static void preempt_of(struct preempt *p, const struct dbg *g, const struct kcfg *k,
		       const char *cmdline, const char *version)
{
	char *s = dbg_read(g, "/sched/preempt", p->note, sizeof(p->note));
	char *open = s ? strchr(s, '(') : NULL, *close = open ? strchr(open, ')') : NULL;

	p->mode = LAT_PREEMPT_UNKNOWN;
	p->src = LAT_ENV_SRC_UNKNOWN;
	p->dynamic = p->rt = -1;
	if (close) {
		p->mode = mode_of(open + 1, (size_t)(close - open - 1));
		p->src = LAT_ENV_SRC_DEBUGFS;
		p->dynamic = 1;
		p->rt = k->src[0] ? k->rt : has_word(version, "PREEMPT_RT");
		p->note[0] = 0;
	} else if (s) {
		snprintf(p->note, sizeof(p->note), "debugfs sched/preempt: no (mode) in \"%.64s\"",
			 s);
	}
	free(s);
	if (p->mode == LAT_PREEMPT_UNKNOWN)
		preempt_fallback(p, k, cmdline, version);
	if (p->mode == LAT_PREEMPT_UNKNOWN)
		snprintf(p->note + strlen(p->note), sizeof(p->note) - strlen(p->note),
			 "%sno kernel config (/proc/config.gz, /boot/config-RELEASE) and no "
			 "preempt= parameter", p->note[0] ? "; " : "");
}

static void write_preempt(FILE *f, const struct dbg *g, const struct kcfg *k,
			  const char *cmdline, const char *version)
{
	struct preempt p = { 0 };

	preempt_of(&p, g, k, cmdline, version);
	fputs("latscope: env", f);
	if (p.mode != LAT_PREEMPT_UNKNOWN)
		fprintf(f, " preempt=%s preempt_src=%s", lat_preempt_mode_name(p.mode),
			lat_env_src_name(p.src));
	if (p.dynamic >= 0)
		fprintf(f, " dynamic=%d", p.dynamic);
	if (p.rt >= 0)
		fprintf(f, " rt=%d", p.rt);
	if (p.note[0])
		put_q(f, "preempt_note", p.note);
	fputc('\n', f);
}

/* ---- HZ and the tick ------------------------------------------------------------------- */

/* "now at N nsecs" and the first "jiffies: J" of @root/proc/timer_list; 0 or -1. */
static int timer_list(const char *root, uint64_t *now, uint64_t *jiffies)
{
	char *s = read_trim(root, "/proc/timer_list"), *p, *j;
	int ret = -1;

	p = s ? strstr(s, "now at ") : NULL;
	j = s ? strstr(s, "\njiffies: ") : NULL;
	if (p && j) {
		*now = strtoull(p + 7, NULL, 10);
		*jiffies = strtoull(j + 10, NULL, 10);
		ret = 0;
	}
	free(s);
	return ret;
}

int64_t rec_env_measure_hz(const char *root, int64_t window_ns)
{
	static const int64_t usual[] = { 100, 250, 300, 1000 };
	struct timespec ts = { window_ns / LAT_NS_PER_S, window_ns % LAT_NS_PER_S };
	uint64_t n0, j0, n1, j1;
	double hz;

	if (timer_list(root, &n0, &j0))
		return -1;
	nanosleep(&ts, NULL);
	if (timer_list(root, &n1, &j1) || n1 <= n0 || j1 <= j0)
		return -1;
	hz = (double)(j1 - j0) * 1e9 / (double)(n1 - n0);
	for (size_t i = 0; i < LAT_ARRAY_SIZE(usual); i++)
		if (hz > 0.95 * (double)usual[i] && hz < 1.05 * (double)usual[i])
			return usual[i];
	return (int64_t)(hz + 0.5);
}

static void write_tick(FILE *f, const struct rec_env_in *in, const struct kcfg *k,
		       const char *cmdline)
{
	int64_t hz = k->hz;
	const char *src = "config";
	char buf[16];
	int nohz = k->nohz;

	if (hz == LAT_ENV_UNKNOWN && in->live) {
		hz = rec_env_measure_hz(in->root, 200 * LAT_NS_PER_MS);
		src = "measured";
	}
	/* nohz=off turns a tickless kernel periodic */
	if (nohz != LAT_NOHZ_UNKNOWN && param(cmdline, "nohz", buf, sizeof(buf)) &&
	    !strcmp(buf, "off"))
		nohz = LAT_NOHZ_PERIODIC;
	fputs("latscope: env", f);
	if (hz > 0)
		fprintf(f, " hz=%" PRId64 " hz_src=%s", hz, src);
	else
		put_q(f, "hz_note", in->live ? "no CONFIG_HZ, and jiffies in /proc/timer_list "
		      "unreadable" : "no CONFIG_HZ");
	if (nohz != LAT_NOHZ_UNKNOWN)
		fprintf(f, " nohz=%s", lat_nohz_mode_name(nohz));
	if (k->src[0])
		put_q(f, "config", k->src);
	else
		put_q(f, "config_note", "no /proc/config.gz, no /boot/config-RELEASE");
	fputc('\n', f);
}

/* ---- isolation ------------------------------------------------------------------------- */

/* The kernel parameters of /proc/cmdline that decide latencies (docs/record.md lists them). */
static bool latency_param(const char *p, size_t n)
{
	static const char *const keys[] = {
		"preempt", "isolcpus", "nohz_full", "nohz", "rcu_nocbs", "rcu_nocb_poll",
		"irqaffinity", "threadirqs", "skew_tick", "idle", "nosmt", "nosoftlockup",
		"nowatchdog", "nmi_watchdog", "tsc", "clocksource", "processor.max_cstate",
		"intel_idle.max_cstate", "cpuidle.off", "cpuidle_haltpoll.force", "intel_pstate",
		"mitigations", "sched_rt_runtime_us",
	};
	size_t k = strcspn(p, "= ");

	if (k > n)
		k = n;
	if (k >= 9 && !memcmp(p, "haltpoll.", 9))
		return true;
	for (size_t i = 0; i < LAT_ARRAY_SIZE(keys); i++)
		if (strlen(keys[i]) == k && !memcmp(keys[i], p, k))
			return true;
	return false;
}

static void write_isolation(FILE *f, const struct rec_env_in *in, const struct kcfg *k,
			    const char *cmdline)
{
	char *nf = read_trim(in->root, "/sys/devices/system/cpu/nohz_full");
	char *iso = read_trim(in->root, "/sys/devices/system/cpu/isolated");
	char sel[4096];
	size_t at = 0;

	fputs("latscope: env", f);
	/* the file exists only with CONFIG_NO_HZ_FULL: without it no CPU is nohz_full */
	if (nf || (k->src[0] && k->nohz != LAT_NOHZ_FULL))
		put_q(f, "nohz_full", nf && strcmp(nf, "(null)") ? nf : "");
	if (iso)
		put_q(f, "isolated", iso);
	sel[0] = 0;
	for (const char *p = cmdline; p && *p; ) {
		size_t w = strcspn(p, " ");

		if (latency_param(p, w) && at + w + 2 < sizeof(sel))
			at += (size_t)snprintf(sel + at, sizeof(sel) - at, "%s%.*s", at ? " " : "",
					       (int)w, p);
		p += w;
		p += strspn(p, " ");
	}
	if (cmdline)
		put_q(f, "cmdline", sel);
	fputc('\n', f);
	free(nf);
	free(iso);
}

/* ---- virtualization -------------------------------------------------------------------- */

/* `systemd-detect-virt --vm` ("kvm", "none", ...), or "" when it is not installed. */
static void detect_virt(char *out, size_t len)
{
	char *argv[] = { "systemd-detect-virt", "--vm", NULL };
	posix_spawn_file_actions_t fa;
	int pfd[2], st;
	ssize_t n = 0, r;
	pid_t pid;

	out[0] = 0;
	if (pipe2(pfd, O_CLOEXEC))
		return;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	if (posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ))
		pid = -1;
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[1]);
	while (pid > 0 && (size_t)n + 1 < len) {
		r = read(pfd[0], out + n, len - 1 - (size_t)n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += r;
	}
	close(pfd[0]);
	out[n] = 0;
	out[strcspn(out, "\n")] = 0;
	while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
}

/* The "hypervisor" flag of the first "flags" line of /proc/cpuinfo: 1, 0, -1 (no flags). */
static int cpuid_hypervisor(const char *root)
{
	char *s = read_trim(root, "/proc/cpuinfo"), *l;
	int ret = -1;

	l = s ? strstr(s, "\nflags") : NULL;
	if (l) {
		char *e = strchr(l + 1, '\n');

		if (e)
			*e = 0;
		l = strchr(l, ':');
		ret = l && has_word(l + 1, "hypervisor");
	}
	free(s);
	return ret;
}

static void write_virt(FILE *f, const struct rec_env_in *in)
{
	char dv[64] = "";
	char *sys = read_trim(in->root, "/sys/hypervisor/type");
	char *vendor = read_trim(in->root, "/sys/class/dmi/id/sys_vendor");
	char *product = read_trim(in->root, "/sys/class/dmi/id/product_name");
	int flag = cpuid_hypervisor(in->root);

	if (in->live)
		detect_virt(dv, sizeof(dv));
	fputs("latscope: env", f);
	if (dv[0])
		fprintf(f, " virt=%s virt_src=systemd-detect-virt", dv);
	else if (sys && sys[0])
		fprintf(f, " virt=%s virt_src=sys-hypervisor", sys);
	else if (flag >= 0)
		fprintf(f, " virt=%s virt_src=cpuid", flag ? "vm" : "none");
	if (flag >= 0)
		fprintf(f, " hypervisor_flag=%d", flag);
	if (sys)
		put_q(f, "sys_hypervisor", sys);
	if (vendor)
		put_q(f, "dmi_vendor", vendor);
	if (product)
		put_q(f, "dmi_product", product);
	fputc('\n', f);
	free(sys);
	free(vendor);
	free(product);
}

/* ---- RT throttling and the fair server ------------------------------------------------- */

static int cmp_int(const void *a, const void *b)
{
	return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

/* "latscope: env fair_server cpu=N runtime_ns=R period_ns=P" per CPU of sched/fair_server. */
static void write_fair(FILE *f, const struct dbg *g, char *note, size_t nlen)
{
	char dir[4200];
	int cpus[LAT_REC_MAX_CPUS];
	size_t n = 0;
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/sched/fair_server", g->dir);
	d = g->dir[0] ? opendir(dir) : NULL;
	if (!d) {
		if (g->dir[0])
			snprintf(note, nlen, "debugfs sched/fair_server: %s", strerror(errno));
		else
			snprintf(note, nlen, "%s", g->note[0] ? g->note : "debugfs not mounted");
		return;
	}
	while ((de = readdir(d)) && n < LAT_ARRAY_SIZE(cpus))
		if (!strncmp(de->d_name, "cpu", 3) && de->d_name[3] >= '0' && de->d_name[3] <= '9')
			cpus[n++] = atoi(de->d_name + 3);
	closedir(d);
	lat_sort(cpus, n, sizeof(*cpus), cmp_int);
	for (size_t i = 0; i < n; i++) {
		char rel[64], why[512] = "", *rt, *per;

		snprintf(rel, sizeof(rel), "/sched/fair_server/cpu%d/runtime", cpus[i]);
		rt = dbg_read(g, rel, why, sizeof(why));
		snprintf(rel, sizeof(rel), "/sched/fair_server/cpu%d/period", cpus[i]);
		per = rt ? dbg_read(g, rel, why, sizeof(why)) : NULL;
		if (rt && per)
			fprintf(f, "latscope: env fair_server cpu=%d runtime_ns=%s period_ns=%s\n",
				cpus[i], rt, per);
		else if (!note[0])	/* the first file that failed says why */
			snprintf(note, nlen, "%s", why);
		free(rt);
		free(per);
	}
}

static void write_rt(FILE *f, const struct rec_env_in *in, const struct dbg *g)
{
	char *rt = read_trim(in->root, "/proc/sys/kernel/sched_rt_runtime_us");
	char *per = read_trim(in->root, "/proc/sys/kernel/sched_rt_period_us");
	char note[512] = "";
	char *fair = NULL;
	size_t len = 0;
	FILE *ff = open_memstream(&fair, &len);

	if (ff) {
		write_fair(ff, g, note, sizeof(note));
		fclose(ff);
	}
	fputs("latscope: env", f);
	if (rt)
		fprintf(f, " rt_runtime_us=%s", rt);
	if (per)
		fprintf(f, " rt_period_us=%s", per);
	if (note[0])
		put_q(f, "fair_note", note);
	fputc('\n', f);
	if (fair)
		fputs(fair, f);
	free(fair);
	free(rt);
	free(per);
}

void rec_env_write(const struct rec_env_in *in, FILE *f, FILE *msg)
{
	char *cmdline = read_trim(in->root, "/proc/cmdline");
	struct kcfg k;
	struct dbg g;

	kcfg_read(&k, in);
	dbg_open(&g, in, msg);
	write_preempt(f, &g, &k, cmdline, in->version ? in->version : "");
	write_tick(f, in, &k, cmdline);
	write_isolation(f, in, &k, cmdline);
	write_virt(f, in);
	write_rt(f, in, &g);
	dbg_close(&g);
	free(cmdline);
}
