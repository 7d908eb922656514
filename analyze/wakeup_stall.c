// SPDX-License-Identifier: GPL-2.0-or-later
/* Stalls (wakeup_stall.h): debts of a switch, and the silences while one is owed. */
#include <stdlib.h>
#include <string.h>

#include "wakeup_stall.h"

void wk_stalls_init(struct wk_stalls *st, struct lat_wakeup_result *r, struct lat_arena *arena,
		    int *oom)
{
	st->r = r;
	st->arena = arena;
	st->oom = oom;
}

int wk_stall_cpu_init(struct wk_stalls *st, struct wk_stall_cpu *p, int32_t cpu)
{
	if (!st->cpus && !(st->cpus = lat_arena_alloc(st->arena, WK_MAX_CPUS * sizeof(*st->cpus))))
		return -LAT_ENOMEM;
	st->cpus[cpu] = p;
	if ((size_t)cpu >= st->ncpus)
		st->ncpus = (size_t)cpu + 1;
	return 0;
}

void wk_stall_set(struct wk_stalls *st, struct wk_stall_task *tp, struct wk_stall_cpu *cp,
		  int32_t cpu, int32_t pid, const char *comm, uint64_t ts)
{
	cp->owed_since = ts;
	cp->owed_pid = pid;
	memcpy(cp->owed_comm, comm, LAT_COMM_LEN);
	tp->owed_cpu = cpu;
	st->nowed++;
}

/* @s into the result: the first LAT_WAKE_STALLS_MAX listed, all counted. */
static void record(struct wk_stalls *st, const struct lat_wake_stall *s)
{
	struct lat_wakeup_result *r = st->r;

	if (r->nstalls < LAT_WAKE_STALLS_MAX) {
		if (!r->stalls && !(r->stalls = calloc(LAT_WAKE_STALLS_MAX, sizeof(*r->stalls)))) {
			*st->oom = 1;
			return;
		}
		r->stalls[r->nstalls++] = *s;
	}
	r->nstalls_total++;
	r->stall_ns_total += (int64_t)(s->to_ns - s->from_ns);
	st->last = *s;
}

int wk_stall_check(struct wk_stalls *st, struct wk_stall_cpu *cp, const struct wk_hcpu *hc,
		   uint64_t last_ts, int seen, const struct lat_event *ev, uint64_t last_ns,
		   struct lat_wake_stall out[2])
{
	const struct lat_wake_stall *ls = &st->last;
	uint64_t from, ts = ev->ts_ns;
	int n = 0;

	/* an event that shows the owed task running (its switch-in missing) proves nothing */
	if (cp->owed_since && ev->type != LAT_EV_SWITCH && ev->pid == cp->owed_pid)
		return 0;
	if (st->nowed && ts - last_ns >= LAT_WAKE_STALL_NS) {
		out[n] = (struct lat_wake_stall){ .cpu = -1, .from_ns = last_ns, .to_ns = ts,
						  .pid = -1, .waiting_pid = -1 };
		for (size_t i = 0; i < st->ncpus; i++)
			if (st->cpus[i] && st->cpus[i]->owed_since) {
				out[n].waiting_pid = st->cpus[i]->owed_pid;
				memcpy(out[n].waiting_comm, st->cpus[i]->owed_comm, LAT_COMM_LEN);
				break;
			}
		record(st, &out[n++]);
	}
	if (!cp->owed_since || !seen)
		return n;
	from = last_ts > cp->owed_since ? last_ts : cp->owed_since;
	if (ts < from || ts - from < LAT_WAKE_STALL_NS)
		return n;
	/* a CPU's silence inside an every-CPU stall already recorded is that stall */
	if (st->r->nstalls_total && ls->cpu < 0 && ls->from_ns <= from + LAT_WAKE_STALL_NS / 2 &&
	    ls->to_ns + LAT_WAKE_STALL_NS / 2 >= ts)
		return n;
	out[n] = (struct lat_wake_stall){ .cpu = hc->id, .from_ns = from, .to_ns = ts,
					  .pid = hc->cur_pid, .waiting_pid = cp->owed_pid };
	memcpy(out[n].comm, hc->cur_comm, LAT_COMM_LEN);
	memcpy(out[n].waiting_comm, cp->owed_comm, LAT_COMM_LEN);
	record(st, &out[n++]);
	/* the CPU is owed the switch still, but this silence is counted */
	cp->owed_since = ts;
	return n;
}
