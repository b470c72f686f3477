/* lib/eval.c: the evaluator: one dispatch loop over a pre-decoded program
 * (seed "DWARF Operation Expressions"), the implicit conversions between
 * values and locations, and nested evaluations (DW_OP_call*, entry values,
 * implicit pointers, frame bases, location lists) on the same stack. */
#include "evalops.h"

/* A location entry's places copied into the arena (stable, mutable). */
dwexpr_sld *dwx_own_slds(dwexpr_ctx *ctx, const dwx_entry *e)
{
    dwexpr_sld *p = dwx_alloc(ctx, sizeof(dwexpr_sld) * e->n);
    if (p)
        memcpy(p, dwx_slds(e), sizeof(dwexpr_sld) * e->n);
    return p;
}

/* Implicit conversion to a value (seed "Memory Location Description
 * Operations"): only a location with one memory location description in
 * the default address space at a byte offset converts, to its address. */
dwexpr_status dwx_to_value(dwexpr_ctx *ctx, const dwx_env *env, const dwx_entry *e,
                              dwexpr_value *v)
{
    if (!e->is_loc) {
        *v = e->u.v;
        return DWEXPR_OK;
    }
    if (is_incomplete(e))
        return dwx_ctx_fail(ctx, DWEXPR_E_INCOMPLETE,
                            "an incomplete composite location description is not a value");
    const dwexpr_sld *s = dwx_slds(e);
    if (e->n == 1 && s->kind == DWEXPR_LOC_MEMORY && s->aspace == 0 && s->bit == 0) {
        *v = generic_value(&env->unit, s->byte_offset);
        return DWEXPR_OK;
    }
    static const char *const names[] = {"an undefined", "a memory", "a register", "an implicit",
                                        "an implicit pointer", "a composite"};
    if (e->n > 1)
        return dwx_ctx_fail(ctx, DWEXPR_E_NOT_VALUE,
                            "a location description with %u places is not a value",
                            (unsigned)e->n);
    return dwx_ctx_fail(ctx, DWEXPR_E_NOT_VALUE,
                        "%s location description is not a value%s", names[s->kind % 6],
                        s->kind == DWEXPR_LOC_MEMORY
                            ? (s->aspace ? " (not in the default address space)"
                                         : " (not at a byte offset)")
                            : "");
}

/* Implicit conversion to a location (seed "Memory Location Description
 * Operations"): an integral value is an address in the default address
 * space; an implicit pointer value in the default space is the location
 * of its object. */
dwexpr_status dwx_to_loc(dwexpr_ctx *ctx, const dwx_env *env, const dwx_entry *e,
                            dwx_entry *out)
{
    if (e->is_loc) {
        if (is_incomplete(e))
            return dwx_ctx_fail(ctx, DWEXPR_E_INCOMPLETE,
                                "an incomplete composite location description cannot be used "
                                "here (only by DW_OP_piece, DW_OP_bit_piece and "
                                "DW_OP_LLVM_piece_end)");
        *out = *e;
        return DWEXPR_OK;
    }
    const dwexpr_value *v = &e->u.v;
    if (v->is_implicit_pointer) {
        if (v->ipv_aspace != 0)
            return dwx_ctx_fail(ctx, DWEXPR_E_NOT_LOCATION,
                                "an implicit pointer value in address space %u converts to a "
                                "location only through DW_OP_LLVM_form_aspace_address",
                                (unsigned)v->ipv_aspace);
        return dwx_resolve_ipv(ctx, env, v->ipv_die, v->ipv_disp, out);
    }
    /* Only a value of the generic type converts; converting any integral
     * type is the seed's note, an alternative it does not adopt. */
    if (v->type.encoding != DWEXPR_ATE_GENERIC)
        return dwx_ctx_fail(ctx, DWEXPR_E_NOT_LOCATION,
                            "a typed value (%u-bit, DW_ATE 0x%x) is not a location description; "
                            "only generic values convert (DW_OP_convert 0 first)",
                            (unsigned)v->type.bits, (unsigned)v->type.encoding);
    uint64_t a = v->bits & dwx_mask(8u * env->unit.addr_size);
    dwexpr_sld s = sld_memory(0, a);
    out->is_loc = 1;
    out->n = 1;
    out->many = NULL;
    out->u.one = s;
    return DWEXPR_OK;
}

dwexpr_status dwx_need_integral(dwexpr_ctx *ctx, const dwexpr_value *v, const char *what)
{
    if (v->is_implicit_pointer)
        return dwx_ctx_fail(ctx, DWEXPR_E_IMPLICIT_PTR, "%s: an implicit pointer value is not %s",
                            what, "an integer");
    /* seed "DWARF Expression Value": integral by encoding, of any size
     * (wider than 64 bits too: each caller reads such a value itself);
     * a vector is no integral value */
    if (!dwexpr_type_is_integral(&v->type) || v->type.lanes > 1)
        return dwx_ctx_fail(ctx, DWEXPR_E_NOT_INTEGRAL, "%s must be an integral value", what);
    return DWEXPR_OK;
}

int64_t dwx_signed_of(const dwexpr_value *v)
{
    uint32_t n = v->type.bits;
    uint64_t x = v->bits & dwx_mask(n);
    if (n >= 64 || n == 0)
        return (int64_t)x;
    if (v->type.encoding == DW_ATE_unsigned || v->type.encoding == DW_ATE_unsigned_char ||
        v->type.encoding == DW_ATE_boolean || v->type.encoding == DW_ATE_address ||
        v->type.encoding == DW_ATE_UTF)
        return (int64_t)x;
    uint64_t sign = (uint64_t)1 << (n - 1);
    return (int64_t)((x ^ sign) - sign);
}

/* Look up base type DIE for an operation that needs one. DIE 0 is the
 * generic type only where ZERO_GENERIC (DW_OP_convert, DW_OP_reinterpret). */
dwexpr_status dwx_base_type(dwexpr_ctx *ctx, const dwx_env *env, uint64_t die,
                               bool zero_generic, dwexpr_type *t)
{
    if (die == 0) {
        if (zero_generic) {
            *t = dwx_generic_type(&env->unit);
            return DWEXPR_OK;
        }
        return dwx_ctx_fail(ctx, DWEXPR_E_BAD_TYPE,
                            "type offset 0 does not name a DW_TAG_base_type entry");
    }
    if (!ctx->t->base_type)
        return dwx_ctx_fail(ctx, DWEXPR_E_UNSUPPORTED,
                            "the target cannot look up base type DIE 0x%llx",
                            (unsigned long long)die);
    memset(t, 0, sizeof *t);
    dwexpr_status st = ctx->t->base_type(ctx->user, &env->unit, die, t);
    if (st == DWEXPR_E_NOT_FOUND)
        return dwx_ctx_fail(ctx, DWEXPR_E_BAD_TYPE,
                            "DIE 0x%llx is not a DW_TAG_base_type entry of the unit",
                            (unsigned long long)die);
    if (st)
        return dwx_ctx_fail(ctx, st, "the target could not read base type DIE 0x%llx",
                            (unsigned long long)die);
    t->die = die;
    if (t->lanes == 0)
        t->lanes = 1;
    if (t->bits == 0)
        return dwx_ctx_fail(ctx, DWEXPR_E_BAD_TYPE, "base type DIE 0x%llx has no size",
                            (unsigned long long)die);
    return DWEXPR_OK;
}

/* The location of register R in the current frame (seed "Register
 * Location Description Operations"): a register location in the top
 * frame, else whatever unwinding says holds it. */
dwexpr_status dwx_reg_loc(dwexpr_ctx *ctx, const dwx_env *env, uint64_t regno, uint32_t frame,
                             dwexpr_sld *out)
{
    if (regno > UINT32_MAX)
        return dwx_ctx_fail(ctx, DWEXPR_E_BAD_OPERAND, "register number %llu is too large",
                            (unsigned long long)regno);
    if (frame == 0) {
        sld_register(out, (uint32_t)regno, ctx->p);
        return DWEXPR_OK;
    }
    if (!ctx->t->register_location)
        return dwx_ctx_fail(ctx, DWEXPR_E_UNSUPPORTED,
                            "register %u of frame %u needs unwinding, which the target does not "
                            "provide",
                            (unsigned)regno, (unsigned)frame);
    dwexpr_frameref f = dwx_frameref(ctx, env, frame);
    memset(out, 0, sizeof *out);
    dwexpr_status st = ctx->t->register_location(ctx->user, &f, (uint32_t)regno, out);
    if (st == DWEXPR_E_NOT_FOUND || st == DWEXPR_E_NO_CONTEXT)
        return dwx_ctx_fail(ctx, DWEXPR_E_NO_CONTEXT, "frame %u is not known to the target",
                            (unsigned)frame);
    if (st)
        return dwx_ctx_fail(ctx, st, "the target could not unwind register %u to frame %u",
                            (unsigned)regno, (unsigned)frame);
    return DWEXPR_OK;
}

/* Scratch for N bits: BUF if it fits, else the arena. */
static uint8_t *bits_buf(dwexpr_ctx *ctx, uint64_t nbits, uint8_t *buf, size_t cap)
{
    uint64_t n = (nbits + 7) / 8;
    if (n <= cap)
        return buf;
    if (n > ctx->lim.implicit_bytes)
        return NULL;
    return dwx_alloc(ctx, (size_t)n);
}

/* Implicit pointer detection for DW_OP_deref* (seed "Implicit Location
 * Description Operations"): reading bits of implicit pointer storage is
 * allowed only when all of them come, in ascending order, from the whole
 * of one such storage. */
typedef struct ipv_scan {
    bool found, other, bad;
    dwexpr_sld ls;     /* the implicit pointer storage */
    uint64_t next;     /* next expected bit offset in it */
} ipv_scan;

static void scan_ipv(const dwexpr_loc *loc, uint64_t extra, uint64_t nbits, ipv_scan *sc,
                     int depth)
{
    if (loc->count == 0 || depth > 128) {
        sc->other = true;
        return;
    }
    const dwexpr_sld *s = &loc->slds[0];
    uint64_t off = s->byte_offset * 8 + s->bit + extra;
    if (s->kind == DWEXPR_LOC_COMPOSITE) {
        const dwexpr_composite *c = s->u.comp;
        uint64_t pos = 0, end = off + nbits;
        for (uint32_t i = 0; i < c->count && pos < end; i++) {
            uint64_t pend = pos + c->parts[i].bit_size;
            uint64_t lo = off > pos ? off : pos, hi = end < pend ? end : pend;
            if (lo < hi)
                scan_ipv(&c->parts[i].loc, lo - pos, hi - lo, sc, depth + 1);
            pos = pend;
        }
        return;
    }
    if (s->kind != DWEXPR_LOC_IMPLICIT_POINTER) {
        sc->other = true;
        return;
    }
    if (!sc->found) {
        sc->found = true;
        sc->ls = *s;
        sc->next = 0;
    } else if (sc->ls.u.ptr.die != s->u.ptr.die || sc->ls.u.ptr.disp != s->u.ptr.disp ||
               sc->ls.aspace != s->aspace) {
        sc->bad = true;
    }
    if (off != sc->next)
        sc->bad = true;
    sc->next = off + nbits;
}

/* DW_OP_deref_type core (seed "Special Value Operations"): read TS bits
 * of type T from location entry L. When TO_GENERIC, the value is
 * zero-extended to the generic type (DW_OP_deref_size). */
