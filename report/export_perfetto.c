// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `latscope export --perfetto`: the Trace Event Format (the JSON that
 * chrome://tracing and ui.perfetto.dev open).  Two processes of tracks:
 * "CPUs", one thread per CPU with the running slices, markers and lost-events
 * marks; "Tasks", one thread per task (tid = the kernel pid) with its running
 * slices and its waits for a CPU.  A flow arrow goes from the waker's CPU at
 * the waking to the wakee's wait.  Written as the analysis goes, in its order:
 * the viewers sort by time.  Layout: docs/export.md.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "latscope/export.h"
#include "latscope/json.h"

/* Synthetic ids no kernel pid reaches (PID_MAX_LIMIT is 4194304). */
#define PF_TASKS_PID 4194304
#define PF_CPUS_PID 4194305
#define PF_CPU_TID0 4194306

struct lat_pf_task {
	int32_t pid;		/* 0: empty slot (pid 0 is the idle task: no track) */
	char comm[LAT_COMM_LEN];
};

static size_t task_slot(const struct lat_perfetto *p, int32_t pid)
{
	size_t i = ((uint32_t)pid * 2654435761u) & (p->tcap - 1);

	while (p->tasks[i].pid && p->tasks[i].pid != pid)
		i = (i + 1) & (p->tcap - 1);
	return i;
}

/* Notes the task's latest comm.  Fails only on allocation (p->oom). */
static void note_task(struct lat_perfetto *p, int32_t pid, const char *comm)
{
	struct lat_pf_task *t;

	if (pid <= 0)
		return;
	if ((p->ntasks + 1) * 2 > p->tcap) {
		struct lat_pf_task *old = p->tasks;
		size_t ocap = p->tcap, ncap = ocap ? ocap * 2 : 256;

		p->tasks = calloc(ncap, sizeof(*p->tasks));
		if (!p->tasks) {
			p->tasks = old;
			p->oom = 1;
			return;
		}
		p->tcap = ncap;
		for (size_t i = 0; i < ocap; i++)
			if (old[i].pid)
				p->tasks[task_slot(p, old[i].pid)] = old[i];
		free(old);
	}
	t = &p->tasks[task_slot(p, pid)];
	if (!t->pid) {
		t->pid = pid;
		p->ntasks++;
	}
	if (comm[0])
		memcpy(t->comm, comm, LAT_COMM_LEN);
	t->comm[LAT_COMM_LEN - 1] = 0;
}

static void note_cpu(struct lat_perfetto *p, int32_t cpu)
{
	if (cpu > p->max_cpu)
		p->max_cpu = cpu;
}

/* Microseconds with the nanoseconds kept: "1234.567" */
static void put_us(FILE *o, const char *key, uint64_t ns)
{
	fprintf(o, ",\"%s\":%" PRIu64 ".%03u", key, ns / 1000, (unsigned)(ns % 1000));
}

static void put_str(FILE *o, const char *key, const char *s, size_t len)
{
	fprintf(o, ",\"%s\":\"", key);
	lat_json_escape(o, s, len);
	fputc('"', o);
}

/* Opens an event: {"ph":"X","pid":..,"tid":.. ; the caller adds fields and closes it. */
static void ev_open(struct lat_perfetto *p, char ph, int32_t pid, int32_t tid)
{
	fprintf(p->out, "%s{\"ph\":\"%c\",\"pid\":%d,\"tid\":%d", p->nevents ? ",\n" : "", ph,
		pid, tid);
	p->nevents++;
}

static const char *comm_or(const char *comm, const char *dflt)
{
	return comm[0] ? comm : dflt;
}

static void pf_slice(void *ctx, const struct lat_run_slice *s)
{
	struct lat_perfetto *p = ctx;
	FILE *o = p->out;
	char name[48];

	note_cpu(p, s->cpu);
	note_task(p, s->pid, s->comm);
	/* a slice whose start was not seen cannot be drawn; the rows export keeps it */
	if (!s->start_known)
		return;
	snprintf(name, sizeof(name), "%.16s:%d", comm_or(s->comm, "?"), s->pid);
	ev_open(p, 'X', PF_CPUS_PID, PF_CPU_TID0 + s->cpu);
	put_str(o, "name", name, strlen(name));
	fputs(",\"cat\":\"running\"", o);
	put_us(o, "ts", s->start_ns);
	put_us(o, "dur", s->end_ns - s->start_ns);
	fprintf(o, ",\"args\":{\"tid\":%d", s->pid);
	if (s->prio != LAT_PRIO_UNKNOWN)
		fprintf(o, ",\"prio\":%d", s->prio);
	fprintf(o, ",\"end\":\"%s\"", lat_slice_end_name(s->end));
	if (s->end == LAT_SLICE_SWITCH)
		fprintf(o, ",\"state\":\"%s\"", lat_task_state_name(s->state));
	fputs("}}", o);
	if (s->pid <= 0)
		return;
	ev_open(p, 'X', PF_TASKS_PID, s->pid);
	fputs(",\"name\":\"running\",\"cat\":\"running\"", o);
	put_us(o, "ts", s->start_ns);
	put_us(o, "dur", s->end_ns - s->start_ns);
	fprintf(o, ",\"args\":{\"cpu\":%d,\"end\":\"%s\"}}", s->cpu, lat_slice_end_name(s->end));
}

