// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel stacks: interned (bounded by WK_MAX_STACKS), then blamed for off-CPU
 * time (the stack a task slept in) and runnable time (the stack of the task
 * that held the CPU, taken when it left it).  Folded "root;...;leaf" strings
 * are what FlameGraph's flamegraph.pl reads.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "wakeup_stack.h"

#define WK_HASH_SLOTS (WK_MAX_STACKS * 2)

void wk_stacks_init(struct wk_stacks *st, struct lat_wakeup_result *r, int top_n, int *oom)
{
	st->r = r;
	st->top_n = top_n;
	st->oom = oom;
}

/*
 * Frames that say how a task left the CPU or how a wakeup is delivered, not
 * why: skipped to find the top function (the blocking call, the waker's call).
 */
static int sched_frame(const char *s)
{
	static const char *const pfx[] = { "__schedule", "schedule", "preempt_schedule",
					   "io_schedule", "__cond_resched", "_cond_resched",
					   "__traceiter", "trace_", "__trace", "ftrace",
					   "stack_trace", "__bpf_trace", "perf_trace",
					   "try_to_wake_up", "ttwu_", "wake_up", "__wake_up",
					   "autoremove_wake_function", "default_wake_function",
					   "woken_wake_function", "swake_up", "wake_q", "pollwake",
					   "complete" };

	for (size_t i = 0; i < LAT_ARRAY_SIZE(pfx); i++)
		if (!strncmp(s, pfx[i], strlen(pfx[i])))
			return 1;
	return 0;
}

/*
 * Frames of the tracing that took the stack (the sched_switch tracepoint,
 * the stacktrace trigger): at the leaf of every recorded stack, they say
 * nothing about the task and are dropped, as perf's off-CPU stacks do.
 */
static int trace_frame(const char *s)
{
	static const char *const pfx[] = { "__traceiter_", "trace_event_raw_event_",
					   "perf_trace_", "__bpf_trace_", "trace_call_bpf",
					   "stack_trace_", "__ftrace_trace_stack", "__trace_stack",
					   "ftrace_", "event_triggers_call", "trace_event_buffer_",
					   "trace_buffer_" };

	for (size_t i = 0; i < LAT_ARRAY_SIZE(pfx); i++)
		if (!strncmp(s, pfx[i], strlen(pfx[i])))
			return 1;
	return 0;
}

static const char *frame_name(const uint64_t *ips, const char *const *syms, uint32_t i,
			      char *buf, size_t len)
{
	if (syms && syms[i] && syms[i][0])
		return syms[i];
	snprintf(buf, len, "0x%llx", (unsigned long long)ips[i]);
	return buf;
}

/* "root;...;leaf" into @buf (grown as needed); returns its length or -LAT_ENOMEM. */
static ssize_t fold(char **buf, size_t *cap, const uint64_t *ips, const char *const *syms,
		    uint32_t depth)
{
	size_t len = 1, o = 0;
	char hex[32];

	for (uint32_t i = 0; i < depth; i++)
		len += strlen(frame_name(ips, syms, i, hex, sizeof(hex))) + 1;
	if (lat_grow(buf, cap, len, 1))
		return -LAT_ENOMEM;
	/* ftrace lists the innermost frame first; folded stacks start at the root */
	for (uint32_t i = depth; i-- > 0;) {
		const char *n = frame_name(ips, syms, i, hex, sizeof(hex));

		if (o)
			(*buf)[o++] = ';';
		for (; *n; n++)
			(*buf)[o++] = *n == ';' || *n == ' ' ? '_' : *n;
	}
	(*buf)[o] = 0;
	return (ssize_t)o;
}

static int build_strings(struct lat_wake_stack *st, const char *folded, const uint64_t *ips,
			 const char *const *syms, uint32_t depth)
{
	const char *top = NULL;
	char buf[32];

	st->folded = strdup(folded);
	for (uint32_t i = 0; i < depth && !top; i++) {
		const char *n = frame_name(ips, syms, i, buf, sizeof(buf));

		if (!sched_frame(n))
			top = n;
	}
	st->top = strdup(top ? top : frame_name(ips, syms, 0, buf, sizeof(buf)));
	st->depth = depth;
	return st->top && st->folded ? 0 : -LAT_ENOMEM;
}

/*
 * Text traces have names but no addresses (ips all 0), binary ones may have
 * addresses but no names: the identity of a stack is its folded text.
 */
