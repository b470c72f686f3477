/* adapters/libdwarf/attr_eval.c: evaluating the attributes that hold DWARF
 * expressions, each with the context the seed prescribes ("Debugging
 * Information Entry Attributes", "DWARF Location List Expressions"):
 * result kind, object, initial stack and the rule on the result. Also the
 * deep copy of a location description. */
#include <stdio.h>
#include <stdlib.h>

#include "services.h"

/* What one attribute evaluation starts from. */
typedef struct spec {
    dwexpr_result_kind kind;
    const dwexpr_loc *object;      /* DW_OP_push_object_address */
    const dwexpr_value *values;    /* initial stack, bottom first ... */
    const dwexpr_loc *locs;        /* ... a location where locs[i].count > 0 */
    size_t count;
} spec;

/* The failure recorded in CTX, copied to ERR. */
static dwexpr_status ctx_fail(dwexpr_ctx *ctx, dwexpr_status st, dwexpr_error *err)
{
    if (err) {
        *err = *dwexpr_ctx_error(ctx);
        if (err->status == DWEXPR_OK)
            err->status = st;
    }
    return st;
}

/* The evaluation parameters for S at focus WHERE. */
static dwexpr_eval_params params_for(const dwexpr_eval_params *where, const spec *s)
{
    dwexpr_eval_params q;
    if (where)
        q = *where;
    else
        memset(&q, 0, sizeof q);
    q.result_kind = s->kind;
    q.object = s->object;
    q.initial_values = s->values;
    q.initial_locs = s->locs;
    q.initial_count = s->count;
    return q;
}

/* Decode and evaluate BYTES of UNIT on CTX with B's target. */
static dwexpr_status run(dwexpr_libdwarf_binding *b, dwexpr_ctx *ctx, const dwexpr_unit *unit,
                         const uint8_t *bytes, size_t len, const spec *s,
                         const dwexpr_eval_params *where, dwexpr_result *out, dwexpr_error *err)
{
    dwexpr_program *p = NULL;
    dwexpr_error derr;
    dwexpr_status st = dwexpr_program_decode(bytes, len, unit, &p, &derr);
    if (st) {
        if (err)
            *err = derr;
        return st;
    }
    dwexpr_eval_params q = params_for(where, s);
    /* the frame, for the DIE service (a DW_OP_GNU_variable_value of an
     * abstract DIE: sv_die), restored for an enclosing evaluation */
    const bool had = b->has_where;
    const dwexpr_frameref was = b->where;
    b->has_where = true;
    b->where = (dwexpr_frameref){q.thread, q.frame, q.lane, q.ctx};
    st = dwexpr_eval(ctx, p, &b->t, b, &q, out);
    b->has_where = had;
    b->where = was;
    dwexpr_program_free(p);
    if (st)
        return ctx_fail(ctx, st, err);
    return DWEXPR_OK;
}

/* The unit record of unit index UNIT. */
static const dwexpr_unit *unit_of(dwexpr_libdwarf_binding *b, size_t unit)
{
    const ld_unit *u = ld_unit_at(b->ld, unit);
    return u ? &u->pub.unit : NULL;
}

/* Fetch attribute AT; E_NOT_FOUND passes through quietly. */
static dwexpr_status fetch(dwexpr_libdwarf_binding *b, size_t unit, uint64_t die, uint16_t at,
                           dwexpr_libdwarf_attr *a, dwexpr_error *err)
{
    if (!unit_of(b, unit))
        return ld_fail(err, DWEXPR_E_USAGE, "no unit %zu", unit);
    b->msg[0] = 0; /* a fresh evaluation: forget the last service note */
    return dwexpr_libdwarf_attr_get(b->ld, unit, die, at, a, err);
}

/* Append the places of R (deep copies) to the binding-owned location. */
static dwexpr_status own_append(dwexpr_libdwarf_binding *b, const dwexpr_loc *r,
                                dwexpr_error *err)
{
    dwexpr_loc copy;
    if (dwexpr_libdwarf_loc_copy(r, &copy))
        return ld_fail(err, DWEXPR_E_NOMEM, "out of memory");
    dwexpr_sld *n = realloc((void *)(uintptr_t)b->owned.slds,
                            sizeof *n * (b->owned.count + copy.count));
    if (!n) {
        dwexpr_libdwarf_loc_free(&copy);
        return ld_fail(err, DWEXPR_E_NOMEM, "out of memory");
    }
    memcpy(n + b->owned.count, copy.slds, sizeof *n * copy.count);
    free((void *)(uintptr_t)copy.slds); /* the places moved; their contents stay owned */
    b->owned.slds = n;
    b->owned.count += copy.count;
    return DWEXPR_OK;
}

/* Free the binding-owned union of the last multi-entry result. */
void ld_results_release(dwexpr_libdwarf_binding *b)
{
    dwexpr_libdwarf_loc_free(&b->owned);
}

/* The entries of list A that match PC (seed "DWARF Location List
 * Expressions": the bounded entries holding PC, else the default ones):
 * their indexes into IDX (at most CAP); returns how many. */
static size_t list_matches(const dwexpr_libdwarf_attr *a, uint64_t pc, size_t *idx, size_t cap)
{
    size_t bounded = 0, n = 0;
    for (size_t i = 0; i < a->count; i++)
        if (!a->entries[i].is_default && pc >= a->entries[i].low && pc < a->entries[i].high)
            bounded++;
    for (size_t i = 0; i < a->count && n < cap; i++) {
        const dwexpr_loclist_entry *e = &a->entries[i];
        if (e->is_default ? bounded == 0 : (pc >= e->low && pc < e->high))
            idx[n++] = i;
    }
    return n;
}

/* seed "DWARF Location List Expressions" for an attribute with context S:
 * no pc is a context error, no match the undefined location, each match
 * evaluated with S and the places united. */
