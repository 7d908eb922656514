// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `latscope merge REPORT.json...`: the mergeable summaries of `analyze --json
 * --mergeable` reports (or of earlier merges) combined into one (docs/merge.md).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "latscope/summary.h"
#include "cli.h"

void usage_merge(FILE *out)
{
	fprintf(out,
		"usage: latscope merge REPORT.json... > merged.json   (REPORT - is stdin)\n\n"
		"Combines the mergeable summaries of `latscope analyze --json --mergeable`\n"
		"reports (every input's \"summary\"), or of earlier merges, into one: per host,\n"
		"per comm, per CPU and overall, with the percentiles one analysis over all\n"
		"the traces would give (docs/merge.md).  A report that cannot be read, holds\n"
		"no summary or one of another schema version is refused: nothing is written.\n"
		"A summary whose traces (by trace id and window) were merged already is\n"
		"skipped with a warning naming them: each trace counts once; one that holds\n"
		"such a trace together with others is refused.\n\n"
		"exit status: 0 ok, 1 the output could not be written,\n"
		"             2 usage error or a report refused\n");
}

/* The whole of @path ("-": stdin) into a malloc'd buffer. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f)
		return NULL;
	for (;;) {
		size_t got, want;

		if (n + 65536 > cap) {
			char *nb = realloc(buf, cap = cap ? 2 * cap : 1 << 20);

			if (!nb) {
				free(buf);
				buf = NULL;
				errno = ENOMEM;
				break;
			}
			buf = nb;
		}
		want = cap - n;
		got = fread(buf + n, 1, want, f);
		n += got;
		if (got < want) {
			if (ferror(f)) {
				free(buf);
				buf = NULL;
				errno = EIO;
			}
			break;
		}
	}
	if (f != stdin)
		fclose(f);
	*len = n;
	return buf;
}

/*
 * Adds summary @v of report @path to @s: 0, 1 skipped (every trace of it merged already:
 * said), or -1 with @err set.
 */
static int add_summary(struct lat_summary *s, const char *path, const struct lat_jv *v,
		       char *err, size_t errlen)
{
	int ret;

	s->origin = path;
	ret = lat_summary_add_json(s, v, err, errlen);
	s->origin = NULL;
	if (ret == 1)
		fprintf(stderr, "%s: warning: %s\n", path, err);
	return ret < 0 ? -1 : ret;
}

/* Adds every summary of report @path to @s.  Returns 0, or -1 after a message. */
static int merge_file(struct lat_summary *s, const char *path)
{
	struct lat_jv root;
	const struct lat_jv *inputs, *one;
	char err[512];
	size_t len, found = 0;
	char *text = slurp(path, &len);
	int ret = -1;

	if (!text) {
		fprintf(stderr, "%s: error: cannot read: %s\n", path, strerror(errno));
		return -1;
	}
	if (lat_json_parse(text, len, &root, err, sizeof(err))) {
		fprintf(stderr, "%s:%s\n", path, err + 5);	/* "line N: ..." -> "N: ..." */
		free(text);
		return -1;
	}
	free(text);
	one = lat_jv_get(&root, "summary");	/* a merge's output */
	inputs = lat_jv_get(&root, "inputs");	/* an analyze report */
	if (one) {
		if (add_summary(s, path, one, err, sizeof(err)) < 0)
			goto bad;
		found++;
	}
	for (size_t i = 0; inputs && inputs->type == LAT_JV_ARR && i < inputs->n; i++) {
		one = lat_jv_get(&inputs->items[i], "summary");
		if (!one)
			continue;
		if (add_summary(s, path, one, err, sizeof(err)) < 0)
			goto bad;
		found++;
	}
	if (!found) {
		fprintf(stderr, "%s: error: no mergeable summary: expected a report of `latscope "
				"analyze --json --mergeable` or of `latscope merge`\n", path);
		goto out;
	}
	ret = 0;
	goto out;
bad:
	if (!strncmp(err, "line ", 5))
		fprintf(stderr, "%s:%s\n", path, err + 5);
	else
		fprintf(stderr, "%s: error: %s\n", path, err);
out:
	lat_jv_free(&root);
	return ret;
}

int cmd_merge(int argc, char **argv)
{
	struct lat_summary s;
	struct lat_json j;
	int rc = CLI_EXIT_USAGE;

	for (int i = 1; i < argc; i++)
		if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "latscope merge: unknown option '%s'\n", argv[i]);
			usage_merge(stderr);
			return CLI_EXIT_USAGE;
		}
	if (argc < 2) {
		fprintf(stderr, "latscope merge: no report\n");
		usage_merge(stderr);
		return CLI_EXIT_USAGE;
	}
	lat_summary_init(&s);
	for (int i = 1; i < argc; i++)
		if (merge_file(&s, argv[i]) < 0)
			goto out;	/* nothing is written: a partial merge would mislead */
	if (s.traces > s.ntids)
		fprintf(stderr, "latscope merge: warning: %llu of the %llu traces have no id (read "
			"from stdin, or summarized by a latscope before ids): whether one of them "
			"was merged twice cannot be told\n",
			(unsigned long long)(s.traces - s.ntids), (unsigned long long)s.traces);
	lat_json_init(&j, stdout, 1);
	lat_json_obj_open(&j, NULL);
	lat_json_str(&j, "latscope", LATSCOPE_VERSION);
	lat_json_uint(&j, "reports", (uint64_t)(argc - 1));
	lat_summary_json(&j, "summary", &s);
	lat_json_obj_close(&j);
	rc = CLI_EXIT_OK;
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "latscope merge: cannot write the merged summary\n");
		rc = CLI_EXIT_FAIL;
	}
	if (s.oom)
		rc = CLI_EXIT_FAIL;
out:
	lat_summary_release(&s);
	return rc;
}
