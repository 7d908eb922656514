// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The analysis layer's table: per schema, the analysis that fills b->analysis and the
 * function that frees it (and b->probe).  The reports' table is report/kind.c, the charts'
 * render/chart_opts.c; each layer maps a schema to its own job.
 */
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
static int an_events(struct lat_block *b, const struct lat_analyze_opts *o)
{
	return wk_analyze(b, o, 1);
}

static void an_events_free(void *r)
{
	wk_result_free(r);
}

static const struct an_kind {
	enum lat_schema schema;
	int (*analyze)(struct lat_block *b, const struct lat_analyze_opts *o);
	void (*result_free)(void *result);
} kinds[] = {
	{ LAT_SCHEMA_LOOP, an_loop, an_loop_free },
	{ LAT_SCHEMA_SCHEDCNT, an_schedcnt, an_schedcnt_free },
	{ LAT_SCHEMA_HISTOGRAM, an_histogram, an_histogram_free },
	{ LAT_SCHEMA_FNTRACE, an_fntrace, an_fntrace_free },
	{ LAT_SCHEMA_EVENTS, an_events, an_events_free },
};

static const struct an_kind *kind_of(enum lat_schema s)
{
	for (size_t i = 0; i < LAT_ARRAY_SIZE(kinds); i++)
		if (kinds[i].schema == s)
			return &kinds[i];
	return NULL;
}

/* lat_block.analysis_free: what an analysis left on the block (its result, the probe's). */
static void analysis_free(struct lat_block *b)
{
	const struct an_kind *k = kind_of(b->schema);

	if (b->analysis && k)
		k->result_free(b->analysis);
	b->analysis = NULL;
	pr_result_free(b->probe);
	b->probe = NULL;
}

int lat_analyze_block(struct lat_block *b, const struct lat_analyze_opts *o)
{
	const struct an_kind *k = kind_of(b->schema);

	if (b->skipped_lines)
		lat_block_add_finding(b, "skipped-rows", LAT_SEV_WARN,
				      "%zu malformed line%s skipped (see the messages on stderr)",
				      b->skipped_lines, b->skipped_lines == 1 ? "" : "s");
	if (!k) {
		lat_block_add_finding(b, "not-analyzed", LAT_SEV_INFO,
				      "no analysis for this kind of block");
		return 0;
	}
	b->analysis_free = analysis_free;	/* lat_block_free() frees the results with it */
	return k->analyze(b, o);
}
