#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/build/test_deb.sh BUILD_DIR REPO SANITIZED
#
# The Debian package (CPack DEB, CMakeLists.txt): built from this build, it holds
# /usr/bin/latscope, the render module in /usr/lib/latscope, the man pages and the
# completions, and Depends on cairo (the module's) and libc (dpkg-shlibdeps).  Installed
# with dpkg into a scratch root (its own dpkg database: the machine's own packages and
# installs are untouched) whose status holds this machine's entries of the packages the
# .deb depends on, so dpkg checks the Depends against what is really installed here (into
# a root without them it refuses: dependency problems).  From there `latscope render`
# draws a sample into a PNG, with the module of the package; the page and the completions
# are in place; `dpkg -r` removes every file again.  A sanitized build is not packaged.
build=$1
repo=$2
. "$repo/tests/e2e/check.sh"
if [ "$3" = ON ]; then
	echo "skip: a sanitized build (LATSCOPE_SANITIZE) is not packaged"
	exit 77
fi
for t in cpack dpkg dpkg-deb dpkg-shlibdeps; do
	command -v $t >/dev/null 2>&1 || { echo "skip: $t missing (dpkg-dev, cmake)"; exit 77; }
done
tmp=$(mktemp -d /tmp/latscope-deb.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT
unset LATSCOPE_RENDER_MODULE
lat3=$repo/samples/lat3/seed000-lat3-vs-shell-loop.txt

cpack --config "$build/CPackConfig.cmake" -G DEB -B "$tmp/pkg" >"$tmp/cpack.out" 2>&1
deb=$(ls "$tmp"/pkg/latscope_*.deb 2>/dev/null)
check "cpack -G DEB: one package" '[ -f "$deb" ]' || cat "$tmp/cpack.out"
dpkg-deb -c "$deb" | awk '{ print $6 }' >"$tmp/files"
for f in ./usr/bin/latscope ./usr/lib/latscope/latscope-render.so \
	./usr/share/man/man1/latscope.1.gz ./usr/share/man/man1/latscope-render.1.gz \
	./usr/share/bash-completion/completions/latscope ./usr/share/zsh/vendor-completions/_latscope; do
	check "the package holds $f" 'grep -qx "$f" "$tmp/files"'
done
dpkg-deb -f "$deb" Description >"$tmp/desc"
check "Description: the synopsis once, then the extended lines (none shown verbatim)" \
	'[ "$(grep -c "explain Linux scheduling latency" "$tmp/desc")" -eq 1 ] &&
	 [ "$(sed 1d "$tmp/desc" | grep -c "^ [^ ]")" -eq 5 ] && ! grep -q "^  " "$tmp/desc"'
depends=$(dpkg-deb -f "$deb" Depends)
check "Depends: cairo (the module) and libc ($depends)" \
	'echo "$depends" | grep -q "libcairo2" && echo "$depends" | grep -q "libc6"'

# a root of its own: its status holds this machine's stanzas of the Depends
root=$tmp/root
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" "$root/var/lib/dpkg/triggers"
touch "$root/var/lib/dpkg/status" "$root/var/lib/dpkg/available"
cp -r "$root" "$tmp/bare"
for p in $(echo "$depends" | tr ',' '\n' | sed 's/(.*)//; s/|.*//; s/ //g'); do
	dpkg-query -s "$p" >>"$root/var/lib/dpkg/status" && echo >>"$root/var/lib/dpkg/status"
	touch "$root/var/lib/dpkg/info/$(dpkg-query -W -f='${binary:Package}' "$p").list"
done
# the ldconfig of the package's scripts (CPack adds them for /usr/lib) runs without chroot
dpkg --root="$tmp/bare" --force-script-chrootless -i "$deb" >"$tmp/bare.out" 2>&1
check "dpkg -i into a root without its Depends: refused" \
	'[ $? -ne 0 ] && grep -q "dependency problems" "$tmp/bare.out"'
dpkg --root="$root" --force-script-chrootless -i "$deb" >"$tmp/dpkg.out" 2>&1
check "dpkg -i: exit 0, installed" \
	'[ $? -eq 0 ] && dpkg --root="$root" -s latscope | grep -qx "Status: install ok installed"' ||
	cat "$tmp/dpkg.out"
cd "$tmp" || exit 2
LD_DEBUG=files "$root/usr/bin/latscope" render "$lat3" -o "$tmp/a.png" >/dev/null 2>"$tmp/ld"
check "latscope render from the package: exit 0, a 1600x900 PNG" \
	'[ $? -eq 0 ] && [ "$(python3 "$repo/tests/e2e/png_stats.py" "$tmp/a.png" | cut -d" " -f1-2)" = "1600 900" ]'
check "... drawn by the package's module" \
	'grep -q "file=$root/usr/bin/../lib/latscope/latscope-render.so" "$tmp/ld"'
check "latscope --version from the package" \
	'"$root/usr/bin/latscope" --version | grep -q "^latscope 0.1.0 (commit "'
check "man latscope-render from the package" \
	'MANPATH= man -M "$root/usr/share/man" latscope-render 2>/dev/null | grep -q "latscope-render - draw"'
dpkg --root="$root" --force-script-chrootless -r latscope >"$tmp/rm.out" 2>&1
check "dpkg -r: exit 0, every file gone" \
	'[ $? -eq 0 ] && [ -z "$(find "$root/usr" -type f 2>/dev/null)" ]'
[ "$fail" -eq 0 ] && echo "test_deb: all passed"
exit "$((fail > 0))"
