/* dwexpr/diexpr.h: LLVM's DIExpression as a producer-side front end.
 *
 * LLVM keeps variable locations as `!DIExpression(...)` attached to
 * #dbg_value / #dbg_declare records (and DBG_VALUE / DBG_VALUE_LIST in
 * MIR), with LLVM-internal operations (DW_OP_LLVM_fragment, _convert,
 * _arg, ...) that never reach a DWARF file. This header parses that text,
 * binds the record's location operands, lowers the result to DWARF bytes
 * the way LLVM's backend (DwarfExpression) does, and evaluates them with
 * the core engine. The lowered program (dwexpr_lowered) is shared with
 * the SPIR-V front end (dwexpr/spirv.h). */
#ifndef DWEXPR_DIEXPR_H
#define DWEXPR_DIEXPR_H

#include "eval.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The LLVM-internal operations of a DIExpression (LLVM LangRef
 * "DIExpression"): X(name, operand count, doc). Every other DW_OP_* name,
 * the heterogeneous DW_OP_LLVM_* ones included, is a DWARF operation of
 * DWEXPR_OPS and lowers to itself. */
#define DWEXPR_DIEXPR_OPS(X)                                                              \
    X(LLVM_fragment, 2, "offset, size: this expression describes bits [offset, offset+size) of the variable") \
    X(LLVM_convert, 2, "size, DW_ATE encoding: convert the top value to that base type") \
    X(LLVM_tag_offset, 1, "memory tag offset for the pointer (a DW_AT_LLVM_tag_offset attribute, not an operation)") \
    X(LLVM_entry_value, 1, "N (1): the value location operand 0 (a register) had on entry") \
    X(LLVM_implicit_pointer, 0, "the variable is a pointer to a value the expression before computes") \
    X(LLVM_arg, 1, "N: insert location operand N here") \
    X(LLVM_extract_bits_sext, 2, "offset, size: extract bits of the top value, sign-extended") \
    X(LLVM_extract_bits_zext, 2, "offset, size: extract bits of the top value, zero-extended")

typedef enum dwexpr_diop {
#define DWX_X(n, k, d) DWEXPR_DIOP_##n,
    DWEXPR_DIEXPR_OPS(DWX_X)
#undef DWX_X
    DWEXPR_DIOP_COUNT
} dwexpr_diop;

/* First DIE offset of the entries a lowering synthesizes (base types for
 * DW_OP_LLVM_convert, artificial variables for DW_OP_LLVM_implicit_pointer):
 * entry K is at DWEXPR_LOWERED_DIE_BASE + 0x10 * K. */
#define DWEXPR_LOWERED_DIE_BASE 0x7fff0000u

/* A location operand of a debug record (what DW_OP_LLVM_arg N refers to,
 * or the single operand of a non-variadic #dbg_value / #dbg_declare). */
typedef enum dwexpr_diarg_kind {
    DWEXPR_DIARG_UNDEF = 0,   /* undef / poison / $noreg: a kill location */
    DWEXPR_DIARG_REG,         /* a DWARF register: value = register number */
    DWEXPR_DIARG_CONST,       /* an immediate: value = its bits */
    DWEXPR_DIARG_ADDR         /* a memory address (global, frame object): value = address */
} dwexpr_diarg_kind;

typedef struct dwexpr_diarg {
    dwexpr_diarg_kind kind;
    bool is_signed;           /* CONST: written negative, lowered with DW_OP_consts */
    uint64_t value;
} dwexpr_diarg;

/* Parse "reg:6", "const:-8" or a bare number, "addr:0x1000" (also
 * "mem:"), "undef" / "poison" / "$noreg". Returns DWEXPR_OK or E_SYNTAX. */
DWEXPR_API dwexpr_status dwexpr_diarg_parse(const char *text, dwexpr_diarg *out);

/* What the debug record says about its operands (LLVM "Debug records"). */
typedef enum dwexpr_dbg_kind {
    DWEXPR_DBG_VALUE = 0,     /* #dbg_value: the expression gives the value */
    DWEXPR_DBG_DECLARE = 1    /* #dbg_declare / indirect DBG_VALUE: it gives the address */
} dwexpr_dbg_kind;

