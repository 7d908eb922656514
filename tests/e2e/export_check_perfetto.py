#!/usr/bin/env python3
# Checks a `latscope export --perfetto` file (plain or .gz) by the rules Perfetto's JSON
# importer applies (its trace processor, src/trace_processor/importers/json and the slice
# and flow trackers it drives) and the Trace Event Format's required fields, so that what
# the file says is what ui.perfetto.dev draws.  Prints counts as "key value" lines for the
# tests to compare with what they verified by other means, and "error: ..." lines for
# every violation.  Usage: export_check_perfetto.py FILE
#
# The importer's rules checked:
#   - a thread track per tid: the importer keys a thread by tid and makes a new thread
#     when a tid comes with another pid, so every tid must keep one pid;
#   - slices per thread track: sorted by time, a slice is a child of the open slice it
#     starts in, and the open slices that ended at or before its start are closed first
#     (a zero-length slice closes at once).  A slice that starts inside another and ends
#     after it is improperly nested: the importer drops or misplaces it.  latscope's
#     tracks draw disjoint slices (docs/export.md): only zero-length slices (the wakings)
#     may lie inside another;
#   - flows, version 2 (bind_id with flow_out / flow_in on the X events themselves): the
#     flow leaves the END of its source slice and enters the START of its target, so the
#     source must end at the waking (a zero-length slice there) and the target (the wait)
#     start there; every bind_id once out and once in;
#   - flows, version 1 (s / f): the s binds to the slice open on its track at its time and
#     is drawn from that slice's end: found only as an error (an arrow drawn backwards when
#     that slice ends after it, or bound to an instant);
#   - counters (C): numeric args;
#   - metadata without time; names and sort indexes of the right type.
import collections
import gzip
import json
import re
import sys

errors = []
# ts and dur are microseconds with three decimals: ts + dur of ~1e10 us is off by
# ~1e-6 in binary floating point, far below the half nanosecond allowed
EPS = 0.0005
CPUS_PID = 4194305


def err(msg):
    if len(errors) < 20:
        errors.append(msg)


def num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def fixed3(text):
    # every number with a fraction: microseconds with three decimals (docs/export.md)
    if not re.fullmatch(r"-?[0-9]+\.[0-9]{3}", text):
        err("number %s: not microseconds with three decimals" % text)
    return float(text)


def load(path):
    with open(path, "rb") as f:
        magic = f.read(2)
    opener = gzip.open if magic == b"\x1f\x8b" else open
    with opener(path, "rt", encoding="utf-8") as f:
        return json.load(f, parse_float=fixed3)


def check_event(i, e, count, tid_pid):
    """The fields every phase needs; returns the event's track key or None."""
    ph = e.get("ph")
    where = "event %d (ph %r)" % (i, ph)
    if not isinstance(e.get("name"), str):
        err(where + ": no name")
    if not isinstance(e.get("pid"), int) or not isinstance(e.get("tid"), int):
        err(where + ": pid and tid must be integers")
        return None
    if ph != "M" and not num(e.get("ts")):
        err(where + ": no numeric ts")
    if "args" in e and not isinstance(e["args"], dict):
        err(where + ": args must be an object")
    pid = tid_pid.setdefault(e["tid"], e["pid"])
    if pid != e["pid"]:
        err(where + ": tid %d with pid %d and pid %d: two tracks for one thread"
            % (e["tid"], pid, e["pid"]))
    count["ph." + str(ph)] += 1
    return (e["pid"], e["tid"])


def check_meta(where, e, key, m):
    a = e.get("args", {})
    n = e["name"]
    if n in ("process_name", "thread_name"):
        if not isinstance(a.get("name"), str):
            err(where + ": name metadata without args.name")
        if n == "thread_name":
            if key in m["thread"]:
                err(where + ": a second thread_name for %s" % (key,))
            m["thread"][key] = a.get("name")
        else:
            m["proc"][e["pid"]] = a.get("name")
    elif n in ("process_sort_index", "thread_sort_index"):
        if not isinstance(a.get("sort_index"), int):
            err(where + ": sort index metadata without an integer args.sort_index")
        if n == "thread_sort_index":
            m["sorted"].add(key)
    else:
        err(where + ": unknown metadata " + n)
    if "ts" in e and e["ts"] != 0:
        err(where + ": metadata carries no time")


def nest(key, slices, count):
    """The importer's stack per track: improper nesting, and nesting of non-empty slices."""
    slices.sort(key=lambda s: (s[0], -s[1]))
    stack = []
    for ts, dur, e in slices:
        end = ts + dur
        while stack and stack[-1][0] <= ts + EPS:
            stack.pop()
        if stack and end > stack[-1][0] + EPS:
            err("track %s: slice %r at %.3f ends after the slice it starts in: "
                "improperly nested" % (key, e.get("name"), ts))
            return
        if stack and dur > EPS and stack[-1][1] > EPS:
            err("track %s: slices overlap at %.3f (%r inside %r)"
                % (key, ts, e.get("name"), stack[-1][2].get("name")))
            return
        if stack:
            count["nested.zero_length"] += 1
        stack.append((end, dur, e))


