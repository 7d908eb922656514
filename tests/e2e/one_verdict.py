#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""One wait, one verdict in every section (issue 27): the worst cases and the
worst timer probe samples of `analyze --json`, the rows of `export --rows
waits` and the wait slices of `export --perfetto` must give the same verdict
to the same wait.

  one_verdict.py ANALYZE.json ROWS.jsonl PERFETTO.json

Waits are matched by thread and end (rows) or thread and start (Perfetto's
slice start, in us with ns decimals).  Prints "cases N matched N" and each
disagreement; exit status 1 on one, or when a worst case has no row.
"""
import json
import sys


def tid_of(d):
    return d["tid"] if "tid" in d else d["pid"]


def main(ajson, rows, pf):
    with open(ajson) as f:
        a = json.load(f)
    cases = []
    samples = []
    for inp in a["inputs"]:
        for b in inp["blocks"]:
            w = b.get("wakeup") or {}
            cases += [c for c in w.get("worst", []) if c.get("verdict")]
            pr = b.get("probe") or {}
            samples += [s for s in pr.get("worst", []) if s.get("verdict")]
    by_end = {}
    with open(rows) as f:
        for line in f:
            r = json.loads(line)
            by_end[(r["tid"], r["end_ns"])] = r["verdict"]
    with open(pf) as f:
        p = json.load(f)
    by_start = {}
    for e in p["traceEvents"] if isinstance(p, dict) else p:
        if e.get("ph") == "X" and "verdict" in e.get("args", {}):
            by_start[(e["tid"], round(e["ts"] * 1000))] = e["args"]["verdict"]
    bad = matched = 0
    for c in cases:
        kind = c["verdict"]["kind"]
        key = (tid_of(c), c["end_ns"])
        if key not in by_end:
            print("no row for the worst case %s/%d ending at %d" % (c["comm"], key[0], key[1]))
            bad += 1
            continue
        if by_end[key] != kind:
            print("%s/%d ending at %d: case says %s, rows say %s" %
                  (c["comm"], key[0], key[1], kind, by_end[key]))
            bad += 1
        pk = (tid_of(c), c["start_ns"])
        if pk in by_start and by_start[pk] != kind:
            print("%s/%d starting at %d: case says %s, Perfetto says %s" %
                  (c["comm"], key[0], c["start_ns"], kind, by_start[pk]))
            bad += 1
        matched += 1
    # a timer probe sample's verdict is its wakeup wait's, the one ended at its switch in
    for s in samples:
        key = (tid_of(s), s["points_ns"]["sched_switch"])
        kind = s["verdict"]["kind"]
        if key not in by_end:
            print("no row for the probe sample seq %d of %d" % (s["seq"], key[0]))
            bad += 1
        elif by_end[key] != kind:
            print("probe sample seq %d of %d: sample says %s, rows say %s" %
                  (s["seq"], key[0], kind, by_end[key]))
            bad += 1
        else:
            matched += 1
    print("cases %d matched %d" % (len(cases) + len(samples), matched))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
