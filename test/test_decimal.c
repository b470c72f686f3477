/* test/test_decimal.c: decimal floating point (lib/decimal.c; DWARF 5
 * 2.5.1.4 arithmetic on DW_ATE_decimal_float values, IEEE 754-2008 BID
 * encodings). Hand-worked values, then (where the compiler has _Decimal32/
 * 64/128: GCC on x86-64) the same operations on random operands against
 * the compiler's own arithmetic (libgcc's BID library), bit for bit. */
#include <stdio.h>
#include <string.h>

#include "tap.h"
#include "xorshift.h"
#include "decimal.h"

#if defined(DWX_HAVE_INT128)

/* BID encodings, worked out by hand (IEEE 754-2008 3.5.2): the first
 * form, exponent field = E + bias, then the coefficient. */
static dwx_u128 d32(unsigned c, int e, int neg)
{
    if (c >= 1u << 23) /* the second form: 11, the exponent, the coefficient's last 21 bits */
        return ((dwx_u128)neg << 31) | ((dwx_u128)3 << 29) | ((dwx_u128)(e + 101) << 21) |
               (c & 0x1fffff);
    return ((dwx_u128)neg << 31) | ((dwx_u128)(e + 101) << 23) | c;
}
static dwx_u128 d64(uint64_t c, int e, int neg)
{
    if (c >= (uint64_t)1 << 53)
        return ((dwx_u128)neg << 63) | ((dwx_u128)3 << 61) | ((dwx_u128)(e + 398) << 51) |
               (c & (((uint64_t)1 << 51) - 1));
    return ((dwx_u128)neg << 63) | ((dwx_u128)(e + 398) << 53) | c;
}
static dwx_u128 d128(uint64_t c, int e, int neg)
{
    return ((dwx_u128)neg << 127) | ((dwx_u128)(e + 6176) << 113) | c;
}

