/* test/test_api.c: the C API around an evaluation: the trace hook and
 * stack inspection, interruption, reuse of one program across contexts,
 * and bound evaluation (dwexpr_ctx_bind). */
#include <stddef.h>
#include <stdlib.h>
#include "dwexpr.h"
#include "tap.h"
#include "same_result.h"
#include "build_facts.h"

/* Everything build() allocated, released at the end. */
static void *owned[32];
static dwexpr_program *progs[32];
static int nowned;

/* Assemble TEXT for a generic64 unit and decode it. */
static dwexpr_program *build(const char *text)
{
    static const dwexpr_unit unit = {.addr_size = 8, .offset_size = 4, .version = 5};
    uint8_t bytes[256];
    size_t len = 0;
    dwexpr_error err;
    dwexpr_program *prog = NULL;
    if (dwexpr_asm(text, &unit, NULL, bytes, sizeof bytes, &len, &err) != DWEXPR_OK)
        return NULL;
    /* the program borrows block operands: keep the bytes alive */
    uint8_t *copy = malloc(len ? len : 1);
    memcpy(copy, bytes, len);
    owned[nowned] = copy;
    if (dwexpr_program_decode(copy, len, &unit, &prog, &err) != DWEXPR_OK)
        prog = NULL;
    progs[nowned++] = prog;
    return prog;
}

typedef struct trace_log {
    int steps;
    int stop_after;          /* interrupt when steps reaches this (0: never) */
    size_t depth_before[16]; /* stack depth seen before each step */
    uint32_t offsets[16];
    dwexpr_opid ids[16];
    uint64_t top_value[16];  /* top entry's value before each step, if any */
} trace_log;

static int on_step(void *arg, const dwexpr_ctx *ctx, const dwexpr_trace_event *ev)
{
    trace_log *log = arg;
    if (log->steps < 16) {
        log->depth_before[log->steps] = dwexpr_ctx_stack_depth(ctx);
        log->offsets[log->steps] = ev->offset;
        log->ids[log->steps] = ev->id;
        dwexpr_result top;
        log->top_value[log->steps] =
            dwexpr_ctx_stack_get(ctx, 0, &top) == DWEXPR_OK && top.kind == DWEXPR_RESULT_VALUE
                ? top.value.bits
                : UINT64_MAX;
    }
    log->steps++;
    return log->stop_after && log->steps >= log->stop_after;
}

/* A two-frame target for DW_OP_fbreg in a caller frame: register 6 of
 * frame 0 holds 0x1000; frame 1's register 6 was saved by frame 0 at
 * memory 0x2000, which holds 0x3000; the frame base is DW_OP_reg6. */
static dwexpr_status fb_reg_read(void *user, const dwexpr_regref *r, uint64_t off, void *buf,
                                 size_t len)
{
    (void)user;
    uint64_t v = 0x1000;
    if (r->frame != 0 || r->regno != 6 || off + len > 8)
        return DWEXPR_E_TARGET;
    memcpy(buf, (uint8_t *)&v + off, len);
    return DWEXPR_OK;
}
static dwexpr_status fb_reg_size(void *user, uint32_t regno, uint32_t *bytes)
{
    (void)user;
    (void)regno;
    *bytes = 8;
    return DWEXPR_OK;
}
static dwexpr_status fb_mem_read(void *user, const dwexpr_memref *m, void *buf, size_t len)
{
    (void)user;
    uint64_t v = 0x3000;
    if (m->address < 0x2000 || m->address + len > 0x2008)
        return DWEXPR_E_TARGET;
    memcpy(buf, (uint8_t *)&v + (m->address - 0x2000), len);
    return DWEXPR_OK;
}
static dwexpr_status fb_reg_location(void *user, const dwexpr_frameref *f, uint32_t regno,
                                     dwexpr_sld *out)
{
    (void)user;
    if (f->frame != 1 || regno != 6)
        return DWEXPR_E_NOT_FOUND;
    memset(out, 0, sizeof *out);
    out->kind = DWEXPR_LOC_MEMORY;
    out->byte_offset = 0x2000;
    return DWEXPR_OK;
}
static dwexpr_status fb_frame_base(void *user, const dwexpr_frameref *f, dwexpr_frame_base *out)
{
    (void)user;
    (void)f;
    static const uint8_t reg6[] = {0x56};   /* DW_OP_reg6 */
    memset(out, 0, sizeof *out);
    out->expr = reg6;
    out->expr_len = 1;
    return DWEXPR_OK;
}

/* A target for the bound API: register r holds 0x1000 + r; address
 * space 0 as BIND_SPACE0 says (per thread or not), its questions counted. */
static int aspace_asked, space0_per_thread;
static dwexpr_status b_reg_read(void *user, const dwexpr_regref *r, uint64_t off, void *buf,
                                size_t len)
{
    (void)user;
    uint64_t v = 0x1000 + r->regno;
    if (off + len > 8)
        return DWEXPR_E_TARGET;
    memcpy(buf, (uint8_t *)&v + off, len);
    return DWEXPR_OK;
}
static dwexpr_status b_aspace_info(void *user, uint32_t as, dwexpr_aspace_info *out)
{
    (void)user;
    aspace_asked++;
    if (as != 0)
        return DWEXPR_E_NOT_FOUND;
    out->addr_bits = 64;
    out->per_thread = space0_per_thread != 0;
    return DWEXPR_OK;
}

