/* lib/ops_loc.c: operations that build location descriptions: offsets,
 * memory, implicit and composite locations (seed "Location Description
 * Operations" and its subsections). */
#include "evalops.h"

static bool unsigned_encoding(unsigned enc)
{
    return enc == DW_ATE_unsigned || enc == DW_ATE_unsigned_char || enc == DW_ATE_boolean ||
           enc == DW_ATE_address || enc == DW_ATE_UTF;
}

/* lib/evalops.h. A value wider than 64 bits keeps its little-endian
 * bytes in wide (the bits above its size zero) and its low 64 bits in
 * bits. */
bool dwx_displacement(const dwexpr_value *v, int64_t *out)
{
    const uint32_t n = v->type.bits;
    const bool sgn = !unsigned_encoding(v->type.encoding);
    if (n == 0) {
        *out = 0;
        return true;
    }
    if (!v->wide) {
        const uint64_t x = v->bits & dwx_mask(n);
        if (sgn) {
            *out = dwx_sext(x, n);
            return true;
        }
        *out = (int64_t)x;
        return x <= (uint64_t)INT64_MAX;
    }
    /* wider: the bytes above the low 8 must extend its 64th bit */
    const uint64_t nbytes = ((uint64_t)n + 7) / 8;
    const bool neg = sgn && ((v->wide[(n - 1) / 8] >> ((n - 1) % 8)) & 1);
    uint64_t lo = 0;
    for (unsigned i = 0; i < 8; i++)
        lo |= (uint64_t)v->wide[i] << (8 * i);
    for (uint64_t i = 8; i < nbytes; i++) {
        const unsigned valid = (i == nbytes - 1 && n % 8) ? (1u << (n % 8)) - 1 : 0xffu;
        if ((v->wide[i] ^ (neg ? 0xffu : 0u)) & valid)
            return false;
    }
    if ((lo >> 63) != (neg ? 1u : 0u))
        return false;
    *out = (int64_t)lo;
    return true;
}

bool dwx_value_u64(const dwexpr_value *v, uint64_t *out)
{
    *out = v->bits;
    if (!v->wide)
        return true;
    const uint64_t nbytes = (dwx_value_bits(v) + 7) / 8;
    uint64_t lo = 0;
    for (unsigned i = 0; i < 8; i++)
        lo |= (uint64_t)v->wide[i] << (8 * i);
    for (uint64_t i = 8; i < nbytes; i++)
        if (v->wide[i])
            return false;
    *out = lo;
    return true;
}

/* An address space identifier AS (seed "Memory Location Description
 * Operations": "an integral type value"): one that needs more than 64
 * bits is none of the target's DW_ASPACE_* values (ill-formed). */
static dwexpr_status aspace_id(dwexpr_ctx *ctx, const dwexpr_value *v, uint64_t *as)
{
    dwexpr_status st = dwx_need_integral(ctx, v, "the address space");
    if (st)
        return st;
    if (!dwx_value_u64(v, as))
        return dwx_ctx_fail(ctx, DWEXPR_E_BAD_ASPACE,
                            "a %u-bit address space identifier beyond 64 bits is not defined by "
                            "the target architecture",
                            (unsigned)v->type.bits);
    return DWEXPR_OK;
}

/* A new composite with room for CAP parts. */
static dwexpr_composite *new_composite(dwexpr_ctx *ctx, uint32_t cap)
{
    /* the composite and its first CAP parts in one piece of scratch */
    if (!cap)
        cap = 1;
    size_t head = (sizeof(dwexpr_composite) + 15) & ~(size_t)15;
    uint8_t *m = dwx_alloc(ctx, head + sizeof(dwexpr_part) * cap);
    if (!m)
        return NULL;
    dwexpr_composite *c = (dwexpr_composite *)m;
    memset(c, 0, sizeof *c);
    c->parts = (dwexpr_part *)(m + head);
    c->cap = cap;
    c->depth = 1;
    return c;
}

