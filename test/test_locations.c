/* test/test_locations.c: the C API on a mock target (registers in arrays,
 * one memory buffer): dwexpr_loc_read / dwexpr_loc_write through
 * composites of register, memory, implicit and undefined parts, bit pieces
 * at odd offsets and several places; context reuse; static contexts that
 * are too small; and a target with no callbacks at all.
 * Expected bits come from a small bit-level reference model below, never
 * from the library. Seed: "Composite Location Description Operations",
 * "DW_OP_deref_type" (reads concatenate parts, any place may be read) and
 * "DWARF Location Description" (writes go to every place). */
#include <stdalign.h>
#include <stdlib.h>
#include "dwexpr.h"
#include "tap.h"

/* ---- the mock target ---- */

enum { NREG = 8, REGBYTES = 8, MEMBASE = 0x1000, MEMSIZE = 256 };

typedef struct mock {
    uint8_t reg[NREG][REGBYTES];
    uint8_t mem[MEMSIZE];
} mock;

static dwexpr_status m_reg_size(void *u, uint32_t regno, uint32_t *bytes)
{
    (void)u;
    if (regno >= NREG)
        return DWEXPR_E_NOT_FOUND;
    *bytes = regno == 7 ? 4 : REGBYTES;      /* register 7 is 4 bytes */
    return DWEXPR_OK;
}

/* Byte offset of register R's storage in the mock, or -1 if out of range. */
static long reg_off(const dwexpr_regref *r, uint64_t off, size_t len)
{
    uint32_t size;
    if (m_reg_size(NULL, r->regno, &size) != DWEXPR_OK || off > size || len > size - off)
        return -1;
    return (long)(r->regno * REGBYTES + off);
}

static dwexpr_status m_reg_read(void *u, const dwexpr_regref *r, uint64_t off, void *buf, size_t len)
{
    long o = reg_off(r, off, len);
    if (o < 0)
        return DWEXPR_E_TARGET;
    memcpy(buf, &((mock *)u)->reg[0][0] + o, len);
    return DWEXPR_OK;
}

static dwexpr_status m_reg_write(void *u, const dwexpr_regref *r, uint64_t off, const void *buf,
                                 size_t len)
{
    long o = reg_off(r, off, len);
    if (o < 0)
        return DWEXPR_E_TARGET;
    memcpy(&((mock *)u)->reg[0][0] + o, buf, len);
    return DWEXPR_OK;
}

/* Offset of memory reference A in the mock buffer, or -1. */
static long mem_off(const dwexpr_memref *a, size_t len)
{
    uint64_t off = a->address - MEMBASE;
    if (a->aspace != 0 || a->address < MEMBASE || off > MEMSIZE || len > MEMSIZE - off)
        return -1;
    return (long)off;
}

static dwexpr_status m_mem_read(void *u, const dwexpr_memref *a, void *buf, size_t len)
{
    long o = mem_off(a, len);
    if (o < 0)
        return DWEXPR_E_TARGET;
    memcpy(buf, ((mock *)u)->mem + o, len);
    return DWEXPR_OK;
}

static dwexpr_status m_mem_write(void *u, const dwexpr_memref *a, const void *buf, size_t len)
{
    long o = mem_off(a, len);
    if (o < 0)
        return DWEXPR_E_TARGET;
    memcpy(((mock *)u)->mem + o, buf, len);
    return DWEXPR_OK;
}

/* DIE 0x40: a location list with two overlapping entries (two places:
 * register 4 and memory 0x1020); pc is always 0x10. */
static const uint8_t die40_reg4[] = {0x54};                                  /* DW_OP_reg4 */
static const uint8_t die40_mem[] = {0x03, 0x20, 0x10, 0, 0, 0, 0, 0, 0};      /* DW_OP_addr 0x1020 */
static const dwexpr_loclist_entry die40[] = {
    {.low = 0, .high = 0x100, .expr = die40_reg4, .expr_len = sizeof die40_reg4},
    {.low = 0, .high = 0x100, .expr = die40_mem, .expr_len = sizeof die40_mem},
};

static dwexpr_status m_die(void *u, const dwexpr_unit *unit, uint64_t off, bool section_relative,
                           dwexpr_die *out)
{
    (void)u, (void)section_relative;
    if (off != 0x40)
        return DWEXPR_E_NOT_FOUND;
    memset(out, 0, sizeof *out);
    out->kind = DWEXPR_DIE_LOCLIST;
    out->unit = *unit;
    out->entries = die40;
    out->count = 2;
    return DWEXPR_OK;
}

