#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Loads traces into the tables of deploy/clickhouse/schema.sql, one trace at a time, each
# whole or not at all (docs/fleet.md).
#
#   load.sh [-p PORT] [-s SERVER] [-H HOST] [-t DUR] [-b LATSCOPE] TRACE...
#       exports each TRACE with `latscope export --rows traces,waits,samples,stalls
#       --format jsonl [--host HOST] [-t DUR]` (one pass) and loads the rows; -t: the
#       waits of at least DUR get a verdict (default 10ms, as analyze)
#   load.sh [-p PORT] [-s SERVER] -d DIR...
#       loads rows exported before: DIR/traces.jsonl (one trace), DIR/waits.jsonl,
#       DIR/samples.jsonl, DIR/stalls.jsonl, and DIR/recorded_at (seconds since the epoch,
#       else the time of traces.jsonl)
#
# Every load has its own load_id; a trace counts through its latest load that finished (its
# traces row is written last), so a trace loaded twice is never counted twice (schema.sql).
# A trace whose traces row is there already is skipped (LATSCOPE_CH_FORCE=1 loads it again:
# then the older loads' rows are deleted once the new one finished).  A file ClickHouse
# cannot parse, a row of another row_schema or of another trace, or row counts that disagree
# with the trace's totals refuse the trace: nothing of it reaches the tables.  Exit status:
# 0 every trace loaded or already there, 1 one was refused, 2 usage.
port=9000
server=127.0.0.1
label=
threshold=
bin=${LATSCOPE:-latscope}
dirs=0
while getopts p:s:H:t:b:d opt; do
	case $opt in
	p) port=$OPTARG ;;
	s) server=$OPTARG ;;
	H) label=$OPTARG ;;
	t) threshold=$OPTARG ;;
	b) bin=$OPTARG ;;
	d) dirs=1 ;;
	*) sed -n '4,13p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { echo "load.sh: no trace" >&2; exit 2; }
if [ "$dirs" = 1 ] && [ -n "$threshold$label" ]; then
	echo "load.sh: -t and -H apply to the export: not with -d (rows exported before)" >&2
	exit 2
fi
ROW_SCHEMA=2
KINDS="traces waits samples stalls"

q() { clickhouse-client --host "$server" --port "$port" "$@"; }

# The wall clock of a row (wall_ns, or NULL) as DateTime, and its partition day: the wall
# clock's, else the trace file's ($1: its time, seconds).
wall_sql() { echo "toDateTime(intDiv(wall_ns, 1000000000))"; }
day_sql() { echo "toDate(ifNull(toDateTime(intDiv(wall_ns, 1000000000)), toDateTime($1)))"; }

# The copies from a staging table to the fleet table, per kind: $1 kind, $2 the staging
# suffix, $3 the file's time, $4 the load_id.
copy_sql() {
	kind=$1 sfx=$2 rec=$3 lid=$4
	case $kind in
	waits) echo "INSERT INTO latscope.waits (trace_id, load_id, host, comm, tid, pid,
		policy, prio, cpu, start_ns, end_ns, latency_ns, kind, waker, verdict, trusted,
		queued_cpu, waker_tid, waker_cpu, waker_ctx, wall, wall_ns, day, row_schema)
		SELECT trace_id, $lid, ifNull(host, ''), comm, tid, pid, policy, prio, cpu,
		start_ns, end_ns, latency_ns, kind, waker, verdict, trusted, queued_cpu,
		waker_tid, waker_cpu, waker_ctx, $(wall_sql), wall_ns, $(day_sql "$rec"),
		row_schema
		FROM latscope_stage.waits_$sfx" ;;
	samples) echo "INSERT INTO latscope.samples (trace_id, load_id, host, probe, cpu,
		ts_ns, tid, pid, comm, lat_ns, text, wall, wall_ns, day, row_schema)
		SELECT trace_id, $lid, ifNull(host, ''), ifNull(probe, ''), cpu, ts_ns, tid, pid,
		comm, lat_ns, text, $(wall_sql), wall_ns, $(day_sql "$rec"), row_schema
		FROM latscope_stage.samples_$sfx" ;;
	stalls) echo "INSERT INTO latscope.stalls (trace_id, load_id, host, cpu, from_ns,
		to_ns, dur_ns, tid, pid, comm, waiting_tid, waiting_comm, wall, wall_ns, day,
		row_schema)
		SELECT trace_id, $lid, ifNull(host, ''), cpu, from_ns, to_ns, dur_ns, tid, pid,
		comm, waiting_tid, waiting_comm, $(wall_sql), wall_ns, $(day_sql "$rec"),
		row_schema
		FROM latscope_stage.stalls_$sfx" ;;
	traces) echo "INSERT INTO latscope.traces (trace_id, load_id, trace, host, kernel,
		uname, preempt, clock, cpus, first_ns, last_ns, events, waits, preempt_waits,
		untrusted, lost_events, stalls, stall_ns, threshold_ns, realtime_offset_ns,
		realtime_error_ns, wall, wall_ns, recorded_at, loaded_at, day, row_schema)
		SELECT trace_id, $lid, trace, ifNull(host, ''), kernel, uname, preempt, clock,
		cpus, first_ns, last_ns, events, waits, preempt_waits, untrusted, lost_events,
		stalls, stall_ns, threshold_ns, realtime_offset_ns, realtime_error_ns,
		$(wall_sql), wall_ns, toDateTime($rec), now(), $(day_sql "$rec"), row_schema
		FROM latscope_stage.traces_$sfx" ;;
	esac
}

