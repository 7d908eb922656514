#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Rewrites a trace.dat v6 file (layout: `man 5 trace-cmd.dat.v6`).

  tracedat_v6_tool.py strip IN OUT
      drops the kallsyms (5 MB on a distro kernel) so that a small sample
      stays small; stacks then print as addresses.
  tracedat_v6_tool.py instance IN OUT NAME
      adds an instance buffer NAME (a BUFFER option, as trace-cmd record -B
      writes it) holding a copy of CPU1's pages only, kallsyms dropped too:
      a multi-buffer file for tests.
  tracedat_v6_tool.py inject IN OUT
      appends to CPU0 a page, 1 s after the last event, holding a
      trace_marker write (ftrace:print "hello marker") and a kernel stack
      (ftrace:kernel_stack) of three functions from the file's kallsyms
      (schedule, do_nanosleep, hrtimer_nanosleep, or the first three text
      symbols), laid out as the kernel writes them; kallsyms are kept.
  tracedat_v6_tool.py repeat IN OUT N
      writes every CPU's pages N times, shifting each copy's page timestamps
      by the trace's span so that time still runs forward: a long trace for
      bench/ made from a short real one (the events are real, repeated).
      Written as it is made: a file of many GB needs no more memory than
      the input.
  tracedat_v6_tool.py widen IN OUT NCPU [N]
      a trace of NCPU CPUs (a multiple of IN's): IN's CPUs copied NCPU / CPUS
      times side by side, copy j with every pid above 0 raised by j * 100000,
      every CPU field (target_cpu, orig_cpu, ...) by j * CPUS and its page
      timestamps by j * 997 ns (so that the copies interleave), then repeated
      N times as `repeat` does: independent machines' worth of real events
      on many CPUs, for the reader's threads (bench/).
  tracedat_v6_tool.py window IN OUT FROM TO
      keeps of every CPU only the pages whose header timestamp (ns, the
      trace clock) lies in [FROM, TO], kallsyms and options kept: a short
      stretch of a long recording for samples/ (the events are real, each
      page whole).
  tracedat_v6_tool.py cpus IN
      prints each CPU's page range, OFFSET:SIZE, one per line, then the
      sched_switch and sched_waking ids and field offsets as
      tracedat_floor's options: --sw ID,PREV_PID,PREV_STATE,NEXT_PID
      --wk ID,PID (for bench/tracedat_floor.c).

Only the top buffer of a little-endian, 64-bit-long file is handled.
"""
import struct
import sys


class Reader:
    def __init__(self, data):
        self.d = data
        self.p = 0

    def take(self, n):
        if self.p + n > len(self.d):
            raise SystemExit("file ends early")
        b = self.d[self.p:self.p + n]
        self.p += n
        return b

    def u16(self):
        return struct.unpack("<H", self.take(2))[0]

    def u32(self):
        return struct.unpack("<I", self.take(4))[0]

    def u64(self):
        return struct.unpack("<Q", self.take(8))[0]

    def cstr(self):
        e = self.d.index(b"\0", self.p)
        s = self.d[self.p:e + 1]
        self.p = e + 1
        return s


def parse(data):
    r = Reader(data)
    if r.take(10) != b"\x17\x08\x44tracing":
        raise SystemExit("not a trace.dat")
    if r.cstr() != b"6\0":
        raise SystemExit("not version 6")
    endian, lsize = r.take(2)
    if endian != 0 or lsize != 8:
        raise SystemExit("only little-endian 64-bit files")
    psize = r.u32()
    if r.take(12) != b"header_page\0":
        raise SystemExit("header_page expected")
    r.take(r.u64())
    if r.take(13) != b"header_event\0":
        raise SystemExit("header_event expected")
    r.take(r.u64())
    parse.ftrace = []
    for _ in range(r.u32()):
        parse.ftrace.append(r.take(r.u64()))
    parse.events = []
    for _ in range(r.u32()):
        r.cstr()
        for _ in range(r.u32()):
            parse.events.append(r.take(r.u64()))
    ks_start = r.p
    r.take(r.u32())
    ks_end = r.p
    r.take(r.u32())                 # printk
    r.take(r.u64())                 # cmdlines
    ncpus = r.u32()
    opt_start = r.p
    parse.kallsyms = data[ks_start + 4:ks_end]
    tag = r.take(10)
    if tag == b"options  \0":
        while True:
            oid = r.u16()
            if oid == 0:
                break
            if oid == 3:
                raise SystemExit("instance buffers are not handled")
            r.take(r.u32())
        tag = r.take(10)
    if tag != b"flyrecord\0":
        raise SystemExit("flyrecord expected")
    head_end = r.p
    cpus = [(r.u64(), r.u64()) for _ in range(ncpus)]
    return psize, ks_start, ks_end, opt_start, head_end, cpus


def write(out, head, psize, parts):
    """parts: per CPU, (size, chunks) where chunks() yields its data in pieces."""
    table_len = 16 * len(parts)
    off = -(-(len(head) + table_len) // psize) * psize
    table = b""
    pos = off
    for size, _ in parts:
        table += struct.pack("<QQ", pos, size)
        pos += size + (-size % psize)
    with open(out, "wb") as f:
        f.write(head + table + b"\0" * (off - len(head) - table_len))
        for size, chunks in parts:
            n = 0
            for c in chunks():
                f.write(c)
                n += len(c)
            assert n == size
            f.write(b"\0" * (-size % psize))


def whole(datas):
    return [(len(d), lambda d=d: [d]) for d in datas]


def repeated(d, psize, n, span):
    return (len(d) * n, lambda: (page_ts_shift(d, psize, i * span) for i in range(n)))


def trace_span(datas, psize):
    """From the earliest to the latest page timestamp, + 1 s of slack that
    covers the last page's events (they run past its header's ts)."""
    first = min(struct.unpack_from("<Q", d, 0)[0] for d in datas if d)
    last = max(struct.unpack_from("<Q", d, p)[0] for d in datas
               for p in range(0, len(d), psize))
    return last - first + 1000000000


def page_ts_shift(pages, psize, shift):
    out = bytearray(pages)
    for p in range(0, len(out), psize):
        ts = struct.unpack_from("<Q", out, p)[0]
        struct.pack_into("<Q", out, p, ts + shift)
    return bytes(out)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "cpus":
        for off, size in parse(open(sys.argv[2], "rb").read())[5]:
            print("%d:%d" % (off, size))
        sw = sched_format(b"sched_switch", (b"prev_pid", b"prev_state", b"next_pid"))
        wk = sched_format(b"sched_waking", (b"pid",))
        print("--sw %s --wk %s" % (",".join(map(str, sw)), ",".join(map(str, wk))))
        return
    if len(sys.argv) < 4:
        raise SystemExit(__doc__)
    data = open(sys.argv[2], "rb").read()
    psize, ks_start, ks_end, opt_start, head_end, cpus = parse(data)
    head = data[:ks_start] + struct.pack("<I", 0) + data[ks_end:head_end]
    datas = [data[o:o + s] for o, s in cpus]
    if sys.argv[1] == "strip":
        write(sys.argv[3], head, psize, whole(datas))
    elif sys.argv[1] == "repeat":
        n = int(sys.argv[4])
        span = trace_span(datas, psize)
        write(sys.argv[3], head, psize, [repeated(d, psize, n, span) for d in datas])
    elif sys.argv[1] == "widen":
        widen(sys.argv[3], head, psize, datas, int(sys.argv[4]),
              int(sys.argv[5]) if len(sys.argv) > 5 else 1, ks_end - ks_start - 4, opt_start)
    elif sys.argv[1] == "window" and len(sys.argv) == 6:
        lo, hi = int(sys.argv[4]), int(sys.argv[5])
        write(sys.argv[3], data[:head_end], psize,
              whole([b"".join(d[p:p + psize] for p in range(0, len(d), psize)
                              if lo <= struct.unpack_from("<Q", d, p)[0] <= hi)
                     for d in datas]))
    elif sys.argv[1] == "inject":
        inject(sys.argv[3], data[:head_end], psize, datas)
    elif sys.argv[1] == "instance":
        instance(sys.argv[3], data, psize, ks_start, ks_end, opt_start, head_end, cpus,
                 sys.argv[4].encode())
    else:
        raise SystemExit(__doc__)


def sched_format(name, fields):
    """[id, offset of each field] of sched:NAME, from the file's format."""
    import re
    for f in parse.events:
        if re.search(rb"^name: %s$" % name, f, re.M):
            out = [int(re.search(rb"^ID: (\d+)$", f, re.M).group(1))]
            for fld in fields:
                m = re.search(rb"field:[^;]*[ *]%s(\[\d+\])?;\s*offset:(\d+);" % fld, f)
                if not m:
                    raise SystemExit("sched:%s has no field %s" % (name.decode(), fld.decode()))
                out.append(int(m.group(2)))
            return out
    raise SystemExit("no sched:%s format" % name.decode())


