/* adapters/libdwarf/services.c: the binding of the adapter's DWARF
 * services to a debugger's machine target: base types, DIEs for
 * DW_OP_call* and implicit pointers, .debug_addr, frame bases of the
 * function at a frame's pc, DW_OP_entry_value through call-site
 * parameters (DW_AT_call_value), DW_OP_GNU_parameter_ref, and forwarding
 * of registers, memory, CFA, TLS and unwinding to the machine. */
#include <stdio.h>
#include <stdlib.h>

#include <stdarg.h>

#include "services.h"

/* ---- forwarding to the machine target ---- */

static dwexpr_status fw_reg_size(void *u, uint32_t regno, uint32_t *bytes)
{
    dwexpr_libdwarf_binding *b = u;
    return b->m.reg_size(b->muser, regno, bytes);
}

/* Forwarders: the machine target answers with its own user pointer. */
static dwexpr_status fw_reg_read(void *u, const dwexpr_regref *r, uint64_t off, void *buf,
                                 size_t len)
{
    dwexpr_libdwarf_binding *b = u;
    return b->m.reg_read(b->muser, r, off, buf, len);
}

static dwexpr_status fw_reg_write(void *u, const dwexpr_regref *r, uint64_t off, const void *buf,
                                  size_t len)
{
    dwexpr_libdwarf_binding *b = u;
    return b->m.reg_write(b->muser, r, off, buf, len);
}

static dwexpr_status fw_mem_read(void *u, const dwexpr_memref *m, void *buf, size_t len)
{
    dwexpr_libdwarf_binding *b = u;
    return b->m.mem_read(b->muser, m, buf, len);
}

static dwexpr_status fw_mem_write(void *u, const dwexpr_memref *m, const void *buf, size_t len)
{
    dwexpr_libdwarf_binding *b = u;
    return b->m.mem_write(b->muser, m, buf, len);
}

static dwexpr_status fw_aspace_info(void *u, uint32_t as, dwexpr_aspace_info *out)
{
    dwexpr_libdwarf_binding *b = u;
    return b->m.aspace_info(b->muser, as, out);
}

static dwexpr_status fw_tls_address(void *u, const dwexpr_frameref *f, uint64_t ta,
                                    dwexpr_sld *out)
{
    dwexpr_libdwarf_binding *b = u;
    return b->m.tls_address(b->muser, f, ta, out);
}

static dwexpr_status fw_cfa(void *u, const dwexpr_frameref *f, dwexpr_sld *out)
{
    dwexpr_libdwarf_binding *b = u;
    return b->m.cfa(b->muser, f, out);
}

static dwexpr_status fw_register_location(void *u, const dwexpr_frameref *f, uint32_t regno,
                                          dwexpr_sld *out)
{
    dwexpr_libdwarf_binding *b = u;
    return b->m.register_location(b->muser, f, regno, out);
}

/* Remember a short note on a failed service. */
static dwexpr_status note(dwexpr_libdwarf_binding *b, dwexpr_status st, const char *fmt, ...)
    LD_PRINTF(3, 4);
static dwexpr_status note(dwexpr_libdwarf_binding *b, dwexpr_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->msg, sizeof b->msg, fmt, ap);
    va_end(ap);
    return st;
}

/* ---- DWARF services ---- */

/* Service: DW_OP_convert, const_type, deref_type, regval_type operands. */
static dwexpr_status sv_base_type(void *u, const dwexpr_unit *unit, uint64_t die, dwexpr_type *out)
{
    dwexpr_libdwarf_binding *b = u;
    dwexpr_status st = ld_base_type(b->ld, (size_t)unit->id, die, out);
    if (st)
        return note(b, st, "no base type at unit offset 0x%llx", (unsigned long long)die);
    return DWEXPR_OK;
}

/* Service: the DIE of DW_OP_call2/4/call_ref, implicit pointers and
 * DW_OP_GNU_variable_value (DWARF 5 2.5.1.5: its DW_AT_location, else
 * DW_AT_const_value). An abstract variable DIE without either is
 * answered, as GDB answers it (dwarf2_fetch_die_loc_sect_off with
 * resolve_abstract_p), by its concrete DIE in the function holding the
 * pc of the evaluation's frame: gcc -flto's early-debug DIE of a
 * gfortran array bound's artificial variable, named from the type. */
static dwexpr_status sv_die(void *u, const dwexpr_unit *unit, uint64_t off, bool section_relative,
                            dwexpr_die *out)
{
    dwexpr_libdwarf_binding *b = u;
    dwexpr_libdwarf *ld = b->ld;
    ld_unit *cu = ld_unit_at(ld, (size_t)unit->id);
    if (!cu)
        return note(b, DWEXPR_E_NOT_FOUND, "no unit %llu", (unsigned long long)unit->id);
    uint64_t abs = section_relative ? off : cu->hdr + off;
    if (b->has_where && ld_map_get(&ld->concretes, cu->file, abs)) {
        dwexpr_libdwarf_attr a;
        const size_t au = ld_unit_of(ld, cu->file, abs);
        const bool own = au != SIZE_MAX &&
                         (dwexpr_libdwarf_attr_get(ld, au, abs, DW_AT_location, &a, NULL) ==
                              DWEXPR_OK ||
                          dwexpr_libdwarf_attr_get(ld, au, abs, DW_AT_const_value, &a, NULL) ==
                              DWEXPR_OK);
        char kept[sizeof b->msg];
        memcpy(kept, b->msg, sizeof kept);
        uint64_t pc, con = 0;
        if (!own && ld_frame_pc(b, &b->where, &pc) == DWEXPR_OK)
            con = ld_concrete_die(ld, cu->file, abs, ld_frame_lookup_pc(b, &b->where, pc));
        memcpy(b->msg, kept, sizeof kept); /* no pc: no note of it, the DIE answers alone */
        if (con)
            abs = con;
    }
    dwexpr_die *c = ld_map_get(&ld->dies, cu->file, abs);
    if (c) {
        *out = *c;
        return DWEXPR_OK;
    }
    size_t tu = ld_unit_of(ld, cu->file, abs);
    if (tu == SIZE_MAX)
        return note(b, DWEXPR_E_NOT_FOUND, "no DIE at 0x%llx", (unsigned long long)abs);
    c = ld_pool_alloc(&ld->pool, sizeof *c);
    if (!c)
        return DWEXPR_E_NOMEM;
    c->unit = ld_unit_at(ld, tu)->pub.unit;
    dwexpr_libdwarf_attr a;
    dwexpr_error err;
    dwexpr_status st = dwexpr_libdwarf_attr_get(ld, tu, abs, DW_AT_location, &a, &err);
    if (st == DWEXPR_OK && a.kind == DWEXPR_LIBDWARF_ATTR_EXPR) {
        c->kind = DWEXPR_DIE_EXPRLOC;
        c->expr = a.data;
        c->expr_len = a.len;
    } else if (st == DWEXPR_OK && a.kind == DWEXPR_LIBDWARF_ATTR_LIST) {
        c->kind = DWEXPR_DIE_LOCLIST;
        c->entries = a.entries;
        c->count = a.count;
    } else if (st == DWEXPR_E_NOT_FOUND || (st == DWEXPR_OK)) {
        st = dwexpr_libdwarf_attr_get(ld, tu, abs, DW_AT_const_value, &a, &err);
        if (st == DWEXPR_OK && a.kind == DWEXPR_LIBDWARF_ATTR_CONST) {
            c->kind = DWEXPR_DIE_CONST_VALUE;
            c->expr = a.data;
            c->expr_len = a.len;
        } else if (st && st != DWEXPR_E_NOT_FOUND) {
            return note(b, st, "%s", err.message);
        }
    } else {
        return note(b, st, "%s", err.message);
    }
    c->byte_size = ld_type_bytes(ld, tu, ld_die_type(ld, tu, abs));
    ld_map_put(&ld->dies, cu->file, abs, c);
    *out = *c;
    return DWEXPR_OK;
}

