-- SPDX-License-Identifier: GPL-2.0-or-later
-- latscope's fleet tables for ClickHouse (18.16, Debian 12's, and later): the rows of
-- `latscope export --rows traces,waits,samples,stalls --format jsonl` (docs/export.md),
-- loaded by deploy/clickhouse/load.sh, one trace at a time (docs/fleet.md).
--
-- * Keyed for per-host and per-task queries: every table is sorted by host first, the waits
--   by (host, comm) then the trace; partitioned by day (the row's wall-clock day when the
--   recording holds its clock offset, else the day the trace file was written).
-- * Never counted twice: every load of a trace has its own load_id (its start in ns) in
--   every row, and a trace counts only through its latest load that finished (its traces
--   row is written last): the views *_latest below and the queries of docs/fleet.md take
--   the rows whose (trace_id, load_id) is (trace_id, max(load_id)) of latscope.traces.  A
--   trace loaded again (LATSCOPE_CH_FORCE=1, another --host label, another threshold,
--   another latscope) or a load cut halfway never adds to the counts; the loader deletes a
--   trace's older loads once a new one finished.
-- * Unknown values are NULL (an unknown CPU is not CPU 0), except in sort keys, which
--   18.16 cannot make Nullable: host '' (unknown) and probe '' (a marker of no latscope
--   probe).
-- * Staging: the loader reads the JSON Lines into latscope_stage tables of the export's own
--   shape (Nullable where export writes null), checks them, then copies them over.  A
--   malformed row or another row_schema stops the load before anything reaches these tables.
-- * LowCardinality (a dictionary per part) for the repetitive strings: an experimental type
--   in 18.16, hence the setting (later versions ignore it).  No DateTime64 in 18.16: the
--   wall clock is `wall` (DateTime, seconds, UTC) and `wall_ns` (ns since the epoch).

SET allow_experimental_low_cardinality_type = 1;

CREATE DATABASE IF NOT EXISTS latscope;
CREATE DATABASE IF NOT EXISTS latscope_stage;

-- One row per load of a trace: where and on what it was recorded, and the analysis' totals.
CREATE TABLE IF NOT EXISTS latscope.traces (
	trace_id String,
	load_id UInt64,			-- the load's start, ns: the latest counts
	trace String,			-- the path as given to export
	host LowCardinality(String),	-- export --host, or trace.dat's node name; '' unknown
	kernel Nullable(String),	-- the release (uname -r)
	uname Nullable(String),		-- trace.dat's whole UNAME option
	preempt LowCardinality(Nullable(String)),	-- PREEMPT_RT, PREEMPT_DYNAMIC, PREEMPT
	clock LowCardinality(Nullable(String)),
	cpus Nullable(Int32),
	first_ns Nullable(UInt64),
	last_ns Nullable(UInt64),
	events Nullable(UInt64),
	waits Nullable(UInt64),		-- trusted wakeup and new-task waits
	preempt_waits Nullable(UInt64),
	untrusted Nullable(UInt64),
	lost_events Nullable(UInt64),
	stalls Nullable(UInt64),
	stall_ns Nullable(Int64),
	threshold_ns Nullable(Int64),	-- the waits of at least this have a verdict
	realtime_offset_ns Nullable(Int64),	-- CLOCK_REALTIME - trace clock (latscope record)
	realtime_error_ns Nullable(Int64),
	wall Nullable(DateTime),	-- first_ns on the wall clock (UTC), when known
	wall_ns Nullable(Int64),
	recorded_at DateTime,		-- the trace file's modification time
	loaded_at DateTime,
	day Date,			-- the partition: wall's day, else recorded_at's
	row_schema UInt16
) ENGINE = MergeTree
PARTITION BY day
ORDER BY (host, trace_id, load_id);

