// SPDX-License-Identifier: GPL-2.0-or-later
#include <string.h>

#include "report_priv.h"
#include "latscope/format.h"

void lat_fput_safe(FILE *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\x%02x", c);
		else
			fputc(c, out);
	}
}

void lat_report_cell(FILE *out, const char *s, int width)
{
	size_t n = strlen(s);

	lat_fput_safe(out, s, n);
	for (int i = (int)n; i < width; i++)
		fputc(' ', out);
}

static void block_json(struct lat_json *j, const struct lat_block *b,
		       const struct lat_analyze_opts *o)
{
	lat_json_obj_open(j, NULL);
	lat_json_str(j, "format", b->fmt ? b->fmt->name : NULL);
	if (b->first_line) {
		lat_json_arr_open(j, "lines");
		lat_json_uint(j, NULL, b->first_line);
		lat_json_uint(j, NULL, b->last_line);
		lat_json_arr_close(j);
	} else {
		lat_json_null(j, "lines");	/* a whole binary file: no lines */
	}
	lat_json_uint(j, "skipped_lines", b->skipped_lines);
	lat_json_str(j, "title", b->title);
	lat_json_arr_open(j, "findings");
	for (size_t i = 0; i < b->nfindings; i++) {
		lat_json_obj_open(j, NULL);
		lat_json_str(j, "kind", b->findings[i].kind);
		lat_json_str(j, "severity", lat_severity_name(b->findings[i].sev));
		lat_json_str(j, "message", b->findings[i].message);
		lat_json_obj_close(j);
	}
	lat_json_arr_close(j);
	switch (b->schema) {
	case LAT_SCHEMA_LOOP:
		lat_report_loop_json(j, b);
		break;
	case LAT_SCHEMA_SCHEDCNT:
		lat_report_schedcnt_json(j, b);
		break;
	case LAT_SCHEMA_HISTOGRAM:
		lat_report_histogram_json(j, b);
		break;
	case LAT_SCHEMA_FNTRACE:
		lat_report_fntrace_json(j, b);
		break;
	case LAT_SCHEMA_EVENTS:
		lat_report_wakeup_json(j, b, o);
		break;
	default:
		break;
	}
	lat_json_obj_close(j);
}

void lat_report_json(FILE *out, const struct lat_report_input *in, size_t n,
		     const struct lat_analyze_opts *o)
{
	struct lat_json j;

	lat_json_init(&j, out, 1);
	lat_json_obj_open(&j, NULL);
	lat_json_str(&j, "latscope", LATSCOPE_VERSION);
	lat_json_int(&j, "threshold_ns", o->threshold_ns);
	lat_json_arr_open(&j, "inputs");
	for (size_t i = 0; i < n; i++) {
		lat_json_obj_open(&j, NULL);
		lat_json_str(&j, "path", in[i].path);
		lat_json_str(&j, "format", in[i].format);
		lat_json_uint(&j, "lines", in[i].nlines);
		lat_json_uint(&j, "other_lines", in[i].other_lines);
		lat_json_uint(&j, "warnings", in[i].warnings);
		lat_json_str(&j, "error", in[i].error);
		lat_json_arr_open(&j, "blocks");
		for (size_t k = 0; k < in[i].nblocks; k++)
			block_json(&j, in[i].blocks[k], o);
		lat_json_arr_close(&j);
		lat_json_obj_close(&j);
	}
	lat_json_arr_close(&j);
	lat_report_hist_across_json(&j, in, n);
	lat_json_obj_close(&j);
}

static void block_text(FILE *out, const struct lat_block *b, size_t idx,
		       const struct lat_analyze_opts *o)
{
	fprintf(out, "\n== block %zu: %s", idx + 1, b->fmt ? b->fmt->name : "?");
	if (b->first_line)
		fprintf(out, ", lines %u-%u", b->first_line, b->last_line);
	if (b->title) {
		fputs(": ", out);
		lat_fput_safe(out, b->title, strlen(b->title));
	}
	fputs(" ==\n", out);
	for (size_t i = 0; i < b->nfindings; i++) {
		const struct lat_finding *f = &b->findings[i];

		fprintf(out, "  [%s] %s: ", lat_severity_name(f->sev), f->kind);
		lat_fput_safe(out, f->message, strlen(f->message));
		fputc('\n', out);
	}
	switch (b->schema) {
	case LAT_SCHEMA_LOOP:
		lat_report_loop_text(out, b);
		break;
	case LAT_SCHEMA_SCHEDCNT:
		lat_report_schedcnt_text(out, b);
		break;
	case LAT_SCHEMA_HISTOGRAM:
		lat_report_histogram_text(out, b);
		break;
	case LAT_SCHEMA_FNTRACE:
		lat_report_fntrace_text(out, b);
		break;
	case LAT_SCHEMA_EVENTS:
		lat_report_wakeup_text(out, b, o);
		break;
	default:
		break;
	}
}

void lat_report_text(FILE *out, const struct lat_report_input *in, size_t n,
		     const struct lat_analyze_opts *o)
{
	for (size_t i = 0; i < n; i++) {
		fputs(i ? "\n" : "", out);
		fputs("# ", out);
		lat_fput_safe(out, in[i].path, strlen(in[i].path));
		if (in[i].error) {
			fprintf(out, ": error: %s\n", in[i].error);
			continue;
		}
		fprintf(out, ": %s, %zu block%s", in[i].format ? in[i].format : "?",
			in[i].nblocks, in[i].nblocks == 1 ? "" : "s");
		if (in[i].nlines)
			fprintf(out, ", %zu lines (%zu outside blocks: prose, code, quoting)",
				in[i].nlines, in[i].other_lines);
		if (in[i].warnings)
			fprintf(out, ", %zu warning%s", in[i].warnings,
				in[i].warnings == 1 ? "" : "s");
		fputc('\n', out);
		for (size_t k = 0; k < in[i].nblocks; k++)
			block_text(out, in[i].blocks[k], k, o);
	}
	lat_report_hist_across_text(out, in, n);
}
