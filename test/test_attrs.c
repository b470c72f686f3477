/* test/test_attrs.c: the SIMT attribute helpers (dwexpr/attrs.h) against
 * the seed's "Debugging Information Entry Attributes": both attribute
 * code tables, DW_AT_LLVM_lanes, DW_AT_LLVM_augmentation strings, and
 * DW_AT_LLVM_lane_pc / DW_AT_LLVM_active_lane on a mock wave64 target.
 * Expected results are worked out by hand from the seed, in comments. */
#include <stdlib.h>
#include "dwexpr.h"
#include "tap.h"

/* ---- attribute codes ---- */

/* Seed "Attribute Encodings" and current LLVM (amdgpu-and-encodings.md). */
static void test_codes(void)
{
    CHECK_U64(dwexpr_llvm_attr_from_code(0x3e08, DWEXPR_AT_CODES_SEED),
              DWEXPR_LLVM_AT_active_lane, "seed 0x3e08 is active_lane");
    CHECK_U64(dwexpr_llvm_attr_from_code(0x3e09, DWEXPR_AT_CODES_SEED),
              DWEXPR_LLVM_AT_augmentation, "seed 0x3e09 is augmentation");
    CHECK_U64(dwexpr_llvm_attr_from_code(0x3e0a, DWEXPR_AT_CODES_SEED), DWEXPR_LLVM_AT_lanes,
              "seed 0x3e0a is lanes");
    CHECK_U64(dwexpr_llvm_attr_from_code(0x3e0b, DWEXPR_AT_CODES_SEED), DWEXPR_LLVM_AT_lane_pc,
              "seed 0x3e0b is lane_pc");
    CHECK_U64(dwexpr_llvm_attr_from_code(0x3e0c, DWEXPR_AT_CODES_SEED),
              DWEXPR_LLVM_AT_vector_size, "seed 0x3e0c is vector_size");
    CHECK_U64(dwexpr_llvm_attr_from_code(0x3e11, DWEXPR_AT_CODES_CURRENT), DWEXPR_LLVM_AT_lanes,
              "current 0x3e11 is lanes");
    CHECK_U64(dwexpr_llvm_attr_from_code(0x3e12, DWEXPR_AT_CODES_CURRENT),
              DWEXPR_LLVM_AT_lane_pc, "current 0x3e12 is lane_pc");
    CHECK_U64(dwexpr_llvm_attr_from_code(0x3e13, DWEXPR_AT_CODES_CURRENT),
              DWEXPR_LLVM_AT_vector_size, "current 0x3e13 is vector_size");
    CHECK_U64(dwexpr_llvm_attr_from_code(0x3e0f, DWEXPR_AT_CODES_CURRENT),
              DWEXPR_LLVM_AT_memory_space, "current 0x3e0f is memory_space");
    CHECK_U64(dwexpr_llvm_attr_from_code(0x3e10, DWEXPR_AT_CODES_CURRENT),
              DWEXPR_LLVM_AT_address_space, "current 0x3e10 is address_space");
    /* the tables differ: a code of one table means nothing in the other */
    CHECK_U64(dwexpr_llvm_attr_from_code(0x3e08, DWEXPR_AT_CODES_CURRENT), DWEXPR_LLVM_AT_NONE,
              "0x3e08 is not an SIMT attribute for current LLVM producers");
    CHECK_U64(dwexpr_llvm_attr_from_code(0x3e12, DWEXPR_AT_CODES_SEED), DWEXPR_LLVM_AT_NONE,
              "0x3e12 is not in the seed table");
    CHECK_U64(dwexpr_llvm_attr_from_code(0x3e0b, DWEXPR_AT_CODES_ANY), DWEXPR_LLVM_AT_lane_pc,
              "ANY accepts the seed's lane_pc");
    CHECK_U64(dwexpr_llvm_attr_from_code(0x3e12, DWEXPR_AT_CODES_ANY), DWEXPR_LLVM_AT_lane_pc,
              "ANY accepts the current lane_pc");
    CHECK_U64(dwexpr_llvm_attr_from_code(0x3e0d, DWEXPR_AT_CODES_ANY), DWEXPR_LLVM_AT_NONE,
              "0x3e0d is none of them");
    CHECK_U64(dwexpr_llvm_attr_from_code(0, DWEXPR_AT_CODES_ANY), DWEXPR_LLVM_AT_NONE,
              "0 is none of them");
    /* and back */
    CHECK_U64(dwexpr_llvm_attr_code(DWEXPR_LLVM_AT_lane_pc, DWEXPR_AT_CODES_SEED), 0x3e0b,
              "lane_pc code in the seed table");
    CHECK_U64(dwexpr_llvm_attr_code(DWEXPR_LLVM_AT_lane_pc, DWEXPR_AT_CODES_CURRENT), 0x3e12,
              "lane_pc code in the current table");
    CHECK_U64(dwexpr_llvm_attr_code(DWEXPR_LLVM_AT_active_lane, DWEXPR_AT_CODES_CURRENT), 0,
              "active_lane has no current code");
    CHECK_U64(dwexpr_llvm_attr_code(DWEXPR_LLVM_AT_augmentation, DWEXPR_AT_CODES_CURRENT), 0,
              "augmentation has no current code");
    CHECK_U64(dwexpr_llvm_attr_code(DWEXPR_LLVM_AT_memory_space, DWEXPR_AT_CODES_SEED), 0,
              "memory_space has no seed code");
    CHECK_STR(dwexpr_llvm_attr_name(DWEXPR_LLVM_AT_active_lane), "DW_AT_LLVM_active_lane",
              "name of active_lane");
    CHECK_STR(dwexpr_llvm_attr_name(DWEXPR_LLVM_AT_NONE), "?", "name of none");
}

