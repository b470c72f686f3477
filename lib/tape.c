/* lib/tape.c: straight-line programs compiled once, when
 * dwexpr_program_decode decodes them, into a "tape" the warm evaluation
 * runs instead of the fast loop's pass over the bytes (lib/fast.c).
 *
 * The fast loop decides most things from the kinds of its stack entries
 * (a value, a memory address, a register, implicit storage, the
 * composite), and in a program without branches those kinds are the same
 * in every evaluation. (Branches whose way is known at compile time are
 * taken then; the selection compilers write, "X Y C DW_OP_bra 1;
 * DW_OP_swap; DW_OP_drop" of two values or memory addresses, is an
 * operation, T_SELECT; any other branch leaves the program to the fast
 * loop.) dwx_tape_compile runs the fast loop's rules on the kinds alone,
 * once: stack operations, the kind checks, constant operands and
 * arithmetic on constants are done then, and what is left is a list of
 * the operations that depend on the target or on a value it gave
 * (register, frame base, CFA, entry value, .debug_addr, memory reads,
 * base type conversions, arithmetic on such values, the range check of a
 * part), each writing a register (or a typed value) of its own, none
 * written twice, with the constant
 * operand of a binary operation in the operation. Where the fast loop
 * would decline whatever the target says (a kind it does not model, a
 * stack underflow, an operand it does not read), there is no tape and the
 * fast loop runs as before.
 *
 * The contract is the fast loop's: dwx_tape_run hands out exactly what
 * the fast loop would (the same helpers of lib/fastint.h, the same
 * callbacks with the same arguments, the same hand-out), or it declines
 * and the general path evaluates from the start. The context's limits are
 * checked up front against what the tape needs (steps, stack entries,
 * parts, implicit bytes): the fast loop declines exactly when one is
 * exceeded. test/test_fastpath.c compares it with the general loop on
 * random programs (decoded once, evaluated warm, bound and unbound). */
#include "fastint.h"
#include "tape.h"

enum {
    TAPE_REGS = 32,     /* registers a tape may write (an operation writes one) */
    TAPE_OPS = 96,      /* operations of a tape */
    TAPE_IMM = 0xff     /* tape_op.b: the right operand is imm */
};

/* Tape operations: T_and .. T_div are fast_loop's own binary labels (the
 * operation a constant), T_binary the others (dwx_int_binary of aux). */
enum tape_code {
    T_CONST, T_BREG, T_FBREG, T_CFA, T_ENTRY, T_ADDRX, T_CONSTX, T_DEREF, T_PLUS_UCONST,
    T_NOT, T_NEG, T_ABS, T_FITS, T_CONVERT, T_REINTERPRET, T_TYPED_STACK_VALUE, T_SELECT,
    T_and, T_plus, T_minus, T_mul, T_or, T_shl, T_shr, T_shra, T_div, T_binary, T_CODES
};
_Static_assert((int)T_CODES == (int)DWX_TAPE_CODES, "lib/tape.h counts the tape operations");

typedef struct tape_op {
    uint8_t code; /* enum tape_code */
    uint8_t dst;  /* the register written (T_CONVERT, T_REINTERPRET: the typed value) */
    uint8_t a;    /* a register read (T_ENTRY: the fast loop's stack depth; T_CONVERT,
                     T_REINTERPRET: a typed value when b is 1) */
    uint8_t b;    /* a register read, or TAPE_IMM */
    uint32_t aux; /* register number (T_BREG), size (T_DEREF), part (T_FITS), operation
                     (T_ENTRY: its id; T_binary), the condition's register (T_SELECT) */
    uint64_t imm; /* offset, constant, .debug_addr index, base type DIE; T_ENTRY: the
                     address of its block (in the program's bytes) */
} tape_op;

/* The compiler's own kind: a value or a memory address, whichever way a
 * selection (T_SELECT) went. The fast loop treats the two alike (as_value,
 * a part's place) but as the result, so such an entry may be anything
 * but the result. */
enum { TK_VAL_OR_MEM = FK_IPTR + 1 };

/* An entry of the fast loop's stack as the compiler sees it: its kind,
 * and its word either known now (c) or in register reg. A typed value
 * (FK_TVAL, DW_OP_convert / DW_OP_reinterpret) is typed value reg of the
 * evaluation; the implicit storage DW_OP_stack_value makes of one has
 * its bits in register reg and their count in the count register reg
 * (nbits_in_reg: the type's size, which the target tells). */
