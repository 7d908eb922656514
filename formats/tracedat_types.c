// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trace.dat: the event types.  Which events are decoded (the known table),
 * where their fields are (looked up once per type in the formats parsed by
 * libtraceevent), and whether the hot decoders may read them by direct
 * loads.  Only the formats of known events, and of the lowest ids for the
 * common header, are parsed (struct td_fmt).
 */
#include <stdlib.h>
#include <string.h>

#include "tracedat_types.h"

static const struct td_known {
	const char *sys, *name;
	enum lat_ev_type type;
	const char *f[TD_NFLD];
} known[] = {
	{ "sched", "sched_switch", LAT_EV_SWITCH, { "prev_comm", "prev_pid", "prev_prio",
		"prev_state", "next_comm", "next_pid", "next_prio" } },
	{ "sched", "sched_waking", LAT_EV_WAKING, { "comm", "pid", "prio", "target_cpu" } },
	{ "sched", "sched_wakeup", LAT_EV_WAKEUP, { "comm", "pid", "prio", "target_cpu" } },
	{ "sched", "sched_wakeup_new", LAT_EV_WAKEUP_NEW, { "comm", "pid", "prio",
		"target_cpu" } },
	{ "sched", "sched_migrate_task", LAT_EV_MIGRATE, { "comm", "pid", "prio", "orig_cpu",
		"dest_cpu" } },
	{ "sched", "sched_process_fork", LAT_EV_FORK, { "parent_comm", "parent_pid",
		"child_comm", "child_pid" } },
	{ "sched", "sched_process_exec", LAT_EV_EXEC, { "filename", "pid" } },
	{ "sched", "sched_process_exit", LAT_EV_EXIT, { "comm", "pid" } },
	{ "irq", "irq_handler_entry", LAT_EV_IRQ_ENTRY, { "irq", "name" } },
	{ "irq", "irq_handler_exit", LAT_EV_IRQ_EXIT, { "irq", "ret" } },
	{ "irq", "softirq_entry", LAT_EV_SOFTIRQ_ENTRY, { "vec" } },
	{ "irq", "softirq_exit", LAT_EV_SOFTIRQ_EXIT, { "vec" } },
	{ "timer", "hrtimer_expire_entry", LAT_EV_TIMER_ENTRY, { "function", "hrtimer", "now" } },
	{ "timer", "hrtimer_expire_exit", LAT_EV_TIMER_EXIT, { "hrtimer" } },
	{ "timer", "hrtimer_start", LAT_EV_TIMER_START, { "function", "hrtimer", "expires",
		"softexpires" } },
	{ "timer", "hrtimer_cancel", LAT_EV_TIMER_CANCEL, { "hrtimer" } },
	{ "ftrace", "print", LAT_EV_MARKER, { "buf" } },
	{ "ftrace", "kernel_stack", LAT_EV_STACK, { "size", "caller" } },
	{ "syscalls", "sys_enter_sched_setscheduler", LAT_EV_SETSCHED, { "pid", "policy" } },
	{ "syscalls", "sys_exit_sched_setscheduler", LAT_EV_SETSCHED_EXIT, { "ret" } },
};

/* The field that must exist for a known event to be decoded (else it is OTHER). */
static const int key_field[LAT_EV_NTYPES] = {
	[LAT_EV_SWITCH] = 5, [LAT_EV_WAKING] = 1, [LAT_EV_WAKEUP] = 1, [LAT_EV_WAKEUP_NEW] = 1,
	[LAT_EV_MIGRATE] = 4, [LAT_EV_FORK] = 3, [LAT_EV_EXEC] = 1, [LAT_EV_EXIT] = 1,
	[LAT_EV_IRQ_ENTRY] = 0, [LAT_EV_IRQ_EXIT] = 0, [LAT_EV_SOFTIRQ_ENTRY] = 0,
	[LAT_EV_SOFTIRQ_EXIT] = 0, [LAT_EV_MARKER] = 0, [LAT_EV_STACK] = 1,
	[LAT_EV_TIMER_ENTRY] = 0, [LAT_EV_TIMER_EXIT] = 0, [LAT_EV_SETSCHED] = 1,
	[LAT_EV_SETSCHED_EXIT] = 0, [LAT_EV_TIMER_START] = 2, [LAT_EV_TIMER_CANCEL] = 0,
};

