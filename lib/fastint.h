/* lib/fastint.h: what the fast path (lib/fast.c) and the compiled
 * straight-line programs (lib/tape.c) share: the 16-byte stack entries
 * and composite parts they keep instead of dwx_entry, the operand readers,
 * the target questions asked as the dispatch loop asks them (same
 * callbacks, same arguments), and the hand-out of a result exactly as the
 * loop's put_result makes it. Everything here is static inline. */
#ifndef DWX_FASTINT_H
#define DWX_FASTINT_H
#include "evalops.h"

/* FK_TVAL: a value of a base type, made by DW_OP_convert /
 * DW_OP_reinterpret; v indexes the evaluation's typed values. FK_IPTR:
 * implicit pointer storage (DW_OP_implicit_pointer) of nbits bits; v
 * indexes the evaluation's implicit pointers. */
enum { FK_VAL, FK_MEM, FK_REG, FK_IMP, FK_COMP, FK_UNDEF, FK_TVAL, FK_IPTR };

typedef struct fent {
    uint64_t v;     /* value bits (masked), byte offset, register number,
                       typed value index */
    uint8_t k;      /* FK_* */
    uint32_t nbits; /* FK_IMP: bits of the implicit storage */
} fent;

enum { FAST_TYPED = 4, FAST_IPTRS = 4 }; /* typed values, implicit pointers per evaluation */

/* What DW_OP_implicit_pointer names: a DIE and a byte offset. */
typedef struct fiptr {
    uint64_t die;
    int64_t disp;
} fiptr;

enum { FAST_STACK = 16, FAST_PARTS = 16 };

typedef struct fpart {
    uint64_t bits; /* part size in bits */
    fent e;        /* its place: FK_MEM, FK_REG, FK_IMP or FK_UNDEF */
} fpart;

/* A place of the target's (CFA, frame base, breg) that this path models:
 * a memory location in the default space at a byte offset, created for no
 * thread, lane or frame (what sld_memory makes). */
static inline bool plain_memory(const dwexpr_sld *s)
{
    return s->kind == DWEXPR_LOC_MEMORY && s->aspace == 0 && s->bit == 0 && s->ctx == 0 &&
           s->thread == 0 && s->lane == 0 && s->frame == 0 && s->u.ptr.die == 0 &&
           s->u.ptr.disp == 0 && s->u.ptr.bits == 0;
}

/* A value of the generic type as the fast path keeps it (masked bits, no
 * vector, not an implicit pointer). */
static inline bool plain_generic(const dwexpr_value *v, unsigned asz, uint64_t m)
{
    return v->type.encoding == DWEXPR_ATE_GENERIC && v->type.bits == 8u * asz &&
           v->type.lanes == 1 && v->type.die == 0 && v->type.endian == 0 && !v->wide &&
           !v->is_implicit_pointer && !v->ipv_aspace && !v->ipv_die && !v->ipv_disp &&
           !(v->bits & ~m);
}

/* The entry as a generic value (dwx_to_value): a value, or a memory
 * location's address; false for anything else. */
static inline bool as_value(const fent *e, uint64_t m, uint64_t *v)
{
    if (e->k == FK_VAL) {
        *v = e->v;
        return true;
    }
    if (e->k == FK_MEM) {
        *v = e->v & m;
        return true;
    }
    return false;
}

/* The entry as dwx_to_value makes it for an operation on values: a
 * typed value (TYPED[v]), or a value or memory address as the generic
 * value (as_value); false for anything else. */
static inline bool typed_operand(const fent *e, const dwexpr_value *typed,
                                 const dwexpr_unit *unit, uint64_t m, dwexpr_value *v)
{
    uint64_t w;
    if (e->k == FK_TVAL) {
        *v = typed[e->v];
        return true;
    }
    if (!as_value(e, m, &w))
        return false;
    *v = generic_value(unit, w);
    return true;
}

/* The place an entry stands for, as the general path builds it. IMP
 * entries get their 8 bytes here (what dwx_stack_value allocates); IPTR
 * entries name IPTRS[v] (dwx_op_implicit_pointer: the default space). */
