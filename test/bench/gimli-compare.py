#!/usr/bin/env python3
"""Compare dwexpr's result for every benchmark corpus expression with gimli's.

    gimli-compare.py CORPUS DWEXPR_DUMP GIMLI_DUMP

DWEXPR_DUMP: `dwexpr-bench CORPUS dump`; GIMLI_DUMP: `gimli-bench CORPUS
dump` (test/bench/gimli); CORPUS is the benchmark's or random programs of
test/bench/gimli-random.py in its format. Both evaluate from the bytes with the mock target
of ../shared/bench/README.md and print one line per expression:

    N err REASON          the evaluation failed (each says why its own way)
    N val:HEX             a value (dwexpr only: result kind unspecified)
    N PLACE               a location of one place
    N [BITS:PLACE,...]    a composite (DW_OP_piece / DW_OP_bit_piece)

PLACE: mem:ADDR, reg:N, imp:BYTES (implicit storage, little-endian),
iptr:DIE:DISP or undef, then +bN for a bit offset into the storage.

The two evaluators agree on every expression but where a rule below explains
the difference; each rule is a documented difference of semantics or a
feature gimli 0.27 lacks, and says which side follows the specification
(../shared/seeds/002: "THE spec"; DWARF 5 where 002 defers to it). Any other
difference is printed and the exit status is 1. TAP output (a test per rule
and one for the unexplained), so that meson counts it."""
import sys


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    corpus = [l.split() for l in open(sys.argv[1])
              if l.strip() and not l.startswith('#')]
    dwx = [l.rstrip('\n').split(' ', 1)[1] for l in open(sys.argv[2])]
    gml = [l.rstrip('\n').split(' ', 1)[1] for l in open(sys.argv[3])]
    if not (len(corpus) == len(dwx) == len(gml)):
        print('not ok 1 - the dumps do not cover the corpus: %d / %d / %d lines'
              % (len(corpus), len(dwx), len(gml)))
        return 1

    def signed_generic(line):
        # a bt= table naming a signed or unsigned base type of the address
        # size: the types the generic type stands for in dwexpr
        # (lib/value.c generic_stands_for)
        size = line[0]
        for f in line[2:]:
            if f.startswith('bt='):
                for t in f[3:].split(','):
                    _, ate, sz = t.split(':')
                    if int(ate) in (5, 7) and sz == size:  # DW_ATE_signed, _unsigned
                        return True
        return False

    rules = [
        ('same result', None),
        ('a value left on the stack: dwexpr hands out the value (002 "DWARF '
         'Operation Expressions": with the result kind unspecified the result '
         'is the top entry as it is), gimli the memory location at that address '
         '(DWARF 5 2.6.1.1.2)', 'value'),
        ('DW_OP_GNU_uninit: a marker dwexpr reads as no operation (as GDB '
         'does); gimli 0.27 does not know the opcode', 'uninit'),
        ('a binary operation on a typed and a generic value: ill-formed in '
         'dwexpr (DWARF 5 2.5.1.4: both operands of the same type; GDB reports '
         '"Incompatible types on DWARF stack"), evaluated by gimli', 'types'),
        ('a binary operation on the generic type and a signed or unsigned base '
         'type of the address size: evaluated in dwexpr (the generic type has '
         'unspecified signedness, so the two are one type; LLVM emits this after '
         'a sign or zero extension, and GDB evaluates both), a type mismatch in '
         'gimli',
         'signed_generic'),
        ('DW_OP_convert of a floating-point value outside the integer type: an '
         'evaluation error in dwexpr, saturated by gimli (Rust "as")', 'float'),
        ('a piece or a dereference past the end of its storage (implicit '
         'storage smaller than the piece, memory beyond the last address of '
         'the unit\'s address size): ill-formed or an evaluation error in '
         'dwexpr (002 "Composite Location Description Operations", "Memory '
         'Location Description Operations"); gimli has no storage sizes and '
         'asks the target', 'bounds'),
        ('both fail', 'both_err'),
    ]
    counts = {k: 0 for _, k in rules}
    unexplained = []
    for i, (d, g) in enumerate(zip(dwx, gml)):
        if d == g:
            counts[None] += 1
            continue
        if d.startswith('err') and g.startswith('err'):
            counts['both_err'] += 1
            continue
        if d.startswith('val:') and g == 'mem:' + d[4:]:
            counts['value'] += 1
            continue
        if g == 'err InvalidExpression(DwOp(240))':  # 0xf0: DW_OP_GNU_uninit
            counts['uninit'] += 1
            continue
        if d.startswith('err ill_formed') and 'operands have different types' in d:
            counts['types'] += 1
            continue
        if g == 'err TypeMismatch' and not d.startswith('err') and signed_generic(corpus[i]):
            counts['signed_generic'] += 1
            continue
        if d.startswith('err evaluation DW_OP_convert: floating-point value does not fit'):
            counts['float'] += 1
            continue
        if (d.startswith('err') and not g.startswith('err') and
                ('run past the end of the implicit storage' in d or
                 'run past the end of the memory storage' in d)):
            counts['bounds'] += 1
            continue
        unexplained.append((i, ' '.join(corpus[i]), d, g))

    n = len(rules) + 1
    print('1..%d' % n)
    for t, (text, key) in enumerate(rules, 1):
        print('ok %d - %d expressions: %s' % (t, counts[key], text))
    if unexplained:
        print('not ok %d - %d expressions differ without a rule:' % (n, len(unexplained)))
        for i, line, d, g in unexplained[:50]:
            print('#   line %d: %s\n#     dwexpr: %s\n#     gimli:  %s' % (i, line, d, g))
        return 1
    print('ok %d - no other difference (%d expressions)' % (n, len(corpus)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
