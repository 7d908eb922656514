#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Lists the C functions longer than N lines (docs/hacking.md, "Style": none over 100).

  long_functions.py [N] [DIR...]      (default: 100, the source folders)
  long_functions.py --check [N]       the product's folders only (not tests, bench):
                                      exit status 1 when any function is longer

A function is counted from the first line of its signature to its closing brace,
in the house style: the opening and closing braces of a function body stand alone
at column 0.  Prints "LINES FILE:LINE NAME", longest first; NAME is the word before the
parameter list, over the whole signature, __attribute__((...)) skipped.
"""
import os
import re
import sys

DIRS = ["analyze", "cli", "core", "formats", "include", "record", "render", "report",
        "tests", "bench"]


def strip_attributes(sig):
    """@sig without its __attribute__((...)) parts, whose parentheses would hide the name."""
    out = ""
    while True:
        k = sig.find("__attribute__")
        if k < 0:
            return out + sig
        out += sig[:k]
        i = sig.find("(", k)
        if i < 0:
            return out
        depth = 0
        for j in range(i, len(sig)):
            depth += {"(": 1, ")": -1}.get(sig[j], 0)
            if depth == 0:
                break
        sig = sig[j + 1:]


def functions(path):
    lines = open(path, errors="replace").read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i] == "{":
            j = i - 1	# back to the signature's first line (not indented)
            while j > 0 and lines[j][:1] in ("\t", " ") and lines[j].strip():
                j -= 1
            k = i + 1
            while k < len(lines) and lines[k] != "}" and not lines[k].startswith("};"):
                k += 1
            m = re.search(r"(\w+)\s*\(", strip_attributes(" ".join(lines[j:i])))
            if m:
                yield k - j + 1, j + 1, m.group(1)
            i = k
        i += 1


def main():
    args = sys.argv[1:]
    check = bool(args) and args[0] == "--check"
    if check:
        args.pop(0)
    limit = int(args.pop(0)) if args and args[0].isdigit() else 100
    if check:
        args = [d for d in DIRS if d not in ("tests", "bench")]
    found = []
    for top in args or DIRS:
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("build"))
            for name in sorted(filenames):
                if name.endswith((".c", ".h")):
                    path = os.path.join(dirpath, name)
                    found += [(n, path, line, fn) for n, line, fn in functions(path)
                              if n > limit]
    for n, path, line, fn in sorted(found, key=lambda f: -f[0]):
        print(f"{n:5d} {path}:{line} {fn}")
    if check and found:
        sys.exit(1)


if __name__ == "__main__":
    main()
