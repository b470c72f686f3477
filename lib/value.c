/* lib/value.c: typed values: arithmetic, logical and relational operations
 * (DWARF 5 section 2.5.1.4 and 2.5.1.5, kept by the seed), conversions
 * (DWARF 5 section 2.5.1.6) and moving values to and from storage bits. */
#include <float.h>

#include "evalint.h"
#include "decimal.h"

/* x87 extended values (DWEXPR_FLOAT_X87) are computed with the host's
 * long double where it is that very format (x86 hosts: a 64-bit
 * significand, 15-bit exponent, the 10 bytes first in memory), so each
 * operation rounds once, as the x87 does and as GDB computes them; on
 * other hosts their arithmetic is an error, not an approximation. */
#if (defined(__x86_64__) || defined(__i386__)) && LDBL_MANT_DIG == 64 && LDBL_MAX_EXP == 16384
#  define DWX_HOST_X87 1
#endif

/* Operands "must be of the same type, either the same base type or the
 * generic type" (DWARF 5 2.5.1.4). Base types compare by their
 * properties, so two DIEs describing the same type agree. */
static uint8_t float_format(const dwexpr_type *t);

bool dwx_type_equal(const dwexpr_type *a, const dwexpr_type *b)
{
    return a->encoding == b->encoding && a->bits == b->bits &&
           (a->lanes ? a->lanes : 1) == (b->lanes ? b->lanes : 1) &&
           (a->encoding == DWEXPR_ATE_GENERIC || a->endian == b->endian) &&
           (a->encoding != DW_ATE_float || float_format(a) == float_format(b));
}

/* Integral encodings: dwx_encoding_integral (lib/evalint.h). */
bool dwexpr_type_is_integral(const dwexpr_type *t)
{
    return dwx_encoding_integral(t->encoding);
}

static bool is_signed_type(const dwexpr_type *t)
{
    return t->encoding == DW_ATE_signed || t->encoding == DW_ATE_signed_char;
}

/* The format of floating-point type T: its own, else what dwexpr took
 * before types had one (DWEXPR_FLOAT_DEFAULT): IEEE binary32 / binary64
 * for 32 / 64 bits, any other size unknown. */
static uint8_t float_format(const dwexpr_type *t)
{
    if (t->format != DWEXPR_FLOAT_DEFAULT)
        return t->format;
    return t->bits == 32 || t->bits == 64 ? DWEXPR_FLOAT_IEEE : DWEXPR_FLOAT_DEFAULT;
}

/* IEEE binary32 / binary64: computed with the host's float and double. */
static bool is_float_type(const dwexpr_type *t)
{
    return t->encoding == DW_ATE_float && (t->bits == 32 || t->bits == 64) &&
           float_format(t) == DWEXPR_FLOAT_IEEE;
}

/* An x87 extended type (DWEXPR_FLOAT_X87) of one lane: its 10 bytes and
 * padding up to 80, 96 or 128 bits (any whole number of bytes from 10 to
 * 16 is taken). Its values are always wide. */
static bool x87_type(const dwexpr_type *t)
{
    return t->encoding == DW_ATE_float && float_format(t) == DWEXPR_FLOAT_X87 &&
           (t->lanes ? t->lanes : 1) == 1 && t->bits >= 80 && t->bits <= 128 && t->bits % 8 == 0;
}

/* The error for arithmetic on floating-point type T that dwexpr does not
 * compute (its format is unknown or not taken, or the host cannot compute
 * it exactly). */
static DWX_COLD dwexpr_status float_unsupported(dwexpr_ctx *ctx, const dwexpr_type *t)
{
    if (x87_type(t))
        return dwx_ctx_fail(ctx, DWEXPR_E_ILL_FORMED,
                            "x87 80-bit extended floating-point arithmetic is not supported on "
                            "this host (its long double is not the x87 format)");
    if (float_format(t) == DWEXPR_FLOAT_IEEE)
        return dwx_ctx_fail(ctx, DWEXPR_E_ILL_FORMED,
                            "IEEE %u-bit binary floating-point arithmetic is not supported",
                            (unsigned)t->bits);
    return dwx_ctx_fail(ctx, DWEXPR_E_ILL_FORMED,
                        "%u-bit floating-point arithmetic is not supported%s", (unsigned)t->bits,
                        float_format(t) == DWEXPR_FLOAT_DEFAULT
                            ? " (the target does not say its format)" : "");
}

/* The 10 bytes of x87 value V (little-endian: significand, then sign and
 * exponent) into OUT. */
