// SPDX-License-Identifier: GPL-2.0-or-later
#include <string.h>

#include "latscope/an_schedcnt.h"
#include "report_priv.h"

static void opt_int(struct lat_json *j, const char *key, int64_t v)
{
	if (v == LAT_VALUE_NONE)
		lat_json_null(j, key);
	else
		lat_json_int(j, key, v);
}

static void cpu_json(struct lat_json *j, const struct lat_sched_cpu *c, double mhz)
{
	lat_json_obj_open(j, NULL);
	if (c->cpu >= 0)
		lat_json_int(j, "cpu", c->cpu);
	else
		lat_json_null(j, "cpu");
	lat_json_uint(j, "rows", c->rows);
	opt_int(j, "announced_rows", c->announced);
	lat_json_obj_open(j, "lat_cycles");
	lat_json_int(j, "min", c->lat_min);
	lat_json_fixed(j, "avg", c->lat_avg, 3);
	lat_json_int(j, "max", c->lat_max);
	lat_json_obj_close(j);
	if (mhz > 0) {
		lat_json_obj_open(j, "lat_ns");
		lat_json_int(j, "min", lat_cycles_to_ns((double)c->lat_min, mhz));
		lat_json_int(j, "avg", lat_cycles_to_ns(c->lat_avg, mhz));
		lat_json_int(j, "max", lat_cycles_to_ns((double)c->lat_max, mhz));
		lat_json_obj_close(j);
	}
	opt_int(j, "tool_avg_lat_cycles", c->tool_avg);
	opt_int(j, "tool_second_number", c->tool_second);
	lat_json_bool(j, "avg_matches", c->tool_avg != LAT_VALUE_NONE && !c->avg_mismatch);
	lat_json_uint(j, "inconsistent_lat_rows", c->lat_inconsistent);
	lat_json_uint(j, "inconsistent_entrydif_rows", c->dif_inconsistent);
	if (c->period_count) {
		lat_json_obj_open(j, "entrydif_period");
		lat_json_int(j, "cycles", c->period_cycles);
		if (mhz > 0)
			lat_json_int(j, "ns", lat_cycles_to_ns((double)c->period_cycles, mhz));
		lat_json_uint(j, "rows", c->period_count);
		lat_json_uint(j, "of", c->ndif);
		if (c->period2_count) {
			lat_json_int(j, "second_cycles", c->period2_cycles);
			if (mhz > 0)
				lat_json_int(j, "second_ns",
					     lat_cycles_to_ns((double)c->period2_cycles, mhz));
			lat_json_uint(j, "second_rows", c->period2_count);
		}
		lat_json_obj_close(j);
	} else {
		lat_json_null(j, "entrydif_period");
	}
	lat_json_obj_close(j);
}

static void mask_json(struct lat_json *j, const char *key, uint64_t mask)
{
	lat_json_arr_open(j, key);
	for (int c = 0; c < 64; c++)
		if (mask & (1ull << c))
			lat_json_int(j, NULL, c);
	lat_json_arr_close(j);
}

void rp_report_schedcnt_json(struct lat_json *j, const struct lat_block *b)
{
	const struct lat_sched_result *r = b->analysis;

	if (!r)
		return;
	if (r->cpu_mhz > 0)
		lat_json_fixed(j, "cpu_mhz", r->cpu_mhz, 3);
	else
		lat_json_null(j, "cpu_mhz");
	lat_json_arr_open(j, "runs");
	for (size_t i = 0; i < r->nruns; i++) {
		const struct lat_sched_run *run = &r->runs[i];

		lat_json_obj_open(j, NULL);
		lat_json_str(j, "label", run->label);
		lat_json_arr_open(j, "cpus");
		for (size_t c = 0; c < run->ncpus; c++)
			cpu_json(j, &run->cpus[c], r->cpu_mhz);
		lat_json_arr_close(j);
		lat_json_arr_open(j, "bouncing_tids");
		for (size_t p = 0; p < run->npids; p++)
			if (__builtin_popcountll(run->pids[p].cpu_mask) > 1)
				lat_json_int(j, NULL, run->pids[p].pid);
		lat_json_arr_close(j);
		lat_json_arr_open(j, "tids");
		for (size_t p = 0; p < run->npids; p++) {
			lat_json_obj_open(j, NULL);
			lat_json_null(j, "pid");	/* the log names threads only */
			lat_json_int(j, "tid", run->pids[p].pid);
			lat_json_uint(j, "rows", run->pids[p].rows);
			mask_json(j, "cpus", run->pids[p].cpu_mask);
			lat_json_uint(j, "moves", run->pids[p].moves);
			lat_json_obj_close(j);
		}
		lat_json_arr_close(j);
		lat_json_obj_close(j);
	}
	lat_json_arr_close(j);
}

