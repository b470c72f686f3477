/* test/test_frontends.c: the producer-side front ends through the C API
 * (dwexpr/diexpr.h, dwexpr/spirv.h): text round trips, every LLVM-internal
 * and SPIR-V operation by table, lowering determinism, evaluation through
 * dwexpr_lowered_eval (synthesized base types and DIEs answered without
 * the caller's help), and a SPIR-V module built word by word: every
 * truncation of it fails cleanly. Expected values by hand (LangRef
 * "DIExpression", OpenCL.DebugInfo.100 3.6, DWARF 5 7.7.1). */
#include <stdlib.h>
#include "dwexpr.h"
#include "tap.h"

static const dwexpr_unit unit = {.addr_size = 8, .offset_size = 4, .version = 5};

/* Registers: N holds 0x100 * N + 0x11 (8 bytes little-endian). */
static dwexpr_status reg_read(void *user, const dwexpr_regref *r, uint64_t off, void *buf, size_t len)
{
    uint64_t v = 0x100u * r->regno + 0x11;
    uint8_t b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    if (off > 8 || len > 8 - off)
        return DWEXPR_E_OUT_OF_RANGE;
    memcpy(buf, b + off, len);
    return DWEXPR_OK;
}

static dwexpr_status reg_size(void *user, uint32_t regno, uint32_t *bytes)
{
    *bytes = 8;
    return DWEXPR_OK;
}

static const dwexpr_target target = {.size = sizeof target, .reg_read = reg_read,
                                     .reg_size = reg_size};

/* Lower one record of TEXT with ARGS; hex of the bytes into HEX. */
static dwexpr_status lower_hex(const char *text, dwexpr_dbg_kind kind, const dwexpr_diarg *args,
                               size_t nargs, char *hex, dwexpr_lowered **keep)
{
    dwexpr_diexpr *e = NULL;
    dwexpr_error err;
    dwexpr_status s = dwexpr_diexpr_parse(text, &e, &err);
    hex[0] = 0;
    if (s != DWEXPR_OK)
        return s;
    dwexpr_dbg_record r = {e, kind, args, nargs};
    dwexpr_lowered *l = NULL;
    s = dwexpr_diexpr_lower(&r, 1, &unit, &l, &err);
    dwexpr_diexpr_free(e);
    if (s != DWEXPR_OK)
        return s;
    size_t n;
    const uint8_t *b = dwexpr_lowered_bytes(l, &n);
    for (size_t i = 0; i < n; i++)
        sprintf(hex + 2 * i, "%02x", b[i]);
    if (keep)
        *keep = l;
    else
        dwexpr_lowered_free(l);
    return DWEXPR_OK;
}

