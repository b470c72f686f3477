#!/usr/bin/env python3
# test/cfi/run_real.py DRIVER SRCDIR WORKDIR: builds the test programs with
# gcc and clang at -O0 and -O2 (one -fomit-frame-pointer, one with a
# signal frame), stops each in probe() under gdb and writes a core with
# `gcore`, then compares every frame's pc and CFA from
# `DRIVER frames --core CORE --json EXE` with gdb's `info frame` (TAP).
# Skips (TAP "1..0 # SKIP") only when gdb or both compilers are missing.
import json
import os
import shutil
import subprocess
import sys

driver, srcdir, work = sys.argv[1], sys.argv[2], sys.argv[3]  # driver: the dwexpr CLI
gdb = shutil.which("gdb")
ccs = [c for c in ("gcc", "clang") if shutil.which(c)]
if not gdb or not ccs:
    print("1..0 # SKIP %s not installed" % ("gdb" if not gdb else "gcc and clang"))
    sys.exit(0)

# gdb frame types (gdb.NORMAL_FRAME ...): inline and tail-call frames are
# gdb's inventions from DWARF debug info, not CFI frames.
INLINE, TAILCALL, SIGTRAMP = 2, 3, 4

variants = []
for cc in ccs:
    variants.append((cc, "-O0", "prog_basic.c"))
    variants.append((cc, "-O2", "prog_basic.c"))
variants.append((ccs[0], "-O2 -fomit-frame-pointer", "prog_basic.c"))
variants.append((ccs[-1], "-O0 -fomit-frame-pointer", "prog_basic.c"))
variants.append((ccs[0], "-O0", "prog_signal.c"))
variants.append((ccs[-1], "-O2", "prog_signal.c"))

os.makedirs(work, exist_ok=True)
n = 0
failed = 0
frames_checked = 0
frames_agree = 0


def tap(ok, msg, detail=None):
    global n, failed
    n += 1
    if not ok:
        failed += 1
    print("%s %d - %s" % ("ok" if ok else "not ok", n, msg))
    if detail and not ok:
        for line in str(detail).splitlines()[:20]:
            print("#   " + line)


for cc, flags, src in variants:
    name = "%s%s-%s" % (cc, flags.replace(" ", "").replace("-", "_"), src[:-2])
    exe = os.path.join(work, name)
    core = exe + ".core"
    r = subprocess.run([cc, "-g"] + flags.split() + ["-o", exe, os.path.join(srcdir, src)],
                       capture_output=True, text=True)
    if r.returncode:
        tap(False, "%s builds" % name, r.stderr)
        continue
    if os.path.exists(core):
        os.unlink(core)
    r = subprocess.run([gdb, "-batch", "-nx", "-ex", "set backtrace past-main on",
                        "-ex", "handle SIGUSR1 nostop noprint pass",
                        "-ex", "break probe", "-ex", "run", "-ex", "gcore " + core,
                        "-ex", "source " + os.path.join(srcdir, "gdb_frames.py"), exe],
                       capture_output=True, text=True, timeout=120)
    gframes = []
    for line in r.stdout.splitlines():
        if line.startswith("GDBFRAME "):
            p = line.split()
            gframes.append({"pc": int(p[2], 16), "cfa": p[3], "type": int(p[4]), "name": p[5]})
    if not os.path.exists(core) or not gframes:
        tap(False, "%s: gdb made a core and listed frames" % name, r.stdout + r.stderr)
        continue
    r = subprocess.run([driver, "frames", "--core", core, "--json", exe],
                       capture_output=True, text=True, timeout=120)
    try:
        ours = json.loads(r.stdout)["frames"]
        doc = json.loads(r.stdout)
    except (ValueError, KeyError):
        tap(False, "%s: dwexpr frames gives JSON" % name, r.stdout + r.stderr)
        continue
    # gdb's inline/tail-call frames share the CFI frame of the one below
    real = [g for g in gframes if g["type"] not in (INLINE, TAILCALL)]
    tap(len(ours) == len(real), "%s: %d frames (gdb %d)" % (name, len(ours), len(real)),
        "\n".join("%s %x %s" % (g["name"], g["pc"], g["cfa"]) for g in real) + "\n--\n" +
        "\n".join("%s %s %s" % (f["function"], f["pc"], f["cfa"]) for f in ours))
    for i, g in enumerate(real):
        if i >= len(ours):
            break
        f = ours[i]
        frames_checked += 1
        pc_ok = int(f["pc"], 16) == g["pc"]
        # the outermost frame has no CFA in gdb (its frame id is "outer")
        cfa_ok = g["cfa"] in ("0x0", "?") or (f["cfa"] is not None and
                                               int(f["cfa"], 16) == int(g["cfa"], 16))
        if pc_ok and cfa_ok:
            frames_agree += 1
        tap(pc_ok and cfa_ok,
            "%s: frame %d %s pc %s cfa %s" % (name, i, g["name"], f["pc"], f["cfa"]),
            "gdb: pc 0x%x cfa %s (type %d)" % (g["pc"], g["cfa"], g["type"]))
        # a frame GDB names has a name from the ELF symbols (the file's,
        # else its separate debug file's: libc6-dbg names libc's static
        # __libc_start_call_main); the program's own are GDB's names
        own = g["name"] in ("probe", "main", "level1", "level2", "level3", "handler")
        tap(f["function"] != "??" if g["name"] != "??" else True,
            "%s: frame %d named (%s; gdb %s)" % (name, i, f["function"], g["name"]))
        if own:
            tap(f["function"] == g["name"],
                "%s: frame %d is %s, as in gdb" % (name, i, g["name"]), f["function"])
    lu = doc.get("libunwind", {})
    tap(not lu.get("disagreements") and lu.get("checked", 0) > 0,
        "%s: libunwind agrees on %d frames" % (name, lu.get("checked", 0)),
        "\n".join(lu.get("disagreements", [])) + r.stderr)
    tap("error" not in doc, "%s: unwinding ended at the outermost frame" % name,
        json.dumps(doc.get("error")))
    r = subprocess.run([driver, "cfi", exe, "--pc", hex(gframes[0]["pc"] - 0x555555554000
                                                       if gframes[0]["pc"] > 0x555555554000
                                                       else gframes[0]["pc"]), "--json"],
                       capture_output=True, text=True, timeout=60)
    try:
        row = json.loads(r.stdout).get("row")
    except ValueError:
        row = None
    tap(row is not None and "16" in row.get("registers", {}),
        "%s: dwexpr cfi --pc gives probe's row" % name, r.stdout[:2000] + r.stderr)

print("# frames compared with gdb: %d, agreeing: %d" % (frames_checked, frames_agree))
print("1..%d" % n)
sys.exit(1 if failed else 0)
