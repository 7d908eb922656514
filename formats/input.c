// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "latscope/input.h"

/* stdin is copied to an anonymous file so that every reader may seek. */
static FILE *open_path(const char *path)
{
	FILE *in, *tmp;
	char buf[1 << 16];
	size_t n;

	if (strcmp(path, "-")) {
		struct stat st;

		in = fopen(path, "rb");
		/* a directory opens, and then reads as empty */
		if (in && fstat(fileno(in), &st) == 0 && S_ISDIR(st.st_mode)) {
			fclose(in);
			errno = EISDIR;
			return NULL;
		}
		return in;
	}
	in = stdin;
	tmp = tmpfile();
	if (!tmp)
		return NULL;
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, tmp) != n) {
			fclose(tmp);
			return NULL;
		}
	rewind(tmp);
	return tmp;
}

static int add_block(struct lat_loaded *l, struct lat_block *b)
{
	size_t cap = l->nblocks;

	if (lat_grow(&l->blocks, &cap, l->nblocks + 1, sizeof(*l->blocks))) {
		lat_block_free(b);
		return -LAT_ENOMEM;
	}
	l->blocks[l->nblocks++] = b;
	return 0;
}

static int fail(struct lat_loaded *l, int err, const char *fmt, const char *arg)
{
	snprintf(l->error, sizeof(l->error), fmt, arg);
	return err;
}

/*
 * Binary data is dense with NUL bytes; a pasted log with a stray one is still
 * text (that line is skipped and said).  More than 1 NUL in 32 bytes: binary.
 */
static int mostly_binary(const char *p, size_t len)
{
	size_t nul = 0;

	for (size_t i = 0; i < len; i++)
		nul += !p[i];
	return nul * 32 > len;
}

static int load_stream(struct lat_loaded *l, const struct lat_format *f, const char *peek,
		       size_t peeklen)
{
	struct lat_input in = { .path = l->path, .fp = l->fp, .peek = peek, .peeklen = peeklen,
				.buffer = l->opts.buffer, .jobs = l->opts.jobs };
	struct lat_event_source *src = NULL;
	struct lat_block *b;
	int ret;

	ret = f->open_stream(&in, &src, &l->diag);
	if (ret < 0)
		return fail(l, ret, "cannot read as %s (see above)", f->name);
	b = lat_block_new(f, LAT_SCHEMA_EVENTS);
	if (!b) {
		lat_event_source_free(src);
		return -LAT_ENOMEM;
	}
	b->events = src;
	l->format = f->name;
	return add_block(l, b);
}

/*
 * Says on stderr and as a finding of the last block what a cap left unread
 * (LAT_TEXT_MAX_BYTES, LAT_TEXT_MAX_LINES, LAT_MAX_BLOCKS): never a silent loss.
 */
static void report_cuts(struct lat_loaded *l, size_t nseg, size_t used, uint32_t seg_line)
{
	struct lat_block *last = l->nblocks ? l->blocks[l->nblocks - 1] : NULL;
	unsigned long at = l->text.nraw;
	char what[160];

	if (l->text.cut) {
		snprintf(what, sizeof(what), "input cut after line %lu: more than %s; the %llu "
			 "bytes after it were not read", at,
			 l->text.cut == LAT_TEXT_CUT_LINES ? "16777216 lines (LAT_TEXT_MAX_LINES)" :
							     "512 MiB of text (LAT_TEXT_MAX_BYTES)",
			 (unsigned long long)l->text.cut_bytes);
		lat_diag_at(&l->diag, at, "%s", what);
		if (last)
			lat_block_add_finding(last, "input-cut", LAT_SEV_WARN, "%s", what);
	}
	if (nseg > used) {
		snprintf(what, sizeof(what), "%zu more blocks from line %u on were not read: at "
			 "most %u blocks per input (LAT_MAX_BLOCKS)", nseg - used, seg_line,
			 LAT_MAX_BLOCKS);
		lat_diag_at(&l->diag, seg_line, "%s", what);
		if (last)
			lat_block_add_finding(last, "blocks-cut", LAT_SEV_WARN, "%s", what);
	}
}

