// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Marker slices (wakeup_slices.h): Android atrace writes an app's trace
 * sections into trace_marker as "B|pid|name" ... "E|pid" (one thread, nested)
 * and async ones as "S|pid|name|cookie" ... "F|pid|name|cookie", which may end
 * on another thread (the 2019 atrace dump of tests/unit/test_not_latency.c
 * begins OVL0-DSI on UICompThread_0 and ends it on frame_update_wo).  Each
 * ended slice's duration goes to its name's numbers.  docs/wakeup.md.
 */
#include <stdlib.h>
#include <string.h>

#include "wakeup_slices.h"

#define MS_NAME_MAX 127		/* longer names are cut (they stay one name) */
#define WK_MSLICE_OPEN_MAX 65536	/* open slices of each kind held */

void wk_mslices_init(struct wk_mslices *m, struct lat_wakeup_result *r, int *oom)
{
	memset(m, 0, sizeof(*m));
	m->r = r;
	m->oom = oom;
}

static uint32_t hash(const char *s, size_t len, int async)
{
	uint32_t h = 2166136261u ^ (uint32_t)async;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (uint8_t)s[i]) * 16777619u;
	return h;
}

static int same(const struct lat_wake_mslice *x, const char *s, size_t len, int async)
{
	return x->async == async && !strncmp(x->name, s, len) && !x->name[len];
}

static int rehash(struct wk_mslices *m)
{
	size_t n = m->nslot ? m->nslot * 2 : 64;
	uint32_t *slot = calloc(n, sizeof(*slot));

	if (!slot)
		return -LAT_ENOMEM;
	for (size_t k = 0; k < m->r->nmslices; k++) {
		const struct lat_wake_mslice *x = &m->r->mslices[k];
		size_t i = hash(x->name, strlen(x->name), x->async) & (n - 1);

		while (slot[i])
			i = (i + 1) & (n - 1);
		slot[i] = (uint32_t)k + 1;
	}
	free(m->slot);
	m->slot = slot;
	m->nslot = n;
	return 0;
}

/* The index of name @s (async or not), made on its first begin; -1 none (or no room). */
static int64_t name_of(struct wk_mslices *m, const char *s, size_t len, int async, int make)
{
	struct lat_wakeup_result *r = m->r;
	struct lat_wake_mslice *x;
	size_t i;

	if (len > MS_NAME_MAX)
		len = MS_NAME_MAX;
	if ((r->nmslices + 1) * 2 > m->nslot && r->nmslices < LAT_WAKE_MSLICE_NAMES &&
	    rehash(m))
		goto oom;
	for (i = hash(s, len, async) & (m->nslot - 1); m->slot[i]; i = (i + 1) & (m->nslot - 1))
		if (same(&r->mslices[m->slot[i] - 1], s, len, async))
			return m->slot[i] - 1;
	if (!make || r->nmslices >= LAT_WAKE_MSLICE_NAMES) {
		r->mslice_dropped += make;
		return -1;
	}
	if (lat_grow(&r->mslices, &m->cap, r->nmslices + 1, sizeof(*r->mslices)))
		goto oom;
	x = &r->mslices[r->nmslices];
	memset(x, 0, sizeof(*x));
	x->async = (uint8_t)async;
	if (!(x->name = strndup(s, len)))
		goto oom;
	m->slot[i] = (uint32_t)++r->nmslices;
	return (int64_t)r->nmslices - 1;
oom:
	*m->oom = 1;
	return -1;
}

static void push(struct wk_mslices *m, int async, int64_t key, int64_t name, uint64_t ts)
{
	struct wk_mopen **o = async ? &m->async : &m->sync;
	size_t *n = async ? &m->nasync : &m->nsync, *cap = async ? &m->capasync : &m->capsync;

	if (name < 0)
		return;
	if (*n >= WK_MSLICE_OPEN_MAX) {	/* begins that never end: not held forever */
		m->r->mslice_dropped++;
		return;
	}
	if (lat_grow(o, cap, *n + 1, sizeof(**o))) {
		*m->oom = 1;
		return;
	}
	(*o)[(*n)++] = (struct wk_mopen){ ts, key, (uint32_t)name };
}

