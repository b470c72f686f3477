/* lib/asm.c: text -> bytes (contract "dwexpr asm"). Reads the text form,
 * including dwexpr_disasm's output (offsets, parenthesized register names
 * and # comments are skipped), and encodes it for a unit. */
#include <ctype.h>
#include <stdio.h>
#include "text.h"

/* Nesting bound for DW_OP_entry_value(...) sub-expressions in text. */
#define DWX_MAX_NEST 8
/* Longest LEB128 padding @N accepted (the decoder's limit). */
#define DWX_MAX_LEB_LEN 255
/* Register numbers searched when a register is given by name. */
#define DWX_MAX_REG_SCAN 0x10000u

/* Bytes being produced; counts on past CAP. */
typedef struct obuf {
    uint8_t *out;
    size_t cap, len;
} obuf;

/* One token of the text: TEXT[off .. off+len). */
typedef struct token {
    size_t off, len;
} token;

/* Assembler state: the text, its end, the unit and the output. */
typedef struct asmst {
    const char *text;
    size_t pos, end;
    dwexpr_unit u;
    unsigned ref_size;
    const dwexpr_arch *arch;
    obuf *o;
    dwexpr_error *err;
    unsigned depth;
    unsigned open;       /* llvm-dwarfdump's "(DW_OP_...)" groups entered (next_token) */
    bool has_pending;    /* PENDING: the offset of a REG+OFF operand (emit_reg) */
    token pending;
} asmst;

/* A number token: sign, magnitude and optional @N padding. */
typedef struct number {
    bool neg;
    bool hex;       /* written as 0x...: a raw bit pattern */
    uint64_t mag;
    unsigned pad;   /* 0: none */
    token tok;
} number;

/* Append N bytes (counted even when they do not fit). */
static void put_bytes(obuf *o, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++, o->len++)
        if (o->len < o->cap)
            o->out[o->len] = p[i];
}

/* Append the SIZE-byte integer V in the unit's byte order. */
static void put_fixed(asmst *a, uint64_t v, unsigned size)
{
    uint8_t b[8];
    for (unsigned i = 0; i < size; i++) {
        unsigned shift = 8 * (a->u.big_endian ? size - 1 - i : i);
        b[i] = (uint8_t)(v >> shift);
    }
    put_bytes(a->o, b, size);
}

/* Append a (padded) LEB128. */
static void put_leb(asmst *a, uint64_t v, bool is_signed, unsigned pad)
{
    uint8_t b[DWX_MAX_LEB_LEN + 16];
    size_t n = is_signed ? dwx_write_sleb(b, (int64_t)v, pad) : dwx_write_uleb(b, v, pad);
    put_bytes(a->o, b, n);
}

/* Report a syntax error at character offset AT. */
#define SYNTAX(a, at, id, ...) \
    dwx_fail((a)->err, DWEXPR_E_SYNTAX, (int64_t)(at), (int)(id), __VA_ARGS__)

/* Token separators: whitespace, commas, semicolons. */
static bool is_sep(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' ||
           c == ',' || c == ';';
}

/* Skip separators and # comments; returns false at the end. */
static bool skip_blank(asmst *a)
{
    while (a->pos < a->end) {
        char c = a->text[a->pos];
        if (is_sep(c)) {
            a->pos++;
        } else if (c == '#') {
            while (a->pos < a->end && a->text[a->pos] != '\n')
                a->pos++;
        } else {
            return true;
        }
    }
    return false;
}

/* Offset of the ')' matching the '(' at OPEN, or END if unclosed. */
static size_t match_paren(const asmst *a, size_t open)
{
    unsigned level = 0;
    for (size_t i = open; i < a->end; i++) {
        if (a->text[i] == '(')
            level++;
        else if (a->text[i] == ')' && --level == 0)
            return i;
    }
    return a->end;
}

