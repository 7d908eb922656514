// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One line of the kernel's timerlat, osnoise or hwlat tracer output.  After
 * the usual "<comm>-<pid> [cpu] flags ts: " head (ft_parse_head()) the
 * tracers print (kernel/trace/trace_output.c, include/trace/events/osnoise.h):
 *
 *   timerlat  "#%-5u context %6s timer_latency %9llu ns"
 *   osnoise   "%8llu %10llu %3llu.%05llu %7llu %6llu %6llu %6llu %6llu %6u"
 *             runtime us, noise us, % CPU available, max single noise us,
 *             HW, NMI, IRQ, softirq, thread counts
 *   hwlat     "#%-5u inner/outer(us): %4llu/%-5llu ts:%lld.%09ld" then
 *             " count:%d" (5.7+), " nmi-total:%llu", " nmi-count:%u" (NMIs only)
 *   events    "irq_noise: %s:%d start %llu.%09u duration %llu ns" (softirq_noise,
 *             thread_noise: "comm:pid"; nmi_noise without the name),
 *             "sample_threshold: start ... duration N ns interference N"
 */
#include <string.h>

#include "latscope/scan.h"
#include "ftrace_text.h"
#include "ktracer.h"

static const char EXP_TIMERLAT[] =
	"a timerlat sample \"#N context irq|thread|user-ret timer_latency N ns\"";
static const char EXP_OSNOISE[] =
	"an osnoise period row \"RUNTIME NOISE %AVAIL MAX-SINGLE HW NMI IRQ SIRQ THREAD\"";
static const char EXP_HWLAT[] =
	"a hwlat row \"#N inner/outer(us): I/O ts:S.NS [count:N] [nmi-total:N nmi-count:N]\"";
static const char EXP_NOISE[] = "an osnoise event \"NAME:ID start S.NS duration N ns\"";
static const char EXP_THRESHOLD[] =
	"\"sample_threshold: start S.NS duration N ns|us interference N\"";

static const char *const noise_names[] = { "irq_noise", "softirq_noise", "nmi_noise",
					   "thread_noise" };

const char *kt_noise_name(int type)
{
	if (type < 0 || type >= (int)LAT_ARRAY_SIZE(noise_names))
		return "sample_threshold";
	return noise_names[type];
}

