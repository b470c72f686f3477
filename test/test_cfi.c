/* test/test_cfi.c: call frame information: hand-assembled CIEs and FDEs
 * (every DW_CFA_* instruction, every parse error), rows, rules as
 * location descriptions, virtual unwinding on a simulated x86-64 stack,
 * and AMDGPU-style rules on a simulated wavefront. */
#if defined(__unix__)
#  define _POSIX_C_SOURCE 200809L
#  include <sys/stat.h>
#  include <sys/wait.h>
#  include <unistd.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dwexpr.h>
#include "tap.h"

/* ---- a byte builder ---- */

typedef struct buf {
    uint8_t b[4096];
    size_t n;
} buf;

static void u8(buf *o, unsigned v) { o->b[o->n++] = (uint8_t)v; }
static void uN(buf *o, uint64_t v, unsigned size)
{
    for (unsigned i = 0; i < size; i++)
        u8(o, (unsigned)(v >> (8 * i)) & 0xff);
}
static void uleb(buf *o, uint64_t v)
{
    do {
        uint8_t b = v & 0x7f;
        v >>= 7;
        u8(o, b | (v ? 0x80 : 0));
    } while (v);
}
static void sleb(buf *o, int64_t v)
{
    for (;;) {
        uint8_t b = v & 0x7f;
        v >>= 7;
        bool done = (v == 0 && !(b & 0x40)) || (v == -1 && (b & 0x40));
        u8(o, b | (done ? 0 : 0x80));
        if (done)
            break;
    }
}
static void bytes(buf *o, const uint8_t *p, size_t n)
{
    if (n)
        memcpy(o->b + o->n, p, n);
    o->n += n;
}
static void str(buf *o, const char *s) { bytes(o, (const uint8_t *)s, strlen(s) + 1); }
/* Patch a 32-bit length at AT to cover everything after it. */
static void patch_len(buf *o, size_t at)
{
    uint64_t l = o->n - at - 4;
    for (int i = 0; i < 4; i++)
        o->b[at + i] = (uint8_t)(l >> (8 * i));
}

/* Assemble a CFI expression from text (llvm-user encoding). */
static size_t asmx(const char *text, uint8_t *out)
{
    dwexpr_unit u;
    memset(&u, 0, sizeof u);
    u.addr_size = 8;
    u.offset_size = 4;
    u.version = 5;
    size_t len = 0;
    dwexpr_error e;
    if (dwexpr_asm(text, &u, NULL, out, 256, &len, &e)) {
        printf("# asm failed: %s: %s\n", text, e.message);
        return 0;
    }
    return len;
}
/* A block: ULEB length + expression bytes. */
static void block(buf *o, const char *text)
{
    uint8_t e[256];
    size_t n = asmx(text, e);
    uleb(o, n);
    bytes(o, e, n);
}

/* A .debug_frame CIE (32-bit) of VERSION; returns its offset. */
static size_t dcie(buf *o, unsigned version, uint64_t caf, int64_t daf, unsigned ra,
                   const uint8_t *ins, size_t nins)
{
    size_t at = o->n;
    uN(o, 0, 4);
    uN(o, 0xffffffffu, 4);
    u8(o, version);
    str(o, "");
    if (version == 4) {
        u8(o, 8);
        u8(o, 0);
    }
    uleb(o, caf);
    sleb(o, daf);
    if (version == 1)
        u8(o, ra);
    else
        uleb(o, ra);
    bytes(o, ins, nins);
    patch_len(o, at);
    return at;
}

/* A .debug_frame FDE (32-bit). */
static size_t dfde(buf *o, size_t cie, uint64_t begin, uint64_t range, const uint8_t *ins,
                   size_t nins)
{
    size_t at = o->n;
    uN(o, 0, 4);
    uN(o, cie, 4);
    uN(o, begin, 8);
    uN(o, range, 8);
    bytes(o, ins, nins);
    patch_len(o, at);
    return at;
}

static dwexpr_cfi *open_sec(const buf *o, dwexpr_cfi_format fmt, const char *arch,
                            dwexpr_status *st, dwexpr_error *e)
{
    dwexpr_cfi_section s;
    memset(&s, 0, sizeof s);
    s.format = fmt;
    s.data = o->b;
    s.size = o->n;
    s.address = 0x1000;
    s.arch = arch ? dwexpr_arch_find(arch) : NULL;
    dwexpr_cfi *c = NULL;
    *st = dwexpr_cfi_open(&s, &c, e);
    return c;
}

/* ---- parsing ---- */

static void test_versions(void)
{
    static const uint8_t init[] = {DW_CFA_def_cfa, 7, 8, DW_CFA_offset | 16, 1};
    static const uint8_t fins[] = {DW_CFA_advance_loc | 4, DW_CFA_def_cfa_offset, 16};
    for (unsigned v = 1; v <= 4; v++) {
        if (v == 2)
            continue;
        buf o = {{0}, 0};
        size_t c = dcie(&o, v, 1, -8, 16, init, sizeof init);
        dfde(&o, c, 0x400000, 0x20, fins, sizeof fins);
        dwexpr_status st;
        dwexpr_error e;
        dwexpr_cfi *cfi = open_sec(&o, DWEXPR_CFI_DEBUG_FRAME, "x86_64", &st, &e);
        CHECK_U64(st, DWEXPR_OK, "debug_frame CIE version %u opens (%s)", v, st ? e.message : "");
        dwexpr_cfi_row row;
        st = dwexpr_cfi_row_for_pc(cfi, 0x400006, &row, &e);
        CHECK_U64(st, DWEXPR_OK, "v%u: row for pc", v);
        CHECK_U64(row.cfa.offset, 16, "v%u: def_cfa_offset after advance_loc", v);
        CHECK_U64(dwexpr_cfi_row_rule(&row, NULL, 16).offset, (uint64_t)-8,
                  "v%u: CIE offset rule r16 = cfa-8", v);
        dwexpr_cfi_entry en;
        uint64_t next;
        CHECK_U64(dwexpr_cfi_entry_at(cfi, 0, &en, &next, &e), DWEXPR_OK, "v%u: entry 0", v);
        TAP_OK(en.is_cie && en.cie.version == v && en.cie.ra_column == 16 &&
                   en.cie.data_align == -8,
               "v%u: CIE fields", v);
        dwexpr_cfi_free(cfi);
    }
    /* 64-bit DWARF (DWARF 5 7.4) */
    buf o = {{0}, 0};
    uN(&o, 0xffffffffu, 4);
    size_t l1 = o.n;
    uN(&o, 0, 8);
    uN(&o, UINT64_MAX, 8);
    u8(&o, 4);
    str(&o, "");
    u8(&o, 8);
    u8(&o, 0);
    uleb(&o, 1);
    sleb(&o, -8);
    uleb(&o, 16);
    bytes(&o, init, sizeof init);
    uint64_t len = o.n - l1 - 8;
    for (int i = 0; i < 8; i++)
        o.b[l1 + i] = (uint8_t)(len >> (8 * i));
    size_t f = o.n;
    uN(&o, 0xffffffffu, 4);
    size_t l2 = o.n;
    uN(&o, 0, 8);
    uN(&o, 0, 8); /* CIE at 0 */
    uN(&o, 0x500000, 8);
    uN(&o, 0x10, 8);
    bytes(&o, fins, sizeof fins);
    len = o.n - l2 - 8;
    for (int i = 0; i < 8; i++)
        o.b[l2 + i] = (uint8_t)(len >> (8 * i));
    dwexpr_status st;
    dwexpr_error e;
    dwexpr_cfi *cfi = open_sec(&o, DWEXPR_CFI_DEBUG_FRAME, NULL, &st, &e);
    CHECK_U64(st, DWEXPR_OK, "64-bit DWARF .debug_frame opens (%s)", st ? e.message : "");
    dwexpr_cfi_fde fde;
    dwexpr_cfi_cie cie;
    CHECK_U64(dwexpr_cfi_find_fde(cfi, 0x50000f, &fde, &cie, &e), DWEXPR_OK, "64-bit FDE found");
    TAP_OK(fde.is64 && cie.is64 && fde.offset == f && fde.pc_end == 0x500010, "64-bit FDE fields");
    CHECK_U64(dwexpr_cfi_find_fde(cfi, 0x500010, NULL, NULL, &e), DWEXPR_E_NOT_FOUND,
              "pc at the FDE end is not in it");
    dwexpr_cfi_free(cfi);
}

/* .eh_frame builder: CIE with augmentation AUG and its data. */
static size_t ecie(buf *o, const char *aug, const uint8_t *augdata, size_t nad, const uint8_t *ins,
                   size_t nins)
{
    size_t at = o->n;
    uN(o, 0, 4);
    uN(o, 0, 4);
    u8(o, 1);
    str(o, aug);
    uleb(o, 1);
    sleb(o, -8);
    u8(o, 16);
    if (aug[0] == 'z') {
        uleb(o, nad);
        bytes(o, augdata, nad);
    }
    bytes(o, ins, nins);
    patch_len(o, at);
    return at;
}

/* .eh_frame FDE with a pcrel|sdata4 (or ENC) begin. */
static size_t efde(buf *o, size_t cie, uint8_t enc, uint64_t sec_addr, uint64_t begin,
                   uint64_t range, const uint8_t *augdata, size_t nad, const uint8_t *ins,
                   size_t nins)
{
    size_t at = o->n;
    uN(o, 0, 4);
    uN(o, o->n - cie, 4);
    uint64_t field = sec_addr + o->n;
    switch (enc) {
    case 0x1b: uN(o, begin - field, 4); uN(o, range, 4); break;           /* pcrel sdata4 */
    case 0x03: uN(o, begin, 4); uN(o, range, 4); break;                   /* udata4 */
    case 0x02: uN(o, begin, 2); uN(o, range, 2); break;                   /* udata2 */
    case 0x04: uN(o, begin, 8); uN(o, range, 8); break;                   /* udata8 */
    case 0x01: uleb(o, begin); uleb(o, range); break;                     /* uleb128 */
    case 0x09: sleb(o, (int64_t)begin); sleb(o, (int64_t)range); break;   /* sleb128 */
    case 0x23: uN(o, begin - 0x400000, 4); uN(o, range, 4); break;        /* textrel udata4 */
    case 0x3b: uN(o, begin - 0x600000, 4); uN(o, range, 4); break;        /* datarel sdata4 */
    case 0x50:                                                            /* aligned */
        while ((sec_addr + o->n) % 8)
            u8(o, 0);
        uN(o, begin, 8);
        uN(o, range, 8);
        break;
    default: break;
    }
    if (augdata) {
        uleb(o, nad);
        bytes(o, augdata, nad);
    }
    bytes(o, ins, nins);
    patch_len(o, at);
    return at;
}

