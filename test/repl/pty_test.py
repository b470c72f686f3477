#!/usr/bin/env python3
"""test/repl/pty_test.py: drive `dwexpr repl` through a pseudo-terminal as
a person does: tab completion, history across sessions, Ctrl-C during an
endless DW_OP_skip loop, Ctrl-C and Ctrl-D at the prompt, an error that
keeps the session, and the rendered picture of a three-part composite.
TAP output. Usage: pty_test.py DWEXPR"""
import os
import pty
import re
import select
import shutil
import sys
import tempfile
import time

DWEXPR = sys.argv[1]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\x1b[=>]|\x07|\r")
PROMPT = "dwexpr> "


class Session:
    """One `dwexpr repl` on a pty; all output kept in self.text (escape
    sequences and carriage returns removed)."""

    def __init__(self, home, args=("repl",)):
        env = dict(os.environ, HOME=home, TERM="xterm", COLUMNS="80", LINES="40")
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execve(DWEXPR, [DWEXPR] + list(args), env)
        self.raw = b""
        self.mark = 0

    @property
    def text(self):
        return ANSI.sub("", self.raw.decode("utf-8", "replace"))

    def pump(self, secs):
        end = time.time() + secs
        while True:
            left = end - time.time()
            if left <= 0:
                return
            r, _, _ = select.select([self.fd], [], [], left)
            if not r:
                return
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                return
            if not data:
                return
            self.raw += data

    def wait_for(self, what, secs=10.0):
        """Wait until WHAT appears after the mark; returns the new text."""
        end = time.time() + secs
        while time.time() < end:
            t = self.text[self.mark:]
            if what in t:
                return t
            self.pump(0.05)
        return None

    def send(self, s):
        self.mark = len(self.text)
        os.write(self.fd, s.encode())

    def command(self, line, until=PROMPT, secs=10.0):
        self.send(line + "\r")
        return self.wait_for(until, secs)

    def close(self):
        """Ctrl-D; returns the exit status."""
        self.send("\x04")
        end = time.time() + 10
        while time.time() < end:
            self.pump(0.05)
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return os.WEXITSTATUS(status) if os.WIFEXITED(status) else -1
        os.kill(self.pid, 9)
        os.waitpid(self.pid, 0)
        return -2


results = []


def check(name, ok, detail=""):
    results.append((name, ok, detail))


