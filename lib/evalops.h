/* lib/evalops.h: what the evaluator's files share (not installed): the
 * stack-entry helpers, and the operations lib/eval.c dispatches to in
 * lib/ops_value.c (values, control flow, calls) and lib/ops_loc.c
 * (location descriptions and composites). */
#ifndef DWX_EVALOPS_H
#define DWX_EVALOPS_H

#include <stdio.h>
#include "evalint.h"

#define OPNAME(x) (dwexpr_op_info((dwexpr_opid)(x)) ? dwexpr_op_info((dwexpr_opid)(x))->name : "?")
/* Entry I from the top of the stack (0 = top). */
#define TOP(i) (&ctx->stack[ctx->sp - 1 - (i)])

/* ---- stack entries ---- */

static inline dwexpr_status push(dwexpr_ctx *ctx, const dwx_entry *e)
{
    if (ctx->sp >= ctx->lim.stack)
        return dwx_ctx_fail(ctx, DWEXPR_E_STACK_LIMIT, "stack depth limit (%u entries) reached",
                            (unsigned)ctx->lim.stack);
    ctx->stack[ctx->sp++] = *e;
    return DWEXPR_OK;
}

static inline dwexpr_status push_value(dwexpr_ctx *ctx, const dwexpr_value *v)
{
    dwx_entry e;
    e.is_loc = 0;
    e.n = 0;
    e.many = NULL;
    e.u.v = *v;
    return push(ctx, &e);
}

static inline dwexpr_status push_sld(dwexpr_ctx *ctx, const dwexpr_sld *s)
{
    dwx_entry e;
    e.is_loc = 1;
    e.n = 1;
    e.many = NULL;
    e.u.one = *s;
    return push(ctx, &e);
}

static inline dwexpr_value generic_value(const dwexpr_unit *u, uint64_t v)
{
    dwexpr_value r;
    dwx_value_clear(&r);
    r.type = dwx_generic_type(u);
    r.bits = v & dwx_mask(r.type.bits);
    return r;
}

static inline dwexpr_sld sld_undefined(void)
{
    dwexpr_sld s;
    dwx_sld_clear(&s);
    s.kind = DWEXPR_LOC_UNDEFINED;
    return s;
}

static inline dwexpr_sld sld_memory(uint32_t aspace, uint64_t addr)
{
    dwexpr_sld s;
    dwx_sld_clear(&s);
    s.kind = DWEXPR_LOC_MEMORY;
    s.aspace = aspace;
    s.byte_offset = addr;
    return s;
}

/* Register REGNO of the top frame (seed "Register Location Description
 * Operations"), created for the thread and frame of P. */
static inline void sld_register(dwexpr_sld *s, uint32_t regno, const dwexpr_eval_params *p)
{
    memset(s, 0, sizeof *s);
    s->kind = DWEXPR_LOC_REGISTER;
    s->u.regno = regno;
    s->thread = p->thread;
    s->ctx = (uint16_t)(p->ctx & (DWEXPR_CTX_THREAD | DWEXPR_CTX_FRAME));
}

/* Implicit storage holding LEN bytes at DATA (which must outlive the result). */
static inline dwexpr_sld sld_implicit(const uint8_t *data, uint64_t bits)
{
    dwexpr_sld s;
    dwx_sld_clear(&s);
    s.kind = DWEXPR_LOC_IMPLICIT;
    s.u.imp.data = data;
    s.u.imp.bits = bits;
    return s;
}

static inline dwexpr_sld sld_composite(const dwexpr_composite *c)
{
    dwexpr_sld s;
    dwx_sld_clear(&s);
    s.kind = DWEXPR_LOC_COMPOSITE;
    s.u.comp = c;
    return s;
}

static inline bool is_incomplete(const dwx_entry *e)
{
    return e->is_loc && e->n == 1 && e->u.one.kind == DWEXPR_LOC_COMPOSITE &&
           !e->u.one.u.comp->complete;
}

static inline void set_entry_slds(dwx_entry *e, dwexpr_sld *slds, uint32_t n)
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

static inline dwexpr_status need(dwexpr_ctx *ctx, uint32_t base, uint64_t k)
{
    if (ctx->sp - base >= k)
        return DWEXPR_OK;
    return dwx_ctx_fail(ctx, DWEXPR_E_STACK_EMPTY, "needs %llu stack entr%s, %u present",
                        (unsigned long long)k, k == 1 ? "y" : "ies", (unsigned)(ctx->sp - base));
}

/* ---- lib/eval.c: conversions, lookups, nested evaluation ---- */

DWX_HIDDEN dwexpr_status dwx_aspace_loc(dwexpr_ctx *ctx, const dwx_env *env, uint64_t as, uint64_t a,
                                dwexpr_sld *out);