dwexpr_status dwx_deref(dwexpr_ctx *ctx, const dwx_env *env, const dwx_entry *l,
                           const dwexpr_type *t, bool to_generic, dwexpr_value *out)
{
    uint64_t ts = (uint64_t)t->bits * (t->lanes ? t->lanes : 1);
    dwexpr_loc loc = {l->n, dwx_slds(l)};
    ipv_scan sc;
    memset(&sc, 0, sizeof sc);
    scan_ipv(&loc, 0, ts, &sc, 0);
    if (sc.found) {
        if (sc.other || sc.bad || sc.next != sc.ls.u.ptr.bits || ts != sc.ls.u.ptr.bits)
            return dwx_ctx_fail(ctx, DWEXPR_E_IMPLICIT_PTR,
                                "implicit pointer storage can only be dereferenced whole "
                                "(%u bits), not as %llu bits",
                                (unsigned)sc.ls.u.ptr.bits, (unsigned long long)ts);
        /* An implicit pointer value: generic type in the default space, a
         * target integral type of the address size elsewhere. */
        memset(out, 0, sizeof *out);
        out->type = dwx_generic_type(&env->unit);
        if (sc.ls.aspace != 0) {
            out->type.encoding = DW_ATE_unsigned;
            out->type.bits = sc.ls.u.ptr.bits;
        }
        out->is_implicit_pointer = true;
        out->ipv_aspace = sc.ls.aspace;
        out->ipv_die = sc.ls.u.ptr.die;
        out->ipv_disp = sc.ls.u.ptr.disp;
        return DWEXPR_OK;
    }
    uint8_t small[64];
    uint8_t *buf = bits_buf(ctx, ts, small, sizeof small);
    if (!buf)
        return dwx_ctx_fail(ctx, DWEXPR_E_TOO_BIG, "a %llu-bit value is too large",
                            (unsigned long long)ts);
    memset(buf, 0, (size_t)((ts + 7) / 8));
    dwexpr_status st = dwx_read_loc(ctx, &loc, 0, ts, buf, 0, NULL);
    if (st)
        return st;
    if (to_generic) {
        /* DW_OP_deref_size: zero-extended, little-endian-ordered bits. */
        dwexpr_type u = *t;
        st = dwx_value_from_bits(ctx, &env->unit, &u, buf, out);
        if (st)
            return st;
        uint64_t v = out->bits;
        *out = generic_value(&env->unit, v);
        return DWEXPR_OK;
    }
    return dwx_value_from_bits(ctx, &env->unit, t, buf, out);
}

/* Memory location for address A in address space AS, recording the
 * thread / lane the storage belongs to (seed "DW_OP_LLVM_form_aspace_address"). */
dwexpr_status dwx_aspace_loc(dwexpr_ctx *ctx, const dwx_env *env, uint64_t as, uint64_t a,
                                dwexpr_sld *out)
{
    if (as > UINT32_MAX)
        return dwx_ctx_fail(ctx, DWEXPR_E_BAD_ASPACE, "address space %llu is not defined",
                            (unsigned long long)as);
    dwexpr_aspace_info ai;
    dwexpr_status st = dwx_aspace(ctx, &env->unit, (uint32_t)as, &ai);
    if (st)
        return st;
    *out = sld_memory((uint32_t)as, a & dwx_mask(ai.addr_bits));
    if (ai.per_thread) {
        if (!(ctx->p->ctx & DWEXPR_CTX_THREAD))
            return dwx_ctx_fail(ctx, DWEXPR_E_NO_CONTEXT,
                                "address space %u is per thread, and no thread is given",
                                (unsigned)as);
        out->ctx |= DWEXPR_CTX_THREAD;
        out->thread = ctx->p->thread;
    }
    if (ai.per_lane) {
        if (!(ctx->p->ctx & DWEXPR_CTX_LANE))
            return dwx_ctx_fail(ctx, DWEXPR_E_NO_CONTEXT,
                                "address space %u is per lane, and no lane is given",
                                (unsigned)as);
        out->ctx |= DWEXPR_CTX_LANE | (ctx->p->ctx & DWEXPR_CTX_THREAD);
        out->lane = ctx->p->lane;
        out->thread = ctx->p->thread;
    }
    return DWEXPR_OK;
}

/* DW_OP_breg*, DW_OP_bregx, DW_OP_LLVM_aspace_bregx (seed "Memory Location
 * Description Operations"): register contents as an unsigned integer of
 * the space's address size, plus B, low S bits. */
static dwexpr_status breg_general(dwexpr_ctx *ctx, const dwx_env *env, uint64_t regno,
                                  int64_t b, uint64_t as, dwexpr_sld *out);

dwexpr_status dwx_breg(dwexpr_ctx *ctx, const dwx_env *env, uint64_t regno, int64_t b,
                          uint64_t as, dwexpr_sld *out)
{
    const dwexpr_target *tg = ctx->t;
    const unsigned asz = env->unit.addr_size;
    /* The common case answered directly: the default space of a target
     * without address-space facts (so an address is ASZ bytes, seed "DWARF
     * Address Spaces"), the top frame, a little-endian unit, a register
     * known to hold at least ASZ bytes. The same two callbacks with the
     * same arguments as the general path below, which handles everything
     * else and, when anything here fails, asks again to report it. */
    if (as == 0 && !tg->aspace_info && env->frame == 0 && regno <= UINT32_MAX &&
        !env->unit.big_endian && tg->reg_read) {
        uint32_t rb = 0;
        if (!tg->reg_size ||
            (dwx_reg_size(ctx, ctx->p, (uint32_t)regno, &rb) == DWEXPR_OK && rb >= asz)) {
            dwexpr_regref r;
            r.thread = ctx->p->thread;
            r.frame = 0;
            r.regno = (uint32_t)regno;
            r.ctx = (uint16_t)(ctx->p->ctx & (DWEXPR_CTX_THREAD | DWEXPR_CTX_FRAME));
            uint8_t buf[8] = {0};
            if (tg->reg_read(ctx->user, &r, 0, buf, asz) == DWEXPR_OK) {
                uint64_t v = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
                memcpy(&v, buf, 8); /* the unit's order is the host's */
#else
                for (unsigned i = 0; i < asz; i++)
                    v |= (uint64_t)buf[i] << (8 * i);
#endif
                *out = sld_memory(0, (v + (uint64_t)b) & dwx_mask(8 * asz));
                return DWEXPR_OK;
            }
        }
    }
    return breg_general(ctx, env, regno, b, as, out);
}

/* dwx_breg's general path: any address space, frame and byte order. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static dwexpr_status breg_general(dwexpr_ctx *ctx, const dwx_env *env, uint64_t regno,
                                  int64_t b, uint64_t as, dwexpr_sld *out)
{
    dwexpr_aspace_info ai;
    dwexpr_status st;
    if (as > UINT32_MAX)
        return dwx_ctx_fail(ctx, DWEXPR_E_BAD_ASPACE, "address space %llu is not defined",
                            (unsigned long long)as);
    if ((st = dwx_aspace(ctx, &env->unit, (uint32_t)as, &ai)))
        return st;
    dwexpr_sld r;
    if ((st = dwx_reg_loc(ctx, env, regno, env->frame, &r)))
        return st;
    dwexpr_loc loc = {1, &r};
    uint8_t buf[8] = {0};
    if ((st = dwx_read_loc(ctx, &loc, 0, ai.addr_bits, buf, 0, NULL)))
        return st;
    /* as DW_OP_regval_type R of an unsigned S-bit type: target byte order */
    dwexpr_type t = dwx_generic_type(&env->unit);
    t.encoding = DW_ATE_unsigned;
    t.bits = ai.addr_bits;
    dwexpr_value v;
    if ((st = dwx_value_from_bits(ctx, &env->unit, &t, buf, &v)))
        return st;
    return dwx_aspace_loc(ctx, env, as, v.bits + (uint64_t)b, out);
}

/* Look a DIE up for DW_OP_call*, implicit pointers, variable values. */
dwexpr_status dwx_find_die(dwexpr_ctx *ctx, const dwx_env *env, uint64_t off, bool section,
                              dwexpr_die *d)
{
    if (!ctx->t->die)
        return dwx_ctx_fail(ctx, DWEXPR_E_UNSUPPORTED,
                            "the target cannot look up debugging information entries "
                            "(DIE 0x%llx)",
                            (unsigned long long)off);
    memset(d, 0, sizeof *d);
    dwexpr_status st = ctx->t->die(ctx->user, &env->unit, off, section, d);
    if (st == DWEXPR_E_NOT_FOUND)
        return dwx_ctx_fail(ctx, DWEXPR_E_ILL_FORMED,
                            "DIE 0x%llx does not exist", (unsigned long long)off);
    if (st)
        return dwx_ctx_fail(ctx, st, "the target could not read DIE 0x%llx",
                            (unsigned long long)off);
    if (d->unit.addr_size == 0)
        d->unit = env->unit;
    d->unit = dwx_unit_normalize(&d->unit);
    return DWEXPR_OK;
}

/* The location an implicit pointer value points to (seed "Implicit
 * Location Description Operations"): D's location or const value,
 * evaluated in the current context, moved by the displacement. */
dwexpr_status dwx_resolve_ipv(dwexpr_ctx *ctx, const dwx_env *env, uint64_t die, int64_t disp,
                                 dwx_entry *out)
{
    dwexpr_die d;
    dwexpr_status st = dwx_find_die(ctx, env, die, true, &d);
    if (st)
        return st;
    dwx_env sub = *env;
    sub.unit = d.unit;
    sub.object = NULL;
    switch (d.kind) {
    case DWEXPR_DIE_EXPRLOC:
        st = dwx_eval_nested(ctx, d.expr, d.expr_len, &sub, DWEXPR_RESULT_LOCATION, out, NULL, NULL);
        break;
    case DWEXPR_DIE_LOCLIST:
        st = dwx_eval_loclist(ctx, d.entries, d.count, &sub, out);
        break;
    case DWEXPR_DIE_CONST_VALUE: {
        dwexpr_sld s = sld_implicit(d.expr, 8 * (uint64_t)d.expr_len);
        set_entry_slds(out, &s, 1);
        break;
    }
    default:
        return dwx_ctx_fail(ctx, DWEXPR_E_IMPLICIT_PTR,
                            "DIE 0x%llx has neither a location nor a constant value",
                            (unsigned long long)die);
    }
    if (st)
        return st;
    dwexpr_sld *slds = dwx_own_slds(ctx, out);
    if (!slds)
        return dwx_ctx_fail(ctx, DWEXPR_E_NOSPACE, "out of scratch memory");
    /* "as if the DW_OP_LLVM_offset_uconst B operation was applied" */
    const int64_t b = dwx_constu_disp(&env->unit, (uint64_t)disp);
    for (uint32_t i = 0; i < out->n; i++)
        if ((st = dwx_sld_add_offset(ctx, &slds[i], b, 0)))
            return st;
    set_entry_slds(out, slds, out->n);
    return DWEXPR_OK;
}

/* The result of one expression (seed "DWARF Operation Expressions"): the
 * top entry, converted to the wanted kind; an empty stack is an undefined
 * location; an incomplete composite on top is completed. */
static dwexpr_status finish_entry(dwexpr_ctx *ctx, const dwx_env *env, dwexpr_result_kind want,
                                  dwx_entry *top, dwx_entry *out)
{
    if (is_incomplete(top))
        ((dwexpr_composite *)top->u.one.u.comp)->complete = true;
    if (want == DWEXPR_RESULT_VALUE) {
        dwexpr_value v;
        dwexpr_status st = dwx_to_value(ctx, env, top, &v);
        if (st)
            return st;
        out->is_loc = 0;
        out->n = 0;
        out->many = NULL;
        out->u.v = v;
        return DWEXPR_OK;
    }
    if (want == DWEXPR_RESULT_LOCATION)
        return dwx_to_loc(ctx, env, top, out);
    if (out != top)
        *out = *top;
    return DWEXPR_OK;
}

static dwexpr_status finish(dwexpr_ctx *ctx, uint32_t base, const dwx_env *env,
                            dwexpr_result_kind want, dwx_entry *out)
{
    if (ctx->sp == base) {
        if (want == DWEXPR_RESULT_VALUE)
            return dwx_ctx_fail(ctx, DWEXPR_E_STACK_EMPTY,
                                "the expression leaves an empty stack, and a value is required");
        dwexpr_sld u = sld_undefined();
        set_entry_slds(out, &u, 1);
        return DWEXPR_OK;
    }
    return finish_entry(ctx, env, want, &ctx->stack[ctx->sp - 1], out);
}

/* Decode EXPR in the arena (no malloc) or use PRE, then evaluate it on a
 * fresh part of the stack; the stack is restored afterwards. */
