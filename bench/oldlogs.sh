#!/bin/sh
# Import speed of the old-log readers: generates a large lat3 log and a large
# schedcnt table (default 100 MB each), times `latscope analyze` on each and,
# as the anchor measured in the same run on the same file, awk summing one
# column (the cheapest honest "read every row" a shell user would write).
# Prints MB/s, rows/s and the ratio to awk.  No assertions: see bench/README.md.
#
# usage: bench/oldlogs.sh BIN [MB] [WORKDIR]
set -eu
bin=${1:?usage: bench/oldlogs.sh BIN [MB] [WORKDIR]}
mb=${2:-100}
work=${3:-${TMPDIR:-/tmp}/latscope-bench.$$}
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT INT TERM

# ~47 bytes a row; a 2.5 s stall every 100000 rows so that freezes exist.
gen_lat3() {
	awk -v rows="$1" 'BEGIN {
		print "Date_sec.msec   select    loop  maxlat    nbmax"
		t = 1112008903267; srand(1)
		for (i = 0; i < rows; i++) {
			stall = (i % 100000 == 99999)
			loop = stall ? 2593603 : 100000
			t += int(loop / 1000) + 1
			printf "%d.%03d %7d %7d %7d %7d\n", t / 1000, t % 1000,
				900 + int(rand() * 80), loop, stall ? 2507346 : 40 + int(rand() * 20), stall
		}
	}'
}

# 4 runs x 2 CPUs, ~45 bytes a row; PIDs 800..809 alternate, odd runs bounce.
gen_schedcnt() {
	awk -v rows="$1" 'BEGIN {
		print "SCHEDENTRY SCHEDEXIT LAT PID ENTRYDIF"
		per = int(rows / 8); srand(2)
		for (run = 1; run <= 4; run++) {
			printf "\nN = %d\n\n", run
			for (cpu = 0; cpu < 2; cpu++) {
				printf "%d %d\n", cpu, per
				e = 430018440148 + run * 1e10; sum = 0
				for (i = 0; i < per; i++) {
					lat = 1000 + int(rand() * 5000); sum += lat
					pid = 800 + (run % 2 ? (i % 10) : cpu * 5 + i % 5)
					if (i < per - 1)
						printf "%d %d %d %d %d\n", e, e + lat, lat, pid, 43986624
					else
						printf "%d %d %d %d\n", e, e + lat, lat, pid
					e += 43986624
				}
				printf "%d %d\n", int(sum / per), 7463
			}
		}
	}'
}

# Wall time is at the mercy of whatever else runs on the machine; CPU time
# (user + sys, from /usr/bin/time) is what the ratio uses.
measure() {	# name file rows anchor-column
	name=$1 file=$2 rows=$3 col=$4
	bytes=$(stat -c %s "$file")
	/usr/bin/time -f "%e %U %S" -o "$work/t.lat" "$bin" analyze "$file" >/dev/null 2>&1 ||
		{ echo "$name: latscope failed" >&2; exit 1; }
	/usr/bin/time -f "%e %U %S" -o "$work/t.awk" \
		awk -v c="$col" '{ s += $c } END { print s }' "$file" >/dev/null
	read -r lw lu ls <"$work/t.lat"
	read -r aw au as <"$work/t.awk"
	awk -v n="$name" -v b="$bytes" -v r="$rows" -v lw="$lw" -v lc="$lu + $ls" \
	    -v aw="$aw" -v ac="$au + $as" 'BEGIN {
		split(lc, x, " + "); lcpu = x[1] + x[2]; split(ac, y, " + "); acpu = y[1] + y[2]
		if (lcpu <= 0) lcpu = 0.01; if (acpu <= 0) acpu = 0.01
		printf "%-9s %6.1f MB %8d rows | latscope cpu %5.2f s (wall %5.2f) %6.1f MB/s " \
		       "%9.0f rows/s | awk cpu %5.2f s %6.1f MB/s | latscope/awk cpu %.2f\n",
		       n, b / 1e6, r, lcpu, lw, b / 1e6 / lcpu, r / lcpu, acpu, b / 1e6 / acpu,
		       lcpu / acpu
	}'
}

rows=$((mb * 1000000 / 47))
gen_lat3 "$rows" >"$work/big.lat3.txt"
measure lat3 "$work/big.lat3.txt" "$rows" 3
rm -f "$work/big.lat3.txt"
rows=$((mb * 1000000 / 45 / 8 * 8))
gen_schedcnt "$rows" >"$work/big.schedcnt.txt"
measure schedcnt "$work/big.schedcnt.txt" "$rows" 3