/* Service: DW_OP_addrx, DW_OP_constx, DW_OP_GNU_addr_index. */
static dwexpr_status sv_debug_addr(void *u, const dwexpr_unit *unit, uint64_t index,
                                   uint64_t *out)
{
    dwexpr_libdwarf_binding *b = u;
    ld_unit *cu = ld_unit_at(b->ld, (size_t)unit->id);
    dwexpr_error err;
    if (!cu)
        return note(b, DWEXPR_E_NOT_FOUND, "no unit %llu", (unsigned long long)unit->id);
    dwexpr_status st = ld_debug_addr(b->ld, cu, index, out, &err);
    if (st)
        return note(b, st, "%s", err.message);
    return DWEXPR_OK;
}

/* Whether frame F, at run-time pc P, is in the module's address range
 * (dwexpr_libdwarf_set_address_range; a caller frame's pc - 1 is). */
static bool in_module(const dwexpr_libdwarf_binding *b, const dwexpr_frameref *f, uint64_t p)
{
    const dwexpr_libdwarf *ld = b->ld;
    uint64_t look = ld_frame_lookup_pc(b, f, p);
    return ld->range_lo == ld->range_hi || (look >= ld->range_lo && look < ld->range_hi);
}

/* The machine's frame pc minus the load bias (none for a frame of
 * another module), else the set_pc table. */
dwexpr_status ld_frame_pc(dwexpr_libdwarf_binding *b, const dwexpr_frameref *f, uint64_t *pc)
{
    if (b->m.frame_pc) {
        uint64_t p;
        dwexpr_status st = b->m.frame_pc(b->muser, f, &p);
        if (st == DWEXPR_OK && !in_module(b, f, p))
            return note(b, DWEXPR_E_NOT_FOUND, "frame %u (pc 0x%llx) is in another module",
                        f->frame, (unsigned long long)p);
        if (st == DWEXPR_OK) {
            *pc = p - b->ld->load_bias;
            return DWEXPR_OK;
        }
    }
    if (f->frame < b->npcs && b->has_pc[f->frame]) {
        *pc = b->pcs[f->frame];
        return DWEXPR_OK;
    }
    return note(b, DWEXPR_E_NOT_FOUND, "no pc for frame %u", f->frame);
}

uint64_t ld_frame_lookup_pc(const dwexpr_libdwarf_binding *b, const dwexpr_frameref *f,
                            uint64_t pc)
{
    bool ra = f->frame < b->nret && b->ret_addr[f->frame] >= 0 ? b->ret_addr[f->frame] > 0
                                                              : f->frame > 0;
    return ra && pc ? pc - 1 : pc;
}

/* Service: program location of a frame (link-time). */
static dwexpr_status sv_frame_pc(void *u, const dwexpr_frameref *f, uint64_t *pc)
{
    return ld_frame_pc(u, f, pc);
}

/* The location list entry of A that matches PC (the first one), or NULL. */
const dwexpr_loclist_entry *ld_list_match(const dwexpr_libdwarf_attr *a, uint64_t pc)
{
    const dwexpr_loclist_entry *def = NULL;
    for (size_t i = 0; i < a->count; i++) {
        if (a->entries[i].is_default)
            def = def ? def : &a->entries[i];
        else if (pc >= a->entries[i].low && pc < a->entries[i].high)
            return &a->entries[i];
    }
    return def;
}

/* The concrete function (DW_TAG_subprogram) holding PC. */
const ld_scope *ld_function_at(const dwexpr_libdwarf *ld, uint64_t pc)
{
    const ld_scope *s = ld_scope_at(ld, pc);
    while (s && s->pub.kind != DWEXPR_LIBDWARF_SCOPE_FUNCTION)
        s = (const ld_scope *)s->pub.parent;
    return s;
}

/* Service: DW_OP_fbreg's frame base: DW_AT_frame_base of the function
 * at the frame's pc (caller frames: pc - 1, inside the call). */
static dwexpr_status sv_frame_base(void *u, const dwexpr_frameref *f, dwexpr_frame_base *out)
{
    dwexpr_libdwarf_binding *b = u;
    uint64_t pc = 0;
    if (ld_frame_pc(b, f, &pc) == DWEXPR_OK) {
        uint64_t at = ld_frame_lookup_pc(b, f, pc);
        const ld_scope *fn = ld_function_at(b->ld, at);
        if (fn) {
            dwexpr_libdwarf_attr a;
            dwexpr_error err;
            dwexpr_status st =
                dwexpr_libdwarf_attr_get(b->ld, fn->pub.unit, fn->pub.die, DW_AT_frame_base, &a, &err);
            if (st)
                return note(b, st, "function %s has no usable DW_AT_frame_base: %s",
                            fn->pub.name ? fn->pub.name : "?", err.message);
            memset(out, 0, sizeof *out);
            out->unit = ld_unit_at(b->ld, fn->pub.unit)->pub.unit;
            if (a.kind == DWEXPR_LIBDWARF_ATTR_EXPR) {
                out->expr = a.data;
                out->expr_len = a.len;
                return DWEXPR_OK;
            }
            if (a.kind == DWEXPR_LIBDWARF_ATTR_LIST) {
                const dwexpr_loclist_entry *e = ld_list_match(&a, at);
                if (!e)
                    return note(b, DWEXPR_E_NOT_FOUND,
                                "the frame base list of %s has no entry for pc 0x%llx",
                                fn->pub.name ? fn->pub.name : "?", (unsigned long long)at);
                out->expr = e->expr;
                out->expr_len = e->expr_len;
                return DWEXPR_OK;
            }
            return note(b, DWEXPR_E_NOT_FOUND, "DW_AT_frame_base of %s is not an expression",
                        fn->pub.name ? fn->pub.name : "?");
        }
    }
    if (b->m.frame_base)
        return b->m.frame_base(b->muser, f, out);
    return note(b, DWEXPR_E_NOT_FOUND, "no function at the pc of frame %u", f->frame);
}

