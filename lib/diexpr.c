/* lib/diexpr.c: the DIExpression front end (dwexpr/diexpr.h): parsing
 * LLVM's `!DIExpression(...)` text, binding a debug record's location
 * operands, lowering to DWARF the way LLVM's DwarfExpression does, and the
 * lowered program shared with the SPIR-V front end. Lowering builds the
 * text form and assembles it with dwexpr_asm, so DWARF operations are
 * named only by DWEXPR_OPS. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "dwx.h"
#include "dwexpr/diexpr.h"

/* ---- errors ---- */

/* Fill ERR (may be NULL) with status S at offset OFF (no operation of the
 * DWARF table) and a message; returns S. */
#define fail(err, s, off, ...) dwx_fail((err), (s), (off), DWEXPR_OP_COUNT, __VA_ARGS__)

/* ---- a growable string ---- */

typedef struct sbuf {
    char *s;
    size_t len, cap;
    bool oom;
} sbuf;

static void sb_add(sbuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void sb_add(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    if (b->oom)
        return;
    va_start(ap, fmt);
    int n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->oom = true;
        return;
    }
    if (!b->s || b->len + (size_t)n + 1 > b->cap) {
        size_t cap = (b->cap ? b->cap : 64);
        while (cap < b->len + (size_t)n + 1)
            cap *= 2;
        char *ns = realloc(b->s, cap);
        if (!ns) {
            b->oom = true;
            return;
        }
        b->s = ns;
        b->cap = cap;
        va_start(ap, fmt);
        vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
        va_end(ap);
    }
    b->len += (size_t)n;
}

/* ---- the operation tables ---- */

static const struct {
    const char *name;
    unsigned nops;
} diop_tab[DWEXPR_DIOP_COUNT] = {
#define DWX_X(n, k, d) {"DW_OP_" #n, k},
    DWEXPR_DIEXPR_OPS(DWX_X)
#undef DWX_X
};

/* The name of an LLVM-internal operation. */
const char *dwexpr_diop_name(dwexpr_diop op)
{
    return (unsigned)op < DWEXPR_DIOP_COUNT ? diop_tab[op].name : NULL;
}

/* DW_ATE_* names LLVM prints for DW_OP_LLVM_convert's encoding (DWARF 5
 * Table 7.11); values from dwexpr/value.h. */
static const struct {
    const char *name;
    unsigned ate;
} ate_tab[] = {
    {"DW_ATE_address", DW_ATE_address},       {"DW_ATE_boolean", DW_ATE_boolean},
    {"DW_ATE_complex_float", DW_ATE_complex_float}, {"DW_ATE_float", DW_ATE_float},
    {"DW_ATE_signed", DW_ATE_signed},         {"DW_ATE_signed_char", DW_ATE_signed_char},
    {"DW_ATE_unsigned", DW_ATE_unsigned},     {"DW_ATE_unsigned_char", DW_ATE_unsigned_char},
    {"DW_ATE_UTF", DW_ATE_UTF},
};

static const char *ate_name(uint64_t ate)
{
    for (size_t i = 0; i < sizeof ate_tab / sizeof ate_tab[0]; i++)
        if (ate_tab[i].ate == ate)
            return ate_tab[i].name;
    return NULL;
}

/* Operand count of a DWARF operation in a DIExpression, or -1 when its
 * operands cannot be written there (blocks). DWARF 5 7.7.1 Table 7.9. */
static int dw_operand_count(dwexpr_opid id)
{
    switch (dwexpr_op_info(id)->operands) {
    case DWEXPR_OPND_NONE:
        return 0;
    case DWEXPR_OPND_ULEB_SLEB: case DWEXPR_OPND_ULEB_ULEB: case DWEXPR_OPND_U8_ULEB:
    case DWEXPR_OPND_REF_SLEB:
        return 2;
    case DWEXPR_OPND_BLOCK: case DWEXPR_OPND_CONST_TYPE: case DWEXPR_OPND_ENCODED_ADDR:
        return -1;
    default:
        return 1;
    }
}

/* Whether operand I of ID is signed (printed and read as int64). */
static bool dw_operand_signed(dwexpr_opid id, unsigned i)
{
    switch (dwexpr_op_info(id)->operands) {
    case DWEXPR_OPND_S8: case DWEXPR_OPND_S16: case DWEXPR_OPND_S32: case DWEXPR_OPND_S64:
    case DWEXPR_OPND_SLEB: case DWEXPR_OPND_SKIP:
        return true;
    case DWEXPR_OPND_ULEB_SLEB: case DWEXPR_OPND_REF_SLEB:
        return i == 1;
    default:
        return false;
    }
}

/* ---- location operands ---- */

static int parse_num(const char *s, uint64_t *out, bool *neg)
{
    bool n = false;
    if (*s == '-') {
        n = true;
        s++;
    }
    if (!(*s >= '0' && *s <= '9'))
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (*end || errno == ERANGE)
        return -1;
    if (n && v > (1ull << 63))
        return -1;
    *out = n ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    if (neg)
        *neg = n && v != 0;
    return 0;
}

/* Parse one location operand ("reg:6", "const:-8", "8", "addr:0x1000",
 * "undef"). */
dwexpr_status dwexpr_diarg_parse(const char *text, dwexpr_diarg *out)
{
    if (!text || !out)
        return DWEXPR_E_USAGE;
    memset(out, 0, sizeof *out);
    if (strcmp(text, "undef") == 0 || strcmp(text, "poison") == 0 || strcmp(text, "$noreg") == 0) {
        out->kind = DWEXPR_DIARG_UNDEF;
        return DWEXPR_OK;
    }
    const char *v = text;
    bool neg = false;
    if (strncmp(text, "reg:", 4) == 0) {
        out->kind = DWEXPR_DIARG_REG;
        v += 4;
    } else if (strncmp(text, "addr:", 5) == 0 || strncmp(text, "mem:", 4) == 0) {
        out->kind = DWEXPR_DIARG_ADDR;
        v = strchr(text, ':') + 1;
    } else {
        out->kind = DWEXPR_DIARG_CONST;
        if (strncmp(text, "const:", 6) == 0)
            v += 6;
    }
    if (parse_num(v, &out->value, &neg))
        return DWEXPR_E_SYNTAX;
    if (neg && out->kind != DWEXPR_DIARG_CONST)
        return DWEXPR_E_SYNTAX;
    if (out->kind == DWEXPR_DIARG_REG && out->value > UINT32_MAX)
        return DWEXPR_E_SYNTAX;
    out->is_signed = neg;
    return DWEXPR_OK;
}

/* ---- parsed expressions ---- */

struct dwexpr_diexpr {
    size_t count;
    dwexpr_diexpr_op *ops;
};

