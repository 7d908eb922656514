// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Deterministic SVG ids.  cairo names the elements of an SVG document with
 * counters, some of them process-wide (cairo 1.16: "surfaceN" of the surface,
 * "imageN" of each source image; "glyphF-G", "clipN", "patternN" count per
 * document), so the same chart drawn twice in one process (`latscope report`
 * draws all of its charts in one) would differ from `latscope render`'s.
 * Every id is renamed to its prefix (what comes before its first digit) and a
 * number counting from 1 per prefix in the order of first appearance, and every
 * reference to it with it: the same drawing gives the same bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_priv.h"

#define NAME_MAX_LEN 40		/* longer names are left alone (cairo's are < 32 bytes) */
#define ID_MAX 64		/* a name, or its prefix and a number */

struct id_map {
	struct id_ent {
		char old[ID_MAX], new[ID_MAX];
	} *e;			/* open addressing, cap a power of two */
	size_t n, cap;
	struct id_prefix {
		char s[ID_MAX];
		unsigned long count;
	} *pre;
	size_t npre, pcap;
};

static uint64_t hash(const char *s, size_t len)
{
	uint64_t h = 14695981039346656037ull;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

static int map_grow(struct id_map *m)
{
	size_t cap = m->cap ? m->cap * 2 : 256;
	struct id_ent *e = calloc(cap, sizeof(*e));

	if (!e)
		return -LAT_ENOMEM;
	for (size_t i = 0; i < m->cap; i++) {
		size_t k;

		if (!m->e[i].old[0])
			continue;
		k = hash(m->e[i].old, strlen(m->e[i].old)) & (cap - 1);
		while (e[k].old[0])
			k = (k + 1) & (cap - 1);
		e[k] = m->e[i];
	}
	free(m->e);
	m->e = e;
	m->cap = cap;
	return 0;
}

/* The next number of the prefix of @name (its first @plen bytes): 1, 2, ...; 0 no memory. */
static unsigned long next_of(struct id_map *m, const char *name, size_t plen)
{
	for (size_t i = 0; i < m->npre; i++)
		if (strlen(m->pre[i].s) == plen && !memcmp(m->pre[i].s, name, plen))
			return ++m->pre[i].count;
	if (lat_grow(&m->pre, &m->pcap, m->npre + 1, sizeof(*m->pre)))
		return 0;
	memcpy(m->pre[m->npre].s, name, plen);
	m->pre[m->npre].s[plen] = 0;
	m->pre[m->npre].count = 1;
	return m->pre[m->npre++].count;
}

/* The new name of @name (@len < ID_MAX bytes), given at its first sight; NULL no memory. */
static const char *rename_id(struct id_map *m, const char *name, size_t len)
{
	size_t k, plen = 0;
	unsigned long num;

	if ((m->n + 1) * 2 > m->cap && map_grow(m))
		return NULL;
	k = hash(name, len) & (m->cap - 1);
	for (; m->e[k].old[0]; k = (k + 1) & (m->cap - 1))
		if (strlen(m->e[k].old) == len && !memcmp(m->e[k].old, name, len))
			return m->e[k].new;
	while (plen < len && (name[plen] < '0' || name[plen] > '9'))
		plen++;
	if (!(num = next_of(m, name, plen)))
		return NULL;
	memcpy(m->e[k].old, name, len);
	m->e[k].old[len] = 0;
	memcpy(m->e[k].new, name, plen);
	snprintf(m->e[k].new + plen, ID_MAX - plen, "%lu", num);
	m->n++;
	return m->e[k].new;
}

static int name_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '-' || c == '_';
}

/*
 * The length of the name at @p (id="X" and href="#X" end at '"', url(#X) at
 * ')'), 0 when there is none to rename (empty, too long, other characters).
 */
static size_t name_len(const unsigned char *p, size_t avail, unsigned char end)
{
	size_t n = 0;

	while (n < avail && n <= NAME_MAX_LEN && name_char(p[n]))
		n++;
	return n <= NAME_MAX_LEN && n < avail && p[n] == end ? n : 0;
}

static int put(struct lat_render_buf *o, const void *s, size_t len)
{
	if (!len)
		return 0;
	if (lat_grow(&o->data, &o->cap, o->len + len, 1))
		return -LAT_ENOMEM;
	memcpy(o->data + o->len, s, len);
	o->len += len;
	return 0;
}

int rd_svg_renumber_ids(struct lat_render_buf *b)
{
	static const struct { const char *s; unsigned char end; } keys[] = {
		{ "id=\"", '"' }, { "href=\"#", '"' }, { "url(#", ')' },
	};
	struct lat_render_buf o = { .data = NULL };
	struct id_map m = { .e = NULL };
	size_t i = 0, from = 0;
	int ret = 0;

	if (!b->len)
		return 0;
	while (i < b->len && !ret) {
		size_t k, klen = 0, n = 0;
		const char *nw;

		if (b->data[i] != 'i' && b->data[i] != 'h' && b->data[i] != 'u') {
			i++;
			continue;
		}
		for (k = 0; k < LAT_ARRAY_SIZE(keys); k++) {
			klen = strlen(keys[k].s);
			if (i + klen <= b->len && !memcmp(b->data + i, keys[k].s, klen))
				break;
		}
		if (k == LAT_ARRAY_SIZE(keys) ||
		    !(n = name_len(b->data + i + klen, b->len - i - klen, keys[k].end))) {
			i++;
			continue;
		}
		nw = rename_id(&m, (const char *)b->data + i + klen, n);
		if (!nw) {
			ret = -LAT_ENOMEM;
			break;
		}
		ret = put(&o, b->data + from, i + klen - from);
		if (!ret)
			ret = put(&o, nw, strlen(nw));
		i += klen + n;
		from = i;
	}
	if (!ret)
		ret = put(&o, b->data + from, b->len - from);
	free(m.e);
	free(m.pre);
	if (ret) {
		free(o.data);
		return ret;
	}
	free(b->data);
	b->data = o.data;
	b->len = o.len;
	b->cap = o.cap;
	return 0;
}
