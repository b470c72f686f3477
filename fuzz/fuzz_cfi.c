/* fuzz/fuzz_cfi.c: libFuzzer harness for call frame information: the
 * .debug_frame / .eh_frame (+ .eh_frame_hdr) parser, the instruction
 * decoder, the rule table rows and the virtual unwinder over a
 * deterministic mock frame-0 target (fuzz/README.md).
 *
 * Input layout (little-endian fields; missing header bytes read as 0):
 *   h0  bit 0 .eh_frame (else .debug_frame); bits 1-2 address size
 *       8/4/2/1; bit 3 big endian; bit 4 an .eh_frame_hdr follows the
 *       header; bit 5 provisional DW_OP_LLVM_* encoding; bit 6 the mock
 *       has frame_pc (else the unwinder reads the pc register); bit 7 the
 *       mock has no reg_size (the architecture's sizes are used)
 *   h1  bits 0-1 arch x86_64 / generic32-64 (by address size) / none /
 *       amdgpu-wave64; bits 2-4 max frames - 1; bits 5-6 the pc: an FDE
 *       of the section + offset, the literal, an FDE's begin, its end - 1;
 *       bit 7 the unwinder searches the section twice (two handles)
 *   h2  hash seed of the mock's registers and memory
 *   h3  which FDE the pc is taken from
 *   h4-7 section address, h8-11 .eh_frame_hdr address, h12-15 .text
 *   address (textrel), h16-19 data address (datarel), h20-23 pc (literal,
 *   or offset in the FDE), h24-25 load bias / 4096, h26-27 .eh_frame_hdr
 *   length (with h0 bit 4)
 *   then the .eh_frame_hdr bytes, then the section's bytes.
 *
 * The mock: registers 0-16 are address-sized, 17-32 16 bytes, higher ones
 * hashed (some do not exist); the pc register (16) holds the pc and the
 * stack pointer (7) a stack address; every other address-sized word of a
 * register or of memory is a hash pick of a return address inside one of
 * the section's FDEs, a stack address, zero or noise, so unwinding walks
 * several frames. Some registers and memory pages are unreadable (class
 * target). The mock never expects a write. */
#include "fuzz_common.h"

enum { HDR = 28, POOL = 16, MAX_ENTRIES = 4096, MAX_RUN_FDES = 8, MAX_REGS = 12,
       MAX_REG_BYTES = 64 };

typedef struct range {
    uint64_t begin, end;
} range;

/* The mock frame-0 target. */
typedef struct mock {
    uint64_t seed;
    unsigned asize;
    bool big;
    uint64_t mask;
    uint64_t pc, stack;
    uint32_t pc_regno, sp_regno;
    range pool[POOL];
    size_t npool;
} mock;

/* splitmix64 finalizer. */
static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Hash of the seed and three numbers. */
static uint64_t h3(uint64_t seed, uint64_t a, uint64_t b, uint64_t c)
{
    return mix(mix(mix(seed ^ a) ^ b) ^ c);
}

/* An address-sized word for place (KIND, KEY): a return address inside a
 * known FDE, a stack address, zero, or noise. */
static uint64_t word(const mock *m, uint64_t kind, uint64_t key)
{
    uint64_t h = h3(m->seed, kind, key, 0x77);
    uint64_t v;
    switch (h & 7) {
    case 0: case 1: case 2: case 3: case 4:
        if (m->npool) {
            const range *r = &m->pool[(h >> 8) % m->npool];
            uint64_t span = r->end - r->begin;
            /* a return address: the call is the byte before it */
            v = r->begin + 1 + ((h >> 24) % (span ? span : 1));
        } else {
            v = h >> 16;
        }
        break;
    case 5: v = m->stack + ((h >> 8) & 0xff) * m->asize; break;
    case 6: v = 0; break;
    default: v = h; break;
    }
    return v & m->mask;
}

/* Byte K (0 = lowest address) of the word V in the target's byte order. */
static uint8_t word_byte(const mock *m, uint64_t v, unsigned k)
{
    unsigned sh = m->big ? m->asize - 1 - k : k;
    return (uint8_t)(v >> (8 * sh));
}

/* Size of register REGNO, 0 if it does not exist. */
static uint32_t mock_reg_bytes(const mock *m, uint32_t regno)
{
    if (regno <= 16)
        return m->asize;
    if (regno <= 32)
        return 16;
    uint64_t h = h3(m->seed, 0x5253, regno, 0);
    if (regno >= 128 && (h & 1))
        return 0;
    static const uint8_t sizes[8] = {1, 2, 4, 8, 8, 16, 4, 8};
    uint32_t s = sizes[(h >> 1) & 7];
    return s == 8 ? m->asize : s;
}

static dwexpr_status cb_reg_size(void *user, uint32_t regno, uint32_t *bytes)
{
    uint32_t b = mock_reg_bytes(user, regno);
    if (!b)
        return DWEXPR_E_NOT_FOUND;
    *bytes = b;
    return DWEXPR_OK;
}

