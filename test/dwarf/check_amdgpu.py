#!/usr/bin/env python3
"""test/dwarf/check_amdgpu.py: issue 6 point 6, AMDGPU objects without a
process: every variable's location expression decoded (AMDGPU register
names, LLVM operations, address spaces) and evaluated on a simulated
wave64 wavefront given as a context file (amdgpu_wave.json), lane by lane
(`dwexpr locs OBJ --context FILE [--lane N | --all-lanes]`).

Two kinds of object:
- amdgpu_wave.S, hand-written DWARF 5 in the heterogeneous-debugging
  shapes (DW_OP_LLVM_user sub-ops: push_lane, offset, form_aspace_address,
  piece_end), assembled by clang for gfx90a: exact values per lane;
- an OpenCL kernel compiled by the installed clang (-O0 and -O2) and
  linked into a code object: clang 14 does not emit the heterogeneous
  operations; it writes `DW_OP_fbreg N; DW_OP_lit1; DW_OP_swap;
  DW_OP_xderef` (1: clang's DWARF number for private memory) and, at -O2,
  `DW_OP_bregx VGPRn 0; DW_OP_lit1; DW_OP_swap; DW_OP_xderef`. Read by
  the seed's rules, DW_OP_xderef dereferences (it is DW_OP_swap;
  DW_OP_LLVM_form_aspace_address; DW_OP_deref), so these say "the
  variable's address is the value stored there", which is not what clang
  means; and its frame base, DW_OP_regx SGPR33 used by DW_OP_fbreg as
  DW_OP_bregx SGPR33 0, reads 64 bits (the generic type) from a 32-bit
  register. The checks pin down both readings.
TAP output; SKIP when clang cannot target amdgcn."""
import argparse
import json
import os
import shutil
import subprocess
import sys

N = 0
FAILED = 0


def ok(cond, what, detail=''):
    global N, FAILED
    N += 1
    print('%s %d - %s' % ('ok' if cond else 'not ok', N, what))
    if not cond:
        FAILED += 1
        for line in str(detail).splitlines()[:20]:
            print('#   ' + line)


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          timeout=120)


AMDGCN = ['-target', 'amdgcn-amd-amdhsa', '-mcpu=gfx90a', '-nogpulib']

KERNEL = r'''
kernel void scale(global float *out, global const float *in, float k, int n)
{
    int i = (int)__builtin_amdgcn_workitem_id_x();
    float v = in[i] * k;
    if (i < n)
        out[i] = v + 1.0f;
}
'''

# amdgpu_wave.S: the disassembly dwexpr must give for each variable
WAVE_OPS = {
    'k': ['DW_OP_fbreg 4'],
    'lane_id': ['DW_OP_regx 2560 (VGPR0)', 'DW_OP_LLVM_push_lane', 'DW_OP_lit4', 'DW_OP_mul',
                'DW_OP_LLVM_offset'],
    'wide': ['DW_OP_regx 2560 (VGPR0)', 'DW_OP_LLVM_push_lane', 'DW_OP_lit4', 'DW_OP_mul',
             'DW_OP_LLVM_offset', 'DW_OP_piece 4', 'DW_OP_regx 2561 (VGPR1)',
             'DW_OP_LLVM_push_lane', 'DW_OP_lit4', 'DW_OP_mul', 'DW_OP_LLVM_offset',
             'DW_OP_piece 4', 'DW_OP_LLVM_piece_end'],
    'priv': ['DW_OP_regx 65 (SGPR33)', 'DW_OP_deref_size 4', 'DW_OP_lit8', 'DW_OP_plus',
             'DW_OP_lit5', 'DW_OP_LLVM_form_aspace_address'],
    'shared': ['DW_OP_lit16', 'DW_OP_lit3', 'DW_OP_LLVM_form_aspace_address', 'DW_OP_nop'],
    'glob': ['DW_OP_addr 0x2000'],
}


def wave_expected(lane):
    """What each variable of amdgpu_wave.S reads in LANE with amdgpu_wave.json
    (VGPR0 lane i = i, VGPR1 lane i = 0x10000080 + i, SGPR33 = 0x100)."""
    priv = {0: '0a000000', 2: 'deadbeef'}.get(lane)
    return {
        'k': '0000c03f',                              # private_wave 0x104: 1.5f
        'lane_id': '%02x000000' % lane,
        'wide': '%02x000000%02x000010' % (lane, 0x80 + lane),
        'priv': priv,                                 # private_lane: per lane, else unreadable
        'shared': '2a000000',                         # LDS 0x10
        'glob': '07000000',                           # global 0x2000
    }


