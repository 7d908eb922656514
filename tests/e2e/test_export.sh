#!/bin/sh
# `latscope export`: --rows waits|slices|samples as CSV and JSON Lines, and
# --perfetto (Trace Event Format).  Usage: test_export.sh BIN REPO
#
# Every number is verified apart from latscope (samples/README.md, "export"):
# the waits by tests/e2e/export_waits.awk, an awk reading of the rules of
# docs/wakeup.md over the ftrace text; the switches by grep (and on the
# trace-cmd fixture by `trace-cmd report`); the lost events by the LOST lines.
bin=$1
repo=$2
tmp=$(mktemp -d /tmp/latscope-export-e2e.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT
. "$repo/tests/e2e/check.sh"
lost=$repo/samples/ftrace-text/kernel-trace-pipe-lost.txt
ktrace=$repo/samples/ftrace-text/kernel-trace.txt
fixture=${LAT_FIXTURE_V7:-$repo/tests/fixtures/tracecmd-mixed.dat}
pf="$repo/tests/e2e/export_check_perfetto.py"
# "tid start end latency kind trusted" from the CSV, for the awk's lines
csv_waits() { tr -d '\r' <"$1" | awk -F, 'NR > 1 { print $4, $9, $10, $11, $12, $15 }'; }
# CSV rows with CR removed and every unknown value (\N) an empty field, for awk's tests of
# emptiness (a text value never holds \N: its backslash is written \x5c, docs/export.md)
unnull() { tr -d '\r' | sed 's/\\N//g'; }
val() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }

# --- waits: every row as the independent reading finds it ---------------------
for f in "$lost" "$ktrace" "$repo/samples/ftrace-text/kernel-trace-notgid.txt"; do
	n=$(basename "$f")
	awk -f "$repo/tests/e2e/export_waits.awk" "$f" >"$tmp/$n.awk"
	"$bin" export --rows waits "$f" >"$tmp/$n.csv" 2>"$tmp/$n.err"
	check "$n waits: exit 0" '[ $? -eq 0 ]'
	csv_waits "$tmp/$n.csv" >"$tmp/$n.got"
	check "$n waits: the awk's rows, in order" 'cmp -s "$tmp/$n.awk" "$tmp/$n.got"'
done
# hand-counted: 49 wakeup, 22 preempt trusted, 2 preempt across the LOST gap (11446, 11480)
check "pipe-lost: 73 waits" '[ "$(wc -l <"$tmp/kernel-trace-pipe-lost.txt.got")" -eq 73 ]'
check "pipe-lost: 49 wakeup waits" \
	'[ "$(grep -c " wakeup 1\$" "$tmp/kernel-trace-pipe-lost.txt.got")" -eq 49 ]'
check "pipe-lost: the untrusted ones are 11446 and 11480" \
	'[ "$(awk "\$6 == 0 { printf \"%s \", \$1 }" "$tmp/kernel-trace-pipe-lost.txt.got")" = "11446 11480 " ]'
# memfd:sealed-91 (4390): waking 918.180097 on CPU 1 by a hardirq (flags d.h2.) in
# sched-messaging-11473, switched in at 918.180104 (lines 24 and 27); no irq_handler
# events, so the irq has no name
# unknown: host, pid, verdict (below the threshold), wall_ns (ftrace text has no offset)
check "pipe-lost: the row of 4390" 'tr -d "\r" <"$tmp/kernel-trace-pipe-lost.txt.csv" |
	grep -qx "$lost,\\\\N,\\\\N,4390,memfd:sealed-91,fair,120,1,918180097000,918180104000,7000,wakeup,irq,\\\\N,1,1,11473,1,irq,\\\\N,[0-9a-f]\{16\},2"'
check "ktrace waits: 463 rows (110 fewer since CPU1's events are incomplete: its unrecorded switch-ins end waits unseen)" '[ "$(wc -l <"$tmp/kernel-trace.txt.got")" -eq 463 ]'
check "CSV: CRLF line ends, 22 columns everywhere" \
	'[ "$(tr -d "\r" <"$tmp/kernel-trace.txt.csv" | awk -F, "NF != 22" | wc -l)" -eq 0 ] &&
	 [ "$(grep -c "$(printf "\r")\$" "$tmp/kernel-trace.txt.csv")" -eq 464 ]'

# --- verdicts: the rows' verdict column against analyze's verdicts_above_threshold ---
# judged FILE THRESHOLD: "judged N" and "VERDICT COUNT" lines of the rows (tr -d CR; a row
# of another column count is "badrow"); a row must have a verdict exactly when it is a
# trusted wakeup or new-task wait of at least the threshold (else "misjudged")
judged() {
	"$bin" export --threshold "$2" --rows waits "$1" 2>/dev/null | unnull |
	awk -F, -v thr="$3" 'NR > 1 {
		if (NF != 22) { print "badrow " NR; next }
		j = $15 == 1 && $12 != "preempt" && $11 >= thr
		if (j != ($14 != "")) print "misjudged " NR
		if (j) { n++; v[$14]++ }
	} END { print "judged", n + 0; for (k in v) print k, v[k] }' | sort
}
# analyzed FILE THRESHOLD: the same lines from analyze --json's verdicts_above_threshold
analyzed() {
	"$bin" analyze --threshold "$2" --json "$1" 2>/dev/null | python3 -c '
import json, sys
v = json.load(sys.stdin)["inputs"][0]["blocks"][0]["wakeup"]["verdicts_above_threshold"]
print("judged", v.pop("waits"))
for k, n in v.items():
    if n:
        print(k, n)' | sort
}
cyc=$repo/samples/tracedat/cyclictest-stress-v7-zstd.dat
for spec in "$ktrace 10ms 10000000" "$ktrace 1ms 1000000" "$cyc 1ms 1000000" \
	    "$cyc 300us 300000" "$fixture 10ms 10000000"; do
	# shellcheck disable=SC2086
	set -- $spec
	n=$(basename "$1")
	judged "$1" "$2" "$3" >"$tmp/j.rows"
	analyzed "$1" "$2" >"$tmp/j.json"
	check "$n -t $2: a verdict on every judged row and no other" \
		'! grep -q "^badrow\|^misjudged" "$tmp/j.rows"'
	check "$n -t $2: the rows' verdicts are analyze's verdicts_above_threshold" \
		'cmp -s "$tmp/j.rows" "$tmp/j.json"'
	cp "$tmp/j.rows" "$tmp/j-$n-$2"