def id_fields():
    """{event id: [(offset, "pid" or "cpu")]}: every 4-byte field named *pid or
    *cpu of every event format (common_pid too)."""
    import re
    out = {}
    for f in parse.ftrace + parse.events:
        m = re.search(rb"^ID: (\d+)$", f, re.M)
        if not m:
            continue
        flds = []
        for fm in re.finditer(rb"field:[^;]*?[ *](\w+);\s*offset:(\d+);\s*size:4;", f):
            name = fm.group(1)
            if name.endswith(b"pid"):
                flds.append((int(fm.group(2)), "pid"))
            elif name.endswith(b"cpu"):
                flds.append((int(fm.group(2)), "cpu"))
        out[int(m.group(1))] = flds
    return out


def patch_pages(d, psize, fields, pid_add, cpu_add, ts_add):
    """A copy of one CPU's pages with its records' pid and CPU fields raised
    (pids above 0, CPUs from 0 on) and its page timestamps moved: the ring
    buffer's layout as tracedat_walk.c's fast_next() reads it."""
    b = bytearray(d)
    for p in range(0, len(b), psize):
        ts, flags = struct.unpack_from("<QQ", b, p)
        struct.pack_into("<Q", b, p, ts + ts_add)
        pos = p + 16
        end = pos + min(flags & ((1 << 27) - 1), psize - 16)
        while pos + 4 <= end:
            h = struct.unpack_from("<I", b, pos)[0]
            tl = h & 31
            if 1 <= tl <= 28:
                rec, ln, pos = pos + 4, tl * 4, pos + 4 + tl * 4
            elif tl == 0 and pos + 8 <= end:
                w = struct.unpack_from("<I", b, pos + 4)[0]
                if w < 4:
                    break
                rec, ln = pos + 8, (w - 4 + 3) & ~3
                pos += 8 + ln
            elif tl == 29 and pos + 8 <= end:
                pos += 4 + struct.unpack_from("<I", b, pos + 4)[0]
                continue
            elif tl in (30, 31):
                pos += 8
                continue
            else:
                break
            if pos > end or ln < 2:
                break
            for off, kind in fields.get(struct.unpack_from("<H", b, rec)[0], ()):
                if off + 4 > ln:
                    continue
                v = struct.unpack_from("<i", b, rec + off)[0]
                if kind == "pid" and v > 0:
                    struct.pack_into("<i", b, rec + off, v + pid_add)
                elif kind == "cpu" and v >= 0:
                    struct.pack_into("<i", b, rec + off, v + cpu_add)
    return bytes(b)


