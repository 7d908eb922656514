// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The recorded environment (docs/record.md, "The recorded environment" and "Steal time"): the
 * metadata and steal-marker parsers of core/env.c on hand-made lines, /proc/stat parsing
 * (record/steal.c), and the recorder's collection (record/record_env.c) over hand-made /proc,
 * /sys and config trees, read back through the parser.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "latscope/env.h"
#include "record_env.h"
#include "steal.h"

static const char full_meta[] =
	"latscope: version=0.1.0 cmdline=\"record -d 1s\" events=sched stacks=0 buffer_kb=0\n"
	"latscope: tgids=1:1\n"
	"latscope: env preempt=none preempt_src=config dynamic=1 rt=0 "
	"preempt_note=\"debugfs sched/preempt: Operation not permitted\"\n"
	"latscope: env hz=250 hz_src=config nohz=idle config=\"/proc/config.gz\"\n"
	"latscope: env nohz_full=\"\" isolated=\"1-3\" cmdline=\"isolcpus=1-3 threadirqs\"\n"
	"latscope: env virt=kvm virt_src=systemd-detect-virt hypervisor_flag=1 dmi_vendor=\"QEMU\" "
	"dmi_product=\"Standard PC (i440FX + PIIX, 1996)\"\n"
	"latscope: env rt_runtime_us=-1 rt_period_us=1000000\n"
	"latscope: env fair_server cpu=1 runtime_ns=50000000 period_ns=1000000000\n"
	"latscope: cpustat at=start cpu=0 steal_ns=660000000 guest_ns=0 idle_ns=581230000000 "
	"iowait_ns=1410000000\n"
	"latscope: cpustat at=end cpu=0 steal_ns=690000000 guest_ns=0 idle_ns=581240000000 "
	"iowait_ns=1410000000\n"
	"latscope: steal_sampler interval_ns=10000000 clk_tck=100 samples=1002 markers=5 "
	"late_max_ns=9527314\n";

static void test_parse_full(void **state)
{
	struct lat_trace_env e;
	struct lat_diag d;

	(void)state;
	lat_diag_init(&d, "t.dat", NULL);
	assert_int_equal(lat_trace_env_parse(&e, full_meta, &d), 0);
	assert_int_equal(d.nwarn, 0);
	assert_int_equal(e.present, 1);
	assert_int_equal(e.preempt, LAT_PREEMPT_NONE);
	assert_int_equal(e.preempt_src, LAT_ENV_SRC_CONFIG);
	assert_int_equal(e.preempt_dynamic, 1);
	assert_int_equal(e.preempt_rt, 0);
	assert_string_equal(e.preempt_note, "debugfs sched/preempt: Operation not permitted");
	assert_int_equal(e.hz, 250);
	assert_int_equal(e.hz_src, LAT_ENV_SRC_CONFIG);
	assert_int_equal(e.nohz, LAT_NOHZ_IDLE);
	assert_string_equal(e.nohz_full, "");		/* recorded empty: none */
	assert_string_equal(e.isolated, "1-3");
	assert_string_equal(e.cmdline, "isolcpus=1-3 threadirqs");
	assert_string_equal(e.virt, "kvm");
	assert_string_equal(e.virt_src, "systemd-detect-virt");
	assert_int_equal(e.hypervisor_flag, 1);
	assert_null(e.sys_hypervisor);			/* not recorded: unknown */
	assert_string_equal(e.dmi_vendor, "QEMU");
	assert_string_equal(e.dmi_product, "Standard PC (i440FX + PIIX, 1996)");
	assert_int_equal(e.rt_runtime_us, -1);		/* the kernel's "no throttling" */
	assert_int_equal(e.rt_period_us, 1000000);
	assert_null(e.fair_note);
	assert_int_equal(e.clk_tck, 100);
	assert_int_equal(e.steal_interval_ns, 10000000);
	assert_int_equal(e.steal_samples, 1002);
	assert_int_equal(e.steal_markers, 5);
	assert_int_equal(e.steal_late_max_ns, 9527314);
	/* cpu 1 has only the fair server, cpu 0 only the cpustat lines */
	assert_int_equal(e.ncpus, 2);
	assert_int_equal(e.cpus[0].start.cpu, 0);
	assert_int_equal(e.cpus[0].start.steal_ns, 660000000);
	assert_int_equal(e.cpus[0].end.steal_ns, 690000000);
	assert_int_equal(e.cpus[0].end.idle_ns, 581240000000LL);
	assert_int_equal(e.cpus[0].end.iowait_ns, 1410000000);
	assert_int_equal(e.cpus[0].end.guest_ns, 0);
	assert_true(e.cpus[0].end.since_ns == LAT_ENV_UNKNOWN);
	assert_true(e.cpus[0].fair_runtime_ns == LAT_ENV_UNKNOWN);
	assert_int_equal(e.cpus[1].start.cpu, -1);
	assert_true(e.cpus[1].start.steal_ns == LAT_ENV_UNKNOWN);
	assert_int_equal(e.cpus[1].fair_runtime_ns, 50000000);
	assert_int_equal(e.cpus[1].fair_period_ns, 1000000000);
	lat_trace_env_release(&e);
	assert_null(e.cpus);
	assert_int_equal(e.ncpus, 0);
}