static void test_eh_frame(void)
{
    static const uint8_t init[] = {DW_CFA_def_cfa, 7, 8, DW_CFA_offset | 16, 1};
    static const uint8_t fins[] = {DW_CFA_advance_loc | 1, DW_CFA_def_cfa_offset, 16};
    static const uint8_t encs[] = {0x1b, 0x03, 0x02, 0x04, 0x01, 0x09, 0x23, 0x3b, 0x50};
    static const char *const names[] = {"pcrel|sdata4", "udata4", "udata2", "udata8", "uleb128",
                                        "sleb128", "textrel", "datarel", "aligned"};
    for (size_t k = 0; k < sizeof encs; k++) {
        buf o = {{0}, 0};
        uint8_t ad[1] = {encs[k]};
        size_t c = ecie(&o, "zR", ad, 1, init, sizeof init);
        uint64_t begin = encs[k] == 0x02 ? 0x4000 : 0x401000;
        efde(&o, c, encs[k], 0x1000, begin, 0x40, (const uint8_t *)"", 0, fins, sizeof fins);
        uN(&o, 0, 4); /* terminator */
        dwexpr_cfi_section s;
        memset(&s, 0, sizeof s);
        s.format = DWEXPR_CFI_EH_FRAME;
        s.data = o.b;
        s.size = o.n;
        s.address = 0x1000;
        s.text_address = 0x400000;
        s.data_address = 0x600000;
        s.bias = 0x10000;
        dwexpr_cfi *cfi;
        dwexpr_error e;
        dwexpr_status st = dwexpr_cfi_open(&s, &cfi, &e);
        CHECK_U64(st, DWEXPR_OK, "eh_frame FDE encoding %s opens (%s)", names[k],
                  st ? e.message : "");
        if (st)
            continue;
        dwexpr_cfi_row row;
        st = dwexpr_cfi_row_for_pc(cfi, begin + 0x10000 + 2, &row, &e);
        CHECK_U64(st, DWEXPR_OK, "%s: FDE found at biased pc", names[k]);
        CHECK_U64(row.cfa.offset, 16, "%s: row", names[k]);
        dwexpr_cfi_free(cfi);
    }
    /* zPLRS: personality (indirect|pcrel|sdata4 to a word in the
     * section), LSDA (udata4), signal frame */
    buf o = {{0}, 0};
    uint8_t ad[16];
    size_t n = 0;
    ad[n++] = 0x80; /* P: indirect|absptr, pointing at the CIE's first word */
    for (int i = 0; i < 8; i++)
        ad[n++] = (uint8_t)((uint64_t)0x1000 >> (8 * i));
    ad[n++] = 0x03; /* L: udata4 */
    ad[n++] = 0x1b; /* R */
    size_t c = ecie(&o, "zPLRS", ad, n, init, sizeof init);
    uint8_t lsda[4] = {0x44, 0x33, 0x22, 0x11};
    efde(&o, c, 0x1b, 0x1000, 0x402000, 0x30, lsda, 4, fins, sizeof fins);
    uN(&o, 0, 4);
    dwexpr_status st;
    dwexpr_error e;
    dwexpr_cfi *cfi = open_sec(&o, DWEXPR_CFI_EH_FRAME, NULL, &st, &e);
    CHECK_U64(st, DWEXPR_OK, "zPLRS CIE opens (%s)", st ? e.message : "");
    dwexpr_cfi_fde fde;
    dwexpr_cfi_cie cie;
    CHECK_U64(dwexpr_cfi_find_fde(cfi, 0x402010, &fde, &cie, &e), DWEXPR_OK, "zPLRS FDE found");
    TAP_OK(cie.signal_frame && cie.has_z && cie.lsda_encoding == 3 && cie.fde_encoding == 0x1b &&
               cie.personality_encoding == 0x80,
           "zPLRS augmentation fields");
    CHECK_U64(cie.personality, cie.length, "indirect personality fetched from the section");
    TAP_OK(fde.has_lsda && fde.lsda == 0x11223344, "LSDA pointer read (0x%llx)",
           (unsigned long long)fde.lsda);
    dwexpr_cfi_row row;
    CHECK_U64(dwexpr_cfi_row_for_pc(cfi, 0x402000, &row, &e), DWEXPR_OK, "zPLRS row");
    TAP_OK(row.signal_frame, "signal frame flag reaches the row");
    dwexpr_cfi_free(cfi);
}

