/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The environment a recording ran in (record/record_env.c): preemption model, HZ and the tick,
 * CPU isolation, virtualization, RT throttling and the fair server, written as "latscope: env"
 * metadata lines (docs/record.md, "The recorded environment"; core/env.c reads them back).
 */
#ifndef LATSCOPE_RECORD_ENV_H
#define LATSCOPE_RECORD_ENV_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Where the environment is read from. */
struct rec_env_in {
	/* prefix of every path read ("" for the machine itself; a test's tree otherwise) */
	const char *root;
	const char *release;	/* uname -r: names /boot/config-RELEASE */
	const char *version;	/* uname -v: PREEMPT, PREEMPT_DYNAMIC, PREEMPT_RT */
	/*
	 * The running machine: debugfs may be mounted (read-only, in a private directory, and
	 * unmounted again) when it is not, systemd-detect-virt run, and HZ measured from jiffies
	 * when no kernel config says it.  Off for a test's tree.
	 */
	bool live;
};

/*
 * Writes the "latscope: env ..." lines to @f.  What could not be read is left out of them and
 * said in a *_note= value; a debugfs that could not be mounted is also said on @msg.
 */
void rec_env_write(const struct rec_env_in *in, FILE *f, FILE *msg);

/*
 * HZ measured from the kernel's jiffies in @root/proc/timer_list, read twice @window_ns apart
 * (needs root): the nearest of 100, 250, 300 and 1000 when within 5 % of one, else the rate
 * rounded.  Returns -1 when timer_list cannot be read or did not advance.
 */
int64_t rec_env_measure_hz(const char *root, int64_t window_ns);

#endif
