#!/bin/sh
# bench/record.sh LATSCOPE [SECONDS] [HACKBENCH_LOOPS]
#
# CPU per recorded event and lost events of `latscope record` and of `trace-cmd record`, both
# recording the same default scheduler events at the same time while hackbench (rt-tests) runs.
# Prints the numbers and the ratios latscope / trace-cmd.  Root only.
#
# trace-cmd record refuses to start on this VM (it writes /proc/sys/kernel/ftrace_enabled and
# set_ftrace_* files, which the kernel refuses): only for this comparison it runs inside a
# private mount namespace where writable scratch files are bind-mounted over those files.  It
# records into its own instance (-B), so neither recorder disturbs the other.
set -eu
BIN=$(realpath "$1")
T=${2:-5}
LOOPS=${3:-400}
dir=$(mktemp -d /tmp/latscope-bench-XXXXXX)
TD=/sys/kernel/tracing
TCI=$TD/instances/latscope-bench-tc
cleanup() {
	[ -d "$TCI" ] && { echo 0 >"$TCI/tracing_on"; echo >"$TCI/set_event"; rmdir "$TCI"; }
	rm -rf "$dir"
}
trap cleanup EXIT
grep -q " tracefs " /proc/mounts || { echo "bench: mount tracefs on $TD first" >&2; exit 2; }
command -v hackbench >/dev/null || { echo "bench: hackbench (rt-tests) missing" >&2; exit 2; }

EVENTS="sched_switch sched_waking sched_wakeup sched_wakeup_new sched_migrate_task
sched_process_fork sched_process_exec sched_process_exit"
tc_events=""
for e in $EVENTS; do tc_events="$tc_events -e sched:$e"; done

/usr/bin/time -o "$dir/ls.cpu" -f "%U %S" "$BIN" record -o "$dir/ls.dat" -d "${T}s" \
	2>"$dir/ls.err" &
ls_pid=$!
# trace-cmd also writes set_ftrace_* of its -B instance: create it first so that the scratch
# files can be bind-mounted over those too; trace-cmd then uses it and we remove it afterwards.
mkdir "$TCI"
# shellcheck disable=SC2086
unshare -m sh -c '
	d=$1; shift
	echo 1 >"$d/ftrace_enabled"
	mount --bind "$d/ftrace_enabled" /proc/sys/kernel/ftrace_enabled
	for f in set_ftrace_filter set_ftrace_notrace set_ftrace_pid set_ftrace_notrace_pid; do
		for base in '"$TD"' '"$TCI"'; do
			[ -e "$base/$f" ] || continue
			: >"$d/$f.$(basename $base)"; mount --bind "$d/$f.$(basename $base)" "$base/$f"
		done
	done
	exec "$@"' sh "$dir" /usr/bin/time -o "$dir/tc.cpu" -f "%U %S" \
	trace-cmd record -q -B latscope-bench-tc $tc_events -o "$dir/tc.dat" sleep "$T" \
	>"$dir/tc.out" 2>&1 &
tc_pid=$!
sleep 1
hackbench -g 4 -l "$LOOPS" >/dev/null
wait $ls_pid || { cat "$dir/ls.err" >&2; exit 1; }
wait $tc_pid || { cat "$dir/tc.out" >&2; exit 1; }

# Events and losses as each file's own CPU stats say (read events, overrun + dropped).
stat_sum() {
	trace-cmd report --stat "$1" 2>/dev/null | awk -v k="$2" '
		$0 ~ "^" k ": " { s += $NF } END { print s + 0 }'
}
report_events() {
	trace-cmd report "$1" 2>/dev/null | grep -c '\[[0-9]*\] *[0-9]*\.[0-9]*:' || true
}
# CPU seconds (user + sys) of each recorder and everything it waited for (GNU time).
cpu_s() { tail -1 "$1" | awk '{ print $1 + $2 }'; }
ls_cpu=$(cpu_s "$dir/ls.cpu"); tc_cpu=$(cpu_s "$dir/tc.cpu")
ls_ev=$(report_events "$dir/ls.dat"); tc_ev=$(report_events "$dir/tc.dat")
ls_lost=$(( $(stat_sum "$dir/ls.dat" overrun) + $(stat_sum "$dir/ls.dat" "dropped events") ))
tc_lost=$(( $(stat_sum "$dir/tc.dat" overrun) + $(stat_sum "$dir/tc.dat" "dropped events") ))
echo "window ${T}s, hackbench -g 4 -l $LOOPS, default buffer size"
printf '%-10s %10s %12s %14s %8s\n' recorder cpu_s events ns_per_event lost
python3 - "$ls_cpu" "$ls_ev" "$ls_lost" "$tc_cpu" "$tc_ev" "$tc_lost" <<'PY'
import sys
lc, le, ll, tc, te, tl = map(float, sys.argv[1:])
lpe = lc / le * 1e9 if le else float("nan")
tpe = tc / te * 1e9 if te else float("nan")
print("%-10s %10.3f %12d %14.1f %8d" % ("latscope", lc, le, lpe, ll))
print("%-10s %10.3f %12d %14.1f %8d" % ("trace-cmd", tc, te, tpe, tl))
print("ratio latscope/trace-cmd: cpu per event %.2f, events %.2f" % (lpe / tpe, le / te))
PY
