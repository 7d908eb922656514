/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace.dat event types (tracedat_types.c): for each event id, which event
 * it is and where its fields are, looked up once in the file's formats; and
 * the common header's fields.  Built from a struct td_file, read by the
 * event decoding (tracedat.c); the page walk never sees them.
 */
#ifndef LATSCOPE_FORMATS_TRACEDAT_TYPES_H
#define LATSCOPE_FORMATS_TRACEDAT_TYPES_H

#include "tracedat.h"

/* Where one field of a record is. */
struct td_fld {
	uint16_t off, size;
	uint8_t ok, sign, dyn, rel;
};

#define TD_NFLD 7		/* fields read of one event type */

struct td_etype {
	enum lat_ev_type type;
	char *name;			/* "system:event", owned */
	uint32_t min_size;		/* records shorter than this are not decoded */
	int hot;			/* fields have the shapes td_decode_hot_fields() reads */
	uint32_t hot_min;		/* min_size if hot, else UINT32_MAX: one test */
	struct td_fld f[TD_NFLD];
};

struct td_types {
	struct td_etype **types;	/* by event id, owned; NULL where no format has the id */
	size_t ntypes;
	struct td_fld f_type, f_pid, f_flags;	/* f_flags: common_flags, 1 byte */
	int hot_hdr;			/* common_type / _pid / _flags read by direct loads */
	uint32_t hdr_end;		/* records at least this long hold them */
	uint32_t hot_hdr_min;		/* hdr_end if hot_hdr, else UINT32_MAX: one test */
};

/*
 * Fills @ty (zeroed by the caller) from the formats of @f, parsing into f->tep
 * only those it needs; 0 or a negative lat_err.  Release with td_types_release()
 * either way.
 */
int td_types_build(struct td_types *ty, struct td_file *f);
void td_types_release(struct td_types *ty);

#endif
