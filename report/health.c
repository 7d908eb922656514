// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The trace health of an event trace (docs/wakeup.md, "Trace health"): per
 * CPU what its events say about themselves, in the text and the JSON report.
 */
#include <string.h>

#include "latscope/an_wakeup.h"
#include "report_priv.h"

void rp_health_json(struct lat_json *j, const struct lat_wakeup_result *r)
{
	lat_json_uint(j, "low_trust_waits", r->low_trust_waits);
	lat_json_arr_open(j, "health");
	for (size_t i = 0; i < r->nhealth; i++) {
		const struct lat_wake_health *h = &r->health[i];

		lat_json_obj_open(j, NULL);
		lat_json_int(j, "cpu", h->cpu);
		lat_json_uint(j, "events", h->events);
		lat_json_uint(j, "switches", h->switches);
		lat_json_uint(j, "into_idle", h->into_idle);
		lat_json_uint(j, "out_of_idle", h->out_of_idle);
		lat_json_uint(j, "idle_exits_unrecorded", h->idle_exits_unrecorded);
		lat_json_uint(j, "breaks", h->breaks);
		lat_json_uint(j, "wakings", h->wakings);
		lat_json_uint(j, "wakeups", h->wakeups);
		lat_json_uint(j, "unpaired_wakeups", h->unpaired_wakeups);
		lat_json_uint(j, "lost_marks", h->lost_marks);
		lat_json_uint(j, "lost_events", h->lost_events);
		lat_json_uint(j, "silences", h->silences);
		lat_json_uint(j, "longest_silence_ns", h->longest_silence_ns);
		if (h->longest_silence_ns)
			lat_json_uint(j, "longest_silence_end_ns", h->longest_silence_end_ns);
		else
			lat_json_null(j, "longest_silence_end_ns");
		if (h->incomplete != LAT_HEALTH_OK) {
			lat_json_obj_open(j, "incomplete");
			lat_json_str(j, "why", lat_health_name(h->incomplete));
			lat_json_uint(j, "since_ns", h->incomplete_since_ns);
			lat_json_obj_close(j);
		} else {
			lat_json_null(j, "incomplete");
		}
		lat_json_uint(j, "low_trust_waits", h->low_trust_waits);
		lat_json_obj_close(j);
	}
	lat_json_arr_close(j);
}

void rp_health_text(FILE *out, const struct lat_wakeup_result *r)
{
	char d[32];

	if (!r->nhealth)
		return;
	fprintf(out, "\n  %-18s %8s %8s %7s %9s %10s %7s %8s %6s %8s %10s %9s\n", "trace health",
		"events", "switches", "to idle", "from idle", "unrecorded", "breaks", "unpaired",
		"lost", "silences", "longest", "low-trust");
	for (size_t i = 0; i < r->nhealth; i++) {
		const struct lat_wake_health *h = &r->health[i];
		char cpu[32];

		snprintf(cpu, sizeof(cpu), "CPU%d%s", h->cpu,
			 h->incomplete != LAT_HEALTH_OK ? " incomplete" : "");
		fprintf(out, "  %-18s %8llu %8llu %7llu %9llu %10llu %7llu %8llu %6llu %8llu %10s "
			"%9llu\n", cpu, (unsigned long long)h->events,
			(unsigned long long)h->switches, (unsigned long long)h->into_idle,
			(unsigned long long)h->out_of_idle,
			(unsigned long long)h->idle_exits_unrecorded,
			(unsigned long long)h->breaks, (unsigned long long)h->unpaired_wakeups,
			(unsigned long long)h->lost_events, (unsigned long long)h->silences,
			h->longest_silence_ns ? lat_fmt_duration((int64_t)h->longest_silence_ns, d,
								 sizeof(d)) : "-",
			(unsigned long long)h->low_trust_waits);
	}
}
