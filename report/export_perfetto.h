/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Trace Event Format writer's tracks (report/export_perfetto_tracks.c),
 * below the records (report/export_perfetto.c): ids, the task and CPU tables,
 * the counters, the event writer.  Both files write struct lat_perfetto
 * (latscope/export.h); the task table and the CPU table only here.
 */
#ifndef LATSCOPE_EXPORT_PERFETTO_H
#define LATSCOPE_EXPORT_PERFETTO_H

#include <stdio.h>
#include <string.h>

#include "latscope/export.h"
#include "latscope/json.h"
#include "latscope/dectext.h"

/*
 * Synthetic ids no kernel pid reaches (PID_MAX_LIMIT is 4194304): the process
 * of tasks whose process is not known, the CPUs' process, its CPU tracks
 * (one per CPU), and its irq and softirq tracks (PF_IRQ_TID0 + 2 * cpu + soft).
 */
#define PF_TASKS_PID 4194304
#define PF_CPUS_PID 4194305
#define PF_CPU_TID0 4194306
#define PF_IRQ_TID0 (PF_CPU_TID0 + 65536)

struct lat_pf_task {
	int32_t pid;		/* 0: empty slot (pid 0 is the idle task: no track) */
	int32_t tgid;		/* its process' id in the file (PF_TASKS_PID: unknown) */
	uint8_t match;		/* --task: it is the task (its tracks are drawn) */
	uint8_t drawn;		/* an event is on its track: it is named */
	char comm[LAT_COMM_LEN];
};

/*
 * A counter of a CPU.  Its changes at one instant (a switch ends a wait and
 * starts another) are written once, as the last of them, when a later instant
 * comes: the value pending at pend_ts.
 */
struct pf_counter {
	int64_t last;		/* its value as last written (or passed before the window); -1 none */
	int64_t pend;		/* the value at pend_ts, not written yet; -1 none */
	uint64_t pend_ts;
	uint8_t started;	/* written inside the window already */
	/*
	 * Its event's text before the time (head, name, "ts" key) and between the time and
	 * the value ("args" and its key), npre and nmid bytes; 0: not made yet.  The head
	 * 47 bytes at most, 13 and the CPU's number in the room a number is written with
	 * (LAT_DEC_ROOM); 20 bytes with "runnable".
	 */
	uint8_t npre, nmid;
	char pre[64 + LAT_DEC_ROOM], mid[24];
};

struct lat_pf_cpu {
	uint8_t busy;			/* a task (not idle) ran from busy_from to busy_to */
	uint64_t busy_to;
	uint8_t irq_used[2];		/* its irq, softirq track has events (is named) */
	struct pf_counter c_busy, c_runq;
};

/*
 * The JSON is made in place in p->buf and handed to p->out PF_BUF bytes at a time: printf()
 * per field was four fifths of the export (bench/README-export.md).  An event is begun with
 * pf_open(), which makes room for PF_ROOM bytes and returns where to write; its fixed parts
 * and numbers (export_text.h) are written there without a test of their room, its texts
 * with pf_str(), which leaves PF_ROOM after them; pf_close() keeps it.  Between two texts
 * an event writes less than PF_EVENT_MAX bytes, with the slack of its numbers (the most:
 * a verdict, its basis and its 8 causes, 450), so a text of up to PF_SHORT bytes (6 bytes
 * a byte at most escaped, PF_SHORT_TEXT with its key) needs no test of its room either.
 */
#define PF_BUF (64u << 10)
#define PF_ROOM 2048u
#define PF_EVENT_MAX 600u
#define PF_SHORT 64u
#define PF_SHORT_TEXT (LAT_JSON_ESCAPE_MAX * PF_SHORT + 32)
_Static_assert(PF_EVENT_MAX + PF_SHORT_TEXT <= PF_ROOM, "an event and a short text in the room");

/*
 * An event's beginning, {"ph":"X","pid":..,"tid":.., as written before: the events of a
 * track repeat it (two 7-digit numbers were a third of an event).  PF_HEADS of them, by
 * track and phase.
 */
#define PF_HEADS 256
#define PF_HEAD_LEN 64		/* 8 + 1 + 9 + 11 + 7 + 11 = 47 at most, whole words after */

struct lat_pf_head {
	int32_t pid, tid;	/* pid 0: none */
	char ph;
	uint8_t len;
	char s[PF_HEAD_LEN];
};

