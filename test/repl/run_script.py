#!/usr/bin/env python3
"""test/repl/run_script.py: run one REPL script with `dwexpr run` (in a
fresh temporary directory, so `save`/`load` and `picture --svg` files stay
there) and check it. One TAP result per check:
  - the exit status: 0, or what a `# want-exit: N` line says;
  - each `# want-output: TEXT` line: TEXT appears in stdout or stderr
    (\\n in TEXT stands for a line break);
  - with SCRIPT.out next to it: stdout is exactly that file;
  - each `# want-file: NAME TEXT` line: file NAME was written and holds TEXT.
With a third argument BINARY, $BINARY in the script stands for its path.
Usage: run_script.py DWEXPR SCRIPT [BINARY]"""
import os
import shutil
import subprocess
import sys
import tempfile


def main():
    dwexpr, script = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    text = open(script).read()
    want_exit, outputs, files = 0, [], []
    for line in text.splitlines():
        if line.startswith("# want-exit:"):
            want_exit = int(line.split(":", 1)[1])
        elif line.startswith("# want-output:"):
            # the text after "# want-output: ", "\\n" for a line break
            outputs.append(line.split(":", 1)[1][1:].replace("\\n", "\n"))
        elif line.startswith("# want-file:"):
            name, _, what = line.split(":", 1)[1].strip().partition(" ")
            files.append((name, what))
    tmp = tempfile.mkdtemp(prefix="dwexpr-script-")
    try:
        run = script
        if len(sys.argv) > 3:
            run = os.path.join(tmp, os.path.basename(script))
            with open(run, "w") as f:
                f.write(text.replace("$BINARY", os.path.abspath(sys.argv[3])))
        p = subprocess.run([dwexpr, "run", run], cwd=tmp, capture_output=True, text=True,
                           timeout=120)
        checks = [("exit status %d" % want_exit, p.returncode == want_exit)]
        both = p.stdout + p.stderr
        for o in outputs:
            checks.append(("output has %r" % o, o in both))
        golden = os.path.splitext(script)[0] + ".out"
        if os.path.exists(golden):
            checks.append(("stdout is %s" % os.path.basename(golden),
                           p.stdout == open(golden).read()))
        for name, what in files:
            path = os.path.join(tmp, name)
            checks.append(("file %s has %r" % (name, what),
                           os.path.exists(path) and what in open(path).read()))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("1..%d" % len(checks))
    bad = 0
    for i, (name, ok) in enumerate(checks, 1):
        print("%s %d - %s: %s" % ("ok" if ok else "not ok", i, os.path.basename(script), name))
        bad += not ok
    if bad:
        print("# exit status %d" % p.returncode)
        for l in p.stdout.splitlines()[-40:]:
            print("# out: " + l)
        for l in p.stderr.splitlines()[-20:]:
            print("# err: " + l)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