static int bad(struct kt_rec *r, const char *expected)
{
	r->kind = KT_BAD;
	r->expected = expected;
	return KT_BAD;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* "# tracer: timerlat" */
static int title(const char *s, size_t len, struct kt_rec *r)
{
	static const char *const names[] = { "timerlat", "osnoise", "hwlat" };
	struct lat_scan sc;
	const char *w;
	size_t wl;

	lat_scan_init(&sc, s, len);
	lat_scan_ws(&sc);
	if (!lat_scan_lit(&sc, "# tracer:"))
		return 0;
	lat_scan_ws(&sc);
	if (!lat_scan_word(&sc, &w, &wl))
		return 0;
	lat_scan_ws(&sc);
	for (size_t i = 0; i < LAT_ARRAY_SIZE(names); i++)
		if (wl == strlen(names[i]) && !memcmp(w, names[i], wl) && lat_scan_eol(&sc)) {
			r->kind = KT_TITLE;
			r->u.title = (enum kt_tracer)(i + 1);
			return 1;
		}
	return 0;
}

/* "context    irq timer_latency       932 ns" after "#N " */
static int timerlat(struct lat_scan *sc, struct kt_rec *r)
{
	static const char *const ctx[] = { "irq", "thread", "user-ret" };
	const char *w;
	size_t wl, k;
	uint64_t v;

	lat_scan_ws(sc);
	if (!lat_scan_word(sc, &w, &wl))
		return bad(r, EXP_TIMERLAT);
	for (k = 0; k < KT_NCTX; k++)
		if (wl == strlen(ctx[k]) && !memcmp(w, ctx[k], wl))
			break;
	lat_scan_ws(sc);
	if (k == KT_NCTX || !lat_scan_lit(sc, "timer_latency") || !lat_scan_ws(sc) ||
	    !lat_scan_u64(sc, &v) || v > INT64_MAX || !lat_scan_ws(sc) || !lat_scan_lit(sc, "ns"))
		return bad(r, EXP_TIMERLAT);
	lat_scan_ws(sc);
	if (!lat_scan_eol(sc))
		return bad(r, EXP_TIMERLAT);
	r->kind = KT_TIMERLAT;
	r->u.tl.ctx = (enum kt_ctx)k;
	r->u.tl.lat_ns = (int64_t)v;
	return KT_TIMERLAT;
}

/* "12/14    ts:1499801089.066141940 count:6 nmi-total:4 nmi-count:1" */
static int hwlat_values(struct lat_scan *sc, struct kt_rec *r)
{
	static const char *const opt[] = { "count:", "nmi-total:", "nmi-count:" };
	int64_t *dst[] = { &r->u.hw.count, &r->u.hw.nmi_total_us, &r->u.hw.nmi_count };
	uint64_t in, out, sec, ns;
	const char *d;

	lat_scan_ws(sc);
	if (!lat_scan_u64(sc, &in) || !lat_scan_char(sc, '/') || !lat_scan_u64(sc, &out) ||
	    in > INT32_MAX || out > INT32_MAX || !lat_scan_ws(sc) || !lat_scan_lit(sc, "ts:"))
		return 0;
	if (!lat_scan_u64(sc, &sec) || !lat_scan_char(sc, '.'))
		return 0;
	d = sc->p;
	if (!lat_scan_u64(sc, &ns) || sc->p - d != 9)	/* "%09ld" nanoseconds */
		return 0;
	r->u.hw.inner_us = (int64_t)in;
	r->u.hw.outer_us = (int64_t)out;
	r->u.hw.wall_s = sec;
	r->u.hw.wall_ns = ns;
	r->u.hw.count = r->u.hw.nmi_total_us = r->u.hw.nmi_count = -1;
	for (size_t k = 0; k < LAT_ARRAY_SIZE(opt); k++) {
		struct lat_scan save = *sc;
		int64_t v;

		lat_scan_ws(sc);
		if (lat_scan_lit(sc, opt[k]) && lat_scan_i64(sc, &v))
			*dst[k] = v;
		else
			*sc = save;
	}
	lat_scan_ws(sc);
	return lat_scan_eol(sc);
}

/* "inner/outer(us):   12/14 ..." after "#N " */
static int hwlat(struct lat_scan *sc, struct kt_rec *r)
{
	lat_scan_ws(sc);
	if (lat_scan_eol(sc)) {
		r->kind = KT_HWLAT_CUT;
		return KT_HWLAT_CUT;
	}
	if (!hwlat_values(sc, r))
		return bad(r, EXP_HWLAT);
	r->kind = KT_HWLAT;
	return KT_HWLAT;
}

/* "#1     context ..." or "#1     inner/outer(us): ..." */
static int numbered(struct lat_scan *sc, struct kt_rec *r)
{
	uint64_t seq;

	if (!lat_scan_char(sc, '#') || !lat_scan_u64(sc, &seq))
		return KT_NONE;
	lat_scan_ws(sc);
	if (lat_scan_eol(sc))		/* the rest went to the next line (a mailer's wrap) */
		return bad(r, "\"#N context ... timer_latency N ns\" or \"#N inner/outer(us): ...\"");
	if (lat_scan_lit(sc, "context")) {
		r->u.tl.seq = seq;
		return timerlat(sc, r);
	}
	if (lat_scan_lit(sc, "inner/outer(us):")) {
		r->u.hw.seq = seq;
		return hwlat(sc, r);
	}
	return KT_NONE;
}

/* "1000000        190  99.98100       9     18      0   1007     18      1" */
static int osnoise_row(struct lat_scan *sc, struct kt_rec *r)
{
	int64_t *f[] = { &r->u.os.runtime_us, &r->u.os.noise_us, &r->u.os.avail,
			 &r->u.os.single_us, &r->u.os.hw, &r->u.os.nmi, &r->u.os.irq,
			 &r->u.os.sirq, &r->u.os.thread };
	const char *p;
	int nd = 0;

	/* the 2.6.27 sched_switch tracer's "3997:120:R ==> ..." also starts with digits */
	for (p = sc->p; p < sc->end; p++)
		if (*p != ' ' && *p != '\t' && *p != '.' && !is_digit(*p))
			return KT_NONE;
	for (size_t k = 0; k < LAT_ARRAY_SIZE(f); k++) {
		uint64_t v;

		if (k && !lat_scan_ws(sc))
			return bad(r, EXP_OSNOISE);
		if (k == 2) {
			if (!lat_scan_fixed(sc, 100000, f[k], &nd) || nd != 5)
				return bad(r, EXP_OSNOISE);
			continue;
		}
		if (!lat_scan_u64(sc, &v) || v > INT64_MAX)
			return bad(r, EXP_OSNOISE);
		*f[k] = (int64_t)v;
	}
	lat_scan_ws(sc);
	if (!lat_scan_eol(sc))
		return bad(r, EXP_OSNOISE);
	r->kind = KT_OSNOISE;
	return KT_OSNOISE;
}

/*
 * "start 548.771077442 duration 7597 ns"; with @us_ok also "duration 8 us", as
 * sample_threshold printed it before the tracer was merged (the RFC of April
 * 2021: TP_printk("start %llu.%09u duration %llu us interferences %llu")).
 */
static int start_duration(struct lat_scan *sc, struct kt_rec *r, int us_ok)
{
	int64_t start;
	uint64_t dur;
	int us;

	lat_scan_ws(sc);
	if (!lat_scan_lit(sc, "start") || !lat_scan_ws(sc) ||
	    !lat_scan_fixed(sc, LAT_NS_PER_S, &start, NULL) || !lat_scan_ws(sc) ||
	    !lat_scan_lit(sc, "duration") || !lat_scan_ws(sc) || !lat_scan_u64(sc, &dur) ||
	    !lat_scan_ws(sc))
		return 0;
	us = us_ok && lat_scan_lit(sc, "us");
	if (!us && !lat_scan_lit(sc, "ns"))
		return 0;
	if (us && dur > INT64_MAX / 1000)
		return 0;
	dur *= us ? 1000 : 1;
	if (dur > INT64_MAX)
		return 0;
	r->u.nz.start_ns = (uint64_t)start;
	r->u.nz.dur_ns = (int64_t)dur;
	return 1;
}

/* "local_timer:236 start ..." (irq, softirq, thread noise): the source, then the times */
static int noise(struct lat_scan *sc, int type, struct kt_rec *r)
{
	const char *w = NULL, *st;
	size_t wl = 0;

	lat_scan_ws(sc);
	r->u.nz.type = type;
	r->u.nz.interferences = -1;
	if (type != KT_NZ_NMI) {
		st = sc->p;
		/* the source runs up to " start " (a comm may hold blanks) */
		while (sc->p < sc->end && !(sc->end - sc->p > 7 && !memcmp(sc->p, " start ", 7)))
			sc->p++;
		w = st;
		wl = (size_t)(sc->p - st);
		if (!wl || !memchr(w, ':', wl))
			return bad(r, EXP_NOISE);
	}
	if (!start_duration(sc, r, 0))
		return bad(r, EXP_NOISE);
	lat_scan_ws(sc);
	if (!lat_scan_eol(sc))
		return bad(r, EXP_NOISE);
	if (wl >= KT_NAME_MAX)
		wl = KT_NAME_MAX - 1;
	if (wl)
		memcpy(r->u.nz.name, w, wl);
	r->u.nz.name[wl] = '\0';
	r->kind = KT_NOISE;
	return KT_NOISE;
}

static int threshold(struct lat_scan *sc, struct kt_rec *r)
{
	uint64_t n;

	r->u.nz.type = -1;
	r->u.nz.name[0] = '\0';
	if (!start_duration(sc, r, 1))
		return bad(r, EXP_THRESHOLD);
	lat_scan_ws(sc);
	if (!lat_scan_lit(sc, "interference"))
		return bad(r, EXP_THRESHOLD);
	/* the kernel prints "interference", the osnoise documentation "interferences" */
	lat_scan_char(sc, 's');
	if (!lat_scan_ws(sc) || !lat_scan_u64(sc, &n) || n > INT64_MAX)
		return bad(r, EXP_THRESHOLD);
	lat_scan_ws(sc);
	if (!lat_scan_eol(sc))
		return bad(r, EXP_THRESHOLD);
	r->u.nz.interferences = (int64_t)n;
	r->kind = KT_THRESHOLD;
	return KT_THRESHOLD;
}

/* "timerlat_main: stop tracing hit on cpu 6" (trace_array_printk of osnoise_stop_tracing) */
static int stop(struct lat_scan *sc, struct kt_rec *r)
{
	uint64_t cpu;

	lat_scan_ws(sc);
	if (!lat_scan_lit(sc, "stop tracing hit on cpu") || !lat_scan_ws(sc) ||
	    !lat_scan_u64(sc, &cpu) || cpu > INT32_MAX)
		return KT_NONE;
	lat_scan_ws(sc);
	if (!lat_scan_eol(sc))
		return KT_NONE;
	r->kind = KT_STOP;
	r->u.stop_cpu = (int32_t)cpu;
	return KT_STOP;
}

/* The payload of an event line whose head was read. */
static int payload(struct lat_scan *sc, struct kt_rec *r)
{
	const char *n = sc->p;
	size_t nl;

	if (lat_scan_eol(sc))
		return KT_NONE;
	if (*sc->p == '#')
		return numbered(sc, r);
	if (is_digit(*sc->p))
		return osnoise_row(sc, r);
	while (sc->p < sc->end && *sc->p != ':' && *sc->p != ' ' && *sc->p != '\t')
		sc->p++;
	if (sc->p >= sc->end || *sc->p != ':')
		return KT_NONE;
	nl = (size_t)(sc->p - n);
	sc->p++;
	for (int k = 0; k < (int)LAT_ARRAY_SIZE(noise_names); k++)
		if (nl == strlen(noise_names[k]) && !memcmp(n, noise_names[k], nl))
			return noise(sc, k, r);
	if (nl == 16 && !memcmp(n, "sample_threshold", 16))
		return threshold(sc, r);
	return stop(sc, r);
}

/* "  41/41    ts:1702045267.016266287 count:9976": the rest of a cut hwlat row */
static int hwlat_rest(const char *s, size_t len, struct kt_rec *r)
{
	struct lat_scan sc;

	lat_scan_init(&sc, s, len);
	lat_scan_ws(&sc);
	if (sc.p >= sc.end || !is_digit(*sc.p) || !memchr(s, '/', len) || !memmem(s, len, "ts:", 3))
		return KT_NONE;
	if (!hwlat_values(&sc, r))
		return KT_NONE;
	r->kind = KT_HWLAT_REST;
	return KT_HWLAT_REST;
}

enum kt_kind kt_parse_headless(const char *s, size_t len, struct kt_rec *r)
{
	r->kind = KT_NONE;
	r->expected = NULL;
	r->has_head = 0;
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r'))
		len--;
	if (title(s, len, r))
		return KT_TITLE;
	if (hwlat_rest(s, len, r))
		return KT_HWLAT_REST;
	return KT_NONE;
}

enum kt_kind kt_parse_line(const char *s, size_t len, struct kt_rec *r)
{
	struct lat_event ev;
	struct ft_strs strs;
	struct lat_scan sc;
	size_t off;

	if (kt_parse_headless(s, len, r) != KT_NONE)
		return r->kind;
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r'))
		len--;
	off = ft_parse_head(s, len, &ev, &strs);
	if (!off)
		return KT_NONE;
	r->has_head = 1;
	r->cpu = ev.cpu;
	r->pid = ev.pid;
	r->ts_ns = ev.ts_ns;
	memcpy(r->comm, ev.comm, sizeof(r->comm));
	lat_scan_init(&sc, s + off, len - off);
	return (enum kt_kind)payload(&sc, r);
}

enum kt_class kt_classify(const char *s, size_t len)
{
	struct kt_rec r;

	switch (kt_parse_line(s, len, &r)) {
	case KT_NONE:
		return KT_CL_OTHER;
	case KT_NOISE:
		return KT_CL_NOISE;
	default:
		return KT_CL_OWN;
	}
}

enum kt_class kt_classify_event(const char *name)
{
	for (size_t k = 0; k < LAT_ARRAY_SIZE(noise_names); k++)
		if (!strcmp(name, noise_names[k]))
			return KT_CL_NOISE;
	return strcmp(name, "sample_threshold") ? KT_CL_OTHER : KT_CL_OWN;
}