/* .eh_frame_hdr with a datarel|sdata4 table */
static void test_eh_frame_hdr(void)
{
    static const uint8_t init[] = {DW_CFA_def_cfa, 7, 8};
    buf o = {{0}, 0};
    uint8_t ad[1] = {0x1b};
    size_t c = ecie(&o, "zR", ad, 1, init, sizeof init);
    uint64_t begins[3] = {0x403000, 0x401000, 0x402000};
    size_t offs[3];
    for (int i = 0; i < 3; i++) {
        uint8_t ins[3] = {DW_CFA_def_cfa_offset, (uint8_t)(16 + 8 * i), DW_CFA_nop};
        offs[i] = efde(&o, c, 0x1b, 0x1000, begins[i], 0x100, (const uint8_t *)"", 0, ins, 3);
    }
    uN(&o, 0, 4);
    buf h = {{0}, 0};
    u8(&h, 1);
    u8(&h, 0x1b);
    u8(&h, 0x03);
    u8(&h, 0x3b);
    uint64_t hdr_addr = 0x800;
    uN(&h, 0x1000 - (hdr_addr + 4), 4);
    uN(&h, 3, 4);
    int order[3] = {1, 2, 0};
    for (int k = 0; k < 3; k++) {
        int i = order[k];
        uN(&h, begins[i] - hdr_addr, 4);
        uN(&h, 0x1000 + offs[i] - hdr_addr, 4);
    }
    dwexpr_cfi_section s;
    memset(&s, 0, sizeof s);
    s.format = DWEXPR_CFI_EH_FRAME;
    s.data = o.b;
    s.size = o.n;
    s.address = 0x1000;
    s.hdr = h.b;
    s.hdr_size = h.n;
    s.hdr_address = hdr_addr;
    dwexpr_cfi *cfi;
    dwexpr_error e;
    dwexpr_status st = dwexpr_cfi_open(&s, &cfi, &e);
    CHECK_U64(st, DWEXPR_OK, "eh_frame_hdr opens (%s)", st ? e.message : "");
    for (int i = 0; i < 3; i++) {
        dwexpr_cfi_row row;
        CHECK_U64(dwexpr_cfi_row_for_pc(cfi, begins[i] + 0x80, &row, &e), DWEXPR_OK,
                  "hdr lookup FDE %d", i);
        CHECK_U64(row.cfa.offset, 16 + 8 * i, "hdr lookup gives FDE %d's row", i);
    }
    CHECK_U64(dwexpr_cfi_find_fde(cfi, 0x400fff, NULL, NULL, &e), DWEXPR_E_NOT_FOUND,
              "hdr lookup below the table");
    CHECK_U64(dwexpr_cfi_find_fde(cfi, 0x403100, NULL, NULL, &e), DWEXPR_E_NOT_FOUND,
              "hdr lookup past the last FDE");
    dwexpr_cfi_free(cfi);
    /* header errors */
    struct {
        size_t at;
        uint8_t v;
        dwexpr_status want;
        const char *what;
    } bad[] = {
        {0, 2, DWEXPR_E_ILL_FORMED, "version 2"},
        {4, 0x55, DWEXPR_E_ILL_FORMED, "eh_frame_ptr not .eh_frame"},
        {3, 0x1b, DWEXPR_E_ILL_FORMED, "table not datarel"},
        {12, 0x00, DWEXPR_E_ILL_FORMED, "table unsorted"},
        {8, 200, DWEXPR_E_TRUNCATED, "fde_count past the end"},
        {16, 0x7f, DWEXPR_E_ILL_FORMED, "entry outside .eh_frame"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        buf h2 = h;
        h2.b[bad[k].at] = bad[k].v;
        if (bad[k].at == 12) { /* swap the first two locations */
            memcpy(h2.b + 12, h.b + 20, 4);
            memcpy(h2.b + 20, h.b + 12, 4);
        }
        s.hdr = h2.b;
        cfi = NULL;
        st = dwexpr_cfi_open(&s, &cfi, &e);
        CHECK_U64(st, bad[k].want, "eh_frame_hdr error: %s (%s)", bad[k].what, e.message);
        dwexpr_cfi_free(cfi);
    }
}

/* Each parse error, with the byte offset it reports. */
static void test_parse_errors(void)
{
    static const uint8_t init[] = {DW_CFA_def_cfa, 7, 8};
    buf good = {{0}, 0};
    size_t c = dcie(&good, 4, 1, -8, 16, init, sizeof init);
    size_t f = dfde(&good, c, 0x1000, 0x10, init, sizeof init);
    struct {
        size_t at;
        int v;
        size_t cut;
        dwexpr_status want;
        int64_t off;
        const char *what;
    } cases[] = {
        {0, 0xf0, 0, DWEXPR_E_ILL_FORMED, 0, "reserved initial length"},
        {0, 0x70, 0, DWEXPR_E_TRUNCATED, 0, "length past the section"},
        {8, 2, 0, DWEXPR_E_ILL_FORMED, 0, "CIE version 2"},
        {8, 5, 0, DWEXPR_E_ILL_FORMED, 0, "CIE version 5"},
        {10, 3, 0, DWEXPR_E_ILL_FORMED, 0, "address size 3"},
        {11, 9, 0, DWEXPR_E_ILL_FORMED, 0, "segment selector size 9"},
        {f + 4, 0x40, 0, DWEXPR_E_ILL_FORMED, (int64_t)f, "CIE pointer outside the section"},
        {f + 4, (int)f, 0, DWEXPR_E_ILL_FORMED, (int64_t)f, "FDE points at itself"},
        {f + 19, 0xff, 0, DWEXPR_E_ILL_FORMED, (int64_t)f, "address range overflows"},
        {0, -1, 3, DWEXPR_E_TRUNCATED, 0, "section shorter than a length"},
        {0, -1, f + 10, DWEXPR_E_TRUNCATED, (int64_t)f, "FDE cut short"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        buf o = good;
        if (cases[k].v >= 0) {
            if (cases[k].at == 0 && cases[k].v == 0xf0) {
                o.b[0] = 0xf0;
                o.b[1] = o.b[2] = o.b[3] = 0xff;
            } else if (cases[k].at == f + 19) {
                for (int i = 0; i < 8; i++)
                    o.b[f + 16 + i] = 0xff;
            } else {
                o.b[cases[k].at] = (uint8_t)cases[k].v;
            }
        }
        if (cases[k].cut)
            o.n = cases[k].cut;
        dwexpr_status st;
        dwexpr_error e;
        memset(&e, 0, sizeof e);
        dwexpr_cfi *cfi = open_sec(&o, DWEXPR_CFI_DEBUG_FRAME, NULL, &st, &e);
        CHECK_U64(st, cases[k].want, "parse error: %s (%s)", cases[k].what, e.message);
        CHECK_U64(e.offset, cases[k].off, "parse error offset: %s", cases[k].what);
        dwexpr_cfi_free(cfi);
    }
    /* FDE pointing at an FDE */
    buf o = good;
    dfde(&o, f, 0x2000, 0x10, init, sizeof init);
    dwexpr_status st;
    dwexpr_error e;
    dwexpr_cfi *cfi = open_sec(&o, DWEXPR_CFI_DEBUG_FRAME, NULL, &st, &e);
    CHECK_U64(st, DWEXPR_E_ILL_FORMED, "FDE whose CIE pointer names an FDE (%s)", e.message);
    dwexpr_cfi_free(cfi);
    /* unterminated augmentation */
    o.n = 0;
    uN(&o, 6, 4);
    uN(&o, 0xffffffffu, 4);
    u8(&o, 4);
    u8(&o, 'z');
    cfi = open_sec(&o, DWEXPR_CFI_DEBUG_FRAME, NULL, &st, &e);
    CHECK_U64(st, DWEXPR_E_TRUNCATED, "unterminated augmentation string (%s)", e.message);
    /* eh_frame: bad FDE pointer encoding, augmentation data too long */
    buf eh = {{0}, 0};
    uint8_t ad[1] = {0x0f};
    ecie(&eh, "zR", ad, 1, init, sizeof init);
    cfi = open_sec(&eh, DWEXPR_CFI_EH_FRAME, NULL, &st, &e);
    CHECK_U64(st, DWEXPR_E_ILL_FORMED, "eh_frame: invalid FDE encoding (%s)", e.message);
    eh.n = 0;
    ecie(&eh, "zR", ad, 1, init, sizeof init);
    eh.b[4 + 4 + 1 + 3 + 1 + 1 + 1] = 0x70; /* augmentation length */
    cfi = open_sec(&eh, DWEXPR_CFI_EH_FRAME, NULL, &st, &e);
    CHECK_U64(st, DWEXPR_E_TRUNCATED, "eh_frame: augmentation data past the entry (%s)",
              e.message);
    /* unknown augmentation: entries parse, instructions cannot be run */
    o.n = 0;
    size_t at = o.n;
    uN(&o, 0, 4);
    uN(&o, 0xffffffffu, 4);
    u8(&o, 3);
    str(&o, "acme");
    uleb(&o, 1);
    sleb(&o, -8);
    uleb(&o, 16);
    patch_len(&o, at);
    dfde(&o, 0, 0x1000, 0x10, init, sizeof init);
    cfi = open_sec(&o, DWEXPR_CFI_DEBUG_FRAME, NULL, &st, &e);
    CHECK_U64(st, DWEXPR_OK, "unknown augmentation: the section still parses");
    dwexpr_cfi_row row;
    CHECK_U64(dwexpr_cfi_row_for_pc(cfi, 0x1000, &row, &e), DWEXPR_E_ILL_FORMED,
              "unknown augmentation: instructions are not run (%s)", e.message);
    dwexpr_cfi_free(cfi);
    /* the seed's "[vendor:vX.Y]" augmentation keeps the layout */
    o.n = 0;
    uN(&o, 0, 4);
    uN(&o, 0xffffffffu, 4);
    u8(&o, 4);
    str(&o, "[llvm:v0.0]");
    u8(&o, 8);
    u8(&o, 0);
    uleb(&o, 4);
    sleb(&o, -4);
    uleb(&o, 16);
    bytes(&o, init, sizeof init);
    patch_len(&o, 0);
    dfde(&o, 0, 0x1000, 0x10, init, sizeof init);
    cfi = open_sec(&o, DWEXPR_CFI_DEBUG_FRAME, NULL, &st, &e);
    CHECK_U64(dwexpr_cfi_row_for_pc(cfi, 0x1000, &row, &e), DWEXPR_OK,
              "[llvm:v0.0] augmentation is read");
    dwexpr_cfi_free(cfi);
}

/* Every truncation and many byte changes of valid sections: a status,
 * never a read outside the bytes (ASan builds check the latter). */
static void test_robust(void)
{
    static const uint8_t init[] = {DW_CFA_def_cfa, 7, 8, DW_CFA_offset | 16, 1,
                                   DW_CFA_remember_state, DW_CFA_restore_state};
    buf good = {{0}, 0};
    uint8_t ad[1] = {0x1b};
    size_t c = ecie(&good, "zR", ad, 1, init, sizeof init);
    uint8_t ins[40];
    size_t n = 0;
    ins[n++] = DW_CFA_advance_loc | 1;
    ins[n++] = DW_CFA_expression;
    ins[n++] = 3;
    ins[n++] = 2;
    ins[n++] = 0x77;
    ins[n++] = 0x08;
    ins[n++] = DW_CFA_advance_loc1;
    ins[n++] = 4;
    ins[n++] = DW_CFA_set_loc;
    ins[n++] = 0;
    ins[n++] = 0;
    ins[n++] = 0;
    ins[n++] = 0;
    efde(&good, c, 0x1b, 0x1000, 0x401000, 0x40, (const uint8_t *)"", 0, ins, n);
    uN(&good, 0, 4);
    unsigned ok = 0, fail = 0;
    uint32_t seed = 12345;
    for (size_t cut = 0; cut <= good.n; cut++) {
        for (int trial = 0; trial < 40; trial++) {
            buf o = good;
            o.n = cut;
            if (trial) {
                seed = seed * 1103515245u + 12345u;
                size_t pos = (seed >> 8) % (good.n ? good.n : 1);
                if (pos < o.n)
                    o.b[pos] ^= (uint8_t)(seed >> 24 | 1);
            }
            uint8_t *copy = malloc(o.n ? o.n : 1);
            memcpy(copy, o.b, o.n);
            dwexpr_cfi_section s;
            memset(&s, 0, sizeof s);
            s.format = DWEXPR_CFI_EH_FRAME;
            s.data = copy;
            s.size = o.n;
            s.address = 0x1000;
            dwexpr_cfi *cfi;
            dwexpr_error e;
            if (dwexpr_cfi_open(&s, &cfi, &e) == DWEXPR_OK) {
                dwexpr_cfi_row row;
                for (uint64_t pc = 0x400ff0; pc < 0x401050; pc += 3)
                    (void)dwexpr_cfi_row_for_pc(cfi, pc, &row, &e);
                uint64_t off = 0, next;
                dwexpr_cfi_entry en;
                while (dwexpr_cfi_entry_at(cfi, off, &en, &next, &e) == DWEXPR_OK && next > off)
                    off = next;
                dwexpr_cfi_free(cfi);
                ok++;
            } else {
                fail++;
            }
            free(copy);
        }
    }
    TAP_OK(ok > 0 && fail > 0, "%u truncated/changed sections: %u open, %u rejected, no crash",
           ok + fail, ok, fail);
}

/* ---- rows: every instruction ---- */

static void test_rows(void)
{
    buf ci = {{0}, 0};
    u8(&ci, DW_CFA_def_cfa);
    uleb(&ci, 7);
    uleb(&ci, 8);
    u8(&ci, DW_CFA_offset | 16);
    uleb(&ci, 1);
    u8(&ci, DW_CFA_same_value);
    uleb(&ci, 3);
    buf in = {{0}, 0};
    /* code alignment 2: advance_loc 1 = 2 bytes */
    u8(&in, DW_CFA_advance_loc | 1);                   /* 0x1002 */
    u8(&in, DW_CFA_def_cfa_offset);
    uleb(&in, 16);
    u8(&in, DW_CFA_offset | 6);
    uleb(&in, 2);
    u8(&in, DW_CFA_advance_loc1);                      /* 0x1006 */
    u8(&in, 2);
    u8(&in, DW_CFA_def_cfa_register);
    uleb(&in, 6);
    u8(&in, DW_CFA_advance_loc2);                      /* 0x100a */
    uN(&in, 2, 2);
    u8(&in, DW_CFA_offset_extended);
    uleb(&in, 3);
    uleb(&in, 3);
    u8(&in, DW_CFA_offset_extended_sf);
    uleb(&in, 12);
    sleb(&in, -4);
    u8(&in, DW_CFA_val_offset);
    uleb(&in, 13);
    uleb(&in, 2);
    u8(&in, DW_CFA_val_offset_sf);
    uleb(&in, 14);
    sleb(&in, -1);
    u8(&in, DW_CFA_register);
    uleb(&in, 15);
    uleb(&in, 1);
    u8(&in, DW_CFA_undefined);
    uleb(&in, 2);
    u8(&in, DW_CFA_GNU_negative_offset_extended);
    uleb(&in, 5);
    uleb(&in, 2);
    u8(&in, DW_CFA_advance_loc4);                      /* 0x100e */
    uN(&in, 2, 4);
    u8(&in, DW_CFA_remember_state);
    u8(&in, DW_CFA_def_cfa_sf);
    uleb(&in, 7);
    sleb(&in, -3);
    u8(&in, DW_CFA_restore | 6);
    u8(&in, DW_CFA_restore_extended);
    uleb(&in, 3);
    u8(&in, DW_CFA_GNU_args_size);
    uleb(&in, 32);
    u8(&in, DW_CFA_nop);
    u8(&in, DW_CFA_GNU_window_save);
    u8(&in, DW_CFA_MIPS_advance_loc8);                 /* 0x1012 */
    uN(&in, 2, 8);
    u8(&in, DW_CFA_restore_state);
    u8(&in, DW_CFA_set_loc);                           /* 0x1020 */
    uN(&in, 0x1020, 8);
    u8(&in, DW_CFA_def_cfa_expression);
    block(&in, "DW_OP_breg7 8");
    u8(&in, DW_CFA_expression);
    uleb(&in, 3);
    block(&in, "DW_OP_lit16 DW_OP_minus");
    u8(&in, DW_CFA_val_expression);
    uleb(&in, 12);
    block(&in, "DW_OP_lit8 DW_OP_minus");
    u8(&in, DW_CFA_advance_loc | 2);                   /* 0x1024 */
    u8(&in, DW_CFA_LLVM_def_aspace_cfa);
    uleb(&in, 6);
    uleb(&in, 24);
    uleb(&in, 5);
    u8(&in, DW_CFA_advance_loc | 2);                   /* 0x1028 */
    u8(&in, DW_CFA_def_cfa_offset_sf);
    sleb(&in, -5);
    u8(&in, DW_CFA_advance_loc | 2);                   /* 0x102c */
    u8(&in, DW_CFA_LLVM_def_aspace_cfa_sf);
    uleb(&in, 7);
    sleb(&in, -2);
    uleb(&in, 6);
    buf o = {{0}, 0};
    size_t c = dcie(&o, 4, 2, -8, 16, ci.b, ci.n);
    dfde(&o, c, 0x1000, 0x40, in.b, in.n);
    dwexpr_status st;
    dwexpr_error e;
    dwexpr_cfi *cfi = open_sec(&o, DWEXPR_CFI_DEBUG_FRAME, "x86_64", &st, &e);
    CHECK_U64(st, DWEXPR_OK, "rows: section opens (%s)", st ? e.message : "");
    const dwexpr_arch *x86 = dwexpr_arch_find("x86_64");
    dwexpr_cfi_row r;
#define ROW(pc)                                                                \
    do {                                                                       \
        st = dwexpr_cfi_row_for_pc(cfi, pc, &r, &e);                           \
        CHECK_U64(st, DWEXPR_OK, "row at 0x%x (%s)", pc, st ? e.message : ""); \
    } while (0)
#define RULE(reg) dwexpr_cfi_row_rule(&r, x86, reg)
    ROW(0x1000);
    TAP_OK(r.cfa.kind == DWEXPR_CFI_CFA_REG_OFFSET && r.cfa.regno == 7 && r.cfa.offset == 8 &&
               r.pc_begin == 0x1000 && r.pc_end == 0x1002,
           "initial row: CIE def_cfa rsp+8, [0x1000, 0x1002)");
    TAP_OK(RULE(16).kind == DWEXPR_CFI_OFFSET && RULE(16).offset == -8, "CIE DW_CFA_offset");
    TAP_OK(RULE(3).kind == DWEXPR_CFI_SAME_VALUE, "CIE DW_CFA_same_value");
    TAP_OK(RULE(7).kind == DWEXPR_CFI_VAL_OFFSET && RULE(7).offset == 0,
           "x86-64 default: rsp = val_offset(0)");
    TAP_OK(RULE(12).kind == DWEXPR_CFI_SAME_VALUE, "x86-64 default: r12 same value");
    TAP_OK(RULE(0).kind == DWEXPR_CFI_UNDEFINED, "x86-64 default: rax undefined");
    ROW(0x1003);
    TAP_OK(r.cfa.offset == 16 && RULE(6).kind == DWEXPR_CFI_OFFSET && RULE(6).offset == -16 &&
               r.pc_begin == 0x1002 && r.pc_end == 0x1006,
           "advance_loc * code_align 2; def_cfa_offset; DW_CFA_offset r6");
    ROW(0x1006);
    TAP_OK(r.cfa.regno == 6 && r.cfa.offset == 16, "advance_loc1; def_cfa_register keeps offset");
    ROW(0x100b);
    TAP_OK(r.pc_begin == 0x100a && RULE(3).kind == DWEXPR_CFI_OFFSET && RULE(3).offset == -24,
           "advance_loc2; offset_extended");
    TAP_OK(RULE(12).offset == 32, "offset_extended_sf -4 * -8 = 32");
    TAP_OK(RULE(13).kind == DWEXPR_CFI_VAL_OFFSET && RULE(13).offset == -16, "val_offset");
    TAP_OK(RULE(14).kind == DWEXPR_CFI_VAL_OFFSET && RULE(14).offset == 8, "val_offset_sf");
    TAP_OK(RULE(15).kind == DWEXPR_CFI_REGISTER && RULE(15).regno == 1, "register");
    TAP_OK(RULE(2).kind == DWEXPR_CFI_UNDEFINED, "undefined");
    TAP_OK(RULE(5).kind == DWEXPR_CFI_OFFSET && RULE(5).offset == 16,
           "GNU_negative_offset_extended: -(2 * -8)");
    ROW(0x100e);
    TAP_OK(r.cfa.regno == 7 && r.cfa.offset == 24 && RULE(6).kind == DWEXPR_CFI_SAME_VALUE &&
               RULE(3).kind == DWEXPR_CFI_SAME_VALUE && r.args_size == 32,
           "advance_loc4; def_cfa_sf; restore (to the x86-64 default); restore_extended (to CIE); "
           "GNU_args_size");
    ROW(0x1012);
    TAP_OK(r.cfa.regno == 6 && r.cfa.offset == 16 && RULE(6).kind == DWEXPR_CFI_OFFSET &&
               RULE(3).kind == DWEXPR_CFI_OFFSET,
           "MIPS_advance_loc8; restore_state brings back CFA and rules");
    ROW(0x1020);
    TAP_OK(r.pc_begin == 0x1020 && r.cfa.kind == DWEXPR_CFI_CFA_EXPRESSION && r.cfa.expr_len == 2,
           "set_loc; def_cfa_expression");
    TAP_OK(RULE(3).kind == DWEXPR_CFI_EXPRESSION && RULE(12).kind == DWEXPR_CFI_VAL_EXPRESSION,
           "expression; val_expression");
    ROW(0x1025);
    TAP_OK(r.cfa.kind == DWEXPR_CFI_CFA_REG_OFFSET && r.cfa.regno == 6 && r.cfa.offset == 24 &&
               r.cfa.aspace == 5,
           "LLVM_def_aspace_cfa r6 24 aspace 5");
    ROW(0x1029);
    TAP_OK(r.cfa.offset == 40 && r.cfa.aspace == 5, "def_cfa_offset_sf keeps the address space");
    ROW(0x103f);
    TAP_OK(r.cfa.regno == 7 && r.cfa.offset == 16 && r.cfa.aspace == 6 && r.pc_end == 0x1040,
           "LLVM_def_aspace_cfa_sf r7 -2*-8 aspace 6; last row ends at the FDE end");
    /* the instruction decoder names every instruction */
    dwexpr_cfi_fde fde;
    dwexpr_cfi_cie cie;
    dwexpr_cfi_find_fde(cfi, 0x1000, &fde, &cie, &e);
    unsigned count = 0;
    bool named = true;
    for (size_t pos = 0; pos < fde.insns_len;) {
        dwexpr_cfi_insn ins;
        if (dwexpr_cfi_insn_decode(cfi, &cie, fde.insns, fde.insns_len, pos, fde.insns_offset,
                                   &ins, &e))
            break;
        named = named && ins.name;
        pos += ins.size;
        count++;
    }
    CHECK_U64(count, 33, "decoder walks all %u FDE instructions", count);
    TAP_OK(named, "every instruction has a name");
    dwexpr_cfi_free(cfi);
#undef ROW
}

/* Row errors with their instruction offsets. */
static void test_row_errors(void)
{
    struct {
        uint8_t ins[16];
        size_t n;
        dwexpr_status want;
        size_t at; /* offset of the failing instruction in the FDE's instructions */
        const char *what;
    } cases[] = {
        {{DW_CFA_def_cfa_expression, 1, 0x30, DW_CFA_def_cfa_register, 6}, 5, DWEXPR_E_ILL_FORMED,
         3, "def_cfa_register after def_cfa_expression"},
        {{DW_CFA_def_cfa_expression, 1, 0x30, DW_CFA_def_cfa_offset, 6}, 5, DWEXPR_E_ILL_FORMED, 3,
         "def_cfa_offset after def_cfa_expression"},
        {{DW_CFA_restore_state}, 1, DWEXPR_E_ILL_FORMED, 0, "restore_state without remember"},
        {{DW_CFA_advance_loc | 1, DW_CFA_set_loc, 0, 0x10, 0, 0, 0, 0, 0, 0}, 10,
         DWEXPR_E_ILL_FORMED, 1, "set_loc going backwards"},
        {{0x2c}, 1, DWEXPR_E_UNKNOWN_OP, 0, "unknown instruction 0x2c"},
        {{DW_CFA_offset_extended, 0x80}, 2, DWEXPR_E_TRUNCATED, 0, "truncated operand"},
        {{DW_CFA_expression, 3, 9, 0x30}, 4, DWEXPR_E_TRUNCATED, 0, "expression past the end"},
        {{DW_CFA_undefined, 0x80, 0x80, 0x80, 0x80, 0x10}, 6, DWEXPR_E_BAD_OPERAND, 0,
         "register beyond 32 bits"},
    };
    static const uint8_t init[] = {DW_CFA_def_cfa, 7, 8};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        buf o = {{0}, 0};
        size_t c = dcie(&o, 4, 1, -8, 16, init, sizeof init);
        size_t f = dfde(&o, c, 0x2000, 0x100, cases[k].ins, cases[k].n);
        dwexpr_status st;
        dwexpr_error e;
        dwexpr_cfi *cfi = open_sec(&o, DWEXPR_CFI_DEBUG_FRAME, NULL, &st, &e);
        dwexpr_cfi_row r;
        st = dwexpr_cfi_row_for_pc(cfi, 0x20ff, &r, &e);
        CHECK_U64(st, cases[k].want, "row error: %s (%s)", cases[k].what, e.message);
        CHECK_U64(e.offset, f + 24 + cases[k].at, "row error offset: %s", cases[k].what);
        dwexpr_cfi_free(cfi);
    }
    /* more registers than a row holds */
    buf in = {{0}, 0};
    for (unsigned r = 0; r <= DWEXPR_CFI_MAX_RULES; r++) {
        u8(&in, DW_CFA_undefined);
        uleb(&in, r);
    }
    buf o = {{0}, 0};
    size_t c = dcie(&o, 4, 1, -8, 16, init, sizeof init);
    dfde(&o, c, 0x2000, 0x100, in.b, in.n);
    dwexpr_status st;
    dwexpr_error e;
    dwexpr_cfi *cfi = open_sec(&o, DWEXPR_CFI_DEBUG_FRAME, NULL, &st, &e);
    dwexpr_cfi_row r;
    CHECK_U64(dwexpr_cfi_row_for_pc(cfi, 0x2000, &r, &e), DWEXPR_E_TOO_BIG,
              "more than DWEXPR_CFI_MAX_RULES registers");
    dwexpr_cfi_free(cfi);
}

/* ---- a simulated target: registers of frame 0 and flat memory ---- */

typedef struct sim {
    uint8_t regs[4096][8];        /* small registers */
    uint8_t vgpr[4][256];         /* four wave64 VGPRs at 2600..2603 */
    uint64_t mem_base;
    uint8_t mem[0x400];
    uint8_t pmem[0x400];          /* aspace 6 (AMDGPU private_wave) */
    const dwexpr_arch *arch;
    unsigned reads;
} sim;

static uint32_t sim_size(const sim *s, uint32_t regno)
{
    uint32_t b = dwexpr_arch_reg_size(s->arch, regno);
    return b ? b : 8;
}

static dwexpr_status s_reg_size(void *u, uint32_t regno, uint32_t *bytes)
{
    *bytes = sim_size(u, regno);
    return DWEXPR_OK;
}

static uint8_t *sim_reg(sim *s, uint32_t regno, uint64_t off, size_t len)
{
    uint32_t size = sim_size(s, regno);
    if (off + len > size)
        return NULL;
    if (regno >= 2600 && regno < 2604)
        return s->vgpr[regno - 2600] + off;
    if (regno >= 4096 || size > 8)
        return NULL;
    return s->regs[regno] + off;
}

static dwexpr_status s_reg_read(void *u, const dwexpr_regref *r, uint64_t off, void *b, size_t len)
{
    sim *s = u;
    if (r->frame != 0)
        return DWEXPR_E_TARGET;
    uint8_t *p = sim_reg(s, r->regno, off, len);
    if (!p)
        return DWEXPR_E_NOT_FOUND;
    memcpy(b, p, len);
    return DWEXPR_OK;
}

static dwexpr_status s_mem_read(void *u, const dwexpr_memref *m, void *b, size_t len)
{
    sim *s = u;
    uint8_t *base = m->aspace == 6 ? s->pmem : s->mem;
    uint64_t lo = m->aspace == 6 ? 0 : s->mem_base;
    if (m->aspace != 0 && m->aspace != 6)
        return DWEXPR_E_TARGET;
    if (m->address < lo || m->address - lo + len > sizeof s->mem)
        return DWEXPR_E_TARGET;
    memcpy(b, base + (m->address - lo), len);
    s->reads++;
    return DWEXPR_OK;
}

static dwexpr_status s_aspace(void *u, uint32_t as, dwexpr_aspace_info *out)
{
    sim *s = u;
    if (dwexpr_amdgpu_lanes(s->arch))
        return dwexpr_amdgpu_aspace_info(as, out);
    if (as)
        return DWEXPR_E_NOT_FOUND;
    memset(out, 0, sizeof *out);
    out->addr_bits = 64;
    return DWEXPR_OK;
}

static const dwexpr_target sim_target = {
    .size = sizeof(dwexpr_target),
    .reg_size = s_reg_size,
    .reg_read = s_reg_read,
    .mem_read = s_mem_read,
    .aspace_info = s_aspace,
};

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static void smem(sim *s, uint64_t addr, uint64_t v) { put64(s->mem + (addr - s->mem_base), v); }
static void sreg(sim *s, uint32_t r, uint64_t v) { put64(s->regs[r], v); }

static dwexpr_unwinder *mk_unwinder(sim *s, const char *arch, dwexpr_cfi *cfi)
{
    dwexpr_unwind_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.size = sizeof cfg;
    cfg.arch = dwexpr_arch_find(arch);
    cfg.unit.addr_size = 8;
    cfg.pc_regno = 16;
    cfg.ctx = DWEXPR_CTX_THREAD;
    s->arch = cfg.arch;
    dwexpr_unwinder *uw = NULL;
    if (dwexpr_unwinder_new(&cfg, &sim_target, s, &uw) == DWEXPR_OK)
        dwexpr_unwinder_add_cfi(uw, cfi);
    return uw;
}

/* Evaluate TEXT in frame FRAME through the unwinder; read 64 bits. */
static dwexpr_status eval_read(dwexpr_unwinder *uw, uint32_t frame, const char *text,
                               dwexpr_result_kind kind, uint64_t *v, dwexpr_result *res,
                               char *msg)
{
    uint8_t e[64];
    size_t n = asmx(text, e);
    dwexpr_ctx *ctx;
    dwexpr_ctx_new(NULL, &ctx);
    dwexpr_program *p;
    dwexpr_unit u;
    memset(&u, 0, sizeof u);
    u.addr_size = 8;
    dwexpr_error err;
    dwexpr_status st = dwexpr_program_decode(e, n, &u, &p, &err);
    if (st) {
        dwexpr_ctx_free(ctx);
        return st;
    }
    dwexpr_eval_params prm;
    memset(&prm, 0, sizeof prm);
    prm.result_kind = kind;
    prm.frame = frame;
    prm.ctx = DWEXPR_CTX_FRAME | DWEXPR_CTX_THREAD;
    dwexpr_result r;
    st = dwexpr_eval(ctx, p, dwexpr_unwinder_target(), uw, &prm, &r);
    if (!st && res) {
        /* the result lives in CTX: keep its first place */
        static dwexpr_sld keep;
        *res = r;
        if (r.kind == DWEXPR_RESULT_LOCATION && r.loc.count) {
            keep = r.loc.slds[0];
            res->loc.slds = &keep;
            res->loc.count = 1;
        }
    }
    if (!st && v) {
        if (r.kind == DWEXPR_RESULT_VALUE) {
            *v = r.value.bits;
        } else {
            uint8_t b[8] = {0};
            st = dwexpr_loc_read(ctx, dwexpr_unwinder_target(), uw, &r.loc, 64, b, NULL);
            uint64_t x = 0;
            for (int i = 7; i >= 0; i--)
                x = (x << 8) | b[i];
            *v = x;
        }
    }
    if (st && msg)
        snprintf(msg, 200, "%s", dwexpr_ctx_error(ctx)->message);
    dwexpr_program_free(p);
    dwexpr_ctx_free(ctx);
    return st;
}

/* Three x86-64 frames: f0 in leaf A (CFA = rsp+16, rbp saved at CFA-16),
 * f1 in B (CFA = rbp+16, rbx saved at CFA-24, various rules), f2 in
 * start C whose return address is undefined. */
static void test_unwind_x86(void)
{
    buf o = {{0}, 0};
    static const uint8_t init[] = {DW_CFA_def_cfa, 7, 8, DW_CFA_offset | 16, 1};
    size_t c = dcie(&o, 4, 1, -8, 16, init, sizeof init);
    buf a = {{0}, 0};
    u8(&a, DW_CFA_def_cfa_offset);
    uleb(&a, 16);
    u8(&a, DW_CFA_offset | 6);
    uleb(&a, 2);
    u8(&a, DW_CFA_val_expression); /* r13 = rsp + 1 (in frame 0) */
    uleb(&a, 13);
    block(&a, "DW_OP_breg7 1");
    u8(&a, DW_CFA_expression); /* r14 saved at CFA - 32, written as location arithmetic */
    uleb(&a, 14);
    block(&a, "DW_OP_const1s -32 DW_OP_LLVM_offset");
    u8(&a, DW_CFA_register); /* r15 lives in r10 */
    uleb(&a, 15);
    uleb(&a, 10);
    dfde(&o, c, 0x1000, 0x100, a.b, a.n);
    buf b = {{0}, 0};
    u8(&b, DW_CFA_def_cfa);
    uleb(&b, 6);
    uleb(&b, 16);
    u8(&b, DW_CFA_offset | 6);
    uleb(&b, 2);
    u8(&b, DW_CFA_offset | 3);
    uleb(&b, 3);
    u8(&b, DW_CFA_expression); /* r12 saved at CFA - 40, value arithmetic */
    uleb(&b, 12);
    block(&b, "DW_OP_lit0 DW_OP_plus DW_OP_const1u 40 DW_OP_minus");
    dfde(&o, c, 0x2000, 0x100, b.b, b.n);
    buf cc = {{0}, 0};
    u8(&cc, DW_CFA_undefined);
    uleb(&cc, 16);
    dfde(&o, c, 0x3000, 0x100, cc.b, cc.n);
    dwexpr_status st;
    dwexpr_error e;
    dwexpr_cfi *cfi = open_sec(&o, DWEXPR_CFI_DEBUG_FRAME, "x86_64", &st, &e);
    sim *s = calloc(1, sizeof *s);
    s->mem_base = 0x7000;
    /* frame 0: rsp = 0x7100, CFA0 = 0x7110; ret to 0x2050 at 0x7108; rbp
     * saved at 0x7100 = 0x7200 */
    sreg(s, 7, 0x7100);
    sreg(s, 16, 0x1010);
    sreg(s, 6, 0x7fff);
    sreg(s, 3, 0x3333);
    sreg(s, 10, 0xaaaa);
    smem(s, 0x7108, 0x2050);
    smem(s, 0x7100, 0x7200);
    smem(s, 0x70f0, 0x1414);
    /* frame 1: rbp = 0x7200, CFA1 = 0x7210, ret 0x3010 at 0x7208, rbp
     * saved at 0x7200 = 0x7300, rbx at 0x71f8, r12 at 0x71e8 */
    smem(s, 0x7208, 0x3010);
    smem(s, 0x7200, 0x7300);
    smem(s, 0x71f8, 0xb0b0);
    smem(s, 0x71e8, 0x1212);
    dwexpr_unwinder *uw = mk_unwinder(s, "x86_64", cfi);
    dwexpr_unwind_frame fr[4];
    unsigned n = 0;
    while (n < 4 && dwexpr_unwinder_frame(uw, n, &fr[n]) == DWEXPR_OK)
        n++;
    CHECK_U64(n, 3, "three frames (%s)", dwexpr_unwinder_error(uw)->message);
    CHECK_U64(fr[0].pc, 0x1010, "frame 0 pc from rip");
    CHECK_U64(fr[0].cfa.byte_offset, 0x7110, "frame 0 CFA = rsp + 16");
    CHECK_U64(fr[1].pc, 0x2050, "frame 1 pc = return address at CFA-8");
    CHECK_U64(fr[1].cfa.byte_offset, 0x7210, "frame 1 CFA = rbp(frame 1) + 16");
    CHECK_U64(fr[2].pc, 0x3010, "frame 2 pc");
    TAP_OK(fr[2].outermost && !fr[1].outermost, "undefined return address ends the stack");
    dwexpr_sld l;
    CHECK_U64(dwexpr_unwinder_register_location(uw, 1, 6, &l), DWEXPR_OK, "rbp in frame 1");
    TAP_OK(l.kind == DWEXPR_LOC_MEMORY && l.byte_offset == 0x7100, "offset(-16): memory CFA-16");
    dwexpr_unwinder_register_location(uw, 1, 3, &l);
    TAP_OK(l.kind == DWEXPR_LOC_REGISTER && l.u.regno == 3 && l.frame == 0,
           "same value (x86-64 default rbx) in frame 1: frame 0's register");
    dwexpr_unwinder_register_location(uw, 2, 3, &l);
    TAP_OK(l.kind == DWEXPR_LOC_MEMORY && l.byte_offset == 0x71f8, "offset(-24) in frame 2");
    dwexpr_unwinder_register_location(uw, 1, 7, &l);
    TAP_OK(l.kind == DWEXPR_LOC_IMPLICIT && l.u.imp.bits == 64 && l.u.imp.data[0] == 0x10 &&
               l.u.imp.data[1] == 0x71,
           "rsp default val_offset(0): implicit value of the CFA");
    dwexpr_unwinder_register_location(uw, 1, 0, &l);
    TAP_OK(l.kind == DWEXPR_LOC_UNDEFINED, "rax: undefined");
    dwexpr_unwinder_register_location(uw, 1, 15, &l);
    TAP_OK(l.kind == DWEXPR_LOC_REGISTER && l.u.regno == 10, "register(r10) rule");
    dwexpr_unwinder_register_location(uw, 1, 14, &l);
    TAP_OK(l.kind == DWEXPR_LOC_MEMORY && l.byte_offset == 0x70f0,
           "expression(E) with the CFA location on the initial stack + LLVM_offset");
    dwexpr_unwinder_register_location(uw, 2, 12, &l);
    TAP_OK(l.kind == DWEXPR_LOC_MEMORY && l.byte_offset == 0x71e8,
           "expression(E) with value arithmetic on the CFA");
    dwexpr_unwinder_register_location(uw, 1, 13, &l);
    TAP_OK(l.kind == DWEXPR_LOC_IMPLICIT && l.u.imp.data[0] == 0x01 && l.u.imp.data[1] == 0x71,
           "val_expression(E): implicit value rsp+1");
    /* the evaluator through the unwinding target */
    uint64_t v = 0;
    char msg[200] = "";
    dwexpr_result res;
    CHECK_U64(eval_read(uw, 1, "DW_OP_call_frame_cfa", DWEXPR_RESULT_LOCATION, NULL, &res, msg),
              DWEXPR_OK, "DW_OP_call_frame_cfa in frame 1 (%s)", msg);
    TAP_OK(res.loc.slds[0].byte_offset == 0x7210, "gives frame 1's CFA");
    CHECK_U64(eval_read(uw, 1, "DW_OP_reg6", DWEXPR_RESULT_LOCATION, &v, &res, msg), DWEXPR_OK,
              "DW_OP_reg6 in frame 1 (%s)", msg);
    CHECK_U64(v, 0x7200, "rbp of frame 1 read from its save slot");
    CHECK_U64(eval_read(uw, 1, "DW_OP_breg6 -8", DWEXPR_RESULT_LOCATION, &v, NULL, msg),
              DWEXPR_OK, "DW_OP_breg6 -8 in frame 1 (%s)", msg);
    CHECK_U64(v, 0xb0b0, "reads rbp(frame 1)-8");
    CHECK_U64(eval_read(uw, 2, "DW_OP_reg6", DWEXPR_RESULT_LOCATION, &v, NULL, msg), DWEXPR_OK,
              "DW_OP_reg6 in frame 2 (%s)", msg);
    CHECK_U64(v, 0x7300, "rbp of frame 2");
    CHECK_U64(eval_read(uw, 0, "DW_OP_LLVM_call_frame_entry_reg 6", DWEXPR_RESULT_LOCATION, &v,
                        NULL, msg),
              DWEXPR_OK, "DW_OP_LLVM_call_frame_entry_reg 6 in frame 0 (%s)", msg);
    CHECK_U64(v, 0x7200, "rbp on entry to frame 0 = rbp of frame 1");
    CHECK_U64(eval_read(uw, 0, "DW_OP_entry_value 1 0x56", DWEXPR_RESULT_VALUE, &v, NULL, msg),
              DWEXPR_OK, "DW_OP_entry_value(DW_OP_reg6) in frame 0 (%s)", msg);
    CHECK_U64(v, 0x7200, "entry value of rbp read in the caller frame");
    CHECK_U64(eval_read(uw, 1, "DW_OP_reg7", DWEXPR_RESULT_LOCATION, &v, NULL, msg), DWEXPR_OK,
              "DW_OP_reg7 in frame 1 (%s)", msg);
    CHECK_U64(v, 0x7110, "rsp of frame 1 = CFA of frame 0 (implicit)");
    CHECK_U64(eval_read(uw, 5, "DW_OP_reg6", DWEXPR_RESULT_LOCATION, &v, NULL, msg),
              DWEXPR_E_NO_CONTEXT, "a frame past the outermost is not known");
    /* register reads of deep frames through the target */
    dwexpr_regref rr = {0, 2, 6, DWEXPR_CTX_FRAME};
    uint8_t rb[8];
    const dwexpr_target *t = dwexpr_unwinder_target();
    CHECK_U64(t->reg_read(uw, &rr, 0, rb, 8), DWEXPR_OK, "target reg_read of frame 2");
    CHECK_U64(rb[0] | rb[1] << 8, 0x7300, "reads rbp of frame 2");
    uint64_t pc;
    dwexpr_frameref ff = {0, 2, 0, DWEXPR_CTX_FRAME};
    CHECK_U64(t->frame_pc(uw, &ff, &pc), DWEXPR_OK, "target frame_pc");
    CHECK_U64(pc, 0x3010, "frame_pc of frame 2");
    dwexpr_unwinder_free(uw);
    dwexpr_cfi_free(cfi);
    free(s);
}

/* Frame 0 whose pc no FDE holds (glibc's clone3 just after its syscall,
 * a leaf in assembly without CFI): x86-64 guesses the return address at
 * rsp (dwexpr_arch no_cfi_row) when that address lies in code with CFI,
 * else the stack ends at frame 0 as without the guess. */
static void test_unwind_no_cfi(void)
{
    buf o = {{0}, 0};
    static const uint8_t init[] = {DW_CFA_def_cfa, 7, 8, DW_CFA_offset | 16, 1};
    size_t c = dcie(&o, 4, 1, -8, 16, init, sizeof init);
    buf b = {{0}, 0}; /* B at 0x2000: CFA = rbp + 16, rbp saved at CFA - 16 */
    u8(&b, DW_CFA_def_cfa);
    uleb(&b, 6);
    uleb(&b, 16);
    u8(&b, DW_CFA_offset | 6);
    uleb(&b, 2);
    dfde(&o, c, 0x2000, 0x100, b.b, b.n);
    buf cc = {{0}, 0}; /* C at 0x3000: the outermost frame */
    u8(&cc, DW_CFA_undefined);
    uleb(&cc, 16);
    dfde(&o, c, 0x3000, 0x100, cc.b, cc.n);
    dwexpr_status st;
    dwexpr_error e;
    dwexpr_cfi *cfi = open_sec(&o, DWEXPR_CFI_DEBUG_FRAME, "x86_64", &st, &e);
    for (int k = 0; k < 4; k++) {
        /* k 0: the guess holds; 1: the word at rsp is not code with CFI;
         * 2: it is 0; 3: an architecture without a guess (generic64) */
        sim *s = calloc(1, sizeof *s);
        s->mem_base = 0x7000;
        sreg(s, 7, 0x7100);
        sreg(s, 16, 0x5010); /* no FDE holds 0x5010 */
        sreg(s, 6, 0x7200);
        smem(s, 0x7100, k == 1 ? 0x9999 : k == 2 ? 0 : 0x2050);
        smem(s, 0x7200, 0x7300); /* B's saved rbp; B returns to C */
        smem(s, 0x7208, 0x3010);
        dwexpr_unwinder *uw = mk_unwinder(s, k == 3 ? "generic64" : "x86_64", cfi);
        dwexpr_unwind_frame fr[4];
        unsigned n = 0;
        while (n < 4 && dwexpr_unwinder_frame(uw, n, &fr[n]) == DWEXPR_OK)
            n++;
        const dwexpr_cfi_row *row;
        if (k == 0) {
            CHECK_U64(n, 3, "no CFI at frame 0's pc: the frameless guess gives three frames (%s)",
                      dwexpr_unwinder_error(uw)->message);
            TAP_OK(fr[0].guessed && !fr[0].has_row && fr[0].has_cfa &&
                       fr[0].cfa.byte_offset == 0x7108,
                   "frame 0 guessed, no FDE, CFA = rsp + 8");
            CHECK_U64(fr[1].pc, 0x2050, "frame 1 pc = the word at rsp");
            TAP_OK(!fr[1].guessed && fr[1].has_row && fr[1].cfa.byte_offset == 0x7210,
                   "frame 1 from its own CFI (rbp + 16)");
            CHECK_U64(fr[2].pc, 0x3010, "frame 2 pc");
            TAP_OK(dwexpr_unwinder_row(uw, 0, &row) == DWEXPR_OK && row->cfa.regno == 7 &&
                       row->cfa.offset == 8 && row->ra_column == 16,
                   "the guessed row is the one handed out for frame 0");
            dwexpr_sld l;
            dwexpr_unwinder_register_location(uw, 1, 6, &l);
            TAP_OK(l.kind == DWEXPR_LOC_REGISTER && l.u.regno == 6 && l.frame == 0,
                   "rbp keeps its value across the guessed frame (callee-saved)");
            dwexpr_unwinder_register_location(uw, 1, 7, &l);
            TAP_OK(l.kind == DWEXPR_LOC_IMPLICIT && l.u.imp.data[0] == 0x08 &&
                       l.u.imp.data[1] == 0x71,
                   "rsp of frame 1 = the guessed CFA");
        } else {
            CHECK_U64(n, 1, "%s: the stack ends at frame 0",
                      k == 1 ? "the word at rsp is not in code with CFI"
                      : k == 2 ? "the word at rsp is 0" : "generic64 makes no guess");
            TAP_OK(!fr[0].guessed && !fr[0].has_row && !fr[0].has_cfa && fr[0].outermost &&
                       dwexpr_unwinder_row(uw, 0, &row) == DWEXPR_E_NOT_FOUND,
                   "frame 0 without a row or CFA, as without the guess");
        }
        dwexpr_unwinder_free(uw);
        free(s);
    }
    dwexpr_cfi_free(cfi);
}

/* Forbidden operations, circular dependencies, ill-formed rules. */
static void test_rule_errors(void)
{
    struct {
        const char *expr;      /* expression rule for register 17 (or CFA) */
        int kind;              /* 0 expression, 1 val_expression, 2 CFA expression */
        uint32_t reg;
        dwexpr_status want;
        const char *what;
    } cases[] = {
        {"DW_OP_call_frame_cfa", 0, 3, DWEXPR_E_ILL_FORMED, "DW_OP_call_frame_cfa in CFI"},
        {"DW_OP_entry_value 1 0x50", 0, 3, DWEXPR_E_ILL_FORMED, "DW_OP_entry_value in CFI"},
        {"DW_OP_push_object_address", 0, 3, DWEXPR_E_ILL_FORMED, "DW_OP_push_object_address"},
        {"DW_OP_fbreg 0", 0, 3, DWEXPR_E_ILL_FORMED, "DW_OP_fbreg in CFI"},
        {"DW_OP_addrx 0", 0, 3, DWEXPR_E_ILL_FORMED, "DW_OP_addrx in CFI"},
        {"DW_OP_LLVM_push_lane", 0, 3, DWEXPR_E_ILL_FORMED, "DW_OP_LLVM_push_lane in CFI"},
        {"DW_OP_reg3", 2, 0, DWEXPR_E_ILL_FORMED, "CFA that is a register location"},
        {"DW_OP_breg7 0 DW_OP_stack_value", 2, 0, DWEXPR_E_ILL_FORMED, "CFA that is implicit"},
        {"DW_OP_lit1", 1, 17, DWEXPR_E_ILL_FORMED, "val_expression 8 bytes for 16-byte xmm0"},
        {"DW_OP_LLVM_call_frame_entry_reg 3", 0, 3, DWEXPR_E_ILL_FORMED,
         "register 3 needs itself on entry"},
        {"DW_OP_LLVM_call_frame_entry_reg 7 DW_OP_deref", 2, 0, DWEXPR_E_ILL_FORMED,
         "CFA needs rsp on entry, which needs the CFA"},
    };
    static const uint8_t init[] = {DW_CFA_def_cfa, 7, 8, DW_CFA_offset | 16, 1};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        buf o = {{0}, 0};
        size_t c = dcie(&o, 4, 1, -8, 16, init, sizeof init);
        buf a = {{0}, 0};
        if (cases[k].kind == 2) {
            u8(&a, DW_CFA_def_cfa_expression);
        } else {
            u8(&a, cases[k].kind ? DW_CFA_val_expression : DW_CFA_expression);
            uleb(&a, cases[k].reg);
        }
        block(&a, cases[k].expr);
        dfde(&o, c, 0x1000, 0x100, a.b, a.n);
        dwexpr_status st;
        dwexpr_error e;
        dwexpr_cfi *cfi = open_sec(&o, DWEXPR_CFI_DEBUG_FRAME, "x86_64", &st, &e);
        sim *s = calloc(1, sizeof *s);
        s->mem_base = 0x7000;
        sreg(s, 7, 0x7100);
        sreg(s, 16, 0x1010);
        smem(s, 0x7100, 0x7100);
        dwexpr_unwinder *uw = mk_unwinder(s, "x86_64", cfi);
        dwexpr_unwind_frame fr;
        dwexpr_unwinder_frame(uw, 0, &fr);
        dwexpr_sld l;
        if (cases[k].kind == 2) {
            dwexpr_frameref f0 = {0, 0, 0, DWEXPR_CTX_FRAME};
            st = dwexpr_unwinder_target()->cfa(uw, &f0, &l);
        } else {
            st = dwexpr_unwinder_register_location(uw, 1, cases[k].reg, &l);
            if (st == DWEXPR_E_NOT_FOUND) /* frame 1 missing: take the stop reason */
                st = dwexpr_unwinder_error(uw)->status;
        }
        CHECK_U64(st, cases[k].want, "%s (%s)", cases[k].what, dwexpr_unwinder_error(uw)->message);
        dwexpr_unwinder_free(uw);
        dwexpr_cfi_free(cfi);
        free(s);
    }
    /* mutual DW_OP_LLVM_call_frame_entry_reg between r12 and r13: the
     * message names the cycle; a non-circular use works */
    buf o = {{0}, 0};
    size_t c = dcie(&o, 4, 1, -8, 16, init, sizeof init);
    buf a = {{0}, 0};
    u8(&a, DW_CFA_expression);
    uleb(&a, 12);
    block(&a, "DW_OP_LLVM_call_frame_entry_reg 13");
    u8(&a, DW_CFA_expression);
    uleb(&a, 13);
    block(&a, "DW_OP_LLVM_call_frame_entry_reg 12");
    u8(&a, DW_CFA_expression);
    uleb(&a, 14);
    block(&a, "DW_OP_LLVM_call_frame_entry_reg 3");
    dfde(&o, c, 0x1000, 0x100, a.b, a.n);
    dwexpr_status st;
    dwexpr_error e;
    dwexpr_cfi *cfi = open_sec(&o, DWEXPR_CFI_DEBUG_FRAME, "x86_64", &st, &e);
    sim *s = calloc(1, sizeof *s);
    s->mem_base = 0x7000;
    sreg(s, 7, 0x7100);
    sreg(s, 16, 0x1010);
    smem(s, 0x7100, 0x5000);
    dwexpr_unwinder *uw = mk_unwinder(s, "x86_64", cfi);
    dwexpr_sld l;
    st = dwexpr_unwinder_register_location(uw, 1, 12, &l);
    CHECK_U64(st, DWEXPR_E_ILL_FORMED, "r12 <-> r13 call_frame_entry_reg cycle is ill-formed");
    TAP_OK(strstr(dwexpr_unwinder_error(uw)->message, "circular") != NULL,
           "the error says circular: %s", dwexpr_unwinder_error(uw)->message);
    st = dwexpr_unwinder_register_location(uw, 1, 14, &l);
    TAP_OK(st == DWEXPR_OK && l.kind == DWEXPR_LOC_REGISTER && l.u.regno == 3,
           "call_frame_entry_reg 3 (same value) is register 3 of frame 0");
    dwexpr_unwinder_free(uw);
    dwexpr_cfi_free(cfi);
    free(s);
}