static void x87_bytes(const dwexpr_value *v, uint8_t out[10])
{
    for (unsigned i = 0; i < 10; i++)
        out[i] = v->wide ? v->wide[i] : i < 8 ? (uint8_t)(v->bits >> (8 * i)) : 0;
}

/* R (its x87 type set) holds the 10 bytes X and zero padding: fresh wide
 * bytes in the scratch. */
static dwexpr_status x87_set_bytes(dwexpr_ctx *ctx, dwexpr_value *r, const uint8_t x[10])
{
    const size_t n = r->type.bits / 8;
    uint8_t *w = dwx_alloc(ctx, n);
    if (!w)
        return dwx_ctx_fail(ctx, DWEXPR_E_NOSPACE, "out of scratch memory for a %u-bit value",
                            (unsigned)r->type.bits);
    memset(w, 0, n);
    memcpy(w, x, 10);
    r->bits = 0;
    for (unsigned i = 0; i < 8; i++)
        r->bits |= (uint64_t)w[i] << (8 * i);
    r->wide = w;
    return DWEXPR_OK;
}

#if defined(DWX_HOST_X87)
/* x87 value V as the host's long double (the same format). */
static long double x87_get(const dwexpr_value *v)
{
    uint8_t b[sizeof(long double)] = {0};
    x87_bytes(v, b);
    long double x;
    memcpy(&x, b, sizeof x);
    return x;
}

/* R (its x87 type set) holds X. */
static dwexpr_status x87_set(dwexpr_ctx *ctx, dwexpr_value *r, long double x)
{
    uint8_t b[sizeof(long double)];
    memcpy(b, &x, sizeof b);
    return x87_set_bytes(ctx, r, b);
}
#endif


static double as_double(const dwexpr_value *v)
{
    if (v->type.bits == 32) {
        uint32_t w = (uint32_t)v->bits;
        float f;
        memcpy(&f, &w, sizeof f);
        return f;
    }
    double d;
    memcpy(&d, &v->bits, sizeof d);
    return d;
}

/* 2^N as a double, 0 <= N <= 64, without libm. */
static double pow2(uint32_t n)
{
    return n >= 64 ? 18446744073709551616.0 : (double)((uint64_t)1 << n);
}

static uint64_t from_double(double d, uint32_t bits)
{
    if (bits == 32) {
        float f = (float)d;
        uint32_t w;
        memcpy(&w, &f, sizeof w);
        return w;
    }
    uint64_t w;
    memcpy(&w, &d, sizeof w);
    return w;
}

#if defined(DWX_HAVE_INT128)
/* V's bits (at most 128) as one word: its wide bytes (little-endian, as
 * dwx_value_from_bits keeps them) or its 64 bits. */
static dwx_u128 value_u128(const dwexpr_value *v)
{
    if (!v->wide)
        return v->bits;
    const uint64_t nbytes = (dwx_value_bits(v) + 7) / 8;
    dwx_u128 x = 0;
    for (uint64_t i = 0; i < nbytes && i < 16; i++)
        x |= (dwx_u128)v->wide[i] << (8 * i);
    return x;
}

/* R (its type set) holds X cut to the type's bits: more than 64 in wide
 * bytes in the scratch (a fresh copy: never an operand's). */
static dwexpr_status set_u128(dwexpr_ctx *ctx, dwexpr_value *r, dwx_u128 x)
{
    const uint32_t n = r->type.bits;
    x &= dwx_mask128(n);
    r->bits = (uint64_t)x;
    r->wide = NULL;
    if (n <= 64)
        return DWEXPR_OK;
    const size_t nbytes = (n + 7) / 8;
    uint8_t *w = dwx_alloc(ctx, nbytes);
    if (!w)
        return dwx_ctx_fail(ctx, DWEXPR_E_NOSPACE, "out of scratch memory for a %u-bit value",
                            (unsigned)n);
    for (size_t i = 0; i < nbytes; i++)
        w[i] = (uint8_t)(x >> (8 * i));
    r->wide = w;
    return DWEXPR_OK;
}
#endif

/* A decimal floating-point value of one lane that lib/decimal.c takes
 * (32, 64 or 128 bits, DWX_HAVE_INT128). */
static bool decimal_value(const dwexpr_value *v)
{
    return v->type.encoding == DW_ATE_decimal_float && v->type.lanes <= 1 &&
           dwx_dec_supported(v->type.bits);
}

/* The error for arithmetic on a decimal type lib/decimal.c does not take. */
static dwexpr_status decimal_unsupported(dwexpr_ctx *ctx, const dwexpr_type *t)
{
    return dwx_ctx_fail(ctx, DWEXPR_E_ILL_FORMED,
                        "%u-bit decimal floating-point arithmetic is not supported",
                        (unsigned)t->bits);
}