/* Append a part of NBITS bits located at PL (arena-owned places). */
static dwexpr_status add_part(dwexpr_ctx *ctx, dwexpr_composite *c, uint64_t nbits,
                              dwexpr_sld *pl, uint32_t n)
{
    if (c->count >= ctx->lim.parts)
        return dwx_ctx_fail(ctx, DWEXPR_E_TOO_BIG, "composite part limit (%u) reached",
                            (unsigned)ctx->lim.parts);
    if (nbits > UINT64_MAX - c->bits)
        return dwx_ctx_fail(ctx, DWEXPR_E_TOO_BIG, "composite storage is too large");
    /* seed "Composite Location Description Operations": ill-formed when
     * larger than the largest address space (taken as the default one). */
    if (ctx->addr_size && ctx->addr_size < 8) {
        uint64_t max_bits = ((uint64_t)1 << (8 * ctx->addr_size)) * 8;
        if (c->bits + nbits > max_bits)
            return dwx_ctx_fail(ctx, DWEXPR_E_ILL_FORMED,
                                "composite storage of %llu bits is larger than the %u-bit "
                                "address space",
                                (unsigned long long)(c->bits + nbits),
                                (unsigned)(8 * ctx->addr_size));
    }
    uint32_t d = (n == 1 && pl->kind != DWEXPR_LOC_COMPOSITE ? 0 : dwx_loc_depth(pl, n)) + 1;
    if (d > 64)
        return dwx_ctx_fail(ctx, DWEXPR_E_TOO_BIG, "composites nested more than 64 deep");
    if (c->count == c->cap) {
        uint32_t ncap = c->cap * 2;
        dwexpr_part *np = dwx_alloc(ctx, sizeof(dwexpr_part) * ncap);
        if (!np)
            return dwx_ctx_fail(ctx, DWEXPR_E_NOSPACE, "out of scratch memory");
        memcpy(np, c->parts, sizeof(dwexpr_part) * c->count);
        c->parts = np;
        c->cap = ncap;
    }
    c->parts[c->count].bit_size = nbits;
    c->parts[c->count].loc.count = n;
    c->parts[c->count].loc.slds = pl;
    c->count++;
    c->bits += nbits;
    if (d > c->depth)
        c->depth = d;
    return DWEXPR_OK;
}

/* Every place of a part must hold NBITS bits (seed "Composite Location
 * Description Operations": otherwise the expression is ill-formed). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static dwexpr_status part_range_fail(dwexpr_ctx *ctx, uint64_t nbits)
{
    char msg[sizeof ctx->err.message];
    memcpy(msg, ctx->err.message, sizeof msg);
    return dwx_ctx_fail(ctx, DWEXPR_E_PIECE_RANGE, "part of %llu bits: %s",
                        (unsigned long long)nbits, msg);
}

static dwexpr_status check_part(dwexpr_ctx *ctx, const dwexpr_sld *pl, uint32_t n, uint64_t nbits)
{
    for (uint32_t i = 0; i < n; i++) {
        dwexpr_status st = dwx_sld_check_range(ctx, &pl[i], nbits);
        if (st == DWEXPR_E_OUT_OF_RANGE)
            return part_range_fail(ctx, nbits);
        if (st)
            return st;
    }
    return DWEXPR_OK;
}

/* DW_OP_piece / DW_OP_bit_piece (seed "Composite Location Description
 * Operations"), all four cases. */