/* Register sizes for the binding's reg_size memory: register 4 has 4
 * bytes (REG4_BYTES), the others 8; every question counted. */
static int sizes_asked;
static uint32_t reg4_bytes = 4;
static dwexpr_status c_reg_size(void *user, uint32_t regno, uint32_t *bytes)
{
    (void)user;
    sizes_asked++;
    *bytes = regno == 4 ? reg4_bytes : regno == 40 ? 4 : 8;
    return DWEXPR_OK;
}

/* A bound evaluation of a register piece list (a folded result whose
 * register parts are guarded by reg_size) asks each register's size once
 * per binding, and a new binding asks again. */
static void test_bound_reg_size(void)
{
    dwexpr_ctx *ctx = NULL, *ref = NULL;
    dwexpr_ctx_new(NULL, &ctx);
    dwexpr_ctx_new(NULL, &ref);
    dwexpr_result res, want;
    dwexpr_program *two = build("DW_OP_reg0 DW_OP_piece 8 DW_OP_reg1 DW_OP_piece 8");
    dwexpr_program *r4 = build("DW_OP_reg4 DW_OP_piece 4 DW_OP_reg0 DW_OP_piece 8");
    const dwexpr_target t = {.size = sizeof t, .reg_read = b_reg_read, .reg_size = c_reg_size};

    reg4_bytes = 4;
    dwexpr_ctx_bind(ctx, &t, NULL, NULL);
    sizes_asked = 0;
    CHECK_U64(dwexpr_eval_bound(ctx, two, &res), DWEXPR_OK, "reg0 piece 8 reg1 piece 8, bound");
    CHECK_U64(sizes_asked, 2, "asks the size of registers 0 and 1");
    CHECK_U64(dwexpr_eval_bound(ctx, two, &res), DWEXPR_OK, "again");
    CHECK_U64(sizes_asked, 2, "and not again in the same binding");
    CHECK_U64(dwexpr_eval(ref, two, &t, NULL, NULL, &want), DWEXPR_OK, "unbound");
    CHECK_U64(same_result(&res, &want), 1, "the same composite (every field)");
    sizes_asked = 0;
    CHECK_U64(dwexpr_eval_bound(ctx, r4, &res), DWEXPR_OK, "reg4 piece 4 reg0 piece 8, bound");
    CHECK_U64(sizes_asked, 1, "asks only register 4's size (register 0's is known)");

    /* an 8-byte part in 4-byte register 4: the fold must not stand for it,
     * neither the first time nor once the binding knows the size (a fold's
     * register needs, lib/dwx.h DWX_REQ_REG8); nor for a register past 31 or
     * a part past 64 bits, which only the exact checks see */
    dwexpr_program *big4 = build("DW_OP_reg4 DW_OP_piece 8 DW_OP_reg0 DW_OP_piece 8");
    dwexpr_program *x40 = build("DW_OP_regx 40 DW_OP_piece 8");
    dwexpr_program *wide0 = build("DW_OP_reg0 DW_OP_piece 16");
    const dwexpr_program *bad[] = {big4, x40, wide0};
    const char *bad_name[] = {"reg4 piece 8 (4-byte register 4)",
                              "regx 40 piece 8 (4-byte register 40)",
                              "reg0 piece 16 (8-byte register 0)"};
    for (int i = 0; i < 3; i++) {
        for (int round = 0; round < 2; round++) {
            dwexpr_status sb = dwexpr_eval_bound(ctx, bad[i], &res);
            dwexpr_status su = dwexpr_eval(ref, bad[i], &t, NULL, NULL, &want);
            TAP_OK(sb == DWEXPR_E_PIECE_RANGE && su == sb,
                   "%s, bound, evaluation %d: the loop's error, as unbound (%s, %s)",
                   bad_name[i], round + 1, dwexpr_status_name(sb), dwexpr_status_name(su));
        }
    }

    /* register 4 shrinks to 2 bytes: a new binding must not use the old
     * answer (a 4-byte part no longer fits: the loop's error) */
    reg4_bytes = 2;
    dwexpr_ctx_bind(ctx, &t, NULL, NULL);
    dwexpr_status s1 = dwexpr_eval_bound(ctx, r4, &res);
    dwexpr_status s2 = dwexpr_eval(ref, r4, &t, NULL, NULL, &want);
    TAP_OK(s1 != DWEXPR_OK, "rebound, register 4 of 2 bytes: the 4-byte part fails (%s)",
           dwexpr_status_name(s1));
    CHECK_U64(s1, s2, "as unbound");
    CHECK_STR(dwexpr_ctx_error(ctx)->message, dwexpr_ctx_error(ref)->message,
              "with the same message");
    reg4_bytes = 4;
    dwexpr_ctx_free(ref);
    dwexpr_ctx_free(ctx);
}

/* A second register file for DWEXPR_TARGET_REG_SIZES_FIXED: register 0
 * of 4 bytes, the others 8, register 5 unknown (E_NOT_FOUND); every
 * question counted in sizes_asked too. */
static dwexpr_status d_reg_size(void *user, uint32_t regno, uint32_t *bytes)
{
    (void)user;
    sizes_asked++;
    if (regno == 5)
        return DWEXPR_E_NOT_FOUND;
    *bytes = regno == 0 ? 4 : 8;
    return DWEXPR_OK;
}

