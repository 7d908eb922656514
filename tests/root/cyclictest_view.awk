# latscope's view of a cyclictest thread's samples from `trace-cmd report -t` of latscope's own
# recording: expected E = hrtimer_start expires (CLOCK_MONOTONIC) moved to the trace clock with
# the (ts - now) of the timer's hrtimer_expire_entry.  The thread's clock read after the wake-up
# lies between S and N, so the sample is S - E at least and N - E at most:
#  S: the switch that puts the thread on its CPU after the expiry; when the thread never left
#     the CPU (its timer was already due when it went to sleep, so clock_nanosleep returned
#     without a switch: a catch-up sample after a late one), the expiry itself; when the
#     kernel did not record the switch (this VM's 6.18 kernel leaves out about 1 in 10 switches
#     from idle, in every instance alike, with no lost-event count), the last event on that
#     CPU before the thread's own next step that is not the thread's;
#  N: the thread's next own step: its next hrtimer_wakeup timer (the next clock_nanosleep), its
#     switch out or its exit.  Events inside interrupts on that CPU (the tick's hrtimer_start at
#     irq exit, handlers, wakings) are not its steps.
# usage: trace-cmd report -t FILE | awk -v tid=TID -f cyclictest_view.awk
# prints: samples, the largest S - E, the last sample's S - E and N - E, its S, and the largest
# N - E (a thread's Max lies between the largest S - E and the largest N - E), and how many
# samples had no recorded switch in
function ns(t) { sub(/:$/, "", t); split(t, p, "."); return p[1] * 1000000000 + p[2] }
function sample(at) {
	v = at - pend; n++; lo = v; s_at = at
	if (v > max) max = v
	e_of = pend; wait_next = 1; hi = -1
	pend = 0
}
function step() {
	if (!wait_next)
		return
	hi = ts - e_of
	if (hi > maxhi) maxhi = hi
	wait_next = 0
}
{
	for (i = 1; i <= NF; i++) {
		if ($i ~ /^\[[0-9]+\]$/)
			cpu = $i
		if ($i ~ /^[0-9]+\.[0-9]+:$/) { ts = ns($i); ev = $(i + 1); break }
	}
	mine = $0 ~ ("^ *cyclictest-" tid " ")
}
ev == "hrtimer_start:" && mine && /function=hrtimer_wakeup/ {
	if (pend && cpu == pend_cpu) {	# woken, on the CPU, but no switch in was recorded
		sample(other[cpu]); unseen++
	}
	step()
	match($0, /hrtimer=0x[0-9a-f]+/); ptr = substr($0, RSTART + 8, RLENGTH - 8)
	match($0, / expires=[0-9]+/); ex[ptr] = substr($0, RSTART + 9, RLENGTH - 9)
}
ev == "hrtimer_expire_entry:" {
	match($0, /hrtimer=0x[0-9a-f]+/); ptr = substr($0, RSTART + 8, RLENGTH - 8)
	if (ptr in ex) {
		match($0, / now=[0-9]+/); now = substr($0, RSTART + 5, RLENGTH - 5)
		pend = ex[ptr] + (ts - now); delete ex[ptr]; pend_cpu = cpu
		if (running && cpu == on_cpu)	# never left the CPU: the clock read follows the irq
			sample(ts)
	}
}
ev == "sched_switch:" && $0 ~ ("sched_switch: +cyclictest:" tid " ") {	# out (prev first)
	step(); running = 0
}
ev == "sched_switch:" && $0 ~ ("==> cyclictest:" tid " ") {
	running = 1; on_cpu = cpu
	if (pend)
		sample(ts)
}
ev == "sched_process_exit:" && $0 ~ ("pid=" tid " ") { step() }
!mine { other[cpu] = ts }
END { printf "%d %.0f %.0f %.0f %.0f %.0f %d\n", n, max, lo, hi, s_at, maxhi, unseen }
