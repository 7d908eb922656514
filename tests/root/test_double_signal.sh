#!/bin/bash
# Recorder, two quick signals (needs root and tracefs): `latscope record --stacks` under load
# gets SIGINT, then a second SIGINT DELAY ms later (0, 10, 50, 200 ms; TRIES times each; at
# 0 ms the second is a SIGTERM: a second SIGINT sent while the first is pending is merged with
# it by the kernel, and latscope treats both alike).
# After every try:
#  - instances/latscope-PID is gone, and the top-level tracefs state is as before;
#  - what latscope said is true: "instance removed" only when it is gone, "no file written"
#    only when neither the output nor its .cpuN files exist, exit 0 only with a file;
#    if it says it could not remove the instance, it says how (an rmdir command line).
# usage: test_double_signal.sh LATSCOPE [TRIES]
set -u
bin=$1
tries=${2:-3}
t=/sys/kernel/tracing
if [ "$(id -u)" != 0 ] || [ ! -d "$t/instances" ]; then
	echo "skip: needs root and tracefs at $t"
	exit 0
fi
tmp=$(mktemp -d /tmp/latscope-sig2-XXXXXX)
load_pids=()
cleanup() {
	for p in "${load_pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

state() {
	cat "$t/set_event" "$t/tracing_on" "$t/current_tracer"
	grep -v '^#' "$t"/events/sched/*/trigger 2>/dev/null
	grep -H . "$t"/events/sched/*/enable 2>/dev/null
}
state >"$tmp/before"

# Load: CPU hogs plus short-lived processes (scheduler events and stack traces to write).
for _ in 1 2; do
	(while :; do :; done) &
	load_pids+=($!)
done
(while :; do /bin/true; done) &
load_pids+=($!)

ms_sleep() { sleep "$(printf '%d.%03d' $(($1 / 1000)) $(($1 % 1000)))"; }

set -m	# background jobs keep SIGINT (see test_soak.sh)
status=0
n=0
for delay in 0 10 50 200; do
	for i in $(seq 1 "$tries"); do
		n=$((n + 1))
		f=$tmp/try$n.dat
		log=$tmp/try$n.log
		"$bin" record --stacks -o "$f" >"$log" 2>&1 &
		pid=$!
		# first signal while recording (up to 5 s for the setup)
		for _ in $(seq 1 100); do
			grep -q "recording" "$log" && break
			sleep 0.05
		done
		ms_sleep 300
		kill -INT "$pid" 2>/dev/null
		if [ "$delay" -gt 0 ]; then
			ms_sleep "$delay"
			kill -INT "$pid" 2>/dev/null
		else
			kill -TERM "$pid" 2>/dev/null
		fi
		wait "$pid"
		rc=$?
		inst=$t/instances/latscope-$pid
		what="try $n (second SIGINT after $delay ms, exit $rc)"
		if [ -d "$inst" ]; then
			echo "FAIL $what: $inst left; latscope said: $(tail -1 "$log")"
			if ! grep -q "could not remove.*rmdir $inst" "$log"; then
				echo "FAIL $what: ... and did not say it could not remove it, nor how"
			fi
			rmdir "$inst" 2>/dev/null
			status=1
		fi
		if grep -q "instance removed" "$log" && [ -d "$inst" ]; then
			echo "FAIL $what: says 'instance removed' but it is there"
			status=1
		fi
		if grep -q "no file written" "$log" &&
		   { [ -e "$f" ] || ls "$f".cpu* >/dev/null 2>&1; }; then
			echo "FAIL $what: says 'no file written' but files are left:" "$f"*
			status=1
		fi
		if [ "$rc" = 0 ] && [ ! -s "$f" ]; then
			echo "FAIL $what: exit 0 without a file"
			status=1
		fi
		if [ "$rc" != 0 ] && [ "$rc" != 130 ] && [ "$rc" != 1 ]; then
			echo "FAIL $what: unexpected exit status"
			status=1
		fi
		state >"$tmp/after"
		if ! cmp -s "$tmp/before" "$tmp/after"; then
			echo "FAIL $what: top-level tracefs state changed:"
			diff "$tmp/before" "$tmp/after" | head -5
			status=1
		fi
		echo "$what: $(grep -c . "$log") lines, last: $(tail -1 "$log")"
		rm -f "$f" "$f".cpu*
	done
done
# The instance cannot be removed (another process holds one of its files open): latscope says
# so, and how to remove it, and leaves it with tracing off and no event enabled.
f=$tmp/held.dat
log=$tmp/held.log
"$bin" record --stacks -o "$f" >"$log" 2>&1 &
pid=$!
inst=$t/instances/latscope-$pid
for _ in $(seq 1 100); do
	grep -q "recording" "$log" && break
	sleep 0.05
done
sleep 5 <"$inst/trace_marker" &
holder=$!
ms_sleep 200
# the second signal at once: the --stacks triggers are still set (they keep their events in the
# kernel's soft mode, where "0" to events/enable does not turn them off)
kill -INT "$pid"
kill -TERM "$pid"
wait "$pid"
rc=$?
if [ ! -d "$inst" ]; then
	echo "FAIL held: $inst removed although held open (the test did not hold it?)"
	status=1
elif ! grep -q "could not remove instance $inst (Device or resource busy).*rmdir $inst" "$log"
then
	echo "FAIL held: message does not say it could not remove $inst and how:"
	cat "$log"
	status=1
elif [ "$(cat "$inst/tracing_on")" != 0 ] || grep -q . "$inst/set_event"; then
	echo "FAIL held: $inst left with tracing on or events enabled:"
	cat "$inst/tracing_on" "$inst/set_event"
	status=1
elif grep -q "instance removed" "$log" || [ "$rc" != 130 ]; then
	echo "FAIL held: exit $rc, says: $(cat "$log")"
	status=1
else
	echo "held: exit $rc, last: $(tail -1 "$log")"
fi
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
rmdir "$inst" 2>/dev/null
if [ -d "$inst" ]; then
	echo "FAIL held: $inst cannot be removed after the holder quit"
	status=1
fi
rm -f "$f" "$f".cpu*
echo "double signal: $n tries and one held instance, status $status"
exit $status
