// SPDX-License-Identifier: GPL-2.0-or-later
/* What reading an event source gave, as text (evtrail.h). */
#include <stdarg.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "evtrail.h"

void trail_put(struct trail *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(t->text + t->len, t->cap - t->len, fmt, ap);
		va_end(ap);
		assert_true(n >= 0);
		if ((size_t)n < t->cap - t->len)
			break;
		t->cap = t->cap * 2 + (size_t)n + 4096;
		t->text = realloc(t->text, t->cap);
		assert_non_null(t->text);
	}
	t->len += (size_t)n;
}

/* Every field of @ev, and what it lends (read now: valid until the next call). */
void trail_event(struct trail *t, const struct lat_event *ev)
{
	trail_put(t, "%llu %d %d %s %d %x %s |", (unsigned long long)ev->ts_ns, ev->cpu, ev->pid,
	    ev->comm, ev->type, ev->flags, ev->name ? ev->name : "(null)");
	switch (ev->type) {
	case LAT_EV_SWITCH:
		trail_put(t, "%s %d %d %d %u %s %d %d", ev->u.sw.prev_comm, ev->u.sw.prev_pid,
		    ev->u.sw.prev_prio, ev->u.sw.prev_state, ev->u.sw.prev_state_raw,
		    ev->u.sw.next_comm, ev->u.sw.next_pid, ev->u.sw.next_prio);
		break;
	case LAT_EV_WAKING:
	case LAT_EV_WAKEUP:
	case LAT_EV_WAKEUP_NEW:
		trail_put(t, "%s %d %d %d", ev->u.wake.comm, ev->u.wake.pid, ev->u.wake.prio,
		    ev->u.wake.target_cpu);
		break;
	case LAT_EV_MIGRATE:
		trail_put(t, "%s %d %d %d %d", ev->u.migrate.comm, ev->u.migrate.pid,
			  ev->u.migrate.prio, ev->u.migrate.orig_cpu, ev->u.migrate.dest_cpu);
		break;
	case LAT_EV_FORK:
	case LAT_EV_EXEC:
	case LAT_EV_EXIT:
		trail_put(t, "%s %d %d %s", ev->u.task.comm, ev->u.task.pid, ev->u.task.child_pid,
		    ev->u.task.child_comm);
		break;
	case LAT_EV_IRQ_ENTRY:
	case LAT_EV_IRQ_EXIT:
	case LAT_EV_SOFTIRQ_ENTRY:
	case LAT_EV_SOFTIRQ_EXIT:
	case LAT_EV_TIMER_ENTRY:
	case LAT_EV_TIMER_EXIT:
		trail_put(t, "%d %d %s", ev->u.irq.irq, ev->u.irq.ret,
		    ev->u.irq.name ? ev->u.irq.name : "(null)");
		break;
	case LAT_EV_MARKER:
		trail_put(t, "%.*s", (int)ev->u.marker.len, ev->u.marker.text);
		break;
	case LAT_EV_STACK:
		for (uint32_t i = 0; i < ev->u.stack.depth; i++)
			trail_put(t, " %llx %s", (unsigned long long)ev->u.stack.ips[i],
			    ev->u.stack.syms && ev->u.stack.syms[i] ? ev->u.stack.syms[i] : "?");
		break;
	case LAT_EV_LOST:
		trail_put(t, "%llu", (unsigned long long)ev->u.lost.count);
		break;
	case LAT_EV_SETSCHED:
		trail_put(t, "%d %d", ev->u.setsched.pid, ev->u.setsched.policy);
		break;
	case LAT_EV_SETSCHED_EXIT:	/* only ret is set */
		trail_put(t, "%lld", (long long)ev->u.setsched.ret);
		break;
	default:
		break;
	}
	trail_put(t, "\n");
}

/* Notes the reasons when they changed since the last call. */
void trail_reasons(struct trail *t, const struct lat_event_source *src, char *stop, char *skip)
{
	const char *st = src->stop_reason ? src->stop_reason : "";
	const char *sk = src->skip_reason ? src->skip_reason : "";

	if (strcmp(st, stop)) {
		trail_put(t, "stop: %s\n", st);
		snprintf(stop, 1024, "%s", st);
		t->stops++;
	}
	if (strcmp(sk, skip)) {
		trail_put(t, "skip: %s\n", sk);
		snprintf(skip, 1024, "%s", sk);
		t->skips++;
	}
}


void trail_same(const struct trail *a, const struct trail *b, const char *what)
{
	size_t i = 0;

	if (a->len == b->len && !memcmp(a->text, b->text, a->len))
		return;
	while (i < a->len && i < b->len && a->text[i] == b->text[i])
		i++;
	while (i && a->text[i - 1] != '\n')
		i--;
	print_error("%s differs at:\n%.300s\n--- against ---\n%.300s\n", what, a->text + i,
		    b->text + (i < b->len ? i : b->len));
	fail();
}
