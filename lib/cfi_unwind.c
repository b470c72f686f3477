/* lib/cfi_unwind.c: virtual unwinding (DWARF 5 6.4.4, seed "Call Frame
 * Information"): frames 1..N from frame-0 registers and memory, register
 * rules turned into location descriptions, and the dwexpr_target that
 * answers every frame of the call stack from CFI. */
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include "cfi_int.h"

/* Computation state of a cached answer. */
enum { C_NONE = 0, C_BUSY, C_DONE };

/* Where one register of one frame lives (cached once computed). */
typedef struct reg_cache {
    uint32_t regno;
    uint8_t state;
    dwexpr_status st;
    dwexpr_sld sld;
    dwexpr_ctx *ctx;               /* owns composite parts of sld */
    uint8_t *bytes;                /* owns implicit bytes of sld */
} reg_cache;

typedef struct uframe {
    uint64_t pc;
    bool has_row, signal, outermost;
    bool guessed;                  /* row from arch->no_cfi_row (guess_row) */
    dwexpr_cfi_row *row;
    const dwexpr_cfi *cfi;         /* whose FDE gave ROW (find_row) */
    uint8_t cfa_state;
    dwexpr_status cfa_st;
    dwexpr_sld cfa;
    reg_cache *regs;
    size_t nregs, cap;
} uframe;

struct dwexpr_unwinder {
    dwexpr_unwind_config cfg;
    dwexpr_target inner;
    void *iuser;
    const dwexpr_cfi **cfis;
    size_t ncfi;
    uframe *frames;                /* cfg.max_frames slots, never moved */
    uint32_t nframes;
    bool ended;                    /* no frame after nframes - 1 */
    dwexpr_status end_st;          /* DWEXPR_E_NOT_FOUND: the outermost frame was reached */
    dwexpr_error err;
    unsigned err_gen;              /* bumped whenever err is set */
};

