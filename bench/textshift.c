// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * textshift FILE N SECONDS: FILE (ftrace text: `trace-cmd report`, the
 * kernel's trace) written N times to stdout, copy i with every line's
 * timestamp ("] 994.571014:" after the CPU column) moved by i * SECONDS, so
 * that time keeps running forward as in one long trace: bench/scale.sh makes
 * tens of millions of lines of it (awk takes hours for that).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One line: its timestamp after "]" and blanks, moved by @add seconds, else as it is. */
static void put_line(const char *s, size_t n, unsigned long long add, FILE *out)
{
	const char *b = memchr(s, ']', n), *e = s + n, *p, *q;
	unsigned long long sec = 0;

	if (!b)
		goto as_is;
	for (p = b + 1; p < e && *p == ' '; p++)
		;
	for (q = p; q < e && *q >= '0' && *q <= '9'; q++)
		sec = sec * 10 + (unsigned long long)(*q - '0');
	if (q == p || q >= e || *q != '.')
		goto as_is;
	fwrite(s, 1, (size_t)(p - s), out);
	fprintf(out, "%llu", sec + add);
	fwrite(q, 1, (size_t)(e - q), out);
	return;
as_is:
	fwrite(s, 1, n, out);
}

int main(int argc, char **argv)
{
	FILE *f;
	char *buf;
	long len;
	int n;
	unsigned long long secs;

	if (argc != 4) {
		fprintf(stderr, "usage: textshift FILE N SECONDS\n");
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0) {
		perror(argv[1]);
		return 1;
	}
	rewind(f);
	buf = malloc((size_t)len + 1);
	if (!buf || fread(buf, 1, (size_t)len, f) != (size_t)len)
		return 1;
	fclose(f);
	n = atoi(argv[2]);
	secs = strtoull(argv[3], NULL, 10);
	for (int i = 0; i < n; i++)
		for (long a = 0; a < len;) {
			const char *nl = memchr(buf + a, '\n', (size_t)(len - a));
			long b = nl ? nl - buf + 1 : len;

			put_line(buf + a, (size_t)(b - a), (unsigned long long)i * secs, stdout);
			a = b;
		}
	return fflush(stdout) ? 1 : 0;
}
