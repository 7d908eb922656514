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
# Inferred switch-ins: such an event of a task with a pending wait (or its
# switch-out) ends the wait there, a row like any other, when it is in task
# context (irq-info letter '.'), on the CPU the task is queued on (the waking's
# target_cpu, then each migration's dest_cpu), while the CPU's task was known
# to be another one whose last event on it (any event) came at or after the
# wait's start.
# Trace health: once a CPU has 4 exits from idle that only the next task's
# events showed (an event of another task, or a switch of one, while the
# switches said idle) and more of them than recorded switches out of idle,
# nothing is inferred there: a pending task seen running there, or switched
# out there after such a break, had its wait end unseen (no row).  A second
# sched_wakeup of a task whose pending wait already had one ends it unseen too.
function ns(t,  a) { split(t, a, "."); return a[1] * 1000000000 + substr(a[2] "000000000", 1, 9) }
function field(k,  i) { for (i = 1; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2); return "" }
function off(p) { if (p in running) delete running[p] }
function start(p, t, kind, q) { pending[p] = 1; st[p] = t; kd[p] = kind; g0[p] = gaps; qc[p] = q; woke[p] = 0 }
# the switches said @cpu ran @was; an event showed another task
function brk(cpu, was) {
	if (was == 0) unrec[cpu]++
	if (unrec[cpu] >= 4 && unrec[cpu] > outidle[cpu]) bad[cpu] = 1
}
function row(p, t) {
	printf "%d %.0f %.0f %.0f %s %d\n", p, st[p], t, t - st[p], kd[p], g0[p] == gaps ? 1 : 0
	delete pending[p]
}
# @p's own event at @t on @cpu ends its pending wait as an inferred switch-in
function inferred(cpu, p) {
	return !(cpu in bad) && (p in pending) && (cpu in cur) && cur[cpu] != p && taskctx &&
	       qc[p] == cpu && pl >= st[p]
}
function seen(cpu, p,  old) {
	if ((cpu in cur) && cur[cpu] == p) return
	if (cpu in cur) { old = cur[cpu]; brk(cpu, old); if ((old in running) && running[old] == cpu) delete running[old] }
	if (p > 0 && inferred(cpu, p)) row(p, t)
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
	# the irq-info column ("d.h2."): its third letter is the context, '.' a task's
	fl = rest; sub(/^ +/, "", fl); sub(/ .*/, "", fl)
	taskctx = length(fl) >= 4 && fl !~ /:/ && substr(fl, 3, 1) == "."
	# the CPU's last event before this one, -1 none
	pl = (cpu in lastt) ? lastt[cpu] : -1
	lastt[cpu] = t
}
ev == "sched_switch" {
	prev = field("prev_pid") + 0; next_ = field("next_pid") + 0; state = field("prev_state")
	if ((cpu in cur) && cur[cpu] != prev) brk(cpu, cur[cpu])
	if (prev > 0 && inferred(cpu, prev)) row(prev, t)
	# the task the switches had on this CPU left unseen (a switch break)
	if ((cpu in cur) && cur[cpu] != prev && (cur[cpu] in running) && running[cur[cpu]] == cpu)
		delete running[cur[cpu]]
	if (prev == 0) outidle[cpu]++
	cur[cpu] = next_
	off(prev)
	if (prev in pending) delete pending[prev]
	if (prev > 0 && state ~ /^R/) start(prev, t, "preempt", cpu)
	if (next_ in pending) row(next_, t)
	if (next_ > 0) running[next_] = cpu
	next
}
ev ~ /^(sched_waking|sched_wakeup|sched_wakeup_new|sched_migrate_task|sched_process_(fork|exec|exit)|irq_handler_(entry|exit)|softirq_(entry|exit)|tracing_mark_write|print)$/ {
	seen(cpu, hpid)
}
ev ~ /^sched_wak/ {
	p = field("pid") + 0
	if (ev == "sched_wakeup" && (p in pending) && kd[p] != "preempt" && woke[p] && !(p in running) && p != hpid)
		delete pending[p]
	if (ev == "sched_wakeup" && (p in pending) && kd[p] != "preempt") woke[p] = 1
	if (p <= 0 || (p in running) || p == hpid || (p in pending)) next
	if (ev == "sched_waking") start(p, t, "wakeup", field("target_cpu") + 0)
	else { start(p, t, ev == "sched_wakeup_new" ? "new" : "wakeup", field("target_cpu") + 0); woke[p] = 1 }
}
ev == "sched_migrate_task" {
	p = field("pid") + 0
	if (p in pending) qc[p] = field("dest_cpu") + 0
}
