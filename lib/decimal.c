/* lib/decimal.c: BID decimal floating point for the evaluator's typed
 * arithmetic (see lib/decimal.h). A value is a sign, a coefficient C of at
 * most P decimal digits and an exponent E (C x 10^E); exact results are
 * computed on 256-bit integers and rounded once. */
#include "decimal.h"

bool dwx_dec_supported(uint32_t bits)
{
#if defined(DWX_HAVE_INT128)
    return bits == 32 || bits == 64 || bits == 128;
#else
    (void)bits;
    return false;
#endif
}

#if defined(DWX_HAVE_INT128)

/* IEEE 754-2008 3.5 / 3.6: precision P, exponent bias (-qmin), largest
 * quantum exponent, width of the exponent field, and of the coefficient
 * in the first BID form. */
typedef struct dec_fmt {
    uint32_t bits;
    unsigned p;
    int bias, qmax;
    unsigned ebits, cbits;
} dec_fmt;

static const dec_fmt FMTS[] = {
    {32, 7, 101, 90, 8, 23},
    {64, 16, 398, 369, 10, 53},
    {128, 34, 6176, 6111, 14, 113},
};

static const dec_fmt *fmt_of(uint32_t bits)
{
    return bits == 32 ? &FMTS[0] : bits == 64 ? &FMTS[1] : &FMTS[2];
}

enum { DEC_FINITE, DEC_INF, DEC_NAN };

typedef struct dec {
    int kind;
    bool neg;
    dwx_u128 c;
    int e;
} dec;

/* ---- 256-bit unsigned integers (four 64-bit limbs, lowest first) ---- */

typedef struct u256 {
    uint64_t w[4];
} u256;

static u256 u256_of(dwx_u128 x)
{
    u256 r = {{(uint64_t)x, (uint64_t)(x >> 64), 0, 0}};
    return r;
}

static bool u256_zero(const u256 *a)
{
    return !(a->w[0] | a->w[1] | a->w[2] | a->w[3]);
}

static int u256_cmp(const u256 *a, const u256 *b)
{
    for (int i = 3; i >= 0; i--)
        if (a->w[i] != b->w[i])
            return a->w[i] < b->w[i] ? -1 : 1;
    return 0;
}

static u256 u256_add(const u256 *a, const u256 *b)
{
    u256 r;
    dwx_u128 carry = 0;
    for (int i = 0; i < 4; i++) {
        carry += (dwx_u128)a->w[i] + b->w[i];
        r.w[i] = (uint64_t)carry;
        carry >>= 64;
    }
    return r;
}

/* A - B, A >= B. */
static u256 u256_sub(const u256 *a, const u256 *b)
{
    u256 r;
    uint64_t borrow = 0;
    for (int i = 0; i < 4; i++) {
        uint64_t x = a->w[i], y = b->w[i];
        r.w[i] = x - y - borrow;
        borrow = (x < y) || (x == y && borrow);
    }
    return r;
}

/* A * M (M < 2^64; the caller keeps the product below 2^256). */
static u256 u256_mul_small(const u256 *a, uint64_t m)
{
    u256 r;
    dwx_u128 carry = 0;
    for (int i = 0; i < 4; i++) {
        carry += (dwx_u128)a->w[i] * m;
        r.w[i] = (uint64_t)carry;
        carry >>= 64;
    }
    return r;
}

/* X * Y, both below 2^128. */
static u256 u256_mul(dwx_u128 x, dwx_u128 y)
{
    const uint64_t a[2] = {(uint64_t)x, (uint64_t)(x >> 64)};
    const uint64_t b[2] = {(uint64_t)y, (uint64_t)(y >> 64)};
    u256 r = {{0, 0, 0, 0}};
    for (int i = 0; i < 2; i++) {
        dwx_u128 carry = 0;
        for (int j = 0; j < 2; j++) {
            carry += (dwx_u128)a[i] * b[j] + r.w[i + j];
            r.w[i + j] = (uint64_t)carry;
            carry >>= 64;
        }
        r.w[i + 2] = (uint64_t)carry;
    }
    return r;
}

/* *A / 10, returning the remainder. */
static unsigned u256_div10(u256 *a)
{
    dwx_u128 rem = 0;
    for (int i = 3; i >= 0; i--) {
        dwx_u128 cur = (rem << 64) | a->w[i];
        a->w[i] = (uint64_t)(cur / 10);
        rem = cur % 10;
    }
    return (unsigned)rem;
}

/* 10^K, K <= 77. */
static u256 u256_pow10(unsigned k)
{
    u256 r = u256_of(1);
    while (k--)
        r = u256_mul_small(&r, 10);
    return r;
}

