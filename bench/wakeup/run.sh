#!/bin/sh
# Peak RSS of the wakeup analysis for 1e5, 1e6 and 1e7 synthetic steps (about
# 2.06 events each): the numbers must stay flat.  Usage: bench/wakeup/run.sh [builddir]
set -e
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$here/build}
out=$build/wkmem
cc -O2 -std=gnu11 -I"$here/include" "$here/bench/wakeup/wkmem.c" "$build/liblatscope_report.a" "$build/liblatscope_analyze.a" \
	"$build/liblatscope_formats.a" "$build/liblatscope_model.a" \
	$(pkg-config --libs libtraceevent libzstd zlib) -lm -o "$out"
for n in 100000 1000000 10000000; do
	"$out" $n
done
