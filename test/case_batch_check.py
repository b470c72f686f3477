#!/usr/bin/env python3
"""case_batch_check.py DRIVER DWEXPR: TAP checks of the case suite's batch
driver (dwexpr-case-batch, test/case_batch.c) and of run_cases.py's Batch.

- a command line answers in the driver exactly as in a dwexpr process
  (exit status, stdout, stderr), stdin included, request after request;
- a truncated or malformed request ends the driver with exit 2 and a
  message, after answering the requests before it (never a crash);
- Batch turns a driver that dies or hangs into a failed command line with
  the driver's stderr, and starts a new driver for the next one.
Python 3 stdlib only.
"""
import os, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_cases  # noqa: E402

DRIVER, DWEXPR = sys.argv[1], sys.argv[2]
results = []


def check(name, ok, *diag):
    """One TAP result (printed at the end, after the plan)."""
    results.append((name, ok, diag))


def request(argv, stdin=b''):
    """The bytes of one request (protocol: test/case_batch.c)."""
    args = [a.encode() for a in argv]
    return b'run %d %d\n' % (len(args), len(stdin)) + \
        b''.join(b'%d\n%s' % (len(a), a) for a in args) + stdin


def drive(data, tmp):
    """Feed DATA to a new driver -> (exit status, stdout bytes, stderr text)."""
    p = subprocess.run([DRIVER, tmp], input=data, capture_output=True, timeout=60)
    return p.returncode, p.stdout, p.stderr.decode(errors='replace')


def process(argv, stdin=b''):
    """ARGV as a dwexpr process -> (exit status, stdout, stderr) as bytes."""
    p = subprocess.run([DWEXPR] + argv, input=stdin, capture_output=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def answers(out):
    """The responses in a driver's stdout -> [(status, stdout, stderr)], rest."""
    got = []
    while out.startswith(b'done '):
        head, _, rest = out.partition(b'\n')
        status, olen, elen = (int(x) for x in head.split()[1:])
        got.append((status, rest[:olen], rest[olen:olen + elen]))
        out = rest[olen + elen:]
    return got, out


def main():
    # command lines of each kind the suite sends: JSON, text, stdin,
    # failures with stderr, usage errors, long output
    lines = [
        (['eval', '--json', 'DW_OP_lit1 DW_OP_lit2 DW_OP_plus'], b''),
        (['asm', '-'], b'0x0000: DW_OP_breg6 (rbp) -8  # comment\nDW_OP_deref\n'),
        (['asm', '-'], b''),                      # stdin empty again: nothing left over
        (['eval', '--json', '--context', '-', 'DW_OP_reg0'], b'{"arch": "x86_64"}'),
        (['disasm', '76 78'], b''),               # decode error: exit 1, stderr
        (['eval', '--bogus', '--json'], b''),     # usage error: exit 2, JSON and stderr
        (['asm', 'DW_OP_lit1'], b'unread stdin'),
        (['eval', '-x', '-'], b'31 32 22'),
        (['ops', '--json'], b''),
        (['--help'], b''),
        (['nosuchcommand'], b''),
    ]
    with tempfile.TemporaryDirectory(prefix='dwexpr-batch-check-') as tmp:
        stream = b''.join(request([DWEXPR] + a, s) for a, s in lines)
        code, out, err = drive(stream, tmp)
        got, rest = answers(out)
        check('driver answers %d requests and exits 0 at end of input' % len(lines),
              code == 0 and len(got) == len(lines) and not rest and not err,
              'exit %s, %d answers, stderr %r' % (code, len(got), err[:2000]))
        for (argv, stdin), ans in zip(lines, got):
            want = process(argv, stdin)
            check('same as a process: dwexpr %s' % ' '.join(argv), ans == want,
                  'batch %r' % (ans,), 'process %r' % (want,))

        # truncated requests: cut inside and at the end of every field of
        # the second request; the first one is answered, then exit 2
        first = request([DWEXPR, 'eval', '--json', 'DW_OP_lit3'])
        second = request([DWEXPR, 'asm', '-'], b'DW_OP_lit1')
        cuts = sorted({1, 3, 4, 5, 6, 8, 9, 10, 11, 12, len(second) - 12, len(second) - 11,
                       len(second) - 10, len(second) - 5, len(second) - 1})
        for cut in cuts:
            code, out, err = drive(first + second[:cut], tmp)
            got, rest = answers(out)
            check('request cut after %d of %d bytes: exit 2 with a message' % (cut, len(second)),
                  code == 2 and len(got) == 1 and not rest and
                  'dwexpr-case-batch: truncated request' in err,
                  'exit %s, %d answers, stderr %r' % (code, len(got), err[:2000]))

        malformed = {
            'not a run request': b'go 1 0\n6\ndwexpr',
            'ARGC not a number': b'run x 0\n',
            'ARGC 0': b'run 0 0\n',
            'ARGC too big': b'run 99999 0\n',
            'LEN not a number': b'run 1 0\nsix\ndwexpr',
            'LEN too big': b'run 1 0\n99999999999\n',
            'NUL inside an argument': b'run 2 0\n6\ndwexpr4\ne\0al',
            'no newline after STDINLEN': b'run 1 0 \n',
        }
        for name, data in malformed.items():
            code, out, err = drive(data, tmp)
            check('malformed request (%s): exit 2 with a message' % name,
                  code == 2 and not out and 'dwexpr-case-batch: bad request' in err,
                  'exit %s, stdout %r, stderr %r' % (code, out[:200], err[:2000]))

        # Batch: a driver that dies or hangs fails that command line only
        fake = os.path.join(tmp, 'fake-driver')
        count = os.path.join(tmp, 'starts')
        with open(fake, 'w') as f:
            f.write('#!/bin/sh\necho start >> %s\nread line\n'
                    'case "$line" in *" 1 "*) echo boom >&2; exit 3;; esac\nexec sleep 30\n' % count)
        os.chmod(fake, 0o755)
        run_cases.TIMEOUT = 2
        batch = run_cases.Batch(fake, tmp)
        died = batch.run(['dwexpr'], None)          # "run 1 0": the fake dies
        hung = batch.run(['dwexpr', 'eval'], None)  # "run 2 0": the fake hangs
        with open(count) as f:
            starts = len(f.read().split())
        check('Batch: a driver that dies fails the command line with its stderr',
              died == ('batch driver died: exit 3', '', 'boom\n'), repr(died))
        check('Batch: a driver that hangs times out, a new one was started',
              hung == ('timeout', '', '') and starts == 2, repr(hung), 'starts %d' % starts)
        check('Batch: nothing left running', batch.proc is None and batch.close() is None)

    print('1..%d' % len(results))
    for n, (name, ok, diag) in enumerate(results, 1):
        print('%s %d - %s' % ('ok' if ok else 'not ok', n, name))
        for d in ([] if ok else diag):
            for line in str(d).splitlines():
                print('#   ' + line)
    return 0 if all(ok for _, ok, _ in results) else 1


if __name__ == '__main__':
    sys.exit(main())