DWX_HIDDEN dwexpr_status dwx_base_type(dwexpr_ctx *ctx, const dwx_env *env, uint64_t die,
                               bool zero_generic, dwexpr_type *t);
DWX_HIDDEN dwexpr_status dwx_breg(dwexpr_ctx *ctx, const dwx_env *env, uint64_t regno, int64_t b,
                          uint64_t as, dwexpr_sld *out);
DWX_HIDDEN dwexpr_status dwx_deref(dwexpr_ctx *ctx, const dwx_env *env, const dwx_entry *l,
                           const dwexpr_type *t, bool to_generic, dwexpr_value *out);
DWX_HIDDEN dwexpr_status dwx_eval_loclist(dwexpr_ctx *ctx, const dwexpr_loclist_entry *ents, size_t n,
                                  const dwx_env *env, dwx_entry *out);
DWX_HIDDEN dwexpr_status dwx_eval_nested(dwexpr_ctx *ctx, const uint8_t *expr, size_t len,
                                 const dwx_env *env, dwexpr_result_kind want, dwx_entry *out,
                                 const dwexpr_program *pre, int *last_x);
DWX_HIDDEN dwexpr_status dwx_find_die(dwexpr_ctx *ctx, const dwx_env *env, uint64_t off, bool section,
                              dwexpr_die *d);
DWX_HIDDEN dwexpr_status dwx_need_integral(dwexpr_ctx *ctx, const dwexpr_value *v, const char *what);
DWX_HIDDEN void dwx_nest_error(dwexpr_ctx *ctx, const char *what);
DWX_HIDDEN dwexpr_sld *dwx_own_slds(dwexpr_ctx *ctx, const dwx_entry *e);
DWX_HIDDEN dwexpr_status dwx_reg_loc(dwexpr_ctx *ctx, const dwx_env *env, uint64_t regno, uint32_t frame,
                             dwexpr_sld *out);
DWX_HIDDEN dwexpr_status dwx_resolve_ipv(dwexpr_ctx *ctx, const dwx_env *env, uint64_t die, int64_t disp,
                                 dwx_entry *out);
DWX_HIDDEN dwexpr_status dwx_run(dwexpr_ctx *ctx, const dwexpr_program *prog, const dwx_env *env,
                         uint32_t base, int *last_x);
DWX_HIDDEN int64_t dwx_signed_of(const dwexpr_value *v);
DWX_HIDDEN dwexpr_status dwx_to_loc(dwexpr_ctx *ctx, const dwx_env *env, const dwx_entry *e,
                            dwx_entry *out);
DWX_HIDDEN dwexpr_status dwx_to_value(dwexpr_ctx *ctx, const dwx_env *env, const dwx_entry *e,
                              dwexpr_value *v);

/* The byte displacement B of "DW_OP_constu B; DW_OP_LLVM_offset", the
 * seed's definition of DW_OP_LLVM_offset_uconst B ("General Location
 * Description Operations" 2), which DW_OP_fbreg, DW_OP_bit_piece (with
 * DW_OP_LLVM_bit_offset) and a resolved implicit pointer value ("Implicit
 * Location Description Operations") apply too: DW_OP_constu keeps B's low
 * generic-type bits, and DW_OP_LLVM_offset reads a generic value as signed
 * (dwx_displacement). So B = 2^64 - 1 moves back one byte on a 64-bit
 * target, and 0x100000004 moves 4 bytes on a 32-bit one. */
static inline int64_t dwx_constu_disp(const dwexpr_unit *u, uint64_t b)
{
    const uint32_t n = 8u * u->addr_size;
    return n ? dwx_sext(b & dwx_mask(n), n) : (int64_t)b;
}

/* ---- lib/ops_loc.c: integral operands of any size ---- */

/* A displacement B for DW_OP_LLVM_offset / bit_offset (seed "General
 * Location Description Operations": "an integral type value"; seed "DWARF
 * Expression Value": integral by encoding, of any size) as a count in
 * *OUT. The generic type's signedness is unspecified (seed "DWARF
 * Expression Value"); it is read as signed, so that DW_OP_lit1 DW_OP_neg
 * moves back (the seed leaves this to the implementation); the unsigned
 * encodings (DW_ATE_unsigned, unsigned_char, boolean, address, UTF) read
 * as unsigned, the others as signed. False when the value does not fit
 * in 64 signed bits: then it moves any location outside every storage. */
DWX_HIDDEN bool dwx_displacement(const dwexpr_value *v, int64_t *out);
/* An integral value V of any size as an unsigned 64-bit number in *OUT;
 * false when it needs more bits. */