size_t dwexpr_diexpr_count(const dwexpr_diexpr *e)
{
    return e ? e->count : 0;
}

const dwexpr_diexpr_op *dwexpr_diexpr_get(const dwexpr_diexpr *e, size_t i)
{
    return e && i < e->count ? &e->ops[i] : NULL;
}

void dwexpr_diexpr_free(dwexpr_diexpr *e)
{
    if (e) {
        free(e->ops);
        free(e);
    }
}

static const char *op_name(const dwexpr_diexpr_op *op)
{
    return op->internal ? diop_tab[op->id].name : dwexpr_op_info((dwexpr_opid)op->id)->name;
}

static bool is_diop(const dwexpr_diexpr_op *op, dwexpr_diop d)
{
    return op->internal && op->id == (unsigned)d;
}

/* DW_OP_LLVM_arg 0: location operand 0. */
static bool is_arg0(const dwexpr_diexpr_op *op)
{
    return is_diop(op, DWEXPR_DIOP_LLVM_arg) && op->operand[0] == 0;
}

/* LLVM's placement rules (LangRef "DIExpression", DIExpression::isValid):
 * DW_OP_LLVM_fragment is last; DW_OP_stack_value and
 * DW_OP_LLVM_implicit_pointer are last or just before the fragment;
 * DW_OP_LLVM_entry_value is first, or second after DW_OP_LLVM_arg 0
 * (LLVM's variadic spelling of the same thing), and covers exactly 1
 * operation, the register location operand (isValid: "we support only
 * entry values of a simple register location"); DW_OP_swap is not the
 * whole expression (isValid: it needs more than the one implicit element
 * on the stack); operand values in range. WHERE maps an operation index to
 * the error offset (characters for text, the index otherwise). BIT_PIECE:
 * DW_OP_stack_value may also come just before DW_OP_bit_piece (the SPIR-V
 * front end: OpenCL.DebugInfo.100 3.6 gives Fragment "the same semantics
 * as BitPiece", so StackValue goes before either, the DWARF value piece). */
static dwexpr_status check_ops(const dwexpr_diexpr_op *ops, size_t n, const int64_t *where,
                               bool bit_piece, dwexpr_error *err)
{
    for (size_t i = 0; i < n; i++) {
        const dwexpr_diexpr_op *op = &ops[i];
        int64_t at = where ? where[i] : (int64_t)i;
        bool last = i + 1 == n;
        bool before_frag = i + 2 == n && is_diop(&ops[i + 1], DWEXPR_DIOP_LLVM_fragment);
        bool before_piece = bit_piece && !last && !ops[i + 1].internal &&
                            ops[i + 1].id == DWEXPR_OP_bit_piece;
        if (!op->internal) {
            if (op->id >= DWEXPR_OP_COUNT || dw_operand_count((dwexpr_opid)op->id) < 0)
                return fail(err, DWEXPR_E_SYNTAX, at, "operation %u cannot appear in a DIExpression",
                            op->id);
            if (op->nops != (unsigned)dw_operand_count((dwexpr_opid)op->id))
                return fail(err, DWEXPR_E_SYNTAX, at, "%s takes %d operand(s), not %u",
                            op_name(op), dw_operand_count((dwexpr_opid)op->id), op->nops);
            if (op->id == DWEXPR_OP_swap && n == 1)
                return fail(err, DWEXPR_E_SYNTAX, at,
                            "DW_OP_swap alone: the stack holds only the location operand, "
                            "there is nothing to swap it with (LLVM's DIExpression::isValid "
                            "refuses it)");
            if (op->id == DWEXPR_OP_stack_value && !last && !before_frag && !before_piece)
                return fail(err, DWEXPR_E_SYNTAX, at,
                            bit_piece ? "DW_OP_stack_value must be the last operation (or come "
                                        "just before DW_OP_bit_piece or DW_OP_LLVM_fragment)"
                                      : "DW_OP_stack_value must be the last operation (or come "
                                        "just before DW_OP_LLVM_fragment)");
            continue;
        }
        if (op->id >= DWEXPR_DIOP_COUNT)
            return fail(err, DWEXPR_E_SYNTAX, at, "unknown LLVM-internal operation %u", op->id);
        if (op->nops != diop_tab[op->id].nops)
            return fail(err, DWEXPR_E_SYNTAX, at, "%s takes %u operand(s), not %u", op_name(op),
                        diop_tab[op->id].nops, op->nops);
        switch ((dwexpr_diop)op->id) {
        case DWEXPR_DIOP_LLVM_fragment:
            if (!last)
                return fail(err, DWEXPR_E_SYNTAX, at,
                            "DW_OP_LLVM_fragment must be the last operation");
            if (op->operand[1] == 0 || op->operand[0] + op->operand[1] < op->operand[0])
                return fail(err, DWEXPR_E_SYNTAX, at,
                            "DW_OP_LLVM_fragment %" PRIu64 " %" PRIu64
                            ": the size must be positive and the end fit in 64 bits",
                            op->operand[0], op->operand[1]);
            break;
        case DWEXPR_DIOP_LLVM_implicit_pointer:
            if (!last && !before_frag)
                return fail(err, DWEXPR_E_SYNTAX, at,
                            "DW_OP_LLVM_implicit_pointer must be the last operation (or come "
                            "just before DW_OP_LLVM_fragment)");
            break;
        case DWEXPR_DIOP_LLVM_entry_value:
            if (i != 0 && !(i == 1 && is_arg0(&ops[0])))
                return fail(err, DWEXPR_E_SYNTAX, at,
                            "DW_OP_LLVM_entry_value must be the first operation (or follow "
                            "DW_OP_LLVM_arg 0)");
            /* N counts the operations the entry value covers, the
             * location operand included; LLVM takes only the register
             * itself (it cannot size a longer DW_OP_entry_value block) */
            if (op->operand[0] != 1)
                return fail(err, DWEXPR_E_SYNTAX, at,
                            "DW_OP_LLVM_entry_value %" PRIu64 ": N must be 1, the entry value "
                            "of the register location operand itself (LLVM's "
                            "DIExpression::isValid); operations after it apply to that value",
                            op->operand[0]);
            break;
        case DWEXPR_DIOP_LLVM_convert:
            if (op->operand[0] == 0 || op->operand[0] > 0xffff || op->operand[1] == 0 ||
                op->operand[1] > 0xff)
                return fail(err, DWEXPR_E_SYNTAX, at,
                            "DW_OP_LLVM_convert %" PRIu64 " %" PRIu64
                            ": needs a size of 1..65535 bits and a DW_ATE encoding",
                            op->operand[0], op->operand[1]);
            break;
        case DWEXPR_DIOP_LLVM_extract_bits_sext:
        case DWEXPR_DIOP_LLVM_extract_bits_zext:
            if (op->operand[1] == 0 || op->operand[0] > 64 || op->operand[1] > 64 ||
                op->operand[0] + op->operand[1] > 64)
                return fail(err, DWEXPR_E_SYNTAX, at,
                            "%s %" PRIu64 " %" PRIu64
                            ": needs a positive size and offset + size <= 64", op_name(op),
                            op->operand[0], op->operand[1]);
            break;
        case DWEXPR_DIOP_LLVM_arg:
            if (op->operand[0] > 0xffff)
                return fail(err, DWEXPR_E_SYNTAX, at, "DW_OP_LLVM_arg %" PRIu64 ": too large",
                            op->operand[0]);
            break;
        default:
            break;
        }
    }
    return DWEXPR_OK;
}

