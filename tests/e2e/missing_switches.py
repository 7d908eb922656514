#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks latscope's missing_switch_ns against trace-cmd's reading of a trace.dat.

Usage: missing_switches.py TRACE.dat ANALYZE.json

From `trace-cmd report -t TRACE.dat` alone, per CPU: the task the switches say it
runs; a switch break is an event of another task (one of the events below, which
name the running task) or a switch out of another task; the stretch from the CPU's
last event (any event) to the break is one no event says who ran in
(docs/wakeup.md, "Missing switches").  For every worst case of ANALYZE.json
(`latscope analyze --json`) the stretches' time inside the wait on its CPU must be
its missing_switch_ns.  Prints one line per case that differs and a summary;
exits 1 when any differs or no case was checked.
"""
import json
import re
import subprocess
import sys

LINE = re.compile(r'^\s*(.*)-(\d+)\s+\[(\d+)\]\s+(?:\S+\s+)?(\d+)\.(\d+):\s+(\w+):\s*(.*)$')
PREV = re.compile(r'.*:(\d+) \[-?\d+\] \S+ ==>')
NEXT = re.compile(r'==> .*:(\d+) \[')
# the events latscope reads that name the running task (formats/tracedat_types.c less
# sched_switch, kernel_stack and hrtimer_start/cancel, which may be another's)
NOTED = {'sched_waking', 'sched_wakeup', 'sched_wakeup_new', 'sched_migrate_task',
         'sched_process_fork', 'sched_process_exec', 'sched_process_exit',
         'irq_handler_entry', 'irq_handler_exit', 'softirq_entry', 'softirq_exit',
         'hrtimer_expire_entry', 'hrtimer_expire_exit', 'print',
         'sys_enter_sched_setscheduler', 'sys_exit_sched_setscheduler'}


def stretches(path):
    """{cpu: [(from_ns, to_ns)]} of the trace's missing-switch stretches."""
    out = subprocess.run(['trace-cmd', 'report', '-t', path], capture_output=True,
                         text=True, check=True).stdout
    cur, last, st = {}, {}, {}
    for line in out.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        pid, cpu, ev, rest = int(m.group(2)), int(m.group(3)), m.group(6), m.group(7)
        ts = int(m.group(4)) * 10**9 + int(m.group(5))
        brk = False
        if ev == 'sched_switch':
            brk = cpu in cur and int(PREV.match(rest).group(1)) != cur[cpu]
        elif ev in NOTED and cpu in cur and pid != cur[cpu]:
            brk = True
        if brk and last[cpu] < ts:
            st.setdefault(cpu, []).append((last[cpu], ts))
        if ev == 'sched_switch':
            cur[cpu] = int(NEXT.search(rest).group(1))
        elif brk:
            cur[cpu] = pid
        last[cpu] = ts
    return st


def main():
    st = stretches(sys.argv[1])
    with open(sys.argv[2]) as f:
        j = json.load(f)
    ok = bad = 0
    for inp in j['inputs']:
        for b in inp['blocks']:
            for c in (b.get('wakeup') or {}).get('worst', []):
                want = sum(max(0, min(e, c['end_ns']) - max(s, c['start_ns']))
                           for s, e in st.get(c['cpu'], []))
                if want == c.get('missing_switch_ns'):
                    ok += 1
                    continue
                bad += 1
                print('differ: tid %d cpu %d %d .. %d: trace-cmd %d, latscope %s' %
                      (c['tid'], c['cpu'], c['start_ns'], c['end_ns'], want,
                       c.get('missing_switch_ns')))
    print('%s: %d cases agree, %d differ, %d stretches' %
          (sys.argv[1], ok, bad, sum(len(v) for v in st.values())))
    return 1 if bad or not ok else 0


if __name__ == '__main__':
    sys.exit(main())
