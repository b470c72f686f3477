#!/usr/bin/env python3
"""run_cases.py: run a .cases file against the dwexpr CLI and print TAP.

    python3 run_cases.py PATH/TO/dwexpr FILE.cases

The format (full description in test/cases/README.md):

    # a comment (whole lines only)
    context g64 = {"arch": "generic64"}        # named context; JSON may span lines
    context m64 = g64 + {"memory": [...]}      # BASE + JSON merges (dicts deeply)
    use g64                                     # default context of later cases

    case div is signed                          # one TAP test
      ctx m64 + {"lane": 3}                     # optional: NAME, JSON or NAME + JSON
      eval [OPTIONS] EXPR...                    # or: eval -x HEX / asm EXPR / disasm HEX / roundtrip HEX
      want value 0xfffffffffffffffd             # one or more expectations

A line that does not start with a keyword continues the previous one.
eval runs `dwexpr eval --json [--context TMP] OPTIONS "EXPR"` (the whole
expression is passed as one argument, so `-8` is never taken for an option).
Expectations (see check_* below): value, error, location, json, read, reg,
mem, exit, fail, bytes, line.
"""
import json, os, re, shlex, subprocess, sys, tempfile

KEYWORDS = {'context', 'use', 'case', 'ctx', 'eval', 'asm', 'disasm', 'roundtrip',
            'stdin', 'want'}
ACTIONS = {'eval', 'asm', 'disasm', 'roundtrip'}
VALUE_OPTS = {'--context', '--result', '--read', '--write', '--lane', '--addr-size',
              '--encoding', '--max-steps'}
TIMEOUT = 20


class CaseError(Exception):
    """A malformed case file (reported as a failing test, not a crash)."""


def logical_lines(path):
    """Yield (lineno, keyword, rest, indented) with continuation lines joined."""
    cur = None
    with open(path, encoding='utf-8') as f:
        for no, raw in enumerate(f, 1):
            line = raw.rstrip('\n').rstrip()
            s = line.strip()
            if not s or s.startswith('#'):
                continue
            word = s.split(None, 1)[0]
            if word in KEYWORDS:
                if cur:
                    yield cur
                cur = [no, word, s[len(word):].strip(), line[:1].isspace()]
            elif cur is None:
                raise CaseError('line %d: stray text %r' % (no, s))
            else:
                cur[2] = (cur[2] + ' ' + s).strip()
    if cur:
        yield cur


def merge(base, over):
    """Deep merge of JSON objects: dicts merge key by key, the rest replaces."""
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for k, v in over.items():
            out[k] = merge(base.get(k), v) if k in base else v
        return out
    return over


def parse_ctx(spec, contexts):
    """NAME | JSON | NAME + JSON [+ JSON...] -> dict (or None for 'none')."""
    spec = spec.strip()
    if spec == 'none':
        return None
    result, rest = {}, spec
    m = re.match(r'^([A-Za-z_][\w.-]*)\s*(\+\s*(.*))?$', spec, re.S)
    if m:
        if m.group(1) not in contexts:
            raise CaseError('unknown context %r' % m.group(1))
        result, rest = contexts[m.group(1)] or {}, (m.group(3) or '')
    dec = json.JSONDecoder()
    while rest.strip():
        rest = rest.strip()
        try:
            obj, end = dec.raw_decode(rest)
        except ValueError as e:
            raise CaseError('bad context JSON: %s in %r' % (e, rest[:60]))
        result = merge(result, obj)
        rest = rest[end:].strip()
        if rest.startswith('+'):
            rest = rest[1:]
    return result


def parse_file(path):
    contexts, default, cases, case = {}, None, [], None
    for no, kw, rest, indented in logical_lines(path):
        if kw == 'context':
            name, _, spec = rest.partition('=')
            contexts[name.strip()] = parse_ctx(spec, contexts)
        elif kw == 'use':
            default = parse_ctx(rest, contexts)
        elif kw == 'case':
            case = {'name': rest, 'line': no, 'ctx': default, 'action': None,
                    'stdin': [], 'wants': []}
            cases.append(case)
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
        elif kw == 'want':
            case['wants'].append((no, rest))
    return cases


