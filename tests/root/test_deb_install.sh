#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The Debian package installed for real (needs root; CI is a fresh Debian 12 machine): built
# from this build with CPack, its Depends name the package of every library its two ELF
# files need (readelf NEEDED, resolved as ldd resolves it, owned per dpkg -S); `dpkg -i`
# installs and configures it with nothing left for `apt-get install -f`; from
# /usr/bin/latscope, --version names the commit, `analyze --json` of a sample prints its
# expected JSON, `analyze` its text, and `render` draws a PNG with /usr/lib/latscope's
# module.  `dpkg -r` removes it at the end, and every file with it, then `dpkg --purge`
# forgets it; on a failure the trap purges it.
# tests/build/test_deb.sh checks the package in a scratch dpkg root; this one, the machine's.
# A machine with a latscope package or a /usr/bin/latscope already is left alone (skip); a
# lock keeps two runs (several worktrees on one machine) apart.
# usage: test_deb_install.sh LATSCOPE (of a build directory)
set -u
bin=$1
build=$(cd "$(dirname "$bin")" && pwd)
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/e2e/check.sh"
skip() { echo "skip: $*"; exit 0; }
[ "$(id -u)" = 0 ] || skip "needs root (dpkg -i into this machine)"
for t in cpack dpkg dpkg-deb dpkg-shlibdeps apt-get readelf ldd flock python3; do
	command -v $t >/dev/null 2>&1 || skip "$t missing"
done
[ -f "$build/CPackConfig.cmake" ] || skip "no CPackConfig.cmake in $build"
grep -q '^LATSCOPE_SANITIZE:BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null &&
	skip "a sanitized build (LATSCOPE_SANITIZE) is not packaged"
exec 9>/run/lock/latscope-test-deb-install.lock
flock -w 900 9 || skip "another run holds /run/lock/latscope-test-deb-install.lock"
dpkg-query -W -f='${Status}' latscope 2>/dev/null | grep -q "installed" &&
	skip "a latscope package is installed here already: not replaced, not removed"
[ -e /usr/bin/latscope ] && skip "/usr/bin/latscope exists (not of a package): not replaced"

