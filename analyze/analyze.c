// SPDX-License-Identifier: GPL-2.0-or-later
#include <string.h>

#include "latscope/analyze.h"
#include "analyze_priv.h"
#include "latscope/an_probe.h"

void lat_analyze_opts_init(struct lat_analyze_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->threshold_ns = 10 * LAT_NS_PER_MS;
	o->worst_n = 5;
	o->top_n = 20;
	o->wake_start = LAT_WAKE_START_WAKING;
}

/* An event trace: the probe samples are collected inside the wakeup analysis' event loop. */
int lat_analyze_events(struct lat_block *b, const struct lat_analyze_opts *o)
{
	return lat_analyze_wakeup_probe(b, o, 1);
}

/* What the event trace's analysis hangs on the block besides b->analysis. */
void lat_events_extra_free(struct lat_block *b)
{
	lat_probe_result_free(b->probe);
	b->probe = NULL;
}
