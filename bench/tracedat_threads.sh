#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/tracedat_threads.sh [BUILD_DIR] [NCPU] [REPEAT] [PAIRS]
#
# Time against threads: a synthetic trace of NCPU CPUs (default 16) made by
# `scripts/tracedat_v6_tool.py widen` from the trace-cmd fixture (its 2 CPUs
# copied NCPU / 2 times side by side, pids and CPU fields moved per copy, then
# repeated REPEAT times, default 2), read with --jobs 1, 2, 4, 8 and 16: the
# reader alone (bench/tracedat_latscope.c, one field per event) and
# `latscope analyze`, each paired with --jobs 1 (bench/pairtime.c, PAIRS pairs,
# default 9).  A/B is the speed-up over one thread: the median [middle half].
#
# On a machine with fewer cores than threads the curve flattens at the cores:
# the workers then share them with the thread pulling the events.
set -e
repo=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$repo/build}
ncpu=${2:-16}
rep=${3:-2}
pairs=${4:-9}
fixture=${LAT_FIXTURE:-$build/fixtures/tracecmd-mixed-v6.dat}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$repo/bench/bench_tools.sh"
bench_build_iter
bench_build_pair
python3 "$repo/scripts/tracedat_v6_tool.py" widen "$fixture" "$tmp/w.dat" "$ncpu" "$rep"
echo "input: $ncpu CPUs, $("$tmp/latscope_iter" "$tmp/w.dat" 1 | awk '{ print $1 }') events," \
	"$(du -k "$tmp/w.dat" | cut -f1) KiB; machine: $(nproc) online CPUs;" \
	"load $(cut -d' ' -f1-3 /proc/loadavg)"
# one pairing: "wall-median-of-B s, A/B median [p25, p75]"
curve() {
	"$tmp/pairtime" -n "$pairs" "$@" | awk '$1 == "B" && $2 == "wall" { w = $3 }
		$1 == "A/B" && $2 == "wall" { r = $3 " " $4 " " $5 }
		END { printf "%.4f s, %s", w, r }'
}
printf "%-5s %-40s %-40s\n" "jobs" "reader alone: wall, A/B" "latscope analyze: wall, A/B"
for j in 1 2 4 8 16; do
	r=$(curve "$tmp/latscope_iter" "$tmp/w.dat" 1 --vs "$tmp/latscope_iter" "$tmp/w.dat" "$j")
	a=$(curve "$build/latscope" analyze --jobs 1 "$tmp/w.dat" --vs \
		"$build/latscope" analyze --jobs "$j" "$tmp/w.dat")
	printf "%-5s %-40s %-40s\n" "$j" "$r" "$a"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
