#!/bin/sh
# Output safety through the real CLI: task names and titles holding < & " ESC [
# and other control bytes, in crafted ftrace-text and lat inputs, must give
# valid JSON (python3 -m json.tool), text with no raw control byte (shown as
# \xNN; stdout and stderr) and valid SVG (xmllint --noout).
# usage: test_output_safety.sh LATSCOPE REPO_DIR
set -eu
bin=$1
tmp=$(mktemp -d /tmp/latscope-outsafe-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

python3 - "$tmp" <<'PY'
import sys
d = sys.argv[1]
evil = 'a<b&"c\x1b[31mX\x07\x01\x7f'
hdr = ('# tracer: nop\n#\n#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n'
       '#              | |         |   |||||     |         |\n')
rows, t = [], 100.0
for i in range(5):
    rows.append('          <idle>-0       [000] d..2.   %.6f: sched_waking: comm=%s pid=42 '
                'prio=120 target_cpu=000\n' % (t, evil)); t += 0.0001
    rows.append('          <idle>-0       [000] d..2.   %.6f: sched_switch: prev_comm=swapper/0 '
                'prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=%s next_pid=42 '
                'next_prio=120\n' % (t, evil)); t += 0.001
    rows.append('%16s-42      [000] d..2.   %.6f: sched_switch: prev_comm=%s prev_pid=42 '
                'prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 '
                'next_prio=120\n' % (evil, t, evil)); t += 0.01
open(d + '/evil-ftrace.txt', 'w', encoding='latin-1').write(hdr + ''.join(rows))
lat = ['P:-- = process 1 : ./lat %s</title>\x1b]0;pwned\x07, started at 1111993713.241839\n' % evil,
       '\n', 'P      system time           time spent           time spent\n',
       '      tv_sec.tv_usec          in loop             in select()\n', '\n']
for i in range(20):
    lat.append('--  1111993713.%06d,   user=     %d us,   wait=       456 us\n'
               % (241839 + i * 50000, 49421 + (i % 3) * 1000))
open(d + '/evil-lat.txt', 'w', encoding='latin-1').write(''.join(lat))
PY

for f in evil-ftrace.txt evil-lat.txt; do
	in=$tmp/$f
	"$bin" analyze --json "$in" >"$tmp/out.json" 2>"$tmp/err1" || fail "$f: analyze --json"
	python3 -m json.tool "$tmp/out.json" >/dev/null || fail "$f: JSON is not valid"
	grep -q 'a<b&\\"c\\u001b\[31mX' "$tmp/out.json" || fail "$f: task name not in the JSON"
	"$bin" analyze "$in" >"$tmp/out.txt" 2>"$tmp/err2" || fail "$f: analyze"
	grep -q 'a<b&"c\\x1b\[31mX\\x07\\x01\\x7f' "$tmp/out.txt" ||
		fail "$f: task name not shown escaped in the text"
	# no byte below 0x20 but tab and newline, no DEL, in any output
	for o in out.json out.txt err1 err2; do
		if LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$tmp/$o"; then
			fail "$f: raw control byte in $o"
		fi
	done
	"$bin" render -o "$tmp/out.svg" "$in" >/dev/null 2>"$tmp/err3" || fail "$f: render"
	xmllint --noout "$tmp/out.svg" || fail "$f: SVG is not valid XML"
	if LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$tmp/out.svg" "$tmp/err3"; then
		fail "$f: raw control byte in the SVG or its messages"
	fi
	echo "ok: $f (JSON, text, SVG)"
done