static dwexpr_status cb_reg_read(void *user, const dwexpr_regref *r, uint64_t offset, void *buf,
                                 size_t len)
{
    const mock *m = user;
    /* the unwinder answers every frame but the top one itself */
    FZ_CHECK(r->frame == 0, "the inner target was asked for register %u of frame %u",
             (unsigned)r->regno, (unsigned)r->frame);
    uint32_t size = mock_reg_bytes(m, r->regno);
    if (!size)
        return DWEXPR_E_NOT_FOUND;
    if (offset > size || len > size - offset)
        return DWEXPR_E_OUT_OF_RANGE;
    if (r->regno != m->pc_regno && r->regno != m->sp_regno &&
        (h3(m->seed, 0x554e, r->regno, 0) & 15) == 0)
        return DWEXPR_E_TARGET;
    uint8_t *out = buf;
    for (size_t i = 0; i < len; i++) {
        uint64_t at = offset + i, v;
        if (r->regno == m->pc_regno && at < m->asize)
            v = m->pc;
        else if (r->regno == m->sp_regno && at < m->asize)
            v = m->stack;
        else
            v = word(m, 0x52, ((uint64_t)r->regno << 8) | (at / m->asize));
        out[i] = word_byte(m, v, (unsigned)(at % m->asize));
    }
    return DWEXPR_OK;
}

static dwexpr_status cb_mem_read(void *user, const dwexpr_memref *r, void *buf, size_t len)
{
    const mock *m = user;
    uint8_t *out = buf;
    if (r->aspace > 3)
        return DWEXPR_E_NOT_FOUND;
    for (size_t i = 0; i < len; i++) {
        uint64_t a = r->address + i;
        if ((h3(m->seed, 0x50, r->aspace, a >> 12) & 31) == 0)
            return DWEXPR_E_TARGET; /* an unmapped page */
        uint64_t v = word(m, 0x4d00 | r->aspace, a / m->asize);
        out[i] = word_byte(m, v, (unsigned)(a % m->asize));
    }
    return DWEXPR_OK;
}

static dwexpr_status cb_reg_write(void *user, const dwexpr_regref *r, uint64_t offset,
                                  const void *buf, size_t len)
{
    (void)user, (void)offset, (void)buf, (void)len;
    FZ_CHECK(0, "unwinding wrote register %u of frame %u", (unsigned)r->regno,
             (unsigned)r->frame);
    return DWEXPR_E_TARGET;
}

static dwexpr_status cb_mem_write(void *user, const dwexpr_memref *r, const void *buf, size_t len)
{
    (void)user, (void)buf;
    FZ_CHECK(0, "unwinding wrote %zu bytes of memory at 0x%llx", len,
             (unsigned long long)r->address);
    return DWEXPR_E_TARGET;
}

/* Address spaces 0-3: 0 has the address size, the others 32 or 64 bits. */
static dwexpr_status cb_aspace_info(void *user, uint32_t as, dwexpr_aspace_info *out)
{
    const mock *m = user;
    if (as > 3)
        return DWEXPR_E_NOT_FOUND;
    memset(out, 0, sizeof *out);
    out->addr_bits = (uint8_t)(as == 0 ? 8 * m->asize : (h3(m->seed, 0x4153, as, 0) & 1) ? 64 : 32);
    return DWEXPR_OK;
}

static dwexpr_status cb_frame_pc(void *user, const dwexpr_frameref *f, uint64_t *pc)
{
    const mock *m = user;
    FZ_CHECK(f->frame == 0, "the inner target was asked for the pc of frame %u",
             (unsigned)f->frame);
    *pc = m->pc;
    return DWEXPR_OK;
}

/* ---- checks ---- */

static uint64_t le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* True if [P, P+N) lies inside [BASE, BASE+SIZE). */
static bool within(const void *p, size_t n, const uint8_t *base, size_t size)
{
    const uint8_t *q = p;
    return q >= base && q <= base + size && n <= (size_t)(base + size - q);
}

/* A failure of the parser / row engine: class decode or ill_formed, or the
 * documented limits; ERR filled in. */
static void check_fail(dwexpr_status s, const dwexpr_error *err, size_t maxoff, const char *what)
{
    dwexpr_class c = dwexpr_status_class(s);
    FZ_CHECK(c == DWEXPR_CLASS_DECODE || c == DWEXPR_CLASS_ILL_FORMED || s == DWEXPR_E_TOO_BIG ||
                 s == DWEXPR_E_NOMEM,
             "%s failed with %s (class %s)", what, dwexpr_status_name(s), dwexpr_class_name(c));
    if (s == DWEXPR_E_NOMEM)
        return;
    FZ_CHECK(err->status == s, "%s: err.status %s vs %s", what, dwexpr_status_name(err->status),
             dwexpr_status_name(s));
    FZ_CHECK(memchr(err->message, 0, sizeof err->message) != NULL, "%s: message not terminated",
             what);
    FZ_CHECK(err->offset >= -1 && err->offset <= (int64_t)maxoff, "%s: error offset %lld of %zu",
             what, (long long)err->offset, maxoff);
}

