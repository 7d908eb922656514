// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trace.dat read by worker threads (tracedat_par.h).
 *
 * Each CPU with data has a ring of TDP_RING batches.  A worker takes a CPU
 * (one worker per CPU at a time), walks its pages from where it stopped
 * (td_walk_cpu_*(): read, decompress, page checks), decodes the records
 * (td_decode_hot() / td_decode_full(), what they lend copied into the batch)
 * into the next free batch and publishes it; the notes the walk made (a CPU
 * stopped early, a damaged page skipped) are kept in the batch at the place
 * they were made.  The puller (the thread calling next / next_batch) merges
 * the CPUs' current batches on (timestamp, cpu) as the one-thread walk does,
 * replays each note when it steps past its place, which is when the one-thread
 * walk would have made it, and finishes every event (comms, symbols) in that
 * order.  A batch is released when the puller steps past its last event, at
 * its next call: what the events it handed out lend stays valid until then.
 *
 * Memory is bounded: TDP_RING batches of at most TDP_BATCH events per CPU,
 * fewer events per batch when there are many CPUs (TDP_BUDGET), plus each
 * CPU's read buffer or chunk as with one thread.
 */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "par_threads.h"
#include "tracedat_merge.h"
#include "tracedat_par.h"

#define TDP_RING 8			/* batches per CPU */
#define TDP_BATCH 512			/* events per batch at most */
#define TDP_BATCH_MIN 16
#define TDP_BUDGET (8u << 20)		/* the batches' events of all CPUs together */
#define TDP_LEND_MIN (64u << 10)	/* a batch's room for lent bytes, when it needs one */

struct tdp_note {
	int idx;			/* replayed when the puller steps onto event idx */
	struct td_note n;
};

/*
 * What the puller's finishing does with an event, in its comm[0] until the
 * comm is filled (one test where the event's type would take three).
 */
#define TDP_COMM 1			/* the comm of pid (else "") */
#define TDP_SWITCH 2			/* td_switch_in() */
#define TDP_FINISH 4			/* td_finish() */

struct tdp_batch {
	struct lat_event *ev;		/* comm[0]: TDP_* */
	int n;
	int end;			/* the CPU's last batch */
	int err;			/* ... ended by this error (0: its end) */
	struct tdp_note *notes;
	int nnotes;
	size_t notes_cap;
	char *lend;			/* what the events lend (TD_LEND_ROOM each), or NULL */
	size_t lend_used;
};

struct tdp_cpu {
	/* under mu */
	unsigned int head;		/* batches released by the puller */
	unsigned int tail;		/* batches published by workers */
	int busy;			/* a worker fills ring[tail % TDP_RING] */
	int done;			/* the last batch is published */
	/* the worker's that holds busy */
	int started;
	int lost_due;			/* a lost-events mark comes before the record */
	uint64_t lost_count;
	/* the puller's */
	struct tdp_batch *cur;		/* ring[head % TDP_RING], or NULL: the CPU ended */
	const struct lat_event *e;	/* its event on top, or to step past */
	const struct lat_event *stop;	/* the next note or the end: the slow step */
	int note_i;			/* the next note of cur to replay */
	struct td_ccache *cc;		/* its comm cache */
	struct tdp_batch ring[TDP_RING];
};

struct tdp_worker {
	struct td_par *p;
	void *dctx;			/* its zstd context */
};

struct td_par {
	struct td_src *s;
	pthread_mutex_t mu;
	pthread_cond_t work;		/* workers wait for a batch to fill */
	pthread_cond_t ready;		/* the puller waits for a batch of CPU want */
	int stop;			/* the source is being freed */
	int idle;			/* workers waiting on work */
	int want;			/* the CPU the puller waits for, -1 none */
	int ndone;
	int ncpu;
	struct tdp_cpu *cpus;
	int nworkers;
	struct tdp_worker *workers;
	pthread_t *th;
	int batch_cap;
	size_t lend_cap;
	/*
	 * The merge, the puller's: the CPUs on their top event's (ts, cpu); the
	 * top's ts as of the last td_merge_fix(), the top steps in place in between.
	 */
	struct td_merge m;
	struct tdp_cpu *adv;		/* the CPU to step past its event before the next one */
	int err;			/* sticky */
};