done
# the number judged, apart from latscope: export_waits.awk's trusted wakeup/new waits of at
# least 10 ms (56) and 1 ms (127) in kernel-trace.txt
awk -f "$repo/tests/e2e/export_waits.awk" "$ktrace" |
	awk '$6 == 1 && $5 != "preempt" { n10 += $4 >= 10000000; n1 += $4 >= 1000000 }
	     END { print n10, n1 }' >"$tmp/j.awk"
check "kernel-trace.txt: 56 and 127 waits judged, as the awk counts" \
	'[ "$(cat "$tmp/j.awk")" = "56 127" ] &&
	 grep -qx "judged 56" "$tmp/j-kernel-trace.txt-10ms" &&
	 grep -qx "judged 127" "$tmp/j-kernel-trace.txt-1ms"'
# cyclictest/20718's 5714613 ns wait (samples/tracedat/README.md, "The CI gate's limits"): the CPUs stalled 4.1 ms of it
check "cyclictest: the 5.71 ms wait of 20718 is a stall" \
	'"$bin" export -t 1ms --rows waits "$cyc" 2>/dev/null | tr -d "\r" |
	 grep -q ",20718,cyclictest,rt,19,0,450844462793,450850177406,5714613,wakeup,[^,]*,stall,1,"'
"$bin" export --rows waits "$cyc" 2>/dev/null | unnull >"$tmp/cyc.csv"
check "cyclictest: no wait of 10 ms (the default threshold): no verdict" \
	'[ "$(awk -F, "NR > 1 && \$14 != \"\"" "$tmp/cyc.csv" | wc -l)" -eq 0 ]'

# --- pid: the recorder's tgids line (trace-cmd report --stat: "latscope: tgids=...") ---
# 20713:20713 (tail), 20719:2748 (a thread of 2748, memfd:sealed-91); cyclictest (20717,
# 20718) had exited when the recorder listed /proc: no pid
check "pid: tail 20713 is its own process" \
	'[ "$(awk -F, "\$4 == 20713 { print \$3 }" "$tmp/cyc.csv" | sort -u)" = 20713 ]'
check "pid: 20719 is a thread of 2748" \
	'[ "$(awk -F, "\$4 == 20719 { print \$3 }" "$tmp/cyc.csv" | sort -u)" = 2748 ]'
check "pid: cyclictest 20718 exited before the list: empty" \
	'[ "$(awk -F, "\$4 == 20718 { print \"[\" \$3 \"]\" }" "$tmp/cyc.csv" | sort -u)" = "[]" ]'
# every pid given is the tgids line's (45 pairs), and every tid of the line has it
trace_tgids() {
	printf '%s\n' "$1" | tr ',' '\n' | sed 's/^latscope: tgids=//' | tr ':' ' '
}
if command -v trace-cmd >/dev/null 2>&1; then
	trace_tgids "$(trace-cmd report --stat "$cyc" 2>/dev/null | grep -o "latscope: tgids=[0-9:,]*")" \
		>"$tmp/tg"
	check "pid: the tgids line has 45 pairs" '[ "$(wc -l <"$tmp/tg")" -eq 45 ]'
	awk -F, 'NR == FNR { g[$1] = $2; next } FNR > 1 {
		if ($3 != "" && g[$4] != $3) print "wrong", $4, $3
		if ($3 == "" && ($4 in g)) print "missing", $4 }' FS=' ' "$tmp/tg" FS=, "$tmp/cyc.csv" \
		>"$tmp/tg.bad"
	check "pid: every row's pid is the tgids line's" '[ ! -s "$tmp/tg.bad" ]'
	# analyze --json names them alike (docs/json.md): every object with a tid, wherever in
	# the report, has the tgids line's pid or null when the line has none (78 objects:
	# grep -c '"tid":' of the report; 54 with a pid, 24 null: grep -c '"pid": null')
	"$bin" analyze --json "$cyc" >"$tmp/cyc.json" 2>/dev/null
	python3 - "$tmp/tg" "$tmp/cyc.json" "$tmp/cyc.csv" "$repo/tests/e2e" >"$tmp/tgj.out" <<'PY'
import csv, json, sys
sys.path.insert(0, sys.argv[4])
from json_objects import objects
g = dict(l.split() for l in open(sys.argv[1]))
r = json.load(open(sys.argv[2]))
n = {"pid": 0, "null": 0}
for v in (o for o in objects(r) if "tid" in o):
    want = g.get(str(v["tid"]))
    got = v.get("pid", "absent")
    if got != (int(want) if want else None):
        print("wrong", v["tid"], got, want)
    n["pid" if got is not None else "null"] += 1