/* An integral value of 65 to 128 bits, one lane: what the 128-bit
 * arithmetic takes (DWX_HAVE_INT128). */
static bool int128_value(const dwexpr_value *v)
{
#if defined(DWX_HAVE_INT128)
    return v->type.lanes <= 1 && v->type.bits > 64 && v->type.bits <= 128 &&
           dwexpr_type_is_integral(&v->type);
#else
    (void)v;
    return false;
#endif
}

static dwexpr_status check_scalar(dwexpr_ctx *ctx, const dwexpr_value *v)
{
    if (v->is_implicit_pointer)
        return dwx_ctx_fail(ctx, DWEXPR_E_IMPLICIT_PTR,
                            "an implicit pointer value can only be used as a location or by "
                            "DW_OP_stack_value");
    /* a wide float of one lane: the operation says whether it takes it
     * (after the operands' types are compared) */
    const bool wide_float = v->type.encoding == DW_ATE_float && v->type.lanes <= 1;
    if ((v->wide && !int128_value(v) && !decimal_value(v) && !wide_float) ||
        (v->type.lanes > 1))
        return dwx_ctx_fail(ctx, DWEXPR_E_ILL_FORMED,
                            "arithmetic on %u-bit values (vectors, or wider than the integers "
                            "and floats taken) is not supported",
                            (unsigned)dwx_value_bits(v));
    return DWEXPR_OK;
}

static void set_generic_bool(const dwexpr_unit *u, dwexpr_value *r, bool b)
{
    memset(r, 0, sizeof *r);
    r->type = dwx_generic_type(u);
    r->bits = b ? 1 : 0;
}

/* Whether the generic type G may stand for base type T in a binary
 * operation. DWARF 5 2.5.1.4 asks for operands of the same type; the
 * generic type is an integral type of the address size with unspecified
 * signedness (seed "DWARF Expression Value"), so an integral base type of
 * that size (and endianity), signed or unsigned, is taken as the same
 * type, and the result has the base type. LLVM relies on it: after a sign
 * extension (`DW_OP_convert <signed 64>; DW_OP_lit3; DW_OP_mul`, which GDB
 * evaluates: its generic type is a signed integer of the address size)
 * and after a zero extension (clang at -O1 and above: `DW_OP_convert
 * <unsigned 32>; DW_OP_convert <unsigned 64>; DW_OP_plus_uconst 3;
 * DW_OP_constu 0x44; DW_OP_xor`, which GDB evaluates because its
 * DW_OP_plus_uconst yields the generic type; DWARF 5 keeps the operand's
 * type there, as dwexpr does). Narrower or wider types, floating point
 * and vectors stay a mismatch. */
static bool generic_stands_for(const dwexpr_unit *u, const dwexpr_type *g, const dwexpr_type *t)
{
    return g->encoding == DWEXPR_ATE_GENERIC &&
           (t->encoding == DW_ATE_signed || t->encoding == DW_ATE_unsigned) &&
           t->bits == g->bits && (t->lanes ? t->lanes : 1) == 1 &&
           (t->endian == DW_END_default ||
            t->endian == (u->big_endian ? DW_END_big : DW_END_little));
}