static void test_text(void)
{
    static const char *const canon[] = {
        "!DIExpression()",
        "!DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_plus)",
        "!DIExpression(DW_OP_LLVM_fragment, 32, 16)",
        "!DIExpression(DW_OP_LLVM_convert, 16, DW_ATE_signed, DW_OP_LLVM_convert, 32, DW_ATE_unsigned)",
        "!DIExpression(DW_OP_LLVM_tag_offset, 7)",
        "!DIExpression(DW_OP_LLVM_entry_value, 1, DW_OP_stack_value)",
        "!DIExpression(DW_OP_LLVM_implicit_pointer)",
        "!DIExpression(DW_OP_LLVM_extract_bits_sext, 3, 5, DW_OP_LLVM_extract_bits_zext, 0, 2)",
        "!DIExpression(DW_OP_breg6, -8, DW_OP_LLVM_form_aspace_address)",
    };
    for (size_t i = 0; i < sizeof canon / sizeof canon[0]; i++) {
        dwexpr_diexpr *e = NULL;
        dwexpr_error err;
        char buf[256];
        TAP_OK(dwexpr_diexpr_parse(canon[i], &e, &err) == DWEXPR_OK, "parse %s", canon[i]);
        dwexpr_diexpr_format(e, buf, sizeof buf);
        CHECK_STR(buf, canon[i], "format gives the text back");
        dwexpr_diexpr_free(e);
    }
    /* every LLVM-internal operation has a name that parses back to it */
    for (unsigned d = 0; d < DWEXPR_DIOP_COUNT; d++) {
        char text[128];
        const char *name = dwexpr_diop_name((dwexpr_diop)d);
        snprintf(text, sizeof text, "DIExpression(%s%s)", name,
                 d == DWEXPR_DIOP_LLVM_implicit_pointer ? ""
                 : d == DWEXPR_DIOP_LLVM_tag_offset || d == DWEXPR_DIOP_LLVM_arg ||
                         d == DWEXPR_DIOP_LLVM_entry_value ? ", 1"
                 : d == DWEXPR_DIOP_LLVM_convert ? ", 8, 7" : ", 0, 8");
        dwexpr_diexpr *e = NULL;
        dwexpr_error err;
        TAP_OK(dwexpr_diexpr_parse(text, &e, &err) == DWEXPR_OK && dwexpr_diexpr_count(e) == 1 &&
                   dwexpr_diexpr_get(e, 0)->internal && dwexpr_diexpr_get(e, 0)->id == d,
               "table row %s parses", name);
        dwexpr_diexpr_free(e);
    }
    TAP_OK(dwexpr_diop_name(DWEXPR_DIOP_COUNT) == NULL, "no name past the table");

    /* errors carry the character offset */
    static const struct {
        const char *text;
        int64_t off;
    } bad[] = {
        {"!DIExpression(DW_OP_nope)", 14},
        {"!DIExpression(DW_OP_plus, 64)", 26},
        {"!DIExpression(DW_OP_LLVM_fragment, 0)", 37},
        {"!DIExpression(DW_OP_stack_value, DW_OP_deref)", 14},
        /* DIExpression::isValid: entry values of N = 1 only, no lone swap */
        {"!DIExpression(DW_OP_LLVM_entry_value, 2, DW_OP_plus_uconst, 1)", 14},
        {"!DIExpression(DW_OP_LLVM_entry_value, 0)", 14},
        {"!DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_entry_value, 2, DW_OP_deref)", 33},
        {"!DIExpression(DW_OP_swap)", 14},
        {"!DIExpression(DW_OP_deref", 25},
        {"DIExpression", 12},
        {"", 0},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        dwexpr_diexpr *e = NULL;
        dwexpr_error err;
        dwexpr_status s = dwexpr_diexpr_parse(bad[i].text, &e, &err);
        TAP_OK(s == DWEXPR_E_SYNTAX && e == NULL, "refused: '%s' (%s)", bad[i].text, err.message);
        CHECK_U64(err.offset, bad[i].off, "  at character %d", (int)bad[i].off);
    }
    /* from_ops applies the same placement rules */
    dwexpr_diexpr_op ops[2] = {{true, DWEXPR_DIOP_LLVM_fragment, 2, {0, 8}},
                               {false, DWEXPR_OP_deref, 0, {0, 0}}};
    dwexpr_diexpr *e = NULL;
    dwexpr_error err;
    TAP_OK(dwexpr_diexpr_from_ops(ops, 2, &e, &err) == DWEXPR_E_SYNTAX && err.offset == 0,
           "from_ops: fragment not last is refused at operation 0");
    TAP_OK(dwexpr_diexpr_from_ops(ops + 1, 1, &e, &err) == DWEXPR_OK, "from_ops: a deref alone");
    dwexpr_diexpr_free(e);
    e = NULL;
    /* LLVM's isValid looks at a lone DW_OP_swap only: with anything else
     * it is taken (the evaluation finds a short stack) */
    dwexpr_diexpr_op sw[3] = {{false, DWEXPR_OP_constu, 1, {1, 0}},
                              {false, DWEXPR_OP_swap, 0, {0, 0}},
                              {false, DWEXPR_OP_minus, 0, {0, 0}}};
    TAP_OK(dwexpr_diexpr_from_ops(sw + 1, 1, &e, &err) == DWEXPR_E_SYNTAX && err.offset == 0 &&
               strstr(err.message, "DW_OP_swap alone"),
           "from_ops: a lone DW_OP_swap is refused (%s)", err.message);
    TAP_OK(dwexpr_diexpr_from_ops(sw, 3, &e, &err) == DWEXPR_OK, "from_ops: constu 1; swap; minus");
    dwexpr_diexpr_free(e);
    e = NULL;
    TAP_OK(dwexpr_diexpr_from_ops(sw + 1, 2, &e, &err) == DWEXPR_OK, "from_ops: swap; minus");
    dwexpr_diexpr_free(e);

    dwexpr_diarg a;
    TAP_OK(dwexpr_diarg_parse("reg:6", &a) == DWEXPR_OK && a.kind == DWEXPR_DIARG_REG && a.value == 6,
           "operand reg:6");
    TAP_OK(dwexpr_diarg_parse("-8", &a) == DWEXPR_OK && a.kind == DWEXPR_DIARG_CONST &&
               a.is_signed && a.value == (uint64_t)-8, "operand -8");
    TAP_OK(dwexpr_diarg_parse("addr:0x10", &a) == DWEXPR_OK && a.kind == DWEXPR_DIARG_ADDR &&
               a.value == 0x10, "operand addr:0x10");
    TAP_OK(dwexpr_diarg_parse("$noreg", &a) == DWEXPR_OK && a.kind == DWEXPR_DIARG_UNDEF,
           "operand $noreg");
    TAP_OK(dwexpr_diarg_parse("reg:-1", &a) == DWEXPR_E_SYNTAX, "operand reg:-1 refused");
    TAP_OK(dwexpr_diarg_parse("addr:", &a) == DWEXPR_E_SYNTAX, "operand addr: refused");
}