def run(argv, stdin=None):
    try:
        p = subprocess.run(argv, input=stdin, capture_output=True, text=True,
                           timeout=TIMEOUT)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return 'timeout', '', ''
    except OSError as e:
        return 'cannot run: %s' % e, '', ''


def eval_argv(rest):
    """Split eval arguments into options and one expression argument."""
    toks, opts, i = shlex.split(rest), [], 0
    while i < len(toks) and toks[i].startswith('-') and not re.match(r'^-\d', toks[i]):
        if toks[i] == '-x':
            return opts + ['-x', ' '.join(toks[i + 1:])]
        opts.append(toks[i])
        if toks[i] in VALUE_OPTS and i + 1 < len(toks):
            opts.append(toks[i + 1])
            i += 1
        i += 1
    expr = ' '.join(toks[i:])
    return opts + ([expr] if expr else [])


# ---- comparing ----

NUM_RE = re.compile(r'^[-+]?(0x[0-9a-f]+|\d+)$', re.I)


def as_int(x):
    if isinstance(x, bool):
        return None
    if isinstance(x, int):
        return x
    if isinstance(x, str) and NUM_RE.match(x.strip()):
        return int(x.strip(), 0)
    return None


def match(want, got, path='$'):
    """None if GOT matches WANT (dict subset, equal-length lists), else why."""
    if isinstance(want, dict):
        if not isinstance(got, dict):
            return '%s: want an object, got %s' % (path, json.dumps(got))
        for k, v in want.items():
            if k not in got:
                return '%s: missing key %r' % (path, k)
            why = match(v, got[k], '%s.%s' % (path, k))
            if why:
                return why
        return None
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            return '%s: want %d entries, got %s' % (path, len(want), json.dumps(got))
        for i, (w, g) in enumerate(zip(want, got)):
            why = match(w, g, '%s[%d]' % (path, i))
            if why:
                return why
        return None
    if isinstance(want, str) and isinstance(got, str):
        if want.replace(' ', '').lower() == got.replace(' ', '').lower():
            return None
    if want == got and type(want) == type(got):
        return None
    wi, gi = as_int(want), as_int(got)
    if wi is not None and gi is not None and wi == gi and \
            (isinstance(want, int) or isinstance(got, int) or
             str(want).lower().startswith('0x') or str(got).lower().startswith('0x')):
        return None
    return '%s: want %s, got %s' % (path, json.dumps(want), json.dumps(got))


def loc_shorthand(words):
    """`memory ADDR [aspace N] [bit N]`, `register N [bit N]`, `implicit HEX [bit N]`,
    `implicit_pointer DIE [disp N]`, `undefined`, `composite BITS...` -> SLD subset."""
    kind, args = words[0], words[1:]
    sld = {'kind': kind}
    if kind == 'memory':
        sld.update(address=args[0], aspace=0, bit_offset=0)
    elif kind == 'register':
        sld.update(regno=int(args[0], 0), bit_offset=0)
    elif kind == 'implicit':
        sld.update(bytes=args[0], bit_offset=0)
    elif kind == 'implicit_pointer':
        sld.update(die=args[0], displacement=0, bit_offset=0)
    elif kind == 'composite':
        sld.update(bit_offset=0, parts=[{'bit_size': int(a, 0)} for a in args])
        args = []
    elif kind != 'undefined':
        raise CaseError('unknown location kind %r' % kind)
    keys = {'aspace': 'aspace', 'bit': 'bit_offset', 'disp': 'displacement'}
    rest = args[1:] if kind not in ('undefined', 'composite') else []
    for k, v in zip(rest[0::2], rest[1::2]):
        if k not in keys:
            raise CaseError('unknown location attribute %r' % k)
        sld[keys[k]] = int(v, 0)
    return sld