/* Build an expression from N operations, checked by check_ops (BIT_PIECE
 * as there). */
static dwexpr_status from_ops(const dwexpr_diexpr_op *ops, size_t n, bool bit_piece,
                              dwexpr_diexpr **out, dwexpr_error *err)
{
    if (!out || (n && !ops))
        return fail(err, DWEXPR_E_USAGE, -1, "dwexpr_diexpr_from_ops: bad arguments");
    *out = NULL;
    dwexpr_status s = check_ops(ops, n, NULL, bit_piece, err);
    if (s != DWEXPR_OK)
        return s;
    dwexpr_diexpr *e = calloc(1, sizeof *e);
    if (!e || !(e->ops = malloc((n ? n : 1) * sizeof *ops))) {
        free(e);
        return fail(err, DWEXPR_E_NOMEM, -1, "out of memory");
    }
    if (n)
        memcpy(e->ops, ops, n * sizeof *ops);
    e->count = n;
    *out = e;
    return DWEXPR_OK;
}

dwexpr_status dwexpr_diexpr_from_ops(const dwexpr_diexpr_op *ops, size_t n, dwexpr_diexpr **out,
                                     dwexpr_error *err)
{
    return from_ops(ops, n, false, out, err);
}

dwexpr_status dwx_diexpr_from_spirv_ops(const dwexpr_diexpr_op *ops, size_t n,
                                        dwexpr_diexpr **out, dwexpr_error *err)
{
    return from_ops(ops, n, true, out, err);
}

/* One comma-separated item of the text. */
typedef struct item {
    size_t off, len;
    bool is_num;
    uint64_t num;
    bool neg;
} item;

static bool ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static const char *skip_ws(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    return p;
}

/* Split "!DIExpression(a, b, ...)" into items. */
static dwexpr_status split_items(const char *text, item **items, size_t *nitems,
                                 dwexpr_error *err)
{
    const char *p = skip_ws(text);
    static const char kw[] = "DIExpression";
    *items = NULL;
    *nitems = 0;
    if (*p == '!')
        p++;
    if (strncmp(p, kw, sizeof kw - 1) != 0)
        return fail(err, DWEXPR_E_SYNTAX, p - text, "expected !DIExpression(...)");
    p = skip_ws(p + sizeof kw - 1);
    if (*p != '(')
        return fail(err, DWEXPR_E_SYNTAX, p - text, "expected '(' after DIExpression");
    p = skip_ws(p + 1);
    size_t cap = 0;
    item *v = NULL;
    if (*p == ')')
        goto close;
    for (;;) {
        item it = {(size_t)(p - text), 0, false, 0, false};
        const char *q = p;
        if (*q == '-' || (*q >= '0' && *q <= '9')) {
            q += *q == '-';
            while (ident_char(*q))
                q++;
            char tmp[40];
            size_t len = (size_t)(q - p);
            if (len >= sizeof tmp) {
                free(v);
                return fail(err, DWEXPR_E_SYNTAX, p - text, "number '%.*s...' is too long", 20, p);
            }
            memcpy(tmp, p, len);
            tmp[len] = 0;
            if (parse_num(tmp, &it.num, &it.neg)) {
                free(v);
                return fail(err, DWEXPR_E_SYNTAX, p - text, "bad number '%s'", tmp);
            }
            it.is_num = true;
        } else if ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || *q == '_') {
            while (ident_char(*q))
                q++;
        } else {
            free(v);
            if (!*q)
                return fail(err, DWEXPR_E_SYNTAX, q - text, "missing ')' at the end");
            return fail(err, DWEXPR_E_SYNTAX, q - text, "unexpected '%c'", *q);
        }
        it.len = (size_t)(q - p);
        if (*nitems == cap) {
            cap = cap ? cap * 2 : 16;
            item *nv = realloc(v, cap * sizeof *v);
            if (!nv) {
                free(v);
                return fail(err, DWEXPR_E_NOMEM, -1, "out of memory");
            }
            v = nv;
        }
        v[(*nitems)++] = it;
        p = skip_ws(q);
        if (*p == ',') {
            p = skip_ws(p + 1);
            continue;
        }
        if (*p == ')')
            break;
        free(v);
        if (!*p)
            return fail(err, DWEXPR_E_SYNTAX, p - text, "missing ')' at the end");
        return fail(err, DWEXPR_E_SYNTAX, p - text, "expected ',' or ')', got '%c'", *p);
    }
close:
    p = skip_ws(p + 1);
    if (*p) {
        free(v);
        return fail(err, DWEXPR_E_SYNTAX, p - text, "unexpected text after ')'");
    }
    *items = v;
    return DWEXPR_OK;
}