static void pf_wait(void *ctx, const struct lat_wait_rec *rec)
{
	struct lat_perfetto *p = ctx;
	const struct lat_wake_link *l = rec->w;
	const struct lat_wake_waker *k = &l->waker;
	FILE *o = p->out;
	int flow = k->cpu >= 0 && l->kind != LAT_WAIT_PREEMPT;

	note_cpu(p, l->cpu);
	note_task(p, l->pid, l->comm);
	ev_open(p, 'X', PF_TASKS_PID, l->pid);
	fprintf(o, ",\"name\":\"runnable (%s)\",\"cat\":\"wait\"", lat_wait_kind_name(l->kind));
	put_us(o, "ts", l->start_ns);
	put_us(o, "dur", l->end_ns - l->start_ns);
	fprintf(o, ",\"args\":{\"latency_ns\":%" PRId64 ",\"cpu\":%d,\"queued_cpu\":%d,"
		"\"trusted\":%s", l->latency_ns, l->cpu, rec->queued_cpu,
		rec->trusted ? "true" : "false");
	if (rec->verdict)
		put_str(o, "verdict", rec->verdict, strlen(rec->verdict));
	if (k->cpu >= 0) {
		fprintf(o, ",\"waker_tid\":%d,\"waker_cpu\":%d,\"waker_ctx\":\"%s\"", k->pid,
			k->cpu, lat_wake_ctx_name(k->ctx));
		put_str(o, "waker_comm", k->comm, strnlen(k->comm, LAT_COMM_LEN));
		if (k->ctx != LAT_WAKE_CTX_TASK)
			put_str(o, "waker_irq", k->irq_name, strnlen(k->irq_name,
								      sizeof(k->irq_name)));
	}
	fputs("}}", o);
	if (!flow)
		return;
	/* the arrow: from the waker's CPU track at the waking to the wait it started */
	note_cpu(p, k->cpu);
	p->nflows++;
	ev_open(p, 's', PF_CPUS_PID, PF_CPU_TID0 + k->cpu);
	fputs(",\"name\":\"wakeup\",\"cat\":\"wakeup\"", o);
	fprintf(o, ",\"id\":%" PRIu64, p->nflows);
	put_us(o, "ts", l->start_ns);
	fputc('}', o);
	ev_open(p, 'f', PF_TASKS_PID, l->pid);
	fputs(",\"name\":\"wakeup\",\"cat\":\"wakeup\",\"bp\":\"e\"", o);
	fprintf(o, ",\"id\":%" PRIu64, p->nflows);
	put_us(o, "ts", l->start_ns);
	fputc('}', o);
}

static void pf_marker(void *ctx, const struct lat_event *ev, int64_t lat_ns)
{
	struct lat_perfetto *p = ctx;
	FILE *o = p->out;

	note_cpu(p, ev->cpu);
	ev_open(p, 'i', PF_CPUS_PID, PF_CPU_TID0 + ev->cpu);
	fprintf(o, ",\"name\":\"%s\",\"cat\":\"marker\",\"s\":\"t\"",
		lat_ns >= 0 ? "sample" : "marker");
	put_us(o, "ts", ev->ts_ns);
	fputs(",\"args\":{", o);
	if (lat_ns >= 0)
		fprintf(o, "\"lat_ns\":%" PRId64 ",", lat_ns);
	fprintf(o, "\"tid\":%d", ev->pid);
	put_str(o, "text", ev->u.marker.text ? ev->u.marker.text : "",
		ev->u.marker.text ? ev->u.marker.len : 0);
	fputs("}}", o);
}

static void pf_lost(void *ctx, const struct lat_wake_gap *g)
{
	struct lat_perfetto *p = ctx;
	FILE *o = p->out;

	note_cpu(p, g->cpu);
	ev_open(p, 'i', PF_CPUS_PID, PF_CPU_TID0 + g->cpu);
	fputs(",\"name\":\"lost events\",\"cat\":\"lost\",\"s\":\"t\"", o);
	put_us(o, "ts", g->to_ns);
	fprintf(o, ",\"args\":{\"count\":%" PRIu64 ",\"since_ns\":%" PRIu64 ",\"until_ns\":%"
		PRIu64 "}}", g->count, g->from_ns, g->to_ns);
}