/* Every rule of ROW (for PC) is well formed and points into the section. */
static void check_row(const dwexpr_cfi_row *row, uint64_t pc, const uint8_t *sec, size_t size)
{
    FZ_CHECK(row->pc_begin <= pc && pc < row->pc_end, "row [0x%llx, 0x%llx) for pc 0x%llx",
             (unsigned long long)row->pc_begin, (unsigned long long)row->pc_end,
             (unsigned long long)pc);
    FZ_CHECK(row->count <= DWEXPR_CFI_MAX_RULES, "%u rules", (unsigned)row->count);
    FZ_CHECK(row->cfa.kind == DWEXPR_CFI_CFA_REG_OFFSET || row->cfa.kind == DWEXPR_CFI_CFA_EXPRESSION ||
                 row->cfa.kind == DWEXPR_CFI_NONE,
             "CFA rule kind %u", (unsigned)row->cfa.kind);
    if (row->cfa.kind == DWEXPR_CFI_CFA_EXPRESSION)
        FZ_CHECK(within(row->cfa.expr, row->cfa.expr_len, sec, size),
                 "CFA expression outside the section");
    for (uint32_t i = 0; i < row->count; i++) {
        const dwexpr_cfi_reg_rule *r = &row->regs[i];
        FZ_CHECK(r->rule.kind <= DWEXPR_CFI_VAL_EXPRESSION, "register %u rule kind %u",
                 (unsigned)r->regno, (unsigned)r->rule.kind);
        if (r->rule.kind == DWEXPR_CFI_EXPRESSION || r->rule.kind == DWEXPR_CFI_VAL_EXPRESSION)
            FZ_CHECK(within(r->rule.expr, r->rule.expr_len, sec, size),
                     "register %u expression outside the section", (unsigned)r->regno);
        for (uint32_t j = 0; j < i; j++)
            FZ_CHECK(row->regs[j].regno != r->regno, "register %u has two rules",
                     (unsigned)r->regno);
    }
}

static bool rule_eq(const dwexpr_cfi_rule *a, const dwexpr_cfi_rule *b)
{
    return a->kind == b->kind && a->regno == b->regno && a->aspace == b->aspace &&
           a->offset == b->offset && a->expr == b->expr && a->expr_len == b->expr_len &&
           a->expr_offset == b->expr_offset;
}

static bool row_eq(const dwexpr_cfi_row *a, const dwexpr_cfi_row *b)
{
    if (a->pc_begin != b->pc_begin || a->pc_end != b->pc_end || a->fde_begin != b->fde_begin ||
        a->fde_offset != b->fde_offset || a->ra_column != b->ra_column ||
        a->signal_frame != b->signal_frame || a->args_size != b->args_size ||
        !rule_eq(&a->cfa, &b->cfa) || a->count != b->count)
        return false;
    for (uint32_t i = 0; i < a->count && i < DWEXPR_CFI_MAX_RULES; i++)
        if (a->regs[i].regno != b->regs[i].regno || !rule_eq(&a->regs[i].rule, &b->regs[i].rule))
            return false;
    return true;
}

/* Decode an instruction stream: instructions tile it, operands inside. */
static void check_insns(const dwexpr_cfi *cfi, const dwexpr_cfi_cie *cie, const uint8_t *p,
                        size_t len, uint64_t base, size_t secsize)
{
    size_t pos = 0;
    while (pos < len) {
        dwexpr_cfi_insn in;
        dwexpr_error e;
        memset(&e, 0, sizeof e);
        dwexpr_status s = dwexpr_cfi_insn_decode(cfi, cie, p, len, pos, base, &in, &e);
        if (s) {
            check_fail(s, &e, secsize, "instruction decode");
            return;
        }
        FZ_CHECK(in.size >= 1 && in.size <= len - pos, "instruction of %u bytes at %zu of %zu",
                 (unsigned)in.size, pos, len);
        FZ_CHECK(in.offset == base + pos, "instruction offset 0x%llx, expected 0x%llx",
                 (unsigned long long)in.offset, (unsigned long long)(base + pos));
        FZ_CHECK(in.name != NULL, "instruction 0x%02x has no name", in.op);
        if (in.expr)
            FZ_CHECK(within(in.expr, in.expr_len, p + pos, in.size),
                     "%s: expression outside the instruction", in.name);
        pos += in.size;
    }
}

/* ---- unwinding ---- */