/* Is T a disasm offset label ("0x0003:")? */
static bool is_label(const asmst *a, const token *t)
{
    const char *s = a->text + t->off;
    if (t->len < 4 || s[t->len - 1] != ':' || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
        return false;
    for (size_t i = 2; i + 1 < t->len; i++)
        if (!isxdigit((unsigned char)s[i]))
            return false;
    return true;
}

static bool is_op_name(const char *s, size_t n);

/* What the group between '(' at OPEN and its ')' at CLOSE holds: a name
 * (one word that is no operation: dwexpr_disasm's register names, to be
 * skipped), operations (llvm-dwarfdump writes a location as
 * "(DW_OP_lit0, DW_OP_stack_value)": to be read as if the parentheses
 * were not there), or anything else (-1: an error, never dropped
 * silently). */
enum { PAREN_NAME, PAREN_OPS, PAREN_BAD = -1 };
static int paren_kind(const asmst *a, size_t open, size_t close)
{
    size_t i = open + 1;
    while (i < close && is_sep(a->text[i]))
        i++;
    size_t w = i;
    while (i < close && !is_sep(a->text[i]) && a->text[i] != '(' && a->text[i] != ')' &&
           a->text[i] != '#')
        i++;
    if (w < i && is_op_name(a->text + w, i - w))
        return PAREN_OPS;
    size_t j = i;
    while (j < close && is_sep(a->text[j]))
        j++;
    return j == close ? PAREN_NAME : PAREN_BAD;
}

/* Next meaningful token into T: skips separators, comments, offset
 * labels and parenthesized names, and enters parenthesized operations.
 * Returns 0 at the end of text, 1 for a token, or -1 after reporting a
 * syntax error. */
static int next_token(asmst *a, token *t)
{
    for (;;) {
        if (!skip_blank(a))
            return 0;
        char c = a->text[a->pos];
        if (c == '(') {
            size_t close = match_paren(a, a->pos);
            if (close >= a->end) {
                SYNTAX(a, a->pos, DWEXPR_OP_COUNT, "unclosed '('");
                return -1;
            }
            const int k = paren_kind(a, a->pos, close);
            if (k == PAREN_BAD) {
                SYNTAX(a, a->pos, DWEXPR_OP_COUNT,
                       "'(%.*s)': parentheses hold a name or operations",
                       (int)(close - a->pos - 1 > 60 ? 60 : close - a->pos - 1),
                       a->text + a->pos + 1);
                return -1;
            }
            if (k == PAREN_OPS)
                a->open++;
            a->pos = k == PAREN_OPS ? a->pos + 1 : close + 1;
            continue;
        }
        if (c == ')') {
            if (a->open) {
                a->open--;
                a->pos++;
                continue;
            }
            SYNTAX(a, a->pos, DWEXPR_OP_COUNT, "unexpected ')'");
            return -1;
        }
        t->off = a->pos;
        while (a->pos < a->end) {
            c = a->text[a->pos];
            if (is_sep(c) || c == '#' || c == '(' || c == ')')
                break;
            a->pos++;
        }
        t->len = a->pos - t->off;
        if (is_label(a, t))
            continue;
        return 1;
    }
}

/* Value of hex digit C, or -1. */
static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Parse an unsigned decimal or 0x-hex S[0..n) into *V; false if it is not
 * one or overflows 64 bits. */
static bool parse_u64(const char *s, size_t n, uint64_t *v)
{
    uint64_t r = 0;
    if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        for (size_t i = 2; i < n; i++) {
            int d = hexval(s[i]);
            if (d < 0 || r >> 60)
                return false;
            r = r << 4 | (uint64_t)d;
        }
    } else {
        if (n == 0)
            return false;
        for (size_t i = 0; i < n; i++) {
            if (s[i] < '0' || s[i] > '9')
                return false;
            unsigned d = (unsigned)(s[i] - '0');
            if (r > (UINT64_MAX - d) / 10)
                return false;
            r = r * 10 + d;
        }
    }
    *v = r;
    return true;
}

/* Split "body@N" into the body length and N (0 when absent; -1 when the
 * suffix is malformed). */
static int split_pad(const char *s, size_t n, size_t *body, unsigned *pad)
{
    *body = n;
    *pad = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '@')
            continue;
        uint64_t p;
        *body = i;
        if (!parse_u64(s + i + 1, n - i - 1, &p) || p == 0 || p > DWX_MAX_LEB_LEN)
            return -1;
        *pad = (unsigned)p;
        return 0;
    }
    return 0;
}

/* Name of ID for messages. */
static const char *op_name(unsigned id)
{
    const dwexpr_opinfo *info = dwexpr_op_info((dwexpr_opid)id);
    return info ? info->name : "operation";
}

/* Take the next token as operand of ID; reports "missing operand". */
static bool need_token(asmst *a, unsigned id, token *t)
{
    int r = next_token(a, t);
    if (r > 0)
        return true;
    if (r == 0)
        SYNTAX(a, a->end, id, "%s: missing operand", op_name(id));
    return false;
}

