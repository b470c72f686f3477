/* lib/fast.c: the evaluator's fast path. One pass over the bytes of a
 * straight-line expression made of the commonest operations (what real
 * location expressions are: literals, registers, register-relative and
 * frame-base addresses, the CFA, entry values, .debug_addr entries, generic
 * arithmetic, dereferences, conversions, stack_value, implicit pointers and
 * DW_OP_piece lists), with a stack of 16-byte entries (a word and its kind) instead of
 * dwx_entry.
 *
 * The rule that keeps it honest: it either hands out exactly what the
 * general dispatch loop (lib/eval.c) gives, in every field, or it declines
 * (returns false) without handing out anything, and dwexpr_eval /
 * dwexpr_eval_bytes then run the general path from the start. It declines
 * on any operation outside its set, any unusual operand, any entry kind it
 * does not model, and any failure (the general path reports failures, with
 * the operation and offset). Where the target is involved it calls the
 * loop's own helpers (dwx_cfa_loc, dwx_entry_value, dwx_debug_addr,
 * dwx_base_type, dwx_value_convert) or repeats their common case with the
 * same callbacks and arguments (breg: dwx_breg's register read; fbreg:
 * dwx_fbreg_loc's ready memory frame base; part_fits: fits()'s range check
 * of a part), and it uses the same
 * integer rules (dwx_int_binary); test/test_fastpath.c and fuzz_eval
 * compare it with the loop on random programs.
 *
 * Entry kinds: a generic value; a memory location in the default address
 * space at a byte offset (the kind a generic value converts to and from,
 * seed "Memory Location Description Operations"); a register location of
 * the top frame; a value of a base type of at most 64 bits (DW_OP_convert,
 * DW_OP_reinterpret; the arithmetic runs only on generic values); the
 * implicit storage DW_OP_stack_value makes of a value; implicit pointer
 * storage (DW_OP_implicit_pointer, in the default space); and one
 * incomplete composite at the bottom of the stack. */
#include "evalops.h"

/* GNU C tables of range initializers ([LO ... HI] = X over a default for
 * [0 ... 255]): the later initializers override the default, which gcc's
 * -Woverride-init and clang's -Winitializer-overrides warn about. */
#if defined(__clang__)
#  define RANGES_BEGIN                                                               \
      _Pragma("GCC diagnostic push")                                                 \
      _Pragma("GCC diagnostic ignored \"-Winitializer-overrides\"")
#else
#  define RANGES_BEGIN                                                               \
      _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Woverride-init\"")
#endif
#define RANGES_END _Pragma("GCC diagnostic pop")

#include "fastint.h"
#include "tape.h"

/* See lib/dwx.h. Only a hint: fast_loop checks everything itself. */
bool dwx_fast_candidate(const dwexpr_program *prog)
{
    if (!DWX_HOST_LITTLE || prog->unit.big_endian || (!prog->bytes && prog->len) ||
        prog->bad_branch)
        return false;
    for (size_t i = 0; i < prog->count; i++) {
        const dwx_insn *in = &prog->code[i];
        switch (in->x) {
        case DWEXPR_OP_lit0: case DWEXPR_OP_reg0: case DWEXPR_OP_breg0: case DWEXPR_OP_addr:
        case DWEXPR_OP_addrx: case DWEXPR_OP_constx: case DWEXPR_OP_fbreg:
        case DWEXPR_OP_call_frame_cfa: case DWEXPR_OP_stack_value: case DWEXPR_OP_piece:
        case DWEXPR_OP_plus_uconst: case DWEXPR_OP_neg: case DWEXPR_OP_not: case DWEXPR_OP_abs:
        case DWEXPR_OP_dup: case DWEXPR_OP_over: case DWEXPR_OP_pick: case DWEXPR_OP_drop:
        case DWEXPR_OP_swap: case DWEXPR_OP_rot: case DWEXPR_OP_deref:
        case DWEXPR_OP_deref_size: case DWEXPR_OP_nop: case DWEXPR_OP_GNU_uninit:
        case DWEXPR_OP_and: case DWEXPR_OP_div:
        case DWEXPR_OP_minus: case DWEXPR_OP_mod: case DWEXPR_OP_mul: case DWEXPR_OP_or:
        case DWEXPR_OP_plus: case DWEXPR_OP_shl: case DWEXPR_OP_shr: case DWEXPR_OP_shra:
        case DWEXPR_OP_xor: case DWEXPR_OP_eq: case DWEXPR_OP_ge: case DWEXPR_OP_gt:
        case DWEXPR_OP_le: case DWEXPR_OP_lt: case DWEXPR_OP_ne:
            break;
        case DWEXPR_OP_entry_value:
            if (in->blen != 1 || in->blk[0] < DWX_CODE_reg0 || in->blk[0] > DWX_CODE_reg31)
                return false;
            break;
        case DWEXPR_OP_convert: case DWEXPR_OP_reinterpret: case DWEXPR_OP_implicit_pointer:
        case DWEXPR_OP_skip: case DWEXPR_OP_bra: case DWEXPR_OP_implicit_value:
            break;
        default:
            return false;
        }
    }
    return true;
}

/* A list of register and empty pieces (DW_OP_regN DW_OP_piece S, or
 * DW_OP_piece S alone, repeated; S < 128): a fifth of the expressions
 * that are not a lone register. PC..END read as fast_loop's op_reg and
 * op_piece would read them, with the same parts, checks and order, but
 * without the stack: true with the parts in PARTS, their count in *NP and
 * bits in *NBITS; false for anything else or anything those would
 * decline (the loop then runs from the start). */