/* A status of the unwinder: anything but usage. */
static void check_uw_status(dwexpr_status s, const dwexpr_unwinder *uw, const char *what)
{
    FZ_CHECK(s >= 0 && s < DWEXPR_STATUS_COUNT, "%s: status %d", what, (int)s);
    FZ_CHECK(dwexpr_status_class(s) != DWEXPR_CLASS_USAGE, "%s failed with %s", what,
             dwexpr_status_name(s));
    const dwexpr_error *e = dwexpr_unwinder_error(uw);
    FZ_CHECK(e && memchr(e->message, 0, sizeof e->message) != NULL,
             "%s: unwinder message not terminated", what);
}

/* Read NBITS through SLD (through the unwinding target) twice: same status,
 * same bits and undefined mask. */
static void read_twice(dwexpr_ctx *ctx, dwexpr_unwinder *uw, const dwexpr_sld *sld,
                       uint64_t nbits, const char *what)
{
    uint8_t b1[MAX_REG_BYTES], m1[MAX_REG_BYTES], b2[MAX_REG_BYTES], m2[MAX_REG_BYTES];
    size_t n = (size_t)((nbits + 7) / 8);
    memset(b1, 0, sizeof b1);
    memset(m1, 0, sizeof m1);
    memset(b2, 0, sizeof b2);
    memset(m2, 0, sizeof m2);
    dwexpr_loc loc = {1, sld};
    const dwexpr_target *t = dwexpr_unwinder_target();
    dwexpr_status s1 = dwexpr_loc_read(ctx, t, uw, &loc, nbits, b1, m1);
    check_uw_status(s1, uw, what);
    dwexpr_status s2 = dwexpr_loc_read(ctx, t, uw, &loc, nbits, b2, m2);
    FZ_CHECK(s1 == s2, "%s: read %s then %s", what, dwexpr_status_name(s1),
             dwexpr_status_name(s2));
    if (s1 == DWEXPR_OK)
        FZ_CHECK(memcmp(b1, b2, n) == 0 && memcmp(m1, m2, n) == 0,
                 "%s: two reads give different bits", what);
}

/* Register REGNO of frame I read as a register of that frame (the
 * unwinding target's reg_read) gives what its location LOC holds. */
static void check_deep_read(dwexpr_ctx *ctx, dwexpr_unwinder *uw, const dwexpr_sld *loc,
                            uint32_t i, uint32_t regno, uint64_t nbits, const char *what)
{
    uint8_t b1[MAX_REG_BYTES], m1[MAX_REG_BYTES], b2[MAX_REG_BYTES], m2[MAX_REG_BYTES];
    size_t n = (size_t)((nbits + 7) / 8);
    memset(b1, 0, sizeof b1);
    memset(m1, 0, sizeof m1);
    memset(b2, 0, sizeof b2);
    memset(m2, 0, sizeof m2);
    dwexpr_sld r;
    memset(&r, 0, sizeof r);
    r.kind = DWEXPR_LOC_REGISTER;
    r.u.regno = regno;
    r.frame = i;
    r.thread = 1;
    r.ctx = DWEXPR_CTX_FRAME | DWEXPR_CTX_THREAD;
    const dwexpr_target *t = dwexpr_unwinder_target();
    dwexpr_loc l1 = {1, loc}, l2 = {1, &r};
    dwexpr_status s1 = dwexpr_loc_read(ctx, t, uw, &l1, nbits, b1, m1);
    dwexpr_status s2 = dwexpr_loc_read(ctx, t, uw, &l2, nbits, b2, m2);
    check_uw_status(s2, uw, what);
    if (s1 == DWEXPR_OK && s2 == DWEXPR_OK)
        FZ_CHECK(memcmp(b1, b2, n) == 0 && memcmp(m1, m2, n) == 0,
                 "%s: its location (kind %u, 0x%llx) and the register read differ", what,
                 (unsigned)loc->kind, (unsigned long long)loc->byte_offset);
}

static bool sld_eq(const dwexpr_sld *a, const dwexpr_sld *b)
{
    if (a->kind != b->kind || a->bit != b->bit || a->aspace != b->aspace ||
        a->byte_offset != b->byte_offset)
        return false;
    switch (a->kind) {
    case DWEXPR_LOC_REGISTER: return a->u.regno == b->u.regno && a->frame == b->frame;
    case DWEXPR_LOC_IMPLICIT:
        return a->u.imp.bits == b->u.imp.bits &&
               memcmp(a->u.imp.data, b->u.imp.data, (size_t)((a->u.imp.bits + 7) / 8)) == 0;
    case DWEXPR_LOC_COMPOSITE: return a->u.comp == b->u.comp;
    default: return true;
    }
}

/* Unwind up to MAXF frames over the mock; read every frame's CFA and a few
 * registers through their locations. */
