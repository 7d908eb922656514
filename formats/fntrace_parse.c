// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The latency-tracer dump grammar shared by rt-lattrace and ftrace-latency.
 *
 * Header (either dialect; ftrace prefixes every header line with "#"):
 *   [# tracer: irqsoff]
 *   <tracer> latency trace v1.1.4 on <kernel>
 *   latency: 3402 us, #4095/20285, CPU#0 | (M:preempt VP:0, KP:1, SP:1 HP:1 #P:1)
 *   | task: ksoftirqd/0-2 (uid:0 nice:-10 policy:0 rt_prio:0)
 *   => started at: fn+0x1/0x2 <addr>      => ended at: fn
 * Rows:
 *   (T1/#8) <...> 2576 0 2 00000001 00000008 [0002512920679575] 0.001ms (+0.000ms): \
 *           f+o/s <a> (p+o/s <a>)
 *   (T4/#1) [ =>        kjournald ] 0.000ms (+0.000ms)
 *   [(T3/#4)] <...>-2576 0dn.3    0us : f[+o/s <a>] (parent)
 *             ... | <-parent | <comm-pid> (a b): | (v1 v2 v3)
 *   [(T6/#7)] <...>-2576 0dn.1    1us < (1)           [(T5/#n)] ... 3us > sys_read (a b c)
 *   <idle>-0       3d..3   15us :      0:120:R ==> [003]   312:100:R kworker/3:1H
 *   bash-1994    1.N.1  104us : <stack trace>       followed by " => frame" lines
 * Older RT rows (v1.0 - v1.1.1, parse_v10):
 *   [pid | comm-pid] [80010004 | ........] 0.002ms (+0.002ms): f (parent)
 * ftrace display-graph rows (parse_graph):
 *   "   1 us |   0)   bash-1507    |  d..2 |   0.351 us    |    f();"
 * The verbose columns are comm, pid, cpu, flags (decimal TRACE_FLAG_* bits),
 * preempt count (%08x), index (%08lx) and the raw TSC (decimal cycles): the
 * order printed by l_show_fn() of kernel/latency.c, checked against seed 002
 * where the index column counts up in hex (0000000a follows 00000009).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "fntrace_parse.h"

#define ROW_EXPECTED "a latency-trace entry (\"comm-pid CPU+flags time : function (parent)\")"

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static const char *skip_ws(const char *p)
{
	while (is_blank(*p))
		p++;
	return p;
}

static int starts(const char *p, const char *lit)
{
	return !strncmp(p, lit, strlen(lit));
}

/* Header lines of ftrace start with "#"; returns the text after it (or @p). */
static const char *strip_hash(const char *p, int *hashed)
{
	p = skip_ws(p);
	*hashed = 0;
	if (*p == '#') {
		*hashed = 1;
		p = skip_ws(p + 1);
	}
	return p;
}

/* Lines a poster puts where entries were cut: "etc", "[ etc ]", "[...]", "<snip>". */
static int is_elision(const char *p)
{
	static const char *const marks[] = { "etc", "etc.", "etc...", "[etc]", "[ etc ]", "[...]",
					     "[ ... ]", "...", "<snip>", "[snip]", "snip",
					     "[ snip ]", "[..]", "[ ...]" };
	size_t n;

	p = skip_ws(p);
	n = strlen(p);
	while (n && is_blank(p[n - 1]))
		n--;
	for (size_t i = 0; i < LAT_ARRAY_SIZE(marks); i++)
		if (strlen(marks[i]) == n && !strncasecmp(p, marks[i], n))
			return 1;
	return 0;
}

/* "X latency trace v": where the tracer word starts, or NULL. */
static const char *find_title(const char *p)
{
	const char *m = strstr(p, " latency trace v");

	if (!m || m == p)
		return NULL;
	return m;
}

static int is_rt_title(const char *p)
{
	const char *m = find_title(p);

	return m && m - p == 10 && starts(p, "preemption");
}

/* Parses "comm-pid" ending at a blank; comm may contain '-' and (rarely) blanks. */
static int scan_comm_pid(const char **pp, char **comm, int32_t *pid)
{
	const char *p = skip_ws(*pp), *tok_end = p, *dash;
	int tokens = 0;

	while (tokens < 3) {
		const char *q;

		while (*tok_end && !is_blank(*tok_end))
			tok_end++;
		tokens++;
		/* the token must end in -digits */
		q = tok_end;
		while (q > p && isdigit((unsigned char)q[-1]))
			q--;
		if (q < tok_end && q > p && q[-1] == '-') {
			long v;

			dash = q - 1;
			v = strtol(q, NULL, 10);
			if (v < 0 || v > INT32_MAX)
				return 0;
			if (comm) {
				*comm = strndup(p, (size_t)(dash - p));
				if (!*comm)
					return 0;
			}
			*pid = (int32_t)v;
			*pp = tok_end;
			return 1;
		}
		if (!is_blank(*tok_end))
			return 0;
		tok_end = skip_ws(tok_end);
	}
	return 0;
}

/*
 * v1.1.3 (Dec 2004): "0-h.3" = CPU, irqs-off, hardirq, softirq, preempt depth
 * (its legend).  Both public v1.1.3 dumps print '-' in the irqs-off column on
 * every row, so the column says nothing we can read: irqs-off stays unset.
 */
static int scan_flags_v113(const char *f, struct lat_fn_entry *e, long cpu, const char **pp)
{
	e->flags = 0;
	if (f[1] == 'h')
		e->flags |= LAT_FNF_HARDIRQ;
	else if (f[1] != '.')
		return 0;
	if (f[2] == 's')
		e->flags |= LAT_FNF_SOFTIRQ;
	else if (f[2] != '.')
		return 0;
	if (f[3] == '.')
		e->preempt_count = 0;
	else if (isxdigit((unsigned char)f[3]))
		e->preempt_count = (int16_t)strtol((char[]){ f[3], 0 }, NULL, 16);
	else
		return 0;
	e->cpu = (int32_t)cpu;
	e->flags_known = 1;
	e->layout = LAT_FNL_V113;
	*pp = f + 4;
	return 1;
}

/* The irqs-off column: 'D' irqs and bottom halves off, 'd', 'b' BH off, 'X' no support. */
static int irqs_char(char c, struct lat_fn_entry *e)
{
	e->flags = 0;
	switch (c) {
	case 'd': e->flags |= LAT_FNF_IRQS_OFF; break;
	case 'D': e->flags |= LAT_FNF_IRQS_OFF | LAT_FNF_BH_OFF; break;
	case 'b': e->flags |= LAT_FNF_BH_OFF; break;
	case '.': case 'X': break;
	default: return 0;
	}
	return 1;
}

/*
 * The need-resched column (trace_print_lat_fmt()): 'n' TIF_NEED_RESCHED, 'p'
 * PREEMPT_NEED_RESCHED, 'N' both; with PREEMPT_LAZY (6.13+) also 'l' lazy,
 * 'L' lazy + preempt, 'b' need + lazy, 'B' all three.
 */
static int resched_char(char c, struct lat_fn_entry *e)
{
	switch (c) {
	case 'n': case 'N': case 'p':
		e->flags |= LAT_FNF_NEED_RESCHED;
		break;
	case 'L':
		e->flags |= LAT_FNF_NEED_RESCHED | LAT_FNF_RESCHED_LAZY;
		break;
	case 'b': case 'B':
		e->flags |= LAT_FNF_NEED_RESCHED | LAT_FNF_RESCHED_LAZY;
		break;
	case 'l':
		e->flags |= LAT_FNF_RESCHED_LAZY;
		break;
	case '.': break;
	default: return 0;
	}
	return 1;
}

/* hardirq/softirq: 'Z' NMI in hardirq, 'z' NMI, 'H' hardirq in softirq, 'h', 's'. */
static int irq_ctx_char(char c, struct lat_fn_entry *e)
{
	switch (c) {
	case 'h': e->flags |= LAT_FNF_HARDIRQ; break;
	case 's': e->flags |= LAT_FNF_SOFTIRQ; break;
	case 'H': e->flags |= LAT_FNF_HARDIRQ | LAT_FNF_SOFTIRQ; break;
	case 'z': e->flags |= LAT_FNF_NMI; break;
	case 'Z': e->flags |= LAT_FNF_NMI | LAT_FNF_HARDIRQ; break;
	case '.': break;
	default: return 0;
	}
	return 1;
}

/* A depth column: one hex digit, '.' for 0. */
static int depth_char(char c, int16_t *v)
{
	if (c == '.')
		*v = 0;
	else if (isxdigit((unsigned char)c))
		*v = (int16_t)strtol((char[]){ c, 0 }, NULL, 16);
	else
		return 0;
	return 1;
}

/*
 * The PREEMPT_RT lazy-preemption patch (its print_lat_help_header(), until
 * 6.x-rt dropped it): "0dn.h5.." = CPU, irqs-off, need-resched ('n' 'N' 'p'),
 * need-resched-lazy ('L'), hardirq/softirq, preempt-depth, preempt-lazy-depth,
 * migrate-disable.
 */
static int scan_flags_rt_lazy(const char *f, struct lat_fn_entry *e, long cpu, const char **pp)
{
	if (!irqs_char(f[0], e) || !resched_char(f[1], e))
		return 0;
	if (f[2] == 'L')
		e->flags |= LAT_FNF_RESCHED_LAZY;
	else if (f[2] != '.')
		return 0;
	if (!irq_ctx_char(f[3], e) || !depth_char(f[4], &e->preempt_count) ||
	    !depth_char(f[5], &e->lazy_depth) || !depth_char(f[6], &e->migrate))
		return 0;
	e->cpu = (int32_t)cpu;
	e->flags_known = 1;
	e->layout = LAT_FNL_RT_LAZY7;
	*pp = f + 7;
	return 1;
}

/*
 * "0dn.3" / "3d..1" / "1dNs2." : CPU digits, irqs-off, need-resched,
 * hard/softirq, preempt depth (hex or '.'), optional migrate-disable depth.
 */
/* The 4 or 5 flag characters after the CPU (or between the bars of a graph row). */
static int flag_field(enum fnt_dialect dialect, const char *f, size_t nf,
		      struct lat_fn_entry *e)
{
	if (nf < 4 || nf > 5)
		return 0;
	if (!irqs_char(f[0], e) || !resched_char(f[1], e) || !irq_ctx_char(f[2], e))
		return 0;
	if (!depth_char(f[3], &e->preempt_count))
		return 0;
	e->layout = LAT_FNL_4;
	if (nf == 5) {
		if (f[4] != '.' && !isxdigit((unsigned char)f[4]))
			return 0;
		if (dialect == FNT_RT) {
			/* the -RT tracer prints the whole preempt count in hex: "0d..10" */
			if (f[4] != '.' && f[3] != '.')
				e->preempt_count = (int16_t)(e->preempt_count * 16 +
					strtol((char[]){ f[4], 0 }, NULL, 16));
			else
				return 0;
		} else {
			depth_char(f[4], &e->migrate);
			e->layout = LAT_FNL_5;
		}
	}
	e->flags_known = 1;
	return 1;
}

static int scan_cpu_flags(enum fnt_dialect dialect, const char **pp, struct lat_fn_entry *e)
{
	const char *p = skip_ws(*pp), *f;
	size_t nf;
	long cpu;

	if (!isdigit((unsigned char)*p))
		return 0;
	cpu = strtol(p, (char **)&f, 10);
	if (cpu > 4096)
		return 0;
	nf = 0;
	while (f[nf] && !is_blank(f[nf]))
		nf++;
	if (nf == 0 && dialect == FNT_RT) {
		/* v1.1.3 special rows print the CPU alone: "0        2us : f <comm-pid> (0 1):" */
		e->cpu = (int32_t)cpu;
		*pp = f;
		return 1;
	}
	if (nf == 7 && dialect == FNT_FTRACE)
		return scan_flags_rt_lazy(f, e, cpu, pp);
	if (dialect == FNT_RT && f[0] == '-' && nf == 4)
		return scan_flags_v113(f, e, cpu, pp);
	if (!flag_field(dialect, f, nf, e))
		return 0;
	e->cpu = (int32_t)cpu;
	*pp = f + nf;
	return 1;
}

/*
 * A time with its unit: "12us", "12 us", "12ms", or a mangled micro sign (any
 * run of non-ASCII bytes, optionally followed by 's', means microseconds).
 */
static int scan_time(const char **pp, int64_t *ns)
{
	const char *p = skip_ws(*pp);
	int64_t whole = 0, frac = 0, fscale = 1, unit;
	int digits = 0;

	while (isdigit((unsigned char)*p)) {
		if (whole > INT64_MAX / 10000000)
			return 0;
		whole = whole * 10 + (*p++ - '0');
		digits++;
	}
	if (!digits)
		return 0;
	if (*p == '.') {
		p++;
		while (isdigit((unsigned char)*p)) {
			if (fscale < 1000000000) {
				frac = frac * 10 + (*p - '0');
				fscale *= 10;
			}
			p++;
		}
	}
	if (*p == ' ' && (p[1] == 'u' || p[1] == 'm' || (unsigned char)p[1] >= 0x80))
		p++;
	if (starts(p, "us")) {
		unit = LAT_NS_PER_US;
		p += 2;
	} else if (starts(p, "ms")) {
		unit = LAT_NS_PER_MS;
		p += 2;
	} else if ((unsigned char)*p >= 0x80) {
		while ((unsigned char)*p >= 0x80)
			p++;
		if (*p == 's')
			p++;
		unit = LAT_NS_PER_US;
	} else {
		return 0;
	}
	*ns = whole * unit + frac * unit / fscale;
	*pp = p;
	return 1;
}

static char *dup_range(const char *s, const char *e)
{
	while (e > s && is_blank(e[-1]))
		e--;
	return strndup(s, (size_t)(e - s));
}

/* "name+0x1e/0x140 <c01104fe>" -> "name"; "<756f6a6b>" stays as is. Ends at blank or @stop. */
static char *symbol_name(const char **pp, char stop)
{
	const char *p = skip_ws(*pp), *s = p, *end;

	while (*p && !is_blank(*p) && *p != stop)
		p++;
	end = p;
	if (*s != '<') {
		const char *plus = s;

		while (plus < end && !(plus[0] == '+' && plus[1] == '0' && plus[2] == 'x'))
			plus++;
		end = plus;
	}
	if (end == s)
		return NULL;
	/* a verbose symbol is followed by its address: " <c01104fe>" */
	if (*s != '<') {
		const char *q = skip_ws(p);

		if (q[0] == '<' && isxdigit((unsigned char)q[1])) {
			const char *r = q + 1;

			while (isxdigit((unsigned char)*r))
				r++;
			if (*r == '>')
				p = r + 1;
		}
	}
	*pp = p;
	return strndup(s, (size_t)(end - s));
}

/* True if @s ends (ignoring blanks) at @end with nothing but @tail. */
static int rest_is(const char *p, const char *tail)
{
	p = skip_ws(p);
	if (!starts(p, tail))
		return 0;
	return !*skip_ws(p + strlen(tail));
}

/* "0:120:R   + [003]   312:100:R kworker/3:1H": a wakeup or switch line. */
static int is_sched_payload(const char *p)
{
	p = skip_ws(p);
	if (!isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p++ != ':')
		return 0;
	p = skip_ws(p);
	if (!isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p++ != ':' || !isalpha((unsigned char)*p))
		return 0;
	return strstr(p, " + [") || strstr(p, " ==> [");
}

/* "sched_wakeup: comm=..." */
static int is_event_payload(const char *p)
{
	const char *q = skip_ws(p);

	if (!islower((unsigned char)*q))
		return 0;
	while (islower((unsigned char)*q) || isdigit((unsigned char)*q) || *q == '_')
		q++;
	return *q == ':' && (q[1] == ' ' || !q[1]);
}

static void entry_strings_free(struct lat_fn_entry *e)
{
	free(e->comm);
	free(e->function);
	free(e->parent);
	free(e->text);
	free(e->note);
	e->comm = e->function = e->parent = e->text = e->note = NULL;
}

/* The part after "time:" of a compact row, and the verbose one. */
static int parse_payload(const char *p, struct lat_fn_entry *e)
{
	const char *q;

	p = skip_ws(p);
	if (rest_is(p, "<stack trace>")) {
		e->kind = LAT_FN_STACK;
		return 1;
	}
	if (is_sched_payload(p)) {
		e->kind = LAT_FN_SCHED;
		e->text = dup_range(p, p + strlen(p));
		return e->text != NULL;
	}
	if (is_event_payload(p)) {
		q = strchr(p, ':');
		e->kind = LAT_FN_EVENT;
		e->function = strndup(p, (size_t)(q - p));
		e->text = dup_range(skip_ws(q + 1), q + strlen(q));
		return e->function && e->text;
	}
	e->function = symbol_name(&p, '(');
	if (!e->function)
		return 0;
	q = skip_ws(p);
	if (!*q) {
		e->kind = e->kind == LAT_FN_SPECIAL ? LAT_FN_SPECIAL : LAT_FN_CALL;
		return 1;
	}
	if (starts(q, "<-")) {
		q += 2;
		e->parent = symbol_name(&q, 0);
		return e->parent && !*skip_ws(q);
	}
	if (q[0] == '<' && q[1] != '-') {
		/* trace_special_pid: "<comm-pid> (v2 v3):" */
		const char *close = strchr(q, '>');

		while (close && close[1] == '>')
			close++;
		if (!close)
			return 0;
		e->kind = LAT_FN_SPECIAL_PID;
		e->text = dup_range(q, q + strlen(q));
		return e->text != NULL;
	}
	if (*q == '(') {
		const char *close = strrchr(q, ')');
		const char *inner = q + 1, *sp;

		if (!close || (*skip_ws(close + 1) && !rest_is(close + 1, ":")))
			return 0;
		/* "(v1 v2 v3)": hex numbers and blanks only, at least two of them */
		sp = inner;
		while (sp < close && (isxdigit((unsigned char)*sp) || is_blank(*sp)))
			sp++;
		if ((sp == close && memchr(inner, ' ', (size_t)(close - inner))) ||
		    e->kind == LAT_FN_SPECIAL) {
			/* "(v1 v2 v3)": trace_special values */
			e->kind = LAT_FN_SPECIAL;
			e->text = dup_range(q, close + 1);
			return e->text != NULL;
		}
		{
			const char *r = inner;

			e->parent = symbol_name(&r, ')');
			if (!e->parent)
				return 0;
			if (*skip_ws(r) != ')')
				return 0;
		}
		e->kind = LAT_FN_CALL;
		return 1;
	}
	return 0;
}

/* "0.001ms (+0.000ms):" of the RT verbose and cmdline rows. */
static int scan_ms_delay(const char **pp, struct lat_fn_entry *e)
{
	const char *p = *pp;

	if (!scan_time(&p, &e->time_ns))
		return 0;
	p = skip_ws(p);
	if (!starts(p, "(+"))
		return 0;
	p += 2;
	if (!scan_time(&p, &e->delay_ns) || *p != ')')
		return 0;
	*pp = p + 1;
	return 1;
}

static int parse_verbose(const char *p, struct lat_fn_entry *e)
{
	const char *s = skip_ws(p), *t;
	char *endp;
	long pid, cpu, flags;
	unsigned long pc, idx;
	unsigned long long tsc;

	t = s;
	while (*t && !is_blank(*t))
		t++;
	if (t == s || !*t)
		return 0;
	pid = strtol(t, &endp, 10);
	if (endp == t || !is_blank(*endp) || pid < 0 || pid > INT32_MAX)
		return 0;
	cpu = strtol(endp, &endp, 10);
	if (!is_blank(*endp) || cpu < 0 || cpu > 4096)
		return 0;
	flags = strtol(endp, &endp, 10);
	if (!is_blank(*endp) || flags < 0 || flags > 255)
		return 0;
	pc = strtoul(endp, &endp, 16);
	if (!is_blank(*endp))
		return 0;
	idx = strtoul(endp, &endp, 16);
	if (!is_blank(*endp) || idx > INT32_MAX)
		return 0;
	p = skip_ws(endp);
	if (*p != '[')
		return 0;
	tsc = strtoull(p + 1, &endp, 10);
	if (*endp != ']' || endp == p + 1)
		return 0;
	p = endp + 1;
	if (!scan_ms_delay(&p, e) || *p != ':')
		return 0;
	e->comm = strndup(s, (size_t)(t - s));
	if (!e->comm)
		return 0;
	e->pid = (int32_t)pid;
	e->cpu = (int32_t)cpu;
	e->flags = (uint8_t)flags;
	e->flags_known = 1;
	e->preempt_count = (int16_t)(pc & 0xff);
	if (e->index >= 0 && (unsigned long)e->index != idx)
		return 0;
	e->index = (int32_t)idx;
	e->tsc_cycles = tsc;
	e->has_tsc = 1;
	e->kind = LAT_FN_CALL;
	return parse_payload(p + 1, e);
}

static int parse_cmdline(const char *p, struct lat_fn_entry *e)
{
	const char *close;

	p = skip_ws(p);
	if (!starts(p, "[ =>") && !starts(p, "[=>"))
		return 0;
	close = strchr(p, ']');
	if (!close)
		return 0;
	e->kind = LAT_FN_CMDLINE;
	e->comm = dup_range(skip_ws(strchr(p, '>') + 1), close);
	if (!e->comm)
		return 0;
	p = close + 1;
	if (!scan_ms_delay(&p, e))
		return 0;
	return !*skip_ws(p);
}

/*
 * The v1.0.x / v1.1.1 preempt-count column "80010004": the raw preempt_count
 * (low byte the preempt depth, 0xff00 the softirq count, 0xff0000 the hardirq
 * count; the -RT patches set bit 31 when irqs were off).  "........" = not known.
 */
static int scan_preempt_word(const char *s, size_t n, struct lat_fn_entry *e)
{
	unsigned long v = 0;

	if (n != 8)
		return 0;
	if (!strncmp(s, "........", 8))
		return 1;
	for (size_t i = 0; i < n; i++) {
		if (!isxdigit((unsigned char)s[i]))
			return 0;
		v = v * 16 + (unsigned long)(isdigit((unsigned char)s[i]) ? s[i] - '0' :
			(tolower((unsigned char)s[i]) - 'a' + 10));
	}
	e->flags = 0;
	if (v & 0x80000000ul)
		e->flags |= LAT_FNF_IRQS_OFF;
	if (v & 0x00ff0000ul)
		e->flags |= LAT_FNF_HARDIRQ;
	if (v & 0x0000ff00ul)
		e->flags |= LAT_FNF_SOFTIRQ;
	e->preempt_count = (int16_t)(v & 0xff);
	e->flags_known = 1;
	e->layout = LAT_FNL_PREEMPT_WORD;
	return 1;
}

/* Payload of a v1.0.x row: "f (parent)", "(1) ((98))", "-> comm-pid [ a b ]: f", "f: [ a b c ]". */
static int parse_v10_payload(const char *p, struct lat_fn_entry *e)
{
	const char *colon;

	p = skip_ws(p);
	if (*p == '(' || starts(p, "->")) {
		e->kind = LAT_FN_SPECIAL;
		e->text = dup_range(p, p + strlen(p));
		return e->text != NULL;
	}
	colon = strchr(p, ':');
	if (colon && starts(skip_ws(colon + 1), "[") && !memchr(p, ' ', (size_t)(colon - p))) {
		e->kind = LAT_FN_SPECIAL;
		e->function = strndup(p, (size_t)(colon - p));
		e->text = dup_range(skip_ws(colon + 1), colon + strlen(colon));
		return e->function && e->text;
	}
	e->kind = LAT_FN_CALL;
	return parse_payload(p, e);
}

/*
 * The RT tracer's v1.0 - v1.1.1 rows (2004):
 *   " 0.000ms (+0.000ms): page_address (kmap_high)"              v1.0
 *   "00010001 0.002ms (+0.002ms): generic_redirect_hardirq (do_IRQ)"   v1.0.2 - v1.0.7
 *   "    5 80010004 0.000ms (+0.000ms): f (parent)"              pid column (-RT V0.7)
 *   "cpu_dela-8656  ........ 0.000ms (+0.000ms): (0): [ 0 0 0 ]"   v1.1.1
 * Everything before the "T.TTTms (+D.DDDms):" time is an optional task
 * (pid or comm-pid) and an optional preempt-count word.
 */
static int parse_v10(const char *p, struct lat_fn_entry *e)
{
	const char *s = skip_ws(p), *tm = NULL, *q, *w;

	e->flags_known = 0;
	e->preempt_count = -1;
	for (q = s; *q; q++) {
		const char *r = q;

		if (q != s && !is_blank(q[-1]))
			continue;
		while (isdigit((unsigned char)*r))
			r++;
		if (r > q && *r == '.' && isdigit((unsigned char)r[1])) {
			const char *u = r + 1;

			while (isdigit((unsigned char)*u))
				u++;
			if (starts(u, "ms") && starts(skip_ws(u + 2), "(+")) {
				tm = q;
				break;
			}
		}
	}
	if (!tm)
		return 0;
	/* the preempt word: the last token before the time, 8 characters */
	w = tm;
	while (w > s && is_blank(w[-1]))
		w--;
	q = w;
	while (q > s && !is_blank(q[-1]))
		q--;
	if (w > s && (size_t)(w - q) == 8 && scan_preempt_word(q, 8, e)) {
		w = q;
		while (w > s && is_blank(w[-1]))
			w--;
	} else if (w > s && (size_t)(w - q) == 8) {
		return 0;
	}
	if (w > s) {
		char *task = strndup(s, (size_t)(w - s)), *end;
		const char *tp = task;
		long pid;

		if (!task)
			return 0;
		pid = strtol(task, &end, 10);
		if (end != task && !*end && pid >= 0 && pid <= INT32_MAX) {
			e->pid = (int32_t)pid;
		} else if (!scan_comm_pid(&tp, &e->comm, &e->pid) || *skip_ws(tp)) {
			free(task);
			return 0;
		}
		free(task);
	}
	q = tm;
	if (!scan_ms_delay(&q, e) || *q != ':')
		return 0;
	return parse_v10_payload(q + 1, e);
}

/* Up to the next '|' of a graph row: the field [*pp, bar), *pp moved past the bar. */
static int graph_field(const char **pp, const char **s, size_t *n)
{
	const char *p = *pp, *bar = strchr(p, '|');

	if (!bar)
		return 0;
	p = skip_ws(p);
	*s = p;
	*n = (size_t)(bar - p);
	while (*n && is_blank(p[*n - 1]))
		(*n)--;
	*pp = bar + 1;
	return 1;
}

/* The DURATION field: blank, or "[+!#*@$ ]N.NNN us". */
static int graph_duration(const char *s, size_t n, struct lat_fn_entry *e)
{
	char buf[48];
	const char *p = buf;

	e->dur_ns = -1;
	if (!n)
		return 1;
	if (n >= sizeof(buf))
		return 0;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (strchr("+!#*@$", *p)) {
		e->mark = *p;
		p++;
	}
	if (!scan_time(&p, &e->dur_ns) || *skip_ws(p))
		return 0;
	return 1;
}

/* "f();", "f() {", "}" or "} (comment f)" after the indentation (two blanks per level). */
static int graph_call(const char *p, struct lat_fn_entry *e)
{
	const char *s = p, *end;
	size_t indent;

	while (*s == ' ')
		s++;
	indent = (size_t)(s - p);
	e->depth = (int16_t)(indent >= 2 ? (indent - 2) / 2 : 0);
	end = s + strlen(s);
	while (end > s && is_blank(end[-1]))
		end--;
	if (*s == '}') {
		const char *c = skip_ws(s + 1);

		e->graph = LAT_FNG_CLOSE;
		if (starts(c, "/*")) {
			const char *q = skip_ws(c + 2), *close = strstr(q, "*/");

			if (!close)
				return 0;
			e->function = dup_range(q, close);
			return e->function != NULL;
		}
		return c == end;
	}
	if (end - s > 3 && !strncmp(end - 3, "();", 3)) {
		e->graph = LAT_FNG_LEAF;
		e->function = strndup(s, (size_t)(end - 3 - s));
	} else if (end - s > 4 && !strncmp(end - 4, "() {", 4)) {
		e->graph = LAT_FNG_OPEN;
		e->function = strndup(s, (size_t)(end - 4 - s));
	} else {
		return 0;
	}
	return e->function && !strpbrk(e->function, " \t(");
}

/*
 * A display-graph row of a latency tracer (options/display-graph, 4.x+):
 *   "  0 us |   0)   bash-1507    |  d..1 |   0.378 us    |    do_raw_spin_trylock();"
 * REL TIME (us since the first entry), CPU, task, flags, DURATION, the call.
 */
static int parse_graph(enum fnt_dialect dialect, const char *p, struct lat_fn_entry *e)
{
	const char *s = skip_ws(p), *f;
	char *endp;
	size_t n;
	long long rel;
	long cpu;

	rel = strtoll(s, &endp, 10);
	if (endp == s || rel < 0 || rel > INT64_MAX / LAT_NS_PER_US || !starts(endp, " us"))
		return 0;
	s = skip_ws(endp + 3);
	if (*s++ != '|')
		return 0;
	s = skip_ws(s);
	cpu = strtol(s, &endp, 10);
	if (endp == s || *endp != ')' || cpu < 0 || cpu > 4096)
		return 0;
	s = endp + 1;
	if (!graph_field(&s, &f, &n) || !n)
		return 0;
	{
		char task[64];
		const char *tp = task;

		if (n >= sizeof(task))
			return 0;
		memcpy(task, f, n);
		task[n] = '\0';
		if (!scan_comm_pid(&tp, &e->comm, &e->pid) || *skip_ws(tp))
			return 0;
	}
	if (!graph_field(&s, &f, &n) || !flag_field(dialect, f, n, e))
		return 0;
	if (!graph_field(&s, &f, &n) || !graph_duration(f, n, e))
		return 0;
	e->time_ns = rel * LAT_NS_PER_US;
	e->cpu = (int32_t)cpu;
	e->kind = LAT_FN_CALL;
	return graph_call(s, e);
}

static int parse_compact(enum fnt_dialect dialect, const char *p, struct lat_fn_entry *e)
{
	if (!scan_comm_pid(&p, &e->comm, &e->pid))
		return 0;
	if (!scan_cpu_flags(dialect, &p, e) || !scan_time(&p, &e->time_ns))
		return 0;
	/* the delay marker sits right after the unit: "0us+:", "4us : ", "1us <" */
	e->mark = ' ';
	if (*p && strchr("+!#*@$", *p))
		e->mark = *p++;
	p = skip_ws(p);
	if (*p == ':')
		return parse_payload(p + 1, e);
	if (*p == '<' && p[1] == ' ') {
		e->kind = LAT_FN_SYSRET;
		e->text = dup_range(skip_ws(p + 1), p + strlen(p));
		return e->text && e->text[0] == '(';
	}
	if (*p == '>' && p[1] == ' ') {
		e->kind = LAT_FN_SYSCALL;
		p = skip_ws(p + 1);
		e->function = symbol_name(&p, '(');
		e->text = dup_range(skip_ws(p), p + strlen(p));
		return e->function && e->text;
	}
	return 0;
}

static int parse_row_as_is(enum fnt_dialect dialect, const char *s, struct lat_fn_entry *e)
{
	const char *p = skip_ws(s);
	int ok;

	e->mark = 0;
	e->kind = LAT_FN_CALL;
	if (dialect == FNT_RT && p[0] == '(' && p[1] == 'T' && isdigit((unsigned char)p[2])) {
		char *endp;
		long type = strtol(p + 2, &endp, 10), idx;

		if (endp[0] != '/' || endp[1] != '#')
			return 0;
		idx = strtol(endp + 2, &endp, 10);
		if (*endp != ')' || idx < 0 || idx > INT32_MAX)
			return 0;
		e->type = (int16_t)(type > 99 ? 99 : type);
		e->index = (int32_t)idx;
		p = endp + 1;
		switch (type) {
		case 1:
			ok = parse_verbose(p, e);
			if (!ok) {
				entry_strings_free(e);
				ok = parse_compact(dialect, p, e);
			}
			break;
		case 2:
			e->kind = LAT_FN_SPECIAL;
			ok = parse_compact(dialect, p, e);
			if (ok && e->kind != LAT_FN_SPECIAL)
				e->kind = LAT_FN_SPECIAL;
			break;
		case 3:
		case 5:
		case 6:
			ok = parse_compact(dialect, p, e);
			break;
		case 4:
			ok = parse_cmdline(p, e);
			break;
		default:
			return -1;
		}
	} else if (dialect == FNT_RT && starts(p, "[ =>")) {
		ok = parse_cmdline(p, e);
	} else {
		ok = parse_compact(dialect, p, e);
		if (!ok && dialect == FNT_RT) {
			entry_strings_free(e);
			ok = parse_v10(p, e);
		} else if (!ok && isdigit((unsigned char)*p) && strstr(p, " us |")) {
			entry_strings_free(e);
			e->mark = 0;
			ok = parse_graph(dialect, p, e);
		}
	}
	if (!ok)
		entry_strings_free(e);
	return ok;
}

/*
 * Where a note typed after a row may start (docs/formats.md): an arrow or a
 * comment mark after a blank ("  <== hmmm", "<-- here", "// ...", a C comment's
 * opening, "### ..."), or, failing that, a run of two or more blanks followed by text
 * that holds a letter and does not start with a digit or with trace syntax
 * ('<', '(', '[', '+', '=').  Candidates are tried left to right from @from;
 * returns the next one at or after @from, or NULL.
 */
static const char *note_start(const char *s, const char *from, int loose)
{
	for (const char *p = from; *p; p++) {
		const char *q;
		int letter = 0;

		if (p == s || !is_blank(p[-1]) || is_blank(*p))
			continue;
		if (!loose) {
			if (starts(p, "<=") || starts(p, "<--") || starts(p, "//") ||
			    starts(p, "/*") || starts(p, "###") || starts(p, "!!!"))
				return p;
			continue;
		}
		if (p - s < 2 || !is_blank(p[-2]) || isdigit((unsigned char)*p) ||
		    strchr("<([+=", *p))
			continue;
		for (q = p; *q && !letter; q++)
			letter = isalpha((unsigned char)*q);
		if (letter)
			return p;
	}
	return NULL;
}

/*
 * Where a compact entry starts: "comm-pid CPU+flags time" and a marker or
 * ':' / '<' / '>' after it.  A second one inside a line is a row a mailer
 * joined to the first (Outlook's "remove extra line breaks"), not a note.
 */
static int row_start(enum fnt_dialect dialect, const char *p)
{
	struct lat_fn_entry e;

	memset(&e, 0, sizeof(e));
	if (!scan_comm_pid(&p, NULL, &e.pid) || !scan_cpu_flags(dialect, &p, &e) ||
	    !scan_time(&p, &e.time_ns))
		return 0;
	if (*p && strchr("+!#*@$", *p))
		p++;
	p = skip_ws(p);
	return *p == ':' || ((*p == '<' || *p == '>') && p[1] == ' ');
}

/* @s parsed without the note at @n: 1 and e->note set, 0 (nothing kept), or -1 ENOMEM. */
static int parse_noted(enum fnt_dialect dialect, const char *s, const char *n,
		       struct lat_fn_entry *e)
{
	char *head;
	int ok;

	if (row_start(dialect, n))
		return 0;	/* a joined row, not a note */
	head = strndup(s, (size_t)(n - s));
	if (!head)
		return -1;
	ok = parse_row_as_is(dialect, head, e);
	free(head);
	if (ok != 1)
		return 0;
	e->note = dup_range(n, n + strlen(n));
	if (!e->note) {
		entry_strings_free(e);
		return -1;
	}
	return 1;
}

/*
 * A row, or a row with a note the poster typed after it ("... <-f+0x1/0x2  <== hmmm"):
 * the note is split off only when the row does not parse as it is and the part
 * before the note does, so no row that reads today changes.
 */
int fnt_parse_row(enum fnt_dialect dialect, const char *s, struct lat_fn_entry *e)
{
	int ok = parse_row_as_is(dialect, s, e);

	if (ok != 0)
		return ok;
	for (int loose = 0; loose < 2; loose++) {
		for (const char *n = note_start(s, s, loose); n; n = note_start(s, n + 1, loose)) {
			int r = parse_noted(dialect, s, n, e);

			if (r)
				return r < 0 ? 0 : 1;
		}
	}
	return 0;
}

/* Row shapes, for the segmenter: cheap and without allocation. */
static int row_shape(enum fnt_dialect dialect, const char *p)
{
	struct lat_fn_entry e;

	p = skip_ws(p);
	if (dialect == FNT_RT) {
		if (p[0] == '(' && p[1] == 'T' && isdigit((unsigned char)p[2]) && strstr(p, "/#"))
			return 1;
		if (starts(p, "[ =>"))
			return 1;
	}
	memset(&e, 0, sizeof(e));
	if (dialect == FNT_RT && strstr(p, "ms (+")) {
		int ok = parse_v10(p, &e);

		entry_strings_free(&e);
		if (!ok) {
			/* a v1.0 row with a note after it */
			memset(&e, 0, sizeof(e));
			ok = fnt_parse_row(dialect, p, &e) == 1;
			entry_strings_free(&e);
		}
		if (ok)
			return 1;
		memset(&e, 0, sizeof(e));
	}
	if (dialect == FNT_FTRACE && isdigit((unsigned char)*p) && strstr(p, " us |")) {
		int ok = parse_graph(dialect, p, &e);

		entry_strings_free(&e);
		if (ok)
			return 1;
		memset(&e, 0, sizeof(e));
	}
	if (!scan_comm_pid(&p, NULL, &e.pid) || !scan_cpu_flags(dialect, &p, &e) ||
	    !scan_time(&p, &e.time_ns))
		return 0;
	if (dialect == FNT_RT && strstr(p, " <-"))
		return 0;	/* "<-parent" is ftrace's notation */
	return 1;
}

static int is_legend(const char *p)
{
	return strstr(p, "=> CPU#") || strstr(p, "=> irqs-off") || strstr(p, "=> need-resched") ||
	       strstr(p, "=> hardirq/softirq") || strstr(p, "=> preempt-depth") ||
	       strstr(p, "=> migrate-disable") || strstr(p, "=> preempt-lazy-depth") ||
	       (strstr(p, "delay") && strstr(p, "|")) ||
	       (strstr(p, "cmd") && strstr(p, "pid")) || starts(p, "\\") || starts(p, "|") ||
	       starts(p, "---") || starts(p, "/") || starts(p, "_") || starts(p, "vim:ft=help") ||
	       starts(p, "=======>") || starts(p, "========>");
}

/*
 * A latency dump pasted from below its "# latency:" line: "#  => started at:"
 * or the column legend "#  cmd     pid     ||||| time  |   caller" is the
 * first line of it left, and no other format prints either (an irqsoff
 * excerpt in a patch, LKML, 19 Mar 2025, samples/ftrace-latency/).
 */
static int is_excerpt_head(const char *p, int hashed)
{
	return hashed && (starts(p, "=> started at:") ||
			  (starts(p, "cmd") && strstr(p, "pid") && strstr(p, "time") &&
			   strstr(p, "caller")));
}

/* Classifies a line held in a NUL-terminated buffer. */
static enum lat_line_kind classify(enum fnt_dialect dialect, const char *buf)
{
	int hashed;
	const char *p = strip_hash(buf, &hashed);

	if (dialect == FNT_RT && hashed)
		return LAT_LINE_NO;
	if (starts(p, "tracer:"))
		return dialect == FNT_FTRACE ? LAT_LINE_HEAD : LAT_LINE_NO;
	if (dialect == FNT_FTRACE && is_excerpt_head(p, hashed))
		return LAT_LINE_HEAD;
	if (find_title(p)) {
		int rt = is_rt_title(p);

		if (dialect == FNT_RT)
			return rt ? LAT_LINE_HEAD : LAT_LINE_NO;
		return rt ? LAT_LINE_NO : LAT_LINE_HEAD;
	}
	if (starts(p, "latency:") || starts(p, "| task:") || starts(p, "=> started at:") ||
	    (dialect == FNT_RT && (starts(p, "process:") || starts(p, "nice:"))) ||
	    starts(p, "=> ended at:") || is_legend(p) || is_elision(p))
		return LAT_LINE_SOFT;
	if (hashed)
		return LAT_LINE_SOFT;	/* comments and the ftrace legend */
	if (dialect == FNT_FTRACE && starts(p, "=> "))
		return LAT_LINE_ROW;	/* a stack frame after "<stack trace>" */
	return row_shape(dialect, p) ? LAT_LINE_ROW : LAT_LINE_NO;
}

/* How far a header without entries may reach: title, rule, latency, task, started/ended. */
#define HEADER_ONLY_LINES 24

/*
 * A dump header the poster pasted without its entries ("full trace is posted
 * on: http://..."): from the title at @first over header, legend and blank
 * lines, up to the first line that is none of them (or a second title).  It is
 * a block only when it has a "latency:" line; returns its end, else 0.
 */
size_t fnt_header_block(enum fnt_dialect dialect, const struct lat_text *t, size_t first)
{
	size_t end = 0;
	int latency = 0;

	for (size_t j = first; j < t->nlines && j < first + HEADER_ONLY_LINES; j++) {
		const struct lat_line *l = &t->lines[j];
		enum lat_line_kind k;
		char buf[512];
		const char *p;
		size_t n;
		int hashed;

		if (l->binary)
			break;
		if (lat_line_blank(l))
			continue;
		n = l->len < sizeof(buf) - 1 ? l->len : sizeof(buf) - 1;
		memcpy(buf, l->s, n);
		buf[n] = '\0';
		lat_fix_micro(buf);
		k = classify(dialect, buf);
		p = strip_hash(buf, &hashed);
		/* a second title ends it; the started-at and legend lines are its own */
		if (k == LAT_LINE_NO || k == LAT_LINE_ROW ||
		    (k == LAT_LINE_HEAD && latency && !is_excerpt_head(p, hashed)))
			break;
		if (starts(p, "latency:"))
			latency = 1;
		end = j + 1;
	}
	return latency ? end : 0;
}

enum lat_line_kind fnt_line_kind(enum fnt_dialect dialect, const char *s, size_t len)
{
	char buf[512];
	size_t n = len < sizeof(buf) - 1 ? len : sizeof(buf) - 1;

	memcpy(buf, s, n);
	buf[n] = '\0';
	lat_fix_micro(buf);
	return classify(dialect, buf);
}

/* ---- header ---- */

static char *first_word_sym(const char *p)
{
	const char *q = skip_ws(p);

	return symbol_name(&q, 0);
}

static void parse_latency_line(struct lat_fntrace *t, const char *p)
{
	char *endp;
	const char *q;
	long long v;

	p = skip_ws(p + strlen("latency:"));
	v = strtoll(p, &endp, 10);
	if (endp != p && v >= 0 && v < INT64_MAX / LAT_NS_PER_US)
		t->latency_ns = v * LAT_NS_PER_US;	/* the tracer always prints microseconds */
	q = strchr(p, '#');
	if (q && isdigit((unsigned char)q[1])) {
		long long a = strtoll(q + 1, &endp, 10);

		if (*endp == '/') {
			t->entries_shown = a;
			t->entries_total = strtoll(endp + 1, &endp, 10);
		}
	}
	q = strstr(p, "entries:");
	if (q) {
		/* v1.0.x - v1.1.1: "entries: 22 (22)", "entries: 1(1)" */
		long long a = strtoll(q + 8, &endp, 10);
		const char *o = skip_ws(endp);

		if (endp != q + 8 && *o == '(') {
			t->entries_shown = a;
			t->entries_total = strtoll(o + 1, &endp, 10);
		}
	}
	q = strstr(p, "#CPUS:");
	if (q)
		t->nr_cpus = (int32_t)strtol(q + 6, NULL, 10);
	q = strstr(p, "CPU#");
	if (q)
		t->cpu = (int32_t)strtol(q + 4, NULL, 10);
	q = strstr(p, "(M:");
	if (q) {
		const char *e = q + 3;

		while (*e && !is_blank(*e) && *e != ',' && *e != ')')
			e++;
		free(t->model);
		t->model = strndup(q + 3, (size_t)(e - q - 3));
	}
	q = strstr(p, "#P:");
	if (q)
		t->nr_cpus = (int32_t)strtol(q + 3, NULL, 10);
}

static int32_t field_after(const char *p, const char *key)
{
	const char *q = strstr(p, key);

	return q ? (int32_t)strtol(q + strlen(key), NULL, 10) : LAT_FN_NONE;
}

/*
 * "comm-pid" (v1.1.x, ftrace) or "comm/pid" (v1.0.x: "IRQ 8/13", "ksoftirqd/0/4":
 * the pid follows the last separator) ending at @end.  The idle task has no
 * comm there ("| task: -0 (uid:0 ..."): pid 0, named "<idle>" as the entries
 * name it.
 */
static void task_comm_pid(struct lat_fntrace *t, const char *s, const char *end, char sep)
{
	const char *d = end;
	int32_t pid;

	while (d > s && d[-1] != sep)
		d--;
	if (d <= s || !isdigit((unsigned char)*d))
		return;
	pid = (int32_t)strtol(d, NULL, 10);
	if (d == s + 1 && pid != 0)
		return;		/* "-5": a comm is missing, not the idle task */
	free(t->task_comm);
	t->task_comm = d == s + 1 ? strdup("<idle>") : strndup(s, (size_t)(d - 1 - s));
	t->task_pid = pid;
}

static void parse_task_line(struct lat_fntrace *t, const char *p)
{
	const char *s = skip_ws(p + strlen("| task:")), *paren = strstr(s, " ("), *comma;

	comma = strstr(s, ", uid:");
	if (!paren && comma) {
		task_comm_pid(t, s, comma, '/');
		paren = comma;
	} else {
		if (!paren)
			paren = s + strlen(s);
		task_comm_pid(t, s, paren, '-');
	}
	t->task_uid = field_after(paren, "uid:");
	t->task_nice = field_after(paren, "nice:");
	t->task_policy = field_after(paren, "policy:");
	t->task_rt_prio = field_after(paren, "rt_prio:");
}

/* v1.0: "process: default.hotplug/1470, uid: 0" and "nice: -10, policy: 0, rt_priority: 0" */
static void parse_process_lines(struct lat_fntrace *t, const char *p)
{
	if (starts(p, "process:")) {
		const char *s = skip_ws(p + strlen("process:")), *comma = strchr(s, ',');

		task_comm_pid(t, s, comma ? comma : s + strlen(s), '/');
		t->task_uid = field_after(s, "uid:");
		return;
	}
	t->task_nice = field_after(p, "nice:");
	t->task_policy = field_after(p, "policy:");
	t->task_rt_prio = field_after(p, "rt_priority:");
}

static void parse_title(struct lat_fntrace *t, const char *p, uint32_t line)
{
	const char *m = find_title(p), *v, *on;

	if (!t->tracer)
		t->tracer = strndup(p, (size_t)(m - p));
	v = m + strlen(" latency trace ");
	on = strstr(v, " on ");
	free(t->version);
	t->version = on ? strndup(v, (size_t)(on - v)) : dup_range(v, v + strlen(v));
	if (on) {
		free(t->kernel);
		t->kernel = dup_range(skip_ws(on + 4), on + strlen(on));
	}
	t->header_line = line;
}

/* Returns 1 if @p was a header line of the dump. */
static int header_line(struct lat_fntrace *t, const char *buf, uint32_t line)
{
	int hashed;
	const char *p = strip_hash(buf, &hashed);

	if (starts(p, "tracer:")) {
		free(t->tracer);
		t->tracer = dup_range(skip_ws(p + 7), p + strlen(p));
		return 1;
	}
	if (find_title(p)) {
		parse_title(t, p, line);
		return 1;
	}
	if (starts(p, "latency:")) {
		parse_latency_line(t, p);
		t->latency_line = line;
		return 1;
	}
	if (starts(p, "| task:")) {
		parse_task_line(t, p);
		t->task_line = line;
		return 1;
	}
	if (!hashed && (starts(p, "process:") || starts(p, "nice:")) && t->header_line) {
		parse_process_lines(t, p);
		if (starts(p, "process:"))
			t->task_line = line;
		return 1;
	}
	if (starts(p, "=> started at:")) {
		free(t->started_at);
		t->started_at = first_word_sym(p + strlen("=> started at:"));
		return 1;
	}
	if (starts(p, "=> ended at:")) {
		free(t->ended_at);
		t->ended_at = first_word_sym(p + strlen("=> ended at:"));
		return 1;
	}
	return 0;
}

/* ---- the block ---- */

struct line_buf {
	char *s;
	size_t cap;
};

static int copy_line(struct line_buf *b, const struct lat_line *l, const struct lat_line *l2)
{
	size_t need = (size_t)l->len + (l2 ? l2->len + 1u : 0u) + 1;

	if (need > b->cap) {
		char *n = realloc(b->s, need);

		if (!n)
			return -LAT_ENOMEM;
		b->s = n;
		b->cap = need;
	}
	memcpy(b->s, l->s, l->len);
	if (l2) {
		const char *s2 = skip_ws(l2->s);
		size_t n2 = l2->len - (size_t)(s2 - l2->s);

		b->s[l->len] = ' ';
		memcpy(b->s + l->len + 1, s2, n2);
		b->s[l->len + 1 + n2] = '\0';
	} else {
		b->s[l->len] = '\0';
	}
	for (char *c = b->s; *c; c++)
		if (*c == '\t')
			*c = ' ';
	lat_fix_micro(b->s);
	return 0;
}

/* A line that is only a call's parent: "(finish_task_switch)" or "<-irq_exit". */
static int is_parent_only(const char *p)
{
	size_t n;

	p = skip_ws(p);
	n = strlen(p);
	while (n && is_blank(p[n - 1]))
		n--;
	if (starts(p, "<-"))
		return n > 2 && !memchr(p, ' ', n);
	return n > 2 && p[0] == '(' && p[n - 1] == ')' && !memchr(p, ' ', n);
}

static int add_stack_frame(struct lat_fntrace *t, const char *p)
{
	char *f;

	p = skip_ws(p);
	if (starts(p, "=>"))
		p = skip_ws(p + 2);
	f = dup_range(p, p + strlen(p));
	if (!f || lat_grow(&t->stack, &t->stackcap, t->nstack + 1, sizeof(*t->stack))) {
		free(f);
		return -LAT_ENOMEM;
	}
	t->stack[t->nstack++] = f;
	return 0;
}

/*
 * Row @i of @t (its text in @lb) into @e, *@r the parse's result (1 a row, 0 not,
 * <0 an unknown type).  A row the mailer wrapped is read joined with the next line
 * (*@joined 1) when that line is foreign and the join parses; the block's last row
 * may have its parent on the line after the block ("(finish_task_switch)"): joined
 * when it is only that.  Returns 0 or -LAT_ENOMEM.
 */
static int read_row(enum fnt_dialect dialect, const struct lat_text *t, size_t i, size_t end,
		    struct line_buf *lb, struct line_buf *lb2, struct lat_fn_entry *e, int *r,
		    int *joined)
{
	const struct lat_line *l = &t->lines[i], *nx = &t->lines[i + 1];
	int ret;

	*joined = 0;
	*r = 0;
	if (i + 1 < t->nlines && i + 1 <= end && !lat_line_blank(nx) && !nx->binary) {
		if ((ret = copy_line(lb2, nx, NULL)) < 0)
			return ret;
		if (classify(dialect, lb2->s) == LAT_LINE_NO && !is_elision(lb2->s) &&
		    (i + 1 < end || is_parent_only(lb2->s))) {
			if ((ret = copy_line(lb2, l, nx)) < 0)
				return ret;
			*r = fnt_parse_row(dialect, lb2->s, e);
			*joined = *r == 1;
		}
	}
	if (!*joined)
		*r = fnt_parse_row(dialect, lb->s, e);
	return 0;
}

/* Row @e of line @l taken: where it was, what came before it, what it tells of the trace. */
static void note_row(struct lat_fntrace *ft, struct lat_fn_entry *e, const struct lat_line *l,
		     int gap, int joined)
{
	e->line = l->lineno;
	e->gap_before = (uint8_t)gap;
	e->joined = (uint8_t)joined;
	if (l->quote)
		ft->quoted_lines++;
	if (e->has_tsc)
		ft->verbose = 1;
	if (!ft->layout && e->layout)
		ft->layout = (enum lat_fn_layout)e->layout;
	if (e->graph)
		ft->graph = 1;
	if (joined)
		ft->joined_lines++;
}

#define JOINED_MAX 8

/* The word at @p is "comm-pid" by itself (a cut never makes a comm with blanks). */
static int one_token_pid(const char *p)
{
	const char *e = p, *q;

	while (*e && !is_blank(*e))
		e++;
	q = e;
	while (q > p && isdigit((unsigned char)q[-1]))
		q--;
	return q < e && q > p + 1 && q[-1] == '-';
}

/*
 * A line that holds several entries a mailer joined (Outlook's "remove extra
 * line breaks", or a paste that lost its newlines): cut before each blank-
 * preceded "comm-pid CPU+flags time :" after the first, and kept only when
 * every piece reads as an entry on its own (at most JOINED_MAX).  Returns the
 * number of entries added to @ft (0 when the line is not that), <0 ENOMEM.
 */
static int joined_rows(enum fnt_dialect dialect, struct lat_fntrace *ft, char *s,
		       const struct lat_line *l, int gap)
{
	char *cut[JOINED_MAX];
	size_t ncut = 0, added = 0;

	for (char *p = (char *)skip_ws(s) + 1; *p && ncut < JOINED_MAX - 1; p++)
		if (is_blank(p[-1]) && !is_blank(*p) && one_token_pid(p) &&
		    row_start(dialect, p))
			cut[ncut++] = p;
	if (!ncut)
		return 0;
	for (size_t k = 0; k < ncut; k++)
		cut[k][-1] = '\0';	/* the blank before each piece */
	for (size_t k = 0; k <= ncut; k++) {
		struct lat_fn_entry probe;
		int r;

		memset(&probe, 0, sizeof(probe));
		probe.index = -1;
		r = fnt_parse_row(dialect, k ? cut[k - 1] : s, &probe);
		entry_strings_free(&probe);
		if (r != 1)
			return 0;
	}
	for (size_t k = 0; k <= ncut; k++) {
		struct lat_fn_entry *e = lat_fntrace_add(ft);

		if (!e)
			return -LAT_ENOMEM;
		if (fnt_parse_row(dialect, k ? cut[k - 1] : s, e) != 1) {
			ft->n--;
			return -LAT_ENOMEM;	/* it parsed a moment ago: only memory fails */
		}
		note_row(ft, e, l, k ? 0 : gap, 0);
		added++;
	}
	ft->split_lines++;
	return (int)added;
}

/* "wakeup_rt latency trace v1.1.5 on 2.6.26-rc8": the block's title from its header. */
static void title_block(struct lat_block *b, const struct lat_fntrace *ft)
{
	if (ft->tracer && !b->title &&
	    asprintf(&b->title, "%s latency trace %s%s%s", ft->tracer,
		     ft->version ? ft->version : "(version unknown)", ft->kernel ? " on " : "",
		     ft->kernel ? ft->kernel : "") < 0)
		b->title = NULL;
}

int fnt_parse_block(enum fnt_dialect dialect, const struct lat_text *t, size_t first,
			size_t end, struct lat_block *b, struct lat_diag *d)
{
	struct lat_fntrace *ft = lat_fntrace_new();
	struct line_buf lb = { 0 }, lb2 = { 0 };
	int gap = 0, ret = 0, in_stack = 0;

	if (!ft)
		return -LAT_ENOMEM;
	b->schema = LAT_SCHEMA_FNTRACE;
	b->fntrace = ft;
	for (size_t i = first; i < end; i++) {
		const struct lat_line *l = &t->lines[i];
		enum lat_line_kind k;
		struct lat_fn_entry *e;
		int r, joined;

		if (lat_line_blank(l))
			continue;
		if (l->binary) {
			b->skipped_lines++;
			lat_diag_at(d, l->lineno, "expected %s, got binary data", ROW_EXPECTED);
			continue;
		}
		if ((ret = copy_line(&lb, l, NULL)) < 0)
			goto out;
		if (header_line(ft, lb.s, l->lineno))
			continue;
		if (is_elision(lb.s)) {
			ft->elisions++;
			gap = 1;
			continue;
		}
		k = classify(dialect, lb.s);
		if (k == LAT_LINE_SOFT || k == LAT_LINE_HEAD)
			continue;
		if (dialect == FNT_FTRACE && in_stack && starts(skip_ws(lb.s), "=> ")) {
			if ((ret = add_stack_frame(ft, lb.s)) < 0)
				goto out;
			continue;
		}
		if (k != LAT_LINE_ROW) {
			b->skipped_lines++;
			lat_diag_at(d, l->lineno, "expected %s", ROW_EXPECTED);
			continue;
		}
		e = lat_fntrace_add(ft);
		if (!e) {
			ret = -LAT_ENOMEM;
			goto out;
		}
		if ((ret = read_row(dialect, t, i, end, &lb, &lb2, e, &r, &joined)) < 0)
			goto out;
		if (r != 1) {
			int nj;

			ft->n--;
			if (r < 0) {
				ft->unknown_types++;
				continue;
			}
			if ((ret = copy_line(&lb, l, NULL)) < 0)
				goto out;
			nj = joined_rows(dialect, ft, lb.s, l, gap);
			if (nj < 0) {
				ret = nj;
				goto out;
			}
			if (nj > 0) {
				gap = 0;
				in_stack = ft->e[ft->n - 1].kind == LAT_FN_STACK;
				continue;
			}
			b->skipped_lines++;
			lat_diag_at(d, l->lineno, "expected %s", ROW_EXPECTED);
			continue;
		}
		note_row(ft, e, l, gap, joined);
		gap = 0;
		in_stack = e->kind == LAT_FN_STACK;
		i += joined;
	}
	if (!ft->n && ft->latency_ns < 0)
		ret = -LAT_EEMPTY;
	title_block(b, ft);
out:
	free(lb.s);
	free(lb2.s);
	return ret;
}
