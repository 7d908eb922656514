#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# report.html in a real browser: headless Chromium (Debian `chromium`) loads the bundle of a
# recording, every image must decode (an onload check added to a copy of the page, read
# back with --dump-dom; a copy with one chart broken must be caught), and its screenshot must
# not be blank (python3 tests/e2e/png_stats.py: distinct colours, non-white share).
# Skipped (exit 77, "skip:") when chromium is not installed (scripts/install-deps.sh has it).
# Usage: test_report_browser.sh BIN REPO
bin=$1
repo=$2
chromium=$(command -v chromium || command -v chromium-browser)
if [ -z "$chromium" ]; then
	echo "skip: chromium is not installed (apt-get install chromium; scripts/install-deps.sh)"
	exit 77
fi
tmp=$(mktemp -d /tmp/latscope-browser-e2e.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT
. "$repo/tests/e2e/check.sh"
cd "$repo" || exit 2
cyc=samples/tracedat/cyclictest-stress-v7-zstd.dat

# chromium ARGS...: headless, its profile in $tmp, no network beyond file://
browse() {
	timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$tmp/profile" --no-first-run --disable-extensions \
		--virtual-time-budget=5000 "$@" 2>>"$tmp/chromium.log"
}

# the page with a check added: how many images there are, and how many decoded
with_check() {
	sed 's|</body>|<script>window.addEventListener("load", function () { var im = document.images, ok = 0; for (var k = 0; k < im.length; k++) if (im[k].complete \&\& im[k].naturalWidth > 0) ok++; var d = document.createElement("div"); d.id = "imgcheck"; d.textContent = "images " + im.length + " decoded " + ok; document.body.appendChild(d); });</script></body>|' "$1"
}

"$bin" report -o "$tmp/b" "$cyc" >/dev/null 2>&1
check "bundle written" '[ $? -eq 0 ] && [ -s "$tmp/b/report.html" ]'
with_check "$tmp/b/report.html" >"$tmp/check.html"
browse --dump-dom "file://$tmp/check.html" >"$tmp/dom.html"
# the 4 cases' timelines, and the charts of the whole trace the render module draws
n=$(ls "$tmp/b/charts" | wc -l)
check "chromium: the $n charts decoded (4 timelines at least)" \
	'[ "$n" -ge 4 ] && grep -q "<div id=\"imgcheck\">images $n decoded $n</div>" "$tmp/dom.html"'
# the check can fail: the second chart's data made invalid
awk '/;base64,/ && ++n == 2 { sub(/;base64,/, ";base64,!!") } 1' "$tmp/check.html" \
	>"$tmp/broken.html"
browse --dump-dom "file://$tmp/broken.html" >"$tmp/dom-broken.html"
check "chromium: a broken chart is caught ($((n - 1)) of $n decoded)" \
	'grep -q "<div id=\"imgcheck\">images $n decoded $((n - 1))</div>" "$tmp/dom-broken.html"'

browse --screenshot="$tmp/shot.png" --window-size=1280,1600 "file://$tmp/b/report.html" \
	>/dev/null
check "chromium: a screenshot" '[ -s "$tmp/shot.png" ]'
read -r w h colours dark <<EOT
$(python3 "$repo/tests/e2e/png_stats.py" "$tmp/shot.png")
EOT
echo "screenshot: ${w}x$h, $colours colours, $dark/1000 not white"
# the first screen holds the tables and the first timeline, drawn in a dozen colours
check "screenshot: 1280x1600" '[ "$w" = 1280 ] && [ "$h" = 1600 ]'
check "screenshot: not blank (>= 50 colours, >= 10% not white)" \
	'[ "$colours" -ge 50 ] && [ "$dark" -ge 100 ]'
# and a blank page fails the same check
printf '<!DOCTYPE html><html><body></body></html>\n' >"$tmp/blank.html"
browse --screenshot="$tmp/blank.png" --window-size=1280,1600 "file://$tmp/blank.html" >/dev/null
read -r w h colours dark <<EOT
$(python3 "$repo/tests/e2e/png_stats.py" "$tmp/blank.png")
EOT
check "screenshot of a blank page: 1 colour, 0 not white" '[ "$colours" -eq 1 ] && [ "$dark" -eq 0 ]'
[ -n "$LATSCOPE_KEEP_SHOT" ] && cp "$tmp/shot.png" "$LATSCOPE_KEEP_SHOT"

[ $fail -eq 0 ] && echo "ok: report in chromium" || { tail -n 20 "$tmp/chromium.log"; exit 1; }