/* AMDGPU-style CFI on a simulated wave64 (../shared/design
 * amdgpu-and-encodings.md): CFA in private_wave via
 * DW_CFA_LLVM_def_aspace_cfa, the return address in SGPR30:31 (a
 * composite), SGPR45 in lane 11 of VGPR41, VGPR40 spilled to memory for
 * the lanes active on entry (select_bit_piece under EXEC). */
static void test_amdgpu(void)
{
    enum { SGPR = 32, VGPR = 2560, EXEC = 17, PC = 16 };
    buf ci = {{0}, 0};
    u8(&ci, DW_CFA_LLVM_def_aspace_cfa);
    uleb(&ci, SGPR + 32);
    uleb(&ci, 0);
    uleb(&ci, 6);
    u8(&ci, DW_CFA_same_value);
    uleb(&ci, EXEC);
    buf o = {{0}, 0};
    size_t c = dcie(&o, 4, 4, 4, PC, ci.b, ci.n);
    buf a = {{0}, 0};
    u8(&a, DW_CFA_expression);
    uleb(&a, PC);
    block(&a, "DW_OP_regx 62 DW_OP_piece 4 DW_OP_regx 63 DW_OP_piece 4");
    u8(&a, DW_CFA_expression);
    uleb(&a, SGPR + 45);
    block(&a, "DW_OP_regx 2601 DW_OP_LLVM_offset_uconst 44");
    u8(&a, DW_CFA_expression);
    uleb(&a, VGPR + 40);
    block(&a, "DW_OP_regx 2600 DW_OP_swap DW_OP_LLVM_offset_uconst 0x100 "
              "DW_OP_LLVM_call_frame_entry_reg 17 DW_OP_deref_size 8 "
              "DW_OP_LLVM_select_bit_piece 32 64");
    dfde(&o, c, 0x1000, 0x100, a.b, a.n);
    buf b = {{0}, 0};
    u8(&b, DW_CFA_undefined);
    uleb(&b, PC);
    dfde(&o, c, 0x2000, 0x100, b.b, b.n);
    dwexpr_status st;
    dwexpr_error e;
    dwexpr_cfi *cfi = open_sec(&o, DWEXPR_CFI_DEBUG_FRAME, "amdgpu-wave64", &st, &e);
    CHECK_U64(st, DWEXPR_OK, "AMDGPU CFI opens (%s)", st ? e.message : "");
    sim *s = calloc(1, sizeof *s);
    s->arch = dwexpr_arch_find("amdgpu-wave64");
    uint8_t pcb[8];
    put64(pcb, 0x1010);
    memcpy(s->regs[PC], pcb, 8);
    put64(s->regs[EXEC], 0x00000000000000f0ull); /* lanes 4..7 active */
    put64(s->regs[SGPR + 32], 0x40);             /* stack pointer: CFA = private_wave 0x40 */
    put64(s->regs[SGPR + 30], 0x2020);           /* return address low */
    put64(s->regs[SGPR + 31], 0);
    for (int lane = 0; lane < 64; lane++) {
        s->vgpr[1][4 * lane] = (uint8_t)(0xa0 + lane); /* VGPR41 */
        s->vgpr[0][4 * lane] = (uint8_t)lane;          /* VGPR40 */
        s->pmem[0x40 + 0x100 + 4 * lane] = (uint8_t)(0x80 + lane);
    }
    dwexpr_unwinder *uw = mk_unwinder(s, "amdgpu-wave64", cfi);
    dwexpr_unwind_frame fr[3];
    unsigned n = 0;
    while (n < 3 && dwexpr_unwinder_frame(uw, n, &fr[n]) == DWEXPR_OK)
        n++;
    CHECK_U64(n, 2, "two AMDGPU frames (%s)", dwexpr_unwinder_error(uw)->message);
    TAP_OK(fr[0].has_cfa && fr[0].cfa.kind == DWEXPR_LOC_MEMORY && fr[0].cfa.aspace == 6 &&
               fr[0].cfa.byte_offset == 0x40,
           "CFA: private_wave (aspace 6) address 0x40");
    CHECK_U64(fr[1].pc, 0x2020, "caller pc from the SGPR30:31 composite");
    dwexpr_sld l;
    CHECK_U64(dwexpr_unwinder_register_location(uw, 1, SGPR + 45, &l), DWEXPR_OK,
              "SGPR45 of frame 1 (%s)", dwexpr_unwinder_error(uw)->message);
    TAP_OK(l.kind == DWEXPR_LOC_REGISTER && l.u.regno == 2601 && l.byte_offset == 44,
           "SGPR45 is lane 11 of VGPR41");
    uint64_t v = 0;
    char msg[200] = "";
    CHECK_U64(eval_read(uw, 1, "DW_OP_regx 77", DWEXPR_RESULT_LOCATION, &v, NULL, msg),
              DWEXPR_OK, "DW_OP_regx SGPR45 evaluated in frame 1 (%s)", msg);
    CHECK_U64(v & 0xff, 0xa0 + 11, "reads VGPR41 lane 11");
    dwexpr_regref rr = {0, 1, SGPR + 45, DWEXPR_CTX_FRAME};
    uint8_t rb[256];
    const dwexpr_target *t = dwexpr_unwinder_target();
    CHECK_U64(t->reg_read(uw, &rr, 0, rb, 4), DWEXPR_OK, "read SGPR45 of frame 1");
    CHECK_U64(rb[0], 0xa0 + 11, "SGPR45 value = VGPR41 lane 11");
    CHECK_U64(dwexpr_unwinder_register_location(uw, 1, VGPR + 40, &l), DWEXPR_OK,
              "VGPR40 of frame 1 (%s)", dwexpr_unwinder_error(uw)->message);
    TAP_OK(l.kind == DWEXPR_LOC_COMPOSITE, "VGPR40's location is a composite");
    rr.regno = VGPR + 40;
    CHECK_U64(t->reg_read(uw, &rr, 0, rb, 256), DWEXPR_OK, "read VGPR40 of frame 1 (%s)",
              dwexpr_unwinder_error(uw)->message);
    bool okl = true;
    for (int lane = 0; lane < 64; lane++) {
        uint8_t want = (lane >= 4 && lane < 8) ? (uint8_t)(0x80 + lane) : (uint8_t)lane;
        okl = okl && rb[4 * lane] == want;
    }
    TAP_OK(okl, "lanes active on entry (EXEC 0xf0) come from the spill slot, others from VGPR40");
    /* a private_lane-less CFA: the CFA shape of a kernel, via
     * def_cfa_expression with form_aspace_address */
    dwexpr_unwinder_free(uw);
    dwexpr_cfi_free(cfi);
    o.n = 0;
    c = dcie(&o, 4, 4, 4, PC, ci.b, 0);
    a.n = 0;
    u8(&a, DW_CFA_def_cfa_expression);
    block(&a, "DW_OP_lit0 DW_OP_lit6 DW_OP_LLVM_form_aspace_address");
    u8(&a, DW_CFA_undefined);
    uleb(&a, PC);
    dfde(&o, c, 0x1000, 0x100, a.b, a.n);
    cfi = open_sec(&o, DWEXPR_CFI_DEBUG_FRAME, "amdgpu-wave64", &st, &e);
    uw = mk_unwinder(s, "amdgpu-wave64", cfi);
    CHECK_U64(dwexpr_unwinder_frame(uw, 0, &fr[0]), DWEXPR_OK, "kernel frame");
    TAP_OK(fr[0].has_cfa && fr[0].cfa.aspace == 6 && fr[0].cfa.byte_offset == 0 && fr[0].outermost,
           "kernel CFA lit0/lit6/form_aspace_address; outermost");
    dwexpr_unwinder_free(uw);
    dwexpr_cfi_free(cfi);
    /* an address space AMDGPU does not define is ill-formed */
    o.n = 0;
    ci.n = 0;
    u8(&ci, DW_CFA_LLVM_def_aspace_cfa);
    uleb(&ci, SGPR + 32);
    uleb(&ci, 0);
    uleb(&ci, 4);
    c = dcie(&o, 4, 4, 4, PC, ci.b, ci.n);
    dfde(&o, c, 0x1000, 0x100, NULL, 0);
    cfi = open_sec(&o, DWEXPR_CFI_DEBUG_FRAME, "amdgpu-wave64", &st, &e);
    uw = mk_unwinder(s, "amdgpu-wave64", cfi);
    dwexpr_unwinder_frame(uw, 0, &fr[0]);
    dwexpr_frameref f0 = {0, 0, 0, DWEXPR_CTX_FRAME};
    st = t->cfa(uw, &f0, &l);
    TAP_OK(dwexpr_status_class(st) == DWEXPR_CLASS_ILL_FORMED,
           "DW_CFA_LLVM_def_aspace_cfa with address space 4 is ill-formed (%s: %s)",
           dwexpr_status_name(st), dwexpr_unwinder_error(uw)->message);
    dwexpr_unwinder_free(uw);
    dwexpr_cfi_free(cfi);
    free(s);
}

