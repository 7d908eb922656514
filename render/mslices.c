// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The marker slices of a trace with no wait (an Android atrace of an app's
 * trace markers only): per slice name, the durations the wakeup analysis
 * measured from "B|" to "E|" and from "S|" to "F|" (analyze/wakeup_slices.c),
 * drawn as the summary rows (render/ranges.c): min to max, the average, the
 * count, the longest in red.  docs/render.md, "marker slices".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latscope/an_wakeup.h"
#include "render_priv.h"

/* Slice @x as a histogram of no bucket holding what was measured (count, min, avg, max). */
static int mslice_hist(const struct lat_wake_mslice *x, struct lat_histogram *h)
{
	memset(h, 0, sizeof(*h));
	if (asprintf(&h->title, "%s%s", x->name, x->async ? " (async)" : "") < 0) {
		h->title = NULL;
		return -LAT_ENOMEM;
	}
	h->printed_total = (uint64_t)-1;
	h->has_printed = 1;
	h->printed = (struct lat_hist_printed){ (int64_t)x->count, x->min_ns,
						x->sum_ns / (int64_t)x->count, x->max_ns };
	return 0;
}

void rd_mslices_release(struct rd_mslices *m)
{
	for (size_t i = 0; i < m->in.n; i++)
		free(m->hs[i].title);
	free(m->hs);
	free(m->hp);
	memset(m, 0, sizeof(*m));
}

int rd_mslices_input(const struct lat_block *b, struct rd_mslices *m, char *msg, size_t len)
{
	const struct lat_wakeup_result *r = b->analysis;
	uint64_t ended = 0, open = 0;
	char opened[64] = "";
	int ret = 0;

	memset(m, 0, sizeof(*m));
	m->hs = calloc(r->nmslices, sizeof(*m->hs));
	m->hp = calloc(r->nmslices, sizeof(*m->hp));
	if (!m->hs || !m->hp)
		ret = -LAT_ENOMEM;
	for (size_t i = 0; i < r->nmslices && !ret; i++) {
		ended += r->mslices[i].count;
		open += r->mslices[i].open;
		if (r->mslices[i].count && !(ret = mslice_hist(&r->mslices[i], &m->hs[m->in.n])))
			m->hp[m->in.n] = &m->hs[m->in.n], m->in.n++;
	}
	if (ret) {
		snprintf(msg, len, "out of memory");
	} else if (!m->in.n) {
		snprintf(msg, len, "%llu trace-marker slice%s begun and none ended: no duration "
			 "to draw", (unsigned long long)open, PLURAL(open));
		ret = -LAT_EEMPTY;
	}
	if (ret) {
		rd_mslices_release(m);
		return ret;
	}
	if (open)
		snprintf(opened, sizeof(opened), ", %llu still open at the end",
			 (unsigned long long)open);
	snprintf(m->title, sizeof(m->title), "%s%strace-marker slices (no wait to draw): %llu "
		 "ended%s", b->title ? b->title : "", b->title ? " \xc2\xb7 " : "",
		 (unsigned long long)ended, opened);
	m->in.h = m->hp;
	m->in.title = m->title;
	m->in.what = "slice duration (begin to end)";
	m->in.source = "measured from the trace markers";
	return 0;
}

int rd_render_mslices(const struct lat_block *b, const struct lat_render_opts *o,
		      struct lat_render_buf *out)
{
	struct rd_mslices m;
	int ret = rd_mslices_input(b, &m, out->msg, sizeof(out->msg));

	if (ret)
		return ret;
	ret = rd_hist_chart(&m.in, o, out);
	rd_mslices_release(&m);
	return ret;
}
