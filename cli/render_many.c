// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `latscope render A B ...`: the histograms of several inputs (cyclictest runs,
 * rtla, perf sched timehist, delivery-time tables, the wakeup waits of event
 * traces) overlaid in one chart, each named "FILE#BLOCK TITLE".  Histograms
 * without samples (a tool's summary only) have nothing to draw and are left
 * out.
 */
#include <stdlib.h>
#include <string.h>

#include "latscope/an_wakeup.h"
#include "latscope/analyze.h"
#include "latscope/input.h"
#include "latscope/render.h"
#include "cli.h"

static const char *path_base(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/* The inputs' file names without their directories, when that tells them apart. */
static int short_names(char **inputs, int n)
{
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			if (!strcmp(path_base(inputs[i]), path_base(inputs[j])))
				return 0;
	return 1;
}

/* How many curves block @b gives: its histograms with samples, a trace's waits. */
static size_t drawn_hists(const struct lat_block *b)
{
	const struct lat_wakeup_result *r = b->analysis;
	size_t n = 0;

	if (b->schema == LAT_SCHEMA_EVENTS)
		return r && r->nhist_cpus ? 1 : 0;
	for (size_t h = 0; h < b->nhist; h++)
		n += b->hist[h]->total && b->hist[h]->nbuckets;
	return n;
}

int cli_render_many(char **inputs, int n, const char *out, const struct lat_read_opts *read,
		    struct lat_render_opts *ro, const struct lat_analyze_opts *ao,
		    const struct lat_render_api *api)
{
	struct lat_loaded *l = calloc((size_t)n, sizeof(*l));
	struct lat_render_buf buf = { 0 };
	const struct lat_block **blocks = NULL;
	char **names = NULL;
	size_t nb = 0, bcap = 0, ncap = 0, nh = 0;
	int ret = CLI_EXIT_OK, loaded = 0, shrt = short_names(inputs, n);

	if (!l) {
		fprintf(stderr, "latscope render: out of memory\n");
		return CLI_EXIT_FAIL;
	}
	for (int i = 0; i < n && ret == CLI_EXIT_OK; i++) {
		if (lat_load(&l[i], inputs[i], read) < 0) {
			fprintf(stderr, "%s: error: %s\n", inputs[i], l[i].error);
			ret = CLI_EXIT_USAGE;
			break;
		}
		loaded = i + 1;
		for (size_t k = 0; k < l[i].nblocks && ret == CLI_EXIT_OK; k++) {
			struct lat_block *b = l[i].blocks[k];

			if (b->schema != LAT_SCHEMA_HISTOGRAM && b->schema != LAT_SCHEMA_EVENTS)
				continue;
			lat_analyze_block(b, ao);
			if (lat_grow(&blocks, &bcap, nb + 1, sizeof(*blocks)) ||
			    lat_grow(&names, &ncap, nb + 1, sizeof(*names)) ||
			    asprintf(&names[nb], "%s#%zu", shrt ? path_base(inputs[i]) :
				     inputs[i], k + 1) < 0) {
				fprintf(stderr, "latscope render: out of memory\n");
				ret = CLI_EXIT_FAIL;
				break;
			}
			blocks[nb++] = b;
			nh += drawn_hists(b);
		}
	}
	if (ret == CLI_EXIT_OK) {
		ro->source = NULL;
		ro->block_no = 0;
		if (api->render_compare(blocks, (const char *const *)names, nb, ro, &buf) < 0) {
			fprintf(stderr, "latscope render: no chart: %s (several inputs are drawn "
				"as one histogram chart)\n", buf.msg);
			ret = CLI_EXIT_FAIL;
		} else if (cli_write_file(out, &buf)) {
			fprintf(stderr, "latscope render: cannot write %s\n", out);
			ret = CLI_EXIT_FAIL;
		} else {
			printf("%s: histogram chart of %zu histograms from %d inputs (%zu bytes)\n",
			       out, nh, n, buf.len);
		}
	}
	lat_render_buf_release(&buf);
	for (size_t i = 0; i < nb; i++)
		free(names[i]);
	free(names);
	free(blocks);
	for (int i = 0; i < loaded; i++)
		lat_loaded_release(&l[i]);
	free(l);
	return ret;
}
