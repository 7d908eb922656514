#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/tracedat.sh [BUILD_DIR] [REPEAT] [RUNS]
#
# Throughput of `latscope analyze` (the whole job: read, wakeup analysis, worst
# cases, report) and of its trace.dat reader alone, against two anchors measured
# in the same run, on the same files:
#   - libtracecmd: bench/tracedat_libtracecmd.c, tracecmd_iterate_events()
#     reading one field per event (the field looked up once);
#   - `trace-cmd report > /dev/null`;
#   - `perf sched timehist` of a perf.data of the same workload (below).
# The reader alone is bench/tracedat_latscope.c: the same loop over the event
# source.  Both print a checksum of the field they read; they must agree.
# The floors are bench/tracedat_floor.c: each CPU's pages read (pread, and
# mmap) and their event headers walked, one field read per event, nothing
# else: no reader can do less.  And the least wakeup analysis: the same pread
# walk with the CPUs merged by timestamp, and a wait's start and end per task
# (count, sum, max): no analysis can do less.
#
# The input: the trace-cmd fixture (tests/fixtures) (trace-cmd 3.1.6, 67,159 sched/irq events, v6)
# with every CPU's pages written REPEAT times (default 8: 537k events) by
# scripts/tracedat_v6_tool.py repeat, page timestamps shifted so time runs
# forward; `trace-cmd convert` makes the v7+zstd copy.  trace-cmd record does
# not work on this VM, so this is how a large real trace is made here.
#
# Times are CPU time (user + sys, best of RUNS): the machine is shared and
# wall time measures the neighbours.  Peak RSS from /usr/bin/time.
#
# Then the goals' measure: paired, alternating whole-process runs (bench/pairtime.c)
# of latscope analyze against each anchor, wall and CPU time, the median ratio
# with its spread; and perf sched timehist on a perf.data of a hackbench run
# that latscope record recorded too (PAIRS=N pairs, default 21; HACKBENCH=0
# skips the recording).
#
# LAT_BASE=/path/to/an/older/latscope: its `analyze` of the same two files is
# timed too, alternating with this build's run by run (best of RUNS each, and
# the median of the per-run ratios), for a before/after in the same run.
set -e
repo=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$repo/build}
rep=${2:-8}
runs=${3:-5}
fixture=${LAT_FIXTURE:-$build/fixtures/tracecmd-mixed-v6.dat}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$repo/bench/bench_tools.sh"
bench_build_iter
cc -O2 -o "$tmp/tracecmd_iter" "$repo/bench/tracedat_libtracecmd.c" \
	$(pkg-config --cflags --libs libtracecmd)
cc -O2 -o "$tmp/floor" "$repo/bench/tracedat_floor.c"

python3 "$repo/scripts/tracedat_v6_tool.py" repeat "$fixture" "$tmp/v6.dat" "$rep"
trace-cmd convert -i "$tmp/v6.dat" -o "$tmp/v7.dat" --file-version 7 --compression zstd \
	>/dev/null 2>&1

# best CPU seconds and peak RSS (KiB) of RUNS runs: "secs rss".  CPU time from
# perf stat's task-clock (ms resolution) when perf works, else /usr/bin/time.
use_perf=0
perf stat -x, -e task-clock true >/dev/null 2>&1 && use_perf=1
measure() {
	best=""
	rss=0
	i=0
	while [ $i -lt "$runs" ]; do
		/usr/bin/time -f "%U %S %M" -o "$tmp/t" "$@" >"$tmp/out" 2>/dev/null
		t=$(awk '{ printf "%.4f", $1 + $2 }' "$tmp/t")
		m=$(awk '{ print $3 }' "$tmp/t")
		if [ $use_perf -eq 1 ]; then
			perf stat -x, -e task-clock -o "$tmp/p" "$@" >/dev/null 2>&1
			t=$(awk -F, '/task-clock/ { printf "%.4f", $1 / 1000 }' "$tmp/p")
		fi
		if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" -eq 1 ]; then
			best=$t
		fi
		[ "$m" -gt "$rss" ] && rss=$m
		i=$((i + 1))
	done
	echo "$best $rss"
}

