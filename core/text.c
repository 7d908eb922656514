// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "latscope/text.h"
#include "text_priv.h"

/* ---- one input line at a time ---------------------------------------- */

struct raw_iter {
	const char *buf;
	size_t len, pos;
	uint32_t lineno;
};

/* The next input line without its "\n" (and "\r"); 0 at the end. */
static int raw_next(struct raw_iter *it, const char **s, size_t *n)
{
	const char *p, *nl;
	size_t raw;

	if (it->pos >= it->len)
		return 0;
	p = it->buf + it->pos;
	nl = memchr(p, '\n', it->len - it->pos);
	raw = nl ? (size_t)(nl - p) : it->len - it->pos;
	it->pos += raw + 1;
	it->lineno++;
	if (raw && p[raw - 1] == '\r')
		raw--;
	*s = p;
	*n = raw;
	return 1;
}

static int ci_prefix(const char *s, size_t n, const char *lit)
{
	size_t k = strlen(lit);

	return n >= k && !strncasecmp(s, lit, k);
}

static const char *ci_find(const char *s, size_t n, const char *lit)
{
	size_t k = strlen(lit);

	for (size_t i = 0; i + k <= n; i++)
		if (!strncasecmp(s + i, lit, k))
			return s + i;
	return NULL;
}

/* ---- mail structure: where quoted-printable bodies are ---------------- */

enum { CTE_NONE, CTE_QP, CTE_B64, CTE_OTHER };

struct qp_region {
	uint32_t first, last;	/* input lines, inclusive */
	uint32_t header_line;	/* the Content-Transfer-Encoding line; 0: by pattern */
	int b64;		/* a declared base64 text part, not quoted-printable */
	int encoded;		/* 0: not encoded, listed for its format=flowed only */
	int flowed, delsp;	/* Content-Type: ... format=flowed [; delsp=yes] */
	uint32_t flowed_line;	/* the Content-Type line that says so */
};

/* What a region of lines without a declared encoding looks like. */
struct qp_stats {
	uint32_t soft;		/* lines ending in "=" */
	uint32_t strong;	/* "=3D", "=20", "=09" */
	uint32_t eq, bad;	/* "=" signs; those neither an escape nor a soft break */
};

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static void qp_count(struct qp_stats *st, const char *s, size_t n)
{
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	for (size_t i = 0; i < n; i++) {
		if (s[i] != '=')
			continue;
		st->eq++;
		if (i + 1 == n) {
			st->soft++;
		} else if (i + 2 < n && hexval(s[i + 1]) >= 0 && hexval(s[i + 2]) >= 0) {
			/* RFC 2045 escapes are upper case: "=3d" is more likely plain text */
			if (!memcmp(s + i, "=3D", 3) || !memcmp(s + i, "=20", 3) ||
			    !memcmp(s + i, "=09", 3))
				st->strong++;
		} else {
			st->bad++;
		}
	}
}

/*
 * Quoted-printable without a header that says so: the escapes every encoder
 * writes ("=3D" for each "=", "=20" before a line end), and (almost) every "="
 * an escape or a soft break; a text of short lines may have no soft break,
 * then every "=" must be an escape.  A log with "wait=  827" or "prev_comm=sh"
 * has plain "=" signs.
 */
static int qp_pattern(const struct qp_stats *st)
{
	if (st->soft && st->strong >= 2 && st->bad * 50 <= st->eq)
		return 1;
	return st->strong >= 4 && !st->bad;
}

/* "Name: value": a header field (RFC 5322 field names are printable ASCII without ':'). */
static size_t field_name(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && s[i] > ' ' && s[i] < 127 && s[i] != ':')
		i++;
	return i && i < n && s[i] == ':' ? i : 0;
}

static int known_field(const char *s, size_t n)
{
	static const char *const names[] = {
		"From:", "To:", "Cc:", "Subject:", "Date:", "Message-ID:", "Message-Id:",
		"MIME-Version:", "Content-Type:", "Content-Transfer-Encoding:", "Received:",
		"Return-Path:", "Reply-To:", "In-Reply-To:", "References:", "Sender:",
	};

	for (size_t i = 0; i < LAT_ARRAY_SIZE(names); i++)
		if (ci_prefix(s, n, names[i]))
			return 1;
	return 0;
}

/* a header longer than this is not looked for (each "From " line of a text is tried) */
#define MAIL_HEADER_MAX_LINES 1000

/*
 * A mail's header at @it's position: an optional mbox "From " line, then at
 * least two fields, one of them a mail header field, up to an empty line.
 */