static void unwind(const dwexpr_cfi *a, const dwexpr_cfi *b, mock *m, const dwexpr_arch *arch,
                   uint8_t h0, uint8_t h1)
{
    dwexpr_unwind_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.size = sizeof cfg;
    cfg.arch = arch;
    cfg.unit.id = 1;
    cfg.unit.addr_size = (uint8_t)m->asize;
    cfg.unit.offset_size = 4;
    cfg.unit.version = 5;
    cfg.unit.ext_encoding = (h0 & 0x20) ? DWEXPR_EXT_PROVISIONAL : DWEXPR_EXT_LLVM_USER;
    cfg.unit.big_endian = m->big;
    cfg.pc_regno = m->pc_regno;
    cfg.max_frames = 1u + ((h1 >> 2) & 7);
    cfg.thread = 1;
    cfg.ctx = DWEXPR_CTX_THREAD;

    dwexpr_target t;
    memset(&t, 0, sizeof t);
    t.size = sizeof t;
    if (!(h0 & 0x80))
        t.reg_size = cb_reg_size;
    t.reg_read = cb_reg_read;
    t.reg_write = cb_reg_write;
    t.mem_read = cb_mem_read;
    t.mem_write = cb_mem_write;
    t.aspace_info = cb_aspace_info;
    if (h0 & 0x40)
        t.frame_pc = cb_frame_pc;

    dwexpr_unwinder *uw = NULL;
    dwexpr_status s = dwexpr_unwinder_new(&cfg, &t, m, &uw);
    FZ_CHECK(s == DWEXPR_OK && uw, "unwinder_new: %s", dwexpr_status_name(s));
    FZ_CHECK(dwexpr_unwinder_add_cfi(uw, a) == DWEXPR_OK, "add_cfi");
    if (b)
        FZ_CHECK(dwexpr_unwinder_add_cfi(uw, b) == DWEXPR_OK, "add_cfi (second)");
    dwexpr_ctx *ctx = NULL;
    FZ_CHECK(dwexpr_ctx_new(NULL, &ctx) == DWEXPR_OK, "ctx_new");

    uint32_t i;
    for (i = 0; i <= cfg.max_frames; i++) {
        dwexpr_unwind_frame f;
        char what[64];
        memset(&f, 0, sizeof f);
        s = dwexpr_unwinder_frame(uw, i, &f);
        snprintf(what, sizeof what, "frame %u", (unsigned)i);
        if (s) {
            check_uw_status(s, uw, what);
            /* the stack ended: every later frame is gone too */
            dwexpr_status s2 = dwexpr_unwinder_frame(uw, i + 1, NULL);
            FZ_CHECK(s2 != DWEXPR_OK, "frame %u fails (%s) but frame %u exists", (unsigned)i,
                     dwexpr_status_name(s), (unsigned)(i + 1));
            break;
        }
        FZ_CHECK(i < cfg.max_frames, "frame %u of at most %u", (unsigned)i,
                 (unsigned)cfg.max_frames);
        FZ_CHECK(f.index == i, "frame %u says it is %u", (unsigned)i, (unsigned)f.index);
        if (i == 0)
            FZ_CHECK(f.pc == m->pc, "frame 0 pc 0x%llx, mock 0x%llx", (unsigned long long)f.pc,
                     (unsigned long long)m->pc);
        const dwexpr_cfi_row *row = NULL;
        s = dwexpr_unwinder_row(uw, i, &row);
        /* a row: its FDE's, or frame 0's frameless guess (no FDE holds its pc) */
        FZ_CHECK(!f.guessed || (i == 0 && !f.has_row), "frame %u: guessed %d, has_row %d",
                 (unsigned)i, (int)f.guessed, (int)f.has_row);
        FZ_CHECK((s == DWEXPR_OK) == (f.has_row || f.guessed),
                 "frame %u: row %s, has_row %d, guessed %d", (unsigned)i, dwexpr_status_name(s),
                 (int)f.has_row, (int)f.guessed);
        if (s == DWEXPR_OK) {
            FZ_CHECK(row != NULL, "frame %u: no row", (unsigned)i);
            /* the row holds the pc, or the call before it (pc - 1) */
            FZ_CHECK((row->pc_begin <= f.pc && f.pc < row->pc_end) ||
                         (row->pc_begin <= f.pc - 1 && f.pc - 1 < row->pc_end),
                     "frame %u: row [0x%llx, 0x%llx) for pc 0x%llx", (unsigned)i,
                     (unsigned long long)row->pc_begin, (unsigned long long)row->pc_end,
                     (unsigned long long)f.pc);
        }
        if (f.has_cfa) {
            FZ_CHECK(f.has_row || f.guessed, "frame %u: a CFA without a row", (unsigned)i);
            FZ_CHECK(f.cfa.kind == DWEXPR_LOC_MEMORY && f.cfa.bit == 0,
                     "frame %u: CFA of kind %u bit %u", (unsigned)i, (unsigned)f.cfa.kind,
                     (unsigned)f.cfa.bit);
            snprintf(what, sizeof what, "frame %u CFA read", (unsigned)i);
            read_twice(ctx, uw, &f.cfa, 8u * m->asize, what);
        }
        /* registers: the return address column, the CFA register, pc and
         * sp, the row's rules, a hashed one */
        uint32_t regs[MAX_REGS];
        size_t nr = 0;
        regs[nr++] = m->pc_regno;
        regs[nr++] = m->sp_regno;
        if (row) {
            regs[nr++] = (uint32_t)row->ra_column;
            if (row->cfa.kind == DWEXPR_CFI_CFA_REG_OFFSET)
                regs[nr++] = row->cfa.regno;
            for (uint32_t k = 0; k < row->count && nr < MAX_REGS - 1; k++)
                regs[nr++] = row->regs[k].regno;
        }
        regs[nr++] = (uint32_t)(h3(m->seed, 0x4847, i, 0) % 40);
        for (size_t k = 0; k < nr; k++) {
            dwexpr_sld l1, l2;
            memset(&l1, 0, sizeof l1);
            memset(&l2, 0, sizeof l2);
            snprintf(what, sizeof what, "frame %u register %u", (unsigned)i, (unsigned)regs[k]);
            dwexpr_status r1 = dwexpr_unwinder_register_location(uw, i, regs[k], &l1);
            check_uw_status(r1, uw, what);
            dwexpr_status r2 = dwexpr_unwinder_register_location(uw, i, regs[k], &l2);
            FZ_CHECK(r1 == r2, "%s: location %s then %s", what, dwexpr_status_name(r1),
                     dwexpr_status_name(r2));
            if (r1)
                continue;
            FZ_CHECK(l1.kind <= DWEXPR_LOC_COMPOSITE, "%s: location kind %u", what,
                     (unsigned)l1.kind);
            FZ_CHECK(sld_eq(&l1, &l2), "%s: two different locations", what);
            if (i == 0)
                FZ_CHECK(l1.kind == DWEXPR_LOC_REGISTER && l1.u.regno == regs[k],
                         "%s: frame 0 register is not itself", what);
            uint32_t bytes = 0;
            if (!(h0 & 0x80))
                bytes = mock_reg_bytes(m, regs[k]);
            else
                bytes = dwexpr_arch_reg_size(arch, regs[k]);
            if (!bytes)
                bytes = m->asize;
            if (bytes > MAX_REG_BYTES)
                bytes = MAX_REG_BYTES;
            read_twice(ctx, uw, &l1, 8ull * bytes, what);
            if (i > 0)
                check_deep_read(ctx, uw, &l1, i, regs[k], 8ull * bytes, what);
        }
        if (f.outermost) {
            dwexpr_status s2 = dwexpr_unwinder_frame(uw, i + 1, NULL);
            FZ_CHECK(s2 != DWEXPR_OK, "frame %u is outermost but frame %u exists", (unsigned)i,
                     (unsigned)(i + 1));
        }
    }
    if (getenv("FUZZ_VERBOSE"))
        fprintf(stderr, "fuzz_cfi: pc 0x%llx, %u of at most %u frames, then %s: %s\n",
                (unsigned long long)m->pc, (unsigned)i, (unsigned)cfg.max_frames,
                dwexpr_status_name(s), dwexpr_unwinder_error(uw)->message);
    /* never more than max_frames frames */
    FZ_CHECK(dwexpr_unwinder_frame(uw, cfg.max_frames, NULL) != DWEXPR_OK,
             "frame %u exists with max_frames %u", (unsigned)cfg.max_frames,
             (unsigned)cfg.max_frames);
    dwexpr_ctx_free(ctx);
    dwexpr_unwinder_free(uw);
}

