#!/usr/bin/env python3
"""Random DWARF 5 expressions for the comparison with gimli, in the corpus
format of ../shared/bench/corpus.txt (test/bench/gimli.sh BUILD random).

    gimli-random.py SEED COUNT > FILE

Deterministic for a SEED. The expressions are the part of DWARF 5 where
the specification of dwexpr (../shared/seeds/002) and DWARF 5 (gimli) give
the same answer, so that every difference is a bug on one side or a
difference gimli-compare.py names: a computation on values (literals and
constants of every form, registers through bregN / bregx, the frame base,
the CFA, .debug_addr, entry values, thread-local storage, every generic
arithmetic, logical, comparison and stack operation, dereferences of every
size, forward DW_OP_skip / DW_OP_bra over operations that leave the stack
as it was, typed constants, conversions, reinterpretations and integer
and floating-point arithmetic of the base types the line's bt= table
names) that ends with one entry: an address, DW_OP_stack_value, a
register or DW_OP_implicit_value (in a 4-byte unit, only small values),
or a list of DW_OP_piece / DW_OP_bit_piece parts made of such pieces.
The constructs where the two documents part (locations in the middle of a
computation, pieces with entries left beneath them, an empty stack at the
end) are left out on purpose, and so are the shifts in 4-byte units:
gimli 0.27 keeps generic values in 64 bits there, its Value::shl does not
cut its result to the 32-bit generic type and its shifts read a shift
count or a sign from bits dwexpr (and DWARF 5 2.5.1, the generic type
being the size of an address) has dropped; e.g. `DW_OP_breg22 4;
DW_OP_const4s 5; DW_OP_not; DW_OP_not; DW_OP_shra` gives 0 in gimli, the
register shifted by 5 in dwexpr (found by seeds 16, 17, 18, 20, 29, 35,
40 and 60 of earlier versions of this generator)."""
import random
import struct
import sys

BINARY = [0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x21, 0x22, 0x24, 0x25, 0x26, 0x27,
          0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e]  # and div minus mod mul or plus shl shr shra xor eq ge gt le lt ne
UNARY = [0x19, 0x1f, 0x20]  # abs neg not
# typed: the bt= table of every line (offset: ate, size): integers, and
# floats of 4 and 8 bytes (IEEE arithmetic in both evaluators)
TYPES = {0x30: (5, 4), 0x31: (7, 4), 0x32: (5, 8), 0x33: (7, 8), 0x34: (5, 1),
         0x35: (7, 2), 0x36: (4, 4), 0x37: (4, 8)}
INT_TYPES = [t for t in sorted(TYPES) if TYPES[t][0] != 4]  # not the floats
TYPED_BINARY = [0x1a, 0x1c, 0x1e, 0x21, 0x22, 0x27, 0x29, 0x2a, 0x2b, 0x2c,
                0x2d, 0x2e]  # and minus mul or plus xor and comparisons


def uleb(v):
    out = []
    while True:
        b = v & 0x7f
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return out


def sleb(v):
    out = []
    while True:
        b = v & 0x7f
        v >>= 7
        if (v == 0 and not b & 0x40) or (v == -1 and b & 0x40):
            out.append(b)
            return out
        out.append(b | 0x80)


def le(v, w):
    return [(v >> (8 * i)) & 0xff for i in range(w)]


