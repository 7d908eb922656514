#!/bin/sh
# `latscope export --perfetto` against the rules of Perfetto's JSON importer
# (tests/e2e/export_check_perfetto.py): every sample and recording of the tests,
# the waker arrows, slices cut at a break, verdicts, processes, irqs, counters,
# --window, --task and gzip.  Usage: test_perfetto.sh BIN REPO
#
# The values are read off the inputs by hand (the line numbers are the samples').
bin=$1
repo=$2
tmp=$(mktemp -d /tmp/latscope-perfetto-e2e.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT
. "$repo/tests/e2e/check.sh"
pf="$repo/tests/e2e/export_check_perfetto.py"
lost=$repo/samples/ftrace-text/kernel-trace-pipe-lost.txt
ktrace=$repo/samples/ftrace-text/kernel-trace.txt
cyc=$repo/samples/tracedat/cyclictest-stress-v7-zstd.dat
val() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }
IRQ0=$((4194306 + 65536))	# PF_IRQ_TID0: CPU n's irq track is IRQ0 + 2n, softirq + 1

# --- every sample and recording: an event trace exports to a file the importer takes ---
n=0
for f in "$repo"/samples/*/* "$repo"/tests/fixtures/*.dat ${LAT_FIXTURE_V7:+"$LAT_FIXTURE_V7"} \
	 ${LAT_FIXTURE_V6:+"$LAT_FIXTURE_V6"}; do
	case $f in *.expected.json|*.args|*.md) continue ;; esac
	[ -f "$f" ] || continue
	"$bin" export --perfetto "$tmp/s.json" "$f" >/dev/null 2>&1 || continue
	n=$((n + 1))
	python3 "$pf" "$tmp/s.json" >"$tmp/s.chk"
	check "$(basename "$f"): Perfetto's importer rules hold" '! grep -q "^error" "$tmp/s.chk"'
	grep "^error" "$tmp/s.chk" | head -3
	check "$(basename "$f"): an arrow per judged wakeup wait, none of the old kind" \
		'[ "$(val flows.v1 "$tmp/s.chk")" -eq 0 ]'
done
# ls samples/*/ | the event traces: 21 ftrace text, 9 trace.dat, 2 trace-cmd text, ... and
# the tests' fixture; fewer means a sample stopped exporting
check "every event trace exported ($n)" '[ "$n" -ge 20 ]'

# --- the arrows: from a zero-length waking slice on the waker's track to the wait ----------
"$bin" export --perfetto "$tmp/lost.json" "$lost" 2>/dev/null
python3 "$pf" "$tmp/lost.json" >"$tmp/lost.chk"
# line 24: a hard irq (flags d.h2.) on CPU 1 woke memfd:sealed-91 (4390) at 918.180097, which
# ran at 918.180104 (line 27) after sched-messaging-11473 (fair, as it): 7 us, cpu-saturated
check "4390's wait: 7 us from the waking, verdict and evidence, arrow in" \
	'grep -qF "{\"ph\":\"X\",\"pid\":4194304,\"tid\":4390,\"ts\":918180097.000,\"dur\":7.000,\"name\":\"runnable (wakeup)\",\"bind_id\":1,\"flow_in\":true,\"args\":{\"cpu\":1,\"prio\":120,\"waker\":\"irq\",\"verdict\":\"cpu-saturated\",\"basis\":\"parts\",\"part_ns\":7000,\"same_ns\":7000}}" "$tmp/lost.json"'
check "4390's arrow leaves CPU 1's irq track at the waking" \
	'grep -qF "{\"ph\":\"X\",\"pid\":4194305,\"tid\":$((IRQ0 + 2)),\"ts\":918180097.000,\"dur\":0,\"name\":\"waking\",\"bind_id\":1,\"flow_out\":true,\"args\":{\"tid\":4390}}" "$tmp/lost.json"'
# line 59: sched-messaging-11444, running on CPU 0 since 918.181492 (line 44), woke 11441
# in task context (dN.5.) at 918.184356: the waking slice lies inside its running slice
check "11441's arrow leaves 11444's own track, inside its running slice" \
	'grep -qF "\"tid\":11444,\"ts\":918184356.000,\"dur\":0,\"name\":\"waking\",\"bind_id\":5,\"flow_out\":true" "$tmp/lost.json" &&
	 grep -qF "\"tid\":11444,\"ts\":918181492.000,\"dur\":2882.000,\"name\":\"running\"" "$tmp/lost.json" &&
	 grep -qF "\"tid\":11441,\"ts\":918184356.000,\"dur\":15.000,\"name\":\"runnable (wakeup)\",\"bind_id\":5,\"flow_in\":true" "$tmp/lost.json"'