static void cycles_cell(FILE *out, int64_t v, int width)
{
	if (v == LAT_VALUE_NONE)
		fprintf(out, "%*s", width, "unknown");
	else
		fprintf(out, "%*lld", width, (long long)v);
}

void rp_report_schedcnt_text(FILE *out, const struct lat_block *b)
{
	const struct lat_sched_result *r = b->analysis;
	char d[32];

	if (!r)
		return;
	for (size_t i = 0; i < r->nruns; i++) {
		const struct lat_sched_run *run = &r->runs[i];

		fputs("  ", out);
		lat_fput_safe(out, run->label, strlen(run->label));
		fprintf(out, "\n    %-11s %5s %7s  %8s %10s %8s  %9s  %-*s", "cpu", "rows", "of",
			"LAT min", "avg", "max", "tool avg", r->cpu_mhz > 0 ? 31 : 0,
			"ENTRYDIF period(s) (rows), cycles");
		if (r->cpu_mhz > 0)
			fprintf(out, "  %9s %9s %9s %10s", "min", "avg", "max", "period");
		fputc('\n', out);
		for (size_t c = 0; c < run->ncpus; c++) {
			const struct lat_sched_cpu *cp = &run->cpus[c];
			char per[40];

			fputs("    ", out);
			rp_report_cell(out, cp->s->name, 11);
			fprintf(out, " %5zu ", cp->rows);
			cycles_cell(out, cp->announced, 7);
			fprintf(out, "  %8lld %10.1f %8lld  ", (long long)cp->lat_min, cp->lat_avg,
				(long long)cp->lat_max);
			cycles_cell(out, cp->tool_avg, 9);
			if (cp->period2_count)
				snprintf(per, sizeof(per), "%lld+%lld (%zu+%zu/%zu)",
					 (long long)cp->period_cycles,
					 (long long)cp->period2_cycles, cp->period_count,
					 cp->period2_count, cp->ndif);
			else if (cp->period_count)
				snprintf(per, sizeof(per), "%lld (%zu/%zu)",
					 (long long)cp->period_cycles, cp->period_count, cp->ndif);
			else
				snprintf(per, sizeof(per), "none (%zu row%s)", cp->ndif,
					 cp->ndif == 1 ? "" : "s");
			fprintf(out, "  %-*s", r->cpu_mhz > 0 ? 31 : 0, per);
			if (r->cpu_mhz > 0) {
				fprintf(out, "  %9s", lat_fmt_duration(lat_cycles_to_ns(
					(double)cp->lat_min, r->cpu_mhz), d, sizeof(d)));
				fprintf(out, " %9s", lat_fmt_duration(lat_cycles_to_ns(
					cp->lat_avg, r->cpu_mhz), d, sizeof(d)));
				fprintf(out, " %9s", lat_fmt_duration(lat_cycles_to_ns(
					(double)cp->lat_max, r->cpu_mhz), d, sizeof(d)));
				fprintf(out, " %10s", cp->period_count ? lat_fmt_duration(
					lat_cycles_to_ns((double)cp->period_cycles, r->cpu_mhz), d,
					sizeof(d)) : "-");
			}
			fputc('\n', out);
		}
		fputs("    PIDs (CPUs):", out);
		for (size_t p = 0; p < run->npids; p++) {
			const struct lat_sched_pid *pp = &run->pids[p];

			fprintf(out, " %d (", pp->pid);
			if (!pp->cpu_mask)
				fputs("CPU unknown", out);
			for (int c = 0, n = 0; c < 64; c++)
				if (pp->cpu_mask & (1ull << c))
					fprintf(out, "%s%d", n++ ? "," : "", c);
			fprintf(out, "%s)",
				__builtin_popcountll(pp->cpu_mask) > 1 ? ", bouncing" : "");
		}
		fputc('\n', out);
	}
	if (r->cpu_mhz <= 0)
		fputs("  (cycles; give --cpu-mhz to convert to time)\n", out);
}