dwexpr_status dwx_piece(dwexpr_ctx *ctx, const dwx_env *env, uint32_t base, uint64_t nbits,
                           bool has_off, uint64_t bit_off)
{
    dwexpr_status st;
    /* Cases 1 and 2: empty stack, or an incomplete composite on top: add
     * an undefined part. */
    if (ctx->sp == base || is_incomplete(&ctx->stack[ctx->sp - 1])) {
        dwexpr_sld *u = dwx_alloc(ctx, sizeof *u);
        if (!u)
            return dwx_ctx_fail(ctx, DWEXPR_E_NOSPACE, "out of scratch memory");
        *u = sld_undefined();
        dwexpr_composite *c;
        if (ctx->sp == base) {
            if (!(c = new_composite(ctx, 4)))
                return dwx_ctx_fail(ctx, DWEXPR_E_NOSPACE, "out of scratch memory");
            if ((st = add_part(ctx, c, nbits, u, 1)))
                return st;
            dwexpr_sld s = sld_composite(c);
            return push_sld(ctx, &s);
        }
        c = (dwexpr_composite *)ctx->stack[ctx->sp - 1].u.one.u.comp;
        return add_part(ctx, c, nbits, u, 1);
    }
    /* Case 3: the top is (or converts to) a location: it becomes the part
     * (a location on top, complete here, is used where it is). */
    dwx_entry conv;
    const dwx_entry *pl = &ctx->stack[ctx->sp - 1];
    if (!pl->is_loc) {
        if ((st = dwx_to_loc(ctx, env, pl, &conv)))
            return st;
        pl = &conv;
    }
    ctx->sp--; /* PL still reads the popped entry */
    dwexpr_sld *slds = dwx_own_slds(ctx, pl);
    if (!slds)
        return dwx_ctx_fail(ctx, DWEXPR_E_NOSPACE, "out of scratch memory");
    const uint32_t n = pl->n;
    if (has_off && bit_off) {
        /* seed "DW_OP_bit_piece": as if DW_OP_constu B; DW_OP_LLVM_bit_offset
         * (B's low generic-type bits, read as signed, dwx_constu_disp); an
         * undefined part location is left unchanged, whatever B is (seed
         * "Undefined Location Description Operations") */
        const int64_t b = dwx_constu_disp(&env->unit, bit_off);
        for (uint32_t i = 0; i < n; i++)
            if ((st = dwx_sld_add_offset(ctx, &slds[i], 0, b)))
                return st;
    }
    if ((st = check_part(ctx, slds, n, nbits)))
        return st;
    if (ctx->sp > base && is_incomplete(&ctx->stack[ctx->sp - 1])) {
        dwexpr_composite *c = (dwexpr_composite *)ctx->stack[ctx->sp - 1].u.one.u.comp;
        return add_part(ctx, c, nbits, slds, n);
    }
    dwexpr_composite *c = new_composite(ctx, 4);
    if (!c)
        return dwx_ctx_fail(ctx, DWEXPR_E_NOSPACE, "out of scratch memory");
    if ((st = add_part(ctx, c, nbits, slds, n)))
        return st;
    dwexpr_sld s = sld_composite(c);
    return push_sld(ctx, &s);
}

/* Apply a byte/bit displacement to every place of the location on top
 * (seed "DW_OP_LLVM_offset", "DW_OP_LLVM_bit_offset"). HUGE: the
 * displacement does not fit in 64 bits, which takes every place outside
 * its storage, but an undefined one (seed "Undefined Location Description
 * Operations": "The DW_OP_LLVM_*offset operations leave an undefined
 * location description unchanged"). */
static dwexpr_status offset_top(dwexpr_ctx *ctx, const dwx_env *env, int64_t bytes, int64_t bits,
                                bool huge)
{
    dwx_entry l;
    dwexpr_status st = dwx_to_loc(ctx, env, &ctx->stack[ctx->sp - 1], &l);
    if (st)
        return st;
    dwexpr_sld *slds = dwx_own_slds(ctx, &l);
    if (!slds)
        return dwx_ctx_fail(ctx, DWEXPR_E_NOSPACE, "out of scratch memory");
    for (uint32_t i = 0; i < l.n; i++) {
        if (huge && slds[i].kind != DWEXPR_LOC_UNDEFINED)
            return dwx_ctx_fail(ctx, DWEXPR_E_BAD_OFFSET,
                                "a displacement outside the signed 64-bit range is outside any "
                                "storage");
        if ((st = dwx_sld_add_offset(ctx, &slds[i], bytes, bits)))
            return st;
    }
    set_entry_slds(&ctx->stack[ctx->sp - 1], slds, l.n);
    return DWEXPR_OK;
}

/* DW_OP_LLVM_offset / bit_offset / offset_uconst (seed "General Location
 * Description Operations"). */
dwexpr_status dwx_op_offset(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in,
                               uint32_t base)
{
    dwexpr_status st;
    if (in->x == DWEXPR_OP_LLVM_offset_uconst) {
        /* seed item 2: exactly DW_OP_constu B; DW_OP_LLVM_offset */
        if ((st = need(ctx, base, 1)))
            return st;
        return offset_top(ctx, env, dwx_constu_disp(&env->unit, in->a), 0, false);
    }
    if ((st = need(ctx, base, 2)))
        return st;
    dwexpr_value b;
    if ((st = dwx_to_value(ctx, env, TOP(0), &b)) ||
        (st = dwx_need_integral(ctx, &b, "the displacement")))
        return st;
    int64_t d = 0;
    const bool huge = !dwx_displacement(&b, &d);
    ctx->sp--;
    st = in->x == DWEXPR_OP_LLVM_offset ? offset_top(ctx, env, d, 0, huge)
                                        : offset_top(ctx, env, 0, d, huge);
    if (st)
        ctx->sp++;
    return st;
}