static void set_fld(struct td_fld *d, const struct tep_format_field *f, uint32_t *min_size)
{
	if (!f || f->offset < 0 || f->size < 0 || f->offset > 65535 || f->size > 65535)
		return;
	d->off = (uint16_t)f->offset;
	d->size = (uint16_t)f->size;
	d->sign = (f->flags & TEP_FIELD_IS_SIGNED) != 0;
	d->dyn = (f->flags & TEP_FIELD_IS_DYNAMIC) != 0;
	d->rel = (f->flags & TEP_FIELD_IS_RELATIVE) != 0;
	d->ok = 1;
	if ((uint32_t)f->offset + (uint32_t)f->size > *min_size)
		*min_size = (uint32_t)f->offset + (uint32_t)f->size;
}

static int shape_int(const struct td_fld *f)
{
	return f->ok && !f->dyn && f->size == 4;
}

static int shape_comm(const struct td_fld *f)
{
	return f->ok && !f->dyn && f->size >= LAT_COMM_LEN;
}

/*
 * Whether the hot decoders may read @t's fields by direct loads (a switch, a
 * wakeup, a migration, a softirq): file in the host's byte order, 4-byte
 * ints, char[16] (or longer) comms, and a prev_state of 4 bytes, or of 8 on a
 * little-endian host (only its low bits are used).  Other shapes (old
 * kernels, dynamic comms) take rd().
 */
static int hot_shape(int swap, const struct td_etype *t)
{
	const struct td_fld *f = t->f;

	if (swap)
		return 0;
	switch (t->type) {
	case LAT_EV_SWITCH:
		return shape_comm(&f[0]) && shape_int(&f[1]) && shape_int(&f[2]) && f[3].ok &&
		       !f[3].dyn && (f[3].size == 4 || (f[3].size == 8 &&
		       __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)) && shape_comm(&f[4]) &&
		       shape_int(&f[5]) && shape_int(&f[6]);
	case LAT_EV_WAKING:
	case LAT_EV_WAKEUP:
	case LAT_EV_WAKEUP_NEW:
		return shape_comm(&f[0]) && shape_int(&f[1]) && shape_int(&f[2]) &&
		       shape_int(&f[3]);
	case LAT_EV_MIGRATE:
		return shape_comm(&f[0]) && shape_int(&f[1]) && shape_int(&f[2]) &&
		       shape_int(&f[3]) && shape_int(&f[4]);
	case LAT_EV_SOFTIRQ_ENTRY:
	case LAT_EV_SOFTIRQ_EXIT:
		return shape_int(&f[0]);
	default:
		return 0;
	}
}

/* The common header's fields, from the first event (by id) that has common_type. */
static void common_fields(struct td_types *ty, struct tep_event *e)
{
	uint32_t dummy = 0;

	if (ty->f_type.ok)
		return;
	set_fld(&ty->f_type, tep_find_common_field(e, "common_type"), &dummy);
	set_fld(&ty->f_pid, tep_find_common_field(e, "common_pid"), &dummy);
	set_fld(&ty->f_flags, tep_find_common_field(e, "common_flags"), &dummy);
	if (ty->f_flags.ok && (ty->f_flags.size != 1 || ty->f_flags.dyn))
		ty->f_flags.ok = 0;
}

static const struct td_known *find_known(const char *sys, const char *name)
{
	for (size_t k = 0; k < LAT_ARRAY_SIZE(known); k++)
		if (!strcmp(sys, known[k].sys) && !strcmp(name, known[k].name))
			return &known[k];
	return NULL;
}

