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
	_chd=$1 _tcp=$2 _http=$3
	_shards=""
	for _p in ${CH_SHARDS:-$_tcp}; do
		_shards="$_shards<shard><replica><host>127.0.0.1</host><port>$_p</port></replica></shard>"
	done
	cat >"$_chd/config.xml" <<XML
<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>$_chd/log/server.log</log>
    <errorlog>$_chd/log/server.err.log</errorlog><size>10M</size><count>1</count></logger>
  <listen_host>127.0.0.1</listen_host>
  <tcp_port>$_tcp</tcp_port>
  <http_port>$_http</http_port>
  <path>$_chd/data/</path>
  <tmp_path>$_chd/tmp/</tmp_path>
  <user_files_path>$_chd/user_files/</user_files_path>
  <format_schema_path>$_chd/format_schemas/</format_schema_path>
  <users_config>$_chd/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mark_cache_size>67108864</mark_cache_size>
  <uncompressed_cache_size>67108864</uncompressed_cache_size>
  <max_concurrent_queries>20</max_concurrent_queries>
  <remote_servers><latscope_fleet>$_shards</latscope_fleet></remote_servers>
</yandex>
XML
	cat >"$_chd/users.xml" <<XML
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
	_port=$1
	shift
	clickhouse-client --host 127.0.0.1 --port "$_port" "$@"
}

ch_start() {
	_chd=$1 _tcp=$2 _http=$3
	mkdir -p "$_chd/data" "$_chd/tmp" "$_chd/log" "$_chd/user_files" "$_chd/format_schemas" || return 1
	_chd=$(cd "$_chd" && pwd)	# the daemon leaves the working directory: absolute paths
	ch_config "$_chd" "$_tcp" "$_http"
	clickhouse-server --config-file="$_chd/config.xml" --pid-file="$_chd/pid" --daemon \
		>"$_chd/log/stdout" 2>&1 || { cat "$_chd/log/stdout" >&2; return 1; }
	_i=0
	while ! ch_q "$_tcp" -q 'SELECT 1' >/dev/null 2>&1; do
		_i=$((_i + 1))
		if [ $_i -gt 150 ]; then
			echo "clickhouse on port $_tcp did not start; $_chd/log:" >&2
			tail -5 "$_chd/log/server.err.log" >&2 2>/dev/null
			return 1
		fi
		sleep 0.2
	done
}

ch_stop() {
	_chd=$1
	[ -f "$_chd/pid" ] || return 0
	_pid=$(cat "$_chd/pid" 2>/dev/null)
	if [ -n "$_pid" ] && kill -0 "$_pid" 2>/dev/null; then
		kill "$_pid" 2>/dev/null
		_i=0
		while kill -0 "$_pid" 2>/dev/null && [ $_i -lt 50 ]; do
			sleep 0.2
			_i=$((_i + 1))
		done
		kill -0 "$_pid" 2>/dev/null && kill -9 "$_pid" 2>/dev/null
	fi
	rm -f "$_chd/pid"
}
