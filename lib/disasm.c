/* lib/disasm.c: operations -> text (contract "dwexpr disasm"). Prints what
 * lib/asm.c reads back to the same bytes: padded LEB128 operands keep their
 * length as @N, blocks print in storage order, register names in (). */
#include <stdarg.h>
#include <stdio.h>
#include "text.h"

/* Nesting bound for entry_value comments (as in lib/decode.c). */
#define DWX_MAX_NEST 8

/* A bounded output string that keeps counting past its capacity. */
typedef struct sbuf {
    char *buf;
    size_t cap, len;
} sbuf;

/* Append printf-style text. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void sb_printf(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n;
    if (b->len < b->cap)
        n = vsnprintf(b->buf + b->len, b->cap - b->len, fmt, ap);
    else
        n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n > 0)
        b->len += (size_t)n;
}

/* Start an empty string (NUL terminated when there is room). */
static void sb_init(sbuf *b, char *buf, size_t cap)
{
    b->buf = buf;
    b->cap = buf ? cap : 0;
    b->len = 0;
    if (b->cap)
        b->buf[0] = '\0';
}

/* Shortest encoding of V as unsigned or signed LEB128. */
static unsigned leb_min(uint64_t v, bool is_signed)
{
    return (unsigned)(is_signed ? dwx_write_sleb(NULL, (int64_t)v, 0)
                                : dwx_write_uleb(NULL, v, 0));
}

/* Is operand I of OP a signed LEB128 (for its minimal length)? */
static bool leb_signed(const dwexpr_op *op, dwexpr_operands lay, unsigned i)
{
    switch (lay) {
    case DWEXPR_OPND_SLEB: return true;
    case DWEXPR_OPND_ULEB_SLEB:
    case DWEXPR_OPND_REF_SLEB: return i == 1;
    case DWEXPR_OPND_ENCODED_ADDR: return i == 1 && (op->operand[0] & 0x0f) == 0x9;
    default: return false;
    }
}

/* Print operand I of OP in its style, with @N when its LEB128 encoding is
 * longer than needed and the register name when ARCH knows it. */
static void put_operand(sbuf *b, const dwexpr_op *op, dwexpr_operands lay, unsigned i,
                        const dwexpr_arch *arch)
{
    uint64_t v = op->operand[i];
    enum dwx_style style = dwx_operand_style(op->id, i);
    switch (style) {
    case DWX_STYLE_SDEC: sb_printf(b, " %lld", (long long)v); break;
    case DWX_STYLE_HEX: sb_printf(b, " 0x%llx", (unsigned long long)v); break;
    default: sb_printf(b, " %llu", (unsigned long long)v); break;
    }
    if (op->leb_len[i] && op->leb_len[i] > leb_min(v, leb_signed(op, lay, i)))
        sb_printf(b, "@%u", op->leb_len[i]);
    if (style == DWX_STYLE_REG && v <= UINT32_MAX) {
        const char *name = dwexpr_arch_reg_name(arch, (uint32_t)v);
        if (name)
            sb_printf(b, " (%s)", name);
    }
}

/* Print a block as 0x + hex bytes in storage order (nothing when empty). */
static void put_block(sbuf *b, const uint8_t *p, uint64_t n)
{
    if (!n)
        return;
    sb_printf(b, " 0x");
    for (uint64_t i = 0; i < n; i++)
        sb_printf(b, "%02x", p[i]);
}

/* Print one operation without offset or newline. */
static void format_op(sbuf *b, const dwexpr_op *op, const dwexpr_arch *arch)
{
    const dwexpr_opinfo *info = dwexpr_op_info(op->id);
    if (!info) {
        sb_printf(b, "<bad operation %d>", (int)op->id);
        return;
    }
    const dwexpr_operands lay = info->operands;
    sb_printf(b, "%s", info->name);
    if (info->subop) {
        /* DW_OP_LLVM_user form: what is left besides the opcode byte and
         * the (LEB128) operands is the sub-op; shown when padded. */
        uint32_t rest = op->leb_len[0] + op->leb_len[1] + 1u;
        if (op->size > rest + 1)
            sb_printf(b, "@%u", op->size - rest);
    }
    if (op->id >= DWEXPR_OP_reg0 && op->id <= DWEXPR_OP_breg31) {
        /* DWARF 5 2.5.1.2 / 2.6.1.1.3: the register is in the opcode */
        uint32_t r = (uint32_t)(op->id >= DWEXPR_OP_breg0 ? op->id - DWEXPR_OP_breg0
                                                          : op->id - DWEXPR_OP_reg0);
        const char *name = dwexpr_arch_reg_name(arch, r);
        if (name)
            sb_printf(b, " (%s)", name);
    }
    switch (lay) {
    case DWEXPR_OPND_NONE:
        break;
    case DWEXPR_OPND_ULEB_SLEB:
    case DWEXPR_OPND_ULEB_ULEB:
    case DWEXPR_OPND_U8_ULEB:
    case DWEXPR_OPND_REF_SLEB:
    case DWEXPR_OPND_ENCODED_ADDR:
        put_operand(b, op, lay, 0, arch);
        put_operand(b, op, lay, 1, arch);
        break;
    case DWEXPR_OPND_BLOCK:
        put_operand(b, op, lay, 0, arch);
        put_block(b, op->block, op->block_len);
        break;
    case DWEXPR_OPND_CONST_TYPE:
        put_operand(b, op, lay, 0, arch);
        put_operand(b, op, lay, 1, arch);
        put_block(b, op->block, op->block_len);
        break;
    default:
        put_operand(b, op, lay, 0, arch);
        break;
    }
}