static inline bool place_of(dwexpr_ctx *ctx, const fent *e, const fiptr *iptrs,
                            dwexpr_sld *s)
{
    switch (e->k) {
    case FK_MEM: *s = sld_memory(0, e->v); return true;
    case FK_REG: sld_register(s, (uint32_t)e->v, ctx->p); return true;
    case FK_UNDEF: *s = sld_undefined(); return true;
    case FK_IMP: {
        uint8_t *bytes = dwx_alloc(ctx, 8);
        if (!bytes)
            return false;
        memcpy(bytes, &e->v, 8); /* little-endian host (DWX_HOST_LITTLE) */
        *s = sld_implicit(bytes, e->nbits);
        return true;
    }
    case FK_IPTR:
        dwx_sld_clear(s);
        s->kind = DWEXPR_LOC_IMPLICIT_POINTER;
        s->u.ptr.die = iptrs[e->v].die;
        s->u.ptr.disp = iptrs[e->v].disp;
        s->u.ptr.bits = e->nbits;
        return true;
    default: return false;
    }
}

/* Read N (1..ASZ) bytes of memory at A through the target (dwx_deref of a
 * plain memory location: fits() in the default space, then one read). */
static inline bool read_memory(dwexpr_ctx *ctx, uint64_t a, unsigned n, uint64_t m, uint64_t *v)
{
    if (a > m || (uint64_t)(n - 1) > m - a || !ctx->t->mem_read)
        return false;
    dwexpr_memref r;
    r.aspace = 0;
    r.ctx = 0;
    r.thread = 0;
    r.lane = 0;
    r.address = a;
    uint8_t buf[8] = {0};
    if (ctx->t->mem_read(ctx->user, &r, buf, n) != DWEXPR_OK)
        return false;
    uint64_t w;
    memcpy(&w, buf, 8);
    *v = w & (n >= 8 ? ~(uint64_t)0 : (((uint64_t)1 << (8 * n)) - 1)) & m;
    return true;
}

/* DW_OP_breg* / DW_OP_bregx in the top frame and default space: dwx_breg's
 * common case (the register holds at least an address, read through
 * reg_read as the loop reads it: same callbacks, same arguments); false
 * sends the evaluation to the loop, which handles every other case. */
static inline bool breg(dwexpr_ctx *ctx, const dwexpr_eval_params *p, uint64_t regno, int64_t off,
                        unsigned asz, uint64_t m, uint64_t *addr)
{
    const dwexpr_target *t = ctx->t;
    if (regno > UINT32_MAX || !t->reg_read)
        return false;
    if (t->reg_size) {
        uint32_t rb = 0;
        if (dwx_reg_size(ctx, p, (uint32_t)regno, &rb) != DWEXPR_OK || rb < asz)
            return false;
    }
    dwexpr_regref r;
    r.thread = p->thread;
    r.frame = 0;
    r.regno = (uint32_t)regno;
    r.ctx = (uint16_t)(p->ctx & (DWEXPR_CTX_THREAD | DWEXPR_CTX_FRAME));
    uint64_t v = 0; /* little-endian host (DWX_HOST_LITTLE: dwx_fast_candidate) */
    if (t->reg_read(ctx->user, &r, 0, &v, asz) != DWEXPR_OK)
        return false;
    *addr = (v + (uint64_t)off) & m;
    return true;
}

/* DW_OP_fbreg OFF in the top frame: dwx_fbreg_loc's common case (the
 * target's frame base is a plain memory location, not an expression),
 * asked with the same callback and arguments; the offset moves the
 * address as dwx_sld_add_offset does and must leave it inside the default
 * address space (seed "Memory Location Description Operations"); false
 * sends the evaluation to the loop, which handles every other case. */