dwexpr_status dwx_value_binary(dwexpr_ctx *ctx, const dwexpr_unit *u, int x,
                               const dwexpr_value *a, const dwexpr_value *b, dwexpr_value *r)
{
    dwexpr_status st;
    if ((st = check_scalar(ctx, a)) || (st = check_scalar(ctx, b)))
        return st;
    dwexpr_value as_typed; /* a generic operand taken as the other's type */
    if (generic_stands_for(u, &a->type, &b->type)) {
        as_typed = *a;
        as_typed.type = b->type;
        a = &as_typed;
    } else if (generic_stands_for(u, &b->type, &a->type)) {
        as_typed = *b;
        as_typed.type = a->type;
        b = &as_typed;
    }
    if (!dwx_type_equal(&a->type, &b->type))
        return dwx_ctx_fail(ctx, DWEXPR_E_TYPE_MISMATCH,
                            "operands have different types (%u-bit %s and %u-bit %s)",
                            (unsigned)a->type.bits, a->type.encoding ? "typed" : "generic",
                            (unsigned)b->type.bits, b->type.encoding ? "typed" : "generic");
    const dwexpr_type *t = &a->type;
    bool is_cmp = x == DWEXPR_OP_eq || x == DWEXPR_OP_ne || x == DWEXPR_OP_lt ||
                  x == DWEXPR_OP_le || x == DWEXPR_OP_gt || x == DWEXPR_OP_ge;

    if (x87_type(t)) {
        /* DWARF 5 2.5.1.4: abs, div, minus, mul, neg and plus take
         * non-integral operands; x87 extended ones as the x87 computes
         * them (one rounding, to nearest even, 64-bit significand), the
         * comparisons too (a NaN is unordered) */
#if defined(DWX_HOST_X87)
        long double la = x87_get(a), lb = x87_get(b), lr;
        if (is_cmp) {
            bool c = x == DWEXPR_OP_eq ? la == lb : x == DWEXPR_OP_ne ? la != lb
                   : x == DWEXPR_OP_lt ? la < lb : x == DWEXPR_OP_le ? la <= lb
                   : x == DWEXPR_OP_gt ? la > lb : la >= lb;
            set_generic_bool(u, r, c);
            return DWEXPR_OK;
        }
        switch (x) {
        case DWEXPR_OP_plus: lr = la + lb; break;
        case DWEXPR_OP_minus: lr = la - lb; break;
        case DWEXPR_OP_mul: lr = la * lb; break;
        case DWEXPR_OP_div: lr = la / lb; break; /* x/0 is an infinity, as for IEEE */
        default:
            return dwx_ctx_fail(ctx, DWEXPR_E_NOT_INTEGRAL,
                                "operation needs integral operands, not floating point");
        }
        *r = *a;
        return x87_set(ctx, r, lr);
#else
        return float_unsupported(ctx, t);
#endif
    }
    if (t->encoding == DW_ATE_float) {
        if (!is_float_type(t))
            return float_unsupported(ctx, t);
        double da = as_double(a), db = as_double(b), dr;
        if (is_cmp) {
            bool c = x == DWEXPR_OP_eq ? da == db : x == DWEXPR_OP_ne ? da != db
                   : x == DWEXPR_OP_lt ? da < db : x == DWEXPR_OP_le ? da <= db
                   : x == DWEXPR_OP_gt ? da > db : da >= db;
            set_generic_bool(u, r, c);
            return DWEXPR_OK;
        }
        switch (x) {
        case DWEXPR_OP_plus: dr = da + db; break;
        case DWEXPR_OP_minus: dr = da - db; break;
        case DWEXPR_OP_mul: dr = da * db; break;
        case DWEXPR_OP_div: dr = da / db; break; /* IEEE: x/0 is an infinity */
        default:
            return dwx_ctx_fail(ctx, DWEXPR_E_NOT_INTEGRAL,
                                "operation needs integral operands, not floating point");
        }
        *r = *a;
        r->bits = from_double(dr, t->bits);
        return DWEXPR_OK;
    }
    if (t->encoding == DW_ATE_decimal_float) {
        /* DWARF 5 2.5.1.4: abs, div, minus, mul, neg and plus take
         * non-integral operands; decimal ones by IEEE 754-2008's rules
         * (lib/decimal.c), the comparisons too */
        if (!decimal_value(a))
            return decimal_unsupported(ctx, t);
#if defined(DWX_HAVE_INT128)
        dwx_u128 dr;
        if (dwx_dec_binary((unsigned)x, t->bits, value_u128(a), value_u128(b), &dr))
            return dwx_ctx_fail(ctx, DWEXPR_E_NOT_INTEGRAL,
                                "operation needs integral operands, not decimal floating point");
        if (is_cmp) {
            set_generic_bool(u, r, dr != 0);
            return DWEXPR_OK;
        }
        *r = *a;
        return set_u128(ctx, r, dr);
#endif
    }
    if (!dwexpr_type_is_integral(t))
        return dwx_ctx_fail(ctx, DWEXPR_E_NOT_INTEGRAL,
                            "operands must be integral (DW_ATE encoding 0x%x)", t->encoding);

    uint32_t n = t->bits;
    bool generic = t->encoding == DWEXPR_ATE_GENERIC;
    uint64_t ur = 0;
#if defined(DWX_HAVE_INT128)
    /* 65 to 128 bits (an __int128): the same rules on 128-bit words */
    const bool wide = int128_value(a);
    dwx_u128 wr = 0;
    if (wide)
        st = dwx_int128_binary((unsigned)x, value_u128(a), value_u128(b), n, generic,
                               is_signed_type(t), &wr);
    else
#endif
    {
        if (n == 0 || n > 64)
            return dwx_ctx_fail(ctx, DWEXPR_E_ILL_FORMED,
                                "%u-bit integer arithmetic is not supported", (unsigned)n);
        st = dwx_int_binary((unsigned)x, a->bits, b->bits, n, generic, is_signed_type(t), &ur);
    }
    if (st == DWEXPR_E_DIV_ZERO)
        return dwx_ctx_fail(ctx, DWEXPR_E_DIV_ZERO,
                            x == DWEXPR_OP_div ? "division by zero" : "modulo by zero");
    if (st)
        return dwx_ctx_fail(ctx, DWEXPR_E_USAGE, "internal: not a binary operation");
#if defined(DWX_HAVE_INT128)
    if (wide)
        ur = wr != 0; /* what a comparison needs; the value is set below */
#endif
    if (is_cmp) {
        set_generic_bool(u, r, ur != 0);
        return DWEXPR_OK;
    }
    *r = *a;
#if defined(DWX_HAVE_INT128)
    if (wide)
        return set_u128(ctx, r, wr);
#endif
    r->bits = ur;
    return DWEXPR_OK;
}

