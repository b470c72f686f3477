/* examples/dwexpr/repl_fmt.h: the REPL's compact notation for stack
 * entries and results, one line each:
 *   values     generic64 0x2a (42), signed32 0xfffffffe (-2), float32x4 0x...
 *   memory     mem:0x1000, mem[aspace=5,lane=3]:0x40+3b
 *   register   reg SGPR33, reg rbp+4B, reg VGPR0[lane=3]
 *   implicit   implicit 8B 2a00000000000000
 *   pointer    implicit_ptr(DIE 0x50+4)
 *   undefined  undef
 *   composite  composite{4B: reg rax, 4B: mem:0x1000}
 *   places     (reg rax | mem:0x1000)
 * Offsets and sizes are in bytes (B) when whole, else bits (b). */
#ifndef DWEXPR_CLI_REPL_FMT_H
#define DWEXPR_CLI_REPL_FMT_H

#include <stdarg.h>
#include <stddef.h>
#include <dwexpr.h>

/* A growing NUL-terminated string (aborts the CLI when out of memory). */
typedef struct sbuf {
    char *s;
    size_t len, cap;
} sbuf;

void sb_printf(sbuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void sb_free(sbuf *b);
/* The text so far ("" when nothing was written). */
const char *sb_str(const sbuf *b);

/* "generic64", "signed32", "float32x4". */
void fmt_type(sbuf *b, const dwexpr_type *t);
/* A value: type, hex, and the decimal reading in parentheses. */
void fmt_value(sbuf *b, const dwexpr_value *v);
/* A location description; ARCH (may be NULL) names registers. */
void fmt_loc(sbuf *b, const dwexpr_arch *arch, const dwexpr_loc *l);
/* One single location description. */
void fmt_sld(sbuf *b, const dwexpr_arch *arch, const dwexpr_sld *s);
/* A result or stack entry: fmt_value or fmt_loc. */
void fmt_result(sbuf *b, const dwexpr_arch *arch, const dwexpr_result *r);
/* " 4B" / " 3b" style size (NBITS bits) without the leading space. */
void fmt_size(sbuf *b, uint64_t nbits);
/* A register: its name in ARCH, else its number. */
void fmt_reg(sbuf *b, const dwexpr_arch *arch, uint32_t regno);

#endif