dwexpr_status dwx_eval_nested(dwexpr_ctx *ctx, const uint8_t *expr, size_t len,
                                 const dwx_env *env, dwexpr_result_kind want, dwx_entry *out,
                                 const dwexpr_program *pre, int *last_x)
{
    if (ctx->depth >= ctx->lim.calls)
        return dwx_ctx_fail(ctx, DWEXPR_E_CALL_DEPTH, "nesting limit (%u) reached",
                            (unsigned)ctx->lim.calls);
    dwexpr_program local;
    const dwexpr_program *prog = pre;
    if (!prog) {
        /* the executable form only (a nested program shows no public
         * view: dwexpr_trace_event.op) */
        dwx_insn *insns = dwx_alloc(ctx, sizeof(dwx_insn) * (len + 1));
        if (!insns)
            return dwx_ctx_fail(ctx, DWEXPR_E_NOSPACE, "out of scratch memory");
        dwexpr_status st =
            dwx_decode(expr, len, &env->unit, insns, NULL, dwx_alloc_cb, ctx, &local, &ctx->err);
        if (st)
            return st;
        prog = &local;
    }
    uint32_t base = ctx->sp;
    ctx->depth++;
    dwexpr_status st = dwx_run(ctx, prog, env, base, last_x);
    if (st == DWEXPR_OK)
        st = finish(ctx, base, env, want, out);
    ctx->depth--;
    ctx->sp = base;
    return st;
}

/* seed "DWARF Location List Expressions": the union of the results of
 * every matching entry; no match is an undefined location; no program
 * location is an evaluation error. */
dwexpr_status dwx_eval_loclist(dwexpr_ctx *ctx, const dwexpr_loclist_entry *ents, size_t n,
                                  const dwx_env *env, dwx_entry *out)
{
    /* the seed calls this an evaluation error; the missing element is the
     * program location, so dwexpr reports it in the contract's "context"
     * class (a debugger then knows to supply a pc) */
    if (!env->has_pc)
        return dwx_ctx_fail(ctx, DWEXPR_E_NO_CONTEXT,
                            "a location list needs the current program location");
    size_t bounded = 0;
    for (size_t i = 0; i < n; i++)
        if (!ents[i].is_default && env->pc >= ents[i].low && env->pc < ents[i].high)
            bounded++;
    dwexpr_sld *all = NULL;
    uint32_t total = 0;
    dwx_env sub = *env;
    sub.object = NULL;
    for (size_t i = 0; i < n; i++) {
        const dwexpr_loclist_entry *le = &ents[i];
        bool match = le->is_default ? bounded == 0 : (env->pc >= le->low && env->pc < le->high);
        if (!match)
            continue;
        dwx_entry r;
        dwexpr_status st =
            dwx_eval_nested(ctx, le->expr, le->expr_len, &sub, DWEXPR_RESULT_LOCATION, &r, NULL, NULL);
        if (st)
            return st;
        dwexpr_sld *grown = dwx_alloc(ctx, sizeof(dwexpr_sld) * (total + r.n));
        if (!grown)
            return dwx_ctx_fail(ctx, DWEXPR_E_NOSPACE, "out of scratch memory");
        if (total)
            memcpy(grown, all, sizeof(dwexpr_sld) * total);
        memcpy(grown + total, dwx_slds(&r), sizeof(dwexpr_sld) * r.n);
        all = grown;
        total += r.n;
    }
    if (total == 0) {
        dwexpr_sld u = sld_undefined();
        set_entry_slds(out, &u, 1);
        return DWEXPR_OK;
    }
    set_entry_slds(out, all, total);
    return DWEXPR_OK;
}

/* Prefix the current error with where a nested evaluation failed. */
void dwx_nest_error(dwexpr_ctx *ctx, const char *what)
{
    char msg[2 * sizeof ctx->err.message + 128];
    if (ctx->err.offset >= 0)
        snprintf(msg, sizeof msg, "%s, at offset %lld (%s): %s", what,
                 (long long)ctx->err.offset, ctx->err.op_name ? ctx->err.op_name : "?",
                 ctx->err.message);
    else
        snprintf(msg, sizeof msg, "%s: %s", what, ctx->err.message);
    size_t n = strlen(msg);
    if (n >= sizeof ctx->err.message)
        n = sizeof ctx->err.message - 1;
    memcpy(ctx->err.message, msg, n);
    ctx->err.message[n] = 0;
    ctx->err.offset = -1;
}

/* Operations that need nothing on the stack and push one entry (the
 * "producers" of lib/dwx.h's program shapes), computed into *E without
 * touching the stack: the dispatch loop pushes E, the shaped path uses it
 * as the result or stack_value's operand. */
static inline bool is_producer(unsigned x)
{
    return x == DWEXPR_OP_lit0 || x == DWEXPR_OP_addr || x == DWEXPR_OP_addrx ||
           x == DWEXPR_OP_reg0 || x == DWEXPR_OP_breg0 || x == DWEXPR_OP_fbreg ||
           x == DWEXPR_OP_call_frame_cfa || x == DWEXPR_OP_entry_value;
}

static inline dwexpr_status produce(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in,
                                    dwx_entry *e)
{
    const dwexpr_unit *u = &env->unit;
    dwexpr_status st;
    uint64_t a;
    e->many = NULL;
    switch (in->x) {
    /* seed "Literal Operations": generic values, truncated to the generic
     * type size (every const* and litN decode to lit0). */
    case DWEXPR_OP_lit0:
        e->is_loc = 0;
        e->n = 0;
        e->u.v = generic_value(u, in->a);
        return DWEXPR_OK;
    /* seed "Register Location Description Operations" (every regN and
     * regx decode to reg0) */
    case DWEXPR_OP_reg0:
        e->is_loc = 1;
        e->n = 1;
        return dwx_reg_loc(ctx, env, in->a, env->frame, &e->u.one);
    /* seed "Memory Location Description Operations" */
    case DWEXPR_OP_breg0:
        e->is_loc = 1;
        e->n = 1;
        return dwx_breg(ctx, env, in->a, (int64_t)in->b, 0, &e->u.one);
    case DWEXPR_OP_fbreg:
        e->is_loc = 1;
        e->n = 1;
        return dwx_fbreg_loc(ctx, env, in, &e->u.one);
    case DWEXPR_OP_addr:
        e->is_loc = 1;
        e->n = 1;
        e->u.one = sld_memory(0, (in->a + u->load_bias) & dwx_mask(8u * u->addr_size));
        return DWEXPR_OK;
    case DWEXPR_OP_addrx:
        if ((st = dwx_debug_addr(ctx, env, in->a, &a)))
            return st;
        e->is_loc = 1;
        e->n = 1;
        e->u.one = sld_memory(0, (a + u->load_bias) & dwx_mask(8u * u->addr_size));
        return DWEXPR_OK;
    case DWEXPR_OP_call_frame_cfa:
        e->is_loc = 1;
        e->n = 1;
        return dwx_cfa_loc(ctx, env, &e->u.one);
    /* seed "Special Value Operations" */
    case DWEXPR_OP_entry_value:
        e->is_loc = 0;
        e->n = 0;
        return dwx_entry_value(ctx, env, in, &e->u.v);
    default:
        return dwx_ctx_fail(ctx, DWEXPR_E_UNKNOWN_OP, "operation %s is not a producer",
                            OPNAME(in->id));
    }
}

/* A location producer: pushes one location description. */
static inline bool is_loc_producer(unsigned x)
{
    return x == DWEXPR_OP_reg0 || x == DWEXPR_OP_breg0 || x == DWEXPR_OP_fbreg ||
           x == DWEXPR_OP_addr || x == DWEXPR_OP_addrx || x == DWEXPR_OP_call_frame_cfa;
}

/* DWX_SHAPE_PIECES (lib/dwx.h): groups, each ending in DW_OP_piece, of
 * nothing (an undefined part), a location producer, or DW_OP_lit*|const*
 * or DW_OP_entry_value then DW_OP_stack_value. */
static bool pieces_shape(const dwexpr_program *prog)
{
    const dwx_insn *c = prog->code;
    size_t i = 0, n = prog->count;
    while (i < n) {
        unsigned x = c[i].x;
        if (x == DWEXPR_OP_piece) {
            i++;
        } else if (is_loc_producer(x) && i + 1 < n && c[i + 1].x == DWEXPR_OP_piece) {
            i += 2;
        } else if ((x == DWEXPR_OP_lit0 || x == DWEXPR_OP_entry_value) && i + 2 < n &&
                   c[i + 1].x == DWEXPR_OP_stack_value && c[i + 2].x == DWEXPR_OP_piece) {
            i += 3;
        } else {
            return false;
        }
    }
    return n > 0;
}

uint8_t dwx_program_shape(const dwexpr_program *prog)
{
    const dwx_insn *c = prog->code;
    if (prog->count == 5 && c[0].x != DWEXPR_OP_lit0 && c[0].x != DWEXPR_OP_entry_value &&
        is_producer(c[0].x) && c[1].x == DWEXPR_OP_LLVM_push_lane && c[2].x == DWEXPR_OP_lit0 &&
        c[3].x == DWEXPR_OP_mul && c[4].x == DWEXPR_OP_LLVM_offset)
        return DWX_SHAPE_LANE_PART;
    if (prog->count > 2 || (prog->count >= 1 && c[prog->count - 1].x == DWEXPR_OP_piece))
        return pieces_shape(prog) ? DWX_SHAPE_PIECES : DWX_SHAPE_GENERAL;
    if (prog->count == 0 || !is_producer(prog->code[0].x))
        return DWX_SHAPE_GENERAL;
    if (prog->count == 1)
        return prog->code[0].x == DWEXPR_OP_reg0 && prog->code[0].a <= UINT32_MAX
                   ? DWX_SHAPE_REG
                   : DWX_SHAPE_ONE;
    return prog->code[1].x == DWEXPR_OP_stack_value ? DWX_SHAPE_ONE_SV : DWX_SHAPE_GENERAL;
}

/* Record that operation IN failed with ST (offset and name, unless a
 * nested evaluation already placed the error). */
static dwexpr_status fail_at(dwexpr_ctx *ctx, const dwx_insn *in, dwexpr_status st)
{
    if (ctx->err.offset < 0 && in) {
        ctx->err.offset = in->offset;
        ctx->err.op_name = OPNAME(in->id);
        const dwexpr_opinfo *oi = dwexpr_op_info((dwexpr_opid)in->id);
        ctx->err.opcode = oi ? (oi->code ? oi->code : DW_OP_LLVM_user) : -1;
    }
    ctx->err.status = st;
    return st;
}

/* The dispatch loop over PROG, with entries from BASE up. *LAST_X gets the
 * last operation executed (DW_OP_entry_value's DW_OP_reg* rule). Every
 * case is short; the long ones call an op_* helper above. */
