// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `latscope export --rows`: one row per wait, running slice or trace_marker
 * sample, as CSV (RFC 4180) or JSON Lines.  Columns: docs/export.md.
 */
#include <stdlib.h>
#include <string.h>

#include "latscope/an_wakeup.h"
#include "latscope/export.h"
#include "latscope/json.h"
#include "latscope/dectext.h"

#define ALWAYS_INLINE inline __attribute__((always_inline))

/*
 * A table's rows are made in place in a buffer of the writer's (OUT_BUF bytes) and handed
 * to its stream when it is full or lat_rows_flush() is called: a call of stdio per byte or
 * field cost 10x the analysis (bench/README-export.md), one fwrite() per row still a tenth
 * of a row.  A longer row (a marker's text) goes out in pieces, in order.
 *
 * Between two texts of a length not known in advance, a row writes less than ROW_RESERVE
 * bytes (22 cells at most, of a key of 22 bytes and a value of 51 at most with the slack of
 * a number: 1606; the fixed columns of up to FIXED_SHORT bytes twice more), so the other
 * cells need no test of their room: the texts make sure of it after them (room_after()).
 */
#define OUT_BUF (64u << 10)
#define ROW_RESERVE 2048u
#define FIXED_SHORT 64u

struct lat_rows_priv;

/* Where a row is made: a buffer whose bytes go to @f when it is full. */
struct row {
	char *p, *end;		/* where the next byte goes; the end of buf */
	char *buf;
	FILE *f;
	struct lat_rows_priv *fx;	/* the writer's own (words); NULL: none */
};

/* The buffer's bytes out to the stream: room again. */
static void row_spill(struct row *r)
{
	if (r->p > r->buf)
		fwrite(r->buf, 1, (size_t)(r->p - r->buf), r->f);
	r->p = r->buf;
}

/* Room for @n (at most ROW_RESERVE) bytes at r->p. */
static ALWAYS_INLINE void room(struct row *r, size_t n)
{
	if ((size_t)(r->end - r->p) < n)
		row_spill(r);
}

/* After a text: room for the cells up to the next (ROW_RESERVE). */
static ALWAYS_INLINE void room_after(struct row *r)
{
	room(r, ROW_RESERVE);
}

/* @len bytes of @s as they are, in pieces when they are many. */
static void put_bytes(struct row *r, const char *s, size_t len)
{
	while (len) {
		size_t n = len < ROW_RESERVE ? len : ROW_RESERVE;

		room(r, n);
		memcpy(r->p, s, n);
		r->p += n;
		s += n;
		len -= n;
	}
	room_after(r);
}

/*
 * Written as it is in both formats: printable ASCII but the backslash and the double quote
 * (a bit per byte: one load and a shift, where the comparisons were a third of a row).  The
 * second set is that without the comma: a CSV field's bytes that need no quotes.
 */
static const uint64_t plain_bits[4] = { 0xfffffffb00000000ull, 0x7fffffffefffffffull };
static const uint64_t csv_plain_bits[4] = { 0xffffeffb00000000ull, 0x7fffffffefffffffull };

static inline int plain(unsigned char ch)
{
	return plain_bits[ch >> 6] >> (ch & 63) & 1;
}

static inline int csv_plain(unsigned char ch)
{
	return csv_plain_bits[ch >> 6] >> (ch & 63) & 1;
}

/*
 * The bytes of @x that are not plain() (@csv: not csv_plain()), each as its top bit: a byte
 * below 0x20 or above 0x7e, a double quote, a backslash (and with @csv a comma).  Exact up
 * to the first such byte (lat_json_unplain8()), which is all the callers look at.
 */
static ALWAYS_INLINE uint64_t unplain8(uint64_t x, int csv)
{
	const uint64_t ones = 0x0101010101010101ull, c = x ^ (',' * ones);

	return lat_json_unplain8(x) | (csv ? (c - ones) & ~c & 0x8080808080808080ull : 0);
}

/*
 * Text, the same in both formats (docs/export.md, "Rows"): valid UTF-8 as it
 * is, but control characters, DEL, the backslash and bytes that are not valid
 * UTF-8 as \xNN, so that a value never holds a line end or a raw control
 * byte, never reads as CSV's \N, and the bytes come back by undoing \xNN.
 * Then the format's own quoting: CSV doubles a double quote, JSON escapes it
 * and the backslash.
 */