def check_eval(spec, code, doc):
    """One `want` line against an eval result -> None or a failure message."""
    words = spec.split()
    what, args = words[0], words[1:]
    if what == 'value':
        w = {'ok': True, 'result': {'kind': 'value', 'hex': args[0]}}
        typ = {'encoding': 'generic'}
        if 'type' in args:
            i = args.index('type')
            typ = {'bits': int(args[i + 1], 0), 'encoding': args[i + 2]}
        w['result']['type'] = typ
        return match(w, doc)
    if what == 'error':
        classes = args[0].split('|')
        err = (doc or {}).get('error') or {}
        if doc.get('ok') is not False or err.get('class') not in classes:
            return 'want error class %s, got %s' % (args[0], json.dumps(doc))
        for a in args[1:]:
            if a.startswith('@'):
                why = match({'offset': int(a[1:], 0)}, err, '$.error')
            else:
                op = a if a.startswith('DW_OP_') else 'DW_OP_' + a
                why = match({'op': op}, err, '$.error')
            if why:
                return why
        return None if code == 1 else 'want exit status 1, got %s' % code
    if what == 'location':
        if args and args[0] == 'count':
            return match({'ok': True, 'result': {'kind': 'location',
                                                 'locations': [{}] * int(args[1])}}, doc)
        return match({'ok': True, 'result': {'kind': 'location',
                                             'locations': [loc_shorthand(args)]}}, doc)
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
    """`want mem [aspace N] ADDR HEX`: bytes at ADDR in the state after --write."""
    aspace = 0
    if args[0] == 'aspace':
        aspace, args = int(args[1], 0), args[2:]
    addr, want = int(args[0], 0), bytes.fromhex(''.join(args[1:]))
    for blk in (doc.get('after') or {}).get('memory') or []:
        base = as_int(blk.get('address'))
        data = bytes.fromhex(blk.get('bytes', ''))
        if as_int(blk.get('aspace', 0)) == aspace and base is not None and \
                base <= addr and addr + len(want) <= base + len(data):
            got = data[addr - base:addr - base + len(want)]
            return None if got == want else 'memory 0x%x: want %s, got %s' % (
                addr, want.hex(), got.hex())
    return 'memory 0x%x..+%d not in after.memory' % (addr, len(want))


def norm_line(s):
    """Disasm line for comparison: no comments or (register names), numbers decimal."""
    s = re.sub(r'#.*', '', s)
    s = re.sub(r'\([^)]*\)', '', s)
    toks = []
    for t in s.split():
        m = re.match(r'^([-+]?(?:0x[0-9a-f]+|\d+))(@\d+)?(:?)$', t, re.I)
        toks.append('%d%s%s' % (int(m.group(1), 0), m.group(2) or '', m.group(3))
                    if m else t)
    return ' '.join(toks)


def run_case(dwexpr, case, tmp):
    """Returns (ok, diagnostics)."""
    if case.get('error') or not case['action']:
        return False, [case.get('error') or 'case has no action']
    kind, rest = case['action']
    base = [dwexpr]
    ctx_opt = []
    if case['ctx'] is not None:
        cpath = os.path.join(tmp, 'ctx%d.json' % case['line'])
        with open(cpath, 'w') as f:
            json.dump(case['ctx'], f)
        ctx_opt = ['--context', cpath]
    stdin = '\n'.join(case['stdin']) + '\n' if case['stdin'] else None
    if kind == 'eval':
        argv = base + ['eval', '--json'] + ctx_opt + eval_argv(rest)
    elif kind == 'asm':
        argv = base + ['asm'] + ctx_opt + ([rest] if rest else [])
    elif kind == 'disasm':
        argv = base + ['disasm'] + ctx_opt + [rest]
    else:  # roundtrip: disasm, then asm of that text must give the same bytes
        code, out, err = run(base + ['disasm'] + ctx_opt + [rest])
        if code != 0:
            return False, ['disasm %s: exit %s' % (rest, code), out, err]
        argv, stdin = base + ['asm'] + ctx_opt + ['-'], out
        case = dict(case, wants=case['wants'] + [(0, 'bytes ' + rest)])
    code, out, err = run(argv, stdin)
    diag = ['command: ' + ' '.join(shlex.quote(a) for a in argv)]
    if case['ctx'] is not None:
        diag.append('context: ' + json.dumps(case['ctx']))
    if stdin:
        diag.append('stdin: ' + stdin.strip().replace('\n', ' | '))
    diag += ['exit: %s' % code, 'stdout: ' + out.strip(), 'stderr: ' + err.strip()[:600]]
    fails = check_all(kind, case['wants'], code, out)
    return not fails, [f for f in fails] + diag


