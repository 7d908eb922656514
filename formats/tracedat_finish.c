// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The finishing of decoded trace.dat events (tracedat_src.h): comms from the
 * saved cmdlines, completed from what the trace says, and kallsyms names.
 * Called in the merged order, by the one thread that hands events out.
 */
#include <stdlib.h>

#include "tracedat_src.h"

const char td_comm_idle[LAT_COMM_LEN] = "<idle>", td_comm_unknown[LAT_COMM_LEN] = "<...>";

/*
 * td_comm_set() while reading: every CPU's cache is emptied, since one may
 * hold "<...>" for the pid just learned.
 */
static int comm_set(struct td_src *s, int32_t pid, const char *comm, size_t len)
{
	int ret = td_comm_set(&s->f.comms, pid, comm, len);

	for (int i = 0; i < s->ncc; i++)
		s->cc[i].pid = TD_CC_NONE;
	return ret;
}

/* Learns a comm the saved cmdlines did not have (short-lived tasks). */
static void learn_comm(struct td_src *s, int32_t pid, const char *comm)
{
	if (pid > 0 && comm[0] && !td_comm_get(&s->f.comms, pid))
		comm_set(s, pid, comm, strlen(comm));
}

__attribute__((noinline)) const char *td_switch_learn(struct td_src *s, int32_t pid,
						      const char *comm)
{
	if (comm_set(s, pid, comm, strlen(comm)) == 0)
		return td_comm_get(&s->f.comms, pid);
	return NULL;
}

/* A stack's symbols from the file's kallsyms (parsed on the first stack). */
static void stack_syms(struct td_src *s, struct lat_event *ev)
{
	uint32_t depth = ev->u.stack.depth;

	if (!depth || td_load_kallsyms(&s->f) < 0)
		return;
	for (uint32_t i = 0; i < depth; i++)
		s->syms[i] = tep_find_function(s->f.tep, ev->u.stack.ips[i]);
	ev->u.stack.syms = s->syms;
}

/* The kernel symbol at @addr (kallsyms loaded), through the small cache of callbacks. */
static const char *fn_name(struct td_src *s, uint64_t addr)
{
	struct td_fn *c;

	for (unsigned i = 0; i < TD_FN_CACHE; i++)
		if (s->fns[i].addr == addr && addr)
			return s->fns[i].name;
	c = &s->fns[s->fn_next++ % TD_FN_CACHE];
	c->addr = addr;
	c->name = tep_find_function(s->f.tep, (unsigned long long)addr);
	return c->name;
}

void td_finish(struct td_src *s, struct td_ccache *cc, struct lat_event *ev, int fl,
	       uint64_t aux)
{
	switch (ev->type) {
	case LAT_EV_SWITCH:
		td_switch_in(s, cc, ev->u.sw.next_pid, ev->u.sw.next_comm);
		break;
	case LAT_EV_FORK:
		learn_comm(s, ev->u.task.child_pid, ev->u.task.child_comm);
		break;
	case LAT_EV_EXEC:
		/* the comm the kernel sets at exec replaces the old one */
		if (ev->u.task.comm[0])
			comm_set(s, ev->u.task.pid, ev->u.task.comm, strlen(ev->u.task.comm));
		break;
	case LAT_EV_STACK:
		stack_syms(s, ev);
		break;
	case LAT_EV_MARKER:
		/* latscope's steal-time markers come parsed */
		ev->u.marker.steal = lat_steal_parse(ev->u.marker.text, ev->u.marker.len,
						     &s->steal) ? &s->steal : NULL;
		break;
	case LAT_EV_TIMER_ENTRY:
	case LAT_EV_TIMER_START:
		if (fl & TD_DEC_SYM)
			ev->u.irq.name = td_load_kallsyms(&s->f) < 0 ? NULL : fn_name(s, aux);
		break;
	default:
		break;
	}
}

int td_finish_init(struct td_src *s, int nslots)
{
	s->cc = calloc((size_t)nslots + 1, sizeof(*s->cc));
	s->dec.ips_cap = s->buf->page_size / (unsigned int)s->f.long_size;
	s->ips = calloc(s->dec.ips_cap, sizeof(*s->ips));
	s->syms = calloc(s->dec.ips_cap, sizeof(*s->syms));
	if (!s->cc || !s->ips || !s->syms)
		return -LAT_ENOMEM;
	s->ncc = nslots + 1;
	for (int i = 0; i < s->ncc; i++) {
		s->cc[i].pid = TD_CC_NONE;
		s->cc[i].comm = td_comm_unknown;
	}
	return 0;
}
