#!/bin/sh
# Records the kernel-text samples of this directory (run as root, tracefs mounted).
# Uses its own tracefs instance, removed on exit; nothing is left enabled.
# The same ring buffer is printed several times with different print options,
# so every layout shows the same events; then trace-cmd extracts it for the
# `trace-cmd report` form of the same region.
#   usage: samples/ftrace-text/record.sh OUTDIR
set -eu
out=${1:?usage: record.sh OUTDIR}
T=/sys/kernel/tracing
I=$T/instances/latscope-ftracetext-$$
L=$T/instances/latscope-ftracetext-lost-$$
mkdir -p "$out"
mkdir "$I"
cleanup() {
	# trace-cmd extract -B removes the instance itself once it has read it
	for d in "$I" "$L"; do
		[ -d "$d" ] || continue
		echo 0 >"$d/tracing_on" 2>/dev/null || true
		echo '!stacktrace:8' >"$d/events/sched/sched_switch/trigger" 2>/dev/null || true
		echo >"$d/set_event" 2>/dev/null || true
		rmdir "$d"
	done
}
trap cleanup EXIT
echo 0 >"$I/tracing_on"
echo 1 >"$I/options/record-tgid"
for e in sched/sched_switch sched/sched_waking sched/sched_wakeup sched/sched_wakeup_new \
	 sched/sched_migrate_task sched/sched_process_fork sched/sched_process_exec \
	 sched/sched_process_exit irq/irq_handler_entry irq/irq_handler_exit \
	 irq/softirq_entry irq/softirq_exit; do
	echo 1 >"$I/events/$e/enable"
done
# kernel stacks of the first 8 tasks that block in D state
echo 'stacktrace:8 if prev_state & 2' >"$I/events/sched/sched_switch/trigger"
echo 1 >"$I/tracing_on"
echo "latscope-sample: start" >"$I/trace_marker"
# a comm with a space and dashes, forking short-lived children
sh -c 'printf "Web Content-7" >/proc/$$/comm; for i in 1 2 3 4 5; do sleep 0.002; done'
perf bench sched messaging -g 1 -l 5 >/dev/null 2>&1 || true
dd if=/dev/zero of="$out/.ddtmp" bs=64k count=32 oflag=direct 2>/dev/null || true
rm -f "$out/.ddtmp"
echo "latscope-sample: end" >"$I/trace_marker"
echo 0 >"$I/tracing_on"

cat "$I/trace" >"$out/kernel-trace.txt"
echo 0 >"$I/options/irq-info"
cat "$I/trace" >"$out/kernel-trace-noirqinfo.txt"
echo 1 >"$I/options/irq-info"
echo 1 >"$I/options/sym-offset"
cat "$I/trace" >"$out/kernel-trace-symoffset.txt"
echo 0 >"$I/options/sym-offset"
echo 0 >"$I/options/record-tgid"
cat "$I/trace" >"$out/kernel-trace-notgid.txt"
trace-cmd extract -B "latscope-ftracetext-$$" -o "$out/kernel.dat" >/dev/null 2>&1
trace-cmd report -i "$out/kernel.dat" >"$out/kernel-tracecmd.txt" 2>/dev/null

# trace_pipe of a tiny overwriting buffer read after the fact: "CPU:N [LOST N EVENTS]"
mkdir "$L"
echo 8 >"$L/buffer_size_kb"
echo 1 >"$L/events/sched/enable"
perf bench sched messaging -g 1 -l 20 >/dev/null 2>&1 || true
echo 0 >"$L/tracing_on"
timeout 2 cat "$L/trace_pipe" >"$out/kernel-trace-pipe-lost.txt" || true
echo 0 >"$L/events/sched/enable"
rmdir "$L"

# the trace-cmd report sample is the start of the trace-cmd fixture (tests/fixtures)'s report:
#   trace-cmd report -i ../../tests/fixtures/tracecmd-mixed.dat | head -3000 >tracecmd-report.txt
