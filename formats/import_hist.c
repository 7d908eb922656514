// SPDX-License-Identifier: GPL-2.0-or-later
/* Histogram builders shared by the cyclictest, rtla and perf-sched readers. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "latscope/base.h"
#include "latscope/text.h"
#include "import_hist.h"

int imp_hist_build_init(struct imp_hist_build *hb, const char *title)
{
	memset(hb, 0, sizeof(*hb));
	hb->h = calloc(1, sizeof(*hb->h));
	if (!hb->h)
		return -LAT_ENOMEM;
	hb->h->printed_total = (uint64_t)-1;
	hb->h->printed = (struct lat_hist_printed){ LAT_VALUE_NONE, LAT_VALUE_NONE,
						    LAT_VALUE_NONE, LAT_VALUE_NONE };
	if (title && !(hb->h->title = strdup(title))) {
		imp_hist_build_drop(hb);
		return -LAT_ENOMEM;
	}
	return 0;
}

static void note_line(struct lat_histogram *h, uint32_t line)
{
	if (!line)
		return;
	if (!h->first_line || line < h->first_line)
		h->first_line = line;
	if (line > h->last_line)
		h->last_line = line;
}

int imp_hist_build_bucket(struct imp_hist_build *hb, int64_t lo_ns, int64_t hi_ns,
			  uint64_t count, uint32_t line)
{
	struct lat_histogram *h = hb->h;

	if (lat_grow(&h->b, &hb->cap, h->nbuckets + 1, sizeof(*h->b)))
		return -LAT_ENOMEM;
	h->b[h->nbuckets++] = (struct lat_bucket){ lo_ns, hi_ns, count };
	note_line(h, line);
	return 0;
}

int imp_hist_build_value(struct imp_hist_build *hb, int64_t ns, uint32_t line)
{
	if (lat_grow(&hb->v, &hb->vcap, hb->nv + 1, sizeof(*hb->v)))
		return -LAT_ENOMEM;
	hb->v[hb->nv++] = ns;
	note_line(hb->h, line);
	return 0;
}

static int cmp_bucket(const void *a, const void *b)
{
	const struct lat_bucket *x = a, *y = b;

	return (x->lo_ns > y->lo_ns) - (x->lo_ns < y->lo_ns);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* floor(ns / w) * w, also for negative samples */
static int64_t bucket_lo(int64_t ns, int64_t w)
{
	int64_t k = ns / w;

	if (ns % w && ns < 0)
		k--;
	return k * w;
}

static int values_to_buckets(struct imp_hist_build *hb, int64_t w)
{
	size_t i = 0;

	lat_sort(hb->v, hb->nv, sizeof(*hb->v), cmp_i64);
	while (i < hb->nv) {
		int64_t lo = bucket_lo(hb->v[i], w);
		uint64_t n = 0;
		size_t cap = hb->cap;

		while (i < hb->nv && bucket_lo(hb->v[i], w) == lo) {
			n++;
			i++;
		}
		if (lat_grow(&hb->h->b, &cap, hb->h->nbuckets + 1, sizeof(*hb->h->b)))
			return -LAT_ENOMEM;
		hb->cap = cap;
		hb->h->b[hb->h->nbuckets++] = (struct lat_bucket){ lo, lo + w, n };
	}
	return 0;
}

int imp_hist_build_finish(struct imp_hist_build *hb, int64_t width_ns, struct lat_block *b)
{
	struct lat_histogram *h = hb->h;
	int ret = 0;

	if (hb->nv && width_ns > 0)
		ret = values_to_buckets(hb, width_ns);
	if (ret) {
		imp_hist_build_drop(hb);
		return ret;
	}
	lat_sort(h->b, h->nbuckets, sizeof(*h->b), cmp_bucket);
	h->total = 0;
	for (size_t i = 0; i < h->nbuckets; i++)
		h->total += h->b[i].count;
	free(hb->v);
	memset(hb, 0, sizeof(*hb));
	return lat_block_add_hist(b, h);
}

void imp_hist_build_drop(struct imp_hist_build *hb)
{
	lat_histogram_free(hb->h);
	free(hb->v);
	memset(hb, 0, sizeof(*hb));
}

/* Skips a terminal control sequence "ESC [ params letter" at *s (rtla, cyclictest). */
static int skip_csi(const char **s, size_t *len)
{
	size_t i = 2;

	if (*len < 3 || (*s)[0] != '\033' || (*s)[1] != '[')
		return 0;
	while (i < *len && (((*s)[i] >= '0' && (*s)[i] <= '9') || (*s)[i] == ';'))
		i++;
	if (i >= *len)
		return 0;
	if (!(((*s)[i] >= 'A' && (*s)[i] <= 'Z') || ((*s)[i] >= 'a' && (*s)[i] <= 'z')))
		return 0;
	*s += i + 1;
	*len -= i + 1;
	return 1;
}

