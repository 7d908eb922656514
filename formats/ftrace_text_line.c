// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One line of ftrace text into a struct lat_event.  Two families of lines:
 *
 *  kernel `trace` / `trace_pipe` (any of the irq-info, record-tgid, sym-offset options):
 *      <comm>-<pid> [(<tgid>)] [cpu] [flags] sec.usec: event: fields
 *  `trace-cmd report` (also -l, -t, --ts-diff, instance prefixes "name:"):
 *      <comm>-<pid> [cpu] sec.usec: event:   fields in its plugins' short forms
 *
 * The hot path is a plain left-to-right walk: no allocation, no copies
 * except the comms into the fixed struct lat_event fields.
 */
#include <string.h>

#include "ftrace_text.h"

struct cur {
	const char *p, *e;
};

static inline int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static inline int is_ws(char c)
{
	return c == ' ' || c == '\t';
}

static inline size_t skip_ws(struct cur *c)
{
	const char *p = c->p;

	while (c->p < c->e && is_ws(*c->p))
		c->p++;
	return (size_t)(c->p - p);
}

static inline int lit(struct cur *c, const char *s, size_t n)
{
	if ((size_t)(c->e - c->p) < n || memcmp(c->p, s, n))
		return 0;
	c->p += n;
	return 1;
}

#define LIT(c, s) lit((c), (s), sizeof(s) - 1)
#define STARTS(c, s) ((size_t)((c)->e - (c)->p) >= sizeof(s) - 1 && \
		      !memcmp((c)->p, (s), sizeof(s) - 1))

/* Unsigned decimal up to 18 digits (no overflow possible). */
static inline int u64(struct cur *c, uint64_t *v)
{
	const char *p = c->p;
	uint64_t x = 0;

	while (p < c->e && is_digit(*p) && p - c->p < 18)
		x = x * 10 + (uint64_t)(*p++ - '0');
	if (p == c->p || (p < c->e && is_digit(*p)))
		return 0;
	c->p = p;
	*v = x;
	return 1;
}

static inline int i32(struct cur *c, int32_t *v)
{
	int neg = c->p < c->e && *c->p == '-';
	struct cur save = *c;
	uint64_t x;

	c->p += neg;
	if (!u64(c, &x) || x > INT32_MAX) {
		*c = save;
		return 0;
	}
	*v = neg ? -(int32_t)x : (int32_t)x;
	return 1;
}

static void copy_comm(char *dst, const char *s, const char *e)
{
	size_t n = (size_t)(e - s);

	if (n >= LAT_COMM_LEN)
		n = LAT_COMM_LEN - 1;
	/* zeros after the name: the analysis compares comms as whole words (wk_comm_differs) */
	memset(dst, 0, LAT_COMM_LEN);
	memcpy(dst, s, n);
}

