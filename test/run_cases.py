#!/usr/bin/env python3
"""run_cases.py [--batch DRIVER] DWEXPR FILE.cases: run a case file against the dwexpr CLI, print TAP.

    context g64 = {"arch": "generic64"}     named context (JSON may span lines;
    context m64 = g64 + {"memory": [...]}   BASE + JSON deep-merges objects)
    use g64                                  default context of later cases
    case div is signed                       one TAP test; then ctx NAME|JSON|NAME + JSON|none,
      eval [OPTIONS] EXPR...                 one action (eval [-x HEX], asm, disasm, roundtrip),
      want value 0xfffffffffffffffd          stdin lines and `want` lines (check_eval, check_all)

A line not starting with a keyword continues the previous one; `#` lines are
comments. The expression is passed as one argument (negative operands are not
options). Format reference: test/cases/README.md. Python 3 stdlib only.

Each command line runs as its own dwexpr process; with --batch DRIVER (the
test-only dwexpr-case-batch, test/case_batch.c) the commands in
BATCH_COMMANDS run in one long-lived driver process instead (the sanitizer
trees: a sanitized process start and exit cost about 0.1 s), the others
(processes, terminals, signals) still in a process of their own. A case
that kills the driver (crash, sanitizer report, leak, exit()) or times out
fails with the driver's stderr; the next case starts a new driver.
"""
import json, os, re, select, shlex, subprocess, sys, tempfile, time

KEYWORDS = {'context', 'use', 'case', 'ctx', 'eval', 'asm', 'disasm', 'roundtrip', 'spirv', 'run',
            'stdin', 'stdin-hex', 'want'}
ACTIONS = {'eval', 'asm', 'disasm', 'roundtrip', 'spirv', 'run'}
JSON_ACTIONS = {'eval', 'spirv'}   # actions whose stdout is one JSON object
VALUE_OPTS = {'--context', '--result', '--read', '--write', '--lane', '--addr-size',
              '--encoding', '--max-steps', '--diexpr', '--spirv', '--arg', '--bind',
              '--spirv-set'}
NUM_RE = re.compile(r'^[-+]?(0x[0-9a-f]+|\d+)$', re.I)
TIMEOUT = 20
# dwexpr commands --batch runs in-process: those audited for it (no child
# processes, ptrace, terminal, signal handlers or state kept between calls;
# test/case_batch.c). frames, vars, locs, repl, run and anything unknown
# run as a process of their own.
BATCH_COMMANDS = {'eval', 'asm', 'disasm', 'spirv', 'ops', 'cfi', '--help', '-h', 'help',
                  '--version'}


class CaseError(Exception):
    """A malformed case file or expectation (reported as a failing test)."""


class SkipCase(Exception):
    """A case whose tool is missing (reported as a TAP SKIP)."""


# ---- parsing ----

def logical_lines(path):
    """Yield [lineno, keyword, rest], continuation lines joined."""
    cur = None
    with open(path, encoding='utf-8') as f:
        for no, raw in enumerate(f, 1):
            s = raw.strip()
            if not s or s.startswith('#'):
                continue
            word = s.split(None, 1)[0]
            if word in KEYWORDS:
                if cur:
                    yield cur
                cur = [no, word, s[len(word):].strip()]
            elif cur is None:
                raise CaseError('line %d: stray text %r' % (no, s))
            else:
                cur[2] = (cur[2] + ' ' + s).strip()
    if cur:
        yield cur


def merge(base, over):
    """Objects merge key by key (recursively); anything else replaces."""
    if isinstance(base, dict) and isinstance(over, dict):
        return {**base, **{k: merge(base.get(k), v) for k, v in over.items()}}
    return over