/* Seed "DW_AT_LLVM_lanes": default 1, ill-formed if 0. */
static void test_lanes(void)
{
    uint32_t n = 7;
    CHECK_U64(dwexpr_llvm_lanes(false, 0, &n), DWEXPR_OK, "absent lanes attribute");
    CHECK_U64(n, 1, "absent lanes attribute means 1 lane");
    CHECK_U64(dwexpr_llvm_lanes(true, 64, &n), DWEXPR_OK, "lanes 64");
    CHECK_U64(n, 64, "lanes 64 is 64");
    CHECK_U64(dwexpr_llvm_lanes(true, 0, &n), DWEXPR_E_ILL_FORMED, "lanes 0 is ill-formed");
    CHECK_U64(dwexpr_status_class(DWEXPR_E_ILL_FORMED), DWEXPR_CLASS_ILL_FORMED,
              "... of class ill_formed");
    CHECK_U64(dwexpr_llvm_lanes(true, (uint64_t)1 << 32, &n), DWEXPR_E_ILL_FORMED,
              "lanes 2^32 is out of range");
}

/* ---- augmentation strings ---- */

/* Parse S expecting a syntax error at byte OFFSET. */
static void aug_bad(const char *s, int64_t offset, const char *why)
{
    dwexpr_augmentation a[4];
    dwexpr_error e;
    size_t n = 99;
    memset(&e, 0, sizeof e);
    dwexpr_status st = dwexpr_augmentation_parse(s, strlen(s), a, 4, &n, &e);
    CHECK_U64(st, DWEXPR_E_SYNTAX, "\"%s\": %s", s, why);
    CHECK_U64((uint64_t)e.offset, (uint64_t)offset, "\"%s\": error at offset %lld", s,
              (long long)offset);
    TAP_OK(e.message[0] != 0, "\"%s\": has a message (%s)", s, e.message);
}

