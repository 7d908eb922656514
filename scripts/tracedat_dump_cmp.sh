#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/tracedat_dump_cmp.sh BASE_BIN NEW_BIN REPO [EXTRA.dat ...]
#
# A reader change must not change what is read: `latscope dump` (stdout,
# stderr and exit status, both page walks) of BASE_BIN and NEW_BIN must be
# byte-identical on every trace.dat in samples/, on EXTRA files, and on the
# damaged copies tests/e2e/test_tracedat_corrupt.sh makes (same recipe), and
# with --buffer inst1 on the files that have that instance.  With
# LAT_CMP_FORMATS=1 also on copies of the v6 samples with one byte of their
# first 24 KiB (header and event formats) set to 0, '0', '9', LF, '_' or 0xff
# at every 53rd offset (~2,800 copies, ~2 minutes).
# LAT_CMP_JOBS="1 2 4": NEW_BIN also runs with --jobs 1, 2 and 4 (the reader's
# worker threads; BASE_BIN as it is); LAT_CMP_HEAD="100 1000": the damaged
# copies also with -n 100 and -n 1000 (the stop and skip reasons of a walk
# left early).
base=$1
new=$2
repo=$3
shift 3
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
runs=0

cmp1() {	# file label [dump options]
	cf=$1
	label=$2
	shift 2
	for kb in 0 1; do
		LATSCOPE_TRACEDAT_KBUFFER=$kb ASAN_OPTIONS=detect_leaks=0 \
			"$base" dump "$@" "$cf" >"$tmp/b.out" 2>"$tmp/b.err"
		echo "rc $?" >>"$tmp/b.err"
		for j in ${LAT_CMP_JOBS:-default}; do
			jo=
			[ "$j" = default ] || jo="--jobs $j"
			LATSCOPE_TRACEDAT_KBUFFER=$kb ASAN_OPTIONS=detect_leaks=0 \
				"$new" dump $jo "$@" "$cf" >"$tmp/n.out" 2>"$tmp/n.err"
			echo "rc $?" >>"$tmp/n.err"
			runs=$((runs + 1))
			if ! cmp -s "$tmp/b.out" "$tmp/n.out" ||
			   ! cmp -s "$tmp/b.err" "$tmp/n.err"; then
				echo "DIFF: $label (kbuffer=$kb) $jo $*"
				diff "$tmp/b.err" "$tmp/n.err" | head -4
				diff "$tmp/b.out" "$tmp/n.out" | head -6
				fail=$((fail + 1))
			fi
		done
	done
}

for f in $(find "$repo/samples" -name '*.dat' | sort) "$@"; do
	cmp1 "$f" "$(basename "$f")"
	cmp1 "$f" "$(basename "$f") stats" -s
	case $f in *inst1*) cmp1 "$f" "$(basename "$f")" --buffer inst1 ;; esac
done
. "$repo/tests/e2e/tracedat_damage.sh"
for f in "$repo"/samples/tracedat/*.dat; do
	tracedat_damaged "$f" "$tmp/d" || exit 1
	for c in "$tmp"/d/bytes-*.dat "$tmp"/d/cut-*.dat; do
		cmp1 "$c" "$(basename "$f") $(basename "$c" .dat)"
		for h in $LAT_CMP_HEAD; do
			cmp1 "$c" "$(basename "$f") $(basename "$c" .dat)" -n "$h"
		done
	done
done
if [ -n "$LAT_CMP_FORMATS" ]; then
	for f in "$repo"/samples/tracedat/*-v6.dat; do
		off=0
		while [ $off -lt 24576 ]; do
			for val in 0 48 57 10 95 255; do
				cp "$f" "$tmp/c.dat"
				printf "$(printf '\\%03o' $val)" |
					dd of="$tmp/c.dat" bs=1 seek=$off conv=notrunc 2>/dev/null
				"$base" dump "$tmp/c.dat" >"$tmp/b.out" 2>"$tmp/b.err"
				echo "rc $?" >>"$tmp/b.err"
				"$new" dump "$tmp/c.dat" >"$tmp/n.out" 2>"$tmp/n.err"
				echo "rc $?" >>"$tmp/n.err"
				runs=$((runs + 1))
				if ! cmp -s "$tmp/b.out" "$tmp/n.out" ||
				   ! cmp -s "$tmp/b.err" "$tmp/n.err"; then
					echo "DIFF: $(basename "$f") byte $off = $val"
					fail=$((fail + 1))
				fi
			done
			off=$((off + 53))
		done
	done
fi
echo "$runs comparisons, $fail differ"
[ "$fail" -eq 0 ]
