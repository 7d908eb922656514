# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by bench/tracedat.sh and bench/tracedat_threads.sh: the tools both
# build from this tree, into $tmp (set by the caller, with $repo and $build).
#   bench_build_iter   $tmp/latscope_iter: the reader alone (tracedat_latscope.c)
#   bench_build_pair   $tmp/pairtime: paired, alternating whole-process runs
bench_build_iter() {
	[ -f "$build/liblatscope_model.a" ] || { echo "build latscope first ($build)"; exit 2; }
	cc -O2 -o "$tmp/latscope_iter" "$repo/bench/tracedat_latscope.c" -I"$repo/include" \
		"$build/liblatscope_report.a" "$build/liblatscope_analyze.a" \
		"$build/liblatscope_formats.a" "$build/liblatscope_model.a" -Wl,--as-needed \
		$(pkg-config --libs libtraceevent libzstd zlib cairo) -lm -lpthread
}

bench_build_pair() {
	cc -O2 -o "$tmp/pairtime" "$repo/bench/pairtime.c"
}