# 49 wakeup waits (test_export.sh counts them with export_waits.awk), each judged
check "pipe-lost: 49 arrows, 49 verdicts, 73 waits" \
	'[ "$(val flows "$tmp/lost.chk")" -eq 49 ] && [ "$(val X.wait.verdict "$tmp/lost.chk")" -eq 49 ] &&
	 [ "$(val X.task.runnable "$tmp/lost.chk")" -eq 73 ]'

# --- a slice cut by a break ends where the task ran on the other CPU ---------------------
cat >"$tmp/ov.txt" <<'TXT'
# tracer: nop
#
#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
#              | |         |   |||||     |         |
          <idle>-0       [000] d..2.   100.000100: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=worker next_pid=71 next_prio=120
          <idle>-0       [001] d..2.   100.000200: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=worker next_pid=71 next_prio=120
           other-80      [000] d..2.   100.000500: sched_waking: comm=sleeper pid=90 prio=120 target_cpu=001
          worker-71      [001] d..2.   100.000600: sched_switch: prev_comm=worker prev_pid=71 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
TXT
# worker (71) switched in on CPU 0 at .000100 and on CPU 1 at .000200 with no switch out
# of CPU 0 between; other (80) shows CPU 0 ran someone else at .000500 (the break).  CPU 0's
# last event before the break is worker's switch-in: how long worker ran there is not known,
# so its slice there is empty, and .000100 .. .000500 is no one's (docs/wakeup.md, "Missing
# switches"; before, the slice ran on to worker's switch-in on CPU 1, an upper bound)
"$bin" export --perfetto "$tmp/ov.json" "$tmp/ov.txt" 2>/dev/null
python3 "$pf" "$tmp/ov.json" >"$tmp/ov.chk"
check "break: no two slices of worker overlap" '! grep -q "^error" "$tmp/ov.chk"'
check "break: CPU 0's slice of worker ends at CPU 0's last event, its switch-in" \
	'grep -qF "\"tid\":71,\"ts\":100000100.000,\"dur\":0.000,\"name\":\"running\",\"args\":{\"cpu\":0,\"prio\":120,\"end\":\"break\"}" "$tmp/ov.json"'
"$bin" export --rows slices "$tmp/ov.txt" 2>/dev/null | tr -d '\r' >"$tmp/ov.csv"
check "break: --rows slices cuts it there too" \
	'grep -q "^$tmp/ov.txt,[^,]*,[^,]*,71,worker,fair,120,0,100000100000,100000100000,0,break," "$tmp/ov.csv"'

# --- a missing switch: the stretch after the CPU's last event is no one's -----------------
cat >"$tmp/mid.txt" <<'TXT'
# tracer: nop
#
#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
#              | |         |   |||||     |         |
          <idle>-0       [000] d..2.   100.000100: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=A next_pid=10 next_prio=120
               A-10      [000] d..2.   100.000200: sched_waking: comm=X pid=99 prio=120 target_cpu=001
               C-30      [001] d..2.   100.000300: sched_waking: comm=W pid=20 prio=120 target_cpu=000
               B-11      [000] d..2.   100.000500: sched_waking: comm=Y pid=98 prio=120 target_cpu=001
               B-11      [000] d..2.   100.001300: sched_switch: prev_comm=B prev_pid=11 prev_prio=120 prev_state=R ==> next_comm=W next_pid=20 next_prio=120
TXT
# A (10) ran on CPU 0 from .000100 to its last event at .000200; B (11) showed up at .000500
# with no switch: who ran .000200 .. .000500 is not known.  W (20) was woken for CPU 0 at
# .000300, inside that stretch, and ran at .001300: 1000 us, 200 us unknown (.000300 ..
# .000500), 800 us B (fair, as W): cpu-saturated on 800 us.  W's sums were taken at .000300,
# when they still gave A the stretch: without taking that back, same_ns was 700 us and
# unknown 300 us; before missing switches were no one's, A had 200 us and same_ns 1000 us.
"$bin" export --perfetto "$tmp/mid.json" -t 1ns "$tmp/mid.txt" 2>/dev/null
"$bin" analyze -t 1ns "$tmp/mid.txt" >"$tmp/mid.out" 2>/dev/null
check "missing switch: A's slice ends at its last event" \
	'grep -qF "\"tid\":10,\"ts\":100000100.000,\"dur\":100.000,\"name\":\"running\",\"args\":{\"cpu\":0,\"prio\":120,\"end\":\"break\"}" "$tmp/mid.json"'
