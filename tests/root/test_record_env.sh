#!/bin/bash
# The recorded environment and steal markers on the real kernel (needs root and tracefs):
# `latscope record -d 2s` under a CPU load, then
#  - trace-cmd report and report --stat read the file with an empty stderr, and --stat shows
#    the "latscope: env", "latscope: cpustat" and "latscope: steal_sampler" lines;
#  - every value equals what this script reads itself from /proc, /sys and the kernel config:
#    HZ and the tick mode (CONFIG_HZ, CONFIG_NO_HZ_*), the preemption mode (debugfs
#    sched/preempt when readable, else the preempt= parameter of a PREEMPT_DYNAMIC kernel, else
#    the config's choice), RT throttling, isolated and nohz_full CPUs, the cpuid hypervisor flag
#    and systemd-detect-virt --vm;
#  - per CPU the start and end steal/idle times are /proc/stat's (start <= end <= now);
#  - the steal markers in the trace are as many as the sampler line says, and the values
#    `latscope dump` parsed from each equal its text, from the trace.dat and from trace-cmd
#    report's text;
#  - latscope analyze --json has the same values in "environment";
#  - debugfs unmounted (in a private mount namespace): the recorder mounts it read-only for the
#    reading and leaves no mount and no directory behind.
# usage: test_record_env.sh LATSCOPE
set -u
bin=$1
t=/sys/kernel/tracing
if [ "$(id -u)" != 0 ] || [ ! -d "$t/instances" ]; then
	echo "skip: needs root and tracefs at $t"
	exit 0
fi
tmp=$(mktemp -d /tmp/latscope-env-XXXXXX)
load=()
cleanup() {
	for p in "${load[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
status=0
fail() {
	echo "FAIL: $*"
	status=1
}
# the value of KEY= in the env lines (quotes removed), "" when absent
val() {
	grep -o " $1=\(\"[^\"]*\"\|[^ ]*\)" "$tmp/env" | head -1 | sed "s/^ $1=//; s/\"//g"
}
has() {
	grep -q " $1=" "$tmp/env"
}
expect() {
	if [ "$(val "$1")" != "$2" ]; then
		fail "$1: recorded '$(val "$1")', read '$2'"
	fi
}

for _ in 1 2; do
	(while :; do :; done) &
	load+=($!)
done
f=$tmp/t.dat
"$bin" record -d 2s -o "$f" >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "record failed"; }
for p in "${load[@]}"; do kill "$p" 2>/dev/null; done
wait 2>/dev/null
load=()
trace-cmd report --stat "$f" >"$tmp/stat" 2>"$tmp/stat.err"
[ -s "$tmp/stat.err" ] && fail "trace-cmd report --stat: $(head -3 "$tmp/stat.err")"
trace-cmd report "$f" >"$tmp/rep" 2>"$tmp/rep.err"
[ -s "$tmp/rep.err" ] && fail "trace-cmd report: $(head -3 "$tmp/rep.err")"
grep '^latscope: env' "$tmp/stat" >"$tmp/env"
[ -s "$tmp/env" ] || fail "no latscope: env lines in trace-cmd report --stat"
nenv=$(grep -c . "$tmp/env")

# the kernel config, read here
cfg=""
if [ -r /proc/config.gz ]; then
	cfg=$(zcat /proc/config.gz)
elif [ -r "/boot/config-$(uname -r)" ]; then
	cfg=$(cat "/boot/config-$(uname -r)")
