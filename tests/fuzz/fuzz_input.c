// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz harness over the whole reading path: probe, segment, parse, analyze
 * and both reports, from memory.  Built once per reader with
 * -DFUZZ_FORMAT="name" (that reader forced, as --format does) and once with
 * FUZZ_FORMAT unset (detection decides).  Under clang with -fsanitize=fuzzer
 * libFuzzer drives it; otherwise main() below replays files and directories
 * given on the command line (the seed corpus and the kept crashers) as a test.
 * Built with -DFUZZ_MERGE, it fuzzes `latscope merge` instead: the JSON reader
 * and the summaries read back (docs/merge.md).
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "latscope/analyze.h"
#include "latscope/input.h"
#include "latscope/report.h"
#include "latscope/summary.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#ifdef FUZZ_MERGE
/* The JSON reader, every summary of the document merged and written back. */
static void fuzz_merge(const uint8_t *data, size_t size)
{
	struct lat_summary s;
	struct lat_jv root;
	const struct lat_jv *inputs;
	char err[256];
	FILE *devnull;

	if (lat_json_parse((const char *)data, size, &root, err, sizeof(err)))
		return;
	lat_summary_init(&s);
	if (lat_jv_get(&root, "summary"))
		lat_summary_add_json(&s, lat_jv_get(&root, "summary"), err, sizeof(err));
	inputs = lat_jv_get(&root, "inputs");
	for (size_t i = 0; inputs && inputs->type == LAT_JV_ARR && i < inputs->n; i++)
		if (lat_jv_get(&inputs->items[i], "summary"))
			lat_summary_add_json(&s, lat_jv_get(&inputs->items[i], "summary"), err,
					     sizeof(err));
	devnull = fopen("/dev/null", "w");
	if (devnull) {
		struct lat_json j;

		lat_json_init(&j, devnull, 1);
		lat_summary_json(&j, NULL, &s);
		fclose(devnull);
	}
	lat_summary_release(&s);
	lat_jv_free(&root);
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct lat_format *forced = NULL;
	struct lat_analyze_opts o;
	struct lat_report_input rep;
	struct lat_loaded l;
	FILE *fp, *devnull;
	int fd;

#ifdef FUZZ_MERGE
	fuzz_merge(data, size);
	return 0;
#endif
#ifdef FUZZ_FORMAT
	forced = lat_format_find(FUZZ_FORMAT);
	if (!forced)
		abort();	/* the harness names a reader that is not registered */
#endif
	/* a memfd, not fmemopen: stream readers may use the descriptor */
	fd = memfd_create("fuzz", 0);
	if (fd < 0)
		return 0;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	lseek(fd, 0, SEEK_SET);
	fp = fdopen(fd, "rb");
	if (!fp) {
		close(fd);
		return 0;
	}
	devnull = fopen("/dev/null", "w");
	lat_analyze_opts_init(&o);
	o.timelines = o.worst_n;	/* the timeline code is fuzzed too */
	o.activity = 1;		/* and the CPU activity of the lanes chart */
	memset(&rep, 0, sizeof(rep));
	rep.path = "fuzz";
	if (lat_load_fp(&l, "fuzz", fp, &(struct lat_read_opts){ .format = forced }) == 0) {
		for (size_t i = 0; i < l.nblocks; i++)
			lat_analyze_block(l.blocks[i], &o);
		rep.format = l.format;
		rep.blocks = l.blocks;
		rep.nblocks = l.nblocks;
		if (devnull) {
			lat_report_json(devnull, &rep, 1, &o);
			lat_report_text(devnull, &rep, 1, &o);
		}
	}
	lat_loaded_release(&l);
	if (devnull)
		fclose(devnull);
	return 0;
}

#ifndef LATSCOPE_LIBFUZZER
static int replay_file(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long len;

	if (!f)
		return -1;
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return -1;
	}
	buf = malloc((size_t)len + 1);
	if (!buf || fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)len);
	(*n)++;
	/* and a few deterministic mutations: truncations and flipped bytes */
	if (len > 0 && len < (1 << 20)) {
		uint32_t x = 2463534242u;

		for (int k = 1; k <= 3; k++) {
			LLVMFuzzerTestOneInput(buf, (size_t)len * (size_t)k / 4);
			(*n)++;
		}
		for (int k = 0; k < 4; k++) {
			long at;

			x ^= x << 13;
			x ^= x >> 17;
			x ^= x << 5;
			at = (long)(x % (uint32_t)len);
			buf[at] ^= (uint8_t)(x >> 8 | 1);
			LLVMFuzzerTestOneInput(buf, (size_t)len);
			(*n)++;
		}
	}
	free(buf);
	return 0;
}

static int replay(const char *path, size_t *n)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	int ret = 0;

	if (stat(path, &st))
		return -1;
	if (!S_ISDIR(st.st_mode))
		return replay_file(path, n);
	d = opendir(path);
	if (!d)
		return -1;
	while ((e = readdir(d)) != NULL) {
		char sub[4096];

		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		if (replay(sub, n))
			ret = -1;
	}
	closedir(d);
	return ret;
}

int main(int argc, char **argv)
{
	size_t n = 0;

	for (int i = 1; i < argc; i++)
		if (replay(argv[i], &n)) {
			fprintf(stderr, "cannot read %s\n", argv[i]);
			return 1;
		}
	printf("replayed %zu inputs\n", n);
	return n ? 0 : 1;
}
#endif
