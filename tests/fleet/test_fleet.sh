#!/bin/sh
# ClickHouse against `latscope merge` on the same traces, and idempotent, all-or-nothing
# loading (docs/fleet.md).  Usage: test_fleet.sh BIN REPO BUILD_DIR
#
# A throw-away server on 127.0.0.1 (its directory under BUILD_DIR, free ports), stopped
# at the end whatever happens.  Exit 77 (ctest: skipped) when ClickHouse is not installed.
#
# What is compared:
# * per host and overall: the count and maximum of ClickHouse's rows equal the merged
#   summary's; the exact nearest-rank percentiles computed by ClickHouse over the rows
#   (arraySort, element ceil(q n)) lie within the histogram's stated error (1/256) of the
#   merged p50, p90, p99, p99.9; per host and comm, counts and maxima equal.
# * the host whose worst wait lay in a stall: cyclictest-stress-v7-zstd.dat's worst wait,
#   cyclictest/20718 5714613 ns on CPU0, overlaps the stall of CPU0 450.844464766 ..
#   450.849989769 by 5525003 ns (analyze gives it the verdict "stall" with stall_ns
#   5525003); the other hosts' worst waits overlap no stall.
# * loading twice: skipped, the counts unchanged; forced twice: FINAL counts unchanged.
# * refused: a cut row, row_schema 3, a wait row missing: nothing of the trace in any
#   table, no staging table left.
bin=$1
repo=$2
build=$3
. "$repo/tests/e2e/check.sh"
. "$repo/deploy/clickhouse/local-server.sh"
. "$repo/deploy/clickhouse/queries.sh"
if ! ch_have; then
	echo "skip: clickhouse-server/clickhouse-client not installed" \
		"(apt-get install clickhouse-server clickhouse-client; scripts/install-deps.sh)"
	exit 77
fi
dir=$build/fleet-test
rm -rf "$dir"
mkdir -p "$dir" || exit 2
trap 'ch_stop "$dir/ch"; rm -rf "$dir"' EXIT
trap 'exit 130' INT TERM
ports=$(python3 -c 'import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))')
set -- $ports
tcp=$1
ch_start "$dir/ch" "$1" "$2" || { echo "FAIL: the server did not start"; exit 1; }
ch_q "$tcp" -n <"$repo/deploy/clickhouse/schema.sql" || { echo "FAIL: schema.sql"; exit 1; }
W=latscope.waits S=latscope.stalls T=latscope.traces
load() { LATSCOPE=$bin "$repo/deploy/clickhouse/load.sh" -p "$tcp" "$@"; }
td=$repo/samples/tracedat
fixture=${LAT_FIXTURE_V7:-$repo/tests/fixtures/tracecmd-mixed.dat}
alpha="$fixture $repo/samples/ftrace-text/kernel-trace.txt"
beta="$td/cyclictest-stress-v7-zstd.dat"
gamma="$td/probe-stop-v7-zstd.dat $td/record-stacks-v7-zstd.dat $td/quiet-shared-v7-zstd.dat"

# --- load, and the same traces merged ----------------------------------------------------
for h in alpha beta gamma; do
	eval "files=\$$h"
	# shellcheck disable=SC2086
	load -H "$h" $files >"$dir/load-$h.out" 2>&1
	check "load $h: exit 0" '[ $? -eq 0 ]'
	# shellcheck disable=SC2086
	"$bin" analyze --json --mergeable --host "$h" $files >"$dir/$h.json" 2>/dev/null
done
check "loaded 6 traces" '[ "$(cat "$dir"/load-*.out | grep -c ": loaded ")" -eq 6 ]'
"$bin" merge "$dir/alpha.json" "$dir/beta.json" "$dir/gamma.json" >"$dir/merged.json"
check "merge: exit 0" '[ $? -eq 0 ]'

# ClickHouse's numbers per host ('' = overall): count, max, exact nearest-rank percentiles
pct() { echo "arrayElement(arraySort(groupArray(latency_ns)), intDiv($1 * count() + $2 - 1, $2))"; }
stats="count(), max(latency_ns), $(pct 50 100), $(pct 90 100), $(pct 99 100), $(pct 999 1000)"
ok="trusted AND kind != 'preempt'"
ch_q "$tcp" -q "SELECT host, $stats FROM $W WHERE $ok GROUP BY host ORDER BY host" \
	>"$dir/ch-hosts.tsv"