static int load_text(struct lat_loaded *l, const struct lat_format *forced)
{
	const struct lat_format *const *all;
	const struct lat_format *one[1];
	struct lat_segment *seg = NULL;
	size_t n, claimed = 0, used;
	uint32_t claimed_to = 0;
	int nseg, ret = 0;

	ret = lat_text_init_file(&l->text, l->fp);
	if (ret < 0)
		return fail(l, ret, "cannot read the text: %s", lat_strerror(ret));
	lat_formats_repair_text(&l->text);
	l->nlines = l->text.nraw;
	if (forced) {
		one[0] = forced;
		all = one;
		n = 1;
	} else {
		all = lat_formats(&n);
	}
	nseg = lat_segment_text(&l->text, all, n, &seg, &l->diag);
	if (nseg < 0)
		return fail(l, nseg, "%s", lat_strerror(nseg));
	/* every block costs an analysis and a report: a hostile mail gets the first ones */
	used = (size_t)nseg > LAT_MAX_BLOCKS ? LAT_MAX_BLOCKS : (size_t)nseg;
	for (size_t i = 0; i < used; i++) {
		const struct lat_format *f = seg[i].fmt;
		struct lat_block *b = lat_block_new(f, LAT_SCHEMA_NONE);

		if (!b) {
			ret = -LAT_ENOMEM;
			break;
		}
		b->first_line = l->text.lines[seg[i].first].lineno;
		/* a line joined from several input lines (soft breaks, a wrap) ends on its last */
		b->last_line = l->text.lines[seg[i].end - 1].lineno +
			       l->text.lines[seg[i].end - 1].joined;
		/* input lines, each once (two blocks may share one a mailer merged) */
		if (b->last_line > claimed_to) {
			uint32_t from = b->first_line > claimed_to ? b->first_line : claimed_to + 1;

			claimed += b->last_line - from + 1;
			claimed_to = b->last_line;
		}
		ret = f->parse_block(&l->text, seg[i].first, seg[i].end, b, &l->diag);
		if (ret < 0) {
			lat_diag_at(&l->diag, b->first_line, "%s block (lines %u-%u) unusable: %s",
				    f->name, b->first_line, b->last_line, lat_strerror(ret));
			lat_block_free(b);
			if (ret == -LAT_ENOMEM)
				break;
			ret = 0;
			continue;
		}
		if ((ret = add_block(l, b)) < 0)
			break;
		if (!l->format)
			l->format = f->name;
		else if (strcmp(l->format, f->name))
			l->format = "mail";
	}
	if (ret == 0)
		report_cuts(l, (size_t)nseg, used,
			    used < (size_t)nseg ? l->text.lines[seg[used].first].lineno : 0);
	free(seg);
	l->other_lines = l->nlines - claimed;
	if (ret < 0)
		return fail(l, ret, "%s", lat_strerror(ret));
	if (!l->nblocks)
		return fail(l, -LAT_EEMPTY, "%s",
			    forced ? "no block of this format found" :
				     "no log block of a known format found (see `latscope formats`)");
	return 0;
}

int lat_load(struct lat_loaded *l, const char *path, const struct lat_read_opts *o)
{
	FILE *fp = open_path(path);
	int err = errno;

	if (!fp) {
		memset(l, 0, sizeof(*l));
		l->path = strdup(path);
		snprintf(l->error, sizeof(l->error), "cannot open: %s", strerror(err));
		return -LAT_EIO;
	}
	return lat_load_fp(l, path, fp, o);
}

int lat_load_fp(struct lat_loaded *l, const char *name, FILE *fp, const struct lat_read_opts *o)
{
	const struct lat_format *forced = o ? o->format : NULL;
	char *peek = NULL;
	size_t peeklen;
	const struct lat_format *best = NULL;
	char msg[200];
	int score = 0, ret;

	memset(l, 0, sizeof(*l));
	l->fp = fp;
	if (o)
		l->opts = *o;
	l->path = strdup(name);
	if (!l->path)
		return -LAT_ENOMEM;
	lat_diag_init(&l->diag, l->path, l->opts.diag);
	peek = calloc(1, LAT_PEEK_BYTES + LAT_PEEK_PAD);
	if (!peek)
		return -LAT_ENOMEM;
	peeklen = fread(peek, 1, LAT_PEEK_BYTES, l->fp);
	rewind(l->fp);
	if (!peeklen) {
		free(peek);
		return fail(l, -LAT_EEMPTY, "%s", "empty input");
	}
	if (forced) {
		best = forced;
	} else {
		score = lat_format_detect(peek, peeklen, &best, msg, sizeof(msg));
		if (score == -LAT_EAMBIGUOUS) {
			free(peek);
			return fail(l, score, "%s", msg);
		}
		if (score < 0)
			best = NULL;
	}
	/*
	 * A text reader that streams reads raw lines: an encoded body (a mail's
	 * quoted-printable) or rows a mailer wrapped go to the block path, which
	 * decodes and joins them first.
	 */
	if (best && best->open_stream && (!best->line_kind || forced || score >= 95)) {
		if (!best->line_kind || (!lat_text_peek_encoded(peek, peeklen) &&
					 !lat_formats_peek_wrapped(peek, peeklen))) {
			ret = load_stream(l, best, peek, peeklen);
			free(peek);
			return ret;
		}
		if (l->opts.buffer) {
			free(peek);
			return fail(l, -LAT_EUSAGE, "%s", "--buffer: this input is encoded "
				    "(quoted-printable), format=flowed or wrapped by a mailer and "
				    "is read as pasted text, where no buffer is chosen; decode or "
				    "unwrap it first");
		}
	}
	if (mostly_binary(peek, peeklen)) {
		free(peek);
		return fail(l, -LAT_EUNKNOWN, "%s",
			    "binary data in no format latscope reads (see `latscope formats`)");
	}
	free(peek);
	return load_text(l, forced && forced->line_kind ? forced : NULL);
}

void lat_loaded_release(struct lat_loaded *l)
{
	for (size_t i = 0; i < l->nblocks; i++)
		lat_block_free(l->blocks[i]);
	free(l->blocks);
	lat_text_release(&l->text);
	if (l->fp)
		fclose(l->fp);
	free(l->path);
	memset(l, 0, sizeof(*l));
}
