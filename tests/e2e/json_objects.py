# SPDX-License-Identifier: GPL-2.0-or-later
"""objects(doc): every JSON object (dict) of a parsed document, depth first, the outer one
before those inside it; for the checks that hold for every object wherever it stands (a
thread's tid and pid, docs/json.md).  Imported by the tests' python3 snippets."""


def objects(v):
    if isinstance(v, dict):
        yield v
        for x in v.values():
            yield from objects(x)
    elif isinstance(v, list):
        for x in v:
            yield from objects(x)