class Gen:
    def __init__(self, rnd, asz):
        self.r = rnd
        self.asz = asz
        self.limit = (1 << 31) if asz == 4 else (1 << 64)
        # no shifts (0x24..0x26) in 4-byte units (see above)
        self.binary = [b for b in BINARY if asz == 8 or b not in (0x24, 0x25, 0x26)]

    def value(self):
        r = self.r.random()
        if r < 0.35:
            v = self.r.randint(0, 31)
        elif r < 0.6:
            v = self.r.randint(0, 0xffff)
        elif r < 0.8:
            v = self.r.choice([0, 1, 2, 7, 8, 31, 32, 33, 63, 64, 65, 0x7fffffff,
                               0x80000000, 0xffffffff, 2**63 - 1, 2**63, 2**64 - 1])
        else:
            v = self.r.getrandbits(64)
        return v % self.limit

    def producer(self):
        """One operation that pushes a generic value."""
        rnd = self.r
        k = rnd.random()
        v = self.value()
        if k < 0.25 and v < 32:
            return [0x30 + v]
        if k < 0.45:
            w = rnd.choice([1, 2, 4, 8])
            if w == 8 and self.asz == 4:
                w = 4
            signed = rnd.random() < 0.5
            if signed and self.asz == 4 and v >= 1 << (8 * w - 1):
                signed = False  # a negative constant sign-extends past 32 bits
            return [0x08 + 2 * [1, 2, 4, 8].index(w) + signed] + le(v, w)
        if k < 0.55:
            return [0x10] + uleb(v)
        if k < 0.6:
            s = rnd.randint(-1000, 1000) if self.asz == 4 else (v if v < 2**63 else v - 2**64)
            if self.asz == 4 and s < 0:
                s = -s
            return [0x11] + sleb(s)
        if k < 0.72:
            return [0x70 + rnd.randint(0, 31)] + sleb(rnd.randint(-300, 300))
        if k < 0.75:
            return [0x92] + uleb(rnd.randint(0, 40)) + sleb(rnd.randint(-300, 300))
        if k < 0.8:
            return [0x91] + sleb(rnd.randint(-300, 300))
        if k < 0.84:
            return [0x9c]
        if k < 0.88:
            return [0x03] + le(v, self.asz)
        if k < 0.91:
            return [0xa1] + uleb(rnd.randint(0, 99))
        if k < 0.94:
            return [0xa2] + uleb(rnd.randint(0, 99))
        return [0xa3, 1, 0x50 + rnd.randint(0, 31)]

    def neutral(self):
        """Operations that leave the stack as they found it (one entry or more)."""
        rnd = self.r
        k = rnd.random()
        if k < 0.3:
            return self.producer() + [rnd.choice([b for b in self.binary if b <= 0x25])]  # and..shr
        if k < 0.5:
            return [rnd.choice(UNARY)]
        if k < 0.65:
            return [0x23] + uleb(self.value())
        if k < 0.8:
            return [0x12, 0x13]  # dup drop
        if k < 0.9:
            return [0x06] if self.asz == 8 else [0x94, rnd.choice([1, 2, 4])]
        return [0x96]

    def computation(self):
        """Operations that leave exactly one generic value."""
        rnd = self.r
        ops = [self.producer()]
        depth = 1
        for _ in range(rnd.randint(0, 7)):
            k = rnd.random()
            if k < 0.3 or depth == 1 and k < 0.55:
                ops.append(self.producer())
                depth += 1
            elif depth >= 2 and k < 0.6:
                ops.append([rnd.choice(self.binary)])
                depth -= 1
            elif k < 0.66:
                ops.append([rnd.choice(UNARY)])
            elif k < 0.7:
                ops.append([0x23] + uleb(self.value()))
            elif k < 0.74:
                ops.append([0x12])
                depth += 1
            elif k < 0.77 and depth >= 2:
                ops.append([0x13])
                depth -= 1
            elif k < 0.8 and depth >= 2:
                ops.append([0x14])  # over
                depth += 1
            elif k < 0.83 and depth >= 2:
                ops.append([0x16])  # swap
            elif k < 0.85 and depth >= 3:
                ops.append([0x17])  # rot
            elif k < 0.87:
                ops.append([0x15, rnd.randint(0, depth - 1)])
                depth += 1
            elif k < 0.91:
                ops.append([0x06] if self.asz == 8 else [0x94, rnd.choice([1, 2, 4])])
            elif k < 0.93:
                ops.append([0x94, rnd.choice([1, 2, 4, 8][:3 if self.asz == 4 else 4])])
            elif k < 0.96:
                # forward skip over operations that keep the stack as it is
                body = [x for _ in range(rnd.randint(1, 3)) for x in self.neutral()]
                ops.append([0x2f] + le(len(body), 2) + body)
            else:
                # DW_OP_bra: a condition, then the same
                body = [x for _ in range(rnd.randint(1, 3)) for x in self.neutral()]
                ops.append(self.producer() + [0x28] + le(len(body), 2) + body)
        while depth > 1:
            ops.append([rnd.choice(self.binary)])
            depth -= 1
        if self.asz == 8 and rnd.random() < 0.12:
            ops.append(self.typed())
        return [x for o in ops for x in o]

    def typed(self):
        """A typed computation on the value on the stack, back to generic:
        convert to T, a typed constant of T, an operation, convert to 0; for
        a float type T (half of them) the constant's bits are random, a
        number or a special one (0, -0, infinity), the operation one of
        minus, mul, plus, div, eq, ne, and the result goes back through
        DW_OP_reinterpret to an integer of its size (its bits, NaNs
        included) or DW_OP_convert (its value)."""
        rnd = self.r
        if rnd.random() < 0.5:
            f = rnd.choice([0x36, 0x37])
            size = TYPES[f][1]
            iv = 0x31 if size == 4 else 0x33
            fmt = '<f' if size == 4 else '<d'
            r = rnd.random()
            if r < 0.3:
                v = rnd.getrandbits(8 * size)
            else:
                x = (rnd.uniform(-1e6, 1e6) if r < 0.6 else
                     rnd.choice([0.0, -0.0, 1.0, 0.5, 3.0, -2.0, 1e30, float('inf')]))
                v = int.from_bytes(struct.pack(fmt, x), 'little')
            end = [0xa9] + uleb(iv) + [0xa8, 0] if rnd.random() < 0.6 else [0xa8, 0]
            return ([0xa8] + uleb(f) + [0xa4] + uleb(f) + [size] + le(v, size) +
                    [rnd.choice([0x1c, 0x1e, 0x22, 0x1b, 0x29, 0x2d])] + end)
        t = rnd.choice(INT_TYPES)
        size = TYPES[t][1]
        v = rnd.getrandbits(8 * size)
        return ([0xa8] + uleb(t) + [0xa4] + uleb(t) + [size] + le(v, size) +
                [rnd.choice(TYPED_BINARY), 0xa8, 0])

    def simple(self, in_pieces):
        """A DWARF 5 simple location description (or its value form)."""
        rnd = self.r
        k = rnd.random()
        if k < 0.15:
            return [0x50 + rnd.randint(0, 31)]
        if k < 0.2:
            return [0x90] + uleb(rnd.randint(0, 40))
        if k < 0.27:
            n = rnd.choice([1, 2, 4, 8])
            return [0x9e] + uleb(n) + [rnd.randint(0, 255) for _ in range(n)]
        if in_pieces and k < 0.32:
            return []  # an undefined part
        c = self.computation()
        if rnd.random() < 0.4:
            c.append(0x9f)
        return c

    def expression(self):
        rnd = self.r
        if rnd.random() < 0.75:
            return self.simple(False)
        out = []
        for _ in range(rnd.randint(1, 4)):
            out += self.simple(True)
            if rnd.random() < 0.8:
                out += [0x93] + uleb(rnd.choice([1, 2, 4, 8]))
            else:
                out += [0x9d] + uleb(rnd.choice([1, 3, 8, 16, 32])) + uleb(rnd.choice([0, 1, 5]))
        return out


def main():
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    rnd = random.Random(seed)
    bt = 'bt=' + ','.join('%x:%d:%d' % (o, a, s) for o, (a, s) in sorted(TYPES.items()))
    for _ in range(count):
        asz = rnd.choice([8, 8, 8, 4])
        e = Gen(rnd, asz).expression()
        print(asz, bytes(e).hex(), bt)


if __name__ == '__main__':
    main()
