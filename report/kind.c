// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The report layer's table: per schema, the block's section of the text and of the JSON
 * report (after the common part, report/report.c).  The analyses have their own table
 * (analyze/analyze.c), the charts theirs (render/chart_opts.c).
 */
#include "report_priv.h"

/* The emitters of the kinds whose report does not depend on the options. */
#define NO_OPTS(fn, type, arg) \
	static void fn##_o(type arg, const struct lat_block *b, \
			   const struct lat_analyze_opts *o) \
	{ \
		(void)o; \
		fn(arg, b); \
	}
NO_OPTS(rp_report_loop_text, FILE *, out)
NO_OPTS(rp_report_loop_json, struct lat_json *, j)
NO_OPTS(rp_report_schedcnt_text, FILE *, out)
NO_OPTS(rp_report_schedcnt_json, struct lat_json *, j)
NO_OPTS(rp_report_histogram_text, FILE *, out)
NO_OPTS(rp_report_histogram_json, struct lat_json *, j)
NO_OPTS(rp_report_fntrace_text, FILE *, out)
NO_OPTS(rp_report_fntrace_json, struct lat_json *, j)

/*
 * An event trace: the probe samples, the wakeup analysis, the timers, the recorded
 * environment.
 */
static void events_text(FILE *out, const struct lat_block *b, const struct lat_analyze_opts *o)
{
	rp_report_probe_text(out, b);
	rp_report_wakeup_text(out, b, o);
	rp_report_timers_text(out, b, o);
	rp_report_env_text(out, b);
}

static void events_json(struct lat_json *j, const struct lat_block *b,
			const struct lat_analyze_opts *o)
{
	rp_report_probe_json(j, b);
	rp_report_wakeup_json(j, b, o);
	rp_report_timers_json(j, b);
	rp_report_env_json(j, b);
}

static const struct rp_writers writers[] = {
	{ LAT_SCHEMA_LOOP, rp_report_loop_text_o, rp_report_loop_json_o },
	{ LAT_SCHEMA_SCHEDCNT, rp_report_schedcnt_text_o, rp_report_schedcnt_json_o },
	{ LAT_SCHEMA_HISTOGRAM, rp_report_histogram_text_o, rp_report_histogram_json_o },
	{ LAT_SCHEMA_FNTRACE, rp_report_fntrace_text_o, rp_report_fntrace_json_o },
	{ LAT_SCHEMA_EVENTS, events_text, events_json },
};

const struct rp_writers *rp_writers_of(enum lat_schema s)
{
	for (size_t i = 0; i < LAT_ARRAY_SIZE(writers); i++)
		if (writers[i].schema == s)
			return &writers[i];
	return NULL;
}