static DWX_ALWAYS_INLINE bool reg_pieces(dwexpr_ctx *ctx, const uint8_t *pc, const uint8_t *end,
                                          unsigned asz, uint64_t m, fpart *parts, uint32_t *np,
                                          uint64_t *nbits)
{
    uint32_t n = 0;
    uint64_t bits = 0;
    while (pc < end) {
        fent e;
        if (pc[0] == DWX_CODE_piece) {
            e.k = FK_UNDEF; /* cases 1 and 2: nothing on the stack but the composite */
            e.v = 0;
            pc++;
        } else if ((unsigned)(pc[0] - DWX_CODE_reg0) < 32 && end - pc >= 2 &&
                   pc[1] == DWX_CODE_piece) {
            e.k = FK_REG; /* case 3: a register location */
            e.v = (unsigned)(pc[0] - DWX_CODE_reg0);
            pc += 2;
        } else {
            return false;
        }
        if (pc >= end || *pc >= 0x80 || n == FAST_PARTS || n >= ctx->lim.parts)
            return false;
        const uint64_t nb = 8 * (uint64_t)*pc++; /* at most 1016: no overflow */
        if ((asz < 8 && bits + nb > ((uint64_t)1 << (8 * asz)) * 8) ||
            (e.k == FK_REG && !part_fits(ctx, &e, nb, asz, m)))
            return false;
        parts[n].bits = nb;
        parts[n].e = e;
        n++;
        bits += nb;
    }
    *np = n;
    *nbits = bits;
    return true;
}



/* What fast_loop does when it declines: FALL_NONE returns
 * DWEXPR_E_UNSUPPORTED (dwx_fast_fold: no fold), FALL_BYTES runs
 * dwx_eval_bytes_general (dwx_fast_eval_bytes), FALL_PROG dwx_eval_other
 * (dwx_fast_prog). */
enum fast_fallback { FALL_NONE, FALL_BYTES, FALL_PROG };

/* The fast loop: LEN bytes at BYTES of the unit SRC (FALL_BYTES: a
 * dwexpr_unit, normalized here as dwx_unit_normalize does) or of the
 * program SRC (else), on CTX set up as lib/evalint.h says, parameters
 * ctx->p. One function for every caller (its computed-goto table cannot
 * be copied into them), reached by a jump: the fallback runs from here. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static dwexpr_status fast_loop(dwexpr_ctx *ctx, const uint8_t *bytes, size_t len,
                               dwexpr_result *out, const void *src, enum fast_fallback fall)
{
    const dwexpr_eval_params *p = ctx->p;
    const dwexpr_unit *unit = fall == FALL_BYTES ? (const dwexpr_unit *)src
                                                 : &((const dwexpr_program *)src)->unit;
    /* normalized (the defaults of fields left 0) on a copy, only then */
    dwexpr_unit u;
    if (!unit->addr_size || !unit->offset_size || !unit->version) {
        u = dwx_unit_normalize(unit);
        unit = &u;
    }
    const unsigned asz = unit->addr_size;
    const uint64_t m = dwx_mask(8u * asz);
    const uint8_t *pc = bytes, *const end = bytes + len;
    fent st[FAST_STACK];
    fpart parts[FAST_PARTS];
    dwexpr_value typed[FAST_TYPED];
    fiptr iptrs[FAST_IPTRS];
    uint32_t sp = 0, nparts = 0, ntyped = 0, niptrs = 0;
    uint64_t comp_bits = 0;
    const uint32_t stack_max = ctx->lim.stack < FAST_STACK ? ctx->lim.stack : FAST_STACK;
    dwx_env env; /* for the helpers that ask the target (set_env) */
    bool have_env = false;
    /* FALL_BYTES: the bytes decoded (op_branch) into WHOLE, the scratch
     * as it was after that; a decline then goes on from there */
    bool decoded = false;
    dwexpr_program whole;
    dwx_mark after_decode;
    /* The step limit (seed "DWARF Expression Evaluation Context": an
     * evaluation that runs too long is stopped) charged up front: every
     * operation here takes at least one byte and branches go forward only
     * (op_branch), so there are at most LEN. A nested evaluation (entry_value's block in the
     * caller frame) counts on from there, more than the loop would have
     * counted: where that stops it, the loop takes over and stops where
     * it stops. */
    if (len > ctx->lim.steps || !dwx_default_space_plain(ctx, ctx->t, ctx->user, p, asz))
        goto decline;
    ctx->addr_size = (uint8_t)asz; /* depth and stack: zero (lib/evalint.h) */
    ctx->steps = len;

    unsigned op, x;
    fent e;
    uint64_t a;
    int64_t sa;
#if defined(__GNUC__) && !defined(DWX_NO_COMPUTED_GOTO)
    /* one indirect jump per operation (FAST_OPS; anything else: op_other,
     * the first initializer, which the others override); elsewhere (or
     * built with -DDWX_NO_COMPUTED_GOTO) a test per label */
    RANGES_BEGIN
    static const void *const dispatch[256] = {
        [0 ... 255] = &&op_other,
#  define FAST_ENTRY(l, lo, hi, one) [lo ... hi] = &&op_##l,
        FAST_OPS(FAST_ENTRY)
#  undef FAST_ENTRY
    };
    RANGES_END
#  define FAST_DISPATCH() goto *dispatch[op]
#else
#  define FAST_CASE(l, lo, hi, one) if (op - (lo) <= (unsigned)((hi) - (lo))) goto op_##l;
#  define FAST_DISPATCH() do { FAST_OPS(FAST_CASE) goto op_other; } while (0)
#endif

    /* a register piece list without the stack (reg_pieces; the loop pushes
     * a register, so it needs two entries) */
    if (stack_max >= 2 && pc < end &&
        (pc[0] == DWX_CODE_piece || (unsigned)(pc[0] - DWX_CODE_reg0) < 32)) {
        if (reg_pieces(ctx, pc, end, asz, m, parts, &nparts, &comp_bits)) {
            st[0].k = FK_COMP;
            sp = 1;
            goto done;
        }
        nparts = 0;
        comp_bits = 0;
    }

next:
    if (pc >= end)
        goto done;
    op = *pc++;
    FAST_DISPATCH();