/* Interpret token T as a number (with optional sign and @N). */
static bool token_number(asmst *a, unsigned id, const token *t, number *num)
{
    const char *s = a->text + t->off;
    size_t body;
    num->tok = *t;
    if (split_pad(s, t->len, &body, &num->pad) < 0) {
        SYNTAX(a, t->off, id, "%s: bad padding in '%.*s' (want @N, N = 1..%d bytes)",
               op_name(id), (int)t->len, s, DWX_MAX_LEB_LEN);
        return false;
    }
    num->neg = false;
    size_t i = 0;
    if (body > 0 && (s[0] == '-' || s[0] == '+')) {
        num->neg = s[0] == '-';
        i = 1;
    }
    num->hex = body - i > 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X');
    if (!parse_u64(s + i, body - i, &num->mag)) {
        SYNTAX(a, t->off, id, "%s: expected a number, got '%.*s'", op_name(id),
               (int)t->len, s);
        return false;
    }
    if (num->neg && num->mag == 0)
        num->neg = false;
    return true;
}

/* Read the next token as a number. */
static bool read_number(asmst *a, unsigned id, number *num)
{
    token t;
    return need_token(a, id, &t) && token_number(a, id, &t, num);
}

/* How an operand reads a number: a signed operand takes decimal values in
 * [-2^(bits-1), 2^(bits-1)), an unsigned one in [0, 2^bits); a 0x-hex
 * value is a raw bit pattern of the width for either. Anything else does
 * not fit: silently wrapping would assemble a different value. */
enum { FIT_UNSIGNED, FIT_SIGNED };

/* The BITS-wide pattern of NUM read as MODE, or a syntax error. */
static bool fit_bits(asmst *a, unsigned id, const number *num, unsigned bits, int mode,
                     uint64_t *out)
{
    uint64_t max = bits >= 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
    uint64_t half = (uint64_t)1 << (bits - 1);
    bool ok;
    if (num->neg)
        ok = mode == FIT_SIGNED && num->mag <= half;
    else if (mode == FIT_SIGNED && !num->hex)
        ok = num->mag <= half - 1;
    else
        ok = num->mag <= max;
    if (!ok) {
        SYNTAX(a, num->tok.off, id, "%s: '%.*s' does not fit in %u bits (%s operand)", op_name(id),
               (int)num->tok.len, a->text + num->tok.off, bits,
               mode == FIT_SIGNED ? "a signed" : "an unsigned");
        return false;
    }
    uint64_t v = num->neg ? (uint64_t)0 - num->mag : num->mag;
    *out = v & max;
    return true;
}

/* NUM must have no @N padding (it is not a LEB128 operand). */
static bool no_pad(asmst *a, unsigned id, const number *num)
{
    if (!num->pad)
        return true;
    SYNTAX(a, num->tok.off, id, "%s: '%.*s': @N padding only applies to LEB128 operands",
           op_name(id), (int)num->tok.len, a->text + num->tok.off);
    return false;
}

/* NUM must not be negative (a length or size). */
static bool not_negative(asmst *a, unsigned id, const number *num)
{
    if (!num->neg)
        return true;
    SYNTAX(a, num->tok.off, id, "%s: '%.*s' must not be negative", op_name(id),
           (int)num->tok.len, a->text + num->tok.off);
    return false;
}

/* Emit a fixed-size operand of SIZE bytes. */
static bool emit_fixed(asmst *a, unsigned id, unsigned size, int mode)
{
    number num;
    uint64_t v;
    if (!read_number(a, id, &num) || !no_pad(a, id, &num) ||
        !fit_bits(a, id, &num, 8 * size, mode, &v))
        return false;
    put_fixed(a, v, size);
    return true;
}

/* Check the @N padding of a LEB128 V and emit it. */
static bool emit_leb_value(asmst *a, unsigned id, const number *num, uint64_t v, bool is_signed)
{
    unsigned min = (unsigned)(is_signed ? dwx_write_sleb(NULL, (int64_t)v, 0)
                                        : dwx_write_uleb(NULL, v, 0));
    if (num->pad && num->pad < min) {
        SYNTAX(a, num->tok.off, id, "%s: '%.*s': the value needs %u LEB128 bytes",
               op_name(id), (int)num->tok.len, a->text + num->tok.off, min);
        return false;
    }
    put_leb(a, v, is_signed, num->pad);
    return true;
}

/* Emit a LEB128 operand. */
static bool emit_leb(asmst *a, unsigned id, bool is_signed)
{
    number num;
    uint64_t v;
    if (a->has_pending) {
        /* the offset of a REG+OFF operand (emit_reg) */
        a->has_pending = false;
        if (!token_number(a, id, &a->pending, &num))
            return false;
    } else if (!read_number(a, id, &num)) {
        return false;
    }
    if (!fit_bits(a, id, &num, 64, is_signed ? FIT_SIGNED : FIT_UNSIGNED, &v))
        return false;
    return emit_leb_value(a, id, &num, v, is_signed);
}

