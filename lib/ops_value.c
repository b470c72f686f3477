/* lib/ops_value.c: operations that work on values: literals with types,
 * arithmetic, stack manipulation, dereferencing, calls and entry values
 * (seed "Stack Operations", "Control Flow Operations", "Value Operations",
 * "Special Value Operations"; DWARF 5 2.5.1.4-2.5.1.6). */
#include "evalops.h"

/* A .debug_addr entry (DW_OP_addrx, DW_OP_constx). */
dwexpr_status dwx_debug_addr(dwexpr_ctx *ctx, const dwx_env *env, uint64_t index,
                                uint64_t *out)
{
    if (!ctx->t->debug_addr)
        return dwx_ctx_fail(ctx, DWEXPR_E_UNSUPPORTED, "the target has no .debug_addr entries");
    dwexpr_status st = ctx->t->debug_addr(ctx->user, &env->unit, index, out);
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
dwexpr_status dwx_op_const_type(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in)
{
    dwexpr_type t;
    dwexpr_status st = dwx_base_type(ctx, env, in->a, false, &t);
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
dwexpr_status dwx_op_call(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in,
                             uint32_t base)
{
    dwexpr_die d;
    dwexpr_status st = dwx_find_die(ctx, env, in->a, in->x == DWEXPR_OP_call_ref, &d);
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
        /* the executable form only (a nested program shows no public view) */
        dwx_insn *insns = dwx_alloc(ctx, sizeof(dwx_insn) * (d.expr_len + 1));
        if (!insns)
            return dwx_ctx_fail(ctx, DWEXPR_E_NOSPACE, "out of scratch memory");
        dwexpr_program callee;
        st = dwx_decode(d.expr, d.expr_len, &sub.unit, insns, NULL, dwx_alloc_cb, ctx, &callee,
                        &ctx->err);
        if (st == DWEXPR_OK) {
            ctx->depth++;
            st = dwx_run(ctx, &callee, &sub, base, NULL);
            ctx->depth--;
        }
        if (st) {
            char what[64];
            snprintf(what, sizeof what, "in the expression of DIE 0x%llx",
                     (unsigned long long)in->a);
            dwx_nest_error(ctx, what);
        }
        return st;
    }
    case DWEXPR_DIE_LOCLIST: {
        /* A location list is evaluated on its own; its location is pushed. */
        dwx_entry r;
        sub.object = NULL;
        if ((st = dwx_eval_loclist(ctx, d.entries, d.count, &sub, &r))) {
            dwx_nest_error(ctx, "in the location list of the called DIE");
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
dwexpr_status dwx_op_deref(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in,
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
        if ((st = dwx_base_type(ctx, env, in->b, false, &t)))
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
        /* seed "DW_OP_xderef*": exactly DW_OP_swap;
         * DW_OP_LLVM_form_aspace_address; DW_OP_deref*: A (on top) and AS
         * (below it) as form_aspace_address takes them, so an implicit
         * pointer value of address space AS is its object's location */
        if ((st = need(ctx, base, 2)) || (st = dwx_form_aspace(ctx, env, TOP(0), TOP(1), &l)))
            return st;
        popped = 2;
    } else {
        if ((st = need(ctx, base, 1)) || (st = dwx_to_loc(ctx, env, TOP(0), &l)))
            return st;
        popped = 1;
    }
    dwexpr_value v;
    if ((st = dwx_deref(ctx, env, &l, &t, to_generic, &v)))
        return st;
    ctx->sp -= popped;
    return push_value(ctx, &v);
}

/* DW_OP_regval_type: DW_OP_regx R; DW_OP_deref_type (seed "Special Value
 * Operations"). */
dwexpr_status dwx_op_regval_type(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in)
{
    dwexpr_type t;
    dwexpr_sld s;
    dwexpr_status st;
    if ((st = dwx_base_type(ctx, env, in->b, false, &t)) ||
        (st = dwx_reg_loc(ctx, env, in->a, env->frame, &s)))
        return st;
    dwx_entry l;
    set_entry_slds(&l, &s, 1);
    dwexpr_value v;
    if ((st = dwx_deref(ctx, env, &l, &t, false, &v)))
        return st;
    return push_value(ctx, &v);
}

/* A value the target returned: an unset type means generic. */
static void target_value(const dwx_env *env, dwexpr_value *v)
{
    if (v->type.bits == 0)
        v->type = dwx_generic_type(&env->unit);
    if (v->type.lanes == 0)
        v->type.lanes = 1;
}

static dwexpr_status push_target_value(dwexpr_ctx *ctx, const dwx_env *env, dwexpr_value *v)
{
    target_value(env, v);
    return push_value(ctx, v);
}

/* DW_OP_entry_value (seed "Special Value Operations"): E runs in the
 * caller frame with result kind unspecified, no object and an empty
 * stack; a register location left by a final DW_OP_reg* is read. */
dwexpr_status dwx_entry_value(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in,
                              dwexpr_value *out)
{
    const dwexpr_unit *u = &env->unit;
    dwexpr_status st;
    if (ctx->t->entry_value) {
        dwexpr_frameref f = dwx_frameref(ctx, env, env->frame);
        memset(out, 0, sizeof *out);
        st = ctx->t->entry_value(ctx->user, &f, in->blk, (size_t)in->blen, out);
        if (st == DWEXPR_OK) {
            target_value(env, out);
            return DWEXPR_OK;
        }
        if (st != DWEXPR_E_NOT_FOUND)
            return dwx_ctx_fail(ctx, st, "the target could not give the entry value");
    }
    dwx_env sub = *env;
    sub.frame = env->frame + 1;
    sub.object = NULL;
    sub.has_pc = false;
    if (ctx->t->frame_pc) {
        dwexpr_frameref f = dwx_frameref(ctx, env, sub.frame);
        uint64_t cpc;
        if (ctx->t->frame_pc(ctx->user, &f, &cpc) == DWEXPR_OK) {
            sub.has_pc = true;
            sub.pc = cpc;
        }
    }
    dwx_entry r;
    int lx = -1;
    if ((st = dwx_eval_nested(ctx, in->blk, (size_t)in->blen, &sub, 0, &r, in->sub, &lx))) {
        dwx_nest_error(ctx, "in the DW_OP_entry_value expression (caller frame)");
        return st;
    }
    if (!r.is_loc) {
        *out = r.u.v;
        return DWEXPR_OK;
    }
    if (lx != DWEXPR_OP_reg0)
        return dwx_ctx_fail(ctx, DWEXPR_E_NOT_VALUE,
                            "the DW_OP_entry_value expression gives a location that does not "
                            "come from a final DW_OP_reg*");
    /* the register's contents, with the register's own size */
    const dwexpr_sld *rs = dwx_slds(&r);
    uint32_t rbytes = u->addr_size;
    if (rs->kind == DWEXPR_LOC_REGISTER && ctx->t->reg_size) {
        uint32_t b = 0;
        if (dwx_target_reg_size(ctx, ctx->t, ctx->user, rs->u.regno, &b) == DWEXPR_OK && b)
            rbytes = b;
    }
    dwexpr_type t = dwx_generic_type(u);
    if (rbytes != u->addr_size) {
        t.encoding = DW_ATE_unsigned;
        t.bits = 8 * rbytes;
    }
    return dwx_deref(ctx, env, &r, &t, false, out);
}

/* DW_OP_GNU_parameter_ref: the value of a call-site parameter. */
dwexpr_status dwx_op_parameter_ref(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in)
{
    if (!ctx->t->parameter_ref)
        return dwx_ctx_fail(ctx, DWEXPR_E_UNSUPPORTED,
                            "the target cannot resolve call-site parameters");
    dwexpr_frameref f = dwx_frameref(ctx, env, env->frame);
    dwexpr_value v;
    memset(&v, 0, sizeof v);
    dwexpr_status st = ctx->t->parameter_ref(ctx->user, &f, &env->unit, in->a, &v);
    if (st == DWEXPR_E_NOT_FOUND)
        return dwx_ctx_fail(ctx, DWEXPR_E_NO_CONTEXT, "no value for call-site parameter DIE 0x%llx",
                            (unsigned long long)in->a);
    if (st)
        return dwx_ctx_fail(ctx, st, "the target could not read call-site parameter 0x%llx",
                            (unsigned long long)in->a);
    return push_target_value(ctx, env, &v);
}

/* DW_OP_GNU_variable_value: the variable's value, read through its
 * location: an integer or pointer (GCC's artificial variables of VLA
 * bounds), so at most the generic size; a larger variable is ill-formed
 * here, as GDB refuses a type that is no integer or pointer (the byte
 * size is what the DIE tells), rather than its first bytes. */
dwexpr_status dwx_op_variable_value(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in)
{
    const dwexpr_unit *u = &env->unit;
    dwexpr_die d;
    dwexpr_status st = dwx_find_die(ctx, env, in->a, true, &d);
    if (st)
        return st;
    dwx_env sub = *env;
    sub.unit = d.unit;
    sub.object = NULL;
    dwx_entry r;
    if (d.kind == DWEXPR_DIE_EXPRLOC) {
        st = dwx_eval_nested(ctx, d.expr, d.expr_len, &sub, DWEXPR_RESULT_LOCATION, &r, NULL, NULL);
    } else if (d.kind == DWEXPR_DIE_LOCLIST) {
        st = dwx_eval_loclist(ctx, d.entries, d.count, &sub, &r);
    } else if (d.kind == DWEXPR_DIE_CONST_VALUE) {
        dwexpr_sld s = sld_implicit(d.expr, 8 * (uint64_t)d.expr_len);
        set_entry_slds(&r, &s, 1);
    } else {
        return dwx_ctx_fail(ctx, DWEXPR_E_EVALUATION, "DIE 0x%llx has no location or value",
                            (unsigned long long)in->a);
    }
    if (st) {
        dwx_nest_error(ctx, "in the variable's location");
        return st;
    }
    uint64_t size = d.byte_size ? d.byte_size : u->addr_size;
    if (d.kind == DWEXPR_DIE_CONST_VALUE && !d.byte_size)
        size = d.expr_len;
    if (size > u->addr_size)
        return dwx_ctx_fail(ctx, DWEXPR_E_ILL_FORMED,
                            "DW_OP_GNU_variable_value: DIE 0x%llx is a %llu-byte variable, not "
                            "an integer or pointer of at most %u bytes",
                            (unsigned long long)in->a, (unsigned long long)size,
                            (unsigned)u->addr_size);
    dwexpr_type t = dwx_generic_type(u);
    bool tg = false;
    if (size < u->addr_size) {
        t.encoding = DW_ATE_unsigned;
        t.bits = (uint32_t)(8 * size);
        tg = true;
    }
    dwexpr_value v;
    if ((st = dwx_deref(ctx, env, &r, &t, tg, &v)))
        return st;
    return push_value(ctx, &v);
}

/* DW_OP_convert / DW_OP_reinterpret (DWARF 5 2.5.1.6); DIE 0 = generic. */
dwexpr_status dwx_op_convert(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in,
                                uint32_t base)
{
    dwexpr_status st;
    dwexpr_type t;
    dwexpr_value a, r;
    if ((st = need(ctx, base, 1)) || (st = dwx_base_type(ctx, env, in->a, true, &t)) ||
        (st = dwx_to_value(ctx, env, TOP(0), &a)) ||
        (st = dwx_value_convert(ctx, &a, &t, in->x == DWEXPR_OP_reinterpret, &r)))
        return st;
    ctx->sp--;
    return push_value(ctx, &r);
}

/* Arithmetic, logical and relational operations (DWARF 5 2.5.1.4/5). */
/* A value entry of the generic type (1..64 bits, no vector, not an
 * implicit pointer): what dwx_value_binary accepts and computes on
 * without a failure for the operations of arith_generic_inline. */
static inline bool generic_scalar(const dwx_entry *e)
{
    const dwexpr_value *v = &e->u.v;
    return !e->is_loc && v->type.encoding == DWEXPR_ATE_GENERIC && !v->is_implicit_pointer &&
           !v->wide && v->type.lanes <= 1 && v->type.bits - 1 < 64;
}

/* dwx_value_binary for two generic values and an operation that cannot
 * fail on them (plus, minus, mul, and, or, xor, shl, shr), computed into
 * A's entry (the caller pops B): the result has A's type, its bits masked
 * to the type's size; shifts by the width or more give 0. False when the
 * general code must run. */
static inline bool arith_generic_inline(dwx_entry *ea, const dwx_entry *eb, unsigned x)
{
    if (!generic_scalar(ea) || !generic_scalar(eb) || ea->u.v.type.bits != eb->u.v.type.bits)
        return false;
    if (x != DWEXPR_OP_plus && x != DWEXPR_OP_minus && x != DWEXPR_OP_mul && x != DWEXPR_OP_and &&
        x != DWEXPR_OP_or && x != DWEXPR_OP_xor && x != DWEXPR_OP_shl && x != DWEXPR_OP_shr)
        return false;
    uint64_t ur;
    if (dwx_int_binary(x, ea->u.v.bits, eb->u.v.bits, ea->u.v.type.bits, true, false, &ur))
        return false;
    ea->u.v.bits = ur;
    ea->n = 0;
    ea->many = NULL;
    return true;
}

dwexpr_status dwx_op_arith(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in,
                              uint32_t base)
{
    dwexpr_status st;
    dwexpr_value a, b, r;
    if (DWX_LIKELY(ctx->sp - base >= 2 && in->x != DWEXPR_OP_plus_uconst) &&
        arith_generic_inline(TOP(1), TOP(0), in->x)) {
        ctx->sp--;
        return DWEXPR_OK;
    }
    if (in->x == DWEXPR_OP_plus_uconst && ctx->sp - base >= 1 && generic_scalar(TOP(0))) {
        /* dwx_value_binary's plus on a value and the constant of its type */
        dwexpr_value *v = &TOP(0)->u.v;
        const uint64_t m = dwx_mask(v->type.bits);
        v->bits = ((v->bits & m) + (in->a & m)) & m;
        TOP(0)->n = 0;
        TOP(0)->many = NULL;
        return DWEXPR_OK;
    }
    if (in->x == DWEXPR_OP_abs || in->x == DWEXPR_OP_neg || in->x == DWEXPR_OP_not) {
        if ((st = need(ctx, base, 1)) || (st = dwx_to_value(ctx, env, TOP(0), &a)) ||
            (st = dwx_value_unary(ctx, in->x, &a, &r)))
            return st;
        ctx->sp--;
        return push_value(ctx, &r);
    }
    if (in->x == DWEXPR_OP_plus_uconst) {
        /* the constant is "interpreted as the same type as the operand" */
        if ((st = need(ctx, base, 1)) || (st = dwx_to_value(ctx, env, TOP(0), &a)) ||
            (st = dwx_need_integral(ctx, &a, "DW_OP_plus_uconst's operand")))
            return st;
        b = a;
        b.bits = in->a & dwx_mask(a.type.bits);
        b.wide = NULL; /* a wider operand: the constant is its low 64 bits */
        if ((st = dwx_value_binary(ctx, &env->unit, DWEXPR_OP_plus, &a, &b, &r)))
            return st;
        ctx->sp--;
        return push_value(ctx, &r);
    }
    if ((st = need(ctx, base, 2)) || (st = dwx_to_value(ctx, env, TOP(1), &a)) ||
        (st = dwx_to_value(ctx, env, TOP(0), &b)) ||
        (st = dwx_value_binary(ctx, &env->unit, in->x, &a, &b, &r)))
        return st;
    ctx->sp -= 2;
    return push_value(ctx, &r);
}

/* Stack operations (seed "Stack Operations"): any entry kind, but an
 * incomplete composite may not be touched. */
dwexpr_status dwx_op_stack(dwexpr_ctx *ctx, const dwx_insn *in, uint32_t base)
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

/* A taken DW_OP_skip / DW_OP_bra whose target (decoded as DWX_BAD_TARGET:
 * IN->b the reason, IN->c the target) is no operation of the LEN-byte
 * expression: ill-formed (seed "Control Flow Operations"). */
dwexpr_status dwx_bad_branch(dwexpr_ctx *ctx, const dwx_insn *in, size_t len)
{
    const char *name = dwexpr_op_info(in->id)->name;
    if (in->b == DWX_BRANCH_BEFORE)
        return dwx_ctx_fail(ctx, DWEXPR_E_BAD_BRANCH,
                            "%s target %lld is before the start of the expression", name,
                            (long long)in->c);
    if (in->b == DWX_BRANCH_PAST)
        return dwx_ctx_fail(ctx, DWEXPR_E_BAD_BRANCH,
                            "%s target 0x%llx is past the end of the expression (length 0x%zx)",
                            name, (unsigned long long)in->c, len);
    return dwx_ctx_fail(ctx, DWEXPR_E_BAD_BRANCH, "%s target 0x%llx is inside an operation",
                        name, (unsigned long long)in->c);
}

/* Test the popped condition of DW_OP_bra: any non-zero bit. */
dwexpr_status dwx_op_bra_taken(dwexpr_ctx *ctx, const dwx_env *env, uint32_t base, bool *taken)
{
    dwexpr_status st;
    dwexpr_value c;
    if ((st = need(ctx, base, 1)) || (st = dwx_to_value(ctx, env, TOP(0), &c)))
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
