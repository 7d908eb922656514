// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `latscope export --perfetto`: the Trace Event Format (the JSON that
 * ui.perfetto.dev and chrome://tracing open), written as the analysis goes,
 * in its order (the viewers sort by time).  The records: the running slices
 * on the CPUs' tracks and the tasks' own, the waits on the tasks' tracks with
 * their verdicts, a zero-length "waking" slice on the waker's track (a task's,
 * or the CPU's irq or softirq track) as the source of the arrow to the wait,
 * irq and softirq handlers, markers, lost events, stalls, and the CPUs' busy
 * and run-queue counters.  The tracks are export_perfetto_tracks.c's.  Layout:
 * docs/export.md.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "export_perfetto.h"

static const char *comm_or(const char *comm, const char *dflt)
{
	return comm[0] ? comm : dflt;
}

/* CPU busy (a task other than idle runs) from the slices, which come in order per CPU. */
static void busy(struct lat_perfetto *p, struct lat_pf_cpu *c, const struct lat_run_slice *s)
{
	if (c->busy && s->start_ns <= c->busy_to) {
		if (s->end_ns > c->busy_to)
			c->busy_to = s->end_ns;
		return;
	}
	if (c->busy)
		pf_count(p, s->cpu, &c->c_busy, "busy", c->busy_to, 0);
	pf_count(p, s->cpu, &c->c_busy, "busy", s->start_ns, 1);
	c->busy = 1;
	c->busy_to = s->end_ns;
}

static void pf_slice(void *ctx, const struct lat_run_slice *s)
{
	struct lat_perfetto *p = ctx;
	struct lat_pf_cpu *c = pf_cpu(p, s->cpu);
	struct lat_pf_task *t = pf_task(p, s->pid, s->comm);
	FILE *o = p->out;
	char name[48];

	/* a slice whose start was not seen cannot be drawn; the rows export keeps it */
	if (!s->start_known || !c)
		return;
	if (s->pid > 0)
		busy(p, c, s);
	if (!pf_in_window(p, s->start_ns, s->end_ns) || (p->o.task && !(t && t->match)))
		return;
	snprintf(name, sizeof(name), "%.16s:%d", comm_or(s->comm, "?"), s->pid);
	pf_open(p, 'X', PF_CPUS_PID, PF_CPU_TID0 + s->cpu);
	pf_us(o, "ts", s->start_ns);
	pf_us(o, "dur", s->end_ns - s->start_ns);
	pf_str(o, "name", name, strlen(name));
	if (s->end != LAT_SLICE_SWITCH)
		fprintf(o, ",\"args\":{\"end\":\"%s\"}", lat_slice_end_name(s->end));
	fputc('}', o);
	if (!t)
		return;
	t->drawn = 1;
	pf_open(p, 'X', pf_task_pid(t), s->pid);
	pf_us(o, "ts", s->start_ns);
	pf_us(o, "dur", s->end_ns - s->start_ns);
	fprintf(o, ",\"name\":\"running\",\"args\":{\"cpu\":%d", s->cpu);
	if (s->prio != LAT_PRIO_UNKNOWN)
		fprintf(o, ",\"prio\":%d", s->prio);
	if (s->end == LAT_SLICE_SWITCH)
		fprintf(o, ",\"state\":\"%s\"}}", lat_task_state_name(s->state));
	else
		fprintf(o, ",\"end\":\"%s\"}}", lat_slice_end_name(s->end));
}

static const char *basis_name(enum lat_verdict_basis b)
{
	switch (b) {
	case LAT_VBASIS_MOVED:
		return "moved";
	case LAT_VBASIS_INFERRED:
		return "inferred";
	case LAT_VBASIS_UNSEEN:
		return "unseen";
	default:
		return "parts";
	}
}

/* The verdict and what it rests on: the basis, its part, every cause with time. */
static void verdict_args(FILE *o, const struct lat_wait_rec *rec)
{
	const struct lat_verdict_evidence *e = rec->evidence;
	const struct { const char *key; int64_t ns; } parts[] = {
		{ "same_ns", e->same_ns }, { "higher_ns", e->higher_ns },
		{ "lower_ns", e->lower_ns }, { "irq_ns", e->irq_ns }, { "stall_ns", e->stall_ns },
		{ "idle_ns", e->idle_ns }, { "unknown_ns", e->unknown_ns },
		{ "queued_ns", e->queued_ns },
	};

	pf_str(o, "verdict", rec->verdict, strlen(rec->verdict));
	fprintf(o, ",\"basis\":\"%s\",\"part_ns\":%" PRId64, basis_name(e->basis), e->part_ns);
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (parts[i].ns)
			fprintf(o, ",\"%s\":%" PRId64, parts[i].key, parts[i].ns);
}