w = r["inputs"][0]["blocks"][0]["wakeup"]
rows = {int(x["tid"]): x["pid"] for x in csv.DictReader(open(sys.argv[3]))}
for t in w["tasks"]:
    if t["tid"] in rows and rows[t["tid"]] != ("" if t["pid"] is None else str(t["pid"])):
        print("rows", t["tid"], rows[t["tid"]], t["pid"])
tp = {t["tid"]: t["pid"] for t in w["tasks"]}
print("hand", tp.get(20713), tp.get(20719), tp.get(20718), "pid_source",
      w["pid_source"]["threads"], w["pid_source"]["damaged"])
print("counts", n["pid"], n["null"])
PY
	check "analyze --json: every tid's pid is the tgids line's (or null), as in the rows" \
		'! grep -q "^wrong\|^rows" "$tmp/tgj.out" && grep -qx "counts 54 24" "$tmp/tgj.out"' ||
		head -3 "$tmp/tgj.out"
	check "analyze --json: tail 20713 -> 20713, 20719 -> 2748, cyclictest 20718 -> null" \
		'grep -qx "hand 20713 2748 None pid_source 45 False" "$tmp/tgj.out"'
fi
check "pid: ftrace text has none" \
	'[ "$(unnull <"$tmp/kernel-trace.txt.csv" | awk -F, "NR > 1 && \$3 != \"\"" | wc -l)" -eq 0 ]'

# --- JSON Lines: one object a line, the same values as the CSV ----------------
"$bin" export --rows waits --format jsonl "$lost" >"$tmp/w.jsonl" 2>/dev/null
check "jsonl waits: exit 0" '[ $? -eq 0 ]'
python3 - "$tmp/w.jsonl" "$tmp/kernel-trace-pipe-lost.txt.csv" >"$tmp/jl" <<'PY'
import csv, json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
with open(sys.argv[2], newline="") as f:
    table = list(csv.DictReader(f))
same = len(rows) == len(table)
for j, c in zip(rows, table):
    if list(j) != list(c):
        same = False
    for k, v in j.items():
        s = "\\N" if v is None else ("1" if v is True else "0" if v is False else str(v))
        same &= s == c[k]
print("same" if same else "differ")
PY
check "jsonl: the CSV's rows, keys in the header's order" '[ "$(cat "$tmp/jl")" = same ]'

# --- slices: one per sched_switch, plus the cut and the still-running ones ----
"$bin" export --rows slices "$lost" 2>/dev/null | unnull >"$tmp/s.csv"
check "slices: exit 0" '[ $? -eq 0 ]'
nsw=$(grep -c "sched_switch:" "$lost")	# 110
check "slices: one ending at each of the $nsw switches" \
	'[ "$(tr -d "\r" <"$tmp/s.csv" | awk -F, "\$12 == \"switch\"" | wc -l)" -eq "$nsw" ]'
# the LOST lines are the file's first on each CPU: nothing runs before, no slice is cut;
# both CPUs' last tasks run to the end
check "slices: 2 still running at the end, none cut by the gaps" \
	'[ "$(tr -d "\r" <"$tmp/s.csv" | awk -F, "NR > 1 && \$12 != \"switch\" { print \$12 }" | sort | uniq -c | tr -s " ")" = " 2 end" ]'
# CPU 0's first switch (line 2) comes before anything showed 11480 running
check "slices: 11480's first slice has no start" \
	'tr -d "\r" <"$tmp/s.csv" | grep -qx "$lost,,,11480,sched-messaging,fair,120,0,,918173468000,,switch,R,,[0-9a-f]\{16\},2"'
check "slices: 11441's first slice on CPU 1 has no start either" \
	'tr -d "\r" <"$tmp/s.csv" | grep -qx "$lost,,,11441,sched-messaging,fair,120,1,,918179656000,,switch,S,,[0-9a-f]\{16\},2"'
check "slices: rcu_preempt 918.173468 .. 918.173476, state I folded to other" \
	'tr -d "\r" <"$tmp/s.csv" | grep -qx "$lost,,,15,rcu_preempt,fair,120,0,918173468000,918173476000,8000,switch,?,,[0-9a-f]\{16\},2"'

# --- samples: trace_marker lines, probe values, RFC 4180 quoting -------------
cat >"$tmp/markers.txt" <<'TXT'
# tracer: nop
#
#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
#              | |         |   |||||     |         |
 latscope-probe-700     [001] .....   100.000100: tracing_mark_write: latscope: probe=timer cpu=1 lat_ns=73210 seq=5
 latscope-probe-700     [001] .....   100.000200: tracing_mark_write: note, with "quotes"
 latscope-probe-700     [001] d..2.   100.000300: sched_switch: prev_comm=latscope-probe prev_pid=700 prev_prio=2 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
TXT
"$bin" export --rows samples "$tmp/markers.txt" >"$tmp/m.csv" 2>/dev/null
check "samples: exit 0" '[ $? -eq 0 ]'
python3 - "$tmp/m.csv" >"$tmp/m.out" <<'PY'
import csv, sys
with open(sys.argv[1], newline="") as f:
    for r in csv.DictReader(f):
        print("|".join([r["tid"], r["cpu"], r["ts_ns"], r["probe"], r["lat_ns"], r["text"]]))
PY
check "samples: the probe's value and the quoted text read back" '[ "$(cat "$tmp/m.out")" = "700|1|100000100000|timer|73210|latscope: probe=timer cpu=1 lat_ns=73210 seq=5
700|1|100000200000|\\N|\\N|note, with \"quotes\"" ]'
check "samples: the text with a comma and quotes is quoted, quotes doubled" \
	'grep -qF ",\\N,\\N,\"note, with \"\"quotes\"\"\"" "$tmp/m.csv"'