/* ---- entry values ---- */

/* A context for an evaluation nested in a callback: one per depth, the
 * slots grown as the nesting first goes deeper. */
dwexpr_ctx *ld_nested_ctx(dwexpr_libdwarf_binding *b)
{
    if (b->depth >= LD_MAX_NEST)
        return NULL;
    if (b->depth >= b->nnest) {
        unsigned n = b->nnest ? 2 * b->nnest : 8;
        if (n > LD_MAX_NEST)
            n = LD_MAX_NEST;
        dwexpr_ctx **v = realloc(b->nest, n * sizeof *v);
        if (!v)
            return NULL;
        memset(v + b->nnest, 0, (n - b->nnest) * sizeof *v);
        b->nest = v;
        b->nnest = n;
    }
    if (!b->nest[b->depth] && dwexpr_ctx_new(NULL, &b->nest[b->depth]) != DWEXPR_OK)
        return NULL;
    return b->nest[b->depth];
}

/* Keep a copy of a value's wide bytes in B (they would die with the nested context). */
static dwexpr_status keep_wide(dwexpr_libdwarf_binding *b, dwexpr_value *v)
{
    if (!v->wide)
        return DWEXPR_OK;
    size_t n = ((size_t)v->type.bits * (v->type.lanes ? v->type.lanes : 1) + 7) / 8;
    uint8_t *copy = ld_pool_alloc(&b->ld->pool, n);
    if (!copy)
        return DWEXPR_E_NOMEM;
    memcpy(copy, v->wide, n);
    v->wide = copy;
    return DWEXPR_OK;
}

/* The registers BLOCK reads (DW_OP_reg*, breg*, regx, bregx, regval_type),
 * up to CAP of them, and in *DEREF_REG the register of a deref entry
 * (below; UINT32_MAX for any other block); false if BLOCK does not
 * decode. */
static bool block_registers(const uint8_t *block, size_t len, const dwexpr_unit *unit,
                            uint32_t *regs, size_t cap, size_t *n, bool *single,
                            int *regval_type, uint64_t *regval_die, uint32_t *deref_reg)
{
    dwexpr_program *p = NULL;
    dwexpr_error e;
    *n = 0;
    *single = false;
    *regval_type = 0;
    *deref_reg = UINT32_MAX;
    if (dwexpr_program_decode(block, len, unit, &p, &e) != DWEXPR_OK)
        return false;
    size_t count = dwexpr_program_count(p);
    if (count == 2) {
        /* "DW_OP_bregN 0 (or DW_OP_bregx N 0); DW_OP_deref (or
         * DW_OP_deref_size S)": the value on entry of the object register
         * N pointed to, which a call site gives as the parameter's
         * DW_AT_call_data_value (DWARF 5 3.4.2; GDB's
         * dwarf_block_to_dwarf_reg_deref) */
        dwexpr_op v0, v1;
        const dwexpr_op *a = dwexpr_program_op(p, 0, &v0), *d = dwexpr_program_op(p, 1, &v1);
        const bool breg = a->id >= DWEXPR_OP_breg0 && a->id <= DWEXPR_OP_breg31;
        const uint64_t off = breg ? a->operand[0] : a->operand[1];
        if ((breg || (a->id == DWEXPR_OP_bregx && a->operand[0] <= UINT32_MAX)) && off == 0 &&
            (d->id == DWEXPR_OP_deref || d->id == DWEXPR_OP_deref_size))
            *deref_reg = breg ? (uint32_t)(a->id - DWEXPR_OP_breg0) : (uint32_t)a->operand[0];
    }
    for (size_t i = 0; i < count; i++) {
        dwexpr_op view;
        const dwexpr_op *op = dwexpr_program_op(p, i, &view);
        uint32_t r = UINT32_MAX;
        if (op->id >= DWEXPR_OP_reg0 && op->id <= DWEXPR_OP_reg31)
            r = (uint32_t)(op->id - DWEXPR_OP_reg0);
        else if (op->id >= DWEXPR_OP_breg0 && op->id <= DWEXPR_OP_breg31)
            r = (uint32_t)(op->id - DWEXPR_OP_breg0);
        else if (op->id == DWEXPR_OP_regx || op->id == DWEXPR_OP_bregx)
            r = (uint32_t)op->operand[0];
        else if (op->id == DWEXPR_OP_regval_type || op->id == DWEXPR_OP_GNU_regval_type) {
            r = (uint32_t)op->operand[0];
            if (count == 1) {
                *regval_type = 1;
                *regval_die = op->operand[1];
            }
        }
        if (r != UINT32_MAX && *n < cap)
            regs[(*n)++] = r;
        if (count == 1 && ((op->id >= DWEXPR_OP_reg0 && op->id <= DWEXPR_OP_reg31) ||
                           op->id == DWEXPR_OP_regx || *regval_type))
            *single = true;
    }
    dwexpr_program_free(p);
    return true;
}

/* Whether A and B are the same place: the same storage at the same
 * offset (memory of one address space, one register of one frame, the
 * same implicit bytes). */
static bool same_place(const dwexpr_sld *a, const dwexpr_sld *b)
{
    if (a->kind != b->kind || a->byte_offset != b->byte_offset || a->bit != b->bit)
        return false;
    switch (a->kind) {
    case DWEXPR_LOC_MEMORY:
        return a->aspace == b->aspace;
    case DWEXPR_LOC_REGISTER:
        return a->u.regno == b->u.regno &&
               (a->ctx & DWEXPR_CTX_FRAME) == (b->ctx & DWEXPR_CTX_FRAME) &&
               (!(a->ctx & DWEXPR_CTX_FRAME) || a->frame == b->frame) &&
               (a->ctx & DWEXPR_CTX_THREAD) == (b->ctx & DWEXPR_CTX_THREAD) &&
               (!(a->ctx & DWEXPR_CTX_THREAD) || a->thread == b->thread);
    case DWEXPR_LOC_IMPLICIT:
        return a->u.imp.data == b->u.imp.data && a->u.imp.bits == b->u.imp.bits;
    default:
        return false;
    }
}

