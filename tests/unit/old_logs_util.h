/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helpers shared by the old-log reader tests (test_lat, test_lat2,
 * test_schedcnt, test_histogram): load a sample or an in-memory text through
 * the real lat_load() (probe, segmenter, reader) and analyze every block.
 * Include after <cmocka.h>.
 */
#ifndef LATSCOPE_TEST_OLD_LOGS_UTIL_H
#define LATSCOPE_TEST_OLD_LOGS_UTIL_H

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "latscope/analyze.h"
#include "latscope/input.h"

/* Loads @path with the given options and analyzes every block; diagnostics are dropped. */
static inline struct lat_loaded *old_logs_load(const char *path, const struct lat_analyze_opts *o)
{
	struct lat_loaded *l = calloc(1, sizeof(*l));
	struct lat_analyze_opts def;

	assert_non_null(l);
	if (!o) {
		lat_analyze_opts_init(&def);
		o = &def;
	}
	assert_int_equal(lat_load(l, path, NULL), 0);
	for (size_t i = 0; i < l->nblocks; i++)
		assert_int_equal(lat_analyze_block(l->blocks[i], o), 0);
	return l;
}

/* Same for text held in memory (written to a temporary file first). */
static inline struct lat_loaded *old_logs_load_text(const char *text,
						    const struct lat_analyze_opts *o)
{
	char path[] = "/tmp/latscope-unit-XXXXXX";
	int fd = mkstemp(path);
	size_t len = strlen(text);
	struct lat_loaded *l;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	close(fd);
	l = old_logs_load(path, o);
	unlink(path);
	return l;
}

static inline void old_logs_free(struct lat_loaded *l)
{
	lat_loaded_release(l);
	free(l);
}

/* The first finding of @kind in @b, or NULL. */
static inline const struct lat_finding *old_logs_finding(const struct lat_block *b,
							 const char *kind)
{
	for (size_t i = 0; i < b->nfindings; i++)
		if (!strcmp(b->findings[i].kind, kind))
			return &b->findings[i];
	return NULL;
}

#endif