static DWX_ALWAYS_INLINE bool fbreg(dwexpr_ctx *ctx, int64_t off, uint64_t m, uint64_t *addr)
{
    const dwexpr_target *t = ctx->t;
    if (!t->frame_base)
        return false;
    dwexpr_frameref f = dwx_frameref(ctx, NULL, 0);
    dwexpr_frame_base fb;
    /* zeroed field by field (a memset of it is a string instruction) */
    fb.expr = NULL;
    fb.expr_len = 0;
    memset(&fb.unit, 0, sizeof fb.unit);
    dwx_sld_clear(&fb.loc);
    if (t->frame_base(ctx->user, &f, &fb) != DWEXPR_OK || fb.expr || !plain_memory(&fb.loc) ||
        fb.loc.byte_offset > m)
        return false;
    /* an offset the address size does not hold as a signed number: the
     * loop reads it as DW_OP_constu would push it (dwx_constu_disp) */
    if (m != UINT64_MAX && (off < -(int64_t)(m >> 1) - 1 || off > (int64_t)(m >> 1)))
        return false;
    const uint64_t b = fb.loc.byte_offset;
    uint64_t n;
    if (off >= 0) {
        if (b > UINT64_MAX - (uint64_t)off)
            return false;
        n = b + (uint64_t)off;
    } else {
        const uint64_t back = (uint64_t)(-(off + 1)) + 1; /* |off|, also for INT64_MIN */
        if (back > b)
            return false;
        n = b - back;
    }
    if (n > m)
        return false;
    *addr = n;
    return true;
}

/* The environment the loop evaluates in (eval_program), made on first use. */
static inline const dwx_env *set_env(dwx_env *env, bool *have, const dwexpr_unit *unit,
                                     const dwexpr_eval_params *p)
{
    if (!*have) {
        env->unit = *unit;
        env->frame = 0;
        env->has_pc = p->has_pc;
        env->pc = p->pc;
        env->object = p->object;
        *have = true;
    }
    return env;
}

/* DW_OP_call_frame_cfa in the top frame: dwx_cfa_loc's common case (the
 * same callback, frame and initial place), asked directly; the CFA must
 * be a plain memory location inside the default address space (mask M). False sends the evaluation to the loop,
 * which reports a failure. */
static inline bool cfa(dwexpr_ctx *ctx, uint64_t m, uint64_t *addr)
{
    const dwexpr_target *t = ctx->t;
    if (!t->cfa)
        return false;
    const dwexpr_frameref f = dwx_frameref(ctx, NULL, 0);
    dwexpr_sld s = sld_memory(0, 0);
    if (t->cfa(ctx->user, &f, &s) != DWEXPR_OK || !plain_memory(&s) || s.byte_offset > m)
        return false;
    *addr = s.byte_offset;
    return true;
}

/* DW_OP_entry_value of block B (LEN bytes) in the top frame when the
 * target answers it: dwx_entry_value's first case (the same callback and
 * arguments, a zeroed value, an unset type or lane count read as generic
 * and 1), which must give a plain generic value. A target without the
 * callback evaluates the block in the caller frame: dwx_entry_value does
 * that (ENV). False sends the evaluation to the loop. Inlined into each
 * caller (one_entry, the loop, the tape): the call and its 64-byte value's
 * frame cost an entry-value evaluation 25 instructions. */
static DWX_ALWAYS_INLINE bool entry_value(dwexpr_ctx *ctx, const dwexpr_unit *unit,
                                          const dwexpr_eval_params *p, const dwx_insn *in,
                                          uint64_t m, uint64_t *out)
{
    const unsigned asz = unit->addr_size;
    dwexpr_value v;
    dwx_value_clear(&v); /* defined on failure too: gcc may test it with the status */
    if (ctx->t->entry_value) {
        const dwexpr_frameref f = dwx_frameref(ctx, NULL, 0);
        if (ctx->t->entry_value(ctx->user, &f, in->blk, (size_t)in->blen, &v) != DWEXPR_OK)
            return false;
        if (v.type.bits == 0) {
            v.type.die = 0;
            v.type.bits = 8u * asz;
            v.type.encoding = DWEXPR_ATE_GENERIC;
            v.type.lanes = 1;
            v.type.endian = 0;
        }
        if (v.type.lanes == 0)
            v.type.lanes = 1;
    } else {
        dwx_env env;
        bool have_env = false;
        if (dwx_entry_value(ctx, set_env(&env, &have_env, unit, p), in, &v) != DWEXPR_OK)
            return false;
    }
    if (!plain_generic(&v, asz, m))
        return false;
    *out = v.bits;
    return true;
}

/* DW_OP_addrx / DW_OP_constx: entry I of .debug_addr, dwx_debug_addr's
 * callback with the unit's facts. */
