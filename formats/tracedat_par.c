// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trace.dat read by worker threads (tracedat_par.h).
 *
 * The CPUs with data are split into fixed groups of neighbouring slots, as
 * many groups as workers from TDP_GROUP_CPUS CPUs on, else (and when there
 * are workers enough) one CPU a group; each group has a ring of TDP_RING
 * batches.  A worker takes a group (one worker per group at a time), walks
 * its CPUs' pages from where they stopped (td_walk_cpu_*(): read,
 * decompress, page checks), merges them on (timestamp, cpu) and decodes the
 * records in that order (td_decode_hot() / td_decode_full(), what they lend
 * copied into the batch) into the next free batch and publishes it; the
 * notes the walk made (a CPU stopped early, a damaged page skipped) are kept
 * in the batch at the place they were made.
 * The puller (the thread calling next / next_batch) merges the groups'
 * current batches on (timestamp, cpu) as the one-thread walk merges CPUs:
 * CPUs are distinct, so merging ordered groups gives the one order.  It
 * replays each note when it steps past its place, which is when the
 * one-thread walk would have made it, and finishes every event (comms,
 * symbols) in that order.  A batch is released when the puller steps past
 * its last event, at its next call: what the events it handed out lend
 * stays valid until then.
 *
 * Groups move the merge of many CPUs off the puller (the analysis thread),
 * which merges one stream per worker (bench/README-tracedat.md, "Many CPUs:
 * the limit in the sift, the workers' groups").
 *
 * Memory is bounded: TDP_RING batches of at most TDP_BATCH events per group,
 * fewer events per batch when there are many groups (TDP_BUDGET), plus each
 * CPU's read buffer or chunk as with one thread.
 */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "par_threads.h"
#include "tracedat_merge.h"
#include "tracedat_par.h"

#define TDP_RING 8			/* batches per group */
#define TDP_BATCH 512			/* events per batch at most */
#define TDP_BATCH_MIN 16
#define TDP_BUDGET (8u << 20)		/* the batches' events of all groups together */
#define TDP_LEND_MIN (64u << 10)	/* a batch's room for lent bytes, when it needs one */
/*
 * From this many CPUs with data the workers merge groups of CPUs.  Below it
 * the puller's merge is cheap (two CPUs trade places inline) and a worker
 * pays more for merging than the puller saves: 4 CPUs, 1.07M events, one
 * worker: the puller 9 ms less, the worker 15 ms more, and with zstd the
 * worker is already the longer thread (bench/README-tracedat.md, "Many CPUs:
 * the limit in the sift, the workers' groups").
 */
#define TDP_GROUP_CPUS 8

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
	uint16_t *slot;			/* per event, its CPU's walk slot (its comm cache) */
	int n;
	int end;			/* the group's last batch */
	int err;			/* ... ended by this error (0: its end) */
	struct tdp_note *notes;
	int nnotes;
	size_t notes_cap;
	char *lend;			/* what the events lend (TD_LEND_ROOM each), or NULL */
	size_t lend_used;
};

/* A CPU's walk, the worker's that holds its group. */
struct tdp_cpu {
	struct td_walk_cur *cur;	/* its cursor in the walk */
	int lost_due;			/* a lost-events mark comes before the record */
	uint64_t lost_count;
};

