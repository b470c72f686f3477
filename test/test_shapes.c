/* test/test_shapes.c: the evaluator's shortcuts (program shapes decided at
 * decode time, the byte paths of dwexpr_eval_bytes) give exactly what the
 * general dispatch loop gives: the same status, the same error (class,
 * offset, operation, message) and the same result in every field, composite
 * parts included; for normal results, edge cases and each error they can
 * meet (range checks through reg_size, target failures, limits, address
 * space bounds, wanted result kinds, frames). */
#include <stdlib.h>
#include "dwexpr.h"
#include "tap.h"
#include "same_result.h"
#include "build_facts.h"

/* ---- a target whose answers the cases can vary ---- */
static int reg_size_fails;   /* reg_size answers E_TARGET */
static int frame_base_expr;  /* the frame base is DW_OP_breg7 16 */
static const uint8_t fb_expr[] = {0x77, 0x10};

static dwexpr_status t_reg_size(void *u, uint32_t r, uint32_t *bytes)
{
    (void)u;
    if (reg_size_fails)
        return DWEXPR_E_TARGET;
    if (r == 99)
        return DWEXPR_E_NOT_FOUND;
    *bytes = (r >= 17 && r <= 32) ? 16 : r == 40 ? 2 : r >= 2560 ? 256 : 8;
    return DWEXPR_OK;
}
static dwexpr_status t_reg_read(void *u, const dwexpr_regref *r, uint64_t off, void *buf,
                                size_t len)
{
    (void)u;
    uint8_t *o = buf;
    for (size_t i = 0; i < len; i++)
        o[i] = (uint8_t)(0x10 * r->regno + off + i + 1);
    return DWEXPR_OK;
}
static dwexpr_status t_frame_base(void *u, const dwexpr_frameref *f, dwexpr_frame_base *out)
{
    (void)u; (void)f;
    if (frame_base_expr) {
        out->expr = fb_expr;
        out->expr_len = sizeof fb_expr;
        return DWEXPR_OK;
    }
    out->loc.kind = DWEXPR_LOC_MEMORY;
    out->loc.byte_offset = 0x7fff0000u;
    return DWEXPR_OK;
}
static dwexpr_status t_entry_value(void *u, const dwexpr_frameref *f, const uint8_t *b,
                                   size_t len, dwexpr_value *out)
{
    (void)u; (void)f;
    out->bits = 0xe0000000u + ((uint64_t)len << 8) + (len ? b[0] : 0);
    return DWEXPR_OK;
}
static dwexpr_status t_cfa(void *u, const dwexpr_frameref *f, dwexpr_sld *out)
{
    (void)u; (void)f;
    out->kind = DWEXPR_LOC_MEMORY;
    out->byte_offset = 0x7fff0100u;
    return DWEXPR_OK;
}
static dwexpr_status t_debug_addr(void *u, const dwexpr_unit *unit, uint64_t i, uint64_t *out)
{
    (void)u; (void)unit;
    *out = 0x600000u + 8 * i;
    return DWEXPR_OK;
}
static dwexpr_status t_register_location(void *u, const dwexpr_frameref *f, uint32_t regno,
                                         dwexpr_sld *out)
{
    (void)u;
    out->kind = DWEXPR_LOC_MEMORY;
    out->byte_offset = 0x5000u + 0x100u * f->frame + 8u * regno;
    return DWEXPR_OK;
}

static const dwexpr_target target = {
    .size = sizeof(dwexpr_target), .reg_size = t_reg_size, .reg_read = t_reg_read,
    .frame_base = t_frame_base, .entry_value = t_entry_value, .cfa = t_cfa,
    .debug_addr = t_debug_addr, .register_location = t_register_location};

static int let_run(void *arg, const dwexpr_ctx *ctx, const dwexpr_trace_event *ev)
{
    (void)arg; (void)ctx; (void)ev;
    return 0;
}

/* One program three ways: pre-decoded (shortcuts on), from the bytes, and
 * through the general loop (a trace hook turns the shortcuts off). All
 * three must agree; returns the status and leaves the loop's result in
 * *OUT (its context in *CTXP, valid until the next call). */
static dwexpr_ctx *ctx_a, *ctx_b, *ctx_c;

static dwexpr_status three_ways_unit(const char *text, dwexpr_unit unit,
                                     const dwexpr_eval_params *pp, dwexpr_result *out)
{
    static uint8_t bytes[256];
    size_t len = 0;
    dwexpr_error err;
    if (dwexpr_asm(text, &unit, NULL, bytes, sizeof bytes, &len, &err) != DWEXPR_OK) {
        TAP_OK(0, "%s assembles: %s", text, err.message);
        return DWEXPR_E_USAGE;
    }
    dwexpr_program *prog = NULL;
    if (dwexpr_program_decode(bytes, len, &unit, &prog, &err) != DWEXPR_OK) {
        TAP_OK(0, "%s decodes: %s", text, err.message);
        return DWEXPR_E_USAGE;
    }
    dwexpr_eval_params p = pp ? *pp : (dwexpr_eval_params){0};
    dwexpr_eval_params traced = p;
    traced.trace = let_run;
    dwexpr_result ra, rb, rc;
    memset(&ra, 0x5a, sizeof ra);
    memset(&rb, 0x5a, sizeof rb);
    dwexpr_status sa = dwexpr_eval(ctx_a, prog, &target, NULL, &p, &ra);
    dwexpr_status sb = dwexpr_eval_bytes(ctx_b, bytes, len, &unit, &target, NULL, &p, &rb);
    dwexpr_status sc = dwexpr_eval(ctx_c, prog, &target, NULL, &traced, &rc);
    TAP_OK(sa == sc && sb == sc, "%s: the same status three ways (%d %d %d)", text, sa, sb, sc);
    if (sc == DWEXPR_OK)
        TAP_OK(same_result(&ra, &rc) && same_result(&rb, &rc),
               "%s: the same result pre-decoded, from the bytes and in the loop", text);
    else
        TAP_OK(same_error(dwexpr_ctx_error(ctx_a), dwexpr_ctx_error(ctx_c)) &&
                   same_error(dwexpr_ctx_error(ctx_b), dwexpr_ctx_error(ctx_c)),
               "%s: the same error three ways (%s)", text, dwexpr_ctx_error(ctx_c)->message);
    /* and bound (dwexpr_ctx_bind: its own shortcuts), on ctx_a once its
     * result has been compared */
    memset(&ra, 0x5a, sizeof ra);
    TAP_OK(dwexpr_ctx_bind(ctx_a, &target, NULL, &p) == DWEXPR_OK, "%s: bound", text);
    sa = dwexpr_eval_bound(ctx_a, prog, &ra);
    TAP_OK(sa == sc && (sc == DWEXPR_OK ? same_result(&ra, &rc)
                                        : same_error(dwexpr_ctx_error(ctx_a),
                                                     dwexpr_ctx_error(ctx_c))),
           "%s: bound, the same status (%d %d) and result or error", text, sa, sc);
    dwexpr_program_free(prog);
    *out = rc;
    return sc;
}

/* three_ways_unit for a DWARF 5, 32-bit unit of ADDR_SIZE-byte addresses. */
static dwexpr_status three_ways(const char *text, uint8_t addr_size, const dwexpr_eval_params *pp,
                                dwexpr_result *out)
{
    const dwexpr_unit unit = {.addr_size = addr_size, .offset_size = 4, .version = 5};
    return three_ways_unit(text, unit, pp, out);
}

/* The part I of a composite result. */
static const dwexpr_part *part(const dwexpr_result *r, uint32_t i);

/* DW_OP_implicit_pointer (seed "Implicit Location Description
 * Operations"), which the fast path and folds take: implicit pointer
 * storage of the default space's address size, its DIE reference
 * offset-sized (address-sized in DWARF 2), alone, as a part, too small
 * for a part, in the GNU spelling. */
static void test_implicit_pointer(void)
{
    dwexpr_result r;
    static const struct { uint8_t asz, osz; uint16_t ver; } units[] = {
        {8, 4, 5}, {4, 4, 5}, {8, 8, 5}, {4, 4, 2}, {2, 4, 4}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        const dwexpr_unit u = {.addr_size = units[i].asz, .offset_size = units[i].osz,
                               .version = units[i].ver};
        dwexpr_status st = three_ways_unit("DW_OP_implicit_pointer 0x1234 -8", u, NULL, &r);
        TAP_OK(st == DWEXPR_OK && r.kind == DWEXPR_RESULT_LOCATION && r.loc.count == 1 &&
                   r.loc.slds[0].kind == DWEXPR_LOC_IMPLICIT_POINTER &&
                   r.loc.slds[0].u.ptr.die == 0x1234 && r.loc.slds[0].u.ptr.disp == -8 &&
                   r.loc.slds[0].u.ptr.bits == 8u * units[i].asz && r.loc.slds[0].aspace == 0,
               "implicit pointer to DIE 0x1234 - 8, %u-byte addresses, DWARF %u%s: %u bits",
               units[i].asz, units[i].ver, units[i].osz == 8 ? " (64-bit)" : "",
               r.loc.count ? (unsigned)r.loc.slds[0].u.ptr.bits : 0);
    }
    CHECK_U64(three_ways("DW_OP_GNU_implicit_pointer 0x40 2", 8, NULL, &r), DWEXPR_OK,
              "the GNU spelling");
    TAP_OK(r.loc.count == 1 && r.loc.slds[0].u.ptr.die == 0x40 && r.loc.slds[0].u.ptr.disp == 2,
           "the same storage");
    CHECK_U64(three_ways("DW_OP_implicit_pointer 0x40 0 DW_OP_piece 8 DW_OP_reg3 DW_OP_piece 4",
                         8, NULL, &r), DWEXPR_OK, "an implicit pointer part and a register part");
    TAP_OK(part(&r, 0) && part(&r, 0)->bit_size == 64 &&
               part(&r, 0)->loc.slds[0].kind == DWEXPR_LOC_IMPLICIT_POINTER &&
               part(&r, 1) && part(&r, 1)->loc.slds[0].u.regno == 3,
           "its parts: the pointer's 64 bits, register 3");
    CHECK_U64(three_ways("DW_OP_implicit_pointer 0x40 0 DW_OP_piece 8", 4, NULL, &r),
              DWEXPR_E_PIECE_RANGE, "an 8-byte part of a 4-byte implicit pointer");
    CHECK_U64(three_ways("DW_OP_implicit_pointer 0x40 0 DW_OP_stack_value", 8, NULL, &r),
              three_ways("DW_OP_implicit_pointer 0x40 0 DW_OP_stack_value", 8, NULL, &r),
              "DW_OP_stack_value of one: the loop's answer, three ways");
    CHECK_U64(three_ways("DW_OP_implicit_pointer 0x40 0 DW_OP_implicit_pointer 0x50 0 "
                         "DW_OP_swap DW_OP_drop", 8, NULL, &r), DWEXPR_OK,
              "two of them, swapped, one dropped");
    TAP_OK(r.loc.count == 1 && r.loc.slds[0].u.ptr.die == 0x50, "leaves the second");
}

