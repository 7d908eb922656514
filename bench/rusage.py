#!/usr/bin/env python3
"""rusage.py OUT CMD...: runs CMD, writes the CPU seconds (user+sys) of CMD and everything it
waited for to OUT, exits with CMD's status."""
import resource
import subprocess
import sys

r = subprocess.run(sys.argv[2:])
u = resource.getrusage(resource.RUSAGE_CHILDREN)
with open(sys.argv[1], "w") as f:
    f.write("%.6f\n" % (u.ru_utime + u.ru_stime))
sys.exit(r.returncode)