static dwexpr_status m_frame_pc(void *u, const dwexpr_frameref *f, uint64_t *pc)
{
    (void)u, (void)f;
    *pc = 0x10;
    return DWEXPR_OK;
}

static const dwexpr_target target = {
    .size = sizeof(dwexpr_target), .reg_size = m_reg_size, .reg_read = m_reg_read,
    .reg_write = m_reg_write, .mem_read = m_mem_read, .mem_write = m_mem_write,
    .die = m_die, .frame_pc = m_frame_pc,
};

static void mock_init(mock *m)
{
    for (int r = 0; r < NREG; r++)
        for (int i = 0; i < REGBYTES; i++)
            m->reg[r][i] = (uint8_t)(0x11 * (i + 1) + 0x80 * (r & 1) + r);
    for (int i = 0; i < MEMSIZE; i++)
        m->mem[i] = (uint8_t)(i * 7 + 1);
}

/* ---- a bit-level reference model (least significant bit first) ---- */

static int getbit(const uint8_t *p, uint64_t i) { return (p[i / 8] >> (i % 8)) & 1; }
static void setbit(uint8_t *p, uint64_t i, int v)
{
    p[i / 8] = (uint8_t)((p[i / 8] & ~(1u << (i % 8))) | ((unsigned)v << (i % 8)));
}
/* One composite part for the model: BITS bits at bit OFF of STORAGE. */
typedef struct mpart {
    uint8_t *storage;
    uint64_t off, bits;
} mpart;
static void model_read(const mpart *p, int n, uint8_t *out)
{
    uint64_t k = 0;
    for (int i = 0; i < n; i++)
        for (uint64_t b = 0; b < p[i].bits; b++, k++)
            setbit(out, k, getbit(p[i].storage, p[i].off + b));
}
static void model_write(const mpart *p, int n, const uint8_t *in)
{
    uint64_t k = 0;
    for (int i = 0; i < n; i++)
        for (uint64_t b = 0; b < p[i].bits; b++, k++)
            setbit(p[i].storage, p[i].off + b, getbit(in, k));
}

/* ---- evaluation helper ---- */

static const dwexpr_unit unit64 = {.addr_size = 8, .offset_size = 4, .version = 5};
static int quiet;   /* no "# eval:" diagnostics (loops that expect errors) */

/* Decode and evaluate BYTES as a location; the program is kept in *PROG
 * (freed by the caller) because results may refer to its block operands. */
static dwexpr_status eval_loc(dwexpr_ctx *ctx, const dwexpr_target *t, mock *m,
                              const uint8_t *bytes, size_t len, dwexpr_program **prog,
                              dwexpr_result *res)
{
    dwexpr_error err;
    dwexpr_status s = dwexpr_program_decode(bytes, len, &unit64, prog, &err);
    if (s != DWEXPR_OK) {
        *prog = NULL;
        printf("# decode failed: %s\n", err.message);
        return s;
    }
    dwexpr_eval_params params = {.result_kind = DWEXPR_RESULT_LOCATION, .has_pc = true, .pc = 0x10};
    s = dwexpr_eval(ctx, *prog, t, m, &params, res);
    if (s != DWEXPR_OK && !quiet)
        printf("# eval: %s\n", dwexpr_ctx_error(ctx)->message);
    return s;
}

#define ADDR(a) 0x03, (uint8_t)(a), (uint8_t)((a) >> 8), 0, 0, 0, 0, 0, 0

