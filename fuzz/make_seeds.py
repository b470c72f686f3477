#!/usr/bin/env python3
"""fuzz/make_seeds.py: raw seed inputs for the fuzz harnesses, and the
opcode dictionary. Offline: reads the shared expression corpora, the test
cases and a built dwexpr CLI; writes files, never fetches anything.

    python3 fuzz/make_seeds.py --dwexpr build/examples/dwexpr \
        --shared ../shared --out /tmp/dwexpr-seeds [--dict fuzz/dwarf.dict]
    python3 fuzz/make_seeds.py --out /tmp/dwexpr-seeds --cfi-tests build \
        --elf /bin/ls --elf /tmp/prog ...      # fuzz_cfi and fuzz_elf only

Raw seeds land in OUT/<harness>/; minimize them into fuzz/corpus/<harness>/
with libFuzzer's -merge=1 (fuzz/README.md, "Seed corpora"). Input layouts
are described at the top of each fuzz/fuzz_*.c.
"""
import argparse, hashlib, json, os, random, struct, subprocess, sys, tempfile

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
        if harness == 'fuzz_eval' and len(data) >= 10 and data[1] == 0 and not data[6] & 0x3f:
            # the same input with all-zero evaluation params (no frame
            # element: h1 bits 5-6 = 3), the case the evaluator's fast
            # paths take
            self.add(harness, data[:1] + bytes([0x60]) + data[2:])
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


# ---- fuzz_cfi and fuzz_elf: CFI sections and ELF images ----

def elf_sections(data):
    """{name: (type, addr, offset, size)} of an ELF image (first of each
    name), plus its class and byte order; None if it is not one."""
    if len(data) < 64 or data[:4] != b'\x7fELF' or data[4] not in (1, 2) or data[5] not in (1, 2):
        return None
    is64, e = data[4] == 2, '<' if data[5] == 1 else '>'
    w = 'Q' if is64 else 'I'
    shoff = struct.unpack_from(e + w, data, 40 if is64 else 32)[0]
    shentsize, shnum, shstrndx = struct.unpack_from(e + 'HHH', data, 58 if is64 else 46)
    if not shoff or shoff + shnum * shentsize > len(data):
        return None
    heads = []
    for i in range(shnum):
        h = shoff + i * shentsize
        if is64:
            name, typ, _fl, addr, off, size = struct.unpack_from(e + 'IIQQQQ', data, h)
        else:
            name, typ, _fl, addr, off, size = struct.unpack_from(e + 'IIIIII', data, h)
        heads.append((name, typ, addr, off, size))
    stro = heads[shstrndx][3] if shstrndx < shnum else 0
    out = {}
    for name, typ, addr, off, size in heads:
        end = data.find(b'\0', stro + name)
        n = data[stro + name:end].decode('latin-1') if end >= 0 else ''
        out.setdefault(n, (typ, addr, off, size))
    return out, is64, e


def cfi_entries(sec, e):
    """(offset, end) of each CIE/FDE of a CFI section."""
    out, off = [], 0
    while off + 4 <= len(sec):
        ln = struct.unpack_from(e + 'I', sec, off)[0]
        hl = 4
        if ln == 0xffffffff:
            if off + 12 > len(sec):
                break
            ln, hl = struct.unpack_from(e + 'Q', sec, off + 4)[0], 12
        if ln == 0:
            break
        end = off + hl + ln
        if end > len(sec):
            break
        out.append((off, end))
        off = end
    return out


