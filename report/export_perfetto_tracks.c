// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `latscope export --perfetto`, the tracks (export_perfetto.h): the tasks and
 * their processes, the CPUs and their counters, the event writer, and at the
 * end the metadata that names and sorts every track.  docs/export.md.
 */
#include <stdlib.h>
#include <string.h>

#include "latscope/json.h"
#include "export_perfetto.h"

static size_t task_slot(const struct lat_perfetto *p, int32_t pid)
{
	size_t i = pf_task_hash(p, pid);

	while (p->tasks[i].pid && p->tasks[i].pid != pid)
		i = (i + 1) & (p->tcap - 1);
	return i;
}

static int grow_tasks(struct lat_perfetto *p)
{
	struct lat_pf_task *old = p->tasks;
	size_t ocap = p->tcap, ncap = ocap ? ocap * 2 : 256;

	p->tasks = calloc(ncap, sizeof(*p->tasks));
	if (!p->tasks) {
		p->tasks = old;
		p->oom = 1;
		return -1;
	}
	p->tcap = ncap;
	for (size_t i = 0; i < ocap; i++)
		if (old[i].pid)
			p->tasks[task_slot(p, old[i].pid)] = old[i];
	free(old);
	return 0;
}

int pf_task_match(const struct lat_perfetto *p, int32_t pid, const char *comm)
{
	if (!p->o.task)
		return 1;
	if (p->task_tid >= 0)
		return pid == p->task_tid;
	return !strncmp(comm, p->o.task, LAT_COMM_LEN - 1);
}

struct lat_pf_task *pf_task_slow(struct lat_perfetto *p, int32_t pid, const char *comm)
{
	struct lat_pf_task *t;

	if (pid <= 0)
		return NULL;
	if ((p->ntasks + 1) * 2 > p->tcap && grow_tasks(p))
		return NULL;
	t = &p->tasks[task_slot(p, pid)];
	if (!t->pid) {
		int32_t g = lat_tgids_of(p->tg, pid);

		t->pid = pid;
		t->tgid = g > 0 ? g : PF_TASKS_PID;
		p->ntasks++;
	}
	pf_task_comm(p, t, comm);
	return t;
}

struct lat_pf_cpu *pf_cpu_grow(struct lat_perfetto *p, int32_t cpu)
{
	if (cpu < 0 || cpu >= 4096)
		return NULL;
	if ((size_t)cpu >= p->ccap) {
		size_t n = (size_t)cpu + 8;
		struct lat_pf_cpu *c = realloc(p->cpus, n * sizeof(*c));

		if (!c) {
			p->oom = 1;
			return NULL;
		}
		for (size_t i = p->ccap; i < n; i++)
			c[i] = (struct lat_pf_cpu){ .c_busy = { .last = -1, .pend = -1 },
						    .c_runq = { .last = -1, .pend = -1 } };
		p->cpus = c;
		p->ccap = n;
	}
	if (cpu > p->max_cpu)
		p->max_cpu = cpu;
	return &p->cpus[cpu];
}

char *pf_drain(struct lat_perfetto *p)
{
	fwrite(p->buf, 1, p->nbuf, p->out);
	p->nbuf = 0;
	return p->buf;
}

char *pf_strn(struct lat_perfetto *p, char *o, const char *pre, size_t npre, const char *s,
	      size_t len)
{
	size_t used;

	memcpy(o, pre, npre);
	o += npre;
	if (len <= PF_SHORT) {
		o += lat_json_escape_some(o, LAT_JSON_ESCAPE_MAX * PF_SHORT, s, len, &used);
		*o++ = '"';
		return pf_room(p, o);
	}
	while (len) {
		o = pf_room(p, o);
		/* a byte left for the quote */
		o += lat_json_escape_some(o, PF_BUF - p->nbuf - 1, s, len, &used);
		s += used;
		len -= used;
	}
	*o++ = '"';
	return pf_room(p, o);
}

/* The head of (ph, pid, tid), made when it is not kept. */
static inline const struct lat_pf_head *head_of(struct lat_perfetto *p, char ph, int32_t pid,
					 int32_t tid)
{
	struct lat_pf_head *h = &p->heads[(((uint32_t)tid * 2654435761u) >> 24 ^ (uint8_t)ph) %
					  PF_HEADS];
	char *o;

	if (h->pid == pid && h->tid == tid && h->ph == ph && pid)
		return h;
	o = LAT_LIT(h->s, "{\"ph\":\"");
	*o++ = ph;
	o = lat_dec_i64(LAT_LIT(o, "\",\"pid\":"), pid);
	o = lat_dec_i64(LAT_LIT(o, ",\"tid\":"), tid);
	h->len = (uint8_t)(o - h->s);
	h->pid = pid;
	h->tid = tid;
	h->ph = ph;
	return h;
}