tmp=$(mktemp -d /tmp/latscope-deb-install.XXXXXX) || exit 2
installed=0
cleanup() {
	[ "$installed" = 1 ] && dpkg --purge latscope >"$tmp/trap-rm.out" 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
unset LATSCOPE_RENDER_MODULE
# dpkg waits for nobody: another apt or dpkg run (other work on the machine) holds its lock
dpkg_retry() {
	for _i in $(seq 60); do
		dpkg "$@" >"$tmp/dpkg.out" 2>&1 && return 0
		grep -q "lock" "$tmp/dpkg.out" || return 1
		sleep 5
	done
	return 1
}

cpack --config "$build/CPackConfig.cmake" -G DEB -B "$tmp/pkg" >"$tmp/cpack.out" 2>&1
deb=$(ls "$tmp"/pkg/latscope_*.deb 2>/dev/null)
check "cpack -G DEB: one package" '[ -f "$deb" ]' || { cat "$tmp/cpack.out"; exit 1; }

# --- Depends: the package of every library needed, and nothing more ---------------------
depends=$(dpkg-deb -f "$deb" Depends)
echo "$depends" | tr ',' '\n' | sed 's/(.*)//; s/|.*//; s/ //g' | sort -u >"$tmp/dep.names"
dpkg-deb -x "$deb" "$tmp/x"
for f in usr/bin/latscope usr/lib/latscope/latscope-render.so; do
	readelf -d "$tmp/x/$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' >"$tmp/needed"
	ldd "$tmp/x/$f" >"$tmp/ldd"
	while read -r so; do
		path=$(awk -v s="$so" '$1 == s && $2 == "=>" { print $3 }' "$tmp/ldd")
		# usrmerge: dpkg knows /lib/..., the loader may say /usr/lib/...
		pkg=$({ dpkg -S "$path" || dpkg -S "${path#/usr}" || dpkg -S "$(readlink -f "$path")"; } \
			2>/dev/null | head -1 | cut -d: -f1)
		echo "$f $so $path ${pkg:-?}"
	done <"$tmp/needed"
done >"$tmp/libs"
check "every needed library is found and owned by a package (readelf, ldd, dpkg -S)" \
	'[ "$(wc -l <"$tmp/libs")" -ge 4 ] && ! grep -q " ?$" "$tmp/libs"' || cat "$tmp/libs"
awk '{ print $4 }' "$tmp/libs" | sort -u >"$tmp/lib.pkgs"
check "Depends ($depends) = the packages of the libraries ($(tr '\n' ' ' <"$tmp/lib.pkgs"))" \
	'cmp -s "$tmp/dep.names" "$tmp/lib.pkgs"'

# --- installed into this machine ----------------------------------------------------------
installed=1
dpkg_retry -i "$deb"
check "dpkg -i: exit 0" '[ $? -eq 0 ]' || cat "$tmp/dpkg.out"
check "dpkg -s: install ok installed (configured: its Depends were met)" \
	'dpkg-query -W -f="\${Status}" latscope | grep -qx "install ok installed"'
apt-get -s -f install >"$tmp/apt-f.out" 2>&1
check "apt-get install -f has nothing to do" \
	'grep -q "^0 upgraded, 0 newly installed, 0 to remove" "$tmp/apt-f.out"' || tail -5 "$tmp/apt-f.out"
check "the package's files are in place" \
	'[ -x /usr/bin/latscope ] && [ -f /usr/lib/latscope/latscope-render.so ] &&
	 [ -f /usr/share/man/man1/latscope.1.gz ]'

# --- run from /usr/bin ----------------------------------------------------------------------
check "latscope --version: the version and the commit" \
	'/usr/bin/latscope --version | grep -q "^latscope 0\.1\.0 (commit "'
cd "$repo/samples" || exit 2
sample=tracedat/cyclictest-stress-v7-zstd.dat
# shellcheck disable=SC2046
/usr/bin/latscope analyze --json $(cat "$sample.args") "$sample" >"$tmp/a.json" 2>/dev/null
check "analyze --json $(cat "$sample.args") $sample: exit 0, its expected JSON" \
	'[ $? -eq 0 ] && cmp -s "$tmp/a.json" "$sample.expected.json"'
/usr/bin/latscope analyze "$sample" >"$tmp/a.txt" 2>&1
# its worst wait: cyclictest/20718, 5.71 ms (tests/e2e/test_gate.sh, test_export.sh)
check "analyze $sample: exit 0, the worst wait cyclictest/20718 of 5.71 ms" \
	'[ $? -eq 0 ] && grep -q "worst wakeup: cyclictest/20718 waited 5\.71 ms" "$tmp/a.txt"'
LD_DEBUG=files /usr/bin/latscope render "$sample" -o "$tmp/c.png" >/dev/null 2>"$tmp/ld"
check "render $sample: exit 0, a 1600x900 PNG" \
	'[ $? -eq 0 ] && [ "$(head -c 8 "$tmp/c.png" | od -An -tx1 | tr -d " ")" = 89504e470d0a1a0a ] &&
	 [ "$(python3 "$repo/tests/e2e/png_stats.py" "$tmp/c.png" | cut -d" " -f1-2)" = "1600 900" ]'
check "... drawn by the package's module (/usr/lib/latscope)" \
	'grep -q "file=/usr/bin/../lib/latscope/latscope-render.so" "$tmp/ld"'

# --- removed ----------------------------------------------------------------------------------
dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { sub(/^\./, "", $6); print $6 }' >"$tmp/files"
dpkg_retry -r latscope
check "dpkg -r: exit 0, not installed" \
	'[ $? -eq 0 ] && ! dpkg-query -W -f="\${Status}" latscope 2>/dev/null | grep -q " installed"' ||
	cat "$tmp/dpkg.out"
# its maintainer scripts (CPack's ldconfig) keep it known as config-files until purged
dpkg_retry --purge latscope
check "dpkg --purge: exit 0, unknown to dpkg again" \
	'[ $? -eq 0 ] && ! dpkg-query -W latscope >/dev/null 2>&1' || cat "$tmp/dpkg.out"
installed=0
check "every file of the package gone" \
	'[ "$(wc -l <"$tmp/files")" -ge 10 ] && ! xargs ls -d <"$tmp/files" 2>/dev/null | grep -q . &&
	 [ ! -e /usr/lib/latscope ]'
[ "$fail" -eq 0 ] && echo "test_deb_install: all passed"
exit "$((fail > 0))"