/* A memory location handed to the evaluation (a target's TLS, CFA or
 * frame base answer, the object's location) must lie in its storage: seed
 * "Memory Location Description Operations": "The size of each memory
 * location storage corresponds to the range of the addresses in the
 * corresponding address space". An address past the end denotes no
 * memory; it is the target's error (E_TARGET), not reduced here: how a
 * run-time environment forms such addresses is its own (the seed leaves
 * the thread-local storage address to it), the evaluator does not guess.
 * (DW_OP_addr and the DW_OP_breg* results are reduced because the seed
 * says so: an address-sized operand, "the least significant S bits".) */
static dwexpr_status given_memory(dwexpr_ctx *ctx, const dwexpr_sld *s, const char *what)
{
    if (s->kind != DWEXPR_LOC_MEMORY)
        return DWEXPR_OK;
    dwexpr_status st = dwx_sld_check_range(ctx, s, 0);
    if (st == DWEXPR_E_OUT_OF_RANGE)
        return dwx_ctx_fail(ctx, DWEXPR_E_TARGET,
                            "%s is at address 0x%llx, outside address space %u",
                            what, (unsigned long long)s->byte_offset, (unsigned)s->aspace);
    return st;
}

/* DW_OP_push_object_address: the object's location from the context. */
dwexpr_status dwx_op_push_object(dwexpr_ctx *ctx, const dwx_env *env)
{
    if (!env->object || env->object->count == 0)
        return dwx_ctx_fail(ctx, DWEXPR_E_NO_CONTEXT, "no object location is given");
    for (uint32_t i = 0; i < env->object->count; i++) {
        dwexpr_status st = given_memory(ctx, &env->object->slds[i], "the object");
        if (st)
            return st;
    }
    dwx_entry e;
    e.is_loc = 1;
    e.n = env->object->count;
    e.many = (dwexpr_sld *)(uintptr_t)env->object->slds;
    if (e.n == 1)
        e.u.one = env->object->slds[0];
    return push(ctx, &e);
}

/* DW_OP_LLVM_form_aspace_address (seed "Memory Location Description
 * Operations"); an implicit pointer value of the same space gives its
 * object's location. */
dwexpr_status dwx_form_aspace(dwexpr_ctx *ctx, const dwx_env *env, const dwx_entry *ea,
                              const dwx_entry *eas, dwx_entry *out)
{
    dwexpr_status st;
    dwexpr_value as, a;
    uint64_t asid;
    if ((st = dwx_to_value(ctx, env, eas, &as)) || (st = aspace_id(ctx, &as, &asid)) ||
        (st = dwx_to_value(ctx, env, ea, &a)))
        return st;
    if (a.is_implicit_pointer && a.ipv_aspace == asid)
        return dwx_resolve_ipv(ctx, env, a.ipv_die, a.ipv_disp, out);
    /* A of any integral size: its least significant S bits (S <= 64,
     * dwx_aspace) are the address */
    dwexpr_sld s;
    if ((st = dwx_need_integral(ctx, &a, "the address")) ||
        (st = dwx_aspace_loc(ctx, env, asid, a.bits, &s)))
        return st;
    set_entry_slds(out, &s, 1);
    return DWEXPR_OK;
}

dwexpr_status dwx_op_form_aspace(dwexpr_ctx *ctx, const dwx_env *env, uint32_t base)
{
    dwexpr_status st;
    dwx_entry r;
    if ((st = need(ctx, base, 2)) || (st = dwx_form_aspace(ctx, env, TOP(1), TOP(0), &r)))
        return st;
    ctx->sp -= 2;
    return push(ctx, &r);
}

/* A memory location from a target service (TLS, CFA). */
static dwexpr_status target_loc(dwexpr_ctx *ctx, dwexpr_status st, const char *what)
{
    if (st == DWEXPR_E_NOT_FOUND || st == DWEXPR_E_NO_CONTEXT)
        return dwx_ctx_fail(ctx, DWEXPR_E_NO_CONTEXT, "%s is not known", what);
    return dwx_ctx_fail(ctx, st, "the target could not give %s", what);
}

