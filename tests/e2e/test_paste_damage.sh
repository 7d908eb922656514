#!/bin/sh
# Paste damage applied to every real old-log sample must not change what is
# read: the JSON report of the damaged copy equals the original's except for
# "path", "repairs" and (for a merged line) line numbers past the merge.
#  - browser no-break spaces: every "  " becomes " U+00A0" (what copying from
#    an HTML page that aligned columns with &nbsp; gives);
#  - quoted-printable: the sample encoded by Python's quopri (RFC 2045, soft
#    breaks at 76 columns), pasted without a mail header (when the encoding
#    left enough escapes to be recognised without one);
#  - a header rule merged with the line after it (ftrace-latency samples);
#  - quoted-printable ftrace text (every samples/ftrace-text/*.txt): the stream
#    reader leaves it to the block path, which decodes it;
#  - lines wrapped at 76 columns, and quoted after, in the samples of today's tools
#    (cyclictest, perf sched, rtla, the kernel's tracers, ftrace text; below).
# usage: test_paste_damage.sh LATSCOPE REPO_DIR
set -eu
bin=$1
repo=$2
tmp=$(mktemp -d /tmp/latscope-paste-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
n=0

# The analysis as JSON without what the damage may change.
norm() {
	"$bin" analyze --json $3 "$1" 2>/dev/null | python3 -c '
import json, re, sys
mode = sys.argv[1]
def strip(o):
    if isinstance(o, str) and mode == "lines":
        return re.sub(r"(lines? )[0-9]+(-[0-9]+)?", r"\1N", o)
    if isinstance(o, dict):
        return {k: strip(v) for k, v in o.items()
                if k not in ("path", "repairs") and not (mode == "lines" and k in
                ("line", "lines", "first_line", "last_line", "max_stall_line", "other_lines"))}
    if isinstance(o, list):
        return [strip(v) for v in o]
    return o
print(json.dumps(strip(json.load(sys.stdin)), indent=1, sort_keys=True))
' "$2"
}

check() {
	orig=$1 damaged=$2 mode=$3 what=$4 kind=${5:-}
	args=""
	[ -f "$orig.args" ] && args=$(cat "$orig.args")
	norm "$orig" "$mode" "$args" >"$tmp/a.json"
	norm "$damaged" "$mode" "$args" >"$tmp/b.json"
	if ! diff -u "$tmp/a.json" "$tmp/b.json" >"$tmp/diff"; then
		echo "FAIL: $what changed the reading of $orig"
		head -30 "$tmp/diff"
		exit 1
	fi
	cmp -s "$orig" "$damaged" && return 0	# nothing to damage
	# a wrap may cut only prose or a comment, which nothing needs to join
	[ "$kind" = wrap ] && { n=$((n + 1)); return 0; }
	"$bin" analyze --json $args "$damaged" 2>/dev/null | grep -q '"repairs"' ||
		{ echo "FAIL: $what in $orig not reported under repairs"; exit 1; }
	n=$((n + 1))
}

for f in "$repo"/samples/lat/*.txt "$repo"/samples/lat2/*.txt "$repo"/samples/lat3/*.txt \
	 "$repo"/samples/histogram/*.txt "$repo"/samples/schedcnt/*.txt \
	 "$repo"/samples/ftrace-latency/*.txt "$repo"/samples/rt-lattrace/*.txt; do
	[ -f "$f" ] || continue
	python3 -c 'import sys; t = open(sys.argv[1], encoding="utf-8", errors="surrogateescape").read()
open(sys.argv[2], "w", encoding="utf-8", errors="surrogateescape").write(t.replace("  ", " \u00a0"))' \
		"$f" "$tmp/nbsp.txt"
	check "$f" "$tmp/nbsp.txt" all "no-break spaces"
	python3 -c 'import quopri, sys; open(sys.argv[2], "wb").write(quopri.encodestring(open(sys.argv[1], "rb").read()))' \
		"$f" "$tmp/qp.txt"
	# only what the documented rule can recognise without a header (docs/formats.md):
	# a soft break and 2 escapes, or 4 escapes and no bare "="
	soft=$(grep -c '=$' "$tmp/qp.txt" || true)
	esc=$(grep -o '=3D\|=20\|=09' "$tmp/qp.txt" | wc -l)
	if { [ "$soft" -ge 1 ] && [ "$esc" -ge 2 ]; } || [ "$esc" -ge 4 ]; then
		check "$f" "$tmp/qp.txt" lines "quoted-printable"
	fi
done
# ftrace text is streamed, raw: an encoded copy must go to the block path, which decodes it
for f in "$repo"/samples/ftrace-text/*.txt; do
	case $f in *-qp.txt) continue ;; esac	# already encoded
	python3 -c 'import quopri, sys; open(sys.argv[2], "wb").write(quopri.encodestring(open(sys.argv[1], "rb").read()))' \
		"$f" "$tmp/qp.txt"
	check "$f" "$tmp/qp.txt" lines "quoted-printable (ftrace text)"
done
for f in "$repo"/samples/ftrace-latency/*.txt; do
	sed '/^# -----/{N;s/\n/ /}' "$f" >"$tmp/merged.txt"
	check "$f" "$tmp/merged.txt" lines "a merged header rule"
done
# Lines a mail client wrapped at a fixed column (`fold -s -w 76`: Thunderbird and
# Gmail wrap at 72-78), the wrapped copy also quoted: the readers' row shapes join
# the pieces (docs/formats.md, "Mail and paste damage").  Left out, each for a reason:
#  - rows wider than any wrap leaves whole, whose pieces no shape can tell complete:
#    a hand-made table of trailers (zang), rtla hist rows of 10 columns and more
#    (osnoise-hist, timerlat-hist), function-tracer lines (rcutorture), events of
#    no modelled layout cut inside their fields (lazy-flags);
#  - samples whose own text is already damaged or quoted, where a second quote or
#    wrap makes lines of two depths no client writes (timerlat-aa-irq-qp, mail-quoted,
#    m68k-quoted, aa-tabs-prev-irq and top-all-nl with their glued lines, the QP copy);
#  - a label the wrap moves away from its table (b20yang, yangjihong: the table reads
#    the same, its title loses the command line), and the 5.17 doc's rows annotated
#    "<--- CPU with spike", and timerlat's "stop tracing hit" line cut inside its words;
#  - perf sched -l's 2009 layout (commit-2009-*): 80-column rows with no row shape yet;
#    the wakeup trace above hwlat-notes-2025-*: its two sched rows are joined back and
#    said so (a `wrapped-lines` note the original has not), the hwlat rows read the same.
for f in "$repo"/samples/cyclictest/*.txt "$repo"/samples/perf-sched/*.txt \
	 "$repo"/samples/rtla/*.txt "$repo"/samples/kernel-tracers/*.txt \
	 "$repo"/samples/ftrace-text/*.txt; do
	case ${f##*/} in
	lkml-2024-zang-*|osnoise-hist.txt|timerlat-hist.txt|lkml-2024-rcutorture-*|\
	lkml-2020-rt-lazy-flags.txt|timerlat-aa-irq-qp-*|mail-quoted-trace.txt|\
	timerlat-lkml-2024-m68k-quoted.txt|timerlat-aa-tabs-prev-irq-lkml.txt|\
	timerlat-top-all-nl-lkml-2024.txt|kernel-trace-qp.txt|blog-2016-b20yang-*|\
	lkml-2024-yangjihong-*|timerlat-top-trace-5.17-doc.txt|timerlat-lkml-2021-stop-tracing.txt|\
	commit-2009-weisbecker-*|hwlat-notes-2025-*)
		continue ;;
	esac
	fold -s -w 76 "$f" >"$tmp/wrapped.txt"
	check "$f" "$tmp/wrapped.txt" lines "a wrap at 76 columns" wrap
	sed 's/^/> /' "$tmp/wrapped.txt" >"$tmp/wrapped-quoted.txt"
	check "$f" "$tmp/wrapped-quoted.txt" lines "a wrap at 76 columns, quoted" wrap
done
# --buffer cannot be applied to an encoded ftrace text (read as pasted text): said, exit 2
st=0
"$bin" analyze --buffer foo "$repo/samples/ftrace-text/kernel-trace-qp.txt" >/dev/null \
	2>"$tmp/err" || st=$?
[ "$st" -eq 2 ] && grep -q 'buffer: this input is encoded' "$tmp/err" ||
	{ echo "FAIL: --buffer on an encoded ftrace text: exit $st"; cat "$tmp/err"; exit 1; }
echo "$n damaged copies read as their originals"