static void copy_str(char *dst, size_t size, const char *s, const char *e)
{
	size_t n = (size_t)(e - s);

	if (n >= size)
		n = size - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* memmem for the short distances of a line: no setup cost, inlined with the needle */
static inline const char *find(const char *p, const char *e, const char *needle, size_t n)
{
	if (e - p < (ptrdiff_t)n)
		return NULL;
	for (const char *last = e - n; p <= last; p++)
		if (*p == needle[0] && !memcmp(p + 1, needle + 1, n - 1))
			return p;
	return NULL;
}

/* "key=<comm> next_key=": the comm may hold blanks, so it ends at @next. */
static inline int kv_comm(struct cur *c, const char *key, size_t klen, const char *next,
			  size_t nlen, char *dst)
{
	const char *q;

	if (!lit(c, key, klen))
		return 0;
	q = find(c->p, c->e, next, nlen);
	if (!q)
		return 0;
	copy_comm(dst, c->p, q);
	c->p = q + 1;		/* the blank before the next key */
	return 1;
}

/* "key=N" then at most one blank. */
static inline int kv_i32(struct cur *c, const char *key, size_t klen, int32_t *v)
{
	if (!lit(c, key, klen) || !i32(c, v))
		return 0;
	if (c->p < c->e && is_ws(*c->p))
		c->p++;
	return 1;
}

#define KV_COMM(c, k, n, d) kv_comm((c), k, sizeof(k) - 1, n, sizeof(n) - 1, (d))
#define KV_I32(c, k, v) kv_i32((c), k, sizeof(k) - 1, (v))

/*
 * trace-cmd's "comm:pid [prio]": the comm may hold ':' and blanks, so the
 * first ':' followed by digits, " [", digits and ']' ends it.
 */
static int comm_pid_prio(struct cur *c, char *comm, int32_t *pid, int32_t *prio)
{
	for (const char *q = c->p; q < c->e; q++) {
		struct cur t;

		q = memchr(q, ':', (size_t)(c->e - q));
		if (!q)
			return 0;
		t.p = q + 1;
		t.e = c->e;
		if (i32(&t, pid) && LIT(&t, " [") && i32(&t, prio) && LIT(&t, "]")) {
			copy_comm(comm, c->p, q);
			c->p = t.p;
			return 1;
		}
	}
	return 0;
}

/* prev_state letters to the kernel's bits (>= 4.14 layout; '+' is TASK_REPORT_MAX). */
static uint32_t state_bits(const char *s, const char *e, int tracecmd)
{
	/* trace-cmd's sched_switch plugin prints bit i as "SDTtZXxW"[i] */
	static const char tc[] = "SDTtZXxW";
	static const char kern[] = "SDTtXZPI";
	const char *map = tracecmd ? tc : kern;
	uint32_t bits = 0;

	for (; s < e; s++) {
		const char *m = *s ? strchr(map, *s) : NULL;

		if (m)
			bits |= 1u << (m - map);
		else if (*s == '+')
			bits |= 0x100;
	}
	return bits;
}

static int p_switch(struct cur *c, struct lat_event *ev)
{
	const char *st, *ste, *arrow;
	int tc, raw = 0;

	if (STARTS(c, "prev_comm=")) {
		if (!KV_COMM(c, "prev_comm=", " prev_pid=", ev->u.sw.prev_comm) ||
		    !KV_I32(c, "prev_pid=", &ev->u.sw.prev_pid) ||
		    !KV_I32(c, "prev_prio=", &ev->u.sw.prev_prio) || !LIT(c, "prev_state="))
			return 0;
		st = c->p;
		arrow = find(st, c->e, " ==> ", 5);
		/* trace-cmd report -R: "prev_state=256 next_comm=...", the state's bits */
		raw = !arrow;
		if (raw && !(arrow = find(st, c->e, " next_comm=", 11)))
			return 0;
		ste = arrow;
		c->p = arrow + (raw ? 1 : 5);
		if (!KV_COMM(c, "next_comm=", " next_pid=", ev->u.sw.next_comm) ||
		    !KV_I32(c, "next_pid=", &ev->u.sw.next_pid) || !LIT(c, "next_prio=") ||
		    !i32(c, &ev->u.sw.next_prio))
			return 0;
		tc = 0;
	} else {
		/* trace-cmd's plugin, or 2.6.31's "task comm:pid [prio] (S) ==> comm:pid [prio]" */
		LIT(c, "task ");
		if (!comm_pid_prio(c, ev->u.sw.prev_comm, &ev->u.sw.prev_pid,
				   &ev->u.sw.prev_prio) || !skip_ws(c))
			return 0;
		st = c->p;
		arrow = find(st, c->e, " ==> ", 5);
		if (!arrow)
			return 0;
		ste = arrow;
		if (ste - st >= 3 && *st == '(' && ste[-1] == ')') {
			st++;
			ste--;
		}
		c->p = arrow + 5;
		if (!comm_pid_prio(c, ev->u.sw.next_comm, &ev->u.sw.next_pid,
				   &ev->u.sw.next_prio))
			return 0;
		tc = 1;
	}
	while (ste > st && is_ws(ste[-1]))
		ste--;
	if (ste == st)
		return 0;
	if (raw) {
		uint64_t bits = 0;

		for (const char *p = st; p < ste; p++) {
			if (*p < '0' || *p > '9' || bits > UINT32_MAX / 10)
				return 0;
			bits = bits * 10 + (uint64_t)(*p - '0');
		}
		ev->u.sw.prev_state = lat_task_state_from_bits((uint32_t)bits);
		ev->u.sw.prev_state_raw = (uint32_t)bits;
	} else {
		ev->u.sw.prev_state = lat_task_state_from_char(st < ste ? *st : 0);
		ev->u.sw.prev_state_raw = state_bits(st, ste, tc);
	}
	ev->type = LAT_EV_SWITCH;
	ev->name = "sched:sched_switch";
	return 1;
}

static int p_wake(struct cur *c, struct lat_event *ev)
{
	int32_t success;

	ev->u.wake.target_cpu = -1;
	if (STARTS(c, "comm=")) {
		if (!KV_COMM(c, "comm=", " pid=", ev->u.wake.comm) ||
		    !KV_I32(c, "pid=", &ev->u.wake.pid) || !KV_I32(c, "prio=", &ev->u.wake.prio))
			return 0;
		KV_I32(c, "success=", &success);
		KV_I32(c, "target_cpu=", &ev->u.wake.target_cpu);
		return 1;
	}
	/* trace-cmd's plugin, or 2.6.31/32's "task comm:pid [prio] success=1 [001]" */
	LIT(c, "task ");
	if (!comm_pid_prio(c, ev->u.wake.comm, &ev->u.wake.pid, &ev->u.wake.prio))
		return 0;
	skip_ws(c);
	KV_I32(c, "success=", &success);
	if (LIT(c, "CPU:") && !i32(c, &ev->u.wake.target_cpu))
		return 0;
	if (LIT(c, "[") && (!i32(c, &ev->u.wake.target_cpu) || !LIT(c, "]")))
		return 0;
	return 1;
}

static int p_migrate(struct cur *c, struct lat_event *ev)
{
	return KV_COMM(c, "comm=", " pid=", ev->u.migrate.comm) &&
	       KV_I32(c, "pid=", &ev->u.migrate.pid) && KV_I32(c, "prio=", &ev->u.migrate.prio) &&
	       KV_I32(c, "orig_cpu=", &ev->u.migrate.orig_cpu) &&
	       KV_I32(c, "dest_cpu=", &ev->u.migrate.dest_cpu);
}

static int p_fork(struct cur *c, struct lat_event *ev)
{
	const char *e;

	/* trace-cmd report -R prints the fields' own names: parent_comm=, parent_pid= */
	if (STARTS(c, "parent_comm=")) {
		if (!KV_COMM(c, "parent_comm=", " parent_pid=", ev->u.task.comm) ||
		    !KV_I32(c, "parent_pid=", &ev->u.task.pid))
			return 0;
	} else if (!KV_COMM(c, "comm=", " pid=", ev->u.task.comm) ||
		   !KV_I32(c, "pid=", &ev->u.task.pid)) {
		return 0;
	}
	if (!LIT(c, "child_comm="))
		return 0;
	e = find(c->p, c->e, " child_pid=", 11);
	if (!e)
		return 0;
	copy_comm(ev->u.task.child_comm, c->p, e);
	c->p = e + 1;
	return KV_I32(c, "child_pid=", &ev->u.task.child_pid);
}

static int p_exec(struct cur *c, struct lat_event *ev)
{
	const char *e, *b;

	/* the file name may hold blanks: it ends at " pid=" */
	if (!LIT(c, "filename="))
		return 0;
	e = find(c->p, c->e, " pid=", 5);
	if (!e)
		return 0;
	/* the new comm is the file's basename, as the kernel sets it */
	b = memrchr(c->p, '/', (size_t)(e - c->p));
	copy_comm(ev->u.task.comm, b ? b + 1 : c->p, e);
	c->p = e + 1;
	ev->u.task.child_pid = -1;
	ev->u.task.child_comm[0] = '\0';
	return KV_I32(c, "pid=", &ev->u.task.pid);
}

static int p_exit(struct cur *c, struct lat_event *ev)
{
	ev->u.task.child_pid = -1;
	ev->u.task.child_comm[0] = '\0';
	return KV_COMM(c, "comm=", " pid=", ev->u.task.comm) && KV_I32(c, "pid=", &ev->u.task.pid);
}

static int p_irq(struct cur *c, struct lat_event *ev, struct ft_strs *strs, int entry)
{
	if (!KV_I32(c, "irq=", &ev->u.irq.irq))
		return 0;
	if (entry) {
		if (!LIT(c, "name="))
			return 0;
		copy_str(strs->irq, sizeof(strs->irq), c->p, c->e);
		ev->u.irq.name = strs->irq;
		return 1;
	}
	if (!LIT(c, "ret="))
		return 0;
	if (LIT(c, "handled"))
		ev->u.irq.ret = 1;
	else if (LIT(c, "unhandled"))
		ev->u.irq.ret = 0;
	else if (!i32(c, &ev->u.irq.ret))
		return 0;
	return 1;
}

static int p_softirq(struct cur *c, struct lat_event *ev, struct ft_strs *strs)
{
	/* the kernel's softirq_to_name[], for text that printed the vector alone */
	static const char *const names[] = {
		"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED",
		"HRTIMER", "RCU",
	};
	const char *e;

	if (!KV_I32(c, "vec=", &ev->u.irq.irq))
		return 0;
	if (ev->u.irq.irq >= 0 && (size_t)ev->u.irq.irq < sizeof(names) / sizeof(names[0]))
		ev->u.irq.name = names[ev->u.irq.irq];
	if (LIT(c, "[action=")) {
		e = memchr(c->p, ']', (size_t)(c->e - c->p));
		if (!e)
			return 0;
		copy_str(strs->irq, sizeof(strs->irq), c->p, e);
		ev->u.irq.name = strs->irq;
	}
	return 1;
}

static void marker(struct cur *c, struct lat_event *ev, struct ft_strs *strs)
{
	const char *e = c->e;

	while (e > c->p && (is_ws(e[-1]) || e[-1] == '\n' || e[-1] == '\r'))
		e--;
	ev->type = LAT_EV_MARKER;
	ev->name = "ftrace:print";
	ev->u.marker.text = c->p;
	ev->u.marker.len = (size_t)(e - c->p);
	/* latscope's steal-time markers come parsed, as from trace.dat */
	ev->u.marker.steal = lat_steal_parse(c->p, ev->u.marker.len, &strs->steal) ?
			     &strs->steal : NULL;
}

/*
 * "sec.frac:" (any number of fraction digits, to ns) or a bare counter "N:"
 * for the counter clocks, which is kept as is.
 */
static int timestamp(struct cur *c, uint64_t *ts)
{
	uint64_t sec, frac = 0;
	int nd = 0;

	if (!u64(c, &sec))
		return 0;
	if (STARTS(c, "us")) {
		/*
		 * latency format (ftrace_dump_on_oops, sysrq-z): " %4lldus%c: ", µs and the
		 * delay mark (' ', '+', '!', '#', '*', '@', '$') before the colon
		 */
		c->p += 2;
		if (sec > UINT64_MAX / 1000u || c->p >= c->e)
			return 0;
		*ts = sec * 1000u;
		if (*c->p != ':' && (!*c->p || !strchr(" +!#*@$", *c->p)))
			return 0;
		if (*c->p != ':')
			c->p++;
		return LIT(c, ":");
	}
	if (c->p < c->e && *c->p == '.') {
		c->p++;
		while (c->p < c->e && is_digit(*c->p)) {
			if (nd < 9) {
				frac = frac * 10 + (uint64_t)(*c->p - '0');
				nd++;
			}
			c->p++;
		}
		while (nd < 9) {
			frac *= 10;
			nd++;
		}
		if (sec > UINT64_MAX / 1000000000u - 1)
			return 0;
		*ts = sec * 1000000000u + frac;
	} else {
		*ts = sec;
	}
	return LIT(c, ":");
}

static inline int is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* "[  123.456789]" (printk time) or "[ T1234]" / "[   C1]" (printk caller id) at @p. */
static const char *bracket_stamp(const char *p, const char *e)
{
	const char *q = p + 1;
	int digits = 0;

	while (q < e && *q == ' ')
		q++;
	if (q < e && (*q == 'T' || *q == 'C')) {
		for (q++; q < e && is_digit(*q); q++)
			digits++;
	} else {
		for (; q < e && is_digit(*q); q++)
			digits++;
		if (q >= e || *q++ != '.')
			return NULL;
		for (; q < e && is_digit(*q); q++)
			digits++;
	}
	if (!digits && q < e && is_alpha(*q)) {
		/* dmesg -T: "[Tue Oct  8 15:34:57 2024]" */
		const char *r = memchr(q, ']', (size_t)(e - q) < 32 ? (size_t)(e - q) : 32);
		const char *t = r ? find(q, r, ":", 1) : NULL;

		return t && t + 6 < r && is_digit(t[1]) && is_digit(t[2]) && t[3] == ':' &&
		       is_digit(t[4]) && is_digit(t[5]) ? r + 1 : NULL;
	}
	return digits && q < e && *q == ']' ? q + 1 : NULL;
}

/* dmesg -x: "kern  :warn  : " (facility and level, padded) */
static const char *dmesg_level(const char *p, const char *e)
{
	for (int field = 0; field < 2; field++) {
		const char *w = p;

		while (p < e && *p >= 'a' && *p <= 'z')
			p++;
		if (p == w || p - w > 8)
			return NULL;
		while (p < e && *p == ' ')
			p++;
		if (p >= e || *p++ != ':')
			return NULL;
	}
	return p < e && *p == ' ' ? p + 1 : NULL;
}

/* "Oct  8 15:34:57 host kernel: " or "2024-10-08T15:34:57.5+02:00 host kernel: " */
static const char *syslog_prefix(const char *s, const char *e)
{
	const char *t = NULL, *k;

	if (e - s < 20 || !(is_alpha(s[0]) || is_digit(s[0])))
		return NULL;
	for (const char *p = s; p + 6 <= e && p - s < 32; p++)
		if (p[0] == ':' && is_digit(p[1]) && is_digit(p[2]) && p[3] == ':' &&
		    is_digit(p[4]) && is_digit(p[5])) {
			t = p + 6;
			break;
		}
	if (!t)
		return NULL;
	k = find(t, e - t > 96 ? t + 96 : e, " kernel: ", 9);
	if (!k) {
		k = find(t, e - t > 96 ? t + 96 : e, " kernel:", 8);
		return k && k + 8 == e ? e : NULL;
	}
	return k + 9;
}

size_t ft_console_prefix(const char *s, size_t len)
{
	const char *p = s, *e = s + len, *q;

	if (p < e && *p == '|' && (p + 1 == e || is_ws(p[1])))
		return 1;	/* "|  trace line": a paste marked off with bars */
	q = syslog_prefix(p, e);
	if (q)
		p = q;
	q = dmesg_level(p, e);
	if (q)
		p = q;
	if (e - p >= 3 && p[0] == '<' && is_digit(p[1])) {
		/* "<4>" log level (dmesg -r) */
		for (q = p + 1; q < e && q - p < 5 && is_digit(*q); q++)
			;
		if (q < e && *q == '>')
			p = q + 1;
	}
	while (p < e && *p == '[' && (q = bracket_stamp(p, e)))
		p = q;
	return (size_t)(p - s);
}

/* "(  1234)" or "(-------)": the TGID column. */
static int tgid(struct cur *c)
{
	const char *p = c->p + 1;

	while (p < c->e && p - c->p < 16 && (is_ws(*p) || is_digit(*p) || *p == '-'))
		p++;
	if (p >= c->e || *p != ')')
		return 0;
	c->p = p + 1;
	return 1;
}

/* A depth column: '.' is 0, else one hex digit; -1 if neither. */
static int depth_col(char c)
{
	if (c == '.')
		return 0;
	if (is_digit(c))
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int ft_flags_decode_layout(const char *s, size_t n, const uint8_t *layout,
			       struct ft_flags *f)
{
	size_t i;

	memset(f, 0, sizeof(*f));
	f->ncols = n > 255 ? 255 : (uint8_t)n;
	f->preempt = f->lazy_depth = f->migrate = -1;
	for (i = 0; i < n && layout[i]; i++) {
		char c = s[i];
		int v;

		switch (layout[i]) {
		case FT_COL_IRQS:
			if (!c || !strchr("dDbX.", c))
				return 0;
			f->irqs = c;
			break;
		case FT_COL_RESCHED:
			if (!c || !strchr("NnpLlBb.", c))
				return 0;
			f->resched = c;
			break;
		case FT_COL_LAZY:
			if (c != 'L' && c != '.')
				return 0;
			f->lazy = c;
			break;
		case FT_COL_CTX:
			if (!c || !strchr("ZzHhs.", c))
				return 0;
			f->ctx = c;
			break;
		default:
			v = depth_col(c);
			if (v < 0)
				return 0;
			if (layout[i] == FT_COL_PREEMPT)
				f->preempt = (int8_t)v;
			else if (layout[i] == FT_COL_LAZY_DEPTH)
				f->lazy_depth = (int8_t)v;
			else
				f->migrate = (int8_t)v;
			break;
		}
	}
	if (i != n || layout[i])
		return 0;	/* the widths differ */
	f->decoded = 1;
	return 1;
}

int ft_flags_decode(const char *s, size_t n, struct ft_flags *f)
{
	static const uint8_t four[] = { FT_COL_IRQS, FT_COL_RESCHED, FT_COL_CTX,
					FT_COL_PREEMPT, 0 };
	static const uint8_t five[] = { FT_COL_IRQS, FT_COL_RESCHED, FT_COL_CTX,
					FT_COL_PREEMPT, FT_COL_MIGRATE, 0 };
	static const uint8_t rt[] = { FT_COL_IRQS, FT_COL_RESCHED, FT_COL_LAZY,
				      FT_COL_CTX, FT_COL_PREEMPT, FT_COL_LAZY_DEPTH,
				      FT_COL_MIGRATE, 0 };
	static const uint8_t none[] = { 0 };

	if (ft_flags_decode_layout(s, n, n == 4 ? four : n == 5 ? five : n == 7 ? rt : none,
				       f))
		return 1;
	/* a layout we do not know: the context is taken where 4 and 5 columns have it */
	f->ctx = n >= 4 ? s[2] : 0;
	return 0;
}

int ft_legend_col(const char *s, size_t len)
{
	static const struct {
		const char *name;
		int col;
	} names[] = {
		/* longest first: "need-resched-lazy" before "need-resched" */
		{ "irqs-off", FT_COL_IRQS },
		{ "need-resched-lazy", FT_COL_LAZY },
		{ "need-resched_lazy", FT_COL_LAZY },
		{ "need-resched", FT_COL_RESCHED },
		{ "hardirq/softirq", FT_COL_CTX },
		{ "preempt-lazy-depth", FT_COL_LAZY_DEPTH },
		{ "preempt-depth", FT_COL_PREEMPT },
		{ "migrate-disable", FT_COL_MIGRATE },
		{ "CPU#", FT_COL_CPU },
	};
	const char *e = s + len, *a;

	if (!len || s[0] != '#')
		return 0;
	a = find(s, e, "=> ", 3);
	if (!a)
		return 0;
	a += 3;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t n = strlen(names[i].name);

		if ((size_t)(e - a) >= n && !memcmp(a, names[i].name, n))
			return names[i].col;
	}
	return 0;
}

/*
 * The flags token [s, e): decoded into @f.  A NUL in it is no flag (no column
 * takes it): the token stays undecoded and is not decoded again by a legend.
 */
static void flags_token(const char *s, const char *e, struct ft_flags *f)
{
	ft_flags_decode(s, (size_t)(e - s), f);
	if (memchr(s, '\0', (size_t)(e - s)))
		f->ncols = 1;
	else
		f->text = s;
}

/*
 * The irq-info column ("d.h2." / "dNs1"): its context letter, as
 * ft_flags_decode() found it in @fl, is the context the event fired in
 * (kernel/trace/trace_output.c: h hardirq, s softirq, H both, z NMI, Z NMI in
 * hardirq, '.' task).  Anything else leaves the context unknown.
 */
static void irq_info(const struct ft_flags *fl, struct lat_event *ev)
{
	switch (fl->ctx) {
	case '.':
		ev->flags = LAT_EVF_KNOWN;
		break;
	case 'h':
		ev->flags = LAT_EVF_KNOWN | LAT_EVF_HARDIRQ;
		break;
	case 's':
		ev->flags = LAT_EVF_KNOWN | LAT_EVF_SOFTIRQ;
		break;
	case 'H':
		ev->flags = LAT_EVF_KNOWN | LAT_EVF_HARDIRQ | LAT_EVF_SOFTIRQ;
		break;
	case 'z':
		ev->flags = LAT_EVF_KNOWN | LAT_EVF_NMI;
		break;
	case 'Z':
		ev->flags = LAT_EVF_KNOWN | LAT_EVF_NMI | LAT_EVF_HARDIRQ;
		break;
	default:
		break;
	}
}

/*
 * Everything after "<comm>-": pid, tgid, cpu, flags, timestamp.  @c starts at
 * the pid; on success it is past the timestamp's ':' and its blanks.
 */
static int context(struct cur *c, struct lat_event *ev, struct ft_flags *fl)
{
	uint64_t v, cpu;
	const char *f;

	if (!u64(c, &v) || v > INT32_MAX || !skip_ws(c) || c->p >= c->e)
		return 0;
	ev->pid = (int32_t)v;
	if (*c->p == '(') {
		if (!tgid(c) || !skip_ws(c) || c->p >= c->e)
			return 0;
	}
	if (*c->p == '[') {
		c->p++;
		if (!u64(c, &cpu) || cpu > INT32_MAX || !LIT(c, "]"))
			return 0;
		skip_ws(c);
		if (c->p < c->e && !is_digit(*c->p)) {
			/* irq-info flags: "d..2." */
			for (f = c->p; c->p < c->e && !is_ws(*c->p); c->p++)
				;
			flags_token(f, c->p, fl);
			irq_info(fl, ev);
			if (!skip_ws(c))
				return 0;
		}
	} else if (is_digit(*c->p)) {
		/* latency format, trace-cmd report -l: cpu glued to the flags, "1d..3." */
		if (!u64(c, &cpu) || cpu > INT32_MAX)
			return 0;
		for (f = c->p; c->p < c->e && !is_ws(*c->p); c->p++)
			;
		flags_token(f, c->p, fl);
		irq_info(fl, ev);
		if (!skip_ws(c))
			return 0;
	} else {
		return 0;
	}
	ev->cpu = (int32_t)cpu;
	if (!timestamp(c, &ev->ts_ns))
		return 0;
	skip_ws(c);
	/* trace-cmd report --ts-diff: "(+56)" */
	if (c->p < c->e && *c->p == '(' && c->e - c->p > 2 && (c->p[1] == '+' || c->p[1] == '-')) {
		const char *q = memchr(c->p, ')', (size_t)(c->e - c->p));

		if (!q)
			return 0;
		c->p = q + 1;
		skip_ws(c);
	}
	return 1;
}

/*
 * Sets the running comm from [s, e): right-aligned, maybe after "instance:".
 * "<...>" (the kernel did not know the comm) is kept as the trace.dat reader keeps it.
 */
static void set_comm(struct lat_event *ev, const char *s, const char *e, char *buffer,
		     size_t buflen)
{
	buffer[0] = '\0';
	while (s < e && is_ws(*s))
		s++;
	while (e > s && is_ws(e[-1]))
		e--;
	if (e - s >= LAT_COMM_LEN) {
		/* trace-cmd report of an instance: "name:   comm" (a comm has < 16 bytes) */
		for (const char *q = s; q + 1 < e; q++) {
			if (q[0] == ':' && is_ws(q[1])) {
				const char *t = q + 1;

				while (t < e && is_ws(*t))
					t++;
				if (e - t < LAT_COMM_LEN) {
					copy_str(buffer, buflen, s, q);
					s = t;
					break;
				}
			}
		}
	}
	copy_comm(ev->comm, s, e);
}

/* Header of an event line; on success @c is at the event name. */
static int header(struct cur *c, struct lat_event *ev, struct ft_strs *strs)
{
	const char *start = c->p;

	/* the pid follows the last '-' of the comm: try each until the rest parses */
	for (const char *q = start; q < c->e; q++) {
		struct cur t;

		q = memchr(q, '-', (size_t)(c->e - q));
		if (!q)
			return 0;
		if (q + 1 >= c->e || !is_digit(q[1]))
			continue;
		t.p = q + 1;
		t.e = c->e;
		memset(&strs->flags, 0, sizeof(strs->flags));
		strs->flags.preempt = strs->flags.lazy_depth = strs->flags.migrate = -1;
		if (context(&t, ev, &strs->flags)) {
			set_comm(ev, start, q, strs->buffer, sizeof(strs->buffer));
			c->p = t.p;
			return 1;
		}
	}
	return 0;
}

static enum ft_kind lost_line(struct cur *c, struct lat_event *ev)
{
	uint64_t cpu, n = 0;

	/* "CPU:1 [LOST 1204 EVENTS]" (kernel), "CPU:1 [1204 EVENTS DROPPED]" (trace-cmd) */
	if (!LIT(c, "CPU:") || !u64(c, &cpu) || cpu > INT32_MAX || !LIT(c, " ["))
		return FT_FOREIGN;
	if (LIT(c, "LOST ")) {
		if (!u64(c, &n) || !LIT(c, " EVENTS]"))
			return FT_BAD;
	} else if (!LIT(c, "EVENTS DROPPED]")) {
		if (!u64(c, &n) || !LIT(c, " EVENTS DROPPED]"))
			return FT_BAD;
	}
	ev->type = LAT_EV_LOST;
	ev->name = "lost";
	ev->cpu = (int32_t)cpu;
	ev->pid = -1;
	ev->comm[0] = '\0';
	ev->u.lost.count = n;
	return FT_LOST;
}

static enum ft_kind skip_line(struct cur *c, int *ncpus)
{
	uint64_t v;
	const char *p;

	if (c->p >= c->e)
		return FT_SKIP;
	if (*c->p == '#') {
		/* "# entries-in-buffer/entries-written: 2527/2527   #P:2" */
		p = find(c->p, c->e, "#P:", 3);
		if (p) {
			struct cur t = { p + 3, c->e };

			if (u64(&t, &v) && v > 0 && v < 65536)
				*ncpus = (int)v;
		}
		return FT_SKIP;
	}
	if (LIT(c, "cpus=")) {
		if (u64(c, &v) && v > 0 && v < 65536 && c->p == c->e) {
			*ncpus = (int)v;
			return FT_SKIP;
		}
		return FT_BAD;
	}
	return FT_FOREIGN;
}

static const char EXP_LINE[] =
	"\"<comm>-<pid> [cpu] [flags] <sec.usec>: <event>: <fields>\" or a \" => symbol\" frame";
static const char EXP_SWITCH[] =
	"sched_switch fields \"prev_comm=… prev_pid=N prev_prio=N prev_state=S ==> "
	"next_comm=… next_pid=N next_prio=N\" or \"comm:pid [prio] S ==> comm:pid [prio]\"";
static const char EXP_WAKE[] =
	"wakeup fields \"comm=… pid=N prio=N [target_cpu=N]\" or \"comm:pid [prio] CPU:N\"";
static const char EXP_MIGRATE[] =
	"sched_migrate_task fields \"comm=… pid=N prio=N orig_cpu=N dest_cpu=N\"";
static const char EXP_FORK[] =
	"sched_process_fork fields \"comm=… pid=N child_comm=… child_pid=N\"";
static const char EXP_EXEC[] = "sched_process_exec fields \"filename=… pid=N old_pid=N\"";
static const char EXP_EXIT[] = "sched_process_exit fields \"comm=… pid=N prio=N\"";
static const char EXP_IRQ[] = "irq fields \"irq=N name=…\" or \"irq=N ret=handled\"";
static const char EXP_SOFTIRQ[] = "softirq fields \"vec=N [action=NAME]\"";
static const char EXP_TIMER[] =
	"hrtimer fields \"hrtimer=P function=NAME now=N\" (expire_entry), \"hrtimer=P "
	"function=NAME expires=N softexpires=N\" (start) or \"hrtimer=P\"";
static const char EXP_LOST[] = "\"CPU:N [LOST N EVENTS]\" or \"CPU:N [N EVENTS DROPPED]\"";
static const char EXP_CPUS[] = "\"cpus=N\"";

/*
 * The frame ftrace_dump() prints around a dump on the console: "Dumping ftrace
 * buffer:", a rule of dashes before and after, "(ftrace buffer empty)".
 */
static int is_console_frame(const char *p, const char *e)
{
	const char *q = p;

	if (STARTS(&((struct cur){ p, e }), "Dumping ftrace buffer:") ||
	    STARTS(&((struct cur){ p, e }), "(ftrace buffer empty)"))
		return 1;
	while (q < e && *q == '-')
		q++;
	return q == e && e - p >= 8;
}

#define NAME_IS(n, l, s) ((l) == sizeof(s) - 1 && !memcmp((n), (s), sizeof(s) - 1))

/* The sched_* events read, by their name after "sched_". */
static const struct sched_event {
	const char *name;
	uint8_t len;
	enum lat_ev_type type;
	const char *full;	/* NULL: the parser names the event (sched_switch) */
	const char *expected;
	int (*parse)(struct cur *c, struct lat_event *ev);
} sched_events[] = {
	{ "switch", 6, LAT_EV_SWITCH, NULL, EXP_SWITCH, p_switch },
	{ "waking", 6, LAT_EV_WAKING, "sched:sched_waking", EXP_WAKE, p_wake },
	{ "wakeup", 6, LAT_EV_WAKEUP, "sched:sched_wakeup", EXP_WAKE, p_wake },
	{ "wakeup_new", 10, LAT_EV_WAKEUP_NEW, "sched:sched_wakeup_new", EXP_WAKE, p_wake },
	{ "migrate_task", 12, LAT_EV_MIGRATE, "sched:sched_migrate_task", EXP_MIGRATE, p_migrate },
	{ "process_fork", 12, LAT_EV_FORK, "sched:sched_process_fork", EXP_FORK, p_fork },
	{ "process_exec", 12, LAT_EV_EXEC, "sched:sched_process_exec", EXP_EXEC, p_exec },
	{ "process_exit", 12, LAT_EV_EXIT, "sched:sched_process_exit", EXP_EXIT, p_exit },
};

/* sched_* events, @m the name after "sched_": 1 with *@kind set, 0 for another name. */
static int sched_payload(struct cur *c, const char *m, size_t ml, struct lat_event *ev,
			 const char **expected, enum ft_kind *kind)
{
	for (size_t i = 0; i < LAT_ARRAY_SIZE(sched_events); i++) {
		const struct sched_event *se = &sched_events[i];

		if (ml != se->len || memcmp(m, se->name, ml))
			continue;
		if (se->full) {
			ev->type = se->type;
			ev->name = se->full;
		}
		*expected = se->expected;
		*kind = se->parse(c, ev) ? FT_EVENT : FT_BAD;
		return 1;
	}
	return 0;
}

/* The hrtimer events read (docs/timers.md), by name; LAT_EV_OTHER for another name. */
static enum lat_ev_type timer_type(const char *n, size_t nl, const char **full)
{
	static const struct {
		const char *name, *full;
		enum lat_ev_type type;
	} t[] = {
		{ "hrtimer_expire_entry", "timer:hrtimer_expire_entry", LAT_EV_TIMER_ENTRY },
		{ "hrtimer_expire_exit", "timer:hrtimer_expire_exit", LAT_EV_TIMER_EXIT },
		{ "hrtimer_start", "timer:hrtimer_start", LAT_EV_TIMER_START },
		{ "hrtimer_cancel", "timer:hrtimer_cancel", LAT_EV_TIMER_CANCEL },
	};

	if (nl < 13 || memcmp(n, "hrtimer_", 8))
		return LAT_EV_OTHER;
	for (size_t i = 0; i < LAT_ARRAY_SIZE(t); i++)
		if (nl == strlen(t[i].name) && !memcmp(n, t[i].name, nl)) {
			*full = t[i].full;
			return t[i].type;
		}
	return LAT_EV_OTHER;
}

/* softirqs, irq handlers, hrtimer events: 1 with *@kind set, 0 for another name. */
static int irq_payload(struct cur *c, const char *n, size_t nl, struct lat_event *ev,
		       struct ft_strs *strs, const char **expected, enum ft_kind *kind)
{
	enum lat_ev_type tt;
	const char *full;
	int ok, entry;

	if (NAME_IS(n, nl, "softirq_entry") || NAME_IS(n, nl, "softirq_exit")) {
		ev->type = nl == 13 ? LAT_EV_SOFTIRQ_ENTRY : LAT_EV_SOFTIRQ_EXIT;
		ev->name = nl == 13 ? "irq:softirq_entry" : "irq:softirq_exit";
		ev->u.irq.name = NULL;
		ev->u.irq.ret = 0;
		*expected = EXP_SOFTIRQ;
		ok = p_softirq(c, ev, strs);
	} else if (NAME_IS(n, nl, "irq_handler_entry") || NAME_IS(n, nl, "irq_handler_exit")) {
		entry = nl == 17;
		ev->type = entry ? LAT_EV_IRQ_ENTRY : LAT_EV_IRQ_EXIT;
		ev->name = entry ? "irq:irq_handler_entry" : "irq:irq_handler_exit";
		ev->u.irq.name = NULL;
		ev->u.irq.ret = 0;
		*expected = EXP_IRQ;
		ok = p_irq(c, ev, strs, entry);
	} else if ((tt = timer_type(n, nl, &full)) != LAT_EV_OTHER) {
		ev->type = tt;
		ev->name = full;
		*expected = EXP_TIMER;
		ok = ft_timer_fields(c->p, c->e, ev, strs);
	} else {
		return 0;
	}
	*kind = ok ? FT_EVENT : FT_BAD;
	return 1;
}

/* trace-cmd's "print:   tracing_mark_write: text" (or "...+0x91/0x170: text"). */
static void print_payload(struct cur *c, struct lat_event *ev, struct ft_strs *strs)
{
	struct cur t = *c;

	if (LIT(&t, "tracing_mark_write")) {
		while (t.p < t.e && *t.p != ':' && !is_ws(*t.p))
			t.p++;	/* "+0x91/0x170" */
		if (LIT(&t, ":")) {
			if (t.p < t.e && *t.p == ' ')
				t.p++;
			*c = t;
		}
	}
	marker(c, ev, strs);
}

static enum ft_kind payload(struct cur *c, const char *n, size_t nl, struct lat_event *ev,
				struct ft_strs *strs, const char **expected)
{
	enum ft_kind kind;

	if (nl > 6 && !memcmp(n, "sched_", 6) &&
	    sched_payload(c, n + 6, nl - 6, ev, expected, &kind))
		return kind;
	if (irq_payload(c, n, nl, ev, strs, expected, &kind))
		return kind;
	if (NAME_IS(n, nl, "tracing_mark_write")) {
		marker(c, ev, strs);
		return FT_EVENT;
	}
	if (NAME_IS(n, nl, "print")) {
		print_payload(c, ev, strs);
		return FT_EVENT;
	}
	if (NAME_IS(n, nl, "kernel_stack")) {
		/* trace-cmd: "kernel_stack:   <stack trace >" */
		ev->type = LAT_EV_STACK;
		ev->name = "ftrace:kernel_stack";
		return FT_STACK;
	}
	if (NAME_IS(n, nl, "user_stack")) {
		ev->type = LAT_EV_OTHER;
		ev->name = "ftrace:user_stack";
		return FT_USTACK;
	}
	ev->type = LAT_EV_OTHER;
	copy_str(strs->name, sizeof(strs->name), n, n + nl);
	ev->name = strs->name;
	return FT_EVENT;
}

/*
 * "pid:prio:S" of the sched_switch tracer; the state letter at *st.  The
 * kernel prints the priority "%3d": an RT task's is " 49" ("119: 49:R").
 */
static int pid_prio_state(struct cur *c, int32_t *pid, int32_t *prio, const char **st)
{
	if (!i32(c, pid) || !LIT(c, ":"))
		return 0;
	skip_ws(c);
	if (!i32(c, prio) || !LIT(c, ":") || c->p >= c->e)
		return 0;
	*st = c->p++;
	return 1;
}

/*
 * The 2.6.27-2.6.31 `sched_switch` tracer (not an event): "3997:120:R ==> [000]
 * 4055:120:R ls" is a switch from the line's task, "3997:120:R   + [000] 4055:120:R ls"
 * a wakeup of ls on CPU 0.
 */
static int p_ctxsw(struct cur *c, struct lat_event *ev)
{
	int32_t pid, prio, npid, nprio, cpu;
	const char *st, *nst;
	int sw;

	if (!pid_prio_state(c, &pid, &prio, &st) || !skip_ws(c))
		return 0;
	if (LIT(c, "==>"))
		sw = 1;
	else if (LIT(c, "+"))
		sw = 0;
	else
		return 0;
	skip_ws(c);
	if (!LIT(c, "[") || !i32(c, &cpu) || !LIT(c, "]") || !skip_ws(c) ||
	    !pid_prio_state(c, &npid, &nprio, &nst))
		return 0;
	skip_ws(c);
	if (sw) {
		ev->type = LAT_EV_SWITCH;
		ev->name = "sched:sched_switch";
		memcpy(ev->u.sw.prev_comm, ev->comm, LAT_COMM_LEN);
		ev->u.sw.prev_pid = pid;
		ev->u.sw.prev_prio = prio;
		ev->u.sw.prev_state = lat_task_state_from_char(*st);
		ev->u.sw.prev_state_raw = state_bits(st, st + 1, 1);
		copy_comm(ev->u.sw.next_comm, c->p, c->e);
		ev->u.sw.next_pid = npid;
		ev->u.sw.next_prio = nprio;
	} else {
		ev->type = LAT_EV_WAKEUP;
		ev->name = "sched:sched_wakeup";
		copy_comm(ev->u.wake.comm, c->p, c->e);
		ev->u.wake.pid = npid;
		ev->u.wake.prio = nprio;
		ev->u.wake.target_cpu = cpu;
	}
	return 1;
}

static const char EXP_CTXSW[] =
	"sched_switch tracer fields \"pid:prio:S ==> [cpu] pid:prio:S comm\" or \"... + ...\"";

/*
 * What a line is before any head is read (a blank, a frame, a comment, a header, the
 * console's frame, a lost-events line), on @c trimmed: 1 with *@k set, 0 when it may be
 * an event line (@c at its start, after a console prefix and blanks).
 */
static int line_start(struct cur *c, struct lat_event *ev, int *ncpus, const char **expected,
		      enum ft_kind *k)
{
	const char *s;

	*expected = EXP_LINE;
	while (c->e > c->p && (is_ws(c->e[-1]) || c->e[-1] == '\r'))
		c->e--;
	c->p += ft_console_prefix(c->p, (size_t)(c->e - c->p));
	s = c->p;
	skip_ws(c);
	*k = FT_SKIP;
	if (c->p == c->e)
		return 1;
	if (c->e - c->p >= 2 && c->p[0] == '=' && c->p[1] == '>') {
		*k = FT_FRAME;
		return 1;
	}
	if (c->p[0] == '#' || (c->e - c->p > 5 && !memcmp(c->p, "cpus=", 5))) {
		*k = skip_line(c, ncpus);
		if (*k == FT_BAD)
			*expected = EXP_CPUS;
		return 1;
	}
	/* Android's atrace prints "TRACE:" above the ftrace text it dumps */
	if (is_console_frame(c->p, c->e) || (c->e - c->p == 6 && !memcmp(c->p, "TRACE:", 6)))
		return 1;
	if (c->e - c->p > 4 && !memcmp(c->p, "CPU:", 4) && is_digit(c->p[4])) {
		*k = lost_line(c, ev);
		if (*k == FT_BAD)
			*expected = EXP_LOST;
		if (*k != FT_FOREIGN)
			return 1;
		c->p = s;
		skip_ws(c);
	}
	return 0;
}

/* What follows an event line's head, @c past it: the event, a stack's start or bad. */
static enum ft_kind after_head(struct cur *c, struct lat_event *ev, struct ft_strs *strs,
			       const char **expected)
{
	const char *n;
	size_t nl;

	if (c->p < c->e && *c->p == '<') {
		if (LIT(c, "<stack trace>")) {
			ev->type = LAT_EV_STACK;
			ev->name = "ftrace:kernel_stack";
			return FT_STACK;
		}
		if (LIT(c, "<user stack trace>")) {
			ev->type = LAT_EV_OTHER;
			ev->name = "ftrace:user_stack";
			return FT_USTACK;
		}
	}
	if (c->p < c->e && is_digit(*c->p)) {
		*expected = EXP_CTXSW;
		return p_ctxsw(c, ev) ? FT_EVENT : FT_BAD;
	}
	/* "event:" or "func+0x1/0x2:"; a function tracer line is "func <-parent" */
	n = c->p;
	while (c->p < c->e && *c->p != ':' && !is_ws(*c->p))
		c->p++;
	if (c->p >= c->e || *c->p != ':') {
		if (find(c->p, c->e, " <-", 3) == c->p) {
			ev->type = LAT_EV_OTHER;
			ev->name = "function";
			return FT_EVENT;
		}
		return FT_BAD;
	}
	nl = (size_t)(c->p - n);
	c->p++;
	for (size_t i = 0; i < nl; i++)
		if (n[i] == '+') {
			nl = i;
			break;
		}
	if (!nl)
		return FT_BAD;
	skip_ws(c);
	return payload(c, n, nl, ev, strs, expected);
}

enum ft_kind ft_parse_line(const char *s, size_t len, struct lat_event *ev,
				   struct ft_strs *strs, int *ncpus, const char **expected)
{
	struct cur c = { s, s + len };
	enum ft_kind k;

	ev->flags = 0;
	if (line_start(&c, ev, ncpus, expected, &k))
		return k;
	strs->buffer[0] = '\0';
	if (!header(&c, ev, strs)) {
		/* "CPU 1 is empty" and friends from trace-cmd report */
		if (c.e - c.p > 4 && !memcmp(c.p, "CPU ", 4))
			return FT_SKIP;
		return FT_FOREIGN;
	}
	return after_head(&c, ev, strs, expected);
}

enum ft_kind ft_parse_after_head(const char *s, size_t len, size_t off, struct lat_event *ev,
				 struct ft_strs *strs, int *ncpus, const char **expected)
{
	struct cur c = { s, s + len };
	enum ft_kind k;

	if (line_start(&c, ev, ncpus, expected, &k))
		return k;
	/* the head ends before what trimming took off the line's end, or at it */
	c.p = s + off < c.e ? s + off : c.e;
	return after_head(&c, ev, strs, expected);
}

size_t ft_parse_head(const char *s, size_t len, struct lat_event *ev,
			 struct ft_strs *strs)
{
	struct cur c = { s, s + len };

	ev->flags = 0;
	c.p += ft_console_prefix(c.p, len);
	skip_ws(&c);
	if (c.p >= c.e || *c.p == '#')
		return 0;
	strs->buffer[0] = '\0';
	if (!header(&c, ev, strs))
		return 0;
	return (size_t)(c.p - s);
}

int ft_parse_frame(const char *s, size_t len, char *sym, size_t symlen, uint64_t *ip)
{
	struct cur c = { s, s + len };
	const char *w, *we;

	c.p += ft_console_prefix(s, len);
	skip_ws(&c);
	if (!LIT(&c, "=>"))
		return 0;
	skip_ws(&c);
	while (c.e > c.p && (is_ws(c.e[-1]) || c.e[-1] == '\r'))
		c.e--;
	*ip = 0;
	sym[0] = '\0';
	w = c.p;
	while (c.p < c.e && !is_ws(*c.p))
		c.p++;
	we = c.p;
	skip_ws(&c);
	if (w < we && (*w == '<' || (we - w > 2 && w[0] == '0' && w[1] == 'x'))) {
		/* an address the kernel could not name: "<ffffffffc0a1b2c3>" or "0x..." */
		const char *h = w + (*w == '<' ? 1 : 2);
		uint64_t v = 0;

		for (; h < we && *h != '>'; h++) {
			char ch = *h;
			unsigned d = is_digit(ch) ? (unsigned)(ch - '0') :
				     (ch >= 'a' && ch <= 'f') ? (unsigned)(ch - 'a' + 10) : 16;

			if (d == 16)
				break;
			v = v << 4 | d;
		}
		*ip = v;
		return 1;
	}
	for (const char *q = w; q < we; q++)
		if (*q == '+') {
			we = q;
			break;
		}
	copy_str(sym, symlen, w, we);
	/* trace-cmd: "sym (ffffffff813abff5)"; sym-addr: "sym <ffffffff813abff5>" */
	if (c.p < c.e && (*c.p == '(' || *c.p == '<')) {
		uint64_t v = 0;

		for (c.p++; c.p < c.e; c.p++) {
			char ch = *c.p;
			unsigned d = is_digit(ch) ? (unsigned)(ch - '0') :
				     (ch >= 'a' && ch <= 'f') ? (unsigned)(ch - 'a' + 10) : 16;

			if (d == 16)
				break;
			v = v << 4 | d;
		}
		*ip = v;
	}
	return 1;
}