dwexpr_status dwx_value_unary(dwexpr_ctx *ctx, int x, const dwexpr_value *a, dwexpr_value *r)
{
    dwexpr_status st = check_scalar(ctx, a);
    if (st)
        return st;
    const dwexpr_type *t = &a->type;
    *r = *a;
    if (t->encoding == DW_ATE_float) {
        if (!is_float_type(t) && !x87_type(t))
            return float_unsupported(ctx, t);
        if (x != DWEXPR_OP_neg && x != DWEXPR_OP_abs)
            return dwx_ctx_fail(ctx, DWEXPR_E_NOT_INTEGRAL,
                                "DW_OP_not needs an integral operand, not floating point");
        if (x87_type(t)) {
            /* IEEE 754-2008 5.5.1 (the x87's FCHS and FABS): the sign, bit
             * 79, changes and nothing else; the result's padding is zero */
            uint8_t b[10];
            x87_bytes(a, b);
            b[9] = x == DWEXPR_OP_neg ? (uint8_t)(b[9] ^ 0x80) : (uint8_t)(b[9] & 0x7f);
            return x87_set_bytes(ctx, r, b);
        }
        const uint64_t sign = (uint64_t)1 << (t->bits - 1);
        r->bits = x == DWEXPR_OP_neg ? a->bits ^ sign : a->bits & ~sign;
        return DWEXPR_OK;
    }
    if (t->encoding == DW_ATE_decimal_float) {
        /* IEEE 754-2008 5.5.1: negate and abs change the sign bit only */
        if (!decimal_value(a))
            return decimal_unsupported(ctx, t);
#if defined(DWX_HAVE_INT128)
        const dwx_u128 sign = (dwx_u128)1 << (t->bits - 1), v = value_u128(a);
        if (x == DWEXPR_OP_neg)
            return set_u128(ctx, r, v ^ sign);
        if (x == DWEXPR_OP_abs)
            return set_u128(ctx, r, v & ~sign);
        return dwx_ctx_fail(ctx, DWEXPR_E_NOT_INTEGRAL,
                            "DW_OP_not needs an integral operand, not decimal floating point");
#endif
    }
    if (!dwexpr_type_is_integral(t))
        return dwx_ctx_fail(ctx, DWEXPR_E_NOT_INTEGRAL,
                            "operand must be integral (DW_ATE encoding 0x%x)", t->encoding);
    uint32_t n = t->bits;
#if defined(DWX_HAVE_INT128)
    if (int128_value(a)) {
        /* 65 to 128 bits: the rules below on a 128-bit word */
        const dwx_u128 m = dwx_mask128(n), ua = value_u128(a) & m;
        dwx_u128 ur = ua;
        if (x == DWEXPR_OP_neg ||
            (x == DWEXPR_OP_abs && is_signed_type(t) && dwx_sext128(ua, n) < 0))
            ur = (dwx_u128)0 - ua;
        else if (x == DWEXPR_OP_not)
            ur = ~ua;
        else if (x != DWEXPR_OP_abs)
            return dwx_ctx_fail(ctx, DWEXPR_E_USAGE, "internal: not a unary operation");
        return set_u128(ctx, r, ur);
    }
#endif
    if (n == 0 || n > 64)
        return dwx_ctx_fail(ctx, DWEXPR_E_ILL_FORMED, "%u-bit integer arithmetic is not supported",
                            (unsigned)n);
    uint64_t m = dwx_mask(n), ua = a->bits & m;
    switch (x) {
    case DWEXPR_OP_neg: r->bits = ((uint64_t)0 - ua) & m; break;
    case DWEXPR_OP_not: r->bits = ~ua & m; break;
    case DWEXPR_OP_abs:
        /* Generic and signed operands are signed; MIN stays MIN. */
        if ((t->encoding == DWEXPR_ATE_GENERIC || is_signed_type(t)) && dwx_sext(ua, n) < 0)
            r->bits = ((uint64_t)0 - ua) & m;
        break;
    default:
        return dwx_ctx_fail(ctx, DWEXPR_E_USAGE, "internal: not a unary operation");
    }
    return DWEXPR_OK;
}

