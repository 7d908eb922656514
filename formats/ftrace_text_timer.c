// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fields of the hrtimer events in ftrace text (ftrace_text.h), kernel and
 * trace-cmd report forms alike: blank-separated key=value pairs, in whatever
 * order the printer chose.
 *
 *   kernel:     hrtimer_start: hrtimer=00000000fea4b411 function=hrtimer_wakeup
 *               expires=7109308310903 softexpires=7109308260903 mode=ABS was_armed=0
 *               hrtimer_expire_entry: hrtimer=0000000065d77705 function=hrtimer_wakeup
 *               now=7109258230986
 *   trace-cmd:  hrtimer_expire_entry: hrtimer=0xffffc9000244f890 now=7015587339211
 *               function=hrtimer_wakeup/0x0
 *   both:       hrtimer_expire_exit: hrtimer=P      hrtimer_cancel: hrtimer=P
 *
 * The kernel prints the pointer hashed (%p): the same timer, the same hash.
 * Keys latscope does not use (mode, was_armed) are skipped.
 */
#include <string.h>

#include "ftrace_text.h"

/* Hex digits (an optional 0x) up to 16, the whole token; 0 when it is something else. */
static int hex64(const char *p, const char *e, uint64_t *v)
{
	uint64_t x = 0;

	if (e - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	if (p == e || e - p > 16)
		return 0;
	for (; p < e; p++) {
		int d = *p >= '0' && *p <= '9' ? *p - '0' : *p >= 'a' && *p <= 'f' ? *p - 'a' + 10 :
			*p >= 'A' && *p <= 'F' ? *p - 'A' + 10 : -1;

		if (d < 0)
			return 0;
		x = x << 4 | (uint64_t)d;
	}
	*v = x;
	return 1;
}

/* Decimal, the whole token, within int64_t (KTIME_MAX, 19 digits, included). */
static int dec64(const char *p, const char *e, int64_t *v)
{
	uint64_t x = 0;

	if (p == e)
		return 0;
	for (; p < e; p++) {
		if (*p < '0' || *p > '9' || x > ((uint64_t)INT64_MAX - (uint64_t)(*p - '0')) / 10)
			return 0;
		x = x * 10 + (uint64_t)(*p - '0');
	}
	*v = (int64_t)x;
	return 1;
}

#define KEY_IS(k, kl, s) ((kl) == sizeof(s) - 1 && !memcmp((k), (s), sizeof(s) - 1))

/* One "key=value" token of [k, e); 0 when a key latscope reads has a bad value. */
static int timer_token(const char *k, const char *e, struct lat_event *ev,
		       struct ft_strs *strs, unsigned *seen)
{
	const char *eq = memchr(k, '=', (size_t)(e - k)), *v, *ve;
	size_t kl;

	if (!eq)
		return 1;	/* not a pair: nothing of ours */
	kl = (size_t)(eq - k);
	v = eq + 1;
	if (KEY_IS(k, kl, "hrtimer")) {
		*seen |= 1;
		return hex64(v, e, &ev->u.timer.hrtimer);
	}
	if (KEY_IS(k, kl, "function")) {
		/* trace-cmd's "hrtimer_wakeup/0x0" or "fn+0x10/0x20": the name alone */
		for (ve = v; ve < e && *ve != '/' && *ve != '+'; ve++)
			;
		if (ve == v)
			return 0;
		*seen |= 2;
		if ((size_t)(ve - v) >= sizeof(strs->irq))
			ve = v + sizeof(strs->irq) - 1;
		memcpy(strs->irq, v, (size_t)(ve - v));
		strs->irq[ve - v] = 0;
		ev->u.timer.name = strs->irq;
		return 1;
	}
	if (KEY_IS(k, kl, "now"))
		return dec64(v, e, &ev->u.timer.now);
	if (KEY_IS(k, kl, "expires")) {
		*seen |= 4;
		return dec64(v, e, &ev->u.timer.expires);
	}
	if (KEY_IS(k, kl, "softexpires")) {
		*seen |= 8;
		return dec64(v, e, &ev->u.timer.softexpires);
	}
	return 1;
}

int ft_timer_fields(const char *p, const char *e, struct lat_event *ev,
			struct ft_strs *strs)
{
	/* what each type must have: hrtimer; a start its function and expiries; an entry its
	 * function */
	unsigned need = ev->type == LAT_EV_TIMER_START ? 1 | 2 | 4 | 8 :
			ev->type == LAT_EV_TIMER_ENTRY ? 1 | 2 : 1;
	unsigned seen = 0;

	ev->u.timer.irq = -1;
	ev->u.timer.ret = 0;
	ev->u.timer.name = NULL;
	ev->u.timer.hrtimer = 0;
	ev->u.timer.expires = LAT_TIMER_UNKNOWN;
	ev->u.timer.softexpires = LAT_TIMER_UNKNOWN;
	ev->u.timer.now = LAT_TIMER_UNKNOWN;
	while (p < e) {
		const char *t;

		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
		for (t = p; t < e && *t != ' ' && *t != '\t'; t++)
			;
		if (t > p && !timer_token(p, t, ev, strs, &seen))
			return 0;
		p = t;
	}
	return (seen & need) == need;
}