#undef FAST_DISPATCH
#undef FAST_CASE
    op_lit:
        e.k = FK_VAL;
        e.v = (op - DWX_CODE_lit0) & m;
        goto push;
    op_reg:
        e.k = FK_REG;
        e.v = op - DWX_CODE_reg0;
        goto push;
    op_breg: {
        /* seed "Memory Location Description Operations" */
        int64_t off;
        if (!sleb(&pc, end, &off) || !breg(ctx, p, op - DWX_CODE_breg0, off, asz, m, &e.v))
            goto decline;
        e.k = FK_MEM;
        goto push;
    }
    op_const:
        if (!const_fixed(op, &pc, end, &a))
            goto decline;
        e.k = FK_VAL;
        e.v = a & m;
        goto push;
    op_constu:
        if (!uleb(&pc, end, &a))
            goto decline;
        e.k = FK_VAL;
        e.v = a & m;
        goto push;
    op_consts:
        if (!sleb(&pc, end, &sa))
            goto decline;
        e.k = FK_VAL;
        e.v = (uint64_t)sa & m;
        goto push;
    op_addr:
        if (!dwx_fixed_le(&pc, end, asz, &a))
            goto decline;
        e.k = FK_MEM;
        e.v = (a + unit->load_bias) & m;
        goto push;
    op_debug_addr:
        /* .debug_addr entries: an address (relocated), or a constant */
        if (!uleb(&pc, end, &a) || !debug_addr(ctx, unit, a, &a))
            goto decline;
        if (op == DWX_CODE_addrx || op == DWX_CODE_GNU_addr_index) {
            e.k = FK_MEM;
            e.v = (a + unit->load_bias) & m;
        } else {
            e.k = FK_VAL;
            e.v = a & m;
        }
        goto push;
    op_regx:
        if (!uleb(&pc, end, &a) || a > UINT32_MAX)
            goto decline;
        e.k = FK_REG;
        e.v = a;
        goto push;
    op_bregx:
        if (!uleb(&pc, end, &a) || !sleb(&pc, end, &sa) ||
            !breg(ctx, p, a, sa, asz, m, &e.v))
            goto decline;
        e.k = FK_MEM;
        goto push;
    op_fbreg: {
        if (!sleb(&pc, end, &sa) || !fbreg(ctx, sa, m, &e.v))
            goto decline;
        e.k = FK_MEM;
        goto push;
    }
    op_cfa:
        if (!cfa(ctx, m, &e.v))
            goto decline;
        e.k = FK_MEM;
        goto push;
    op_entry_value: {
        /* a block of one DW_OP_reg0..31 byte; the value must be generic */
        dwx_insn in;
        memset(&in, 0, sizeof in);
        if (!entry_of_reg(op, &pc, end, &in))
            goto decline;
        ctx->sp = sp;
        if (!entry_value(ctx, unit, p, &in, m, &e.v))
            goto decline;
        e.k = FK_VAL;
        goto push;
    }
    op_stack_value:
        /* seed "Implicit Location Description Operations": the
         * value's bytes become implicit storage */
        if (!sp)
            goto decline;
        if (st[sp - 1].k == FK_TVAL) {
            /* dwx_stack_value's common case: at most 64 bits,
             * stored little-endian */
            const dwexpr_value *tv = &typed[st[sp - 1].v];
            if (tv->wide || tv->is_implicit_pointer || dwx_type_big(unit, &tv->type) ||
                dwx_value_bits(tv) > 64)
                goto decline;
            st[sp - 1].v = tv->bits;
            st[sp - 1].nbits = (uint32_t)dwx_value_bits(tv);
        } else if (as_value(&st[sp - 1], m, &st[sp - 1].v)) {
            st[sp - 1].nbits = 8u * asz;
        } else {
            goto decline;
        }
        st[sp - 1].k = FK_IMP;
        goto next;
    op_convert: {
        /* DWARF 5 2.5.1.6: the base type (0: generic), the value
         * converted or reinterpreted by the loop's own code */
        dwexpr_type t;
        dwexpr_value in, r;
        if (!uleb(&pc, end, &a) || !sp || ntyped == FAST_TYPED ||
            dwx_base_type(ctx, set_env(&env, &have_env, unit, p), a, true, &t) !=
                DWEXPR_OK)
            goto decline;
        fent *top = &st[sp - 1];
        const bool reinterp = op == DWX_CODE_reinterpret || op == DWX_CODE_GNU_reinterpret;
        if (top->k == FK_TVAL) {
            /* between integral types inline (dwx_convert_int) */
            if (reinterp || !dwx_convert_int(&typed[top->v], &t, &r)) {
                in = typed[top->v];
                goto convert;
            }
        } else if (as_value(top, m, &a)) {
            /* the generic type's value: unsigned, of the unit's size */
            if (reinterp || !dwx_convert_int_bits(a, 8u * asz, false, &t, &r)) {
                in = generic_value(unit, a);
                goto convert;
            }
        } else {
            goto decline;
        }
        goto converted;
    convert:
        if (dwx_value_convert(ctx, &in, &t, reinterp, &r) != DWEXPR_OK || r.wide)
            goto decline;
    converted:
        typed[ntyped] = r;
        top->k = FK_TVAL;
        top->v = ntyped++;
        goto next;
    }
    op_piece: {
        /* seed "Composite Location Description Operations" */
        if (!uleb(&pc, end, &a) || a > UINT64_MAX / 8 || nparts == FAST_PARTS ||
            nparts >= ctx->lim.parts)
            goto decline;
        const uint64_t nb = 8 * a;
        if (nb > UINT64_MAX - comp_bits ||
            (asz < 8 && comp_bits + nb > ((uint64_t)1 << (8 * asz)) * 8))
            goto decline;
        fpart *pt = &parts[nparts];
        pt->bits = nb;
        if (sp == 0 || st[sp - 1].k == FK_COMP) {
            /* cases 1 and 2: an undefined part */
            pt->e.k = FK_UNDEF;
            pt->e.v = 0;
            if (sp == 0) {
                st[0].k = FK_COMP;
                sp = 1;
            }
        } else {
            /* case 3: the top (a value converts to memory) */
            fent t = st[sp - 1];
            if (t.k == FK_VAL)
                t.k = FK_MEM;
            else if (t.k == FK_COMP)
                goto decline;
            if (!part_fits(ctx, &t, nb, asz, m))
                goto decline;
            pt->e = t;
            sp--;
            if (sp == 0) {
                st[0].k = FK_COMP;
                sp = 1;
            } else if (st[sp - 1].k != FK_COMP) {
                goto decline; /* a composite above other entries */
            }
        }
        nparts++;
        comp_bits += nb;
        goto next;
    }
    op_plus_uconst:
        if (!uleb(&pc, end, &a) || !sp || !as_value(&st[sp - 1], m, &st[sp - 1].v))
            goto decline;
        st[sp - 1].k = FK_VAL;
        st[sp - 1].v = (st[sp - 1].v + (a & m)) & m;
        goto next;
    op_unary: {
        if (!sp)
            goto decline;
        fent *t = &st[sp - 1];
        if (!as_value(t, m, &t->v))
            goto decline;
        t->k = FK_VAL;
        if (op == DWX_CODE_not)
            t->v = ~t->v & m;
        else if (op == DWX_CODE_neg || dwx_sext(t->v, 8u * asz) < 0)
            t->v = ((uint64_t)0 - t->v) & m;
        goto next;
    }
    op_copy: {
        /* seed "Stack Operations": any kind but an incomplete composite */
        if (op == DWX_CODE_pick) {
            if (pc >= end)
                goto decline;
            a = *pc++;
        } else {
            a = op == DWX_CODE_over;
        }
        if (a >= sp || st[sp - 1 - a].k == FK_COMP)
            goto decline;
        e = st[sp - 1 - a];
        goto push;
    }
    op_drop:
        if (!sp || st[sp - 1].k == FK_COMP)
            goto decline;
        sp--;
        goto next;
    op_swap:
        if (sp < 2 || st[sp - 1].k == FK_COMP || st[sp - 2].k == FK_COMP)
            goto decline;
        e = st[sp - 1];
        st[sp - 1] = st[sp - 2];
        st[sp - 2] = e;
        goto next;
    op_rot:
        if (sp < 3 || st[sp - 1].k == FK_COMP || st[sp - 2].k == FK_COMP ||
            st[sp - 3].k == FK_COMP)
            goto decline;
        e = st[sp - 1];
        st[sp - 1] = st[sp - 2];
        st[sp - 2] = st[sp - 3];
        st[sp - 3] = e;
        goto next;
    op_deref: {
        /* seed "Special Value Operations": a generic value of the
         * address size, or of S bytes zero-extended */
        unsigned n = asz;
        if (op == DWX_CODE_deref_size) {
            /* min(generic bits, 8 * S): a larger S reads the generic
             * type, as DW_OP_deref (semantics-notes "Dereferencing") */
            if (pc >= end || *pc == 0)
                goto decline;
            n = *pc < asz ? *pc : asz;
            pc++;
        }
        if (!sp)
            goto decline;
        fent *t = &st[sp - 1];
        if ((t->k != FK_VAL && t->k != FK_MEM) || !read_memory(ctx, t->v, n, m, &t->v))
            goto decline;
        t->k = FK_VAL;
        goto next;
    }
    op_nop: /* a marker for the consumer; no effect (as the loop) */
        goto next;
    op_implicit_value:
        /* seed "Implicit Location Description Operations": a ULEB128
         * length and that many bytes, implicit storage of their bits
         * (within the implicit_bytes limit, else the loop's error; so not
         * folded, lib/fold.c); up to 8 bytes, kept as FK_IMP keeps a
         * value's (little-endian host) */
        if (!uleb(&pc, end, &a) || a > 8 || a > ctx->lim.implicit_bytes ||
            a > (uint64_t)(end - pc))
            goto decline;
        e.v = 0;
        for (unsigned i = 0; i < a; i++)
            e.v |= (uint64_t)pc[i] << (8 * i);
        pc += a;
        e.k = FK_IMP;
        e.nbits = 8u * (uint32_t)a;
        goto push;
    op_branch: {
        /* seed "Control Flow Operations": a 2-byte signed offset from the
         * next operation; DW_OP_bra pops a value and branches when it is
         * not zero (dwx_op_bra_taken). Forward only, so that every
         * operation runs at most once and the step charge holds; and only
         * in decoded bytes, whose decoder checked every operation (the
         * ones jumped over too) and found every target an operation
         * boundary (a program with a bad one is no candidate): the bytes
         * of dwexpr_eval_bytes are decoded here first, as its general
         * path decodes them (into the same scratch, before anything else
         * is put there), and if the loop declines later the general path
         * goes on from that decode */
        if (end - pc < 2 || pc[1] >= 0x80)
            goto decline;
        if (fall == FALL_BYTES && !decoded) {
            if (dwx_decode_oneshot(ctx, bytes, len, unit, &whole) != DWEXPR_OK)
                goto decline;
            decoded = true;
            after_decode = dwx_arena_mark(ctx);
            if (whole.bad_branch)
                goto decline;
        }
        const size_t off = pc[0] | (size_t)pc[1] << 8;
        pc += 2;
        if (op == DWX_CODE_bra) {
            if (!sp)
                goto decline;
            const fent *t = &st[sp - 1];
            if (t->k == FK_TVAL) {
                const dwexpr_value *tv = &typed[t->v];
                if (tv->wide || tv->is_implicit_pointer)
                    goto decline;
                a = tv->bits;
            } else if (!as_value(t, m, &a)) {
                goto decline;
            }
            sp--;
            if (!a)
                goto next;
        }
        if (off > (size_t)(end - pc))
            goto decline;
        pc += off;
        goto next;
    }
    op_implicit_pointer: {
        /* seed "Implicit Location Description Operations": a DIE
         * reference (dwx_ref_size bytes) and a signed byte offset;
         * implicit pointer storage of the default address space's address
         * size (dwx_op_implicit_pointer; the space is the plain one) */
        const unsigned rs = dwx_ref_size(unit);
        if ((size_t)(end - pc) < rs || niptrs == FAST_IPTRS)
            goto decline;
        a = 0;
        for (unsigned i = 0; i < rs; i++)
            a |= (uint64_t)pc[i] << (8 * i);
        pc += rs;
        if (!sleb(&pc, end, &sa))
            goto decline;
        iptrs[niptrs].die = a;
        iptrs[niptrs].disp = sa;
        e.k = FK_IPTR;
        e.v = niptrs++;
        e.nbits = 8u * asz;
        goto push;
    }
    /* the commonest binary operations, each with dwx_int_binary's rule
     * for its operation alone (the operation a constant: no switch) */