static dwexpr_status three_ways_limited(const dwexpr_limits *lim, const char *text,
                                        const dwexpr_eval_params *p);

/* DW_OP_implicit_value (seed "Implicit Location Description
 * Operations"), which the fast path takes up to 8 bytes (not folded: the
 * context's implicit_bytes limit decides): the bytes as implicit storage,
 * alone, as parts, empty, too small for a part, longer than 8 bytes (the
 * loop's), and over the limit (E_TOO_BIG). */
static void test_implicit_value(void)
{
    dwexpr_result r;
    CHECK_U64(three_ways("DW_OP_implicit_value 4 0x01020304", 8, NULL, &r), DWEXPR_OK,
              "a 4-byte implicit value");
    TAP_OK(r.loc.count == 1 && r.loc.slds[0].kind == DWEXPR_LOC_IMPLICIT &&
               r.loc.slds[0].u.imp.bits == 32 && r.loc.slds[0].u.imp.data[0] == 1 &&
               r.loc.slds[0].u.imp.data[3] == 4,
           "its 32 bits, in order");
    CHECK_U64(three_ways("DW_OP_implicit_value 8 0x0000000000805640 DW_OP_piece 8 "
                         "DW_OP_implicit_value 0 DW_OP_piece 0 DW_OP_reg3 DW_OP_piece 8",
                         8, NULL, &r), DWEXPR_OK, "as parts, an empty one among them");
    TAP_OK(part(&r, 0) && part(&r, 0)->loc.slds[0].u.imp.data[6] == 0x56 && part(&r, 1) &&
               part(&r, 1)->bit_size == 0 && part(&r, 2) && part(&r, 2)->loc.slds[0].u.regno == 3,
           "the 8 bytes, the empty part, register 3");
    CHECK_U64(three_ways("DW_OP_implicit_value 2 0x0102 DW_OP_piece 4", 8, NULL, &r),
              DWEXPR_E_PIECE_RANGE, "a 4-byte part of 2 bytes of storage");
    CHECK_U64(three_ways("DW_OP_implicit_value 9 0x010203040506070809", 8, NULL, &r),
              DWEXPR_OK, "9 bytes (the loop's)");
    TAP_OK(r.loc.count == 1 && r.loc.slds[0].u.imp.bits == 72, "72 bits");
    CHECK_U64(three_ways("DW_OP_implicit_value 8 0x0102030405060708 DW_OP_stack_value", 8,
                         NULL, &r),
              three_ways("DW_OP_implicit_value 8 0x0102030405060708 DW_OP_stack_value", 8,
                         NULL, &r),
              "DW_OP_stack_value of one: the loop's answer, three ways");
    const dwexpr_limits four = {.implicit_bytes = 4};
    CHECK_U64(three_ways_limited(&four, "DW_OP_implicit_value 8 0x0102030405060708", NULL),
              DWEXPR_E_TOO_BIG, "8 bytes over a 4-byte limit");
    CHECK_U64(three_ways_limited(&four, "DW_OP_implicit_value 4 0x01020304", NULL), DWEXPR_OK,
              "4 bytes within it");
    CHECK_U64(three_ways_limited(&four, "DW_OP_implicit_value 5 0x0102030405 DW_OP_piece 5",
                                 NULL), DWEXPR_E_TOO_BIG, "5 bytes as a part over it");
}

/* DW_OP_skip and DW_OP_bra (seed "Control Flow Operations"): forward ones
 * in a decoded program are the fast path's; backward ones and those in
 * bytes the loop's; the same results and errors every way. */
static void test_branches(void)
{
    dwexpr_result r;
    /* bra over lit1 and a skip when register 5 is not zero: 2, else 1 */
    CHECK_U64(three_ways("DW_OP_breg5 0 DW_OP_bra 4 DW_OP_lit1 DW_OP_skip 1 DW_OP_lit2 "
                         "DW_OP_stack_value", 8, NULL, &r), DWEXPR_OK, "bra taken");
    TAP_OK(r.loc.count == 1 && r.loc.slds[0].u.imp.data[0] == 2, "gives 2");
    CHECK_U64(three_ways("DW_OP_lit0 DW_OP_bra 4 DW_OP_lit1 DW_OP_skip 1 DW_OP_lit2 "
                         "DW_OP_stack_value", 8, NULL, &r), DWEXPR_OK, "bra not taken");
    TAP_OK(r.loc.count == 1 && r.loc.slds[0].u.imp.data[0] == 1, "gives 1");
    CHECK_U64(three_ways("DW_OP_lit3 DW_OP_lit1 DW_OP_minus DW_OP_dup DW_OP_bra -6 "
                         "DW_OP_stack_value", 8, NULL, &r), DWEXPR_OK, "a loop (backward bra)");
    TAP_OK(r.loc.count == 1 && r.loc.slds[0].u.imp.data[0] == 0, "counts down to 0");
    CHECK_U64(three_ways("DW_OP_skip 0 DW_OP_lit5 DW_OP_stack_value", 8, NULL, &r), DWEXPR_OK,
              "skip 0");
    CHECK_U64(three_ways("DW_OP_lit1 DW_OP_skip 1 DW_OP_lit2", 8, NULL, &r), DWEXPR_OK,
              "skip to the end");
    TAP_OK(r.kind == DWEXPR_RESULT_VALUE && r.value.bits == 1, "leaves lit1 (the value 1)");
    CHECK_U64(three_ways("DW_OP_bra 0", 8, NULL, &r), DWEXPR_E_STACK_EMPTY,
              "bra on an empty stack");
    CHECK_U64(three_ways("DW_OP_reg3 DW_OP_bra 1 DW_OP_lit7 DW_OP_lit9 DW_OP_stack_value", 8,
                         NULL, &r), DWEXPR_E_NOT_VALUE,
              "bra on a register location (not a value: ill-formed)");
    CHECK_U64(three_ways("DW_OP_implicit_pointer 0x40 0 DW_OP_bra 0", 8, NULL, &r),
              DWEXPR_E_NOT_VALUE, "bra on an implicit pointer location (not a value)");
    CHECK_U64(three_ways("DW_OP_addr 0x10 DW_OP_bra 1 DW_OP_lit7 DW_OP_lit9 DW_OP_stack_value",
                         8, NULL, &r), DWEXPR_OK, "bra on a memory location (its address)");
    TAP_OK(r.loc.count == 1 && r.loc.slds[0].u.imp.data[0] == 9, "taken: 9");
}

/* Raw BYTES from dwexpr_eval_bytes (its shortcuts on: the fast path)
 * and through the general loop (traced), on a DWARF 5 unit of 8-byte
 * addresses: the same status, and the same result or error record. */
static dwexpr_status bytes_two_ways(const uint8_t *bytes, size_t len, const char *what,
                                    dwexpr_result *out)
{
    const dwexpr_unit unit = {.addr_size = 8, .offset_size = 4, .version = 5};
    const dwexpr_eval_params p = {0}, traced = {.trace = let_run};
    dwexpr_result ra, rc;
    const dwexpr_status sa = dwexpr_eval_bytes(ctx_a, bytes, len, &unit, &target, NULL, &p, &ra);
    const dwexpr_status sc =
        dwexpr_eval_bytes(ctx_c, bytes, len, &unit, &target, NULL, &traced, &rc);
    TAP_OK(sa == sc, "%s: the same status from the bytes and in the loop (%d %d)", what, sa, sc);
    if (sc == DWEXPR_OK)
        TAP_OK(same_result(&ra, &rc), "%s: the same result", what);
    else
        TAP_OK(same_error(dwexpr_ctx_error(ctx_a), dwexpr_ctx_error(ctx_c)),
               "%s: the same error (%s)", what, dwexpr_ctx_error(ctx_c)->message);
    *out = rc;
    return sc;
}

/* Forward branches in the unchecked bytes of dwexpr_eval_bytes (seed
 * "Control Flow Operations": a target must be the start of an operation;
 * every operation of the expression is decoded, run or not): the fast
 * loop decodes them first (what it jumps over and where it lands must be
 * what the decoder accepts), and goes on from that decode when it
 * declines later. */