ch_q "$tcp" -q "SELECT '*', $stats FROM $W WHERE $ok" >>"$dir/ch-hosts.tsv"
ch_q "$tcp" -q "SELECT host, comm, count(), max(latency_ns) FROM $W WHERE $ok
	GROUP BY host, comm ORDER BY host, comm" >"$dir/ch-comms.tsv"
python3 - "$dir/merged.json" "$dir/ch-hosts.tsv" "$dir/ch-comms.tsv" >"$dir/cmp.out" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))['summary']
rel = s['histogram']['max_rel_error']
m = {h['host']: h for h in s['hosts']}
m['*'] = s['all']
for line in open(sys.argv[2]):
    f = line.rstrip('\n').split('\t')
    h, n, mx, ps = f[0], int(f[1]), int(f[2]), [int(x) for x in f[3:]]
    g = m[h]
    ok = g['count'] == n and g['max_ns'] == mx
    print('%s count %d/%d max %d/%d %s' % (h, g['count'], n, g['max_ns'], mx, ok))
    for key, exact in zip(('p50_ns', 'p90_ns', 'p99_ns', 'p999_ns'), ps):
        d = abs(g[key] - exact)
        print('%s %s merged %d exact %d within %s' % (h, key, g[key], exact,
                                                      d <= exact * rel + 1))
comms = {}
for h in s['hosts']:
    for c in h['comms']:
        comms[(h['host'], c['comm'])] = (c['count'], c['max_ns'])
seen = 0
bad = 0
for line in open(sys.argv[3]):
    h, c, n, mx = line.rstrip('\n').split('\t')
    seen += 1
    if comms.get((h, c)) != (int(n), int(mx)):
        bad += 1
        print('comm %s/%s merged %s clickhouse %s %s' % (h, c, comms.get((h, c)), n, mx))
print('comms %d of %d equal %s' % (seen - bad, len(comms), bad == 0 and seen == len(comms)))
PY
check "hosts and overall: the counts and maxima agree" \
	'[ "$(grep -c " count .* True$" "$dir/cmp.out")" -eq 4 ]'
check "hosts and overall: every percentile within the histogram error" \
	'[ "$(grep -c " within True$" "$dir/cmp.out")" -eq 16 ]'
check "host and comm: every count and maximum agrees" 'grep -q "^comms .* True$" "$dir/cmp.out"'
# 18368 + 328: tracecmd-mixed and kernel-trace.txt with inferred switch-ins, less the waits of
# CPU1, whose switches out of idle these kernels never log (docs/wakeup.md "Trace health": such
# waits are of low trust and not counted; `analyze` prints each file's count as "waits")
check "alpha: 18368 + 328 waits, max 347160698 (tracecmd-mixed's hackbench)" \
	'grep -q "^alpha count 18696/18696 max 347160698/347160698 True" "$dir/cmp.out"'
[ "$fail" -eq 0 ] || cat "$dir/cmp.out"
# the verdict and pid columns loaded: per host, the rows with a verdict are analyze's
# verdicts_above_threshold (10 ms, both defaults), the rows with a pid those of the traces
# latscope recorded (its tgids line; alpha's trace-cmd and ftrace text files have none)
ch_q "$tcp" -q "SELECT host, countIf(verdict != ''), countIf(pid IS NOT NULL) > 0 FROM $W
	GROUP BY host ORDER BY host FORMAT TSV" >"$dir/verdicts.tsv"
for h in alpha beta gamma; do
	python3 - "$dir/$h.json" "$h" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
n = sum(b["wakeup"]["verdicts_above_threshold"]["waits"] for i in d["inputs"]
        for b in i["blocks"] if "wakeup" in b)
print("%s\t%d\t%d" % (sys.argv[2], n, sys.argv[2] != "alpha"))
PY
done >"$dir/verdicts.want"
check "verdicts and pids loaded: per host as analyze counts them" \
	'cmp -s "$dir/verdicts.tsv" "$dir/verdicts.want" && [ "$(cut -f2 "$dir/verdicts.want" | sort -n | tail -1)" -gt 0 ]'
[ "$fail" -eq 0 ] || { cat "$dir/verdicts.tsv"; cat "$dir/verdicts.want"; }

# --- the fleet queries ---------------------------------------------------------------------
ch_q "$tcp" -q "$(q_stall)" >"$dir/stall.tsv"
check "worst case in a stall: beta only, cyclictest 5714613 ns, 5525003 ns in the stall" \
	'[ "$(cat "$dir/stall.tsv")" = "$(printf "beta\t5714613\tcyclictest\t5525003\t0.967")" ]'
