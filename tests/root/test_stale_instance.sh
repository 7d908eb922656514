#!/bin/bash
# An instance left by a killed run (needs root and tracefs): `latscope record` removes
# instances/latscope-PID whose PID no longer exists at its start and names each one it removed;
# an instance whose PID is alive (another recording running now) stays.
#  - stale: instances/latscope-DEAD, DEAD the pid of a process that has exited (checked with
#    kill -0), is gone after the run and the run said "removed instance PATH left by a killed
#    run (pid DEAD no longer exists)";
#  - alive: instances/latscope-$$ (this script's shell, alive) is still there and not named.
# usage: test_stale_instance.sh LATSCOPE
set -u
bin=$1
t=/sys/kernel/tracing
if [ "$(id -u)" != 0 ] || [ ! -d "$t/instances" ]; then
	echo "skip: needs root and tracefs at $t"
	exit 0
fi
tmp=$(mktemp -d /tmp/latscope-stale-XXXXXX)
alive=$t/instances/latscope-$$
cleanup() {
	rmdir "$alive" 2>/dev/null
	[ -n "${stale:-}" ] && rmdir "$stale" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# A pid that certainly belonged to a process and is free now: a shell that exited.
dead=$(sh -c 'echo $$')
for _ in 1 2 3 4 5; do
	kill -0 "$dead" 2>/dev/null || break
	dead=$(sh -c 'echo $$')
done
if kill -0 "$dead" 2>/dev/null; then
	echo "FAIL: found no dead pid"
	exit 1
fi
stale=$t/instances/latscope-$dead
status=0
mkdir "$stale" || { echo "FAIL: cannot create $stale"; exit 1; }
mkdir "$alive" || { echo "FAIL: cannot create $alive"; exit 1; }
"$bin" record -d 200ms -o "$tmp/t.dat" >"$tmp/log" 2>&1
rc=$?
if [ "$rc" != 0 ]; then
	echo "FAIL: record exited $rc:"
	cat "$tmp/log"
	status=1
fi
if [ -d "$stale" ]; then
	echo "FAIL: $stale (pid $dead is dead) is still there"
	status=1
fi
if ! grep -qF "removed instance $stale left by a killed run (pid $dead no longer exists)" \
	"$tmp/log"; then
	echo "FAIL: the run did not name the stale instance it removed:"
	cat "$tmp/log"
	status=1
fi
if [ ! -d "$alive" ]; then
	echo "FAIL: $alive was removed although pid $$ is alive"
	status=1
fi
if grep -qF "latscope-$$" "$tmp/log"; then
	echo "FAIL: the run named the live instance latscope-$$:"
	cat "$tmp/log"
	status=1
fi
echo "stale instance: $(grep -F "$stale" "$tmp/log"); status $status"
exit $status
