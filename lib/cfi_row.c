/* lib/cfi_row.c: the rule table (DWARF 5 6.4.1-6.4.3): running a CIE's
 * and an FDE's call frame instructions up to the row of a pc, default
 * rules from the architecture, and which operations CFI expressions may
 * use (seed "Call Frame Instructions"). */
#include <stdlib.h>
#include "cfi_int.h"

/* remember_state nesting bound (each level copies a row's rules) */
enum { MAX_STATES = 64 };

/* What remember_state saves: the CFA and every register rule (DWARF 5
 * 6.4.2.4; the CFA rule is part of the row, as GCC and LLVM expect). */
typedef struct saved_state {
    dwexpr_cfi_rule cfa;
    uint32_t count;
    dwexpr_cfi_reg_rule regs[DWEXPR_CFI_MAX_RULES];
} saved_state;

/* The running state of one dwexpr_cfi_run. */
typedef struct run_state {
    const dwexpr_cfi *cfi;
    const dwexpr_cfi_cie *cie;
    dwexpr_cfi_row *row;
    const dwexpr_cfi_row *initial;  /* after the CIE's instructions; NULL while running them */
    saved_state *stack;
    unsigned depth;
    dwexpr_error *err;
} run_state;

/* The explicit rule slot of REGNO in ROW, or NULL. */
static dwexpr_cfi_reg_rule *find_reg(dwexpr_cfi_row *row, uint32_t regno)
{
    for (uint32_t i = 0; i < row->count; i++)
        if (row->regs[i].regno == regno)
            return &row->regs[i];
    return NULL;
}

/* Set the rule of register REG (checked to fit 32 bits) at instruction IN. */
static dwexpr_status set_rule(run_state *st, const dwexpr_cfi_insn *in, uint64_t reg,
                              const dwexpr_cfi_rule *r)
{
    if (reg > UINT32_MAX)
        return dwx_fail(st->err, DWEXPR_E_BAD_OPERAND, (int64_t)in->offset, -1,
                        "%s: register %llu is too large", in->name, (unsigned long long)reg);
    dwexpr_cfi_reg_rule *slot = find_reg(st->row, (uint32_t)reg);
    if (!slot) {
        if (st->row->count == DWEXPR_CFI_MAX_RULES)
            return dwx_fail(st->err, DWEXPR_E_TOO_BIG, (int64_t)in->offset, -1,
                            "%s: more than %d registers have rules", in->name,
                            DWEXPR_CFI_MAX_RULES);
        slot = &st->row->regs[st->row->count++];
        slot->regno = (uint32_t)reg;
    }
    slot->rule = *r;
    return DWEXPR_OK;
}

/* DW_CFA_restore*: the rule the CIE's initial instructions gave
 * (DWARF 5 6.4.2.3), or the default when they gave none. */
static dwexpr_status restore_rule(run_state *st, const dwexpr_cfi_insn *in, uint64_t reg)
{
    if (reg > UINT32_MAX)
        return dwx_fail(st->err, DWEXPR_E_BAD_OPERAND, (int64_t)in->offset, -1,
                        "%s: register %llu is too large", in->name, (unsigned long long)reg);
    const dwexpr_cfi_reg_rule *init = NULL;
    if (st->initial)
        for (uint32_t i = 0; i < st->initial->count; i++)
            if (st->initial->regs[i].regno == reg)
                init = &st->initial->regs[i];
    if (init)
        return set_rule(st, in, reg, &init->rule);
    dwexpr_cfi_reg_rule *slot = find_reg(st->row, (uint32_t)reg);
    if (slot) {
        /* back to the default: drop the explicit rule */
        *slot = st->row->regs[--st->row->count];
    }
    return DWEXPR_OK;
}

/* B * data_alignment_factor (DWARF 5 6.4.1 item 8), wrapping like the
 * 64-bit arithmetic a producer meant rather than overflowing. */