/* Case-insensitive equality of S[0..n) and the C string Z. */
static bool name_eq(const char *s, size_t n, const char *z)
{
    for (size_t i = 0; i < n; i++, z++)
        if (!*z || tolower((unsigned char)s[i]) != tolower((unsigned char)*z))
            return false;
    return *z == '\0';
}

/* Whether S[0..n) names an operation (with or without DW_OP_, @N
 * allowed), or is llvm-dwarfdump's DW_OP_LLVM_user prefix. */
static bool is_op_name(const char *s, size_t n)
{
    size_t body;
    unsigned pad;
    if (split_pad(s, n, &body, &pad) < 0)
        return false;
    return dwexpr_op_by_name(s, body) != DWEXPR_OP_COUNT || name_eq(s, n, "DW_OP_LLVM_user") ||
           name_eq(s, n, "LLVM_user");
}

/* The register S[0..n) names for the architecture, into *R: its name, or
 * llvm-dwarfdump's name of its low 16 bits (AMDGPU "SGPR32_LO16", whose
 * DWARF number is the register's). */
static bool reg_by_name(const asmst *a, const char *s, size_t n, uint32_t *r)
{
    if (!a->arch || !a->arch->reg_name || n == 0)
        return false;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            if (n <= 5 || !name_eq(s + n - 5, 5, "_LO16"))
                return false;
            n -= 5;
        }
        for (uint32_t k = 0; k < DWX_MAX_REG_SCAN; k++) {
            const char *name = a->arch->reg_name(k);
            if (name && name_eq(s, n, name)) {
                *r = k;
                return true;
            }
        }
    }
    return false;
}

/* Where a REG+OFF / REG-OFF token (llvm-dwarfdump's "RBP+8") splits: the
 * index of its sign, or 0 when it is none. */
static size_t reg_offset_split(const char *s, size_t n)
{
    if (n < 3 || !isalpha((unsigned char)s[0]))
        return 0;
    for (size_t i = 1; i + 1 < n; i++)
        if (s[i] == '+' || s[i] == '-')
            return i;
    return 0;
}

/* Emit a register operand (ULEB128): a number or a register name of the
 * architecture; for an operation whose offset follows (DW_OP_bregx,
 * DW_OP_LLVM_aspace_bregx) also NAME+OFF, the offset kept for emit_leb.
 * DWARF register numbers fit 32 bits (dwexpr_regref). */
static bool emit_reg(asmst *a, unsigned id)
{
    token t;
    if (!need_token(a, id, &t))
        return false;
    const char *s = a->text + t.off;
    const dwexpr_operands lay = dwexpr_op_info((dwexpr_opid)id)->operands;
    const size_t cut = lay == DWEXPR_OPND_ULEB_SLEB ? reg_offset_split(s, t.len) : 0;
    uint32_t named;
    if (cut && reg_by_name(a, s, cut, &named)) {
        a->has_pending = true;
        a->pending.off = t.off + cut;
        a->pending.len = t.len - cut;
        put_leb(a, named, false, 0);
        return true;
    }
    if (t.len && (isdigit((unsigned char)s[0]) || s[0] == '-' || s[0] == '+')) {
        number num;
        if (!token_number(a, id, &t, &num))
            return false;
        if (num.neg || num.mag > UINT32_MAX) {
            SYNTAX(a, t.off, id, "%s: register number '%.*s' is not in 0..4294967295",
                   op_name(id), (int)t.len, s);
            return false;
        }
        return emit_leb_value(a, id, &num, num.mag, false);
    }
    number num = {false, false, 0, 0, t};
    size_t body;
    if (split_pad(s, t.len, &body, &num.pad) < 0) {
        SYNTAX(a, t.off, id, "%s: bad padding in '%.*s'", op_name(id), (int)t.len, s);
        return false;
    }
    if (reg_by_name(a, s, body, &named))
        return emit_leb_value(a, id, &num, named, false);
    SYNTAX(a, t.off, id, "%s: unknown register '%.*s'%s%s", op_name(id), (int)body, s,
           a->arch ? " for " : " (no architecture given)", a->arch ? a->arch->name : "");
    return false;
}

/* Read a 0x-hex byte string token (storage order) and emit it; WANT is
 * the byte count the preceding length operand announced. */
