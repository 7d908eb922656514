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
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "export_perfetto.h"

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

/*
 * "COMM:PID" (16 bytes of the comm at most, "?" when it has none) into @buf (TASK_NAME
 * bytes: whole words for pf_words()); its length.
 */
#define TASK_NAME (LAT_COMM_LEN + 1 + LAT_DEC_ROOM)

static size_t task_name(char *buf, const char *comm, int32_t pid)
{
	size_t n = comm[0] ? strnlen(comm, LAT_COMM_LEN) : 1;

	memcpy(buf, comm[0] ? comm : "?", n);
	buf[n] = ':';
	return (size_t)(lat_dec_i64(buf + n + 1, pid) - buf);
}

/*
 * @pre (a literal: ,"KEY":"), "COMM:PID" escaped (task_name()) and the closing quote at
 * @o, as pf_words() writes them; the escaped name is kept for @pid and @comm (its 16
 * bytes) and copied while they stay.  Where the JSON goes on (room for PF_ROOM).
 */
static inline char *name_arg(struct lat_perfetto *p, char *o, const char *pre, size_t npre,
			     const char *comm, int32_t pid)
{
	uint32_t slot = ((uint32_t)pid * 2654435761u) >> (32 - PF_NAMES_BITS);
	struct pf_tname *n = &p->cache->names[slot];
	char buf[TASK_NAME];
	size_t len, used;

	if (!n->len || n->pid != pid || memcmp(n->comm, comm, LAT_COMM_LEN)) {
		len = task_name(buf, comm, pid);
		n->len = (uint8_t)lat_json_escape_some(n->s, PF_NAME_MAX, buf, len, &used);
		if (used < len) {	/* too long escaped: not kept */
			n->len = 0;
			return pf_words(p, o, pre, npre, buf, len);
		}
		n->pid = pid;
		memcpy(n->comm, comm, LAT_COMM_LEN);
	}
	memcpy(o, pre, npre);
	memcpy(o + npre, n->s, PF_NAME_MAX);
	o += npre + n->len;
	*o++ = '"';
	return pf_room(p, o);
}
#define NAME_ARG(p, o, pre, comm, pid) name_arg((p), (o), (pre), sizeof(pre) - 1, (comm), (pid))

/* ,"ts":START,"dur":END - START */
static char *span(struct lat_perfetto *p, char *o, uint64_t start, uint64_t end)
{
	return PF_US(PF_TS(p, o, start), "dur", end - start);
}

/*
 * A text written at @o (up to @e) that the next event repeats, kept: SPAN_KEEP bytes
 * from @o (a span's 69 at most and the slack of its numbers) into @keep, its length.
 */
#define SPAN_KEEP 112

static size_t keep_text(char keep[SPAN_KEEP], const char *o, const char *e)
{
	memcpy(keep, o, SPAN_KEEP);
	return (size_t)(e - o);
}

static void pf_slice(void *ctx, const struct lat_run_slice *s)
{
	struct lat_perfetto *p = ctx;
	struct lat_pf_cpu *c = pf_cpu(p, s->cpu);
	struct lat_pf_task *t = pf_task(p, s->pid, s->comm);
	char *o, sp[SPAN_KEEP];
	size_t nsp;

	/* a slice whose start was not seen cannot be drawn; the rows export keeps it */
	if (!s->start_known || !c)
		return;
	if (s->pid > 0)
		busy(p, c, s);
	if (!pf_in_window(p, s->start_ns, s->end_ns) || (p->o.task && !(t && t->match)))
		return;
	o = pf_open(p, 'X', PF_CPUS_PID, PF_CPU_TID0 + s->cpu);
	/* the same span on the CPU's track and the task's */
	nsp = keep_text(sp, o, span(p, o, s->start_ns, s->end_ns));
	o = NAME_ARG(p, o + nsp, ",\"name\":\"", s->comm, s->pid);
	if (s->end != LAT_SLICE_SWITCH) {
		o = LAT_LIT(o, ",\"args\":{\"end\":\"");
		o = LAT_LIT(pf_name(p, o, lat_slice_end_name(s->end)), "\"}");
	}
	pf_close(p, LAT_LIT(o, "}"));
	if (!t)
		return;
	t->drawn = 1;
	o = (char *)memcpy(pf_open(p, 'X', pf_task_pid(t), s->pid), sp, SPAN_KEEP) + nsp;
	o = pf_dec32(LAT_LIT(o, ",\"name\":\"running\",\"args\":{\"cpu\":"), s->cpu);
	if (s->prio != LAT_PRIO_UNKNOWN)
		o = pf_dec32(LAT_LIT(o, ",\"prio\":"), s->prio);
	if (s->end == LAT_SLICE_SWITCH)
		o = pf_name(p, LAT_LIT(o, ",\"state\":\""), lat_task_state_name(s->state));
	else
		o = pf_name(p, LAT_LIT(o, ",\"end\":\""), lat_slice_end_name(s->end));
	pf_close(p, LAT_LIT(o, "\"}}"));
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

/* The causes' keys, in their order, each copied as its 16 bytes. */
#define PART(key, field) { ",\"" key "\":", sizeof(",\"" key "\":") - 1, \
			   offsetof(struct lat_verdict_evidence, field) }
