// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The recorded environment of an event trace (latscope/env.h), one short section of its text
 * and JSON reports: what the recorder stored about the machine, each value with its source,
 * and the steal time of the recording.  Nothing when the trace holds no environment.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "latscope/env.h"
#include "latscope/event.h"
#include "latscope/model.h"
#include "report_priv.h"

static const struct lat_trace_env *env_of(const struct lat_block *b)
{
	return b->events && b->events->env && b->events->env->present ? b->events->env : NULL;
}

/* Steal time of CPU @i over the recording (end - start), or LAT_ENV_UNKNOWN. */
static int64_t cpu_steal(const struct lat_trace_env *e, int i)
{
	const struct lat_env_cpu *c = &e->cpus[i];

	if (c->start.steal_ns == LAT_ENV_UNKNOWN || c->end.steal_ns == LAT_ENV_UNKNOWN)
		return LAT_ENV_UNKNOWN;
	return c->end.steal_ns - c->start.steal_ns;
}

/* ---- JSON ---------------------------------------------------------------------------------- */

static void num_json(struct lat_json *j, const char *key, int64_t v)
{
	if (v == LAT_ENV_UNKNOWN)
		lat_json_null(j, key);
	else
		lat_json_int(j, key, v);
}

static void tri_json(struct lat_json *j, const char *key, int v)
{
	if (v < 0)
		lat_json_null(j, key);
	else
		lat_json_bool(j, key, v);
}

static void steal_json(struct lat_json *j, const char *key, const struct lat_steal *s)
{
	if (s->cpu < 0) {
		lat_json_null(j, key);
		return;
	}
	lat_json_obj_open(j, key);
	num_json(j, "steal_ns", s->steal_ns);
	num_json(j, "guest_ns", s->guest_ns);
	num_json(j, "idle_ns", s->idle_ns);
	num_json(j, "iowait_ns", s->iowait_ns);
	lat_json_obj_close(j);
}

static void cpus_json(struct lat_json *j, const struct lat_trace_env *e)
{
	lat_json_arr_open(j, "cpus");
	for (int i = 0; i < e->ncpus; i++) {
		const struct lat_env_cpu *c = &e->cpus[i];

		if (c->start.cpu < 0 && c->end.cpu < 0 && c->fair_runtime_ns == LAT_ENV_UNKNOWN)
			continue;
		lat_json_obj_open(j, NULL);
		lat_json_int(j, "cpu", i);
		num_json(j, "steal_ns", cpu_steal(e, i));
		steal_json(j, "start", &c->start);
		steal_json(j, "end", &c->end);
		num_json(j, "fair_runtime_ns", c->fair_runtime_ns);
		num_json(j, "fair_period_ns", c->fair_period_ns);
		lat_json_obj_close(j);
	}
	lat_json_arr_close(j);
}

void rp_report_env_json(struct lat_json *j, const struct lat_block *b)
{
	const struct lat_trace_env *e = env_of(b);

	if (!e)
		return;
	lat_json_obj_open(j, "environment");
	lat_json_str(j, "preempt", e->preempt < 0 ? NULL : lat_preempt_mode_name(e->preempt));
	lat_json_str(j, "preempt_src", e->preempt_src < 0 ? NULL :
		     lat_env_src_name(e->preempt_src));
	tri_json(j, "preempt_dynamic", e->preempt_dynamic);
	tri_json(j, "preempt_rt", e->preempt_rt);
	lat_json_str(j, "preempt_note", e->preempt_note);
	num_json(j, "hz", e->hz);
	lat_json_str(j, "hz_src", e->hz_src < 0 ? NULL : lat_env_src_name(e->hz_src));
	lat_json_str(j, "nohz", e->nohz < 0 ? NULL : lat_nohz_mode_name(e->nohz));
	lat_json_str(j, "nohz_full", e->nohz_full);
	lat_json_str(j, "isolated", e->isolated);
	lat_json_str(j, "cmdline", e->cmdline);
	lat_json_str(j, "virt", e->virt);
	lat_json_str(j, "virt_src", e->virt_src);
	tri_json(j, "hypervisor_flag", e->hypervisor_flag);
	lat_json_str(j, "sys_hypervisor", e->sys_hypervisor);
	lat_json_str(j, "dmi_vendor", e->dmi_vendor);
	lat_json_str(j, "dmi_product", e->dmi_product);
	num_json(j, "rt_runtime_us", e->rt_runtime_us);
	num_json(j, "rt_period_us", e->rt_period_us);
	lat_json_str(j, "fair_note", e->fair_note);
	num_json(j, "clk_tck", e->clk_tck);
	num_json(j, "steal_interval_ns", e->steal_interval_ns);
	num_json(j, "steal_samples", e->steal_samples);
	num_json(j, "steal_markers", e->steal_markers);
	num_json(j, "steal_late_max_ns", e->steal_late_max_ns);
	cpus_json(j, e);
	lat_json_obj_close(j);
}

/* ---- text ---------------------------------------------------------------------------------- */

static void note_text(FILE *out, const char *note)
{
	if (!note)
		return;
	fputs("; ", out);
	lat_fput_safe(out, note, strlen(note));
}

static void list_text(FILE *out, const char *what, const char *list)
{
	fprintf(out, "%s ", what);
	if (!list)
		fputs("unknown", out);
	else if (!list[0])
		fputs("none", out);
	else
		lat_fput_safe(out, list, strlen(list));
}

