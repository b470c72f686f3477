/* test/test_codec.c: the codec: statuses, the op table, LEB128, decoding
 * (every operand layout, both DW_OP_LLVM_* encodings, branches, nesting),
 * disassembly, assembly, and asm(disasm(x)) == x round trips. */
#include <stdlib.h>
#include "tap.h"
#include "xorshift.h"
#include "dwx.h"
#include "text.h"

/* TAP_OK evaluates its condition twice; conditions here have side
 * effects (decoding, allocating), so evaluate once. */
#define OK(cond, ...)                  \
    do {                               \
        bool ok_ = (cond);             \
        TAP_OK(ok_, __VA_ARGS__);      \
    } while (0)

/* ---- helpers ---- */

/* Parse hex digits (spaces ignored) into OUT; returns the byte count. */
static size_t unhex(const char *h, uint8_t *out)
{
    size_t n = 0;
    int hi = -1;
    for (; *h; h++) {
        int d;
        if (*h >= '0' && *h <= '9') d = *h - '0';
        else if (*h >= 'a' && *h <= 'f') d = *h - 'a' + 10;
        else if (*h >= 'A' && *h <= 'F') d = *h - 'A' + 10;
        else continue;
        if (hi < 0) hi = d;
        else { out[n++] = (uint8_t)(hi << 4 | d); hi = -1; }
    }
    return n;
}

/* Bytes as lower-case hex (one of a few rotating static buffers). */
/* Operation I of P's public view (dwexpr_program_op), in one of 8
 * rotating buffers so that one check can compare several. */
static const dwexpr_op *OPV(const dwexpr_program *p, size_t i)
{
    static dwexpr_op views[8];
    static unsigned next;
    const dwexpr_op *op = dwexpr_program_op(p, i, &views[next++ % 8]);
    if (!op) {
        static const dwexpr_op none = {.id = DWEXPR_OP_COUNT};
        return &none;
    }
    return op;
}

static const char *tohex(const uint8_t *b, size_t n)
{
    static char bufs[4][4096];
    static int k;
    char *s = bufs[k++ & 3];
    size_t i;
    for (i = 0; i < n && i < 2000; i++)
        sprintf(s + 2 * i, "%02x", b[i]);
    s[2 * i] = '\0';
    return s;
}

/* TEXT with control characters escaped, for one-line test names (one of
 * a few rotating static buffers). */
static const char *esc(const char *text)
{
    static char bufs[4][512];
    static int k;
    char *s = bufs[k++ & 3], *o = s;
    for (; *text && o < s + sizeof bufs[0] - 3; text++) {
        if (*text == '\n' || *text == '\t' || *text == '\r') {
            *o++ = '\\';
            *o++ = *text == '\n' ? 'n' : *text == '\t' ? 't' : 'r';
        } else {
            *o++ = *text;
        }
    }
    *o = '\0';
    return s;
}

/* Test units. */
enum { U5, UBE, UV2A4, UV2A8, UDW64, UPROV, UA4, UA2, UA1, UPROVBE, UNITS };
static const char *const unit_names[UNITS] = {
    "v5/a8", "big-endian/a4", "v2/a4", "v2/a8", "64-bit DWARF", "provisional",
    "a4", "a2", "a1", "provisional/big-endian"};

/* The test unit K. */
static dwexpr_unit unit_of(int k)
{
    dwexpr_unit u;
    memset(&u, 0, sizeof u);
    u.addr_size = 8;
    u.offset_size = 4;
    u.version = 5;
    switch (k) {
    case UBE: u.big_endian = 1; u.addr_size = 4; break;
    case UV2A4: u.version = 2; u.addr_size = 4; break;
    case UV2A8: u.version = 2; break;
    case UDW64: u.offset_size = 8; break;
    case UPROV: u.ext_encoding = DWEXPR_EXT_PROVISIONAL; break;
    case UA4: u.addr_size = 4; break;
    case UA2: u.addr_size = 2; break;
    case UA1: u.addr_size = 1; break;
    case UPROVBE: u.ext_encoding = DWEXPR_EXT_PROVISIONAL; u.big_endian = 1; break;
    default: break;
    }
    return u;
}

/* Decode BYTES into a malloc'ed copy of exactly LEN bytes (so ASan sees
 * any over-read), returning the status; *PROG gets the program. */
static dwexpr_status decode_exact(const uint8_t *bytes, size_t len, const dwexpr_unit *u,
                                  dwexpr_program **prog, dwexpr_error *err)
{
    uint8_t *copy = malloc(len ? len : 1);
    memcpy(copy, bytes, len);
    dwexpr_program *p = NULL;
    dwexpr_status st = dwexpr_program_decode(copy, len, u, &p, err);
    if (prog && st == DWEXPR_OK) {
        /* keep the copy alive with the program: re-decode from BYTES */
        dwexpr_program_free(p);
        free(copy);
        return dwexpr_program_decode(bytes, len, u, prog, err);
    }
    dwexpr_program_free(p);
    free(copy);
    return st;
}

/* Disassemble; returns a static string ("ERR <status>" on failure). */
static const char *disasm_str(const uint8_t *b, size_t n, const dwexpr_unit *u,
                              const dwexpr_arch *arch)
{
    static char out[8192];
    dwexpr_error err;
    size_t need;
    dwexpr_status st = dwexpr_disasm(b, n, u, arch, out, sizeof out, &need, &err);
    if (st != DWEXPR_OK)
        snprintf(out, sizeof out, "ERR %s", dwexpr_status_name(st));
    return out;
}

/* Assemble TEXT; returns hex or "ERR <status>". */
static const char *asm_str(const char *text, const dwexpr_unit *u, const dwexpr_arch *arch,
                           dwexpr_error *err)
{
    static char res[8300];
    static uint8_t out[4096];
    size_t len = 0;
    dwexpr_status st = dwexpr_asm(text, u, arch, out, sizeof out, &len, err);
    if (st != DWEXPR_OK)
        snprintf(res, sizeof res, "ERR %s", dwexpr_status_name(st));
    else
        snprintf(res, sizeof res, "%s", tohex(out, len));
    return res;
}

/* asm(disasm(B)) == B for unit U and ARCH. */
static bool round_trip(const uint8_t *b, size_t n, const dwexpr_unit *u,
                       const dwexpr_arch *arch, char *why, size_t whycap)
{
    static char text[65536];
    static uint8_t out[8192];
    dwexpr_error err;
    size_t need = 0, len = 0;
    dwexpr_status st = dwexpr_disasm(b, n, u, arch, text, sizeof text, &need, &err);
    if (st != DWEXPR_OK) {
        snprintf(why, whycap, "disasm %s: %s", dwexpr_status_name(st), err.message);
        return false;
    }
    st = dwexpr_asm(text, u, arch, out, sizeof out, &len, &err);
    if (st != DWEXPR_OK) {
        snprintf(why, whycap, "asm %s at %lld: %s [%.300s]", dwexpr_status_name(st),
                 (long long)err.offset, err.message, esc(text));
        return false;
    }
    if (len != n || memcmp(out, b, n) != 0) {
        snprintf(why, whycap, "%.200s -> [%.300s] -> %.200s", tohex(b, n), esc(text),
                 tohex(out, len));
        return false;
    }
    return true;
}

/* ---- status and table ---- */

/* Status names, classes, messages, dwx_fail, version. */
static void test_status(void)
{
    CHECK_STR(dwexpr_status_name(DWEXPR_OK), "OK", "status name OK");
    CHECK_STR(dwexpr_status_name(DWEXPR_E_BAD_BRANCH), "E_BAD_BRANCH", "status name E_BAD_BRANCH");
    CHECK_STR(dwexpr_status_name(DWEXPR_E_SYNTAX), "E_SYNTAX", "status name E_SYNTAX (last)");
    CHECK_STR(dwexpr_status_name((dwexpr_status)9999), "E_UNKNOWN_STATUS", "status name out of range");
    CHECK_U64(dwexpr_status_class(DWEXPR_OK), DWEXPR_CLASS_NONE, "OK class none");
    CHECK_U64(dwexpr_status_class(DWEXPR_E_TRUNCATED), DWEXPR_CLASS_DECODE, "truncated is decode");
    CHECK_U64(dwexpr_status_class(DWEXPR_E_BAD_BRANCH), DWEXPR_CLASS_ILL_FORMED, "bad branch is ill_formed");
    CHECK_U64(dwexpr_status_class(DWEXPR_E_CALL_DEPTH), DWEXPR_CLASS_LIMIT, "call depth is limit");
    CHECK_U64(dwexpr_status_class(DWEXPR_E_SYNTAX), DWEXPR_CLASS_USAGE, "syntax is usage");
    CHECK_STR(dwexpr_class_name(DWEXPR_CLASS_ILL_FORMED), "ill_formed", "class name ill_formed");
    CHECK_STR(dwexpr_class_name(DWEXPR_CLASS_DECODE), "decode", "class name decode");
    CHECK_STR(dwexpr_class_name((dwexpr_class)99), "unknown", "class name out of range");
    CHECK_STR(dwexpr_strerror(DWEXPR_E_DIV_ZERO), "division by zero", "strerror");
    OK(dwexpr_strerror((dwexpr_status)-1) != NULL, "strerror never NULL");
    bool all = true;
    for (int s = 0; s < DWEXPR_STATUS_COUNT; s++)
        all = all && dwexpr_status_name((dwexpr_status)s)[0] && dwexpr_strerror((dwexpr_status)s)[0];
    OK(all, "every status has a name and a message");

    dwexpr_error err;
    memset(&err, 0x55, sizeof err);
    dwexpr_status st = dwx_fail(&err, DWEXPR_E_TRUNCATED, 7, DWEXPR_OP_const2u, "x=%d", 42);
    CHECK_U64(st, DWEXPR_E_TRUNCATED, "dwx_fail returns its status");
    CHECK_U64(err.offset, 7, "dwx_fail offset");
    CHECK_U64(err.opcode, 0x0a, "dwx_fail opcode byte");
    CHECK_STR(err.op_name, "DW_OP_const2u", "dwx_fail op name");
    CHECK_STR(err.message, "x=42", "dwx_fail message");
    dwx_fail(&err, DWEXPR_E_USAGE, -1, DWEXPR_OP_COUNT, NULL);
    OK(err.op_name == NULL && err.opcode == -1 && err.offset == -1, "dwx_fail without op");
    CHECK_STR(err.message, "invalid argument", "dwx_fail NULL format gives default message");
    dwx_fail(&err, DWEXPR_E_EVALUATION, 3, DWEXPR_OP_LLVM_offset, "m");
    CHECK_U64(err.opcode, 0xe904, "LLVM op opcode in DW_OP_LLVM_user form");
    CHECK_U64(dwx_fail(NULL, DWEXPR_E_DIV_ZERO, 0, 0, "z"), DWEXPR_E_DIV_ZERO, "dwx_fail NULL err");
    char longfmt[400];
    memset(longfmt, 'a', sizeof longfmt - 1);
    longfmt[sizeof longfmt - 1] = 0;
    dwx_fail(&err, DWEXPR_E_USAGE, 0, DWEXPR_OP_COUNT, "%s", longfmt);
    CHECK_U64(strlen(err.message), sizeof err.message - 1, "long message truncated");
    CHECK_U64(dwexpr_version_number(), DWEXPR_VERSION_NUMBER, "version number");
}

/* The operation table and lookup by name. */
static void test_ops_table(void)
{
    const dwexpr_opinfo *i = dwexpr_op_info(DWEXPR_OP_breg6);
    CHECK_STR(i->name, "DW_OP_breg6", "op_info name");
    CHECK_U64(i->code, 0x76, "op_info code");
    CHECK_U64(i->operands, DWEXPR_OPND_SLEB, "op_info operands");
    OK(dwexpr_op_info(DWEXPR_OP_COUNT) == NULL, "op_info out of range");
    OK(dwexpr_op_info((dwexpr_opid)-1) == NULL, "op_info negative");
    CHECK_STR(dwexpr_op_info(DWEXPR_OP_LLVM_select_bit_piece)->name, "DW_OP_LLVM_select_bit_piece",
              "LLVM op name");
    CHECK_U64(dwexpr_op_by_name("DW_OP_breg6", 11), DWEXPR_OP_breg6, "by name with prefix");
    CHECK_U64(dwexpr_op_by_name("breg6", 5), DWEXPR_OP_breg6, "by name without prefix");
    CHECK_U64(dwexpr_op_by_name("breg6 -8", 5), DWEXPR_OP_breg6, "by name exact len");
    CHECK_U64(dwexpr_op_by_name("breg", 4), DWEXPR_OP_COUNT, "prefix of a name is not a name");
    CHECK_U64(dwexpr_op_by_name("breg60", 6), DWEXPR_OP_COUNT, "unknown name");
    CHECK_U64(dwexpr_op_by_name("DW_OP_", 6), DWEXPR_OP_COUNT, "bare prefix");
    CHECK_U64(dwexpr_op_by_name("BREG6", 5), DWEXPR_OP_COUNT, "case-sensitive");
    CHECK_U64(dwexpr_op_by_name("LLVM_user", 9), DWEXPR_OP_COUNT, "LLVM_user is a prefix, not an op");
    CHECK_U64(dwexpr_op_by_name(NULL, 3), DWEXPR_OP_COUNT, "NULL name");
    bool all = true;
    for (int k = 0; k < DWEXPR_OP_COUNT; k++) {
        const char *n = dwexpr_op_info((dwexpr_opid)k)->name;
        all = all && dwexpr_op_by_name(n, strlen(n)) == (dwexpr_opid)k &&
              dwexpr_op_by_name(n + 6, strlen(n + 6)) == (dwexpr_opid)k;
    }
    OK(all, "every op found by its name, with and without prefix");
}

/* ---- LEB128 ---- */

/* Reference readers for test_leb_random: the value with 128 bits of room
 * (encodings of at most 18 bytes), then the DWARF 5 7.6 rule that it fits
 * 64 bits (unsigned) or int64_t (signed). Status, value, bytes read. */
static dwexpr_status ref_uleb(const uint8_t *b, size_t n, uint64_t *v, size_t *len)
{
    unsigned __int128 x = 0;
    for (size_t i = 0; i < n; i++) {
        x |= (unsigned __int128)(b[i] & 0x7f) << (7 * i);
        if (!(b[i] & 0x80)) {
            *len = i + 1;
            *v = (uint64_t)x;
            return (x >> 64) ? DWEXPR_E_LEB_OVERFLOW : DWEXPR_OK;
        }
    }
    return DWEXPR_E_TRUNCATED;
}

static dwexpr_status ref_sleb(const uint8_t *b, size_t n, int64_t *v, size_t *len)
{
    unsigned __int128 x = 0;
    for (size_t i = 0; i < n; i++) {
        x |= (unsigned __int128)(b[i] & 0x7f) << (7 * i);
        if (!(b[i] & 0x80)) {
            const unsigned top = 7 * (unsigned)(i + 1);
            if (b[i] & 0x40)
                x |= ~(unsigned __int128)0 << top; /* top < 128 for n <= 18 */
            __int128 sx = (__int128)x;
            *len = i + 1;
            *v = (int64_t)(uint64_t)x;
            return sx < INT64_MIN || sx > INT64_MAX ? DWEXPR_E_LEB_OVERFLOW : DWEXPR_OK;
        }
    }
    return DWEXPR_E_TRUNCATED;
}

/* dwx_read_uleb / dwx_read_sleb against the reference readers on random
 * encodings of 1-18 bytes, biased towards the interesting ones: values
 * around bit 63 (the 9/10-byte boundary of the common path), sign bytes,
 * padding, truncation by the end pointer, bytes after the encoding (the
 * readers' one-word path reads 8 bytes at a time when 8 are there). */