def check_all(kind, wants, code, out):
    fails, lines, exit_checked = [], [], False
    doc = None
    if kind == 'eval':
        try:
            doc = json.loads(out)
        except ValueError:
            doc = None
    for no, spec in wants:
        what = spec.split()[0] if spec.split() else ''
        why = None
        try:
            if what == 'exit':
                exit_checked = True
                why = None if str(code) == spec.split()[1] else 'want exit %s, got %s' % (
                    spec.split()[1], code)
            elif what == 'fail':
                exit_checked = True
                why = None if code not in (0, 'timeout') and not str(code).startswith(
                    'cannot') else 'want a failure exit status, got %s' % code
            elif what == 'bytes':
                got = ' '.join(out.lower().split())
                want = ' '.join(re.findall('..', ''.join(spec.split()[1:]).lower()))
                why = None if got == want and code == 0 else 'want bytes %s, got %r (exit %s)' % (
                    want, got, code)
            elif what == 'line':
                lines.append(norm_line(spec[len('line'):]))
            elif kind != 'eval':
                raise CaseError('%s is for eval cases' % what)
            elif doc is None:
                why = 'stdout is not JSON'
            else:
                why = check_eval(spec, code, doc)
        except (CaseError, IndexError, ValueError) as e:
            why = 'bad expectation: %s' % e
        if why:
            fails.append('want %s (line %d): %s' % (spec[:100], no, why))
    if lines:
        got = [norm_line(l) for l in out.splitlines() if l.strip()]
        ok_exit = code == 0 or exit_checked
        if got != lines and not (code != 0 and got[:len(lines)] == lines) or not ok_exit:
            fails.append('want lines %s, got %s (exit %s)' % (lines, got, code))
    if kind == 'eval' and not exit_checked and doc is not None and not fails:
        want_code = 0 if doc.get('ok') else 1
        if code != want_code:
            fails.append('ok=%s but exit status %s' % (doc.get('ok'), code))
    return fails


def main():
    if len(sys.argv) != 3:
        sys.exit('usage: run_cases.py DWEXPR FILE.cases')
    dwexpr, path = sys.argv[1], sys.argv[2]
    try:
        cases = parse_file(path)
    except (CaseError, OSError) as e:
        print('1..1\nnot ok 1 - parse %s\n# %s' % (os.path.basename(path), e))
        return 1
    print('1..%d' % len(cases))
    failed = 0
    with tempfile.TemporaryDirectory(prefix='dwexpr-cases-') as tmp:
        for n, case in enumerate(cases, 1):
            try:
                ok, diag = run_case(dwexpr, case, tmp)
            except CaseError as e:
                ok, diag = False, ['bad case: %s' % e]
            failed += not ok
            print('%s %d - %s (line %d)' % ('ok' if ok else 'not ok', n, case['name'],
                                            case['line']))
            if not ok:
                for d in diag:
                    for l in str(d).splitlines() or ['']:
                        print('#   ' + l)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