void pf_waker_name(char *w, size_t n, const struct lat_wake_waker *k)
{
	const char *irq = lat_wake_irq_label(k);

	if (k->ctx == LAT_WAKE_CTX_TASK)
		snprintf(w, n, "%.16s:%d", comm_or(k->comm, "?"), k->pid);
	else if (irq[0])
		snprintf(w, n, "%s:%.24s", lat_wake_ctx_name(k->ctx), irq);
	else
		snprintf(w, n, "%s", lat_wake_ctx_name(k->ctx));
}

static void waker_arg(FILE *o, const struct lat_wake_waker *k)
{
	char w[64];

	pf_waker_name(w, sizeof(w), k);
	pf_str(o, "waker", w, strlen(w));
}

/*
 * The arrow's source: a zero-length slice at the waking on the waker's track
 * (Perfetto draws a flow from the end of its source slice to the start of its
 * target): the task's, the CPU's irq or softirq track for a waking in an
 * interrupt, the CPU's track for the idle task.
 */
static void waking(struct lat_perfetto *p, const struct lat_wake_link *l, uint64_t id)
{
	const struct lat_wake_waker *k = &l->waker;
	struct lat_pf_task *t = NULL;
	int32_t pid = PF_CPUS_PID, tid;
	FILE *o = p->out;
	struct lat_pf_cpu *c = pf_cpu(p, k->cpu);

	if (k->ctx == LAT_WAKE_CTX_TASK && k->pid > 0 && (t = pf_task(p, k->pid, k->comm))) {
		pid = pf_task_pid(t);
		tid = k->pid;
		t->drawn = 1;
	} else if (k->ctx == LAT_WAKE_CTX_TASK) {
		tid = PF_CPU_TID0 + k->cpu;
	} else {
		int soft = k->ctx == LAT_WAKE_CTX_SOFTIRQ;

		tid = PF_IRQ_TID0 + 2 * k->cpu + soft;
		if (c)
			c->irq_used[soft] = 1;
	}
	pf_open(p, 'X', pid, tid);
	pf_us(o, "ts", l->start_ns);
	fprintf(o, ",\"dur\":0,\"name\":\"waking\",\"bind_id\":%" PRIu64 ",\"flow_out\":true,"
		"\"args\":{\"tid\":%d}}", id, l->pid);
}

static void pf_wait(void *ctx, const struct lat_wait_rec *rec)
{
	struct lat_perfetto *p = ctx;
	const struct lat_wake_link *l = rec->w;
	struct lat_pf_task *t = pf_task(p, l->pid, l->comm);
	FILE *o = p->out;
	int flow = l->waker.cpu >= 0 && l->kind != LAT_WAIT_PREEMPT;

	pf_cpu(p, l->cpu);
	if (!t || !pf_in_window(p, l->start_ns, l->end_ns) || (p->o.task && !t->match))
		return;
	t->drawn = 1;
	pf_open(p, 'X', pf_task_pid(t), l->pid);
	pf_us(o, "ts", l->start_ns);
	pf_us(o, "dur", l->end_ns - l->start_ns);
	fprintf(o, ",\"name\":\"runnable (%s)\"", lat_wait_kind_name(l->kind));
	if (flow)
		fprintf(o, ",\"bind_id\":%" PRIu64 ",\"flow_in\":true", ++p->nflows);
	fprintf(o, ",\"args\":{\"cpu\":%d", l->cpu);
	if (rec->queued_cpu >= 0 && rec->queued_cpu != l->cpu)
		fprintf(o, ",\"queued_cpu\":%d", rec->queued_cpu);
	if (rec->prio != LAT_PRIO_UNKNOWN)
		fprintf(o, ",\"prio\":%d", rec->prio);
	if (!rec->trusted)
		fputs(",\"trusted\":false", o);
	if (l->waker.cpu >= 0)
		waker_arg(o, &l->waker);
	if (rec->verdict && rec->evidence)
		verdict_args(o, rec);
	fputs("}}", o);
	if (flow)
		waking(p, l, p->nflows);
}