static void test_lower_eval(void)
{
    char hex[128];
    dwexpr_diarg two[2] = {{DWEXPR_DIARG_REG, false, 1}, {DWEXPR_DIARG_REG, false, 2}};
    /* seed 004 DBG_VALUE_LIST: breg1 0; breg2 0; plus; stack_value */
    TAP_OK(lower_hex("!DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_plus, "
                     "DW_OP_stack_value)", DWEXPR_DBG_VALUE, two, 2, hex, NULL) == DWEXPR_OK,
           "lower the DBG_VALUE_LIST example");
    CHECK_STR(hex, "71007200229f", "  bytes");
    char again[128];
    lower_hex("!DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_plus, DW_OP_stack_value)",
              DWEXPR_DBG_VALUE, two, 2, again, NULL);
    CHECK_STR(again, hex, "lowering is deterministic");

    /* evaluation: %1 + %2 = 0x111 + 0x211 */
    dwexpr_lowered *l = NULL;
    dwexpr_ctx *ctx = NULL;
    dwexpr_result res;
    dwexpr_eval_params p = {.result_kind = DWEXPR_RESULT_VALUE};
    dwexpr_ctx_new(NULL, &ctx);
    lower_hex("!DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_plus)", DWEXPR_DBG_VALUE,
              two, 2, hex, &l);
    TAP_OK(dwexpr_lowered_eval(ctx, l, &target, NULL, &p, &res) == DWEXPR_OK &&
               res.kind == DWEXPR_RESULT_VALUE, "evaluate %%1 + %%2");
    CHECK_U64(res.value.bits, 0x322, "  value");
    TAP_OK(dwexpr_lowered_is_value(l), "  a #dbg_value describes a value");
    dwexpr_lowered_free(l);

    /* convert through synthesized types: the caller's target has no
     * base_type callback; s8 of 0x111 is 0x11, widened to s32 */
    dwexpr_diarg r1 = {DWEXPR_DIARG_REG, false, 1};
    lower_hex("!DIExpression(DW_OP_LLVM_convert, 8, DW_ATE_signed, DW_OP_LLVM_convert, 32, "
              "DW_ATE_signed)", DWEXPR_DBG_VALUE, &r1, 1, hex, &l);
    CHECK_U64(dwexpr_lowered_type_count(l), 2, "two base types synthesized");
    CHECK_U64(dwexpr_lowered_type(l, 1)->die, DWEXPR_LOWERED_DIE_BASE + 0x10, "  second at base + 0x10");
    TAP_OK(dwexpr_lowered_eval(ctx, l, &target, NULL, &p, &res) == DWEXPR_OK, "evaluate the converts");
    CHECK_U64(res.value.bits, 0x11, "  value");
    CHECK_U64(res.value.type.bits, 32, "  of the last type");
    CHECK_U64(res.value.type.encoding, DW_ATE_signed, "  signed");
    dwexpr_lowered_free(l);

    /* implicit pointer: the artificial variable is answered by the wrap */
    dwexpr_diarg c7 = {DWEXPR_DIARG_CONST, false, 7};
    lower_hex("!DIExpression(DW_OP_LLVM_implicit_pointer)", DWEXPR_DBG_VALUE, &c7, 1, hex, &l);
    uint64_t die = 0;
    const uint8_t *db = NULL;
    size_t dn = 0;
    TAP_OK(dwexpr_lowered_die(l, 0, &die, &db, &dn) == DWEXPR_OK && dn == 2 && db[0] == 0x37 &&
               db[1] == 0x9f, "artificial variable: DW_OP_lit7; DW_OP_stack_value");
    dwexpr_lowered_target w;
    dwexpr_lowered_wrap(l, &target, NULL, &w);
    dwexpr_die d;
    TAP_OK(w.target.die(&w, &unit, die, true, &d) == DWEXPR_OK && d.kind == DWEXPR_DIE_EXPRLOC &&
               d.expr_len == 2, "the wrap answers for its DIE");
    TAP_OK(w.target.die(&w, &unit, die + 1, true, &d) == DWEXPR_E_NOT_FOUND,
           "  and not for others (the inner target has none)");
    TAP_OK(w.target.mem_read == NULL, "  a callback the inner target lacks stays NULL");
    dwexpr_lowered_free(l);

    /* tag offset */
    lower_hex("!DIExpression(DW_OP_LLVM_tag_offset, 5)", DWEXPR_DBG_DECLARE, &r1, 1, hex, &l);
    uint64_t tag = 0;
    TAP_OK(dwexpr_lowered_tag_offset(l, &tag) && tag == 5, "tag offset recorded");
    CHECK_STR(hex, "7100", "  and no bytes for it");
    dwexpr_lowered_free(l);

    /* two fragments into one composite */
    dwexpr_diexpr *a = NULL, *b = NULL;
    dwexpr_error err;
    dwexpr_diexpr_parse("!DIExpression(DW_OP_LLVM_fragment, 32, 32)", &a, &err);
    dwexpr_diexpr_parse("!DIExpression(DW_OP_LLVM_fragment, 0, 32)", &b, &err);
    dwexpr_dbg_record recs[2] = {{a, DWEXPR_DBG_VALUE, &two[0], 1}, {b, DWEXPR_DBG_VALUE, &two[1], 1}};
    TAP_OK(dwexpr_diexpr_lower(recs, 2, &unit, &l, &err) == DWEXPR_OK, "lower two fragments");
    size_t n;
    const uint8_t *bytes = dwexpr_lowered_bytes(l, &n);
    static const uint8_t want[] = {0x52, 0x93, 0x04, 0x51, 0x93, 0x04};
    TAP_OK(n == sizeof want && memcmp(bytes, want, n) == 0, "  reg2 piece 4 reg1 piece 4");
    p.result_kind = DWEXPR_RESULT_LOCATION;
    TAP_OK(dwexpr_lowered_eval(ctx, l, &target, NULL, &p, &res) == DWEXPR_OK &&
               res.loc.count == 1 && res.loc.slds[0].kind == DWEXPR_LOC_COMPOSITE &&
               res.loc.slds[0].u.comp->count == 2, "  a composite of two parts");
    dwexpr_lowered_free(l);
    recs[1].expr = a;
    TAP_OK(dwexpr_diexpr_lower(recs, 2, &unit, &l, &err) == DWEXPR_E_SYNTAX,
           "the same fragment twice overlaps: %s", err.message);
    dwexpr_diexpr_free(a);
    dwexpr_diexpr_free(b);
    dwexpr_ctx_free(ctx);
}