/* DW_OP_form_tls_address: the target maps the TLS offset to memory. The
 * current thread the seed requires for it ("DWARF Expression Evaluation
 * Context") goes to the target in the frameref when the parameters give
 * one; the target alone knows whether it has several threads and refuses
 * without one then (E_NO_CONTEXT: class context); see README. */
dwexpr_status dwx_op_form_tls(dwexpr_ctx *ctx, const dwx_env *env, uint32_t base)
{
    dwexpr_status st;
    dwexpr_value ta;
    uint64_t off;
    if ((st = need(ctx, base, 1)) || (st = dwx_to_value(ctx, env, TOP(0), &ta)) ||
        (st = dwx_need_integral(ctx, &ta, "the thread-local storage offset")))
        return st;
    if (!ctx->t->tls_address)
        return dwx_ctx_fail(ctx, DWEXPR_E_UNSUPPORTED,
                            "the target cannot locate thread-local storage");
    if (!dwx_value_u64(&ta, &off))
        return dwx_ctx_fail(ctx, DWEXPR_E_TARGET,
                            "the target locates thread-local storage offsets of at most 64 bits");
    dwexpr_frameref f = dwx_frameref(ctx, env, env->frame);
    dwexpr_sld s = sld_memory(0, 0);
    if ((st = ctx->t->tls_address(ctx->user, &f, off, &s)))
        return target_loc(ctx, st, "the thread-local storage block");
    /* seed "DW_OP_form_tls_address": the run-time environment's memory
     * location for TA, which must be one (given_memory) */
    if ((st = given_memory(ctx, &s, "the target's thread-local storage")))
        return st;
    ctx->sp--;
    return push_sld(ctx, &s);
}

/* DW_OP_call_frame_cfa: the CFA of the current frame, from the target. */
dwexpr_status dwx_cfa_loc(dwexpr_ctx *ctx, const dwx_env *env, dwexpr_sld *out)
{
    if (!ctx->t->cfa)
        return dwx_ctx_fail(ctx, DWEXPR_E_UNSUPPORTED, "the target has no call frame information");
    dwexpr_frameref f = dwx_frameref(ctx, env, env->frame);
    dwexpr_sld s = sld_memory(0, 0);
    dwexpr_status st = ctx->t->cfa(ctx->user, &f, &s);
    if (st)
        return target_loc(ctx, st, "the CFA of the frame");
    if ((st = given_memory(ctx, &s, "the target's CFA")))
        return st;
    *out = s;
    return DWEXPR_OK;
}

/* True if E is exactly one DW_OP_reg0..31 or DW_OP_regx R: *REGNO gets R.
 * Codes from the operation table. */
static bool lone_register_op(const uint8_t *e, size_t n, uint32_t *regno)
{
    uint8_t reg0 = dwexpr_op_info(DWEXPR_OP_reg0)->code;
    if (n == 1 && e[0] >= reg0 && e[0] < reg0 + 32) {
        *regno = (uint32_t)(e[0] - reg0);
        return true;
    }
    if (n < 2 || e[0] != dwexpr_op_info(DWEXPR_OP_regx)->code)
        return false;
    const uint8_t *p = e + 1;
    uint64_t r;
    if (dwx_read_uleb(&p, e + n, &r, NULL) || p != e + n || r > UINT32_MAX)
        return false;
    *regno = (uint32_t)r;
    return true;
}

/* DW_OP_fbreg (seed "Memory Location Description Operations"): the frame
 * base moved by B bytes; a register frame base acts as DW_OP_bregx R 0. */