/* DW_OP_convert from or to a decimal floating-point type (dwx_value_convert
 * asks only when the others do not apply, off its common path): to and
 * from integers of up to 128 bits and between its sizes (lib/decimal.c),
 * toward zero into an integer, a value it cannot hold an error, as for
 * binary floats; anything else is not supported. R's type is set. */
static DWX_COLD dwexpr_status convert_decimal(dwexpr_ctx *ctx, const dwexpr_value *a, const dwexpr_type *t,
                                     dwexpr_value *r)
{
    const uint64_t from_bits = dwx_value_bits(a);
    const uint64_t to_bits = (uint64_t)t->bits * (t->lanes ? t->lanes : 1);
    const bool f_dec = a->type.encoding == DW_ATE_decimal_float,
               t_dec = t->encoding == DW_ATE_decimal_float;
#if defined(DWX_HAVE_INT128)
    const bool f_ok = f_dec ? decimal_value(a)
                            : dwexpr_type_is_integral(&a->type) && a->type.lanes <= 1 &&
                                  from_bits > 0 && from_bits <= 128;
    const bool t_ok = (t->lanes ? t->lanes : 1) == 1 &&
                      (t_dec ? dwx_dec_supported(t->bits)
                             : dwexpr_type_is_integral(t) && to_bits > 0 && to_bits <= 128);
    if (f_ok && t_ok) {
        dwx_u128 v = value_u128(a);
        if (f_dec && t_dec)
            return set_u128(ctx, r, dwx_dec_resize(a->type.bits, t->bits, v));
        if (t_dec)
            return set_u128(ctx, r, dwx_dec_from_int(t->bits, v, (uint32_t)from_bits,
                                                     is_signed_type(&a->type)));
        dwx_u128 iv;
        if (!dwx_dec_to_int(a->type.bits, v, (uint32_t)to_bits, is_signed_type(t), &iv))
            return dwx_ctx_fail(ctx, DWEXPR_E_EVALUATION,
                                "decimal floating-point value does not fit the %u-bit "
                                "integer type", (unsigned)t->bits);
        return set_u128(ctx, r, iv);
    }
#endif
    return dwx_ctx_fail(ctx, DWEXPR_E_ILL_FORMED,
                        "DW_OP_convert between a %llu-bit %s and a %llu-bit %s type is not "
                        "supported", (unsigned long long)from_bits,
                        f_dec ? "decimal floating-point" : "non-decimal",
                        (unsigned long long)to_bits,
                        t_dec ? "decimal floating-point" : "non-decimal");
}

/* DW_OP_convert from or to an x87 extended type (DWARF 5 2.5.1.6: the
 * value converted to the type; dwx_value_convert asks only then). R's
 * type is set. Between x87 types of any padding the 10 bytes are kept;
 * with a binary32 / binary64 float or an integer of up to 64 bits the
 * host's long double converts (DWX_HOST_X87): exactly into x87 (each of
 * them fits its 64-bit significand), rounded to nearest even out of it,
 * and toward zero into an integer (a C cast), a value the integer type
 * cannot hold an error, as for binary floats. Anything else, or another
 * host, is not supported. */
