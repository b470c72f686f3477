#!/usr/bin/env python3
"""fuzz/make_seeds.py: raw seed inputs for the fuzz harnesses, and the
opcode dictionary. Offline: reads the shared expression corpora, the test
cases and a built dwexpr CLI; writes files, never fetches anything.

    python3 fuzz/make_seeds.py --dwexpr build/examples/dwexpr \
        --shared ../shared --out /tmp/dwexpr-seeds [--dict fuzz/dwarf.dict]

Raw seeds land in OUT/<harness>/; minimize them into fuzz/corpus/<harness>/
with libFuzzer's -merge=1 (fuzz/README.md, "Seed corpora"). Input layouts
are described at the top of each fuzz/fuzz_*.c.
"""
import argparse, hashlib, json, os, random, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'test'))
import run_cases  # noqa: E402  (the .cases parser)

ASZ_BITS = {8: 0, 4: 1, 2: 2, 1: 3}
ARCH_ASZ = {'generic32': 4, 'generic64': 8, 'x86_64': 8, 'amdgpu-wave64': 8,
            'amdgpu-wave32': 8}


def unit_byte(addr_size=8, offset_size=4, version=5, provisional=False, big=False):
    """fuzz_common.h fz_unit() inverse."""
    b = ASZ_BITS.get(addr_size, 0)
    b |= 4 if offset_size == 8 else 0
    b |= (5 - max(2, min(5, version))) << 3
    b |= 0x20 if provisional else 0
    b |= 0x40 if big else 0
    return b


def num(v, default=0):
    """A context number (JSON number or "0x..." string)."""
    if v is None:
        return default
    if isinstance(v, int):
        return v
    try:
        return int(str(v), 0)
    except ValueError:
        return default


class Seeds:
    """Collects unique seeds per harness and writes them."""

    def __init__(self, out):
        self.out, self.seen = out, {}

    def add(self, harness, data):
        h = hashlib.sha1(data).hexdigest()
        if (harness, h) in self.seen:
            return
        self.seen[(harness, h)] = True
        d = os.path.join(self.out, harness)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, h), 'wb') as f:
            f.write(data)


def ctx_unit(ctx, opts):
    """(unit byte, amdgpu?) of a case context plus eval options."""
    ctx = ctx or {}
    arch = ctx.get('arch', 'generic64')
    asz = num(ctx.get('addr_size'), ARCH_ASZ.get(arch, 8))
    enc = ctx.get('ext_encoding', 'llvm-user')
    if '--addr-size' in opts:
        asz = num(opts[opts.index('--addr-size') + 1], asz)
    if '--encoding' in opts:
        enc = opts[opts.index('--encoding') + 1]
    b = unit_byte(asz, num(ctx.get('offset_size'), 4), num(ctx.get('dwarf_version'), 5),
                  enc == 'provisional', ctx.get('byte_order') == 'big')
    return b, arch.startswith('amdgpu')


def asm(dwexpr, ctx, opts, text, tmp):
    """Bytes of TEXT assembled by the CLI in CTX, or None."""
    argv = [dwexpr, 'asm']
    if ctx is not None:
        p = os.path.join(tmp, 'ctx.json')
        with open(p, 'w') as f:
            json.dump(ctx, f)
        argv += ['--context', p]
    for o in ('--addr-size', '--encoding'):
        if o in opts:
            argv += [o, opts[opts.index(o) + 1]]
    r = subprocess.run(argv + ['--', text], capture_output=True, text=True)
    if r.returncode != 0:
        return None
    return bytes.fromhex(r.stdout.strip().replace(' ', ''))


def eval_seed(ub, amdgpu, ctx, opts, code, records=()):
    """A fuzz_eval input (layout at the top of fuzz/fuzz_eval.c)."""
    ctx = ctx or {}
    h = [0] * 10
    h[0] = ub | (0x80 if amdgpu else 0)
    res = ctx.get('result')
    if '--result' in opts:
        res = opts[opts.index('--result') + 1]
    if '--read' in opts or '--write' in opts:
        res = res or 'location'
    h[1] = {'value': 1, 'location': 2}.get(res, 0)
    lane = ctx.get('lane')
    if '--lane' in opts:
        lane = opts[opts.index('--lane') + 1]
    if lane is not None:
        lanes = num(ctx.get('lanes'), 0)
        h[1] |= (1 if lanes == 64 else 2 if lanes == 32 else 3) << 2
        h[7] = num(lane) & 0x7f
    if 'pc' in ctx:
        h[1] |= 0x10
    if 'thread' in ctx:
        h[1] |= 0x80
    h[5] = hashlib.sha1(code).digest()[0]
    stack = ctx.get('initial_stack') or []
    h[6] = min(len(stack), 7) | ((1 if 'object' in ctx else 0) << 3)
    h[8] = min(len(ctx.get('debug_addr') or []), 15)
    if records:
        h[8] |= 0 << 4          # frame base from record 0
    elif 'frame_base' in ctx:
        h[8] |= 1 << 4
    body = bytes(h)
    for e in stack[:7]:
        if 'value' in e:
            v = num(e['value'])
            body += bytes([8, v & 0xff])
        else:
            body += bytes([1, 0x10])
    body += bytes([0, 0])
    if records:
        body += bytes([len(code)]) + code if len(code) < 256 else bytes([0]) + code
        for tag, rb in records:
            body += bytes([tag, min(len(rb), 255)]) + rb[:255]
    else:
        body += bytes([0]) + code
    return body


