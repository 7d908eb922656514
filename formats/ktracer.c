// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kernel-tracer: the kernel's own latency tracers as people paste their
 * /sys/kernel/tracing/trace: timerlat (the IRQ and thread timer latency of
 * every activation), osnoise (one summary row per CPU and period) and hwlat
 * (the worst gap of each window), with the osnoise:* events and the stacks
 * (timerlat's print_stack) between them.  Line shapes: formats/ktracer_line.c.
 *
 * A block becomes summary-only histograms, one per CPU (and timerlat context:
 * "IRQ cpu7", "Thread cpu7", "Ret user cpu7"; osnoise and hwlat "cpu2") whose
 * count/min/avg/max are counted from the rows, and findings: the worst sample
 * of each kind, the osnoise events inside its window (who caused the noise)
 * and the stack printed with it.  docs/formats.md, "The kernel's latency
 * tracers".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftrace_text.h"
#include "import_hist.h"
#include "ktracer_priv.h"

static const char *const tracer_names[] = { "", "timerlat", "osnoise", "hwlat" };
static const char *const ctx_titles[KT_NCTX] = { "IRQ", "Thread", "Ret user" };

static struct kt_cpu *cpu_of(struct kt_state *st, int32_t cpu, int *err)
{
	if (cpu < 0 || cpu >= KT_MAX_CPUS)
		return NULL;
	if ((size_t)cpu >= st->ncpus) {
		size_t n = (size_t)cpu + 1;
		struct kt_cpu **p = realloc(st->cpus, n * sizeof(*p));

		if (!p) {
			*err = -LAT_ENOMEM;
			return NULL;
		}
		memset(p + st->ncpus, 0, (n - st->ncpus) * sizeof(*p));
		st->cpus = p;
		st->ncpus = n;
	}
	if (!st->cpus[cpu] && !(st->cpus[cpu] = calloc(1, sizeof(**st->cpus)))) {
		*err = -LAT_ENOMEM;
		return NULL;
	}
	return st->cpus[cpu];
}

static void acc_add(struct kt_acc *a, int64_t v, uint32_t line)
{
	if (!a->n || v < a->min)
		a->min = v;
	if (!a->n || v > a->max)
		a->max = v;
	if (!a->n)
		a->first = line;
	a->last = line;
	a->sum += v;
	a->n++;
}

static void who_of(const struct kt_rec *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s-%d", r->comm, (int)r->pid);
}

/* A worst sample's fields common to every kind. */
static void worst_set(struct kt_worst *w, const struct kt_rec *r, int64_t v, uint32_t line)
{
	free(w->stack);
	memset(w, 0, sizeof(*w));
	w->valid = 1;
	w->v_ns = v;
	w->cpu = r->cpu;
	w->line = line;
	w->ts_ns = r->ts_ns;
	who_of(r, w->who, sizeof(w->who));
}

/* Keeps @e among the KT_TOP longest of @top (n of them), longest first. */
static void top_insert(struct kt_noise_ev *top, int *n, const struct kt_noise_ev *e)
{
	int k;

	for (k = *n; k > 0 && top[k - 1].dur_ns < e->dur_ns; k--)
		if (k < KT_TOP)
			top[k] = top[k - 1];
	if (k < KT_TOP) {
		top[k] = *e;
		if (*n < KT_TOP)
			(*n)++;
	}
}

/*
 * The osnoise events of @c whose [start, start + duration) meets [@from, @to]:
 * the noise inside a sample's window, the largest first in w->top.
 */
static void attribute(struct kt_worst *w, const struct kt_cpu *c, uint64_t from, uint64_t to)
{
	for (unsigned i = 0; i < c->rlen; i++) {
		const struct kt_noise_ev *e = &c->ring[(c->rhead + KT_RING - c->rlen + i) % KT_RING];

		/* a tick-based clock prints 0 ns noise (timerlat on m68k): nothing to name */
		if (!e->dur_ns || e->start_ns + (uint64_t)e->dur_ns <= from || e->start_ns > to)
			continue;
		w->nnoise++;
		w->noise_sum += e->dur_ns;
		top_insert(w->top, &w->ntop, e);
	}
}

static void on_timerlat(struct kt_state *st, struct kt_cpu *c, const struct kt_rec *r,
			uint32_t line)
{
	enum kt_ctx x = r->u.tl.ctx;
	struct kt_worst *w = &st->tl[x];

	acc_add(&c->tl[x], r->u.tl.lat_ns, line);
	st->n_samples++;
	c->last_line = line;
	if (x == KT_CTX_IRQ) {
		c->irq_seq = r->u.tl.seq;
		c->irq_lat = r->u.tl.lat_ns;
		c->irq_valid = 1;
		who_of(r, c->irq_who, sizeof(c->irq_who));
	}
	if (w->valid && r->u.tl.lat_ns <= w->v_ns)
		return;
	worst_set(w, r, r->u.tl.lat_ns, line);
	w->seq = r->u.tl.seq;
	if (x == KT_CTX_IRQ)
		return;
	if (c->irq_valid && c->irq_seq == r->u.tl.seq) {
		w->has_irq = 1;
		w->irq_lat = c->irq_lat;
		memcpy(w->irq_who, c->irq_who, sizeof(w->irq_who));
	}
	/* the line's time is printed to the µs: 1 µs of slack at the end */
	if (r->ts_ns >= (uint64_t)r->u.tl.lat_ns)
		attribute(w, c, r->ts_ns - (uint64_t)r->u.tl.lat_ns, r->ts_ns + 1000);
}

static void on_osnoise(struct kt_state *st, struct kt_cpu *c, const struct kt_rec *r,
		       uint32_t line)
{
	struct kt_worst *w = &st->os;
	int64_t v = r->u.os.single_us * LAT_NS_PER_US;

	acc_add(&c->os, v, line);
	st->n_samples++;
	c->os_runtime += r->u.os.runtime_us;
	c->os_noise += r->u.os.noise_us;
	if (c->os.n == 1 || r->u.os.avail < c->os_min_avail)
		c->os_min_avail = r->u.os.avail;
	c->os_cnt[0] += r->u.os.hw;
	c->os_cnt[1] += r->u.os.nmi;
	c->os_cnt[2] += r->u.os.irq;
	c->os_cnt[3] += r->u.os.sirq;
	c->os_cnt[4] += r->u.os.thread;
	if (w->valid && v <= w->v_ns)
		return;
	worst_set(w, r, v, line);
	w->row = *r;
}

static void on_hwlat(struct kt_state *st, struct kt_cpu *c, const struct kt_rec *r,
		     uint32_t line)
{
	struct kt_worst *w = &st->hw;
	int64_t us = r->u.hw.inner_us > r->u.hw.outer_us ? r->u.hw.inner_us : r->u.hw.outer_us;

	acc_add(&c->hw, us * LAT_NS_PER_US, line);
	st->n_samples++;
	if (r->u.hw.nmi_count > 0) {
		st->hw_nmi_rows++;
		st->hw_nmi_count += r->u.hw.nmi_count;
		if (r->u.hw.nmi_total_us > st->hw_nmi_max_us)
			st->hw_nmi_max_us = r->u.hw.nmi_total_us;
		if (!st->hw_nmi_line)
			st->hw_nmi_line = line;
	}
	if (w->valid && us * LAT_NS_PER_US <= w->v_ns)
		return;
	worst_set(w, r, us * LAT_NS_PER_US, line);
	w->seq = r->u.hw.seq;
	w->row = *r;
}

static void on_noise(struct kt_state *st, struct kt_cpu *c, const struct kt_rec *r,
		     uint32_t line)
{
	struct kt_noise_ev *e = &c->ring[c->rhead];

	e->type = r->u.nz.type;
	e->cpu = r->cpu;
	memcpy(e->name, r->u.nz.name, sizeof(e->name));
	e->start_ns = r->u.nz.start_ns;
	e->dur_ns = r->u.nz.dur_ns;
	e->line = line;
	c->rhead = (c->rhead + 1) % KT_RING;
	if (c->rlen < KT_RING)
		c->rlen++;
	st->n_noise++;
	st->n_by_type[e->type]++;
	top_insert(st->longest, &st->nlongest, e);
}

static void on_threshold(struct kt_state *st, struct kt_cpu *c, const struct kt_rec *r,
			 uint32_t line)
{
	struct kt_worst *w = &st->thr;

	st->n_thresholds++;
	acc_add(&c->thr, r->u.nz.dur_ns, line);
	if (w->valid && r->u.nz.dur_ns <= w->v_ns)
		return;
	worst_set(w, r, r->u.nz.dur_ns, line);
	w->row = *r;
	attribute(w, c, r->u.nz.start_ns, r->u.nz.start_ns + (uint64_t)r->u.nz.dur_ns);
}

/* "other events" by name: the three most frequent are named in the finding */
static void on_other(struct kt_state *st, const char *name)
{
	size_t k;

	st->n_other++;
	for (k = 0; k < KT_OTHER_NAMES && st->other[k].n; k++)
		if (!strcmp(st->other[k].name, name))
			break;
	if (k == KT_OTHER_NAMES)
		return;
	if (!st->other[k].n)
		snprintf(st->other[k].name, sizeof(st->other[k].name), "%s", name);
	st->other[k].n++;
}

/* A record of one of the tracers: into the CPU's state. */
static int on_record(struct kt_state *st, const struct kt_rec *r, uint32_t line,
		     struct lat_block *b, struct lat_diag *d)
{
	struct kt_cpu *c;
	int err = 0;

	if (r->kind == KT_STOP) {
		if (st->nstop < KT_STOPS)
			st->stops[st->nstop++] = (struct kt_stop){ r->u.stop_cpu, line };
		return 0;
	}
	c = cpu_of(st, r->cpu, &err);
	if (!c) {
		if (!err) {
			b->skipped_lines++;
			lat_diag_at(d, line, "expected a CPU number below %d", KT_MAX_CPUS);
		}
		return err;
	}
	c->seen = 1;
	if (r->kind == KT_TIMERLAT)
		on_timerlat(st, c, r, line);
	else if (r->kind == KT_OSNOISE)
		on_osnoise(st, c, r, line);
	else if (r->kind == KT_HWLAT)
		on_hwlat(st, c, r, line);
	else if (r->kind == KT_NOISE)
		on_noise(st, c, r, line);
	else if (r->kind == KT_THRESHOLD)
		on_threshold(st, c, r, line);
	return 0;
}

/* ---- stacks ---- */

/* " => symbol[+off/size]   note": the symbol, and a note someone typed after it */
static void add_frame(struct kt_state *st, const char *s, size_t len)
{
	const char *p = memmem(s, len, "=>", 2), *e = s + len, *w, *n;
	size_t wl, used = strlen(st->frames);

	if (!p || used + 8 >= sizeof(st->frames))
		goto count;	/* counted, not kept (snprintf cuts a long last one) */
	for (p += 2; p < e && (*p == ' ' || *p == '\t'); p++)
		;
	for (w = p; p < e && *p != ' ' && *p != '\t' && *p != '+'; p++)
		;
	wl = (size_t)(p - w);
	while (p < e && *p != ' ' && *p != '\t')
		p++;
	for (n = p; n < e && (*n == ' ' || *n == '\t'); n++)
		;
	if (!wl)
		goto count;
	snprintf(st->frames + used, sizeof(st->frames) - used, "%s%.*s%s%.*s%s",
		 st->nframes ? " <- " : "", (int)wl, w, n < e ? " [" : "", (int)(e - n), n,
		 n < e ? "]" : "");
count:
	st->nframes++;
}

/* The stack just read belongs to the last timerlat sample of its CPU. */
static int end_stack(struct kt_state *st)
{
	struct kt_cpu *c;

	if (!st->in_stack)
		return 0;
	st->in_stack = 0;
	st->n_stacks++;
	if (st->stack_cpu < 0 || (size_t)st->stack_cpu >= st->ncpus ||
	    !(c = st->cpus[st->stack_cpu]))
		return 0;
	for (int x = 0; x < KT_NCTX; x++) {
		struct kt_worst *w = &st->tl[x];

		if (!w->valid || w->line != c->last_line || w->cpu != st->stack_cpu || w->stack)
			continue;
		w->stack = strdup(st->frames);
		if (!w->stack)
			return -LAT_ENOMEM;
		w->nframes = st->nframes;
		w->stack_line = st->stack_line;
	}
	return 0;
}

/* ---- lines ---- */

/* "# entries-in-buffer/entries-written: 6/6   #P:56" */
static void comment(struct kt_state *st, const char *s, size_t len)
{
	const char *p = memmem(s, len, "entries-written:", 16);
	char buf[64];

	if (!p)
		return;
	p += 16;
	snprintf(buf, sizeof(buf), "%.*s", (int)(s + len - p > 63 ? 63 : s + len - p), p);
	if (sscanf(buf, " %lld/%lld", &st->entries[0], &st->entries[1]) == 2)
		st->has_entries = 1;
}

/*
 * "|            |      |      |": the end of the header's ruler ("#  | |  |  ||||  |")
 * a mailer wrapped onto a line of its own: the bars and blanks alone.
 */
static int is_ruler_piece(const char *s, size_t len)
{
	int bars = 0;

	for (size_t i = 0; i < len; i++) {
		if (s[i] == '|')
			bars++;
		else if (s[i] != ' ' && s[i] != '\t')
			return 0;
	}
	return bars > 0;
}

/* A line that is no record of the tracers: a stack, its frames, another event. */
static int other_line(struct kt_state *st, const struct lat_line *l, struct lat_block *b,
		      struct lat_diag *d)
{
	struct lat_event ev;
	struct ft_strs strs;
	const char *exp;
	int nc = 0;
	enum ft_kind k = ft_parse_line(l->s, l->len, &ev, &strs, &nc, &exp);
	int ret;

	if (k == FT_FRAME && st->in_stack) {
		if (st->in_stack == 1)
			add_frame(st, l->s, l->len);
		return 0;
	}
	if ((ret = end_stack(st)) < 0)
		return ret;
	if (k != FT_EVENT && is_ruler_piece(l->s, l->len))
		return 0;
	switch (k) {
	case FT_SKIP:
		return 0;
	case FT_STACK:
	case FT_USTACK:
		/* a user stack's frames are addresses only: counted, not kept */
		st->in_stack = k == FT_STACK ? 1 : 2;
		st->stack_cpu = ev.cpu;
		st->stack_line = l->lineno;
		st->frames[0] = '\0';
		st->nframes = 0;
		return 0;
	case FT_EVENT:
	case FT_LOST:
		on_other(st, ev.name ? ev.name : "?");
		return 0;
	case FT_BAD:
		break;
	default:
		exp = "a timerlat, osnoise or hwlat line, an osnoise:* event or a stack frame";
		break;
	}
	b->skipped_lines++;
	lat_diag_at(d, l->lineno, "expected %s", exp);
	return 0;
}

/* One line of the block: a record, state (title, stack, comment) or a diagnostic. */
static int one_line(struct kt_state *st, const struct lat_line *l, struct lat_block *b,
		    struct lat_diag *d)
{
	struct kt_rec r;
	enum kt_kind k = kt_parse_line(l->s, l->len, &r);

	if (k != KT_NONE && k != KT_HWLAT_REST) {
		int ret = end_stack(st);

		if (ret < 0)
			return ret;
	}
	switch (k) {
	case KT_NONE:
		if (l->len && imp_starts(l->s, l->len, "#")) {
			comment(st, l->s, l->len);
			return 0;
		}
		return other_line(st, l, b, d);
	case KT_TITLE:
		st->tracer = r.u.title;
		return 0;
	case KT_HWLAT_CUT:
		/* a mailer's wrap: the text layer joins the rest when it follows (kt_row()) */
		b->skipped_lines++;
		lat_diag_at(d, l->lineno, "expected \"I/O ts:S.NS ...\" after "
			    "\"inner/outer(us):\" (here or on the next line)");
		return 0;
	case KT_HWLAT_REST:
	case KT_BAD:
		b->skipped_lines++;
		lat_diag_at(d, l->lineno, "expected %s", k == KT_BAD ? r.expected :
			    "a hwlat row \"<comm>-<pid> [cpu] flags ts: #N inner/outer(us): ...\"");
		return 0;
	default:
		return on_record(st, &r, l->lineno, b, d);
	}
}

/* ---- the block ---- */

static void free_state(struct kt_state *st)
{
	for (size_t i = 0; i < st->ncpus; i++)
		free(st->cpus[i]);
	free(st->cpus);
	for (int x = 0; x < KT_NCTX; x++)
		free(st->tl[x].stack);
}

static enum kt_tracer tracer_of(const struct kt_state *st)
{
	if (st->tracer)
		return st->tracer;
	for (size_t i = 0; i < st->ncpus; i++) {
		const struct kt_cpu *c = st->cpus[i];

		if (!c)
			continue;
		if (c->tl[0].n || c->tl[1].n || c->tl[2].n)
			return KT_TR_TIMERLAT;
		if (c->hw.n)
			return KT_TR_HWLAT;
		if (c->os.n)
			return KT_TR_OSNOISE;
	}
	return st->n_thresholds || st->n_noise ? KT_TR_OSNOISE : KT_TR_NONE;
}

static int summary_hist(struct lat_block *b, const struct kt_acc *a, const char *title,
			const char *group)
{
	struct imp_hist_build hb;
	int ret = imp_hist_build_init(&hb, title);

	if (ret)
		return ret;
	if (group && !(hb.h->group = strdup(group))) {
		imp_hist_build_drop(&hb);
		return -LAT_ENOMEM;
	}
	hb.h->has_printed = 1;
	hb.h->printed = (struct lat_hist_printed){ a->n, a->min, a->sum / a->n, a->max };
	hb.h->first_line = a->first;
	hb.h->last_line = a->last;
	return imp_hist_build_finish(&hb, 0, b);
}

/* One summary-only histogram per CPU (and timerlat context), in CPU order. */
static int histograms(const struct kt_state *st, struct lat_block *b)
{
	char title[64];
	int ret = 0;

	for (size_t i = 0; i < st->ncpus && !ret; i++) {
		const struct kt_cpu *c = st->cpus[i];

		if (!c)
			continue;
		for (int x = 0; x < KT_NCTX && !ret; x++) {
			if (!c->tl[x].n)
				continue;
			snprintf(title, sizeof(title), "%s cpu%zu", ctx_titles[x], i);
			ret = summary_hist(b, &c->tl[x], title, ctx_titles[x]);
		}
		snprintf(title, sizeof(title), "cpu%zu", i);
		if (!ret && c->os.n)
			ret = summary_hist(b, &c->os, title, NULL);
		if (!ret && c->hw.n)
			ret = summary_hist(b, &c->hw, title, NULL);
		/* osnoise events alone: the noise samples above the tolerance are the summary */
		if (!ret && c->thr.n && !st->n_samples)
			ret = summary_hist(b, &c->thr, title, NULL);
	}
	return ret;
}

static int kt_parse_block(const struct lat_text *t, size_t first, size_t end,
			  struct lat_block *b, struct lat_diag *d)
{
	struct kt_state st;
	char title[64];
	int ret = 0;

	memset(&st, 0, sizeof(st));
	b->schema = LAT_SCHEMA_HISTOGRAM;
	for (size_t i = first; i < end && !ret; i++) {
		const struct lat_line *l = &t->lines[i];

		if (lat_line_blank(l))
			continue;
		if (l->binary) {
			b->skipped_lines++;
			lat_diag_at(d, l->lineno, "expected text, not binary data");
			continue;
		}
		ret = one_line(&st, l, b, d);
	}
	if (!ret)
		ret = end_stack(&st);
	if (!ret)
		ret = histograms(&st, b);
	if (!ret)
		ret = kt_findings(&st, tracer_of(&st), b);
	if (!ret) {
		snprintf(title, sizeof(title), "%s %s", tracer_names[tracer_of(&st)],
			 st.n_samples || tracer_of(&st) != KT_TR_OSNOISE ? "trace" : "events");
		b->title = strdup(tracer_of(&st) ? title : "kernel tracer trace");
		if (!b->title)
			ret = -LAT_ENOMEM;
	}
	free_state(&st);
	if (ret)
		return ret;
	return b->nhist || b->nfindings ? 0 : -LAT_EEMPTY;
}

/* ---- detection ---- */

/*
 * Every line of these tracers that has an event's head is shaped like an event
 * line to the ftrace-text reader too (a row it cannot read): both readers
 * claim the same lines, and the other events, stacks and comments of the
 * trace stay inside the block.  Only the title and the rest of a cut hwlat
 * row, which have no head, differ: no line is parsed twice.
 */
static enum lat_line_kind kt_line_kind(const char *s, size_t len)
{
	struct kt_rec r;

	switch (kt_parse_headless(s, len, &r)) {
	case KT_TITLE:
		return LAT_LINE_HEAD;
	case KT_HWLAT_REST:
		return LAT_LINE_ROW;
	default:
		return is_ruler_piece(s, len) ? LAT_LINE_SOFT : fmt_ftrace_text.line_kind(s, len);
	}
}

/*
 * "# tracer: hwlat" and its comment lines without a row: a trace that caught
 * nothing above the threshold ("entries-in-buffer/entries-written: 0/0").
 */
static size_t kt_header_block(const struct lat_text *t, size_t first)
{
	struct kt_rec r;
	size_t i;

	if (t->lines[first].binary || kt_parse_line(t->lines[first].s, t->lines[first].len, &r) !=
				      KT_TITLE)
		return 0;
	for (i = first + 1; i < t->nlines && i < first + 40; i++) {
		const struct lat_line *l = &t->lines[i];

		if (l->binary || !imp_starts(l->s, l->len, "#"))
			break;
	}
	return i;
}

static int kt_probe(const char *peek, size_t len)
{
	const char *p = peek, *end = peek + len;
	size_t own = 0, noise = 0, other = 0, lines = 0;
	int title = 0;

	while (p < end && lines < 400) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *s = p;
		size_t l;
		struct kt_rec r;
		enum kt_kind k;

		if (!nl)
			break;		/* cut by the peek size */
		l = (size_t)(nl - p);
		p = nl + 1;
		lines++;
		lat_line_dequote(&s, &l);
		k = kt_parse_line(s, l, &r);
		if (k == KT_TITLE)
			title = 1;
		if (k == KT_NOISE)
			noise++;
		else if (k != KT_NONE)
			own++;
		else if (r.has_head)
			other++;	/* another event */
	}
	if (own)
		return title || own >= 3 ? 96 : 70;
	/* osnoise:* events alone, no scheduler event among them */
	return noise >= 3 && !other ? 70 : 0;
}

