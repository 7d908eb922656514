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

int lat_analyze_block(struct lat_block *b, const struct lat_analyze_opts *o)
{
	int ret = 0;

	if (b->skipped_lines)
		lat_block_add_finding(b, "skipped-rows", LAT_SEV_WARN,
				      "%zu malformed line%s skipped (see the messages on stderr)",
				      b->skipped_lines, b->skipped_lines == 1 ? "" : "s");
	switch (b->schema) {
	case LAT_SCHEMA_LOOP:
		ret = lat_analyze_loop(b, o);
		break;
	case LAT_SCHEMA_SCHEDCNT:
		ret = lat_analyze_schedcnt(b, o);
		break;
	case LAT_SCHEMA_HISTOGRAM:
		ret = lat_analyze_histogram(b, o);
		break;
	case LAT_SCHEMA_FNTRACE:
		ret = lat_analyze_fntrace(b, o);
		break;
	case LAT_SCHEMA_EVENTS:
		ret = lat_probe_attach(b, o);
		if (!ret)
			ret = lat_analyze_wakeup(b, o);
		if (!ret)
			ret = lat_probe_finish(b);
		else
			lat_probe_finish(b);
		break;
	default:
		lat_block_add_finding(b, "not-analyzed", LAT_SEV_INFO,
				      "no analysis for this kind of block");
		break;
	}
	return ret;
}
