/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A trace's thread groups: the recorder's "latscope: tgids=TID:TGID,..." metadata line
 * (docs/record.md), parsed once by the reader that reads the trace's metadata
 * (formats/tracedat_meta.c) and lent with its event source (lat_event_source.tgids), for the
 * reports and the exporters alike.  core/tgids.c.
 */
#ifndef LATSCOPE_TGIDS_H
#define LATSCOPE_TGIDS_H

#include <stddef.h>
#include <stdint.h>

struct lat_tgid {
	int32_t tid, tgid;
};

struct lat_tgids {
	struct lat_tgid *v;	/* by tid; owned */
	size_t n, cap;
	int status;		/* what lat_tgids_parse() returned */
};

/*
 * The tgids line in @meta (latscope's metadata lines) into @t (zeroed, or parsed before:
 * replaced), NULL or none: empty.  Returns the number of pairs read, -LAT_ENOMEM (empty), or
 * -LAT_EFORMAT after keeping the pairs before a malformed one; the same in t->status.
 */
int lat_tgids_parse(struct lat_tgids *t, const char *meta);
/*
 * The tgid of task @tid, -1 when unknown (@t NULL: no table; or the idle task).  Inline,
 * for the exporters' every row; the steps of bsearch() (glibc's), so that a tid listed
 * twice gives the pair it gave.
 */
static inline int32_t lat_tgids_of(const struct lat_tgids *t, int32_t tid)
{
	size_t lo = 0, hi;

	if (!t || tid <= 0)
		return -1;
	hi = t->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (tid < t->v[mid].tid)
			hi = mid;
		else if (tid > t->v[mid].tid)
			lo = mid + 1;
		else
			return t->v[mid].tgid;
	}
	return -1;
}
/* Frees the table (not @t). */
void lat_tgids_release(struct lat_tgids *t);

#endif