static int64_t factor(uint64_t b, int64_t daf)
{
    return (int64_t)(b * (uint64_t)daf);
}

/* Run LEN instruction bytes at BYTES (section offset BASE) until the row
 * holding PC is complete; *DONE is set when an advance passed PC. */
static dwexpr_status run(run_state *st, const uint8_t *bytes, size_t len, uint64_t base,
                         uint64_t pc, bool *done)
{
    dwexpr_cfi_row *row = st->row;
    const dwexpr_cfi_cie *cie = st->cie;
    dwexpr_status s;
    *done = false;
    for (size_t pos = 0; pos < len;) {
        dwexpr_cfi_insn in;
        if ((s = dwexpr_cfi_insn_decode(st->cfi, cie, bytes, len, pos, base, &in, st->err)))
            return s;
        pos += in.size;
        dwexpr_cfi_rule r;
        memset(&r, 0, sizeof r);
        int64_t daf = cie->data_align;
        uint64_t newloc;
        switch (in.op) {
        /* DWARF 5 6.4.2.1 Row Creation Instructions */
        case DW_CFA_set_loc:
            newloc = in.operand[0];
            if (newloc < row->pc_begin)
                return dwx_fail(st->err, DWEXPR_E_ILL_FORMED, (int64_t)in.offset, -1,
                                "DW_CFA_set_loc: address 0x%llx is before the current row's "
                                "0x%llx",
                                (unsigned long long)newloc, (unsigned long long)row->pc_begin);
            goto advance;
        case DW_CFA_advance_loc:
        case DW_CFA_advance_loc1:
        case DW_CFA_advance_loc2:
        case DW_CFA_advance_loc4:
        case DW_CFA_MIPS_advance_loc8:
            /* delta * code_alignment_factor */
            newloc = row->pc_begin + in.operand[0] * cie->code_align;
        advance:
            if (pc < newloc) {
                row->pc_end = newloc;
                *done = true;
                return DWEXPR_OK;
            }
            row->pc_begin = newloc;
            break;
        /* DWARF 5 6.4.2.2 CFA Definition Instructions (seed: the CFA is
         * DW_OP_constu AS; DW_OP_aspace_bregx R, B) */
        case DW_CFA_def_cfa:
        case DW_CFA_def_cfa_sf:
        case DW_CFA_LLVM_def_aspace_cfa:
        case DW_CFA_LLVM_def_aspace_cfa_sf:
            if (in.operand[0] > UINT32_MAX)
                return dwx_fail(st->err, DWEXPR_E_BAD_OPERAND, (int64_t)in.offset, -1,
                                "%s: register %llu is too large", in.name,
                                (unsigned long long)in.operand[0]);
            if ((in.op == DW_CFA_LLVM_def_aspace_cfa || in.op == DW_CFA_LLVM_def_aspace_cfa_sf) &&
                in.operand[2] > UINT32_MAX)
                return dwx_fail(st->err, DWEXPR_E_BAD_ASPACE, (int64_t)in.offset, -1,
                                "%s: address space %llu is not defined", in.name,
                                (unsigned long long)in.operand[2]);
            row->cfa.kind = DWEXPR_CFI_CFA_REG_OFFSET;
            row->cfa.regno = (uint32_t)in.operand[0];
            row->cfa.offset = (in.op == DW_CFA_def_cfa_sf || in.op == DW_CFA_LLVM_def_aspace_cfa_sf)
                                  ? factor(in.operand[1], daf)
                                  : (int64_t)in.operand[1];
            row->cfa.aspace = (in.op == DW_CFA_LLVM_def_aspace_cfa ||
                               in.op == DW_CFA_LLVM_def_aspace_cfa_sf)
                                  ? (uint32_t)in.operand[2]
                                  : 0;
            row->cfa.expr = NULL;
            row->cfa.expr_len = 0;
            break;
        case DW_CFA_def_cfa_register:
        case DW_CFA_def_cfa_offset:
        case DW_CFA_def_cfa_offset_sf:
            /* "If the subprogram has no current CFA rule, or the rule was
             * defined by a DW_CFA_def_cfa_expression instruction, then the
             * DWARF is ill-formed." */
            if (row->cfa.kind != DWEXPR_CFI_CFA_REG_OFFSET)
                return dwx_fail(st->err, DWEXPR_E_ILL_FORMED, (int64_t)in.offset, -1,
                                "%s: the current CFA rule is not a register and offset",
                                in.name);
            if (in.op == DW_CFA_def_cfa_register) {
                if (in.operand[0] > UINT32_MAX)
                    return dwx_fail(st->err, DWEXPR_E_BAD_OPERAND, (int64_t)in.offset, -1,
                                    "%s: register %llu is too large", in.name,
                                    (unsigned long long)in.operand[0]);
                row->cfa.regno = (uint32_t)in.operand[0];
            } else if (in.op == DW_CFA_def_cfa_offset) {
                row->cfa.offset = (int64_t)in.operand[0];
            } else {
                row->cfa.offset = factor(in.operand[0], daf);
            }
            break;
        case DW_CFA_def_cfa_expression:
            row->cfa.kind = DWEXPR_CFI_CFA_EXPRESSION;
            row->cfa.expr = in.expr;
            row->cfa.expr_len = in.expr_len;
            row->cfa.expr_offset = in.offset;
            break;
        /* DWARF 5 6.4.2.3 Register Rule Instructions */
        case DW_CFA_undefined:
            r.kind = DWEXPR_CFI_UNDEFINED;
            if ((s = set_rule(st, &in, in.operand[0], &r)))
                return s;
            break;
        case DW_CFA_same_value:
            r.kind = DWEXPR_CFI_SAME_VALUE;
            if ((s = set_rule(st, &in, in.operand[0], &r)))
                return s;
            break;
        case DW_CFA_offset:
        case DW_CFA_offset_extended:
        case DW_CFA_offset_extended_sf:
        case DW_CFA_GNU_negative_offset_extended:
        case DW_CFA_val_offset:
        case DW_CFA_val_offset_sf:
            r.kind = (in.op == DW_CFA_val_offset || in.op == DW_CFA_val_offset_sf)
                         ? DWEXPR_CFI_VAL_OFFSET
                         : DWEXPR_CFI_OFFSET;
            /* factored: B * data_alignment_factor; GNU_negative: -(B * daf) */
            r.offset = factor(in.operand[1], daf);
            if (in.op == DW_CFA_GNU_negative_offset_extended)
                r.offset = (int64_t)(0 - (uint64_t)r.offset);
            if ((s = set_rule(st, &in, in.operand[0], &r)))
                return s;
            break;
        case DW_CFA_register:
            if (in.operand[1] > UINT32_MAX)
                return dwx_fail(st->err, DWEXPR_E_BAD_OPERAND, (int64_t)in.offset, -1,
                                "%s: register %llu is too large", in.name,
                                (unsigned long long)in.operand[1]);
            r.kind = DWEXPR_CFI_REGISTER;
            r.regno = (uint32_t)in.operand[1];
            if ((s = set_rule(st, &in, in.operand[0], &r)))
                return s;
            break;
        case DW_CFA_expression:
        case DW_CFA_val_expression:
            r.kind = in.op == DW_CFA_expression ? DWEXPR_CFI_EXPRESSION : DWEXPR_CFI_VAL_EXPRESSION;
            r.expr = in.expr;
            r.expr_len = in.expr_len;
            r.expr_offset = in.offset;
            if ((s = set_rule(st, &in, in.operand[0], &r)))
                return s;
            break;
        case DW_CFA_restore:
        case DW_CFA_restore_extended:
            if ((s = restore_rule(st, &in, in.operand[0])))
                return s;
            break;
        /* DWARF 5 6.4.2.4 Row State Instructions */
        case DW_CFA_remember_state: {
            if (st->depth == MAX_STATES)
                return dwx_fail(st->err, DWEXPR_E_TOO_BIG, (int64_t)in.offset, -1,
                                "DW_CFA_remember_state: more than %d states", MAX_STATES);
            if (!st->stack) {
                st->stack = malloc(sizeof *st->stack * MAX_STATES);
                if (!st->stack)
                    return DWEXPR_E_NOMEM;
            }
            saved_state *sv = &st->stack[st->depth++];
            sv->cfa = row->cfa;
            sv->count = row->count;
            memcpy(sv->regs, row->regs, sizeof row->regs[0] * row->count);
            break;
        }
        case DW_CFA_restore_state: {
            if (st->depth == 0)
                return dwx_fail(st->err, DWEXPR_E_ILL_FORMED, (int64_t)in.offset, -1,
                                "DW_CFA_restore_state without DW_CFA_remember_state");
            const saved_state *sv = &st->stack[--st->depth];
            row->cfa = sv->cfa;
            row->count = sv->count;
            memcpy(row->regs, sv->regs, sizeof row->regs[0] * sv->count);
            break;
        }
        /* DWARF 5 6.4.2.5 Padding Instruction, and GNU extensions */
        case DW_CFA_nop: break;
        case DW_CFA_GNU_args_size: row->args_size = in.operand[0]; break;
        case DW_CFA_GNU_window_save: break; /* SPARC window / AArch64 RA signing: no rule change */
        default:
            return dwx_fail(st->err, DWEXPR_E_UNKNOWN_OP, (int64_t)in.offset, -1,
                            "unknown call frame instruction 0x%02x", in.op);
        }
    }
    return DWEXPR_OK;
}

