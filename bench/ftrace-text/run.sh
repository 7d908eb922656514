#!/bin/sh
# ftrace-text reader throughput against `trace-cmd report` producing the same text.
#   bench/ftrace-text/run.sh [BUILD_DIR]     (default build; SIZE_MB=1024 sets the text size)
# The text is the report of tests/fixtures/tracecmd-mixed.dat replicated to
# SIZE_MB; it is generated here under $TMPDIR and removed at the end.
# Everything runs pinned to CPU 0.  The machine is shared, so the rates are given
# per CPU second (task-clock, what the one core spent) and per wall second.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$repo/build}
size_mb=${SIZE_MB:-1024}
fixture=${FIXTURE:-$repo/tests/fixtures/tracecmd-mixed.dat}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/latscope-ftbench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

cmake --build "$build" --target latscope_report latscope_formats -j2 >/dev/null
cc -O2 -std=gnu11 -Wall -Wextra -I"$repo/include" -I"$repo/formats" \
	"$repo/bench/ftrace-text/ftbench.c" "$build/liblatscope_report.a" "$build/liblatscope_analyze.a" \
	"$build/liblatscope_formats.a" "$build/liblatscope_model.a" \
	$(pkg-config --libs libtraceevent cairo libzstd zlib) -lm -o "$tmp/ftbench"

# CPU and wall seconds of a command: "cpu wall"
cost() {
	perf stat -x, -e task-clock -o "$tmp/stat" taskset -c 0 "$@" >/dev/null 2>&1
	awk -F, '/task-clock/ { printf "%.6f %.6f\n", $1 / 1000, $1 / 1000 / $6 }' "$tmp/stat"
}

# anchor 1: trace-cmd report making the text of the fixture (5 runs, to /dev/null)
trace-cmd report -i "$fixture" >"$tmp/one.txt" 2>/dev/null
one_lines=$(wc -l <"$tmp/one.txt")
one_bytes=$(wc -c <"$tmp/one.txt")
tc_cpu=0
tc_wall=0
for i in 1 2 3 4 5; do
	set -- $(cost trace-cmd report -i "$fixture")
	tc_cpu=$(echo "$tc_cpu + $1" | bc -l)
	tc_wall=$(echo "$tc_wall + $2" | bc -l)
done

# the big text: the report replicated (timestamps repeat; the reader does not care)
copies=$(( (size_mb * 1048576 + one_bytes - 1) / one_bytes ))
i=0
while [ $i -lt 8 ]; do cat "$tmp/one.txt"; i=$((i + 1)); done >"$tmp/eight.txt"
i=0
while [ $((i * 8)) -lt "$copies" ]; do cat "$tmp/eight.txt"; i=$((i + 1)); done >"$tmp/big.txt"
rm -f "$tmp/eight.txt"
big_lines=$(wc -l <"$tmp/big.txt")
big_mb=$(( $(wc -c <"$tmp/big.txt") / 1048576 ))

# anchor 2: only reading the file (wc -l), warm cache
set -- $(cost wc -l "$tmp/big.txt")
wc_cpu=$1

# ours, twice (the first warms the page cache); the small file shows RSS does not grow
taskset -c 0 "$tmp/ftbench" "$tmp/big.txt" >/dev/null
out=$(taskset -c 0 "$tmp/ftbench" "$tmp/big.txt")
small=$(taskset -c 0 "$tmp/ftbench" "$tmp/one.txt")
field() { echo "$1" | sed -E "s|.*$2 ([0-9.]+).*|\\1|"; }
ours_cpu=$(field "$out" "lines/cpu_s")
ours_wall=$(field "$out" "lines/wall_s")
tc_lcpu=$(echo "5 * $one_lines / $tc_cpu" | bc -l)
tc_lwall=$(echo "5 * $one_lines / $tc_wall" | bc -l)
wc_lcpu=$(echo "$big_lines / $wc_cpu" | bc -l)

echo "text: ${big_mb} MiB, $big_lines lines (trace-cmd report of $(basename "$fixture") x $((i * 8)))"
echo "ftbench: $out"
printf '%-34s %12s %12s %8s\n' "" "lines/cpu_s" "lines/wall_s" "ratio"
printf '%-34s %12.0f %12.0f\n' "ftrace-text reader (ours)" "$ours_cpu" "$ours_wall"
printf '%-34s %12.0f %12.0f %7.1fx\n' "trace-cmd report (same text)" "$tc_lcpu" "$tc_lwall" \
	"$(echo "$ours_cpu / $tc_lcpu" | bc -l)"
printf '%-34s %12.0f %12s %7.2fx\n' "wc -l (reading only)" "$wc_lcpu" "-" \
	"$(echo "$ours_cpu / $wc_lcpu" | bc -l)"
echo "peak RSS: $(field "$out" peak_rss_kib) KiB on ${big_mb} MiB," \
	"$(field "$small" peak_rss_kib) KiB on $((one_bytes / 1024)) KiB"
echo "goal >= 3000000 lines/s on one core (CPU time): $(echo "$ours_cpu >= 3000000" | bc)"

# end to end: `latscope analyze` (reader + wakeup analysis + text report) on the same
# text; the replicated timestamps make odd wakeups, this is about time and memory
if [ -x "$build/latscope" ]; then
	for f in "$tmp/one.txt" "$tmp/big.txt"; do
		/usr/bin/time -f "%U %S %M" -o "$tmp/time" taskset -c 0 "$build/latscope" analyze \
			"$f" >/dev/null 2>&1 || true
		read -r u s m <"$tmp/time"
		printf 'latscope analyze %5s MiB: %.2f CPU s, %.0f lines/cpu_s, peak RSS %s KiB\n' \
			$(( $(wc -c <"$f") / 1048576 )) "$(echo "$u + $s" | bc -l)" \
			"$(echo "$(wc -l <"$f") / ($u + $s + 0.001)" | bc -l)" "$m"
	done
fi