static void hand_worked(void)
{
    dwx_u128 r = 0;
    /* GDB's typeddwarf.c f4: w = a * 8.0DF + 6.0DF with a = 8: 70.0
     * (640E-1 + 60E-1 = 700E-1: the preferred exponents, ea + eb for a
     * product and the smaller for a sum) */
    dwx_dec_binary(DWEXPR_OP_mul, 32, d32(8, 0, 0), d32(80, -1, 0), &r);
    TAP_OK(r == d32(640, -1, 0), "8 x 8.0 = 64.0 (640E-1)");
    dwx_dec_binary(DWEXPR_OP_plus, 32, r, d32(60, -1, 0), &r);
    TAP_OK(r == d32(700, -1, 0), "64.0 + 6.0 = 70.0 (700E-1)");
    dwx_u128 i = 0;
    TAP_OK(dwx_dec_to_int(32, r, 32, true, &i) && i == 70, "(int) 70.0 = 70");
    /* x = b / 8.0DD - 6.0DD with b = 16: 2 - 6.0 = -4.0 */
    dwx_dec_binary(DWEXPR_OP_div, 64, d64(16, 0, 0), d64(80, -1, 0), &r);
    TAP_OK(r == d64(2, 0, 0), "16 / 8.0 = 2E0 (the preferred exponent 0 - (-1) = 1 would "
                              "need a coefficient of 0.2)");
    dwx_dec_binary(DWEXPR_OP_minus, 64, r, d64(60, -1, 0), &r);
    TAP_OK(r == d64(40, -1, 1), "2 - 6.0 = -4.0 (-40E-1)");
    TAP_OK(dwx_dec_to_int(64, r, 64, true, &i) && (int64_t)(uint64_t)i == -4, "(long) -4.0 = -4");
    /* y = -c / 8.0DL with c = 64: -8 */
    r = d128(64, 0, 0) ^ ((dwx_u128)1 << 127);
    dwx_dec_binary(DWEXPR_OP_div, 128, r, d128(80, -1, 0), &r);
    TAP_OK(r == d128(8, 0, 1), "-64 / 8.0 = -8 (exact: exponent 1 not reachable, 0)");
    /* one third: 7 digits, rounded to nearest */
    dwx_dec_binary(DWEXPR_OP_div, 32, d32(1, 0, 0), d32(3, 0, 0), &r);
    TAP_OK(r == d32(3333333, -7, 0), "1 / 3 = 0.3333333");
    dwx_dec_binary(DWEXPR_OP_div, 32, d32(2, 0, 0), d32(3, 0, 0), &r);
    TAP_OK(r == d32(6666667, -7, 0), "2 / 3 = 0.6666667 (rounded up)");
    /* ties to even: 1234567 + 0.5 -> 1234568, 1234568 + 0.5 -> 1234568 */
    dwx_dec_binary(DWEXPR_OP_plus, 32, d32(1234567, 0, 0), d32(5, -1, 0), &r);
    TAP_OK(r == d32(1234568, 0, 0), "1234567 + 0.5 = 1234568 (tie to even)");
    dwx_dec_binary(DWEXPR_OP_plus, 32, d32(1234568, 0, 0), d32(5, -1, 0), &r);
    TAP_OK(r == d32(1234568, 0, 0), "1234568 + 0.5 = 1234568 (tie to even)");
    dwx_dec_binary(DWEXPR_OP_plus, 32, d32(1234568, 0, 0), d32(51, -2, 0), &r);
    TAP_OK(r == d32(1234569, 0, 0), "1234568 + 0.51 = 1234569 (above the tie)");
    /* a tiny addend only rounds: 1E90 + 1E-101 = 1E90 */
    dwx_dec_binary(DWEXPR_OP_plus, 32, d32(1, 90, 0), d32(1, -101, 0), &r);
    TAP_OK(r == d32(1000000, 84, 0), "1E90 + 1E-101 = 1000000E84");
    dwx_dec_binary(DWEXPR_OP_minus, 32, d32(1, 0, 0), d32(1, -101, 0), &r);
    TAP_OK(r == d32(1000000, -6, 0), "1 - 1E-101 = 1.000000 (rounded back up)");
    /* x - x = +0, with the smaller exponent */
    dwx_dec_binary(DWEXPR_OP_minus, 32, d32(25, -1, 0), d32(250, -2, 0), &r);
    TAP_OK(r == d32(0, -2, 0), "2.5 - 2.50 = +0E-2");
    /* overflow: an infinity; division by zero: an infinity; 0/0: NaN */
    dwx_dec_binary(DWEXPR_OP_mul, 32, d32(9999999, 90, 0), d32(10, 0, 0), &r);
    TAP_OK(r == ((dwx_u128)0x1e << 26), "9999999E90 x 10 = +inf");
    dwx_dec_binary(DWEXPR_OP_div, 32, d32(1, 0, 1), d32(0, 0, 0), &r);
    TAP_OK(r == (((dwx_u128)1 << 31) | ((dwx_u128)0x1e << 26)), "-1 / 0 = -inf");
    dwx_dec_binary(DWEXPR_OP_div, 32, d32(0, 0, 0), d32(0, 0, 0), &r);
    TAP_OK((r >> 26 & 0x1f) == 0x1f, "0 / 0 = NaN");
    /* comparisons: equal across cohorts, NaN unordered, -0 == +0 */
    dwx_dec_binary(DWEXPR_OP_eq, 64, d64(25, -1, 0), d64(2500, -3, 0), &r);
    TAP_OK(r == 1, "2.5 == 2.500");
    dwx_dec_binary(DWEXPR_OP_lt, 64, d64(25, -1, 1), d64(1, 0, 0), &r);
    TAP_OK(r == 1, "-2.5 < 1");
    dwx_dec_binary(DWEXPR_OP_gt, 64, d64(3, 5, 0), d64(299999, 0, 0), &r);
    TAP_OK(r == 1, "3E5 > 299999");
    dwx_dec_binary(DWEXPR_OP_eq, 64, d64(0, 3, 1), d64(0, -4, 0), &r);
    TAP_OK(r == 1, "-0E3 == 0E-4");
    dwx_u128 nan = (dwx_u128)0x1f << 58;
    dwx_dec_binary(DWEXPR_OP_eq, 64, nan, nan, &r);
    TAP_OK(r == 0, "NaN == NaN is false");
    dwx_dec_binary(DWEXPR_OP_ne, 64, nan, d64(1, 0, 0), &r);
    TAP_OK(r == 1, "NaN != 1 is true");
    TAP_OK(dwx_dec_binary(DWEXPR_OP_mod, 64, d64(1, 0, 0), d64(1, 0, 0), &r) == DWEXPR_E_USAGE,
           "mod is no decimal operation");
    /* the second BID form: coefficients of 2^23 and more (decimal32) */
    const dwx_u128 big = ((dwx_u128)3 << 29) | ((dwx_u128)101 << 21) | (9999999 & 0x1fffff);
    TAP_OK(dwx_dec_to_int(32, big, 32, true, &i) && i == 9999999, "9999999 in the second form");
    TAP_OK(big == d32(9999999, 0, 0), "the test's encoder agrees");
    dwx_dec_binary(DWEXPR_OP_plus, 32, d32(9999998, 0, 0), d32(1, 0, 0), &r);
    TAP_OK(r == big, "9999998 + 1 encodes in the second form");
    /* conversions */
    TAP_OK(dwx_dec_from_int(64, (dwx_u128)(uint64_t)-42, 64, true) == d64(42, 0, 1),
           "(long) -42 -> -42E0");
    TAP_OK(dwx_dec_from_int(32, 123456789, 32, false) == d32(1234568, 2, 0),
           "123456789 -> 1234568E2 (rounded to 7 digits)");
    TAP_OK(!dwx_dec_to_int(32, d32(3, 9, 0), 32, true, &i), "3E9 does not fit int");
    TAP_OK(dwx_dec_to_int(32, d32(3, 9, 0), 32, false, &i) && i == 3000000000u,
           "3E9 fits unsigned int");
    TAP_OK(!dwx_dec_to_int(32, d32(1, 0, 1), 32, false, &i), "-1 does not fit unsigned");
    TAP_OK(dwx_dec_to_int(32, d32(999, -3, 1), 32, false, &i) && i == 0,
           "-0.999 truncates to 0, which fits unsigned");
    TAP_OK(dwx_dec_to_int(64, d64(79, -1, 1), 8, true, &i) && i == 0xf9, "-7.9 -> (char) -7");
    TAP_OK(!dwx_dec_to_int(32, (dwx_u128)0x1e << 26, 64, true, &i), "inf fits no integer");
    TAP_OK(dwx_dec_resize(32, 128, d32(640, -1, 1)) == d128(640, -1, 1), "-64.0 widens as is");
    TAP_OK(dwx_dec_resize(64, 32, d64(123456789, -3, 0)) == d32(1234568, -1, 0),
           "123456.789 narrows to 123456.8");
    TAP_OK(dwx_dec_resize(128, 32, d128(1, 200, 0)) == ((dwx_u128)0x1e << 26),
           "1E200 narrows to +inf");
}

