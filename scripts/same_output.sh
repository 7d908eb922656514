#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/same_output.sh OLD_BIN NEW_BIN
#
# A refactor that must not change behaviour: every output of OLD_BIN and
# NEW_BIN, stdout, stderr, exit status and the files written, must be
# byte-identical.  Inputs: every file in samples/ (with its X.args when
# present, run from samples/ as tests/e2e/run_samples.sh does; not the
# charts, notes and expected reports), tests/fixtures/*.dat and the v6
# fixture the build unpacks (build/fixtures/tracecmd-mixed-v6.dat, or
# unpacked here with zstd).  Per input:
#   analyze (text), analyze --json, --json --mergeable, --folded off and
#   runnable, the gate (--fail-above, text and JSON), the selection (--task
#   of the first pid the JSON names, --policy, --min-prio, --sort,
#   --wakeup-start wakeup); render --chart auto and histogram as SVG;
#   export --perfetto and --rows of every kind (CSV, and waits as JSON
#   Lines); and merge of each mergeable summary with the next one's.
# Prints each difference, then a count; exit status 1 when any differ.
#
# Charts need each binary's render module (latscope-render.so, with the
# analysis linked in) beside it, or in $OLD_MODULE / $NEW_MODULE; keep the
# old build's pair, e.g.
#   mkdir /tmp/base && cp build/latscope build/latscope-render.so /tmp/base/
# Without a module on both sides render is not compared (said so).
# OLD_CACHE=DIR keeps OLD_BIN's outputs (but merge's) there and reuses them on the next run
# (half the time when comparing a series of commits against one base; the
# inputs and OLD_BIN must not change meanwhile).
. "$(dirname "$0")/same_common.sh"
same_setup "$1" "$2"
render=1
if [ ! -f "$old_mod" ] || [ ! -f "$new_mod" ]; then
	echo "note: no latscope-render.so beside both binaries: render not compared"
	render=0
fi

# run SIDE LABEL ARGS...: one command of the binary of SIDE (old, new) in $dir,
# its files written into $tmp/w, kept as $tmp/SIDE.*
run() {
	side=$1
	shift
	side_bin "$side"
	rm -rf "$tmp/w" "$tmp/$side.w"
	key=
	if [ "$side" = old ] && [ -n "$OLD_CACHE" ] && [ "$1" != merge ]; then
		key=$OLD_CACHE/$(printf '%s\n' "$dir" "$@" | md5sum | cut -c1-32)
		if [ -d "$key.w" ]; then
			cp "$key.out" "$tmp/old.out"
			cp "$key.err" "$tmp/old.err"
			cp -r "$key.w" "$tmp/old.w"
			return
		fi
	fi
	mkdir "$tmp/w"
	(cd "$dir" && LATSCOPE_RENDER_MODULE=$mod "$bin" "$@" >"$tmp/$side.out" \
		2>"$tmp/$side.err")
	echo "exit $?" >>"$tmp/$side.err"
	mv "$tmp/w" "$tmp/$side.w"
	if [ -n "$key" ]; then
		cp "$tmp/old.out" "$key.out"
		cp "$tmp/old.err" "$key.err"
		cp -r "$tmp/old.w" "$key.w"
	fi
}

# same LABEL ARGS...: runs ARGS with both binaries, compares everything
same() {
	label=$1
	shift
	run old "$@"
	run new "$@"
	nrun=$((nrun + 1))
	if cmp -s "$tmp/old.out" "$tmp/new.out" && cmp -s "$tmp/old.err" "$tmp/new.err" &&
	   diff -r "$tmp/old.w" "$tmp/new.w" >/dev/null 2>&1; then
		return 0
	fi
	ndiff=$((ndiff + 1))
	echo "DIFF: $label: latscope $*"
	diff "$tmp/old.err" "$tmp/new.err" | head -6
	diff "$tmp/old.out" "$tmp/new.out" | head -10
	diff -r "$tmp/old.w" "$tmp/new.w" 2>&1 | head -6
	return 1
}

# check DIR INPUT ARGS: every command on one input
check() {
	dir=$1
	in=$2
	args=$3
	w=$tmp/w
	# shellcheck disable=SC2086
	{
		same "$in" analyze $args "$in"
		same "$in" analyze --json $args "$in"
		trace=0
		grep -q '"wakeup": {' "$tmp/old.out" && trace=1
		same "$in" analyze --fail-above 100us $args "$in"
		if [ "$render" = 1 ]; then
			same "$in" render -c auto --size 800x450 -o "$w/auto.svg" $args "$in"
		fi
		# the rest only for event traces (the wakeup analysis)
		[ "$trace" = 1 ] || return 0
		same "$in" analyze --json --mergeable $args "$in"
		cp "$tmp/old.out" "$tmp/sum-old.$nsum"
		cp "$tmp/new.out" "$tmp/sum-new.$nsum"
		# a thread: "tid" (report version 2), "pid" in an OLD binary's version 1
		pid=$(grep -m1 -o '"tid": [1-9][0-9]*' "$tmp/old.out" ||
		      grep -m1 -o '"pid": [1-9][0-9]*' "$tmp/old.out")
		pid=$(echo "$pid" | grep -o '[0-9]*$')
		nsum=$((nsum + 1))
		same "$in" analyze --folded off $args "$in"
		same "$in" analyze --folded runnable $args "$in"
		same "$in" analyze --json --fail-above 2ms $args "$in"
		[ -n "$pid" ] && same "$in" analyze --json --task "$pid" $args "$in"
		same "$in" analyze --policy rt --sort p99 $args "$in"
		same "$in" analyze --json --policy fair --sort comm $args "$in"
		same "$in" analyze --json --min-prio 50 $args "$in"
		same "$in" analyze --json --wakeup-start wakeup -t 1ms $args "$in"
		if [ "$render" = 1 ]; then
			same "$in" render -c histogram --size 800x450 -o "$w/hist.svg" $args "$in"
		fi
		same "$in" export -p "$w/p.json" "$in"
		for k in waits slices samples stalls traces; do
			same "$in" export -r $k -o "$w/$k.csv" "$in"
		done
		same "$in" export -r waits --format jsonl -t 1ms "$in"
	}
}

nsum=0
for_each_input check

# merge: each mergeable summary with the next one's (and the last with the first)
dir=$tmp
i=0
while [ "$i" -lt "$nsum" ]; do
	j=$(((i + 1) % nsum))
	if grep -q '"summary"' "$tmp/sum-old.$i" && grep -q '"summary"' "$tmp/sum-old.$j"; then
		cp "$tmp/sum-old.$i" "$tmp/a.json"
		cp "$tmp/sum-old.$j" "$tmp/b.json"
		run old merge a.json b.json
		cp "$tmp/sum-new.$i" "$tmp/a.json"
		cp "$tmp/sum-new.$j" "$tmp/b.json"
		run new merge a.json b.json
		nrun=$((nrun + 1))
		if ! cmp -s "$tmp/old.out" "$tmp/new.out" || ! cmp -s "$tmp/old.err" "$tmp/new.err"
		then
			ndiff=$((ndiff + 1))
			echo "DIFF: merge of summaries $i and $j"
			diff "$tmp/old.out" "$tmp/new.out" | head -10
		fi
	fi
	i=$((i + 1))
done
echo "$nrun commands compared, $ndiff differ"
[ "$ndiff" -eq 0 ]