static void test_branches_from_bytes(void)
{
    dwexpr_result r;
    /* lit1 bra +2 (over two bytes the decoder rejects: 0x01 is no
     * operation) lit2 stack_value */
    static const uint8_t over_bad[] = {0x31, 0x28, 0x02, 0x00, 0x01, 0x01, 0x32, 0x9f};
    CHECK_U64(bytes_two_ways(over_bad, sizeof over_bad, "bra over an unknown opcode", &r),
              DWEXPR_E_UNKNOWN_OP, "jumped-over bytes are decoded: an unknown opcode");
    /* lit1 bra +1 (into const1u's operand, 0x30 = lit0) const1u 0x30 stack_value */
    static const uint8_t into_op[] = {0x31, 0x28, 0x01, 0x00, 0x08, 0x30, 0x9f};
    CHECK_U64(bytes_two_ways(into_op, sizeof into_op, "bra into an operand", &r),
              DWEXPR_E_BAD_BRANCH, "a target inside an operation: ill-formed");
    /* lit0 bra +1 (not taken: its target inside const1u's operand is
     * never reached) const1u 0x30 stack_value: 0x30 */
    static const uint8_t into_not_taken[] = {0x30, 0x28, 0x01, 0x00, 0x08, 0x30, 0x9f};
    CHECK_U64(bytes_two_ways(into_not_taken, sizeof into_not_taken,
                             "bra into an operand, not taken", &r),
              DWEXPR_OK, "a bad target not taken: no error");
    TAP_OK(r.kind == DWEXPR_RESULT_LOCATION && r.loc.count == 1 &&
               r.loc.slds[0].u.imp.data[0] == 0x30,
           "not taken: 0x30");
    /* lit0 bra +1 (not taken) over a truncated const2u: ill-formed even so */
    static const uint8_t trunc[] = {0x30, 0x28, 0x01, 0x00, 0x31, 0x0a, 0x01};
    CHECK_U64(bytes_two_ways(trunc, sizeof trunc, "truncated operation after a bra", &r),
              DWEXPR_E_TRUNCATED, "a truncated operation after the branch");
    /* lit1 bra +1 lit7 lit9 stack_value: taken */
    static const uint8_t taken[] = {0x31, 0x28, 0x01, 0x00, 0x37, 0x39, 0x9f};
    CHECK_U64(bytes_two_ways(taken, sizeof taken, "bra taken", &r), DWEXPR_OK, "bra taken");
    TAP_OK(r.loc.count == 1 && r.loc.slds[0].u.imp.data[0] == 9, "taken: 9");
    /* lit0 bra 0 lit3 lit1 minus dup bra -6 stack_value: a forward
     * branch (decoded), then a backward one (the loop declines: the
     * general loop goes on from the decode) */
    static const uint8_t back[] = {0x30, 0x28, 0x00, 0x00, 0x33, 0x31, 0x1c,
                                   0x12, 0x28, 0xfa, 0xff, 0x9f};
    CHECK_U64(bytes_two_ways(back, sizeof back, "forward, then backward bra", &r), DWEXPR_OK,
              "a loop after a forward branch");
    TAP_OK(r.loc.count == 1 && r.loc.slds[0].u.imp.data[0] == 0, "counts down to 0");
    /* 40 bytes (decoded into the scratch), a forward skip, then a piece
     * list the loop builds in the scratch too */
    static const uint8_t longer[] = {0x2f, 0x1b, 0x00, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96,
                                     0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96,
                                     0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96,
                                     0x50, 0x93, 0x08, 0x51, 0x93, 0x08, 0x30, 0x9f, 0x93, 0x04};
    CHECK_U64(bytes_two_ways(longer, sizeof longer, "40 bytes: skip, then pieces", &r),
              DWEXPR_OK, "a long expression with a skip");
    TAP_OK(part(&r, 2) && part(&r, 2)->loc.slds[0].kind == DWEXPR_LOC_IMPLICIT &&
               part(&r, 1)->loc.slds[0].u.regno == 1,
           "three parts: register 0, register 1, an implicit 0");
    /* the same 40 bytes but a DW_OP_const2u at offset 29, which runs
     * across the skip's target (30): ill-formed, though never run */
    uint8_t long_bad[sizeof longer];
    memcpy(long_bad, longer, sizeof longer);
    long_bad[29] = 0x0a;
    CHECK_U64(bytes_two_ways(long_bad, sizeof long_bad, "40 bytes, an operation across the target", &r),
              DWEXPR_E_BAD_BRANCH, "an operation across the skip's target");
}

static const dwexpr_part *part(const dwexpr_result *r, uint32_t i)
{
    if (r->kind != DWEXPR_RESULT_LOCATION || r->loc.count != 1 ||
        r->loc.slds[0].kind != DWEXPR_LOC_COMPOSITE || i >= r->loc.slds[0].u.comp->count)
        return NULL;
    return &r->loc.slds[0].u.comp->parts[i];
}

static void test_pieces(void)
{
    dwexpr_result r;
    const dwexpr_part *pt;
    dwexpr_status st;

    st = three_ways("DW_OP_reg0 DW_OP_piece 8 DW_OP_reg1 DW_OP_piece 4", 8, NULL, &r);
    CHECK_U64(st, DWEXPR_OK, "two register parts");
    pt = part(&r, 1);
    TAP_OK(pt && pt->bit_size == 32 && pt->loc.slds[0].kind == DWEXPR_LOC_REGISTER &&
               pt->loc.slds[0].u.regno == 1 && r.loc.slds[0].u.comp->complete &&
               r.loc.slds[0].u.comp->bits == 96 && r.loc.slds[0].u.comp->count == 2,
           "second part: 32 bits of register 1; 96 bits, complete");

    st = three_ways("DW_OP_piece 4 DW_OP_reg3 DW_OP_piece 4 DW_OP_piece 2", 8, NULL, &r);
    CHECK_U64(st, DWEXPR_OK, "undefined parts around a register");
    pt = part(&r, 0);
    TAP_OK(pt && pt->loc.slds[0].kind == DWEXPR_LOC_UNDEFINED && part(&r, 2) &&
               part(&r, 2)->bit_size == 16, "first and last parts undefined");
    st = three_ways("DW_OP_piece 8", 8, NULL, &r);
    CHECK_U64(st, DWEXPR_OK, "a lone piece: one undefined part");

    /* every producer of the shape, and five parts (the composite's cap grows to 8) */
    st = three_ways("DW_OP_breg7 -8 DW_OP_piece 4 DW_OP_fbreg 16 DW_OP_piece 4 "
                    "DW_OP_lit5 DW_OP_stack_value DW_OP_piece 2 "
                    "DW_OP_entry_value 1 0x55 DW_OP_stack_value DW_OP_piece 8 "
                    "DW_OP_addr 0x1000 DW_OP_piece 4 DW_OP_call_frame_cfa DW_OP_piece 4 "
                    "DW_OP_addrx 3 DW_OP_piece 1 DW_OP_constu 300 DW_OP_stack_value DW_OP_piece 2",
                    8, NULL, &r);
    CHECK_U64(st, DWEXPR_OK, "every producer as a part");
    TAP_OK(r.loc.slds[0].u.comp->count == 8 && r.loc.slds[0].u.comp->cap == 8,
           "eight parts, capacity 8");
    pt = part(&r, 2);
    TAP_OK(pt && pt->loc.slds[0].kind == DWEXPR_LOC_IMPLICIT && pt->loc.slds[0].u.imp.bits == 64 &&
               pt->loc.slds[0].u.imp.data[0] == 5, "lit5 stack_value: 64-bit implicit 5");

    /* range checks through reg_size, and its failures */
    st = three_ways("DW_OP_reg0 DW_OP_piece 9", 8, NULL, &r);
    CHECK_U64(st, DWEXPR_E_PIECE_RANGE, "9 bytes of an 8-byte register: ill-formed");
    st = three_ways("DW_OP_reg17 DW_OP_piece 16 DW_OP_regx 40 DW_OP_piece 3", 8, NULL, &r);
    CHECK_U64(st, DWEXPR_E_PIECE_RANGE, "3 bytes of a 2-byte register: ill-formed");
    st = three_ways("DW_OP_reg17 DW_OP_piece 16", 8, NULL, &r);
    CHECK_U64(st, DWEXPR_OK, "16 bytes of a 16-byte register");
    st = three_ways("DW_OP_regx 99 DW_OP_piece 8", 8, NULL, &r);
    CHECK_U64(st, DWEXPR_E_NOT_FOUND, "a register the target does not know");
    reg_size_fails = 1;
    st = three_ways("DW_OP_reg2 DW_OP_piece 4 DW_OP_reg3 DW_OP_piece 4", 8, NULL, &r);
    CHECK_U64(st, DWEXPR_E_TARGET, "reg_size fails");
    reg_size_fails = 0;
    st = three_ways("DW_OP_lit1 DW_OP_stack_value DW_OP_piece 9", 8, NULL, &r);
    CHECK_U64(st, DWEXPR_E_PIECE_RANGE, "9 bytes of an 8-byte implicit value");
    st = three_ways("DW_OP_reg0 DW_OP_piece 0x2000000000000000", 8, NULL, &r);
    CHECK_U64(st, DWEXPR_E_TOO_BIG, "a piece of 2^61 bytes is too large");

    /* the address space bound of a 2-byte unit: 2^16 bytes at most */
    st = three_ways("DW_OP_piece 0x8000 DW_OP_piece 0x8000", 2, NULL, &r);
    CHECK_U64(st, DWEXPR_OK, "exactly 2^16 bytes in a 2-byte address space");
    st = three_ways("DW_OP_piece 0x8000 DW_OP_piece 0x8001", 2, NULL, &r);
    CHECK_U64(st, DWEXPR_E_ILL_FORMED, "2^16 + 1 bytes: larger than the address space");
    /* and of a 1-byte unit, with one-byte sizes (the fast path's register
     * piece lists read those without the stack) */
    st = three_ways("DW_OP_piece 127 DW_OP_piece 127 DW_OP_piece 2", 1, NULL, &r);
    CHECK_U64(st, DWEXPR_OK, "exactly 2^8 bytes in a 1-byte address space");
    st = three_ways("DW_OP_piece 127 DW_OP_reg1 DW_OP_piece 1 DW_OP_piece 127 DW_OP_piece 2", 1,
                    NULL, &r);
    CHECK_U64(st, DWEXPR_E_ILL_FORMED, "2^8 + 1 bytes: larger than the address space");

    /* wanted result kinds, frames, context */
    dwexpr_eval_params p = {.result_kind = DWEXPR_RESULT_VALUE};
    st = three_ways("DW_OP_reg0 DW_OP_piece 8", 8, &p, &r);
    CHECK_U64(st, DWEXPR_E_NOT_VALUE, "a composite is not a value");
    p.result_kind = DWEXPR_RESULT_LOCATION;
    st = three_ways("DW_OP_reg0 DW_OP_piece 8", 8, &p, &r);
    CHECK_U64(st, DWEXPR_OK, "a location wanted");
    dwexpr_eval_params f = {.frame = 2, .ctx = DWEXPR_CTX_THREAD, .thread = 77};
    st = three_ways("DW_OP_reg3 DW_OP_piece 8 DW_OP_reg4 DW_OP_piece 8", 8, &f, &r);
    CHECK_U64(st, DWEXPR_OK, "registers of a caller frame");
    pt = part(&r, 1);
    TAP_OK(pt && pt->loc.slds[0].kind == DWEXPR_LOC_MEMORY &&
               pt->loc.slds[0].byte_offset == 0x5000u + 0x200u + 32u,
           "a caller frame's register is where unwinding says");
    dwexpr_eval_params t = {.ctx = DWEXPR_CTX_THREAD, .thread = 5};
    st = three_ways("DW_OP_reg3 DW_OP_piece 8", 8, &t, &r);
    CHECK_U64(st, DWEXPR_OK, "a register part records the thread");
    TAP_OK(part(&r, 0) && part(&r, 0)->loc.slds[0].thread == 5 &&
               part(&r, 0)->loc.slds[0].ctx == DWEXPR_CTX_THREAD, "thread 5 recorded");
    frame_base_expr = 1;
    st = three_ways("DW_OP_fbreg -4 DW_OP_piece 4 DW_OP_reg1 DW_OP_piece 4", 8, NULL, &r);
    CHECK_U64(st, DWEXPR_OK, "a frame base expression evaluated for a part");
    frame_base_expr = 0;

    /* shapes that stay general: bit_piece, another operation in a group */
    st = three_ways("DW_OP_reg0 DW_OP_bit_piece 4 0 DW_OP_reg1 DW_OP_piece 4", 8, NULL, &r);
    CHECK_U64(st, DWEXPR_OK, "bit_piece takes the loop");
    st = three_ways("DW_OP_lit1 DW_OP_piece 4", 8, NULL, &r);
    CHECK_U64(st, DWEXPR_OK, "a generic value as a part (a memory address)");
}

