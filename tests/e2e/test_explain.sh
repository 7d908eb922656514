#!/bin/sh
# The wakeup explanations on recordings made on this VM (samples/tracedat/README.md
# says how each was recorded and how these values were checked with trace-cmd).
# Usage: test_explain.sh BIN REPO
bin=$1
repo=$2
tmp=$(mktemp -d /tmp/latscope-explain-e2e.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT
. "$repo/tests/e2e/check.sh"
cyc=$repo/samples/tracedat/cyclictest-stress-v7-zstd.dat

"$bin" analyze --worst 3 "$cyc" >"$tmp/cyc" 2>"$tmp/cyc.err"
check "cyclictest: exit 0" '[ $? -eq 0 ]'
# the worst case's lines
sed -n '/^  1\. /,/^  2\. /p' "$tmp/cyc" | sed '$d' >"$tmp/case1"
check "cyclictest: the worst case's first line is its verdict: a stall" \
	'grep -q "^  1\. stall (97%): no events on CPU0 for 5.53 ms of the wait" "$tmp/cyc"'
check "cyclictest: verdicts of the 3 worst" \
	'grep -q "^  verdicts of the 3 worst: cpu-saturated 2, stall 1\$" "$tmp/cyc"'
check "cyclictest: the worst case is the FIFO thread, 5.71 ms" \
	'grep -A1 "^  1\. " "$tmp/cyc" | grep -q "^     cyclictest/20718 SCHED_FIFO 80 waited 5.71 ms on CPU0"'
check "cyclictest: its waker is the hrtimer irq, not the interrupted task" \
	'cat "$tmp/case1" |
	 grep -q "woken by irq (hrtimer hrtimer_wakeup) on CPU0, interrupting test_hostile_te/20537"'
check "cyclictest: the silence of CPU0 is a stall, charged to no one" \
	'grep -q "^     cyclictest/20718 .*test_hostile_te/20537 ran 190 us (3%) at SCHED_OTHER nice 19, no events: stall? 5.53 ms (97%)" "$tmp/cyc"'
check "cyclictest: stall findings, CPU0 and every CPU" \
	'grep -q "stall: CPU0 logged nothing for 5.53 ms (450.844464766 .. 450.849989769)" "$tmp/cyc" &&
	 grep -q "stall: every CPU logged nothing for 4.1 ms (450.845894091 .. 450.849989769)" "$tmp/cyc"'
check "cyclictest: no chain behind an irq waker" \
	'[ -s "$tmp/case1" ] && ! grep -q "itself waited" "$tmp/case1"'
check "cyclictest: real-time threads first" \
	'grep -A1 "^  real-time threads (wakeup waits):" "$tmp/cyc" |
	 grep -q "cyclictest/20718 SCHED_FIFO 80: max 5.71 ms, p99 462 us over 2000 waits (and 1 at a lower class, not counted here)"'
check "cyclictest: 514 priority inversions, the longest 583 us behind test_hostile_te" \
	'grep -q "priority-inversion: 514 waits of real-time tasks .* cyclictest/20718 SCHED_FIFO 80 waited 583 us on CPU0 (ended at 452.062052581) while test_hostile_te/20537 SCHED_OTHER nice 19 held it" "$tmp/cyc"'
"$bin" analyze --task cyclictest --worst 1 "$cyc" >"$tmp/all" 2>&1
check "--task cyclictest: both threads" \
	'grep -q "selected: --task cyclictest: 2 threads with waits matched" "$tmp/all"'
"$bin" analyze --task cyclictest --policy rt --worst 1 --json "$cyc" >"$tmp/rt.json" 2>&1
check "--task cyclictest --policy rt: the FIFO thread only" \
	'grep -q "\"threads\": 1" "$tmp/rt.json" && grep -q "\"rt_priority\": 80" "$tmp/rt.json" &&
	 ! grep -q "\"tid\": 20717" "$tmp/rt.json"'
"$bin" analyze --policy sideways "$cyc" >/dev/null 2>"$tmp/bad.err"
check "--policy sideways: usage error" '[ $? -eq 2 ] && grep -q "expected rt, fair or dl" "$tmp/bad.err"'

quiet=$repo/samples/tracedat/quiet-shared-v7-zstd.dat
"$bin" analyze --json "$quiet" >"$tmp/quiet.json" 2>&1
# 25 waits end at an inferred switch-in (6 wakeup, 19 preemption): 5 of them were
# untrusted, 20 canceled before (docs/wakeup.md, "Inferred switch-ins")
check "quiet: 12 untrusted waits, not counted; 25 inferred, counted" \
	'grep -q "\"untrusted_waits\": 12" "$tmp/quiet.json" && grep -q "\"waits\": 1358" "$tmp/quiet.json" &&
	 grep -q "\"inferred_waits\": 25" "$tmp/quiet.json" && grep -q "\"canceled\": 3," "$tmp/quiet.json"'
check "quiet: the worst wait is gmake/18015, 20.2 ms" \
	'grep -A3 "\"worst\": \[" "$tmp/quiet.json" | grep -q "\"tid\": 18015" &&
	 grep -q "\"latency_ns\": 20208401" "$tmp/quiet.json"'

"$bin" analyze --worst 11 "$quiet" >"$tmp/quiet11" 2>&1
check "quiet: sh/18035's waker cmake/18037 was late: 19.4 ms of 31.5 ms end to end (chain verdict)" \
	'grep -A2 "^  11\. cpu-saturated" "$tmp/quiet11" |
	 grep -A1 "^     chain: waker-late (62% end to end): its waker cmake/18037 waited 19.4 ms (preempted) before it could wake it: 31.5 ms from cmake.s preemption to this task.s run" |
	 grep -q "^     sh/18035 SCHED_OTHER nice 0 waited 11.7 ms on CPU0 (960.534205388 .. 960.545911873)"'

rt=$repo/samples/ftrace-text/lkml-2020-rt-lazy-flags.txt
"$bin" analyze --json "$rt" >"$tmp/rt.json" 2>/dev/null
"$bin" analyze "$rt" >"$tmp/rt" 2>/dev/null
check "5.10-rt: rcu_preempt's R+ then its waking is a sleeping-lock wait, not a preemption or a phantom" \
	'grep -q "preempted-then-woken: 1 time a task switched out runnable (R+ 1, R 0) was woken before it ran again (first at 46.299788000)" "$tmp/rt" &&
	 grep -q "\"preempt_woken\": 1," "$tmp/rt.json" && grep -q "\"untrusted_waits\": 1," "$tmp/rt.json" &&
	 grep -q "1 preemption waits" "$tmp/rt"'

ss=$repo/samples/tracedat/setscheduler-v7-zstd.dat
"$bin" analyze "$ss" >"$tmp/ss" 2>/dev/null
check "setscheduler: chrt -r 50 is SCHED_RR 50, chrt -f 40 SCHED_FIFO 40 (from the syscall events)" \
	'grep -q "^    sleep/23864 SCHED_RR 50: max" "$tmp/ss" && grep -q "^    sleep/23867 SCHED_FIFO 40: max" "$tmp/ss"'
"$bin" analyze --task 23870 --worst 1 "$ss" >"$tmp/ss-batch" 2>/dev/null
"$bin" analyze --task 23876 --worst 1 --json "$ss" >"$tmp/ss-idle.json" 2>/dev/null
check "setscheduler: chrt -b is SCHED_BATCH nice 0, chrt -i SCHED_IDLE, not inferred" \
	'grep -q "^     sleep/23870 SCHED_BATCH nice 0 waited" "$tmp/ss-batch" &&
	 grep -A2 "\"policy\": \"SCHED_IDLE\"" "$tmp/ss-idle.json" | grep -q "\"policy_inferred\": false" &&
	 grep -q "\"setschedulers\": 4," "$tmp/ss-idle.json"'

idle=$repo/samples/tracedat/idle-10s-v6.dat
"$bin" analyze "$idle" >"$tmp/idle" 2>&1
check "idle: exit 0" '[ $? -eq 0 ]'
# trace-cmd report: CPU1 225 switches into idle, 0 out (docs/wakeup.md, "Trace health")
check "idle: CPU1's events are incomplete, said first" \
	'sed -n 4p "$tmp/idle" | grep -q "^  \[high\] trace-health: CPU1.s events are incomplete: 225 switches into idle, 0 out, 233 exits from idle"'
check "idle: no wait of CPU1 since then heads the worst: memfd:sealed-91/9652 94.5 us on CPU0 does" \
	'grep -A1 "^  1\. idle (100%)" "$tmp/idle" |
	 grep -q "^     memfd:sealed-91/9652 SCHED_OTHER nice 0 waited 94.5 us on CPU0"'
check "idle: no wait of the worst 5 ended at an inferred switch-in" \
	'! sed -n "/^  worst wakeups/,\$p" "$tmp/idle" | grep -q "its switch in was not recorded"'
"$bin" analyze --include-untrusted "$idle" >"$tmp/idle-all" 2>&1
check "idle: tokio-rt-worker/76 is SCHED_OTHER nice -10 ([110]), nothing is SCHED_DEADLINE" \
	'grep -q "tokio-rt-worker/76 SCHED_OTHER nice -10" "$tmp/idle-all" && ! grep -q DEADLINE "$tmp/idle-all"'
# trace-cmd report -t: CPU1's last event before kdamond.0's switch out at .382792078 is idle's
# softirq_exit at .381988586: idle 9979 ns of the wait, then 803492 ns no event said who ran
# (before, idle was given all 813 us: docs/wakeup.md, "Missing switches")
check "idle --include-untrusted: kworker/1:1 813 us heads, untrusted behind kdamond.0's unrecorded switch-in" \
	'grep -A1 "^  1\. untrusted (99%): kdamond.0/78 ran on CPU1 with no recorded switch-in" "$tmp/idle-all" |
	 grep -q "^     kworker/1:1/9134 SCHED_OTHER nice 0 waited 813 us on CPU1 (22600.381978607 .. 22600.382792078) .*: idle 9.98 us (1%); 803 us unknown (803 us of it: switches missing, no event showed who ran)"'
"$bin" analyze --json "$idle" >"$tmp/idle.json" 2>&1
check "idle: rcu_preempt's 2.04 ms (switched in unrecorded on CPU1) is no wait any more: its max is 139 us" \
	'python3 -c "import json,sys; w=json.load(open(sys.argv[1]))[\"inputs\"][0][\"blocks\"][0][\"wakeup\"]; t=[t for t in w[\"tasks\"] if t[\"tid\"]==15][0]; sys.exit(t[\"max_ns\"] != 139396)" "$tmp/idle.json"'

# Missing switches (docs/wakeup.md): the stretch from a CPU's last event to an event of
# another task than the switches said is no one's; missing_switches.py finds them in
# trace-cmd's own reading and checks the worst 20 cases of each recording against them
for f in idle-10s-v6 probe-gap-v7-zstd probe-pair-v7-zstd fifo-hog-wait-v7-zstd \
	 quiet-shared-v7-zstd setsched-hog-end-v7-zstd cyclictest-stress-v7-zstd; do
	"$bin" analyze --json --worst 20 --include-untrusted "$repo/samples/tracedat/$f.dat" \
		>"$tmp/ms.json" 2>/dev/null
	check "missing switches: $f's worst 20 agree with trace-cmd report" \
		'python3 "$repo/tests/e2e/missing_switches.py" "$repo/samples/tracedat/$f.dat" "$tmp/ms.json" >"$tmp/ms.out" ||
		 { cat "$tmp/ms.out"; false; }'
done

[ $fail -eq 0 ] && echo "test_explain: all passed"
exit $((fail > 0))
