#!/bin/sh
# Quick start: installs what latscope needs (Debian 12, as root), builds it, and
# runs the main job on a bundled sample: Willy Tarreau's 2005 LKML mail with
# lat/lat2/lat3 logs, analyzed as pasted, plus a chart of it in out/.
set -e
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
sample=samples/mail/000-tarreau-2.6.11-sched-latency.txt
./build/latscope analyze "$sample"
mkdir -p out
if ./build/latscope render --help >/dev/null 2>&1; then
	./build/latscope render "$sample" -o out/demo.png
	echo
	echo "charts: $(ls out/demo*.png | tr '\n' ' ')"
fi