typedef struct tape_sym {
    uint8_t k;      /* FK_VAL, FK_MEM, FK_REG, FK_IMP, FK_UNDEF (parts), FK_COMP, FK_TVAL,
                       TK_VAL_OR_MEM */
    bool known;
    uint8_t reg;
    bool nbits_in_reg;
    uint32_t nbits; /* FK_IMP: bits of the implicit storage */
    uint64_t c;
} tape_sym;

typedef struct tape_part {
    uint64_t bits;
    tape_sym e;
} tape_part;

/* A tape: this header, N operations and NPARTS parts, one block without
 * pointers into itself (dwexpr_program_decode copies it into the
 * program's block, right after the program: a warm evaluation reads the
 * two, and a short tape is a cache line). */
struct dwx_tape {
    uint16_t n;          /* operations (at most TAPE_OPS) */
    uint8_t depth;       /* most entries on the fast loop's stack (at most FAST_STACK) */
    uint8_t nparts;      /* DW_OP_piece parts (at most FAST_PARTS) */
    uint8_t sp;          /* entries at the end (0: the result is undefined) */
    uint8_t implicit;    /* the longest DW_OP_implicit_value (at most 8 bytes) */
    tape_sym top;        /* the result entry (FK_COMP: the composite of parts) */
    tape_op ops[];
};

static inline const tape_part *tape_parts(const dwx_tape *t)
{
    return (const tape_part *)(const void *)(t->ops + t->n);
}

/* The compiler's state: fast_loop's stack and parts, as symbols. */
typedef struct tape_comp {
    const dwexpr_unit *unit;
    unsigned asz;
    uint64_t m;
    tape_op ops[TAPE_OPS];
    uint32_t n;
    uint32_t nregs;
    tape_sym st[FAST_STACK];
    uint32_t sp, depth;
    tape_part parts[FAST_PARTS];
    uint32_t nparts;
    uint64_t comp_bits;
    uint32_t ntyped;
    uint64_t implicit;
} tape_comp;

static bool emit(tape_comp *tc, unsigned code, uint8_t dst, uint8_t a, uint8_t b, uint32_t aux,
                 uint64_t imm)
{
    if (tc->n == TAPE_OPS)
        return false;
    tape_op *o = &tc->ops[tc->n++];
    o->code = (uint8_t)code;
    o->dst = dst;
    o->a = a;
    o->b = b;
    o->aux = aux;
    o->imm = imm;
    return true;
}

/* A new register in *R; false when the tape has none left. */
static bool new_reg(tape_comp *tc, uint8_t *r)
{
    if (tc->nregs == TAPE_REGS)
        return false;
    *r = (uint8_t)tc->nregs++;
    return true;
}

/* The register of S's word; a known word is loaded into a new one. */
static bool reg_of(tape_comp *tc, tape_sym *s, uint8_t *r)
{
    if (s->known) {
        if (!new_reg(tc, r) || !emit(tc, T_CONST, *r, 0, 0, 0, s->c))
            return false;
        s->known = false;
        s->reg = *r;
        return true;
    }
    *r = s->reg;
    return true;
}

/* An entry whose word an operation CODE computes into a new register. */
static bool computed(tape_comp *tc, tape_sym *s, unsigned k, unsigned code, uint8_t a, uint8_t b,
                     uint32_t aux, uint64_t imm)
{
    uint8_t r;
    if (!new_reg(tc, &r) || !emit(tc, code, r, a, b, aux, imm))
        return false;
    s->k = (uint8_t)k;
    s->known = false;
    s->reg = r;
    s->nbits_in_reg = false;
    s->nbits = 0;
    s->c = 0;
    return true;
}

static inline tape_sym known_sym(unsigned k, uint64_t c)
{
    tape_sym s = {(uint8_t)k, true, 0, false, 0, c};
    return s;
}

/* fast_loop's push (op_* then push): at most FAST_STACK entries here, the context's limit
 * at run time (tape.depth). */
static bool sym_push(tape_comp *tc, tape_sym s)
{
    if (tc->sp == FAST_STACK)
        return false;
    tc->st[tc->sp++] = s;
    if (tc->sp > tc->depth)
        tc->depth = tc->sp;
    return true;
}

/* as_value of the compiler's entries: values and memory addresses (the
 * word as it is: fast_loop keeps both masked). */
static inline bool valued(const tape_sym *s)
{
    return s->k == FK_VAL || s->k == FK_MEM || s->k == TK_VAL_OR_MEM;
}