/* Whether the machine can tell where every register in REGS lives in
 * frame FRAME, the caller of frame FRAME - 1: an unwinder's answer that
 * is neither "undefined" nor "same value". Same value is the callee's
 * register itself: the register of a younger frame with the same number,
 * or any answer that is where the callee frame's own register is (a
 * machine that reads a register the CFI says nothing about as the
 * callee's, whose register may itself live in memory: the sigcontext of
 * a signal frame below it). For a register the ABI does not preserve,
 * the CFI's silence is no recovery (DWARF 5 2.5.1.7, x86-64 psABI 3.2.1:
 * the callee's current value is not the caller's value at the call). */
static bool recoverable(dwexpr_libdwarf_binding *b, const dwexpr_frameref *f, uint32_t frame,
                        const uint32_t *regs, size_t n)
{
    if (!b->m.register_location)
        return false;
    for (size_t i = 0; i < n; i++) {
        dwexpr_frameref g = *f;
        g.frame = frame;
        dwexpr_sld s;
        memset(&s, 0, sizeof s);
        if (b->m.register_location(b->muser, &g, regs[i], &s) != DWEXPR_OK ||
            s.kind == DWEXPR_LOC_UNDEFINED)
            return false;
        if (s.kind == DWEXPR_LOC_REGISTER && s.u.regno == regs[i] &&
            (s.ctx & DWEXPR_CTX_FRAME) && s.frame < frame)
            return false;
        if (frame > 0) {
            dwexpr_sld callee;
            memset(&callee, 0, sizeof callee);
            g.frame = frame - 1;
            if (b->m.register_location(b->muser, &g, regs[i], &callee) == DWEXPR_OK &&
                same_place(&s, &callee))
                return false;
        }
    }
    return true;
}

/* Evaluate the call-site expression DATA (LEN bytes, of call site CS's
 * unit) as a value in the caller frame of F (frame f->frame + 1, at
 * return address RET): DW_AT_call_value, DW_AT_call_target. WHAT names it
 * in notes. */
static dwexpr_status eval_in_caller(dwexpr_libdwarf_binding *b, const dwexpr_frameref *f,
                                    const ld_callsite *cs, const uint8_t *data, size_t len,
                                    uint64_t ret, const char *what, dwexpr_value *out)
{
    dwexpr_ctx *ctx = ld_nested_ctx(b);
    if (!ctx)
        b->nest_fail++;
    if (!ctx && b->depth >= LD_MAX_NEST)
        return note(b, DWEXPR_E_CALL_DEPTH, "entry values nest more than %d deep",
                    LD_MAX_NEST);
    if (!ctx)
        return note(b, DWEXPR_E_NOMEM, "out of memory");
    /* seed "DW_AT_call_value": result kind value, empty stack, the caller
     * frame at the call site */
    dwexpr_eval_params q;
    memset(&q, 0, sizeof q);
    q.result_kind = DWEXPR_RESULT_VALUE;
    q.ctx = (uint16_t)(f->ctx | DWEXPR_CTX_FRAME);
    q.thread = f->thread;
    q.lane = f->lane;
    q.frame = f->frame + 1;
    q.has_pc = true;
    q.pc = ret ? ret - 1 : ret;
    dwexpr_program *prog = NULL;
    const dwexpr_unit *unit = &ld_unit_at(b->ld, cs->unit)->pub.unit;
    dwexpr_error err;
    dwexpr_status st;
    if ((st = dwexpr_program_decode(data, len, unit, &prog, &err)))
        return note(b, DWEXPR_E_ILL_FORMED, "%s: %s", what, err.message);
    dwexpr_result r;
    b->depth++;
    st = dwexpr_eval(ctx, prog, &b->t, b, &q, &r);
    b->depth--;
    dwexpr_program_free(prog);
    if (st)
        return note(b, st == DWEXPR_E_NOT_FOUND ? DWEXPR_E_TARGET : st, "%s: %s", what,
                    dwexpr_ctx_error(ctx)->message);
    *out = r.value;
    return DWEXPR_OK;
}

/* Evaluate DW_AT_call_value (DATA: DW_AT_call_data_value, the value of
 * the object the parameter points to; GNU: DW_AT_GNU_call_site_value /
 * _data_value) of call-site parameter P in the caller frame of F (frame
 * f->frame + 1 at return address RET). */
static dwexpr_status call_param_value(dwexpr_libdwarf_binding *b, const dwexpr_frameref *f,
                                      const ld_callsite *cs, const ld_csparam *p, uint64_t ret,
                                      bool data, dwexpr_value *out)
{
    dwexpr_libdwarf_attr a;
    dwexpr_error err;
    dwexpr_status st = dwexpr_libdwarf_attr_get(
        b->ld, cs->unit, p->die, data ? DW_AT_call_data_value : DW_AT_call_value, &a, &err);
    if (st == DWEXPR_E_NOT_FOUND)
        st = dwexpr_libdwarf_attr_get(b->ld, cs->unit, p->die,
                                      data ? DW_AT_GNU_call_site_data_value
                                           : DW_AT_GNU_call_site_value,
                                      &a, &err);
    if (st || a.kind != DWEXPR_LIBDWARF_ATTR_EXPR)
        return note(b, DWEXPR_E_NOT_FOUND, "call-site parameter 0x%llx has no %s",
                    (unsigned long long)p->die,
                    data ? "DW_AT_call_data_value" : "DW_AT_call_value");
    char what[80];
    snprintf(what, sizeof what, "DW_AT_call_value of call-site parameter 0x%llx",
             (unsigned long long)p->die);
    if ((st = eval_in_caller(b, f, cs, a.data, a.len, ret, what, out)))
        return st;
    return keep_wide(b, out);
}

/* A caller's call site: the binding of the caller's module (the frame's
 * own, or another module's, dwexpr_libdwarf_binding_set_peers), its
 * DW_TAG_call_site and the return address (link-time in that module). */
typedef struct ld_site {
    dwexpr_libdwarf_binding *b;
    const ld_callsite *cs;
    uint64_t ret;
} ld_site;

