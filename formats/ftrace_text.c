// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftrace-text: the kernel's `trace` / `trace_pipe` text and `trace-cmd report`
 * text as a scheduler event stream (include/latscope/event.h).
 *
 * A whole file is streamed line by line through a fixed buffer (constant
 * memory whatever its size); text pasted in a mail is a block whose events
 * are read from the lines the segmenter found.  Both feed the same state
 * machine: a "<stack trace>" line opens a stack whose " => " frames follow,
 * and a "CPU:1 [LOST N EVENTS]" line is held until the next event gives it a
 * time, so one line may complete up to two events.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ftrace_text_par.h"
#include "ktracer.h"

#define STREAM_BUF (1u << 20)

struct ft_stack {
	uint64_t ips[FT_STACK_MAX];
	const char *syms[FT_STACK_MAX];
	char arena[FT_SYM_BYTES];
	size_t used;
	uint32_t depth;
};

struct ft_source {
	struct lat_event_source base;
	struct lat_diag *d;		/* NULL: count only */
	size_t skipped;
	uint64_t lines;

	/* stream: a window of the file, or its lines parsed by worker threads */
	FILE *fp;
	char *buf;
	size_t pos, fill;
	int eof, overlong;
	struct ft_par *par;		/* the workers (ftrace_text_par.c), or NULL */
	int fd;				/* theirs: a dup of fp's, or -1 */
	/* block: lines of a text */
	const struct lat_text *t;
	size_t li, lend;

	struct ft_strs strs;
	int ncpus;

	/* "<stack trace>" being collected: 1 kernel, 2 user (its frames are dropped) */
	int in_stack;
	unsigned long stack_line;
	struct lat_event stack_ev;
	/* two: the one handed out stays valid while the next one fills */
	struct ft_stack stacks[2];
	int cur;
	uint32_t dropped_frames;

	/*
	 * trace-cmd report prints every buffer of a file, instance lines prefixed
	 * "name:"; one stream is one buffer: --buffer's, else the first one seen.
	 */
	char want[64];
	int want_set, chosen;
	uint64_t other_buffer;
	char other_name[64];

	/* the flag columns the last legend announced (enum ft_col, 0-ended) */
	uint8_t layout[9];
	int nlayout, legend_open;
	unsigned long legend_line, mismatch_line;
	uint64_t mismatch, flags_decoded, flags_undecoded;
	int mismatch_width;

	int lost_pending;
	struct lat_event lost_ev;
	uint64_t last_ts;

	struct lat_event q[3];
	int qn, qi;
};

static struct ft_source *ft(struct lat_event_source *s)
{
	return (struct ft_source *)s;
}

static void bad(struct ft_source *s, unsigned long line, const char *expected)
{
	s->skipped++;
	if (s->d)
		lat_diag_at(s->d, line, "expected %s", expected);
}

static void overlong(struct ft_source *s)
{
	s->lines++;
	s->skipped++;
	if (s->d)
		lat_diag_at(s->d, s->lines, "expected a line shorter than %u bytes",
			    FT_LINE_MAX);
}

/* Next raw line of a stream; 1, 0 at the end, or -LAT_EIO. */
static int stream_line(struct ft_source *s, const char **line, size_t *len)
{
	for (;;) {
		char *p = s->buf + s->pos;
		size_t avail = s->fill - s->pos;
		char *nl = memchr(p, '\n', avail);
		size_t n;

		if (nl) {
			s->pos += (size_t)(nl - p) + 1;
			if (s->overlong) {
				s->overlong = 0;
				continue;
			}
			if (nl - p >= FT_LINE_MAX) {
				overlong(s);
				continue;
			}
			s->lines++;
			*line = p;
			*len = (size_t)(nl - p);
			return 1;
		}
		if (s->eof) {
			s->pos = s->fill;
			if (!avail || s->overlong) {
				s->overlong = 0;
				return 0;
			}
			if (avail >= FT_LINE_MAX) {
				overlong(s);
				return 0;
			}
			s->lines++;
			*line = p;
			*len = avail;
			return 1;
		}
		if (avail >= FT_LINE_MAX) {
			/* report once, then drop everything up to the next newline */
			if (!s->overlong)
				overlong(s);
			s->overlong = 1;
			s->pos = s->fill = 0;
			avail = 0;
		}
		memmove(s->buf, s->buf + s->pos, avail);
		s->pos = 0;
		s->fill = avail;
		n = fread(s->buf + s->fill, 1, STREAM_BUF - s->fill, s->fp);
		s->fill += n;
		if (n == 0) {
			if (ferror(s->fp)) {
				s->base.stop_reason = "read error";
				return -LAT_EIO;
			}
			s->eof = 1;
		}
	}
}

