#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The fleet path on one machine (docs/fleet.md): two ClickHouse servers on the loopback
# (shards of the cluster latscope_fleet, each with its own directory under the build tree
# and its own ports), the recordings of several "hosts" loaded into the shard their host
# hashes to, and the fleet queries answered through Distributed tables; then the same
# per-host numbers from `latscope merge` over the same traces.  Both servers are stopped
# at the end, whatever happens.
#
#   scripts/fleet-demo.sh [BUILD_DIR]      (default build; as root it records two traces)
#
# Hosts: the samples of samples/tracedat as "lab-a" (its waits of 1 ms or more judged: -t 1ms),
# "lab-b", "lab-c", the trace-cmd fixture as "ci-1", and, as root, two recordings made here
# with `latscope record` (one idle, one under hackbench with a cyclictest-like probe) as
# "rec-idle" and "rec-load".  ci-1 is then reloaded twice: every answer stays the same.
set -u
cd "$(dirname "$0")/.." || exit 2
repo=$PWD
build=${1:-build}
bin=$repo/$build/latscope
[ -x "$bin" ] || { echo "fleet-demo: no $bin: build first (cmake --build $build)" >&2; exit 2; }
. deploy/clickhouse/local-server.sh
. deploy/clickhouse/queries.sh
ch_have || {
	echo "fleet-demo: clickhouse-server and clickhouse-client are needed" \
		"(apt-get install clickhouse-server clickhouse-client)" >&2
	exit 2
}
dir=$repo/$build/fleet-demo
rm -rf "$dir"
mkdir -p "$dir" || exit 2
cleanup() {
	ch_stop "$dir/shard1"
	ch_stop "$dir/shard2"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_ports() {
	python3 -c 'import socket
s = [socket.socket() for _ in range(4)]
for x in s: x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))'
}
# shellcheck disable=SC2046
set -- $(free_ports)
p1=$1 h1=$2 p2=$3 h2=$4
export CH_SHARDS="$p1 $p2"
echo "== two shard servers on 127.0.0.1:$p1 and 127.0.0.1:$p2 ($dir)"
ch_start "$dir/shard1" "$p1" "$h1" && ch_start "$dir/shard2" "$p2" "$h2" || exit 1
for p in $p1 $p2; do
	ch_q "$p" -n <deploy/clickhouse/schema.sql || exit 1
	ch_q "$p" -n <deploy/clickhouse/distributed.sql || exit 1
done

# --- the traces ------------------------------------------------------------------------------
td=samples/tracedat
hosts="lab-a lab-b lab-c ci-1"
t_lab_a="$td/cyclictest-stress-v7-zstd.dat"
t_lab_b="$td/probe-stop-v7-zstd.dat $td/record-stacks-v7-zstd.dat"
t_lab_c="$td/mixed-3000-v6.dat $td/quiet-shared-v7-zstd.dat samples/ftrace-text/kernel-trace.txt"
t_ci_1="tests/fixtures/tracecmd-mixed.dat"
t_rec_idle= t_rec_load=
if [ "$(id -u)" = 0 ] && [ -d /sys/kernel/tracing/instances ]; then
	echo "== recording two traces here (root): 2 s idle, 2 s under hackbench"
	if "$bin" record -o "$dir/rec-idle.dat" -d 2s --probe timer >/dev/null 2>"$dir/rec.err" &&
	   "$bin" record -o "$dir/rec-load.dat" --probe timer -- \
		hackbench -g 4 -l 2000 >/dev/null 2>>"$dir/rec.err"; then
		hosts="$hosts rec-idle rec-load"
		t_rec_idle=$dir/rec-idle.dat
		t_rec_load=$dir/rec-load.dat
	else
		echo "   (recording failed, left out: $(head -1 "$dir/rec.err"))"
	fi
else
	echo "== not root (or no tracefs): no recordings of this machine, the samples only"
fi

echo "== loading: each host into the shard cityHash64(host) % 2 picks (as the Distributed"
echo "   tables' sharding key would)"
for h in $hosts; do
	v=t_$(echo "$h" | tr - _)
	eval "files=\$$v"
	shard=$(ch_q "$p1" -q "SELECT cityHash64('$h') % 2")
	[ "$shard" = 0 ] && port=$p1 || port=$p2
	thr=
	[ "$h" = lab-a ] && thr=1ms
	# shellcheck disable=SC2086
	LATSCOPE=$bin deploy/clickhouse/load.sh -p "$port" -H "$h" ${thr:+-t $thr} $files |
		sed "s/^/   shard $((shard + 1)): /"
	# shellcheck disable=SC2086
	"$bin" analyze --json --mergeable --host "$h" $files >"$dir/$h.json" 2>/dev/null
