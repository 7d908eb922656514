#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/build/test_version.sh LATSCOPE REPO
#
# `latscope --version` says "latscope VERSION (commit C)": C the repository's HEAD as
# `git rev-parse --short=12` gives it, "-dirty" when tracked files differ (the build reads
# it at every build: run the test on a build of the tree as it is).  cmake/commit.cmake
# writes "unknown" for a source tree that is not the top of a git work tree: a directory
# outside git, and one inside another repository (a release tarball unpacked in a repo).
bin=$1
repo=$2
. "$repo/tests/e2e/check.sh"
tmp=$(mktemp -d /tmp/latscope-version.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT
v=$("$bin" --version)
check "--version: latscope 0.1.0 (commit ...)" \
	'echo "$v" | grep -Eqx "latscope 0\.1\.0 \(commit ([0-9a-f]{12}(-dirty)?|unknown)\)"'
if git -C "$repo" rev-parse --show-toplevel >/dev/null 2>&1; then
	want=$(git -C "$repo" rev-parse --short=12 HEAD)
	[ -n "$(git -C "$repo" status --porcelain --untracked-files=no)" ] && want=$want-dirty
	check "--version: the commit is HEAD's ($want)" '[ "$v" = "latscope 0.1.0 (commit $want)" ]'
else
	check "--version: outside git, unknown" '[ "$v" = "latscope 0.1.0 (commit unknown)" ]'
fi
mkdir -p "$tmp/src"
cmake -DSRC="$tmp/src" -DOUT="$tmp/c.c" -P "$repo/cmake/commit.cmake"
check "not in git: unknown" 'grep -qx "const char cli_commit\[\] = \"unknown\";" "$tmp/c.c"'
if git -C "$repo" rev-parse --show-toplevel >/dev/null 2>&1; then
	cmake -DSRC="$repo/docs" -DOUT="$tmp/d.c" -P "$repo/cmake/commit.cmake"
	check "a directory inside a repository, not its top: unknown" \
		'grep -qx "const char cli_commit\[\] = \"unknown\";" "$tmp/d.c"'
fi
[ "$fail" -eq 0 ] && echo "test_version: all passed"
exit "$((fail > 0))"