static void pf_irq(void *ctx, const struct lat_irq_slice *q)
{
	struct lat_perfetto *p = ctx;
	struct lat_pf_cpu *c = pf_cpu(p, q->cpu);

	if (!c || !pf_in_window(p, q->start_ns, q->end_ns))
		return;
	c->irq_used[q->soft] = 1;
	pf_open(p, 'X', PF_CPUS_PID, PF_IRQ_TID0 + 2 * q->cpu + q->soft);
	pf_us(p->out, "ts", q->start_ns);
	pf_us(p->out, "dur", q->end_ns - q->start_ns);
	pf_str(p->out, "name", q->name, strlen(q->name));
	fputc('}', p->out);
}

static void pf_runq(void *ctx, int32_t cpu, uint64_t ts, uint32_t depth)
{
	struct lat_perfetto *p = ctx;
	struct lat_pf_cpu *c = pf_cpu(p, cpu);

	if (c)
		pf_count(p, cpu, &c->c_runq, "runnable", ts, depth);
}

static void pf_marker(void *ctx, const struct lat_event *ev, int64_t lat_ns)
{
	struct lat_perfetto *p = ctx;
	FILE *o = p->out;

	if (!pf_cpu(p, ev->cpu) || !pf_in_window(p, ev->ts_ns, ev->ts_ns))
		return;
	pf_open(p, 'i', PF_CPUS_PID, PF_CPU_TID0 + ev->cpu);
	fprintf(o, ",\"name\":\"%s\",\"cat\":\"marker\",\"s\":\"t\"",
		lat_ns >= 0 ? "sample" : "marker");
	pf_us(o, "ts", ev->ts_ns);
	fputs(",\"args\":{", o);
	if (lat_ns >= 0)
		fprintf(o, "\"lat_ns\":%" PRId64 ",", lat_ns);
	fprintf(o, "\"tid\":%d", ev->pid);
	pf_str(o, "text", ev->u.marker.text ? ev->u.marker.text : "",
	       ev->u.marker.text ? ev->u.marker.len : 0);
	fputs("}}", o);
}

static void pf_lost(void *ctx, const struct lat_wake_gap *g)
{
	struct lat_perfetto *p = ctx;
	FILE *o = p->out;

	if (!pf_cpu(p, g->cpu) || !pf_in_window(p, g->to_ns, g->to_ns))
		return;
	pf_open(p, 'i', PF_CPUS_PID, PF_CPU_TID0 + g->cpu);
	fputs(",\"name\":\"lost events\",\"cat\":\"lost\",\"s\":\"t\"", o);
	pf_us(o, "ts", g->to_ns);
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

	pf_cpu(p, s->cpu >= 0 ? s->cpu : 0);
	if (!pf_in_window(p, s->from_ns, s->to_ns))
		return;
	pf_open(p, 'i', PF_CPUS_PID, PF_CPU_TID0 + (s->cpu >= 0 ? s->cpu : 0));
	fprintf(o, ",\"name\":\"stall\",\"cat\":\"stall\",\"s\":\"%s\"", s->cpu >= 0 ? "t" : "g");
	pf_us(o, "ts", s->from_ns);
	fprintf(o, ",\"args\":{\"cpu\":%d,\"dur_ns\":%" PRIu64 ",\"until_ns\":%" PRIu64
		",\"tid\":%d", s->cpu, s->to_ns - s->from_ns, s->to_ns, s->pid);
	pf_str(o, "comm", s->comm, strnlen(s->comm, LAT_COMM_LEN));
	fprintf(o, ",\"waiting_tid\":%d", s->waiting_pid);
	pf_str(o, "waiting_comm", s->waiting_comm, strnlen(s->waiting_comm, LAT_COMM_LEN));
	fputs("}}", o);
}

void lat_perfetto_begin(struct lat_perfetto *p, FILE *out, const struct lat_perfetto_opts *o)
{
	char *end;
	long tid;

	memset(p, 0, sizeof(*p));
	p->out = out;
	p->max_cpu = -1;
	p->task_tid = -1;
	if (o)
		p->o = *o;
	if (p->o.task) {
		tid = strtol(p->o.task, &end, 10);
		if (end != p->o.task && !*end && tid > 0 && tid <= INT32_MAX)
			p->task_tid = (int32_t)tid;
	}
	fputs("{\"traceEvents\":[\n", out);
}

void lat_perfetto_source(struct lat_perfetto *p, const struct lat_event_source *src)
{
	p->tg = src->tgids;
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
	sink->irq = pf_irq;
	sink->runq = pf_runq;
}
