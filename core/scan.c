// SPDX-License-Identifier: GPL-2.0-or-later
#include <string.h>

#include "latscope/scan.h"

size_t lat_scan_ws(struct lat_scan *sc)
{
	const char *s = sc->p;

	while (sc->p < sc->end && (*sc->p == ' ' || *sc->p == '\t'))
		sc->p++;
	return (size_t)(sc->p - s);
}

int lat_scan_lit(struct lat_scan *sc, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(sc->end - sc->p) < n || memcmp(sc->p, lit, n))
		return 0;
	sc->p += n;
	return 1;
}

int lat_scan_char(struct lat_scan *sc, char c)
{
	if (sc->p >= sc->end || *sc->p != c)
		return 0;
	sc->p++;
	return 1;
}

int lat_scan_u64(struct lat_scan *sc, uint64_t *v)
{
	const char *p = sc->p;
	uint64_t x = 0;

	if (p >= sc->end || *p < '0' || *p > '9')
		return 0;
	while (p < sc->end && *p >= '0' && *p <= '9') {
		unsigned d = (unsigned)(*p - '0');

		if (x > (UINT64_MAX - d) / 10)
			return 0;
		x = x * 10 + d;
		p++;
	}
	sc->p = p;
	*v = x;
	return 1;
}

int lat_scan_i64(struct lat_scan *sc, int64_t *v)
{
	struct lat_scan save = *sc;
	int neg = lat_scan_char(sc, '-');
	uint64_t u;

	if (!neg)
		lat_scan_char(sc, '+');
	if (!lat_scan_u64(sc, &u) || u > (uint64_t)INT64_MAX + (uint64_t)neg) {
		*sc = save;
		return 0;
	}
	*v = neg ? (int64_t)(0 - u) : (int64_t)u;
	return 1;
}

int lat_scan_hex(struct lat_scan *sc, uint64_t *v)
{
	const char *p = sc->p;
	uint64_t x = 0;
	int n = 0;

	if (sc->end - p >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	while (p < sc->end) {
		char c = *p;
		unsigned d;

		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			break;
		if (n == 16)
			return 0;
		x = x << 4 | d;
		p++;
		n++;
	}
	if (!n)
		return 0;
	sc->p = p;
	*v = x;
	return 1;
}

int lat_scan_fixed(struct lat_scan *sc, int64_t unit_ns, int64_t *v, int *ndec)
{
	struct lat_scan save = *sc;
	uint64_t ip, frac = 0, scale = 1;
	int nd = 0;

	if (!lat_scan_u64(sc, &ip))
		return 0;
	if (lat_scan_char(sc, '.')) {
		while (sc->p < sc->end && *sc->p >= '0' && *sc->p <= '9') {
			if (scale < (uint64_t)unit_ns) {
				frac = frac * 10 + (uint64_t)(*sc->p - '0');
				scale *= 10;
			}
			nd++;
			sc->p++;
		}
	}
	if (ip > (uint64_t)INT64_MAX / (uint64_t)unit_ns) {
		*sc = save;
		return 0;
	}
	*v = (int64_t)(ip * (uint64_t)unit_ns + frac * ((uint64_t)unit_ns / scale));
	if (ndec)
		*ndec = nd;
	return 1;
}

int lat_scan_word(struct lat_scan *sc, const char **s, size_t *len)
{
	const char *p = sc->p;

	while (p < sc->end && *p != ' ' && *p != '\t')
		p++;
	if (p == sc->p)
		return 0;
	*s = sc->p;
	*len = (size_t)(p - sc->p);
	sc->p = p;
	return 1;
}