/* ---- the entry point ---- */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const uint8_t asizes[4] = {8, 4, 2, 1};
    uint8_t h[HDR];
    memset(h, 0, sizeof h);
    memcpy(h, data, size < HDR ? size : HDR);
    size_t rest = size > HDR ? size - HDR : 0;
    const uint8_t *p = data + (size < HDR ? size : HDR);
    size_t hlen = (h[0] & 0x10) ? (size_t)le(h + 26, 2) : 0;
    if (hlen > rest)
        hlen = rest;
    /* exact-size copies, so a sanitizer sees any read past either */
    uint8_t *hdr = NULL;
    if (h[0] & 0x10) {
        hdr = malloc(hlen ? hlen : 1);
        FZ_CHECK(hdr != NULL, "out of memory");
        memcpy(hdr, p, hlen);
    }
    size_t len = rest - hlen;
    uint8_t *sec = malloc(len ? len : 1);
    FZ_CHECK(sec != NULL, "out of memory");
    memcpy(sec, p + hlen, len);

    mock m;
    memset(&m, 0, sizeof m);
    m.seed = mix(h[2]);
    m.asize = asizes[(h[0] >> 1) & 3];
    m.big = (h[0] & 8) != 0;
    m.mask = m.asize >= 8 ? UINT64_MAX : (((uint64_t)1 << (8 * m.asize)) - 1);
    m.stack = (0x7ffe12340000ull + 0x1000ull * h[2]) & m.mask & ~(uint64_t)0xf;
    m.pc_regno = 16;
    m.sp_regno = 7;

    const dwexpr_arch *arch = NULL;
    switch (h[1] & 3) {
    case 0: arch = dwexpr_arch_find("x86_64"); break;
    case 1: arch = dwexpr_arch_find(m.asize == 4 ? "generic32" : "generic64"); break;
    case 2: arch = NULL; break;
    default: arch = dwexpr_arch_find("amdgpu-wave64"); break;
    }

    dwexpr_cfi_section d;
    memset(&d, 0, sizeof d);
    d.format = (h[0] & 1) ? DWEXPR_CFI_EH_FRAME : DWEXPR_CFI_DEBUG_FRAME;
    d.data = sec;
    d.size = len;
    d.address = le(h + 4, 4);
    d.hdr = hdr;
    d.hdr_size = hlen;
    d.hdr_address = le(h + 8, 4);
    d.text_address = le(h + 12, 4);
    d.data_address = le(h + 16, 4);
    d.bias = le(h + 24, 2) << 12;
    d.addr_size = (uint8_t)m.asize;
    d.big_endian = m.big;
    d.ext_encoding = (h[0] & 0x20) ? DWEXPR_EXT_PROVISIONAL : DWEXPR_EXT_LLVM_USER;
    d.arch = arch;
    size_t maxoff = len > hlen ? len : hlen;

    /* open the same bytes twice: the same outcome */
    dwexpr_cfi *a = NULL, *b = NULL;
    dwexpr_error ea, eb;
    memset(&ea, 0, sizeof ea);
    memset(&eb, 0, sizeof eb);
    dwexpr_status sa = dwexpr_cfi_open(&d, &a, &ea);
    dwexpr_status sb = dwexpr_cfi_open(&d, &b, &eb);
    FZ_CHECK(sa == sb, "open: %s then %s", dwexpr_status_name(sa), dwexpr_status_name(sb));
    if (getenv("FUZZ_VERBOSE"))
        fprintf(stderr, "fuzz_cfi: %s of %zu bytes (hdr %zu): open %s%s%s\n",
                d.format == DWEXPR_CFI_EH_FRAME ? ".eh_frame" : ".debug_frame", len, hlen,
                dwexpr_status_name(sa), sa ? ": " : "", sa ? ea.message : "");
    if (sa) {
        FZ_CHECK(a == NULL && b == NULL, "failed open returns a handle");
        check_fail(sa, &ea, maxoff, "open");
        FZ_CHECK(ea.offset == eb.offset && strcmp(ea.message, eb.message) == 0,
                 "open fails differently: %s / %s", ea.message, eb.message);
        goto out;
    }
    FZ_CHECK(a && b, "open OK without a handle");
    FZ_CHECK(dwexpr_cfi_fde_count(a) == dwexpr_cfi_fde_count(b), "FDE counts differ");
    const dwexpr_cfi_section *gs = dwexpr_cfi_get_section(a);
    FZ_CHECK(gs && gs->data == sec && gs->size == len && gs->addr_size == m.asize,
             "get_section does not describe the section");

    /* walk the entries: each lies inside the section, the FDEs are those
     * the index counted */
    size_t nfde = 0, nent = 0, nrun = 0;
    uint64_t off = 0, next = 0;
    while (off < len && nent < MAX_ENTRIES) {
        dwexpr_cfi_entry en;
        dwexpr_error e;
        memset(&e, 0, sizeof e);
        dwexpr_status s = dwexpr_cfi_entry_at(a, off, &en, &next, &e);
        if (s == DWEXPR_E_NOT_FOUND)
            break;
        /* open walked the same entries and accepted them */
        FZ_CHECK(s == DWEXPR_OK, "entry at 0x%llx: %s after a successful open: %s",
                 (unsigned long long)off, dwexpr_status_name(s), e.message);
        nent++;
        const dwexpr_cfi_cie *cie = &en.cie;
        FZ_CHECK(cie->augmentation &&
                     within(cie->augmentation, strlen(cie->augmentation) + 1, sec, len),
                 "CIE augmentation outside the section");
        FZ_CHECK(within(cie->insns, cie->insns_len, sec, len) &&
                     cie->insns_offset == (uint64_t)(cie->insns - sec),
                 "CIE instructions outside the section");
        if (!en.is_cie) {
            const dwexpr_cfi_fde *fde = &en.fde;
            nfde++;
            FZ_CHECK(within(fde->insns, fde->insns_len, sec, len) &&
                         fde->insns_offset == (uint64_t)(fde->insns - sec),
                     "FDE instructions outside the section");
            FZ_CHECK(fde->pc_begin <= fde->pc_end, "FDE [0x%llx, 0x%llx)",
                     (unsigned long long)fde->pc_begin, (unsigned long long)fde->pc_end);
            if (fde->pc_begin < fde->pc_end && m.npool < POOL) {
                m.pool[m.npool].begin = fde->pc_begin;
                m.pool[m.npool].end = fde->pc_end;
                m.npool++;
            }
            if (nent <= 64)
                check_insns(a, cie, fde->insns, fde->insns_len, fde->insns_offset, len);
            if (fde->pc_begin < fde->pc_end && nrun < MAX_RUN_FDES) {
                /* the row at both ends of the FDE, from both handles */
                nrun++;
                uint64_t pcs[2] = {fde->pc_begin, fde->pc_end - 1};
                for (int k = 0; k < 2; k++) {
                    static dwexpr_cfi_row r1, r2;
                    dwexpr_error e1, e2;
                    memset(&e1, 0, sizeof e1);
                    memset(&e2, 0, sizeof e2);
                    dwexpr_status s1 = dwexpr_cfi_run(a, cie, fde, pcs[k], &r1, &e1);
                    dwexpr_status s2 = dwexpr_cfi_run(b, cie, fde, pcs[k], &r2, &e2);
                    FZ_CHECK(s1 == s2, "run: %s then %s", dwexpr_status_name(s1),
                             dwexpr_status_name(s2));
                    if (s1) {
                        check_fail(s1, &e1, maxoff, "run");
                        continue;
                    }
                    check_row(&r1, pcs[k], sec, len);
                    FZ_CHECK(row_eq(&r1, &r2), "two runs give different rows");
                    FZ_CHECK(r1.fde_begin == fde->pc_begin && r1.fde_offset == fde->offset,
                             "row of another FDE");
                }
                /* the index finds an FDE holding its begin, or none */
                dwexpr_cfi_fde f2;
                dwexpr_cfi_cie c2;
                dwexpr_error e2;
                memset(&e2, 0, sizeof e2);
                dwexpr_status s2 = dwexpr_cfi_find_fde(a, fde->pc_begin, &f2, &c2, &e2);
                if (s2 == DWEXPR_OK)
                    FZ_CHECK(f2.pc_begin <= fde->pc_begin && fde->pc_begin < f2.pc_end,
                             "find_fde(0x%llx) gives [0x%llx, 0x%llx)",
                             (unsigned long long)fde->pc_begin, (unsigned long long)f2.pc_begin,
                             (unsigned long long)f2.pc_end);
                else if (s2 != DWEXPR_E_NOT_FOUND)
                    check_fail(s2, &e2, maxoff, "find_fde");
            }
        } else if (nent <= 64) {
            check_insns(a, cie, cie->insns, cie->insns_len, cie->insns_offset, len);
        }
        FZ_CHECK(next > off && next <= len, "entry at 0x%llx: next 0x%llx of %zu",
                 (unsigned long long)off, (unsigned long long)next, len);
        off = next;
    }
    if (nent < MAX_ENTRIES)
        FZ_CHECK(nfde == dwexpr_cfi_fde_count(a), "%zu FDEs walked, %zu indexed", nfde,
                 dwexpr_cfi_fde_count(a));

    /* the pc: inside an FDE of the section, or the literal */
    uint64_t pcv = le(h + 20, 4);
    unsigned mode = (h[1] >> 5) & 3;
    if (m.npool == 0)
        mode = 1;
    const range *r = &m.pool[h[3] % (m.npool ? m.npool : 1)];
    switch (mode) {
    case 0: m.pc = r->begin + pcv % (r->end - r->begin); break;
    case 1: m.pc = (pcv + d.bias) & m.mask; break;
    case 2: m.pc = r->begin; break;
    default: m.pc = r->end - 1; break;
    }
    m.pc &= m.mask;

    /* the row for the pc: the same from both handles */
    {
        static dwexpr_cfi_row r1, r2;
        dwexpr_error e1, e2;
        memset(&e1, 0, sizeof e1);
        memset(&e2, 0, sizeof e2);
        dwexpr_status s1 = dwexpr_cfi_row_for_pc(a, m.pc, &r1, &e1);
        dwexpr_status s2 = dwexpr_cfi_row_for_pc(b, m.pc, &r2, &e2);
        FZ_CHECK(s1 == s2, "row_for_pc: %s then %s", dwexpr_status_name(s1),
                 dwexpr_status_name(s2));
        if (s1 == DWEXPR_OK) {
            check_row(&r1, m.pc, sec, len);
            FZ_CHECK(row_eq(&r1, &r2), "row_for_pc gives two rows");
        } else if (s1 != DWEXPR_E_NOT_FOUND) {
            check_fail(s1, &e1, maxoff, "row_for_pc");
            FZ_CHECK(strcmp(e1.message, e2.message) == 0, "row_for_pc fails differently");
        }
    }

    unwind(a, (h[1] & 0x80) ? b : NULL, &m, arch, h[0], h[1]);
out:
    dwexpr_cfi_free(a);
    dwexpr_cfi_free(b);
    free(sec);
    free(hdr);
    return 0;
}
