/* lib/ops.c: the operation table as data (names, codes, operand layouts,
 * docs), expanded from DWEXPR_OPS, and lookup by name. */
#include "text.h"

static const dwexpr_opinfo op_tab[DWEXPR_OP_COUNT] = {
#define DWX_X(n, c, s, o, d) {"DW_OP_" #n, c, s, DWEXPR_OPND_##o, d},
    DWEXPR_OPS(DWX_X)
#undef DWX_X
};

/* Row ID of the table, NULL when out of range. */
const dwexpr_opinfo *dwexpr_op_info(dwexpr_opid id)
{
    if ((unsigned)id >= DWEXPR_OP_COUNT)
        return NULL;
    return &op_tab[id];
}

/* Operation named NAME[0..LEN) with or without the DW_OP_ prefix; the
 * table is small and names are only looked up by text tools, so a linear
 * scan is enough. */
dwexpr_opid dwexpr_op_by_name(const char *name, size_t len)
{
    static const char prefix[] = "DW_OP_";
    const size_t plen = sizeof prefix - 1;
    if (!name)
        return DWEXPR_OP_COUNT;
    if (len >= plen && memcmp(name, prefix, plen) == 0) {
        name += plen;
        len -= plen;
    }
    if (len == 0)
        return DWEXPR_OP_COUNT;
    for (unsigned i = 0; i < DWEXPR_OP_COUNT; i++) {
        const char *n = op_tab[i].name + plen;
        if (strncmp(n, name, len) == 0 && n[len] == '\0')
            return (dwexpr_opid)i;
    }
    return DWEXPR_OP_COUNT;
}

/* Text style of operand I of ID. Mostly the layout decides (DWARF 5
 * 7.7.1 Table 7.9); a few operations name type DIEs (DWARF 5 2.5.1.6:
 * convert, reinterpret; 2.5.1.5 call2/call4) or registers (2.5.1.2, 2.6.1.1.3
 * and the LLVM register operations), which print as hex / register. */
enum dwx_style dwx_operand_style(dwexpr_opid id, unsigned i)
{
    const dwexpr_opinfo *info = dwexpr_op_info(id);
    if (!info)
        return DWX_STYLE_DEC;
    switch (info->operands) {
    case DWEXPR_OPND_ADDR:
    case DWEXPR_OPND_REF:
    case DWEXPR_OPND_ENCODED_ADDR:
        return DWX_STYLE_HEX;
    case DWEXPR_OPND_REF_SLEB:
        return i == 0 ? DWX_STYLE_HEX : DWX_STYLE_SDEC;
    case DWEXPR_OPND_CONST_TYPE:
        return i == 0 ? DWX_STYLE_HEX : DWX_STYLE_DEC;
    case DWEXPR_OPND_U8_ULEB: /* deref_type family: size, type DIE */
        return i == 1 ? DWX_STYLE_HEX : DWX_STYLE_DEC;
    case DWEXPR_OPND_S8: case DWEXPR_OPND_S16: case DWEXPR_OPND_S32: case DWEXPR_OPND_S64:
    case DWEXPR_OPND_SLEB: case DWEXPR_OPND_SKIP:
        return DWX_STYLE_SDEC;
    case DWEXPR_OPND_ULEB_SLEB: /* bregx, LLVM_aspace_bregx: register, displacement */
        return i == 0 ? DWX_STYLE_REG : DWX_STYLE_SDEC;
    case DWEXPR_OPND_ULEB_ULEB:
        if (id == DWEXPR_OP_regval_type || id == DWEXPR_OP_GNU_regval_type)
            return i == 0 ? DWX_STYLE_REG : DWX_STYLE_HEX;
        return DWX_STYLE_DEC;
    case DWEXPR_OPND_ULEB:
        switch (id) {
        case DWEXPR_OP_convert: case DWEXPR_OP_GNU_convert:
        case DWEXPR_OP_reinterpret: case DWEXPR_OP_GNU_reinterpret:
            return DWX_STYLE_HEX;
        case DWEXPR_OP_regx: case DWEXPR_OP_LLVM_call_frame_entry_reg:
            return DWX_STYLE_REG;
        default:
            return DWX_STYLE_DEC;
        }
    case DWEXPR_OPND_U16:
    case DWEXPR_OPND_U32:
        if (id == DWEXPR_OP_call2 || id == DWEXPR_OP_call4 || id == DWEXPR_OP_GNU_parameter_ref)
            return DWX_STYLE_HEX;
        return DWX_STYLE_DEC;
    default:
        return DWX_STYLE_DEC;
    }
}
