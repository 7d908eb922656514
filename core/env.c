// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The recorded environment and the steal markers (include/latscope/env.h): the "latscope: env",
 * "latscope: cpustat" and "latscope: steal_sampler" metadata lines and the "latscope: steal"
 * markers that record/ writes (docs/record.md), read back.  In the model layer so that every
 * reader fills the same struct and the analysis may parse a marker too.
 */
#include <string.h>

#include "latscope/env.h"

/* One "key=value" (value bare up to a blank, or "quoted") or a bare word (vlen 0, no '='). */
struct kv {
	const char *key, *val;
	size_t klen, vlen;
	int has_val;
};

/* The next item of the line [*p, end); 0 at its end. */
static int kv_next(const char **p, const char *end, struct kv *kv)
{
	const char *s = *p;

	while (s < end && *s == ' ')
		s++;
	if (s >= end)
		return 0;
	kv->key = s;
	while (s < end && *s != ' ' && *s != '=')
		s++;
	kv->klen = (size_t)(s - kv->key);
	kv->has_val = s < end && *s == '=';
	kv->val = s;
	kv->vlen = 0;
	if (kv->has_val) {
		s++;
		if (s < end && *s == '"') {
			const char *q = memchr(s + 1, '"', (size_t)(end - s - 1));

			kv->val = s + 1;
			kv->vlen = (size_t)((q ? q : end) - kv->val);
			s = q ? q + 1 : end;
		} else {
			kv->val = s;
			while (s < end && *s != ' ')
				s++;
			kv->vlen = (size_t)(s - kv->val);
		}
	}
	*p = s;
	return 1;
}

static int key_is(const struct kv *kv, const char *k)
{
	return kv->has_val && strlen(k) == kv->klen && !memcmp(kv->key, k, kv->klen);
}