fi
cmdline=$(cat /proc/cmdline)
if [ -n "$cfg" ]; then
	expect hz "$(echo "$cfg" | sed -n 's/^CONFIG_HZ=//p')"
	expect hz_src config
	nohz=""
	echo "$cfg" | grep -q '^CONFIG_HZ_PERIODIC=y' && nohz=periodic
	echo "$cfg" | grep -q '^CONFIG_NO_HZ_IDLE=y' && nohz=idle
	echo "$cfg" | grep -q '^CONFIG_NO_HZ_FULL=y' && nohz=full
	echo " $cmdline " | grep -q ' nohz=off ' && nohz=periodic
	expect nohz "$nohz"
	mode=""
	echo "$cfg" | grep -q '^CONFIG_PREEMPT_NONE=y' && mode=none
	echo "$cfg" | grep -q '^CONFIG_PREEMPT_VOLUNTARY=y' && mode=voluntary
	echo "$cfg" | grep -q '^CONFIG_PREEMPT=y' && mode=full
	echo "$cfg" | grep -q '^CONFIG_PREEMPT_LAZY=y' && mode=lazy
	src=config
	if echo "$cfg" | grep -q '^CONFIG_PREEMPT_DYNAMIC=y'; then
		expect dynamic 1
		boot=$(echo " $cmdline " | grep -o ' preempt=[a-z]*' | sed 's/ preempt=//')
		[ -n "$boot" ] && { mode=$boot; src=cmdline; }
	fi
	if dbg=$(cat /sys/kernel/debug/sched/preempt 2>/dev/null); then
		mode=$(echo "$dbg" | sed 's/.*(\(.*\)).*/\1/')
		src=debugfs
	else
		# not readable here (this VM: EPERM): the recording must say why
		val preempt_note | grep -q 'debugfs' || fail "no note why debugfs was not used"
	fi
	expect preempt "$mode"
	expect preempt_src "$src"
fi
expect rt_runtime_us "$(cat /proc/sys/kernel/sched_rt_runtime_us)"
expect rt_period_us "$(cat /proc/sys/kernel/sched_rt_period_us)"
if [ -r /sys/devices/system/cpu/isolated ]; then
	expect isolated "$(cat /sys/devices/system/cpu/isolated)"
fi
if [ -r /sys/devices/system/cpu/nohz_full ]; then
	nf=$(cat /sys/devices/system/cpu/nohz_full)
	[ "$nf" = "(null)" ] && nf=""
	expect nohz_full "$nf"
fi
if grep -q '^flags' /proc/cpuinfo; then
	flag=0
	grep -m1 '^flags' /proc/cpuinfo | grep -qw hypervisor && flag=1
	expect hypervisor_flag "$flag"
fi
if command -v systemd-detect-virt >/dev/null; then
	expect virt "$(systemd-detect-virt --vm)"
	expect virt_src systemd-detect-virt
fi

# steal: start <= end <= now, per CPU, in /proc/stat's ticks
tck=$(getconf CLK_TCK)
ns=$((1000000000 / tck))
for cpu in $(seq 0 $(($(nproc --all) - 1))); do
	now=$(awk -v c="cpu$cpu" '$1 == c {print $9}' /proc/stat)
	s=$(sed -n "s/^latscope: cpustat at=start cpu=$cpu steal_ns=\([0-9]*\) .*/\1/p" "$tmp/stat")
	e=$(sed -n "s/^latscope: cpustat at=end cpu=$cpu steal_ns=\([0-9]*\) .*/\1/p" "$tmp/stat")
	if [ -z "$s" ] || [ -z "$e" ]; then
		fail "CPU$cpu: no cpustat start/end lines"
	elif [ "$s" -gt "$e" ] || [ "$e" -gt $((now * ns)) ]; then
		fail "CPU$cpu: steal start $s, end $e, now $((now * ns)) ns: not in order"
	fi
done
grep -q "^latscope: steal_sampler interval_ns=10000000 clk_tck=$tck " "$tmp/stat" ||
	fail "no steal_sampler line with the default interval and clk_tck=$tck"
markers=$(sed -n 's/^latscope: steal_sampler .* markers=\([0-9]*\) .*/\1/p' "$tmp/stat")
inrep=$(grep -c 'latscope: steal cpu=' "$tmp/rep")
[ "$markers" = "$inrep" ] || fail "sampler says $markers markers, the trace holds $inrep"
[ "$inrep" -ge "$(nproc --all)" ] || fail "fewer steal markers ($inrep) than CPUs (first ones)"

