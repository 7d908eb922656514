#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced: the fleet queries of docs/fleet.md over the tables $W (waits), $S (stalls) and
# $T (traces): the local ones (latscope.waits, ...) or the Distributed ones
# (latscope.waits_all, ...).  GLOBAL IN / JOIN: on a Distributed table the subquery runs
# once, on the initiator, and its result goes to every shard.

# Only the rows of each trace's latest load that finished (its traces row is written last):
# a trace loaded twice (forced, under another label, by another latscope) or a load cut
# halfway never counts twice (schema.sql).
fleet_loaded="(trace_id, load_id) GLOBAL IN (SELECT trace_id, max(load_id) FROM \$T
	GROUP BY trace_id)"

# p99 and max wakeup latency per host (trusted wakeup and new-task waits)
q_host() {
	echo "SELECT host, count() AS waits, quantileExact(0.99)(latency_ns) AS p99_ns,
		max(latency_ns) AS max_ns
	FROM $W WHERE trusted AND kind != 'preempt' AND $(eval echo "\"$fleet_loaded\"")
	GROUP BY host ORDER BY max_ns DESC, host"
}

# the same per comm, across hosts: the 10 worst by p99 of those with at least 20 waits
q_comm() {
	echo "SELECT comm, uniqExact(host) AS hosts, count() AS waits,
		quantileExact(0.99)(latency_ns) AS p99_ns, max(latency_ns) AS max_ns
	FROM $W WHERE trusted AND kind != 'preempt' AND $(eval echo "\"$fleet_loaded\"")
	GROUP BY comm HAVING waits >= 20 ORDER BY p99_ns DESC, comm LIMIT 10"
}

# hosts whose worst wait lay mostly (at least half of it) inside stalls of its CPU, or of
# every CPU: the longest such overlap
q_stall() {
	echo "SELECT host, any(worst_ns) AS worst_ns, any(wcomm) AS comm,
		max(least(sto, wend) - greatest(sfrom, wstart)) AS in_stall_ns,
		round(in_stall_ns / worst_ns, 3) AS share
	FROM (
		SELECT host, wtrace, worst_ns, wcomm, wcpu, wstart, wend, scpu, sfrom, sto
		FROM (
			SELECT host, argMax(trace_id, latency_ns) AS wtrace,
				argMax(cpu, latency_ns) AS wcpu, argMax(comm, latency_ns) AS wcomm,
				argMax(start_ns, latency_ns) AS wstart,
				argMax(end_ns, latency_ns) AS wend, max(latency_ns) AS worst_ns
			FROM $W WHERE trusted AND kind != 'preempt'
				AND $(eval echo "\"$fleet_loaded\"")
			GROUP BY host
		) GLOBAL ANY INNER JOIN (
			SELECT trace_id AS wtrace, groupArray(cpu) AS scpu,
				groupArray(from_ns) AS sfrom, groupArray(to_ns) AS sto
			FROM $S WHERE $(eval echo "\"$fleet_loaded\"") GROUP BY trace_id
		) USING wtrace
	) ARRAY JOIN scpu, sfrom, sto
	WHERE (scpu = wcpu OR scpu = -1) AND sfrom < wend AND sto > wstart
	GROUP BY host HAVING in_stall_ns * 2 >= worst_ns ORDER BY worst_ns DESC, host"
}

# who woke the real-time tasks that waited 100 us or more: the waker's comm (its tid
# dropped: tids differ between hosts) or irq:NAME
q_waker() {
	echo "SELECT replaceRegexpOne(waker, ':[0-9]+\$', '') AS waker, count() AS late_waits,
		uniqExact(host) AS hosts, max(latency_ns) AS max_ns
	FROM $W WHERE trusted AND kind != 'preempt' AND policy = 'rt'
		AND latency_ns >= 100000 AND $(eval echo "\"$fleet_loaded\"")
	GROUP BY waker ORDER BY late_waits DESC, max_ns DESC LIMIT 5"
}

# the verdicts of the judged waits (at least each trace's threshold_ns) per host: how many,
# the longest
q_verdict() {
	echo "SELECT host, verdict, count() AS waits, max(latency_ns) AS max_ns
	FROM $W WHERE trusted AND kind != 'preempt' AND verdict IS NOT NULL
		AND $(eval echo "\"$fleet_loaded\"")
	GROUP BY host, verdict ORDER BY host, waits DESC, verdict"
}