events=$("$tmp/latscope_iter" "$tmp/v6.dat" | awk '{ print $1 }')
ranges=$(python3 "$repo/scripts/tracedat_v6_tool.py" cpus "$tmp/v6.dat" | grep -v -- --)
fields=$(python3 "$repo/scripts/tracedat_v6_tool.py" cpus "$tmp/v6.dat" | grep -- --)
for how in pread mmap wakeup; do
	f=; [ $how = wakeup ] && f=$fields
	n=$("$tmp/floor" $how "$tmp/v6.dat" $f $ranges | awk 'NR == 1 { print $1 }')
	[ "$n" = "$events" ] || { echo "floor ($how) saw $n events, the reader $events"; exit 1; }
done
sum_l=$("$tmp/latscope_iter" "$tmp/v6.dat")
sum_t=$("$tmp/tracecmd_iter" "$tmp/v6.dat")
sum_l7=$("$tmp/latscope_iter" "$tmp/v7.dat")
sum_t7=$("$tmp/tracecmd_iter" "$tmp/v7.dat")
echo "input: $rep x $(basename "$fixture"): $events events;" \
	"v6 $(du -k "$tmp/v6.dat" | cut -f1) KiB, v7+zstd $(du -k "$tmp/v7.dat" | cut -f1) KiB"
echo "latscope:    $sum_l"
echo "libtracecmd: $sum_t"
[ "$sum_l" = "$sum_t" ] && [ "$sum_l7" = "$sum_t7" ] && [ "$sum_l" = "$sum_l7" ] ||
	{ echo "checksums differ: the readers do not see the same events"; exit 1; }

set -- $(measure "$tmp/latscope_iter" "$tmp/v6.dat"); l6=$1 l6m=$2
set -- $(measure "$tmp/tracecmd_iter" "$tmp/v6.dat"); t6=$1 t6m=$2
set -- $(measure "$build/latscope" analyze "$tmp/v6.dat"); a6=$1 a6m=$2
set -- $(measure "$tmp/floor" pread "$tmp/v6.dat" $ranges); fp=$1 fpm=$2
set -- $(measure "$tmp/floor" mmap "$tmp/v6.dat" $ranges); fm=$1 fmm=$2
set -- $(measure "$tmp/floor" wakeup "$tmp/v6.dat" $fields $ranges); fw=$1 fwm=$2
set -- $(measure "$tmp/latscope_iter" "$tmp/v7.dat"); l7=$1 l7m=$2
set -- $(measure "$build/latscope" analyze "$tmp/v7.dat"); a7=$1 a7m=$2
set -- $(measure "$tmp/tracecmd_iter" "$tmp/v7.dat"); t7=$1 t7m=$2
runs_save=$runs
runs=1
set -- $(measure sh -c "trace-cmd report '$tmp/v6.dat' >/dev/null"); r6=$1 r6m=$2
runs=$runs_save

# best of RUNS for "$1" and "$2" (two whole commands), alternating run by run:
# "secs1 secs2 median-of-ratios-2/1"
measure_ab() {
	b1="" b2="" i=0
	: >"$tmp/ratios"
	while [ $i -lt "$runs" ]; do
		for k in 1 2; do
			eval "c=\${$k}"
			perf stat -x, -e task-clock -o "$tmp/p" sh -c "exec $c >/dev/null" 2>/dev/null
			eval "t$k=$(awk -F, '/task-clock/ { printf "%.4f", $1 / 1000 }' "$tmp/p")"
		done
		echo "$t1 $t2" | awk '{ printf "%.4f\n", $2 / $1 }' >>"$tmp/ratios"
		if [ -z "$b1" ] || [ "$(echo "$t1 < $b1" | bc)" -eq 1 ]; then b1=$t1; fi
		if [ -z "$b2" ] || [ "$(echo "$t2 < $b2" | bc)" -eq 1 ]; then b2=$t2; fi
		i=$((i + 1))
	done
	echo "$b1 $b2 $(sort -n "$tmp/ratios" |
		awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }')"
}
if [ -n "$LAT_BASE" ] && [ $use_perf -eq 1 ]; then
	set -- $(measure_ab "$LAT_BASE analyze $tmp/v6.dat" "$build/latscope analyze $tmp/v6.dat")
	ab6=$1 ab6n=$2 ab6r=$3
	set -- $(measure_ab "$LAT_BASE analyze $tmp/v7.dat" "$build/latscope analyze $tmp/v7.dat")
	ab7=$1 ab7n=$2 ab7r=$3