/* Next line of a block (the text layer joined the rows a mail wrapped: ft_row()). */
static int block_line(struct ft_source *s, const char **line, size_t *len, unsigned long *lineno)
{
	const struct lat_line *l;

	if (s->li >= s->lend)
		return 0;
	l = &s->t->lines[s->li++];
	s->lines++;
	*lineno = l->lineno;
	*line = l->s;
	*len = l->binary ? 0 : l->len;
	if (l->binary) {
		bad(s, l->lineno, "text, not binary data");
		*line = "";
		return 1;
	}
	return 1;
}

static void push(struct ft_source *s, const struct lat_event *ev)
{
	s->q[s->qn++] = *ev;
}

static void finish_stack(struct ft_source *s)
{
	struct ft_stack *st = &s->stacks[s->cur];

	if (s->in_stack == 1) {
		s->stack_ev.u.stack.ips = st->ips;
		s->stack_ev.u.stack.syms = st->syms;
		s->stack_ev.u.stack.depth = st->depth;
		push(s, &s->stack_ev);
		s->cur ^= 1;
	} else if (s->in_stack == 2) {
		push(s, &s->stack_ev);	/* LAT_EV_OTHER "user_stack": frames not kept */
	}			/* 3: a stack of another buffer, dropped with its event */
	if (s->dropped_frames) {
		s->skipped++;
		if (s->d)
			lat_diag_at(s->d, s->stack_line,
				    "expected at most %u frames per stack (%u more dropped)",
				    FT_STACK_MAX, s->dropped_frames);
	}
	s->in_stack = 0;
	s->dropped_frames = 0;
}

static void add_frame(struct ft_source *s, const char *line, size_t len, unsigned long lineno)
{
	struct ft_stack *st = &s->stacks[s->cur];
	char sym[256];
	uint64_t ip;
	size_t n;

	if (!s->in_stack) {
		bad(s, lineno, "a \" => \" frame only after a \"<stack trace>\" line");
		return;
	}
	if (s->in_stack >= 2)
		return;
	if (!ft_parse_frame(line, len, sym, sizeof(sym), &ip)) {
		bad(s, lineno, "\" => symbol\"");
		return;
	}
	if (st->depth >= FT_STACK_MAX) {
		s->dropped_frames++;
		return;
	}
	n = strlen(sym) + 1;
	st->ips[st->depth] = ip;
	if (!sym[0]) {
		st->syms[st->depth] = NULL;
	} else if (st->used + n <= sizeof(st->arena)) {
		memcpy(st->arena + st->used, sym, n);
		st->syms[st->depth] = st->arena + st->used;
		st->used += n;
	} else {
		st->syms[st->depth] = NULL;	/* out of symbol room: the address stays */
	}
	st->depth++;
}

static void flush_lost(struct ft_source *s, uint64_t ts)
{
	if (!s->lost_pending)
		return;
	s->lost_ev.ts_ns = ts;
	push(s, &s->lost_ev);
	s->lost_pending = 0;
}

/* Whether the line just parsed, of buffer @b ("" the top one), is of the one this source reads. */
static int own_buffer(struct ft_source *s, const char *b)
{
	if (!b[0] && !s->want[0] && (s->chosen || s->want_set))
		return 1;	/* the common case: no buffer names at all */
	if (!s->want_set && !s->chosen) {
		snprintf(s->want, sizeof(s->want), "%s", b);
		s->chosen = 1;
	}
	if (!strcmp(b, s->want))
		return 1;
	if (!s->other_buffer++)
		snprintf(s->other_name, sizeof(s->other_name), "%s", b);
	return 0;
}