/* A decimal integer with an optional '-' filling the whole value. */
static int num(const struct kv *kv, int64_t *out)
{
	const char *s = kv->val, *e = kv->val + kv->vlen;
	int neg = 0;
	uint64_t v = 0;

	if (s < e && *s == '-') {
		neg = 1;
		s++;
	}
	if (s >= e)
		return 0;
	for (; s < e; s++) {
		if (*s < '0' || *s > '9' || v > (UINT64_MAX - 9) / 10)
			return 0;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	if (v > (uint64_t)INT64_MAX)
		return 0;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return 1;
}

/* What one line is being parsed for messages. */
struct ln {
	struct lat_diag *d;
	unsigned long no;
	int oom;
};

static void num_or_say(struct ln *l, const struct kv *kv, int64_t *out)
{
	if (num(kv, out))
		return;
	*out = LAT_ENV_UNKNOWN;
	lat_diag_at(l->d, 0, "latscope metadata line %lu: expected %.*s=NUMBER, got \"%.*s\"",
		    l->no, (int)kv->klen, kv->key, (int)kv->vlen, kv->val);
}

static void str_set(struct ln *l, char **dst, const struct kv *kv)
{
	char *s = strndup(kv->val, kv->vlen);

	if (!s) {
		l->oom = 1;
		return;
	}
	free(*dst);
	*dst = s;
}

/* The index of @kv's value in @names (n of them), or -1 (said to @l). */
static int pick(struct ln *l, const struct kv *kv, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (strlen(names[i]) == kv->vlen && !memcmp(names[i], kv->val, kv->vlen))
			return i;
	lat_diag_at(l->d, 0, "latscope metadata line %lu: unknown %.*s=%.*s", l->no,
		    (int)kv->klen, kv->key, (int)kv->vlen, kv->val);
	return -1;
}

static const char *const preempt_names[LAT_PREEMPT_NMODES] = {
	"none", "voluntary", "full", "lazy", "none-or-voluntary",
};
static const char *const src_names[LAT_ENV_NSRC] = {
	"debugfs", "cmdline", "config", "uname", "measured",
};
static const char *const nohz_names[LAT_NOHZ_NMODES] = { "periodic", "idle", "full" };

const char *lat_preempt_mode_name(enum lat_preempt_mode m)
{
	return (unsigned)m < LAT_PREEMPT_NMODES ? preempt_names[m] : "unknown";
}

const char *lat_env_src_name(enum lat_env_src s)
{
	return (unsigned)s < LAT_ENV_NSRC ? src_names[s] : "unknown";
}

const char *lat_nohz_mode_name(enum lat_nohz_mode m)
{
	return (unsigned)m < LAT_NOHZ_NMODES ? nohz_names[m] : "unknown";
}

static int tristate(struct ln *l, const struct kv *kv)
{
	int64_t v;

	if (num(kv, &v) && (v == 0 || v == 1))
		return (int)v;
	lat_diag_at(l->d, 0, "latscope metadata line %lu: expected %.*s=0 or 1, got \"%.*s\"",
		    l->no, (int)kv->klen, kv->key, (int)kv->vlen, kv->val);
	return -1;
}

/* The keys of the "latscope: env" lines; unknown ones are skipped (a newer recorder's). */
static void env_key(struct lat_trace_env *e, struct ln *l, const struct kv *kv)
{
	if (key_is(kv, "preempt"))
		e->preempt = (enum lat_preempt_mode)pick(l, kv, preempt_names, LAT_PREEMPT_NMODES);
	else if (key_is(kv, "preempt_src"))
		e->preempt_src = (enum lat_env_src)pick(l, kv, src_names, LAT_ENV_NSRC);
	else if (key_is(kv, "dynamic"))
		e->preempt_dynamic = tristate(l, kv);
	else if (key_is(kv, "rt"))
		e->preempt_rt = tristate(l, kv);
	else if (key_is(kv, "preempt_note"))
		str_set(l, &e->preempt_note, kv);
	else if (key_is(kv, "hz"))
		num_or_say(l, kv, &e->hz);
	else if (key_is(kv, "hz_src"))
		e->hz_src = (enum lat_env_src)pick(l, kv, src_names, LAT_ENV_NSRC);
	else if (key_is(kv, "nohz"))
		e->nohz = (enum lat_nohz_mode)pick(l, kv, nohz_names, LAT_NOHZ_NMODES);
	else if (key_is(kv, "nohz_full"))
		str_set(l, &e->nohz_full, kv);
	else if (key_is(kv, "isolated"))
		str_set(l, &e->isolated, kv);
	else if (key_is(kv, "cmdline"))
		str_set(l, &e->cmdline, kv);
	else if (key_is(kv, "virt"))
		str_set(l, &e->virt, kv);
	else if (key_is(kv, "virt_src"))
		str_set(l, &e->virt_src, kv);
	else if (key_is(kv, "hypervisor_flag"))
		e->hypervisor_flag = tristate(l, kv);
	else if (key_is(kv, "sys_hypervisor"))
		str_set(l, &e->sys_hypervisor, kv);
	else if (key_is(kv, "dmi_vendor"))
		str_set(l, &e->dmi_vendor, kv);
	else if (key_is(kv, "dmi_product"))
		str_set(l, &e->dmi_product, kv);
	else if (key_is(kv, "rt_runtime_us"))
		num_or_say(l, kv, &e->rt_runtime_us);
	else if (key_is(kv, "rt_period_us"))
		num_or_say(l, kv, &e->rt_period_us);
	else if (key_is(kv, "fair_note"))
		str_set(l, &e->fair_note, kv);
}

static void steal_unknown(struct lat_steal *s)
{
	s->cpu = -1;
	s->steal_ns = s->guest_ns = s->idle_ns = s->iowait_ns = s->since_ns = LAT_ENV_UNKNOWN;
}

static void cpu_unknown(struct lat_env_cpu *c)
{
	steal_unknown(&c->start);
	steal_unknown(&c->end);
	c->fair_runtime_ns = c->fair_period_ns = LAT_ENV_UNKNOWN;
}

/* The entry of CPU @cpu, made on first use; NULL (said to @l) when out of range or no memory. */
static struct lat_env_cpu *env_cpu(struct lat_trace_env *e, struct ln *l, int64_t cpu)
{
	struct lat_env_cpu *n;

	if (cpu < 0 || cpu >= LAT_ENV_MAX_CPUS) {
		lat_diag_at(l->d, 0, "latscope metadata line %lu: expected cpu=0..%d", l->no,
			    LAT_ENV_MAX_CPUS - 1);
		return NULL;
	}
	if (cpu >= e->ncpus) {
		n = realloc(e->cpus, (size_t)(cpu + 1) * sizeof(*n));
		if (!n) {
			l->oom = 1;
			return NULL;
		}
		for (int64_t i = e->ncpus; i <= cpu; i++)
			cpu_unknown(&n[i]);
		e->cpus = n;
		e->ncpus = (int)cpu + 1;
	}
	return &e->cpus[cpu];
}

/* The values of a steal marker or a cpustat line ("cpu=" aside) into @s. */
static int steal_key(struct lat_steal *s, const struct kv *kv)
{
	int64_t *dst = key_is(kv, "steal_ns") ? &s->steal_ns : key_is(kv, "guest_ns") ?
		       &s->guest_ns : key_is(kv, "idle_ns") ? &s->idle_ns :
		       key_is(kv, "iowait_ns") ? &s->iowait_ns :
		       key_is(kv, "since_ns") ? &s->since_ns : NULL;

	if (!dst)
		return 0;
	if (!num(kv, dst))
		*dst = LAT_ENV_UNKNOWN;
	return 1;
}

/* "latscope: env fair_server cpu=N runtime_ns=R period_ns=P" */
static void fair_line(struct lat_trace_env *e, struct ln *l, const char *p, const char *end)
{
	int64_t cpu = -1, rt = LAT_ENV_UNKNOWN, per = LAT_ENV_UNKNOWN;
	struct lat_env_cpu *c;
	struct kv kv;

	while (kv_next(&p, end, &kv)) {
		if (key_is(&kv, "cpu"))
			num_or_say(l, &kv, &cpu);
		else if (key_is(&kv, "runtime_ns"))
			num_or_say(l, &kv, &rt);
		else if (key_is(&kv, "period_ns"))
			num_or_say(l, &kv, &per);
	}
	c = env_cpu(e, l, cpu);
	if (c) {
		c->fair_runtime_ns = rt;
		c->fair_period_ns = per;
	}
}

/* "latscope: cpustat at=start|end cpu=N steal_ns=... guest_ns=... idle_ns=... iowait_ns=..." */
static void cpustat_line(struct lat_trace_env *e, struct ln *l, const char *p, const char *end)
{
	struct lat_steal s;
	struct lat_env_cpu *c;
	int64_t cpu = -1;
	int at = -1;
	struct kv kv;

	steal_unknown(&s);
	while (kv_next(&p, end, &kv)) {
		if (key_is(&kv, "at"))
			at = kv.vlen == 5 && !memcmp(kv.val, "start", 5) ? 0 :
			     kv.vlen == 3 && !memcmp(kv.val, "end", 3) ? 1 : -1;
		else if (key_is(&kv, "cpu"))
			num_or_say(l, &kv, &cpu);
		else
			steal_key(&s, &kv);
	}
	if (at < 0) {
		lat_diag_at(l->d, 0, "latscope metadata line %lu: expected at=start or at=end",
			    l->no);
		return;
	}
	c = env_cpu(e, l, cpu);
	if (!c)
		return;
	s.cpu = (int32_t)cpu;
	s.since_ns = LAT_ENV_UNKNOWN;
	if (at)
		c->end = s;
	else
		c->start = s;
}

/* "latscope: steal_sampler interval_ns=I clk_tck=T samples=S markers=M late_max_ns=L" */
static void sampler_line(struct lat_trace_env *e, struct ln *l, const char *p, const char *end)
{
	struct kv kv;

	while (kv_next(&p, end, &kv)) {
		if (key_is(&kv, "interval_ns"))
			num_or_say(l, &kv, &e->steal_interval_ns);
		else if (key_is(&kv, "clk_tck"))
			num_or_say(l, &kv, &e->clk_tck);
		else if (key_is(&kv, "samples"))
			num_or_say(l, &kv, &e->steal_samples);
		else if (key_is(&kv, "markers"))
			num_or_say(l, &kv, &e->steal_markers);
		else if (key_is(&kv, "late_max_ns"))
			num_or_say(l, &kv, &e->steal_late_max_ns);
	}
}

void lat_trace_env_init(struct lat_trace_env *e)
{
	memset(e, 0, sizeof(*e));
	e->preempt = LAT_PREEMPT_UNKNOWN;
	e->preempt_src = LAT_ENV_SRC_UNKNOWN;
	e->preempt_dynamic = e->preempt_rt = e->hypervisor_flag = -1;
	e->hz = LAT_ENV_UNKNOWN;
	e->hz_src = LAT_ENV_SRC_UNKNOWN;
	e->nohz = LAT_NOHZ_UNKNOWN;
	e->rt_runtime_us = e->rt_period_us = LAT_ENV_UNKNOWN;
	e->clk_tck = e->steal_interval_ns = e->steal_samples = LAT_ENV_UNKNOWN;
	e->steal_markers = e->steal_late_max_ns = LAT_ENV_UNKNOWN;
}

void lat_trace_env_release(struct lat_trace_env *e)
{
	free(e->preempt_note);
	free(e->nohz_full);
	free(e->isolated);
	free(e->cmdline);
	free(e->virt);
	free(e->virt_src);
	free(e->sys_hypervisor);
	free(e->dmi_vendor);
	free(e->dmi_product);
	free(e->fair_note);
	free(e->cpus);
	lat_trace_env_init(e);
}

/* "@word " at @p: advances past it. */
static int word(const char **p, const char *end, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(end - *p) < n || memcmp(*p, w, n))
		return 0;
	*p += n;
	return 1;
}