def cfi_seed(sec, eh, asize=8, big=False, hdr=b'', addr=0, hdr_addr=0, text=0, data=0,
             pc=0, bias=0, arch=0, frames=8, pcmode=0, seed=0, pick=0, frame_pc=False,
             twice=False, provisional=False, no_reg_size=False):
    """A fuzz_cfi input (layout at the top of fuzz/fuzz_cfi.c)."""
    m = 0xffffffff
    h0 = (1 if eh else 0) | ({8: 0, 4: 1, 2: 2, 1: 3}[asize] << 1) | (8 if big else 0)
    h0 |= (0x10 if hdr else 0) | (0x20 if provisional else 0) | (0x40 if frame_pc else 0)
    h0 |= 0x80 if no_reg_size else 0
    h1 = arch | (((frames - 1) & 7) << 2) | ((pcmode & 3) << 5) | (0x80 if twice else 0)
    return (bytes([h0, h1, seed & 0xff, pick & 0xff]) +
            struct.pack('<IIIIIHH', addr & m, hdr_addr & m, text & m, data & m, pc & m,
                        (bias >> 12) & 0xffff, len(hdr)) + hdr + sec)


def from_elf_files(seeds, paths, max_cfi=16384, max_elf=65536):
    """fuzz_cfi seeds from the .eh_frame (+ .eh_frame_hdr) and .debug_frame
    of each ELF file (whole when small, else cut at an entry boundary), and
    the file itself as a fuzz_elf seed when it is small enough."""
    rng = random.Random(7)
    for path in paths:
        with open(path, 'rb') as f:
            data = f.read()
        r = elf_sections(data)
        if r is None:
            continue
        secs, is64, e = r
        asize, big = (8 if is64 else 4), e == '>'
        machine = struct.unpack_from(e + 'H', data, 18)[0]
        arch = 0 if machine == 62 else 1
        text = secs.get('.text', (0, 0, 0, 0))[1]
        got = secs.get('.got', (0, 0, 0, 0))[1]
        for name, eh in (('.eh_frame', True), ('.debug_frame', False)):
            if name not in secs or secs[name][0] == 8:
                continue
            _t, addr, off, size = secs[name]
            sec = data[off:off + size]
            ents = cfi_entries(sec, e)
            hdr, hdr_addr = b'', 0
            if eh and '.eh_frame_hdr' in secs:
                _t, hdr_addr, ho, hs = secs['.eh_frame_hdr']
                hdr = data[ho:ho + hs]
            variants = []
            if len(sec) + len(hdr) <= max_cfi:
                variants.append((sec, hdr))
            cut = [x for x in ents if x[1] <= max_cfi // 4]
            if cut:
                variants.append((sec[:cut[-1][1]], b''))
            for k, (body, hb) in enumerate(variants):
                for j in range(3):
                    seeds.add('fuzz_cfi', cfi_seed(
                        body, eh, asize, big, hb, addr, hdr_addr, text, got,
                        pc=rng.getrandbits(16), arch=arch, frames=8, pcmode=j % 3,
                        seed=rng.getrandbits(8), pick=rng.getrandbits(8), frame_pc=bool(j & 1),
                        twice=(k + j) == 2, provisional=False))
        if len(data) <= max_elf:
            seeds.add('fuzz_elf', data)


def eh_frame_bytes(e, addr, text, funcs):
    """A small .eh_frame at ADDR in byte order E: one zR CIE (pcrel sdata4
    FDE pointers, CFA rsp+8, return address at CFA-8) and an FDE per
    (offset, size) of FUNCS in the .text at TEXT, then a terminator."""
    cie = b'\0\0\0\0' + bytes([1]) + b'zR\0' + bytes([1, 0x78, 16, 1, 0x1b])
    cie += bytes([0x0c, 7, 8, 0x90, 1])
    cie += b'\0' * (-(len(cie) + 4) % 4)
    out = struct.pack(e + 'I', len(cie)) + cie
    for fo, fs in funcs:
        start = len(out)
        body = struct.pack(e + 'I', start + 4)                       # back to the CIE
        here = addr + start + 8
        body += struct.pack(e + 'iI', text + fo - here, fs) + b'\0'  # no augmentation data
        body += bytes([0x41, 0x0e, 16, 0x86, 2, 0x44, 0x0d, 6, 0x4c, 0x0c, 7, 8])
        body += b'\0' * (-(len(body) + 4) % 4)
        out += struct.pack(e + 'I', len(body)) + body
    return out + b'\0\0\0\0'


def craft_elf(is64, big, etype, machine, sections, segments, entry=0):
    """An ELF image. SECTIONS: (name, type, addr, data, link, entsize);
    SEGMENTS: (type, flags, vaddr, section name or (offset, filesz), memsz)."""
    e = '>' if big else '<'
    w = 'Q' if is64 else 'I'
    ehsize, phsz, shsz = (64, 56, 64) if is64 else (52, 32, 40)
    names = b'\0'
    name_off = {}
    for s in sections + [('.shstrtab',)]:
        name_off[s[0]] = len(names)
        names += s[0].encode() + b'\0'
    at = ehsize + phsz * len(segments)
    body, placed = b'', {}
    for name, typ, addr, data, link, entsize in sections:
        at += -at % 8
        body += b'\0' * (at - ehsize - phsz * len(segments) - len(body))
        placed[name] = (at, len(data) if typ != 8 else 0)
        if typ != 8:
            body += data
            at += len(data)
    strtab_at = at
    body += names
    at += len(names)
    at += -at % 8
    body += b'\0' * (at - ehsize - phsz * len(segments) - len(body))
    shoff = at
    ph = b''
    for typ, flags, vaddr, where, memsz in segments:
        off, filesz = placed[where] if isinstance(where, str) else where
        if is64:
            ph += struct.pack(e + 'IIQQQQQQ', typ, flags, off, vaddr, vaddr, filesz,
                              max(memsz, filesz), 8)
        else:
            ph += struct.pack(e + 'IIIIIIII', typ, off, vaddr, vaddr, filesz,
                              max(memsz, filesz), flags, 4)
    sh = b'\0' * shsz
    allsecs = sections + [('.shstrtab', 3, 0, names, 0, 0)]
    for name, typ, addr, data, link, entsize in allsecs:
        off = strtab_at if name == '.shstrtab' else placed[name][0]
        info = 1 if typ in (2, 11) else 0
        if is64:
            sh += struct.pack(e + 'IIQQQQIIQQ', name_off[name], typ, 2 if addr else 0, addr,
                              off, len(data), link, info, 8, entsize)
        else:
            sh += struct.pack(e + 'IIIIIIIIII', name_off[name], typ, 2 if addr else 0, addr,
                              off, len(data), link, info, 4, entsize)
    hdr = b'\x7fELF' + bytes([2 if is64 else 1, 2 if big else 1, 1, 0]) + b'\0' * 8
    hdr += struct.pack(e + 'HHI' + w + w + w + 'IHHHHHH', etype, machine, 1, entry,
                       ehsize if segments else 0, shoff, 0, ehsize, phsz, len(segments), shsz,
                       len(allsecs) + 1, len(allsecs))
    return hdr + ph + body + sh


def crafted_elves(seeds):
    """Hand-made ELF images: ELF32 / ELF64 in both byte orders with .text,
    .eh_frame, .symtab and a PT_NOTE; and Linux-style cores with NT_FILE."""
    for is64 in (False, True):
        for big in (False, True):
            e = '>' if big else '<'
            text_addr, eh_addr = 0x401000, 0x402000
            text = bytes(range(0x90, 0xd0))
            eh = eh_frame_bytes(e, eh_addr, text_addr, [(0, 0x20), (0x20, 0x20)])
            strtab = b'\0first\0second\0'
            sym = b'\0' * (24 if is64 else 16)
            for no, (val, size) in ((1, (text_addr, 0x20)), (7, (text_addr + 0x20, 0x20))):
                if is64:
                    sym += struct.pack(e + 'IBBHQQ', no, 0x12, 0, 1, val, size)
                else:
                    sym += struct.pack(e + 'IIIBBH', no, val, size, 0x12, 0, 1)
            note = struct.pack(e + 'III', 4, 8, 3) + b'GNU\0' + bytes(range(8))
            secs = [('.text', 1, text_addr, text, 0, 0),
                    ('.eh_frame', 1, eh_addr, eh, 0, 0),
                    ('.note.gnu.build-id', 7, 0x400200, note, 0, 0),
                    ('.bss', 8, 0x403000, b'\0' * 64, 0, 0),
                    ('.symtab', 2, 0, sym, 6, 24 if is64 else 16),
                    ('.strtab', 3, 0, strtab, 0, 0)]
            segs = [(1, 5, text_addr, '.text', 0), (1, 4, eh_addr, '.eh_frame', 0),
                    (4, 4, 0x400200, '.note.gnu.build-id', 0)]
            seeds.add('fuzz_elf', craft_elf(is64, big, 2, 62 if is64 else 3, secs, segs,
                                            text_addr))
            # a core: PT_NOTE with NT_PRSTATUS and NT_FILE, two PT_LOADs
            ww = 'Q' if is64 else 'I'
            files = [(0x400000, 0x401000, 0, b'/usr/bin/prog'),
                     (0x7f0000000000 if is64 else 0xf7000000, 0x7f0000002000 if is64 else
                      0xf7002000, 2, b'/lib/libc.so.6')]
            desc = struct.pack(e + ww + ww, len(files), 4096)
            for st, en, off, _n in files:
                desc += struct.pack(e + ww * 3, st, en, off)
            desc += b''.join(n + b'\0' for _s, _e, _o, n in files)
            desc += b'\0' * (-len(desc) % 4)
            notes = struct.pack(e + 'III', 5, 64, 1) + b'CORE\0\0\0\0' + bytes(64)
            notes += struct.pack(e + 'III', 5, len(desc), 0x46494c45) + b'CORE\0\0\0\0' + desc
            stack = b''.join(struct.pack(e + ww, 0x401010 + 8 * i) for i in range(16))
            csecs = [('note0', 7, 0, notes, 0, 0), ('load1', 1, 0x7ffe0000, stack, 0, 0),
                     ('load2', 1, 0x400000, text, 0, 0)]
            csegs = [(4, 0, 0, 'note0', 0), (1, 6, 0x7ffe0000, 'load1', 0x1000),
                     (1, 5, 0x400000, 'load2', 0)]
            seeds.add('fuzz_elf', craft_elf(is64, big, 4, 62 if is64 else 3, csecs, csegs))
            seeds.add('fuzz_cfi', cfi_seed(eh, True, 8 if is64 else 4, big, b'', eh_addr, 0,
                                           text_addr, 0, pc=0x10, arch=0 if is64 else 1,
                                           seed=3 + big, frame_pc=big))


CFI_SHIM = r"""
/* Records every section test/test_cfi.c opens as a fuzz_cfi input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dwexpr.h>
dwexpr_status __real_dwexpr_cfi_open(const dwexpr_cfi_section *, dwexpr_cfi **, dwexpr_error *);
static void le(FILE *f, unsigned long long v, int n)
{
    for (int i = 0; i < n; i++)
        fputc((int)(v >> (8 * i)) & 0xff, f);
}
dwexpr_status __wrap_dwexpr_cfi_open(const dwexpr_cfi_section *s, dwexpr_cfi **out,
                                     dwexpr_error *err)
{
    static unsigned n;
    char path[4096];
    const char *dir = getenv("CFI_DUMP");
    if (dir && s && s->size < 65536 && s->hdr_size < 65536) {
        snprintf(path, sizeof path, "%s/cfi-%04u", dir, n++);
        FILE *f = fopen(path, "wb");
        if (f) {
            unsigned as = s->addr_size ? s->addr_size
                        : s->arch ? dwexpr_arch_addr_size(s->arch) : 8;
            unsigned asb = as == 8 ? 0 : as == 4 ? 1 : as == 2 ? 2 : 3;
            unsigned arch = !s->arch ? 2
                          : s->arch == dwexpr_arch_find("x86_64") ? 0
                          : s->arch == dwexpr_arch_find("amdgpu-wave64") ? 3 : 1;
            fputc((s->format == DWEXPR_CFI_EH_FRAME ? 1 : 0) | asb << 1 |
                  (s->big_endian ? 8 : 0) | (s->hdr ? 0x10 : 0) |
                  (s->ext_encoding ? 0x20 : 0) | ((n & 1) ? 0x40 : 0), f);
            fputc((int)(arch | 7u << 2 | (n % 3) << 5), f);
            fputc((int)(n * 37 & 0xff), f);
            fputc((int)(n & 0xff), f);
            le(f, s->address, 4);
            le(f, s->hdr_address, 4);
            le(f, s->text_address, 4);
            le(f, s->data_address, 4);
            le(f, n * 5, 4);
            le(f, s->bias >> 12, 2);
            le(f, s->hdr ? s->hdr_size : 0, 2);
            if (s->hdr && s->hdr_size)
                fwrite(s->hdr, 1, s->hdr_size, f);
            if (s->size)
                fwrite(s->data, 1, s->size, f);
            fclose(f);
        }
    }
    return __real_dwexpr_cfi_open(s, out, err);
}
"""


def from_cfi_tests(seeds, build, tmp):
    """fuzz_cfi seeds: every section test/test_cfi.c hands to
    dwexpr_cfi_open (compiled here with a --wrap shim over BUILD's
    lib/libdwexpr_internal.a)."""
    root = os.path.join(HERE, '..')
    shim = os.path.join(tmp, 'shim.c')
    with open(shim, 'w') as f:
        f.write(CFI_SHIM)
    exe = os.path.join(tmp, 'test_cfi_dump')
    subprocess.run([os.environ.get('CC', 'cc'), '-std=c11', '-O1', '-I',
                    os.path.join(root, 'include'), '-I', os.path.join(root, 'test'),
                    os.path.join(root, 'test', 'test_cfi.c'), shim,
                    os.path.join(build, 'lib', 'libdwexpr_internal.a'),
                    '-Wl,--wrap=dwexpr_cfi_open', '-lm', '-o', exe], check=True)
    dump = os.path.join(tmp, 'dump')
    os.makedirs(dump, exist_ok=True)
    subprocess.run([exe], env=dict(os.environ, CFI_DUMP=dump), stdout=subprocess.DEVNULL)
    for name in sorted(os.listdir(dump)):
        with open(os.path.join(dump, name), 'rb') as f:
            seeds.add('fuzz_cfi', f.read())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--dwexpr', help='the built CLI (expression seeds, --dict)')
    ap.add_argument('--shared', default=os.path.join(HERE, '..', '..', 'shared'))
    ap.add_argument('--out', required=True)
    ap.add_argument('--dict')
    ap.add_argument('--elf', action='append', default=[],
                    help='an ELF file: fuzz_cfi seeds from its CFI, a fuzz_elf seed if small')
    ap.add_argument('--cfi-tests', metavar='BUILD',
                    help='fuzz_cfi seeds from test/test_cfi.c, linked with BUILD/lib')
    a = ap.parse_args()
    seeds = Seeds(a.out)
    if a.dwexpr:
        with tempfile.TemporaryDirectory() as tmp:
            from_cases(seeds, a.dwexpr, os.path.join(HERE, '..', 'test', 'cases'), tmp)
        from_shared(seeds, a.shared, random.Random(4))
        if a.dict:
            write_dict(a.dwexpr, a.dict)
    if a.elf or a.cfi_tests:
        from_elf_files(seeds, a.elf)
        crafted_elves(seeds)
    if a.cfi_tests:
        with tempfile.TemporaryDirectory() as tmp:
            from_cfi_tests(seeds, a.cfi_tests, tmp)
    counts = {}
    for h, _ in seeds.seen:
        counts[h] = counts.get(h, 0) + 1
    print(' '.join('%s=%d' % kv for kv in sorted(counts.items())))


if __name__ == '__main__':
    main()
