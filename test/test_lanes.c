/* test/test_lanes.c: dwexpr_eval_lanes, the batch form of dwexpr_eval for
 * the lanes of a wave: identical results to single-lane evaluations, the
 * execution mask, a lane range, per-lane errors, results that stay valid
 * for the whole batch, and usage errors. */
#include <stdlib.h>
#include "dwexpr.h"
#include "tap.h"

enum { LANES = 64, VGPR0 = 2560 };

static dwexpr_program *progs[8];
static uint8_t *owned[8];
static int nprogs;

/* Assemble TEXT for a generic64 unit and decode it (kept until the end). */
static dwexpr_program *build(const char *text)
{
    static const dwexpr_unit unit = {.addr_size = 8, .offset_size = 4, .version = 5};
    uint8_t bytes[256];
    size_t len = 0;
    dwexpr_error err;
    dwexpr_program *prog = NULL;
    if (dwexpr_asm(text, &unit, NULL, bytes, sizeof bytes, &len, &err) != DWEXPR_OK)
        return NULL;
    uint8_t *copy = malloc(len ? len : 1);
    memcpy(copy, bytes, len);
    if (dwexpr_program_decode(copy, len, &unit, &prog, &err) != DWEXPR_OK)
        prog = NULL;
    owned[nprogs] = copy;
    progs[nprogs++] = prog;
    return prog;
}

/* A wave64 target: VGPRs hold 64 lanes x 4 bytes, byte k of VGPR r is
 * (r + k) & 0xff; other registers are 8 bytes. */
static dwexpr_status t_reg_size(void *u, uint32_t r, uint32_t *bytes)
{
    (void)u;
    *bytes = r >= VGPR0 && r < VGPR0 + 256 ? 4 * LANES : 8;
    return DWEXPR_OK;
}

static dwexpr_status t_reg_read(void *u, const dwexpr_regref *r, uint64_t off, void *buf,
                                size_t len)
{
    (void)u;
    uint8_t *o = buf;
    for (size_t i = 0; i < len; i++)
        o[i] = (uint8_t)(r->regno + off + i);
    return DWEXPR_OK;
}

static const dwexpr_target target = {
    .size = sizeof(dwexpr_target), .reg_size = t_reg_size, .reg_read = t_reg_read};

/* A trace hook that lets every operation run (it turns shortcuts off). */
static int let_run(void *arg, const dwexpr_ctx *ctx, const dwexpr_trace_event *ev)
{
    (void)arg; (void)ctx; (void)ev;
    return 0;
}

/* Whether two results are the same (kind, value, first place). */
static int same(const dwexpr_result *a, const dwexpr_result *b)
{
    if (a->kind != b->kind)
        return 0;
    if (a->kind == DWEXPR_RESULT_VALUE)
        return a->value.bits == b->value.bits && a->value.type.bits == b->value.type.bits &&
               a->value.type.encoding == b->value.type.encoding;
    if (a->loc.count != b->loc.count)
        return 0;
    const dwexpr_sld *x = a->loc.slds, *y = b->loc.slds;
    if (x->kind != y->kind || x->byte_offset != y->byte_offset || x->bit != y->bit ||
        x->ctx != y->ctx || x->thread != y->thread || x->lane != y->lane)
        return 0;
    if (x->kind == DWEXPR_LOC_REGISTER)
        return x->u.regno == y->u.regno;
    if (x->kind == DWEXPR_LOC_IMPLICIT)
        return x->u.imp.bits == y->u.imp.bits &&
               memcmp(x->u.imp.data, y->u.imp.data, (size_t)(x->u.imp.bits + 7) / 8) == 0;
    return 1;
}