/* Seed "DW_AT_LLVM_augmentation": [vendor:vX.Y[:options]]... */
static void test_augmentation(void)
{
    /* the seed's own example */
    const char *ex = "[abc:v0.0][def:v1.2:feature-a=on,feature-b=3]";
    dwexpr_augmentation a[4];
    dwexpr_error e;
    size_t n = 0;
    memset(&e, 0, sizeof e);
    CHECK_U64(dwexpr_augmentation_parse(ex, strlen(ex), a, 4, &n, &e), DWEXPR_OK,
              "the seed's example parses");
    CHECK_U64(n, 2, "two entries");
    TAP_OK(a[0].vendor_len == 3 && memcmp(a[0].vendor, "abc", 3) == 0, "entry 0 vendor abc");
    CHECK_U64(a[0].major, 0, "entry 0 major 0");
    CHECK_U64(a[0].minor, 0, "entry 0 minor 0");
    TAP_OK(a[0].options == NULL && a[0].options_len == 0, "entry 0 has no options");
    TAP_OK(a[1].vendor_len == 3 && memcmp(a[1].vendor, "def", 3) == 0, "entry 1 vendor def");
    CHECK_U64(a[1].major, 1, "entry 1 major 1");
    CHECK_U64(a[1].minor, 2, "entry 1 minor 2");
    TAP_OK(a[1].options_len == strlen("feature-a=on,feature-b=3") &&
               memcmp(a[1].options, "feature-a=on,feature-b=3", a[1].options_len) == 0,
           "entry 1 options");

    /* "If not present, or if the string is empty, then the compilation
     * unit has no augmentation string." */
    n = 5;
    CHECK_U64(dwexpr_augmentation_parse("", 0, NULL, 0, &n, &e), DWEXPR_OK, "empty string");
    CHECK_U64(n, 0, "empty string has no entries");

    /* multi-digit versions, empty options, options with ':' and '[' */
    const char *s2 = "[AMD:v10.20:][x-y:v3.0:a:b[c]";
    n = 0;
    CHECK_U64(dwexpr_augmentation_parse(s2, strlen(s2), a, 4, &n, &e), DWEXPR_OK,
              "versions with several digits, empty options");
    CHECK_U64(n, 2, "... two entries");
    CHECK_U64(a[0].major, 10, "... major 10");
    CHECK_U64(a[0].minor, 20, "... minor 20");
    TAP_OK(a[0].options != NULL && a[0].options_len == 0, "... ':]' is an empty option string");
    TAP_OK(a[1].options_len == 5 && memcmp(a[1].options, "a:b[c", 5) == 0,
           "... options may hold ':' and '[' (only ']' is excluded)");

    /* too many for the caller's array: the count still comes back */
    n = 0;
    CHECK_U64(dwexpr_augmentation_parse(ex, strlen(ex), a, 1, &n, &e), DWEXPR_E_NOSPACE,
              "room for one entry only");
    CHECK_U64(n, 2, "... count is still 2");

    /* malformed strings: class usage (E_SYNTAX) with the offset */
    aug_bad("abc:v0.0", 0, "no '['");
    aug_bad("[abc]", 4, "no version");
    aug_bad("[:v1.0]", 1, "empty vendor");
    aug_bad("[abc:1.0]", 5, "version without 'v'");
    aug_bad("[abc:v01.0]", 5, "leading zero in the major version");
    aug_bad("[abc:v1.00]", 5, "leading zero in the minor version");
    aug_bad("[abc:v1]", 5, "no minor version");
    aug_bad("[abc:v1.]", 5, "empty minor version");
    aug_bad("[abc:v1.2x]", 9, "junk after the version");
    aug_bad("[abc:v1.2:opt", 13, "options without ']'");
    aug_bad("[abc:v1.2]x", 10, "text after the last entry");
    aug_bad("[abc:v1.2] [d:v0.1]", 10, "space between entries");
    aug_bad("[a[b:v1.2]", 2, "'[' in the vendor");
    aug_bad("[abc:v99999999999999999999.0]", 5, "major version overflows");
    CHECK_U64(dwexpr_status_class(DWEXPR_E_SYNTAX), DWEXPR_CLASS_USAGE,
              "E_SYNTAX is of class usage");
}

/* ---- lane_pc / active_lane on a mock wave64 target ---- */

/* PC_64 (16) = 0x401000, EXEC_MASK_64 (17) = 0x5: lanes 0 and 2 active. */
typedef struct mock {
    uint64_t pc, exec;
} mock;

