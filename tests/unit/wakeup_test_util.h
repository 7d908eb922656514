/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Hand-built scheduler event sequences for the wakeup analysis tests: events
 * appended to one growing array (evs, nev), then run through the analysis.
 */
#ifndef LATSCOPE_WAKEUP_TEST_UTIL_H
#define LATSCOPE_WAKEUP_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latscope/an_wakeup.h"
#include "latscope/analyze.h"
#include "latscope/report.h"
#include "evarray.h"

static struct lat_event *evs;
static size_t nev, evcap;

static struct lat_event *add(uint64_t ts, int cpu, int cur, const char *curcomm,
			     enum lat_ev_type type)
{
	struct lat_event *e;

	if (nev == evcap) {
		evcap = evcap ? evcap * 2 : 1024;
		evs = realloc(evs, evcap * sizeof(*evs));
		assert_non_null(evs);
	}
	e = &evs[nev++];
	memset(e, 0, sizeof(*e));
	e->ts_ns = ts;
	e->cpu = cpu;
	e->pid = cur;
	snprintf(e->comm, sizeof(e->comm), "%s", curcomm);
	e->type = type;
	return e;
}

static inline void sw(uint64_t ts, int cpu, int prev, const char *pc, enum lat_task_state st,
		      int next, const char *nc)
{
	struct lat_event *e = add(ts, cpu, prev, pc, LAT_EV_SWITCH);

	e->u.sw.prev_pid = prev;
	e->u.sw.prev_prio = 120;
	e->u.sw.prev_state = st;
	snprintf(e->u.sw.prev_comm, LAT_COMM_LEN, "%s", pc);
	e->u.sw.next_pid = next;
	e->u.sw.next_prio = 120;
	snprintf(e->u.sw.next_comm, LAT_COMM_LEN, "%s", nc);
}

static inline void wake(uint64_t ts, int cpu, int cur, const char *cc, enum lat_ev_type type,
			int pid, const char *comm, int target)
{
	struct lat_event *e = add(ts, cpu, cur, cc, type);

	e->u.wake.pid = pid;
	e->u.wake.prio = 120;
	e->u.wake.target_cpu = target;
	snprintf(e->u.wake.comm, LAT_COMM_LEN, "%s", comm);
}

/* A case's verdict and chain verdict as the reports word them (valid until the next call). */
static inline const char *verdict_text(const struct lat_wake_case *c)
{
	static char buf[LAT_VERDICT_TEXT_LEN];

	return lat_report_verdict_text(c, buf, sizeof(buf));
}

static inline const char *chain_text(const struct lat_wake_case *c)
{
	static char buf[LAT_VERDICT_TEXT_LEN];

	return lat_report_chain_text(c, buf, sizeof(buf));
}

static inline struct lat_block *run_opts(struct lat_analyze_opts *o)
{
	struct lat_block *b = lat_block_new(NULL, LAT_SCHEMA_EVENTS);

	assert_non_null(b);
	b->events = lat_evarray_new(evs, nev, 2);
	assert_non_null(b->events);
	assert_int_equal(lat_analyze_block(b, o), 0);
	return b;
}

static inline struct lat_block *run(void)
{
	struct lat_analyze_opts o;

	lat_analyze_opts_init(&o);
	o.timelines = o.worst_n;	/* the tests look at every case's timeline */
	return run_opts(&o);
}

static inline int reset(void **state)
{
	(void)state;
	nev = 0;
	return 0;
}

static inline int release_events(void **state)
{
	(void)state;
	free(evs);
	evs = NULL;
	evcap = nev = 0;
	return 0;
}

#endif