dwexpr_status dwx_run(dwexpr_ctx *ctx, const dwexpr_program *prog, const dwx_env *env,
                         uint32_t base, int *last_x)
{
    const dwx_insn *code = prog->code;
    const dwexpr_unit *u = &env->unit;
    size_t pc = 0;
    dwexpr_status st = DWEXPR_OK;
    const dwx_insn *in = NULL;
    dwexpr_value v;
    dwexpr_sld s;
    dwx_entry e;
    uint64_t a;
    bool taken = false;

    while (pc < prog->count) {
        in = &code[pc++];
        if (DWX_UNLIKELY(++ctx->steps > ctx->lim.steps)) {
            st = dwx_ctx_fail(ctx, DWEXPR_E_STEPS, "operation limit (%llu) reached",
                              (unsigned long long)ctx->lim.steps);
            goto fail;
        }
        if (last_x)
            *last_x = in->x;
        if (DWX_UNLIKELY(ctx->p->trace != NULL)) {
            dwexpr_trace_event ev;
            ev.depth = ctx->depth;
            ev.offset = in->offset;
            ev.id = (dwexpr_opid)in->id;
            /* the public view of a program of dwexpr_program_decode */
            dwexpr_op view;
            ev.op = prog->heap ? dwexpr_program_op(prog, pc - 1, &view) : NULL;
            if (ctx->p->trace(ctx->p->trace_arg, ctx, &ev)) {
                st = dwx_ctx_fail(ctx, DWEXPR_E_INTERRUPTED, "evaluation interrupted");
                goto fail;
            }
        }
        switch (in->x) {
        /* seed "Literal Operations": generic values, truncated to the
         * generic type size (every const* and litN decode to lit0). */
        case DWEXPR_OP_lit0: case DWEXPR_OP_reg0: case DWEXPR_OP_breg0: case DWEXPR_OP_fbreg:
        case DWEXPR_OP_addr: case DWEXPR_OP_addrx: case DWEXPR_OP_call_frame_cfa:
        case DWEXPR_OP_entry_value:
            if (!(st = produce(ctx, env, in, &e)))
                st = push(ctx, &e);
            break;
        case DWEXPR_OP_constx:
            if (!(st = dwx_debug_addr(ctx, env, in->a, &a))) {
                v = generic_value(u, a);
                st = push_value(ctx, &v);
            }
            break;
        case DWEXPR_OP_const_type: st = dwx_op_const_type(ctx, env, in); break;
        case DWEXPR_OP_LLVM_push_lane:
            if (!(ctx->p->ctx & DWEXPR_CTX_LANE)) {
                st = dwx_ctx_fail(ctx, DWEXPR_E_NO_CONTEXT, "no current lane is given");
                break;
            }
            v = generic_value(u, ctx->p->lane);
            st = push_value(ctx, &v);
            break;

        case DWEXPR_OP_dup: case DWEXPR_OP_drop: case DWEXPR_OP_over: case DWEXPR_OP_pick:
        case DWEXPR_OP_swap: case DWEXPR_OP_rot:
            st = dwx_op_stack(ctx, in, base);
            break;

        case DWEXPR_OP_abs: case DWEXPR_OP_neg: case DWEXPR_OP_not: case DWEXPR_OP_plus_uconst:
        case DWEXPR_OP_and: case DWEXPR_OP_div: case DWEXPR_OP_minus: case DWEXPR_OP_mod:
        case DWEXPR_OP_mul: case DWEXPR_OP_or: case DWEXPR_OP_plus: case DWEXPR_OP_shl:
        case DWEXPR_OP_shr: case DWEXPR_OP_shra: case DWEXPR_OP_xor: case DWEXPR_OP_eq:
        case DWEXPR_OP_ge: case DWEXPR_OP_gt: case DWEXPR_OP_le: case DWEXPR_OP_lt:
        case DWEXPR_OP_ne:
            st = dwx_op_arith(ctx, env, in, base);
            break;

        /* seed "Control Flow Operations": the decoder resolved each
         * target to its operation; one that is none is ill-formed when
         * the branch is taken (dwx_bad_branch). */
        case DWEXPR_OP_skip:
            if (DWX_UNLIKELY(in->a == DWX_BAD_TARGET))
                st = dwx_bad_branch(ctx, in, prog->len);
            else
                pc = (size_t)in->a;
            break;
        case DWEXPR_OP_bra:
            if (!(st = dwx_op_bra_taken(ctx, env, base, &taken)) && taken) {
                if (DWX_UNLIKELY(in->a == DWX_BAD_TARGET))
                    st = dwx_bad_branch(ctx, in, prog->len);
                else
                    pc = (size_t)in->a;
            }
            break;
        case DWEXPR_OP_nop:
        case DWEXPR_OP_GNU_uninit: break;
        case DWEXPR_OP_call2:
        case DWEXPR_OP_call4:
        case DWEXPR_OP_call_ref: st = dwx_op_call(ctx, env, in, base); break;

        /* seed "Special Value Operations" */
        case DWEXPR_OP_deref: case DWEXPR_OP_deref_size: case DWEXPR_OP_deref_type:
        case DWEXPR_OP_xderef: case DWEXPR_OP_xderef_size: case DWEXPR_OP_xderef_type:
            st = dwx_op_deref(ctx, env, in, base);
            break;
        case DWEXPR_OP_regval_type: st = dwx_op_regval_type(ctx, env, in); break;
        case DWEXPR_OP_GNU_parameter_ref: st = dwx_op_parameter_ref(ctx, env, in); break;
        case DWEXPR_OP_GNU_variable_value: st = dwx_op_variable_value(ctx, env, in); break;

        /* seed "General Location Description Operations" */
        case DWEXPR_OP_LLVM_offset:
        case DWEXPR_OP_LLVM_bit_offset:
        case DWEXPR_OP_LLVM_offset_uconst: st = dwx_op_offset(ctx, env, in, base); break;
        case DWEXPR_OP_push_object_address: st = dwx_op_push_object(ctx, env); break;
        case DWEXPR_OP_LLVM_call_frame_entry_reg:
            /* R as the caller frame sees it: its value on entry */
            if (!(st = dwx_reg_loc(ctx, env, in->a, env->frame + 1, &s)))
                st = push_sld(ctx, &s);
            break;
        case DWEXPR_OP_LLVM_undefined:
            s = sld_undefined();
            st = push_sld(ctx, &s);
            break;

        /* seed "Memory Location Description Operations" */
        case DWEXPR_OP_LLVM_form_aspace_address: st = dwx_op_form_aspace(ctx, env, base); break;
        case DWEXPR_OP_form_tls_address: st = dwx_op_form_tls(ctx, env, base); break;
        case DWEXPR_OP_LLVM_aspace_bregx: st = dwx_op_breg(ctx, env, in, base); break;

        /* seed "Implicit Location Description Operations" */
        case DWEXPR_OP_implicit_value:
            if (in->blen > ctx->lim.implicit_bytes) {
                st = dwx_ctx_fail(ctx, DWEXPR_E_TOO_BIG,
                                  "implicit value of %llu bytes exceeds the limit",
                                  (unsigned long long)in->blen);
                break;
            }
            s = sld_implicit(in->blk, 8 * in->blen);
            st = push_sld(ctx, &s);
            break;
        case DWEXPR_OP_stack_value: st = dwx_op_stack_value(ctx, env, base); break;
        case DWEXPR_OP_implicit_pointer:
        case DWEXPR_OP_LLVM_aspace_implicit_pointer:
            st = dwx_op_implicit_pointer(ctx, env, in, base);
            break;

        /* seed "Composite Location Description Operations" */
        case DWEXPR_OP_piece:
            if (in->a > UINT64_MAX / 8)
                st = dwx_ctx_fail(ctx, DWEXPR_E_TOO_BIG, "piece of %llu bytes is too large",
                                  (unsigned long long)in->a);
            else
                st = dwx_piece(ctx, env, base, 8 * in->a, false, 0);
            break;
        case DWEXPR_OP_bit_piece: st = dwx_piece(ctx, env, base, in->a, true, in->b); break;
        case DWEXPR_OP_LLVM_piece_end:
            if (!(st = need(ctx, base, 1))) {
                if (!is_incomplete(TOP(0)))
                    st = dwx_ctx_fail(ctx, DWEXPR_E_ILL_FORMED,
                                      "the top entry is not an incomplete composite location "
                                      "description");
                else
                    ((dwexpr_composite *)TOP(0)->u.one.u.comp)->complete = true;
            }
            break;
        case DWEXPR_OP_LLVM_extend: st = dwx_op_extend(ctx, env, in, base); break;
        case DWEXPR_OP_LLVM_select_bit_piece: st = dwx_op_select_bit_piece(ctx, env, in, base); break;

        /* DWARF 5 2.5.1.6 Type Conversions */
        case DWEXPR_OP_convert:
        case DWEXPR_OP_reinterpret: st = dwx_op_convert(ctx, env, in, base); break;

        default:
            st = dwx_ctx_fail(ctx, DWEXPR_E_UNKNOWN_OP, "operation %s cannot be evaluated",
                              OPNAME(in->id));
            break;
        }
        if (DWX_UNLIKELY(st != DWEXPR_OK))
            goto fail;
    }
    return DWEXPR_OK;

fail:
    return fail_at(ctx, in, st);
}

/* Reset CTX for a new evaluation, but its arena, which keeps what is in
 * it (eval_begin resets that too). */
static inline void eval_begin_keep(dwexpr_ctx *ctx, const dwexpr_target *target, void *user,
                                   const dwexpr_eval_params *params)
{
    dwx_use_target(ctx, target, user);
    ctx->err.status = DWEXPR_OK;
    ctx->err.offset = -1;
    ctx->err.opcode = -1;
    ctx->err.op_name = NULL;
    ctx->err.message[0] = 0;
    ctx->steps = 0;
    ctx->depth = 0;
    ctx->sp = 0;
    static const dwexpr_eval_params none;
    ctx->p = params ? params : &none;
}

/* Reset CTX (and its arena) for a new evaluation. */
static inline void eval_begin(dwexpr_ctx *ctx, const dwexpr_target *target, void *user,
                              const dwexpr_eval_params *params)
{
    dwx_arena_reset(ctx);
    eval_begin_keep(ctx, target, user, params);
}

/* Hand out result entry R (seed "DWARF Operation Expressions"): a single
 * place lives in the context, not on the stack. */
static inline void put_result(dwexpr_ctx *ctx, const dwx_entry *r, dwexpr_result *out)
{
    if (r->is_loc) {
        out->kind = DWEXPR_RESULT_LOCATION;
        dwx_value_clear(&out->value);
        out->loc.count = r->n;
        if (r->n == 1) {
            dwexpr_sld *slot = ctx->result_slot ? ctx->result_slot : &ctx->result_one;
            *slot = r->u.one;
            out->loc.slds = slot;
        } else {
            out->loc.slds = r->many;
        }
    } else {
        out->kind = DWEXPR_RESULT_VALUE;
        out->value = r->u.v;
        out->loc.count = 0;
        out->loc.slds = NULL;
    }
}

/* A shaped program (lib/dwx.h): its producer, then DW_OP_stack_value if
 * present, without the dispatch loop. Same operation code, same step
 * accounting and the same stack at a failure as dwx_run. */
static dwexpr_status eval_shaped(dwexpr_ctx *ctx, const dwexpr_program *prog,
                                 const dwx_env *env, dwexpr_result *out)
{
    const dwx_insn *in = prog->code;
    dwx_entry e, r;
    dwexpr_status st;
    ctx->steps = 1;
    if ((st = produce(ctx, env, in, &e)))
        return fail_at(ctx, in, st);
    if (prog->shape == DWX_SHAPE_ONE_SV) {
        in++;
        if (++ctx->steps > ctx->lim.steps)
            st = dwx_ctx_fail(ctx, DWEXPR_E_STEPS, "operation limit (%llu) reached",
                              (unsigned long long)ctx->lim.steps);
        else
            st = dwx_stack_value(ctx, env, &e);
        if (st) {
            /* the stack as DW_OP_stack_value found it */
            ctx->stack[0] = e;
            ctx->sp = 1;
            return fail_at(ctx, in, st);
        }
    }
    if (ctx->p->result_kind == 0) {
        put_result(ctx, &e, out); /* unspecified: the entry as it is */
        return DWEXPR_OK;
    }
    if ((st = finish_entry(ctx, env, ctx->p->result_kind, &e, &r))) {
        ctx->stack[0] = e; /* the stack as the loop leaves it */
        ctx->sp = 1;
        return st;
    }
    put_result(ctx, &r, out);
    return DWEXPR_OK;
}

/* Hand out, as put_result does, a location that is register REGNO of the
 * top frame at byte OFF, its place made in SLOT. */
static inline void register_result(dwexpr_sld *slot, uint32_t regno, uint64_t off,
                                   const dwexpr_eval_params *p, dwexpr_result *out)
{
    sld_register(slot, regno, p);
    slot->byte_offset = off;
    out->kind = DWEXPR_RESULT_LOCATION; /* out->value: not written (dwexpr_result) */
    out->loc.count = 1;
    out->loc.slds = slot;
}

/* The lane part's offset for LANE and factor K in a unit of N-bit
 * addresses: generic values (generic_value's truncation), their wrapping
 * product (dwx_value_binary), read as signed (dwx_signed_of of a generic
 * value). */