dwexpr_status dwx_fbreg_loc(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in,
                            dwexpr_sld *out)
{
    if (!ctx->t->frame_base)
        return dwx_ctx_fail(ctx, DWEXPR_E_UNSUPPORTED,
                            "the target has no frame base (DW_AT_frame_base)");
    dwexpr_frameref f = dwx_frameref(ctx, env, env->frame);
    dwexpr_frame_base fb;
    memset(&fb, 0, sizeof fb);
    dwexpr_status st = ctx->t->frame_base(ctx->user, &f, &fb);
    if (st)
        return target_loc(ctx, st, "the frame base");
    if (!fb.expr && fb.loc.kind == DWEXPR_LOC_MEMORY) {
        /* a ready memory location: as if DW_OP_LLVM_offset_uconst B (seed
         * "DW_OP_fbreg"; dwx_constu_disp), like the general case below */
        if ((st = given_memory(ctx, &fb.loc, "the target's frame base")))
            return st;
        *out = fb.loc;
        return dwx_sld_add_offset(ctx, out, dwx_constu_disp(&env->unit, in->a), 0);
    }
    dwx_entry r;
    uint32_t fb_reg;
    if (fb.expr && lone_register_op(fb.expr, fb.expr_len, &fb_reg)) {
        /* DW_AT_frame_base DW_OP_regN is read as DW_OP_bregx N 0, also in
         * a caller frame, where DW_OP_regN alone would give the register's
         * save slot (found comparing `dwexpr vars` with GDB) */
        dwexpr_sld s;
        if ((st = dwx_breg(ctx, env, fb_reg, 0, 0, &s))) {
            char what[96];
            snprintf(what, sizeof what,
                     "the frame base DW_OP_regx %u, read as DW_OP_bregx %u 0", (unsigned)fb_reg,
                     (unsigned)fb_reg);
            dwx_nest_error(ctx, what);
            return st;
        }
        if ((st = dwx_sld_add_offset(ctx, &s, dwx_constu_disp(&env->unit, in->a), 0)))
            return st;
        *out = s;
        return DWEXPR_OK;
    }
    if (fb.expr) {
        dwx_env sub = *env;
        if (fb.unit.addr_size)
            sub.unit = dwx_unit_normalize(&fb.unit);
        sub.object = NULL;
        if ((st = dwx_eval_nested(ctx, fb.expr, fb.expr_len, &sub, DWEXPR_RESULT_LOCATION, &r, NULL,
                              NULL))) {
            dwx_nest_error(ctx, "in the frame base expression");
            return st;
        }
    } else {
        set_entry_slds(&r, &fb.loc, 1);
    }
    dwexpr_sld s = *dwx_slds(&r);
    if (r.n == 1 && s.kind == DWEXPR_LOC_REGISTER && s.byte_offset == 0 && s.bit == 0) {
        if ((st = dwx_breg(ctx, env, s.u.regno, 0, 0, &s)))
            return st;
    } else if (r.n != 1 || s.kind != DWEXPR_LOC_MEMORY) {
        return dwx_ctx_fail(ctx, DWEXPR_E_ILL_FORMED,
                            "the frame base must be a memory or register location");
    }
    /* as if DW_OP_LLVM_offset_uconst B (seed "DW_OP_fbreg"): B (an SLEB,
     * so it may be negative) as DW_OP_constu B would push it */
    if ((st = dwx_sld_add_offset(ctx, &s, dwx_constu_disp(&env->unit, in->a), 0)))
        return st;
    *out = s;
    return DWEXPR_OK;
}

/* DW_OP_breg*, DW_OP_bregx and DW_OP_LLVM_aspace_bregx (which pops AS). */
dwexpr_status dwx_op_breg(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in,
                             uint32_t base)
{
    dwexpr_status st;
    uint64_t as = 0;
    bool aspace = in->x == DWEXPR_OP_LLVM_aspace_bregx;
    if (aspace) {
        dwexpr_value v;
        if ((st = need(ctx, base, 1)) || (st = dwx_to_value(ctx, env, TOP(0), &v)) ||
            (st = aspace_id(ctx, &v, &as)))
            return st;
    }
    dwexpr_sld s;
    if ((st = dwx_breg(ctx, env, in->a, (int64_t)in->b, as, &s)))
        return st;
    if (aspace)
        ctx->sp--;
    return push_sld(ctx, &s);
}

/* DW_OP_stack_value (seed "Implicit Location Description Operations"):
 * the value's bytes become implicit storage; an implicit pointer value
 * gives back its implicit pointer location. Evaluation goes on. */
dwexpr_status dwx_op_stack_value(dwexpr_ctx *ctx, const dwx_env *env, uint32_t base)
{
    dwexpr_status st;
    if ((st = need(ctx, base, 1)))
        return st;
    return dwx_stack_value(ctx, env, TOP(0));
}