check "missing switch: W's verdict evidence, 800 us of B, 200 us unknown" \
	'grep -qF "\"tid\":20,\"ts\":100000300.000,\"dur\":1000.000,\"name\":\"runnable (wakeup)\",\"bind_id\":1,\"flow_in\":true,\"args\":{\"cpu\":0,\"prio\":120,\"waker\":\"C:30\",\"verdict\":\"cpu-saturated\",\"basis\":\"parts\",\"part_ns\":800000,\"same_ns\":800000,\"unknown_ns\":200000}}" "$tmp/mid.json"'
check "missing switch: the case says the same" \
	'grep -qF "W/20 SCHED_OTHER nice 0 waited 1 ms on CPU0 (100.000300000 .. 100.001300000): B/11 ran 800 us (80%) at SCHED_OTHER nice 0; 200 us unknown (200 us of it: switches missing, no event showed who ran);" "$tmp/mid.out"'

# --- verdicts, processes -------------------------------------------------------------------
"$bin" export --perfetto "$tmp/cyc.json" "$cyc" 2>/dev/null
# cyclictest/20718's 5714613 ns wait (samples/tracedat/README.md): the CPUs stalled in it.
# The evidence is the running sums' as the verdict engine took them (analyze/wakeup_sums.c):
# CPU0's own silence (450.844464766 .. 450.849989769, 5525003 ns) and the every-CPU stall
# inside it (from 450.845894091) share 4.1 ms, charged once: stall 5525003 ns, the holder
# below it (lower) the rest, 5714613 - 5525003 = 189610; irq lies inside the holders' time.
# (Charged twice, they made stall 9620681 and lower -3906068.)
check "cyclictest: the 5.71 ms wait of 20718 is a stall, with the engine's evidence" \
	'grep -qF "\"tid\":20718,\"ts\":450844462.793,\"dur\":5714.613,\"name\":\"runnable (wakeup)\",\"bind_id\":343,\"flow_in\":true,\"args\":{\"cpu\":0,\"prio\":19,\"waker\":\"irq:hrtimer_wakeup\",\"verdict\":\"stall\",\"basis\":\"parts\",\"part_ns\":5525003,\"lower_ns\":189610,\"irq_ns\":9108,\"stall_ns\":5525003}}" "$tmp/cyc.json"'
# the recorder's tgids line (test_export.sh reads it with trace-cmd): 20719 is a thread of
# 2748, tail 20713 its own process; cyclictest 20718 had exited: process not known
check "processes: 20719 under 2748, 20713 its own, 20718 unknown" \
	'grep -q "\"pid\":2748,\"tid\":20719," "$tmp/cyc.json" &&
	 grep -q "\"pid\":20713,\"tid\":20713," "$tmp/cyc.json" &&
	 grep -q "\"pid\":4194304,\"tid\":20718," "$tmp/cyc.json" &&
	 ! grep "\"tid\":20718," "$tmp/cyc.json" | grep -qv "\"pid\":4194304,"'
check "processes: 2748 named by its leader, once" \
	'[ "$(grep -c "\"pid\":2748,\"tid\":[0-9]*,\"name\":\"process_name\"" "$tmp/cyc.json")" -eq 1 ]'

# --- irqs and counters ----------------------------------------------------------------------
"$bin" export --perfetto "$tmp/k.json" "$ktrace" 2>/dev/null
python3 "$pf" "$tmp/k.json" >"$tmp/k.chk"
# grep -c: 449 irq_handler_entry + softirq_entry lines, and as many exits
check "kernel-trace.txt: a slice per handler (449)" \
	'[ "$(grep "{\"ph\":\"X\",\"pid\":4194305,\"tid\":42598[0-9][0-9]," "$tmp/k.json" |
	      grep -vc "\"name\":\"waking\"")" -eq "$(grep -c "irq_handler_entry\|softirq_entry" "$ktrace")" ]'
check "counters: busy and runnable on both CPUs" \
	'[ "$(val C.busy "$tmp/k.chk")" -gt 0 ] && [ "$(val C.runnable "$tmp/k.chk")" -gt 0 ] &&
	 grep -q "\"tid\":4194307,\"name\":\"CPU 1\",.*\"runnable\"" "$tmp/k.json"'

# --- size: --window, --task, gzip ----------------------------------------------------------
# [918.180000, 918.181000]: 4390's wait (918.180097 .. 918.180104) lies inside
"$bin" export --window 918.18:918.181 --perfetto "$tmp/w.json" "$lost" 2>/dev/null
python3 "$pf" "$tmp/w.json" >"$tmp/w.chk"
check "--window: valid, fewer slices, 4390's arrow kept" \
	'! grep -q "^error" "$tmp/w.chk" && [ "$(val ph.X "$tmp/w.chk")" -lt "$(val ph.X "$tmp/lost.chk")" ] &&
	 grep -q "\"tid\":4390,\"ts\":918180097.000" "$tmp/w.json"'