/* Text of one operation (see include/dwexpr/eval.h). */
size_t dwexpr_op_format(const dwexpr_op *op, const dwexpr_arch *arch, char *buf, size_t cap)
{
    sbuf b;
    sb_init(&b, buf, cap);
    if (op)
        format_op(&b, op, arch);
    return b.len;
}

/* Decode (and, when B is non-NULL, print "; "-separated) the operations
 * of an entry_value block, recursing into nested blocks to validate them.
 * Errors are reported relative to the block, like dwx_decode does. */
static dwexpr_status walk_block(sbuf *b, const uint8_t *p, size_t len, const dwexpr_unit *u,
                                const dwexpr_arch *arch, unsigned depth, dwexpr_error *err);

/* Check the block of entry_value OP (DWARF 5 2.5.1.7) and print it as a
 * comment into B (may be NULL); failures are reported at OP. */
static dwexpr_status entry_block(sbuf *b, const dwexpr_op *op, const dwexpr_unit *u,
                                 const dwexpr_arch *arch, unsigned depth, dwexpr_error *err)
{
    const char *name = dwexpr_op_info(op->id)->name;
    int opc = dwexpr_op_info(op->id)->code;
    if (depth + 1 >= DWX_MAX_NEST) {
        dwx_fail(err, DWEXPR_E_CALL_DEPTH, op->offset, op->id,
                 "%s blocks nested more than %d deep", name, DWX_MAX_NEST - 1);
        if (err)
            err->opcode = opc;
        return DWEXPR_E_CALL_DEPTH;
    }
    dwexpr_error inner;
    if (b && op->block_len)
        sb_printf(b, " #");
    dwexpr_status st = walk_block(b, op->block, (size_t)op->block_len, u, arch, depth + 1,
                                  err ? &inner : NULL);
    if (st != DWEXPR_OK && err) {
        dwx_fail(err, st, op->offset, op->id, "%s block, offset 0x%llx: %s", name,
                 (unsigned long long)inner.offset, inner.message);
        err->opcode = opc;
    }
    return st;
}

/* See the declaration above. */
static dwexpr_status walk_block(sbuf *b, const uint8_t *p, size_t len, const dwexpr_unit *u,
                                const dwexpr_arch *arch, unsigned depth, dwexpr_error *err)
{
    size_t pos = 0;
    while (pos < len) {
        dwexpr_op op;
        dwexpr_status st = dwx_decode_one(p, len, pos, u, &op, err);
        if (st != DWEXPR_OK)
            return st;
        if (b) {
            sb_printf(b, pos ? "; " : " ");
            format_op(b, &op, arch);
        }
        if (op.id == DWEXPR_OP_entry_value || op.id == DWEXPR_OP_GNU_entry_value) {
            /* nested: validate only; a comment cannot nest */
            st = entry_block(NULL, &op, u, arch, depth, err);
            if (st != DWEXPR_OK)
                return st;
        }
        pos += op.size;
    }
    return DWEXPR_OK;
}

/* Disassemble a whole expression (see include/dwexpr/text.h). */
dwexpr_status dwexpr_disasm(const uint8_t *bytes, size_t len, const dwexpr_unit *unit,
                            const dwexpr_arch *arch, char *out, size_t cap, size_t *need,
                            dwexpr_error *err)
{
    sbuf b;
    sb_init(&b, out, cap);
    if (need)
        *need = 0;
    dwexpr_unit u = dwx_text_unit(unit, arch);
    dwexpr_status st = dwx_unit_check(&u, err);
    if (st != DWEXPR_OK)
        return st;
    if (len && !bytes)
        return dwx_fail(err, DWEXPR_E_USAGE, -1, DWEXPR_OP_COUNT, "no expression bytes");
    size_t pos = 0;
    while (pos < len) {
        dwexpr_op op;
        st = dwx_decode_one(bytes, len, pos, &u, &op, err);
        if (st != DWEXPR_OK)
            break;
        size_t mark = b.len;
        sb_printf(&b, "0x%04zx: ", pos);
        format_op(&b, &op, arch);
        if (op.id == DWEXPR_OP_entry_value || op.id == DWEXPR_OP_GNU_entry_value) {
            st = entry_block(&b, &op, &u, arch, 0, err);
            if (st != DWEXPR_OK) {
                /* drop the half-written line of the failing operation */
                b.len = mark;
                if (mark < b.cap)
                    b.buf[mark] = '\0';
                break;
            }
        }
        sb_printf(&b, "\n");
        pos += op.size;
    }
    if (need)
        *need = b.len;
    if (st != DWEXPR_OK)
        return st;
    if (b.len >= b.cap)
        return dwx_fail(err, DWEXPR_E_NOSPACE, -1, DWEXPR_OP_COUNT,
                        "disassembly needs %zu bytes, %zu given", b.len + 1, b.cap);
    return DWEXPR_OK;
}