/* DWEXPR_TARGET_REG_SIZES_FIXED (include/dwexpr/target.h): a context asks
 * such a target each register's size once, across evaluations (decoded or
 * from the bytes), bindings and targets of the same reg_size function;
 * never remembers for a target without the flag, an older (shorter)
 * target struct or a failed answer; and a target with another reg_size
 * function gets its own answers. Results and errors are the unremembered
 * ones every time. */
static void test_fixed_reg_sizes(void)
{
    dwexpr_ctx *ctx = NULL, *ref = NULL;
    dwexpr_ctx_new(NULL, &ctx);
    dwexpr_ctx_new(NULL, &ref);
    dwexpr_result res, want;
    static const dwexpr_unit unit = {.addr_size = 8, .offset_size = 4, .version = 5};
    dwexpr_program *two = build("DW_OP_reg0 DW_OP_piece 8 DW_OP_reg1 DW_OP_piece 8");
    /* the same bytes, for dwexpr_eval_bytes (reg0 piece 8 reg1 piece 8) */
    static const uint8_t two_bytes[] = {0x50, 0x93, 0x08, 0x51, 0x93, 0x08};
    dwexpr_program *r5 = build("DW_OP_reg5 DW_OP_piece 8");
    const dwexpr_target plain = {.size = sizeof plain, .reg_read = b_reg_read,
                                 .reg_size = c_reg_size};
    dwexpr_target fixed = plain;
    fixed.flags = DWEXPR_TARGET_REG_SIZES_FIXED;
    dwexpr_target other = fixed; /* another register file: register 0 of 4 bytes */
    other.reg_size = d_reg_size;
    dwexpr_target old = fixed; /* a caller compiled before flags existed */
    old.size = offsetof(dwexpr_target, flags);

    CHECK_U64(dwexpr_eval(ref, two, &plain, NULL, NULL, &want), DWEXPR_OK, "reference");
    sizes_asked = 0;
    for (int i = 0; i < 3; i++) {
        CHECK_U64(dwexpr_eval(ctx, two, &plain, NULL, NULL, &res), DWEXPR_OK,
                  "no flag, evaluation %d", i + 1);
        CHECK_U64(same_result(&res, &want), 1, "no flag, evaluation %d: the composite", i + 1);
    }
    CHECK_U64(sizes_asked, 6, "no flag: both sizes asked in every evaluation");
    sizes_asked = 0;
    for (int i = 0; i < 3; i++) {
        CHECK_U64(dwexpr_eval(ctx, two, &old, NULL, NULL, &res), DWEXPR_OK,
                  "older struct with the flag's bits past its size, evaluation %d", i + 1);
        CHECK_U64(same_result(&res, &want), 1, "older struct, evaluation %d: the composite",
                  i + 1);
    }
    CHECK_U64(sizes_asked, 6, "older struct: its flags are not read, every evaluation asks");

    sizes_asked = 0;
    for (int i = 0; i < 3; i++) {
        CHECK_U64(dwexpr_eval(ctx, two, &fixed, NULL, NULL, &res), DWEXPR_OK,
                  "fixed sizes, decoded, evaluation %d", i + 1);
        CHECK_U64(same_result(&res, &want), 1, "fixed sizes, evaluation %d: the composite",
                  i + 1);
        CHECK_U64(dwexpr_eval_bytes(ctx, two_bytes, sizeof two_bytes, &unit, &fixed, NULL, NULL,
                                    &res),
                  DWEXPR_OK, "fixed sizes, from the bytes, evaluation %d", i + 1);
        CHECK_U64(same_result(&res, &want), 1, "from the bytes, evaluation %d: the composite",
                  i + 1);
    }
    CHECK_U64(sizes_asked, 2, "fixed sizes: registers 0 and 1 asked once, then remembered");
    dwexpr_ctx_bind(ctx, &fixed, NULL, NULL);
    CHECK_U64(dwexpr_eval_bound(ctx, two, &res), DWEXPR_OK, "bound to the same register file");
    CHECK_U64(same_result(&res, &want), 1, "bound: the composite");
    CHECK_U64(sizes_asked, 2, "a binding uses what the context remembers");

    /* another reg_size function: its own answers (register 0 of 4 bytes:
     * an 8-byte part does not fit), alternating with the first */
    dwexpr_status so = dwexpr_eval(ref, two, &other, NULL, NULL, &want);
    TAP_OK(so == DWEXPR_E_PIECE_RANGE, "other register file, reference: %s",
           dwexpr_status_name(so));
    for (int i = 0; i < 2; i++) {
        dwexpr_status sf = dwexpr_eval(ctx, two, &fixed, NULL, NULL, &res);
        dwexpr_status sx = dwexpr_eval(ctx, two, &other, NULL, NULL, &res);
        dwexpr_status sb = dwexpr_eval_bytes(ctx, two_bytes, sizeof two_bytes, &unit, &other, NULL,
                                             NULL, &res);
        TAP_OK(sf == DWEXPR_OK && sx == so && sb == so,
               "alternating register files, round %d: %s, then %s and %s from the bytes", i + 1,
               dwexpr_status_name(sf), dwexpr_status_name(sx), dwexpr_status_name(sb));
    }
    CHECK_STR(dwexpr_ctx_error(ctx)->message, dwexpr_ctx_error(ref)->message,
              "the other file's error message");

    /* a failed answer is not remembered: asked again every time */
    sizes_asked = 0;
    for (int i = 0; i < 3; i++) {
        dwexpr_status s5 = dwexpr_eval(ctx, r5, &other, NULL, NULL, &res);
        TAP_OK(s5 != DWEXPR_OK, "register 5 unknown to the target, evaluation %d: %s", i + 1,
               dwexpr_status_name(s5));
    }
    TAP_OK(sizes_asked >= 3, "the unknown register asked in every evaluation (%d questions)",
           sizes_asked);
    dwexpr_ctx_free(ref);
    dwexpr_ctx_free(ctx);
}

