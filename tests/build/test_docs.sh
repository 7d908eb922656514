#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/build/test_docs.sh LATSCOPE REPO BUILD_DIR
#
# The man pages and completions the build made from the commands' --help (dist/gen_docs.py):
# * one page per command `latscope --help` lists, and latscope(1); each renders with no
#   groff warning; every option of `latscope CMD --help` is in CMD's page; the pages are
#   what the generator makes from this executable now (they cannot drift from it);
# * bash: the completion function, called as bash calls it, completes the commands, a
#   command's options, an option's words (export --rows, analyze --policy) and the readers
#   of `latscope formats` for --format;
# * zsh: the file parses, and an interactive zsh (zpty) completes with it as bash does.
bin=$1
repo=$2
dist=$3/dist
. "$repo/tests/e2e/check.sh"
tmp=$(mktemp -d /tmp/latscope-docs.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT
if [ ! -d "$dist/man1" ]; then
	echo "skip: no $dist/man1 (the build found no python3)"
	exit 77
fi

# --- man pages ---------------------------------------------------------------------------
cmds=$("$bin" --help | sed -n '/^commands:/,/^$/p' | awk 'NF && !/^commands:/ { print $1 }')
check "commands listed" '[ "$(echo $cmds | wc -w)" -ge 8 ]'
for c in "" $cmds; do
	page=$dist/man1/latscope${c:+-$c}.1.gz
	check "man page of latscope $c" '[ -f "$page" ]'
	zcat "$page" | groff -ww -man -Tutf8 -z 2>"$tmp/warn"
	check "latscope $c: groff renders it without a warning" '[ ! -s "$tmp/warn" ]'
	[ -s "$tmp/warn" ] && cat "$tmp/warn"
	MANWIDTH=200 man -l "$page" 2>/dev/null | col -b >"$tmp/page${c:+-$c}"
	[ -n "$c" ] || continue
	cp "$tmp/page-$c" "$tmp/page-cmd"
	"$bin" "$c" --help | grep -o -- '--[a-z][a-z0-9-]*' | sort -u >"$tmp/opts"
	missing=$(while read -r o; do grep -qF -- "$o" "$tmp/page-cmd" || echo "$o"; done <"$tmp/opts")
	check "latscope $c: every option of its --help in the page ($(wc -l <"$tmp/opts"))" \
		'[ -z "$missing" ]'
done
check "latscope(1) names every command's page" \
	'(for c in $cmds; do grep -q "latscope-$c(1)" "$tmp/page" || exit 1; done)'
python3 "$repo/dist/gen_docs.py" "$bin" "$tmp/gen"
check "the pages and completions are what this executable's --help gives" \
	'diff -r "$dist/man1" "$tmp/gen/man1" && diff "$dist/bash-completion/latscope" "$tmp/gen/bash-completion/latscope" && diff "$dist/zsh/_latscope" "$tmp/gen/zsh/_latscope"'

# --- bash --------------------------------------------------------------------------------
# complete WORDS...: what _latscope offers for the last word (bash's COMP_WORDS, COMP_CWORD)
complete_bash() {
	(
		PATH=$(dirname "$bin"):$PATH
		. "$dist/bash-completion/latscope"
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		cd "$tmp" || exit 1
		_latscope latscope "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' '
	)
}
check "bash: latscope ex -> export" '[ "$(complete_bash latscope ex)" = "export " ]'
check "bash: latscope re -> record render report" \
	'[ "$(complete_bash latscope re)" = "record render report " ]'
check "bash: export --rows -> the five tables" \
	'[ "$(complete_bash latscope export --rows "")" = "samples slices stalls traces waits " ]'
check "bash: export -r w -> waits" '[ "$(complete_bash latscope export -r w)" = "waits " ]'
check "bash: analyze --pol -> --policy" '[ "$(complete_bash latscope analyze --pol)" = "--policy " ]'
check "bash: analyze --policy -> rt fair dl" \
	'[ "$(complete_bash latscope analyze --policy "")" = "dl fair rt " ]'
check "bash: analyze -f -> the readers of latscope formats" \
	'[ "$(complete_bash latscope analyze -f "")" = "$("$bin" formats | awk "{ print \$1 }" | sort | tr "\n" " ")" ]'
touch "$tmp/trace-a.dat" "$tmp/trace-b.dat"
check "bash: analyze tr -> the files" \
	'[ "$(complete_bash latscope analyze tr)" = "trace-a.dat trace-b.dat " ]'

# --- zsh ---------------------------------------------------------------------------------
if command -v zsh >/dev/null 2>&1; then
	check "zsh: _latscope parses" 'zsh -n "$dist/zsh/_latscope"'
	# a real interactive zsh (zpty) completing what is typed
	zsh -f "$repo/tests/build/zsh_complete.zsh" "$dist/zsh" "$(dirname "$bin")" \
		"latscope ex" "latscope export --rows " "latscope analyze --pol" \
		"latscope analyze --policy " "latscope export --" >"$tmp/zsh.out" 2>&1
	# section LINE: what the terminal showed after LINE and a TAB
	section() { awk -v l="== $1" '$0 == l { on = 1; next } /^== / { on = 0 } on' "$tmp/zsh.out"; }
	check "zsh: latscope ex -> export" 'section "latscope ex" | grep -q "latscope export $"'
	check "zsh: export --rows -> the five tables, as KIND" \
		'section "latscope export --rows " | grep -q "^\[KIND\]" &&
		 section "latscope export --rows " | grep -q "samples  *slices  *stalls  *traces  *waits"'
	check "zsh: analyze --pol -> --policy" \
		'section "latscope analyze --pol" | grep -q "latscope analyze --policy $"'
	check "zsh: analyze --policy -> dl fair rt" \
		'section "latscope analyze --policy " | grep -q "dl  *fair  *rt"'
	check "zsh: export --: the options with their descriptions, colons and all" \
		'section "latscope export --" | grep -q "^--output  *-- write the rows there instead of stdout (several kinds: the directory,...$"'
	[ "$fail" -eq 0 ] || cat "$tmp/zsh.out"
else
	echo "zsh not installed: its completion not checked (scripts/install-deps.sh installs it)"
fi
[ "$fail" -eq 0 ] && echo "test_docs: all passed"
exit "$((fail > 0))"
