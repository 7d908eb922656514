// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `latscope export --perfetto-proto`, the packet writer (export_proto.h), below
 * both the bundles (export_proto_ftrace.c) and the records (export_proto.c):
 * a TracePacket packed and written as one `packet` field of the Trace.
 */
#include <stdlib.h>

#include "export_proto.h"

void pp_write(struct lat_pfproto *p, Perfetto__Protos__TracePacket *pkt)
{
	size_t n = perfetto__protos__trace_packet__get_packed_size(pkt), h = 1;
	uint8_t head[11] = { 0x0a };	/* Trace.packet: field 1, length-delimited */

	if (n > p->bufcap) {
		uint8_t *b = realloc(p->buf, n * 2);

		if (!b) {
			p->oom = 1;
			return;
		}
		p->buf = b;
		p->bufcap = n * 2;
	}
	perfetto__protos__trace_packet__pack(pkt, p->buf);
	for (size_t v = n; ; v >>= 7) {
		head[h++] = (uint8_t)((v & 0x7f) | (v >= 0x80 ? 0x80 : 0));
		if (v < 0x80)
			break;
	}
	if (fwrite(head, 1, h, p->out) != h || fwrite(p->buf, 1, n, p->out) != n)
		p->werr = 1;
	p->packets++;
	p->bytes += h + n;
}