static void test_spirv_text(void)
{
    /* every row of the table: name -> code -> name, and its DWARF lowering */
    /* each with the constant 5 as the initial value; a DebugValue gets
     * DW_OP_stack_value at its end or before its piece */
    static const char *const lowered[DWEXPR_SPIRV_OP_COUNT] = {
        "350610009f",   /* Deref; Constu 0 */
        "352210009f",   /* Plus; Constu 0 */
        "351c10009f",   /* Minus; Constu 0 */
        "35230110009f", /* PlusUconst 1; Constu 0 */
        "359f9d0800",   /* BitPiece 0 8 -> DW_OP_bit_piece 8 0 */
        "351610009f",   /* Swap; Constu 0 */
        "351810009f",   /* Xderef; Constu 0 */
        "359f",         /* StackValue */
        "35100110009f", /* Constu 1; Constu 0 */
        "359f9301",     /* Fragment 0 8 -> DW_OP_piece 1 */
    };
    for (uint32_t code = 0; code < DWEXPR_SPIRV_OP_COUNT; code++) {
        const char *name = dwexpr_spirv_op_name(code);
        char text[64], back[64];
        uint32_t nops = code == DWEXPR_SPIRV_OP_BitPiece || code == DWEXPR_SPIRV_OP_Fragment ? 2
                        : code == DWEXPR_SPIRV_OP_PlusUconst || code == DWEXPR_SPIRV_OP_Constu ? 1 : 0;
        bool last = code == DWEXPR_SPIRV_OP_BitPiece || code == DWEXPR_SPIRV_OP_Fragment ||
                    code == DWEXPR_SPIRV_OP_StackValue;
        snprintf(text, sizeof text, "%s%s%s", name, nops == 2 ? " 0 8" : nops ? " 1" : "",
                 last ? "" : " Constu 0");
        dwexpr_spirv_op ops[4];
        size_t n = 0;
        dwexpr_error err;
        TAP_OK(dwexpr_spirv_parse(text, DWEXPR_SPIRV_SET_OPENCL_100, ops, 4, &n, &err) == DWEXPR_OK &&
                   ops[0].code == code && ops[0].nops == nops, "SPIR-V %s parses", name);
        dwexpr_spirv_format(ops, n, back, sizeof back);
        CHECK_STR(back, text, "  and formats back");
        dwexpr_spirv_record r = {ops, n, false, {DWEXPR_DIARG_CONST, false, 5}};
        dwexpr_lowered *l = NULL;
        TAP_OK(dwexpr_spirv_lower(&r, 1, &unit, &l, &err) == DWEXPR_OK, "  lowers");
        size_t len;
        const uint8_t *b = dwexpr_lowered_bytes(l, &len);
        char hex[64] = "";
        for (size_t i = 0; i < len && i < 30; i++)
            sprintf(hex + 2 * i, "%02x", b[i]);
        CHECK_STR(hex, lowered[code], "  to DWARF");
        dwexpr_lowered_free(l);
    }
    TAP_OK(dwexpr_spirv_op_name(DWEXPR_SPIRV_OP_COUNT) == NULL, "no name past the table");
    dwexpr_spirv_op ops[2];
    size_t n;
    dwexpr_error err;
    TAP_OK(dwexpr_spirv_parse("Fragment 0 8", DWEXPR_SPIRV_SET_DEBUGINFO, ops, 2, &n, &err) ==
               DWEXPR_E_SYNTAX, "the DebugInfo set has no Fragment: %s", err.message);
    TAP_OK(dwexpr_spirv_parse("Deref Deref Deref", DWEXPR_SPIRV_SET_OPENCL_100, ops, 2, &n, &err) ==
               DWEXPR_E_NOSPACE && n == 3, "E_NOSPACE tells the count");
    TAP_OK(dwexpr_spirv_parse("PlusUconst x", DWEXPR_SPIRV_SET_OPENCL_100, ops, 2, &n, &err) ==
               DWEXPR_E_SYNTAX && err.offset == 11, "a non-number operand, at its character");

    /* 3.6: StackValue before BitPiece, as before Fragment (Fragment "has
     * the same semantics as BitPiece"): the DWARF value piece */
    static const struct {
        const char *text, *hex; /* hex NULL: refused */
    } sv[] = {
        {"StackValue BitPiece 0 8", "359f9d0800"},
        {"Constu 7 StackValue BitPiece 8 8", "3510079f9d0808"},
        {"StackValue Fragment 0 8", "359f9301"},
        {"StackValue Deref", NULL},
        {"StackValue Constu 1 BitPiece 0 8", NULL},
    };
    for (size_t i = 0; i < sizeof sv / sizeof sv[0]; i++) {
        dwexpr_spirv_op o[4];
        dwexpr_lowered *l = NULL;
        char hex[64] = "";
        TAP_OK(dwexpr_spirv_parse(sv[i].text, DWEXPR_SPIRV_SET_OPENCL_100, o, 4, &n, &err) ==
                   DWEXPR_OK, "SPIR-V %s parses", sv[i].text);
        dwexpr_spirv_record r = {o, n, false, {DWEXPR_DIARG_CONST, false, 5}};
        dwexpr_status st = dwexpr_spirv_lower(&r, 1, &unit, &l, &err);
        if (st == DWEXPR_OK) {
            size_t len;
            const uint8_t *b = dwexpr_lowered_bytes(l, &len);
            for (size_t k = 0; k < len && k < 30; k++)
                sprintf(hex + 2 * k, "%02x", b[k]);
        }
        if (sv[i].hex)
            CHECK_STR(hex, sv[i].hex, "  lowers");
        else
            TAP_OK(st == DWEXPR_E_SYNTAX && strstr(err.message, "DW_OP_stack_value must be"),
                   "  is refused: %s", err.message);
        dwexpr_lowered_free(l);
    }
    /* the DIExpression front end keeps LLVM's rule (DIExpression::isValid:
     * DW_OP_stack_value last or just before DW_OP_LLVM_fragment) */
    dwexpr_diexpr_op dops[3] = {{false, DWEXPR_OP_constu, 1, {5, 0}},
                                {false, DWEXPR_OP_stack_value, 0, {0, 0}},
                                {false, DWEXPR_OP_bit_piece, 2, {8, 0}}};
    dwexpr_diexpr *de = NULL;
    TAP_OK(dwexpr_diexpr_from_ops(dops, 3, &de, &err) == DWEXPR_E_SYNTAX && err.offset == 1,
           "DIExpression: DW_OP_stack_value before DW_OP_bit_piece is refused (at operation 1)");
    dwexpr_diexpr_free(de);
}

