// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdlib.h>
#include <string.h>

#include "evarray.h"

struct evarray {
	struct lat_event_source src;	/* first: the source pointer is the array's */
	const struct lat_event *ev;
	size_t n, pos;
	uint64_t *ovr;
	char *stop;
};

static int evarray_next(struct lat_event_source *s, struct lat_event *ev)
{
	struct evarray *a = (struct evarray *)s;

	if (a->pos >= a->n)
		return 0;
	*ev = a->ev[a->pos++];
	return 1;
}

static void evarray_free(struct lat_event_source *s)
{
	struct evarray *a = (struct evarray *)s;

	free(a->ovr);
	free(a->stop);
	free(a);
}

static const struct lat_event_source_ops evarray_ops = {
	.next = evarray_next,
	.free = evarray_free,
};

struct lat_event_source *lat_evarray_new(const struct lat_event *ev, size_t n, int ncpus)
{
	struct evarray *a = calloc(1, sizeof(*a));

	if (!a)
		return NULL;
	a->src.ops = &evarray_ops;
	a->src.ncpus = ncpus;
	a->ev = ev;
	a->n = n;
	return &a->src;
}

int lat_evarray_set_overrun(struct lat_event_source *s, const uint64_t *ovr, int ncpus)
{
	struct evarray *a = (struct evarray *)s;

	if (ncpus <= 0)
		return -LAT_EUSAGE;
	free(a->ovr);
	a->ovr = malloc((size_t)ncpus * sizeof(*a->ovr));
	if (!a->ovr)
		return -LAT_ENOMEM;
	memcpy(a->ovr, ovr, (size_t)ncpus * sizeof(*a->ovr));
	s->cpu_overrun = a->ovr;
	s->ncpus = ncpus;
	return 0;
}

int lat_evarray_set_stop(struct lat_event_source *s, const char *reason)
{
	struct evarray *a = (struct evarray *)s;

	free(a->stop);
	a->stop = reason ? strdup(reason) : NULL;
	if (reason && !a->stop)
		return -LAT_ENOMEM;
	s->stop_reason = a->stop;
	return 0;
}
