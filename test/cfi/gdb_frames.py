# test/cfi/gdb_frames.py: sourced by gdb after `gcore`: prints one line per
# frame, "GDBFRAME index pc cfa type name", with the CFA taken from
# `info frame`'s "frame at ADDR" (GDB's frame id stack address).
import re
import gdb

f = gdb.newest_frame()
i = 0
while f is not None:
    f.select()
    out = gdb.execute("info frame", to_string=True)
    m = re.search(r"frame at (0x[0-9a-f]+)", out)
    print("GDBFRAME", i, hex(f.pc()), m.group(1) if m else "?", f.type(), f.name() or "??")
    f = f.older()
    i += 1