#define FAST_BINARY(name)                                                                    \
    op_bin_##name: {                                                                         \
        uint64_t ua, ub;                                                                     \
        x = DWEXPR_OP_##name;                                                                \
        if (sp < 2)                                                                          \
            goto decline;                                                                    \
        if (!as_value(&st[sp - 2], m, &ua) || !as_value(&st[sp - 1], m, &ub))                \
            goto typed_binary;                                                               \
        if (dwx_int_binary(DWEXPR_OP_##name, ua, ub, 8u * asz, true, false, &a) != DWEXPR_OK) \
            goto decline;                                                                    \
        sp--;                                                                                \
        st[sp - 1].k = FK_VAL;                                                               \
        st[sp - 1].v = a;                                                                    \
        goto next;                                                                           \
    }
    FAST_BINARY(and)
    FAST_BINARY(plus)
    FAST_BINARY(minus)
    FAST_BINARY(mul)
    FAST_BINARY(or)
    FAST_BINARY(shl)
    FAST_BINARY(shr)
    FAST_BINARY(shra)
    FAST_BINARY(div)
#undef FAST_BINARY
    op_other:
        if (!(x = binary_op(op)) || sp < 2)
            goto decline;
        /* DWARF 5 2.5.1.4/5 on two generic values */
        uint64_t ua, ub;
        if (!as_value(&st[sp - 2], m, &ua) || !as_value(&st[sp - 1], m, &ub))
            goto typed_binary;
        if (dwx_int_binary(x, ua, ub, 8u * asz, true, false, &a) != DWEXPR_OK)
            goto decline;
        sp--;
        st[sp - 1].k = FK_VAL;
        st[sp - 1].v = a;
        goto next;
    typed_binary: {
        /* binary operation X (sp >= 2) with a typed value (DW_OP_convert,
         * DW_OP_reinterpret) among its operands: the general path's
         * dwx_value_binary on the two values (a value or a memory
         * address beside it as the generic value dwx_to_value makes),
         * its result typed value ntyped; its errors are the loop's */
        dwexpr_value va, vb;
        if (ntyped == FAST_TYPED || !typed_operand(&st[sp - 2], typed, unit, m, &va) ||
            !typed_operand(&st[sp - 1], typed, unit, m, &vb) ||
            dwx_value_binary(ctx, unit, (int)x, &va, &vb, &typed[ntyped]) != DWEXPR_OK ||
            typed[ntyped].wide)
            goto decline;
        sp--;
        st[sp - 1].k = FK_TVAL;
        st[sp - 1].v = ntyped++;
        goto next;
    }
push:
    if (sp >= stack_max)
        goto decline;
    st[sp++] = e;
    goto next;

done:; /* (a declaration follows: a label needs a statement before C23) */

    /* seed "DWARF Operation Expressions": the result is the top entry;
     * an empty stack is an undefined location; an incomplete composite
     * on top is completed. */
    dwexpr_sld *slot = ctx->result_slot ? ctx->result_slot : &ctx->result_one;
    if (sp && st[sp - 1].k == FK_COMP) {
        if (build_composite(ctx, parts, nparts, iptrs, slot) && hand_out_place(ctx, slot, out))
            return DWEXPR_OK;
    } else {
        const fent undef = {0, FK_UNDEF, 0};
        if (hand_out(ctx, sp ? &st[sp - 1] : &undef, typed, iptrs, unit, out))
            return DWEXPR_OK;
    }

decline: /* nothing handed out: the general path runs from the start
          * (from the bytes' decode, if op_branch made one) */
    if (fall == FALL_BYTES && decoded) {
        dwx_arena_rollback(ctx, after_decode);
        return dwx_eval_oneshot_decoded(ctx, &whole, out);
    }
    if (fall == FALL_BYTES)
        return dwx_eval_bytes_general(ctx, bytes, len, (const dwexpr_unit *)src, out);
    if (fall == FALL_PROG)
        return dwx_eval_other(ctx, (const dwexpr_program *)src, out);
    return DWEXPR_E_UNSUPPORTED;
}