static inline bool debug_addr(dwexpr_ctx *ctx, const dwexpr_unit *unit, uint64_t i, uint64_t *out)
{
    return ctx->t->debug_addr && ctx->t->debug_addr(ctx->user, unit, i, out) == DWEXPR_OK;
}

/* ULEB128 / SLEB128 of one or two bytes only (false for longer ones,
 * which the loop reads): no call, so that lone_producer stays a leaf. */
static inline bool uleb_short(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    const uint8_t *q = *p;
    if (q < end && q[0] < 0x80) {
        *v = q[0];
        *p = q + 1;
        return true;
    }
    if (end - q >= 2 && q[1] < 0x80) {
        *v = (q[0] & 0x7fu) | ((uint64_t)q[1] << 7);
        *p = q + 2;
        return true;
    }
    return false;
}

static inline bool sleb_short(const uint8_t **p, const uint8_t *end, int64_t *v)
{
    const uint8_t *q = *p;
    if (q < end && q[0] < 0x80) {
        *v = (int64_t)((q[0] & 0x40) ? q[0] | ~(uint64_t)0x7f : q[0]);
        *p = q + 1;
        return true;
    }
    if (end - q >= 2 && q[1] < 0x80) {
        const uint64_t b = (q[0] & 0x7fu) | ((uint64_t)q[1] << 7);
        *v = (int64_t)((b & 0x2000) ? b | ~(uint64_t)0x3fff : b);
        *p = q + 2;
        return true;
    }
    return false;
}

/* ULEB128 / SLEB128 at *P (one and two bytes inline, longer ones by
 * lib/leb.c; DWARF 5 7.6). */
static inline bool uleb(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    if (DWX_LIKELY(uleb_short(p, end, v)))
        return true;
    const uint8_t *q = *p; /* so that the caller's position stays in a register */
    const bool ok = dwx_read_uleb(&q, end, v, NULL) == DWEXPR_OK;
    *p = q;
    return ok;
}

static inline bool sleb(const uint8_t **p, const uint8_t *end, int64_t *v)
{
    if (DWX_LIKELY(sleb_short(p, end, v)))
        return true;
    const uint8_t *q = *p;
    const bool ok = dwx_read_sleb(&q, end, v, NULL) == DWEXPR_OK;
    *p = q;
    return ok;
}

/* The operand of DW_OP_const1u .. DW_OP_const8s (OP) at *P: 1, 2, 4 or 8
 * bytes, the odd opcodes signed. */
static inline bool const_fixed(unsigned op, const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    const unsigned w = 1u << ((op - DWX_CODE_const1u) >> 1);
    if (!dwx_fixed_le(p, end, w, v))
        return false;
    if ((op - DWX_CODE_const1u) & 1)
        *v = (uint64_t)dwx_sext(*v, 8 * w);
    return true;
}

/* DW_OP_entry_value / DW_OP_GNU_entry_value (OP) whose block at *P is one
 * DW_OP_reg0..31 byte (the decoder leaves such a block undecoded: nothing
 * to check): its block fields in *IN as the decoder fills them, *P moved
 * past it; false for any other block. */
static inline bool entry_of_reg(unsigned op, const uint8_t **p, const uint8_t *end, dwx_insn *in)
{
    const uint8_t *pc = *p;
    if (end - pc < 2 || pc[0] != 1 || pc[1] < DWX_CODE_reg0 || pc[1] > DWX_CODE_reg31)
        return false;
    in->x = DWEXPR_OP_entry_value;
    in->id = op == DWX_CODE_entry_value ? DWEXPR_OP_entry_value : DWEXPR_OP_GNU_entry_value;
    in->a = 1;
    in->blk = pc + 1;
    in->blen = 1;
    in->sub = NULL;
    *p = pc + 2;
    return true;
}

