#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/build/test_static_deps.sh LATSCOPE ARCHIVES...
#
# The executable takes libtracefs, libtraceevent, zstd and zlib from the
# archives CMake found (LATSCOPE_STATIC_DEPS, CMakeLists.txt): none of them
# may be a NEEDED shared library of it.  Each one loaded costs every run its
# mappings and relocations (bench/README.md, "Start-up").  The layer split
# once put the archives before the layers on the link line, and the shared
# libzstd and libz came back unnoticed: this is the check.
set -e
exe=$1
shift
[ $# -gt 0 ] || { echo "skip: no static archives were found, the executable links the shared libraries"; exit 77; }
command -v readelf >/dev/null || { echo "skip: readelf missing"; exit 77; }
needed=$(readelf -d "$exe" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
echo "NEEDED: $(echo $needed)"
bad=0
for a in "$@"; do
	lib=$(basename "$a" .a)		# libzstd
	for n in $needed; do
		case $n in
		"$lib".so*)
			echo "FAIL: $exe needs $n although $a was found"
			bad=1 ;;
		esac
	done
done
[ $bad = 0 ] && echo "ok: none of $(for a in "$@"; do basename "$a" .a; done | tr '\n' ' ')is loaded"
exit $bad
