#!/bin/sh
# `latscope analyze --folded off|runnable`: every kernel stack with its time, in
# FlameGraph's folded format, instead of the report.  Usage: test_folded.sh BIN REPO
#
# Expected values, checked by hand against the text report of the same file
# (`latscope analyze samples/tracedat/record-stacks-v7-zstd.dat`): 9 off-CPU
# stacks, the first futex_do_wait's at 1,809,285,662 ns; the off-CPU functions
# add up to 1.809 + 1.762 + 1.444 s + 788 + 512 + 52 + 1.77 ms = 6.369 s;
# 25 runnable stacks, of which the report shows its top 20 only.
bin=$1
repo=$2
tmp=$(mktemp -d /tmp/latscope-folded-e2e.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT
. "$repo/tests/e2e/check.sh"
stacks=$repo/samples/tracedat/record-stacks-v7-zstd.dat
plain=$repo/samples/tracedat/mixed-3000-v6.dat
sum() { awk '{ s += $NF } END { printf "%.0f\n", s }' "$1"; }

"$bin" analyze --folded off "$stacks" >"$tmp/off" 2>"$tmp/off.err"
check "off: exit 0" '[ $? -eq 0 ]'
check "off: 9 stacks" '[ "$(wc -l <"$tmp/off")" -eq 9 ]'
check "off: every line is frame;...;frame ns" \
	'! grep -Evq "^[^ ;]+(;[^ ;]+)* [0-9]+\$" "$tmp/off"'
check "off: the futex stack first, 1809285662 ns" \
	'head -1 "$tmp/off" | grep -q "futex_do_wait;schedule;.* 1809285662\$"'
check "off: 6369396174 ns in all" '[ "$(sum "$tmp/off")" = 6369396174 ]'
check "off: the tracing's own frames are not the leaves" \
	'! grep -Eq "(__traceiter_|trace_event_raw_event_)[^;]* [0-9]+\$" "$tmp/off" &&
	 head -1 "$tmp/off" | grep -q ";futex_do_wait;schedule;__schedule 1809285662\$"'
check "off: nothing on stderr" '[ ! -s "$tmp/off.err" ]'

"$bin" analyze --folded runnable "$stacks" >"$tmp/run" 2>/dev/null
check "runnable: exit 0" '[ $? -eq 0 ]'
check "runnable: all 25 stacks, not the report's top 20" '[ "$(wc -l <"$tmp/run")" -eq 25 ]'
# the same rows as the JSON blame with every row asked for
"$bin" analyze --json --top 100000 "$stacks" >"$tmp/json"
python3 - "$tmp/json" "$tmp/run" >"$tmp/cmp" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))["inputs"][0]["blocks"][0]["wakeup"]["blame"]["runnable"]
want = ["%s %d" % (s["stack"], s["ns"]) for s in b["stacks"]]
got = open(sys.argv[2]).read().splitlines()
print("same" if want == got else "differ")
PY
check "runnable: the JSON's rows, in order" '[ "$(cat "$tmp/cmp")" = same ]'

"$bin" analyze --folded off "$plain" >"$tmp/none" 2>"$tmp/none.err"
check "no stacks: exit 0" '[ $? -eq 0 ]'
check "no stacks: nothing on stdout" '[ ! -s "$tmp/none" ]'
check "no stacks: says how to record them" 'grep -q "record --stacks" "$tmp/none.err"'

"$bin" analyze --folded off --json "$stacks" >/dev/null 2>&1
check "--folded with --json: usage error" '[ $? -eq 2 ]'
"$bin" analyze --folded sideways "$stacks" >/dev/null 2>"$tmp/bad.err"
check "--folded sideways: usage error" '[ $? -eq 2 ]'
check "--folded sideways: says what it expected" 'grep -q "expected off or runnable" "$tmp/bad.err"'

[ $fail -eq 0 ] && echo "test_folded: all passed"
exit $((fail > 0))