/* The call site in the caller of frame F (frame f->frame + 1) into *S;
 * false if there is none. */
static bool caller_site(dwexpr_libdwarf_binding *b, const dwexpr_frameref *f, ld_site *s)
{
    dwexpr_frameref g = *f;
    g.frame = f->frame + 1;
    s->b = b;
    s->cs = NULL;
    s->ret = 0;
    if (ld_frame_pc(b, &g, &s->ret) == DWEXPR_OK) {
        s->cs = ld_callsite_at(b->ld, s->ret);
        return s->cs != NULL;
    }
    /* a caller in another module: that module's binding and DWARF */
    uint64_t p;
    if (!b->peer || !b->m.frame_pc || b->m.frame_pc(b->muser, &g, &p) != DWEXPR_OK)
        return false;
    dwexpr_libdwarf_binding *o = b->peer(b->peer_user, ld_frame_lookup_pc(b, &g, p));
    if (!o || o == b || ld_frame_pc(o, &g, &s->ret) != DWEXPR_OK)
        return false;
    s->b = o;
    s->cs = ld_callsite_at(o->ld, s->ret);
    return s->cs != NULL;
}

/* call_param_value of call site S's parameter P, with S's binding; its
 * note becomes B's. */
static dwexpr_status site_value(dwexpr_libdwarf_binding *b, const dwexpr_frameref *f,
                                const ld_site *s, const ld_csparam *p, bool data,
                                dwexpr_value *out)
{
    const unsigned long fails = s->b->nest_fail;
    dwexpr_status st = call_param_value(s->b, f, s->cs, p, s->ret, data, out);
    if (s->b != b)
        b->nest_fail += s->b->nest_fail - fails; /* B's answer depends on them too */
    if (st && s->b != b)
        snprintf(b->msg, sizeof b->msg, "%s", s->b->msg);
    return st;
}

/* GDB's checks before it takes an entry value of frame F from call site
 * CS of its caller (return address RET; dwarf_expr_reg_to_entry_parameter
 * and func_verify_no_selftailcall): CS calls the function of F (its
 * DW_AT_call_target evaluated in the caller frame, else the callee it
 * names), and that function cannot reach itself through tail calls. A
 * call site that calls another function means a tail call in between,
 * whose frame is gone (or one of dwexpr's tail call frames is missing):
 * the values it passed are not the callee's. E_NOT_FOUND with a note when
 * a check fails. */
static dwexpr_status callee_check(dwexpr_libdwarf_binding *b, const dwexpr_frameref *f,
                                  const ld_site *s)
{
    const ld_callsite *cs = s->cs;
    const uint64_t ret = s->ret;
    uint64_t pc;
    if (ld_frame_pc(b, f, &pc) != DWEXPR_OK)
        return DWEXPR_E_NOT_FOUND;
    const ld_scope *fn = ld_function_at(b->ld, ld_frame_lookup_pc(b, f, pc));
    if (!fn || !fn->pub.nranges)
        return note(b, DWEXPR_E_NOT_FOUND, "no function at the pc of frame %u", f->frame);
    const char *name = fn->pub.name ? fn->pub.name : "?";
    uint64_t entry = ld_function_entry(fn);
    const uint64_t *t;
    size_t nt;
    bool calls = false;
    dwexpr_status st = ld_callsite_targets(s->b->ld, cs, &t, &nt);
    if (st == DWEXPR_E_UNSUPPORTED) {
        /* an indirect call: its target (a run-time address) in the
         * caller frame */
        dwexpr_value v;
        char msg[sizeof b->msg];
        if (eval_in_caller(s->b, f, cs, cs->target_expr, cs->target_len, ret,
                           "DW_AT_call_target", &v)) {
            snprintf(msg, sizeof msg, "%s", s->b->msg);
            return note(b, DWEXPR_E_NOT_FOUND, "the call site at 0x%llx has no known target (%.150s)",
                        (unsigned long long)ret, msg);
        }
        calls = !v.wide && v.bits - b->ld->load_bias == entry;
    } else if (st == DWEXPR_OK && s->b == b) {
        for (size_t i = 0; i < nt; i++)
            calls = calls || t[i] == entry;
    } else if (st == DWEXPR_OK) {
        /* a call from another module names a declaration: GDB finds the
         * callee by that name (its linkage name, else its name; a minimal
         * symbol), here in the frame's module (ld_function_named) */
        uint64_t a;
        size_t count;
        calls = cs->outside && ld_function_named(b->ld, cs->outside, &a, &count) == LD_NAME_ONE &&
                a == entry;
    } else if (cs->ambiguous) {
        return note(b, DWEXPR_E_NOT_FOUND,
                    "the call site at 0x%llx names a declaration of %s, and several functions "
                    "have that name", (unsigned long long)ret, cs->ambiguous);
    } else {
        return note(b, DWEXPR_E_NOT_FOUND, "the call site at 0x%llx names no known target",
                    (unsigned long long)ret);
    }
    if (!calls)
        return note(b, DWEXPR_E_NOT_FOUND,
                    "the call site at 0x%llx calls another function than %s (a tail call in "
                    "between)", (unsigned long long)ret, name);
    if (ld_may_tail_call_self(b->ld, entry))
        return note(b, DWEXPR_E_NOT_FOUND,
                    "%s may call itself through tail calls (or calls an unknown function so): "
                    "its entry values are not reliable", name);
    return DWEXPR_OK;
}

/* DW_OP_entry_value from the caller's DW_TAG_call_site_parameter (DWARF 5
 * 3.4.2; GDB's rule: the block is one DW_OP_reg* or regval_type). */
static dwexpr_status entry_from_call_site(dwexpr_libdwarf_binding *b, const dwexpr_frameref *f,
                                          const uint8_t *block, size_t len, const uint32_t *regs,
                                          bool single, int regval, uint64_t regval_die,
                                          const dwexpr_unit *unit, dwexpr_value *out)
{
    ld_site s;
    if (!caller_site(b, f, &s))
        return note(b, DWEXPR_E_NOT_FOUND, "no call site in the caller of frame %u", f->frame);
    dwexpr_status ck = callee_check(b, f, &s);
    if (ck)
        return ck;
    for (size_t i = 0; i < s.cs->nparams; i++) {
        const ld_csparam *p = &s.cs->params[i];
        bool match = (p->loc_len == len && memcmp(p->loc, block, len) == 0) ||
                     (single && p->regno == regs[0]);
        if (!match || !p->has_value)
            continue;
        dwexpr_status st = site_value(b, f, &s, p, false, out);
        if (st)
            return st;
        if (regval) {
            /* DW_OP_regval_type R T: the register's contents as type T */
            dwexpr_type t;
            if (ld_base_type(b->ld, (size_t)unit->id, regval_die, &t) == DWEXPR_OK &&
                (uint64_t)t.bits * t.lanes <= 64 && !out->wide) {
                out->type = t;
                if (t.bits < 64)
                    out->bits &= ((uint64_t)1 << t.bits) - 1;
            }
        }
        return DWEXPR_OK;
    }
    return note(b, DWEXPR_E_NOT_FOUND, "the call site at 0x%llx has no value for the parameter",
                (unsigned long long)s.ret);
}

