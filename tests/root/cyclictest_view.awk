# latscope's view of a cyclictest thread's samples from `trace-cmd report -t` of latscope's own
# recording: expected = hrtimer_start expires (CLOCK_MONOTONIC) moved to the trace clock with
# the (ts - now) of the timer's hrtimer_expire_entry; sample = the switch in - expected.
function ns(t) { sub(/:$/, "", t); split(t, p, "."); return p[1] * 1000000000 + p[2] }
{
	for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { ts = ns($i); ev = $(i + 1); break }
}
ev == "hrtimer_start:" && $0 ~ ("cyclictest-" tid " ") && /function=hrtimer_wakeup/ {
	match($0, /hrtimer=0x[0-9a-f]+/); ptr = substr($0, RSTART + 8, RLENGTH - 8)
	match($0, / expires=[0-9]+/); ex[ptr] = substr($0, RSTART + 9, RLENGTH - 9)
}
ev == "hrtimer_expire_entry:" {
	match($0, /hrtimer=0x[0-9a-f]+/); ptr = substr($0, RSTART + 8, RLENGTH - 8)
	if (ptr in ex) {
		match($0, / now=[0-9]+/); now = substr($0, RSTART + 5, RLENGTH - 5)
		pend = ex[ptr] + (ts - now); delete ex[ptr]
	}
}
ev == "sched_switch:" && $0 ~ ("==> cyclictest:" tid " ") && pend {
	v = ts - pend; n++
	if (v > max) { max = v; at = ts }
	pend = 0
}
END { printf "%d %.0f %.0f\n", n, max, at }