/* fast_loop's binary operation X on the top two entries. */
static bool binary(tape_comp *tc, unsigned x, unsigned code)
{
    if (tc->sp < 2)
        return false;
    tape_sym *l = &tc->st[tc->sp - 2], *r = &tc->st[tc->sp - 1];
    if (!valued(l) || !valued(r))
        return false;
    if (l->known && r->known) {
        uint64_t v;
        if (dwx_int_binary(x, l->c, r->c, 8u * tc->asz, true, false, &v) != DWEXPR_OK)
            return false; /* the fast loop declines; the general path reports it */
        tc->sp--;
        *l = known_sym(FK_VAL, v);
        return true;
    }
    uint8_t ra, rb = TAPE_IMM;
    uint64_t imm = 0;
    if (r->known)
        imm = r->c;
    else
        rb = r->reg;
    if (!reg_of(tc, l, &ra))
        return false;
    tc->sp--;
    return computed(tc, l, FK_VAL, code, ra, rb, x, imm);
}

/* fast_loop's DW_OP_piece of A bytes (seed "Composite Location
 * Description Operations"), its checks in the same order. */
static bool piece(tape_comp *tc, uint64_t a)
{
    if (a > UINT64_MAX / 8 || tc->nparts == FAST_PARTS)
        return false;
    const uint64_t nb = 8 * a;
    const unsigned asz = tc->asz;
    if (nb > UINT64_MAX - tc->comp_bits ||
        (asz < 8 && tc->comp_bits + nb > ((uint64_t)1 << (8 * asz)) * 8))
        return false;
    tape_part *pt = &tc->parts[tc->nparts];
    pt->bits = nb;
    if (tc->sp == 0 || tc->st[tc->sp - 1].k == FK_COMP) {
        pt->e = known_sym(FK_UNDEF, 0); /* cases 1 and 2: an undefined part */
        if (tc->sp == 0 && !sym_push(tc, known_sym(FK_COMP, 0)))
            return false;
    } else {
        tape_sym t = tc->st[tc->sp - 1]; /* case 3: the top (a value converts to memory) */
        if (t.k == FK_VAL || t.k == TK_VAL_OR_MEM)
            t.k = FK_MEM;
        if (t.k != FK_MEM && t.k != FK_REG && t.k != FK_IMP)
            return false; /* part_fits refuses every other kind */
        pt->e = t;
        tc->sp--;
        if (tc->sp == 0) {
            if (!sym_push(tc, known_sym(FK_COMP, 0)))
                return false;
        } else if (tc->st[tc->sp - 1].k != FK_COMP) {
            return false; /* a composite above other entries */
        }
        /* part_fits at run time, on the part as it is then */
        if (!emit(tc, T_FITS, 0, 0, 0, tc->nparts, 0))
            return false;
    }
    tc->nparts++;
    tc->comp_bits += nb;
    return true;
}

/* "X Y C DW_OP_bra 1; DW_OP_swap; DW_OP_drop" with C (on top) unknown
 * now: fast_loop pops C; if it is not zero it jumps over the swap and
 * the drop leaves X, else the swap and the drop leave Y. Compiled when
 * the fast loop's checks hold on either path (two entries below C, no
 * composite among them) and X and Y are values or memory addresses, whose
 * word is all there is to choose: T_SELECT (of two kinds:
 * TK_VAL_OR_MEM). */
static bool select(tape_comp *tc)
{
    if (tc->sp < 3)
        return false;
    const uint8_t rc = tc->st[tc->sp - 1].reg;
    tape_sym *x = &tc->st[tc->sp - 3], *y = &tc->st[tc->sp - 2];
    if (!valued(x) || !valued(y))
        return false;
    const unsigned k = x->k == y->k ? x->k : TK_VAL_OR_MEM;
    uint8_t ra, rb;
    if (x->known && y->known && x->c == y->c) {
        tc->sp -= 2; /* either way the same word */
        x->k = (uint8_t)k;
        return true;
    }
    if (!reg_of(tc, x, &ra) || !reg_of(tc, y, &rb))
        return false;
    tc->sp -= 2;
    return computed(tc, x, k, T_SELECT, ra, rb, rc, 0);
}

/* Compile the LEN bytes at BYTES (fast_loop's reading of them, label by
 * label); false where the fast loop would decline whatever the target
 * answers, or the tape would be too long. */