/* The type of event @id, "@sys:@name"; a known event's fields from @e (parsed). */
static int add_type(struct td_types *ty, const struct td_file *f, int id, const char *sys,
		    const char *name, struct tep_event *e)
{
	const struct td_known *k = e && sys && name ? find_known(sys, name) : NULL;
	struct td_etype *t = calloc(1, sizeof(*t));
	size_t len;

	sys = sys ? sys : "";
	name = name ? name : "";
	len = strlen(sys) + strlen(name) + 2;
	if (!t || !(t->name = malloc(len))) {
		free(t);
		return -LAT_ENOMEM;
	}
	snprintf(t->name, len, "%s:%s", sys, name);
	t->type = LAT_EV_OTHER;
	t->hot_min = UINT32_MAX;
	ty->types[id] = t;
	if (!k)
		return 0;
	for (int j = 0; j < TD_NFLD && k->f[j]; j++)
		set_fld(&t->f[j], tep_find_field(e, k->f[j]), &t->min_size);
	t->type = t->f[key_field[k->type]].ok ? k->type : LAT_EV_OTHER;
	/*
	 * kernel_stack declares caller[8] but records only the frames it has:
	 * a shallow stack is shorter than the format.  decode_stack() bounds
	 * the frames by the record size, so only the array's start must fit.
	 */
	if (t->type == LAT_EV_STACK && t->f[1].ok)
		t->min_size = t->f[1].off > t->f[0].off + t->f[0].size ?
			      t->f[1].off : t->f[0].off + t->f[0].size;
	t->hot = hot_shape(f->swap, t);
	t->hot_min = t->hot ? t->min_size : UINT32_MAX;
	return 0;
}

/*
 * Every format parsed, in file order, and the types taken from what
 * libtraceevent holds: for formats whose first lines are not of the plain
 * form (damaged files) or that share an id.
 */
static int types_from_tep(struct td_types *ty, struct td_file *f)
{
	int n, maxid = -1, ret;

	for (size_t i = 0; i < f->nfmts; i++)
		if ((ret = td_fmt_parse(f, &f->fmts[i])) < 0)
			return ret;
	n = tep_get_events_count(f->tep);
	for (int i = 0; i < n; i++) {
		struct tep_event *e = tep_get_event(f->tep, i);

		if (e && e->id > maxid && e->id <= TD_MAX_EVENT_ID)
			maxid = e->id;
	}
	if (maxid < 0)
		return -LAT_EFORMAT;
	ty->types = calloc((size_t)maxid + 1, sizeof(*ty->types));
	if (!ty->types)
		return -LAT_ENOMEM;
	ty->ntypes = (size_t)maxid + 1;
	for (int i = 0; i < n; i++) {
		struct tep_event *e = tep_get_event(f->tep, i);

		if (!e || e->id < 0 || e->id > maxid || ty->types[e->id])
			continue;
		common_fields(ty, e);
		if ((ret = add_type(ty, f, e->id, e->system, e->name, e)) < 0)
			return ret;
	}
	return 0;
}

static int cmp_fmt_id(const void *a, const void *b)
{
	const struct td_fmt *x = *(const struct td_fmt *const *)a;
	const struct td_fmt *y = *(const struct td_fmt *const *)b;

	return (x->id > y->id) - (x->id < y->id);
}

/*
 * The types without parsing every format: each one's name and id from its
 * first lines; libtraceevent parses only the known events and, for the
 * common header, the lowest ids until one has common_type -- the same
 * types, fields and header types_from_tep() finds, since libtraceevent
 * keeps every format whose name and id it reads, however the rest of it
 * fares (LATSCOPE_TRACEDAT_EAGER=1 takes types_from_tep() always, so that
 * tests/e2e/test_tracedat.sh compares both).  1 done, 0 when the formats
 * need types_from_tep(), <0 error.
 */