/* A "#" line: a column of a flags legend, or the end of one. */
static void legend(struct ft_source *s, const char *line, size_t len, unsigned long lineno)
{
	size_t k = ft_console_prefix(line, len);
	int col;

	line += k;
	len -= k;
	while (len && (*line == ' ' || *line == '\t'))
		line++, len--;
	col = ft_legend_col(line, len);
	if (!col) {
		s->legend_open = 0;
		return;
	}
	if (!s->legend_open) {
		s->legend_open = 1;
		s->nlayout = 0;
		s->legend_line = lineno;
	}
	if (col != FT_COL_CPU && s->nlayout < (int)sizeof(s->layout) - 1)
		s->layout[s->nlayout++] = (uint8_t)col;
	s->layout[s->nlayout] = 0;
}

/* The flags @f of an event line: by the legend's columns when one was read. */
static void flags(struct ft_source *s, struct ft_flags *f, unsigned long lineno)
{
	if (!f->ncols)
		return;
	if (s->nlayout && f->text) {
		if (f->ncols == s->nlayout) {
			ft_flags_decode_layout(f->text, f->ncols, s->layout, f);
		} else {
			f->decoded = 0;
			if (!s->mismatch++) {
				s->mismatch_line = lineno;
				s->mismatch_width = f->ncols;
			}
		}
	}
	if (f->decoded)
		s->flags_decoded++;
	else
		s->flags_undecoded++;
}

/* One line as the state machine takes it, parsed (ft_parse()) here or by a worker. */
struct ft_in {
	const char *line;		/* dequoted */
	size_t len;
	unsigned long lineno;
	int k;				/* enum ft_kind or FT_JOINED */
	int nc;				/* a CPU count the line gave, 0 none */
	const char *exp;
	struct lat_event *ev;		/* EVENT, STACK, USTACK, LOST */
	const char *buffer;		/* the line's buffer ("" the top one) */
	struct ft_flags *flags;	/* its irq-info column */
};

/* Feeds one parsed line; events it completes land in s->q. */
static void feed_in(struct ft_source *s, struct ft_in *in)
{
	int k = in->k;
	const char *exp = in->exp;

	if (k == FT_JOINED) {
		bad(s, in->lineno, "one event a line, not two a mailer joined (neither is read: "
				   "where the second starts is ambiguous)");
		return;
	}
	if (in->nc)
		s->ncpus = in->nc;
	if (k == FT_FRAME) {
		add_frame(s, in->line, in->len, in->lineno);
		return;
	}
	if (s->in_stack && k != FT_SKIP)
		finish_stack(s);
	if ((k == FT_EVENT || k == FT_STACK || k == FT_USTACK) &&
	    !own_buffer(s, in->buffer)) {
		if (k != FT_EVENT)
			s->in_stack = 3;
		return;
	}
	if (k != FT_SKIP)
		s->legend_open = 0;
	if (k == FT_EVENT || k == FT_STACK || k == FT_USTACK)
		flags(s, in->flags, in->lineno);
	switch (k) {
	case FT_SKIP:
		if (s->ncpus > 0)
			s->base.ncpus = s->ncpus;
		legend(s, in->line, in->len, in->lineno);
		break;
	case FT_EVENT:
		flush_lost(s, in->ev->ts_ns);
		s->last_ts = in->ev->ts_ns;
		push(s, in->ev);
		break;
	case FT_STACK:
	case FT_USTACK:
		flush_lost(s, in->ev->ts_ns);
		s->last_ts = in->ev->ts_ns;
		s->stack_ev = *in->ev;
		s->stack_line = in->lineno;
		s->in_stack = k == FT_STACK ? 1 : 2;
		s->stacks[s->cur].depth = 0;
		s->stacks[s->cur].used = 0;
		break;
	case FT_LOST:
		flush_lost(s, s->last_ts);
		s->lost_ev = *in->ev;
		s->lost_pending = 1;
		break;
	case FT_FOREIGN:
		exp = "\"<comm>-<pid> [cpu] [flags] <sec.usec>: <event>: <fields>\"";
		/* fall through */
	case FT_BAD:
	default:
		bad(s, in->lineno, exp);
		break;
	}
}