/* The binary operations by opcode byte (0: not one); from the table. */
static inline unsigned binary_op(unsigned code)
{
    switch (code) {
    case DWX_CODE_and: return DWEXPR_OP_and;
    case DWX_CODE_div: return DWEXPR_OP_div;
    case DWX_CODE_minus: return DWEXPR_OP_minus;
    case DWX_CODE_mod: return DWEXPR_OP_mod;
    case DWX_CODE_mul: return DWEXPR_OP_mul;
    case DWX_CODE_or: return DWEXPR_OP_or;
    case DWX_CODE_plus: return DWEXPR_OP_plus;
    case DWX_CODE_shl: return DWEXPR_OP_shl;
    case DWX_CODE_shr: return DWEXPR_OP_shr;
    case DWX_CODE_shra: return DWEXPR_OP_shra;
    case DWX_CODE_xor: return DWEXPR_OP_xor;
    case DWX_CODE_eq: return DWEXPR_OP_eq;
    case DWX_CODE_ge: return DWEXPR_OP_ge;
    case DWX_CODE_gt: return DWEXPR_OP_gt;
    case DWX_CODE_le: return DWEXPR_OP_le;
    case DWX_CODE_lt: return DWEXPR_OP_lt;
    case DWX_CODE_ne: return DWEXPR_OP_ne;
    default: return 0;
    }
}

/* Hand out the place in SLOT (the context's result place) as a location
 * result, as put_result does (the value half not written: dwexpr_result
 * leaves it unspecified), and leave the context as a success does. */
static inline bool hand_out_place(dwexpr_ctx *ctx, const dwexpr_sld *slot, dwexpr_result *out)
{
    out->kind = DWEXPR_RESULT_LOCATION;
    out->loc.count = 1;
    out->loc.slds = slot;
    ctx->err.status = DWEXPR_OK;
    ctx->sp = 0;
    return true;
}

/* Hand out entry E (not a composite) as the result, as put_result does:
 * a value, or a location whose single place lives in the context. */
static DWX_ALWAYS_INLINE bool hand_out(dwexpr_ctx *ctx, const fent *e,
                                       const dwexpr_value *typed, const fiptr *iptrs,
                                       const dwexpr_unit *unit, dwexpr_result *out)
{
    if (e->k == FK_TVAL) {
        out->kind = DWEXPR_RESULT_VALUE;
        out->value = typed[e->v];
        out->loc.count = 0;
        out->loc.slds = NULL;
    } else if (e->k == FK_VAL) {
        out->kind = DWEXPR_RESULT_VALUE;
        out->value = generic_value(unit, e->v);
        out->loc.count = 0;
        out->loc.slds = NULL;
    } else if (e->k == FK_IMP && !ctx->result_slot) {
        /* the value's bytes next to result_one (dwx_stack_value puts them
         * in scratch: the same bytes, kept as long) */
        memcpy(&ctx->result_bytes, &e->v, 8); /* little-endian host (DWX_HOST_LITTLE) */
        ctx->result_one = sld_implicit((const uint8_t *)&ctx->result_bytes, e->nbits);
        return hand_out_place(ctx, &ctx->result_one, out);
    } else {
        dwexpr_sld *slot = ctx->result_slot ? ctx->result_slot : &ctx->result_one;
        return place_of(ctx, e, iptrs, slot) && hand_out_place(ctx, slot, out);
    }
    ctx->err.status = DWEXPR_OK;
    ctx->sp = 0;
    return true;
}

/* dwx_sld_check_range (fits() in lib/loc.c) of the place an entry stands
 * for, from offset 0, holding NB bits (seed "Composite Location
 * Description Operations": a part must lie inside its storage); false also
 * where fits() would report a failure. */
static inline bool part_fits(dwexpr_ctx *ctx, const fent *e, uint64_t nb, unsigned asz, uint64_t m)
{
    switch (e->k) {
    case FK_MEM: /* the plain default space (dwx_default_space_plain): ASZ-byte addresses */
        return nb == 0 ? e->v <= m : e->v <= m && (nb - 1) / 8 <= m - e->v;
    case FK_REG: {
        if (!ctx->t->reg_size)
            return true; /* a size the target cannot tell */
        uint32_t rb = 0;
        return dwx_reg_size(ctx, ctx->p, (uint32_t)e->v, &rb) == DWEXPR_OK &&
               nb <= 8 * (uint64_t)rb;
    }
    case FK_IMP:
    case FK_IPTR: /* fits(): the storage's bits */
        return nb <= e->nbits;
    default:
        return false;
    }
}

/* Build the composite of PARTS (what dwx_piece / add_part make: capacity
 * 4 doubling, depth 1, complete because it is the result) in one piece of
 * scratch; its place goes to *S. Always inline: gcc once called it out
 * of line, 10 instructions more per cold evaluation. */