static dwexpr_status m_reg_size(void *u, uint32_t regno, uint32_t *bytes)
{
    (void)u;
    if (regno != 16 && regno != 17)
        return DWEXPR_E_NOT_FOUND;
    *bytes = 8;
    return DWEXPR_OK;
}

static dwexpr_status m_reg_read(void *u, const dwexpr_regref *r, uint64_t off, void *buf,
                                size_t len)
{
    const mock *m = u;
    uint8_t b[8];
    uint64_t v = r->regno == 16 ? m->pc : m->exec;
    if ((r->regno != 16 && r->regno != 17) || off > 8 || len > 8 - off)
        return DWEXPR_E_NOT_FOUND;
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    memcpy(buf, b + off, len);
    return DWEXPR_OK;
}

/* Base types: 0x13 = 64-bit unsigned, 0x20 = 32-bit float. */
static dwexpr_status m_base_type(void *u, const dwexpr_unit *unit, uint64_t die, dwexpr_type *out)
{
    (void)u;
    (void)unit;
    memset(out, 0, sizeof *out);
    out->die = die;
    out->lanes = 1;
    if (die == 0x13) {
        out->bits = 64;
        out->encoding = DW_ATE_unsigned;
    } else if (die == 0x20) {
        out->bits = 32;
        out->encoding = DW_ATE_float;
    } else {
        return DWEXPR_E_NOT_FOUND;
    }
    return DWEXPR_OK;
}

/* Assemble TEXT for amdgpu-wave64 and decode it. */
static dwexpr_program *prog_of(const char *text)
{
    uint8_t bytes[128];
    size_t len = 0;
    dwexpr_error e;
    dwexpr_program *p = NULL;
    dwexpr_unit u;
    memset(&u, 0, sizeof u);
    u.addr_size = 8;
    const dwexpr_arch *arch = dwexpr_arch_find("amdgpu-wave64");
    if (dwexpr_asm(text, &u, arch, bytes, sizeof bytes, &len, &e) != DWEXPR_OK) {
        printf("# asm %s: %s\n", text, e.message);
        return NULL;
    }
    if (dwexpr_program_decode(bytes, len, &u, &p, &e) != DWEXPR_OK) {
        printf("# decode %s: %s\n", text, e.message);
        return NULL;
    }
    return p;
}