/* ---- encodings (IEEE 754-2008 3.5.2, binary encoding) ---- */

static dwx_u128 mask(unsigned n)
{
    return n >= 128 ? ~(dwx_u128)0 : ((dwx_u128)1 << n) - 1;
}

static dwx_u128 pow10_128(unsigned k)
{
    dwx_u128 r = 1;
    while (k--)
        r *= 10;
    return r;
}

static dec decode(const dec_fmt *f, dwx_u128 x)
{
    dec d;
    const unsigned n = f->bits;
    x &= mask(n);
    d.neg = (x >> (n - 1)) & 1;
    d.c = 0;
    d.e = 0;
    const unsigned top5 = (unsigned)(x >> (n - 6)) & 0x1f;
    if (top5 == 0x1f) {
        d.kind = DEC_NAN;
        return d;
    }
    if (top5 == 0x1e) {
        d.kind = DEC_INF;
        return d;
    }
    d.kind = DEC_FINITE;
    const dwx_u128 emask = mask(f->ebits);
    if (((x >> (n - 3)) & 3) == 3) {
        /* the second form: coefficient 100 followed by cbits - 2 bits */
        d.e = (int)((x >> (f->cbits - 2)) & emask);
        d.c = ((dwx_u128)4 << (f->cbits - 2)) | (x & mask(f->cbits - 2));
    } else {
        d.e = (int)((x >> f->cbits) & emask);
        d.c = x & mask(f->cbits);
    }
    if (d.c >= pow10_128(f->p))
        d.c = 0; /* non-canonical: the value is zero (3.5.2) */
    d.e -= f->bias;
    return d;
}

/* D's encoding: C < 10^P and E in range when finite. */
static dwx_u128 encode(const dec_fmt *f, const dec *d)
{
    const unsigned n = f->bits;
    dwx_u128 x = d->neg ? (dwx_u128)1 << (n - 1) : 0;
    if (d->kind == DEC_NAN)
        return x | ((dwx_u128)0x1f << (n - 6));
    if (d->kind == DEC_INF)
        return x | ((dwx_u128)0x1e << (n - 6));
    const dwx_u128 be = (dwx_u128)(d->e + f->bias);
    if (d->c < ((dwx_u128)1 << f->cbits))
        return x | (be << f->cbits) | d->c;
    return x | ((dwx_u128)3 << (n - 3)) | (be << (f->cbits - 2)) | (d->c & mask(f->cbits - 2));
}

/* C x 10^E (STICKY: something nonzero below its last digit), rounded to
 * F's precision and exponent range: to nearest, ties to even; too large
 * is an infinity (IEEE 754-2008 4.3, 7.4, 7.5). */
static dwx_u128 round_to(const dec_fmt *f, bool neg, u256 c, int e, bool sticky)
{
    const u256 limit = u256_pow10(f->p);
    const int qmin = -f->bias;
    unsigned rd = 0; /* the last digit taken off */
    bool st = sticky, cut = false;
    while (u256_cmp(&c, &limit) >= 0 || e < qmin) {
        st = st || rd != 0;
        rd = u256_div10(&c);
        cut = true;
        e++;
    }
    if (cut && (rd > 5 || (rd == 5 && (st || (c.w[0] & 1))))) {
        const u256 one = u256_of(1);
        c = u256_add(&c, &one);
        if (u256_cmp(&c, &limit) == 0) {
            c = u256_pow10(f->p - 1);
            e++;
        }
    }
    dec d = {DEC_FINITE, neg, ((dwx_u128)c.w[1] << 64) | c.w[0], e};
    if (d.e > f->qmax) {
        /* clamp: pad the coefficient with zeros where it has room */
        while (d.e > f->qmax && (d.c == 0 || d.c * 10 < pow10_128(f->p))) {
            d.c *= 10;
            d.e--;
            if (d.c == 0)
                d.e = f->qmax;
        }
        if (d.e > f->qmax)
            d.kind = DEC_INF;
    }
    return encode(f, &d);
}

static dwx_u128 nan_of(const dec_fmt *f, bool neg)
{
    dec d = {DEC_NAN, neg, 0, 0};
    return encode(f, &d);
}

static dwx_u128 inf_of(const dec_fmt *f, bool neg)
{
    dec d = {DEC_INF, neg, 0, 0};
    return encode(f, &d);
}

/* The number of decimal digits of C (0 for 0). */
static int digits(dwx_u128 c)
{
    int n = 0;
    while (c) {
        c /= 10;
        n++;
    }
    return n;
}

