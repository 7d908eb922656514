/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Basic vocabulary shared by every module: error codes, diagnostics, units.
 */
#ifndef LATSCOPE_BASE_H
#define LATSCOPE_BASE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define LATSCOPE_VERSION "0.1.0"

/*
 * Errors: functions return 0 or a negative error.  One space for two kinds (libtraceevent's
 * __TEP_ERRNO__START is the model): latscope's own codes lie above LAT_ERRNO_START, far
 * above any errno value, so an int carrying -ENOSPC from a write and one carrying
 * -LAT_EFORMAT from a reader never mean the same, and lat_strerror() names both.
 */
#define LAT_ERRNO_START 100000

enum lat_err {
	LAT_OK = 0,
	LAT_ENOMEM = LAT_ERRNO_START + 1,	/* out of memory */
	LAT_EIO,		/* read or write failed */
	LAT_EFORMAT,		/* input is not in the expected format */
	LAT_EUNKNOWN,		/* no reader recognises the input */
	LAT_EAMBIGUOUS,		/* two readers are equally sure */
	LAT_EEMPTY,		/* input holds nothing to analyze */
	LAT_EUSAGE,		/* bad option or argument */
	LAT_ELIMIT,		/* a size limit was hit */
	LAT_EPERM,		/* the kernel refused */
	LAT_ETRUNC,		/* input ends early */
	LAT_ERR_MAX
};

/* True when @err (negative or not) is one of latscope's own codes, not an errno. */
static inline int lat_err_is_own(int err)
{
	if (err < 0)
		err = -err;
	return err > LAT_ERRNO_START && err < LAT_ERR_MAX;
}

/*
 * A static string describing @err or -@err: latscope's own code, strerror() of an errno
 * value, "success" for 0.
 */
const char *lat_strerror(int err);

/*
 * Diagnostics sink: readers report "file:line: expected ..." here and keep going.
 * Messages go to @out (stderr by default, NULL to only count); the counts feed the report.
 */
struct lat_diag {
	FILE *out;
	const char *path;	/* lent by the caller for the lifetime of the diag */
	size_t nwarn;
	size_t max_print;	/* stop printing (not counting) after this many; 0 = 200 */
};

void lat_diag_init(struct lat_diag *d, const char *path, FILE *out);
/* Prints "path:line: fmt" (line 0 omits the line number) and counts it. */
void lat_diag_at(struct lat_diag *d, unsigned long line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Durations: "500us", "10ms", "2s", "1500ns", "3" (microseconds when unit-less is @def_unit_ns). */
int lat_parse_duration(const char *s, int64_t def_unit_ns, int64_t *out_ns);
/* Formats @ns into @buf as "4.21 ms" style, 3 significant decimals; returns buf. */
char *lat_fmt_duration(int64_t ns, char *buf, size_t len);

/*
 * A timestamp in ns as seconds with the fraction's trailing zeros dropped
 * ("1112008906.469"), the way logs print their clocks.  Returns buf.
 */
char *lat_fmt_ts(int64_t ns, char *buf, size_t len);
/* A trace timestamp in ns as seconds with nine decimals, as `trace-cmd report -t`
 * prints it ("994.984059800").  Returns buf. */
char *lat_fmt_trace_ts(uint64_t ns, char *buf, size_t len);

#define LAT_NS_PER_US 1000LL
#define LAT_NS_PER_MS 1000000LL
#define LAT_NS_PER_S 1000000000LL

#define LAT_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * 1 when built with AddressSanitizer (gcc's -fsanitize=address defines
 * __SANITIZE_ADDRESS__, clang's says it through __has_feature): the code that
 * maps or advises its own memory then leaves it to malloc, which ASan bounds.
 */
#if defined(__SANITIZE_ADDRESS__)
#define LAT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LAT_ASAN 1
#endif
#endif
#ifndef LAT_ASAN
#define LAT_ASAN 0
#endif

/* qsort() that accepts an empty array with a NULL base (qsort's contract does not). */
static inline void lat_sort(void *base, size_t n, size_t size,
			    int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

/* Grow *@arr (of @elsize bytes per element) so that it holds at least @need elements. */
int lat_grow(void *arr, size_t *cap, size_t need, size_t elsize);

/* Threads a reader uses by default (--jobs not given): the online CPUs, at most this. */
#define LAT_JOBS_MAX 16
/* The default threads: the online CPUs, 1 to LAT_JOBS_MAX. */
int lat_jobs_default(void);

#endif
