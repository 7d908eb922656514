#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Damaged trace.dat files never crash the reader: for each sample, 24 copies
# with 1-8 bytes overwritten at deterministic places (spread over the metadata
# and the data) and 8 cut copies are dumped with both page walks; the exit
# status must be 0 (with or without a warning) or 2 (nothing readable), never
# a signal or a sanitizer report (the ASan build runs this too).
# Usage: test_tracedat_corrupt.sh BIN REPO
bin=$1
repo=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
runs=0

try() {
	for kb in 0 1; do
		LATSCOPE_TRACEDAT_KBUFFER=$kb ASAN_OPTIONS=detect_leaks=0 \
			"$bin" dump "$1" >/dev/null 2>"$tmp/err"
		rc=$?
		runs=$((runs + 1))
		if [ "$rc" -ne 0 ] && [ "$rc" -ne 2 ]; then
			echo "FAIL: $2 (walk kbuffer=$kb): exit $rc"
			head -5 "$tmp/err"
			fail=$((fail + 1))
		fi
	done
}

. "$repo/tests/e2e/tracedat_damage.sh"
for f in "$repo"/samples/tracedat/*.dat; do
	tracedat_damaged "$f" "$tmp/d" || exit 1
	for c in "$tmp"/d/bytes-*.dat "$tmp"/d/cut-*.dat; do
		try "$c" "$(basename "$f") $(basename "$c" .dat)"
	done
done
echo "$runs runs, $fail failed"
[ "$fail" -eq 0 ]