static void test_leb_random(void)
{
    uint64_t seed = 0x1eb128;
    unsigned bad_u = 0, bad_s = 0, n_ok = 0, n_over = 0, n_trunc = 0;
    for (int k = 0; k < 200000; k++) {
        uint8_t b[26];
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t r = seed >> 11;
        size_t n = 1 + r % 18, end = n;
        for (size_t i = 0; i < n; i++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            uint8_t x = (uint8_t)(seed >> 33);
            switch ((seed >> 50) % 4) {
            case 0: x |= 0x7f; break;   /* all ones: sign / max payloads */
            case 1: x &= 0x80; break;   /* zero payload: padding */
            default: break;
            }
            b[i] = (uint8_t)(i + 1 < n ? x | 0x80 : x & 0x7f);
        }
        if ((r >> 20) % 8 == 0 && n > 1) {
            end = (r >> 24) % n; /* truncated */
        } else if ((r >> 28) % 2) { /* followed by 1-8 other bytes */
            end = n + 1 + (r >> 29) % 8;
            for (size_t i = n; i < end; i++)
                b[i] = (uint8_t)(seed >> (i % 8 * 8)) ^ (uint8_t)(0x80 * (i & 1));
        }
        uint64_t uv = 0, ru = 0;
        int64_t sv = 0, rs = 0;
        uint8_t l1 = 0, l2 = 0;
        size_t rl = 0;
        const uint8_t *p = b;
        dwexpr_status su = dwx_read_uleb(&p, b + end, &uv, &l1);
        dwexpr_status wu = ref_uleb(b, end, &ru, &rl);
        if (su != wu || (wu == DWEXPR_OK && (uv != ru || l1 != rl || p != b + rl)))
            bad_u++;
        p = b;
        dwexpr_status ss = dwx_read_sleb(&p, b + end, &sv, &l2);
        dwexpr_status ws = ref_sleb(b, end, &rs, &rl);
        if (ss != ws || (ws == DWEXPR_OK && (sv != rs || l2 != rl || p != b + rl)))
            bad_s++;
        n_ok += wu == DWEXPR_OK;
        n_over += wu == DWEXPR_E_LEB_OVERFLOW;
        n_trunc += wu == DWEXPR_E_TRUNCATED;
    }
    OK(bad_u == 0, "200000 random ULEB128 encodings read as the reference reads them (%u differ)",
       bad_u);
    OK(bad_s == 0, "and as SLEB128 (%u differ)", bad_s);
    OK(n_ok > 20000 && n_over > 20000 && n_trunc > 10000,
       "the encodings include values, overflows and truncations (%u / %u / %u)", n_ok, n_over,
       n_trunc);
}