/* dwexpr_eval_bound_ref: dwexpr_eval_bound's status, error and result
 * (every field), the result where it lives: a fold's in the program (the
 * same address every time), any other in the context; NULL on failure. */
static void test_bound_ref(void)
{
    dwexpr_ctx *ctx = NULL, *ref = NULL;
    dwexpr_ctx_new(NULL, &ctx);
    dwexpr_ctx_new(NULL, &ref);
    const dwexpr_result *r = NULL, *again = NULL;
    dwexpr_result want;
    const dwexpr_target t = {.size = sizeof t, .reg_read = b_reg_read, .reg_size = c_reg_size};
    dwexpr_program *lit = build("DW_OP_lit7 DW_OP_stack_value");

    /* usage */
    r = lit ? (const dwexpr_result *)lit : NULL; /* anything but NULL */
    CHECK_U64(dwexpr_eval_bound_ref(NULL, lit, &r), DWEXPR_E_USAGE, "NULL context");
    TAP_OK(r == NULL, "and *out is NULL");
    CHECK_U64(dwexpr_eval_bound_ref(ctx, lit, NULL), DWEXPR_E_USAGE, "NULL out");
    TAP_OK(strstr(dwexpr_ctx_error(ctx)->message, "out") != NULL, "which the error says (%s)",
           dwexpr_ctx_error(ctx)->message);
    r = &want;
    CHECK_U64(dwexpr_eval_bound_ref(ctx, lit, &r), DWEXPR_E_USAGE, "a context never bound");
    TAP_OK(r == NULL && strstr(dwexpr_ctx_error(ctx)->message, "not bound") != NULL,
           "*out NULL, and the error says it is not bound");
    dwexpr_ctx_bind(ctx, &t, NULL, NULL);
    r = &want;
    CHECK_U64(dwexpr_eval_bound_ref(ctx, NULL, &r), DWEXPR_E_USAGE, "NULL program");
    TAP_OK(r == NULL && dwexpr_ctx_error(ctx)->status == DWEXPR_E_USAGE &&
               strstr(dwexpr_ctx_error(ctx)->message, "program") != NULL,
           "*out NULL, and the error record says so (%s)", dwexpr_ctx_error(ctx)->message);

    /* a fold, a guarded fold, a register piece too big for its register
     * (an error), the fast path from a decoded producer and over the
     * bytes, an operation only the general loop runs, a failure there */
    const char *text[] = {"DW_OP_lit7 DW_OP_stack_value",
                          "DW_OP_reg0 DW_OP_piece 8 DW_OP_reg1 DW_OP_piece 8",
                          "DW_OP_reg4 DW_OP_piece 8",
                          "DW_OP_breg3 16",
                          "DW_OP_breg3 16 DW_OP_breg2 0 DW_OP_plus DW_OP_stack_value",
                          "DW_OP_lit1 DW_OP_bra 1 DW_OP_nop DW_OP_breg5 2",
                          "DW_OP_lit0 DW_OP_lit0 DW_OP_div"};
    dwexpr_ctx_bind(ref, &t, NULL, NULL);
    dwexpr_program *tp[7];
    for (int i = 0; i < 7; i++) {
        dwexpr_program *prog = tp[i] = build(text[i]);
        /* twice: a guarded fold's first evaluation learns the register
         * sizes (the result then in the context), the second hands the
         * fold out */
        for (int round = 0; round < 2; round++) {
            const dwexpr_status s = dwexpr_eval_bound_ref(ctx, prog, round ? &again : &r);
            const dwexpr_result *got = round ? again : r;
            const dwexpr_status sw = dwexpr_eval_bound(ref, prog, &want);
            CHECK_U64(s, sw, "%s (evaluation %d): the status of dwexpr_eval_bound", text[i],
                      round + 1);
            if (s == DWEXPR_OK) {
                TAP_OK(got != NULL && same_result(got, &want), "and its result, every field");
            } else {
                TAP_OK(got == NULL, "*out NULL on failure");
                CHECK_STR(dwexpr_ctx_error(ctx)->message, dwexpr_ctx_error(ref)->message,
                          "the same error");
            }
        }
    }
    /* where the results live */
    dwexpr_eval_bound_ref(ctx, lit, &r);
    dwexpr_eval_bound_ref(ctx, tp[3], &again); /* DW_OP_breg3 16 */
    if (fast_path_built())
        TAP_OK(r != NULL && again != NULL && (const void *)r != (const void *)again,
               "a fold's result and another one are different places");
    else /* no fold without the fast path (build_facts.h): both in the context */
        TAP_OK(r != NULL && again != NULL, "no fold on this build: both evaluate");
    TAP_OK(again != NULL && again->loc.slds[0].byte_offset == 0x1013,
           "DW_OP_breg3 16: register 3 (0x1003) + 16");
    if (!fast_path_built()) /* valid until the next evaluation: evaluate it again */
        dwexpr_eval_bound_ref(ctx, lit, &r);
    TAP_OK(r != NULL && *r->loc.slds[0].u.imp.data == 7,
           fast_path_built() ? "and the fold's result is intact after it (7)"
                             : "and evaluated again, 7");
    dwexpr_ctx_free(ref);
    dwexpr_ctx_free(ctx);
}