/* Parses and feeds one line read here. */
static void feed(struct ft_source *s, const char *line, size_t len, unsigned long lineno)
{
	struct lat_event ev;
	struct ft_in in = { .line = line, .len = len, .lineno = lineno, .ev = &ev,
			    .buffer = s->strs.buffer, .flags = &s->strs.flags };

	in.k = ft_parse(line, len, &ev, &s->strs, &in.nc, &in.exp);
	feed_in(s, &in);
}

/* Feeds the next line a worker parsed: 1, 0 at the end, or -LAT_EIO. */
static int feed_par(struct ft_source *s)
{
	const struct ft_pline *pl;
	struct ft_in in;
	int ret = ft_par_next(s->par, &pl);

	if (ret <= 0) {
		if (ret < 0)
			s->base.stop_reason = "read error";
		return ret;
	}
	if (pl->kind == FT_OVERLONG) {
		overlong(s);
		return 1;
	}
	s->lines++;
	in = (struct ft_in){ .line = pl->s, .len = pl->len, .lineno = (unsigned long)s->lines,
			     .k = pl->kind, .nc = pl->nc, .exp = pl->exp };
	if (pl->pev) {
		in.ev = &pl->pev->ev;
		in.buffer = pl->pev->buffer;
		in.flags = &pl->pev->flags;
	}
	feed_in(s, &in);
	return 1;
}

/* The input's end: a stack or a lost-events line still open, what was not read summed up. */
static void at_end(struct ft_source *s)
{
	if (s->in_stack)
		finish_stack(s);
	flush_lost(s, s->last_ts);
	if (s->mismatch && s->d) {
		lat_diag_at(s->d, s->mismatch_line,
			    "expected %d irq-info flag columns, as the legend of "
			    "line %lu announces, not %d (%llu lines; their flags "
			    "are not decoded)", s->nlayout, s->legend_line,
			    s->mismatch_width, (unsigned long long)s->mismatch);
		s->mismatch = 0;
	}
	if (s->other_buffer && s->d) {
		lat_diag_at(s->d, 0, "%llu events of other buffers (first \"%s\") "
			    "not read: this reads buffer \"%s\"; --buffer NAME "
			    "picks one", (unsigned long long)s->other_buffer,
			    s->other_name, s->want);
		s->other_buffer = 0;
	}
}

/* Reads and feeds the next line: 1, 0 at the end, or a negative lat_err. */
static int next_line(struct ft_source *s)
{
	const char *line;
	size_t len;
	unsigned long lineno;
	int ret;

	if (s->par)
		return feed_par(s);
	if (s->t) {
		ret = block_line(s, &line, &len, &lineno);
	} else {
		ret = stream_line(s, &line, &len);
		lineno = (unsigned long)s->lines;
		if (ret > 0 && len && line[0] == '>')
			lat_line_dequote(&line, &len);
	}
	if (ret > 0)
		feed(s, line, len, lineno);
	return ret;
}

static int ft_next(struct lat_event_source *src, struct lat_event *ev)
{
	struct ft_source *s = ft(src);

	while (s->qi >= s->qn) {
		int ret;

		s->qi = s->qn = 0;
		ret = next_line(s);
		if (ret < 0)
			return ret;
		if (!ret) {
			at_end(s);
			if (!s->qn)
				return 0;
			break;
		}
	}
	*ev = s->q[s->qi++];
	return 1;
}

static void ft_free(struct lat_event_source *src)
{
	struct ft_source *s = ft(src);

	ft_par_free(s->par);
	if (s->fd >= 0)
		close(s->fd);
	free(s->buf);
	free(s);
}

static const struct lat_event_source_ops ft_ops = {
	.next = ft_next,
	.free = ft_free,
};

