// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdlib.h>
#include <string.h>

#include "latscope/text.h"

unsigned lat_line_dequote(const char **sp, size_t *lenp)
{
	const char *s = *sp;
	size_t len = *lenp;
	unsigned depth = 0;

	while (len && (s[len - 1] == '\r' || s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	/* "> ", ">> ", "> > ", ">" */
	while (len && s[0] == '>') {
		depth++;
		s++;
		len--;
		if (len && s[0] == ' ' && (len < 2 || s[1] == '>' || depth))
			s++, len--;
	}
	*sp = s;
	*lenp = len;
	return depth;
}

static int split_lines(struct lat_text *t)
{
	size_t cap = 0, pos = 0;
	uint32_t lineno = 0;

	while (pos < t->len) {
		const char *s = t->buf + pos;
		const char *nl = memchr(s, '\n', t->len - pos);
		size_t raw = nl ? (size_t)(nl - s) : t->len - pos;
		size_t len = raw;
		struct lat_line *l;

		if (t->nlines >= LAT_TEXT_MAX_LINES) {
			/* the index would outgrow the text: keep what is indexed, count the rest */
			t->cut = LAT_TEXT_CUT_LINES;
			t->cut_bytes += t->len - pos;
			t->len = pos;
			break;
		}
		if (lat_grow(&t->lines, &cap, t->nlines + 1, sizeof(*t->lines)))
			return -LAT_ENOMEM;
		l = &t->lines[t->nlines++];
		l->lineno = ++lineno;
		l->quote = (uint8_t)lat_line_dequote(&s, &len);
		l->s = s;
		l->len = len > UINT32_MAX ? UINT32_MAX : (uint32_t)len;
		l->binary = memchr(s, '\0', len) != NULL;
		t->nbinary += l->binary;
		pos += raw + 1;
	}
	return 0;
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
	if (split_lines(t)) {
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
	if (split_lines(t)) {
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

size_t lat_line_copy(const struct lat_line *l, char *buf, size_t size)
{
	size_t n = l->len < size - 1 ? l->len : size - 1;

	memcpy(buf, l->s, n);
	buf[n] = '\0';
	return n;
}

int lat_line_blank(const struct lat_line *l)
{
	for (uint32_t i = 0; i < l->len; i++)
		if (l->s[i] != ' ' && l->s[i] != '\t')
			return 0;
	return 1;
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
