// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdlib.h>
#include <string.h>

#include "latscope/an_loop.h"
#include "report_priv.h"

static void stat_json(struct lat_json *j, const char *key, const struct lat_stat *s)
{
	lat_json_obj_open(j, key);
	lat_json_uint(j, "n", s->n);
	lat_json_int(j, "min_ns", s->min);
	lat_json_int(j, "p50_ns", s->p50);
	lat_json_int(j, "p99_ns", s->p99);
	lat_json_int(j, "max_ns", s->max);
	lat_json_obj_close(j);
}

void rp_report_loop_json(struct lat_json *j, const struct lat_block *b)
{
	const struct lat_loop_result *r = b->analysis;
	char ts[40];

	if (!r)
		return;
	lat_json_arr_open(j, "processes");
	for (size_t i = 0; i < r->nprocs; i++) {
		const struct lat_loop_proc *p = &r->procs[i];

		lat_json_obj_open(j, NULL);
		lat_json_str(j, "id", p->s->name);
		lat_json_str(j, "legend", p->s->note);
		lat_json_uint(j, "rows", p->rows);
		lat_json_int(j, "max_stall_ns", p->max_stall_ns);
		lat_json_raw_number(j, "max_stall_ts", lat_fmt_ts(p->max_stall_ts, ts, sizeof(ts)));
		lat_json_uint(j, "max_stall_line", p->max_stall_line);
		lat_json_int(j, "max_wait_ns", p->max_wait_ns);
		lat_json_int(j, "loop_nominal_ns", p->loop_nominal_ns);
		stat_json(j, "wait", &p->wait);
		stat_json(j, "loop", &p->loop);
		if (p->max.n)
			stat_json(j, "max", &p->max);
		if (p->has_nbmax)
			lat_json_uint(j, "nbmax_sum", p->nbmax_sum);
		lat_json_arr_open(j, "notes");
		for (size_t k = 0; k < p->s->nnotes; k++) {
			const struct lat_row_note *nt = &p->s->notes[k];

			lat_json_obj_open(j, NULL);
			lat_json_raw_number(j, "ts", lat_fmt_ts(lat_series_at(p->s, nt->row,
						LAT_LOOP_TS), ts, sizeof(ts)));
			lat_json_uint(j, "line", p->s->line[nt->row]);
			lat_json_str(j, "text", nt->text);
			lat_json_obj_close(j);
		}
		lat_json_arr_close(j);
		lat_json_arr_open(j, "freezes");
		for (size_t f = 0; f < p->nfreezes; f++) {
			lat_json_obj_open(j, NULL);
			lat_json_raw_number(j, "ts", lat_fmt_ts(p->freezes[f].ts_ns, ts, sizeof(ts)));
			lat_json_int(j, "duration_ns", p->freezes[f].duration_ns);
			lat_json_str(j, "in", p->freezes[f].what == LAT_FREEZE_WAIT ? "wait" : "loop");
			lat_json_uint(j, "line", p->freezes[f].line);
			lat_json_obj_close(j);
		}
		lat_json_arr_close(j);
		lat_json_obj_close(j);
	}
	lat_json_arr_close(j);
}

static void dur_cell(FILE *out, int64_t ns, int width)
{
	char buf[32];

	fprintf(out, "%*s", width, lat_fmt_duration(ns, buf, sizeof(buf)));
}

struct freeze_ref {
	const struct lat_loop_proc *p;
	const struct lat_freeze *f;
};

static int cmp_freeze_desc(const void *a, const void *b)
{
	const struct freeze_ref *x = a, *y = b;

	if (x->f->duration_ns != y->f->duration_ns)
		return x->f->duration_ns < y->f->duration_ns ? 1 : -1;
	return (x->f->line > y->f->line) - (x->f->line < y->f->line);
}

#define TEXT_FREEZES 10

/* The longest freezes of every process, longest first; the JSON report has them all. */
static void print_worst_freezes(FILE *out, const struct lat_loop_result *r)
{
	struct freeze_ref *all;
	size_t n = 0, k = 0;
	char ts[40], d[32];

	for (size_t i = 0; i < r->nprocs; i++)
		n += r->procs[i].nfreezes;
	if (!n)
		return;
	all = malloc(n * sizeof(*all));
	if (!all)
		return;
	for (size_t i = 0; i < r->nprocs; i++)
		for (size_t f = 0; f < r->procs[i].nfreezes; f++)
			all[k++] = (struct freeze_ref){ &r->procs[i], &r->procs[i].freezes[f] };
	lat_sort(all, n, sizeof(*all), cmp_freeze_desc);
	fprintf(out, "  longest freezes:\n");
	for (k = 0; k < n && k < TEXT_FREEZES; k++) {
		const struct lat_freeze *f = all[k].f;

		fprintf(out, "    process %s at %s (line %u): %s %s\n", all[k].p->s->name,
			lat_fmt_ts(f->ts_ns, ts, sizeof(ts)), f->line,
			f->what == LAT_FREEZE_WAIT ? "asleep" : "loop stalled",
			lat_fmt_duration(f->duration_ns, d, sizeof(d)));
	}
	if (n > TEXT_FREEZES)
		fprintf(out, "    ... %zu more (--json lists every freeze)\n", n - TEXT_FREEZES);
	free(all);
}

#define TEXT_NOTES 10

/* The notes someone typed after rows, in input order. */
static void print_notes(FILE *out, const struct lat_loop_result *r)
{
	size_t shown = 0, all = 0;
	char ts[40];

	for (size_t i = 0; i < r->nprocs; i++)
		all += r->procs[i].s->nnotes;
	if (!all)
		return;
	fputs("  notes after rows:\n", out);
	for (size_t i = 0; i < r->nprocs; i++) {
		const struct lat_series *s = r->procs[i].s;

		for (size_t k = 0; k < s->nnotes && shown < TEXT_NOTES; k++, shown++) {
			const struct lat_row_note *nt = &s->notes[k];

			fprintf(out, "    process %s at %s (line %u): ", s->name,
				lat_fmt_ts(lat_series_at(s, nt->row, LAT_LOOP_TS), ts, sizeof(ts)),
				s->line[nt->row]);
			lat_fput_safe(out, nt->text, strlen(nt->text));
			fputc('\n', out);
		}
	}
	if (all > shown)
		fprintf(out, "    ... %zu more (--json lists every note)\n", all - shown);
}

void rp_report_loop_text(FILE *out, const struct lat_block *b)
{
	const struct lat_loop_result *r = b->analysis;

	if (!r)
		return;
	fprintf(out, "  %-8s %6s  %-37s  %-37s  %10s %8s\n", "process", "rows",
		"wait/select  min / p50 / p99 / max", "loop  min / p50 / p99 / max", "max stall",
		"freezes");
	for (size_t i = 0; i < r->nprocs; i++) {
		const struct lat_loop_proc *p = &r->procs[i];

		fputs("  ", out);
		rp_report_cell(out, p->s->name, 8);
		fprintf(out, " %6zu ", p->rows);
		dur_cell(out, p->wait.min, 9);
		dur_cell(out, p->wait.p50, 9);
		dur_cell(out, p->wait.p99, 9);
		dur_cell(out, p->wait.max, 9);
		fputs("  ", out);
		dur_cell(out, p->loop.min, 9);
		dur_cell(out, p->loop.p50, 9);
		dur_cell(out, p->loop.p99, 9);
		dur_cell(out, p->loop.max, 9);
		dur_cell(out, p->max_stall_ns, 12);
		fprintf(out, " %8zu\n", p->nfreezes);
	}
	print_worst_freezes(out, r);
	print_notes(out, r);
}
