/* lib/decode.c: bytes -> operations. Decodes and validates a DWARF
 * expression once (operands, opcodes in the unit's DW_OP_LLVM_* encoding,
 * branch targets, nested entry_value blocks) into the public dwexpr_op view
 * and the evaluator's folded dwx_insn array. */
#include <stdlib.h>
#include "text.h"

/* Nesting bound for entry_value blocks inside entry_value blocks, so a
 * hostile input cannot recurse deeply on the C stack. Depth 0 is the
 * expression itself; a block at depth DWX_MAX_NEST is refused. */
#define DWX_MAX_NEST 8

/* A LEB128 operand longer than this cannot be described by
 * dwexpr_op.leb_len (uint8_t), so the text form could not reproduce it. */
#define DWX_MAX_LEB_LEN 255

/* Opcode byte -> operation id + 1 (0: no operation). Built from
 * DWEXPR_OPS at compile time: operations without a byte (code 0) go to
 * private slots past 255 so designators never repeat; two operations with
 * the same byte would be a duplicate designator (a -Werror build error). */
static const uint16_t code_tab[256 + DWEXPR_OP_COUNT] = {
#define DWX_X(n, c, s, o, d) [(c) ? (c) : 256 + DWEXPR_OP_##n] = (c) ? DWEXPR_OP_##n + 1 : 0,
    DWEXPR_OPS(DWX_X)
#undef DWX_X
};

/* DW_OP_LLVM_user sub-operation -> operation id + 1, built the same way. */
static const uint16_t subop_tab[256 + DWEXPR_OP_COUNT] = {
#define DWX_X(n, c, s, o, d) [(s) ? (s) : 256 + DWEXPR_OP_##n] = (s) ? DWEXPR_OP_##n + 1 : 0,
    DWEXPR_OPS(DWX_X)
#undef DWX_X
};

/* DW_OP_LLVM_user sub-op of each operation (0: none). */
static const uint8_t subop_of[DWEXPR_OP_COUNT] = {
#define DWX_X(n, c, s, o, d) s,
    DWEXPR_OPS(DWX_X)
#undef DWX_X
};

/* Operand layout of each operation. */
static const uint8_t layout_tab[DWEXPR_OP_COUNT] = {
#define DWX_X(n, c, s, o, d) DWEXPR_OPND_##o,
    DWEXPR_OPS(DWX_X)
#undef DWX_X
};

/* Fill defaults for zero fields of U (NULL: all defaults). */
dwexpr_unit dwx_unit_normalize(const dwexpr_unit *u)
{
    dwexpr_unit r;
    if (u)
        r = *u;
    else
        memset(&r, 0, sizeof r);
    if (!r.addr_size)
        r.addr_size = 8;
    if (!r.offset_size)
        r.offset_size = 4;
    if (!r.version)
        r.version = 5;
    return r;
}

/* The unit of the text tools: a zero address size comes from ARCH. */
dwexpr_unit dwx_text_unit(const dwexpr_unit *unit, const dwexpr_arch *arch)
{
    dwexpr_unit u;
    if (unit)
        u = *unit;
    else
        memset(&u, 0, sizeof u);
    if (!u.addr_size && arch)
        u.addr_size = (uint8_t)arch->addr_size;
    return dwx_unit_normalize(&u);
}

/* Check a normalized unit; E_USAGE describes the bad field. */
dwexpr_status dwx_unit_check(const dwexpr_unit *u, dwexpr_error *err)
{
    if (u->addr_size != 1 && u->addr_size != 2 && u->addr_size != 4 && u->addr_size != 8)
        return dwx_fail(err, DWEXPR_E_USAGE, -1, DWEXPR_OP_COUNT,
                        "address size %u is not 1, 2, 4 or 8", u->addr_size);
    if (u->offset_size != 4 && u->offset_size != 8)
        return dwx_fail(err, DWEXPR_E_USAGE, -1, DWEXPR_OP_COUNT,
                        "offset size %u is not 4 or 8", u->offset_size);
    if (u->version < 2 || u->version > 5)
        return dwx_fail(err, DWEXPR_E_USAGE, -1, DWEXPR_OP_COUNT,
                        "DWARF version %u is not 2..5", u->version);
    if (u->ext_encoding > DWEXPR_EXT_PROVISIONAL)
        return dwx_fail(err, DWEXPR_E_USAGE, -1, DWEXPR_OP_COUNT,
                        "unknown DW_OP_LLVM_* encoding %u", u->ext_encoding);
    return DWEXPR_OK;
}

/* Decoder state for one expression. */
typedef struct dstate {
    const uint8_t *base, *end;
    const dwexpr_unit *u;   /* normalized and checked */
    unsigned ref_size;      /* DWARF 5 7.7.1: offset size; DWARF 2: address size */
} dstate;

/* Fail for operation ID at POS, then set err->opcode to the bytes really
 * seen (OPC: byte, or 0xe9 * 0x100 + sub-op). */
#define FAIL_AT(at, id_, st, opc, ...) \
    fix_opcode(err, dwx_fail(err, (st), (int64_t)(at), (int)(id_), __VA_ARGS__), (opc))
#define FAIL(st, opc, ...) FAIL_AT(pos, id, st, opc, __VA_ARGS__)

/* Overwrite the opcode dwx_fail derived from the table. */
static dwexpr_status fix_opcode(dwexpr_error *err, dwexpr_status st, int opc)
{
    if (err)
        err->opcode = opc;
    return st;
}

/* Read an unsigned LEB128 operand (1-byte fast path). */
static inline dwexpr_status rd_uleb(const uint8_t **p, const uint8_t *end,
                                    uint64_t *v, uint8_t *n)
{
    if (DWX_LIKELY(*p < end && **p < 0x80)) {
        *v = *(*p)++;
        *n = 1;
        return DWEXPR_OK;
    }
    const uint8_t *q = *p;
    dwexpr_status st = dwx_read_uleb(p, end, v, n);
    if (st == DWEXPR_OK && *p - q > DWX_MAX_LEB_LEN)
        return DWEXPR_E_BAD_OPERAND;
    return st;
}

/* Read a signed LEB128 operand (1-byte fast path). */
static inline dwexpr_status rd_sleb(const uint8_t **p, const uint8_t *end,
                                    uint64_t *v, uint8_t *n)
{
    if (DWX_LIKELY(*p < end && **p < 0x80)) {
        uint8_t b = *(*p)++;
        *v = (b & 0x40) ? (uint64_t)b | ~(uint64_t)0x7f : b;
        *n = 1;
        return DWEXPR_OK;
    }
    const uint8_t *q = *p;
    int64_t s;
    dwexpr_status st = dwx_read_sleb(p, end, &s, n);
    if (st == DWEXPR_OK && *p - q > DWX_MAX_LEB_LEN)
        return DWEXPR_E_BAD_OPERAND;
    *v = (uint64_t)s;
    return st;
}