/*
 * A stall: an instant at the start of the silence on the CPU's track (a slice
 * would overlap the task that kept running there), on every track (scope "g")
 * when every CPU was silent.
 */
static void pf_stall(void *ctx, const struct lat_wake_stall *s)
{
	struct lat_perfetto *p = ctx;
	FILE *o = p->out;

	if (s->cpu >= 0)
		note_cpu(p, s->cpu);
	ev_open(p, 'i', PF_CPUS_PID, PF_CPU_TID0 + (s->cpu >= 0 ? s->cpu : 0));
	fprintf(o, ",\"name\":\"stall\",\"cat\":\"stall\",\"s\":\"%s\"", s->cpu >= 0 ? "t" : "g");
	put_us(o, "ts", s->from_ns);
	fprintf(o, ",\"args\":{\"cpu\":%d,\"dur_ns\":%" PRIu64 ",\"until_ns\":%" PRIu64
		",\"tid\":%d", s->cpu, s->to_ns - s->from_ns, s->to_ns, s->pid);
	put_str(o, "comm", s->comm, strnlen(s->comm, LAT_COMM_LEN));
	fprintf(o, ",\"waiting_tid\":%d", s->waiting_pid);
	put_str(o, "waiting_comm", s->waiting_comm, strnlen(s->waiting_comm, LAT_COMM_LEN));
	fputs("}}", o);
}

void lat_perfetto_begin(struct lat_perfetto *p, FILE *out)
{
	memset(p, 0, sizeof(*p));
	p->out = out;
	p->max_cpu = -1;
	fputs("{\"traceEvents\":[\n", out);
}

void lat_perfetto_sink(struct lat_perfetto *p, struct lat_wake_sink *sink)
{
	memset(sink, 0, sizeof(*sink));
	sink->ctx = p;
	sink->slice = pf_slice;
	sink->wait = pf_wait;
	sink->marker = pf_marker;
	sink->lost = pf_lost;
	sink->stall = pf_stall;
}

static int cmp_task(const void *a, const void *b)
{
	const struct lat_pf_task *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

static void meta(struct lat_perfetto *p, int32_t pid, int32_t tid, const char *what,
		 const char *name, int64_t sort)
{
	FILE *o = p->out;

	ev_open(p, 'M', pid, tid);
	fprintf(o, ",\"name\":\"%s\",\"args\":{", what);
	if (name) {
		fputs("\"name\":\"", o);
		lat_json_escape(o, name, strlen(name));
		fputc('"', o);
	} else {
		fprintf(o, "\"sort_index\":%" PRId64, sort);
	}
	fputs("}}", o);
}

int lat_perfetto_end(struct lat_perfetto *p, const char *trace, const char *host)
{
	size_t n = 0;
	char name[48];

	meta(p, PF_CPUS_PID, PF_CPU_TID0, "process_name", "CPUs", 0);
	meta(p, PF_CPUS_PID, PF_CPU_TID0, "process_sort_index", NULL, 0);
	for (int32_t c = 0; c <= p->max_cpu; c++) {
		snprintf(name, sizeof(name), "CPU %d", c);
		meta(p, PF_CPUS_PID, PF_CPU_TID0 + c, "thread_name", name, 0);
		meta(p, PF_CPUS_PID, PF_CPU_TID0 + c, "thread_sort_index", NULL, c);
	}
	meta(p, PF_TASKS_PID, PF_TASKS_PID, "process_name", "Tasks", 0);
	meta(p, PF_TASKS_PID, PF_TASKS_PID, "process_sort_index", NULL, 1);
	/* by pid, packed to the front of the table, which is not used afterwards */
	for (size_t i = 0; i < p->tcap; i++)
		if (p->tasks[i].pid)
			p->tasks[n++] = p->tasks[i];
	if (n)
		qsort(p->tasks, n, sizeof(*p->tasks), cmp_task);
	for (size_t i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "%.16s", comm_or(p->tasks[i].comm, "?"));
		meta(p, PF_TASKS_PID, p->tasks[i].pid, "thread_name", name, 0);
	}
	fputs("\n],\n\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"latscope export\"",
	      p->out);
	if (trace)
		put_str(p->out, "trace", trace, strlen(trace));
	if (host)
		put_str(p->out, "host", host, strlen(host));
	fputs("}}\n", p->out);
	free(p->tasks);
	p->tasks = NULL;
	p->tcap = p->ntasks = 0;
	return p->oom ? -LAT_ENOMEM : 0;
}