static dwexpr_status eval_list(dwexpr_libdwarf_binding *b, dwexpr_ctx *ctx, size_t unit,
                               const dwexpr_libdwarf_attr *a, const spec *s,
                               const dwexpr_eval_params *where, dwexpr_result *out,
                               dwexpr_error *err)
{
    const dwexpr_unit *u = unit_of(b, unit);
    if (!where || !where->has_pc)
        return ld_fail(err, DWEXPR_E_NO_CONTEXT,
                       "a location list needs the current program location");
    size_t idx[64], n = list_matches(a, where->pc, idx, 64);
    if (n == 0) {
        /* an empty expression: the undefined location (seed "DWARF
         * Operation Expressions": an empty stack) */
        spec none = {DWEXPR_RESULT_LOCATION, NULL, NULL, NULL, 0};
        static const uint8_t empty[1] = {0};
        return run(b, ctx, u, empty, 0, &none, where, out, err);
    }
    if (n == 1 || s->kind == DWEXPR_RESULT_VALUE)
        return run(b, ctx, u, a->entries[idx[0]].expr, a->entries[idx[0]].expr_len, s, where, out,
                   err);
    ld_results_release(b);
    for (size_t k = 0; k < n; k++) {
        dwexpr_result r;
        const dwexpr_loclist_entry *e = &a->entries[idx[k]];
        dwexpr_status st = run(b, ctx, u, e->expr, e->expr_len, s, where, &r, err);
        if (st)
            return st;
        if (r.kind != DWEXPR_RESULT_LOCATION)
            return ld_fail(err, DWEXPR_E_NOT_LOCATION, "a list entry gives a value");
        if ((st = own_append(b, &r.loc, err)))
            return st;
    }
    memset(out, 0, sizeof *out);
    out->kind = DWEXPR_RESULT_LOCATION;
    out->loc = b->owned;
    return DWEXPR_OK;
}

/* Evaluate an expression-valued attribute A (exprloc or list) with S. */
static dwexpr_status eval_attr(dwexpr_libdwarf_binding *b, dwexpr_ctx *ctx, size_t unit,
                               const dwexpr_libdwarf_attr *a, const spec *s,
                               const dwexpr_eval_params *where, dwexpr_result *out,
                               dwexpr_error *err)
{
    switch (a->kind) {
    case DWEXPR_LIBDWARF_ATTR_EXPR:
        return run(b, ctx, unit_of(b, unit), a->data, a->len, s, where, out, err);
    case DWEXPR_LIBDWARF_ATTR_LIST:
        return eval_list(b, ctx, unit, a, s, where, out, err);
    case DWEXPR_LIBDWARF_ATTR_NONE:
        return ld_fail(err, DWEXPR_E_NOT_FOUND, "no such attribute");
    default:
        return ld_fail(err, DWEXPR_E_ILL_FORMED,
                       "attribute 0x%x (form 0x%x) is not a DWARF expression", a->attr, a->form);
    }
}

/* Bytes of one operation with its ULEB/SLEB operand into BUF; returns the length. */
static size_t put_uleb(uint8_t *p, uint64_t v)
{
    size_t n = 0;
    do {
        uint8_t byte = v & 0x7f;
        v >>= 7;
        p[n++] = (uint8_t)(byte | (v ? 0x80 : 0));
    } while (v);
    return n;
}

/* Signed LEB128 of V into P; returns the length. */
static size_t put_sleb(uint8_t *p, int64_t v)
{
    size_t n = 0;
    for (;;) {
        uint8_t byte = (uint8_t)(v & 0x7f);
        v >>= 7; /* arithmetic on the implementations dwexpr supports */
        bool done = (v == 0 && !(byte & 0x40)) || (v == -1 && (byte & 0x40));
        p[n++] = (uint8_t)(byte | (done ? 0 : 0x80));
        if (done)
            return n;
    }
}

/* The encoding of DW_OP_LLVM_* operation ID in UNIT's ext encoding. */
static size_t put_llvm(uint8_t *p, dwexpr_opid id, const dwexpr_unit *u)
{
    const dwexpr_opinfo *oi = dwexpr_op_info(id);
    if (u->ext_encoding == DWEXPR_EXT_PROVISIONAL && oi->code) {
        p[0] = oi->code;
        return 1;
    }
    p[0] = DW_OP_LLVM_user;
    return 1 + put_uleb(p + 1, oi->subop);
}

/* DW_OP_call_ref DIE (DWARF 5 7.7.1: an offset-size operand, address size
 * in DWARF 2), in the unit's byte order. */
static size_t put_call_ref(uint8_t *p, const dwexpr_unit *u, uint64_t die)
{
    unsigned n = u->version == 2 ? u->addr_size : u->offset_size;
    p[0] = 0x9a;
    for (unsigned i = 0; i < n; i++)
        p[1 + (u->big_endian ? n - 1 - i : i)] = (uint8_t)(die >> (8 * i));
    return 1 + n;
}

/* ---- the attributes ---- */