/* Sign-extend the low BYTES bytes of V. */
static inline uint64_t sext(uint64_t v, unsigned bytes)
{
    if (bytes >= 8)
        return v;
    uint64_t sign = (uint64_t)1 << (8 * bytes - 1);
    return (v ^ sign) - sign;
}

/* Message for a failed operand read. */
static const char *operand_problem(dwexpr_status st)
{
    switch (st) {
    case DWEXPR_E_TRUNCATED: return "operand runs past the end of the expression";
    case DWEXPR_E_LEB_OVERFLOW: return "LEB128 operand does not fit in 64 bits";
    case DWEXPR_E_BAD_OPERAND: return "LEB128 operand is longer than 255 bytes";
    default: return dwexpr_strerror(st);
    }
}

/* Read the DW_EH_PE-encoded value of DW_OP_GNU_encoded_addr (Linux
 * Standard Base Core 10.5 "DWARF Extensions", DW_EH_PE pointer encodings;
 * the high nibble only says how to apply the value and is kept in
 * operand 0). */
static dwexpr_status rd_encoded(const dstate *s, const uint8_t **p, uint8_t enc,
                                uint64_t *v, uint8_t *lebn)
{
    bool big = s->u->big_endian;
    switch (enc & 0x0f) {
    case 0x0: return dwx_read_fixed(p, s->end, s->u->addr_size, big, v); /* absptr */
    case 0x1: return rd_uleb(p, s->end, v, lebn);                        /* uleb128 */
    case 0x2: return dwx_read_fixed(p, s->end, 2, big, v);              /* udata2 */
    case 0x3: return dwx_read_fixed(p, s->end, 4, big, v);              /* udata4 */
    case 0x4: return dwx_read_fixed(p, s->end, 8, big, v);              /* udata8 */
    case 0x9: return rd_sleb(p, s->end, v, lebn);                        /* sleb128 */
    case 0xa: {                                                          /* sdata2 */
        dwexpr_status st = dwx_read_fixed(p, s->end, 2, big, v);
        *v = sext(*v, 2);
        return st;
    }
    case 0xb: {                                                          /* sdata4 */
        dwexpr_status st = dwx_read_fixed(p, s->end, 4, big, v);
        *v = sext(*v, 4);
        return st;
    }
    case 0xc: return dwx_read_fixed(p, s->end, 8, big, v);              /* sdata8 */
    default: return DWEXPR_E_BAD_OPERAND;
    }
}

/* Decode the operation at byte POS into OP (DWARF 5 7.7.1, Table 7.9 for
 * operand layouts). Every failure is reported at POS. */
