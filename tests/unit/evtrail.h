/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Test-only: what reading an event source gave, as text to compare between
 * two ways of reading (the readers' threads against one thread): a line per
 * event with every field and what it lends, and a line per change of the
 * stop and skip reasons.
 */
#ifndef LATSCOPE_TESTS_EVTRAIL_H
#define LATSCOPE_TESTS_EVTRAIL_H

#include <stddef.h>

#include "latscope/event.h"

struct trail {
	char *text;			/* malloc'ed, free it */
	size_t len, cap;
	unsigned long events, stops, skips;
};

/* Appends printf(@fmt, ...) to @t. */
void trail_put(struct trail *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Every field of @ev, and what it lends (read now: valid until the next call). */
void trail_event(struct trail *t, const struct lat_event *ev);
/* The reasons of @src when they changed since @stop / @skip (1024 bytes each, updated). */
void trail_reasons(struct trail *t, const struct lat_event_source *src, char *stop, char *skip);
/* Reports where @a and @b first differ (with @what) and fails the test if they do. */
void trail_same(const struct trail *a, const struct trail *b, const char *what);

#endif