static bool compile(tape_comp *tc, const uint8_t *bytes, size_t len)
{
    const unsigned asz = tc->asz;
    const uint64_t m = tc->m;
    const dwexpr_unit *unit = tc->unit;
    const uint8_t *pc = bytes, *const end = bytes + len;
    uint64_t a;
    int64_t sa;
    unsigned op, x;
    tape_sym *t;
    uint8_t ra;
next:
    if (pc >= end)
        return true;
    op = *pc++;
#define TAPE_CASE(l, lo, hi, one) if (op - (unsigned)(lo) <= (unsigned)((hi) - (lo))) goto op_##l;
    FAST_OPS(TAPE_CASE)
#undef TAPE_CASE
    goto op_other;
op_lit:
    if (!sym_push(tc, known_sym(FK_VAL, (op - DWX_CODE_lit0) & m)))
        return false;
    goto next;
op_reg:
    if (!sym_push(tc, known_sym(FK_REG, op - DWX_CODE_reg0)))
        return false;
    goto next;
op_breg:
    a = op - DWX_CODE_breg0;
    if (!sleb(&pc, end, &sa))
        return false;
    goto breg;
op_bregx:
    if (!uleb(&pc, end, &a) || !sleb(&pc, end, &sa) || a > UINT32_MAX)
        return false; /* breg() refuses such a register number */
breg:
    if (tc->sp == FAST_STACK || !computed(tc, &tc->st[tc->sp], FK_MEM, T_BREG, 0, 0,
                                           (uint32_t)a, (uint64_t)sa))
        return false;
    goto pushed;
op_const:
    if (!const_fixed(op, &pc, end, &a))
        return false;
    goto constant;
op_constu:
    if (!uleb(&pc, end, &a))
        return false;
    goto constant;
op_consts:
    if (!sleb(&pc, end, &sa))
        return false;
    a = (uint64_t)sa;
constant:
    if (!sym_push(tc, known_sym(FK_VAL, a & m)))
        return false;
    goto next;
op_addr:
    if (!dwx_fixed_le(&pc, end, asz, &a) || !sym_push(tc, known_sym(FK_MEM, (a + unit->load_bias) & m)))
        return false;
    goto next;
op_debug_addr:
    if (!uleb(&pc, end, &a) || tc->sp == FAST_STACK)
        return false;
    if (op == DWX_CODE_addrx || op == DWX_CODE_GNU_addr_index) {
        if (!computed(tc, &tc->st[tc->sp], FK_MEM, T_ADDRX, 0, 0, 0, a))
            return false;
    } else if (!computed(tc, &tc->st[tc->sp], FK_VAL, T_CONSTX, 0, 0, 0, a)) {
        return false;
    }
    goto pushed;
op_regx:
    if (!uleb(&pc, end, &a) || a > UINT32_MAX || !sym_push(tc, known_sym(FK_REG, a)))
        return false;
    goto next;
op_fbreg:
    if (!sleb(&pc, end, &sa) || tc->sp == FAST_STACK ||
        !computed(tc, &tc->st[tc->sp], FK_MEM, T_FBREG, 0, 0, 0, (uint64_t)sa))
        return false;
    goto pushed;
op_cfa:
    if (tc->sp == FAST_STACK || !computed(tc, &tc->st[tc->sp], FK_MEM, T_CFA, 0, 0, 0, 0))
        return false;
    goto pushed;
op_entry_value: {
    /* a block of one DW_OP_reg0..31 byte, read as fast_loop reads it;
     * its operation rebuilt at run time (entry_insn) */
    dwx_insn in;
    if (tc->sp == FAST_STACK || !entry_of_reg(op, &pc, end, &in) ||
        !computed(tc, &tc->st[tc->sp], FK_VAL, T_ENTRY, (uint8_t)tc->sp, 0, in.id,
                  (uint64_t)(uintptr_t)in.blk))
        return false;
    goto pushed;
}
op_stack_value:
    /* seed "Implicit Location Description Operations": the value's
     * bytes become implicit storage */
    if (!tc->sp)
        return false;
    t = &tc->st[tc->sp - 1];
    if (t->k == FK_TVAL) {
        /* as many bits as its type has, when the run finds it plain */
        const uint8_t tv = t->reg;
        if (!computed(tc, t, FK_IMP, T_TYPED_STACK_VALUE, tv, 0, 0, 0))
            return false;
        t->nbits_in_reg = true;
        goto next;
    }
    if (!valued(t))
        return false;
    t->k = FK_IMP;
    t->nbits = 8u * asz;
    goto next;
op_convert: {
    /* DWARF 5 2.5.1.6: the base type (0: generic) and the conversion at
     * run time, the target's type answered then */
    if (!uleb(&pc, end, &a) || !tc->sp || tc->ntyped == FAST_TYPED)
        return false;
    t = &tc->st[tc->sp - 1];
    uint8_t from_typed = 1;
    if (t->k == FK_TVAL)
        ra = t->reg;
    else if (!valued(t) || !reg_of(tc, t, &ra))
        return false;
    else
        from_typed = 0;
    x = op == DWX_CODE_reinterpret || op == DWX_CODE_GNU_reinterpret ? T_REINTERPRET : T_CONVERT;
    if (!emit(tc, x, (uint8_t)tc->ntyped, ra, from_typed, 0, a))
        return false;
    t->k = FK_TVAL;
    t->known = false;
    t->reg = (uint8_t)tc->ntyped++;
    t->nbits_in_reg = false;
    t->nbits = 0;
    t->c = 0;
    goto next;
}
op_piece:
    if (!uleb(&pc, end, &a) || !piece(tc, a))
        return false;
    goto next;
op_plus_uconst:
    if (!uleb(&pc, end, &a) || !tc->sp || !valued(t = &tc->st[tc->sp - 1]))
        return false;
    if (t->known) {
        *t = known_sym(FK_VAL, (t->c + (a & m)) & m);
        goto next;
    }
    if (!computed(tc, t, FK_VAL, T_PLUS_UCONST, t->reg, 0, 0, a & m))
        return false;
    goto next;
op_unary:
    if (!tc->sp || !valued(t = &tc->st[tc->sp - 1]))
        return false;
    x = op == DWX_CODE_not ? T_NOT : op == DWX_CODE_neg ? T_NEG : T_ABS;
    if (t->known) {
        uint64_t v = t->c;
        if (op == DWX_CODE_not)
            v = ~v & m;
        else if (op == DWX_CODE_neg || dwx_sext(v, 8u * asz) < 0)
            v = ((uint64_t)0 - v) & m;
        *t = known_sym(FK_VAL, v);
        goto next;
    }
    if (!computed(tc, t, FK_VAL, x, t->reg, 0, 0, 0))
        return false;
    goto next;
op_copy:
    /* seed "Stack Operations": any kind but an incomplete composite */
    if (op == DWX_CODE_pick) {
        if (pc >= end)
            return false;
        a = *pc++;
    } else {
        a = op == DWX_CODE_over;
    }
    if (a >= tc->sp || tc->st[tc->sp - 1 - a].k == FK_COMP ||
        !sym_push(tc, tc->st[tc->sp - 1 - a]))
        return false;
    goto next;
op_drop:
    if (!tc->sp || tc->st[tc->sp - 1].k == FK_COMP)
        return false;
    tc->sp--;
    goto next;
op_swap: {
    if (tc->sp < 2 || tc->st[tc->sp - 1].k == FK_COMP || tc->st[tc->sp - 2].k == FK_COMP)
        return false;
    const tape_sym s = tc->st[tc->sp - 1];
    tc->st[tc->sp - 1] = tc->st[tc->sp - 2];
    tc->st[tc->sp - 2] = s;
    goto next;
}
op_rot: {
    if (tc->sp < 3 || tc->st[tc->sp - 1].k == FK_COMP || tc->st[tc->sp - 2].k == FK_COMP ||
        tc->st[tc->sp - 3].k == FK_COMP)
        return false;
    const tape_sym s = tc->st[tc->sp - 1];
    tc->st[tc->sp - 1] = tc->st[tc->sp - 2];
    tc->st[tc->sp - 2] = tc->st[tc->sp - 3];
    tc->st[tc->sp - 3] = s;
    goto next;
}
op_deref: {
    /* seed "Special Value Operations" */
    unsigned n = asz;
    if (op == DWX_CODE_deref_size) {
        /* min(generic bits, 8 * S): a larger S reads the generic
         * type, as DW_OP_deref (semantics-notes "Dereferencing") */
        if (pc >= end || *pc == 0)
            return false;
        n = *pc < asz ? *pc : asz;
        pc++;
    }
    if (!tc->sp || !valued(t = &tc->st[tc->sp - 1]) || !reg_of(tc, t, &ra) ||
        !computed(tc, t, FK_VAL, T_DEREF, ra, 0, n, 0))
        return false;
    goto next;
}
op_nop:
    goto next;
op_implicit_value: {
    /* the length within the implicit_bytes limit: at run time */
    if (!uleb(&pc, end, &a) || a > 8 || a > (uint64_t)(end - pc))
        return false;
    tape_sym s = known_sym(FK_IMP, 0);
    for (unsigned i = 0; i < a; i++)
        s.c |= (uint64_t)pc[i] << (8 * i);
    pc += a;
    s.nbits = 8u * (uint32_t)a;
    if (a > tc->implicit)
        tc->implicit = a;
    if (!sym_push(tc, s))
        return false;
    goto next;
}
op_branch: {
    /* fast_loop's op_branch (seed "Control Flow Operations"): forward
     * only, in a program the decoder checked (no bad branch). DW_OP_skip
     * and a DW_OP_bra whose condition is known now go where they go; an
     * unknown condition is compiled only in the selection compilers
     * write, "X Y C DW_OP_bra 1; DW_OP_swap; DW_OP_drop" (C ? X : Y) */
    if (end - pc < 2 || pc[1] >= 0x80)
        return false;
    const size_t off = pc[0] | (size_t)pc[1] << 8;
    pc += 2;
    if (op == DWX_CODE_bra) {
        if (!tc->sp || !valued(t = &tc->st[tc->sp - 1]))
            return false; /* a typed condition: the fast loop */
        if (!t->known) {
            if (off != 1 || end - pc < 2 || pc[0] != DWX_CODE_swap || pc[1] != DWX_CODE_drop)
                return false;
            pc += 2;
            if (!select(tc))
                return false;
            goto next;
        }
        tc->sp--;
        if (!t->c)
            goto next;
    }
    if (off > (size_t)(end - pc))
        return false;
    pc += off;
    goto next;
}
op_implicit_pointer:
    return false; /* implicit pointers: the fast loop */
#define TAPE_BINARY(name)                                                                   \
    op_bin_##name:                                                                          \
    if (!binary(tc, DWEXPR_OP_##name, T_##name))                                            \
        return false;                                                                       \
    goto next;
    TAPE_BINARY(and)
    TAPE_BINARY(plus)
    TAPE_BINARY(minus)
    TAPE_BINARY(mul)
    TAPE_BINARY(or)
    TAPE_BINARY(shl)
    TAPE_BINARY(shr)
    TAPE_BINARY(shra)
    TAPE_BINARY(div)
#undef TAPE_BINARY
op_other:
    if (!(x = binary_op(op)) || !binary(tc, x, T_binary))
        return false;
    goto next;
pushed: /* computed() wrote st[sp] */
    tc->sp++;
    if (tc->sp > tc->depth)
        tc->depth = tc->sp;
    goto next;
}

_Static_assert(sizeof(dwx_tape) + sizeof(tape_op) * TAPE_OPS + sizeof(tape_part) * FAST_PARTS <=
                   DWX_TAPE_MAX,
               "DWX_TAPE_MAX holds the longest tape");
_Static_assert(TAPE_OPS <= UINT16_MAX && FAST_STACK <= UINT8_MAX && FAST_PARTS <= UINT8_MAX,
               "the tape's header holds its counts");
_Static_assert(sizeof(tape_op) % 8 == 0 && sizeof(tape_part) % 8 == 0 &&
                   sizeof(dwx_tape) % 8 == 0, "a tape's parts stay aligned");

/* See lib/dwx.h. */
size_t dwx_tape_compile(const dwexpr_program *prog, void *buf, size_t cap)
{
    const dwexpr_unit *unit = &prog->unit;
    if (!prog->fast || prog->bad_branch || !prog->bytes || !prog->len || prog->len > 4 * TAPE_OPS ||
        prog->shape == DWX_SHAPE_ONE || prog->shape == DWX_SHAPE_ONE_SV ||
        prog->shape == DWX_SHAPE_REG || !unit->addr_size || !unit->offset_size || !unit->version)
        return 0;
    tape_comp comp, *tc = &comp; /* about 2.5 KiB */
    tc->unit = unit;
    tc->asz = unit->addr_size;
    tc->m = dwx_mask(8u * tc->asz);
    tc->n = tc->nregs = tc->sp = tc->depth = tc->nparts = 0;
    tc->ntyped = 0;
    tc->comp_bits = tc->implicit = 0;
    if (!compile(tc, prog->bytes, prog->len) ||
        (tc->sp && tc->st[tc->sp - 1].k == TK_VAL_OR_MEM))
        return 0; /* a result whose kind the target decides: the fast loop */
    const size_t ops = sizeof(tape_op) * tc->n;
    const size_t parts = sizeof(tape_part) * tc->nparts;
    const size_t size = sizeof(dwx_tape) + ops + parts;
    if (size > cap)
        return 0;
    dwx_tape *t = buf;
    t->n = (uint16_t)tc->n;
    t->depth = (uint8_t)tc->depth;
    t->nparts = (uint8_t)tc->nparts;
    t->sp = (uint8_t)tc->sp;
    t->implicit = (uint8_t)tc->implicit;
    t->top = tc->sp ? tc->st[tc->sp - 1] : known_sym(FK_UNDEF, 0);
    memcpy(t->ops, tc->ops, ops);
    memcpy((uint8_t *)buf + sizeof(dwx_tape) + ops, tc->parts, parts);
    return size;
}

/* See lib/tape.h. */
uint32_t dwx_tape_codes(const dwx_tape *t)
{
    uint32_t codes = 0;
    for (uint32_t i = 0; t && i < t->n; i++)
        codes |= (uint32_t)1 << t->ops[i].code;
    return codes;
}

/* The word of S after the tape ran (registers R; a typed value: its
 * index), and the bits of its implicit storage (count registers N). */
static inline uint64_t word(const tape_sym *s, const uint64_t *r)
{
    return s->k == FK_TVAL ? s->reg : s->known ? s->c : r[s->reg];
}

static inline uint32_t nbits_of(const tape_sym *s, const uint32_t *n)
{
    return s->nbits_in_reg ? n[s->reg] : s->nbits;
}

/* See lib/tape.h. */
dwexpr_status dwx_tape_run(dwexpr_ctx *ctx, const dwexpr_program *prog, dwexpr_result *out)
{
    const dwx_tape *t = prog->tape;
    const dwexpr_eval_params *p = ctx->p;
    const dwexpr_unit *unit = &prog->unit;
    const unsigned asz = unit->addr_size;
    const uint64_t m = dwx_mask(8u * asz);
    /* fast_loop's limits (the step charge, its stack, parts, implicit
     * bytes), all known now; then its set-up */
    if (prog->len > ctx->lim.steps || t->depth > ctx->lim.stack || t->nparts > ctx->lim.parts ||
        t->implicit > ctx->lim.implicit_bytes ||
        !dwx_default_space_plain(ctx, ctx->t, ctx->user, p, asz))
        goto decline;
    ctx->addr_size = (uint8_t)asz;
    ctx->steps = prog->len;
    uint64_t r[TAPE_REGS];
    uint32_t nb[TAPE_REGS];           /* T_TYPED_STACK_VALUE: bits */
    dwexpr_value typed[FAST_TYPED];   /* T_CONVERT, T_REINTERPRET */
    dwx_env env;                      /* for dwx_base_type (set_env) */
    bool have_env = false;
    for (const tape_op *o = t->ops, *const e = o + t->n; o < e; o++) {
        switch (o->code) {
        case T_CONST:
            r[o->dst] = o->imm;
            break;
        case T_BREG:
            if (!breg(ctx, p, o->aux, (int64_t)o->imm, asz, m, &r[o->dst]))
                goto decline;
            break;
        case T_FBREG:
            if (!fbreg(ctx, (int64_t)o->imm, m, &r[o->dst]))
                goto decline;
            break;
        case T_CFA:
            if (!cfa(ctx, m, &r[o->dst]))
                goto decline;
            break;
        case T_ENTRY: {
            /* the operation as fast_loop's entry_of_reg makes it */
            dwx_insn in;
            memset(&in, 0, sizeof in);
            in.x = DWEXPR_OP_entry_value;
            in.id = (uint16_t)o->aux;
            in.a = 1;
            in.blk = (const uint8_t *)(uintptr_t)o->imm;
            in.blen = 1;
            ctx->sp = o->a;
            if (!entry_value(ctx, unit, p, &in, m, &r[o->dst]))
                goto decline;
            break;
        }
        case T_ADDRX:
        case T_CONSTX: {
            uint64_t v;
            if (!debug_addr(ctx, unit, o->imm, &v))
                goto decline;
            r[o->dst] = (o->code == T_ADDRX ? v + unit->load_bias : v) & m;
            break;
        }
        case T_DEREF:
            if (!read_memory(ctx, r[o->a], o->aux, m, &r[o->dst]))
                goto decline;
            break;
        case T_PLUS_UCONST:
            r[o->dst] = (r[o->a] + o->imm) & m;
            break;
        case T_NOT:
            r[o->dst] = ~r[o->a] & m;
            break;
        case T_NEG:
            r[o->dst] = ((uint64_t)0 - r[o->a]) & m;
            break;
        case T_ABS:
            r[o->dst] = dwx_sext(r[o->a], 8u * asz) < 0 ? ((uint64_t)0 - r[o->a]) & m : r[o->a];
            break;
        case T_SELECT: /* C ? X : Y (select): registers aux, a, b */
            r[o->dst] = r[o->aux] ? r[o->a] : r[o->b];
            break;
        case T_FITS: {
            const tape_part *pt = &tape_parts(t)[o->aux];
            const fent pe = {word(&pt->e, r), pt->e.k, nbits_of(&pt->e, nb)};
            if (!part_fits(ctx, &pe, pt->bits, asz, m))
                goto decline;
            break;
        }
#define TAPE_RUN_BINARY(name)                                                                \
        case T_##name:                                                                       \
            if (dwx_int_binary(DWEXPR_OP_##name, r[o->a], o->b == TAPE_IMM ? o->imm : r[o->b], \
                               8u * asz, true, false, &r[o->dst]) != DWEXPR_OK)              \
                goto decline;                                                                \
            break;
        TAPE_RUN_BINARY(and)
        TAPE_RUN_BINARY(plus)
        TAPE_RUN_BINARY(minus)
        TAPE_RUN_BINARY(mul)
        TAPE_RUN_BINARY(or)
        TAPE_RUN_BINARY(shl)
        TAPE_RUN_BINARY(shr)
        TAPE_RUN_BINARY(shra)
        TAPE_RUN_BINARY(div)
#undef TAPE_RUN_BINARY
        case T_CONVERT:
        case T_REINTERPRET: {
            /* fast_loop's op_convert: the type, the value converted by
             * the loop's own code, at most 64 bits */
            dwexpr_type ty;
            dwexpr_value in;
            if (dwx_base_type(ctx, set_env(&env, &have_env, unit, p), o->imm, true, &ty) !=
                DWEXPR_OK)
                goto decline;
            /* between integral types inline (dwx_convert_int) */
            if (o->code == T_CONVERT &&
                (o->b ? dwx_convert_int(&typed[o->a], &ty, &typed[o->dst])
                      : dwx_convert_int_bits(r[o->a], 8u * asz, false, &ty, &typed[o->dst])))
                break;
            if (o->b)
                in = typed[o->a];
            else
                in = generic_value(unit, r[o->a]);
            if (dwx_value_convert(ctx, &in, &ty, o->code == T_REINTERPRET, &typed[o->dst]) !=
                    DWEXPR_OK ||
                typed[o->dst].wide)
                goto decline;
            break;
        }
        case T_TYPED_STACK_VALUE: {
            /* dwx_stack_value's common case: at most 64 bits, stored
             * little-endian */
            const dwexpr_value *tv = &typed[o->a];
            if (tv->wide || tv->is_implicit_pointer || dwx_type_big(unit, &tv->type) ||
                dwx_value_bits(tv) > 64)
                goto decline;
            r[o->dst] = tv->bits;
            nb[o->dst] = (uint32_t)dwx_value_bits(tv);
            break;
        }
        case T_binary:
            if (dwx_int_binary(o->aux, r[o->a], o->b == TAPE_IMM ? o->imm : r[o->b], 8u * asz,
                               true, false, &r[o->dst]) != DWEXPR_OK)
                goto decline;
            break;
        default:
            goto decline;
        }
    }
    /* seed "DWARF Operation Expressions": the result is the top entry;
     * an empty stack is an undefined location; an incomplete composite
     * on top is completed (fast_loop's hand-out) */
    if (t->top.k == FK_COMP) {
        fpart parts[FAST_PARTS];
        const tape_part *tp = tape_parts(t);
        for (uint32_t i = 0; i < t->nparts; i++) {
            const tape_part *pt = &tp[i];
            parts[i].bits = pt->bits;
            parts[i].e.v = word(&pt->e, r);
            parts[i].e.k = pt->e.k;
            parts[i].e.nbits = nbits_of(&pt->e, nb);
        }
        dwexpr_sld *slot = ctx->result_slot ? ctx->result_slot : &ctx->result_one;
        if (build_composite(ctx, parts, t->nparts, NULL, slot) && hand_out_place(ctx, slot, out))
            return DWEXPR_OK;
    } else {
        const fent e = {word(&t->top, r), t->top.k, nbits_of(&t->top, nb)};
        if (hand_out(ctx, &e, typed, NULL, unit, out))
            return DWEXPR_OK;
    }
decline: /* nothing handed out: the general path runs from the start */
    return dwx_eval_other(ctx, prog, out);
}