done
echo "== loading ci-1 again (into its shard): skipped, not counted twice"
shard=$(ch_q "$p1" -q "SELECT cityHash64('ci-1') % 2")
[ "$shard" = 0 ] && port=$p1 || port=$p2
LATSCOPE=$bin deploy/clickhouse/load.sh -p "$port" -H ci-1 $t_ci_1 | sed 's/^/   /'

# --- the fleet queries through the Distributed tables -----------------------------------------
W=latscope.waits_all S=latscope.stalls_all T=latscope.traces_all
# every answer: the queries, and per host the count, max and exact p99 of the rows that count
answers() {
	for qq in q_host q_comm q_stall q_waker q_verdict; do
		ch_q "$p1" -q "$($qq)"
	done
	ch_q "$p1" -q "SELECT host, count(), max(latency_ns),
		arrayElement(arraySort(groupArray(latency_ns)), intDiv(99 * count() + 99, 100))
		FROM $W WHERE trusted AND kind != 'preempt' AND $(eval echo "\"$fleet_loaded\"")
		GROUP BY host ORDER BY host"
	# the view for one's own queries counts the same
	ch_q "$p1" -q "SELECT count() FROM latscope.waits_all_latest
		WHERE trusted AND kind != 'preempt'"
}
answers >"$dir/answers.before"
echo "== reloading ci-1 twice (LATSCOPE_CH_FORCE=1): each load replaces the one before"
for i in 1 2; do
	LATSCOPE_CH_FORCE=1 LATSCOPE=$bin deploy/clickhouse/load.sh -p "$port" -H ci-1 $t_ci_1 |
		sed 's/^/   /'
done
answers >"$dir/answers.after"
if cmp -s "$dir/answers.before" "$dir/answers.after"; then
	echo "   every answer below is the same before and after (counts, maxima, p99s)"
	same=0
else
	echo "   the answers CHANGED:"
	diff "$dir/answers.before" "$dir/answers.after" | sed 's/^/   /'
	same=1
fi
show() {
	echo
	echo "== $1"
	ch_q "$p1" --format PrettyCompactNoEscapes -q "$2"
}
show "p99 / max wakeup latency per host (Distributed over both shards)" "$(q_host)"
ch_q "$p1" -q "$(q_host)" >"$dir/q_host.tsv"
show "per comm, across hosts (at least 20 waits; the 10 worst p99)" "$(q_comm)"
show "hosts whose worst wait lay mostly in a stall" "$(q_stall)"
show "who woke the real-time tasks that waited 100 us or more" "$(q_waker)"
show "verdicts of the judged waits (lab-a: 1 ms and more; the others 10 ms)" "$(q_verdict)"
echo
echo "== what each shard holds (its own latscope.traces)"
for p in $p1 $p2; do
	echo "   127.0.0.1:$p: $(ch_q "$p" -q "SELECT concat(toString(count()), ' traces of ',
		arrayStringConcat(arraySort(groupUniqArray(host)), ', ')) FROM latscope.traces")"
done

# --- the same from latscope merge ------------------------------------------------------------
echo
echo "== latscope merge over the same traces: per host count / p99 / max"
# shellcheck disable=SC2046
"$bin" merge $(for h in $hosts; do echo "$dir/$h.json"; done) >"$dir/merged.json" || exit 1
python3 - "$dir/merged.json" "$dir/q_host.tsv" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))['summary']
ch = {}
for line in open(sys.argv[2]):
    h, n, p99, mx = line.rstrip('\n').split('\t')
    ch[h] = (int(n), int(mx))
rows = sorted(s['hosts'], key=lambda h: (-h['max_ns'], h['host'] or ''))
print('   %-10s %8s %12s %12s' % ('host', 'waits', 'p99_ns', 'max_ns'))
for h in rows:
    print('   %-10s %8d %12d %12d' % (h['host'], h['count'], h['p99_ns'], h['max_ns']))
print('   (p99 from the log-linear histogram: within %.2f%% of the exact value)'
      % (100 * s['histogram']['max_rel_error']))
same = ch == {h['host']: (h['count'], h['max_ns']) for h in s['hosts']}
print('   counts and maxima per host: the Distributed query and the merge %s'
      % ('agree' if same else 'DISAGREE'))
sys.exit(0 if same else 1)
PY
agree=$?
echo
echo "fleet-demo: done; the servers stop now"
[ "$agree" = 0 ] && [ "$same" = 0 ]