static int mail_header_at(struct raw_iter it)
{
	const char *s;
	size_t n;
	int fields = 0, known = 0, first = 1, lines = 0;

	while (raw_next(&it, &s, &n) && lines++ < MAIL_HEADER_MAX_LINES) {
		if (first && n > 5 && !memcmp(s, "From ", 5)) {
			first = 0;
			continue;
		}
		first = 0;
		if (!n)
			return fields >= 2 && known;
		if (s[0] == ' ' || s[0] == '\t') {
			if (!fields)
				return 0;
			continue;
		}
		if (!field_name(s, n))
			return 0;
		fields++;
		known += known_field(s, n);
		if (fields > 200)
			return known;
	}
	return 0;
}

#define MIME_MAX_DEPTH 8
#define MIME_BOUNDARY_MAX 72	/* RFC 2046: 1 to 70 characters */

struct mime_scan {
	struct qp_region *reg;
	size_t nreg, cap;
	/* the open body */
	uint32_t body_first;
	int cte;
	uint32_t cte_line;
	int body_flowed, body_delsp;
	uint32_t body_flowed_line;
	struct qp_stats st;
	/* the header being read */
	int field;		/* 1 Content-Type, 2 Content-Transfer-Encoding, 0 other */
	int hdr_cte, hdr_multi, hdr_type, hdr_text, hdr_flowed, hdr_delsp;
	uint32_t hdr_cte_line, hdr_flowed_line;
	char hdr_boundary[MIME_BOUNDARY_MAX + 1];
	/* enclosing multiparts */
	char bound[MIME_MAX_DEPTH][MIME_BOUNDARY_MAX + 1];
	int depth;
};

static int close_body(struct mime_scan *m, uint32_t last)
{
	struct qp_region r = { m->body_first, last, 0, 0, 1, m->body_flowed, m->body_delsp,
			       m->body_flowed_line };

	if (last < m->body_first)
		return 0;
	if (m->cte == CTE_QP || m->cte == CTE_B64) {
		r.header_line = m->cte_line;
		r.b64 = m->cte == CTE_B64;
	} else if (m->cte != CTE_NONE || !qp_pattern(&m->st)) {
		r.encoded = 0;
	}
	if (!r.encoded && !r.flowed)
		return 0;
	if (lat_grow(&m->reg, &m->cap, m->nreg + 1, sizeof(*m->reg)))
		return -LAT_ENOMEM;
	m->reg[m->nreg++] = r;
	return 0;
}

static void open_body(struct mime_scan *m, uint32_t first, int cte, uint32_t cte_line)
{
	m->body_first = first;
	m->cte = cte;
	m->cte_line = cte_line;
	m->body_flowed = m->body_delsp = 0;
	m->body_flowed_line = 0;
	memset(&m->st, 0, sizeof(m->st));
}

/* The body a header just opened is format=flowed when that header says so (not a multipart). */
static void body_flowed(struct mime_scan *m)
{
	if (!m->hdr_flowed || m->hdr_multi)
		return;
	m->body_flowed = 1;
	m->body_delsp = m->hdr_delsp;
	m->body_flowed_line = m->hdr_flowed_line;
}

static void header_reset(struct mime_scan *m)
{
	m->field = 0;
	m->hdr_cte = CTE_NONE;
	m->hdr_cte_line = 0;
	m->hdr_multi = 0;
	m->hdr_type = 0;
	m->hdr_text = 0;
	m->hdr_flowed = m->hdr_delsp = 0;
	m->hdr_flowed_line = 0;
	m->hdr_boundary[0] = '\0';
}

/* One header line (a field or its continuation): the two fields that matter. */
static void header_line(struct mime_scan *m, const char *s, size_t n, uint32_t lineno)
{
	const char *v;

	if (n && s[0] != ' ' && s[0] != '\t')
		m->field = ci_prefix(s, n, "Content-Type:") ? 1 :
			   ci_prefix(s, n, "Content-Transfer-Encoding:") ? 2 : 0;
	if (m->field == 2) {
		if (ci_find(s, n, "quoted-printable")) {
			m->hdr_cte = CTE_QP;
			m->hdr_cte_line = lineno;
		} else if (ci_find(s, n, "base64")) {
			m->hdr_cte = CTE_B64;
			m->hdr_cte_line = lineno;
		} else if (ci_find(s, n, "7bit") || ci_find(s, n, "8bit") ||
			   ci_find(s, n, "binary")) {
			m->hdr_cte = CTE_OTHER;
		}
	} else if (m->field == 1) {
		m->hdr_type = 1;
		if (ci_find(s, n, "multipart/"))
			m->hdr_multi = 1;
		if (ci_find(s, n, "text/"))
			m->hdr_text = 1;
		/* RFC 3676: "format=flowed", the value may be quoted; "delsp=yes" */
		if (ci_find(s, n, "format=flowed") || ci_find(s, n, "format=\"flowed\"")) {
			m->hdr_flowed = 1;
			m->hdr_flowed_line = lineno;
		}
		if (ci_find(s, n, "delsp=yes") || ci_find(s, n, "delsp=\"yes\""))
			m->hdr_delsp = 1;
		v = ci_find(s, n, "boundary=");
		if (v) {
			size_t k = 0;
			int q;

			v += 9;
			q = v < s + n && *v == '"';
			v += q;
			while (v + k < s + n && k < MIME_BOUNDARY_MAX &&
			       (q ? v[k] != '"' : v[k] != ';' && v[k] != ' ' && v[k] != '\t'))
				k++;
			memcpy(m->hdr_boundary, v, k);
			m->hdr_boundary[k] = '\0';
		}
	}
}

