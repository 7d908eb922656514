#!/bin/sh
# latscope record: bad usage is refused with exit 2 before anything touches tracefs or the
# output file (no root needed).
BIN=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
expect2() {
	"$BIN" record -o "$dir/out.dat" "$@" >/dev/null 2>"$dir/err"
	rc=$?
	if [ $rc -ne 2 ] || [ ! -s "$dir/err" ] || [ -e "$dir/out.dat" ]; then
		echo "FAIL: record $* -> exit $rc, stderr: $(cat "$dir/err")"
		fail=1
	fi
}
expect2 --probe foo
expect2 --probe timer:abc
expect2 --probe timer:1ms:200
expect2 --probe gap:1:2
expect2 -d nonsense
expect2 -d 1s -- true
# -d takes a unit: a bare number would be seconds here, microseconds elsewhere
expect2 -d 1
grep -q "^latscope record: -d 1: give a unit (1s, 1ms): a bare number is microseconds" "$dir/err" ||
	{ echo "FAIL: -d 1: $(cat "$dir/err")"; fail=1; }
expect2 -d 2.5
expect2 --buffer-kb 0
expect2 --stop-above 0
expect2 stray-argument
"$BIN" record --help | grep -q -- "--stop-above" || { echo "FAIL: --help"; fail=1; }
[ $fail -eq 0 ] && echo "record usage: ok"
exit $fail
