#!/usr/bin/env python3
"""test/examples/same_output.py EXE EXPECTED: run EXE, compare its stdout with
the file EXPECTED line by line (TAP: one line per expected line, plus the
exit status and the line count)."""
import subprocess
import sys

exe, expected = sys.argv[1], sys.argv[2]
want = open(expected).read().splitlines()
run = subprocess.run([exe], capture_output=True, text=True, timeout=60)
got = run.stdout.splitlines()
print("1..%d" % (len(want) + 2))
print("%s 1 - %s exits 0 (%d)" % ("ok" if run.returncode == 0 else "not ok", exe, run.returncode))
print("%s 2 - %d lines (want %d)" % ("ok" if len(got) == len(want) else "not ok", len(got), len(want)))
for i, w in enumerate(want):
    g = got[i] if i < len(got) else "<missing>"
    print("%s %d - %s" % ("ok" if g == w else "not ok", i + 3, w))
    if g != w:
        print("#   got: %s" % g)
