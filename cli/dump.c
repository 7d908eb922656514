// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `latscope dump FILE`: one line per event of any stream reader, for
 * debugging readers and for comparing them with trace-cmd report.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "latscope/env.h"
#include "latscope/input.h"
#include "cli.h"
#include "options.h"

void usage_dump(FILE *out)
{
	fprintf(out,
		"usage: latscope dump [options] FILE\n\n"
		"Prints every event of a trace (trace.dat, ...) one per line:\n"
		"  SECONDS CPU PID COMM TYPE FIELDS   (blanks in COMM print as _)\n\n"
		"  -f, --format NAME   read with this reader\n"
		"      --buffer NAME   trace.dat: the instance to read\n"
		"      --jobs N        threads reading (default: the CPUs, at most 16)\n"
		"  -n, --count N       stop after N events\n"
		"  -s, --stats         print only counts per event type and name\n\n"
		"exit status: 0 ok (a warning on stderr if the trace ends early or\n"
		"             damaged data was skipped), 1 reading failed midway or the\n"
		"             dump could not be written,\n"
		"             2 usage error or input unreadable\n");
}

static const char *const type_names[LAT_EV_NTYPES] = {
	[LAT_EV_OTHER] = "other", [LAT_EV_SWITCH] = "switch", [LAT_EV_WAKING] = "waking",
	[LAT_EV_WAKEUP] = "wakeup", [LAT_EV_WAKEUP_NEW] = "wakeup_new",
	[LAT_EV_MIGRATE] = "migrate", [LAT_EV_FORK] = "fork", [LAT_EV_EXEC] = "exec",
	[LAT_EV_EXIT] = "exit", [LAT_EV_IRQ_ENTRY] = "irq_entry", [LAT_EV_IRQ_EXIT] = "irq_exit",
	[LAT_EV_SOFTIRQ_ENTRY] = "softirq_entry", [LAT_EV_SOFTIRQ_EXIT] = "softirq_exit",
	[LAT_EV_MARKER] = "marker", [LAT_EV_STACK] = "stack", [LAT_EV_LOST] = "lost",
	[LAT_EV_TIMER_ENTRY] = "timer_entry", [LAT_EV_TIMER_EXIT] = "timer_exit",
	[LAT_EV_SETSCHED] = "setscheduler", [LAT_EV_SETSCHED_EXIT] = "setscheduler_exit",
	[LAT_EV_TIMER_START] = "timer_start", [LAT_EV_TIMER_CANCEL] = "timer_cancel",
};

/* An hrtimer's fields: " hrtimer=0x.. [expires=N softexpires=N] [now=N]", unknown ones left out. */
static void timer_fields(FILE *o, const struct lat_event *e)
{
	fprintf(o, " hrtimer=0x%" PRIx64, e->u.timer.hrtimer);
	if (e->u.timer.expires != LAT_TIMER_UNKNOWN)
		fprintf(o, " expires=%" PRId64, e->u.timer.expires);
	if (e->u.timer.softexpires != LAT_TIMER_UNKNOWN)
		fprintf(o, " softexpires=%" PRId64, e->u.timer.softexpires);
	if (e->u.timer.now != LAT_TIMER_UNKNOWN)
		fprintf(o, " now=%" PRId64, e->u.timer.now);
}

/* A steal marker's values as the reader parsed them: " [steal cpu=N steal_ns=V ...]". */
static void steal_fields(FILE *o, const struct lat_steal *s)
{
	const int64_t v[] = { s->steal_ns, s->guest_ns, s->idle_ns, s->iowait_ns, s->since_ns };
	static const char *const k[] = { "steal_ns", "guest_ns", "idle_ns", "iowait_ns",
					 "since_ns" };

	fprintf(o, " [steal cpu=%d", s->cpu);
	for (size_t i = 0; i < LAT_ARRAY_SIZE(v); i++)
		if (v[i] == LAT_ENV_UNKNOWN)
			fprintf(o, " %s=?", k[i]);
		else
			fprintf(o, " %s=%" PRId64, k[i], v[i]);
	fputc(']', o);
}