static void text_out(struct row *r, const char *s, size_t len, int js)
{
	static const char hex[] = "0123456789abcdef";
	size_t i = 0;

	while (i < len) {
		size_t run = i;
		unsigned char ch;
		size_t n;

		while (run < len && plain((unsigned char)s[run]))
			run++;
		put_bytes(r, s + i, run - i);	/* room for what follows it */
		if (run == len)
			break;
		i = run;
		ch = (unsigned char)s[i];
		n = ch >= 0x80 ? lat_utf8_seq(s + i, len - i) : 1;
		if (ch < 0x20 || ch == 0x7f || ch == '\\' || !n) {
			char esc[5] = { '\\', '\\', 'x', hex[ch >> 4], hex[ch & 15] };

			memcpy(r->p, esc + !js, js ? 5 : 4);
			r->p += js ? 5 : 4;
			i++;
		} else if (ch == '"') {
			memcpy(r->p, js ? "\\\"" : "\"\"", 2);
			r->p += 2;
			i++;
		} else {
			memcpy(r->p, s + i, n);
			r->p += n;
			i += n;
		}
	}
}

/*
 * A CSV text field, quoted (RFC 4180) when it holds a comma or a quote, and
 * when it starts or ends with a blank, which CSV readers such as ClickHouse's
 * trim from an unquoted field.
 */
static void csv_field(struct row *r, const char *s, size_t len)
{
	int quote = len && (s[0] == ' ' || s[len - 1] == ' ');
	size_t i = 0;

	/* most fields (names, numbers as text) are plain printable ASCII without a comma */
	for (uint64_t x; i + 8 <= len && (memcpy(&x, s + i, 8), !unplain8(x, 1));)
		i += 8;
	while (i < len && csv_plain((unsigned char)s[i]))
		i++;
	if (i == len && !quote) {
		put_bytes(r, s, len);
		return;
	}
	for (i = 0; i < len && !quote; i++)
		quote = s[i] == ',' || s[i] == '"';
	if (quote)
		*r->p++ = '"';
	text_out(r, s, len, 0);
	if (quote)
		*r->p++ = '"';
	room_after(r);
}

/* Text @s of @len bytes as a cell's value in the format (JSON: quoted). */
static void str_out(struct row *r, const char *s, size_t len, int js)
{
	if (js) {
		*r->p++ = '"';
		text_out(r, s, len, js);
		*r->p++ = '"';
		room_after(r);
	} else {
		csv_field(r, s, len);
	}
}

/* The separator of a cell: CSV's comma, or JSON's ",\"KEY\":" (@key, @klen). */
static ALWAYS_INLINE void sep(struct row *r, int js, const char *key, size_t klen)
{
	if (js) {
		memcpy(r->p, key, klen);
		r->p += klen;
	} else {
		*r->p++ = ',';
	}
}

/* The separator of cell NAME (a string literal). */
#define SEP(r, js, name) sep((r), (js), ",\"" name "\":", sizeof(",\"" name "\":") - 1)

static ALWAYS_INLINE void val_null(struct row *r, int js)
{
	/* unknown: ClickHouse, MySQL and PostgreSQL's text COPY read \N as NULL */
	if (js)
		r->p = LAT_LIT(r->p, "null");
	else
		r->p = LAT_LIT(r->p, "\\N");
}

/*
 * The names of the analysis' vocabulary a writer has met (they are static strings), by
 * their address: each padded to 16 bytes, copied whole (strlen() and a copy of its length
 * were a tenth of a row).
 */
#define WORD_SLOTS 64
#define WORD_MAX 16

struct word {
	const char *src;	/* the name, NULL: an empty slot */
	size_t n;		/* its length; more than WORD_MAX: not kept */
	char s[WORD_MAX];
};

static struct word *word_get(struct word *words, const char *s)
{
	struct word *e = &words[((uintptr_t)s >> 2) % WORD_SLOTS];

	if (e->src != s) {
		e->src = s;
		e->n = strnlen(s, WORD_MAX + 1);
		memset(e->s, 0, sizeof(e->s));
		memcpy(e->s, s, e->n <= WORD_MAX ? e->n : WORD_MAX);
	}
	return e;
}

/*
 * The writer's own: its tables' rows held, the names met (val_word()), and the columns every
 * row of a trace has the same, written once as the format writes them (separators, keys,
 * quotes, escapes) and copied into each row: the first two (trace, host) as a row starts,
 * and the last two (trace_id, row_schema) with the row's end.  Both are made again
 * for each trace (lat_rows_source()) and when a pointer changes; the last also when a held
 * id (LAT_ROWS_ID_HOLD) is given its digits in place (cli/export_id.c), the one change of
 * the text behind a pointer that the rows of a trace see.
 */
/*
 * A timestamp's digits above its last 8, kept: they change every 0.1 s, and the columns of
 * one clock (start_ns, end_ns, ...) share them from row to row.
 */
struct ts_text {
	uint64_t hi;		/* ns / 10^8 written as s (n digits); 0: none */
	uint8_t n;
	char s[LAT_DEC_ROOM];
};

