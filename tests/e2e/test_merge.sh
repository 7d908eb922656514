#!/bin/sh
# `latscope analyze --json --mergeable` and `latscope merge` (docs/merge.md).
# Usage: test_merge.sh BIN REPO
#
# 1. One trace summarized whole and in three time windows (--summary-window,
#    cut by the wait's end) merged back: every count, sum, extreme, bucket and
#    worst wait identical.
# 2. Against a reading apart from the summary: the rows of `export --rows
#    waits` (whose rows are checked against an awk reading of the ftrace text in
#    test_export.sh), sorted by sort(1): the same count and maximum, and every
#    percentile within the histogram's stated error (1/256) of the exact
#    nearest-rank value.
# 3. Hand-counted: kernel-trace-pipe-lost.txt has 49 wakeup waits, 22 trusted
#    preemption waits, 2 across its LOST gap (test_export.sh, samples/README.md).
# 4. Hosts: two traces labelled alpha, another beta; merge of merges.
# 5. Refused: another schema version, malformed JSON, a bucket count that does
#    not add up, a report without summary; nothing written then.
# 6. Each trace once: a report merged twice, a trace twice in one report, a
#    merge and one of its reports, overlapping windows, reports without ids.
bin=$1
repo=$2
tmp=$(mktemp -d /tmp/latscope-merge-e2e.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT
. "$repo/tests/e2e/check.sh"
fixture=${LAT_FIXTURE_V7:-$repo/tests/fixtures/tracecmd-mixed.dat}
lost=$repo/samples/ftrace-text/kernel-trace-pipe-lost.txt
vals() { python3 "$repo/tests/e2e/merge_values.py" "$@" >"$tmp/vals"; }
val() { awk -v k="$1" '$1 == k { $1 = ""; sub(/^ /, ""); print; exit }' "$tmp/vals"; }

# --- 1. whole vs. windows ---------------------------------------------------------------
"$bin" analyze --json --mergeable "$fixture" >"$tmp/whole.json"
check "whole: exit 0" '[ $? -eq 0 ]'
vals whole="$tmp/whole.json"
first=$(val first_ns)
last=$(val last_ns)
check "whole: the summary's statistics are analyze's wakeup.all" '[ "$(val whole_is_analyze_all)" = true ]'
span=$((last - first))
c1=$((first + span / 3))
c2=$((first + 2 * span / 3))
"$bin" analyze --json --mergeable --summary-window "0:$c1" "$fixture" >"$tmp/p1.json" &&
"$bin" analyze --json --mergeable --summary-window "$c1:$c2" "$fixture" >"$tmp/p2.json" &&
"$bin" analyze --json --mergeable --summary-window "$c2:" "$fixture" >"$tmp/p3.json"
check "windows: exit 0" '[ $? -eq 0 ]'
"$bin" merge "$tmp/p1.json" "$tmp/p2.json" "$tmp/p3.json" >"$tmp/parts.json"
check "merge of the windows: exit 0" '[ $? -eq 0 ]'
"$bin" merge "$tmp/whole.json" >"$tmp/whole-m.json"

# --- 2. against the exported rows, sorted apart -----------------------------------------
"$bin" export --rows waits "$fixture" 2>/dev/null | tr -d '\r' |
	awk -F, 'NR > 1 && $15 == 1 && $12 != "preempt" { print $11 }' | sort -n >"$tmp/lat.txt"
n=$(wc -l <"$tmp/lat.txt")

# --- 3. hand-counted ---------------------------------------------------------------------
"$bin" analyze --json --mergeable "$lost" >"$tmp/lost.json"

# --- 4. hosts, merge of merges -----------------------------------------------------------
"$bin" analyze --json --mergeable --host alpha "$fixture" "$lost" >"$tmp/a.json"
ktrace=$repo/samples/ftrace-text/kernel-trace.txt
"$bin" analyze --json --mergeable --host beta "$ktrace" >"$tmp/b.json"
"$bin" merge "$tmp/a.json" "$tmp/b.json" >"$tmp/ab.json"
"$bin" merge "$tmp/a.json" >"$tmp/a-m.json" && "$bin" merge "$tmp/b.json" >"$tmp/b-m.json" &&
	"$bin" merge "$tmp/a-m.json" "$tmp/b-m.json" >"$tmp/ab2.json"

vals parts="$tmp/parts.json" whole_m="$tmp/whole-m.json" p2="$tmp/p2.json" \
	lost="$tmp/lost.json" ab="$tmp/ab.json" ab2="$tmp/ab2.json"
for k in all comms cpus worst; do
	check "windows merged = whole: $k" '[ "$(val parts.$k)" = "$(val whole_m.$k)" ]'
done
check "the middle window holds part of the waits" \
	'[ "$(val p2.count)" -gt 0 ] && [ "$(val p2.count)" -lt 18368 ]'
check "rows: 18368 trusted wakeup and new-task waits (as analyze's wakeup.waits; 7 inferred switch-ins, none on CPU1 once its events are incomplete, docs/wakeup.md)" \
	'[ "$n" -eq 18368 ]'
check "merged count = rows" '[ "$(val parts.all.count)" -eq "$n" ]'
check "merged max = the largest row" '[ "$(val parts.all.max_ns)" -eq "$(tail -1 "$tmp/lat.txt")" ]'
check "merged sum = the rows' sum" \
	'[ "$(val parts.all.sum_ns)" = "$(awk "{ s += \$1 } END { printf \"%.0f\", s }" "$tmp/lat.txt")" ]'
for p in 50:p50_ns 90:p90_ns 99:p99_ns 99.9:p999_ns; do
	q=${p%%:*}
	key=${p#*:}
	# nearest rank: the ceil(q% of n)-th smallest
	k=$(awk -v q="$q" -v n="$n" 'BEGIN { r = q * n / 100; k = int(r); if (k < r) k++;
		if (k < 1) k = 1; print k }')
	exact=$(sed -n "${k}p" "$tmp/lat.txt")
	got=$(val "parts.all.$key")
	check "merged $key $got within 1/256 of the exact $exact" \
		'[ "$(awk -v a="$got" -v b="$exact" "BEGIN { d = a - b; if (d < 0) d = -d; print (d <= b / 256 + 1) }")" = 1 ]'
done
check "pipe-lost: 49 waits, 22 preemption, 2 untrusted, max 2042000, no host" \
	'[ "$(val lost.line)" = "49 22 2 2042000 None" ]'
# 328: kernel-trace.txt's trusted wakeup and new waits (analyze's wakeup.waits, test_fleet.sh)
check "hosts: alpha 2 traces 18417 waits (18368 + 49), beta 1 trace 328" \
	'[ "$(val ab.hostline)" = "alpha/2/18417 beta/1/328" ]'
check "hosts: overall 18745" '[ "$(val ab.all.count)" -eq 18745 ]'
check "hosts: the worst wait names its trace and host" \
	'[ "$(val ab.worst0)" = "347160698 alpha True" ]'
for k in all comms cpus worst hosts; do
	check "merge of merges = one merge: $k" '[ "$(val ab2.$k)" = "$(val ab.$k)" ]'
done

# --- 5. refused --------------------------------------------------------------------------
sed 's/"version": 1,/"version": 2,/' "$tmp/whole.json" >"$tmp/v2.json"
"$bin" merge "$tmp/a.json" "$tmp/v2.json" >"$tmp/out" 2>"$tmp/err"
check "version 2: exit 2" '[ $? -eq 2 ]'
check "version 2: nothing written" '[ ! -s "$tmp/out" ]'
check "version 2: says so" 'grep -q "v2.json:[0-9]*: expected a summary of version 1, got version 2" "$tmp/err"'
head -c 5000 "$tmp/whole.json" >"$tmp/cut.json"
"$bin" merge "$tmp/cut.json" >"$tmp/out" 2>"$tmp/err"
check "cut JSON: exit 2, nothing written" '[ $? -eq 2 ] && [ ! -s "$tmp/out" ]'
check "cut JSON: file:line: expected" 'grep -q "cut.json:[0-9]*: expected" "$tmp/err"'
python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
d['inputs'][0]['summary']['hosts'][0]['cpus'][0]['buckets'][0][1] += 1
json.dump(d, open(sys.argv[2], 'w'))" "$tmp/whole.json" "$tmp/badcount.json"
"$bin" merge "$tmp/badcount.json" >"$tmp/out" 2>"$tmp/err"
check "bucket counts off by one: refused" '[ $? -eq 2 ] && [ ! -s "$tmp/out" ] &&
	grep -q "expected buckets whose counts add up to" "$tmp/err"'
"$bin" analyze --json "$fixture" >"$tmp/plain.json"
"$bin" merge "$tmp/plain.json" >"$tmp/out" 2>"$tmp/err"
check "no summary: refused" '[ $? -eq 2 ] && grep -q "no mergeable summary" "$tmp/err"'
"$bin" analyze --mergeable "$fixture" >/dev/null 2>"$tmp/err"
check "--mergeable without --json: usage error" '[ $? -eq 2 ] && grep -q "with --json" "$tmp/err"'
"$bin" analyze --json --mergeable --summary-window 5:3 "$fixture" >/dev/null 2>"$tmp/err"
check "--summary-window 5:3: usage error" '[ $? -eq 2 ] && grep -q "expected FROM:TO" "$tmp/err"'

# --- 6. each trace once -------------------------------------------------------------------
# the summary without "reports" (which counts the files given); its overall count
summary() { python3 -c 'import json, sys; print(json.dumps(json.load(open(sys.argv[1]))["summary"]))' "$1"; }
total() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["summary"]["all"]["count"])' "$1"; }
"$bin" merge "$tmp/a.json" "$tmp/a.json" >"$tmp/aa.json" 2>"$tmp/aa.err"
check "a report twice: exit 0, the second skipped, saying which trace and from where" \
	'[ $? -eq 0 ] && [ "$(grep -c "a.json: warning: trace [0-9a-f]\{16\} (.*) was merged already from $tmp/a.json: counted once, this summary skipped" "$tmp/aa.err")" -eq 2 ]'
check "a report twice: the merge of it once (18417 waits)" \
	'[ "$(summary "$tmp/aa.json")" = "$(summary "$tmp/a-m.json")" ] && [ "$(total "$tmp/aa.json")" -eq 18417 ]'
"$bin" analyze --json --mergeable "$lost" "$lost" >"$tmp/ll.json" 2>/dev/null
"$bin" merge "$tmp/ll.json" >"$tmp/ll-m.json" 2>"$tmp/ll.err"
check "a trace twice in one report: counted once (49 waits)" \
	'[ $? -eq 0 ] && grep -q "counted once" "$tmp/ll.err" && [ "$(total "$tmp/ll-m.json")" -eq 49 ]'
# a merge holds its reports' traces: merging one of them again after it adds nothing
"$bin" merge "$tmp/ab.json" "$tmp/a.json" >"$tmp/ab-a.json" 2>"$tmp/ab-a.err"
check "a merge, then one of its reports: skipped, the merge unchanged" \
	'[ $? -eq 0 ] && [ "$(summary "$tmp/ab-a.json")" = "$(summary "$tmp/ab.json")" ] &&
	 [ "$(grep -c "counted once" "$tmp/ab-a.err")" -eq 2 ]'
# ... but a merge after one of its reports holds that trace with others: refused
"$bin" merge "$tmp/a.json" "$tmp/ab.json" >"$tmp/out" 2>"$tmp/err"
check "a report, then a merge of it with others: refused, nothing written" \
	'[ $? -eq 2 ] && [ ! -s "$tmp/out" ] &&
	 grep -q "ab.json: error: trace [0-9a-f]* (.*) was merged already from $tmp/a.json, and this summary holds other traces too: it cannot be counted once; refused" "$tmp/err"'
# windows: the three that tile the trace merge (1. above); two that overlap do not
"$bin" analyze --json --mergeable --summary-window "$c1:" "$fixture" >"$tmp/p23.json"
"$bin" merge "$tmp/p2.json" "$tmp/p23.json" >"$tmp/out" 2>"$tmp/err"
check "overlapping windows of one trace: refused, both windows named" \
	'[ $? -eq 2 ] && [ ! -s "$tmp/out" ] &&
	 grep -q "p23.json: error: trace [0-9a-f]* (.*, window $c1:) overlaps the part of it merged already from $tmp/p2.json (window $c1:$c2)" "$tmp/err"'
"$bin" merge "$tmp/whole.json" "$tmp/p2.json" >"$tmp/out" 2>"$tmp/err"
check "the whole trace, then a window of it: refused" \
	'[ $? -eq 2 ] && grep -q "overlaps the part of it merged already from .*whole.json (the whole trace)" "$tmp/err"'
# no id: a report read from stdin, or of a latscope before ids; each counted, and said
"$bin" analyze --json --mergeable - <"$lost" >"$tmp/stdin.json" 2>/dev/null
"$bin" merge "$tmp/stdin.json" "$tmp/stdin.json" >"$tmp/ss.json" 2>"$tmp/ss.err"
check "no id (stdin): counted each time (2 x 49), with a warning" \
	'[ $? -eq 0 ] && grep -q "warning: 2 of the 2 traces have no id" "$tmp/ss.err" &&
	 [ "$(total "$tmp/ss.json")" -eq 98 ]'
python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
for i in d['inputs']:
    del i['summary']['trace_ids']
json.dump(d, open(sys.argv[2], 'w'))" "$tmp/a.json" "$tmp/old.json"
"$bin" merge "$tmp/old.json" "$tmp/a.json" >/dev/null 2>"$tmp/old.err"
check "a report without trace_ids (older latscope): merged, with a warning" \
	'[ $? -eq 0 ] && grep -q "warning: 2 of the 4 traces have no id" "$tmp/old.err"'

# --- 7. reports of version 1 (before "tid", docs/json.md) ---------------------------------
# tests/fixtures/report-v1-pipe-lost.json: `analyze --json --mergeable --host v1host` of
# kernel-trace-pipe-lost.txt by latscope at report version 1, kept as users keep theirs
v1=$repo/tests/fixtures/report-v1-pipe-lost.json
check "the kept report is of version 1: its tasks' threads as pid, no tid" \
	'python3 -c "import json, sys; r = json.load(open(sys.argv[1])); t = r[\"inputs\"][0][\"blocks\"][0][\"wakeup\"][\"tasks\"][0]
sys.exit(not (r[\"version\"] == 1 and t[\"pid\"] == 11441 and \"tid\" not in t))" "$v1"'
(cd "$repo" && "$bin" analyze --json --mergeable --host v1host \
	samples/ftrace-text/kernel-trace-pipe-lost.txt) >"$tmp/v2.json"
"$bin" merge "$v1" >"$tmp/m-v1.json" 2>"$tmp/m-v1.err"
check "merge of a version 1 report: exit 0, no warning, 49 waits (3. above)" \
	'[ $? -eq 0 ] && [ ! -s "$tmp/m-v1.err" ] && [ "$(total "$tmp/m-v1.json")" -eq 49 ]'
"$bin" merge "$tmp/v2.json" >"$tmp/m-v2.json" 2>/dev/null
check "... the same merge as of this latscope's report of the trace, byte for byte" \
	'cmp -s "$tmp/m-v1.json" "$tmp/m-v2.json"'
"$bin" merge "$v1" "$tmp/v2.json" >"$tmp/m-12.json" 2>"$tmp/m-12.err"
check "the version 1 and 2 reports of one trace: counted once (49), the second said" \
	'[ $? -eq 0 ] && [ "$(total "$tmp/m-12.json")" -eq 49 ] &&
	 grep -q "v2.json: warning: trace [0-9a-f]* (.*) was merged already from $v1" "$tmp/m-12.err"'

[ "$fail" -eq 0 ] && echo "merge: all checks passed"
exit "$fail"
