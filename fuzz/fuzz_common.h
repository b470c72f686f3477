/* fuzz/fuzz_common.h: helpers shared by the fuzz harnesses: the libFuzzer
 * entry point's prototype, invariant checks that abort() with a message,
 * picking a unit from an input byte, and the asm(disasm(b)) == b check. */
#ifndef DWX_FUZZ_COMMON_H
#define DWX_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dwexpr.h>

/* The entry point every harness exports (libFuzzer, AFL++ driver, or
 * fuzz/standalone.c). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Report an invariant violation and abort(): how a libFuzzer harness
 * reports a finding that is not a sanitizer error. */
#define FZ_CHECK(cond, ...)                                                   \
    do {                                                                      \
        if (!(cond)) {                                                        \
            fprintf(stderr, "%s:%d: invariant failed: %s\n  ", __FILE__,      \
                    __LINE__, #cond);                                         \
            fprintf(stderr, __VA_ARGS__);                                     \
            fputc('\n', stderr);                                              \
            abort();                                                          \
        }                                                                     \
    } while (0)

/* A unit from one byte: bits 0-1 address size 1/2/4/8, bit 2 offset size
 * 4/8, bits 3-4 version 2..5, bit 5 DW_OP_LLVM_* encoding, bit 6 big
 * endian. Bit 7 is left to the harness. */
static inline dwexpr_unit fz_unit(uint8_t b)
{
    static const uint8_t asz[4] = {8, 4, 2, 1};
    dwexpr_unit u;
    memset(&u, 0, sizeof u);
    u.id = 1;
    u.addr_size = asz[b & 3];
    u.offset_size = (b & 4) ? 8 : 4;
    u.version = (uint16_t)(5 - ((b >> 3) & 3));
    u.ext_encoding = (b & 0x20) ? DWEXPR_EXT_PROVISIONAL : DWEXPR_EXT_LLVM_USER;
    u.big_endian = (b & 0x40) ? 1 : 0;
    return u;
}

/* True if S is a failure the decoder may report for valid API use:
 * class decode or ill_formed, or the limits on nesting (entry_value
 * blocks more than 8 deep: E_CALL_DEPTH) and size. */
static inline int fz_decode_class(dwexpr_status s)
{
    dwexpr_class c = dwexpr_status_class(s);
    return c == DWEXPR_CLASS_DECODE || c == DWEXPR_CLASS_ILL_FORMED ||
           s == DWEXPR_E_CALL_DEPTH || s == DWEXPR_E_TOO_BIG || s == DWEXPR_E_NOMEM;
}

/* Disassemble LEN bytes into a malloc'ed string (*OUT, NULL on a decode
 * failure of the disassembler). Returns dwexpr_disasm's status. Also
 * checks the E_NOSPACE contract: a short buffer gets a NUL-terminated
 * prefix of the full text and the same *need. */
static inline dwexpr_status fz_disasm(const uint8_t *b, size_t len, const dwexpr_unit *u,
                                      const dwexpr_arch *arch, char **out, size_t *outlen)
{
    size_t need = 0, need2 = 0;
    dwexpr_error e;
    *out = NULL;
    *outlen = 0;
    dwexpr_status s = dwexpr_disasm(b, len, u, arch, NULL, 0, &need, &e);
    if (s != DWEXPR_OK && s != DWEXPR_E_NOSPACE)
        return s;
    char *text = malloc(need + 1);
    FZ_CHECK(text != NULL, "out of memory");
    s = dwexpr_disasm(b, len, u, arch, text, need + 1, &need2, &e);
    if (s != DWEXPR_OK && s != DWEXPR_E_NOSPACE && fz_decode_class(s)) {
        free(text);
        return s;
    }
    FZ_CHECK(s == DWEXPR_OK, "disasm with room for %zu chars: %s", need,
             dwexpr_status_name(s));
    FZ_CHECK(need2 == need && strlen(text) == need, "disasm length %zu/%zu/%zu", need, need2,
             strlen(text));
    if (need > 1) {
        /* a buffer one or more chars short: a truncated, terminated prefix */
        size_t cap = need / 2 + 1;
        char *part = malloc(cap);
        FZ_CHECK(part != NULL, "out of memory");
        memset(part, 'x', cap);
        s = dwexpr_disasm(b, len, u, arch, part, cap, &need2, &e);
        FZ_CHECK(s == DWEXPR_E_NOSPACE, "short disasm buffer gave %s", dwexpr_status_name(s));
        FZ_CHECK(need2 == need, "short disasm need %zu vs %zu", need2, need);
        FZ_CHECK(part[cap - 1] == 0 && memcmp(part, text, cap - 1) == 0,
                 "short disasm buffer is not a prefix of the text");
        free(part);
    }
    *out = text;
    *outlen = need;
    return DWEXPR_OK;
}

/* asm(TEXT) must give back exactly the LEN bytes B (the disassembly of B). */
static inline void fz_check_reassembles(const char *text, const uint8_t *b, size_t len,
                                        const dwexpr_unit *u, const dwexpr_arch *arch)
{
    size_t cap = len + 16, got = 0;
    uint8_t *back = malloc(cap);
    dwexpr_error e;
    FZ_CHECK(back != NULL, "out of memory");
    memset(&e, 0, sizeof e);
    dwexpr_status s = dwexpr_asm(text, u, arch, back, cap, &got, &e);
    if (s != DWEXPR_OK || got != len || memcmp(back, b, len) != 0) {
        fprintf(stderr, "disassembly:\n%s\n", text);
        fprintf(stderr, "input (%zu bytes):", len);
        for (size_t i = 0; i < len; i++)
            fprintf(stderr, " %02x", b[i]);
        fprintf(stderr, "\nasm (%s, %zu bytes):", dwexpr_status_name(s), got);
        for (size_t i = 0; s == DWEXPR_OK && i < got && i < cap; i++)
            fprintf(stderr, " %02x", back[i]);
        fprintf(stderr, "\n%s\n", s != DWEXPR_OK ? e.message : "");
        FZ_CHECK(0, "asm(disasm(b)) != b (addr %u off %u v%u enc %u big %u)",
                 (unsigned)u->addr_size, (unsigned)u->offset_size, (unsigned)u->version,
                 (unsigned)u->ext_encoding, (unsigned)u->big_endian);
    }
    free(back);
}

#endif