static void test_lane_pc(void)
{
    mock m = {0x401000, 0x5};
    dwexpr_target t;
    dwexpr_ctx *ctx = NULL;
    dwexpr_eval_params p;
    uint64_t pcs[64];
    bool def[64];
    memset(&t, 0, sizeof t);
    t.size = sizeof t;
    t.reg_size = m_reg_size;
    t.reg_read = m_reg_read;
    t.base_type = m_base_type;
    memset(&p, 0, sizeof p);
    p.lanes = 64;
    if (dwexpr_ctx_new(NULL, &ctx) != DWEXPR_OK) {
        TAP_OK(0, "context");
        return;
    }

    /* amdgpu-and-encodings.md "Lane PCs": select_bit_piece pops the mask
     * EXEC, L1 = 64 copies of PC, L0 = undefined; part N is L1 (PC) when
     * bit N of EXEC is set, else L0: lanes 0 and 2 have the PC, the other
     * 62 are undefined (not active on entry). */
    dwexpr_program *prog = prog_of("DW_OP_LLVM_undefined DW_OP_regx PC DW_OP_LLVM_extend 64 64 "
                                   "DW_OP_regval_type EXEC 0x13 DW_OP_LLVM_select_bit_piece 64 64");
    TAP_OK(prog != NULL, "lane pc expression assembles");
    if (prog) {
        dwexpr_status st = dwexpr_eval_lane_pc(ctx, prog, &t, &m, &p, 64, pcs, def);
        CHECK_U64(st, DWEXPR_OK, "lane pc evaluates (%s)", dwexpr_ctx_error(ctx)->message);
        if (st == DWEXPR_OK) {
            CHECK_U64(def[0], 1, "lane 0 was active on entry");
            CHECK_U64(pcs[0], 0x401000, "lane 0 pc");
            CHECK_U64(def[1], 0, "lane 1 was not active on entry");
            CHECK_U64(pcs[1], 0, "lane 1 pc reads as 0");
            CHECK_U64(def[2], 1, "lane 2 was active on entry");
            CHECK_U64(pcs[2], 0x401000, "lane 2 pc");
            int undef = 0;
            for (int i = 3; i < 64; i++)
                undef += !def[i];
            CHECK_U64(undef, 61, "lanes 3..63 are undefined");
        }
        /* a wavefront of 65 lanes reads past the 4096-bit composite */
        bool d65[65];
        uint64_t p65[65];
        st = dwexpr_eval_lane_pc(ctx, prog, &t, &m, &p, 65, p65, d65);
        CHECK_U64(dwexpr_status_class(st), DWEXPR_CLASS_EVALUATION,
                  "65 lanes read past the composite: evaluation error");
        dwexpr_program_free(prog);
    }

    /* divergent: "LLVM_undefined; LLVM_extend 64 64": every lane undefined */
    prog = prog_of("DW_OP_LLVM_undefined DW_OP_LLVM_extend 64 64");
    if (prog) {
        dwexpr_status st = dwexpr_eval_lane_pc(ctx, prog, &t, &m, &p, 64, pcs, def);
        CHECK_U64(st, DWEXPR_OK, "divergent lane pc evaluates");
        int undef = 0;
        for (int i = 0; i < 64; i++)
            undef += !def[i];
        CHECK_U64(undef, 64, "divergent: all 64 lanes undefined");
        dwexpr_program_free(prog);
    }

    /* the attribute is evaluated with an empty initial stack and result
     * kind location, whatever the caller's params say */
    prog = prog_of("DW_OP_regx PC DW_OP_LLVM_extend 64 4");
    if (prog) {
        dwexpr_value iv;
        memset(&iv, 0, sizeof iv);
        p.initial_values = &iv;
        p.initial_count = 1;
        p.result_kind = DWEXPR_RESULT_VALUE;
        dwexpr_status st = dwexpr_eval_lane_pc(ctx, prog, &t, &m, &p, 4, pcs, def);
        CHECK_U64(st, DWEXPR_OK, "params' initial stack and result kind are ignored");
        TAP_OK(def[0] && def[3] && pcs[3] == 0x401000, "4 lanes, all at the PC");
        p.initial_values = NULL;
        p.initial_count = 0;
        p.result_kind = 0;
        dwexpr_program_free(prog);
    }

    /* DW_AT_LLVM_active_lane: EXEC read as u64 */
    uint64_t mask = 0;
    prog = prog_of("DW_OP_regval_type EXEC 0x13");
    if (prog) {
        CHECK_U64(dwexpr_eval_active_lane(ctx, prog, &t, &m, &p, &mask), DWEXPR_OK,
                  "active_lane from EXEC");
        CHECK_U64(mask, 0x5, "active lanes 0 and 2");
        dwexpr_program_free(prog);
    }
    /* a generic value is integral too */
    prog = prog_of("DW_OP_const1u 0xf0");
    if (prog) {
        CHECK_U64(dwexpr_eval_active_lane(ctx, prog, &t, &m, &p, &mask), DWEXPR_OK,
                  "active_lane from a generic constant");
        CHECK_U64(mask, 0xf0, "active lanes 4..7");
        dwexpr_program_free(prog);
    }
    /* "The DWARF is ill-formed if the resulting value V is not an
     * integral value": a float */
    prog = prog_of("DW_OP_const_type 0x20 4 0x0000803f");
    if (prog) {
        dwexpr_status st = dwexpr_eval_active_lane(ctx, prog, &t, &m, &p, &mask);
        CHECK_U64(st, DWEXPR_E_NOT_INTEGRAL, "a float mask is ill-formed");
        CHECK_U64(dwexpr_status_class(st), DWEXPR_CLASS_ILL_FORMED, "... class ill_formed");
        dwexpr_program_free(prog);
    }
    dwexpr_ctx_free(ctx);
}

int main(void)
{
    test_codes();
    test_lanes();
    test_augmentation();
    test_lane_pc();
    return TAP_DONE();
}