/* A producer alone or with DW_OP_stack_value (answered without the set-up
 * layers of the general entry): results, failures and wanted kinds. */
static void test_one(void)
{
    dwexpr_result r;
    static const char *const ok[] = {
        "DW_OP_lit5 DW_OP_stack_value", "DW_OP_constu 0x123456789 DW_OP_stack_value",
        "DW_OP_breg3 8 DW_OP_stack_value", "DW_OP_breg3 -8", "DW_OP_fbreg -8",
        "DW_OP_fbreg 8 DW_OP_stack_value", "DW_OP_entry_value 1 0x55 DW_OP_stack_value",
        "DW_OP_entry_value 1 0x55", "DW_OP_call_frame_cfa", "DW_OP_addr 0x1000",
        "DW_OP_addrx 2 DW_OP_stack_value", "DW_OP_lit3", "DW_OP_regx 5 DW_OP_stack_value",
        /* every other producer kind (prog->one, lib/fast.c's one_kind) */
        "DW_OP_constx 2 DW_OP_stack_value", "DW_OP_constx 2", "DW_OP_GNU_addr_index 2",
        "DW_OP_GNU_const_index 1 DW_OP_stack_value", "DW_OP_bregx 3 -8",
        "DW_OP_bregx 3 8 DW_OP_stack_value", "DW_OP_GNU_entry_value 1 0x55 DW_OP_stack_value",
        "DW_OP_const8s -5 DW_OP_stack_value", "DW_OP_const2u 0x1234", "DW_OP_regx 5",
        "DW_OP_addr 0x1000 DW_OP_stack_value", "DW_OP_call_frame_cfa DW_OP_stack_value"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        for (uint8_t asz = 4; asz <= 8; asz += 4) {
            dwexpr_status st = three_ways(ok[i], asz, NULL, &r);
            TAP_OK(st == DWEXPR_OK || (i == 12 && st == DWEXPR_E_NOT_VALUE),
                   "%s evaluates (%u-byte addresses)", ok[i], (unsigned)asz);
        }
    }
    /* from the bytes (lib/fast.c's lone_producer): operands of one, two
     * and more bytes, signs, a producer followed by anything but
     * DW_OP_stack_value, truncated operands */
    static const char *const edges[] = {
        "DW_OP_fbreg -132", "DW_OP_fbreg 8191 DW_OP_stack_value", "DW_OP_fbreg -8192",
        "DW_OP_fbreg 8192", "DW_OP_breg7 -200 DW_OP_stack_value", "DW_OP_breg7 63",
        "DW_OP_breg7 64", "DW_OP_breg7 -64", "DW_OP_breg7 -65", "DW_OP_bregx 200 -8",
        "DW_OP_bregx 20000 -8", "DW_OP_constu 200 DW_OP_stack_value",
        "DW_OP_constu 20000 DW_OP_stack_value", "DW_OP_consts -100 DW_OP_stack_value",
        "DW_OP_const2s -2 DW_OP_stack_value", "DW_OP_const1s -1", "DW_OP_const4u 0xfffffffe",
        "DW_OP_const8s -3 DW_OP_stack_value", "DW_OP_addr 0xfffffff0 DW_OP_stack_value",
        "DW_OP_addrx 300", "DW_OP_breg3 8 DW_OP_neg", "DW_OP_breg3 8 DW_OP_stack_value DW_OP_nop",
        "DW_OP_lit1 DW_OP_nop", "DW_OP_call_frame_cfa DW_OP_deref", "DW_OP_fbreg 0 DW_OP_lit0",
        "DW_OP_entry_value 1 0x55 DW_OP_neg DW_OP_stack_value",
        "DW_OP_entry_value 2 0x7000 DW_OP_stack_value", "DW_OP_GNU_entry_value 1 0x6f"};
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
        for (uint8_t asz = 4; asz <= 8; asz += 4)
            three_ways(edges[i], asz, NULL, &r);
    static const uint8_t cut[][8] = {{0x91, 0x80}, {0x77, 0xff}, {0x92, 0x03}, {0x0a, 0x01},
                                     {0xa3, 0x01}, {0x03, 0x00}, {0x03, 1, 2, 3, 4, 5},
                                     {0x0e, 1, 2, 3, 4, 5, 6, 7}};
    static const uint8_t cut_len[] = {2, 2, 2, 2, 2, 2, 6, 8};
    for (size_t i = 0; i < sizeof cut / sizeof cut[0]; i++) {
        const dwexpr_unit u = {.addr_size = 8, .offset_size = 4, .version = 5};
        const dwexpr_status sa = dwexpr_eval_bytes(ctx_a, cut[i], cut_len[i], &u, &target, NULL,
                                                   NULL, &r);
        TAP_OK(sa == DWEXPR_E_TRUNCATED, "truncated producer 0x%02x: E_TRUNCATED (%d)",
               cut[i][0], sa);
    }
    /* a unit of zero fields (the defaults) from the bytes and decoded */
    three_ways_unit("DW_OP_addr 0x1234 DW_OP_stack_value", (dwexpr_unit){0}, NULL, &r);
    three_ways_unit("DW_OP_breg3 8 DW_OP_stack_value", (dwexpr_unit){0}, NULL, &r);
    three_ways_unit("DW_OP_entry_value 1 0x55", (dwexpr_unit){0}, NULL, &r);
    CHECK_U64(three_ways("DW_OP_lit5 DW_OP_stack_value", 4, NULL, &r), DWEXPR_OK, "4-byte unit");
    TAP_OK(r.loc.count == 1 && r.loc.slds[0].kind == DWEXPR_LOC_IMPLICIT &&
               r.loc.slds[0].u.imp.bits == 32 && r.loc.slds[0].u.imp.data[0] == 5,
           "lit5 stack_value: 32-bit implicit 5");
    CHECK_U64(three_ways("DW_OP_regx 99 DW_OP_stack_value", 8, NULL, &r), DWEXPR_E_NOT_VALUE,
              "a register location is not a value");
    reg_size_fails = 1;
    CHECK_U64(three_ways("DW_OP_breg3 8 DW_OP_stack_value", 8, NULL, &r), DWEXPR_E_TARGET,
              "breg when reg_size fails");
    reg_size_fails = 0;
    dwexpr_eval_params v = {.result_kind = DWEXPR_RESULT_VALUE};
    CHECK_U64(three_ways("DW_OP_breg3 8", 8, &v, &r), DWEXPR_OK, "a memory location as a value");
    CHECK_U64(three_ways("DW_OP_lit5 DW_OP_stack_value", 8, &v, &r), DWEXPR_E_NOT_VALUE,
              "an implicit location is not a value");
    dwexpr_eval_params f = {.frame = 1};
    CHECK_U64(three_ways("DW_OP_breg3 8 DW_OP_stack_value", 8, &f, &r), DWEXPR_E_UNSUPPORTED,
              "breg in a caller frame: its save slot cannot be read (no mem_read)");
}

/* A short constant and DW_OP_stack_value from the bytes (lib/fast.c's
 * one_bytes_lit and one_bytes_const1: DW_OP_lit*, const1u, const1s, and
 * constu / consts of a one-byte LEB128): implicit storage holding the
 * constant as a generic value (seed "Implicit Location Description
 * Operations", DW_OP_stack_value; DWARF 5 2.5.1.1 for the constants),
 * truncated to the unit's address size, for every address size, three
 * ways; hand-computed bytes. And around them: a longer LEB128, a third
 * operation, a unit of default (zero) fields; a target whose default
 * address space is narrower than the unit's addresses or cannot be told,
 * which the leaves do not ask about (the generic type is the unit's
 * address size, dwexpr_unit) and the loop does not need: the same
 * result. */