/* dwexpr_ctx_bind, dwexpr_eval_bound, dwexpr_eval_bytes_bound. */
static void test_bound(void)
{
    static const dwexpr_unit unit = {.addr_size = 8, .offset_size = 4, .version = 5};
    dwexpr_ctx *ctx = NULL, *ref = NULL;
    dwexpr_ctx_new(NULL, &ctx);
    dwexpr_ctx_new(NULL, &ref);
    dwexpr_result res, want;
    dwexpr_program *reg = build("DW_OP_reg5");
    dwexpr_program *br = build("DW_OP_breg3 16");
    static const uint8_t reg_bytes[] = {0x55}, breg_bytes[] = {0x73, 0x10};

    /* usage: no context, a context never bound, NULL arguments */
    CHECK_U64(dwexpr_ctx_bind(NULL, NULL, NULL, NULL), DWEXPR_E_USAGE, "bind: NULL context");
    CHECK_U64(dwexpr_eval_bound(NULL, reg, &res), DWEXPR_E_USAGE, "eval_bound: NULL context");
    CHECK_U64(dwexpr_eval_bound(ctx, reg, &res), DWEXPR_E_USAGE,
              "eval_bound on a context never bound");
    TAP_OK(strstr(dwexpr_ctx_error(ctx)->message, "not bound") != NULL,
           "and the error says it is not bound (%s)", dwexpr_ctx_error(ctx)->message);
    CHECK_U64(dwexpr_eval_bytes_bound(ctx, reg_bytes, 1, &unit, &res), DWEXPR_E_USAGE,
              "eval_bytes_bound on a context never bound (DW_OP_reg5)");
    CHECK_U64(dwexpr_eval_bytes_bound(ctx, breg_bytes, 2, &unit, &res), DWEXPR_E_USAGE,
              "eval_bytes_bound on a context never bound (DW_OP_breg3)");
    CHECK_U64(dwexpr_ctx_bind(ctx, NULL, NULL, NULL), DWEXPR_OK, "bind: no target, no params");
    CHECK_U64(dwexpr_eval_bound(ctx, NULL, &res), DWEXPR_E_USAGE, "eval_bound: NULL program");
    CHECK_U64(dwexpr_eval_bound(ctx, reg, NULL), DWEXPR_E_USAGE, "eval_bound: NULL result");
    CHECK_U64(dwexpr_eval_bytes_bound(ctx, NULL, 1, &unit, &res), DWEXPR_E_USAGE,
              "eval_bytes_bound: NULL bytes");
    CHECK_U64(dwexpr_eval_bytes_bound(ctx, reg_bytes, 1, NULL, &res), DWEXPR_E_USAGE,
              "eval_bytes_bound: NULL unit");
    CHECK_U64(dwexpr_eval_bytes_bound(ctx, reg_bytes, 1, &unit, NULL), DWEXPR_E_USAGE,
              "eval_bytes_bound: NULL result");

    /* bound to no target: what dwexpr_eval gives without one */
    CHECK_U64(dwexpr_eval_bound(ctx, reg, &res), DWEXPR_OK, "bound, no target: DW_OP_reg5");
    CHECK_U64(res.loc.count == 1 && res.loc.slds[0].kind == DWEXPR_LOC_REGISTER &&
                  res.loc.slds[0].u.regno == 5, 1, "is register 5");
    CHECK_U64(dwexpr_eval_bound(ctx, br, &res), dwexpr_eval(ref, br, NULL, NULL, NULL, &want),
              "bound, no target: DW_OP_breg3 fails as dwexpr_eval does");
    CHECK_U64(same_error(dwexpr_ctx_error(ctx), dwexpr_ctx_error(ref)), 1,
              "with the same error record (%s)", dwexpr_ctx_error(ctx)->message);

    /* the parameters are copied at bind time: changing the caller's
     * struct afterwards changes nothing until the next bind */
    dwexpr_target t = {.size = sizeof t, .reg_read = b_reg_read};
    dwexpr_eval_params p = {.ctx = DWEXPR_CTX_THREAD, .thread = 7};
    dwexpr_ctx_bind(ctx, &t, NULL, &p);
    p.thread = 9;
    CHECK_U64(dwexpr_eval_bound(ctx, reg, &res), DWEXPR_OK, "bound to thread 7: DW_OP_reg5");
    CHECK_U64(res.loc.slds[0].thread, 7, "the place is thread 7's (the bound copy)");
    CHECK_U64(dwexpr_eval_bytes_bound(ctx, reg_bytes, 1, &unit, &res), DWEXPR_OK,
              "from the bytes too");
    CHECK_U64(res.loc.slds[0].thread, 7, "thread 7's from the bytes too");
    dwexpr_ctx_bind(ctx, &t, NULL, &p);
    CHECK_U64(dwexpr_eval_bound(ctx, reg, &res), DWEXPR_OK, "bound again to thread 9");
    CHECK_U64(res.loc.slds[0].thread, 9, "the place is thread 9's");
    p.ctx = 0;
    p.thread = 0;
    dwexpr_ctx_bind(ctx, &t, NULL, &p);
    CHECK_U64(dwexpr_eval_bound(ctx, br, &res), DWEXPR_OK, "bound: DW_OP_breg3 16");
    CHECK_U64(res.loc.slds[0].byte_offset, 0x1013, "is register 3 (0x1003) + 16");
    CHECK_U64(dwexpr_eval_bytes_bound(ctx, breg_bytes, 2, &unit, &res), DWEXPR_OK,
              "from the bytes");
    CHECK_U64(res.loc.slds[0].byte_offset, 0x1013, "the same address from the bytes");

    /* a shorter (older) target struct is zero-extended, as dwexpr_eval does */
    dwexpr_target old = t;
    old.size = offsetof(dwexpr_target, reg_read);
    dwexpr_ctx_bind(ctx, &old, NULL, NULL);
    CHECK_U64(dwexpr_eval_bound(ctx, br, &res), dwexpr_eval(ref, br, &old, NULL, NULL, &want),
              "a target struct that ends before reg_read: as dwexpr_eval");
    CHECK_U64(dwexpr_ctx_error(ctx)->status, DWEXPR_E_UNSUPPORTED,
              "register contents are not available (no reg_read)");

    /* a target struct that really ends there (on the heap: a read past it
     * is an error under AddressSanitizer), with folded results and the
     * lone register: nothing past its size is read, on every entry */
    {
        const size_t oldsize = offsetof(dwexpr_target, reg_read);
        dwexpr_target *shortt = malloc(oldsize);
        memcpy(shortt, &old, oldsize);
        dwexpr_program *lit = build("DW_OP_lit7 DW_OP_stack_value");
        CHECK_U64(dwexpr_eval(ref, lit, shortt, NULL, NULL, &want), DWEXPR_OK,
                  "a folded program on a target struct of %zu bytes", oldsize);
        CHECK_U64(*want.loc.slds[0].u.imp.data, 7, "is the implicit value 7");
        CHECK_U64(dwexpr_eval(ref, reg, shortt, NULL, NULL, &want), DWEXPR_OK,
                  "DW_OP_reg5 on it");
        CHECK_U64(dwexpr_eval_bytes(ref, reg_bytes, 1, &unit, shortt, NULL, NULL, &want),
                  DWEXPR_OK, "DW_OP_reg5 from the bytes on it");
        dwexpr_ctx_bind(ctx, shortt, NULL, NULL);
        CHECK_U64(dwexpr_eval_bound(ctx, lit, &res), DWEXPR_OK, "bound to it: the fold");
        CHECK_U64(*res.loc.slds[0].u.imp.data, 7, "the implicit value 7");
        free(shortt);
    }

    /* address space 0 is asked about once, at bind time, and its answer
     * decides as it does for dwexpr_eval: per thread sends a fold (and
     * the fast path) to the general path, with the same result */
    t.aspace_info = b_aspace_info;
    for (space0_per_thread = 0; space0_per_thread < 2; space0_per_thread++) {
        aspace_asked = 0;
        dwexpr_ctx_bind(ctx, &t, NULL, NULL);
        CHECK_U64(aspace_asked, 1, "bind asks aspace_info once (space 0 %s)",
                  space0_per_thread ? "per thread" : "plain");
        for (int i = 0; i < 3; i++) {
            dwexpr_eval_bound(ctx, reg, &res);
            dwexpr_eval_bytes_bound(ctx, breg_bytes, 2, &unit, &res);
        }
        if (!space0_per_thread && fast_path_built())
            CHECK_U64(aspace_asked, 1, "and plain space 0 is not asked about again");
        else /* per thread, or no fast path on this build (build_facts.h) */
            TAP_OK(aspace_asked > 1, "and the general path asks as it needs (%d)", aspace_asked);
        dwexpr_status s1 = dwexpr_eval_bound(ctx, br, &res);
        dwexpr_status s2 = dwexpr_eval(ref, br, &t, NULL, NULL, &want);
        CHECK_U64(s1, s2, "DW_OP_breg3 16 bound and unbound: same status (%s)",
                  dwexpr_status_name(s2));
        if (s2 == DWEXPR_OK)
            CHECK_U64(same_result(&res, &want), 1, "and the same place (every field)");
        else
            CHECK_STR(dwexpr_ctx_error(ctx)->message, dwexpr_ctx_error(ref)->message,
                      "and the same message");
        CHECK_U64(s2, space0_per_thread ? DWEXPR_E_NO_CONTEXT : DWEXPR_OK,
                  "a per-thread space needs a thread; the plain one does not");
    }

    /* a static context built again in memory that held a bound one is not
     * bound (nothing of the old binding may be used) */
    {
        static _Alignas(16) unsigned char buf[65536];
        static const dwexpr_limits small = {.stack = 64};
        dwexpr_ctx *sc = NULL;
        CHECK_U64(dwexpr_ctx_init_static(buf, sizeof buf, &small, &sc), DWEXPR_OK,
                  "static context");
        const dwexpr_target plain = {.size = sizeof plain, .reg_read = b_reg_read};
        dwexpr_ctx_bind(sc, &plain, NULL, NULL);
        CHECK_U64(dwexpr_eval_bound(sc, br, &res), DWEXPR_OK, "bound static context: breg3");
        CHECK_U64(dwexpr_eval_bound(sc, reg, &res), DWEXPR_OK, "bound static context: reg5");
        CHECK_U64(dwexpr_ctx_init_static(buf, sizeof buf, &small, &sc), DWEXPR_OK,
                  "the same memory made a context again");
        CHECK_U64(dwexpr_eval_bound(sc, br, &res), DWEXPR_E_USAGE, "is not bound: breg3");
        CHECK_U64(dwexpr_eval_bound(sc, reg, &res), DWEXPR_E_USAGE, "is not bound: reg5");
        CHECK_U64(dwexpr_eval_bytes_bound(sc, reg_bytes, 1, &unit, &res), DWEXPR_E_USAGE,
                  "is not bound: reg5 from the bytes");
        CHECK_U64(dwexpr_eval_bytes_bound(sc, breg_bytes, 2, &unit, &res), DWEXPR_E_USAGE,
                  "is not bound: breg3 from the bytes");
    }
    dwexpr_ctx_free(ref);
    dwexpr_ctx_free(ctx);
}