static struct ft_source *source_new(struct lat_diag *d)
{
	struct ft_source *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->base.ops = &ft_ops;
	s->d = d;
	s->fd = -1;
	return s;
}

struct lat_event_source *ft_text_source_new(const struct lat_text *t, size_t first,
						 size_t end, struct lat_diag *d)
{
	struct ft_source *s = source_new(d);

	if (!s)
		return NULL;
	s->t = t;
	s->li = first;
	s->lend = end;
	return &s->base;
}

size_t ft_source_skipped(const struct lat_event_source *src)
{
	return ((const struct ft_source *)src)->skipped;
}

void ft_source_flags(const struct lat_event_source *src, uint64_t *decoded,
			 uint64_t *undecoded)
{
	const struct ft_source *s = (const struct ft_source *)src;

	*decoded = s->flags_decoded;
	*undecoded = s->flags_undecoded;
}

uint64_t ft_source_lines(const struct lat_event_source *src)
{
	return ((const struct ft_source *)src)->lines;
}

/*
 * A regular file read with worker threads (--jobs, or a large file by
 * default): 1 started, 0 read here, or -LAT_ENOMEM.
 */
static int start_par(struct ft_source *s, const struct lat_input *in)
{
	struct stat st;
	int nw, ret;

	if (in->peek_consumed || fstat(fileno(in->fp), &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	nw = ft_par_workers((uint64_t)st.st_size, in->jobs);
	if (!nw || (s->fd = dup(fileno(in->fp))) < 0)
		return 0;
	ret = ft_par_open(&s->par, s->fd, (uint64_t)st.st_size, nw);
	if (!ret)
		return 1;
	/* no thread could be made: read here */
	ft_par_free(s->par);
	s->par = NULL;
	close(s->fd);
	s->fd = -1;
	return ret < 0 ? ret : 0;
}

static int ft_open_stream(struct lat_input *in, struct lat_event_source **out,
			  struct lat_diag *d)
{
	struct ft_source *s = source_new(d);
	int ret;

	if (!s)
		return -LAT_ENOMEM;
	s->fp = in->fp;
	if (in->buffer) {
		snprintf(s->want, sizeof(s->want), "%s", in->buffer);
		s->want_set = 1;
	}
	ret = start_par(s, in);
	if (!ret && !(s->buf = malloc(STREAM_BUF)))
		ret = -LAT_ENOMEM;
	if (ret < 0) {
		ft_free(&s->base);
		return ret;
	}
	if (in->peek_consumed) {
		/* a pipe: the peek is the start of the data */
		size_t n = in->peeklen < STREAM_BUF ? in->peeklen : STREAM_BUF;

		memcpy(s->buf, in->peek, n);
		s->fill = n;
	}
	*out = &s->base;
	return 0;
}

/*
 * " => symbol[+0x1c/0x80] [(hex)|<hex>]" and nothing else: prose such as
 * "=> see below" in a mail is no frame.
 */
static int frame_shape(const char *s, size_t len)
{
	const char *p = s + ft_console_prefix(s, len), *e = s + len, *w;

	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	p += 2;		/* "=>" */
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	w = p;
	while (p < e && *p != ' ' && *p != '\t') {
		char c = *p++;

		if (!(c == '_' || c == '.' || c == '+' || c == '/' || c == '<' || c == '>' ||
		      (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      c == '[' || c == ']'))
			return 0;
	}
	if (p == w)
		return 0;
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	if (p == e)
		return 1;
	/* trace-cmd "(ffffffff813abff5)", sym-addr "<ffffffff813abff5>" */
	if (*p != '(' && *p != '<')
		return 0;
	for (p++; p < e && ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')); p++)
		;
	return p + 1 == e && (*p == ')' || *p == '>');
}

/* "Dumping ftrace buffer:", after any console prefix: a console dump starts. */
static int is_dump_start(const char *s, size_t len)
{
	size_t k = ft_console_prefix(s, len);

	s += k;
	len -= k;
	while (len && (*s == ' ' || *s == '\t'))
		s++, len--;
	return len >= 22 && !memcmp(s, "Dumping ftrace buffer:", 22);
}

/* Block reader: how the segmenter sees one dequoted line. */
static enum lat_line_kind ft_line_kind(const char *s, size_t len)
{
	struct lat_event ev;
	struct ft_strs strs;
	const char *exp;
	int nc = 0;

	switch (ft_parse_line(s, len, &ev, &strs, &nc, &exp)) {
	case FT_EVENT:
	case FT_STACK:
	case FT_USTACK:
	case FT_LOST:
	case FT_BAD:	/* shaped like an event line */
		return LAT_LINE_ROW;
	case FT_FRAME:
		return frame_shape(s, len) ? LAT_LINE_ROW : LAT_LINE_NO;
	case FT_SKIP:
		if (is_dump_start(s, len))
			return LAT_LINE_HEAD;
		if (len > 9 && !memcmp(s, "# tracer:", 9))
			return LAT_LINE_HEAD;
		if (len > 5 && !memcmp(s, "cpus=", 5))
			return LAT_LINE_HEAD;
		return LAT_LINE_SOFT;	/* comments, "CPU 1 is empty" */
	default:
		return LAT_LINE_NO;
	}
}

static int ft_parse_block(const struct lat_text *t, size_t first, size_t end,
			  struct lat_block *b, struct lat_diag *d)
{
	struct lat_event_source *src;
	struct lat_event ev;
	size_t nev = 0;
	int ret;

	/* one checking pass reports the bad lines; the block's source then reads quietly */
	src = ft_text_source_new(t, first, end, d);
	if (!src)
		return -LAT_ENOMEM;
	while ((ret = lat_event_next(src, &ev)) > 0)
		nev++;
	b->skipped_lines = ft_source_skipped(src);
	lat_event_source_free(src);
	if (ret < 0)
		return ret;
	if (!nev)
		return -LAT_EEMPTY;
	b->schema = LAT_SCHEMA_EVENTS;
	b->events = ft_text_source_new(t, first, end, NULL);
	return b->events ? 0 : -LAT_ENOMEM;
}

/* Next complete line of the peek, dequoted; 0 at its end. */
static int peek_line(const char **p, const char *end, const char **s, size_t *len)
{
	const char *nl;

	if (*p >= end)
		return 0;
	nl = memchr(*p, '\n', (size_t)(end - *p));
	if (!nl)
		return 0;	/* cut by the peek size */
	*s = *p;
	*len = (size_t)(nl - *p);
	*p = nl + 1;
	return 1;
}

static int ft_probe(const char *peek, size_t len)
{
	const char *p = peek, *end = peek + len, *s;
	size_t l, n = 0, events = 0, foreign = 0, lines = 0, kt_own = 0, kt_noise = 0;
	int tracer = 0, legend = 0, latency = 0, cpus = 0, console = 0;

	while (peek_line(&p, end, &s, &l) && lines < 400) {
		struct lat_event ev;
		struct ft_strs strs;
		const char *exp;
		int nc = 0;
		unsigned q = lat_line_dequote(&s, &l);
		enum kt_class kt = KT_CL_OTHER;

		lines++;
		if (is_dump_start(s, l) || (l && ft_console_prefix(s, l)))
			console = 1;
		if (l > 9 && !memcmp(s, "# tracer:", 9) && lines < 3 && !q)
			tracer = 1;
		if (l > 2 && s[0] == '#' && memmem(s, l, "TASK-PID", 8) &&
		    memmem(s, l, "TIMESTAMP", 9))
			legend = 1;
		/* also behind a header rule a mailer joined it to ("# ----- # latency:") */
		if (l > 10 && s[0] == '#' && memmem(s, l, "# latency:", 10))
			latency = 1;
		if (lines == 1 && l > 5 && !memcmp(s, "cpus=", 5) && !q)
			cpus = 1;
		switch (ft_parse_line(s, l, &ev, &strs, &nc, &exp)) {
		case FT_EVENT:
			kt = ev.type == LAT_EV_OTHER ? kt_classify_event(ev.name) : KT_CL_OTHER;
			/* fall through */
		case FT_STACK:
		case FT_USTACK:
		case FT_LOST:
			events++;
			if (!q && !foreign)
				n++;	/* events from the start of the file on */
			break;
		case FT_FRAME:
			break;
		case FT_SKIP:
			/* "# tracer: timerlat" */
			kt = kt_classify(s, l);
			break;
		default:
			/* the tracers' sample rows are no events: bad or foreign lines */
			kt = kt_classify(s, l);
			foreign++;
			break;
		}
		kt_own += kt == KT_CL_OWN;
		kt_noise += kt == KT_CL_NOISE;
	}
	if (latency)
		return 0;	/* latency tracers' dumps: the ftrace-latency reader */
	/*
	 * timerlat, osnoise and hwlat traces (their samples, or osnoise:* events
	 * with no other event among them): the kernel-tracer reader.  osnoise
	 * events interleaved with scheduler events stay an event trace.
	 */
	if (kt_own || (kt_noise && kt_noise == events))
		return 0;
	/*
	 * A console or syslog capture (ftrace_dump_on_oops, sysrq-z) holds other
	 * kernel messages around the dump: the segmenter cuts the dump out.
	 */
	if (console && events >= 1)
		return events >= 3 ? 60 : 45;
	if (tracer && legend)
		return 98;
	if (cpus && n >= 3)
		return 97;
	if (n >= 5 && foreign * 20 <= n)
		return 96;
	if (events >= 1)
		return 40 + (events >= 3 ? 10 : 0);
	return 0;
}

/*
 * A character of an event's name ("sched_switch", "irq_handler_entry") or of the
 * function a trace_printk() or a marker names with its offset ("tracing_mark_write+0x91/0x170").
 */
static int is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '+' || c == '/' || c == '.';
}

/*
 * Whether the fields [p, e) hold @key.  An event is whole once its last field is there:
 * a wrapped one that lacks it is cut short, and so is the same event of an older kernel
 * that never printed it, which is harmless: a line is joined only with what completes it.
 */
static int has_key(const char *p, const char *e, const char *key)
{
	return memmem(p, (size_t)(e - p), key, strlen(key)) != NULL;
}

/* "<stack trace>" or "<user stack trace>" after an event's head: whole, or its first word. */
static enum lat_row_state stack_head_row(const char *p, size_t n)
{
	static const char *const heads[] = { "<stack trace>", "<user stack trace>" };

	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	for (size_t i = 0; i < LAT_ARRAY_SIZE(heads); i++) {
		size_t hl = strlen(heads[i]);

		if (n == hl && !memcmp(p, heads[i], n))
			return LAT_ROW_FULL;
		if (n < hl && !memcmp(p, heads[i], n) && heads[i][n] == ' ')
			return LAT_ROW_CUT;
	}
	return LAT_ROW_NO;
}

/*
 * A function tracer's line after its head and function (@p, to @e): " <-parent"
 * makes it whole; nothing after the function is a line cut short where a mailer
 * moved " <-parent" to the next line (or printed with print-parent off: then the
 * next line starts a row and nothing is joined).
 */
static enum lat_row_state fn_row(const char *p, const char *e)
{
	if (p == e)
		return LAT_ROW_CUT;
	return e - p > 3 && !memcmp(p, " <-", 3) ? LAT_ROW_FULL : LAT_ROW_NO;
}

/*
 * An event line as a mailer wraps it (a row shape, docs/formats.md "Mail and paste
 * damage"): a sched_switch line is 130 columns and more, a wakeup 90, so a client that
 * wraps at 72-78 cuts most of them.  Whole when the reader reads it (a wakeup once its
 * target CPU is there, a softirq its action), cut short when it has an event's head and
 * name but its fields do not read.  Lines of the kernel's latency tracers are their
 * reader's (kt_row()); lines without an event's name ("#1 context irq ...") too.
 */
static enum lat_row_state ft_row(const char *s, size_t len, struct lat_row_ctx *ctx)
{
	struct lat_event ev;
	struct ft_strs strs;
	const char *exp, *n, *p, *e = s + len;
	size_t off = ft_parse_head(s, len, &ev, &strs);
	char name[32];
	int nc = 0;

	(void)ctx;
	if (!off)
		return LAT_ROW_NO;
	for (n = p = s + off; p < e && (*p == ' ' || *p == '\t'); p++)
		;
	if (p == e)
		return LAT_ROW_CUT;	/* the head alone: a tgid column pushed the name on */
	if (*p == '<')
		return stack_head_row(p, (size_t)(e - p));
	for (n = p; p < e && is_name_char(*p); p++)
		;
	/* "func <-parent", no colon; a symbol never starts with a digit (an osnoise row does) */
	if (p > n && !(*n >= '0' && *n <= '9') && (p == e || *p == ' '))
		return fn_row(p, e);
	if (p == n || p >= e || *p != ':' || (size_t)(p - n) >= sizeof(name))
		return LAT_ROW_NO;
	memcpy(name, n, (size_t)(p - n));
	name[p - n] = '\0';
	if (kt_classify_event(name) != KT_CL_OTHER)
		return LAT_ROW_NO;
	switch (ft_parse_after_head(s, len, off, &ev, &strs, &nc, &exp)) {
	case FT_BAD:
		return LAT_ROW_CUT;
	case FT_EVENT:
		break;
	case FT_STACK:
	case FT_USTACK:
		return LAT_ROW_FULL;	/* trace-cmd's "kernel_stack: <stack trace >" */
	default:
		return LAT_ROW_NO;
	}
	switch (ev.type) {
	case LAT_EV_WAKING:
	case LAT_EV_WAKEUP:
	case LAT_EV_WAKEUP_NEW:
		/* "target_cpu=001", trace-cmd's own form "CPU:001" */
		return has_key(p, e, "target_cpu=") || has_key(p, e, "CPU:") ? LAT_ROW_FULL :
									     LAT_ROW_CUT;
	case LAT_EV_SOFTIRQ_ENTRY:
	case LAT_EV_SOFTIRQ_EXIT:
		return has_key(p, e, "action=") ? LAT_ROW_FULL : LAT_ROW_CUT;
	case LAT_EV_MIGRATE:
		return has_key(p, e, "dest_cpu=") ? LAT_ROW_FULL : LAT_ROW_CUT;
	case LAT_EV_EXIT:
		return has_key(p, e, "group_dead=") ? LAT_ROW_FULL : LAT_ROW_CUT;	/* 6.x */
	case LAT_EV_EXEC:
		return has_key(p, e, "old_pid=") ? LAT_ROW_FULL : LAT_ROW_CUT;
	case LAT_EV_IRQ_EXIT:
		return has_key(p, e, "ret=") ? LAT_ROW_FULL : LAT_ROW_CUT;
	case LAT_EV_TIMER_START:
		return has_key(p, e, "mode=") ? LAT_ROW_FULL : LAT_ROW_CUT;	/* 4.16 on */
	case LAT_EV_MARKER:
		/* "tracing_mark_write:" alone: its text went to the next line */
		return ev.u.marker.len ? LAT_ROW_FULL : LAT_ROW_CUT;
	case LAT_EV_OTHER:
		/*
		 * An event this reader does not model is whole with any fields; without
		 * any, its fields went to the next line ("sched_stat_runtime:" at column
		 * 60-76), unless what follows is a stack frame's arrow
		 */
		for (p++; p < e && (*p == ' ' || *p == '\t'); p++)
			;
		return p == e || (e - p >= 2 && !memcmp(p, "=>", 2)) ? LAT_ROW_CUT : LAT_ROW_FULL;
	default:
		return LAT_ROW_FULL;
	}
}

static const lat_row_shape ft_row_shapes[] = { ft_row, NULL };

const struct lat_format fmt_ftrace_text = {
	.name = "ftrace-text",
	.summary = "ftrace text: kernel trace/trace_pipe, console dumps (ftrace_dump_on_oops) and "
		   "trace-cmd report (scheduler events)",
	.probe = ft_probe,
	.line_kind = ft_line_kind,
	.parse_block = ft_parse_block,
	.open_stream = ft_open_stream,
	.row_shapes = ft_row_shapes,
};