char *pf_words(struct lat_perfetto *p, char *o, const char *pre, size_t npre, const char *s,
	       size_t len)
{
	for (size_t i = 0; i < len; i += 8) {
		uint64_t x, bad;

		memcpy(&x, s + i, 8);
		bad = lat_json_unplain8(x);
		/* the bytes past the text: their bits are above the text's (and only theirs) */
		if (len - i < 8)
			bad &= (1ull << (8 * (len - i))) - 1;
		if (bad)
			return pf_strn(p, o, pre, npre, s, len);
	}
	memcpy(o, pre, npre);
	o += npre;
	for (size_t i = 0; i < len; i += 8)
		memcpy(o + i, s + i, 8);
	o += len;
	*o++ = '"';
	return pf_room(p, o);
}

char *pf_open(struct lat_perfetto *p, char ph, int32_t pid, int32_t tid)
{
	const struct lat_pf_head *h = head_of(p, ph, pid, tid);
	char *o = pf_room(p, p->buf + p->nbuf);

	if (p->nevents++)
		o = LAT_LIT(o, ",\n");
	memcpy(o, h->s, PF_HEAD_LEN);
	return o + h->len;
}

/*
 * {"ph":"C",...,"name":"CPU N","ts":US.NNN,"args":{"WHICH":V}}: the text around the time
 * is made the first time and kept in the counter (c->pre, c->mid).
 */
static void count_write(struct lat_perfetto *p, int32_t cpu, struct pf_counter *c,
			const char *which, uint64_t ts, int64_t v)
{
	char *o;

	if (!c->npre) {
		const struct lat_pf_head *h = head_of(p, 'C', PF_CPUS_PID, PF_CPU_TID0 + cpu);

		o = LAT_LIT((char *)memcpy(c->pre, h->s, h->len) + h->len, ",\"name\":\"CPU ");
		o = LAT_LIT(lat_dec_i64(o, cpu), "\",\"ts\":");
		c->npre = (uint8_t)(o - c->pre);
		o = LAT_LIT(pf_word(LAT_LIT(c->mid, ",\"args\":{\""), which), "\":");
		c->nmid = (uint8_t)(o - c->mid);
	}
	o = pf_room(p, p->buf + p->nbuf);
	if (p->nevents++)
		o = LAT_LIT(o, ",\n");
	memcpy(o, c->pre, sizeof(c->pre));
	o = pf_ts(p, o + c->npre, ts);
	memcpy(o, c->mid, sizeof(c->mid));
	o = lat_dec_i64(o + c->nmid, v);
	pf_close(p, LAT_LIT(o, "}}"));
}

/*
 * A counter's value before the window is written at the window's start, so
 * that the counter track starts with what it held there.
 */
void pf_count_flush(struct lat_perfetto *p, int32_t cpu, struct pf_counter *c, const char *which)
{
	int64_t before = c->last, v = c->pend;
	uint64_t ts = c->pend_ts;

	c->pend = -1;
	if (v < 0 || v == c->last)
		return;
	c->last = v;
	if (ts < p->o.from_ns || (p->o.to_ns && ts > p->o.to_ns))
		return;
	if (!c->started && before >= 0 && ts > p->o.from_ns && p->o.from_ns)
		count_write(p, cpu, c, which, p->o.from_ns, before);
	c->started = 1;
	count_write(p, cpu, c, which, ts, v);
}


/* ---- the end: metadata ----------------------------------------------------------- */

int pf_cmp_task(const void *a, const void *b)
{
	const struct lat_pf_task *x = a, *y = b;

	if (x->tgid != y->tgid)
		return (x->tgid > y->tgid) - (x->tgid < y->tgid);
	return (x->pid > y->pid) - (x->pid < y->pid);
}

static void meta(struct lat_perfetto *p, int32_t pid, int32_t tid, const char *what,
		 const char *name, int64_t sort)
{
	char *o = pf_open(p, 'M', pid, tid);

	/* "process_name", "thread_sort_index", ...: a name of ours */
	o = LAT_LIT(pf_word(LAT_LIT(o, ",\"name\":\""), what), "\",\"args\":{");
	if (name)
		o = PF_STR(p, o, "\"name\":\"", name, strlen(name));
	else
		o = lat_dec_i64(LAT_LIT(o, "\"sort_index\":"), sort);
	pf_close(p, LAT_LIT(o, "}}"));
}

