#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks a `latscope export --perfetto-proto` file by the rules of Perfetto's
protobuf importer (its trace processor), as far as they can be checked without it.

The file is decoded by `protoc --decode=perfetto.protos.Trace` with the .proto files
kept in third_party/perfetto (so an encoding the schema does not take fails here),
then, packet by packet in file order:

  * interning: the first packet of the TrackEvents' sequence clears its
    incremental state (SEQ_INCREMENTAL_STATE_CLEARED) and holds the interned data;
    every track event is on that sequence, and every name_iid, debug annotation
    name_iid and string_value_iid it uses is defined there (the importer resolves
    them with or without SEQ_NEEDS_INCREMENTAL_STATE, which only lets it drop
    packets after a loss: proto_trace_reader.cc);
  * tracks: every uuid is described once, before any event uses it; a parent
    is described before its children; one thread track per tid (a tid with two
    descriptors, or with two pids, would be two threads);
  * slices: a track's TYPE_SLICE_BEGIN is ended by the TYPE_SLICE_END that
    follows it on that track in the file (latscope writes the pair together);
    replayed in Perfetto's order (time, then file position) on the track's slice
    stack, every end closes the slice it belongs to: no two slices of a track
    overlap unless one holds the other; no end without a begin, none left open;
  * counters only on counter tracks, slices and instants never on them;
  * flows: each flow id once in flow_ids (on an instant: the waking) and once
    in terminating_flow_ids (on a slice begin: the wait), the source not after
    the target in Perfetto's order (so the arrow runs from the waking forward);
  * ftrace bundles: CompactSched's arrays of one kind have one length, every comm
    index is in the intern table; each bundle's events (compact ones with their
    delta timestamps decoded) are sorted by time, and a CPU's bundles follow one
    another (none starts before the previous one of its CPU ended);
  * the process tree: one tgid per tid, agreeing with the thread tracks.

Prints `key value` counts (packets, switches, wakings, events.TYPE, slices.NAME,
flows, threads, ...) and one `error: ...` line per broken rule; exit 1 on errors.
With --list, also one line per latscope slice and instant, for the tests to
find a record: `slice TRACK BEGIN END NAME [KEY=VALUE...]`, `instant TRACK TS NAME`,
`flow SRC_TRACK SRC_TS DST_TRACK DST_TS`; TRACK is `tid:N` for a thread's track,
else the track's name with blanks as underscores.
Usage: export_check_proto.py [--list] FILE.pftrace [PROTO_ROOT]
"""
import codecs
import collections
import os
import subprocess
import sys

MAX_ERRORS = 20


def decode(path, root):
    """protoc's text format of the trace, a line at a time."""
    with open(path, 'rb') as f:
        p = subprocess.Popen(['protoc', '-I' + root, '--decode=perfetto.protos.Trace',
                              'protos/perfetto/trace/trace.proto'], stdin=f,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=root)
        for line in p.stdout:
            yield line.decode('utf-8', 'replace')
        err = p.stderr.read().decode('utf-8', 'replace')
        if p.wait() != 0:
            raise ValueError('protoc --decode failed: ' + err.strip())


def unquote(v):
    if v.startswith('"') and v.endswith('"'):
        return codecs.escape_decode(v[1:-1].encode('latin-1', 'replace'))[0].decode(
            'utf-8', 'replace')
    return v


def packets(lines):
    """Each top-level packet as nested dicts: field -> list of values."""
    stack = []
    for line in lines:
        s = line.strip()
        if not s:
            continue
        if s.endswith('{'):
            stack.append((s[:-1].strip(), collections.defaultdict(list)))
            continue
        if s == '}':
            name, msg = stack.pop()
            if not stack:
                yield msg
            else:
                stack[-1][1][name].append(msg)
            continue
        k, _, v = s.partition(':')
        stack[-1][1][k.strip()].append(unquote(v.strip()))


def one(m, k, default=None):
    v = m.get(k)
    return v[0] if v else default