# One client per statement list (-n): a client start costs more than a small insert.
drop_stage() {
	for k in $KINDS; do
		echo "DROP TABLE IF EXISTS latscope_stage.${k}_$1;"
	done | q -n 2>/dev/null
}

# The checks on the staged rows of trace $2: one line "ok" or what is wrong.
check_sql() {
	sfx=$1 id=$2
	echo "SELECT multiIf(
	  (SELECT count() FROM latscope_stage.traces_$sfx) != 1, 'traces.jsonl: expected one trace',
	  (SELECT countIf(row_schema != $ROW_SCHEMA) FROM latscope_stage.traces_$sfx) +
	  (SELECT countIf(row_schema != $ROW_SCHEMA) FROM latscope_stage.waits_$sfx) +
	  (SELECT countIf(row_schema != $ROW_SCHEMA) FROM latscope_stage.samples_$sfx) +
	  (SELECT countIf(row_schema != $ROW_SCHEMA) FROM latscope_stage.stalls_$sfx) != 0,
	    'expected row_schema $ROW_SCHEMA in every row (rows of another latscope version)',
	  (SELECT countIf(trace_id != '$id') FROM latscope_stage.waits_$sfx) +
	  (SELECT countIf(trace_id != '$id') FROM latscope_stage.samples_$sfx) +
	  (SELECT countIf(trace_id != '$id') FROM latscope_stage.stalls_$sfx) != 0,
	    'expected every row of trace_id $id (rows of another trace)',
	  (SELECT countIf(trusted AND kind != 'preempt') FROM latscope_stage.waits_$sfx) !=
	  (SELECT any(ifNull(waits, 0)) FROM latscope_stage.traces_$sfx) OR
	  (SELECT countIf(trusted AND kind = 'preempt') FROM latscope_stage.waits_$sfx) !=
	  (SELECT any(ifNull(preempt_waits, 0)) FROM latscope_stage.traces_$sfx) OR
	  (SELECT countIf(NOT trusted) FROM latscope_stage.waits_$sfx) !=
	  (SELECT any(ifNull(untrusted, 0)) FROM latscope_stage.traces_$sfx),
	    'expected the wait rows the traces row counts (waits.jsonl cut or from another run)',
	  (SELECT count() FROM latscope_stage.stalls_$sfx) !=
	  (SELECT any(ifNull(stalls, 0)) FROM latscope_stage.traces_$sfx),
	    'expected the stall rows the traces row counts',
	  'ok'),
	  (SELECT count() FROM latscope_stage.waits_$sfx),
	  (SELECT count() FROM latscope_stage.samples_$sfx),
	  (SELECT count() FROM latscope_stage.stalls_$sfx),
	  (SELECT any(ifNull(host, '')) FROM latscope_stage.traces_$sfx)"
}

