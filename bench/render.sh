#!/bin/sh
# bench/render: time a 1 M-slice timeline render against the wakeup analysis of the
# same schedule (bench/render_bench.c), plus trace-cmd report over the trace-cmd fixture
# as an outside anchor.  Usage: bench/render.sh [BUILD_DIR] [N_SLICES]
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$repo/build}
n=${2:-1000000}
out=$(mktemp -d /tmp/latscope-bench-render.XXXXXX)
trap 'rm -rf "$out"' EXIT
cc -O2 -std=gnu11 -I"$repo/include" -I"$repo/render" "$repo/bench/render_bench.c" \
	"$build/liblatscope_render.a" "$build/liblatscope_report.a" "$build/liblatscope_analyze.a" "$build/liblatscope_formats.a" "$build/liblatscope_model.a" $(pkg-config --cflags --libs cairo libtraceevent libzstd zlib) \
	-lm -o "$out/render_bench"
"$out/render_bench" "$n" "$out/tl"
fixture=$build/fixtures/tracecmd-mixed-v6.dat
if command -v trace-cmd >/dev/null && [ -r "$fixture" ]; then
	start=$(date +%s.%N)
	events=$(trace-cmd report "$fixture" 2>/dev/null | wc -l)
	end=$(date +%s.%N)
	echo "anchor            trace-cmd report: $events lines of $(basename "$fixture") in" \
		"$(echo "$end - $start" | bc) s"
fi
