// SPDX-License-Identifier: GPL-2.0-or-later
/* One line of text: quoting stripped, copied, tested for blanks, joined with the next. */
#include <string.h>

#include "text_priv.h"

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

int tx_join(struct lat_line *d, const struct lat_line *c, int blank)
{
	char *e = (char *)d->s + d->len;
	uint32_t sep = blank ? 1 : 0;

	if (e >= c->s || (uint64_t)d->len + sep + c->len > UINT32_MAX)
		return 0;
	if (sep)
		*e = ' ';
	memmove(e + sep, c->s, c->len);
	d->len += sep + c->len;
	d->joined = (uint16_t)(d->joined + 1u + c->joined > UINT16_MAX ? UINT16_MAX :
			       d->joined + 1u + c->joined);
	return 1;
}
