/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Readers and the registry that picks one (libarchive's bid, FFmpeg's probe).
 *
 * Two kinds of reader:
 *  - block readers understand text logs that may sit anywhere inside a mail:
 *    the segmenter asks every block reader to classify each line, cuts the
 *    input into blocks, and hands each block to its reader's parse_block();
 *  - stream readers (trace.dat, ftrace text) turn a whole file into an event
 *    stream without loading it.
 * A reader may be both (ftrace text pasted into a mail is a block).
 */
#ifndef LATSCOPE_FORMAT_H
#define LATSCOPE_FORMAT_H

#include "base.h"
#include "text.h"
#include "model.h"
#include "event.h"

/* Bytes a probe sees; the buffer is zero-padded by at least 16 bytes past len. */
#define LAT_PEEK_BYTES 65536
#define LAT_PEEK_PAD 16

/* How a block reader sees one (dequoted) line. */
enum lat_line_kind {
	LAT_LINE_NO = 0,	/* not mine: ends a block (unless a row follows within 2 lines) */
	LAT_LINE_SOFT = 1,	/* blank, comment or legend: kept inside a block, never starts one */
	LAT_LINE_ROW = 2,	/* a data row (or something shaped like one: a malformed row) */
	LAT_LINE_HEAD = 3,	/* a header that starts a block; after rows it starts the next */
};

/* An input being read: the path and a peek at its start. */
struct lat_input {
	const char *path;		/* for messages; "-" is stdin; lent */
	FILE *fp;			/* positioned at 0 (stdin: peek already consumed) */
	const char *peek;		/* first peeklen bytes, zero-padded */
	size_t peeklen;
	int peek_consumed;		/* fp is past the peek (pipes): readers must start from peek */
	const char *buffer;		/* trace.dat: instance to read (--buffer), NULL = top; lent */
	int jobs;			/* threads (--jobs): 0 the reader's default, 1 one */
};

struct lat_format {
	const char *name;		/* "lat3", "schedcnt", "trace.dat", ... */
	const char *summary;		/* one line for `latscope formats` */
	/* 0 = not mine ... 100 = certain; only peeks, scores what it verified. */
	int (*probe)(const char *peek, size_t len);
	/*
	 * Its probe scores 100 only on the file's magic bytes (a binary format):
	 * probed before the others, and such a 100 is final.  The text readers'
	 * probes would only scan the peek's binary bytes (~2.5M instructions, a
	 * 64 KiB peek) to score 0.
	 */
	unsigned char magic;

	/* block readers */
	enum lat_line_kind (*line_kind)(const char *s, size_t len);
	/*
	 * Parses lines [first, end) of @t into @b (schema and models).  Malformed rows
	 * are reported through @d as "file:line: expected ..." and counted in
	 * b->skipped_lines.  Returns 0, or a negative lat_err if nothing was usable.
	 */
	int (*parse_block)(const struct lat_text *t, size_t first, size_t end,
			   struct lat_block *b, struct lat_diag *d);
	/*
	 * Optional: a header of this reader at line @first followed by no rows is
	 * still a block (a latency trace whose entries the poster left out) when
	 * this returns its end (> @first); 0 when it is not one.
	 */
	size_t (*header_block)(const struct lat_text *t, size_t first);
	/*
	 * Optional: the block of lines [@first, @end) the segmenter found holds
	 * several runs (cyclictest summaries of two processes): returns where the
	 * second starts (first < r < end), else @end.  The segmenter then cuts
	 * there and looks for the next block from that line.
	 */
	size_t (*split)(const struct lat_text *t, size_t first, size_t end);
	/*
	 * Optional: the shapes of its table rows a mailer may wrap, NULL-terminated
	 * (lat_formats_rejoin_rows()).
	 */
	const lat_row_shape *row_shapes;

	/* stream readers: returns 0 and a source, or a negative lat_err (message via @d). */
	int (*open_stream)(struct lat_input *in, struct lat_event_source **out,
			   struct lat_diag *d);
};

/* Every registered reader, in a stable order.  The array is static. */
const struct lat_format *const *lat_formats(size_t *n);
/* The reader called @name, or NULL. */
const struct lat_format *lat_format_find(const char *name);
/*
 * Joins the table rows of @t a mailer wrapped, with every registered reader's
 * row shapes (lat_text_rejoin_rows()): done before segmenting, whichever
 * reader is forced, since the repair is the text's.
 */
void lat_formats_rejoin_rows(struct lat_text *t);
/*
 * 1 when the start of an input (@len bytes at @peek) holds a row a mailer wrapped, which
 * lat_formats_rejoin_rows() would join: the stream readers (raw lines) leave such an
 * input to the block path, as they leave an encoded one (lat_text_peek_encoded()).
 */
int lat_formats_peek_wrapped(const char *peek, size_t len);
/*
 * What the readers' knowledge of their tables repairs in @t, in order: the
 * diff prefixes of a table quoted as diff lines (lat_text_undiff(), with
 * every block reader's line classes and row shapes), then the wrapped rows
 * (lat_formats_rejoin_rows()).  The input layer calls it before segmenting.
 */
void lat_formats_repair_text(struct lat_text *t);

/*
 * Probes @peek with every reader (a magic format's 100 first, which ends it).
 * On success *best is the highest scorer and the return is its score;
 * -LAT_EUNKNOWN when every reader says 0; -LAT_EAMBIGUOUS when two stream
 * readers tie at the top (names in @msg).
 * Ties between block readers are not an error: the segmenter decides per block.
 */
int lat_format_detect(const char *peek, size_t len, const struct lat_format **best,
		      char *msg, size_t msglen);

/* A block found by the segmenter: lines [first, end) of the text. */
struct lat_segment {
	const struct lat_format *fmt;
	size_t first, end;
};

/*
 * Cuts @t into blocks using @fmts (n of them, block readers only).  Fills a
 * malloc'ed array in *out (caller frees) and returns the count, or a negative
 * lat_err.  Where readers claim the same lines equally the tie-break of
 * docs/formats.md picks one (its probe over the block, then registry order);
 * no block is dropped.
 */
int lat_segment_text(const struct lat_text *t, const struct lat_format *const *fmts, size_t n,
		     struct lat_segment **out, struct lat_diag *d);

#endif
