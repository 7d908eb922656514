// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The recorder's thread groups (include/latscope/tgids.h): the "latscope: tgids=" metadata
 * line read back.  In the model layer so that the reader parses it once where it reads the
 * metadata, and the reports and exporters above look tasks up in that one table.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "latscope/base.h"
#include "latscope/tgids.h"

static int cmp_tgid(const void *a, const void *b)
{
	int32_t x = ((const struct lat_tgid *)a)->tid, y = ((const struct lat_tgid *)b)->tid;

	return (x > y) - (x < y);
}

/* One "TID:TGID" of the tgids line at *@p (which moves past it): 1, or 0 malformed. */
static int tgid_pair(const char **p, struct lat_tgid *out)
{
	char *end;
	long tid, tgid;

	errno = 0;
	tid = strtol(*p, &end, 10);
	if (end == *p || *end != ':' || tid <= 0 || tid > INT32_MAX)
		return 0;
	*p = end + 1;
	tgid = strtol(*p, &end, 10);
	if (end == *p || errno || tgid <= 0 || tgid > INT32_MAX)
		return 0;
	*p = end;
	out->tid = (int32_t)tid;
	out->tgid = (int32_t)tgid;
	return 1;
}

/* The tgids line's pairs from @p on into @tg: as lat_tgids_parse(). */
static int tgids_read(struct lat_tgids *tg, const char *p)
{
	int ret = 0;

	while (*p && *p != '\n') {
		struct lat_tgid t;

		if (!tgid_pair(&p, &t)) {
			ret = -LAT_EFORMAT;
			break;
		}
		if (lat_grow(&tg->v, &tg->cap, tg->n + 1, sizeof(t))) {
			tg->n = 0;
			return -LAT_ENOMEM;
		}
		tg->v[tg->n++] = t;
		if (*p == ',') {
			p++;
		} else if (*p && *p != '\n') {
			ret = -LAT_EFORMAT;
			break;
		}
	}
	lat_sort(tg->v, tg->n, sizeof(*tg->v), cmp_tgid);
	return ret ? ret : (int)tg->n;
}

int lat_tgids_parse(struct lat_tgids *tg, const char *meta)
{
	static const char key[] = "latscope: tgids=";
	const char *p = meta;

	tg->n = 0;
	while (p && strncmp(p, key, sizeof(key) - 1)) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	tg->status = p ? tgids_read(tg, p + sizeof(key) - 1) : 0;
	return tg->status;
}

void lat_tgids_release(struct lat_tgids *tg)
{
	free(tg->v);
	*tg = (struct lat_tgids){ .v = NULL };
}