ch_q "$tcp" -q "$(q_host)" >"$dir/host.tsv"
check "p99/max per host: three hosts, alpha's max first" \
	'[ "$(cut -f1,4 "$dir/host.tsv" | head -1)" = "$(printf "alpha\t347160698")" ] &&
	 [ "$(wc -l <"$dir/host.tsv")" -eq 3 ]'

# --- idempotent ----------------------------------------------------------------------------
count() { ch_q "$tcp" -q "SELECT count() FROM $1"; }
before="$(count $W) $(count latscope.samples) $(count $S) $(count $T)"
for h in alpha beta gamma; do
	eval "files=\$$h"
	# shellcheck disable=SC2086
	load -H "$h" $files >>"$dir/again.out" 2>&1
done
check "loaded again: 6 skipped" '[ "$(grep -c "already loaded" "$dir/again.out")" -eq 6 ]'
check "loaded again: the counts unchanged" \
	'[ "$(count $W) $(count latscope.samples) $(count $S) $(count $T)" = "$before" ]'
LATSCOPE_CH_FORCE=1 load -H beta $beta >"$dir/force.out" 2>&1
check "forced: the rows are there twice" '[ "$(count $W)" -gt "${before%% *}" ]'
check "forced: FINAL counts each row once" \
	'[ "$(count "$W FINAL") $(count "latscope.samples FINAL") $(count "$S FINAL") $(count "$T FINAL")" = "$before" ]'
for t in waits samples stalls traces; do
	ch_q "$tcp" -q "OPTIMIZE TABLE latscope.$t FINAL"
done
check "forced: after OPTIMIZE FINAL, the counts unchanged" \
	'[ "$(count $W) $(count latscope.samples) $(count $S) $(count $T)" = "$before" ]'

# --- refused, nothing loaded ----------------------------------------------------------------
new=$td/mixed-3000-v6.dat
mkdir -p "$dir/rows"
for k in traces waits samples stalls; do
	"$bin" export --rows $k --format jsonl --host delta -o "$dir/rows/$k.jsonl" "$new" 2>/dev/null
done
id=$(sed -n 's/.*"trace_id":"\([0-9a-f]*\)".*/\1/p' "$dir/rows/traces.jsonl")
none_of() {
	[ "$(ch_q "$tcp" -q "SELECT (SELECT count() FROM $W WHERE trace_id = '$id') +
		(SELECT count() FROM $T WHERE trace_id = '$id') +
		(SELECT count() FROM latscope.samples WHERE trace_id = '$id') +
		(SELECT count() FROM $S WHERE trace_id = '$id')")" -eq 0 ] &&
	[ "$(ch_q "$tcp" -q "SELECT count() FROM system.tables WHERE database = 'latscope_stage'
		AND name NOT LIKE '%_tpl'")" -eq 0 ]
}
refuse() {	# NAME MESSAGE: load the damaged copy in $dir/bad
	load -d "$dir/bad" >"$dir/bad.out" 2>&1
	check "$1: exit 1" '[ $? -eq 1 ]'
	msg=$2
	check "$1: says $2" 'grep -q "$msg" "$dir/bad.out"'
	check "$1: nothing of the trace in any table, no staging left" none_of
}
rm -rf "$dir/bad" && cp -r "$dir/rows" "$dir/bad"
sed -i '100s/,"latency_ns":[0-9]*/,"latency_ns":12x/' "$dir/bad/waits.jsonl"
refuse "a malformed row" "waits.jsonl: Code: [0-9]*.*Exception"
rm -rf "$dir/bad" && cp -r "$dir/rows" "$dir/bad"
sed -i '$s/"row_schema":2/"row_schema":3/' "$dir/bad/waits.jsonl"
refuse "row_schema 3" "expected row_schema 2 in every row"
rm -rf "$dir/bad" && cp -r "$dir/rows" "$dir/bad"
sed -i '7d' "$dir/bad/waits.jsonl"
refuse "a wait row missing" "expected the wait rows the traces row counts"
load -d "$dir/rows" >"$dir/good.out" 2>&1
check "the undamaged rows load" '[ $? -eq 0 ] && grep -q ": loaded .* host .delta." "$dir/good.out"'
check "... and count: 4 hosts" \
	'[ "$(ch_q "$tcp" -q "SELECT uniqExact(host) FROM $T")" -eq 4 ]'

[ "$fail" -eq 0 ] && echo "fleet: all checks passed"
exit "$fail"