#if defined(__DEC32_MANT_DIG__) && defined(__GNUC__) && !defined(__clang__)
/* The compiler's decimal arithmetic (libgcc's BID) as the reference. */
__extension__ typedef _Decimal32 dec32;
__extension__ typedef _Decimal64 dec64;
__extension__ typedef _Decimal128 dec128;

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
    return xorshift64(&rng_state);
}

/* A random canonical BID value of BITS bits: small and full-length
 * coefficients, exponents near 0 and at the ends of the range, zeros,
 * sometimes an infinity or a NaN. */
static dwx_u128 random_dec(unsigned bits)
{
    const unsigned p = bits == 32 ? 7 : bits == 64 ? 16 : 34;
    const int bias = bits == 32 ? 101 : bits == 64 ? 398 : 6176;
    const int qmax = bits == 32 ? 90 : bits == 64 ? 369 : 6111;
    const uint64_t k = rnd();
    if (k % 50 == 0)
        return ((dwx_u128)((k >> 8) & 1) << (bits - 1)) | ((dwx_u128)(0x1e | ((k >> 9) & 1)) << (bits - 6));
    unsigned nd = (unsigned)(rnd() % (p + 1));
    dwx_u128 c = 0;
    for (unsigned d = 0; d < nd; d++)
        c = c * 10 + rnd() % 10;
    int e;
    switch (rnd() % 4) {
    case 0: e = (int)(rnd() % 9) - 4; break;
    case 1: e = (int)(rnd() % 41) - 20; break;
    case 2: e = -bias + (int)(rnd() % 12); break;
    default: e = qmax - (int)(rnd() % 12); break;
    }
    const unsigned cbits = bits == 32 ? 23 : bits == 64 ? 53 : 113;
    const unsigned ebits = bits - 1 - cbits;
    dwx_u128 x = (dwx_u128)((k >> 20) & 1) << (bits - 1);
    const dwx_u128 be = (dwx_u128)(e + bias) & (((dwx_u128)1 << ebits) - 1);
    if (c < ((dwx_u128)1 << cbits))
        return x | (be << cbits) | c;
    return x | ((dwx_u128)3 << (bits - 3)) | (be << (cbits - 2)) |
           (c & (((dwx_u128)1 << (cbits - 2)) - 1));
}

/* A NaN's bits beyond its class are the library's choice: compare NaNs as NaNs. */
static bool same(unsigned bits, dwx_u128 x, dwx_u128 y)
{
    const unsigned nan = 0x1f;
    const bool xn = ((x >> (bits - 6)) & 0x1f) == nan, yn = ((y >> (bits - 6)) & 0x1f) == nan;
    return xn || yn ? xn && yn : x == y;
}