DWX_HIDDEN bool dwx_value_u64(const dwexpr_value *v, uint64_t *out);
/* "DW_OP_LLVM_form_aspace_address" (seed "Memory Location Description
 * Operations") of address entry EA and address space entry EAS, without
 * touching the stack: the location into *OUT. DW_OP_xderef* use it too
 * (seed "Special Value Operations": "DW_OP_swap;
 * DW_OP_LLVM_form_aspace_address; DW_OP_deref*"). */
DWX_HIDDEN dwexpr_status dwx_form_aspace(dwexpr_ctx *ctx, const dwx_env *env, const dwx_entry *ea,
                                         const dwx_entry *eas, dwx_entry *out);

/* ---- lib/ops_value.c ---- */

DWX_HIDDEN dwexpr_status dwx_debug_addr(dwexpr_ctx *ctx, const dwx_env *env, uint64_t index,
                                uint64_t *out);
DWX_HIDDEN dwexpr_status dwx_op_arith(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in,
                              uint32_t base);
DWX_HIDDEN dwexpr_status dwx_bad_branch(dwexpr_ctx *ctx, const dwx_insn *in, size_t len);
DWX_HIDDEN dwexpr_status dwx_op_bra_taken(dwexpr_ctx *ctx, const dwx_env *env, uint32_t base, bool *taken);
DWX_HIDDEN dwexpr_status dwx_op_call(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in,
                             uint32_t base);
DWX_HIDDEN dwexpr_status dwx_op_const_type(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in);
DWX_HIDDEN dwexpr_status dwx_op_convert(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in,
                                uint32_t base);
DWX_HIDDEN dwexpr_status dwx_op_deref(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in,
                              uint32_t base);
/* DW_OP_entry_value's value (pushed by the caller). */
DWX_HIDDEN dwexpr_status dwx_entry_value(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in,
                                         dwexpr_value *out);
DWX_HIDDEN dwexpr_status dwx_op_parameter_ref(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in);
DWX_HIDDEN dwexpr_status dwx_op_regval_type(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in);
DWX_HIDDEN dwexpr_status dwx_op_stack(dwexpr_ctx *ctx, const dwx_insn *in, uint32_t base);
DWX_HIDDEN dwexpr_status dwx_op_variable_value(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in);

/* ---- lib/ops_loc.c ---- */

DWX_HIDDEN dwexpr_status dwx_op_breg(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in,
                             uint32_t base);
/* DW_OP_call_frame_cfa's and DW_OP_fbreg's locations (pushed by the caller). */
DWX_HIDDEN dwexpr_status dwx_cfa_loc(dwexpr_ctx *ctx, const dwx_env *env, dwexpr_sld *out);
DWX_HIDDEN dwexpr_status dwx_op_extend(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in,
                               uint32_t base);
DWX_HIDDEN dwexpr_status dwx_fbreg_loc(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in,
                                       dwexpr_sld *out);
DWX_HIDDEN dwexpr_status dwx_op_form_aspace(dwexpr_ctx *ctx, const dwx_env *env, uint32_t base);
DWX_HIDDEN dwexpr_status dwx_op_form_tls(dwexpr_ctx *ctx, const dwx_env *env, uint32_t base);
DWX_HIDDEN dwexpr_status dwx_op_implicit_pointer(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in,
                                         uint32_t base);
DWX_HIDDEN dwexpr_status dwx_op_offset(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in,
                               uint32_t base);
DWX_HIDDEN dwexpr_status dwx_op_push_object(dwexpr_ctx *ctx, const dwx_env *env);
DWX_HIDDEN dwexpr_status dwx_op_select_bit_piece(dwexpr_ctx *ctx, const dwx_env *env, const dwx_insn *in,
                                         uint32_t base);
DWX_HIDDEN dwexpr_status dwx_op_stack_value(dwexpr_ctx *ctx, const dwx_env *env, uint32_t base);
DWX_HIDDEN dwexpr_status dwx_stack_value(dwexpr_ctx *ctx, const dwx_env *env, dwx_entry *e);
DWX_HIDDEN dwexpr_status dwx_piece(dwexpr_ctx *ctx, const dwx_env *env, uint32_t base, uint64_t nbits,
                           bool has_off, uint64_t bit_off);

/* The frame FRAME of the evaluation's thread and lane as the target's
 * callbacks see it (frame base, CFA, entry values, ...). */
static inline dwexpr_frameref dwx_frameref(const dwexpr_ctx *ctx, const dwx_env *env,
                                           uint32_t frame)
{
    dwexpr_frameref f;
    f.thread = ctx->p->thread;
    f.lane = ctx->p->lane;
    f.frame = frame;
    f.ctx = (uint16_t)((ctx->p->ctx & (DWEXPR_CTX_THREAD | DWEXPR_CTX_LANE)) | DWEXPR_CTX_FRAME);
    (void)env;
    return f;
}

#endif