class Check:
    def __init__(self):
        self.errors = 0
        self.n = collections.Counter()
        self.names, self.keys, self.strings = {}, set(), set()
        self.tracks = {}            # uuid -> 'counter' | 'slice'
        self.thread_of = {}         # tid -> pid (thread tracks)
        self.open_begin = {}        # track -> (ts, pos) of the begin awaiting its end
        self.slices = collections.defaultdict(list)   # track -> [(begin, end, pos)]
        self.flow_src, self.flow_dst = {}, {}
        self.cpu_last = {}
        self.tgid = {}
        self.seq_cleared = False
        self.seq = None
        self.listing = False
        self.track_name = {}
        self.strs = {}
        self.key_str = {}

    def error(self, msg):
        self.errors += 1
        if self.errors <= MAX_ERRORS:
            print('error: ' + msg)

    def interned(self, pkt):
        d = one(pkt, 'interned_data')
        if not d:
            return
        if not self.seq_cleared:
            self.error('interned data before the sequence was cleared')
        self.seq = one(pkt, 'trusted_packet_sequence_id')
        for e in d.get('event_names', []):
            self.names[int(one(e, 'iid'))] = one(e, 'name')
        for e in d.get('debug_annotation_names', []):
            self.keys.add(int(one(e, 'iid')))
            self.key_str[int(one(e, 'iid'))] = one(e, 'name')
        for e in d.get('debug_annotation_string_values', []):
            self.strings.add(int(one(e, 'iid')))
            self.strs[int(one(e, 'iid'))] = one(e, 'str')

    def descriptor(self, d, pos):
        uuid = int(one(d, 'uuid', 0))
        parent = one(d, 'parent_uuid')
        if not uuid or uuid in self.tracks:
            self.error('packet %d: track %d described twice (or no uuid)' % (pos, uuid))
        if parent is not None and int(parent) not in self.tracks:
            self.error('packet %d: track %d before its parent %s' % (pos, uuid, parent))
        self.tracks[uuid] = 'counter' if 'counter' in d else 'slice'
        th = one(d, 'thread')
        if th:
            tid, pid = int(one(th, 'tid')), int(one(th, 'pid'))
            if tid in self.thread_of:
                self.error('tid %d has two thread tracks' % tid)
            self.thread_of[tid] = pid
            self.n['threads'] += 1
            self.track_name[uuid] = 'tid:%d' % tid
        elif one(d, 'name') is None:
            self.error('packet %d: track %d has no name' % (pos, uuid))
        else:
            self.track_name[uuid] = one(d, 'name').replace(' ', '_')

    def track_event(self, pkt, e, pos):
        ts = int(one(pkt, 'timestamp', -1))
        typ = one(e, 'type')
        track = int(one(e, 'track_uuid', 0))
        if ts < 0:
            self.error('packet %d: a track event without a timestamp' % pos)
        if track not in self.tracks:
            self.error('packet %d: track %d used before it is described' % (pos, track))
        if one(pkt, 'trusted_packet_sequence_id') != self.seq:
            self.error('packet %d: a track event off the interned sequence' % pos)
        iid = one(e, 'name_iid')
        if iid is not None and int(iid) not in self.names:
            self.error('packet %d: name_iid %s not interned' % (pos, iid))
        for a in e.get('debug_annotations', []):
            if int(one(a, 'name_iid', 0)) not in self.keys:
                self.error('packet %d: annotation name not interned' % pos)
            s = one(a, 'string_value_iid')
            if s is not None and int(s) not in self.strings:
                self.error('packet %d: annotation string %s not interned' % (pos, s))
        kind = self.tracks.get(track)
        if (typ == 'TYPE_COUNTER') != (kind == 'counter'):
            self.error('packet %d: %s on a %s track' % (pos, typ, kind))
        name = self.names.get(int(iid)) if iid is not None else None
        name = name.replace(' ', '_') if name else name
        self.n['events.' + str(typ)] += 1
        if typ == 'TYPE_SLICE_BEGIN':
            if track in self.open_begin:
                self.error('packet %d: a begin on track %d before the last one ended'
                           % (pos, track))
            self.open_begin[track] = (ts, pos, name, self.args(e))
            self.n['slices.' + str(name)] += 1
            if 'verdict' in [self.key_name(a) for a in e.get('debug_annotations', [])]:
                self.n['slices.verdict'] += 1
        elif typ == 'TYPE_SLICE_END':
            b = self.open_begin.pop(track, None)
            if b is None:
                self.error('packet %d: an end without a begin on track %d' % (pos, track))
            elif ts < b[0]:
                self.error('packet %d: a slice ends before it begins' % pos)
            else:
                self.slices[track].append((b[0], ts, b[1]))
                if self.listing:
                    print('slice', self.track_name.get(track), b[0], ts, b[2], *b[3])
        elif typ == 'TYPE_INSTANT':
            self.n['instants.' + str(name)] += 1
            if self.listing:
                print('instant', self.track_name.get(track), ts, name)
        for f in e.get('flow_ids', []):
            if typ != 'TYPE_INSTANT':
                self.error('packet %d: a flow leaves a %s, not a waking' % (pos, typ))
            if f in self.flow_src:
                self.error('packet %d: flow %s leaves twice' % (pos, f))
            self.flow_src[f] = (ts, pos, track)
        for f in e.get('terminating_flow_ids', []):
            if typ != 'TYPE_SLICE_BEGIN':
                self.error('packet %d: a flow ends on a %s' % (pos, typ))
            if f in self.flow_dst:
                self.error('packet %d: flow %s ends twice' % (pos, f))
            self.flow_dst[f] = (ts, pos, track)

    def key_name(self, a):
        return {6: 'verdict'}.get(int(one(a, 'name_iid', 0)))

    def args(self, e):
        """The annotations as KEY=VALUE, interned strings resolved."""
        out = []
        for a in e.get('debug_annotations', []):
            k = self.key_str.get(int(one(a, 'name_iid', 0)), '?')
            if 'string_value_iid' in a:
                v = self.strs.get(int(one(a, 'string_value_iid')), '?')
            else:
                v = one(a, 'int_value', one(a, 'string_value', '?'))
            out.append('%s=%s' % (k, str(v).replace(' ', '_')))
        return out

    def bundle(self, b, pos):
        cpu = int(one(b, 'cpu', -1))
        times = []
        cs = one(b, 'compact_sched')
        if cs:
            ncomm = len(cs.get('intern_table', []))
            for kind, fields in (('switch', ('timestamp', 'prev_state', 'next_pid',
                                             'next_prio', 'next_comm_index')),
                                 ('waking', ('timestamp', 'pid', 'target_cpu', 'prio',
                                             'comm_index', 'common_flags'))):
                lens = {len(cs.get(kind + '_' + f, [])) for f in fields}
                if len(lens) != 1:
                    self.error('packet %d: CompactSched %s arrays of lengths %s'
                               % (pos, kind, sorted(lens)))
                idx = 'next_comm_index' if kind == 'switch' else 'comm_index'
                if any(int(i) >= ncomm for i in cs.get(kind + '_' + idx, [])):
                    self.error('packet %d: a %s comm index outside the table' % (pos, kind))
                t = 0
                for d in cs.get(kind + '_timestamp', []):
                    t += int(d)
                    times.append(t)
                self.n[kind + 'es' if kind == 'switch' else kind + 's'] += len(
                    cs.get(kind + '_timestamp', []))
        prev = -1
        for ev in b.get('event', []):
            t = int(one(ev, 'timestamp'))
            if t < prev:
                self.error('packet %d: CPU %d bundle events not sorted' % (pos, cpu))
            prev = t
            times.append(t)
            for k in ev:
                if k not in ('timestamp', 'pid', 'common_flags'):
                    self.n['events.' + k] += 1
        if not times:
            return
        if min(times) < self.cpu_last.get(cpu, 0):
            self.error('packet %d: CPU %d bundle starts at %d, before its last one ended '
                       'at %d' % (pos, cpu, min(times), self.cpu_last[cpu]))
        self.cpu_last[cpu] = max(times)

    def process_tree(self, t):
        for th in t.get('threads', []):
            tid, tgid = int(one(th, 'tid')), int(one(th, 'tgid'))
            if self.tgid.setdefault(tid, tgid) != tgid:
                self.error('tid %d in two processes' % tid)
            if tid in self.thread_of and self.thread_of[tid] != tgid:
                self.error('tid %d: thread track of pid %d, process tree %d'
                           % (tid, self.thread_of[tid], tgid))
        self.n['processes'] += len(t.get('processes', []))

    def packet(self, pkt, pos):
        self.n['packets'] += 1
        if pos == 0 or one(pkt, 'sequence_flags') == '1':
            self.seq_cleared = one(pkt, 'sequence_flags') == '1'
        self.interned(pkt)
        if 'track_descriptor' in pkt:
            self.descriptor(one(pkt, 'track_descriptor'), pos)
        elif 'track_event' in pkt:
            self.track_event(pkt, one(pkt, 'track_event'), pos)
        elif 'ftrace_events' in pkt:
            self.bundle(one(pkt, 'ftrace_events'), pos)
        elif 'process_tree' in pkt:
            self.process_tree(one(pkt, 'process_tree'))

    def nesting(self):
        """Replayed in Perfetto's order, each end closes its own slice."""
        for track, sl in self.slices.items():
            sl.sort(key=lambda s: (s[0], s[2]))
            stack = []
            for b, e, pos in sl:
                while stack and stack[-1][1] <= b:
                    stack.pop()
                if stack and e > stack[-1][1]:
                    self.error('track %d: slice %d..%d overlaps %d..%d'
                               % (track, b, e, stack[-1][0], stack[-1][1]))
                    continue
                stack.append((b, e))

    def flows(self):
        for f, src in self.flow_src.items():
            dst = self.flow_dst.get(f)
            if dst is None:
                self.error('flow %s has no end' % f)
            elif src[:2] > dst[:2]:
                self.error('flow %s runs backwards (%d -> %d)' % (f, src[0], dst[0]))
            elif self.listing:
                print('flow', self.track_name.get(src[2]), src[0],
                      self.track_name.get(dst[2]), dst[0])
        for f in self.flow_dst:
            if f not in self.flow_src:
                self.error('flow %s has no start' % f)
        self.n['flows'] = len(self.flow_src)

    def finish(self):
        for track in self.open_begin:
            self.error('track %d: a slice never ends' % track)
        self.nesting()
        self.flows()


def main():
    argv = sys.argv[1:]
    listing = argv[:1] == ['--list']
    if listing:
        argv = argv[1:]
    path = argv[0]
    root = argv[1] if len(argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), '..', '..', 'third_party', 'perfetto')
    c = Check()
    c.listing = listing
    try:
        for pos, pkt in enumerate(packets(decode(path, root))):
            c.packet(pkt, pos)
    except (ValueError, IndexError, KeyError) as e:
        c.error('cannot decode %s: %s' % (path, e))
    c.finish()
    for k in sorted(c.n):
        print(k, c.n[k])
    sys.exit(1 if c.errors else 0)


if __name__ == '__main__':
    main()
