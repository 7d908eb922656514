#!/bin/bash
# The gap probe on the real kernel (needs root, tracefs, stress-ng, trace-cmd; docs/probe.md,
# "The gap probe's samples").  `latscope record --probe timer:200 --probe gap --irq
# --timer-detail -d 2s` beside `stress-ng --cpu 2`, then:
#  1. every decomposed gap sample's parts add up to its lat_ns, their shares to 100.0 %;
#  2. the worst gap sample's parts are what `trace-cmd report -t` of its CPU shows, computed
#     here without latscope: slices from sched_switch, handlers from irq/softirq/local_timer
#     entry and exit, each ns of [marker - lat_ns, marker] to a handler, else another task,
#     else the gap thread (after its last switch in: probe-path; before: silent, which is the
#     stall part); where a switch is missing (an event of a task the recorded switches do
#     not have on the CPU, or a switch out of one), from the CPU's last event before to it
#     is no one's, unknown (docs/wakeup.md, "Missing switches"); unless a silence of 2 ms
#     or more lies in it (a stall the wakeup analysis may have found): then only 1. is
#     checked;
#  3. each probe CPU's count is the recorder's printed summary;
#  4. `--policy rt --fail-above 1ns`: the gate checks no gap probe CPU (SCHED_OTHER) and says
#     it left out exactly the gap probe's samples.
# The recorder's own instance is gone afterwards.
# usage: test_probe_gap.sh LATSCOPE
set -u
bin=$1
t=/sys/kernel/tracing
if [ "$(id -u)" != 0 ] || [ ! -d "$t/instances" ] || ! command -v stress-ng >/dev/null ||
   ! command -v trace-cmd >/dev/null || [ ! -d "$t/events/irq_vectors/local_timer_entry" ]; then
	echo "skip: needs root, tracefs with irq_vectors, stress-ng and trace-cmd"
	exit 0
fi
tmp=$(mktemp -d /tmp/latscope-gap-XXXXXX)
trap '[ "${fail:-1}" = 0 ] && rm -rf "$tmp" || echo "files kept in $tmp"' EXIT
fail=0

stress-ng --cpu 2 --timeout 4s >/dev/null 2>&1 &
load=$!
sleep 0.5
"$bin" record -o "$tmp/gap.dat" --irq --timer-detail --probe timer:200 --probe gap -d 2s \
	2>"$tmp/rec.err"
rc=$?
wait "$load"
if [ $rc -ne 0 ]; then
	echo "FAIL: record exited $rc"; cat "$tmp/rec.err"; exit 1
fi
inst=$(sed -n 's/.*(instance \(latscope-[0-9]*\)).*/\1/p' "$tmp/rec.err")
if [ -z "$inst" ] || [ -d "$t/instances/$inst" ]; then
	echo "FAIL: the recorder's instance '$inst' is left (or was not named)"; fail=1
fi
"$bin" analyze --json --worst 1000 "$tmp/gap.dat" >"$tmp/a.json" 2>/dev/null
trace-cmd report -t "$tmp/gap.dat" >"$tmp/report.txt" 2>/dev/null
python3 - "$tmp/a.json" "$tmp/rec.err" "$tmp/report.txt" <<'PY' || fail=1
import json, re, sys
d = json.load(open(sys.argv[1]))
p = d["inputs"][0]["blocks"][0]["probe"]
bad = 0
gaps = [s for s in p["worst"] if s["probe"] == "gap"]
if not gaps:
    print("FAIL: no gap sample decomposed"); sys.exit(1)
for s in gaps:
    ns = [x["ns"] for x in s["parts"]]
    if sum(ns) != s["lat_ns"] or round(sum(x["share_pct"] for x in s["parts"]), 6) != 100:
        print("FAIL: parts of", s); bad = 1
print("%d gap samples, their parts add up" % len(gaps))

printed = {}
for l in open(sys.argv[2]):
    m = re.search(r"latscope: probe=(\w+) cpu=(\d+) samples=(\d+)", l)
    if m:
        printed[(m.group(1), int(m.group(2)))] = int(m.group(3))
for c in p["cpus"]:
    if printed.get((c["probe"], c["cpu"])) != c["count"]:
        print("FAIL: %s cpu%d count %d, printed %s" %
              (c["probe"], c["cpu"], c["count"], printed.get((c["probe"], c["cpu"]))))
        bad = 1