static DWX_ALWAYS_INLINE bool build_composite(dwexpr_ctx *ctx, const fpart *parts, uint32_t n,
                                               const fiptr *iptrs, dwexpr_sld *s)
{
    uint32_t cap = 4;
    while (cap < n)
        cap *= 2;
    const size_t head = (sizeof(dwexpr_composite) + 15) & ~(size_t)15;
    const size_t psize = (sizeof(dwexpr_part) * cap + 15) & ~(size_t)15;
    uint8_t *mem = dwx_alloc(ctx, head + psize + sizeof(dwexpr_sld) * n);
    if (!mem)
        return false;
    dwexpr_composite *c = (dwexpr_composite *)mem;
    dwexpr_part *pp = (dwexpr_part *)(mem + head);
    dwexpr_sld *slds = (dwexpr_sld *)(mem + head + psize);
    uint64_t bits = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!place_of(ctx, &parts[i].e, iptrs, &slds[i]))
            return false;
        pp[i].bit_size = parts[i].bits;
        pp[i].loc.count = 1;
        pp[i].loc.slds = &slds[i];
        bits += parts[i].bits;
    }
    memset(c, 0, sizeof *c);
    c->count = n;
    c->cap = cap;
    c->complete = true;
    c->depth = 1;
    c->bits = bits;
    c->parts = pp;
    dwx_sld_clear(s);
    s->kind = DWEXPR_LOC_COMPOSITE;
    s->u.comp = c;
    return true;
}


/* The producers fast_one answers, by kind: a dense code decided at decode
 * time (dwx_fast_one_kind, kept in prog->one), so that a pre-decoded
 * program reaches its own copy of fast_one (dwx_one_fns) by one indexed jump
 * and that copy saves only the registers its kind needs. ONE_OTHER: a
 * producer fast_one does not take (the general path answers). */
enum one_kind {
    ONE_OTHER, ONE_CONST, ONE_ADDR, ONE_ADDRX, ONE_REG, ONE_BREG, ONE_FBREG,
    ONE_CFA, ONE_ENTRY, ONE_KINDS
};

/* The operations the fast loop knows, by label in fast_loop: the label,
 * the first and the last opcode byte it takes (the codes from the
 * DWEXPR_OPS table; the commonest binary operations have labels of their
 * own, the others go to op_other), and the kind of
 * producer fast_one answers for it alone (enum one_kind above; ONE_OTHER:
 * not one). */
