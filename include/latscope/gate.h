/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The CI gate (--fail-above, docs/cli.md "The CI gate"): the counted wakeup waits of every
 * selected task (struct lat_wake_task.wake, new-task waits included; preemption waits and
 * untrusted waits are not checked) and every probe sample (per CPU, the max the recorder
 * stored or the markers showed) of the event traces, against one limit.  A value exceeds it
 * when it is strictly greater.  The decision is here (analyze/gate.c); the reports list what
 * exceeds it (report/gate.c: lat_gate_check() over the inputs, lat_gate_text/json()).
 */
#ifndef LATSCOPE_GATE_H
#define LATSCOPE_GATE_H

#include "an_probe.h"
#include "an_wakeup.h"

struct lat_gate {
	int64_t limit_ns;
	size_t traces;			/* event-trace blocks checked */
	uint64_t waits, samples;	/* counted wakeup waits, probe samples checked */
	uint64_t untrusted;		/* waits not counted (lost or missing events) */
	size_t tasks_over;		/* tasks whose worst wakeup wait exceeds the limit */
	size_t cpus_over;		/* probe CPUs whose worst sample exceeds it */
	/* what exceeds it, as the analyses counted it (their over_limit): the counted wakeup
	 * waits of the selected tasks, and the probe samples by their markers */
	uint64_t waits_over, samples_over;
	/* probe samples not checked: --policy / --min-prio left their probe CPUs out */
	uint64_t samples_left_out;
	size_t cpus_left_out;
};

/* An empty gate for @limit_ns. */
void lat_gate_init(struct lat_gate *g, int64_t limit_ns);
/* Adds analyzed block @b (an event trace; others are not checked) to @g. */
void lat_gate_block(struct lat_gate *g, const struct lat_block *b);
/* 1 when something of the blocks added exceeded the limit. */
int lat_gate_failed(const struct lat_gate *g);

/* The wakeup result and the probe result of an event-trace block, or NULL (lent: @b's). */
const struct lat_wakeup_result *lat_gate_wakeup(const struct lat_block *b);
const struct lat_probe_result *lat_gate_probe(const struct lat_block *b);
/* Whether a task's worst wakeup wait, a worst case, a probe CPU's worst sample, a sample
 * exceeds @limit_ns. */
int lat_gate_task_over(const struct lat_wake_task *t, int64_t limit_ns);
int lat_gate_case_over(const struct lat_wake_case *c, int64_t limit_ns);
int lat_gate_cpu_over(const struct lat_probe_cpu *c, int64_t limit_ns);
int lat_gate_sample_over(const struct lat_probe_sample *s, int64_t limit_ns);

#endif