dwexpr_status dwexpr_libdwarf_eval_location(dwexpr_libdwarf_binding *b, dwexpr_ctx *ctx,
                                            size_t unit, uint64_t die,
                                            const dwexpr_eval_params *where, dwexpr_result *out,
                                            dwexpr_error *err)
{
    if (!b || !ctx || !out)
        return ld_fail(err, DWEXPR_E_USAGE, "missing binding, context or output");
    /* a DIE with neither attribute: the one its declaration or abstract
     * origin has (ld_value_die, as GDB) */
    size_t vu = unit;
    uint64_t vd = die;
    if (unit_of(b, unit) && ld_value_die(b->ld, &vu, &vd) == DWEXPR_OK && unit_of(b, vu)) {
        unit = vu;
        die = vd;
    }
    dwexpr_libdwarf_attr a;
    dwexpr_status st = fetch(b, unit, die, DW_AT_location, &a, err);
    spec s = {DWEXPR_RESULT_LOCATION, NULL, NULL, NULL, 0};
    const dwexpr_unit *u = unit_of(b, unit);
    if (st == DWEXPR_E_NOT_FOUND) {
        /* DW_AT_const_value: as DW_OP_call_ref on the DIE, an implicit
         * location (seed "DW_AT_const_value", "Control Flow Operations") */
        dwexpr_libdwarf_attr c;
        st = fetch(b, unit, die, DW_AT_const_value, &c, err);
        if (st)
            return st;
        if (c.kind != DWEXPR_LIBDWARF_ATTR_CONST)
            return ld_fail(err, DWEXPR_E_ILL_FORMED, "DW_AT_const_value is not a constant");
        uint8_t prog[16];
        return run(b, ctx, u, prog, put_call_ref(prog, u, die), &s, where, out, err);
    }
    if (st)
        return st;
    if (a.kind == DWEXPR_LIBDWARF_ATTR_LIST) {
        if (!where || !where->has_pc)
            return ld_fail(err, DWEXPR_E_NO_CONTEXT,
                           "a location list needs the current program location");
        /* one matching entry (the usual case) or none: its expression is
         * evaluated as the variable's own, so that a failure names the
         * entry's operation and offset */
        size_t idx[64], n = list_matches(&a, where->pc, idx, 64);
        if (n <= 1)
            return eval_list(b, ctx, unit, &a, &s, where, out, err);
        /* several: the evaluator unites their places in CTX (DW_OP_call_ref
         * on the DIE pushes the location of its list, seed "Control Flow
         * Operations"); a failure is then found again entry by entry, so
         * that ERR names the failing entry's own operation, not the
         * wrapper (the entries only read the target: the same one fails) */
        uint8_t prog[16];
        st = run(b, ctx, u, prog, put_call_ref(prog, u, die), &s, where, out, err);
        if (st == DWEXPR_OK)
            return st;
        for (size_t k = 0; k < n; k++) {
            const dwexpr_loclist_entry *e = &a.entries[idx[k]];
            dwexpr_result r;
            dwexpr_error ee;
            dwexpr_status es = run(b, ctx, u, e->expr, e->expr_len, &s, where, &r, &ee);
            if (es) {
                if (err)
                    *err = ee;
                return es;
            }
        }
        return st;
    }
    return eval_attr(b, ctx, unit, &a, &s, where, out, err);
}

/* Whether an expression holds DW_OP_fbreg (ill-formed in a frame base). */
static bool has_fbreg(const uint8_t *p, size_t n, const dwexpr_unit *u)
{
    dwexpr_program *prog = NULL;
    dwexpr_error e;
    if (dwexpr_program_decode(p, n, u, &prog, &e) != DWEXPR_OK)
        return false; /* the evaluation reports the decode error */
    bool found = false;
    dwexpr_op view;
    for (size_t i = 0; i < dwexpr_program_count(prog); i++)
        if (dwexpr_program_op(prog, i, &view)->id == DWEXPR_OP_fbreg)
            found = true;
    dwexpr_program_free(prog);
    return found;
}

dwexpr_status dwexpr_libdwarf_eval_frame_base(dwexpr_libdwarf_binding *b, dwexpr_ctx *ctx,
                                              size_t unit, uint64_t die,
                                              const dwexpr_eval_params *where,
                                              dwexpr_result *out, dwexpr_error *err)
{
    if (!b || !ctx || !out)
        return ld_fail(err, DWEXPR_E_USAGE, "missing binding, context or output");
    dwexpr_libdwarf_attr a;
    dwexpr_status st = fetch(b, unit, die, DW_AT_frame_base, &a, err);
    if (st)
        return st;
    const dwexpr_unit *u = unit_of(b, unit);
    const uint8_t *expr;
    size_t len;
    if (a.kind == DWEXPR_LIBDWARF_ATTR_EXPR) {
        expr = a.data;
        len = a.len;
    } else if (a.kind == DWEXPR_LIBDWARF_ATTR_LIST) {
        if (!where || !where->has_pc)
            return ld_fail(err, DWEXPR_E_NO_CONTEXT,
                           "a location list needs the current program location");
        const dwexpr_loclist_entry *e = ld_list_match(&a, where->pc);
        if (!e)
            return ld_fail(err, DWEXPR_E_EVALUATION,
                           "the frame base list has no entry for pc 0x%llx",
                           (unsigned long long)where->pc);
        expr = e->expr;
        len = e->expr_len;
    } else {
        return ld_fail(err, DWEXPR_E_ILL_FORMED, "DW_AT_frame_base is not a DWARF expression");
    }
    /* seed "DW_AT_frame_base": fbreg is ill-formed; one place; a register
     * R becomes DW_OP_bregx R 0; otherwise it must be memory */
    if (has_fbreg(expr, len, u))
        return ld_fail(err, DWEXPR_E_ILL_FORMED, "DW_AT_frame_base uses DW_OP_fbreg");
    spec s = {DWEXPR_RESULT_LOCATION, NULL, NULL, NULL, 0};
    if ((st = run(b, ctx, u, expr, len, &s, where, out, err)))
        return st;
    if (out->loc.count != 1)
        return ld_fail(err, DWEXPR_E_ILL_FORMED,
                       "the frame base is not one single location description");
    const dwexpr_sld *sl = &out->loc.slds[0];
    if (sl->kind == DWEXPR_LOC_REGISTER) {
        uint8_t prog[16];
        size_t n = 0;
        prog[n++] = 0x92; /* DW_OP_bregx R 0 */
        n += put_uleb(prog + n, sl->u.regno);
        n += put_sleb(prog + n, 0);
        return run(b, ctx, u, prog, n, &s, where, out, err);
    }
    if (sl->kind != DWEXPR_LOC_MEMORY)
        return ld_fail(err, DWEXPR_E_ILL_FORMED,
                       "the frame base is neither a memory nor a register location");
    return DWEXPR_OK;
}