static void test_mixed_composite(dwexpr_ctx *ctx)
{
    /* reg0 piece 2; addr 0x1004 piece 2; implicit_value 2 aa bb piece 2; piece 2 */
    static const uint8_t e[] = {0x50, 0x93, 2, ADDR(0x1004), 0x93, 2,
                                0x9e, 2, 0xaa, 0xbb, 0x93, 2, 0x93, 2};
    mock m, ref;
    dwexpr_program *p;
    dwexpr_result r;
    uint8_t buf[8], mask[8], want[8], wmask[8] = {0, 0, 0, 0, 0, 0, 0xff, 0xff};
    mock_init(&m);
    dwexpr_status s = eval_loc(ctx, &target, &m, e, sizeof e, &p, &r);
    CHECK_U64(s, DWEXPR_OK, "mixed composite evaluates");
    CHECK_U64(r.loc.count, 1, "mixed composite: one single location");
    memcpy(want, m.reg[0], 2);
    memcpy(want + 2, m.mem + 4, 2);
    want[4] = 0xaa, want[5] = 0xbb, want[6] = want[7] = 0;
    memset(buf, 0x5a, sizeof buf);
    s = dwexpr_loc_read(ctx, &target, &m, &r.loc, 64, buf, mask);
    CHECK_U64(s, DWEXPR_OK, "read 64 bits with an undefined mask");
    TAP_OK(memcmp(buf, want, 8) == 0, "read gives reg0[0..1] mem[4..5] aa bb 0 0");
    TAP_OK(memcmp(mask, wmask, 8) == 0, "undefined mask marks exactly the last 2 bytes");
    s = dwexpr_loc_read(ctx, &target, &m, &r.loc, 64, buf, NULL);
    CHECK_U64(dwexpr_status_class(s), DWEXPR_CLASS_EVALUATION, "read of the hole without a mask: evaluation");
    s = dwexpr_loc_read(ctx, &target, &m, &r.loc, 48, buf, NULL);
    CHECK_U64(s, DWEXPR_OK, "read of the defined 48 bits without a mask");
    uint8_t big[16], bigmask[16];
    s = dwexpr_loc_read(ctx, &target, &m, &r.loc, 72, big, bigmask);
    CHECK_U64(dwexpr_status_class(s), DWEXPR_CLASS_EVALUATION, "read past the composite end: evaluation");
    s = dwexpr_loc_write(ctx, &target, &m, &r.loc, 64, (const uint8_t *)"\1\2\3\4\5\6\7\10");
    CHECK_U64(dwexpr_status_class(s), DWEXPR_CLASS_EVALUATION, "write through implicit+undefined parts: evaluation");
    ref = m;
    s = dwexpr_loc_write(ctx, &target, &m, &r.loc, 32, (const uint8_t *)"\xa1\xa2\xa3\xa4");
    CHECK_U64(s, DWEXPR_OK, "write the register and memory parts (32 bits)");
    ref.reg[0][0] = 0xa1, ref.reg[0][1] = 0xa2, ref.mem[4] = 0xa3, ref.mem[5] = 0xa4;
    TAP_OK(memcmp(&m, &ref, sizeof m) == 0, "write changed exactly reg0[0..1] and mem[4..5]");
    dwexpr_program_free(p);
}

/* Bit pieces at odd offsets in registers and memory, plus LLVM_bit_offset. */
static void test_bit_pieces(dwexpr_ctx *ctx)
{
    static const uint8_t e[] = {
        0x50, 0x9d, 3, 5,                  /* reg0 bit_piece 3 5 */
        0x51, 0x9d, 7, 9,                  /* reg1 bit_piece 7 9 */
        ADDR(0x1003), 0x9d, 6, 2,          /* addr 0x1003 bit_piece 6 2 */
        0x52, 0x3d, 0xe9, 0x06, 0x9d, 11, 0,   /* reg2 lit13 LLVM_bit_offset bit_piece 11 0 */
        0x53, 0x9d, 1, 63,                 /* reg3 bit_piece 1 63 */
    };
    enum { NB = 3 + 7 + 6 + 11 + 1 };
    mock m, ref;
    dwexpr_program *p;
    dwexpr_result r;
    uint8_t buf[4], want[4], pat[4];
    mock_init(&m);
    ref = m;
    mpart parts[] = {{ref.reg[0], 5, 3}, {ref.reg[1], 9, 7}, {ref.mem + 3, 2, 6},
                     {ref.reg[2], 13, 11}, {ref.reg[3], 63, 1}};
    dwexpr_status s = eval_loc(ctx, &target, &m, e, sizeof e, &p, &r);
    CHECK_U64(s, DWEXPR_OK, "bit-piece composite evaluates");
    memset(want, 0, sizeof want);
    model_read(parts, 5, want);
    memset(buf, 0, sizeof buf);
    s = dwexpr_loc_read(ctx, &target, &m, &r.loc, NB, buf, NULL);
    CHECK_U64(s, DWEXPR_OK, "read %d bits through 5 bit pieces", NB);
    TAP_OK(memcmp(buf, want, 4) == 0, "bit-piece read matches the model (%02x%02x%02x%02x vs %02x%02x%02x%02x)",
           buf[0], buf[1], buf[2], buf[3], want[0], want[1], want[2], want[3]);
    uint32_t seed = 12345;
    int ok_rt = 1, ok_state = 1;
    for (int round = 0; round < 40; round++) {
        for (int i = 0; i < 4; i++)
            pat[i] = (uint8_t)((seed = seed * 1103515245u + 12345u) >> 16);
        pat[3] &= (1u << (NB - 24)) - 1;
        s = dwexpr_loc_write(ctx, &target, &m, &r.loc, NB, pat);
        model_write(parts, 5, pat);
        memset(buf, 0, sizeof buf);
        if (s != DWEXPR_OK || dwexpr_loc_read(ctx, &target, &m, &r.loc, NB, buf, NULL) != DWEXPR_OK ||
            memcmp(buf, pat, 4) != 0)
            ok_rt = 0;
        if (memcmp(&m, &ref, sizeof m) != 0)
            ok_state = 0;
    }
    TAP_OK(ok_rt, "40 random writes read back through the bit pieces");
    TAP_OK(ok_state, "each write changed exactly the model's bits of registers and memory");
    dwexpr_program_free(p);
}