static const struct { char key[16]; uint8_t len; size_t off; } parts[] = {
	PART("same_ns", same_ns), PART("higher_ns", higher_ns), PART("lower_ns", lower_ns),
	PART("irq_ns", irq_ns), PART("stall_ns", stall_ns), PART("idle_ns", idle_ns),
	PART("unknown_ns", unknown_ns), PART("queued_ns", queued_ns),
};

/* The verdict and what it rests on: the basis, its part, every cause with time. */
static char *verdict_args(struct lat_perfetto *p, char *o, const struct lat_wait_rec *rec)
{
	const struct lat_verdict_evidence *e = rec->evidence;

	/* a name of the analysis: nothing to escape */
	o = pf_name(p, LAT_LIT(o, ",\"verdict\":\""), rec->verdict);
	o = pf_name(p, LAT_LIT(o, "\",\"basis\":\""), basis_name(e->basis));
	o = lat_dec_i64(LAT_LIT(o, "\",\"part_ns\":"), e->part_ns);
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		int64_t ns;

		memcpy(&ns, (const char *)e + parts[i].off, sizeof(ns));
		if (ns)
			o = lat_dec_i64((char *)memcpy(o, parts[i].key, 16) + parts[i].len, ns);
	}
	return o;
}

void pf_waker_name(char w[PF_WAKER_NAME], const struct lat_wake_waker *k)
{
	const char *irq = lat_wake_irq_label(k), *ctx;
	size_t n;

	/* printf()'s "%.16s:%d", "%s:%.24s", "%s", which fit */
	if (k->ctx == LAT_WAKE_CTX_TASK) {
		w[task_name(w, k->comm, k->pid)] = 0;
		return;
	}
	ctx = lat_wake_ctx_name(k->ctx);
	n = strnlen(ctx, 16);
	memcpy(w, ctx, n);
	if (irq[0]) {
		w[n++] = ':';
		memcpy(w + n, irq, strnlen(irq, 24));
		n += strnlen(irq, 24);
	}
	w[n] = 0;
}

static char *waker_arg(struct lat_perfetto *p, char *o, const struct lat_wake_waker *k)
{
	char w[PF_WAKER_NAME];

	if (k->ctx == LAT_WAKE_CTX_TASK)
		return NAME_ARG(p, o, ",\"waker\":\"", k->comm, k->pid);
	pf_waker_name(w, k);
	return PF_STR(p, o, ",\"waker\":\"", w, strlen(w));
}

/*
 * The arrow's source: a zero-length slice at the waking on the waker's track
 * (Perfetto draws a flow from the end of its source slice to the start of its
 * target): the task's, the CPU's irq or softirq track for a waking in an
 * interrupt, the CPU's track for the idle task.
 */