/* See lib/evalint.h. */
bool dwx_fast_fold(dwexpr_ctx *ctx, const dwexpr_program *prog, dwexpr_result *out)
{
    return fast_loop(ctx, prog->bytes, prog->len, out, prog, FALL_NONE) == DWEXPR_OK;
}


/* The kind of a producer opcode OP (FAST_OPS' last column). */
static enum one_kind one_kind(unsigned op)
{
#define ONE_TEST(l, lo, hi, one)                                                   \
    if ((one) != ONE_OTHER && op - (unsigned)(lo) <= (unsigned)((hi) - (lo)))      \
        return one;
    FAST_OPS(ONE_TEST)
#undef ONE_TEST
    return ONE_OTHER;
}

/* See lib/dwx.h. */
uint8_t dwx_fast_one_kind(const struct dwexpr_program *prog)
{
    if (!prog->fast ||
        (prog->shape != DWX_SHAPE_ONE && prog->shape != DWX_SHAPE_ONE_SV))
        return 0;
    return (uint8_t)one_kind(prog->bytes[0]);
}

/* A DWX_SHAPE_ONE / DWX_SHAPE_ONE_SV program (SV: the latter) from its
 * producer IN as the decoder builds it, of a unit UNIT (normalized), under
 * fast_loop's conditions and set-up: the same code as fast_loop's cases for it, and
 * the same contract (true with *OUT filled exactly as the general path
 * would, or false and nothing handed out). KIND is one_kind's of the
 * producer, a constant in each copy (dwx_one_fns); each kind of entry is
 * handed out by its own copy of hand_out. */