static dwexpr_status decode_at(const dstate *s, size_t pos, dwexpr_op *op, dwexpr_error *err)
{
    const uint8_t *p = s->base + pos, *end = s->end;
    const uint8_t byte = *p++;
    int opc = byte;
    unsigned id = DWEXPR_OP_COUNT;
    dwexpr_status st = DWEXPR_OK;

    if (byte == DW_OP_LLVM_user && s->u->ext_encoding == DWEXPR_EXT_LLVM_USER) {
        /* LLVM's DW_OP_LLVM_user: a ULEB128 sub-operation follows (LLVM
         * Dwarf.def; design/amdgpu-and-encodings.md); sub-op 0 is reserved */
        uint64_t sub;
        uint8_t n;
        st = rd_uleb(&p, end, &sub, &n);
        if (st != DWEXPR_OK)
            return FAIL(st, opc, "DW_OP_LLVM_user: sub-operation %s",
                        st == DWEXPR_E_TRUNCATED ? "runs past the end of the expression"
                                                 : "is not a valid LEB128 number");
        opc = DW_OP_LLVM_user * 0x100 + (int)(sub & 0xff);
        if (sub == 0)
            return FAIL(DWEXPR_E_BAD_SUBOP, opc, "DW_OP_LLVM_user sub-operation 0 is reserved");
        if (sub > 255 || subop_tab[sub] == 0) {
            opc = sub > 255 ? DW_OP_LLVM_user : opc;
            return FAIL(DWEXPR_E_BAD_SUBOP, opc,
                        "unknown DW_OP_LLVM_user sub-operation 0x%llx", (unsigned long long)sub);
        }
        id = subop_tab[sub] - 1u;
    } else {
        unsigned t = code_tab[byte];
        bool vendor = byte >= DW_OP_lo_user;
        /* in the llvm-user encoding the provisional bytes are not LLVM's */
        if (DWX_UNLIKELY(t == 0 || (subop_of[t - 1] != 0 &&
                                    s->u->ext_encoding == DWEXPR_EXT_LLVM_USER))) {
            if (!vendor)
                return FAIL(DWEXPR_E_UNKNOWN_OP, opc, "unknown opcode 0x%02x", byte);
            if (t != 0)
                return FAIL(DWEXPR_E_VENDOR_OP, opc,
                            "unknown vendor operation 0x%02x (%s in the provisional "
                            "DW_OP_LLVM_* encoding only)", byte,
                            dwexpr_op_info((dwexpr_opid)(t - 1))->name);
            return FAIL(DWEXPR_E_VENDOR_OP, opc, "unknown vendor operation 0x%02x", byte);
        }
        id = t - 1u;
    }

    op->id = (dwexpr_opid)id;
    op->offset = (uint32_t)pos;
    op->operand[0] = op->operand[1] = op->operand[2] = 0;
    op->leb_len[0] = op->leb_len[1] = op->leb_len[2] = 0;
    op->block = NULL;
    op->block_len = 0;

    const bool big = s->u->big_endian;
    uint64_t *v = op->operand;
    uint8_t *ln = op->leb_len;
    switch ((dwexpr_operands)layout_tab[id]) {
    case DWEXPR_OPND_NONE:
        break;
    case DWEXPR_OPND_ADDR:
        st = dwx_read_fixed(&p, end, s->u->addr_size, big, &v[0]);
        break;
    case DWEXPR_OPND_U8:
        st = dwx_read_fixed(&p, end, 1, big, &v[0]);
        break;
    case DWEXPR_OPND_S8:
        st = dwx_read_fixed(&p, end, 1, big, &v[0]);
        v[0] = sext(v[0], 1);
        break;
    case DWEXPR_OPND_U16:
        st = dwx_read_fixed(&p, end, 2, big, &v[0]);
        break;
    case DWEXPR_OPND_S16:
    case DWEXPR_OPND_SKIP:
        st = dwx_read_fixed(&p, end, 2, big, &v[0]);
        v[0] = sext(v[0], 2);
        break;
    case DWEXPR_OPND_U32:
        st = dwx_read_fixed(&p, end, 4, big, &v[0]);
        break;
    case DWEXPR_OPND_S32:
        st = dwx_read_fixed(&p, end, 4, big, &v[0]);
        v[0] = sext(v[0], 4);
        break;
    case DWEXPR_OPND_U64:
    case DWEXPR_OPND_S64:
        st = dwx_read_fixed(&p, end, 8, big, &v[0]);
        break;
    case DWEXPR_OPND_ULEB:
        st = rd_uleb(&p, end, &v[0], &ln[0]);
        break;
    case DWEXPR_OPND_SLEB:
        st = rd_sleb(&p, end, &v[0], &ln[0]);
        break;
    case DWEXPR_OPND_ULEB_SLEB:
        st = rd_uleb(&p, end, &v[0], &ln[0]);
        if (st == DWEXPR_OK)
            st = rd_sleb(&p, end, &v[1], &ln[1]);
        break;
    case DWEXPR_OPND_ULEB_ULEB:
        st = rd_uleb(&p, end, &v[0], &ln[0]);
        if (st == DWEXPR_OK)
            st = rd_uleb(&p, end, &v[1], &ln[1]);
        break;
    case DWEXPR_OPND_BLOCK:
        /* DWARF 5 2.5.1.6 / 2.5.1.7: ULEB128 length, then the bytes */
        st = rd_uleb(&p, end, &v[0], &ln[0]);
        if (st == DWEXPR_OK) {
            if (v[0] > (uint64_t)(end - p))
                return FAIL(DWEXPR_E_TRUNCATED, opc,
                            "%s: %llu-byte block runs past the end of the expression "
                            "(%llu bytes left)", dwexpr_op_info(id)->name,
                            (unsigned long long)v[0], (unsigned long long)(end - p));
            op->block = p;
            op->block_len = v[0];
            p += v[0];
        }
        break;
    case DWEXPR_OPND_CONST_TYPE:
        /* DWARF 5 2.5.1.1: ULEB128 type DIE, 1-byte size, that many bytes */
        st = rd_uleb(&p, end, &v[0], &ln[0]);
        if (st == DWEXPR_OK)
            st = dwx_read_fixed(&p, end, 1, big, &v[1]);
        if (st == DWEXPR_OK) {
            if (v[1] > (uint64_t)(end - p))
                return FAIL(DWEXPR_E_TRUNCATED, opc,
                            "%s: %llu-byte constant runs past the end of the expression "
                            "(%llu bytes left)", dwexpr_op_info(id)->name,
                            (unsigned long long)v[1], (unsigned long long)(end - p));
            op->block = p;
            op->block_len = v[1];
            p += v[1];
        }
        break;
    case DWEXPR_OPND_U8_ULEB:
        st = dwx_read_fixed(&p, end, 1, big, &v[0]);
        if (st == DWEXPR_OK)
            st = rd_uleb(&p, end, &v[1], &ln[1]);
        break;
    case DWEXPR_OPND_REF:
        st = dwx_read_fixed(&p, end, s->ref_size, big, &v[0]);
        break;
    case DWEXPR_OPND_REF_SLEB:
        st = dwx_read_fixed(&p, end, s->ref_size, big, &v[0]);
        if (st == DWEXPR_OK)
            st = rd_sleb(&p, end, &v[1], &ln[1]);
        break;
    case DWEXPR_OPND_ENCODED_ADDR:
        st = dwx_read_fixed(&p, end, 1, big, &v[0]);
        if (st == DWEXPR_OK) {
            st = rd_encoded(s, &p, (uint8_t)v[0], &v[1], &ln[1]);
            if (st == DWEXPR_E_BAD_OPERAND && ln[1] == 0)
                return FAIL(st, opc, "DW_OP_GNU_encoded_addr: unsupported DW_EH_PE "
                            "encoding 0x%02x", (unsigned)v[0]);
        }
        break;
    default:
        return FAIL(DWEXPR_E_BAD_OPERAND, opc, "internal: bad operand layout");
    }
    if (st != DWEXPR_OK)
        return FAIL(st, opc, "%s: %s", dwexpr_op_info(id)->name, operand_problem(st));
    if (dwx_operand_style((dwexpr_opid)id, 0) == DWX_STYLE_REG && v[0] > UINT32_MAX)
        return FAIL(DWEXPR_E_BAD_OPERAND, opc, "%s: register number %llu does not fit 32 bits",
                    dwexpr_op_info(id)->name, (unsigned long long)v[0]);
    op->size = (uint32_t)(p - (s->base + pos));
    return DWEXPR_OK;
}

/* The operation the evaluator runs for ID (lib/dwx.h: families folded,
 * GNU spellings mapped to their DWARF 5 operations), as a constant
 * expression so the fast decode table below is built at compile time. */
#define DWX_IN(id, lo, hi) ((id) >= DWEXPR_OP_##lo && (id) <= DWEXPR_OP_##hi)
#define DWX_FOLD(id)                                                                   \
    (DWX_IN(id, lit0, lit31) || DWX_IN(id, const1u, consts) ? DWEXPR_OP_lit0           \
     : DWX_IN(id, reg0, reg31) || (id) == DWEXPR_OP_regx    ? DWEXPR_OP_reg0           \
     : DWX_IN(id, breg0, breg31) || (id) == DWEXPR_OP_bregx ? DWEXPR_OP_breg0          \
     : (id) == DWEXPR_OP_GNU_push_tls_address ? DWEXPR_OP_form_tls_address             \
     : (id) == DWEXPR_OP_GNU_implicit_pointer ? DWEXPR_OP_implicit_pointer              \
     : (id) == DWEXPR_OP_GNU_entry_value      ? DWEXPR_OP_entry_value                   \
     : (id) == DWEXPR_OP_GNU_const_type       ? DWEXPR_OP_const_type                    \
     : (id) == DWEXPR_OP_GNU_regval_type      ? DWEXPR_OP_regval_type                   \
     : (id) == DWEXPR_OP_GNU_deref_type       ? DWEXPR_OP_deref_type                    \
     : (id) == DWEXPR_OP_GNU_convert          ? DWEXPR_OP_convert                       \
     : (id) == DWEXPR_OP_GNU_reinterpret      ? DWEXPR_OP_reinterpret                   \
     : (id) == DWEXPR_OP_GNU_addr_index       ? DWEXPR_OP_addrx                         \
     : (id) == DWEXPR_OP_GNU_const_index      ? DWEXPR_OP_constx                        \
     : (id) == DWEXPR_OP_GNU_encoded_addr     ? DWEXPR_OP_addr                          \
     : (id) == DWEXPR_OP_LLVM_nop             ? DWEXPR_OP_nop                           \
                                              : (id))
