#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The CI gate: `analyze --fail-above DUR` exits 3 when a selected task's wakeup wait or a probe
# sample exceeds DUR, with limits just below and at the known maxima of two recordings
# (samples/tracedat/README.md, "The CI gate's limits", says how each was checked).
# Usage: test_gate.sh BIN REPO
bin=$1
repo=$2
tmp=$(mktemp -d /tmp/latscope-gate-e2e.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT
. "$repo/tests/e2e/check.sh"
cyc=$repo/samples/tracedat/cyclictest-stress-v7-zstd.dat
probe=$repo/samples/tracedat/probe-stop-v7-zstd.dat

# gate LIMIT EXPECTED-EXIT ARGS...: runs analyze, keeps stdout in $tmp/out
gate() {
	lim=$1
	want=$2
	shift 2
	"$bin" analyze --fail-above "$lim" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	check "--fail-above $lim $*: exit $want (got $rc)" '[ $rc -eq $want ]'
}

# cyclictest/20718's worst wakeup: 450.850177406 - 450.844462793 = 5714613 ns, the trace's
# largest counted wakeup wait
gate 5714612ns 3 "$cyc"
check "cyclictest: the gate section says FAILED with the exact limit" \
	'grep -q "^== gate: --fail-above 5.71 ms (5714612 ns): FAILED ==$" "$tmp/out"'
check "cyclictest: the task over the limit, with its worst wait" \
	'grep -q "cyclictest-stress-v7-zstd.dat: cyclictest/20718 SCHED_FIFO 80: worst wakeup wait 5.71 ms (ended at 450.850177406)" "$tmp/out"'
check "cyclictest: the case over the limit with its times and verdict" \
	'grep -q "case 1: cyclictest/20718 waited 5.71 ms on CPU0 (450.844462793 .. 450.850177406): stall$" "$tmp/out"'
check "cyclictest: exactly one task over the limit" \
	'grep -q "^  above 5.71 ms: 1 wakeup wait (1 task), 0 probe samples (0 probe CPUs)$" "$tmp/out" &&
	 [ "$(grep -c "worst wakeup wait" "$tmp/out")" -eq 1 ]'
# 2434 counted waits: 2422 + 12 inferred switch-ins (docs/wakeup.md)
gate 5714613ns 0 "$cyc"
check "cyclictest: at the limit (not above) the gate passes" \
	'grep -q "^== gate: --fail-above 5.71 ms (5714613 ns): passed ==$" "$tmp/out" &&
	 grep -q "^  checked: 2434 wakeup waits and 0 probe samples in 1 event trace; 9 untrusted" "$tmp/out"'
# the same in other units: 5.714 ms < 5714613 ns < 5.715 ms; a bare number is microseconds
gate 5.714ms 3 "$cyc"
gate 5.715ms 0 "$cyc"
gate 5714us 3 "$cyc"
gate 5715 0 "$cyc"
gate 5714 3 "$cyc"
gate 0.005714s 3 "$cyc"
gate 0.006s 0 "$cyc"
# the selection: the FIFO thread alone, then only SCHED_OTHER tasks, whose largest wait is
# bash/20725's 452.321424002 - 452.316007057 = 5416945 ns (a new task)
gate 5714612ns 3 --task 20718 "$cyc"
gate 5714612ns 0 --task 20717 "$cyc"
gate 5714612ns 3 --policy rt "$cyc"
gate 5416944ns 3 --policy fair "$cyc"
check "--policy fair: bash/20725 is over the limit, cyclictest/20718 is not selected" \
	'grep -q "bash/20725 SCHED_OTHER nice 0: worst wakeup wait 5.42 ms" "$tmp/out" &&
	 ! grep -q "cyclictest/20718 SCHED_FIFO" "$tmp/out"'
gate 5416945ns 0 --policy fair "$cyc"
gate 5714612ns 3 --min-prio 80 "$cyc"
gate 5714612ns 0 --min-prio 81 "$cyc"

# JSON: the gate object lists the same
gate 5416944ns 3 --json "$cyc"
check "--json: gate.passed false, limit_ns, 2 tasks above (20718, 20725)" \
	'python3 - "$tmp/out" <<PY
import json, sys
g = json.load(open(sys.argv[1]))["gate"]
assert g["limit_ns"] == 5416944 and g["passed"] is False, g
assert [(t["tid"], t["max_ns"]) for t in g["tasks"]] == [(20718, 5714613), (20725, 5416945)], g
assert [(c["tid"], c["latency_ns"], c["verdict"]) for c in g["cases"]] == \
	[(20718, 5714613, "stall"), (20725, 5416945, "cpu-saturated")], g["cases"]
assert g["waits"] == 2434 and g["samples"] == 0 and g["probe_cpus"] == [], g
PY'
gate 6ms 0 --json "$cyc"
check "--json: gate.passed true, no task listed" \
	'python3 -c "import json,sys; g=json.load(open(sys.argv[1]))[\"gate\"]; \
		assert g[\"passed\"] is True and g[\"tasks\"] == [] and g[\"cases\"] == []" "$tmp/out"'
"$bin" analyze --json "$cyc" >"$tmp/nogate.json"
check "--json without --fail-above: no gate member; every task (45), not --top's 20" \
	'python3 -c "import json,sys; d=json.load(open(sys.argv[1])); w=d[\"inputs\"][0][\"blocks\"][0][\"wakeup\"]; \
		assert \"gate\" not in d and w[\"ntasks\"] == 45 and len(w[\"tasks\"]) == 45" "$tmp/nogate.json"'
"$bin" analyze --json --top 7 "$cyc" >"$tmp/top.json"
check "--json --top 7: 7 tasks" \
	'python3 -c "import json,sys; d=json.load(open(sys.argv[1])); \
		assert len(d[\"inputs\"][0][\"blocks\"][0][\"wakeup\"][\"tasks\"]) == 7" "$tmp/top.json"'

# probe samples: the timer probe of CPU1 stopped the recording on 1344909 ns, the largest
# sample; its thread latscope/24483 waited at most 669546 ns for a CPU
gate 1344908ns 3 --task 24483 "$probe"
check "probe: the CPU and the sample over the limit" \
	'grep -q "probe-stop-v7-zstd.dat: probe timer cpu1: max 1.34 ms over 187 samples (from summary)" "$tmp/out" &&
	 grep -q "probe-stop-v7-zstd.dat: probe sample timer cpu1 seq 185: 1.34 ms at 4438.260879377" "$tmp/out" &&
	 grep -q "^  above 1.34 ms: 0 wakeup waits (0 tasks), 1 probe sample (1 probe CPU)$" "$tmp/out"'
gate 1344909ns 0 --task 24483 "$probe"
gate 669545ns 3 --task 24483 "$probe"
check "probe: at 669545 ns the task and both probe CPUs (max 870443, 1344909) are above" \
	'grep -q "^  above 670 us: 1 wakeup wait (1 task), [0-9]* probe samples (2 probe CPUs)$" "$tmp/out"'

# --- the counts: how many waits and probe samples exceeded the limit ---------------
# Apart from the gate: the rows of `latscope export` (the waits the analysis ends, docs/export.md)
# counted by awk: trusted ($15) wakeup/new ($12) waits with latency_ns ($11) above the limit,
# of the selected tasks (tid $4, policy $6); the probe markers' lat_ns ($9) above it.
"$bin" export --rows waits "$cyc" 2>/dev/null | tr -d '\r' >"$tmp/waits.csv"
"$bin" export --rows samples "$probe" 2>/dev/null | tr -d '\r' >"$tmp/samples.csv"
# rows LIMIT_NS [FIELD VALUE]: wait rows above the limit (of the tasks with $FIELD == VALUE)
rows() {
	awk -F, -v lim="$1" -v f="${2:-0}" -v val="$3" 'NR > 1 && NF == 22 && $15 == 1 &&
		$12 != "preempt" && $11 > lim && (f == 0 || $f == val)' "$tmp/waits.csv" | wc -l
}
# said LIMIT: the gate's "above" line, as "WAITS SAMPLES"
said() {
	sed -n "s/^  above [^:]*: \([0-9]*\) wakeup waits\{0,1\} ([^)]*), \([0-9]*\) probe samples\{0,1\} .*/\1 \2/p" \
		"$tmp/out"
}
for spec in "1ms 1000000" "300us 300000" "50us 50000" "5ms 5000000"; do
	set -- $spec
	gate "$1" 3 "$cyc"
	n=$(rows "$2")
	check "--fail-above $1: the gate counts the $n waits the rows show above it" \
		'[ "$(said)" = "$n 0" ] && [ "$n" -gt 0 ]'
	gate "$1" 3 --policy rt "$cyc"
	n=$(rows "$2" 6 rt)
	check "--fail-above $1 --policy rt: $n waits" '[ "$(said)" = "$n 0" ] && [ "$n" -gt 0 ]'
	gate "$1" 3 --task 20718 "$cyc"
	n=$(rows "$2" 4 20718)
	check "--fail-above $1 --task 20718: $n waits" '[ "$(said)" = "$n 0" ] && [ "$n" -gt 0 ]'
done
# by hand: 30 waits above 1 ms (the 30 judged at -t 1ms, test_export.sh), of 16 tasks
check "cyclictest: 30 waits above 1 ms" '[ "$(rows 1000000)" -eq 30 ]'
gate 1ms 3 --json "$cyc"
check "--json: waits_over 30, samples_over 0" \
	'python3 -c "import json,sys; g=json.load(open(sys.argv[1]))[\"gate\"]; \
		assert (g[\"waits_over\"], g[\"samples_over\"]) == (30, 0), g" "$tmp/out"'
gate 6ms 0 --json "$cyc"
check "--json, passed: waits_over 0" \
	'python3 -c "import json,sys; g=json.load(open(sys.argv[1]))[\"gate\"]; \
		assert (g[\"waits_over\"], g[\"samples_over\"]) == (0, 0), g" "$tmp/out"'
# probe markers above 669545 ns: 687905, 740596, 870443, 826741, 734090, 1344909 (by eye in
# the 35 marker rows with a lat_ns)
m=$(awk -F, 'NR > 1 && $9 != "" && $9 > 669545' "$tmp/samples.csv" | wc -l)
gate 669545ns 3 --task 24483 "$probe"
check "probe: the 6 samples above 669545 ns, as the marker rows" \
	'[ "$m" -eq 6 ] && [ "$(said)" = "1 6" ]'
gate 669545ns 3 --task 24483 --json "$probe"
check "probe --json: waits_over 1, samples_over 6" \
	'python3 -c "import json,sys; g=json.load(open(sys.argv[1]))[\"gate\"]; \
		assert (g[\"waits_over\"], g[\"samples_over\"]) == (1, 6), g" "$tmp/out"'

# --policy / --min-prio select the probe CPUs by their thread's class (docs/probe.md): in
# probe-gap the timer probe runs SCHED_FIFO 95 (cpu1 max 1265373 ns), the gap probe SCHED_OTHER
# (cpu1 max 925529 ns; 46 + 94 samples), samples/README-probe.md.  Above 900 us: both CPUs 1
# without a selection; the timer's alone with --policy rt, the gap probe's 140 samples left
# out of the gate as of the probe section; nothing with --min-prio 99 (FIFO 95 < 99).
gap=$repo/samples/tracedat/probe-gap-v7-zstd.dat
gate 900us 3 --json "$gap"
check "probe-gap: timer cpu1 and gap cpu1 above 900 us" \
	'python3 - "$tmp/out" <<PY
import json, sys
g = json.load(open(sys.argv[1]))["gate"]
assert [(c["probe"], c["cpu"], c["max_ns"]) for c in g["probe_cpus"]] == \
	[("timer", 1, 1265373), ("gap", 1, 925529)], g["probe_cpus"]
assert g["samples_over"] == 2 and "samples_left_out" not in g, g
PY'
gate 900us 3 --policy rt --json "$gap"
check "probe-gap --policy rt: the gate checks the SCHED_FIFO timer probe alone" \
	'python3 - "$tmp/out" <<PY
import json, sys
d = json.load(open(sys.argv[1]))
g, p = d["gate"], d["inputs"][0]["blocks"][0]["probe"]
assert [(c["probe"], c["cpu"]) for c in g["probe_cpus"]] == [("timer", 1)], g["probe_cpus"]
assert [s["probe"] for s in g["probe_samples"]] == ["timer"], g["probe_samples"]
assert (g["samples_over"], g["samples_left_out"], g["probe_cpus_left_out"]) == (1, 140, 2), g
assert [(c["probe"], c["policy"], c["rt_prio"]) for c in p["cpus"]] == \
	[("timer", "rt", 95)] * 2, p["cpus"]
assert [(c["probe"], c["cpu"], c["count"], c["policy"]) for c in p["left_out"]] == \
	[("gap", 0, 46, "fair"), ("gap", 1, 94, "fair")], p["left_out"]
assert all(s["probe"] == "timer" for s in p["worst"]), p["worst"]
PY'
gate 900us 3 --policy rt "$gap"
check "probe-gap --policy rt: the text names what it left out" \
	'grep -q "^  left out by --policy / --min-prio: gap cpu0 (OTHER, 46 samples), gap cpu1 (OTHER, 94 samples)$" "$tmp/out" &&
	 grep -q "; 140 probe samples of 2 probe CPUs left out by --policy / --min-prio" "$tmp/out"'
gate 900us 0 --min-prio 99 "$gap"

# bad values: exit 2 with a message naming the option and the value
for bad in 0 0us -5us 5xs 5.ms. abc "" nan inf "5 ms" 1e30s; do
	"$bin" analyze --fail-above "$bad" "$cyc" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	check "--fail-above '$bad': exit 2 (got $rc)" '[ $rc -eq 2 ]'
	check "--fail-above '$bad': clear message" \
		'grep -q "^latscope analyze: --fail-above: expected a duration above 0 such as 500us, 10ms, 2s (a bare number is microseconds), got '"'$bad'"'\$" "$tmp/err"'
	check "--fail-above '$bad': no report" '[ ! -s "$tmp/out" ]'
done
"$bin" analyze --fail-above 1ms "$repo/samples/cyclictest/default.txt" >"$tmp/out" 2>"$tmp/err"
check "no event trace: exit 2, nothing checked" \
	'[ $? -eq 2 ] && grep -q "^latscope analyze: --fail-above: no event trace" "$tmp/err"'
"$bin" analyze --fail-above 1ms --folded off "$cyc" >"$tmp/out" 2>"$tmp/err"
check "--folded with --fail-above: exit 2" \
	'[ $? -eq 2 ] && grep -q "choose one" "$tmp/err"'
"$bin" analyze --fail-above 1ms "$cyc" "$tmp/missing.dat" >"$tmp/out" 2>"$tmp/err"
check "an unreadable input beside one above the limit: exit 2, not 3" '[ $? -eq 2 ]'
"$bin" analyze --help >"$tmp/help"
check "--help documents --fail-above and exit 3" \
	'grep -q -- "--fail-above DUR" "$tmp/help" && grep -q "3 --fail-above exceeded" "$tmp/help"'

[ $fail -eq 0 ] && echo "ok: gate" || exit 1