/* A part with two places (location list with overlapping entries). */
static void test_several_places(dwexpr_ctx *ctx)
{
    static const uint8_t e[] = {0x50, 0x93, 2, 0x98, 0x40, 0x00, 0x93, 2};  /* reg0 piece 2 call2 0x40 piece 2 */
    mock m, ref;
    dwexpr_program *p;
    dwexpr_result r;
    uint8_t buf[4];
    mock_init(&m);
    dwexpr_status s = eval_loc(ctx, &target, &m, e, sizeof e, &p, &r);
    CHECK_U64(s, DWEXPR_OK, "composite with a two-place part evaluates");
    ref = m;
    s = dwexpr_loc_write(ctx, &target, &m, &r.loc, 32, (const uint8_t *)"\xc1\xc2\xc3\xc4");
    CHECK_U64(s, DWEXPR_OK, "write through the two-place part");
    ref.reg[0][0] = 0xc1, ref.reg[0][1] = 0xc2;
    ref.reg[4][0] = 0xc3, ref.reg[4][1] = 0xc4;
    ref.mem[0x20] = 0xc3, ref.mem[0x21] = 0xc4;
    TAP_OK(memcmp(&m, &ref, sizeof m) == 0, "both places (reg4 and memory 0x1020) were written, nothing else");
    s = dwexpr_loc_read(ctx, &target, &m, &r.loc, 32, buf, NULL);
    TAP_OK(s == DWEXPR_OK && memcmp(buf, "\xc1\xc2\xc3\xc4", 4) == 0, "read back through the two-place part");
    dwexpr_program_free(p);

    /* A location description built by hand: register 5 and memory 0x1010. */
    dwexpr_sld sl[2];
    memset(sl, 0, sizeof sl);
    sl[0].kind = DWEXPR_LOC_REGISTER, sl[0].u.regno = 5;
    sl[1].kind = DWEXPR_LOC_MEMORY, sl[1].byte_offset = 0x1010;
    dwexpr_loc two = {2, sl};
    mock_init(&m);
    ref = m;
    s = dwexpr_loc_write(ctx, &target, &m, &two, 24, (const uint8_t *)"\x71\x72\x73");
    memcpy(ref.reg[5], "\x71\x72\x73", 3);
    memcpy(ref.mem + 0x10, "\x71\x72\x73", 3);
    TAP_OK(s == DWEXPR_OK && memcmp(&m, &ref, sizeof m) == 0, "hand-built two-place location: both written");
    memset(sl, 0, sizeof sl);
    sl[0].kind = DWEXPR_LOC_MEMORY, sl[0].byte_offset = 0x1011, sl[0].bit = 4;
    dwexpr_loc one = {1, sl};
    s = dwexpr_loc_read(ctx, &target, &m, &one, 8, buf, NULL);
    CHECK_U64(s == DWEXPR_OK ? buf[0] : 0x100, 0x37, "memory bit offset 4 reads across bytes 72 73");
}