static bool emit_blob(asmst *a, unsigned id, uint64_t want, const char *what)
{
    size_t save = a->pos;
    token t;
    if (want == 0) {
        /* an empty block prints as nothing; accept a bare "0x" too */
        int r = next_token(a, &t);
        if (r < 0)
            return false;
        if (r == 0 || !(t.len == 2 && a->text[t.off] == '0' &&
                        (a->text[t.off + 1] == 'x' || a->text[t.off + 1] == 'X')))
            a->pos = save;
        return true;
    }
    if (!need_token(a, id, &t))
        return false;
    const char *s = a->text + t.off;
    if (t.len < 3 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || (t.len - 2) % 2) {
        SYNTAX(a, t.off, id, "%s: expected %s bytes as 0x followed by hex digit pairs, "
               "got '%.*s'", op_name(id), what, (int)t.len, s);
        return false;
    }
    uint64_t n = (t.len - 2) / 2;
    if (n != want) {
        SYNTAX(a, t.off, id, "%s: length %llu does not match the %llu bytes of '%.*s'",
               op_name(id), (unsigned long long)want, (unsigned long long)n,
               (int)(t.len > 40 ? 40 : t.len), s);
        return false;
    }
    for (uint64_t i = 0; i < n; i++) {
        int hi = hexval(s[2 + 2 * i]), lo = hexval(s[3 + 2 * i]);
        if (hi < 0 || lo < 0) {
            SYNTAX(a, t.off, id, "%s: bad hex digit in '%.*s'", op_name(id),
                   (int)(t.len > 40 ? 40 : t.len), s);
            return false;
        }
        uint8_t byte = (uint8_t)(hi << 4 | lo);
        put_bytes(a->o, &byte, 1);
    }
    return true;
}

/* Whether token T is a byte string: 0x and at least one pair of hex
 * digits. */
static bool is_blob_token(const asmst *a, const token *t)
{
    const char *s = a->text + t->off;
    if (t->len < 4 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || (t->len - 2) % 2)
        return false;
    for (size_t i = 2; i < t->len; i++)
        if (hexval(s[i]) < 0)
            return false;
    return true;
}

/* Whether the next token is a byte string standing alone, the way
 * llvm-style dumps write a block without its length
 * ("DW_OP_implicit_value 0x0000803f", "DW_OP_const_type 0x2e
 * 0x0000803f"): a byte string not followed by another 0x token (which
 * would make it the length and the block). *N: its byte count. Only
 * looks: the position and the error record are left as they were. */
static bool lone_blob(const asmst *a, uint64_t *n)
{
    asmst peek = *a;
    dwexpr_error scratch;
    peek.err = &scratch;
    token t, t2;
    if (next_token(&peek, &t) <= 0 || !is_blob_token(a, &t))
        return false;
    const int r = next_token(&peek, &t2);
    if (r < 0 || (r > 0 && t2.len >= 2 && a->text[t2.off] == '0' &&
                  (a->text[t2.off + 1] == 'x' || a->text[t2.off + 1] == 'X')))
        return false;
    *n = (t.len - 2) / 2;
    return true;
}

static bool assemble(asmst *a);

/* DW_OP_entry_value(EXPR ...): assemble the parenthesized text as the
 * block (the way llvm-dwarfdump prints it). The block is assembled twice:
 * once to measure it for the length prefix, once into place. */
static bool emit_nested(asmst *a, unsigned id)
{
    size_t open = a->pos, close = match_paren(a, open);
    if (close >= a->end) {
        SYNTAX(a, open, id, "unclosed '('");
        return false;
    }
    if (a->depth + 1 >= DWX_MAX_NEST) {
        SYNTAX(a, open, id, "%s: nested more than %d deep", op_name(id), DWX_MAX_NEST - 1);
        return false;
    }
    obuf measure = {NULL, 0, 0};
    asmst sub = *a;
    sub.pos = open + 1;
    sub.end = close;
    sub.o = &measure;
    sub.depth = a->depth + 1;
    if (!assemble(&sub))
        return false;
    put_leb(a, measure.len, false, 0);
    bool room = a->o->out && a->o->len <= a->o->cap;
    obuf into = {room ? a->o->out + a->o->len : NULL, room ? a->o->cap - a->o->len : 0, 0};
    sub.pos = open + 1;
    sub.o = &into;
    if (!assemble(&sub))
        return false;
    a->o->len += into.len;
    a->pos = close + 1;
    return true;
}

/* DW_OP_bregN's offset written as llvm-dwarfdump writes it, after the
 * register's name ("DW_OP_breg6 RBP+8"): the name must be register N; the
 * offset is kept for emit_leb. False after an error; true otherwise (a
 * plain number is left to emit_leb). */