def parse_ctx(spec, contexts):
    """NAME | JSON | NAME + JSON [+ JSON...] | none -> dict or None."""
    spec = spec.strip()
    if spec == 'none':
        return None
    result, rest = {}, spec
    m = re.match(r'^([A-Za-z_][\w.-]*)\s*(?:\+\s*(.*))?$', spec, re.S)
    if m:
        if m.group(1) not in contexts:
            raise CaseError('unknown context %r' % m.group(1))
        result, rest = contexts[m.group(1)] or {}, m.group(2) or ''
    while rest.strip():
        try:
            obj, end = json.JSONDecoder().raw_decode(rest.strip())
        except ValueError as e:
            raise CaseError('bad context JSON: %s in %r' % (e, rest.strip()[:60]))
        result = merge(result, obj)
        rest = rest.strip()[end:].strip().lstrip('+')
    return result


def parse_file(path):
    contexts, default, cases = {}, None, []
    for no, kw, rest in logical_lines(path):
        case = cases[-1] if cases else None
        if kw == 'context':
            name, _, spec = rest.partition('=')
            contexts[name.strip()] = parse_ctx(spec, contexts)
        elif kw == 'use':
            default = parse_ctx(rest, contexts)
        elif kw == 'case':
            cases.append({'name': rest, 'line': no, 'file': path, 'ctx': default, 'action': None,
                          'stdin': [], 'wants': []})
        elif case is None:
            raise CaseError('line %d: %s outside a case' % (no, kw))
        elif kw == 'ctx':
            case['ctx'] = parse_ctx(rest, contexts)
        elif kw in ACTIONS:
            if case['action']:
                case['error'] = 'line %d: second action in one case' % no
            case['action'] = (kw, rest)
        elif kw == 'stdin':
            case['stdin'].append(rest)
        elif kw == 'stdin-hex':
            # standard input as bytes a text line cannot hold (NUL, not UTF-8)
            case['stdin_bytes'] = bytes.fromhex(rest)
        else:
            case['wants'].append((no, rest))
    return cases


def eval_argv(rest):
    """Options as separate arguments, then the expression as one argument
    (or -x and the hex of everything after it)."""
    toks, opts, i = shlex.split(rest), [], 0
    while i < len(toks) and toks[i].startswith('-') and not re.match(r'^-\d', toks[i]):
        if toks[i] == '-x':
            return opts + ['-x', ' '.join(toks[i + 1:])]
        opts.append(toks[i])
        if toks[i] in VALUE_OPTS and i + 1 < len(toks):
            i += 1
            opts.append(toks[i])
        i += 1
    return opts + ([' '.join(toks[i:])] if toks[i:] else [])


# ---- comparing ----

def as_int(x):
    if isinstance(x, int) and not isinstance(x, bool):
        return x
    return int(x.strip(), 0) if isinstance(x, str) and NUM_RE.match(x.strip()) else None


def match(want, got, path='$'):
    """None if GOT contains WANT (objects as subsets, lists element-wise with
    equal length, strings case-insensitively, "0x10" == 16), else why not."""
    if isinstance(want, dict):
        if not isinstance(got, dict):
            return '%s: want an object, got %s' % (path, json.dumps(got))
        for k, v in want.items():
            why = match(v, got[k], '%s.%s' % (path, k)) if k in got else \
                '%s: missing key %r' % (path, k)
            if why:
                return why
        return None
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            return '%s: want %d entries, got %s' % (path, len(want), json.dumps(got))
        return next((w for w in (match(a, b, '%s[%d]' % (path, i))
                                 for i, (a, b) in enumerate(zip(want, got))) if w), None)
    if isinstance(want, str) and isinstance(got, str) and \
            want.replace(' ', '').lower() == got.replace(' ', '').lower():
        return None
    if want == got and type(want) == type(got):
        return None
    wi, gi = as_int(want), as_int(got)
    if wi is not None and wi == gi and any(isinstance(x, int) or str(x).lower().startswith('0x')
                                           for x in (want, got)):
        return None
    return '%s: want %s, got %s' % (path, json.dumps(want), json.dumps(got))


