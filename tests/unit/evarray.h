/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An event source over an in-memory array: for tests of the trace analyses and
 * for callers that already hold events.  The events (and what they point to:
 * marker text, stacks, names) stay owned by the caller while the source lives.
 */
#ifndef LATSCOPE_EVARRAY_H
#define LATSCOPE_EVARRAY_H

#include "latscope/event.h"

/* A source returning @n events of @ev in order (they are not re-sorted). NULL on ENOMEM. */
struct lat_event_source *lat_evarray_new(const struct lat_event *ev, size_t n, int ncpus);
/* Per-CPU overrun totals (copied, @ncpus of them) and a stop reason (copied) to report. */
int lat_evarray_set_overrun(struct lat_event_source *s, const uint64_t *ovr, int ncpus);
int lat_evarray_set_stop(struct lat_event_source *s, const char *reason);

#endif
