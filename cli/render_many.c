// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `latscope render A B ...`: the histograms of several inputs (cyclictest runs,
 * rtla, perf sched timehist, delivery-time tables) overlaid in one chart, each
 * named "FILE#BLOCK TITLE".  Histograms without samples (a tool's summary
 * only) have nothing to draw and are left out.
 */
#include <stdlib.h>
#include <string.h>

#include "latscope/analyze.h"
#include "latscope/input.h"
#include "latscope/render.h"
#include "cli.h"

/* Shallow copies of the histograms, titled with their file and block; buckets lent. */
struct many {
	struct lat_histogram **h;
	size_t n, cap;
};

static int add_copy(struct many *m, const struct lat_histogram *src, const char *path,
		    size_t block)
{
	struct lat_histogram *h;
	char *title;

	if (lat_grow(&m->h, &m->cap, m->n + 1, sizeof(*m->h)))
		return -LAT_ENOMEM;
	h = malloc(sizeof(*h));
	if (!h)
		return -LAT_ENOMEM;
	if (asprintf(&title, "%s#%zu %s", path, block + 1, src->title ? src->title : "?") < 0) {
		free(h);
		return -LAT_ENOMEM;
	}
	*h = *src;
	h->title = title;
	m->h[m->n++] = h;
	return 0;
}

static void many_release(struct many *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free(m->h[i]->title);
		free(m->h[i]);
	}
	free(m->h);
}

int cli_render_many(char **inputs, int n, const char *out, const struct lat_read_opts *read,
		    struct lat_render_opts *ro, const struct lat_analyze_opts *ao,
		    const struct lat_render_api *api)
{
	struct lat_loaded *l = calloc((size_t)n, sizeof(*l));
	struct lat_render_buf buf = { 0 };
	struct many m = { 0 };
	int ret = LAT_EXIT_OK, loaded = 0;

	if (!l) {
		fprintf(stderr, "latscope render: out of memory\n");
		return LAT_EXIT_FAIL;
	}
	for (int i = 0; i < n && ret == LAT_EXIT_OK; i++) {
		if (lat_load(&l[i], inputs[i], read) < 0) {
			fprintf(stderr, "%s: error: %s\n", inputs[i], l[i].error);
			ret = LAT_EXIT_USAGE;
			break;
		}
		loaded = i + 1;
		for (size_t k = 0; k < l[i].nblocks; k++) {
			struct lat_block *b = l[i].blocks[k];

			if (b->schema != LAT_SCHEMA_HISTOGRAM)
				continue;
			lat_analyze_block(b, ao);
			for (size_t h = 0; h < b->nhist; h++)
				if (b->hist[h]->total && add_copy(&m, b->hist[h], inputs[i], k)) {
					fprintf(stderr, "latscope render: out of memory\n");
					ret = LAT_EXIT_FAIL;
				}
		}
	}
	if (ret == LAT_EXIT_OK && !m.n) {
		fprintf(stderr, "latscope render: no histogram with samples in these inputs "
				"(several inputs are drawn as one histogram chart)\n");
		ret = LAT_EXIT_FAIL;
	}
	if (ret == LAT_EXIT_OK) {
		ro->source = NULL;
		ro->block_no = 0;
		if (api->render_histogram(m.h, m.n, "histograms of several inputs", ro, &buf) < 0) {
			fprintf(stderr, "latscope render: no chart: %s\n", buf.msg);
			ret = LAT_EXIT_FAIL;
		} else if (cli_write_file(out, &buf)) {
			fprintf(stderr, "latscope render: cannot write %s\n", out);
			ret = LAT_EXIT_FAIL;
		} else {
			printf("%s: histogram chart of %zu histograms from %d inputs (%zu bytes)\n",
			       out, m.n, n, buf.len);
		}
	}
	lat_render_buf_release(&buf);
	many_release(&m);
	for (int i = 0; i < loaded; i++)
		lat_loaded_release(&l[i]);
	free(l);
	return ret;
}
