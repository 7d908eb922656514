// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The libtracecmd anchor for bench/tracedat.sh: the minimal program that
 * iterates every event of a trace.dat with tracecmd_iterate_events() and
 * reads one field per event (next_pid of sched_switch, common_pid otherwise),
 * with the field looked up once.  Written from the libtracecmd man pages.
 */
#include <stdio.h>
#include <stdlib.h>
#include <trace-cmd.h>

struct acc {
	struct tep_format_field *next_pid;
	int switch_id;
	unsigned long long n, sum;
};

static int one(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
	struct acc *a = data;
	struct tep_handle *tep = tracecmd_get_tep(h);
	unsigned long long v = 0;

	(void)cpu;
	if (a->next_pid && tep_data_type(tep, rec) == a->switch_id)
		tep_read_number_field(a->next_pid, rec->data, &v);
	else
		v = (unsigned long long)tep_data_pid(tep, rec);
	a->sum += v;
	a->n++;
	return 0;
}

int main(int argc, char **argv)
{
	struct tracecmd_input *h;
	struct tep_event *sw;
	struct acc a = { 0 };

	if (argc != 2) {
		fprintf(stderr, "usage: %s trace.dat\n", argv[0]);
		return 2;
	}
	h = tracecmd_open(argv[1], 0);
	if (!h) {
		fprintf(stderr, "cannot open %s\n", argv[1]);
		return 2;
	}
	sw = tep_find_event_by_name(tracecmd_get_tep(h), "sched", "sched_switch");
	if (sw) {
		a.switch_id = sw->id;
		a.next_pid = tep_find_field(sw, "next_pid");
	}
	tracecmd_iterate_events(h, NULL, 0, one, &a);
	printf("%llu events, checksum %llu\n", a.n, a.sum);
	tracecmd_close(h);
	return 0;
}
