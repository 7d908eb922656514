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

for f in "$repo"/samples/tracedat/*.dat; do
	size=$(wc -c <"$f")
	i=1
	while [ $i -le 24 ]; do
		cp "$f" "$tmp/c.dat"
		n=$((i % 8 + 1))
		j=0
		while [ $j -lt $n ]; do
			# a multiplicative walk over the file; values 0, 0xff and others
			off=$(((i * 7919 + j * 104729) * 2654435761 % size))
			val=$(((i * 37 + j * 11) % 256))
			[ $((i % 3)) -eq 0 ] && val=255
			[ $((i % 5)) -eq 0 ] && val=0
			printf "$(printf '\\%03o' $val)" |
				dd of="$tmp/c.dat" bs=1 seek=$off conv=notrunc 2>/dev/null
			j=$((j + 1))
		done
		try "$tmp/c.dat" "$(basename "$f") bytes #$i"
		i=$((i + 1))
	done
	i=1
	while [ $i -le 8 ]; do
		head -c $((size * i / 9)) "$f" >"$tmp/c.dat"
		try "$tmp/c.dat" "$(basename "$f") cut $i/9"
		i=$((i + 1))
	done
done
echo "$runs runs, $fail failed"
[ "$fail" -eq 0 ]