def context_seed(ctx, opts, expr, is_hex):
    """A fuzz_context input (layout at the top of fuzz/fuzz_context.c)."""
    o0, o1, o2 = 0, 0, 0
    o0 |= 1 if is_hex else 0
    o0 |= 2                       # --json
    if '--result' in opts:
        o0 |= {'value': 1, 'location': 2}.get(opts[opts.index('--result') + 1], 0) << 3
    if '--read' in opts:
        bits = num(opts[opts.index('--read') + 1], 64)
        o0 |= 0x20
        o1 = max(0, min(255, (bits - 1) // 3))
    if '--write' in opts:
        o0 |= 0x40
        o1 = max(0, len(opts[opts.index('--write') + 1]) // 2 - 1) & 0xff
    if '--lane' in opts:
        o0 |= 0x80
        o1 = num(opts[opts.index('--lane') + 1]) % 72
    if '--addr-size' in opts:
        o2 |= {4: 1, 8: 2, 2: 3}.get(num(opts[opts.index('--addr-size') + 1]), 0)
    if '--encoding' in opts:
        o2 |= {'provisional': 1, 'llvm-user': 2}.get(opts[opts.index('--encoding') + 1], 0) << 2
    if '--max-steps' in opts:
        o2 |= 0x10
    js = json.dumps(ctx, separators=(',', ':')) if ctx is not None else ''
    return bytes([o0, o1, o2]) + js.encode() + b'\0' + expr.encode()


def from_cases(seeds, dwexpr, cases_dir, tmp):
    """Seeds from every eval/asm/disasm case of test/cases/*.cases."""
    for name in sorted(os.listdir(cases_dir)):
        if not name.endswith('.cases'):
            continue
        for case in run_cases.parse_file(os.path.join(cases_dir, name)):
            if not case['action']:
                continue
            kind, rest = case['action']
            ctx = case['ctx']
            if kind == 'eval':
                argv = run_cases.eval_argv(rest)
                if '-x' in argv:
                    i = argv.index('-x')
                    opts, hexs, text = argv[:i], argv[i + 1], None
                    try:
                        code = bytes.fromhex(hexs.replace(' ', '').replace('0x', ''))
                    except ValueError:
                        code = None
                else:
                    opts, text = argv[:-1], argv[-1] if argv else ''
                    code = asm(dwexpr, ctx, opts, text, tmp)
                ub, amd = ctx_unit(ctx, opts)
                seeds.add('fuzz_context',
                          context_seed(ctx, opts, text if text is not None else hexs,
                                       text is None))
                if code is None:
                    continue
                seeds.add('fuzz_decode', bytes([ub]) + code)
                if text is not None:
                    seeds.add('fuzz_asm', bytes([ub]) + text.encode())
                records = []
                for key, d in sorted(((ctx or {}).get('dies') or {}).items()):
                    if isinstance(d.get('location'), str):
                        b = asm(dwexpr, ctx, opts, d['location'], tmp)
                        if b is not None:
                            records.append((0, b))
                    if isinstance(d.get('const_value'), str):
                        try:
                            records.append((2, bytes.fromhex(d['const_value'])))
                        except ValueError:
                            pass
                    if isinstance(d.get('loclist'), list):
                        lb = b''
                        for e in d['loclist'][:4]:
                            b = asm(dwexpr, ctx, opts, e.get('expr', ''), tmp) \
                                if isinstance(e.get('expr'), str) else None
                            if b is not None:
                                lb += bytes([len(b)]) + b
                        records.append((1, lb))
                fb = (ctx or {}).get('frame_base')
                if isinstance(fb, str):
                    b = asm(dwexpr, ctx, opts, fb, tmp)
                    if b is not None:
                        records.insert(0, (0, b))
                seeds.add('fuzz_eval', eval_seed(ub, amd, ctx, opts, code, records))
            elif kind == 'asm':
                ub, _ = ctx_unit(ctx, [])
                seeds.add('fuzz_asm', bytes([ub]) + rest.encode())
            elif kind in ('disasm', 'roundtrip'):
                ub, _ = ctx_unit(ctx, [])
                try:
                    seeds.add('fuzz_decode', bytes([ub]) + bytes.fromhex(rest.replace(' ', '')))
                except ValueError:
                    pass


def from_shared(seeds, shared, rng):
    """Seeds from the compiler expression corpora in ../shared."""
    path = os.path.join(shared, 'corpus', 'exprs_sample.jsonl')
    seen = set()
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            key = (r['expr_hex'], r.get('addr_size'), r.get('dwarf_version'), r.get('format'))
            if key in seen:
                continue
            seen.add(key)
            code = bytes.fromhex(r['expr_hex'])
            ub = unit_byte(r.get('addr_size') or 8, 8 if r.get('format') == 'DWARF64' else 4,
                           r.get('dwarf_version') or 5)
            seeds.add('fuzz_decode', bytes([ub]) + code)
            res = 'location' if r.get('attr') in ('DW_AT_location', 'DW_AT_frame_base') else None
            seeds.add('fuzz_eval', eval_seed(ub, False, {'result': res} if res else {}, [],
                                             code))
            if r.get('ops'):
                seeds.add('fuzz_asm', bytes([ub]) + r['ops'].encode())
            if rng.random() < 0.2:
                arch = 'x86_64' if r.get('machine') == 'x86_64' else 'generic64'
                seeds.add('fuzz_context', context_seed({'arch': arch}, [], code.hex(), True))
    path = os.path.join(shared, 'bench', 'corpus.txt')
    lines = []
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w or w[0].startswith('#'):
                continue
            v = 5
            for x in w[2:]:
                if x.startswith('v='):
                    v = int(x[2:])
            lines.append((int(w[0]), w[1], v))
    for asz, hexs, v in sorted(set(lines)):
        try:
            code = bytes.fromhex(hexs)
        except ValueError:
            continue
        ub = unit_byte(asz, 4, v)
        seeds.add('fuzz_decode', bytes([ub]) + code)
        if rng.random() < 0.3:
            seeds.add('fuzz_eval', eval_seed(ub, False, {}, [], code))


def write_dict(dwexpr, path):
    """The libFuzzer/AFL dictionary: every opcode byte, every DW_OP_LLVM_*
    in both encodings, every operation name, and text-form tokens."""
    ops = json.loads(subprocess.run([dwexpr, 'ops', '--json'], capture_output=True,
                                    text=True, check=True).stdout)
    lines = ['# fuzz/dwarf.dict: DWARF expression dictionary for libFuzzer (-dict=) and',
             '# AFL++ (-x). Generated once by fuzz/make_seeds.py from `dwexpr ops --json`:',
             '# every opcode byte, DW_OP_LLVM_* as DW_OP_LLVM_user (0xe9) + sub-op and as',
             '# the provisional byte, every operation name, and text-form tokens.', '']
    for o in ops:
        n = o['name'][len('DW_OP_'):]
        if o['code']:
            lines.append('op_%s="\\x%02x"' % (n, o['code']))
        if o.get('llvm_user_subop'):
            lines.append('user_%s="\\xe9\\x%02x"' % (n, o['llvm_user_subop']))
    lines.append('')
    for o in ops:
        lines.append('name_%s="%s"' % (o['name'][len('DW_OP_'):], o['name']))
    lines += ['', 'tok_hex="0x"', 'tok_neg="-1"', 'tok_pad="@4"', 'tok_lp="("', 'tok_rp=")"',
              'tok_comment="#"', 'tok_colon=": "', 'tok_offset="0x0000: "', 'tok_big="0xffffffffffffffff"',
              'tok_min="-0x8000000000000000"', 'tok_sp=" "', 'tok_nl="\\x0a"',
              'leb_max="\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\x01"',
              'leb_pad4="\\x80\\x80\\x80\\x00"', 'skip_back="\\x2f\\xfd\\xff"',
              'bra_fwd="\\x28\\x00\\x00"', '']
    with open(path, 'w') as f:
        f.write('\n'.join(lines))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--dwexpr', required=True)
    ap.add_argument('--shared', default=os.path.join(HERE, '..', '..', 'shared'))
    ap.add_argument('--out', required=True)
    ap.add_argument('--dict')
    a = ap.parse_args()
    seeds = Seeds(a.out)
    with tempfile.TemporaryDirectory() as tmp:
        from_cases(seeds, a.dwexpr, os.path.join(HERE, '..', 'test', 'cases'), tmp)
    from_shared(seeds, a.shared, random.Random(4))
    if a.dict:
        write_dict(a.dwexpr, a.dict)
    counts = {}
    for h, _ in seeds.seen:
        counts[h] = counts.get(h, 0) + 1
    print(' '.join('%s=%d' % kv for kv in sorted(counts.items())))


if __name__ == '__main__':
    main()