/* Parse the text form. */
dwexpr_status dwexpr_diexpr_parse(const char *text, dwexpr_diexpr **out, dwexpr_error *err)
{
    if (!text || !out)
        return fail(err, DWEXPR_E_USAGE, -1, "dwexpr_diexpr_parse: bad arguments");
    *out = NULL;
    item *items;
    size_t n;
    dwexpr_status s = split_items(text, &items, &n, err);
    if (s != DWEXPR_OK)
        return s;
    dwexpr_diexpr_op *ops = malloc((n ? n : 1) * sizeof *ops);
    int64_t *where = malloc((n ? n : 1) * sizeof *where);
    size_t nops = 0;
    if (!ops || !where) {
        s = fail(err, DWEXPR_E_NOMEM, -1, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < n;) {
        const item *it = &items[i];
        const char *name = text + it->off;
        dwexpr_diexpr_op op;
        memset(&op, 0, sizeof op);
        if (it->is_num) {
            if (nops)
                s = fail(err, DWEXPR_E_SYNTAX, (int64_t)it->off,
                         "%s takes %u operand(s); '%.*s' is one too many", op_name(&ops[nops - 1]),
                         ops[nops - 1].nops, (int)it->len, name);
            else
                s = fail(err, DWEXPR_E_SYNTAX, (int64_t)it->off,
                         "expected an operation name, got '%.*s'", (int)it->len, name);
            goto done;
        }
        /* LLVM-internal first, then the DWARF table (heterogeneous
         * DW_OP_LLVM_* included) */
        int want = -1;
        const char *bare = name;
        size_t blen = it->len;
        if (blen > 6 && strncmp(bare, "DW_OP_", 6) == 0) {
            bare += 6;
            blen -= 6;
        }
        for (unsigned d = 0; d < DWEXPR_DIOP_COUNT; d++) {
            if (strlen(diop_tab[d].name + 6) == blen && strncmp(diop_tab[d].name + 6, bare, blen) == 0) {
                op.internal = true;
                op.id = d;
                want = (int)diop_tab[d].nops;
            }
        }
        if (!op.internal) {
            dwexpr_opid id = dwexpr_op_by_name(name, it->len);
            if (id == DWEXPR_OP_COUNT) {
                s = fail(err, DWEXPR_E_SYNTAX, (int64_t)it->off, "unknown operation '%.*s'",
                         (int)it->len, name);
                goto done;
            }
            op.id = id;
            want = dw_operand_count(id);
            if (want < 0) {
                s = fail(err, DWEXPR_E_SYNTAX, (int64_t)it->off,
                         "%s has a block operand, which a DIExpression cannot hold",
                         dwexpr_op_info(id)->name);
                goto done;
            }
        }
        where[nops] = (int64_t)it->off;
        i++;
        for (int k = 0; k < want; k++, i++) {
            const item *o = i < n ? &items[i] : NULL;
            bool ate = o && !o->is_num && op.internal && op.id == DWEXPR_DIOP_LLVM_convert && k == 1;
            if (ate) {
                uint64_t v = 0;
                for (size_t a = 0; a < sizeof ate_tab / sizeof ate_tab[0]; a++)
                    if (strlen(ate_tab[a].name) == o->len &&
                        strncmp(ate_tab[a].name, text + o->off, o->len) == 0)
                        v = ate_tab[a].ate;
                if (!v) {
                    s = fail(err, DWEXPR_E_SYNTAX, (int64_t)o->off, "unknown encoding '%.*s'",
                             (int)o->len, text + o->off);
                    goto done;
                }
                op.operand[k] = v;
                continue;
            }
            if (!o || !o->is_num) {
                s = fail(err, DWEXPR_E_SYNTAX, o ? (int64_t)o->off : (int64_t)strlen(text),
                         "%.*s takes %d operand(s), got %d", (int)it->len, name, want, k);
                goto done;
            }
            if (o->neg && (op.internal || !dw_operand_signed((dwexpr_opid)op.id, (unsigned)k))) {
                s = fail(err, DWEXPR_E_SYNTAX, (int64_t)o->off,
                         "operand %d of %.*s cannot be negative", k + 1, (int)it->len, name);
                goto done;
            }
            op.operand[k] = o->num;
        }
        op.nops = (unsigned)want;
        ops[nops++] = op;
    }
    s = check_ops(ops, nops, where, false, err);
    if (s != DWEXPR_OK)
        goto done;
    dwexpr_diexpr *e = calloc(1, sizeof *e);
    if (!e) {
        s = fail(err, DWEXPR_E_NOMEM, -1, "out of memory");
        goto done;
    }
    e->ops = ops;
    e->count = nops;
    ops = NULL;
    *out = e;
done:
    free(ops);
    free(where);
    free(items);
    return s;
}

/* The canonical text. */
size_t dwexpr_diexpr_format(const dwexpr_diexpr *e, char *buf, size_t cap)
{
    sbuf b = {0};
    sb_add(&b, "!DIExpression(");
    for (size_t i = 0; e && i < e->count; i++) {
        const dwexpr_diexpr_op *op = &e->ops[i];
        sb_add(&b, "%s%s", i ? ", " : "", op_name(op));
        for (unsigned k = 0; k < op->nops; k++) {
            const char *an = is_diop(op, DWEXPR_DIOP_LLVM_convert) && k == 1 ? ate_name(op->operand[1])
                                                                             : NULL;
            if (an)
                sb_add(&b, ", %s", an);
            else if (!op->internal && dw_operand_signed((dwexpr_opid)op->id, k))
                sb_add(&b, ", %" PRId64, (int64_t)op->operand[k]);
            else
                sb_add(&b, ", %" PRIu64, op->operand[k]);
        }
    }
    sb_add(&b, ")");
    size_t need = b.oom ? 0 : b.len;
    if (cap) {
        size_t n = need < cap ? need : cap - 1;
        if (n)
            memcpy(buf, b.s, n);
        buf[n] = 0;
    }
    free(b.s);
    return need;
}

/* ---- the lowered program ---- */

typedef struct synth_die {
    uint64_t die;
    char *text;              /* its location, text form */
    uint8_t *bytes;
    size_t len;
} synth_die;

struct dwexpr_lowered {
    dwexpr_unit unit;
    uint8_t *bytes;
    size_t len;
    dwexpr_type *types;
    size_t ntypes;
    synth_die *dies;
    size_t ndies;
    unsigned nsynth;         /* synthesized DIE offsets handed out */
    bool has_tag;
    uint64_t tag;
    bool is_value;
};

const uint8_t *dwexpr_lowered_bytes(const dwexpr_lowered *l, size_t *len)
{
    if (len)
        *len = l ? l->len : 0;
    return l ? l->bytes : NULL;
}

const dwexpr_unit *dwexpr_lowered_unit(const dwexpr_lowered *l)
{
    return l ? &l->unit : NULL;
}

size_t dwexpr_lowered_type_count(const dwexpr_lowered *l)
{
    return l ? l->ntypes : 0;
}

const dwexpr_type *dwexpr_lowered_type(const dwexpr_lowered *l, size_t i)
{
    return l && i < l->ntypes ? &l->types[i] : NULL;
}

size_t dwexpr_lowered_die_count(const dwexpr_lowered *l)
{
    return l ? l->ndies : 0;
}

dwexpr_status dwexpr_lowered_die(const dwexpr_lowered *l, size_t i, uint64_t *die,
                                 const uint8_t **bytes, size_t *len)
{
    if (!l || i >= l->ndies)
        return DWEXPR_E_USAGE;
    if (die)
        *die = l->dies[i].die;
    if (bytes)
        *bytes = l->dies[i].bytes;
    if (len)
        *len = l->dies[i].len;
    return DWEXPR_OK;
}

bool dwexpr_lowered_tag_offset(const dwexpr_lowered *l, uint64_t *tag)
{
    if (!l || !l->has_tag)
        return false;
    if (tag)
        *tag = l->tag;
    return true;
}

bool dwexpr_lowered_is_value(const dwexpr_lowered *l)
{
    return l && l->is_value;
}

void dwexpr_lowered_free(dwexpr_lowered *l)
{
    if (!l)
        return;
    for (size_t i = 0; i < l->ndies; i++) {
        free(l->dies[i].text);
        free(l->dies[i].bytes);
    }
    free(l->dies);
    free(l->types);
    free(l->bytes);
    free(l);
}

/* Assemble TEXT in L's unit into a malloc'ed buffer. */
static dwexpr_status assemble(const dwexpr_lowered *l, const char *text, uint8_t **out,
                              size_t *len, dwexpr_error *err)
{
    size_t need = 0;
    dwexpr_error e;
    dwexpr_status s = dwexpr_asm(text, &l->unit, NULL, NULL, 0, &need, &e);
    if (s != DWEXPR_OK && s != DWEXPR_E_NOSPACE)
        return fail(err, s, -1, "the lowered program '%.80s' does not assemble: %s", text,
                    e.message);
    *out = malloc(need ? need : 1);
    if (!*out)
        return fail(err, DWEXPR_E_NOMEM, -1, "out of memory");
    s = dwexpr_asm(text, &l->unit, NULL, *out, need ? need : 1, len, &e);
    if (s != DWEXPR_OK) {
        free(*out);
        *out = NULL;
        return fail(err, s, -1, "the lowered program does not assemble: %s", e.message);
    }
    return DWEXPR_OK;
}

/* ---- lowering (LLVM's DwarfExpression) ---- */

/* LLVM's DwarfExpression::LocationKind. */
enum lkind { K_UNKNOWN, K_REGISTER, K_MEMORY, K_IMPLICIT };

/* One record lowered: the body text and its fragment. */
typedef struct part {
    sbuf body;
    bool has_frag;
    uint64_t frag_off, frag_bits;
    size_t rec;
} part;

typedef struct lowering {
    dwexpr_lowered *l;
    const dwexpr_dbg_record *rec;
    size_t ri;
    sbuf *b;
    enum lkind kind;
    const dwexpr_diexpr_op *prev_convert;   /* DWARF < 5 convert pairs */
    dwexpr_error *err;
} lowering;

/* A DWARF operation with its operands, as text. */
static void emit_dw(sbuf *b, dwexpr_opid id, const uint64_t *opnd, unsigned n)
{
    sb_add(b, " %s", dwexpr_op_info(id)->name);
    for (unsigned k = 0; k < n; k++) {
        if (dw_operand_signed(id, k))
            sb_add(b, " %" PRId64, (int64_t)opnd[k]);
        else
            sb_add(b, " %" PRIu64, opnd[k]);
    }
}

/* LLVM's emitConstu / addSignedConstant. */
static void emit_const(sbuf *b, uint64_t v, bool is_signed)
{
    if (is_signed)
        sb_add(b, " DW_OP_consts %" PRId64, (int64_t)v);
    else if (v < 32)
        sb_add(b, " DW_OP_lit%u", (unsigned)v);
    else
        sb_add(b, " DW_OP_constu %" PRIu64, v);
}

/* DWARF 5 2.6.1.2: a piece of SIZE bits (LLVM's addOpPiece). */
static void emit_piece(sbuf *b, uint64_t bits)
{
    if (bits % 8 == 0)
        sb_add(b, " DW_OP_piece %" PRIu64, bits / 8);
    else
        sb_add(b, " DW_OP_bit_piece %" PRIu64 " 0", bits);
}

/* The DIE offset of a new synthesized entry. */
static uint64_t next_die(dwexpr_lowered *l)
{
    return DWEXPR_LOWERED_DIE_BASE + 0x10u * l->nsynth++;
}

/* A synthesized base type of BITS and ATE (getOrCreateBaseType). */
static dwexpr_status base_type_die(lowering *w, uint64_t bits, uint64_t ate, uint64_t *die)
{
    dwexpr_lowered *l = w->l;
    for (size_t i = 0; i < l->ntypes; i++)
        if (l->types[i].bits == bits && l->types[i].encoding == ate) {
            *die = l->types[i].die;
            return DWEXPR_OK;
        }
    dwexpr_type *nt = realloc(l->types, (l->ntypes + 1) * sizeof *nt);
    if (!nt)
        return fail(w->err, DWEXPR_E_NOMEM, -1, "out of memory");
    l->types = nt;
    memset(&nt[l->ntypes], 0, sizeof *nt);
    nt[l->ntypes].die = *die = next_die(l);
    nt[l->ntypes].bits = (uint32_t)bits;
    nt[l->ntypes].encoding = (uint16_t)ate;
    nt[l->ntypes].lanes = 1;
    l->ntypes++;
    return DWEXPR_OK;
}

/* Whether nothing but a fragment (or a DWARF piece) follows operation I;
 * tag offsets and an implicit pointer do not count (they add no operation
 * on the value). */
static bool only_fragment_after(const dwexpr_diexpr *e, size_t i)
{
    for (; i < e->count; i++)
        if (!e->ops[i].internal &&
            (e->ops[i].id == DWEXPR_OP_piece || e->ops[i].id == DWEXPR_OP_bit_piece))
            return true;
        else if (!is_diop(&e->ops[i], DWEXPR_DIOP_LLVM_fragment) &&
            !is_diop(&e->ops[i], DWEXPR_DIOP_LLVM_tag_offset) &&
            !is_diop(&e->ops[i], DWEXPR_DIOP_LLVM_implicit_pointer))
            return false;
    return true;
}

/* Insert location operand N before operation *I (LLVM's
 * addMachineRegExpression for registers, addSignedConstant /
 * addUnsignedConstant for immediates). */
static dwexpr_status insert_arg(lowering *w, uint64_t n, size_t *i)
{
    const dwexpr_diexpr *e = w->rec->expr;
    if (n >= w->rec->nargs)
        return fail(w->err, DWEXPR_E_SYNTAX, (int64_t)w->ri,
                    "expression %zu uses location operand %" PRIu64 " but only %zu %s given",
                    w->ri, n, w->rec->nargs, w->rec->nargs == 1 ? "is" : "are");
    const dwexpr_diarg *a = &w->rec->args[n];
    bool simple = only_fragment_after(e, *i);
    switch (a->kind) {
    case DWEXPR_DIARG_REG: {
        if (w->kind != K_MEMORY && simple) {
            /* the value lives in the register: a register location */
            if (a->value < 32)
                sb_add(w->b, " DW_OP_reg%u", (unsigned)a->value);
            else
                sb_add(w->b, " DW_OP_regx %" PRIu64, a->value);
            w->kind = K_REGISTER;
            return DWEXPR_OK;
        }
        /* [Reg, plus_uconst K] -> breg K; [Reg, constu K, plus|minus] -> breg +-K */
        int64_t off = 0;
        const dwexpr_diexpr_op *o = *i < e->count ? &e->ops[*i] : NULL;
        if (o && !o->internal && o->id == DWEXPR_OP_plus_uconst && o->operand[0] <= INT64_MAX) {
            off = (int64_t)o->operand[0];
            ++*i;
        } else if (o && !o->internal && o->id == DWEXPR_OP_constu && *i + 1 < e->count &&
                   o->operand[0] <= INT64_MAX && !e->ops[*i + 1].internal &&
                   (e->ops[*i + 1].id == DWEXPR_OP_plus || e->ops[*i + 1].id == DWEXPR_OP_minus)) {
            off = e->ops[*i + 1].id == DWEXPR_OP_plus ? (int64_t)o->operand[0]
                                                      : -(int64_t)o->operand[0];
            *i += 2;
        }
        if (a->value < 32)
            sb_add(w->b, " DW_OP_breg%u %" PRId64, (unsigned)a->value, off);
        else
            sb_add(w->b, " DW_OP_bregx %" PRIu64 " %" PRId64, a->value, off);
        return DWEXPR_OK;
    }
    case DWEXPR_DIARG_CONST:
        emit_const(w->b, a->value, a->is_signed);
        if (w->kind != K_MEMORY)
            w->kind = K_IMPLICIT;
        return DWEXPR_OK;
    case DWEXPR_DIARG_ADDR:
        sb_add(w->b, " DW_OP_addr 0x%" PRIx64, a->value);
        /* a pointer value (#dbg_value(ptr @g)) is the address itself */
        if (w->kind != K_MEMORY && simple)
            w->kind = K_IMPLICIT;
        return DWEXPR_OK;
    default:
        return fail(w->err, DWEXPR_E_USAGE, (int64_t)w->ri, "undef operand reached the lowering");
    }
}

/* LLVM's emitLegacySExt / emitLegacyZExt (DWARF < 5 has no DW_OP_convert). */
static void emit_legacy_ext(sbuf *b, uint64_t from, bool sign)
{
    if (sign) {
        /* (((X >> (from - 1)) * (~0)) << from) | X */
        sb_add(b, " DW_OP_dup DW_OP_constu %" PRIu64 " DW_OP_shr DW_OP_lit0 DW_OP_not DW_OP_mul "
                  "DW_OP_constu %" PRIu64 " DW_OP_shl DW_OP_or", from - 1, from);
    } else if (from / 7 < 5) {
        sb_add(b, " DW_OP_constu %" PRIu64 " DW_OP_and",
               from >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << from) - 1);
    } else {
        sb_add(b, " DW_OP_lit1 DW_OP_constu %" PRIu64 " DW_OP_shl DW_OP_lit1 DW_OP_minus DW_OP_and",
               from);
    }
}

