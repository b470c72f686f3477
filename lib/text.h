/* lib/text.h: internals shared by the decoder and the text form
 * (lib/disasm.c, lib/asm.c): how each operand is shown and read back,
 * and the unit checks both sides apply. Not installed. */
#ifndef DWX_TEXT_H
#define DWX_TEXT_H

#include "dwx.h"

/* How operand I of an operation is written in text. */
enum dwx_style {
    DWX_STYLE_DEC,   /* unsigned decimal */
    DWX_STYLE_SDEC,  /* signed decimal */
    DWX_STYLE_HEX,   /* 0x hex: addresses, DIE offsets, encodings */
    DWX_STYLE_REG    /* DWARF register number (decimal, name may follow) */
};
DWX_HIDDEN enum dwx_style dwx_operand_style(dwexpr_opid id, unsigned i);

/* E_USAGE unless U (normalized) has a supported address size, offset
 * size, version and DW_OP_LLVM_* encoding. */
DWX_HIDDEN dwexpr_status dwx_unit_check(const dwexpr_unit *u, dwexpr_error *err);

/* The unit text tools work in: UNIT's fields, with a zero address size
 * taken from ARCH (when given) before the usual defaults. */
DWX_HIDDEN dwexpr_unit dwx_text_unit(const dwexpr_unit *unit, const dwexpr_arch *arch);

#endif