/* dwexpr_result: an evaluation sets the kind and the member of that kind
 * only. Whatever the caller's struct held before (here 0xa5 bytes), the
 * member of the result's kind is right on every path that hands out a
 * location or a value: a fold (lone DW_OP_reg*, a register piece list),
 * the pre-decoded fast path (DW_OP_breg*), from the bytes (both), the
 * bound API, and a value (which is written whole). */
static void test_result_by_kind(dwexpr_ctx *ctx)
{
    static const dwexpr_eval_params params;
    static const dwexpr_unit unit = {.addr_size = 8, .offset_size = 4, .version = 5};
    dwexpr_target t;
    memset(&t, 0, sizeof t);
    t.size = sizeof t;
    t.reg_read = b_reg_read;
    static const struct {
        const char *text;
        uint8_t bytes[8];
        size_t len;
        int kind; /* 0 register 3, 1 memory 0x1007 + 16, 2 composite, 3 value 5 */
    } cases[] = {
        {"DW_OP_reg3", {0x53}, 1, 0},
        {"DW_OP_breg7 16", {0x77, 0x10}, 2, 1},
        {"DW_OP_reg3 DW_OP_piece 8 DW_OP_reg4 DW_OP_piece 8", {0x53, 0x93, 8, 0x54, 0x93, 8}, 6,
         2},
        {"DW_OP_lit5", {0x35}, 1, 3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dwexpr_program *p = build(cases[i].text);
        for (int path = 0; path < 3; path++) {
            dwexpr_result r;
            memset(&r, 0xa5, sizeof r);
            dwexpr_status st;
            if (path == 0) {
                st = dwexpr_eval(ctx, p, &t, NULL, &params, &r);
            } else if (path == 1) {
                st = dwexpr_eval_bytes(ctx, cases[i].bytes, cases[i].len, &unit, &t, NULL,
                                       &params, &r);
            } else {
                dwexpr_ctx_bind(ctx, &t, NULL, &params);
                st = dwexpr_eval_bound(ctx, p, &r);
            }
            static const char *const how[] = {"pre-decoded", "from the bytes", "bound"};
            bool good = st == DWEXPR_OK;
            if (good && cases[i].kind == 3)
                good = r.kind == DWEXPR_RESULT_VALUE && r.value.bits == 5 &&
                       r.value.type.bits == 64 && !r.value.wide && !r.value.is_implicit_pointer;
            else if (good)
                good = r.kind == DWEXPR_RESULT_LOCATION && r.loc.count == 1;
            if (good && cases[i].kind == 0)
                good = r.loc.slds[0].kind == DWEXPR_LOC_REGISTER && r.loc.slds[0].u.regno == 3 &&
                       r.loc.slds[0].byte_offset == 0 && r.loc.slds[0].bit == 0;
            else if (good && cases[i].kind == 1)
                good = r.loc.slds[0].kind == DWEXPR_LOC_MEMORY &&
                       r.loc.slds[0].byte_offset == 0x1007 + 16 && r.loc.slds[0].aspace == 0;
            else if (good && cases[i].kind == 2)
                good = r.loc.slds[0].kind == DWEXPR_LOC_COMPOSITE &&
                       r.loc.slds[0].u.comp->count == 2 &&
                       r.loc.slds[0].u.comp->parts[1].loc.slds[0].u.regno == 4;
            TAP_OK(good, "%s, %s: right by its kind over a 0xa5-filled result", cases[i].text,
                   how[path]);
        }
    }
}

int main(void)
{
    dwexpr_ctx *ctx = NULL;
    dwexpr_ctx_new(NULL, &ctx);
    dwexpr_result res;

    /* The hook sees every operation, in order, with the stack before it. */
    dwexpr_program *p = build("DW_OP_lit1 DW_OP_const1u 200 DW_OP_plus");
    TAP_OK(p != NULL, "program builds");
    trace_log log;
    memset(&log, 0, sizeof log);
    dwexpr_eval_params params;
    memset(&params, 0, sizeof params);
    params.trace = on_step;
    params.trace_arg = &log;
    dwexpr_status st = dwexpr_eval(ctx, p, NULL, NULL, &params, &res);
    CHECK_U64(st, DWEXPR_OK, "traced evaluation succeeds");
    CHECK_U64(res.value.bits, 201, "and gives 1 + 200");
    CHECK_U64(log.steps, 3, "one trace event per operation");
    CHECK_U64(log.offsets[0], 0, "first event at offset 0");
    CHECK_U64(log.offsets[1], 1, "second at offset 1");
    CHECK_U64(log.offsets[2], 3, "third at offset 3 (after the 1-byte operand)");
    CHECK_U64(log.ids[2], DWEXPR_OP_plus, "third is DW_OP_plus");
    CHECK_U64(log.depth_before[0], 0, "stack empty before the first operation");
    CHECK_U64(log.depth_before[2], 2, "two entries before DW_OP_plus");
    CHECK_U64(log.top_value[2], 200, "top entry before DW_OP_plus is 200");

    /* Returning non-zero stops the evaluation: class limit, E_INTERRUPTED. */
    dwexpr_program *loop = build("DW_OP_skip -3");
    memset(&log, 0, sizeof log);
    log.stop_after = 10;
    st = dwexpr_eval(ctx, loop, NULL, NULL, &params, &res);
    CHECK_U64(st, DWEXPR_E_INTERRUPTED, "a trace hook can interrupt an endless loop");
    CHECK_U64(dwexpr_status_class(st), DWEXPR_CLASS_LIMIT, "interruption is class limit");
    CHECK_U64(log.steps, 10, "after exactly the steps it allowed");
    CHECK_U64(dwexpr_ctx_error(ctx)->offset, 0, "the error names the skip's offset");

    /* Nested evaluations report their depth. */
    dwexpr_program *ev = build("DW_OP_entry_value 2 0x3396 DW_OP_lit1 DW_OP_plus");
    memset(&log, 0, sizeof log);
    st = dwexpr_eval(ctx, ev, NULL, NULL, &params, &res);
    CHECK_U64(st, DWEXPR_OK, "entry value of a constant expression");
    CHECK_U64(res.value.bits, 4, "is the constant 3, plus one");
    CHECK_U64(log.steps, 5, "outer 3 operations and inner 2 are traced");

    /* Stack inspection bounds. */
    CHECK_U64(dwexpr_ctx_stack_get(ctx, 99, &res), DWEXPR_E_USAGE, "out-of-range entry is usage");
    CHECK_U64(dwexpr_ctx_stack_get(NULL, 0, &res), DWEXPR_E_USAGE, "NULL context is usage");

    /* One program, two contexts: identical results. */
    dwexpr_ctx *other = NULL;
    dwexpr_ctx_new(NULL, &other);
    dwexpr_result r1, r2;
    params.trace = NULL;
    dwexpr_eval(ctx, p, NULL, NULL, &params, &r1);
    dwexpr_eval(other, p, NULL, NULL, &params, &r2);
    CHECK_U64(r1.value.bits, r2.value.bits, "a program is shared between contexts");

    /* DW_OP_fbreg with a DW_OP_reg6 frame base (seed: a register frame
     * base acts as DW_OP_bregx 6 0): in frame 0 the register's contents,
     * in the caller frame the contents of its save slot, not the slot. */
    {
        const dwexpr_target fbt = {.size = sizeof fbt, .reg_size = fb_reg_size,
                                   .reg_read = fb_reg_read, .mem_read = fb_mem_read,
                                   .register_location = fb_reg_location,
                                   .frame_base = fb_frame_base};
        dwexpr_program *fb = build("DW_OP_fbreg 8");
        dwexpr_eval_params fp = {.result_kind = DWEXPR_RESULT_LOCATION};
        st = dwexpr_eval(ctx, fb, &fbt, NULL, &fp, &res);
        CHECK_U64(st, DWEXPR_OK, "fbreg, register frame base, frame 0");
        CHECK_U64(res.loc.slds[0].byte_offset, 0x1008, "frame 0: register 6 (0x1000) + 8");
        fp.frame = 1;
        fp.ctx = DWEXPR_CTX_FRAME;
        st = dwexpr_eval(ctx, fb, &fbt, NULL, &fp, &res);
        CHECK_U64(st, DWEXPR_OK, "fbreg, register frame base, caller frame");
        CHECK_U64(res.loc.count == 1 && res.loc.slds[0].kind == DWEXPR_LOC_MEMORY, 1,
                  "caller frame: a memory location");
        CHECK_U64(res.loc.slds[0].byte_offset, 0x3008,
                  "caller frame: the saved register 6 (0x3000 at 0x2000) + 8, not the slot");
    }

    test_bound();
    test_result_by_kind(ctx);
    test_bound_reg_size();
    test_fixed_reg_sizes();
    test_bound_ref();

    dwexpr_ctx_free(other);
    dwexpr_ctx_free(ctx);
    for (int i = 0; i < nowned; i++) {
        dwexpr_program_free(progs[i]);
        free(owned[i]);
    }
    return TAP_DONE();
}