/* DW_OP_stack_value on entry E in place (the top of the stack, or the
 * shaped path's single entry). */
dwexpr_status dwx_stack_value(dwexpr_ctx *ctx, const dwx_env *env, dwx_entry *e)
{
    dwexpr_status st;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* the common case: a value of at most 64 bits stored little-endian
     * (what dwx_value_to_bytes writes), in place */
    if (!e->is_loc && !e->u.v.is_implicit_pointer && !e->u.v.wide &&
        !dwx_type_big(&env->unit, &e->u.v.type)) {
        uint64_t bits = dwx_value_bits(&e->u.v);
        if (bits <= 64) {
            uint8_t *bytes = dwx_alloc(ctx, 8); /* whole 8 bytes: one store */
            if (!bytes)
                return dwx_ctx_fail(ctx, DWEXPR_E_NOSPACE, "out of scratch memory");
            memcpy(bytes, &e->u.v.bits, 8);
            e->is_loc = 1;
            e->n = 1;
            e->many = NULL;
            e->u.one = sld_implicit(bytes, bits);
            return DWEXPR_OK;
        }
    }
#endif
    dwexpr_value v;
    if ((st = dwx_to_value(ctx, env, e, &v)))
        return st;
    dwexpr_sld s;
    if (v.is_implicit_pointer) {
        dwexpr_aspace_info ai;
        if ((st = dwx_aspace(ctx, &env->unit, v.ipv_aspace, &ai)))
            return st;
        memset(&s, 0, sizeof s);
        s.kind = DWEXPR_LOC_IMPLICIT_POINTER;
        s.aspace = v.ipv_aspace;
        s.u.ptr.die = v.ipv_die;
        s.u.ptr.disp = v.ipv_disp;
        s.u.ptr.bits = ai.addr_bits;
    } else {
        uint64_t nb = (dwx_value_bits(&v) + 7) / 8;
        uint8_t *bytes = dwx_alloc(ctx, (size_t)(nb ? nb : 1));
        if (!bytes)
            return dwx_ctx_fail(ctx, DWEXPR_E_NOSPACE, "out of scratch memory");
        dwx_value_to_bytes(&env->unit, &v, bytes);
        s = sld_implicit(bytes, dwx_value_bits(&v));
    }
    e->is_loc = 1;
    e->n = 1;
    e->many = NULL;
    e->u.one = s;
    return DWEXPR_OK;
}

/* DW_OP_implicit_pointer and DW_OP_LLVM_aspace_implicit_pointer: implicit
 * pointer storage of the space's address size. */
dwexpr_status dwx_op_implicit_pointer(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in,
                                         uint32_t base)
{
    dwexpr_status st;
    uint64_t as = 0;
    bool aspace = in->x == DWEXPR_OP_LLVM_aspace_implicit_pointer;
    if (aspace) {
        dwexpr_value v;
        if ((st = need(ctx, base, 1)) || (st = dwx_to_value(ctx, env, TOP(0), &v)) ||
            (st = aspace_id(ctx, &v, &as)))
            return st;
        if (as > UINT32_MAX)
            return dwx_ctx_fail(ctx, DWEXPR_E_BAD_ASPACE, "address space %llu is not defined",
                                (unsigned long long)as);
    }
    dwexpr_aspace_info ai;
    if ((st = dwx_aspace(ctx, &env->unit, (uint32_t)as, &ai)))
        return st;
    if (aspace)
        ctx->sp--;
    dwexpr_sld s;
    memset(&s, 0, sizeof s);
    s.kind = DWEXPR_LOC_IMPLICIT_POINTER;
    s.aspace = (uint32_t)as;
    s.u.ptr.die = in->a;
    s.u.ptr.disp = (int64_t)in->b;
    s.u.ptr.bits = ai.addr_bits;
    return push_sld(ctx, &s);
}

/* The operands of DW_OP_LLVM_extend / select_bit_piece (seed "Composite
 * Location Description Operations"): NEEDED stack entries, and an element
 * bit size S and count C that are not 0 (ill-formed) and within limits. */
