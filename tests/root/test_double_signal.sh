#!/bin/bash
# Recorder, quick signals (needs root and tracefs): `latscope record --stacks` under load.
#  - double: SIGINT, then a second SIGINT DELAY ms later (0, 10, 50, 200 ms; TRIES times each;
#    at 0 ms the second is a SIGTERM: a second SIGINT sent while the first is pending is merged
#    with it by the kernel, and latscope treats both alike).  What was recorded is kept: exit 0
#    (or 130 when the second signal came after the recorder was done and killed the exiting
#    process), a file `trace-cmd report` reads with an empty stderr and sched_switch events
#    in it, no FILE.cpuN left;
#  - triple: SIGINT, SIGTERM, SIGINT 5 ms apart: either the third came in time and aborted
#    (exit 130, "aborted by a third signal", no file unless it says the file was complete and
#    kept) or the run was over (a readable file); at least one try must take the abort path;
#  - after every try instances/latscope-PID is gone and the top-level tracefs state is as
#    before; what latscope said is true ("instance removed" only when it is gone, "no file
#    written" only when neither the output nor its .cpuN files exist);
#  - held: another process holds a file of the instance open: after a double signal the file
#    is written and latscope says it could not remove the instance and how (rmdir); after a
#    triple one it says so too; the instance is left with tracing off and no event enabled.
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
aborted=0

# Starts a recording into $f (log $log) and waits until it records (up to 5 s for the setup).
start_rec() {
	"$bin" record --stacks -o "$f" >"$log" 2>&1 &
	pid=$!
	for _ in $(seq 1 100); do
		grep -q "recording" "$log" && break
		sleep 0.05
	done
}

# $f readable by trace-cmd (empty stderr) with sched_switch events; prints a failure otherwise.
check_readable() {
	local sw
	if [ ! -s "$f" ]; then
		echo "FAIL $what: no file"
		status=1
		return
	fi
	if ! trace-cmd report "$f" >"$tmp/rep" 2>"$tmp/rep.err" || [ -s "$tmp/rep.err" ]; then
		echo "FAIL $what: trace-cmd report: $(head -3 "$tmp/rep.err")"
		status=1
		return
	fi
	sw=$(grep -c 'sched_switch:' "$tmp/rep")
	if [ "$sw" -eq 0 ]; then
		echo "FAIL $what: no sched_switch in the file"
		status=1
	fi
	echo "$what: file kept, $sw sched_switch events"
}

# The checks after every try: instance, messages, .cpuN files, top-level state.
check_after() {
	inst=$t/instances/latscope-$pid
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
	if grep -q "no file written" "$log" && [ -e "$f" ]; then
		echo "FAIL $what: says 'no file written' but $f is there"
		status=1
	fi
	if ls "$f".cpu* >/dev/null 2>&1; then
		echo "FAIL $what: per-CPU files left:" "$f".cpu*
		status=1
	fi
	state >"$tmp/after"
	if ! cmp -s "$tmp/before" "$tmp/after"; then
		echo "FAIL $what: top-level tracefs state changed:"
		diff "$tmp/before" "$tmp/after" | head -5
		status=1
	fi
}

for delay in 0 10 50 200; do
	for i in $(seq 1 "$tries"); do
		n=$((n + 1))
		f=$tmp/try$n.dat
		log=$tmp/try$n.log
		start_rec
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
		what="double $n (second signal after $delay ms, exit $rc)"
		if [ "$rc" != 0 ] && [ "$rc" != 130 ]; then
			echo "FAIL $what: unexpected exit status; said: $(cat "$log")"
			status=1
		fi
		if grep -q "aborted\|no file written" "$log"; then
			echo "FAIL $what: a double signal threw the recording away: $(tail -1 "$log")"
			status=1
		fi
		check_readable
		check_after
		rm -f "$f" "$f".cpu*
	done
done

for i in $(seq 1 "$tries"); do
	n=$((n + 1))
	f=$tmp/try$n.dat
	log=$tmp/try$n.log
	start_rec
	ms_sleep 300
	kill -INT "$pid" 2>/dev/null
	ms_sleep 5
	kill -TERM "$pid" 2>/dev/null
	ms_sleep 5
	kill -INT "$pid" 2>/dev/null
	wait "$pid"
	rc=$?
	what="triple $n (exit $rc)"
	if grep -q "aborted by a third signal" "$log"; then
		aborted=$((aborted + 1))
		[ "$rc" = 130 ] || { echo "FAIL $what: aborted but exit $rc"; status=1; }
		if grep -q "kept" "$log"; then
			check_readable
		elif [ -e "$f" ]; then
			echo "FAIL $what: aborted without saying the file was kept, but $f is there"
			status=1
		fi
		echo "$what: $(tail -1 "$log")"
	else
		check_readable
	fi
	check_after
	rm -f "$f" "$f".cpu*
done
if [ "$aborted" = 0 ]; then
	echo "FAIL: no triple signal took the abort path (all $tries runs were over before it)"
	status=1
fi

# The instance cannot be removed (another process holds one of its files open): latscope says
# so, and how to remove it, and leaves it with tracing off and no event enabled; after a double
# signal the file is written all the same.
for signals in 2 3; do
	f=$tmp/held$signals.dat
	log=$tmp/held$signals.log
	start_rec
	inst=$t/instances/latscope-$pid
	sleep 5 <"$inst/trace_marker" &
	holder=$!
	ms_sleep 200
	# the signals at once: the --stacks triggers are still set (they keep their events in
	# the kernel's soft mode, where "0" to events/enable does not turn them off)
	kill -INT "$pid"
	kill -TERM "$pid"
	if [ "$signals" = 3 ]; then
		ms_sleep 5
		kill -INT "$pid"
	fi
	wait "$pid"
	rc=$?
	what="held, $signals signals (exit $rc)"
	if [ ! -d "$inst" ]; then
		echo "FAIL $what: $inst removed although held open (the test did not hold it?)"
		status=1
	elif ! grep -q "could not remove instance $inst (Device or resource busy).*rmdir $inst" \
		"$log"; then
		echo "FAIL $what: message does not say it could not remove $inst and how:"
		cat "$log"
		status=1
	elif [ "$(cat "$inst/tracing_on")" != 0 ] || grep -q . "$inst/set_event"; then
		echo "FAIL $what: $inst left with tracing on or events enabled:"
		cat "$inst/tracing_on" "$inst/set_event"
		status=1
	elif grep -q "instance removed" "$log"; then
		echo "FAIL $what: says the instance was removed: $(cat "$log")"
		status=1
	elif [ "$signals" = 2 ]; then
		[ "$rc" = 0 ] || { echo "FAIL $what: exit $rc"; status=1; }
		check_readable
	else
		echo "$what: last: $(tail -1 "$log")"
	fi
	kill "$holder" 2>/dev/null
	wait "$holder" 2>/dev/null
	rmdir "$inst" 2>/dev/null
	if [ -d "$inst" ]; then
		echo "FAIL $what: $inst cannot be removed after the holder quit"
		status=1
	fi
	rm -f "$f" "$f".cpu*
done
echo "quick signals: $n tries ($aborted aborted by a third signal), two held instances," \
	"status $status"
exit $status