/* No environment lines (an older recording, another recorder): all unknown, nothing said. */
static void test_parse_absent(void **state)
{
	struct lat_trace_env e;
	struct lat_diag d;

	(void)state;
	lat_diag_init(&d, "t.dat", NULL);
	assert_int_equal(lat_trace_env_parse(&e, "latscope: version=0.1.0 cmdline=\"x\"\n"
					     "latscope: probe=timer cpu=0 samples=3\n", &d), 0);
	assert_int_equal(d.nwarn, 0);
	assert_int_equal(e.present, 0);
	assert_int_equal(e.preempt, LAT_PREEMPT_UNKNOWN);
	assert_int_equal(e.preempt_src, LAT_ENV_SRC_UNKNOWN);
	assert_int_equal(e.preempt_dynamic, -1);
	assert_int_equal(e.preempt_rt, -1);
	assert_true(e.hz == LAT_ENV_UNKNOWN);
	assert_int_equal(e.nohz, LAT_NOHZ_UNKNOWN);
	assert_null(e.nohz_full);
	assert_null(e.virt);
	assert_int_equal(e.hypervisor_flag, -1);
	assert_true(e.rt_runtime_us == LAT_ENV_UNKNOWN);
	assert_true(e.clk_tck == LAT_ENV_UNKNOWN);
	assert_int_equal(e.ncpus, 0);
	lat_trace_env_release(&e);
	assert_int_equal(lat_trace_env_parse(&e, NULL, &d), 0);
	assert_int_equal(e.present, 0);
	lat_trace_env_release(&e);
}

/*
 * Bad values are said (one warning each) and left unknown; the good ones around them are kept;
 * a key of a newer recorder is skipped silently.  Warnings: hz=25O, dynamic=2,
 * preempt=sometimes, cpu=99999, at=middle, rt_runtime_us="" (six).
 */
static void test_parse_bad(void **state)
{
	struct lat_trace_env e;
	struct lat_diag d;
	const char meta[] =
		"latscope: env hz=25O hz_src=config future_key=1 dynamic=2 rt=1\n"
		"latscope: env preempt=sometimes preempt_src=uname\n"
		"latscope: env fair_server cpu=99999 runtime_ns=1 period_ns=2\n"
		"latscope: cpustat at=middle cpu=0 steal_ns=1\n"
		"latscope: cpustat at=end cpu=1 steal_ns=20000000 idle_ns=x\n"
		"latscope: env rt_runtime_us= rt_period_us=1000000 virt=\"kvm\n";

	(void)state;
	lat_diag_init(&d, "t.dat", NULL);
	assert_int_equal(lat_trace_env_parse(&e, meta, &d), 0);
	assert_int_equal(d.nwarn, 6);
	assert_int_equal(e.present, 1);
	assert_true(e.hz == LAT_ENV_UNKNOWN);
	assert_int_equal(e.hz_src, LAT_ENV_SRC_CONFIG);
	assert_int_equal(e.preempt_dynamic, -1);
	assert_int_equal(e.preempt_rt, 1);
	assert_int_equal(e.preempt, LAT_PREEMPT_UNKNOWN);
	assert_int_equal(e.preempt_src, LAT_ENV_SRC_UNAME);
	/* the cpustat at=end of cpu 1 is kept, its bad idle_ns unknown */
	assert_int_equal(e.ncpus, 2);
	assert_int_equal(e.cpus[0].start.cpu, -1);
	assert_int_equal(e.cpus[1].end.steal_ns, 20000000);
	assert_true(e.cpus[1].end.idle_ns == LAT_ENV_UNKNOWN);
	assert_true(e.rt_runtime_us == LAT_ENV_UNKNOWN);
	assert_int_equal(e.rt_period_us, 1000000);
	assert_string_equal(e.virt, "kvm");	/* an unclosed quote ends with the line */
	lat_trace_env_release(&e);
}