#if defined(__unix__)
/* Whether A and B (the same file opened two ways) show the same sections. */
static bool same_sections(const dwexpr_elf *a, const dwexpr_elf *b)
{
    if (dwexpr_elf_section_count(a) != dwexpr_elf_section_count(b) ||
        dwexpr_elf_section_count(a) < 2)
        return false;
    for (size_t i = 0; i < dwexpr_elf_section_count(a); i++) {
        dwexpr_elf_section x, y;
        if (dwexpr_elf_get_section(a, i, &x) != DWEXPR_OK ||
            dwexpr_elf_get_section(b, i, &y) != DWEXPR_OK || strcmp(x.name, y.name) != 0 ||
            x.size != y.size || (x.data == NULL) != (y.data == NULL) ||
            (x.data && memcmp(x.data, y.data, (size_t)x.size) != 0))
            return false;
    }
    return true;
}

/* dwexpr_elf_open_file: a regular file (mapped), a FIFO (read), errors. */
static void test_elf_open_file(const char *self)
{
    /* the test's own executable, mapped, against its bytes read here */
    FILE *f = fopen(self, "rb");
    static uint8_t bytes[64 << 20];
    size_t n = f ? fread(bytes, 1, sizeof bytes, f) : 0;
    if (f)
        fclose(f);
    dwexpr_elf *mem = NULL, *file = NULL, *fifo = NULL;
    dwexpr_error err;
    TAP_OK(n > 0 && n < sizeof bytes && dwexpr_elf_open_mem(bytes, n, &mem, &err) == DWEXPR_OK,
           "elf: the test executable's bytes parse");
    TAP_OK(mem && dwexpr_elf_open_file(self, &file, &err) == DWEXPR_OK && same_sections(mem, file),
           "elf: open_file of a regular file gives what its bytes give");
    size_t isz = 0, fsz = 0;
    const uint8_t *img = mem ? dwexpr_elf_image(mem, &isz) : NULL;
    const uint8_t *fimg = file ? dwexpr_elf_image(file, &fsz) : NULL;
    TAP_OK(img == bytes && isz == n && fimg && fsz == n && memcmp(fimg, bytes, n) == 0,
           "elf: image: open_mem's bytes themselves, open_file's the file's");
    /* a FIFO: no size, no mapping; read to its end */
    char path[64];
    snprintf(path, sizeof path, "/tmp/dwexpr-test-fifo-%ld", (long)getpid());
    unlink(path);
    bool made = mkfifo(path, 0600) == 0;
    fflush(stdout); /* the child must not write our buffered TAP lines again */
    pid_t child = made ? fork() : -1;
    if (child == 0) {
        FILE *w = fopen(path, "wb");
        size_t put = w ? fwrite(bytes, 1, n, w) : 0;
        if (w)
            fclose(w);
        _exit(put == n ? 0 : 1);
    }
    TAP_OK(child > 0 && mem && dwexpr_elf_open_file(path, &fifo, &err) == DWEXPR_OK &&
               same_sections(mem, fifo),
           "elf: open_file of a FIFO reads it whole");
    int status = 1;
    if (child > 0)
        waitpid(child, &status, 0);
    TAP_OK(child > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0, "elf: the FIFO's writer wrote it all");
    if (made)
        unlink(path);
    /* the build id, from the whole file and from its first page alone
     * (what a core holds of a mapped file: dwexpr_elf_open_head) */
    const uint8_t *id = NULL, *hid = NULL;
    size_t idn = 0, hidn = 0;
    dwexpr_elf *head = NULL, *page = NULL;
    TAP_OK(mem && dwexpr_elf_build_id(mem, &id, &idn) == DWEXPR_OK && idn >= 8,
           "elf: the test executable has a build id (ld --build-id)");
    TAP_OK(n > 4096 && dwexpr_elf_open_mem(bytes, 4096, &page, &err) == DWEXPR_E_TRUNCATED && !page,
           "elf: open_mem of the first page alone: the section headers are outside");
    TAP_OK(n > 4096 && dwexpr_elf_open_head(bytes, 4096, &head, &err) == DWEXPR_OK &&
               dwexpr_elf_section_count(head) == 0 &&
               dwexpr_elf_build_id(head, &hid, &hidn) == DWEXPR_OK && hidn == idn &&
               memcmp(hid, id, idn) == 0,
           "elf: open_head of the first page: no sections, the same build id (PT_NOTE)");
    dwexpr_elf_free(head);
    TAP_OK(dwexpr_elf_build_id(NULL, &hid, &hidn) == DWEXPR_E_USAGE, "elf: build_id of NULL is E_USAGE");
    dwexpr_elf_free(fifo);
    dwexpr_elf_free(file);
    dwexpr_elf_free(mem);
    /* errors: no such file; a regular file that is no ELF; an empty one */
    dwexpr_elf *bad = NULL;
    TAP_OK(dwexpr_elf_open_file("/nonexistent/dwexpr-elf", &bad, &err) == DWEXPR_E_NOT_FOUND && !bad,
           "elf: open_file of no file is E_NOT_FOUND");
    snprintf(path, sizeof path, "/tmp/dwexpr-test-notelf-%ld", (long)getpid());
    FILE *t = fopen(path, "wb");
    if (t) {
        fputs("#!/bin/sh\necho not an ELF file\n", t);
        fclose(t);
    }
    TAP_OK(t && dwexpr_elf_open_file(path, &bad, &err) == DWEXPR_E_ILL_FORMED && !bad,
           "elf: open_file of a mapped non-ELF file is ill-formed (and unmapped)");
    t = fopen(path, "wb");
    if (t)
        fclose(t);
    TAP_OK(t && dwexpr_elf_open_file(path, &bad, &err) == DWEXPR_E_ILL_FORMED && !bad,
           "elf: open_file of an empty file is ill-formed");
    unlink(path);
}
#endif

int main(int argc, char **argv)
{
#if defined(__unix__)
    test_elf_open_file(argc > 0 ? argv[0] : "/proc/self/exe");
#else
    (void)argc;
    (void)argv;
#endif
    test_versions();
    test_eh_frame();
    test_eh_frame_hdr();
    test_parse_errors();
    test_robust();
    test_rows();
    test_row_errors();
    test_unwind_x86();
    test_unwind_no_cfi();
    test_rule_errors();
    test_amdgpu();
    return TAP_DONE();
}