/* Lower record W->rec into P (LLVM's DwarfExpression::addExpression). */
static dwexpr_status lower_record(lowering *w, part *p)
{
    const dwexpr_diexpr *e = w->rec->expr;
    const dwexpr_unit *u = &w->l->unit;
    bool variadic = false;
    dwexpr_status s;
    for (size_t i = 0; i < e->count; i++)
        variadic |= is_diop(&e->ops[i], DWEXPR_DIOP_LLVM_arg);
    if (e->count && is_diop(&e->ops[e->count - 1], DWEXPR_DIOP_LLVM_fragment)) {
        p->has_frag = true;
        p->frag_off = e->ops[e->count - 1].operand[0];
        p->frag_bits = e->ops[e->count - 1].operand[1];
    }
    /* LangRef "Debug records": an undef operand, or no operands with an
     * empty expression, is a kill location: no location at all */
    bool kill = w->rec->nargs == 0 && (e->count == 0 || (p->has_frag && e->count == 1));
    for (size_t k = 0; k < w->rec->nargs; k++)
        kill |= w->rec->args[k].kind == DWEXPR_DIARG_UNDEF;
    if (!variadic && w->rec->nargs > 1)
        return fail(w->err, DWEXPR_E_SYNTAX, (int64_t)w->ri,
                    "expression %zu has no DW_OP_LLVM_arg, so it takes one location operand, "
                    "not %zu", w->ri, w->rec->nargs);
    if (kill)
        return DWEXPR_OK;
    w->kind = w->rec->kind == DWEXPR_DBG_DECLARE ? K_MEMORY : K_UNKNOWN;
    size_t i = 0;
    /* DW_OP_LLVM_arg 0; DW_OP_LLVM_entry_value N (LLVM's DIExpression::isValid
     * takes this order too) is DW_OP_LLVM_entry_value N of operand 0 */
    const size_t ev = e->count >= 2 && is_arg0(&e->ops[0]) ? 1 : 0;
    if (e->count > ev && is_diop(&e->ops[ev], DWEXPR_DIOP_LLVM_entry_value)) {
        /* LangRef: DW_OP_LLVM_entry_value 1 (check_ops: N is 1) is the
         * value location operand 0 (a register) had on entry: the block is
         * that register alone */
        if (w->rec->nargs == 0 || w->rec->args[0].kind != DWEXPR_DIARG_REG)
            return fail(w->err, DWEXPR_E_SYNTAX, (int64_t)w->ri,
                        "DW_OP_LLVM_entry_value needs location operand 0 to be a register");
        uint64_t reg = w->rec->args[0].value;
        i = ev + 1;
        if (!ev && i < e->count && is_arg0(&e->ops[i]))
            i++;
        sb_add(w->b, " %s(", u->version >= 5 ? "DW_OP_entry_value" : "DW_OP_GNU_entry_value");
        if (reg < 32)
            sb_add(w->b, "DW_OP_reg%u", (unsigned)reg);
        else
            sb_add(w->b, "DW_OP_regx %" PRIu64, reg);
        sb_add(w->b, ")");
    } else if (!variadic) {
        if ((s = insert_arg(w, 0, &i)) != DWEXPR_OK)
            return s;
    }
    for (; i < e->count; i++) {
        const dwexpr_diexpr_op *op = &e->ops[i];
        if (!op->internal) {
            switch (op->id) {
            case DWEXPR_OP_deref:
                /* a final deref makes the location a memory location
                 * (the deref is implicit in it) */
                if (w->kind != K_MEMORY && only_fragment_after(e, i + 1)) {
                    w->kind = K_MEMORY;
                    continue;
                }
                break;
            case DWEXPR_OP_stack_value:
                w->kind = K_IMPLICIT;
                continue;
            case DWEXPR_OP_piece:
            case DWEXPR_OP_bit_piece:
                if (w->kind == K_IMPLICIT)
                    sb_add(w->b, " DW_OP_stack_value");
                w->kind = K_UNKNOWN;
                break;
            default:
                break;
            }
            emit_dw(w->b, (dwexpr_opid)op->id, op->operand, op->nops);
            continue;
        }
        switch ((dwexpr_diop)op->id) {
        case DWEXPR_DIOP_LLVM_fragment:
            break; /* the piece comes when the parts are joined */
        case DWEXPR_DIOP_LLVM_arg:
            i++;
            s = insert_arg(w, op->operand[0], &i);
            i--;
            if (s != DWEXPR_OK)
                return s;
            break;
        case DWEXPR_DIOP_LLVM_tag_offset:
            /* LLVM moves it to DW_AT_LLVM_tag_offset on the variable; the
             * location itself is untouched (no memory tagging here) */
            w->l->has_tag = true;
            w->l->tag = op->operand[0];
            break;
        case DWEXPR_DIOP_LLVM_convert: {
            uint64_t bits = op->operand[0], ate = op->operand[1];
            if (u->version >= 5) {
                uint64_t die = 0;
                if ((s = base_type_die(w, bits, ate, &die)) != DWEXPR_OK)
                    return s;
                sb_add(w->b, " DW_OP_convert 0x%" PRIx64, die);
            } else if (w->prev_convert && w->prev_convert->operand[0] < bits) {
                if (ate == DW_ATE_signed || ate == DW_ATE_unsigned)
                    emit_legacy_ext(w->b, w->prev_convert->operand[0], ate == DW_ATE_signed);
                w->prev_convert = NULL;
            } else {
                w->prev_convert = op;
            }
            break;
        }
        case DWEXPR_DIOP_LLVM_extract_bits_sext:
        case DWEXPR_DIOP_LLVM_extract_bits_zext: {
            uint64_t off = op->operand[0], size = op->operand[1], gen = 8u * u->addr_size;
            if (off + size > gen)
                return fail(w->err, DWEXPR_E_SYNTAX, (int64_t)w->ri,
                            "%s %" PRIu64 " %" PRIu64 ": more bits than the %" PRIu64
                            "-bit generic type has", op_name(op), off, size, gen);
            if (w->kind == K_MEMORY)
                sb_add(w->b, " DW_OP_deref_size %" PRIu64, (off + size + 7) / 8);
            uint64_t left = gen - (size + off), right = left + off;
            if (left)
                sb_add(w->b, " DW_OP_constu %" PRIu64 " DW_OP_shl", left);
            if (right)
                sb_add(w->b, " DW_OP_constu %" PRIu64 " %s", right,
                       op->id == DWEXPR_DIOP_LLVM_extract_bits_sext ? "DW_OP_shra" : "DW_OP_shr");
            w->kind = K_IMPLICIT;
            break;
        }
        case DWEXPR_DIOP_LLVM_implicit_pointer: {
            /* the variable is a pointer to an object whose location the
             * expression so far gives: that becomes an artificial variable */
            dwexpr_lowered *l = w->l;
            synth_die *nd = realloc(l->dies, (l->ndies + 1) * sizeof *nd);
            if (!nd)
                return fail(w->err, DWEXPR_E_NOMEM, -1, "out of memory");
            l->dies = nd;
            nd += l->ndies++;
            memset(nd, 0, sizeof *nd);
            nd->die = next_die(l);
            sbuf t = {0};
            sb_add(&t, "%s%s", w->b->s ? w->b->s : "",
                   w->kind == K_IMPLICIT ? " DW_OP_stack_value" : "");
            if (t.oom) {
                free(t.s);
                return fail(w->err, DWEXPR_E_NOMEM, -1, "out of memory");
            }
            nd->text = t.s ? t.s : calloc(1, 1);
            w->b->len = 0;
            if (w->b->s)
                w->b->s[0] = 0;
            sb_add(w->b, " DW_OP_implicit_pointer 0x%" PRIx64 " 0", nd->die);
            w->kind = K_UNKNOWN;
            break;
        }
        case DWEXPR_DIOP_LLVM_entry_value:
        default:
            return fail(w->err, DWEXPR_E_SYNTAX, (int64_t)w->ri, "%s is misplaced", op_name(op));
        }
    }
    if (w->kind == K_IMPLICIT)
        sb_add(w->b, " DW_OP_stack_value");
    return DWEXPR_OK;
}