dwexpr_status dwexpr_libdwarf_eval_member_location(dwexpr_libdwarf_binding *b, dwexpr_ctx *ctx,
                                                   size_t unit, uint64_t die,
                                                   const dwexpr_loc *containing,
                                                   const dwexpr_eval_params *where,
                                                   dwexpr_result *out, dwexpr_error *err)
{
    if (!b || !ctx || !out || !containing || containing->count == 0)
        return ld_fail(err, DWEXPR_E_USAGE, "missing binding, context, output or location");
    const dwexpr_unit *u = unit_of(b, unit);
    if (!u)
        return ld_fail(err, DWEXPR_E_USAGE, "no unit %zu", unit);
    dwexpr_loc locs[1] = {*containing};
    spec s = {DWEXPR_RESULT_LOCATION, NULL, NULL, locs, 1};
    dwexpr_libdwarf_attr a;
    dwexpr_status st = fetch(b, unit, die, DW_AT_data_member_location, &a, err);
    uint8_t prog[32];
    size_t n = 0;
    if (st == DWEXPR_E_NOT_FOUND) {
        /* DWARF 5 5.7.6: DW_AT_data_bit_offset, else the member starts
         * where the containing entity does */
        dwexpr_libdwarf_attr bo;
        st = fetch(b, unit, die, DW_AT_data_bit_offset, &bo, err);
        if (st == DWEXPR_OK && bo.kind == DWEXPR_LIBDWARF_ATTR_CONST) {
            prog[n++] = 0x10; /* DW_OP_constu */
            n += put_uleb(prog + n, bo.uconst);
            n += put_llvm(prog + n, DWEXPR_OP_LLVM_bit_offset, u);
        } else if (st == DWEXPR_E_NOT_FOUND || st == DWEXPR_OK) {
            prog[n++] = 0x30; /* DW_OP_lit0 */
            n += put_llvm(prog + n, DWEXPR_OP_LLVM_offset, u);
        } else {
            return st;
        }
        return run(b, ctx, u, prog, n, &s, where, out, err);
    }
    if (st)
        return st;
    uint64_t disp;
    if (a.kind == DWEXPR_LIBDWARF_ATTR_EXPR && ld_constant_displacement(a.data, a.len, &disp)) {
        /* the constant case written as an expression */
        prog[n++] = 0x10; /* DW_OP_constu */
        n += put_uleb(prog + n, disp);
        n += put_llvm(prog + n, DWEXPR_OP_LLVM_offset, u);
        return run(b, ctx, u, prog, n, &s, where, out, err);
    }
    if (a.kind == DWEXPR_LIBDWARF_ATTR_CONST) {
        /* seed "DW_AT_data_member_location" case 1: DW_OP_LLVM_offset B */
        prog[n++] = 0x11; /* DW_OP_consts */
        n += put_sleb(prog + n, a.is_signed ? a.sconst : (int64_t)a.uconst);
        n += put_llvm(prog + n, DWEXPR_OP_LLVM_offset, u);
        return run(b, ctx, u, prog, n, &s, where, out, err);
    }
    return eval_attr(b, ctx, unit, &a, &s, where, out, err);
}

dwexpr_status dwexpr_libdwarf_eval_data_location(dwexpr_libdwarf_binding *b, dwexpr_ctx *ctx,
                                                 size_t unit, uint64_t die,
                                                 const dwexpr_loc *descriptor,
                                                 const dwexpr_eval_params *where,
                                                 dwexpr_result *out, dwexpr_error *err)
{
    if (!b || !ctx || !out || !descriptor)
        return ld_fail(err, DWEXPR_E_USAGE, "missing binding, context, output or descriptor");
    const dwexpr_unit *u = unit_of(b, unit);
    if (!u)
        return ld_fail(err, DWEXPR_E_USAGE, "no unit %zu", unit);
    spec s = {DWEXPR_RESULT_LOCATION, descriptor, NULL, NULL, 0};
    dwexpr_libdwarf_attr a;
    dwexpr_status st = fetch(b, unit, die, DW_AT_data_location, &a, err);
    if (st == DWEXPR_E_NOT_FOUND) {
        /* "when this attribute is omitted, the location description of the
         * data is the same as the location description of the object" */
        static const uint8_t push_object[1] = {0x97};
        return run(b, ctx, u, push_object, 1, &s, where, out, err);
    }
    if (st)
        return st;
    return eval_attr(b, ctx, unit, &a, &s, where, out, err);
}

dwexpr_status dwexpr_libdwarf_eval_use_location(dwexpr_libdwarf_binding *b, dwexpr_ctx *ctx,
                                                size_t unit, uint64_t die,
                                                const dwexpr_value *member_ptr,
                                                const dwexpr_loc *instance,
                                                const dwexpr_eval_params *where,
                                                dwexpr_result *out, dwexpr_error *err)
{
    if (!b || !ctx || !out || !member_ptr || !instance || instance->count == 0)
        return ld_fail(err, DWEXPR_E_USAGE, "missing binding, context, output or operand");
    dwexpr_libdwarf_attr a;
    dwexpr_status st = fetch(b, unit, die, DW_AT_use_location, &a, err);
    if (st)
        return st;
    /* seed "DW_AT_use_location": first the pointer to member value, then
     * the location of the instance */
    dwexpr_value vals[2];
    dwexpr_loc locs[2];
    memset(vals, 0, sizeof vals);
    memset(locs, 0, sizeof locs);
    vals[0] = *member_ptr;
    locs[1] = *instance;
    spec s = {DWEXPR_RESULT_LOCATION, NULL, vals, locs, 2};
    return eval_attr(b, ctx, unit, &a, &s, where, out, err);
}

dwexpr_status dwexpr_libdwarf_eval_vtable_elem_location(dwexpr_libdwarf_binding *b,
                                                        dwexpr_ctx *ctx, size_t unit,
                                                        uint64_t die, const dwexpr_loc *object,
                                                        const dwexpr_eval_params *where,
                                                        dwexpr_result *out, dwexpr_error *err)
{
    if (!b || !ctx || !out || !object || object->count == 0)
        return ld_fail(err, DWEXPR_E_USAGE, "missing binding, context, output or object");
    dwexpr_libdwarf_attr a;
    dwexpr_status st = fetch(b, unit, die, DW_AT_vtable_elem_location, &a, err);
    if (st)
        return st;
    dwexpr_loc locs[1] = {*object};
    spec s = {DWEXPR_RESULT_LOCATION, NULL, NULL, locs, 1};
    return eval_attr(b, ctx, unit, &a, &s, where, out, err);
}