/* DW_OP_entry_value of a deref entry on register REG (block_registers):
 * the caller's call site passes REG with a DW_AT_call_data_value,
 * evaluated in the caller frame (the object's value when the call was made; the memory
 * may have changed since). Only the call site can tell (GDB): without
 * one, or without the value, the value is gone (E_UNDEFINED_READ,
 * GDB's <optimized out>). */
static dwexpr_status entry_data_value(dwexpr_libdwarf_binding *b, const dwexpr_frameref *f,
                                      uint32_t reg, dwexpr_value *out)
{
    ld_site s;
    if (!caller_site(b, f, &s))
        return note(b, DWEXPR_E_UNDEFINED_READ,
                    "the entry value of the object register %u points to is not available: "
                    "no call site in the caller of frame %u", reg, f->frame);
    dwexpr_status ck = callee_check(b, f, &s);
    if (ck)
        return note(b, DWEXPR_E_UNDEFINED_READ, "the entry value is not available: %.200s",
                    b->msg);
    for (size_t i = 0; i < s.cs->nparams; i++) {
        const ld_csparam *p = &s.cs->params[i];
        if (p->regno == reg && p->has_data_value)
            return site_value(b, f, &s, p, true, out);
    }
    return note(b, DWEXPR_E_UNDEFINED_READ,
                "the entry value of the object register %u points to is not available: the "
                "call site at 0x%llx gives no DW_AT_call_data_value for it",
                reg, (unsigned long long)s.ret);
}

/* ---- kept entry values (dwexpr_libdwarf_binding_keep_entry_values) ---- */

/* The longest question kept: an entry value's block, or a parameter
 * reference's unit and DIE. */
#define LD_MEMO_KEY 24

/* One kept answer: the question (KIND 1: DW_OP_entry_value's block, 2:
 * DW_OP_GNU_parameter_ref's unit id and DIE) in a frame, and its status,
 * value and note. */
struct ld_memo {
    uint8_t kind; /* 0: an empty slot */
    uint8_t len;
    uint16_t ctx;
    uint32_t frame, lane;
    uint64_t thread;
    uint8_t key[LD_MEMO_KEY];
    dwexpr_status st;
    dwexpr_value v;
    char *msg; /* the note of a failure (NULL for OK) */
};

/* The question a memo slot answers, made from F, KIND and KEY[LEN]. */
static void memo_question(struct ld_memo *q, const dwexpr_frameref *f, uint8_t kind,
                          const uint8_t *key, size_t len)
{
    memset(q, 0, sizeof *q);
    q->kind = kind;
    q->len = (uint8_t)len;
    q->ctx = f->ctx;
    q->frame = f->frame;
    q->lane = f->lane;
    q->thread = f->thread;
    memcpy(q->key, key, len);
}

/* The slot of question Q in B's memo: its answer, or the empty slot it
 * would take; NULL when the memo has no slots. */
static struct ld_memo *memo_slot(const dwexpr_libdwarf_binding *b, const struct ld_memo *q)
{
    if (!b->memo_cap)
        return NULL;
    uint64_t h = q->frame * 0x9e3779b97f4a7c15ull ^ q->thread ^ ((uint64_t)q->lane << 40) ^
                 q->kind;
    for (unsigned i = 0; i < q->len; i++)
        h = (h ^ q->key[i]) * 0x100000001b3ull;
    for (size_t k = (size_t)(h ^ h >> 29) & (b->memo_cap - 1);; k = (k + 1) & (b->memo_cap - 1)) {
        struct ld_memo *e = &b->memo[k];
        if (!e->kind || (e->kind == q->kind && e->len == q->len && e->ctx == q->ctx &&
                         e->frame == q->frame && e->lane == q->lane &&
                         e->thread == q->thread && memcmp(e->key, q->key, q->len) == 0))
            return e;
    }
}

/* Forget every kept answer. */
static void memo_forget(dwexpr_libdwarf_binding *b)
{
    for (size_t k = 0; k < b->memo_cap; k++)
        free(b->memo[k].msg);
    free(b->memo);
    b->memo = NULL;
    b->memo_cap = b->memo_n = 0;
}

/* Keep answer ST, *V (B's note when ST fails) to question Q (not when out
 * of memory: it is only asked again). */
static void memo_put(dwexpr_libdwarf_binding *b, const struct ld_memo *q, dwexpr_status st,
                     const dwexpr_value *v)
{
    if (2 * (b->memo_n + 1) > b->memo_cap) {
        size_t cap = b->memo_cap ? 2 * b->memo_cap : 64;
        struct ld_memo *slots = calloc(cap, sizeof *slots), *old = b->memo;
        if (!slots)
            return;
        const size_t oldcap = b->memo_cap;
        b->memo = slots;
        b->memo_cap = cap;
        for (size_t k = 0; k < oldcap; k++)
            if (old[k].kind)
                *memo_slot(b, &old[k]) = old[k];
        free(old);
    }
    char *msg = NULL;
    if (st && !(msg = strdup(b->msg)))
        return;
    struct ld_memo *e = memo_slot(b, q);
    if (!e->kind)
        b->memo_n++;
    free(e->msg);
    *e = *q;
    e->st = st;
    e->v = st ? (dwexpr_value){0} : *v;
    e->msg = msg;
}

/* A kept answer to question Q into *ST and *OUT (B's note for a
 * failure); false if there is none. */
static bool memo_get(dwexpr_libdwarf_binding *b, const struct ld_memo *q, dwexpr_status *st,
                     dwexpr_value *out)
{
    const struct ld_memo *e = memo_slot(b, q);
    if (!e || !e->kind)
        return false;
    *st = e->st;
    if (e->st)
        snprintf(b->msg, sizeof b->msg, "%s", e->msg);
    else
        *out = e->v;
    return true;
}

