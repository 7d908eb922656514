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
# * unknown values: the rows as CSV (\N) and as JSON Lines load the same tables; the NULLs
#   per column are the CSV's \N fields counted by Python; the stall of every CPU has a NULL
#   task, not 0 and ''.  Text with control bytes loads the same from both formats.
# * the wall clock (wallclock-v7-zstd.dat's marker and first event, samples/tracedat/README.md)
#   and the days the rows are filed under; LowCardinality for host, comm, verdict.
# * the host whose worst wait lay in a stall: cyclictest-stress-v7-zstd.dat's worst wait,
#   cyclictest/20718 5714613 ns on CPU0, overlaps the stall of CPU0 450.844464766 ..
#   450.849989769 by 5525003 ns (analyze gives it the verdict "stall" with stall_ns
#   5525003); the other hosts' worst waits overlap no stall.
# * loading twice: skipped, the counts unchanged.  Reloaded twice (forced, once with -t 1ms)
#   plus a load cut before its traces row: every answer (the four queries; count, maximum,
#   p50..p99.9 per host and overall) unchanged; -t 1ms's 30 verdicts; the older loads
#   deleted.  Reloaded under another host label: the trace moves, the overall answers stay.
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
gamma="$td/probe-stop-v7-zstd.dat $td/record-stacks-v7-zstd.dat $td/quiet-shared-v7-zstd.dat
	$td/wallclock-v7-zstd.dat"

# --- load, and the same traces merged ----------------------------------------------------
for h in alpha beta gamma; do
	eval "files=\$$h"
	# shellcheck disable=SC2086
	load -H "$h" $files >"$dir/load-$h.out" 2>&1
	check "load $h: exit 0" '[ $? -eq 0 ]'
	# shellcheck disable=SC2086
	"$bin" analyze --json --mergeable --host "$h" $files >"$dir/$h.json" 2>/dev/null
done
check "loaded 7 traces" '[ "$(cat "$dir"/load-*.out | grep -c ": loaded ")" -eq 7 ]'
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
ch_q "$tcp" -q "SELECT host, countIf(verdict IS NOT NULL), countIf(pid IS NOT NULL) > 0 FROM $W
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

# --- unknown values load as NULL; CSV and JSON Lines load the same ------------------------------
# beta's stall of every CPU (no task), ftrace text (no host, no pid), the wall clock sample, and
# text with a TAB, DEL, a backslash, a byte that is not UTF-8, a comma and a quote
ctl="$dir/ctl.txt"
printf '%s\n' '# tracer: nop' '#' \
 "          <idle>-0       [001] d.h2.   100.000100: sched_waking: comm=a$(printf '\t')b$(printf '\177')c\\d$(printf '\351'),\"e pid=700 prio=120 target_cpu=001" \
 "          <idle>-0       [001] d..2.   100.000300: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a$(printf '\t')b$(printf '\177')c\\d$(printf '\351'),\"e next_pid=700 next_prio=120" \
	>"$ctl"
nt="$beta $repo/samples/ftrace-text/kernel-trace.txt $td/wallclock-v7-zstd.dat $ctl"
for fmt in csv jsonl; do
	# shellcheck disable=SC2086
	"$bin" export --rows traces,waits,samples,stalls --format $fmt -o "$dir/nt-$fmt" $nt \
		2>/dev/null
done
for k in traces waits samples stalls; do
	for fmt in csv jsonl; do
		f=$(if [ $fmt = csv ]; then echo CSVWithNames; else echo JSONEachRow; fi)
		ch_q "$tcp" -n -q "CREATE TABLE latscope_stage.nt_${k}_$fmt AS latscope_stage.${k}_tpl;
			INSERT INTO latscope_stage.nt_${k}_$fmt FORMAT $f" <"$dir/nt-$fmt/$k.$fmt"
		ch_q "$tcp" -q "SELECT * FROM latscope_stage.nt_${k}_$fmt" | sort >"$dir/nt-$k.$fmt.tsv"
	done
	check "$k: the CSV loads what the JSON Lines load" \
		'cmp -s "$dir/nt-$k.csv.tsv" "$dir/nt-$k.jsonl.tsv" && [ -s "$dir/nt-$k.csv.tsv" ]'
done
# the NULLs, counted apart from ClickHouse: Python's csv over the file (\N fields; the text rule
# never writes \N in a text)
ch_q "$tcp" -q "SELECT countIf(isNull(pid)), countIf(isNull(host)), countIf(isNull(verdict)),
	countIf(isNull(queued_cpu)), countIf(isNull(waker_tid)), countIf(isNull(wall_ns)),
	countIf(cpu = 0) FROM latscope_stage.nt_waits_csv" >"$dir/nt-nulls.tsv"
python3 - "$dir/nt-csv/waits.csv" >"$dir/nt-nulls.want" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
n = [sum(r[k] == '\\N' for r in rows) for k in
     ('pid', 'host', 'verdict', 'queued_cpu', 'waker_tid', 'wall_ns')]
