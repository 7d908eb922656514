# An independent reading of the wait rules of docs/wakeup.md over kernel ftrace
# text (trace / trace_pipe, key=value fields), for test_export.sh: prints one line
# "tid start_ns end_ns latency_ns kind trusted" per ended wait, in end order.
# Rules: a sched_waking of a task not running (and not waking itself) starts a
# wakeup wait, sched_wakeup(_new) one when no waking did; a switch-out cancels a
# pending wait and starts a preemption wait when the state is R; the switch-in
# ends it; a "[LOST n EVENTS]" line makes every pending wait untrusted; an event
# of a typed kind (wakeups, migrations, fork/exec/exit, irqs, markers) shows its
# task running on its CPU (cancelling its pending wait); a switch whose prev is not
# the CPU's task by the switches before it means that task left unseen.
function ns(t,  a) { split(t, a, "."); return a[1] * 1000000000 + substr(a[2] "000000000", 1, 9) }
function field(k,  i) { for (i = 1; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2); return "" }
function off(p) { if (p in running) delete running[p] }
function start(p, t, kind) { pending[p] = 1; st[p] = t; kd[p] = kind; g0[p] = gaps }
function seen(cpu, p,  old) {
	if ((cpu in cur) && cur[cpu] == p) return
	if (cpu in cur) { old = cur[cpu]; if ((old in running) && running[old] == cpu) delete running[old] }
	cur[cpu] = p
	if (p > 0) { if (p in pending) delete pending[p]; running[p] = cpu }
}
/\[LOST [0-9]+ EVENTS\]/ { gaps++; sub(/^CPU:/, ""); delete cur[$1 + 0]; next }
/^#/ { next }
{
	# "comm-pid [(tgid)] [cpu] flags ts: event: fields": the comm may hold blanks
	if (!match($0, /-[0-9]+ +(\( *[-0-9]+\) +)?\[[0-9]+\]/)) next
	hdr = substr($0, RSTART + 1, RLENGTH - 1)
	rest = substr($0, RSTART + RLENGTH)
	hpid = hdr + 0
	sub(/.*\[/, "", hdr)
	cpu = hdr + 0
	match(rest, /[0-9]+\.[0-9]+:/)
	t = ns(substr(rest, RSTART, RLENGTH - 1))
	ev = substr(rest, RSTART + RLENGTH + 1); sub(/:.*/, "", ev)
}
ev == "sched_switch" {
	prev = field("prev_pid") + 0; next_ = field("next_pid") + 0; state = field("prev_state")
	# the task the switches had on this CPU left unseen (a switch break)
	if ((cpu in cur) && cur[cpu] != prev && (cur[cpu] in running) && running[cur[cpu]] == cpu)
		delete running[cur[cpu]]
	cur[cpu] = next_
	off(prev)
	if (prev in pending) delete pending[prev]
	if (prev > 0 && state ~ /^R/) start(prev, t, "preempt")
	if (next_ in pending) {
		printf "%d %.0f %.0f %.0f %s %d\n", next_, st[next_], t, t - st[next_], kd[next_],
		       g0[next_] == gaps ? 1 : 0
		delete pending[next_]
	}
	if (next_ > 0) running[next_] = cpu
	next
}
ev ~ /^(sched_waking|sched_wakeup|sched_wakeup_new|sched_migrate_task|sched_process_(fork|exec|exit)|irq_handler_(entry|exit)|softirq_(entry|exit)|tracing_mark_write|print)$/ {
	seen(cpu, hpid)
}
ev ~ /^sched_wak/ {
	p = field("pid") + 0
	if (p <= 0 || (p in running) || p == hpid || (p in pending)) next
	if (ev == "sched_waking") start(p, t, "wakeup")
	else start(p, t, ev == "sched_wakeup_new" ? "new" : "wakeup")
}
