#!/bin/bash
# Recorder soak (needs root and tracefs): 10 `latscope record` start/stop
# cycles, each stopped by SIGINT after a random delay (0 ms .. 1.5 s: inside
# the setup as well as while recording).  After every cycle: the recorder's
# own instance (latscope-PID) is gone (others' recordings may run at the same
# time), the top-level events, triggers and tracing_on are as before, and the
# file (when one was written) reads with `trace-cmd report` and
# `latscope analyze`.
# usage: test_soak.sh LATSCOPE [CYCLES]
set -u
bin=$1
cycles=${2:-10}
t=/sys/kernel/tracing
[ -d "$t/instances" ] || t=/sys/kernel/debug/tracing
if [ "$(id -u)" != 0 ] || [ ! -d "$t/instances" ]; then
	echo "skip: needs root and tracefs"
	exit 0
fi
tmp=$(mktemp -d /tmp/latscope-soak-XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# the top-level state latscope must not touch
state() {
	cat "$t/set_event" "$t/tracing_on" "$t/current_tracer"
	grep -v '^#' "$t"/events/sched/*/trigger "$t"/events/irq/*/trigger 2>/dev/null
	grep -H . "$t"/events/sched/*/enable "$t"/events/irq/*/enable 2>/dev/null
}
state >"$tmp/before"
# Job control: without it bash starts background jobs with SIGINT ignored, so a SIGINT that
# lands before latscope installs its handler (the first milliseconds) was lost and the
# recorder (no -d) ran on forever, its instance breaking every later root test.  With it
# that SIGINT ends the recorder before it created anything, as Ctrl-C in a shell does.
set -m
status=0
read_files=0
for i in $(seq 1 "$cycles"); do
	f=$tmp/cycle$i.dat
	ms=$(( $(od -An -N2 -tu2 /dev/urandom) % 1500 ))
	"$bin" record -o "$f" >"$tmp/rec$i.log" 2>&1 &
	pid=$!
	sleep "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"
	kill -INT "$pid" 2>/dev/null
	wait "$pid"
	rc=$?
	# $! is the recorder itself (bash execs a simple command in the job's process)
	if [ -d "$t/instances/latscope-$pid" ]; then
		echo "FAIL cycle $i (SIGINT after ${ms} ms): instance left: latscope-$pid"
		status=1
	fi
	state >"$tmp/after"
	if ! cmp -s "$tmp/before" "$tmp/after"; then
		echo "FAIL cycle $i: top-level tracefs state changed:"
		diff "$tmp/before" "$tmp/after" | head
		status=1
	fi
	if [ -s "$f" ]; then
		if ! trace-cmd report -i "$f" >/dev/null 2>"$tmp/tc$i.err"; then
			echo "FAIL cycle $i (${ms} ms, exit $rc): trace-cmd report fails:"
			head -3 "$tmp/tc$i.err"
			status=1
		fi
		"$bin" analyze "$f" >/dev/null 2>"$tmp/an$i.err"
		arc=$?
		# 0 analyzed; 2 only for a file with no event yet, said in one line
		if [ $arc != 0 ] && ! { [ $arc = 2 ] && grep -q "error" "$tmp/an$i.err"; }; then
			echo "FAIL cycle $i (${ms} ms): latscope analyze exit $arc"
			head -3 "$tmp/an$i.err"
			status=1
		fi
		read_files=$((read_files + 1))
		echo "cycle $i: SIGINT after ${ms} ms, record exit $rc, $(stat -c %s "$f") bytes, analyze exit $arc"
	else
		echo "cycle $i: SIGINT after ${ms} ms, record exit $rc, no file ($(head -1 "$tmp/rec$i.log"))"
	fi
done
echo "soak: $cycles cycles, $read_files files read, status $status"
exit $status
