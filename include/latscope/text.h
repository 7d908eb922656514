/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Text as users paste it: whole files split into lines with mail quoting
 * ("> ", ">> "), CR line ends and trailing blanks removed.  The original line
 * numbers are kept so that every diagnostic can point into the user's file.
 *
 * Mail and paste damage is undone here, before any reader sees a line
 * (docs/formats.md, "Mail and paste damage"):
 *  - quoted-printable bodies are decoded: declared by the mail's own
 *    Content-Transfer-Encoding (per MIME part), or, where no header says
 *    anything, recognised by their pattern (lines ending in a soft break "=",
 *    "=3D"/"=20" escapes, every "=" an escape).  A line joined across soft
 *    breaks keeps the number of its first input line;
 *  - no-break and other Unicode spaces (UTF-8 or a Latin-1 0xA0) become plain
 *    spaces, zero-width ones are dropped;
 *  - an ftrace latency header line wrapped by a mailer (the continuation at
 *    column 0 without "#") is joined again, and a header rule merged with the
 *    line after it ("# -----...----- # latency: ...") is split again;
 *  - a body declared format=flowed (RFC 3676) has its soft breaks joined;
 *  - a table row a mailer wrapped at a fixed column (cyclictest "T:", perf
 *    sched latency and timehist, rtla top) is joined again when the pieces
 *    make one complete row and no piece is a row of its own;
 *  - line numbers a web viewer pasted in front of a run of lines are removed;
 *  - a table quoted as diff lines ("> +    1 #599 ...") loses the diff's prefix
 *    where the readers know the rest of the line (lat_text_undiff()).
 */
#ifndef LATSCOPE_TEXT_H
#define LATSCOPE_TEXT_H

#include "base.h"

struct lat_line {
	const char *s;		/* not NUL-terminated inside the buffer; use len */
	uint32_t len;
	uint32_t lineno;	/* 1-based line number in the input */
	uint8_t quote;		/* mail quote depth that was stripped */
	uint8_t binary;		/* the line held NUL or other non-text bytes */
	uint16_t joined;	/* input lines after @lineno joined into this one */
	uint8_t soft;		/* ended in a format=flowed soft break (a blank), joined with
				 * the next while the text is indexed */
};

/* What lat_text undid; every count is of input lines or characters. */
struct lat_text_repairs {
	uint32_t qp_first, qp_last;	/* input lines decoded as quoted-printable, 0: none */
	uint32_t qp_lines;		/* how many input lines were decoded */
	uint32_t qp_header_line;	/* the Content-Transfer-Encoding line, 0: by pattern */
	uint32_t qp_soft_breaks;	/* "=" line ends removed */
	uint32_t b64_first, b64_last;	/* input lines decoded as base64, 0: none */
	uint32_t b64_lines;		/* how many input lines were decoded */
	uint32_t b64_header_line;	/* the first base64 Content-Transfer-Encoding line */
	uint32_t b64_text_lines;	/* text lines the decoding gave */
	uint32_t b64_bad;		/* bytes that were not base64 (dropped) */
	uint32_t spaces;		/* no-break / Unicode spaces made plain (or dropped) */
	uint32_t first_space_line;
	uint32_t rejoined;		/* wrapped header continuations joined back */
	uint32_t first_rejoined_line;
	uint32_t split;			/* merged header lines split */
	uint32_t first_split_line;
	uint32_t flowed;		/* format=flowed soft breaks joined */
	uint32_t first_flowed_line;
	uint32_t flowed_header_line;	/* the first Content-Type declaring format=flowed */
	uint32_t rows;			/* table rows a mailer wrapped, joined back */
	uint32_t first_row_line;
	uint32_t row_pieces;		/* the lines joined to those rows' first lines */
	uint32_t numbered;		/* lines whose pasted line number was removed */
	uint32_t numbered_first, numbered_last;
	uint32_t diff_stripped;		/* diff lines ("+", context) read unprefixed */
	uint32_t diff_removed;		/* removed lines ("-") of table diffs, dropped */
	uint32_t diff_first, diff_last;	/* the first and last input line of those */
};

struct lat_text {
	char *buf;		/* owned; every line points into it */
	size_t len;
	struct lat_line *lines;	/* owned */
	size_t nlines;
	size_t nbinary;		/* lines with NUL bytes */
	uint32_t nraw;		/* input lines (before soft breaks and wraps were joined) */
	struct lat_text_repairs fix;
	/* a hostile or huge input is cut, not refused: what lies past a cap */
	uint64_t cut_bytes;	/* bytes after the cut, not read into lines */
	int cut;		/* 0, LAT_TEXT_CUT_BYTES or LAT_TEXT_CUT_LINES */
};

/*
 * Largest text input read into memory; larger inputs must be streamed.  A
 * larger file is read up to its last newline before this size and the rest
 * only counted (cut_bytes).
 */
