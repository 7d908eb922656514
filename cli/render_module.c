// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loading the render module (latscope-render.so, cairo and its libraries) when,
 * and only when, a chart is drawn: every other command starts without them.
 * Looked for in this order (docs/render.md):
 *   $LATSCOPE_RENDER_MODULE       a path, and only that path (tests, odd installs)
 *   next to the executable       the build tree, or a copy of both in one directory
 *   LATSCOPE_MODULE_RELDIR        relative to the executable's directory: the install
 *                                 tree wherever it is (bin/../lib/latscope, $ORIGIN-like)
 *   LATSCOPE_MODULE_DIR           the install libdir configured: <prefix>/lib/latscope
 * The executable is /proc/self/exe with its symbolic links resolved, so a link to
 * it (/usr/local/bin/latscope -> /opt/latscope/bin/latscope) finds its own tree.
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
#ifndef LATSCOPE_MODULE_RELDIR
#define LATSCOPE_MODULE_RELDIR "../lib/latscope"
#endif

/* The directory of /proc/self/exe into @buf; 0, or -1 when that is unknown. */
static int exe_dir(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	char *slash;

	if (n <= 0 || (size_t)n >= len - 1)
		return -1;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	return 0;
}

/*
 * Where the module is: the first of the places above that has the file, else
 * the last one tried (for the message), into @path.
 */
static void module_path(char *path, size_t len)
{
	const char *env = getenv("LATSCOPE_RENDER_MODULE");
	char dir[PATH_MAX];

	if (env && *env) {
		snprintf(path, len, "%s", env);
		return;
	}
	if (!exe_dir(dir, sizeof(dir))) {
		if (snprintf(path, len, "%s/%s", dir, LAT_RENDER_MODULE_NAME) < (int)len &&
		    !access(path, F_OK))
			return;
		if (snprintf(path, len, "%s/%s/%s", dir, LATSCOPE_MODULE_RELDIR,
			     LAT_RENDER_MODULE_NAME) < (int)len && !access(path, F_OK))
			return;
	}
	snprintf(path, len, "%s/%s", LATSCOPE_MODULE_DIR, LAT_RENDER_MODULE_NAME);
}

const struct lat_render_api *cli_render_api(void)
{
	char path[2 * PATH_MAX];
	const struct lat_render_api *t;
	void *h;

	module_path(path, sizeof(path));
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
