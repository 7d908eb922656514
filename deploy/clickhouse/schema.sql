-- SPDX-License-Identifier: GPL-2.0-or-later
-- latscope's fleet tables for ClickHouse (18.16, Debian 12's, and later): the rows of
-- `latscope export --rows traces|waits|samples|stalls --format jsonl` (docs/export.md),
-- loaded by deploy/clickhouse/load.sh, one trace at a time (docs/fleet.md).
--
-- * Keyed for per-host and per-task queries: every table is sorted by host first, the waits
--   by (host, comm) then the trace.
-- * Idempotent per trace: trace_id is a hash of the trace file (export's default).  The
--   loader skips a trace whose traces row exists; should a load be repeated anyway (two
--   loaders at once, a load cut after its rows and before its traces row), every table is a
--   ReplacingMergeTree whose sort key identifies a row, so the copies collapse at merge
--   time and `FINAL` (or `OPTIMIZE ... FINAL`) sees each row once.
-- * The traces row is written last: a trace counts only once it has one.  The queries of
--   docs/fleet.md restrict the rows to `trace_id IN (SELECT trace_id FROM latscope.traces)`.
-- * Staging: the loader reads the JSON Lines into latscope_stage tables of the export's own
--   shape (Nullable where export writes null), checks them, then copies them over.  A
--   malformed row or another row_schema stops the load before anything reaches these tables.

CREATE DATABASE IF NOT EXISTS latscope;
CREATE DATABASE IF NOT EXISTS latscope_stage;

-- One row per trace: where and on what it was recorded, and the analysis' totals.
CREATE TABLE IF NOT EXISTS latscope.traces (
	trace_id String,
	trace String,			-- the path as given to export
	host String,			-- export --host, or trace.dat's node name; '' unknown
	kernel String,			-- the release (uname -r), '' unknown
	uname String,			-- trace.dat's whole UNAME option
	preempt String,			-- PREEMPT_RT, PREEMPT_DYNAMIC, PREEMPT, '' not said
	clock String,
	cpus Int32,
	first_ns UInt64,
	last_ns UInt64,
	events UInt64,
	waits UInt64,			-- trusted wakeup and new-task waits
	preempt_waits UInt64,
	untrusted UInt64,
	lost_events UInt64,
	stalls UInt64,
	stall_ns Int64,
	recorded_at DateTime,		-- the file's modification time (trace.dat holds no date)
	loaded_at DateTime,
	row_schema UInt16
) ENGINE = ReplacingMergeTree(loaded_at)
ORDER BY (host, trace_id);

-- One row per wait for a CPU (docs/export.md, "--rows waits").
CREATE TABLE IF NOT EXISTS latscope.waits (
	trace_id String,
	host String,
	comm String,
	tid Int32,
	pid Nullable(Int32),
	policy String,			-- rt, fair, dl
	prio Int16,
	cpu Int32,
	start_ns UInt64,
	end_ns UInt64,
	latency_ns Int64,
	kind String,			-- wakeup, new, preempt
	waker String,			-- comm:tid, irq:NAME, softirq:NAME, '' none
	verdict String,
	trusted UInt8,
	queued_cpu Nullable(Int32),
	waker_tid Nullable(Int32),
	waker_cpu Nullable(Int32),
	waker_ctx String,
	row_schema UInt16
) ENGINE = ReplacingMergeTree
ORDER BY (host, comm, trace_id, tid, end_ns, cpu, kind);

-- One row per trace_marker line: probe samples, cyclictest's threshold line, markers.
CREATE TABLE IF NOT EXISTS latscope.samples (
	trace_id String,
	host String,
	probe String,			-- a latscope probe's name, '' for other markers
	cpu Int32,
	ts_ns UInt64,
	tid Int32,			-- -1 unknown
	comm String,
	lat_ns Nullable(Int64),
	text String,
	text_hash UInt64,		-- cityHash64(text): two lines at one time stay two rows
	row_schema UInt16
) ENGINE = ReplacingMergeTree
ORDER BY (host, probe, trace_id, cpu, ts_ns, tid, text_hash);

-- One row per stall: a CPU (or every CPU, cpu -1) silent for 2 ms while it owed a switch.
CREATE TABLE IF NOT EXISTS latscope.stalls (
	trace_id String,
	host String,
	cpu Int32,
	from_ns UInt64,
	to_ns UInt64,
	dur_ns Int64,
	tid Int32,			-- the task on the CPU, -1 unknown
	comm String,
	waiting_tid Int32,		-- the task owed the CPU, -1 unknown
	waiting_comm String,
	row_schema UInt16
) ENGINE = ReplacingMergeTree
ORDER BY (host, trace_id, cpu, from_ns);

-- The staging tables: the exported columns as they come (JSONEachRow refuses an unknown
-- key, a value of the wrong type, a cut line).  The loader copies them per trace, with its
-- own suffix, so that loaders can run side by side.
CREATE TABLE IF NOT EXISTS latscope_stage.traces_tpl (
	trace String, host Nullable(String), kernel Nullable(String), uname Nullable(String),
	preempt Nullable(String), clock Nullable(String), cpus Nullable(Int32),
	first_ns Nullable(UInt64), last_ns Nullable(UInt64), events Nullable(UInt64),
	waits Nullable(UInt64), preempt_waits Nullable(UInt64), untrusted Nullable(UInt64),
	lost_events Nullable(UInt64), stalls Nullable(UInt64), stall_ns Nullable(Int64),
	threshold_ns Nullable(Int64), realtime_offset_ns Nullable(Int64),
	realtime_error_ns Nullable(Int64), wall_ns Nullable(Int64), trace_id String,
	row_schema UInt16
) ENGINE = Log;

CREATE TABLE IF NOT EXISTS latscope_stage.waits_tpl (
	trace String, host Nullable(String), pid Nullable(Int32), tid Int32, comm String,
	policy String, prio Int16, cpu Int32, start_ns UInt64, end_ns UInt64, latency_ns Int64,
	kind String, waker String, verdict Nullable(String), trusted UInt8,
	queued_cpu Nullable(Int32), waker_tid Nullable(Int32), waker_cpu Nullable(Int32),
	waker_ctx Nullable(String), wall_ns Nullable(Int64), trace_id String, row_schema UInt16
) ENGINE = Log;

CREATE TABLE IF NOT EXISTS latscope_stage.samples_tpl (
	trace String, host Nullable(String), pid Nullable(Int32), tid Nullable(Int32),
	comm Nullable(String), cpu Int32, ts_ns UInt64, probe Nullable(String),
	lat_ns Nullable(Int64),
	text String, wall_ns Nullable(Int64), trace_id String, row_schema UInt16
) ENGINE = Log;

CREATE TABLE IF NOT EXISTS latscope_stage.stalls_tpl (
	trace String, host Nullable(String), pid Nullable(Int32), tid Nullable(Int32),
	comm Nullable(String), cpu Int32, from_ns UInt64, to_ns UInt64, dur_ns Int64,
	waiting_tid Nullable(Int32), waiting_comm Nullable(String), wall_ns Nullable(Int64),
	trace_id String, row_schema UInt16
) ENGINE = Log;