-- One row per wait for a CPU (docs/export.md, "--rows waits").
CREATE TABLE IF NOT EXISTS latscope.waits (
	trace_id String,
	load_id UInt64,
	host LowCardinality(String),
	comm LowCardinality(String),
	tid Int32,			-- the thread
	pid Nullable(Int32),		-- its process (thread group)
	policy LowCardinality(String),	-- rt, fair, dl
	prio Int16,
	cpu Int32,
	start_ns UInt64,
	end_ns UInt64,
	latency_ns Int64,
	kind LowCardinality(String),	-- wakeup, new, preempt
	waker String,			-- comm:tid, irq:NAME, softirq:NAME, '' none
	verdict LowCardinality(Nullable(String)),	-- NULL: not judged (threshold_ns)
	trusted UInt8,
	queued_cpu Nullable(Int32),
	waker_tid Nullable(Int32),
	waker_cpu Nullable(Int32),
	waker_ctx LowCardinality(Nullable(String)),
	wall Nullable(DateTime),	-- start_ns on the wall clock (UTC)
	wall_ns Nullable(Int64),
	day Date,
	row_schema UInt16
) ENGINE = MergeTree
PARTITION BY day
ORDER BY (host, comm, trace_id, load_id, tid, end_ns);

-- One row per trace_marker line: probe samples, cyclictest's threshold line, markers.
CREATE TABLE IF NOT EXISTS latscope.samples (
	trace_id String,
	load_id UInt64,
	host LowCardinality(String),
	probe LowCardinality(String),	-- a latscope probe's name, '' for other markers
	cpu Int32,
	ts_ns UInt64,
	tid Nullable(Int32),
	pid Nullable(Int32),
	comm LowCardinality(Nullable(String)),
	lat_ns Nullable(Int64),
	text String,
	wall Nullable(DateTime),
	wall_ns Nullable(Int64),
	day Date,
	row_schema UInt16
) ENGINE = MergeTree
PARTITION BY day
ORDER BY (host, probe, trace_id, load_id, cpu, ts_ns);

-- One row per stall: a CPU (or every CPU, cpu -1) silent for 2 ms while it owed a switch.
CREATE TABLE IF NOT EXISTS latscope.stalls (
	trace_id String,
	load_id UInt64,
	host LowCardinality(String),
	cpu Int32,
	from_ns UInt64,
	to_ns UInt64,
	dur_ns Int64,
	tid Nullable(Int32),		-- the task on the CPU
	pid Nullable(Int32),
	comm LowCardinality(Nullable(String)),
	waiting_tid Nullable(Int32),	-- the task owed the CPU
	waiting_comm LowCardinality(Nullable(String)),
	wall Nullable(DateTime),
	wall_ns Nullable(Int64),
	day Date,
	row_schema UInt16
) ENGINE = MergeTree
PARTITION BY day
ORDER BY (host, trace_id, load_id, cpu, from_ns);

-- The rows that count: each trace's latest finished load (on this server): latest_loads
-- names it per trace, the *_latest views take its rows.  Distributed: the *_all_latest
-- views of distributed.sql.
CREATE VIEW IF NOT EXISTS latscope.latest_loads AS
	SELECT trace_id, max(load_id) AS load_id FROM latscope.traces GROUP BY trace_id;
CREATE VIEW IF NOT EXISTS latscope.traces_latest AS SELECT * FROM latscope.traces
	WHERE (trace_id, load_id) IN (SELECT trace_id, load_id FROM latscope.latest_loads);
CREATE VIEW IF NOT EXISTS latscope.waits_latest AS SELECT * FROM latscope.waits
	WHERE (trace_id, load_id) IN (SELECT trace_id, load_id FROM latscope.latest_loads);
CREATE VIEW IF NOT EXISTS latscope.samples_latest AS SELECT * FROM latscope.samples
	WHERE (trace_id, load_id) IN (SELECT trace_id, load_id FROM latscope.latest_loads);
CREATE VIEW IF NOT EXISTS latscope.stalls_latest AS SELECT * FROM latscope.stalls
	WHERE (trace_id, load_id) IN (SELECT trace_id, load_id FROM latscope.latest_loads);

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