def loc_shorthand(words):
    """`memory ADDR [aspace N] [bit N]`, `register N [bit N]`, `implicit HEX`,
    `implicit_pointer DIE [disp N]`, `undefined`, `composite BITS...`."""
    kind, args = words[0], words[1:]
    sld = {'kind': kind}
    if kind == 'composite':
        return dict(sld, bit_offset=0, parts=[{'bit_size': int(a, 0)} for a in args])
    if kind == 'undefined':
        return sld
    first = {'memory': ('address', str), 'register': ('regno', lambda a: int(a, 0)),
             'implicit': ('bytes', str), 'implicit_pointer': ('die', str)}
    if kind not in first:
        raise CaseError('unknown location kind %r' % kind)
    key, conv = first[kind]
    sld.update({key: conv(args[0]), 'bit_offset': 0})
    sld.update({'aspace': 0} if kind == 'memory' else {'displacement': 0}
               if kind == 'implicit_pointer' else {})
    attrs = {'aspace': 'aspace', 'bit': 'bit_offset', 'disp': 'displacement'}
    for k, v in zip(args[1::2], args[2::2]):
        if k not in attrs:
            raise CaseError('unknown location attribute %r' % k)
        sld[attrs[k]] = int(v, 0)
    return sld


def check_eval(spec, code, doc):
    """One `want` line against the JSON of an eval -> None or why not."""
    what, args = spec.split()[0], spec.split()[1:]
    ok_loc = {'ok': True, 'result': {'kind': 'location'}}
    if what == 'value':
        typ = {'encoding': 'generic'}
        if 'type' in args:
            i = args.index('type')
            typ = {'bits': int(args[i + 1], 0), 'encoding': args[i + 2]}
        return match({'ok': True, 'result': {'kind': 'value', 'hex': args[0], 'type': typ}}, doc)
    if what == 'error':
        err = doc.get('error') or {}
        if doc.get('ok') is not False or err.get('class') not in args[0].split('|'):
            return 'want error class %s, got %s' % (args[0], json.dumps(doc))
        for a in args[1:]:
            why = match({'offset': int(a[1:], 0)} if a.startswith('@') else
                        {'op': a if a.startswith('DW_OP_') else 'DW_OP_' + a}, err, '$.error')
            if why:
                return why
        return None if code == 1 else 'want exit status 1, got %s' % code
    if what == 'location' and args[:1] == ['count']:
        ok_loc['result']['locations'] = [{}] * int(args[1])
        return match(ok_loc, doc)
    if what == 'location':
        ok_loc['result']['locations'] = [loc_shorthand(args)]
        return match(ok_loc, doc)
    if what == 'json':
        return match(json.loads(spec[len('json'):]), doc)
    if what == 'read':
        hexs = ''.join(args).lower()
        return match({'read': {'hex': hexs, 'complete': 'xx' not in hexs}}, doc)
    if what == 'reg':
        return match({'after': {'registers': {args[0]: {'bytes': ''.join(args[1:])}}}}, doc)
    if what == 'mem':
        return check_mem(args, doc)
    raise CaseError('unknown expectation %r' % what)


def check_mem(args, doc):
    """`want mem [aspace N] ADDR HEX`: bytes at ADDR in after.memory."""
    aspace = 0
    if args[0] == 'aspace':
        aspace, args = int(args[1], 0), args[2:]
    addr, want = int(args[0], 0), bytes.fromhex(''.join(args[1:]))
    for blk in (doc.get('after') or {}).get('memory') or []:
        base, data = as_int(blk.get('address')), bytes.fromhex(blk.get('bytes', ''))
        if as_int(blk.get('aspace', 0)) == aspace and base is not None and \
                base <= addr and addr + len(want) <= base + len(data):
            got = data[addr - base:addr - base + len(want)]
            return None if got == want else 'memory 0x%x: want %s, got %s' % (
                addr, want.hex(), got.hex())
    return 'memory 0x%x..+%d is not in after.memory' % (addr, len(want))