# Loads the rows of directory $1 (named $2 in messages).  0 loaded, 3 already there, 1 refused.
load_dir() {
	dir=$1 name=$2
	for k in $KINDS; do
		[ -f "$dir/$k.jsonl" ] || { echo "$name: refused: no $k.jsonl" >&2; return 1; }
	done
	n=$(wc -l <"$dir/traces.jsonl")
	[ "$n" -eq 1 ] || {
		echo "$name: refused: expected one trace in traces.jsonl, got $n" >&2
		return 1
	}
	id=$(sed -n 's/.*"trace_id":"\([0-9A-Za-z:._-]*\)".*/\1/p' "$dir/traces.jsonl")
	[ -n "$id" ] || { echo "$name: refused: traces.jsonl has no trace_id" >&2; return 1; }
	if [ "${LATSCOPE_CH_FORCE:-0}" != 1 ]; then
		have=$(q -q "SELECT count() FROM latscope.traces WHERE trace_id = '$id'") ||
			return 1
		if [ "$have" -gt 0 ]; then
			echo "$name: already loaded (trace_id $id): skipped"
			return 3
		fi
	fi
	rec=$(cat "$dir/recorded_at" 2>/dev/null || stat -c %Y "$dir/traces.jsonl")
	lid=$(date +%s%N)
	sfx=$(printf '%s %s %s' "$id" "$$" "$lid" | md5sum | cut -c1-16)
	for k in $KINDS; do
		echo "CREATE TABLE latscope_stage.${k}_$sfx AS latscope_stage.${k}_tpl;"
	done | q -n || {
		drop_stage "$sfx"
		return 1
	}
	for k in $KINDS; do
		[ -s "$dir/$k.jsonl" ] || continue	# no rows ("No data to insert")
		if ! err=$(q --input_format_allow_errors_num=0 \
			-q "INSERT INTO latscope_stage.${k}_$sfx FORMAT JSONEachRow" \
			<"$dir/$k.jsonl" 2>&1); then
			echo "$name: refused: $k.jsonl: $(echo "$err" | grep -m1 Exception)" >&2
			drop_stage "$sfx"
			return 1
		fi
	done
	res=$(q -q "$(check_sql "$sfx" "$id")") || res="the checks failed to run"
	verdict=$(printf '%s\n' "$res" | cut -f1)
	if [ "$verdict" != ok ]; then
		echo "$name: refused: $verdict; nothing loaded" >&2
		drop_stage "$sfx"
		return 1
	fi
	# the traces row last (-n stops at the first statement that fails): a trace counts
	# once it has one
	for k in waits samples stalls traces; do
		copy_sql "$k" "$sfx" "$rec" "$lid"
		echo ";"
	done | q -n || {
		echo "$name: error: copying the rows failed; the trace has no traces row, load" \
			"it again" >&2
		drop_stage "$sfx"
		return 1
	}
	drop_stage "$sfx"
	set -- $(printf '%s\n' "$res" | cut -f2-4)
	host=$(printf '%s\n' "$res" | cut -f5)
	echo "$name: loaded $1 waits, $2 samples, $3 stalls, host '$host' (trace_id $id)"
	drop_older "$name" "$id" "$lid"
	return 0
}

# After load $3 of trace $2 finished: the rows of its older loads (a forced reload) no
# longer count (the queries take the latest load); delete them.  Only older ones: a load
# that started later and is still running is left alone.
drop_older() {
	name=$1 id=$2 lid=$3
	old=$(q -q "SELECT count() FROM latscope.traces WHERE trace_id = '$id' AND
		load_id < $lid") || return 0
	[ "${old:-0}" -gt 0 ] || return 0
	for k in waits samples stalls traces; do
		echo "ALTER TABLE latscope.$k DELETE WHERE trace_id = '$id' AND load_id < $lid;"
	done | q -n || {
		echo "$name: warning: deleting the $old older loads failed (they do not count:" \
			"the latest load does)" >&2
		return 0
	}
	echo "$name: replaces $old earlier load(s) of trace_id $id (deleted)"
}

bad=0
tmp=
if [ "$dirs" = 0 ]; then
	tmp=$(mktemp -d /tmp/latscope-load.XXXXXX) || exit 1
	trap 'rm -rf "$tmp"' EXIT
fi
for arg in "$@"; do
	if [ "$dirs" = 1 ]; then
		load_dir "$arg" "$arg"
		rc=$?
	else
		rm -f "$tmp"/*
		# shellcheck disable=SC2086
		"$bin" export --rows traces,waits,samples,stalls --format jsonl \
			${label:+--host "$label"} ${threshold:+-t "$threshold"} -o "$tmp" "$arg" \
			2>"$tmp/err" || {
			echo "$arg: refused: latscope export failed:" \
				"$(grep -m1 -e error -e usage -e expected "$tmp/err")" >&2
			bad=1
			continue
		}
		stat -c %Y "$arg" >"$tmp/recorded_at"
		load_dir "$tmp" "$arg"
		rc=$?
	fi
	[ "$rc" = 1 ] && bad=1
done
exit "$bad"