dwexpr_status dwexpr_cfi_run(const dwexpr_cfi *cfi, const dwexpr_cfi_cie *cie,
                             const dwexpr_cfi_fde *fde, uint64_t pc, dwexpr_cfi_row *row,
                             dwexpr_error *err)
{
    if (!cfi || !cie || !row)
        return DWEXPR_E_USAGE;
    if (!dwx_cfi_aug_known(cfi, cie))
        return dwx_fail(err, DWEXPR_E_ILL_FORMED, (int64_t)cie->offset, -1,
                        "CFI: CIE augmentation \"%s\" is not understood; its instructions "
                        "cannot be read",
                        cie->augmentation);
    if (fde && (pc < fde->pc_begin || pc >= fde->pc_end))
        return dwx_fail(err, DWEXPR_E_USAGE, (int64_t)fde->offset, -1,
                        "CFI: pc 0x%llx is outside the FDE [0x%llx, 0x%llx)",
                        (unsigned long long)pc, (unsigned long long)fde->pc_begin,
                        (unsigned long long)fde->pc_end);
    memset(row, 0, offsetof(dwexpr_cfi_row, regs));
    row->cfa.kind = DWEXPR_CFI_NONE;
    row->ra_column = cie->ra_column;
    row->signal_frame = cie->signal_frame;
    row->pc_begin = fde ? fde->pc_begin : 0;
    row->pc_end = fde ? fde->pc_end : UINT64_MAX;
    row->fde_begin = row->pc_begin;
    row->fde_offset = fde ? fde->offset : cie->offset;
    run_state st = {cfi, cie, row, NULL, NULL, 0, err};
    bool done = false;
    /* DWARF 5 6.4.1: the CIE's initial instructions set up every column */
    dwexpr_status s = run(&st, cie->insns, cie->insns_len, cie->insns_offset,
                          fde ? pc : UINT64_MAX, &done);
    if (s || !fde || done)
        goto out;
    /* DW_CFA_restore needs the rules as the CIE left them */
    dwexpr_cfi_row *initial = malloc(sizeof *initial);
    if (!initial) {
        s = DWEXPR_E_NOMEM;
        goto out;
    }
    memcpy(initial, row, sizeof *initial);
    st.initial = initial;
    s = run(&st, fde->insns, fde->insns_len, fde->insns_offset, pc, &done);
    free(initial);
out:
    free(st.stack);
    return s;
}