int td_par_workers(const struct td_src *s, int jobs)
{
	const struct td_buffer *b = s->buf;
	uint64_t bytes = 0;
	int ndata = 0, n;

	for (int i = 0; i < b->ncpus; i++) {
		ndata += b->cpus[i].size != 0;
		bytes += b->cpus[i].size;
	}
	if (!jobs) {
		/*
		 * A worker pays only where it takes work the puller would do:
		 * decompression.  Uncompressed pages are decoded in about the
		 * time their events take to travel between cores (104 bytes
		 * each), and a small buffer's threads cost more than they save
		 * (bench/README-tracedat.md, "Threads").
		 */
		if (!b->compressed || bytes < TD_PAR_MIN_BYTES)
			return 0;
		jobs = lat_jobs_default();
	}
	n = jobs - 1;		/* the puller is one of them */
	return n < ndata ? n : ndata;
}

/* ---- workers ---- */

static void batch_end(struct tdp_batch *b, int ret)
{
	b->end = 1;
	b->err = ret < 0 ? ret : 0;
}

/* Moves the walk's new notes of CPU @slot into @b, at the place of its next event. */
static int take_notes(struct td_par *p, int slot, struct tdp_batch *b)
{
	struct td_note *nn;
	int n = td_walk_cpu_notes(p->s->walk, slot, &nn), ret = 0;

	for (int k = 0; k < n; k++) {
		if (!ret && lat_grow(&b->notes, &b->notes_cap, (size_t)b->nnotes + 1,
				     sizeof(*b->notes)) < 0)
			ret = -LAT_ENOMEM;
		if (ret) {
			free(nn[k].text);
			continue;
		}
		b->notes[b->nnotes].idx = b->n;
		b->notes[b->nnotes++].n = nn[k];
	}
	free(nn);
	return n < 0 ? n : ret;
}

/*
 * A record the hot decoding declined, with what it lends copied into the
 * batch; 0, or 1 when the batch has no room left for it (it ends first).
 */
static int decode_lent(struct td_par *p, struct tdp_batch *b, const struct td_rec *r,
		       struct lat_event *ev)
{
	struct td_lend l = { .copy = 1 };
	uint64_t aux = 0;
	int fl;

	if (!b->lend && !(b->lend = malloc(p->lend_cap)))
		return -LAT_ENOMEM;
	if (p->lend_cap - b->lend_used < TD_LEND_ROOM(r->size) + 8)
		return 1;
	l.p = b->lend;
	l.used = b->lend_used;
	fl = td_decode_full(&p->s->dec, r, ev, &l, &aux);
	ev->comm[0] = (char)((fl & TD_DEC_COMM ? TDP_COMM : 0) |
			     (ev->type == LAT_EV_SWITCH ? TDP_SWITCH :
			      (unsigned)ev->type < 32 && (TD_FINISH_TYPES & (1u << ev->type)) ?
			      TDP_FINISH : 0));
	if (fl & TD_DEC_SYM) {
		/* the callback's address, for the puller to name (it holds the kallsyms) */
		l.used = (l.used + 7) & ~(size_t)7;
		memcpy(l.p + l.used, &aux, sizeof(aux));
		ev->u.irq.name = l.p + l.used;
		l.used += sizeof(aux);
	}
	b->lend_used = l.used;
	return 0;
}

/* The CPU's next step after its current record: 1 a record, else its end (@b ended). */
static int step_slow(struct td_par *p, struct tdp_worker *wk, int slot, struct tdp_batch *b)
{
	struct tdp_cpu *c = &p->cpus[slot];
	int ret = td_walk_cpu_step(p->s->walk, slot, &wk->dctx), nret;

	nret = take_notes(p, slot, b);
	if (nret < 0)
		ret = nret;
	if (ret <= 0) {
		batch_end(b, ret);
		return 0;
	}
	c->lost_due = td_walk_cpu_lost(p->s->walk, slot, &c->lost_count);
	return 1;
}

