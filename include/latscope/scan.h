/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A tiny scanner over one line (pointer + end, no NUL needed) for readers.
 * Every function returns 1 and advances on success, 0 and leaves the position
 * unchanged otherwise.  Numbers that overflow int64 fail.
 */
#ifndef LATSCOPE_SCAN_H
#define LATSCOPE_SCAN_H

#include <stdint.h>
#include <stddef.h>

struct lat_scan {
	const char *p, *end;
};

static inline void lat_scan_init(struct lat_scan *sc, const char *s, size_t len)
{
	sc->p = s;
	sc->end = s + len;
}

static inline int lat_scan_eol(const struct lat_scan *sc)
{
	return sc->p >= sc->end;
}

/* Skips blanks; returns how many. */
size_t lat_scan_ws(struct lat_scan *sc);
/* Matches the literal @lit. */
int lat_scan_lit(struct lat_scan *sc, const char *lit);
/* Matches one character @c. */
int lat_scan_char(struct lat_scan *sc, char c);
/* Unsigned decimal integer. */
int lat_scan_u64(struct lat_scan *sc, uint64_t *v);
/* Optionally signed decimal integer. */
int lat_scan_i64(struct lat_scan *sc, int64_t *v);
/* Hexadecimal integer, optional 0x. */
int lat_scan_hex(struct lat_scan *sc, uint64_t *v);
/*
 * "S.FFF" (fraction optional) scaled to @unit_ns per integer unit: "1.5" with
 * unit 1e9 -> 1500000000.  Digits beyond nanosecond precision are dropped.
 * *ndec (may be NULL) gets the number of fraction digits the input had.
 */
int lat_scan_fixed(struct lat_scan *sc, int64_t unit_ns, int64_t *v, int *ndec);
/* A run of non-blank characters: *s and *len. */
int lat_scan_word(struct lat_scan *sc, const char **s, size_t *len);

#endif