#define DIFF_OPS(T, BITS)                                                                          \
    static unsigned diff_##T(unsigned n)                                                           \
    {                                                                                              \
        unsigned bad = 0;                                                                          \
        static const unsigned ops[] = {DWEXPR_OP_plus, DWEXPR_OP_minus, DWEXPR_OP_mul,             \
                                       DWEXPR_OP_div,  DWEXPR_OP_lt,    DWEXPR_OP_eq};             \
        for (unsigned k = 0; k < n; k++) {                                                         \
            const dwx_u128 xa = random_dec(BITS), xb = random_dec(BITS);                           \
            T a, b, c;                                                                             \
            memcpy(&a, &xa, sizeof a);                                                             \
            memcpy(&b, &xb, sizeof b);                                                             \
            const unsigned op = ops[k % 6];                                                        \
            dwx_u128 want = 0, got = 0;                                                            \
            switch (op) {                                                                          \
            case DWEXPR_OP_plus: c = a + b; break;                                                 \
            case DWEXPR_OP_minus: c = a - b; break;                                                \
            case DWEXPR_OP_mul: c = a * b; break;                                                  \
            case DWEXPR_OP_div: c = a / b; break;                                                  \
            case DWEXPR_OP_lt: want = a < b; break;                                                \
            default: want = a == b; break;                                                         \
            }                                                                                      \
            if (op == DWEXPR_OP_plus || op == DWEXPR_OP_minus || op == DWEXPR_OP_mul ||            \
                op == DWEXPR_OP_div)                                                               \
                memcpy(&want, &c, sizeof c);                                                       \
            dwx_dec_binary(op, BITS, xa, xb, &got);                                                \
            if (!same(BITS, got, want) && bad++ < 5)                                               \
                printf("#   %u-bit op %u: %016llx%016llx, %016llx%016llx: got %016llx%016llx, "     \
                       "want %016llx%016llx\n",                                                    \
                       (unsigned)BITS, op, (unsigned long long)(uint64_t)(xa >> 64),               \
                       (unsigned long long)(uint64_t)xa, (unsigned long long)(uint64_t)(xb >> 64), \
                       (unsigned long long)(uint64_t)xb,                                           \
                       (unsigned long long)(uint64_t)(got >> 64), (unsigned long long)(uint64_t)got, \
                       (unsigned long long)(uint64_t)(want >> 64),                                 \
                       (unsigned long long)(uint64_t)want);                                        \
        }                                                                                          \
        return bad;                                                                                \
    }
DIFF_OPS(dec32, 32)
DIFF_OPS(dec64, 64)
DIFF_OPS(dec128, 128)

/* Conversions against C's: integer to decimal (rounded), decimal to
 * integer (toward zero, where C defines it: in range), between sizes. */
static unsigned diff_conversions(unsigned n)
{
    unsigned bad = 0;
    for (unsigned k = 0; k < n; k++) {
        const int64_t v = (int64_t)rnd() >> (rnd() % 64);
        dec32 a = (dec32)v;
        dec64 b = (dec64)v;
        dec128 c = (dec128)v;
        dwx_u128 wa = 0, wb = 0, wc = 0;
        memcpy(&wa, &a, 4);
        memcpy(&wb, &b, 8);
        memcpy(&wc, &c, 16);
        if (dwx_dec_from_int(32, (dwx_u128)(uint64_t)v, 64, true) != wa ||
            dwx_dec_from_int(64, (dwx_u128)(uint64_t)v, 64, true) != wb ||
            dwx_dec_from_int(128, (dwx_u128)(uint64_t)v, 64, true) != wc) {
            if (bad++ < 5)
                printf("#   from %lld\n", (long long)v);
        }
        const dwx_u128 x = random_dec(64);
        dec64 d;
        memcpy(&d, &x, 8);
        dwx_u128 got;
        const bool fits = dwx_dec_to_int(64, x, 64, true, &got);
        if (fits && (int64_t)(uint64_t)got != (int64_t)d && bad++ < 5)
            printf("#   to int64: %016llx\n", (unsigned long long)(uint64_t)x);
        dec32 narrow = (dec32)d;
        dec128 wide = (dec128)d;
        dwx_u128 wn = 0, ww = 0;
        memcpy(&wn, &narrow, 4);
        memcpy(&ww, &wide, 16);
        if ((!same(32, dwx_dec_resize(64, 32, x), wn) || !same(128, dwx_dec_resize(64, 128, x), ww)) &&
            bad++ < 5)
            printf("#   resize %016llx\n", (unsigned long long)(uint64_t)x);
    }
    return bad;
}

static void against_the_compiler(void)
{
    TAP_OK(diff_dec32(30000) == 0, "decimal32: 30,000 random operations as libgcc computes them");
    TAP_OK(diff_dec64(30000) == 0, "decimal64: 30,000 random operations as libgcc computes them");
    TAP_OK(diff_dec128(30000) == 0, "decimal128: 30,000 random operations as libgcc computes them");
    TAP_OK(diff_conversions(20000) == 0, "conversions: 20,000 random values as C converts them");
}
#else
static void against_the_compiler(void)
{
    TAP_OK(1, "# SKIP the compiler has no decimal floating point");
}
#endif

int main(void)
{
    hand_worked();
    against_the_compiler();
    return TAP_DONE();
}
#else
int main(void)
{
    TAP_OK(!dwx_dec_supported(32), "no 128-bit integers: decimal floating point not supported");
    return TAP_DONE();
}
#endif