/* Service: DW_OP_entry_value (seed "DW_OP_entry_value"; issue 6: the
 * caller's register when it can be recovered, else the call-site
 * parameter). E_NOT_FOUND lets dwexpr evaluate the block in the caller. */
static dwexpr_status entry_value_answer(dwexpr_libdwarf_binding *b, const dwexpr_frameref *f,
                                        const uint8_t *block, size_t len, dwexpr_value *out)
{
    if (b->m.entry_value) {
        dwexpr_status st = b->m.entry_value(b->muser, f, block, len, out);
        if (st != DWEXPR_E_NOT_FOUND)
            return st;
    }
    if (b->policy == DWEXPR_LIBDWARF_EV_REGISTER_ONLY)
        return DWEXPR_E_NOT_FOUND;
    /* the unit of the block: the one of the function at the frame's pc */
    uint64_t pc = 0;
    dwexpr_unit unit;
    memset(&unit, 0, sizeof unit);
    unit.addr_size = 8;
    unit.offset_size = 4;
    unit.version = 5;
    if (ld_frame_pc(b, f, &pc) == DWEXPR_OK) {
        const ld_scope *s = ld_scope_at(b->ld, ld_frame_lookup_pc(b, f, pc));
        if (s)
            unit = ld_unit_at(b->ld, s->pub.unit)->pub.unit;
    }
    uint32_t regs[8], dreg;
    size_t nregs;
    bool single;
    int regval;
    uint64_t regval_die = 0;
    if (!block_registers(block, len, &unit, regs, 8, &nregs, &single, &regval, &regval_die,
                         &dreg))
        return DWEXPR_E_NOT_FOUND;
    if (dreg != UINT32_MAX)
        return entry_data_value(b, f, dreg, out);
    bool regs_ok = nregs && recoverable(b, f, f->frame + 1, regs, nregs);
    if (b->policy == DWEXPR_LIBDWARF_EV_REGISTER_FIRST && regs_ok)
        return DWEXPR_E_NOT_FOUND;
    dwexpr_status st =
        entry_from_call_site(b, f, block, len, regs, single, regval, regval_die, &unit, out);
    if (st != DWEXPR_E_NOT_FOUND)
        return st;
    if (b->policy == DWEXPR_LIBDWARF_EV_REGISTER_FIRST && nregs) {
        /* neither the caller's register nor a call-site value: the value
         * on entry is gone (GDB: <optimized out>) */
        char why[sizeof b->msg];
        snprintf(why, sizeof why, "%s", b->msg[0] ? b->msg : "no call site");
        return note(b, DWEXPR_E_UNDEFINED_READ,
                    "the entry value is not available: the caller frame does not keep "
                    "register %u and its call site gives no value (%.120s)",
                    regs[0], why);
    }
    return DWEXPR_E_NOT_FOUND; /* dwexpr evaluates the block in the caller frame */
}

/* The services of this thread's bindings entered and not returned from,
 * and the number of the outermost question (a binding that does not keep
 * answers keeps them for one outermost question: the entry values one
 * evaluation's entry values ask for; a recursion's call-site values ask
 * for the caller's entry values of two parameters or more, exponential
 * without). */
static _Thread_local unsigned ld_tl_depth;
static _Thread_local unsigned long ld_tl_question;

/* Memo wrapper of a service's answer: ANSWER (an expression using B, F
 * and OUT) once per question Q: for as long as B keeps answers, else for
 * this outermost question; one computed while an evaluation nested too
 * deep (or ran out of memory) is not kept. */
#define LD_MEMO_ANSWER(b, q, out, answer)                                                     \
    do {                                                                                       \
        dwexpr_status st_;                                                                     \
        if (!ld_tl_depth)                                                                      \
            ld_tl_question++;                                                                  \
        if (!(b)->keep && (b)->memo_question != ld_tl_question) {                              \
            memo_forget(b); /* another question's */                                           \
            (b)->memo_question = ld_tl_question;                                               \
        }                                                                                      \
        if (len_ok_ && memo_get(b, q, &st_, out))                                              \
            return st_;                                                                        \
        const unsigned long fails_ = (b)->nest_fail;                                           \
        ld_tl_depth++;                                                                         \
        st_ = (answer);                                                                        \
        ld_tl_depth--;                                                                         \
        if (len_ok_ && (b)->nest_fail == fails_ && (st_ || !(out)->wide))                      \
            memo_put(b, q, st_, out);                                                          \
        return st_;                                                                            \
    } while (0)

/* Service: DW_OP_entry_value: entry_value_answer, kept per frame and
 * block (LD_MEMO_ANSWER). */
static dwexpr_status sv_entry_value(void *u, const dwexpr_frameref *f, const uint8_t *block,
                                    size_t len, dwexpr_value *out)
{
    dwexpr_libdwarf_binding *b = u;
    const bool len_ok_ = len <= LD_MEMO_KEY;
    struct ld_memo q;
    memo_question(&q, f, 1, block, len_ok_ ? len : 0);
    LD_MEMO_ANSWER(b, &q, out, entry_value_answer(b, f, block, len, out));
}

/* Service: DW_OP_GNU_parameter_ref: the caller's call-site parameter
 * whose DW_AT_call_parameter (GNU: DW_AT_abstract_origin) is DIE. The
 * value the caller passed is all there is (the parameter itself was
 * optimized away): with no call site in the caller, or one that does not
 * pass the parameter, the value is gone, as an entry value the caller no
 * longer keeps (sv_entry_value): E_UNDEFINED_READ, GDB's <optimized out>
 * (its NO_ENTRY_VALUE_ERROR for DW_OP_GNU_parameter_ref). */
static dwexpr_status parameter_ref_answer(dwexpr_libdwarf_binding *b, const dwexpr_frameref *f,
                                          const dwexpr_unit *unit, uint64_t die,
                                          dwexpr_value *out)
{
    ld_unit *cu = ld_unit_at(b->ld, (size_t)unit->id);
    if (!cu)
        return DWEXPR_E_NOT_FOUND;
    uint64_t abs = cu->hdr + die;
    ld_site s;
    /* the parameter is a DIE of this module: a call site of another
     * cannot name it */
    if (!caller_site(b, f, &s) || s.b != b)
        return note(b, DWEXPR_E_UNDEFINED_READ,
                    "the value of parameter 0x%llx is not available: no call site in the "
                    "caller of frame %u", (unsigned long long)abs, f->frame);
    const ld_callsite *cs = s.cs;
    if (callee_check(b, f, &s)) {
        char why[sizeof b->msg];
        snprintf(why, sizeof why, "%s", b->msg);
        return note(b, DWEXPR_E_UNDEFINED_READ, "the value of parameter 0x%llx is not available: %.200s",
                    (unsigned long long)abs, why);
    }
    for (size_t i = 0; i < cs->nparams; i++)
        if (cs->params[i].param == abs && cs->params[i].has_value)
            return call_param_value(b, f, cs, &cs->params[i], s.ret, false, out);
    return note(b, DWEXPR_E_UNDEFINED_READ,
                "the value of parameter 0x%llx is not available: the call site at 0x%llx "
                "does not pass it", (unsigned long long)abs, (unsigned long long)s.ret);
}