/* "--B" (returns 1) or "--B--" (returns 2) for an open multipart at level *lvl. */
static int boundary_line(const struct mime_scan *m, const char *s, size_t n, int *lvl)
{
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (n < 3 || s[0] != '-' || s[1] != '-')
		return 0;
	for (int d = m->depth - 1; d >= 0; d--) {
		size_t k = strlen(m->bound[d]);

		if (n - 2 < k || memcmp(s + 2, m->bound[d], k))
			continue;
		*lvl = d;
		if (n == k + 2)
			return 1;
		if (n == k + 4 && s[k + 2] == '-' && s[k + 3] == '-')
			return 2;
	}
	return 0;
}

/*
 * Finds the quoted-printable regions of @t's buffer: the bodies (or MIME
 * parts) that declare it, and, where nothing is declared, those that look it.
 */
static int find_qp(const struct lat_text *t, struct qp_region **regp, size_t *nregp)
{
	struct raw_iter it = { t->buf, t->len, 0, 0 };
	struct mime_scan m;
	const char *s;
	size_t n;
	int in_header, ret = 0;

	memset(&m, 0, sizeof(m));
	header_reset(&m);
	in_header = mail_header_at(it);
	open_body(&m, 1, CTE_NONE, 0);
	while (!ret && raw_next(&it, &s, &n)) {
		uint32_t ln = it.lineno;
		int lvl, b;

		if (in_header) {
			if (ln == 1 && n > 5 && !memcmp(s, "From ", 5))
				continue;
			if (n && (field_name(s, n) || s[0] == ' ' || s[0] == '\t')) {
				header_line(&m, s, n, ln);
				continue;
			}
			/* the empty line that ends it, or a part without a header */
			in_header = 0;
			if (m.hdr_multi && m.hdr_boundary[0] && m.depth < MIME_MAX_DEPTH) {
				strcpy(m.bound[m.depth++], m.hdr_boundary);
				/* the preamble says nothing: undeclared */
				open_body(&m, n ? ln : ln + 1, CTE_NONE, 0);
			} else if (m.hdr_cte == CTE_B64 && m.hdr_type && !m.hdr_text) {
				/* base64 that is not text (an image, a tarball): left alone */
				open_body(&m, n ? ln : ln + 1, CTE_OTHER, 0);
			} else {
				open_body(&m, n ? ln : ln + 1, m.hdr_cte, m.hdr_cte_line);
				body_flowed(&m);
			}
			if (!n)
				continue;
		}
		if (m.depth && (b = boundary_line(&m, s, n, &lvl))) {
			ret = close_body(&m, ln - 1);
			if (b == 1) {
				m.depth = lvl + 1;
				header_reset(&m);
				in_header = 1;
			} else {
				m.depth = lvl;
				open_body(&m, ln + 1, CTE_NONE, 0);	/* the epilogue */
			}
			continue;
		}
		if (!m.depth && n > 5 && !memcmp(s, "From ", 5) && ln > 1 &&
		    mail_header_at(it)) {
			/* the next mail of an mbox */
			ret = close_body(&m, ln - 1);
			header_reset(&m);
			in_header = 1;
			continue;
		}
		qp_count(&m.st, s, n);
	}
	if (!ret && !in_header)
		ret = close_body(&m, it.lineno);
	if (ret) {
		free(m.reg);
		return ret;
	}
	*regp = m.reg;
	*nregp = m.nreg;
	return 0;
}

/* ---- decoding and normalising, in place ------------------------------ */