static void print_event(FILE *o, const struct lat_event *e)
{
	char comm[LAT_COMM_LEN];

	/* the comm column stays one word so that the type is always column 5 */
	snprintf(comm, sizeof(comm), "%s", e->comm[0] ? e->comm : "-");
	for (char *p = comm; *p; p++)
		if (*p == ' ' || *p == '\t')
			*p = '_';
	fprintf(o, "%" PRIu64 ".%09" PRIu64 " %d %d %s %s", e->ts_ns / 1000000000,
		e->ts_ns % 1000000000, e->cpu, e->pid, comm,
		(unsigned)e->type < LAT_EV_NTYPES ? type_names[e->type] : "?");
	switch (e->type) {
	case LAT_EV_SWITCH:
		fprintf(o, " %s:%d [%d] %s(0x%x) ==> %s:%d [%d]", e->u.sw.prev_comm,
			e->u.sw.prev_pid, e->u.sw.prev_prio,
			lat_task_state_name(e->u.sw.prev_state), e->u.sw.prev_state_raw,
			e->u.sw.next_comm, e->u.sw.next_pid, e->u.sw.next_prio);
		break;
	case LAT_EV_WAKING:
	case LAT_EV_WAKEUP:
	case LAT_EV_WAKEUP_NEW:
		fprintf(o, " %s:%d [%d] target=%d", e->u.wake.comm, e->u.wake.pid, e->u.wake.prio,
			e->u.wake.target_cpu);
		break;
	case LAT_EV_MIGRATE:
		fprintf(o, " %s:%d [%d] %d->%d", e->u.migrate.comm, e->u.migrate.pid,
			e->u.migrate.prio, e->u.migrate.orig_cpu, e->u.migrate.dest_cpu);
		break;
	case LAT_EV_FORK:
		fprintf(o, " %s:%d child=%s:%d", e->u.task.comm, e->u.task.pid,
			e->u.task.child_comm, e->u.task.child_pid);
		break;
	case LAT_EV_EXEC:
	case LAT_EV_EXIT:
		fprintf(o, " %s:%d", e->u.task.comm, e->u.task.pid);
		break;
	case LAT_EV_IRQ_ENTRY:
	case LAT_EV_IRQ_EXIT:
	case LAT_EV_SOFTIRQ_ENTRY:
	case LAT_EV_SOFTIRQ_EXIT:
		fprintf(o, " %d %s", e->u.irq.irq, e->u.irq.name ? e->u.irq.name : "-");
		if (e->type == LAT_EV_IRQ_EXIT)
			fprintf(o, " ret=%d", e->u.irq.ret);
		break;
	case LAT_EV_TIMER_ENTRY:
	case LAT_EV_TIMER_EXIT:
	case LAT_EV_TIMER_START:
	case LAT_EV_TIMER_CANCEL:
		fprintf(o, " %d %s", e->u.timer.irq, e->u.timer.name ? e->u.timer.name : "-");
		timer_fields(o, e);
		break;
	case LAT_EV_MARKER:
		fputc(' ', o);
		for (size_t i = 0; i < e->u.marker.len; i++) {
			unsigned char ch = (unsigned char)e->u.marker.text[i];

			fputc(ch >= 32 && ch < 127 ? ch : '?', o);
		}
		if (e->u.marker.steal)
			steal_fields(o, e->u.marker.steal);
		break;
	case LAT_EV_STACK:
		fprintf(o, " depth=%u", e->u.stack.depth);
		for (uint32_t i = 0; i < e->u.stack.depth; i++) {
			const char *sym = e->u.stack.syms ? e->u.stack.syms[i] : NULL;

			if (sym)
				fprintf(o, "%s%s", i ? ";" : " ", sym);
			else
				fprintf(o, "%s0x%" PRIx64, i ? ";" : " ", e->u.stack.ips[i]);
		}
		break;
	case LAT_EV_LOST:
		fprintf(o, " count=%" PRIu64, e->u.lost.count);
		break;
	case LAT_EV_SETSCHED:
		fprintf(o, " pid=%d policy=%d", e->u.setsched.pid, e->u.setsched.policy);
		break;
	case LAT_EV_SETSCHED_EXIT:
		fprintf(o, " ret=%" PRId64, e->u.setsched.ret);
		break;
	default:
		fprintf(o, " %s", e->name ? e->name : "-");
		break;
	}
	fputc('\n', o);
}

struct dump_count {
	char *name;		/* owned: an event's name is lent only until the next event */
	uint64_t n;
};

