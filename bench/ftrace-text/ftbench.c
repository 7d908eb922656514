// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftrace-text reader: throughput, memory, and a dump of the events.
 *   ftbench FILE            lines/s, events, peak RSS (stderr diagnostics counted)
 *   ftbench --dump FILE     one line per event (tests and eyes)
 *   ftbench --count FILE    events per type
 * Built by bench/ftrace-text/run.sh against the layer archives
 * (build/liblatscope_{report,analyze,formats,model}.a).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "latscope/input.h"
#include "ftrace_text.h"

static const char *const type_names[LAT_EV_NTYPES] = {
	"other", "switch", "waking", "wakeup", "wakeup_new", "migrate", "fork", "exec", "exit",
	"irq_entry", "irq_exit", "softirq_entry", "softirq_exit", "marker", "stack", "lost",
	"timer_entry", "timer_exit", "setscheduler", "setscheduler_exit", "timer_start",
	"timer_cancel",
};

static void dump(const struct lat_event *e)
{
	printf("%llu.%09llu cpu=%d pid=%d comm=%s %s", (unsigned long long)(e->ts_ns / 1000000000),
	       (unsigned long long)(e->ts_ns % 1000000000), e->cpu, e->pid, e->comm,
	       type_names[e->type]);
	switch (e->type) {
	case LAT_EV_SWITCH:
		printf(" %s:%d [%d] %s(0x%x) ==> %s:%d [%d]", e->u.sw.prev_comm, e->u.sw.prev_pid,
		       e->u.sw.prev_prio, lat_task_state_name(e->u.sw.prev_state),
		       e->u.sw.prev_state_raw, e->u.sw.next_comm, e->u.sw.next_pid,
		       e->u.sw.next_prio);
		break;
	case LAT_EV_WAKING:
	case LAT_EV_WAKEUP:
	case LAT_EV_WAKEUP_NEW:
		printf(" %s:%d [%d] target=%d", e->u.wake.comm, e->u.wake.pid, e->u.wake.prio,
		       e->u.wake.target_cpu);
		break;
	case LAT_EV_MIGRATE:
		printf(" %s:%d [%d] %d->%d", e->u.migrate.comm, e->u.migrate.pid,
		       e->u.migrate.prio, e->u.migrate.orig_cpu, e->u.migrate.dest_cpu);
		break;
	case LAT_EV_FORK:
		printf(" %s:%d -> %s:%d", e->u.task.comm, e->u.task.pid, e->u.task.child_comm,
		       e->u.task.child_pid);
		break;
	case LAT_EV_EXEC:
	case LAT_EV_EXIT:
		printf(" %s:%d", e->u.task.comm, e->u.task.pid);
		break;
	case LAT_EV_IRQ_ENTRY:
	case LAT_EV_IRQ_EXIT:
	case LAT_EV_SOFTIRQ_ENTRY:
	case LAT_EV_SOFTIRQ_EXIT:
		printf(" %d %s ret=%d", e->u.irq.irq, e->u.irq.name ? e->u.irq.name : "-",
		       e->u.irq.ret);
		break;
	case LAT_EV_MARKER:
		printf(" \"%.*s\"", (int)e->u.marker.len, e->u.marker.text);
		break;
	case LAT_EV_STACK:
		printf(" depth=%u", e->u.stack.depth);
		for (uint32_t i = 0; i < e->u.stack.depth; i++)
			printf(" %s", e->u.stack.syms[i] ? e->u.stack.syms[i] : "?");
		break;
	case LAT_EV_LOST:
		printf(" %llu", (unsigned long long)e->u.lost.count);
		break;
	default:
		printf(" %s", e->name);
		break;
	}
	putchar('\n');
}

int main(int argc, char **argv)
{
	struct lat_loaded l;
	struct lat_event ev;
	struct timespec t0, t1;
	struct rusage ru;
	uint64_t n = 0, per[LAT_EV_NTYPES] = { 0 };
	int mode = 0, ret;
	const char *path;

	if (argc == 3 && !strcmp(argv[1], "--dump"))
		mode = 1;
	else if (argc == 3 && !strcmp(argv[1], "--count"))
		mode = 2;
	else if (argc != 2) {
		fprintf(stderr, "usage: ftbench [--dump|--count] FILE\n");
		return 2;
	}
	path = argv[argc - 1];
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = lat_load(&l, path, &(struct lat_read_opts){ .format = lat_format_find("ftrace-text"),
						   .diag = stderr });
	if (ret < 0 || l.nblocks != 1 || !l.blocks[0]->events) {
		fprintf(stderr, "ftbench: %s: %s\n", path, l.error);
		lat_loaded_release(&l);
		return 2;
	}
	while ((ret = lat_event_next(l.blocks[0]->events, &ev)) > 0) {
		n++;
		per[ev.type]++;
		if (mode == 1)
			dump(&ev);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (mode == 2)
		for (int i = 0; i < LAT_EV_NTYPES; i++)
			if (per[i])
				printf("%s %llu\n", type_names[i], (unsigned long long)per[i]);
	if (mode == 0) {
		double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
		uint64_t lines = ft_source_lines(l.blocks[0]->events);

		double cpu;

		getrusage(RUSAGE_SELF, &ru);
		cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
		      (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
		/* the machine is shared: CPU time is what one core spent on the reading */
		printf("lines %llu events %llu skipped %zu wall_s %.3f cpu_s %.3f lines/wall_s %.0f "
		       "lines/cpu_s %.0f peak_rss_kib %ld\n", (unsigned long long)lines,
		       (unsigned long long)n, ft_source_skipped(l.blocks[0]->events), s, cpu,
		       (double)lines / s, (double)lines / cpu, ru.ru_maxrss);
	}
	lat_loaded_release(&l);
	return ret < 0 ? 1 : 0;
}