/* A group of CPUs: slots first .. first + n - 1, one ordered stream. */
struct tdp_grp {
	/* under mu */
	unsigned int head;		/* batches released by the puller */
	unsigned int tail;		/* batches published by workers */
	int busy;			/* a worker fills ring[tail % TDP_RING] */
	int done;			/* the last batch is published */
	/* fixed at the start */
	int first, n;
	/* the worker's that holds busy */
	int started;
	struct td_merge m;		/* its CPUs on their current record's (ts, cpu) */
	/* the puller's */
	struct td_ccache *cc;		/* the comm cache of a group of one CPU, else NULL */
	struct tdp_batch *cur;		/* ring[head % TDP_RING], or NULL: the group ended */
	const struct lat_event *e;	/* its event on top, or to step past */
	const struct lat_event *stop;	/* the next note or the end: the slow step */
	int note_i;			/* the next note of cur to replay */
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
	pthread_cond_t ready;		/* the puller waits for a batch of group want */
	int stop;			/* the source is being freed */
	int idle;			/* workers waiting on work */
	int want;			/* the group the puller waits for, -1 none */
	int ndone;
	int ncpu;
	struct tdp_cpu *cpus;
	int ngrp;
	struct tdp_grp *grps;
	int nworkers;
	struct tdp_worker *workers;
	pthread_t *th;
	int batch_cap;
	size_t lend_cap;
	/*
	 * The merge, the puller's: the groups on their top event's (ts, cpu);
	 * the top's ts as of the last td_merge_fix(), the top steps in place in
	 * between.
	 */
	struct td_merge m;
	struct tdp_grp *adv;		/* the group to step past its event before the next one */
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
		 * decompression, or the merge of a group of CPUs.  Uncompressed
		 * pages of a few CPUs are decoded in about the time their events
		 * take to travel between cores (104 bytes each); a small buffer's
		 * threads cost more than they save (bench/README-tracedat.md,
		 * "Threads", "Many CPUs: the limit in the sift, the workers' groups").
		 */
		if ((!b->compressed && ndata < TDP_GROUP_CPUS) || bytes < TD_PAR_MIN_BYTES)
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

/* The CPU's next record after its current one: 1, 0 at its end, or a negative lat_err. */
static int step_slow(struct td_par *p, struct tdp_worker *wk, int slot, struct tdp_batch *b)
{
	struct tdp_cpu *c = &p->cpus[slot];
	int ret = td_walk_cpu_step(p->s->walk, slot, &wk->dctx), nret;

	nret = take_notes(p, slot, b);
	if (nret < 0)
		ret = nret;
	if (ret > 0)
		c->lost_due = td_walk_cpu_lost(p->s->walk, slot, &c->lost_count);
	return ret;
}

/*
 * The walks of @g's CPUs started in slot order, as the one-thread walk opens
 * them (their notes at the start of @b), and merged: 1, 0 when none has a
 * record, or a negative lat_err.
 */
static int grp_start(struct td_par *p, struct tdp_worker *wk, struct tdp_grp *g,
		     struct tdp_batch *b)
{
	g->started = 1;
	for (int slot = g->first; slot < g->first + g->n; slot++) {
		struct tdp_cpu *c = &p->cpus[slot];
		int ret = td_walk_cpu_start(p->s->walk, slot, &wk->dctx);

		if (take_notes(p, slot, b) < 0)
			ret = -LAT_ENOMEM;
		if (ret < 0)
			return ret;
		if (!ret)
			continue;
		c->lost_due = td_walk_cpu_lost(p->s->walk, slot, &c->lost_count);
		td_merge_push(&g->m, c->cur->r.ts, c->cur->r.cpu, slot);
	}
	td_merge_limit(&g->m);
	return g->m.n > 0;
}

/*
 * The slow step of the group's top CPU (@slot) past its record: the walk's
 * next page or the CPU's end, and the group's merge fixed as the one-thread
 * walk fixes it.  1 go on, 0 the batch ended.
 */
static int grp_step_slow(struct td_par *p, struct tdp_worker *wk, struct tdp_grp *g, int slot,
			 struct tdp_batch *b)
{
	struct td_walk_cur *cur = p->cpus[slot].cur;
	int ret = step_slow(p, wk, slot, b);

	if (ret < 0) {
		batch_end(b, ret);
		return 0;
	}
	if (!ret) {
		td_merge_fix(&g->m, 0, 0);
		if (!g->m.n) {
			batch_end(b, 0);
			return 0;
		}
	} else if (td_merge_crossed(&g->m, cur->r.ts, cur->r.cpu)) {
		td_merge_fix(&g->m, 1, cur->r.ts);
	}
	return 1;
}

/*
 * The group's top CPU (@slot): its records into @b while it stays the
 * earliest of the group (stepped in place, as the one-thread walk steps its
 * top; @fast: our page walk), then the merge fixed.  1 go on with the top
 * CPU then, 0 the batch is full or ended.
 */
static inline int grp_run(struct td_par *p, struct tdp_worker *wk, struct tdp_grp *g, int slot,
			  struct tdp_batch *b, int fast)
{
	const struct td_dec *d = &p->s->dec;
	struct tdp_cpu *c = &p->cpus[slot];
	struct td_walk_cur *cur = c->cur;
	int ret;

