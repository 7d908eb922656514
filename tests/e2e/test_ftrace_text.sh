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
# A console dump (ftrace_dump_on_oops) in a mail: latency-format lines behind the
# printk time.  What `latscope dump` prints (time, cpu, pid; lost counts) must be
# what awk reads off the text: µs times to ns, the cpu glued to the flags, a LOST
# line taking the time of the next event.  The same dump as `dmesg -t` prints it
# (no printk time) and as syslog stores it ("host kernel: " in front) must give
# the same events.
m=$s/lkml-2024-rcutorture-ftrace-dump.txt
sed -n '122,575p' "$m" | sed 's/^\[[^]]*\] //' | awk '
	/^CPU:[0-9]+ \[LOST [0-9]+ EVENTS\]$/ { split($1, c, ":"); n = $3; lost[++nl] = c[2] " -1 - lost count=" n; next }
	/us : / { sub(/^ +/, ""); split($0, f, " +");
		  pid = f[1]; sub(/.*-/, "", pid); cpu = f[2]; sub(/[^0-9].*/, "", cpu);
		  ts = f[3]; sub(/us$/, "", ts);
		  for (i = 1; i <= nl; i++) print ts "000", lost[i]; nl = 0;
		  print ts "000", cpu, pid }' | awk '{ sec = substr($1, 1, length($1) - 9); print sec "." substr($1, length($1) - 8), $2, $3, ($5 == "lost" ? $5 " " $6 : "") }' |
	sed 's/ $//' >"$tmp/want"
"$bin" dump "$m" 2>"$tmp/err" | awk '{ print $1, $2, $3, ($5 == "lost" ? $5 " " $6 : "") }' | sed 's/ $//' >"$tmp/got"
n=$(wc -l <"$tmp/want")
if [ "$n" -ne 449 ] || [ -s "$tmp/err" ] || ! diff -u "$tmp/want" "$tmp/got" >"$tmp/diff"; then
	echo "FAIL: console dump: $n events expected (449), dump differs or warned"
	head -20 "$tmp/diff" "$tmp/err"; fail=$((fail + 1))
else
	echo "ok: console dump: 445 events and 4 lost-event marks as awk reads them"
fi
sed -n '122,575p' "$m" | sed 's/^\[[^]]*\] //' >"$tmp/dmesg-t.txt"
sed -n '122,575p' "$m" | sed 's/^/Oct  8 15:34:57 paulmck-laptop kernel: /' >"$tmp/syslog.txt"
"$bin" dump "$m" 2>/dev/null >"$tmp/mail.dump"
for v in dmesg-t syslog; do
	if ! "$bin" dump "$tmp/$v.txt" 2>"$tmp/err" | diff -u "$tmp/mail.dump" - >"$tmp/diff" ||
	   [ -s "$tmp/err" ]; then
		echo "FAIL: console dump as $v differs"; head -10 "$tmp/diff" "$tmp/err"
		fail=$((fail + 1))
	else
		echo "ok: console dump as $v: same events"
	fi
done

# --jobs N: a file of many 64 KiB chunks (the fixture's report, 7 MB) parsed by
# worker threads gives the dump of one thread, byte for byte with its warnings,
# and the same analysis; so does the file with every line quoted ("> ")
fx=${LAT_FIXTURE_V7:-$repo/tests/fixtures/tracecmd-mixed.dat}
trace-cmd report -i "$fx" >"$tmp/big.txt" 2>/dev/null
sed 's/^/> /' "$tmp/big.txt" >"$tmp/bigq.txt"
for f in "$tmp/big.txt" "$tmp/bigq.txt"; do
	"$bin" dump --jobs 1 "$f" >"$tmp/j1" 2>&1
	[ "$(wc -l <"$tmp/j1")" -gt 67000 ] ||
		{ echo "FAIL: --jobs: $f dumps $(wc -l <"$tmp/j1") lines"; fail=$((fail + 1)); }
	for j in 2 4; do
		"$bin" dump --jobs $j "$f" >"$tmp/jn" 2>&1
		if ! cmp -s "$tmp/j1" "$tmp/jn"; then
			echo "FAIL: $(basename "$f"): dump --jobs $j differs"
			fail=$((fail + 1))
		fi
	done
done
"$bin" analyze --json --jobs 1 "$tmp/big.txt" >"$tmp/a1" 2>&1
"$bin" analyze --json --jobs 3 "$tmp/big.txt" >"$tmp/a3" 2>&1
if cmp -s "$tmp/a1" "$tmp/a3"; then
	echo "ok: --jobs 2, 3, 4: the same dump and analysis as one thread"
else
	echo "FAIL: analyze --jobs 3 differs from --jobs 1"; fail=$((fail + 1))
fi
exit $((fail != 0))