static DWX_ALWAYS_INLINE bool fast_one(dwexpr_ctx *ctx, const dwx_insn *in,
                                       const dwexpr_unit *unit, bool sv,
                                       const dwexpr_eval_params *p, dwexpr_result *out,
                                       enum one_kind kind)
{
    const unsigned asz = unit->addr_size;
    const uint64_t m = dwx_mask(8u * asz);
    fent e;
    if (ctx->lim.steps < 1 || !dwx_default_space_plain(ctx, ctx->t, ctx->user, p, asz))
        return false;
    ctx->addr_size = (uint8_t)asz;
    ctx->steps = 1;
    switch (kind) {
    case ONE_CONST:
        e.v = in->a & m;
        goto value;
    case ONE_ADDR:
        e.v = (in->a + unit->load_bias) & m;
        goto memory;
    case ONE_ADDRX:
        if (!debug_addr(ctx, unit, in->a, &e.v))
            return false;
        e.v = (e.v + unit->load_bias) & m;
        goto memory;
    case ONE_REG:
        if (in->a > UINT32_MAX || sv)
            return false; /* stack_value of a register: the loop's error */
        e.k = FK_REG;
        e.v = in->a;
        return hand_out(ctx, &e, NULL, NULL, unit, out);
    case ONE_BREG:
        if (!breg(ctx, p, in->a, (int64_t)in->b, asz, m, &e.v))
            return false;
        goto memory;
    case ONE_FBREG:
        if (!fbreg(ctx, (int64_t)in->a, m, &e.v))
            return false;
        goto memory;
    case ONE_CFA:
        if (!cfa(ctx, m, &e.v))
            return false;
        goto memory;
    case ONE_ENTRY:
        if (!entry_value(ctx, unit, p, in, m, &e.v))
            return false;
        goto value;
    default:
        return false;
    }
memory:
    if (!sv) {
        e.k = FK_MEM;
        return hand_out(ctx, &e, NULL, NULL, unit, out);
    }
    goto stack_value; /* the address as a value (as_value: masked already) */
value:
    if (!sv) {
        e.k = FK_VAL;
        return hand_out(ctx, &e, NULL, NULL, unit, out);
    }
stack_value:
    /* DW_OP_stack_value: one more step (after the producer's nested
     * ones, if any); the value's bytes become implicit storage */
    if (++ctx->steps > ctx->lim.steps)
        return false;
    e.k = FK_IMP;
    e.nbits = 8u * asz;
    return hand_out(ctx, &e, NULL, NULL, unit, out);
}

/* fast_one's copies, one per kind, each falling back to the general
 * path (noinline: each is reached by dwx_one_fns' jump and keeps its own
 * small frame). */
#if defined(__GNUC__)
#  define ONE_NOINLINE __attribute__((noinline))
#else
#  define ONE_NOINLINE
#endif
#define ONE_COPY(name, kind)                                                                 \
    static ONE_NOINLINE dwexpr_status name(dwexpr_ctx *ctx, const dwexpr_program *prog,       \
                                           dwexpr_result *out)                                \
    {                                                                                         \
        if (fast_one(ctx, prog->code, &prog->unit, prog->shape == DWX_SHAPE_ONE_SV, ctx->p, out, \
                     kind))                                                                   \
            return DWEXPR_OK;                                                                 \
        return dwx_eval_other(ctx, prog, out);                                                \
    }
ONE_COPY(one_const, ONE_CONST)
ONE_COPY(one_addr, ONE_ADDR)
ONE_COPY(one_addrx, ONE_ADDRX)
ONE_COPY(one_reg, ONE_REG)
ONE_COPY(one_breg, ONE_BREG)
ONE_COPY(one_fbreg, ONE_FBREG)
ONE_COPY(one_cfa, ONE_CFA)
ONE_COPY(one_entry, ONE_ENTRY)
#undef ONE_COPY

/* By kind (ONE_OTHER: the general path); see lib/evalint.h. */
const dwx_one_fn dwx_one_fns[ONE_KINDS] = {
    [ONE_OTHER] = dwx_eval_other, [ONE_CONST] = one_const, [ONE_ADDR] = one_addr,
    [ONE_ADDRX] = one_addrx, [ONE_REG] = one_reg,
    [ONE_BREG] = one_breg, [ONE_FBREG] = one_fbreg, [ONE_CFA] = one_cfa,
    [ONE_ENTRY] = one_entry,
};

/* The producer of kind KIND at the start of the LEN bytes at B read into
 * *IN as the decoder and fast_loop read it (a literal's value, breg's
 * register and offset, an entry_value block of one DW_OP_reg0..31 byte
 * left undecoded), and whether it is all there is (*SV false) or is
 * followed by DW_OP_stack_value and nothing else (*SV true). False for
 * anything else: the loop then reads the bytes. ASZ: the unit's address
 * size as given (zero, the default, finds no DW_OP_addr: the loop reads
 * it). No call: the caller declines cheaply. */
static DWX_ALWAYS_INLINE bool lone_producer(const uint8_t *b, size_t len, unsigned asz,
                                            enum one_kind kind, dwx_insn *in, bool *sv)
{
    const uint8_t *pc = b + 1, *const end = b + len;
    const unsigned op = b[0];
    uint64_t a = 0;
    int64_t sa = 0;
    switch (kind) {
    case ONE_CONST:
        if (op - DWX_CODE_lit0 < 32u) {
            a = op - DWX_CODE_lit0;
        } else if (op == DWX_CODE_constu) {
            if (!uleb_short(&pc, end, &a))
                return false;
        } else if (op == DWX_CODE_consts) {
            if (!sleb_short(&pc, end, &sa))
                return false;
            a = (uint64_t)sa;
        } else if (!const_fixed(op, &pc, end, &a)) {
            return false;
        }
        break;
    case ONE_ADDR:
        if (op != DWX_CODE_addr || !dwx_fixed_le(&pc, end, asz, &a))
            return false;
        break;
    case ONE_ADDRX:
        if (!uleb_short(&pc, end, &a))
            return false;
        break;
    case ONE_BREG:
        if (op == DWX_CODE_bregx) {
            if (!uleb_short(&pc, end, &a))
                return false;
        } else {
            a = op - DWX_CODE_breg0;
        }
        if (!sleb_short(&pc, end, &sa))
            return false;
        in->b = (uint64_t)sa;
        break;
    case ONE_FBREG:
        if (!sleb_short(&pc, end, &sa))
            return false;
        a = (uint64_t)sa;
        break;
    case ONE_CFA:
        break;
    case ONE_ENTRY:
        if (!entry_of_reg(op, &pc, end, in))
            return false;
        a = 1;
        break;
    default: /* ONE_REG (a register's stack_value is the loop's error), ONE_OTHER */
        return false;
    }
    in->a = a;
    if (pc == end) {
        *sv = false;
        return true;
    }
    *sv = true;
    return end - pc == 1 && *pc == DWX_CODE_stack_value;
}

