/* fuzz/fuzz_asm.c: libFuzzer harness for the text assembler. Input: one
 * unit byte (fuzz_common.h fz_unit; bit 7 selects x86_64 register names),
 * then the text. What assembles must decode or fail as decode/ill_formed,
 * and its disassembly must reassemble to the same bytes (a fixed point). */
#include "fuzz_common.h"

/* Assemble the text after the unit byte and check what comes out. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    dwexpr_unit u = fz_unit(data[0]);
    const dwexpr_arch *arch = (data[0] & 0x80) ? dwexpr_arch_find("x86_64") : NULL;
    char *text = malloc(size);
    FZ_CHECK(text != NULL, "out of memory");
    memcpy(text, data + 1, size - 1);
    text[size - 1] = 0;

    uint8_t small[32];
    size_t len = 0;
    dwexpr_error err;
    memset(&err, 0, sizeof err);
    dwexpr_status s = dwexpr_asm(text, &u, arch, small, sizeof small, &len, &err);
    FZ_CHECK(s == DWEXPR_OK || s == DWEXPR_E_SYNTAX || s == DWEXPR_E_NOSPACE,
             "asm returned %s: %s", dwexpr_status_name(s), err.message);
    if (s == DWEXPR_E_SYNTAX) {
        FZ_CHECK(err.status == s && err.offset >= -1 && err.offset <= (int64_t)size,
                 "syntax error details: %s at %lld", dwexpr_status_name(err.status),
                 (long long)err.offset);
        free(text);
        return 0;
    }
    if (s == DWEXPR_E_NOSPACE)
        FZ_CHECK(len > sizeof small, "E_NOSPACE with len %zu", len);
    else
        FZ_CHECK(len <= sizeof small, "OK with len %zu", len);

    /* the whole output in an exact-size buffer; the short one is its prefix */
    uint8_t *b = malloc(len ? len : 1);
    size_t len2 = 0;
    FZ_CHECK(b != NULL, "out of memory");
    s = dwexpr_asm(text, &u, arch, b, len, &len2, &err);
    FZ_CHECK(s == DWEXPR_OK && len2 == len, "asm with room for %zu bytes: %s, %zu", len,
             dwexpr_status_name(s), len2);
    FZ_CHECK(memcmp(b, small, len < sizeof small ? len : sizeof small) == 0,
             "short asm buffer is not a prefix");
    free(text);

    dwexpr_program *prog = NULL;
    memset(&err, 0, sizeof err);
    s = dwexpr_program_decode(b, len, &u, &prog, &err);
    FZ_CHECK(s == DWEXPR_OK || fz_decode_class(s), "assembled bytes fail to decode with %s: %s",
             dwexpr_status_name(s), err.message);
    char *dis = NULL;
    size_t dlen = 0;
    dwexpr_status ds = fz_disasm(b, len, &u, arch, &dis, &dlen);
    if (s == DWEXPR_OK)
        FZ_CHECK(ds == DWEXPR_OK, "decodes but disasm fails: %s", dwexpr_status_name(ds));
    if (ds == DWEXPR_OK)
        fz_check_reassembles(dis, b, len, &u, arch);
    free(dis);
    dwexpr_program_free(prog);
    free(b);
    return 0;
}