static int count_event(struct dump_count **tab, size_t *n, size_t *cap, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*tab)[i].name, name)) {
			(*tab)[i].n++;
			return 0;
		}
	if (lat_grow(tab, cap, *n + 1, sizeof(**tab)) < 0)
		return -LAT_ENOMEM;
	(*tab)[*n].name = strdup(name);
	if (!(*tab)[*n].name)
		return -LAT_ENOMEM;
	(*tab)[(*n)++].n = 1;
	return 0;
}

/* dump's own settings. */
struct dump_cmd {
	uint64_t max;		/* -n, UINT64_MAX: all */
	int stats;
};

static int set_count(struct cli_ctx *c, const char *arg)
{
	char *end;

	((struct dump_cmd *)c->own)->max = strtoull(arg, &end, 10);
	if (*end || !*arg) {
		fprintf(stderr, "%s: --count: expected a number\n", c->cmd);
		return -1;
	}
	return 0;
}

static int set_stats(struct cli_ctx *c, const char *arg)
{
	((struct dump_cmd *)c->own)->stats = 1;
	return 0;
}

static const struct cli_opt dump_options[] = {
	{ "count", 'n', required_argument, set_count },
	{ "stats", 's', no_argument, set_stats },
	{ NULL, 0, 0, NULL },
};

static const struct cli_opt *const dump_tables[] = { cli_read_options, dump_options, NULL };

int cmd_dump(int argc, char **argv)
{
	struct dump_cmd d = { .max = UINT64_MAX, .stats = 0 };
	struct cli_ctx cx;
	struct lat_loaded l;
	struct lat_event_source *src;
	struct lat_event ev;
	struct dump_count *tab = NULL;
	size_t ntab = 0, cap = 0;
	uint64_t max, nev = 0;
	int stats, ret, rc = CLI_EXIT_OK;

	cli_ctx_init(&cx, argv[0], &d);
	optind = cli_parse(argc, argv, dump_tables, 0, &cx, usage_dump);
	if (optind < 0)
		return CLI_EXIT_USAGE;
	max = d.max;
	stats = d.stats;
	if (optind != argc - 1) {
		usage_dump(stderr);
		return CLI_EXIT_USAGE;
	}
	ret = lat_load(&l, argv[optind], &cx.read);
	if (ret < 0 || l.nblocks != 1 || !l.blocks[0]->events) {
		fprintf(stderr, "latscope dump: %s: %s\n", argv[optind],
			ret < 0 ? l.error : "not an event stream");
		lat_loaded_release(&l);
		return CLI_EXIT_USAGE;
	}
	src = l.blocks[0]->events;
	while (nev < max && (ret = lat_event_next(src, &ev)) > 0) {
		nev++;
		if (!stats) {
			print_event(stdout, &ev);
			continue;
		}
		if (count_event(&tab, &ntab, &cap,
				ev.type == LAT_EV_OTHER && ev.name ? ev.name :
				type_names[ev.type]) < 0) {
			ret = -LAT_ENOMEM;
			break;
		}
	}
	if (ret < 0) {
		fprintf(stderr, "latscope dump: %s: %s after %" PRIu64 " events\n", argv[optind],
			lat_strerror(ret), nev);
		rc = CLI_EXIT_FAIL;
	}
	if (stats) {
		for (size_t i = 0; i < ntab; i++)
			printf("%-24s %" PRIu64 "\n", tab[i].name, tab[i].n);
		printf("%-24s %" PRIu64 "\n", "total", nev);
		if (src->cpu_overrun)
			for (int i = 0; i < src->ncpus; i++)
				printf("overrun CPU%d %" PRIu64 "\n", i, src->cpu_overrun[i]);
	}
	if (src->stop_reason)
		fprintf(stderr, "latscope dump: %s: warning: reading stopped early: %s\n",
			argv[optind], src->stop_reason);
	if (src->skip_reason)
		fprintf(stderr, "latscope dump: %s: warning: %s\n", argv[optind], src->skip_reason);
	for (size_t i = 0; i < ntab; i++)
		free(tab[i].name);
	free(tab);
	lat_loaded_release(&l);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "latscope dump: cannot write the dump\n");
		return CLI_EXIT_FAIL;
	}
	return rc;
}
