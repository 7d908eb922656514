// SPDX-License-Identifier: GPL-2.0-or-later
/* The report envelope (inputs, blocks, findings); each schema's section through report/kind.c. */
#include <string.h>

#include "report_priv.h"
#include "latscope/format.h"
#include "latscope/summary.h"

static void block_json(struct lat_json *j, const struct lat_block *b,
		       const struct lat_analyze_opts *o)
{
	const struct rp_writers *kind;

	lat_json_obj_open(j, NULL);
	lat_json_str(j, "format", b->fmt ? b->fmt->name : NULL);
	if (b->first_line) {
		rp_report_json_lines(j, "lines", b->first_line, b->last_line);
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
	kind = rp_writers_of(b->schema);
	if (kind)
		kind->json(j, b, o);
	lat_json_obj_close(j);
}

static int repaired(const struct lat_text_repairs *r)
{
	return r && (r->qp_lines || r->b64_lines || r->spaces || r->rejoined || r->split ||
		     r->flowed || r->rows || r->numbered || r->diff_stripped || r->diff_removed);
}

/* The repairs of issue 28 (flowed, wrapped rows, line numbers, diffs): keys only when done. */
static void repairs_json_rows(struct lat_json *j, const struct lat_text_repairs *r)
{
	if (r->flowed) {
		lat_json_obj_open(j, "format_flowed");
		lat_json_uint(j, "soft_breaks", r->flowed);
		lat_json_uint(j, "first_line", r->first_flowed_line);
		lat_json_uint(j, "declared_at_line", r->flowed_header_line);
		lat_json_obj_close(j);
	}
	if (r->rows) {
		lat_json_obj_open(j, "wrapped_rows");
		lat_json_uint(j, "rows", r->rows);
		lat_json_uint(j, "pieces_joined", r->row_pieces);
		lat_json_uint(j, "first_line", r->first_row_line);
		lat_json_obj_close(j);
	}
	if (r->numbered) {
		lat_json_obj_open(j, "line_numbers");
		lat_json_uint(j, "lines_stripped", r->numbered);
		rp_report_json_lines(j, "lines", r->numbered_first, r->numbered_last);
		lat_json_obj_close(j);
	}
	if (r->diff_stripped || r->diff_removed) {
		lat_json_obj_open(j, "diff_lines");
		lat_json_uint(j, "prefixes_stripped", r->diff_stripped);
		lat_json_uint(j, "removed_dropped", r->diff_removed);
		rp_report_json_lines(j, "lines", r->diff_first, r->diff_last);
		lat_json_obj_close(j);
	}
}

/* What the text layer undid (docs/json.md "repairs"); absent when nothing. */
static void repairs_json(struct lat_json *j, const struct lat_text_repairs *r)
{
	if (!repaired(r))
		return;
	lat_json_obj_open(j, "repairs");
	if (r->qp_lines) {
		lat_json_obj_open(j, "quoted_printable");
		rp_report_json_lines(j, "lines", r->qp_first, r->qp_last);
		lat_json_uint(j, "input_lines", r->qp_lines);
		lat_json_uint(j, "soft_breaks", r->qp_soft_breaks);
		if (r->qp_header_line)
			lat_json_uint(j, "declared_at_line", r->qp_header_line);
		else
			lat_json_null(j, "declared_at_line");
		lat_json_obj_close(j);
	} else {
		lat_json_null(j, "quoted_printable");
	}
	if (r->b64_lines) {
		lat_json_obj_open(j, "base64");
		rp_report_json_lines(j, "lines", r->b64_first, r->b64_last);
		lat_json_uint(j, "input_lines", r->b64_lines);
		lat_json_uint(j, "text_lines", r->b64_text_lines);
		lat_json_uint(j, "bad_bytes", r->b64_bad);
		lat_json_uint(j, "declared_at_line", r->b64_header_line);
		lat_json_obj_close(j);
	} else {
		lat_json_null(j, "base64");
	}
	lat_json_uint(j, "unicode_spaces", r->spaces);
	lat_json_uint(j, "first_unicode_space_line", r->first_space_line);
	lat_json_uint(j, "header_lines_rejoined", r->rejoined);
	lat_json_uint(j, "first_rejoined_line", r->first_rejoined_line);
	lat_json_uint(j, "header_lines_split", r->split);
	lat_json_uint(j, "first_split_line", r->first_split_line);
	repairs_json_rows(j, r);
	lat_json_obj_close(j);
}

static void repairs_text(FILE *out, const struct lat_text_repairs *r)
{
	const char *sep = "";

	if (!repaired(r))
		return;
	fputs("  repaired:", out);
	if (r->qp_lines) {
		fprintf(out, " quoted-printable decoded in lines %u-%u (", r->qp_first, r->qp_last);
		if (r->qp_header_line)
			fprintf(out, "Content-Transfer-Encoding at line %u", r->qp_header_line);
		else
			fputs("no header: recognised by its escapes", out);
		fprintf(out, "; %u soft line breaks joined)", r->qp_soft_breaks);
		sep = ";";
	}
	if (r->b64_lines) {
		fprintf(out, "%s base64 decoded in lines %u-%u (Content-Transfer-Encoding at "
			"line %u; %u text lines", sep, r->b64_first, r->b64_last,
			r->b64_header_line, r->b64_text_lines);
		if (r->b64_bad)
			fprintf(out, "; %u bytes that are not base64 dropped", r->b64_bad);
		fputc(')', out);
		sep = ";";
	}
	if (r->spaces) {
		fprintf(out, "%s %u no-break/Unicode space%s made plain (first at line %u)", sep,
			r->spaces, r->spaces == 1 ? "" : "s", r->first_space_line);
		sep = ";";
	}
	if (r->rejoined) {
		fprintf(out, "%s %u wrapped header line%s joined back (first at line %u)", sep,
			r->rejoined, r->rejoined == 1 ? "" : "s", r->first_rejoined_line);
		sep = ";";
	}
	if (r->split) {
		fprintf(out, "%s %u merged header line%s split (first at line %u)", sep, r->split,
			r->split == 1 ? "" : "s", r->first_split_line);
		sep = ";";
	}
	if (r->flowed) {
		fprintf(out, "%s %u format=flowed soft break%s joined (first at line %u; "
			"format=flowed at line %u)", sep, r->flowed, r->flowed == 1 ? "" : "s",
			r->first_flowed_line, r->flowed_header_line);
		sep = ";";
	}
	if (r->rows) {
		fprintf(out, "%s %u wrapped table row%s joined back from %u more line%s (first at "
			"line %u)", sep, r->rows, r->rows == 1 ? "" : "s", r->row_pieces,
			r->row_pieces == 1 ? "" : "s", r->first_row_line);
		sep = ";";
	}
	if (r->numbered) {
		fprintf(out, "%s pasted line numbers removed from %u lines (%u-%u)", sep,
			r->numbered, r->numbered_first, r->numbered_last);
		sep = ";";
	}
	if (r->diff_stripped || r->diff_removed)
		fprintf(out, "%s diff-quoted table lines in %u-%u: %u read without their \"+\" "
			"or context prefix, %u removed (\"-\", the old version) not read", sep,
			r->diff_first, r->diff_last, r->diff_stripped, r->diff_removed);
	fputc('\n', out);
}

void lat_report_json(FILE *out, const struct lat_report_input *in, size_t n,
		     const struct lat_analyze_opts *o)
{
	struct lat_json j;

	lat_json_init(&j, out, 1);
	lat_json_obj_open(&j, NULL);
	lat_json_str(&j, "latscope", LATSCOPE_VERSION);
	lat_json_str(&j, "schema", LAT_REPORT_SCHEMA);
	lat_json_int(&j, "version", LAT_REPORT_VERSION);
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
		repairs_json(&j, in[i].repairs);
		lat_json_arr_open(&j, "blocks");
		for (size_t k = 0; k < in[i].nblocks; k++)
			block_json(&j, in[i].blocks[k], o);
		lat_json_arr_close(&j);
		if (in[i].summary)
			lat_summary_json(&j, "summary", in[i].summary);
		lat_json_obj_close(&j);
	}
	lat_json_arr_close(&j);
	rp_report_hist_across_json(&j, in, n);
	if (o->fail_above_ns > 0) {
		struct lat_gate g;

		lat_gate_check(in, n, o->fail_above_ns, &g);
		lat_gate_json(&j, in, n, &g);
	}
	lat_json_obj_close(&j);
}

static void block_text(FILE *out, const struct lat_block *b, size_t idx,
		       const struct lat_analyze_opts *o)
{
	const struct rp_writers *kind;

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
	kind = rp_writers_of(b->schema);
	if (kind)
		kind->text(out, b, o);
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
			fprintf(out, ", %zu line%s (%zu outside blocks: prose, code, quoting)",
				in[i].nlines, in[i].nlines == 1 ? "" : "s", in[i].other_lines);
		if (in[i].warnings)
			fprintf(out, ", %zu warning%s", in[i].warnings,
				in[i].warnings == 1 ? "" : "s");
		fputc('\n', out);
		repairs_text(out, in[i].repairs);
		for (size_t k = 0; k < in[i].nblocks; k++)
			block_text(out, in[i].blocks[k], k, o);
	}
	rp_report_hist_across_text(out, in, n);
	if (o->fail_above_ns > 0) {
		struct lat_gate g;

		lat_gate_check(in, n, o->fail_above_ns, &g);
		lat_gate_text(out, in, n, &g);
	}
}