static int aspace_fails;
static dwexpr_status s_aspace32(void *u, uint32_t as, dwexpr_aspace_info *out)
{
    (void)u;
    if (as != 0)
        return DWEXPR_E_NOT_FOUND;
    if (aspace_fails)
        return DWEXPR_E_TARGET;
    out->addr_bits = 32;
    out->per_thread = false;
    out->per_lane = false;
    return DWEXPR_OK;
}

static void test_short_consts(void)
{
    static const struct {
        const char *text;
        uint64_t want; /* the value, before truncation to the address size */
    } cases[] = {
        {"DW_OP_lit0 DW_OP_stack_value", 0},
        {"DW_OP_lit31 DW_OP_stack_value", 31},
        {"DW_OP_const1u 0xff DW_OP_stack_value", 0xff},
        {"DW_OP_const1u 0x80 DW_OP_stack_value", 0x80},
        {"DW_OP_const1s -1 DW_OP_stack_value", UINT64_MAX},
        {"DW_OP_const1s -128 DW_OP_stack_value", (uint64_t)-128},
        {"DW_OP_const1s 127 DW_OP_stack_value", 127},
        {"DW_OP_constu 0 DW_OP_stack_value", 0},
        {"DW_OP_constu 0x7f DW_OP_stack_value", 0x7f},
        {"DW_OP_consts 63 DW_OP_stack_value", 63},
        {"DW_OP_consts -64 DW_OP_stack_value", (uint64_t)-64},
        {"DW_OP_consts -1 DW_OP_stack_value", UINT64_MAX},
        /* not the leaves' (a two-byte LEB128), the same answers */
        {"DW_OP_constu 0x80 DW_OP_stack_value", 0x80},
        {"DW_OP_consts -65 DW_OP_stack_value", (uint64_t)-65},
        {"DW_OP_consts 64 DW_OP_stack_value", 64},
    };
    static const uint8_t sizes[] = {1, 2, 4, 8};
    dwexpr_result r;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (size_t k = 0; k < sizeof sizes; k++) {
            const unsigned asz = sizes[k];
            dwexpr_status st = three_ways(cases[i].text, (uint8_t)asz, NULL, &r);
            uint8_t want[8];
            for (unsigned b = 0; b < 8; b++)
                want[b] = (uint8_t)(cases[i].want >> (8 * b));
            TAP_OK(st == DWEXPR_OK && r.kind == DWEXPR_RESULT_LOCATION && r.loc.count == 1 &&
                       r.loc.slds[0].kind == DWEXPR_LOC_IMPLICIT &&
                       r.loc.slds[0].u.imp.bits == 8 * asz &&
                       memcmp(r.loc.slds[0].u.imp.data, want, asz) == 0,
                   "%s, %u-byte addresses: %u implicit bits, the constant's first %u bytes",
                   cases[i].text, asz, 8 * asz, asz);
        }
    }
    /* a third operation, a constant alone, a unit of zero fields */
    three_ways("DW_OP_lit5 DW_OP_stack_value DW_OP_nop", 8, NULL, &r);
    three_ways("DW_OP_const1s -2", 8, NULL, &r);
    CHECK_U64(three_ways_unit("DW_OP_const1s -2 DW_OP_stack_value", (dwexpr_unit){0}, NULL, &r),
              DWEXPR_OK, "const1s -2 stack_value, a unit of zero fields");
    TAP_OK(r.loc.count == 1 && r.loc.slds[0].u.imp.bits == 64 &&
               r.loc.slds[0].u.imp.data[0] == 0xfe && r.loc.slds[0].u.imp.data[7] == 0xff,
           "the default 8-byte addresses: 64 bits, fe ff .. ff");
    /* a default space of 32-bit addresses under a unit of 8-byte ones:
     * the bytes' path as the loop */
    dwexpr_target narrow = target;
    narrow.aspace_info = s_aspace32;
    static const uint8_t forms[][3] = {{0x35, 0x9f}, {0x09, 0xfe, 0x9f}, {0x11, 0x7e, 0x9f}};
    static const size_t form_len[] = {2, 3, 3};
    const dwexpr_unit u8 = {.addr_size = 8, .offset_size = 4, .version = 5};
    const dwexpr_eval_params traced = {.trace = let_run};
    for (size_t i = 0; i < 6; i++) {
        aspace_fails = i >= 3;
        dwexpr_result rb, rc;
        dwexpr_status sb = dwexpr_eval_bytes(ctx_b, forms[i % 3], form_len[i % 3], &u8, &narrow,
                                             NULL, NULL, &rb);
        dwexpr_program *prog = NULL;
        dwexpr_error err;
        dwexpr_status sd = dwexpr_program_decode(forms[i % 3], form_len[i % 3], &u8, &prog, &err);
        dwexpr_status sc = sd ? sd : dwexpr_eval(ctx_c, prog, &narrow, NULL, &traced, &rc);
        TAP_OK(sd == DWEXPR_OK && sb == sc &&
                   (sc != DWEXPR_OK ? same_error(dwexpr_ctx_error(ctx_b), dwexpr_ctx_error(ctx_c))
                                    : same_result(&rb, &rc)),
               "form %zu (0x%02x) on a target of a 32-bit default space%s: as the loop (%s)",
               i % 3, forms[i % 3][0], aspace_fails ? " (aspace_info failing)" : "",
               dwexpr_status_name(sc));
        dwexpr_program_free(prog);
    }
    aspace_fails = 0;
}

/* Register piece lists from the bytes (lib/fast.c's one_bytes_pieces,
 * first byte DW_OP_reg* or DW_OP_piece): in a unit of zero fields (the
 * defaults: the loop's), and for a target with address-space facts,
 * which it does not ask about, where the loop asks (and its answer
 * cannot change the result): 257 bytes of parts in a unit of 1-byte
 * addresses are larger than the address space (seed "Composite Location
 * Description Operations": the unit's address size bounds it, as in the
 * loop), 256 are not; with space 0 answering and failing. */
static void test_pieces_from_bytes(void)
{
    dwexpr_result r;
    CHECK_U64(three_ways_unit("DW_OP_reg0 DW_OP_piece 8 DW_OP_reg1 DW_OP_piece 8",
                              (dwexpr_unit){0}, NULL, &r),
              DWEXPR_OK, "a register piece list in a unit of zero fields");
    CHECK_U64(three_ways_unit("DW_OP_piece 4 DW_OP_reg1 DW_OP_piece 8", (dwexpr_unit){0}, NULL,
                              &r),
              DWEXPR_OK, "an undefined piece first, a unit of zero fields");
    dwexpr_target wide = target;
    wide.aspace_info = s_aspace32;
    /* piece 127, reg1 piece 1, piece 127, piece 2 (257 bytes); and 1 */
    static const uint8_t big[] = {0x93, 0x7f, 0x51, 0x93, 0x01, 0x93, 0x7f, 0x93, 0x02};
    static const uint8_t fits[] = {0x93, 0x7f, 0x51, 0x93, 0x01, 0x93, 0x7f, 0x93, 0x01};
    const dwexpr_unit u1 = {.addr_size = 1, .offset_size = 4, .version = 5};
    const dwexpr_eval_params traced = {.trace = let_run};
    for (int i = 0; i < 4; i++) {
        const uint8_t *b = i & 1 ? fits : big;
        const dwexpr_status want = i & 1 ? DWEXPR_OK : DWEXPR_E_ILL_FORMED;
        aspace_fails = i >= 2;
        dwexpr_result rb, rc;
        dwexpr_program *prog = NULL;
        dwexpr_error err;
        dwexpr_status sd = dwexpr_program_decode(b, sizeof big, &u1, &prog, &err);
        dwexpr_status sb = dwexpr_eval_bytes(ctx_b, b, sizeof big, &u1, &wide, NULL, NULL, &rb);
        dwexpr_status sc = sd ? sd : dwexpr_eval(ctx_c, prog, &wide, NULL, &traced, &rc);
        TAP_OK(sd == DWEXPR_OK && sc == want && sb == sc &&
                   (sc == DWEXPR_OK ? same_result(&rb, &rc)
                                    : same_error(dwexpr_ctx_error(ctx_b), dwexpr_ctx_error(ctx_c))),
               "%s bytes of pieces, 1-byte unit, a target whose space 0 has 32-bit addresses%s: "
               "from the bytes as the loop (%s, %s)", i & 1 ? "256" : "257",
               aspace_fails ? " (aspace_info failing)" : "", dwexpr_status_name(sb),
               dwexpr_status_name(sc));
        dwexpr_program_free(prog);
    }
    aspace_fails = 0;
    (void)r;
}

/* The per-lane part of a location (register; push_lane; K; mul; offset):
 * the register's place moved by K * lane, checked against reg_size. */