python3 - "$tmp/w.json" >"$tmp/w.out" <<'PY'
import json, sys
bad = [e for e in json.load(open(sys.argv[1]))["traceEvents"] if e["ph"] in "XiC" and
       (e["ts"] + e.get("dur", 0) < 918180000 - 0.0005 or e["ts"] > 918181000 + 0.0005)]
print(len(bad))
PY
check "--window: nothing outside it" '[ "$(cat "$tmp/w.out")" = 0 ]'
"$bin" export --task memfd:sealed-91 --perfetto "$tmp/t.json" "$lost" 2>/dev/null
python3 "$pf" "$tmp/t.json" >"$tmp/t.chk"
# memfd:sealed-91 (4390) waited once (line 24): its wait, its running slice, one arrow
check "--task: valid, one task's wait and its waker's waking" \
	'! grep -q "^error" "$tmp/t.chk" && [ "$(val X.task.runnable "$tmp/t.chk")" -eq 1 ] &&
	 [ "$(val flows "$tmp/t.chk")" -eq 1 ] && [ "$(val tracks.task "$tmp/t.chk")" -eq 1 ]'
"$bin" export --perfetto "$tmp/lost.json.gz" "$lost" 2>/dev/null
check "gzip: OUT.gz is the same JSON, compressed" \
	'gzip -t "$tmp/lost.json.gz" && gzip -dc "$tmp/lost.json.gz" | cmp -s - "$tmp/lost.json"'
python3 "$pf" "$tmp/lost.json.gz" >"$tmp/gz.chk"
check "gzip: the checker reads it" 'cmp -s "$tmp/gz.chk" "$tmp/lost.chk"'
"$bin" export --window 2:1 --perfetto "$tmp/x.json" "$lost" 2>"$tmp/u.err"
check "--window 2:1: usage error" '[ $? -eq 2 ] && grep -q "expected T0:T1" "$tmp/u.err"'
"$bin" export --task x --rows waits "$lost" >/dev/null 2>"$tmp/u.err"
check "--task with --rows: usage error" '[ $? -eq 2 ] && grep -q "go with --perfetto" "$tmp/u.err"'

# --- the checker finds what it checks: one event at a time spoiled ---------------------------
spoil() {	# NAME SED-EXPR ERROR: the spoiled copy of lost.json gives that error
	sed "$2" "$tmp/lost.json" >"$tmp/spoilt.json"
	python3 "$pf" "$tmp/spoilt.json" >"$tmp/spoilt.chk"
	check "checker: $1 is found" \
		'! cmp -s "$tmp/spoilt.json" "$tmp/lost.json" && grep -q "^error: .*$3" "$tmp/spoilt.chk"'
}
spoil "an arrow from a slice that ends after the waking" \
	'/"name":"waking","bind_id":1,/s/"dur":0,/"dur":1.000,/' "the arrow leaves its end"
spoil "an arrow into a slice that starts elsewhere" \
	'/"bind_id":1,"flow_in"/s/"ts":918180097.000/"ts":918180096.000/' "the target starts"
spoil "an arrow without its source" '/"name":"waking","bind_id":1,/d' "0 sources"
# 4390's wait ends at .180104, where its running slice starts: 1 us longer overlaps it
spoil "a slice across the start of another (improper nesting)" \
	's/"tid":4390,"ts":918180097.000,"dur":7.000,/"tid":4390,"ts":918180097.000,"dur":8.000,/' \
	"improperly nested"
spoil "a tid under two pids" '0,/"pid":4194304,"tid":4390,/s//"pid":7,"tid":4390,/' \
	"two tracks for one thread"
spoil "a time not in ns (three decimals)" '0,/"ts":918173468.000/s//"ts":918173468.0/' \
	"three decimals"
spoil "an instant without its scope" '0,/"s":"t",/s///' "needs its scope"
spoil "a track without its name" '/"thread_name".*"CPU 1"/d' "no thread_name"
# the old arrows: an s event bound to the waker's whole running slice, which ends after it
sed 's/{"ph":"X","pid":4194304,"tid":11444,"ts":918184356.000,"dur":0,"name":"waking","bind_id":5,"flow_out":true,"args":{"tid":11441}}/{"ph":"s","pid":4194304,"tid":11444,"ts":918184356.000,"name":"wakeup","cat":"wakeup","id":5}/' \
	"$tmp/lost.json" >"$tmp/spoilt.json"
python3 "$pf" "$tmp/spoilt.json" >"$tmp/spoilt.chk"
check "checker: a v1 arrow drawn backwards is found" 'grep -q "^error: .*drawn backwards" "$tmp/spoilt.chk"'

[ $fail -eq 0 ] && echo "test_perfetto: all passed"
exit $((fail > 0))
