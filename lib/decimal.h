/* lib/decimal.h: IEEE 754-2008 decimal floating point (DW_ATE_decimal_float)
 * in the binary integer decimal encoding (BID: x86-64's and AArch64's
 * _Decimal32/64/128, as GCC's libgcc and GDB's libdecnumber read them),
 * for the arithmetic that DWARF 5 2.5.1.4 allows on non-integral types
 * (abs, div, minus, mul, neg, plus), the comparisons and DW_OP_convert to
 * and from integers and between the three sizes. Results are rounded to
 * nearest, ties to even (IEEE's default), with IEEE's preferred exponents
 * for exact results. Needs 128-bit integers (DWX_HAVE_INT128); without
 * them dwx_dec_supported is false. */
#ifndef DWX_DECIMAL_H
#define DWX_DECIMAL_H

#include "evalint.h"

/* Whether a decimal type of BITS bits (32, 64, 128) is supported here. */
DWX_HIDDEN bool dwx_dec_supported(uint32_t bits);

#if defined(DWX_HAVE_INT128)
/* A, B: BITS-bit decimals (the encodings). Arithmetic (DWEXPR_OP_plus,
 * minus, mul, div): *R the result's encoding; a comparison (eq, ne, lt,
 * le, gt, ge): *R 1 or 0 (a NaN is unordered). DWEXPR_E_USAGE for any
 * other operation. */
DWX_HIDDEN dwexpr_status dwx_dec_binary(unsigned op, uint32_t bits, dwx_u128 a, dwx_u128 b,
                                        dwx_u128 *r);
/* Decimal A (BITS bits) truncated toward zero to an integer of IBITS bits
 * (signed or not): false for NaN, infinity or a value out of range. */
DWX_HIDDEN bool dwx_dec_to_int(uint32_t bits, dwx_u128 a, uint32_t ibits, bool is_signed,
                               dwx_u128 *out);
/* Integer V (IBITS bits, signed or not) as a BITS-bit decimal, rounded. */
DWX_HIDDEN dwx_u128 dwx_dec_from_int(uint32_t bits, dwx_u128 v, uint32_t ibits, bool is_signed);
/* Decimal A of FROM bits as one of TO bits (rounded when narrower). */
DWX_HIDDEN dwx_u128 dwx_dec_resize(uint32_t from, uint32_t to, dwx_u128 a);
#endif

#endif
