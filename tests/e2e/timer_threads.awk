# The thread latency of the threads hrtimer_wakeup woke (docs/timers.md), computed apart from
# latscope from `trace-cmd report -t`: a timer's expiry in the trace clock is its
# hrtimer_expire_entry's timestamp less (now - the expires of its last hrtimer_start, 0 when
# negative); the first sched_waking inside that callback on its CPU wakes the thread, whose next
# switch in ends the sample.  A thread still on its CPU when woken (no switch in) and a switch
# in that was not recorded are not handled: latscope's counts may be larger by those.
# usage: trace-cmd report -t FILE | awk -f timer_threads.awk
# prints: pid samples max_ns, one thread a line
function ns(t,  q) { sub(/:$/, "", t); split(t, q, "."); return q[1] * 1000000000 + q[2] }
function ptr(  s) { match($0, /hrtimer=0x[0-9a-f]+/); return substr($0, RSTART + 8, RLENGTH - 8) }
{
	for (i = 1; i <= NF; i++) {
		if ($i ~ /^\[[0-9]+\]$/)
			cpu = $i
		if ($i ~ /^[0-9]+\.[0-9]+:$/) { ts = ns($i); ev = $(i + 1); break }
	}
}
ev == "hrtimer_start:" { p = ptr(); match($0, / expires=[0-9]+/); ex[p] = substr($0, RSTART + 9, RLENGTH - 9) }
ev == "hrtimer_cancel:" { delete ex[ptr()] }
ev == "hrtimer_expire_entry:" {
	p = ptr(); inside[cpu] = 0
	if ((p in ex) && /function=hrtimer_wakeup/) {
		match($0, / now=[0-9]+/); l = substr($0, RSTART + 5, RLENGTH - 5) - ex[p]
		inside[cpu] = 1; due[cpu] = ts - (l < 0 ? 0 : l)
	}
	delete ex[p]
}
ev == "hrtimer_expire_exit:" { inside[cpu] = 0 }
ev == "sched_waking:" && inside[cpu] {
	match($0, / pid=[0-9]+/); pend[substr($0, RSTART + 5, RLENGTH - 5)] = due[cpu]; inside[cpu] = 0
}
ev == "sched_switch:" {
	match($0, /==> .*:[0-9]+ \[/); s = substr($0, RSTART, RLENGTH); sub(/ \[$/, "", s); sub(/.*:/, "", s)
	if (s in pend) { v = ts - pend[s]; n[s]++; if (v > mx[s]) mx[s] = v; delete pend[s] }
}
END { for (k in n) printf "%s %d %.0f\n", k, n[k], mx[k] }