static int is_blank_byte(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/*
 * Decodes @n quoted-printable bytes at @s to @w (w <= s).  Returns the bytes
 * written; an "=" that is not an escape is kept as it is.
 */

static size_t qp_decode(char *w, const char *s, size_t n)
{
	char *w0 = w;

	for (size_t i = 0; i < n; i++) {
		int hi, lo;

		if (s[i] == '=' && i + 2 < n && (hi = hexval(s[i + 1])) >= 0 &&
		    (lo = hexval(s[i + 2])) >= 0) {
			*w++ = (char)(hi << 4 | lo);
			i += 2;
		} else {
			*w++ = s[i];
		}
	}
	return (size_t)(w - w0);
}

/* The value of a base64 character, -1 for '=' padding, -2 for any other byte. */
static int b64val(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return c == '=' ? -1 : -2;
}

/* A base64 decoder's state across input lines: up to 3 sextets waiting for a 4th. */
struct b64_state {
	uint32_t acc;
	int nbits;
};

/*
 * Decodes the base64 characters of @n bytes at @s to @w (w <= s); blanks are
 * skipped, "=" padding ends a quantum, any other byte is dropped (and counted
 * in *@bad).  Returns the bytes written.
 */
static size_t b64_decode(struct b64_state *st, char *w, const char *s, size_t n, uint32_t *bad)
{
	char *w0 = w;

	for (size_t i = 0; i < n; i++) {
		int v = b64val((unsigned char)s[i]);

		if (v == -1) {
			st->acc = 0;
			st->nbits = 0;	/* padding: what is left is not a byte */
			continue;
		}
		if (v < 0) {
			*bad += !is_blank_byte(s[i]);
			continue;
		}
		st->acc = (st->acc << 6 | (uint32_t)v) & 0xffffff;
		st->nbits += 6;
		if (st->nbits >= 8) {
			st->nbits -= 8;
			*w++ = (char)(st->acc >> st->nbits & 0xff);
		}
	}
	return (size_t)(w - w0);
}

/* Length of the valid UTF-8 sequence at @p (n bytes left), or 0. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
	size_t k;

	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		k = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		k = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		k = 4;
	else
		return 0;
	if (n < k)
		return 0;
	for (size_t i = 1; i < k; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return k;
}

/*
 * Spaces a browser or a word processor pastes: 1 plain space, 0 dropped
 * (zero-width), -1 not a space.
 */
static int unicode_space(const unsigned char *p, size_t k)
{
	if (k == 2)
		return p[0] == 0xc2 && p[1] == 0xa0 ? 1 : -1;		/* U+00A0 */
	if (k != 3)
		return -1;
	if (p[0] == 0xe2 && p[1] == 0x80) {
		if (p[2] >= 0x80 && p[2] <= 0x8a)			/* U+2000-U+200A */
			return 1;
		if (p[2] == 0xaf)					/* U+202F */
			return 1;
		if (p[2] >= 0x8b && p[2] <= 0x8d)			/* U+200B-U+200D */
			return 0;
	}
	if (p[0] == 0xe2 && p[1] == 0x81 && p[2] == 0x9f)		/* U+205F */
		return 1;
	if (p[0] == 0xe2 && p[1] == 0x81 && p[2] == 0xa0)		/* U+2060 */
		return 0;
	if (p[0] == 0xe3 && p[1] == 0x80 && p[2] == 0x80)		/* U+3000 */
		return 1;
	if (p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf)		/* U+FEFF */
		return 0;
	return -1;
}

/* Makes the pasted spaces of @s plain, in place; returns the new length. */
static size_t plain_spaces(char *s, size_t n, uint32_t *count)
{
	unsigned char *r = (unsigned char *)s, *end = r + n;
	char *w = s;

	while (r < end) {
		size_t k;
		int sp;

		if (*r < 0x80) {
			*w++ = (char)*r++;
			continue;
		}
		/* "Â" + U+00A0: a UTF-8 no-break space read as Latin-1 and encoded again */
		if (end - r >= 4 && r[0] == 0xc3 && r[1] == 0x82 && r[2] == 0xc2 && r[3] == 0xa0) {
			*w++ = ' ';
			r += 4;
			(*count)++;
			continue;
		}
		k = utf8_len(r, (size_t)(end - r));
		if (!k) {
			/* not UTF-8: a Latin-1 no-break space, or a byte left as it is */
			*w++ = *r == 0xa0 ? ' ' : (char)*r;
			*count += *r == 0xa0;
			r++;
			continue;
		}
		sp = unicode_space(r, k);
		if (sp < 0) {
			memmove(w, r, k);
			w += k;
		} else {
			if (sp)
				*w++ = ' ';
			(*count)++;
		}
		r += k;
	}
	return (size_t)(w - s);
}

/* ---- the line index --------------------------------------------------- */

struct splitter {
	struct lat_text *t;
	size_t cap;
};

static int add_line(struct splitter *sp, const char *s, size_t len, uint32_t lineno,
		    uint32_t joined, unsigned quote)
{
	struct lat_text *t = sp->t;
	struct lat_line *l;

	if (lat_grow(&t->lines, &sp->cap, t->nlines + 1, sizeof(*t->lines)))
		return -LAT_ENOMEM;
	l = &t->lines[t->nlines++];
	l->lineno = lineno;
	l->joined = joined > UINT16_MAX ? UINT16_MAX : (uint16_t)joined;
	l->soft = 0;
	l->quote = (uint8_t)(quote > UINT8_MAX ? UINT8_MAX : quote);
	l->s = s;
	l->len = len > UINT32_MAX ? UINT32_MAX : (uint32_t)len;
	l->binary = memchr(s, '\0', len) != NULL;
	t->nbinary += l->binary;
	return 0;
}

/* After the "#" and blanks of @s: is it a latency header item of ftrace? */
static size_t header_item(const char *s, size_t n)
{
	static const char *const items[] = { "latency:", "| task:", "tracer:" };
	size_t i = 0;

	if (i < n && s[i] == '#')
		i++;
	while (i < n && s[i] == ' ')
		i++;
	for (size_t k = 0; k < LAT_ARRAY_SIZE(items); k++)
		if (n - i >= strlen(items[k]) && !memcmp(s + i, items[k], strlen(items[k])))
			return 1;
	return 0;
}

/*
 * "# ------------------- # latency: 53 us, ...": a header rule that a mailer
 * joined with the next line.  Returns where the second line starts (a "#"
 * is written in front of it when the join ate it), or 0.
 */
static size_t merged_rule(char *s, size_t n)
{
	size_t i = 1, dash;

	if (n < 14 || s[0] != '#')
		return 0;
	while (i < n && s[i] == ' ')
		i++;
	dash = i;
	while (i < n && s[i] == '-')
		i++;
	if (i - dash < 12)
		return 0;
	while (i < n && s[i] == ' ')
		i++;
	if (i >= n || !header_item(s + i, n - i))
		return 0;
	if (s[i] != '#') {
		/* "# ------------latency: ..." -> "# ----------" "# latency: ..." */
		s[i - 2] = '#';
		s[i - 1] = ' ';
		i -= 2;
	}
	return i;
}

/*
 * Indexes one line (normalised in place at @s, @n bytes): its pasted
 * spaces made plain, its quoting stripped, a merged header rule split.
 */
static int emit(struct splitter *sp, char *s, size_t n, uint32_t lineno, uint32_t joined)
{
	struct lat_text_repairs *fx = &sp->t->fix;
	uint32_t before = fx->spaces;
	const char *cq = s;
	char *q;
	size_t len, cut;
	unsigned depth;
	int ret;

	n = plain_spaces(s, n, &fx->spaces);
	if (fx->spaces != before && !fx->first_space_line)
		fx->first_space_line = lineno;
	len = n;
	depth = lat_line_dequote(&cq, &len);
	q = s + (cq - s);
	cut = merged_rule(q, len);
	if (!cut)
		return add_line(sp, q, len, lineno, joined, depth);
	if (!fx->split++)
		fx->first_split_line = lineno;
	{
		const char *a = q;
		size_t alen = cut;

		lat_line_dequote(&a, &alen);	/* the blanks before the cut */
		ret = add_line(sp, a, alen, lineno, 0, depth);
	}
	return ret ? ret : add_line(sp, q + cut, len - cut, lineno, joined, depth);
}

/* A decoded line may hold "=0A": each piece is a line of the same input line. */
static int emit_pieces(struct splitter *sp, char *s, size_t n, uint32_t lineno,
		       uint32_t joined)
{
	char *nl;
	int ret;

	while ((nl = memchr(s, '\n', n))) {
		size_t k = (size_t)(nl - s);

		if ((ret = emit(sp, s, k, lineno, joined)))
			return ret;
		s += k + 1;
		n -= k + 1;
	}
	return emit(sp, s, n, lineno, joined);
}

static int is_ws(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * A declared base64 text part, input lines [@r->first, @r->last] (the first
 * one, @s @n, already read): decoded to @*w, each decoded line emitted with
 * the number of the input line its first byte came from; joined counts the
 * further input lines it took.  The writes stay behind the reads (3 bytes for
 * every 4 characters).
 */
static int b64_region(struct splitter *sp, struct raw_iter *it, char **w,
		      const struct qp_region *r, const char *s, size_t n)
{
	struct lat_text_repairs *fx = &sp->t->fix;
	struct b64_state st = { 0, 0 };
	char *ls = *w;
	uint32_t start = it->lineno;
	int ret;

	if (!fx->b64_first)
		fx->b64_first = it->lineno, fx->b64_header_line = r->header_line;
	for (;;) {
		char *from = *w, *nl;

		fx->b64_lines++;
		fx->b64_last = it->lineno;
		*w += b64_decode(&st, *w, s, n, &fx->b64_bad);
		/* every complete decoded line: from ls to its "\n" */
		while ((nl = memchr(from, '\n', (size_t)(*w - from)))) {
			size_t k = (size_t)(nl - ls);

			if (k && ls[k - 1] == '\r')
				k--;
			if (sp->t->nlines >= LAT_TEXT_MAX_LINES) {
				/* as split_lines(): keep what is indexed, count the rest */
				sp->t->cut = LAT_TEXT_CUT_LINES;
				sp->t->cut_bytes += it->len - it->pos;
				it->pos = it->len;
				return 0;
			}
			fx->b64_text_lines++;
			ret = emit(sp, ls, k, start, it->lineno - start);
			if (ret)
				return ret;
			ls = from = nl + 1;
			start = it->lineno;
		}
		if (ls == *w)
			start = it->lineno + 1;	/* the next line starts on the next input line */
		if (it->lineno >= r->last || !raw_next(it, &s, &n))
			break;
	}
	if (*w > ls) {
		/* a last line without its "\n" */
		fx->b64_text_lines++;
		ret = emit(sp, ls, (size_t)(*w - ls), start > it->lineno ? it->lineno : start,
			   it->lineno - (start > it->lineno ? it->lineno : start));
		if (ret)
			return ret;
		if (*w < sp->t->buf + sp->t->len)
			*(*w)++ = '\n';
	}
	return 0;
}

/*
 * The line just indexed ended in a blank inside a format=flowed body: a soft
 * break (RFC 3676), but for the signature separator "-- " and an empty quoted
 * line.  A mailer writes a quote's empty line as "> " (the quote mark, then
 * the blank it stuffs after the quote marks): no text is left to flow on,
 * the quoted paragraph ends there.  The join is made once every line is
 * indexed (tx_rejoin_flowed()).
 */
static void flowed_soft(struct lat_text *t, const struct qp_region *r)
{
	struct lat_line *l = &t->lines[t->nlines - 1];

	if ((l->len == 2 && !memcmp(l->s, "--", 2)) || (l->quote && lat_line_blank(l)))
		return;
	l->soft = r->delsp ? 2 : 1;
	if (!t->fix.flowed_header_line)
		t->fix.flowed_header_line = r->flowed_line;
}

/*
 * Splits the buffer into lines, decoding the quoted-printable regions @reg
 * (sorted) in place: the buffer is rewritten front to back and only shrinks.
 */
static int split_lines(struct lat_text *t, const struct qp_region *reg, size_t nreg)
{
	struct splitter sp = { t, 0 };
	struct raw_iter it = { t->buf, t->len, 0, 0 };
	char *w = t->buf;
	size_t ri = 0;
	const char *s;
	size_t n;
	int ret;

	for (;;) {
		uint32_t first, joined = 0;
		char *ls = w;
		int qp, in_reg;

		if (t->nlines >= LAT_TEXT_MAX_LINES && it.pos < it.len) {
			/* the index would outgrow the text: keep what is indexed, count the rest */
			t->cut = LAT_TEXT_CUT_LINES;
			t->cut_bytes += t->len - it.pos;
			break;
		}
		if (!raw_next(&it, &s, &n))
			break;
		first = it.lineno;
		while (ri < nreg && reg[ri].last < first)
			ri++;
		in_reg = ri < nreg && reg[ri].first <= first;
		qp = in_reg && reg[ri].encoded;
		if (qp && reg[ri].b64) {
			ret = b64_region(&sp, &it, &w, &reg[ri], s, n);
			if (ret)
				return ret;
			continue;
		}
		if (!qp) {
			memmove(w, s, n);
			w += n;
		} else {
			struct lat_text_repairs *fx = &t->fix;

			if (!fx->qp_first)
				fx->qp_first = first, fx->qp_header_line = reg[ri].header_line;
			for (;;) {
				size_t k = n;
				int soft;

				while (k && is_ws(s[k - 1]))
					k--;
				soft = k && s[k - 1] == '=' && it.lineno < reg[ri].last;
				fx->qp_lines++;
				fx->qp_last = it.lineno;
				w += qp_decode(w, s, soft ? k - 1 : k);
				if (!soft)
					break;
				fx->qp_soft_breaks++;
				if (!raw_next(&it, &s, &n))
					break;
				joined++;
			}
		}
		ret = emit_pieces(&sp, ls, (size_t)(w - ls), first, joined);
		if (ret)
			return ret;
		if (in_reg && reg[ri].flowed && w > ls && w[-1] == ' ')
			flowed_soft(t, &reg[ri]);
		/* lines stay apart: a later join moves text only leftwards */
		if (w < t->buf + t->len)
			*w++ = '\n';
	}
	t->nraw = it.lineno;
	t->len = (size_t)(w - t->buf);
	t->buf[t->len] = '\0';
	return 0;
}

/* ---- ftrace latency headers a mailer wrapped ------------------------- */

/* Blanks a quoted trace is indented by. */
static size_t indent(const struct lat_line *l)
{
	size_t i = 0;

	while (i < l->len && (l->s[i] == ' ' || l->s[i] == '\t'))
		i++;
	return i;
}

static int starts_hash(const struct lat_line *l)
{
	size_t i = indent(l);

	return i < l->len && l->s[i] == '#';
}

/* "(M:desktop VP:0, KP:0, SP:0" or "(uid:0 nice:0": a parenthesis not closed */
static int paren_open(const struct lat_line *l)
{
	const char *o = memrchr(l->s, '(', l->len);

	return o && !memchr(o, ')', l->len - (size_t)(o - l->s));
}

/* "# tracer: irqsoff" or "# irqsoff latency trace v1.1.5 on ...": a header starts */
static int header_start(const struct lat_line *l)
{
	size_t i = indent(l);

	return starts_hash(l) && (memmem(l->s + i, l->len - i, "# tracer:", 9) == l->s + i ||
				  memmem(l->s, l->len, "latency trace v", 15));
}

/* The last legend line, "#     \   /   ||||||  \    |    /": the header ends. */
static int header_end(const struct lat_line *l)
{
	return starts_hash(l) && memmem(l->s, l->len, "\\   /", 5);
}

/* A piece a mailer wrapped off: short, and not a header line of its own. */
static int continuation(const struct lat_line *l, size_t max)
{
	size_t i = indent(l);

	if (!l->len || l->len > max || l->binary || lat_line_blank(l))
		return 0;
	return !(l->s[i] == '#' && (l->len == i + 1 || l->s[i + 1] == ' ' ||
				    l->s[i + 1] == '\t'));
}

#define HEADER_WRAP_LINES 3	/* pieces of one wrapped "# latency:" line */
#define HEADER_WRAP_LEN 40	/* longest piece wrapped off a header line */
#define HEADER_LINES 40		/* an ftrace latency header is about 20 lines */

/*
 * Joins the ftrace latency header lines a mailer wrapped:
 *  - "# latency: ... | (M:desktop VP:0, KP:0, SP:0" + "HP:0" + "#P:8)": a
 *    "# latency:" or "| task:" line whose parenthesis closes only on one of the
 *    next 3 short lines;
 *  - inside a header (from "# tracer:" or "latency trace v" to the legend), a
 *    short line without "#" between two "#" lines.
 */
static void rejoin_headers(struct lat_text *t)
{
	struct lat_text_repairs *fx = &t->fix;
	size_t wi = 0, r = 0, n = t->nlines;
	int in_header = 0;

	while (r < n) {
		struct lat_line cur = t->lines[r++];
		size_t k;

		if (header_start(&cur))
			in_header = HEADER_LINES;
		else if (in_header)
			in_header--;
		if (starts_hash(&cur) && header_item(cur.s + indent(&cur), cur.len - indent(&cur)) &&
		    paren_open(&cur)) {
			for (k = r; k < n && k - r < HEADER_WRAP_LINES &&
				    continuation(&t->lines[k], HEADER_WRAP_LEN); k++)
				if (memchr(t->lines[k].s, ')', t->lines[k].len))
					break;
			if (k < n && k - r < HEADER_WRAP_LINES &&
			    continuation(&t->lines[k], HEADER_WRAP_LEN)) {
				for (; r <= k; r++) {
					if (!tx_join(&cur, &t->lines[r], 1))
						break;
					if (!fx->rejoined++)
						fx->first_rejoined_line = t->lines[r].lineno;
				}
			}
		} else if (in_header && starts_hash(&cur) && r + 1 < n &&
			   !starts_hash(&t->lines[r]) &&
			   continuation(&t->lines[r], 2 * HEADER_WRAP_LEN) &&
			   starts_hash(&t->lines[r + 1]) && tx_join(&cur, &t->lines[r], 1)) {
			if (!fx->rejoined++)
				fx->first_rejoined_line = t->lines[r].lineno;
			r++;
		}
		if (header_end(&cur))
			in_header = 0;
		t->lines[wi++] = cur;
	}
	t->nlines = wi;
}

static int index_text(struct lat_text *t)
{
	struct qp_region *reg = NULL;
	size_t nreg = 0;
	int ret;

	ret = find_qp(t, &reg, &nreg);
	if (!ret)
		ret = split_lines(t, reg, nreg);
	free(reg);
	if (ret)
		return ret;
	tx_strip_line_numbers(t);
	tx_rejoin_flowed(t);
	rejoin_headers(t);
	return 0;	/* table rows: lat_text_rejoin_rows(), with the readers' shapes */
}

int lat_text_peek_encoded(const char *peek, size_t len)
{
	struct lat_text t = { .buf = (char *)peek, .len = len };
	struct qp_region *reg = NULL;
	size_t nreg = 0;
	int encoded = 0;

	if (find_qp(&t, &reg, &nreg) < 0)
		return 0;
	/* a format=flowed body too: its soft breaks are joined by the block path only */
	for (size_t i = 0; i < nreg; i++)
		encoded |= reg[i].encoded || reg[i].flowed;
	free(reg);
	return encoded;
}

int lat_text_init_mem(struct lat_text *t, const char *data, size_t len)
{
	memset(t, 0, sizeof(*t));
	t->buf = malloc(len + 1);
	if (!t->buf)
		return -LAT_ENOMEM;
	memcpy(t->buf, data, len);
	t->buf[len] = '\0';
	t->len = len;
	if (index_text(t)) {
		lat_text_release(t);
		return -LAT_ENOMEM;
	}
	return 0;
}

/* Counts what is left of @fp without keeping it. */
static uint64_t drain(FILE *fp)
{
	char scratch[1 << 14];
	uint64_t n = 0;
	size_t r;

	while ((r = fread(scratch, 1, sizeof(scratch), fp)) > 0)
		n += r;
	return n;
}

int lat_text_init_file(struct lat_text *t, FILE *fp)
{
	size_t cap = 1 << 16, len = 0, n;
	char *buf = malloc(cap + 1), *nb;
	uint64_t cut = 0;

	memset(t, 0, sizeof(*t));
	if (!buf)
		return -LAT_ENOMEM;
	while ((n = fread(buf + len, 1, cap - len, fp)) > 0) {
		len += n;
		if (len < cap)
			continue;
		if (cap >= LAT_TEXT_MAX_BYTES) {
			/* keep whole lines up to the cap; the partial last one is cut too */
			char *nl = memrchr(buf, '\n', len);
			size_t keep = nl ? (size_t)(nl - buf) + 1 : len;

			cut = len - keep + drain(fp);
			len = keep;
			break;
		}
		cap *= 2;
		nb = realloc(buf, cap + 1);
		if (!nb) {
			free(buf);
			return -LAT_ENOMEM;
		}
		buf = nb;
	}
	if (ferror(fp)) {
		free(buf);
		return -LAT_EIO;
	}
	buf[len] = '\0';
	t->buf = buf;
	t->len = len;
	if (cut) {
		t->cut = LAT_TEXT_CUT_BYTES;
		t->cut_bytes = cut;
	}
	if (index_text(t)) {
		lat_text_release(t);
		return -LAT_ENOMEM;
	}
	return 0;
}

void lat_text_release(struct lat_text *t)
{
	free(t->buf);
	free(t->lines);
	memset(t, 0, sizeof(*t));
}

size_t lat_fix_micro(char *s)
{
	static const char *const bad[] = {
		"\xc3\x83\xc2\xaf" "s",	/* "ï" double-encoded */
		"\xc3\xaf" "s",		/* ïs: latin-1 0xb5 read as... what the archives show */
		"\xc3\x82\xc2\xb5" "s",	/* Âµs double-encoded */
		"\xc3\x82\xb5" "s",
		"\xc2\xb5" "s",		/* µs (UTF-8) */
		"\xce\xbc" "s",		/* μs (Greek mu) */
		"\xef\xbf\xbd" "s",	/* replacement character */
		"\xb5" "s",		/* µs (latin-1) */
	};
	char *r = s, *w = s;

	/*
	 * One pass with a read and a write cursor: linear in the line, however
	 * many micro signs a hostile line holds.  At each byte the longer
	 * spellings are tried before their suffixes ("\xc2\xb5s" before "\xb5s").
	 */
	while (*r) {
		size_t b, bl = 0;

		if ((unsigned char)*r >= 0x80) {
			for (b = 0; b < LAT_ARRAY_SIZE(bad); b++) {
				bl = strlen(bad[b]);
				if (!strncmp(r, bad[b], bl))
					break;
			}
			if (b < LAT_ARRAY_SIZE(bad)) {
				*w++ = 'u';
				*w++ = 's';
				r += bl;
				continue;
			}
		}
		*w++ = *r++;
	}
	*w = '\0';
	return (size_t)(w - s);
}