#define FAST_OPS(X)                                                                              \
    X(lit, DWX_CODE_lit0, DWX_CODE_lit31, ONE_CONST)                                             \
    X(reg, DWX_CODE_reg0, DWX_CODE_reg31, ONE_REG)                                               \
    X(breg, DWX_CODE_breg0, DWX_CODE_breg31, ONE_BREG)                                           \
    X(const, DWX_CODE_const1u, DWX_CODE_const8s, ONE_CONST)                                      \
    X(constu, DWX_CODE_constu, DWX_CODE_constu, ONE_CONST)                                       \
    X(consts, DWX_CODE_consts, DWX_CODE_consts, ONE_CONST)                                       \
    X(addr, DWX_CODE_addr, DWX_CODE_addr, ONE_ADDR)                                              \
    X(debug_addr, DWX_CODE_addrx, DWX_CODE_addrx, ONE_ADDRX)                                     \
    X(debug_addr, DWX_CODE_constx, DWX_CODE_constx, ONE_OTHER)                                   \
    X(debug_addr, DWX_CODE_GNU_addr_index, DWX_CODE_GNU_addr_index, ONE_ADDRX)                   \
    X(debug_addr, DWX_CODE_GNU_const_index, DWX_CODE_GNU_const_index, ONE_OTHER)                 \
    X(regx, DWX_CODE_regx, DWX_CODE_regx, ONE_REG)                                               \
    X(bregx, DWX_CODE_bregx, DWX_CODE_bregx, ONE_BREG)                                           \
    X(fbreg, DWX_CODE_fbreg, DWX_CODE_fbreg, ONE_FBREG)                                          \
    X(cfa, DWX_CODE_call_frame_cfa, DWX_CODE_call_frame_cfa, ONE_CFA)                            \
    X(entry_value, DWX_CODE_entry_value, DWX_CODE_entry_value, ONE_ENTRY)                        \
    X(entry_value, DWX_CODE_GNU_entry_value, DWX_CODE_GNU_entry_value, ONE_ENTRY)                \
    X(stack_value, DWX_CODE_stack_value, DWX_CODE_stack_value, ONE_OTHER)                        \
    X(convert, DWX_CODE_convert, DWX_CODE_convert, ONE_OTHER)                                    \
    X(convert, DWX_CODE_GNU_convert, DWX_CODE_GNU_convert, ONE_OTHER)                            \
    X(convert, DWX_CODE_reinterpret, DWX_CODE_reinterpret, ONE_OTHER)                            \
    X(convert, DWX_CODE_GNU_reinterpret, DWX_CODE_GNU_reinterpret, ONE_OTHER)                    \
    X(piece, DWX_CODE_piece, DWX_CODE_piece, ONE_OTHER)                                          \
    X(plus_uconst, DWX_CODE_plus_uconst, DWX_CODE_plus_uconst, ONE_OTHER)                        \
    X(unary, DWX_CODE_neg, DWX_CODE_neg, ONE_OTHER)                                              \
    X(unary, DWX_CODE_not, DWX_CODE_not, ONE_OTHER)                                              \
    X(unary, DWX_CODE_abs, DWX_CODE_abs, ONE_OTHER)                                              \
    X(copy, DWX_CODE_dup, DWX_CODE_dup, ONE_OTHER)                                               \
    X(copy, DWX_CODE_over, DWX_CODE_over, ONE_OTHER)                                             \
    X(copy, DWX_CODE_pick, DWX_CODE_pick, ONE_OTHER)                                             \
    X(drop, DWX_CODE_drop, DWX_CODE_drop, ONE_OTHER)                                             \
    X(swap, DWX_CODE_swap, DWX_CODE_swap, ONE_OTHER)                                             \
    X(rot, DWX_CODE_rot, DWX_CODE_rot, ONE_OTHER)                                                \
    X(deref, DWX_CODE_deref, DWX_CODE_deref, ONE_OTHER)                                          \
    X(deref, DWX_CODE_deref_size, DWX_CODE_deref_size, ONE_OTHER)                                \
    X(nop, DWX_CODE_nop, DWX_CODE_nop, ONE_OTHER)                                                \
    X(nop, DWX_CODE_GNU_uninit, DWX_CODE_GNU_uninit, ONE_OTHER)                                  \
    X(implicit_value, DWX_CODE_implicit_value, DWX_CODE_implicit_value, ONE_OTHER)               \
    X(branch, DWX_CODE_skip, DWX_CODE_skip, ONE_OTHER)                                           \
    X(branch, DWX_CODE_bra, DWX_CODE_bra, ONE_OTHER)                                             \
    X(implicit_pointer, DWX_CODE_implicit_pointer, DWX_CODE_implicit_pointer, ONE_OTHER)         \
    X(implicit_pointer, DWX_CODE_GNU_implicit_pointer, DWX_CODE_GNU_implicit_pointer, ONE_OTHER) \
    X(bin_and, DWX_CODE_and, DWX_CODE_and, ONE_OTHER)                                            \
    X(bin_plus, DWX_CODE_plus, DWX_CODE_plus, ONE_OTHER)                                         \
    X(bin_minus, DWX_CODE_minus, DWX_CODE_minus, ONE_OTHER)                                      \
    X(bin_mul, DWX_CODE_mul, DWX_CODE_mul, ONE_OTHER)                                            \
    X(bin_or, DWX_CODE_or, DWX_CODE_or, ONE_OTHER)                                               \
    X(bin_shl, DWX_CODE_shl, DWX_CODE_shl, ONE_OTHER)                                            \
    X(bin_shr, DWX_CODE_shr, DWX_CODE_shr, ONE_OTHER)                                            \
    X(bin_shra, DWX_CODE_shra, DWX_CODE_shra, ONE_OTHER)                                         \
    X(bin_div, DWX_CODE_div, DWX_CODE_div, ONE_OTHER)

#endif