static inline int64_t lane_offset(uint32_t n, uint64_t lane, uint64_t k)
{
    const uint64_t m = dwx_mask(n);
    const uint64_t prod = ((lane & m) * (k & m)) & m;
    return n >= 64 ? (int64_t)prod
                   : (int64_t)((prod ^ ((uint64_t)1 << (n - 1))) - ((uint64_t)1 << (n - 1)));
}

/* DWX_SHAPE_LANE_PART: LOC; DW_OP_LLVM_push_lane; DW_OP_lit*|const* K;
 * DW_OP_mul; DW_OP_LLVM_offset, the per-lane part of a vector register
 * (design note amdgpu-and-encodings.md): LOC's place moved by the generic
 * product K * lane, as a signed byte displacement (seed "DW_OP_LLVM_offset").
 * The same operation code as the loop (produce, generic values,
 * dwx_sld_add_offset); false when the general loop must run instead: no
 * lane in the context, too few steps left, or any error (which the loop
 * then reports exactly, from the start). */
static bool lane_part(dwexpr_ctx *ctx, const dwexpr_program *prog, const dwx_env *env,
                      dwexpr_result *out)
{
    const dwx_insn *c = prog->code;
    const dwexpr_eval_params *p = ctx->p;
    /* the loop's limits: 5 steps, 3 stack entries (the place, the lane,
     * the factor) */
    if (!(p->ctx & DWEXPR_CTX_LANE) || ctx->lim.steps < 5 || ctx->lim.stack < 3)
        return false;
    dwx_entry e;
    ctx->steps = 1;
    /* a register of the top frame: produce()'s place (dwx_reg_loc) without
     * the calls, made once its offset is known */
    const bool top_reg = c[0].x == DWEXPR_OP_reg0 && env->frame == 0 && c[0].a <= UINT32_MAX;
    if (!top_reg && (produce(ctx, env, c, &e) != DWEXPR_OK || !e.is_loc || e.n != 1 ||
                     ctx->steps > ctx->lim.steps - 4))
        return false;
    ctx->steps += 4;
    const int64_t d = lane_offset(8u * env->unit.addr_size, p->lane, c[2].a);
    if (top_reg && d >= 0) {
        /* dwx_sld_add_offset of whole bytes forward from offset 0 of a
         * register: the new offset must hold a bit (fits()), i.e. lie below
         * the size reg_size tells (any size when the target cannot say) */
        if (ctx->t->reg_size) {
            uint32_t rb = 0;
            if (dwx_reg_size(ctx, ctx->p, (uint32_t)c[0].a, &rb) != DWEXPR_OK ||
                (uint64_t)d >= rb)
                return false;
        }
        if (p->result_kind == 0) {
            register_result(ctx->result_slot ? ctx->result_slot : &ctx->result_one,
                            (uint32_t)c[0].a, (uint64_t)d, p, out);
            return true;
        }
    }
    if (top_reg) {
        e.is_loc = 1;
        e.n = 1;
        e.many = NULL;
        sld_register(&e.u.one, (uint32_t)c[0].a, p);
    }
    if (top_reg && d >= 0)
        e.u.one.byte_offset = (uint64_t)d;
    else if (dwx_sld_add_offset(ctx, &e.u.one, d, 0) != DWEXPR_OK)
        return false;
    dwx_entry r;
    if (p->result_kind == 0) {
        put_result(ctx, &e, out);
    } else {
        if (finish_entry(ctx, env, p->result_kind, &e, &r) != DWEXPR_OK)
            return false;
        put_result(ctx, &r, out);
    }
    return true;
}

/* DWX_SHAPE_PIECES: a composite of DW_OP_piece parts, built in one
 * allocation without the stack. The same operation code as the loop
 * (produce, dwx_stack_value, dwx_sld_check_range) and the same step
 * accounting; the checks of dwx_piece and add_part (part count, sizes,
 * the address space bound, nesting) are made here and anything they would
 * report sends the evaluation to the loop, as does any other failure: false
 * then, and the loop reports exactly, from the start. */
static bool pieces(dwexpr_ctx *ctx, const dwexpr_program *prog, const dwx_env *env,
                   dwexpr_result *out)
{
    const dwx_insn *c = prog->code;
    const size_t n = prog->count;
    if (ctx->p->result_kind == DWEXPR_RESULT_VALUE || ctx->lim.stack < 2 || n > ctx->lim.steps)
        return false;
    /* room for N parts and places (there are at most N) */
    const size_t head = (sizeof(dwexpr_composite) + 15) & ~(size_t)15;
    const size_t psize = (sizeof(dwexpr_part) * n + 15) & ~(size_t)15;
    uint8_t *m = dwx_alloc(ctx, head + psize + sizeof(dwexpr_sld) * n);
    if (!m)
        return false;
    dwexpr_composite *comp = (dwexpr_composite *)m;
    dwexpr_part *parts = (dwexpr_part *)(m + head);
    dwexpr_sld *slds = (dwexpr_sld *)(m + head + psize);
    const uint64_t max_bits = ctx->addr_size && ctx->addr_size < 8
                                  ? ((uint64_t)1 << (8 * ctx->addr_size)) * 8
                                  : UINT64_MAX;
    uint64_t bits = 0;
    uint32_t k = 0, depth = 1;
    dwx_entry e;
    for (size_t i = 0; i < n; i++) {
        const dwx_insn *in = &c[i];
        ctx->steps++;
        dwexpr_sld *s = &slds[k];
        bool range_done = false;
        if (in->x == DWEXPR_OP_piece) {
            *s = sld_undefined();
        } else if (in->x == DWEXPR_OP_reg0 && env->frame == 0 && in->a <= UINT32_MAX) {
            /* produce()'s DW_OP_reg* in the top frame (dwx_reg_loc) and
             * the range check of its part (fits(): a register of known
             * size holds the part from offset 0) */
            sld_register(s, (uint32_t)in->a, ctx->p);
            i++;
            ctx->steps++;
            in = &c[i];
            if (in->a > UINT64_MAX / 8)
                return false;
            if (ctx->t->reg_size) {
                uint32_t rb = 0;
                if (dwx_reg_size(ctx, ctx->p, (uint32_t)s->u.regno, &rb) != DWEXPR_OK ||
                    8 * in->a > 8 * (uint64_t)rb)
                    return false;
            }
            range_done = true;
        } else {
            ctx->sp = k ? 1 : 0; /* the composite below, as in the loop */
            if (produce(ctx, env, in, &e) != DWEXPR_OK)
                return false;
            if (in[1].x == DWEXPR_OP_stack_value) {
                i++;
                ctx->steps++;
                if (dwx_stack_value(ctx, env, &e) != DWEXPR_OK)
                    return false;
            }
            i++;
            ctx->steps++;
            in = &c[i];
            if (!e.is_loc || e.n != 1)
                return false;
            *s = e.u.one;
        }
        /* dwx_piece and add_part */
        if (in->a > UINT64_MAX / 8)
            return false;
        const uint64_t nb = 8 * in->a;
        if (!range_done && s->kind != DWEXPR_LOC_UNDEFINED &&
            dwx_sld_check_range(ctx, s, nb) != DWEXPR_OK)
            return false;
        if (nb > max_bits - bits) /* too large, or past the address space */
            return false;
        if (s->kind == DWEXPR_LOC_COMPOSITE) {
            uint32_t d = s->u.comp->depth + 1;
            if (d > 64)
                return false;
            if (d > depth)
                depth = d;
        }
        parts[k].bit_size = nb;
        parts[k].loc.count = 1;
        parts[k].loc.slds = s;
        bits += nb;
        k++;
    }
    if (ctx->steps > ctx->lim.steps || k > ctx->lim.parts) /* nested evaluations count too */
        return false;
    uint32_t cap = 4; /* what new_composite and add_part's doubling give */
    while (cap < k)
        cap *= 2;
    comp->count = k;
    comp->cap = cap;
    comp->complete = true; /* the result completes it */
    comp->depth = depth;
    comp->bits = bits;
    comp->parts = parts;
    ctx->sp = 0;
    /* put_result of the composite's place */
    dwexpr_sld *slot = ctx->result_slot ? ctx->result_slot : &ctx->result_one;
    dwx_sld_clear(slot);
    slot->kind = DWEXPR_LOC_COMPOSITE;
    slot->u.comp = comp;
    out->kind = DWEXPR_RESULT_LOCATION;
    dwx_value_clear(&out->value);
    out->loc.count = 1;
    out->loc.slds = slot;
    return true;
}

/* Evaluate PROG on the prepared CTX and hand out the result. */
static inline dwexpr_status eval_program(dwexpr_ctx *ctx, const dwexpr_program *prog,
                                  dwexpr_result *out)
{
    dwx_env env;
    env.unit = prog->unit;
    ctx->addr_size = env.unit.addr_size;
    env.frame = ctx->p->frame;
    env.has_pc = ctx->p->has_pc;
    env.pc = ctx->p->pc;
    env.object = ctx->p->object;

    if (prog->shape && ctx->p->initial_count == 0 && !ctx->p->trace) {
        if (prog->shape == DWX_SHAPE_LANE_PART || prog->shape == DWX_SHAPE_PIECES) {
            if (prog->shape == DWX_SHAPE_PIECES ? pieces(ctx, prog, &env, out)
                                                : lane_part(ctx, prog, &env, out))
                return DWEXPR_OK;
            /* not the common case, or an error: the loop, from the start */
            ctx->err.status = DWEXPR_OK;
            ctx->err.offset = -1;
            ctx->err.opcode = -1;
            ctx->err.op_name = NULL;
            ctx->err.message[0] = 0;
            ctx->steps = 0;
            ctx->depth = 0;
            ctx->sp = 0;
        } else {
            dwexpr_status sst = eval_shaped(ctx, prog, &env, out);
            if (sst)
                memset(out, 0, sizeof *out);
            return sst;
        }
    }

    memset(out, 0, sizeof *out);
    dwexpr_status st;
    /* seed "DWARF Operation Expressions": the initial stack is pushed in
     * the order given. */
    for (size_t i = 0; i < ctx->p->initial_count; i++) {
        const dwexpr_loc *l = ctx->p->initial_locs ? &ctx->p->initial_locs[i] : NULL;
        if (l && l->count > 0) {
            dwx_entry e;
            e.is_loc = 1;
            e.n = l->count;
            e.many = (dwexpr_sld *)(uintptr_t)l->slds;
            if (e.n == 1)
                e.u.one = l->slds[0];
            st = push(ctx, &e);
        } else if (ctx->p->initial_values) {
            dwexpr_value v = ctx->p->initial_values[i];
            if (v.type.bits == 0)
                v.type = dwx_generic_type(&env.unit);
            if (v.type.lanes == 0)
                v.type.lanes = 1;
            st = push_value(ctx, &v);
        } else {
            st = dwx_ctx_fail(ctx, DWEXPR_E_USAGE, "initial stack entry %zu is empty", i);
        }
        if (st)
            return st;
    }

    if ((st = dwx_run(ctx, prog, &env, 0, NULL)))
        return st;
    dwx_entry r;
    if ((st = finish(ctx, 0, &env, ctx->p->result_kind, &r)))
        return st;
    put_result(ctx, &r, out);
    return DWEXPR_OK;
}

/* dwexpr_eval's general entry: reset, then the shaped path or the loop. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static dwexpr_status eval_general(dwexpr_ctx *ctx, const dwexpr_program *prog,
                                  const dwexpr_target *target, void *user,
                                  const dwexpr_eval_params *params, dwexpr_result *out)
{
    eval_begin(ctx, target, user, params);
    return eval_program(ctx, prog, out);
}

/* DW_OP_reg* / DW_OP_regx alone (DWX_SHAPE_REG) in the top frame, no
 * initial stack, no trace, no value wanted, a current-size target: the
 * register's location is the result (a location converts to itself).
 * reg_direct() hands out what eval_begin, produce() and finish give,
 * without a call; dwexpr_eval and dwexpr_eval_bytes use it. */
