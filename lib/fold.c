/* lib/fold.c: results computed once, when dwexpr_program_decode decodes a
 * program that needs nothing from the target: literals, DW_OP_addr (the
 * unit's load bias is known), registers as locations, implicit pointers
 * (in the default space, whose address size the fold's conditions fix),
 * generic arithmetic, stack operations, DW_OP_stack_value and DW_OP_piece
 * lists. That is most
 * real location expressions (77% of ../shared/bench/corpus.txt), above all
 * a lone DW_OP_reg*. dwexpr_eval hands the folded result out when the
 * evaluation would compute exactly it:
 *  - the fast path's conditions (a current-size target whose default
 *    address space is the plain one, dwx_default_space_plain; the top
 *    frame, no initial stack, no trace, the result kind unspecified;
 *    lib/eval.c fast_ok), and no thread given (register places record
 *    the thread);
 *  - the context's limits admit the program (steps, stack entries and
 *    composite parts are each at most its operation count) and its scratch
 *    could hold what the general path allocates;
 *  - every register part fits its register by the target's reg_size (the
 *    range check of seed "Composite Location Description Operations", the
 *    one question the fold could not ask).
 * Otherwise dwexpr_eval evaluates as usual. The folded result was computed
 * by the fast path itself (lib/fast.c) with a target that answers nothing,
 * and is copied into storage the program owns. */
#include "evalops.h"

/* Whether PROG's operations ask the target nothing (a subset of what the
 * fast path runs). */
static bool target_free(const dwexpr_program *prog)
{
    for (size_t i = 0; i < prog->count; i++) {
        switch (prog->code[i].x) {
        case DWEXPR_OP_lit0: case DWEXPR_OP_reg0: case DWEXPR_OP_addr:
        case DWEXPR_OP_stack_value: case DWEXPR_OP_piece: case DWEXPR_OP_plus_uconst:
        case DWEXPR_OP_neg: case DWEXPR_OP_not: case DWEXPR_OP_abs: case DWEXPR_OP_dup:
        case DWEXPR_OP_over: case DWEXPR_OP_pick: case DWEXPR_OP_drop: case DWEXPR_OP_swap:
        case DWEXPR_OP_rot: case DWEXPR_OP_nop: case DWEXPR_OP_GNU_uninit:
        case DWEXPR_OP_and: case DWEXPR_OP_div:
        case DWEXPR_OP_minus: case DWEXPR_OP_mod: case DWEXPR_OP_mul: case DWEXPR_OP_or:
        case DWEXPR_OP_plus: case DWEXPR_OP_shl: case DWEXPR_OP_shr: case DWEXPR_OP_shra:
        case DWEXPR_OP_xor: case DWEXPR_OP_eq: case DWEXPR_OP_ge: case DWEXPR_OP_gt:
        case DWEXPR_OP_le: case DWEXPR_OP_lt: case DWEXPR_OP_ne:
        case DWEXPR_OP_implicit_pointer: /* the default space's address size */
        case DWEXPR_OP_skip: case DWEXPR_OP_bra:
            break;
        default:
            return false;
        }
    }
    return true;
}

/* Bytes of storage a place needs beyond the place itself. */
static size_t extra_of(const dwexpr_sld *s)
{
    return s->kind == DWEXPR_LOC_IMPLICIT ? (size_t)((s->u.imp.bits + 7) / 8 + 7) & ~(size_t)7
                                          : 0;
}

/* Copy place S into D, its implicit bytes to *BYTES. */
static void copy_place(dwexpr_sld *d, const dwexpr_sld *s, uint8_t **bytes)
{
    *d = *s;
    if (s->kind == DWEXPR_LOC_IMPLICIT) {
        size_t n = (size_t)((s->u.imp.bits + 7) / 8);
        memcpy(*bytes, s->u.imp.data, n);
        d->u.imp.data = *bytes;
        *bytes += (n + 7) & ~(size_t)7;
    }
}

/* See lib/dwx.h. */
bool dwx_foldable(const dwexpr_program *prog)
{
    return prog->fast && prog->count <= UINT32_MAX &&
           target_free(prog);
}

/* The head of a fold of PROG at MEM: its requirements, no guards yet
 * (the caller fills in the result and the guards). */
static dwx_folded *fold_head(uint8_t *mem, const dwexpr_program *prog)
{
    dwx_folded *f = (dwx_folded *)mem;
    f->nguards = 0;
    f->need = (uint32_t)prog->count;
    f->req = ((uint64_t)1 << prog->unit.addr_size) |
             (f->need <= DWX_FOLD_ROOM ? DWX_REQ_ROOM : DWX_REQ_EXACT);
    return f;
}

/* The fold of a lone DW_OP_reg0..31 or DW_OP_regx of a 32-bit register
 * number (most programs): what the fast path hands out for it (fast_loop's
 * op_reg / op_regx, then hand_out: the register of the top frame), built
 * in place without running anything. */