/* An attribute whose result must be one memory location (seed
 * "DW_AT_static_link", "DW_AT_return_addr"). */
static dwexpr_status one_memory(dwexpr_libdwarf_binding *b, dwexpr_ctx *ctx, size_t unit,
                                uint64_t die, uint16_t at, const char *name,
                                const dwexpr_eval_params *where, dwexpr_result *out,
                                dwexpr_error *err)
{
    if (!b || !ctx || !out)
        return ld_fail(err, DWEXPR_E_USAGE, "missing binding, context or output");
    dwexpr_libdwarf_attr a;
    dwexpr_status st = fetch(b, unit, die, at, &a, err);
    if (st)
        return st;
    spec s = {DWEXPR_RESULT_LOCATION, NULL, NULL, NULL, 0};
    if ((st = eval_attr(b, ctx, unit, &a, &s, where, out, err)))
        return st;
    if (out->loc.count != 1 || out->loc.slds[0].kind != DWEXPR_LOC_MEMORY)
        return ld_fail(err, DWEXPR_E_ILL_FORMED, "%s is not one memory location description",
                       name);
    return DWEXPR_OK;
}

dwexpr_status dwexpr_libdwarf_eval_static_link(dwexpr_libdwarf_binding *b, dwexpr_ctx *ctx,
                                               size_t unit, uint64_t die,
                                               const dwexpr_eval_params *where,
                                               dwexpr_result *out, dwexpr_error *err)
{
    return one_memory(b, ctx, unit, die, DW_AT_static_link, "DW_AT_static_link", where, out, err);
}

dwexpr_status dwexpr_libdwarf_eval_return_addr(dwexpr_libdwarf_binding *b, dwexpr_ctx *ctx,
                                               size_t unit, uint64_t die,
                                               const dwexpr_eval_params *where,
                                               dwexpr_result *out, dwexpr_error *err)
{
    return one_memory(b, ctx, unit, die, DW_AT_return_addr, "DW_AT_return_addr", where, out, err);
}

dwexpr_status dwexpr_libdwarf_eval_call_attr(dwexpr_libdwarf_binding *b, dwexpr_ctx *ctx,
                                             size_t unit, uint64_t die, uint16_t at,
                                             const dwexpr_eval_params *where,
                                             dwexpr_result *out, dwexpr_error *err)
{
    if (!b || !ctx || !out)
        return ld_fail(err, DWEXPR_E_USAGE, "missing binding, context or output");
    dwexpr_result_kind kind;
    switch (at) {
    case DW_AT_call_value:
    case DW_AT_call_data_value:
    case DW_AT_GNU_call_site_value:
    case DW_AT_GNU_call_site_data_value:
        kind = DWEXPR_RESULT_VALUE;
        break;
    case DW_AT_call_data_location:
        kind = DWEXPR_RESULT_LOCATION;
        break;
    default:
        return ld_fail(err, DWEXPR_E_USAGE, "attribute 0x%x is not a call-site attribute", at);
    }
    dwexpr_libdwarf_attr a;
    dwexpr_status st = fetch(b, unit, die, at, &a, err);
    if (st)
        return st;
    /* seed "DW_AT_call_value ...": operation expressions only */
    if (a.kind != DWEXPR_LIBDWARF_ATTR_EXPR)
        return ld_fail(err, DWEXPR_E_ILL_FORMED, "call-site attribute 0x%x is not an exprloc", at);
    spec s = {kind, NULL, NULL, NULL, 0};
    return eval_attr(b, ctx, unit, &a, &s, where, out, err);
}

/* Whether TYPE (through typedefs and qualifiers) is a signed base type. */
static bool type_signed(dwexpr_libdwarf *ld, size_t unit, uint64_t type)
{
    const ld_unit *u = ld_unit_at(ld, unit);
    for (int depth = 0; type && depth < 16; depth++) {
        dwexpr_type t;
        if (type >= u->hdr && ld_base_type(ld, unit, type - u->hdr, &t) == DWEXPR_OK)
            return t.encoding == DW_ATE_signed || t.encoding == DW_ATE_signed_char;
        uint64_t next = ld_die_type(ld, unit, type);
        if (next == type)
            break;
        type = next;
    }
    return false;
}

/* Read an integer of BYTES bytes (target order) through LOC. */
static dwexpr_status read_int(dwexpr_libdwarf_binding *b, dwexpr_ctx *ctx, const dwexpr_loc *loc,
                              uint64_t bytes, bool is_signed, bool big, int64_t *out,
                              dwexpr_error *err)
{
    uint8_t buf[8];
    if (bytes == 0 || bytes > 8)
        return ld_fail(err, DWEXPR_E_ILL_FORMED, "a bound of %llu bytes", (unsigned long long)bytes);
    dwexpr_status st = dwexpr_loc_read(ctx, &b->t, b, loc, 8 * bytes, buf, NULL);
    if (st)
        return ctx_fail(ctx, st, err);
    uint64_t v = 0;
    for (uint64_t i = 0; i < bytes; i++)
        v |= (uint64_t)buf[big ? bytes - 1 - i : i] << (8 * i);
    if (is_signed && bytes < 8 && (v >> (8 * bytes - 1)) & 1)
        v |= ~(uint64_t)0 << (8 * bytes);
    *out = (int64_t)v;
    return DWEXPR_OK;
}

