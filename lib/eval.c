/* lib/eval.c: the evaluator: one dispatch loop over a pre-decoded program
 * (seed "DWARF Operation Expressions" and every operation section below
 * it), with nested evaluations for DW_OP_call*, DW_OP_entry_value,
 * implicit pointers, frame bases and location lists on the same stack. */
#include <stdarg.h>
#include <stdio.h>
#include "evalint.h"

#define OPNAME(x) (dwexpr_op_info((dwexpr_opid)(x)) ? dwexpr_op_info((dwexpr_opid)(x))->name : "?")

/* ---- stack helpers ---- */

static dwexpr_status push(dwexpr_ctx *ctx, const dwx_entry *e)
{
    if (ctx->sp >= ctx->lim.stack)
        return dwx_ctx_fail(ctx, DWEXPR_E_STACK_LIMIT, "stack depth limit (%u entries) reached",
                            (unsigned)ctx->lim.stack);
    ctx->stack[ctx->sp++] = *e;
    return DWEXPR_OK;
}

static dwexpr_status push_value(dwexpr_ctx *ctx, const dwexpr_value *v)
{
    dwx_entry e;
    e.is_loc = 0;
    e.n = 0;
    e.many = NULL;
    e.u.v = *v;
    return push(ctx, &e);
}

static dwexpr_status push_sld(dwexpr_ctx *ctx, const dwexpr_sld *s)
{
    dwx_entry e;
    e.is_loc = 1;
    e.n = 1;
    e.many = NULL;
    e.u.one = *s;
    return push(ctx, &e);
}

static dwexpr_value generic_value(const dwexpr_unit *u, uint64_t v)
{
    dwexpr_value r;
    memset(&r, 0, sizeof r);
    r.type = dwx_generic_type(u);
    r.bits = v & dwx_mask(r.type.bits);
    return r;
}

static dwexpr_sld sld_undefined(void)
{
    dwexpr_sld s;
    memset(&s, 0, sizeof s);
    s.kind = DWEXPR_LOC_UNDEFINED;
    return s;
}

static dwexpr_sld sld_memory(uint32_t aspace, uint64_t addr)
{
    dwexpr_sld s;
    memset(&s, 0, sizeof s);
    s.kind = DWEXPR_LOC_MEMORY;
    s.aspace = aspace;
    s.byte_offset = addr;
    return s;
}

static bool is_incomplete(const dwx_entry *e)
{
    return e->is_loc && e->n == 1 && e->u.one.kind == DWEXPR_LOC_COMPOSITE &&
           !e->u.one.u.comp->complete;
}

/* A location entry's places copied into the arena (stable, mutable). */
static dwexpr_sld *own_slds(dwexpr_ctx *ctx, const dwx_entry *e)
{
    dwexpr_sld *p = dwx_alloc(ctx, sizeof(dwexpr_sld) * e->n);
    if (p)
        memcpy(p, dwx_slds(e), sizeof(dwexpr_sld) * e->n);
    return p;
}

static void set_entry_slds(dwx_entry *e, dwexpr_sld *slds, uint32_t n)
{
    e->is_loc = 1;
    e->n = n;
    if (n == 1) {
        e->u.one = slds[0];
        e->many = NULL;
    } else {
        e->many = slds;
    }
}

/* ---- the evaluation ---- */

static dwexpr_status run(dwexpr_ctx *ctx, const dwexpr_program *prog, const dwx_env *env,
                         uint32_t base, int *last_x);
static dwexpr_status eval_nested(dwexpr_ctx *ctx, const uint8_t *expr, size_t len,
                                 const dwx_env *env, dwexpr_result_kind want, dwx_entry *out,
                                 const dwexpr_program *pre, int *last_x);
static dwexpr_status eval_loclist(dwexpr_ctx *ctx, const dwexpr_loclist_entry *ents, size_t n,
                                  const dwx_env *env, dwx_entry *out);

static dwexpr_frameref frameref(const dwexpr_ctx *ctx, const dwx_env *env, uint32_t frame)
{
    dwexpr_frameref f;
    f.thread = ctx->p.thread;
    f.lane = ctx->p.lane;
    f.frame = frame;
    f.ctx = (uint16_t)((ctx->p.ctx & (DWEXPR_CTX_THREAD | DWEXPR_CTX_LANE)) | DWEXPR_CTX_FRAME);
    (void)env;
    return f;
}

/* Implicit conversion to a value (seed "Memory Location Description
 * Operations"): only a location with one memory location description in
 * the default address space at a byte offset converts, to its address. */
static dwexpr_status to_value(dwexpr_ctx *ctx, const dwx_env *env, const dwx_entry *e,
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

static dwexpr_status resolve_ipv(dwexpr_ctx *ctx, const dwx_env *env, uint64_t die, int64_t disp,
                                 dwx_entry *out);

/* Implicit conversion to a location (seed "Memory Location Description
 * Operations"): an integral value is an address in the default address
 * space; an implicit pointer value in the default space is the location
 * of its object. */
static dwexpr_status to_loc(dwexpr_ctx *ctx, const dwx_env *env, const dwx_entry *e,
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
        return resolve_ipv(ctx, env, v->ipv_die, v->ipv_disp, out);
    }
    if (!dwexpr_type_is_integral(&v->type) || v->type.lanes > 1)
        return dwx_ctx_fail(ctx, DWEXPR_E_NOT_LOCATION,
                            "a non-integral value is not a location description");
    uint64_t a = v->bits & dwx_mask(8u * env->unit.addr_size);
    dwexpr_sld s = sld_memory(0, a);
    out->is_loc = 1;
    out->n = 1;
    out->many = NULL;
    out->u.one = s;
    return DWEXPR_OK;
}

static dwexpr_status need_integral(dwexpr_ctx *ctx, const dwexpr_value *v, const char *what)
{
    if (v->is_implicit_pointer)
        return dwx_ctx_fail(ctx, DWEXPR_E_IMPLICIT_PTR, "%s: an implicit pointer value is not %s",
                            what, "an integer");
    if (!dwexpr_type_is_integral(&v->type) || v->wide || v->type.lanes > 1)
        return dwx_ctx_fail(ctx, DWEXPR_E_NOT_INTEGRAL, "%s must be an integral value", what);
    return DWEXPR_OK;
}