static int part_cmp(const void *a, const void *b)
{
    const part *x = a, *y = b;
    return x->frag_off < y->frag_off ? -1 : x->frag_off > y->frag_off;
}

/* Lower N records of one variable. */
dwexpr_status dwexpr_diexpr_lower(const dwexpr_dbg_record *recs, size_t n, const dwexpr_unit *unit,
                                  dwexpr_lowered **out, dwexpr_error *err)
{
    if (!out || !recs || n == 0 || !unit)
        return fail(err, DWEXPR_E_USAGE, -1, "dwexpr_diexpr_lower: bad arguments");
    *out = NULL;
    for (size_t r = 0; r < n; r++)
        if (!recs[r].expr || (recs[r].nargs && !recs[r].args))
            return fail(err, DWEXPR_E_USAGE, (int64_t)r, "record %zu: no expression", r);
    dwexpr_lowered *l = calloc(1, sizeof *l);
    part *parts = calloc(n, sizeof *parts);
    sbuf all = {0};
    dwexpr_status s = DWEXPR_OK;
    if (!l || !parts) {
        s = fail(err, DWEXPR_E_NOMEM, -1, "out of memory");
        goto done;
    }
    l->unit = *unit;
    if (!l->unit.addr_size)
        l->unit.addr_size = 8;
    if (!l->unit.offset_size)
        l->unit.offset_size = 4;
    if (!l->unit.version)
        l->unit.version = 5;
    l->is_value = recs[0].kind == DWEXPR_DBG_VALUE;
    for (size_t r = 0; r < n; r++) {
        lowering w = {l, &recs[r], r, &parts[r].body, K_UNKNOWN, NULL, err};
        parts[r].rec = r;
        if ((s = lower_record(&w, &parts[r])) != DWEXPR_OK)
            goto done;
        if (parts[r].body.oom) {
            s = fail(err, DWEXPR_E_NOMEM, -1, "out of memory");
            goto done;
        }
        if (n > 1 && !parts[r].has_frag) {
            s = fail(err, DWEXPR_E_SYNTAX, (int64_t)r,
                     "expression %zu has no DW_OP_LLVM_fragment: several expressions of one "
                     "variable must each describe a fragment", r);
            goto done;
        }
    }
    /* LLVM's DebugLocEntry: fragments in offset order, gaps as empty
     * pieces (addFragmentOffset), each ended by its piece */
    qsort(parts, n, sizeof *parts, part_cmp);
    uint64_t pos = 0;
    for (size_t r = 0; r < n; r++) {
        part *p = &parts[r];
        if (p->has_frag) {
            if (p->frag_off < pos) {
                s = fail(err, DWEXPR_E_SYNTAX, (int64_t)p->rec,
                         "fragment [%" PRIu64 ", %" PRIu64 ") of expression %zu overlaps the one "
                         "before it (ends at bit %" PRIu64 ")", p->frag_off,
                         p->frag_off + p->frag_bits, p->rec, pos);
                goto done;
            }
            if (p->frag_off > pos)
                emit_piece(&all, p->frag_off - pos);
        }
        sb_add(&all, "%s", p->body.s ? p->body.s : "");
        if (p->has_frag) {
            emit_piece(&all, p->frag_bits);
            pos = p->frag_off + p->frag_bits;
        }
    }
    if (all.oom) {
        s = fail(err, DWEXPR_E_NOMEM, -1, "out of memory");
        goto done;
    }
    if ((s = assemble(l, all.s ? all.s : "", &l->bytes, &l->len, err)) != DWEXPR_OK)
        goto done;
    for (size_t d = 0; d < l->ndies; d++)
        if ((s = assemble(l, l->dies[d].text, &l->dies[d].bytes, &l->dies[d].len, err)) != DWEXPR_OK)
            goto done;
    *out = l;
    l = NULL;
done:
    for (size_t r = 0; parts && r < n; r++)
        free(parts[r].body.s);
    free(parts);
    free(all.s);
    dwexpr_lowered_free(l);
    return s;
}

