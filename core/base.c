// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "latscope/base.h"

static const char *const err_names[LAT_ERR_MAX - LAT_ERRNO_START] = {
	[LAT_ENOMEM - LAT_ERRNO_START] = "out of memory",
	[LAT_EIO - LAT_ERRNO_START] = "input/output error",
	[LAT_EFORMAT - LAT_ERRNO_START] = "malformed input",
	[LAT_EUNKNOWN - LAT_ERRNO_START] = "unknown format",
	[LAT_EAMBIGUOUS - LAT_ERRNO_START] = "ambiguous format",
	[LAT_EEMPTY - LAT_ERRNO_START] = "nothing to analyze",
	[LAT_EUSAGE - LAT_ERRNO_START] = "usage error",
	[LAT_ELIMIT - LAT_ERRNO_START] = "size limit exceeded",
	[LAT_EPERM - LAT_ERRNO_START] = "permission denied",
	[LAT_ETRUNC - LAT_ERRNO_START] = "input ends early",
};

const char *lat_strerror(int err)
{
	if (err < 0)
		err = -err;
	if (!err)
		return "success";
	if (lat_err_is_own(err))
		return err_names[err - LAT_ERRNO_START];
	if (err < LAT_ERRNO_START)
		return strerror(err);
	return "unknown error";
}

void lat_diag_init(struct lat_diag *d, const char *path, FILE *out)
{
	memset(d, 0, sizeof(*d));
	d->path = path ? path : "-";
	d->out = out;
	d->max_print = 200;
}

void lat_diag_at(struct lat_diag *d, unsigned long line, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	int n;

	d->nwarn++;
	if (!d->out)
		return;
	if (d->nwarn > d->max_print) {
		if (d->nwarn == d->max_print + 1)
			fprintf(d->out, "%s: more problems follow; only counting them now\n",
				d->path);
		return;
	}
	if (line)
		fprintf(d->out, "%s:%lu: ", d->path, line);
	else
		fprintf(d->out, "%s: ", d->path);
	va_start(ap, fmt);
	n = vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* messages quote input: no raw control byte may reach the user's terminal */
	for (const char *p = msg; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (c < 0x20 || c == 0x7f)
			fprintf(d->out, "\\x%02x", c);
		else
			fputc(c, d->out);
	}
	if (n >= (int)sizeof(msg))
		fputs("...", d->out);
	fputc('\n', d->out);
}

int lat_parse_duration(const char *s, int64_t def_unit_ns, int64_t *out_ns)
{
	static const struct {
		const char *suffix;
		int64_t mult;
	} units[] = {
		{ "ns", 1 }, { "us", LAT_NS_PER_US }, { "ms", LAT_NS_PER_MS },
		{ "s", LAT_NS_PER_S }, { "sec", LAT_NS_PER_S },
	};
	char *end;
	double v;
	int64_t mult = def_unit_ns;
	size_t i;

	if (!s || !*s || isspace((unsigned char)*s) || *s == '-')
		return -LAT_EUSAGE;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !(v >= 0))	/* NaN too */
		return -LAT_EUSAGE;
	if (*end) {
		for (i = 0; i < LAT_ARRAY_SIZE(units); i++)
			if (!strcmp(end, units[i].suffix))
				break;
		if (i == LAT_ARRAY_SIZE(units))
			return -LAT_EUSAGE;
		mult = units[i].mult;
	}
	if (v * (double)mult > 9.0e18)
		return -LAT_EUSAGE;
	*out_ns = (int64_t)(v * (double)mult + 0.5);
	return 0;
}

char *lat_fmt_duration(int64_t ns, char *buf, size_t len)
{
	const char *sign = ns < 0 ? "-" : "";
	uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;

	if (a < 1000)
		snprintf(buf, len, "%s%" PRIu64 " ns", sign, a);
	else if (a < 1000000)
		snprintf(buf, len, "%s%.3g us", sign, (double)a / 1e3);
	else if (a < 1000000000)
		snprintf(buf, len, "%s%.3g ms", sign, (double)a / 1e6);
	else
		snprintf(buf, len, "%s%.4g s", sign, (double)a / 1e9);
	return buf;
}

int lat_grow(void *arr, size_t *cap, size_t need, size_t elsize)
{
	void **p = arr;
	size_t ncap;
	void *n;

	if (need <= *cap)
		return 0;
	ncap = *cap ? *cap : 8;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2 / elsize)
			return -LAT_ENOMEM;
		ncap *= 2;
	}
	n = realloc(*p, ncap * elsize);
	if (!n)
		return -LAT_ENOMEM;
	*p = n;
	*cap = ncap;
	return 0;
}

int lat_jobs_default(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > LAT_JOBS_MAX ? LAT_JOBS_MAX : (int)n;
}

char *lat_fmt_trace_ts(uint64_t ns, char *buf, size_t len)
{
	snprintf(buf, len, "%" PRIu64 ".%09" PRIu64, ns / 1000000000u, ns % 1000000000u);
	return buf;
}

char *lat_fmt_ts(int64_t ns, char *buf, size_t len)
{
	const char *sign = ns < 0 ? "-" : "";
	uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	uint64_t frac = a % 1000000000u;
	int digits = 9;

	if (!frac) {
		snprintf(buf, len, "%s%" PRIu64, sign, a / 1000000000u);
		return buf;
	}
	while (frac % 10 == 0) {
		frac /= 10;
		digits--;
	}
	snprintf(buf, len, "%s%" PRIu64 ".%0*" PRIu64, sign, a / 1000000000u, digits, frac);
	return buf;
}
