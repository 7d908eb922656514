#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced: a throw-away ClickHouse server on the loopback, for scripts/fleet-demo.sh and
# tests/fleet.  Each server has its own directory (data, logs, config) and its own ports;
# nothing of the system's ClickHouse (/etc/clickhouse-server, /var/lib/clickhouse) is used.
#
#   ch_start DIR TCP_PORT HTTP_PORT    start a server (waits until it answers), pid in DIR/pid
#   ch_stop DIR                        stop it (TERM, then KILL after 10 s); idempotent
#   ch_q TCP_PORT [clickhouse-client args]   the client on 127.0.0.1:TCP_PORT
#
# Every server's config names the cluster `latscope_fleet` over the shards listed in
# $CH_SHARDS ("9301 9302": two servers' TCP ports on 127.0.0.1), for the Distributed table.

ch_have() {
	command -v clickhouse-server >/dev/null 2>&1 && command -v clickhouse-client >/dev/null 2>&1
}

ch_config() {
	dir=$1 tcp=$2 http=$3
	shards=""
	for p in ${CH_SHARDS:-$tcp}; do
		shards="$shards<shard><replica><host>127.0.0.1</host><port>$p</port></replica></shard>"
	done
	cat >"$dir/config.xml" <<XML
<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>$dir/log/server.log</log>
    <errorlog>$dir/log/server.err.log</errorlog><size>10M</size><count>1</count></logger>
  <listen_host>127.0.0.1</listen_host>
  <tcp_port>$tcp</tcp_port>
  <http_port>$http</http_port>
  <path>$dir/data/</path>
  <tmp_path>$dir/tmp/</tmp_path>
  <user_files_path>$dir/user_files/</user_files_path>
  <format_schema_path>$dir/format_schemas/</format_schema_path>
  <users_config>$dir/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mark_cache_size>67108864</mark_cache_size>
  <uncompressed_cache_size>67108864</uncompressed_cache_size>
  <max_concurrent_queries>20</max_concurrent_queries>
  <remote_servers><latscope_fleet>$shards</latscope_fleet></remote_servers>
</yandex>
XML
	cat >"$dir/users.xml" <<XML
<?xml version="1.0"?>
<yandex>
  <profiles><default><max_memory_usage>2000000000</max_memory_usage></default></profiles>
  <users><default><password></password>
    <networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
    <profile>default</profile><quota>default</quota></default></users>
  <quotas><default><interval><duration>3600</duration><queries>0</queries><errors>0</errors>
    <result_rows>0</result_rows><read_rows>0</read_rows><execution_time>0</execution_time>
  </interval></default></quotas>
</yandex>
XML
}

ch_q() {
	port=$1
	shift
	clickhouse-client --host 127.0.0.1 --port "$port" "$@"
}

ch_start() {
	dir=$1 tcp=$2 http=$3
	mkdir -p "$dir/data" "$dir/tmp" "$dir/log" "$dir/user_files" "$dir/format_schemas" || return 1
	ch_config "$dir" "$tcp" "$http"
	clickhouse-server --config-file="$dir/config.xml" --pid-file="$dir/pid" --daemon \
		>"$dir/log/stdout" 2>&1 || { cat "$dir/log/stdout" >&2; return 1; }
	i=0
	while ! ch_q "$tcp" -q 'SELECT 1' >/dev/null 2>&1; do
		i=$((i + 1))
		if [ $i -gt 150 ]; then
			echo "clickhouse on port $tcp did not start; $dir/log:" >&2
			tail -5 "$dir/log/server.err.log" >&2 2>/dev/null
			return 1
		fi
		sleep 0.2
	done
}

ch_stop() {
	dir=$1
	[ -f "$dir/pid" ] || return 0
	pid=$(cat "$dir/pid" 2>/dev/null)
	if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
		kill "$pid" 2>/dev/null
		i=0
		while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do
			sleep 0.2
			i=$((i + 1))
		done
		kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null
	fi
	rm -f "$dir/pid"
}