/* Hands the JSON made to p->out: where it goes on. */
char *pf_drain(struct lat_perfetto *p);
/* Where p's JSON goes on after @o, with room for PF_ROOM bytes. */
static inline char *pf_room(struct lat_perfetto *p, char *o)
{
	p->nbuf = (size_t)(o - p->buf);
	if (PF_BUF - p->nbuf < PF_ROOM)
		return pf_drain(p);
	return o;
}
/* The event ends at @o. */
static inline void pf_close(struct lat_perfetto *p, char *o)
{
	p->nbuf = (size_t)(o - p->buf);
}
/*
 * @pre (a literal: ,"KEY":" or "KEY":"), @len bytes of @s escaped, and the closing quote, at
 * @o; where it goes on (room for PF_ROOM).
 */
char *pf_strn(struct lat_perfetto *p, char *o, const char *pre, size_t npre, const char *s,
	      size_t len);
#define PF_STR(p, o, pre, s, len) pf_strn((p), (o), (pre), sizeof(pre) - 1, (s), (len))
/*
 * The same of a text of up to PF_SHORT bytes in a buffer that can be read in whole words
 * (@len rounded up to 8): those are checked and copied a word at a time.
 */
char *pf_words(struct lat_perfetto *p, char *o, const char *pre, size_t npre, const char *s,
	       size_t len);
#define PF_WORDS(p, o, pre, s, len) pf_words((p), (o), (pre), sizeof(pre) - 1, (s), (len))
/* A name of ours or of the analysis (no escape needed, short) at @o. */
static inline char *pf_word(char *o, const char *s)
{
	size_t n = strlen(s);

	return (char *)memcpy(o, s, n) + n;
}
/* lat_dec_i64() of a CPU, a prio, a tid (the numbers of most events): the common ones inline */
static inline char *pf_dec32(char *o, int32_t v)
{
	if (v >= 0 && v < 100000000)
		return lat_dec_small(o, (uint32_t)v);
	return lat_dec_i64(o, v);
}
/* ,"KEY":US.NNN: microseconds with the nanoseconds kept (KEY a literal) */
#define PF_US(o, key, ns) lat_dec_us(LAT_LIT((o), ",\"" key "\":"), (ns))

/*
 * Texts made before, kept to be copied (p->cache, export_perfetto*.c): the names of the
 * analysis written (verdicts, states, kinds) with their lengths, the digits of the
 * timestamps above their last 8 (they change every 0.1 s), and "COMM:PID" names escaped,
 * the last made for a pid in its slot (a CPU's slices and a task's wakings name the same
 * few tasks over and over), PF_NAME_MAX bytes escaped at most (a longer one is not kept).
 */
#define PF_NAMES_BITS 10
#define PF_NAMES (1u << PF_NAMES_BITS)
#define PF_NAME_MAX 48

struct pf_tname {
	int32_t pid;
	uint8_t len;		/* of s; 0: nothing kept */
	char comm[LAT_COMM_LEN];	/* as given (its 16 bytes), with pid the key */
	char s[PF_NAME_MAX];
};

/* A name of the analysis (a static string) and its text, by its address. */
#define PF_NAMEWORDS 64
#define PF_WORD_MAX 32

struct pf_word {
	const char *s;		/* NULL: nothing kept */
	uint8_t n;
	char text[PF_WORD_MAX];
};

struct lat_pf_cache {
	struct pf_word words[PF_NAMEWORDS];
	uint64_t ts_hi;		/* ns / 10^8 written as ts_hi_s (ts_hi_len digits); 0 none */
	uint8_t ts_hi_len;
	char ts_hi_s[LAT_DEC_ROOM];
	struct pf_tname names[PF_NAMES];
};

/* lat_dec_us() of @ns, a timestamp: the same digits, those above the last 8 copied. */
static inline char *pf_ts(struct lat_perfetto *p, char *o, uint64_t ns)
{
	struct lat_pf_cache *c = p->cache;
	uint64_t hi = ns / 100000000, d;

	if (hi != c->ts_hi || !hi) {
		/* 1 to 8 digits (lat_dec_us() writes them so); else as it writes them */
		if (!hi || hi >= 100000000)
			return lat_dec_us(o, ns);
		c->ts_hi = hi;
		c->ts_hi_len = (uint8_t)(lat_dec_small(c->ts_hi_s, (uint32_t)hi) - c->ts_hi_s);
	}
	memcpy(o, c->ts_hi_s, 8);
	o += c->ts_hi_len;
	d = lat_digits8((uint32_t)(ns % 100000000));
	lat_put8(o, d);		/* 5 digits before the point, 3 after it */
	o[5] = '.';
	lat_put8(o + 6, d >> 40);
	return o + 9;
}

/*
 * pf_word() of @s, a name of the analysis (static, never changed, nothing to escape): its
 * text copied whole (PF_WORD_MAX bytes written), kept by its address.
 */