struct lat_rows_priv {
	int valid;		/* pre and suf made for what follows; 0 after lat_rows_source() */
	const char *trace, *host, *id;	/* what they were made of (lent) */
	int id_held;		/* the id was held when suf was made */
	char *pre, *suf;	/* as written */
	size_t npre, nsuf;
	struct word words[WORD_SLOTS];	/* val_word()'s */
	char *tab[LAT_ROWS_NKINDS];	/* each table's rows not out yet: OUT_BUF bytes, NULL */
	size_t ntab[LAT_ROWS_NKINDS];
	struct ts_text clock, wall;	/* the trace clock's columns, wall_ns */
};

/*
 * A name of the analysis' vocabulary (a policy, wait kind, waker context, verdict, slice
 * end, task state: a static string of lowercase words, '-' and '?', 16 bytes at most),
 * NULL unknown: written as it is, without the scan for what to escape or quote.
 */
static ALWAYS_INLINE void val_word(struct row *r, int js, const char *s)
{
	struct word *e;

	if (!s) {
		val_null(r, js);
		return;
	}
	if (js)
		*r->p++ = '"';
	e = r->fx ? word_get(r->fx->words, s) : NULL;
	if (e && e->n <= WORD_MAX) {
		memcpy(r->p, e->s, WORD_MAX);
		r->p += e->n;
	} else {
		put_bytes(r, s, strlen(s));
	}
	if (js)
		*r->p++ = '"';
}

/*
 * lat_dec_i64() of @v, a timestamp (or a time of the same clock): the same digits, those
 * above the last 8 copied from @t (16 bytes: 11 digits at most, whatever @v).
 */
static ALWAYS_INLINE char *ts_dec(struct ts_text *t, char *p, int64_t v)
{
	uint64_t hi;

	if (v < 100000000)
		return lat_dec_i64(p, v);
	hi = (uint64_t)v / 100000000;
	if (hi != t->hi) {
		t->hi = hi;
		t->n = (uint8_t)(lat_dec_u64(t->s, hi) - t->s);
	}
	memcpy(p, t->s, 16);
	return lat_put8(p + t->n, lat_digits8((uint32_t)((uint64_t)v % 100000000)));
}

/* lat_dec_i64() of a CPU, a prio, a tid (most numbers of a row): inline */
static ALWAYS_INLINE char *dec32(char *p, int32_t v)
{
	if (v >= 0 && v < 100000000)
		return lat_dec_small(p, (uint32_t)v);
	return lat_dec_i64(p, v);
}

#define PUT_NULL(r, js, name) (SEP(r, js, name), val_null((r), (js)))
#define PUT_INT(r, js, name, v) (SEP(r, js, name), (r)->p = lat_dec_i64((r)->p, (v)))
/* The number @v, or null when not @known. */
#define PUT_INT_IF(r, js, name, v, known) \
	(SEP(r, js, name), (known) ? (void)((r)->p = lat_dec_i64((r)->p, (v))) : val_null((r), (js)))
/* The same of an int32_t (dec32()), of a timestamp of clock @t (ts_dec()). */
#define PUT_I32(r, js, name, v) (SEP(r, js, name), (r)->p = dec32((r)->p, (v)))
#define PUT_I32_IF(r, js, name, v, known) \
	(SEP(r, js, name), (known) ? (void)((r)->p = dec32((r)->p, (v))) : val_null((r), (js)))
#define PUT_TS(r, js, name, t, v) (SEP(r, js, name), (r)->p = ts_dec((t), (r)->p, (v)))
#define PUT_TS_IF(r, js, name, t, v, known) \
	(SEP(r, js, name), \
	 (known) ? (void)((r)->p = ts_dec((t), (r)->p, (v))) : val_null((r), (js)))
#define PUT_WORD(r, js, name, s) (SEP(r, js, name), val_word((r), (js), (s)))
#define PUT_STRN(r, js, name, s, len) (SEP(r, js, name), str_out((r), (s), (len), (js)))
#define PUT_TEXT(r, js, name, s) (SEP(r, js, name), val_text((r), (js), (s)))

/* Text @s, NULL: unknown. */
static void val_text(struct row *r, int js, const char *s)
{
	if (s)
		str_out(r, s, strlen(s), js);
	else
		val_null(r, js);
}

static ALWAYS_INLINE void put_bool(struct row *r, int js, int v)
{
	SEP(r, js, "trusted");
	if (js && v)
		r->p = LAT_LIT(r->p, "true");
	else if (js)
		r->p = LAT_LIT(r->p, "false");
	else
		*r->p++ = v ? '1' : '0';
}

/*
 * The index of the first of the 16 bytes at @s that unplain8() finds (a task's comm, NUL
 * ended or 16 bytes), 16 when none is.
 */
