// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `latscope export --perfetto-proto`, the output buffer (export_proto.h), below
 * both the bundles (export_proto_ftrace.c) and the records (export_proto.c):
 * each packet is made in place as one `packet` field of the Trace, and the
 * buffer goes to the stream in one fwrite() when the next packet finds no room.
 */
#include <stdlib.h>

#include "export_proto.h"

void pp_drain(struct lat_pfproto *p)
{
	if (p->nbuf && fwrite(p->buf, 1, p->nbuf, p->out) != p->nbuf)
		p->werr = 1;
	p->nbuf = 0;
}

uint8_t *pp_begin(struct lat_pfproto *p, size_t need)
{
	need += 1 + PB_LEN_MAX;		/* the Trace's tag and the packet's length */
	if (p->bufcap - p->nbuf < need) {
		pp_drain(p);
		if (p->bufcap < need) {
			uint8_t *b = realloc(p->buf, need);

			if (!b) {
				p->oom = 1;
				return NULL;
			}
			p->buf = b;
			p->bufcap = need;
		}
	}
	return pb_open(p->buf + p->nbuf, 1);	/* Trace.packet */
}

void pp_end(struct lat_pfproto *p, uint8_t *body, uint8_t *end)
{
	p->nbuf = (size_t)(pb_close(body, end) - p->buf);
}