def check_flows_v2(out, inn, count):
    for bid in set(out) | set(inn):
        o, i = out.get(bid, []), inn.get(bid, [])
        if len(o) != 1 or len(i) != 1:
            err("flow %s: %d sources and %d targets, expected one each" % (bid, len(o), len(i)))
            continue
        s, t = o[0], i[0]
        if s["dur"] > EPS:
            err("flow %s: its source slice %r lasts %.3f us: the arrow leaves its end, "
                "not the waking" % (bid, s.get("name"), s["dur"]))
        if abs(s["ts"] + s["dur"] - t["ts"]) > EPS:
            err("flow %s: the source ends at %.3f, the target starts at %.3f"
                % (bid, s["ts"] + s["dur"], t["ts"]))
        if not t.get("name", "").startswith("runnable"):
            err("flow %s: the target is %r, not a wait" % (bid, t.get("name")))
        if (s["pid"], s["tid"]) == (t["pid"], t["tid"]):
            count["flows.self"] += 1
    count["flows"] = len(set(out) | set(inn))


def check_flows_v1(v1, tracks, count):
    # only so that an old file (or a regression) is named: latscope writes version 2
    for e in v1:
        xs = [s for s in tracks.get((e["pid"], e["tid"]), [])
              if s[0] - EPS <= e["ts"] <= s[0] + s[1] + EPS]
        if not xs:
            err("flow %s (v1 %s): no slice on its track at %.3f" % (e.get("id"), e["ph"],
                                                                      e["ts"]))
            continue
        inner = min(xs, key=lambda s: s[1])
        if inner[1] <= EPS and inner[2].get("ph") == "i":
            err("flow %s (v1): bound to an instant" % e.get("id"))
        elif e["ph"] == "s" and inner[0] + inner[1] > e["ts"] + EPS:
            err("flow %s (v1): its source slice ends after it: drawn backwards" % e.get("id"))
    count["flows.v1"] = len(v1)


def main():
    doc = load(sys.argv[1])
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        print("error: not an object with a traceEvents array")
        return
    if doc.get("displayTimeUnit") not in (None, "ms", "ns"):
        err("displayTimeUnit must be ms or ns")
    if not isinstance(doc.get("otherData", {}).get("generator"), str):
        err("otherData.generator missing")
    evs = doc["traceEvents"]
    count = collections.Counter()
    tracks = collections.defaultdict(list)  # (pid, tid) -> [(ts, dur, event)]
    tid_pid = {}
    m = {"thread": {}, "proc": {}, "sorted": set()}
    out, inn, v1 = collections.defaultdict(list), collections.defaultdict(list), []
    for i, e in enumerate(evs):
        key = check_event(i, e, count, tid_pid)
        if key is None:
            continue
        ph = e.get("ph")
        where = "event %d (ph %r)" % (i, ph)
        if ph == "X":
            if not num(e.get("dur")) or e["dur"] < 0:
                err(where + ": X needs a dur >= 0")
                continue
            tracks[key].append((e["ts"], e["dur"], e))
            kind = ("cpu" if e["tid"] < 4194306 + 65536 else "irq") if key[0] == CPUS_PID \
                else "task"
            count["X." + kind + ("." + e["name"].split(" ")[0] if kind == "task" else "")] += 1
            if "bind_id" in e:
                if e.get("flow_out") is True and "flow_in" not in e:
                    out[e["bind_id"]].append(e)
                elif e.get("flow_in") is True and "flow_out" not in e:
                    inn[e["bind_id"]].append(e)
                else:
                    err(where + ": a bind_id without one direction (flow_out or flow_in)")
        elif ph == "i":
            if e.get("s") not in ("t", "p", "g"):
                err(where + ": an instant needs its scope s: t, p or g")
            if e.get("s", "t") == "t":
                tracks[key].append((e["ts"], 0.0, e))
            count["i." + e["name"]] += 1
        elif ph == "C":
            a = e.get("args")
            if not isinstance(a, dict) or not a or not all(num(v) for v in a.values()):
                err(where + ": a counter needs numeric args")
            else:
                for k in a:
                    count["C." + k] += 1
        elif ph in ("s", "t", "f"):
            v1.append(e)
        elif ph == "M":
            check_meta(where, e, key, m)
        else:
            err(where + ": unexpected phase")
    for key, xs in tracks.items():
        nest(key, xs, count)
        if key not in m["thread"]:
            err("track %s has no thread_name" % (key,))
        if key[0] == CPUS_PID and key not in m["sorted"]:
            err("CPU track %s has no thread_sort_index" % (key,))
        if key[0] not in m["proc"]:
            err("process %s has no process_name" % key[0])
    check_flows_v2(out, inn, count)
    check_flows_v1(v1, tracks, count)
    count["tracks.cpu"] = sum(1 for n in m["thread"].values() if re.fullmatch(r"CPU \d+", n))
    count["tracks.task"] = sum(1 for k in m["thread"] if k[0] != CPUS_PID)
    count["processes"] = len(m["proc"])
    lost = [e for e in evs if e.get("ph") == "i" and e.get("cat") == "lost"]
    count["lost.marks"] = len(lost)
    count["lost.total"] = sum(e["args"]["count"] for e in lost)
    count["X.cpu.switch"] = sum(1 for e in evs if e.get("ph") == "X" and
                                e.get("pid") == CPUS_PID and e.get("tid", 0) < 4194306 + 65536
                                and "end" not in e.get("args", {}))
    count["X.wait.verdict"] = sum(1 for e in evs if e.get("ph") == "X" and
                                  "verdict" in e.get("args", {}))
    for e in errors:
        print("error: " + e)
    for k in sorted(count):
        print(k, count[k])


main()