static ALWAYS_INLINE unsigned first_unplain16(const char *s, int csv)
{
	uint64_t a, b, m;

	memcpy(&a, s, 8);
	memcpy(&b, s + 8, 8);
	if ((m = unplain8(a, csv)))
		return (unsigned)__builtin_ctzll(m) / 8;
	if ((m = unplain8(b, csv)))
		return 8 + (unsigned)__builtin_ctzll(m) / 8;
	return 16;
}

/*
 * The comm @c (LAT_COMM_LEN bytes, NUL ended unless full) at r->p as a plain cell value:
 * its length, or -1 when it needs escaping or quoting (@tail: the value goes on after it,
 * so a blank at its end does not need CSV's quotes).  Its 16 bytes are copied whole.
 */
static ALWAYS_INLINE int comm_plain(struct row *r, int js, const char *c, int tail)
{
	unsigned n = first_unplain16(c, !js);

	if (n < LAT_COMM_LEN && c[n])
		return -1;
	if (!js && n && (c[0] == ' ' || (!tail && c[n - 1] == ' ')))
		return -1;
	memcpy(r->p, c, LAT_COMM_LEN);
	return (int)n;
}

static ALWAYS_INLINE void put_comm(struct row *r, int js, const char *c)
{
	int n;

	SEP(r, js, "comm");
	if (js)
		*r->p++ = '"';
	n = comm_plain(r, js, c, 0);
	if (n < 0) {
		r->p -= js;	/* the quote again, with the text */
		str_out(r, c, strnlen(c, LAT_COMM_LEN), js);
		return;
	}
	r->p += n;
	if (js)
		*r->p++ = '"';
}

/*
 * The waker as one word: "comm:tid", "irq[:NAME]" or "softirq[:NAME]", "" unknown; its
 * length.
 */
static size_t waker_text(const struct lat_wake_waker *k, char buf[64])
{
	size_t n;

	if (k->ctx != LAT_WAKE_CTX_TASK) {
		const char *ctx = lat_wake_ctx_name(k->ctx);

		n = strnlen(ctx, 32);
		memcpy(buf, ctx, n);
		if (k->irq_name[0]) {
			size_t m = strnlen(k->irq_name, sizeof(k->irq_name));

			buf[n++] = ':';
			memcpy(buf + n, k->irq_name, m);
			n += m;
		}
		return n;
	}
	if (k->pid < 0)
		return 0;
	n = strnlen(k->comm, LAT_COMM_LEN);
	memcpy(buf, k->comm, n);
	buf[n++] = ':';
	/* 16 + 1 + LAT_DEC_ROOM bytes at most */
	return (size_t)(lat_dec_i64(buf + n, k->pid) - buf);
}

/* The waker cell: a task's "comm:tid" made in place when its comm is plain. */
static ALWAYS_INLINE void put_waker(struct row *r, int js, const struct lat_wake_waker *k)
{
	char w[64];
	int n;

	SEP(r, js, "waker");
	if (k->ctx == LAT_WAKE_CTX_TASK && k->pid < 0) {
		if (js)
			r->p = LAT_LIT(r->p, "\"\"");	/* unknown (a preemption): empty */
		return;
	}
	if (k->ctx == LAT_WAKE_CTX_TASK) {
		if (js)
			*r->p++ = '"';
		n = comm_plain(r, js, k->comm, 1);
		if (n >= 0) {
			r->p += n;
			*r->p++ = ':';
			r->p = lat_dec_i64(r->p, k->pid);
			if (js)
				*r->p++ = '"';
			return;
		}
		r->p -= js;
	}
	str_out(r, w, waker_text(k, w), js);
}

static void priv_free(struct lat_rows_priv *f)
{
	if (!f)
		return;
	free(f->pre);
	free(f->suf);
	for (int k = 0; k < LAT_ROWS_NKINDS; k++)
		free(f->tab[k]);
	free(f);
}

/*
 * A trace_id held (LAT_ROWS_ID_HOLD): written as the id of 16 zeros is, the zeros then made
 * the held bytes again (they are the first 16 zeros: after a quote at most).
 */
static void fixed_hold(char *out, size_t len)
{
	static const char zeros[] = "0000000000000000";
	char *p = memmem(out, len, zeros, LAT_ROWS_ID_LEN);

	if (p)
		memcpy(p, LAT_ROWS_ID_HOLD, LAT_ROWS_ID_LEN);
}

/*
 * The written form of the trace's first columns (@suf 0: as a row starts, without the first
 * separator) or its last (@suf 1) into *@out, *@len; -1 out of memory.
 */
