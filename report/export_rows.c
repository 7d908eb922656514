// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `latscope export --rows`: one row per wait, running slice or trace_marker
 * sample, as CSV (RFC 4180) or JSON Lines.  Columns: docs/export.md.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "latscope/an_wakeup.h"
#include "latscope/export.h"
#include "latscope/json.h"

/*
 * A row is made in a buffer of its own and handed to its stream in one fwrite(): a call of
 * stdio per byte or field cost 10x the analysis (bench/README-export.md).  A longer row
 * (a marker's text) goes out in pieces, in order.
 */
struct rowbuf {
	FILE *f;
	size_t n;
	char b[4096];
};

static void rb_flush(struct rowbuf *o)
{
	if (o->n)
		fwrite(o->b, 1, o->n, o->f);
	o->n = 0;
}

static void rb_put_long(struct rowbuf *o, const char *s, size_t len)
{
	rb_flush(o);
	if (len > sizeof(o->b))
		fwrite(s, 1, len, o->f);
	else
		memcpy(o->b, s, o->n = len);
}

static inline void rb_put(struct rowbuf *o, const char *s, size_t len)
{
	if (len > sizeof(o->b) - o->n) {
		rb_put_long(o, s, len);
		return;
	}
	memcpy(o->b + o->n, s, len);
	o->n += len;
}

static inline void rb_ch(struct rowbuf *o, char c)
{
	if (o->n == sizeof(o->b))
		rb_flush(o);
	o->b[o->n++] = c;
}

static void rb_str(struct rowbuf *o, const char *s)
{
	rb_put(o, s, strlen(s));
}

/* @v in decimal, two digits a step, ending at @end: returns its first character. */
static char *dec(char *end, int64_t v)
{
	static const char d2[] = "00010203040506070809101112131415161718192021222324252627282930"
				 "31323334353637383940414243444546474849505152535455565758596061"
				 "62636465666768697071727374757677787980818283848586878889909192"
				 "93949596979899";
	char *p = end;
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;

	while (u >= 100) {
		unsigned k = (unsigned)(u % 100) * 2;

		u /= 100;
		*--p = d2[k + 1];
		*--p = d2[k];
	}
	if (u >= 10) {
		*--p = d2[u * 2 + 1];
		*--p = d2[u * 2];
	} else {
		*--p = (char)('0' + u);
	}
	if (v < 0)
		*--p = '-';
	return p;
}

/*
 * @v in decimal.  The digits (20 at most, with the sign) are made at the end of the first
 * half of @tmp and copied as 24 bytes, a few moves where a call of memcpy() per number was
 * a tenth of a row; the bytes past them are written over by what follows.
 */
