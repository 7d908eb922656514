#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `latscope report -o DIR`: the bundle's content on a recording whose numbers are checked in
# samples/tracedat/README.md, its charts redrawn byte for byte by the commands it prints, the
# same bundle twice, and the errors (nothing presented as complete after a failure).
# Usage: test_report.sh BIN REPO
bin=$1
repo=$2
tmp=$(mktemp -d /tmp/latscope-report-e2e.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT
. "$repo/tests/e2e/check.sh"
cd "$repo" || exit 2
cyc=samples/tracedat/cyclictest-stress-v7-zstd.dat
out=$tmp/b

"$bin" report -o "$out" "$cyc" >"$tmp/stdout" 2>"$tmp/stderr"
check "bundle: exit 0" '[ $? -eq 0 ]'
# the timelines of the 4 tasks among the 5 worst cases (20718, 20725, 20717, 20715, 20717);
# the charts of the whole trace (histogram, blame, cpus, series) each drawn, said not drawn
# (nothing to draw), or absent when the render module does not draw that chart for a trace
ls "$out/charts" | grep -v "^case-" >"$tmp/others"
nother=$(wc -l <"$tmp/others")
nall=$((4 + nother))
check "bundle: report.md, report.html and 4 timelines" \
	'[ -s "$out/report.md" ] && [ -s "$out/report.html" ] &&
	 [ "$(ls "$out/charts" | grep "^case-" | tr "\n" " ")" = "case-1-timeline.svg case-2-timeline.svg case-3-timeline.svg case-4-timeline.svg " ]'
for kind in histogram blame cpus series; do
	check "bundle: the $kind chart drawn, said not drawn, or absent" \
		'if grep -qx "$kind.svg" "$tmp/others"; then
			grep -q "^!\[.*\](charts/$kind.svg)\$" "$out/report.md"
		 elif grep -q "^  charts/$kind.svg: not drawn: ." "$tmp/stdout"; then
			grep -q ": not drawn: .*(command: latscope render --chart $kind " "$out/report.md"
		 else
			"$bin" render --chart $kind -o "$tmp/$kind.svg" "$cyc" 2>&1 |
				grep -q "no chart: a $kind chart does not fit this block" &&
			! grep -q "charts/$kind.svg" "$out/report.md"
		 fi'
done
check "bundle: stdout says how many charts were drawn" \
	'grep -q "report.html: $nall charts drawn\$" "$tmp/stdout"'
# the summary row: 17559 events, 2434 wakeup waits (2422 + 12 inferred switch-ins, e.g.
# cyclictest/20718 woken in an irq at 450.690464553 on CPU0 under tokio-rt-worker, switched
# out at .690492386 with no switch in recorded), worst 5.71 ms, no lost events, the two
# stalls (samples/tracedat/README.md); the p99 is the analysis' own
check "report.md: summary row" \
	'grep -q "^| $cyc | 17559 | 2434 | [0-9.]* [mu]s | 5.71 ms | cyclictest/20718 | stall | 0 | 2 |\$" "$out/report.md"'
check "report.md: the worst case with its times and verdict" \
	'grep -q "^| 1 | cyclictest/20718 | SCHED\\\\_FIFO 80 | 0 | 450.844462793 | 450.850177406 | 5.71 ms | stall (97%) |" "$out/report.md"'
check "report.md: verdicts of the 5 worst" \
	'grep -q "verdicts of the 5 worst wakeups: cpu-saturated 4, stall 1\$" "$out/report.md"'
# worst cases: 20718, 20725, 20717, 20715, 20717: four tasks, one timeline each
check "report.md: a timeline per task among the worst cases (4), none for case 5" \
	'[ "$(grep -c "^!\[timeline of case" "$out/report.md")" -eq 4 ] &&
	 ! grep -q "case-5-timeline" "$out/report.md"'
# environment: trace-cmd dump --options: UNAME "Linux vm 6.18.44-fc-v1045 #1 SMP
# PREEMPT_DYNAMIC @0 x86_64", CPUCOUNT 2, TRACECLOCK [local]
check "report.md: environment from the trace.dat options" \
	'grep -q "^| host | vm |\$" "$out/report.md" &&
	 grep -q "^| kernel release | 6.18.44-fc-v1045 |\$" "$out/report.md" &&
	 grep -q "^| kernel version string | \\\\#1 SMP PREEMPT\\\\_DYNAMIC @0 |\$" "$out/report.md" &&
	 grep -q "^| preemption model | PREEMPT\\\\_DYNAMIC (none, voluntary, full or lazy" "$out/report.md" &&
	 grep -q "^| machine | x86\\\\_64 |\$" "$out/report.md" &&
	 grep -q "^| CPUs in the trace | 2 |\$" "$out/report.md" &&
	 grep -q "^| trace clock | local |\$" "$out/report.md" &&
	 grep -q "^| recorded by | version=0.1.0 cmdline=\"latscope record -o cyc.dat --irq" "$out/report.md"'
"$bin" analyze "$cyc" >"$tmp/analyze.txt" 2>/dev/null
sed -n '/^## Full report$/,/^## Reproduce$/p' "$out/report.md" | sed '1,/^```$/d; /^```$/,$d' \
	>"$tmp/full.txt"
check "report.md: the full report is latscope analyze's, line for line" \
	'[ -s "$tmp/full.txt" ] && cmp -s "$tmp/full.txt" "$tmp/analyze.txt"'
check "report.html: self-contained (no script, link, iframe, url(), http src)" \
	'! grep -qi "<script\|<link\|<iframe\|url(\|@import" "$out/report.html" &&
	 [ "$(grep -o "src=\"[^\"]*" "$out/report.html" | grep -vc "^src=\"data:image/svg+xml;base64,")" -eq 0 ] &&
	 [ "$(grep -o "<img " "$out/report.html" | wc -l)" -eq $nall ]'
# every chart decoded from the HTML is the file the Markdown shows at that place
grep -o 'src="data:image/svg+xml;base64,[^"]*' "$out/report.html" |
	sed 's/^src="data:image\/svg+xml;base64,//' >"$tmp/b64"
grep -o '^!\[.*\](charts/[^)]*)$' "$out/report.md" | sed 's/.*(//; s/)$//' >"$tmp/mdfiles"
n=0
while read -r b; do
	n=$((n + 1))
	f=$(sed -n "${n}p" "$tmp/mdfiles")
	printf '%s' "$b" | base64 -d >"$tmp/html-$n.svg"
	check "report.html: chart $n is $f" '[ -n "$f" ] && cmp -s "$tmp/html-$n.svg" "$out/$f"'
done <"$tmp/b64"
check "report.html: $nall charts decoded, report.md shows $nall" \
	'[ $n -eq $nall ] && [ "$(wc -l <"$tmp/mdfiles")" -eq $nall ]'
# the commands printed draw the same bytes
mkdir "$tmp/keep" && cp "$out"/charts/*.svg "$tmp/keep/"
grep '^` latscope render .* -o [^ ]*charts/[a-z0-9-]*\.svg ' "$out/report.md" | sort -u |
	sed 's/^` latscope render //; s/ `$//' >"$tmp/cmds"
check "report.md: $nall render commands" '[ "$(wc -l <"$tmp/cmds")" -eq $nall ]'
while read -r args; do
	# shellcheck disable=SC2086
	eval "\"\$bin\" render $args" >/dev/null 2>&1
	check "render $args: exit 0" '[ $? -eq 0 ]'
done <"$tmp/cmds"
# the same bytes: the bundle draws every chart in one process, but latscope numbers the SVG
# ids per document (cairo's own counters are per process: render/svg_ids.c)
for f in "$tmp"/keep/*.svg; do
	check "the command of $(basename "$f") draws the same chart, byte for byte" \
		'cmp -s "$f" "$out/charts/$(basename "$f")"'
done
check "the charts' ids are latscope's (surface1, image1, ...), not cairo's counters" \
	'[ "$(cat "$tmp"/keep/*.svg | grep -o "id=\"surface[0-9]*\"" | sort -u)" = "id=\"surface1\"" ] &&
	 grep -q "id=\"image1\"" "$tmp/keep/case-1-timeline.svg" &&
	 ! grep -q "id=\"glyph[0-9]*-" "$tmp/keep/case-1-timeline.svg"'
# and every reference names an id of its document
for f in "$tmp"/keep/*.svg; do
	check "$(basename "$f"): every #ref and url(#ref) is defined" \
		'grep -o "id=\"[^\"]*\"" "$f" | sed "s/^id=\"//; s/\"\$//" | sort -u >"$tmp/ids" &&
		 grep -oE "(href=\"#|url\\(#)[A-Za-z0-9_-]+" "$f" | sed -E "s/^(href=\"#|url\\(#)//" |
		 sort -u >"$tmp/refs" && [ -s "$tmp/ids" ] && [ -z "$(comm -13 "$tmp/ids" "$tmp/refs")" ]'
done
# deterministic: the same bundle again
cp "$out/report.md" "$out/report.html" "$tmp/keep/"
"$bin" report -o "$out" "$cyc" >/dev/null 2>&1
check "a second run: the same report.md and report.html" \
	'cmp -s "$out/report.md" "$tmp/keep/report.md" && cmp -s "$out/report.html" "$tmp/keep/report.html"'

# the steps' times on stderr, in no file; one analysis for the text and all the charts (the 4
# timelines and the trace's charts), under --task COMM too (the worst of cyclictest are 20718,
# then 20717 four times: report.md's table; neither had another name)
check "stderr: each step's time, no pass besides the report's own for the $nall charts" \
	'grep -q "^latscope report: time: read [0-9.]* ms\$" "$tmp/stderr" &&
	 grep -q "^latscope report: time: analyze [0-9.]* ms\$" "$tmp/stderr" &&
	 ! grep -q "own analysis" "$tmp/stderr" &&
	 [ "$(grep -c "^latscope report: time: draw charts/[a-z0-9-]*\.svg [0-9.]* ms\$" "$tmp/stderr")" -eq $nall ] &&
	 grep -q "^latscope report: time: write [0-9.]* ms\$" "$tmp/stderr" &&
	 grep -q "^latscope report: time: total [0-9.]* ms\$" "$tmp/stderr" &&
	 ! grep -rq "time: " "$out"'
"$bin" report --task cyclictest -o "$tmp/c" "$cyc" >/dev/null 2>"$tmp/c.err"
check "--task cyclictest: exit 0, no pass besides the report's own" \
	'[ $? -eq 0 ] && ! grep -q "own analysis" "$tmp/c.err" &&
	 [ "$(grep -c "^| [0-9] | cyclictest/20717 |" "$tmp/c/report.md")" -eq 4 ] &&
	 [ "$(ls "$tmp/c/charts" | grep -c "^case-")" -eq 2 ]'
"$bin" report --task 20718 -o "$tmp/p" "$cyc" >/dev/null 2>"$tmp/p.err"
check "--task 20718: exit 0, no pass besides the report's own" \
	'[ $? -eq 0 ] && grep -q "^latscope report: time: analyze [0-9.]* ms\$" "$tmp/p.err" &&
	 ! grep -q "own analysis" "$tmp/p.err"'

# A task renamed: under --task victim the case of 200 is its 1 ms wait as victim, but
# `render --task 200` (its timeline's command) draws 200's worst, the 50 ms wait it had as
# "old" (1.000100 .. 1.050100), which this pass did not select: that one timeline gets a pass
# of its own; 400 (always victim, 5 ms, case 1) is drawn from the report's.  With the old
# wait 0.5 ms (1.000100 .. 1.000600) the case is 200's worst: no pass of its own.  Either
# way each timeline is the bytes of its command.
for old_end in 1.050100 1.000600; do
	awk -v e="$old_end" 'BEGIN {
		print "# tracer: nop"
		f = "%16s-%-6d [%03d] d..2. %12.6f: %s\n"
		sw = "sched_switch: prev_comm=%s prev_pid=%d prev_prio=120 prev_state=%s ==> next_comm=%s next_pid=%d next_prio=120"
		printf f, "hog", 100, 0, 1.0, sprintf(sw, "swapper/0", 0, "R", "hog", 100)
		printf f, "waker", 300, 1, 1.0, sprintf(sw, "swapper/1", 0, "R", "waker", 300)
		printf f, "waker", 300, 1, 1.0001, "sched_waking: comm=old pid=200 prio=120 target_cpu=000"
		printf f, "hog", 100, 0, e, sprintf(sw, "hog", 100, "R", "old", 200)
		printf f, "old", 200, 0, e + 0.0009, sprintf(sw, "old", 200, "S", "hog", 100)
		printf f, "waker", 300, 1, 1.1, "sched_waking: comm=victim pid=200 prio=120 target_cpu=000"
		printf f, "hog", 100, 0, 1.101, sprintf(sw, "hog", 100, "R", "victim", 200)
		printf f, "victim", 200, 0, 1.102, sprintf(sw, "victim", 200, "S", "hog", 100)
		printf f, "waker", 300, 1, 1.2, "sched_waking: comm=victim pid=400 prio=120 target_cpu=000"
		printf f, "hog", 100, 0, 1.205, sprintf(sw, "hog", 100, "R", "victim", 400)
		printf f, "victim", 400, 0, 1.206, sprintf(sw, "victim", 400, "S", "hog", 100)
		for (i = 0; i < 20; i++)
			printf f, "waker", 300, 1, 1.3 + i * 0.01, "tracing_mark_write: tick " i
		printf f, "hog", 100, 0, 1.6, sprintf(sw, "hog", 100, "R", "swapper/0", 0)
	}' >"$tmp/renamed.txt"
	rm -rf "$tmp/rn"
	"$bin" report --task victim -o "$tmp/rn" "$tmp/renamed.txt" >/dev/null 2>"$tmp/rn.err"
	check "renamed, old wait ending at $old_end: exit 0, cases 400 then 200" \
		'[ $? -eq 0 ] && grep -q "^| 1 | victim/400 |" "$tmp/rn/report.md" &&
		 grep -q "^| 2 | victim/200 |" "$tmp/rn/report.md"'
	if [ "$old_end" = 1.050100 ]; then
		check "renamed: the timeline of 200 from a pass of its own, the only one" \
			'grep -q "^latscope report: time: timelines. own analysis [0-9.]* ms (1 pass)\$" "$tmp/rn.err"'
	else
		check "renamed, its worst as victim: no pass besides the report's own" \
			'! grep -q "own analysis" "$tmp/rn.err"'
	fi
	for c in 1:400 2:200; do
		"$bin" render --chart timeline --task "${c#*:}" --worst 5 --size 1200x675 \
			-o "$tmp/case.svg" "$tmp/renamed.txt" >/dev/null 2>&1
		check "renamed, old wait ending at $old_end: case ${c%:*}'s timeline is its command's" \
			'cmp -s "$tmp/case.svg" "$tmp/rn/charts/case-${c%:*}-timeline.svg"'
	done
done

# One analysis explains and draws: with timelines the analysis keeps 16384 markers, the text
# report's case must still name what `latscope analyze` (256 kept) names.  victim/200 waits
# 1.000100 .. 1.010000 on CPU0 while CPU1 writes 300 markers (mark 0 .. 299, 20 us apart):
# of the last 256 (mark 44 .. 299) the case names the first 8 (44 .. 51), 248 more.
awk 'BEGIN {
	print "# tracer: nop"
	f = "%16s-%-6d [%03d] d..2. %12.6f: %s\n"
	printf f, "hog", 100, 0, 1.0, "sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=hog next_pid=100 next_prio=120"
	printf f, "waker", 300, 1, 1.0001, "sched_waking: comm=victim pid=200 prio=120 target_cpu=000"
	for (i = 0; i < 300; i++)
		printf f, "marker", 300, 1, 1.0002 + i * 0.00002, "tracing_mark_write: mark " i
	printf f, "hog", 100, 0, 1.01, "sched_switch: prev_comm=hog prev_pid=100 prev_prio=120 prev_state=R ==> next_comm=victim next_pid=200 next_prio=120"
	printf f, "victim", 200, 0, 1.011, "sched_switch: prev_comm=victim prev_pid=200 prev_prio=120 prev_state=S ==> next_comm=hog next_pid=100 next_prio=120"
}' >"$tmp/marks.txt"
"$bin" analyze "$tmp/marks.txt" >"$tmp/marks.analyze" 2>/dev/null
"$bin" report -o "$tmp/mk" "$tmp/marks.txt" >/dev/null 2>&1
sed -n '/^## Full report$/,/^## Reproduce$/p' "$tmp/mk/report.md" | sed '1,/^```$/d; /^```$/,$d' \
	>"$tmp/marks.full"
check "300 markers in a wait: the report's case names the markers analyze names" \
	'grep -q "^     marker on CPU1 at 1.001080000: mark 44;\$" "$tmp/marks.analyze" &&
	 grep -q "^     248 more markers" "$tmp/marks.analyze" &&
	 cmp -s "$tmp/marks.full" "$tmp/marks.analyze"'

# --fail-above: the bundle is written, exit 3, the gate in the full report
"$bin" report --fail-above 5ms -o "$tmp/g" "$cyc" >/dev/null 2>&1
check "--fail-above 5ms: exit 3, bundle written with the gate" \
	'[ $? -eq 3 ] && [ -s "$tmp/g/report.html" ] &&
	 grep -q "^== gate: --fail-above 5 ms (5000000 ns): FAILED ==\$" "$tmp/g/report.md"'
"$bin" report --fail-above 6ms -o "$tmp/g" "$cyc" >/dev/null 2>&1
check "--fail-above 6ms: exit 0" '[ $? -eq 0 ]'

# a log, not a trace: its chart (a histogram) and the command that draws it
"$bin" report -o "$tmp/h" samples/cyclictest/hist.txt >/dev/null 2>"$tmp/h.err"
want="latscope render --worst 5 --size 1200x675 -o $tmp/h/charts/chart.svg samples/cyclictest/hist.txt"
check "cyclictest -h log: exit 0, one chart" \
	'[ $? -eq 0 ] && [ -s "$tmp/h/charts/chart.svg" ] && grep -qxF "\` $want \`" "$tmp/h/report.md"'
"$bin" render --worst 5 --size 1200x675 -o "$tmp/h.svg" samples/cyclictest/hist.txt >/dev/null
check "cyclictest -h log: render draws the same chart, byte for byte" \
	'cmp -s "$tmp/h.svg" "$tmp/h/charts/chart.svg"'

# names from the input are text, never markup: a trace file named like HTML
mkdir "$tmp/n" && cp "$cyc" "$tmp/n/<b>x&y'z.dat"
(cd "$tmp/n" && "$bin" report -o bundle "<b>x&y'z.dat" >/dev/null 2>&1)
check "a file named <b>x&y'z.dat: escaped in HTML and Markdown, quoted in commands" \
	'[ -s "$tmp/n/bundle/report.html" ] && ! grep -q "<b>" "$tmp/n/bundle/report.html" &&
	 grep -q "inputs: &lt;b&gt;x&amp;y.z.dat\.</p>" "$tmp/n/bundle/report.html" &&
	 grep -q "^latscope 0.1.0; inputs: \\\\<b\\\\>x&y.z.dat\.\$" "$tmp/n/bundle/report.md" &&
	 grep -q "charts/case-1-timeline.svg .&lt;b&gt;x&amp;y.\\\\..z.dat.</code>" "$tmp/n/bundle/report.html"'

# errors: nothing written, or no report presented as complete
"$bin" report -o "$tmp/m" "$tmp/missing.dat" >/dev/null 2>"$tmp/err"
check "missing input: exit 2, says so, DIR not made" \
	'[ $? -eq 2 ] && grep -q "missing.dat: error:" "$tmp/err" &&
	 grep -q "^latscope report: 1 of 1 inputs could not be read: no bundle written\$" "$tmp/err" &&
	 [ ! -e "$tmp/m" ]'
head -c 3000 /dev/urandom >"$tmp/junk.dat"
"$bin" report -o "$tmp/m" "$cyc" "$tmp/junk.dat" >/dev/null 2>"$tmp/err"
check "an unreadable input beside a good one: exit 2, nothing written" \
	'[ $? -eq 2 ] && [ ! -e "$tmp/m" ]'
: >"$tmp/file"
"$bin" report -o "$tmp/file" "$cyc" >/dev/null 2>"$tmp/err"
check "DIR is a file: exit 1, clear message" \
	'[ $? -eq 1 ] && grep -q "^latscope report: $tmp/file: Not a directory: no bundle written\$" "$tmp/err"'
"$bin" report -o "$tmp/file/sub" "$cyc" >/dev/null 2>"$tmp/err"
check "DIR under a file: exit 1" \
	'[ $? -eq 1 ] && grep -q "^latscope report: $tmp/file/sub: Not a directory: no bundle written\$" "$tmp/err"'
# an old bundle whose charts/ cannot be made: its reports are removed, not left as complete
mkdir "$tmp/old" && echo old >"$tmp/old/report.md" && echo old >"$tmp/old/report.html" &&
	: >"$tmp/old/charts"
"$bin" report -o "$tmp/old" "$cyc" >/dev/null 2>"$tmp/err"
check "charts/ is a file: exit 1, the old reports gone, no temporary left" \
	'[ $? -eq 1 ] && grep -q "^latscope report: $tmp/old/charts: Not a directory: no bundle written\$" "$tmp/err" &&
	 [ ! -e "$tmp/old/report.md" ] && [ ! -e "$tmp/old/report.html" ] &&
	 [ -z "$(ls -A "$tmp/old" | grep -v "^charts\$")" ]'
if [ "$(id -u)" != 0 ]; then
	mkdir "$tmp/ro" && chmod 555 "$tmp/ro"
	"$bin" report -o "$tmp/ro" "$cyc" >/dev/null 2>"$tmp/err"
	check "read-only DIR: exit 1" \
		'[ $? -eq 1 ] && grep -q "Permission denied: no bundle written" "$tmp/err"'
fi
"$bin" report "$cyc" >/dev/null 2>"$tmp/err"
check "no -o: exit 2" '[ $? -eq 2 ] && grep -q "the bundle.s directory is required" "$tmp/err"'
"$bin" report -o "$tmp/s" - <"$cyc" >/dev/null 2>"$tmp/err"
check "stdin: exit 2" '[ $? -eq 2 ] && grep -q "give a file, not - (stdin)" "$tmp/err" && [ ! -e "$tmp/s" ]'
"$bin" report --size 10x10 -o "$tmp/s" "$cyc" >/dev/null 2>"$tmp/err"
check "--size 10x10: exit 2" '[ $? -eq 2 ] && grep -q "^latscope report: --size: expected WxH" "$tmp/err"'
LATSCOPE_RENDER_MODULE=$tmp/none.so "$bin" report -o "$tmp/nm" "$cyc" >/dev/null 2>"$tmp/err"
check "no render module: exit 1, nothing written" \
	'[ $? -eq 1 ] && grep -q "charts need" "$tmp/err" && [ ! -e "$tmp/nm" ]'

[ $fail -eq 0 ] && echo "ok: report" || exit 1