static inline bool reg_direct_ok(const dwexpr_target *target, const dwexpr_eval_params *p)
{
    return target && target->size >= sizeof(dwexpr_target) && p->frame == 0 &&
           p->initial_count == 0 && !p->trace && p->result_kind != DWEXPR_RESULT_VALUE;
}

static inline void reg_direct(dwexpr_ctx *ctx, const dwexpr_eval_params *p, uint32_t regno,
                              dwexpr_result *out)
{
    /* nothing is allocated or asked: only what an evaluation leaves
     * (dwexpr_ctx_error reads a status of OK as no failure) */
    ctx->err.status = DWEXPR_OK;
    ctx->sp = 0;
    ctx->steps = 1;
    register_result(&ctx->result_one, regno, 0, p, out);
}

/* DWX_SHAPE_ONE / DWX_SHAPE_ONE_SV when reg_direct_ok holds and the
 * result kind is unspecified: eval_general's set-up and eval_shaped
 * without the layers between them. False (nothing handed out) when
 * anything fails or the step limit is below 2: eval_general then runs
 * from the start and reports exactly. */
static inline void direct_begin(dwexpr_ctx *ctx, const dwexpr_target *target, void *user,
                                const dwexpr_eval_params *p)
{
    dwx_arena_reset(ctx);
    ctx->t = target;
    ctx->user = user;
    ctx->p = p;
    /* only the status of the error record: a shortcut that meets a failure
     * declines, and the general path resets the whole record */
    ctx->err.status = DWEXPR_OK;
    ctx->depth = 0;
    ctx->sp = 0;
    ctx->steps = 0;
}

#if defined(__GNUC__)
__attribute__((noinline))
#endif
static bool one_direct(dwexpr_ctx *ctx, const dwexpr_program *prog, const dwexpr_target *target,
                       void *user, const dwexpr_eval_params *p, dwexpr_result *out)
{
    if (ctx->lim.steps < 2)
        return false;
    direct_begin(ctx, target, user, p);
    ctx->steps = 1;
    dwx_env env;
    env.unit = prog->unit;
    ctx->addr_size = env.unit.addr_size;
    env.frame = 0;
    env.has_pc = p->has_pc;
    env.pc = p->pc;
    env.object = p->object;
    dwx_entry e;
    if (produce(ctx, &env, prog->code, &e) != DWEXPR_OK)
        return false;
    if (prog->shape == DWX_SHAPE_ONE_SV) {
        /* the producer's nested evaluations (frame base, entry value)
         * counted their steps too */
        if (++ctx->steps > ctx->lim.steps || dwx_stack_value(ctx, &env, &e) != DWEXPR_OK)
            return false;
    }
    put_result(ctx, &e, out);
    return true;
}

/* DWX_SHAPE_PIECES under the same conditions as one_direct. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static bool pieces_direct(dwexpr_ctx *ctx, const dwexpr_program *prog,
                          const dwexpr_target *target, void *user, const dwexpr_eval_params *p,
                          dwexpr_result *out)
{
    direct_begin(ctx, target, user, p);
    dwx_env env;
    env.unit = prog->unit;
    ctx->addr_size = env.unit.addr_size;
    env.frame = 0;
    env.has_pc = p->has_pc;
    env.pc = p->pc;
    env.object = p->object;
    return pieces(ctx, prog, &env, out);
}

/* The shaped programs one_direct and pieces_direct answer. */
static inline bool shaped_direct(dwexpr_ctx *ctx, const dwexpr_program *prog,
                                 const dwexpr_target *target, void *user,
                                 const dwexpr_eval_params *p, dwexpr_result *out)
{
    if (prog->shape == DWX_SHAPE_ONE || prog->shape == DWX_SHAPE_ONE_SV)
        return one_direct(ctx, prog, target, user, p, out);
    if (prog->shape == DWX_SHAPE_PIECES)
        return pieces_direct(ctx, prog, target, user, p, out);
    return false;
}

/* dwexpr_eval_bytes of a short expression of the commonest operations:
 * the quick decode (the insns dwx_decode_checked gives) and a shaped
 * answer. False when the expression, the unit, the target or the
 * parameters are anything else, or on any failure: the general path then
 * runs from the start. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static bool eval_bytes_small(dwexpr_ctx *ctx, const uint8_t *bytes, size_t len,
                             const dwexpr_unit *unit, const dwexpr_target *target, void *user,
                             const dwexpr_eval_params *p, dwexpr_result *out)
{
    if (unit->big_endian || !dwx_unit_fine(unit) || !reg_direct_ok(target, p) || p->result_kind != 0)
        return false;
    size_t n = dwx_decode_small(bytes, len, ctx->small_code);
    if (!n)
        return false;
    dwexpr_program prog;
    prog.unit = dwx_unit_normalize(unit);
    prog.count = n;
    prog.code = ctx->small_code;
    prog.bytes = bytes;
    prog.len = len;
    prog.heap = false;
    prog.bad_branch = false; /* dwx_decode_small takes no branch */
    prog.shape = dwx_program_shape(&prog);
    return shaped_direct(ctx, &prog, target, user, p, out);
}

static const dwexpr_eval_params no_params;

/* The conditions of the fast path (lib/fast.c) on the target and the
 * parameters: a current-size target, the top frame, no initial stack, no
 * trace, the result kind unspecified (the fast path checks the target's
 * default address space itself: dwx_default_space_plain). */
static inline bool fast_ok(const dwexpr_target *t, const dwexpr_eval_params *p)
{
    return t && t->size >= sizeof(dwexpr_target) &&
           (p->frame | p->initial_count | (uint64_t)p->result_kind | (p->trace != NULL)) == 0;
}

/* dwexpr_eval of anything but DW_OP_reg* alone (out of line, so that the
 * DW_OP_reg* path keeps a small frame): a shaped path, else the general one. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static dwexpr_status eval_other(dwexpr_ctx *ctx, const dwexpr_program *prog,
                                const dwexpr_target *target, void *user,
                                const dwexpr_eval_params *p, dwexpr_result *out)
{
    /* a shape (targets with address spaces, declined fast paths), else
     * the loop */
    if (prog->shape != DWX_SHAPE_GENERAL && reg_direct_ok(target, p) && p->result_kind == 0 &&
        shaped_direct(ctx, prog, target, user, p, out))
        return DWEXPR_OK;
    return eval_general(ctx, prog, target, user, p, out);
}

/* See lib/evalint.h. */
dwexpr_status dwx_eval_other(dwexpr_ctx *ctx, const dwexpr_program *prog, dwexpr_result *out)
{
    return eval_other(ctx, prog, ctx->t, ctx->user, ctx->p, out);
}

/* Every register part of F inside its register, by the target's reg_size
 * (in eval_guarded, out of line: dwexpr_eval's folded path stays a leaf). */
static DWX_ALWAYS_INLINE bool fold_guards_hold(dwexpr_ctx *ctx, const dwx_folded *f,
                                               const dwexpr_target *t, void *user)
{
    for (uint32_t i = 0; i < f->nguards; i++) {
        uint32_t b = 0;
        if (dwx_target_reg_size(ctx, t, user, f->guard[i].regno, &b) != DWEXPR_OK ||
            f->guard[i].bits > 8 * (uint64_t)b)
            return false;
    }
    return true;
}

/* See lib/evalint.h. */
dwexpr_status dwx_target_reg_size_miss(dwexpr_ctx *ctx, const dwexpr_target *t, void *user,
                                       uint32_t r, uint32_t *bytes)
{
    const dwexpr_status st = t->reg_size(user, r, bytes);
    if (st == DWEXPR_OK && r < 64 && (t->flags & DWEXPR_TARGET_REG_SIZES_FIXED)) {
        if (ctx->reg_fn != t->reg_size) {
            ctx->reg_fn = t->reg_size; /* another register file: forget the last one's */
            ctx->reg_known = 0;
            ctx->reg_have = 0;
        }
        ctx->reg_bytes[r] = *bytes;
        ctx->reg_known |= (uint64_t)1 << r;
        if (r < 32 && *bytes >= 8)
            ctx->reg_have |= DWX_REQ_REG8(r);
    }
    return st;
}

/* See lib/evalint.h. */
dwexpr_status dwx_bound_reg_size_ask(dwexpr_ctx *ctx, uint32_t r, uint32_t *bytes)
{
    const dwexpr_status st = dwx_target_reg_size(ctx, ctx->bind.t, ctx->bind.user, r, bytes);
    if (st == DWEXPR_OK && r < 32) {
        ctx->bind.reg_bytes[r] = *bytes;
        ctx->bind.reg_known |= (uint32_t)1 << r;
        if (*bytes >= 8)
            ctx->bind.have |= DWX_REQ_REG8(r); /* what guarded folds need */
    }
    return st;
}

/* fold_guards_hold for a bound evaluation: the binding remembers the
 * target's reg_size answers for registers 0..31 (dwexpr_ctx_bind: a
 * register's size is the target's, the same for the whole binding). */
static bool bound_guards_hold(dwexpr_ctx *ctx, const dwx_folded *f)
{
    if (!ctx->bind.t->reg_size)
        return true; /* sizes the target cannot tell (fold_usable) */
    for (uint32_t i = 0; i < f->nguards; i++) {
        uint32_t b = 0;
        if (dwx_bound_reg_size(ctx, f->guard[i].regno, &b) != DWEXPR_OK ||
            f->guard[i].bits > 8 * (uint64_t)b)
            return false;
    }
    return true;
}

/* The parameters a folded result was computed for (lib/fold.c): the
 * defaults, but for the lane and what only the general path reads (no
 * thread recorded in register places). */
static inline bool params_foldable(const dwexpr_eval_params *p)
{
    return (p->frame | p->initial_count | (uint64_t)p->result_kind | p->thread |
            (p->ctx & (DWEXPR_CTX_THREAD | DWEXPR_CTX_FRAME)) | (p->trace != NULL)) == 0;
}

/* Whether every register part of fold F is in a register that T (a
 * current-size target) has said, under DWEXPR_TARGET_REG_SIZES_FIXED,
 * holds 8 bytes or more (the context's memory: dwx_target_reg_size_miss),
 * with what else F needs of an unbound evaluation (ctx->fold_have). */
static inline bool fold_regs_known(const dwexpr_ctx *ctx, const dwx_folded *f,
                                   const dwexpr_target *t)
{
    return t->reg_size == ctx->reg_fn && (t->flags & DWEXPR_TARGET_REG_SIZES_FIXED) &&
           !(f->req & ~(ctx->fold_have | ctx->reg_have));
}

/* Whether PROG's folded result may stand for this evaluation (lib/fold.c):
 * a current-size target whose default address space is the plain one
 * (dwx_default_space_plain), default parameters (no thread recorded in
 * register places), limits and scratch the program fits in, and every
 * register part inside its register. */
static inline bool fold_usable(dwexpr_ctx *ctx, const dwexpr_program *prog,
                               const dwexpr_target *t, void *user, const dwexpr_eval_params *p)
{
    const dwx_folded *f = prog->fold;
    if (f->need > ctx->fold_room || !t || t->size < sizeof(dwexpr_target) ||
        !dwx_default_space_plain(ctx, t, user, p, prog->unit.addr_size))
        return false;
    if (p && !params_foldable(p))
        return false;
    return f->nguards == 0 || !t->reg_size || fold_regs_known(ctx, f, t) ||
           fold_guards_hold(ctx, f, t, user);
}

/* Leave CTX as an evaluation whose result is fold F leaves it. */
static inline dwexpr_status fold_done(dwexpr_ctx *ctx, const dwx_folded *f)
{
    ctx->err.status = DWEXPR_OK; /* what an evaluation leaves (dwexpr_ctx_error) */
    ctx->sp = 0;
    ctx->steps = f->need; /* straight-line: one step per operation */
    return DWEXPR_OK;
}

/* Hand out folded result F (see fold_usable): a location without its
 * unused value half (dwexpr_result leaves it unspecified: 12 stores of
 * the 88-byte copy saved on every folded location). */