static void test_lane_part(void)
{
    static const struct { const char *text; uint8_t asz; uint32_t lane; dwexpr_status want;
                          uint64_t byte; } cases[] = {
        {"DW_OP_regx 2560 DW_OP_LLVM_push_lane DW_OP_lit4 DW_OP_mul DW_OP_LLVM_offset", 8, 5,
         DWEXPR_OK, 20},
        {"DW_OP_regx 2560 DW_OP_LLVM_push_lane DW_OP_lit4 DW_OP_mul DW_OP_LLVM_offset", 8, 63,
         DWEXPR_OK, 252},
        {"DW_OP_regx 2560 DW_OP_LLVM_push_lane DW_OP_lit4 DW_OP_mul DW_OP_LLVM_offset", 8, 64,
         DWEXPR_E_BAD_OFFSET, 0},
        {"DW_OP_reg3 DW_OP_LLVM_push_lane DW_OP_lit4 DW_OP_mul DW_OP_LLVM_offset", 8, 1,
         DWEXPR_OK, 4},
        {"DW_OP_reg3 DW_OP_LLVM_push_lane DW_OP_lit4 DW_OP_mul DW_OP_LLVM_offset", 8, 2,
         DWEXPR_E_BAD_OFFSET, 0},
        {"DW_OP_regx 99 DW_OP_LLVM_push_lane DW_OP_lit4 DW_OP_mul DW_OP_LLVM_offset", 8, 1,
         DWEXPR_E_NOT_FOUND, 0},
        {"DW_OP_regx 2560 DW_OP_LLVM_push_lane DW_OP_const4u 0xffffffff DW_OP_mul "
         "DW_OP_LLVM_offset", 4, 1, DWEXPR_E_BAD_OFFSET, 0},
        {"DW_OP_regx 2560 DW_OP_LLVM_push_lane DW_OP_lit0 DW_OP_mul DW_OP_LLVM_offset", 8, 9,
         DWEXPR_OK, 0},
        {"DW_OP_breg3 0 DW_OP_LLVM_push_lane DW_OP_lit4 DW_OP_mul DW_OP_LLVM_offset", 8, 3,
         DWEXPR_OK, 0x3837363534333231u + 12},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dwexpr_eval_params p = {.ctx = DWEXPR_CTX_THREAD | DWEXPR_CTX_LANE, .thread = 3,
                                .lane = cases[i].lane, .lanes = 64};
        dwexpr_result r;
        dwexpr_status st = three_ways(cases[i].text, cases[i].asz, &p, &r);
        CHECK_U64(st, cases[i].want, "%s, lane %u", cases[i].text, (unsigned)cases[i].lane);
        if (st == DWEXPR_OK)
            CHECK_U64(r.loc.slds[0].byte_offset, cases[i].byte, "lane %u: byte offset",
                      (unsigned)cases[i].lane);
    }
    const char *text = "DW_OP_regx 2560 DW_OP_LLVM_push_lane DW_OP_lit4 DW_OP_mul DW_OP_LLVM_offset";
    dwexpr_eval_params p = {.ctx = DWEXPR_CTX_THREAD | DWEXPR_CTX_LANE, .lane = 1};
    dwexpr_result r;
    reg_size_fails = 1;
    CHECK_U64(three_ways(text, 8, &p, &r), DWEXPR_E_TARGET, "reg_size fails");
    reg_size_fails = 0;
    p.ctx = DWEXPR_CTX_THREAD;
    CHECK_U64(three_ways(text, 8, &p, &r), DWEXPR_E_NO_CONTEXT, "no lane given");
    p.ctx = DWEXPR_CTX_THREAD | DWEXPR_CTX_LANE;
    p.frame = 1;
    CHECK_U64(three_ways(text, 8, &p, &r), DWEXPR_OK, "a caller frame (unwound to memory)");
}

/* three_ways on three new contexts with limits LIM (the result is only
 * good for its status: the contexts are gone when it returns). */
static dwexpr_status three_ways_limited(const dwexpr_limits *lim, const char *text,
                                        const dwexpr_eval_params *p)
{
    dwexpr_ctx *a = NULL, *b = NULL, *c = NULL;
    dwexpr_status st = DWEXPR_E_NOMEM;
    if (dwexpr_ctx_new(lim, &a) == DWEXPR_OK && dwexpr_ctx_new(lim, &b) == DWEXPR_OK &&
        dwexpr_ctx_new(lim, &c) == DWEXPR_OK) {
        dwexpr_ctx *sa = ctx_a, *sb = ctx_b, *sc = ctx_c;
        ctx_a = a, ctx_b = b, ctx_c = c;
        dwexpr_result r;
        st = three_ways(text, 8, p, &r);
        ctx_a = sa, ctx_b = sb, ctx_c = sc;
    }
    dwexpr_ctx_free(a);
    dwexpr_ctx_free(b);
    dwexpr_ctx_free(c);
    return st;
}