static void fold_register(dwexpr_program *prog, dwx_alloc_fn alloc, void *ud)
{
    static const dwexpr_eval_params params;
    uint8_t *mem = alloc(ud, sizeof(dwx_folded) + sizeof(dwexpr_sld));
    if (!mem)
        return;
    dwx_folded *f = fold_head(mem, prog);
    dwexpr_sld *place = (dwexpr_sld *)(mem + sizeof(dwx_folded));
    sld_register(place, (uint32_t)prog->code[0].a, &params);
    f->res.kind = DWEXPR_RESULT_LOCATION;
    dwx_value_clear(&f->res.value);
    f->res.loc.count = 1;
    f->res.loc.slds = place;
    f->kind = DWEXPR_RESULT_LOCATION;
    f->loc = f->res.loc;
    prog->fold = f;
}

/* See lib/dwx.h. */
void dwx_fold(dwexpr_program *prog, dwx_alloc_fn alloc, void *ud)
{
    prog->fold = NULL;
    if (prog->shape == DWX_SHAPE_REG) {
        fold_register(prog, alloc, ud);
        return;
    }
    static const dwexpr_eval_params params;
    dwexpr_result r;
    _Alignas(16) unsigned char scratch[8192];
    dwexpr_ctx *ctx = NULL;
    dwexpr_limits lim; /* what the fast path can use at most */
    memset(&lim, 0, sizeof lim);
    lim.stack = 16;
    lim.parts = 16;
    /* a context in a buffer here: no allocation; its scratch holds a
     * composite of 16 parts with their implicit bytes (the fast
     * path's most), else the fast path declines and there is no fold */
    if (dwexpr_ctx_init_static(scratch, sizeof scratch, &lim, &ctx) != DWEXPR_OK)
        return;
    static const dwexpr_target none = {.size = sizeof(dwexpr_target)};
    ctx->t = &none;
    ctx->user = NULL;
    ctx->p = &params;
    if (!dwx_fast_fold(ctx, prog, &r))
        return; /* an error: the evaluation reports it */
    /* the storage: the fold, the result's place, a composite's parts and
     * places, implicit bytes */
    const dwexpr_sld *top = r.kind == DWEXPR_RESULT_LOCATION ? &r.loc.slds[0] : NULL;
    const dwexpr_composite *c =
        top && top->kind == DWEXPR_LOC_COMPOSITE ? top->u.comp : NULL;
    uint32_t nparts = c ? c->count : 0, nguards = 0;
    /* every part the program made must be in the result, so that every
     * register part's range check becomes a guard */
    size_t npieces = 0;
    for (size_t i = 0; i < prog->count; i++)
        npieces += prog->code[i].x == DWEXPR_OP_piece;
    if (npieces != nparts)
        return;
    size_t size = sizeof(dwexpr_sld) + (top ? extra_of(top) : 0);
    if (c) {
        size += sizeof(dwexpr_composite) + nparts * (sizeof(dwexpr_part) + sizeof(dwexpr_sld));
        for (uint32_t i = 0; i < nparts; i++) {
            size += extra_of(c->parts[i].loc.slds);
            nguards += c->parts[i].loc.slds[0].kind == DWEXPR_LOC_REGISTER;
        }
        if (nguards > DWX_FOLD_GUARDS)
            return;
    }
    const size_t head = sizeof(dwx_folded) + nguards * sizeof(((dwx_folded *)0)->guard[0]);
    size += head;
    uint8_t *mem = alloc(ud, size);
    if (!mem)
        return;
    dwx_folded *f = fold_head(mem, prog);
    dwexpr_result *res = &f->res;
    *res = r;
    uint8_t *next = mem + head;
    if (top) {
        dwexpr_sld *place = (dwexpr_sld *)next;
        next += sizeof *place;
        if (c) {
            dwexpr_composite *nc = (dwexpr_composite *)next;
            next += sizeof *nc;
            dwexpr_part *parts = (dwexpr_part *)next;
            next += nparts * sizeof *parts;
            dwexpr_sld *slds = (dwexpr_sld *)next;
            next += nparts * sizeof *slds;
            *nc = *c;
            nc->parts = parts;
            for (uint32_t i = 0; i < nparts; i++) {
                const dwexpr_sld *s = c->parts[i].loc.slds;
                parts[i] = c->parts[i];
                parts[i].loc.slds = &slds[i];
                copy_place(&slds[i], s, &next);
                if (s->kind == DWEXPR_LOC_REGISTER) {
                    f->guard[f->nguards].regno = s->u.regno;
                    f->guard[f->nguards].bits = c->parts[i].bit_size;
                    f->nguards++;
                    f->req |= s->u.regno < 32 && c->parts[i].bit_size <= 64
                                  ? DWX_REQ_REG8(s->u.regno)
                                  : DWX_REQ_EXACT;
                }
            }
            *place = *top;
            place->u.comp = nc;
        } else {
            copy_place(place, top, &next);
        }
        res->loc.slds = place;
    }
    f->kind = res->kind;
    f->loc = f->kind == DWEXPR_RESULT_LOCATION ? res->loc : (dwexpr_loc){0};
    prog->fold = f;
}