/* Compare the magnitudes of finite A and B: -1, 0, 1. */
static int cmp_mag(const dec *a, const dec *b)
{
    if (a->c == 0 || b->c == 0)
        return a->c == 0 ? (b->c == 0 ? 0 : -1) : 1;
    const int aa = digits(a->c) + a->e, ab = digits(b->c) + b->e;
    if (aa != ab)
        return aa < ab ? -1 : 1;
    /* the same adjusted exponent: the exponents differ by less than P */
    u256 x = u256_of(a->c), y = u256_of(b->c);
    for (int k = a->e; k > b->e; k--)
        x = u256_mul_small(&x, 10);
    for (int k = b->e; k > a->e; k--)
        y = u256_mul_small(&y, 10);
    return u256_cmp(&x, &y);
}

/* A + B (B's sign already flipped for a subtraction). */
static dwx_u128 add(const dec_fmt *f, dec a, dec b)
{
    if (a.kind == DEC_NAN || b.kind == DEC_NAN)
        return nan_of(f, a.kind == DEC_NAN ? a.neg : b.neg);
    if (a.kind == DEC_INF || b.kind == DEC_INF) {
        if (a.kind == DEC_INF && b.kind == DEC_INF && a.neg != b.neg)
            return nan_of(f, false); /* inf - inf: invalid */
        return inf_of(f, a.kind == DEC_INF ? a.neg : b.neg);
    }
    if (a.e < b.e) {
        dec t = a;
        a = b;
        b = t;
    }
    /* A has the larger exponent: scale it down to B's (the preferred
     * exponent of an exact sum is the smaller one); past 70 digits B
     * only decides the rounding, as one unit below A's last digit */
    u256 hi = u256_of(a.c), lo = u256_of(b.c);
    const u256 cap = u256_pow10(70);
    int e = a.e;
    while (e > b.e && u256_cmp(&hi, &cap) < 0) {
        hi = u256_mul_small(&hi, 10);
        e--;
    }
    if (e > b.e) {
        hi = u256_mul_small(&hi, 10);
        e--;
        lo = u256_of(u256_zero(&lo) ? 0 : 1);
    }
    u256 s;
    bool neg;
    if (a.neg == b.neg) {
        s = u256_add(&hi, &lo);
        neg = a.neg;
    } else if (u256_cmp(&hi, &lo) >= 0) {
        s = u256_sub(&hi, &lo);
        neg = a.neg;
    } else {
        s = u256_sub(&lo, &hi);
        neg = b.neg;
    }
    if (u256_zero(&s))
        neg = a.neg && b.neg; /* an exact zero sum is +0 unless both are -0 */
    return round_to(f, neg, s, e, false);
}

static dwx_u128 mul(const dec_fmt *f, const dec *a, const dec *b)
{
    const bool neg = a->neg != b->neg;
    if (a->kind == DEC_NAN || b->kind == DEC_NAN)
        return nan_of(f, a->kind == DEC_NAN ? a->neg : b->neg);
    if (a->kind == DEC_INF || b->kind == DEC_INF) {
        if ((a->kind == DEC_FINITE && a->c == 0) || (b->kind == DEC_FINITE && b->c == 0))
            return nan_of(f, false); /* 0 x inf: invalid */
        return inf_of(f, neg);
    }
    return round_to(f, neg, u256_mul(a->c, b->c), a->e + b->e, false);
}

static dwx_u128 quotient(const dec_fmt *f, const dec *a, const dec *b)
{
    const bool neg = a->neg != b->neg;
    if (a->kind == DEC_NAN || b->kind == DEC_NAN)
        return nan_of(f, a->kind == DEC_NAN ? a->neg : b->neg);
    if (a->kind == DEC_INF)
        return b->kind == DEC_INF ? nan_of(f, false) : inf_of(f, neg);
    if (b->kind == DEC_INF)
        return round_to(f, neg, u256_of(0), -f->bias, false);
    if (b->c == 0) /* x / 0: an infinity (division by zero), 0 / 0 invalid */
        return a->c == 0 ? nan_of(f, false) : inf_of(f, neg);
    const int ideal = a->e - b->e;
    if (a->c == 0)
        return round_to(f, neg, u256_of(0), ideal, false);
    /* long division: digits until P + 1 of them or no remainder */
    dwx_u128 q = a->c / b->c, r = a->c % b->c;
    int e = ideal;
    const dwx_u128 enough = pow10_128(f->p);
    while (r != 0 && q < enough) {
        r *= 10; /* r < b->c < 10^34: no overflow */
        q = q * 10 + r / b->c;
        r %= b->c;
        e--;
    }
    if (r == 0)
        while (e < ideal && q % 10 == 0) { /* exact: the preferred exponent */
            q /= 10;
            e++;
        }
    return round_to(f, neg, u256_of(q), e, r != 0);
}