static int fixed_make(const struct lat_rows *w, int suf, char **out, size_t *len)
{
	int js = w->fmt == LAT_ROWS_JSONL;
	const char *id = w->trace_id;
	char held[128], b[2 * ROW_RESERVE], *p;
	struct row r = { .p = b, .end = b + sizeof(b), .buf = b };

	free(*out);
	*out = NULL;
	r.f = open_memstream(out, len);
	if (!r.f)
		return -1;
	if (!suf) {
		PUT_TEXT(&r, js, "trace", w->trace ? w->trace : "");
		PUT_TEXT(&r, js, "host", w->host);
	} else {
		if (id && !strncmp(id, LAT_ROWS_ID_HOLD, LAT_ROWS_ID_LEN)) {
			snprintf(held, sizeof(held), "0000000000000000%s", id + LAT_ROWS_ID_LEN);
			id = held;
		}
		PUT_TEXT(&r, js, "trace_id", id);
		PUT_INT(&r, js, "row_schema", LAT_ROWS_SCHEMA);
		r.p = js ? LAT_LIT(r.p, "}\n") : LAT_LIT(r.p, "\r\n");
	}
	row_spill(&r);
	if (fclose(r.f))
		return -1;
	if (suf && id == held)
		fixed_hold(*out, *len);
	if (!suf && js)
		**out = '{';	/* the row's start */
	else if (!suf)
		memmove(*out, *out + 1, --*len);	/* no comma before the first cell */
	/* room to be copied as FIXED_SHORT bytes (put_fixed()) */
	if (!(p = realloc(*out, *len + FIXED_SHORT)))
		return -1;
	memset(p + *len, 0, FIXED_SHORT);
	*out = p;
	return 0;
}

/* A fixed form @s of @n bytes (room for FIXED_SHORT after it): a short one copied whole. */
static ALWAYS_INLINE void put_fixed(struct row *r, const char *s, size_t n)
{
	if (n > FIXED_SHORT) {
		put_bytes(r, s, n);
		return;
	}
	memcpy(r->p, s, FIXED_SHORT);
	r->p += n;
}

/* Whether @f holds the fixed forms of @w's current trace, made when it did not. */
static int fixed_ready(struct lat_rows *w, struct lat_rows_priv *f)
{
	if (f->valid && f->trace == w->trace && f->host == w->host && f->id == w->trace_id &&
	    (!f->id_held || w->trace_id[0] == LAT_ROWS_ID_HOLD[0]))
		return 1;
	f->valid = 0;
	if (fixed_make(w, 0, &f->pre, &f->npre) || fixed_make(w, 1, &f->suf, &f->nsuf))
		return 0;	/* out of memory: written cell by cell */
	f->trace = w->trace;
	f->host = w->host;
	f->id = w->trace_id;
	f->id_held = w->trace_id && !strncmp(w->trace_id, LAT_ROWS_ID_HOLD, LAT_ROWS_ID_LEN);
	f->valid = 1;
	return 1;
}

/* The rows of table @k held, out to its stream. */
static void tab_flush(struct lat_rows *w, int k)
{
	struct lat_rows_priv *f = w->priv;

	if (f && f->ntab[k] && w->t[k].out)
		fwrite(f->tab[k], 1, f->ntab[k], w->t[k].out);
	if (f)
		f->ntab[k] = 0;
}

/*
 * A row of table @kind begins (its header first when not written yet), at the end of the
 * rows held, and its first two columns (trace, host).
 */
static ALWAYS_INLINE void row_begin(struct row *r, struct lat_rows *w, int js,
				    enum lat_rows_kind kind)
{
	struct lat_rows_table *t = &w->t[kind];
	struct lat_rows_priv *f = w->priv;

	if (!t->header_done)
		lat_rows_header(w);
	r->f = t->out;
	r->buf = f->tab[kind];
	r->p = r->buf + f->ntab[kind];
	r->end = r->buf + OUT_BUF;
	r->fx = f;
	room_after(r);
	if (fixed_ready(w, f)) {
		put_fixed(r, f->pre, f->npre);
		return;
	}
	if (js)
		r->p = LAT_LIT(r->p, "{\"trace\":");
	val_text(r, js, w->trace ? w->trace : "");
	PUT_TEXT(r, js, "host", w->host);
}

/*
 * wall_ns, trace_id, row_schema: the last columns of every table; the row is complete.
 * @ts_ns is the row's time in the trace clock (the wall_ns column's), @known 0: unknown.
 */
static ALWAYS_INLINE void row_end(struct row *r, struct lat_rows *w, int js,
				  enum lat_rows_kind kind, uint64_t ts_ns, int known)
{
	struct lat_rows_priv *f = w->priv;

	PUT_TS_IF(r, js, "wall_ns", &f->wall, (int64_t)ts_ns + w->wall_offset_ns,
		  known && w->wall_known);
	if (f->valid) {
		put_fixed(r, f->suf, f->nsuf);
	} else {
		PUT_TEXT(r, js, "trace_id", w->trace_id);
		PUT_INT(r, js, "row_schema", LAT_ROWS_SCHEMA);
		r->p = js ? LAT_LIT(r->p, "}\n") : LAT_LIT(r->p, "\r\n");
	}
	/* what a long text sent out already was the front of the rows held */
	f->ntab[kind] = (size_t)(r->p - r->buf);
	w->t[kind].nrows++;
}