/* A minimal OpenCL.DebugInfo.100 module, word by word (SPIR-V 2.3
 * "Physical Layout"): DebugValue of "v" = OpConstant 9 with PlusUconst 3. */
static size_t build_module(uint32_t *w)
{
    size_t n = 0;
#define W(x) (w[n++] = (uint32_t)(x))
    W(0x07230203); W(0x00010000); W(0); W(20); W(0);
    /* %1 = OpExtInstImport "OpenCL.DebugInfo.100" (20 chars + NUL: 6 words) */
    W(8u << 16 | 11); W(1);
    const char *s = "OpenCL.DebugInfo.100";
    uint32_t sw[6] = {0};
    memcpy(sw, s, strlen(s));
    for (int i = 0; i < 6; i++)
        W(sw[i]);
    /* OpName %4 "k": a name for the constant (not its definition) */
    W(3u << 16 | 5); W(4); W('k');
    /* %2 = OpString "v" */
    W(3u << 16 | 7); W(2); W('v');
    /* %3 = OpTypeInt 32 0 ; %4 = OpConstant %3 9 */
    W(4u << 16 | 21); W(3); W(32); W(0);
    W(4u << 16 | 43); W(3); W(4); W(9);
    /* %5 = OpTypeVoid */
    W(2u << 16 | 19); W(5);
    /* %6 = DebugOperation PlusUconst 3 ; %7 = DebugExpression %6 */
    W(7u << 16 | 12); W(5); W(6); W(1); W(30); W(3); W(3);
    W(6u << 16 | 12); W(5); W(7); W(1); W(31); W(6);
    /* %8 = DebugLocalVariable %2 ... (name, then filler ids) */
    W(12u << 16 | 12); W(5); W(8); W(1); W(26); W(2); W(5); W(5); W(1); W(1); W(5); W(0);
    /* %9 = DebugValue %8 %4 %7 */
    W(8u << 16 | 12); W(5); W(9); W(1); W(29); W(8); W(4); W(7);
#undef W
    return n;
}