static bool breg_named_offset(asmst *a, unsigned id)
{
    size_t save = a->pos;
    token t;
    if (next_token(a, &t) <= 0) {
        a->pos = save;
        return true;
    }
    const char *s = a->text + t.off;
    const size_t cut = reg_offset_split(s, t.len);
    uint32_t r;
    if (!cut || !reg_by_name(a, s, cut, &r)) {
        a->pos = save;
        return true;
    }
    if (r != id - DWEXPR_OP_breg0) {
        SYNTAX(a, t.off, id, "%s: '%.*s' names register %u", op_name(id), (int)cut, s,
               (unsigned)r);
        return false;
    }
    a->has_pending = true;
    a->pending.off = t.off + cut;
    a->pending.len = t.len - cut;
    return true;
}

/* Emit the operands of ID per its layout (DWARF 5 7.7.1 Table 7.9). */
static bool emit_operands(asmst *a, unsigned id)
{
    const dwexpr_opinfo *info = dwexpr_op_info((dwexpr_opid)id);
    number num, n2;
    uint64_t v;
    switch (info->operands) {
    case DWEXPR_OPND_NONE:
        return true;
    case DWEXPR_OPND_ADDR:
        return emit_fixed(a, id, a->u.addr_size, FIT_UNSIGNED);
    case DWEXPR_OPND_U8: return emit_fixed(a, id, 1, FIT_UNSIGNED);
    case DWEXPR_OPND_S8: return emit_fixed(a, id, 1, FIT_SIGNED);
    case DWEXPR_OPND_U16: return emit_fixed(a, id, 2, FIT_UNSIGNED);
    case DWEXPR_OPND_S16:
    case DWEXPR_OPND_SKIP: /* the raw displacement (DWARF 5 2.5.1.5) */
        return emit_fixed(a, id, 2, FIT_SIGNED);
    case DWEXPR_OPND_U32: return emit_fixed(a, id, 4, FIT_UNSIGNED);
    case DWEXPR_OPND_S32: return emit_fixed(a, id, 4, FIT_SIGNED);
    case DWEXPR_OPND_U64: return emit_fixed(a, id, 8, FIT_UNSIGNED);
    case DWEXPR_OPND_S64: return emit_fixed(a, id, 8, FIT_SIGNED);
    case DWEXPR_OPND_ULEB:
        if (dwx_operand_style((dwexpr_opid)id, 0) == DWX_STYLE_REG)
            return emit_reg(a, id);
        return emit_leb(a, id, false);
    case DWEXPR_OPND_SLEB:
        if (id >= DWEXPR_OP_breg0 && id <= DWEXPR_OP_breg31 && !breg_named_offset(a, id))
            return false;
        return emit_leb(a, id, true);
    case DWEXPR_OPND_ULEB_SLEB:
        if (!emit_reg(a, id))
            return false;
        return emit_leb(a, id, true);
    case DWEXPR_OPND_ULEB_ULEB:
        if (dwx_operand_style((dwexpr_opid)id, 0) == DWX_STYLE_REG) {
            if (!emit_reg(a, id))
                return false;
        } else if (!emit_leb(a, id, false)) {
            return false;
        }
        return emit_leb(a, id, false);
    case DWEXPR_OPND_BLOCK: {
        /* DWARF 5 2.5.1.7 entry_value may also be written with its
         * expression in parentheses */
        size_t save = a->pos;
        if ((id == DWEXPR_OP_entry_value || id == DWEXPR_OP_GNU_entry_value) &&
            skip_blank(a) && a->text[a->pos] == '(')
            return emit_nested(a, id);
        a->pos = save;
        if (lone_blob(a, &v)) { /* the length left out: the block's own */
            put_leb(a, v, false, 0);
            return emit_blob(a, id, v, "block");
        }
        if (!read_number(a, id, &num) || !not_negative(a, id, &num) ||
            !fit_bits(a, id, &num, 64, FIT_UNSIGNED, &v))
            return false;
        if (!emit_leb_value(a, id, &num, v, false))
            return false;
        return emit_blob(a, id, v, "block");
    }
    case DWEXPR_OPND_CONST_TYPE:
        /* DWARF 5 2.5.1.1: type DIE, size byte, constant bytes */
        if (!emit_leb(a, id, false))
            return false;
        if (lone_blob(a, &v)) { /* the size left out: the constant's own */
            if (v > 255) {
                SYNTAX(a, a->pos, id, "%s: a constant of %llu bytes (at most 255)",
                       op_name(id), (unsigned long long)v);
                return false;
            }
            put_fixed(a, v, 1);
            return emit_blob(a, id, v, "constant");
        }
        if (!read_number(a, id, &n2) || !no_pad(a, id, &n2) || !not_negative(a, id, &n2) ||
            !fit_bits(a, id, &n2, 8, FIT_UNSIGNED, &v))
            return false;
        put_fixed(a, v, 1);
        return emit_blob(a, id, v, "constant");
    case DWEXPR_OPND_U8_ULEB:
        if (!emit_fixed(a, id, 1, FIT_UNSIGNED))
            return false;
        return emit_leb(a, id, false);
    case DWEXPR_OPND_REF:
        return emit_fixed(a, id, a->ref_size, FIT_UNSIGNED);
    case DWEXPR_OPND_REF_SLEB:
        if (!emit_fixed(a, id, a->ref_size, FIT_UNSIGNED))
            return false;
        return emit_leb(a, id, true);
    case DWEXPR_OPND_ENCODED_ADDR: {
        /* DW_EH_PE encoding byte, then the value in that encoding */
        if (!read_number(a, id, &num) || !no_pad(a, id, &num) ||
            !fit_bits(a, id, &num, 8, FIT_UNSIGNED, &v))
            return false;
        unsigned enc = (unsigned)v;
        static const uint8_t fixed_size[16] = {[0x2] = 2, [0x3] = 4, [0x4] = 8,
                                               [0xa] = 2, [0xb] = 4, [0xc] = 8};
        unsigned low = enc & 0x0f, size = low == 0 ? a->u.addr_size : fixed_size[low];
        if (low != 0x1 && low != 0x9 && size == 0) {
            SYNTAX(a, num.tok.off, id, "%s: unsupported DW_EH_PE encoding 0x%02x",
                   op_name(id), enc);
            return false;
        }
        put_fixed(a, enc, 1);
        if (!read_number(a, id, &n2))
            return false;
        if (low == 0x1 || low == 0x9)
            return fit_bits(a, id, &n2, 64, low == 0x9 ? FIT_SIGNED : FIT_UNSIGNED, &v) &&
                   emit_leb_value(a, id, &n2, v, low == 0x9);
        if (!no_pad(a, id, &n2))
            return false;
        if (low >= 0xa && size < 8 && !n2.neg) {
            /* sdataN prints sign-extended to 64 bits: take that form back */
            uint64_t sign = (uint64_t)1 << (8 * size - 1);
            uint64_t lowmask = (sign << 1) - 1;
            if (n2.mag > lowmask && (n2.mag | (lowmask >> 1)) == UINT64_MAX)
                n2.mag &= lowmask;
        }
        if (!fit_bits(a, id, &n2, 8 * size, low >= 0xa ? FIT_SIGNED : FIT_UNSIGNED, &v))
            return false;
        put_fixed(a, v, size);
        return true;
    }
    default:
        SYNTAX(a, a->pos, id, "%s: internal: bad operand layout", op_name(id));
        return false;
    }
}