static int types_lazy(struct td_types *ty, struct td_file *f)
{
	const struct td_fmt **by_id;
	const char *eager = getenv("LATSCOPE_TRACEDAT_EAGER");
	int maxid = -1, ret = 0;

	if (!f->nfmts || (eager && *eager && strcmp(eager, "0")))
		return 0;
	for (size_t i = 0; i < f->nfmts; i++) {
		if (f->fmts[i].id < 0)
			return 0;
		if (f->fmts[i].id > maxid)
			maxid = f->fmts[i].id;
	}
	by_id = malloc(f->nfmts * sizeof(*by_id));
	if (!by_id)
		return -LAT_ENOMEM;
	for (size_t i = 0; i < f->nfmts; i++)
		by_id[i] = &f->fmts[i];
	qsort(by_id, f->nfmts, sizeof(*by_id), cmp_fmt_id);
	for (size_t i = 1; i < f->nfmts; i++)
		if (by_id[i]->id == by_id[i - 1]->id)
			goto out;	/* which one libtraceevent lists first: parse all */
	ret = -LAT_ENOMEM;
	ty->types = calloc((size_t)maxid + 1, sizeof(*ty->types));
	if (!ty->types)
		goto out;
	ty->ntypes = (size_t)maxid + 1;
	for (size_t i = 0; i < f->nfmts; i++) {
		const struct td_fmt *m = &f->fmts[i];
		struct tep_event *e = NULL;

		if (find_known(m->sys, m->name)) {
			if ((ret = td_fmt_parse(f, m)) < 0)
				goto out;
			e = tep_find_event(f->tep, m->id);
		}
		if ((ret = add_type(ty, f, m->id, m->sys, m->name, e)) < 0)
			goto out;
	}
	for (size_t i = 0; i < f->nfmts && !ty->f_type.ok; i++) {
		struct tep_event *e = tep_find_event(f->tep, by_id[i]->id);

		if (!e) {
			if ((ret = td_fmt_parse(f, by_id[i])) < 0)
				goto out;
			e = tep_find_event(f->tep, by_id[i]->id);
		}
		if (e)
			common_fields(ty, e);
	}
	ret = 1;
out:
	free(by_id);
	return ret;
}

void td_types_release(struct td_types *ty)
{
	for (size_t i = 0; i < ty->ntypes; i++) {
		if (ty->types[i])
			free(ty->types[i]->name);
		free(ty->types[i]);
	}
	free(ty->types);
	ty->types = NULL;
	ty->ntypes = 0;
}

int td_types_build(struct td_types *ty, struct td_file *f)
{
	int ret = types_lazy(ty, f);

	if (!ret) {
		/* drop what the lazy pass made: types_from_tep() starts over */
		td_types_release(ty);
		ret = types_from_tep(ty, f);
	}
	if (ret < 0)
		return ret;
	/* the common header read by direct loads: u16 type, s32 pid, host order, and flags */
	ty->hot_hdr = !f->swap && ty->f_type.ok && ty->f_type.size == 2 && ty->f_pid.ok &&
		     ty->f_pid.size == 4 && ty->f_flags.ok;
	ty->hdr_end = (uint32_t)ty->f_type.off + ty->f_type.size;
	if ((uint32_t)ty->f_pid.off + ty->f_pid.size > ty->hdr_end)
		ty->hdr_end = (uint32_t)ty->f_pid.off + ty->f_pid.size;
	if (ty->f_flags.ok && (uint32_t)ty->f_flags.off + 1 > ty->hdr_end)
		ty->hdr_end = (uint32_t)ty->f_flags.off + 1;
	ty->hot_hdr_min = ty->hot_hdr ? ty->hdr_end : UINT32_MAX;
	if (!ty->f_type.ok ||
	    (ty->f_type.size != 1 && ty->f_type.size != 2 && ty->f_type.size != 4))
		return -LAT_EFORMAT;
	return 0;
}