def widen(out, head, psize, datas, ncpu, n, ks_shrink, opt_start):
    if ncpu % len(datas) or ncpu // len(datas) > 40:
        raise SystemExit("NCPU: a multiple of the input's %d CPUs, at most 40 copies" %
                         len(datas))
    fields = id_fields()
    span = trace_span(datas, psize) + 997 * (ncpu // len(datas))
    parts = []
    for j in range(ncpu // len(datas)):
        for k, d in enumerate(datas):
            pd = patch_pages(d, psize, fields, j * 100000, j * len(datas), j * 997)
            parts.append(repeated(pd, psize, n, span))
    # the header's CPU count, the u32 before the options (kallsyms dropped from
    # head), and the CPUCOUNT option (id 8), which trace-cmd goes by
    at = opt_start - 4 - ks_shrink
    head = bytearray(head[:at] + struct.pack("<I", ncpu) + head[at + 4:])
    if head[at + 4:at + 14] == b"options  \0":
        at += 14
        while True:
            oid, size = struct.unpack_from("<HI", head, at)
            if oid == 0:
                break
            if oid == 8 and size == 4:
                struct.pack_into("<I", head, at + 6, ncpu)
            at += 6 + size
    write(out, bytes(head), psize, parts)


def event_id(name):
    import re
    for f in parse.ftrace:
        if re.search(rb"^name: %s$" % name, f, re.M):
            return int(re.search(rb"^ID: (\d+)$", f, re.M).group(1))
    raise SystemExit("no ftrace:%s format" % name.decode())


def inject(out, head, psize, datas):
    syms = {}
    for line in parse.kallsyms.split(b"\n"):
        f = line.split()
        if len(f) >= 3 and f[1] in (b"T", b"t"):
            syms.setdefault(f[2], int(f[0], 16))
    want = [b"schedule", b"do_nanosleep", b"hrtimer_nanosleep"]
    names = [w for w in want if w in syms] or list(syms)[:3]
    ips = [syms[n] + 0x10 for n in names[:3]]
    last = max(struct.unpack_from("<Q", d, p)[0] for d in datas
               for p in range(0, len(d), psize))
    pid = 4242
    text = b"hello marker\n\0"
    text += b"\0" * (-len(text) % 4)
    ev1 = struct.pack("<HBBiQ", event_id(b"print"), 0, 0, pid, 0) + text
    ev2 = struct.pack("<HBBiiI", event_id(b"kernel_stack"), 0, 0, pid, len(ips), 0)
    ev2 += b"".join(struct.pack("<Q", ip) for ip in ips) + b"\0" * 8 * (8 - len(ips))
    body = b""
    for delta, ev in ((1000, ev1), (500, ev2)):
        assert len(ev) % 4 == 0 and len(ev) <= 112
        body += struct.pack("<I", (len(ev) // 4) | (delta << 5)) + ev
    page = struct.pack("<QQ", last + 1000000000, len(body)) + body
    page += b"\0" * (psize - len(page))
    datas[0] = datas[0] + page
    write(out, head, psize, whole(datas))


def instance(out, data, psize, ks_start, ks_end, opt_start, head_end, cpus, name):
    # options of the input (between "options  \0" and the 0 that ends them)
    old = data[opt_start:head_end]
    opts = b""
    if old.startswith(b"options  \0"):
        opts = old[10:-12]          # drop the tag, the final u16 0 and "flyrecord\0"
    bopt_len = 2 + 4 + 8 + len(name) + 1
    head_len = (ks_start + 4 + (opt_start - ks_end) + 10 + len(opts) + bopt_len + 2 + 10)
    pages = lambda n: -(-n // psize) * psize
    top_off = pages(head_len + 16 * len(cpus))
    top = [data[o:o + s] for o, s in cpus]
    inst_off = top_off + sum(pages(len(d)) for d in top)
    inst_data_off = pages(inst_off + 10 + 16 * len(cpus))
    inst = [b"" for _ in cpus]
    inst[1] = top[1]
    bopt = struct.pack("<HIQ", 3, 8 + len(name) + 1, inst_off) + name + b"\0"
    head = (data[:ks_start] + struct.pack("<I", 0) + data[ks_end:opt_start] +
            b"options  \0" + opts + bopt + struct.pack("<H", 0) + b"flyrecord\0")
    assert len(head) == head_len

    def table(base, datas):
        t = b""
        off = base
        for d in datas:
            t += struct.pack("<QQ", off if d else 0, len(d))
            off += pages(len(d))
        return t

    def body(datas):
        return b"".join(d + b"\0" * (pages(len(d)) - len(d)) for d in datas)

    f = head + table(top_off, top)
    f += b"\0" * (top_off - len(f)) + body(top)
    assert len(f) == inst_off
    f += b"flyrecord\0" + table(inst_data_off, inst)
    f += b"\0" * (inst_data_off - len(f)) + body(inst)
    with open(out, "wb") as fp:
        fp.write(f)


main()