/* A op B for a comparison: 1 or 0; NaN is unordered. */
static int compare(unsigned op, const dec *a, const dec *b)
{
    if (a->kind == DEC_NAN || b->kind == DEC_NAN)
        return op == DWEXPR_OP_ne;
    int c;
    const bool za = a->kind == DEC_FINITE && a->c == 0, zb = b->kind == DEC_FINITE && b->c == 0;
    if (za && zb) {
        c = 0;
    } else if (a->neg != b->neg && !(za || zb)) {
        c = a->neg ? -1 : 1;
    } else {
        /* same sign, or one zero: compare as signed magnitudes */
        const bool an = za ? false : a->neg, bn = zb ? false : b->neg;
        if (an != bn) {
            c = an ? -1 : 1;
        } else {
            int m;
            if (a->kind == DEC_INF || b->kind == DEC_INF)
                m = a->kind == b->kind ? 0 : a->kind == DEC_INF ? 1 : -1;
            else
                m = cmp_mag(a, b);
            c = an ? -m : m;
        }
    }
    switch (op) {
    case DWEXPR_OP_eq: return c == 0;
    case DWEXPR_OP_ne: return c != 0;
    case DWEXPR_OP_lt: return c < 0;
    case DWEXPR_OP_le: return c <= 0;
    case DWEXPR_OP_gt: return c > 0;
    default: return c >= 0; /* ge */
    }
}

dwexpr_status dwx_dec_binary(unsigned op, uint32_t bits, dwx_u128 xa, dwx_u128 xb, dwx_u128 *r)
{
    const dec_fmt *f = fmt_of(bits);
    dec a = decode(f, xa), b = decode(f, xb);
    switch (op) {
    case DWEXPR_OP_plus: *r = add(f, a, b); return DWEXPR_OK;
    case DWEXPR_OP_minus:
        b.neg = !b.neg;
        *r = add(f, a, b);
        return DWEXPR_OK;
    case DWEXPR_OP_mul: *r = mul(f, &a, &b); return DWEXPR_OK;
    case DWEXPR_OP_div: *r = quotient(f, &a, &b); return DWEXPR_OK;
    case DWEXPR_OP_eq: case DWEXPR_OP_ne: case DWEXPR_OP_lt: case DWEXPR_OP_le:
    case DWEXPR_OP_gt: case DWEXPR_OP_ge:
        *r = (dwx_u128)compare(op, &a, &b);
        return DWEXPR_OK;
    default:
        return DWEXPR_E_USAGE;
    }
}

bool dwx_dec_to_int(uint32_t bits, dwx_u128 x, uint32_t ibits, bool is_signed, dwx_u128 *out)
{
    const dec d = decode(fmt_of(bits), x);
    if (d.kind != DEC_FINITE || ibits == 0 || ibits > 128)
        return false;
    dwx_u128 v = d.c;
    if (d.e < 0) {
        for (int k = d.e; k < 0 && v; k++) /* toward zero */
            v /= 10;
    } else {
        for (int k = 0; k < d.e && v; k++) {
            if (v > ~(dwx_u128)0 / 10)
                return false;
            v *= 10;
        }
    }
    /* the range of the integer type */
    const dwx_u128 top = (dwx_u128)1 << (ibits - 1); /* 2^(ibits-1) */
    if (d.neg && v) {
        if (!is_signed || v > top)
            return false;
        *out = ((dwx_u128)0 - v) & mask(ibits);
        return true;
    }
    if (is_signed ? v >= top : (ibits < 128 && v >= top * 2))
        return false;
    *out = v;
    return true;
}

dwx_u128 dwx_dec_from_int(uint32_t bits, dwx_u128 v, uint32_t ibits, bool is_signed)
{
    v &= mask(ibits);
    bool neg = false;
    if (is_signed && ibits && ((v >> (ibits - 1)) & 1)) {
        neg = true;
        v = ((dwx_u128)0 - v) & mask(ibits); /* the most negative: 2^(ibits-1) */
    }
    return round_to(fmt_of(bits), neg, u256_of(v), 0, false);
}

dwx_u128 dwx_dec_resize(uint32_t from, uint32_t to, dwx_u128 x)
{
    const dec_fmt *t = fmt_of(to);
    dec d = decode(fmt_of(from), x);
    if (d.kind != DEC_FINITE)
        return encode(t, &d);
    return round_to(t, d.neg, u256_of(d.c), d.e, false);
}

#endif