# what the readers parsed from each marker equals its text: trace.dat and trace-cmd's text
"$bin" dump "$f" >"$tmp/dump" || fail "latscope dump failed"
"$bin" dump "$tmp/rep" >"$tmp/dump.txt" || fail "latscope dump of the text failed"
for d in "$tmp/dump" "$tmp/dump.txt"; do
	n=$(grep -c 'latscope: steal cpu=' "$d")
	[ "$n" = "$inrep" ] || fail "$d: $n steal markers, trace-cmd shows $inrep"
	# "... latscope: steal cpu=C steal_ns=S guest_ns=G ... [steal cpu=C steal_ns=S ...]"
	bad=$(sed -n 's/.*latscope: steal \(cpu=[0-9]* steal_ns=[0-9]* guest_ns=[0-9]* idle_ns=[0-9]* iowait_ns=[0-9]*\).*\[steal \(cpu=[0-9]* steal_ns=[0-9]* guest_ns=[0-9]* idle_ns=[0-9]* iowait_ns=[0-9]*\) .*/\1|\2/p' "$d" |
		awk -F'|' '$1 != $2' | wc -l)
	parsed=$(grep -c '\[steal cpu=' "$d")
	[ "$parsed" = "$n" ] || fail "$d: $parsed of $n steal markers parsed"
	[ "$bad" = 0 ] || fail "$d: $bad steal markers parsed with other values than their text"
done

# the analysis' JSON
"$bin" analyze --json "$f" >"$tmp/json" 2>/dev/null || fail "latscope analyze failed"
python3 - "$tmp/json" "$(val hz)" "$(cat /proc/sys/kernel/sched_rt_runtime_us)" "$markers" \
	"$(val preempt)" <<'EOF' || fail "analyze --json environment differs"
import json, sys
d = json.load(open(sys.argv[1]))
envs = []
def walk(o):
    if isinstance(o, dict):
        if "environment" in o:
            envs.append(o["environment"])
        for v in o.values():
            walk(v)
    elif isinstance(o, list):
        for v in o:
            walk(v)
walk(d)
e = envs[0]
want = {"hz": int(sys.argv[2]) if sys.argv[2] else None, "rt_runtime_us": int(sys.argv[3]),
        "steal_markers": int(sys.argv[4]), "preempt": sys.argv[5] or None}
for k, v in want.items():
    if e[k] != v:
        print("environment.%s = %r, expected %r" % (k, e[k], v))
        sys.exit(1)
EOF

# debugfs not mounted: mounted read-only for the reading, and nothing left behind
if command -v unshare >/dev/null && [ -n "$cfg" ]; then
	unshare -m --propagation private bash -c '
		umount -l /sys/kernel/debug 2>/dev/null
		grep -q " debugfs " /proc/mounts && { echo "still mounted"; exit 1; }
		"$1" record -d 300ms -o "$2/ns.dat" >"$2/ns.log" 2>&1 || exit 2
		grep -q " debugfs " /proc/mounts && { echo "debugfs left mounted"; exit 3; }
		exit 0' _ "$bin" "$tmp" || fail "private namespace run: exit $?"
	ls -d /tmp/latscope-debugfs-* 2>/dev/null && fail "a latscope-debugfs directory was left"
	trace-cmd report --stat "$tmp/ns.dat" 2>/dev/null | grep '^latscope: env preempt' >"$tmp/env"
	note=$(val preempt_note)
	if echo "$note" | grep -q 'debugfs not mounted'; then
		fail "the recorder did not mount debugfs itself: $note"
	fi
	echo "debugfs unmounted: $(cat "$tmp/env")"
fi
echo "recorded environment: $nenv env lines checked, $inrep steal markers;" \
	"status $status"
exit $status