static void test_module(void)
{
    uint32_t w[128];
    size_t nw = build_module(w);
    dwexpr_spirv_module *m = NULL;
    dwexpr_error err = {0}; /* written only on a failure */
    TAP_OK(dwexpr_spirv_module_read((const uint8_t *)w, 4 * nw, &m, &err) == DWEXPR_OK,
           "read a hand-built module (%s)", err.message);
    TAP_OK(dwexpr_spirv_module_set(m) == DWEXPR_SPIRV_SET_OPENCL_100, "  its debug set");
    CHECK_U64(dwexpr_spirv_module_count(m), 1, "  one DebugValue");
    const dwexpr_spirv_entry *e = dwexpr_spirv_module_entry(m, 0);
    CHECK_STR(e->name, "v", "  variable name");
    TAP_OK(e->has_const && e->const_value == 9 && !e->is_declare, "  its value is the constant 9");
    CHECK_STR(e->operand_name, "k", "  whose OpName is k");
    TAP_OK(e->nops == 1 && e->ops[0].code == DWEXPR_SPIRV_OP_PlusUconst && e->ops[0].operand[0] == 3,
           "  expression PlusUconst 3");
    dwexpr_spirv_record r = {e->ops, e->nops, false, {DWEXPR_DIARG_CONST, false, e->const_value}};
    dwexpr_lowered *l = NULL;
    dwexpr_ctx *ctx = NULL;
    dwexpr_result res;
    dwexpr_eval_params p = {.result_kind = DWEXPR_RESULT_LOCATION};
    dwexpr_ctx_new(NULL, &ctx);
    TAP_OK(dwexpr_spirv_lower(&r, 1, &unit, &l, &err) == DWEXPR_OK &&
               dwexpr_lowered_eval(ctx, l, &target, NULL, &p, &res) == DWEXPR_OK &&
               res.loc.slds[0].kind == DWEXPR_LOC_IMPLICIT && res.loc.slds[0].u.imp.data[0] == 12,
           "  evaluates to an implicit 9 + 3 (a DebugValue computed with stack_value)");
    dwexpr_lowered_free(l);
    dwexpr_ctx_free(ctx);
    TAP_OK(dwexpr_spirv_module_entry(m, 1) == NULL, "  no second entry");
    dwexpr_spirv_module_free(m);

    /* every shorter length: no crash, no success past a cut instruction */
    int bad = 0;
    for (size_t len = 0; len < 4 * nw; len++) {
        dwexpr_status s = dwexpr_spirv_module_read((const uint8_t *)w, len, &m, &err);
        if (s == DWEXPR_OK) {
            /* only cuts at instruction boundaries read, with fewer entries */
            if (dwexpr_spirv_module_count(m) != 0)
                bad++;
            dwexpr_spirv_module_free(m);
        } else if (dwexpr_status_class(s) != DWEXPR_CLASS_DECODE || !err.message[0]) {
            bad++;
        } else if (len % 4 && s != DWEXPR_E_TRUNCATED) {
            bad++;
        }
    }
    CHECK_U64(bad, 0, "every truncation fails with a decode error or reads fewer entries");

    /* byte-swapped words read the same */
    uint32_t sw[128];
    for (size_t i = 0; i < nw; i++)
        sw[i] = (w[i] >> 24) | (w[i] >> 8 & 0xff00) | (w[i] << 8 & 0xff0000) | (w[i] << 24);
    TAP_OK(dwexpr_spirv_module_read((const uint8_t *)sw, 4 * nw, &m, &err) == DWEXPR_OK &&
               dwexpr_spirv_module_count(m) == 1, "big-endian words");
    dwexpr_spirv_module_free(m);

    /* a DebugOperation code the table lacks */
    w[nw - 8 - 12 - 6 - 7 + 5] = 42;
    TAP_OK(dwexpr_spirv_module_read((const uint8_t *)w, 4 * nw, &m, &err) == DWEXPR_E_UNKNOWN_OP,
           "unknown DebugOperation 42: %s", err.message);
    w[nw - 8 - 12 - 6 - 7 + 5] = 3;
    w[0] = 0xdeadbeef;
    TAP_OK(dwexpr_spirv_module_read((const uint8_t *)w, 4 * nw, &m, &err) == DWEXPR_E_BAD_OPERAND &&
               err.offset == 0, "bad magic");
}

int main(void)
{
    test_text();
    test_lower_eval();
    test_spirv_text();
    test_module();
    return TAP_DONE();
}