/* LEB128 readers/writers (DWARF 5 7.6) and fixed-size reads. */
static void test_leb(void)
{
    static const struct {
        const char *hex;
        dwexpr_status st;
        uint64_t v;
        unsigned len;
    } ul[] = {
        {"00", DWEXPR_OK, 0, 1},
        {"7f", DWEXPR_OK, 127, 1},
        {"8001", DWEXPR_OK, 128, 2},
        {"e58e26", DWEXPR_OK, 624485, 3},
        {"ffffffffffffffffff01", DWEXPR_OK, UINT64_MAX, 10},
        {"80808080808080808001", DWEXPR_OK, 0x8000000000000000ull, 10},
        {"ffffffffffffffffff8100", DWEXPR_OK, UINT64_MAX, 11},
        {"8080808000", DWEXPR_OK, 0, 5},
        {"a7808000", DWEXPR_OK, 0x27, 4},
        {"808080808080808080808080808000", DWEXPR_OK, 0, 15},
        {"ffffffffffffffffff02", DWEXPR_E_LEB_OVERFLOW, 0, 0},
        {"ffffffffffffffffff7f", DWEXPR_E_LEB_OVERFLOW, 0, 0},
        {"ffffffffffffffffff8101", DWEXPR_E_LEB_OVERFLOW, 0, 0},
        {"8080808080808080808080808001", DWEXPR_E_LEB_OVERFLOW, 0, 0},
        {"", DWEXPR_E_TRUNCATED, 0, 0},
        {"80", DWEXPR_E_TRUNCATED, 0, 0},
        {"ffffffffffffffffff81", DWEXPR_E_TRUNCATED, 0, 0},
    };
    for (size_t k = 0; k < sizeof ul / sizeof ul[0]; k++) {
        uint8_t b[64];
        size_t n = unhex(ul[k].hex, b);
        uint8_t *copy = malloc(n + 1);
        memcpy(copy, b, n);
        const uint8_t *p = copy;
        uint64_t v = 0;
        uint8_t len = 0;
        dwexpr_status st = dwx_read_uleb(&p, copy + n, &v, &len);
        OK(st == ul[k].st && (st != DWEXPR_OK || (v == ul[k].v && len == ul[k].len &&
                                                      p == copy + n)),
               "uleb %s -> %s", ul[k].hex, dwexpr_status_name(ul[k].st));
        free(copy);
    }
    static const struct {
        const char *hex;
        dwexpr_status st;
        int64_t v;
        unsigned len;
    } sl[] = {
        {"00", DWEXPR_OK, 0, 1},
        {"7f", DWEXPR_OK, -1, 1},
        {"3f", DWEXPR_OK, 63, 1},
        {"40", DWEXPR_OK, -64, 1},
        {"c000", DWEXPR_OK, 64, 2},
        {"807f", DWEXPR_OK, -128, 2},
        {"ff7f", DWEXPR_OK, -1, 2},
        {"ffff7f", DWEXPR_OK, -1, 3},
        {"8080808000", DWEXPR_OK, 0, 5},
        {"8080808080808080807f", DWEXPR_OK, INT64_MIN, 10},
        {"ffffffffffffffffff00", DWEXPR_OK, INT64_MAX, 10},
        {"ffffffffffffffffff807f", DWEXPR_E_LEB_OVERFLOW, 0, 0},
        {"ffffffffffffffffffff7f", DWEXPR_OK, -1, 11},
        {"80808080808080808080ff7f", DWEXPR_E_LEB_OVERFLOW, 0, 0},
        {"ffffffffffffffffff8000", DWEXPR_OK, INT64_MAX, 11},
        {"80808080808080808001", DWEXPR_E_LEB_OVERFLOW, 0, 0},
        {"8080808080808080807e", DWEXPR_E_LEB_OVERFLOW, 0, 0},
        {"ffffffffffffffffff40", DWEXPR_E_LEB_OVERFLOW, 0, 0},
        {"", DWEXPR_E_TRUNCATED, 0, 0},
        {"ff", DWEXPR_E_TRUNCATED, 0, 0},
    };
    for (size_t k = 0; k < sizeof sl / sizeof sl[0]; k++) {
        uint8_t b[64];
        size_t n = unhex(sl[k].hex, b);
        uint8_t *copy = malloc(n + 1);
        memcpy(copy, b, n);
        const uint8_t *p = copy;
        int64_t v = 0;
        uint8_t len = 0;
        dwexpr_status st = dwx_read_sleb(&p, copy + n, &v, &len);
        OK(st == sl[k].st && (st != DWEXPR_OK || (v == sl[k].v && len == sl[k].len &&
                                                      p == copy + n)),
               "sleb %s -> %s", sl[k].hex, dwexpr_status_name(sl[k].st));
        if (st != sl[k].st || (st == DWEXPR_OK && v != sl[k].v))
            printf("#   got %s %lld len %u\n", dwexpr_status_name(st), (long long)v, len);
        free(copy);
    }

    /* long padding: 300 bytes read fine, length saturates at 255 */
    uint8_t big[300];
    memset(big, 0x80, sizeof big);
    big[299] = 0;
    const uint8_t *p = big;
    uint64_t v = 1;
    uint8_t len = 0;
    OK(dwx_read_uleb(&p, big + 300, &v, &len) == DWEXPR_OK && v == 0 && len == 255 &&
           p == big + 300, "300-byte padded uleb reads, nbytes saturates");
    p = big;
    OK(dwx_read_uleb(&p, big + 299, &v, NULL) == DWEXPR_E_TRUNCATED, "truncated long uleb");

    /* writers: every value/pad combination reads back exactly */
    static const uint64_t uv[] = {0, 1, 63, 64, 127, 128, 0x3fff, 0x4000, 624485,
                                  0x7fffffff, 0xffffffff, 0x8000000000000000ull, UINT64_MAX};
    static const int64_t sv[] = {0, 1, -1, 63, 64, -64, -65, 127, -128, 8191, -8192,
                                 INT64_MAX, INT64_MIN, -123456789};
    static const unsigned pads[] = {0, 1, 2, 4, 5, 10, 12, 20};
    bool ok = true;
    for (size_t a = 0; a < sizeof uv / sizeof uv[0]; a++)
        for (size_t q = 0; q < sizeof pads / sizeof pads[0]; q++) {
            uint8_t buf[32];
            size_t n = dwx_write_uleb(buf, uv[a], pads[q]);
            size_t m = dwx_write_uleb(NULL, uv[a], pads[q]);
            const uint8_t *r = buf;
            uint64_t got;
            uint8_t l;
            ok = ok && n == m && dwx_read_uleb(&r, buf + n, &got, &l) == DWEXPR_OK &&
                 got == uv[a] && l == n && (pads[q] <= n) && (n == pads[q] || pads[q] < n);
        }
    OK(ok, "uleb write/read round trip with padding");
    ok = true;
    for (size_t a = 0; a < sizeof sv / sizeof sv[0]; a++)
        for (size_t q = 0; q < sizeof pads / sizeof pads[0]; q++) {
            uint8_t buf[32];
            size_t n = dwx_write_sleb(buf, sv[a], pads[q]);
            const uint8_t *r = buf;
            int64_t got;
            uint8_t l;
            ok = ok && n == dwx_write_sleb(NULL, sv[a], pads[q]) &&
                 dwx_read_sleb(&r, buf + n, &got, &l) == DWEXPR_OK && got == sv[a] && l == n &&
                 n >= pads[q];
        }
    OK(ok, "sleb write/read round trip with padding");
    uint8_t w[16];
    CHECK_STR(tohex(w, dwx_write_uleb(w, 0x27, 4)), "a7808000", "uleb 0x27 padded to 4");
    CHECK_STR(tohex(w, dwx_write_sleb(w, -1, 3)), "ffff7f", "sleb -1 padded to 3");
    CHECK_STR(tohex(w, dwx_write_sleb(w, 2, 3)), "828000", "sleb 2 padded to 3");
    CHECK_STR(tohex(w, dwx_write_uleb(w, UINT64_MAX, 0)), "ffffffffffffffffff01", "uleb max");
    CHECK_STR(tohex(w, dwx_write_sleb(w, INT64_MIN, 0)), "8080808080808080807f", "sleb min");
    CHECK_STR(tohex(w, dwx_write_uleb(w, 300, 1)), "ac02", "pad shorter than value is ignored");

    /* fixed-size reads */
    uint8_t fb[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    p = fb;
    dwx_read_fixed(&p, fb + 8, 4, false, &v);
    CHECK_U64(v, 0x04030201, "fixed 4 little-endian");
    p = fb;
    dwx_read_fixed(&p, fb + 8, 4, true, &v);
    CHECK_U64(v, 0x01020304, "fixed 4 big-endian");
    p = fb;
    dwx_read_fixed(&p, fb + 8, 8, true, &v);
    CHECK_U64(v, 0x0102030405060708ull, "fixed 8 big-endian");
    p = fb;
    dwx_read_fixed(&p, fb + 8, 3, false, &v);
    OK(v == 0x030201 && p == fb + 3, "fixed 3 advances");
    p = fb;
    CHECK_U64(dwx_read_fixed(&p, fb + 3, 4, false, &v), DWEXPR_E_TRUNCATED, "fixed truncated");
    OK(p == fb, "truncated read does not advance");
    CHECK_U64(dwx_read_fixed(&p, fb + 8, 9, false, &v), DWEXPR_E_USAGE, "fixed size 9 refused");
    CHECK_U64(dwx_read_fixed(&p, fb + 8, 0, false, &v), DWEXPR_E_USAGE, "fixed size 0 refused");
}

/* ---- decoding ---- */

static const struct dcase {
    const char *hex;
    int unit;
    dwexpr_status st;
    int off;       /* error offset (or -1 for OK) */
    int id;        /* expected op id of the (single) op for OK */
    uint64_t o0, o1;
    unsigned size;
} dcases[] = {
#define OK1(h, u, id, a, b, sz) {h, u, DWEXPR_OK, -1, DWEXPR_OP_##id, a, b, sz}
#define BAD(h, u, st, off) {h, u, DWEXPR_##st, off, DWEXPR_OP_COUNT, 0, 0, 0}
    OK1("03 8877665544332211", U5, addr, 0x1122334455667788ull, 0, 9),
    OK1("03 44332211", UA4, addr, 0x11223344, 0, 5),
    OK1("03 11223344", UBE, addr, 0x11223344, 0, 5),
    OK1("03 2211", UA2, addr, 0x1122, 0, 3),
    OK1("03 11", UA1, addr, 0x11, 0, 2),
    OK1("06", U5, deref, 0, 0, 1),
    OK1("08 ff", U5, const1u, 255, 0, 2),
    OK1("09 ff", U5, const1s, UINT64_MAX, 0, 2),
    OK1("09 80", U5, const1s, (uint64_t)-128, 0, 2),
    OK1("0a 3412", U5, const2u, 0x1234, 0, 3),
    OK1("0a 1234", UBE, const2u, 0x1234, 0, 3),
    OK1("0b 0080", U5, const2s, (uint64_t)-32768, 0, 3),
    OK1("0c 78563412", U5, const4u, 0x12345678, 0, 5),
    OK1("0d ffffffff", U5, const4s, UINT64_MAX, 0, 5),
    OK1("0d 80000000", UBE, const4s, 0xffffffff80000000ull, 0, 5),
    OK1("0e 0102030405060708", U5, const8u, 0x0807060504030201ull, 0, 9),
    OK1("0f ffffffffffffffff", U5, const8s, UINT64_MAX, 0, 9),
    OK1("10 e58e26", U5, constu, 624485, 0, 4),
    OK1("10 8080808000", U5, constu, 0, 0, 6),
    OK1("10 ffffffffffffffffff01", U5, constu, UINT64_MAX, 0, 11),
    OK1("11 7f", U5, consts, UINT64_MAX, 0, 2),
    OK1("11 c000", U5, consts, 64, 0, 3),
    OK1("11 ffff7f", U5, consts, UINT64_MAX, 0, 4),
    OK1("12", U5, dup, 0, 0, 1),
    OK1("15 03", U5, pick, 3, 0, 2),
    OK1("23 8001", U5, plus_uconst, 128, 0, 3),
    OK1("28 0000", U5, bra, 0, 0, 3),
    OK1("2f fdff", U5, skip, (uint64_t)-3, 0, 3),
    OK1("30", U5, lit0, 0, 0, 1),
    OK1("4f", U5, lit31, 0, 0, 1),
    OK1("50", U5, reg0, 0, 0, 1),
    OK1("6f", U5, reg31, 0, 0, 1),
    OK1("70 7f", U5, breg0, UINT64_MAX, 0, 2),
    OK1("8f 08", U5, breg31, 8, 0, 2),
    OK1("90 21", U5, regx, 33, 0, 2),
    OK1("90 ffffffff0f", U5, regx, 0xffffffff, 0, 6),
    OK1("91 78", U5, fbreg, (uint64_t)-8, 0, 2),
    OK1("92 06 78", U5, bregx, 6, (uint64_t)-8, 3),
    OK1("93 08", U5, piece, 8, 0, 2),
    OK1("94 04", U5, deref_size, 4, 0, 2),
    OK1("95 02", U5, xderef_size, 2, 0, 2),
    OK1("96", U5, nop, 0, 0, 1),
    OK1("97", U5, push_object_address, 0, 0, 1),
    OK1("98 3412", U5, call2, 0x1234, 0, 3),
    OK1("99 78563412", U5, call4, 0x12345678, 0, 5),
    OK1("9a 78563412", U5, call_ref, 0x12345678, 0, 5),
    OK1("9a 0807060504030201", UDW64, call_ref, 0x0102030405060708ull, 0, 9),
    OK1("9a 44332211", UV2A4, call_ref, 0x11223344, 0, 5),
    OK1("9a 0807060504030201", UV2A8, call_ref, 0x0102030405060708ull, 0, 9),
    OK1("9a 12345678", UBE, call_ref, 0x12345678, 0, 5),
    OK1("9b", U5, form_tls_address, 0, 0, 1),
    OK1("9c", U5, call_frame_cfa, 0, 0, 1),
    OK1("9d 20 08", U5, bit_piece, 32, 8, 3),
    OK1("9e 04 01020304", U5, implicit_value, 4, 0, 6),
    OK1("9e 00", U5, implicit_value, 0, 0, 2),
    OK1("9e 8100 01", U5, implicit_value, 1, 0, 4),
    OK1("9f", U5, stack_value, 0, 0, 1),
    OK1("a0 44332211 7f", U5, implicit_pointer, 0x11223344, UINT64_MAX, 6),
    OK1("a0 0807060504030201 00", UDW64, implicit_pointer, 0x0102030405060708ull, 0, 10),
    OK1("a0 44332211 08", UV2A4, implicit_pointer, 0x11223344, 8, 6),
    OK1("a1 05", U5, addrx, 5, 0, 2),
    OK1("a2 05", U5, constx, 5, 0, 2),
    OK1("a3 01 55", U5, entry_value, 1, 0, 3),
    OK1("a4 2a 04 01000000", U5, const_type, 0x2a, 4, 7),
    OK1("a4 2a 00", U5, const_type, 0x2a, 0, 3),
    OK1("a5 11 2a", U5, regval_type, 17, 0x2a, 3),
    OK1("a6 04 2a", U5, deref_type, 4, 0x2a, 3),
    OK1("a7 04 2a", U5, xderef_type, 4, 0x2a, 3),
    OK1("a8 a7808000", U5, convert, 0x27, 0, 5),
    OK1("a9 00", U5, reinterpret, 0, 0, 2),
    OK1("e0", U5, GNU_push_tls_address, 0, 0, 1),
    OK1("f0", U5, GNU_uninit, 0, 0, 1),
    OK1("f1 00 8877665544332211", U5, GNU_encoded_addr, 0, 0x1122334455667788ull, 10),
    OK1("f1 00 44332211", UA4, GNU_encoded_addr, 0, 0x11223344, 6),
    OK1("f1 01 e58e26", U5, GNU_encoded_addr, 1, 624485, 5),
    OK1("f1 02 3412", U5, GNU_encoded_addr, 2, 0x1234, 4),
    OK1("f1 03 78563412", U5, GNU_encoded_addr, 3, 0x12345678, 6),
    OK1("f1 04 0807060504030201", U5, GNU_encoded_addr, 4, 0x0102030405060708ull, 10),
    OK1("f1 09 7f", U5, GNU_encoded_addr, 9, UINT64_MAX, 3),
    OK1("f1 0a feff", U5, GNU_encoded_addr, 0xa, (uint64_t)-2, 4),
    OK1("f1 0b 78563412", U5, GNU_encoded_addr, 0xb, 0x12345678, 6),
    OK1("f1 1b 78563412", U5, GNU_encoded_addr, 0x1b, 0x12345678, 6),
    OK1("f1 0c ffffffffffffffff", U5, GNU_encoded_addr, 0xc, UINT64_MAX, 10),
    OK1("f1 92 1234", UBE, GNU_encoded_addr, 0x92, 0x1234, 4),
    OK1("f2 44332211 02", U5, GNU_implicit_pointer, 0x11223344, 2, 6),
    OK1("f3 01 50", U5, GNU_entry_value, 1, 0, 3),
    OK1("f4 2a 02 0100", U5, GNU_const_type, 0x2a, 2, 5),
    OK1("f5 05 2a", U5, GNU_regval_type, 5, 0x2a, 3),
    OK1("f6 08 2a", U5, GNU_deref_type, 8, 0x2a, 3),
    OK1("f7 2a", U5, GNU_convert, 0x2a, 0, 2),
    OK1("f9 2a", U5, GNU_reinterpret, 0x2a, 0, 2),
    OK1("fa 78563412", U5, GNU_parameter_ref, 0x12345678, 0, 5),
    OK1("fb 01", U5, GNU_addr_index, 1, 0, 2),
    OK1("fc 01", U5, GNU_const_index, 1, 0, 2),
    OK1("fd 44332211", U5, GNU_variable_value, 0x11223344, 0, 5),
    OK1("fd 0807060504030201", UDW64, GNU_variable_value, 0x0102030405060708ull, 0, 9),
    /* DW_OP_LLVM_user (0xe9 + ULEB sub-op) */
    OK1("e9 01", U5, LLVM_nop, 0, 0, 2),
    OK1("e9 02", U5, LLVM_form_aspace_address, 0, 0, 2),
    OK1("e9 03", U5, LLVM_push_lane, 0, 0, 2),
    OK1("e9 04", U5, LLVM_offset, 0, 0, 2),
    OK1("e9 05 10", U5, LLVM_offset_uconst, 16, 0, 3),
    OK1("e9 06", U5, LLVM_bit_offset, 0, 0, 2),
    OK1("e9 07 11", U5, LLVM_call_frame_entry_reg, 17, 0, 3),
    OK1("e9 08", U5, LLVM_undefined, 0, 0, 2),
    OK1("e9 09 05 7f", U5, LLVM_aspace_bregx, 5, UINT64_MAX, 4),
    OK1("e9 0a", U5, LLVM_piece_end, 0, 0, 2),
    OK1("e9 0b 40 40", U5, LLVM_extend, 64, 64, 4),
    OK1("e9 0c 20 40", U5, LLVM_select_bit_piece, 32, 64, 4),
    OK1("e9 8200", U5, LLVM_form_aspace_address, 0, 0, 3),
    OK1("e9 858000 10", U5, LLVM_offset_uconst, 16, 0, 5),
    /* provisional single bytes */
    OK1("e1", UPROV, LLVM_form_aspace_address, 0, 0, 1),
    OK1("e2", UPROV, LLVM_push_lane, 0, 0, 1),
    OK1("e3", UPROV, LLVM_offset, 0, 0, 1),
    OK1("e4 10", UPROV, LLVM_offset_uconst, 16, 0, 2),
    OK1("e5", UPROV, LLVM_bit_offset, 0, 0, 1),
    OK1("e6 11", UPROV, LLVM_call_frame_entry_reg, 17, 0, 2),
    OK1("e7", UPROV, LLVM_undefined, 0, 0, 1),
    OK1("e8 05 7f", UPROV, LLVM_aspace_bregx, 5, UINT64_MAX, 3),
    OK1("e9 44332211 08", UPROV, LLVM_aspace_implicit_pointer, 0x11223344, 8, 6),
    OK1("e9 11223344 08", UPROVBE, LLVM_aspace_implicit_pointer, 0x11223344, 8, 6),
    OK1("ea", UPROV, LLVM_piece_end, 0, 0, 1),
    OK1("eb 40 40", UPROV, LLVM_extend, 64, 64, 3),
    OK1("ec 20 40", UPROV, LLVM_select_bit_piece, 32, 64, 3),
    OK1("e0", UPROV, GNU_push_tls_address, 0, 0, 1),
    /* unknown and vendor opcodes */
    BAD("00", U5, E_UNKNOWN_OP, 0),
    BAD("01", U5, E_UNKNOWN_OP, 0),
    BAD("02", U5, E_UNKNOWN_OP, 0),
    BAD("04", U5, E_UNKNOWN_OP, 0),
    BAD("05", U5, E_UNKNOWN_OP, 0),
    BAD("07", U5, E_UNKNOWN_OP, 0),
    BAD("aa", U5, E_UNKNOWN_OP, 0),
    BAD("df", U5, E_UNKNOWN_OP, 0),
    BAD("e1", U5, E_VENDOR_OP, 0),
    BAD("e8 05 7f", U5, E_VENDOR_OP, 0),
    BAD("ea", U5, E_VENDOR_OP, 0),
    BAD("ec", U5, E_VENDOR_OP, 0),
    BAD("ed", U5, E_VENDOR_OP, 0),
    BAD("ed", UPROV, E_VENDOR_OP, 0),
    BAD("ef", UPROV, E_VENDOR_OP, 0),
    BAD("f8", U5, E_VENDOR_OP, 0),
    BAD("fe", U5, E_VENDOR_OP, 0),
    BAD("ff", UPROV, E_VENDOR_OP, 0),
    BAD("96 96 04", U5, E_UNKNOWN_OP, 2),
    BAD("96 e3", U5, E_VENDOR_OP, 1),
    /* DW_OP_LLVM_user sub-ops */
    BAD("e9 00", U5, E_BAD_SUBOP, 0),
    BAD("96 e9 00", U5, E_BAD_SUBOP, 1),
    BAD("e9 8000", U5, E_BAD_SUBOP, 0),
    BAD("e9 0d", U5, E_BAD_SUBOP, 0),
    BAD("e9 7f", U5, E_BAD_SUBOP, 0),
    BAD("e9 8001", U5, E_BAD_SUBOP, 0),
    BAD("e9 ffffffffffffffffff01", U5, E_BAD_SUBOP, 0),
    BAD("e9 ffffffffffffffffff02", U5, E_LEB_OVERFLOW, 0),
    BAD("e9", U5, E_TRUNCATED, 0),
    BAD("e9 80", U5, E_TRUNCATED, 0),
    BAD("e9", UPROV, E_TRUNCATED, 0),
    BAD("e9 443322", UPROV, E_TRUNCATED, 0),
    BAD("e9 44332211", UPROV, E_TRUNCATED, 0),
    BAD("e9 05", U5, E_TRUNCATED, 0),
    BAD("e9 09 05", U5, E_TRUNCATED, 0),
    BAD("e9 0b 40", U5, E_TRUNCATED, 0),
    BAD("e9 07 8080808010", U5, E_BAD_OPERAND, 0),
    BAD("e4", UPROV, E_TRUNCATED, 0),
    /* truncated operands */
    BAD("03 11223344556677", U5, E_TRUNCATED, 0),
    BAD("03 112233", UA4, E_TRUNCATED, 0),
    BAD("08", U5, E_TRUNCATED, 0),
    BAD("0a 01", U5, E_TRUNCATED, 0),
    BAD("0e 01020304050607", U5, E_TRUNCATED, 0),
    BAD("10", U5, E_TRUNCATED, 0),
    BAD("10 80", U5, E_TRUNCATED, 0),
    BAD("11 ff", U5, E_TRUNCATED, 0),
    BAD("28 00", U5, E_TRUNCATED, 0),
    BAD("92 06", U5, E_TRUNCATED, 0),
    BAD("92", U5, E_TRUNCATED, 0),
    BAD("9d 20", U5, E_TRUNCATED, 0),
    BAD("9e 05 01020304", U5, E_TRUNCATED, 0),
    BAD("9e 80", U5, E_TRUNCATED, 0),
    BAD("9e ffffffffffffffffff01", U5, E_TRUNCATED, 0),
    BAD("a3 02 50", U5, E_TRUNCATED, 0),
    BAD("a4 2a", U5, E_TRUNCATED, 0),
    BAD("a4 2a 04 010203", U5, E_TRUNCATED, 0),
    BAD("a4 2a ff", U5, E_TRUNCATED, 0),
    BAD("a6 04", U5, E_TRUNCATED, 0),
    BAD("a6", U5, E_TRUNCATED, 0),
    BAD("9a 112233", U5, E_TRUNCATED, 0),
    BAD("9a 44332211", UV2A8, E_TRUNCATED, 0),
    BAD("9a 4433221100000000", UV2A4, E_UNKNOWN_OP, 5), /* 4-byte ref, then 0x00 */
    BAD("9a 44332211", UDW64, E_TRUNCATED, 0),
    BAD("a0 44332211", U5, E_TRUNCATED, 0),
    BAD("f1", U5, E_TRUNCATED, 0),
    BAD("f1 02 01", U5, E_TRUNCATED, 0),
    BAD("f1 00 44332211", U5, E_TRUNCATED, 0),
    BAD("f1 09", U5, E_TRUNCATED, 0),
    BAD("96 0a 01", U5, E_TRUNCATED, 1),
    /* LEB overflow and operand range */
    BAD("10 ffffffffffffffffff02", U5, E_LEB_OVERFLOW, 0),
    BAD("11 80808080808080808001", U5, E_LEB_OVERFLOW, 0),
    BAD("92 ffffffffffffffffff7f 00", U5, E_LEB_OVERFLOW, 0),
    BAD("90 8080808010", U5, E_BAD_OPERAND, 0),
    BAD("92 8080808010 00", U5, E_BAD_OPERAND, 0),
    BAD("a5 8080808010 2a", U5, E_BAD_OPERAND, 0),
    BAD("f5 8080808010 2a", U5, E_BAD_OPERAND, 0),
    BAD("e6 8080808010", UPROV, E_BAD_OPERAND, 0),
    BAD("e8 8080808010 00", UPROV, E_BAD_OPERAND, 0),
    BAD("f1 05 00", U5, E_BAD_OPERAND, 0),
    BAD("f1 0f", U5, E_BAD_OPERAND, 0),
    BAD("f1 ff", U5, E_BAD_OPERAND, 0),
    BAD("f1 08 00", U5, E_BAD_OPERAND, 0),
#undef OK1
#undef BAD
};

/* The single-operation decode table above. */
static void test_decode_cases(void)
{
    for (size_t k = 0; k < sizeof dcases / sizeof dcases[0]; k++) {
        const struct dcase *c = &dcases[k];
        uint8_t b[64];
        size_t n = unhex(c->hex, b);
        dwexpr_unit u = unit_of(c->unit);
        dwexpr_error err;
        memset(&err, 0, sizeof err);
        dwexpr_program *p = NULL;
        dwexpr_status st = decode_exact(b, n, &u, &p, &err);
        if (c->st == DWEXPR_OK) {
            dwexpr_op view;
            const dwexpr_op *op = st == DWEXPR_OK ? dwexpr_program_op(p, 0, &view) : NULL;
            bool ok = op && dwexpr_program_count(p) == 1 && (int)op->id == c->id &&
                      op->operand[0] == c->o0 && op->operand[1] == c->o1 && op->size == c->size &&
                      op->offset == 0;
            OK(ok, "decode %s (%s) = %s", c->hex, unit_names[c->unit],
                   dwexpr_op_info((dwexpr_opid)c->id)->name);
            if (!ok) {
                if (op)
                    printf("#   got %s 0x%llx 0x%llx size %u\n", dwexpr_op_info(op->id)->name,
                           (unsigned long long)op->operand[0],
                           (unsigned long long)op->operand[1], op->size);
                else
                    printf("#   got %s: %s\n", dwexpr_status_name(st), err.message);
            }
        } else {
            bool ok = st == c->st && err.status == c->st && err.offset == c->off;
            OK(ok, "decode %s (%s) fails %s at %d", c->hex, unit_names[c->unit],
                   dwexpr_status_name(c->st), c->off);
            if (!ok)
                printf("#   got %s at %lld: %s\n", dwexpr_status_name(st),
                       (long long)err.offset, err.message);
        }
        dwexpr_program_free(p);
    }
}

/* Details of messages, opcodes and op names in errors. */
static void test_decode_errors(void)
{
    uint8_t b[64];
    dwexpr_unit u = unit_of(U5), up = unit_of(UPROV);
    dwexpr_error err;
    dwexpr_program *p;
    size_t n;

    n = unhex("96 04", b);
    dwexpr_program_decode(b, n, &u, &p, &err);
    CHECK_STR(err.message, "unknown opcode 0x04", "unknown opcode message");
    OK(err.opcode == 4 && err.op_name == NULL, "unknown opcode byte, no name");
    CHECK_U64(dwexpr_status_class(err.status), DWEXPR_CLASS_DECODE, "unknown opcode is decode class");
    n = unhex("fe", b);
    dwexpr_program_decode(b, n, &u, &p, &err);
    CHECK_STR(err.message, "unknown vendor operation 0xfe", "vendor message");
    CHECK_U64(err.opcode, 0xfe, "vendor opcode byte");
    n = unhex("e3", b);
    dwexpr_program_decode(b, n, &u, &p, &err);
    OK(strncmp(err.message, "unknown vendor operation 0xe3", 29) == 0 &&
           strstr(err.message, "provisional") != NULL, "provisional byte in llvm-user: hint");
    n = unhex("e9 00", b);
    dwexpr_program_decode(b, n, &u, &p, &err);
    OK(strstr(err.message, "reserved") != NULL && err.opcode == 0xe900,
           "sub-op 0 reserved message, opcode 0xe900");
    n = unhex("e9 0d", b);
    dwexpr_program_decode(b, n, &u, &p, &err);
    OK(strstr(err.message, "0xd") != NULL && err.opcode == 0xe90d, "unknown sub-op message");
    n = unhex("0a 01", b);
    dwexpr_program_decode(b, n, &u, &p, &err);
    OK(strcmp(err.op_name, "DW_OP_const2u") == 0 && err.opcode == 0x0a &&
           strstr(err.message, "past the end") != NULL, "truncated: op name, opcode, message");
    n = unhex("e9 05", b);
    dwexpr_program_decode(b, n, &u, &p, &err);
    OK(strcmp(err.op_name, "DW_OP_LLVM_offset_uconst") == 0 && err.opcode == 0xe905,
           "truncated LLVM_user op: name and 0xe905");
    n = unhex("e4", b);
    dwexpr_program_decode(b, n, &up, &p, &err);
    OK(strcmp(err.op_name, "DW_OP_LLVM_offset_uconst") == 0 && err.opcode == 0xe4,
           "truncated provisional op: opcode is its byte");
    n = unhex("90 8080808010", b);
    dwexpr_program_decode(b, n, &u, &p, &err);
    OK(strstr(err.message, "32 bits") != NULL, "register range message");
    n = unhex("f1 05 00", b);
    dwexpr_program_decode(b, n, &u, &p, &err);
    OK(strstr(err.message, "0x05") != NULL, "encoded_addr encoding message");

    /* a LEB128 operand longer than 255 bytes cannot print as @N */
    uint8_t big[300];
    big[0] = 0x10;
    memset(big + 1, 0x80, 254);
    big[255] = 0;
    OK(dwexpr_program_decode(big, 256, &u, &p, &err) == DWEXPR_OK &&
           OPV(p, 0)->leb_len[0] == 255, "255-byte LEB operand decodes");
    dwexpr_program_free(p);
    memset(big + 1, 0x80, 255);
    big[256] = 0;
    CHECK_U64(dwexpr_program_decode(big, 257, &u, &p, &err), DWEXPR_E_BAD_OPERAND,
              "256-byte LEB operand refused");

    /* units */
    dwexpr_unit bad = u;
    bad.addr_size = 3;
    n = unhex("96", b);
    CHECK_U64(dwexpr_program_decode(b, n, &bad, &p, &err), DWEXPR_E_USAGE, "addr_size 3 refused");
    bad = u;
    bad.offset_size = 2;
    CHECK_U64(dwexpr_program_decode(b, n, &bad, &p, &err), DWEXPR_E_USAGE, "offset_size 2 refused");
    bad = u;
    bad.version = 6;
    CHECK_U64(dwexpr_program_decode(b, n, &bad, &p, &err), DWEXPR_E_USAGE, "version 6 refused");
    bad = u;
    bad.ext_encoding = 2;
    CHECK_U64(dwexpr_program_decode(b, n, &bad, &p, &err), DWEXPR_E_USAGE, "encoding 2 refused");
    CHECK_U64(dwexpr_program_decode(b, n, &u, NULL, &err), DWEXPR_E_USAGE, "NULL out refused");
    CHECK_U64(dwexpr_program_decode(NULL, 3, &u, &p, &err), DWEXPR_E_USAGE, "NULL bytes refused");

    dwexpr_unit z;
    memset(&z, 0, sizeof z);
    dwexpr_unit nz = dwx_unit_normalize(&z);
    OK(nz.addr_size == 8 && nz.offset_size == 4 && nz.version == 5 && nz.ext_encoding == 0,
           "unit defaults");
    nz = dwx_unit_normalize(NULL);
    OK(nz.addr_size == 8 && nz.version == 5, "NULL unit defaults");
    z.addr_size = 4;
    z.version = 4;
    nz = dwx_unit_normalize(&z);
    OK(nz.addr_size == 4 && nz.version == 4 && nz.offset_size == 4, "set fields kept");
    n = unhex("03 44332211 9a 44332211", b);
    OK(dwexpr_program_decode(b, 5, NULL, &p, &err) == DWEXPR_E_TRUNCATED,
           "NULL unit: 8-byte addresses");
    z.version = 2;
    OK(dwexpr_program_decode(b, n, &z, &p, &err) == DWEXPR_OK && OPV(p, 1)->size == 5,
           "zeroed unit with addr 4 v2");
    CHECK_U64(dwexpr_program_unit(p)->offset_size, 4, "program keeps the normalized unit");
    dwexpr_program_free(p);

    /* empty program */
    OK(dwexpr_program_decode(b, 0, &u, &p, &err) == DWEXPR_OK && dwexpr_program_count(p) == 0 &&
           p->code[0].x == DWEXPR_OP_COUNT && p->code[0].offset == 0, "empty expression decodes");
    dwexpr_op view;
    OK(dwexpr_program_op(p, 0, &view) == NULL, "no op 0 in empty program");
    dwexpr_program_free(p);
    OK(dwexpr_program_decode(NULL, 0, &u, &p, &err) == DWEXPR_OK, "NULL bytes with len 0");
    dwexpr_program_free(p);
    dwexpr_program_free(NULL);
    OK(dwexpr_program_count(NULL) == 0 && dwexpr_program_op(NULL, 0, &view) == NULL &&
           dwexpr_program_unit(NULL) == NULL, "NULL program accessors");

    /* errors with err == NULL still return the status */
    n = unhex("a3 02 50 04", b);
    CHECK_U64(dwexpr_program_decode(b, n, &u, &p, NULL), DWEXPR_E_UNKNOWN_OP, "NULL err");
}

/* Every byte value, in both encodings. */
static void test_all_bytes(void)
{
    /* expectations from the design notes, not from DWEXPR_OPS */
    for (int enc = 0; enc < 2; enc++) {
        dwexpr_unit u = unit_of(enc ? UPROV : U5);
        int wrong = 0;
        for (int byte = 0; byte < 256; byte++) {
            uint8_t b[32];
            memset(b, 0x01, sizeof b);
            b[0] = (uint8_t)byte;
            dwexpr_op op;
            dwexpr_error err;
            dwexpr_status st = dwx_decode_one(b, sizeof b, 0, &u, &op, &err);
            dwexpr_status want;
            if (byte <= 0x02 || byte == 0x04 || byte == 0x05 || byte == 0x07 ||
                (byte >= 0xaa && byte <= 0xdf))
                want = DWEXPR_E_UNKNOWN_OP;
            else if (byte < 0xe0 || byte == 0xe0 || (byte >= 0xf0 && byte <= 0xfd && byte != 0xf8))
                want = DWEXPR_OK;
            else if (byte == 0xe9)
                want = DWEXPR_OK;     /* LLVM_user 0x01 = LLVM_nop / aspace_implicit_pointer */
            else if (enc && byte >= 0xe1 && byte <= 0xec)
                want = DWEXPR_OK;
            else
                want = DWEXPR_E_VENDOR_OP;
            if (st != want || (st != DWEXPR_OK && err.offset != 0)) {
                wrong++;
                printf("#   byte 0x%02x: %s, want %s\n", byte, dwexpr_status_name(st),
                       dwexpr_status_name(want));
            }
        }
        OK(wrong == 0, "all 256 opcode bytes classified (%s)", enc ? "provisional" : "llvm-user");
    }
    /* every op of the table decodes to itself from its encoding */
    int wrong = 0;
    for (int id = 0; id < DWEXPR_OP_COUNT; id++) {
        const dwexpr_opinfo *i = dwexpr_op_info((dwexpr_opid)id);
        for (int enc = 0; enc < 2; enc++) {
            uint8_t b[32];
            memset(b, 0x01, sizeof b);
            size_t at = 0;
            if (enc == 0 && i->subop) {
                b[at++] = 0xe9;
                b[at++] = i->subop;
            } else if (enc == 0 && i->code == 0xe9) {
                continue;
            } else if (enc == 1 && i->code == 0) {
                continue;
            } else {
                b[at++] = i->code;
            }
            dwexpr_unit u = unit_of(enc ? UPROV : U5);
            dwexpr_op op;
            if (dwx_decode_one(b, sizeof b, 0, &u, &op, NULL) != DWEXPR_OK || (int)op.id != id) {
                wrong++;
                printf("#   %s (%s) did not decode to itself\n", i->name, enc ? "prov" : "user");
            }
        }
    }
    OK(wrong == 0, "every table op decodes from its own encoding");
    dwexpr_unit u = unit_of(U5);
    dwexpr_op op;
    uint8_t b[4] = {0x96, 0x96};
    CHECK_U64(dwx_decode_one(b, 2, 2, &u, &op, NULL), DWEXPR_E_USAGE, "decode_one past the end");
    OK(dwx_decode_one(b, 2, 1, &u, &op, NULL) == DWEXPR_OK && op.offset == 1,
           "decode_one at an offset");
}

/* The folded executable form. */
static void test_insns(void)
{
    uint8_t b[128];
    dwexpr_unit u = unit_of(U5);
    dwexpr_program *p;
    dwexpr_error err;
    size_t n = unhex("35 09ff 0b0080 10e58e26 117f 56 90 21 76 78 92 06 78 e0 f7 2a f1 0a feff"
                     " e9 01 fb 03 fc 04 a3 01 55 f3 01 54 f4 2a 02 0100 f2 44332211 02 2f 00 00",
                     b);
    OK(dwexpr_program_decode(b, n, &u, &p, &err) == DWEXPR_OK, "mixed expression decodes");
    const dwx_insn *c = p->code;
    CHECK_U64(p->count, 20, "20 operations");
    OK(c[0].x == DWEXPR_OP_lit0 && c[0].a == 5 && c[0].id == DWEXPR_OP_lit5, "lit5 folds to lit0 a=5");
    OK(c[1].x == DWEXPR_OP_lit0 && c[1].a == UINT64_MAX, "const1s -1 sign-extended");
    OK(c[2].x == DWEXPR_OP_lit0 && c[2].a == (uint64_t)-32768, "const2s");
    OK(c[3].x == DWEXPR_OP_lit0 && c[3].a == 624485 && c[3].id == DWEXPR_OP_constu, "constu");
    OK(c[4].x == DWEXPR_OP_lit0 && c[4].a == UINT64_MAX, "consts -1");
    OK(c[5].x == DWEXPR_OP_reg0 && c[5].a == 6, "reg6 folds to reg0 a=6");
    OK(c[6].x == DWEXPR_OP_reg0 && c[6].a == 33 && c[6].id == DWEXPR_OP_regx, "regx folds");
    OK(c[7].x == DWEXPR_OP_breg0 && c[7].a == 6 && c[7].b == (uint64_t)-8, "breg6 -8 folds");
    OK(c[8].x == DWEXPR_OP_breg0 && c[8].a == 6 && c[8].b == (uint64_t)-8, "bregx folds");
    CHECK_U64(c[9].x, DWEXPR_OP_form_tls_address, "GNU_push_tls_address -> form_tls_address");
    OK(c[10].x == DWEXPR_OP_convert && c[10].a == 0x2a, "GNU_convert -> convert");
    OK(c[11].x == DWEXPR_OP_addr && c[11].a == (uint64_t)-2, "GNU_encoded_addr -> addr");
    CHECK_U64(c[12].x, DWEXPR_OP_nop, "LLVM_nop -> nop");
    OK(c[13].x == DWEXPR_OP_addrx && c[13].a == 3, "GNU_addr_index -> addrx");
    OK(c[14].x == DWEXPR_OP_constx && c[14].a == 4, "GNU_const_index -> constx");
    OK(c[15].x == DWEXPR_OP_entry_value && c[15].a == 1 && c[15].blen == 1 &&
           c[15].blk == b + 35 && c[15].sub && c[15].sub->count == 1 &&
           c[15].sub->code[0].x == DWEXPR_OP_reg0 && c[15].sub->code[0].a == 5 &&
           c[15].sub->code[1].x == DWEXPR_OP_COUNT, "entry_value block decoded into sub");
    OK(c[16].x == DWEXPR_OP_entry_value && c[16].sub && c[16].sub->code[0].a == 4,
           "GNU_entry_value -> entry_value");
    OK(c[17].x == DWEXPR_OP_const_type && c[17].a == 0x2a && c[17].b == 2 && c[17].blen == 2 &&
           c[17].blk[0] == 1, "GNU_const_type -> const_type a=die b=size blk");
    OK(c[18].x == DWEXPR_OP_implicit_pointer && c[18].a == 0x11223344 && c[18].b == 2,
           "GNU_implicit_pointer -> implicit_pointer");
    OK(c[19].x == DWEXPR_OP_skip && c[19].a == 20, "skip 0 targets the next insn index");
    OK(c[20].x == DWEXPR_OP_COUNT && c[20].offset == n, "end marker");
    bool mono = true;
    uint32_t sum = 0;
    for (size_t i = 0; i < p->count; i++) {
        mono = mono && OPV(p, i)->offset == sum && c[i].offset == sum;
        sum += OPV(p, i)->size;
    }
    OK(mono && sum == n, "op offsets and sizes tile the expression");
    dwexpr_program_free(p);

    /* small-address encoded_addr truncates to the address size */
    n = unhex("f1 09 7f", b);
    dwexpr_unit u4 = unit_of(UA4);
    OK(dwexpr_program_decode(b, n, &u4, &p, &err) == DWEXPR_OK && p->code[0].a == 0xffffffff &&
           OPV(p, 0)->operand[1] == UINT64_MAX, "encoded_addr masked to a 4-byte address");
    dwexpr_program_free(p);
    n = unhex("70 7f 9e 02 0102 a5 11 2a a6 04 2a 9d 20 08", b);
    OK(dwexpr_program_decode(b, n, &u, &p, &err) == DWEXPR_OK && p->code[0].a == 0 &&
           p->code[0].b == UINT64_MAX && p->code[1].a == 2 && p->code[1].blen == 2 &&
           p->code[2].a == 17 && p->code[2].b == 0x2a && p->code[3].a == 4 && p->code[3].b == 0x2a &&
           p->code[4].a == 32 && p->code[4].b == 8, "operand order in a, b");
    OK(OPV(p, 0)->leb_len[0] == 1 && OPV(p, 1)->leb_len[0] == 1 && OPV(p, 2)->leb_len[0] == 1 &&
           OPV(p, 2)->leb_len[1] == 1 && OPV(p, 3)->leb_len[0] == 0 && OPV(p, 3)->leb_len[1] == 1,
           "leb_len only for LEB operands");
    OK(OPV(p, 1)->block == b + 4 && OPV(p, 1)->block_len == 2, "public block view");
    dwexpr_program_free(p);
    n = unhex("a8 a7808000 92 8600 ff7f", b);
    OK(dwexpr_program_decode(b, n, &u, &p, &err) == DWEXPR_OK && OPV(p, 0)->leb_len[0] == 4 &&
           OPV(p, 1)->leb_len[0] == 2 && OPV(p, 1)->leb_len[1] == 2 && OPV(p, 1)->operand[0] == 6,
           "padded LEB lengths recorded");
    dwexpr_program_free(p);
}

/* seed "Control Flow Operations": branch targets resolved to operations
 * at decode time; a target that is none (before the start, past the end,
 * inside an operation) decodes (DWX_BAD_TARGET, the reason kept) and is
 * ill-formed only when the branch is taken. */
static void test_branches(void)
{
    enum { BAD = -1 };
    static const struct {
        const char *hex;
        int unit;
        int off;  /* the branch checked */
        int idx;  /* its target operation, or BAD */
        int why;  /* BAD: DWX_BRANCH_* */
        const char *says; /* BAD: the error message, when taken, has this */
    } bc[] = {
        {"2f 0000", U5, 0, 1, 0, NULL},
        {"2f 0100 96", U5, 0, 2, 0, NULL},
        {"2f 0000 96", U5, 0, 1, 0, NULL},
        {"96 2f fcff", U5, 1, 0, 0, NULL},
        {"2f fdff", U5, 0, 0, 0, NULL},
        {"28 0300 0a0100 96", U5, 0, 2, 0, NULL},
        {"2f 0003 96 96 96", UBE, 0, 4, 0, NULL},
        {"2f 0100 0a 0000", U5, 0, BAD, DWX_BRANCH_INSIDE, "0x4 is inside an operation"},
        {"2f 0200 0a 0000", U5, 0, BAD, DWX_BRANCH_INSIDE, "0x5 is inside an operation"},
        {"96 2f fbff", U5, 1, BAD, DWX_BRANCH_BEFORE, "-1 is before the start"},
        {"2f 0500", U5, 0, BAD, DWX_BRANCH_PAST, "0x8 is past the end of the expression (length 0x3)"},
        {"2f 0100", U5, 0, BAD, DWX_BRANCH_PAST, "0x4 is past the end"},
        {"31 28 00 80", U5, 1, BAD, DWX_BRANCH_BEFORE, "-32764 is before the start"},
        {"31 28 ff 7f", U5, 1, BAD, DWX_BRANCH_PAST, "0x8003 is past the end"},
        {"31 2f 0000 28 feff", U5, 4, BAD, DWX_BRANCH_INSIDE, "0x5 is inside an operation"},
        {"2f 0100", UBE, 0, BAD, DWX_BRANCH_PAST, "0x103 is past the end"}, /* 0x0100 */
    };
    static const dwexpr_target none = {.size = sizeof(dwexpr_target)};
    dwexpr_ctx *ctx = NULL;
    dwexpr_ctx_new(NULL, &ctx);
    for (size_t k = 0; k < sizeof bc / sizeof bc[0]; k++) {
        uint8_t b[32];
        size_t n = unhex(bc[k].hex, b);
        dwexpr_unit u = unit_of(bc[k].unit);
        dwexpr_error err;
        dwexpr_program *p = NULL;
        dwexpr_status st = decode_exact(b, n, &u, &p, &err);
        const dwx_insn *in = NULL;
        for (size_t i = 0; st == DWEXPR_OK && i < p->count; i++)
            if (p->code[i].offset == (uint32_t)bc[k].off)
                in = &p->code[i];
        bool ok = st == DWEXPR_OK && in != NULL;
        if (ok && bc[k].idx == BAD)
            ok = in->a == DWX_BAD_TARGET && in->b == (uint64_t)bc[k].why && p->bad_branch;
        else if (ok)
            ok = in->a == (uint64_t)bc[k].idx && !p->bad_branch;
        OK(ok, "branch %s (%s) decodes, target %s", bc[k].hex, unit_names[bc[k].unit],
           bc[k].idx == BAD ? "bad" : "resolved");
        if (!ok)
            printf("#   got %s: %s\n", dwexpr_status_name(st), st ? err.message : "");
        if (bc[k].idx == BAD) {
            /* taken (DW_OP_skip, or DW_OP_bra on DW_OP_lit1): ill-formed
             * there, pre-decoded and from the bytes alike */
            dwexpr_result r;
            for (int from_bytes = 0; from_bytes < 2; from_bytes++) {
                st = from_bytes ? dwexpr_eval_bytes(ctx, b, n, &u, &none, NULL, NULL, &r)
                                : p ? dwexpr_eval(ctx, p, &none, NULL, NULL, &r)
                                    : DWEXPR_E_USAGE;
                const dwexpr_error *e = dwexpr_ctx_error(ctx);
                OK(st == DWEXPR_E_BAD_BRANCH &&
                       dwexpr_status_class(st) == DWEXPR_CLASS_ILL_FORMED &&
                       e->offset == bc[k].off && e->opcode == b[bc[k].off] &&
                       strstr(e->message, bc[k].says) != NULL,
                   "  taken, %s: ill-formed at %d (%s)", from_bytes ? "from the bytes" : "decoded",
                   bc[k].off, e->message);
            }
        }
        dwexpr_program_free(p);
    }
    /* not taken, or not reached: no error (GDB, LLDB, gimli and drgn
     * agree) */
    static const struct {
        const char *hex;
        uint64_t value;
    } nt[] = {
        {"35 30 28 63 00", 5},                /* lit5 lit0 bra +99 */
        {"35 30 28 00 80", 5},                /* lit5 lit0 bra -32768 */
        {"35 30 28 01 00 08 05", 5},          /* lit5 lit0 bra into const1u's operand */
        {"35 31 28 03 00 2f 0500 36 27", 3},  /* lit5 lit1 bra over a skip past the end; lit6 xor */
    };
    for (size_t k = 0; k < sizeof nt / sizeof nt[0]; k++) {
        uint8_t b[32];
        size_t n = unhex(nt[k].hex, b);
        dwexpr_unit u = unit_of(U5);
        dwexpr_program *p = NULL;
        dwexpr_error err;
        dwexpr_result r;
        dwexpr_status st = dwexpr_program_decode(b, n, &u, &p, &err);
        bool decoded = st == DWEXPR_OK && p->bad_branch;
        dwexpr_status s1 = p ? dwexpr_eval(ctx, p, &none, NULL, NULL, &r) : DWEXPR_E_USAGE;
        bool v1 = s1 == DWEXPR_OK && r.kind == DWEXPR_RESULT_VALUE && r.value.bits == nt[k].value;
        dwexpr_status s2 = dwexpr_eval_bytes(ctx, b, n, &u, &none, NULL, NULL, &r);
        bool v2 = s2 == DWEXPR_OK && r.kind == DWEXPR_RESULT_VALUE && r.value.bits == nt[k].value;
        OK(decoded && v1 && v2, "bad branch not taken or not reached: %s gives %llu (decoded %s, from the bytes %s)",
           nt[k].hex, (unsigned long long)nt[k].value, dwexpr_status_name(s1),
           dwexpr_status_name(s2));
        dwexpr_program_free(p);
    }
    dwexpr_ctx_free(ctx);
}

/* DW_OP_entry_value blocks: nested decode, errors, depth bound. */
static void *bump_alloc(void *ud, size_t size)
{
    size_t *left = ud;
    if (size > *left)
        return NULL;
    *left -= size;
    return malloc(size); /* leaked on purpose: tiny, test only */
}

/* Nested entry_value decoding, errors and the nesting bound. */
static void test_entry_value(void)
{
    uint8_t b[128];
    dwexpr_unit u = unit_of(U5);
    dwexpr_error err;
    dwexpr_program *p;
    size_t n = unhex("96 a3 03 96 50 04 9f", b);
    CHECK_U64(dwexpr_program_decode(b, n, &u, &p, &err), DWEXPR_E_UNKNOWN_OP,
              "error inside entry_value block keeps its status");
    CHECK_U64(err.offset, 1, "reported at the entry_value op");
    CHECK_STR(err.op_name, "DW_OP_entry_value", "op is entry_value");
    OK(strstr(err.message, "offset 0x2") && strstr(err.message, "unknown opcode 0x04"),
           "message names the inner offset and problem: %s", err.message);
    n = unhex("f3 02 2f 0100", b);
    CHECK_U64(dwexpr_program_decode(b, n, &u, &p, &err), DWEXPR_E_TRUNCATED,
              "truncated op inside GNU_entry_value");
    n = unhex("a3 04 2f 0200 96", b);
    OK(dwexpr_program_decode(b, n, &u, &p, &err) == DWEXPR_OK &&
           p->code[0].sub->code[0].a == DWX_BAD_TARGET &&
           p->code[0].sub->code[0].c == 5 && p->code[0].sub->bad_branch,
       "bad branch inside the block: its target relative to the block (5)");
    dwexpr_program_free(p);
    n = unhex("a3 04 2f 0000 96 96", b);
    OK(dwexpr_program_decode(b, n, &u, &p, &err) == DWEXPR_OK &&
           p->code[0].sub->code[0].a == 1,
           "branch inside the block resolves in the block");
    dwexpr_program_free(p);
    n = unhex("a3 00", b);
    OK(dwexpr_program_decode(b, n, &u, &p, &err) == DWEXPR_OK && p->code[0].sub &&
           p->code[0].sub->count == 0, "empty entry_value block");
    dwexpr_program_free(p);
    n = unhex("a3 02 e9 05", b);
    CHECK_U64(dwexpr_program_decode(b, n, &u, &p, &err), DWEXPR_E_TRUNCATED,
              "block decoded in the same unit (LLVM_user)");
    dwexpr_unit up = unit_of(UPROV);
    n = unhex("a3 02 e4 05", b);
    OK(dwexpr_program_decode(b, n, &up, &p, &err) == DWEXPR_OK &&
           p->code[0].sub->code[0].id == DWEXPR_OP_LLVM_offset_uconst, "block in provisional unit");
    dwexpr_program_free(p);

    /* nesting: 7 levels decode, 8 hit the bound */
    for (int depth = 6; depth <= 9; depth++) {
        uint8_t nb[64];
        size_t len = 1;
        nb[0] = 0x55;
        for (int d = 0; d < depth; d++) {
            memmove(nb + 2, nb, len);
            nb[0] = 0xa3;
            nb[1] = (uint8_t)len;
            len += 2;
        }
        dwexpr_status st = decode_exact(nb, len, &u, NULL, &err);
        dwexpr_status want = depth < 8 ? DWEXPR_OK : DWEXPR_E_CALL_DEPTH;
        OK(st == want && (st == DWEXPR_OK || (err.offset == 0 &&
                              dwexpr_status_class(st) == DWEXPR_CLASS_LIMIT)),
               "%d nested entry_values: %s", depth, dwexpr_status_name(want));
        char text[2048];
        OK(dwexpr_disasm(nb, len, &u, NULL, text, sizeof text, NULL, &err) == want,
               "disasm of %d nested entry_values: %s", depth, dwexpr_status_name(want));
        if (st == DWEXPR_OK) {
            char why[512] = ""; /* round_trip writes it only on a failure */
            OK(round_trip(nb, len, &u, NULL, why, sizeof why), "nested round trip: %s", why);
        }
    }

    /* dwx_decode with no allocator leaves blocks for the evaluator */
    dwx_insn insns[16];
    dwexpr_op ops[16];
    struct dwexpr_program prog;
    n = unhex("a3 02 50 04", b);
    OK(dwx_decode(b, n, &u, insns, ops, NULL, NULL, &prog, &err) == DWEXPR_OK &&
           insns[0].sub == NULL && insns[0].blen == 2, "no alloc: sub NULL, block not decoded");
    size_t budget = 10;
    n = unhex("a3 01 50", b);
    CHECK_U64(dwx_decode(b, n, &u, insns, ops, bump_alloc, &budget, &prog, &err), DWEXPR_E_NOSPACE,
              "allocator failure is E_NOSPACE");
    budget = 1 << 20;
    OK(dwx_decode(b, n, &u, insns, NULL, bump_alloc, &budget, &prog, &err) == DWEXPR_OK &&
           insns[0].sub && insns[0].sub->code[0].a == 0,
           "custom allocator, no ops array");
    OK(((uintptr_t)insns[0].sub->code % _Alignof(uint64_t)) == 0, "sub insns aligned");
    free(insns[0].sub);
}

/* Every prefix of a valid expression decodes or fails cleanly: cut at an
 * operation boundary it decodes (or a branch goes astray), cut inside an
 * operation it is E_TRUNCATED at that operation. */
static int prefixes_ok(const uint8_t *b, size_t n, const dwexpr_unit *u)
{
    dwexpr_program *p;
    dwexpr_error err;
    if (dwexpr_program_decode(b, n, u, &p, &err) != DWEXPR_OK)
        return 0;
    int bad = 0;
    for (size_t k = 0; k < n; k++) {
        size_t i = 0;
        while (i < p->count && OPV(p, i)->offset + OPV(p, i)->size <= k)
            i++;
        bool boundary = i == p->count || OPV(p, i)->offset == k;
        dwexpr_status st = decode_exact(b, k, u, NULL, &err);
        bool ok = boundary ? st == DWEXPR_OK /* a branch gone astray is kept */
                           : (st == DWEXPR_E_TRUNCATED && err.offset == OPV(p, i)->offset);
        if (!ok) {
            bad++;
            printf("#   prefix %zu of %s: %s at %lld\n", k, tohex(b, n), dwexpr_status_name(st),
                   (long long)err.offset);
        }
    }
    dwexpr_program_free(p);
    return bad;
}

/* ~40 representative expressions of /work/shared/bench/corpus.txt (gcc
 * 12 / clang 16, x86-64, -O2 -g), address size 8, DWARF 5. */
static const char *const corpus[] = {
    "036040030000000000", "a301549f", "52", "a0301c000000", "7000", "707f9f", "309f",
    "a30151", "a301541f35259f", "a06e6d110000", "50930810f9ffffffffffffffff019f9308",
    "55930891807f9308", "309f93049304319f9308", "70007c001c08d81c32259f",
    "750c", "75100672001c9f", "5393047300102025a8b6808000a8b18080009f93045c9308",
    "9c", "1199f8ffff7b710010ffffffff0f1a1c9f", "91a87e93089308", "5693045093045d9308",
    "56f093085ff09308", "91a47f94042075001c7600227d001c91a87f9404229f", "a1a601", "09929f",
    "08204f7100122806001308202f1400301612404b241a2809003124162301162fefff131c4f271c9f",
    "7e289f", "099d9f", "7f389f", "a18e01", "09b09f", "10ebffffffffffffffff019f",
    "7e00387e00082024404f242c28010016139f", "7000a8b6808000a8b18080009f",
    "77d0009408a8b6808000a8b18080009f", "a5114fa82b9f", "a5112ba84fa956a8009f9304",
    "9e08000000000000f87f9308389f9308", "faa8530b009f", "0c40420f009f",
    "a3015838240a000f1aa301520cffffffff1a0300b20c000000000022940108ff1a2136250cffffffff1a"
    "31240380b10c00000000002294020affff1aa301583f251ca30154229f",
    "31700008ff1a249f", "4f4f7200122806001308202f1400301612404b241a2809003124162301162fefff"
    "131c4f271c9f", "7b0008ff1a32240360ef0c000000000022940108ff1a9f",
};

/* Hand-made expressions for other units (unit, hex). */
static const struct {
    int unit;
    const char *hex;
} extra[] = {
    {UBE, "03 00401000 0a 1234 0d 80000000 2f 0000 9a 12345678 f1 02 1234"},
    {UV2A4, "9a 44332211 a0 44332211 7f 03 00100000"},
    {UV2A8, "9a 0807060504030201 a0 0807060504030201 00"},
    {UDW64, "9a 0807060504030201 a0 0807060504030201 00 fd 0807060504030201"},
    {UPROV, "90 21 94 04 38 22 35 e1"},
    {UPROV, "e2 e3 e4 10 e5 e6 11 e7 e8 05 7f e9 44332211 08 ea eb 40 40 ec 20 40"},
    {U5, "e9 01 e9 02 e9 03 e9 04 e9 05 10 e9 06 e9 07 11 e9 08 e9 09 05 7f e9 0a e9 0b 40 40"
         " e9 0c 20 40"},
    {U5, "e9 8200 e9 858000 10 e9 89 00 8580 00 ff7f"},
    {U5, "30 36 e9 02 e9 0a"},
    {UPROVBE, "e9 11223344 08 e8 05 7f"},
    {U5, "10 8080808000 11 ffff7f 23 8001 92 8600 ff7f a8 a7808000 9e 8100 01"},
    {U5, "a4 2a 04 01000000 a4 2a 00 f4 2a 02 0100 a6 04 2a a7 04 2a f6 08 2a"},
    {U5, "f1 00 8877665544332211 f1 01 e58e26 f1 81 e58e8600 f1 09 7f f1 89 ff7f f1 0a feff"
         " f1 0b 78563412 f1 1b feffffff f1 0c ffffffffffffffff f1 03 78563412 f1 04 0102030405060708"},
    {UA4, "f1 00 44332211 f1 0a 0080 f1 09 8080807f"},
    {UA2, "03 2211 f1 00 ffff"},
    {UA1, "03 ff"},
    {U5, "28 0300 0a0100 96 2f f7ff"},
    {U5, "a3 04 2f 0000 96 96 f3 01 50 a3 03 a3 01 55"},
    {U5, "0e ffffffffffffffff 0f 0000000000000080 10 ffffffffffffffffff01 11 8080808080808080807f"},
    {U5, "9e 00 9e 04 01020304 a3 00"},
    {U5, "90 ffffffff0f 92 ffffffff0f 00 a5 ffffffff0f 00 e9 07 ffffffff0f"},
    {U5, "15 ff 94 08 95 01 98 ffff 99 ffffffff fa 00000000 e0 f0 9b 9c 97 96"},
};

/* Every prefix of every known-good expression. */
static void test_prefixes(void)
{
    dwexpr_unit u = unit_of(U5);
    int bad = 0;
    for (size_t k = 0; k < sizeof corpus / sizeof corpus[0]; k++) {
        uint8_t b[256];
        size_t n = unhex(corpus[k], b);
        bad += prefixes_ok(b, n, &u);
    }
    OK(bad == 0, "every prefix of the corpus sample fails cleanly or decodes");
    bad = 0;
    for (size_t k = 0; k < sizeof extra / sizeof extra[0]; k++) {
        uint8_t b[256];
        size_t n = unhex(extra[k].hex, b);
        dwexpr_unit eu = unit_of(extra[k].unit);
        bad += prefixes_ok(b, n, &eu);
    }
    OK(bad == 0, "every prefix of the hand-made expressions fails cleanly or decodes");
    bad = 0;
    for (size_t k = 0; k < sizeof dcases / sizeof dcases[0]; k++) {
        if (dcases[k].st != DWEXPR_OK)
            continue;
        uint8_t b[64];
        size_t n = unhex(dcases[k].hex, b);
        dwexpr_unit du = unit_of(dcases[k].unit);
        bad += prefixes_ok(b, n, &du);
    }
    OK(bad == 0, "every prefix of every single-op case fails cleanly or decodes");
}

/* ---- text ---- */

static const struct {
    const char *hex;
    int unit;
    bool x86;
    const char *text;
} fcases[] = {
    {"03 0010400000000000", U5, false, "DW_OP_addr 0x401000"},
    {"03 00104000", UA4, false, "DW_OP_addr 0x401000"},
    {"06", U5, false, "DW_OP_deref"},
    {"08 ff", U5, false, "DW_OP_const1u 255"},
    {"09 ff", U5, false, "DW_OP_const1s -1"},
    {"0b 0080", U5, false, "DW_OP_const2s -32768"},
    {"0c 78563412", U5, false, "DW_OP_const4u 305419896"},
    {"0e ffffffffffffffff", U5, false, "DW_OP_const8u 18446744073709551615"},
    {"0f 0000000000000080", U5, false, "DW_OP_const8s -9223372036854775808"},
    {"10 e58e26", U5, false, "DW_OP_constu 624485"},
    {"10 8080808000", U5, false, "DW_OP_constu 0@5"},
    {"11 7f", U5, false, "DW_OP_consts -1"},
    {"11 ff7f", U5, false, "DW_OP_consts -1@2"},
    {"11 c000", U5, false, "DW_OP_consts 64"},
    {"15 02", U5, false, "DW_OP_pick 2"},
    {"23 8001", U5, false, "DW_OP_plus_uconst 128"},
    {"2f fdff", U5, false, "DW_OP_skip -3"},
    {"28 0000", U5, false, "DW_OP_bra 0"},
    {"56", U5, true, "DW_OP_reg6 (rbp)"},
    {"56", U5, false, "DW_OP_reg6"},
    {"6f", U5, true, "DW_OP_reg31 (xmm14)"},
    {"76 78", U5, true, "DW_OP_breg6 (rbp) -8"},
    {"77 8000", U5, true, "DW_OP_breg7 (rsp) 0@2"},
    {"76 78", U5, false, "DW_OP_breg6 -8"},
    {"90 21", U5, true, "DW_OP_regx 33 (st0)"},
    {"90 43", U5, true, "DW_OP_regx 67 (xmm16)"},
    {"90 a001", U5, true, "DW_OP_regx 160"},
    {"90 8600", U5, true, "DW_OP_regx 6@2 (rbp)"},
    {"92 06 78", U5, true, "DW_OP_bregx 6 (rbp) -8"},
    {"92 06 78", U5, false, "DW_OP_bregx 6 -8"},
    {"a5 11 2a", U5, true, "DW_OP_regval_type 17 (xmm0) 0x2a"},
    {"f5 00 2a", U5, true, "DW_OP_GNU_regval_type 0 (rax) 0x2a"},
    {"91 78", U5, false, "DW_OP_fbreg -8"},
    {"93 08", U5, false, "DW_OP_piece 8"},
    {"9d 20 08", U5, false, "DW_OP_bit_piece 32 8"},
    {"98 3412", U5, false, "DW_OP_call2 0x1234"},
    {"99 78563412", U5, false, "DW_OP_call4 0x12345678"},
    {"9a 78563412", U5, false, "DW_OP_call_ref 0x12345678"},
    {"9e 04 01020304", U5, false, "DW_OP_implicit_value 4 0x01020304"},
    {"9e 00", U5, false, "DW_OP_implicit_value 0"},
    {"9e 8100 ff", U5, false, "DW_OP_implicit_value 1@2 0xff"},
    {"a0 44332211 78", U5, false, "DW_OP_implicit_pointer 0x11223344 -8"},
    {"a1 05", U5, false, "DW_OP_addrx 5"},
    {"a2 05", U5, false, "DW_OP_constx 5"},
    {"a3 02 5091", U5, false, "DW_OP_entry_value 2 0x5091"},
    {"a4 2a 04 01000000", U5, false, "DW_OP_const_type 0x2a 4 0x01000000"},
    {"a4 2a 00", U5, false, "DW_OP_const_type 0x2a 0"},
    {"a6 04 2a", U5, false, "DW_OP_deref_type 4 0x2a"},
    {"a7 04 2a", U5, false, "DW_OP_xderef_type 4 0x2a"},
    {"a8 a7808000", U5, false, "DW_OP_convert 0x27@4"},
    {"a8 27", U5, false, "DW_OP_convert 0x27"},
    {"a9 00", U5, false, "DW_OP_reinterpret 0x0"},
    {"e0", U5, false, "DW_OP_GNU_push_tls_address"},
    {"f1 1b 78563412", U5, false, "DW_OP_GNU_encoded_addr 0x1b 0x12345678"},
    {"f1 0a feff", U5, false, "DW_OP_GNU_encoded_addr 0xa 0xfffffffffffffffe"},
    {"f1 01 8100", U5, false, "DW_OP_GNU_encoded_addr 0x1 0x1@2"},
    {"f6 08 2a", U5, false, "DW_OP_GNU_deref_type 8 0x2a"},
    {"f7 2a", U5, false, "DW_OP_GNU_convert 0x2a"},
    {"f9 2a", U5, false, "DW_OP_GNU_reinterpret 0x2a"},
    {"fa 78563412", U5, false, "DW_OP_GNU_parameter_ref 0x12345678"},
    {"fd 44332211", U5, false, "DW_OP_GNU_variable_value 0x11223344"},
    {"e9 01", U5, false, "DW_OP_LLVM_nop"},
    {"e9 05 10", U5, false, "DW_OP_LLVM_offset_uconst 16"},
    {"e9 8200", U5, false, "DW_OP_LLVM_form_aspace_address@2"},
    {"e9 858000 8100", U5, false, "DW_OP_LLVM_offset_uconst@3 1@2"},
    {"e4 10", UPROV, false, "DW_OP_LLVM_offset_uconst 16"},
    {"e9 09 05 7f", U5, true, "DW_OP_LLVM_aspace_bregx 5 (rdi) -1"},
    {"e9 07 11", U5, true, "DW_OP_LLVM_call_frame_entry_reg 17 (xmm0)"},
    {"e9 0c 20 40", U5, false, "DW_OP_LLVM_select_bit_piece 32 64"},
    {"e9 44332211 08", UPROV, false, "DW_OP_LLVM_aspace_implicit_pointer 0x11223344 8"},
};

/* dwexpr_op_format of every operand kind. */
static void test_format(void)
{
    const dwexpr_arch *x86 = dwexpr_arch_find("x86_64");
    for (size_t k = 0; k < sizeof fcases / sizeof fcases[0]; k++) {
        uint8_t b[64];
        size_t n = unhex(fcases[k].hex, b);
        dwexpr_unit u = unit_of(fcases[k].unit);
        dwexpr_op op;
        char buf[256] = "";
        dwexpr_status st = dwx_decode_one(b, n, 0, &u, &op, NULL);
        size_t want = dwexpr_op_format(&op, fcases[k].x86 ? x86 : NULL, buf, sizeof buf);
        OK(st == DWEXPR_OK && want == strlen(buf) && strcmp(buf, fcases[k].text) == 0,
               "format %s -> %s", fcases[k].hex, fcases[k].text);
        if (strcmp(buf, fcases[k].text) != 0)
            printf("#   got \"%s\"\n", buf);
    }
    /* truncation and measuring */
    uint8_t b[8];
    size_t n = unhex("76 78", b);
    dwexpr_unit u = unit_of(U5);
    dwexpr_op op;
    dwx_decode_one(b, n, 0, &u, &op, NULL);
    char small[8];
    size_t want = dwexpr_op_format(&op, x86, small, sizeof small);
    OK(want == strlen("DW_OP_breg6 (rbp) -8") && strcmp(small, "DW_OP_b") == 0,
           "format truncates and reports the wanted length");
    OK(dwexpr_op_format(&op, NULL, NULL, 0) == strlen("DW_OP_breg6 -8"), "format measures");
}

/* dwexpr_disasm: lines, comments, errors and sizes. */
static void test_disasm(void)
{
    const dwexpr_arch *x86 = dwexpr_arch_find("x86_64");
    dwexpr_unit u = unit_of(U5);
    uint8_t b[64];
    size_t n = unhex("76 78 06 a3 01 55 9f", b);
    CHECK_STR(disasm_str(b, n, &u, x86),
              "0x0000: DW_OP_breg6 (rbp) -8\n0x0002: DW_OP_deref\n"
              "0x0003: DW_OP_entry_value 1 0x55 # DW_OP_reg5 (rdi)\n0x0006: DW_OP_stack_value\n",
              "disasm lines with offsets, names and entry_value comment");
    n = unhex("a3 04 75 00 94 04", b);
    CHECK_STR(disasm_str(b, n, &u, NULL),
              "0x0000: DW_OP_entry_value 4 0x75009404 # DW_OP_breg5 0; DW_OP_deref_size 4\n",
              "entry_value comment with several ops");
    n = unhex("a3 00", b);
    CHECK_STR(disasm_str(b, n, &u, NULL), "0x0000: DW_OP_entry_value 0\n", "empty block: no comment");
    CHECK_STR(disasm_str(b, 0, &u, NULL), "", "empty expression: no lines");

    char out[256];
    size_t need = 0;
    dwexpr_error err;
    n = unhex("96 96 04 96", b);
    dwexpr_status st = dwexpr_disasm(b, n, &u, NULL, out, sizeof out, &need, &err);
    OK(st == DWEXPR_E_UNKNOWN_OP && err.offset == 2 &&
           strcmp(out, "0x0000: DW_OP_nop\n0x0001: DW_OP_nop\n") == 0 && need == strlen(out),
           "decode error: lines before it, then the error");
    n = unhex("96 a3 02 50 04", b);
    st = dwexpr_disasm(b, n, &u, NULL, out, sizeof out, &need, &err);
    OK(st == DWEXPR_E_UNKNOWN_OP && err.offset == 1 && strcmp(out, "0x0000: DW_OP_nop\n") == 0 &&
           strstr(err.message, "offset 0x1"), "bad entry_value block fails like decode");
    n = unhex("2f 0100", b);
    OK(dwexpr_disasm(b, n, &u, NULL, out, sizeof out, &need, &err) == DWEXPR_OK,
           "disasm does not check branch targets");
    n = unhex("76 78 06", b);
    st = dwexpr_disasm(b, n, &u, x86, out, 10, &need, &err);
    OK(st == DWEXPR_E_NOSPACE && need == strlen("0x0000: DW_OP_breg6 (rbp) -8\n0x0002: DW_OP_deref\n") &&
           strlen(out) == 9, "E_NOSPACE with the needed size and a truncated prefix");
    st = dwexpr_disasm(b, n, &u, x86, NULL, 0, &need, &err);
    OK(st == DWEXPR_E_NOSPACE && need == strlen("0x0000: DW_OP_breg6 (rbp) -8\n0x0002: DW_OP_deref\n"),
           "measure with NULL buffer");
    st = dwexpr_disasm(b, n, &u, x86, out, need + 1, &need, &err);
    OK(st == DWEXPR_OK && strlen(out) == need, "exact size works");
    dwexpr_unit bad = u;
    bad.addr_size = 5;
    CHECK_U64(dwexpr_disasm(b, n, &bad, NULL, out, sizeof out, &need, &err), DWEXPR_E_USAGE,
              "bad unit refused");
    n = unhex("03 00104000", b);
    dwexpr_unit z;
    memset(&z, 0, sizeof z);
    CHECK_STR(disasm_str(b, n, &z, dwexpr_arch_find("generic32")), "0x0000: DW_OP_addr 0x401000\n",
              "zero address size taken from the arch");
    n = unhex("e1 e9 01", b);
    dwexpr_unit up = unit_of(UPROV);
    CHECK_STR(disasm_str(b, 1, &up, NULL), "0x0000: DW_OP_LLVM_form_aspace_address\n",
              "provisional encoding");
    CHECK_STR(disasm_str(b + 1, 2, &u, NULL), "0x0000: DW_OP_LLVM_nop\n", "llvm-user encoding");
}

static const struct {
    const char *text;
    int unit;
    bool x86;
    const char *hex;
} acases[] = {
    {"DW_OP_breg6 -8", U5, false, "7678"},
    {"breg6 -8", U5, false, "7678"},
    {"DW_OP_lit1 DW_OP_lit2, DW_OP_plus; stack_value", U5, false, "3132229f"},
    {"DW_OP_lit1\tDW_OP_lit2\r\nDW_OP_plus,,;;", U5, false, "313222"},
    {"DW_OP_regx rbp", U5, true, "9006"},
    {"DW_OP_regx XMM16", U5, true, "9043"},
    {"DW_OP_regx rbp@3", U5, true, "908680 00"},
    {"DW_OP_bregx rbp -8", U5, true, "920678"},
    {"DW_OP_bregx 6 (rbp) -8", U5, true, "920678"},
    {"DW_OP_regval_type xmm0 0x2a", U5, true, "a5112a"},
    {"DW_OP_LLVM_call_frame_entry_reg rip", U5, true, "e90710"},
    {"DW_OP_LLVM_aspace_bregx rsp 16", UPROV, true, "e80710"},
    {"DW_OP_constu 0x27@4", U5, false, "10a7808000"},
    {"DW_OP_convert 0x27@4", U5, false, "a8a7808000"},
    {"DW_OP_consts -1@3", U5, false, "11ffff7f"},
    {"DW_OP_consts -0x10", U5, false, "1170"},
    {"DW_OP_consts +5", U5, false, "1105"},
    {"DW_OP_constu 18446744073709551615", U5, false, "10ffffffffffffffffff01"},
    {"DW_OP_constu 0xffffffffffffffff", U5, false, "10ffffffffffffffffff01"},
    {"DW_OP_consts 0xffffffffffffffff", U5, false, "117f"},
    {"DW_OP_implicit_value 4 0x01020304", U5, false, "9e0401020304"},
    {"DW_OP_implicit_value 0", U5, false, "9e00"},
    {"DW_OP_implicit_value 0 0x DW_OP_stack_value", U5, false, "9e009f"},
    {"DW_OP_implicit_value 2@3 0xABcd", U5, false, "9e828000abcd"},
    {"DW_OP_const_type 0x2a 4 0x01000000", U5, false, "a42a0401000000"},
    {"DW_OP_const_type 0x2a 0 DW_OP_lit0", U5, false, "a42a0030"},
    {"DW_OP_entry_value 1 0x55", U5, false, "a30155"},
    {"DW_OP_entry_value(DW_OP_reg5)", U5, false, "a30155"},
    {"DW_OP_entry_value (DW_OP_breg5 0; DW_OP_deref_size 4) DW_OP_stack_value", U5, false,
     "a3047500940 49f"},
    {"DW_OP_GNU_entry_value(DW_OP_entry_value(DW_OP_reg1))", U5, false, "f303a30151"},
    {"DW_OP_entry_value 1 0x55 # DW_OP_reg5 (rdi)", U5, true, "a30155"},
    {"0x0000: DW_OP_breg6 (rbp) -8\n0x0002: DW_OP_deref # comment\n", U5, true, "767806"},
    {"DW_OP_addr 0x401000", U5, false, "030010400000000000"},
    {"DW_OP_addr 0x401000", UA4, false, "0300104000"},
    {"DW_OP_addr 0x401000", UBE, false, "0300401000"},
    {"DW_OP_addr 0xff", UA1, false, "03ff"},
    {"DW_OP_call_ref 0x11223344", U5, false, "9a44332211"},
    {"DW_OP_call_ref 0x11223344", UDW64, false, "9a4433221100000000"},
    {"DW_OP_call_ref 0x11223344", UV2A4, false, "9a44332211"},
    {"DW_OP_call_ref 0x11223344", UV2A8, false, "9a4433221100000000"},
    {"DW_OP_implicit_pointer 0x10 -8", UBE, false, "a00000001078"},
    {"DW_OP_const2u 0x1234", UBE, false, "0a1234"},
    {"DW_OP_skip -3", U5, false, "2ffdff"},
    {"DW_OP_skip -3", UBE, false, "2ffffd"},
    {"DW_OP_bra 0xffff", U5, false, "28ffff"},
    {"DW_OP_const1s -128", U5, false, "0980"},
    {"DW_OP_const1s 0xff", U5, false, "09ff"}, /* hex is a raw bit pattern */
    {"DW_OP_const1u 0xff", U5, false, "08ff"},
    {"DW_OP_const8s -9223372036854775808", U5, false, "0f0000000000000080"},
    {"DW_OP_LLVM_offset_uconst 16", U5, false, "e90510"},
    {"DW_OP_LLVM_offset_uconst 16", UPROV, false, "e410"},
    {"DW_OP_LLVM_form_aspace_address@2", U5, false, "e98200"},
    {"LLVM_nop", U5, false, "e901"},
    {"DW_OP_LLVM_aspace_implicit_pointer 0x10 0", UPROV, false, "e91000000000"},
    {"DW_OP_LLVM_aspace_implicit_pointer 0x10 0", UPROVBE, false, "e90000001000"},
    {"DW_OP_GNU_encoded_addr 0x1b 0x12345678", U5, false, "f11b78563412"},
    {"DW_OP_GNU_encoded_addr 0xa -2", U5, false, "f10afeff"},
    {"DW_OP_GNU_encoded_addr 0xa 0xfffffffffffffffe", U5, false, "f10afeff"},
    {"DW_OP_GNU_encoded_addr 0x9 -1@2", U5, false, "f109ff7f"},
    {"DW_OP_GNU_encoded_addr 0x0 0x1000", UA4, false, "f10000100000"},
    {"DW_OP_GNU_encoded_addr 0x2 0x1234", UBE, false, "f1021234"},
    {"DW_OP_piece 8, DW_OP_bit_piece 32 8", U5, false, "93089d2008"},
    {"DW_OP_deref_type 4 0x2a DW_OP_GNU_parameter_ref 0x10", U5, false, "a6042afa10000000"},
    {"# only a comment", U5, false, ""},
    {"", U5, false, ""},
    {"  \n\t ", U5, false, ""},
    /* a parenthesized name is skipped (dwexpr_disasm's register names);
     * parenthesized operations are read (llvm-dwarfdump's location
     * "(DW_OP_lit0, DW_OP_stack_value)") */
    {"DW_OP_lit0(rbp)DW_OP_lit1", U5, false, "3031"},
    {"DW_OP_lit0 ( rbp ) DW_OP_lit1", U5, false, "3031"},
    {"(DW_OP_lit0, DW_OP_stack_value)", U5, false, "309f"},
    {"DW_OP_lit1 (DW_OP_lit2 (rbp)) DW_OP_lit3", U5, false, "313233"},
    /* llvm-dwarfdump's spellings: DW_OP_LLVM_user SUBOP, a register's
     * name after DW_OP_regN, REG+OFF, NAME_LO16 */
    {"DW_OP_LLVM_user DW_OP_LLVM_form_aspace_address", U5, false, "e902"},
    {"LLVM_user LLVM_offset_uconst 16", U5, false, "e90510"},
    {"DW_OP_reg6 RBP, DW_OP_piece 0x8", U5, true, "569308"},
    {"DW_OP_breg6 RBP+8", U5, true, "7608"},
    {"DW_OP_breg7 RSP-16", U5, true, "7770"},
    {"DW_OP_bregx RBP+4", U5, true, "920604"},
    {"DW_OP_bregx rbp -4", U5, true, "92067c"},
    {"DW_OP_breg6 -8", U5, true, "7678"},
};

/* dwexpr_asm of every operand kind, units and sizes. */
static void test_asm(void)
{
    const dwexpr_arch *x86 = dwexpr_arch_find("x86_64");
    for (size_t k = 0; k < sizeof acases / sizeof acases[0]; k++) {
        dwexpr_unit u = unit_of(acases[k].unit);
        dwexpr_error err;
        uint8_t want[128];
        size_t wn = unhex(acases[k].hex, want);
        const char *got = asm_str(acases[k].text, &u, acases[k].x86 ? x86 : NULL, &err);
        OK(strcmp(got, tohex(want, wn)) == 0, "asm \"%s\" (%s)", esc(acases[k].text),
               unit_names[acases[k].unit]);
        if (strcmp(got, tohex(want, wn)) != 0)
            printf("#   got %s (%s), want %s\n", got, err.message, tohex(want, wn));
    }
    /* sizes */
    uint8_t out[4];
    size_t len = 0;
    dwexpr_error err;
    dwexpr_unit u = unit_of(U5);
    OK(dwexpr_asm("DW_OP_lit1 DW_OP_lit2 DW_OP_plus", &u, NULL, out, 2, &len, &err) ==
           DWEXPR_E_NOSPACE && len == 3 && out[0] == 0x31 && out[1] == 0x32,
           "E_NOSPACE reports the size, fills what fits");
    OK(dwexpr_asm("DW_OP_entry_value(DW_OP_breg5 0) DW_OP_lit1", &u, NULL, out, 3, &len, &err) ==
           DWEXPR_E_NOSPACE && len == 5, "nested block past the capacity");
    OK(dwexpr_asm("DW_OP_lit1", &u, NULL, NULL, 0, &len, &err) == DWEXPR_E_NOSPACE && len == 1,
           "measure with NULL output");
    OK(dwexpr_asm("", &u, NULL, NULL, 0, &len, &err) == DWEXPR_OK && len == 0,
           "empty text fits in nothing");
    CHECK_U64(dwexpr_asm(NULL, &u, NULL, out, 4, &len, &err), DWEXPR_E_USAGE, "NULL text");
    dwexpr_unit bad = u;
    bad.offset_size = 3;
    CHECK_U64(dwexpr_asm("DW_OP_lit0", &bad, NULL, out, 4, &len, &err), DWEXPR_E_USAGE, "bad unit");
    /* nested entry_value text: 7 levels assemble, 8 are refused */
    for (int depth = 7; depth <= 8; depth++) {
        char text[512] = "";
        for (int d = 0; d < depth; d++)
            strcat(text, "DW_OP_entry_value(");
        strcat(text, "DW_OP_reg5");
        for (int d = 0; d < depth; d++)
            strcat(text, ")");
        uint8_t nb[64];
        size_t nl = 0;
        dwexpr_status st = dwexpr_asm(text, &u, NULL, nb, sizeof nb, &nl, &err);
        if (depth == 7)
            OK(st == DWEXPR_OK && nl == 15 && nb[0] == 0xa3 && nb[1] == 13 && nb[14] == 0x55,
               "7 nested entry_value(...) assemble");
        else
            OK(st == DWEXPR_E_SYNTAX && strstr(err.message, "nested") != NULL,
               "8 nested entry_value(...) refused");
    }
    OK(dwexpr_asm("DW_OP_addr 0x10", NULL, dwexpr_arch_find("generic32"), out, 4, &len, &err) ==
           DWEXPR_E_NOSPACE && len == 5, "NULL unit takes the arch address size");
}

static const struct {
    const char *text;
    int unit;
    bool x86;
    int off;
    const char *msg;  /* substring */
} aerr[] = {
    {"DW_OP_foo", U5, false, 0, "unknown operation 'DW_OP_foo'"},
    {"DW_OP_lit1 DW_OP_bar", U5, false, 11, "unknown operation 'DW_OP_bar'"},
    {"17", U5, false, 0, "expected an operation, got '17'"},
    {"DW_OP_lit0 -3", U5, false, 11, "expected an operation"},
    {"DW_OP_breg6", U5, false, 11, "DW_OP_breg6: missing operand"},
    {"DW_OP_bregx 6", U5, false, 13, "DW_OP_bregx: missing operand"},
    {"DW_OP_breg6 DW_OP_deref", U5, false, 12, "expected a number, got 'DW_OP_deref'"},
    {"DW_OP_breg6 12x", U5, false, 12, "expected a number, got '12x'"},
    {"DW_OP_breg6 0x", U5, false, 12, "expected a number"},
    {"DW_OP_breg6 -", U5, false, 12, "expected a number"},
    {"DW_OP_const1u 256", U5, false, 14, "'256' does not fit in 8 bits"},
    /* decimal values must fit the operand's signedness: no silent wrap */
    {"DW_OP_const1s 128", U5, false, 14, "'128' does not fit in 8 bits (a signed"},
    {"DW_OP_const1u -1", U5, false, 14, "'-1' does not fit in 8 bits (an unsigned"},
    {"DW_OP_constu -1", U5, false, 13, "'-1' does not fit in 64 bits"},
    {"DW_OP_const1u -129", U5, false, 14, "does not fit in 8 bits"},
    {"DW_OP_const2s 65536", U5, false, 14, "does not fit in 16 bits"},
    {"DW_OP_addr 0x100000000", UA4, false, 11, "does not fit in 32 bits"},
    {"DW_OP_skip 65536", U5, false, 11, "does not fit"},
    {"DW_OP_constu 18446744073709551616", U5, false, 13, "expected a number"},
    {"DW_OP_constu 0x10000000000000000", U5, false, 13, "expected a number"},
    {"DW_OP_consts -9223372036854775809", U5, false, 13, "does not fit in 64 bits"},
    {"DW_OP_implicit_value 3 0x0102", U5, false, 23, "length 3 does not match the 2 bytes"},
    {"DW_OP_implicit_value 2 0x012", U5, false, 23, "hex digit pairs"},
    {"DW_OP_implicit_value 2 0x01zz", U5, false, 23, "bad hex digit"},
    {"DW_OP_implicit_value 2 17", U5, false, 23, "expected block bytes"},
    {"DW_OP_implicit_value 2", U5, false, 22, "missing operand"},
    {"DW_OP_implicit_value -1 0x", U5, false, 21, "must not be negative"},
    {"DW_OP_const_type 0x2a 4 0x0100", U5, false, 24, "length 4 does not match the 2 bytes"},
    {"DW_OP_const_type 0x2a 256 0x01", U5, false, 22, "does not fit in 8 bits"},
    {"DW_OP_LLVM_nop", UPROV, false, 0, "no encoding in the provisional"},
    {"DW_OP_lit0 LLVM_nop", UPROV, false, 11, "DW_OP_LLVM_nop has no encoding"},
    {"DW_OP_LLVM_aspace_implicit_pointer 0 0", U5, false, 0, "no encoding in the llvm-user"},
    {"DW_OP_constu 0x80@1", U5, false, 13, "needs 2 LEB128 bytes"},
    {"DW_OP_constu 1@0", U5, false, 13, "bad padding"},
    {"DW_OP_constu 1@256", U5, false, 13, "bad padding"},
    {"DW_OP_constu 1@x", U5, false, 13, "bad padding"},
    {"DW_OP_const4u 1@4", U5, false, 14, "only applies to LEB128 operands"},
    {"DW_OP_lit0@2", U5, false, 0, "only applies to DW_OP_LLVM_user"},
    {"DW_OP_LLVM_offset@2", UPROV, false, 0, "only applies to DW_OP_LLVM_user"},
    {"DW_OP_foo@2", U5, false, 0, "unknown operation"},
    {"DW_OP_regx foo", U5, true, 11, "unknown register 'foo' for x86_64"},
    {"DW_OP_regx rbp", U5, false, 11, "no architecture given"},
    {"DW_OP_regx 4294967296", U5, false, 11, "register number"},
    {"DW_OP_regx -1", U5, false, 11, "register number"},
    {"DW_OP_bregx rbp@x 0", U5, true, 12, "bad padding"},
    {"DW_OP_lit1 (rbp", U5, false, 11, "unclosed '('"},
    {"DW_OP_lit0(anything at all, even (nested) parens)DW_OP_lit1", U5, false, 10,
     "parentheses hold a name or operations"},
    {"DW_OP_lit1 (rbp rsp)", U5, false, 11, "parentheses hold a name or operations"},
    {"DW_OP_LLVM_user DW_OP_LLVM_offset", UPROV, false, 0, "encoding is provisional here"},
    {"DW_OP_LLVM_user DW_OP_lit1", U5, false, 16, "is no DW_OP_LLVM_* sub-operation"},
    {"DW_OP_LLVM_user", U5, false, 15, "missing operand"},
    {"DW_OP_reg6 RSP", U5, true, 11, "'RSP' names register 7"},
    {"DW_OP_breg6 RSP+8", U5, true, 12, "'RSP' names register 7"},
    {"DW_OP_regx RBP+8", U5, true, 11, "unknown register 'RBP+8'"},
    {"DW_OP_bregx RBP+x", U5, true, 15, "expected a number"},
    {"DW_OP_lit1 )", U5, false, 11, "unexpected ')'"},
    {"DW_OP_GNU_encoded_addr 0x05 1", U5, false, 23, "unsupported DW_EH_PE encoding 0x05"},
    {"DW_OP_GNU_encoded_addr 0x02 0x10000", U5, false, 28, "does not fit in 16 bits"},
    {"DW_OP_GNU_encoded_addr 0x02 1@2", U5, false, 28, "only applies to LEB128"},
    {"DW_OP_GNU_encoded_addr 0x0a 0xffffffffffff8000", U5, false, 0, ""},
    {"DW_OP_entry_value(DW_OP_foo)", U5, false, 18, "unknown operation 'DW_OP_foo'"},
    {"DW_OP_entry_value(DW_OP_reg5", U5, false, 17, "unclosed '('"},
    {"DW_OP_entry_value(DW_OP_breg5)", U5, false, 29, "missing operand"},
    {"DW_OP_entry_value(\nDW_OP_lit0\nDW_OP_lit1 DW_OP_const1u 300)", U5, false, 55, "does not fit"},
    {"0x0003:", U5, false, 0, ""},
    {"0x0003: 0x0004:", U5, false, 0, ""},
    {"lit0 0x12: lit1", U5, false, 0, ""},
    {"DW_OP_lit1 foo: DW_OP_lit2", U5, false, 11, "unknown operation 'foo:'"},
};

/* dwexpr_asm errors: status, character offset, message. */
static void test_asm_errors(void)
{
    const dwexpr_arch *x86 = dwexpr_arch_find("x86_64");
    for (size_t k = 0; k < sizeof aerr / sizeof aerr[0]; k++) {
        dwexpr_unit u = unit_of(aerr[k].unit);
        dwexpr_error err;
        memset(&err, 0, sizeof err);
        uint8_t out[64];
        size_t len;
        dwexpr_status st = dwexpr_asm(aerr[k].text, &u, aerr[k].x86 ? x86 : NULL, out, sizeof out,
                                      &len, &err);
        if (!aerr[k].msg[0]) {
            OK(st == DWEXPR_OK, "asm \"%s\" is accepted", esc(aerr[k].text));
            if (st)
                printf("#   %s\n", err.message);
            continue;
        }
        bool ok = st == DWEXPR_E_SYNTAX && err.status == st && err.offset == aerr[k].off &&
                  strstr(err.message, aerr[k].msg) != NULL &&
                  dwexpr_status_class(st) == DWEXPR_CLASS_USAGE;
        OK(ok, "asm error \"%s\" at %d: %s", esc(aerr[k].text), aerr[k].off, aerr[k].msg);
        if (!ok)
            printf("#   got %s at %lld: %s\n", dwexpr_status_name(st), (long long)err.offset,
                   err.message);
    }
    dwexpr_unit u = unit_of(U5);
    dwexpr_error err;
    uint8_t out[8];
    size_t len;
    dwexpr_asm("DW_OP_const1u 300", &u, NULL, out, sizeof out, &len, &err);
    CHECK_STR(err.op_name, "DW_OP_const1u", "asm error names the operation");
}

/* ---- round trips ---- */

/* asm(disasm(x)) == x over the corpus sample and the hand-made cases. */
static void test_round_trips(void)
{
    const dwexpr_arch *x86 = dwexpr_arch_find("x86_64");
    dwexpr_unit u = unit_of(U5);
    char why[1024];
    for (size_t k = 0; k < sizeof corpus / sizeof corpus[0]; k++) {
        uint8_t b[256];
        size_t n = unhex(corpus[k], b);
        bool ok = round_trip(b, n, &u, NULL, why, sizeof why) &&
                  round_trip(b, n, &u, x86, why, sizeof why);
        OK(ok, "round trip corpus %s", corpus[k]);
        if (!ok)
            printf("#   %s\n", why);
    }
    for (size_t k = 0; k < sizeof extra / sizeof extra[0]; k++) {
        uint8_t b[256];
        size_t n = unhex(extra[k].hex, b);
        dwexpr_unit eu = unit_of(extra[k].unit);
        bool ok = round_trip(b, n, &eu, NULL, why, sizeof why) &&
                  round_trip(b, n, &eu, x86, why, sizeof why);
        OK(ok, "round trip %s (%s)", extra[k].hex, unit_names[extra[k].unit]);
        if (!ok)
            printf("#   %s\n", why);
    }
    int bad = 0, total = 0;
    for (size_t k = 0; k < sizeof dcases / sizeof dcases[0]; k++) {
        if (dcases[k].st != DWEXPR_OK)
            continue;
        uint8_t b[64];
        size_t n = unhex(dcases[k].hex, b);
        dwexpr_unit du = unit_of(dcases[k].unit);
        total++;
        if (!round_trip(b, n, &du, NULL, why, sizeof why) ||
            !round_trip(b, n, &du, x86, why, sizeof why)) {
            bad++;
            printf("#   %s\n", why);
        }
    }
    OK(bad == 0, "round trip of all %d single-op decode cases", total);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng(void)
{
    return xorshift64(&rng_state);
}

/* The table-driven decode (no public ops: what dwexpr_program_decode,
 * dwexpr_eval_bytes and nested blocks use) must agree with the full
 * decode on every input: same status and offset, same executable
 * operations, every operand and block included; and so must the quick
 * decode of the commonest operations (dwx_decode_small: short programs of
 * dwexpr_program_decode and dwexpr_eval_bytes) wherever it takes a
 * program, which it must never take when the full decode fails. */
static int fast_path_differs(const uint8_t *b, size_t n, const dwexpr_unit *u)
{
    dwx_insn full[32], fast[32], small[32];
    dwexpr_op ops[32];
    struct dwexpr_program pf, pq;
    dwexpr_error ef, eq;
    memset(full, 0, sizeof full);
    memset(fast, 0, sizeof fast);
    dwexpr_status sf = dwx_decode(b, n, u, full, ops, NULL, NULL, &pf, &ef);
    dwexpr_status sq = dwx_decode(b, n, u, fast, NULL, NULL, NULL, &pq, &eq);
    /* the quick decode serves little-endian units dwx_unit_check accepts */
    const size_t ns = n && !u->big_endian && dwx_unit_fine(u) ? dwx_decode_small(b, n, small) : 0;
    if (sf != sq || (sf != DWEXPR_OK && ns))
        return 1;
    if (sf != DWEXPR_OK)
        return ef.offset != eq.offset;
    if (pf.count != pq.count || (ns && ns != pf.count))
        return 1;
    for (size_t i = 0; i <= pf.count; i++) {
        const dwx_insn *x = &full[i];
        for (int k = 0; k < (ns ? 2 : 1); k++) {
            const dwx_insn *y = k ? &small[i] : &fast[i];
            if (x->x != y->x || x->id != y->id || x->offset != y->offset ||
                (i < pf.count && (x->a != y->a || x->b != y->b || x->c != y->c ||
                                  x->blk != y->blk || x->blen != y->blen)))
                return 1;
        }
    }
    return 0;
}

/* Random byte strings: decode never misbehaves; what decodes also
 * disassembles and assembles back; what fails to decode fails disasm the
 * same way (branches aside). */
static void test_random(void)
{
    static const uint8_t likely[] = {
        0x03, 0x06, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12, 0x15,
        0x22, 0x23, 0x28, 0x2f, 0x30, 0x31, 0x50, 0x56, 0x70, 0x76, 0x90, 0x91, 0x92, 0x93,
        0x94, 0x96, 0x98, 0x99, 0x9a, 0x9d, 0x9e, 0x9f, 0xa0, 0xa1, 0xa3, 0xa4, 0xa5, 0xa6,
        0xa8, 0xe0, 0xe1, 0xe4, 0xe8, 0xe9, 0xeb, 0xf1, 0xf3, 0xf4, 0xf5, 0xfa, 0xfd,
        0x00, 0x01, 0x02, 0x04, 0x7f, 0x80, 0x81, 0xff};
    const dwexpr_arch *x86 = dwexpr_arch_find("x86_64");
    int decoded = 0, failed = 0, badclass = 0, rtbad = 0, mismatch = 0, fastbad = 0;
    char why[1024];
    for (int iter = 0; iter < 40000; iter++) {
        uint8_t b[24];
        size_t n = (size_t)(rng() % 16);
        for (size_t i = 0; i < n; i++) {
            uint64_t r = rng();
            b[i] = (r & 3) ? likely[(r >> 8) % sizeof likely] : (uint8_t)(r >> 16);
            if ((r >> 40) % 5 == 0)
                b[i] = (uint8_t)((r >> 24) % 6);   /* small lengths and offsets */
        }
        dwexpr_unit u = unit_of((int)(rng() % UNITS));
        if (fast_path_differs(b, n, &u) && fastbad++ < 5)
            printf("#   fast decode differs on %s\n", tohex(b, n));
        dwexpr_error err;
        dwexpr_status st = decode_exact(b, n, &u, NULL, &err);
        if (st == DWEXPR_OK) {
            decoded++;
            if (!round_trip(b, n, &u, (iter & 1) ? x86 : NULL, why, sizeof why)) {
                if (rtbad++ < 5)
                    printf("#   %s\n", why);
            }
            continue;
        }
        failed++;
        dwexpr_class c = dwexpr_status_class(st);
        if (c != DWEXPR_CLASS_DECODE && st != DWEXPR_E_CALL_DEPTH) {
            badclass++;
            continue;
        }
        {
            dwexpr_error derr;
            char text[4096];
            dwexpr_status ds = dwexpr_disasm(b, n, &u, NULL, text, sizeof text, NULL, &derr);
            if (ds != st || derr.offset != err.offset) {
                if (mismatch++ < 5)
                    printf("#   %s: decode %s@%lld, disasm %s@%lld\n", tohex(b, n),
                           dwexpr_status_name(st), (long long)err.offset,
                           dwexpr_status_name(ds), (long long)derr.offset);
            }
        }
    }
    printf("# random: %d decoded, %d failed\n", decoded, failed);
    OK(decoded > 1000 && failed > 1000, "random inputs exercise both outcomes");
    OK(badclass == 0, "random failures are decode / depth only (a bad branch target decodes)");
    OK(rtbad == 0, "random valid expressions round-trip through text (%d bad)", rtbad);
    OK(mismatch == 0, "disasm fails where decode fails, at the same offset (%d bad)", mismatch);
    OK(fastbad == 0, "the table-driven decode agrees with the full decode (%d bad)", fastbad);
}

/* ---- architectures ---- */

/* Built-in architectures: lookup, x86-64 names and sizes. */
static void test_arch(void)
{
    const dwexpr_arch *g32 = dwexpr_arch_find("generic32");
    const dwexpr_arch *g64 = dwexpr_arch_find("generic64");
    const dwexpr_arch *x86 = dwexpr_arch_find("x86_64");
    OK(g32 && g64 && x86, "built-in archs found");
    OK(dwexpr_arch_find("vax") == NULL && dwexpr_arch_find(NULL) == NULL, "unknown arch");
    CHECK_U64(dwexpr_arch_addr_size(g32), 4, "generic32 addr size");
    CHECK_U64(dwexpr_arch_addr_size(g64), 8, "generic64 addr size");
    CHECK_U64(dwexpr_arch_addr_size(x86), 8, "x86_64 addr size");
    CHECK_U64(dwexpr_arch_addr_size(NULL), 8, "NULL arch addr size");
    OK(dwexpr_arch_reg_name(g64, 6) == NULL, "generic has no names");
    CHECK_U64(dwexpr_arch_reg_size(g32, 1000), 4, "generic32 register size");
    CHECK_U64(dwexpr_arch_reg_size(g64, 3), 8, "generic64 register size");
    OK(dwexpr_arch_reg_name(NULL, 0) == NULL && dwexpr_arch_reg_size(NULL, 0) == 0, "NULL arch");
    static const struct {
        uint32_t r;
        const char *name;
        uint32_t size;
    } xr[] = {
        {0, "rax", 8}, {1, "rdx", 8}, {2, "rcx", 8}, {3, "rbx", 8}, {4, "rsi", 8},
        {5, "rdi", 8}, {6, "rbp", 8}, {7, "rsp", 8}, {8, "r8", 8}, {15, "r15", 8},
        {16, "rip", 8}, {17, "xmm0", 16}, {32, "xmm15", 16}, {33, "st0", 10}, {40, "st7", 10},
        {41, "mm0", 8}, {48, "mm7", 8}, {49, "rflags", 8}, {50, "es", 2}, {55, "gs", 2},
        {58, "fs.base", 8}, {59, "gs.base", 8}, {62, "tr", 2}, {63, "ldtr", 2},
        {64, "mxcsr", 4}, {65, "fcw", 2}, {66, "fsw", 2}, {67, "xmm16", 16}, {82, "xmm31", 16},
        {118, "k0", 8}, {125, "k7", 8},
        {56, NULL, 0}, {60, NULL, 0}, {83, NULL, 0}, {117, NULL, 0}, {126, NULL, 0},
        {0xffffffffu, NULL, 0},
    };
    for (size_t k = 0; k < sizeof xr / sizeof xr[0]; k++) {
        const char *n = dwexpr_arch_reg_name(x86, xr[k].r);
        bool ok = (xr[k].name ? n && strcmp(n, xr[k].name) == 0 : n == NULL) &&
                  dwexpr_arch_reg_size(x86, xr[k].r) == xr[k].size;
        OK(ok, "x86_64 register %u: %s, %u bytes", xr[k].r, xr[k].name ? xr[k].name : "none",
               xr[k].size);
    }
}

/* Run every group; one TAP plan. */
int main(void)
{
    test_status();
    test_ops_table();
    test_leb();
    test_leb_random();
    test_decode_cases();
    test_decode_errors();
    test_all_bytes();
    test_insns();
    test_branches();
    test_entry_value();
    test_prefixes();
    test_format();
    test_disasm();
    test_asm();
    test_asm_errors();
    test_round_trips();
    test_random();
    test_arch();
    return TAP_DONE();
}