int main(void)
{
    dwexpr_ctx *ctx = NULL;
    dwexpr_ctx_new(NULL, &ctx);
    dwexpr_result res[LANES], one;
    dwexpr_status st[LANES];
    dwexpr_eval_params params;
    memset(&params, 0, sizeof params);
    params.ctx = DWEXPR_CTX_THREAD;
    params.thread = 7;
    params.lanes = LANES;

    /* The VGPR lane part (design note amdgpu-and-encodings.md). */
    dwexpr_program *part =
        build("DW_OP_regx 2560 DW_OP_LLVM_push_lane DW_OP_lit4 DW_OP_mul DW_OP_LLVM_offset");
    TAP_OK(part != NULL, "the per-lane location builds");
    dwexpr_status s = dwexpr_eval_lanes(ctx, part, &target, NULL, &params, 0, LANES,
                                        ~(uint64_t)0, res, st);
    CHECK_U64(s, DWEXPR_OK, "64 lanes evaluate");
    int good = 1;
    for (int i = 0; i < LANES; i++)
        good &= st[i] == DWEXPR_OK && res[i].kind == DWEXPR_RESULT_LOCATION &&
                res[i].loc.count == 1 && res[i].loc.slds[0].kind == DWEXPR_LOC_REGISTER &&
                res[i].loc.slds[0].u.regno == VGPR0 &&
                res[i].loc.slds[0].byte_offset == 4u * (unsigned)i &&
                res[i].loc.slds[0].thread == 7;
    TAP_OK(good, "lane i is VGPR0 at byte 4 * i, for the thread given");
    TAP_OK(res[0].loc.slds != res[1].loc.slds, "each lane has its own place");
    /* every lane's result stays valid for the whole batch: read them all now */
    good = 1;
    for (int i = 0; i < LANES; i++) {
        uint8_t b[4];
        good &= dwexpr_loc_read(ctx, &target, NULL, &res[i].loc, 32, b, NULL) == DWEXPR_OK &&
                b[0] == (uint8_t)(VGPR0 + 4 * i) && b[3] == (uint8_t)(VGPR0 + 4 * i + 3);
    }
    TAP_OK(good, "after the batch, every lane's location reads that lane's dword");
    /* identical to single-lane evaluations with the lane in the context */
    good = 1;
    for (int i = 0; i < LANES; i++) {
        dwexpr_result keep = res[i];
        dwexpr_sld place = res[i].loc.slds[0];
        keep.loc.slds = &place;
        dwexpr_eval_params p1 = params;
        p1.ctx |= DWEXPR_CTX_LANE;
        p1.lane = (uint32_t)i;
        good &= dwexpr_eval(ctx, part, &target, NULL, &p1, &one) == DWEXPR_OK &&
                same(&one, &keep);
        p1.trace = let_run; /* the general dispatch loop, no shortcut */
        good &= dwexpr_eval(ctx, part, &target, NULL, &p1, &one) == DWEXPR_OK &&
                same(&one, &keep);
        dwexpr_eval_lanes(ctx, part, &target, NULL, &params, 0, LANES, ~(uint64_t)0, res, st);
    }
    TAP_OK(good, "each lane equals dwexpr_eval with that lane, shortcut or general loop");

    /* The execution mask: lanes outside it are not evaluated. */
    s = dwexpr_eval_lanes(ctx, part, &target, NULL, &params, 0, 4, 0x5, res, st);
    CHECK_U64(s, DWEXPR_OK, "a masked batch succeeds");
    CHECK_U64(st[0], DWEXPR_OK, "lane 0 (in the mask) is evaluated");
    CHECK_U64(res[2].loc.slds[0].byte_offset, 8, "lane 2 (in the mask) is at byte 8");
    CHECK_U64(st[1], DWEXPR_E_NO_CONTEXT, "lane 1 (not in the mask) is not evaluated");
    CHECK_U64(res[1].kind, 0, "and its result is empty");
    CHECK_U64(st[3], DWEXPR_E_NO_CONTEXT, "lane 3 neither");
    s = dwexpr_eval_lanes(ctx, part, &target, NULL, &params, 0, 4, 0, res, st);
    CHECK_U64(s, DWEXPR_OK, "an empty mask evaluates nothing and succeeds");

    /* A lane range: bit i is lane LANE_FIRST + i. */
    s = dwexpr_eval_lanes(ctx, part, &target, NULL, &params, 32, 32, ~(uint64_t)0, res, st);
    CHECK_U64(s, DWEXPR_OK, "lanes 32..63");
    CHECK_U64(res[0].loc.slds[0].byte_offset, 128, "first result is lane 32 (byte 128)");
    CHECK_U64(res[31].loc.slds[0].byte_offset, 252, "last is lane 63 (byte 252)");

    /* lanes 56..71 with gaps in the mask: the VGPR's 256 bytes end at
     * lane 63, so the batch answers up to there and the lanes past it fail
     * (E_BAD_OFFSET), each as a single evaluation of that lane does */
    {
        const uint64_t mask = 0xbdfd; /* lanes 57, 65 and 70 not executed */
        dwexpr_ctx *ctx2 = NULL; /* the batch's results live in CTX */
        dwexpr_ctx_new(NULL, &ctx2);
        s = dwexpr_eval_lanes(ctx, part, &target, NULL, &params, 56, 16, mask, res, st);
        CHECK_U64(s, DWEXPR_E_BAD_OFFSET, "lanes 56..71: the first failure is reported");
        int same_as_single = 1;
        for (uint32_t i = 0; i < 16; i++) {
            dwexpr_status want = DWEXPR_E_NO_CONTEXT;
            dwexpr_result single;
            if ((mask >> i) & 1) {
                dwexpr_eval_params p1 = params;
                p1.ctx |= DWEXPR_CTX_LANE;
                p1.lane = 56 + i;
                want = dwexpr_eval(ctx2, part, &target, NULL, &p1, &single);
            }
            if (st[i] != want || (want == DWEXPR_OK && !same(&res[i], &single)) ||
                (want == DWEXPR_OK) != (56 + i <= 63 && ((mask >> i) & 1)))
                same_as_single = 0;
        }
        TAP_OK(same_as_single, "every lane 56..71 as its single evaluation (63 the last that fits)");
        dwexpr_ctx_free(ctx2);
    }

    /* Per-lane errors: 6 / (lane - 1) divides by zero in lane 1 only. */
    dwexpr_program *div = build("DW_OP_lit6 DW_OP_LLVM_push_lane DW_OP_lit1 DW_OP_minus "
                                "DW_OP_div DW_OP_stack_value");
    TAP_OK(div != NULL, "the division program builds");
    s = dwexpr_eval_lanes(ctx, div, &target, NULL, &params, 0, 4, 0xf, res, st);
    CHECK_U64(s, DWEXPR_E_DIV_ZERO, "the batch reports the failing lane's status");
    CHECK_U64(st[1], DWEXPR_E_DIV_ZERO, "lane 1 divides by zero");
    CHECK_U64(dwexpr_ctx_error(ctx)->status, DWEXPR_E_DIV_ZERO, "the context describes it");
    CHECK_U64(dwexpr_ctx_error(ctx)->offset, 5, "at DW_OP_div's offset");
    CHECK_U64(st[2], DWEXPR_OK, "lane 2 still succeeds");
    CHECK_U64(st[3], DWEXPR_OK, "lane 3 too");
    TAP_OK(res[2].kind == DWEXPR_RESULT_LOCATION && res[2].loc.slds[0].u.imp.data[0] == 6 &&
               res[3].loc.slds[0].u.imp.data[0] == 3,
           "lanes 2 and 3 keep their own implicit values (6 / 1, 6 / 2)");
    /* the first failing lane is the one described */
    dwexpr_program *two = build("DW_OP_LLVM_push_lane DW_OP_lit2 DW_OP_lt DW_OP_bra 2 "
                                "DW_OP_lit0 DW_OP_lit0 DW_OP_div");
    TAP_OK(two != NULL, "a program failing differently per lane builds");
    s = dwexpr_eval_lanes(ctx, two, &target, NULL, &params, 0, 3, 0x7, res, st);
    CHECK_U64(s, DWEXPR_E_STACK_EMPTY, "lane 0 fails first (one entry for DW_OP_div)");
    CHECK_U64(st[2], DWEXPR_E_DIV_ZERO, "lane 2 fails otherwise (0 / 0)");
    CHECK_U64(dwexpr_ctx_error(ctx)->status, DWEXPR_E_STACK_EMPTY,
              "the context describes the first failing lane");

    /* The lane is context the batch supplies; a single evaluation needs it. */
    dwexpr_program *lane = build("DW_OP_LLVM_push_lane DW_OP_stack_value");
    CHECK_U64(dwexpr_eval(ctx, lane, &target, NULL, &params, &one), DWEXPR_E_NO_CONTEXT,
              "DW_OP_LLVM_push_lane without a lane is a context error");
    s = dwexpr_eval_lanes(ctx, lane, &target, NULL, NULL, 5, 2, 0x3, res, st);
    CHECK_U64(s, DWEXPR_OK, "the batch gives each lane (NULL params)");
    CHECK_U64(res[1].loc.slds[0].u.imp.data[0], 6, "lane 5 + 1 pushes 6");

    /* Usage errors. */
    CHECK_U64(dwexpr_eval_lanes(ctx, part, &target, NULL, &params, 0, 65, ~(uint64_t)0, res, st),
              DWEXPR_E_USAGE, "more than 64 lanes is a usage error");
    CHECK_U64(dwexpr_eval_lanes(ctx, part, &target, NULL, &params, 0, 4, 0xf, NULL, st),
              DWEXPR_E_USAGE, "no result array is a usage error");
    CHECK_U64(dwexpr_eval_lanes(NULL, part, &target, NULL, &params, 0, 4, 0xf, res, st),
              DWEXPR_E_USAGE, "no context is a usage error");
    CHECK_U64(dwexpr_eval_lanes(ctx, NULL, &target, NULL, &params, 0, 4, 0xf, res, st),
              DWEXPR_E_USAGE, "no program is a usage error");

    /* A failing lane gives its scratch back: each lane pushes 500
     * implicit values (16 bytes of scratch each, 8,000 in all) and then
     * overflows a 500-entry stack; with 16 KiB of scratch a single
     * evaluation reaches the stack limit, and so does every lane of a
     * batch (without the rollback the third lane ran out of scratch). */
    {
        dwexpr_limits lim = {.stack = 500, .arena_bytes = 16384};
        dwexpr_ctx *small = NULL;
        CHECK_U64(dwexpr_ctx_new(&lim, &small), DWEXPR_OK, "a context with 16 KiB of scratch");
        static uint8_t code[1002];
        for (size_t i = 0; i < sizeof code; i += 2) {
            code[i] = 0x31;     /* DW_OP_lit1 */
            code[i + 1] = 0x9f; /* DW_OP_stack_value */
        }
        const dwexpr_unit unit = {.addr_size = 8, .offset_size = 4, .version = 5};
        dwexpr_program *deep = NULL;
        dwexpr_error err;
        CHECK_U64(dwexpr_program_decode(code, sizeof code, &unit, &deep, &err), DWEXPR_OK,
                  "501 implicit values decode");
        if (small && deep) {
            CHECK_U64(dwexpr_eval(small, deep, &target, NULL, &params, &one), DWEXPR_E_STACK_LIMIT,
                      "a single evaluation reaches the stack limit");
            CHECK_U64(dwexpr_eval_lanes(small, deep, &target, NULL, &params, 0, 4, 0xf, res, st),
                      DWEXPR_E_STACK_LIMIT, "the batch reports the first lane's stack limit");
            TAP_OK(st[0] == DWEXPR_E_STACK_LIMIT && st[1] == DWEXPR_E_STACK_LIMIT &&
                       st[2] == DWEXPR_E_STACK_LIMIT && st[3] == DWEXPR_E_STACK_LIMIT,
                   "every lane reaches the stack limit, none runs out of scratch (%s %s %s %s)",
                   dwexpr_status_name(st[0]), dwexpr_status_name(st[1]),
                   dwexpr_status_name(st[2]), dwexpr_status_name(st[3]));
        }
        dwexpr_program_free(deep);
        dwexpr_ctx_free(small);
    }

    dwexpr_ctx_free(ctx);
    for (int i = 0; i < nprogs; i++) {
        dwexpr_program_free(progs[i]);
        free(owned[i]);
    }
    return TAP_DONE();
}