"$bin" export --rows samples "$ktrace" >"$tmp/k.csv" 2>/dev/null
check "samples: kernel-trace.txt's 2 tracing_mark_write lines" \
	'[ "$(($(wc -l <"$tmp/k.csv") - 1))" -eq "$(grep -c tracing_mark_write: "$ktrace")" ] &&
	 [ "$(wc -l <"$tmp/k.csv")" -eq 3 ]'

# a row longer than the writer's 4 KiB row buffer goes out whole and in order: a marker of
# 1500 times 'ab\c' (6000 bytes) is, escaped, 1500 times 'ab\x5cc' in CSV (10500 bytes) and
# 'ab\\x5cc' in JSON Lines (12000 bytes)
awk 'BEGIN { t = ""; for (i = 0; i < 1500; i++) t = t "ab\\c"
	printf " latscope-probe-700     [001] .....   100.000200: tracing_mark_write: %s\n", t }' \
	>"$tmp/long.txt"
"$bin" export --rows samples "$tmp/long.txt" 2>/dev/null | tr -d '\r' | awk -F, 'NR == 2 { print $10 }' >"$tmp/long.csv"
"$bin" export --rows samples --format jsonl "$tmp/long.txt" 2>/dev/null |
	sed 's/.*"text":"\([^"]*\)".*/\1/' >"$tmp/long.jsonl"
check "samples: a 6000-byte marker, escaped past the row buffer, whole" \
	'[ "$(tr -d "\n" <"$tmp/long.csv" | wc -c)" -eq 10500 ] &&
	 [ "$(grep -o "ab.x5cc" "$tmp/long.csv" | wc -l)" -eq 1500 ] &&
	 [ "$(tr -d "\n" <"$tmp/long.jsonl" | wc -c)" -eq 12000 ] &&
	 [ "$(grep -o "ab..x5cc" "$tmp/long.jsonl" | wc -l)" -eq 1500 ]'

# a comm with a comma and a double quote (the kernel allows both)
cat >"$tmp/comm.txt" <<'TXT'
# tracer: nop
#
#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
#              | |         |   |||||     |         |
          <idle>-0       [001] d.h2.   100.000100: sched_waking: comm=a,"b pid=700 prio=120 target_cpu=001
          <idle>-0       [001] d..2.   100.000300: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a,"b next_pid=700 next_prio=120
TXT
"$bin" export --rows waits "$tmp/comm.txt" >"$tmp/comm.csv" 2>/dev/null
check "waits: a comm with a comma and a quote is one quoted field" \
	'grep -qF ",\\N,\\N,700,\"a,\"\"b\",fair,120,1,100000100000,100000300000,200000,wakeup," "$tmp/comm.csv"'
"$bin" export --rows waits --format jsonl "$tmp/comm.txt" 2>/dev/null |
	python3 -c 'import json, sys; r = json.loads(sys.stdin.readline()); print(r["comm"], r["latency_ns"])' \
	>"$tmp/comm.jl"
check "jsonl: the same comm escaped" '[ "$(cat "$tmp/comm.jl")" = "a,\"b 200000" ]'
# control characters, DEL, a backslash and a byte that is not UTF-8 (0xe9 alone) in a comm
# and in a marker: the same text in both formats (\xNN), one line a row, the bytes back
printf '%s\n' '# tracer: nop' '#' \
 "          <idle>-0       [001] d.h2.   100.000100: sched_waking: comm=a$(printf '\t')b$(printf '\177')c\\d$(printf '\351') pid=700 prio=120 target_cpu=001" \
 "          <idle>-0       [001] d..2.   100.000300: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a$(printf '\t')b$(printf '\177')c\\d$(printf '\351') next_pid=700 next_prio=120" \
 "       a-700     [001] d..2.   100.000400: tracing_mark_write: x$(printf '\t')y$(printf '\177')z\\w$(printf '\351') v" \
	>"$tmp/ctl.txt"
for k in waits samples; do
	"$bin" export --rows $k "$tmp/ctl.txt" >"$tmp/ctl-$k.csv" 2>/dev/null
	"$bin" export --rows $k --format jsonl "$tmp/ctl.txt" >"$tmp/ctl-$k.jsonl" 2>/dev/null
done
python3 - "$tmp" >"$tmp/ctl.out" <<'PY'
import csv, json, re, sys
d = sys.argv[1]
undo = lambda s: re.sub(rb'\\x([0-9a-f]{2})', lambda m: bytes([int(m.group(1), 16)]),
                        s.encode())
for k, col, orig in (('waits', 'comm', b'a\tb\x7fc\\d\xe9'),
                     ('samples', 'text', b'x\ty\x7fz\\w\xe9 v')):
    raw = open('%s/ctl-%s.csv' % (d, k), 'rb').read()
    c = list(csv.DictReader(open('%s/ctl-%s.csv' % (d, k), newline='')))
    j = [json.loads(l) for l in open('%s/ctl-%s.jsonl' % (d, k))]
    # one row a line: no control byte but the CRLF line ends
    print(k, raw.count(b'\n') == len(c) + 1,
          not re.search(rb'[\x00-\x09\x0b\x0c\x0e-\x1f\x7f]', raw),
          [r[col] for r in c] == [r[col] for r in j], c[-1][col], undo(c[-1][col]) == orig)
PY
check "control bytes: one line a row, the same text in CSV and JSON Lines, bytes back" \
	'[ "$(cat "$tmp/ctl.out")" = "waits True True True a\x09b\x7fc\x5cd\xe9 True