dwexpr_status dwexpr_libdwarf_eval_bound(dwexpr_libdwarf_binding *b, dwexpr_ctx *ctx, size_t unit,
                                         uint64_t die, uint16_t at, const dwexpr_loc *object,
                                         const dwexpr_eval_params *where, int64_t *value,
                                         dwexpr_error *err)
{
    if (!b || !ctx || !value)
        return ld_fail(err, DWEXPR_E_USAGE, "missing binding, context or output");
    switch (at) {
    case DW_AT_lower_bound: case DW_AT_upper_bound: case DW_AT_count: case DW_AT_byte_size:
    case DW_AT_bit_size: case DW_AT_bit_stride: case DW_AT_byte_stride: case DW_AT_string_length:
        break;
    default:
        return ld_fail(err, DWEXPR_E_USAGE, "attribute 0x%x is not a bound or size", at);
    }
    const dwexpr_unit *u = unit_of(b, unit);
    if (!u)
        return ld_fail(err, DWEXPR_E_USAGE, "no unit %zu", unit);
    dwexpr_libdwarf_attr a;
    dwexpr_status st = fetch(b, unit, die, at, &a, err);
    if (st)
        return st;
    dwexpr_result r;
    switch (a.kind) {
    case DWEXPR_LIBDWARF_ATTR_CONST:
        *value = a.is_signed ? a.sconst : (int64_t)a.uconst;
        return DWEXPR_OK;
    case DWEXPR_LIBDWARF_ATTR_EXPR:
    case DWEXPR_LIBDWARF_ATTR_LIST: {
        if (at == DW_AT_string_length) {
            /* DWARF 5 5.11: the location of the length, whose size is
             * DW_AT_string_length_byte_size / _bit_size or the generic size */
            spec s = {DWEXPR_RESULT_LOCATION, object, NULL, NULL, 0};
            if ((st = eval_attr(b, ctx, unit, &a, &s, where, &r, err)))
                return st;
            uint64_t bytes = u->addr_size;
            dwexpr_libdwarf_attr sz;
            if (fetch(b, unit, die, DW_AT_string_length_byte_size, &sz, NULL) == DWEXPR_OK &&
                sz.kind == DWEXPR_LIBDWARF_ATTR_CONST)
                bytes = sz.uconst;
            else if (fetch(b, unit, die, DW_AT_string_length_bit_size, &sz, NULL) == DWEXPR_OK &&
                     sz.kind == DWEXPR_LIBDWARF_ATTR_CONST)
                bytes = (sz.uconst + 7) / 8;
            return read_int(b, ctx, &r.loc, bytes, false, u->big_endian, value, err);
        }
        /* DWARF 5 2.19: an expression computes the value; the object is
         * the one whose bound it is (DW_OP_push_object_address) */
        spec s = {DWEXPR_RESULT_VALUE, object, NULL, NULL, 0};
        if ((st = eval_attr(b, ctx, unit, &a, &s, where, &r, err)))
            return st;
        if (r.value.is_implicit_pointer || !dwexpr_type_is_integral(&r.value.type))
            return ld_fail(err, DWEXPR_E_NOT_INTEGRAL, "the bound is not an integral value");
        uint64_t v = r.value.bits;
        uint32_t bits = r.value.type.bits;
        bool sgn = r.value.type.encoding == DW_ATE_signed ||
                   r.value.type.encoding == DW_ATE_signed_char;
        if (sgn && bits > 0 && bits < 64 && ((v >> (bits - 1)) & 1))
            v |= ~(uint64_t)0 << bits;
        *value = (int64_t)v;
        return DWEXPR_OK;
    }
    case DWEXPR_LIBDWARF_ATTR_REF: {
        /* DWARF 5 2.19: the value of the variable (or member) referred to */
        const ld_unit *cu = ld_unit_at(b->ld, unit);
        size_t tu = ld_unit_of(b->ld, cu->file, a.ref);
        if (tu == SIZE_MAX)
            return ld_fail(err, DWEXPR_E_ILL_FORMED, "the bound refers to no DIE (0x%llx)",
                           (unsigned long long)a.ref);
        dwexpr_libdwarf_attr ml;
        if (fetch(b, tu, a.ref, DW_AT_data_member_location, &ml, NULL) == DWEXPR_OK) {
            if (!object)
                return ld_fail(err, DWEXPR_E_NO_CONTEXT,
                               "the bound is a member and needs the object");
            st = dwexpr_libdwarf_eval_member_location(b, ctx, tu, a.ref, object, where, &r, err);
        } else {
            st = dwexpr_libdwarf_eval_location(b, ctx, tu, a.ref, where, &r, err);
        }
        if (st)
            return st;
        uint64_t type = ld_die_type(b->ld, tu, a.ref);
        uint64_t bytes = ld_type_bytes(b->ld, tu, type);
        return read_int(b, ctx, &r.loc, bytes ? bytes : u->addr_size,
                        type_signed(b->ld, tu, type), u->big_endian, value, err);
    }
    default:
        return ld_fail(err, DWEXPR_E_ILL_FORMED, "attribute 0x%x has form 0x%x", at, a.form);
    }
}

/* The subrange / enumeration children of array type ARRAY (up to CAP). */
static size_t dims_of(dwexpr_libdwarf *ld, const ld_unit *u, uint64_t array, uint64_t *dims,
                      size_t cap)
{
    Dwarf_Die d, c;
    size_t n = 0;
    if (ld_offdie(ld, u->file, array, &d, NULL) != DWEXPR_OK)
        return 0;
    Dwarf_Debug dbg = ld->files[u->file].dbg;
    Dwarf_Error e = NULL;
    int r = ld_first_child(dbg, d, &c);
    while (r == DW_DLV_OK) {
        Dwarf_Half t = 0;
        Dwarf_Off off = 0;
        e = NULL;
        if (dwarf_tag(c, &t, &e) == DW_DLV_ERROR)
            ld_drop(dbg, e);
        e = NULL;
        if (dwarf_dieoffset(c, &off, &e) == DW_DLV_ERROR)
            ld_drop(dbg, e);
        if ((t == DW_TAG_subrange_type || t == DW_TAG_enumeration_type) && n < cap)
            dims[n++] = off;
        r = ld_next_sibling(dbg, &c);
    }
    dwarf_dealloc_die(d);
    return n;
}