static DWX_COLD dwexpr_status convert_x87(dwexpr_ctx *ctx, const dwexpr_value *a,
                                          const dwexpr_type *t, dwexpr_value *r)
{
    const dwexpr_type *f = &a->type;
    const bool f_x87 = x87_type(f), t_x87 = x87_type(t);
    if (f_x87 && t_x87) {
        uint8_t b[10];
        x87_bytes(a, b);
        return x87_set_bytes(ctx, r, b);
    }
    const dwexpr_type *other = f_x87 ? t : f;
    const bool other_int = dwexpr_type_is_integral(other) && (f_x87 || !a->wide) &&
                           (other->lanes ? other->lanes : 1) == 1 && other->bits > 0 &&
                           other->bits <= 64;
    if (!is_float_type(other) && !other_int)
        return dwx_ctx_fail(ctx, DWEXPR_E_ILL_FORMED,
                            "DW_OP_convert between an x87 extended type and a %u-bit %s type "
                            "is not supported", (unsigned)other->bits,
                            other->encoding == DW_ATE_float ? "floating-point" : "non-integral");
#if defined(DWX_HOST_X87)
    if (t_x87) {
        long double x;
        if (is_float_type(f)) {
            x = as_double(a); /* binary32 widens to double exactly */
        } else {
            const uint64_t v = a->bits & dwx_mask(f->bits);
            x = is_signed_type(f) ? (long double)dwx_sext(v, f->bits) : (long double)v;
        }
        return x87_set(ctx, r, x);
    }
    const long double x = x87_get(a);
    if (t->encoding == DW_ATE_float) {
        if (t->bits == 32) {
            const float fl = (float)x;
            uint32_t w;
            memcpy(&w, &fl, sizeof w);
            r->bits = w;
        } else {
            const double d = (double)x;
            memcpy(&r->bits, &d, sizeof d);
        }
        return DWEXPR_OK;
    }
    /* trunc(x) >= lo <=> x > lo - 1 and trunc(x) < hi <=> x < hi, both
     * bounds exact in the 64-bit significand; NaN fails both */
    const long double hi = (long double)pow2(t->bits - (is_signed_type(t) ? 1 : 0));
    const long double lo = is_signed_type(t) ? -hi : 0.0L;
    if (!(x > lo - 1.0L && x < hi))
        return dwx_ctx_fail(ctx, DWEXPR_E_EVALUATION,
                            "floating-point value does not fit the %u-bit integer type",
                            (unsigned)t->bits);
    r->bits = (is_signed_type(t) ? (uint64_t)(int64_t)x : (uint64_t)x) & dwx_mask(t->bits);
    return DWEXPR_OK;
#else
    return float_unsupported(ctx, f_x87 ? f : t);
#endif
}

dwexpr_status dwx_value_convert(dwexpr_ctx *ctx, const dwexpr_value *a, const dwexpr_type *t,
                                bool reinterpret, dwexpr_value *r)
{
    if (!reinterpret && dwx_convert_int(a, t, r))
        return DWEXPR_OK; /* between integral types of up to 64 bits */
    if (a->is_implicit_pointer)
        return dwx_ctx_fail(ctx, DWEXPR_E_IMPLICIT_PTR,
                            "an implicit pointer value cannot be converted");
    uint64_t from_bits = dwx_value_bits(a);
    uint64_t to_bits = (uint64_t)t->bits * (t->lanes ? t->lanes : 1);
    memset(r, 0, sizeof *r);
    r->type = *t;
    if (reinterpret) {
        /* DWARF 5 2.5.1.6: the operand type and result type must have
         * the same size in bits. */
        if (from_bits != to_bits)
            return dwx_ctx_fail(ctx, DWEXPR_E_TYPE_MISMATCH,
                                "DW_OP_reinterpret from %llu to %llu bits: sizes must match",
                                (unsigned long long)from_bits, (unsigned long long)to_bits);
        r->bits = a->bits;
        r->wide = a->wide;
        return DWEXPR_OK;
    }
    if (a->wide || from_bits > 64 || a->type.lanes > 1 || (t->lanes ? t->lanes : 1) > 1 ||
        to_bits > 64 || to_bits == 0) {
        /* an x87 value or type (80 bits or more) is always here */
        if (x87_type(&a->type) || x87_type(t))
            return convert_x87(ctx, a, t, r);
#if defined(DWX_HAVE_INT128)
        /* integers of up to 128 bits (__int128), one lane: extended by the
         * source's signedness, cut to the result's bits, as below (a value
         * of more than 64 bits is wide: every such conversion is here) */
        if (from_bits <= 128 && to_bits <= 128 && to_bits > 0 && a->type.lanes <= 1 &&
            (t->lanes ? t->lanes : 1) == 1 && dwexpr_type_is_integral(&a->type) &&
            dwexpr_type_is_integral(t)) {
            dwx_u128 v = value_u128(a) & dwx_mask128((uint32_t)from_bits);
            if (is_signed_type(&a->type))
                v = (dwx_u128)dwx_sext128(v, (uint32_t)from_bits);
            return set_u128(ctx, r, v);
        }
#endif
        if (a->type.encoding == DW_ATE_decimal_float || t->encoding == DW_ATE_decimal_float)
            return convert_decimal(ctx, a, t, r);
        return dwx_ctx_fail(ctx, DWEXPR_E_ILL_FORMED,
                            "DW_OP_convert between %llu-bit and %llu-bit types is not supported",
                            (unsigned long long)from_bits, (unsigned long long)to_bits);
    }
    /* no value has 0 bits (dwx_base_type refuses such types, a target's
     * or caller's untyped value is generic): refused, not sign-extended */
    if (from_bits == 0)
        return dwx_ctx_fail(ctx, DWEXPR_E_ILL_FORMED, "DW_OP_convert of a value of 0 bits");
    const dwexpr_type *f = &a->type;
    bool f_float = f->encoding == DW_ATE_float, t_float = t->encoding == DW_ATE_float;
    if ((f_float && !is_float_type(f)) || (t_float && !is_float_type(t)))
        return dwx_ctx_fail(ctx, DWEXPR_E_ILL_FORMED,
                            "only 32- and 64-bit floating-point conversions are supported");
    if ((!f_float && !dwexpr_type_is_integral(f)) || (!t_float && !dwexpr_type_is_integral(t))) {
        if (f->encoding == DW_ATE_decimal_float || t->encoding == DW_ATE_decimal_float)
            return convert_decimal(ctx, a, t, r);
        return dwx_ctx_fail(ctx, DWEXPR_E_NOT_INTEGRAL,
                            "DW_OP_convert needs integral or floating-point types");
    }
    if (f_float && t_float) {
        r->bits = from_double(as_double(a), t->bits);
    } else if (f_float) {
        /* Truncate toward zero (what a C cast does); a value the type
         * cannot hold is an error rather than a silent wrong answer. The
         * bounds are checked before the cast, on the untruncated value:
         * trunc(d) >= lo  <=>  d > lo - 1, and trunc(d) < hi  <=>  d < hi;
         * NaN fails every comparison. */
        double d = as_double(a);
        double hi = pow2(t->bits - (is_signed_type(t) ? 1 : 0));
        double lo = is_signed_type(t) ? -hi : 0.0;
        bool ok = d > lo - 1.0 && d < hi;
        if (ok)
            r->bits = (is_signed_type(t) ? (uint64_t)(int64_t)d : (uint64_t)d) & dwx_mask(t->bits);
        if (!ok)
            return dwx_ctx_fail(ctx, DWEXPR_E_EVALUATION,
                                "floating-point value does not fit the %u-bit integer type",
                                (unsigned)t->bits);
    } else {
        /* to a floating-point type (between integral types of 1..64 bits,
         * dwx_convert_int answered above) */
        uint64_t v = a->bits & dwx_mask(f->bits);
        double d = is_signed_type(f) ? (double)dwx_sext(v, f->bits) : (double)v;
        r->bits = from_double(d, t->bits);
    }
    return DWEXPR_OK;
}

