#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/file_cycles.sh [BUILD_DIR]
#
# Calls between files go one way inside a layer too: prints every pair of
# objects of a static library that each use a symbol the other defines (a
# 2-cycle), for liblatscope_{model,formats,analyze,report,render,record}.a.
# Prints nothing, exit status 0, when there is none.
build=${1:-build}
case $build in /*) ;; *) build=$PWD/$build ;; esac
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
found=0
for lib in model formats analyze report render record; do
	a=$build/liblatscope_$lib.a
	[ -f "$a" ] || { echo "missing: $a" >&2; exit 2; }
	rm -rf "$tmp/x"
	mkdir "$tmp/x"
	(cd "$tmp/x" && ar x "$a") || exit 2
	# "object symbol" for what each object defines, and for what it uses
	for o in "$tmp"/x/*.o; do
		n=${o##*/}
		nm "$o" | awk -v o="$n" '$2 ~ /^[TDBR]$/ {print $3, o}' >>"$tmp/def"
		nm -u "$o" | awk -v o="$n" '{print $2, o}' >>"$tmp/use"
	done
	sort -o "$tmp/def" "$tmp/def"
	sort -o "$tmp/use" "$tmp/use"
	# user -> definer edges, then the pairs with both directions
	join "$tmp/use" "$tmp/def" | awk '$2 != $3 {print $2, $3}' | sort -u >"$tmp/edges"
	awk '{e[$1 " " $2] = 1} END {for (k in e) {split(k, p, " ");
		if (p[1] < p[2] && ((p[2] " " p[1]) in e)) print p[1], p[2]}}' "$tmp/edges" |
		sort | while read -r x y; do
			echo "liblatscope_$lib.a: $x <-> $y"
		done >"$tmp/cyc"
	if [ -s "$tmp/cyc" ]; then
		cat "$tmp/cyc"
		found=1
	fi
	rm -f "$tmp/def" "$tmp/use"
done
[ "$found" = 0 ]