const char *lat_prio_policy(int32_t prio)
{
	if (prio < 0)
		return "dl";
	return prio < 100 ? "rt" : "fair";
}

void lat_rows_flush(struct lat_rows *w)
{
	for (int k = 0; k < LAT_ROWS_NKINDS; k++)
		tab_flush(w, k);
}

void lat_rows_release(struct lat_rows *w)
{
	w->tg = NULL;
	priv_free(w->priv);
	w->priv = NULL;
}

/* pid, tid, comm: the columns of every table after trace and host */
static ALWAYS_INLINE void put_task(struct row *r, struct lat_rows *w, int js, int32_t tid,
				   const char *comm)
{
	int32_t tgid = lat_tgids_of(w->tg, tid);

	/* no tgids stored, or the task had exited */
	PUT_I32_IF(r, js, "pid", tgid, tgid > 0);
	if (tid >= 0) {
		PUT_I32(r, js, "tid", tid);
		put_comm(r, js, comm);
	} else {
		/* an event of an unknown task (a marker, say, or a stall of every CPU) */
		PUT_NULL(r, js, "tid");
		PUT_NULL(r, js, "comm");
	}
}

static ALWAYS_INLINE void put_prio(struct row *r, int js, int32_t prio, int known)
{
	if (known) {
		PUT_WORD(r, js, "policy", lat_prio_policy(prio));
		PUT_I32(r, js, "prio", prio);
	} else {
		PUT_NULL(r, js, "policy");
		PUT_NULL(r, js, "prio");
	}
}

/*
 * Each table's row is written by one function for both formats, made twice by the compiler
 * (@js a constant): a question of the format per cell was a tenth of a row.
 */
#define BOTH_FORMATS(name, rec_type)                                             \
	static void name(void *ctx, rec_type rec)                                \
	{                                                                        \
		struct lat_rows *w = ctx;                                        \
		if (w->fmt == LAT_ROWS_JSONL)                                    \
			name##_cells(w, rec, 1);                                 \
		else                                                             \
			name##_cells(w, rec, 0);                                 \
	}

static ALWAYS_INLINE void wait_row_cells(struct lat_rows *w, const struct lat_wait_rec *rec,
					 int js)
{
	const struct lat_wake_link *l = rec->w;
	struct row r;

	row_begin(&r, w, js, LAT_ROWS_WAITS);
	put_task(&r, w, js, l->pid, l->comm);
	put_prio(&r, js, rec->prio, 1);
	PUT_I32(&r, js, "cpu", l->cpu);
	PUT_TS(&r, js, "start_ns", &r.fx->clock, (int64_t)l->start_ns);
	PUT_TS(&r, js, "end_ns", &r.fx->clock, (int64_t)l->end_ns);
	PUT_INT(&r, js, "latency_ns", l->latency_ns);
	PUT_WORD(&r, js, "kind", lat_wait_kind_name(l->kind));
	put_waker(&r, js, &l->waker);
	PUT_WORD(&r, js, "verdict", rec->verdict);
	put_bool(&r, js, rec->trusted);
	PUT_I32_IF(&r, js, "queued_cpu", rec->queued_cpu, rec->queued_cpu >= 0);
	PUT_I32_IF(&r, js, "waker_tid", l->waker.pid, l->waker.pid >= 0);
	PUT_I32_IF(&r, js, "waker_cpu", l->waker.cpu, l->waker.cpu >= 0);
	PUT_WORD(&r, js, "waker_ctx", l->waker.pid >= 0 || l->waker.ctx != LAT_WAKE_CTX_TASK ?
				      lat_wake_ctx_name(l->waker.ctx) : NULL);
	row_end(&r, w, js, LAT_ROWS_WAITS, l->start_ns, 1);
}

BOTH_FORMATS(wait_row, const struct lat_wait_rec *)

static ALWAYS_INLINE void slice_row_cells(struct lat_rows *w, const struct lat_run_slice *s,
					  int js)
{
	struct row r;

	row_begin(&r, w, js, LAT_ROWS_SLICES);
	put_task(&r, w, js, s->pid, s->comm);
	put_prio(&r, js, s->prio, s->prio != LAT_PRIO_UNKNOWN);
	PUT_I32(&r, js, "cpu", s->cpu);
	PUT_TS_IF(&r, js, "start_ns", &r.fx->clock, (int64_t)s->start_ns, s->start_known);
	PUT_TS(&r, js, "end_ns", &r.fx->clock, (int64_t)s->end_ns);
	PUT_INT_IF(&r, js, "dur_ns", (int64_t)(s->end_ns - s->start_ns), s->start_known);
	PUT_WORD(&r, js, "end", lat_slice_end_name(s->end));
	PUT_WORD(&r, js, "state", s->end == LAT_SLICE_SWITCH ? lat_task_state_name(s->state) :
								  NULL);
	row_end(&r, w, js, LAT_ROWS_SLICES, s->start_ns, s->start_known);
}