samples True True True x\x09y\x7fz\x5cw\xe9 v True" ]'

# --- perfetto: the format's fields, and the counts verified above -------------
"$bin" export --perfetto "$tmp/lost.json" "$lost" 2>/dev/null
check "perfetto: exit 0" '[ $? -eq 0 ]'
python3 "$pf" "$tmp/lost.json" >"$tmp/lost.chk"
check "perfetto: valid Trace Event Format" '! grep -q "^error" "$tmp/lost.chk"'
grep "^error" "$tmp/lost.chk" | head -5
check "perfetto: a wait slice per wait (73)" '[ "$(val X.task.runnable "$tmp/lost.chk")" -eq 73 ]'
check "perfetto: an arrow per wakeup wait (49)" '[ "$(val flows "$tmp/lost.chk")" -eq 49 ]'
check "perfetto: 2 lost-events marks, 1380 + 1503 events" \
	'[ "$(val lost.marks "$tmp/lost.chk")" -eq 2 ] && [ "$(val lost.total "$tmp/lost.chk")" -eq 2883 ]'
# 110 switches, minus those whose start was not seen (not drawn): 11480's on CPU 0
# (line 2) and 11441's on CPU 1 (line 22: only untyped events before it since the gap)
check "perfetto: 108 drawn CPU slices ending at a switch" \
	'[ "$(val X.cpu.switch "$tmp/lost.chk")" -eq 108 ]'
check "perfetto: 2 CPU tracks" '[ "$(val tracks.cpu "$tmp/lost.chk")" -eq 2 ]'
"$bin" export --perfetto "$tmp/lost2.json" "$lost" 2>/dev/null
check "perfetto: deterministic" 'cmp -s "$tmp/lost.json" "$tmp/lost2.json"'

# the rcutorture console dump (samples/README.md, "ftrace-text"): 4 LOST lines,
# 16689746 + 41556131 + 16225065 + 16631447 = 91102389 events, and the stall on CPU 2
# from 10612103759us (line 527) to 10612105938us while rcu_torture_sta (72) ran and
# ksoftirqd/2 (32) was owed the CPU
rc=$repo/samples/ftrace-text/lkml-2024-rcutorture-ftrace-dump.txt
"$bin" export --perfetto "$tmp/rc.json" "$rc" 2>/dev/null
python3 "$pf" "$tmp/rc.json" >"$tmp/rc.chk"
check "rcutorture perfetto: valid" '! grep -q "^error" "$tmp/rc.chk"'
check "rcutorture perfetto: 4 lost marks, 91102389 events" \
	'[ "$(val lost.marks "$tmp/rc.chk")" -eq 4 ] && [ "$(val lost.total "$tmp/rc.chk")" -eq 91102389 ]'
check "rcutorture perfetto: the stall on CPU 2" '[ "$(grep -c "\"cat\":\"stall\"" "$tmp/rc.json")" -eq 1 ] &&
	grep -qF "\"cat\":\"stall\",\"s\":\"t\",\"ts\":10612103759.000,\"args\":{\"cpu\":2,\"dur_ns\":2179000,\"until_ns\":10612105938000,\"tid\":72,\"comm\":\"rcu_torture_sta\",\"waiting_tid\":32," "$tmp/rc.json"'

# the checker's own tests: tests/e2e/test_perfetto.sh

# --- a real viewer's parser, offline: Chrome DevTools' trace engine -----------------------
# (npm @paulirish/trace_engine, the Performance panel's; scripts/install-deps.sh installs it):
# it loads the file, makes a named thread per track with exactly its X events, none nested
# under another, and the trace's bounds are the file's (tests/e2e/export_check_devtools.mjs)
te=${LAT_TRACE_ENGINE:-/usr/local/lib/latscope-npm/node_modules/@paulirish/trace_engine}
dt="$repo/tests/e2e/export_check_devtools.mjs"
if command -v node >/dev/null 2>&1 && [ -f "$te/analyze-trace.mjs" ]; then
	for j in lost rc; do
		node "$dt" "$tmp/$j.json" "$te" >"$tmp/$j.dt" 2>&1
		check "DevTools engine: $j.json loads as written" \
			'[ -s "$tmp/$j.dt" ] && ! grep -q "^error" "$tmp/$j.dt"'
		grep "^error" "$tmp/$j.dt" | head -3
		check "DevTools engine: $j.json's X events all on their threads, CPU tracks" \
			'[ "$(val X "$tmp/$j.dt")" -eq "$(val ph.X "$tmp/$j.chk")" ] &&
			 [ "$(val threads.cpu "$tmp/$j.dt")" -eq "$(val tracks.cpu "$tmp/$j.chk")" ]'
	done
	# 110 CPU slices, 102 of them a task's (not idle) also on its track, 73 waits, 49 wakings;
	# 2 CPUs, 36 tasks, and the irq tracks of the 27 wakings in an interrupt (CPU 0 softirq,
	# CPU 1 irq and softirq)
	check "DevTools engine: 334 slices on 41 threads (2 CPUs, 36 tasks, 3 irq) in lost.json" \
		'[ "$(val X "$tmp/lost.dt")" -eq 334 ] && [ "$(val threads "$tmp/lost.dt")" -eq 41 ]'
	# rcu_preempt's first slice on CPU 0 stretched over the next one (2282 us from +8 us)
	sed '0,/"ts":918173468.000,"dur":8.000,"name":"rcu_preempt:15"/s//"ts":918173468.000,"dur":2400.000,"name":"rcu_preempt:15"/' \
		"$tmp/lost.json" >"$tmp/spoilt.json"
	node "$dt" "$tmp/spoilt.json" "$te" >"$tmp/spoilt.dt" 2>&1
	check "DevTools engine check: a slice inside another is found" \
		'grep -q "^error: thread 4194305/4194306 (CPU 0): 1 slices nested" "$tmp/spoilt.dt"'
	sed '/"thread_name".*"CPU 1"/d' "$tmp/lost.json" >"$tmp/spoilt.json"
	node "$dt" "$tmp/spoilt.json" "$te" >"$tmp/spoilt.dt" 2>&1
	check "DevTools engine check: a thread without its name is found" \
		'grep -q "^error: thread 4194305/4194307: named null" "$tmp/spoilt.dt"'