dwexpr_status dwx_value_from_bits(dwexpr_ctx *ctx, const dwexpr_unit *u, const dwexpr_type *t,
                                  const uint8_t *buf, dwexpr_value *r)
{
    uint64_t total = (uint64_t)t->bits * (t->lanes ? t->lanes : 1);
    uint64_t nbytes = (total + 7) / 8;
    memset(r, 0, sizeof *r);
    r->type = *t;
    if (r->type.lanes == 0)
        r->type.lanes = 1;
    bool big = dwx_type_big(u, t) && total % 8 == 0;
    if (total <= 64) {
        uint64_t v = 0;
        for (uint64_t i = 0; i < nbytes; i++) {
            uint64_t byte = big ? buf[nbytes - 1 - i] : buf[i];
            v |= byte << (8 * i);
        }
        r->bits = v & dwx_mask((uint32_t)total);
        return DWEXPR_OK;
    }
    uint8_t *w = dwx_alloc(ctx, (size_t)nbytes);
    if (!w)
        return dwx_ctx_fail(ctx, DWEXPR_E_NOSPACE, "out of scratch memory for a %llu-bit value",
                            (unsigned long long)total);
    for (uint64_t i = 0; i < nbytes; i++)
        w[i] = big ? buf[nbytes - 1 - i] : buf[i];
    if (total % 8)
        w[nbytes - 1] &= (uint8_t)((1u << (total % 8)) - 1);
    memcpy(&r->bits, w, 8);
    r->wide = w;
    return DWEXPR_OK;
}

void dwx_value_to_bytes(const dwexpr_unit *u, const dwexpr_value *v, uint8_t *out)
{
    uint64_t total = dwx_value_bits(v), nbytes = (total + 7) / 8;
    bool big = dwx_type_big(u, &v->type) && total % 8 == 0;
    if (!v->wide && !big && nbytes <= 8) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        memcpy(out, &v->bits, (size_t)nbytes); /* the host's order is the value's */
#else
        for (uint64_t i = 0; i < nbytes; i++)
            out[i] = (uint8_t)(v->bits >> (8 * i));
#endif
        return;
    }
    for (uint64_t i = 0; i < nbytes; i++) {
        uint8_t b = v->wide ? v->wide[i] : (i < 8 ? (uint8_t)(v->bits >> (8 * i)) : 0);
        out[big ? nbytes - 1 - i : i] = b;
    }
}