/* Whether array type ARRAY of unit UNIT is in column-major order
 * (DW_AT_ordering, else the language's order). */
static bool column_major(dwexpr_libdwarf_binding *b, size_t unit, uint64_t array)
{
    dwexpr_libdwarf_attr a;
    if (fetch(b, unit, array, DW_AT_ordering, &a, NULL) == DWEXPR_OK &&
        a.kind == DWEXPR_LIBDWARF_ATTR_CONST)
        return a.uconst == DW_ORD_col_major;
    return ld_column_major(b->ld, unit);
}

/* A stride of DIE in bits: DW_AT_byte_stride x 8 or DW_AT_bit_stride;
 * *BITS 0 when it has neither. */
static dwexpr_status stride_of(dwexpr_libdwarf_binding *b, dwexpr_ctx *ctx, size_t unit,
                               uint64_t die, const dwexpr_loc *object,
                               const dwexpr_eval_params *where, int64_t *bits, dwexpr_error *err)
{
    int64_t v;
    dwexpr_status st = dwexpr_libdwarf_eval_bound(b, ctx, unit, die, DW_AT_byte_stride, object,
                                                  where, &v, err);
    if (st == DWEXPR_OK) {
        *bits = 8 * v;
        return DWEXPR_OK;
    }
    if (st != DWEXPR_E_NOT_FOUND)
        return st;
    st = dwexpr_libdwarf_eval_bound(b, ctx, unit, die, DW_AT_bit_stride, object, where, &v, err);
    if (st == DWEXPR_OK) {
        *bits = v;
        return DWEXPR_OK;
    }
    *bits = 0;
    return st == DWEXPR_E_NOT_FOUND ? DWEXPR_OK : st;
}

dwexpr_status dwexpr_libdwarf_array_dim(dwexpr_libdwarf_binding *b, dwexpr_ctx *ctx, size_t unit,
                                        uint64_t array, unsigned index, const dwexpr_loc *object,
                                        const dwexpr_eval_params *where, dwexpr_libdwarf_dim *out,
                                        dwexpr_error *err)
{
    if (!b || !ctx || !out)
        return ld_fail(err, DWEXPR_E_USAGE, "missing binding, context or output");
    const ld_unit *u = ld_unit_at(b->ld, unit);
    if (!u)
        return ld_fail(err, DWEXPR_E_USAGE, "no unit %zu", unit);
    memset(out, 0, sizeof *out);
    uint64_t dims[16];
    size_t n = dims_of(b->ld, u, array, dims, 16);
    if (index >= n)
        return ld_fail(err, DWEXPR_E_NOT_FOUND, "array 0x%llx has no dimension %u",
                       (unsigned long long)array, index);
    const uint64_t d = dims[index];
    out->die = d;
    out->innermost = column_major(b, unit, array) ? index == 0 : index == n - 1;
    /* DWARF 5 5.13: the default lower bound is the language's (Table 7.17) */
    dwexpr_status st = dwexpr_libdwarf_eval_bound(b, ctx, unit, d, DW_AT_lower_bound, object,
                                                  where, &out->lower, err);
    if (st == DWEXPR_E_NOT_FOUND)
        out->lower = ld_default_lower_bound(b->ld, unit);
    else if (st)
        return st;
    int64_t v;
    st = dwexpr_libdwarf_eval_bound(b, ctx, unit, d, DW_AT_count, object, where, &v, err);
    if (st == DWEXPR_E_NOT_FOUND) {
        st = dwexpr_libdwarf_eval_bound(b, ctx, unit, d, DW_AT_upper_bound, object, where, &v,
                                        err);
        if (st == DWEXPR_OK)
            v = v < out->lower ? 0 : v - out->lower + 1;
    }
    if (st == DWEXPR_OK) {
        out->has_count = true;
        out->count = v < 0 ? 0 : v;
    } else if (st != DWEXPR_E_NOT_FOUND) {
        return st;
    }
    /* DWARF 5 5.13: the subrange's stride; 5.5: the array type's is the
     * size of each element, the stride of the innermost dimension */
    if ((st = stride_of(b, ctx, unit, d, object, where, &out->stride_bits, err)))
        return st;
    if (!out->stride_bits && out->innermost &&
        (st = stride_of(b, ctx, unit, array, object, where, &out->stride_bits, err)))
        return st;
    return DWEXPR_OK;
}