static void test_steal_parse(void **state)
{
	static const char with_more[] = "latscope: steal cpu=1 steal_ns=20000000 guest_ns=0 "
					"idle_ns=5 iowait_ns=6 since_ns=10081234XYZ";
	struct lat_steal s;

	(void)state;
	/* not NUL-terminated where it ends: the length counts, not the string */
	assert_int_equal(lat_steal_parse(with_more, strlen(with_more) - 3, &s), 1);
	assert_int_equal(s.cpu, 1);
	assert_int_equal(s.steal_ns, 20000000);
	assert_int_equal(s.guest_ns, 0);
	assert_int_equal(s.idle_ns, 5);
	assert_int_equal(s.iowait_ns, 6);
	assert_int_equal(s.since_ns, 10081234);
	/* the whole string: "10081234XYZ" is no number */
	assert_int_equal(lat_steal_parse(with_more, strlen(with_more), &s), 1);
	assert_true(s.since_ns == LAT_ENV_UNKNOWN);
	/* a CPU's first marker has no since_ns */
	assert_int_equal(lat_steal_parse("latscope: steal cpu=0 steal_ns=0", 32, &s), 1);
	assert_int_equal(s.cpu, 0);
	assert_true(s.since_ns == LAT_ENV_UNKNOWN && s.guest_ns == LAT_ENV_UNKNOWN);
	assert_int_equal(lat_steal_parse("latscope: probe=timer cpu=1 lat_ns=5 seq=1", 43, &s), 0);
	assert_int_equal(lat_steal_parse("latscope: steal cpu=1 guest_ns=5", 32, &s), 0);
	assert_int_equal(lat_steal_parse("latscope: steal cpu=-1 steal_ns=5", 33, &s), 0);
	assert_int_equal(lat_steal_parse("latscope: steal_sampler interval_ns=1", 37, &s), 0);
	assert_int_equal(lat_steal_parse("latscope: ste", 13, &s), 0);
}

static void test_stat_parse(void **state)
{
	/* /proc/stat of this 2-CPU VM, one guest tick added on cpu1 */
	static const char stat[] = "cpu  148104 1090 38728 111356 652 0 268 192 0 0\n"
				   "cpu0 72698 507 18474 58125 141 0 25 94 0 0\n"
				   "cpu1 75405 583 20254 53230 510 0 242 98 3 0\n"
				   "intr 1 2 3\nctxt 5\n";
	struct lat_steal c[3];

	(void)state;
	assert_int_equal(rec_stat_parse(stat, sizeof(stat) - 1, c, 3, 10000000), 2);
	assert_int_equal(c[0].cpu, 0);
	assert_int_equal(c[0].idle_ns, 581250000000LL);	/* 58125 ticks of 10 ms */
	assert_int_equal(c[0].iowait_ns, 1410000000);
	assert_int_equal(c[0].steal_ns, 940000000);
	assert_int_equal(c[0].guest_ns, 0);
	assert_int_equal(c[1].steal_ns, 980000000);
	assert_int_equal(c[1].guest_ns, 30000000);
	assert_int_equal(c[2].cpu, -1);				/* no line: offline */
	assert_true(c[2].steal_ns == LAT_ENV_UNKNOWN);
	/* more CPUs in the file than asked for: the rest is ignored */
	assert_int_equal(rec_stat_parse(stat, sizeof(stat) - 1, c, 1, 10000000), 1);
}

/* ---- the collection over hand-made trees ----------------------------------------------- */

static char root[64];

