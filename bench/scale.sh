#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/scale.sh [BUILD_DIR] [TRACEDAT_REPEATS] [TEXT_COPIES]
#
# Time and peak RSS against size, whole process (/usr/bin/time -v), one run
# each: `latscope analyze` of the trace-cmd fixture repeated N times by
# `scripts/tracedat_v6_tool.py repeat` for each N of TRACEDAT_REPEATS (default
# "64 256 1600": 4.3M to 107M events, 0.2 to 5.3 GB), and of its `trace-cmd
# report` text N times for each N of TEXT_COPIES (default "75 300 745": 5M to
# 50M lines, 0.5 to 5.3 GB), each copy's timestamps moved past the last one's
# (as repeat does: the analysis skips events that go back in time).  Time linear in events is a
# flat ns/event column; memory that does not grow, a flat peak RSS.  The files
# are written under $TMPDIR (/tmp) one at a time and removed after use.
# JOBS=N passes --jobs N (default: the reader's).
set -e
repo=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$repo/build}
reps=${2:-64 256 1600}
copies=${3:-75 300 745}
fixture=${LAT_FIXTURE:-$build/fixtures/tracecmd-mixed-v6.dat}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/latscope-scale.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
jobs=${JOBS:+--jobs $JOBS}

# "events wall_s cpu_s peak_kib" of latscope analyze FILE (events: its report's count)
measure() {
	/usr/bin/time -v "$build/latscope" analyze $jobs "$1" >"$tmp/out" 2>"$tmp/time"
	ev=$(awk '/^ +[0-9]+ events;/ { print $1; exit }' "$tmp/out")
	awk -v ev="$ev" -F': ' '
		/Elapsed \(wall clock\)/ { n = split($2, t, ":"); w = t[n] + (n > 1 ? t[n - 1] * 60 : 0) }
		/User time/ { u = $2 } /System time/ { s = $2 } /Maximum resident/ { m = $2 }
		END { printf "%s %.3f %.3f %d\n", ev, w, u + s, m }' "$tmp/time"
}

row() { # KIND SIZE_BYTES "events wall cpu rss"
	set -- "$1" "$2" $3
	printf "%-9s %9.2f GB %11s events %9.3f s wall %9.3f s cpu %7.1f ns/event %7.1f MB peak RSS\n" \
		"$1" "$(echo "$2 / 1000000000" | bc -l)" "$3" "$4" "$5" \
		"$(echo "$4 * 1000000000 / $3" | bc -l)" "$(echo "$6 / 1024" | bc -l)"
}

echo "machine: $(nproc) online CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); latscope ${JOBS:+--jobs $JOBS}"
for n in $reps; do
	python3 "$repo/scripts/tracedat_v6_tool.py" repeat "$fixture" "$tmp/big.dat" "$n"
	size=$(wc -c <"$tmp/big.dat")
	cat "$tmp/big.dat" >/dev/null	# in the page cache, as after recording it
	row trace.dat "$size" "$(measure "$tmp/big.dat")"
	rm -f "$tmp/big.dat"
done
trace-cmd report -i "$repo/tests/fixtures/tracecmd-mixed.dat" >"$tmp/one.txt" 2>/dev/null
cc -O2 -o "$tmp/textshift" "$repo/bench/textshift.c"
for n in $copies; do
	# copy i's timestamps moved by i * 10 s (the fixture spans 1.6 s)
	"$tmp/textshift" "$tmp/one.txt" "$n" 10 >"$tmp/big.txt"
	size=$(wc -c <"$tmp/big.txt")
	echo "text: $n copies, $(wc -l <"$tmp/big.txt") lines"
	row text "$size" "$(measure "$tmp/big.txt")"
	rm -f "$tmp/big.txt"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