dwexpr_status dwexpr_cfi_row_for_pc(const dwexpr_cfi *cfi, uint64_t pc, dwexpr_cfi_row *row,
                                    dwexpr_error *err)
{
    dwexpr_cfi_fde fde;
    dwexpr_cfi_cie cie;
    dwexpr_status s = dwexpr_cfi_find_fde(cfi, pc, &fde, &cie, err);
    if (s)
        return s;
    return dwexpr_cfi_run(cfi, &cie, &fde, pc, row, err);
}

dwexpr_cfi_rule dwexpr_cfi_default_rule(const dwexpr_arch *arch, uint32_t regno)
{
    dwexpr_cfi_rule r;
    memset(&r, 0, sizeof r);
    /* DWARF 5 6.4.1: "The default rule for all columns before
     * interpretation of the initial instructions is the undefined rule.
     * However, an ABI authoring body ... may specify an alternate default" */
    r.kind = DWEXPR_CFI_UNDEFINED;
    if (arch && arch->cfi_default_rule)
        r.kind = (uint8_t)arch->cfi_default_rule(regno);
    return r;
}

dwexpr_cfi_rule dwexpr_cfi_row_rule(const dwexpr_cfi_row *row, const dwexpr_arch *arch,
                                    uint32_t regno)
{
    if (row)
        for (uint32_t i = 0; i < row->count; i++)
            if (row->regs[i].regno == regno)
                return row->regs[i].rule;
    return dwexpr_cfi_default_rule(arch, regno);
}