static inline dwexpr_status use_fold(dwexpr_ctx *ctx, const dwx_folded *f, dwexpr_result *out)
{
    if (f->kind == DWEXPR_RESULT_LOCATION) {
        out->kind = DWEXPR_RESULT_LOCATION;
        out->loc = f->loc;
    } else {
        *out = f->res;
    }
    return fold_done(ctx, f);
}

/* dwexpr_eval but a folded result, for FAST = fast_ok(target, p):
 * DW_OP_reg* alone, else the rest. */
static DWX_ALWAYS_INLINE dwexpr_status unfolded(dwexpr_ctx *ctx, const dwexpr_program *prog,
                                     const dwexpr_target *target, void *user,
                                     const dwexpr_eval_params *p, bool fast, dwexpr_result *out)
{
    if (fast) {
        /* DW_OP_reg* alone; the fast path (a producer alone or with
         * stack_value from its decoded operation, else one pass over the
         * bytes) */
        if (prog->shape == DWX_SHAPE_REG) {
            reg_direct(ctx, p, (uint32_t)prog->code[0].a, out);
            return DWEXPR_OK;
        }
        if (prog->fast) {
            direct_begin(ctx, target, user, p);
            return dwx_fast_prog(ctx, prog, out); /* a jump */
        }
    } else if (prog->shape == DWX_SHAPE_REG && reg_direct_ok(target, p)) {
        reg_direct(ctx, p, (uint32_t)prog->code[0].a, out);
        return DWEXPR_OK;
    }
    return eval_other(ctx, prog, target, user, p, out);
}

#if defined(__GNUC__)
__attribute__((noinline))
#endif
static dwexpr_status eval_unfolded(dwexpr_ctx *ctx, const dwexpr_program *prog,
                                   const dwexpr_target *target, void *user,
                                   const dwexpr_eval_params *params, dwexpr_result *out)
{
    if (!ctx || !prog || !out)
        return DWEXPR_E_USAGE;
    const dwexpr_eval_params *p = params ? params : &no_params;
    return unfolded(ctx, prog, target, user, p, fast_ok(target, p), out);
}

/* dwexpr_eval of a producer alone or with DW_OP_stack_value: the fast
 * path from the decoded producer (dwx_fast_prog), else the rest. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static dwexpr_status eval_one(dwexpr_ctx *ctx, const dwexpr_program *prog,
                              const dwexpr_target *target, void *user,
                              const dwexpr_eval_params *params, dwexpr_result *out)
{
    const dwexpr_eval_params *p = params ? params : &no_params;
    if (prog->fast && fast_ok(target, p)) {
        direct_begin(ctx, target, user, p);
        return dwx_fast_one(ctx, prog, out); /* a jump */
    }
    return eval_other(ctx, prog, target, user, p, out); /* the shape, else the loop */
}

/* dwexpr_eval of a folded result with register parts or for a target
 * with address-space facts: the guards and space 0, else the rest. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static dwexpr_status eval_guarded(dwexpr_ctx *ctx, const dwexpr_program *prog,
                                  const dwexpr_target *target, void *user,
                                  const dwexpr_eval_params *params, dwexpr_result *out)
{
    /* dwexpr_eval's test, with the registers a target of fixed register
     * sizes has said hold 8 bytes (the size checked before any field
     * past it is read) */
    const dwx_folded *f = prog->fold;
    if (target && target->size >= sizeof(dwexpr_target) && !target->aspace_info &&
        fold_regs_known(ctx, f, target) && (!params || params_foldable(params)))
        return use_fold(ctx, f, out);
    if (fold_usable(ctx, prog, target, user, params))
        return use_fold(ctx, prog->fold, out);
    return eval_unfolded(ctx, prog, target, user, params, out);
}

dwexpr_status dwexpr_eval(dwexpr_ctx *ctx, const dwexpr_program *prog, const dwexpr_target *target,
                          void *user, const dwexpr_eval_params *params, dwexpr_result *out)
{
    /* a folded result without register parts to check (what the fold
     * needs, the context gives: dwx_folded.req), for a target without
     * address-space facts and parameters a fold stands for: no call at
     * all; with parts to check (their reg_size calls) or space 0 to ask
     * about, fold_usable's exact checks out of line */
    const dwx_folded *f;
    if (ctx && prog && out && (f = prog->fold)) {
        if (!(f->req & ~ctx->fold_have) && target && target->size >= sizeof(dwexpr_target) &&
            !target->aspace_info && (!params || params_foldable(params)))
            return use_fold(ctx, f, out);
        return eval_guarded(ctx, prog, target, user, params, out);
    } else if (ctx && prog && out &&
               (prog->shape == DWX_SHAPE_ONE || prog->shape == DWX_SHAPE_ONE_SV)) {
        return eval_one(ctx, prog, target, user, params, out);
    }
    return eval_unfolded(ctx, prog, target, user, params, out);
}


/* dwexpr_eval_bytes's general entry: decode into the context, evaluate. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static dwexpr_status eval_bytes_general(dwexpr_ctx *ctx, const uint8_t *bytes, size_t len,
                                        const dwexpr_unit *unit, const dwexpr_target *target,
                                        void *user, const dwexpr_eval_params *params,
                                        dwexpr_result *out)
{
    /* Short expressions that can have a shape answered directly: up to
     * 4 bytes (a producer, with stack_value), or ending in DW_OP_piece N
     * (N < 128); see eval_bytes_small. */
    if (len - 1 < DWX_SMALL_PROGRAM - 1 && (len <= 4 || bytes[len - 2] == DWX_CODE_piece) &&
        eval_bytes_small(ctx, bytes, len, unit, target, user, params, out))
        return DWEXPR_OK;
    eval_begin(ctx, target, user, params);
    dwexpr_program prog;
    const dwexpr_status st = dwx_decode_oneshot(ctx, bytes, len, unit, &prog);
    if (st)
        return st;
    return eval_program(ctx, &prog, out);
}

/* See lib/evalint.h. */
dwexpr_status dwx_eval_oneshot_decoded(dwexpr_ctx *ctx, const dwexpr_program *prog,
                                       dwexpr_result *out)
{
    eval_begin_keep(ctx, ctx->t, ctx->user, ctx->p);
    return eval_program(ctx, prog, out);
}

/* See lib/evalint.h. */
dwexpr_status dwx_decode_oneshot(dwexpr_ctx *ctx, const uint8_t *bytes, size_t len,
                                 const dwexpr_unit *unit, dwexpr_program *prog)
{
    const dwexpr_unit u = dwx_unit_normalize(unit);
    dwx_insn *insns;
    if (len < DWX_SMALL_PROGRAM) {
        insns = ctx->small_code;
    } else {
        insns = dwx_alloc(ctx, sizeof(dwx_insn) * (len + 1));
        if (!insns)
            return dwx_ctx_fail(ctx, DWEXPR_E_NOSPACE, "out of scratch memory");
    }
    if (dwx_unit_fine(&u) && len <= UINT32_MAX)
        return dwx_decode_checked(bytes, len, &u, insns, dwx_alloc_cb, ctx, prog, &ctx->err);
    /* dwx_decode reports what is wrong */
    return dwx_decode(bytes, len, &u, insns, NULL, dwx_alloc_cb, ctx, prog, &ctx->err);
}


/* dwexpr_eval_bytes of anything but a lone DW_OP_reg0..31 byte, for
 * FAST = fast_ok(target, p): the fast path (lib/fast.c) when its
 * conditions hold, else (or when it declines) the general one. */
static DWX_ALWAYS_INLINE dwexpr_status bytes_rest(dwexpr_ctx *ctx, const uint8_t *bytes,
                                                  size_t len, const dwexpr_unit *unit,
                                                  const dwexpr_target *target, void *user,
                                                  const dwexpr_eval_params *p, bool fast,
                                                  dwexpr_result *out)
{
    if (DWX_HOST_LITTLE && fast && dwx_unit_fine(unit) && !unit->big_endian && len <= UINT32_MAX) {
        direct_begin(ctx, target, user, p);
        return dwx_fast_eval_bytes(ctx, bytes, len, unit, out); /* a jump */
    }
    return eval_bytes_general(ctx, bytes, len, unit, target, user, p, out);
}

/* See lib/evalint.h. */
dwexpr_status dwx_eval_bytes_general(dwexpr_ctx *ctx, const uint8_t *bytes, size_t len,
                                     const dwexpr_unit *unit, dwexpr_result *out)
{
    return eval_bytes_general(ctx, bytes, len, unit, ctx->t, ctx->user, ctx->p, out);
}

/* bytes_rest out of line, so that the DW_OP_reg* path saves no registers. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static dwexpr_status eval_bytes_rest(dwexpr_ctx *ctx, const uint8_t *bytes, size_t len,
                                     const dwexpr_unit *unit, const dwexpr_target *target,
                                     void *user, const dwexpr_eval_params *p,
                                     dwexpr_result *out)
{
    return bytes_rest(ctx, bytes, len, unit, target, user, p, fast_ok(target, p), out);
}

dwexpr_status dwexpr_eval_bytes(dwexpr_ctx *ctx, const uint8_t *bytes, size_t len,
                                const dwexpr_unit *unit, const dwexpr_target *target, void *user,
                                const dwexpr_eval_params *params, dwexpr_result *out)
{
    if (!ctx || (!bytes && len) || !unit || !out)
        return DWEXPR_E_USAGE;
    const dwexpr_eval_params *p = params ? params : &no_params;
    /* A single DW_OP_reg0..31 byte decodes to DWX_SHAPE_REG: answered
     * from the byte (the opcodes come from the DWEXPR_OPS table). */
    if (len == 1 && bytes[0] >= DWX_CODE_reg0 && bytes[0] <= DWX_CODE_reg31 && dwx_unit_fine(unit) &&
        reg_direct_ok(target, p)) {
        reg_direct(ctx, p, (uint32_t)(bytes[0] - DWX_CODE_reg0), out);
        return DWEXPR_OK;
    }
    return eval_bytes_rest(ctx, bytes, len, unit, target, user, p, out);
}

/* ---- bound evaluation: one frame, many expressions ---- */

dwexpr_status dwexpr_ctx_bind(dwexpr_ctx *ctx, const dwexpr_target *target, void *user,
                              const dwexpr_eval_params *params)
{
    if (!ctx)
        return DWEXPR_E_USAGE;
    memset(&ctx->bind, 0, sizeof ctx->bind);
    ctx->bind.t = dwx_target_in_place(target, &ctx->bind.t_copy);
    ctx->bind.user = user;
    if (params)
        ctx->bind.p = *params;
    const dwexpr_target *t = ctx->bind.t;
    /* the default address space, asked once (dwx_default_space_plain) */
    ctx->bind.plain = (uint16_t)(t->aspace_info ? dwx_default_space_sizes(t, user)
                                                : DWX_ADDR_SIZES);
    ctx->bind.fold = params_foldable(&ctx->bind.p) ? ctx->bind.plain : 0;
    /* a fold's needs (dwx_folded.req), as far as they are known now */
    ctx->bind.have = ctx->bind.fold | (ctx->fold_have & DWX_REQ_ROOM) |
                     (t->reg_size ? 0 : DWX_REQ_REGS8);
    ctx->bind.reg_direct = reg_direct_ok(t, &ctx->bind.p);
    ctx->bind.fast = fast_ok(t, &ctx->bind.p);
    return DWEXPR_OK;
}

/* The rest of dwexpr_eval_bound: usage errors, folds with guards or
 * limits to check, and what dwexpr_eval does with an unfolded program,
 * with the binding (its parameters are the binding's copy, so the helpers
 * take the default space's answer from the binding). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static dwexpr_status eval_bound_rest(dwexpr_ctx *ctx, const dwexpr_program *prog,
                                     dwexpr_result *out)
{
    if (!ctx || !prog || !out)
        return DWEXPR_E_USAGE;
    const dwexpr_target *t = ctx->bind.t;
    if (!t)
        return dwx_ctx_fail(ctx, DWEXPR_E_USAGE,
                            "the context is not bound to a target (dwexpr_ctx_bind)");
    /* a fold with guards (fold_usable with the binding's answers), else
     * what dwexpr_eval does with an unfolded program */
    const dwx_folded *f = prog->fold;
    if (f && ((ctx->bind.fold >> prog->unit.addr_size) & 1) && f->need <= ctx->fold_room &&
        (f->nguards == 0 || bound_guards_hold(ctx, f)))
        return use_fold(ctx, f, out);
    return unfolded(ctx, prog, t, ctx->bind.user, &ctx->bind.p, ctx->bind.fast, out);
}