/* Register storage bounds: a 4-byte register (reg7) and an 8-byte one. */
static void test_register_bounds(dwexpr_ctx *ctx)
{
    static const uint8_t e7[] = {0x57}, e0off[] = {0x50, 0xe9, 0x05, 6};  /* reg7; reg0 offset_uconst 6 */
    mock m;
    dwexpr_program *p;
    dwexpr_result r;
    uint8_t buf[8];
    mock_init(&m);
    eval_loc(ctx, &target, &m, e7, sizeof e7, &p, &r);
    CHECK_U64(dwexpr_loc_read(ctx, &target, &m, &r.loc, 32, buf, NULL), DWEXPR_OK, "read all of a 4-byte register");
    CHECK_U64(dwexpr_status_class(dwexpr_loc_read(ctx, &target, &m, &r.loc, 40, buf, NULL)),
              DWEXPR_CLASS_EVALUATION, "read 5 bytes of a 4-byte register: evaluation");
    CHECK_U64(dwexpr_status_class(dwexpr_loc_write(ctx, &target, &m, &r.loc, 64, buf)),
              DWEXPR_CLASS_EVALUATION, "write 8 bytes to a 4-byte register: evaluation");
    dwexpr_program_free(p);
    eval_loc(ctx, &target, &m, e0off, sizeof e0off, &p, &r);
    TAP_OK(dwexpr_loc_read(ctx, &target, &m, &r.loc, 16, buf, NULL) == DWEXPR_OK &&
           buf[0] == m.reg[0][6] && buf[1] == m.reg[0][7], "read the last 2 bytes of reg0 at offset 6");
    CHECK_U64(dwexpr_status_class(dwexpr_loc_read(ctx, &target, &m, &r.loc, 24, buf, NULL)),
              DWEXPR_CLASS_EVALUATION, "read 3 bytes at offset 6 of an 8-byte register: evaluation");
    dwexpr_program_free(p);
}

/* A read far larger than every place's storage fails before the buffer is
 * touched (audit D item 1: it used to clear NBITS/8 bytes first). BUF is
 * 8 bytes; NBITS claims 2^40: any write past BUF would show in GUARD. */
static void test_read_past_storage(dwexpr_ctx *ctx)
{
    static const uint8_t imp[] = {0x31, 0x9f}, two[] = {0x57, 0x93, 4};   /* lit1 stack_value; reg7 piece 4 */
    mock m;
    dwexpr_program *p;
    dwexpr_result r;
    struct { uint8_t buf[8], guard[8]; } b;
    uint8_t mask[16];
    mock_init(&m);
    eval_loc(ctx, &target, &m, imp, sizeof imp, &p, &r);
    memset(&b, 0x5a, sizeof b);
    dwexpr_status s = dwexpr_loc_read(ctx, &target, &m, &r.loc, (uint64_t)1 << 40, b.buf, mask);
    TAP_OK(s == DWEXPR_E_OUT_OF_RANGE && b.buf[0] == 0x5a && b.guard[7] == 0x5a,
           "2^40 bits from a 64-bit implicit: out of range, buffer untouched");
    dwexpr_program_free(p);
    eval_loc(ctx, &target, &m, two, sizeof two, &p, &r);
    memset(&b, 0x5a, sizeof b);
    s = dwexpr_loc_read(ctx, &target, &m, &r.loc, (uint64_t)1 << 40, b.buf, NULL);
    TAP_OK(s == DWEXPR_E_OUT_OF_RANGE && b.buf[0] == 0x5a && b.guard[7] == 0x5a,
           "2^40 bits from a 32-bit composite: out of range, buffer untouched");
    dwexpr_program_free(p);
}

/* The same context reused for many evaluations gives identical results. */
static void test_reuse(dwexpr_ctx *ctx)
{
    static const uint8_t ea[] = {0x50, 0x93, 3, 0x51, 0x9d, 13, 3, 0x9e, 2, 0xde, 0xad, 0x93, 2};
    static const uint8_t eb[] = {0x31, 0x30, 0x1b};   /* lit1 lit0 div: an evaluation error */
    static const uint8_t ec[] = {0x3f, 0x35, 0x1e, 0x9f};   /* lit15 lit5 mul stack_value */
    mock m;
    uint8_t first_a[8] = {0}, first_c[8] = {0}, buf[8];
    int same = 1, errors_ok = 1;
    mock_init(&m);
    quiet = 1;
    for (int i = 0; i < 300; i++) {
        dwexpr_program *p;
        dwexpr_result r;
        int which = i % 3;
        const uint8_t *e = which == 0 ? ea : which == 1 ? eb : ec;
        size_t len = which == 0 ? sizeof ea : which == 1 ? sizeof eb : sizeof ec;
        dwexpr_status s = eval_loc(ctx, &target, &m, e, len, &p, &r);
        if (which == 1) {
            errors_ok &= dwexpr_status_class(s) == DWEXPR_CLASS_EVALUATION &&
                         dwexpr_ctx_error(ctx)->offset == 2;
        } else {
            memset(buf, 0, sizeof buf);
            uint64_t nb = which == 0 ? 24 + 13 + 16 : 64;
            if (s != DWEXPR_OK || dwexpr_loc_read(ctx, &target, &m, &r.loc, nb, buf, NULL) != DWEXPR_OK)
                same = 0;
            uint8_t *first = which == 0 ? first_a : first_c;
            if (i < 3)
                memcpy(first, buf, 8);
            else if (memcmp(first, buf, 8) != 0)
                same = 0;
        }
        dwexpr_program_free(p);
    }
    quiet = 0;
    TAP_OK(same, "300 evaluations on one context: identical results");
    TAP_OK(errors_ok, "the interleaved error is the same each time (evaluation @2)");
    CHECK_U64(first_c[0], 75, "lit15 lit5 mul stack_value reads 75");
    TAP_OK(first_a[0] == m.reg[0][0] && first_a[1] == m.reg[0][1] && first_a[2] == m.reg[0][2],
           "reused composite reads reg0's first 3 bytes");
}