/* ---- evaluation through a target that knows the synthesized DIEs ---- */

#define FWD(name, params, args)                                                \
    static dwexpr_status w_##name params                                       \
    {                                                                          \
        const dwexpr_lowered_target *w = user;                                 \
        return w->inner.name args;                                             \
    }
FWD(reg_size, (void *user, uint32_t regno, uint32_t *bytes), (w->inner_user, regno, bytes))
FWD(reg_read, (void *user, const dwexpr_regref *r, uint64_t off, void *buf, size_t len),
    (w->inner_user, r, off, buf, len))
FWD(reg_write, (void *user, const dwexpr_regref *r, uint64_t off, const void *buf, size_t len),
    (w->inner_user, r, off, buf, len))
FWD(mem_read, (void *user, const dwexpr_memref *m, void *buf, size_t len),
    (w->inner_user, m, buf, len))
FWD(mem_write, (void *user, const dwexpr_memref *m, const void *buf, size_t len),
    (w->inner_user, m, buf, len))
FWD(aspace_info, (void *user, uint32_t as, dwexpr_aspace_info *out), (w->inner_user, as, out))
FWD(tls_address, (void *user, const dwexpr_frameref *f, uint64_t ta, dwexpr_sld *out),
    (w->inner_user, f, ta, out))
