#!/bin/sh
# `latscope export --perfetto-proto` decoded by protoc with the kept .proto files and
# checked by the rules of Perfetto's protobuf importer (tests/e2e/export_check_proto.py)
# on every sample and recording test_perfetto.sh exports; its counts against the reader's
# (`latscope dump`) and the JSON export's; records read off the samples by hand; and the
# checker's rules, each on a file spoilt through protoc --encode.
# Usage: test_perfetto_proto.sh BIN REPO
bin=$1
repo=$2
command -v protoc >/dev/null || { echo "skip: protoc (protobuf-compiler) is not installed"; exit 77; }
tmp=$(mktemp -d /tmp/latscope-pfproto-e2e.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT
. "$repo/tests/e2e/check.sh"
chk="$repo/tests/e2e/export_check_proto.py"
pf="$repo/tests/e2e/export_check_perfetto.py"
root="$repo/third_party/perfetto"
lost=$repo/samples/ftrace-text/kernel-trace-pipe-lost.txt
cyc=$repo/samples/tracedat/cyclictest-stress-v7-zstd.dat
val() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }
num() { v=$(val "$1" "$2"); echo "${v:-0}"; }	# a count not printed is 0
dumped() { awk -v t="$1" '$5 == t' "$2" | wc -l; }

# --- every sample and recording: the importer's rules, and nothing lost on the way ----------
n=0
for f in "$repo"/samples/*/* "$repo"/tests/fixtures/*.dat ${LAT_FIXTURE_V7:+"$LAT_FIXTURE_V7"} \
	 ${LAT_FIXTURE_V6:+"$LAT_FIXTURE_V6"}; do
	case $f in *.expected.json|*.args|*.md) continue ;; esac
	[ -f "$f" ] || continue
	"$bin" export --perfetto-proto "$tmp/s.pftrace" "$f" >/dev/null 2>"$tmp/s.err" || continue
	n=$((n + 1))
	b=$(basename "$f")
	python3 "$chk" "$tmp/s.pftrace" "$root" >"$tmp/s.chk"
	rc=$?
	check "$b: decodes, Perfetto's importer rules hold" \
		'[ $rc -eq 0 ] && ! grep -q "^error" "$tmp/s.chk"'
	grep "^error" "$tmp/s.chk" | head -3
	# the reader's events, one for one: every switch and waking in the compact form (dump
	# reads a stream, one trace: a mail, or one of several traces, is left out)
	"$bin" dump "$f" >"$tmp/s.dump" 2>/dev/null && ! grep -q "event traces in one input" "$tmp/s.err" &&
	check "$b: every sched_switch and sched_waking" \
		'[ "$(num switches "$tmp/s.chk")" -eq "$(dumped switch "$tmp/s.dump")" ] &&
		 [ "$(num wakings "$tmp/s.chk")" -eq "$(dumped waking "$tmp/s.dump")" ]'
	# the JSON export's arrows and verdicts: one exporter's records are the other's
	"$bin" export --perfetto "$tmp/s.json" "$f" >/dev/null 2>&1
	python3 "$pf" "$tmp/s.json" >"$tmp/s.jchk"
	check "$b: as many arrows and judged waits as the JSON export" \
		'[ "$(num flows "$tmp/s.chk")" -eq "$(num flows "$tmp/s.jchk")" ] &&
		 [ "$(num slices.verdict "$tmp/s.chk")" -eq "$(num X.wait.verdict "$tmp/s.jchk")" ]'
done
# the event traces of samples/ and the tests' fixture (test_perfetto.sh counts the same)
check "every event trace exported ($n)" '[ "$n" -ge 20 ]'

# --- records read off the samples -----------------------------------------------------------
"$bin" export --perfetto-proto "$tmp/lost.pftrace" "$lost" 2>/dev/null
python3 "$chk" --list "$tmp/lost.pftrace" "$root" >"$tmp/lost.chk"
# line 24: a hard irq (d.h2.) on CPU 1 woke memfd:sealed-91 (4390) at 918.180097, which ran
# at 918.180104 (line 27) after sched-messaging-11473 (fair, as it): 7 us, cpu-saturated; no
# tgids in ftrace text: its track is under "Tasks (process not known)"
check "pipe-lost: 4390's wait, its verdict and evidence" \
	'grep -qx "slice memfd:sealed-91_4390 918180097000 918180104000 runnable_(wakeup) cpu=1 waker=irq verdict=cpu-saturated same_ns=7000" "$tmp/lost.chk"'
check "pipe-lost: its arrow from CPU 1's irq wakings at the waking" \
	'grep -qx "flow CPU_1_irq_wakings 918180097000 memfd:sealed-91_4390 918180097000" "$tmp/lost.chk"'
# line 59: sched-messaging-11444 woke 11441 in task context (dN.5.) at 918.184356
check "pipe-lost: 11441's arrow leaves 11444's track" \
	'grep -qx "flow sched-messaging_11444 918184356000 sched-messaging_11441 918184356000" "$tmp/lost.chk"'
# 49 wakeup waits (test_perfetto.sh), each judged; kernel-trace-pipe-lost.txt has 110
# sched_switch and 50 sched_waking lines (grep -c), and one sched_wakeup per waking: left
# out, Perfetto takes the wakeup from the waking
check "pipe-lost: 49 waits and arrows, 110 switches, 50 wakings, no sched_wakeup" \
	'[ "$(val slices.runnable_\(wakeup\) "$tmp/lost.chk")" -eq 49 ] &&
	 [ "$(val flows "$tmp/lost.chk")" -eq 49 ] && [ "$(val switches "$tmp/lost.chk")" -eq 110 ] &&
	 [ "$(val wakings "$tmp/lost.chk")" -eq 50 ] && [ -z "$(val events.sched_wakeup "$tmp/lost.chk")" ]'

"$bin" export --perfetto-proto "$tmp/cyc.pftrace" "$cyc" 2>/dev/null
python3 "$chk" --list "$tmp/cyc.pftrace" "$root" >"$tmp/cyc.chk"
# test_perfetto.sh's 5.71 ms wait of 20718: a stall, 5525003 ns of it, the holder below it the
# rest (5714613 - 5525003 = 189610), woken by the hrtimer's irq on CPU 0
check "cyclictest: the 5.71 ms stall of 20718 with the engine's evidence" \
	'grep -qx "slice cyclictest_20718 450844462793 450850177406 runnable_(wakeup) cpu=0 waker=irq:hrtimer_wakeup verdict=stall lower_ns=189610 irq_ns=9108 stall_ns=5525003" "$tmp/cyc.chk" &&
	 grep -qx "flow CPU_0_irq_wakings 450844462793 cyclictest_20718 450844462793" "$tmp/cyc.chk"'
# the recorder's tgids line: 20719 is a thread of 2748 (its own thread track, in the process
# tree), 20718 had exited (process not known: a track of its own)
check "cyclictest: 20719 a thread of 2748, 20718 of no known process" \
	'(cd "$root" && protoc -I. --decode=perfetto.protos.Trace protos/perfetto/trace/trace.proto) \
		<"$tmp/cyc.pftrace" | tr -s " \n" "  " >"$tmp/cyc.pt" &&
	 grep -q "thread { pid: 2748 tid: 20719 " "$tmp/cyc.pt" &&
	 grep -q "threads { tid: 20719 name: \"[^\"]*\" tgid: 2748 " "$tmp/cyc.pt" &&
	 ! grep -q "tid: 20718 name: \"[^\"]*\" tgid" "$tmp/cyc.pt" && grep -q "^slice tid:20719 " "$tmp/cyc.chk"'

# --- the checker finds what it checks: the text of lost.pftrace spoilt, encoded again -------
(cd "$root" && protoc -I. --decode=perfetto.protos.Trace protos/perfetto/trace/trace.proto) \
	<"$tmp/lost.pftrace" >"$tmp/lost.txt"
spoil() {	# NAME AWK-PROGRAM ERROR: the copy the program makes gives that error
	awk "$2" "$tmp/lost.txt" >"$tmp/spoilt.txt"
	(cd "$root" && protoc -I. --encode=perfetto.protos.Trace protos/perfetto/trace/trace.proto) \
		<"$tmp/spoilt.txt" >"$tmp/spoilt.pftrace"
	python3 "$chk" "$tmp/spoilt.pftrace" "$root" >"$tmp/spoilt.chk"
	check "checker: $1 is found" \
		'! cmp -s "$tmp/spoilt.txt" "$tmp/lost.txt" && grep -Eq "^error: .*($3)" "$tmp/spoilt.chk"'
}
spoil "an arrow without its source" '/^ *flow_ids:/ && !done { done = 1; next } { print }' \
	"has no start"
spoil "a slice without its end" '/type: TYPE_SLICE_END/ && !done { done = 1; next } { print }' \
	"never ends|before the last one ended"
spoil "a track used before it is described" \
	'/^  track_descriptor {/ && !done { done = 1; skip = 1; next }
	 skip && /^  }$/ { skip = 0; next } !skip { print }' "before it is described|before its parent"
spoil "a bundle out of order" \
	'/^ *event {/ { ev = 1 } ev && /^ *timestamp:/ && !done { done = 1; print "    timestamp: 999999999999"; ev = 0; next } { print }' \
	"not sorted|before its last one"

[ $fail -eq 0 ] && echo "test_perfetto_proto: all passed"
exit $((fail > 0))
