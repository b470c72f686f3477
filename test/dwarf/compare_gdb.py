#!/usr/bin/env python3
"""test/dwarf/compare_gdb.py: dwexpr's variables against GDB's (issue 6
point 5). Builds the test programs with gcc and clang at several levels
and DWARF versions, runs each under GDB to a probe function, dumps every
frame's locals and arguments (bytes of each value, field by field where
GDB has no address) with GDB's registers and memory, and compares them
with dwexpr's reading of the same variables.

Two comparisons, both from one build and one GDB run per variant. The
locs comparison: each GDB frame becomes a context file (frames[0] =
GDB's registers of that frame, frames[1] = its caller's; caller-saved
registers undefined in the caller per the x86-64 psABI; the stack, the
program's data, read-only data included, and the TLS block as memory)
and `dwexpr locs --pc PC --context FILE --json` evaluates its variables.
The vars comparison (with --vars DWEXPR): after its dump, GDB writes a
core (gcore) at the probe and then leaves the process stopped there
(detaching with a SIGSTOP pending; the dump, written first, is the same
as without --vars): `DWEXPR vars --core CORE --json BINARY` and `DWEXPR
vars --pid PID --json BINARY` (contract "dwexpr vars") are both compared
frame by frame, globals included, and the members of structures, unions
and arrays apart ("members agree"), and the frames themselves ("frames
agree": function, GDB's tail call frames, pc, CFA). The vars comparison
alone has a DWARF package build (binutils dwp). tailcalls.c has
functions that end in jumps: GDB's tail call frames. statics.c has
static locals of inlined functions, a parameter that is an entry value
of an entry value through 15 recursive frames, and const and volatile
arrays (their types). solib.c (vars comparison only) reaches its probe
through a shared library of its own (solib_lib.c), whose frames are read
with the library's DWARF; its .debugfile build moves both files' DWARF
to separate debug files (the library's found by build id under the debug
directory, the program's by .gnu_debuglink in .debug/). dwexpr looks for
debug files in the variant's own debug directory only (--debug-dir):
libc's debug file (libc6-dbg) would cost a second a run, for frames past
main, which are not compared. GDB looks there and in its own
debug-file-directory (/usr/lib/debug), as before: its entry values in a
frame that calls into libc depend on libc's DWARF (GDB gives them up
when it cannot check that the callee has no tail calls back).
rust_vars.rs (rustc, when installed; a SKIP that says so when not) is
named and typed in GDB's Rust notation: functions by their namespaces
("rust_vars::main::{closure#0}"), types as Rust writes them; built by a
rustc 1.88+ (tag rustc: DWARF 4 and 5) and by an older one without -C
dwarf-version (tag rustc163: Debian 12's 1.63, DWARF 4, its standard
library with full DWARF, whose units' globals are compared in the --vars
mode only). cxx_decl.cc is built with cxx_decl_def.cc (SOURCES), which
holds the key functions of the classes cxx_decl.cc uses: g++ and clang++
describe them there alone, and by declarations in cxx_decl.cc, which GDB
completes with the other unit's definitions. cxx_kinds.cc has the C++
types the others lack (scoped enums of negative and 64-bit values,
anonymous unions and structures in a class, class bit-fields, std::array
and std::pair, std::nullptr_t, non-type template arguments of every
kind). ckinds.c has the C types the others lack (long double _Complex,
_Atomic, vectors, bit-fields across storage units, packed structures,
enums of negative and 64-bit values, nested anonymous members, a 2-D
VLA, char16_t/char32_t, __float128; with GCC decimal floats, complex
integers and a nested function); fkinds.f90 the Fortran ones (derived
types with allocatable, pointer and character components, every logical,
complex and integer kind, a common block, equivalence, unallocated and
disassociated arrays). cxx_unwind.cc stops in a destructor that the
unwinder runs while an exception propagates (frames through libgcc's
_Unwind_RaiseException and __cxa_throw). Members include anonymous structure and union members (matched
by bit offset) and a class's base classes (named by their type; a
virtual base where its vtable places it).

Prints `TAG MODE: agree N / M` and each disagreement, MODE locs or vars,
then each comparison's summary (lines starting `locs:` and `vars:`);
with --tap, TAP output (one test per build variant and comparison, a SKIP
when gcc or gdb is missing). --no-locs: the vars comparison alone;
--jobs N: N variants at once (threads; the output keeps the order).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

# GDB's x86-64 register names by DWARF number (psABI Figure 3.36).
X86_64_REGS = ['rax', 'rdx', 'rcx', 'rbx', 'rsi', 'rdi', 'rbp', 'rsp',
               'r8', 'r9', 'r10', 'r11', 'r12', 'r13', 'r14', 'r15', 'rip']
XMM_BASE = 17
# x87 st0-7 (DWARF 33-40): 10 bytes each (the 80-bit extended format)
ST_BASE = 33
# Not preserved across calls (psABI 3.2.1). GDB shows them in a caller
# frame with the callee's value ("same value"); the context leaves them out
# of frames[1] so that dwexpr sees them as "same value" too (a younger
# frame's register), which its entry-value rule does not trust.
VOLATILE = [0, 1, 2, 4, 5, 8, 9, 10, 11] + list(range(17, 33)) + list(range(33, 41))

GDB_SCRIPT = r'''
import gdb, json, re, struct

# The dump must not run code in the inferior: GDB takes the address of an
# array that is not in memory (an optimized-out global, say) by copying it
# into memory malloc'd in the inferior, an inferior call; on some kernels
# the registers it restores afterwards are not the ones the program had
# (xmm0 came back stale), so the core and the live process dwexpr reads
# would no longer be the state GDB printed.
gdb.execute('set may-call-functions off')

OUT = %(out)r
PROBE = %(probe)r
REGS = %(regs)r

def tohex(b):
    return ''.join('%%02x' %% x for x in b)

def scalar_bytes(v, size):
    t = v.type.strip_typedefs()
    code = t.code
    if code == gdb.TYPE_CODE_FLT:
        f = float(v)
        if size == 4:
            return struct.pack('<f', f)
        if size == 8:
            return struct.pack('<d', f)
        if size in (12, 16):
            # a long double not in memory (an x87 register): /x gives its
            # bytes (GDB's conversion from the register zeroes the padding)
            try:
                return int(v.format_string(format='x'), 16).to_bytes(size, 'little')
            except Exception:
                return None
        return None
    try:
        n = int(v)
    except Exception:
        try:
            n = int(str(v), 0)   # 128-bit integers
        except Exception:
            return None
    return (n & ((1 << (8 * size)) - 1)).to_bytes(size, 'little')

def synthetic(v):
    """Whether V prints as GDB's "<synthetic pointer>"."""
    try:
        return str(v) == '<synthetic pointer>'
    except Exception:
        return False

