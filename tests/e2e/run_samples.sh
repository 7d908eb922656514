#!/bin/sh
# Every samples/**/X.expected.json: `latscope analyze --json X` (plus the
# options in X.args when present) must print exactly that JSON.
# Regenerate after a reviewed change: UPDATE=1 tests/e2e/run_samples.sh BIN samples
bin=$1
dir=$2
fail=0
n=0
cd "$dir" || exit 2
for exp in $(find . -name '*.expected.json' | sort); do
	input=${exp%.expected.json}
	input=${input#./}
	args=""
	[ -f "$input.args" ] && args=$(cat "$input.args")
	n=$((n + 1))
	# shellcheck disable=SC2086
	out=$("$bin" analyze --json $args "$input" 2>/dev/null)
	if [ -n "$UPDATE" ]; then
		printf '%s\n' "$out" >"$exp"
		continue
	fi
	if ! printf '%s\n' "$out" | diff -u "$exp" - >/tmp/latscope-e2e.diff; then
		echo "FAIL: $input"
		head -40 /tmp/latscope-e2e.diff
		fail=$((fail + 1))
	fi
done
echo "$((n - fail)) passed, $fail failed"
[ "$n" -gt 0 ] && [ "$fail" -eq 0 ]
