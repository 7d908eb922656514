#!/bin/sh
# Renders a chart from every sample into samples/charts/ (docs/charts.md shows them).
#   scripts/render-samples.sh [BUILD_DIR]     (default: build)
# Every sample X (a file of samples/ but the checks, notes and scripts) is drawn from
# samples/ with the options in X.args, as tests/e2e/run_samples.sh analyses it, to
# samples/charts/<dir>-<name>.png (several blocks: -1, -2, ...).  A block with no chart
# is listed with the reason; a sample none of whose blocks has a chart fails the run
# (exit 1), as does an event chart below or a render test.  The hand-built models of
# the unit tests (a wakeup timeline, a blame table, seed 003's histograms, seed 004's
# schedcnt rows, 256 CPUs of summary rows) are written as fixture-*.png.
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$repo/build}
case $build in /*) ;; *) build=$PWD/$build ;; esac
bin=$build/latscope
out=$repo/samples/charts
size=1200x675
[ -x "$bin" ] || { echo "no $bin: build first" >&2; exit 2; }
mkdir -p "$out"
# charts of samples that are gone or renamed would stay behind
rm -f "$out"/*.png
failed=0
cd "$repo/samples" || exit 2
for f in $(find . -path ./charts -prune -o -type f -print | sort); do
	case $f in
	# the samples' checks and notes; *.err / *.out: what perf printed beside its
	# output when the samples were made (samples/README-imports.md), not inputs
	*.expected.json | *.args | *.md | *.sh | */README* | *.err | *.out) continue ;;
	esac
	f=${f#./}
	name=$(dirname "$f")-$(basename "$f" | sed 's/\.[^.]*$//')
	args=""
	[ -f "$f.args" ] && args=$(cat "$f.args")
	# shellcheck disable=SC2086
	"$bin" render $args --size "$size" "$f" -o "$out/$name.png" >"$out/.log" 2>&1
	sed -n 's|^.*/\([^/]*\.png\): .*|  wrote \1|p' "$out/.log"
	grep -F ': no chart: ' "$out/.log" | sed "s|^$f: |  no chart, $f: |"
	if ! grep -q '\.png: ' "$out/.log"; then
		echo "  FAILED $f: $(grep -v '^ ' "$out/.log" | tail -1 | sed "s|^$f: ||")"
		failed=$((failed + 1))
	fi
done
rm -f "$out/.log"
cd "$repo" || exit 2
# the other charts of event traces (docs/charts.md, "Event traces"), as events-*.png
events_chart() {	# NAME ARGS...
	name=$1
	shift
	if "$bin" render --size "$size" "$@" -o "$out/events-$name.png" >/dev/null 2>&1; then
		echo "  wrote events-$name.png"
	else
		echo "  FAILED events-$name.png" >&2
		failed=$((failed + 1))
	fi
}
td=samples/tracedat
events_chart histogram --chart histogram "$td/record-stacks-v7-zstd.dat"
events_chart histogram-task --chart histogram --task 3040 "$td/record-stacks-v7-zstd.dat"
events_chart probe --chart probe "$td/probe-stop-v7-zstd.dat"
events_chart ab "$td/record-stacks-v7-zstd.dat" "$td/cyclictest-stress-v7-zstd.dat"
events_chart blame --chart blame "$td/record-stacks-v7-zstd.dat"
events_chart cpus --chart cpus "$td/cyclictest-stress-v7-zstd.dat"
events_chart timeline-stalls $(cat "$td/cyclictest-stress-v7-zstd.dat.args") \
	"$td/cyclictest-stress-v7-zstd.dat"
# as/3125's one wait ended on CPU1, whose switches out of idle this kernel never logs: a wait
# of low trust, drawn only when asked for
events_chart timeline-queued --task 3125 --include-untrusted "$td/record-stacks-v7-zstd.dat"
for t in hist cpus timeline migrate core events summary; do
	if ! LAT_RENDER_DUMP=$out "$build/tests/test_render_$t" >/dev/null 2>&1; then
		echo "  FAILED test_render_$t" >&2
		failed=$((failed + 1))
	fi
done
ls "$out"/fixture-*.png | sed 's|.*/|  wrote |'
if [ "$failed" -gt 0 ]; then
	echo "$failed failed: a sample without a chart, an event chart or a render test" >&2
	exit 1
fi
