#!/bin/sh
# Renders a chart from every sample into samples/charts/ (docs/charts.md shows them).
#   scripts/render-samples.sh [BUILD_DIR]     (default: build)
# Samples whose reader has not landed yet are listed as skipped.  The charts of
# hand-built models used by the unit tests (seed 003's histograms, seed 004's
# schedcnt rows, a wakeup timeline, a blame table) are written as fixture-*.png.
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$repo/build}
bin=$build/latscope
out=$repo/samples/charts
size=1200x675
[ -x "$bin" ] || { echo "no $bin: build first" >&2; exit 2; }
mkdir -p "$out"
cd "$repo" || exit 2
for f in $(find samples -path samples/charts -prune -o -type f -name '*.txt' -print | sort); do
	name=$(basename "$f" .txt)
	if "$bin" render --size "$size" "$f" -o "$out/$name.png" >/dev/null 2>"$out/.err"; then
		ls "$out/$name".png "$out/$name"-*.png 2>/dev/null | sed 's|.*/|  wrote |'
	else
		echo "  skipped $f: $(grep -v '^ ' "$out/.err" | tail -1)"
	fi
done
rm -f "$out/.err"
for t in hist cpus timeline core; do
	LAT_RENDER_DUMP=$out "$build/tests/test_render_$t" >/dev/null 2>&1 ||
		echo "  test_render_$t failed" >&2
done
ls "$out"/fixture-*.png | sed 's|.*/|  wrote |'