static inline char *pf_name(struct lat_perfetto *p, char *o, const char *s)
{
	uintptr_t a = (uintptr_t)s;
	struct pf_word *w = &p->cache->words[(a >> 3 ^ a >> 9) % PF_NAMEWORDS];

	if (w->s != s) {
		size_t n = strlen(s);

		if (n >= PF_WORD_MAX)
			return pf_word(o, s);
		w->s = s;
		w->n = (uint8_t)n;
		memcpy(w->text, s, n);
	}
	memcpy(o, w->text, PF_WORD_MAX);
	return o + w->n;
}

/* ,"ts":US.NNN of a timestamp */
#define PF_TS(p, o, ns) pf_ts((p), LAT_LIT((o), ",\"ts\":"), (ns))

/* Whether --task keeps task @pid of @comm (no --task: all). */
int pf_task_match(const struct lat_perfetto *p, int32_t pid, const char *comm);
/* The slot where task @pid is looked for first. */
static inline size_t pf_task_hash(const struct lat_perfetto *p, int32_t pid)
{
	return ((uint32_t)pid * 2654435761u) & (p->tcap - 1);
}
/* Task @t's comm is @comm (when it has one). */
static inline void pf_task_comm(struct lat_perfetto *p, struct lat_pf_task *t, const char *comm)
{
	if (comm[0]) {
		memcpy(t->comm, comm, LAT_COMM_LEN);
		t->comm[LAT_COMM_LEN - 1] = 0;
		t->match |= (uint8_t)(!p->o.task || pf_task_match(p, t->pid, t->comm));
	}
}
/* pf_task() when the task is not in its first slot or the table is to grow. */
struct lat_pf_task *pf_task_slow(struct lat_perfetto *p, int32_t pid, const char *comm);
/* The task @pid (comm noted); NULL for the idle task or out of memory (p->oom). */
static inline struct lat_pf_task *pf_task(struct lat_perfetto *p, int32_t pid, const char *comm)
{
	struct lat_pf_task *t;

	if (pid <= 0 || (p->ntasks + 1) * 2 > p->tcap ||
	    (t = &p->tasks[pf_task_hash(p, pid)])->pid != pid)
		return pf_task_slow(p, pid, comm);
	pf_task_comm(p, t, comm);
	return t;
}
/* The task's track (its process): pid to write with its tid. */
static inline int32_t pf_task_pid(const struct lat_pf_task *t)
{
	return t->tgid;
}
/* pf_cpu() of a CPU not in the table yet (or not a CPU: NULL). */
struct lat_pf_cpu *pf_cpu_grow(struct lat_perfetto *p, int32_t cpu);
/* The counter state of @cpu (noted as seen); NULL out of memory. */
static inline struct lat_pf_cpu *pf_cpu(struct lat_perfetto *p, int32_t cpu)
{
	if (cpu < 0 || (size_t)cpu >= p->ccap)
		return pf_cpu_grow(p, cpu);
	if (cpu > p->max_cpu)
		p->max_cpu = cpu;
	return &p->cpus[cpu];
}
/* Whether [@from, @to] overlaps the window. */
static inline int pf_in_window(const struct lat_perfetto *p, uint64_t from, uint64_t to)
{
	return to >= p->o.from_ns && (!p->o.to_ns || from <= p->o.to_ns);
}
/* qsort()'s order of tasks: by process, then tid. */
int pf_cmp_task(const void *a, const void *b);
/*
 * "comm:tid" of a task waker, "irq:NAME" or "softirq:NAME" (the kind alone when unnamed):
 * 16 + 1 + a number's room (LAT_DEC_ROOM) at most, or a kind's name, ':' and 24.
 */
#define PF_WAKER_NAME 64
void pf_waker_name(char w[PF_WAKER_NAME], const struct lat_wake_waker *k);

/*
 * Opens an event: {"ph":"X","pid":..,"tid":.. ; returns where the caller adds its fields
 * (room for PF_ROOM), to close it with pf_close().
 */
char *pf_open(struct lat_perfetto *p, char ph, int32_t pid, int32_t tid);
/* Writes the counter's pending change. */
void pf_count_flush(struct lat_perfetto *p, int32_t cpu, struct pf_counter *c, const char *which);
/* Counter @which ("busy", "runnable") of @cpu is @v from @ts (written inside the window). */
static inline void pf_count(struct lat_perfetto *p, int32_t cpu, struct pf_counter *c,
			    const char *which, uint64_t ts, int64_t v)
{
	if (c->pend >= 0 && c->pend_ts != ts)
		pf_count_flush(p, cpu, c, which);
	c->pend = v;
	c->pend_ts = ts;
}

#endif
