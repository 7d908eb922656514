#!/bin/sh
# The recorder's wall clock (needs root and tracefs; docs/record.md, "wallclock"): a recording
# whose command writes the wall clock into the top-level trace_marker (recorded with
# --top-markers) five times, each from one process that reads CLOCK_REALTIME and writes at
# once, has a "latscope: wallclock" line, and its sample rows' wall_ns (the marker's
# trace-clock time plus the offset) are never before the time written (50 us of slack:
# the bound is ~1 us) nor 100 ms after it, and the closest within 1 ms (a few us on a quiet
# machine; a writer preempted between its reading and its write, under load, is later).
# The offset measured at the stop differs from the start's by the clocks' drift (under 1
# ms over a second); the error bound is under 1 ms.  A damaged line: a warning, no wall
# clock.  usage: test_wallclock.sh LATSCOPE
set -u
bin=$1
t=/sys/kernel/tracing
. "$(dirname "$0")/../e2e/check.sh"
if [ "$(id -u)" != 0 ] || [ ! -d "$t/instances" ]; then
	echo "skip: needs root and tracefs at $t"
	exit 0
fi
tmp=$(mktemp -d /tmp/latscope-wall-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
"$bin" record -o "$tmp/w.dat" --top-markers -- python3 -c "
import os, time
fd = os.open('$t/trace_marker', os.O_WRONLY)
time.sleep(0.2)
for i in range(5):
    os.write(fd, b'wall %d' % time.time_ns())
    time.sleep(0.05)" >/dev/null 2>"$tmp/rec.err"
check "record: exit 0" '[ $? -eq 0 ]'
"$bin" export --rows samples,traces --format jsonl -o "$tmp/rows" "$tmp/w.dat" 2>/dev/null
python3 - "$tmp/rows" >"$tmp/cmp" <<'PY'
import json, sys
d = sys.argv[1]
t = json.loads(open(d + '/traces.jsonl').readline())
s = [json.loads(l) for l in open(d + '/samples.jsonl')]
walls = [(r['wall_ns'], int(r['text'].split()[1])) for r in s if r['text'].startswith('wall ')]
print('markers', len(walls))
print('error under 1 ms', 0 < t['realtime_error_ns'] < 1000000)
print('first_ns', t['wall_ns'] == t['first_ns'] + t['realtime_offset_ns'])
for w, written in walls:
    print('not before, within 100 ms', -100000000 <= written - w <= 50000, written - w)
print('closest within 1 ms', min(w - written for w, written in walls) <= 1000000)
PY
check "five wall markers" 'grep -qx "markers 5" "$tmp/cmp"'
check "an error bound under 1 ms; the traces row's wall_ns is first_ns's" \
	'grep -qx "error under 1 ms True" "$tmp/cmp" && grep -qx "first_ns True" "$tmp/cmp"'
check "each marker's wall_ns not before the time it holds, the closest within 1 ms after" \
	'[ "$(grep -c "^not before, within 100 ms True " "$tmp/cmp")" -eq 5 ] &&
	 grep -qx "closest within 1 ms True" "$tmp/cmp"'
[ "$fail" -eq 0 ] || cat "$tmp/cmp"
line=$(trace-cmd report --stat "$tmp/w.dat" 2>/dev/null | grep "^latscope: wallclock ")
off=$(echo "$line" | sed -n 's/.* realtime_offset_ns=\(-\{0,1\}[0-9]*\) .*/\1/p')
end=$(echo "$line" | sed -n 's/.* end_offset_ns=\(-\{0,1\}[0-9]*\) .*/\1/p')
check "the offsets at the start and the stop within 1 ms" \
	'[ -n "$off" ] && [ -n "$end" ] && [ $((off - end)) -lt 1000000 ] && [ $((end - off)) -lt 1000000 ]'
# damaged: the offset's first digit made a letter (same length: the file stays readable)
python3 - "$tmp/w.dat" "$tmp/bad.dat" <<'PY'
import sys
b = open(sys.argv[1], 'rb').read()
k = b.index(b'realtime_offset_ns=') + len(b'realtime_offset_ns=')
open(sys.argv[2], 'wb').write(b[:k] + b'x' + b[k + 1:])
PY
"$bin" export --rows traces --format jsonl "$tmp/bad.dat" >"$tmp/bad.jsonl" 2>"$tmp/bad.err"
check "damaged line: exit 0, a warning, no wall clock" \
	'[ $? -eq 0 ] && grep -q "expected \"latscope: wallclock realtime_offset_ns=N error_ns=N\", got \"latscope: wallclock realtime_offset_ns=x" "$tmp/bad.err" &&
	 grep -q "\"realtime_offset_ns\":null,.*\"wall_ns\":null" "$tmp/bad.jsonl"'
[ "$fail" -eq 0 ] && echo "test_wallclock: all passed"
exit "$((fail > 0))"