/* Fills batch @b of CPU @slot from where its walk stands. */
static void produce(struct td_par *p, struct tdp_worker *wk, int slot, struct tdp_batch *b)
{
	struct tdp_cpu *c = &p->cpus[slot];
	struct td_walk_cur *cur = td_walk_cpu_cur(p->s->walk, slot);
	const struct td_dec *d = &p->s->dec;
	int fast = td_walk_fast(p->s->walk), ret;

	b->n = b->nnotes = b->end = b->err = 0;
	b->lend_used = 0;
	if (!c->started) {
		c->started = 1;
		ret = td_walk_cpu_start(p->s->walk, slot, &wk->dctx);
		if ((ret = take_notes(p, slot, b) < 0 ? -LAT_ENOMEM : ret) <= 0) {
			batch_end(b, ret);
			return;
		}
		c->lost_due = td_walk_cpu_lost(p->s->walk, slot, &c->lost_count);
	}
	while (b->n < p->batch_cap) {
		struct lat_event *ev = &b->ev[b->n];

		if (c->lost_due) {
			td_decode_lost(&cur->r, c->lost_count, ev);
			c->lost_due = 0;
			b->n++;
			continue;
		}
		if (td_decode_hot(d, &cur->r, ev)) {
			ev->comm[0] = ev->type == LAT_EV_SWITCH ? TDP_COMM | TDP_SWITCH : TDP_COMM;
		} else if ((ret = decode_lent(p, b, &cur->r, ev)) != 0) {
			if (ret < 0)
				batch_end(b, ret);
			return;		/* no room: the record starts the next batch */
		}
		b->n++;
		if (fast && td_cur_step(cur))
			continue;
		if (!step_slow(p, wk, slot, b))
			return;
	}
}

/* A CPU that wants a batch, the one with the fewest ready (the puller needs it soonest); -1. */
static int pick(const struct td_par *p)
{
	int best = -1;
	unsigned int bn = TDP_RING;

	for (int i = 0; i < p->ncpu; i++) {
		const struct tdp_cpu *c = &p->cpus[i];
		unsigned int n = c->tail - c->head;

		if (!c->busy && !c->done && n < bn) {
			best = i;
			bn = n;
		}
	}
	return best;
}