/* Record a failure on UW and return S. */
static dwexpr_status uw_fail(dwexpr_unwinder *uw, dwexpr_status s, int64_t offset,
                             const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static dwexpr_status uw_fail(dwexpr_unwinder *uw, dwexpr_status s, int64_t offset,
                             const char *fmt, ...)
{
    uw->err.status = s;
    uw->err.offset = offset;
    uw->err.opcode = -1;
    uw->err.op_name = NULL;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(uw->err.message, sizeof uw->err.message, fmt, ap);
    va_end(ap);
    uw->err_gen++;
    return s;
}

/* Copy a library error into UW with a prefix. */
static dwexpr_status uw_take(dwexpr_unwinder *uw, dwexpr_status s, const dwexpr_error *e,
                             const char *prefix)
{
    dwexpr_error c = *e;
    uw->err = c;
    uw->err.status = s;
    /* prefix + message, cut to fit (memcpy: no format truncation games) */
    size_t pl = strlen(prefix), ml = strnlen(c.message, sizeof c.message);
    if (pl > sizeof uw->err.message - 1)
        pl = sizeof uw->err.message - 1;
    if (ml > sizeof uw->err.message - 1 - pl)
        ml = sizeof uw->err.message - 1 - pl;
    memcpy(uw->err.message, prefix, pl);
    memcpy(uw->err.message + pl, c.message, ml);
    uw->err.message[pl + ml] = 0;
    uw->err_gen++;
    return s;
}

static void free_frame(uframe *f)
{
    for (size_t i = 0; i < f->nregs; i++) {
        dwexpr_ctx_free(f->regs[i].ctx);
        free(f->regs[i].bytes);
    }
    free(f->regs);
    free(f->row);
    memset(f, 0, sizeof *f);
}

/* Forget every computed frame. */
static void reset(dwexpr_unwinder *uw)
{
    for (uint32_t i = 0; i < uw->nframes; i++)
        free_frame(&uw->frames[i]);
    uw->nframes = 0;
    uw->ended = false;
    uw->end_st = DWEXPR_OK;
}

dwexpr_status dwexpr_unwinder_new(const dwexpr_unwind_config *config, const dwexpr_target *inner,
                                  void *inner_user, dwexpr_unwinder **out)
{
    if (!config || !inner || !out)
        return DWEXPR_E_USAGE;
    *out = NULL;
    dwexpr_unwinder *uw = calloc(1, sizeof *uw);
    if (!uw)
        return DWEXPR_E_NOMEM;
    size_t n = config->size < sizeof uw->cfg ? config->size : sizeof uw->cfg;
    memcpy(&uw->cfg, config, n);
    uw->cfg.size = sizeof uw->cfg;
    uw->cfg.unit = dwx_unit_normalize(&uw->cfg.unit);
    if (!uw->cfg.max_frames)
        uw->cfg.max_frames = 1024;
    n = inner->size < sizeof uw->inner ? inner->size : sizeof uw->inner;
    memcpy(&uw->inner, inner, n);
    uw->inner.size = sizeof uw->inner;
    uw->iuser = inner_user;
    uw->frames = calloc(uw->cfg.max_frames, sizeof *uw->frames);
    if (!uw->frames) {
        free(uw);
        return DWEXPR_E_NOMEM;
    }
    uw->err.offset = -1;
    uw->err.opcode = -1;
    *out = uw;
    return DWEXPR_OK;
}

void dwexpr_unwinder_free(dwexpr_unwinder *uw)
{
    if (!uw)
        return;
    reset(uw);
    free(uw->frames);
    free(uw->cfis);
    free(uw);
}

dwexpr_status dwexpr_unwinder_add_cfi(dwexpr_unwinder *uw, const dwexpr_cfi *cfi)
{
    if (!uw || !cfi)
        return DWEXPR_E_USAGE;
    const dwexpr_cfi **n = realloc(uw->cfis, (uw->ncfi + 1) * sizeof *n);
    if (!n)
        return DWEXPR_E_NOMEM;
    n[uw->ncfi++] = cfi;
    uw->cfis = n;
    reset(uw);
    return DWEXPR_OK;
}

const dwexpr_error *dwexpr_unwinder_error(const dwexpr_unwinder *uw)
{
    return &uw->err;
}

/* ---- reading through locations ---- */

/* Read NBYTES (<= 8) little/big-endian bytes through LOC into *V. */
static dwexpr_status read_word(dwexpr_unwinder *uw, const dwexpr_sld *s, unsigned nbytes,
                               uint64_t *v)
{
    dwexpr_ctx *ctx;
    dwexpr_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.stack = 16;
    if (dwexpr_ctx_new(&lim, &ctx))
        return DWEXPR_E_NOMEM;
    uint8_t buf[8] = {0};
    dwexpr_loc loc = {1, s};
    dwexpr_status st = dwexpr_loc_read(ctx, dwexpr_unwinder_target(), uw, &loc, 8u * nbytes, buf,
                                       NULL);
    if (st) {
        uw_take(uw, st, dwexpr_ctx_error(ctx), "");
        dwexpr_ctx_free(ctx);
        return st;
    }
    dwexpr_ctx_free(ctx);
    uint64_t x = 0;
    for (unsigned i = 0; i < nbytes; i++) {
        unsigned k = uw->cfg.unit.big_endian ? i : nbytes - 1 - i;
        x = (x << 8) | buf[k];
    }
    *v = x;
    return DWEXPR_OK;
}

/* ---- rows ---- */

/* Find the row of frame I at LOOKUP (DWARF 5 6.4.4: callers use the
 * address of the call, pc - 1, unless the callee is a signal frame). */
static dwexpr_status find_row(dwexpr_unwinder *uw, uint32_t i, uint64_t lookup)
{
    uframe *f = &uw->frames[i];
    f->has_row = false;
    for (size_t k = 0; k < uw->ncfi; k++) {
        dwexpr_cfi_fde fde;
        dwexpr_cfi_cie cie;
        dwexpr_error e;
        memset(&e, 0, sizeof e);
        dwexpr_status s = dwexpr_cfi_find_fde(uw->cfis[k], lookup, &fde, &cie, &e);
        if (s == DWEXPR_E_NOT_FOUND)
            continue;
        if (s)
            return uw_take(uw, s, &e, "CFI lookup: ");
        if (!f->row && !(f->row = malloc(sizeof *f->row)))
            return DWEXPR_E_NOMEM;
        if ((s = dwexpr_cfi_run(uw->cfis[k], &cie, &fde, lookup, f->row, &e)))
            return uw_take(uw, s, &e, "CFI: ");
        f->has_row = true;
        f->cfi = uw->cfis[k];
        f->signal = f->row->signal_frame;
        return DWEXPR_OK;
    }
    return DWEXPR_OK;
}

/* ---- expressions ---- */

/* Evaluate a CFI expression E (seed "Call Frame Instructions") in frame
 * FRAME: INIT (may be NULL) is the initial stack (the CFA), KIND the result
 * kind. On success *CTX owns the result. */
static dwexpr_status eval_cfi(dwexpr_unwinder *uw, uint32_t frame, const uint8_t *e, size_t len,
                              uint64_t eoff, const dwexpr_sld *init, dwexpr_result_kind kind,
                              dwexpr_result *res, dwexpr_ctx **ctxp)
{
    dwexpr_error derr;
    dwexpr_program *prog;
    *ctxp = NULL;
    dwexpr_status s = dwexpr_program_decode(e, len, &uw->cfg.unit, &prog, &derr);
    if (s) {
        char pre[64];
        snprintf(pre, sizeof pre, "CFI expression at 0x%llx: ", (unsigned long long)eoff);
        return uw_take(uw, s, &derr, pre);
    }
    for (size_t i = 0; i < dwexpr_program_count(prog); i++) {
        dwexpr_op view;
        const dwexpr_op *op = dwexpr_program_op(prog, i, &view);
        if (!dwexpr_cfi_op_allowed(op->id)) {
            const dwexpr_opinfo *oi = dwexpr_op_info(op->id);
            int64_t at = (int64_t)op->offset;
            dwexpr_program_free(prog);
            s = uw_fail(uw, DWEXPR_E_ILL_FORMED, at,
                        "CFI expression at 0x%llx: %s is not allowed in call frame "
                        "information (seed \"Call Frame Instructions\")",
                        (unsigned long long)eoff, oi ? oi->name : "?");
            uw->err.op_name = oi ? oi->name : NULL;
            return s;
        }
    }
    dwexpr_ctx *ctx;
    dwexpr_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.stack = 256;
    lim.steps = 100000;
    lim.arena_bytes = (size_t)1 << 20;
    if ((s = dwexpr_ctx_new(&lim, &ctx))) {
        dwexpr_program_free(prog);
        return s;
    }
    dwexpr_eval_params p;
    memset(&p, 0, sizeof p);
    p.result_kind = kind;
    p.ctx = (uint16_t)(uw->cfg.ctx | DWEXPR_CTX_FRAME);
    p.thread = uw->cfg.thread;
    p.frame = frame;
    p.has_pc = true;
    p.pc = uw->frames[frame].pc;
    dwexpr_loc iloc;
    dwexpr_value ival;
    memset(&ival, 0, sizeof ival);
    if (init) {
        iloc.count = 1;
        iloc.slds = init;
        p.initial_locs = &iloc;
        p.initial_values = &ival;
        p.initial_count = 1;
    }
    unsigned gen = uw->err_gen;
    s = dwexpr_eval(ctx, prog, dwexpr_unwinder_target(), uw, &p, res);
    dwexpr_program_free(prog);
    if (s) {
        /* keep a deeper cause (a circular dependency) found by our callbacks */
        if (uw->err_gen == gen || uw->err.status != s) {
            char pre[64];
            snprintf(pre, sizeof pre, "CFI expression at 0x%llx: ", (unsigned long long)eoff);
            uw_take(uw, s, dwexpr_ctx_error(ctx), pre);
        }
        dwexpr_ctx_free(ctx);
        return s;
    }
    *ctxp = ctx;
    return DWEXPR_OK;
}

/* The one memory location a CFA must be (seed "DW_CFA_def_cfa_expression":
 * ill-formed unless a memory byte address location description). */
static dwexpr_status check_cfa(dwexpr_unwinder *uw, uint32_t i, const dwexpr_result *r)
{
    if (r->kind != DWEXPR_RESULT_LOCATION || r->loc.count != 1 ||
        r->loc.slds[0].kind != DWEXPR_LOC_MEMORY || r->loc.slds[0].bit != 0)
        return uw_fail(uw, DWEXPR_E_ILL_FORMED, -1,
                       "the CFA of frame %u is not a memory byte address location description",
                       (unsigned)i);
    return DWEXPR_OK;
}

/* Compute the CFA of frame I from its row (seed "CFA Definition
 * Instructions": DW_OP_constu AS; DW_OP_aspace_bregx R, B, or E). */
static dwexpr_status compute_cfa(dwexpr_unwinder *uw, uint32_t i)
{
    uframe *f = &uw->frames[i];
    if (f->cfa_state == C_DONE)
        return f->cfa_st;
    if (f->cfa_state == C_BUSY)
        return uw_fail(uw, DWEXPR_E_ILL_FORMED, -1,
                       "the CFA of frame %u depends on itself (circular "
                       "DW_OP_LLVM_call_frame_entry_reg dependency)",
                       (unsigned)i);
    if (!f->has_row)
        return uw_fail(uw, DWEXPR_E_NOT_FOUND, -1, "no call frame information for pc 0x%llx",
                       (unsigned long long)f->pc);
    const dwexpr_cfi_rule *r = &f->row->cfa;
    uint8_t buf[32];
    const uint8_t *e;
    size_t len;
    uint64_t eoff = f->row->fde_offset;
    if (r->kind == DWEXPR_CFI_CFA_REG_OFFSET) {
        size_t n = 0;
        if (r->aspace == 0) {
            buf[n++] = 0x92; /* DW_OP_bregx R, B */
        } else {
            buf[n++] = 0x10; /* DW_OP_constu AS */
            n += dwx_write_uleb(buf + n, r->aspace, 0);
            if (uw->cfg.unit.ext_encoding == DWEXPR_EXT_PROVISIONAL) {
                buf[n++] = 0xe8;
            } else {
                buf[n++] = DW_OP_LLVM_user;
                buf[n++] = 0x09; /* DW_OP_LLVM_aspace_bregx */
            }
        }
        n += dwx_write_uleb(buf + n, r->regno, 0);
        n += dwx_write_sleb(buf + n, r->offset, 0);
        e = buf;
        len = n;
    } else if (r->kind == DWEXPR_CFI_CFA_EXPRESSION) {
        e = r->expr;
        len = r->expr_len;
        eoff = r->expr_offset;
    } else {
        return uw_fail(uw, DWEXPR_E_ILL_FORMED, (int64_t)f->row->fde_offset,
                       "the row for pc 0x%llx has no CFA rule", (unsigned long long)f->pc);
    }
    f->cfa_state = C_BUSY;
    dwexpr_result res;
    dwexpr_ctx *ctx;
    dwexpr_status s = eval_cfi(uw, i, e, len, eoff, NULL, DWEXPR_RESULT_LOCATION, &res, &ctx);
    f = &uw->frames[i];
    if (!s) {
        s = check_cfa(uw, i, &res);
        if (!s)
            f->cfa = res.loc.slds[0];
        dwexpr_ctx_free(ctx);
    }
    f->cfa_state = C_DONE;
    f->cfa_st = s;
    return s;
}

/* ---- register locations ---- */

static reg_cache *cache_find(uframe *f, uint32_t regno)
{
    for (size_t k = 0; k < f->nregs; k++)
        if (f->regs[k].regno == regno)
            return &f->regs[k];
    return NULL;
}

static reg_cache *cache_add(uframe *f, uint32_t regno)
{
    if (f->nregs == f->cap) {
        size_t nc = f->cap ? f->cap * 2 : 16;
        reg_cache *n = realloc(f->regs, nc * sizeof *n);
        if (!n)
            return NULL;
        f->regs = n;
        f->cap = nc;
    }
    reg_cache *c = &f->regs[f->nregs++];
    memset(c, 0, sizeof *c);
    c->regno = regno;
    return c;
}

/* Size of REGNO in bytes (inner target, else the architecture), 0 if unknown. */
static uint32_t reg_bytes(dwexpr_unwinder *uw, uint32_t regno)
{
    uint32_t b = 0;
    if (uw->inner.reg_size && uw->inner.reg_size(uw->iuser, regno, &b) == DWEXPR_OK && b)
        return b;
    return dwexpr_arch_reg_size(uw->cfg.arch, regno);
}

/* An implicit location holding the NBYTES bytes of V (target order). */
static dwexpr_status implicit_bytes(const dwexpr_unwinder *uw, const uint8_t *src, uint32_t nbytes,
                                    dwexpr_sld *out, uint8_t **own)
{
    uint8_t *b = malloc(nbytes ? nbytes : 1);
    if (!b)
        return DWEXPR_E_NOMEM;
    memcpy(b, src, nbytes);
    memset(out, 0, sizeof *out);
    out->kind = DWEXPR_LOC_IMPLICIT;
    out->u.imp.data = b;
    out->u.imp.bits = 8ull * nbytes;
    *own = b;
    (void)uw;
    return DWEXPR_OK;
}

/* The integer V as NBYTES (<= 8) bytes in the unit's byte order. */
static void word_bytes(const dwexpr_unwinder *uw, uint64_t v, unsigned nbytes, uint8_t *out)
{
    for (unsigned k = 0; k < nbytes; k++) {
        uint8_t byte = (uint8_t)(k < 8 ? v >> (8 * k) : 0);
        out[uw->cfg.unit.big_endian ? nbytes - 1 - k : k] = byte;
    }
}

static dwexpr_status reg_loc(dwexpr_unwinder *uw, uint32_t i, uint32_t regno, dwexpr_sld *out);

/* Apply frame I-1's rule for REGNO to get its location in frame I (seed
 * "Structure of Call Frame Information", the register rules). */
static dwexpr_status apply_rule(dwexpr_unwinder *uw, uint32_t i, uint32_t regno, dwexpr_sld *out,
                                dwexpr_ctx **ctxp, uint8_t **own)
{
    uint32_t c = i - 1;
    dwexpr_cfi_rule r = dwexpr_cfi_row_rule(uw->frames[c].row, uw->cfg.arch, regno);
    dwexpr_status s;
    dwexpr_result res;
    memset(out, 0, sizeof *out);
    switch (r.kind) {
    case DWEXPR_CFI_UNDEFINED:
        /* "the undefined location description" */
        out->kind = DWEXPR_LOC_UNDEFINED;
        return DWEXPR_OK;
    case DWEXPR_CFI_SAME_VALUE:
        /* the location of the same register in the callee frame */
        return reg_loc(uw, c, regno, out);
    case DWEXPR_CFI_REGISTER: {
        /* "ill-formed if the size of this register does not match the size
         * of register R" */
        uint32_t a = reg_bytes(uw, regno), b = reg_bytes(uw, r.regno);
        if (a && b && a != b)
            return uw_fail(uw, DWEXPR_E_ILL_FORMED, -1,
                           "register(%u) rule for register %u: sizes %u and %u differ",
                           (unsigned)r.regno, (unsigned)regno, (unsigned)b, (unsigned)a);
        return reg_loc(uw, c, r.regno, out);
    }
    case DWEXPR_CFI_OFFSET:
    case DWEXPR_CFI_VAL_OFFSET: {
        /* DW_OP_LLVM_offset N on the CFA of the callee frame */
        if ((s = compute_cfa(uw, c)))
            return s;
        dwexpr_sld cfa = uw->frames[c].cfa;
        uint32_t abits = 8u * uw->cfg.unit.addr_size;
        dwexpr_aspace_info ai;
        if (cfa.aspace && uw->inner.aspace_info &&
            uw->inner.aspace_info(uw->iuser, cfa.aspace, &ai) == DWEXPR_OK && ai.addr_bits)
            abits = ai.addr_bits;
        uint64_t mask = abits >= 64 ? UINT64_MAX : (((uint64_t)1 << abits) - 1);
        uint64_t addr = (cfa.byte_offset + (uint64_t)r.offset) & mask;
        if (r.kind == DWEXPR_CFI_OFFSET) {
            *out = cfa;
            out->byte_offset = addr;
            return DWEXPR_OK;
        }
        /* val_offset: "ill-formed if the register size does not match the
         * size of an address in the address space of the current CFA" */
        uint32_t rb = reg_bytes(uw, regno);
        if (rb && rb * 8 != abits)
            return uw_fail(uw, DWEXPR_E_ILL_FORMED, -1,
                           "val_offset rule for register %u: register size %u bytes differs "
                           "from the CFA's %u-bit address",
                           (unsigned)regno, (unsigned)rb, (unsigned)abits);
        uint8_t bytes[8];
        word_bytes(uw, addr, abits / 8, bytes);
        return implicit_bytes(uw, bytes, abits / 8, out, own);
    }
    case DWEXPR_CFI_EXPRESSION:
    case DWEXPR_CFI_VAL_EXPRESSION: {
        /* E runs in the callee frame with its CFA on the initial stack */
        if ((s = compute_cfa(uw, c)))
            return s;
        dwexpr_sld cfa = uw->frames[c].cfa;
        bool val = r.kind == DWEXPR_CFI_VAL_EXPRESSION;
        dwexpr_ctx *ctx;
        if ((s = eval_cfi(uw, c, r.expr, r.expr_len, r.expr_offset, &cfa,
                          val ? DWEXPR_RESULT_VALUE : DWEXPR_RESULT_LOCATION, &res, &ctx)))
            return s;
        if (!val) {
            if (res.kind != DWEXPR_RESULT_LOCATION || res.loc.count < 1) {
                dwexpr_ctx_free(ctx);
                return uw_fail(uw, DWEXPR_E_ILL_FORMED, (int64_t)r.expr_offset,
                               "expression rule for register %u gives no location",
                               (unsigned)regno);
            }
            *out = res.loc.slds[0];
            *ctxp = ctx;
            return DWEXPR_OK;
        }
        /* "ill-formed if the resulting value type size does not match the
         * register size" */
        uint64_t vbits = (uint64_t)res.value.type.bits *
                         (res.value.type.lanes ? res.value.type.lanes : 1);
        uint32_t rb = reg_bytes(uw, regno);
        if (res.kind != DWEXPR_RESULT_VALUE || (rb && vbits != 8ull * rb) || vbits % 8 ||
            vbits > 8 * 64) {
            dwexpr_ctx_free(ctx);
            return uw_fail(uw, DWEXPR_E_ILL_FORMED, (int64_t)r.expr_offset,
                           "val_expression rule for register %u: a %llu-bit value for a "
                           "%u-byte register",
                           (unsigned)regno, (unsigned long long)vbits, (unsigned)rb);
        }
        uint8_t bytes[64];
        if (res.value.wide)
            memcpy(bytes, res.value.wide, (size_t)(vbits / 8));
        else
            word_bytes(uw, res.value.bits, (unsigned)(vbits / 8), bytes);
        dwexpr_ctx_free(ctx);
        return implicit_bytes(uw, bytes, (uint32_t)(vbits / 8), out, own);
    }
    default:
        return uw_fail(uw, DWEXPR_E_ILL_FORMED, -1, "register %u has no usable rule",
                       (unsigned)regno);
    }
}

/* Where REGNO of frame I lives; cached per frame. */
static dwexpr_status reg_loc(dwexpr_unwinder *uw, uint32_t i, uint32_t regno, dwexpr_sld *out)
{
    if (i == 0) {
        /* seed: "If the current frame is the top frame, ... one register
         * location description" */
        memset(out, 0, sizeof *out);
        out->kind = DWEXPR_LOC_REGISTER;
        out->u.regno = regno;
        out->thread = uw->cfg.thread;
        out->ctx = (uint16_t)((uw->cfg.ctx & DWEXPR_CTX_THREAD) | DWEXPR_CTX_FRAME);
        return DWEXPR_OK;
    }
    if (i >= uw->nframes || !uw->frames[i - 1].has_row)
        return uw_fail(uw, DWEXPR_E_NOT_FOUND, -1, "frame %u is not known", (unsigned)i);
    uframe *f = &uw->frames[i];
    reg_cache *c = cache_find(f, regno);
    if (c && c->state == C_DONE) {
        *out = c->sld;
        return c->st;
    }
    if (c && c->state == C_BUSY)
        /* seed "Call Frame Instructions": circular
         * DW_OP_LLVM_call_frame_entry_reg dependencies are not allowed;
         * "register(R)" cycles are ill-formed too */
        return uw_fail(uw, DWEXPR_E_ILL_FORMED, -1,
                       "circular dependency: the location of register %u in frame %u depends "
                       "on itself (DW_OP_LLVM_call_frame_entry_reg / register rules)",
                       (unsigned)regno, (unsigned)i);
    if (!c && !(c = cache_add(f, regno)))
        return DWEXPR_E_NOMEM;
    c->state = C_BUSY;
    dwexpr_sld s;
    dwexpr_ctx *ctx = NULL;
    uint8_t *own = NULL;
    dwexpr_status st = apply_rule(uw, i, regno, &s, &ctx, &own);
    c = cache_find(&uw->frames[i], regno); /* the array may have moved */
    c->state = C_DONE;
    c->st = st;
    c->sld = s;
    c->ctx = ctx;
    c->bytes = own;
    if (st) {
        /* keep the error sticky but let a later call retry nothing */
        memset(&c->sld, 0, sizeof c->sld);
    }
    *out = c->sld;
    return st;
}

dwexpr_status dwexpr_unwinder_register_location(dwexpr_unwinder *uw, uint32_t index,
                                                uint32_t regno, dwexpr_sld *out)
{
    if (!uw || !out)
        return DWEXPR_E_USAGE;
    /* no frame details: computing the CFA here could loop back to us */
    dwexpr_status s = dwexpr_unwinder_frame(uw, index, NULL);
    if (s)
        return s;
    return reg_loc(uw, index, regno, out);
}

/* ---- stepping ---- */

/* Make frame 0 from the inner target's pc. */
/* Whether an FDE of UW's CFI holds LOOKUP. */
static bool has_fde(const dwexpr_unwinder *uw, uint64_t lookup)
{
    for (size_t k = 0; k < uw->ncfi; k++) {
        dwexpr_cfi_fde fde;
        dwexpr_cfi_cie cie;
        dwexpr_error e;
        if (dwexpr_cfi_find_fde(uw->cfis[k], lookup, &fde, &cie, &e) == DWEXPR_OK)
            return true;
    }
    return false;
}

/* Frame 0 without an FDE: the architecture's guess (dwexpr_arch
 * no_cfi_row: the return address at the stack pointer), taken only when
 * the return address it reads is non-zero and lies in code that has CFI
 * (an FDE holds the call, one byte before it), so that a wrong guess
 * ends the stack at frame 0 as before rather than making up frames. */
static dwexpr_status guess_row(dwexpr_unwinder *uw)
{
    uframe *f = &uw->frames[0];
    const dwexpr_arch *arch = uw->cfg.arch;
    if (!arch || !arch->no_cfi_row)
        return DWEXPR_OK;
    if (!f->row && !(f->row = malloc(sizeof *f->row)))
        return DWEXPR_E_NOMEM;
    if (!arch->no_cfi_row(uw->cfg.unit.addr_size, f->row))
        return DWEXPR_OK;
    /* the guess holds for this pc only ([pc - 1, pc) at the top of the
     * address space, a row's end being exclusive) */
    f->row->pc_begin = f->pc == UINT64_MAX ? f->pc - 1 : f->pc;
    f->row->pc_end = f->row->pc_begin + 1;
    f->has_row = true;
    f->guessed = true;
    const dwexpr_error saved = uw->err;
    uint64_t ra = 0;
    /* the return address column's rule: saved at CFA + N */
    const dwexpr_cfi_rule r = dwexpr_cfi_row_rule(f->row, arch, (uint32_t)f->row->ra_column);
    bool ok = compute_cfa(uw, 0) == DWEXPR_OK && r.kind == DWEXPR_CFI_OFFSET;
    if (ok) {
        dwexpr_sld slot = f->cfa;
        slot.byte_offset += (uint64_t)r.offset;
        ok = read_word(uw, &slot, uw->cfg.unit.addr_size, &ra) == DWEXPR_OK && ra != 0 &&
             has_fde(uw, ra - 1);
    }
    if (!ok) {
        /* no guess: frame 0 stays without a row, its CFA unknown */
        f->has_row = false;
        f->guessed = false;
        f->cfa_state = C_NONE;
        f->cfa_st = DWEXPR_OK;
        memset(&f->cfa, 0, sizeof f->cfa);
        uw->err = saved;
    }
    return DWEXPR_OK;
}

static dwexpr_status first_frame(dwexpr_unwinder *uw)
{
    uframe *f = &uw->frames[0];
    memset(f, 0, sizeof *f);
    uint64_t pc = 0;
    dwexpr_status s = DWEXPR_E_UNSUPPORTED;
    if (uw->inner.frame_pc) {
        dwexpr_frameref fr = {uw->cfg.thread, 0, 0, (uint16_t)(uw->cfg.ctx | DWEXPR_CTX_FRAME)};
        s = uw->inner.frame_pc(uw->iuser, &fr, &pc);
    }
    if (s) {
        uw->nframes = 1;
        dwexpr_sld r;
        reg_loc(uw, 0, uw->cfg.pc_regno, &r);
        s = read_word(uw, &r, uw->cfg.unit.addr_size, &pc);
        if (s) {
            uw->nframes = 0;
            return s;
        }
    }
    f->pc = pc;
    uw->nframes = 1;
    if ((s = find_row(uw, 0, pc)) || f->has_row)
        return s;
    return guess_row(uw);
}

/* Make frame I+1 from frame I (DWARF 5 6.4.4 "Call Frame Calling
 * Address"): the return address column gives its pc. Sets uw->ended. */
static dwexpr_status step(dwexpr_unwinder *uw, uint32_t i)
{
    uframe *f = &uw->frames[i];
    if (!f->has_row) {
        f->outermost = true;
        uw->ended = true;
        uw->end_st = DWEXPR_E_NOT_FOUND;
        return DWEXPR_E_NOT_FOUND;
    }
    dwexpr_cfi_rule ra = dwexpr_cfi_row_rule(f->row, uw->cfg.arch, (uint32_t)f->row->ra_column);
    if (ra.kind == DWEXPR_CFI_UNDEFINED) {
        /* "If the return address register's rule is undefined ... the
         * virtual unwind of stack activations is complete" (6.4.4) */
        f->outermost = true;
        uw->ended = true;
        uw->end_st = DWEXPR_E_NOT_FOUND;
        return DWEXPR_E_NOT_FOUND;
    }
    if (i + 1 >= uw->cfg.max_frames) {
        uw->ended = true;
        uw->end_st = uw_fail(uw, DWEXPR_E_STEPS, -1, "more than %u frames",
                             (unsigned)uw->cfg.max_frames);
        return uw->end_st;
    }
    uframe *n = &uw->frames[i + 1];
    memset(n, 0, sizeof *n);
    uw->nframes = i + 2; /* the slot exists while its registers are computed */
    dwexpr_sld loc;
    uint64_t pc = 0;
    dwexpr_status s = reg_loc(uw, i + 1, (uint32_t)f->row->ra_column, &loc);
    if (!s && loc.kind == DWEXPR_LOC_UNDEFINED)
        s = DWEXPR_E_NOT_FOUND;
    else if (!s)
        s = read_word(uw, &loc, uw->cfg.unit.addr_size, &pc);
    if (!s && pc == 0)
        s = DWEXPR_E_NOT_FOUND; /* a zero return address ends the stack */
    if (s) {
        free_frame(&uw->frames[i + 1]);
        uw->nframes = i + 1;
        uw->frames[i].outermost = s == DWEXPR_E_NOT_FOUND;
        uw->ended = true;
        uw->end_st = s;
        return s;
    }
    n = &uw->frames[i + 1];
    n->pc = pc;
    /* the caller's row holds the call, one byte before the return
     * address, unless the callee was interrupted (a signal frame) */
    s = find_row(uw, i + 1, uw->frames[i].signal ? pc : pc - 1);
    if (s) {
        uw->ended = true;
        uw->end_st = s;
        return s;
    }
    /* a frame that repeats its callee's pc and CFA would loop forever */
    if (uw->frames[i + 1].has_row && pc == uw->frames[i].pc && !compute_cfa(uw, i) &&
        !compute_cfa(uw, i + 1) &&
        uw->frames[i + 1].cfa.byte_offset == uw->frames[i].cfa.byte_offset) {
        uw->ended = true;
        uw->end_st = uw_fail(uw, DWEXPR_E_EVALUATION, -1,
                             "frame %u repeats frame %u (pc 0x%llx): unwinding stops",
                             (unsigned)(i + 1), (unsigned)i, (unsigned long long)pc);
        free_frame(&uw->frames[i + 1]);
        uw->nframes = i + 1;
        return uw->end_st;
    }
    return DWEXPR_OK;
}

dwexpr_status dwexpr_unwinder_frame(dwexpr_unwinder *uw, uint32_t index, dwexpr_unwind_frame *out)
{
    if (!uw)
        return DWEXPR_E_USAGE;
    dwexpr_status s;
    if (uw->nframes == 0 && !uw->ended) {
        if ((s = first_frame(uw))) {
            uw->ended = true;
            uw->end_st = s;
            free_frame(&uw->frames[0]); /* its row may be allocated already */
            uw->nframes = 0;
        }
    }
    while (uw->nframes <= index && !uw->ended)
        step(uw, uw->nframes - 1);
    if (index >= uw->nframes)
        return uw->end_st ? uw->end_st : DWEXPR_E_NOT_FOUND;
    if (out) {
        uframe *f = &uw->frames[index];
        memset(out, 0, sizeof *out);
        out->index = index;
        out->pc = f->pc;
        out->has_row = f->has_row && !f->guessed;
        out->guessed = f->guessed;
        out->fde_begin = out->has_row ? f->row->fde_begin : 0;
        out->cfi = out->has_row ? f->cfi : NULL;
        out->signal_frame = f->signal;
        if (f->has_row && compute_cfa(uw, index) == DWEXPR_OK) {
            out->has_cfa = true;
            out->cfa = uw->frames[index].cfa;
        }
        /* outermost: known only once the next step was tried */
        if (index + 1 >= uw->nframes && !uw->ended)
            step(uw, index);
        out->outermost = index + 1 >= uw->nframes && uw->ended;
    }
    return DWEXPR_OK;
}

dwexpr_status dwexpr_unwinder_row(dwexpr_unwinder *uw, uint32_t index, const dwexpr_cfi_row **out)
{
    dwexpr_status s = dwexpr_unwinder_frame(uw, index, NULL);
    if (s)
        return s;
    if (!uw->frames[index].has_row)
        return DWEXPR_E_NOT_FOUND;
    *out = uw->frames[index].row;
    return DWEXPR_OK;
}

/* ---- the unwinding target ---- */

static dwexpr_status t_reg_size(void *user, uint32_t regno, uint32_t *bytes)
{
    dwexpr_unwinder *uw = user;
    uint32_t b = reg_bytes(uw, regno);
    if (!b)
        return DWEXPR_E_NOT_FOUND;
    *bytes = b;
    return DWEXPR_OK;
}

/* Move LEN bytes at OFFSET of register R of a frame > 0 through its
 * location. */
static dwexpr_status deep_reg(dwexpr_unwinder *uw, const dwexpr_regref *r, uint64_t offset,
                              void *buf, const void *wbuf, size_t len)
{
    dwexpr_sld s;
    dwexpr_status st = dwexpr_unwinder_register_location(uw, r->frame, r->regno, &s);
    if (st)
        return st;
    dwexpr_ctx *ctx;
    dwexpr_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.stack = 16;
    if (dwexpr_ctx_new(&lim, &ctx))
        return DWEXPR_E_NOMEM;
    if (s.kind != DWEXPR_LOC_UNDEFINED) {
        /* byte and bit offsets stay apart: byte_offset * 8 can overflow
         * for high memory addresses */
        if (offset > UINT64_MAX - s.byte_offset) {
            dwexpr_ctx_free(ctx);
            return DWEXPR_E_OUT_OF_RANGE;
        }
        s.byte_offset += offset;
    }
    dwexpr_loc loc = {1, &s};
    st = wbuf ? dwexpr_loc_write(ctx, dwexpr_unwinder_target(), uw, &loc, 8ull * len, wbuf)
              : dwexpr_loc_read(ctx, dwexpr_unwinder_target(), uw, &loc, 8ull * len, buf, NULL);
    if (st)
        uw_take(uw, st, dwexpr_ctx_error(ctx), "");
    dwexpr_ctx_free(ctx);
    return st;
}

static dwexpr_status t_reg_read(void *user, const dwexpr_regref *r, uint64_t offset, void *buf,
                                size_t len)
{
    dwexpr_unwinder *uw = user;
    if (r->frame == 0)
        return uw->inner.reg_read ? uw->inner.reg_read(uw->iuser, r, offset, buf, len)
                                  : DWEXPR_E_UNSUPPORTED;
    return deep_reg(uw, r, offset, buf, NULL, len);
}

static dwexpr_status t_reg_write(void *user, const dwexpr_regref *r, uint64_t offset,
                                 const void *buf, size_t len)
{
    dwexpr_unwinder *uw = user;
    if (r->frame == 0)
        return uw->inner.reg_write ? uw->inner.reg_write(uw->iuser, r, offset, buf, len)
                                   : DWEXPR_E_UNSUPPORTED;
    return deep_reg(uw, r, offset, NULL, buf, len);
}

static dwexpr_status t_mem_read(void *user, const dwexpr_memref *m, void *buf, size_t len)
{
    dwexpr_unwinder *uw = user;
    return uw->inner.mem_read ? uw->inner.mem_read(uw->iuser, m, buf, len) : DWEXPR_E_UNSUPPORTED;
}

static dwexpr_status t_mem_write(void *user, const dwexpr_memref *m, const void *buf, size_t len)
{
    dwexpr_unwinder *uw = user;
    return uw->inner.mem_write ? uw->inner.mem_write(uw->iuser, m, buf, len)
                               : DWEXPR_E_UNSUPPORTED;
}

static dwexpr_status t_aspace_info(void *user, uint32_t as, dwexpr_aspace_info *out)
{
    dwexpr_unwinder *uw = user;
    if (uw->inner.aspace_info)
        return uw->inner.aspace_info(uw->iuser, as, out);
    if (as != 0)
        return DWEXPR_E_NOT_FOUND;
    memset(out, 0, sizeof *out);
    out->addr_bits = (uint8_t)(8 * uw->cfg.unit.addr_size);
    return DWEXPR_OK;
}

static dwexpr_status t_tls(void *user, const dwexpr_frameref *f, uint64_t ta, dwexpr_sld *out)
{
    dwexpr_unwinder *uw = user;
    return uw->inner.tls_address ? uw->inner.tls_address(uw->iuser, f, ta, out)
                                 : DWEXPR_E_UNSUPPORTED;
}

static dwexpr_status t_cfa(void *user, const dwexpr_frameref *f, dwexpr_sld *out)
{
    dwexpr_unwinder *uw = user;
    dwexpr_status s = dwexpr_unwinder_frame(uw, f->frame, NULL);
    if (s)
        return s == DWEXPR_E_NOT_FOUND ? DWEXPR_E_NOT_FOUND : s;
    if ((s = compute_cfa(uw, f->frame)))
        return s;
    *out = uw->frames[f->frame].cfa;
    return DWEXPR_OK;
}

static dwexpr_status t_register_location(void *user, const dwexpr_frameref *f, uint32_t regno,
                                         dwexpr_sld *out)
{
    return dwexpr_unwinder_register_location(user, f->frame, regno, out);
}

static dwexpr_status t_entry_value(void *user, const dwexpr_frameref *f, const uint8_t *block,
                                   size_t len, dwexpr_value *out)
{
    dwexpr_unwinder *uw = user;
    /* the inner target may know better (call-site values); else dwexpr
     * evaluates the block in the caller frame through our locations */
    if (uw->inner.entry_value)
        return uw->inner.entry_value(uw->iuser, f, block, len, out);
    return DWEXPR_E_NOT_FOUND;
}

static dwexpr_status t_base_type(void *user, const dwexpr_unit *unit, uint64_t die,
                                 dwexpr_type *out)
{
    dwexpr_unwinder *uw = user;
    return uw->inner.base_type ? uw->inner.base_type(uw->iuser, unit, die, out)
                               : DWEXPR_E_UNSUPPORTED;
}

static dwexpr_status t_die(void *user, const dwexpr_unit *unit, uint64_t off, bool sr,
                           dwexpr_die *out)
{
    dwexpr_unwinder *uw = user;
    return uw->inner.die ? uw->inner.die(uw->iuser, unit, off, sr, out) : DWEXPR_E_UNSUPPORTED;
}

static dwexpr_status t_debug_addr(void *user, const dwexpr_unit *unit, uint64_t index,
                                  uint64_t *out)
{
    dwexpr_unwinder *uw = user;
    return uw->inner.debug_addr ? uw->inner.debug_addr(uw->iuser, unit, index, out)
                                : DWEXPR_E_UNSUPPORTED;
}

static dwexpr_status t_frame_base(void *user, const dwexpr_frameref *f, dwexpr_frame_base *out)
{
    dwexpr_unwinder *uw = user;
    return uw->inner.frame_base ? uw->inner.frame_base(uw->iuser, f, out) : DWEXPR_E_UNSUPPORTED;
}

static dwexpr_status t_frame_pc(void *user, const dwexpr_frameref *f, uint64_t *pc)
{
    dwexpr_unwinder *uw = user;
    dwexpr_status s = dwexpr_unwinder_frame(uw, f->frame, NULL);
    if (s)
        return s;
    *pc = uw->frames[f->frame].pc;
    return DWEXPR_OK;
}

static dwexpr_status t_parameter_ref(void *user, const dwexpr_frameref *f, const dwexpr_unit *unit,
                                     uint64_t die, dwexpr_value *out)
{
    dwexpr_unwinder *uw = user;
    return uw->inner.parameter_ref ? uw->inner.parameter_ref(uw->iuser, f, unit, die, out)
                                   : DWEXPR_E_UNSUPPORTED;
}

static const dwexpr_target unwind_target = {
    .size = sizeof(dwexpr_target),
    .reg_size = t_reg_size,
    .reg_read = t_reg_read,
    .reg_write = t_reg_write,
    .mem_read = t_mem_read,
    .mem_write = t_mem_write,
    .aspace_info = t_aspace_info,
    .tls_address = t_tls,
    .cfa = t_cfa,
    .register_location = t_register_location,
    .entry_value = t_entry_value,
    .base_type = t_base_type,
    .die = t_die,
    .debug_addr = t_debug_addr,
    .frame_base = t_frame_base,
    .frame_pc = t_frame_pc,
    .parameter_ref = t_parameter_ref,
};

const dwexpr_target *dwexpr_unwinder_target(void)
{
    return &unwind_target;
}