BOTH_FORMATS(slice_row, const struct lat_run_slice *)

/* "probe=NAME" in a latscope probe line, else NULL; *len its length */
static const char *probe_name(const char *s, size_t len, size_t *plen)
{
	for (size_t i = 0; i + 6 <= len; i++) {
		size_t k = i + 6;

		if (memcmp(s + i, "probe=", 6) || (i && s[i - 1] != ' '))
			continue;
		while (k < len && s[k] != ' ')
			k++;
		*plen = k - i - 6;
		return s + i + 6;
	}
	return NULL;
}

/* A marker and its latency (-1: none), for BOTH_FORMATS' one argument. */
struct marker_arg {
	const struct lat_event *ev;
	int64_t lat_ns;
};

static void marker_row_cells(struct lat_rows *w, const struct marker_arg *a, int js)
{
	const struct lat_event *ev = a->ev;
	const char *text = ev->u.marker.text ? ev->u.marker.text : "";
	size_t len = ev->u.marker.text ? ev->u.marker.len : 0, plen = 0;
	const char *probe = a->lat_ns >= 0 ? probe_name(text, len, &plen) : NULL;
	struct row r;

	row_begin(&r, w, js, LAT_ROWS_SAMPLES);
	put_task(&r, w, js, ev->pid, ev->comm);
	PUT_I32(&r, js, "cpu", ev->cpu);
	PUT_TS(&r, js, "ts_ns", &r.fx->clock, (int64_t)ev->ts_ns);
	if (probe)
		PUT_STRN(&r, js, "probe", probe, plen);
	else
		PUT_NULL(&r, js, "probe");
	PUT_INT_IF(&r, js, "lat_ns", a->lat_ns, a->lat_ns >= 0);
	PUT_STRN(&r, js, "text", text, len);
	row_end(&r, w, js, LAT_ROWS_SAMPLES, ev->ts_ns, 1);
}

static void marker_row(void *ctx, const struct lat_event *ev, int64_t lat_ns)
{
	struct lat_rows *w = ctx;
	struct marker_arg a = { ev, lat_ns };

	marker_row_cells(w, &a, w->fmt == LAT_ROWS_JSONL);
}

static ALWAYS_INLINE void stall_row_cells(struct lat_rows *w, const struct lat_wake_stall *s,
					  int js)
{
	struct row r;

	row_begin(&r, w, js, LAT_ROWS_STALLS);
	put_task(&r, w, js, s->pid, s->comm);
	PUT_I32(&r, js, "cpu", s->cpu);
	PUT_TS(&r, js, "from_ns", &r.fx->clock, (int64_t)s->from_ns);
	PUT_TS(&r, js, "to_ns", &r.fx->clock, (int64_t)s->to_ns);
	PUT_INT(&r, js, "dur_ns", (int64_t)(s->to_ns - s->from_ns));
	if (s->waiting_pid >= 0) {
		PUT_INT(&r, js, "waiting_tid", s->waiting_pid);
		PUT_STRN(&r, js, "waiting_comm", s->waiting_comm,
			 strnlen(s->waiting_comm, LAT_COMM_LEN));
	} else {
		PUT_NULL(&r, js, "waiting_tid");
		PUT_NULL(&r, js, "waiting_comm");
	}
	row_end(&r, w, js, LAT_ROWS_STALLS, s->from_ns, 1);
}

BOTH_FORMATS(stall_row, const struct lat_wake_stall *)