def main():
    home = tempfile.mkdtemp(prefix="dwexpr-pty-")
    try:
        s = Session(home)
        check("prompt appears", s.wait_for(PROMPT) is not None, s.text)

        # completion: a unique operation prefix completes in place
        # (a completed word gets a blank after it)
        out = s.command("eval DW_OP_lit5 DW_OP_plus_u\t4", until="value:")
        check("tab completes an operation name",
              out is not None and "DW_OP_plus_uconst 4" in out and "generic64 0x9 (9)" in out,
              out or s.text[s.mark:])
        s.wait_for(PROMPT)
        # completion: a command name
        s.command("arch x86_64")
        out = s.command("regn\trb", until=PROMPT)
        out = s.wait_for("rbx", 5) and s.text[s.mark:]
        check("tab completes a command name", out and "regnames rb" in out and "rbp=6" in out,
              out or s.text[s.mark:])
        # completion: a register name of the current architecture
        s.command("arch amdgpu-wave64")
        out = s.command("reg STA\t0x2a", until="(42)")
        check("tab completes a register name of the arch",
              out is not None and "reg STATUS 0x2a" in out and "STATUS (128) = 0x2a (42)" in out,
              out or s.text[s.mark:])
        s.wait_for(PROMPT)
        # several candidates: a second tab lists them
        s.send("eval DW_OP_LLVM_o\t\t")
        out = s.wait_for("DW_OP_LLVM_offset_uconst", 5)
        check("double tab lists the candidates",
              out is not None and "DW_OP_LLVM_offset" in out, out or s.text[s.mark:])
        s.send("\x15\r")  # kill the line
        s.wait_for(PROMPT)

        # an error names what was wrong and keeps the session
        out = s.command("frobnicate 1")
        check("an unknown command is one error line",
              out is not None and 'error: unknown command "frobnicate"' in out, out or "")
        out = s.command("eval DW_OP_lit1 DW_OP_plus")
        check("an evaluation error shows a caret under the operation",
              out is not None and "error (ill_formed) at 0x0001 DW_OP_plus" in out
              and "  DW_OP_lit1 DW_OP_plus\n             ^" in out, out or "")

        # Ctrl-C during an endless loop stops the evaluation, not the REPL
        s.command("limit steps 100000000000")
        s.send("eval DW_OP_skip -3\r")
        time.sleep(1.0)
        s.pump(0.2)
        looping = PROMPT not in s.text[s.mark + len("eval DW_OP_skip -3"):]
        s.send("\x03")
        out = s.wait_for("interrupted", 10)
        check("the endless loop runs until Ctrl-C", looping, s.text[s.mark:])
        check("Ctrl-C interrupts the evaluation",
              out is not None and "error (limit) at 0x0000 DW_OP_skip: evaluation interrupted" in out,
              out or s.text[s.mark:])
        s.wait_for(PROMPT)
        out = s.command("eval DW_OP_lit3", until="value:")
        check("the session goes on after Ctrl-C", out is not None and "generic64 0x3 (3)" in out,
              out or "")
        s.wait_for(PROMPT)
        # Ctrl-C at the prompt: a fresh prompt, the session goes on
        s.send("\x03")
        s.pump(0.5)
        out = s.command("eval DW_OP_lit4", until="value:")
        check("Ctrl-C at the prompt keeps the session", out is not None and "(4)" in out,
              out or s.text)
        s.wait_for(PROMPT)

        # multi-line input: a trailing backslash continues
        s.send("eval DW_OP_lit1 \\\r")
        s.wait_for("...>")
        out = s.command("DW_OP_lit2 DW_OP_plus", until="value:")
        check("a trailing backslash continues the line",
              out is not None and "generic64 0x3 (3)" in out, out or s.text[s.mark:])
        s.wait_for(PROMPT)

        # the picture of a three-part composite, as rendered
        s.command("arch x86_64")
        s.command("eval DW_OP_reg0 DW_OP_piece 4 DW_OP_addr 0x1000 DW_OP_piece 4 DW_OP_piece 2")
        out = s.command("picture")
        want = """an object of 10B (bits 0..80)
0                           32                             64               80
+---------------------------+------------------------------+----------------+
| reg rax                   | mem:0x1000                   | undef          |
+---------------------------+------------------------------+----------------+
  bits  0..32    4B  reg rax
  bits 32..64    4B  mem:0x1000
  bits 64..80    2B  undef
"""
        check("the three-part composite picture", out is not None and want in out,
              out or s.text[s.mark:])
        check("the picture fits 80 columns",
              out is not None and max(len(l) for l in out.split("\n")) < 80, out or "")
        s.command("eval DW_OP_lit7")
        status = s.close()
        check("Ctrl-D leaves with status 0", status == 0, "status %r" % status)

        # libedit writes the history file strvis-encoded (\\040 for a blank)
        hist = open(os.path.join(home, ".dwexpr_history")).read().replace("\\040", " ")
        check("history is kept in ~/.dwexpr_history", "eval DW_OP_lit7" in hist, hist)

        # a new session recalls the last command with the up arrow
        s = Session(home)
        s.wait_for(PROMPT)
        s.send("\x1b[A")
        out = s.wait_for("eval DW_OP_lit7", 5)
        s.send("\r")
        out = s.wait_for("value:", 5) and s.text[s.mark:]
        check("up arrow recalls history from the last session",
              out and "generic64 0x7 (7)" in out, s.text)
        s.wait_for(PROMPT)
        # trace in a session: each operation once, with the stack it leaves
        s.command("trace on")
        s.command("start DW_OP_lit1 DW_OP_lit2 DW_OP_plus")
        s.command("step")
        out = s.command("continue", until="value:")
        check("trace while stepping prints each operation once",
              out is not None and out.count("0x0001 DW_OP_lit2") == 1
              and "0x0000 DW_OP_lit1" not in out and "generic64 0x3 (3)" in out,
              out or s.text[s.mark:])
        s.wait_for(PROMPT)
        status = s.close()
        check("second session leaves with status 0", status == 0, "status %r" % status)

        # `dwexpr` alone on a terminal is the REPL
        s = Session(home, args=())
        check("dwexpr alone on a terminal starts the REPL", s.wait_for(PROMPT) is not None,
              s.text)
        out = s.command("help", until="quit")
        check("help lists the commands with an example each",
              out is not None and "e.g. reg VGPR0 lane 3 0x40" in out, out or s.text)
        s.wait_for(PROMPT)
        check("and leaves on Ctrl-D", s.close() == 0, s.text)
    finally:
        shutil.rmtree(home, ignore_errors=True)

    print("1..%d" % len(results))
    failed = 0
    for i, (name, ok, detail) in enumerate(results, 1):
        print("%s %d - %s" % ("ok" if ok else "not ok", i, name))
        if not ok:
            failed += 1
            for line in str(detail).splitlines()[-30:]:
                print("#   " + line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