int32_t wk_stack_intern(struct wk_stacks *st, const uint64_t *ips, const char *const *syms,
			uint32_t depth)
{
	struct lat_wakeup_result *r = st->r;
	uint64_t h = 1469598103934665603ull;
	ssize_t len;
	size_t slot;
	int32_t id;

	/* ftrace pads with ULONG_MAX */
	while (depth && ips[depth - 1] == UINT64_MAX)
		depth--;
	if (!depth)
		return -1;
	/* the tracing's own frames at the leaf (innermost first); one frame at least stays */
	while (depth > 1 && syms && syms[0] && trace_frame(syms[0])) {
		ips++;
		syms++;
		depth--;
	}
	len = fold(&st->fold_buf, &st->fold_cap, ips, syms, depth);
	if (len < 0)
		goto oom;
	for (ssize_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)st->fold_buf[i]) * 1099511628211ull;
	if (!st->stk_hash) {
		st->stk_hash = malloc(WK_HASH_SLOTS * sizeof(*st->stk_hash));
		if (!st->stk_hash)
			goto oom;
		memset(st->stk_hash, 0xff, WK_HASH_SLOTS * sizeof(*st->stk_hash));
	}
	for (slot = h % WK_HASH_SLOTS; (id = st->stk_hash[slot]) >= 0;
	     slot = (slot + 1) % WK_HASH_SLOTS)
		if (st->stk[id].hash == h && !strcmp(r->stacks[id].folded, st->fold_buf))
			return id;
	if (r->nstacks >= WK_MAX_STACKS) {
		r->stacks_dropped++;
		return -1;
	}
	if (lat_grow(&r->stacks, &st->rstk_cap, r->nstacks + 1, sizeof(*r->stacks)))
		goto oom;
	if (lat_grow(&st->stk, &st->stk_cap, r->nstacks + 1, sizeof(*st->stk)))
		goto oom;
	id = (int32_t)r->nstacks;
	memset(&r->stacks[id], 0, sizeof(r->stacks[id]));
	memset(&st->stk[id], 0, sizeof(st->stk[id]));
	st->stk[id].hash = h;
	r->nstacks++;
	if (build_strings(&r->stacks[id], st->fold_buf, ips, syms, depth))
		goto oom;
	st->stk_hash[slot] = id;
	return id;
oom:
	*st->oom = 1;
	return -1;
}

static int cmp_blame(const void *a, const void *b)
{
	const struct lat_wake_blame *x = a, *y = b;

	return (y->ns > x->ns) - (y->ns < x->ns);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct lat_wake_blame *)a)->name,
		      ((const struct lat_wake_blame *)b)->name);
}

/* Rows with time, sorted, cut to top_n; then the same per top function. */
static int blame_rows(struct wk_stacks *st, int run, struct lat_wake_blame **rows, size_t *nrows,
		      size_t *nall, struct lat_wake_blame **funcs, size_t *nfuncs)
{
	struct lat_wakeup_result *r = st->r;
	size_t n = 0, top = st->top_n > 0 ? (size_t)st->top_n : 20, nf = 0;
	struct lat_wake_blame *a = calloc(r->nstacks ? r->nstacks : 1, sizeof(*a));
	struct lat_wake_blame *f = calloc(r->nstacks ? r->nstacks : 1, sizeof(*f));

	if (!a || !f) {
		free(a);
		free(f);
		return -LAT_ENOMEM;
	}
	for (size_t i = 0; i < r->nstacks; i++) {
		int64_t ns = run ? st->stk[i].run_ns : st->stk[i].off_ns;

		if (ns <= 0)
			continue;
		a[n].stack = (int32_t)i;
		a[n].name = r->stacks[i].folded;
		a[n].ns = ns;
		a[n].count = run ? st->stk[i].run_cnt : st->stk[i].off_cnt;
		f[n] = a[n];
		f[n].stack = -1;
		f[n].name = r->stacks[i].top;
		n++;
	}
	lat_sort(f, n, sizeof(*f), cmp_name);
	for (size_t i = 0; i < n; i++) {
		if (nf && !strcmp(f[nf - 1].name, f[i].name)) {
			f[nf - 1].ns += f[i].ns;
			f[nf - 1].count += f[i].count;
		} else {
			f[nf++] = f[i];
		}
	}
	lat_sort(a, n, sizeof(*a), cmp_blame);
	lat_sort(f, nf, sizeof(*f), cmp_blame);
	*rows = a;
	*nrows = n < top ? n : top;
	*nall = n;
	*funcs = f;
	*nfuncs = nf < top ? nf : top;
	return 0;
}

int wk_stacks_finish(struct wk_stacks *st)
{
	struct lat_wakeup_result *r = st->r;
	int ret;

	if (!r->nstacks)
		return 0;
	ret = blame_rows(st, 0, &r->off_stacks, &r->noff_stacks, &r->noff_stacks_all,
			 &r->off_funcs, &r->noff_funcs);
	if (!ret)
		ret = blame_rows(st, 1, &r->run_stacks, &r->nrun_stacks, &r->nrun_stacks_all,
				 &r->run_funcs, &r->nrun_funcs);
	return ret;
}

void wk_stacks_free(struct wk_stacks *st)
{
	free(st->stk);
	free(st->fold_buf);
	free(st->stk_hash);
}