/* fast_one from the bytes, one copy per kind like dwx_one_fns (noinline: each
 * keeps its own frame); anything else, or a failure, goes to fast_loop
 * from the start. (gcc saves the frame's registers before the producer is
 * read; reading it in a leaf that calls the copy only for a lone one
 * costs the lone producers more than it saves the others: cold +3.0 per
 * evaluation.) */
#define ONE_BYTES_COPY(kind)                                                                   \
    static ONE_NOINLINE dwexpr_status one_bytes_##kind(dwexpr_ctx *ctx, const uint8_t *bytes,  \
                                                       size_t len, const dwexpr_unit *unit,    \
                                                       dwexpr_result *out)                     \
    {                                                                                           \
        dwx_insn in;                                                                            \
        bool sv;                                                                                \
        if (!lone_producer(bytes, len, unit->addr_size, kind, &in, &sv))                        \
            return fast_loop(ctx, bytes, len, out, unit, FALL_BYTES);                           \
        dwexpr_unit u;                                                                          \
        const dwexpr_unit *un = unit;                                                           \
        if (!unit->addr_size || !unit->offset_size || !unit->version) {                         \
            u = dwx_unit_normalize(unit);                                                       \
            un = &u;                                                                            \
        }                                                                                       \
        if (fast_one(ctx, &in, un, sv, ctx->p, out, kind))                                      \
            return DWEXPR_OK;                                                                   \
        return fast_loop(ctx, bytes, len, out, unit, FALL_BYTES);                               \
    }
ONE_BYTES_COPY(ONE_CONST)
ONE_BYTES_COPY(ONE_ADDR)
ONE_BYTES_COPY(ONE_ADDRX)
ONE_BYTES_COPY(ONE_BREG)
ONE_BYTES_COPY(ONE_FBREG)
ONE_BYTES_COPY(ONE_CFA)
ONE_BYTES_COPY(ONE_ENTRY)
#undef ONE_BYTES_COPY

/* A short constant and DW_OP_stack_value from the bytes: what
 * one_bytes_ONE_CONST gives (fast_one: two steps, the constant as a
 * generic value in implicit storage, hand_out's FK_IMP), in leaves: that
 * copy's frame costs about 30 instructions. Only for a stated address
 * size (the generic type's: dwexpr_unit) and a result whose place is
 * result_one; anything else goes to that copy. Unlike the copy, no
 * question about the default address space (dwx_default_space_plain):
 * a constant's value and implicit storage do not depend on it, as the
 * general loop's do not. (GNU C: the table by first byte below.) */
#if defined(__GNUC__)
static DWX_ALWAYS_INLINE bool short_const_ok(const dwexpr_ctx *ctx, const uint8_t *bytes,
                                              size_t len, size_t want, unsigned asz)
{
    return len == want && bytes[want - 1] == DWX_CODE_stack_value && asz &&
           ctx->lim.steps >= 2 && !ctx->result_slot;
}

static DWX_ALWAYS_INLINE dwexpr_status short_const_out(dwexpr_ctx *ctx, uint64_t v, unsigned asz,
                                                        dwexpr_result *out)
{
    ctx->addr_size = (uint8_t)asz;
    ctx->steps = 2;
    ctx->result_bytes = v & dwx_mask(8u * asz); /* little-endian host: its first bytes */
    ctx->result_one = sld_implicit((const uint8_t *)&ctx->result_bytes, 8u * asz);
    hand_out_place(ctx, &ctx->result_one, out);
    return DWEXPR_OK;
}

/* DW_OP_lit0..31 DW_OP_stack_value (2.6% of the corpus) */
static dwexpr_status one_bytes_lit(dwexpr_ctx *ctx, const uint8_t *bytes, size_t len,
                                   const dwexpr_unit *unit, dwexpr_result *out)
{
    const unsigned asz = unit->addr_size;
    if (!short_const_ok(ctx, bytes, len, 2, asz))
        return one_bytes_ONE_CONST(ctx, bytes, len, unit, out);
    return short_const_out(ctx, (uint64_t)(bytes[0] - DWX_CODE_lit0), asz, out);
}

/* DW_OP_const1u / const1s B, DW_OP_constu / consts of a one-byte LEB128
 * B (< 0x80), then DW_OP_stack_value (2.3% of the corpus) */
static dwexpr_status one_bytes_const1(dwexpr_ctx *ctx, const uint8_t *bytes, size_t len,
                                      const dwexpr_unit *unit, dwexpr_result *out)
{
    const unsigned asz = unit->addr_size;
    if (!short_const_ok(ctx, bytes, len, 3, asz) ||
        (bytes[1] >= 0x80 && (bytes[0] == DWX_CODE_constu || bytes[0] == DWX_CODE_consts)))
        return one_bytes_ONE_CONST(ctx, bytes, len, unit, out);
    const uint64_t b = bytes[1];
    uint64_t v = b; /* const1u, constu */
    if (bytes[0] == DWX_CODE_const1s)
        v = (uint64_t)(int64_t)(int8_t)bytes[1];
    else if (bytes[0] == DWX_CODE_consts && (b & 0x40))
        v = b | ~(uint64_t)0x7f; /* SLEB128: bit 6 is the sign */
    return short_const_out(ctx, v, asz, out);
}
#endif