fi

rate() { echo "$events $1" | awk '{ printf "%.1f", ($2 > 0 ? $1 / $2 / 1e6 : 0) }'; }
ratio() { echo "$1 $2" | awk '{ printf "%.1f", ($2 > 0 ? $1 / $2 : 0) }'; }
printf "%-34s %8s %10s %10s\n" "" "cpu s" "Mevents/s" "peak RSS"
[ $use_perf -eq 1 ] && echo "(cpu s: perf task-clock, best of $runs)" || echo "(cpu s: user+sys, best of $runs)"
printf "%-34s %8s %10s %8s K\n" "latscope analyze v6 (whole job)" "$a6" "$(rate "$a6")" "$a6m"
printf "%-34s %8s %10s %8s K\n" "latscope reader only v6" "$l6" "$(rate "$l6")" "$l6m"
printf "%-34s %8s %10s %8s K\n" "libtracecmd iterate v6" "$t6" "$(rate "$t6")" "$t6m"
printf "%-34s %8s %10s %8s K\n" "trace-cmd report v6 (1 run)" "$r6" "$(rate "$r6")" "$r6m"
printf "%-34s %8s %10s %8s K\n" "floor v6: pread + walk" "$fp" "$(rate "$fp")" "$fpm"
printf "%-34s %8s %10s %8s K\n" "floor v6: mmap + walk" "$fm" "$(rate "$fm")" "$fmm"
printf "%-34s %8s %10s %8s K\n" "floor v6: least wakeup analysis" "$fw" "$(rate "$fw")" "$fwm"
printf "%-34s %8s %10s %8s K\n" "latscope analyze v7+zstd" "$a7" "$(rate "$a7")" "$a7m"
printf "%-34s %8s %10s %8s K\n" "latscope reader only v7+zstd" "$l7" "$(rate "$l7")" "$l7m"
printf "%-34s %8s %10s %8s K\n" "libtracecmd iterate v7+zstd" "$t7" "$(rate "$t7")" "$t7m"
echo "analysis v6 vs libtracecmd:       $(ratio "$t6" "$a6")x (goal 5x)"
echo "analysis v6 vs trace-cmd report:  $(ratio "$r6" "$a6")x (goal 30x)"
echo "analysis v7+zstd vs libtracecmd:  $(ratio "$t7" "$a7")x"
echo "reader v6 vs libtracecmd:         $(ratio "$t6" "$l6")x"
echo "reader v7+zstd vs libtracecmd:    $(ratio "$t7" "$l7")x"
fl=$(echo "$fp $fm" | awk '{ print ($1 < $2 ? $1 : $2) }')
echo "floor v6 vs libtracecmd:          $(ratio "$t6" "$fl")x (the most any reader can reach)"
echo "least wakeup analysis vs libtracecmd: $(ratio "$t6" "$fw")x (the most any analysis can reach)"
if [ -n "$ab6" ]; then
	echo "before/after, alternating (LAT_BASE=$LAT_BASE), best of $runs:"
	echo "  analyze v6:      $ab6 -> $ab6n s, median ratio $ab6r"
	echo "  analyze v7+zstd: $ab7 -> $ab7n s, median ratio $ab7r"
fi