FWD(cfa, (void *user, const dwexpr_frameref *f, dwexpr_sld *out), (w->inner_user, f, out))
FWD(register_location, (void *user, const dwexpr_frameref *f, uint32_t regno, dwexpr_sld *out),
    (w->inner_user, f, regno, out))
FWD(entry_value, (void *user, const dwexpr_frameref *f, const uint8_t *blk, size_t len,
                  dwexpr_value *out), (w->inner_user, f, blk, len, out))
FWD(debug_addr, (void *user, const dwexpr_unit *u, uint64_t index, uint64_t *out),
    (w->inner_user, u, index, out))
FWD(frame_base, (void *user, const dwexpr_frameref *f, dwexpr_frame_base *out),
    (w->inner_user, f, out))
FWD(frame_pc, (void *user, const dwexpr_frameref *f, uint64_t *pc), (w->inner_user, f, pc))
FWD(parameter_ref, (void *user, const dwexpr_frameref *f, const dwexpr_unit *u, uint64_t die,
                    dwexpr_value *out), (w->inner_user, f, u, die, out))
#undef FWD

/* Synthesized base types first (DW_OP_LLVM_convert), then the inner target. */
static dwexpr_status w_base_type(void *user, const dwexpr_unit *u, uint64_t die, dwexpr_type *out)
{
    const dwexpr_lowered_target *w = user;
    for (size_t i = 0; i < w->low->ntypes; i++)
        if (w->low->types[i].die == die) {
            *out = w->low->types[i];
            return DWEXPR_OK;
        }
    return w->inner.base_type ? w->inner.base_type(w->inner_user, u, die, out) : DWEXPR_E_NOT_FOUND;
}

/* Synthesized artificial variables first (DW_OP_LLVM_implicit_pointer). */
static dwexpr_status w_die(void *user, const dwexpr_unit *u, uint64_t off, bool section_relative,
                           dwexpr_die *out)
{
    const dwexpr_lowered_target *w = user;
    for (size_t i = 0; i < w->low->ndies; i++)
        if (w->low->dies[i].die == off) {
            memset(out, 0, sizeof *out);
            out->kind = DWEXPR_DIE_EXPRLOC;
            out->unit = w->low->unit;
            out->expr = w->low->dies[i].bytes;
            out->expr_len = w->low->dies[i].len;
            return DWEXPR_OK;
        }
    return w->inner.die ? w->inner.die(w->inner_user, u, off, section_relative, out)
                        : DWEXPR_E_NOT_FOUND;
}

/* Wrap INNER so that L's synthesized entries are found. */
void dwexpr_lowered_wrap(const dwexpr_lowered *l, const dwexpr_target *inner, void *inner_user,
                         dwexpr_lowered_target *w)
{
    memset(w, 0, sizeof *w);
    if (inner) {
        size_t n = inner->size < sizeof w->inner ? inner->size : sizeof w->inner;
        memcpy(&w->inner, inner, n);
    }
    w->inner.size = sizeof w->inner;
    w->inner_user = inner_user;
    w->low = l;
    dwexpr_target *t = &w->target;
    t->size = sizeof *t;
#define SET(name) t->name = w->inner.name ? w_##name : NULL;
    SET(reg_size) SET(reg_read) SET(reg_write) SET(mem_read) SET(mem_write) SET(aspace_info)
    SET(tls_address) SET(cfa) SET(register_location) SET(entry_value) SET(debug_addr)
    SET(frame_base) SET(frame_pc) SET(parameter_ref)
#undef SET
    t->base_type = w_base_type;
    t->die = w_die;
}

/* Evaluate L's bytes. */
dwexpr_status dwexpr_lowered_eval(dwexpr_ctx *ctx, const dwexpr_lowered *l,
                                  const dwexpr_target *target, void *user,
                                  const dwexpr_eval_params *params, dwexpr_result *out)
{
    if (!l)
        return DWEXPR_E_USAGE;
    dwexpr_lowered_target w;
    dwexpr_lowered_wrap(l, target, user, &w);
    return dwexpr_eval_bytes(ctx, l->bytes, l->len, &l->unit, &w.target, &w, params, out);
}