/* One parsed operation of a DIExpression. */
typedef struct dwexpr_diexpr_op {
    bool internal;            /* an LLVM-internal operation (dwexpr_diop) */
    unsigned id;              /* dwexpr_diop if internal, else dwexpr_opid */
    unsigned nops;
    uint64_t operand[2];
} dwexpr_diexpr_op;

typedef struct dwexpr_diexpr dwexpr_diexpr;

/* Parse `!DIExpression(...)` or `DIExpression(...)` as LLVM prints it
 * (operation names, comma-separated decimal operands; hex and negative
 * numbers and DW_ATE_* names are accepted too). Checks the operand count
 * of every operation and LLVM's rules (DIExpression::isValid):
 * DW_OP_LLVM_fragment last, DW_OP_stack_value only before it,
 * DW_OP_LLVM_entry_value first (or after DW_OP_LLVM_arg 0) with N = 1,
 * DW_OP_swap not alone.
 * Errors are E_SYNTAX (class usage) with ERR->offset the character offset. */
DWEXPR_API dwexpr_status dwexpr_diexpr_parse(const char *text, dwexpr_diexpr **out,
                                             dwexpr_error *err);
DWEXPR_API void dwexpr_diexpr_free(dwexpr_diexpr *e);
DWEXPR_API size_t dwexpr_diexpr_count(const dwexpr_diexpr *e);
DWEXPR_API const dwexpr_diexpr_op *dwexpr_diexpr_get(const dwexpr_diexpr *e, size_t i);
/* The canonical text, "!DIExpression(DW_OP_LLVM_arg, 0, DW_OP_plus)", into
 * BUF (CAP bytes, NUL terminated, truncated if needed). Returns the length
 * it wanted. */
DWEXPR_API size_t dwexpr_diexpr_format(const dwexpr_diexpr *e, char *buf, size_t cap);
/* Build an expression from N parsed operations, checked as
 * dwexpr_diexpr_parse checks text (ERR->offset = the operation index). */
DWEXPR_API dwexpr_status dwexpr_diexpr_from_ops(const dwexpr_diexpr_op *ops, size_t n,
                                                dwexpr_diexpr **out, dwexpr_error *err);
/* Name of an LLVM-internal operation ("DW_OP_LLVM_fragment"), NULL if out of range. */
DWEXPR_API const char *dwexpr_diop_name(dwexpr_diop op);

/* ---- lowered programs (both front ends) ---- */

/* DWARF bytes a front end produced, plus what the lowering synthesized. */
typedef struct dwexpr_lowered dwexpr_lowered;

/* One debug record to lower: an expression, its kind and its operands. */
typedef struct dwexpr_dbg_record {
    const dwexpr_diexpr *expr;
    dwexpr_dbg_kind kind;
    const dwexpr_diarg *args;
    size_t nargs;
} dwexpr_dbg_record;

/* Lower N records describing one variable into one DWARF expression for
 * UNIT, as LLVM's DwarfExpression does (LangRef "DIExpression"):
 *  - a register operand is DW_OP_regN when the value lives in it (a
 *    #dbg_value with nothing but a fragment after it), else DW_OP_bregN
 *    with a following DW_OP_plus_uconst (or constu + plus/minus) folded in;
 *    a constant is DW_OP_litN / constu / consts; an address is DW_OP_addr;
 *  - an undef operand is a kill location: no location (empty, or an empty
 *    piece for a fragment);
 *  - a #dbg_value is a value: DW_OP_stack_value is appended when the
 *    expression computes one (a constant operand, DW_OP_stack_value,
 *    extract_bits); a trailing DW_OP_deref makes it a memory location
 *    instead; a #dbg_declare describes an address (a memory location);
 *  - DW_OP_LLVM_fragment ends the expression with DW_OP_piece (or
 *    DW_OP_bit_piece for sizes that are not whole bytes); several records
 *    must each carry a fragment and are joined in offset order into one
 *    composite, gaps as empty pieces (LLVM's addFragmentOffset);
 *  - DW_OP_LLVM_convert is DW_OP_convert to a synthesized base type
 *    (DWARF 5) or the legacy shift/mask sequences (older versions);
 *  - DW_OP_LLVM_extract_bits_* is DW_OP_constu L; shl; constu R; shr/shra
 *    in the generic type (after deref_size on a memory location);
 *  - DW_OP_LLVM_entry_value 1 is DW_OP_entry_value(DW_OP_regR), the
 *    operations after it working on that value;
 *  - DW_OP_LLVM_implicit_pointer is DW_OP_implicit_pointer to a
 *    synthesized artificial variable whose location is the expression
 *    before it;
 *  - DW_OP_LLVM_tag_offset emits nothing (LLVM makes it the variable's
 *    DW_AT_LLVM_tag_offset); dwexpr_lowered_tag_offset reports it.
 * Errors: E_SYNTAX (usage) for a record that cannot be lowered (missing
 * operand, DW_OP_LLVM_arg out of range, overlapping fragments, ...), with
 * the record index in ERR->offset. */
