#!/usr/bin/env python3
"""make_bad.py: derive the malformed SPIR-V modules of spirv.cases from the
valid ones (opencl.spv, debuginfo.spv, both assembled with
`spirv-as --target-env spv1.0 X.spvasm -o X.spv`). Run from this directory;
the outputs are committed so the reader is tested without spirv-tools."""
import struct


def words(path):
    b = open(path, 'rb').read()
    return list(struct.unpack('<%dI' % (len(b) // 4), b))


def save(path, ws, extra=b''):
    open(path, 'wb').write(struct.pack('<%dI' % len(ws), *ws) + extra)


def insns(ws):
    """(word index, opcode, word count) of every instruction."""
    i, out = 5, []
    while i < len(ws):
        out.append((i, ws[i] & 0xffff, ws[i] >> 16))
        i += ws[i] >> 16
    return out


def ext_insts(ws, number):
    """Word index of every OpExtInst with this instruction number."""
    return [i for i, op, n in insns(ws) if op == 12 and ws[i + 4] == number]


ocl = words('opencl.spv')
# truncated: the last instruction (OpFunctionEnd) and OpReturn gone, and
# the last DebugValue cut after 5 of its 8 words
last_dv = ext_insts(ocl, 29)[-1]
save('truncated.spv', ocl[:last_dv + 5])
# not whole words: two bytes of a word more
save('oddsize.spv', ocl, b'\x00\x00')
# bad magic number
save('badmagic.spv', [0x07230204] + ocl[1:])
# an instruction with word count 0 (OpReturn)
ret = [i for i, op, n in insns(ocl) if op == 253][0]
save('zerocount.spv', ocl[:ret] + [253] + ocl[ret + 1:])
# DebugOperation PlusUconst (code 3) without its literal
pu = [i for i in ext_insts(ocl, 30) if ocl[i + 5] == 3][0]
save('wrongcount.spv', ocl[:pu] + [(6 << 16) | 12] + ocl[pu + 1:pu + 6] + ocl[pu + 7:])
# a DebugValue whose Expression is not a DebugExpression (the constant it binds)
dv = ext_insts(ocl, 29)[0]
save('dangling.spv', ocl[:dv + 7] + [ocl[dv + 6]] + ocl[dv + 8:])
# the same module with big-endian words (valid)
b = b''.join(struct.pack('>I', w) for w in ocl)
open('bigendian.spv', 'wb').write(b)
# the DebugInfo set has no Fragment: Constu (code 8) turned into code 9
di = words('debuginfo.spv')
cu = [i for i in ext_insts(di, 30) if di[i + 5] == 8][0]
save('fragment_debuginfo.spv', di[:cu + 5] + [9] + di[cu + 6:])