def value_bytes(v, out, base, size):
    """Fill OUT[base:base+size] with V's bytes: None where unknown,
    'xx' where GDB says optimized out."""
    t = v.type.strip_typedefs()
    aggregate = t.code in (gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION, gdb.TYPE_CODE_ARRAY)
    # is_optimized_out is true when any part is: aggregates go field by field
    if v.is_optimized_out and not aggregate:
        for i in range(size):
            out[base + i] = 'xx'
        return
    if t.code == gdb.TYPE_CODE_PTR and synthetic(v):
        # an implicit pointer part (DW_OP_implicit_pointer): no bytes, as
        # dwexpr's "xx"
        for i in range(size):
            out[base + i] = 'ip'
        return
    if t.code in (gdb.TYPE_CODE_REF, gdb.TYPE_CODE_RVALUE_REF):
        # a C++ reference's own bytes are the address it holds (v.address
        # is the referent's: reading there gave the referent's bytes)
        try:
            a = int(v.referenced_value().address)
            for i in range(size):
                out[base + i] = '%%02x' %% ((a >> (8 * i)) & 0xff)
        except Exception:
            pass
        return
    try:
        addr = v.address
    except Exception:
        addr = None
    if addr is not None:
        try:
            mem = gdb.selected_inferior().read_memory(int(addr), size)
            for i, b in enumerate(bytes(mem)):
                out[base + i] = '%%02x' %% b
            return
        except Exception:
            pass
    if t.code == gdb.TYPE_CODE_UNION:
        # members overlap: a byte some member gives wins over one another
        # member has optimized out (a union of int16_t f0 = -8 and an
        # optimized-out uint32_t f1 is f8ff then two unknown bytes)
        for f in t.fields():
            if f.bitsize or not hasattr(f, 'bitpos'):
                continue
            try:
                fv = v[f]
            except Exception:
                continue
            fsize = min(f.type.strip_typedefs().sizeof, size)
            mine = [None] * fsize
            value_bytes(fv, mine, 0, fsize)
            for i, c in enumerate(mine):
                cur = out[base + i]
                known = isinstance(c, str) and c not in ('xx', 'sp', 'ip')
                if c is not None and (known or cur is None):
                    out[base + i] = c
        return
    if t.code == gdb.TYPE_CODE_STRUCT:
        for f in t.fields():
            if f.is_base_class or not hasattr(f, 'bitpos'):
                continue
            try:
                fv = v[f]
            except Exception:
                continue
            fsize = f.type.strip_typedefs().sizeof
            if f.bitsize:
                # a bit-field: GDB gives the value; place its bits ('x':
                # optimized out)
                n = None
                if not fv.is_optimized_out:
                    try:
                        n = int(fv) & ((1 << f.bitsize) - 1)
                    except Exception:
                        continue
                for k in range(f.bitsize):
                    bit = f.bitpos + k
                    i = base + bit // 8
                    if i >= len(out):
                        continue
                    cur = out[i]
                    if isinstance(cur, str) and cur not in ('xx', 'sp'):
                        n0 = int(cur, 16)
                        cur = [(n0 >> j) & 1 for j in range(8)]
                    elif not isinstance(cur, list):
                        cur = [None] * 8
                    cur[bit %% 8] = 'x' if n is None else (n >> k) & 1
                    out[i] = cur
                continue
            if f.type.strip_typedefs().code != gdb.TYPE_CODE_PTR:
                try:
                    if str(fv) == '<synthetic pointer>':
                        # GDB's name for bits no DW_OP_piece describes
                        for i in range(fsize):
                            out[base + f.bitpos // 8 + i] = 'sp'
                        continue
                except Exception:
                    pass
            value_bytes(fv, out, base + f.bitpos // 8, fsize)
        return
    if t.code == gdb.TYPE_CODE_ARRAY:
        try:
            lo, hi = t.range()
        except Exception:
            return
        esize = t.target().strip_typedefs().sizeof
        for k in range(lo, hi + 1):
            try:
                value_bytes(v[k], out, base + (k - lo) * esize, esize)
            except Exception:
                pass
        return
    b = scalar_bytes(v, size)
    if b is not None:
        for i in range(size):
            out[base + i] = '%%02x' %% b[i]

def finish_bytes(out):
    s = []
    for c in out:
        if isinstance(c, list):
            if 'x' in c:
                s.append('xx')
            elif all(x is not None for x in c):
                s.append('%%02x' %% sum(x << i for i, x in enumerate(c)))
            else:
                s.append('??')
        elif c is None:
            s.append('??')
        else:
            s.append(c)
    return ''.join(s)

def members_of(v, depth=0):
    """GDB's members of an aggregate V: [{name, bitpos, bitsize, hex,
    members?}] (arrays: "[k]", at most 64 elements, 4 levels)."""
    t = v.type.strip_typedefs()
    if depth >= 4:
        return None
    out = []
    if t.code in (gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION):
        for f in t.fields():
            if not hasattr(f, 'bitpos'):
                continue
            # an anonymous structure or union member (its members are the
            # enclosing type's): name '', told apart by its bit position
            if not f.name and f.type.strip_typedefs().code not in (gdb.TYPE_CODE_STRUCT,
                                                                   gdb.TYPE_CODE_UNION):
                continue
            try:
                fv = v[f]
            except Exception:
                continue
            ft = f.type.strip_typedefs()
            size = ft.sizeof
            bitpos = f.bitpos
            if f.is_base_class and bitpos is None:
                # a virtual base: its place a DWARF expression computes
                # from the object's vtable (bitpos None); where GDB's cast
                # to it (baseclass_offset) put it in this object
                try:
                    bitpos = 8 * (int(fv.address) - int(v.address))
                except Exception:
                    continue
                if bitpos < 0:
                    continue
            # a base class subobject is named by its type (f.name), as
            # dwexpr's "base" entries are
            d = {'name': f.name or '', 'bitpos': bitpos, 'bitsize': f.bitsize or 8 * size}
            if ft.code == gdb.TYPE_CODE_PTR and synthetic(fv):
                d['synthetic'] = True
            if fv.is_optimized_out and ft.code not in (gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION,
                                                        gdb.TYPE_CODE_ARRAY):
                d['hex'] = 'xx' * ((d['bitsize'] + 7) // 8)
            elif f.bitsize:
                try:
                    n = int(fv) & ((1 << f.bitsize) - 1)
                    d['hex'] = n.to_bytes((f.bitsize + 7) // 8, 'little').hex()
                except Exception:
                    pass
            else:
                b = [None] * size
                try:
                    value_bytes(fv, b, 0, size)
                    d['hex'] = finish_bytes(b)
                except Exception:
                    pass
                sub = members_of(fv, depth + 1)
                if sub:
                    d['members'] = sub
            out.append(d)
        return out
    if t.code == gdb.TYPE_CODE_ARRAY:
        # an unallocated allocatable or a disassociated pointer array (a
        # Fortran descriptor's DW_AT_allocated / DW_AT_associated false):
        # GDB's value has no bytes, and its type's range is the one GDB
        # left unresolved (it evaluates no bounds of an absent object),
        # not elements of the object: none
        try:
            if v.format_string() in ('<not allocated>', '<not associated>'):
                return None
        except Exception:
            pass
        try:
            lo, hi = t.range()
        except Exception:
            return None
        et = t.target().strip_typedefs()
        if et.code == gdb.TYPE_CODE_ARRAY:
            return None   # several dimensions: dwexpr lists one-dimensional arrays only
        # where the elements are: a strided array's (DW_AT_byte_stride) from
        # GDB's addresses, else one after the other
        try:
            base = int(v.address)
            stride = int(v[lo + 1].address) - int(v[lo].address) if hi > lo else et.sizeof
        except Exception:
            base, stride = None, et.sizeof
        for k in range(lo, min(hi + 1, lo + 64)):
            try:
                if base is not None and stride < 0:
                    # a negative stride: GDB 13 moves the array's address to
                    # its lowest element (fortran_adjust_dynamic_array_base_
                    # address_hack) and prints it right, but v[k] subscripts
                    # from that address as if it were the first element's:
                    # element k is at base + (hi - k) * |stride|
                    ev = None
                    bitpos = 8 * (hi - k) * -stride
                    b = ['%%02x' %% x for x in bytes(gdb.selected_inferior().read_memory(
                        base + bitpos // 8, et.sizeof))]
                else:
                    ev = v[k]
                    b = [None] * et.sizeof
                    value_bytes(ev, b, 0, et.sizeof)
                    bitpos = 8 * (k - lo) * et.sizeof
                    if base is not None and ev.address is not None:
                        bitpos = 8 * (int(ev.address) - base)
                d = {'name': '[%%d]' %% (k - lo), 'bitpos': bitpos,
                     'bitsize': 8 * et.sizeof, 'hex': finish_bytes(b)}
                if ev is not None and et.code == gdb.TYPE_CODE_PTR and synthetic(ev):
                    d['synthetic'] = True
                sub = members_of(ev, depth + 1) if ev is not None else None
                if sub:
                    d['members'] = sub
                out.append(d)
            except Exception:
                pass
        return out
    return None

def rust_unplaced_enum(v, t, rust):
    """Whether V (of type T, in a Rust frame when RUST) is, or holds, a
    Rust enum that is not in memory (pieces, registers: rustc -O). GDB
    13 selects an enum's variant from a dynamic type resolved at the
    value's address; without one it fails an assertion ("field: Assertion
    `idx >= 0 && idx < num_fields ()' failed") printing the value, which
    ends GDB. Its fields read apart, by field, are sound: the bytes come
    from those (value_bytes), no text and no members (GDB's members of the
    unresolved type are every variant's)."""
    if not rust or t.code != gdb.TYPE_CODE_STRUCT or not t.dynamic:
        return False
    try:
        return v.address is None
    except Exception:
        return False

def read_hex(v, size, d):
    # V's SIZE bytes into d['hex'] (d['error'] when GDB fails part way),
    # optimized out when every byte is unavailable
    out = [None] * size
    try:
        value_bytes(v, out, 0, size)
    except Exception as e:
        d['error'] = str(e)
    d['hex'] = finish_bytes(out)
    if d['hex'] and set(d['hex']) == {'x'}:
        d['optimized_out'] = True

def static_size(sym, d):
    # the size of SYM's own type, when it differs from that of its value
    # D (GDB resolves a dynamic type at the value's address: a Rust enum,
    # or a structure holding one, is sized by the fields resolution keeps)
    try:
        n = sym.type.strip_typedefs().sizeof
        if 'size' in d and n != d['size']:
            d['static_size'] = n
    except Exception:
        pass

def describe(v, rust=False):
    t = v.type.strip_typedefs()
    size = t.sizeof
    d = {'size': size, 'text': None}
    if rust_unplaced_enum(v, t, rust):
        d['text'] = '<a Rust enum not in memory: GDB 13 cannot print it>'
        read_hex(v, size, d)
        return d
    if size > 65536:
        d['error'] = 'too large (%%d bytes): an uninitialized descriptor?' %% size
        return d
    if t.code == gdb.TYPE_CODE_STRING and size == 0:
        # GDB 13 loops forever in str() of such a value (optimized-out length)
        d['error'] = 'a dynamic string GDB sizes 0 (GDB 13 hangs printing it)'
        return d
    try:
        if (v.is_optimized_out and t.code == gdb.TYPE_CODE_ARRAY and
                str(t.target()).startswith('character')):
            # nor does str() return for an optimized-out character(len=n)
            # local, which GDB makes an array of characters
            d['text'] = '<optimized out>'
        else:
            d['text'] = str(v)[:200]
    except Exception as e:
        d['text'] = '<error: %%s>' %% e
    aggregate = t.code in (gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION, gdb.TYPE_CODE_ARRAY)
    if v.is_optimized_out and not aggregate:
        d['optimized_out'] = True
        return d
    is_ref = t.code in (gdb.TYPE_CODE_REF, gdb.TYPE_CODE_RVALUE_REF)
    if ((d['text'] == '<synthetic pointer>' and t.code == gdb.TYPE_CODE_PTR) or
            (is_ref and '<synthetic pointer>' in (d['text'] or ''))):
        # (a reference prints as "@<synthetic pointer>: VALUE")
        d['synthetic'] = True
        try:
            p = v.referenced_value() if is_ref else v.dereference()
            psize = p.type.strip_typedefs().sizeof
            out = [None] * psize
            value_bytes(p, out, 0, psize)
            d['pointee'] = finish_bytes(out)
        except Exception as e:
            d['pointee_error'] = str(e)
        return d
    read_hex(v, size, d)
    if not d.get('optimized_out') and aggregate:
        try:
            m = members_of(v)
            if m:
                d['members'] = m
        except Exception as e:
            d['members_error'] = str(e)
    return d

def regs_of(frame):
    r = {}
    for num, name in REGS:
        try:
            v = frame.read_register(name)
            if v.is_optimized_out:
                continue
            if name.startswith('st'):
                n = int(v.format_string(format='x'), 16)
                r[str(num)] = {'bytes': tohex(n.to_bytes(10, 'little'))}
            elif name.startswith('xmm'):
                a = v['v2_int64']
                n = (int(a[0]) & 0xffffffffffffffff) | ((int(a[1]) & 0xffffffffffffffff) << 64)
                r[str(num)] = {'bytes': tohex(n.to_bytes(16, 'little'))}
            else:
                r[str(num)] = '0x%%x' %% (int(v) & 0xffffffffffffffff)
        except Exception:
            pass
    return r

def cfa_of(frame):
    frame.select()
    s = gdb.execute('info frame', to_string=True)
    m = re.search(r'frame at (0x[0-9a-f]+)', s)
    return m.group(1) if m else None

def frame_vars(frame):
    vs = []
    try:
        rust = frame.language() == 'rust'
    except Exception:
        rust = False
    try:
        block = frame.block()
    except RuntimeError:
        return vs
    depth_blocks = []
    while block is not None:
        depth_blocks.append(block)
        if block.function is not None:
            break
        block = block.superblock
    nblocks = len(depth_blocks) - 1
    for level, b in enumerate(depth_blocks):
        for sym in b:
            if not (sym.is_variable or sym.is_argument or sym.addr_class == gdb.SYMBOL_LOC_CONST or sym.addr_class == gdb.SYMBOL_LOC_OPTIMIZED_OUT):
                continue
            if sym.addr_class == gdb.SYMBOL_LOC_TYPEDEF:
                continue
            try:
                label = str(sym.type) == '__CORE_ADDR'
            except gdb.error:
                label = False   # a type GDB cannot print (a Fortran bound)
            if label:
                # a DW_TAG_label whose code was removed: GDB's info locals
                # shows it as an optimized-out local; a label is no
                # variable (contract "dwexpr vars": variables, parameters)
                continue
            d = {'name': sym.name, 'line': sym.line, 'param': bool(sym.is_argument),
                 'block_depth': nblocks - level}
            try:
                d['type'] = str(sym.type)
            except Exception as e:
                # GDB 13's Fortran printer fails on a lower bound computed
                # at run time ("Lower bound may not be '*' in F77")
                d['type_error'] = str(e)
            try:
                v = frame.read_var(sym, b)
                d.update(describe(v, rust))
                static_size(sym, d)
            except Exception as e:
                d['error'] = str(e)
            vs.append(d)
    return vs

def main():
    gdb.execute('set pagination off')
    gdb.execute('set confirm off')
    gdb.execute('break ' + PROBE)
    gdb.execute('run')
    res = {'frames': []}
    f = gdb.newest_frame()
    i = 0
    past_main = False
    while f is not None and i < 64:
        fn = f.function()
        name = f.name()
        d = {'index': i, 'function': name, 'inline': f.type() == gdb.INLINE_FRAME,
             'tail_call': f.type() == gdb.TAILCALL_FRAME, 'pc': '0x%%x' %% f.pc()}
        d['registers'] = regs_of(f)
        d['cfa'] = cfa_of(f)
        d['vars'] = frame_vars(f) if not past_main else []
        d['past_main'] = past_main
        res['frames'].append(d)
        if past_main:
            break
        if name == 'main':
            past_main = True
        f = f.older()
        i += 1
    gdb.newest_frame().select()
    try:
        res['fs_base'] = '0x%%x' %% int(gdb.newest_frame().read_register('fs_base'))
    except Exception:
        res['fs_base'] = None
    res['pid'] = gdb.selected_inferior().pid
    maps = open('/proc/%%d/maps' %% res['pid']).read().splitlines()
    res['maps'] = maps
    mem = []
    def dump(lo, hi):
        try:
            data = bytes(gdb.selected_inferior().read_memory(lo, hi - lo))
            mem.append({'address': '0x%%x' %% lo, 'bytes': tohex(data)})
        except Exception:
            pass
    sp = int(gdb.newest_frame().read_register('rsp'))
    fs = int(res['fs_base'], 16) if res['fs_base'] else 0
    prev_end, prev_path = None, ''
    for line in maps:
        parts = line.split()
        lo, hi = [int(x, 16) for x in parts[0].split('-')]
        perms = parts[1]
        path = parts[5] if len(parts) > 5 else ''
        # the rest of .bss: an anonymous mapping right after the
        # program's last one (the pages its file does not back)
        bss = not path and lo == prev_end and prev_path == %(binary)r
        prev_end, prev_path = hi, path
        if 'r' not in perms:
            continue
        if bss and 'w' in perms:
            dump(lo, min(hi, lo + 0x100000))
            continue
        if 'w' not in perms:
            # the program's read-only data (.rodata, .data.rel.ro once
            # RELRO made it read-only): its const globals
            if path == %(binary)r and 'x' not in perms:
                dump(lo, min(hi, lo + 0x100000))
            continue
        if lo <= sp < hi:
            dump(max(lo, sp - 512), hi)
        elif lo <= fs < hi or (fs and lo <= fs - 1 < hi):
            dump(max(lo, fs - 0x2000), min(hi, fs + 0x400))
        elif path == %(binary)r or path == '[heap]':
            dump(lo, min(hi, lo + 0x100000))
    res['memory'] = mem
    # globals of the program, read in frame 0
    gl = []
    for name in %(globals)r:
        try:
            sym = gdb.lookup_global_symbol(name) or gdb.lookup_static_symbol(name)
            if sym is None:
                sym = gdb.lookup_symbol(name)[0]
            v = sym.value(gdb.newest_frame()) if sym.needs_frame else sym.value()
            d = {'name': name, 'line': sym.line}
            try:
                d['type'] = str(sym.type)
            except Exception as e:
                d['type_error'] = str(e)
            d.update(describe(v))
            static_size(sym, d)
            try:
                # which object of the name GDB took (several units may
                # define one: rustc's vtables in Debian's libstd)
                if v.address is not None:
                    d['address'] = '0x%%x' %% int(v.address)
            except Exception:
                pass
        except Exception as e:
            d = {'name': name, 'error': str(e)}
        gl.append(d)
    res['globals'] = gl
    # everything the comparisons read of GDB, written before the core: the
    # contexts (--vars or not) do not depend on the --vars steps below,
    # which come after GDB's values were taken
    with open(OUT, 'w') as fp:
        json.dump(res, fp)
    if %(core)r:
        gdb.execute('gcore ' + %(core)r, to_string=True)
    if %(pidcmd)r:
        # the live-process mode: leave the process stopped at the probe
        # (a SIGSTOP pending when GDB detaches) and let dwexpr attach
        import os, signal, subprocess
        pid = res['pid']
        os.kill(pid, signal.SIGSTOP)
        gdb.execute('detach', to_string=True)
        try:
            with open(%(pidout)r, 'w') as fp:
                subprocess.run(%(pidcmd)r + ['--pid', str(pid), %(binary)r], stdout=fp,
                               stderr=subprocess.DEVNULL, timeout=120)
        finally:
            os.kill(pid, signal.SIGKILL)
    else:
        gdb.execute('kill')

main()
'''

VARIANTS = [
    ('gcc', 'O0', 5, False), ('gcc', 'O1', 5, False), ('gcc', 'O2', 5, False),
    ('gcc', 'Og', 5, False), ('gcc', 'O0', 4, False), ('gcc', 'O2', 4, False),
    ('clang', 'O0', 5, False), ('clang', 'O1', 5, False), ('clang', 'O2', 5, False),
    ('clang', 'Og', 5, False), ('clang', 'O0', 4, False), ('clang', 'O2', 4, False),
    ('gcc', 'O2', 5, True),
    # a DWARF package (.dwp): GCC's DWARF 4 split units through binutils
    # dwp. (clang's DWARF 5 ones through llvm-dwp 14 are not compared: GDB
    # 13 stops with an internal error on the package, and reads clang's
    # split location lists as <optimized out> even from the .dwo files.)
    ('gcc', 'O2', 4, 'dwp'),
]
# 'tu': type units (-fdebug-types-section): GCC's DWARF 4 .debug_types,
# whose types are defined at the unit's top with DW_AT_specification
# naming their declaration in the namespaces, and clang's DWARF 5
# DW_UT_type units; the units refer to them by DW_FORM_ref_sig8 or
# through a declaration holding DW_AT_signature. (GCC's split DWARF 5
# with type units is not compared: GDB 13 cannot read the .dwo.) For the
# programs of TU_PROGRAMS (their types are what type units change).
TU_VARIANTS = [('gcc', 'O2', 4, 'tu'), ('clang', 'O2', 5, 'tu')]
TU_CXX_VARIANTS = [('g++', 'O0', 4, 'tu'), ('g++', 'O2', 5, 'tu'), ('clang++', 'O2', 5, 'tu')]
TU_PROGRAMS = {'vars.c', 'types.c', 'cxx.cc', 'cxx_thunk.cc', 'cxx_decl.cc'}
# Programs compared in fewer variants than their language's: ckinds.c
# agreed in all 14 C variants when it came (round 21); these six keep
# each compiler at -O0 and -O2, DWARF 4 and split DWARF, and CI's time
# (the 14 took 8 builds more of the plain tree's GDB run)
PROGRAM_VARIANTS = {'ckinds.c': [('gcc', 'O0', 5, False), ('gcc', 'O2', 5, False),
                                 ('gcc', 'O2', 4, False), ('clang', 'O0', 5, False),
                                 ('clang', 'O2', 5, False), ('gcc', 'O2', 5, True)],
                    # agreed in all 9 C++ variants and 4 flag variants
                    # when it came (round 22)
                    'cxx_unwind.cc': [('g++', 'O2', 5, False), ('clang++', 'O2', 5, False)]}
# 'simple': clang's -gsimple-template-names (a class template's
# DW_AT_name without its arguments, which GDB rebuilds from the template
# parameter DIEs), for the C++ programs of TU_PROGRAMS
SIMPLE_VARIANTS = [('clang++', 'O2', 5, 'simple')]
# 'noinline': -fno-inline, for cxx_sort.cc: libstdc++'s inline templates
# become out-of-line instances of an abstract DIE (their "this" is
# artificial only in the abstract one); for arrays.f90: the contained
# worker's out-of-line instance, whose character(len=*) dummy has a type
# of its own, its length a location list
# 'lto': -flto. GCC's LTO unit (first in the file) holds the code and
# names the compile-time units' early-debug DIEs after it (types, a
# global's or function's abstract origin, a call site's callee, a local
# class's methods, a Fortran host's contained procedure, the variable
# an array bound's DW_OP_GNU_variable_value names); at -Og a loop body's
# concrete block lies beside the loop's (GDB's address map of the
# blocks decides). clang's propagates constants into the DWARF (a long
# double's 10-byte DW_AT_const_value, a VLA bound's DIE with
# DW_AT_const_value). (gfortran -flto -O2 inlines the probes away.)
NOINLINE_VARIANTS = {'cxx_sort.cc': [('g++', 'O2', 5, 'noinline')],
                     'arrays.f90': [('gfortran', 'O2', 5, 'noinline'), ('gfortran', 'O0', 5, 'lto')],
                     'ftypes.f90': [('gfortran', 'O0', 5, 'lto')],
                     'cxx_thunk.cc': [('g++', 'O2', 5, 'lto')],
                     'cxx.cc': [('g++', 'O2', 5, 'lto')],
                     'vars.c': [('gcc', 'O2', 5, 'lto'), ('gcc', 'Og', 5, 'lto')],
                     'types.c': [('clang', 'O2', 5, 'lto')],
                     'x87.c': [('gcc', 'O2', 5, 'lto'), ('clang', 'O2', 5, 'lto')],
                     'solib.c': [('gcc', 'O2', 5, 'lto')]}
# DWARF 2 and 3 (-gdwarf-2, -gdwarf-3: what older build systems still
# ask for): DWARF 2 has no constant form for DW_AT_data_member_location,
# so every member's offset is an expression (GCC: DW_OP_plus_uconst N),
# which GDB reads as the constant (members of objects in registers or in
# pieces); .debug_loc lists, DW_AT_high_pc as an address. 'dw64': the
# 64-bit DWARF format (-gdwarf64: 8-byte section offsets, DW_OP_call_ref
# and implicit_pointer operands); 'zgnu': GCC's -gz=zlib-gnu (.zdebug_*
# sections: GNU's compressed DWARF before SHF_COMPRESSED, which the
# adapter's own list readers had not found). Added to the programs' own variants;
# when they came (round 22) they agreed in C, C++ and Fortran but for
# GDB's known differences, once DWARF 2's members were read (30 were not).
# (Kept to six builds for CI's time; also agreeing when they came:
# types.c clang -gdwarf-2, lists.c gcc -gdwarf-3, cxx.cc g++ -gdwarf64,
# ftypes.f90 gfortran -gdwarf-2, and DWARF 2 and 3 of every program.)
FORMAT_VARIANTS = {'vars.c': [('gcc', 'O2', 2, False), ('clang', 'O2', 2, False),
                              ('gcc', 'O2', 5, 'dw64'), ('gcc', 'O2', 5, 'zgnu')],
                   'synth.c': [('gcc', 'O2', 2, False)],
                   'cxx.cc': [('g++', 'O2', 2, False)]}
# the compiler flag of each such variant
VARIANT_FLAGS = {'dw64': '-gdwarf64', 'zgnu': '-gz=zlib-gnu', 'tu': '-fdebug-types-section',
                 'simple': '-gsimple-template-names',
                 'noinline': '-fno-inline', 'lto': '-flto'}

# A probe is a function, or FILE:MARK for the line of FILE holding MARK
# (x87.c: values on the x87 stack exist only mid-function, never at a call).
PROGRAMS = [('vars.c', 'probe'), ('types.c', 'probe_t'), ('lists.c', 'step'),
            ('arrays.f90', 'probe_f'), ('bounds.f90', 'probe_b'), ('ftypes.f90', 'probe_ft'),
            ('cxx.cc', 'probe_c'), ('cxx_refs.cc', 'probe'), ('tailcalls.c', 'probe_tc'),
            ('x87.c', 'x87.c:/* STOP */'), ('synth.c', 'probe_s'), ('nocfi.c', 'probe_nc'),
            ('statics.c', 'probe_st'), ('cxx_sort.cc', 'probe'), ('cxx_thunk.cc', 'probe'),
            ('rust_vars.rs', 'rust_vars::probe'), ('cxx_decl.cc', 'probe'),
            ('cxx_kinds.cc', 'probe'), ('cxx_unwind.cc', 'probe'), ('ckinds.c', 'probe'),
            ('fkinds.f90', 'probe_fk')]
# Programs of several units: the other sources each is built with (in
# the same command, after it). cxx_decl.cc uses classes whose key
# functions cxx_decl_def.cc defines: its own DWARF declares them
# (DW_AT_declaration), which GDB resolves to the other unit's definitions.
SOURCES = {'cxx_decl.cc': ['cxx_decl_def.cc']}
# Programs with a shared library of their own: the library each links
# (built first into lib<name>.so next to it, -shared -fPIC, found through
# -rpath $ORIGIN). They are compared in the --vars mode only (a context
# file holds one module).
PROGRAMS += [('solib.c', 'probe_s')]
LIBRARIES = {'solib.c': 'solib_lib.c'}
# 'debugfile': both files stripped (strip -g) after their DWARF was copied
# to separate debug files (objcopy --only-keep-debug)
SOLIB_VARIANTS = [('gcc', 'O0', 5, False), ('gcc', 'O2', 5, False), ('clang', 'O2', 5, False),
                  ('gcc', 'O2', 5, 'debugfile')]
F_VARIANTS = [('gfortran', 'O0', 5, False), ('gfortran', 'O2', 5, False),
              ('gfortran', 'O0', 4, False), ('gfortran', 'Og', 5, False)]
# C++: GDB's qualified and demangled function names, functions defined in
# their class (a lambda's body, a local class's method)
CXX_VARIANTS = [('g++', 'O0', 5, False), ('g++', 'O2', 5, False), ('g++', 'O2', 4, False),
                ('clang++', 'O0', 5, False), ('clang++', 'O2', 5, False)]
# Rust (rustc -g -C opt-level=N -C dwarf-version=V; DWARF 4 is rustc's
# default and that of the standard library's precompiled units): GDB's
# Rust names of functions (namespaces, closures, generics) and types
# ("&[u16]", "*mut T", "[u8; 4]"), enums' variant parts, and what rustc
# -O inlines. 'rustc' is a rustc that takes -C dwarf-version (1.88 and
# later); 'rustc163' one that does not, such as Debian 12's rustc 1.63
# (what a fresh machine's apt brings, with Debian's standard library and
# its DWARF), DWARF 4 only (RUSTC_TAGS).
RUST_VARIANTS = [('rustc', 'O0', 4, False), ('rustc', 'O2', 4, False), ('rustc', 'O2', 5, False),
                 ('rustc163', 'O0', 4, False), ('rustc163', 'O2', 4, False)]


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def elf_info(binary):
    """First PT_LOAD vaddr, PT_TLS memsz/align (readelf -lW)."""
    out = run(['readelf', '-lW', binary]).stdout
    first_load, tls = None, None
    for line in out.splitlines():
        f = line.split()
        if not f:
            continue
        if f[0] == 'LOAD' and first_load is None:
            first_load = int(f[2], 16)
        if f[0] == 'TLS':
            tls = (int(f[5], 16), int(f[7], 16) if f[7].startswith('0x') else int(f[7]))
    return first_load or 0, tls


def load_bias(maps, binary, first_load):
    real = os.path.realpath(binary)
    starts = [int(l.split()[0].split('-')[0], 16) for l in maps
              if len(l.split()) > 5 and os.path.realpath(l.split()[5]) == real]
    return (min(starts) - (first_load & ~0xfff)) if starts else 0


def reg_regs():
    regs = [(i, n) for i, n in enumerate(X86_64_REGS)]
    regs += [(XMM_BASE + i, 'xmm%d' % i) for i in range(16)]
    regs += [(ST_BASE + i, 'st%d' % i) for i in range(8)]
    return regs


def contexts(dump, binary, bias, tls_base):
    """One context per GDB real frame: (gdb frame indices, context)."""
    frames = dump['frames']
    groups = []   # [ [inline..., real] ]
    cur = []
    for f in frames:
        cur.append(f)
        if not f['inline']:
            groups.append(cur)
            cur = []
    if cur:
        groups.append(cur)
    out = []
    for gi, g in enumerate(groups):
        real = g[-1]
        if real.get('past_main'):
            break
        f0 = {'pc': real['pc'], 'registers': real['registers']}
        if real['cfa']:
            f0['cfa'] = real['cfa']
        cframes = [f0]
        if gi + 1 < len(groups):
            c = groups[gi + 1][-1]
            f1 = {'pc': c['pc'], 'registers': {k: v for k, v in c['registers'].items()
                                              if int(k) not in VOLATILE}}
            if c['cfa']:
                f1['cfa'] = c['cfa']
            cframes.append(f1)
        ctx = {'arch': 'x86_64', 'load_bias': '0x%x' % bias, 'frames': cframes,
               'memory': dump['memory']}
        if tls_base is not None:
            ctx['tls_base'] = '0x%x' % tls_base
        out.append((g, gi > 0, ctx))
    return out


def norm(h):
    return h.lower() if isinstance(h, str) else h


def compare_value(g, d):
    """(agree, why). G: GDB's var dump, D: dwexpr's var entry."""
    if 'error' in g and 'hex' not in g and not g.get('optimized_out'):
        if (g['error'] == 'Cannot access memory at address 0x0' and d.get('optimized_out') and
                d.get('hex') is None and (d.get('location') or {}).get('form') == 'none'):
            return 'explained', GDB_DYNAMIC_NO_LOCATION
        return None, 'gdb error: %s' % g['error']
    if g.get('synthetic'):
        ip = d.get('implicit_pointer')
        if not ip:
            return False, 'gdb: synthetic pointer, dwexpr: %s' % describe_d(d)
        if 'pointee' not in g:
            return True, ''
        if set(g['pointee']) <= set('x') and ip.get('hex') is None:
            return True, ''  # the object pointed to is optimized out for both
        ok, why = same_bytes(g['pointee'], ip.get('hex'))
        if ok is False and ip.get('const_value'):
            return 'explained', '%s (%s)' % (GDB_SYNTHETIC_CONST, why)
        return ok, why
    if g.get('optimized_out'):
        if d.get('optimized_out') or d.get('hex') is None and 'class' not in d.get('result', {}):
            return True, ''
        hx = d.get('hex')
        if isinstance(hx, str) and set(hx) <= set('x'):
            return True, ''
        return False, 'gdb: <optimized out>, dwexpr: %s' % describe_d(d)
    gh = g.get('hex')
    if gh is None:
        return None, 'gdb gave no bytes (%s)' % g.get('text')
    dh = d.get('hex')
    if gh == '' and dh is None:
        # an array of no static size whose bounds neither reads (an
        # assumed-size array: GDB "failed to get range bounds")
        return None, 'no bytes (gdb: %s)' % g.get('text')
    if dh is None and d.get('optimized_out'):
        dh = 'xx' * (len(gh) // 2)
    if (isinstance(dh, str) and len(gh) < len(dh) and g.get('static_size') == len(dh) // 2 and
            g.get('size') == len(gh) // 2):
        # GDB sized the value by its resolved dynamic type (GDB_DYNAMIC_SIZE)
        ok, why = same_bytes(gh, dh[:len(gh)], d)
        if ok is True:
            return 'explained', '%s (gdb %s, dwexpr %s)' % (GDB_DYNAMIC_SIZE, gh, dh)
    ok, why = same_bytes(gh, dh, d)
    loc = d.get('location') or {}
    cb = loc.get('bytes') if loc.get('form') == 'const_value' else None
    if ok is False and isinstance(cb, str) and isinstance(dh, str) and \
            len(cb) < len(gh) == len(dh) and gh.startswith(cb) and dh.startswith(cb):
        return 'explained', '%s (gdb %s, dwexpr %s)' % (GDB_CONST_PAST_BLOCK, gh, dh)
    return ok, why


def describe_d(d):
    r = d.get('result', {})
    if 'class' in r:
        return 'error %s: %s' % (r['class'], r.get('message'))
    if d.get('optimized_out'):
        return '<optimized out>'
    if d.get('implicit_pointer'):
        return 'implicit pointer'
    if d.get('read_error'):
        return 'unreadable: %s' % d['read_error'].get('message')
    return str(d.get('hex'))


# A difference GDB is known to get wrong: the reason, for the report.
GDB_SHORT_PIECES = ('explained: GDB invents the bytes past the last DW_OP_piece '
                    '(zeros, or "<synthetic pointer>" for a non-pointer member); '
                    'dwexpr marks them unavailable')


GDB_DYNAMIC_SIZE = ('explained: GDB 13 sizes a value of a dynamic Rust type (an enum\'s '
                    'variant part, or a structure holding one) by the fields its resolution '
                    'keeps, the furthest end of one (resolve_dynamic_struct): no tail padding, '
                    'and for an enum whose discriminant selects no variant (an uninitialized '
                    'one) the discriminant alone; dwexpr gives the DW_AT_byte_size bytes of the '
                    'type, and GDB\'s are the first of them')


GDB_DYNAMIC_NO_LOCATION = ('explained: GDB 13 resolves the dynamic type of a variable without '
                           'a location (a Rust enum rustc -O optimized out) at address 0 '
                           '(read_var_value, LOC_OPTIMIZED_OUT) and fails reading the '
                           'discriminant there ("Cannot access memory at address 0x0"); '
                           'dwexpr: optimized out')


GDB_SHORT_POINTER = ('explained: GDB calls a pointer member past the last DW_OP_piece a '
                     '"<synthetic pointer>" (its check for implicit-pointer pieces finds no '
                     'piece there and answers yes); dwexpr marks its bytes unavailable')


GDB_PARTLY_OPTIMIZED = ('explained: GDB prints <optimized out> for a scalar with any '
                        'bit unavailable; dwexpr gives the bytes the pieces describe')


CONTEXT_TWO_FRAMES = ('explained: a context holds two frames; the caller\'s call-site value '
                      'is itself an entry value, whose call site is in the caller\'s caller '
                      '(GDB reads it; `dwexpr vars` too)')


GDB_SYNTHETIC_CONST = ('explained: GDB 13 gives other bytes, different in every build, for '
                       'the object an implicit pointer points to when that object is a '
                       'DW_AT_const_value (its p/x may show the constant); dwexpr gives '
                       'the constant')


GDB_CONST_PAST_BLOCK = ('explained: the DW_AT_const_value block is shorter than the type (clang '
                        '-flto: a long double parameter\'s 10 bytes of x87 extended format); '
                        'GDB 13 complains and reads the type\'s length from the block '
                        '(dwarf2_const_value_attr), the bytes past it being the DIE\'s next '
                        'attributes; dwexpr gives the value and, as for an x87 register, '
                        'zeros for the long double\'s padding (psABI 3.1.2)')


def mark_const_pointees(dframes, dump):
    """Mark dwexpr's implicit pointers (of variables and members) to a
    DIE with DW_AT_const_value (DUMP's const_dies): 'const_value'; and
    the variables whose array bound is such a DIE (DUMP's
    const_bound_dies): 'const_bound'."""
    consts = set(dump.get('const_dies', []))
    bounds = set(dump.get('const_bound_dies', []))
    def mark(x):
        ip = x.get('implicit_pointer')
        if ip and ip.get('die') in consts:
            ip['const_value'] = True
        if x.get('die') in bounds:
            x['const_bound'] = True
        for m in x.get('members') or []:
            mark(m)
    for f in dframes:
        for x in f.get('vars', []):
            mark(x)


def beyond_context(g, d):
    """An entry value GDB reads whose DW_AT_call_value needs the entry
    value of the caller: a third frame, which a context (--vars off) has
    not."""
    r = d.get('result', {})
    detail = r.get('detail') or ''
    return (g.get('hex') is not None and not g.get('optimized_out') and
            r.get('status') == 'E_UNDEFINED_READ' and
            detail.startswith('DW_AT_call_value of call-site parameter') and
            'could not give the entry value' in detail)


def same_bytes(gh, dh, d=None):
    if not isinstance(dh, str):
        if gh and set(gh[i:i + 2] for i in range(0, len(gh), 2)) == {'??'} and \
                (d or {}).get('read_error'):
            return True, ''   # neither can read the object (a location whose memory is not there)
        return False, 'gdb %s, dwexpr %s' % (gh, describe_d(d) if d else dh)
    if len(gh) != len(dh):
        return False, 'size: gdb %s, dwexpr %s' % (gh, dh)
    short = (d or {}).get('short_composite')
    explained = False
    for i in range(0, len(gh), 2):
        a, b = gh[i:i + 2], dh[i:i + 2]
        if a == '??':
            continue          # GDB does not know (padding of a non-lvalue)
        if a == 'ip' and b == 'xx':
            continue          # an implicit pointer part: no bytes for either
        if a != b:
            if b == 'xx' and (a == 'sp' or (short and i // 2 >= short['bits'] // 8)):
                explained = True
                continue
            return False, 'byte %d: gdb %s, dwexpr %s' % (i // 2, gh, dh)
    if explained:
        return 'explained', '%s (gdb %s, dwexpr %s)' % (GDB_SHORT_PIECES, gh, dh)
    return True, ''


def global_of(gv, dglob):
    """dwexpr's global of GDB's GV among DGLOB (name -> dwexpr's globals
    of that name): the one at the address GDB read when several objects
    have the name (rustc's vtables, one per unit that uses them, some at
    address 0 where the linker dropped them), else the first."""
    cands = dglob.get(gv['name']) or []
    if len(cands) > 1 and gv.get('address'):
        for d in cands:
            if at_address(d, gv['address']):
                return d
    return cands[0] if cands else None


def at_address(d, address):
    """Whether dwexpr's variable D is the object in memory at ADDRESS."""
    locs = (d.get('result') or {}).get('locations') or []
    return bool(locs) and locs[0].get('kind') == 'memory' and \
        int(locs[0]['address'], 16) == int(address, 16)


def globals_by_name(dglobals):
    """dwexpr's globals DGLOBALS by name: name -> [global, ...]."""
    out = {}
    for d in dglobals:
        out.setdefault(d['name'], []).append(d)
    return out


def match_vars(gvars, dvars):
    """Pairs (g, d) by name and declaration line (then order)."""
    pairs = []
    used = set()
    for g in gvars:
        best = None
        for k, d in enumerate(dvars):
            if k in used or d['name'] != g['name']:
                continue
            if g.get('line') and d.get('decl_line') and g['line'] != d['decl_line']:
                continue
            if best is None or (d.get('block_depth') == g.get('block_depth')):
                best = k
                if d.get('block_depth') == g.get('block_depth'):
                    break
        if best is not None:
            used.add(best)
            pairs.append((g, dvars[best]))
        else:
            pairs.append((g, None))
    return pairs


def tally_members(where, gms, dms, mcounts, lines, explained, short=None, base=0,
                  excuse=None):
    """Compare GDB's members GMS with dwexpr's DMS (by name, recursively):
    bit offset, bit size and bytes of each. SHORT: the bits the variable's
    pieces describe (dwexpr's short_composite), BASE: the bit offset of
    these members in the variable."""
    # an anonymous structure or union member (name '') by its bit offset
    byname = {m.get('name') or ('', m.get('bit_offset')): m for m in (dms or [])}
    for gm in gms:
        start = base + gm['bitpos']
        # the part of this member the pieces describe (GDB invents the rest)
        mshort = None if short is None else {'bits': max(0, short - start)}
        w = ('%s.%s' % (where, gm['name']) if gm['name'] and not gm['name'].startswith('[')
             else where + gm['name'] if gm['name']
             else '%s.<anonymous at bit %d>' % (where, gm['bitpos']))
        if 'hex' not in gm:
            continue
        mcounts[1] += 1
        dm = byname.get(gm['name'] or ('', gm['bitpos']))
        if dm is None:
            lines.append('%s: dwexpr lists no such member' % w)
            continue
        if dm.get('bit_offset') is not None and dm['bit_offset'] != gm['bitpos']:
            lines.append('%s: bit offset gdb %d, dwexpr %d' % (w, gm['bitpos'], dm['bit_offset']))
            continue
        if dm.get('bit_size') != gm['bitsize']:
            lines.append('%s: bit size gdb %d, dwexpr %s' % (w, gm['bitsize'], dm.get('bit_size')))
            continue
        if gm.get('synthetic'):
            # GDB's <synthetic pointer> member: dwexpr's implicit_pointer
            if dm.get('implicit_pointer') and dm.get('hex') is None:
                mcounts[0] += 1
            elif short is not None and start >= short and set(dm.get('hex') or '') == {'x'}:
                # wholly past the pieces (rustc -O: a trait object's vtable)
                mcounts[2] += 1
                explained.append('%s: %s (dwexpr %s)' % (w, GDB_SHORT_POINTER, dm['hex']))
            else:
                lines.append('%s: gdb <synthetic pointer>, dwexpr %s' % (w, dm.get('hex')))
            continue
        ok, why = same_bytes(gm['hex'], dm.get('hex'), {'hex': dm.get('hex'),
                                                        'short_composite': mshort})
        dh = dm.get('hex') or ''
        if ok is False and excuse:
            ok, why = 'explained', '%s (%s)' % (excuse, why)
        if (ok is not True and set(gm['hex']) == {'x'} and 'xx' in dh and
                'sp' not in gm['hex']):
            ok, why = 'explained', ('%s (gdb %s, dwexpr %s)' % (GDB_PARTLY_OPTIMIZED,
                                                               gm['hex'], dh))
        if ok is True:
            mcounts[0] += 1
        elif ok == 'explained':
            mcounts[2] += 1
            explained.append('%s: %s' % (w, why))
        else:
            lines.append('%s: %s' % (w, why))
        if gm.get('members'):
            tally_members(w, gm['members'], dm.get('members'), mcounts, lines, explained,
                          short, start, excuse)


class VarsCounts:
    """The --vars comparison's counts besides the variables', one per
    variant (variants may run in parallel), summed for the summary.
    members: agree, total, explained. types, global_types: the variables'
    type spellings ("type" of the contract) against GDB's str(sym.type):
    agree, total, explained; those of the frames' variables and those of
    the globals (C and C++ globals and statics, Fortran module variables)
    apart. C and C++ in GDB's C notation, Fortran in GDB's own
    ("integer(kind=4), allocatable (:)", "PTR TO -> ( Type node )",
    "character*(*)"), Rust in its own ("&[u16]", "*mut r1::Shape").
    frames: frames whose function, kind, pc and CFA agree; frames
    compared; frames explained (GDB_STOP_INLINE)."""

    def __init__(self):
        self.members = [0, 0, 0]
        self.types = [0, 0, 0]
        self.global_types = [0, 0, 0]
        self.frames = [0, 0, 0]

    def add(self, other):
        for k in ('members', 'types', 'global_types', 'frames'):
            mine = getattr(self, k)
            for i, n in enumerate(getattr(other, k)):
                mine[i] += n

    def explained(self):
        """The explained members and types (counted in a variant's list of
        explained lines, apart from its variables')."""
        return self.members[2] + self.types[2] + self.global_types[2] + self.frames[2]


# A type GDB 13 cannot print: a Fortran dimension whose lower bound is
# computed at run time (w(lo:n) with lo a dummy argument), for which its
# Fortran printer stops with an error; dwexpr writes ':' there.
GDB_LOWER_BOUND = ("explained: GDB 13 cannot print the type (%s): a Fortran lower bound "
                   "computed at run time, which dwexpr writes as ':'")


GDB_CONST_BOUND = ('explained: the array\'s DW_AT_count (or DW_AT_upper_bound) refers to a '
                   'DIE that holds a DW_AT_const_value (clang -flto: the VLA bound '
                   '__vla_expr0 it propagated as a constant); GDB 13 reads such a reference '
                   'only through the DIE\'s DW_AT_location (attr_to_dynamic_prop), complains '
                   '"Unresolved DW_AT_count" and keeps the default upper bound 0: one element; '
                   'dwexpr calls the bound variable, as GDB does with a location')


GDB_SPLIT_TLS = ('explained: GDB takes the .debug_addr entry of a split unit\'s TLS '
                 'variable, which binutils ld resolves to the variable\'s link-time address, '
                 'as its TLS offset; dwexpr makes such an address an offset again')


def split_tls(where, dv):
    """A thread-local variable of a split (.dwo / .dwp) unit: its location
    is DW_OP_GNU_const_index / DW_OP_constx + the TLS operation."""
    if '.split' not in where and '.dwp' not in where:
        return False
    ops = (dv.get('location') or {}).get('expr', {}).get('ops', [])
    return any('tls_address' in o for o in ops) and any('const_index' in o or 'constx' in o
                                                       for o in ops)


def tally_type(where, gv, dv, tcounts, lines, explained):
    """Compare GDB's type spelling of a variable with dwexpr's, counted in
    TCOUNTS."""
    if dv is None or 'type' not in dv:
        return
    if 'type' in gv:
        tcounts[1] += 1
        if dv['type'] == gv['type']:
            tcounts[0] += 1
        elif dv.get('const_bound') and gv['type'] == dv['type'].replace('[variable length]',
                                                                        '[1]'):
            tcounts[2] += 1
            explained.append('%s: %s: type gdb %r, dwexpr %r: %s' %
                             (where, gv['name'], gv['type'], dv['type'], GDB_CONST_BOUND))
        else:
            lines.append('%s: %s: type gdb %r, dwexpr %r' %
                         (where, gv['name'], gv['type'], dv['type']))
    elif 'type_error' in gv:
        tcounts[1] += 1
        if "Lower bound may not be '*'" in gv['type_error'] and ':' in dv['type']:
            tcounts[2] += 1
            explained.append('%s: %s: type %r: %s' % (where, gv['name'], dv['type'],
                                                      GDB_LOWER_BOUND % gv['type_error']))
        else:
            lines.append('%s: %s: type: gdb fails (%s), dwexpr %r' %
                         (where, gv['name'], gv['type_error'], dv['type']))


def compare_var(gv, dv):
    """compare_value of a variable both list, its lexical block depth
    (contract "dwexpr vars": block_depth; GDB's blocks between the
    variable's and its function's) and its kind (a parameter for both, GDB's
    is_argument, or a local for both)."""
    if dv is None:
        return False, 'dwexpr does not list it'
    ok, why = compare_value(gv, dv)
    gd, dd = gv.get('block_depth'), dv.get('block_depth')
    if ok is True and gd is not None and dd is not None and gd != dd:
        return False, 'block depth: gdb %d, dwexpr %d' % (gd, dd)
    gp, dk = gv.get('param'), dv.get('kind')
    if ok is True and gp is not None and dk in ('param', 'local') and gp != (dk == 'param'):
        return False, 'kind: gdb %s, dwexpr %s' % ('param' if gp else 'local', dk)
    return ok, why


def tally(where, gv, dv, counts, lines, explained, log, vc, tcounts):
    """Compare one GDB variable with dwexpr's and count the outcome; its
    members (structures, unions, arrays) count apart in VC.members, its
    type in TCOUNTS (VC.types or VC.global_types)."""
    if dv is not None and gv.get('members') and dv.get('hex') is not None:
        sc = dv.get('short_composite')
        tally_members('%s: %s' % (where, gv['name']), gv['members'], dv.get('members'),
                      vc.members, lines, explained, sc['bits'] if sc else None,
                      excuse=GDB_SPLIT_TLS if split_tls(where, dv) else None)
    tally_type(where, gv, dv, tcounts, lines, explained)
    ok, why = compare_var(gv, dv)
    if ok is None:
        log.append('%s: %s: skipped (%s)' % (where, gv['name'], why))
        return
    counts[1] += 1
    if ok is False and dv is not None and split_tls(where, dv):
        ok, why = 'explained', '%s (%s)' % (GDB_SPLIT_TLS, why)
    if ok is True:
        counts[0] += 1
    elif ok == 'explained':
        explained.append('%s: %s: %s' % (where, gv['name'], why))
    else:
        lines.append('%s: %s: %s' % (where, gv['name'], why))


def compare_vars(args, tag, binary, dump, core, pid_out, log, vc):
    """The --vars mode (issue 6 points 4 and 5): `dwexpr vars --core CORE
    --json BINARY` and `dwexpr vars --pid PID --json BINARY` (the process
    GDB stopped, detached from) against GDB, frame by frame (inline frames
    included, innermost first, as the contract lists them) and the
    globals; every variable counts once per mode. Members, types and
    frames count in VC."""
    cmd = args.vars.split() + ['vars', '--core', core, '--json', '--debug-dir',
                               debug_dir(os.path.dirname(core)), binary]
    r = run(cmd, timeout=300)
    a1, t1, l1, e1 = compare_vars_json(tag + ' core', r.stdout, r.stderr, dump, log, vc)
    try:
        text = open(pid_out).read()
    except OSError:
        text = ''
    a2, t2, l2, e2 = compare_vars_json(tag + ' pid', text, '', dump, log, vc)
    return a1 + a2, t1 + t2, l1 + l2, e1 + e2


# GDB stopped by a breakpoint at the first instruction of an inlined
# call (rustc -O inlines core::ptr::read_volatile at the start of probe)
# presents the stop "at the call site": skip_inline_frames hides the
# inlined frame. Read from the core gcore writes there, GDB shows it as
# frame 0, as dwexpr does (`dwexpr vars` lists the scopes at the pc).
GDB_STOP_INLINE = ('explained: GDB, stopped by a breakpoint at the first instruction of '
                   'an inlined call, hides its frame (skip_inline_frames); GDB on the core '
                   'of that stop shows it, as dwexpr does')


def hidden_inline_frame(gframes, dframes):
    """Whether dwexpr's frame 0 is an inlined call GDB's stop hid
    (GDB_STOP_INLINE): an inline frame at GDB's frame 0 pc, whose caller
    is GDB's frame 0."""
    return (len(gframes) > 0 and len(dframes) > 1 and dframes[0].get('inline') and
            dframes[0].get('pc') == gframes[0]['pc'] and
            dframes[0].get('function') != gframes[0]['function'] and
            dframes[1].get('function') == gframes[0]['function'])


def compare_vars_json(tag, text, err, dump, log, vc):
    """One `dwexpr vars --json` answer TEXT against GDB's DUMP."""
    try:
        res = json.loads(text)
    except ValueError:
        return 0, 0, ['%s: dwexpr vars failed: %s' % (tag, err.strip()[:300])], []
    counts, lines, explained = [0, 0], [], []
    dframes = res.get('frames', [])
    if hidden_inline_frame(dump['frames'], dframes):
        vc.frames[1] += 1
        vc.frames[2] += 1
        explained.append('%s frame 0 %s: %s' % (tag, dframes[0]['function'], GDB_STOP_INLINE))
        dframes = dframes[1:]
    mark_const_pointees(dframes, dump)
    modules = set()
    for gf in dump['frames']:
        if gf.get('past_main'):
            break
        where = '%s frame %d %s' % (tag, gf['index'], gf['function'])
        df = dframes[gf['index']] if gf['index'] < len(dframes) else None
        vc.frames[1] += 1
        if df is None or df.get('function') != gf['function']:
            lines.append('%s: dwexpr frame %s' % (where, df.get('function') if df else None))
            counts[1] += len(gf['vars'])
            continue
        # the frame itself: a tail call frame (GDB's TAILCALL_FRAME) or
        # not, its pc (a tail call frame's: the return pc of its jump) and
        # its CFA (GDB's frame address: a tail call frame has its callee's)
        if 'tail_call' in gf and bool(df.get('tail_call')) != gf['tail_call']:
            lines.append('%s: gdb %s a tail call frame, dwexpr %s' % (
                where, 'has' if gf['tail_call'] else 'has no', df.get('tail_call')))
        elif df.get('pc') != gf['pc']:
            lines.append('%s: pc: gdb %s, dwexpr %s' % (where, gf['pc'], df.get('pc')))
        elif gf.get('cfa') and df.get('cfa') != gf['cfa']:
            lines.append('%s: cfa: gdb %s, dwexpr %s' % (where, gf['cfa'], df.get('cfa')))
        else:
            vc.frames[0] += 1
        modules.add(df.get('module'))
        for gv, dv in match_vars(gf['vars'], df.get('vars', [])):
            tally(where, gv, dv, counts, lines, explained, log, vc, vc.types)
    if '.debugfile' in tag:
        # every frame compared was read with the DWARF of a separate debug file
        for m in res.get('modules', []):
            if m.get('path') in modules and not m.get('debug_file'):
                lines.append('%s: %s: DWARF not from a separate debug file (%s)' % (
                    tag, m['path'], m.get('error') or m.get('dwarf')))
    dglob = globals_by_name(res.get('globals', []))
    for gv in dump.get('globals', []):
        tally('%s globals' % tag, gv, global_of(gv, dglob), counts, lines, explained, log,
              vc, vc.global_types)
    return counts[0], counts[1], lines, explained


def debug_dir(work):
    """dwexpr's --debug-dir for the variant built in WORK, and the first
    directory of GDB's debug-file-directory: its own, empty but for the
    .debugfile build's."""
    return os.path.join(work, 'debug')


def gdb_debug_dirs(gdb):
    """GDB's own debug-file-directory (its default: /usr/lib/debug)."""
    r = run([gdb, '-nx', '-batch', '-ex', 'show debug-file-directory'], timeout=60)
    m = re.search(r'searched for is "([^"]*)"', r.stdout)
    return m.group(1) if m else '/usr/lib/debug'


# --csmith: random programs (csmith, its runtime headers from libcsmith-dev)
# at the levels where locations get interesting
CSMITH_VARIANTS = [('gcc', 'O1', 5, False), ('gcc', 'O2', 5, False), ('gcc', 'Og', 5, False),
                   ('gcc', 'O2', 4, False), ('clang', 'O2', 5, False)]
CSMITH_INCLUDE = '/usr/include/csmith'
CSMITH_PROBE = ('__attribute__((noinline, used)) void dwx_probe(void) '
                '{ __asm__ volatile("" ::: "memory"); }')


def csmith_program(seed, where):
    """csmith's program of SEED (10 functions, no volatiles) written to
    WHERE/csmithSEED.c with a call of dwx_probe() before every return
    of its func_N functions: GDB stops at the first that runs, deep in
    the call graph. Returns the file's name."""
    r = run(['csmith', '--seed', str(seed), '--max-funcs', '10', '--no-volatiles'], timeout=60,
            cwd=where)   # csmith writes platform.info where it runs
    lines = r.stdout.split('\n')
    returns = []
    for i, line in enumerate(lines):
        if not (re.match(r'^(static )?[\w ]+\**\s*func_\d+\(.*\)\s*$', line) and
                i + 1 < len(lines) and lines[i + 1].strip().startswith('{')):
            continue
        depth = 0
        for j in range(i + 1, len(lines)):
            depth += lines[j].count('{') - lines[j].count('}')
            if re.match(r'^\s*return\b', lines[j]):
                returns.append(j)
            if depth == 0:
                break
    for j in sorted(returns, reverse=True):
        lines.insert(j, 'dwx_probe();')
    last_include = max(i for i, l in enumerate(lines) if l.startswith('#include'))
    lines.insert(last_include + 1, CSMITH_PROBE)
    name = 'csmith%d.c' % seed
    with open(os.path.join(where, name), 'w') as fp:
        fp.write('\n'.join(lines))
    return name


def variant_tag(prog, cc, opt, ver, split):
    """vars.gcc.O2.dw5, plus .split (-gsplit-dwarf), .dwp (packaged) or
    .debugfile (separate debug files)."""
    suffix = {False: '', True: '.split', 'dwp': '.dwp', 'debugfile': '.debugfile',
              'tu': '.tu', 'dw64': '.dw64', 'zgnu': '.zgnu', 'simple': '.simple', 'noinline': '.noinline',
              'lto': '.lto'}[split]
    return '%s.%s.%s.dw%d%s' % (os.path.splitext(prog)[0], cc, opt, ver, suffix)


# The packaging tool of each compiler's split DWARF: binutils dwp reads
# GCC's DWARF 4 (GNU) split units, llvm-dwp clang's DWARF 5 ones.
DWP_TOOL = {'gcc': 'dwp', 'clang': 'llvm-dwp'}


def make_dwp(cc, binary, work):
    """Package the .dwo files of BINARY into BINARY.dwp, then move them
    away so that the package is all GDB and dwexpr can read. An error
    message, or None."""
    tool = DWP_TOOL[cc]
    if not shutil.which(tool):
        return '%s not installed' % tool
    r = run([tool, '-e', binary, '-o', binary + '.dwp'], cwd=work, timeout=60)
    if r.returncode != 0 or not os.path.exists(binary + '.dwp'):
        return '%s failed (%d): %s' % (tool, r.returncode, r.stderr.strip()[:200])
    hidden = os.path.join(work, 'dwo-packaged')
    os.makedirs(hidden, exist_ok=True)
    for f in os.listdir(work):
        if f.endswith('.dwo'):
            os.replace(os.path.join(work, f), os.path.join(hidden, f))
    return None


def build_id(path):
    """The GNU build id of PATH (hex), from readelf -n; None if none."""
    m = re.search(r'Build ID: ([0-9a-f]+)', run(['readelf', '-n', path]).stdout)
    return m.group(1) if m else None


def split_debug(path, dest, link):
    """Move PATH's DWARF to the separate debug file DEST (objcopy
    --only-keep-debug, then strip -g), with a .gnu_debuglink to it when
    LINK. An error message, or None."""
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    steps = [['objcopy', '--only-keep-debug', path, dest], ['strip', '-g', path]]
    if link:
        steps.append(['objcopy', '--add-gnu-debuglink=' + dest, path])
    for cmd in steps:
        r = run(cmd, timeout=60)
        if r.returncode != 0:
            return '%s failed: %s' % (' '.join(cmd[:2]), r.stderr.strip()[:200])
    return None


def debug_files(binary, lib, work):
    """The .debugfile build: the library's debug file under the debug
    directory by build id, the program's in .debug/ next to it, named by
    its .gnu_debuglink. An error message, or None."""
    bid = build_id(lib)
    if not bid:
        return 'the library has no build id'
    why = split_debug(lib, os.path.join(debug_dir(work), '.build-id', bid[:2], bid[2:] + '.debug'),
                      False)
    return why or split_debug(binary, os.path.join(work, '.debug',
                                                   os.path.basename(binary) + '.debug'), True)


def probe_location(src, probe):
    """GDB's breakpoint for PROBE: a function's name as it is (a Rust
    one qualified: "rust_vars::probe"), FILE:MARK the line of FILE (in SRC)
    that holds MARK."""
    if ':' not in probe or '::' in probe:
        return probe
    fname, mark = probe.split(':', 1)
    with open(os.path.join(src, fname)) as fp:
        for n, line in enumerate(fp, 1):
            if mark in line:
                return '%s:%d' % (fname, n)
    raise ValueError('%s: no line holds %s' % (fname, mark))


class Variant:
    """One build of a test program, dumped under GDB: TAG, WORK (its
    directory), BINARY, DUMP (GDB's gdb.json), CORE and PID_OUT (the
    --vars mode's core and `dwexpr vars --pid` answer), or ERROR (why
    there is nothing to compare)."""

    def __init__(self, tag, work, binary):
        self.tag, self.work, self.binary = tag, work, binary
        self.dump = self.error = None
        self.core = os.path.join(work, 'core')
        self.pid_out = os.path.join(work, 'pid.json')


def build_and_dump(args, prog, probe, cc, opt, ver, split, with_vars):
    """Build the variant and run it under GDB to its probe once: the
    frames, registers, memory and globals GDB gives (gdb.json: all that the
    locs comparison reads), and with WITH_VARS the core GDB writes and the
    answer of `dwexpr vars --pid` on the process GDB leaves stopped (both
    after GDB's values were taken). A Variant."""
    tag = variant_tag(prog, cc, opt, ver, split)
    probe = probe_location(args.src, probe)
    work = os.path.join(args.work, tag)
    os.makedirs(work, exist_ok=True)
    binary = os.path.join(work, tag)
    v = Variant(tag, work, binary)
    cmd = [cc, '-g', '-gdwarf-%d' % ver, '-' + opt, '-o', binary, os.path.join(args.src, prog)] + \
          [os.path.join(args.src, x) for x in SOURCES.get(prog, [])]
    if prog.endswith('.rs'):
        # (a rustc without -C dwarf-version writes DWARF 4, its default)
        cmd = [compiler_for(cc), '-g', '-C', 'opt-level=' + opt[1:]] + \
              (['-C', 'dwarf-version=%d' % ver] if RUSTC_TAGS[cc] else []) + \
              ['-o', binary, os.path.join(args.src, prog)]
    if prog.startswith('csmith'):
        cmd += ['-I' + CSMITH_INCLUDE, '-w']
    if split is True or split == 'dwp':
        cmd.insert(1, '-gsplit-dwarf')
    if split in VARIANT_FLAGS:
        cmd.insert(1, VARIANT_FLAGS[split])
    if os.path.exists(binary + '.dwp'):
        os.unlink(binary + '.dwp')     # a package of an earlier run
    for old in (debug_dir(work), os.path.join(work, '.debug')):
        shutil.rmtree(old, ignore_errors=True)   # debug files of an earlier run
    lib = None
    if prog in LIBRARIES:
        # the program's shared library first, next to it
        name = os.path.splitext(LIBRARIES[prog])[0]
        lib = os.path.join(work, 'lib%s.so' % name)
        r = run([cc, '-g', '-gdwarf-%d' % ver, '-' + opt, '-shared', '-fPIC', '-Wl,--build-id',
                 '-o', lib, os.path.join(args.src, LIBRARIES[prog])], cwd=work, timeout=300)
        if r.returncode != 0:
            v.error = 'library build failed: %s' % r.stderr.strip()[:300]
            return v
        cmd += ['-Wl,--build-id', '-L' + work, '-l' + name, '-Wl,-rpath,$ORIGIN']
    r = run(cmd, cwd=work, timeout=300)
    if r.returncode != 0:
        v.error = 'build failed: %s' % r.stderr.strip()[:300]
        return v
    if prog.endswith('.rs') and ver >= 5:
        # rustc's DWARF 5 build has a .debug_names index of its own units
        # alone (the standard library's DWARF 4 units are not in it). GDB 13
        # takes the index as the whole of the DWARF and never reads the
        # units it leaves out: the standard library's frames between the
        # program's main and the C main have no line or function for it
        # (it names them by their symbols, "std[e28293b1aa0f68bd]::rt::
        # lang_start_internal"). Without the index it reads every unit.
        # dwexpr does not read .debug_names.
        r = run(['objcopy', '--remove-section', '.debug_names', binary], timeout=60)
        if r.returncode != 0:
            v.error = 'objcopy failed: %s' % r.stderr.strip()[:300]
            return v
    if split == 'dwp':
        why = make_dwp(cc, binary, work)
        if why:
            v.error = 'packaging failed: %s' % why
            return v
    # globals the program defines (from dwexpr's static listing)
    lst = run([args.locs, '--json', binary], timeout=120)
    try:
        listing = json.loads(lst.stdout)
    except ValueError:
        v.error = 'dwexpr locs failed: %s' % lst.stderr.strip()[:300]
        return v
    globals_ = sorted({x['name'] for x in listing['vars'] if x['kind'] == 'global'})
    if split == 'debugfile':
        why = debug_files(binary, lib, work)
        if why:
            v.error = 'separate debug files: %s' % why
            return v
    out = os.path.join(work, 'gdb.json')
    script = os.path.join(work, 'dump.py')
    with open(script, 'w') as fp:
        fp.write(GDB_SCRIPT % {'out': out, 'probe': probe, 'regs': reg_regs(),
                               'binary': os.path.realpath(binary), 'globals': globals_,
                               'core': v.core if with_vars else '',
                               'pidcmd': (args.vars.split() + ['vars', '--json', '--debug-dir',
                                                               debug_dir(work)])
                                         if with_vars else [],
                               'pidout': v.pid_out})
    for old in (out, v.pid_out, v.core):
        if os.path.exists(old):
            os.unlink(old)
    g = run([args.gdb, '-nx', '-batch', '-iex', 'set debuginfod enabled off', '-iex',
             'set debug-file-directory %s:%s' % (debug_dir(work), args.gdb_debug_dirs), '-x', script,
             binary], cwd=work, timeout=120)
    if not os.path.exists(out):
        v.error = 'gdb produced nothing: %s' % (g.stderr.strip()[-400:])
        return v
    v.dump = json.load(open(out))
    # the units that define each global (compare_locs)
    units = {}
    for x in listing['vars']:
        if x['kind'] == 'global':
            units.setdefault(x['name'], set()).add(x.get('unit'))
    v.dump['global_units'] = {k: sorted(u) for k, u in units.items()}
    # the DIEs whose value is a DW_AT_const_value (GDB_SYNTHETIC_CONST)
    v.dump['const_dies'] = sorted({x['die'] for x in listing['vars']
                                   if x.get('location', {}).get('form') == 'const_value'})
    # the variables whose array bound refers to a constant's DIE (GDB_CONST_BOUND)
    if any('[variable length]' in (x.get('type') or '') for x in listing['vars']):
        v.dump['const_bound_dies'] = sorted(const_bound_vars(binary))
    return v


def const_bound_vars(binary):
    """The variables and parameters of BINARY (DIE offsets, "0x1ef") whose
    type is an array with a DW_AT_count or DW_AT_upper_bound that refers
    to a DIE holding a DW_AT_const_value and no DW_AT_location
    (GDB_CONST_BOUND), from readelf's dump of .debug_info."""
    out = run(['readelf', '--wide', '--debug-dump=info', binary], timeout=120).stdout
    dies, order, cur = {}, [], None
    for line in out.splitlines():
        m = re.match(r'\s*<(\d+)><([0-9a-f]+)>: Abbrev Number: \d+ \((\w+)\)', line)
        if m:
            cur = {'depth': int(m.group(1)), 'tag': m.group(3), 'attrs': {}}
            dies[int(m.group(2), 16)] = cur
            order.append(int(m.group(2), 16))
            continue
        m = re.match(r'\s*<[0-9a-f]+>\s+(DW_AT_\w+)\s*:\s*(.*)$', line)
        if m and cur is not None:
            cur['attrs'][m.group(1)] = m.group(2).strip()

    def ref(value):
        m = re.match(r'(\(\w+\)\s*)?<0x([0-9a-f]+)>', value or '')   # "(ref4) <0x1ef>"
        return int(m.group(2), 16) if m else None

    arrays = set()
    for i, off in enumerate(order):
        d = dies[off]
        if d['tag'] != 'DW_TAG_array_type':
            continue
        for k in order[i + 1:]:
            sub = dies[k]
            if sub['depth'] <= d['depth']:
                break
            for a in ('DW_AT_count', 'DW_AT_upper_bound'):
                t = dies.get(ref(sub['attrs'].get(a))) if sub['tag'] == 'DW_TAG_subrange_type' \
                    else None
                if t and 'DW_AT_const_value' in t['attrs'] and 'DW_AT_location' not in t['attrs']:
                    arrays.add(off)
    return {'0x%x' % off for off in order
            if dies[off]['tag'] in ('DW_TAG_variable', 'DW_TAG_formal_parameter') and
            ref(dies[off]['attrs'].get('DW_AT_type')) in arrays}


def compare_locs(args, v, log):
    """The contexts mode: each GDB frame of V's dump a context file for
    `dwexpr locs --pc PC --context FILE --json`. Returns (agree, total,
    lines, explained)."""
    tag, work, binary, dump = v.tag, v.work, v.binary, v.dump
    first_load, tls = elf_info(binary)
    bias = load_bias(dump['maps'], binary, first_load)
    tls_base = None
    if tls and dump.get('fs_base'):
        memsz, align = tls
        align = max(align, 1)
        tls_base = int(dump['fs_base'], 16) - ((memsz + align - 1) // align * align)
    agree = total = 0
    lines = []
    explained = []
    groups = list(contexts(dump, binary, bias, tls_base))
    globals_done = False
    for gi, (group, caller, ctx) in enumerate(groups):
        cpath = os.path.join(work, 'ctx%d.json' % gi)
        with open(cpath, 'w') as fp:
            json.dump(ctx, fp)
        real = group[-1]
        cmd = [args.locs, binary, '--json', '--pc', real['pc'], '--context', cpath]
        if caller:
            cmd.append('--caller')
        r = run(cmd, timeout=120)
        try:
            res = json.loads(r.stdout)
        except ValueError:
            lines.append('%s: dwexpr locs failed: %s' % (tag, r.stderr.strip()[:300]))
            total += sum(len(f['vars']) for f in group)
            continue
        dframes = res.get('frames', [])
        mark_const_pointees(dframes, dump)
        if gi == 0 and hidden_inline_frame(group, dframes):
            # (one explained comparison: the frame, whose variables GDB has not)
            total += 1
            explained.append('%s frame 0 %s: %s' % (tag, dframes[0]['function'], GDB_STOP_INLINE))
            dframes = dframes[1:]
        for k, gf in enumerate(group):
            df = dframes[k] if k < len(dframes) else None
            where = '%s frame %d %s' % (tag, gf['index'], gf['function'])
            if df is None and not gf['vars'] and not dframes:
                continue    # a function without DWARF (nocfi.c's probe): nothing to compare
            if df is None or (df['function'] != gf['function']):
                lines.append('%s: no matching dwexpr frame (dwexpr has %s)' %
                             (where, [f['function'] for f in dframes]))
                total += len(gf['vars'])
                continue
            for gv, dv in match_vars(gf['vars'], df['vars']):
                ok, why = compare_var(gv, dv)
                if ok is None:
                    log.append('%s: %s: skipped (%s)' % (where, gv['name'], why))
                    continue
                if ok is False and dv is not None and beyond_context(gv, dv):
                    ok, why = 'explained', '%s (%s)' % (CONTEXT_TWO_FRAMES, why)
                total += 1
                if ok is True:
                    agree += 1
                elif ok == 'explained':
                    explained.append('%s: %s: %s' % (where, gv['name'], why))
                else:
                    lines.append('%s: %s: %s' % (where, gv['name'], why))
        # globals, read in the first frame with DWARF (`dwexpr locs --pc`
        # lists the globals of the unit holding the pc)
        if not globals_done and (dframes or gi == len(groups) - 1):
            globals_done = True
            dglob = globals_by_name(res.get('globals', []))
            # `dwexpr locs --pc` lists the globals of the unit holding the
            # pc (and its variables'): a global defined only in other units
            # (rustc 1.63's program with Debian's libstd: its units'
            # globals) is compared in the --vars mode only
            here = {x.get('unit') for x in res.get('globals', [])}
            here |= {x.get('unit') for f in dframes for x in f.get('vars', [])}
            units = dump.get('global_units', {})
            for gv in dump.get('globals', []):
                dv = global_of(gv, dglob)
                other = set(units.get(gv['name'], [])) - here
                if other and (dv is None or (gv.get('address') and
                                             not at_address(dv, gv['address']))):
                    # (GDB's object of the name is in another unit)
                    log.append('%s globals: %s: skipped (defined in units %s, not only in '
                               'the unit of pc %s)' % (tag, gv['name'], sorted(other),
                                                       real['pc']))
                    continue
                ok, why = (False, 'dwexpr does not list it') if dv is None else compare_value(gv, dv)
                if ok is None:
                    log.append('%s globals: %s: skipped (%s)' % (tag, gv['name'], why))
                    continue
                total += 1
                if ok is True:
                    agree += 1
                elif ok == 'explained':
                    explained.append('%s globals: %s: %s' % (tag, gv['name'], why))
                else:
                    lines.append('%s globals: %s: %s' % (tag, gv['name'], why))
    return agree, total, lines, explained


class Result:
    """One comparison of one variant (one TAP result): MODE 'locs' or
    'vars', agree / total, the disagreements (LINES), the explained
    differences (EXPLAINED), the skipped variables (LOG), the explained
    values among EXPLAINED (E) and, for 'vars', its VarsCounts (VC).
    SKIP: why it did not run."""

    def __init__(self, mode):
        self.mode = mode
        self.agree = self.total = self.e = 0
        self.lines, self.explained, self.log = [], [], []
        self.vc = VarsCounts() if mode == 'vars' else None
        self.skip = None


def modes_of(args, prog, split):
    """The comparisons of a variant: 'locs' (contexts of one module: not
    the package or the library variants) and with --vars 'vars'."""
    modes = []
    if not args.no_locs and not (split == 'dwp' or prog in LIBRARIES):
        modes.append('locs')
    if args.vars:
        modes.append('vars')
    return modes


_RUSTC_DWARF = {}


def rustc_dwarf_choice(rustc):
    """Whether RUSTC takes -C dwarf-version (stable since rustc 1.88;
    Debian 12's rustc 1.63 refuses it)."""
    if rustc not in _RUSTC_DWARF:
        r = run([rustc, '-C', 'dwarf-version=4', '--print', 'sysroot'], timeout=60)
        _RUSTC_DWARF[rustc] = r.returncode == 0
    return _RUSTC_DWARF[rustc]


# The Rust compiler tags: whether the tag's rustc takes -C dwarf-version
RUSTC_TAGS = {'rustc': True, 'rustc163': False}


def rustc_for(tag):
    """The rustc of TAG (RUSTC_TAGS): of every rustc in PATH, then
    /usr/bin/rustc (Debian's, which rustup's in PATH may hide), the first
    that takes -C dwarf-version, or for 'rustc163' the first that does
    not. None when there is none such."""
    seen = []
    for d in os.environ.get('PATH', '').split(os.pathsep) + ['/usr/bin']:
        c = os.path.join(d or '.', 'rustc')
        if not (os.path.isfile(c) and os.access(c, os.X_OK)):
            continue
        if os.path.realpath(c) in seen:
            continue
        seen.append(os.path.realpath(c))
        if rustc_dwarf_choice(c) == RUSTC_TAGS[tag]:
            return c
    return None


def compiler_for(cc):
    """The command of compiler tag CC (a rustc tag, RUSTC_TAGS, is a
    rustc found by rustc_for), or None when it is not installed."""
    if cc in RUSTC_TAGS:
        return rustc_for(cc)
    return shutil.which(cc) and cc


def run_variant(args, job):
    """Build and dump one variant once, then each of its comparisons: a
    list of Results, in the order of modes_of."""
    prog, probe, cc, opt, ver, split, tag, modes = job
    results = [Result(m) for m in modes]
    if not compiler_for(cc):
        for res in results:
            res.skip = ('%s not installed' % cc if cc not in RUSTC_TAGS else
                        'no rustc that takes -C dwarf-version (1.88 and later) installed'
                        if RUSTC_TAGS[cc] else
                        'no rustc without -C dwarf-version (older than 1.88) installed')
        return results
    try:
        v = build_and_dump(args, prog, probe, cc, opt, ver, split, 'vars' in modes)
    except subprocess.TimeoutExpired:
        v = Variant(tag, None, None)
        v.error = 'timeout'
    for res in results:
        if v.error:
            res.lines.append(v.error)
            continue
        try:
            if res.mode == 'locs':
                res.agree, res.total, res.lines, res.explained = compare_locs(args, v, res.log)
            else:
                res.agree, res.total, res.lines, res.explained = compare_vars(
                    args, tag, v.binary, v.dump, v.core, v.pid_out, res.log, res.vc)
        except subprocess.TimeoutExpired:
            res.agree, res.total, res.lines, res.explained = 0, 0, ['timeout'], []
        # the explained values (members and types count apart)
        res.e = len(res.explained) - (res.vc.explained() if res.vc else 0)
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--locs', required=True, help='dwexpr locs driver (dwexpr-locs or "dwexpr locs")')
    ap.add_argument('--src', required=True)
    ap.add_argument('--work', required=True)
    ap.add_argument('--gdb', default='gdb')
    ap.add_argument('--tap', action='store_true')
    ap.add_argument('--only', help='substring of variant tags to run')
    ap.add_argument('--verbose', action='store_true')
    ap.add_argument('--vars', help='dwexpr CLI with a `vars` command: compare `dwexpr vars '
                    '--core` (from gcore) and `--pid` too, from the same GDB run')
    ap.add_argument('--no-locs', action='store_true',
                    help='with --vars: the `dwexpr vars` comparison only (no contexts)')
    ap.add_argument('--jobs', type=int, default=1, help='variants built and compared at once')
    ap.add_argument('--csmith', help='comma-separated csmith seeds: compare those random programs '
                    '(stopped in dwx_probe, deep in their calls) instead of --src\'s')
    args = ap.parse_args()
    if args.no_locs and not args.vars:
        ap.error('--no-locs needs --vars')
    missing = [t for t in ('gcc', args.gdb, 'readelf') if not shutil.which(t)]
    if missing:
        print('1..0 # SKIP missing %s' % ', '.join(missing))
        return 0
    probe = run([args.gdb, '-nx', '-batch', '-iex', 'set debuginfod enabled off', '-ex', 'run',
                 '--args', '/bin/true'], timeout=60)
    if 'exited normally' not in probe.stdout + probe.stderr:
        print('1..0 # SKIP gdb cannot run a process here (ptrace?)')
        return 0
    args.gdb_debug_dirs = gdb_debug_dirs(args.gdb)
    args.src = os.path.abspath(args.src)
    args.work = os.path.abspath(args.work)
    args.locs = os.path.abspath(args.locs) if os.path.exists(args.locs) else args.locs
    if args.vars and os.path.exists(args.vars):
        args.vars = os.path.abspath(args.vars)
    os.makedirs(args.work, exist_ok=True)
    programs = PROGRAMS
    if args.csmith:
        if not shutil.which('csmith') or not os.path.isdir(CSMITH_INCLUDE):
            print('1..0 # SKIP csmith or its headers (%s) not installed' % CSMITH_INCLUDE)
            return 0
        args.src = os.path.join(args.work, 'csmith')
        os.makedirs(args.src, exist_ok=True)
        programs = [(csmith_program(int(x), args.src), 'dwx_probe')
                    for x in args.csmith.split(',')]
    jobs = []
    for prog, probe in programs:
        tu = (TU_CXX_VARIANTS + SIMPLE_VARIANTS if prog.endswith('.cc') else TU_VARIANTS) \
            if prog in TU_PROGRAMS else []
        tu = tu + NOINLINE_VARIANTS.get(prog, []) + FORMAT_VARIANTS.get(prog, [])
        for cc, opt, ver, split in (PROGRAM_VARIANTS[prog] if prog in PROGRAM_VARIANTS else
                                    F_VARIANTS + tu if prog.endswith('.f90') else
                                    CXX_VARIANTS + tu if prog.endswith('.cc') else
                                    RUST_VARIANTS if prog.endswith('.rs') else
                                    CSMITH_VARIANTS if prog.startswith('csmith') else
                                    SOLIB_VARIANTS + tu if prog in LIBRARIES else VARIANTS + tu):
            tag = variant_tag(prog, cc, opt, ver, split)
            if args.only and args.only not in tag:
                continue
            modes = modes_of(args, prog, split)
            if modes:
                jobs.append((prog, probe, cc, opt, ver, split, tag, modes))
    if args.tap:
        print('1..%d' % sum(len(j[-1]) for j in jobs), flush=True)
    labels = sorted({m for j in jobs for m in j[-1]})
    totals = {m: [0, 0, 0] for m in labels}     # agree, total, explained
    vc = VarsCounts()
    failed = 0
    n = 0
    pool = None
    if args.jobs > 1:
        import concurrent.futures
        pool = concurrent.futures.ThreadPoolExecutor(args.jobs)
        answers = pool.map(lambda j: run_variant(args, j), jobs)
    else:
        answers = (run_variant(args, j) for j in jobs)
    pfx = '# ' if args.tap else ''
    for job, results in zip(jobs, answers):
        tag = job[6]
        for res in results:
            n += 1
            name = '%s %s' % (tag, res.mode)
            if res.skip:
                if args.tap:
                    print('ok %d - %s # SKIP %s' % (n, name, res.skip))
                continue
            tot = totals[res.mode]
            tot[0] += res.agree
            tot[1] += res.total
            tot[2] += res.e
            if res.vc:
                vc.add(res.vc)
            ok = not res.lines and res.total > 0
            notes = res.lines + res.explained + (res.log if args.verbose else [])
            if args.tap:
                print('%s %d - %s: agree %d / %d' % ('ok' if ok else 'not ok', n, name,
                                                     res.agree, res.total))
                for l in notes:
                    print('#   ' + l)
            else:
                print('%s: agree %d / %d' % (name, res.agree, res.total))
                for l in notes:
                    print('  ' + l)
            sys.stdout.flush()
            failed += 0 if ok else 1
    if pool:
        pool.shutdown()
    # the summary of each comparison, labelled with its mode
    for mode in labels:
        A, T, E = totals[mode]
        print(pfx + '%s: agree %d / %d (%d explained, %d unexplained)' % (mode, A, T, E, T - A - E))
        if mode != 'vars':
            continue
        for what, tc in (('types', vc.types), ('global types', vc.global_types)):
            if tc[1]:
                print(pfx + '%s: %s agree %d / %d (%d explained, %d unexplained)'
                      % (mode, what, tc[0], tc[1], tc[2], tc[1] - tc[0] - tc[2]))
        if vc.frames[1]:
            print(pfx + '%s: frames agree %d / %d (%d explained; function, tail call or not, '
                  'pc, cfa)' % (mode, vc.frames[0], vc.frames[1], vc.frames[2]))
        if vc.members[1]:
            ma, mt, me = vc.members
            print(pfx + '%s: members agree %d / %d (%d explained, %d unexplained)'
                  % (mode, ma, mt, me, mt - ma - me))
    return 0 if args.tap or failed == 0 else 1


if __name__ == '__main__':
    sys.exit(main())