# Paired, whole process (bench/pairtime.c): each anchor (A) and latscope analyze
# (B) in turn, PAIRS times (trace-cmd report 5 times); A/B is how many times
# faster latscope is, as the median of the pairs [middle half] [min, max].  Wall
# time is the goal's (the reader's threads use the second core); CPU time beside.
bench_build_pair
pairs=${PAIRS:-21}
pair() { # LABEL N CMD_A ... --vs CMD_B ...
	label=$1 n=$2
	shift 2
	echo "$label (load: $(cut -d' ' -f1-3 /proc/loadavg))"
	"$tmp/pairtime" -n "$n" "$@" | sed 's/^/    /' || echo "    pairtime failed"
}
echo "paired, whole process, median [p25, p75] [min, max]:"
pair "libtracecmd iterate v6 (A) / latscope analyze v6 (B)" "$pairs" \
	"$tmp/tracecmd_iter" "$tmp/v6.dat" --vs "$build/latscope" analyze "$tmp/v6.dat"
pair "trace-cmd report v6 (A) / latscope analyze v6 (B)" 5 \
	trace-cmd report "$tmp/v6.dat" --vs "$build/latscope" analyze "$tmp/v6.dat"
pair "libtracecmd iterate v7+zstd (A) / latscope analyze v7+zstd (B)" "$pairs" \
	"$tmp/tracecmd_iter" "$tmp/v7.dat" --vs "$build/latscope" analyze "$tmp/v7.dat"
pair "latscope analyze --jobs 1 v6 (A) / latscope analyze v6 (B, the default threads)" "$pairs" \
	"$build/latscope" analyze --jobs 1 "$tmp/v6.dat" --vs "$build/latscope" analyze "$tmp/v6.dat"

# perf sched timehist, the anchor of perf's world, on a perf.data of the same
# workload: hackbench recorded by `perf sched record` and, in the same run, by
# `latscope record` (a trace.dat v6 that trace-cmd reads).  Needs root and
# tracefs; HACKBENCH=0 skips it.
if [ "${HACKBENCH:-1}" != 0 ] && command -v perf >/dev/null && command -v hackbench >/dev/null &&
   perf sched record -o "$tmp/hb.perf" -- "$build/latscope" record -o "$tmp/hb.dat" -- \
	hackbench -g 8 -l 1000 >/dev/null 2>&1; then
	hb_perf=$(perf script -i "$tmp/hb.perf" 2>/dev/null | wc -l)
	hb_dat=$("$tmp/latscope_iter" "$tmp/hb.dat" | awk '{ print $1 }')
	echo "hackbench -g 8 -l 1000: perf.data $hb_perf events" \
		"($(du -k "$tmp/hb.perf" | cut -f1) KiB), trace.dat $hb_dat events" \
		"($(du -k "$tmp/hb.dat" | cut -f1) KiB)"
	pair "perf sched timehist (A) / latscope analyze (B), the same hackbench run" "$pairs" \
		perf sched timehist -i "$tmp/hb.perf" --vs "$build/latscope" analyze "$tmp/hb.dat"
	pair "libtracecmd iterate (A) / latscope analyze (B), its trace.dat" "$pairs" \
		"$tmp/tracecmd_iter" "$tmp/hb.dat" --vs "$build/latscope" analyze "$tmp/hb.dat"
	pair "trace-cmd report (A) / latscope analyze (B), its trace.dat" 5 \
		trace-cmd report "$tmp/hb.dat" --vs "$build/latscope" analyze "$tmp/hb.dat"
else
	echo "perf sched anchor skipped (HACKBENCH=0, or perf, hackbench or recording unavailable)"
fi

# Memory does not grow with the trace: 8x more events, same peak RSS
if [ -n "$RSS_SCALE" ]; then
	python3 "$repo/scripts/tracedat_v6_tool.py" repeat "$fixture" "$tmp/big.dat" \
		$((rep * RSS_SCALE))
	runs=1
	set -- $(measure "$tmp/latscope_iter" "$tmp/big.dat"); lb=$1 lbm=$2
	set -- $(measure "$build/latscope" analyze "$tmp/big.dat"); ab=$1 abm=$2
	set -- $(measure "$tmp/tracecmd_iter" "$tmp/big.dat"); tb=$1 tbm=$2
	echo "x$RSS_SCALE events ($((rep * RSS_SCALE)) x fixture): latscope analyze $ab s," \
		"$abm K peak RSS; reader only $lb s, $lbm K;" \
		"libtracecmd $tb s, $tbm K"
fi