static void waking(struct lat_perfetto *p, const struct lat_wake_link *l, const char *ts,
		   size_t nts, const char *id, size_t nid)
{
	const struct lat_wake_waker *k = &l->waker;
	struct lat_pf_task *t = NULL;
	int32_t pid = PF_CPUS_PID, tid;
	struct lat_pf_cpu *c = pf_cpu(p, k->cpu);
	char *o;

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
	/* the wait's own ts */
	o = (char *)memcpy(pf_open(p, 'X', pid, tid), ts, SPAN_KEEP) + nts;
	o = LAT_LIT(o, ",\"dur\":0,\"name\":\"waking\",\"bind_id\":");
	o = (char *)memcpy(o, id, LAT_DEC_ROOM) + nid;
	o = pf_dec32(LAT_LIT(o, ",\"flow_out\":true,\"args\":{\"tid\":"), l->pid);
	pf_close(p, LAT_LIT(o, "}}"));
}

static void pf_wait(void *ctx, const struct lat_wait_rec *rec)
{
	struct lat_perfetto *p = ctx;
	const struct lat_wake_link *l = rec->w;
	struct lat_pf_task *t = pf_task(p, l->pid, l->comm);
	int flow = l->waker.cpu >= 0 && l->kind != LAT_WAIT_PREEMPT;
	char *o, id[LAT_DEC_ROOM], ts[SPAN_KEEP];
	size_t nid = 0, nts;

	pf_cpu(p, l->cpu);
	if (!t || !pf_in_window(p, l->start_ns, l->end_ns) || (p->o.task && !t->match))
		return;
	t->drawn = 1;
	o = pf_open(p, 'X', pf_task_pid(t), l->pid);
	nts = keep_text(ts, o, PF_TS(p, o, l->start_ns));
	o = PF_US(o + nts, "dur", l->end_ns - l->start_ns);
	o = pf_name(p, LAT_LIT(o, ",\"name\":\"runnable ("), lat_wait_kind_name(l->kind));
	o = LAT_LIT(o, ")\"");
	if (flow) {
		/* the flow's id, written twice */
		nid = (size_t)(lat_dec_u64(id, ++p->nflows) - id);
		o = (char *)memcpy(LAT_LIT(o, ",\"bind_id\":"), id, LAT_DEC_ROOM) + nid;
		o = LAT_LIT(o, ",\"flow_in\":true");
	}
	o = pf_dec32(LAT_LIT(o, ",\"args\":{\"cpu\":"), l->cpu);
	if (rec->queued_cpu >= 0 && rec->queued_cpu != l->cpu)
		o = pf_dec32(LAT_LIT(o, ",\"queued_cpu\":"), rec->queued_cpu);
	if (rec->prio != LAT_PRIO_UNKNOWN)
		o = pf_dec32(LAT_LIT(o, ",\"prio\":"), rec->prio);
	if (!rec->trusted)
		o = LAT_LIT(o, ",\"trusted\":false");
	if (l->waker.cpu >= 0)
		o = waker_arg(p, o, &l->waker);
	if (rec->verdict && rec->evidence)
		o = verdict_args(p, o, rec);
	pf_close(p, LAT_LIT(o, "}}"));
	if (flow)
		waking(p, l, ts, nts, id, nid);
}

static void pf_irq(void *ctx, const struct lat_irq_slice *q)
{
	struct lat_perfetto *p = ctx;
	struct lat_pf_cpu *c = pf_cpu(p, q->cpu);
	char *o;

	if (!c || !pf_in_window(p, q->start_ns, q->end_ns))
		return;
	c->irq_used[q->soft] = 1;
	o = span(p, pf_open(p, 'X', PF_CPUS_PID, PF_IRQ_TID0 + 2 * q->cpu + q->soft), q->start_ns,
		 q->end_ns);
	o = PF_STR(p, o, ",\"name\":\"", q->name, strlen(q->name));
	pf_close(p, LAT_LIT(o, "}"));
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
	char *o;

	if (!pf_cpu(p, ev->cpu) || !pf_in_window(p, ev->ts_ns, ev->ts_ns))
		return;
	o = pf_open(p, 'i', PF_CPUS_PID, PF_CPU_TID0 + ev->cpu);
	o = pf_word(LAT_LIT(o, ",\"name\":\""), lat_ns >= 0 ? "sample" : "marker");
	o = PF_TS(p, LAT_LIT(o, "\",\"cat\":\"marker\",\"s\":\"t\""), ev->ts_ns);
	o = LAT_LIT(o, ",\"args\":{");
	if (lat_ns >= 0)
		o = LAT_LIT(lat_dec_i64(LAT_LIT(o, "\"lat_ns\":"), lat_ns), ",");
	o = lat_dec_i64(LAT_LIT(o, "\"tid\":"), ev->pid);
	o = PF_STR(p, o, ",\"text\":\"", ev->u.marker.text ? ev->u.marker.text : "",
		   ev->u.marker.text ? ev->u.marker.len : 0);
	pf_close(p, LAT_LIT(o, "}}"));
}

