#!/usr/bin/env python3
# Validates `latscope export --perfetto` output against the Trace Event Format
# (the "Trace Event Format" document of the Chromium project, which
# chrome://tracing and ui.perfetto.dev read): prints counts as "key value"
# lines for test_export.sh to compare with what it verified by other means, or
# "error: ..." lines for every violation.  Usage: export_check_perfetto.py FILE
import bisect
import collections
import json
import re
import sys

errors = []
# ts and dur are microseconds with three decimals: ts + dur of ~1e9 us is off by
# ~1e-7 in binary floating point, far below the half nanosecond allowed
EPS = 0.0005


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


doc = json.load(open(sys.argv[1]), parse_float=fixed3)
if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
    print("error: not an object with a traceEvents array")
    sys.exit(0)
if doc.get("displayTimeUnit") not in (None, "ms", "ns"):
    err("displayTimeUnit must be ms or ns")
if not isinstance(doc.get("otherData", {}).get("generator"), str):
    err("otherData.generator missing")
evs = doc["traceEvents"]
count = collections.Counter()
flows = collections.defaultdict(list)
tracks = collections.defaultdict(list)    # (pid, tid) -> [(ts, end)] of X events
named_threads, named_procs, sorted_threads = set(), set(), set()
track_names = {}
for i, e in enumerate(evs):
    ph = e.get("ph")
    where = "event %d (ph %r)" % (i, ph)
    # every event: ph, name, pid, tid; all but metadata: ts
    if not isinstance(e.get("name"), str):
        err(where + ": no name")
    if not isinstance(e.get("pid"), int) or not isinstance(e.get("tid"), int):
        err(where + ": pid and tid must be integers")
    if ph != "M" and not num(e.get("ts")):
        err(where + ": no numeric ts")
    if "args" in e and not isinstance(e["args"], dict):
        err(where + ": args must be an object")
    key = (e.get("pid"), e.get("tid"))
    if ph == "X":
        if not num(e.get("dur")) or e["dur"] < 0:
            err(where + ": X needs a dur >= 0")
        else:
            tracks[key].append((e["ts"], e["ts"] + e["dur"], e))
        count["X." + e.get("cat", "")] += 1
    elif ph == "i":
        if e.get("s") not in ("t", "p", "g"):
            err(where + ": an instant needs its scope s: t, p or g")
        count["i." + e["name"]] += 1
    elif ph in ("s", "f"):
        if "id" not in e or not isinstance(e.get("cat"), str):
            err(where + ": a flow event needs id and cat")
        if ph == "f" and e.get("bp") != "e":
            err(where + ": flow ends here bind to the enclosing slice (bp e)")
        if ph == "s" and "bp" in e:
            err(where + ": a flow start binds to its enclosing slice: no bp")
        flows[(e.get("cat"), e.get("id"))].append(e)
    elif ph == "M":
        a = e.get("args", {})
        if e["name"] in ("process_name", "thread_name"):
            if not isinstance(a.get("name"), str):
                err(where + ": name metadata without args.name")
            (named_threads if e["name"] == "thread_name" else named_procs).add(
                key if e["name"] == "thread_name" else e["pid"])
            if e["name"] == "thread_name":
                if key in track_names:
                    err(where + ": a second thread_name for %s" % (key,))
                track_names[key] = a.get("name")
        elif e["name"] in ("process_sort_index", "thread_sort_index"):
            if not isinstance(a.get("sort_index"), int):
                err(where + ": sort index metadata without an integer args.sort_index")
            if e["name"] == "thread_sort_index":
                sorted_threads.add(key)
        else:
            err(where + ": unknown metadata " + e["name"])
        if "ts" in e and e["ts"] != 0:
            err(where + ": metadata carries no time")
    else:
        err(where + ": unexpected phase")
    count["ph." + str(ph)] += 1

# complete events of one track never overlap (the viewers would stack them wrongly)
for key, xs in tracks.items():
    xs.sort(key=lambda x: (x[0], x[1]))
    for a, b in zip(xs, xs[1:]):
        if b[0] < a[1] - EPS:
            err("track %s: slices overlap at ts %s" % (key, b[0]))
            break
    if key not in named_threads:
        err("track %s has no thread_name" % (key,))
    # the CPU tracks in CPU order (docs/export.md); task tracks sort by tid, the default
    if key[0] == 4194305 and key not in sorted_threads:
        err("CPU track %s has no thread_sort_index" % (key,))
    if key[0] not in named_procs:
        err("process %s has no process_name" % key[0])


starts = {k: [x[0] for x in xs] for k, xs in tracks.items()}


def enclosing(key, ts, cat):
    # the slices of a track are sorted and disjoint (checked above): the last one
    # starting at or before ts is the only candidate (and the one before, for EPS);
    # the arrows bind to a slice of @cat (docs/export.md: the waker's running slice
    # on its CPU, the wakee's wait)
    xs = tracks.get(key, [])
    i = bisect.bisect_right(starts.get(key, []), ts + EPS)
    return any(xs[j][0] - EPS <= ts <= xs[j][1] + EPS and xs[j][2].get("cat") == cat
               for j in (i - 1, i - 2) if j >= 0)


# flows pair up: one start, one end, the end not before the start, both bound
unbound_start = 0
for fid, fs in flows.items():
    phs = sorted(f["ph"] for f in fs)
    if phs != ["f", "s"]:
        err("flow %s: phases %s, expected one s and one f" % (fid, phs))
        continue
    s = next(f for f in fs if f["ph"] == "s")
    f = next(f for f in fs if f["ph"] == "f")
    if f["ts"] < s["ts"]:
        err("flow %s ends before it starts" % (fid,))
    if f.get("name") != s.get("name"):
        err("flow %s: its start and end are named differently" % (fid,))
    if not enclosing((f["pid"], f["tid"]), f["ts"], "wait"):
        err("flow %s: no wait slice on the wakee's track at its end" % (fid,))
    if not enclosing((s["pid"], s["tid"]), s["ts"], "running"):
        unbound_start += 1
count["flows"] = len(flows)
count["flows.unbound_start"] = unbound_start
count["tracks.cpu"] = sum(1 for k, n in track_names.items() if n.startswith("CPU "))
count["lost.marks"] = sum(1 for e in evs if e.get("ph") == "i" and e.get("cat") == "lost")
count["lost.total"] = sum(e["args"]["count"] for e in evs
                          if e.get("ph") == "i" and e.get("cat") == "lost")
count["X.running.cpu_switch"] = sum(1 for e in evs if e.get("ph") == "X" and
                                    e.get("cat") == "running" and "tid" in e.get("args", {}) and
                                    e["args"].get("end") == "switch")
for e in errors:
    print("error: " + e)
for k in sorted(count):
    print(k, count[k])
