#!/bin/sh
# Coverage-guided fuzzing of every reader harness with libFuzzer (clang), for
# FUZZ_SECONDS each (default 60), seeded from samples/.  Any crash, leak,
# timeout (> 10 s per input) or sanitizer report fails; the input is kept in
# build-fuzz/artifacts/ to be minimised into tests/fuzz/crashers/.
set -e
cd "$(dirname "$0")/.."
secs=${FUZZ_SECONDS:-60}
CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DLATSCOPE_FUZZ=ON \
	-DLATSCOPE_WERROR=ON >/dev/null
cmake --build build-fuzz -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
mkdir -p build-fuzz/artifacts
status=0
for h in build-fuzz/tests/fuzz/fuzz_*; do
	name=$(basename "$h")
	corpus=build-fuzz/corpus/$name
	mkdir -p "$corpus"
	find samples tests/fuzz/crashers -type f -size -1M ! -name '*.json' ! -name '*.args' \
		! -name '*.png' ! -name '*.svg' -exec cp -n {} "$corpus"/ \; 2>/dev/null || true
	# the merge harness reads JSON: reports with summaries, and the expected reports
	[ "$name" = fuzz_merge ] && find tests/fuzz/merge samples -type f -size -1M \
		-name '*.json' -exec cp -n {} "$corpus"/ \; 2>/dev/null
	if ASAN_OPTIONS=detect_leaks=1 "$h" "$corpus" -max_total_time="$secs" -timeout=10 \
		-rss_limit_mb=2048 -max_len=262144 -print_final_stats=1 \
		-artifact_prefix=build-fuzz/artifacts/"$name"- >build-fuzz/"$name".log 2>&1; then
		runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' build-fuzz/"$name".log |
			grep -o '[0-9]*$')
		echo "fuzz: $name: ${secs}s, ${runs:-?} runs, no crash"
	else
		echo "fuzz: $name: FAILED (see build-fuzz/$name.log)"
		tail -30 build-fuzz/"$name".log
		status=1
	fi
done
exit $status
