// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * HZ measured from the kernel's jiffies (record/record_env.c, used when no kernel config says
 * CONFIG_HZ) against the running kernel's CONFIG_HZ read here from /proc/config.gz or
 * /boot/config-RELEASE (needs root: /proc/timer_list).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "latscope/base.h"
#include "record_env.h"

static long config_hz(void)
{
	struct utsname u;
	char cmd[512], line[256];
	long hz = -1;
	FILE *p;

	if (uname(&u))
		return -1;
	snprintf(cmd, sizeof(cmd), "(zcat /proc/config.gz || cat /boot/config-%s) 2>/dev/null",
		 u.release);
	p = popen(cmd, "r");
	while (p && fgets(line, sizeof(line), p))
		if (!strncmp(line, "CONFIG_HZ=", 10))
			hz = strtol(line + 10, NULL, 10);
	if (p)
		pclose(p);
	return hz;
}

static void test_measured_hz(void **state)
{
	long want = config_hz();

	(void)state;
	if (geteuid() || want < 0) {
		fprintf(stderr, "skip: needs root and the kernel config\n");
		skip();
	}
	/* 200 ms as the recorder measures: HZ 250 gives 50 jiffies, one off is 2 % */
	assert_int_equal(rec_env_measure_hz("", 200 * LAT_NS_PER_MS), want);
	/* a tree without timer_list: unknown */
	assert_int_equal(rec_env_measure_hz("/nonexistent", LAT_NS_PER_MS), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_measured_hz),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