	if (c->lost_due) {
		/* set by the CPU's start or a slow step, after which the top is looked up again */
		td_decode_lost(&cur->r, c->lost_count, &b->ev[b->n]);
		c->lost_due = 0;
		b->slot[b->n++] = (uint16_t)slot;
		return b->n < p->batch_cap;
	}
	for (;;) {
		struct lat_event *ev = &b->ev[b->n];

		if (td_decode_hot(d, &cur->r, ev)) {
			ev->comm[0] = ev->type == LAT_EV_SWITCH ? TDP_COMM | TDP_SWITCH : TDP_COMM;
		} else if ((ret = decode_lent(p, b, &cur->r, ev)) != 0) {
			if (ret < 0)
				batch_end(b, ret);
			return 0;		/* no room: the record starts the next batch */
		}
		b->slot[b->n++] = (uint16_t)slot;
		if (!fast || !td_cur_step(cur))
			return grp_step_slow(p, wk, g, slot, b) && b->n < p->batch_cap;
		if (td_merge_crossed(&g->m, cur->r.ts, cur->r.cpu)) {
			td_merge_fix(&g->m, 1, cur->r.ts);
			return b->n < p->batch_cap;
		}
		if (b->n == p->batch_cap)
			return 0;
	}
}

/* Fills batch @b of group @g from where its CPUs' walks stand, in their merged order. */
static void produce(struct td_par *p, struct tdp_worker *wk, struct tdp_grp *g,
		    struct tdp_batch *b)
{
	int fast = td_walk_fast(p->s->walk), ret;