print('\t'.join(str(x) for x in n + [sum(r['cpu'] == '0' for r in rows)]))
PY
check "waits: unknown pid, host, verdict, queued_cpu, waker_tid, wall_ns are NULL" \
	'cmp -s "$dir/nt-nulls.tsv" "$dir/nt-nulls.want" && [ "$(cut -f1 "$dir/nt-nulls.want")" -gt 0 ]'
[ "$fail" -eq 0 ] || { cat "$dir/nt-nulls.tsv" "$dir/nt-nulls.want"; }
# cyclictest-stress' stall of every CPU, 450.845894091 .. 450.849989769 (samples/tracedat)
check "stalls: the stall of every CPU has no task: tid and comm NULL, not 0 and ''" \
	'[ "$(ch_q "$tcp" -q "SELECT cpu, from_ns, isNull(tid), isNull(comm), isNull(pid)
		FROM latscope_stage.nt_stalls_csv WHERE cpu = -1")" = "$(printf "%s\t%s\t1\t1\t1" -1 450845894091)" ]'
check "samples: a marker of no probe: probe and lat_ns NULL, its wall clock known" \
	'[ "$(ch_q "$tcp" -q "SELECT isNull(probe), isNull(lat_ns), wall_ns FROM
		latscope_stage.nt_samples_csv WHERE text LIKE '"'"'wall %'"'"'")" = "$(printf "1\t1\t1796403460209891351")" ]'
check "text: the control bytes as \\xNN, a comma and a quote, from both formats" \
	'[ "$(ch_q "$tcp" -q "SELECT DISTINCT comm FROM latscope_stage.nt_waits_jsonl WHERE tid = 700
		FORMAT TSVRaw")" = "a\\x09b\\x7fc\\x5cd\\xe9,\"e" ]'
for k in traces waits samples stalls; do
	ch_q "$tcp" -q "DROP TABLE latscope_stage.nt_${k}_csv"
	ch_q "$tcp" -q "DROP TABLE latscope_stage.nt_${k}_jsonl"
done

# --- the fleet tables: wall clock, days, LowCardinality -----------------------------------
# wallclock-v7-zstd.dat's marker (samples/tracedat/README.md) and first event on the wall clock;
# the traces without the offset are filed under their file's day
check "wall clock: the marker at 2026-12-04 16:57:40 UTC, day 2026-12-04" \
	'[ "$(ch_q "$tcp" -q "SELECT wall_ns, toString(wall, '"'"'UTC'"'"'), day FROM latscope.samples_latest
		WHERE text LIKE '"'"'wall %'"'"'")" = "$(printf "1796403460209891351\t2026-12-04 16:57:40\t2026-12-04")" ]'
check "wall clock: the trace from 2026-12-04 16:57:39 UTC, offset 1796401632693863321" \
	'[ "$(ch_q "$tcp" -q "SELECT toString(wall, '"'"'UTC'"'"'), realtime_offset_ns, realtime_error_ns
		FROM latscope.traces_latest WHERE isNotNull(wall)")" = "$(printf "2026-12-04 16:57:39\t1796401632693863321\t854")" ]'
check "days: every trace without an offset on its file's day" \
	'[ "$(ch_q "$tcp" -q "SELECT countIf(day != toDate(recorded_at)), count() FROM latscope.traces
		WHERE isNull(wall)")" = "$(printf "0\t6")" ]'
check "partitioned by day, comm/host/verdict LowCardinality" \
	'ch_q "$tcp" -q "SHOW CREATE TABLE latscope.waits" | grep -q "PARTITION BY day" &&
	 [ "$(ch_q "$tcp" -q "SELECT toTypeName(host), toTypeName(comm), toTypeName(verdict)
		FROM latscope.waits LIMIT 1")" = "$(printf "LowCardinality(String)\tLowCardinality(String)\tLowCardinality(Nullable(String))")" ]'

# --- the fleet queries ---------------------------------------------------------------------
ch_q "$tcp" -q "$(q_stall)" >"$dir/stall.tsv"
check "worst case in a stall: beta only, cyclictest 5714613 ns, 5525003 ns in the stall" \
	'[ "$(cat "$dir/stall.tsv")" = "$(printf "beta\t5714613\tcyclictest\t5525003\t0.967")" ]'
ch_q "$tcp" -q "$(q_host)" >"$dir/host.tsv"
check "p99/max per host: three hosts, alpha's max first" \
	'[ "$(cut -f1,4 "$dir/host.tsv" | head -1)" = "$(printf "alpha\t347160698")" ] &&
	 [ "$(wc -l <"$dir/host.tsv")" -eq 3 ]'

# --- loaded again: skipped; reloaded: the same answers ----------------------------------------
count() { ch_q "$tcp" -q "SELECT count() FROM $1"; }
counts() { echo "$(count $W) $(count latscope.samples) $(count $S) $(count $T)"; }
before=$(counts)
for h in alpha beta gamma; do
	eval "files=\$$h"
	# shellcheck disable=SC2086
	load -H "$h" $files >>"$dir/again.out" 2>&1