def norm_line(s):
    """A disasm line without # comments and (register names), numbers decimal."""
    s = re.sub(r'\([^)]*\)', '', re.sub(r'#.*', '', s))
    out = []
    for t in s.split():
        m = re.match(r'^([-+]?(?:0x[0-9a-f]+|\d+))(@\d+)?(:?)$', t, re.I)
        out.append('%d%s%s' % (int(m.group(1), 0), m.group(2) or '', m.group(3)) if m else t)
    return ' '.join(out)


def check_all(kind, wants, code, out):
    """All expectations of a case -> list of failure messages."""
    fails, lines, exit_checked, doc = [], [], False, None
    if kind in JSON_ACTIONS:
        try:
            doc = json.loads(out)
        except ValueError:
            pass
    for no, spec in wants:
        what = (spec.split() or [''])[0]
        try:
            if what == 'exit':
                exit_checked = True
                why = None if str(code) == spec.split()[1] else 'got exit %s' % code
            elif what == 'fail':
                exit_checked = True
                why = None if isinstance(code, int) and code != 0 else 'got exit %s' % code
            elif what == 'bytes':
                got = ' '.join(out.lower().split())
                want = ' '.join(re.findall('..', ''.join(spec.split()[1:]).lower()))
                why = None if got == want and code == 0 else 'got %r (exit %s)' % (got, code)
            elif what == 'empty':
                why = None if not out.strip() else 'stdout is not empty'
            elif what == 'line':
                lines.append(norm_line(spec[len('line'):]))
                why = None
            elif kind not in JSON_ACTIONS:
                raise CaseError('%s is for eval / spirv cases' % what)
            else:
                why = 'stdout is not JSON' if not isinstance(doc, dict) else \
                    check_eval(spec, code, doc)
        except (CaseError, IndexError, ValueError) as e:
            why = 'bad expectation: %s' % e
        if why:
            fails.append('want %s (line %d): %s' % (spec[:100], no, why))
    if lines:
        got = [norm_line(l) for l in out.splitlines() if l.strip()]
        prefix_ok = code != 0 and got[:len(lines)] == lines
        if not (got == lines or prefix_ok) or (code != 0 and not exit_checked):
            fails.append('want lines %s, got %s (exit %s)' % (lines, got, code))
    if kind in JSON_ACTIONS and not exit_checked and isinstance(doc, dict) and not fails:
        if code != (0 if doc.get('ok') else 1):
            fails.append('ok=%s but exit status %s' % (doc.get('ok'), code))
    return fails


# ---- running ----

def run(argv, stdin=None):
    """ARGV as a process -> (exit status or why there is none, stdout, stderr)."""
    try:
        if isinstance(stdin, str):
            stdin = stdin.encode()
        p = subprocess.run(argv, input=stdin, capture_output=True, timeout=TIMEOUT)
        return (p.returncode, p.stdout.decode(errors='replace'),
                p.stderr.decode(errors='replace'))
    except subprocess.TimeoutExpired:
        return 'timeout', '', ''
    except OSError as e:
        return 'cannot run: %s' % e, '', ''


class DriverGone(Exception):
    """The batch driver died or did not answer in time."""


