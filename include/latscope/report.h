/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reports: human text and the JSON contract (docs/json.md) over analyzed blocks.
 */
#ifndef LATSCOPE_REPORT_H
#define LATSCOPE_REPORT_H

#include "analyze.h"
#include "gate.h"
#include "text.h"

struct lat_summary;

/*
 * The JSON report's schema and its version ("schema", "version" of the envelope;
 * docs/schema/latscope-report.schema.json): the version changes when a key's meaning
 * does or one of the contract is removed, not when keys are added.  2: a thread is "tid"
 * and "pid" its process (thread group) or null, as in the export's rows.
 */
#define LAT_REPORT_SCHEMA "latscope-report"
#define LAT_REPORT_VERSION 2

struct lat_report_input {
	const char *path;		/* lent */
	const char *format;		/* reader name, "mail" for several kinds; lent */
	struct lat_block **blocks;	/* lent */
	size_t nblocks;
	size_t nlines;			/* lines read (text inputs) */
	size_t other_lines;		/* lines outside every block: prose, code, signatures */
	size_t warnings;		/* diagnostics printed while reading */
	const char *error;		/* why the input could not be read, or NULL; lent */
	const struct lat_text_repairs *repairs;	/* mail and paste damage undone, or NULL; lent */
	/* analyze --mergeable: the input's mergeable summary (docs/merge.md), or NULL; lent */
	const struct lat_summary *summary;
};

void lat_report_text(FILE *out, const struct lat_report_input *in, size_t n,
		     const struct lat_analyze_opts *o);
void lat_report_json(FILE *out, const struct lat_report_input *in, size_t n,
		     const struct lat_analyze_opts *o);

/*
 * Every off-CPU (@runnable 0) or runnable (1) stack of the wakeup analyses, in
 * FlameGraph's folded format ("root;...;leaf ns").  Returns how many blocks had
 * kernel stacks; the rows are all there only with o->top_n at least the stacks.
 */
size_t lat_report_folded(FILE *out, const struct lat_report_input *in, size_t n, int runnable);

/*
 * The CI gate (include/latscope/gate.h) over the event traces of @in against @limit_ns: fills
 * @g (lat_gate_block() of every block); returns 1 when something exceeded the limit.
 */
int lat_gate_check(const struct lat_report_input *in, size_t n, int64_t limit_ns,
		   struct lat_gate *g);
/* The gate's section: what was checked, and each task, case, probe CPU and sample above. */
void lat_gate_text(FILE *out, const struct lat_report_input *in, size_t n,
		   const struct lat_gate *g);
struct lat_json;
/* The same as the "gate" member of the JSON report (docs/json.md). */
void lat_gate_json(struct lat_json *j, const struct lat_report_input *in, size_t n,
		   const struct lat_gate *g);

struct lat_wake_case;

/* A verdict's evidence, as the reports word it: at most this many bytes, NUL included. */
#define LAT_VERDICT_TEXT_LEN 256

/*
 * The evidence line of case @c's verdict ("CPU1 saturated: 168.6 waiting on average, ...")
 * into @buf (@len bytes, cut there); returns @buf.  docs/wakeup.md, "Verdicts".
 */
char *lat_report_verdict_text(const struct lat_wake_case *c, char *buf, size_t len);
/* The chain verdict's line of @c ("its waker A/100 waited 8 ms before it could wake it..."). */
char *lat_report_chain_text(const struct lat_wake_case *c, char *buf, size_t len);

/* Writes @len bytes of untrusted text with control characters shown as \xNN. */
void lat_fput_safe(FILE *out, const char *s, size_t len);

#endif