/* The release (third word) of a UNAME option, into @buf; "" when it has none. */
static void uname_release(const char *uname, char *buf, size_t len)
{
	const char *p = uname;
	size_t n = 0;

	buf[0] = 0;
	for (int word = 0; p && word < 2; word++) {
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	if (!p)
		return;
	while (p[n] && p[n] != ' ')
		n++;
	snprintf(buf, len, "%.*s", (int)n, p);
}

void lat_rows_trace(struct lat_rows *w, const struct lat_block *b)
{
	const struct lat_event_source *src = b->events;
	const struct lat_wakeup_result *res = b->schema == LAT_SCHEMA_EVENTS ? b->analysis : NULL;
	int js = w->fmt == LAT_ROWS_JSONL, known = res != NULL;
	struct row r;
	char release[128];

	if (!w->t[LAT_ROWS_TRACES].out || !src)
		return;
	row_begin(&r, w, js, LAT_ROWS_TRACES);
	uname_release(src->uname, release, sizeof(release));
	PUT_TEXT(&r, js, "kernel", release[0] ? release : NULL);
	PUT_TEXT(&r, js, "uname", src->uname);
	PUT_TEXT(&r, js, "preempt", src->uname ? lat_uname_preempt(src->uname) : NULL);
	PUT_TEXT(&r, js, "clock", src->clock);
	PUT_INT_IF(&r, js, "cpus", src->ncpus, src->ncpus > 0);
	PUT_INT_IF(&r, js, "first_ns", known ? (int64_t)res->first_ns : 0, known);
	PUT_INT_IF(&r, js, "last_ns", known ? (int64_t)res->last_ns : 0, known);
	PUT_INT_IF(&r, js, "events", known ? (int64_t)res->nevents : 0, known);
	PUT_INT_IF(&r, js, "waits", known ? (int64_t)res->waits : 0, known);
	PUT_INT_IF(&r, js, "preempt_waits", known ? (int64_t)res->preempt_waits : 0, known);
	PUT_INT_IF(&r, js, "untrusted", known ? (int64_t)res->untrusted : 0, known);
	PUT_INT_IF(&r, js, "lost_events", known ? (int64_t)res->lost_events : 0, known);
	PUT_INT_IF(&r, js, "stalls", known ? (int64_t)res->nstalls_total : 0, known);
	PUT_INT_IF(&r, js, "stall_ns", known ? res->stall_ns_total : 0, known);
	PUT_INT_IF(&r, js, "threshold_ns", w->threshold_ns, w->threshold_ns > 0);
	PUT_INT_IF(&r, js, "realtime_offset_ns", w->wall_offset_ns, w->wall_known);
	PUT_INT_IF(&r, js, "realtime_error_ns", src->realtime_error_ns, w->wall_known);
	row_end(&r, w, js, LAT_ROWS_TRACES, known ? res->first_ns : 0, known);
}

void lat_rows_init(struct lat_rows *r, enum lat_rows_fmt fmt)
{
	memset(r, 0, sizeof(*r));
	r->fmt = fmt;
}

int lat_rows_table(struct lat_rows *r, enum lat_rows_kind kind, FILE *out)
{
	struct lat_rows_priv *f = r->priv;

	tab_flush(r, kind);	/* what it holds goes where it was made for */
	r->t[kind].out = NULL;
	if (!out)
		return 0;
	if (!f && !(f = r->priv = calloc(1, sizeof(*f))))
		return -LAT_ENOMEM;
	if (!f->tab[kind] && !(f->tab[kind] = malloc(OUT_BUF)))
		return -LAT_ENOMEM;
	r->t[kind].out = out;
	return 0;
}

int lat_rows_source(struct lat_rows *r, const struct lat_event_source *src)
{
	r->wall_known = src->realtime_known;
	r->wall_offset_ns = src->realtime_known ? src->realtime_offset_ns : 0;
	r->tg = src->tgids;
	if (r->priv)
		r->priv->valid = 0;	/* trace, host and trace_id are this trace's now */
	return src->tgids ? src->tgids->status : 0;
}

void lat_rows_header(struct lat_rows *w)
{
	static const char *const heads[LAT_ROWS_NKINDS] = {
		"trace,host,pid,tid,comm,policy,prio,cpu,start_ns,end_ns,latency_ns,kind,waker,"
		"verdict,trusted,queued_cpu,waker_tid,waker_cpu,waker_ctx",
		"trace,host,pid,tid,comm,policy,prio,cpu,start_ns,end_ns,dur_ns,end,state",
		"trace,host,pid,tid,comm,cpu,ts_ns,probe,lat_ns,text",
		"trace,host,pid,tid,comm,cpu,from_ns,to_ns,dur_ns,waiting_tid,waiting_comm",
		"trace,host,kernel,uname,preempt,clock,cpus,first_ns,last_ns,events,waits,"
		"preempt_waits,untrusted,lost_events,stalls,stall_ns,threshold_ns,"
		"realtime_offset_ns,realtime_error_ns",
	};

	for (int k = 0; k < LAT_ROWS_NKINDS; k++) {
		struct lat_rows_table *t = &w->t[k];

		if (!t->out || t->header_done)
			continue;
		if (w->fmt == LAT_ROWS_CSV)
			fprintf(t->out, "%s,wall_ns,trace_id,row_schema\r\n", heads[k]);
		t->header_done = 1;
	}
}

void lat_rows_sink(struct lat_rows *r, struct lat_wake_sink *sink)
{
	memset(sink, 0, sizeof(*sink));
	sink->ctx = r;
	if (r->t[LAT_ROWS_WAITS].out)
		sink->wait = wait_row;
	if (r->t[LAT_ROWS_SLICES].out)
		sink->slice = slice_row;
	if (r->t[LAT_ROWS_SAMPLES].out)
		sink->marker = marker_row;
	if (r->t[LAT_ROWS_STALLS].out)
		sink->stall = stall_row;
}