def ops_of(v):
    loc = v['location']
    if loc['form'] == 'exprloc':
        return [o.split(': ', 1)[1] for o in loc['expr']['ops']]
    return None


def all_vars(res):
    vs = []
    for f in res.get('frames', []):
        vs += f['vars']
    return vs + res.get('globals', [])


def check_wave(dw, src, work, ctx):
    obj = os.path.join(work, 'amdgpu_wave.o')
    b = run(['clang'] + AMDGCN + ['-c', os.path.join(src, 'amdgpu_wave.S'), '-o', obj])
    ok(b.returncode == 0, 'assemble amdgpu_wave.S for gfx90a', b.stderr)
    if b.returncode:
        return
    r = run(dw + ['locs', '--json', obj])
    res = json.loads(r.stdout)
    ok(r.returncode == 0 and res['arch'] == 'amdgpu-wave64', 'an AMDGPU object is amdgpu-wave64',
       r.stderr + res.get('arch', ''))
    got = {v['name']: ops_of(v) for v in res['vars']}
    for name, want in WAVE_OPS.items():
        ok(got.get(name) == want, '%s: decoded %s' % (name, '; '.join(want)), got.get(name))
    # one lane at a time
    for lane in (0, 2, 63):
        r = run(dw + ['locs', '--json', obj, '--context', ctx, '--lane', str(lane)])
        res = json.loads(r.stdout)
        have = {v['name']: v.get('hex') for v in all_vars(res)}
        want = wave_expected(lane)
        ok(have == want, 'lane %d: every variable read on the simulated wave' % lane,
           'have %s\nwant %s\n%s' % (have, want, r.stderr))
    # the locations themselves: address spaces and lanes
    r = run(dw + ['locs', '--json', obj, '--context', ctx, '--lane', '2'])
    res = json.loads(r.stdout)
    locs = {v['name']: v['result'] for v in all_vars(res)}
    p = locs['priv']['locations'][0]
    ok(p['kind'] == 'memory' and p['aspace'] == 5 and p['address'] == '0x108' and
       p.get('lane') == 2, 'priv: memory in private_lane (5) at 0x108 of lane 2', p)
    s = locs['shared']['locations'][0]
    ok(s['kind'] == 'memory' and s['aspace'] == 3 and s['address'] == '0x10',
       'shared: memory in local (3) at 0x10', s)
    w = locs['wide']['locations'][0]
    parts = w.get('parts', [])
    ok(w['kind'] == 'composite' and len(parts) == 2 and
       [pp['locations'][0].get('regno') for pp in parts] == [2560, 2561] and
       [pp['locations'][0].get('bit_offset') for pp in parts] == [64, 64],
       'wide: two 32-bit pieces, lane 2\'s slice (bit 64) of VGPR0 and VGPR1', w)
    # every lane at once
    r = run(dw + ['locs', '--json', obj, '--context', ctx, '--all-lanes'])
    res = json.loads(r.stdout)
    lanes = {v['name']: v.get('lanes') for v in all_vars(res)}
    want = {n: [wave_expected(l)[n] for l in range(64)] for n in WAVE_OPS}
    ok(lanes == want, '--all-lanes: each variable in all 64 lanes', lanes)
    h = run(dw + ['locs', obj, '--context', ctx, '--all-lanes'])
    ok(h.returncode == 0 and 'lanes: 00000000 01000000' in h.stdout, '--all-lanes human output',
       h.stdout[:600])
    # errors
    r = run(dw + ['locs', obj, '--context', ctx, '--lane', '64'])
    ok(r.returncode == 2 and 'no such lane: 64 (the context has 64 lanes)' in r.stderr,
       '--lane past the wave is a usage error', r.stderr)
    r = run(dw + ['locs', obj, '--lane', '1'])
    ok(r.returncode == 2 and 'need --context' in r.stderr, '--lane without a context', r.stderr)
    r = run(dw + ['locs', obj, '--all-lanes'])
    ok(r.returncode == 2 and 'need --context' in r.stderr, '--all-lanes without a context',
       r.stderr)
    r = run(dw + ['locs', obj, '--context', ctx, '--lane', 'x'])
    ok(r.returncode == 2 and 'expected a lane number' in r.stderr, '--lane needs a number',
       r.stderr)


