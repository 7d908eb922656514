// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftrace text files parsed by worker threads (ftrace_text_par.h).
 *
 * The file is cut into chunks of FTP_CHUNK bytes; a chunk holds the lines
 * that start in it (a line starts at the file's start or after a newline),
 * read on to the end of its last line: every line belongs to one chunk
 * whatever the cut.  Workers take the chunks in file order, read and parse
 * them into a slot of a ring of FTP_SLOTS(workers) slots; the puller takes
 * the slots in file order and hands their lines to the reader's state
 * machine, then frees each slot when it leaves it (the events the reader
 * handed out from it are past by then: the reader leaves a chunk only when
 * its queue of events is empty).  Memory is bounded by the ring: each slot
 * holds its chunk's text (at most FTP_CHUNK + FT_LINE_MAX bytes) and its
 * lines.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ftrace_text_par.h"
#include "par_threads.h"

#define FTP_CHUNK (64u << 10)

/* A chunk's lines and their events, parsed by a worker. */
struct ftp_slot {
	uint64_t idx;			/* the chunk it holds */
	int ready;			/* parsed: the puller's */
	int err;			/* reading failed: no lines */
	char *text;			/* the chunk's bytes, from its first line's start */
	size_t tcap;
	struct ft_pline *lines;
	size_t nlines, lcap;
	struct ft_pev *evs;
	size_t nevs, ecap;
	char *strs;			/* the events' names and buffers, NUL-terminated */
	size_t sused, scap;
};

struct ft_par {
	int fd;
	uint64_t size, nchunks;
	pthread_mutex_t mu;
	pthread_cond_t work;		/* workers wait for a free slot */
	pthread_cond_t ready;		/* the puller waits for chunk head */
	int stop;
	int idle;
	uint64_t next;			/* the next chunk for a worker */
	uint64_t head;			/* the chunk the puller reads */
	int want;			/* the puller waits */
	int nslots;
	struct ftp_slot *slots;
	int nworkers;
	pthread_t *th;
	/* the puller's */
	struct ftp_slot *cur;
	size_t li;
};

/* ---- one line ---- */

/* At @p: "[001] " then a flags word and "893.188643:", an event's context. */
static int cpu_context_at(const char *p, const char *e)
{
	const char *q = p + 1;

	while (q < e && *q >= '0' && *q <= '9')
		q++;
	if (q == p + 1 || q + 1 >= e || q[0] != ']' || q[1] != ' ')
		return 0;
	for (q += 2; q < e && *q == ' '; q++)
		;
	if (q < e && !(*q >= '0' && *q <= '9')) {
		while (q < e && *q != ' ')
			q++;	/* the flags word ("d..2.") */
		while (q < e && *q == ' ')
			q++;
	}
	if (q >= e || *q < '0' || *q > '9')
		return 0;
	while (q < e && *q >= '0' && *q <= '9')
		q++;
	if (q >= e || *q != '.')
		return 0;
	for (q++; q < e && *q >= '0' && *q <= '9'; q++)
		;
	return q < e && *q == ':';
}

/*
 * A line that holds two events a mailer joined ("... target_cpu=001    Web
 * Content-7-11150 (11150) [001] dN.4. 893.188643: sched_wakeup: ..."): a
 * second "[cpu] flags time:" context.  It is not split: a comm may hold blanks
 * ("Web Content-7" or "Content-7"?), so where the second event starts is not
 * known; the line is reported instead of losing the second event silently.
 */
static int joined_events(const char *line, size_t len)
{
	const char *e = line + len, *p = line;
	int n = 0;

	while (p < e && (p = memchr(p, '[', (size_t)(e - p)))) {
		if (p > line && p[-1] == ' ' && cpu_context_at(p, e) && ++n == 2)
			return 1;
		p++;
	}
	return 0;
}

int ft_parse(const char *line, size_t len, struct lat_event *ev, struct ft_strs *strs,
	     int *nc, const char **exp)
{
	if (joined_events(line, len))
		return FT_JOINED;
	return ft_parse_line(line, len, ev, strs, nc, exp);
}

/* ---- a worker's chunk ---- */

/* Reads exactly @n bytes at @off: 0, or -LAT_EIO. */
static int read_at(int fd, char *buf, size_t n, uint64_t off)
{
	while (n) {
		ssize_t r = pread(fd, buf, n, (off_t)off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -LAT_EIO;
		buf += r;
		n -= (size_t)r;
		off += (uint64_t)r;
	}
	return 0;
}

/* A copy of @s in the slot's strings, as an offset (the strings may move until the end). */
static int keep_str(struct ftp_slot *sl, const char *s, uintptr_t *off)
{
	size_t n = strlen(s) + 1;

	if (lat_grow(&sl->strs, &sl->scap, sl->sused + n, 1) < 0)
		return -LAT_ENOMEM;
	memcpy(sl->strs + sl->sused, s, n);
	*off = sl->sused;
	sl->sused += n;
	return 0;
}

/* The events whose u.irq.name may be the parser's scratch: irqs, softirqs, hrtimer callbacks. */
static int is_irq(enum lat_ev_type t)
{
	return (t >= LAT_EV_IRQ_ENTRY && t <= LAT_EV_SOFTIRQ_EXIT) || t == LAT_EV_TIMER_ENTRY ||
	       t == LAT_EV_TIMER_START;
}

#define REL_NAME 1
#define REL_IRQ 2
#define REL_BUFFER 4

/*
 * An event line's event into the slot; the strings it points at in the
 * parser's scratch are kept in the slot's strings, as offsets until
 * fix_strs() (the arrays may still move).
 */
static int keep_event(struct ftp_slot *sl, struct ft_pline *pl, int kind,
		      const struct lat_event *ev, const struct ft_strs *strs)
{
	struct ft_pev *pe;
	uintptr_t off;

	if (lat_grow(&sl->evs, &sl->ecap, sl->nevs + 1, sizeof(*sl->evs)) < 0)
		return -LAT_ENOMEM;
	pe = &sl->evs[sl->nevs];
	memset(pe, 0, sizeof(*pe));
	pe->ev = *ev;
	pe->buffer = "";
	if (ev->name == strs->name) {
		if (keep_str(sl, strs->name, &off) < 0)
			return -LAT_ENOMEM;
		pe->ev.name = (const char *)off;
		pe->rel |= REL_NAME;
	}
	if (is_irq(ev->type) && ev->u.irq.name == strs->irq) {
		if (keep_str(sl, strs->irq, &off) < 0)
			return -LAT_ENOMEM;
		pe->ev.u.irq.name = (const char *)off;
		pe->rel |= REL_IRQ;
	}
	/* a lost-events line has no context: no flags, no buffer (the parser leaves them) */
	if (kind != FT_LOST) {
		pe->flags = strs->flags;
		if (strs->buffer[0]) {
			if (keep_str(sl, strs->buffer, &off) < 0)
				return -LAT_ENOMEM;
			pe->buffer = (const char *)off;
			pe->rel |= REL_BUFFER;
		}
	}
	pl->pev = (struct ft_pev *)(uintptr_t)(sl->nevs + 1);
	sl->nevs++;
	return 0;
}

/* The slot's offsets made pointers, now that its arrays no longer move. */
static void fix_strs(struct ftp_slot *sl)
{
	for (size_t i = 0; i < sl->nlines; i++)
		if (sl->lines[i].pev)
			sl->lines[i].pev = &sl->evs[(uintptr_t)sl->lines[i].pev - 1];
	for (size_t i = 0; i < sl->nevs; i++) {
		struct ft_pev *pe = &sl->evs[i];

		if (pe->rel & REL_NAME)
			pe->ev.name = sl->strs + (uintptr_t)pe->ev.name;
		if (pe->rel & REL_IRQ)
			pe->ev.u.irq.name = sl->strs + (uintptr_t)pe->ev.u.irq.name;
		if (pe->rel & REL_BUFFER)
			pe->buffer = sl->strs + (uintptr_t)pe->buffer;
		pe->rel = 0;
	}
}

/* One line [s, s + len) of the chunk parsed into the slot. */
static int parse_into(struct ftp_slot *sl, const char *s, size_t len)
{
	struct ft_pline *pl;
	struct ft_strs strs;
	struct lat_event ev;
	int nc = 0, k;

	if (lat_grow(&sl->lines, &sl->lcap, sl->nlines + 1, sizeof(*sl->lines)) < 0)
		return -LAT_ENOMEM;
	pl = &sl->lines[sl->nlines++];
	memset(pl, 0, sizeof(*pl));
	if (len >= FT_LINE_MAX) {
		pl->kind = FT_OVERLONG;
		return 0;
	}
	if (len && s[0] == '>')
		lat_line_dequote(&s, &len);
	pl->s = s;
	pl->len = (uint32_t)len;
	k = ft_parse(s, len, &ev, &strs, &nc, &pl->exp);
	pl->kind = (uint8_t)k;
	pl->nc = (uint16_t)nc;
	if (k == FT_EVENT || k == FT_STACK || k == FT_USTACK || k == FT_LOST)
		return keep_event(sl, pl, k, &ev, &strs);
	return 0;
}

/*
 * Where the lines of chunk @i start: its first line's offset in the file, or
 * the chunk's end when no line starts in it (a line from an earlier chunk
 * runs through it).  Reads the byte before the chunk and the chunk into @buf.
 */
static int first_line(struct ft_par *p, uint64_t i, char *buf, uint64_t *start)
{
	uint64_t a = i * FTP_CHUNK, e = a + FTP_CHUNK < p->size ? a + FTP_CHUNK : p->size;
	const char *nl;

	*start = a;
	if (!i)
		return read_at(p->fd, buf, (size_t)(e - a), a);
	if (read_at(p->fd, buf, (size_t)(e - a + 1), a - 1) < 0)
		return -LAT_EIO;
	/* buf[k] is byte a - 1 + k: a newline there starts a line at a + k, if before e */
	nl = memchr(buf, '\n', (size_t)(e - a));
	*start = nl ? a + (uint64_t)(nl - buf) : e;
	if (nl)
		memmove(buf, nl + 1, (size_t)(e - *start));
	return 0;
}

/*
 * Reads chunk @i into @sl (its lines from its first line's start to the end
 * of its last line, that one read on past the chunk: FT_LINE_MAX bytes
 * at most, a longer line is FT_OVERLONG whatever its end) and parses them.
 */
static int produce(struct ft_par *p, struct ftp_slot *sl, uint64_t i)
{
	uint64_t start, e = (i + 1) * FTP_CHUNK < p->size ? (i + 1) * FTP_CHUNK : p->size;
	size_t len, more;
	char *s, *end;
	int ret;

	sl->nlines = sl->nevs = sl->sused = 0;
	ret = first_line(p, i, sl->text, &start);
	if (ret < 0 || start >= e)
		return ret;
	len = (size_t)(e - start);
	if (sl->text[len - 1] != '\n' && e < p->size) {
		/* the last line, past the chunk: its newline within FT_LINE_MAX, or overlong */
		const char *ls = memrchr(sl->text, '\n', len);
		size_t lstart = ls ? (size_t)(ls - sl->text) + 1 : 0;

		more = lstart + FT_LINE_MAX - len;
		if (more > p->size - e)
			more = (size_t)(p->size - e);
		if (read_at(p->fd, sl->text + len, more, e) < 0)
			return -LAT_EIO;
		ls = memchr(sl->text + len, '\n', more);
		len = ls ? (size_t)(ls - sl->text) + 1 : len + more;
	}
	/* the lines: up to each newline; a last one without (the file's end) unless empty */
	s = sl->text;
	end = sl->text + len;
	while (s < end) {
		char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);

		ret = parse_into(sl, s, n);
		if (ret < 0)
			return ret;
		s += n + (nl != NULL);
	}
	fix_strs(sl);
	return 0;
}

/* ---- workers and the puller ---- */

static void *worker_main(void *arg)
{
	struct ft_par *p = arg;

	pthread_mutex_lock(&p->mu);
	for (;;) {
		struct ftp_slot *sl;
		uint64_t i;

		while (!p->stop && p->next < p->nchunks &&
		       p->next >= p->head + (uint64_t)p->nslots) {
			p->idle++;
			pthread_cond_wait(&p->work, &p->mu);
			p->idle--;
		}
		if (p->stop || p->next >= p->nchunks)
			break;
		i = p->next++;
		sl = &p->slots[i % (uint64_t)p->nslots];
		pthread_mutex_unlock(&p->mu);
		sl->err = produce(p, sl, i);
		if (sl->err)
			sl->nlines = 0;
		pthread_mutex_lock(&p->mu);
		sl->idx = i;
		sl->ready = 1;
		if (p->want)
			pthread_cond_signal(&p->ready);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

int ft_par_next(struct ft_par *p, const struct ft_pline **out)
{
	for (;;) {
		struct ftp_slot *sl = p->cur;

		if (sl && p->li < sl->nlines) {
			*out = &sl->lines[p->li++];
			return 1;
		}
		if (sl) {
			if (sl->err)
				return sl->err;		/* sticky */
			/* left: what the reader handed out from it is past */
			pthread_mutex_lock(&p->mu);
			sl->ready = 0;
			p->head++;
			if (p->idle)
				pthread_cond_signal(&p->work);
			pthread_mutex_unlock(&p->mu);
			p->cur = NULL;
		}
		if (p->head >= p->nchunks)
			return 0;
		sl = &p->slots[p->head % (uint64_t)p->nslots];
		pthread_mutex_lock(&p->mu);
		while (!sl->ready || sl->idx != p->head) {
			p->want = 1;
			pthread_cond_wait(&p->ready, &p->mu);
		}
		p->want = 0;
		pthread_mutex_unlock(&p->mu);
		p->cur = sl;
		p->li = 0;
	}
}

int ft_par_workers(uint64_t size, int jobs)
{
	uint64_t chunks = (size + FTP_CHUNK - 1) / FTP_CHUNK;
	int n;

	if (!jobs) {
		if (size < FT_PAR_MIN_BYTES)
			return 0;
		/*
		 * a worker per CPU: the parse is three quarters of the work, the puller
		 * (the state machine, the analysis) mostly waits for it
		 */
		jobs = lat_jobs_default() + 1;
	}
	n = jobs - 1;		/* the puller is one of them */
	return (uint64_t)n < chunks ? n : (int)chunks;
}

int ft_par_open(struct ft_par **out, int fd, uint64_t size, int nworkers)
{
	struct ft_par *p = calloc(1, sizeof(*p));

	*out = p;
	if (!p)
		return -LAT_ENOMEM;
	p->fd = fd;
	p->size = size;
	p->nchunks = (size + FTP_CHUNK - 1) / FTP_CHUNK;
	/* two chunks a worker, and one for the puller */
	p->nslots = 2 * nworkers + 1;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->ready, NULL);
	p->slots = calloc((size_t)p->nslots, sizeof(*p->slots));
	p->th = calloc((size_t)nworkers, sizeof(*p->th));
	if (!p->slots || !p->th)
		return -LAT_ENOMEM;
	for (int i = 0; i < p->nslots; i++) {
		p->slots[i].tcap = FTP_CHUNK + 1 + FT_LINE_MAX;
		p->slots[i].text = malloc(p->slots[i].tcap);
		if (!p->slots[i].text)
			return -LAT_ENOMEM;
	}
	p->nworkers = par_spawn(p->th, nworkers, worker_main, (char *)p, 0);
	return p->nworkers ? 0 : 1;
}

void ft_par_free(struct ft_par *p)
{
	if (!p)
		return;
	par_stop(&p->mu, &p->work, &p->stop, p->th, p->nworkers);
	for (int i = 0; p->slots && i < p->nslots; i++) {
		free(p->slots[i].text);
		free(p->slots[i].lines);
		free(p->slots[i].evs);
		free(p->slots[i].strs);
	}
	pthread_cond_destroy(&p->ready);
	pthread_cond_destroy(&p->work);
	pthread_mutex_destroy(&p->mu);
	free(p->slots);
	free(p->th);
	free(p);
}