/* The number a litN / regN / bregN carries in its opcode. */
#define DWX_IMM(id)                                                                    \
    (DWX_IN(id, lit0, lit31)     ? (id) - DWEXPR_OP_lit0                               \
     : DWX_IN(id, reg0, reg31)   ? (id) - DWEXPR_OP_reg0                               \
     : DWX_IN(id, breg0, breg31) ? (id) - DWEXPR_OP_breg0                              \
                                 : 0)
#define DWX_HAS_IMM(id) (DWX_IN(id, lit0, lit31) || DWX_IN(id, reg0, reg31) || DWX_IN(id, breg0, breg31))

static uint16_t fold_id(dwexpr_opid id)
{
    return (uint16_t)DWX_FOLD(id);
}

/* ---- the fast path (no public ops, little-endian units) ----
 * One table entry per opcode byte and DW_OP_LLVM_* encoding: the folded
 * operation, its operand layout + 1 (0: take the general path, which also
 * produces every error) and the number carried in the opcode. Typed
 * constants, DIE references and the DW_OP_LLVM_user prefix take the
 * general path. */
typedef struct fast_op {
    uint16_t id, x;
    uint8_t layout; /* dwexpr_operands + 1; 0 = general path */
    uint8_t imm;
    uint8_t has_imm;
} fast_op;

