#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `latscope dump --stats`: one row per event type, and one per name of the events latscope
# does not interpret.  kernel-trace-pipe-lost.txt has three such names; their counts were
# taken with grep -c " NAME:" on the sample (155, 28, 26) — they used to be lumped into one
# row named after one of them.  Usage: test_dump_stats.sh BIN REPO
bin=$1
repo=$2
tmp=$(mktemp -d /tmp/latscope-dump-stats.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT
. "$repo/tests/e2e/check.sh"
f=$repo/samples/ftrace-text/kernel-trace-pipe-lost.txt

"$bin" dump --stats "$f" >"$tmp/out" 2>"$tmp/err"
check "dump --stats exit 0" '[ $? -eq 0 ]'
row() { awk -v k="$1" '$1 == k { print $2 }' "$tmp/out"; }
sum_rows() { awk '$1 != "total" { s += $2 } END { print s }' "$tmp/out"; }
dup_rows() { awk '{ print $1 }' "$tmp/out" | sort | uniq -d; }
check "sched_stat_runtime 155" '[ "$(row sched_stat_runtime)" = 155 ]'
check "sched_process_wait 28" '[ "$(row sched_process_wait)" = 28 ]'
check "sched_process_free 26" '[ "$(row sched_process_free)" = 26 ]'
check "switch 110" '[ "$(row switch)" = "$(grep -c " sched_switch:" "$f")" ] && [ "$(row switch)" = 110 ]'
check "one row per name" '[ -z "$(dup_rows)" ]'
check "rows add up to the total" '[ "$(sum_rows)" = "$(row total)" ] && [ "$(row total)" = 450 ]'

[ $fail -eq 0 ] && echo "dump --stats e2e: all passed"
[ $fail -eq 0 ]
