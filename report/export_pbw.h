/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Protocol Buffers' wire format, written in place (`export --perfetto-proto`,
 * export_proto*.c): a field is its tag (number << 3 | wire type, a varint) and its
 * value; varints 7 bits a byte, the lowest first; a negative int32 or enum as its
 * 64-bit two's complement (10 bytes); fixed64 8 bytes, the lowest first; a string,
 * bytes or a message as its length (a varint) and its bytes.  The fields of a
 * message go in the order of their numbers, as protobuf-c writes them, so the
 * file is the same bytes protobuf-c made (bench/README-export.md: packing through
 * protobuf-c was half of the export, each message measured and then walked again).
 *
 * Every writer takes the position @o to write at and returns the one after what it
 * wrote; the caller has the room.  A message is opened with pb_open(), which leaves
 * one byte for its length, and closed with pb_close(), which moves the body on when
 * the length needs more (a body of 128 bytes or more: the room must allow for it).
 */
#ifndef LATSCOPE_EXPORT_PBW_H
#define LATSCOPE_EXPORT_PBW_H

#include <stdint.h>
#include <string.h>

enum pb_wire { PB_VARINT = 0, PB_I64 = 1, PB_LEN = 2 };

/* The most a varint takes (a 64-bit value), and a length's (below 4 GiB). */
#define PB_VARINT_MAX 10
#define PB_LEN_MAX 5

static inline uint8_t *pb_varint(uint8_t *o, uint64_t v)
{
	while (v >= 0x80) {
		*o++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*o++ = (uint8_t)v;
	return o;
}

/* The bytes of @v as a varint. */
static inline size_t pb_varint_len(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static inline uint8_t *pb_tag(uint8_t *o, uint32_t field, enum pb_wire w)
{
	return pb_varint(o, (uint64_t)field << 3 | w);
}

/* uint64, uint32, int64 (as its two's complement), bool */
static inline uint8_t *pb_u64(uint8_t *o, uint32_t field, uint64_t v)
{
	return pb_varint(pb_tag(o, field, PB_VARINT), v);
}

/* int32 and enums: a negative value sign-extended to 64 bits, as protobuf-c writes it */
static inline uint8_t *pb_i32(uint8_t *o, uint32_t field, int32_t v)
{
	return pb_u64(o, field, (uint64_t)(int64_t)v);
}

static inline uint8_t *pb_fixed64(uint8_t *o, uint32_t field, uint64_t v)
{
	o = pb_tag(o, field, PB_I64);
	for (int i = 0; i < 8; i++)
		*o++ = (uint8_t)(v >> (8 * i));
	return o;
}

static inline uint8_t *pb_bytes(uint8_t *o, uint32_t field, const void *s, size_t n)
{
	o = pb_varint(pb_tag(o, field, PB_LEN), n);
	memcpy(o, s, n);
	return o + n;
}

static inline uint8_t *pb_str(uint8_t *o, uint32_t field, const char *s)
{
	return pb_bytes(o, field, s, strlen(s));
}

/* Opens message (or packed array) @field: where its body goes. */
static inline uint8_t *pb_open(uint8_t *o, uint32_t field)
{
	return pb_tag(o, field, PB_LEN) + 1;
}

/* Closes the message whose body began at @body (pb_open()) and ends at @o. */
static inline uint8_t *pb_close(uint8_t *body, uint8_t *o)
{
	size_t n = (size_t)(o - body), k;

	if (n < 0x80) {
		body[-1] = (uint8_t)n;
		return o;
	}
	k = pb_varint_len(n) - 1;
	memmove(body + k, body, n);
	pb_varint(body - 1, n);
	return o + k;
}

#endif
