#!/usr/bin/env python3
"""test/dwarf/check_locs.py: `dwexpr locs` on real programs (issue 6
points 1-2). Builds the programs of progs/ with gcc and clang at -O0 and
-O2, DWARF 4 and 5, and with -gsplit-dwarf (DWARF 4 GNU and DWARF 5
forms), lists them with `dwexpr locs --json` and checks, per build:

  decode     every location expression decodes (dwexpr_program_decode)
  asm        its disassembly goes back to the same bytes through `dwexpr asm`
  ranges     location list ranges agree with llvm-dwarfdump --debug-info
             (readelf --debug-dump=info,loc when llvm-dwarfdump is missing);
             split builds must give the ranges of the same build without
             -gsplit-dwarf (same code, lists through .debug_addr)
  types      base types (name, size, encoding) agree with readelf's
             .debug_info dump (the .dwo's for split builds)
  functions  the listing's functions and inlined calls with code are
             exactly llvm-dwarfdump's subprograms / inlined subroutines
             with DW_AT_low_pc or DW_AT_ranges
  type units with -fdebug-types-section (GCC's DWARF 4 .debug_types,
             clang's DWARF 5 type units) every variable has the type name
             and size of the same build without type units; a .dwo
             libdwarf cannot read (GCC's DWARF 4 split units with type
             units) or that is gone is reported with the reason

TAP output; SKIP when a compiler or readelf is missing.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

PROGS = ['vars.c', 'types.c', 'lists.c']
VARIANTS = [(cc, opt, ver, split) for cc in ('gcc', 'clang') for opt in ('O0', 'O2')
            for ver in (4, 5) for split in (False,)]
VARIANTS += [('gcc', 'O2', 5, True), ('gcc', 'O2', 4, True), ('clang', 'O2', 5, True)]

ATE = {1: 'address', 2: 'boolean', 3: 'complex_float', 4: 'float', 5: 'signed',
       6: 'signed_char', 7: 'unsigned', 8: 'unsigned_char', 0x10: 'UTF'}


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          timeout=300, **kw)


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0
        self.lines = []

    def ok(self, cond, name, details=()):
        self.n += 1
        self.lines.append('%s %d - %s' % ('ok' if cond else 'not ok', self.n, name))
        for d in list(details)[:20]:
            self.lines.append('#   ' + d)
        if not cond:
            self.failed += 1

    def skip(self, name, why):
        self.n += 1
        self.lines.append('ok %d - %s # SKIP %s' % (self.n, name, why))

    def emit(self):
        print('1..%d' % self.n)
        for l in self.lines:
            print(l)


def expressions(listing):
    """(var, where, expr) for every expression of the listing."""
    for v in listing['vars']:
        loc = v['location']
        if 'expr' in loc:
            yield v, 'exprloc', loc['expr']
        for i, e in enumerate(loc.get('entries', [])):
            yield v, 'entry %d' % i, e['expr']


def check_decode(listing):
    bad = []
    n = 0
    for v, where, e in expressions(listing):
        n += 1
        if 'error' in e:
            bad.append('%s (%s) %s: %s' % (v['name'], v['die'], where, e['error']['message']))
        if v['location']['form'] == 'error':
            bad.append('%s: %s' % (v['name'], v['location'].get('error')))
    return n, bad


def check_asm(args, listing, unit_ctx):
    """Every disassembly assembles back to its bytes. The text is a stream
    of operations, so the distinct disassemblies of a unit are assembled
    in one run, which must give their bytes one after the other; only when
    it does not is each assembled alone, to name the ones that fail (the
    sanitizer build starts a process in about 0.1 s, and a program has
    hundreds of expressions)."""
    bad = []
    n = 0
    groups = {}  # ctx -> {ops: hex}
    uses = []
    for v, where, e in expressions(listing):
        if 'error' in e or not e['ops']:
            continue
        n += 1
        ctx = unit_ctx[v['unit']]
        groups.setdefault(ctx, {})[tuple(e['ops'])] = e['hex']
        uses.append((v, where, e, ctx))
    alone = {}
    for ctx, exprs in groups.items():
        r = run([args.dwexpr, 'asm', '--context', ctx, '-'],
                input=''.join('\n'.join(ops) + '\n' for ops in exprs))
        if r.returncode == 0 and r.stdout.replace(' ', '').strip() == ''.join(exprs.values()):
            continue
        for ops in exprs:
            r = run([args.dwexpr, 'asm', '--context', ctx, '-'], input='\n'.join(ops) + '\n')
            alone[(ctx, ops)] = (r.returncode, r.stdout.replace(' ', '').strip(),
                                 r.stderr.strip())
    for v, where, e, ctx in uses:
        rc, got, err = alone.get((ctx, tuple(e['ops'])), (0, e['hex'], ''))
        if rc != 0 or got != e['hex']:
            bad.append('%s %s: %s -> %s %s' % (v['name'], where, e['hex'], got, err))
    return n, bad


def dwarfdump_ranges(binary):
    """{die offset: [(low, high) or 'default', ...]} of every DW_AT_location
    list, from llvm-dwarfdump --debug-info."""
    r = run(['llvm-dwarfdump', '--debug-info', binary])
    if r.returncode != 0 and not r.stdout:
        return None
    out = {}
    die = None
    inlist = False
    for line in r.stdout.splitlines():
        m = re.match(r'^(0x[0-9a-f]+):\s+DW_TAG', line)
        if m:
            die = int(m.group(1), 16)
            inlist = False
            continue
        s = line.strip()
        if s.startswith('DW_AT_location'):
            inlist = bool(re.search(r'\(0x[0-9a-f]+:\s*$|loclist = 0x[0-9a-f]+:\s*$', s))
            if inlist:
                out[die] = []
            continue
        if inlist:
            m = re.match(r'^\[(0x[0-9a-f]+), (0x[0-9a-f]+)\):', s)
            if m:
                out[die].append((int(m.group(1), 16), int(m.group(2), 16)))
                continue
            if s.startswith('<default>'):
                out[die].append('default')
                continue
            inlist = False
    return out


def dwarfdump_functions(binary):
    """{die offset} of every concrete DW_TAG_subprogram and
    DW_TAG_inlined_subroutine (one with DW_AT_low_pc or DW_AT_ranges), from
    llvm-dwarfdump --debug-info."""
    r = run(['llvm-dwarfdump', '--debug-info', binary])
    if r.returncode != 0 and not r.stdout:
        return None
    out = set()
    die = None
    for line in r.stdout.splitlines():
        m = re.match(r'^(0x[0-9a-f]+):\s+(DW_TAG_\w+)', line)
        if m:
            die = int(m.group(1), 16) if m.group(2) in (
                'DW_TAG_subprogram', 'DW_TAG_inlined_subroutine') else None
            continue
        if die is not None and re.match(r'^\s*DW_AT_(low_pc|ranges)\b', line):
            out.add(die)
    return out


def check_functions(listing, binary):
    """Every function and inlined call with code is listed (with its
    ranges), and nothing else."""
    ref = dwarfdump_functions(binary)
    mine = {int(f['die'], 16) for f in listing.get('functions', []) if f['ranges']}
    if ref is None:
        return len(mine), ['llvm-dwarfdump failed']
    bad = ['%s listed by llvm-dwarfdump, not by dwexpr' % hex(d) for d in sorted(ref - mine)]
    bad += ['%s listed by dwexpr, not by llvm-dwarfdump' % hex(d) for d in sorted(mine - ref)]
    return len(mine), bad


def readelf_ranges(binary):
    """Fallback: {list offset: [(low, high)]} from readelf --debug-dump=loc
    (absolute addresses as gcc writes them)."""
    r = run(['readelf', '--debug-dump=loc', binary])
    out = {}
    cur = None
    for line in r.stdout.splitlines():
        m = re.match(r'^\s+([0-9a-f]{8}) ([0-9a-f]{16}) ([0-9a-f]{16}) \(', line)
        if m:
            off = int(m.group(1), 16)
            if cur is None:
                cur = off
                out[cur] = []
            out[cur].append((int(m.group(2), 16), int(m.group(3), 16)))
        elif '<End of list>' in line:
            cur = None
    return out


def my_ranges(v):
    res = []
    for e in v['location'].get('entries', []):
        res.append('default' if e.get('default') else (int(e['low'], 16), int(e['high'], 16)))
    return res


def check_ranges(listing, binary):
    ref = dwarfdump_ranges(binary) if shutil.which('llvm-dwarfdump') else None
    bad = []
    n = 0
    if ref is not None:
        for v in listing['vars']:
            if v['location']['form'] != 'loclist':
                continue
            n += 1
            die = int(v['die'], 16)
            theirs = ref.get(die)
            mine = my_ranges(v)
            if theirs is None:
                bad.append('%s (%s): llvm-dwarfdump shows no list' % (v['name'], v['die']))
            elif sorted(map(str, theirs)) != sorted(map(str, mine)):
                bad.append('%s (%s): llvm-dwarfdump %s, dwexpr %s' % (
                    v['name'], v['die'], fmt(theirs), fmt(mine)))
        return n, bad, 'llvm-dwarfdump'
    ref = readelf_ranges(binary)
    for v in listing['vars']:
        if v['location']['form'] != 'loclist':
            continue
        n += 1
        theirs = ref.get(int(v['location']['offset'], 16))
        mine = [r for r in my_ranges(v) if r != 'default']
        if theirs is not None and sorted(theirs) != sorted(mine):
            bad.append('%s: readelf %s, dwexpr %s' % (v['name'], fmt(theirs), fmt(mine)))
    return n, bad, 'readelf'


def fmt(rs):
    return ' '.join('[%#x,%#x)' % r if r != 'default' else 'default' for r in rs)


def var_key(v):
    return (v['function'], v['name'], v['decl_line'], tuple(v['inline_chain']), v['block_depth'])


def readelf_dwo_raw(dwo):
    """{entry offset: (index, length)} of a DWARF 4 .debug_loc.dwo
    (DW_LLE_GNU_start_length_entry lines: "[index] length")."""
    r = run(['readelf', '--debug-dump=loc', dwo])
    out = {}
    entry = None
    for line in r.stdout.splitlines():
        m = re.match(r'^\s+([0-9a-f]{8}) ', line)
        if m:
            entry = int(m.group(1), 16)
        m = re.search(r'\[\s*(\d+)\] ([0-9a-f]{8}) \(', line)
        if m and entry is not None:
            out[entry] = (int(m.group(1)), int(m.group(2), 16))
    return out


def check_split_ranges(listing, plain, dwo):
    """A split build's lists resolve to the ranges of the plain build (the
    code is the same). Where they do not, the raw entries must be what
    readelf reads in the .dwo: then the producer wrote other ranges."""
    want = {}
    for v in plain['vars']:
        want.setdefault(var_key(v), []).append(my_ranges(v))
    raw = None
    bad, notes = [], []
    n = 0
    for v in listing['vars']:
        if v['location']['form'] != 'loclist':
            continue
        n += 1
        cands = want.get(var_key(v), [])
        if my_ranges(v) in cands:
            continue
        what = '%s (%s): split %s, plain %s' % (
            v['name'], v['die'], fmt(my_ranges(v)), ' | '.join(fmt(c) for c in cands))
        if v['location']['section'] == '.debug_loc.dwo' and dwo:
            raw = raw if raw is not None else readelf_dwo_raw(dwo)
            ents = v['location']['entries']
            if ents and all(raw.get(int(e['entry_offset'], 16)) ==
                            (int(e['raw'][0], 16), int(e['raw'][1], 16)) for e in ents):
                notes.append(what + ' [the .dwo says so: readelf reads the same index/length]')
                continue
        bad.append(what)
    return n, bad, notes


def readelf_base_types(path):
    """{section offset: (name, bytes, encoding)} from readelf --debug-dump=info."""
    r = run(['readelf', '--debug-dump=info', path])
    out = {}
    cur = None
    for line in r.stdout.splitlines():
        m = re.match(r'^\s*<\d+><([0-9a-f]+)>: Abbrev Number: \d+ \((DW_TAG_\w+)\)', line)
        if m:
            cur = int(m.group(1), 16) if m.group(2) == 'DW_TAG_base_type' else None
            if cur is not None:
                out[cur] = {}
            continue
        if m is None and re.match(r'^\s*<\d+><[0-9a-f]+>: Abbrev Number: 0', line):
            cur = None
            continue
        if cur is None:
            continue
        m = re.match(r'^\s*<[0-9a-f]+>\s+(DW_AT_\w+)\s*:\s*(.*)$', line)
        if not m:
            continue
        at, val = m.group(1), m.group(2).strip()
        if at == 'DW_AT_name':
            # readelf 2.40 resolves indexed strings (strx) wrongly in places:
            # trust only direct and .debug_str offset forms
            if not val.startswith('(indexed') and not val.startswith('(indirect index'):
                out[cur]['name'] = val.split('): ')[-1] if val.startswith('(') else val
        elif at in ('DW_AT_byte_size', 'DW_AT_encoding', 'DW_AT_bit_size'):
            out[cur][at] = int(val.split()[0], 0)
    return out


def check_types(listing, binary, split_dwo):
    bad = []
    n = 0
    path = split_dwo or binary
    ref = readelf_base_types(path)
    for u in listing['units']:
        if u.get('split') and not split_dwo:
            continue
        hdr = unit_header(u)
        for t in u['base_types']:
            n += 1
            # the unit-relative offset plus the unit's header offset
            off = hdr + int(t['die'], 16)
            r = ref.get(off)
            if r is None:
                bad.append('%s at %#x: readelf has no base type there' % (t['name'], off))
                continue
            bits = 8 * r['DW_AT_byte_size'] if 'DW_AT_byte_size' in r else r.get('DW_AT_bit_size')
            if ((r.get('name') is not None and r.get('name') != t['name']) or bits != t['bits']
                    or r.get('DW_AT_encoding') != t['ate']):
                bad.append('%#x: readelf %s %s bits %s, dwexpr %s %s bits %s' % (
                    off, r.get('name'), bits, ATE.get(r.get('DW_AT_encoding')),
                    t['name'], t['bits'], t['encoding']))
    return n, bad


def unit_header(u):
    """The header offset of unit U in the file its DIEs live in: the unit
    DIE follows the header (12 bytes DWARF 5 32-bit compile, 20 for split
    and skeleton units, 11 bytes DWARF 4)."""
    die = int(u['die'], 16)
    if not u.get('split'):
        return int(u['offset'], 16)
    hsize = (20 if u['version'] >= 5 else 11) + (12 if u['offset_size'] == 8 else 0)
    return die - hsize


def variant_work(args, tap, tag, cc):
    """The work directory of build TAG (made), or None when --only leaves
    it out or compiler CC is not installed (a skip)."""
    if args.only and args.only not in tag:
        return None
    if not shutil.which(cc):
        tap.skip(tag, '%s not installed' % cc)
        return None
    work = os.path.join(args.work, tag)
    os.makedirs(work, exist_ok=True)
    return work


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--locs', required=True)
    ap.add_argument('--dwexpr', required=True)
    ap.add_argument('--src', required=True)
    ap.add_argument('--work', required=True)
    ap.add_argument('--only')
    args = ap.parse_args()
    tap = Tap()
    if not shutil.which('readelf'):
        print('1..0 # SKIP readelf not installed')
        return 0
    args.src = os.path.abspath(args.src)
    args.work = os.path.abspath(args.work)
    os.makedirs(args.work, exist_ok=True)
    plain = {}
    for prog in PROGS:
        if not os.path.exists(os.path.join(args.src, prog)):
            continue
        for cc, opt, ver, split in VARIANTS:
            tag = '%s.%s.%s.dw%d%s' % (os.path.splitext(prog)[0], cc, opt, ver,
                                       '.split' if split else '')
            work = variant_work(args, tap, tag, cc)
            if not work:
                continue
            binary = os.path.join(work, tag)
            cmd = [cc, '-g', '-gdwarf-%d' % ver, '-' + opt, '-o', binary,
                   os.path.join(args.src, prog)]
            if split:
                cmd.insert(1, '-gsplit-dwarf')
            r = run(cmd, cwd=work)
            if r.returncode != 0:
                tap.ok(False, '%s: build' % tag, [r.stderr.strip()[:300]])
                continue
            r = run([args.locs, '--json', binary])
            try:
                listing = json.loads(r.stdout)
            except ValueError:
                tap.ok(False, '%s: dwexpr locs' % tag, [r.stderr.strip()[:300]])
                continue
            if not split:
                plain[(prog, cc, opt, ver)] = listing
            unit_ctx = {}
            for u in listing['units']:
                unit_ctx[u['index']] = json.dumps({
                    'arch': 'x86_64', 'addr_size': u['addr_size'],
                    'offset_size': u['offset_size'], 'dwarf_version': u['version']})
            nexpr, bad = check_decode(listing)
            nvars = len(listing['vars'])
            tap.ok(not bad and nvars > 0,
                   '%s: %d variables, %d expressions decode' % (tag, nvars, nexpr), bad)
            n, bad = check_asm(args, listing, unit_ctx)
            tap.ok(not bad, '%s: %d disassemblies assemble back to their bytes' % (tag, n), bad)
            if split:
                ref = plain.get((prog, cc, opt, ver))
                dwos = [os.path.join(work, f) for f in os.listdir(work) if f.endswith('.dwo')]
                if ref is None:
                    tap.skip('%s: split ranges' % tag, 'no plain build to compare with')
                else:
                    n, bad, notes = check_split_ranges(listing, ref, dwos[0] if dwos else None)
                    tap.ok(not bad, '%s: %d split location lists resolve as the plain build%s'
                           % (tag, n, ' (%d differ as the producer wrote them)' % len(notes)
                              if notes else ''), bad + notes)
                if dwos:
                    n, bad = check_types(listing, binary, dwos[0])
                    tap.ok(not bad and n > 0, '%s: %d base types agree with readelf (.dwo)'
                           % (tag, n), bad)
            else:
                n, bad, tool = check_ranges(listing, binary)
                tap.ok(not bad, '%s: %d location lists agree with %s' % (tag, n, tool), bad)
                n, bad = check_types(listing, binary, None)
                tap.ok(not bad and n > 0, '%s: %d base types agree with readelf' % (tag, n), bad)
                if shutil.which('llvm-dwarfdump'):
                    n, bad = check_functions(listing, binary)
                    tap.ok(not bad and n > 0, '%s: %d functions and inlined calls agree with '
                           'llvm-dwarfdump' % (tag, n), bad)
                else:
                    tap.skip('%s: functions' % tag, 'llvm-dwarfdump not installed')
    check_type_units(args, tap)
    tap.emit()
    return 0


# Type units (-fdebug-types-section): the builds and the plain one each
# is compared with (same compiler, -O2, same DWARF version).
TYPE_UNIT_VARIANTS = [('gcc', 4), ('gcc', 5), ('clang', 5)]


def var_types(listing):
    """{(function, name, decl_line): (type, bit_size)} of a listing."""
    return {(v.get('function'), v['name'], v.get('decl_line')): (v.get('type'), v.get('bit_size'))
            for v in listing['vars']}


def check_type_units(args, tap):
    """Types through type units: DW_FORM_ref_sig8 references, GCC's
    declarations carrying DW_AT_signature, GCC's DWARF 4 types defined
    at their unit's top with DW_AT_specification naming the declaration
    (C++: the namespace that qualifies them). Then the .dwo reasons."""
    for prog in PROGS + ['cxx.cc']:
        if not os.path.exists(os.path.join(args.src, prog)):
            continue
        for cc, ver in TYPE_UNIT_VARIANTS:
            if prog.endswith('.cc'):
                cc = {'gcc': 'g++', 'clang': 'clang++'}[cc]
            tag = '%s.%s.O2.dw%d.tu' % (os.path.splitext(prog)[0], cc, ver)
            work = variant_work(args, tap, tag, cc)
            if not work:
                continue
            listings = []
            for tu in (False, True):
                binary = os.path.join(work, 'tu' if tu else 'plain')
                cmd = [cc, '-g', '-gdwarf-%d' % ver, '-O2', '-o', binary,
                       os.path.join(args.src, prog)] + (['-fdebug-types-section'] if tu else [])
                r = run(cmd, cwd=work)
                if r.returncode != 0:
                    tap.ok(False, '%s: build' % tag, [r.stderr.strip()[:300]])
                    break
                r = run([args.locs, '--json', binary])
                try:
                    listings.append(json.loads(r.stdout))
                except ValueError:
                    tap.ok(False, '%s: dwexpr locs' % tag, [r.stderr.strip()[:300]])
                    break
            if len(listings) != 2:
                continue
            plain, tus = var_types(listings[0]), var_types(listings[1])
            bad = ['%s: %s without type units, %s with' % (k[1], plain.get(k), tus.get(k))
                   for k in sorted(set(plain) | set(tus), key=str) if plain.get(k) != tus.get(k)]
            typed = sum(1 for t in tus.values() if t[0] and '{...}' not in t[0] and t[1])
            tap.ok(not bad and typed > 0, '%s: %d variables, types and sizes as without type '
                   'units' % (tag, len(tus)), bad)
    # the reasons a split unit has no DIEs
    if args.only and 'dwo' not in args.only:
        return
    if not shutil.which('gcc'):
        tap.skip('dwo reasons', 'gcc not installed')
        return
    work = os.path.join(args.work, 'dwo-reasons')
    os.makedirs(work, exist_ok=True)
    for name, flags, want in (
            ('tu4', ['-gdwarf-4', '-fdebug-types-section'], 'DW_DLE_SECTION_DUPLICATION'),
            ('gone', ['-gdwarf-5'], 'cannot open')):
        binary = os.path.join(work, name)
        r = run(['gcc', '-g', '-gsplit-dwarf', '-O2', '-o', binary,
                 os.path.join(args.src, 'vars.c')] + flags, cwd=work)
        if r.returncode != 0:
            tap.ok(False, 'dwo reasons: build %s' % name, [r.stderr.strip()[:300]])
            continue
        if name == 'gone':
            for f in os.listdir(work):
                if f.startswith('gone') and f.endswith('.dwo'):
                    os.unlink(os.path.join(work, f))
        r = run([os.path.abspath(args.locs), '--json', binary], cwd=work)
        try:
            units = json.loads(r.stdout)['units']
        except (ValueError, KeyError):
            tap.ok(False, 'dwo reasons: %s: dwexpr locs' % name, [r.stderr.strip()[:300]])
            continue
        got = [u.get('dwo_error') for u in units]
        tap.ok(all(u.get('dwo_missing') and want in (u.get('dwo_error') or '') for u in units)
               and units, 'dwo reasons: %s: every split unit says its .dwo was not read: '
               '%s' % (name, want), ['got %s' % got])


if __name__ == '__main__':
    sys.exit(main())
