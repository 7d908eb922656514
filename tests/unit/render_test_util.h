/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers shared by the render tests: pixel probes, colour checks, file dumps. */
#ifndef RENDER_TEST_UTIL_H
#define RENDER_TEST_UTIL_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "render_priv.h"

/* The RGB of pixel (x, y) of an RGB24 image, components 0..1. */
static inline struct rd_rgb px(cairo_surface_t *s, double x, double y)
{
	int ix = (int)floor(x), iy = (int)floor(y);
	unsigned char *d = cairo_image_surface_get_data(s);
	int stride = cairo_image_surface_get_stride(s);
	uint32_t v;

	if (ix < 0 || iy < 0 || ix >= cairo_image_surface_get_width(s) ||
	    iy >= cairo_image_surface_get_height(s))
		return (struct rd_rgb){ -1, -1, -1 };
	v = *(uint32_t *)(d + (size_t)iy * (size_t)stride + (size_t)ix * 4);
	return (struct rd_rgb){ ((v >> 16) & 0xff) / 255.0, ((v >> 8) & 0xff) / 255.0,
				 (v & 0xff) / 255.0 };
}

/* Largest component difference between two colours. */
static inline double rgb_dist(struct rd_rgb a, struct rd_rgb b)
{
	return fmax(fabs(a.r - b.r), fmax(fabs(a.g - b.g), fabs(a.b - b.b)));
}

static inline int is_alert_red(struct rd_rgb c)
{
	return c.r > 0.6 && c.g < 0.45 && c.b < 0.45;
}

/* Whether two boxes share an area (touching edges do not). */
static inline int rects_overlap(const struct rd_rect *a, const struct rd_rect *b)
{
	return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h && b->y < a->y + a->h;
}

/* Whether @in lies within @out (half a pixel of slack for rounding). */
static inline int rect_inside(const struct rd_rect *in, const struct rd_rect *out)
{
	return in->x >= out->x - 0.5 && in->x + in->w <= out->x + out->w + 0.5 &&
	       in->y >= out->y - 0.5 && in->y + in->h <= out->y + out->h + 0.5;
}

/* Whether the chart's legend has an entry of exactly @text. */
static inline int legend_has(const struct rd_chart *c, const char *text)
{
	for (int i = 0; i < c->nlegend; i++)
		if (!strcmp(c->legend[i].text, text))
			return 1;
	return 0;
}

/* LAT_RENDER_DUMP=dir writes @name there, to look at what a test drew. */
static inline void dump_png(cairo_surface_t *s, const char *name)
{
	const char *dir = getenv("LAT_RENDER_DUMP");
	char path[512];

	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/fixture-%s", dir, name);
	cairo_surface_write_to_png(s, path);
}

/* Writes @b to a temporary file and runs xmllint --noout on it; returns its exit status. */
static inline int xmllint_ok(const struct lat_render_buf *b)
{
	char path[] = "/tmp/latscope-render-XXXXXX";
	char cmd[128];
	int fd = mkstemp(path), ret;

	if (fd < 0)
		return -1;
	if (write(fd, b->data, b->len) != (ssize_t)b->len) {
		close(fd);
		unlink(path);
		return -1;
	}
	close(fd);
	snprintf(cmd, sizeof(cmd), "xmllint --noout %s", path);
	ret = system(cmd);
	unlink(path);
	return ret;
}

#endif