void imp_trim(const char **s, size_t *len)
{
	for (;;) {
		if (*len && (**s == ' ' || **s == '\t')) {
			(*s)++;
			(*len)--;
		} else if (!skip_csi(s, len)) {
			break;
		}
	}
	while (*len && ((*s)[*len - 1] == ' ' || (*s)[*len - 1] == '\t'))
		(*len)--;
}

int imp_starts(const char *s, size_t len, const char *lit)
{
	size_t n = strlen(lit);

	imp_trim(&s, &len);
	return len >= n && !memcmp(s, lit, n);
}

int imp_is_elision(const char *s, size_t len)
{
	static const char *const marks[] = { "...", "[...]", "<snip>", "[snip]" };

	imp_trim(&s, &len);
	for (size_t i = 0; i < LAT_ARRAY_SIZE(marks); i++)
		if (len == strlen(marks[i]) && !strncasecmp(s, marks[i], len))
			return 1;
	return 0;
}

int imp_copy(const char *s, size_t len, char *buf, size_t cap)
{
	if (len >= cap)
		return 0;
	memcpy(buf, s, len);
	buf[len] = '\0';
	lat_fix_micro(buf);
	return 1;
}

/*
 * A run's label, read, not claimed (it stays outside the block): the nearest
 * non-blank line within 3 lines above line @first that @skip (may be NULL)
 * does not pass over, when it is one: at most 48 characters, starting with a
 * version ("2.6.33-rt4:", "6.10.14-stable +xx": a digit, or "v" and a digit,
 * and a '.' in the first word), starting with '+' and a letter (a change on
 * top of the run above: "+tweak", "+NO_DELAY_DEQUEUE", as kernel developers
 * label a series of runs) or ending in ':' ("latency went to this:", but no
 * sentence's end: "results. For instance:" is prose); or,
 * when @loose (may be NULL) is given, naming it ("last good commit --> perf
 * sched latency -s max" for "perf sched").  A trailing ':' is dropped.  NULL
 * if none (caller frees).
 */
static char *run_label(const struct lat_text *t, size_t first, int (*skip)(const char *, size_t),
		       const char *loose)
{
	for (size_t i = first, k = 0; i > 0 && k < 3; k++) {
		const struct lat_line *l = &t->lines[--i];
		const char *s = l->s, *body;
		size_t n = l->len, w = 0;
		int lead, command;

		if (!lat_line_blank(l) && !l->binary && skip && skip(l->s, l->len)) {
			k--;	/* the table's own lines above it do not count */
			continue;
		}
		if (lat_line_blank(l))
			continue;
		if (l->binary)
			return NULL;
		imp_trim(&s, &n);
		while (w < n && s[w] != ' ' && s[w] != '\t')
			w++;
		lead = (w >= 3 && (isdigit((unsigned char)s[0]) ||
			   (s[0] == 'v' && isdigit((unsigned char)s[1]))) && memchr(s, '.', w)) ||
			  (s[0] == '+' && n > 1 && isalpha((unsigned char)s[1]));
		command = loose && n <= 48 && memmem(s, n, loose, strlen(loose));
		/* a numbered label ("2. PREEMPT_RT kernel with default configuration:") */
		body = s;
		while (body < s + n && isdigit((unsigned char)*body))
			body++;
		body = body > s && body + 1 < s + n && body[0] == '.' && body[1] == ' ' ? body + 2 : s;
		/* the tail of a sentence ("results. For instance:") is prose, no label */
		if (n < 2 || (!command && (n > 48 || (!lead && s[n - 1] != ':'))) ||
		    (!lead && memmem(body, n - (size_t)(body - s), ". ", 2)))
			return NULL;
		if (s[n - 1] == ':')
			n--;
		return strndup(s, n);
	}
	return NULL;
}

int imp_label_title(const struct lat_text *t, size_t first,
			int (*skip)(const char *, size_t), const char *loose, struct lat_block *b)
{
	char *label = run_label(t, first, skip, loose), *title;

	if (!label)
		return 0;
	if (asprintf(&title, "%s: %s", label, b->title) < 0) {
		free(label);
		return -LAT_ENOMEM;
	}
	free(label);
	free(b->title);
	b->title = title;
	return 0;
}