class Batch:
    """dwexpr-case-batch DIR: dwexpr command lines in one process (protocol:
    test/case_batch.c), started on first use and after each failure."""

    def __init__(self, driver, tmp):
        self.driver, self.tmp, self.proc, self.buf, self.err = driver, tmp, None, bytearray(), None

    def start(self):
        """A new driver; its stderr goes to a file (read when it dies)."""
        self.err = tempfile.TemporaryFile(dir=self.tmp)
        self.proc = subprocess.Popen([self.driver, self.tmp], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.err)
        self.buf = bytearray()

    def stop(self, kill):
        """End the driver (KILL: at once, else at end of input) -> (how it
        ended, its stderr). The next request starts a new one."""
        proc, self.proc = self.proc, None
        if kill:
            proc.kill()
        try:
            proc.stdin.close()
        except OSError:
            pass
        try:
            code = proc.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            proc.kill()
            code = proc.wait()
        proc.stdout.close()
        self.err.seek(0)
        err = self.err.read().decode(errors='replace')
        self.err.close()
        how = 'killed by signal %d' % -code if code < 0 else 'exit %d' % code
        return how, err

    def read(self, n, deadline):
        """N bytes of the response (N None: up to a newline, dropped). The
        buffer is a bytearray: appending a chunk does not copy what is there
        (some command lines print 15 MB)."""
        fd = self.proc.stdout.fileno()
        while (b'\n' not in self.buf) if n is None else len(self.buf) < n:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise DriverGone('timeout')
            chunk = os.read(fd, 65536)
            if not chunk:
                raise DriverGone('died')
            self.buf += chunk
        end = self.buf.index(b'\n') + 1 if n is None else n
        got = bytes(self.buf[:end])
        del self.buf[:end]
        return got[:-1] if n is None else got

    def run(self, argv, stdin):
        """ARGV in the driver -> (exit status, stdout, stderr), or a string
        saying why there is no status ('timeout', 'batch driver ...') with the
        driver's stderr."""
        if self.proc is None:
            try:
                self.start()
            except OSError as e:
                return 'cannot run: %s' % e, '', ''
        data = stdin.encode() if isinstance(stdin, str) else stdin or b''
        args = [a.encode() for a in argv]
        req = b'run %d %d\n' % (len(args), len(data)) + \
            b''.join(b'%d\n%s' % (len(a), a) for a in args) + data
        deadline = time.monotonic() + TIMEOUT
        try:
            self.proc.stdin.write(req)
            self.proc.stdin.flush()
            head = self.read(None, deadline).split()
            if len(head) != 4 or head[0] != b'done':
                raise DriverGone('bad response %r' % b' '.join(head))
            status, olen, elen = (int(x) for x in head[1:])
            out, err = self.read(olen, deadline), self.read(elen, deadline)
            return status, out.decode(errors='replace'), err.decode(errors='replace')
        except (DriverGone, OSError, ValueError) as e:
            why = str(e) if isinstance(e, DriverGone) else 'died (%s)' % e
            how, err = self.stop(kill=True)
            return ('timeout' if why == 'timeout' else 'batch driver %s: %s' % (why, how)), '', err

    def close(self):
        """End of the case file -> None, or why the driver failed at exit
        (LeakSanitizer's exit check, a message) with its stderr."""
        if self.proc is None:
            return None
        how, err = self.stop(kill=False)
        return None if how == 'exit 0' and not err.strip() else (how, err)


BATCH = None   # the Batch of --batch


def run_cli(argv, stdin=None):
    """A dwexpr command line: in the batch driver when there is one and
    the command is one of BATCH_COMMANDS, else as a process."""
    if BATCH and len(argv) > 1 and argv[1] in BATCH_COMMANDS:
        return BATCH.run(argv, stdin)
    return run(argv, stdin)