/* Limits: steps, parts and the stack, with a context of small limits. */
static void test_limits(void)
{
    const char *text = "DW_OP_reg0 DW_OP_piece 8 DW_OP_reg1 DW_OP_piece 8 DW_OP_piece 2";
    static const struct { dwexpr_limits lim; dwexpr_status want; const char *what; } cases[] = {
        {{.steps = 4}, DWEXPR_E_STEPS, "4 steps for 5 operations"},
        {{.steps = 5}, DWEXPR_OK, "5 steps for 5 operations"},
        {{.parts = 2}, DWEXPR_E_TOO_BIG, "2 parts allowed, 3 made"},
        {{.parts = 3}, DWEXPR_OK, "3 parts allowed"},
        {{.stack = 1}, DWEXPR_E_STACK_LIMIT, "a stack of one entry"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK_U64(three_ways_limited(&cases[i].lim, text, NULL), cases[i].want, "%s",
                  cases[i].what);
    /* the lane part needs 5 steps and 3 stack entries (the place, the
     * lane, the factor), its shortcut as the loop */
    static const struct { dwexpr_limits lim; dwexpr_status want; const char *what; } lane[] = {
        {{.stack = 2}, DWEXPR_E_STACK_LIMIT, "lane part, a stack of 2 entries"},
        {{.stack = 3}, DWEXPR_OK, "lane part, a stack of 3 entries"},
        {{.steps = 4}, DWEXPR_E_STEPS, "lane part, 4 steps"},
        {{.steps = 5}, DWEXPR_OK, "lane part, 5 steps"},
    };
    const dwexpr_eval_params lp = {.ctx = DWEXPR_CTX_THREAD | DWEXPR_CTX_LANE, .lane = 5};
    for (size_t i = 0; i < sizeof lane / sizeof lane[0]; i++)
        CHECK_U64(three_ways_limited(&lane[i].lim,
                                     "DW_OP_regx 2560 DW_OP_LLVM_push_lane DW_OP_lit4 DW_OP_mul "
                                     "DW_OP_LLVM_offset", &lp),
                  lane[i].want, "%s", lane[i].what);
    /* one step for a producer and stack_value: the second fails */
    const dwexpr_limits one = {.steps = 1};
    CHECK_U64(three_ways_limited(&one, "DW_OP_lit5 DW_OP_stack_value", NULL), DWEXPR_E_STEPS,
              "1 step for lit5; stack_value");
    CHECK_U64(three_ways_limited(&one, "DW_OP_lit5", NULL), DWEXPR_OK, "1 step for lit5");
    /* steps spent inside a frame base expression count too */
    const dwexpr_limits three = {.steps = 3};
    frame_base_expr = 1;
    CHECK_U64(three_ways_limited(&three, "DW_OP_fbreg 0 DW_OP_piece 4 DW_OP_piece 4", NULL),
              DWEXPR_E_STEPS, "3 steps: fbreg, its frame base's breg7, piece; not the last piece");
    frame_base_expr = 0;
}

/* The bytes through dwexpr_eval_bytes (its quick decode of the commonest
 * operations) and through dwexpr_program_decode + dwexpr_eval (the full
 * decoder): the same decode error, or the same result. */
static dwexpr_status bytes_vs_decoded(const uint8_t *bytes, size_t len, const char *what)
{
    static const dwexpr_unit unit = {.addr_size = 8, .offset_size = 4, .version = 5};
    dwexpr_program *prog = NULL;
    dwexpr_error err;
    dwexpr_result ra, rb;
    dwexpr_status sd = dwexpr_program_decode(bytes, len, &unit, &prog, &err);
    dwexpr_status sb = dwexpr_eval_bytes(ctx_b, bytes, len, &unit, &target, NULL, NULL, &rb);
    if (sd != DWEXPR_OK) {
        TAP_OK(sb == sd && same_error(dwexpr_ctx_error(ctx_b), &err),
               "%s: the same decode error from the bytes (%s)", what, err.message);
        return sd;
    }
    dwexpr_status sa = dwexpr_eval(ctx_a, prog, &target, NULL, NULL, &ra);
    const dwexpr_eval_params traced = {.trace = let_run};
    dwexpr_result rc;
    dwexpr_status sc = dwexpr_eval(ctx_c, prog, &target, NULL, &traced, &rc);
    TAP_OK(sa == sc && sb == sc &&
               (sc != DWEXPR_OK || (same_result(&ra, &rc) && same_result(&rb, &rc))) &&
               (sc == DWEXPR_OK || (same_error(dwexpr_ctx_error(ctx_a), dwexpr_ctx_error(ctx_c)) &&
                                    same_error(dwexpr_ctx_error(ctx_b), dwexpr_ctx_error(ctx_c)))),
           "%s: the same result or error from the bytes, pre-decoded and in the loop", what);
    dwexpr_program_free(prog);
    return sa;
}

static void test_quick_decode(void)
{
    static const struct { uint8_t b[4]; size_t len; dwexpr_status want; const char *what; } cases[] = {
        {{0x75}, 1, DWEXPR_E_TRUNCATED, "DW_OP_breg5 without its operand"},
        {{0x91}, 1, DWEXPR_E_TRUNCATED, "DW_OP_fbreg without its operand"},
        {{0x93}, 1, DWEXPR_E_TRUNCATED, "DW_OP_piece without its operand"},
        {{0x75, 0x80}, 2, DWEXPR_E_TRUNCATED, "DW_OP_breg5 with a cut LEB128"},
        {{0x93, 0x88}, 2, DWEXPR_E_TRUNCATED, "DW_OP_piece with a cut LEB128"},
        {{0x75, 0xff, 0x7e}, 3, DWEXPR_OK, "DW_OP_breg5 -129 (two LEB128 bytes)"},
        {{0x75, 0x7f, 0x9f}, 3, DWEXPR_OK, "DW_OP_breg5 -1; DW_OP_stack_value"},
        {{0x75, 0x40}, 2, DWEXPR_OK, "DW_OP_breg5 -64 (sign bit of one byte)"},
        {{0x91, 0x3f}, 2, DWEXPR_OK, "DW_OP_fbreg 63"},
        {{0x93, 0x80, 0x01}, 3, DWEXPR_OK, "DW_OP_piece 128 (two LEB128 bytes)"},
        {{0x4f, 0x9f}, 2, DWEXPR_OK, "DW_OP_lit31; DW_OP_stack_value"},
        {{0x6f, 0x93, 0x08}, 3, DWEXPR_OK, "DW_OP_reg31; DW_OP_piece 8"},
        {{0x8f, 0x08, 0x93, 0x04}, 4, DWEXPR_OK, "DW_OP_breg31 8; DW_OP_piece 4"},
        {{0x9f}, 1, DWEXPR_E_STACK_EMPTY, "DW_OP_stack_value on an empty stack"},
        {{0x50, 0xff}, 2, DWEXPR_E_VENDOR_OP, "an unknown vendor opcode after DW_OP_reg0"},
        {{0x08, 0xff, 0x9f}, 3, DWEXPR_OK, "DW_OP_const1u 255; DW_OP_stack_value"},
        {{0x09, 0xff, 0x9f}, 3, DWEXPR_OK, "DW_OP_const1s -1; DW_OP_stack_value"},
        {{0x0a, 0x34, 0x12}, 3, DWEXPR_OK, "DW_OP_const2u 0x1234"},
        {{0x0b, 0x00, 0x80, 0x9f}, 4, DWEXPR_OK, "DW_OP_const2s -32768; DW_OP_stack_value"},
        {{0x0c, 1, 2, 3}, 4, DWEXPR_E_TRUNCATED, "DW_OP_const4u with 3 bytes"},
        {{0x0a, 0x01}, 2, DWEXPR_E_TRUNCATED, "DW_OP_const2u with 1 byte"},
        {{0x10, 0x7f, 0x9f}, 3, DWEXPR_OK, "DW_OP_constu 127; DW_OP_stack_value"},
        {{0x11, 0x7f, 0x9f}, 3, DWEXPR_OK, "DW_OP_consts -1; DW_OP_stack_value"},
        {{0x11, 0x80, 0x7f}, 3, DWEXPR_OK, "DW_OP_consts -128 (two LEB128 bytes)"},
        {{0x9c}, 1, DWEXPR_OK, "DW_OP_call_frame_cfa"},
        {{0x9c, 0x93, 0x08}, 3, DWEXPR_OK, "DW_OP_call_frame_cfa; DW_OP_piece 8"},
        {{0xa3, 0x01, 0x55, 0x9f}, 4, DWEXPR_OK, "DW_OP_entry_value(DW_OP_reg5); DW_OP_stack_value"},
        {{0xf3, 0x01, 0x6f, 0x9f}, 4, DWEXPR_OK, "DW_OP_GNU_entry_value(DW_OP_reg31); stack_value"},
        {{0xa3, 0x01, 0x30, 0x9f}, 4, DWEXPR_OK, "DW_OP_entry_value(DW_OP_lit0); DW_OP_stack_value"},
        {{0xa3, 0x02, 0x75, 0x00}, 4, DWEXPR_OK, "DW_OP_entry_value(DW_OP_breg5 0)"},
        {{0xa3, 0x01, 0xff, 0x9f}, 4, DWEXPR_E_VENDOR_OP, "DW_OP_entry_value of a vendor byte"},
        {{0xa3, 0x02, 0x55}, 3, DWEXPR_E_TRUNCATED, "DW_OP_entry_value block past the end"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK_U64(bytes_vs_decoded(cases[i].b, cases[i].len, cases[i].what), cases[i].want,
                  "%s", cases[i].what);
}

/* Generic arithmetic (computed in place on the stack for the common
 * operations): wrapping at the generic type's size, shifts by the width. */
static void test_generic_arith(void)
{
    static const struct { const char *text; uint8_t asz; uint64_t want; } cases[] = {
        {"DW_OP_const4u 0xffffffff DW_OP_plus_uconst 2", 4, 1},
        {"DW_OP_const8u 0xffffffffffffffff DW_OP_plus_uconst 2", 8, 1},
        {"DW_OP_const4u 0x80000000 DW_OP_lit2 DW_OP_mul", 4, 0},
        {"DW_OP_const4u 0x80000001 DW_OP_lit3 DW_OP_mul", 4, 0x80000003},
        {"DW_OP_lit1 DW_OP_lit2 DW_OP_minus", 4, 0xffffffff},
        {"DW_OP_lit1 DW_OP_lit2 DW_OP_minus", 8, 0xffffffffffffffff},
        {"DW_OP_lit1 DW_OP_const1u 64 DW_OP_shl", 8, 0},
        {"DW_OP_lit1 DW_OP_const1u 63 DW_OP_shl", 8, 0x8000000000000000},
        {"DW_OP_lit1 DW_OP_lit31 DW_OP_shl DW_OP_lit1 DW_OP_shl", 4, 0},
        {"DW_OP_const1s -1 DW_OP_const1u 64 DW_OP_shr", 8, 0},
        {"DW_OP_const1s -1 DW_OP_lit4 DW_OP_shr", 4, 0x0fffffff},
        {"DW_OP_const1u 0xf0 DW_OP_const1u 0x3c DW_OP_and DW_OP_lit1 DW_OP_or DW_OP_lit3 DW_OP_xor",
         8, 0x32},
        {"DW_OP_lit7 DW_OP_lit5 DW_OP_plus", 2, 12},
        {"DW_OP_const2u 0xffff DW_OP_lit1 DW_OP_plus", 2, 0},
    };
    const dwexpr_eval_params p = {.result_kind = DWEXPR_RESULT_VALUE};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dwexpr_result r;
        dwexpr_status st = three_ways(cases[i].text, cases[i].asz, &p, &r);
        TAP_OK(st == DWEXPR_OK && r.kind == DWEXPR_RESULT_VALUE && r.value.bits == cases[i].want &&
                   r.value.type.bits == 8u * cases[i].asz && r.value.type.encoding == 0,
               "%s (%u-byte addresses) = 0x%llx", cases[i].text, (unsigned)cases[i].asz,
               (unsigned long long)cases[i].want);
    }
    dwexpr_result r;
    CHECK_U64(three_ways("DW_OP_lit1 DW_OP_plus", 8, &p, &r), DWEXPR_E_STACK_EMPTY,
              "plus with one operand");
    CHECK_U64(three_ways("DW_OP_reg1 DW_OP_lit1 DW_OP_plus", 8, &p, &r), DWEXPR_E_NOT_VALUE,
              "plus on a register location");
    CHECK_U64(three_ways("DW_OP_breg1 0 DW_OP_lit1 DW_OP_plus", 8, &p, &r), DWEXPR_OK,
              "plus on a memory location (its address)");
}


/* Assemble and decode TEXT for a generic64 unit (the bytes are static:
 * programs borrow block operands). */
static dwexpr_program *decode_text(const char *text, uint8_t *bytes, size_t cap)
{
    dwexpr_unit unit = {.addr_size = 8, .offset_size = 4, .version = 5};
    size_t len = 0;
    dwexpr_error err;
    dwexpr_program *prog = NULL;
    if (dwexpr_asm(text, &unit, NULL, bytes, cap, &len, &err) != DWEXPR_OK ||
        dwexpr_program_decode(bytes, len, &unit, &prog, &err) != DWEXPR_OK)
        return NULL;
    return prog;
}

/* Folded results (lib/fold.c) live in the program: they outlive later
 * evaluations on the same context, and are what the loop computes. */
static void test_fold(void)
{
    static uint8_t b1[64], b2[64];
    dwexpr_program *folded = decode_text("DW_OP_reg3 DW_OP_piece 8 DW_OP_lit7 DW_OP_stack_value "
                                         "DW_OP_piece 4 DW_OP_addr 0x1000 DW_OP_piece 2", b1,
                                         sizeof b1);
    dwexpr_program *other = decode_text("DW_OP_breg7 16 DW_OP_lit9 DW_OP_plus DW_OP_stack_value",
                                        b2, sizeof b2);
    TAP_OK(folded && other, "both programs decode");
    if (!folded || !other)
        return;
    dwexpr_result r, o, loop;
    dwexpr_status st = dwexpr_eval(ctx_a, folded, &target, NULL, NULL, &r);
    CHECK_U64(st, DWEXPR_OK, "a target-free piece list evaluates");
    dwexpr_eval_params traced = {.trace = let_run};
    CHECK_U64(dwexpr_eval(ctx_c, folded, &target, NULL, &traced, &loop), DWEXPR_OK,
              "the loop evaluates it too");
    TAP_OK(same_result(&r, &loop), "the folded result is the loop's");
    CHECK_U64(dwexpr_eval(ctx_a, other, &target, NULL, NULL, &o), DWEXPR_OK,
              "another program on the same context");
    if (fast_path_built())
        TAP_OK(same_result(&r, &loop) && part(&r, 1) &&
                   part(&r, 1)->loc.slds[0].u.imp.data[0] == 7 && part(&r, 2) &&
                   part(&r, 2)->loc.slds[0].byte_offset == 0x1000,
               "the first result is intact after another evaluation (it points into the "
               "program)");
    else /* no fold without the fast path (build_facts.h): valid until the next evaluation */
        TAP_OK(dwexpr_eval(ctx_a, folded, &target, NULL, NULL, &r) == DWEXPR_OK &&
                   same_result(&r, &loop),
               "no fold on this build: evaluated again, the loop's result");

    /* a thread given: register places record it, so the fold is not used */
    dwexpr_eval_params th = {.ctx = DWEXPR_CTX_THREAD, .thread = 5};
    CHECK_U64(dwexpr_eval(ctx_a, folded, &target, NULL, &th, &r), DWEXPR_OK, "with a thread");
    TAP_OK(part(&r, 0) && part(&r, 0)->loc.slds[0].thread == 5 &&
               part(&r, 0)->loc.slds[0].ctx == DWEXPR_CTX_THREAD,
           "the register part records thread 5");

    /* a register part too large for its register (reg_size of 40 is 2):
     * the guard sends the evaluation to the loop, which reports it */
    static uint8_t b3[16];
    dwexpr_program *big = decode_text("DW_OP_regx 40 DW_OP_piece 4", b3, sizeof b3);
    CHECK_U64(big ? dwexpr_eval(ctx_a, big, &target, NULL, NULL, &r) : DWEXPR_E_USAGE,
              DWEXPR_E_PIECE_RANGE, "a 4-byte part of a 2-byte register is refused");
    TAP_OK(dwexpr_ctx_error(ctx_a)->offset == 2, "at the DW_OP_piece (offset 2)");
    dwexpr_program_free(big);

    /* a context with a small fixed scratch does not use folds; same result */
    static _Alignas(16) unsigned char mem[48 << 10];
    dwexpr_ctx *small = NULL;
    dwexpr_limits lim = {.stack = 8};
    CHECK_U64(dwexpr_ctx_init_static(mem, sizeof mem, &lim, &small), DWEXPR_OK,
              "a 48 KiB static context");
    if (small) {
        CHECK_U64(dwexpr_eval(small, folded, &target, NULL, NULL, &r), DWEXPR_OK,
                  "the piece list on it");
        TAP_OK(same_result(&r, &loop) && (const unsigned char *)r.loc.slds >= mem &&
                   (const unsigned char *)r.loc.slds < mem + sizeof mem,
               "the same result, built in the context's scratch");
    }
    dwexpr_program_free(folded);
    dwexpr_program_free(other);
}

/* Programs of every size around dwexpr_program_decode's scratch (it
 * decodes into room for LEN operations, on its stack up to 24 bytes, then
 * keeps exactly the program): N DW_OP_nop and a final operation, decoded,
 * listed and evaluated; also a fold with 8 register guards (the most it
 * keeps) and one with 9 (not folded), each against the loop. */
static void test_program_sizes(void)
{
    static const size_t sizes[] = {0, 1, 22, 23, 24, 25, 26, 63, 64, 65, 300};
    static const dwexpr_unit unit = {.addr_size = 8, .offset_size = 4, .version = 5};
    static uint8_t bytes[400];
    dwexpr_eval_params traced = {.trace = let_run};
    int bad = 0;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        for (int last = 0; last < 3; last++) {
            const size_t n = sizes[k];
            memset(bytes, 0x96, n); /* DW_OP_nop */
            size_t len = n;
            if (last == 0) {
                bytes[len++] = 0x35; /* DW_OP_lit5 (folds) */
            } else if (last == 1) {
                bytes[len++] = 0x77; /* DW_OP_breg7 -8 (asks the target) */
                bytes[len++] = 0x78;
            } else {
                bytes[len++] = 0xa3; /* DW_OP_entry_value 1 DW_OP_reg5 (a block) */
                bytes[len++] = 0x01;
                bytes[len++] = 0x55;
            }
            dwexpr_program *prog = NULL;
            dwexpr_error err;
            if (dwexpr_program_decode(bytes, len, &unit, &prog, &err) != DWEXPR_OK) {
                bad++;
                continue;
            }
            dwexpr_op view;
            int ok = dwexpr_program_count(prog) == n + 1;
            for (size_t i = 0; ok && i < n; i++)
                ok = dwexpr_program_op(prog, i, &view)->id == DWEXPR_OP_nop &&
                     view.offset == i;
            const dwexpr_op *op = dwexpr_program_op(prog, n, &view);
            ok = ok && op && op->offset == n && dwexpr_program_op(prog, n + 1, &view) == NULL;
            if (ok && last == 2)
                ok = op->block == bytes + n + 2 && op->block_len == 1;
            dwexpr_result r, loop;
            dwexpr_status s1 = dwexpr_eval(ctx_a, prog, &target, NULL, NULL, &r);
            dwexpr_status s2 = dwexpr_eval(ctx_c, prog, &target, NULL, &traced, &loop);
            ok = ok && s1 == s2 && (s1 != DWEXPR_OK || same_result(&r, &loop));
            if (!ok) {
                bad++;
                printf("# %zu nops, last operation %d: count %zu\n", n, last,
                       dwexpr_program_count(prog));
            }
            dwexpr_program_free(prog);
        }
    }
    CHECK_U64(bad, 0, "programs of 0 to 300 DW_OP_nop and a last operation decode, list and "
                      "evaluate as the loop does");

    /* DW_OP_reg0 .. DW_OP_reg8, a 4-byte piece each: 8 and 9 guards */
    for (int parts = 8; parts <= 9; parts++) {
        uint8_t b[32];
        size_t len = 0;
        for (int i = 0; i < parts; i++) {
            b[len++] = (uint8_t)(0x50 + i);
            b[len++] = 0x93; /* DW_OP_piece 4 */
            b[len++] = 0x04;
        }
        dwexpr_program *prog = NULL;
        dwexpr_error err;
        dwexpr_result r, loop;
        dwexpr_status st = dwexpr_program_decode(b, len, &unit, &prog, &err);
        CHECK_U64(st, DWEXPR_OK, "a piece list of registers decodes");
        if (st)
            continue;
        st = dwexpr_eval(ctx_a, prog, &target, NULL, NULL, &r);
        CHECK_U64(st, DWEXPR_OK, "and evaluates");
        CHECK_U64(dwexpr_eval(ctx_c, prog, &target, NULL, &traced, &loop), DWEXPR_OK,
                  "through the loop too");
        TAP_OK(st == DWEXPR_OK && same_result(&r, &loop) && r.loc.count == 1 &&
                   r.loc.slds[0].kind == DWEXPR_LOC_COMPOSITE &&
                   r.loc.slds[0].u.comp->count == (size_t)parts,
               "%d register parts, as the loop gives them", parts);
        /* the guards ask reg_size: when it fails, the loop's answer */
        reg_size_fails = 1;
        dwexpr_status s1 = dwexpr_eval(ctx_a, prog, &target, NULL, NULL, &r);
        dwexpr_status s2 = dwexpr_eval(ctx_c, prog, &target, NULL, &traced, &loop);
        reg_size_fails = 0;
        TAP_OK(s1 == s2 && same_error(dwexpr_ctx_error(ctx_a), dwexpr_ctx_error(ctx_c)) &&
                   (s1 != DWEXPR_OK || same_result(&r, &loop)),
               "%d register parts with reg_size failing: the loop's outcome (%s)", parts,
               dwexpr_status_name(s1));
        dwexpr_program_free(prog);
    }
}

/* After a failure, a success through any shortcut leaves an error record
 * that reads as no failure (status OK, offset -1, no operation, empty
 * message), as the loop leaves it. */
static void test_error_record(void)
{
    static uint8_t bytes[4][32];
    const char *texts[4] = {"DW_OP_reg5", "DW_OP_lit3 DW_OP_stack_value", "DW_OP_breg7 8",
                            "DW_OP_breg7 8 DW_OP_lit1 DW_OP_and DW_OP_stack_value"};
    const char *why[4] = {"a folded DW_OP_reg", "a folded literal", "the producer fast path",
                          "the byte fast path"};
    dwexpr_program *bad = decode_text("DW_OP_lit1 DW_OP_plus", bytes[0] + 16, 16);
    for (int i = 0; i < 4; i++) {
        dwexpr_program *prog = decode_text(texts[i], bytes[i], 16);
        dwexpr_result r;
        for (int bytes_path = 0; bytes_path < 2; bytes_path++) {
            dwexpr_status sb = bad ? dwexpr_eval(ctx_a, bad, &target, NULL, NULL, &r)
                                   : DWEXPR_E_USAGE;
            dwexpr_status st;
            if (bytes_path) {
                dwexpr_unit unit = {.addr_size = 8, .offset_size = 4, .version = 5};
                uint8_t code[32];
                size_t len = 0;
                dwexpr_error e;
                st = dwexpr_asm(texts[i], &unit, NULL, code, sizeof code, &len, &e);
                if (st == DWEXPR_OK)
                    st = dwexpr_eval_bytes(ctx_a, code, len, &unit, &target, NULL, NULL, &r);
            } else {
                st = prog ? dwexpr_eval(ctx_a, prog, &target, NULL, NULL, &r) : DWEXPR_E_USAGE;
            }
            const dwexpr_error *e = dwexpr_ctx_error(ctx_a);
            TAP_OK(sb == DWEXPR_E_STACK_EMPTY && st == DWEXPR_OK && e->status == DWEXPR_OK &&
                       e->offset == -1 && e->opcode == -1 && e->op_name == NULL &&
                       e->message[0] == 0,
                   "%s%s after a failure: the error record reads as no failure", why[i],
                   bytes_path ? " (from the bytes)" : "");
        }
        dwexpr_program_free(prog);
    }
    dwexpr_program_free(bad);
}

int main(void)
{
    if (dwexpr_ctx_new(NULL, &ctx_a) || dwexpr_ctx_new(NULL, &ctx_b) ||
        dwexpr_ctx_new(NULL, &ctx_c))
        return 1;
    test_pieces();
    test_one();
    test_short_consts();
    test_pieces_from_bytes();
    test_lane_part();
    test_limits();
    test_quick_decode();
    test_generic_arith();
    test_fold();
    test_program_sizes();
    test_error_record();
    test_implicit_pointer();
    test_implicit_value();
    test_branches();
    test_branches_from_bytes();
    dwexpr_ctx_free(ctx_a);
    dwexpr_ctx_free(ctx_b);
    dwexpr_ctx_free(ctx_c);
    return TAP_DONE();
}