DWEXPR_API dwexpr_status dwexpr_diexpr_lower(const dwexpr_dbg_record *recs, size_t n,
                                             const dwexpr_unit *unit, dwexpr_lowered **out,
                                             dwexpr_error *err);

/* The lowered DWARF bytes (in the unit given to the lowering). */
DWEXPR_API const uint8_t *dwexpr_lowered_bytes(const dwexpr_lowered *l, size_t *len);
/* The unit the bytes are encoded for. */
DWEXPR_API const dwexpr_unit *dwexpr_lowered_unit(const dwexpr_lowered *l);
/* Base types the lowering synthesized (DW_OP_LLVM_convert): count and entry I
 * (type.die is its DIE offset). */
DWEXPR_API size_t dwexpr_lowered_type_count(const dwexpr_lowered *l);
DWEXPR_API const dwexpr_type *dwexpr_lowered_type(const dwexpr_lowered *l, size_t i);
/* Artificial variables the lowering synthesized (DW_OP_LLVM_implicit_pointer):
 * count, and entry I's DIE offset and DW_AT_location bytes. */
DWEXPR_API size_t dwexpr_lowered_die_count(const dwexpr_lowered *l);
DWEXPR_API dwexpr_status dwexpr_lowered_die(const dwexpr_lowered *l, size_t i, uint64_t *die,
                                            const uint8_t **bytes, size_t *len);
/* True and *TAG set when a DW_OP_LLVM_tag_offset was given. */
DWEXPR_API bool dwexpr_lowered_tag_offset(const dwexpr_lowered *l, uint64_t *tag);
/* Whether the records describe a value (#dbg_value / DebugValue) rather
 * than an address: a caller that wants "the variable" asks for a location
 * either way (a value is an implicit location after DW_OP_stack_value). */
DWEXPR_API bool dwexpr_lowered_is_value(const dwexpr_lowered *l);
DWEXPR_API void dwexpr_lowered_free(dwexpr_lowered *l);

/* A target that answers for the synthesized base types and DIEs first and
 * passes every other question to INNER (with INNER_USER). Fill it with
 * dwexpr_lowered_wrap and pass &w->target with user W to dwexpr_eval,
 * dwexpr_loc_read, ... while L lives. */
typedef struct dwexpr_lowered_target {
    dwexpr_target target;
    dwexpr_target inner;
    void *inner_user;
    const dwexpr_lowered *low;
} dwexpr_lowered_target;
DWEXPR_API void dwexpr_lowered_wrap(const dwexpr_lowered *l, const dwexpr_target *inner,
                                    void *inner_user, dwexpr_lowered_target *w);

/* Evaluate L's bytes against TARGET through dwexpr_lowered_wrap (PARAMS
 * as for dwexpr_eval; results point into CTX). */
DWEXPR_API dwexpr_status dwexpr_lowered_eval(dwexpr_ctx *ctx, const dwexpr_lowered *l,
                                             const dwexpr_target *target, void *user,
                                             const dwexpr_eval_params *params,
                                             dwexpr_result *out);

#ifdef __cplusplus
}
#endif
#endif