/* Emit the opcode of ID in the unit's DW_OP_LLVM_* encoding; PAD is the
 * @N length of a DW_OP_LLVM_user sub-op. */
static bool emit_opcode(asmst *a, unsigned id, const token *t, unsigned pad)
{
    const dwexpr_opinfo *info = dwexpr_op_info((dwexpr_opid)id);
    const char *s = a->text + t->off;
    if (a->u.ext_encoding == DWEXPR_EXT_LLVM_USER && info->subop) {
        uint8_t b = DW_OP_LLVM_user;
        put_bytes(a->o, &b, 1);
        put_leb(a, info->subop, false, pad);
        return true;
    }
    if (pad) {
        SYNTAX(a, t->off, id, "'%.*s': @N padding on an operation name only applies to "
               "DW_OP_LLVM_user sub-operations", (int)t->len, s);
        return false;
    }
    if (a->u.ext_encoding == DWEXPR_EXT_LLVM_USER && info->code == DW_OP_LLVM_user) {
        SYNTAX(a, t->off, id, "%s has no encoding in the llvm-user DW_OP_LLVM_* encoding "
               "(only the provisional byte 0x%02x)", info->name, info->code);
        return false;
    }
    if (info->code == 0) {
        SYNTAX(a, t->off, id, "%s has no encoding in the provisional DW_OP_LLVM_* encoding "
               "(only DW_OP_LLVM_user sub-op 0x%02x)", info->name, info->subop);
        return false;
    }
    uint8_t b = info->code;
    put_bytes(a->o, &b, 1);
    return true;
}

/* llvm-dwarfdump writes DW_OP_regN's register name after it
 * ("DW_OP_reg6 RBP"): skipped when it names register N, an error when it
 * names another; any other word is the next operation. */