#define DWX_FAST_LAYOUT(o)                                                              \
    (DWEXPR_OPND_##o == DWEXPR_OPND_CONST_TYPE ||                                      \
             DWEXPR_OPND_##o == DWEXPR_OPND_REF || DWEXPR_OPND_##o == DWEXPR_OPND_REF_SLEB || \
             DWEXPR_OPND_##o == DWEXPR_OPND_ENCODED_ADDR                                  \
         ? 0                                                                            \
         : DWEXPR_OPND_##o + 1)
/* In the llvm-user encoding the provisional bytes 0xe1..0xec are no
 * operation of ours (vendor bytes): the general path reports them. */
#define DWX_FAST_ENTRY(n, c, llvm_user)                                                 \
    [(c) ? (c) : 256 + DWEXPR_OP_##n] = {                                                \
        DWEXPR_OP_##n, DWX_FOLD(DWEXPR_OP_##n),                                          \
        (llvm_user && (c) >= 0xe1 && (c) <= 0xec) || !(c) ? 0 : DWX_FAST_LAYOUT_OF_##n,  \
        DWX_IMM(DWEXPR_OP_##n), DWX_HAS_IMM(DWEXPR_OP_##n)},

enum {
#define DWX_X(n, c, s, o, d) DWX_FAST_LAYOUT_OF_##n = DWX_FAST_LAYOUT(o),
    DWEXPR_OPS(DWX_X)
#undef DWX_X
};

static const fast_op fast_tab[2][256 + DWEXPR_OP_COUNT] = {
    [DWEXPR_EXT_LLVM_USER] = {
#define DWX_X(n, c, s, o, d) DWX_FAST_ENTRY(n, c, 1)
        DWEXPR_OPS(DWX_X)
#undef DWX_X
    },
    [DWEXPR_EXT_PROVISIONAL] = {
#define DWX_X(n, c, s, o, d) DWX_FAST_ENTRY(n, c, 0)
        DWEXPR_OPS(DWX_X)
#undef DWX_X
    },
};

/* LEB128 operands on the fast path: the general readers (1-byte fast path
 * inside); any problem sends the operation to the general path. */
static inline bool fast_uleb(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    uint8_t n;
    return rd_uleb(p, end, v, &n) == DWEXPR_OK;
}

static inline bool fast_sleb(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    uint8_t n;
    return rd_sleb(p, end, v, &n) == DWEXPR_OK;
}

/* Decode the operation at POS into IN by the table; returns its size, or 0
 * when the general path must decode it (or report its error). */
static size_t fast_one(const uint8_t *base, const uint8_t *end, size_t pos,
                       const dwexpr_unit *u, dwx_insn *in)
{
    const uint8_t *p = base + pos;
    const fast_op *f = &fast_tab[u->ext_encoding & 1][*p++];
    if (!f->layout)
        return 0;
    uint64_t v0 = 0, v1 = 0;
    const uint8_t *blk = NULL;
    bool ok = true;
    switch ((dwexpr_operands)(f->layout - 1)) {
    case DWEXPR_OPND_NONE: break;
    case DWEXPR_OPND_ADDR: ok = dwx_fixed_le(&p, end, u->addr_size, &v0); break;
    case DWEXPR_OPND_U8: ok = dwx_fixed_le(&p, end, 1, &v0); break;
    case DWEXPR_OPND_S8: ok = dwx_fixed_le(&p, end, 1, &v0); v0 = sext(v0, 1); break;
    case DWEXPR_OPND_U16: ok = dwx_fixed_le(&p, end, 2, &v0); break;
    case DWEXPR_OPND_S16:
    case DWEXPR_OPND_SKIP: ok = dwx_fixed_le(&p, end, 2, &v0); v0 = sext(v0, 2); break;
    case DWEXPR_OPND_U32: ok = dwx_fixed_le(&p, end, 4, &v0); break;
    case DWEXPR_OPND_S32: ok = dwx_fixed_le(&p, end, 4, &v0); v0 = sext(v0, 4); break;
    case DWEXPR_OPND_U64:
    case DWEXPR_OPND_S64: ok = dwx_fixed_le(&p, end, 8, &v0); break;
    case DWEXPR_OPND_ULEB: ok = fast_uleb(&p, end, &v0) && v0 <= UINT32_MAX; break;
    case DWEXPR_OPND_SLEB: ok = fast_sleb(&p, end, &v0); break;
    case DWEXPR_OPND_ULEB_SLEB:
        ok = fast_uleb(&p, end, &v0) && v0 <= UINT32_MAX && fast_sleb(&p, end, &v1);
        break;
    case DWEXPR_OPND_ULEB_ULEB:
        ok = fast_uleb(&p, end, &v0) && v0 <= UINT32_MAX && fast_uleb(&p, end, &v1);
        break;
    case DWEXPR_OPND_U8_ULEB: ok = dwx_fixed_le(&p, end, 1, &v0) && fast_uleb(&p, end, &v1); break;
    case DWEXPR_OPND_BLOCK:
        /* DWARF 5 2.5.1.6 / 2.5.1.7: ULEB128 length, then the bytes */
        ok = fast_uleb(&p, end, &v0) && v0 <= (uint64_t)(end - p);
        if (ok) {
            blk = p;
            p += v0;
        }
        break;
    default: return 0;
    }
    if (!ok)
        return 0; /* the general path reports the problem precisely */
    in->x = f->x;
    in->id = f->id;
    in->offset = (uint32_t)pos;
    if (f->has_imm) {
        in->a = f->imm;
        in->b = v0;
    } else {
        in->a = v0;
        in->b = v1;
    }
    in->c = 0;
    in->blk = blk;
    in->blen = blk ? v0 : 0;
    in->sub = NULL;
    return (size_t)(p - (base + pos));
}

/* The commonest operations of real location expressions, decoded without
 * the table: DW_OP_lit*, DW_OP_const1u..const4s, DW_OP_reg*, DW_OP_breg*,
 * DW_OP_fbreg and DW_OP_consts with a one-byte SLEB128, DW_OP_piece and
 * DW_OP_constu with a one-byte ULEB128, DW_OP_stack_value,
 * DW_OP_call_frame_cfa (the same bytes in both DW_OP_LLVM_* encodings). Fills IN exactly as
 * fast_one does; returns the size, or 0 for anything else. */
static inline size_t small_one(const uint8_t *base, const uint8_t *end, size_t pos, dwx_insn *in)
{
    const uint8_t *p = base + pos;
    const unsigned op = p[0];
    uint64_t a, b = 0;
    unsigned x, id;
    size_t n = 1;
    if (op >= DWX_CODE_lit0 && op <= DWX_CODE_lit31) {
        x = DWEXPR_OP_lit0;
        id = DWEXPR_OP_lit0 + (op - DWX_CODE_lit0);
        a = op - DWX_CODE_lit0;
    } else if (op >= DWX_CODE_reg0 && op <= DWX_CODE_reg31) {
        x = DWEXPR_OP_reg0;
        id = DWEXPR_OP_reg0 + (op - DWX_CODE_reg0);
        a = op - DWX_CODE_reg0;
    } else if (op == DWX_CODE_stack_value || op == DWX_CODE_call_frame_cfa) {
        x = id = op == DWX_CODE_stack_value ? DWEXPR_OP_stack_value : DWEXPR_OP_call_frame_cfa;
        a = 0;
    } else if (op >= DWX_CODE_const1u && op <= DWX_CODE_const4s) {
        /* 1, 2 or 4 bytes, little-endian; the odd opcodes are signed */
        static const uint16_t ids[6] = {DWEXPR_OP_const1u, DWEXPR_OP_const1s, DWEXPR_OP_const2u,
                                        DWEXPR_OP_const2s, DWEXPR_OP_const4u, DWEXPR_OP_const4s};
        const unsigned w = 1u << ((op - DWX_CODE_const1u) >> 1);
        if ((size_t)(end - p) < 1 + w)
            return 0;
        uint64_t v = 0;
        for (unsigned i = 0; i < w; i++)
            v |= (uint64_t)p[1 + i] << (8 * i);
        if ((op - DWX_CODE_const1u) & 1)
            v = sext(v, w);
        x = DWEXPR_OP_lit0;
        id = ids[op - DWX_CODE_const1u];
        a = v;
        n = 1 + w;
    } else {
        /* one operand byte below 0x80 */
        if (end - p < 2 || p[1] >= 0x80)
            return 0;
        const uint64_t u = p[1], sv = (u & 0x40) ? u | ~(uint64_t)0x7f : u;
        n = 2;
        if (op >= DWX_CODE_breg0 && op <= DWX_CODE_breg31) {
            x = DWEXPR_OP_breg0;
            id = DWEXPR_OP_breg0 + (op - DWX_CODE_breg0);
            a = op - DWX_CODE_breg0;
            b = sv;
        } else if (op == DWX_CODE_fbreg) {
            x = id = DWEXPR_OP_fbreg;
            a = sv;
        } else if (op == DWX_CODE_piece) {
            x = id = DWEXPR_OP_piece;
            a = u;
        } else if (op == DWX_CODE_constu || op == DWX_CODE_consts) {
            x = DWEXPR_OP_lit0;
            id = op == DWX_CODE_constu ? DWEXPR_OP_constu : DWEXPR_OP_consts;
            a = op == DWX_CODE_constu ? u : sv;
        } else {
            return 0;
        }
    }
    in->x = (uint16_t)x;
    in->id = (uint16_t)id;
    in->offset = (uint32_t)pos;
    in->a = a;
    in->b = b;
    in->c = 0;
    in->blk = NULL;
    in->blen = 0;
    in->sub = NULL;
    return n;
}

/* See lib/dwx.h. */
size_t dwx_decode_small(const uint8_t *bytes, size_t len, dwx_insn *insns)
{
    const uint8_t *end = bytes + len;
    size_t pos = 0, count = 0;
    while (pos < len) {
        dwx_insn *in = &insns[count];
        size_t n = small_one(bytes, end, pos, in);
        if (!n) {
            /* DW_OP_entry_value / DW_OP_GNU_entry_value of one DW_OP_reg0..31
             * byte: what fast_one gives, the block left for the evaluator
             * (decode_prog's lazy rule) */
            const uint8_t *p = bytes + pos;
            if (len - pos < 3 || (p[0] != DWX_CODE_entry_value && p[0] != DWX_CODE_GNU_entry_value) ||
                p[1] != 1 || p[2] < DWX_CODE_reg0 || p[2] > DWX_CODE_reg31)
                return 0;
            in->x = DWEXPR_OP_entry_value;
            in->id = p[0] == DWX_CODE_entry_value ? DWEXPR_OP_entry_value
                                                  : DWEXPR_OP_GNU_entry_value;
            in->offset = (uint32_t)pos;
            in->a = 1;
            in->b = 0;
            in->c = 0;
            in->blk = p + 2;
            in->blen = 1;
            in->sub = NULL;
            n = 3;
        }
        count++;
        pos += n;
    }
    dwx_insn *e = &insns[count];
    memset(e, 0, sizeof *e);
    e->x = DWEXPR_OP_COUNT;
    e->id = DWEXPR_OP_COUNT;
    e->offset = (uint32_t)len;
    return count;
}

/* Build the executable form of OP (branch targets are resolved later). */
static void fold(const dwexpr_op *op, const dwexpr_unit *u, dwx_insn *in)
{
    dwexpr_opid id = op->id;
    in->x = fold_id(id);
    in->id = (uint16_t)id;
    in->offset = op->offset;
    in->a = op->operand[0];
    in->b = op->operand[1];
    in->c = op->operand[2];
    in->blk = op->block;
    in->blen = op->block_len;
    in->sub = NULL;
    if (id >= DWEXPR_OP_lit0 && id <= DWEXPR_OP_lit31) {
        in->a = (uint64_t)(id - DWEXPR_OP_lit0);
    } else if (id >= DWEXPR_OP_reg0 && id <= DWEXPR_OP_reg31) {
        in->a = (uint64_t)(id - DWEXPR_OP_reg0);
    } else if (id >= DWEXPR_OP_breg0 && id <= DWEXPR_OP_breg31) {
        in->a = (uint64_t)(id - DWEXPR_OP_breg0);
        in->b = op->operand[0];
    } else if (id == DWEXPR_OP_GNU_encoded_addr) {
        /* an address of the unit's size, like DW_OP_addr's operand */
        in->a = op->operand[1];
        if (u->addr_size < 8)
            in->a &= ((uint64_t)1 << (8 * u->addr_size)) - 1;
        in->b = 0;
    }
}

/* Round N up for the alignment of any object. */
static size_t align_up(size_t n)
{
    const size_t a = _Alignof(max_align_t);
    return (n + a - 1) & ~(a - 1);
}

static dwexpr_status decode_prog(const uint8_t *bytes, size_t len, const dwexpr_unit *u,
                                 dwx_insn *insns, dwexpr_op *ops, dwx_alloc_fn alloc,
                                 void *ud, struct dwexpr_program *prog, dwexpr_error *err,
                                 unsigned depth, bool lazy);

/* Decode the entry_value block of IN into a freshly allocated program
 * (DWARF 5 2.5.1.7: the block is itself a DWARF expression). Problems
 * inside are reported at the entry_value operation with the inner offset
 * in the message. */
static dwexpr_status decode_sub(const dwexpr_unit *u, dwx_insn *in, dwx_alloc_fn alloc,
                                void *ud, dwexpr_error *err, unsigned depth)
{
    const size_t pos = in->offset;
    const unsigned id = in->id;
    const int opc = dwexpr_op_info(in->id)->code;
    if (depth + 1 >= DWX_MAX_NEST)
        return FAIL(DWEXPR_E_CALL_DEPTH, opc, "%s blocks nested more than %d deep",
                    dwexpr_op_info(id)->name, DWX_MAX_NEST - 1);
    size_t n = (size_t)in->blen + 1; /* blen <= the outer length, checked to fit */
    if (n > (SIZE_MAX - 256) / sizeof(dwx_insn))
        return FAIL(DWEXPR_E_NOSPACE, opc, "%s: block too large", dwexpr_op_info(id)->name);
    size_t size = align_up(sizeof(struct dwexpr_program)) + align_up(n * sizeof(dwx_insn));
    uint8_t *mem = alloc(ud, size);
    if (!mem)
        return FAIL(DWEXPR_E_NOSPACE, opc, "%s: no memory for the decoded block",
                    dwexpr_op_info(id)->name);
    struct dwexpr_program *sub = (struct dwexpr_program *)mem;
    dwx_insn *code = (dwx_insn *)(mem + align_up(sizeof *sub));
    dwexpr_error inner;
    dwexpr_status st = decode_prog(in->blk, (size_t)in->blen, u, code, NULL, alloc, ud, sub,
                                   err ? &inner : NULL, depth + 1, false);
    if (st != DWEXPR_OK) {
        if (!err)
            return st;
        return FAIL(st, opc, "%s block, offset 0x%llx: %s", dwexpr_op_info(id)->name,
                    (unsigned long long)inner.offset, inner.message);
    }
    in->sub = sub;
    return DWEXPR_OK;
}

/* Index of the operation starting at byte TARGET, or -1 (binary search:
 * operations are in offset order). */
static long find_insn(const dwx_insn *code, size_t count, uint64_t target)
{
    size_t lo = 0, hi = count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (code[mid].offset < target)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (lo < count && code[lo].offset == target) ? (long)lo : -1;
}

/* Decode LEN bytes in normalized unit U at nesting DEPTH; see dwx_decode. */
static dwexpr_status decode_prog(const uint8_t *bytes, size_t len, const dwexpr_unit *u,
                                 dwx_insn *insns, dwexpr_op *ops, dwx_alloc_fn alloc,
                                 void *ud, struct dwexpr_program *prog, dwexpr_error *err,
                                 unsigned depth, bool lazy)
{
    dstate s = {bytes, len ? bytes + len : bytes, u, dwx_ref_size(u)};
    size_t count = 0, pos = 0;
    dwexpr_op tmp;

    prog->unit = *u;
    prog->code = insns;
    prog->bytes = bytes;
    prog->len = len;
    prog->heap = false;
    prog->bad_branch = false;
    prog->tape = NULL;
    prog->count = 0;
    /* the table-driven path serves evaluation-only decodes (no public ops)
     * of little-endian units; everything else is decoded in full */
    const bool fast = ops == NULL && !u->big_endian;
    bool branches = false;
    while (pos < len) {
        if (fast) {
            dwx_insn *in = &insns[count];
            size_t n = small_one(bytes, s.end, pos, in);
            if (n) {
                prog->count = ++count;
                pos += n;
                continue;
            }
            n = fast_one(bytes, s.end, pos, u, in);
            if (n) {
                branches |= in->x == DWEXPR_OP_skip || in->x == DWEXPR_OP_bra;
                prog->count = ++count;
                /* LAZY (the evaluator's one-shot decode): a block of one
                 * DW_OP_reg0..31 byte is valid as it is; the evaluator
                 * decodes it only if the target has no answer */
                if (in->x == DWEXPR_OP_entry_value && alloc &&
                    !(lazy && in->blen == 1 && in->blk[0] >= DWX_CODE_reg0 &&
                      in->blk[0] <= DWX_CODE_reg31)) {
                    dwexpr_status st = decode_sub(u, in, alloc, ud, err, depth);
                    if (st != DWEXPR_OK)
                        return st;
                }
                pos += n;
                continue;
            }
        }
        dwexpr_op *op = ops ? &ops[count] : &tmp;
        dwexpr_status st = decode_at(&s, pos, op, err);
        if (st != DWEXPR_OK)
            return st;
        dwx_insn *in = &insns[count];
        fold(op, u, in);
        branches |= in->x == DWEXPR_OP_skip || in->x == DWEXPR_OP_bra;
        count++;
        prog->count = count; /* what a failed decode must release */
        if (in->x == DWEXPR_OP_entry_value && alloc) {
            st = decode_sub(u, in, alloc, ud, err, depth);
            if (st != DWEXPR_OK)
                return st;
        }
        pos += op->size;
    }

    /* seed "Control Flow Operations": a branch taken must land on the
     * first byte of an operation or just past the last one, else the
     * DWARF is ill-formed; a target is only "updated" when the branch is
     * taken (DW_OP_bra's condition not 0, DW_OP_skip reached), so a bad
     * one is kept, not refused: DWX_BAD_TARGET with its reason in b and
     * the target in c, for dwx_bad_branch when it is taken (GDB, LLDB,
     * gimli and drgn evaluate such an expression when the branch is not
     * taken). */
    for (size_t i = 0; branches && i < count; i++) {
        dwx_insn *in = &insns[i];
        if (in->x != DWEXPR_OP_skip && in->x != DWEXPR_OP_bra)
            continue;
        int64_t target = (int64_t)in->offset + 3 + (int64_t)in->a;
        long k = -1;
        if (target < 0)
            in->b = DWX_BRANCH_BEFORE;
        else if ((uint64_t)target > len)
            in->b = DWX_BRANCH_PAST;
        else if ((uint64_t)target == len)
            k = (long)count;
        else if ((k = find_insn(insns, count, (uint64_t)target)) < 0)
            in->b = DWX_BRANCH_INSIDE;
        in->c = (uint64_t)target;
        in->a = k < 0 ? DWX_BAD_TARGET : (uint64_t)k;
        prog->bad_branch |= k < 0;
    }

    dwx_insn *e = &insns[count];
    memset(e, 0, sizeof *e);
    e->x = DWEXPR_OP_COUNT;
    e->id = DWEXPR_OP_COUNT;
    e->offset = (uint32_t)len;
    return DWEXPR_OK;
}

/* Decode LEN bytes into caller storage (see lib/dwx.h). OPS may be NULL
 * when only the executable form is wanted. ALLOC must return memory
 * aligned for any object; nested programs carry no ops (their ops field is
 * NULL) and their offsets are relative to their block. On failure
 * prog->count is the number of operations decoded (whose sub programs, if
 * any, were allocated). */
dwexpr_status dwx_decode_checked(const uint8_t *bytes, size_t len, const dwexpr_unit *u,
                                 dwx_insn *insns, dwx_alloc_fn alloc, void *ud,
                                 struct dwexpr_program *prog, dwexpr_error *err)
{
    prog->heap = false;
    dwexpr_status st = decode_prog(bytes, len, u, insns, NULL, alloc, ud, prog, err, 0, true);
    if (st)
        return st;
    prog->shape = dwx_program_shape(prog);
    return DWEXPR_OK;
}

dwexpr_status dwx_decode(const uint8_t *bytes, size_t len, const dwexpr_unit *unit,
                         dwx_insn *insns, dwexpr_op *ops,
                         dwx_alloc_fn alloc, void *ud,
                         struct dwexpr_program *prog, dwexpr_error *err)
{
    dwexpr_unit u = dwx_unit_normalize(unit);
    memset(prog, 0, sizeof *prog);
    prog->code = insns;
    dwexpr_status st = dwx_unit_check(&u, err);
    if (st != DWEXPR_OK)
        return st;
    if (len && !bytes)
        return dwx_fail(err, DWEXPR_E_USAGE, -1, DWEXPR_OP_COUNT, "no expression bytes");
    if (len > UINT32_MAX)
        return dwx_fail(err, DWEXPR_E_TOO_BIG, -1, DWEXPR_OP_COUNT,
                        "expression of %zu bytes is too large", len);
    if ((st = decode_prog(bytes, len, &u, insns, ops, alloc, ud, prog, err, 0, false)))
        return st;
    prog->shape = dwx_program_shape(prog);
    prog->fast = dwx_fast_candidate(prog);
    prog->one = dwx_fast_one_kind(prog);
    return DWEXPR_OK;
}

/* Decode the single operation at POS (no nested blocks, no branch
 * checks): what a disassembler needs to print streams that fail later. */
dwexpr_status dwx_decode_one(const uint8_t *bytes, size_t len, size_t pos,
                             const dwexpr_unit *unit, dwexpr_op *op, dwexpr_error *err)
{
    dwexpr_unit u = dwx_unit_normalize(unit);
    dwexpr_status st = dwx_unit_check(&u, err);
    if (st != DWEXPR_OK)
        return st;
    if (!bytes || pos >= len || len > UINT32_MAX)
        return dwx_fail(err, DWEXPR_E_USAGE, (int64_t)pos, DWEXPR_OP_COUNT,
                        "no operation at offset %zu", pos);
    dstate s = {bytes, bytes + len, &u, dwx_ref_size(&u)};
    return decode_at(&s, pos, op, err);
}

/* ---- heap programs (dwexpr_program_decode) ----
 * One malloc block holds the program, its insns and ops; each nested
 * entry_value program is one more block, chained from the top one so that
 * a failed decode can free everything it allocated. */
typedef union chunk {
    union chunk *next;
    max_align_t align;
} chunk;

typedef struct heap_prog {
    chunk *subs;                 /* nested blocks, newest first */
    struct dwexpr_program prog;
} heap_prog;

/* dwx_alloc_fn over malloc that records each block in the chain. */
static void *chain_alloc(void *ud, size_t size)
{
    chunk **head = ud;
    if (size > SIZE_MAX - sizeof(chunk))
        return NULL;
    chunk *c = malloc(sizeof(chunk) + size);
    if (!c)
        return NULL;
    c->next = *head;
    *head = c;
    return c + 1;
}

/* Free a chain of nested blocks. */
static void chain_free(chunk *c)
{
    while (c) {
        chunk *next = c->next;
        free(c);
        c = next;
    }
}

/* Room kept right after the program header for a folded result of one
 * place (lib/fold.c), so that a warm evaluation of it touches one piece
 * of memory; composites and longer expressions go to the chain. */
#define FOLD_INLINE (sizeof(dwx_folded) + sizeof(dwexpr_sld) + 16)

typedef struct fold_room {
    uint8_t *room;         /* FOLD_INLINE bytes, or NULL once used */
    chunk **chain;
} fold_room;

/* dwx_alloc_fn for dwx_fold: the inline room when it is big enough. */
static void *fold_alloc(void *ud, size_t size)
{
    fold_room *r = ud;
    if (r->room && size <= FOLD_INLINE) {
        void *p = r->room;
        r->room = NULL;
        return p;
    }
    return chain_alloc(r->chain, size);
}

/* The commonest programs, decoded without the general decoder's set-up:
 * every operation one that dwx_decode_small reads (short expressions of
 * a unit dwx_unit_check accepts; its entry_value blocks of one
 * DW_OP_reg0..31 byte decoded as decode_prog decodes them for a heap
 * program), into INSNS (room for LEN + 1) and *P with dwx_decode's
 * fields. DWEXPR_E_UNSUPPORTED for anything else (dwx_decode then decodes
 * it, and reports what is wrong). */
static dwexpr_status small_program(const uint8_t *bytes, size_t len, const dwexpr_unit *unit,
                                   dwx_insn *insns, chunk **subs, struct dwexpr_program *p,
                                   dwexpr_error *err)
{
    size_t n;
    if (!unit || !bytes || !len || unit->big_endian || !dwx_unit_fine(unit) ||
        !(n = dwx_decode_small(bytes, len, insns)))
        return DWEXPR_E_UNSUPPORTED;
    p->unit = dwx_unit_normalize(unit);
    p->count = n;
    p->code = insns;
    p->bytes = bytes;
    p->len = len;
    p->heap = false;
    p->bad_branch = false; /* dwx_decode_small takes no branch */
    p->fold = NULL;
    p->tape = NULL;
    for (size_t i = 0; i < n; i++) {
        dwexpr_status st;
        if (insns[i].x == DWEXPR_OP_entry_value &&
            (st = decode_sub(&p->unit, &insns[i], chain_alloc, subs, err, 0)))
            return st;
    }
    p->shape = dwx_program_shape(p);
    p->fast = dwx_fast_candidate(p);
    p->one = dwx_fast_one_kind(p);
    return DWEXPR_OK;
}

/* Decode into one malloc'ed program (see include/dwexpr/eval.h): first
 * into scratch with room for LEN operations (each is at least one byte),
 * then into a block of exactly the program's size (header, the room for
 * a folded result when it may have one, operations), so that pre-decoded
 * programs take little memory. The public view of an operation is not
 * kept: dwexpr_program_op decodes it again from the bytes, which the
 * program borrows anyway. */
dwexpr_status dwexpr_program_decode(const uint8_t *bytes, size_t len,
                                    const dwexpr_unit *unit,
                                    dwexpr_program **out, dwexpr_error *err)
{
    if (!out)
        return dwx_fail(err, DWEXPR_E_USAGE, -1, DWEXPR_OP_COUNT, "no output pointer");
    *out = NULL;
    if (len > UINT32_MAX)
        return dwx_fail(err, DWEXPR_E_TOO_BIG, -1, DWEXPR_OP_COUNT,
                        "expression of %zu bytes is too large", len);
    enum { LOCAL = 24 }; /* scratch on the stack for expressions of up to LOCAL bytes */
    dwx_insn local_insns[LOCAL + 1];
    dwx_insn *ti = local_insns;
    void *tmp = NULL;
    const size_t n = len + 1;
    if (n > LOCAL + 1) {
        if (n > SIZE_MAX / sizeof(dwx_insn))
            return dwx_fail(err, DWEXPR_E_NOMEM, -1, DWEXPR_OP_COUNT, "expression too large");
        tmp = malloc(n * sizeof(dwx_insn));
        if (!tmp)
            return dwx_fail(err, DWEXPR_E_NOMEM, -1, DWEXPR_OP_COUNT, "out of memory");
        ti = tmp;
    }
    chunk *subs = NULL;
    struct dwexpr_program p;
    dwexpr_status st = small_program(bytes, len, unit, ti, &subs, &p, err);
    if (st == DWEXPR_E_UNSUPPORTED)
        st = dwx_decode(bytes, len, unit, ti, NULL, chain_alloc, &subs, &p, err);
    if (st != DWEXPR_OK) {
        if (st == DWEXPR_E_NOSPACE) {
            st = DWEXPR_E_NOMEM;
            if (err)
                err->status = st;
        }
        chain_free(subs);
        free(tmp);
        return st;
    }
    const size_t head = align_up(sizeof(heap_prog));
    const bool foldable = dwx_foldable(&p);
    const size_t fsz = len <= 64 && foldable ? align_up(FOLD_INLINE) : 0;
    const size_t isz = (p.count + 1) * sizeof(dwx_insn);
    /* a tape for warm evaluation (lib/tape.c), placed right after the
     * header below, for a program that needs the target (the others have
     * a fold) */
    union { uint64_t align; uint8_t b[DWX_TAPE_MAX]; } tape;
    const size_t tsz = foldable ? 0 : dwx_tape_compile(&p, tape.b, sizeof tape.b);
    uint8_t *mem = malloc(head + fsz + isz + tsz);
    if (!mem) {
        chain_free(subs);
        free(tmp);
        return dwx_fail(err, DWEXPR_E_NOMEM, -1, DWEXPR_OP_COUNT, "out of memory");
    }
    heap_prog *hp = (heap_prog *)mem;
    hp->subs = subs;
    hp->prog = p;
    /* the tape right after the header (a program with a tape has no
     * fold room): a warm evaluation reads the header and the tape, not
     * the operations */
    hp->prog.code = memcpy(mem + head + fsz + tsz, ti, isz);
    hp->prog.heap = true;
    if (tmp)
        free(tmp);
    hp->prog.fold = NULL;
    if (foldable) {
        fold_room fr = {fsz ? mem + head : NULL, &hp->subs};
        dwx_fold(&hp->prog, fold_alloc, &fr);
    }
    hp->prog.tape = tsz ? memcpy(mem + head + fsz, tape.b, tsz) : NULL;
    *out = &hp->prog;
    return DWEXPR_OK;
}

/* Free a program made by dwexpr_program_decode (others are ignored). */
void dwexpr_program_free(dwexpr_program *prog)
{
    if (!prog || !prog->heap)
        return;
    heap_prog *hp = (heap_prog *)((uint8_t *)prog - offsetof(heap_prog, prog));
    chain_free(hp->subs);
    free(hp);
}

/* Number of operations in PROG. */
size_t dwexpr_program_count(const dwexpr_program *prog)
{
    return prog ? prog->count : 0;
}

/* Operation I of PROG into *BUF, decoded again from the bytes at its
 * offset by the general reader (the one that validated it), so the view is
 * exactly what decoding gave; NULL when out of range. */
const dwexpr_op *dwexpr_program_op(const dwexpr_program *prog, size_t i, dwexpr_op *buf)
{
    if (!prog || !buf || i >= prog->count)
        return NULL;
    const dstate s = {prog->bytes, prog->bytes + prog->len, &prog->unit, dwx_ref_size(&prog->unit)};
    if (decode_at(&s, prog->code[i].offset, buf, NULL) != DWEXPR_OK)
        return NULL; /* not reached: the program decoded */
    return buf;
}

/* The (normalized) unit PROG was decoded for. */
const dwexpr_unit *dwexpr_program_unit(const dwexpr_program *prog)
{
    return prog ? &prog->unit : NULL;
}
