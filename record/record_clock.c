// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The instance's trace clock against the wall clock (CLOCK_REALTIME), so that a
 * trace's timestamps can be given as dates (the rows' wall_ns, docs/export.md).
 *
 * The trace clock (`local` by default: sched_clock, with no clock_gettime()
 * counterpart) is read where the kernel reads it for the buffer: the "now ts"
 * line of the instance's per_cpu/cpu0/stats file, ring_buffer_time_stamp(),
 * written in microseconds when the clock counts nanoseconds (a counter or TSC
 * clock is written raw: then there is no offset).  Each read is bracketed by two
 * CLOCK_REALTIME readings; of a few reads the one with the narrowest bracket is
 * kept.  The offset is the bracket's middle minus the middle of the microsecond
 * the kernel wrote; the error bound is half the bracket plus half a microsecond.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "latscope/base.h"
#include "record_priv.h"
#include "record_session.h"

#define WALL_TRIES 8

int rec_parse_now_ts(const char *stats, int64_t *ns)
{
	const char *p = stats ? strstr(stats, "now ts:") : NULL;
	char *end;
	unsigned long long s, us;

	if (!p)
		return -1;
	p += 7;
	while (*p == ' ')
		p++;
	if (*p < '0' || *p > '9')
		return -1;
	s = strtoull(p, &end, 10);
	/* "%5llu.%06lu" for a clock in ns; a raw count (counter, x86-tsc, uptime) has no point */
	if (*end != '.' || end[1] < '0' || end[1] > '9')
		return -1;
	p = end + 1;
	us = strtoull(p, &end, 10);
	if (end - p != 6 || s > (uint64_t)INT64_MAX / LAT_NS_PER_S - 1)
		return -1;
	*ns = (int64_t)s * LAT_NS_PER_S + (int64_t)us * LAT_NS_PER_US;
	return 0;
}

static int64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec * LAT_NS_PER_S + ts.tv_nsec;
}

void rec_wallclock(struct rec *r, struct rec_wall *w)
{
	int fd = tracefs_instance_file_open(r->inst, "per_cpu/cpu0/stats", O_RDONLY | O_CLOEXEC);
	int64_t best = -1;

	memset(w, 0, sizeof(*w));
	if (fd < 0)
		return;
	for (int i = 0; i < WALL_TRIES; i++) {
		char buf[512];
		int64_t r0, r1, now;
		ssize_t n;

		r0 = realtime_ns();
		n = pread(fd, buf, sizeof(buf) - 1, 0);
		r1 = realtime_ns();
		if (n <= 0)
			break;
		buf[n] = '\0';
		if (rec_parse_now_ts(buf, &now))
			break;	/* not a clock in ns: no offset */
		if (best >= 0 && r1 - r0 >= best)
			continue;
		best = r1 - r0;
		/* the kernel's microsecond holds the true reading: its middle */
		w->offset_ns = r0 + best / 2 - (now + LAT_NS_PER_US / 2);
		w->error_ns = (best + 1) / 2 + LAT_NS_PER_US / 2;
		w->ok = true;
	}
	close(fd);
}