static void *worker_main(void *arg)
{
	struct tdp_worker *wk = arg;
	struct td_par *p = wk->p;

	pthread_mutex_lock(&p->mu);
	for (;;) {
		struct tdp_cpu *c;
		struct tdp_batch *b;
		int slot = -1;

		while (!p->stop && p->ndone < p->ncpu && (slot = pick(p)) < 0) {
			p->idle++;
			pthread_cond_wait(&p->work, &p->mu);
			p->idle--;
		}
		if (p->stop || p->ndone == p->ncpu)
			break;
		c = &p->cpus[slot];
		c->busy = 1;
		b = &c->ring[c->tail % TDP_RING];
		pthread_mutex_unlock(&p->mu);
		produce(p, wk, slot, b);
		pthread_mutex_lock(&p->mu);
		c->busy = 0;
		c->tail++;
		if (b->end) {
			c->done = 1;
			if (++p->ndone == p->ncpu)
				pthread_cond_broadcast(&p->work);	/* the idle ones leave */
		}
		if (p->want == slot)
			pthread_cond_signal(&p->ready);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* ---- the puller ---- */

/* Replays the notes of @c's batch at its current event, and finds where the next stop is. */
static void replay_notes(struct td_par *p, struct tdp_cpu *c)
{
	struct tdp_batch *b = c->cur;
	int i = (int)(c->e - b->ev);

	while (c->note_i < b->nnotes && b->notes[c->note_i].idx == i) {
		struct td_note *n = &b->notes[c->note_i++].n;

		if (n->skip)
			td_notes_skip(&p->s->notes, n->text);
		else
			td_notes_stop(&p->s->notes, n->text);
		free(n->text);
		n->text = NULL;
	}
	c->stop = b->ev + (c->note_i < b->nnotes ? b->notes[c->note_i].idx : b->n);
}

/* Takes @c's next batch as its current one, waiting for a worker to publish it. */
static void take_batch(struct td_par *p, struct tdp_cpu *c)
{
	pthread_mutex_lock(&p->mu);
	while (c->tail == c->head) {
		p->want = (int)(c - p->cpus);
		pthread_cond_wait(&p->ready, &p->mu);
	}
	p->want = -1;
	pthread_mutex_unlock(&p->mu);
	c->cur = &c->ring[c->head % TDP_RING];
	c->e = c->cur->ev;
	c->note_i = 0;
	replay_notes(p, c);
}

/* Gives the current batch of @c back to the workers. */
static void release_batch(struct td_par *p, struct tdp_cpu *c)
{
	pthread_mutex_lock(&p->mu);
	c->head++;
	/*
	 * A worker sleeps with every ring full: wake it when half of this
	 * one is free, not at each batch (a wake-up of an idle vCPU costs
	 * tens of microseconds here: one per batch doubled the CPU time).
	 */
	if (p->idle && c->tail - c->head <= TDP_RING / 2)
		pthread_cond_signal(&p->work);
	pthread_mutex_unlock(&p->mu);
}

/*
 * @c's cursor reached a note or its batch's end (c->e == c->stop): the notes
 * replayed, the next batch taken where this one is used up.  1 the CPU has an
 * event at c->e, 0 it ended, or its error.
 */
static __attribute__((noinline)) int step_slow_pull(struct td_par *p, struct tdp_cpu *c)
{
	replay_notes(p, c);
	while (c->e == c->cur->ev + c->cur->n) {
		int end = c->cur->end, err = c->cur->err;

		release_batch(p, c);
		if (end) {
			c->cur = NULL;
			return err;
		}
		take_batch(p, c);
	}
	return 1;
}

/*
 * Steps the CPU whose event was handed out last (p->adv, the heap's top) past
 * it: in place while no note or batch end is in the way, and the merge fixed
 * when another CPU is now earlier.  0; or 1 after the slow path, where the CPU
 * may have ended (the heap may be empty) or failed (p->err set).
 */
static inline int advance(struct td_par *p)
{
	struct tdp_cpu *c = p->adv;
	const struct lat_event *e = ++c->e;

	p->adv = NULL;
	if (__builtin_expect(e >= c->stop, 0)) {
		int ret = step_slow_pull(p, c);

		if (ret <= 0) {
			if (ret < 0)
				p->err = ret;
			else
				td_merge_fix(&p->m, 0, 0);
			return 1;
		}
		e = c->e;
	}
	if (td_merge_crossed(&p->m, e->ts_ns, e->cpu))
		td_merge_fix(&p->m, 1, e->ts_ns);
	return 0;
}

/* The finishing of @ev (tracedat_src.h), decoded by a worker, now that it is in merged order. */
static inline void finish(struct td_src *s, struct td_ccache *cc, struct lat_event *ev)
{
	int k = ev->comm[0];

	if (k & TDP_COMM)
		td_comm_of(s, cc, ev->pid, ev->comm);
	if (k & TDP_SWITCH) {
		td_switch_in(s, cc, ev->u.sw.next_pid, ev->u.sw.next_comm);
	} else if (k & TDP_FINISH) {
		uint64_t aux = 0;
		int fl = 0;

		/* a timer callback's name is its address until now (decode_lent()) */
		if ((ev->type == LAT_EV_TIMER_ENTRY || ev->type == LAT_EV_TIMER_START) &&
		    ev->u.irq.name) {
			memcpy(&aux, ev->u.irq.name, sizeof(aux));
			fl = TD_DEC_SYM;
		}
		td_finish(s, cc, ev, fl, aux);
	}
}

int td_par_next_batch(struct lat_event_source *base, struct lat_event *evs, int n)
{
	struct td_src *s = (struct td_src *)base;
	struct td_par *p = s->par;
	int i = 0;

	if (s->end_pending || p->err)
		return p->err;
	while (i < n) {
		struct lat_event *ev = &evs[i];
		struct tdp_cpu *c;

		/* after the first event the top CPU changes or ends only in advance() */
		if (!p->adv || advance(p)) {
			if (__builtin_expect(p->err || !p->m.n, 0)) {
				if (!i)
					return p->err;
				s->end_pending = 1;
				return i;
			}
		}
		c = &p->cpus[p->m.h[0].slot];
		*ev = *c->e;
		p->adv = c;
		finish(s, c->cc, ev);
		i++;
		if (lat_event_batch_ends(ev->type))
			break;
	}
	return i;
}

int td_par_next(struct lat_event_source *base, struct lat_event *ev)
{
	return td_par_next_batch(base, ev, 1);
}

int td_par_live(const struct td_src *s)
{
	return s->par->m.n > 0;
}

/* ---- start and stop ---- */

/* The rings of @ncpu CPUs, the heap and the workers' slots. */
static int par_alloc(struct td_par *p, int ncpu, int nworkers)
{
	size_t per = TDP_BUDGET / sizeof(struct lat_event) / TDP_RING / (size_t)ncpu;

	p->ncpu = ncpu;
	p->batch_cap = per > TDP_BATCH ? TDP_BATCH : per < TDP_BATCH_MIN ? TDP_BATCH_MIN : (int)per;
	p->lend_cap = TD_LEND_ROOM(p->s->buf->page_size) + 8;
	if (p->lend_cap < TDP_LEND_MIN)
		p->lend_cap = TDP_LEND_MIN;
	p->cpus = calloc((size_t)ncpu, sizeof(*p->cpus));
	p->m.h = calloc((size_t)ncpu + 1, sizeof(*p->m.h));
	p->workers = calloc((size_t)nworkers, sizeof(*p->workers));
	p->th = calloc((size_t)nworkers, sizeof(*p->th));
	if (!p->cpus || !p->m.h || !p->workers || !p->th)
		return -LAT_ENOMEM;
	for (int i = 0; i < ncpu; i++)
		for (int k = 0; k < TDP_RING; k++) {
			struct tdp_batch *b = &p->cpus[i].ring[k];

			b->ev = malloc((size_t)p->batch_cap * sizeof(*b->ev));
			if (!b->ev)
				return -LAT_ENOMEM;
		}
	return 0;
}

int td_par_start(struct td_src *s, int nworkers)
{
	struct td_par *p = calloc(1, sizeof(*p));
	int ret;

	s->par = p;
	if (!p)
		return -LAT_ENOMEM;
	p->s = s;
	p->want = -1;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->ready, NULL);
	ret = par_alloc(p, td_walk_slots(s->walk), nworkers);
	if (ret < 0)
		return ret;
	for (int i = 0; i < nworkers; i++)
		p->workers[i].p = p;
	p->nworkers = par_spawn(p->th, nworkers, worker_main, (char *)p->workers,
				sizeof(*p->workers));
	if (!p->nworkers)
		return 1;
	/* the walk's start, CPU by CPU as the one-thread walk opens them */
	for (int i = 0; i < p->ncpu; i++) {
		struct tdp_cpu *c = &p->cpus[i];

		c->cc = &s->cc[i];
		take_batch(p, c);
		ret = c->cur->n ? 1 : step_slow_pull(p, c);
		if (ret < 0)
			return ret;
		if (ret)
			td_merge_push(&p->m, c->e->ts_ns, c->e->cpu, i);
	}
	td_merge_limit(&p->m);
	return 0;
}

void td_par_free(struct td_src *s)
{
	struct td_par *p = s->par;

	if (!p)
		return;
	par_stop(&p->mu, &p->work, &p->stop, p->th, p->nworkers);
	for (int i = 0; i < p->nworkers; i++)
		td_dctx_free(p->workers[i].dctx);
	for (int i = 0; p->cpus && i < p->ncpu; i++)
		for (int k = 0; k < TDP_RING; k++) {
			struct tdp_batch *b = &p->cpus[i].ring[k];

			for (int j = 0; j < b->nnotes; j++)
				free(b->notes[j].n.text);
			free(b->notes);
			free(b->ev);
			free(b->lend);
		}
	pthread_cond_destroy(&p->ready);
	pthread_cond_destroy(&p->work);
	pthread_mutex_destroy(&p->mu);
	free(p->cpus);
	free(p->m.h);
	free(p->workers);
	free(p->th);
	free(p);
	s->par = NULL;
}
