// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The exporters' records handed from the analysis to a thread that writes them
 * (export_pipe.h).  A record is copied whole with what it lends (a wait's link and
 * evidence, a marker's text, an irq's name), so the exporter sees what it would have seen
 * in the call; the order is kept, so the bytes written are the same.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "export_pipe.h"

enum pipe_type { PIPE_SLICE, PIPE_WAIT, PIPE_MARKER, PIPE_LOST, PIPE_STALL, PIPE_IRQ, PIPE_RUNQ };

/* A record in a chunk: its head, then its body; whole words. */
struct pipe_head {
	uint32_t type;
	uint32_t size;		/* of the record with its head, a multiple of 8 */
};

struct pipe_wait {
	struct lat_wait_rec rec;
	struct lat_wake_link link;
	struct lat_verdict_evidence ev;	/* when rec.evidence was not NULL */
};

struct pipe_marker {
	struct lat_event ev;
	int64_t lat_ns;
	char text[];		/* ev.u.marker.len bytes */
};

struct pipe_irq {
	struct lat_irq_slice q;
	char name[];		/* NUL-terminated */
};

struct pipe_runq {
	int32_t cpu;
	uint32_t depth;
	uint64_t ts_ns;
};

#define HEAD_SIZE sizeof(struct pipe_head)

