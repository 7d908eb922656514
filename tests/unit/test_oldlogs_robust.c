// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Bad input never crashes nor loses data silently: every old-log sample is
 * cut and garbled in a few hundred seeded ways; loading returns 0 or a
 * negative lat_err, analysis succeeds on every block, every block's rows are
 * accounted for, and the JSON report is written.  Run under the sanitizer
 * build this is where memory errors in the readers show up.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "latscope/report.h"
#include "old_logs_util.h"

static const char *const samples[] = {
	LAT_SAMPLES_DIR "/lat/seed000-2x-lat-20000000-vs-10000000.txt",
	LAT_SAMPLES_DIR "/lat2/seed000-lat2-50000-vs-shell-loop.txt",
	LAT_SAMPLES_DIR "/schedcnt/seed004-cpuhog-n1-to-n4.txt",
	LAT_SAMPLES_DIR "/histogram/seed003-plain-vs-patch.txt",
};

/* xorshift: the same garbling on every run */
static uint32_t rnd(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	buf = malloc((size_t)n + 64);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void garble(char *buf, size_t *len, uint32_t *seed)
{
	static const char pieces[] = "0123456789 .,:=\n\r>%-*#msuN\t\xc3\xaf";
	int edits = 1 + (int)(rnd(seed) % 12);

	for (int e = 0; e < edits && *len > 1; e++) {
		size_t pos = rnd(seed) % *len;
		uint32_t op = rnd(seed) % 4;

		if (op == 0) {
			buf[pos] = pieces[rnd(seed) % (sizeof(pieces) - 1)];
		} else if (op == 1) {
			size_t n = 1 + rnd(seed) % 40;

			if (n > *len - pos)
				n = *len - pos;
			memmove(buf + pos, buf + pos + n, *len - pos - n);
			*len -= n;
		} else if (op == 2) {
			buf[pos] = (char)(rnd(seed) & 0xff);
		} else {
			*len = pos + 1;	/* truncated mid-row */
		}
	}
}

static void test_garbled_samples(void **state)
{
	uint32_t seed = 2463534242u;
	FILE *devnull = fopen("/dev/null", "w");

	(void)state;
	assert_non_null(devnull);
	for (size_t k = 0; k < LAT_ARRAY_SIZE(samples); k++) {
		size_t orig_len;
		char *orig = read_all(samples[k], &orig_len);

		for (int it = 0; it < 150; it++) {
			char path[] = "/tmp/latscope-robust-XXXXXX";
			char *buf = malloc(orig_len + 1);
			size_t len = orig_len;
			int fd = mkstemp(path), ret;
			struct lat_loaded l;
			struct lat_analyze_opts o;
			struct lat_report_input in = { 0 };

			assert_non_null(buf);
			memcpy(buf, orig, orig_len);
			garble(buf, &len, &seed);
			assert_true(fd >= 0);
			assert_int_equal(write(fd, buf, len), (ssize_t)len);
			close(fd);
			ret = lat_load(&l, path, NULL);
			unlink(path);
			assert_true(ret == 0 || (ret < 0 && lat_err_is_own(ret)));
			lat_analyze_opts_init(&o);
			o.cpu_mhz = 733;
			for (size_t i = 0; i < l.nblocks; i++) {
				const struct lat_block *b = l.blocks[i];
				size_t rows = 0;

				assert_int_equal(lat_analyze_block(l.blocks[i], &o), 0);
				for (size_t s = 0; s < b->nseries; s++)
					rows += b->series[s]->nrows;
				for (size_t h = 0; h < b->nhist; h++)
					rows += b->hist[h]->nbuckets;
				/* a block is only kept with something in it */
				assert_true(rows > 0);
				assert_true(b->first_line <= b->last_line);
			}
			if (ret == 0) {
				in.path = l.path;
				in.format = l.format;
				in.blocks = l.blocks;
				in.nblocks = l.nblocks;
				lat_report_json(devnull, &in, 1, &o);
				lat_report_text(devnull, &in, 1, &o);
			}
			lat_loaded_release(&l);
			free(buf);
		}
		free(orig);
	}
	fclose(devnull);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_garbled_samples),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
