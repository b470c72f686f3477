#!/usr/bin/env python3
"""test/repl/core_test.py: the REPL in a real frame. Builds
progs/core_prog.c (gcc -g -O0), stops it in probe() under gdb and writes a
core with gcore, asks gdb where and what x, k and g are, then runs a
`dwexpr run` session (`core`, `frame`, `var`, `read`, `expect`) whose
expectations are gdb's answers; then the same program stops itself
(SIGSTOP in probe) and a session `attach`es to it, finds probe's and
main's frames and reads x, k and g in the live process. TAP. Skips when
gdb or gcc is missing.
Usage: core_test.py DWEXPR SRCDIR"""
import json
import os
import re
import signal
import time
import shutil
import subprocess
import sys
import tempfile

dwexpr, srcdir = os.path.abspath(sys.argv[1]), sys.argv[2]
gdb, cc = shutil.which("gdb"), shutil.which("gcc")
if not gdb or not cc:
    print("1..0 # SKIP %s not installed" % ("gdb" if not gdb else "gcc"))
    sys.exit(0)

tmp = tempfile.mkdtemp(prefix="dwexpr-core-")
try:
    exe, core = os.path.join(tmp, "core_prog"), os.path.join(tmp, "core_prog.core")
    subprocess.run([cc, "-g", "-O0", "-o", exe, os.path.join(srcdir, "progs", "core_prog.c")],
                   check=True)
    subprocess.run([gdb, "-batch", "-nx", "-ex", "break probe", "-ex", "run",
                    "-ex", "gcore " + core, exe], check=True, capture_output=True)
    out = subprocess.run([gdb, "-batch", "-nx", "-ex", "frame 0", "-ex", "p/x &x", "-ex", "p x",
                          "-ex", "frame 1", "-ex", "p/x &k", "-ex", "p k", "-ex", "p/x &g",
                          exe, core], capture_output=True, text=True).stdout
    vals = re.findall(r"^\$\d+ = (?:\(.*?\) )?(\S+)$", out, re.M)
    addr_x, x, addr_k, k, addr_g = vals[:5]
    le = lambda v: int(v).to_bytes(4, "little").hex()
    script = """core {core} {exe}
frame 0
var x
expect location mem:{addr_x}
read 32
expect read {x}
frame 1
var k
expect location mem:{addr_k}
read 32
expect read {k}
var g
expect location mem:{addr_g}
read 32
expect read 05000000
var nosuch
expect error usage
frame 99
expect error usage
""".format(core=core, exe=exe, addr_x=addr_x, x=le(x), addr_k=addr_k, k=le(k), addr_g=addr_g)
    path = os.path.join(tmp, "core.dws")
    open(path, "w").write(script)
    p = subprocess.run([dwexpr, "run", path], capture_output=True, text=True, timeout=120)
    checks = [
        ("gdb answered", len(vals) >= 5),
        ("frame 0 is probe", "#0 probe pc" in p.stdout),
        ("frame 1 is main", "#1 main pc" in p.stdout),
        ("the session's expects hold (gdb's addresses and values)", p.returncode == 0),
    ]
    # attach: the program stops itself in probe (frame 0 is libc's kill)
    proc = subprocess.Popen([exe, "stop"], stdout=subprocess.DEVNULL)
    try:
        stopped = False
        for _ in range(200):
            with open("/proc/%d/stat" % proc.pid) as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "T":
                    stopped = True
                    break
            time.sleep(0.02)
        fr = subprocess.run([dwexpr, "frames", "--json", "--pid", str(proc.pid), exe],
                            capture_output=True, text=True, timeout=60)
        names = [f.get("function") for f in json.loads(fr.stdout or "{}").get("frames", [])]
        iprobe = names.index("probe") if "probe" in names else -1
        imain = names.index("main") if "main" in names else -1
        script = """attach {pid} {exe}
frame {iprobe}
var x
read 32
expect read 15000000
frame {imain}
var k
read 32
expect read 15000000
var g
read 32
expect read 05000000
""".format(pid=proc.pid, exe=exe, iprobe=iprobe, imain=imain)
        path = os.path.join(tmp, "attach.dws")
        open(path, "w").write(script)
        a = subprocess.run([dwexpr, "run", path], capture_output=True, text=True, timeout=120)
        with open("/proc/%d/stat" % proc.pid) as f:
            still = f.read().rsplit(")", 1)[1].split()[0] == "T"
        checks += [
            ("the self-stopping process stopped", stopped),
            ("dwexpr frames --pid finds probe above main", 0 <= iprobe < imain),
            ("attach: x (21), k (21) and g (5) read from the live process", a.returncode == 0),
            ("the process is left stopped after the session", still),
        ]
        p = a if a.returncode != 0 else p
    finally:
        proc.kill()
        proc.wait()
finally:
    shutil.rmtree(tmp, ignore_errors=True)
print("1..%d" % len(checks))
for i, (name, ok) in enumerate(checks, 1):
    print("%s %d - %s" % ("ok" if ok else "not ok", i, name))
if not all(ok for _, ok in checks):
    for l in (p.stdout + p.stderr).splitlines()[-40:]:
        print("# " + l)
    sys.exit(1)