static size_t whole_words(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* ---- the exporter's thread ----------------------------------------------------------- */

/* @h's record to @s; its body is the thread's now, its pointers set in place. */
static void replay(const struct lat_wake_sink *s, struct pipe_head *h)
{
	void *body = h + 1;

	switch (h->type) {
	case PIPE_SLICE:
		s->slice(s->ctx, body);
		break;
	case PIPE_WAIT: {
		struct pipe_wait *w = body;

		w->rec.w = &w->link;
		if (w->rec.evidence)
			w->rec.evidence = &w->ev;
		s->wait(s->ctx, &w->rec);
		break;
	}
	case PIPE_MARKER: {
		struct pipe_marker *m = body;

		if (m->ev.u.marker.text)
			m->ev.u.marker.text = m->text;
		s->marker(s->ctx, &m->ev, m->lat_ns);
		break;
	}
	case PIPE_LOST:
		s->lost(s->ctx, body);
		break;
	case PIPE_STALL:
		s->stall(s->ctx, body);
		break;
	case PIPE_IRQ: {
		struct pipe_irq *q = body;

		q->q.name = q->name;
		s->irq(s->ctx, &q->q);
		break;
	}
	case PIPE_RUNQ: {
		const struct pipe_runq *r = body;

		s->runq(s->ctx, r->cpu, r->ts_ns, r->depth);
		break;
	}
	}
}

static void *pipe_thread(void *arg)
{
	struct cli_pipe *p = arg;

	pthread_mutex_lock(&p->mu);
	for (;;) {
		char *c, *end;

		while (p->done == p->filled && !p->quit) {
			p->idle = 1;
			pthread_cond_wait(&p->more, &p->mu);
			p->idle = 0;
		}
		if (p->done == p->filled)
			break;
		c = p->ring + (p->done % CLI_PIPE_CHUNKS) * CLI_PIPE_CHUNK;
		end = c + p->lens[p->done % CLI_PIPE_CHUNKS];
		pthread_mutex_unlock(&p->mu);
		for (; c < end; c += ((struct pipe_head *)c)->size)
			replay(&p->back, (struct pipe_head *)c);
		pthread_mutex_lock(&p->mu);
		p->done++;
		if ((p->full && p->filled - p->done <= CLI_PIPE_CHUNKS / 2) ||
		    (p->flush && p->done == p->filled))
			pthread_cond_signal(&p->room);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* ---- the analysis' thread -------------------------------------------------------------- */

/* The chunk filled goes to the thread; the next one is taken when the thread is done with it. */
static void hand(struct cli_pipe *p)
{
	pthread_mutex_lock(&p->mu);
	p->lens[p->filled % CLI_PIPE_CHUNKS] = p->nfill;
	p->filled++;
	if (p->idle && (p->filled - p->done >= CLI_PIPE_CHUNKS / 2 || p->flush))
		pthread_cond_signal(&p->more);
	while (p->filled - p->done >= CLI_PIPE_CHUNKS) {
		p->full = 1;
		pthread_cond_wait(&p->room, &p->mu);
		p->full = 0;
	}
	pthread_mutex_unlock(&p->mu);
	p->fill = p->ring + (p->filled % CLI_PIPE_CHUNKS) * CLI_PIPE_CHUNK;
	p->nfill = 0;
}

void cli_pipe_drain(struct cli_pipe *p)
{
	pthread_mutex_lock(&p->mu);
	p->flush = 1;
	pthread_mutex_unlock(&p->mu);
	if (p->nfill)
		hand(p);
	pthread_mutex_lock(&p->mu);
	if (p->idle)
		pthread_cond_signal(&p->more);
	while (p->done != p->filled)
		pthread_cond_wait(&p->room, &p->mu);
	p->flush = 0;
	pthread_mutex_unlock(&p->mu);
}

/*
 * Room for a record of @size bytes of body in the chunk being filled: where the body goes;
 * NULL when it cannot fit in a chunk: the ring is drained, the caller hands it on itself.
 */
static void *room(struct cli_pipe *p, enum pipe_type type, size_t size)
{
	size_t need = whole_words(HEAD_SIZE + size);
	struct pipe_head *h;

	if (need > CLI_PIPE_CHUNK) {
		cli_pipe_drain(p);
		return NULL;
	}
	if (p->nfill + need > CLI_PIPE_CHUNK)
		hand(p);
	h = (struct pipe_head *)(p->fill + p->nfill);
	h->type = type;
	h->size = (uint32_t)need;
	p->nfill += need;
	return h + 1;
}

static void put_slice(void *ctx, const struct lat_run_slice *s)
{
	memcpy(room(ctx, PIPE_SLICE, sizeof(*s)), s, sizeof(*s));
}

static void put_wait(void *ctx, const struct lat_wait_rec *rec)
{
	size_t size = rec->evidence ? sizeof(struct pipe_wait) :
				      offsetof(struct pipe_wait, ev);
	struct pipe_wait *w = room(ctx, PIPE_WAIT, size);

	w->rec = *rec;
	w->link = *rec->w;
	if (rec->evidence)
		w->ev = *rec->evidence;
}

static void put_marker(void *ctx, const struct lat_event *ev, int64_t lat_ns)
{
	struct cli_pipe *p = ctx;
	size_t len = ev->u.marker.text ? ev->u.marker.len : 0;
	struct pipe_marker *m = room(p, PIPE_MARKER, sizeof(*m) + len);

	if (!m) {
		p->back.marker(p->back.ctx, ev, lat_ns);
		return;
	}
	m->ev = *ev;
	/* lent for the call, and not read by the exporters */
	m->ev.name = NULL;
	m->ev.u.marker.steal = NULL;
	m->lat_ns = lat_ns;
	if (len)
		memcpy(m->text, ev->u.marker.text, len);
}

static void put_lost(void *ctx, const struct lat_wake_gap *g)
{
	memcpy(room(ctx, PIPE_LOST, sizeof(*g)), g, sizeof(*g));
}

static void put_stall(void *ctx, const struct lat_wake_stall *s)
{
	memcpy(room(ctx, PIPE_STALL, sizeof(*s)), s, sizeof(*s));
}

static void put_irq(void *ctx, const struct lat_irq_slice *q)
{
	struct cli_pipe *p = ctx;
	size_t len = strlen(q->name) + 1;
	struct pipe_irq *r = room(p, PIPE_IRQ, sizeof(*r) + len);

	if (!r) {
		p->back.irq(p->back.ctx, q);
		return;
	}
	r->q = *q;
	memcpy(r->name, q->name, len);
}

static void put_runq(void *ctx, int32_t cpu, uint64_t ts_ns, uint32_t depth)
{
	struct pipe_runq *r = room(ctx, PIPE_RUNQ, sizeof(*r));

	*r = (struct pipe_runq){ .cpu = cpu, .depth = depth, .ts_ns = ts_ns };
}

int cli_pipe_start(struct cli_pipe *p, const struct lat_wake_sink *back,
		   struct lat_wake_sink *front)
{
	memset(p, 0, sizeof(*p));
	if (back->event)
		return -1;
	p->back = *back;
	p->ring = malloc((size_t)CLI_PIPE_CHUNKS * CLI_PIPE_CHUNK);
	if (!p->ring)
		return -1;
	p->fill = p->ring;
	if (pthread_mutex_init(&p->mu, NULL))
		goto no_mutex;
	if (pthread_cond_init(&p->more, NULL))
		goto no_more;
	if (pthread_cond_init(&p->room, NULL))
		goto no_room;
	if (pthread_create(&p->th, NULL, pipe_thread, p))
		goto no_thread;
	/* a callback the exporter does not take stays NULL: the analysis skips its record */
	*front = (struct lat_wake_sink){
		.ctx = p,
		.slice = back->slice ? put_slice : NULL,
		.wait = back->wait ? put_wait : NULL,
		.marker = back->marker ? put_marker : NULL,
		.lost = back->lost ? put_lost : NULL,
		.stall = back->stall ? put_stall : NULL,
		.irq = back->irq ? put_irq : NULL,
		.runq = back->runq ? put_runq : NULL,
	};
	return 0;
no_thread:
	pthread_cond_destroy(&p->room);
no_room:
	pthread_cond_destroy(&p->more);
no_more:
	pthread_mutex_destroy(&p->mu);
no_mutex:
	free(p->ring);
	p->ring = NULL;
	return -1;
}

void cli_pipe_stop(struct cli_pipe *p)
{
	if (!p->ring)
		return;
	cli_pipe_drain(p);
	pthread_mutex_lock(&p->mu);
	p->quit = 1;
	pthread_cond_signal(&p->more);
	pthread_mutex_unlock(&p->mu);
	pthread_join(p->th, NULL);
	pthread_cond_destroy(&p->room);
	pthread_cond_destroy(&p->more);
	pthread_mutex_destroy(&p->mu);
	free(p->ring);
	p->ring = NULL;
}