	b->n = b->nnotes = b->end = b->err = 0;
	b->lend_used = 0;
	if (!g->started && (ret = grp_start(p, wk, g, b)) <= 0) {
		batch_end(b, ret);
		return;
	}
	while (grp_run(p, wk, g, g->m.h[0].slot, b, fast))
		;
}

/* A group that wants a batch, the one with the fewest ready (the puller needs it soonest); -1. */
static int pick(const struct td_par *p)
{
	int best = -1;
	unsigned int bn = TDP_RING;

	for (int i = 0; i < p->ngrp; i++) {
		const struct tdp_grp *g = &p->grps[i];
		unsigned int n = g->tail - g->head;

		if (!g->busy && !g->done && n < bn) {
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
		struct tdp_grp *g;
		struct tdp_batch *b;
		int gi = -1;

		while (!p->stop && p->ndone < p->ngrp && (gi = pick(p)) < 0) {
			p->idle++;
			pthread_cond_wait(&p->work, &p->mu);
			p->idle--;
		}
		if (p->stop || p->ndone == p->ngrp)
			break;
		g = &p->grps[gi];
		g->busy = 1;
		b = &g->ring[g->tail % TDP_RING];
		pthread_mutex_unlock(&p->mu);
		produce(p, wk, g, b);
		pthread_mutex_lock(&p->mu);
		g->busy = 0;
		g->tail++;
		if (b->end) {
			g->done = 1;
			if (++p->ndone == p->ngrp)
				pthread_cond_broadcast(&p->work);	/* the idle ones leave */
		}
		if (p->want == gi)
			pthread_cond_signal(&p->ready);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* ---- the puller ---- */

/* Replays the notes of group @c's batch at its current event, and finds where the next stop is. */
static void replay_notes(struct td_par *p, struct tdp_grp *c)
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
static void take_batch(struct td_par *p, struct tdp_grp *c)
{
	pthread_mutex_lock(&p->mu);
	while (c->tail == c->head) {
		p->want = (int)(c - p->grps);
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
static void release_batch(struct td_par *p, struct tdp_grp *c)
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
 * Group @c's cursor reached a note or its batch's end (c->e == c->stop): the
 * notes replayed, the next batch taken where this one is used up.  1 the group
 * has an event at c->e, 0 it ended, or its error.
 */
static __attribute__((noinline)) int step_slow_pull(struct td_par *p, struct tdp_grp *c)
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
 * Steps the group whose event was handed out last (p->adv, the heap's top)
 * past it: in place while no note or batch end is in the way, and the merge
 * fixed when another group is now earlier.  0; or 1 after the slow path, where
 * the group may have ended (the heap may be empty) or failed (p->err set).
 */
static inline int advance(struct td_par *p)
{
	struct tdp_grp *c = p->adv;
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

/*
 * The finishing of @ev (tracedat_src.h), decoded by a worker, now that it is in merged order:
 * @e, the event of group @g it was copied from, names its CPU's comm cache.
 */
static inline void finish(struct td_src *s, const struct tdp_grp *g, const struct lat_event *e,
			  struct lat_event *ev)
{
	int k = ev->comm[0];
	/* a group of one CPU keeps its cache at hand: no look-up per event */
	struct td_ccache *cc = g->cc ? g->cc : &s->cc[g->cur->slot[e - g->cur->ev]];

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
		struct tdp_grp *c;

		/* after the first event the top group changes or ends only in advance() */
		if (!p->adv || advance(p)) {
			if (__builtin_expect(p->err || !p->m.n, 0)) {
				if (!i)
					return p->err;
				s->end_pending = 1;
				return i;
			}
		}
		c = &p->grps[p->m.h[0].slot];
		*ev = *c->e;
		p->adv = c;
		finish(s, c, c->e, ev);
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

/* A batch's room: @cap events and their slots. */
static int batch_alloc(struct tdp_batch *b, int cap)
{
	b->ev = malloc((size_t)cap * sizeof(*b->ev));
	b->slot = malloc((size_t)cap * sizeof(*b->slot));
	return b->ev && b->slot ? 0 : -LAT_ENOMEM;
}

/*
 * The @ncpu CPUs in @ngrp groups of neighbouring slots, their rings and
 * merges, the puller's heap and the workers' slots.
 */
static int par_alloc(struct td_par *p, int ncpu, int ngrp, int nworkers)
{
	size_t per = TDP_BUDGET / sizeof(struct lat_event) / TDP_RING / (size_t)ngrp;

	p->ncpu = ncpu;
	p->ngrp = ngrp;
	p->batch_cap = per > TDP_BATCH ? TDP_BATCH : per < TDP_BATCH_MIN ? TDP_BATCH_MIN : (int)per;
	p->lend_cap = TD_LEND_ROOM(p->s->buf->page_size) + 8;
	if (p->lend_cap < TDP_LEND_MIN)
		p->lend_cap = TDP_LEND_MIN;
	p->cpus = calloc((size_t)ncpu, sizeof(*p->cpus));
	p->grps = calloc((size_t)ngrp, sizeof(*p->grps));
	p->m.h = calloc((size_t)ngrp + 1, sizeof(*p->m.h));
	p->workers = calloc((size_t)nworkers, sizeof(*p->workers));
	p->th = calloc((size_t)nworkers, sizeof(*p->th));
	if (!p->cpus || !p->grps || !p->m.h || !p->workers || !p->th)
		return -LAT_ENOMEM;
	for (int i = 0; i < ncpu; i++)
		p->cpus[i].cur = td_walk_cpu_cur(p->s->walk, i);
	for (int i = 0; i < ngrp; i++) {
		struct tdp_grp *g = &p->grps[i];

		g->first = (int)((int64_t)i * ncpu / ngrp);
		g->n = (int)((int64_t)(i + 1) * ncpu / ngrp) - g->first;
		g->m.h = calloc((size_t)g->n + 1, sizeof(*g->m.h));
		if (!g->m.h)
			return -LAT_ENOMEM;
		for (int k = 0; k < TDP_RING; k++)
			if (batch_alloc(&g->ring[k], p->batch_cap) < 0)
				return -LAT_ENOMEM;
	}
	return 0;
}

int td_par_start(struct td_src *s, int nworkers)
{
	struct td_par *p = calloc(1, sizeof(*p));
	int ncpu = td_walk_slots(s->walk), ret;

	s->par = p;
	if (!p)
		return -LAT_ENOMEM;
	p->s = s;
	p->want = -1;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->ready, NULL);
	/* a group per worker: the puller merges as many streams as can be filled at once */
	ret = par_alloc(p, ncpu, ncpu >= TDP_GROUP_CPUS && nworkers < ncpu ? nworkers : ncpu,
			nworkers);
	if (ret < 0)
		return ret;
	for (int i = 0; i < nworkers; i++)
		p->workers[i].p = p;
	p->nworkers = par_spawn(p->th, nworkers, worker_main, (char *)p->workers,
				sizeof(*p->workers));
	if (!p->nworkers)
		return 1;
	/* the walk's start, group by group: CPU by CPU as the one-thread walk opens them */
	for (int i = 0; i < p->ngrp; i++) {
		struct tdp_grp *g = &p->grps[i];

		g->cc = g->n == 1 ? &s->cc[g->first] : NULL;
		take_batch(p, g);
		ret = g->cur->n ? 1 : step_slow_pull(p, g);
		if (ret < 0)
			return ret;
		if (ret)
			td_merge_push(&p->m, g->e->ts_ns, g->e->cpu, i);
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
	for (int i = 0; p->grps && i < p->ngrp; i++) {
		for (int k = 0; k < TDP_RING; k++) {
			struct tdp_batch *b = &p->grps[i].ring[k];

			for (int j = 0; j < b->nnotes; j++)
				free(b->notes[j].n.text);
			free(b->notes);
			free(b->ev);
			free(b->slot);
			free(b->lend);
		}
		free(p->grps[i].m.h);
	}
	pthread_cond_destroy(&p->ready);
	pthread_cond_destroy(&p->work);
	pthread_mutex_destroy(&p->mu);
	free(p->cpus);
	free(p->grps);
	free(p->m.h);
	free(p->workers);
	free(p->th);
	free(p);
	s->par = NULL;
}