def check_kernel(dw, work, ctx):
    cl = os.path.join(work, 'scale.cl')
    with open(cl, 'w') as fp:
        fp.write(KERNEL)
    for opt in ('O0', 'O2'):
        co = os.path.join(work, 'scale.%s.co' % opt)
        b = run(['clang'] + AMDGCN + ['-g', '-' + opt, cl, '-o', co])
        ok(b.returncode == 0, 'clang builds and links the kernel at -%s' % opt, b.stderr)
        if b.returncode:
            continue
        r = run(dw + ['locs', '--json', co])
        res = json.loads(r.stdout)
        ok(r.returncode == 0 and res['arch'] == 'amdgpu-wave64', '-%s: listed' % opt, r.stderr)
        exprs = []
        for v in res['vars']:
            loc = v['location']
            if loc['form'] == 'exprloc':
                exprs.append(ops_of(v))
            elif loc['form'] == 'loclist':
                exprs += [[o.split(': ', 1)[1] for o in e['expr']['ops']] for e in loc['entries']]
        flat = [o for e in exprs for o in e]
        ok(exprs and all(e[-3:] == ['DW_OP_lit1', 'DW_OP_swap', 'DW_OP_xderef'] for e in exprs),
           '-%s: every location ends DW_OP_lit1; DW_OP_swap; DW_OP_xderef (clang\'s private)'
           % opt, exprs)
        ok(not any('LLVM' in o for o in flat),
           '-%s: clang 14 emits none of the heterogeneous DW_OP_LLVM_* operations' % opt, flat)
        if opt == 'O2':
            ok(any(o.startswith('DW_OP_bregx 2560 (VGPR0)') for o in flat) and
               any(o.startswith('DW_OP_bregx 2561 (VGPR1)') for o in flat),
               '-O2: the variables in VGPR0 / VGPR1 (named)', flat)
            continue
        ok(exprs[0][0] == 'DW_OP_fbreg 8', '-O0: out at DW_OP_fbreg 8', exprs[0])
        # evaluated in the kernel (its symbol's address) on the wave
        sym = run(['readelf', '-sW', co]).stdout
        pc = None
        for line in sym.splitlines():
            f = line.split()
            if len(f) >= 8 and f[7] == 'scale' and f[3] == 'FUNC':
                pc = int(f[1], 16) + 0x10
        ok(pc is not None, '-O0: the kernel symbol', sym[-400:])
        if pc is None:
            continue
        r = run(dw + ['locs', '--json', co, '--context', ctx, '--pc', hex(pc), '--lane', '0'])
        res = json.loads(r.stdout)
        vs = {v['name']: v for v in all_vars(res)}
        out = vs.get('out', {}).get('result', {})
        ok(out.get('class') == 'evaluation' and out.get('op') == 'DW_OP_fbreg' and
           'DW_OP_bregx' in out.get('message', '') and
           'past the end of the register' in out.get('message', ''),
           '-O0: the SGPR33 frame base read as a 64-bit DW_OP_bregx is out of range', out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--dwexpr', required=True)
    ap.add_argument('--src', required=True)
    ap.add_argument('--work', required=True)
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    probe = os.path.join(args.work, 'probe.o')
    r = None
    if shutil.which('clang'):
        r = subprocess.run(['clang'] + AMDGCN + ['-x', 'cl', '-c', '-', '-o', probe],
                           input='kernel void k(void) {}\n', text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r is None or r.returncode != 0:
        print('1..0 # SKIP clang cannot target amdgcn-amd-amdhsa here')
        return 0
    dw = [os.path.abspath(args.dwexpr)]
    ctx = os.path.join(args.src, 'amdgpu_wave.json')
    check_wave(dw, args.src, args.work, ctx)
    check_kernel(dw, args.work, ctx)
    print('1..%d' % N)
    return 1 if FAILED else 0


if __name__ == '__main__':
    sys.exit(main())