else
	echo "test_export: no node or DevTools trace engine ($te): viewer load skipped" \
		"(scripts/install-deps.sh installs it)"
fi

# --- a graphical viewer, offline: speedscope (npm, installed by scripts/install-deps.sh) in
# headless Chromium opens the file as the speedscope command line does (the file base64 in a
# script it loads); its profile list (in the DOM) names one profile per track,
# "PROCESS (pid P), THREAD (tid T)", as the file's process_name and thread_name say
ss=${LAT_SPEEDSCOPE:-/usr/local/lib/latscope-npm/node_modules/speedscope}/dist/release/index.html
chromium=$(command -v chromium || command -v chromium-browser)
if [ -n "$chromium" ] && [ -f "$ss" ]; then
	python3 - "$tmp/lost.json" >"$tmp/ss.js" <<'PY'
import base64, json, sys
data = base64.b64encode(open(sys.argv[1], "rb").read()).decode()
print("speedscope.loadFileFromBase64(%s, %s)" % (json.dumps("lost.json"), json.dumps(data)))
PY
	timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --user-data-dir="$tmp/profile" \
		--no-first-run --disable-extensions --allow-file-access-from-files \
		--virtual-time-budget=10000 --dump-dom "file://$ss#localProfilePath=$tmp/ss.js" \
		>"$tmp/ss.html" 2>/dev/null
	grep -o 'title="[^"]*(tid [0-9]*)"' "$tmp/ss.html" | sed 's/^title="//; s/"$//' | sort \
		>"$tmp/ss.tracks"
	python3 - "$tmp/lost.json" <<'PY' | sort >"$tmp/file.tracks"
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
procs = {e["pid"]: e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "process_name"}
for e in ev:
    if e["ph"] == "M" and e["name"] == "thread_name":
        print("%s (pid %d), %s (tid %d)" % (procs[e["pid"]], e["pid"], e["args"]["name"], e["tid"]))
PY
	check "speedscope: lost.json opens with its 41 tracks, named as in the file" \
		'[ "$(wc -l <"$tmp/ss.tracks")" -eq 41 ] && cmp -s "$tmp/ss.tracks" "$tmp/file.tracks" &&
		 grep -q "CPUs (pid 4194305), CPU 0 (tid 4194306)" "$tmp/ss.tracks"'
else
	echo "test_export: no chromium or speedscope ($ss): speedscope load skipped" \
		"(scripts/install-deps.sh installs them)"
fi

if command -v trace-cmd >/dev/null 2>&1; then
	"$bin" export --perfetto "$tmp/mixed.json" "$fixture" 2>/dev/null
	python3 "$pf" "$tmp/mixed.json" >"$tmp/mixed.chk"
	check "fixture perfetto: valid" '! grep -q "^error" "$tmp/mixed.chk"'
	if command -v node >/dev/null 2>&1 && [ -f "$te/analyze-trace.mjs" ]; then
		node "$dt" "$tmp/mixed.json" "$te" >"$tmp/mixed.dt" 2>&1
		check "fixture: the DevTools engine loads its 17 MB, every slice on its thread" \
			'! grep -q "^error" "$tmp/mixed.dt" &&
			 [ "$(val X "$tmp/mixed.dt")" -eq "$(val ph.X "$tmp/mixed.chk")" ]'
	fi
	"$bin" export --rows slices "$fixture" 2>/dev/null | unnull >"$tmp/mixed.csv"
	tsw=$(trace-cmd report "$fixture" 2>/dev/null | grep -c "sched_switch:")
	check "fixture: a slice row per switch of trace-cmd report ($tsw)" \
		'[ "$(tr -d "\r" <"$tmp/mixed.csv" | awk -F, "\$12 == \"switch\"" | wc -l)" -eq "$tsw" ]'
	check "fixture: the drawn ones are those with a start" \
		'[ "$(val X.cpu.switch "$tmp/mixed.chk")" -eq \
		   "$(tr -d "\r" <"$tmp/mixed.csv" | awk -F, "\$12 == \"switch\" && \$9 != \"\"" | wc -l)" ]'
	# `trace-cmd dump --options`: "[Option UNAME, 32 bytes] Linux vm 6.18.44-fc-v669 x86_64"
	check "fixture: host vm from the UNAME option, in every row and in otherData" \
		'[ "$(tr -d "\r" <"$tmp/mixed.csv" | awk -F, "NR > 1 { print \$2 }" | sort -u)" = vm ] &&
		 grep -q "\"otherData\":{.*\"host\":\"vm\"}" "$tmp/mixed.json"'
	check "ftrace text: no host" \
		'[ "$(tr -d "\r" <"$tmp/s.csv" | awk -F, "NR > 1 { print \$2 }" | sort -u)" = "" ]'
	# the rows agree with the report's counts (docs/export.md)
	"$bin" export --rows waits "$fixture" 2>/dev/null | tr -d "\r" |
		awk -F, 'NR > 1 && $15 == 1 { n[$12 == "preempt"]++ } END { print n[0] + 0, n[1] + 0 }' \
		>"$tmp/mixed.n"
	"$bin" analyze --json "$fixture" 2>/dev/null | python3 -c '