static bool reg_name_after(asmst *a, unsigned id)
{
    size_t save = a->pos;
    token t;
    uint32_t r;
    if (next_token(a, &t) <= 0 || is_op_name(a->text + t.off, t.len) ||
        !reg_by_name(a, a->text + t.off, t.len, &r)) {
        a->pos = save;
        return true;
    }
    if (r != id - DWEXPR_OP_reg0) {
        SYNTAX(a, t.off, id, "%s: '%.*s' names register %u", op_name(id), (int)t.len,
               a->text + t.off, (unsigned)r);
        return false;
    }
    return true;
}

/* Assemble every operation from a->pos to a->end. */
static bool assemble(asmst *a)
{
    token t;
    int r;
    while ((r = next_token(a, &t)) > 0) {
        const char *s = a->text + t.off;
        size_t body;
        unsigned pad;
        if (split_pad(s, t.len, &body, &pad) < 0) {
            SYNTAX(a, t.off, DWEXPR_OP_COUNT, "bad padding in '%.*s'", (int)t.len, s);
            return false;
        }
        if (name_eq(s, t.len, "DW_OP_LLVM_user") || name_eq(s, t.len, "LLVM_user")) {
            /* llvm-dwarfdump's spelling of a sub-operation:
             * "DW_OP_LLVM_user DW_OP_LLVM_form_aspace_address" */
            const token user = t;
            if (!need_token(a, DWEXPR_OP_COUNT, &t))
                return false;
            s = a->text + t.off;
            if (split_pad(s, t.len, &body, &pad) < 0) {
                SYNTAX(a, t.off, DWEXPR_OP_COUNT, "bad padding in '%.*s'", (int)t.len, s);
                return false;
            }
            dwexpr_opid sub = dwexpr_op_by_name(s, body);
            if (sub == DWEXPR_OP_COUNT || !dwexpr_op_info(sub)->subop) {
                SYNTAX(a, t.off, DWEXPR_OP_COUNT, "DW_OP_LLVM_user: '%.*s' is no DW_OP_LLVM_* "
                       "sub-operation", (int)(t.len > 60 ? 60 : t.len), s);
                return false;
            }
            if (a->u.ext_encoding != DWEXPR_EXT_LLVM_USER) {
                SYNTAX(a, user.off, sub, "DW_OP_LLVM_user %s: the DW_OP_LLVM_* encoding is "
                       "provisional here (context \"ext_encoding\")", op_name(sub));
                return false;
            }
        }
        dwexpr_opid id = dwexpr_op_by_name(s, body);
        if (id == DWEXPR_OP_COUNT) {
            bool num = t.len && (isdigit((unsigned char)s[0]) || s[0] == '-');
            SYNTAX(a, t.off, DWEXPR_OP_COUNT, num ? "expected an operation, got '%.*s'"
                                                  : "unknown operation '%.*s'",
                   (int)(t.len > 60 ? 60 : t.len), s);
            return false;
        }
        if (!emit_opcode(a, id, &t, pad) || !emit_operands(a, id))
            return false;
        if (a->has_pending) {
            SYNTAX(a, a->pending.off, id, "%s: no offset operand for '%.*s'", op_name(id),
                   (int)a->pending.len, a->text + a->pending.off);
            return false;
        }
        if (id >= DWEXPR_OP_reg0 && id <= DWEXPR_OP_reg31 && !reg_name_after(a, id))
            return false;
    }
    return r == 0;
}

/* Assemble TEXT for UNIT (see include/dwexpr/eval.h). */
dwexpr_status dwexpr_asm(const char *text, const dwexpr_unit *unit, const dwexpr_arch *arch,
                         uint8_t *out, size_t cap, size_t *len, dwexpr_error *err)
{
    obuf o = {out, out ? cap : 0, 0};
    if (len)
        *len = 0;
    if (!text)
        return dwx_fail(err, DWEXPR_E_USAGE, -1, DWEXPR_OP_COUNT, "no text");
    asmst a = {text, 0, strlen(text), dwx_text_unit(unit, arch), 0, arch, &o, err, 0, 0, false, {0, 0}};
    dwexpr_status st = dwx_unit_check(&a.u, err);
    if (st != DWEXPR_OK)
        return st;
    a.ref_size = dwx_ref_size(&a.u);
    if (!assemble(&a))
        return DWEXPR_E_SYNTAX;
    if (len)
        *len = o.len;
    if (o.len > o.cap)
        return dwx_fail(err, DWEXPR_E_NOSPACE, -1, DWEXPR_OP_COUNT,
                        "assembled %zu bytes, room for %zu", o.len, o.cap);
    return DWEXPR_OK;
}