/*
 * A line of these tracers as a mailer wraps it (a row shape, docs/formats.md "Mail and
 * paste damage"): "<idle>-0 [000] d.h1  54.029328: #1  context  irq timer_latency  932
 * ns" is some 90 columns, an osnoise period row and a noise event more.  Whole when it
 * reads as one of their records, cut short when it has an event's head and a payload
 * they start that does not read whole.  The hwlat row cut after "inner/outer(us):"
 * (KT_HWLAT_CUT) joins with its rest only here: the reader reports it when it stays cut.
 */
static enum lat_row_state kt_row(const char *s, size_t len, struct lat_row_ctx *ctx)
{
	struct kt_rec r;

	(void)ctx;
	switch (kt_parse_line(s, len, &r)) {
	case KT_HWLAT:
		/*
		 * "nmi-total:" and "nmi-count:" come as a pair (NMIs seen); "count:" (5.7
		 * on) is not asked for: a row of 4.x ends at its "ts:", and a mailer that
		 * wraps at 72-78 cuts a row of 5.7 after "inner/outer(us):" (KT_HWLAT_CUT)
		 */
		return memmem(s, len, "nmi-total:", 10) && !memmem(s, len, "nmi-count:", 10) ?
		       LAT_ROW_CUT : LAT_ROW_FULL;
	case KT_TIMERLAT:
	case KT_OSNOISE:
	case KT_NOISE:
	case KT_THRESHOLD:
	case KT_STOP:
		return LAT_ROW_FULL;
	case KT_HWLAT_CUT:
		return LAT_ROW_CUT;
	case KT_BAD:
		return r.has_head ? LAT_ROW_CUT : LAT_ROW_NO;
	default:
		return LAT_ROW_NO;
	}
}

static const lat_row_shape kt_row_shapes[] = { kt_row, NULL };

const struct lat_format fmt_kernel_tracer = {
	.name = "kernel-tracer",
	.summary = "the kernel's timerlat, osnoise and hwlat tracers' trace text, with the "
		   "osnoise:* events and timerlat's stacks",
	.probe = kt_probe,
	.line_kind = kt_line_kind,
	.parse_block = kt_parse_block,
	.header_block = kt_header_block,
	.row_shapes = kt_row_shapes,
};
