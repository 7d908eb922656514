#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The ftrace-text reader against the trace.dat reader on one ring buffer
# (samples/ftrace-text/record.sh printed it as text in every layout, and
# trace-cmd extracted it into kernel.dat): `latscope dump` of each text must
# print the events of the .dat, once
#  - the .dat's ns timestamps are rounded to the us the text prints (the kernel
#    rounds to nearest),
#  - the running comm (4th column) is left out: the text prints the comm saved at
#    print time, the .dat reader follows execs,
#  - for trace-cmd's text, R+ (0x100) is read as R: its plugin never prints the +.
# Usage: test_ftrace_text.sh BIN REPO
bin=$1
repo=$2
s=$repo/samples/ftrace-text
fail=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

norm() {
	awk '{ split($1, a, "."); ns = a[2]; while (length(ns) < 9) ns = ns "0";
	       us = int((ns + 500) / 1000); sec = a[1];
	       if (us >= 1000000) { us -= 1000000; sec++ }
	       $1 = sprintf("%s.%06d", sec, us); $4 = ""; print }' | sed 's/R(0x100)/R(0x0)/'
}

# Under ASan, LeakSanitizer's exit after libtraceevent's own 2-byte leak in
# tep_parse_event() would drop the dump's last buffered lines: leaks are the unit
# tests' business (test_ftrace_text suppresses exactly that one), not this comparison's.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	"$bin" dump --buffer latscope-ftracetext-11147 "$s/kernel.dat" 2>/dev/null | norm >"$tmp/dat"
n=$(wc -l <"$tmp/dat")
[ "$n" -eq 2527 ] || { echo "FAIL: kernel.dat gave $n events, not 2527"; fail=1; }
for f in kernel-trace.txt kernel-trace-noirqinfo.txt kernel-trace-notgid.txt \
	 kernel-trace-symoffset.txt kernel-tracecmd.txt; do
	"$bin" dump "$s/$f" 2>"$tmp/err" | norm >"$tmp/txt"
	if [ -s "$tmp/err" ]; then
		echo "FAIL: $f: diagnostics"; head -5 "$tmp/err"; fail=$((fail + 1))
	elif ! diff -u "$tmp/dat" "$tmp/txt" >"$tmp/diff"; then
		echo "FAIL: $f differs from kernel.dat"; head -20 "$tmp/diff"; fail=$((fail + 1))
	else
		echo "ok: $f: the $n events of kernel.dat"
	fi
done
exit $((fail != 0))