static void env_line(struct lat_trace_env *e, struct ln *l, const char *p, const char *end)
{
	struct kv kv;

	if (word(&p, end, "fair_server ")) {
		fair_line(e, l, p, end);
		return;
	}
	while (kv_next(&p, end, &kv))
		env_key(e, l, &kv);
}

int lat_trace_env_parse(struct lat_trace_env *e, const char *meta, struct lat_diag *d)
{
	struct ln l = { d, 0, 0 };

	lat_trace_env_init(e);
	for (const char *p = meta; p && *p && !l.oom; ) {
		const char *nl = strchr(p, '\n'), *end = nl ? nl : p + strlen(p);

		l.no++;
		if (word(&p, end, "latscope: env ")) {
			e->present = 1;
			env_line(e, &l, p, end);
		} else if (word(&p, end, "latscope: cpustat ")) {
			e->present = 1;
			cpustat_line(e, &l, p, end);
		} else if (word(&p, end, "latscope: steal_sampler ")) {
			e->present = 1;
			sampler_line(e, &l, p, end);
		}
		p = nl ? nl + 1 : end;
	}
	if (l.oom) {
		lat_trace_env_release(e);
		return -LAT_ENOMEM;
	}
	return 0;
}

int lat_steal_parse(const char *text, size_t len, struct lat_steal *out)
{
	const char *p = memmem(text, len, "latscope: steal ", 16), *end = text + len;
	int64_t cpu = -1;
	struct kv kv;

	/* anywhere in the text, as the probe markers: trace-cmd prints "0xIP: " before it */
	if (!p)
		return 0;
	p += 16;
	steal_unknown(out);
	while (kv_next(&p, end, &kv)) {
		if (!key_is(&kv, "cpu"))
			steal_key(out, &kv);
		else if (!num(&kv, &cpu))
			cpu = -1;
	}
	if (cpu < 0 || cpu > INT32_MAX || out->steal_ns == LAT_ENV_UNKNOWN)
		return 0;
	out->cpu = (int32_t)cpu;
	return 1;
}
