#!/bin/sh
# One wait, one verdict (issue 27, docs/wakeup.md "Verdicts"): on every trace.dat
# sample, the fixture and two ftrace text samples, the worst cases of analyze --json, the rows of export
# --rows waits and the wait slices of export --perfetto agree, wait by wait
# (tests/e2e/one_verdict.py).
# Usage: test_one_verdict.sh BIN REPO
bin=$1
repo=$2
tmp=$(mktemp -d /tmp/latscope-verdict-e2e.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT
. "$repo/tests/e2e/check.sh"

total=0
for f in "$repo"/samples/tracedat/*.dat "$repo"/tests/fixtures/tracecmd-mixed.dat \
	"$repo"/samples/ftrace-text/kernel-trace.txt "$repo"/samples/ftrace-text/tracecmd-report.txt; do
	n=$(basename "$f")
	"$bin" analyze --json --worst 50 "$f" >"$tmp/a.json" 2>/dev/null
	"$bin" export --rows waits --format jsonl -t 1ns "$f" >"$tmp/rows.jsonl" 2>/dev/null
	"$bin" export --perfetto "$tmp/pf.json" -t 1ns "$f" 2>/dev/null
	python3 "$repo/tests/e2e/one_verdict.py" "$tmp/a.json" "$tmp/rows.jsonl" "$tmp/pf.json" \
		>"$tmp/out" 2>&1
	ok=$?
	[ $ok -eq 0 ] ||
		sed "s/^/    /" "$tmp/out"
	check "$n: one verdict per wait in the cases, the rows and Perfetto" "[ $ok -eq 0 ]"
	m=$(awk '/^cases/ { print $4 }' "$tmp/out")
	total=$((total + ${m:-0}))
done
# the samples hold worst cases of every verdict the recordings show: not a vacuous check
check "at least 200 worst cases compared (got $total)" '[ "$total" -ge 200 ]'
[ "$fail" -eq 0 ] && echo "test_one_verdict: all passed ($total cases)"
exit $((fail > 0))