/* Static contexts: too small is E_NOSPACE, never a crash; tight arenas
 * fail cleanly with E_NOSPACE (or a limit) instead of overflowing. */
static alignas(16) unsigned char arena[1 << 16];

static void test_static(void)
{
    static const size_t tiny[] = {0, 1, 16, 64, 128};
    dwexpr_ctx *ctx = NULL;
    int all_nospace = 1;
    for (size_t i = 0; i < sizeof tiny / sizeof tiny[0]; i++)
        all_nospace &= dwexpr_ctx_init_static(arena, tiny[i], NULL, &ctx) == DWEXPR_E_NOSPACE;
    TAP_OK(all_nospace, "init_static with 0..128 bytes: E_NOSPACE");
    dwexpr_limits small = {.stack = 64};
    CHECK_U64(dwexpr_ctx_init_static(arena, sizeof arena, &small, &ctx), DWEXPR_OK,
              "init_static with 64 KiB and a 64-entry stack");
    dwexpr_status big = dwexpr_ctx_init_static(arena, sizeof arena, NULL, &ctx);
    TAP_OK(big == DWEXPR_OK || big == DWEXPR_E_NOSPACE, "init_static with 64 KiB and default limits: ok or E_NOSPACE");

    /* 40 parts of 1 byte from alternating registers, then read it. */
    uint8_t e[40 * 3];
    for (int i = 0; i < 40; i++)
        e[3 * i] = (uint8_t)(0x50 + i % 4), e[3 * i + 1] = 0x93, e[3 * i + 2] = 1;
    mock m;
    mock_init(&m);
    int clean = 1, some_ok = 0, some_nospace = 0;
    quiet = 1;
    for (size_t size = 256; size <= sizeof arena; size += size / 4) {
        dwexpr_limits lim = {.stack = 64};
        if (dwexpr_ctx_init_static(arena, size, &lim, &ctx) != DWEXPR_OK)
            continue;
        dwexpr_program *p;
        dwexpr_result r;
        uint8_t buf[40];
        dwexpr_status s = eval_loc(ctx, &target, &m, e, sizeof e, &p, &r);
        if (s == DWEXPR_OK)
            s = dwexpr_loc_read(ctx, &target, &m, &r.loc, 320, buf, NULL);
        if (s == DWEXPR_OK) {
            some_ok = 1;
            clean &= buf[0] == m.reg[0][0] && buf[1] == m.reg[1][0] && buf[39] == m.reg[3][0];
        } else if (s == DWEXPR_E_NOSPACE) {
            some_nospace = 1;
        } else {
            clean = 0;
            printf("# size %zu: unexpected status %s\n", size, dwexpr_status_name(s));
        }
        dwexpr_program_free(p);
    }
    quiet = 0;
    TAP_OK(clean, "static contexts of growing size: the 40-part composite is right or E_NOSPACE");
    TAP_OK(some_ok, "a large enough static context evaluates the 40-part composite");
    printf("# tight static contexts that ran out of space: %s\n", some_nospace ? "yes" : "none");
}

