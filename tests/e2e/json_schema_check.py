#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""json_schema_check.py SCHEMA_DIR KIND FILE...: validates each FILE (JSON) against
docs/schema/latscope-KIND.schema.json (KIND report or summary), the other schema of the
directory reachable by its $id.  Prints "ok FILE" or "invalid FILE: PATH: MESSAGE" per file;
exit 0 when all are valid, 1 otherwise, 77 without the jsonschema module."""
import json
import os
import sys
import warnings

try:
    import jsonschema
except ImportError:
    print('skip: python3-jsonschema missing (scripts/install-deps.sh installs it)')
    sys.exit(77)


def validator(schema_dir, kind):
    schemas = {}
    for name in os.listdir(schema_dir):
        if name.endswith('.schema.json'):
            s = json.load(open(os.path.join(schema_dir, name)))
            schemas[s['$id']] = s
    root = schemas['latscope-%s.schema.json' % kind]
    cls = jsonschema.validators.validator_for(root)
    cls.check_schema(root)
    try:	# jsonschema >= 4.18
        from referencing import Registry, Resource
        reg = Registry().with_resources((i, Resource.from_contents(s))
                                        for i, s in schemas.items())
        return cls(root, registry=reg)
    except ImportError:	# Debian 12's 4.10
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', DeprecationWarning)
            res = jsonschema.RefResolver.from_schema(root, store=schemas)
        return cls(root, resolver=res)


def main():
    v = validator(sys.argv[1], sys.argv[2])
    bad = 0
    for path in sys.argv[3:]:
        err = next(iter(sorted(v.iter_errors(json.load(open(path))),
                               key=lambda e: list(e.absolute_path))), None)
        if err is None:
            print('ok', path)
        else:
            bad += 1
            print('invalid %s: /%s: %s' % (path, '/'.join(str(p) for p in err.absolute_path),
                                          err.message[:200]))
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
