// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kind table (include/latscope/kind.h): per schema, the analysis, the reports and the
 * chart; and the dispatchers that use it.  It sits in report/, the layer above the analyses
 * (their entry points are in latscope/analyze.h) that holds the report emitters.
 */
#include "latscope/kind.h"
#include "report_priv.h"

/* The emitters of the kinds whose report does not depend on the options. */
#define NO_OPTS(fn, type, arg) \
	static void fn##_o(type arg, const struct lat_block *b, \
			   const struct lat_analyze_opts *o) \
	{ \
		(void)o; \
		fn(arg, b); \
	}
NO_OPTS(lat_report_loop_text, FILE *, out)
NO_OPTS(lat_report_loop_json, struct lat_json *, j)
NO_OPTS(lat_report_schedcnt_text, FILE *, out)
NO_OPTS(lat_report_schedcnt_json, struct lat_json *, j)
NO_OPTS(lat_report_histogram_text, FILE *, out)
NO_OPTS(lat_report_histogram_json, struct lat_json *, j)
NO_OPTS(lat_report_fntrace_text, FILE *, out)
NO_OPTS(lat_report_fntrace_json, struct lat_json *, j)

/* An event trace: the probe samples, then the wakeup analysis. */
static void events_text(FILE *out, const struct lat_block *b, const struct lat_analyze_opts *o)
{
	lat_report_probe_text(out, b);
	lat_report_wakeup_text(out, b, o);
}

static void events_json(struct lat_json *j, const struct lat_block *b,
			const struct lat_analyze_opts *o)
{
	lat_report_probe_json(j, b);
	lat_report_wakeup_json(j, b, o);
}

static const struct lat_kind kinds[] = {
	{ LAT_SCHEMA_LOOP, "loop log", lat_analyze_loop, lat_loop_result_free, NULL,
	  lat_report_loop_text_o, lat_report_loop_json_o, LAT_CHART_SERIES },
	{ LAT_SCHEMA_SCHEDCNT, "schedcnt table", lat_analyze_schedcnt, lat_schedcnt_result_free,
	  NULL, lat_report_schedcnt_text_o, lat_report_schedcnt_json_o, LAT_CHART_CPUS },
	{ LAT_SCHEMA_HISTOGRAM, "histogram", lat_analyze_histogram, lat_histogram_result_free,
	  NULL, lat_report_histogram_text_o, lat_report_histogram_json_o, LAT_CHART_HISTOGRAM },
	{ LAT_SCHEMA_FNTRACE, "function trace", lat_analyze_fntrace, lat_fntrace_result_free, NULL,
	  lat_report_fntrace_text_o, lat_report_fntrace_json_o, LAT_CHART_BLAME },
	{ LAT_SCHEMA_EVENTS, "event trace", lat_analyze_events, wk_result_free,
	  lat_events_extra_free, events_text, events_json, LAT_CHART_TIMELINE },
};

const struct lat_kind *lat_kind_of(enum lat_schema s)
{
	for (size_t i = 0; i < LAT_ARRAY_SIZE(kinds); i++)
		if (kinds[i].schema == s)
			return &kinds[i];
	return NULL;
}

int lat_analyze_block(struct lat_block *b, const struct lat_analyze_opts *o)
{
	const struct lat_kind *k = lat_kind_of(b->schema);

	if (b->skipped_lines)
		lat_block_add_finding(b, "skipped-rows", LAT_SEV_WARN,
				      "%zu malformed line%s skipped (see the messages on stderr)",
				      b->skipped_lines, b->skipped_lines == 1 ? "" : "s");
	if (!k || !k->analyze) {
		lat_block_add_finding(b, "not-analyzed", LAT_SEV_INFO,
				      "no analysis for this kind of block");
		return 0;
	}
	b->kind = k;	/* lat_block_free() frees b->analysis with k->result_free */
	return k->analyze(b, o);
}

enum lat_chart_kind lat_render_pick(const struct lat_block *b)
{
	const struct lat_kind *k = lat_kind_of(b->schema);

	return k ? k->chart : LAT_CHART_AUTO;
}