done
check "loaded again: 7 skipped" '[ "$(grep -c "already loaded" "$dir/again.out")" -eq 7 ]'
check "loaded again: the counts unchanged" '[ "$(counts)" = "$before" ]'
# every answer the fleet gives: the four queries and, per host and overall, the count, the
# maximum and the exact p50/p90/p99/p99.9 of the rows that count
answers() {
	ch_q "$tcp" -q "$(q_host)"
	ch_q "$tcp" -q "$(q_comm)"
	ch_q "$tcp" -q "$(q_stall)"
	ch_q "$tcp" -q "$(q_waker)"
	ch_q "$tcp" -q "SELECT host, $stats FROM $W WHERE $ok AND $(loaded) GROUP BY host
		ORDER BY host"
	ch_q "$tcp" -q "SELECT '*', $stats FROM $W WHERE $ok AND $(loaded)"
}
loaded() { eval echo "\"$fleet_loaded\""; }
answers >"$dir/answers.before"
# reloaded twice (forced: the mutation deleting the first is not waited for), the second time
# with -t 1ms; a load cut between its rows and its traces row (the waits of beta copied
# under a later load_id, no traces row)
LATSCOPE_CH_FORCE=1 load -H beta $beta >"$dir/force.out" 2>&1
LATSCOPE_CH_FORCE=1 load -H beta -t 1ms $beta >>"$dir/force.out" 2>&1
check "reloaded twice: both loaded" '[ "$(grep -c ": loaded " "$dir/force.out")" -eq 2 ]'
cols=$(ch_q "$tcp" -q "SELECT arrayStringConcat(groupArray(name), ', ') FROM system.columns
	WHERE database = 'latscope' AND table = 'waits'")
ch_q "$tcp" -q "INSERT INTO $W ($cols) SELECT $(echo "$cols" |
	sed 's/load_id/load_id + 1000000000000 AS cut_id/') FROM $W WHERE host = 'beta' AND
	$(loaded)"
answers >"$dir/answers.after"
check "reloaded twice and a cut load: every answer unchanged" \
	'cmp -s "$dir/answers.before" "$dir/answers.after" && [ -s "$dir/answers.before" ]'
[ "$fail" -eq 0 ] || diff "$dir/answers.before" "$dir/answers.after"
# the latest load's threshold: analyze -t 1ms's verdicts (30 at 1 ms: test_export.sh), the
# 5.71 ms wait of cyclictest a stall
ch_q "$tcp" -q "SELECT (SELECT threshold_ns FROM latscope.traces_latest WHERE host = 'beta'),
	countIf(verdict IS NOT NULL), anyIf(verdict, latency_ns = 5714613)
	FROM latscope.waits_latest WHERE host = 'beta'" >"$dir/t1ms.tsv"
check "-t 1ms: threshold_ns 1000000, 30 verdicts, the 5.71 ms wait a stall" \
	'[ "$(cat "$dir/t1ms.tsv")" = "$(printf "1000000\t30\tstall")" ]'
# the older loads deleted once the mutations are done (the cut load's rows stay: no load
# of that trace finished after it; they do not count)
i=0
while [ "$(ch_q "$tcp" -q "SELECT count() FROM system.mutations WHERE database =
	'latscope' AND NOT is_done")" -gt 0 ] && [ $i -lt 100 ]; do
	sleep 0.2
	i=$((i + 1))
done
n_beta=$(ch_q "$tcp" -q "SELECT count() FROM $W WHERE host = 'beta'")
check "the older loads deleted: beta's waits once, plus the cut load's" \
	'[ "$(counts)" = "$(echo "$before" | awk -v b="$n_beta" "{ print \$1 + b / 2, \$2, \$3, \$4 }")" ]'
# another label: the trace moves to host delta, the overall answers stay; back again
LATSCOPE_CH_FORCE=1 load -H delta "$repo/samples/ftrace-text/kernel-trace.txt" >/dev/null 2>&1
ch_q "$tcp" -q "SELECT host, count() FROM $W WHERE $ok AND $(loaded) GROUP BY host
	ORDER BY host" >"$dir/moved.tsv"
# (18368 + 328 = 18696 for alpha: analyze's counts; beta 2434, gamma 452 + 262 + 1358 + 3512)
check "relabelled: kernel-trace.txt's 328 waits under delta, alpha 328 fewer" \
	'[ "$(cut -f1,2 "$dir/moved.tsv" | tr "\t\n" ":,")" = "alpha:18368,beta:2434,delta:328,gamma:5584," ]'
ch_q "$tcp" -q "SELECT '*', $stats FROM $W WHERE $ok AND $(loaded)" >"$dir/overall.tsv"
check "relabelled: the overall answers unchanged" \
	'[ "$(cat "$dir/overall.tsv")" = "$(grep "^\*" "$dir/answers.before")" ]'
LATSCOPE_CH_FORCE=1 load -H alpha "$repo/samples/ftrace-text/kernel-trace.txt" >/dev/null 2>&1
LATSCOPE_CH_FORCE=1 load -H beta $beta >/dev/null 2>&1
answers >"$dir/answers.back"
check "labelled back: every answer as at first" 'cmp -s "$dir/answers.before" "$dir/answers.back"'

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