static void put(const char *rel, const char *text)
{
	char path[512], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	for (slash = strchr(path + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = 0;
		mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void put_gz(const char *rel, const char *text)
{
	char path[512];
	gzFile gz;

	put(rel, "");
	snprintf(path, sizeof(path), "%s%s", root, rel);
	gz = gzopen(path, "wb");
	assert_non_null(gz);
	assert_int_equal(gzputs(gz, text), (int)strlen(text));
	gzclose(gz);
}

/* The env lines of a tree, and the same read back into @e. */
static char *collect(const char *release, const char *version, struct lat_trace_env *e)
{
	struct rec_env_in in = { root, release, version, false };
	struct lat_diag d;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	rec_env_write(&in, f, stderr);
	fclose(f);
	lat_diag_init(&d, "tree", NULL);
	assert_int_equal(lat_trace_env_parse(e, text, &d), 0);
	assert_int_equal(d.nwarn, 0);
	return text;
}

static int tree_setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/latscope-envtest-XXXXXX");
	return mkdtemp(root) ? 0 : -1;
}

static int tree_teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	return system(cmd) ? -1 : 0;
}

/* debugfs mounted: its mode wins over the config's; the fair server per CPU. */
static void test_collect_debugfs(void **state)
{
	struct lat_trace_env e;
	char *text;

	(void)state;
	put("/proc/mounts", "proc /proc proc rw 0 0\ndebugfs /sys/kernel/debug debugfs rw 0 0\n");
	put("/sys/kernel/debug/sched/preempt", "none voluntary (full) lazy\n");
	put("/sys/kernel/debug/sched/fair_server/cpu0/runtime", "50000000\n");
	put("/sys/kernel/debug/sched/fair_server/cpu0/period", "1000000000\n");
	put("/sys/kernel/debug/sched/fair_server/cpu1/runtime", "40000000\n");
	put("/sys/kernel/debug/sched/fair_server/cpu1/period", "1000000000\n");
	put_gz("/proc/config.gz", "# CONFIG_PREEMPT_VOLUNTARY is not set\nCONFIG_PREEMPT_NONE=y\n"
	       "CONFIG_PREEMPT_DYNAMIC=y\nCONFIG_HZ_1000=y\nCONFIG_HZ=1000\nCONFIG_NO_HZ_FULL=y\n");
	put("/proc/cmdline", "BOOT_IMAGE=/vmlinuz preempt=none isolcpus=2-3 nohz_full=2-3 quiet\n");
	put("/sys/devices/system/cpu/nohz_full", "2-3\n");
	put("/sys/devices/system/cpu/isolated", "2-3\n");
	put("/proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu vme hypervisor lahf_lm\n\n");
	put("/sys/class/dmi/id/product_name", "KVM \"Virtual\" Machine\n");
	put("/proc/sys/kernel/sched_rt_runtime_us", "950000\n");
	put("/proc/sys/kernel/sched_rt_period_us", "1000000\n");
	text = collect("6.18.0", "#1 SMP PREEMPT_DYNAMIC", &e);
	assert_non_null(strstr(text, "latscope: env preempt=full preempt_src=debugfs dynamic=1 "
				     "rt=0\n"));
	assert_non_null(strstr(text, "latscope: env hz=1000 hz_src=config nohz=full "
				     "config=\"/proc/config.gz\"\n"));
	assert_non_null(strstr(text, "latscope: env nohz_full=\"2-3\" isolated=\"2-3\" "
				     "cmdline=\"preempt=none isolcpus=2-3 nohz_full=2-3\"\n"));
	assert_non_null(strstr(text, "latscope: env virt=vm virt_src=cpuid hypervisor_flag=1 "
				     "dmi_product=\"KVM 'Virtual' Machine\"\n"));
	assert_non_null(strstr(text, "latscope: env rt_runtime_us=950000 rt_period_us=1000000\n"
				     "latscope: env fair_server cpu=0 runtime_ns=50000000 "
				     "period_ns=1000000000\nlatscope: env fair_server cpu=1 "
				     "runtime_ns=40000000 period_ns=1000000000\n"));
	assert_int_equal(e.preempt, LAT_PREEMPT_FULL);
	assert_int_equal(e.preempt_src, LAT_ENV_SRC_DEBUGFS);
	assert_null(e.preempt_note);
	assert_int_equal(e.hz, 1000);
	assert_int_equal(e.nohz, LAT_NOHZ_FULL);
	assert_string_equal(e.dmi_product, "KVM 'Virtual' Machine");
	assert_int_equal(e.cpus[1].fair_runtime_ns, 40000000);
	assert_null(e.fair_note);
	free(text);
	lat_trace_env_release(&e);
}

/* No debugfs: /boot's plain config, and preempt= overriding the dynamic kernel's default. */
static void test_collect_boot_config(void **state)
{
	struct lat_trace_env e;
	char *text;

	(void)state;
	put("/proc/mounts", "proc /proc proc rw 0 0\n");
	put("/boot/config-6.1.0-test", "CONFIG_PREEMPT_VOLUNTARY=y\nCONFIG_PREEMPT_DYNAMIC=y\n"
	    "CONFIG_HZ=250\nCONFIG_NO_HZ_IDLE=y\n");
	put("/proc/cmdline", "root=/dev/vda preempt=full nohz=off\n");
	put("/sys/hypervisor/type", "xen\n");
	text = collect("6.1.0-test", "#1 SMP PREEMPT_DYNAMIC Debian", &e);
	assert_non_null(strstr(text, "latscope: env preempt=full preempt_src=cmdline dynamic=1 "
				     "rt=0 preempt_note=\"debugfs not mounted; the mode at boot: "
				     "it may have been changed since\"\n"));
	/* nohz=off makes it periodic; no nohz_full file and no NO_HZ_FULL: none */
	assert_non_null(strstr(text, "latscope: env hz=250 hz_src=config nohz=periodic "
				     "config=\"/boot/config-6.1.0-test\"\n"));
	assert_non_null(strstr(text, "latscope: env nohz_full=\"\" cmdline=\"preempt=full "
				     "nohz=off\"\n"));
	assert_non_null(strstr(text, "latscope: env virt=xen virt_src=sys-hypervisor "
				     "sys_hypervisor=\"xen\"\n"));
	assert_non_null(strstr(text, "latscope: env fair_note=\"debugfs not mounted\"\n"));
	assert_int_equal(e.preempt, LAT_PREEMPT_FULL);
	assert_int_equal(e.preempt_src, LAT_ENV_SRC_CMDLINE);
	assert_int_equal(e.nohz, LAT_NOHZ_PERIODIC);
	assert_null(e.isolated);			/* no file: unknown */
	assert_int_equal(e.hypervisor_flag, -1);	/* no cpuinfo flags */
	assert_true(e.rt_runtime_us == LAT_ENV_UNKNOWN);
	free(text);
	lat_trace_env_release(&e);
}

/* No config, no debugfs: uname -v's words, and what they cannot tell is left unknown. */
static void test_collect_uname(void **state)
{
	struct lat_trace_env e;
	char *text;

	(void)state;
	put("/proc/mounts", "proc /proc proc rw 0 0\n");
	put("/proc/cmdline", "root=/dev/sda1\n");
	text = collect("6.6.0-rt", "#1 SMP PREEMPT_RT Tue Jan 2", &e);
	assert_non_null(strstr(text, "latscope: env preempt=full preempt_src=uname rt=1 "
				     "preempt_note=\"debugfs not mounted\"\n"));
	/* not live: HZ is not measured */
	assert_non_null(strstr(text, "latscope: env hz_note=\"no CONFIG_HZ\" config_note="));
	assert_true(e.hz == LAT_ENV_UNKNOWN);
	assert_int_equal(e.preempt_rt, 1);
	assert_int_equal(e.preempt_dynamic, -1);	/* an RT kernel may be dynamic too */
	assert_string_equal(e.cmdline, "");		/* read, none of interest */
	free(text);
	lat_trace_env_release(&e);
	text = collect("6.1.0", "#1 SMP Debian 6.1.0", &e);
	assert_non_null(strstr(text, "preempt=none-or-voluntary preempt_src=uname dynamic=0 "
				     "rt=0"));
	assert_int_equal(e.preempt, LAT_PREEMPT_NONE_OR_VOLUNTARY);
	free(text);
	lat_trace_env_release(&e);
	text = collect("6.1.0", "#1 SMP PREEMPT_DYNAMIC", &e);
	assert_non_null(strstr(text, "latscope: env dynamic=1 rt=0 preempt_note=\"debugfs not "
				     "mounted; no kernel config"));
	assert_int_equal(e.preempt, LAT_PREEMPT_UNKNOWN);
	assert_int_equal(e.preempt_src, LAT_ENV_SRC_UNKNOWN);
	free(text);
	lat_trace_env_release(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_full),
		cmocka_unit_test(test_parse_absent),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_steal_parse),
		cmocka_unit_test(test_stat_parse),
		cmocka_unit_test_setup_teardown(test_collect_debugfs, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_collect_boot_config, tree_setup,
						tree_teardown),
		cmocka_unit_test_setup_teardown(test_collect_uname, tree_setup, tree_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