/* A target without callbacks: context-class errors, never a crash. */
static void test_no_callbacks(dwexpr_ctx *ctx)
{
    static const dwexpr_target none = {.size = sizeof(dwexpr_target)};
    static const struct {
        const char *what;
        uint8_t len, bytes[12];
    } cases[] = {
        {"breg0 0", 2, {0x70, 0x00}},
        {"addr deref", 10, {ADDR(0x1000), 0x06}},
        {"lit0 lit0 xderef", 3, {0x30, 0x30, 0x18}},
        {"regval_type 0 0x10", 3, {0xa5, 0x00, 0x10}},
        {"call_frame_cfa", 1, {0x9c}},
        {"fbreg 0", 2, {0x91, 0x00}},
        {"lit0 form_tls_address", 2, {0x30, 0x9b}},
        {"addrx 0", 2, {0xa1, 0x00}},
        {"constx 0", 2, {0xa2, 0x00}},
        {"lit1 convert 0x10", 3, {0x31, 0xa8, 0x10}},
        {"const_type 0x10 1 ff", 4, {0xa4, 0x10, 0x01, 0xff}},
        {"deref_type 1 0x10 of memory", 12, {ADDR(0x1000), 0xa6, 0x01, 0x10}},
        {"call2 0x40", 3, {0x98, 0x40, 0x00}},
        {"call_ref 0x40", 5, {0x9a, 0x40, 0, 0, 0}},
        {"implicit_pointer deref deref", 8, {0xa0, 0x40, 0, 0, 0, 0x00, 0x06, 0x06}},
        {"entry_value reg0", 3, {0xa3, 0x01, 0x50}},
        {"push_object_address", 1, {0x97}},
        {"LLVM_push_lane", 2, {0xe9, 0x03}},
        {"LLVM_call_frame_entry_reg 3", 3, {0xe9, 0x07, 0x03}},
        {"GNU_variable_value", 5, {0xfd, 0x40, 0, 0, 0}},
        {"GNU_parameter_ref", 5, {0xfa, 0x40, 0, 0, 0}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dwexpr_program *p;
        dwexpr_result r;
        quiet = 1;
        dwexpr_status s = eval_loc(ctx, &none, NULL, cases[i].bytes, cases[i].len, &p, &r);
        quiet = 0;
        if (dwexpr_status_class(s) != DWEXPR_CLASS_CONTEXT)
            printf("# %s: %s: %s\n", cases[i].what, dwexpr_status_name(s), dwexpr_ctx_error(ctx)->message);
        CHECK_U64(dwexpr_status_class(s), DWEXPR_CLASS_CONTEXT, "no callbacks: %s is a context error", cases[i].what);
        dwexpr_program_free(p);
    }
    /* Operations that need no target still work; accesses do not. */
    static const uint8_t plus[] = {0x31, 0x32, 0x22, 0x9f}, reg0[] = {0x50};
    dwexpr_program *p;
    dwexpr_result r;
    uint8_t buf[8];
    CHECK_U64(eval_loc(ctx, &none, NULL, plus, sizeof plus, &p, &r), DWEXPR_OK, "no callbacks: lit1 lit2 plus stack_value");
    TAP_OK(dwexpr_loc_read(ctx, &none, NULL, &r.loc, 64, buf, NULL) == DWEXPR_OK && buf[0] == 3,
           "no callbacks: the implicit value reads 3");
    dwexpr_program_free(p);
    CHECK_U64(eval_loc(ctx, &none, NULL, reg0, sizeof reg0, &p, &r), DWEXPR_OK, "no callbacks: reg0 is a location");
    CHECK_U64(dwexpr_status_class(dwexpr_loc_read(ctx, &none, NULL, &r.loc, 64, buf, NULL)),
              DWEXPR_CLASS_CONTEXT, "no callbacks: reading reg0 is a context error");
    CHECK_U64(dwexpr_status_class(dwexpr_loc_write(ctx, &none, NULL, &r.loc, 64, buf)),
              DWEXPR_CLASS_CONTEXT, "no callbacks: writing reg0 is a context error");
    dwexpr_program_free(p);

    /* An older caller's smaller struct: callbacks past `size` are not used. */
    dwexpr_target old = target;
    old.size = offsetof(dwexpr_target, mem_read);
    static const uint8_t deref[] = {ADDR(0x1000), 0x06};
    mock m;
    mock_init(&m);
    dwexpr_status s = eval_loc(ctx, &old, &m, deref, sizeof deref, &p, &r);
    if (s == DWEXPR_OK) {
        s = dwexpr_loc_read(ctx, &old, &m, &r.loc, 8, buf, NULL);
    }
    CHECK_U64(dwexpr_status_class(s), DWEXPR_CLASS_CONTEXT, "target.size before mem_read: memory access is a context error");
    dwexpr_program_free(p);
}

/* ---- DW_OP_form_tls_address and the current thread ----
 * Seed "DWARF Expression Evaluation Context": the current thread is
 * "required for operations that are related to target architecture
 * threads", DW_OP_form_tls_address among them; seed
 * "DW_OP_form_tls_address": "the meaning of the thread-local storage
 * address TA is defined by the run-time environment". dwexpr hands the
 * thread (when the parameters give one) to the target's tls_address,
 * which alone knows its threads: a one-thread target (a core of one
 * thread, the benchmark's mock, the CLI's simulated target) answers
 * without one, as it reads registers without one; a target of several
 * threads refuses (E_NO_CONTEXT or E_NOT_FOUND: class context). */
static dwexpr_frameref tls_seen;
static bool tls_calls;

/* One TLS block per thread: thread T's at 0x100000 * (T + 1); refused
 * without a thread. */
static dwexpr_status t_tls_threads(void *u, const dwexpr_frameref *f, uint64_t ta,
                                   dwexpr_sld *out)
{
    (void)u;
    tls_seen = *f;
    tls_calls = true;
    if (!(f->ctx & DWEXPR_CTX_THREAD))
        return DWEXPR_E_NO_CONTEXT;
    memset(out, 0, sizeof *out);
    out->kind = DWEXPR_LOC_MEMORY;
    out->byte_offset = 0x100000 * (f->thread + 1) + ta;
    return DWEXPR_OK;
}

/* One thread: its block at 0x7f000000. */
static dwexpr_status t_tls_one(void *u, const dwexpr_frameref *f, uint64_t ta, dwexpr_sld *out)
{
    (void)u;
    tls_seen = *f;
    tls_calls = true;
    memset(out, 0, sizeof *out);
    out->kind = DWEXPR_LOC_MEMORY;
    out->byte_offset = 0x7f000000 + ta;
    return DWEXPR_OK;
}

static void test_tls_thread(dwexpr_ctx *ctx)
{
    static const uint8_t expr[] = {0x08, 0x10, 0x9b}; /* const1u 0x10; form_tls_address */
    const dwexpr_target many = {.size = sizeof(dwexpr_target), .tls_address = t_tls_threads};
    const dwexpr_target one = {.size = sizeof(dwexpr_target), .tls_address = t_tls_one};
    dwexpr_eval_params none = {.result_kind = DWEXPR_RESULT_LOCATION};
    dwexpr_eval_params t7 = none;
    t7.ctx = DWEXPR_CTX_THREAD;
    t7.thread = 7;
    dwexpr_result r;
    tls_calls = false;
    TAP_OK(dwexpr_eval_bytes(ctx, expr, sizeof expr, &unit64, &many, NULL, &t7, &r) == DWEXPR_OK &&
               tls_calls && (tls_seen.ctx & DWEXPR_CTX_THREAD) && tls_seen.thread == 7 &&
               r.loc.count == 1 && r.loc.slds[0].kind == DWEXPR_LOC_MEMORY &&
               r.loc.slds[0].byte_offset == 0x800010,
           "form_tls_address: the target gets thread 7 and answers with its block");
    tls_calls = false;
    dwexpr_status s = dwexpr_eval_bytes(ctx, expr, sizeof expr, &unit64, &many, NULL, &none, &r);
    TAP_OK(tls_calls && !(tls_seen.ctx & DWEXPR_CTX_THREAD) && s == DWEXPR_E_NO_CONTEXT &&
               dwexpr_status_class(s) == DWEXPR_CLASS_CONTEXT &&
               dwexpr_ctx_error(ctx)->offset == 2 && dwexpr_ctx_error(ctx)->opcode == 0x9b,
           "form_tls_address without a thread: a target of several threads refuses, class "
           "context at the operation (%s)", dwexpr_ctx_error(ctx)->message);
    tls_calls = false;
    TAP_OK(dwexpr_eval_bytes(ctx, expr, sizeof expr, &unit64, &one, NULL, &none, &r) == DWEXPR_OK &&
               tls_calls && !(tls_seen.ctx & DWEXPR_CTX_THREAD) && r.loc.count == 1 &&
               r.loc.slds[0].byte_offset == 0x7f000010 && r.loc.slds[0].ctx == 0,
           "form_tls_address without a thread: a one-thread target answers (plain memory)");
}

int main(void)
{
    dwexpr_ctx *ctx = NULL;
    if (dwexpr_ctx_new(NULL, &ctx) != DWEXPR_OK) {
        TAP_OK(0, "dwexpr_ctx_new");
        return TAP_DONE();
    }
    test_mixed_composite(ctx);
    test_bit_pieces(ctx);
    test_several_places(ctx);
    test_register_bounds(ctx);
    test_read_past_storage(ctx);
    test_reuse(ctx);
    test_no_callbacks(ctx);
    test_tls_thread(ctx);
    dwexpr_ctx_free(ctx);
    test_static();
    return TAP_DONE();
}
