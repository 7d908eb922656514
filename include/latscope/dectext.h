/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Numbers as decimal text, made in place in the writer's own buffer: the JSON writer's
 * (core/json.c) and the exporters' (report/export_rows.c, export_perfetto*.c), where printf()
 * and a loop of two digits a step were most of a row's and of a trace event's cost
 * (bench/README-export.md).  Eight digits are made at once in the bytes of one 64-bit word.
 *
 * Every writer here takes the position @p to write at and returns the position after what it
 * wrote; it may write garbage up to LAT_DEC_ROOM bytes from @p (whole words), which what comes
 * next writes over: the caller has that room.
 */
#ifndef LATSCOPE_DECTEXT_H
#define LATSCOPE_DECTEXT_H

#include <stdint.h>
#include <string.h>

/*
 * The room a number needs at its position: 20 digits and a sign, or lat_dec_us()'s 17, its
 * point and a word for its 3 decimals; in whole words.
 */
#define LAT_DEC_ROOM 32

/* @s, a string literal, at @p: the position after it. */
#define LAT_LIT(p, s) ((char *)memcpy((p), (s), sizeof(s) - 1) + sizeof(s) - 1)

/*
 * The 8 decimal digits of @v (< 10^8, with its leading zeros) as the 8 bytes of a word,
 * the first digit in the lowest byte (first in memory), each a number 0..9.  Each step
 * splits every field of the word at once: 4 digits | 4 digits in 32-bit fields, then 2 | 2
 * in 16-bit fields, then 1 | 1 in bytes; a quotient by 100 or 10 of a field is a multiply
 * and a shift, exact for the fields' ranges (n * 5243 >> 19 == n / 100 for n < 43699,
 * n * 103 >> 10 == n / 10 for n < 179: tests/unit/test_export_text.c checks every value
 * used), and no field's product reaches the next field.
 */
static inline uint64_t lat_digits8(uint32_t v)
{
	uint64_t x = (v / 10000) | ((uint64_t)(v % 10000) << 32);
	uint64_t q = ((x * 5243) >> 19) & 0x0000007f0000007full;
	uint64_t y = q | ((x - q * 100) << 16);
	uint64_t t = ((y * 103) >> 10) & 0x000f000f000f000full;

	return t | ((y - t * 10) << 8);
}

/* The same of @v < 10^4 in the 4 bytes of a 32-bit word (its 16-bit fields, then bytes). */
static inline uint32_t lat_digits4(uint32_t v)
{
	uint32_t q = (v * 5243) >> 19;
	uint32_t y = q | ((v - q * 100) << 16);
	uint32_t t = ((y * 103) >> 10) & 0x000f000fu;

	return t | ((y - t * 10) << 8);
}

static inline char *lat_put8(char *p, uint64_t d)
{
	d += 0x3030303030303030ull;	/* '0' in each byte */
	memcpy(p, &d, 8);
	return p + 8;
}

/* @v (< 10^8) without leading zeros: 1 to 8 digits. */
static inline char *lat_dec_small(char *p, uint32_t v)
{
	uint64_t d;
	unsigned lead;

	/* CPUs, prios, small counts: most numbers of a row */
	if (v < 10) {
		*p = (char)('0' + v);
		return p + 1;
	}
	if (v < 100) {
		uint32_t t = (v * 103) >> 10;

		p[0] = (char)('0' + t);
		p[1] = (char)('0' + v - t * 10);
		return p + 2;
	}
	/* the zero digits in front are the zero bytes at the low end */
	if (v < 10000) {
		uint32_t d4 = lat_digits4(v) + 0x30303030u;

		lead = v < 1000;
		d4 >>= 8 * lead;
		memcpy(p, &d4, 4);
		return p + 4 - lead;
	}
	d = lat_digits8(v);
	lead = (unsigned)__builtin_ctzll(d) / 8;
	lat_put8(p, d >> (8 * lead));
	return p + 8 - lead;
}

static inline char *lat_dec_u64(char *p, uint64_t v)
{
	uint64_t hi;

	if (v < 100000000)
		return lat_dec_small(p, (uint32_t)v);
	hi = v / 100000000;
	if (hi < 100000000) {
		p = lat_dec_small(p, (uint32_t)hi);
	} else {
		p = lat_dec_small(p, (uint32_t)(hi / 100000000));
		p = lat_put8(p, lat_digits8((uint32_t)(hi % 100000000)));
	}
	return lat_put8(p, lat_digits8((uint32_t)(v % 100000000)));
}

static inline char *lat_dec_i64(char *p, int64_t v)
{
	if (v < 0) {
		*p++ = '-';
		return lat_dec_u64(p, -(uint64_t)v);
	}
	return lat_dec_u64(p, (uint64_t)v);
}

/*
 * ns as microseconds with the nanoseconds kept, "US.NNN": printf's "%" PRIu64 ".%03u" of
 * ns / 1000 and ns % 1000.
 */
static inline char *lat_dec_us(char *p, uint64_t ns)
{
	uint64_t hi = ns / 100000000, d;
	unsigned lead = 0;

	if (hi >= 100000000) {		/* 17 digits or more: as printf's two parts */
		p = lat_dec_u64(p, ns / 1000);
		*p++ = '.';
		lat_put8(p, lat_digits8((uint32_t)(ns % 1000)) >> 40);
		return p + 3;
	}
	/* the last 8 digits: 5 before the point (after hi's), 3 after it */
	d = lat_digits8((uint32_t)(ns % 100000000));
	if (hi)
		p = lat_dec_small(p, (uint32_t)hi);
	else if (d & 0xffffffffffull)
		lead = (unsigned)__builtin_ctzll(d) / 8;	/* the zeros before the first */
	else
		lead = 4;					/* less than 1 us: "0." */
	lat_put8(p, d >> (8 * lead));
	p += 5 - lead;
	*p++ = '.';
	lat_put8(p, d >> 40);
	return p + 3;
}

#endif
