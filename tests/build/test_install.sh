#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/build/test_install.sh BUILD_DIR REPO
#
# `cmake --install BUILD --prefix DIR` to a prefix of its own (under /tmp, nothing else
# written), then `latscope render` from there: the executable finds its module in
# DIR/lib/latscope relative to itself (/proc/self/exe), not in the libdir configured
# (/usr/local/lib/latscope, where an install to another prefix once failed: "charts need
# /usr/local/lib/latscope/latscope-render.so").  The tree moved elsewhere, and reached
# through a symbolic link, still draws; without its module the message names where it
# looked last.
build=$1
repo=$2
. "$repo/tests/e2e/check.sh"
tmp=$(mktemp -d /tmp/latscope-install.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT
unset LATSCOPE_RENDER_MODULE
lat3=$repo/samples/lat3/seed000-lat3-vs-shell-loop.txt
png() { python3 "$repo/tests/e2e/png_stats.py" "$1" | cut -d' ' -f1-2; }

cmake --install "$build" --prefix "$tmp/x" >"$tmp/install.out" 2>&1
check "cmake --install --prefix: exit 0" '[ $? -eq 0 ]'
check "the executable and the module in the prefix" \
	'[ -x "$tmp/x/bin/latscope" ] && [ -f "$tmp/x/lib/latscope/latscope-render.so" ]'
if [ -d "$build/dist/man1" ]; then
	check "the man pages and completions in the prefix" \
		'[ -f "$tmp/x/share/man/man1/latscope.1.gz" ] &&
		 [ -f "$tmp/x/share/man/man1/latscope-render.1.gz" ] &&
		 [ -f "$tmp/x/share/bash-completion/completions/latscope" ] &&
		 [ -f "$tmp/x/share/zsh/vendor-completions/_latscope" ]'
	check "man -M finds latscope-render(1) there" \
		'MANPATH= man -M "$tmp/x/share/man" -w latscope-render >/dev/null 2>&1'
fi
cd "$tmp" || exit 2
LD_DEBUG=files "$tmp/x/bin/latscope" render "$lat3" -o "$tmp/a.png" >/dev/null 2>"$tmp/ld"
check "render from the prefix: exit 0, a 1600x900 PNG" \
	'[ $? -eq 0 ] && [ "$(png "$tmp/a.png")" = "1600 900" ]'
check "... drawn by the prefix's own module" \
	'grep -q "file=$tmp/x/bin/../lib/latscope/latscope-render.so" "$tmp/ld"'
mv "$tmp/x" "$tmp/y"
ln -s "$tmp/y/bin/latscope" "$tmp/link"
"$tmp/link" render "$lat3" -o "$tmp/b.png" >/dev/null 2>&1
check "the tree moved, through a link: the same chart" '[ $? -eq 0 ] && cmp -s "$tmp/a.png" "$tmp/b.png"'
rm "$tmp/y/lib/latscope/latscope-render.so"
"$tmp/y/bin/latscope" render "$lat3" -o "$tmp/c.png" >/dev/null 2>"$tmp/err"
st=$?
# exit 0 only where this build's module is installed in the configured libdir too
check "no module in the tree: the configured libdir, or a clear error" \
	'[ $st -eq 0 ] || { [ $st -eq 1 ] && grep -q "^latscope: charts need /.*/latscope/latscope-render.so: " "$tmp/err"; }'
[ "$fail" -eq 0 ] && echo "test_install: all passed"
exit "$((fail > 0))"