# 2.: the worst gap sample, from trace-cmd's text of its CPU
w = gaps[0]
lo, hi, pid = w["window_ns"]["from"], w["window_ns"]["to"], w["tid"]
ev = []
for l in open(sys.argv[3]):
    m = re.match(r"\s*(.+?)-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+): (\w+):\s+(.*)", l)
    if m and int(m.group(3)) == w["cpu"]:
        ev.append((int(m.group(4)) * 10**9 + int(m.group(5).ljust(9, "0")), int(m.group(2)),
                   m.group(6), m.group(7)))
# the events latscope reads that name the running task (local_timer_* are not among them)
noted = {"sched_waking", "sched_wakeup", "sched_wakeup_new", "sched_migrate_task",
         "sched_process_fork", "sched_process_exec", "sched_process_exit", "irq_handler_entry",
         "irq_handler_exit", "softirq_entry", "softirq_exit", "hrtimer_expire_entry",
         "hrtimer_expire_exit", "print"}
slices, hand, opened, cur, start, last, missing = [], [], [], None, None, None, None
for ts, who, name, rest in ev:
    if cur is None:
        cur, start = who, ts
    sw = re.search(r":(\d+) \[-?\d+\] \S+ ==> .*:(\d+) \[", rest) \
        if name == "sched_switch" else None
    now = int(sw.group(1)) if sw else who if name in noted else cur
    if now != cur:
        # a switch is missing: cur ran to the CPU's last event, then no one known (None)
        slices += [(start, last, cur), (last, ts, None)]
        if lo <= ts and last <= hi and missing is None:
            missing = (ts, now, cur)
        cur, start = now, ts
    if sw:
        slices.append((start, ts, int(sw.group(1))))
        cur, start = int(sw.group(2)), ts
    elif name in ("irq_handler_entry", "softirq_entry", "local_timer_entry"):
        opened.append(ts)
    elif name in ("irq_handler_exit", "softirq_exit", "local_timer_exit") and opened:
        hand.append((opened.pop(), ts))
    last = ts
slices.append((start, max(hi, start), cur))
quiet = max([b[0] - a[0] for a, b in zip(ev, ev[1:]) if b[0] >= lo and a[0] <= hi] or [0])
pts = sorted({lo, hi} | {x for s in slices for x in s[:2] if lo < x < hi} |
             {x for h in hand for x in h if lo < x < hi})
own = [s[0] for s in slices if s[2] == pid and s[0] < hi <= s[1]]
path_from = own[0] if own and own[0] > lo else hi + 1
got = {"irq": 0, "preempted": 0, "stall": 0, "probe-path": 0, "unknown": 0}
for a, b in zip(pts, pts[1:]):
    cover = [s for s in slices if s[0] <= a and b <= s[1]]
    if any(h[0] <= a and b <= h[1] for h in hand):
        got["irq"] += b - a
    elif not cover or cover[-1][2] is None:
        got["unknown"] += b - a
    elif cover[-1][2] != pid:
        got["preempted"] += b - a
    else:
        got["probe-path" if a >= path_from else "stall"] += b - a
mine = {x["part"]: x["ns"] for x in w["parts"]}
if missing:
    print("the worst gap sample holds a missing switch: %d at %d while the switches say %d ran"
          % (missing[1], missing[0], missing[2]))
if quiet >= 2000000:
    print("the worst gap sample holds a silence of %d ns: only its sum checked" % quiet)
elif got != mine:
    print("FAIL: gap cpu%d seq %d: latscope %s, trace-cmd %s" % (w["cpu"], w["seq"], mine, got))
    bad = 1
else:
    print("gap cpu%d seq %d (%d ns) = %s, as trace-cmd shows" % (w["cpu"], w["seq"],
          w["lat_ns"], mine))
sys.exit(bad)
PY

"$bin" analyze --json --policy rt --fail-above 1ns "$tmp/gap.dat" >"$tmp/rt.json" 2>/dev/null
python3 - "$tmp/rt.json" "$tmp/rec.err" <<'PY' || fail=1
import json, re, sys
d = json.load(open(sys.argv[1]))
g = d["gate"]
want = sum(int(m.group(1)) for m in
           (re.search(r"latscope: probe=gap cpu=\d+ samples=(\d+)", l) for l in open(sys.argv[2]))
           if m)
if any(c["probe"] == "gap" for c in g["probe_cpus"]) or g.get("samples_left_out") != want:
    print("FAIL: --policy rt: gate %s, gap samples %d" % (g, want)); sys.exit(1)
print("--policy rt: the gate left out the gap probe's %d samples" % want)
PY

[ $fail -eq 0 ] && echo "ok: probe gap" || exit 1
