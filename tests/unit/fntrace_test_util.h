/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the fntrace unit tests: load text through the real pipeline. */
#ifndef FNTRACE_TEST_UTIL_H
#define FNTRACE_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "latscope/analyze.h"
#include "latscope/input.h"
#include "latscope/fntrace.h"

/* Loads @text (written to a temporary file) or @path; analyzes every block with @o. */
static inline struct lat_loaded *fnt_load(const char *path, const char *text,
					  const struct lat_analyze_opts *o, size_t *warnings)
{
	struct lat_loaded *l = calloc(1, sizeof(*l));
	char tmp[] = "/tmp/latscope-fnt-XXXXXX";
	struct lat_analyze_opts def;
	FILE *null = fopen("/dev/null", "w");
	int ret;

	assert_non_null(l);
	if (text) {
		int fd = mkstemp(tmp);

		assert_true(fd >= 0);
		assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
		close(fd);
		path = tmp;
	}
	ret = lat_load(l, path, &(struct lat_read_opts){ .diag = null });
	if (text)
		unlink(tmp);
	assert_int_equal(ret, 0);
	if (warnings)
		*warnings = l->diag.nwarn;
	if (!o) {
		lat_analyze_opts_init(&def);
		o = &def;
	}
	for (size_t i = 0; i < l->nblocks; i++)
		assert_int_equal(lat_analyze_block(l->blocks[i], o), 0);
	fclose(null);
	return l;
}

static inline void fnt_free(struct lat_loaded *l)
{
	lat_loaded_release(l);
	free(l);
}

/* The only block of @l, which must be a function trace read by @fmt. */
static inline const struct lat_fntrace *fnt_only(const struct lat_loaded *l, const char *fmt)
{
	assert_int_equal(l->nblocks, 1);
	assert_string_equal(l->blocks[0]->fmt->name, fmt);
	assert_int_equal(l->blocks[0]->schema, LAT_SCHEMA_FNTRACE);
	assert_non_null(l->blocks[0]->fntrace);
	return l->blocks[0]->fntrace;
}

#endif
