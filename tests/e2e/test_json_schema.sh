#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The JSON Schemas of docs/schema (docs/json.md, docs/merge.md) against what latscope prints:
# `analyze --json` of every sample (with its .args), `analyze --json --mergeable` and
# `merge` outputs; every thread named tid with its pid; and documents broken on purpose (no
# inputs, another version, version 1's "pid" for a thread, a severity not in the contract, a
# trace id that is not a string) refused, so the schemas say something.
# Usage: test_json_schema.sh BIN REPO
bin=$1
repo=$2
. "$repo/tests/e2e/check.sh"
tmp=$(mktemp -d /tmp/latscope-schema.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT
schema=$repo/docs/schema
validate() { python3 "$repo/tests/e2e/json_schema_check.py" "$schema" "$@"; }
validate report /dev/null >/dev/null 2>&1
[ $? -eq 77 ] && { validate report; exit 77; }

cd "$repo/samples" || exit 2
n=0
for exp in $(find . -name '*.expected.json' | sort); do
	input=${exp%.expected.json}
	args=""
	[ -f "$input.args" ] && args=$(cat "$input.args")
	n=$((n + 1))
	# shellcheck disable=SC2086
	"$bin" analyze --json $args "$input" >"$tmp/r$n.json" 2>/dev/null
done
cd "$tmp" || exit 2
validate report r*.json >"$tmp/report.out"
check "analyze --json of the $n samples: all valid" \
	'[ $? -eq 0 ] && [ "$(grep -c "^ok " "$tmp/report.out")" -eq "$n" ] && [ "$n" -ge 80 ]'
grep -v "^ok " "$tmp/report.out" | head -5
# a thread is tid, its process pid (null when unknown), in every object (docs/json.md);
# none of version 1's names for a thread is left
python3 - "$repo/tests/e2e" r*.json >"$tmp/tid.out" <<'PY'
import json, sys
sys.path.insert(0, sys.argv[1])
from json_objects import objects
old = {"waiting_pid", "armed_pid", "bouncing_pids", "pids"}
n = 0
for f in sys.argv[2:]:
    for v in objects(json.load(open(f))):
        if ("tid" in v) != ("pid" in v) or old & set(v):
            print("bad", f, sorted(v)[:8])
        n += "tid" in v
print("objects", n)
PY
check "analyze --json of the samples: every tid with a pid, no version 1 name" \
	'! grep -q "^bad" "$tmp/tid.out" && [ "$(sed -n "s/^objects //p" "$tmp/tid.out")" -gt 2000 ]' ||
	head -3 "$tmp/tid.out"
td=$repo/samples/tracedat
"$bin" analyze --json --mergeable --host a "$td/cyclictest-stress-v7-zstd.dat" \
	"$repo/samples/ftrace-text/kernel-trace.txt" >"$tmp/m1.json" 2>/dev/null
"$bin" analyze --json --mergeable --summary-window 450000000000: \
	"$td/probe-stop-v7-zstd.dat" >"$tmp/m2.json" 2>/dev/null
"$bin" merge "$tmp/m1.json" "$tmp/m2.json" >"$tmp/merged.json" 2>/dev/null
check "analyze --json --mergeable: valid reports" 'validate report m1.json m2.json >/dev/null'
check "merge: a valid merged summary" 'validate summary merged.json >/dev/null'

# broken on purpose
python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
r = json.load(open(d + '/m1.json'))
m = json.load(open(d + '/merged.json'))
def put(name, doc):
    json.dump(doc, open('%s/%s' % (d, name), 'w'))
put('no-inputs.json', {k: v for k, v in r.items() if k != 'inputs'})
put('v3.json', dict(r, version=3))
def v1(v):	# version 1's names under version 2: the thread as "pid"
    if isinstance(v, dict):
        return {("pid" if k == "tid" else k): v1(x) for k, x in v.items() if k != "pid"}
    return [v1(x) for x in v] if isinstance(v, list) else v
put('v1names.json', v1(r))
r2 = json.loads(json.dumps(r))
r2['inputs'][0]['blocks'][0]['findings'].append({'kind': 'x', 'severity': 'fatal', 'message': ''})
put('severity.json', r2)
m2 = json.loads(json.dumps(m))
m2['summary']['trace_ids'][0]['id'] = 5
put('id.json', m2)
PY
for f in no-inputs v3 v1names severity; do
	check "broken report $f.json: invalid" '! validate report $f.json >/dev/null'
done
check "merged summary with a numeric trace id: invalid" '! validate summary id.json >/dev/null'
[ "$fail" -eq 0 ] && echo "test_json_schema: all passed"
exit "$((fail > 0))"
