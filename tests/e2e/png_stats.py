#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Prints "WIDTH HEIGHT COLOURS NONWHITE_PERMILLE" of an 8-bit RGB/RGBA PNG (no PIL needed):
the number of distinct colours and the share of pixels that are not white, in 1/1000."""
import struct
import sys
import zlib


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def rows(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = ihdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        sys.exit(f"{path}: expected 8-bit RGB or RGBA, not interlaced")
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    out = []
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                line[x] = (line[x] + paeth(a, b, c)) & 255
        out.append(bytes(line))
        prev = line
    return w, h, bpp, out


def main():
    w, h, bpp, lines = rows(sys.argv[1])
    colours, nonwhite = set(), 0
    for line in lines:
        for x in range(0, len(line), bpp):
            px = line[x:x + 3]
            colours.add(px)
            nonwhite += px != b"\xff\xff\xff"
    print(w, h, len(colours), nonwhite * 1000 // (w * h))


main()