/* dwexpr_eval_bound of an unfolded program the fast path may take, under
 * the binding's fast conditions: unfolded()'s fast branch (a producer
 * alone or with DW_OP_stack_value from its decoded operation, anything
 * else in one pass over the bytes; DW_OP_reg* alone directly), written
 * out because the caller has checked prog->fast already (calling
 * unfolded() here costs 2 instructions per evaluation more). */
static DWX_ALWAYS_INLINE dwexpr_status bound_fast(dwexpr_ctx *ctx, const dwexpr_program *prog,
                                                 dwexpr_result *out)
{
    const dwexpr_eval_params *p = &ctx->bind.p;
    if (prog->shape == DWX_SHAPE_REG) {
        reg_direct(ctx, p, (uint32_t)prog->code[0].a, out);
        return DWEXPR_OK;
    }
    direct_begin(ctx, ctx->bind.t, ctx->bind.user, p);
    if (prog->one)
        return dwx_fast_one(ctx, prog, out);
    return dwx_fast_prog(ctx, prog, out); /* a jump, where the caller allows it */
}

#if defined(__GNUC__)
__attribute__((noinline))
#endif
static dwexpr_status eval_bound_fast(dwexpr_ctx *ctx, const dwexpr_program *prog,
                                     dwexpr_result *out)
{
    return bound_fast(ctx, prog, out);
}

dwexpr_status dwexpr_eval_bound(dwexpr_ctx *ctx, const dwexpr_program *prog, dwexpr_result *out)
{
    /* fold_usable with the binding's answers: what the fold needs, the
     * binding has (dwx_folded.req; else eval_bound_rest checks exactly) */
    const dwx_folded *f;
    if (ctx && prog && out) {
        if ((f = prog->fold)) {
            if (!(f->req & ~ctx->bind.have))
                return use_fold(ctx, f, out);
        } else if (ctx->bind.fast && prog->fast) {
            return eval_bound_fast(ctx, prog, out); /* bind.fast: bound */
        }
    }
    return eval_bound_rest(ctx, prog, out);
}

/* dwexpr_eval_bound_ref but a fold the binding has what it needs for and
 * the fast path: dwexpr_eval_bound into the context's result. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static dwexpr_status eval_bound_ref_rest(dwexpr_ctx *ctx, const dwexpr_program *prog,
                                         const dwexpr_result **out)
{
    if (!out)
        return ctx ? dwx_ctx_fail(ctx, DWEXPR_E_USAGE, "no place for the result (out)")
                   : DWEXPR_E_USAGE;
    *out = NULL;
    if (!ctx)
        return DWEXPR_E_USAGE;
    if (!prog)
        return dwx_ctx_fail(ctx, DWEXPR_E_USAGE, "no program to evaluate");
    const dwexpr_status st = dwexpr_eval_bound(ctx, prog, &ctx->result);
    if (st == DWEXPR_OK)
        *out = &ctx->result;
    return st;
}

/* dwexpr_eval_bound_ref on the fast path (eval_bound_fast's conditions
 * hold), out of line: the fold's path saves no registers. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static dwexpr_status eval_bound_ref_fast(dwexpr_ctx *ctx, const dwexpr_program *prog,
                                         const dwexpr_result **out)
{
    const dwexpr_status st = bound_fast(ctx, prog, &ctx->result);
    *out = st == DWEXPR_OK ? &ctx->result : NULL;
    return st;
}

dwexpr_status dwexpr_eval_bound_ref(dwexpr_ctx *ctx, const dwexpr_program *prog,
                                    const dwexpr_result **out)
{
    /* dwexpr_eval_bound's two quick cases: the fold, handed out where it
     * is; the fast path, into the context's result */
    const dwx_folded *f;
    if (ctx && prog && out) {
        if ((f = prog->fold)) {
            if (!(f->req & ~ctx->bind.have)) {
                *out = &f->res;
                return fold_done(ctx, f);
            }
        } else if (ctx->bind.fast && prog->fast) {
            return eval_bound_ref_fast(ctx, prog, out);
        }
    }
    return eval_bound_ref_rest(ctx, prog, out);
}

#if defined(__GNUC__)
__attribute__((noinline))
#endif
static dwexpr_status eval_bytes_bound_rest(dwexpr_ctx *ctx, const uint8_t *bytes, size_t len,
                                           const dwexpr_unit *unit, dwexpr_result *out)
{
    if (!ctx || (!bytes && len) || !unit || !out)
        return DWEXPR_E_USAGE;
    if (!ctx->bind.t)
        return dwx_ctx_fail(ctx, DWEXPR_E_USAGE,
                            "the context is not bound to a target (dwexpr_ctx_bind)");
    return bytes_rest(ctx, bytes, len, unit, ctx->bind.t, ctx->bind.user, &ctx->bind.p,
                      ctx->bind.fast, out);
}

dwexpr_status dwexpr_eval_bytes_bound(dwexpr_ctx *ctx, const uint8_t *bytes, size_t len,
                                      const dwexpr_unit *unit, dwexpr_result *out)
{
    /* dwexpr_eval_bytes's lone DW_OP_reg0..31 byte, reg_direct_ok from the binding */
    if (ctx && len == 1 && bytes && unit && out && bytes[0] >= DWX_CODE_reg0 &&
        bytes[0] <= DWX_CODE_reg31 && ctx->bind.reg_direct && dwx_unit_fine(unit)) {
        reg_direct(ctx, &ctx->bind.p, (uint32_t)(bytes[0] - DWX_CODE_reg0), out);
        return DWEXPR_OK;
    }
    return eval_bytes_bound_rest(ctx, bytes, len, unit, out);
}

/* dwexpr_eval_lanes of the lane part of a top-frame register with the
 * result kind unspecified (lane_part's direct case for every lane): the
 * lane-invariant work once (the checks, the factor, the register's size:
 * reg_size is asked of a register, not of a lane), then per lane the
 * offset, its range check and the place in the lane's slot. Returns the
 * first lane it did not answer (COUNT when it answered all; 0 when the
 * program or the parameters are anything else): the caller goes on from
 * there lane by lane. */
static uint32_t lane_batch(dwexpr_ctx *ctx, const dwexpr_program *prog, const dwx_env *env,
                           uint32_t lane_first, uint32_t count, uint64_t exec_mask,
                           dwexpr_sld *places, dwexpr_result *results, dwexpr_status *statuses)
{
    const dwx_insn *c = prog->code;
    const dwexpr_eval_params *p = ctx->p;
    if (c[0].x != DWEXPR_OP_reg0 || env->frame != 0 || c[0].a > UINT32_MAX ||
        p->result_kind != 0 || ctx->lim.steps < 5 || ctx->lim.stack < 3)
        return 0;
    const uint32_t regno = (uint32_t)c[0].a;
    uint64_t size = UINT64_MAX; /* any offset when the target cannot say */
    if (ctx->t->reg_size) {
        uint32_t rb = 0;
        if (dwx_target_reg_size(ctx, ctx->t, ctx->user, regno, &rb) != DWEXPR_OK)
            return 0;
        size = rb;
    }
    const uint32_t n = 8u * env->unit.addr_size;
    for (uint32_t i = 0; i < count; i++) {
        if (!((exec_mask >> i) & 1)) {
            memset(&results[i], 0, sizeof results[i]);
            statuses[i] = DWEXPR_E_NO_CONTEXT;
            continue;
        }
        const int64_t d = lane_offset(n, (uint32_t)(lane_first + i), c[2].a);
        if (d < 0 || (uint64_t)d >= size)
            return i; /* lane_part and the loop decide */
        register_result(&places[i], regno, (uint64_t)d, p, &results[i]);
        statuses[i] = DWEXPR_OK;
    }
    return count;
}

dwexpr_status dwexpr_eval_lanes(dwexpr_ctx *ctx, const dwexpr_program *prog,
                                const dwexpr_target *target, void *user,
                                const dwexpr_eval_params *params, uint32_t lane_first,
                                uint32_t count, uint64_t exec_mask, dwexpr_result *results,
                                dwexpr_status *statuses)
{
    if (!ctx || !prog || (count && (!results || !statuses)) || count > 64)
        return DWEXPR_E_USAGE;
    dwexpr_eval_params lp = params ? *params : no_params;
    lp.ctx = (uint16_t)(lp.ctx | DWEXPR_CTX_LANE);
    eval_begin(ctx, target, user, &lp); /* resets the arena once for the batch */
    /* each lane's single place gets its own slot (the context has one) */
    dwexpr_sld *places = dwx_alloc(ctx, sizeof(dwexpr_sld) * (count ? count : 1));
    if (!places)
        return dwx_ctx_fail(ctx, DWEXPR_E_NOSPACE, "out of scratch memory");
    dwexpr_status first = DWEXPR_OK;
    dwexpr_error first_err;
    memset(&first_err, 0, sizeof first_err);
    /* what eval_program would set up for every lane, once */
    dwx_env env;
    env.unit = prog->unit;
    env.frame = lp.frame;
    env.has_pc = lp.has_pc;
    env.pc = lp.pc;
    env.object = lp.object;
    ctx->addr_size = env.unit.addr_size;
    const bool direct =
        prog->shape == DWX_SHAPE_LANE_PART && lp.initial_count == 0 && !lp.trace;
    const uint32_t done =
        direct ? lane_batch(ctx, prog, &env, lane_first, count, exec_mask, places, results,
                            statuses)
               : 0;
    for (uint32_t i = done; i < count; i++) {
        if (!((exec_mask >> i) & 1)) {
            memset(&results[i], 0, sizeof results[i]);
            statuses[i] = DWEXPR_E_NO_CONTEXT;
            continue;
        }
        lp.lane = lane_first + i;
        ctx->result_slot = &places[i];
        const dwx_mark mark = dwx_arena_mark(ctx);
        dwexpr_status st;
        if (direct && lane_part(ctx, prog, &env, &results[i]))
            st = DWEXPR_OK; /* the lane part, without eval_program's set-up */
        else
            st = eval_program(ctx, prog, &results[i]);
        statuses[i] = st;
        if (st != DWEXPR_OK) {
            /* a failed lane keeps no result: its scratch goes back, so that
             * later lanes have what a single evaluation would have */
            dwx_arena_rollback(ctx, mark);
            if (first == DWEXPR_OK) {
                first = st;
                first_err = ctx->err;
            }
        }
        /* what eval_begin resets between evaluations, but the arena: the
         * earlier lanes' results live there */
        ctx->err.status = DWEXPR_OK;
        ctx->err.offset = -1;
        ctx->err.opcode = -1;
        ctx->err.op_name = NULL;
        ctx->err.message[0] = 0;
        ctx->steps = 0;
        ctx->depth = 0;
        ctx->sp = 0;
    }
    ctx->result_slot = NULL;
    if (first != DWEXPR_OK)
        ctx->err = first_err;
    ctx->p = &no_params; /* LP ends here */
    return first;
}

size_t dwexpr_ctx_stack_depth(const dwexpr_ctx *ctx)
{
    return ctx ? ctx->sp : 0;
}

dwexpr_status dwexpr_ctx_stack_get(const dwexpr_ctx *ctx, size_t i, dwexpr_result *out)
{
    if (!ctx || !out || i >= ctx->sp)
        return DWEXPR_E_USAGE;
    const dwx_entry *e = &ctx->stack[ctx->sp - 1 - i];
    memset(out, 0, sizeof *out);
    if (e->is_loc) {
        out->kind = DWEXPR_RESULT_LOCATION;
        out->loc.count = e->n;
        out->loc.slds = dwx_slds(e);
    } else {
        out->kind = DWEXPR_RESULT_VALUE;
        out->value = e->u.v;
    }
    return DWEXPR_OK;
}