#define LAT_TEXT_MAX_BYTES (512u << 20)
/* Most lines indexed (24 bytes each: at most 384 MiB of index); the rest only counted. */
#define LAT_TEXT_MAX_LINES (1u << 24)

enum { LAT_TEXT_CUT_BYTES = 1, LAT_TEXT_CUT_LINES = 2 };

/*
 * Splits @len bytes at @data (copied) into lines.  Returns 0 or -LAT_ENOMEM.
 * Release with lat_text_release().
 */
int lat_text_init_mem(struct lat_text *t, const char *data, size_t len);
/*
 * 1 when the start of an input (@len bytes at @peek) holds a body the text
 * layer decodes (quoted-printable, declared or by its pattern: docs/formats.md)
 * or joins (format=flowed, declared): the stream readers, which read raw lines,
 * leave such an input to the block path.
 */
int lat_text_peek_encoded(const char *peek, size_t len);
/*
 * Reads all of @fp: up to LAT_TEXT_MAX_BYTES and LAT_TEXT_MAX_LINES lines;
 * beyond a cap t->cut says which and t->cut_bytes how much was left unread.
 * Returns 0, -LAT_ENOMEM or -LAT_EIO.
 */
int lat_text_init_file(struct lat_text *t, FILE *fp);
void lat_text_release(struct lat_text *t);

/*
 * What the lines above a row told the shapes: a tool whose one table comes in
 * several layouts says which in a banner or a header (rtla hwnoise's rows stop
 * after the NMI column of osnoise top's), lines no row shape can see.
 * lat_text_rejoin_rows() zeroes it, hands it to every shape on every line, in
 * order, and keeps what they set; only the shapes read it.
 */
struct lat_row_ctx {
	uint32_t layout;	/* a shape's own code (formats/row_shape.c); 0: none said */
};

/*
 * A table row as a reader knows its tool's printf format: LAT_ROW_NO when
 * @s (@len bytes, one line) does not start a row, LAT_ROW_CUT when it starts
 * one that stops short, LAT_ROW_FULL when it is a whole row.  A shape may note
 * a banner or header's layout in @ctx (and returns LAT_ROW_NO for a banner).
 */
enum lat_row_state { LAT_ROW_NO, LAT_ROW_CUT, LAT_ROW_FULL };
typedef enum lat_row_state (*lat_row_shape)(const char *s, size_t len, struct lat_row_ctx *ctx);

/*
 * Joins the table rows a mailer wrapped at a fixed column back into one line
 * each (docs/formats.md, "Mail and paste damage"): a line that @shapes (n of
 * them, the first that does not say LAT_ROW_NO decides) call cut short is
 * joined with the next 1-4 lines of its quote depth when together they make
 * exactly one whole row and none of them starts a row; t->fix counts it.
 * The init functions repair everything else; the readers know the rows
 * (lat_formats_rejoin_rows() in format.h passes every reader's shapes).
 */
void lat_text_rejoin_rows(struct lat_text *t, const lat_row_shape *shapes, size_t n);

/*
 * What the readers make of a line's text once a diff's prefix is taken off
 * (@s, @len bytes): LAT_CLAIM_ROW a row or header of a table they read,
 * LAT_CLAIM_SOFT a line their tables hold (a blank, a rule, a banner),
 * LAT_CLAIM_NO none of theirs.
 */
enum lat_line_claim { LAT_CLAIM_NO, LAT_CLAIM_SOFT, LAT_CLAIM_ROW };
typedef enum lat_line_claim (*lat_claim_fn)(const char *s, size_t len);

/*
 * Reads a table quoted as diff lines as the patched document shows it
 * (core/text_diff.c, docs/formats.md "Mail and paste damage"): in a hunk
 * (after "@@ -a,b +c,d @@") the "+" and " " prefixes of the lines @claim
 * knows are taken off and its removed ("-") lines dropped; a run of "+"/"-"
 * lines without a hunk header likewise when one added line is a table's row.
 * Prose keeps its prefix.  t->fix counts it.  Before lat_text_rejoin_rows():
 * a row a mailer wrapped is joined once it has lost its prefix.
 */
void lat_text_undiff(struct lat_text *t, lat_claim_fn claim);

/*
 * Strips the mail quoting from one raw line: returns the depth and moves
 * *s / *len past the "> >> " prefix.  CR and trailing blanks are removed too.
 */
unsigned lat_line_dequote(const char **s, size_t *len);

/* Copies line @l into @buf as a NUL-terminated string (truncated to @size - 1). */
size_t lat_line_copy(const struct lat_line *l, char *buf, size_t size);

/* True if the line is empty or only white space. */
int lat_line_blank(const struct lat_line *l);

/*
 * Replaces the mangled micro sign spellings that mail archives produce
 * ("\xc3\xaf" + "s" = "ïs", "Âµs", "µs", "\xb5s") by "us", in place in a
 * NUL-terminated buffer.  Returns the new length.
 */
size_t lat_fix_micro(char *s);

#endif
