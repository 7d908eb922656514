#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Rewrites an uncompressed trace.dat v7 as a zlib-compressed one.

  tracedat_v7_zlib.py IN OUT

IN comes from `trace-cmd convert --file-version 7 --compression none`
(trace-cmd on Debian 12 has no zlib support to write one itself).  Layout
from `man 5 trace-cmd.dat.v7`: every metadata section (ids 16-21) compressed
with zlib, the flyrecord data in chunks of 10 pages ("<4 bytes> count, then
per chunk <4> compressed size, <4> uncompressed size, data"), two options
sections (metadata pointers and the rest, then the BUFFER options).  No
strings section: section descriptions are string id 0.
Only little-endian files with one or more flyrecord buffers are handled.
"""
import struct
import sys
import zlib

CHUNK_PAGES = 10


def u16(d, o):
    return struct.unpack_from("<H", d, o)[0]


def u32(d, o):
    return struct.unpack_from("<I", d, o)[0]


def u64(d, o):
    return struct.unpack_from("<Q", d, o)[0]


def cstr(d, o):
    e = d.index(b"\0", o)
    return d[o:e], e + 1


def section(d, off, want):
    sid, flags, _, size = struct.unpack_from("<HHIQ", d, off)
    if sid != want or flags & 1:
        raise SystemExit("section %d at %d: expected uncompressed id %d" % (sid, off, want))
    return d[off + 16:off + 16 + size]


def main():
    d = open(sys.argv[1], "rb").read()
    if d[:10] != b"\x17\x08\x44tracing" or d[10:12] != b"7\0" or d[12] != 0:
        raise SystemExit("not a little-endian trace.dat v7")
    psize = u32(d, 14)
    name, o = cstr(d, 18)
    _, o = cstr(d, o)
    if name != b"none":
        raise SystemExit("input must be uncompressed")
    off = u64(d, o)
    meta = {}                       # id -> uncompressed section data
    others = []                     # (id, data) options kept as they are
    buffers = []                    # (name, clock, page size, [(cpu, bytes)])
    while off:
        opts = section(d, off, 0)
        p = 0
        off = 0
        while p < len(opts):
            oid, size = struct.unpack_from("<HI", opts, p)
            data = opts[p + 6:p + 6 + size]
            p += 6 + size
            if oid == 0:
                off = u64(data, 0)
                break
            if 16 <= oid <= 21:
                meta[oid] = section(d, u64(data, 0), oid)
            elif oid == 3:
                bname, q = cstr(data, 8)
                clock, q = cstr(data, q)
                bpsize, ncpu = struct.unpack_from("<II", data, q)
                q += 8
                cpus = []
                for _ in range(ncpu):
                    cpu, coff, csize = struct.unpack_from("<IQQ", data, q)
                    q += 20
                    cpus.append((cpu, d[coff:coff + csize]))
                buffers.append((bname, clock, bpsize, cpus))
            else:
                others.append((oid, data))

    ver = zlib.ZLIB_VERSION.encode()
    out = bytearray(d[:18] + b"zlib\0" + ver + b"\0")
    first_opt_at = len(out)
    out += b"\0" * 8
    ptrs = []
    for sid in sorted(meta):
        c = zlib.compress(meta[sid])
        ptrs.append((sid, len(out)))
        out += struct.pack("<HHIQII", sid, 1, 0, 8 + len(c), len(c), len(meta[sid])) + c

    def options(opts, next_off):
        body = b"".join(struct.pack("<HI", i, len(x)) + x for i, x in opts)
        body += struct.pack("<HIQ", 0, 8, next_off)
        return struct.pack("<HHIQ", 0, 0, 0, len(body)) + body

    opts1 = [(sid, struct.pack("<Q", at)) for sid, at in ptrs] + others
    struct.pack_into("<Q", out, first_opt_at, len(out))
    out += options(opts1, 0)        # next offset patched below
    opt1_end = len(out)
    bopts = []
    for bname, clock, bpsize, cpus in buffers:
        sec_at = len(out)
        out += b"\0" * 16           # section header, patched below
        pad = -len(out) % psize
        out += b"\0" * pad
        table = b""
        for cpu, raw in cpus:
            at = len(out)
            chunks = []
            step = CHUNK_PAGES * bpsize
            for p in range(0, len(raw), step):
                page = raw[p:p + step]
                chunks.append(struct.pack("<II", 0, len(page)) + zlib.compress(page))
            chunks = [struct.pack("<I", len(c) - 8) + c[4:] for c in chunks]
            blob = struct.pack("<I", len(chunks)) + b"".join(chunks)
            out += blob
            # the recorded size leaves out the 4-byte chunk count (as trace-cmd writes it)
            table += struct.pack("<IQQ", cpu, at, len(blob) - 4)
        struct.pack_into("<HHIQ", out, sec_at, 3, 1, 0, len(out) - sec_at - 16)
        bopts.append((3, struct.pack("<Q", sec_at) + bname + b"\0" + clock + b"\0" +
                      struct.pack("<II", bpsize, len(cpus)) + table))
    opt2_at = len(out)
    out += options(bopts, 0)
    # DONE of the first options section -> the second one
    assert u16(out, opt1_end - 14) == 0
    struct.pack_into("<Q", out, opt1_end - 8, opt2_at)
    open(sys.argv[2], "wb").write(out)


main()