static int64_t signed_of(const dwexpr_value *v)
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
static dwexpr_status base_type(dwexpr_ctx *ctx, const dwx_env *env, uint64_t die,
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
    if (!ctx->t.base_type)
        return dwx_ctx_fail(ctx, DWEXPR_E_UNSUPPORTED,
                            "the target cannot look up base type DIE 0x%llx",
                            (unsigned long long)die);
    memset(t, 0, sizeof *t);
    dwexpr_status st = ctx->t.base_type(ctx->user, &env->unit, die, t);
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
static dwexpr_status reg_loc(dwexpr_ctx *ctx, const dwx_env *env, uint64_t regno, uint32_t frame,
                             dwexpr_sld *out)
{
    if (regno > UINT32_MAX)
        return dwx_ctx_fail(ctx, DWEXPR_E_BAD_OPERAND, "register number %llu is too large",
                            (unsigned long long)regno);
    if (frame == 0) {
        memset(out, 0, sizeof *out);
        out->kind = DWEXPR_LOC_REGISTER;
        out->u.regno = (uint32_t)regno;
        out->thread = ctx->p.thread;
        out->ctx = (uint16_t)(ctx->p.ctx & (DWEXPR_CTX_THREAD | DWEXPR_CTX_FRAME));
        return DWEXPR_OK;
    }
    if (!ctx->t.register_location)
        return dwx_ctx_fail(ctx, DWEXPR_E_UNSUPPORTED,
                            "register %u of frame %u needs unwinding, which the target does not "
                            "provide",
                            (unsigned)regno, (unsigned)frame);
    dwexpr_frameref f = frameref(ctx, env, frame);
    memset(out, 0, sizeof *out);
    dwexpr_status st = ctx->t.register_location(ctx->user, &f, (uint32_t)regno, out);
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
static dwexpr_status deref(dwexpr_ctx *ctx, const dwx_env *env, const dwx_entry *l,
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
static dwexpr_status aspace_loc(dwexpr_ctx *ctx, const dwx_env *env, uint64_t as, uint64_t a,
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
        if (!(ctx->p.ctx & DWEXPR_CTX_THREAD))
            return dwx_ctx_fail(ctx, DWEXPR_E_NO_CONTEXT,
                                "address space %u is per thread, and no thread is given",
                                (unsigned)as);
        out->ctx |= DWEXPR_CTX_THREAD;
        out->thread = ctx->p.thread;
    }
    if (ai.per_lane) {
        if (!(ctx->p.ctx & DWEXPR_CTX_LANE))
            return dwx_ctx_fail(ctx, DWEXPR_E_NO_CONTEXT,
                                "address space %u is per lane, and no lane is given",
                                (unsigned)as);
        out->ctx |= DWEXPR_CTX_LANE | (ctx->p.ctx & DWEXPR_CTX_THREAD);
        out->lane = ctx->p.lane;
        out->thread = ctx->p.thread;
    }
    return DWEXPR_OK;
}

/* DW_OP_breg*, DW_OP_bregx, DW_OP_LLVM_aspace_bregx (seed "Memory Location
 * Description Operations"): register contents as an unsigned integer of
 * the space's address size, plus B, low S bits. */
static dwexpr_status breg(dwexpr_ctx *ctx, const dwx_env *env, uint64_t regno, int64_t b,
                          uint64_t as, dwexpr_sld *out)
{
    dwexpr_aspace_info ai;
    dwexpr_status st;
    if (as > UINT32_MAX)
        return dwx_ctx_fail(ctx, DWEXPR_E_BAD_ASPACE, "address space %llu is not defined",
                            (unsigned long long)as);
    if ((st = dwx_aspace(ctx, &env->unit, (uint32_t)as, &ai)))
        return st;
    dwexpr_sld r;
    if ((st = reg_loc(ctx, env, regno, env->frame, &r)))
        return st;
    dwexpr_loc loc = {1, &r};
    uint8_t buf[8] = {0};
    if ((st = dwx_read_loc(ctx, &loc, 0, ai.addr_bits, buf, 0, NULL)))
        return st;
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | buf[i];
    return aspace_loc(ctx, env, as, v + (uint64_t)b, out);
}

/* Look a DIE up for DW_OP_call*, implicit pointers, variable values. */
static dwexpr_status find_die(dwexpr_ctx *ctx, const dwx_env *env, uint64_t off, bool section,
                              dwexpr_die *d)
{
    if (!ctx->t.die)
        return dwx_ctx_fail(ctx, DWEXPR_E_UNSUPPORTED,
                            "the target cannot look up debugging information entries "
                            "(DIE 0x%llx)",
                            (unsigned long long)off);
    memset(d, 0, sizeof *d);
    dwexpr_status st = ctx->t.die(ctx->user, &env->unit, off, section, d);
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

/* Implicit storage holding LEN bytes at DATA (which must outlive the result). */
static dwexpr_sld sld_implicit(const uint8_t *data, uint64_t bits)
{
    dwexpr_sld s;
    memset(&s, 0, sizeof s);
    s.kind = DWEXPR_LOC_IMPLICIT;
    s.u.imp.data = data;
    s.u.imp.bits = bits;
    return s;
}

/* The location an implicit pointer value points to (seed "Implicit
 * Location Description Operations"): D's location or const value,
 * evaluated in the current context, moved by the displacement. */
static dwexpr_status resolve_ipv(dwexpr_ctx *ctx, const dwx_env *env, uint64_t die, int64_t disp,
                                 dwx_entry *out)
{
    dwexpr_die d;
    dwexpr_status st = find_die(ctx, env, die, true, &d);
    if (st)
        return st;
    dwx_env sub = *env;
    sub.unit = d.unit;
    sub.object = NULL;
    switch (d.kind) {
    case DWEXPR_DIE_EXPRLOC:
        st = eval_nested(ctx, d.expr, d.expr_len, &sub, DWEXPR_RESULT_LOCATION, out, NULL, NULL);
        break;
    case DWEXPR_DIE_LOCLIST:
        st = eval_loclist(ctx, d.entries, d.count, &sub, out);
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
    dwexpr_sld *slds = own_slds(ctx, out);
    if (!slds)
        return dwx_ctx_fail(ctx, DWEXPR_E_NOSPACE, "out of scratch memory");
    for (uint32_t i = 0; i < out->n; i++)
        if ((st = dwx_sld_add_offset(ctx, &slds[i], disp, 0)))
            return st;
    set_entry_slds(out, slds, out->n);
    return DWEXPR_OK;
}

/* The result of one expression (seed "DWARF Operation Expressions"): the
 * top entry, converted to the wanted kind; an empty stack is an undefined
 * location; an incomplete composite on top is completed. */
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
    dwx_entry *top = &ctx->stack[ctx->sp - 1];
    if (is_incomplete(top))
        ((dwexpr_composite *)top->u.one.u.comp)->complete = true;
    if (want == DWEXPR_RESULT_VALUE) {
        dwexpr_value v;
        dwexpr_status st = to_value(ctx, env, top, &v);
        if (st)
            return st;
        out->is_loc = 0;
        out->n = 0;
        out->many = NULL;
        out->u.v = v;
        return DWEXPR_OK;
    }
    if (want == DWEXPR_RESULT_LOCATION)
        return to_loc(ctx, env, top, out);
    *out = *top;
    return DWEXPR_OK;
}

/* Decode EXPR in the arena (no malloc) or use PRE, then evaluate it on a
 * fresh part of the stack; the stack is restored afterwards. */
static dwexpr_status eval_nested(dwexpr_ctx *ctx, const uint8_t *expr, size_t len,
                                 const dwx_env *env, dwexpr_result_kind want, dwx_entry *out,
                                 const dwexpr_program *pre, int *last_x)
{
    if (ctx->depth >= ctx->lim.calls)
        return dwx_ctx_fail(ctx, DWEXPR_E_CALL_DEPTH, "nesting limit (%u) reached",
                            (unsigned)ctx->lim.calls);
    dwexpr_program local;
    const dwexpr_program *prog = pre;
    if (!prog) {
        dwx_insn *insns = dwx_alloc(ctx, sizeof(dwx_insn) * (len + 1));
        dwexpr_op *ops = dwx_alloc(ctx, sizeof(dwexpr_op) * (len + 1));
        if (!insns || !ops)
            return dwx_ctx_fail(ctx, DWEXPR_E_NOSPACE, "out of scratch memory");
        dwexpr_status st =
            dwx_decode(expr, len, &env->unit, insns, ops, dwx_alloc_cb, ctx, &local, &ctx->err);
        if (st)
            return st;
        prog = &local;
    }
    uint32_t base = ctx->sp;
    ctx->depth++;
    dwexpr_status st = run(ctx, prog, env, base, last_x);
    if (st == DWEXPR_OK)
        st = finish(ctx, base, env, want, out);
    ctx->depth--;
    ctx->sp = base;
    return st;
}

/* seed "DWARF Location List Expressions": the union of the results of
 * every matching entry; no match is an undefined location; no program
 * location is an evaluation error. */
static dwexpr_status eval_loclist(dwexpr_ctx *ctx, const dwexpr_loclist_entry *ents, size_t n,
                                  const dwx_env *env, dwx_entry *out)
{
    if (!env->has_pc)
        return dwx_ctx_fail(ctx, DWEXPR_E_EVALUATION,
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
            eval_nested(ctx, le->expr, le->expr_len, &sub, DWEXPR_RESULT_LOCATION, &r, NULL, NULL);
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

/* A new composite with room for CAP parts. */
static dwexpr_composite *new_composite(dwexpr_ctx *ctx, uint32_t cap)
{
    dwexpr_composite *c = dwx_alloc(ctx, sizeof *c);
    if (!c)
        return NULL;
    memset(c, 0, sizeof *c);
    c->parts = dwx_alloc(ctx, sizeof(dwexpr_part) * (cap ? cap : 1));
    if (!c->parts)
        return NULL;
    c->cap = cap ? cap : 1;
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
    uint32_t d = dwx_loc_depth(pl, n) + 1;
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

static dwexpr_sld sld_composite(const dwexpr_composite *c)
{
    dwexpr_sld s;
    memset(&s, 0, sizeof s);
    s.kind = DWEXPR_LOC_COMPOSITE;
    s.u.comp = c;
    return s;
}

/* Every place of a part must hold NBITS bits (seed "Composite Location
 * Description Operations": otherwise the expression is ill-formed). */
static dwexpr_status check_part(dwexpr_ctx *ctx, const dwexpr_sld *pl, uint32_t n, uint64_t nbits)
{
    for (uint32_t i = 0; i < n; i++) {
        dwexpr_status st = dwx_sld_check_range(ctx, &pl[i], nbits);
        if (st == DWEXPR_E_OUT_OF_RANGE) {
            char msg[sizeof ctx->err.message];
            memcpy(msg, ctx->err.message, sizeof msg);
            return dwx_ctx_fail(ctx, DWEXPR_E_PIECE_RANGE, "part of %llu bits: %s",
                                (unsigned long long)nbits, msg);
        }
        if (st)
            return st;
    }
    return DWEXPR_OK;
}

/* DW_OP_piece / DW_OP_bit_piece (seed "Composite Location Description
 * Operations"), all four cases. */
static dwexpr_status piece(dwexpr_ctx *ctx, const dwx_env *env, uint32_t base, uint64_t nbits,
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
    /* Case 3: the top is (or converts to) a location: it becomes the part. */
    dwx_entry pl;
    if ((st = to_loc(ctx, env, &ctx->stack[ctx->sp - 1], &pl)))
        return st;
    ctx->sp--;
    dwexpr_sld *slds = own_slds(ctx, &pl);
    if (!slds)
        return dwx_ctx_fail(ctx, DWEXPR_E_NOSPACE, "out of scratch memory");
    if (has_off && bit_off) {
        /* as if DW_OP_constu B; DW_OP_LLVM_bit_offset */
        if (bit_off > INT64_MAX)
            return dwx_ctx_fail(ctx, DWEXPR_E_BAD_OFFSET, "bit offset %llu is too large",
                                (unsigned long long)bit_off);
        for (uint32_t i = 0; i < pl.n; i++)
            if ((st = dwx_sld_add_offset(ctx, &slds[i], 0, (int64_t)bit_off)))
                return st;
    }
    if ((st = check_part(ctx, slds, pl.n, nbits)))
        return st;
    if (ctx->sp > base && is_incomplete(&ctx->stack[ctx->sp - 1])) {
        dwexpr_composite *c = (dwexpr_composite *)ctx->stack[ctx->sp - 1].u.one.u.comp;
        return add_part(ctx, c, nbits, slds, pl.n);
    }
    dwexpr_composite *c = new_composite(ctx, 4);
    if (!c)
        return dwx_ctx_fail(ctx, DWEXPR_E_NOSPACE, "out of scratch memory");
    if ((st = add_part(ctx, c, nbits, slds, pl.n)))
        return st;
    dwexpr_sld s = sld_composite(c);
    return push_sld(ctx, &s);
}

/* Apply a byte/bit displacement to every place of the location on top
 * (seed "DW_OP_LLVM_offset", "DW_OP_LLVM_bit_offset"). */
static dwexpr_status offset_top(dwexpr_ctx *ctx, const dwx_env *env, int64_t bytes, int64_t bits)
{
    dwx_entry l;
    dwexpr_status st = to_loc(ctx, env, &ctx->stack[ctx->sp - 1], &l);
    if (st)
        return st;
    dwexpr_sld *slds = own_slds(ctx, &l);
    if (!slds)
        return dwx_ctx_fail(ctx, DWEXPR_E_NOSPACE, "out of scratch memory");
    for (uint32_t i = 0; i < l.n; i++)
        if ((st = dwx_sld_add_offset(ctx, &slds[i], bytes, bits)))
            return st;
    set_entry_slds(&ctx->stack[ctx->sp - 1], slds, l.n);
    return DWEXPR_OK;
}

/* Prefix the current error with where a nested evaluation failed. */
static void nest_error(dwexpr_ctx *ctx, const char *what)
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

/* ---- operations too long to sit in the dispatch loop ----
 * Each takes the current environment, the instruction and the stack base
 * of the running expression; it reports failures with dwx_ctx_fail and
 * the loop adds the operation's offset. */

static dwexpr_status need(dwexpr_ctx *ctx, uint32_t base, uint64_t k)
{
    if (ctx->sp - base >= k)
        return DWEXPR_OK;
    return dwx_ctx_fail(ctx, DWEXPR_E_STACK_EMPTY, "needs %llu stack entr%s, %u present",
                        (unsigned long long)k, k == 1 ? "y" : "ies", (unsigned)(ctx->sp - base));
}

#define TOP(i) (&ctx->stack[ctx->sp - 1 - (i)])

/* A .debug_addr entry (DW_OP_addrx, DW_OP_constx). */
static dwexpr_status debug_addr(dwexpr_ctx *ctx, const dwx_env *env, uint64_t index,
                                uint64_t *out)
{
    if (!ctx->t.debug_addr)
        return dwx_ctx_fail(ctx, DWEXPR_E_UNSUPPORTED, "the target has no .debug_addr entries");
    dwexpr_status st = ctx->t.debug_addr(ctx->user, &env->unit, index, out);
    if (st == DWEXPR_E_NOT_FOUND)
        return dwx_ctx_fail(ctx, DWEXPR_E_NO_CONTEXT, ".debug_addr has no entry %llu",
                            (unsigned long long)index);
    if (st)
        return dwx_ctx_fail(ctx, st, "cannot read .debug_addr entry %llu",
                            (unsigned long long)index);
    return DWEXPR_OK;
}

/* DW_OP_const_type (seed "Literal Operations"): ill-formed unless D is a
 * base type and S = ceil(TS / 8). */
static dwexpr_status op_const_type(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in)
{
    dwexpr_type t;
    dwexpr_status st = base_type(ctx, env, in->a, false, &t);
    if (st)
        return st;
    uint64_t ts = (uint64_t)t.bits * t.lanes;
    if ((ts + 7) / 8 != in->b)
        return dwx_ctx_fail(ctx, DWEXPR_E_BAD_TYPE,
                            "constant of %llu bytes for a %llu-bit type (needs %llu bytes)",
                            (unsigned long long)in->b, (unsigned long long)ts,
                            (unsigned long long)((ts + 7) / 8));
    dwexpr_value v;
    if ((st = dwx_value_from_bits(ctx, &env->unit, &t, in->blk, &v)))
        return st;
    return push_value(ctx, &v);
}

/* DW_OP_call2/4/call_ref (seed "Control Flow Operations"). */
static dwexpr_status op_call(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in,
                             uint32_t base)
{
    dwexpr_die d;
    dwexpr_status st = find_die(ctx, env, in->a, in->x == DWEXPR_OP_call_ref, &d);
    if (st)
        return st;
    dwx_env sub = *env;
    sub.unit = d.unit;
    switch (d.kind) {
    case DWEXPR_DIE_EXPRLOC: {
        /* E continues on the same stack, with the unit that contains D. */
        if (ctx->depth >= ctx->lim.calls)
            return dwx_ctx_fail(ctx, DWEXPR_E_CALL_DEPTH, "call nesting limit (%u) reached",
                                (unsigned)ctx->lim.calls);
        dwx_insn *insns = dwx_alloc(ctx, sizeof(dwx_insn) * (d.expr_len + 1));
        dwexpr_op *ops = dwx_alloc(ctx, sizeof(dwexpr_op) * (d.expr_len + 1));
        if (!insns || !ops)
            return dwx_ctx_fail(ctx, DWEXPR_E_NOSPACE, "out of scratch memory");
        dwexpr_program callee;
        st = dwx_decode(d.expr, d.expr_len, &sub.unit, insns, ops, dwx_alloc_cb, ctx, &callee,
                        &ctx->err);
        if (st == DWEXPR_OK) {
            ctx->depth++;
            st = run(ctx, &callee, &sub, base, NULL);
            ctx->depth--;
        }
        if (st) {
            char what[64];
            snprintf(what, sizeof what, "in the expression of DIE 0x%llx",
                     (unsigned long long)in->a);
            nest_error(ctx, what);
        }
        return st;
    }
    case DWEXPR_DIE_LOCLIST: {
        /* A location list is evaluated on its own; its location is pushed. */
        dwx_entry r;
        sub.object = NULL;
        if ((st = eval_loclist(ctx, d.entries, d.count, &sub, &r))) {
            nest_error(ctx, "in the location list of the called DIE");
            return st;
        }
        return push(ctx, &r);
    }
    case DWEXPR_DIE_CONST_VALUE: {
        /* as if DW_OP_implicit_value V */
        dwexpr_sld s = sld_implicit(d.expr, 8 * (uint64_t)d.expr_len);
        return push_sld(ctx, &s);
    }
    default:
        return DWEXPR_OK; /* no attribute: no effect */
    }
}

/* DW_OP_deref, deref_size, deref_type and the xderef forms (seed "Special
 * Value Operations"). */
static dwexpr_status op_deref(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in,
                              uint32_t base)
{
    const dwexpr_unit *u = &env->unit;
    bool x = in->x == DWEXPR_OP_xderef || in->x == DWEXPR_OP_xderef_size ||
             in->x == DWEXPR_OP_xderef_type;
    dwexpr_type t = dwx_generic_type(u);
    bool to_generic = false;
    dwexpr_status st;
    if (in->x == DWEXPR_OP_deref_size || in->x == DWEXPR_OP_xderef_size) {
        /* TS = min(generic bits, 8 * S); the value is zero-extended */
        uint64_t ts = 8 * in->a;
        if (ts < t.bits) {
            t.encoding = DW_ATE_unsigned;
            t.bits = (uint32_t)ts;
            to_generic = true;
        }
    } else if (in->x == DWEXPR_OP_deref_type || in->x == DWEXPR_OP_xderef_type) {
        if ((st = base_type(ctx, env, in->b, false, &t)))
            return st;
        uint64_t ts = (uint64_t)t.bits * t.lanes;
        if ((ts + 7) / 8 != in->a)
            return dwx_ctx_fail(ctx, DWEXPR_E_BAD_TYPE,
                                "size operand %llu does not match the %llu-bit type (needs %llu)",
                                (unsigned long long)in->a, (unsigned long long)ts,
                                (unsigned long long)((ts + 7) / 8));
    }
    dwx_entry l;
    uint32_t popped;
    if (x) {
        /* as DW_OP_swap; DW_OP_LLVM_form_aspace_address; DW_OP_deref* */
        if ((st = need(ctx, base, 2)))
            return st;
        dwexpr_value a, as;
        if ((st = to_value(ctx, env, TOP(0), &a)) || (st = to_value(ctx, env, TOP(1), &as)) ||
            (st = need_integral(ctx, &a, "the address")) ||
            (st = need_integral(ctx, &as, "the address space")))
            return st;
        dwexpr_sld s;
        if ((st = aspace_loc(ctx, env, as.bits, a.bits, &s)))
            return st;
        set_entry_slds(&l, &s, 1);
        popped = 2;
    } else {
        if ((st = need(ctx, base, 1)) || (st = to_loc(ctx, env, TOP(0), &l)))
            return st;
        popped = 1;
    }
    dwexpr_value v;
    if ((st = deref(ctx, env, &l, &t, to_generic, &v)))
        return st;
    ctx->sp -= popped;
    return push_value(ctx, &v);
}

/* DW_OP_regval_type: DW_OP_regx R; DW_OP_deref_type (seed "Special Value
 * Operations"). */
static dwexpr_status op_regval_type(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in)
{
    dwexpr_type t;
    dwexpr_sld s;
    dwexpr_status st;
    if ((st = base_type(ctx, env, in->b, false, &t)) ||
        (st = reg_loc(ctx, env, in->a, env->frame, &s)))
        return st;
    dwx_entry l;
    set_entry_slds(&l, &s, 1);
    dwexpr_value v;
    if ((st = deref(ctx, env, &l, &t, false, &v)))
        return st;
    return push_value(ctx, &v);
}

/* A value the target returned: an unset type means generic. */
static dwexpr_status push_target_value(dwexpr_ctx *ctx, const dwx_env *env, dwexpr_value *v)
{
    if (v->type.bits == 0)
        v->type = dwx_generic_type(&env->unit);
    if (v->type.lanes == 0)
        v->type.lanes = 1;
    return push_value(ctx, v);
}

/* DW_OP_entry_value (seed "Special Value Operations"): E runs in the
 * caller frame with result kind unspecified, no object and an empty
 * stack; a register location left by a final DW_OP_reg* is read. */
static dwexpr_status op_entry_value(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in)
{
    const dwexpr_unit *u = &env->unit;
    dwexpr_status st;
    if (ctx->t.entry_value) {
        dwexpr_frameref f = frameref(ctx, env, env->frame);
        dwexpr_value v;
        memset(&v, 0, sizeof v);
        st = ctx->t.entry_value(ctx->user, &f, in->blk, (size_t)in->blen, &v);
        if (st == DWEXPR_OK)
            return push_target_value(ctx, env, &v);
        if (st != DWEXPR_E_NOT_FOUND)
            return dwx_ctx_fail(ctx, st, "the target could not give the entry value");
    }
    dwx_env sub = *env;
    sub.frame = env->frame + 1;
    sub.object = NULL;
    sub.has_pc = false;
    if (ctx->t.frame_pc) {
        dwexpr_frameref f = frameref(ctx, env, sub.frame);
        uint64_t cpc;
        if (ctx->t.frame_pc(ctx->user, &f, &cpc) == DWEXPR_OK) {
            sub.has_pc = true;
            sub.pc = cpc;
        }
    }
    dwx_entry r;
    int lx = -1;
    if ((st = eval_nested(ctx, in->blk, (size_t)in->blen, &sub, 0, &r, in->sub, &lx))) {
        nest_error(ctx, "in the DW_OP_entry_value expression (caller frame)");
        return st;
    }
    if (!r.is_loc)
        return push_value(ctx, &r.u.v);
    if (lx != DWEXPR_OP_reg0)
        return dwx_ctx_fail(ctx, DWEXPR_E_NOT_VALUE,
                            "the DW_OP_entry_value expression gives a location that does not "
                            "come from a final DW_OP_reg*");
    /* the register's contents, with the register's own size */
    const dwexpr_sld *rs = dwx_slds(&r);
    uint32_t rbytes = u->addr_size;
    if (rs->kind == DWEXPR_LOC_REGISTER && ctx->t.reg_size) {
        uint32_t b = 0;
        if (ctx->t.reg_size(ctx->user, rs->u.regno, &b) == DWEXPR_OK && b)
            rbytes = b;
    }
    dwexpr_type t = dwx_generic_type(u);
    if (rbytes != u->addr_size) {
        t.encoding = DW_ATE_unsigned;
        t.bits = 8 * rbytes;
    }
    dwexpr_value v;
    if ((st = deref(ctx, env, &r, &t, false, &v)))
        return st;
    return push_value(ctx, &v);
}

/* DW_OP_GNU_parameter_ref: the value of a call-site parameter. */
static dwexpr_status op_parameter_ref(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in)
{
    if (!ctx->t.parameter_ref)
        return dwx_ctx_fail(ctx, DWEXPR_E_UNSUPPORTED,
                            "the target cannot resolve call-site parameters");
    dwexpr_frameref f = frameref(ctx, env, env->frame);
    dwexpr_value v;
    memset(&v, 0, sizeof v);
    dwexpr_status st = ctx->t.parameter_ref(ctx->user, &f, &env->unit, in->a, &v);
    if (st == DWEXPR_E_NOT_FOUND)
        return dwx_ctx_fail(ctx, DWEXPR_E_NO_CONTEXT, "no value for call-site parameter DIE 0x%llx",
                            (unsigned long long)in->a);
    if (st)
        return dwx_ctx_fail(ctx, st, "the target could not read call-site parameter 0x%llx",
                            (unsigned long long)in->a);
    return push_target_value(ctx, env, &v);
}

/* DW_OP_GNU_variable_value: the variable's value (at most the generic
 * size), read through its location. */
static dwexpr_status op_variable_value(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in)
{
    const dwexpr_unit *u = &env->unit;
    dwexpr_die d;
    dwexpr_status st = find_die(ctx, env, in->a, true, &d);
    if (st)
        return st;
    dwx_env sub = *env;
    sub.unit = d.unit;
    sub.object = NULL;
    dwx_entry r;
    if (d.kind == DWEXPR_DIE_EXPRLOC) {
        st = eval_nested(ctx, d.expr, d.expr_len, &sub, DWEXPR_RESULT_LOCATION, &r, NULL, NULL);
    } else if (d.kind == DWEXPR_DIE_LOCLIST) {
        st = eval_loclist(ctx, d.entries, d.count, &sub, &r);
    } else if (d.kind == DWEXPR_DIE_CONST_VALUE) {
        dwexpr_sld s = sld_implicit(d.expr, 8 * (uint64_t)d.expr_len);
        set_entry_slds(&r, &s, 1);
    } else {
        return dwx_ctx_fail(ctx, DWEXPR_E_EVALUATION, "DIE 0x%llx has no location or value",
                            (unsigned long long)in->a);
    }
    if (st) {
        nest_error(ctx, "in the variable's location");
        return st;
    }
    uint64_t size = d.byte_size ? d.byte_size : u->addr_size;
    if (d.kind == DWEXPR_DIE_CONST_VALUE && !d.byte_size)
        size = d.expr_len;
    if (size > u->addr_size)
        size = u->addr_size;
    dwexpr_type t = dwx_generic_type(u);
    bool tg = false;
    if (size < u->addr_size) {
        t.encoding = DW_ATE_unsigned;
        t.bits = (uint32_t)(8 * size);
        tg = true;
    }
    dwexpr_value v;
    if ((st = deref(ctx, env, &r, &t, tg, &v)))
        return st;
    return push_value(ctx, &v);
}

/* DW_OP_LLVM_offset / bit_offset / offset_uconst (seed "General Location
 * Description Operations"). */
static dwexpr_status op_offset(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in,
                               uint32_t base)
{
    dwexpr_status st;
    if (in->x == DWEXPR_OP_LLVM_offset_uconst) {
        if ((st = need(ctx, base, 1)))
            return st;
        if (in->a > INT64_MAX)
            return dwx_ctx_fail(ctx, DWEXPR_E_BAD_OFFSET,
                                "displacement %llu is outside any storage",
                                (unsigned long long)in->a);
        return offset_top(ctx, env, (int64_t)in->a, 0);
    }
    if ((st = need(ctx, base, 2)))
        return st;
    dwexpr_value b;
    if ((st = to_value(ctx, env, TOP(0), &b)) ||
        (st = need_integral(ctx, &b, "the displacement")))
        return st;
    int64_t d = signed_of(&b);
    ctx->sp--;
    st = in->x == DWEXPR_OP_LLVM_offset ? offset_top(ctx, env, d, 0)
                                        : offset_top(ctx, env, 0, d);
    if (st)
        ctx->sp++;
    return st;
}

/* DW_OP_push_object_address: the object's location from the context. */
static dwexpr_status op_push_object(dwexpr_ctx *ctx, const dwx_env *env)
{
    if (!env->object || env->object->count == 0)
        return dwx_ctx_fail(ctx, DWEXPR_E_NO_CONTEXT, "no object location is given");
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
static dwexpr_status op_form_aspace(dwexpr_ctx *ctx, const dwx_env *env, uint32_t base)
{
    dwexpr_status st;
    dwexpr_value as, a;
    if ((st = need(ctx, base, 2)) || (st = to_value(ctx, env, TOP(0), &as)) ||
        (st = need_integral(ctx, &as, "the address space")) ||
        (st = to_value(ctx, env, TOP(1), &a)))
        return st;
    if (a.is_implicit_pointer && a.ipv_aspace == as.bits) {
        dwx_entry r;
        if ((st = resolve_ipv(ctx, env, a.ipv_die, a.ipv_disp, &r)))
            return st;
        ctx->sp -= 2;
        return push(ctx, &r);
    }
    dwexpr_sld s;
    if ((st = need_integral(ctx, &a, "the address")) ||
        (st = aspace_loc(ctx, env, as.bits, a.bits, &s)))
        return st;
    ctx->sp -= 2;
    return push_sld(ctx, &s);
}

/* A memory location from a target service (TLS, CFA). */
static dwexpr_status target_loc(dwexpr_ctx *ctx, dwexpr_status st, const char *what)
{
    if (st == DWEXPR_E_NOT_FOUND || st == DWEXPR_E_NO_CONTEXT)
        return dwx_ctx_fail(ctx, DWEXPR_E_NO_CONTEXT, "%s is not known", what);
    return dwx_ctx_fail(ctx, st, "the target could not give %s", what);
}

/* DW_OP_form_tls_address: the target maps the TLS offset to memory. */
static dwexpr_status op_form_tls(dwexpr_ctx *ctx, const dwx_env *env, uint32_t base)
{
    dwexpr_status st;
    dwexpr_value ta;
    if ((st = need(ctx, base, 1)) || (st = to_value(ctx, env, TOP(0), &ta)) ||
        (st = need_integral(ctx, &ta, "the thread-local storage offset")))
        return st;
    if (!ctx->t.tls_address)
        return dwx_ctx_fail(ctx, DWEXPR_E_UNSUPPORTED,
                            "the target cannot locate thread-local storage");
    dwexpr_frameref f = frameref(ctx, env, env->frame);
    dwexpr_sld s = sld_memory(0, 0);
    if ((st = ctx->t.tls_address(ctx->user, &f, ta.bits, &s)))
        return target_loc(ctx, st, "the thread-local storage block");
    ctx->sp--;
    return push_sld(ctx, &s);
}

/* DW_OP_call_frame_cfa: the CFA of the current frame, from the target. */
static dwexpr_status op_cfa(dwexpr_ctx *ctx, const dwx_env *env)
{
    if (!ctx->t.cfa)
        return dwx_ctx_fail(ctx, DWEXPR_E_UNSUPPORTED, "the target has no call frame information");
    dwexpr_frameref f = frameref(ctx, env, env->frame);
    dwexpr_sld s = sld_memory(0, 0);
    dwexpr_status st = ctx->t.cfa(ctx->user, &f, &s);
    if (st)
        return target_loc(ctx, st, "the CFA of the frame");
    return push_sld(ctx, &s);
}

/* DW_OP_fbreg (seed "Memory Location Description Operations"): the frame
 * base moved by B bytes; a register frame base acts as DW_OP_bregx R 0. */
static dwexpr_status op_fbreg(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in)
{
    if (!ctx->t.frame_base)
        return dwx_ctx_fail(ctx, DWEXPR_E_UNSUPPORTED,
                            "the target has no frame base (DW_AT_frame_base)");
    dwexpr_frameref f = frameref(ctx, env, env->frame);
    dwexpr_frame_base fb;
    memset(&fb, 0, sizeof fb);
    dwexpr_status st = ctx->t.frame_base(ctx->user, &f, &fb);
    if (st)
        return target_loc(ctx, st, "the frame base");
    dwx_entry r;
    if (fb.expr) {
        dwx_env sub = *env;
        if (fb.unit.addr_size)
            sub.unit = dwx_unit_normalize(&fb.unit);
        sub.object = NULL;
        if ((st = eval_nested(ctx, fb.expr, fb.expr_len, &sub, DWEXPR_RESULT_LOCATION, &r, NULL,
                              NULL))) {
            nest_error(ctx, "in the frame base expression");
            return st;
        }
    } else {
        set_entry_slds(&r, &fb.loc, 1);
    }
    dwexpr_sld s = *dwx_slds(&r);
    if (r.n == 1 && s.kind == DWEXPR_LOC_REGISTER && s.byte_offset == 0 && s.bit == 0) {
        if ((st = breg(ctx, env, s.u.regno, 0, 0, &s)))
            return st;
    } else if (r.n != 1 || s.kind != DWEXPR_LOC_MEMORY) {
        return dwx_ctx_fail(ctx, DWEXPR_E_ILL_FORMED,
                            "the frame base must be a memory or register location");
    }
    /* as if DW_OP_LLVM_offset_uconst B (B may be negative) */
    if ((st = dwx_sld_add_offset(ctx, &s, (int64_t)in->a, 0)))
        return st;
    return push_sld(ctx, &s);
}

/* DW_OP_breg*, DW_OP_bregx and DW_OP_LLVM_aspace_bregx (which pops AS). */
static dwexpr_status op_breg(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in,
                             uint32_t base)
{
    dwexpr_status st;
    uint64_t as = 0;
    bool aspace = in->x == DWEXPR_OP_LLVM_aspace_bregx;
    if (aspace) {
        dwexpr_value v;
        if ((st = need(ctx, base, 1)) || (st = to_value(ctx, env, TOP(0), &v)) ||
            (st = need_integral(ctx, &v, "the address space")))
            return st;
        as = v.bits;
    }
    dwexpr_sld s;
    if ((st = breg(ctx, env, in->a, (int64_t)in->b, as, &s)))
        return st;
    if (aspace)
        ctx->sp--;
    return push_sld(ctx, &s);
}

/* DW_OP_stack_value (seed "Implicit Location Description Operations"):
 * the value's bytes become implicit storage; an implicit pointer value
 * gives back its implicit pointer location. Evaluation goes on. */
static dwexpr_status op_stack_value(dwexpr_ctx *ctx, const dwx_env *env, uint32_t base)
{
    dwexpr_status st;
    dwexpr_value v;
    if ((st = need(ctx, base, 1)) || (st = to_value(ctx, env, TOP(0), &v)))
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
    ctx->sp--;
    return push_sld(ctx, &s);
}

/* DW_OP_implicit_pointer and DW_OP_LLVM_aspace_implicit_pointer: implicit
 * pointer storage of the space's address size. */
static dwexpr_status op_implicit_pointer(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in,
                                         uint32_t base)
{
    dwexpr_status st;
    uint64_t as = 0;
    bool aspace = in->x == DWEXPR_OP_LLVM_aspace_implicit_pointer;
    if (aspace) {
        dwexpr_value v;
        if ((st = need(ctx, base, 1)) || (st = to_value(ctx, env, TOP(0), &v)) ||
            (st = need_integral(ctx, &v, "the address space")))
            return st;
        if (v.bits > UINT32_MAX)
            return dwx_ctx_fail(ctx, DWEXPR_E_BAD_ASPACE, "address space %llu is not defined",
                                (unsigned long long)v.bits);
        as = v.bits;
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

/* DW_OP_LLVM_extend (seed "Composite Location Description Operations"):
 * C parts of S bits, each the popped location. */
static dwexpr_status op_extend(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in,
                               uint32_t base)
{
    dwexpr_status st;
    if ((st = need(ctx, base, 1)))
        return st;
    if (in->a == 0 || in->b == 0)
        return dwx_ctx_fail(ctx, DWEXPR_E_ILL_FORMED, "element bit size and count must not be 0");
    if (in->b > ctx->lim.parts)
        return dwx_ctx_fail(ctx, DWEXPR_E_TOO_BIG, "%llu parts exceed the composite part limit",
                            (unsigned long long)in->b);
    dwx_entry l;
    if ((st = to_loc(ctx, env, TOP(0), &l)))
        return st;
    dwexpr_sld *slds = own_slds(ctx, &l);
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
static dwexpr_status op_select_bit_piece(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in,
                                         uint32_t base)
{
    dwexpr_status st;
    if ((st = need(ctx, base, 3)))
        return st;
    if (in->a == 0 || in->b == 0)
        return dwx_ctx_fail(ctx, DWEXPR_E_ILL_FORMED, "element bit size and count must not be 0");
    if (in->b > ctx->lim.parts)
        return dwx_ctx_fail(ctx, DWEXPR_E_TOO_BIG, "%llu parts exceed the composite part limit",
                            (unsigned long long)in->b);
    if (in->a > (uint64_t)INT64_MAX / in->b)
        return dwx_ctx_fail(ctx, DWEXPR_E_TOO_BIG, "selected parts are too large");
    dwexpr_value m;
    if ((st = to_value(ctx, env, TOP(0), &m)))
        return st;
    if (m.is_implicit_pointer || !dwexpr_type_is_integral(&m.type))
        return dwx_ctx_fail(ctx, DWEXPR_E_NOT_INTEGRAL, "the mask must be an integral value");
    if (dwx_value_bits(&m) < in->b)
        return dwx_ctx_fail(ctx, DWEXPR_E_ILL_FORMED, "a %llu-bit mask cannot select %llu parts",
                            (unsigned long long)dwx_value_bits(&m), (unsigned long long)in->b);
    dwx_entry l1, l0;
    if ((st = to_loc(ctx, env, TOP(1), &l1)) || (st = to_loc(ctx, env, TOP(2), &l0)))
        return st;
    dwexpr_composite *c = new_composite(ctx, (uint32_t)in->b);
    if (!c)
        return dwx_ctx_fail(ctx, DWEXPR_E_NOSPACE, "out of scratch memory");
    for (uint64_t i = 0; i < in->b; i++) {
        bool one = m.wide ? (m.wide[i / 8] >> (i % 8)) & 1 : (m.bits >> i) & 1;
        const dwx_entry *src = one ? &l1 : &l0;
        dwexpr_sld *slds = own_slds(ctx, src);
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

/* DW_OP_convert / DW_OP_reinterpret (DWARF 5 2.5.1.6); DIE 0 = generic. */
static dwexpr_status op_convert(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in,
                                uint32_t base)
{
    dwexpr_status st;
    dwexpr_type t;
    dwexpr_value a, r;
    if ((st = need(ctx, base, 1)) || (st = base_type(ctx, env, in->a, true, &t)) ||
        (st = to_value(ctx, env, TOP(0), &a)) ||
        (st = dwx_value_convert(ctx, &a, &t, in->x == DWEXPR_OP_reinterpret, &r)))
        return st;
    ctx->sp--;
    return push_value(ctx, &r);
}

/* Arithmetic, logical and relational operations (DWARF 5 2.5.1.4/5). */
static dwexpr_status op_arith(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in,
                              uint32_t base)
{
    dwexpr_status st;
    dwexpr_value a, b, r;
    if (in->x == DWEXPR_OP_abs || in->x == DWEXPR_OP_neg || in->x == DWEXPR_OP_not) {
        if ((st = need(ctx, base, 1)) || (st = to_value(ctx, env, TOP(0), &a)) ||
            (st = dwx_value_unary(ctx, in->x, &a, &r)))
            return st;
        ctx->sp--;
        return push_value(ctx, &r);
    }
    if (in->x == DWEXPR_OP_plus_uconst) {
        /* the constant is "interpreted as the same type as the operand" */
        if ((st = need(ctx, base, 1)) || (st = to_value(ctx, env, TOP(0), &a)) ||
            (st = need_integral(ctx, &a, "DW_OP_plus_uconst's operand")))
            return st;
        b = a;
        b.bits = in->a & dwx_mask(a.type.bits);
        if ((st = dwx_value_binary(ctx, &env->unit, DWEXPR_OP_plus, &a, &b, &r)))
            return st;
        ctx->sp--;
        return push_value(ctx, &r);
    }
    if ((st = need(ctx, base, 2)) || (st = to_value(ctx, env, TOP(1), &a)) ||
        (st = to_value(ctx, env, TOP(0), &b)) ||
        (st = dwx_value_binary(ctx, &env->unit, in->x, &a, &b, &r)))
        return st;
    ctx->sp -= 2;
    return push_value(ctx, &r);
}

/* Stack operations (seed "Stack Operations"): any entry kind, but an
 * incomplete composite may not be touched. */
static dwexpr_status op_stack(dwexpr_ctx *ctx, const dwx_insn *in, uint32_t base)
{
    uint64_t touch = 1;
    switch (in->x) {
    case DWEXPR_OP_over: touch = 2; break;
    case DWEXPR_OP_pick: touch = in->a + 1; break;
    case DWEXPR_OP_swap: touch = 2; break;
    case DWEXPR_OP_rot: touch = 3; break;
    default: break;
    }
    dwexpr_status st = need(ctx, base, touch);
    if (st)
        return st;
    uint64_t first = (in->x == DWEXPR_OP_over || in->x == DWEXPR_OP_pick) ? touch - 1 : 0;
    for (uint64_t i = first; i < touch; i++)
        if (is_incomplete(TOP(i)))
            return dwx_ctx_fail(ctx, DWEXPR_E_INCOMPLETE,
                                "a stack operation cannot touch an incomplete composite location "
                                "description");
    dwx_entry t;
    switch (in->x) {
    case DWEXPR_OP_dup: t = *TOP(0); return push(ctx, &t);
    case DWEXPR_OP_over: t = *TOP(1); return push(ctx, &t);
    case DWEXPR_OP_pick: t = *TOP(in->a); return push(ctx, &t);
    case DWEXPR_OP_drop: ctx->sp--; return DWEXPR_OK;
    case DWEXPR_OP_swap:
        t = *TOP(0);
        *TOP(0) = *TOP(1);
        *TOP(1) = t;
        return DWEXPR_OK;
    default: /* rot */
        t = *TOP(0);
        *TOP(0) = *TOP(1);
        *TOP(1) = *TOP(2);
        *TOP(2) = t;
        return DWEXPR_OK;
    }
}

/* Test the popped condition of DW_OP_bra: any non-zero bit. */
static dwexpr_status op_bra_taken(dwexpr_ctx *ctx, const dwx_env *env, uint32_t base, bool *taken)
{
    dwexpr_status st;
    dwexpr_value c;
    if ((st = need(ctx, base, 1)) || (st = to_value(ctx, env, TOP(0), &c)))
        return st;
    if (c.is_implicit_pointer)
        return dwx_ctx_fail(ctx, DWEXPR_E_IMPLICIT_PTR,
                            "an implicit pointer value cannot be tested");
    bool nz = c.bits != 0;
    if (c.wide) {
        uint64_t nb = (dwx_value_bits(&c) + 7) / 8;
        for (uint64_t i = 0; i < nb; i++)
            nz = nz || c.wide[i];
    }
    ctx->sp--;
    *taken = nz;
    return DWEXPR_OK;
}

/* The dispatch loop over PROG, with entries from BASE up. *LAST_X gets the
 * last operation executed (DW_OP_entry_value's DW_OP_reg* rule). Every
 * case is short; the long ones call an op_* helper above. */
static dwexpr_status run(dwexpr_ctx *ctx, const dwexpr_program *prog, const dwx_env *env,
                         uint32_t base, int *last_x)
{
    const dwx_insn *code = prog->code;
    const dwexpr_unit *u = &env->unit;
    const uint32_t gbits = 8u * u->addr_size;
    size_t pc = 0;
    dwexpr_status st = DWEXPR_OK;
    const dwx_insn *in = NULL;
    dwexpr_value v;
    dwexpr_sld s;
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
        switch (in->x) {
        /* seed "Literal Operations": generic values, truncated to the
         * generic type size (every const* and litN decode to lit0). */
        case DWEXPR_OP_lit0:
            v = generic_value(u, in->a);
            st = push_value(ctx, &v);
            break;
        case DWEXPR_OP_constx:
            if (!(st = debug_addr(ctx, env, in->a, &a))) {
                v = generic_value(u, a);
                st = push_value(ctx, &v);
            }
            break;
        case DWEXPR_OP_const_type: st = op_const_type(ctx, env, in); break;
        case DWEXPR_OP_LLVM_push_lane:
            if (!(ctx->p.ctx & DWEXPR_CTX_LANE)) {
                st = dwx_ctx_fail(ctx, DWEXPR_E_NO_CONTEXT, "no current lane is given");
                break;
            }
            v = generic_value(u, ctx->p.lane);
            st = push_value(ctx, &v);
            break;

        case DWEXPR_OP_dup: case DWEXPR_OP_drop: case DWEXPR_OP_over: case DWEXPR_OP_pick:
        case DWEXPR_OP_swap: case DWEXPR_OP_rot:
            st = op_stack(ctx, in, base);
            break;

        case DWEXPR_OP_abs: case DWEXPR_OP_neg: case DWEXPR_OP_not: case DWEXPR_OP_plus_uconst:
        case DWEXPR_OP_and: case DWEXPR_OP_div: case DWEXPR_OP_minus: case DWEXPR_OP_mod:
        case DWEXPR_OP_mul: case DWEXPR_OP_or: case DWEXPR_OP_plus: case DWEXPR_OP_shl:
        case DWEXPR_OP_shr: case DWEXPR_OP_shra: case DWEXPR_OP_xor: case DWEXPR_OP_eq:
        case DWEXPR_OP_ge: case DWEXPR_OP_gt: case DWEXPR_OP_le: case DWEXPR_OP_lt:
        case DWEXPR_OP_ne:
            st = op_arith(ctx, env, in, base);
            break;

        /* seed "Control Flow Operations": targets were validated by the
         * decoder (a bad target is ill-formed even when not taken). */
        case DWEXPR_OP_skip: pc = (size_t)in->a; break;
        case DWEXPR_OP_bra:
            if (!(st = op_bra_taken(ctx, env, base, &taken)) && taken)
                pc = (size_t)in->a;
            break;
        case DWEXPR_OP_nop:
        case DWEXPR_OP_GNU_uninit: break;
        case DWEXPR_OP_call2:
        case DWEXPR_OP_call4:
        case DWEXPR_OP_call_ref: st = op_call(ctx, env, in, base); break;

        /* seed "Special Value Operations" */
        case DWEXPR_OP_deref: case DWEXPR_OP_deref_size: case DWEXPR_OP_deref_type:
        case DWEXPR_OP_xderef: case DWEXPR_OP_xderef_size: case DWEXPR_OP_xderef_type:
            st = op_deref(ctx, env, in, base);
            break;
        case DWEXPR_OP_regval_type: st = op_regval_type(ctx, env, in); break;
        case DWEXPR_OP_entry_value: st = op_entry_value(ctx, env, in); break;
        case DWEXPR_OP_GNU_parameter_ref: st = op_parameter_ref(ctx, env, in); break;
        case DWEXPR_OP_GNU_variable_value: st = op_variable_value(ctx, env, in); break;

        /* seed "General Location Description Operations" */
        case DWEXPR_OP_LLVM_offset:
        case DWEXPR_OP_LLVM_bit_offset:
        case DWEXPR_OP_LLVM_offset_uconst: st = op_offset(ctx, env, in, base); break;
        case DWEXPR_OP_push_object_address: st = op_push_object(ctx, env); break;
        case DWEXPR_OP_LLVM_call_frame_entry_reg:
            /* R as the caller frame sees it: its value on entry */
            if (!(st = reg_loc(ctx, env, in->a, env->frame + 1, &s)))
                st = push_sld(ctx, &s);
            break;
        case DWEXPR_OP_LLVM_undefined:
            s = sld_undefined();
            st = push_sld(ctx, &s);
            break;

        /* seed "Memory Location Description Operations" */
        case DWEXPR_OP_addr:
            s = sld_memory(0, (in->a + u->load_bias) & dwx_mask(gbits));
            st = push_sld(ctx, &s);
            break;
        case DWEXPR_OP_addrx:
            if (!(st = debug_addr(ctx, env, in->a, &a))) {
                s = sld_memory(0, (a + u->load_bias) & dwx_mask(gbits));
                st = push_sld(ctx, &s);
            }
            break;
        case DWEXPR_OP_LLVM_form_aspace_address: st = op_form_aspace(ctx, env, base); break;
        case DWEXPR_OP_form_tls_address: st = op_form_tls(ctx, env, base); break;
        case DWEXPR_OP_call_frame_cfa: st = op_cfa(ctx, env); break;
        case DWEXPR_OP_fbreg: st = op_fbreg(ctx, env, in); break;
        case DWEXPR_OP_breg0:
        case DWEXPR_OP_LLVM_aspace_bregx: st = op_breg(ctx, env, in, base); break;

        /* seed "Register Location Description Operations" (every regN and
         * regx decode to reg0) */
        case DWEXPR_OP_reg0:
            if (!(st = reg_loc(ctx, env, in->a, env->frame, &s)))
                st = push_sld(ctx, &s);
            break;

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
        case DWEXPR_OP_stack_value: st = op_stack_value(ctx, env, base); break;
        case DWEXPR_OP_implicit_pointer:
        case DWEXPR_OP_LLVM_aspace_implicit_pointer:
            st = op_implicit_pointer(ctx, env, in, base);
            break;

        /* seed "Composite Location Description Operations" */
        case DWEXPR_OP_piece:
            if (in->a > UINT64_MAX / 8)
                st = dwx_ctx_fail(ctx, DWEXPR_E_TOO_BIG, "piece of %llu bytes is too large",
                                  (unsigned long long)in->a);
            else
                st = piece(ctx, env, base, 8 * in->a, false, 0);
            break;
        case DWEXPR_OP_bit_piece: st = piece(ctx, env, base, in->a, true, in->b); break;
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
        case DWEXPR_OP_LLVM_extend: st = op_extend(ctx, env, in, base); break;
        case DWEXPR_OP_LLVM_select_bit_piece: st = op_select_bit_piece(ctx, env, in, base); break;

        /* DWARF 5 2.5.1.6 Type Conversions */
        case DWEXPR_OP_convert:
        case DWEXPR_OP_reinterpret: st = op_convert(ctx, env, in, base); break;

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
    if (ctx->err.offset < 0 && in) {
        ctx->err.offset = in->offset;
        ctx->err.op_name = OPNAME(in->id);
        const dwexpr_opinfo *oi = dwexpr_op_info((dwexpr_opid)in->id);
        ctx->err.opcode = oi ? (oi->code ? oi->code : DW_OP_LLVM_user) : -1;
    }
    ctx->err.status = st;
    return st;
}

dwexpr_status dwexpr_eval(dwexpr_ctx *ctx, const dwexpr_program *prog, const dwexpr_target *target,
                          void *user, const dwexpr_eval_params *params, dwexpr_result *out)
{
    if (!ctx || !prog || !out)
        return DWEXPR_E_USAGE;
    dwx_arena_reset(ctx);
    dwx_set_target(ctx, target, user);
    memset(&ctx->err, 0, sizeof ctx->err);
    ctx->err.offset = -1;
    ctx->err.opcode = -1;
    ctx->steps = 0;
    ctx->depth = 0;
    ctx->sp = 0;
    if (params)
        ctx->p = *params;
    else
        memset(&ctx->p, 0, sizeof ctx->p);
    memset(out, 0, sizeof *out);

    dwx_env env;
    env.unit = dwx_unit_normalize(&prog->unit);
    ctx->addr_size = env.unit.addr_size;
    env.frame = ctx->p.frame;
    env.has_pc = ctx->p.has_pc;
    env.pc = ctx->p.pc;
    env.object = ctx->p.object;

    dwexpr_status st;
    /* seed "DWARF Operation Expressions": the initial stack is pushed in
     * the order given. */
    for (size_t i = 0; i < ctx->p.initial_count; i++) {
        const dwexpr_loc *l = ctx->p.initial_locs ? &ctx->p.initial_locs[i] : NULL;
        if (l && l->count > 0) {
            dwx_entry e;
            e.is_loc = 1;
            e.n = l->count;
            e.many = (dwexpr_sld *)(uintptr_t)l->slds;
            if (e.n == 1)
                e.u.one = l->slds[0];
            st = push(ctx, &e);
        } else if (ctx->p.initial_values) {
            dwexpr_value v = ctx->p.initial_values[i];
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

    if ((st = run(ctx, prog, &env, 0, NULL)))
        return st;
    dwx_entry r;
    if ((st = finish(ctx, 0, &env, ctx->p.result_kind, &r)))
        return st;
    if (r.is_loc) {
        dwexpr_sld *slds = own_slds(ctx, &r);
        if (!slds)
            return dwx_ctx_fail(ctx, DWEXPR_E_NOSPACE, "out of scratch memory");
        out->kind = DWEXPR_RESULT_LOCATION;
        out->loc.count = r.n;
        out->loc.slds = slds;
    } else {
        out->kind = DWEXPR_RESULT_VALUE;
        out->value = r.u.v;
    }
    return DWEXPR_OK;
}
