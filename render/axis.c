// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Axes: value-to-pixel mapping, 1-2-5 ticks on linear axes, decades on log
 * axes, labels in the unit the range calls for (ns, µs, ms, s; cycles with
 * k/M/G; counts).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render_priv.h"

double rd_axis_map(const struct rd_axis *a, double v)
{
	double f;

	if (a->log) {
		double lo = log10(a->lo), hi = log10(a->hi);

		if (!(v > 0))
			v = a->lo;
		f = hi > lo ? (log10(v) - lo) / (hi - lo) : 0.5;
	} else {
		f = a->hi > a->lo ? (v - a->lo) / (a->hi - a->lo) : 0.5;
	}
	return a->p0 + f * (a->p1 - a->p0);
}

static double nice_step(double span, int target)
{
	double raw = span / (target > 1 ? target : 1), mag, f;

	if (!(raw > 0))
		return 1;
	mag = pow(10, floor(log10(raw)));
	f = raw / mag;
	return mag * (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10);
}

void rd_axis_nice_range(struct rd_axis *a, int target)
{
	double step;

	if (a->log) {
		if (!(a->lo > 0))
			a->lo = 1;
		if (!(a->hi > a->lo))
			a->hi = a->lo * 10;
		a->lo = pow(10, floor(log10(a->lo) + 1e-9));
		a->hi = pow(10, ceil(log10(a->hi) - 1e-9));
		if (a->hi <= a->lo)
			a->hi = a->lo * 10;
		return;
	}
	if (!(a->hi > a->lo)) {
		double d = fabs(a->lo) > 0 ? fabs(a->lo) * 0.1 : 1;

		a->lo -= d;
		a->hi += d;
		if (a->lo < 0 && a->lo + d >= 0)
			a->lo = 0;
	}
	step = nice_step(a->hi - a->lo, target);
	a->lo = floor(a->lo / step + 1e-9) * step;
	a->hi = ceil(a->hi / step - 1e-9) * step;
}

/* Divisor and suffix for a linear axis spanning up to @mag. */
static void unit_for(enum lat_unit u, double mag, double *div, const char **name)
{
	*div = 1;
	*name = "";
	if (u == LAT_UNIT_NS || u == LAT_UNIT_TS_NS) {
		*name = "ns";
		if (mag >= 1e9)
			*div = 1e9, *name = "s";
		else if (mag >= 1e6)
			*div = 1e6, *name = "ms";
		else if (mag >= 1e3)
			*div = 1e3, *name = "\xc2\xb5s";
	} else if (u == LAT_UNIT_CYCLES) {
		*name = "cycles";
		if (mag >= 1e9)
			*div = 1e9, *name = "Gcycles";
		else if (mag >= 1e6)
			*div = 1e6, *name = "Mcycles";
		else if (mag >= 1e4)
			*div = 1e3, *name = "kcycles";
	} else if (u == LAT_UNIT_COUNT) {
		*name = "count";
	}
}

/* "1", "10", "100", "1k", "10k", "1M" for counts on a log axis. */
static void count_label(double v, char *buf, size_t len)
{
	if (v >= 1e6)
		snprintf(buf, len, "%gM", v / 1e6);
	else if (v >= 1e4)
		snprintf(buf, len, "%gk", v / 1e3);
	else
		snprintf(buf, len, "%g", v);
}

static void log_label(const struct rd_axis *a, double v, char *buf, size_t len)
{
	if (a->unit == LAT_UNIT_NS || a->unit == LAT_UNIT_TS_NS) {
		rd_fmt_dur_chart(v, buf, len);
	} else if (a->unit == LAT_UNIT_CYCLES) {
		count_label(v, buf, len);
	} else {
		count_label(v, buf, len);
	}
	if (a->percent) {
		size_t n = strlen(buf);

		snprintf(buf + n, len - n, "%%");
	}
}

static void add_tick(struct rd_axis *a, double v, int major)
{
	if (a->nticks >= RD_AXIS_MAX_TICKS)
		return;
	a->tick[a->nticks] = v;
	a->tick_major[a->nticks] = major;
	a->tick_label[a->nticks][0] = '\0';
	a->nticks++;
}

static void title_unit(struct rd_axis *a, const char *unit, int log)
{
	size_t n = strlen(a->title);
	char *p = strstr(a->title, " [");

	if (p)
		n = (size_t)(p - a->title);
	if (log)
		snprintf(a->title + n, sizeof(a->title) - n, " [%s%slog scale]", unit,
			 *unit ? ", " : "");
	else if (*unit)
		snprintf(a->title + n, sizeof(a->title) - n, " [%s]", unit);
}

void rd_axis_ticks(struct rd_axis *a, int target)
{
	a->nticks = 0;
	if (a->log) {
		int d0 = (int)floor(log10(a->lo) + 1e-9), d1 = (int)ceil(log10(a->hi) - 1e-9);
		int ndec = d1 - d0;
		/* few decades: label 2 and 5 as well; many: label every other decade */
		int every = ndec > target ? (ndec + target - 1) / target : 1;

		for (int d = d0; d <= d1; d++) {
			double base = pow(10, d);

			if (base >= a->lo * (1 - 1e-9) && base <= a->hi * (1 + 1e-9))
				add_tick(a, base, (d - d0) % every == 0);
			for (int m = 2; m <= 9 && d < d1; m++) {
				double v = base * m;

				if (v < a->lo || v > a->hi || (a->unit == LAT_UNIT_COUNT && v < 1))
					continue;
				add_tick(a, v, ndec <= 2 && (m == 2 || m == 5));
			}
		}
		for (int i = 0; i < a->nticks; i++)
			if (a->tick_major[i])
				log_label(a, a->tick[i], a->tick_label[i], sizeof(a->tick_label[i]));
		title_unit(a, a->unit == LAT_UNIT_CYCLES ? "cycles" :
			   a->unit == LAT_UNIT_COUNT ? "count" : "", 1);
		return;
	} else {
		double step = nice_step(a->hi - a->lo, target), div;
		double mag = fmax(fabs(a->lo), fabs(a->hi));
		const char *uname;
		int dec;

		unit_for(a->unit, mag, &div, &uname);
		/* enough decimals to tell neighbouring ticks apart */
		dec = (int)fmax(0, -floor(log10(step / div) + 1e-9));
		for (double v = ceil(a->lo / step - 1e-9) * step; v <= a->hi + step * 1e-9;
		     v += step) {
			if (a->nticks >= RD_AXIS_MAX_TICKS)
				break;
			add_tick(a, fabs(v) < step * 1e-9 ? 0 : v, 1);
			snprintf(a->tick_label[a->nticks - 1], sizeof(a->tick_label[0]), "%.*f",
				 dec, a->tick[a->nticks - 1] / div);
		}
		title_unit(a, uname, 0);
	}
}