def run_case(dwexpr, case, tmp):
    """-> (ok, diagnostic lines)."""
    if case.get('error') or not case['action']:
        return False, [case.get('error') or 'case has no action']
    kind, rest = case['action']
    ctx_opt, wants = [], case['wants']
    if case['ctx'] is not None:
        cpath = os.path.join(tmp, 'ctx%d.json' % case['line'])
        with open(cpath, 'w') as f:
            json.dump(case['ctx'], f)
        ctx_opt = ['--context', cpath]
    stdin = '\n'.join(case['stdin']) + '\n' if case['stdin'] else case.get('stdin_bytes')
    if kind == 'eval':
        argv = [dwexpr, 'eval', '--json'] + ctx_opt + eval_argv(rest)
    elif kind == 'asm':
        argv = [dwexpr, 'asm'] + ctx_opt + ([rest] if rest else [])
    elif kind == 'disasm':
        argv = [dwexpr, 'disasm'] + ctx_opt + [rest]
    elif kind == 'spirv':
        # dwexpr spirv --json [OPTIONS] MODULE: MODULE relative to the case
        # file; a .spvasm module is assembled with spirv-as first
        args = shlex.split(rest)
        mod = os.path.join(os.path.dirname(os.path.abspath(case['file'])), args[-1])
        if mod.endswith('.spvasm'):
            spv = os.path.join(tmp, 'mod%d.spv' % case['line'])
            code, out, err = run(['spirv-as', '--target-env', 'spv1.0', mod, '-o', spv])
            if isinstance(code, str) and code.startswith('cannot run'):
                raise SkipCase('spirv-as is not installed')
            if code != 0:
                return False, ['spirv-as %s: exit %s' % (mod, code), out, err]
            mod = spv
        argv = [dwexpr, 'spirv', '--json'] + ctx_opt + args[:-1] + [mod]
    elif kind == 'run':
        # dwexpr ARGS exactly as written (shell quoting; {ctx} is the context
        # file): option orders and several arguments eval / asm cannot
        # express; with --json stdout is checked as eval's
        args = [a.replace('{ctx}', ctx_opt[1] if ctx_opt else '') for a in shlex.split(rest)]
        argv = [dwexpr] + args
        if '--json' in args:
            kind = 'eval'
    else:  # roundtrip: asm of disasm's output must give the same bytes
        code, out, err = run_cli([dwexpr, 'disasm'] + ctx_opt + [rest])
        if code != 0:
            return False, ['disasm %s: exit %s' % (rest, code), out, err]
        argv, stdin, wants = [dwexpr, 'asm'] + ctx_opt + ['-'], out, wants + [(0, 'bytes ' + rest)]
    code, out, err = run_cli(argv, stdin)
    diag = ['command: ' + ' '.join(shlex.quote(a) for a in argv)]
    if case['ctx'] is not None:
        diag.append('context: ' + json.dumps(case['ctx']))
    if isinstance(stdin, bytes):
        diag.append('stdin: %r' % stdin)
    elif stdin:
        diag.append('stdin: ' + stdin.strip().replace('\n', ' | '))
    # no exit status (timeout, a dead batch driver): all of its stderr
    diag += ['exit: %s' % code, 'stdout: ' + out.strip(),
             'stderr: ' + err.strip()[:600 if isinstance(code, int) else 20000]]
    fails = check_all(kind, wants, code, out)
    if not isinstance(code, int):
        fails.insert(0, 'no exit status: %s' % code)
    return not fails, fails + diag


def main():
    global BATCH
    args = sys.argv[1:]
    driver = None
    if args[:1] == ['--batch'] and len(args) > 1:
        driver, args = args[1], args[2:]
    if len(args) != 2:
        sys.exit('usage: run_cases.py [--batch DRIVER] DWEXPR FILE.cases')
    dwexpr, path = args
    try:
        cases = parse_file(path)
    except (CaseError, OSError) as e:
        print('1..1\nnot ok 1 - parse %s\n# %s' % (os.path.basename(path), e))
        return 1
    print('1..%d' % len(cases))
    failed = 0
    with tempfile.TemporaryDirectory(prefix='dwexpr-cases-') as tmp:
        BATCH = Batch(driver, tmp) if driver else None
        for n, case in enumerate(cases, 1):
            try:
                ok, diag = run_case(dwexpr, case, tmp)
            except CaseError as e:
                ok, diag = False, ['bad case: %s' % e]
            except SkipCase as e:
                print('ok %d - %s (line %d) # SKIP %s' % (n, case['name'], case['line'], e))
                continue
            failed += not ok
            print('%s %d - %s (line %d)' % ('ok' if ok else 'not ok', n, case['name'], case['line']))
            for d in ([] if ok else diag):
                for l in str(d).splitlines() or ['']:
                    print('#   ' + l)
            sys.stdout.flush()
        bad_end = BATCH.close() if BATCH else None
    if bad_end:
        # after the last case: no TAP result left to fail, the exit status does
        print('# dwexpr-case-batch at the end of the file: %s' % bad_end[0])
        for l in bad_end[1].strip()[:20000].splitlines():
            print('#   ' + l)
        failed += 1
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