static dwexpr_status check_elements(dwexpr_ctx *ctx, const dwx_insn *in, uint32_t base,
                                    uint64_t needed)
{
    dwexpr_status st;
    if ((st = need(ctx, base, needed)))
        return st;
    if (in->a == 0 || in->b == 0)
        return dwx_ctx_fail(ctx, DWEXPR_E_ILL_FORMED, "element bit size and count must not be 0");
    if (in->b > ctx->lim.parts)
        return dwx_ctx_fail(ctx, DWEXPR_E_TOO_BIG, "%llu parts exceed the composite part limit",
                            (unsigned long long)in->b);
    if (in->a > (uint64_t)INT64_MAX / in->b)
        return dwx_ctx_fail(ctx, DWEXPR_E_TOO_BIG, "%llu parts of %llu bits are too large",
                            (unsigned long long)in->b, (unsigned long long)in->a);
    return DWEXPR_OK;
}

/* DW_OP_LLVM_extend: C parts of S bits, each the popped location. */
dwexpr_status dwx_op_extend(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in,
                               uint32_t base)
{
    dwexpr_status st;
    if ((st = check_elements(ctx, in, base, 1)))
        return st;
    dwx_entry l;
    if ((st = dwx_to_loc(ctx, env, TOP(0), &l)))
        return st;
    dwexpr_sld *slds = dwx_own_slds(ctx, &l);
    dwexpr_composite *c = new_composite(ctx, (uint32_t)in->b);
    if (!slds || !c)
        return dwx_ctx_fail(ctx, DWEXPR_E_NOSPACE, "out of scratch memory");
    if ((st = check_part(ctx, slds, l.n, in->a)))
        return st;
    for (uint64_t i = 0; i < in->b; i++)
        if ((st = add_part(ctx, c, in->a, slds, l.n)))
            return st;
    c->complete = true;
    ctx->sp--;
    dwexpr_sld s = sld_composite(c);
    return push_sld(ctx, &s);
}

/* DW_OP_LLVM_select_bit_piece: part N is L1 or L0 (by bit N of the mask),
 * moved by N*S bits. */
dwexpr_status dwx_op_select_bit_piece(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in,
                                         uint32_t base)
{
    dwexpr_status st;
    if ((st = check_elements(ctx, in, base, 3)))
        return st;
    dwexpr_value m;
    if ((st = dwx_to_value(ctx, env, TOP(0), &m)))
        return st;
    /* an implicit pointer value as the mask: an evaluation error (seed
     * "Implicit Location Description Operations": "It is an evaluation error
     * if LS or IPV is accessed in any other manner") */
    if (m.is_implicit_pointer)
        return dwx_need_integral(ctx, &m, "the mask");
    if (!dwexpr_type_is_integral(&m.type))
        return dwx_ctx_fail(ctx, DWEXPR_E_NOT_INTEGRAL, "the mask must be an integral value");
    if (dwx_value_bits(&m) < in->b)
        return dwx_ctx_fail(ctx, DWEXPR_E_ILL_FORMED, "a %llu-bit mask cannot select %llu parts",
                            (unsigned long long)dwx_value_bits(&m), (unsigned long long)in->b);
    dwx_entry l1, l0;
    if ((st = dwx_to_loc(ctx, env, TOP(1), &l1)) || (st = dwx_to_loc(ctx, env, TOP(2), &l0)))
        return st;
    dwexpr_composite *c = new_composite(ctx, (uint32_t)in->b);
    if (!c)
        return dwx_ctx_fail(ctx, DWEXPR_E_NOSPACE, "out of scratch memory");
    for (uint64_t i = 0; i < in->b; i++) {
        bool one = m.wide ? (m.wide[i / 8] >> (i % 8)) & 1 : (m.bits >> i) & 1;
        const dwx_entry *src = one ? &l1 : &l0;
        dwexpr_sld *slds = dwx_own_slds(ctx, src);
        if (!slds)
            return dwx_ctx_fail(ctx, DWEXPR_E_NOSPACE, "out of scratch memory");
        for (uint32_t k = 0; k < src->n; k++)
            if ((st = dwx_sld_add_offset(ctx, &slds[k], 0, (int64_t)(i * in->a))))
                return st;
        if ((st = check_part(ctx, slds, src->n, in->a)) ||
            (st = add_part(ctx, c, in->a, slds, src->n)))
            return st;
    }
    c->complete = true;
    ctx->sp -= 3;
    dwexpr_sld s = sld_composite(c);
    return push_sld(ctx, &s);
}