import json, sys
w = json.load(sys.stdin)["inputs"][0]["blocks"][0]["wakeup"]
print(w["waits"], w["preempt_waits"])' >"$tmp/mixed.a"
	check "fixture: trusted wait rows = analyze's waits and preempt_waits (18368 5219)" \
		'cmp -s "$tmp/mixed.n" "$tmp/mixed.a" && [ "$(cat "$tmp/mixed.n")" = "18368 5219" ]'
else
	echo "test_export: trace-cmd not installed, fixture checks skipped"
fi

# --- usage ------------------------------------------------------------------
"$bin" export "$lost" >/dev/null 2>"$tmp/u.err"
check "no --rows nor --perfetto: usage error" '[ $? -eq 2 ] && grep -q "one of --perfetto" "$tmp/u.err"'
"$bin" export --rows cases "$lost" >/dev/null 2>"$tmp/u.err"
check "--rows cases: usage error" '[ $? -eq 2 ] && grep -q "expected waits, slices, samples, stalls or traces" "$tmp/u.err"'
"$bin" export --rows waits --format xml "$lost" >/dev/null 2>"$tmp/u.err"
check "--format xml: usage error" '[ $? -eq 2 ] && grep -q "expected csv or jsonl" "$tmp/u.err"'
"$bin" export --rows waits "$repo/samples/lat/seed000-2x-lat-20000000-vs-10000000.txt" \
	>"$tmp/nt.csv" 2>"$tmp/nt.err"
check "not an event trace: exit 2, says so, header only" \
	'[ $? -eq 2 ] && grep -q "not an event trace" "$tmp/nt.err" && [ "$(wc -l <"$tmp/nt.csv")" -eq 1 ]'
"$bin" export --perfetto /nonexistent/dir/x.json "$lost" 2>"$tmp/w.err"
check "unwritable output: exit 1" '[ $? -eq 1 ] && grep -q "cannot write" "$tmp/w.err"'

# --- several tables in one pass: each file what one --rows KIND gives ----------
cyc=$repo/samples/tracedat/cyclictest-stress-v7-zstd.dat
probe=$repo/samples/tracedat/probe-stop-v7-zstd.dat	# markers for the samples table
for fmt in csv jsonl; do
	"$bin" export --rows all --format $fmt -t 1ms -o "$tmp/all-$fmt" "$cyc" "$lost" "$probe" \
		2>"$tmp/all.err"
	check "--rows all ($fmt): exit 0, five files" \
		'[ $? -eq 0 ] && [ "$(ls "$tmp/all-$fmt" | wc -l)" -eq 5 ]'
	for k in waits slices samples stalls traces; do
		"$bin" export --rows $k --format $fmt -t 1ms "$cyc" "$lost" "$probe" >"$tmp/one.$fmt" \
			2>/dev/null
		check "--rows all ($fmt): $k.$fmt is --rows $k's output" \
			'cmp -s "$tmp/one.$fmt" "$tmp/all-$fmt/$k.$fmt" && [ -s "$tmp/one.$fmt" ]'
	done
done
"$bin" export --rows stalls,traces -o "$tmp/two" "$cyc" 2>/dev/null
check "--rows stalls,traces: the two files" \
	'[ "$(ls "$tmp/two" | tr "\n" " ")" = "stalls.csv traces.csv " ]'
"$bin" export --rows waits,traces "$cyc" >/dev/null 2>"$tmp/u.err"
check "several kinds without -o DIR: usage error" \
	'[ $? -eq 2 ] && grep -q "give -o DIR" "$tmp/u.err"'
"$bin" export --rows waits,cases -o "$tmp/bad" "$cyc" >/dev/null 2>"$tmp/u.err"
check "--rows waits,cases: usage error naming cases" \
	'[ $? -eq 2 ] && grep -q "got .cases.$" "$tmp/u.err" && [ ! -e "$tmp/bad" ]'
"$bin" export --rows all -o /nonexistent/dir "$cyc" 2>"$tmp/w.err"
check "--rows all into a directory that cannot be made: exit 1" \
	'[ $? -eq 1 ] && grep -q "cannot make /nonexistent/dir" "$tmp/w.err"'

