#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Lists the names declared outside include/latscope/ that take the public prefix.

  private_names.py [--check]

docs/hacking.md, "names": `lat_` / `LAT_` means what include/latscope/ exports; a
private name takes its module's prefix.  A name counts as declared here when a
header or source of the product's folders (not tests, bench) defines it at column 0:
a function, a struct/enum/union with a body, a typedef, a macro, or an extern
object.  Names the public headers mention (an opaque struct a public struct points
to, say) are public.  Prints "FILE:LINE NAME"; --check exits 1 when any is found.
Static helpers are file-local and go without a prefix, so they are not listed.
"""
import os
import re
import sys

DIRS = ["analyze", "cli", "core", "formats", "record", "render", "report"]
DECL = [
    re.compile(r"^(?!static\b)(?:extern\s+|inline\s+)*(?:const\s+)?(?:struct\s+|enum\s+|union\s+|"
               r"unsigned\s+)?\w+[\s*]+(?:const\s+)?\**((?:lat|LAT)_\w+)\s*[(\[=;]"),
    re.compile(r"^(?:struct|enum|union)\s+((?:lat|LAT)_\w+)\s*\{"),
    re.compile(r"^#\s*define\s+((?:lat|LAT)_\w+)"),
    re.compile(r"^}\s*((?:lat|LAT)_\w+)\s*;"),
    re.compile(r"^typedef\b.*?\(\*\s*((?:lat|LAT)_\w+)\)"),
    re.compile(r"^\s+((?:LAT)_[A-Z0-9_]+)\s*(?:=[^=]|,|$)"),
]


def public_names(root):
    names = set()
    inc = os.path.join(root, "include", "latscope")
    for f in sorted(os.listdir(inc)):
        with open(os.path.join(inc, f), errors="replace") as h:
            names |= set(re.findall(r"\b(?:lat|LAT)_\w+", h.read()))
    return names


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    pub = public_names(root)
    found = []
    for d in DIRS:
        for dirpath, _, files in os.walk(os.path.join(root, d)):
            for f in sorted(files):
                if not f.endswith((".c", ".h")):
                    continue
                path = os.path.join(dirpath, f)
                with open(path, errors="replace") as src:
                    for n, line in enumerate(src, 1):
                        for rx in DECL:
                            m = rx.match(line)
                            if m and m.group(1) not in pub:
                                found.append("%s:%d %s" % (os.path.relpath(path, root), n,
                                                           m.group(1)))
                                break
    for line in found:
        print(line)
    return 1 if found and "--check" in sys.argv[1:] else 0


if __name__ == "__main__":
    sys.exit(main())
