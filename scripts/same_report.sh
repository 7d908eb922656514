#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/same_report.sh OLD_BIN NEW_BIN
#
# scripts/same_output.sh for `latscope report`: the bundles of OLD_BIN and NEW_BIN must be
# byte-identical, every file of DIR (report.md, report.html, charts/*.svg), stdout, exit
# status and stderr but its `latscope report: time:` lines (the steps' times, docs/report.md).
# Inputs as same_output.sh takes them: every file in samples/ (with its X.args, run from
# samples/), tests/fixtures/*.dat and the v6 fixture.  Per input: the bundle with the default
# options, with --worst 3 --size 800x450 --fail-above 1ms, and with --task of the first
# pid and of the first comm the JSON names; then every sample of samples/tracedat/ with the next one in one bundle.
# Charts need each binary's latscope-render.so beside it (or $OLD_MODULE / $NEW_MODULE).
# Prints each difference, then a count; exit status 1 when any differ.
. "$(dirname "$0")/same_common.sh"
same_setup "$1" "$2"

# run SIDE ARGS...: `latscope report -o $tmp/b ARGS` of SIDE's binary in $dir, kept as
# $tmp/SIDE.{out,err,b}
run() {
	side=$1
	shift
	side_bin "$side"
	rm -rf "$tmp/b" "$tmp/$side.b"
	(cd "$dir" && LATSCOPE_RENDER_MODULE=$mod "$bin" report -o "$tmp/b" "$@" \
		>"$tmp/$side.out" 2>"$tmp/$side.err")
	echo "exit $?" >>"$tmp/$side.err"
	grep -v "^latscope report: time: " "$tmp/$side.err" >"$tmp/$side.err2"
	[ -d "$tmp/b" ] && mv "$tmp/b" "$tmp/$side.b"
	mkdir -p "$tmp/$side.b"
}

# same LABEL ARGS...
same() {
	label=$1
	shift
	nrun=$((nrun + 1))
	run old "$@"
	run new "$@"
	if ! cmp -s "$tmp/old.out" "$tmp/new.out" || ! cmp -s "$tmp/old.err2" "$tmp/new.err2" ||
	   ! diff -r "$tmp/old.b" "$tmp/new.b" >/dev/null; then
		ndiff=$((ndiff + 1))
		echo "DIFF: $label: report $*"
		diff "$tmp/old.out" "$tmp/new.out" | head -5
		diff "$tmp/old.err2" "$tmp/new.err2" | head -5
		diff -rq "$tmp/old.b" "$tmp/new.b" | head -5
	fi
}

# check DIR INPUT ARGS
check() {
	dir=$1
	in=$2
	args=$3
	# shellcheck disable=SC2086
	same "$in" $args "$in"
	# shellcheck disable=SC2086
	same "$in" --worst 3 --size 800x450 --fail-above 1ms $args "$in"
	# a thread: "tid" (report version 2), "pid" in an OLD binary's version 1
	pid=$(cd "$dir" && "$old" analyze --json "$in" 2>/dev/null >"$tmp/task.json"
	      { grep -o '"tid": *[0-9]*' "$tmp/task.json" || grep -o '"pid": *[0-9]*' "$tmp/task.json"; } |
	      head -1 | grep -o '[0-9]*$')
	# shellcheck disable=SC2086
	[ -n "$pid" ] && same "$in" --task "$pid" $args "$in"
	comm=$(cd "$dir" && "$old" analyze --json "$in" 2>/dev/null |
		grep -o '"comm": *"[A-Za-z][A-Za-z0-9_-]*"' | head -1 | sed 's/.*"\(.*\)"$/\1/')
	# shellcheck disable=SC2086
	[ -n "$comm" ] && same "$in" --task "$comm" $args "$in"
}

for_each_input check

# several inputs in one bundle (inK- prefixes)
dir=$root/samples
prev=
for f in $(grep '^tracedat/' "$tmp/inputs"); do
	[ -n "$prev" ] && same "$prev + $f" "$prev" "$f"
	prev=$f
done

echo "$nrun bundles compared, $ndiff differ"
[ "$ndiff" -eq 0 ]
