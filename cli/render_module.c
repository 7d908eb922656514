// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loading the render module (latscope-render.so, cairo and its libraries) when,
 * and only when, a chart is drawn: every other command starts without them.
 * Looked for in this order (docs/render.md):
 *   $LATSCOPE_RENDER_MODULE   a path, and only that path (tests, odd installs)
 *   next to the executable   the build tree, or an installed copy in bin/
 *   LATSCOPE_MODULE_DIR      the install libdir: <prefix>/lib/latscope
 */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "latscope/render.h"
#include "cli.h"

#ifndef LATSCOPE_MODULE_DIR
#define LATSCOPE_MODULE_DIR "/usr/local/lib/latscope"
#endif

/* The module's path next to /proc/self/exe into @buf; 0, or -1 when that is unknown. */
static int beside_exe(char *buf, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return -1;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	if (snprintf(buf, len, "%s/%s", exe, LAT_RENDER_MODULE_NAME) >= (int)len)
		return -1;
	return 0;
}

const struct lat_render_api *cli_render_api(void)
{
	const char *env = getenv("LATSCOPE_RENDER_MODULE");
	char path[PATH_MAX + sizeof(LAT_RENDER_MODULE_NAME) + 1];
	const struct lat_render_api *t;
	void *h;

	if (env && *env)
		snprintf(path, sizeof(path), "%s", env);
	else if (beside_exe(path, sizeof(path)) || access(path, F_OK))
		snprintf(path, sizeof(path), "%s/%s", LATSCOPE_MODULE_DIR,
			 LAT_RENDER_MODULE_NAME);
	/* RTLD_NOW: a module that cannot resolve a symbol fails here, not mid-chart */
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fprintf(stderr, "latscope: charts need %s: %s\n", path, dlerror());
		return NULL;
	}
	t = dlsym(h, LAT_RENDER_API_SYMBOL);
	if (!t) {
		fprintf(stderr, "latscope: charts need %s: %s\n", path, dlerror());
		goto fail;
	}
	if (!lat_render_api_compatible(t)) {
		fprintf(stderr, "latscope: charts need %s: built for latscope %s with other "
				"structures than this latscope %s\n", path,
			t->version ? t->version : "?", LATSCOPE_VERSION);
		goto fail;
	}
	/* never dlclose()d: cairo's caches live until exit, as when it was linked in */
	return t;
fail:
	dlclose(h);
	return NULL;
}

/* A chart the module drew, into a file (render, render of many inputs, report). */
int cli_write_file(const char *path, const struct lat_render_buf *b)
{
	FILE *f = fopen(path, "wb");
	int bad;

	if (!f)
		return -1;
	bad = fwrite(b->data, 1, b->len, f) != b->len;
	bad |= fclose(f) != 0;
	return bad ? -1 : 0;
}
