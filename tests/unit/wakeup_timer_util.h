/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Hand-built hrtimer events (after wakeup_test_util.h): hrtimer_start with its
 * expires, hrtimer_expire_entry with its now (both in the timer's clock),
 * hrtimer_expire_exit, hrtimer_cancel.
 */
#ifndef LATSCOPE_WAKEUP_TIMER_UTIL_H
#define LATSCOPE_WAKEUP_TIMER_UTIL_H

#define HARD (LAT_EVF_KNOWN | LAT_EVF_HARDIRQ)

static inline struct lat_event *timer_ev(uint64_t ts, int cpu, int cur, const char *cc,
					 enum lat_ev_type type, uint64_t ptr, const char *fn)
{
	struct lat_event *e = add(ts, cpu, cur, cc, type);

	e->u.timer.irq = -1;
	e->u.timer.name = fn;
	e->u.timer.hrtimer = ptr;
	e->u.timer.expires = LAT_TIMER_UNKNOWN;
	e->u.timer.softexpires = LAT_TIMER_UNKNOWN;
	e->u.timer.now = LAT_TIMER_UNKNOWN;
	return e;
}

static inline void tstart(uint64_t ts, int cpu, int cur, const char *cc, uint64_t ptr,
			  const char *fn, int64_t expires, int64_t soft)
{
	struct lat_event *e = timer_ev(ts, cpu, cur, cc, LAT_EV_TIMER_START, ptr, fn);

	e->flags = LAT_EVF_KNOWN;
	e->u.timer.expires = expires;
	e->u.timer.softexpires = soft;
}

static inline void tentry(uint64_t ts, int cpu, int cur, const char *cc, uint64_t ptr,
			  const char *fn, int64_t now)
{
	struct lat_event *e = timer_ev(ts, cpu, cur, cc, LAT_EV_TIMER_ENTRY, ptr, fn);

	e->flags = HARD;
	e->u.timer.now = now;
}

static inline void texit(uint64_t ts, int cpu, int cur, const char *cc, uint64_t ptr)
{
	timer_ev(ts, cpu, cur, cc, LAT_EV_TIMER_EXIT, ptr, NULL)->flags = HARD;
}

static inline void tcancel(uint64_t ts, int cpu, int cur, const char *cc, uint64_t ptr)
{
	timer_ev(ts, cpu, cur, cc, LAT_EV_TIMER_CANCEL, ptr, NULL)->flags = LAT_EVF_KNOWN;
}

#endif