static void pf_lost(void *ctx, const struct lat_wake_gap *g)
{
	struct lat_perfetto *p = ctx;
	char *o;

	if (!pf_cpu(p, g->cpu) || !pf_in_window(p, g->to_ns, g->to_ns))
		return;
	o = pf_open(p, 'i', PF_CPUS_PID, PF_CPU_TID0 + g->cpu);
	o = LAT_LIT(o, ",\"name\":\"lost events\",\"cat\":\"lost\",\"s\":\"t\"");
	o = PF_TS(p, o, g->to_ns);
	o = lat_dec_u64(LAT_LIT(o, ",\"args\":{\"count\":"), g->count);
	o = lat_dec_u64(LAT_LIT(o, ",\"since_ns\":"), g->from_ns);
	o = lat_dec_u64(LAT_LIT(o, ",\"until_ns\":"), g->to_ns);
	pf_close(p, LAT_LIT(o, "}}"));
}

/*
 * A stall: an instant at the start of the silence on the CPU's track (a slice
 * would overlap the task that kept running there), on every track (scope "g")
 * when every CPU was silent.
 */
static void pf_stall(void *ctx, const struct lat_wake_stall *s)
{
	struct lat_perfetto *p = ctx;
	char *o;

	pf_cpu(p, s->cpu >= 0 ? s->cpu : 0);
	if (!pf_in_window(p, s->from_ns, s->to_ns))
		return;
	o = pf_open(p, 'i', PF_CPUS_PID, PF_CPU_TID0 + (s->cpu >= 0 ? s->cpu : 0));
	o = LAT_LIT(o, ",\"name\":\"stall\",\"cat\":\"stall\",\"s\":\"");
	*o++ = s->cpu >= 0 ? 't' : 'g';		/* a CPU's track, or every track */
	o = PF_TS(p, LAT_LIT(o, "\""), s->from_ns);
	o = lat_dec_i64(LAT_LIT(o, ",\"args\":{\"cpu\":"), s->cpu);
	o = lat_dec_u64(LAT_LIT(o, ",\"dur_ns\":"), s->to_ns - s->from_ns);
	o = lat_dec_u64(LAT_LIT(o, ",\"until_ns\":"), s->to_ns);
	o = lat_dec_i64(LAT_LIT(o, ",\"tid\":"), s->pid);
	o = PF_STR(p, o, ",\"comm\":\"", s->comm, strnlen(s->comm, LAT_COMM_LEN));
	o = lat_dec_i64(LAT_LIT(o, ",\"waiting_tid\":"), s->waiting_pid);
	o = PF_STR(p, o, ",\"waiting_comm\":\"", s->waiting_comm,
		   strnlen(s->waiting_comm, LAT_COMM_LEN));
	pf_close(p, LAT_LIT(o, "}}"));
}

int lat_perfetto_begin(struct lat_perfetto *p, FILE *out, const struct lat_perfetto_opts *o)
{
	char *end;
	long tid;

	memset(p, 0, sizeof(*p));
	p->out = out;
	p->buf = malloc(PF_BUF);
	p->heads = calloc(PF_HEADS, sizeof(*p->heads));
	p->cache = calloc(1, sizeof(*p->cache));
	if (!p->buf || !p->heads || !p->cache) {
		free(p->buf);
		free(p->heads);
		free(p->cache);
		return -LAT_ENOMEM;
	}
	p->max_cpu = -1;
	p->task_tid = -1;
	if (o)
		p->o = *o;
	if (p->o.task) {
		tid = strtol(p->o.task, &end, 10);
		if (end != p->o.task && !*end && tid > 0 && tid <= INT32_MAX)
			p->task_tid = (int32_t)tid;
	}
	pf_close(p, LAT_LIT(p->buf, "{\"traceEvents\":[\n"));
	return 0;
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