static void cpu_meta(struct lat_perfetto *p)
{
	char name[48];

	meta(p, PF_CPUS_PID, PF_CPU_TID0, "process_name", "CPUs", 0);
	meta(p, PF_CPUS_PID, PF_CPU_TID0, "process_sort_index", NULL, 0);
	for (int32_t c = 0; c <= p->max_cpu; c++) {
		snprintf(name, sizeof(name), "CPU %d", c);
		meta(p, PF_CPUS_PID, PF_CPU_TID0 + c, "thread_name", name, 0);
		meta(p, PF_CPUS_PID, PF_CPU_TID0 + c, "thread_sort_index", NULL, 3 * c);
		for (int soft = 0; soft < 2; soft++) {
			int32_t tid = PF_IRQ_TID0 + 2 * c + soft;

			if ((size_t)c >= p->ccap || !p->cpus[c].irq_used[soft])
				continue;
			snprintf(name, sizeof(name), "CPU %d %s", c, soft ? "softirq" : "irq");
			meta(p, PF_CPUS_PID, tid, "thread_name", name, 0);
			meta(p, PF_CPUS_PID, tid, "thread_sort_index", NULL, 3 * c + 1 + soft);
		}
	}
}

/*
 * The tasks by process, then tid: one process_name per process (its leader's
 * comm when it was seen), a thread_name per task.  The table is packed to its
 * front, which is not used afterwards.
 */
static void task_meta(struct lat_perfetto *p)
{
	size_t n = 0;
	char name[48];

	for (size_t i = 0; i < p->tcap; i++)
		if (p->tasks[i].pid && p->tasks[i].drawn)
			p->tasks[n++] = p->tasks[i];
	if (n)
		qsort(p->tasks, n, sizeof(*p->tasks), pf_cmp_task);
	for (size_t i = 0; i < n; i++) {
		const struct lat_pf_task *t = &p->tasks[i];

		if (!i || t->tgid != t[-1].tgid) {
			const struct lat_pf_task *lead = NULL;

			for (size_t j = i; j < n && p->tasks[j].tgid == t->tgid && !lead; j++)
				if (p->tasks[j].pid == t->tgid)
					lead = &p->tasks[j];
			if (t->tgid == PF_TASKS_PID)
				snprintf(name, sizeof(name), "Tasks (process not known)");
			else
				snprintf(name, sizeof(name), "%.16s %d",
					 lead && lead->comm[0] ? lead->comm : "process", t->tgid);
			/* on a thread of the process: a tid has one process (one track) */
			meta(p, t->tgid, t->pid, "process_name", name, 0);
			meta(p, t->tgid, t->pid, "process_sort_index", NULL,
			     t->tgid == PF_TASKS_PID ? 2 : 1);
		}
		snprintf(name, sizeof(name), "%.16s", t->comm[0] ? t->comm : "?");
		meta(p, t->tgid, t->pid, "thread_name", name, 0);
	}
}

int lat_perfetto_end(struct lat_perfetto *p, const char *trace, const char *host)
{
	char *o;

	for (int32_t c = 0; c <= p->max_cpu && (size_t)c < p->ccap; c++) {
		if (p->cpus[c].busy)
			pf_count(p, c, &p->cpus[c].c_busy, "busy", p->cpus[c].busy_to, 0);
		pf_count_flush(p, c, &p->cpus[c].c_busy, "busy");
		pf_count_flush(p, c, &p->cpus[c].c_runq, "runnable");
	}
	cpu_meta(p);
	task_meta(p);
	o = pf_room(p, p->buf + p->nbuf);
	o = LAT_LIT(o, "\n],\n\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":"
		      "\"latscope export\"");
	if (trace)
		o = PF_STR(p, o, ",\"trace\":\"", trace, strlen(trace));
	if (host)
		o = PF_STR(p, o, ",\"host\":\"", host, strlen(host));
	o = LAT_LIT(o, "}}\n");
	fwrite(p->buf, 1, (size_t)(o - p->buf), p->out);
	free(p->buf);
	free(p->heads);
	free(p->cache);
	p->buf = NULL;
	p->heads = NULL;
	p->cache = NULL;
	p->nbuf = 0;
	free(p->tasks);
	free(p->cpus);
	p->tg = NULL;
	p->tasks = NULL;
	p->cpus = NULL;
	p->tcap = p->ntasks = p->ccap = 0;
	return p->oom ? -LAT_ENOMEM : 0;
}