bool dwexpr_cfi_op_allowed(dwexpr_opid id)
{
    /* seed "Call Frame Instructions": operations that depend on other
     * debug sections, on an object, on a lane, and the circular
     * DW_OP_call_frame_cfa / DW_OP_entry_value (GNU twins included) */
    switch (id) {
    case DWEXPR_OP_addrx: case DWEXPR_OP_call2: case DWEXPR_OP_call4: case DWEXPR_OP_call_ref:
    case DWEXPR_OP_const_type: case DWEXPR_OP_constx: case DWEXPR_OP_convert:
    case DWEXPR_OP_deref_type: case DWEXPR_OP_fbreg: case DWEXPR_OP_implicit_pointer:
    case DWEXPR_OP_regval_type: case DWEXPR_OP_reinterpret: case DWEXPR_OP_xderef_type:
    case DWEXPR_OP_push_object_address: case DWEXPR_OP_LLVM_push_lane:
    case DWEXPR_OP_call_frame_cfa: case DWEXPR_OP_entry_value:
    case DWEXPR_OP_GNU_entry_value: case DWEXPR_OP_GNU_const_type: case DWEXPR_OP_GNU_convert:
    case DWEXPR_OP_GNU_deref_type: case DWEXPR_OP_GNU_regval_type:
    case DWEXPR_OP_GNU_reinterpret: case DWEXPR_OP_GNU_implicit_pointer:
    case DWEXPR_OP_GNU_addr_index: case DWEXPR_OP_GNU_const_index:
    case DWEXPR_OP_GNU_parameter_ref: case DWEXPR_OP_GNU_variable_value:
    case DWEXPR_OP_LLVM_aspace_implicit_pointer:
        return false;
    default:
        return true;
    }
}

const char *dwexpr_cfi_rule_name(int kind)
{
    static const char *const names[] = {"undefined", "same_value", "offset", "val_offset",
                                        "register", "expression", "val_expression",
                                        "cfa_reg_offset", "cfa_expression", "none"};
    if (kind < 0 || (size_t)kind >= sizeof names / sizeof names[0])
        return "?";
    return names[kind];
}
