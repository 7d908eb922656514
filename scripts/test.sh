#!/bin/sh
# The whole test suite: installs what it needs, then builds twice (warnings as
# errors; AddressSanitizer + UndefinedBehaviorSanitizer) and runs every test in
# both, then the readers' worker-thread tests in a ThreadSanitizer build.  Tests
# labelled "root" record on the real kernel and need root + tracefs; the "fleet"
# test (two ClickHouse servers on loopback) runs in the release build only: the C
# code it drives (export, merge) is covered under ASan by the e2e tests.
set -e
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
jobs=$(nproc 2>/dev/null || echo 2)

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLATSCOPE_WERROR=ON >/dev/null
cmake --build build -j "$jobs"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DLATSCOPE_WERROR=ON -DLATSCOPE_SANITIZE=ON >/dev/null
cmake --build build-asan -j "$jobs"

status=0
echo "== tests (release build) =="
ctest --test-dir build --output-on-failure || status=1
echo "== tests (ASan + UBSan build) =="
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp \
	ctest --test-dir build-asan --output-on-failure -LE "bench|fleet" || status=1
echo "== the readers' worker threads (ThreadSanitizer build) =="
cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLATSCOPE_WERROR=ON -DLATSCOPE_TSAN=ON \
	>/dev/null
cmake --build build-tsan -j "$jobs" --target latscope lat_fixtures test_tracedat_par \
	test_ftrace_text_par
TSAN_OPTIONS=halt_on_error=1 ctest --test-dir build-tsan --output-on-failure \
	-R '^(test_tracedat_par|test_ftrace_text_par|e2e_test_tracedat|e2e_test_ftrace_text)$' ||
	status=1
echo "== fuzzing (libFuzzer, ${FUZZ_SECONDS:-30}s per harness) =="
FUZZ_SECONDS=${FUZZ_SECONDS:-30} ./scripts/fuzz.sh || status=1
exit $status