dwexpr_status dwexpr_libdwarf_type_size(dwexpr_libdwarf_binding *b, dwexpr_ctx *ctx, size_t unit,
                                        uint64_t type, const dwexpr_loc *object,
                                        const dwexpr_eval_params *where, uint64_t *bytes,
                                        dwexpr_error *err)
{
    if (!b || !ctx || !bytes)
        return ld_fail(err, DWEXPR_E_USAGE, "missing binding, context or output");
    const ld_unit *u = ld_unit_at(b->ld, unit);
    if (!u)
        return ld_fail(err, DWEXPR_E_USAGE, "no unit %zu", unit);
    *bytes = 0;
    for (int depth = 0; type && depth < 32; depth++) {
        dwexpr_libdwarf_type_info ti;
        if (dwexpr_libdwarf_type_get(b->ld, unit, type, &ti))
            return ld_fail(err, DWEXPR_E_NOT_FOUND, "no type at 0x%llx", (unsigned long long)type);
        if (ti.bytes) {
            *bytes = ti.bytes;
            return DWEXPR_OK;
        }
        switch (ti.tag) {
        case DW_TAG_typedef: case DW_TAG_const_type: case DW_TAG_volatile_type:
        case DW_TAG_restrict_type: case DW_TAG_atomic_type:
            type = ti.target;
            continue;
        case DW_TAG_array_type: {
            /* DWARF 5 5.5 / 5.13: element size times the element counts,
             * from the innermost dimension out; a dimension with a stride
             * spans |stride| x count (GDB's size of a strided array) */
            uint64_t elem;
            dwexpr_status st = dwexpr_libdwarf_type_size(b, ctx, unit, ti.target, NULL, where,
                                                         &elem, err);
            if (st)
                return st;
            uint64_t dims[16], total = elem;
            size_t n = dims_of(b->ld, u, type, dims, 16);
            const bool colmajor = column_major(b, unit, type);
            for (size_t k = 0; k < n; k++) {
                const unsigned i = (unsigned)(colmajor ? k : n - 1 - k);
                dwexpr_libdwarf_dim dim;
                if ((st = dwexpr_libdwarf_array_dim(b, ctx, unit, type, i, object, where, &dim,
                                                    err)))
                    return st == DWEXPR_E_NOT_FOUND ? DWEXPR_OK : st;
                if (!dim.has_count)
                    return DWEXPR_OK; /* no bound: the size is not known */
                const uint64_t count = (uint64_t)dim.count;
                if (dim.stride_bits) {
                    const uint64_t sb = dim.stride_bits < 0 ? (uint64_t)-dim.stride_bits
                                                            : (uint64_t)dim.stride_bits;
                    total = (sb * count + 7) / 8;
                } else {
                    total *= count;
                }
            }
            *bytes = total;
            return DWEXPR_OK;
        }
        case DW_TAG_string_type: {
            /* DWARF 5 5.11: DW_AT_byte_size, else the length the string's
             * DW_AT_string_length gives (one-byte characters) */
            int64_t v;
            dwexpr_error tmp;
            if ((dwexpr_libdwarf_eval_bound(b, ctx, unit, type, DW_AT_byte_size, object, where,
                                            &v, &tmp) == DWEXPR_OK ||
                 dwexpr_libdwarf_eval_bound(b, ctx, unit, type, DW_AT_string_length, object,
                                            where, &v, &tmp) == DWEXPR_OK) && v > 0)
                *bytes = (uint64_t)v;
            return DWEXPR_OK;
        }
        default: {
            int64_t v;
            dwexpr_error tmp;
            if (dwexpr_libdwarf_eval_bound(b, ctx, unit, type, DW_AT_byte_size, object, where, &v,
                                           &tmp) == DWEXPR_OK && v > 0)
                *bytes = (uint64_t)v;
            return DWEXPR_OK;
        }
        }
    }
    return DWEXPR_OK;
}

/* ---- copies of location descriptions ---- */

static dwexpr_status copy_slds(const dwexpr_sld *src, uint32_t n, dwexpr_sld **out);

/* Deep-copy one composite. */
static dwexpr_status copy_comp(const dwexpr_composite *c, const dwexpr_composite **out)
{
    dwexpr_composite *n = calloc(1, sizeof *n);
    if (!n)
        return DWEXPR_E_NOMEM;
    *n = *c;
    n->parts = calloc(c->count ? c->count : 1, sizeof *n->parts);
    if (!n->parts) {
        free(n);
        return DWEXPR_E_NOMEM;
    }
    n->cap = c->count;
    for (uint32_t i = 0; i < c->count; i++) {
        n->parts[i].bit_size = c->parts[i].bit_size;
        dwexpr_sld *s;
        if (copy_slds(c->parts[i].loc.slds, c->parts[i].loc.count, &s))
            return DWEXPR_E_NOMEM; /* what was copied so far is leaked */
        n->parts[i].loc.slds = s;
        n->parts[i].loc.count = c->parts[i].loc.count;
    }
    *out = n;
    return DWEXPR_OK;
}

static dwexpr_status copy_slds(const dwexpr_sld *src, uint32_t n, dwexpr_sld **out)
{
    dwexpr_sld *d = calloc(n ? n : 1, sizeof *d);
    if (!d)
        return DWEXPR_E_NOMEM;
    for (uint32_t i = 0; i < n; i++) {
        d[i] = src[i];
        if (src[i].kind == DWEXPR_LOC_IMPLICIT && src[i].u.imp.data) {
            size_t bytes = (size_t)((src[i].u.imp.bits + 7) / 8);
            uint8_t *b = malloc(bytes ? bytes : 1);
            if (!b)
                return DWEXPR_E_NOMEM;
            memcpy(b, src[i].u.imp.data, bytes);
            d[i].u.imp.data = b;
        } else if (src[i].kind == DWEXPR_LOC_COMPOSITE && src[i].u.comp) {
            const dwexpr_composite *c;
            if (copy_comp(src[i].u.comp, &c))
                return DWEXPR_E_NOMEM;
            d[i].u.comp = c;
        }
    }
    *out = d;
    return DWEXPR_OK;
}

/* Free what copy_slds made. */
static void free_slds(const dwexpr_sld *s, uint32_t n)
{
    if (!s)
        return;
    for (uint32_t i = 0; i < n; i++) {
        if (s[i].kind == DWEXPR_LOC_IMPLICIT)
            free((void *)(uintptr_t)s[i].u.imp.data);
        else if (s[i].kind == DWEXPR_LOC_COMPOSITE && s[i].u.comp) {
            dwexpr_composite *c = (dwexpr_composite *)(uintptr_t)s[i].u.comp;
            for (uint32_t k = 0; k < c->count; k++)
                free_slds(c->parts[k].loc.slds, c->parts[k].loc.count);
            free(c->parts);
            free(c);
        }
    }
    free((void *)(uintptr_t)s);
}

dwexpr_status dwexpr_libdwarf_loc_copy(const dwexpr_loc *loc, dwexpr_loc *out)
{
    if (!loc || !out)
        return DWEXPR_E_USAGE;
    dwexpr_sld *s = NULL;
    if (copy_slds(loc->slds, loc->count, &s)) {
        /* partial copies are leaked only on allocation failure */
        return DWEXPR_E_NOMEM;
    }
    out->slds = s;
    out->count = loc->count;
    return DWEXPR_OK;
}

void dwexpr_libdwarf_loc_free(dwexpr_loc *loc)
{
    if (!loc)
        return;
    free_slds(loc->slds, loc->count);
    loc->slds = NULL;
    loc->count = 0;
}
