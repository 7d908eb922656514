#!/bin/sh
# `latscope render` end to end: PNG and SVG by extension, one numbered chart per
# block, byte-identical reruns, well-formed SVG with a hostile input name, the
# exit status when a chart does not fit, several inputs in one histogram chart, every chart of
# an event trace (and A/B of two traces).  Usage: test_render.sh BIN REPO
bin=$1
repo=$2
tmp=$(mktemp -d /tmp/latscope-render-e2e.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT
. "$repo/tests/e2e/check.sh"
lat3=$repo/samples/lat3/seed000-lat3-vs-shell-loop.txt
mail=$repo/samples/mail/000-tarreau-2.6.11-sched-latency.txt

"$bin" render "$lat3" -o "$tmp/a.png" >"$tmp/out" 2>&1
check "lat3 renders" '[ $? -eq 0 ] && [ -s "$tmp/a.png" ]'
check "PNG magic" '[ "$(head -c 4 "$tmp/a.png" | od -An -c | tr -d " ")" = "211PNG" ]'
check "PNG well under 1 MiB" '[ "$(wc -c <"$tmp/a.png")" -lt 524288 ]'
check "says what it wrote" 'grep -q "a.png: series chart of block 1" "$tmp/out"'

"$bin" render "$mail" -o "$tmp/m.svg" >/dev/null 2>&1
check "mail renders" '[ $? -eq 0 ]'
for k in 1 2 3; do
	check "block $k numbered" '[ -s "$tmp/m-$k.svg" ]'
	check "block $k SVG parses" 'xmllint --noout "$tmp/m-$k.svg"'
done
check "no unnumbered file for several blocks" '[ ! -e "$tmp/m.svg" ]'
"$bin" render "$mail" -o "$tmp/n.svg" >/dev/null 2>&1
check "same input, same bytes" 'cmp -s "$tmp/m-2.svg" "$tmp/n-2.svg"'
"$bin" render "$mail" -o "$tmp/n.png" >/dev/null 2>&1
"$bin" render "$mail" -o "$tmp/o.png" >/dev/null 2>&1
check "PNG reruns identical" 'cmp -s "$tmp/n-3.png" "$tmp/o-3.png"'

# the input's name is in the title: markup in it must not reach the SVG as markup
cp "$lat3" "$tmp/<b>&\"x\".txt"
"$bin" render "$tmp/<b>&\"x\".txt" -o "$tmp/h.svg" >/dev/null 2>&1
check "hostile name renders" '[ $? -eq 0 ]'
check "hostile name SVG parses" 'xmllint --noout "$tmp/h.svg"'

"$bin" render "$lat3" --chart histogram -o "$tmp/x.png" >"$tmp/err" 2>&1
check "chart that does not fit: exit 1" '[ $? -eq 1 ]'
check "and says why" 'grep -q "histogram chart does not fit this block (loop log)" "$tmp/err"'
"$bin" render "$lat3" -o "$tmp/x.jpg" >/dev/null 2>&1
check "unknown extension: exit 2" '[ $? -eq 2 ]'
"$bin" render "$lat3" --size 10x10 -o "$tmp/x.png" >/dev/null 2>&1
check "bad size: exit 2" '[ $? -eq 2 ]'
"$bin" render "$lat3" --window 5ms -o "$tmp/x.png" >/dev/null 2>&1
check "bad window: exit 2" '[ $? -eq 2 ]'
"$bin" render "$tmp/missing.txt" -o "$tmp/x.png" >/dev/null 2>&1
check "missing input: exit 2" '[ $? -eq 2 ]'
"$bin" render "$lat3" --size 800x450 -o "$tmp/s.png" >/dev/null 2>&1
check "--size" '[ "$(od -An -tu1 -j16 -N8 "$tmp/s.png" | tr -s " ")" = " 0 0 3 32 0 0 1 194" ]'

# several inputs: their histograms in one chart
ct=$repo/samples/cyclictest
"$bin" render -o "$tmp/many.svg" "$ct/hist.txt" "$ct/hist-json.txt" "$ct/quiet.txt" >"$tmp/out" 2>&1
check "several inputs: one chart" '[ $? -eq 0 ] && xmllint --noout "$tmp/many.svg"'
check "of the 4 histograms with samples" 'grep -q "chart of 4 histograms from 3 inputs" "$tmp/out"'
"$bin" render "$ct/hist.txt" "$ct/hist-json.txt" >/dev/null 2>&1
check "several inputs without -o: exit 2" '[ $? -eq 2 ]'
"$bin" render -o "$tmp/none.png" "$ct/quiet.txt" "$lat3" >"$tmp/err" 2>&1
check "several inputs, no histogram with samples: exit 1" '[ $? -eq 1 ]'
# --buffer picks the trace.dat instance the chart is of (the top buffer holds 3000 events,
# inst1 662: `latscope dump --stats --buffer inst1`), as for analyze
inst=$repo/samples/tracedat/mixed-inst1-v7-zstd.dat
"$bin" render "$inst" -o "$tmp/top.svg" >/dev/null 2>&1
"$bin" render "$inst" --buffer "" -o "$tmp/top2.svg" >/dev/null 2>&1
check "--buffer \"\" is the top buffer" 'cmp -s "$tmp/top.svg" "$tmp/top2.svg"'
"$bin" render "$inst" --buffer inst1 -o "$tmp/inst1.svg" >/dev/null 2>"$tmp/err"
check "--buffer inst1 renders" '[ $? -eq 0 ] && xmllint --noout "$tmp/inst1.svg"'
check "--buffer inst1 reads inst1" 'grep -q "reading \"inst1\"" "$tmp/err"'
check "--buffer inst1 is another chart" '! cmp -s "$tmp/top.svg" "$tmp/inst1.svg"'
"$bin" render "$inst" --buffer nosuch -o "$tmp/no.svg" >/dev/null 2>"$tmp/err"
check "--buffer nosuch: exit 2" '[ $? -eq 2 ] && [ ! -e "$tmp/no.svg" ]'
check "--buffer nosuch: says which exist" 'grep -q "no buffer \"nosuch\" in this trace.dat; it holds: \"\", \"inst1\"" "$tmp/err"'

# event traces: every chart kind but series, PNG and SVG, byte-identical reruns
td=$repo/samples/tracedat
stacks=$td/record-stacks-v7-zstd.dat
for kind in timeline histogram blame cpus; do
	for ext in png svg; do
		"$bin" render --chart $kind "$stacks" -o "$tmp/ev-$kind.$ext" >"$tmp/out" 2>"$tmp/err"
		check "trace: $kind chart ($ext)" '[ $? -eq 0 ] && [ -s "$tmp/ev-$kind.$ext" ]'
		"$bin" render --chart $kind "$stacks" -o "$tmp/ev2-$kind.$ext" >/dev/null 2>&1
		check "trace: $kind chart ($ext) twice, same bytes" \
			'cmp -s "$tmp/ev-$kind.$ext" "$tmp/ev2-$kind.$ext"'
	done
	check "trace: $kind SVG parses" 'xmllint --noout "$tmp/ev-$kind.svg"'
	check "trace: says it drew a $kind chart" 'grep -q "ev-$kind.png: $kind chart of block 1" \
		"$tmp/out" || grep -q "ev-$kind.svg: $kind chart of block 1" "$tmp/out"'
done
# the probe samples: probe-stop has them (docs/probe.md), the --stacks recording none
"$bin" render --chart probe "$td/probe-stop-v7-zstd.dat" -o "$tmp/probe.svg" >/dev/null 2>&1
check "trace: probe chart" '[ $? -eq 0 ] && xmllint --noout "$tmp/probe.svg"'
"$bin" render --chart probe "$stacks" -o "$tmp/noprobe.png" >/dev/null 2>"$tmp/err"
check "trace without probe samples: exit 1" '[ $? -eq 1 ] && [ ! -e "$tmp/noprobe.png" ]'
check "and says why" 'grep -q "no chart: no probe samples in this trace" "$tmp/err"'
# blame needs --stacks: the cyclictest recording has none
"$bin" render --chart blame "$td/cyclictest-stress-v7-zstd.dat" -o "$tmp/nob.png" >/dev/null \
	2>"$tmp/err"
check "trace without stacks: blame exit 1" '[ $? -eq 1 ] && grep -q "no kernel stacks" "$tmp/err"'
# --policy selects the threads of the histogram, as for analyze
"$bin" render --chart histogram --policy rt "$td/cyclictest-stress-v7-zstd.dat" \
	-o "$tmp/rt.png" >/dev/null 2>&1
check "histogram --policy rt" '[ $? -eq 0 ] && ! cmp -s "$tmp/rt.png" "$tmp/ev-histogram.png"'
# A/B of two traces: one curve per trace
"$bin" render -o "$tmp/ab.svg" "$stacks" "$td/cyclictest-stress-v7-zstd.dat" >"$tmp/out" 2>&1
check "A/B of two traces" '[ $? -eq 0 ] && xmllint --noout "$tmp/ab.svg"'
check "A/B: one histogram per trace" 'grep -q "chart of 2 histograms from 2 inputs" "$tmp/out"'

[ $fail -eq 0 ] && echo "render e2e: all passed"
[ $fail -eq 0 ]
