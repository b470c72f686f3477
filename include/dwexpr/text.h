/* dwexpr/text.h: the text form of whole expressions. dwexpr_disasm prints
 * every operation of an expression on its own line, in the form
 * dwexpr_asm (dwexpr/eval.h) reads back byte for byte. */
#ifndef DWEXPR_TEXT_H
#define DWEXPR_TEXT_H

#include "eval.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Disassemble LEN bytes decoded in UNIT (may be NULL: defaults; a zero
 * address size comes from ARCH) into OUT, one line per operation:
 *     0x0003: DW_OP_breg6 (rbp) -8\n
 * ARCH (may be NULL) adds register names; an entry_value line ends with a
 * "# ..." comment showing its block disassembled. OUT (CAP bytes, may be
 * NULL when CAP is 0) is always NUL terminated when CAP > 0; *NEED (may be
 * NULL) gets the length of the whole text without the NUL.
 * Returns DWEXPR_OK; E_NOSPACE when CAP <= *NEED (OUT holds a truncated
 * prefix); or the decode status (class decode, details in ERR) of the first
 * operation that does not decode, after the lines before it. A nested
 * entry_value block that does not decode fails as in dwexpr_program_decode.
 * Branch targets are not checked (that is dwexpr_program_decode's job). */
DWEXPR_API dwexpr_status dwexpr_disasm(const uint8_t *bytes, size_t len,
                                       const dwexpr_unit *unit, const dwexpr_arch *arch,
                                       char *out, size_t cap, size_t *need,
                                       dwexpr_error *err);

#ifdef __cplusplus
}
#endif
#endif