static void preempt_text(FILE *out, const struct lat_trace_env *e)
{
	fputs(lat_preempt_mode_name(e->preempt), out);
	if (e->preempt_src >= 0)
		fprintf(out, " (from %s)", lat_env_src_name(e->preempt_src));
	if (e->preempt_rt == 1)
		fputs(", PREEMPT_RT", out);
	if (e->preempt_dynamic >= 0)
		fprintf(out, ", %sPREEMPT_DYNAMIC", e->preempt_dynamic ? "" : "not ");
	note_text(out, e->preempt_note);
}

static void tick_text(FILE *out, const struct lat_trace_env *e)
{
	if (e->hz == LAT_ENV_UNKNOWN)
		fputs("HZ unknown", out);
	else
		fprintf(out, "HZ %" PRId64 " (%s)", e->hz, lat_env_src_name(e->hz_src));
	fprintf(out, ", nohz %s", lat_nohz_mode_name(e->nohz));
}

static void isolation_text(FILE *out, const struct lat_trace_env *e)
{
	list_text(out, "nohz_full", e->nohz_full);
	list_text(out, ", isolated", e->isolated);
	if (e->cmdline && e->cmdline[0]) {
		fputs("; kernel parameters: ", out);
		lat_fput_safe(out, e->cmdline, strlen(e->cmdline));
	}
}

static void virt_text(FILE *out, const struct lat_trace_env *e)
{
	if (e->virt) {
		lat_fput_safe(out, e->virt, strlen(e->virt));
		if (e->virt_src)
			fprintf(out, " (%s)", e->virt_src);
	} else {
		fputs("unknown", out);
	}
	if (e->dmi_product) {
		fputs(", DMI product ", out);
		lat_fput_safe(out, e->dmi_product, strlen(e->dmi_product));
	}
}

static void throttle_text(FILE *out, const struct lat_trace_env *e)
{
	if (e->rt_runtime_us == -1)
		fputs("off (sched_rt_runtime_us -1)", out);
	else if (e->rt_runtime_us != LAT_ENV_UNKNOWN && e->rt_period_us != LAT_ENV_UNKNOWN)
		fprintf(out, "RT tasks get %" PRId64 " us of every %" PRId64 " us",
			e->rt_runtime_us, e->rt_period_us);
	else
		fputs("unknown", out);
	for (int i = 0; i < e->ncpus; i++)
		if (e->cpus[i].fair_runtime_ns != LAT_ENV_UNKNOWN) {
			char a[32], p[32];

			fprintf(out, "; fair server %s per %s (CPU%d)",
				lat_fmt_duration(e->cpus[i].fair_runtime_ns, a, sizeof(a)),
				lat_fmt_duration(e->cpus[i].fair_period_ns, p, sizeof(p)), i);
			break;
		}
	note_text(out, e->fair_note);
}

static void steal_text(FILE *out, const struct lat_trace_env *e)
{
	int64_t total = 0;
	int known = 0;
	char b[32];

	for (int i = 0; i < e->ncpus; i++)
		if (cpu_steal(e, i) != LAT_ENV_UNKNOWN) {
			total += cpu_steal(e, i);
			known++;
		}
	if (!known) {
		fputs("not recorded", out);
		return;
	}
	fprintf(out, "%s during the recording", lat_fmt_duration(total, b, sizeof(b)));
	for (int i = 0, first = 1; i < e->ncpus; i++)
		if (cpu_steal(e, i) != LAT_ENV_UNKNOWN) {
			fprintf(out, "%s CPU%d %s", first ? ":" : ",", i,
				lat_fmt_duration(cpu_steal(e, i), b, sizeof(b)));
			first = 0;
		}
	if (e->clk_tck > 0)
		fprintf(out, " (/proc/stat, %" PRId64 " ms resolution", 1000 / e->clk_tck);
	if (e->steal_interval_ns > 0 && e->steal_markers != LAT_ENV_UNKNOWN)
		fprintf(out, "; read every %s, %" PRId64 " marker%s", lat_fmt_duration(
			e->steal_interval_ns, b, sizeof(b)), e->steal_markers,
			e->steal_markers == 1 ? "" : "s");
	if (e->clk_tck > 0)
		fputc(')', out);
}

void rp_report_env_rows(const struct lat_block *b,
			 void (*row)(void *ctx, const char *what, const char *value), void *ctx)
{
	static const struct {
		const char *what;
		void (*text)(FILE *out, const struct lat_trace_env *e);
	} rows[] = {
		{ "preemption", preempt_text }, { "tick", tick_text },
		{ "isolation", isolation_text }, { "virtual", virt_text },
		{ "RT throttle", throttle_text }, { "steal", steal_text },
	};
	const struct lat_trace_env *e = env_of(b);

	for (size_t i = 0; e && i < LAT_ARRAY_SIZE(rows); i++) {
		char *val = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&val, &len);

		if (!f)
			return;
		rows[i].text(f, e);
		fclose(f);
		row(ctx, rows[i].what, val);
		free(val);
	}
}

static void text_row(void *ctx, const char *what, const char *value)
{
	fprintf(ctx, "    %-12s %s\n", what, value);
}

void rp_report_env_text(FILE *out, const struct lat_block *b)
{
	if (!env_of(b))
		return;
	fputs("\n  recorded environment (latscope record; docs/record.md):\n", out);
	rp_report_env_rows(b, text_row, out);
}