/* Ends the latest open slice of @key (and @name when >= 0): its duration to its name. */
static void pop(struct wk_mslices *m, int async, int64_t key, int64_t name, uint64_t ts)
{
	struct wk_mopen *o = async ? m->async : m->sync;
	size_t *n = async ? &m->nasync : &m->nsync;

	for (size_t i = *n; i-- > 0;) {
		struct lat_wake_mslice *x;
		int64_t d;

		if (o[i].key != key || (name >= 0 && o[i].name != (uint32_t)name))
			continue;
		x = &m->r->mslices[o[i].name];
		d = ts > o[i].ts_ns ? (int64_t)(ts - o[i].ts_ns) : 0;
		if (!x->count || d < x->min_ns)
			x->min_ns = d;
		if (d > x->max_ns)
			x->max_ns = d;
		x->sum_ns += d;
		x->count++;
		memmove(&o[i], &o[i + 1], (*n - i - 1) * sizeof(*o));
		(*n)--;
		return;
	}
	m->r->mslice_orphans++;
}

/* "123|": the pid field and its bar; 0 when it is not one. */
static size_t pid_field(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && s[i] >= '0' && s[i] <= '9')
		i++;
	return i && i < len && s[i] == '|' ? i + 1 : 0;
}

/* "name|cookie": the name's length and the cookie; 0 when it is not that. */
static size_t async_fields(const char *s, size_t len, int64_t *cookie)
{
	const char *bar = NULL;
	int64_t v = 0;

	for (size_t i = len; i-- > 0 && !bar;)
		bar = s[i] == '|' ? s + i : NULL;
	if (!bar || bar == s || bar + 1 == s + len)
		return 0;
	for (const char *p = bar + 1; p < s + len; p++) {
		if (*p < '0' || *p > '9' || v > INT64_MAX / 10 - 9)
			return 0;
		v = v * 10 + (*p - '0');
	}
	*cookie = v;
	return (size_t)(bar - s);
}

void wk_mslices_marker(struct wk_mslices *m, int32_t pid, uint64_t ts, const char *s, size_t len)
{
	char k = len >= 2 && s[1] == '|' ? s[0] : len == 1 && s[0] == 'E' ? 'E' : 0;
	size_t p, nl;
	const char *name;
	int64_t cookie = 0;

	if (k == 'E') {		/* "E|pid", "E|pid|...", or "E" alone */
		pop(m, 0, pid, -1, ts);
		return;
	}
	if ((k != 'B' && k != 'S' && k != 'F') || !(p = pid_field(s + 2, len - 2)))
		return;
	name = s + 2 + p;
	nl = len - 2 - p;
	if (k == 'B') {
		if (nl)
			push(m, 0, pid, name_of(m, name, nl, 0, 1), ts);
		return;
	}
	if (!(nl = async_fields(name, nl, &cookie)))
		return;
	if (k == 'S') {
		push(m, 1, cookie, name_of(m, name, nl, 1, 1), ts);
	} else {
		int64_t x = name_of(m, name, nl, 1, 0);

		if (x < 0)
			m->r->mslice_orphans++;
		else
			pop(m, 1, cookie, x, ts);
	}
}

void wk_mslices_finish(struct wk_mslices *m)
{
	for (size_t i = 0; i < m->nsync; i++)
		m->r->mslices[m->sync[i].name].open++;
	for (size_t i = 0; i < m->nasync; i++)
		m->r->mslices[m->async[i].name].open++;
	free(m->slot);
	free(m->sync);
	free(m->async);
	m->slot = NULL;
	m->sync = m->async = NULL;
	m->nsync = m->nasync = m->nslot = 0;
}
