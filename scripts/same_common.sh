# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by scripts/same_output.sh and scripts/same_report.sh.
#
# same_setup OLD_BIN NEW_BIN: $old and $new (absolute), $root (the repository), $tmp (removed
# on exit), $old_mod and $new_mod (each binary's render module), the counts $ndiff and $nrun;
# exits 2 on a usage error.
same_setup() {
	old=$1
	new=$2
	if [ -z "$old" ] || [ -z "$new" ] || [ ! -x "$old" ] || [ ! -x "$new" ]; then
		echo "usage: $0 OLD_BIN NEW_BIN" >&2
		exit 2
	fi
	case $old in /*) ;; *) old=$PWD/$old ;; esac
	case $new in /*) ;; *) new=$PWD/$new ;; esac
	root=$(cd "$(dirname "$0")/.." && pwd)
	tmp=$(mktemp -d) || exit 2
	trap 'rm -rf "$tmp"' EXIT
	old_mod=${OLD_MODULE:-$(dirname "$old")/latscope-render.so}
	new_mod=${NEW_MODULE:-$(dirname "$new")/latscope-render.so}
	ndiff=0
	nrun=0
}

# side_bin SIDE: $bin and $mod, the binary and render module of SIDE (old, new).
side_bin() {
	if [ "$1" = old ]; then
		bin=$old
		mod=$old_mod
	else
		bin=$new
		mod=$new_mod
	fi
}

# for_each_input FUNC calls FUNC DIR INPUT ARGS for every input they compare: each file in
# samples/ (not the charts, notes and expected reports; ARGS its X.args, DIR samples/, as
# tests/e2e/run_samples.sh runs them), tests/fixtures/*.dat and the v6 fixture the build
# unpacks (build/fixtures/tracecmd-mixed-v6.dat, or unpacked into $tmp with zstd).  The
# samples' names are left in $tmp/inputs.
for_each_input() {
	(cd "$root/samples" && find . -type f ! -name '*.md' ! -name '*.args' \
		! -name '*.expected.json' ! -name '*.png' ! -name '*.sh' | sed 's|^\./||' | sort) \
		>"$tmp/inputs"
	while read -r f; do
		a=""
		[ -f "$root/samples/$f.args" ] && a=$(cat "$root/samples/$f.args")
		"$1" "$root/samples" "$f" "$a"
	done <"$tmp/inputs"
	for f in "$root"/tests/fixtures/*.dat; do
		"$1" "$root" "tests/fixtures/${f##*/}" ""
	done
	v6=$root/build/fixtures/tracecmd-mixed-v6.dat
	if [ ! -f "$v6" ]; then
		v6=$tmp/tracecmd-mixed-v6.dat
		zstd -d -q -o "$v6" "$root/tests/fixtures/tracecmd-mixed-v6.dat.zst" || v6=
	fi
	[ -n "$v6" ] && "$1" "$(dirname "$v6")" "${v6##*/}" ""
}
