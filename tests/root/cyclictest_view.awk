# latscope's view of a cyclictest thread's samples from `trace-cmd report -t` of latscope's own
# recording: expected E = hrtimer_start expires (CLOCK_MONOTONIC) moved to the trace clock with
# the (ts - now) of the timer's hrtimer_expire_entry; the thread's clock read after the wake-up
# lies between the switch that puts it on its CPU (S) and the thread's next own step (N: the
# first event on that CPU in its context that an interrupt does not explain: its next timer,
# its switch out, its exit): the sample is S - E at least and N - E at most.
# usage: trace-cmd report -t FILE | awk -v tid=TID -f cyclictest_view.awk
# prints: samples, the largest S - E, the last sample's S - E and N - E, and its S
function ns(t) { sub(/:$/, "", t); split(t, p, "."); return p[1] * 1000000000 + p[2] }
{
	for (i = 1; i <= NF; i++) {
		if ($i ~ /^\[[0-9]+\]$/)
			cpu = $i
		if ($i ~ /^[0-9]+\.[0-9]+:$/) { ts = ns($i); ev = $(i + 1); break }
	}
	if (wait_next && cpu == s_cpu &&
	    ev !~ /^(local_timer_|hrtimer_expire_|irq_handler_|softirq_|sched_wak|sched_migrate|print)/) {
		hi = ts - e_of
		wait_next = 0
	}
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
	v = ts - pend; n++; lo = v; s_at = ts
	if (v > max) max = v
	e_of = pend; s_cpu = cpu; wait_next = 1; hi = -1
	pend = 0
}
END { printf "%d %.0f %.0f %.0f %.0f\n", n, max, lo, hi, s_at }
