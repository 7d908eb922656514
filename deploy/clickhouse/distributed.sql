-- SPDX-License-Identifier: GPL-2.0-or-later
-- Distributed tables over the cluster `latscope_fleet` (the servers' <remote_servers>,
-- docs/fleet.md): run on every server after schema.sql.  A query on latscope.waits_all runs
-- on every shard's latscope.waits and merges the results (quantiles included: each shard
-- sends its quantile state, not its answer).  Sharded by host: a host's traces live on one
-- shard, and per-host queries stay exact with distributed_group_by_no_merge if ever needed.
-- The *_all_latest views take each trace's latest finished load across the shards (a trace
-- loaded again into another shard counts once too).
SET allow_experimental_low_cardinality_type = 1;
CREATE TABLE IF NOT EXISTS latscope.traces_all AS latscope.traces
	ENGINE = Distributed(latscope_fleet, latscope, traces, cityHash64(host));
CREATE TABLE IF NOT EXISTS latscope.waits_all AS latscope.waits
	ENGINE = Distributed(latscope_fleet, latscope, waits, cityHash64(host));
CREATE TABLE IF NOT EXISTS latscope.samples_all AS latscope.samples
	ENGINE = Distributed(latscope_fleet, latscope, samples, cityHash64(host));
CREATE TABLE IF NOT EXISTS latscope.stalls_all AS latscope.stalls
	ENGINE = Distributed(latscope_fleet, latscope, stalls, cityHash64(host));
CREATE VIEW IF NOT EXISTS latscope.latest_loads_all AS
	SELECT trace_id, max(load_id) AS load_id FROM latscope.traces_all GROUP BY trace_id;
CREATE VIEW IF NOT EXISTS latscope.traces_all_latest AS SELECT * FROM latscope.traces_all
	WHERE (trace_id, load_id) GLOBAL IN
		(SELECT trace_id, load_id FROM latscope.latest_loads_all);
CREATE VIEW IF NOT EXISTS latscope.waits_all_latest AS SELECT * FROM latscope.waits_all
	WHERE (trace_id, load_id) GLOBAL IN
		(SELECT trace_id, load_id FROM latscope.latest_loads_all);
CREATE VIEW IF NOT EXISTS latscope.samples_all_latest AS SELECT * FROM latscope.samples_all
	WHERE (trace_id, load_id) GLOBAL IN
		(SELECT trace_id, load_id FROM latscope.latest_loads_all);
CREATE VIEW IF NOT EXISTS latscope.stalls_all_latest AS SELECT * FROM latscope.stalls_all
	WHERE (trace_id, load_id) GLOBAL IN
		(SELECT trace_id, load_id FROM latscope.latest_loads_all);
