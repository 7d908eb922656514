#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The fleet path's rates on this machine (bench/README-fleet.md):
#  1. `latscope analyze --json --mergeable` over a directory of traces with xargs -P 1 and
#     -P $(nproc): traces/s and waits/s (the single-machine path);
#  2. `latscope merge` of those reports, and of many copies of them: reports/s, waits/s;
#  3. ClickHouse: `load.sh` per trace (export + staging + checks + copy): traces/s, rows/s;
#     and a bare JSONEachRow INSERT of the waits rows: rows/s.
#
#   bench/fleet.sh [BUILD_DIR] [COPIES]     (default build, 8 copies of each sample trace)
set -u
cd "$(dirname "$0")/.." || exit 2
repo=$PWD
build=${1:-build}
copies=${2:-8}
bin=$repo/$build/latscope
[ -x "$bin" ] || { echo "bench/fleet.sh: build first" >&2; exit 2; }
dir=$repo/$build/fleet-bench
rm -rf "$dir"
mkdir -p "$dir/traces" "$dir/reports"
. deploy/clickhouse/local-server.sh
trap 'ch_stop "$dir/ch"' EXIT
trap 'exit 130' INT TERM
now() { date +%s.%N; }
rate() { awk -v n="$1" -v a="$2" -v b="$3" 'BEGIN { printf "%.1f", n / (b - a) }'; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

# the traces: copies of the sample recordings (the content decides the work, not the name)
i=0
for c in $(seq "$copies"); do
	for f in samples/tracedat/*.dat tests/fixtures/tracecmd-mixed.dat; do
		i=$((i + 1))
		ln -s "$repo/$f" "$dir/traces/$(printf %04d $i)-$(basename "$f")"
	done
done
n=$i
echo "fleet bench: $n traces ($copies copies of $((n / copies))), $(nproc) CPUs"

for p in 1 "$(nproc)"; do
	rm -f "$dir/reports"/*
	t0=$(now)
	find "$dir/traces" -name '*.dat' -print0 | xargs -0 -P "$p" -I{} sh -c \
		'"$1" analyze --json --mergeable "$2" >"$3/reports/$(basename "$2").json" 2>/dev/null' \
		sh "$bin" {} "$dir"
	t1=$(now)
	echo "analyze --json --mergeable, xargs -P $p: $n traces in $(secs "$t0" "$t1") s:" \
		"$(rate "$n" "$t0" "$t1") traces/s"
done
t0=$(now)
"$bin" merge "$dir/reports"/*.json >"$dir/merged.json"
t1=$(now)
waits=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["summary"]["all"]["count"])' \
	"$dir/merged.json")
echo "merge: $n reports ($waits waits) in $(secs "$t0" "$t1") s:" \
	"$(rate "$n" "$t0" "$t1") reports/s, $(rate "$waits" "$t0" "$t1") waits/s"
# merge of merges: 20 copies of the merged summary
for k in $(seq 20); do cp "$dir/merged.json" "$dir/m$k.json"; done
t0=$(now)
"$bin" merge "$dir"/m[0-9]*.json >/dev/null
t1=$(now)
echo "merge: 20 merged summaries ($((20 * waits)) waits) in $(secs "$t0" "$t1") s:" \
	"$(rate 20 "$t0" "$t1") summaries/s"

if ! ch_have; then
	echo "no clickhouse: the load rates are skipped"
	exit 0
fi
set -- $(python3 -c 'import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))')
tcp=$1
ch_start "$dir/ch" "$1" "$2" || exit 1
ch_q "$tcp" -n <deploy/clickhouse/schema.sql || exit 1
# one copy of each trace: the others have the same trace_id and would be skipped
t0=$(now)
LATSCOPE=$bin deploy/clickhouse/load.sh -p "$tcp" -H bench samples/tracedat/*.dat \
	tests/fixtures/tracecmd-mixed.dat >"$dir/load.out" 2>&1
t1=$(now)
nt=$(grep -c ": loaded " "$dir/load.out")
rows=$(ch_q "$tcp" -q "SELECT (SELECT count() FROM latscope.waits) +
	(SELECT count() FROM latscope.samples) + (SELECT count() FROM latscope.stalls)")
echo "load.sh: $nt traces, $rows rows in $(secs "$t0" "$t1") s: $(rate "$nt" "$t0" "$t1")" \
	"traces/s, $(rate "$rows" "$t0" "$t1") rows/s (the export of each trace included)"
"$bin" export --rows waits --format jsonl -o "$dir/waits.jsonl" $(for k in $(seq 4); do
	echo tests/fixtures/tracecmd-mixed.dat; done) 2>/dev/null
nr=$(wc -l <"$dir/waits.jsonl")
ch_q "$tcp" -q "CREATE TABLE latscope_stage.bench AS latscope_stage.waits_tpl"
t0=$(now)
ch_q "$tcp" -q "INSERT INTO latscope_stage.bench FORMAT JSONEachRow" <"$dir/waits.jsonl"
t1=$(now)
echo "INSERT JSONEachRow (staging, Log): $nr wait rows in $(secs "$t0" "$t1") s:" \
	"$(rate "$nr" "$t0" "$t1") rows/s"
t0=$(now)
ch_q "$tcp" -q "INSERT INTO latscope.waits SELECT concat(trace_id, 'b'), 1, ifNull(host, ''),
	comm, tid, pid, policy, prio, cpu, start_ns, end_ns, latency_ns, kind, waker, verdict,
	trusted, queued_cpu, waker_tid, waker_cpu, waker_ctx,
	toDateTime(intDiv(wall_ns, 1000000000)), wall_ns, today(), row_schema
	FROM latscope_stage.bench"
t1=$(now)
echo "INSERT SELECT into latscope.waits (MergeTree): $nr rows in" \
	"$(secs "$t0" "$t1") s: $(rate "$nr" "$t0" "$t1") rows/s"
t0=$(now)
"$bin" export --rows waits --format jsonl -o /dev/null tests/fixtures/tracecmd-mixed.dat \
	2>/dev/null
t1=$(now)
echo "export --rows waits --format jsonl: $((nr / 4)) rows in $(secs "$t0" "$t1") s:" \
	"$(rate $((nr / 4)) "$t0" "$t1") rows/s"
rm -rf "$dir"/traces "$dir"/reports