static void rb_int(struct rowbuf *o, int64_t v)
{
	char tmp[48], *p = dec(tmp + 24, v);

	if (sizeof(o->b) - o->n < 24)
		rb_flush(o);
	memcpy(o->b + o->n, p, 24);
	o->n += (size_t)(tmp + 24 - p);
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
 * Text, the same in both formats (docs/export.md, "Rows"): valid UTF-8 as it
 * is, but control characters, DEL, the backslash and bytes that are not valid
 * UTF-8 as \xNN, so that a value never holds a line end or a raw control
 * byte, never reads as CSV's \N, and the bytes come back by undoing \xNN.
 * Then the format's own quoting: CSV doubles a double quote, JSON escapes it
 * and the backslash.
 */
static void text_out(struct rowbuf *o, const char *s, size_t len, enum lat_rows_fmt fmt)
{
	static const char hex[] = "0123456789abcdef";
	int jsonl = fmt == LAT_ROWS_JSONL;
	size_t i = 0;

	while (i < len) {
		size_t run = i;
		unsigned char ch;
		size_t n;

		while (run < len && plain((unsigned char)s[run]))
			run++;
		rb_put(o, s + i, run - i);
		if (run == len)
			break;
		i = run;
		ch = (unsigned char)s[i];
		n = ch >= 0x80 ? lat_utf8_seq(s + i, len - i) : 1;
		if (ch < 0x20 || ch == 0x7f || ch == '\\' || !n) {
			char esc[5] = { '\\', '\\', 'x', hex[ch >> 4], hex[ch & 15] };

			rb_put(o, esc + !jsonl, jsonl ? 5 : 4);
			i++;
		} else if (ch == '"') {
			rb_put(o, jsonl ? "\\\"" : "\"\"", 2);
			i++;
		} else {
			rb_put(o, s + i, n);
			i += n;
		}
	}
}

/*
 * A CSV text field, quoted (RFC 4180) when it holds a comma or a quote, and
 * when it starts or ends with a blank, which CSV readers such as ClickHouse's
 * trim from an unquoted field.
 */
/*
 * Whether the 8 bytes of @x are all csv_plain(): none below 0x20 or above 0x7e, none a
 * comma, a double quote or a backslash (the tests of a byte in a word: a byte's top bit).
 */
static inline int csv_plain8(uint64_t x)
{
	const uint64_t ones = 0x0101010101010101ull, top = 0x8080808080808080ull;
	uint64_t c = x ^ (',' * ones), q = x ^ ('"' * ones), b = x ^ ('\\' * ones);
	uint64_t bad = ((x - 0x20 * ones) & ~x) |	/* a byte below 0x20 */
		       ((x + ones) | x) |		/* one above 0x7e */
		       ((c - ones) & ~c) | ((q - ones) & ~q) | ((b - ones) & ~b);

	return !(bad & top);
}

static void csv_field(struct rowbuf *o, const char *s, size_t len)
{
	int quote = len && (s[0] == ' ' || s[len - 1] == ' ');
	size_t i = 0;

	/* most fields (names, numbers as text) are plain printable ASCII without a comma */
	for (uint64_t x; i + 8 <= len && (memcpy(&x, s + i, 8), csv_plain8(x));)
		i += 8;
	while (i < len && csv_plain((unsigned char)s[i]))
		i++;
	if (i == len && !quote) {
		rb_put(o, s, len);
		return;
	}
	for (i = 0; i < len && !quote; i++)
		quote = s[i] == ',' || s[i] == '"';
	if (quote)
		rb_ch(o, '"');
	text_out(o, s, len, LAT_ROWS_CSV);
	if (quote)
		rb_ch(o, '"');
}

/* Text @s of @len bytes as a cell of the format (JSON: quoted). */
static void str_out(struct rowbuf *o, const char *s, size_t len, int jsonl)
{
	if (jsonl) {
		rb_ch(o, '"');
		text_out(o, s, len, LAT_ROWS_JSONL);
		rb_ch(o, '"');
	} else {
		csv_field(o, s, len);
	}
}

/*
 * A row being written: each cell goes into the row's buffer as it is put, after its
 * separator (CSV) or its key (JSON Lines), in the table's column order.
 */
struct row {
	struct rowbuf o;
	int jsonl;
	int n;			/* cells so far */
};

/* A row of table @kind begins (its header first when not written yet). */
static void row_begin(struct row *r, struct lat_rows *w, enum lat_rows_kind kind)
{
	struct lat_rows_table *t = &w->t[kind];

	if (!t->header_done)
		lat_rows_header(w);
	r->o.f = t->out;
	r->o.n = 0;
	r->n = 0;
	r->jsonl = w->fmt == LAT_ROWS_JSONL;
	if (r->jsonl)
		rb_ch(&r->o, '{');
}

/* What comes before cell @name: its comma, its key. */
static inline __attribute__((always_inline)) void put_key(struct row *r, const char *name)
{
	if (r->jsonl) {
		rb_put(&r->o, r->n ? ",\"" : "\"", r->n ? 2 : 1);
		rb_str(&r->o, name);
		rb_put(&r->o, "\":", 2);
	} else if (r->n) {
		rb_ch(&r->o, ',');
	}
	r->n++;
}

static void put_null(struct row *r, const char *name)
{
	put_key(r, name);
	/* unknown: ClickHouse, MySQL and PostgreSQL's text COPY read \N as NULL */
	rb_put(&r->o, r->jsonl ? "null" : "\\N", r->jsonl ? 4 : 2);
}

static void put_strn(struct row *r, const char *name, const char *s, size_t len)
{
	put_key(r, name);
	str_out(&r->o, s, len, r->jsonl);
}

static void put_str(struct row *r, const char *name, const char *s)
{
	if (s)
		put_strn(r, name, s, strlen(s));
	else
		put_null(r, name);
}

/*
 * A name of the analysis' vocabulary (a policy, wait kind, waker context, verdict, slice
 * end, task state: lowercase words, '-' and '?' at most), NULL unknown: written as it is,
 * without the scan for what to escape or quote.
 */
static void put_word(struct row *r, const char *name, const char *s)
{
	if (!s) {
		put_null(r, name);
		return;
	}
	put_key(r, name);
	if (r->jsonl)
		rb_ch(&r->o, '"');
	rb_str(&r->o, s);
	if (r->jsonl)
		rb_ch(&r->o, '"');
}

static void put_int(struct row *r, const char *name, int64_t v)
{
	put_key(r, name);
	rb_int(&r->o, v);
}

static void put_bool(struct row *r, const char *name, int v)
{
	put_key(r, name);
	if (r->jsonl)
		rb_put(&r->o, v ? "true" : "false", v ? 4 : 5);
	else
		rb_ch(&r->o, v ? '1' : '0');
}

/* A cell as the format writes it already (quoted, escaped). */
static void put_raw(struct row *r, const char *name, const char *s, size_t len)
{
	put_key(r, name);
	rb_put(&r->o, s, len);
}

/* The row is complete: its line end, and out. */
static void row_end(struct lat_rows *w, enum lat_rows_kind kind, struct row *r)
{
	rb_put(&r->o, r->jsonl ? "}\n" : "\r\n", 2);
	rb_flush(&r->o);
	w->t[kind].nrows++;
}

/*
 * The columns every row of a trace has the same (trace, host, trace_id), written once as the
 * format writes them (quoted, escaped) and copied from there into each row.  Made again when
 * their text changes (the caller changes them between traces).
 */
enum { FIX_TRACE, FIX_HOST, FIX_ID, FIX_N };

struct lat_rows_fixed {
	char *src[FIX_N];	/* the text it was made from */
	char *out[FIX_N];	/* as written; NULL: unknown (src NULL) */
	size_t len[FIX_N];
};

static void fixed_free(struct lat_rows_fixed *f)
{
	for (int i = 0; f && i < FIX_N; i++) {
		free(f->src[i]);
		free(f->out[i]);
	}
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

/* Makes the written form of @s in @f's slot @i; -1 out of memory. */
static int fixed_make(struct lat_rows_fixed *f, int i, const char *s, int jsonl)
{
	struct rowbuf o;
	const char *text = s;
	size_t len = 0;
	int hold = i == FIX_ID && !strncmp(s, LAT_ROWS_ID_HOLD, LAT_ROWS_ID_LEN);
	char held[128];

	free(f->src[i]);
	free(f->out[i]);
	f->out[i] = NULL;
	f->src[i] = strdup(s);
	o.f = open_memstream(&f->out[i], &len);
	if (!f->src[i] || !o.f)
		return -1;
	o.n = 0;
	if (hold) {
		snprintf(held, sizeof(held), "0000000000000000%s", s + LAT_ROWS_ID_LEN);
		text = held;
	}
	str_out(&o, text, strlen(text), jsonl);
	rb_flush(&o);
	if (fclose(o.f))
		return -1;
	f->len[i] = len;
	if (hold)
		fixed_hold(f->out[i], len);
	return 0;
}

/* Column @name from @s (NULL: unknown), through @w's written forms when it can. */
static void put_fixed(struct row *r, struct lat_rows *w, int i, const char *name, const char *s)
{
	struct lat_rows_fixed *f = w->fixed;

	if (!s) {
		put_null(r, name);
		return;
	}
	if (!f && !(f = w->fixed = calloc(1, sizeof(*f))))
		goto slow;
	if ((!f->src[i] || strcmp(f->src[i], s)) &&
	    fixed_make(f, i, s, w->fmt == LAT_ROWS_JSONL)) {
		free(f->src[i]);
		f->src[i] = NULL;	/* made again next time */
		goto slow;
	}
	put_raw(r, name, f->out[i], f->len[i]);
	return;
slow:
	put_strn(r, name, s, strlen(s));
}

/*
 * wall_ns, trace_id, row_schema: the last columns of every table.  @ts_ns is
 * the row's time in the trace clock (the wall_ns column's), @known 0: unknown.
 */
static void write_row_end(struct lat_rows *w, enum lat_rows_kind kind, struct row *r,
			  uint64_t ts_ns, int known)
{
	if (known && w->wall_known)
		put_int(r, "wall_ns", (int64_t)ts_ns + w->wall_offset_ns);
	else
		put_null(r, "wall_ns");
	put_fixed(r, w, FIX_ID, "trace_id", w->trace_id);
	put_int(r, "row_schema", LAT_ROWS_SCHEMA);
	row_end(w, kind, r);
}

const char *lat_prio_policy(int32_t prio)
{
	if (prio < 0)
		return "dl";
	return prio < 100 ? "rt" : "fair";
}

void lat_rows_release(struct lat_rows *w)
{
	w->tg = NULL;
	fixed_free(w->fixed);
	w->fixed = NULL;
}

/* trace, host, pid, tid, comm: the first columns of every table */
static void put_task(struct row *r, struct lat_rows *w, int32_t tid, const char *comm)
{
	int32_t tgid = lat_tgids_of(w->tg, tid);

	put_fixed(r, w, FIX_TRACE, "trace", w->trace ? w->trace : "");
	put_fixed(r, w, FIX_HOST, "host", w->host);	/* NULL: unknown */
	if (tgid > 0)
		put_int(r, "pid", tgid);
	else
		put_null(r, "pid");	/* no tgids stored, or the task had exited */
	if (tid >= 0) {
		put_int(r, "tid", tid);
		put_strn(r, "comm", comm, strnlen(comm, LAT_COMM_LEN));
	} else {
		/* an event of an unknown task (a marker, say, or a stall of every CPU) */
		put_null(r, "tid");
		put_null(r, "comm");
	}
}

static void put_prio(struct row *r, int32_t prio, int known)
{
	if (known) {
		put_word(r, "policy", lat_prio_policy(prio));
		put_int(r, "prio", prio);
	} else {
		put_null(r, "policy");
		put_null(r, "prio");
	}
}

/*
 * The waker as one word: "comm:tid", "irq[:NAME]" or "softirq[:NAME]", "" unknown; its
 * length.  Made by hand: snprintf() was a tenth of a waits row's cost.
 */
static size_t waker_text(const struct lat_wake_waker *k, char buf[64])
{
	char num[24], *p;
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
	n = strnlen(k->comm, 16);
	memcpy(buf, k->comm, n);
	buf[n++] = ':';
	p = dec(num + sizeof(num), k->pid);
	memcpy(buf + n, p, (size_t)(num + sizeof(num) - p));
	return n + (size_t)(num + sizeof(num) - p);
}

static void wait_row(void *ctx, const struct lat_wait_rec *rec)
{
	struct lat_rows *w = ctx;
	const struct lat_wake_link *l = rec->w;
	struct row r;
	char waker[64];

	row_begin(&r, w, LAT_ROWS_WAITS);
	put_task(&r, w, l->pid, l->comm);
	put_prio(&r, rec->prio, 1);
	put_int(&r, "cpu", l->cpu);
	put_int(&r, "start_ns", (int64_t)l->start_ns);
	put_int(&r, "end_ns", (int64_t)l->end_ns);
	put_int(&r, "latency_ns", l->latency_ns);
	put_word(&r, "kind", lat_wait_kind_name(l->kind));
	put_strn(&r, "waker", waker, waker_text(&l->waker, waker));
	put_word(&r, "verdict", rec->verdict);
	put_bool(&r, "trusted", rec->trusted);
	if (rec->queued_cpu >= 0)
		put_int(&r, "queued_cpu", rec->queued_cpu);
	else
		put_null(&r, "queued_cpu");
	if (l->waker.pid >= 0)
		put_int(&r, "waker_tid", l->waker.pid);
	else
		put_null(&r, "waker_tid");
	if (l->waker.cpu >= 0)
		put_int(&r, "waker_cpu", l->waker.cpu);
	else
		put_null(&r, "waker_cpu");
	put_word(&r, "waker_ctx", l->waker.pid >= 0 || l->waker.ctx != LAT_WAKE_CTX_TASK ?
			      lat_wake_ctx_name(l->waker.ctx) : NULL);
	write_row_end(w, LAT_ROWS_WAITS, &r, l->start_ns, 1);
}

static void slice_row(void *ctx, const struct lat_run_slice *s)
{
	struct lat_rows *w = ctx;
	struct row r;

	row_begin(&r, w, LAT_ROWS_SLICES);
	put_task(&r, w, s->pid, s->comm);
	put_prio(&r, s->prio, s->prio != LAT_PRIO_UNKNOWN);
	put_int(&r, "cpu", s->cpu);
	if (s->start_known) {
		put_int(&r, "start_ns", (int64_t)s->start_ns);
		put_int(&r, "end_ns", (int64_t)s->end_ns);
		put_int(&r, "dur_ns", (int64_t)(s->end_ns - s->start_ns));
	} else {
		put_null(&r, "start_ns");
		put_int(&r, "end_ns", (int64_t)s->end_ns);
		put_null(&r, "dur_ns");
	}
	put_word(&r, "end", lat_slice_end_name(s->end));
	put_word(&r, "state", s->end == LAT_SLICE_SWITCH ? lat_task_state_name(s->state) : NULL);
	write_row_end(w, LAT_ROWS_SLICES, &r, s->start_ns, s->start_known);
}

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

static void marker_row(void *ctx, const struct lat_event *ev, int64_t lat_ns)
{
	struct lat_rows *w = ctx;
	struct row r;
	const char *text = ev->u.marker.text ? ev->u.marker.text : "";
	size_t len = ev->u.marker.text ? ev->u.marker.len : 0, plen = 0;
	const char *probe = lat_ns >= 0 ? probe_name(text, len, &plen) : NULL;

	row_begin(&r, w, LAT_ROWS_SAMPLES);
	put_task(&r, w, ev->pid, ev->comm);
	put_int(&r, "cpu", ev->cpu);
	put_int(&r, "ts_ns", (int64_t)ev->ts_ns);
	if (probe)
		put_strn(&r, "probe", probe, plen);
	else
		put_null(&r, "probe");
	if (lat_ns >= 0)
		put_int(&r, "lat_ns", lat_ns);
	else
		put_null(&r, "lat_ns");
	put_strn(&r, "text", text, len);
	write_row_end(w, LAT_ROWS_SAMPLES, &r, ev->ts_ns, 1);
}

static void stall_row(void *ctx, const struct lat_wake_stall *s)
{
	struct lat_rows *w = ctx;
	struct row r;

	row_begin(&r, w, LAT_ROWS_STALLS);
	put_task(&r, w, s->pid, s->pid >= 0 ? s->comm : "");
	put_int(&r, "cpu", s->cpu);
	put_int(&r, "from_ns", (int64_t)s->from_ns);
	put_int(&r, "to_ns", (int64_t)s->to_ns);
	put_int(&r, "dur_ns", (int64_t)(s->to_ns - s->from_ns));
	if (s->waiting_pid >= 0) {
		put_int(&r, "waiting_tid", s->waiting_pid);
		put_strn(&r, "waiting_comm", s->waiting_comm,
			 strnlen(s->waiting_comm, LAT_COMM_LEN));
	} else {
		put_null(&r, "waiting_tid");
		put_null(&r, "waiting_comm");
	}
	write_row_end(w, LAT_ROWS_STALLS, &r, s->from_ns, 1);
}

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
	struct row r;
	char release[128];

	if (!w->t[LAT_ROWS_TRACES].out || !src)
		return;
	row_begin(&r, w, LAT_ROWS_TRACES);
	put_str(&r, "trace", w->trace ? w->trace : "");
	put_str(&r, "host", w->host);
	uname_release(src->uname, release, sizeof(release));
	put_str(&r, "kernel", release[0] ? release : NULL);
	put_str(&r, "uname", src->uname);
	put_str(&r, "preempt", src->uname ? lat_uname_preempt(src->uname) : NULL);
	put_str(&r, "clock", src->clock);
	if (src->ncpus > 0)
		put_int(&r, "cpus", src->ncpus);
	else
		put_null(&r, "cpus");
	if (res) {
		put_int(&r, "first_ns", (int64_t)res->first_ns);
		put_int(&r, "last_ns", (int64_t)res->last_ns);
		put_int(&r, "events", (int64_t)res->nevents);
		put_int(&r, "waits", (int64_t)res->waits);
		put_int(&r, "preempt_waits", (int64_t)res->preempt_waits);
		put_int(&r, "untrusted", (int64_t)res->untrusted);
		put_int(&r, "lost_events", (int64_t)res->lost_events);
		put_int(&r, "stalls", (int64_t)res->nstalls_total);
		put_int(&r, "stall_ns", res->stall_ns_total);
	} else {
		static const char *const none[] = { "first_ns", "last_ns", "events", "waits",
			"preempt_waits", "untrusted", "lost_events", "stalls", "stall_ns" };

		for (size_t i = 0; i < LAT_ARRAY_SIZE(none); i++)
			put_null(&r, none[i]);
	}
	if (w->threshold_ns > 0)
		put_int(&r, "threshold_ns", w->threshold_ns);
	else
		put_null(&r, "threshold_ns");
	if (w->wall_known) {
		put_int(&r, "realtime_offset_ns", w->wall_offset_ns);
		put_int(&r, "realtime_error_ns", src->realtime_error_ns);
	} else {
		put_null(&r, "realtime_offset_ns");
		put_null(&r, "realtime_error_ns");
	}
	write_row_end(w, LAT_ROWS_TRACES, &r, res ? res->first_ns : 0, res != NULL);
}


void lat_rows_init(struct lat_rows *r, enum lat_rows_fmt fmt)
{
	memset(r, 0, sizeof(*r));
	r->fmt = fmt;
}

void lat_rows_table(struct lat_rows *r, enum lat_rows_kind kind, FILE *out)
{
	r->t[kind].out = out;
}

int lat_rows_source(struct lat_rows *r, const struct lat_event_source *src)
{
	r->wall_known = src->realtime_known;
	r->wall_offset_ns = src->realtime_known ? src->realtime_offset_ns : 0;
	r->tg = src->tgids;
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