/* Service: DW_OP_GNU_parameter_ref: parameter_ref_answer, kept per frame,
 * unit and DIE (LD_MEMO_ANSWER). */
static dwexpr_status sv_parameter_ref(void *u, const dwexpr_frameref *f, const dwexpr_unit *unit,
                                      uint64_t die, dwexpr_value *out)
{
    dwexpr_libdwarf_binding *b = u;
    const bool len_ok_ = true;
    uint8_t key[16];
    const uint64_t id = unit->id;
    memcpy(key, &id, 8);
    memcpy(key + 8, &die, 8);
    struct ld_memo q;
    memo_question(&q, f, 2, key, sizeof key);
    LD_MEMO_ANSWER(b, &q, out, parameter_ref_answer(b, f, unit, die, out));
}

/* ---- the binding ---- */

dwexpr_status dwexpr_libdwarf_target(dwexpr_libdwarf *ld, const dwexpr_target *machine,
                                     void *machine_user, dwexpr_target *out,
                                     dwexpr_libdwarf_binding **out_user)
{
    if (!ld || !out || !out_user)
        return DWEXPR_E_USAGE;
    dwexpr_libdwarf_binding *b = calloc(1, sizeof *b);
    if (!b)
        return DWEXPR_E_NOMEM;
    b->ld = ld;
    b->muser = machine_user;
    if (machine) {
        size_t n = machine->size < sizeof b->m ? machine->size : sizeof b->m;
        memcpy(&b->m, machine, n);
    }
    b->m.size = sizeof b->m;
    dwexpr_target *t = &b->t;
    t->size = sizeof *t;
#define FW(name) t->name = b->m.name ? fw_##name : NULL
    FW(reg_size);
    FW(reg_read);
    FW(reg_write);
    FW(mem_read);
    FW(mem_write);
    FW(aspace_info);
    FW(tls_address);
    FW(cfa);
    FW(register_location);
#undef FW
    t->base_type = sv_base_type;
    t->die = sv_die;
    t->debug_addr = sv_debug_addr;
    t->frame_base = sv_frame_base;
    t->frame_pc = sv_frame_pc;
    t->entry_value = sv_entry_value;
    t->parameter_ref = sv_parameter_ref;
    *out = *t;
    *out_user = b;
    return DWEXPR_OK;
}

void dwexpr_libdwarf_binding_free(dwexpr_libdwarf_binding *b)
{
    if (!b)
        return;
    for (unsigned i = 0; i < b->nnest; i++)
        dwexpr_ctx_free(b->nest[i]);
    free(b->nest);
    ld_results_release(b);
    memo_forget(b);
    free(b->pcs);
    free(b->has_pc);
    free(b->ret_addr);
    free(b);
}

const dwexpr_target *dwexpr_libdwarf_binding_target(const dwexpr_libdwarf_binding *b)
{
    return b ? &b->t : NULL;
}

dwexpr_status dwexpr_libdwarf_binding_set_pc(dwexpr_libdwarf_binding *b, uint32_t frame,
                                             uint64_t pc)
{
    if (!b || frame >= LD_MAX_FRAMES)
        return DWEXPR_E_USAGE;
    if (frame >= b->npcs) {
        size_t n = (size_t)frame + 16;
        uint64_t *np = realloc(b->pcs, n * sizeof *np);
        if (!np)
            return DWEXPR_E_NOMEM;
        b->pcs = np;
        bool *nh = realloc(b->has_pc, n * sizeof *nh);
        if (!nh)
            return DWEXPR_E_NOMEM;
        b->has_pc = nh;
        for (size_t i = b->npcs; i < n; i++) {
            b->pcs[i] = 0;
            b->has_pc[i] = false;
        }
        b->npcs = n;
    }
    if (b->has_pc[frame] && b->pcs[frame] != pc)
        memo_forget(b); /* another stop, or another frame there */
    b->pcs[frame] = pc;
    b->has_pc[frame] = true;
    return DWEXPR_OK;
}

dwexpr_status dwexpr_libdwarf_binding_set_return_address(dwexpr_libdwarf_binding *b,
                                                         uint32_t frame, bool is_return_address)
{
    if (!b || frame >= LD_MAX_FRAMES)
        return DWEXPR_E_USAGE;
    if (frame >= b->nret) {
        size_t n = (size_t)frame + 16;
        int8_t *nr = realloc(b->ret_addr, n);
        if (!nr)
            return DWEXPR_E_NOMEM;
        memset(nr + b->nret, -1, n - b->nret);
        b->ret_addr = nr;
        b->nret = n;
    }
    if (b->ret_addr[frame] != (is_return_address ? 1 : 0))
        memo_forget(b);
    b->ret_addr[frame] = is_return_address ? 1 : 0;
    return DWEXPR_OK;
}

void dwexpr_libdwarf_binding_set_entry_policy(dwexpr_libdwarf_binding *b,
                                              dwexpr_libdwarf_entry_policy p)
{
    if (b && b->policy != p) {
        memo_forget(b);
        b->policy = p;
    }
}

void dwexpr_libdwarf_binding_set_peers(dwexpr_libdwarf_binding *b, dwexpr_libdwarf_peer_fn fn,
                                       void *user)
{
    if (b) {
        memo_forget(b);
        b->peer = fn;
        b->peer_user = user;
    }
}

void dwexpr_libdwarf_binding_keep_entry_values(dwexpr_libdwarf_binding *b, bool keep)
{
    if (b) {
        memo_forget(b);
        b->keep = keep;
    }
}

void dwexpr_libdwarf_binding_forget(dwexpr_libdwarf_binding *b)
{
    if (b)
        memo_forget(b);
}

const char *dwexpr_libdwarf_binding_message(const dwexpr_libdwarf_binding *b)
{
    return b ? b->msg : "";
}