/* A register piece list from the bytes (DW_OP_regN or nothing, then
 * DW_OP_piece S, repeated: 10% of the corpus), first byte DW_OP_reg* or
 * DW_OP_piece: what fast_loop makes of it (reg_pieces, then its done:
 * build_composite, hand_out_place) without the loop's frame, stack and
 * dispatch set-up. Where the loop would first decline or normalize (a
 * unit of zero fields, a step limit below the length, a stack of fewer
 * than two entries) and for anything reg_pieces does not take, the loop
 * runs from the start; where building fails, the general path, as the
 * loop's decline. Unlike the loop, no question about the default address
 * space (dwx_default_space_plain): register and undefined parts do not
 * depend on it, and the composite's bound is the unit's address size
 * (reg_pieces), as in the general loop. */
static dwexpr_status one_bytes_pieces(dwexpr_ctx *ctx, const uint8_t *bytes, size_t len,
                                      const dwexpr_unit *unit, dwexpr_result *out)
{
    const unsigned asz = unit->addr_size;
    fpart parts[FAST_PARTS];
    uint32_t n = 0;
    uint64_t bits = 0;
    if (!asz || !unit->offset_size || !unit->version || len > ctx->lim.steps ||
        ctx->lim.stack < 2 ||
        !reg_pieces(ctx, bytes, bytes + len, asz, dwx_mask(8u * asz), parts, &n, &bits))
        return fast_loop(ctx, bytes, len, out, unit, FALL_BYTES);
    ctx->addr_size = (uint8_t)asz;
    ctx->steps = len;
    dwexpr_sld *slot = ctx->result_slot ? ctx->result_slot : &ctx->result_one;
    if (!build_composite(ctx, parts, n, NULL, slot))
        return dwx_eval_bytes_general(ctx, bytes, len, unit, out);
    hand_out_place(ctx, slot, out);
    return DWEXPR_OK;
}

/* A first byte DW_OP_reg*: a piece list (one_bytes_pieces), else the loop
 * (a register alone is dwexpr_eval_bytes's; its stack_value is the loop's
 * error). */
static dwexpr_status one_bytes_reg(dwexpr_ctx *ctx, const uint8_t *bytes, size_t len,
                                   const dwexpr_unit *unit, dwexpr_result *out)
{
    if (len >= 3 && bytes[1] == DWX_CODE_piece)
        return one_bytes_pieces(ctx, bytes, len, unit, out);
    return fast_loop(ctx, bytes, len, out, unit, FALL_BYTES);
}

/* fast_loop from the bytes (every other first byte; a register's
 * stack_value is the loop's error). */
static dwexpr_status loop_bytes(dwexpr_ctx *ctx, const uint8_t *bytes, size_t len,
                                const dwexpr_unit *unit, dwexpr_result *out)
{
    return fast_loop(ctx, bytes, len, out, unit, FALL_BYTES);
}
#define one_bytes_ONE_REG one_bytes_reg
#define one_bytes_ONE_OTHER loop_bytes

/* By the first byte: one indexed jump (GNU C's ranges; elsewhere by
 * one_kind). */
typedef dwexpr_status (*one_bytes_fn)(dwexpr_ctx *, const uint8_t *, size_t,
                                      const dwexpr_unit *, dwexpr_result *);
#if defined(__GNUC__)
RANGES_BEGIN
static const one_bytes_fn one_bytes_fns[256] = {
    [0 ... 255] = loop_bytes,
#  define ONE_BYTES_ENTRY(l, lo, hi, one) [lo ... hi] = one_bytes_##one,
    FAST_OPS(ONE_BYTES_ENTRY)
#  undef ONE_BYTES_ENTRY
    [DWX_CODE_lit0 ... DWX_CODE_lit31] = one_bytes_lit,
    [DWX_CODE_const1u] = one_bytes_const1, [DWX_CODE_const1s] = one_bytes_const1,
    [DWX_CODE_constu] = one_bytes_const1, [DWX_CODE_consts] = one_bytes_const1,
    [DWX_CODE_piece] = one_bytes_pieces,
};
RANGES_END
#  define ONE_BYTES_FN(op) one_bytes_fns[op]
#else
static const one_bytes_fn one_bytes_fns[ONE_KINDS] = {
    [ONE_OTHER] = loop_bytes, [ONE_CONST] = one_bytes_ONE_CONST, [ONE_ADDR] = one_bytes_ONE_ADDR,
    [ONE_ADDRX] = one_bytes_ONE_ADDRX, [ONE_REG] = one_bytes_ONE_REG, [ONE_BREG] = one_bytes_ONE_BREG,
    [ONE_FBREG] = one_bytes_ONE_FBREG, [ONE_CFA] = one_bytes_ONE_CFA,
    [ONE_ENTRY] = one_bytes_ONE_ENTRY,
};
#  define ONE_BYTES_FN(op) one_bytes_fns[one_kind(op)]
#endif

/* The longest lone producer with DW_OP_stack_value one_bytes_fns takes:
 * DW_OP_addr of 8 bytes or DW_OP_const8u, then stack_value. */
enum { ONE_BYTES_MAX = 10 };

/* See lib/evalint.h. */
dwexpr_status dwx_fast_eval_bytes(dwexpr_ctx *ctx, const uint8_t *bytes, size_t len,
                                  const dwexpr_unit *unit, dwexpr_result *out)
{
    if (len - 1 < ONE_BYTES_MAX) /* a lone producer, with stack_value, is short */
        return ONE_BYTES_FN(bytes[0])(ctx, bytes, len, unit, out);
    return fast_loop(ctx, bytes, len, out, unit, FALL_BYTES);
}

/* See lib/evalint.h. The fallback is called from here, as in
 * dwx_fast_eval_bytes. */
dwexpr_status dwx_fast_prog(dwexpr_ctx *ctx, const dwexpr_program *prog, dwexpr_result *out)
{
    if (prog->tape)
        return dwx_tape_run(ctx, prog, out); /* compiled at decode (lib/tape.c) */
    if (prog->shape != DWX_SHAPE_ONE && prog->shape != DWX_SHAPE_ONE_SV)
        return fast_loop(ctx, prog->bytes, prog->len, out, prog, FALL_PROG);
    return dwx_fast_one(ctx, prog, out); /* the kind: dwx_fast_one_kind, at decode */
}
