#!/bin/sh
# Renders a chart from every sample into samples/charts/ (docs/charts.md shows them).
#   scripts/render-samples.sh [BUILD_DIR]     (default: build)
# A sample X is drawn with the options in X.args (as the e2e test analyses it) to
# samples/charts/<dir>-<name>.png (several blocks: -1, -2, ...).  Samples with no
# chart yet (their reader or analysis has not landed) are listed as skipped.  The
# hand-built models of the unit tests (a wakeup timeline, a blame table, seed 003's
# histograms, seed 004's schedcnt rows) are written as fixture-*.png.
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$repo/build}
bin=$build/latscope
out=$repo/samples/charts
size=1200x675
[ -x "$bin" ] || { echo "no $bin: build first" >&2; exit 2; }
mkdir -p "$out"
cd "$repo" || exit 2
for f in $(find samples -path samples/charts -prune -o -type f -print | sort); do
	case $f in
	*.expected.json | *.args | *.md | *.sh | */README*) continue ;;
	esac
	dir=$(basename "$(dirname "$f")")
	name=$dir-$(basename "$f" | sed 's/\.[^.]*$//')
	args=""
	[ -f "$f.args" ] && args=$(cat "$f.args")
	# shellcheck disable=SC2086
	if "$bin" render $args --size "$size" "$f" -o "$out/$name.png" >"$out/.log" 2>&1; then
		sed -n 's|^.*/\([^/]*\.png\): .*|  wrote \1|p' "$out/.log"
	else
		echo "  skipped $f: $(grep -v '^ ' "$out/.log" | tail -1 | sed "s|^$f: ||")"
		sed -n 's|^.*/\([^/]*\.png\): .*|  wrote \1|p' "$out/.log"
	fi
done
rm -f "$out/.log"
# the other charts of event traces (docs/charts.md, "Event traces"), as events-*.png
events_chart() {	# NAME ARGS...
	name=$1
	shift
	"$bin" render --size "$size" "$@" -o "$out/events-$name.png" >/dev/null 2>&1 &&
		echo "  wrote events-$name.png" || echo "  skipped events-$name.png" >&2
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
events_chart timeline-queued --task 3125 "$td/record-stacks-v7-zstd.dat"
for t in hist cpus timeline migrate core events; do
	LAT_RENDER_DUMP=$out "$build/tests/test_render_$t" >/dev/null 2>&1 ||
		echo "  test_render_$t failed" >&2
done
ls "$out"/fixture-*.png | sed 's|.*/|  wrote |'