# --- trace_id: FNV-1a 64 of the file's bytes (docs/export.md), the fleet's key -----------
# computed apart by python, against what every table's rows carry while the hash runs on a
# thread of its own (cli/export_id.c): two inputs, each its own id, in every table; no row
# keeps a byte of the held id (0x01)
fnv() { python3 -c 'import sys
h = 14695981039346656037
for b in open(sys.argv[1], "rb").read():
	h = ((h ^ b) * 1099511628211) % (1 << 64)
print("%016x" % h)' "$1"; }
rm -rf "$tmp/ids"
"$bin" export --rows all --format jsonl -o "$tmp/ids" "$fixture" "$cyc" 2>/dev/null
check "--rows all of two traces: exit 0" '[ $? -eq 0 ]'
fx=$(fnv "$fixture")
cy=$(fnv "$cyc")
for t in waits slices stalls traces; do
	python3 -c 'import json, sys
ids = {}
for line in open(sys.argv[1]):
	r = json.loads(line)
	ids.setdefault(r["trace"], set()).add(r["trace_id"])
for t, i in sorted(ids.items()):
	print(t, *sorted(i))' "$tmp/ids/$t.jsonl" >"$tmp/ids.$t"
	# the fixture has no stall: cyclictest's trace alone there
	n=2
	[ $t = stalls ] && n=1
	check "--rows $t: each trace's rows carry its FNV-1a 64" \
		'{ [ $t = stalls ] || grep -qx "$fixture $fx" "$tmp/ids.$t"; } &&
		 grep -qx "$cyc $cy" "$tmp/ids.$t" &&
		 [ "$(wc -l <"$tmp/ids.$t")" -eq $n ] &&
		 ! grep -q "$(printf "\001")" "$tmp/ids/$t.jsonl"'
done
"$bin" export --rows waits "$fixture" 2>/dev/null | tr -d '\r' | awk -F, 'NR > 1 { print $(NF - 1) }' |
	sort -u >"$tmp/ids.csv"
check "--rows waits as CSV: one trace_id, the file's FNV-1a 64" '[ "$(cat "$tmp/ids.csv")" = "$fx" ]'

# --- the records written on a thread of their own (--jobs 2, cli/export_pipe.c) ----------
# the same bytes as on the analysis' own thread (--jobs 1), the records in their order:
# over several traces at once, and with a marker of 70000 bytes (17500 times 'ab\c'),
# more than the pipe's 64 KiB chunk, which the analysis' thread writes itself in its place
awk 'BEGIN { t = ""; for (i = 0; i < 17500; i++) t = t "ab\\c"
	printf " latscope-probe-700     [001] .....   100.000100: tracing_mark_write: short\n"
	printf " latscope-probe-700     [001] .....   100.000200: tracing_mark_write: %s\n", t
	printf " latscope-probe-700     [001] .....   100.000300: tracing_mark_write: after\n" }' \
	>"$tmp/huge.txt"
for j in 1 2; do
	rm -rf "$tmp/pipe$j"
	"$bin" export --jobs $j --rows all -o "$tmp/pipe$j" "$fixture" "$ktrace" "$lost" \
		"$tmp/huge.txt" 2>"$tmp/pipe$j.err"
	echo $? >>"$tmp/pipe$j.err"
	"$bin" export --jobs $j --perfetto "$tmp/pipe$j/p.json" "$fixture" 2>>"$tmp/pipe$j.err"
	"$bin" export --jobs $j --perfetto "$tmp/pipe$j/h.json" "$tmp/huge.txt" 2>>"$tmp/pipe$j.err"
	"$bin" export --jobs $j --rows waits --format jsonl --trace-id x -o "$tmp/pipe$j/w.jsonl" \
		"$lost" 2>>"$tmp/pipe$j.err"
done
check "--jobs 2: every table and trace event as with --jobs 1" \
	'diff -r "$tmp/pipe1" "$tmp/pipe2" >/dev/null && cmp -s "$tmp/pipe1.err" "$tmp/pipe2.err" &&
	 [ "$(ls "$tmp/pipe2" | wc -l)" -eq 8 ]'
# the three markers in their order; the long one is 17500 times 'ab\x5cc' (122500 bytes)
tr -d '\r' <"$tmp/pipe2/samples.csv" | awk -F, '$1 ~ /huge/ { print length($10) }' \
	>"$tmp/pipe.len"
check "--jobs 2: the 70000-byte marker between the others, whole" \
	'[ "$(cat "$tmp/pipe.len" | tr "\n" " ")" = "5 122500 5 " ] &&
	 [ "$(grep -o "ab.x5cc" "$tmp/pipe2/samples.csv" | wc -l)" -eq 17500 ]'

# into files the rows go out before the hash is known and get their id in place when it is
# (cli/export_id.c): the same bytes as the rows held for stdout, on the v6 fixture repeated
# three times; no 0x01 left.  Whether any row goes out before the hash is done is a race
# (on a loaded machine the hash can win): strace's pwrite()s say which path this run took,
# and the bytes are checked either way
v6=${LAT_FIXTURE_V6:-$repo/build/fixtures/tracecmd-mixed-v6.dat}
if [ -f "$v6" ] && python3 "$repo/scripts/tracedat_v6_tool.py" repeat "$v6" "$tmp/v6x3.dat" 3 \
	>/dev/null 2>&1; then
	rm -rf "$tmp/place"
	if command -v strace >/dev/null; then
		strace -f -o "$tmp/place.strace" -e trace=pwrite64 \
			"$bin" export --rows waits,slices -o "$tmp/place" "$tmp/v6x3.dat" 2>/dev/null
		grep -q "pwrite64(" "$tmp/place.strace" ||
			echo "note: the hash was done before the first rows: no row patched this run"
	else
		"$bin" export --rows waits,slices -o "$tmp/place" "$tmp/v6x3.dat" 2>/dev/null
	fi
	"$bin" export --rows waits "$tmp/v6x3.dat" >"$tmp/place.w" 2>/dev/null
	"$bin" export --rows slices "$tmp/v6x3.dat" >"$tmp/place.s" 2>/dev/null
	check "in place: the ids as the rows held for stdout, none left held" \
		'cmp -s "$tmp/place/waits.csv" "$tmp/place.w" &&
		 cmp -s "$tmp/place/slices.csv" "$tmp/place.s" &&
		 ! grep -q "$(printf "\001")" "$tmp/place/waits.csv" "$tmp/place/slices.csv" &&
		 [ "$(tr -d "\r" <"$tmp/place.w" | awk -F, "NR > 1 { print \$(NF - 1) }" |
		      sort -u | wc -l)" -eq 1 ]'
fi

[ $fail -eq 0 ] && echo "test_export: all passed"
exit $((fail > 0))
