#!/bin/sh
# Installs the Debian 12 packages latscope builds, tests and benchmarks with.
# Idempotent: does nothing when everything is there already.
set -e
PKGS="build-essential cmake pkg-config libtraceevent-dev libtracefs-dev libcairo2-dev
libcmocka-dev libzstd-dev zlib1g-dev trace-cmd libtracecmd-dev libxml2-utils fonts-dejavu-core
linux-perf python3 clang libclang-rt-14-dev rt-tests zstd clickhouse-server clickhouse-client
chromium groff-base man-db zsh python3-jsonschema libprotobuf-c-dev protobuf-c-compiler
protobuf-compiler"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "install-deps: missing packages:$missing (run as root to install them)" >&2
		exit 1
	fi
	echo "install-deps: installing$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
# Two viewers' code that load `latscope export --perfetto` files offline in
# tests/e2e/test_export.sh (skipped there without them): the Chrome DevTools trace engine
# (npm @paulirish/trace_engine, the Performance panel's parser, BSD) and speedscope (MIT),
# opened in headless Chromium.  Optional: npm is not in PKGS (these were checked with
# Node 20; Debian 12's Node 18 is untested), and without it the test skips them and says so.
npm_dir=/usr/local/lib/latscope-npm
if command -v npm >/dev/null 2>&1 && [ "$(id -u)" = 0 ] &&
   { [ ! -f "$npm_dir/node_modules/@paulirish/trace_engine/analyze-trace.mjs" ] ||
     [ ! -f "$npm_dir/node_modules/speedscope/dist/release/index.html" ]; }; then
	echo "install-deps: installing @paulirish/trace_engine and speedscope into $npm_dir"
	npm install --prefix "$npm_dir" --no-audit --no-fund --silent \
		@paulirish/trace_engine@0.0.65 speedscope@1.25.0 ||
		echo "install-deps: npm install failed: test_export's viewer checks will be skipped" >&2
fi
